// SPDX-License-Identifier: MIT
/*
 * fault-io.c - the fault tests' I/O layer (fault-io.h): crashes, torn and
 * lost writes, and I/O errors under the soft controller's writes.
 */
#include "fault-io.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "soft/format/io.h"

/* Torn writes split at the first sector. */
#define SECTOR 512u

struct fault fault;

/* Forget @fd's undo entries (@fd < 0: all), putting the old bytes back when @revert. */
static void settle(int fd, bool revert)
{
	size_t kept = 0;

	for (size_t i = fault.undo_count; i-- > 0;) {
		struct fault_undo *u = &fault.undo[i];

		if (fd >= 0 && u->fd != fd)
			continue;
		if (revert)
			ck_assert_int_eq(pwrite(u->fd, u->old, u->len, u->off), (ssize_t)u->len);
		free(u->old);
		u->old = NULL;
	}
	for (size_t i = 0; i < fault.undo_count; i++)
		if (fault.undo[i].old)
			fault.undo[kept++] = fault.undo[i];
	fault.undo_count = kept;
}

static void remember(int fd, size_t len, off_t off)
{
	struct fault_undo *u;

	fault.undo = realloc(fault.undo, (fault.undo_count + 1) * sizeof(*fault.undo));
	ck_assert_ptr_nonnull(fault.undo);
	u = &fault.undo[fault.undo_count++];
	*u = (struct fault_undo){fd, off, len, calloc(1, len)};
	ck_assert_ptr_nonnull(u->old);
	/* Past the end of the file reads short: zeros stand in. */
	ck_assert_int_ge(pread(fd, u->old, len, off), 0);
}

static bool loses_unsynced(void)
{
	return fault.crash == FAULT_UNSYNCED || fault.crash == FAULT_UNSYNCED_AT_WRITE;
}

void fault_arm(enum fault_mode mode, unsigned long limit)
{
	settle(-1, false);
	free(fault.undo);
	memset(&fault, 0, sizeof(fault));
	fault.mode = mode;
	fault.limit = limit;
}

/* The machine dies now; @buf is the write being made at that moment, if any. */
static void crash_at(int fd, const uint8_t *buf, size_t len, off_t off)
{
	if (buf && fault.crash == FAULT_TORN_HEAD)
		ck_assert_int_eq(pwrite(fd, buf, SECTOR, off), SECTOR);
	if (buf && fault.crash == FAULT_TORN_TAIL)
		ck_assert_int_eq(pwrite(fd, buf + SECTOR, len - SECTOR, off + SECTOR),
		                 (ssize_t)(len - SECTOR));
	settle(-1, loses_unsynced());
	fault.crashed = true;
}

void fault_crash(void)
{
	crash_at(-1, NULL, 0, 0);
}

/* Count a call FAULT_EIO may fail; whether it fails. */
static bool eio_now(void)
{
	unsigned long n = fault.counted++;

	return fault.mode == FAULT_EIO &&
	       (n == fault.limit || (fault.persistent && n > fault.limit));
}

/* Whether the machine dies at this call, before it takes effect. */
static bool crash_due(bool write)
{
	if (fault.mode != FAULT_CRASH || fault.crashed || fault.writes != fault.limit)
		return false;
	/* FAULT_UNSYNCED dies before the syncs that follow write k can run. */
	return write || fault.crash == FAULT_UNSYNCED;
}

ssize_t fault_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	fault.calls++;
	if (eio_now()) {
		fault.writes++;
		errno = EIO;
		return -1;
	}
	if (crash_due(true))
		crash_at(fd, buf, len, off);
	/* A dead machine writes nothing, but the code that runs on cannot tell. */
	if (fault.crashed)
		return (ssize_t)len;
	fault.writes++;
	if (fault.mode == FAULT_CRASH && loses_unsynced())
		remember(fd, len, off);
	return pwrite(fd, buf, len, off);
}

/* The images are read back through the page cache: a real sync adds nothing. */
int fault_fdatasync(int fd)
{
	fault.calls++;
	if (fault.eio_syncs && eio_now()) {
		errno = EIO;
		return -1;
	}
	if (crash_due(false))
		fault_crash();
	if (!fault.crashed)
		settle(fd, false);
	return 0;
}

static const struct rcl_soft_io fault_io = {fault_pwrite, fault_fdatasync};

void fault_setup(void)
{
	fault_arm(FAULT_OFF, 0);
	rcl_soft_set_io(&fault_io);
}

void fault_teardown(void)
{
	fault_arm(FAULT_OFF, 0);
	rcl_soft_set_io(NULL);
}
