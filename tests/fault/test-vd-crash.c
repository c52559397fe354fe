// SPDX-License-Identifier: MIT
/*
 * test-vd-crash.c - creating and deleting virtual drives on a soft
 * controller under crashes and I/O errors at every write.
 *
 * A fault layer under the soft controller's writes (rcl_soft_set_io(), a
 * fake: no real device fails on cue) either
 *  - crashes after write k, for every k: later writes never reach the
 *    disk, and in the "unsynced" kind every write not yet followed by a
 *    fdatasync of its drive is lost too (as SQLite's test6.c drops them);
 *  - fails write k with EIO, once.
 * Each run starts from the same configuration: VD 0 RAID1 on slots 0-1,
 * VDs 1 and 2 RAID5 on slots 2-4. The changes: a RAID10 group, a RAID50
 * group, a VD in the RAID5 group, deleting VD 2, deleting VD 0 (and so
 * its group). After the fault the controller is opened
 * again, as after a restart, and its VD list must be exactly the old one or
 * exactly the one a fault-free run gives; a following change must succeed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "soft/io.h"
#include "unit.h"

#define MIB    (1ull << 20)
#define DRIVES 18

/* ---- The fault layer ---- */

enum fault_mode {
	FAULT_OFF,
	FAULT_CRASH,    /* after write @limit, nothing reaches the disk */
	FAULT_UNSYNCED, /* as CRASH, and unsynced writes are lost */
	FAULT_EIO,      /* write @limit fails with EIO */
};

/* A write not yet synced: what it overwrote. */
struct undo {
	int fd;
	off_t off;
	size_t len;
	void *old;
};

static struct {
	enum fault_mode mode;
	unsigned long limit;
	unsigned long writes;
	bool crashed;
	struct undo *undo;
	size_t undo_count;
} fault;

static void settle(int fd, bool revert)
{
	size_t kept = 0;

	for (size_t i = fault.undo_count; i-- > 0;) {
		struct undo *u = &fault.undo[i];

		if (fd >= 0 && u->fd != fd)
			continue;
		if (revert)
			ck_assert_int_eq(pwrite(u->fd, u->old, u->len, u->off), (ssize_t)u->len);
		free(u->old);
		u->old = NULL;
	}
	for (size_t i = 0; i < fault.undo_count; i++)
		if (fault.undo[i].old)
			fault.undo[kept++] = fault.undo[i];
	fault.undo_count = kept;
}

static void remember(int fd, size_t len, off_t off)
{
	struct undo *u;
	ssize_t got;

	fault.undo = realloc(fault.undo, (fault.undo_count + 1) * sizeof(*fault.undo));
	ck_assert_ptr_nonnull(fault.undo);
	u = &fault.undo[fault.undo_count++];
	*u = (struct undo){fd, off, len, calloc(1, len)};
	ck_assert_ptr_nonnull(u->old);
	got = pread(fd, u->old, len, off);
	ck_assert_int_ge(got, 0); /* past the end reads short: zeros stand in */
}

static void fault_arm(enum fault_mode mode, unsigned long limit)
{
	settle(-1, false);
	free(fault.undo);
	memset(&fault, 0, sizeof(fault));
	fault.mode = mode;
	fault.limit = limit;
}

static ssize_t fault_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	if (fault.mode == FAULT_EIO && fault.writes++ == fault.limit) {
		errno = EIO;
		return -1;
	}
	if ((fault.mode == FAULT_CRASH || fault.mode == FAULT_UNSYNCED) && !fault.crashed &&
	    fault.writes == fault.limit) {
		settle(-1, fault.mode == FAULT_UNSYNCED);
		fault.crashed = true;
	}
	/* A dead machine writes nothing, but the code that runs on cannot tell. */
	if (fault.crashed)
		return (ssize_t)len;
	if (fault.mode != FAULT_EIO)
		fault.writes++;
	if (fault.mode == FAULT_UNSYNCED)
		remember(fd, len, off);
	return pwrite(fd, buf, len, off);
}

/* The images are read back through the page cache: a real sync adds nothing. */
static int fault_fdatasync(int fd)
{
	if (!fault.crashed)
		settle(fd, false);
	return 0;
}

static const struct rcl_soft_io fault_io = {fault_pwrite, fault_fdatasync};

static void fault_setup(void)
{
	fault_arm(FAULT_OFF, 0);
	rcl_soft_set_io(&fault_io);
}

static void fault_teardown(void)
{
	fault_arm(FAULT_OFF, 0);
	rcl_soft_set_io(NULL);
}

/* ---- The controller ---- */

/* What identifies a VD's configuration, for comparing lists. */
struct vd_sum {
	unsigned id, dg;
	enum rcl_raid_level level;
	enum rcl_vd_state state;
	uint64_t bytes;
	char name[RCL_VD_NAME_MAX + 1];
	char uuid[40];
};

struct vd_list {
	size_t count;
	struct vd_sum vds[RCL_MAX_VDS];
};

static struct rcl_ctrl *open_ctrl(struct rcl_ctx *ctx)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;

	ck_assert_msg(!rcl_ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE, &ctrl, &err), "open: %s", err.msg);
	return ctrl;
}

static void list_vds(struct rcl_ctx *ctx, struct vd_list *out)
{
	struct rcl_ctrl *ctrl = open_ctrl(ctx);

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < rcl_ctrl_vd_count(ctrl); i++) {
		const struct rcl_vd *v = rcl_ctrl_vd(ctrl, i);
		struct vd_sum *s = &out->vds[out->count++];

		*s = (struct vd_sum){.id = v->id,
		                     .dg = v->dg,
		                     .level = v->level,
		                     .state = v->state,
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
	if (a->count != b->count)
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

static const unsigned r1[] = {0, 1}, r5[] = {2, 3, 4}, r10[] = {5, 6, 7, 8}, next[] = {10, 11};
static const unsigned r50[] = {12, 13, 14, 15, 16, 17};

/* A new controller in @dir with the starting configuration. */
static struct rcl_ctx *baseline(const char *dir)
{
	struct rcl_soft_params sp = {DRIVES, 64 * MIB, 512, NULL};
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;
	unsigned id;

	ck_assert_int_eq(rcl_ctx_new(&ctx, dir, &err), RCL_OK);
	ck_assert_msg(!rcl_soft_create(ctx, &sp, &id, &err), "%s", err.msg);
	ck_assert_msg(!create(ctx, RCL_RAID1, r1, 2, 0, &err), "%s", err.msg);
	ck_assert_msg(!create(ctx, RCL_RAID5, r5, 3, 16 * MIB, &err), "%s", err.msg);
	ck_assert_msg(!create(ctx, RCL_RAID5, r5, 3, 16 * MIB, &err), "%s", err.msg);
	return ctx;
}

/* The changes under test. */
enum op { OP_NEW_GROUP, OP_NEW_NESTED, OP_IN_GROUP, OP_DELETE_ONE, OP_DELETE_GROUP, OPS };
static const char *const op_names[] = {"create a group", "create a RAID50 group",
                                       "create in a group", "delete a VD",
                                       "delete a group's last VD"};

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
	default:
		return delete (ctx, 0, err);
	}
}

/* One run: a fresh baseline, the fault, a restart, the checks. Returns the write count. */
static unsigned long run_once(enum op op, enum fault_mode mode, unsigned long k,
                              struct vd_list *want_new)
{
	char *dir = unit_tmpdir();
	struct rcl_ctx *ctx = baseline(dir);
	struct rcl_error err = {0};
	struct vd_list before, after, then;
	unsigned long writes;
	enum rcl_status st;

	list_vds(ctx, &before);
	fault_arm(mode, k);
	st = apply(ctx, op, &err);
	writes = fault.writes;
	fault_arm(FAULT_OFF, 0);
	list_vds(ctx, &after);
	if (getenv("VD_CRASH_DEBUG"))
		for (size_t i = 0; i < after.count; i++)
			fprintf(stderr, "%s %d %lu st=%d: v%u dg%u l%d s%d %llu '%s' %s\n",
			        op_names[op], mode, k, st, after.vds[i].id, after.vds[i].dg,
			        after.vds[i].level, after.vds[i].state,
			        (unsigned long long)after.vds[i].bytes, after.vds[i].name,
			        after.vds[i].uuid);
	if (mode == FAULT_OFF) {
		ck_assert_msg(!st, "%s: %s", op_names[op], err.msg);
		*want_new = after;
	} else {
		ck_assert_msg(same_list(&after, &before, &before) ||
		                  same_list(&after, want_new, &before),
		              "%s, fault %d at write %lu: %zu VDs, neither the old %zu nor the "
		              "new %zu",
		              op_names[op], mode, k, after.count, before.count, want_new->count);
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
		ck_assert_msg(!apply(ctx, op, &err), "%s, fault %d at %lu: again: %s", op_names[op],
		              mode, k, err.msg);
		list_vds(ctx, &after);
		ck_assert_msg(same_list(&after, want_new, &before), "%s again: not the new list",
		              op_names[op]);
	}
	ck_assert_msg(!create(ctx, RCL_RAID1, op == OP_DELETE_GROUP ? r1 : next, 2, 0, &err),
	              "%s, fault %d at %lu: next: %s", op_names[op], mode, k, err.msg);
	list_vds(ctx, &then);
	ck_assert_uint_eq(then.count, after.count + 1);
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
	return writes;
}

static void every_write(enum fault_mode mode)
{
	for (enum op op = 0; op < OPS; op++) {
		struct vd_list want;
		unsigned long total = run_once(op, FAULT_OFF, 0, &want);

		ck_assert_uint_gt(total, 0);
		printf("%s: %lu writes\n", op_names[op], total);
		for (unsigned long k = 0; k <= total; k++)
			run_once(op, mode, k, &want);
	}
}

START_TEST(test_crash_after_every_write)
{
	every_write(FAULT_CRASH);
}
END_TEST

START_TEST(test_unsynced_lost_after_every_write)
{
	every_write(FAULT_UNSYNCED);
}
END_TEST

START_TEST(test_eio_at_every_write)
{
	every_write(FAULT_EIO);
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
