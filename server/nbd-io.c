// SPDX-License-Identifier: MIT
/*
 * nbd-io.c - whole-buffer socket reads and writes for the NBD server.
 *
 * Sends use MSG_NOSIGNAL so a client that went away yields EPIPE rather
 * than killing the process with SIGPIPE.
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

int nbd_send_iov(int fd, struct iovec *iov, int iovcnt)
{
	struct msghdr msg = {.msg_iov = iov, .msg_iovlen = (size_t)iovcnt};

	while (msg.msg_iovlen) {
		ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		/* Partial send: step over what went out. */
		while (msg.msg_iovlen && (size_t)n >= msg.msg_iov->iov_len) {
			n -= (ssize_t)msg.msg_iov->iov_len;
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (msg.msg_iovlen) {
			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + n;
			msg.msg_iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

int nbd_send_all(int fd, const void *buf, size_t len)
{
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};

	return nbd_send_iov(fd, &iov, 1);
}
