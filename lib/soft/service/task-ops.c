// SPDX-License-Identifier: MIT
/*
 * task-ops.c - the soft controller's task operations (backend.h): each
 * generic request goes to the code that runs its kind of task in the
 * controller process (tasks.c, migrate.c, patrol.c), and each answers
 * where its task stands as a struct rcl_task_progress for the CLI to show.
 */
#include "erase.h"
#include "internal.h"
#include "migrate.h"
#include "patrol.h"
#include "service.h"
#include "soft/soft.h"
#include "tasks.h"

/* The check, init or BGI of the engine (task.h) that task @kind is. */
static enum rcl_soft_task_kind check_kind(enum rcl_task_kind kind)
{
	return kind == RCL_TASK_INIT  ? RCL_SOFT_TASK_INIT
	       : kind == RCL_TASK_BGI ? RCL_SOFT_TASK_BGI
	                              : RCL_SOFT_TASK_CHECK;
}

enum rcl_status rcl_soft_task_check_op(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       struct rcl_error *err)
{
	switch (req->kind) {
	case RCL_TASK_REBUILD:
		return rebuild_check_start(ctrl, &req->drive, err);
	case RCL_TASK_MIGRATE:
		return migrate_check_start(ctrl, req, err);
	case RCL_TASK_PATROL_READ:
		return patrol_check_start(ctrl->ctx, ctrl, err);
	case RCL_TASK_ERASE:
	case RCL_TASK_DRIVE_INIT:
		return erase_check_start(ctrl, req, err);
	default:
		return RCL_OK; /* the process tells the rest when it runs the command */
	}
}

static enum rcl_status migrate_control(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       struct rcl_error *err)
{
	if (req->action != RCL_TASK_ACTION_START)
		return rcl_unsupported(err, "soft", "stopping, pausing or resuming a migration",
		                       NULL);
	return migrate_start(ctrl, req, err);
}

enum rcl_status rcl_soft_task_op(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                 struct rcl_error *err)
{
	switch (req->kind) {
	case RCL_TASK_REBUILD:
		return rebuild_control(ctrl, &req->drive, req->action, req->force, err);
	case RCL_TASK_CC:
	case RCL_TASK_INIT:
	case RCL_TASK_BGI:
		return check_control(ctrl, req->vd, check_kind(req->kind), req->action, req->repair,
		                     err);
	case RCL_TASK_MIGRATE:
		return migrate_control(ctrl, req, err);
	case RCL_TASK_PATROL_READ:
		return patrol_control(ctrl, req->action, err);
	case RCL_TASK_VD_ERASE:
	case RCL_TASK_ERASE:
	case RCL_TASK_DRIVE_INIT:
		return erase_control(ctrl, req, err);
	default:
		return rcl_unsupported(err, "soft", rcl_task_kind_name(req->kind), NULL);
	}
}

/* A VD's BGI, asked for with want_dirty: whether its parity or copies may disagree. */
static void tell_dirty(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                       struct rcl_task_progress *out)
{
	const struct rcl_vd *vd = rcl_ctrl_vd_by_id(ctrl, req->vd);

	out->dirty = vd && vd_dirty(ctrl, vd);
}

enum rcl_status rcl_soft_task_progress_op(const struct rcl_ctrl *ctrl,
                                          const struct rcl_task_request *req,
                                          struct rcl_task_progress *out, struct rcl_error *err)
{
	(void)err;
	switch (req->kind) {
	case RCL_TASK_REBUILD:
		rebuild_progress(ctrl, &req->drive, out);
		break;
	case RCL_TASK_CC:
	case RCL_TASK_INIT:
	case RCL_TASK_BGI:
		check_progress(ctrl, req->vd, check_kind(req->kind), out);
		break;
	case RCL_TASK_MIGRATE:
		migrate_progress(ctrl, req->vd, out);
		break;
	case RCL_TASK_PATROL_READ:
		patrol_progress(ctrl, out);
		break;
	case RCL_TASK_VD_ERASE:
	case RCL_TASK_ERASE:
	case RCL_TASK_DRIVE_INIT:
		erase_progress(ctrl, req, out);
		break;
	default:
		break;
	}
	if (req->want_dirty && req->kind == RCL_TASK_BGI)
		tell_dirty(ctrl, req, out);
	return RCL_OK;
}
