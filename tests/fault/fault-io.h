/* SPDX-License-Identifier: MIT */
/*
 * fault-io.h - the fault tests' I/O layer: a fake under the soft
 * controller's writes (rcl_soft_set_io()), because no real device crashes
 * or fails on cue. Armed, it either
 *  - crashes after write k: later writes never reach the disk, optionally
 *    with write k+1 torn or with every write not yet followed by a
 *    fdatasync of its file lost (as SQLite's test6.c drops them);
 *  - fails call k+1 with EIO, once or from then on.
 * The code under test cannot see a crash: its calls go on succeeding.
 * Disarmed (FAULT_OFF) it passes every call through and counts it.
 */
#ifndef RCL_FAULT_IO_H
#define RCL_FAULT_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum fault_mode {
	FAULT_OFF,   /* pass every call through */
	FAULT_CRASH, /* after write @limit the machine dies (see enum fault_crash) */
	FAULT_EIO,   /* the call after @limit counted ones fails with EIO */
};

/* How a FAULT_CRASH dies. */
enum fault_crash {
	FAULT_CLEAN,     /* writes 1..k reached the disk, nothing else */
	FAULT_TORN_HEAD, /* and the first sector of write k+1 */
	FAULT_TORN_TAIL, /* and write k+1 but its first sector */
	FAULT_UNSYNCED,  /* at the first call after write k; unsynced writes are lost */
	/* at write k+1, after the syncs before it; unsynced writes are lost */
	FAULT_UNSYNCED_AT_WRITE,
};

/* A write not yet synced: what it overwrote, to put back if it is lost. */
struct fault_undo {
	int fd;
	off_t off;
	size_t len;
	void *old;
};

/**
 * struct fault - the armed fault and what the layer has seen since
 * fault_arm(). Tests set @crash, @persistent and @eio_syncs after arming
 * and read the counters; the rest is the layer's.
 */
struct fault {
	enum fault_mode mode;
	unsigned long limit;
	enum fault_crash crash; /* FAULT_CRASH: how */
	bool persistent;        /* FAULT_EIO: every counted call after the first fails too */
	bool eio_syncs;         /* FAULT_EIO: count (and fail) fdatasync calls, not only writes */
	unsigned long writes;   /* writes made before the crash, failed ones included */
	unsigned long calls;    /* writes and syncs made */
	unsigned long counted;  /* the calls FAULT_EIO counts */
	bool crashed;
	struct fault_undo *undo;
	size_t undo_count;
};

extern struct fault fault;

/**
 * fault_arm() - forget the last fault, keeping every write it let through,
 * and arm @mode at @limit (FAULT_CLEAN, transient, writes only); the
 * counters start again from 0.
 */
void fault_arm(enum fault_mode mode, unsigned long limit);

/**
 * fault_crash() - the machine dies now, with no write in flight: for a run
 * whose crash point was never reached. FAULT_UNSYNCED loses unsynced writes.
 */
void fault_crash(void);

/* fault_pwrite(), fault_fdatasync() - the hook's calls (struct rcl_soft_io). */
ssize_t fault_pwrite(int fd, const void *buf, size_t len, off_t off);
int fault_fdatasync(int fd);

/**
 * fault_setup() - Check fixture: route the soft controller's writes
 * through the layer, disarmed. The images are read back through the page
 * cache, so real syncs would only slow the loops down.
 */
void fault_setup(void);

/* fault_teardown() - Check fixture: disarm and restore the real calls. */
void fault_teardown(void);

#endif /* RCL_FAULT_IO_H */
