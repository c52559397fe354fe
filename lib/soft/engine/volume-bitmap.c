// SPDX-License-Identifier: MIT
/*
 * volume-bitmap.c - md's write-intent bitmap, kept as md keeps it, so that
 * after a crash md (or a resync) need only look at the regions written
 * since they were last known in sync.
 *
 * Each array with a bitmap (all but RAID0 and the top raid0 of RAID50/60)
 * keeps one copy on every member; bit b covers bytes [b, b + 1) x chunk of
 * each member's data (RAID10: of the array's). Before the first write to a
 * region whose bit is clear, the bit is set and made durable on every
 * member in use; the write waits for that. A set bit is cleared only when
 * its region has had no write in flight for md's daemon_sleep (5 s) and
 * every member has been flushed since: at _flush(), or at close, which
 * flushes and clears every idle bit. Bits found set when the volume opens
 * (a crash left them) stay set: their regions need a resync first. A
 * region a repairing task has just passed need not wait the 5 s: its
 * writes were the repair's, and the task's next checkpoint flushes and
 * clears its bit (_resynced()).
 *
 * The bitmap superblock keeps md's events in step, as md's bitmap does:
 * its events are the array's (the md superblock's, which a configuration
 * change bumps on disk, bitmap first: member.c), taken again at open and at
 * each rcl_soft_volume_update(), since every write of the bits' first
 * sector writes the superblock too; md takes a bitmap behind the array's
 * events as stale and resyncs the whole array. The volume's own clean and
 * active marks (volume.c) move them here first, then the superblocks. Clearing bits sets
 * events_cleared to the events, as md does: a drive that left the array
 * before then cannot be brought back by the bitmap alone.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "soft/format/md-bitmap.h"
#include "soft/format/md-super1.h"
#include "soft/config/member.h"
#include "volume-private.h"

/* Seconds a region stays idle before its bit may be cleared (md's daemon_sleep). */
#define IDLE_SECONDS RCL_MD_BITMAP_DAEMON_SLEEP

/**
 * struct vol_bitmap - one array's bitmap.
 * @lock:	guards everything below, and orders bitmap writes.
 * @map:	the bitmap's first @map_bytes as on disk: superblock, bits.
 * @writers:	per bit: writes in flight.
 * @touched:	per bit: marked since the last flush chose what to clear.
 * @idle_since: per bit: when its last write ended.
 * @resync:	per bit: set when the volume opened, or by a failed write
 *		(_keep()); cleared by a resync (_resynced()).
 * @sb:		the superblock at the head of @map, decoded.
 */
struct vol_bitmap {
	pthread_mutex_t lock;
	struct rcl_md_bitmap_super sb;
	uint64_t bits;
	uint8_t *map;
	size_t map_bytes;
	uint32_t *writers;
	bool *touched;
	time_t *idle_since;
	bool *resync;
};

static time_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static bool bit_set(const struct vol_bitmap *bm, uint64_t b)
{
	return bm->map[RCL_MD_BITMAP_SB_BYTES + b / 8] >> (b % 8) & 1;
}

/* Set or clear bit @b; mark its sector for writing in @dirty (a bit per sector). */
static void put_bit(struct vol_bitmap *bm, uint64_t b, bool on, uint64_t *dirty)
{
	size_t byte = RCL_MD_BITMAP_SB_BYTES + b / 8;

	if (on)
		bm->map[byte] |= (uint8_t)(1u << (b % 8));
	else
		bm->map[byte] &= (uint8_t) ~(1u << (b % 8));
	dirty[byte / 512 / 64] |= 1ull << (byte / 512 % 64);
}

/* Whether member @m holds a copy of the bitmap to keep. */
static bool keeps_bitmap(const struct rcl_soft_volume *vol, unsigned m)
{
	const struct vol_member *mm = &vol->members[m];

	return mm->fd >= 0 && !atomic_load(&mm->failed) &&
	       (mm->state == RCL_SOFT_MEMBER_ONLINE || mm->state == RCL_SOFT_MEMBER_REBUILD);
}

/* The first member of array @a that keeps the bitmap (relative to @a->first), or @a->n. */
static unsigned first_keeper(const struct rcl_soft_volume *vol, const struct rcl_soft_array *a)
{
	unsigned i = 0;

	while (i < a->n && !keeps_bitmap(vol, a->first + i))
		i++;
	return i;
}

/* @bm->sb back into @bm->map; its sector marked for writing in @dirty. */
static void put_super(struct vol_bitmap *bm, uint64_t *dirty)
{
	/* It encoded once already (the superblock was read): it cannot fail now. */
	(void)rcl_md_bitmap_encode(&bm->sb, bm->map, RCL_MD_BITMAP_SB_BYTES,
	                           &(struct rcl_error){0});
	dirty[0] |= 1;
}

/*
 * Take array @a's events from the md superblock of VD @vd on a member that
 * keeps the bitmap, into @bm (@dirty: its sector when they changed). A
 * superblock that cannot be read leaves them: md then resyncs all, safely.
 */
static void take_events(const struct rcl_soft_volume *vol, const struct rcl_soft_array *a,
                        const struct rcl_soft_vd *vd, struct vol_bitmap *bm, uint64_t *dirty)
{
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	unsigned i = first_keeper(vol, a);

	if (sb && i < a->n &&
	    !rcl_soft_md_read(vol->members[a->first + i].fd, vol->sector_size, vd, sb,
	                      &(struct rcl_error){0}) &&
	    sb->events != bm->sb.events) {
		bm->sb.events = sb->events;
		put_super(bm, dirty);
	}
	rcl_free(sb);
}

static bool sector_dirty(const uint64_t *dirty, size_t s)
{
	return dirty[s / 64] >> (s % 64) & 1;
}

/*
 * Write the sectors of @bm marked in @dirty, durably, to every member of
 * array @a that keeps it. Durable writes of the sectors alone, not a
 * datasync of the members: every writer of the array waits for a bit
 * being set, and on a member with much dirty data (buffered I/O to a
 * file or a drive) a datasync writes all of it back first, for seconds.
 * Return: 0, or -EIO when the VD did not survive the members that failed,
 * or the errno of a member kept in use (rcl_soft_vol_run()).
 */
static int write_sectors(struct rcl_soft_volume *vol, const struct rcl_soft_array *a,
                         struct vol_bitmap *bm, const uint64_t *dirty)
{
	size_t sectors = bm->map_bytes / 512, n = 0;
	int rc;
	struct rcl_soft_op *ops = rcl_malloc(a->n * sectors * sizeof(*ops));

	if (!ops)
		return -ENOMEM;
	for (unsigned i = 0; i < a->n; i++) {
		if (!keeps_bitmap(vol, a->first + i))
			continue;
		/* Each run of dirty sectors in one write: each durable write flushes. */
		for (size_t s = 0, end; s < sectors; s = end + 1) {
			for (end = s; end < sectors && sector_dirty(dirty, end); end++)
				;
			if (end > s)
				rcl_soft_vol_op(vol, ops, n++, RCL_SOFT_OP_WRITE_DURABLE,
				                a->first + i, bm->map + s * 512, (end - s) * 512,
				                a->bitmap_at + s * 512);
		}
	}
	rc = rcl_soft_vol_run(vol, ops, n);
	rcl_free(ops);
	return rc < 0 ? rc : rcl_soft_vol_survives(vol) ? 0 : -EIO;
}

/* The bits covering bytes [@first, @end) of the bitmap's range, clamped to the bitmap. */
static void bit_range(const struct rcl_soft_array *a, const struct vol_bitmap *bm, uint64_t first,
                      uint64_t end, uint64_t *b0, uint64_t *b1)
{
	*b0 = first / a->bitmap_chunk;
	*b1 = (end + a->bitmap_chunk - 1) / a->bitmap_chunk;
	*b1 = *b1 < bm->bits ? *b1 : bm->bits;
}

int rcl_soft_vol_bitmap_mark(struct rcl_soft_volume *vol, unsigned array, uint64_t first,
                             uint64_t end)
{
	struct vol_bitmap *bm = vol->bitmaps[array];
	uint64_t dirty[RCL_SOFT_BITMAP_MAX_SECTORS / 64] = {0}, b0, b1;
	bool any = false;
	int rc = 0;

	if (!bm)
		return 0;
	bit_range(&vol->geo.arrays[array], bm, first, end, &b0, &b1);
	pthread_mutex_lock(&bm->lock);
	for (uint64_t b = b0; b < b1; b++) {
		bm->writers[b]++;
		bm->touched[b] = true;
		if (!bit_set(bm, b)) {
			put_bit(bm, b, true, dirty);
			any = true;
		}
	}
	/* Others wanting the bitmap wait: no write may pass a bit not yet durable. */
	if (any)
		rc = write_sectors(vol, &vol->geo.arrays[array], bm, dirty);
	pthread_mutex_unlock(&bm->lock);
	if (rc)
		rcl_soft_vol_bitmap_unmark(vol, array, first, end);
	return rc;
}

void rcl_soft_vol_bitmap_unmark(struct rcl_soft_volume *vol, unsigned array, uint64_t first,
                                uint64_t end)
{
	struct vol_bitmap *bm = vol->bitmaps[array];
	time_t t = now();
	uint64_t b0, b1;

	if (!bm)
		return;
	bit_range(&vol->geo.arrays[array], bm, first, end, &b0, &b1);
	pthread_mutex_lock(&bm->lock);
	for (uint64_t b = b0; b < b1; b++) {
		bm->writers[b]--;
		bm->idle_since[b] = t;
	}
	pthread_mutex_unlock(&bm->lock);
}

void rcl_soft_vol_bitmap_keep(struct rcl_soft_volume *vol, unsigned array, uint64_t first,
                              uint64_t end)
{
	struct vol_bitmap *bm = vol->bitmaps[array];
	uint64_t b0, b1;

	if (!bm)
		return;
	bit_range(&vol->geo.arrays[array], bm, first, end, &b0, &b1);
	pthread_mutex_lock(&bm->lock);
	for (uint64_t b = b0; b < b1; b++)
		bm->resync[b] = true;
	pthread_mutex_unlock(&bm->lock);
}

void rcl_soft_vol_bitmap_resynced(struct rcl_soft_volume *vol, unsigned array, uint64_t first,
                                  uint64_t since, uint64_t end)
{
	struct vol_bitmap *bm = vol->bitmaps[array];
	uint64_t chunk = vol->geo.arrays[array].bitmap_chunk;
	/* Idle as long as clearing asks: the next flush (a checkpoint's) clears them. */
	time_t settled = now() - IDLE_SECONDS;

	if (!bm)
		return;
	pthread_mutex_lock(&bm->lock);
	for (uint64_t b = (first + chunk - 1) / chunk; b < end / chunk && b < bm->bits; b++) {
		bm->resync[b] = false;
		if ((b + 1) * chunk > since)
			bm->idle_since[b] = settled;
	}
	pthread_mutex_unlock(&bm->lock);
}

bool rcl_soft_vol_bitmap_dirty_run(struct rcl_soft_volume *vol, unsigned array, uint64_t from,
                                   uint64_t *first, uint64_t *end)
{
	struct vol_bitmap *bm = vol->bitmaps[array];
	uint64_t chunk = vol->geo.arrays[array].bitmap_chunk, b, e;

	if (!bm)
		return false;
	pthread_mutex_lock(&bm->lock);
	for (b = from / chunk; b < bm->bits && !bm->resync[b]; b++)
		;
	for (e = b; e < bm->bits && bm->resync[e]; e++)
		;
	pthread_mutex_unlock(&bm->lock);
	*first = b * chunk;
	*end = e * chunk;
	return b < bm->bits;
}

bool rcl_soft_volume_needs_resync(struct rcl_soft_volume *vol)
{
	bool found = atomic_load(&vol->unsynced) != UINT64_MAX;

	for (unsigned s = 0; s < vol->geo.spans && !found; s++) {
		struct vol_bitmap *bm = vol->bitmaps[s];

		if (!bm)
			continue;
		pthread_mutex_lock(&bm->lock);
		for (uint64_t b = 0; b < bm->bits && !found; b++)
			found = bm->resync[b];
		pthread_mutex_unlock(&bm->lock);
	}
	return found;
}

/* The set bits of @bm that may be cleared: no writer, idle long enough (@all: any idle). */
static bool clearable(const struct vol_bitmap *bm, uint64_t b, bool all, time_t t)
{
	return bit_set(bm, b) && !bm->writers[b] && !bm->resync[b] &&
	       (all || t - bm->idle_since[b] >= IDLE_SECONDS);
}

int rcl_soft_vol_bitmap_clean(struct rcl_soft_volume *vol, bool all, int (*sync)(void *), void *ctx)
{
	bool any = false;
	time_t t = now();
	int rc;

	/* Forget who wrote; bits written to again before the sync below stay set. */
	for (unsigned s = 0; s < vol->geo.spans; s++) {
		struct vol_bitmap *bm = vol->bitmaps[s];

		if (!bm)
			continue;
		pthread_mutex_lock(&bm->lock);
		for (uint64_t b = 0; b < bm->bits; b++)
			if (clearable(bm, b, all, t)) {
				bm->touched[b] = false;
				any = true;
			}
		pthread_mutex_unlock(&bm->lock);
	}
	rc = sync(ctx);
	for (unsigned s = 0; s < vol->geo.spans && any && !rc; s++) {
		struct vol_bitmap *bm = vol->bitmaps[s];
		uint64_t dirty[RCL_SOFT_BITMAP_MAX_SECTORS / 64] = {0};
		bool changed = false;

		if (!bm)
			continue;
		pthread_mutex_lock(&bm->lock);
		for (uint64_t b = 0; b < bm->bits; b++)
			if (clearable(bm, b, all, t) && !bm->touched[b]) {
				put_bit(bm, b, false, dirty);
				changed = true;
			}
		if (changed && bm->sb.events_cleared != bm->sb.events) {
			bm->sb.events_cleared = bm->sb.events;
			put_super(bm, dirty);
		}
		if (changed)
			rc = write_sectors(vol, &vol->geo.arrays[s], bm, dirty);
		pthread_mutex_unlock(&bm->lock);
	}
	return rc;
}

static void bitmap_free(struct vol_bitmap *bm)
{
	if (!bm)
		return;
	pthread_mutex_destroy(&bm->lock);
	rcl_free(bm->map);
	rcl_free(bm->writers);
	rcl_free(bm->touched);
	rcl_free(bm->idle_since);
	rcl_free(bm->resync);
	rcl_free(bm);
}

/*
 * Read array @a's bitmap from its first member in use. Return: the bitmap,
 * or NULL with *@st RCL_OK when there is none to keep (no member holds a
 * valid one: it is left alone), or an error.
 */
static struct vol_bitmap *bitmap_load(struct rcl_soft_volume *vol, const struct rcl_soft_array *a,
                                      enum rcl_status *st, struct rcl_error *err)
{
	struct vol_bitmap *bm = rcl_calloc(1, sizeof(*bm));
	struct rcl_error ignored = {0};
	unsigned i = first_keeper(vol, a);

	if (!bm) {
		*st = rcl_fail(err, RCL_NOMEM, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&bm->lock, NULL);
	bm->bits = a->bitmap_bits;
	bm->map_bytes = (RCL_MD_BITMAP_SB_BYTES + (bm->bits + 7) / 8 + 511) / 512 * 512;
	bm->map = rcl_malloc(bm->map_bytes);
	bm->writers = rcl_calloc(bm->bits, sizeof(*bm->writers));
	bm->touched = rcl_calloc(bm->bits, sizeof(*bm->touched));
	bm->idle_since = rcl_calloc(bm->bits, sizeof(*bm->idle_since));
	bm->resync = rcl_calloc(bm->bits, sizeof(*bm->resync));
	if (!bm->map || !bm->writers || !bm->touched || !bm->idle_since || !bm->resync) {
		bitmap_free(bm);
		*st = rcl_fail(err, RCL_NOMEM, "out of memory");
		return NULL;
	}
	*st = RCL_OK;
	if (bm->map_bytes > RCL_SOFT_BITMAP_MAX_SECTORS * 512 || i == a->n ||
	    rcl_soft_read(vol->members[a->first + i].fd, bm->map, bm->map_bytes, a->bitmap_at,
	                  &ignored) ||
	    rcl_md_bitmap_decode(bm->map, bm->map_bytes, a->bitmap_sectors, &bm->sb, &ignored) ||
	    bm->sb.chunksize != a->bitmap_chunk ||
	    rcl_md_bitmap_bits(bm->sb.sync_size, bm->sb.chunksize) != bm->bits) {
		bitmap_free(bm);
		return NULL;
	}
	for (uint64_t b = 0; b < bm->bits; b++)
		bm->resync[b] = bit_set(bm, b);
	return bm;
}

bool rcl_soft_vol_bitmap_on_disk_dirty(int fd, const struct rcl_soft_array *a)
{
	size_t bytes = (RCL_MD_BITMAP_SB_BYTES + (a->bitmap_bits + 7) / 8 + 511) / 512 * 512;
	struct rcl_error ignored = {0};
	struct rcl_md_bitmap_super sb;
	bool found = false;
	uint8_t *map;

	if (!a->bitmap_at || bytes > RCL_SOFT_BITMAP_MAX_SECTORS * 512)
		return false;
	map = rcl_malloc(bytes);
	/* What bitmap_load() would keep: a bitmap it cannot use is none. */
	if (map && !rcl_soft_read(fd, map, bytes, a->bitmap_at, &ignored) &&
	    !rcl_md_bitmap_decode(map, bytes, a->bitmap_sectors, &sb, &ignored) &&
	    sb.chunksize == a->bitmap_chunk &&
	    rcl_md_bitmap_bits(sb.sync_size, sb.chunksize) == a->bitmap_bits)
		for (uint64_t b = 0; b < a->bitmap_bits && !found; b++)
			found = map[RCL_MD_BITMAP_SB_BYTES + b / 8] >> (b % 8) & 1;
	rcl_free(map);
	return found;
}

enum rcl_status rcl_soft_vol_bitmap_open(struct rcl_soft_volume *vol, const struct rcl_soft_vd *vd,
                                         struct rcl_error *err)
{
	for (unsigned s = 0; s < vol->geo.spans; s++) {
		const struct rcl_soft_array *a = &vol->geo.arrays[s];
		enum rcl_status st = RCL_OK;

		if (a->bitmap_at)
			vol->bitmaps[s] = bitmap_load(vol, a, &st, err);
		if (st)
			return st;
	}
	if (rcl_soft_vol_bitmap_events(vol, vd))
		return rcl_fail(err, RCL_SYSTEM,
		                "cannot write the md bitmap of /v%u: too many of its drives failed",
		                vol->vd);
	return RCL_OK;
}

int rcl_soft_vol_bitmap_events(struct rcl_soft_volume *vol, const struct rcl_soft_vd *vd)
{
	int rc = 0;

	for (unsigned s = 0; s < vol->geo.spans && !rc; s++) {
		struct vol_bitmap *bm = vol->bitmaps[s];
		uint64_t dirty[RCL_SOFT_BITMAP_MAX_SECTORS / 64] = {0};

		if (!bm)
			continue;
		pthread_mutex_lock(&bm->lock);
		take_events(vol, &vol->geo.arrays[s], vd, bm, dirty);
		if (dirty[0])
			rc = write_sectors(vol, &vol->geo.arrays[s], bm, dirty);
		pthread_mutex_unlock(&bm->lock);
	}
	return rc;
}

int rcl_soft_vol_bitmap_set_events(struct rcl_soft_volume *vol, unsigned array, uint64_t events,
                                   bool whole)
{
	struct vol_bitmap *bm = vol->bitmaps[array];
	uint64_t dirty[RCL_SOFT_BITMAP_MAX_SECTORS / 64] = {0};
	int rc;

	if (!bm)
		return 0;
	pthread_mutex_lock(&bm->lock);
	bm->sb.events = events;
	/* md_bitmap_update_sb(): never cleared after the events; md_bitmap_endwrite(): an array
	 * not degraded has no member the bits would bring back. */
	if (whole || bm->sb.events_cleared > events)
		bm->sb.events_cleared = events;
	put_super(bm, dirty);
	rc = write_sectors(vol, &vol->geo.arrays[array], bm, dirty);
	pthread_mutex_unlock(&bm->lock);
	return rc;
}

void rcl_soft_vol_bitmap_close(struct rcl_soft_volume *vol)
{
	for (unsigned s = 0; s < RCL_MAX_SPANS; s++) {
		bitmap_free(vol->bitmaps[s]);
		vol->bitmaps[s] = NULL;
	}
}
