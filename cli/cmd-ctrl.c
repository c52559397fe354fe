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
#include "settings.h"

static void add_counts_and_lists(struct rcl_node *data, const struct rcl_ctrl *ctrl)
{
	rcl_node_add_int(data, "Drive Groups", (long long)rcl_ctrl_dg_count(ctrl));
	add_topology(data, ctrl, NULL);
	rcl_node_add_int(data, "Virtual Drives", (long long)rcl_ctrl_vd_count(ctrl));
	add_vd_list(data, ctrl, "VD LIST", NULL);
	rcl_node_add_int(data, "Physical Drives", (long long)rcl_ctrl_drive_count(ctrl));
	add_pd_list(data, ctrl, "PD LIST");
	rcl_node_add_int(data, "Enclosures", (long long)rcl_ctrl_enclosure_count(ctrl));
	add_enclosure_rows(rcl_node_add_array(data, "Enclosure LIST"), ctrl, NULL);
}

enum rcl_status cmd_ctrl_show(struct cmd_ctx *c, struct rcl_error *err)
{
	const struct rcl_ctrl_info *info = rcl_ctrl_info(c->ctrl);
	struct rcl_node *data = c->res->data;
	char now[32];

	(void)err;
	format_time(now, sizeof(now), time(NULL));
	rcl_node_add_str(data, "Product Name", info->model);
	rcl_node_add_str(data, "Serial Number", info->serial);
	/* The summary prints times without StorCLI's comma. */
	now[10] = ' ';
	memmove(now + 11, now + 12, strlen(now + 12) + 1);
	rcl_node_add_str(data, "System Time", now);
	rcl_node_add_str(data, "Controller Time", now);
	rcl_node_add_str(data, "FW Version", info->firmware);
	rcl_node_add_str(data, "Driver Name", info->driver_name);
	rcl_node_add_str(data, "Driver Version", info->driver_version);
	rcl_node_add_str(data, "Controller Backend", info->backend);
	add_counts_and_lists(data, c->ctrl);
	return RCL_OK;
}

/* @kib as StorCLI writes a strip size: "64 KB", "1.000 MB". */
static void add_strip(struct rcl_node *section, const char *key, unsigned kib)
{
	if (kib < 1024)
		rcl_node_add_strf(section, key, "%u KB", kib);
	else
		rcl_node_add_strf(section, key, "%.3f MB", kib / 1024.0);
}

/* "(2 drives)" for a fixed mirror width, "(2 or more drives)" for any. */
static size_t mirror_width(char *out, size_t size, unsigned drives, const char *per)
{
	if (drives)
		return (size_t)snprintf(out, size, "(%u drives%s)", drives, per);
	return (size_t)snprintf(out, size, "(2 or more drives%s)", per);
}

/*
 * StorCLI's "RAID Level Supported": "RAID0, RAID1(2 drives), ..., RAID60".
 * In a fixed buffer (all seven levels fit): no allocation left to fail.
 */
static void add_levels(struct rcl_node *section, const struct rcl_caps *caps)
{
	char text[192] = "";
	size_t len = 0;

	for (unsigned l = RCL_RAID0; l <= RCL_RAID60; l++) {
		if (!(caps->levels & (1u << l)))
			continue;
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s", len ? ", " : "",
		                        rcl_raid_level_name(l));
		if (l == RCL_RAID1)
			len +=
			    mirror_width(text + len, sizeof(text) - len, caps->mirror_drives, "");
		else if (l == RCL_RAID10)
			len += mirror_width(text + len, sizeof(text) - len, caps->mirror_drives,
			                    " per span");
	}
	rcl_node_add_str(section, "RAID Level Supported", text);
}

enum rcl_status cmd_ctrl_show_all(struct cmd_ctx *c, struct rcl_error *err)
{
	const struct rcl_ctrl_info *info = rcl_ctrl_info(c->ctrl);
	const struct rcl_caps *caps = rcl_ctrl_caps(c->ctrl);
	struct rcl_node *data = c->res->data;
	struct rcl_node *section;
	char now[32], created[32];

	(void)err;
	format_time(now, sizeof(now), time(NULL));
	format_time(created, sizeof(created), info->created);

	section = rcl_node_add_object(data, "Basics");
	rcl_node_add_int(section, "Controller", rcl_ctrl_id(c->ctrl));
	rcl_node_add_str(section, "Model", info->model);
	rcl_node_add_str(section, "Serial Number", info->serial);
	/* A soft controller's clock is the system's: the two times agree. */
	rcl_node_add_str(section, "Current Controller Date/Time", now);
	rcl_node_add_str(section, "Current System Date/time", now);
	rcl_node_add_str(section, "Controller Backend", info->backend);
	rcl_node_add_str(section, "Creation Date/Time", created);

	section = rcl_node_add_object(data, "Version");
	rcl_node_add_str(section, "Firmware Version", info->firmware);
	rcl_node_add_str(section, "Driver Name", info->driver_name);
	rcl_node_add_str(section, "Driver Version", info->driver_version);

	section = rcl_node_add_object(data, "Status");
	rcl_node_add_str(section, "Controller Status", "Optimal");
	rcl_node_add_str(section, "BBU Status", backup_state(caps, "NA"));

	/* Say what the hardware lacks instead of inventing sensor readings. */
	section = rcl_node_add_object(data, "HwCfg");
	rcl_node_add_int(section, "Backend Port Count", info->max_drives);
	rcl_node_add_str(section, "BBU", caps->backup ? "Present" : "Absent");
	rcl_node_add_str(section, "Alarm", "Absent");
	rcl_node_add_strf(section, "On Board Memory Size", "%uMB", caps->cache_mib);
	rcl_node_add_str(section, "Temperature Sensor for ROC", "Absent");
	rcl_node_add_str(section, "Temperature Sensor for Controller", "Absent");

	/* What "add vd" uses when no option says otherwise. */
	section = rcl_node_add_object(data, "Defaults");
	add_strip(section, "Strip Size", caps->strip_default_kib);
	rcl_node_add_str(section, "Write Policy", rcl_write_policy_name(caps->default_write));
	rcl_node_add_str(section, "Read Policy", rcl_read_policy_name(caps->default_read));

	section = rcl_node_add_object(data, "Capabilities");
	rcl_node_add_str(section, "Supported Drives", caps->drive_kinds);
	add_levels(section, caps);
	rcl_node_add_int(section, "Max Arrays", caps->max_dgs);
	rcl_node_add_int(section, "Max Arms Per VD", caps->max_drives_per_span);
	rcl_node_add_int(section, "Max Spans Per VD", caps->max_spans);
	rcl_node_add_int(section, "Max Number of VDs", caps->max_vds);
	rcl_node_add_int(section, "Max VD per array", caps->max_vds_per_dg);
	rcl_node_add_int(section, "Max Drives", info->max_drives);
	add_strip(section, "Min Strip Size", caps->strip_min_kib);
	add_strip(section, "Max Strip Size", caps->strip_max_kib);
	rcl_node_add_str(section, "Enable JBOD", info->jbod ? "Yes" : "No");

	add_counts_and_lists(data, c->ctrl);
	return RCL_OK;
}

/* StorCLI's names of the task settings, as "Controller Properties" rows show them. */
static const char *const rate_props[SETTING_KINDS] = {
    [SETTING_REBUILD] = "Rebuild Rate",
    [SETTING_CC] = "CC Rate",
    [SETTING_BGI] = "BGI Rate",
    [SETTING_PR] = "PR Rate",
    [SETTING_RECON] = "Reconstruction Rate",
};

static struct rcl_node *property_row(struct rcl_node *table, const char *prop)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_str(row, "Ctrl_Prop", prop);
	return row;
}

/* A row for setting @kind of @s (SETTING_KINDS: the rebuild priority). */
static void add_rate_row(struct rcl_node *table, const struct task_settings *s, int kind)
{
	if (kind < SETTING_KINDS)
		rcl_node_add_strf(property_row(table, rate_props[kind]), "Value", "%u%%",
		                  s->rate[kind]);
	else
		rcl_node_add_str(property_row(table, "Rebuild Priority"), "Value",
		                 s->host_first ? "host" : "rebuild");
}

/* The task settings @c gives: *@changed says whether any. */
static void apply_rates(struct cmd_ctx *c, struct task_settings *s, bool *changed)
{
	const char *priority = cmd_value(c->args, "rebuildpriority");

	*changed = priority != NULL;
	for (int k = 0; k < SETTING_KINDS; k++) {
		const char *v = cmd_value(c->args, setting_name(k));

		if (v)
			s->rate[k] = (unsigned)strtoul(v, NULL, 10);
		*changed |= v != NULL;
	}
	if (priority)
		s->host_first = !strcmp(priority, "host");
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
static enum rcl_status apply_schedule(struct cmd_ctx *c, struct task_schedule *s,
                                      struct rcl_error *err)
{
	const char *start = cmd_value(c->args, "starttime");
	const char *exclude = cmd_value(c->args, "excludevd");
	const char *delay = cmd_value(c->args, "delay");
	uint64_t set = s->exclude;
	time_t at = 0;
	int missing;

	if (start && (!parse_starttime(start, &at) || at <= schedule_now())) {
		char now[32];

		format_time(now, sizeof(now), (time_t)schedule_now());
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

/* The patrol read settings @c gives: *@changed says whether any. */
static enum rcl_status apply_patrol(struct cmd_ctx *c, struct task_settings *s, bool *changed,
                                    struct rcl_error *err)
{
	static const char *const keys[] = {"patrolread",  "mode",      "delay",
	                                   "starttime",   "excludevd", "maxconcurrentpd",
	                                   "includessds", "uncfgareas"};
	const char *on = cmd_value(c->args, "patrolread");
	const char *mode = cmd_value(c->args, "mode");
	const char *drives = cmd_value(c->args, "maxconcurrentpd");
	const char *ssds = cmd_value(c->args, "includessds");
	const char *uncfg = cmd_value(c->args, "uncfgareas");

	*changed = false;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		*changed |= cmd_value(c->args, keys[k]) != NULL;
	if (on && !strcmp(on, "off") && mode)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "mode= goes with patrolread=on, not with patrolread=off");
	if (uncfg && !strcmp(uncfg, "on"))
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "uncfgareas=on is not supported: a soft controller's patrol read "
		                "reads the VDs' data only, not unconfigured drives or free space");
	if (apply_schedule(c, &s->pr, err))
		return err->status;
	if (on && !strcmp(on, "off"))
		s->pr_mode = PR_OFF;
	else if (mode)
		s->pr_mode = !strcmp(mode, "manual") ? PR_MANUAL : PR_AUTO;
	else if (on && s->pr_mode == PR_OFF)
		s->pr_mode = PR_AUTO; /* StorCLI's default mode */
	if (drives)
		s->pr_max_drives = (unsigned)strtoul(drives, NULL, 10);
	if (ssds)
		s->pr_ssds = !strcmp(ssds, "on")    ? PR_SSDS_ON
		             : !strcmp(ssds, "off") ? PR_SSDS_OFF
		                                    : PR_SSDS_MIXED;
	return RCL_OK;
}

/* A row of the "set" answer: @name's new @value, when one of @keys was given. */
static void changed_row(struct rcl_node *table, const struct cmd_ctx *c, const char *key,
                        const char *name, const char *value)
{
	if (cmd_value(c->args, key))
		rcl_node_add_str(property_row(table, name), "Value", value);
}

static void add_patrol_rows(struct rcl_node *table, const struct cmd_ctx *c,
                            const struct task_settings *s)
{
	char text[64];

	if (cmd_value(c->args, "patrolread") || cmd_value(c->args, "mode"))
		rcl_node_add_str(property_row(table, "PR Mode"), "Value",
		                 pr_mode_shown(s->pr_mode));
	snprintf(text, sizeof(text), "%u hours", s->pr.delay);
	changed_row(table, c, "delay", "PR Execution Delay", text);
	format_time(text, sizeof(text), (time_t)s->pr.start);
	changed_row(table, c, "starttime", "PR Next Start time", text);
	changed_row(table, c, "includessds", "PR on SSD", pr_ssds_shown(s->pr_ssds));
	schedule_excluded(&s->pr, text, sizeof(text));
	changed_row(table, c, "excludevd", "PR Excluded VDs", text);
	snprintf(text, sizeof(text), "%u", s->pr_max_drives);
	changed_row(table, c, "maxconcurrentpd", "PR MaxConcurrentPd", text);
	changed_row(table, c, "uncfgareas", "PR Unconfigured Areas", "Disabled");
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
	unsigned id = rcl_ctrl_id(c->ctrl);
	struct rcl_node *table;
	struct task_settings s;
	bool rates, patrol;
	enum rcl_status st = settings_load(c->lib, id, &s, err);

	if (!st)
		st = apply_patrol(c, &s, &patrol, err);
	if (st)
		return st;
	apply_rates(c, &s, &rates);
	rates |= patrol;
	if (!jbod && !rates)
		return nothing_to_set(c, err);
	if (jbod)
		st = rcl_ctrl_set_jbod_mode(c->ctrl, !strcmp(jbod, "on"), err);
	if (!st && rates)
		st = settings_save(c->lib, id, &s, err);
	if (st)
		return st;
	/* StorCLI answers a controller "set" with the properties' new values, not a description. */
	table = rcl_node_add_array(c->res->data, "Controller Properties");
	if (jbod)
		rcl_node_add_str(property_row(table, "JBOD"), "Value",
		                 !strcmp(jbod, "on") ? "ON" : "OFF");
	for (int k = 0; k < SETTING_KINDS; k++)
		if (cmd_value(c->args, setting_name(k)))
			add_rate_row(table, &s, k);
	if (cmd_value(c->args, "rebuildpriority"))
		add_rate_row(table, &s, SETTING_KINDS);
	add_patrol_rows(table, c, &s);
	return RCL_OK;
}

enum rcl_status cmd_ctrl_set_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	const char *mode = cmd_value(c->args, "cc");
	unsigned id = rcl_ctrl_id(c->ctrl);
	struct rcl_node *table;
	struct task_settings s;
	char text[64];
	enum rcl_status st = settings_load(c->lib, id, &s, err);

	if (!st && !mode && !cmd_value(c->args, "delay") && !cmd_value(c->args, "starttime") &&
	    !cmd_value(c->args, "excludevd"))
		return nothing_to_set(c, err);
	if (!st)
		st = apply_schedule(c, &s.cc, err);
	if (st)
		return st;
	if (mode)
		s.cc_mode = !strcmp(mode, "seq")    ? CC_SEQ
		            : !strcmp(mode, "conc") ? CC_CONC
		                                    : CC_OFF;
	st = settings_save(c->lib, id, &s, err);
	if (st)
		return st;
	table = rcl_node_add_array(c->res->data, "Controller Properties");
	changed_row(table, c, "cc", "CC Operation Mode", cc_mode_shown(s.cc_mode));
	snprintf(text, sizeof(text), "%u hours", s.cc.delay);
	changed_row(table, c, "delay", "CC Execution Delay", text);
	format_time(text, sizeof(text), (time_t)s.cc.start);
	changed_row(table, c, "starttime", "CC Next Starttime", text);
	schedule_excluded(&s.cc, text, sizeof(text));
	changed_row(table, c, "excludevd", "CC Excluded VDs", text);
	return RCL_OK;
}

enum rcl_status cmd_ctrl_show_rate(struct cmd_ctx *c, struct rcl_error *err)
{
	const char *what = c->args->cmd->verb + strlen("show ");
	struct task_settings s;
	int kind = 0;
	enum rcl_status st = settings_load(c->lib, rcl_ctrl_id(c->ctrl), &s, err);

	while (kind < SETTING_KINDS && strcmp(setting_name(kind), what))
		kind++;
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
