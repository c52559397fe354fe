// SPDX-License-Identifier: MIT
/*
 * cmd-patrol.c - the patrol read commands of a controller: start, stop,
 * pause and resume (rcl_ctrl_task(); a soft controller's runs in its
 * controller process; "show patrolread" is schedule-rows.c's, "set
 * patrolread=" cmd-ctrl.c's).
 */
#include "cli.h"

static enum rcl_status control(struct cmd_ctx *c, enum rcl_task_action action, const char *done,
                               struct rcl_error *err)
{
	struct rcl_task_request req = {.kind = RCL_TASK_PATROL_READ, .action = action};
	enum rcl_status st = rcl_ctrl_task(c->ctrl, &req, err);

	if (!st)
		rcl_result_describe(c->res, "%s", done);
	return st;
}

enum rcl_status cmd_ctrl_start_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return control(c, RCL_TASK_ACTION_START, "Start PR Succeeded.", err);
}

enum rcl_status cmd_ctrl_check_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_task_request req = {.kind = RCL_TASK_PATROL_READ};

	return rcl_ctrl_task_check(c->ctrl, &req, err);
}

enum rcl_status cmd_ctrl_stop_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return control(c, RCL_TASK_ACTION_STOP, "Stop PR Succeeded.", err);
}

enum rcl_status cmd_ctrl_pause_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return control(c, RCL_TASK_ACTION_PAUSE, "Pause PR Succeeded.", err);
}

enum rcl_status cmd_ctrl_resume_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return control(c, RCL_TASK_ACTION_RESUME, "Resume PR Succeeded.", err);
}
