// SPDX-License-Identifier: MIT
/*
 * sweep.c - what the background operations share (sweep-private.h):
 * positions and their units, batches under the volume's read lock with
 * the members read ahead of them, the map from positions to VD bytes, and
 * md-style mismatch counting.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "sweep-private.h"

/* A batch reads or writes about this much over the members of one array. */
#define BATCH_BYTES (4u << 20)
/* The members are read this many steps ahead of a sweep, at least (see read_ahead()). */
#define READ_AHEAD_STEPS 8
/* md counts mismatches in blocks of its stripe cache's page. */
#define MISMATCH_BLOCK 4096u

uint64_t rcl_soft_sweep_extent(const struct rcl_soft_volume *vol)
{
	return vol->geo.arrays[0].member_bytes;
}

uint64_t rcl_soft_sweep_unit(const struct rcl_soft_volume *vol)
{
	return vol->geo.arrays[0].chunk;
}

uint64_t rcl_soft_sweep_step(const struct rcl_soft_volume *vol)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[0];
	uint64_t units = BATCH_BYTES / (a->chunk * a->n);

	return (units ? units : 1) * a->chunk;
}

uint64_t rcl_soft_sweep_lba(const struct rcl_soft_volume *vol, uint64_t pos)
{
	return (vol->geo.arrays[0].start + pos) / vol->sector_size;
}

uint64_t rcl_soft_sweep_rebuilt(const struct rcl_soft_volume *vol, unsigned member)
{
	uint64_t start = vol->geo.arrays[0].start, extent = rcl_soft_sweep_extent(vol), valid;
	const struct vol_member *m;

	if (member >= vol->member_count)
		return 0;
	m = &vol->members[member];
	valid = m->valid_below;
	if (m->state != RCL_SOFT_MEMBER_REBUILD)
		return m->state == RCL_SOFT_MEMBER_ONLINE ? extent : 0;
	if (valid <= start)
		return 0;
	return valid - start < extent ? valid - start : extent;
}

int rcl_soft_sweep_valid(const struct rcl_soft_volume *vol, uint64_t from, uint64_t to)
{
	uint64_t unit = rcl_soft_sweep_unit(vol), extent = rcl_soft_sweep_extent(vol);

	if (from > to || to > extent || from % unit || (to % unit && to != extent))
		return -EINVAL;
	return 0;
}

/*
 * Have the kernel read ahead of the batch [@at, @end), on every member the
 * sweep reads there (a member being rebuilt is not one). A batch waits for
 * all its reads, so without this a member's disk would idle while the
 * batch computes and writes, and a sweep would get one batch's reads in
 * flight where a streaming reader has many (the kernel's own readahead
 * keeps only one window ahead of a read). Each time the batches cross a
 * multiple of the window (READ_AHEAD_STEPS steps), the two windows from
 * there are asked for: the next batches find their data read or on its
 * way, while the kernel skips the pages it holds already. Nothing else
 * depends on it: the batches still read every byte they use.
 */
static void read_ahead(struct rcl_soft_volume *vol, uint64_t at, uint64_t end)
{
	uint64_t window = READ_AHEAD_STEPS * rcl_soft_sweep_step(vol);
	uint64_t extent = rcl_soft_sweep_extent(vol), first = (at + window - 1) / window * window;
	uint64_t last;

	if (first >= end)
		return;
	last = extent - first < 2 * window ? extent : first + 2 * window;
	for (unsigned m = 0; m < vol->member_count; m++) {
		uint64_t start = vol->geo.arrays[m / vol->geo.arrays[0].n].start;

		if (rcl_soft_vol_usable(vol, m, start + last))
			posix_fadvise(vol->members[m].fd, (off_t)(start + first),
			              (off_t)(last - first), POSIX_FADV_WILLNEED);
	}
}

int rcl_soft_sweep_run(struct rcl_soft_volume *vol, uint64_t from, uint64_t to,
                       rcl_soft_sweep_fn fn, void *arg)
{
	uint64_t step = rcl_soft_sweep_step(vol);
	int rc = rcl_soft_sweep_valid(vol, from, to);

	for (uint64_t at = from; !rc && at < to; at += step) {
		uint64_t end = to - at < step ? to : at + step;

		/* Requests wait for one batch at most, and updates go between batches. */
		pthread_rwlock_rdlock(&vol->lock);
		read_ahead(vol, at, end);
		rc = fn(vol, at, end, arg);
		pthread_rwlock_unlock(&vol->lock);
	}
	return rc;
}

uint64_t rcl_soft_sweep_vd_at(const struct rcl_soft_volume *vol, uint64_t pos)
{
	const struct rcl_soft_geometry *g = &vol->geo;
	const struct rcl_soft_array *a = &g->arrays[0];
	uint64_t rows = pos / a->chunk, at;

	switch (a->level) {
	case RCL_MD_LEVEL_RAID1:
		at = pos;
		break;
	case RCL_MD_LEVEL_RAID10:
		/* near=2: chunk c's first copy is device 2c, in row 2c / n. */
		at = (rows * a->n + 1) / 2 * a->chunk;
		break;
	default: /* raid0, raid5, raid6: a row of data strips */
		at = rows * rcl_soft_array_stripe_bytes(a);
		/* Nested: each span array's rows past the top raid0's metadata, round-robin. */
		if (g->nested)
			at = at <= g->top_start ? 0
			                        : (at - g->top_start + a->chunk - 1) / a->chunk *
			                              a->chunk * g->spans;
	}
	return at < g->bytes ? at : g->bytes;
}

uint64_t rcl_soft_sweep_mismatch(const struct rcl_soft_volume *vol, unsigned pairs,
                                 const uint8_t *const *a, const uint8_t *const *b, size_t len)
{
	size_t block = vol->sector_size > MISMATCH_BLOCK ? vol->sector_size : MISMATCH_BLOCK;
	uint64_t sectors = 0;

	for (size_t at = 0; at < len; at += block) {
		size_t n = len - at < block ? len - at : block;
		bool differ = false;

		for (unsigned i = 0; i < pairs && !differ; i++)
			differ = memcmp(a[i] + at, b[i] + at, n) != 0;
		sectors += differ ? n / 512 : 0;
	}
	return sectors;
}

/* The positions of the rows that hold RAID10 array bytes [@first, @end): near=2 copies. */
static void raid10_rows(const struct rcl_soft_array *a, uint64_t first, uint64_t end,
                        uint64_t *from, uint64_t *to)
{
	uint64_t last = (end - 1) / a->chunk;

	/* Chunk c's copies are devices 2c and 2c + 1, in rows 2c / n and (2c + 1) / n. */
	*from = first / a->chunk * 2 / a->n * a->chunk;
	*to = ((2 * last + 1) / a->n + 1) * a->chunk;
}

bool rcl_soft_sweep_dirty(struct rcl_soft_volume *vol, uint64_t from, uint64_t *first,
                          uint64_t *end)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[0];
	bool raid10 = a->level == RCL_MD_LEVEL_RAID10, found = false;
	uint64_t unit = rcl_soft_sweep_unit(vol), extent = rcl_soft_sweep_extent(vol);
	uint64_t at = raid10 ? rcl_soft_sweep_vd_at(vol, from) : from;

	uint64_t whole = atomic_load(&vol->unsynced);

	/* A crash found without a bitmap: everything from there on. */
	if (whole < extent) {
		*first = whole / unit * unit;
		*end = extent;
		found = true;
	}
	/* The spans' bitmaps each cover their members' data: the same positions. */
	for (unsigned s = 0; s < vol->geo.spans; s++) {
		uint64_t b0, b1, p0, p1;

		if (!rcl_soft_vol_bitmap_dirty_run(vol, s, at, &b0, &b1))
			continue;
		if (raid10)
			raid10_rows(a, b0, b1, &p0, &p1);
		else
			p0 = b0, p1 = b1;
		p0 = p0 / unit * unit;
		p1 = p1 < extent ? (p1 + unit - 1) / unit * unit : extent;
		if (p0 >= extent || (found && p0 >= *first))
			continue;
		*first = p0;
		*end = p1 < extent ? p1 : extent;
		found = true;
	}
	return found;
}

/* Position @at as a byte of the bitmaps' range: each member's data, or RAID10's array bytes. */
static uint64_t bitmap_byte(struct rcl_soft_volume *vol, uint64_t at)
{
	return vol->geo.arrays[0].level == RCL_MD_LEVEL_RAID10 ? rcl_soft_sweep_vd_at(vol, at) : at;
}

void rcl_soft_sweep_resynced(struct rcl_soft_volume *vol, uint64_t from, uint64_t since,
                             uint64_t to)
{
	uint64_t end = to == rcl_soft_sweep_extent(vol) ? UINT64_MAX : bitmap_byte(vol, to);
	uint64_t whole = atomic_load(&vol->unsynced);

	/* Only the resync's own task moves it: no other writer to race. */
	if (from <= whole && to > whole)
		atomic_store(&vol->unsynced, to < rcl_soft_sweep_extent(vol) ? to : UINT64_MAX);

	for (unsigned s = 0; s < vol->geo.spans; s++)
		rcl_soft_vol_bitmap_resynced(vol, s, bitmap_byte(vol, from),
		                             bitmap_byte(vol, since), end);
}
