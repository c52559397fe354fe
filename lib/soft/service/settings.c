// SPDX-License-Identifier: MIT
/*
 * settings.c - a controller's background task settings and task records
 * in its controller process (see settings.h).
 */
#include <limits.h>

#include "internal.h"
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
