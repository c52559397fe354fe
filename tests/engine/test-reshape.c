// SPDX-License-Identifier: MIT
/*
 * test-reshape.c - lib/soft/tasks/reshape.c: seeded data written where md puts
 * it in the old geometry (md-ref.c, md's own formulas), migrated (drives
 * added or removed), then every byte read back where md would look for it
 * in the new geometry, with every new stripe's P (and Q) recomputed with
 * md's GF(2^8) arithmetic; and the same after crashes at many points (a fault hook on
 * the member I/O that tears the write it stops at and lets nothing after
 * it through), resumed from the last checkpoint.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "md-ref.h"
#include "soft/config/layout.h"
#include "soft/tasks/reshape.h"
#include "soft/engine/uring.h"
#include "unit.h"

#define KIB       1024ull
#define STRIP_KIB 64
#define PART_LBA  4096
#define PART_LBAS 16384ull /* 8 MiB partitions: about 7 MiB of data per member */
/* A backup area past the partitions, for the refusals. */
#define BACKUP_AT   ((PART_LBA + PART_LBAS) * 512)
#define BACKUP_ROWS 4
#define DRIVE_BYTES (BACKUP_AT + BACKUP_ROWS * STRIP_KIB * KIB)

/* One side of a migration: the group, VD, md geometry and the library's array. */
struct side {
	enum rcl_raid_level level;
	unsigned n;
	struct rcl_soft_dg dg;
	struct rcl_soft_vd vd;
	struct rcl_md_geometry member;
	struct rcl_soft_array array;
	struct mdref_vd ref;
};

/* Where md's metadata of @sd's members ends: superblock, bitmap, bad-block log. */
static uint64_t meta_end(const struct side *sd)
{
	const struct rcl_md_geometry *g = &sd->member;

	return (PART_LBA + g->super_offset + (uint64_t)g->bblog_offset + g->bblog_size) * 512;
}

static void side_make(struct side *sd, enum rcl_raid_level level, unsigned n)
{
	static const int md_level[] = {
	    [RCL_RAID0] = 0, [RCL_RAID1] = 1, [RCL_RAID5] = 5, [RCL_RAID6] = 6};
	struct rcl_soft_geometry geo;
	struct rcl_error err = {0};

	memset(sd, 0, sizeof(*sd));
	sd->level = level;
	sd->n = n;
	sd->dg.level = level;
	sd->dg.spans = 1;
	sd->dg.drives_per_span = n;
	sd->vd.strip_kib = level == RCL_RAID1 ? 0 : STRIP_KIB;
	sd->vd.first_lba = PART_LBA;
	sd->vd.last_lba = PART_LBA + PART_LBAS - 1;
	ck_assert_msg(!rcl_soft_capacity(&sd->dg, sd->vd.strip_kib, PART_LBAS, 512, &sd->member,
	                                 &sd->vd.bytes, &err),
	              "%s", err.msg);
	ck_assert_msg(!rcl_soft_geometry_get(&sd->dg, &sd->vd, 512, &geo, &err), "%s", err.msg);
	sd->array = geo.arrays[0];
	sd->ref = (struct mdref_vd){.part = PART_LBA,
	                            .spans = 1,
	                            .array = {md_level[level], n,
	                                      level == RCL_RAID1 ? 128 : STRIP_KIB * 2,
	                                      sd->member.data_offset}};
}

/* The seeded byte @i of the VD's data. */
static uint8_t seed(uint64_t i)
{
	uint64_t x = (i / 8 + 1) * 0x9e3779b97f4a7c15ull;

	return (uint8_t)(x >> (8 * (i % 8)) ^ x >> 29);
}

/* Write the seeded data where md keeps it in @sd's geometry (every copy). */
static void seed_old(const struct side *sd, const int *fd)
{
	uint8_t *buf = malloc(STRIP_KIB * KIB);
	unsigned copies = sd->level == RCL_RAID1 ? sd->n : 1;

	for (uint64_t off = 0; off < sd->vd.bytes; off += STRIP_KIB * KIB) {
		size_t len = (size_t)(sd->vd.bytes - off < STRIP_KIB * KIB ? sd->vd.bytes - off
		                                                           : STRIP_KIB * KIB);

		for (size_t i = 0; i < len; i++)
			buf[i] = seed(off + i);
		for (unsigned c = 0; c < copies; c++) {
			uint64_t sector;
			unsigned m = mdref_place(&sd->ref, off / 512, c, &sector);

			unit_put(fd[m], buf, len, sector * 512);
		}
	}
	free(buf);
}

/* What byte @i of the VD's data should hold: the seed below @seeded bytes, zeros above. */
static uint8_t expected(uint64_t i, uint64_t seeded)
{
	return i < seeded ? seed(i) : 0;
}

/**
 * struct row - a RAID5/6 row (stripe) as md lays it out.
 * @data:	its data strips, in the VD's order.
 * @p, @q:	its P and Q (RAID6), as md computes them from @data.
 * @pd, @qd:	the members P and Q lie on.
 * @at:		where P and Q lie on those members, in bytes.
 */
struct row {
	uint8_t *data, *p, *q;
	unsigned pd, qd;
	uint64_t at;
};

/* The data strips of a row of @a. */
static unsigned data_strips(const struct mdref_array *a)
{
	return a->n - (a->level == 6 ? 2 : 1);
}

/* @r's buffers, for a row of @sd; row_release() frees them. */
static void row_init(struct row *r, const struct side *sd)
{
	size_t chunk = STRIP_KIB * KIB;

	*r = (struct row){.data = malloc(data_strips(&sd->ref.array) * chunk),
	                  .p = malloc(chunk),
	                  .q = malloc(chunk)};
}

static void row_release(struct row *r)
{
	free(r->data), free(r->p), free(r->q);
}

/*
 * Row @index of RAID5/6 @sd into @r: its data strips read from @fd, but
 * member @lost's (-1: none), never written, taken as what it should hold
 * (expected() of @seeded); its parity computed from them as md does.
 */
static void row_read(const struct side *sd, const int *fd, uint64_t index, int lost,
                     uint64_t seeded, struct row *r)
{
	const struct mdref_array *a = &sd->ref.array;
	unsigned k = data_strips(a);
	size_t chunk = STRIP_KIB * KIB;
	uint64_t base = (PART_LBA + a->data_offset) * 512;

	memset(r->p, 0, chunk);
	memset(r->q, 0, chunk);
	for (unsigned d = 0; d < k; d++) {
		uint64_t off = (index * k + d) * chunk;
		uint8_t *strip = r->data + d * chunk;
		unsigned dd;
		uint64_t at =
		    mdref_raid56(a->level, a->n, a->chunk, off / 512, &dd, &r->pd, &r->qd);
		uint8_t g =
		    a->level == 6 ? mdref_gf_pow2(mdref_raid6_slot(a->n, r->pd, r->qd, dd)) : 0;

		if ((int)dd == lost)
			for (size_t i = 0; i < chunk; i++)
				strip[i] = expected(off + i, seeded);
		else
			unit_get(fd[dd], strip, chunk, base + at * 512);
		for (size_t i = 0; i < chunk; i++) {
			r->p[i] ^= strip[i];
			r->q[i] ^= mdref_gf_mul(g, strip[i]);
		}
	}
	r->at = base + index * chunk;
}

/* The rows of RAID5/6 @sd's data. */
static uint64_t rows(const struct side *sd)
{
	return sd->vd.bytes / (data_strips(&sd->ref.array) * STRIP_KIB * KIB);
}

/*
 * RAID5/6 @sd: every stripe's parity from the seeded data, as md computes
 * it, so that a lost member's strips can be recovered.
 */
static void seed_parity(const struct side *sd, const int *fd)
{
	struct row r;

	row_init(&r, sd);
	for (uint64_t index = 0; index < rows(sd); index++) {
		row_read(sd, fd, index, -1, sd->vd.bytes, &r);
		unit_put(fd[r.pd], r.p, STRIP_KIB * KIB, r.at);
		if (sd->level == RCL_RAID6)
			unit_put(fd[r.qd], r.q, STRIP_KIB * KIB, r.at);
	}
	row_release(&r);
}

/* RAID0 @sd: every data byte where md reads it, the seed below @old_bytes, zeros above. */
static void verify_raid0(const struct side *sd, uint64_t old_bytes, const int *fd)
{
	size_t chunk = STRIP_KIB * KIB;
	uint8_t *got = malloc(chunk);

	for (uint64_t off = 0; off < sd->vd.bytes; off += chunk) {
		uint64_t sector;
		unsigned m = mdref_place(&sd->ref, off / 512, 0, &sector);

		unit_get(fd[m], got, chunk, sector * 512);
		for (size_t i = 0; i < chunk; i++)
			if (got[i] != expected(off + i, old_bytes))
				ck_abort_msg("RAID0: byte %llu is %u, not %u",
				             (unsigned long long)(off + i), got[i],
				             expected(off + i, old_bytes));
	}
	free(got);
}

/*
 * Every data byte where md reads it in the new geometry: the seed below
 * the old capacity, zeros above; every stripe's parity as md computes it.
 * Member @lost (-1: none) was never written: its data strips are taken as
 * what they should hold, so the parity shows they can be recovered.
 */
static void verify_new(const struct side *sd, uint64_t old_bytes, const int *fd, int lost)
{
	size_t chunk = STRIP_KIB * KIB, row_bytes = data_strips(&sd->ref.array) * chunk;
	uint8_t *got = malloc(chunk);
	struct row r;

	if (sd->level == RCL_RAID0) {
		verify_raid0(sd, old_bytes, fd);
		free(got);
		return;
	}
	row_init(&r, sd);
	ck_assert_uint_eq(sd->vd.bytes % row_bytes, 0);
	for (uint64_t index = 0; index < rows(sd); index++) {
		uint64_t off = index * row_bytes;

		row_read(sd, fd, index, lost, old_bytes, &r);
		for (size_t i = 0; i < row_bytes; i++)
			if (r.data[i] != expected(off + i, old_bytes))
				ck_abort_msg("%s: byte %llu is %u, not %u",
				             rcl_raid_level_name(sd->level),
				             (unsigned long long)(off + i), r.data[i],
				             expected(off + i, old_bytes));
		if ((int)r.pd != lost) {
			unit_get(fd[r.pd], got, chunk, r.at);
			ck_assert_msg(!memcmp(got, r.p, chunk), "row %llu: P mismatch",
			              (unsigned long long)index);
		}
		if (sd->level == RCL_RAID6 && (int)r.qd != lost) {
			unit_get(fd[r.qd], got, chunk, r.at);
			ck_assert_msg(!memcmp(got, r.q, chunk), "row %llu: Q mismatch",
			              (unsigned long long)index);
		}
	}
	row_release(&r);
	free(got);
}

/*
 * Online: at a checkpoint, every byte of the data is where a volume would
 * look for it: in the new geometry below the boundary, else in the old.
 */
static void verify_mixed(const struct side *from, const struct side *to, uint64_t boundary,
                         const int *fd)
{
	size_t chunk = STRIP_KIB * KIB;
	uint8_t *got = malloc(chunk);

	for (uint64_t off = 0; off < from->vd.bytes; off += chunk) {
		size_t len = (size_t)(from->vd.bytes - off < chunk ? from->vd.bytes - off : chunk);
		uint64_t sector;
		unsigned m =
		    mdref_place(off < boundary ? &to->ref : &from->ref, off / 512, 0, &sector);

		unit_get(fd[m], got, len, sector * 512);
		for (size_t i = 0; i < len; i++)
			if (got[i] != seed(off + i))
				ck_abort_msg("boundary %llu: byte %llu is %u, not %u",
				             (unsigned long long)boundary,
				             (unsigned long long)(off + i), got[i], seed(off + i));
	}
	free(got);
}

/* The checkpoint "on disk": a copy taken when saved. */
static int save_mark(void *ctx, const struct rcl_soft_reshape_mark *mark)
{
	*(struct rcl_soft_reshape_mark *)ctx = *mark;
	return 0;
}

/*
 * The crash: member I/O number @at (counting from 1) is the last to run,
 * and if it is a write, only its first half reaches the drive, the rest
 * being garbage; nothing after it runs. A fake, as no real drive dies on
 * cue.
 *
 * Runs without a crash check the order of durability instead: a data sync
 * of a drive must find every write to it since its last sync already on
 * it. A sync issued in the same batch as its writes (whose ops run in any
 * order, and are all seen by the hook before any runs) finds them missing,
 * and a power cut could then leave a checkpoint pointing at rows the
 * drives do not hold.
 */
struct crash {
	unsigned long count;
	unsigned long at;
	unsigned long writes; /* writes seen, to know when no crash point is left */
	struct unsynced {
		int fd;
		uint64_t off;
		size_t len;
		uint8_t *bytes; /* as written */
	} * unsynced;
	size_t nunsynced;
	unsigned long syncs, syncs_early;
};

static void keep_unsynced(struct crash *c, const struct rcl_soft_op *op)
{
	struct unsynced *u;

	c->unsynced = realloc(c->unsynced, (c->nunsynced + 1) * sizeof(*c->unsynced));
	u = &c->unsynced[c->nunsynced++];
	*u = (struct unsynced){op->fd, op->off, op->len, malloc(op->len)};
	memcpy(u->bytes, op->buf, op->len);
}

/* A sync of @fd: whether the writes to it since its last one are on it. */
static void check_synced(struct crash *c, int fd)
{
	size_t kept = 0;

	c->syncs++;
	for (size_t i = 0; i < c->nunsynced; i++) {
		struct unsynced *u = &c->unsynced[i];
		uint8_t *now;

		if (u->fd != fd) {
			c->unsynced[kept++] = *u;
			continue;
		}
		now = malloc(u->len);
		unit_get(fd, now, u->len, u->off);
		c->syncs_early += memcmp(now, u->bytes, u->len) != 0;
		free(now);
		free(u->bytes);
	}
	c->nunsynced = kept;
}

static int crash_hook(void *ctx, const struct rcl_soft_op *op)
{
	struct crash *c = ctx;

	c->count++;
	if (op->kind == RCL_SOFT_OP_WRITE)
		c->writes++;
	if (!c->at && op->kind == RCL_SOFT_OP_WRITE)
		keep_unsynced(c, op);
	if (!c->at && op->kind == RCL_SOFT_OP_DATASYNC)
		check_synced(c, op->fd);
	if (!c->at || c->count < c->at)
		return 0;
	if (c->count == c->at && op->kind == RCL_SOFT_OP_WRITE) {
		uint8_t *torn = malloc(op->len);

		memcpy(torn, op->buf, op->len / 2);
		memset(torn + op->len / 2, 0xa5, op->len - op->len / 2);
		unit_put(op->fd, torn, op->len, op->off);
		free(torn);
	}
	return EIO;
}

/*
 * Migrate @from_level over @from_n drives to @to_level over @to_n, member
 * @lost (-1: none) lost before it starts (its fd -1 to the reshape), crashing
 * at member I/O @crash_at (0: never) and resuming from the checkpoint.
 * Return: whether the crash point was reached (the run had that many I/Os).
 */
static bool migrate_lost(enum rcl_raid_level from_level, unsigned from_n,
                         enum rcl_raid_level to_level, unsigned to_n, int lost,
                         unsigned long crash_at)
{
	struct side from, to;
	struct rcl_soft_reshape r = {0};
	struct rcl_soft_reshape_mark disk = {0}, mark;
	struct crash crash = {.at = crash_at};
	struct rcl_error err = {0};
	bool crashed = false;
	int fd[RCL_SOFT_ARRAY_MAX];
	unsigned drives = from_n > to_n ? from_n : to_n;
	int e;

	side_make(&from, from_level, from_n);
	side_make(&to, to_level, to_n);
	for (unsigned i = 0; i < drives; i++) {
		r.fd[i] = unit_drive_new(DRIVE_BYTES);
		/* Added drives held something else before. */
		if (i >= from_n)
			unit_put(r.fd[i], (uint8_t[512]){[0 ... 511] = 0x77}, 512,
			         (PART_LBA + to.member.data_offset) * 512);
	}
	seed_old(&from, r.fd);
	if (lost >= 0 && from_level != RCL_RAID0 && from_level != RCL_RAID1)
		seed_parity(&from, r.fd);
	memcpy(fd, r.fd, sizeof(fd));
	if (lost >= 0)
		r.fd[lost] = -1;
	r.from = from.array;
	r.to = to.array;
	/* The backup goes where md keeps room for a reshape: below the data. */
	rcl_soft_reshape_headroom(&r, meta_end(&from) > meta_end(&to) ? meta_end(&from)
	                                                              : meta_end(&to));
	ck_assert_uint_gt(r.backup_rows, 0);
	r.save = save_mark;
	r.ctx = &disk;
	ck_assert_msg(!rcl_soft_reshape_plan(&r, &err), "%s", err.msg);
	ck_assert_uint_eq(r.data_bytes, from.vd.bytes);
	ck_assert_uint_ge(to.vd.bytes, from.vd.bytes);

	rcl_soft_uring_force_sync(true);
	rcl_soft_uring_set_fault(crash_hook, &crash);
	mark = disk;
	do {
		uint64_t end = rcl_soft_reshape_next(&r, &mark);

		ck_assert_uint_le(rcl_soft_reshape_boundary(&r, &mark), end);
		e = rcl_soft_reshape_step(&r, &mark);
		if (e >= 0 && !crash_at && lost < 0) {
			/* The step moved exactly the range it announced. */
			ck_assert_uint_eq(rcl_soft_reshape_boundary(&r, &mark), end);
			verify_mixed(&from, &to, end, r.fd);
		}
	} while (e > 0);
	if (e < 0) {
		/* Restart: what the checkpoint says, no fault. */
		ck_assert_int_eq(e, -EIO);
		crashed = true;
		crash.at = 0;
		mark = disk;
		while ((e = rcl_soft_reshape_step(&r, &mark)) > 0)
			;
	}
	rcl_soft_uring_set_fault(NULL, NULL);
	rcl_soft_uring_force_sync(false);
	ck_assert_int_eq(e, 0);
	ck_assert_uint_eq(crash.syncs_early, 0);
	ck_assert(crash_at || crash.syncs > 0);
	for (size_t i = 0; i < crash.nunsynced; i++)
		free(crash.unsynced[i].bytes);
	free(crash.unsynced);
	ck_assert_uint_eq(mark.position, r.rows);
	ck_assert_uint_eq(disk.position, r.rows);
	verify_new(&to, from.vd.bytes, fd, lost);
	for (unsigned i = 0; i < drives; i++)
		close(fd[i]);
	return crashed || !crash_at;
}

static bool migrate(enum rcl_raid_level from_level, unsigned from_n, enum rcl_raid_level to_level,
                    unsigned to_n, unsigned long crash_at)
{
	return migrate_lost(from_level, from_n, to_level, to_n, -1, crash_at);
}

START_TEST(test_raid5_add_drives)
{
	ck_assert(migrate(RCL_RAID5, 3, RCL_RAID5, 4, 0));
	ck_assert(migrate(RCL_RAID5, 3, RCL_RAID5, 5, 0));
}
END_TEST

START_TEST(test_raid6_add_drive)
{
	ck_assert(migrate(RCL_RAID6, 4, RCL_RAID6, 5, 0));
}
END_TEST

START_TEST(test_raid5_to_raid6)
{
	ck_assert(migrate(RCL_RAID5, 3, RCL_RAID6, 4, 0));
}
END_TEST

START_TEST(test_raid0_to_raid5)
{
	ck_assert(migrate(RCL_RAID0, 2, RCL_RAID5, 3, 0));
	ck_assert(migrate(RCL_RAID0, 2, RCL_RAID5, 4, 0));
}
END_TEST

START_TEST(test_raid1_to_raid5)
{
	ck_assert(migrate(RCL_RAID1, 2, RCL_RAID5, 3, 0));
}
END_TEST

/* Drives removed (the last members): the data strips per stripe stay, or grow. */
START_TEST(test_remove_drives)
{
	ck_assert(migrate(RCL_RAID6, 5, RCL_RAID5, 4, 0));
	ck_assert(migrate(RCL_RAID5, 4, RCL_RAID0, 3, 0));
	ck_assert(migrate(RCL_RAID6, 5, RCL_RAID0, 3, 0));
	ck_assert(migrate(RCL_RAID6, 5, RCL_RAID0, 4, 0));
}
END_TEST

/*
 * A member lost (failed) before the copy: an old one, whose strips come
 * from the old parity (or the other RAID1 member), or an added one; the
 * new parity then holds its strips. Losing more than either array's
 * parity is refused.
 */
START_TEST(test_degraded)
{
	struct side a, b;
	struct rcl_soft_reshape r = {0};

	ck_assert(migrate_lost(RCL_RAID5, 3, RCL_RAID6, 4, 0, 0));
	ck_assert(migrate_lost(RCL_RAID5, 3, RCL_RAID5, 4, 3, 0));
	ck_assert(migrate_lost(RCL_RAID6, 4, RCL_RAID6, 5, 2, 0));
	ck_assert(migrate_lost(RCL_RAID1, 2, RCL_RAID5, 3, 0, 0));
	/* A removed member lost, then one that stays: the old parity gives their strips. */
	ck_assert(migrate_lost(RCL_RAID6, 5, RCL_RAID5, 4, 4, 0));
	ck_assert(migrate_lost(RCL_RAID6, 5, RCL_RAID5, 4, 1, 0));
	side_make(&a, RCL_RAID0, 2);
	side_make(&b, RCL_RAID5, 3);
	r.from = a.array;
	r.to = b.array;
	r.fd[0] = r.fd[1] = r.fd[2] = 3;
	ck_assert(rcl_soft_reshape_survives(&r));
	r.fd[2] = -1;
	ck_assert(rcl_soft_reshape_survives(&r));
	r.fd[2] = 3;
	r.fd[1] = -1;
	ck_assert(!rcl_soft_reshape_survives(&r));
}
END_TEST

/* Refused: fewer data drives, another level, no backup where one is needed. */
START_TEST(test_refused)
{
	struct side a, b;
	struct rcl_soft_reshape r = {.backup_at = BACKUP_AT, .backup_rows = BACKUP_ROWS};
	struct rcl_error err = {0};

	side_make(&a, RCL_RAID5, 4);
	side_make(&b, RCL_RAID6, 4);
	r.from = a.array, r.to = b.array;
	ck_assert_int_eq(rcl_soft_reshape_plan(&r, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "fewer data drives"));

	side_make(&a, RCL_RAID5, 3);
	side_make(&b, RCL_RAID6, 4);
	r.from = a.array, r.to = b.array, r.backup_rows = 0;
	ck_assert_int_eq(rcl_soft_reshape_plan(&r, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "too small"));

	r.backup_rows = BACKUP_ROWS;
	r.backup_at = a.array.start;
	ck_assert_int_eq(rcl_soft_reshape_plan(&r, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "overlaps"));

	side_make(&b, RCL_RAID1, 4);
	r.to = b.array, r.backup_at = BACKUP_AT;
	ck_assert_int_eq(rcl_soft_reshape_plan(&r, &err), RCL_INVALID_PARAM);

	/* A removal that leaves fewer data strips: the data would not fit. */
	side_make(&a, RCL_RAID5, 4);
	side_make(&b, RCL_RAID5, 3);
	r.from = a.array, r.to = b.array;
	ck_assert_int_eq(rcl_soft_reshape_plan(&r, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "fewer data drives"));
}
END_TEST

/*
 * FAULT_STRIDE=N spaces the crashes N times wider: the sanitizer run's
 * budget (as in tests/fault/test-vd-crash.c). The plain run uses 1.
 */
static unsigned long fault_stride(void)
{
	const char *text = getenv("FAULT_STRIDE");
	unsigned long n = text ? strtoul(text, NULL, 10) : 1;

	return n ? n : 1;
}

/*
 * Crashes: at I/Os spread over each run (every one in the first steps,
 * where the backup is in use, then every few), resumed, and verified.
 */
static void crash_everywhere(enum rcl_raid_level from_level, unsigned from_n,
                             enum rcl_raid_level to_level, unsigned to_n, unsigned long first,
                             unsigned long stride)
{
	unsigned long at = 1, k = fault_stride();

	while (migrate(from_level, from_n, to_level, to_n, at))
		at += (at < first ? 1 : stride) * k;
}

START_TEST(test_crash_raid5_add_drive)
{
	crash_everywhere(RCL_RAID5, 3, RCL_RAID5, 4, 40, 97);
}
END_TEST

START_TEST(test_crash_raid5_to_raid6)
{
	crash_everywhere(RCL_RAID5, 3, RCL_RAID6, 4, 40, 211);
}
END_TEST

START_TEST(test_crash_raid1_to_raid5)
{
	crash_everywhere(RCL_RAID1, 2, RCL_RAID5, 3, 130, 101);
}
END_TEST

START_TEST(test_crash_remove_drive)
{
	crash_everywhere(RCL_RAID6, 5, RCL_RAID5, 4, 40, 997);
}
END_TEST

/* A crash while a member is lost: rows left in the backup are completed from the new parity. */
START_TEST(test_crash_degraded)
{
	unsigned long at = 1;

	while (migrate_lost(RCL_RAID5, 3, RCL_RAID6, 4, 1, at))
		at += (at < 40 ? 1 : 211) * fault_stride();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("reshape");
	TCase *tc = tcase_create("reshape");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_raid5_add_drives);
	tcase_add_test(tc, test_raid6_add_drive);
	tcase_add_test(tc, test_raid5_to_raid6);
	tcase_add_test(tc, test_raid0_to_raid5);
	tcase_add_test(tc, test_raid1_to_raid5);
	tcase_add_test(tc, test_remove_drives);
	tcase_add_test(tc, test_degraded);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_crash_raid5_add_drive);
	tcase_add_test(tc, test_crash_raid5_to_raid6);
	tcase_add_test(tc, test_crash_raid1_to_raid5);
	tcase_add_test(tc, test_crash_remove_drive);
	tcase_add_test(tc, test_crash_degraded);
	suite_add_tcase(s, tc);
	return unit_main(s);
}
