// SPDX-License-Identifier: MIT
/*
 * task.c - background tasks whatever the backend: each call refuses a
 * task the controller's kind does not run, a drive or VD that is not
 * there, and an overwrite of a drive whose data is not its own, in the same
 * words for every backend, before the backend is asked.
 */
#include <string.h>

#include "internal.h"

/* Whether a task of @kind runs on a drive (else on a VD, or on the controller). */
static bool on_drive(enum rcl_task_kind kind)
{
	return kind == RCL_TASK_REBUILD || kind == RCL_TASK_ERASE || kind == RCL_TASK_SELF_TEST ||
	       kind == RCL_TASK_DRIVE_INIT;
}

static bool on_vd(enum rcl_task_kind kind)
{
	return kind == RCL_TASK_CC || kind == RCL_TASK_INIT || kind == RCL_TASK_BGI ||
	       kind == RCL_TASK_MIGRATE || kind == RCL_TASK_VD_ERASE;
}

unsigned rcl_erase_passes(enum rcl_erase_mode mode)
{
	return mode == RCL_ERASE_SIMPLE     ? 1
	       : mode == RCL_ERASE_NORMAL   ? 3
	       : mode == RCL_ERASE_THOROUGH ? 9
	                                    : 0;
}

uint8_t rcl_erase_pattern(const struct rcl_erase *e, unsigned pass)
{
	/* A, B, A: a normal pass's three, which a thorough one repeats. */
	return pass % 3 == 1 ? e->pattern_b : e->pattern_a;
}

/*
 * What every call checks: a kind of task the controller runs (@has_op: its
 * backend has the operation called), and a target that exists.
 */
static enum rcl_status check_request(const struct rcl_ctrl *ctrl,
                                     const struct rcl_task_request *req, bool has_op,
                                     struct rcl_error *err)
{
	unsigned kind = req->kind;

	if (!has_op || kind >= RCL_TASK_KIND_COUNT || kind == RCL_TASK_NONE ||
	    !(ctrl->caps.tasks & (1u << kind)))
		return rcl_unsupported(err, ctrl->caps.kind, rcl_task_kind_name(req->kind), NULL);
	if (on_drive(req->kind) && !rcl_ctrl_find_drive(ctrl, &req->drive))
		return rcl_fail(err, RCL_NOT_FOUND, "drive %u:%u not found on /c%u",
		                req->drive.enclosure, req->drive.slot, ctrl->entry.id);
	if (on_vd(req->kind) && !rcl_ctrl_vd_by_id(ctrl, req->vd))
		return rcl_fail(err, RCL_NOT_FOUND, "/c%u/v%u does not exist", ctrl->entry.id,
		                req->vd);
	return RCL_OK;
}

/*
 * StorCLI's refusal of a VD erase while the VD is exported, but with force:
 * the clients would read the patterns over their data.
 */
static enum rcl_status check_erase_export(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                          struct rcl_error *err)
{
	struct rcl_export_info *list = NULL;
	size_t n = 0;
	enum rcl_status st;

	if (req->kind != RCL_TASK_VD_ERASE || req->action != RCL_TASK_ACTION_START || req->force ||
	    !ctrl->caps.exports)
		return RCL_OK;
	st = rcl_ctrl_exports(ctrl, &req->vd, 1, &list, &n, err);
	if (!st && n)
		st = rcl_fail(err, RCL_NEED_FORCE,
		              "/c%u/v%u is exported as '%s': an erase overwrites the data its "
		              "clients read; stop the export first (raidcli /c%u/v%u stop export), "
		              "or repeat with 'force'",
		              ctrl->entry.id, req->vd, list[0].name, ctrl->entry.id, req->vd);
	rcl_free(list);
	return st;
}

/*
 * A drive's erase or initialization, started: it overwrites the whole
 * drive, so the rules of every destructive drive action apply.
 */
static enum rcl_status check_drive_overwrite(const struct rcl_ctrl *ctrl,
                                             const struct rcl_task_request *req,
                                             struct rcl_error *err)
{
	bool init = req->kind == RCL_TASK_DRIVE_INIT;

	if ((req->kind != RCL_TASK_ERASE && !init) || req->action != RCL_TASK_ACTION_START)
		return RCL_OK;
	return rcl_drive_check_destroy(ctrl, &req->drive, init ? "initializing" : "erasing",
	                               "destroys every block of", false, req->force, err);
}

/* The drive @ref names, when it is a member of group @dg. */
static bool member_of(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref, unsigned dg)
{
	const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, ref);

	return d && d->dg == (int)dg && d->state != RCL_PD_DHS;
}

/* What group @dg's VDs hold: the room the remaining members must give. */
static uint64_t group_bytes(const struct rcl_ctrl *ctrl, unsigned dg)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < ctrl->vd_count; i++)
		if (ctrl->vds[i].dg == dg)
			sum += ctrl->vds[i].bytes;
	return sum;
}

/*
 * StorCLI's refusals of "start migrate option=remove": a mirrored or
 * spanned VD, a drive that is not a member (or named twice), fewer drives
 * left than @req's level needs, and data that the drives left cannot hold
 * (StorCLI asks for the VD to shrink first). Whatever the backend.
 */
static enum rcl_status check_remove(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err)
{
	const struct rcl_vd *vd = rcl_ctrl_vd_by_id(ctrl, req->vd);
	const struct rcl_dg *dg = vd ? rcl_ctrl_dg_by_id(ctrl, vd->dg) : NULL;
	unsigned n, left;
	uint64_t room;

	if (req->kind != RCL_TASK_MIGRATE || req->action != RCL_TASK_ACTION_START || !req->remove ||
	    !dg)
		return RCL_OK;
	n = vd->spans * vd->drives_per_span;
	if (vd->level == RCL_RAID1 || vd->spans > 1 || rcl_raid_span_level(vd->level) != vd->level)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "drives cannot be removed from /v%u: it is a %s, whose %s", vd->id,
		                rcl_raid_level_name(vd->level),
		                vd->level == RCL_RAID1 ? "two drives mirror each other"
		                                       : "spans must keep their drives");
	for (size_t i = 0; i < req->drive_count; i++) {
		if (!member_of(ctrl, &req->drives[i], vd->dg))
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "drive %u:%u is not a member of /v%u's drive group %u",
			                req->drives[i].enclosure, req->drives[i].slot, vd->id,
			                vd->dg);
		for (size_t j = 0; j < i; j++)
			if (req->drives[j].enclosure == req->drives[i].enclosure &&
			    req->drives[j].slot == req->drives[i].slot)
				return rcl_fail(err, RCL_INVALID_PARAM,
				                "drive %u:%u is named twice",
				                req->drives[i].enclosure, req->drives[i].slot);
	}
	left = req->drive_count < n ? n - (unsigned)req->drive_count : 0;
	if (left < rcl_raid_min_drives(req->level))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "removing %zu of /v%u's %u drives leaves %u: %s needs at least %u",
		                req->drive_count, vd->id, n, left, rcl_raid_level_name(req->level),
		                rcl_raid_min_drives(req->level));
	room = dg->member_bytes * rcl_raid_span_data_drives(req->level, left);
	if (group_bytes(ctrl, vd->dg) > room)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "the %llu MiB of drive group %u's virtual drives do not fit on the "
		                "%u drives left as %s (%llu MiB): shrink the virtual drives, or "
		                "remove fewer drives",
		                (unsigned long long)(group_bytes(ctrl, vd->dg) >> 20), vd->dg, left,
		                rcl_raid_level_name(req->level), (unsigned long long)(room >> 20));
	return RCL_OK;
}

/* What refuses a START of @req whatever the backend, the target found. */
static enum rcl_status check_start(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                   struct rcl_error *err)
{
	enum rcl_status st = check_drive_overwrite(ctrl, req, err);

	if (!st)
		st = check_erase_export(ctrl, req, err);
	return st ? st : check_remove(ctrl, req, err);
}

enum rcl_status rcl_ctrl_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err)
{
	const struct rcl_backend_ops *ops = ctrl->entry.ops;
	struct rcl_task_request start = *req;
	enum rcl_status st = check_request(ctrl, req, ops->task_check != NULL, err);

	start.action = RCL_TASK_ACTION_START;
	if (!st)
		st = check_start(ctrl, &start, err);
	return st ? st : ops->task_check(ctrl, req, err);
}

enum rcl_status rcl_ctrl_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err)
{
	const struct rcl_backend_ops *ops = ctrl->entry.ops;
	enum rcl_status st = check_request(ctrl, req, ops->task != NULL, err);

	if (!st)
		st = check_start(ctrl, req, err);
	return st ? st : ops->task(ctrl, req, err);
}

enum rcl_status rcl_ctrl_task_progress(const struct rcl_ctrl *ctrl,
                                       const struct rcl_task_request *req,
                                       struct rcl_task_progress *out, struct rcl_error *err)
{
	const struct rcl_backend_ops *ops = ctrl->entry.ops;
	enum rcl_status st = check_request(ctrl, req, ops->task_progress != NULL, err);

	*out = (struct rcl_task_progress){.kind = req->kind,
	                                  .percent = -1,
	                                  .elapsed = -1,
	                                  .remaining = -1,
	                                  .vd = -1,
	                                  .vd_percent = -1};
	return st ? st : ops->task_progress(ctrl, req, out, err);
}

/* Whether @action fits a task that stands as @now. */
static bool task_fits(enum rcl_task_action action, enum rcl_task_now now)
{
	switch (action) {
	case RCL_TASK_ACTION_START:
		return now == RCL_TASK_NOW_NONE;
	case RCL_TASK_ACTION_STOP:
		return now != RCL_TASK_NOW_NONE;
	case RCL_TASK_ACTION_PAUSE:
		return now == RCL_TASK_NOW_RUNNING || now == RCL_TASK_NOW_UNDER_WAY;
	case RCL_TASK_ACTION_RESUME:
		return now == RCL_TASK_NOW_PAUSED || now == RCL_TASK_NOW_UNDER_WAY;
	}
	return false;
}

/* What a task that stands as @now is, said where @action does not fit it. */
static const char *refused_as(enum rcl_task_action action, enum rcl_task_now now)
{
	if (now == RCL_TASK_NOW_NONE)
		return action == RCL_TASK_ACTION_RESUME ? "paused" : "in progress";
	if (action == RCL_TASK_ACTION_PAUSE)
		return "paused already";
	return action == RCL_TASK_ACTION_RESUME ? "not paused" : "in progress already";
}

/*
 * The soft kind's words (lib/soft/service/tasks.c and patrol.c): a VD's
 * task "no consistency check of /c0/v1 is in progress", "the consistency
 * check of /c0/v1 is paused already"; a drive's "the rebuild of
 * /c0/e252/s1 is not in progress"; the controller's "/c0: no patrol read is
 * in progress", "/c0: the patrol read is not paused". A START names "a"
 * task in progress already, as the VD's and controller's tasks can be one
 * of many.
 */
enum rcl_status rcl_task_refuse(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                enum rcl_task_now now, struct rcl_error *err)
{
	const char *name = rcl_task_kind_name(req->kind), *as = refused_as(req->action, now);
	const char *the = req->action != RCL_TASK_ACTION_START ? "the"
	                  : strchr("aeiou", name[0])           ? "an"
	                                                       : "a";
	unsigned id = ctrl->entry.id;

	if (task_fits(req->action, now))
		return RCL_OK;
	if (on_drive(req->kind))
		return rcl_fail(err, RCL_NOT_ALLOWED, "the %s of /c%u/e%u/s%u is %s%s", name, id,
		                req->drive.enclosure, req->drive.slot,
		                now == RCL_TASK_NOW_NONE ? "not " : "", as);
	if (now == RCL_TASK_NOW_NONE)
		return on_vd(req->kind)
		           ? rcl_fail(err, RCL_NOT_ALLOWED, "no %s of /c%u/v%u is %s", name, id,
		                      req->vd, as)
		           : rcl_fail(err, RCL_NOT_ALLOWED, "/c%u: no %s is %s", id, name, as);
	return on_vd(req->kind)
	           ? rcl_fail(err, RCL_NOT_ALLOWED, "%s %s of /c%u/v%u is %s", the, name, id,
	                      req->vd, as)
	           : rcl_fail(err, RCL_NOT_ALLOWED, "/c%u: %s %s is %s", id, the, name, as);
}
