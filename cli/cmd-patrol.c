// SPDX-License-Identifier: MIT
/*
 * cmd-patrol.c - the patrol read commands of a controller: show, start,
 * stop, pause and resume (server/patrol.h runs it in the controller
 * process; "set patrolread=" is cmd-ctrl.c's), and "show cc", the
 * scheduled consistency check's (server/cc-schedule.h; "set cc=" is
 * cmd-ctrl.c's).
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

static enum rcl_status control(struct cmd_ctx *c, enum rebuild_action action, const char *done,
                               struct rcl_error *err)
{
	enum rcl_status st = patrol_control(c->ctrl, action, err);

	if (!st)
		rcl_result_describe(c->res, "%s", done);
	return st;
}

enum rcl_status cmd_ctrl_start_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return control(c, REBUILD_START, "Start PR Succeeded.", err);
}

enum rcl_status cmd_ctrl_check_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return patrol_check_start(c->lib, c->ctrl, err);
}

enum rcl_status cmd_ctrl_stop_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return control(c, REBUILD_STOP, "Stop PR Succeeded.", err);
}

enum rcl_status cmd_ctrl_pause_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return control(c, REBUILD_PAUSE, "Pause PR Succeeded.", err);
}

enum rcl_status cmd_ctrl_resume_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	return control(c, REBUILD_RESUME, "Resume PR Succeeded.", err);
}
