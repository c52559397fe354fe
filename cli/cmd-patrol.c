// SPDX-License-Identifier: MIT
/*
 * cmd-patrol.c - the patrol read commands of a controller: start, stop,
 * pause and resume (server/patrol.h runs it in the controller process;
 * "show patrolread" is schedule-rows.c's, "set patrolread=" cmd-ctrl.c's).
 */
#include "cli.h"
#include "patrol.h"

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
