/* SPDX-License-Identifier: MIT */
/*
 * volume-private.h - what volume.c (opening), volume-member.c (member
 * states), volume-request.c (requests) and the two I/O paths share:
 * volume-mirror.c for RAID0/1/10 and volume-parity.c for RAID5/6/50/60.
 * Each path serves one window of a request: a range small enough that its
 * stripe locks, member I/O and scratch buffers are taken at once.
 */
#ifndef RCL_SOFT_VOLUME_PRIVATE_H
#define RCL_SOFT_VOLUME_PRIVATE_H

#include <pthread.h>
#include <stdatomic.h>

#include "stripe-cache.h"
#include "stripe-lock.h"
#include "stripe.h"
#include "uring.h"
#include "volume.h"

/**
 * struct vol_member - one member drive as the volume uses it.
 * @path:	where to open it (NULL when its drive is not present).
 * @fd:		open O_RDWR, or -1.
 * @state:	what the configuration says.
 * @valid_below: REBUILD: the drive byte below which it holds data; a
 *		rebuild (rebuild.c) raises it while requests run.
 * @failed:	an I/O error took it out of use, until the configuration
 *		records it as not online (or names another drive).
 * @reported:	the owner has been told of @failed.
 * @reading:	mirrored reads in flight on it (read balancing).
 * @old_fd:	the drive opened again, without readahead (POSIX_FADV_RANDOM),
 *		for the reads a parity write makes of the rows it replaces or
 *		keeps: through @fd, each such read of a cold strip read
 *		megabytes ahead of it (read_ahead_kb), and the writes that
 *		followed into those pages waited for the drive.
 * @nowait:	its reads can be asked not to wait (rcl_soft_uring_nowait()).
 */
struct vol_member {
	struct rcl_guid uuid;
	char *path;
	int fd, old_fd;
	bool nowait;
	enum rcl_soft_member_state state;
	_Atomic uint64_t valid_below;
	atomic_bool failed;
	atomic_bool reported;
	atomic_uint reading;
};

/*
 * rcl_soft_vol_bitmap_on_disk_dirty() - whether the bitmap of array @a
 * that the member open as @fd keeps is valid and has a bit set.
 */
bool rcl_soft_vol_bitmap_on_disk_dirty(int fd, const struct rcl_soft_array *a);

struct vol_bitmap;
struct vol_reshape;

/**
 * struct rcl_soft_volume - an open VD.
 * @lock:	read-held by every request, write-held by update and close,
 *		so member descriptors and states change only between requests.
 * @failing:	held while a member I/O error is judged (fail the member or
 *		the request): one at a time.
 * @window:	requests are served in windows of at most this many bytes.
 * @zeros:	@window bytes of zeros (never written), the data of _zero().
 * @bitmaps:	each array's write-intent bitmap, or NULL (volume-bitmap.c).
 * @host_started, @host_done: host requests begun and ended, so that
 *		background tasks can give way to them (task.c).
 * @read_turn:	mirrored read windows so far: ties in read balancing go round.
 * @bitmapped:	whether the volume keeps the arrays' write-intent bitmaps
 *		and md's clean/active state (volume.c's md_mark()).
 * @unsynced:	the sweep position (sweep.c) from which the whole VD awaits
 *		a resync, or UINT64_MAX: an array without a bitmap was found
 *		active when the volume opened (a crash), and md, with no
 *		bitmap to say where, resyncs such an array whole.
 * @record:	the VD's configuration record as last applied: where its md
 *		superblocks are, and whether it is consistent.
 * @reshape:	the migration under way, or NULL (volume-reshape.c).
 * @cache:	RAID5/6/50/60: the stripe cache (volume-parity-cache.c), else NULL.
 * @write_back:	the VD's write policy is WB or AWB: partial stripes may be
 *		acknowledged from @cache and written later.
 * @durable:	the VD's disk cache policy is Off: every member write is
 *		durable once it completes (rcl_soft_vol_op()), as it is on a
 *		drive whose write cache is off.
 * @gate:	the record gate (the owner's @records), under @gate_lock:
 *		@moves counts its changes (an update, a hold, a refusal),
 *		signalled on @gate_moved; @holds, the owner's holds; @refused,
 *		the owner could not record (until an update finds nothing
 *		failed); @awaiting, the writes ending later that wait for it.
 * @md:		md's clean and active state of the arrays (volume.c), under
 *		@md.lock, which a mark holds while it writes (writes wait):
 *		@active, the superblocks say active; @writers, writes in
 *		flight; @last_write, when the last one ended (CLOCK_MONOTONIC
 *		ns); @rollback, per array: the events its last active mark
 *		wrote while it was not degraded, which turning clean may take
 *		back (md's can_decrease_events), else 0; @thread, the safe-mode
 *		thread, which waits on @moved until @stop.
 */
struct rcl_soft_volume {
	unsigned vd;
	unsigned sector_size;
	struct rcl_soft_geometry geo;
	unsigned member_count;
	struct vol_member members[RCL_SOFT_MAX_MEMBERS];
	enum rcl_access_policy access;
	struct rcl_soft_volume_owner owner;
	pthread_rwlock_t lock;
	pthread_mutex_t failing;
	struct rcl_soft_stripe_locks stripes;
	uint64_t window;
	const uint8_t *zeros;
	struct vol_bitmap *bitmaps[RCL_MAX_SPANS];
	atomic_uint_fast64_t host_started;
	atomic_uint_fast64_t host_done;
	atomic_uint_fast64_t read_turn;
	bool bitmapped;
	atomic_uint_fast64_t unsynced;
	struct rcl_soft_vd record;
	struct vol_reshape *reshape;
	struct rcl_soft_stripe_cache *cache;
	bool write_back;
	bool durable;
	struct {
		pthread_mutex_t lock;
		pthread_cond_t moved;
		uint64_t moves;
		unsigned holds;
		bool refused;
		struct vol_later *awaiting;
	} gate;
	struct {
		pthread_mutex_t lock;
		pthread_cond_t moved;
		bool active;
		unsigned writers;
		uint64_t last_write;
		uint64_t rollback[RCL_MAX_SPANS];
		pthread_t thread;
		bool running;
		bool stop;
	} md;
};

/**
 * struct vol_later - a write that returned before it ended
 * (rcl_soft_volume_write_later()): it ends in parts, the request's own
 * and one per stripe it holds; the last part to end calls @ended.
 * @rc:		the first error of a part, else 0.
 * @vol, @next:	its volume; the next of the writes awaiting a record.
 */
struct vol_later {
	void (*ended)(void *token, int rc);
	void *token;
	atomic_uint parts;
	atomic_int rc;
	struct rcl_soft_volume *vol;
	struct vol_later *next;
};

/*
 * struct vol_ending - how a request of @vol may end: @ended NULL, before
 * its call returns; else it may end later, through @later, made by its
 * first hold; @owner is whose it is (rcl_soft_volume_release()).
 */
struct vol_ending {
	struct rcl_soft_volume *vol;
	void (*ended)(void *token, int rc);
	void *token;
	const void *owner;
	struct vol_later *later;
};

/**
 * struct vol_window - one window of a request.
 * @write:	write @buf (else read into it).
 * @flags:	write: the request's RCL_SOFT_IO_* flags.
 * @ending:	a write: how its request may end (NULL: before the call returns).
 */
struct vol_window {
	bool write;
	unsigned flags;
	uint8_t *buf;
	size_t len;
	uint64_t off;
	struct vol_ending *ending;
};

/*
 * rcl_soft_vol_later_join() - one more part of @ending's request will
 * end later (a stripe it holds). Return: its vol_later, or NULL when out of
 * memory (then the caller waits instead).
 */
struct vol_later *rcl_soft_vol_later_join(struct vol_ending *ending);

/* rcl_soft_vol_later_end() - a part of @later ended with @rc; the last ends the request. */
void rcl_soft_vol_later_end(struct vol_later *later, int rc);

/*
 * The md superblocks' clean/active turns (volume.c), around every write
 * (@vol->lock read-held): rcl_soft_vol_md_write_start() marks the arrays
 * active first, as md_write_start() has them (0, or -ENOMEM);
 * rcl_soft_vol_md_write_end() notes the write's end for safe mode.
 */
int rcl_soft_vol_md_write_start(struct rcl_soft_volume *vol);
void rcl_soft_vol_md_write_end(struct rcl_soft_volume *vol);

/*
 * The record gate (volume-request.c): rcl_soft_vol_unrecorded() - whether
 * a member of @vol, or of the old array a migration still serves from,
 * failed and the configuration does not say so yet: the latch that
 * rcl_soft_vol_fail() sets before any request goes on without the member,
 * and apply_member() clears once the configuration records it. @vol->lock
 * held.
 */
bool rcl_soft_vol_unrecorded(const struct rcl_soft_volume *vol);

/*
 * rcl_soft_vol_gate_move() - the gate changed, @failed whether a member is
 * still unrecorded (its lock held): waiters look again; the writes awaiting
 * it end when nothing is unrecorded, or with -EIO when none can wait.
 * Return: those, to end (rcl_soft_vol_end_due()) with no lock held.
 */
struct vol_later *rcl_soft_vol_gate_move(struct rcl_soft_volume *vol, bool failed);

/* rcl_soft_vol_end_due() - end the writes @due, with no lock held. */
void rcl_soft_vol_end_due(struct vol_later *due);

/* rcl_soft_vol_sync_all() - datasync every member of @ctx (a volume) in use. Return: 0, or -EIO. */
int rcl_soft_vol_sync_all(void *ctx);

/*
 * The member writes of a request with @flags: a FUA request's are durable
 * writes of their own ranges (a datasync of every member written would
 * write back all their dirty data too).
 */
static inline enum rcl_soft_op_kind vol_write_kind(unsigned flags)
{
	return flags & RCL_SOFT_IO_FUA ? RCL_SOFT_OP_WRITE_DURABLE : RCL_SOFT_OP_WRITE;
}

/*
 * rcl_soft_vol_zero() - rcl_soft_volume_zero() without waiting for the
 * record of a failure, as rcl_soft_volume_sync() flushes: for a background
 * task (init.c), which acknowledges nothing to a host and which the owner
 * may wait for while it records.
 */
int rcl_soft_vol_zero(struct rcl_soft_volume *vol, size_t len, uint64_t off);

/*
 * rcl_soft_vol_fill() - rcl_soft_vol_zero() of @block's bytes instead of
 * zeros: every window of the range is written from @block, which holds
 * @vol->window bytes (an erase's pattern, repeated).
 */
int rcl_soft_vol_fill(struct rcl_soft_volume *vol, const void *block, size_t len, uint64_t off);

/*
 * rcl_soft_vol_usable() - whether member @member may be read and written
 * up to drive byte @end: open, not failed, and online or rebuilt past @end.
 */
bool rcl_soft_vol_usable(const struct rcl_soft_volume *vol, unsigned member, uint64_t end);

/* rcl_soft_vol_survives() - whether the members in use still hold all the data. */
bool rcl_soft_vol_survives(const struct rcl_soft_volume *vol);

/*
 * rcl_soft_vol_fail() - take member @member out of use after an I/O error
 * @error; @tell: tell the owner (once), else it is told by another volume.
 */
void rcl_soft_vol_fail(struct rcl_soft_volume *vol, unsigned member, int error, bool tell);

/*
 * rcl_soft_vol_run() - run @ops (each op's @member is a volume member
 * index). A member an op failed on is failed (taken out of use, the owner
 * told once) while the VD survives without it; a member it would not
 * survive losing, and one that met a host-side error (a full or read-only
 * file system: ENOSPC, EDQUOT, EROFS), stays in use.
 * Return: 0 when every op succeeded; 1 when ops failed and each one's
 * member is out of use now (the caller plans again without them); else
 * the negative errno of an op whose member stays in use: the caller fails
 * with it (trying again would meet it again).
 */
int rcl_soft_vol_run(struct rcl_soft_volume *vol, struct rcl_soft_op *ops, size_t count);

/*
 * rcl_soft_vol_op() - @ops[@n], a @kind of @len bytes at @off of member
 * @member; a write durable when the VD's members are (@durable).
 */
void rcl_soft_vol_op(const struct rcl_soft_volume *vol, struct rcl_soft_op *ops, size_t n,
                     enum rcl_soft_op_kind kind, unsigned member, void *buf, size_t len,
                     uint64_t off);

/*
 * rcl_soft_vol_no_readahead() - make read @op, one a write makes, go
 * through its member's @old_fd: without readahead.
 */
void rcl_soft_vol_no_readahead(const struct rcl_soft_volume *vol, struct rcl_soft_op *op);

/*
 * rcl_soft_vol_scratch() - @len bytes aligned for parity (parity.h) in a
 * new block; *@block is what to rcl_free(). NULL when out of memory.
 */
uint8_t *rcl_soft_vol_scratch(size_t len, void **block);

/*
 * The I/O paths: serve window @w. Return: 0, -EIO when the usable members
 * cannot, -ENOMEM.
 */
int rcl_soft_vol_mirror_io(struct rcl_soft_volume *vol, const struct vol_window *w);
int rcl_soft_vol_parity_io(struct rcl_soft_volume *vol, const struct vol_window *w);

/*
 * The stripe cache of a parity volume (volume-parity-cache.c): _open() makes it
 * (RCL_OK or RCL_NOMEM); _flush() writes every stripe cached when it is
 * called (0, or a negative errno); _close() stops its background writer,
 * writes what it holds (@write: else it is dropped; 0 or a negative
 * errno, as _flush()) and frees it.
 */
enum rcl_status rcl_soft_vol_cache_open(struct rcl_soft_volume *vol, struct rcl_error *err);
int rcl_soft_vol_cache_flush(struct rcl_soft_volume *vol);
void rcl_soft_vol_cache_release(struct rcl_soft_volume *vol, const void *owner);
int rcl_soft_vol_cache_close(struct rcl_soft_volume *vol, bool write);

/*
 * The write-intent bitmaps (volume-bitmap.c). _open() reads each array's
 * from a member in use (an array whose bitmap cannot be read keeps none);
 * with VD @vd's events (rcl_soft_vol_bitmap_events());
 * _mark() holds bytes [@first, @end) of array @array's bitmap range (each
 * member's data; RAID10: the array's) for a write, after making its bits
 * durable (0, or a negative errno); _unmark() lets go after the write;
 * _clean() runs @sync(@ctx) and then clears the bits of regions idle long
 * enough (@all: idle at all) that no write touched meanwhile.
 */
enum rcl_status rcl_soft_vol_bitmap_open(struct rcl_soft_volume *vol, const struct rcl_soft_vd *vd,
                                         struct rcl_error *err);
void rcl_soft_vol_bitmap_close(struct rcl_soft_volume *vol);
int rcl_soft_vol_bitmap_mark(struct rcl_soft_volume *vol, unsigned array, uint64_t first,
                             uint64_t end);
void rcl_soft_vol_bitmap_unmark(struct rcl_soft_volume *vol, unsigned array, uint64_t first,
                                uint64_t end);

/*
 * rcl_soft_vol_bitmap_keep() - a write marked over bytes [@first, @end) of
 * array @array's bitmap range failed on a member kept in use (fail_member()
 * in volume.c): some of its member writes may have landed, so the region's
 * copies or parity may disagree. Its bits stay set, as those a crash left
 * (rcl_soft_volume_needs_resync()), until a resync covers them.
 */
void rcl_soft_vol_bitmap_keep(struct rcl_soft_volume *vol, unsigned array, uint64_t first,
                              uint64_t end);
int rcl_soft_vol_bitmap_clean(struct rcl_soft_volume *vol, bool all, int (*sync)(void *),
                              void *ctx);

/*
 * rcl_soft_vol_bitmap_events() - give each bitmap superblock the events of
 * VD @vd's md superblocks (a configuration change bumped them), writing it
 * where they changed. Return: 0, or -EIO when the VD did not survive the
 * members that failed.
 */
int rcl_soft_vol_bitmap_events(struct rcl_soft_volume *vol, const struct rcl_soft_vd *vd);

/*
 * rcl_soft_vol_bitmap_set_events() - give array @array's bitmap superblock
 * @events, the md superblocks' next (a clean or active mark, volume.c),
 * and write it, before they are written; its events_cleared too when the
 * array is @whole (not degraded: as md's after a write), else at most
 * @events. Return: as rcl_soft_vol_bitmap_events().
 */
int rcl_soft_vol_bitmap_set_events(struct rcl_soft_volume *vol, unsigned array, uint64_t events,
                                   bool whole);

/*
 * rcl_soft_vol_bitmap_resynced() - bytes [@first, @end) of array @array's
 * bitmap range have been resynced (sweep.c), the last of them from @since
 * on: the bits wholly inside, set by a crash, may be cleared again once
 * idle; those ending above @since count as idle already (the resync's own
 * repairs set them, and the next flush makes those durable). @end
 * UINT64_MAX: to the end.
 */
void rcl_soft_vol_bitmap_resynced(struct rcl_soft_volume *vol, unsigned array, uint64_t first,
                                  uint64_t since, uint64_t end);

/*
 * rcl_soft_vol_bitmap_dirty_run() - the first run of bits of array
 * @array's bitmap that a crash left set and no resync has covered yet,
 * ending above byte @from of its range: its bytes [*@first, *@end).
 * Return: false when there is none.
 */
bool rcl_soft_vol_bitmap_dirty_run(struct rcl_soft_volume *vol, unsigned array, uint64_t from,
                                   uint64_t *first, uint64_t *end);

/*
 * rcl_soft_vol_open() - rcl_soft_volume_open(), with or without the
 * arrays' write-intent bitmaps.
 */
enum rcl_status rcl_soft_vol_open(const struct rcl_soft_state *state, unsigned vd,
                                  const struct rcl_soft_volume_owner *owner, bool bitmapped,
                                  struct rcl_soft_volume **out, struct rcl_error *err);

/*
 * A migrating VD (volume-reshape.c). _plan() sets @vol->geo to the new
 * geometry with the VD's current capacity; _resume(), once the members
 * are open, reads the checkpoint, opens the old array and completes rows
 * left in the backup; _close() undoes both; _update() gives the old array
 * the members' new states from @state. _below(): how many of @len
 * bytes from @off are below the boundary, in the new geometry; _old():
 * serve the rest on the old array (with the volume's lock read-held).
 */
enum rcl_status rcl_soft_vol_reshape_plan(struct rcl_soft_volume *vol, const struct rcl_soft_dg *dg,
                                          const struct rcl_soft_vd *vd, struct rcl_error *err);
enum rcl_status rcl_soft_vol_reshape_resume(struct rcl_soft_volume *vol,
                                            const struct rcl_soft_state *state,
                                            struct rcl_error *err);
void rcl_soft_vol_reshape_close(struct rcl_soft_volume *vol);
enum rcl_status rcl_soft_vol_reshape_update(struct rcl_soft_volume *vol,
                                            const struct rcl_soft_state *state,
                                            struct rcl_error *err);
size_t rcl_soft_vol_reshape_below(const struct rcl_soft_volume *vol, size_t len, uint64_t off);
/* rcl_soft_vol_reshape_source() - the old array's volume. */
const struct rcl_soft_volume *rcl_soft_vol_reshape_source(const struct rcl_soft_volume *vol);
int rcl_soft_vol_reshape_old(struct rcl_soft_volume *vol, bool write, uint8_t *buf, bool step,
                             size_t len, uint64_t off, unsigned flags);

#endif /* RCL_SOFT_VOLUME_PRIVATE_H */
