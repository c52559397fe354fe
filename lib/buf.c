// SPDX-License-Identifier: MIT
/*
 * buf.c - struct rcl_buf, the growable string (see raidcli.h).
 */
#include <stdio.h>
#include <string.h>

#include "raidcli.h"

void rcl_buf_init(struct rcl_buf *sb)
{
	*sb = (struct rcl_buf)RCL_BUF_INIT;
}

void rcl_buf_release(struct rcl_buf *sb)
{
	if (sb->alloc)
		rcl_free(sb->buf);
	rcl_buf_init(sb);
}

void rcl_buf_reset(struct rcl_buf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
	sb->oom = false;
}

/* Make room for @extra more bytes plus the NUL; false (and oom) if not. */
static bool buf_grow(struct rcl_buf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;
	size_t alloc;
	char *mem;

	if (sb->oom)
		return false;
	if (want <= sb->alloc)
		return true;
	alloc = sb->alloc ? sb->alloc : 64;
	while (alloc < want)
		alloc *= 2;
	mem = rcl_realloc(sb->alloc ? sb->buf : NULL, alloc);
	if (!mem) {
		sb->oom = true;
		return false;
	}
	if (!sb->alloc)
		mem[0] = '\0';
	sb->buf = mem;
	sb->alloc = alloc;
	return true;
}

void rcl_buf_add(struct rcl_buf *sb, const char *data, size_t len)
{
	if (!buf_grow(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void rcl_buf_adds(struct rcl_buf *sb, const char *s)
{
	rcl_buf_add(sb, s, strlen(s));
}

void rcl_buf_addch(struct rcl_buf *sb, char c)
{
	rcl_buf_add(sb, &c, 1);
}

void rcl_buf_addchars(struct rcl_buf *sb, char c, size_t count)
{
	if (!buf_grow(sb, count))
		return;
	memset(sb->buf + sb->len, c, count);
	sb->len += count;
	sb->buf[sb->len] = '\0';
}

void rcl_buf_vaddf(struct rcl_buf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	int need;

	va_copy(copy, ap);
	need = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (need < 0 || !buf_grow(sb, (size_t)need))
		return;
	vsnprintf(sb->buf + sb->len, (size_t)need + 1, fmt, ap);
	sb->len += (size_t)need;
}

void rcl_buf_addf(struct rcl_buf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rcl_buf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *rcl_buf_detach(struct rcl_buf *sb)
{
	char *s;

	if (sb->oom) {
		rcl_buf_release(sb);
		return NULL;
	}
	s = sb->alloc ? sb->buf : rcl_strdup("");
	rcl_buf_init(sb);
	return s;
}
