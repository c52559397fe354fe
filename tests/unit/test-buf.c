// SPDX-License-Identifier: MIT
/*
 * test-buf.c - struct rcl_buf: the growable string every formatter in
 * raidcli writes into. One TCase per function.
 */
#include <string.h>

#include "unit.h"

/* Append through rcl_buf_vaddf, as the library's own formatters do. */
static void __attribute__((format(printf, 2, 3))) vaddf(struct rcl_buf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rcl_buf_vaddf(sb, fmt, ap);
	va_end(ap);
}

START_TEST(test_new_buffer_is_an_empty_string_without_memory)
{
	struct rcl_buf sb = RCL_BUF_INIT, other;

	ck_assert_str_eq(sb.buf, "");
	ck_assert_uint_eq(sb.len, 0);
	ck_assert_uint_eq(sb.alloc, 0);
	ck_assert(!sb.oom);
	memset(&other, 0x55, sizeof(other));
	rcl_buf_init(&other);
	ck_assert_str_eq(other.buf, "");
	ck_assert_uint_eq(other.alloc, 0);
	ck_assert(!other.oom);
}
END_TEST

START_TEST(test_release_empties_and_buffer_is_reusable)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_release(&sb); /* releasing an untouched buffer is fine */
	rcl_buf_adds(&sb, "first");
	rcl_buf_release(&sb);
	ck_assert_str_eq(sb.buf, "");
	ck_assert_uint_eq(sb.len, 0);
	ck_assert_uint_eq(sb.alloc, 0);
	rcl_buf_adds(&sb, "second");
	ck_assert_str_eq(sb.buf, "second");
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_reset_keeps_memory_and_clears_oom)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	size_t alloc;

	rcl_buf_reset(&sb); /* on an empty buffer: no write to the static "" */
	ck_assert_str_eq(sb.buf, "");
	rcl_buf_adds(&sb, "some text");
	alloc = sb.alloc;
	rcl_buf_reset(&sb);
	ck_assert_str_eq(sb.buf, "");
	ck_assert_uint_eq(sb.len, 0);
	ck_assert_uint_eq(sb.alloc, alloc);
	sb.oom = true;
	rcl_buf_reset(&sb);
	ck_assert(!sb.oom);
	rcl_buf_adds(&sb, "again");
	ck_assert_str_eq(sb.buf, "again");
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_add_copies_exact_bytes_including_nul)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_add(&sb, "ab\0cd", 5);
	ck_assert_uint_eq(sb.len, 5);
	ck_assert_mem_eq(sb.buf, "ab\0cd", 6);
	rcl_buf_add(&sb, "xyz", 0);
	ck_assert_uint_eq(sb.len, 5);
	ck_assert_int_eq(sb.buf[5], '\0');
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_add_grows_past_many_reallocations)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	char expect[10001];

	for (int i = 0; i < 10000; i++) {
		rcl_buf_add(&sb, &"0123456789"[i % 10], 1);
		expect[i] = (char)('0' + i % 10);
	}
	expect[10000] = '\0';
	ck_assert_uint_eq(sb.len, 10000);
	ck_assert(sb.alloc > sb.len);
	ck_assert_str_eq(sb.buf, expect);
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_adds_appends_a_string)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_adds(&sb, "Drive ");
	rcl_buf_adds(&sb, "");
	rcl_buf_adds(&sb, "/c0/e252/s0");
	ck_assert_str_eq(sb.buf, "Drive /c0/e252/s0");
	ck_assert_uint_eq(sb.len, strlen("Drive /c0/e252/s0"));
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_addch_appends_one_character)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_addch(&sb, '/');
	rcl_buf_addch(&sb, 'c');
	rcl_buf_addch(&sb, '0');
	ck_assert_str_eq(sb.buf, "/c0");
	ck_assert_uint_eq(sb.len, 3);
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_addchars_draws_a_table_rule)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_addchars(&sb, '-', 0);
	ck_assert_str_eq(sb.buf, "");
	rcl_buf_addchars(&sb, '-', 80);
	ck_assert_uint_eq(sb.len, 80);
	ck_assert_uint_eq(strspn(sb.buf, "-"), 80);
	ck_assert_int_eq(sb.buf[80], '\0');
	rcl_buf_addchars(&sb, ' ', 200);
	ck_assert_uint_eq(sb.len, 280);
	ck_assert_int_eq(sb.buf[279], ' ');
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_addf_formats_like_printf)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	char big[3000];

	rcl_buf_addf(&sb, "%u:%u", 252u, 3u);
	rcl_buf_addf(&sb, " %s=%d", "ErrCd", 35);
	rcl_buf_addf(&sb, "%s", "");
	ck_assert_str_eq(sb.buf, "252:3 ErrCd=35");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	rcl_buf_addf(&sb, "[%s]", big);
	ck_assert_uint_eq(sb.len, strlen("252:3 ErrCd=35") + 2 + sizeof(big) - 1);
	ck_assert_int_eq(sb.buf[sb.len - 1], ']');
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_vaddf_appends_from_a_va_list)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	vaddf(&sb, "%s %05.1f", "size", 1.5);
	vaddf(&sb, "%c", '!');
	ck_assert_str_eq(sb.buf, "size 001.5!");
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_out_of_memory_is_sticky_and_keeps_contents)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	char big[200];

	rcl_buf_adds(&sb, "kept");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	/* The next growth fails: the append is dropped, nothing is torn. */
	rcl_alloc_fail_after(1, false);
	rcl_buf_adds(&sb, big);
	rcl_alloc_fail_after(0, false);
	ck_assert(sb.oom);
	ck_assert_str_eq(sb.buf, "kept");
	ck_assert_uint_eq(sb.len, 4);
	/* Memory is back, but the buffer stays failed until reset. */
	rcl_buf_adds(&sb, "more");
	rcl_buf_addch(&sb, 'x');
	rcl_buf_addchars(&sb, 'x', 3);
	rcl_buf_addf(&sb, "%d", 1);
	ck_assert_str_eq(sb.buf, "kept");
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_out_of_memory_on_first_append_leaves_empty_string)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_alloc_fail_after(1, true);
	rcl_buf_addf(&sb, "%s", "text");
	rcl_alloc_fail_after(0, false);
	ck_assert(sb.oom);
	ck_assert_str_eq(sb.buf, "");
	ck_assert_uint_eq(sb.alloc, 0);
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_detach_hands_over_the_string)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	char *s;

	rcl_buf_adds(&sb, "owned by the caller");
	s = rcl_buf_detach(&sb);
	ck_assert_str_eq(s, "owned by the caller");
	ck_assert_str_eq(sb.buf, "");
	ck_assert_uint_eq(sb.alloc, 0);
	rcl_free(s);
}
END_TEST

START_TEST(test_detach_of_empty_buffer_gives_freeable_empty_string)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	char *s = rcl_buf_detach(&sb);

	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "");
	rcl_free(s); /* not the static "" */
}
END_TEST

START_TEST(test_detach_after_out_of_memory_returns_null)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_adds(&sb, "partial");
	sb.oom = true;
	ck_assert_ptr_null(rcl_buf_detach(&sb));
	ck_assert_str_eq(sb.buf, "");
	ck_assert(!sb.oom);
	ck_assert_uint_eq(sb.alloc, 0);
}
END_TEST

static Suite *buf_suite(void)
{
	Suite *s = suite_create("buf");
	TCase *tc;

	tc = tcase_create("rcl_buf_init");
	tcase_add_test(tc, test_new_buffer_is_an_empty_string_without_memory);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_buf_release");
	tcase_add_test(tc, test_release_empties_and_buffer_is_reusable);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_buf_reset");
	tcase_add_test(tc, test_reset_keeps_memory_and_clears_oom);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_buf_add");
	tcase_add_test(tc, test_add_copies_exact_bytes_including_nul);
	tcase_add_test(tc, test_add_grows_past_many_reallocations);
	tcase_add_test(tc, test_out_of_memory_is_sticky_and_keeps_contents);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_buf_adds");
	tcase_add_test(tc, test_adds_appends_a_string);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_buf_addch");
	tcase_add_test(tc, test_addch_appends_one_character);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_buf_addchars");
	tcase_add_test(tc, test_addchars_draws_a_table_rule);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_buf_addf");
	tcase_add_test(tc, test_addf_formats_like_printf);
	tcase_add_test(tc, test_out_of_memory_on_first_append_leaves_empty_string);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_buf_vaddf");
	tcase_add_test(tc, test_vaddf_appends_from_a_va_list);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_buf_detach");
	tcase_add_test(tc, test_detach_hands_over_the_string);
	tcase_add_test(tc, test_detach_of_empty_buffer_gives_freeable_empty_string);
	tcase_add_test(tc, test_detach_after_out_of_memory_returns_null);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(buf_suite());
}
