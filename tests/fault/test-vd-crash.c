// SPDX-License-Identifier: MIT
/*
 * test-vd-crash.c - creating and deleting virtual drives on a soft
 * controller under crashes and I/O errors at every write.
 *
 * A fault layer under the soft controller's writes (fault-io.h) either
 *  - crashes after write k, for every k: later writes never reach the
 *    disk, and in the "unsynced" kind every write not yet followed by a
 *    fdatasync of its drive is lost too (as SQLite's test6.c drops them);
 *  - fails write k with EIO, once.
 * Each run starts from the same configuration: VD 0 RAID1 on slots 0-1,
 * VDs 1 and 2 RAID5 on slots 2-4. The changes: a RAID10 group, a RAID50
 * group, a VD in the RAID5 group, deleting VD 2, deleting VD 0 (and so
 * its group), making slot 9 a global hot spare or a dedicated spare of
 * the RAID5 group, and making the baseline's global spare (slot 18) or
 * the RAID5 group's dedicated one (slot 19) unconfigured again; setting a
 * RAID5 member (slot 3) offline or failed, and the baseline's offline
 * RAID1 member (slot 1) online or missing; making slot 9 a spare of both
 * groups, which only the record knows; importing a foreign configuration
 * (a RAID5 and a global spare another controller made, in slots 20-23),
 * and adopting an md array (that RAID5's members with raidcli's metadata
 * partition taken out of their GPTs, as mdadm's members with room for it);
 * starting a migration (a RAID0 VD on slots 13-14 to RAID5 with slot 15
 * added, migrate.h) and recording its end, also with slot 15 failed
 * during the copy.
 * After the fault the controller is opened again, as after a restart, and
 * its VD list, spares, member states and foreign drives must be exactly the
 * old ones or exactly those a fault-free run gives (so an import leaves
 * every drive foreign or every drive imported); a following change must
 * succeed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fault-io.h"
#include "internal.h"
#include "soft/tasks/migrate.h"
#include "soft/config/scan.h"
#include "soft/soft.h"
#include "soft/format/gpt.h"
#include "unit.h"

#define MIB    (1ull << 20)
#define DRIVES 20

/* ---- The controller ---- */

/* What identifies a VD's configuration, for comparing lists. */
struct vd_sum {
	unsigned id, dg;
	enum rcl_raid_level level;
	enum rcl_vd_state state;
	unsigned members, migrating; /* its group's, from the record */
	uint64_t bytes;
	char name[RCL_VD_NAME_MAX + 1];
	char uuid[40];
};

struct vd_list {
	uint32_t spares;  /* a bit per slot that is a global hot spare */
	uint32_t dhs;     /* a bit per slot that is a dedicated one */
	uint32_t offln;   /* an offline member */
	uint32_t ubad;    /* a failed member */
	uint32_t foreign; /* a bit per slot whose drive is foreign */
	size_t count;
	struct vd_sum vds[RCL_MAX_VDS];
};

static struct rcl_ctrl *open_id(struct rcl_ctx *ctx, unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;

	ck_assert_msg(!rcl_ctrl_open(ctx, id, RCL_LOCK_EXCLUSIVE, &ctrl, &err), "open: %s",
	              err.msg);
	return ctrl;
}

static struct rcl_ctrl *open_ctrl(struct rcl_ctx *ctx)
{
	return open_id(ctx, 0);
}

/* The record's group @id. */
static const struct rcl_soft_dg *record_dg(struct rcl_ctrl *ctrl, unsigned id)
{
	const struct rcl_soft_config *cfg = &((const struct soft_ctrl *)ctrl->priv)->state->cfg;

	for (size_t d = 0; d < cfg->dg_count; d++)
		if (cfg->dgs[d].id == id)
			return &cfg->dgs[d];
	return NULL;
}

static void list_vds(struct rcl_ctx *ctx, struct vd_list *out)
{
	struct rcl_ctrl *ctrl = open_ctrl(ctx);

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++)
		if (rcl_ctrl_drive(ctrl, i)->foreign)
			out->foreign |= 1u << rcl_ctrl_drive(ctrl, i)->slot;
	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++)
		if (rcl_ctrl_drive(ctrl, i)->state == RCL_PD_GHS)
			out->spares |= 1u << rcl_ctrl_drive(ctrl, i)->slot;
		else if (rcl_ctrl_drive(ctrl, i)->state == RCL_PD_DHS)
			out->dhs |= 1u << rcl_ctrl_drive(ctrl, i)->slot;
		else if (rcl_ctrl_drive(ctrl, i)->state == RCL_PD_OFFLINE)
			out->offln |= 1u << rcl_ctrl_drive(ctrl, i)->slot;
		else if (rcl_ctrl_drive(ctrl, i)->state == RCL_PD_UBAD)
			out->ubad |= 1u << rcl_ctrl_drive(ctrl, i)->slot;
	for (size_t i = 0; i < rcl_ctrl_vd_count(ctrl); i++) {
		const struct rcl_vd *v = rcl_ctrl_vd(ctrl, i);
		struct vd_sum *s = &out->vds[out->count++];
		const struct rcl_soft_dg *dg = record_dg(ctrl, v->dg);

		*s = (struct vd_sum){.id = v->id,
		                     .dg = v->dg,
		                     .level = v->level,
		                     .state = v->state,
		                     .members = dg ? rcl_soft_dg_members(dg) : 0,
		                     .migrating = dg && dg->migrate.active,
		                     .bytes = v->bytes};
		memcpy(s->name, v->name, sizeof(s->name));
		memcpy(s->uuid, v->uuid, sizeof(s->uuid));
	}
	rcl_ctrl_close(ctrl);
}

/*
 * Whether @a is @b. UUIDs are random: a VD that @base (this run's list
 * before the change) has must keep its UUID; the others' are not compared.
 */
static bool same_list(const struct vd_list *a, const struct vd_list *b, const struct vd_list *base)
{
	if (a->count != b->count || a->spares != b->spares || a->dhs != b->dhs ||
	    a->offln != b->offln || a->ubad != b->ubad || a->foreign != b->foreign)
		return false;
	for (size_t i = 0; i < a->count; i++) {
		struct vd_sum x = a->vds[i], y = b->vds[i];

		memset(y.uuid, 0, sizeof(y.uuid));
		for (size_t j = 0; j < base->count; j++)
			if (base->vds[j].id == x.id)
				memcpy(y.uuid, base->vds[j].uuid, sizeof(y.uuid));
		if (!y.uuid[0])
			memset(x.uuid, 0, sizeof(x.uuid));
		if (memcmp(&x, &y, sizeof(x)))
			return false;
	}
	return true;
}

static enum rcl_status create(struct rcl_ctx *ctx, enum rcl_raid_level level, const unsigned *slots,
                              size_t n, uint64_t bytes, struct rcl_error *err)
{
	struct rcl_drive_ref refs[8];
	struct rcl_vd_params p = {.level = level,
	                          .drives = refs,
	                          .drive_count = n,
	                          .drives_per_span = level == RCL_RAID50 ? 3 : 0,
	                          .bytes = bytes};
	struct rcl_ctrl *ctrl = open_ctrl(ctx);
	enum rcl_status st;
	unsigned vd;

	for (size_t i = 0; i < n; i++)
		refs[i] = (struct rcl_drive_ref){252, slots[i]};
	st = rcl_ctrl_create_vd(ctrl, &p, &vd, err);
	rcl_ctrl_close(ctrl);
	return st;
}

static enum rcl_status delete (struct rcl_ctx *ctx, unsigned vd, struct rcl_error *err) {
	struct rcl_ctrl *ctrl = open_ctrl(ctx);
	enum rcl_status st = rcl_ctrl_delete_vd(ctrl, vd, true, err);

	rcl_ctrl_close(ctrl);
	return st;
}

/* Make @slot a spare (of group @dg, or global when @dg is -1), or (!@add) no spare. */
static enum rcl_status spare(struct rcl_ctx *ctx, unsigned slot, bool add, int dg,
                             struct rcl_error *err)
{
	struct rcl_ctrl *ctrl = open_ctrl(ctx);
	const struct rcl_drive_ref ref = {252, slot};
	const unsigned dgs[] = {(unsigned)dg};
	enum rcl_status st = add ? rcl_ctrl_add_hotspare(ctrl, &ref, dgs, dg >= 0, 0, false, err)
	                         : rcl_ctrl_delete_hotspare(ctrl, &ref, err);

	rcl_ctrl_close(ctrl);
	return st;
}

/* Make @slot a spare of groups 0 and 1. */
static enum rcl_status shared_spare(struct rcl_ctx *ctx, unsigned slot, struct rcl_error *err)
{
	struct rcl_ctrl *ctrl = open_ctrl(ctx);
	const struct rcl_drive_ref ref = {252, slot};
	const unsigned dgs[] = {0, 1};
	enum rcl_status st = rcl_ctrl_add_hotspare(ctrl, &ref, dgs, 2, 0, false, err);

	rcl_ctrl_close(ctrl);
	return st;
}

/* Change the state of drive @slot. */
static enum rcl_status set_state(struct rcl_ctx *ctx, unsigned slot, enum rcl_drive_change change,
                                 struct rcl_error *err)
{
	struct rcl_ctrl *ctrl = open_ctrl(ctx);
	const struct rcl_drive_ref ref = {252, slot};
	enum rcl_status st = rcl_ctrl_set_drive_state(ctrl, &ref, change, false, err);

	rcl_ctrl_close(ctrl);
	return st;
}

static const unsigned r1[] = {0, 1}, r5[] = {2, 3, 4}, r10[] = {5, 6, 7, 8}, next[] = {10, 11};
static const unsigned r50[] = {12, 13, 14, 15, 16, 17}, r0[] = {13, 14};

/* The VD the migrations change: RAID0 on r0, the baseline's VDs being 0-2. */
#define MIGRATING_VD 3

/* Start migrating MIGRATING_VD to RAID5, adding slot 15; (@end) record its end instead. */
static enum rcl_status migrate(struct rcl_ctx *ctx, bool end, struct rcl_error *err)
{
	struct rcl_ctrl *ctrl = open_ctrl(ctx);
	const struct rcl_drive_ref added = {252, 15};
	const struct rcl_task_request req = {.kind = RCL_TASK_MIGRATE,
	                                     .vd = MIGRATING_VD,
	                                     .level = RCL_RAID5,
	                                     .drives = &added,
	                                     .drive_count = 1};
	enum rcl_status st = end ? rcl_soft_migrate_finish(ctrl, MIGRATING_VD, err)
	                         : rcl_soft_migrate_start(ctrl, &req, false, err);

	rcl_ctrl_close(ctrl);
	return st;
}

/*
 * Make the member @path an md member raidcli did not adopt: its GPT loses
 * the metadata partition (entry 0), the md partition stays.
 */
static void strip_metadata(const char *path)
{
	struct rcl_gpt *gpt = malloc(sizeof(*gpt));
	struct rcl_error err = {0};
	int fd = open(path, O_RDWR);
	off_t end = lseek(fd, 0, SEEK_END);

	ck_assert(gpt && fd >= 0 && end > 0);
	ck_assert_msg(!rcl_gpt_read(fd, (uint64_t)end, 512, gpt, &err), "%s", err.msg);
	memset(&gpt->parts[0], 0, sizeof(gpt->parts[0]));
	ck_assert_msg(!rcl_gpt_write(fd, gpt, &err), "%s", err.msg);
	close(fd);
	free(gpt);
}

/*
 * Drives that another controller (/c1, deleted with its images kept)
 * configured: a RAID5 on three and a global spare, into /c0's slots 20-23;
 * with @as_md, the RAID5's members only, made md members (strip_metadata()).
 */
static void add_foreign(struct rcl_ctx *ctx, bool as_md)
{
	static const unsigned f5[] = {0, 1, 2};
	struct rcl_drive_ref refs[3];
	struct rcl_vd_params p = {.level = RCL_RAID5, .drives = refs, .drive_count = 3};
	const struct rcl_drive_ref spare3 = {252, 3};
	char paths[4][4096];
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	unsigned id = unit_soft_create(ctx, 4, 64 * MIB), vd, slot;

	ctrl = open_id(ctx, id);
	for (size_t i = 0; i < 3; i++)
		refs[i] = (struct rcl_drive_ref){252, f5[i]};
	ck_assert_msg(!rcl_ctrl_create_vd(ctrl, &p, &vd, &err), "%s", err.msg);
	ck_assert_msg(!rcl_ctrl_add_hotspare(ctrl, &spare3, NULL, 0, 0, false, &err), "%s",
	              err.msg);
	for (size_t i = 0; i < 4; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s", rcl_ctrl_drive(ctrl, i)->path);
	ck_assert_msg(!rcl_ctrl_delete(ctrl, 0, &err), "%s", err.msg);
	ctrl = open_ctrl(ctx);
	for (size_t i = 0; i < (as_md ? 3 : 4); i++) {
		if (as_md)
			strip_metadata(paths[i]);
		ck_assert_msg(!rcl_ctrl_add_drive(ctrl, paths[i], &slot, &err), "%s", err.msg);
	}
	rcl_ctrl_close(ctrl);
}

static enum rcl_status import(struct rcl_ctx *ctx, struct rcl_error *err)
{
	struct rcl_ctrl *ctrl = open_ctrl(ctx);
	struct rcl_foreign f;
	enum rcl_status st = rcl_ctrl_import_foreign(ctrl, false, false, &f, err);

	rcl_foreign_release(&f);
	rcl_ctrl_close(ctrl);
	return st;
}

/* A new controller in @dir with the starting configuration. */
static struct rcl_ctx *baseline(const char *dir)
{
	struct rcl_ctx *ctx = unit_ctx_new(dir);
	struct rcl_error err = {0};

	unit_soft_create(ctx, DRIVES, 64 * MIB);
	ck_assert_msg(!create(ctx, RCL_RAID1, r1, 2, 0, &err), "%s", err.msg);
	ck_assert_msg(!create(ctx, RCL_RAID5, r5, 3, 16 * MIB, &err), "%s", err.msg);
	ck_assert_msg(!create(ctx, RCL_RAID5, r5, 3, 16 * MIB, &err), "%s", err.msg);
	ck_assert_msg(!spare(ctx, 18, true, -1, &err), "%s", err.msg);
	ck_assert_msg(!spare(ctx, 19, true, 1, &err), "%s", err.msg);
	ck_assert_msg(!set_state(ctx, 1, RCL_DRIVE_SET_OFFLINE, &err), "%s", err.msg);
	return ctx;
}

/* The changes under test. */
enum op {
	OP_NEW_GROUP,
	OP_NEW_NESTED,
	OP_IN_GROUP,
	OP_DELETE_ONE,
	OP_DELETE_GROUP,
	OP_ADD_SPARE,
	OP_DELETE_SPARE,
	OP_ADD_DEDICATED,
	OP_DELETE_DEDICATED,
	OP_OFFLINE,
	OP_FAILED,
	OP_ONLINE,
	OP_MISSING,
	OP_ADD_SHARED,
	OP_IMPORT,
	OP_IMPORT_MD,
	OP_MIGRATE,
	OP_MIGRATE_END,
	OP_MIGRATE_END_DEGRADED,
	OPS
};
static const char *const op_names[] = {"create a group",
                                       "create a RAID50 group",
                                       "create in a group",
                                       "delete a VD",
                                       "delete a group's last VD",
                                       "add a hot spare",
                                       "delete a hot spare",
                                       "add a dedicated spare",
                                       "delete a dedicated spare",
                                       "set a member offline",
                                       "fail a member",
                                       "set a member online",
                                       "set a member missing",
                                       "add a spare of two groups",
                                       "import a foreign configuration",
                                       "adopt an md array",
                                       "start a migration",
                                       "record a migration's end",
                                       "record a degraded migration's end"};

static enum rcl_status apply(struct rcl_ctx *ctx, enum op op, struct rcl_error *err)
{
	switch (op) {
	case OP_NEW_GROUP:
		return create(ctx, RCL_RAID10, r10, 4, 0, err);
	case OP_NEW_NESTED:
		return create(ctx, RCL_RAID50, r50, 6, 0, err);
	case OP_IN_GROUP:
		return create(ctx, RCL_RAID5, r5, 3, 8 * MIB, err);
	case OP_DELETE_ONE:
		return delete (ctx, 2, err);
	case OP_ADD_SPARE:
		return spare(ctx, 9, true, -1, err);
	case OP_DELETE_SPARE:
		return spare(ctx, 18, false, -1, err);
	case OP_ADD_DEDICATED:
		return spare(ctx, 9, true, 1, err);
	case OP_DELETE_DEDICATED:
		return spare(ctx, 19, false, -1, err);
	case OP_OFFLINE:
		return set_state(ctx, 3, RCL_DRIVE_SET_OFFLINE, err);
	case OP_FAILED:
		return set_state(ctx, 3, RCL_DRIVE_SET_FAILED, err);
	case OP_ONLINE:
		return set_state(ctx, 1, RCL_DRIVE_SET_ONLINE, err);
	case OP_MISSING:
		return set_state(ctx, 1, RCL_DRIVE_SET_MISSING, err);
	case OP_ADD_SHARED:
		return shared_spare(ctx, 9, err);
	case OP_IMPORT:
	case OP_IMPORT_MD:
		return import(ctx, err);
	case OP_MIGRATE:
		return migrate(ctx, false, err);
	case OP_MIGRATE_END:
	case OP_MIGRATE_END_DEGRADED:
		return migrate(ctx, true, err);
	default:
		return delete (ctx, 0, err);
	}
}

/*
 * How many drives hold the configuration only pending, as a crash between
 * an update's commits leaves them: none once a load has rolled them
 * forward, which the open before this one did.
 */
static unsigned drives_behind(struct rcl_ctx *ctx)
{
	struct rcl_ctrl *ctrl = open_ctrl(ctx);
	const struct soft_ctrl *sc = ctrl->priv;
	unsigned behind = 0;

	for (size_t i = 0; i < sc->state->count; i++)
		behind += sc->state->verdicts[i].standing == RCL_SOFT_RECORD_BEHIND;
	rcl_ctrl_close(ctrl);
	return behind;
}

/* One run: a fresh baseline, the fault, a restart, the checks. Returns the write count. */
static unsigned long run_once(enum op op, enum fault_mode mode, enum fault_crash crash,
                              unsigned long k, struct vd_list *want_new)
{
	char *dir = unit_tmpdir();
	struct rcl_ctx *ctx = baseline(dir);
	struct rcl_error err = {0};
	struct vd_list before, after, then;
	unsigned long writes;
	enum rcl_status st;

	/* Only here: foreign drives make every baseline slower. */
	if (op == OP_IMPORT || op == OP_IMPORT_MD)
		add_foreign(ctx, op == OP_IMPORT_MD);
	/* The same for the migrating VD: its copy is not what is tested here (test-reshape.c). */
	if (op == OP_MIGRATE || op == OP_MIGRATE_END || op == OP_MIGRATE_END_DEGRADED)
		ck_assert_msg(!create(ctx, RCL_RAID0, r0, 2, 0, &err), "%s", err.msg);
	if (op == OP_MIGRATE_END || op == OP_MIGRATE_END_DEGRADED)
		ck_assert_msg(!migrate(ctx, false, &err), "%s", err.msg);
	/* The added drive failed during the copy: the end skips it and writes its role faulty. */
	if (op == OP_MIGRATE_END_DEGRADED)
		ck_assert_msg(!set_state(ctx, 15, RCL_DRIVE_SET_FAILED, &err), "%s", err.msg);

	list_vds(ctx, &before);
	fault_arm(mode, k);
	fault.crash = crash;
	st = apply(ctx, op, &err);
	writes = fault.writes;
	fault_arm(FAULT_OFF, 0);
	list_vds(ctx, &after);
	ck_assert_msg(!drives_behind(ctx), "%s, fault %d/%d at write %lu: a drive left behind",
	              op_names[op], mode, crash, k);
	if (getenv("VD_CRASH_DEBUG"))
		for (size_t i = 0; i < after.count; i++)
			fprintf(stderr, "%s %d/%d %lu st=%d: v%u dg%u l%d s%d %llu '%s' %s\n",
			        op_names[op], mode, crash, k, st, after.vds[i].id, after.vds[i].dg,
			        after.vds[i].level, after.vds[i].state,
			        (unsigned long long)after.vds[i].bytes, after.vds[i].name,
			        after.vds[i].uuid);
	if (mode == FAULT_OFF) {
		ck_assert_msg(!st, "%s: %s", op_names[op], err.msg);
		*want_new = after;
	} else {
		ck_assert_msg(
		    same_list(&after, &before, &before) || same_list(&after, want_new, &before),
		    "%s, fault %d/%d at write %lu: %zu VDs, neither the old %zu nor "
		    "the new %zu",
		    op_names[op], mode, crash, k, after.count, before.count, want_new->count);
		/* A crash hides itself from the code; an error does not. */
		if (!st && mode == FAULT_EIO)
			ck_assert_msg(same_list(&after, want_new, &before),
			              "%s reported success but the change is not there",
			              op_names[op]);
	}
	/*
	 * The controller works on: the change itself when it did not happen
	 * (on drives a crash may have left half-written), then a new group on
	 * drives a deleted group may have left half-wiped.
	 */
	if (mode != FAULT_OFF && same_list(&after, &before, &before)) {
		ck_assert_msg(!apply(ctx, op, &err), "%s, fault %d/%d at %lu: again: %s",
		              op_names[op], mode, crash, k, err.msg);
		list_vds(ctx, &after);
		ck_assert_msg(same_list(&after, want_new, &before), "%s again: not the new list",
		              op_names[op]);
	}
	ck_assert_msg(!create(ctx, RCL_RAID1, op == OP_DELETE_GROUP ? r1 : next, 2, 0, &err),
	              "%s, fault %d/%d at %lu: next: %s", op_names[op], mode, crash, k, err.msg);
	list_vds(ctx, &then);
	ck_assert_uint_eq(then.count, after.count + 1);
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
	return writes;
}

/*
 * FAULT_STRIDE=N faults every Nth write only, and the last: the sanitizer
 * run's budget. The plain run faults every write.
 */
static unsigned long fault_stride(void)
{
	const char *text = getenv("FAULT_STRIDE");
	unsigned long n = text ? strtoul(text, NULL, 10) : 1;

	return n ? n : 1;
}

static void every_write(enum fault_mode mode, enum fault_crash crash)
{
	unsigned long stride = fault_stride();
	/* VD_CRASH_OP=N: only change N (op_names[N]), when working on it. */
	const char *only = getenv("VD_CRASH_OP");

	for (enum op op = 0; op < OPS; op++) {
		if (only && strtoul(only, NULL, 10) != (unsigned long)op)
			continue;
		struct vd_list want;
		unsigned long total = run_once(op, FAULT_OFF, FAULT_CLEAN, 0, &want);

		ck_assert_uint_gt(total, 0);
		printf("%s: %lu writes, faulting every %lu\n", op_names[op], total, stride);
		for (unsigned long k = 0; k <= total; k += stride)
			run_once(op, mode, crash, k, &want);
		if (total % stride)
			run_once(op, mode, crash, total, &want);
	}
}

START_TEST(test_crash_after_every_write)
{
	every_write(FAULT_CRASH, FAULT_CLEAN);
}
END_TEST

START_TEST(test_unsynced_lost_after_every_write)
{
	every_write(FAULT_CRASH, FAULT_UNSYNCED_AT_WRITE);
}
END_TEST

START_TEST(test_eio_at_every_write)
{
	every_write(FAULT_EIO, FAULT_CLEAN);
}
END_TEST

static Suite *vd_crash_suite(void)
{
	Suite *s = suite_create("vd-crash");
	TCase *tc = tcase_create("faults");

	tcase_add_checked_fixture(tc, fault_setup, fault_teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_crash_after_every_write);
	tcase_add_test(tc, test_unsynced_lost_after_every_write);
	tcase_add_test(tc, test_eio_at_every_write);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(vd_crash_suite());
}
