// SPDX-License-Identifier: MIT
/*
 * check.c - consistency check, repair and background initialization (see
 * sweep.h). Each stripe is read whole, its parity computed afresh from
 * its data and compared with the parity read; each mirrored chunk's
 * copies are compared with the first. Repair writes the computed parity,
 * or the first copy over the others, as md's "repair" and resync do:
 * the data strips are taken as right, since nothing can say otherwise.
 *
 * Everything a batch reads and rewrites stays locked until it is written,
 * so no request's write lands between.
 */
#include <errno.h>
#include <string.h>

#include "soft/engine/parity.h"
#include "sweep-private.h"

struct check {
	bool repair;
	struct rcl_soft_sweep_counts *counts;
};

/**
 * struct batch - what one array's batch reads, computes and writes.
 * @buf:	the strips or copies read, then (parity) the computed parity.
 */
struct batch {
	struct rcl_soft_volume *vol;
	unsigned array;
	const struct rcl_soft_array *a;
	const struct check *c;
	uint64_t first, count;
	uint8_t *buf;
	struct rcl_soft_op *ops;
	size_t nops;
	struct rcl_soft_lockset locks;
};

static void add_op(struct batch *b, enum rcl_soft_op_kind kind, unsigned member, void *buf,
                   size_t len, uint64_t off)
{
	rcl_soft_vol_op(b->vol, b->ops, b->nops++, kind, member, buf, len, off);
}

/*
 * Run the batch's ops. Return: 0; @error when one failed and its member is
 * failed; else the errno it failed with (its member kept: rcl_soft_vol_run()).
 */
static int run(struct batch *b, int error)
{
	int rc = rcl_soft_vol_run(b->vol, b->ops, b->nops);

	b->nops = 0;
	return rc > 0 ? error : rc;
}

/*
 * Write the repairs queued, holding the batch's write-intent bits as any
 * write does: a crash halfway leaves the region marked for resync. The
 * batch's units are stripes (parity) or VD chunks (mirrors), so its
 * bitmap range is the same product for both. Return: 0, or a negative errno.
 */
static int write_repairs(struct batch *b)
{
	uint64_t first = b->first * b->a->chunk, end = (b->first + b->count) * b->a->chunk;
	int rc;

	if (!b->nops)
		return 0;
	rc = rcl_soft_vol_bitmap_mark(b->vol, b->array, first, end);
	if (rc) {
		b->nops = 0;
		return rc;
	}
	rc = run(b, -EIO);
	rcl_soft_vol_bitmap_unmark(b->vol, b->array, first, end);
	return rc;
}

/* ---- RAID5/6/50/60 ---- */

/* The computed P (@q 0) or Q (@q 1) of the batch's @i-th stripe, after its strips. */
static uint8_t *computed(const struct batch *b, uint64_t i, unsigned q)
{
	return b->buf + (b->count * b->a->n + i * b->a->parity + q) * b->a->chunk;
}

/* Read every strip of the batch's stripes. Return: 0, or -ENXIO. */
static int read_stripes(struct batch *b)
{
	const struct rcl_soft_array *a = b->a;

	for (uint64_t i = 0; i < b->count; i++) {
		uint64_t s = b->first + i, at = rcl_soft_array_strip_at(a, s);

		for (unsigned r = 0; r < a->n; r++) {
			unsigned m = a->first + rcl_soft_array_role(a, s, r);

			if (!rcl_soft_vol_usable(b->vol, m, at + a->chunk))
				return -ENXIO;
			add_op(b, RCL_SOFT_OP_READ, m, rcl_soft_sweep_strip(b->buf, a, i, r),
			       a->chunk, at);
		}
	}
	return run(b, -ENXIO);
}

/* Compare stripe @i's parity with its data's, counting; queue the repair. */
static void compare_stripe(struct batch *b, uint64_t i)
{
	const struct rcl_soft_array *a = b->a;
	unsigned k = rcl_soft_array_data_strips(a);
	uint8_t *strips[RCL_SOFT_ARRAY_MAX + 2];
	const uint8_t *read[2], *fresh[2];
	uint64_t bad;

	for (unsigned d = 0; d < k; d++)
		strips[d] = rcl_soft_sweep_strip(b->buf, a, i, d);
	for (unsigned q = 0; q < a->parity; q++) {
		strips[k + q] = computed(b, i, q);
		read[q] = rcl_soft_sweep_strip(b->buf, a, i, k + q);
		fresh[q] = strips[k + q];
	}
	rcl_soft_parity_gen(k, a->parity, a->chunk, strips);
	bad = rcl_soft_sweep_mismatch(b->vol, a->parity, read, fresh, a->chunk);
	b->c->counts->mismatches += bad;
	for (unsigned q = 0; bad && b->c->repair && q < a->parity; q++)
		add_op(b, RCL_SOFT_OP_WRITE, a->first + rcl_soft_array_role(a, b->first + i, k + q),
		       strips[k + q], a->chunk, rcl_soft_array_strip_at(a, b->first + i));
}

static int check_stripes(struct batch *b)
{
	int rc = read_stripes(b);

	for (uint64_t i = 0; !rc && i < b->count; i++)
		compare_stripe(b, i);
	return rc ? rc : write_repairs(b);
}

/* ---- RAID1/10 ---- */

/* Copy @j of the batch's @i-th chunk, as read. */
static uint8_t *copy_buf(const struct batch *b, uint64_t i, unsigned j, unsigned copies)
{
	return b->buf + (i * copies + j) * b->a->chunk;
}

/* The bytes of VD chunk @chunk (the last one may be short). */
static size_t chunk_len(const struct batch *b, uint64_t chunk)
{
	uint64_t left = b->vol->geo.bytes - chunk * b->a->chunk;

	return left < b->a->chunk ? left : b->a->chunk;
}

static int check_chunks(struct batch *b, unsigned copies)
{
	const struct rcl_soft_array *a = b->a;
	struct rcl_soft_copies c;
	uint64_t run_len;
	int rc;

	for (uint64_t i = 0; i < b->count; i++) {
		rcl_soft_array_copies(a, (b->first + i) * a->chunk, &c, &run_len);
		for (unsigned j = 0; j < copies; j++) {
			size_t len = chunk_len(b, b->first + i);

			if (!rcl_soft_vol_usable(b->vol, a->first + c.member[j], c.at[j] + len))
				return -ENXIO;
			add_op(b, RCL_SOFT_OP_READ, a->first + c.member[j],
			       copy_buf(b, i, j, copies), len, c.at[j]);
		}
	}
	rc = run(b, -ENXIO);
	for (uint64_t i = 0; !rc && i < b->count; i++) {
		size_t len = chunk_len(b, b->first + i);
		const uint8_t *first[RCL_SOFT_ARRAY_MAX], *other[RCL_SOFT_ARRAY_MAX];
		uint64_t bad;

		for (unsigned j = 1; j < copies; j++) {
			first[j - 1] = copy_buf(b, i, 0, copies);
			other[j - 1] = copy_buf(b, i, j, copies);
		}
		bad = rcl_soft_sweep_mismatch(b->vol, copies - 1, first, other, len);
		b->c->counts->mismatches += bad;
		rcl_soft_array_copies(a, (b->first + i) * a->chunk, &c, &run_len);
		for (unsigned j = 1; bad && b->c->repair && j < copies; j++)
			if (memcmp(first[j - 1], other[j - 1], len))
				add_op(b, RCL_SOFT_OP_WRITE, a->first + c.member[j],
				       copy_buf(b, i, 0, copies), len, c.at[j]);
	}
	return rc ? rc : write_repairs(b);
}

/* ---- batches ---- */

/* Check @count units of @a from @first, into scratch of @strips strips per unit. */
static int check_array(struct rcl_soft_volume *vol, const struct check *c, unsigned array,
                       uint64_t first, uint64_t count, unsigned strips)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[array];
	struct batch b = {
	    .vol = vol, .array = array, .a = a, .c = c, .first = first, .count = count};
	void *block;
	int rc = -ENOMEM;

	if (!count)
		return 0;
	b.buf = rcl_soft_vol_scratch(count * strips * a->chunk, &block);
	b.ops = rcl_malloc(count * a->n * sizeof(*b.ops));
	if (b.buf && b.ops) {
		/* Stripes are locked by array and stripe, chunks of mirrors by chunk. */
		for (uint64_t i = 0; i < count; i++)
			rcl_soft_lockset_add(&b.locks, array, first + i);
		rcl_soft_lockset_lock(&vol->stripes, &b.locks);
		rc = a->parity ? check_stripes(&b) : check_chunks(&b, strips);
		rcl_soft_lockset_unlock(&vol->stripes, &b.locks);
	}
	rcl_free(b.ops);
	rcl_free(block);
	return rc;
}

static int check_batch(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, void *arg)
{
	const struct check *c = arg;
	const struct rcl_soft_array *a = &vol->geo.arrays[0];
	uint64_t first, last;
	int rc = 0;

	if (a->parity) {
		for (unsigned s = 0; s < vol->geo.spans && !rc; s++)
			rc = check_array(vol, c, s, from / a->chunk, (to - from) / a->chunk,
			                 a->n + a->parity);
		return rc;
	}
	/* Mirrors: the chunks whose first copy lies in these rows. */
	first = rcl_soft_sweep_vd_at(vol, from) / a->chunk;
	last = (rcl_soft_sweep_vd_at(vol, to) + a->chunk - 1) / a->chunk;
	return check_array(vol, c, 0, first, last - first,
	                   a->level == RCL_MD_LEVEL_RAID1 ? a->n : 2);
}

int rcl_soft_check_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, bool repair,
                         struct rcl_soft_sweep_counts *counts)
{
	struct check c = {.repair = repair, .counts = counts};

	if (vol->geo.arrays[0].level == RCL_MD_LEVEL_RAID0)
		return -EOPNOTSUPP;
	return rcl_soft_sweep_run(vol, from, to, check_batch, &c);
}
