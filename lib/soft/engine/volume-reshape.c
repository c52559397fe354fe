// SPDX-License-Identifier: MIT
/*
 * volume-reshape.c - serving a VD while it migrates (migrate.h): data
 * below the reshape's boundary is in the new geometry, which the volume
 * itself serves; the rest is in the old one, served by a second volume
 * opened on the old array (without a write-intent bitmap: the bitmap
 * area belongs to the new array).
 *
 * Each copy step runs with the volume's lock write-held, so no request
 * runs while rows move and the boundary changes; reshape.h's rule (a
 * step touches only data in [boundary, next)) is thus kept trivially,
 * at the price of pausing requests for one step (a few MiB). The old
 * volume's stripe cache is flushed first: the copy reads the members.
 *
 * A member an I/O error fails (in a step, or in a request to either
 * volume) is out of use in both volumes, and the steps go on without it
 * while both layouts survive its loss (rcl_soft_reshape_survives()).
 */
#include <errno.h>
#include <string.h>

#include "soft/tasks/migrate.h"
#include "volume-private.h"

/**
 * struct vol_reshape - a volume's migration.
 * @plan:	the arrays and the copy; @plan.reshape.fd are the volume's.
 * @marks:	the checkpoint writer.
 * @mark:	the last checkpoint saved.
 * @old:	the old array's volume: serves from @boundary on.
 * @boundary:	VD data below it is in the new geometry.
 */
struct vol_reshape {
	struct rcl_soft_migration_plan plan;
	struct rcl_soft_migration_marks marks;
	struct rcl_soft_reshape_mark mark;
	struct rcl_soft_volume *old;
	uint64_t boundary;
};

enum rcl_status rcl_soft_vol_reshape_plan(struct rcl_soft_volume *vol, const struct rcl_soft_dg *dg,
                                          const struct rcl_soft_vd *vd, struct rcl_error *err)
{
	struct vol_reshape *rs = rcl_calloc(1, sizeof(*rs));
	enum rcl_status st;

	if (!rs)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	vol->reshape = rs;
	st = rcl_soft_migration_plan(dg, vd, vol->sector_size, &rs->plan, err);
	if (st)
		return st;
	vol->geo = rs->plan.to;
	/* The VD keeps its capacity until the migration ends. */
	vol->geo.bytes = vd->bytes;
	return RCL_OK;
}

/* @state with VD @vd's group as it was before the migration, in a new copy (NULL: no memory). */
static struct rcl_soft_state *old_state(const struct rcl_soft_state *state, unsigned vd)
{
	struct rcl_soft_state *copy = rcl_malloc(sizeof(*copy));

	if (!copy)
		return NULL;
	*copy = *state;
	for (size_t v = 0; v < copy->cfg.vd_count; v++) {
		struct rcl_soft_vd *one = &copy->cfg.vds[v];
		struct rcl_soft_dg *dg = rcl_soft_config_dg_mut(&copy->cfg, one->dg);

		if (one->id == vd && dg)
			rcl_soft_migration_old(dg, one, dg, one);
	}
	return copy;
}

/* The old array's volume: @state with the group as it was. */
static enum rcl_status open_old(struct rcl_soft_volume *vol, const struct rcl_soft_state *state,
                                struct rcl_error *err)
{
	struct rcl_soft_state *copy = old_state(state, vol->vd);
	/* Its requests come through @vol's, which wait for the records themselves. */
	struct rcl_soft_volume_owner owner = {vol->owner.failed, vol->owner.ctx, false};
	enum rcl_status st =
	    copy ? rcl_soft_vol_open(copy, vol->vd, &owner, false, &vol->reshape->old, err)
	         : rcl_fail(err, RCL_NOMEM, "out of memory");

	rcl_free(copy);
	return st;
}

enum rcl_status rcl_soft_vol_reshape_update(struct rcl_soft_volume *vol,
                                            const struct rcl_soft_state *state,
                                            struct rcl_error *err)
{
	struct rcl_soft_state *copy = old_state(state, vol->vd);
	enum rcl_status st = copy ? rcl_soft_volume_update(vol->reshape->old, copy, err)
	                          : rcl_fail(err, RCL_NOMEM, "out of memory");

	rcl_free(copy);
	return st;
}

/*
 * The copy's member I/O error on @member: the member is failed, in both
 * arrays' volumes (the owner is told once), and the step is tried again
 * without it.
 */
static void reshape_failed(void *ctx, unsigned member, int error)
{
	struct rcl_soft_volume *vol = ctx;
	bool kept = member < vol->member_count;

	if (kept)
		rcl_soft_vol_fail(vol, member, error, true);
	/* A member being removed is the old array's only: the owner hears of it there. */
	if (member < vol->reshape->old->member_count)
		rcl_soft_vol_fail(vol->reshape->old, member, error, !kept);
}

/*
 * Give the copy and its checkpoints the members in use: the new array's,
 * and those a removal drops, which only the old array's volume has.
 * Return: how many.
 */
static unsigned take_members(struct rcl_soft_volume *vol)
{
	struct vol_reshape *rs = vol->reshape;
	unsigned used = 0;

	for (unsigned i = 0; i < rs->plan.reshape.to.n || i < rs->plan.reshape.from.n; i++) {
		struct rcl_soft_volume *in = i < rs->plan.reshape.to.n ? vol : rs->old;
		bool usable = rcl_soft_vol_usable(in, i, UINT64_MAX);

		rs->plan.reshape.fd[i] = rs->marks.fd[i] = usable ? in->members[i].fd : -1;
		used += usable;
	}
	return used;
}

/*
 * One step with the members in use. A member an I/O error fails is out
 * of use once the step returns: the step is done again without it, from
 * the last checkpoint saved, as long as both arrays survive its loss.
 * Return: as rcl_soft_reshape_step(); -ENXIO when they do not survive.
 */
static int step(struct rcl_soft_volume *vol)
{
	struct vol_reshape *rs = vol->reshape;
	unsigned used;
	int e;

	do {
		used = take_members(vol);
		if (!rcl_soft_reshape_survives(&rs->plan.reshape))
			return -ENXIO;
		e = rcl_soft_reshape_step(&rs->plan.reshape, &rs->mark);
	} while (e < 0 && take_members(vol) < used);
	return e;
}

enum rcl_status rcl_soft_vol_reshape_resume(struct rcl_soft_volume *vol,
                                            const struct rcl_soft_state *state,
                                            struct rcl_error *err)
{
	struct vol_reshape *rs = vol->reshape;
	enum rcl_status st;
	int e = 0;

	rs->plan.reshape.save = rcl_soft_migration_save;
	rs->plan.reshape.ctx = &rs->marks;
	rs->plan.reshape.failed = reshape_failed;
	rs->plan.reshape.failed_ctx = vol;
	/* First: the members a removal drops are the old array's volume's. */
	st = open_old(vol, state, err);
	if (st)
		return st;
	take_members(vol);
	if (!rcl_soft_reshape_survives(&rs->plan.reshape))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "virtual drive /v%u is migrating and has lost more drives than "
		                "its old or new RAID level survives",
		                vol->vd);
	st = rcl_soft_migration_marks_open(&rs->marks, &rs->plan, rs->plan.reshape.fd, &rs->mark,
	                                   err);
	/* Rows a crash left in the backup are completed before any request. */
	if (!st && rs->mark.backup_rows)
		e = step(vol);
	if (e < 0)
		return rcl_fail(err, RCL_SYSTEM,
		                "cannot complete the rows of /v%u's migration in its backup: %s",
		                vol->vd, strerror(-e));
	rs->boundary = rcl_soft_reshape_boundary(&rs->plan.reshape, &rs->mark);
	return st;
}

void rcl_soft_vol_reshape_close(struct rcl_soft_volume *vol)
{
	struct vol_reshape *rs = vol->reshape;

	if (!rs)
		return;
	rcl_soft_volume_close(rs->old);
	rcl_soft_migration_marks_close(&rs->marks);
	rcl_free(rs);
	vol->reshape = NULL;
}

const struct rcl_soft_volume *rcl_soft_vol_reshape_source(const struct rcl_soft_volume *vol)
{
	return vol->reshape->old;
}

size_t rcl_soft_vol_reshape_below(const struct rcl_soft_volume *vol, size_t len, uint64_t off)
{
	uint64_t b = vol->reshape->boundary;

	return off >= b ? 0 : len < b - off ? len : (size_t)(b - off);
}

int rcl_soft_vol_reshape_old(struct rcl_soft_volume *vol, bool write, uint8_t *buf, bool step,
                             size_t len, uint64_t off, unsigned flags)
{
	struct rcl_soft_volume *old = vol->reshape->old;

	if (!write)
		return rcl_soft_volume_read(old, buf, len, off);
	return step ? rcl_soft_volume_write(old, buf, len, off, flags)
	            : rcl_soft_volume_zero(old, len, off, flags);
}

int rcl_soft_volume_migrate_step(struct rcl_soft_volume *vol, uint64_t *done, uint64_t *total)
{
	struct vol_reshape *rs;
	int e;

	pthread_rwlock_wrlock(&vol->lock);
	rs = vol->reshape;
	e = !rs ? -EINVAL : rcl_soft_volume_flush(rs->old) < 0 ? -EIO : step(vol);
	/* After a failure the last checkpoint saved stands, and the boundary with it. */
	if (rs && !rs->mark.backup_rows)
		rs->boundary = rcl_soft_reshape_boundary(&rs->plan.reshape, &rs->mark);
	if (rs) {
		*done = rs->mark.position;
		*total = rs->plan.reshape.rows;
	}
	pthread_rwlock_unlock(&vol->lock);
	return e;
}
