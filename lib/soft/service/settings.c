// SPDX-License-Identifier: MIT
/*
 * settings.c - a controller's background task settings and task records
 * in its controller process, and the schedule status the backend reports
 * from that process's view or the records (see settings.h).
 */
#include <limits.h>

#include "cc-schedule.h"
#include "internal.h"
#include "patrol.h"
#include "service.h"
#include "settings.h"
#include "soft/tasks/schedule.h"

void task_record_save(unsigned id, const char *suffix, json_object *root, const char *what)
{
	struct rcl_error err = {0};
	struct rcl_ctx *lib = NULL;
	char path[PATH_MAX];
	enum rcl_status st = service_ctx_new(id, &lib, &err);

	if (!st)
		st = rcl_soft_task_file(lib, id, suffix, path, sizeof(path), &err);
	if (!st)
		st = rcl_soft_task_file_write(lib, path, root, &err);
	if (st)
		service_log("cannot record %s: %s", what, err.msg);
	json_object_put(root);
	rcl_ctx_free(lib);
}

void settings_pace(unsigned id, enum rcl_setting rate, unsigned *out, bool *host_first)
{
	struct rcl_ctrl_settings s;
	struct rcl_error err = {0};
	struct rcl_ctx *lib = NULL;
	enum rcl_status st = service_ctx_new(id, &lib, &err);

	if (!st)
		st = rcl_soft_settings_load(lib, id, &s, &err);
	if (st) {
		service_log("cannot read the task settings (using the defaults): %s", err.msg);
		rcl_soft_settings_defaults(&s);
	}
	rcl_ctx_free(lib);
	*out = s.rate[rate];
	*host_first = rate == RCL_SETTING_REBUILD_RATE && s.host_first;
}

/*
 * The status from the records: a process that runs has its own view
 * (patrol_live_status(), cc_schedule_live_status()), which the records
 * follow only at checkpoints.
 */
enum rcl_status rcl_soft_schedule_status(struct rcl_ctrl *ctrl, struct rcl_schedule_status *out,
                                         struct rcl_error *err)
{
	unsigned id = ctrl->entry.id;
	bool live_pr = patrol_live_status(id, &out->patrol);
	bool live_cc = cc_schedule_live_status(id, &out->cc);
	struct rcl_ctrl_settings s;
	struct rcl_soft_patrol_record pr;
	struct rcl_soft_cc_summary cc;
	enum rcl_status st;

	if (live_pr && live_cc)
		return RCL_OK;
	st = rcl_soft_settings_load(ctrl->ctx, id, &s, err);
	if (!st && !live_pr)
		st = rcl_soft_patrol_record_load(ctrl->ctx, id, &pr, err);
	if (!st && !live_pr)
		rcl_soft_patrol_status(&s, &pr, false, &out->patrol);
	if (!st && !live_cc)
		st = rcl_soft_cc_record_load(ctrl->ctx, id, &cc, NULL, err);
	if (!st && !live_cc)
		rcl_soft_cc_status(&s, &cc, false, &out->cc);
	return st;
}
