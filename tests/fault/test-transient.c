// SPDX-License-Identifier: MIT
/*
 * test-transient.c - member write errors at every RAID level: ENOSPC and
 * EROFS (the host's file system full or read-only, a condition of every
 * member at once) and EIO (the drive's), injected by the uring layer's
 * test-only fault hook under a volume whose failures are recorded as the
 * controller process records them (rcl_ctrl_set_drive_state(FAILED)).
 * For RAID0, 1, 5, 6, 10, 50 and 60 and each errno, writes first meet the
 * error on one member, then on every member; the test proves
 *  - no acknowledged write is lost: every write either returns 0 and reads
 *    back, then and after recovery, or returns the injected errno; failed
 *    writes leave their range undefined, as on any disk, and nothing else;
 *  - honest state throughout: ENOSPC and EROFS fail no member and leave
 *    the VD optimal; EIO fails members only while the VD survives it, so
 *    the VD is degraded at worst, never offline; a region a failed write
 *    may have left with disagreeing parity or copies is owed a resync;
 *  - recovery without wiping: each failed member returns with "set online
 *    force" (rebuilt from the others), the owed regions are resynced, and
 *    the VD is optimal, reads back every acknowledged write and checks clean.
 * And the state the first fix for this found (issue 21, case 4): a RAID5
 * with every member recorded failed (UBad, the VD offline) returns whole,
 * its data intact, member by member with "set online force", the freshest
 * first.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "soft/soft.h"
#include "soft/config/spare.h"
#include "soft/engine/stripe.h"
#include "soft/tasks/sweep.h"
#include "soft/engine/uring.h"
#include "soft/engine/volume.h"
#include "unit.h"

#define MIB    (1024 * 1024ull)
#define MAXMEM 8

struct level {
	const char *type;
	unsigned drives;
	const char *extra;
};

static const struct level levels[] = {
    {"raid0", 3, ""},
    {"raid1", 2, ""},
    {"raid5", 4, ""},
    {"raid6", 5, ""},
    {"raid10", 4, "pdperarray=2"},
    {"raid50", 6, "pdperarray=3"},
    {"raid60", 8, "pdperarray=4"},
};

static const int errors[] = {ENOSPC, EROFS, EIO};

/* The fault hook: data writes (at or above @from) to the members in @mask fail with @error. */
struct inject {
	uint64_t mask;
	uint64_t from;
	int error;
};

static int inject(void *ctx, const struct rcl_soft_op *op)
{
	const struct inject *in = ctx;

	if (op->kind != RCL_SOFT_OP_WRITE && op->kind != RCL_SOFT_OP_WRITE_DURABLE)
		return 0;
	return op->off >= in->from && (in->mask >> op->member & 1) ? in->error : 0;
}

struct fixture {
	struct unit_state st;
	struct rcl_soft_volume *vol;
	unsigned members;
	uint64_t bytes;
	size_t piece;    /* the writes' size: whole stripes, which wait for no neighbour */
	uint8_t *shadow; /* what the acknowledged writes wrote */
	uint8_t *known;  /* per 512-byte sector: no failed write since the shadow's */
	atomic_uint failed[MAXMEM];
	bool recorded[MAXMEM];
	struct inject in;
};

static void owner_failed(void *ctx, unsigned vd, unsigned member, const struct rcl_guid *drive,
                         int error)
{
	struct fixture *f = ctx;

	(void)drive;
	(void)vd;
	(void)error;
	atomic_fetch_add(&f->failed[member], 1);
}

static struct rcl_ctrl *ctrl_open(struct rcl_ctx **ctx)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;

	*ctx = unit_ctx_new(getenv("RAIDCLI_STATE_DIR"));
	ck_assert_msg(!rcl_ctrl_open(*ctx, 0, RCL_LOCK_EXCLUSIVE, &ctrl, &err), "%s", err.msg);
	return ctrl;
}

static void ctrl_close(struct rcl_ctx *ctx, struct rcl_ctrl *ctrl)
{
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
}

static const struct rcl_soft_state *soft_state(struct rcl_ctrl *ctrl)
{
	return ((struct soft_ctrl *)ctrl->priv)->state;
}

/* "raidcli @line" in process; its status. */
static enum rcl_status run(const char *line)
{
	enum rcl_status st;

	free(unit_run(line, false, &st));
	return st;
}

static void setup(struct fixture *f, const struct level *l)
{
	const struct rcl_soft_volume_owner owner = {.failed = owner_failed, .ctx = f};
	struct rcl_soft_geometry geo;
	uint32_t min, stripe, max;
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	struct rcl_ctx *ctx;
	char line[128];

	memset(f, 0, sizeof(*f));
	unit_state_enter(&f->st, NULL);
	snprintf(line, sizeof(line), "add controller type=soft drives=%u size=16MB", l->drives);
	ck_assert_int_eq(run(line), RCL_OK);
	snprintf(line, sizeof(line), "/c0 add vd type=%s drives=252:0-%u %s", l->type,
	         l->drives - 1, l->extra);
	ck_assert_int_eq(run(line), RCL_OK);
	ctrl = ctrl_open(&ctx);
	f->members = rcl_soft_dg_members(&soft_state(ctrl)->cfg.dgs[0]);
	ck_assert(!rcl_soft_geometry_get(&soft_state(ctrl)->cfg.dgs[0],
	                                 &soft_state(ctrl)->cfg.vds[0], 512, &geo, &err));
	f->in.from = geo.arrays[0].start;
	ck_assert_msg(!rcl_soft_volume_open(soft_state(ctrl), 0, &owner, &f->vol, &err), "%s",
	              err.msg);
	ctrl_close(ctx, ctrl);
	f->bytes = rcl_soft_volume_bytes(f->vol);
	rcl_soft_volume_block_sizes(f->vol, &min, &stripe, &max);
	f->piece = stripe * ((256 * 1024 + stripe - 1) / stripe);
	f->shadow = calloc(1, f->bytes);
	f->known = malloc(f->bytes / 512);
	ck_assert(f->shadow && f->known);
	memset(f->known, 1, f->bytes / 512);
}

static void teardown(struct fixture *f)
{
	rcl_soft_uring_set_fault(NULL, NULL);
	rcl_soft_volume_close(f->vol);
	unit_state_leave(&f->st);
	free(f->shadow);
	free(f->known);
}

/* Take the configuration again, as the process does after every change. */
static void refresh(struct fixture *f)
{
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = ctrl_open(&ctx);

	ck_assert_msg(!rcl_soft_volume_update(f->vol, soft_state(ctrl), &err), "%s", err.msg);
	ctrl_close(ctx, ctrl);
}

/* Record the members the volume failed, as the process does (export.c's record_failure()). */
static void record(struct fixture *f)
{
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = ctrl_open(&ctx);

	for (unsigned m = 0; m < f->members; m++) {
		const struct rcl_soft_dg *dg = &soft_state(ctrl)->cfg.dgs[0];
		struct rcl_drive_ref ref = {RCL_SOFT_ENCLOSURE, dg->members[m].slot};
		struct rcl_error err = {0};

		if (!atomic_load(&f->failed[m]) || f->recorded[m])
			continue;
		ck_assert_msg(
		    !rcl_ctrl_set_drive_state(ctrl, &ref, RCL_DRIVE_SET_FAILED, false, &err), "%s",
		    err.msg);
		f->recorded[m] = true;
	}
	ctrl_close(ctx, ctrl);
	refresh(f);
}

/* What "show" says of VD 0, and how many drives are UBad. */
static enum rcl_vd_state vd_state(unsigned *ubad)
{
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = ctrl_open(&ctx);
	enum rcl_vd_state state = rcl_ctrl_vd_by_id(ctrl, 0)->state;

	*ubad = 0;
	for (size_t i = 0; i < ctrl->drive_count; i++)
		*ubad += ctrl->drives[i].state == RCL_PD_UBAD;
	ctrl_close(ctx, ctrl);
	return state;
}

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Write the whole VD with data of @seed in writes of @f->piece, each either
 * acknowledged (the shadow takes it) or failed with @error (its range is
 * no longer known). Return: how many failed.
 */
static unsigned write_pass(struct fixture *f, uint64_t seed, int error)
{
	uint8_t *buf = malloc(f->piece);
	unsigned failed = 0;

	ck_assert_ptr_nonnull(buf);
	for (uint64_t off = 0; off < f->bytes; off += f->piece) {
		size_t len = f->bytes - off < f->piece ? f->bytes - off : f->piece;
		int rc;

		for (size_t i = 0; i < len; i += 8) {
			uint64_t v = next_random(&seed);

			memcpy(buf + i, &v, 8);
		}
		rc = rcl_soft_volume_write(f->vol, buf, len, off, 0);
		ck_assert_msg(!rc || rc == -error, "write at %llu: %s, not %s",
		              (unsigned long long)off, strerror(-rc), strerror(error));
		if (rc) {
			memset(f->known + off / 512, 0, len / 512);
			failed++;
		} else {
			memcpy(f->shadow + off, buf, len);
			memset(f->known + off / 512, 1, len / 512);
		}
	}
	free(buf);
	ck_assert_int_eq(rcl_soft_volume_flush(f->vol), 0);
	return failed;
}

/* Every acknowledged write reads back. */
static void verify(struct fixture *f)
{
	uint8_t *buf = malloc(4 * MIB);
	uint64_t bad = UINT64_MAX;

	for (uint64_t off = 0; off < f->bytes && bad == UINT64_MAX; off += 4 * MIB) {
		size_t len = f->bytes - off < 4 * MIB ? f->bytes - off : 4 * MIB;

		ck_assert_int_eq(rcl_soft_volume_read(f->vol, buf, len, off), 0);
		/* One check per window: Check records every assertion it runs. */
		for (size_t i = 0; i < len && bad == UINT64_MAX; i += 512)
			if (f->known[(off + i) / 512] && memcmp(buf + i, f->shadow + off + i, 512))
				bad = off + i;
	}
	ck_assert_msg(bad == UINT64_MAX, "acknowledged VD byte %llu reads back wrong",
	              (unsigned long long)bad);
	free(buf);
}

/* Resync what failed writes left owed, as the process's BGI does. */
static void resync(struct fixture *f)
{
	uint64_t first, end, at = 0;
	struct rcl_soft_sweep_counts counts = {0};

	while (rcl_soft_sweep_dirty(f->vol, at, &first, &end)) {
		ck_assert_int_eq(rcl_soft_check_range(f->vol, first, end, true, &counts), 0);
		rcl_soft_sweep_resynced(f->vol, first, end, end);
		at = end;
	}
	ck_assert_int_eq(rcl_soft_volume_flush(f->vol), 0);
}

/* Return each failed member with "set online force"; rebuild it as the process would. */
static void recover(struct fixture *f)
{
	uint64_t extent = rcl_soft_sweep_extent(f->vol);

	for (unsigned m = 0; m < f->members; m++) {
		struct rcl_error err = {0};
		struct rcl_ctx *ctx;
		struct rcl_ctrl *ctrl;
		unsigned slot;
		char line[64];

		if (!f->recorded[m])
			continue;
		ctrl = ctrl_open(&ctx);
		slot = soft_state(ctrl)->cfg.dgs[0].members[m].slot;
		ctrl_close(ctx, ctrl);
		snprintf(line, sizeof(line), "/c0/e252/s%u set online", slot);
		ck_assert_int_eq(run(line), RCL_NEED_FORCE);
		snprintf(line, sizeof(line), "/c0/e252/s%u set online force", slot);
		ck_assert_int_eq(run(line), RCL_OK);
		refresh(f);
		ck_assert_int_eq(rcl_soft_rebuild_range(f->vol, m, 0, extent), 0);
		ctrl = ctrl_open(&ctx);
		ck_assert_msg(!rcl_soft_set_rebuilt(ctrl, 0, m, RCL_SOFT_REBUILT_ALL, &err), "%s",
		              err.msg);
		ctrl_close(ctx, ctrl);
		refresh(f);
		f->recorded[m] = false;
		atomic_store(&f->failed[m], 0);
	}
}

/*
 * The most members EIO may fail at @level before the VD would go offline:
 * one per mirror pair or RAID5 span, two per RAID6 span.
 */
static unsigned may_lose(const struct level *l)
{
	static const unsigned most[] = {0, 1, 1, 2, 2, 2, 4};

	return most[l - levels];
}

static void errors_at(const struct level *l, int error)
{
	struct fixture f;
	unsigned ubad, lost = 0;
	bool host = error != EIO;

	setup(&f, l);
	ck_assert_int_eq(write_pass(&f, 1, error), 0);
	rcl_soft_uring_set_fault(inject, &f.in);
	f.in.error = error;

	/* One member: a host error fails writes and no member; EIO fails the member if it can. */
	f.in.mask = 1u << 1;
	ck_assert_uint_eq(write_pass(&f, 2, error) > 0, host || !may_lose(l));
	record(&f);
	for (unsigned m = 0; m < f.members; m++)
		lost += f.recorded[m];
	ck_assert_uint_eq(lost, host || !may_lose(l) ? 0 : 1);
	ck_assert_int_eq(vd_state(&ubad),
	                 lost ? (strcmp(l->type, "raid6") && strcmp(l->type, "raid60")
	                             ? RCL_VD_DEGRADED
	                             : RCL_VD_PARTIALLY_DEGRADED)
	                      : RCL_VD_OPTIMAL);
	verify(&f);

	/* Every member: writes fail; the VD loses no more than it survives, never goes offline. */
	f.in.mask = (1u << f.members) - 1;
	ck_assert_uint_gt(write_pass(&f, 3, error), 0);
	record(&f);
	lost = 0;
	for (unsigned m = 0; m < f.members; m++)
		lost += f.recorded[m];
	ck_assert_uint_eq(lost, host ? 0 : may_lose(l));
	ck_assert_int_eq(vd_state(&ubad), lost ? RCL_VD_DEGRADED : RCL_VD_OPTIMAL);
	ck_assert_uint_eq(ubad, lost);
	verify(&f);
	/* Writes that failed on members kept in use owe their regions a resync. */
	if (strcmp(l->type, "raid0"))
		ck_assert(rcl_soft_volume_needs_resync(f.vol));

	/* The error passes: members back without wiping, data intact, writes succeed. */
	rcl_soft_uring_set_fault(NULL, NULL);
	recover(&f);
	resync(&f);
	ck_assert_int_eq(vd_state(&ubad), RCL_VD_OPTIMAL);
	ck_assert_uint_eq(ubad, 0);
	ck_assert(!rcl_soft_volume_needs_resync(f.vol));
	verify(&f);
	if (strcmp(l->type, "raid0")) {
		struct rcl_soft_sweep_counts counts = {0};

		ck_assert_int_eq(
		    rcl_soft_check_range(f.vol, 0, rcl_soft_sweep_extent(f.vol), false, &counts),
		    0);
		ck_assert_uint_eq(counts.mismatches, 0);
	}
	ck_assert_int_eq(write_pass(&f, 4, error), 0);
	verify(&f);
	teardown(&f);
}

START_TEST(test_write_errors)
{
	const struct level *l = &levels[_i / 3];

	errors_at(l, errors[_i % 3]);
}
END_TEST

/*
 * What a full file system left before this was fixed: every member of a
 * RAID5 recorded failed, one after the other, the VD offline. The data is
 * still on the members: each returns with set online force, the freshest
 * (the last to fail) first, taken back as it is while the VD needs it,
 * and the first to fail is rebuilt from the others.
 */
START_TEST(test_all_failed_come_back)
{
	struct fixture f;
	unsigned ubad;
	uint64_t extent;
	char line[64];

	setup(&f, &levels[2]);
	ck_assert_int_eq(write_pass(&f, 5, EIO), 0);
	extent = rcl_soft_sweep_extent(f.vol);
	for (unsigned m = 0; m < f.members; m++)
		atomic_store(&f.failed[m], 1);
	record(&f);
	ck_assert_int_eq(vd_state(&ubad), RCL_VD_OFFLINE);
	ck_assert_uint_eq(ubad, 4);
	/* Member 0 failed first: the others hold newer data, and come back before it. */
	ck_assert_int_eq(run("/c0/e252/s0 set online force"), RCL_NOT_ALLOWED);
	for (unsigned m = f.members; m-- > 0;) {
		snprintf(line, sizeof(line), "/c0/e252/s%u set online force", m);
		ck_assert_int_eq(run(line), RCL_OK);
	}
	refresh(&f);
	ck_assert_int_eq(vd_state(&ubad), RCL_VD_DEGRADED);
	ck_assert_uint_eq(ubad, 0);
	verify(&f);
	/* Members 3, 2 and 1 were taken back as they are; member 0 rebuilds from them. */
	ck_assert_int_eq(rcl_soft_rebuild_range(f.vol, 0, 0, extent), 0);
	{
		struct rcl_error err = {0};
		struct rcl_ctx *ctx;
		struct rcl_ctrl *ctrl = ctrl_open(&ctx);

		ck_assert_msg(!rcl_soft_set_rebuilt(ctrl, 0, 0, RCL_SOFT_REBUILT_ALL, &err), "%s",
		              err.msg);
		ctrl_close(ctx, ctrl);
	}
	refresh(&f);
	ck_assert_int_eq(vd_state(&ubad), RCL_VD_OPTIMAL);
	verify(&f);
	teardown(&f);
}
END_TEST

static Suite *transient_suite(void)
{
	Suite *s = suite_create("transient");
	TCase *tc = tcase_create("write errors");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_write_errors, 0, 3 * sizeof(levels) / sizeof(levels[0]));
	tcase_add_test(tc, test_all_failed_come_back);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* The images on tmpfs where there is one: the test checks the engine, not the disk. */
	if (!getenv("TMPDIR") && !access("/dev/shm", W_OK))
		setenv("TMPDIR", "/dev/shm", 1);
	return unit_main(transient_suite());
}
