// SPDX-License-Identifier: MIT
/*
 * cmd-props.c - StorCLI's one-property answers a software controller can
 * give truthfully: /cN show|set time, show jbod, autorebuild (a card's
 * properties hold it), foreignautoimport, bootdrive, freespace; the
 * enclosure's show all and status; the drives' show initialization and
 * show erase. What a kind cannot do is refused before these run
 * (cli_check_caps()).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* A "Controller Properties" row, as StorCLI prints one setting. */
static void property(struct cmd_ctx *c, const char *prop, const char *value)
{
	struct rcl_node *table = rcl_node_add_array(c->res->data, "Controller Properties");
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_str(row, "Ctrl_Prop", prop);
	rcl_node_add_str(row, "Value", value);
}

/* The "Time" row: @t in StorCLI's form. */
static void time_property(struct cmd_ctx *c, time_t t)
{
	char text[32];

	format_time(text, sizeof(text), t);
	property(c, "Time", text);
}

/* A card's own clock as it was read at load; a soft controller's is the system's. */
enum rcl_status cmd_ctrl_show_time(struct cmd_ctx *c, struct rcl_error *err)
{
	time_t clock = rcl_ctrl_info(c->ctrl)->clock;

	if (clock == RCL_CLOCK_NO_DATE)
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the controller's clock reads no date (never set, or not one): "
		                "set it with 'set time=systemtime'");
	time_property(c, clock ? clock : time(NULL));
	return RCL_OK;
}

/* StorCLI's "yyyymmdd hh:mm:ss", a local time, into *@t. */
static enum rcl_status parse_time(const char *value, time_t *t, struct rcl_error *err)
{
	struct tm tm = {.tm_isdst = -1};
	const char *end = strptime(value, "%Y%m%d %H:%M:%S", &tm);

	if (!end || *end || strlen(value) != 17 || (*t = mktime(&tm)) == (time_t)-1)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "'%s' is not a time: give yyyymmdd hh:mm:ss (set time=20261207 "
		                "03:00:00) or set time=systemtime",
		                value);
	return RCL_OK;
}

/*
 * A card's clock takes the time given or the system's; a controller
 * without its own keeps the system's, so "time=systemtime" holds already
 * and another time is refused (rcl_ctrl_set_time()).
 */
enum rcl_status cmd_ctrl_set_time(struct cmd_ctx *c, struct rcl_error *err)
{
	const char *value = cmd_value(c->args, "time");
	bool system = !strcmp(value, "systemtime");
	time_t t = time(NULL);
	enum rcl_status st = system ? RCL_OK : parse_time(value, &t, err);

	if (!st)
		st = rcl_ctrl_set_time(c->ctrl, t, system, err);
	if (!st)
		time_property(c, t);
	return st;
}

enum rcl_status cmd_ctrl_show_jbod(struct cmd_ctx *c, struct rcl_error *err)
{
	(void)err;
	property(c, "JBOD", rcl_ctrl_info(c->ctrl)->jbod ? "ON" : "OFF");
	return RCL_OK;
}

/* Whether the controller offers automatic rebuild as a setting (a card's properties do). */
static bool auto_rebuild_setting(const struct cmd_ctx *c)
{
	return rcl_ctrl_caps(c->ctrl)->settings >> RCL_SETTING_AUTO_REBUILD & 1;
}

/*
 * Hot spares take a lost member's place by themselves: a rebuild needs no
 * command, unless a card's properties say otherwise.
 */
enum rcl_status cmd_ctrl_show_autorebuild(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_ctrl_settings s = {0};
	enum rcl_status st =
	    auto_rebuild_setting(c) ? rcl_ctrl_settings_get(c->ctrl, &s, err) : RCL_OK;

	if (!st)
		property(c, "Auto Rebuild", s.no_auto_rebuild ? "OFF" : "ON");
	return st;
}

/*
 * set autorebuild=, set foreignautoimport=: a software controller always
 * rebuilds onto spares and never imports by itself, so the value it keeps
 * is accepted and the other one refused.
 */
static enum rcl_status set_fixed(struct cmd_ctx *c, const char *key, const char *prop,
                                 const char *fixed, const char *what, struct rcl_error *err)
{
	const char *value = cmd_value(c->args, key);

	if (strcmp(value, fixed))
		return rcl_unsupported(err, rcl_ctrl_caps(c->ctrl)->kind, what, NULL);
	property(c, prop, !strcmp(fixed, "on") ? "ON" : "OFF");
	return RCL_OK;
}

/* A controller offering the setting stores it (the others as they are); another keeps it on. */
enum rcl_status cmd_ctrl_set_autorebuild(struct cmd_ctx *c, struct rcl_error *err)
{
	bool on = !strcmp(cmd_value(c->args, "autorebuild"), "on");
	struct rcl_ctrl_settings s;
	enum rcl_status st;

	if (auto_rebuild_setting(c)) {
		st = rcl_ctrl_settings_get(c->ctrl, &s, err);
		s.no_auto_rebuild = !on;
		if (!st)
			st =
			    rcl_ctrl_settings_set(c->ctrl, 1u << RCL_SETTING_AUTO_REBUILD, &s, err);
		if (!st)
			property(c, "Auto Rebuild", on ? "ON" : "OFF");
		return st;
	}
	return set_fixed(c, "autorebuild", "Auto Rebuild", "on", "turning automatic rebuild off",
	                 err);
}

enum rcl_status cmd_ctrl_set_foreignautoimport(struct cmd_ctx *c, struct rcl_error *err)
{
	return set_fixed(c, "foreignautoimport", "Foreign Auto Import", "off",
	                 "importing foreign configurations automatically", err);
}

/* The event log's sequence numbers, as StorCLI's eventloginfo lists them. */
enum rcl_status cmd_ctrl_show_eventloginfo(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_event_list list = {0};
	struct rcl_node *info;
	enum rcl_status st = rcl_ctrl_events(c->ctrl, NULL, &list, err);

	if (st)
		return st;
	info = rcl_node_add_object(c->res->data, "Event Log Information");
	rcl_node_add_int(info, "Newest sequence number",
	                 list.count ? (long long)list.events[list.count - 1].seq : 0);
	rcl_node_add_int(info, "Oldest sequence number",
	                 list.count ? (long long)list.events[0].seq : 0);
	rcl_node_add_int(info, "Event count", (long long)list.count);
	rcl_event_list_release(&list);
	return RCL_OK;
}

/* Foreign configurations stay foreign until "/cN/fall import". */
enum rcl_status cmd_ctrl_show_foreignautoimport(struct cmd_ctx *c, struct rcl_error *err)
{
	(void)err;
	property(c, "Foreign Auto Import", "OFF");
	return RCL_OK;
}

/* The host boots from its own disks: no VD or drive is the controller's boot drive. */
enum rcl_status cmd_ctrl_show_bootdrive(struct cmd_ctx *c, struct rcl_error *err)
{
	(void)err;
	property(c, "Bootdrive", "None");
	return RCL_OK;
}

enum rcl_status cmd_ctrl_show_freespace(struct cmd_ctx *c, struct rcl_error *err)
{
	(void)err;
	if (!add_free_space(c->res->data, c->ctrl, NULL))
		rcl_node_add_array(c->res->data, "FREE SPACE DETAILS");
	return RCL_OK;
}

/*
 * A command of a part or task raidcli does not drive yet: cli_check_caps()
 * refuses it on a controller without the part or task; one with it waits
 * for raidcli to drive them.
 */
enum rcl_status cmd_part_absent(struct cmd_ctx *c, struct rcl_error *err)
{
	const struct cmd_spec *cmd = c->args->cmd;
	const struct rcl_caps *caps;
	enum rcl_status st;
	char what[128];

	/* The system's forms (show file=): no kind raidcli knows has the part. */
	if (!c->ctrl)
		return rcl_fail(err, RCL_HW_MISSING,
		                "'%s' (%s) is not supported by any controller raidcli knows",
		                cmd->verb, rcl_part_name(cmd->part));
	caps = rcl_ctrl_caps(c->ctrl);
	st = cmd->flags & CMD_PART ? rcl_caps_check_part(caps, cmd->part, cmd->verb, err) : RCL_OK;

	if (st)
		return st;
	/* Named as cli_check_caps() names a part's command, with what is missing. */
	snprintf(what, sizeof(what), "'%s %s'", grammar_object_name(cmd->object), cmd->verb);
	return rcl_unsupported(err, caps->kind, what, "raidcli does not drive it yet");
}
