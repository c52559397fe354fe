// SPDX-License-Identifier: MIT
/*
 * vd-expand.c - growing a virtual drive into free space right after it
 * ("expand size= [expandarray]", "show expansion"), whatever the backend:
 * the checks before it grows, and its event.
 */
#include <string.h>

#include "internal.h"

enum rcl_status rcl_ctrl_vd_expansion(struct rcl_ctrl *ctrl, unsigned vd,
                                      struct rcl_vd_expansion *out, struct rcl_error *err)
{
	enum rcl_status st = rcl_vd_check_exists(ctrl, vd, err);

	memset(out, 0, sizeof(*out));
	if (st)
		return st;
	out->bytes = rcl_ctrl_vd_by_id(ctrl, vd)->bytes;
	return RCL_OP(ctrl, vd_expansion, "expanding a virtual drive", err, vd, out);
}

/* Refuse growing @vd by @bytes beyond @x, naming what limits it. */
static enum rcl_status check_growth(unsigned vd, uint64_t bytes, bool expand_array,
                                    const struct rcl_vd_expansion *x, struct rcl_error *err)
{
	uint64_t most = expand_array ? x->grow_array : x->grow;
	struct rcl_buf a = RCL_BUF_INIT, b = RCL_BUF_INIT;
	enum rcl_status st;

	if (!bytes)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "expand needs size=: the capacity to add to /v%u", vd);
	if (x->why[0])
		return rcl_fail(err, RCL_NOT_ALLOWED, "/v%u cannot grow: %s", vd, x->why);
	if (bytes <= most)
		return RCL_OK;
	rcl_size_format(&a, bytes);
	rcl_size_format(&b, most);
	if (!expand_array && x->grow_array > x->grow)
		st = rcl_fail(err, RCL_NOT_ALLOWED,
		              "size=%s is more than the %s free right after /v%u in its drive "
		              "group; expandarray grows the group to its drives' end first",
		              a.buf, b.buf, vd);
	else
		st = rcl_fail(err, RCL_NOT_ALLOWED,
		              "size=%s is more than /v%u can grow: %s free right after it on every "
		              "member, up to %s",
		              a.buf, vd, b.buf, x->limit[0] ? x->limit : "its group's end");
	rcl_buf_release(&a);
	rcl_buf_release(&b);
	return st;
}

/* An NBD client keeps the size it connected with: an exported VD does not grow. */
static enum rcl_status check_not_exported(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err)
{
	enum rcl_status st = rcl_ctrl_export_release_vd(ctrl, vd, false, err);

	if (st != RCL_NEED_FORCE)
		return st;
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "/c%u/v%u is exported: its NBD clients keep the size they connected "
	                "with; stop the export first (raidcli /c%u/v%u stop export)",
	                ctrl->entry.id, vd, ctrl->entry.id, vd);
}

/* A task running over the VD works on the size it started with: it ends or stops first. */
static enum rcl_status check_no_task(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err)
{
	static const enum rcl_task_kind kinds[] = {RCL_TASK_CC, RCL_TASK_INIT, RCL_TASK_BGI,
	                                           RCL_TASK_MIGRATE};
	enum rcl_status st = RCL_OK;

	for (size_t i = 0; !st && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct rcl_task_request req = {.kind = kinds[i], .vd = vd};
		struct rcl_task_progress p;

		if (!(ctrl->caps.tasks & 1u << kinds[i]))
			continue;
		st = rcl_ctrl_task_progress(ctrl, &req, &p, err);
		if (!st && p.state != RCL_TASK_STATE_STOPPED)
			st = rcl_fail(
			    err, RCL_NOT_ALLOWED,
			    "a %s is under way on /c%u/v%u: wait for it to end, or stop it, "
			    "before the VD grows",
			    rcl_task_kind_name(kinds[i]), ctrl->entry.id, vd);
	}
	return st;
}

enum rcl_status rcl_ctrl_expand_vd(struct rcl_ctrl *ctrl, unsigned vd, uint64_t bytes,
                                   bool expand_array, struct rcl_vd_expansion *before,
                                   struct rcl_error *err)
{
	enum rcl_status st = rcl_ctrl_vd_expansion(ctrl, vd, before, err);
	struct rcl_buf from = RCL_BUF_INIT, to = RCL_BUF_INIT;

	if (!st)
		st = check_growth(vd, bytes, expand_array, before, err);
	if (!st)
		st = check_not_exported(ctrl, vd, err);
	if (!st)
		st = check_no_task(ctrl, vd, err);
	if (!st)
		st = RCL_OP(ctrl, expand_vd, "expanding a virtual drive", err, vd, bytes,
		            expand_array);
	if (st)
		return st;
	rcl_size_format(&from, before->bytes);
	rcl_size_format(&to, rcl_ctrl_vd_by_id(ctrl, vd)->bytes);
	(void)rcl_event_record(ctrl, RCL_EVENT_VD_CHANGED, NULL, "VD %u expanded from %s to %s%s",
	                       vd, from.buf, to.buf, expand_array ? " (expandarray)" : "");
	rcl_buf_release(&from);
	rcl_buf_release(&to);
	return RCL_OK;
}
