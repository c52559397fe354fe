// SPDX-License-Identifier: MIT
/*
 * schedule-rows.c - StorCLI's "Controller Properties" rows of a
 * controller's task settings and schedules, from the structs of
 * rcl_ctrl_settings_get() and rcl_ctrl_schedule_status(): "show
 * rebuildrate" and its siblings, "show patrolread", "show cc", and the
 * rows a "set" answers with.
 */
#include <stdio.h>

#include "cli.h"

/* The rate settings: their option ("rebuildrate=") and row ("Rebuild Rate"). */
static const struct {
	const char *option;
	const char *prop;
} rates[RCL_RATE_COUNT] = {
    [RCL_SETTING_REBUILD_RATE] = {"rebuildrate", "Rebuild Rate"},
    [RCL_SETTING_CC_RATE] = {"ccrate", "CC Rate"},
    [RCL_SETTING_BGI_RATE] = {"bgirate", "BGI Rate"},
    [RCL_SETTING_PR_RATE] = {"prrate", "PR Rate"},
    [RCL_SETTING_RECON_RATE] = {"reconrate", "Reconstruction Rate"},
};

const char *rate_option(enum rcl_setting rate)
{
	return rates[rate].option;
}

struct rcl_node *ctrl_property_row(struct rcl_node *table, const char *prop)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_str(row, "Ctrl_Prop", prop);
	return row;
}

static void add_row(struct rcl_node *table, const char *prop, const char *value)
{
	rcl_node_add_str(ctrl_property_row(table, prop), "Value", value);
}

void add_rate_row(struct rcl_node *table, const struct rcl_ctrl_settings *s,
                  enum rcl_setting setting)
{
	if (setting < RCL_RATE_COUNT)
		rcl_node_add_strf(ctrl_property_row(table, rates[setting].prop), "Value", "%u%%",
		                  s->rate[setting]);
	else
		add_row(table, "Rebuild Priority", s->host_first ? "host" : "rebuild");
}

void format_vd_set(uint64_t set, char *out, size_t size)
{
	size_t len = 0;

	snprintf(out, size, "None");
	for (unsigned vd = 0; vd < RCL_MAX_VDS && len < size; vd++) {
		unsigned last = vd;

		if (!(set >> vd & 1))
			continue;
		while (last + 1 < RCL_MAX_VDS && set >> (last + 1) & 1)
			last++;
		len += (size_t)snprintf(out + len, size - len, last > vd ? "%s%u-%u" : "%s%u",
		                        len ? "," : "", vd, last);
		vd = last;
	}
}

/* A next start time as "show" gives it: "-" when none is waiting. */
static void format_next(int64_t at, char *out, size_t size)
{
	if (at)
		format_time(out, size, (time_t)at);
	else
		snprintf(out, size, "-");
}

static const char *state_name(enum rcl_schedule_state state)
{
	static const char *const names[] = {
	    [RCL_SCHEDULE_STOPPED] = "Stopped",
	    [RCL_SCHEDULE_ACTIVE] = "Active",
	    [RCL_SCHEDULE_PAUSED] = "Paused",
	    [RCL_SCHEDULE_INTERRUPTED] = "Interrupted",
	};

	return names[state];
}

/*
 * StorCLI's "show patrolread" rows, then raidcli's PR Progress%, PR
 * Estimated Time Left and PR Media Errors.
 */
static void add_patrol_rows(struct rcl_node *table, const struct rcl_ctrl_settings *s,
                            const struct rcl_patrol_status *pr)
{
	char text[64];

	add_row(table, "PR Mode", rcl_pr_mode_name(s->pr_mode));
	snprintf(text, sizeof(text), "%u hours", s->pr.delay);
	add_row(table, "PR Execution Delay", text);
	snprintf(text, sizeof(text), "%llu", (unsigned long long)pr->iterations);
	add_row(table, "PR iterations completed", text);
	format_next(pr->next_start, text, sizeof(text));
	add_row(table, "PR Next Start time", text);
	add_row(table, "PR on SSD", rcl_pr_ssds_name(s->pr_ssds));
	add_row(table, "PR Current State", state_name(pr->state));
	format_vd_set(s->pr.exclude, text, sizeof(text));
	add_row(table, "PR Excluded VDs", text);
	snprintf(text, sizeof(text), "%u", s->pr_max_drives);
	add_row(table, "PR MaxConcurrentPd", text);
	add_row(table, "PR Unconfigured Areas", rcl_pr_uncfg_name(s->pr_uncfg));
	snprintf(text, sizeof(text), "%u", pr->percent);
	add_row(table, "PR Progress%", pr->state != RCL_SCHEDULE_STOPPED ? text : "-");
	tasks_time_left(text, sizeof(text), pr->time_left);
	add_row(table, "PR Estimated Time Left", text);
	snprintf(text, sizeof(text), "%llu", (unsigned long long)pr->media_errors);
	add_row(table, "PR Media Errors", text);
}

/* StorCLI's "show cc" rows. */
static void add_cc_rows(struct rcl_node *table, const struct rcl_ctrl_settings *s,
                        const struct rcl_cc_status *cc)
{
	char text[64];

	add_row(table, "CC Operation Mode", rcl_cc_mode_name(s->cc_mode));
	snprintf(text, sizeof(text), "%u hours", s->cc.delay);
	add_row(table, "CC Execution Delay", text);
	format_next(cc->next_start, text, sizeof(text));
	add_row(table, "CC Next Starttime", text);
	add_row(table, "CC Current State", state_name(cc->state));
	snprintf(text, sizeof(text), "%llu", (unsigned long long)cc->iterations);
	add_row(table, "CC Number of iterations", text);
	snprintf(text, sizeof(text), "%llu", (unsigned long long)cc->completed);
	add_row(table, "CC Number of VD completed", text);
	format_vd_set(s->cc.exclude, text, sizeof(text));
	add_row(table, "CC Excluded VDs", text);
}

/* The settings and schedule status of @c's controller. */
static enum rcl_status read_both(struct cmd_ctx *c, struct rcl_ctrl_settings *s,
                                 struct rcl_schedule_status *status, struct rcl_error *err)
{
	enum rcl_status st = rcl_ctrl_settings_get(c->ctrl, s, err);

	return st ? st : rcl_ctrl_schedule_status(c->ctrl, status, err);
}

enum rcl_status cmd_ctrl_show_patrol(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_ctrl_settings s;
	struct rcl_schedule_status status;
	enum rcl_status st = read_both(c, &s, &status, err);

	if (!st)
		add_patrol_rows(rcl_node_add_array(c->res->data, "Controller Properties"), &s,
		                &status.patrol);
	return st;
}

enum rcl_status cmd_ctrl_show_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_ctrl_settings s;
	struct rcl_schedule_status status;
	enum rcl_status st = read_both(c, &s, &status, err);

	if (!st)
		add_cc_rows(rcl_node_add_array(c->res->data, "Controller Properties"), &s,
		            &status.cc);
	return st;
}
