/* SPDX-License-Identifier: MIT */
/*
 * volume.h - the soft controller's I/O path: one virtual drive as a block
 * device, read and written through md's layouts onto its members.
 *
 * A volume owns its own descriptors on the member drives (opened from the
 * paths the configuration names) and keeps no reference to the controller
 * it was opened from, so the controller can be closed and reopened while
 * the volume serves I/O. Every call is thread-safe and synchronous: the
 * calling thread submits the member I/O of its request on an io_uring of
 * its own and waits for it, so callers get parallelism from threads (the
 * NBD server runs several per connection).
 *
 * Parity (RAID5/6/50/60) comes from ISA-L; writes pick read-modify-write
 * or reconstruct-write by how many member reads each costs, and write a
 * full stripe without reading. Partial stripes go through a stripe cache
 * (stripe-cache.h) that gathers the writes filling a stripe into one
 * parity computation: under the VD's WT policy a write returns once on
 * the members; under WB or AWB a partial stripe may return from memory,
 * and _flush() (or FUA) puts it on the members. A member that is not online (failed,
 * offline, missing, or rebuilding above its rebuilt LBA) is neither read
 * nor written: reads reconstruct its data from the others, writes update
 * the parity as if it were there. A member I/O error fails that member
 * (the @failed callback tells the owner, who records it) while the VD
 * survives without it, and the request is retried without it; the member
 * the VD would not survive losing is kept and the request fails, as md
 * keeps an array's last working member. A host-side error (ENOSPC, EDQUOT,
 * EROFS: the file system holding the images is full or read-only) fails
 * no member, only the request.
 * An owner that @records failures has each write, zeroing and flush that
 * succeeded wait, before it returns, until the failure of every member
 * failed so far is recorded: one that went on without the member is
 * acknowledged only once a restart cannot take that member for current
 * again.
 */
#ifndef RCL_SOFT_VOLUME_H
#define RCL_SOFT_VOLUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "soft/config/scan.h"

struct rcl_soft_volume;

/* Flags of rcl_soft_volume_write() and _zero(). */
enum {
	RCL_SOFT_IO_FUA = 1 << 0, /* durable on the members before it returns */
};

/**
 * struct rcl_soft_volume_owner - how a volume reports to its owner.
 * @failed:	member @member (its index in the group's member order) of
 *		VD @vd, the drive @drive (its GUID, as the configuration
 *		names members), failed with @error (an errno). Called once
 *		per member, from the I/O thread that saw the error, after the
 *		volume has stopped using it; it must not call back into the
 *		volume. By the time the owner records it, another drive (a
 *		hot spare) may hold that index: @drive tells them apart.
 * @ctx:	passed to @failed.
 * @records:	the owner records each failure in the configuration (the
 *		member failed in its md superblocks and record) and then calls
 *		rcl_soft_volume_update(). Until then a write, zeroing or
 *		flush that succeeded waits before it returns (a write ending
 *		later does not end): its data may be on the other members
 *		only. It fails with -EIO instead once the owner says it
 *		cannot record (rcl_soft_volume_record_failed(),
 *		rcl_soft_volume_hold_records()). Reads do not wait, nor
 *		does rcl_soft_volume_sync(), the owner's own flush and its
 *		background tasks' (task.h).
 */
struct rcl_soft_volume_owner {
	void (*failed)(void *ctx, unsigned vd, unsigned member, const struct rcl_guid *drive,
	               int error);
	void *ctx;
	bool records;
};

/**
 * rcl_soft_volume_open() - open VD @vd of @state for I/O: its members'
 * paths, states and the VD's md geometry are copied from @state. @owner
 * may be NULL (nobody is told of failures).
 * Return: RCL_OK and *@out; RCL_NOT_FOUND (no such VD); RCL_NOT_ALLOWED
 * (offline: more members lost than the level survives); RCL_SYSTEM (a
 * member that should be online cannot be opened; it is named);
 * RCL_CORRUPT (the md geometry does not give the recorded capacity);
 * RCL_NOMEM.
 */
enum rcl_status rcl_soft_volume_open(const struct rcl_soft_state *state, unsigned vd,
                                     const struct rcl_soft_volume_owner *owner,
                                     struct rcl_soft_volume **out, struct rcl_error *err);

/*
 * rcl_soft_volume_close() - wait for nothing (callers have stopped): flush,
 * clear the write-intent bits of the regions now in sync, close, free.
 */
void rcl_soft_volume_close(struct rcl_soft_volume *vol);

/* rcl_soft_volume_bytes() - the capacity the VD presents. */
uint64_t rcl_soft_volume_bytes(const struct rcl_soft_volume *vol);

/**
 * rcl_soft_volume_block_sizes() - what a client should send: @min the
 * members' logical sector size, @preferred one full stripe of data (a
 * strip for RAID1/10 and RAID0), @max the largest request served whole.
 */
void rcl_soft_volume_block_sizes(const struct rcl_soft_volume *vol, uint32_t *min,
                                 uint32_t *preferred, uint32_t *max);

/*
 * rcl_soft_volume_needs_resync() - whether a write-intent bitmap of @vol
 * had bits set when it opened (a crash left them), or a write failed on a
 * member kept in use set them, or an array without a bitmap was found
 * active (a crash: all of it), that no resync (BGI, full init, repairing
 * check) has covered since: their stripes may disagree.
 */
bool rcl_soft_volume_needs_resync(struct rcl_soft_volume *vol);

/*
 * rcl_soft_vd_left_dirty() - whether VD @vd of @state, not open anywhere
 * (no controller process runs), has bits set in the write-intent bitmap
 * its first member holding one keeps, or an array without one is active in
 * its md superblock, as rcl_soft_volume_needs_resync() would find on
 * opening it: a crash left them. Only reads the drives.
 */
bool rcl_soft_vd_left_dirty(const struct rcl_soft_state *state, unsigned vd);

/*
 * rcl_soft_volume_read(), _write(), _flush(), _trim(), _zero() - the
 * block operations. @off and @len are bytes, multiples of the minimum
 * block size, inside the capacity. _flush() makes every write that
 * returned before it durable on the members (on every thread), cached
 * write-back stripes included; reads see cached data. _trim()
 * does nothing but check (md-compatible parity covers trimmed data too).
 * _zero() leaves zeros and consistent parity. Writes keep md's
 * write-intent bitmap: a region's bit is set on the members before its
 * first write, and cleared by a flush once the region has been idle for
 * md's daemon_sleep (5 s); bits already set at open (a crash left them)
 * stay set for a resync.
 * Return: 0, or a negative errno: -EIO when the surviving members cannot
 * serve the request or a member's failure cannot be recorded, the errno
 * of a member error that failed no member (-EIO from the member the VD
 * cannot lose; -ENOSPC, -EDQUOT or -EROFS from the host: a write that fails
 * so leaves its range undefined and its stripes owed a resync,
 * rcl_soft_volume_needs_resync()), -EINVAL for a range out of bounds, -EROFS
 * when the VD's access policy forbids writing (RO or Blocked: writes,
 * zeroing, trimming), -EPERM for a read when it forbids reading too
 * (Blocked), -ENOMEM.
 */
int rcl_soft_volume_read(struct rcl_soft_volume *vol, void *buf, size_t len, uint64_t off);
int rcl_soft_volume_write(struct rcl_soft_volume *vol, const void *buf, size_t len, uint64_t off,
                          unsigned flags);
int rcl_soft_volume_flush(struct rcl_soft_volume *vol);
int rcl_soft_volume_trim(struct rcl_soft_volume *vol, size_t len, uint64_t off);
int rcl_soft_volume_zero(struct rcl_soft_volume *vol, size_t len, uint64_t off, unsigned flags);

/*
 * rcl_soft_volume_sync() - rcl_soft_volume_flush() for the owner (@records)
 * and its background tasks: it does not wait for the record of a failure,
 * as the owner, who records, may be the caller or wait for it; what it
 * makes durable is acknowledged to no host by it. Return: as _flush().
 */
int rcl_soft_volume_sync(struct rcl_soft_volume *vol);

/* rcl_soft_volume_write_later() returned before the write ended. */
#define RCL_SOFT_LATER 1

/*
 * rcl_soft_volume_write_later() - rcl_soft_volume_write(), except that a
 * write-through write whose partial stripes are held in the stripe cache
 * for the writes that fill them does not wait with them: it returns
 * RCL_SOFT_LATER, and @ended(@token, result) is called once, when the
 * data is on the members as _write() would have had it, by whichever
 * thread wrote it (a neighbour, a flush, the cache's background writer),
 * with no stripe locked but within that thread's own call to the volume:
 * @ended must not call the volume. Until then @buf is lent to the cache:
 * it must stay as it is. Any other write returns its result, as
 * _write() does, and @ended is not called. A thread that serves a stream
 * of requests this way needs no thread per request waiting. @owner says
 * whose write it is, for rcl_soft_volume_release().
 */
int rcl_soft_volume_write_later(struct rcl_soft_volume *vol, const void *buf, size_t len,
                                uint64_t off, unsigned flags, const void *owner,
                                void (*ended)(void *token, int rc), void *token);

/*
 * rcl_soft_volume_release() - @owner's writes ending later hold their
 * stripes for neighbours no longer: their stripes are written now, on
 * this thread, and those writes end. For an owner that sends nothing more
 * until they end (a client whose queue they fill), holding them would
 * only delay it.
 */
void rcl_soft_volume_release(struct rcl_soft_volume *vol, const void *owner);

/*
 * rcl_soft_volume_record_failed() - the owner (@records) could not record
 * the failures it was told of: the requests waiting for that record fail
 * with -EIO, as does each that would wait for it, until
 * rcl_soft_volume_update() takes a configuration that records every member
 * failed (or another drive in its place).
 */
void rcl_soft_volume_record_failed(struct rcl_soft_volume *vol);

/*
 * rcl_soft_volume_member_error() - a read of member @member outside @vol's
 * data (a patrol read of the free space) failed with @error (an errno): the
 * member fails as it would for a read of the VD's, kept only when the VD
 * would not survive without it. Return: whether it is out of use.
 */
bool rcl_soft_volume_member_error(struct rcl_soft_volume *vol, unsigned member, int error);

/*
 * rcl_soft_volume_hold_records() - the owner (@records) is about to wait
 * for requests of @vol to end (stopping their server) and
 * records nothing until it calls this again with !@hold: meanwhile
 * requests that would wait for a record fail with -EIO instead, as the
 * two would otherwise wait for each other. Holds nest.
 */
void rcl_soft_volume_hold_records(struct rcl_soft_volume *vol, bool hold);

/**
 * rcl_soft_volume_update() - take the members' states and the VD's
 * policies from @state again (after a configuration change): a member that
 * left the online state stops being used; one that returned is used again;
 * requests waiting for the record of a failure (@records) go on once
 * every member failed is recorded.
 * Return: RCL_OK; RCL_NOT_FOUND when the VD is gone; RCL_SYSTEM (a returning
 * member cannot be opened); RCL_NOMEM.
 */
enum rcl_status rcl_soft_volume_update(struct rcl_soft_volume *vol,
                                       const struct rcl_soft_state *state, struct rcl_error *err);

/**
 * rcl_soft_volume_migrate_step() - one step of the migration of @vol's VD
 * (migrate.h), requests held off meanwhile; *@done and *@total: the new
 * rows copied and to copy.
 * Return: 1 when rows remain, 0 when every row is copied (the owner then
 * records the end: rcl_soft_migrate_finish()), a negative errno (-EINVAL:
 * the VD is not migrating; else a member I/O error, the last checkpoint
 * standing).
 */
int rcl_soft_volume_migrate_step(struct rcl_soft_volume *vol, uint64_t *done, uint64_t *total);

#endif /* RCL_SOFT_VOLUME_H */
