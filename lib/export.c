// SPDX-License-Identifier: MIT
/*
 * export.c - exports through the backend contract: the one refusal of a
 * controller that does not export, the choice of the VDs asked for, and
 * the checks before a VD or a controller is deleted, which every kind
 * shares and builds on its @exports and @export_stop ops.
 */
#include "internal.h"

#define EXPORTING "exporting a virtual drive"

/* RCL_OP() of a controller whose caps say it exports; rcl_unsupported() otherwise. */
#define EXPORT_OP(ctrl, op, err, ...)                                                              \
	((ctrl)->caps.exports ? RCL_OP(ctrl, op, EXPORTING, err, __VA_ARGS__)                      \
	                      : rcl_unsupported((err), (ctrl)->caps.kind, EXPORTING, NULL))

/* Whether @ctrl may have exports at all: else nothing is exported to be in a delete's way. */
static bool may_export(const struct rcl_ctrl *ctrl)
{
	return ctrl->caps.exports && ctrl->entry.ops->exports;
}

enum rcl_status rcl_ctrl_export_check(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err)
{
	return EXPORT_OP(ctrl, export_check, err, vd, req);
}

enum rcl_status rcl_ctrl_export_start(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err)
{
	return EXPORT_OP(ctrl, export_start, err, vd, req);
}

enum rcl_status rcl_ctrl_export_stop(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err)
{
	return EXPORT_OP(ctrl, export_stop, err, vd);
}

static bool selected(unsigned vd, const unsigned *vds, size_t vd_count)
{
	for (size_t i = 0; vds && i < vd_count; i++)
		if (vds[i] == vd)
			return true;
	return !vds;
}

enum rcl_status rcl_ctrl_exports(struct rcl_ctrl *ctrl, const unsigned *vds, size_t vd_count,
                                 struct rcl_export_info **out, size_t *count, struct rcl_error *err)
{
	enum rcl_status st;
	size_t kept = 0;

	*out = NULL;
	*count = 0;
	st = EXPORT_OP(ctrl, exports, err, out, count);
	for (size_t i = 0; !st && i < *count; i++)
		if (selected((*out)[i].vd, vds, vd_count))
			(*out)[kept++] = (*out)[i];
	if (st || !kept) {
		rcl_free(*out);
		*out = NULL;
	}
	*count = kept;
	return st;
}

enum rcl_status rcl_ctrl_export_release_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                           struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl);
	struct rcl_export_info *list = NULL;
	size_t n = 0;
	enum rcl_status st =
	    may_export(ctrl) ? rcl_ctrl_exports(ctrl, &vd, 1, &list, &n, err) : RCL_OK;

	if (!st && n && !force)
		st = rcl_fail(
		    err, RCL_NEED_FORCE,
		    "/c%u/v%u is exported as '%s'; stop the export first (raidcli /c%u/v%u "
		    "stop export), or repeat with 'force'",
		    id, vd, list[0].name, id, vd);
	else if (!st && n)
		st = rcl_ctrl_export_stop(ctrl, vd, err);
	rcl_free(list);
	return st;
}

enum rcl_status rcl_ctrl_export_check_delete(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl);
	struct rcl_export_info *list = NULL;
	size_t n = 0;
	enum rcl_status st =
	    may_export(ctrl) ? rcl_ctrl_exports(ctrl, NULL, 0, &list, &n, err) : RCL_OK;

	if (!st && n)
		st =
		    rcl_fail(err, RCL_NEED_FORCE,
		             "/c%u/v%u is exported as '%s'%s: deleting /c%u stops its process and "
		             "drops every NBD client; stop the exports first (raidcli /c%u/vall "
		             "stop export), or repeat with 'force'",
		             id, list[0].vd, list[0].name, n > 1 ? ", with other VDs" : "", id, id);
	rcl_free(list);
	return st;
}

const char *rcl_ctrl_export_needs_force(const struct rcl_ctrl *ctrl, unsigned vd)
{
	const struct rcl_backend_ops *ops = ctrl->entry.ops;

	return ctrl->caps.exports && ops->export_needs_force ? ops->export_needs_force(ctrl, vd)
	                                                     : NULL;
}

const char *rcl_ctrl_export_waits_for_force(const struct rcl_ctrl *ctrl, unsigned vd)
{
	const struct rcl_backend_ops *ops = ctrl->entry.ops;

	return ctrl->caps.exports && ops->export_waits_for_force
	           ? ops->export_waits_for_force(ctrl, vd)
	           : NULL;
}
