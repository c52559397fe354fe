// SPDX-License-Identifier: MIT
/*
 * volume-mirror.c - the I/O path of RAID0, RAID1 and RAID10: each chunk
 * has one copy or more (stripe.h); a read takes one usable copy, rotating
 * by chunk so that members share the load, and a write goes to every
 * usable copy. Writes to mirrors lock their chunks, so two writers of one
 * chunk cannot leave its copies different.
 */
#include <errno.h>

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

/* The ops of window @w with the members usable now, into @ops. Return: how many, or -EIO. */
static ssize_t plan(const struct rcl_soft_volume *vol, const struct vol_window *w,
                    struct rcl_soft_op *ops)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[0];
	size_t n = 0;

	for (size_t done = 0; done < w->len;) {
		struct rcl_soft_copies c;
		uint64_t off = w->off + done, run;
		unsigned first, usable = 0;

		rcl_soft_array_copies(a, off, &c, &run);
		run = run < w->len - done ? run : w->len - done;
		first = (unsigned)(off / a->chunk % c.count);
		for (unsigned i = 0; i < c.count && (w->write || !usable); i++) {
			unsigned copy = (first + i) % c.count, m = a->first + c.member[copy];

			if (!rcl_soft_vol_usable(vol, m, c.at[copy] + run))
				continue;
			rcl_soft_vol_op(vol, ops, n++,
			                w->write ? RCL_SOFT_OP_WRITE : RCL_SOFT_OP_READ, m,
			                w->buf + done, run, c.at[copy]);
			usable++;
		}
		if (!usable)
			return -EIO;
		done += run;
	}
	return (ssize_t)n;
}

int rcl_soft_vol_mirror_io(struct rcl_soft_volume *vol, const struct vol_window *w)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[0];
	struct rcl_soft_op *ops = rcl_malloc(max_ops(a, w) * sizeof(*ops));
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
	/* Each failure takes a member out of use, so this ends. */
	while (!n && (n = plan(vol, w, ops)) > 0 && rcl_soft_vol_run(vol, ops, (size_t)n))
		n = 0;
	for (ssize_t i = 0; w->write && i < n; i++)
		vol_set_add(w->written, ops[i].member);
	if (marked)
		rcl_soft_vol_bitmap_unmark(vol, 0, w->off, w->off + w->len);
	if (lock)
		rcl_soft_lockset_unlock(&vol->stripes, &set);
	rcl_free(ops);
	return n < 0 ? (int)n : 0;
}
