// SPDX-License-Identifier: MIT
/*
 * alloc.c - the one allocator, with fault injection.
 *
 * Every allocation in raidcli goes through here so that tests can fail the
 * Nth one (SQLite's malloc tests): transiently (only the Nth fails) or
 * persistently (the Nth and every later one fail).
 */
#include <sanitizer/asan_interface.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "raidcli.h"

/*
 * The controller process allocates from many threads at once: the count is
 * atomic. Setting up an injection is done by one thread, before any other
 * allocates.
 */
static atomic_ulong alloc_count;
static unsigned long fail_at;
static bool fail_persistent;
/* What rcl_pages_alloc() gave and rcl_pages_free() has not taken back. */
static atomic_size_t pages_in_use;

unsigned long rcl_alloc_fail_after(unsigned long n, bool persistent)
{
	unsigned long made = atomic_exchange(&alloc_count, 0);

	fail_at = n;
	fail_persistent = persistent;
	return made;
}

static bool injected_failure(void)
{
	unsigned long count = atomic_fetch_add_explicit(&alloc_count, 1, memory_order_relaxed) + 1;

	if (!fail_at)
		return false;
	return count == fail_at || (fail_persistent && count > fail_at);
}

void *rcl_malloc(size_t size)
{
	if (injected_failure())
		return NULL;
	return malloc(size ? size : 1);
}

void *rcl_calloc(size_t nmemb, size_t size)
{
	if (injected_failure())
		return NULL;
	return calloc(nmemb ? nmemb : 1, size ? size : 1);
}

void *rcl_realloc(void *ptr, size_t size)
{
	if (injected_failure())
		return NULL;
	return realloc(ptr, size ? size : 1);
}

char *rcl_strndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *copy = rcl_malloc(len + 1);

	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	copy[len] = '\0';
	return copy;
}

char *rcl_strdup(const char *s)
{
	return rcl_strndup(s, strlen(s));
}

void rcl_free(void *ptr)
{
	free(ptr);
}

/*
 * The bytes of a @size-byte buffer's last page past @size. They are
 * poisoned for AddressSanitizer while the buffer lives (no-ops in other
 * builds): else an overflow that stays inside the last page faults nowhere.
 */
static size_t slack(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (page - size % page) % page;
}

void *rcl_pages_alloc(size_t size)
{
	void *pages;

	if (injected_failure())
		return NULL;
	pages =
	    mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return NULL;
	ASAN_POISON_MEMORY_REGION((char *)pages + size, slack(size));
	atomic_fetch_add_explicit(&pages_in_use, size, memory_order_relaxed);
	return pages;
}

void rcl_pages_use(void *pages, size_t size, size_t used)
{
	ASAN_UNPOISON_MEMORY_REGION(pages, used);
	ASAN_POISON_MEMORY_REGION((char *)pages + used, size - used + slack(size));
}

void rcl_pages_free(void *pages, size_t size)
{
	if (!pages)
		return;
	/* The shadow outlives the mapping: the next one at this address starts clean. */
	ASAN_UNPOISON_MEMORY_REGION(pages, size + slack(size));
	munmap(pages, size ? size : 1);
	atomic_fetch_sub_explicit(&pages_in_use, size, memory_order_relaxed);
}

size_t rcl_pages_in_use(void)
{
	return atomic_load(&pages_in_use);
}
