// SPDX-License-Identifier: MIT
/*
 * nbd-io.c - whole-buffer socket reads for the NBD server (sends are
 * sock-io.c's).
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "nbd-internal.h"

int nbd_recv_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int nbd_discard(int fd, uint64_t len)
{
	char sink[16384];

	while (len) {
		size_t chunk = len < sizeof(sink) ? (size_t)len : sizeof(sink);

		if (nbd_recv_all(fd, sink, chunk) < 0)
			return -1;
		len -= chunk;
	}
	return 0;
}

/* Take up to @len bytes from @in into @buf (NULL: drop them). Return: how many. */
static size_t inbuf_take(struct nbd_inbuf *in, uint8_t *buf, size_t len)
{
	size_t n = in->end - in->start < len ? in->end - in->start : len;

	if (buf)
		memcpy(buf, in->data + in->start, n);
	in->start += n;
	return n;
}

int nbd_inbuf_recv(int fd, struct nbd_inbuf *in, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		size_t n = inbuf_take(in, p, len), want;
		ssize_t got;

		len -= n;
		p = p ? p + n : NULL;
		if (!len)
			break;
		in->start = in->end = 0;
		if (p && len > sizeof(in->data) / 2)
			return nbd_recv_all(fd, p, len);
		/* At least what is due, if it fits (a payload being dropped may not). */
		want = len > in->refill ? len : in->refill;
		got = recv(fd, in->data, want < sizeof(in->data) ? want : sizeof(in->data), 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		in->end = (size_t)got;
	}
	return 0;
}
