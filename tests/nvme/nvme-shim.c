// SPDX-License-Identifier: MIT
/*
 * nvme-shim.c - the ioctl() interposer behind nvme-shim.h, built as a
 * shared library that the nvme tests' meson.build puts in LD_PRELOAD so it
 * comes before libc's for libnvme's calls. A command that differs from the
 * one expected fails with EPROTO and is recorded, so the test both sees
 * the failure and can say which field was wrong.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "nvme-shim.h"

static char drive[4096];
static uint32_t drive_nsid;
static const struct shim_cmd *expected;
static size_t expected_count, sent;
static char failure[512];

void shim_expect(const char *path, uint32_t nsid, const struct shim_cmd *cmds, size_t count)
{
	if (!realpath(path, drive))
		snprintf(drive, sizeof(drive), "%s", path);
	drive_nsid = nsid;
	expected = cmds;
	expected_count = count;
	sent = 0;
	failure[0] = 0;
}

const char *shim_check(void)
{
	if (!failure[0] && sent < expected_count)
		snprintf(failure, sizeof(failure),
		         "%zu of %zu commands were never sent (the next: opcode 0x%02x)",
		         expected_count - sent, expected_count, expected[sent].opcode);
	return failure[0] ? failure : NULL;
}

/* Whether @fd is open on the drive's file. */
static bool on_drive(int fd)
{
	char link[64], target[4096];
	ssize_t n;

	if (!drive[0])
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = 0;
	return !strcmp(target, drive);
}

/* Record the first mismatch; the ioctl then fails with EPROTO. */
static int mismatch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int mismatch(const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(failure, sizeof(failure), "command %zu: ", sent + 1);

	if ((size_t)n < sizeof(failure)) {
		va_start(ap, fmt);
		vsnprintf(failure + n, sizeof(failure) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	errno = EPROTO;
	return -1;
}

#define FIELD(name)                                                                                \
	if (cmd->name != want->name)                                                               \
	return mismatch("opcode 0x%02x: " #name " is 0x%llx, the specification wants 0x%llx",      \
	                cmd->opcode, (unsigned long long)cmd->name,                                \
	                (unsigned long long)want->name)

static int check_fields(const struct nvme_passthru_cmd *cmd, const struct shim_cmd *want)
{
	FIELD(opcode);
	FIELD(nsid);
	FIELD(cdw10);
	FIELD(cdw11);
	FIELD(cdw12);
	FIELD(cdw13);
	FIELD(cdw14);
	FIELD(cdw15);
	FIELD(data_len);
	FIELD(timeout_ms);
	if (cmd->flags || cmd->cdw2 || cmd->cdw3 || cmd->metadata_len || cmd->metadata)
		return mismatch("opcode 0x%02x: flags, cdw2, cdw3 or metadata set", cmd->opcode);
	return 0;
}

static int answer(struct nvme_passthru_cmd *cmd)
{
	const struct shim_cmd *want;
	uint8_t *data = (uint8_t *)(uintptr_t)cmd->addr;

	if (failure[0])
		return mismatch("sent after an earlier mismatch");
	if (sent == expected_count)
		return mismatch("opcode 0x%02x (cdw10 0x%x) beyond the %zu expected", cmd->opcode,
		                cmd->cdw10, expected_count);
	want = &expected[sent];
	if (check_fields(cmd, want))
		return -1;
	if (want->in_data)
		for (uint32_t i = 0; i < cmd->data_len; i++)
			if (data[i] != ((const uint8_t *)want->in_data)[i])
				return mismatch("opcode 0x%02x: data byte %u is 0x%02x, not 0x%02x",
				                cmd->opcode, i, data[i],
				                ((const uint8_t *)want->in_data)[i]);
	sent++;
	if (want->status < 0) {
		errno = -want->status;
		return -1;
	}
	if (want->out_data)
		memcpy(data, want->out_data,
		       want->out_len < cmd->data_len ? want->out_len : cmd->data_len);
	cmd->result = want->result;
	return want->status;
}

int ioctl(int fd, unsigned long request, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (on_drive(fd)) {
		if (request == NVME_IOCTL_ADMIN_CMD)
			return answer(arg);
		if (request == (unsigned long)NVME_IOCTL_ID && drive_nsid)
			return (int)drive_nsid;
		errno = ENOTTY;
		return -1;
	}
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, request, arg);
}
