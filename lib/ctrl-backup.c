// SPDX-License-Identifier: MIT
/*
 * ctrl-backup.c - what backs a controller's cache (a card's battery or
 * CacheVault), whatever the backend: its learn cycle and the battery's
 * learn schedule.
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

/* A battery's properties: a CacheVault's learn is the card's own, none to ask of. */
static enum rcl_status need_battery(const struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	if (ctrl->caps.backup != RCL_BACKUP_BBU)
		return rcl_fail(err, RCL_HW_MISSING, "controller /c%u has no battery",
		                ctrl->entry.id);
	return RCL_OK;
}

enum rcl_status rcl_ctrl_backup_props(struct rcl_ctrl *ctrl, struct rcl_backup_props *out,
                                      struct rcl_error *err)
{
	enum rcl_status st = need_battery(ctrl, err);

	*out = (struct rcl_backup_props){0};
	return st ? st : RCL_OP(ctrl, backup_props, "the battery's properties", err, out);
}

/* @value of option @name, in 0 to @max. */
static enum rcl_status in_range(const char *name, unsigned value, unsigned max,
                                struct rcl_error *err)
{
	if (value > max)
		return rcl_fail(err, RCL_INVALID_PARAM, "%s=%u is out of range (0 to %u)", name,
		                value, max);
	return RCL_OK;
}

enum rcl_status rcl_ctrl_backup_set_props(struct rcl_ctrl *ctrl, const struct rcl_backup_props *p,
                                          unsigned which, struct rcl_error *err)
{
	enum rcl_status st = need_battery(ctrl, err);

	if (!st && !which)
		st = rcl_fail(err, RCL_INVALID_PARAM, "no battery property to set");
	if (!st && which & RCL_BACKUP_PROP_LEARN_DELAY)
		st = in_range("learnDelayInterval", p->learn_delay_h, RCL_BACKUP_LEARN_DELAY_MAX_H,
		              err);
	if (!st && which & RCL_BACKUP_PROP_AUTO_LEARN)
		st = in_range("autolearnmode", p->auto_learn_mode, RCL_BACKUP_AUTO_LEARN_MAX, err);
	if (!st && which & RCL_BACKUP_PROP_BBU_MODE)
		st = in_range("bbuMode", p->bbu_mode, RCL_BACKUP_BBU_MODE_MAX, err);
	return st ? st
	          : RCL_OP(ctrl, backup_set_props, "setting the battery's properties", err, p,
	                   which);
}
