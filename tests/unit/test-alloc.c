// SPDX-License-Identifier: MIT
/*
 * test-alloc.c - the payload buffers of rcl_pages_alloc(): what they give,
 * what they count, and, under AddressSanitizer, which of their bytes a
 * stray access is reported in. (The allocator's fault injection is
 * test-oom.c's.)
 */
#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "unit.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

START_TEST(test_pages_are_zeroed_aligned_and_counted)
{
	size_t before = rcl_pages_in_use(), size = 2 * page_size() + 100;
	uint8_t *pages = rcl_pages_alloc(size);

	ck_assert_ptr_nonnull(pages);
	ck_assert_uint_eq((uintptr_t)pages % page_size(), 0);
	for (size_t i = 0; i < size; i++)
		ck_assert_uint_eq(pages[i], 0);
	ck_assert_uint_eq(rcl_pages_in_use(), before + size);
	rcl_pages_free(pages, size);
	ck_assert_uint_eq(rcl_pages_in_use(), before);
	rcl_pages_free(NULL, 0);
}
END_TEST

/*
 * A reused buffer: the bytes past its current use, and past its size in the
 * last page, are reported; its used bytes are not; and a freed buffer
 * leaves no poison behind for the next mapping at its address.
 */
START_TEST(test_bytes_past_the_use_are_reported_under_asan)
{
#ifdef UNDER_ASAN
	size_t size = 3 * page_size();
	uint8_t *pages = rcl_pages_alloc(size - 100);

	ck_assert_ptr_nonnull(pages);
	ck_assert_ptr_null(__asan_region_is_poisoned(pages, size - 100));
	ck_assert(__asan_address_is_poisoned(pages + size - 100));
	rcl_pages_use(pages, size - 100, 4096);
	ck_assert_ptr_null(__asan_region_is_poisoned(pages, 4096));
	ck_assert(__asan_address_is_poisoned(pages + 4096));
	ck_assert(__asan_address_is_poisoned(pages + size - 101));
	rcl_pages_use(pages, size - 100, 100);
	ck_assert_ptr_null(__asan_region_is_poisoned(pages, 100));
	ck_assert(__asan_address_is_poisoned(pages + 100));
	rcl_pages_use(pages, size - 100, size - 100);
	ck_assert_ptr_null(__asan_region_is_poisoned(pages, size - 100));
	ck_assert(__asan_address_is_poisoned(pages + size - 100));
	rcl_pages_use(pages, size - 100, 100);
	rcl_pages_free(pages, size - 100);
	ck_assert_ptr_null(__asan_region_is_poisoned(pages, size));
#else
	printf("SKIP: not built with AddressSanitizer\n");
#endif
}
END_TEST

static Suite *alloc_suite(void)
{
	Suite *s = suite_create("alloc");
	TCase *tc;

	tc = tcase_create("rcl_pages_alloc");
	tcase_add_test(tc, test_pages_are_zeroed_aligned_and_counted);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_pages_use");
	tcase_add_test(tc, test_bytes_past_the_use_are_reported_under_asan);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(alloc_suite());
}
