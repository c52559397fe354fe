// SPDX-License-Identifier: MIT
/*
 * settings.c - task settings and schedules through the backend contract:
 * the checks every kind shares (the controller offers the setting, the
 * value is in range), then the backend's op (lib/backend.h).
 */
#include <stdlib.h>
#include <time.h>

#include "backend.h"
#include "internal.h"

/* The settings struct rcl_ctrl_settings carries, as bits of enum rcl_setting. */
#define RATE_BITS ((1u << RCL_RATE_COUNT) - 1)
#define TASK_SETTINGS                                                                              \
	(RATE_BITS | 1u << RCL_SETTING_REBUILD_PRIORITY | 1u << RCL_SETTING_PR_SCHEDULE |          \
	 1u << RCL_SETTING_CC_SCHEDULE | 1u << RCL_SETTING_AUTO_REBUILD)

const char *rcl_pr_mode_name(enum rcl_pr_mode mode)
{
	static const char *const names[] = {
	    [RCL_PR_AUTO] = "Auto", [RCL_PR_MANUAL] = "Manual", [RCL_PR_OFF] = "Disable"};

	return (size_t)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "Unknown";
}

const char *rcl_pr_ssds_name(enum rcl_pr_ssds ssds)
{
	static const char *const names[] = {[RCL_PR_SSDS_ON] = "Enabled",
	                                    [RCL_PR_SSDS_MIXED] = "OnlyMixed",
	                                    [RCL_PR_SSDS_OFF] = "Disabled"};

	return (size_t)ssds < sizeof(names) / sizeof(names[0]) ? names[ssds] : "Unknown";
}

const char *rcl_pr_uncfg_name(bool on)
{
	return on ? "Enabled" : "Disabled";
}

const char *rcl_cc_mode_name(enum rcl_cc_mode mode)
{
	static const char *const names[] = {
	    [RCL_CC_OFF] = "Disabled", [RCL_CC_SEQ] = "Sequential", [RCL_CC_CONC] = "Concurrent"};

	return (size_t)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "Unknown";
}

int64_t rcl_schedule_now(void)
{
	const char *shift = getenv("RAIDCLI_TEST_CLOCK_SHIFT");

	return (int64_t)time(NULL) + (shift ? strtoll(shift, NULL, 10) : 0);
}

void rcl_settings_apply(struct rcl_ctrl_settings *dst, unsigned changes,
                        const struct rcl_ctrl_settings *src)
{
	for (int k = 0; k < RCL_RATE_COUNT; k++)
		if (changes & 1u << k)
			dst->rate[k] = src->rate[k];
	if (changes & 1u << RCL_SETTING_REBUILD_PRIORITY)
		dst->host_first = src->host_first;
	if (changes & 1u << RCL_SETTING_PR_SCHEDULE) {
		dst->pr_mode = src->pr_mode;
		dst->pr = src->pr;
		dst->pr_max_drives = src->pr_max_drives;
		dst->pr_ssds = src->pr_ssds;
		dst->pr_uncfg = src->pr_uncfg;
	}
	if (changes & 1u << RCL_SETTING_CC_SCHEDULE) {
		dst->cc_mode = src->cc_mode;
		dst->cc = src->cc;
	}
	if (changes & 1u << RCL_SETTING_AUTO_REBUILD)
		dst->no_auto_rebuild = src->no_auto_rebuild;
}

enum rcl_status rcl_ctrl_settings_get(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *out,
                                      struct rcl_error *err)
{
	return RCL_OP(ctrl, settings_get, "reading task settings", err, out);
}

static enum rcl_status out_of_range(struct rcl_error *err, enum rcl_setting setting)
{
	return rcl_fail(err, RCL_INVALID_PARAM, "the %s is out of its range",
	                rcl_setting_name(setting));
}

/* The values of the settings @changes names, in their ranges. */
static enum rcl_status check_values(unsigned changes, const struct rcl_ctrl_settings *s,
                                    struct rcl_error *err)
{
	for (int k = 0; k < RCL_RATE_COUNT; k++)
		if (changes & 1u << k && s->rate[k] > 100)
			return out_of_range(err, k);
	if (changes & 1u << RCL_SETTING_PR_SCHEDULE &&
	    (s->pr_mode > RCL_PR_OFF || s->pr_ssds > RCL_PR_SSDS_OFF || !s->pr.delay ||
	     s->pr.delay > RCL_MAX_DELAY || s->pr.start < 0 || !s->pr_max_drives ||
	     s->pr_max_drives > RCL_MAX_PR_DRIVES))
		return out_of_range(err, RCL_SETTING_PR_SCHEDULE);
	if (changes & 1u << RCL_SETTING_CC_SCHEDULE &&
	    (s->cc_mode > RCL_CC_CONC || !s->cc.delay || s->cc.delay > RCL_MAX_DELAY ||
	     s->cc.start < 0))
		return out_of_range(err, RCL_SETTING_CC_SCHEDULE);
	return RCL_OK;
}

enum rcl_status rcl_ctrl_settings_set(struct rcl_ctrl *ctrl, unsigned changes,
                                      const struct rcl_ctrl_settings *s, struct rcl_error *err)
{
	for (int k = 0; k < RCL_SETTING_COUNT; k++) {
		if (!(changes & 1u << k))
			continue;
		if (!(ctrl->caps.settings & 1u << k))
			return rcl_unsupported(err, ctrl->caps.kind, rcl_setting_name(k), NULL);
		if (!(TASK_SETTINGS & 1u << k))
			return rcl_fail(err, RCL_INVALID_PARAM, "the %s is not a task setting",
			                rcl_setting_name(k));
	}
	if (changes >> RCL_SETTING_COUNT)
		return rcl_fail(err, RCL_INVALID_PARAM, "no such setting (0x%x)", changes);
	if (check_values(changes, s, err))
		return err->status;
	return RCL_OP(ctrl, settings_set, "changing task settings", err, changes, s);
}

enum rcl_status rcl_ctrl_schedule_status(struct rcl_ctrl *ctrl, struct rcl_schedule_status *out,
                                         struct rcl_error *err)
{
	const unsigned schedules = 1u << RCL_SETTING_PR_SCHEDULE | 1u << RCL_SETTING_CC_SCHEDULE;

	*out = (struct rcl_schedule_status){0};
	if (!(ctrl->caps.settings & schedules))
		return rcl_unsupported(err, ctrl->caps.kind, "reading task schedules", NULL);
	return RCL_OP(ctrl, schedule_status, "reading task schedules", err, out);
}
