// SPDX-License-Identifier: MIT
/*
 * cmd-ctrl.c - controller commands: /cN show [all], /cN del, /cN add drive.
 */
#include <stdlib.h>
#include <string.h>
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

enum rcl_status cmd_ctrl_show_all(struct cmd_ctx *c, struct rcl_error *err)
{
	const struct rcl_ctrl_info *info = rcl_ctrl_info(c->ctrl);
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
	rcl_node_add_str(section, "BBU Status", "NA");

	/* Say what the hardware lacks instead of inventing sensor readings. */
	section = rcl_node_add_object(data, "HwCfg");
	rcl_node_add_int(section, "Backend Port Count", info->max_drives);
	rcl_node_add_str(section, "BBU", "Absent");
	rcl_node_add_str(section, "Alarm", "Absent");
	rcl_node_add_str(section, "On Board Memory Size", "0MB");
	rcl_node_add_str(section, "Temperature Sensor for ROC", "Absent");
	rcl_node_add_str(section, "Temperature Sensor for Controller", "Absent");

	/* What "add vd" uses when no option says otherwise. */
	section = rcl_node_add_object(data, "Defaults");
	rcl_node_add_str(section, "Strip Size", "64 KB");
	rcl_node_add_str(section, "Write Policy", "WT");
	rcl_node_add_str(section, "Read Policy", "RA");

	section = rcl_node_add_object(data, "Capabilities");
	rcl_node_add_str(section, "Supported Drives", "Image File, Block Device");
	rcl_node_add_str(section, "RAID Level Supported",
	                 "RAID0, RAID1(2 drives), RAID5, RAID6, RAID10(2 drives per span), RAID50, "
	                 "RAID60");
	rcl_node_add_int(section, "Max Arrays", RCL_MAX_DGS);
	rcl_node_add_int(section, "Max Arms Per VD", RCL_MAX_DRIVES_PER_SPAN);
	rcl_node_add_int(section, "Max Spans Per VD", RCL_MAX_SPANS);
	rcl_node_add_int(section, "Max Number of VDs", RCL_MAX_VDS);
	rcl_node_add_int(section, "Max VD per array", RCL_MAX_VDS_PER_DG);
	rcl_node_add_int(section, "Max Drives", info->max_drives);
	rcl_node_add_str(section, "Min Strip Size", "8 KB");
	rcl_node_add_str(section, "Max Strip Size", "1.000 MB");
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

/* The patrol read settings @c gives: *@changed says whether any. */
static enum rcl_status apply_patrol(struct cmd_ctx *c, struct task_settings *s, bool *changed,
                                    struct rcl_error *err)
{
	const char *on = cmd_value(c->args, "patrolread");
	const char *mode = cmd_value(c->args, "mode");
	const char *delay = cmd_value(c->args, "delay");

	*changed = on || mode || delay;
	if (on && !strcmp(on, "off") && mode)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "mode= goes with patrolread=on, not with patrolread=off");
	if (on && !strcmp(on, "off"))
		s->pr_mode = PR_OFF;
	else if (mode)
		s->pr_mode = !strcmp(mode, "manual") ? PR_MANUAL : PR_AUTO;
	else if (on && s->pr_mode == PR_OFF)
		s->pr_mode = PR_AUTO; /* StorCLI's default mode */
	if (delay)
		s->pr_delay = (unsigned)strtoul(delay, NULL, 10);
	return RCL_OK;
}

static void add_patrol_rows(struct rcl_node *table, const struct cmd_ctx *c,
                            const struct task_settings *s)
{

	if (cmd_value(c->args, "patrolread") || cmd_value(c->args, "mode"))
		rcl_node_add_str(property_row(table, "PR Mode"), "Value",
		                 pr_mode_shown(s->pr_mode));
	if (cmd_value(c->args, "delay"))
		rcl_node_add_strf(property_row(table, "PR Execution Delay"), "Value", "%u hours",
		                  s->pr_delay);
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
		return rcl_fail(
		    err, RCL_INVALID_COMMAND,
		    "nothing to set: give jbod=, rebuildrate=, ccrate=, bgirate=, "
		    "prrate=, reconrate=, rebuildpriority=, patrolread=, mode= or delay=, "
		    "as in: %s",
		    c->args->cmd->example);
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
