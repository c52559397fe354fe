// SPDX-License-Identifier: MIT
/*
 * io.c - the soft controller's write hook (see io.h).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

static const struct rcl_soft_io posix_io = {.pwrite = pwrite, .fdatasync = fdatasync};
static const struct rcl_soft_io *hook = &posix_io;

void rcl_soft_set_io(const struct rcl_soft_io *io)
{
	hook = io ? io : &posix_io;
}

const struct rcl_soft_io *rcl_soft_io(void)
{
	return hook;
}

enum rcl_status rcl_soft_write(int fd, const void *buf, size_t len, uint64_t off, const char *what,
                               struct rcl_error *err)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n =
		    hook->pwrite(fd, (const char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return rcl_fail_errno(err, RCL_SYSTEM, n < 0 ? errno : EIO,
			                      "cannot write the %s: %s", what,
			                      strerror(n < 0 ? errno : EIO));
		done += (size_t)n;
	}
	return RCL_OK;
}

enum rcl_status rcl_soft_sync(int fd, const char *what, struct rcl_error *err)
{
	if (hook->fdatasync(fd) < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot flush the %s: %s", what,
		                      strerror(errno));
	return RCL_OK;
}

enum rcl_status rcl_soft_read_upto(int fd, void *buf, size_t len, uint64_t off, const char *what,
                                   size_t *got, struct rcl_error *err)
{
	for (*got = 0; *got < len;) {
		ssize_t n = pread(fd, (char *)buf + *got, len - *got, (off_t)(off + *got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return rcl_fail_errno(err, RCL_SYSTEM, errno,
			                      "cannot read the %s at byte %llu: %s", what,
			                      (unsigned long long)(off + *got), strerror(errno));
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return RCL_OK;
}

enum rcl_status rcl_soft_read(int fd, void *buf, size_t len, uint64_t off, struct rcl_error *err)
{
	size_t got;
	enum rcl_status st = rcl_soft_read_upto(fd, buf, len, off, "drive", &got, err);

	if (!st && got < len)
		return rcl_fail_errno(err, RCL_SYSTEM, EIO, "the drive ends before byte %llu",
		                      (unsigned long long)(off + got));
	return st;
}
