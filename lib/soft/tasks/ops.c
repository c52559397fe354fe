// SPDX-License-Identifier: MIT
/*
 * ops.c - the soft backend's task operations (backend.h): they go to the
 * task control its controller process's code hands over (soft.h's struct
 * rcl_soft_tasks; service/task-ops.c), which libraidcli cannot link.
 */
#include "soft/soft.h"

/* The controller process's task control (rcl_soft_set_tasks()), or NULL. */
static const struct rcl_soft_tasks *soft_tasks;

void rcl_soft_set_tasks(const struct rcl_soft_tasks *tasks)
{
	soft_tasks = tasks;
}

static enum rcl_status no_tasks(const struct rcl_task_request *req, struct rcl_error *err)
{
	return rcl_unsupported(err, "soft", rcl_task_kind_name(req->kind),
	                       "this program has no controller process");
}

enum rcl_status rcl_soft_task_check_op(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       struct rcl_error *err)
{
	return soft_tasks ? soft_tasks->check(ctrl, req, err) : no_tasks(req, err);
}

enum rcl_status rcl_soft_task_op(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                 struct rcl_error *err)
{
	return soft_tasks ? soft_tasks->control(ctrl, req, err) : no_tasks(req, err);
}

enum rcl_status rcl_soft_task_progress_op(const struct rcl_ctrl *ctrl,
                                          const struct rcl_task_request *req,
                                          struct rcl_task_progress *out, struct rcl_error *err)
{
	if (!soft_tasks)
		return no_tasks(req, err);
	soft_tasks->progress(ctrl, req, out);
	return RCL_OK;
}
