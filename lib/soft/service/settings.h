/* SPDX-License-Identifier: MIT */
/*
 * settings.h - in the controller process: a controller's background task
 * settings (StorCLI's rebuildrate, ccrate, bgirate, prrate and reconrate,
 * 0-100, default 30, and the rebuild priority, PERC's "rebuild first" or
 * "host I/O first"), as its tasks take them, and the saving of its task
 * records. The settings and the records are the soft backend's files
 * (soft/tasks/schedule.h); the CLI changes them through
 * rcl_ctrl_settings_set() under the controller's exclusive lock, and the
 * process reads them when it starts a task or a command ran.
 */
#ifndef RCL_SERVER_SETTINGS_H
#define RCL_SERVER_SETTINGS_H

#include <json-c/json.h>

#include "internal.h"

/*
 * task_record_save() - write @root as controller @id's record <suffix>
 * (the process's own); a failure is logged, naming @what ("the patrol
 * read"), as the task goes on with its record lagging. @root is put.
 */
void task_record_save(unsigned id, const char *suffix, json_object *root, const char *what);

/*
 * settings_pace() - in the process: the rate of @rate's tasks (a rate
 * setting) and whether host I/O comes first.
 */
void settings_pace(unsigned id, enum rcl_setting rate, unsigned *out, bool *host_first);

/*
 * rcl_soft_schedule_status() - the backend's schedule_status op
 * (lib/backend.h): the patrol read and scheduled check of @ctrl, from the
 * running process's view, else from the task records.
 */
enum rcl_status rcl_soft_schedule_status(struct rcl_ctrl *ctrl, struct rcl_schedule_status *out,
                                         struct rcl_error *err);

#endif /* RCL_SERVER_SETTINGS_H */
