// SPDX-License-Identifier: MIT
/*
 * ctrl-backup.c - what backs a controller's cache (a card's battery or
 * CacheVault), whatever the backend: its learn cycle.
 */
#include "internal.h"

enum rcl_status rcl_ctrl_backup_learn(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	/* A card of a kind that may have one, found without (QEMU's answers any DCMD). */
	if (ctrl->caps.backup == RCL_BACKUP_NONE)
		return rcl_fail(err, RCL_HW_MISSING,
		                "controller /c%u has no battery or CacheVault to learn",
		                ctrl->entry.id);
	return RCL_OP(ctrl, backup_learn, "starting a learn cycle", err);
}
