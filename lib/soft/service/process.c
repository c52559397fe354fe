// SPDX-License-Identifier: MIT
/*
 * process.c - the soft controller's process hooks (backend.h's struct
 * rcl_process_ops): how "raidcli /cN serve"'s loop (server/serve.c)
 * reaches the tasks (tasks.h) and the exports (export.h).
 */
#include "export.h"
#include "tasks.h"

static void stop(unsigned id)
{
	tasks_stop_all(id);
	exports_stop_all();
}

const struct rcl_process_ops rcl_soft_process = {
    .start = exports_start_all,
    .poll = tasks_poll,
    .tick = tasks_tick,
    .busy = tasks_busy,
    .after_command = exports_refresh,
    .notified = exports_notified,
    .stop = stop,
};
