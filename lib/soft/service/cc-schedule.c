// SPDX-License-Identifier: MIT
/*
 * cc-schedule.c - the controller process's scheduled consistency check
 * (see cc-schedule.h), on the loop's thread: it starts the checks of
 * tasks.c and watches them end.
 */
#include <stdio.h>
#include <string.h>

#include "cc-schedule.h"
#include "export.h"
#include "internal.h"
#include "service.h"
#include "settings.h"
#include "soft/format/guid.h"
#include "soft/config/scan.h"
#include "soft/tasks/schedule.h"
#include "tasks.h"

#define RECORD_FORMAT 1 /* rcl_soft_task_record_load() checks it */

/**
 * struct cc_record - what the state file keeps.
 * @active:	a run is under way: it goes on when the process starts.
 * @since:	when the last run ended, or the process first saw the schedule on (0: not yet).
 * @iterations:	runs that ended.
 * @completed:	VDs this run (or the last) checked to their end.
 * @todo:	bit n: VD n is yet to be checked to its end in this run.
 * @marks:	the last checkpoints of the checks of @todo under way: a
 *		process killed goes on from them when it starts.
 */
struct cc_record {
	bool active;
	int64_t since;
	uint64_t iterations;
	uint64_t completed;
	uint64_t todo;
	struct cc_mark {
		struct check_mark at;
		/*
		 * Whose check it is (the VD's md array UUID): a VD deleted
		 * while no process ran and made again with its number is
		 * checked from its start, not from the old one's mark.
		 */
		struct rcl_guid vd;
	} marks[RCL_MAX_VDS];
};

/* The process's schedule; @started: VDs of @rec.todo whose check this process started. */
static struct {
	bool loaded;
	struct cc_record rec;
	struct rcl_ctrl_settings settings;
	uint64_t started;
} cc;

static void read_todo(json_object *list, uint64_t *todo)
{
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		int64_t vd = json_object_get_int64(json_object_array_get_idx(list, i));

		if (vd >= 0 && vd < RCL_MAX_VDS)
			*todo |= 1ull << vd;
	}
}

/*
 * The "marks" of @root into @marks: {"vd": 0, "uuid": "<md array UUID>",
 * "position": 1048576, "mismatches": 0} each; one out of range or without
 * a UUID is left out (its VD is checked from its start). None: a record
 * from before them.
 */
static void read_marks(json_object *root, struct cc_mark *marks)
{
	json_object *list;

	if (!json_object_object_get_ex(root, "marks", &list))
		return;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *one = json_object_array_get_idx(list, i);
		uint64_t vd, position, mismatches;
		struct rcl_guid uuid;

		if (rcl_json_get_uint(one, "vd", RCL_MAX_VDS - 1, &vd) &&
		    rcl_json_get_guid(one, "uuid", &uuid) &&
		    rcl_json_get_uint(one, "position", INT64_MAX, &position) &&
		    rcl_json_get_uint(one, "mismatches", INT64_MAX, &mismatches))
			marks[vd] = (struct cc_mark){{position, mismatches}, uuid};
	}
}

/* The record of controller @id into @out (zeroed without one). */
static enum rcl_status record_load(struct rcl_ctx *lib, unsigned id, struct cc_record *out,
                                   struct rcl_error *err)
{
	struct rcl_soft_cc_summary sum;
	json_object *root, *list;
	enum rcl_status st = rcl_soft_cc_record_load(lib, id, &sum, &root, err);

	*out = (struct cc_record){0};
	if (st || !root)
		return st;
	out->active = sum.active;
	out->since = sum.since;
	out->iterations = sum.iterations;
	out->completed = sum.completed;
	json_object_object_get_ex(root, "todo", &list);
	read_todo(list, &out->todo);
	read_marks(root, out->marks);
	json_object_put(root);
	return RCL_OK;
}

static json_object *mark_json(unsigned vd, const struct cc_mark *mark)
{
	json_object *one = json_object_new_object();

	json_object_object_add(one, "vd", json_object_new_int((int)vd));
	rcl_json_add_guid(one, "uuid", mark->vd.b);
	json_object_object_add(one, "position", json_object_new_int64((int64_t)mark->at.position));
	json_object_object_add(one, "mismatches",
	                       json_object_new_int64((int64_t)mark->at.mismatches));
	return one;
}

/* Save @cc.rec; a failure is logged (the schedule goes on, its record lags). */
static void record_save(unsigned id)
{
	const struct cc_record *r = &cc.rec;
	json_object *root = json_object_new_object(), *todo = json_object_new_array();
	json_object *marks = json_object_new_array();

	for (unsigned vd = 0; vd < RCL_MAX_VDS; vd++) {
		if (!(r->todo >> vd & 1))
			continue;
		json_object_array_add(todo, json_object_new_int((int)vd));
		if (r->marks[vd].at.position)
			json_object_array_add(marks, mark_json(vd, &r->marks[vd]));
	}
	json_object_object_add(root, "format", json_object_new_int(RECORD_FORMAT));
	json_object_object_add(root, "active", json_object_new_boolean(r->active));
	json_object_object_add(root, "since", json_object_new_int64(r->since));
	json_object_object_add(root, "iterations", json_object_new_int64((int64_t)r->iterations));
	json_object_object_add(root, "completed", json_object_new_int64((int64_t)r->completed));
	json_object_object_add(root, "todo", todo);
	json_object_object_add(root, "marks", marks);
	task_record_save(id, RCL_SOFT_CC_SUFFIX, root, "the scheduled consistency check");
}

/* ------------------------------------------------------------------------
 * A run. */

/* The run is over (@why: "complete" or "stopped"): record and log it. */
static void end_run(unsigned id, const char *why)
{
	cc.rec.active = false;
	cc.rec.todo = 0;
	cc.started = 0;
	cc.rec.since = rcl_schedule_now();
	if (!strcmp(why, "complete"))
		cc.rec.iterations++;
	service_log("scheduled consistency check %s: %llu VDs checked", why,
	            (unsigned long long)cc.rec.completed);
	tasks_event(RCL_EVENT_CC_SCHEDULE, "Scheduled Consistency Check %s (%llu VDs checked)", why,
	            (unsigned long long)cc.rec.completed);
	record_save(id);
}

static void begin_run(const struct rcl_soft_state *state)
{
	cc.rec.active = true;
	cc.rec.completed = 0;
	cc.rec.todo = 0;
	memset(cc.rec.marks, 0, sizeof(cc.rec.marks));
	cc.started = 0;
	for (size_t v = 0; v < state->cfg.vd_count; v++)
		if (!(cc.settings.cc.exclude >> state->cfg.vds[v].id & 1))
			cc.rec.todo |= 1ull << state->cfg.vds[v].id;
	service_log("scheduled consistency check started (%s)",
	            rcl_cc_mode_name(cc.settings.cc_mode));
	tasks_event(RCL_EVENT_CC_SCHEDULE, "Scheduled Consistency Check started (%s)",
	            rcl_cc_mode_name(cc.settings.cc_mode));
}

/*
 * Start VD @vd's check, where a process killed left it if it did. Return:
 * false when it cannot (it leaves the run; the log says why).
 */
static bool start_vd(struct rcl_ctrl *ctrl, const struct rcl_soft_vd *vd)
{
	struct cc_mark *mark = &cc.rec.marks[vd->id];
	struct rcl_error err = {0};

	if (mark->at.position && memcmp(mark->vd.b, vd->uuid, sizeof(vd->uuid))) {
		service_log("the scheduled consistency check starts v%u from its start: the check "
		            "that stood at byte %llu was of the VD that had its number before",
		            vd->id, (unsigned long long)mark->at.position);
		mark->at = (struct check_mark){0};
	}
	memcpy(mark->vd.b, vd->uuid, sizeof(vd->uuid));
	if (!vd->consistent)
		rcl_fail(&err, RCL_NOT_ALLOWED,
		         "it was never made consistent (its BGI comes first)");
	else
		check_start_at(ctrl, vd->id, &mark->at, &err);
	if (err.status)
		service_log("the scheduled consistency check skips v%u: %s", vd->id, err.msg);
	else if (mark->at.position)
		service_log("the scheduled consistency check goes on with v%u where it stood",
		            vd->id);
	return !err.status;
}

/* Take the last checkpoint of VD @vd's check under way. Return: whether it moved. */
static bool take_mark(unsigned vd)
{
	struct check_mark mark;

	if (!check_checkpoint(vd, &mark) || !memcmp(&mark, &cc.rec.marks[vd].at, sizeof(mark)))
		return false;
	cc.rec.marks[vd].at = mark;
	return true;
}

/*
 * Note the checks that ended and where the others stand; drop the VDs
 * that are gone. Return: whether the run changed.
 */
static bool reap(const struct rcl_soft_state *state)
{
	uint64_t present = 0, before = cc.rec.todo;
	bool moved = false;

	for (size_t v = 0; v < state->cfg.vd_count; v++)
		present |= 1ull << state->cfg.vds[v].id;
	cc.rec.todo &= present;
	cc.started &= present;
	for (unsigned vd = 0; vd < RCL_MAX_VDS; vd++) {
		bool done;

		if (!(cc.started >> vd & 1))
			continue;
		if (!check_finished(vd, &done)) {
			moved |= take_mark(vd);
			continue;
		}
		cc.started &= ~(1ull << vd);
		cc.rec.todo &= ~(1ull << vd);
		cc.rec.marks[vd] = (struct cc_mark){0};
		cc.rec.completed += done;
	}
	return moved || cc.rec.todo != before;
}

/* Move the run on: the checks that ended, the next ones to start (seq: one at a time). */
static void advance(unsigned id, struct rcl_ctrl *ctrl, const struct rcl_soft_state *state)
{
	bool changed = reap(state);

	for (size_t v = 0; v < state->cfg.vd_count; v++) {
		const struct rcl_soft_vd *vd = &state->cfg.vds[v];
		uint64_t bit = 1ull << vd->id;
		bool last_done;

		if (!(cc.rec.todo & bit) || (cc.started & bit))
			continue;
		if (cc.settings.cc_mode == RCL_CC_SEQ && cc.started)
			break;
		/* Another task of the VD (a crash's resync, the user's check) goes first. */
		if (!check_finished(vd->id, &last_done))
			continue;
		if (start_vd(ctrl, vd))
			cc.started |= bit;
		else
			cc.rec.todo &= ~bit;
		changed = true;
	}
	if (!cc.rec.todo)
		end_run(id, "complete");
	else if (changed)
		record_save(id);
}

static bool due(void)
{
	if (cc.rec.active)
		return true;
	return cc.settings.cc_mode != RCL_CC_OFF &&
	       rcl_soft_schedule_due(&cc.settings.cc, cc.rec.since);
}

/* Begin the run, when none is under way, and move it on. */
static void run(unsigned id, struct rcl_ctrl *ctrl)
{
	if (!cc.rec.active)
		begin_run(service_soft_state(ctrl));
	advance(id, ctrl, service_soft_state(ctrl));
}

void cc_schedule_tick(unsigned id)
{
	if (cc.loaded && due())
		service_with_ctrl(id, "the scheduled consistency check", run);
}

bool cc_schedule_live_status(unsigned id, struct rcl_cc_status *out)
{
	struct rcl_soft_cc_summary sum = {cc.rec.active, cc.rec.since, cc.rec.iterations,
	                                  cc.rec.completed};

	if (!service_self(id) || !cc.loaded)
		return false;
	rcl_soft_cc_status(&cc.settings, &sum, true, out);
	return true;
}

void cc_schedule_poll(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctx *lib = NULL;
	enum rcl_status st = service_ctx_new(id, &lib, &err);

	if (!st)
		st = rcl_soft_settings_load(lib, id, &cc.settings, &err);
	if (!st && !cc.loaded)
		st = record_load(lib, id, &cc.rec, &err);
	rcl_ctx_free(lib);
	if (st) {
		service_log("cannot read the scheduled consistency check's settings: %s", err.msg);
		return;
	}
	cc.loaded = true;
	if (cc.settings.cc_mode == RCL_CC_OFF && cc.rec.active)
		end_run(id, "stopped");
	if (cc.settings.cc_mode != RCL_CC_OFF && !cc.rec.since) {
		cc.rec.since = rcl_schedule_now();
		record_save(id);
	}
}

bool cc_schedule_busy(void)
{
	return cc.loaded && (cc.rec.active || cc.settings.cc_mode != RCL_CC_OFF);
}
