// SPDX-License-Identifier: MIT
/*
 * rebuild.c - a member's data rebuilt from the others (see sweep.h): its
 * strips, data, P or Q alike, reconstructed from the rest of their stripes
 * (RAID5/6/50/60), or its chunks copied from their other copy (RAID1/10).
 *
 * A batch holds the locks of the stripes or chunks it rebuilds until the
 * member is marked valid over them. A request to them waits, or came
 * first: a write then skipped the member (it was not yet valid there) and
 * the rebuild reads what it wrote; after the batch, requests use the
 * member there.
 */
#include <errno.h>

#include "soft/engine/parity.h"
#include "sweep-private.h"

/* The member being rebuilt can still be written: open, not failed, rebuilding. */
static bool target_ok(const struct rcl_soft_volume *vol, unsigned member)
{
	const struct vol_member *m = &vol->members[member];

	return m->fd >= 0 && !atomic_load(&m->failed) && m->state == RCL_SOFT_MEMBER_REBUILD;
}

/*
 * Whether a batch may rebuild @member from @from on: it is rebuilding and
 * holds data up to there. Checked for every batch, as an update between
 * batches may have given the member's role another drive.
 */
static bool may_start(const struct rcl_soft_volume *vol, unsigned member, uint64_t from)
{
	return vol->members[member].state == RCL_SOFT_MEMBER_REBUILD &&
	       from <= rcl_soft_sweep_rebuilt(vol, member);
}

/* @member holds data below drive byte @end (the caller holds what it rebuilt locked). */
static void mark_valid(struct rcl_soft_volume *vol, unsigned member, uint64_t end)
{
	struct vol_member *m = &vol->members[member];

	if (m->valid_below < end)
		m->valid_below = end;
}

static unsigned popcount(uint64_t x)
{
	return (unsigned)__builtin_popcountll(x);
}

/* ---- RAID5/6/50/60 ---- */

/**
 * struct strips - a batch of stripes of array @a being rebuilt.
 * @lost:	per stripe, the roles to reconstruct (the member's and any
 *		other not usable now).
 * @role:	per stripe, the member's role.
 */
struct strips {
	struct rcl_soft_volume *vol;
	const struct rcl_soft_array *a;
	unsigned member;
	uint64_t s0, count;
	uint8_t *buf;
	uint64_t *lost;
	unsigned *role;
	struct rcl_soft_op *ops;
};

/*
 * Read what is usable of each stripe. Return: 0, 1 when a read failed (its
 * member is failed), -EIO, or the errno of a source kept in use.
 */
static int read_strips(struct strips *st)
{
	const struct rcl_soft_array *a = st->a;
	size_t n = 0;
	int rc;

	for (uint64_t i = 0; i < st->count; i++) {
		uint64_t s = st->s0 + i, at = rcl_soft_array_strip_at(a, s);

		st->lost[i] = 0;
		for (unsigned r = 0; r < a->n; r++) {
			unsigned m = a->first + rcl_soft_array_role(a, s, r);

			if (m == st->member)
				st->role[i] = r;
			if (m == st->member || !rcl_soft_vol_usable(st->vol, m, at + a->chunk))
				st->lost[i] |= 1ull << r;
			else
				rcl_soft_vol_op(st->vol, st->ops, n++, RCL_SOFT_OP_READ, m,
				                rcl_soft_sweep_strip(st->buf, a, i, r), a->chunk,
				                at);
		}
		if (popcount(st->lost[i]) > a->parity)
			return -EIO;
	}
	rc = rcl_soft_vol_run(st->vol, st->ops, n);
	return rc > 0 ? 1 : rc;
}

/*
 * Reconstruct the member's strips and write them. Return: 0, or -EIO when
 * it failed, or the errno of a host-side error (the target kept).
 */
static int write_strips(struct strips *st)
{
	const struct rcl_soft_array *a = st->a;
	int rc;
	unsigned k = rcl_soft_array_data_strips(a);

	for (uint64_t i = 0; i < st->count; i++) {
		uint8_t *strips[RCL_SOFT_ARRAY_MAX];

		for (unsigned r = 0; r < a->n; r++)
			strips[r] = rcl_soft_sweep_strip(st->buf, a, i, r);
		rcl_soft_parity_recover(k, a->parity, a->chunk, strips, st->lost[i]);
		rcl_soft_vol_op(st->vol, st->ops, i, RCL_SOFT_OP_WRITE, st->member,
		                strips[st->role[i]], a->chunk,
		                rcl_soft_array_strip_at(a, st->s0 + i));
	}
	rc = rcl_soft_vol_run(st->vol, st->ops, st->count);
	return rc > 0 ? -EIO : rc;
}

static int rebuild_strips(struct strips *st)
{
	int rc;

	/* A source failing is taken out of use, so this ends. */
	do
		rc = target_ok(st->vol, st->member) ? read_strips(st) : -EIO;
	while (rc == 1);
	return rc ? rc : write_strips(st);
}

static int parity_batch(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, void *arg)
{
	unsigned member = *(const unsigned *)arg;
	const struct rcl_soft_array *a = &vol->geo.arrays[member / vol->geo.arrays[0].n];
	struct strips st = {.vol = vol, .a = a, .member = member, .s0 = from / a->chunk};
	struct rcl_soft_lockset set = {{0}};
	void *block;
	int rc = -ENOMEM;

	if (!may_start(vol, member, from))
		return -EINVAL;
	st.count = to / a->chunk - st.s0;
	st.buf = rcl_soft_vol_scratch(st.count * a->n * a->chunk, &block);
	st.lost = rcl_malloc(st.count * sizeof(*st.lost));
	st.role = rcl_malloc(st.count * sizeof(*st.role));
	st.ops = rcl_malloc(st.count * a->n * sizeof(*st.ops));
	if (st.buf && st.lost && st.role && st.ops) {
		for (uint64_t s = st.s0; s < st.s0 + st.count; s++)
			rcl_soft_lockset_add(&set, (unsigned)(a - vol->geo.arrays), s);
		rcl_soft_lockset_lock(&vol->stripes, &set);
		rc = rebuild_strips(&st);
		if (!rc)
			mark_valid(vol, member, rcl_soft_array_strip_at(a, st.s0 + st.count));
		rcl_soft_lockset_unlock(&vol->stripes, &set);
	}
	rcl_free(st.ops);
	rcl_free(st.role);
	rcl_free(st.lost);
	rcl_free(block);
	return rc;
}

/* ---- RAID1/10 ---- */

/**
 * struct copies - a batch of the member's rows being rebuilt, one chunk
 * each (RAID1: its unit), copied through @buf.
 * @chunk:	per row, the VD chunk it holds (RAID10 near=2: the member's
 *		device slot in the row, halved), or UINT64_MAX for the slot
 *		past the end that an odd member count leaves.
 */
struct copies {
	struct rcl_soft_volume *vol;
	const struct rcl_soft_array *a;
	unsigned member;
	uint64_t from, to, count;
	uint64_t *chunk;
	uint8_t *buf;
	struct rcl_soft_op *ops;
};

static size_t row_len(const struct copies *cp, uint64_t i)
{
	uint64_t at = cp->from + i * cp->a->chunk;

	return cp->to - at < cp->a->chunk ? cp->to - at : cp->a->chunk;
}

/*
 * Read each row's chunk from a copy on another usable member, or (@write)
 * write it to the member. Return: 0, 1 when a read failed (its member is
 * failed), -EIO, or the errno of a member kept in use.
 */
static int copy_rows(struct copies *cp, bool write)
{
	const struct rcl_soft_array *a = cp->a;
	size_t n = 0;
	int rc;

	for (uint64_t i = 0; i < cp->count; i++) {
		struct rcl_soft_copies c;
		size_t len = row_len(cp, i);
		uint64_t run;
		unsigned j;

		if (cp->chunk[i] == UINT64_MAX)
			continue;
		rcl_soft_array_copies(a, cp->chunk[i] * a->chunk, &c, &run);
		for (j = 0; j < c.count; j++) {
			unsigned m = a->first + c.member[j];

			if (write
			        ? m == cp->member
			        : m != cp->member && rcl_soft_vol_usable(cp->vol, m, c.at[j] + len))
				break;
		}
		if (j == c.count)
			return -EIO;
		rcl_soft_vol_op(cp->vol, cp->ops, n++, write ? RCL_SOFT_OP_WRITE : RCL_SOFT_OP_READ,
		                a->first + c.member[j], cp->buf + i * a->chunk, len, c.at[j]);
	}
	rc = rcl_soft_vol_run(cp->vol, cp->ops, n);
	if (rc > 0)
		return write ? -EIO : 1;
	return rc;
}

static int rebuild_copies(struct copies *cp)
{
	int rc;

	do
		rc = target_ok(cp->vol, cp->member) ? copy_rows(cp, false) : -EIO;
	while (rc == 1);
	return rc ? rc : copy_rows(cp, true);
}

/* The VD chunk that row @row of array member @index holds, or UINT64_MAX. */
static uint64_t chunk_in_row(const struct rcl_soft_volume *vol, unsigned index, uint64_t row)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[0];
	uint64_t chunk = a->level == RCL_MD_LEVEL_RAID10 ? (row * a->n + index) / 2 : row;

	return chunk * a->chunk < vol->geo.bytes ? chunk : UINT64_MAX;
}

static int mirror_batch(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, void *arg)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[0];
	struct copies cp = {.vol = vol, .a = a, .member = *(const unsigned *)arg};
	struct rcl_soft_lockset set = {{0}};
	int rc = -ENOMEM;

	if (!may_start(vol, cp.member, from))
		return -EINVAL;
	cp.from = from;
	cp.to = to;
	cp.count = (to - from + a->chunk - 1) / a->chunk;
	cp.chunk = rcl_malloc(cp.count * sizeof(*cp.chunk));
	cp.buf = rcl_malloc(cp.count * a->chunk);
	cp.ops = rcl_malloc(cp.count * sizeof(*cp.ops));
	if (cp.chunk && cp.buf && cp.ops) {
		for (uint64_t i = 0; i < cp.count; i++) {
			cp.chunk[i] = chunk_in_row(vol, cp.member - a->first, from / a->chunk + i);
			if (cp.chunk[i] != UINT64_MAX)
				rcl_soft_lockset_add(&set, 0, cp.chunk[i]);
		}
		rcl_soft_lockset_lock(&vol->stripes, &set);
		rc = rebuild_copies(&cp);
		if (!rc)
			mark_valid(vol, cp.member, a->start + to);
		rcl_soft_lockset_unlock(&vol->stripes, &set);
	}
	rcl_free(cp.ops);
	rcl_free(cp.buf);
	rcl_free(cp.chunk);
	return rc;
}

int rcl_soft_rebuild_range(struct rcl_soft_volume *vol, unsigned member, uint64_t from, uint64_t to)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[0];

	if (a->level == RCL_MD_LEVEL_RAID0)
		return -EOPNOTSUPP;
	if (member >= vol->member_count)
		return -EINVAL;
	return rcl_soft_sweep_run(vol, from, to, a->parity ? parity_batch : mirror_batch, &member);
}
