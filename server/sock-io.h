/* SPDX-License-Identifier: MIT */
/*
 * sock-io.h - whole-buffer sends on a socket, for the NBD server and both
 * ends of the control socket.
 *
 * They send with MSG_NOSIGNAL: when the peer went away (an NBD client gone,
 * a controller process killed mid-request) the sender gets EPIPE to report
 * rather than a SIGPIPE that ends it without a word.
 */
#ifndef RCL_SERVER_SOCK_IO_H
#define RCL_SERVER_SOCK_IO_H

#include <stddef.h>
#include <sys/uio.h>

/*
 * sock_send_iov() - sendmsg() until all of @iov is sent; steps @iov over
 * what went out. Return: 0, or -1 with errno set.
 */
int sock_send_iov(int fd, struct iovec *iov, int iovcnt);

/* sock_send_all() - send all @len bytes of @buf. Return: 0, or -1 with errno set. */
int sock_send_all(int fd, const void *buf, size_t len);

#endif
