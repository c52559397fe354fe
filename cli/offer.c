// SPDX-License-Identifier: MIT
/*
 * offer.c - what the grammar offers for a path: help and completion show
 * only the commands and options the addressed controllers can do, as
 * their capability records (struct rcl_caps) say. A command a controller
 * cannot do still parses, and cli_check_caps() refuses it naming the kind.
 */
#include <string.h>

#include "cli.h"

bool cli_offers_opt(const struct opt_spec *opt, const struct rcl_caps *caps)
{
	return !caps || (opt->settings & caps->settings) == opt->settings;
}

bool cli_offers_choice(const struct cmd_spec *cmd, const struct opt_spec *opt, const char *choice,
                       const struct rcl_caps *caps)
{
	enum rcl_raid_level level;

	if (!caps || !(cmd->flags & CMD_RAID_LEVEL) || strcmp(opt->name, "type") ||
	    rcl_raid_level_parse(choice, &level, NULL))
		return true;
	return caps->levels & (1u << level);
}

/* Whether @cmd's options are all settings, none of which @caps has. */
static bool no_setting_offered(const struct cmd_spec *cmd, const struct rcl_caps *caps)
{
	size_t i;

	for (i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++)
		if (!cmd->opts[i].settings || cli_offers_opt(&cmd->opts[i], caps))
			return false;
	return i > 0;
}

bool cli_offers(const struct cmd_spec *cmd, const struct rcl_caps *caps)
{
	/*
	 * Not what cli_check_caps() refuses before any option: a task, a drive
	 * action, exports, a setting.
	 */
	struct cmd_args bare = {.cmd = cmd};

	if (!caps)
		return true;
	if (cli_check_caps(&bare, caps, NULL) || ((cmd->flags & CMD_RAID_LEVEL) && !caps->levels))
		return false;
	return !no_setting_offered(cmd, caps);
}

/* Add to @sum what @caps offers: a command either controller can do is offered. */
static void caps_union(struct rcl_caps *sum, const struct rcl_caps *caps)
{
	sum->levels |= caps->levels;
	sum->tasks |= caps->tasks;
	sum->settings |= caps->settings;
	sum->exports = sum->exports || caps->exports;
	sum->needs_process = sum->needs_process || caps->needs_process;
	sum->adds_drives = sum->adds_drives || caps->adds_drives;
	sum->inserts_drives = sum->inserts_drives || caps->inserts_drives;
	sum->parts |= caps->parts;
	sum->drive_actions |= caps->drive_actions;
	if (caps->cache_mib > sum->cache_mib)
		sum->cache_mib = caps->cache_mib;
	/* One module kind fits: the first controller's that has one is offered. */
	if (!sum->backup)
		sum->backup = caps->backup;
}

bool cli_object_is_backup(enum obj_kind kind)
{
	return kind == OBJ_BBU || kind == OBJ_CV;
}

const struct rcl_caps *cli_path_caps(const struct obj_path *path, struct rcl_caps *buf)
{
	const struct rcl_caps *caps;
	struct rcl_caps asked;
	bool found = false;
	struct rcl_ctx *lib;
	const unsigned *ids;
	size_t count;

	if (path->kind == OBJ_SYSTEM || rcl_ctx_new(&lib, NULL, NULL))
		return NULL;
	memset(buf, 0, sizeof(*buf));
	count = rcl_ctx_ctrl_ids(lib, &ids);
	for (size_t i = 0; i < count; i++) {
		if (!id_in(&path->ctrl, ids[i]) || rcl_ctx_ctrl_caps(lib, ids[i], &caps, NULL))
			continue;
		if (cli_object_is_backup(path->kind) &&
		    !rcl_ctx_ctrl_backup_caps(lib, ids[i], &asked, NULL))
			caps = &asked;
		caps_union(buf, caps);
		found = true;
	}
	rcl_ctx_free(lib);
	return found ? buf : NULL;
}
