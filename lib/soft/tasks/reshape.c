// SPDX-License-Identifier: MIT
/*
 * reshape.c - level migration and capacity expansion of one md array by
 * copying it row by row into a new geometry, crash-safe through
 * checkpoints and a backup area (see reshape.h).
 *
 * Units: "rows" are rows of the new array (one @to.chunk on every
 * member); old data is addressed by its byte in the old array's data.
 * Old row j (the @to.chunk at @from.start + j * chunk of each old member)
 * holds old data below (j + 1) * k_old chunks, k_old being the old data
 * strips per stripe (RAID1: 1, its data is linear on every member).
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "soft/engine/parity.h"
#include "reshape.h"
#include "soft/engine/uring.h"
#include "soft/engine/volume-private.h"

/* A step that needs no backup copies about this much data. */
#define STEP_BYTES (4u << 20)

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Data strips per old row. */
static unsigned old_k(const struct rcl_soft_array *from)
{
	switch (from->level) {
	case RCL_MD_LEVEL_RAID1:
		return 1;
	case RCL_MD_LEVEL_RAID0:
		return from->n;
	default:
		return rcl_soft_array_data_strips(from);
	}
}

/* The old data new rows below @s hold: complete once they are written. */
static uint64_t copied(const struct rcl_soft_reshape *r, uint64_t s)
{
	return min64(r->data_bytes, s * rcl_soft_array_stripe_bytes(&r->to));
}

/*
 * The old data that writing new rows [@s, @s + @m) in place may destroy:
 * everything below the end of the last old row those drive bytes touch.
 */
static uint64_t at_risk(const struct rcl_soft_reshape *r, uint64_t s, uint64_t m)
{
	uint64_t chunk = r->to.chunk, end = r->to.start + (s + m) * chunk, rows;

	if (end <= r->from.start)
		return 0;
	rows = (end - r->from.start + chunk - 1) / chunk;
	return min64(r->data_bytes, rows * old_k(&r->from) * chunk);
}

/* How many rows from @s may go straight in place (0: none). */
static uint64_t direct_rows(const struct rcl_soft_reshape *r, uint64_t s)
{
	uint64_t stripe = rcl_soft_array_stripe_bytes(&r->to);
	uint64_t m = min64(r->rows - s, STEP_BYTES > stripe ? STEP_BYTES / stripe : 1);

	while (m && at_risk(r, s, m) > copied(r, s))
		m--;
	return m;
}

/*
 * How many rows from @s go through the backup: all it holds, as long as
 * the old data they destroy is in them or below (0: impossible).
 */
static uint64_t backup_rows(const struct rcl_soft_reshape *r, uint64_t s)
{
	uint64_t m = min64(r->rows - s, r->backup_rows);

	return m && at_risk(r, s, m) <= copied(r, s + m) ? m : 0;
}

static enum rcl_status check_arrays(const struct rcl_soft_reshape *r, struct rcl_error *err)
{
	const struct rcl_soft_array *from = &r->from, *to = &r->to;

	if (from->level != RCL_MD_LEVEL_RAID0 && from->level != RCL_MD_LEVEL_RAID1 &&
	    from->level != RCL_MD_LEVEL_RAID5 && from->level != RCL_MD_LEVEL_RAID6)
		return rcl_fail(err, RCL_INVALID_PARAM, "md level %d cannot be migrated",
		                from->level);
	if (to->level != RCL_MD_LEVEL_RAID0 && to->level != RCL_MD_LEVEL_RAID5 &&
	    to->level != RCL_MD_LEVEL_RAID6)
		return rcl_fail(err, RCL_INVALID_PARAM, "migration to md level %d is not supported",
		                to->level);
	if (to->n > RCL_SOFT_ARRAY_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM, "%u members are too many for an md array",
		                to->n);
	if (from->level != RCL_MD_LEVEL_RAID1 && from->chunk != to->chunk)
		return rcl_fail(err, RCL_INVALID_PARAM, "a migration keeps the strip size");
	if (rcl_soft_array_data_strips(to) < old_k(from))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "the new layout has fewer data drives (%u) than the old (%u): "
		                "add drives",
		                rcl_soft_array_data_strips(to), old_k(from));
	if (r->data_bytes > r->rows * rcl_soft_array_stripe_bytes(to))
		return rcl_fail(err, RCL_INVALID_PARAM, "the data does not fit the new layout");
	return RCL_OK;
}

static enum rcl_status check_backup(const struct rcl_soft_reshape *r, struct rcl_error *err)
{
	uint64_t end = r->backup_at + r->backup_rows * r->to.chunk;
	uint64_t data_first = min64(r->from.start, r->to.start);
	uint64_t data_end = r->from.start + r->from.member_bytes;

	if (r->to.start + r->to.member_bytes > data_end)
		data_end = r->to.start + r->to.member_bytes;
	if (r->backup_rows && end > data_first && r->backup_at < data_end)
		return rcl_fail(err, RCL_INVALID_PARAM, "the backup area overlaps the data");
	/* Once a row can go in place, every later one can (k_new >= k_old). */
	for (uint64_t s = 0; s < r->rows && !direct_rows(r, s);) {
		uint64_t m = backup_rows(r, s);

		if (!m)
			return rcl_fail(
			    err, RCL_INVALID_PARAM,
			    "a backup area of %llu rows is too small for this migration",
			    (unsigned long long)r->backup_rows);
		s += m;
	}
	return RCL_OK;
}

enum rcl_status rcl_soft_reshape_plan(struct rcl_soft_reshape *r, struct rcl_error *err)
{
	enum rcl_status st;

	r->rows = r->to.member_bytes / r->to.chunk;
	r->data_bytes = r->from.level == RCL_MD_LEVEL_RAID1 ? r->from.member_bytes
	                                                    : r->from.member_bytes / r->from.chunk *
	                                                          r->from.chunk * old_k(&r->from);
	st = check_arrays(r, err);
	return st ? st : check_backup(r, err);
}

bool rcl_soft_reshape_survives(const struct rcl_soft_reshape *r)
{
	unsigned lost_old = 0, lost_new = 0;

	for (unsigned i = 0; i < r->to.n || i < r->from.n; i++) {
		lost_old += i < r->from.n && r->fd[i] < 0;
		lost_new += i < r->to.n && r->fd[i] < 0;
	}
	if (r->from.level == RCL_MD_LEVEL_RAID1 ? lost_old == r->from.n : lost_old > r->from.parity)
		return false;
	return lost_new <= r->to.parity;
}

void rcl_soft_reshape_headroom(struct rcl_soft_reshape *r, uint64_t meta_end)
{
	uint64_t data = min64(r->from.start, r->to.start);

	r->backup_rows = data > meta_end ? (data - meta_end) / r->to.chunk : 0;
	r->backup_rows = min64(r->backup_rows, RCL_SOFT_RESHAPE_BACKUP_MAX);
	r->backup_at = data - r->backup_rows * r->to.chunk;
}

/* ---- I/O ---- */

/*
 * One step's rows in memory: row i's strip for new member j at
 * (i * n + j) * chunk; the old rows they take their data from, old row
 * @old_first + i's strip of role r (RAID0: member r; RAID1: its data) at
 * (i * old n + r) * chunk of @old; and the ops to move them.
 */
struct rows {
	uint64_t first;
	uint64_t count;
	uint8_t *buf;
	void *block;
	uint64_t old_first;
	uint64_t old_count;
	uint8_t *old;
	void *old_block;
	struct rcl_soft_op *ops;
	size_t nops;
};

static uint8_t *strip(const struct rcl_soft_reshape *r, const struct rows *w, uint64_t i,
                      unsigned member)
{
	return w->buf + (i * r->to.n + member) * r->to.chunk;
}

static uint8_t *old_strip(const struct rcl_soft_reshape *r, const struct rows *w, uint64_t row,
                          unsigned role)
{
	return w->old + ((row - w->old_first) * r->from.n + role) * r->to.chunk;
}

/* Queue an op on @member; none on a lost member (its data is recovered, or not written). */
static void add_op(const struct rcl_soft_reshape *r, struct rows *w, enum rcl_soft_op_kind kind,
                   unsigned member, void *buf, size_t len, uint64_t off)
{
	if (r->fd[member] < 0)
		return;
	w->ops[w->nops++] = (struct rcl_soft_op){.kind = kind,
	                                         .fd = r->fd[member],
	                                         .member = member,
	                                         .buf = buf,
	                                         .len = len,
	                                         .off = off};
}

/* Run the queued ops; every member an op failed on is reported to @r->failed. */
static int run(const struct rcl_soft_reshape *r, struct rows *w)
{
	size_t failed = rcl_soft_uring_run(w->ops, w->nops);
	int e = 0;

	for (size_t i = 0; failed && i < w->nops; i++)
		if (w->ops[i].error) {
			e = -w->ops[i].error;
			if (r->failed)
				r->failed(r->failed_ctx, w->ops[i].member, w->ops[i].error);
		}
	w->nops = 0;
	return e;
}

/* The old data chunks new rows [@first, @first + @count) hold, as old rows. */
static void old_range(const struct rcl_soft_reshape *r, struct rows *w)
{
	uint64_t k = rcl_soft_array_data_strips(&r->to), chunks = r->data_bytes / r->to.chunk;
	uint64_t c0 = w->first * k, c1 = min64((w->first + w->count) * k, chunks);

	if (r->data_bytes % r->to.chunk)
		c1 = min64((w->first + w->count) * k, chunks + 1);
	w->old_first = c0 / old_k(&r->from);
	w->old_count = c1 > c0 ? (c1 - 1) / old_k(&r->from) + 1 - w->old_first : 0;
}

static int rows_alloc(const struct rcl_soft_reshape *r, struct rows *w, uint64_t first,
                      uint64_t count)
{
	size_t strips = (size_t)count * r->to.n, old;

	*w = (struct rows){.first = first, .count = count};
	old_range(r, w);
	old = (size_t)w->old_count * r->from.n;
	w->buf = rcl_soft_vol_scratch(strips * r->to.chunk, &w->block);
	w->old = rcl_soft_vol_scratch((old ? old : 1) * r->to.chunk, &w->old_block);
	w->ops = rcl_malloc((strips + old + r->to.n) * sizeof(*w->ops));
	return w->buf && w->old && w->ops ? 0 : -ENOMEM;
}

static void rows_free(struct rows *w)
{
	rcl_free(w->block);
	rcl_free(w->old_block);
	rcl_free(w->ops);
}

/* The member of @a holding role @role of row @row (RAID0: data strip @role on member @role). */
static unsigned member_of(const struct rcl_soft_array *a, uint64_t row, unsigned role)
{
	return a->parity ? rcl_soft_array_role(a, row, role) : role;
}

/* The roles of old row @row on lost members. */
static uint64_t old_lost(const struct rcl_soft_reshape *r, uint64_t row)
{
	uint64_t lost = 0;

	for (unsigned role = 0; role < r->from.n; role++)
		if (r->fd[member_of(&r->from, row, role)] < 0)
			lost |= 1ull << role;
	return lost;
}

/*
 * Queue the reads of old row @row: its data strips, and when one is on a
 * lost member the parity too (RAID1: its data from a member not lost).
 * Return: 0, or -EIO when the members not lost cannot give its data.
 */
static int read_old_row(const struct rcl_soft_reshape *r, struct rows *w, uint64_t row)
{
	const struct rcl_soft_array *from = &r->from;
	uint64_t chunk = r->to.chunk, lost = old_lost(r, row);
	unsigned k = old_k(from), m = 0;

	if (from->level == RCL_MD_LEVEL_RAID1) {
		while (m < from->n && r->fd[m] < 0)
			m++;
		if (m == from->n)
			return -EIO;
		add_op(r, w, RCL_SOFT_OP_READ, m, old_strip(r, w, row, 0),
		       min64(chunk, r->data_bytes - row * chunk), from->start + row * chunk);
		return 0;
	}
	if ((unsigned)__builtin_popcountll(lost) > from->parity)
		return -EIO;
	for (unsigned role = 0; role < (lost & ((1ull << k) - 1) ? from->n : k); role++)
		add_op(r, w, RCL_SOFT_OP_READ, member_of(from, row, role),
		       old_strip(r, w, row, role), chunk,
		       from->parity ? rcl_soft_array_strip_at(from, row)
		                    : from->start + row * chunk);
	return 0;
}

/* Read the old rows @w needs, their lost strips recovered from the others. */
static int read_old(const struct rcl_soft_reshape *r, struct rows *w)
{
	uint8_t *strips[RCL_SOFT_ARRAY_MAX];
	int e = 0;

	for (uint64_t j = 0; j < w->old_count && !e; j++)
		e = read_old_row(r, w, w->old_first + j);
	if (!e)
		e = run(r, w);
	for (uint64_t j = 0; j < w->old_count && !e && r->from.parity; j++) {
		uint64_t row = w->old_first + j, lost = old_lost(r, row);

		for (unsigned role = 0; role < r->from.n; role++)
			strips[role] = old_strip(r, w, row, role);
		if (lost & ((1ull << old_k(&r->from)) - 1))
			e = rcl_soft_parity_recover(old_k(&r->from), r->from.parity, r->to.chunk,
			                            strips, lost);
	}
	return e;
}

/* Fill @w's rows of the new layout from the old one. */
static int build(const struct rcl_soft_reshape *r, struct rows *w)
{
	const struct rcl_soft_array *to = &r->to;
	unsigned k = rcl_soft_array_data_strips(to), kold = old_k(&r->from);
	uint8_t *strips[RCL_SOFT_ARRAY_MAX];
	int e = read_old(r, w);

	for (uint64_t i = 0; i < w->count && !e; i++) {
		for (unsigned d = 0; d < k; d++) {
			uint64_t c = (w->first + i) * k + d, x = c * to->chunk;
			uint8_t *dst = strip(r, w, i, member_of(to, w->first + i, d));
			size_t len = x < r->data_bytes ? min64(to->chunk, r->data_bytes - x) : 0;

			if (len)
				memcpy(dst, old_strip(r, w, c / kold, (unsigned)(c % kold)), len);
			memset(dst + len, 0, to->chunk - len);
		}
		for (unsigned role = 0; role < to->n; role++)
			strips[role] = strip(r, w, i, member_of(to, w->first + i, role));
		if (to->parity)
			rcl_soft_parity_gen(k, to->parity, to->chunk, strips);
	}
	return e;
}

/*
 * Write @w's rows in place (@backup false) or to the backup area, synced;
 * or read them back from it (@kind READ). The syncs are a batch of their
 * own: a batch's ops run in any order, and a sync that ran before its
 * writes would let the checkpoint that follows name rows a power cut
 * loses.
 */
static int store(const struct rcl_soft_reshape *r, struct rows *w, bool backup,
                 enum rcl_soft_op_kind kind)
{
	int e;

	for (uint64_t i = 0; i < w->count; i++)
		for (unsigned m = 0; m < r->to.n; m++)
			add_op(r, w, kind, m, strip(r, w, i, m), r->to.chunk,
			       backup ? r->backup_at + i * r->to.chunk
			              : rcl_soft_array_strip_at(&r->to, w->first + i));
	e = run(r, w);
	if (e || kind != RCL_SOFT_OP_WRITE)
		return e;
	for (unsigned m = 0; m < r->to.n; m++)
		add_op(r, w, RCL_SOFT_OP_DATASYNC, m, NULL, 0, 0);
	return run(r, w);
}

/* Checkpoint {@position, @backup}: *@mark only once it is durable, so it is always the last one. */
static int save(const struct rcl_soft_reshape *r, struct rcl_soft_reshape_mark *mark,
                uint64_t position, uint64_t backup)
{
	struct rcl_soft_reshape_mark next = {.position = position, .backup_rows = backup};
	int e = r->save(r->ctx, &next);

	if (!e)
		*mark = next;
	return e;
}

/* The strips of @w's rows on lost members, recovered from the others. */
static int recover_new(const struct rcl_soft_reshape *r, struct rows *w)
{
	const struct rcl_soft_array *to = &r->to;
	uint8_t *strips[RCL_SOFT_ARRAY_MAX];
	int e = 0;

	for (uint64_t i = 0; i < w->count && !e; i++) {
		uint64_t lost = 0;

		for (unsigned role = 0; role < to->n; role++) {
			unsigned m = member_of(to, w->first + i, role);

			strips[role] = strip(r, w, i, m);
			lost |= (uint64_t)(r->fd[m] < 0) << role;
		}
		if (lost)
			e = rcl_soft_parity_recover(rcl_soft_array_data_strips(to), to->parity,
			                            to->chunk, strips, lost);
	}
	return e;
}

/* Rows a crash left in the backup: read them back, write them in place. */
static int restore(const struct rcl_soft_reshape *r, struct rows *w,
                   struct rcl_soft_reshape_mark *mark)
{
	int e = store(r, w, true, RCL_SOFT_OP_READ);

	if (!e)
		e = recover_new(r, w);
	if (!e)
		e = store(r, w, false, RCL_SOFT_OP_WRITE);
	return e ? e : save(r, mark, w->first + w->count, 0);
}

/* The next rows: straight in place when that is safe, else via the backup. */
static int advance(const struct rcl_soft_reshape *r, struct rows *w,
                   struct rcl_soft_reshape_mark *mark, bool direct)
{
	int e = build(r, w);

	if (!e && !direct) {
		e = store(r, w, true, RCL_SOFT_OP_WRITE);
		if (!e)
			e = save(r, mark, w->first, w->count);
	}
	if (!e)
		e = store(r, w, false, RCL_SOFT_OP_WRITE);
	return e ? e : save(r, mark, w->first + w->count, 0);
}

/* The rows the step from @mark covers (0: none can be done), and whether in place. */
static uint64_t step_rows(const struct rcl_soft_reshape *r,
                          const struct rcl_soft_reshape_mark *mark, bool *direct)
{
	uint64_t m;

	*direct = false;
	if (mark->backup_rows || mark->position >= r->rows)
		return mark->backup_rows;
	m = direct_rows(r, mark->position);
	*direct = m != 0;
	return m ? m : backup_rows(r, mark->position);
}

uint64_t rcl_soft_reshape_boundary(const struct rcl_soft_reshape *r,
                                   const struct rcl_soft_reshape_mark *mark)
{
	return copied(r, mark->position);
}

uint64_t rcl_soft_reshape_next(const struct rcl_soft_reshape *r,
                               const struct rcl_soft_reshape_mark *mark)
{
	bool direct;

	return copied(r, mark->position + step_rows(r, mark, &direct));
}

int rcl_soft_reshape_step(const struct rcl_soft_reshape *r, struct rcl_soft_reshape_mark *mark)
{
	bool direct;
	uint64_t m = step_rows(r, mark, &direct);
	struct rows w;
	int e;

	if (mark->position >= r->rows)
		return 0;
	if (!m)
		return -ENOSPC; /* _plan() refuses such a reshape */
	e = rows_alloc(r, &w, mark->position, m);
	if (!e)
		e = mark->backup_rows ? restore(r, &w, mark) : advance(r, &w, mark, direct);
	rows_free(&w);
	if (e)
		return e;
	return mark->position < r->rows;
}
