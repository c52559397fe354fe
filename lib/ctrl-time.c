// SPDX-License-Identifier: MIT
/*
 * ctrl-time.c - a controller's clock whatever the backend: a card keeps
 * its own (its backend's @set_time), the others read the system's.
 */
#include "internal.h"

enum rcl_status rcl_ctrl_set_time(struct rcl_ctrl *ctrl, time_t t, bool system,
                                  struct rcl_error *err)
{
	if (ctrl->entry.ops->set_time)
		return ctrl->entry.ops->set_time(ctrl, t, err);
	/* The system's clock is this controller's: "systemtime" holds already. */
	if (system)
		return RCL_OK;
	return rcl_unsupported(err, ctrl->caps.kind, "setting a time other than the system's",
	                       "its clock is the system clock: set time=systemtime");
}
