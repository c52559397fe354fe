// SPDX-License-Identifier: MIT
/*
 * cmd-backup.c - a battery's learn schedule: "/cx/bbu show properties" and
 * "/cx/bbu set", in StorCLI's BBU_Properties table of Property/Value rows.
 */
#include <stdlib.h>
#include <time.h>

#include "cli.h"

/* StorCLI's words for the auto-learn modes (autolearnmode=0, 1, 2). */
static const char *const auto_learn_modes[] = {"Enabled", "Disabled", "WarnViaEvent"};

/* The options of "/cx/bbu set", the field each sets. */
static const struct {
	const char *option;
	enum rcl_backup_prop prop;
} set_options[] = {
    {"learndelayinterval", RCL_BACKUP_PROP_LEARN_DELAY},
    {"autolearnmode", RCL_BACKUP_PROP_AUTO_LEARN},
    {"bbumode", RCL_BACKUP_PROP_BBU_MODE},
};

/* A row "@prop" of @table; its "Value" is the caller's. */
static struct rcl_node *prop_row(struct rcl_node *table, const char *prop)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_str(row, "Property", prop);
	return row;
}

/* StorCLI's "2026/12/10  05:32:21" (local time), "NA" when none is scheduled. */
static void add_next_learn(struct rcl_node *table, time_t at)
{
	struct rcl_node *row = prop_row(table, "Next Learn time");
	char text[32];
	struct tm tm;

	if (!at || !localtime_r(&at, &tm)) {
		rcl_node_add_str(row, "Value", "NA");
		return;
	}
	strftime(text, sizeof(text), "%Y/%m/%d  %H:%M:%S", &tm);
	rcl_node_add_str(row, "Value", text);
}

/* The rows of @p that @which (enum rcl_backup_prop bits; ~0: all) names. */
static void add_props(struct rcl_node *data, const struct rcl_backup_props *p, unsigned which)
{
	struct rcl_node *table = rcl_node_add_array(data, "BBU_Properties");
	unsigned mode = p->auto_learn_mode;

	if (which == ~0u) {
		rcl_node_add_strf(prop_row(table, "Auto-Learn Period"), "Value", "%ud (%u seconds)",
		                  p->learn_period_s / 86400, p->learn_period_s);
		add_next_learn(table, p->next_learn);
	}
	if (which & RCL_BACKUP_PROP_LEARN_DELAY)
		rcl_node_add_strf(prop_row(table, "Learn Delay Interval"), "Value", "%u hour(s)",
		                  p->learn_delay_h);
	if (which & RCL_BACKUP_PROP_AUTO_LEARN)
		rcl_node_add_str(prop_row(table, "Auto-Learn Mode"), "Value",
		                 mode < sizeof(auto_learn_modes) / sizeof(auto_learn_modes[0])
		                     ? auto_learn_modes[mode]
		                     : "Unknown");
	if (which & RCL_BACKUP_PROP_BBU_MODE)
		rcl_node_add_strf(prop_row(table, "BBU Mode"), "Value", "%u", p->bbu_mode);
}

enum rcl_status cmd_backup_show_props(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_backup_props p;
	enum rcl_status st = rcl_ctrl_backup_props(c->ctrl, &p, err);

	if (!st)
		add_props(c->res->data, &p, ~0u);
	return st;
}

/* The fields the options given set, their values into @p; 0 when none is given. */
static unsigned parse_set(const struct cmd_args *args, struct rcl_backup_props *p)
{
	unsigned which = 0;

	for (size_t i = 0; i < sizeof(set_options) / sizeof(set_options[0]); i++) {
		const char *v = cmd_value(args, set_options[i].option);
		unsigned value = v ? (unsigned)strtoul(v, NULL, 10) : 0;

		if (!v)
			continue;
		which |= set_options[i].prop;
		if (set_options[i].prop == RCL_BACKUP_PROP_LEARN_DELAY)
			p->learn_delay_h = value;
		else if (set_options[i].prop == RCL_BACKUP_PROP_AUTO_LEARN)
			p->auto_learn_mode = value;
		else
			p->bbu_mode = value;
	}
	return which;
}

/* StorCLI answers with the properties set, as the card holds them now (read again). */
enum rcl_status cmd_backup_set(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_backup_props p = {0};
	unsigned which = parse_set(c->args, &p);
	enum rcl_status st;

	if (!which)
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "nothing to set: give learnDelayInterval=, autolearnmode= or "
		                "bbuMode=, as in: %s",
		                c->args->cmd->example);
	st = rcl_ctrl_backup_set_props(c->ctrl, &p, which, err);
	if (!st)
		st = rcl_ctrl_backup_props(c->ctrl, &p, err);
	if (!st)
		add_props(c->res->data, &p, which);
	return st;
}
