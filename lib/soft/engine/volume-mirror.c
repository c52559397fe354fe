// SPDX-License-Identifier: MIT
/*
 * volume-mirror.c - the I/O path of RAID0, RAID1, RAID10 and RAID00 (a top
 * raid0 over raid0 span arrays): each chunk has one copy or more
 * (stripe.h); a read takes one usable copy and a write goes to every
 * usable copy. Writes to mirrors lock their chunks, so two
 * writers of one chunk cannot leave its copies different.
 *
 * A read takes the copy whose member has the fewest reads in flight, as
 * md's read balancing does, so the members share the load whatever the
 * access pattern (rotating by chunk number would send all of a RAID10's
 * even chunks to one member of their pair); ties go round by turns. A RAID1
 * read takes all its window from one member, as one I/O, like a read of a
 * single drive.
 */
#include <errno.h>
#include <limits.h>

#include "volume-private.h"

/* Ops that serving window @w can take at most. */
static size_t max_ops(const struct rcl_soft_array *a, const struct vol_window *w)
{
	size_t pieces = w->len / a->chunk + 2;
	unsigned copies = a->level == RCL_MD_LEVEL_RAID1    ? a->n
	                  : a->level == RCL_MD_LEVEL_RAID10 ? 2
	                                                    : 1;

	return pieces * (w->write ? copies : 1);
}

/*
 * Add a @kind of @len bytes at @at of member @m from @buf to @ops, joined
 * to an op it goes on from: a RAID1 window, or a RAID10 member's chunks
 * row after row, is one I/O per member. Return: the ops now.
 */
static size_t add_op(const struct rcl_soft_volume *vol, struct rcl_soft_op *ops, size_t n,
                     enum rcl_soft_op_kind kind, unsigned m, uint8_t *buf, uint64_t len,
                     uint64_t at)
{
	for (size_t i = 0; i < n; i++) {
		if (ops[i].member == m && ops[i].off + ops[i].len == at &&
		    (uint8_t *)ops[i].buf + ops[i].len == buf) {
			ops[i].len += len;
			return n;
		}
	}
	rcl_soft_vol_op(vol, ops, n, kind, m, buf, len, at);
	return n + 1;
}

/*
 * The copy of @c (usable up to @run bytes on) that a read takes: the least
 * busy member, ties going to the first from copy @turn % count on; RAID1
 * stays on @pinned, the member of the window's first piece, while it can.
 * Return: the member, or -1 when no copy is usable.
 */
static int read_copy(const struct rcl_soft_volume *vol, const struct rcl_soft_array *a,
                     const struct rcl_soft_copies *c, uint64_t run, uint64_t turn, int pinned)
{
	unsigned best_load = UINT_MAX;
	int best = -1;

	for (unsigned i = 0; i < c->count; i++) {
		unsigned copy = (unsigned)((turn + i) % c->count), m = a->first + c->member[copy];
		unsigned load = atomic_load(&vol->members[m].reading);

		if (!rcl_soft_vol_usable(vol, m, c->at[copy] + run))
			continue;
		if ((int)m == pinned)
			return copy;
		if (load < best_load) {
			best_load = load;
			best = (int)copy;
		}
	}
	return best;
}

/* The ops of window @w with the members usable now, into @ops. Return: how many, or -EIO. */
static ssize_t plan(struct rcl_soft_volume *vol, const struct vol_window *w,
                    struct rcl_soft_op *ops)
{
	uint64_t turn = w->write ? 0 : atomic_fetch_add(&vol->read_turn, 1);
	int pinned = -1;
	size_t n = 0;

	for (size_t done = 0; done < w->len;) {
		struct rcl_soft_copies c;
		uint64_t off, run, span_run;
		unsigned usable = 0;
		const struct rcl_soft_array *a = &vol->geo.arrays[rcl_soft_geometry_locate(
		    &vol->geo, w->off + done, &off, &span_run)];

		rcl_soft_array_copies(a, off, &c, &run);
		run = run < span_run ? run : span_run;
		run = run < w->len - done ? run : w->len - done;
		for (unsigned i = 0; w->write && i < c.count; i++) {
			unsigned m = a->first + c.member[i];

			if (!rcl_soft_vol_usable(vol, m, c.at[i] + run))
				continue;
			n = add_op(vol, ops, n, vol_write_kind(w->flags), m, w->buf + done, run,
			           c.at[i]);
			usable++;
		}
		if (!w->write) {
			int copy = read_copy(vol, a, &c, run, turn + off / a->chunk, pinned);

			if (copy >= 0) {
				unsigned m = a->first + c.member[copy];

				n = add_op(vol, ops, n, RCL_SOFT_OP_READ, m, w->buf + done, run,
				           c.at[copy]);
				pinned = a->level == RCL_MD_LEVEL_RAID1 ? (int)m : -1;
				usable++;
			}
		}
		if (!usable)
			return -EIO;
		done += run;
	}
	return (ssize_t)n;
}

/* Count @ops's reads in flight on their members (@step 1), or done (-1). */
static void count_reads(struct rcl_soft_volume *vol, const struct rcl_soft_op *ops, ssize_t n,
                        int step)
{
	for (ssize_t i = 0; i < n; i++)
		if (ops[i].kind == RCL_SOFT_OP_READ)
			atomic_fetch_add(&vol->members[ops[i].member].reading, (unsigned)step);
}

/* Ops a window this small or smaller needs take no allocation: 4 chunks' worth. */
#define STACK_OPS 16

int rcl_soft_vol_mirror_io(struct rcl_soft_volume *vol, const struct vol_window *w)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[0];
	struct rcl_soft_op stack_ops[STACK_OPS];
	size_t need = max_ops(a, w);
	struct rcl_soft_op *ops = need <= STACK_OPS ? stack_ops : rcl_malloc(need * sizeof(*ops));
	bool lock = w->write && a->level != RCL_MD_LEVEL_RAID0;
	struct rcl_soft_lockset set = {{0}};
	bool marked;
	ssize_t n;

	if (!ops)
		return -ENOMEM;
	for (uint64_t c = w->off / a->chunk; lock && c <= (w->off + w->len - 1) / a->chunk; c++)
		rcl_soft_lockset_add(&set, 0, c);
	if (lock)
		rcl_soft_lockset_lock(&vol->stripes, &set);
	/* RAID1's bitmap counts member bytes, which are the array's; RAID10's the array's. */
	n = w->write ? rcl_soft_vol_bitmap_mark(vol, 0, w->off, w->off + w->len) : 0;
	marked = w->write && !n;
	/* Each failure takes a member out of use or ends the request, so this ends. */
	while (!n && (n = plan(vol, w, ops)) > 0) {
		int rc;

		count_reads(vol, ops, n, 1);
		rc = rcl_soft_vol_run(vol, ops, (size_t)n);
		count_reads(vol, ops, n, -1);
		if (rc)
			n = rc > 0 ? 0 : rc;
		/* A copy may have been written and another not: they are owed a resync. */
		if (rc < 0 && marked)
			rcl_soft_vol_bitmap_keep(vol, 0, w->off, w->off + w->len);
	}
	if (marked)
		rcl_soft_vol_bitmap_unmark(vol, 0, w->off, w->off + w->len);
	if (lock)
		rcl_soft_lockset_unlock(&vol->stripes, &set);
	if (ops != stack_ops)
		rcl_free(ops);
	return n < 0 ? (int)n : 0;
}
