// SPDX-License-Identifier: MIT
/*
 * task-rows.c - StorCLI's rows for background tasks, built from where each
 * task stands (rcl_ctrl_task_progress()): "show rebuild", "show cc|init|
 * bgi|migrate", the "Active Operations" of "show all", and the time left
 * as StorCLI words it.
 */
#include <stdio.h>

#include "cli.h"

void tasks_time_left(char *out, size_t size, double seconds)
{
	unsigned long s = seconds < 0 ? 0 : (unsigned long)(seconds + 0.5);

	if (seconds < 0)
		snprintf(out, size, "-");
	else if (s >= 3600)
		snprintf(out, size, "%lu Hours %lu Minutes", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		snprintf(out, size, "%lu Minutes %lu Seconds", s / 60, s % 60);
	else
		snprintf(out, size, "%lu Seconds", s);
}

/* StorCLI's "Estimated Time Left" of @seconds into @row ("-" below 0). */
static void add_time_left(struct rcl_node *row, double seconds)
{
	char text[64];

	tasks_time_left(text, sizeof(text), seconds);
	rcl_node_add_str(row, "Estimated Time Left", text);
}

void ctrl_prop_row(struct rcl_node *table, const char *name, const char *value)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_str(row, "Ctrl_Prop", name);
	rcl_node_add_str(row, "Value", value);
}

/* Where task @req stands on @ctrl; a task the controller cannot tell of is STOPPED. */
static struct rcl_task_progress progress_of(const struct rcl_ctrl *ctrl,
                                            const struct rcl_task_request *req)
{
	struct rcl_task_progress p;

	if (rcl_ctrl_task_progress(ctrl, req, &p, NULL))
		p.state = RCL_TASK_STATE_STOPPED;
	return p;
}

/* The Status column of a task at @state. */
static const char *status_name(enum rcl_task_state state)
{
	switch (state) {
	case RCL_TASK_STATE_RUNNING:
		return "In progress";
	case RCL_TASK_STATE_PAUSED:
		return "Paused";
	case RCL_TASK_STATE_WAITING:
		return "Waiting for force";
	case RCL_TASK_STATE_HALTED:
		return "Halted";
	case RCL_TASK_STATE_FAILED:
		return "Failed";
	default:
		return "Not in progress";
	}
}

/* Progress%, Status and Estimated Time Left of a task at @p into @row. */
static void add_progress(struct rcl_node *row, const struct rcl_task_progress *p)
{
	if (p->percent >= 0)
		rcl_node_add_int(row, "Progress%", p->percent);
	else
		rcl_node_add_str(row, "Progress%", "-");
	rcl_node_add_str(row, "Status", status_name(p->state));
	add_time_left(row, p->state == RCL_TASK_STATE_RUNNING ? p->remaining : -1);
}

enum rcl_status rebuild_row(struct rcl_node *table, const struct rcl_ctrl *ctrl,
                            const struct rcl_drive_ref *ref, struct rcl_error *err)
{
	struct rcl_task_request req = {.kind = RCL_TASK_REBUILD, .drive = *ref};
	struct rcl_task_progress p;
	struct rcl_node *row;
	unsigned id = rcl_ctrl_id(ctrl);
	enum rcl_status st = rcl_ctrl_task_progress(ctrl, &req, &p, err);

	if (st)
		return st; /* a progress the controller could not tell shows none */
	row = rcl_node_add_object(table, NULL);
	rcl_node_add_strf(row, "Drive-ID", "/c%u/e%u/s%u", id, ref->enclosure, ref->slot);
	add_progress(row, &p);
	/* The row cannot say why nor what goes on: the text form's footnote does, as the log. */
	if (p.state == RCL_TASK_STATE_WAITING)
		add_footnote(
		    table,
		    "/c%u/e%u/s%u waits for force at /c%u/v%d: it is degraded and %s, so its "
		    "parity may not match its data; 'raidcli /c%u/e%u/s%u start rebuild "
		    "force' goes on",
		    id, ref->enclosure, ref->slot, id, p.vd, p.why, id, ref->enclosure, ref->slot);
	return RCL_OK;
}

/* The Operation column of a VD's task of @kind. */
static const char *operation_name(enum rcl_task_kind kind)
{
	switch (kind) {
	case RCL_TASK_INIT:
		return "INIT";
	case RCL_TASK_BGI:
		return "BGI";
	case RCL_TASK_MIGRATE:
		return "Migrate";
	case RCL_TASK_VD_ERASE:
		return "Erase";
	default:
		return "CC";
	}
}

enum rcl_status vd_task_row(struct rcl_node *table, const struct rcl_ctrl *ctrl, unsigned vd,
                            enum rcl_task_kind kind, struct rcl_error *err)
{
	struct rcl_task_request req = {.kind = kind, .vd = vd};
	struct rcl_task_progress p;
	struct rcl_node *row;
	enum rcl_status st = rcl_ctrl_task_progress(ctrl, &req, &p, err);

	if (st)
		return st;
	row = rcl_node_add_object(table, NULL);
	rcl_node_add_int(row, "VD", vd);
	rcl_node_add_str(row, "Operation", operation_name(kind));
	add_progress(row, &p);
	if (kind != RCL_TASK_CC)
		return RCL_OK;
	/* Not StorCLI's: what the check (this run, or the last one) found. */
	if (p.ran)
		rcl_node_add_int(row, "Mismatches", (long long)p.mismatches);
	else
		rcl_node_add_str(row, "Mismatches", "-");
	rcl_node_add_str(row, "Repair", !p.ran ? "-" : p.repair ? "Yes" : "No");
	return RCL_OK;
}

bool cli_vd_dirty(const struct rcl_ctrl *ctrl, const struct rcl_vd *vd)
{
	struct rcl_task_request req = {.kind = RCL_TASK_BGI, .vd = vd->id, .want_dirty = true};
	struct rcl_task_progress p;

	if (rcl_ctrl_task_progress(ctrl, &req, &p, NULL))
		return !vd->consistent;
	return p.dirty;
}

bool vd_migrating(const struct rcl_ctrl *ctrl, unsigned vd)
{
	struct rcl_task_request req = {.kind = RCL_TASK_MIGRATE, .vd = vd};

	return progress_of(ctrl, &req).state != RCL_TASK_STATE_STOPPED;
}

/* ------------------------------------------------------------------------
 * "Active Operations": what runs where. */

/* "Name (42%)", or with @how (NULL: none) "Name (42%, paused)", after ", " if @out has one. */
static void add_operation(struct rcl_buf *out, const char *name, int percent, const char *how)
{
	rcl_buf_addf(out, "%s%s (%d%%%s%s)", out->len ? ", " : "", name, percent, how ? ", " : "",
	             how ? how : "");
}

/* Whether a task at @p is reading or writing, or paused doing so. */
static bool active(const struct rcl_task_progress *p)
{
	return p->state == RCL_TASK_STATE_RUNNING || p->state == RCL_TASK_STATE_PAUSED;
}

static const char *paused_if(const struct rcl_task_progress *p)
{
	return p->state == RCL_TASK_STATE_PAUSED ? "paused" : NULL;
}

/* The patrol read, if it reads a VD that @vd (>= 0) is, or that is in group @dg (>= 0). */
static void describe_patrol(struct rcl_buf *out, const struct rcl_ctrl *ctrl, int dg, int vd)
{
	struct rcl_task_request req = {.kind = RCL_TASK_PATROL_READ};
	struct rcl_task_progress p = progress_of(ctrl, &req);
	const struct rcl_vd *patrolled;

	if (!active(&p) || p.vd < 0)
		return;
	patrolled = rcl_ctrl_vd_by_id(ctrl, (unsigned)p.vd);
	if (vd >= 0 ? vd == p.vd : patrolled && (int)patrolled->dg == dg)
		add_operation(out, "Patrol Read", p.vd_percent, paused_if(&p));
}

/* The check, init, BGI or erase of VD @vd, whichever runs. */
static void describe_check(struct rcl_buf *out, const struct rcl_ctrl *ctrl, unsigned vd)
{
	static const struct {
		enum rcl_task_kind kind;
		const char *title;
	} checks[] = {{RCL_TASK_CC, "Consistency Check"},
	              {RCL_TASK_INIT, "Initialization"},
	              {RCL_TASK_BGI, "Background Initialization"},
	              {RCL_TASK_VD_ERASE, "Erase"}};

	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		struct rcl_task_request req = {.kind = checks[i].kind, .vd = vd};
		struct rcl_task_progress p = progress_of(ctrl, &req);

		if (active(&p))
			add_operation(out, checks[i].title, p.percent, paused_if(&p));
	}
}

/* The rebuilds of @vd's group's members that rebuild @vd now. */
static void describe_rebuilds(struct rcl_buf *out, const struct rcl_ctrl *ctrl,
                              const struct rcl_vd *vd)
{
	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);
		struct rcl_task_request req = {.kind = RCL_TASK_REBUILD,
		                               .drive = {d->enclosure, d->slot}};
		struct rcl_task_progress p;

		if (d->state != RCL_PD_REBUILD || d->dg != (int)vd->dg)
			continue;
		p = progress_of(ctrl, &req);
		if (active(&p) && p.vd == (int)vd->id)
			add_operation(out, "Rebuild", p.vd_percent, paused_if(&p));
	}
}

void describe_vd_tasks(const struct rcl_ctrl *ctrl, const struct rcl_vd *vd, struct rcl_buf *out)
{
	struct rcl_task_request req = {.kind = RCL_TASK_MIGRATE, .vd = vd->id};
	struct rcl_task_progress p;

	describe_check(out, ctrl, vd->id);
	describe_rebuilds(out, ctrl, vd);
	p = progress_of(ctrl, &req);
	if (p.state == RCL_TASK_STATE_RUNNING && p.percent >= 0)
		add_operation(out, "Reconstruction", p.percent, NULL);
	describe_patrol(out, ctrl, -1, (int)vd->id);
	if (!out->len)
		rcl_buf_adds(out, "None");
}

void describe_drive_tasks(const struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                          struct rcl_buf *out)
{
	struct rcl_task_request req = {.kind = RCL_TASK_REBUILD,
	                               .drive = {drive->enclosure, drive->slot}};
	struct rcl_task_progress p = progress_of(ctrl, &req);

	if (active(&p))
		add_operation(out, "Rebuild", p.percent, paused_if(&p));
	else if (p.state == RCL_TASK_STATE_WAITING)
		add_operation(out, "Rebuild", p.percent, "waiting for force");
	if (drive->wiped_by != RCL_TASK_NONE) {
		req.kind = (enum rcl_task_kind)drive->wiped_by;
		p = progress_of(ctrl, &req);
		add_operation(out, req.kind == RCL_TASK_DRIVE_INIT ? "Initialization" : "Erase",
		              p.percent, p.state == RCL_TASK_STATE_HALTED ? "halted" : NULL);
	}
	/* A member's group, failed or not; not a dedicated spare's. */
	if (drive->dg >= 0 && drive->state != RCL_PD_DHS)
		describe_patrol(out, ctrl, drive->dg, -1);
	if (!out->len)
		rcl_buf_adds(out, "None");
}

void drive_task_row(struct rcl_node *table, const struct rcl_ctrl *ctrl,
                    const struct rcl_drive_ref *ref, enum rcl_task_kind kind)
{
	struct rcl_task_request req = {.kind = kind, .drive = *ref};
	struct rcl_task_progress p = progress_of(ctrl, &req);
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_strf(row, "Drive-ID", "/c%u/e%u/s%u", rcl_ctrl_id(ctrl), ref->enclosure,
	                  ref->slot);
	add_progress(row, &p);
}
