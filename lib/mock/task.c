// SPDX-License-Identifier: MIT
/*
 * task.c - a mock controller's background tasks, from its state's
 * "tasks" list: [{kind ("rebuild", "cc"... as caps name them), the
 * target (enclosure and slot for a drive's task, vd for a VD's, none for
 * the controller's), state ("running", "paused", "waiting", "halted",
 * "failed"), and optionally percent, elapsed, remaining (seconds), vd and
 * vd_percent}]. A task listed is under way; one not listed is stopped.
 * No engine moves them: a fixture's task stays where it was put, and
 * start, stop, pause and resume only change the list, as a card would
 * answer them.
 */
#include <string.h>

#include "mock/mock.h"

static const char *const state_names[] = {
    [RCL_TASK_STATE_STOPPED] = "stopped", [RCL_TASK_STATE_RUNNING] = "running",
    [RCL_TASK_STATE_PAUSED] = "paused",   [RCL_TASK_STATE_WAITING] = "waiting",
    [RCL_TASK_STATE_HALTED] = "halted",   [RCL_TASK_STATE_FAILED] = "failed",
};

static bool on_drive(enum rcl_task_kind kind)
{
	return kind == RCL_TASK_REBUILD || kind == RCL_TASK_ERASE || kind == RCL_TASK_SELF_TEST ||
	       kind == RCL_TASK_DRIVE_INIT;
}

static bool on_vd(enum rcl_task_kind kind)
{
	return kind == RCL_TASK_CC || kind == RCL_TASK_INIT || kind == RCL_TASK_BGI ||
	       kind == RCL_TASK_MIGRATE || kind == RCL_TASK_VD_ERASE;
}

static int64_t get_int(json_object *obj, const char *key, int64_t dflt)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_int))
		return dflt;
	return json_object_get_int64(v);
}

/* Whether list item @t is @req's task: its kind, on its target. */
static bool is_task(json_object *t, const struct rcl_task_request *req)
{
	json_object *kind;

	if (!json_object_object_get_ex(t, "kind", &kind) ||
	    strcmp(json_object_get_string(kind), rcl_mock_task_names[req->kind]))
		return false;
	if (on_drive(req->kind))
		return get_int(t, "enclosure", -1) == req->drive.enclosure &&
		       get_int(t, "slot", -1) == req->drive.slot;
	return !on_vd(req->kind) || get_int(t, "vd", -1) == req->vd;
}

/* @req's task in @root's "tasks" (its index in *@at), or NULL when none is under way. */
static json_object *find_task(json_object *root, const struct rcl_task_request *req, size_t *at)
{
	json_object *list = json_object_object_get(root, "tasks");

	/* rcl_mock_parse() checked that "tasks", if there, is a list. */
	for (size_t i = 0; list && i < json_object_array_length(list); i++)
		if (is_task(json_object_array_get_idx(list, i), req)) {
			*at = i;
			return json_object_array_get_idx(list, i);
		}
	return NULL;
}

/* The state of task @t, or -1 (a damaged state file, said in @err). */
static int task_state(const struct rcl_ctrl *ctrl, json_object *t, struct rcl_error *err)
{
	const struct mock_priv *p = ctrl->priv;
	json_object *v;

	if (json_object_object_get_ex(t, "state", &v))
		for (int i = RCL_TASK_STATE_RUNNING; i <= RCL_TASK_STATE_FAILED; i++)
			if (!strcmp(json_object_get_string(v), state_names[i]))
				return i;
	rcl_fail(err, RCL_CORRUPT,
	         "mock state '%s': a task's state is not one of running, "
	         "paused, waiting, halted, failed",
	         p->path);
	return -1;
}

enum rcl_status rcl_mock_task_progress(const struct rcl_ctrl *ctrl,
                                       const struct rcl_task_request *req,
                                       struct rcl_task_progress *out, struct rcl_error *err)
{
	const struct mock_priv *p = ctrl->priv;
	size_t at;
	json_object *t = find_task(p->root, req, &at);
	int state = t ? task_state(ctrl, t, err) : RCL_TASK_STATE_STOPPED;

	if (state < 0)
		return err->status;
	out->state = (enum rcl_task_state)state;
	if (!t)
		return RCL_OK;
	out->percent = (int)get_int(t, "percent", -1);
	out->elapsed = (double)get_int(t, "elapsed", -1);
	out->remaining = (double)get_int(t, "remaining", -1);
	out->vd = (int)get_int(t, "vd", -1);
	out->vd_percent = (int)get_int(t, "vd_percent", -1);
	return RCL_OK;
}

enum rcl_status rcl_mock_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err)
{
	const struct mock_priv *p = ctrl->priv;
	size_t at;

	/*
	 * A listed migration changes no VD, so one that removes drives would
	 * look like one that adds them; the soft kind's removal (the last
	 * members by role leave) is not a mock's to copy.
	 */
	if (req->kind == RCL_TASK_MIGRATE && req->remove)
		return rcl_unsupported(err, ctrl->caps.kind, "removing drives (option=remove)",
		                       NULL);
	if (find_task(p->root, req, &at))
		return rcl_fail(err, RCL_NOT_ALLOWED, "a %s is already under way",
		                rcl_task_kind_name(req->kind));
	return RCL_OK;
}

/* A new running task for @req, at 0 %. */
static json_object *new_task(const struct rcl_task_request *req)
{
	json_object *t = json_object_new_object();

	json_object_object_add(t, "kind", json_object_new_string(rcl_mock_task_names[req->kind]));
	if (on_drive(req->kind)) {
		json_object_object_add(t, "enclosure",
		                       json_object_new_int((int)req->drive.enclosure));
		json_object_object_add(t, "slot", json_object_new_int((int)req->drive.slot));
	} else if (on_vd(req->kind)) {
		json_object_object_add(t, "vd", json_object_new_int((int)req->vd));
	}
	json_object_object_add(t, "state", json_object_new_string("running"));
	json_object_object_add(t, "percent", json_object_new_int(0));
	json_object_object_add(t, "elapsed", json_object_new_int(0));
	return t;
}

/* Apply @req to @list, holding the task found at @at (@t, in @state; NULL: none). */
static enum rcl_status apply(json_object *root, const struct rcl_task_request *req, json_object *t,
                             size_t at, int state, struct rcl_error *err)
{
	const char *name = rcl_task_kind_name(req->kind);
	json_object *list = json_object_object_get(root, "tasks");

	switch (req->action) {
	case RCL_TASK_ACTION_START:
		if (!list) {
			list = json_object_new_array();
			json_object_object_add(root, "tasks", list);
		}
		json_object_array_add(list, new_task(req));
		return RCL_OK;
	case RCL_TASK_ACTION_STOP:
		if (!t)
			return rcl_fail(err, RCL_NOT_ALLOWED, "no %s is under way", name);
		json_object_array_del_idx(list, at, 1);
		return RCL_OK;
	case RCL_TASK_ACTION_PAUSE:
		if (state != RCL_TASK_STATE_RUNNING)
			return rcl_fail(err, RCL_NOT_ALLOWED, "no %s is running", name);
		json_object_object_add(t, "state", json_object_new_string("paused"));
		return RCL_OK;
	case RCL_TASK_ACTION_RESUME:
		if (state != RCL_TASK_STATE_PAUSED)
			return rcl_fail(err, RCL_NOT_ALLOWED, "no %s is paused", name);
		json_object_object_add(t, "state", json_object_new_string("running"));
		return RCL_OK;
	}
	return rcl_fail(err, RCL_INVALID_PARAM, "unknown task action %d", req->action);
}

enum rcl_status rcl_mock_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err)
{
	const struct mock_priv *p = ctrl->priv;
	json_object *next = NULL, *t;
	size_t at = 0;
	int state = RCL_TASK_STATE_STOPPED;
	enum rcl_status st = RCL_OK;

	if (req->action == RCL_TASK_ACTION_START)
		st = rcl_mock_task_check(ctrl, req, err);
	if (!st && json_object_deep_copy(p->root, &next, NULL))
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	if (st)
		return st;
	t = find_task(next, req, &at);
	if (t)
		state = task_state(ctrl, t, err);
	st = state < 0 ? err->status : apply(next, req, t, at, state, err);
	if (st) {
		json_object_put(next);
		return st;
	}
	return rcl_mock_commit(ctrl, next, err);
}
