/* SPDX-License-Identifier: MIT */
/*
 * uring.h - the volume's member I/O: a batch of reads, writes and data
 * syncs, submitted at once on the calling thread's own io_uring (made on
 * first use, freed when the thread exits) and waited for.
 *
 * Where io_uring cannot be set up (an old kernel, or a sandbox that blocks
 * it, as Docker's default seccomp profile does), the thread runs its
 * batches with pread(), pwrite() and fdatasync() instead, one by one.
 */
#ifndef RCL_SOFT_URING_H
#define RCL_SOFT_URING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rcl_soft_op_kind {
	RCL_SOFT_OP_READ,
	RCL_SOFT_OP_WRITE,
	/*
	 * A write durable once it completes (RWF_DSYNC): only its own range is
	 * written back, and the drive's cache flushed, where a DATASYNC writes
	 * back every dirty page of the file or device.
	 */
	RCL_SOFT_OP_WRITE_DURABLE,
	RCL_SOFT_OP_DATASYNC, /* @buf, @len and @off unused */
};

/**
 * struct rcl_soft_op - one member I/O.
 * @member:	the caller's name for the drive (the volume's member index),
 *		for the caller and the fault hook.
 * @nowait:	@fd takes RWF_NOWAIT reads (rcl_soft_uring_nowait()): a
 *		small batch's reads that must wait for their drives can be
 *		told from those the page cache serves, and wait together.
 * @error:	out: 0, or the positive errno it failed with; a read that
 *		meets the end of the drive fails with EIO.
 * @done:	internal: bytes transferred so far.
 */
struct rcl_soft_op {
	enum rcl_soft_op_kind kind;
	int fd;
	unsigned member;
	void *buf;
	size_t len;
	uint64_t off;
	bool nowait;
	int error;
	size_t done;
};

/**
 * rcl_soft_uring_run() - run @count ops, in any order and in parallel, and
 * wait for all of them (short transfers are continued).
 * Return: how many failed (see each op's @error).
 */
size_t rcl_soft_uring_run(struct rcl_soft_op *ops, size_t count);

/**
 * rcl_soft_uring_nowait() - whether reads of @fd can be asked not to wait
 * for its drive (RWF_NOWAIT): files on disk filesystems and block devices
 * can, tmpfs cannot. Asks for the first byte, which may start reading it.
 */
bool rcl_soft_uring_nowait(int fd);

/*
 * Test-only: a fault hook, called for every op of a batch, in order,
 * before any of them is issued. When it returns an errno, the op is not
 * issued and fails with it. Production
 * code never sets it. Not thread-safe: set it while no I/O runs; NULL
 * removes it.
 */
typedef int (*rcl_soft_uring_fault_fn)(void *ctx, const struct rcl_soft_op *op);
void rcl_soft_uring_set_fault(rcl_soft_uring_fault_fn fault, void *ctx);

/*
 * Test-only: while @on, every thread runs its batches with the synchronous
 * fallback, so tests cover it too.
 */
void rcl_soft_uring_force_sync(bool on);

#endif /* RCL_SOFT_URING_H */
