// SPDX-License-Identifier: MIT
/*
 * sock-io.c - whole-buffer socket sends (see sock-io.h).
 */
#include <errno.h>
#include <sys/socket.h>

#include "sock-io.h"

int sock_send_iov(int fd, struct iovec *iov, int iovcnt)
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

int sock_send_all(int fd, const void *buf, size_t len)
{
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};

	return sock_send_iov(fd, &iov, 1);
}
