// SPDX-License-Identifier: MIT
/*
 * action.c - requests that change something, followed to their end: 201,
 * 204, or 202 and a task monitor polled (with a bound) until the task is
 * over; PATCH with If-Match.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "redfish/action.h"
#include "redfish/client.h"
#include "redfish/json.h"
#include "redfish/message.h"

/* TaskState values that mean the task failed (Redfish Task schema). */
static const char *const failed_states[] = {"Exception", "Killed", "Cancelled"};
/* ... and those that mean it is over. */
static const char *const ended_states[] = {"Completed", "Exception", "Killed", "Cancelled"};

static bool among(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s && !strcmp(s, list[i]))
			return true;
	return false;
}

/* The TaskState of @body if it is a Task, else NULL. */
static const char *task_state(json_object *body)
{
	json_object *v;

	if (!json_object_object_get_ex(body, "TaskState", &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static void sleep_ms(long ms)
{
	struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

	while (nanosleep(&t, &t))
		;
}

/*
 * The wait before the next poll after @resp: the service's Retry-After may
 * make it longer than @interval (up to the cap), never shorter: a service
 * saying 0 would otherwise be polled in a tight loop.
 */
static long next_wait(const struct rcl_redfish_response *resp, long interval)
{
	long wait = resp->retry_after > interval / 1000 ? resp->retry_after * 1000 : interval;

	return wait < RCL_REDFISH_POLL_CAP_MS ? wait : RCL_REDFISH_POLL_CAP_MS;
}

/* The failure of task @monitor, which ended in @state, from its Messages[]. */
static enum rcl_status task_failed(struct rcl_redfish_client *c, const char *monitor,
                                   const char *state, json_object *body, struct rcl_error *err)
{
	char shown[RCL_QUOTE_MAX + 1];
	struct rcl_buf sb = RCL_BUF_INIT;
	json_object *messages = NULL;

	json_object_object_get_ex(body, "Messages", &messages);
	if (!rcl_redfish_add_messages(&sb, messages))
		rcl_buf_adds(&sb, "the service gave no reason");
	rcl_redfish_clean(monitor, shown, sizeof(shown));
	rcl_fail(err, sb.oom ? RCL_NOMEM : RCL_NOT_ALLOWED, "the task '%s' on '%s' ended in %s: %s",
	         shown, rcl_redfish_client_host(c), state, sb.oom ? "(out of memory)" : sb.buf);
	rcl_buf_release(&sb);
	return sb.oom ? RCL_NOMEM : RCL_NOT_ALLOWED;
}

/* Follow task monitor @monitor until the task ends; @out holds the last answer. */
static enum rcl_status follow_task(struct rcl_redfish_client *c, const char *monitor,
                                   const struct rcl_redfish_poll *poll,
                                   struct rcl_redfish_response *out, struct rcl_error *err)
{
	long interval =
	    poll && poll->interval_ms ? poll->interval_ms : RCL_REDFISH_POLL_INTERVAL_MS;
	long max = poll && poll->max_ms ? poll->max_ms : RCL_REDFISH_POLL_MAX_MS;
	uint64_t deadline = rcl_redfish_now_ms() + (uint64_t)max;
	char shown[RCL_QUOTE_MAX + 1];

	rcl_redfish_clean(monitor, shown, sizeof(shown));
	for (;;) {
		enum rcl_status status;
		const char *state;

		if (rcl_redfish_now_ms() + (uint64_t)next_wait(out, interval) > deadline)
			return rcl_fail(err, RCL_BUSY,
			                "the task '%s' on '%s' still runs after %ld s; it goes on "
			                "on the BMC",
			                shown, rcl_redfish_client_host(c), max / 1000);
		sleep_ms(next_wait(out, interval));
		status = rcl_redfish_get(c, monitor, out, err);
		if (status)
			return status;
		state = task_state(out->body);
		if (among(state, failed_states, 3))
			return task_failed(c, monitor, state, out->body, err);
		if (out->status != 202 && (!state || among(state, ended_states, 4)))
			return RCL_OK;
	}
}

enum rcl_status rcl_redfish_submit(struct rcl_redfish_client *c, enum rcl_redfish_method method,
                                   const char *path, const char *body, const char *if_match,
                                   const struct rcl_redfish_poll *poll,
                                   struct rcl_redfish_response *out, struct rcl_error *err)
{
	enum rcl_status status = rcl_redfish_request(c, method, path, body, if_match, out, err);
	char shown[RCL_QUOTE_MAX + 1], *monitor;

	if (status || out->status != 202)
		return status;
	if (!out->location) {
		rcl_redfish_clean(path, shown, sizeof(shown));
		return rcl_fail(err, RCL_BAD_REPLY,
		                "'%s' accepted %s '%s' as a task (202) but named no task monitor",
		                rcl_redfish_client_host(c), rcl_redfish_method_name(method), shown);
	}
	/* The monitor's answers replace @out: keep its URI. */
	monitor = rcl_strdup(out->location);
	if (!monitor)
		return rcl_fail(err, RCL_NOMEM, "out of memory following a task");
	status = follow_task(c, monitor, poll, out, err);
	rcl_free(monitor);
	return status;
}

enum rcl_status rcl_redfish_patch(struct rcl_redfish_client *c, const char *path, const char *etag,
                                  const char *body, const struct rcl_redfish_poll *poll,
                                  struct rcl_redfish_response *out, struct rcl_error *err)
{
	struct rcl_redfish_response current = {.retry_after = -1};
	enum rcl_status status;

	if (!etag) {
		status = rcl_redfish_get(c, path, &current, err);
		if (status) {
			rcl_redfish_response_release(&current);
			return status;
		}
		etag = current.etag;
	}
	status = rcl_redfish_submit(c, RCL_REDFISH_PATCH, path, body, etag, poll, out, err);
	rcl_redfish_response_release(&current);
	return status;
}

void rcl_redfish_add(json_object *obj, const char *key, json_object *value, bool *oom)
{
	if (!obj || !value || json_object_object_add(obj, key, value)) {
		json_object_put(value);
		*oom = true;
	}
}

/* The text of request body @obj (borrowed from it), or NULL: RCL_NOMEM in @err. */
static const char *body_text(json_object *obj, bool oom, struct rcl_error *err)
{
	const char *text = oom ? NULL : json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN);

	if (!text)
		rcl_fail(err, RCL_NOMEM, "out of memory building a Redfish request");
	return text;
}

enum rcl_status rcl_redfish_submit_body(struct rcl_redfish_client *c,
                                        enum rcl_redfish_method method, const char *path,
                                        json_object *body, bool oom, const char *if_match,
                                        const struct rcl_redfish_poll *poll,
                                        struct rcl_redfish_response *out, struct rcl_error *err)
{
	const char *text = body_text(body, oom, err);
	enum rcl_status status =
	    text ? rcl_redfish_submit(c, method, path, text, if_match, poll, out, err) : RCL_NOMEM;

	json_object_put(body);
	return status;
}

/* The target URI of action @action of resource @res (read from @where), borrowed from @res. */
static enum rcl_status action_target(json_object *res, const char *action, const char *where,
                                     const char **target, struct rcl_error *err)
{
	json_object *actions = NULL, *entry = NULL;
	enum rcl_status status;
	char shown[RCL_QUOTE_MAX + 1];

	*target = NULL;
	status = rcl_redfish_member(res, "Actions", json_type_object, true, where, &actions, err);
	if (!status && actions)
		status =
		    rcl_redfish_member(actions, action, json_type_object, true, where, &entry, err);
	if (status)
		return status;
	if (!actions || !entry) {
		char what[RCL_QUOTE_MAX + 64];

		rcl_redfish_clean(where, shown, sizeof(shown));
		snprintf(what, sizeof(what), "%s on '%s'", action, shown);
		return rcl_unsupported(err, "redfish", what, "its Actions list no such action");
	}
	return rcl_redfish_string(entry, "target", false, where, target, err);
}

enum rcl_status rcl_redfish_action_start(struct rcl_redfish_client *c, json_object *res,
                                         const char *where, const char *action, json_object *body,
                                         bool oom, struct rcl_error *err)
{
	struct rcl_redfish_response resp = {.retry_after = -1};
	const char *target, *text;
	enum rcl_status status = action_target(res, action, where, &target, err);

	/* not rcl_redfish_submit(): a 202 is the start of an operation, not a change to wait for */
	if (!status)
		status =
		    (text = body_text(body, oom, err))
		        ? rcl_redfish_request(c, RCL_REDFISH_POST, target, text, NULL, &resp, err)
		        : RCL_NOMEM;
	json_object_put(body);
	rcl_redfish_response_release(&resp);
	return status;
}
