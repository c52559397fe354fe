// SPDX-License-Identifier: MIT
/*
 * task-events.c - the background tasks' entries in the controller's event
 * log (see tasks.h: tasks_event()). A task starts or ends where the loop
 * may hold the controller lock shared, or a command holds it: the events
 * wait here and are written at the loop's next tick, under its own lock.
 */
#include <stdarg.h>
#include <stdio.h>

#include "export.h"
#include "service.h"
#include "internal.h"
#include "tasks.h"

/* More than the tasks of one tick can log; past it, the service log still has them. */
#define QUEUE_MAX 64

static struct {
	enum rcl_event_code code;
	char text[RCL_EVENT_DESC_MAX];
} queue[QUEUE_MAX];
static size_t queued;

void tasks_event(enum rcl_event_code code, const char *fmt, ...)
{
	va_list ap;

	if (queued == QUEUE_MAX)
		return;
	queue[queued].code = code;
	va_start(ap, fmt);
	vsnprintf(queue[queued].text, sizeof(queue[queued].text), fmt, ap);
	va_end(ap);
	queued++;
}

void tasks_events_flush(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;

	if (!queued)
		return;
	if (service_open_ctrl(id, RCL_LOCK_EXCLUSIVE, &lib, &ctrl, &err))
		service_log("cannot log the tasks' events: %s", err.msg);
	for (size_t i = 0; ctrl && i < queued; i++)
		if (rcl_event_record(ctrl, queue[i].code, &err, "%s", queue[i].text))
			service_log("event not logged ('%s'): %s", queue[i].text, err.msg);
	queued = 0;
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
}
