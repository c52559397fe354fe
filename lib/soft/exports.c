// SPDX-License-Identifier: MIT
/*
 * exports.c - the soft controller's export ops: those its controller
 * process's code lends the backend (soft.h, rcl_soft_lend_exports()), or,
 * in a program without that code, the answer that exports need it.
 */
#include "soft.h"

static const struct rcl_backend_ops *lent;

void rcl_soft_lend_exports(const struct rcl_backend_ops *ops)
{
	lent = ops;
}

static enum rcl_status no_process(struct rcl_error *err)
{
	return rcl_unsupported(err, "soft", "exporting a virtual drive",
	                       "this program lacks raidcli's controller process");
}

enum rcl_status rcl_soft_export_check(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err)
{
	return lent ? lent->export_check(ctrl, vd, req, err) : no_process(err);
}

enum rcl_status rcl_soft_export_start(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err)
{
	return lent ? lent->export_start(ctrl, vd, req, err) : no_process(err);
}

enum rcl_status rcl_soft_export_stop(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err)
{
	return lent ? lent->export_stop(ctrl, vd, err) : no_process(err);
}

enum rcl_status rcl_soft_exports(struct rcl_ctrl *ctrl, struct rcl_export_info **out, size_t *count,
                                 struct rcl_error *err)
{
	return lent ? lent->exports(ctrl, out, count, err) : no_process(err);
}

const char *rcl_soft_export_needs_force(const struct rcl_ctrl *ctrl, unsigned vd)
{
	return lent ? lent->export_needs_force(ctrl, vd) : NULL;
}

const char *rcl_soft_export_waits_for_force(const struct rcl_ctrl *ctrl, unsigned vd)
{
	return lent ? lent->export_waits_for_force(ctrl, vd) : NULL;
}
