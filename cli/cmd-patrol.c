// SPDX-License-Identifier: MIT
/*
 * cmd-patrol.c - the patrol read commands of a controller: show, start,
 * stop, pause and resume (rcl_ctrl_task(); a soft controller's runs in
 * its controller process; "set patrolread=" is cmd-ctrl.c's), and "show
 * cc", the scheduled consistency check's (server/cc-schedule.h; "set cc="
 * is cmd-ctrl.c's).
 */
#include "cc-schedule.h"
#include "cli.h"
#include "patrol.h"

enum rcl_status cmd_ctrl_show_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return patrol_show(c->lib, c->ctrl,
	                   rcl_node_add_array(c->res->data, "Controller Properties"), err);
}

enum rcl_status cmd_ctrl_show_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	return cc_schedule_show(c->lib, c->ctrl,
	                        rcl_node_add_array(c->res->data, "Controller Properties"), err);
}

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
