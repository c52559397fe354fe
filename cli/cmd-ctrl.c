// SPDX-License-Identifier: MIT
/*
 * cmd-ctrl.c - controller commands: /cN show [all], /cN del, /cN add drive.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "service.h"

/* The rates and rebuild priority @c gives, into @s; their settings' bits into *@changes. */
static void apply_rates(struct cmd_ctx *c, struct rcl_ctrl_settings *s, unsigned *changes)
{
	const char *priority = cmd_value(c->args, "rebuildpriority");

	for (int k = 0; k < RCL_RATE_COUNT; k++) {
		const char *v = cmd_value(c->args, rate_option(k));

		if (v) {
			s->rate[k] = (unsigned)strtoul(v, NULL, 10);
			*changes |= 1u << k;
		}
	}
	if (priority) {
		s->host_first = !strcmp(priority, "host");
		*changes |= 1u << RCL_SETTING_REBUILD_PRIORITY;
	}
}

/* StorCLI's starttime= ("2026/12/01 03": the hour's start, local time) into *@out. */
static bool parse_starttime(const char *text, time_t *out)
{
	struct tm tm = {.tm_isdst = -1};
	const char *end = strptime(text, "%Y/%m/%d %H", &tm);
	struct tm back;

	if (!end || *end || strlen(text) != strlen("yyyy/mm/dd hh"))
		return false;
	back = tm;
	*out = mktime(&tm);
	/* mktime() moves a date that does not exist (02/30) on: refuse it instead. */
	return *out != (time_t)-1 && tm.tm_mday == back.tm_mday && tm.tm_mon == back.tm_mon;
}

enum rcl_status ctrl_check_starttime(const char *value, struct rcl_error *err)
{
	time_t t;

	if (!parse_starttime(value, &t))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "invalid value '%s' for 'starttime=': expected a date and an hour, "
		                "as in starttime=2026/12/01 03",
		                value);
	return RCL_OK;
}

/* Range @text ("3" or "1-4") of excludevd= into [*@first, *@last]. */
static bool parse_vd_range(const char *text, size_t len, unsigned *first, unsigned *last)
{
	char word[16], *end;
	unsigned long a, b;

	if (!len || len >= sizeof(word) || !isdigit((unsigned char)*text))
		return false;
	memcpy(word, text, len);
	word[len] = '\0';
	a = strtoul(word, &end, 10);
	b = *end == '-' && isdigit((unsigned char)end[1]) ? strtoul(end + 1, &end, 10) : a;
	if (*end || b < a || b >= RCL_MAX_VDS)
		return false;
	*first = (unsigned)a;
	*last = (unsigned)b;
	return true;
}

/* excludevd= ("0-2,5" or "none") into the bit set *@out. */
static bool parse_vd_set(const char *text, uint64_t *out)
{
	*out = 0;
	if (!strcasecmp(text, "none"))
		return true;
	for (const char *p = text;; p++) {
		size_t len = strcspn(p, ",");
		unsigned first, last;

		if (!parse_vd_range(p, len, &first, &last))
			return false;
		for (unsigned vd = first; vd <= last; vd++)
			*out |= 1ull << vd;
		p += len;
		if (!*p)
			return true;
	}
}

enum rcl_status ctrl_check_vd_set(const char *value, struct rcl_error *err)
{
	uint64_t set;

	if (!parse_vd_set(value, &set))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "invalid value '%s' for 'excludevd=': expected VD numbers 0-%d and "
		                "ranges, as in excludevd=0-2,5, or none",
		                value, RCL_MAX_VDS - 1);
	return RCL_OK;
}

/* The VDs of bit set @set that @ctrl does not have: the first, or -1. */
static int missing_vd(const struct rcl_ctrl *ctrl, uint64_t set)
{
	for (size_t i = 0; i < rcl_ctrl_vd_count(ctrl); i++)
		set &= ~(1ull << rcl_ctrl_vd(ctrl, i)->id);
	for (int vd = 0; vd < RCL_MAX_VDS; vd++)
		if (set >> vd & 1)
			return vd;
	return -1;
}

/* starttime=, excludevd= and delay= of @c into @s (shared by patrol reads and CC). */
static enum rcl_status apply_schedule(struct cmd_ctx *c, struct rcl_schedule *s,
                                      struct rcl_error *err)
{
	const char *start = cmd_value(c->args, "starttime");
	const char *exclude = cmd_value(c->args, "excludevd");
	const char *delay = cmd_value(c->args, "delay");
	uint64_t set = s->exclude;
	time_t at = 0;
	int missing;

	if (start && (!parse_starttime(start, &at) || at <= rcl_schedule_now())) {
		char now[32];

		format_time(now, sizeof(now), (time_t)rcl_schedule_now());
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "starttime=%s is in the past (the controller's time is %s); give "
		                "a later hour",
		                start, now);
	}
	if (exclude)
		parse_vd_set(exclude, &set);
	missing = missing_vd(c->ctrl, set & ~s->exclude);
	if (missing >= 0)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "excludevd=%s: /c%u has no VD %d (see 'raidcli /c%u/vall show')",
		                exclude, rcl_ctrl_id(c->ctrl), missing, rcl_ctrl_id(c->ctrl));
	s->exclude = set;
	if (start)
		s->start = (int64_t)at;
	if (delay)
		s->delay = (unsigned)strtoul(delay, NULL, 10);
	return RCL_OK;
}

/* The patrol read settings @c gives, into @s; any: RCL_SETTING_PR_SCHEDULE into *@changes. */
static enum rcl_status apply_patrol(struct cmd_ctx *c, struct rcl_ctrl_settings *s,
                                    unsigned *changes, struct rcl_error *err)
{
	static const char *const keys[] = {"patrolread",  "mode",      "delay",
	                                   "starttime",   "excludevd", "maxconcurrentpd",
	                                   "includessds", "uncfgareas"};
	const char *on = cmd_value(c->args, "patrolread");
	const char *mode = cmd_value(c->args, "mode");
	const char *drives = cmd_value(c->args, "maxconcurrentpd");
	const char *ssds = cmd_value(c->args, "includessds");
	const char *uncfg = cmd_value(c->args, "uncfgareas");

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (cmd_value(c->args, keys[k]))
			*changes |= 1u << RCL_SETTING_PR_SCHEDULE;
	/*
	 * StorCLI's "patrolread=off" is a form of its own, apart from the
	 * schedule's options ("set patrolread delay=" sets those): one given
	 * with it (any key after keys[0]) would be stored unseen, or read as
	 * meant to do something.
	 */
	for (size_t k = 1; on && !strcmp(on, "off") && k < sizeof(keys) / sizeof(keys[0]); k++)
		if (cmd_value(c->args, keys[k]))
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "%s= goes with patrolread=on, not with patrolread=off",
			                keys[k]);
	if (apply_schedule(c, &s->pr, err))
		return err->status;
	if (on && !strcmp(on, "off"))
		s->pr_mode = RCL_PR_OFF;
	else if (mode)
		s->pr_mode = !strcmp(mode, "manual") ? RCL_PR_MANUAL : RCL_PR_AUTO;
	else if (on && s->pr_mode == RCL_PR_OFF)
		s->pr_mode = RCL_PR_AUTO; /* StorCLI's default mode */
	if (drives)
		s->pr_max_drives = (unsigned)strtoul(drives, NULL, 10);
	if (ssds)
		s->pr_ssds = !strcmp(ssds, "on")    ? RCL_PR_SSDS_ON
		             : !strcmp(ssds, "off") ? RCL_PR_SSDS_OFF
		                                    : RCL_PR_SSDS_MIXED;
	if (uncfg)
		s->pr_uncfg = !strcmp(uncfg, "on");
	return RCL_OK;
}

/* A row of the "set" answer: @name's new @value, when one of @keys was given. */
static void changed_row(struct rcl_node *table, const struct cmd_ctx *c, const char *key,
                        const char *name, const char *value)
{
	if (cmd_value(c->args, key))
		rcl_node_add_str(ctrl_property_row(table, name), "Value", value);
}

static void add_patrol_rows(struct rcl_node *table, const struct cmd_ctx *c,
                            const struct rcl_ctrl_settings *s)
{
	char text[64];

	if (cmd_value(c->args, "patrolread") || cmd_value(c->args, "mode"))
		rcl_node_add_str(ctrl_property_row(table, "PR Mode"), "Value",
		                 rcl_pr_mode_name(s->pr_mode));
	snprintf(text, sizeof(text), "%u hours", s->pr.delay);
	changed_row(table, c, "delay", "PR Execution Delay", text);
	format_time(text, sizeof(text), (time_t)s->pr.start);
	changed_row(table, c, "starttime", "PR Next Start time", text);
	changed_row(table, c, "includessds", "PR on SSD", rcl_pr_ssds_name(s->pr_ssds));
	format_vd_set(s->pr.exclude, text, sizeof(text));
	changed_row(table, c, "excludevd", "PR Excluded VDs", text);
	snprintf(text, sizeof(text), "%u", s->pr_max_drives);
	changed_row(table, c, "maxconcurrentpd", "PR MaxConcurrentPd", text);
	changed_row(table, c, "uncfgareas", "PR Unconfigured Areas",
	            rcl_pr_uncfg_name(s->pr_uncfg));
}

static enum rcl_status nothing_to_set(const struct cmd_ctx *c, struct rcl_error *err)
{
	char object[256];

	return rcl_fail(err, RCL_INVALID_COMMAND,
	                "nothing to set: give at least one option (see 'raidcli %s %s help'), "
	                "as in: %s",
	                cli_typed_object(c->args, object, sizeof(object)), c->args->cmd->verb,
	                c->args->cmd->example);
}

enum rcl_status cmd_ctrl_set(struct cmd_ctx *c, struct rcl_error *err)
{
	const char *jbod = cmd_value(c->args, "jbod");
	struct rcl_node *table;
	struct rcl_ctrl_settings s;
	unsigned changes = 0;
	enum rcl_status st = rcl_ctrl_settings_get(c->ctrl, &s, err);

	/* A controller without task settings still takes jbod=; a setting is refused below. */
	if (st == RCL_UNSUPPORTED) {
		s = (struct rcl_ctrl_settings){0};
		st = RCL_OK;
	}
	if (!st)
		st = apply_patrol(c, &s, &changes, err);
	if (st)
		return st;
	apply_rates(c, &s, &changes);
	if (!jbod && !changes)
		return nothing_to_set(c, err);
	if (jbod)
		st = rcl_ctrl_set_jbod_mode(c->ctrl, !strcmp(jbod, "on"), err);
	if (!st && changes)
		st = rcl_ctrl_settings_set(c->ctrl, changes, &s, err);
	if (st)
		return st;
	/* StorCLI answers a controller "set" with the properties' new values, not a description. */
	table = rcl_node_add_array(c->res->data, "Controller Properties");
	if (jbod)
		rcl_node_add_str(ctrl_property_row(table, "JBOD"), "Value",
		                 !strcmp(jbod, "on") ? "ON" : "OFF");
	for (int k = 0; k < RCL_RATE_COUNT; k++)
		if (cmd_value(c->args, rate_option(k)))
			add_rate_row(table, &s, k);
	if (cmd_value(c->args, "rebuildpriority"))
		add_rate_row(table, &s, RCL_SETTING_REBUILD_PRIORITY);
	add_patrol_rows(table, c, &s);
	return RCL_OK;
}

enum rcl_status cmd_ctrl_set_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	const char *mode = cmd_value(c->args, "cc");
	struct rcl_node *table;
	struct rcl_ctrl_settings s;
	char text[64];
	enum rcl_status st = rcl_ctrl_settings_get(c->ctrl, &s, err);

	if (!st && !mode && !cmd_value(c->args, "delay") && !cmd_value(c->args, "starttime") &&
	    !cmd_value(c->args, "excludevd"))
		return nothing_to_set(c, err);
	if (!st)
		st = apply_schedule(c, &s.cc, err);
	if (st)
		return st;
	if (mode)
		s.cc_mode = !strcmp(mode, "seq")    ? RCL_CC_SEQ
		            : !strcmp(mode, "conc") ? RCL_CC_CONC
		                                    : RCL_CC_OFF;
	st = rcl_ctrl_settings_set(c->ctrl, 1u << RCL_SETTING_CC_SCHEDULE, &s, err);
	if (st)
		return st;
	table = rcl_node_add_array(c->res->data, "Controller Properties");
	changed_row(table, c, "cc", "CC Operation Mode", rcl_cc_mode_name(s.cc_mode));
	snprintf(text, sizeof(text), "%u hours", s.cc.delay);
	changed_row(table, c, "delay", "CC Execution Delay", text);
	format_time(text, sizeof(text), (time_t)s.cc.start);
	changed_row(table, c, "starttime", "CC Next Starttime", text);
	format_vd_set(s.cc.exclude, text, sizeof(text));
	changed_row(table, c, "excludevd", "CC Excluded VDs", text);
	return RCL_OK;
}

enum rcl_status cmd_ctrl_show_rate(struct cmd_ctx *c, struct rcl_error *err)
{
	const char *what = c->args->cmd->verb + strlen("show ");
	struct rcl_ctrl_settings s;
	int kind = 0;
	enum rcl_status st = rcl_ctrl_settings_get(c->ctrl, &s, err);

	/* "show rebuildpriority" matches no rate: the priority's row. */
	while (kind < RCL_RATE_COUNT && strcmp(rate_option(kind), what))
		kind++;
	if (kind == RCL_RATE_COUNT)
		kind = RCL_SETTING_REBUILD_PRIORITY;
	if (!st)
		add_rate_row(rcl_node_add_array(c->res->data, "Controller Properties"), &s, kind);
	return st;
}

enum rcl_status cmd_ctrl_check_delete(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_value(c->args, "force") ? RCL_OK : rcl_ctrl_export_check_delete(c->ctrl, err);
}

enum rcl_status cmd_ctrl_delete(struct cmd_ctx *c, struct rcl_error *err)
{
	bool files = cmd_value(c->args, "delete") != NULL;
	unsigned id = rcl_ctrl_id(c->ctrl);
	struct service_paths paths;
	enum rcl_status st;

	if (files && !cmd_value(c->args, "force"))
		return rcl_fail(err, RCL_NEED_FORCE,
		                "delete=files destroys the image files and their data; repeat with "
		                "'force' to confirm: raidcli /c%u del delete=files force",
		                id);
	/* Its process was stopped before (CMD_STOPS_SERVICE); its files go with it. */
	st = service_paths(c->lib, id, &paths, err);
	if (st)
		return st;
	st = rcl_ctrl_delete(c->ctrl, files ? RCL_DELETE_IMAGES : 0, err);
	c->ctrl = NULL; /* rcl_ctrl_delete() closed it */
	if (st)
		return st;
	service_unlink_files(&paths);
	rcl_result_describe(c->res,
	                    files ? "Deleted controller /c%u and its image files."
	                          : "Deleted controller /c%u; its image files are kept.",
	                    id);
	return RCL_OK;
}

enum rcl_status cmd_ctrl_add_drive(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_node *table;
	enum rcl_status st;
	unsigned slot;

	st = rcl_ctrl_add_drive(c->ctrl, cmd_value(c->args, "path"), &slot, err);
	if (st)
		return st;
	for (size_t i = 0; i < rcl_ctrl_drive_count(c->ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, i);

		if (drive->slot != slot)
			continue;
		rcl_result_describe(c->res, "Added drive /c%u/e%u/s%u.", rcl_ctrl_id(c->ctrl),
		                    drive->enclosure, drive->slot);
		table = rcl_node_add_array(c->res->data, "Drive Information");
		rcl_node_set_legend(table, legend_pd_list);
		add_pd_row(table, drive);
	}
	return RCL_OK;
}
