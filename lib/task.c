// SPDX-License-Identifier: MIT
/*
 * task.c - background tasks whatever the backend: each call refuses a
 * task the controller's kind does not run, and a drive or VD that is not
 * there, in the same words for every backend, before the backend is asked.
 */
#include "internal.h"

/* Whether a task of @kind runs on a drive (else on a VD, or on the controller). */
static bool on_drive(enum rcl_task_kind kind)
{
	return kind == RCL_TASK_REBUILD || kind == RCL_TASK_ERASE || kind == RCL_TASK_SELF_TEST;
}

static bool on_vd(enum rcl_task_kind kind)
{
	return kind == RCL_TASK_CC || kind == RCL_TASK_INIT || kind == RCL_TASK_BGI ||
	       kind == RCL_TASK_MIGRATE;
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

enum rcl_status rcl_ctrl_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err)
{
	const struct rcl_backend_ops *ops = ctrl->entry.ops;
	enum rcl_status st = check_request(ctrl, req, ops->task_check != NULL, err);

	return st ? st : ops->task_check(ctrl, req, err);
}

enum rcl_status rcl_ctrl_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err)
{
	const struct rcl_backend_ops *ops = ctrl->entry.ops;
	enum rcl_status st = check_request(ctrl, req, ops->task != NULL, err);

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
