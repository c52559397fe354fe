// SPDX-License-Identifier: MIT
/*
 * volume-parity.c - the I/O path of RAID5, RAID6, RAID50 and RAID60.
 *
 * A window is cut into the stripes it touches (stripe.h). Reads go from
 * the data strips straight into the caller's buffer; a stripe with a
 * wanted strip not usable is read whole over the wanted rows, under its
 * stripe lock, and the missing strips are recovered from the others.
 *
 * Writes lock every stripe of the window, cut each stripe into row
 * segments over which the same data strips are written, and give each
 * segment the way that reads fewest strips:
 *  - read-modify-write: read the old data being replaced and the parity;
 *    P' = P + old + new, and Q' likewise (parity.h);
 *  - reconstruct-write: read the data strips not being written and
 *    compute the parity afresh; a full stripe reads nothing;
 *  - reconstruct: read every usable strip, recover the missing ones, then
 *    reconstruct-write; needed only when a strip being written and one
 *    not being written are both missing (RAID6).
 * Strips on members that are not usable are not written, but the parity
 * written covers them, so the stripe reads back as written.
 *
 * A partial stripe first joins the stripe's entry in the stripe cache,
 * whose writes are volume-parity-cache.c's.
 *
 * A member failing during the reads or the writes is failed (the owner is
 * told) and the window is planned and done again without it. That holds
 * after a failed write too: every other write of the batch landed, so the
 * stripe holds the new data and parity with the failed strip missing, and
 * doing it again computes and writes the same.
 */
#include <errno.h>
#include <string.h>

#include "parity.h"
#include "volume-parity-private.h"

enum how {
	DATA_ONLY,   /* no usable parity to keep: write the data alone */
	RMW,         /* read-modify-write */
	RCW,         /* reconstruct-write */
	RECONSTRUCT, /* recover the missing strips, then reconstruct-write */
};

/**
 * struct pseg - rows [r0, r0 + len) of a stripe, over which the same data
 * roles (@touched) are written, or (reads) recovered.
 * @reads:	the roles read before anything is computed.
 * @old:	per role: its contents read, or recovered.
 * @par:	the new P and Q.
 */
struct pseg {
	struct pstripe *p;
	uint32_t r0, len;
	uint64_t touched;
	enum how how;
	uint64_t reads;
	uint8_t *old[RCL_SOFT_ARRAY_MAX];
	uint8_t *par[2];
};

static unsigned popcount(uint64_t x)
{
	return (unsigned)__builtin_popcountll(x);
}

static uint64_t role_bits(unsigned count)
{
	return count >= 64 ? ~0ull : (1ull << count) - 1;
}

static struct pstripe *find_stripe(struct pwin *pw, unsigned array, uint64_t stripe)
{
	for (size_t i = pw->nstripes; i-- > 0;)
		if (pw->stripes[i].array == array && pw->stripes[i].stripe == stripe)
			return &pw->stripes[i];
	pw->stripes[pw->nstripes] = (struct pstripe){.array = array, .stripe = stripe};
	return &pw->stripes[pw->nstripes++];
}

/* Cut the window into stripes and each stripe's rows per data strip. */
static void gather(struct pwin *pw)
{
	const struct vol_window *w = pw->w;

	for (size_t done = 0; done < w->len;) {
		uint64_t aoff, run;
		unsigned ai = rcl_soft_geometry_locate(&pw->vol->geo, w->off + done, &aoff, &run);
		const struct rcl_soft_array *a = &pw->vol->geo.arrays[ai];
		uint64_t stripe_bytes = rcl_soft_array_stripe_bytes(a);
		unsigned d = (unsigned)(aoff % stripe_bytes / a->chunk);
		uint32_t row = (uint32_t)(aoff % a->chunk);
		struct pstripe *p = find_stripe(pw, ai, aoff / stripe_bytes);
		size_t n = w->len - done;

		n = n < run ? n : run;
		n = n < a->chunk - row ? n : a->chunk - row;
		p->lo[d] = row;
		p->hi[d] = row + (uint32_t)n;
		p->user[d] = w->buf + done;
		p->touched |= 1ull << d;
		done += n;
	}
}

static unsigned member_of(const struct pwin *pw, const struct pstripe *p, unsigned role)
{
	const struct rcl_soft_array *a = array_of(pw, p);

	return a->first + rcl_soft_array_role(a, p->stripe, role);
}

/* The drive byte of row @row of @p's strips. */
static uint64_t row_at(const struct pwin *pw, const struct pstripe *p, uint32_t row)
{
	return rcl_soft_array_strip_at(array_of(pw, p), p->stripe) + row;
}

/* Which of @p's roles cannot be used now; whether any wanted data strip is among them. */
static bool mark_lost(const struct pwin *pw, struct pstripe *p)
{
	const struct rcl_soft_array *a = array_of(pw, p);
	uint64_t end = row_at(pw, p, (uint32_t)a->chunk);

	p->lost = 0;
	for (unsigned r = 0; r < a->n; r++)
		if (!rcl_soft_vol_usable(pw->vol, member_of(pw, p, r), end))
			p->lost |= 1ull << r;
	return p->touched & p->lost;
}

void rcl_soft_vol_parity_lock_all(struct pwin *pw)
{
	for (size_t i = 0; i < pw->nstripes; i++)
		rcl_soft_lockset_add(&pw->locks, pw->stripes[i].array, pw->stripes[i].stripe);
	rcl_soft_lockset_lock(&pw->vol->stripes, &pw->locks);
}

static struct rcl_soft_op *add_op(struct pwin *pw, enum rcl_soft_op_kind kind,
                                  const struct pstripe *p, unsigned role, void *buf, uint32_t r0,
                                  uint32_t len)
{
	rcl_soft_vol_op(pw->vol, pw->ops, pw->nops, kind, member_of(pw, p, role), buf, len,
	                row_at(pw, p, r0));
	return &pw->ops[pw->nops++];
}

/* Scratch bytes @s needs: a buffer per role read or recovered, and the new parity. */
static size_t seg_bytes(const struct pwin *pw, const struct pseg *s)
{
	const struct rcl_soft_array *a = array_of(pw, s->p);
	unsigned buffers = s->how == RECONSTRUCT ? a->n : popcount(s->reads);

	return s->how == DATA_ONLY ? 0 : (size_t)(buffers + a->parity) * s->len;
}

/* Give every segment its scratch buffers, in one block. Return: 0 or -ENOMEM. */
static int take_scratch(struct pwin *pw)
{
	size_t total = 0;
	uint8_t *at;

	for (size_t i = 0; i < pw->nsegs; i++)
		total += seg_bytes(pw, &pw->segs[i]);
	if (!total)
		return 0;
	at = rcl_soft_vol_scratch(total, &pw->scratch);
	if (!at)
		return -ENOMEM;
	for (size_t i = 0; i < pw->nsegs; i++) {
		struct pseg *s = &pw->segs[i];
		const struct rcl_soft_array *a = array_of(pw, s->p);
		uint64_t own = s->how == RECONSTRUCT ? role_bits(a->n) : s->reads;

		if (s->how == DATA_ONLY)
			continue;
		for (unsigned r = 0; r < a->n; r++)
			if (own >> r & 1) {
				s->old[r] = at;
				at += s->len;
			}
		for (unsigned q = 0; q < a->parity; q++) {
			s->par[q] = at;
			at += s->len;
		}
	}
	return 0;
}

static void drop_scratch(struct pwin *pw)
{
	rcl_free(pw->scratch);
	pw->scratch = NULL;
}

/* The segments' reads; a write's (@write) skip readahead (struct vol_member). */
static void add_reads(struct pwin *pw, bool write)
{
	for (size_t i = 0; i < pw->nsegs; i++) {
		struct pseg *s = &pw->segs[i];

		for (unsigned r = 0; r < RCL_SOFT_ARRAY_MAX; r++) {
			struct rcl_soft_op *op;

			if (!(s->reads >> r & 1))
				continue;
			op = add_op(pw, RCL_SOFT_OP_READ, s->p, r, s->old[r], s->r0, s->len);
			if (write)
				rcl_soft_vol_no_readahead(pw->vol, op);
		}
	}
}

/* ---- reads ---- */

/*
 * Plan a read: direct reads of the wanted strips, and a segment over the
 * wanted rows of each stripe that lost one of them.
 */
static int plan_read(struct pwin *pw)
{
	pw->nsegs = pw->nops = 0;
	for (size_t i = 0; i < pw->nstripes; i++) {
		struct pstripe *p = &pw->stripes[i];
		const struct rcl_soft_array *a = array_of(pw, p);
		struct pseg *s = &pw->segs[pw->nsegs];
		uint32_t r0 = UINT32_MAX, r1 = 0;

		for (unsigned d = 0; d < a->n; d++)
			if (p->touched >> d & 1) {
				r0 = p->lo[d] < r0 ? p->lo[d] : r0;
				r1 = p->hi[d] > r1 ? p->hi[d] : r1;
				if (!(p->lost & p->touched))
					add_op(pw, RCL_SOFT_OP_READ, p, d, p->user[d], p->lo[d],
					       p->hi[d] - p->lo[d]);
			}
		if (!(p->lost & p->touched))
			continue;
		if (popcount(p->lost) > a->parity)
			return -EIO;
		*s = (struct pseg){.p = p, .r0 = r0, .len = r1 - r0, .how = RECONSTRUCT};
		s->reads = role_bits(a->n) & ~p->lost;
		pw->nsegs++;
	}
	return 0;
}

static void finish_read(struct pwin *pw)
{
	for (size_t i = 0; i < pw->nsegs; i++) {
		struct pseg *s = &pw->segs[i];
		struct pstripe *p = s->p;
		const struct rcl_soft_array *a = array_of(pw, p);

		rcl_soft_parity_recover(rcl_soft_array_data_strips(a), a->parity, s->len, s->old,
		                        p->lost);
		for (unsigned d = 0; d < a->n; d++)
			if (p->touched >> d & 1)
				memcpy(p->user[d], s->old[d] + (p->lo[d] - s->r0),
				       p->hi[d] - p->lo[d]);
	}
}

static int read_window(struct pwin *pw)
{
	/* Cached data is read under the stripe locks, so none is written meanwhile. */
	bool locked = rcl_soft_vol_parity_any_cached(pw);
	int rc;

	if (locked)
		rcl_soft_vol_parity_lock_all(pw);

	for (;;) {
		bool degraded = false;

		for (size_t i = 0; i < pw->nstripes; i++)
			degraded |= mark_lost(pw, &pw->stripes[i]);
		/* Recovering reads parity: no writer of the stripe may be half done. */
		if (degraded && !locked) {
			rcl_soft_vol_parity_lock_all(pw);
			locked = true;
			continue;
		}
		rc = plan_read(pw);
		if (!rc)
			rc = take_scratch(pw);
		if (rc)
			break;
		add_reads(pw, false);
		rc = rcl_soft_vol_run(pw->vol, pw->ops, pw->nops);
		if (!rc) {
			finish_read(pw);
			if (locked)
				rcl_soft_vol_parity_overlay(pw);
			break;
		}
		drop_scratch(pw);
		if (rc < 0)
			break;
		rc = 0;
	}
	drop_scratch(pw);
	if (locked)
		rcl_soft_lockset_unlock(&pw->vol->stripes, &pw->locks);
	return rc;
}

/* ---- writes ---- */

/* Insert @v into the sorted set @b of *@n values. */
static void add_boundary(uint32_t *b, unsigned *n, uint32_t v)
{
	unsigned i = *n;

	for (unsigned j = 0; j < *n; j++)
		if (b[j] == v)
			return;
	while (i > 0 && b[i - 1] > v) {
		b[i] = b[i - 1];
		i--;
	}
	b[i] = v;
	(*n)++;
}

/*
 * Cut @p into segments over which the same data strips are written, into
 * @out (NULL: just count them). Return: how many.
 */
static size_t cut_stripe(struct pstripe *p, struct pseg *out)
{
	uint32_t b[2 * RCL_SOFT_ARRAY_MAX];
	unsigned nb = 0;
	size_t n = 0;

	for (unsigned d = 0; d < RCL_SOFT_ARRAY_MAX; d++)
		if (p->touched >> d & 1) {
			add_boundary(b, &nb, p->lo[d]);
			add_boundary(b, &nb, p->hi[d]);
		}
	for (unsigned i = 0; i + 1 < nb; i++) {
		uint64_t touched = 0;

		for (unsigned d = 0; d < RCL_SOFT_ARRAY_MAX; d++)
			if ((p->touched >> d & 1) && p->lo[d] <= b[i] && p->hi[d] >= b[i + 1])
				touched |= 1ull << d;
		if (touched && out)
			out[n] = (struct pseg){
			    .p = p, .r0 = b[i], .len = b[i + 1] - b[i], .touched = touched};
		n += touched != 0;
	}
	return n;
}

/* Pick @s's way by the member reads each costs. Return: 0, or -EIO. */
static int choose(const struct pwin *pw, struct pseg *s)
{
	const struct rcl_soft_array *a = array_of(pw, s->p);
	uint64_t data = role_bits(rcl_soft_array_data_strips(a)), lost = s->p->lost;
	uint64_t parity = role_bits(a->n) & ~data & ~lost, rest = data & ~s->touched;
	bool rmw_ok = !(s->touched & lost), rcw_ok = !(rest & lost);

	if (popcount(lost) > a->parity)
		return -EIO;
	if (!parity)
		s->how = DATA_ONLY, s->reads = 0;
	else if (rcw_ok && (!rmw_ok || popcount(rest) <= popcount(s->touched | parity)))
		s->how = RCW, s->reads = rest;
	else if (rmw_ok)
		s->how = RMW, s->reads = s->touched | parity;
	else
		s->how = RECONSTRUCT, s->reads = role_bits(a->n) & ~lost;
	return 0;
}

/* The new data of data role @d in @s. */
static uint8_t *new_data(const struct pseg *s, unsigned d)
{
	return s->p->user[d] + (s->r0 - s->p->lo[d]);
}

static void compute_rmw(const struct pwin *pw, struct pseg *s)
{
	const struct rcl_soft_array *a = array_of(pw, s->p);
	unsigned k = rcl_soft_array_data_strips(a), idx[RCL_SOFT_ARRAY_MAX], n = 0;
	uint8_t *old[RCL_SOFT_ARRAY_MAX], *new[RCL_SOFT_ARRAY_MAX];
	bool p_ok = !(s->p->lost >> k & 1), q_ok = a->parity == 2 && !(s->p->lost >> (k + 1) & 1);

	for (unsigned d = 0; d < k; d++)
		if (s->touched >> d & 1) {
			idx[n] = d;
			old[n] = s->old[d];
			new[n++] = new_data(s, d);
		}
	rcl_soft_parity_update(n, idx, s->len, old, new, p_ok ? s->old[k] : NULL,
	                       p_ok ? s->par[0] : NULL, q_ok ? s->old[k + 1] : NULL,
	                       q_ok ? s->par[1] : NULL);
}

static void compute_rcw(const struct pwin *pw, struct pseg *s)
{
	const struct rcl_soft_array *a = array_of(pw, s->p);
	unsigned k = rcl_soft_array_data_strips(a);
	uint8_t *strips[RCL_SOFT_ARRAY_MAX];

	for (unsigned d = 0; d < k; d++)
		strips[d] = s->touched >> d & 1 ? new_data(s, d) : s->old[d];
	for (unsigned q = 0; q < a->parity; q++)
		strips[k + q] = s->par[q];
	rcl_soft_parity_gen(k, a->parity, s->len, strips);
}

static void compute(const struct pwin *pw, struct pseg *s)
{
	const struct rcl_soft_array *a = array_of(pw, s->p);

	switch (s->how) {
	case DATA_ONLY:
		break;
	case RMW:
		compute_rmw(pw, s);
		break;
	case RECONSTRUCT:
		rcl_soft_parity_recover(rcl_soft_array_data_strips(a), a->parity, s->len, s->old,
		                        s->p->lost);
		/* fall through */
	case RCW:
		compute_rcw(pw, s);
		break;
	}
}

static void add_writes(struct pwin *pw)
{
	for (size_t i = 0; i < pw->nsegs; i++) {
		struct pseg *s = &pw->segs[i];
		const struct rcl_soft_array *a = array_of(pw, s->p);
		unsigned k = rcl_soft_array_data_strips(a);

		for (unsigned d = 0; d < k; d++)
			if ((s->touched & ~s->p->lost) >> d & 1)
				add_op(pw, pw->write_kind, s->p, d, new_data(s, d), s->r0, s->len);
		for (unsigned q = 0; s->how != DATA_ONLY && q < a->parity; q++)
			if (!(s->p->lost >> (k + q) & 1))
				add_op(pw, pw->write_kind, s->p, k + q, s->par[q], s->r0, s->len);
	}
}

/*
 * One try at the whole window. Return: 0, 1 to try again (a member failed),
 * or a negative errno.
 */
static int write_once(struct pwin *pw)
{
	int rc = 0;

	for (size_t i = 0; i < pw->nstripes; i++)
		mark_lost(pw, &pw->stripes[i]);
	for (size_t i = 0; i < pw->nsegs && !rc; i++)
		rc = choose(pw, &pw->segs[i]);
	if (!rc)
		rc = take_scratch(pw);
	if (rc)
		return rc;
	pw->nops = 0;
	add_reads(pw, true);
	rc = rcl_soft_vol_run(pw->vol, pw->ops, pw->nops);
	if (rc)
		return rc;
	for (size_t i = 0; i < pw->nsegs; i++)
		compute(pw, &pw->segs[i]);
	pw->nops = 0;
	add_writes(pw);
	rc = rcl_soft_vol_run(pw->vol, pw->ops, pw->nops);
	/* Some writes may have landed, and the parity may not match them: a resync is owed. */
	for (size_t i = 0; rc < 0 && i < pw->nstripes; i++) {
		const struct pstripe *p = &pw->stripes[i];
		uint64_t chunk = array_of(pw, p)->chunk, first = p->stripe * chunk;

		rcl_soft_vol_bitmap_keep(pw->vol, p->array, first, first + chunk);
	}
	return rc;
}

/* Hold (or, @on false, let go of) the write-intent bits of @pw's first @count stripes. */
static int mark_stripes(struct pwin *pw, size_t count, bool on)
{
	int rc = 0;

	for (size_t i = 0; i < count && !rc; i++) {
		const struct pstripe *p = &pw->stripes[i];
		uint64_t chunk = array_of(pw, p)->chunk, first = p->stripe * chunk;

		if (!on)
			rcl_soft_vol_bitmap_unmark(pw->vol, p->array, first, first + chunk);
		else if ((rc = rcl_soft_vol_bitmap_mark(pw->vol, p->array, first, first + chunk)))
			mark_stripes(pw, i, false);
	}
	return rc;
}

int rcl_soft_vol_parity_write_stripes(struct rcl_soft_volume *vol, struct pstripe *stripes,
                                      size_t n, enum rcl_soft_op_kind kind)
{
	struct pwin pw = {.vol = vol, .write_kind = kind, .stripes = stripes, .nstripes = n};
	size_t segs = 0;
	int rc = -ENOMEM;
	bool marked;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		segs += cut_stripe(&stripes[i], NULL);
	pw.segs = rcl_malloc(segs * sizeof(*pw.segs));
	pw.ops = rcl_malloc(segs * RCL_SOFT_ARRAY_MAX * sizeof(*pw.ops));
	if (!pw.segs || !pw.ops)
		goto out;
	for (size_t i = 0; i < n; i++)
		pw.nsegs += cut_stripe(&stripes[i], &pw.segs[pw.nsegs]);
	rc = mark_stripes(&pw, n, true);
	marked = !rc;
	/* Each failure takes a member out of use or ends the write, so this ends. */
	while (!rc && (rc = write_once(&pw)) == 1) {
		drop_scratch(&pw);
		rc = 0;
	}
	drop_scratch(&pw);
	if (marked)
		mark_stripes(&pw, n, false);
out:
	rcl_free(pw.ops);
	rcl_free(pw.segs);
	return rc;
}

/* ---- both ---- */

/* Room for the window's stripes, segments and ops; then serve it. */
static int serve(struct pwin *pw)
{
	size_t segs = 0;
	int rc = -ENOMEM;

	pw->stripes = rcl_malloc((pw->w->len / pw->vol->geo.chunk + 2) * sizeof(*pw->stripes));
	if (!pw->stripes)
		return rc;
	gather(pw);
	if (pw->w->write) {
		rc = rcl_soft_vol_parity_write_window(pw);
		rcl_free(pw->stripes);
		return rc;
	}
	segs = pw->nstripes;
	/* A segment reads each role once, and so does a direct read of a stripe. */
	pw->segs = rcl_malloc(segs * sizeof(*pw->segs));
	pw->ops = rcl_malloc(segs * RCL_SOFT_ARRAY_MAX * sizeof(*pw->ops));
	if (pw->segs && pw->ops)
		rc = read_window(pw);
	rcl_free(pw->ops);
	rcl_free(pw->segs);
	rcl_free(pw->stripes);
	return rc;
}

int rcl_soft_vol_parity_io(struct rcl_soft_volume *vol, const struct vol_window *w)
{
	struct pwin pw = {.vol = vol, .w = w};
	struct vol_window bounce = *w;
	void *block = NULL;
	int rc;

	/*
	 * ISA-L wants aligned data: copy a misaligned caller's into scratch,
	 * which goes when this returns, so no hold may outlive it.
	 */
	if (w->write && (uintptr_t)w->buf % RCL_SOFT_PARITY_ALIGN) {
		bounce.buf = rcl_soft_vol_scratch(w->len, &block);
		if (!bounce.buf)
			return -ENOMEM;
		memcpy(bounce.buf, w->buf, w->len);
		bounce.ending = NULL;
		pw.w = &bounce;
	}
	rc = serve(&pw);
	rcl_free(block);
	return rc;
}
