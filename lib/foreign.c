// SPDX-License-Identifier: MIT
/*
 * foreign.c - foreign configurations whatever the backend: the wrappers
 * that give each call a clean result and log the changes.
 */
#include <string.h>

#include "internal.h"

void rcl_foreign_release(struct rcl_foreign *foreign)
{
	for (size_t i = 0; foreign->configs && i < foreign->count; i++)
		rcl_free(foreign->configs[i].drives);
	rcl_free(foreign->configs);
	memset(foreign, 0, sizeof(*foreign));
}

/* @st from a backend that filled @out: on failure the caller gets an empty @out. */
static enum rcl_status settle(enum rcl_status st, struct rcl_foreign *out)
{
	if (st)
		rcl_foreign_release(out);
	return st;
}

size_t rcl_foreign_vd_count(const struct rcl_foreign *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->count; i++)
		n += f->configs[i].vd_count;
	return n;
}

enum rcl_status rcl_ctrl_foreign(struct rcl_ctrl *ctrl, struct rcl_foreign *out,
                                 struct rcl_error *err)
{
	memset(out, 0, sizeof(*out));
	return settle(RCL_OP(ctrl, foreign_show, "reading foreign configurations", err, out), out);
}

enum rcl_status rcl_ctrl_import_foreign(struct rcl_ctrl *ctrl, bool preview, bool bitmap,
                                        struct rcl_foreign *out, struct rcl_error *err)
{
	enum rcl_status st;

	memset(out, 0, sizeof(*out));
	st = settle(RCL_OP(ctrl, foreign_import, "importing foreign configurations", err, preview,
	                   bitmap, out),
	            out);
	if (!st && !preview)
		(void)rcl_event_record(ctrl, RCL_EVENT_FOREIGN_IMPORTED, NULL,
		                       "Imported %zu foreign configuration%s (%zu VDs)", out->count,
		                       out->count == 1 ? "" : "s", rcl_foreign_vd_count(out));
	return st;
}

enum rcl_status rcl_foreign_none_found(const struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	return rcl_fail(err, RCL_NOT_FOUND, "no foreign configuration found on /c%u",
	                ctrl->entry.id);
}

/*
 * The refusals of every kind, in one place and one wording: nothing to
 * delete, or no force to confirm the VDs lost. The kind only clears.
 */
static enum rcl_status check_delete(const struct rcl_ctrl *ctrl, bool force,
                                    const struct rcl_foreign *found, struct rcl_error *err)
{
	size_t vds = rcl_foreign_vd_count(found);

	if (!found->count)
		return rcl_foreign_none_found(ctrl, err);
	if (!force)
		return rcl_fail(
		    err, RCL_NEED_FORCE,
		    "deleting the foreign configuration destroys its %zu virtual drive%s "
		    "and their data; repeat with 'force' to confirm: raidcli "
		    "/c%u/fall del force",
		    vds, vds == 1 ? "" : "s", ctrl->entry.id);
	return RCL_OK;
}

enum rcl_status rcl_ctrl_delete_foreign(struct rcl_ctrl *ctrl, bool force, struct rcl_foreign *out,
                                        struct rcl_error *err)
{
	const char *what = "deleting foreign configurations";
	enum rcl_status st;

	memset(out, 0, sizeof(*out));
	st = RCL_OP(ctrl, foreign_show, what, err, out);
	if (!st)
		st = check_delete(ctrl, force, out, err);
	if (!st)
		st = RCL_OP(ctrl, foreign_delete, what, err);
	st = settle(st, out);
	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_FOREIGN_DELETED, NULL,
		                       "Deleted %zu foreign configuration%s (%zu VDs)", out->count,
		                       out->count == 1 ? "" : "s", rcl_foreign_vd_count(out));
	return st;
}
