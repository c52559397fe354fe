// SPDX-License-Identifier: MIT
/*
 * grammar.c - the command table: every object, verb and option raidcli
 * accepts, with help text and handler. The parser, help, "did you mean",
 * REPL and shell completion, and the man-page check all read this table;
 * a new command is one entry here plus its handler.
 */
#include <string.h>
#include <strings.h>

#include "cli.h"

static const char *const soft_types[] = {"soft", NULL};
static const char *const sector_sizes[] = {"512", "4096", NULL};
static const char *const delete_what[] = {"files", NULL};

#define OPT_FORCE {"force", OPT_FLAG, NULL, 0, 0, "confirm a destructive change", false}

const struct cmd_spec cli_commands[] = {
	{OBJ_SYSTEM, "show", cmd_system_show, 0, "list the controllers and their health",
	 "raidcli show", {{0}}},
	{OBJ_SYSTEM, "show all", cmd_system_show_all, 0,
	 "list the controllers, with raidcli's version and state directory", "raidcli show all",
	 {{0}}},
	{OBJ_SYSTEM, "show ctrlcount", cmd_system_ctrlcount, 0, "count the controllers",
	 "raidcli show ctrlcount", {{0}}},
	{OBJ_SYSTEM, "version", cmd_system_version, 0, "print raidcli's version (also -v)",
	 "raidcli -v", {{0}}},
	{OBJ_SYSTEM, "add controller", cmd_add_controller, CMD_WRITES,
	 "create a software RAID controller whose drives are new sparse image files",
	 "raidcli add controller type=soft drives=4 size=10GB",
	 {{"type", OPT_ENUM, soft_types, 0, 0, "the kind of controller to create", true},
	  {"drives", OPT_UINT, NULL, 0, RCL_SOFT_MAX_DRIVES, "how many image files to create",
	   true},
	  {"size", OPT_SIZE, NULL, 0, 0, "each image's size (100GB, 1.5TiB; units are binary)",
	   false},
	  {"dir", OPT_PATH, NULL, 0, 0, "where to create the images", false},
	  {"sectorsize", OPT_ENUM, sector_sizes, 0, 0, "logical sector size of the drives",
	   false}}},
	{OBJ_CTRL, "show", cmd_ctrl_show, CMD_PER_CTRL, "summarize a controller and its drives",
	 "raidcli /c0 show", {{0}}},
	{OBJ_CTRL, "show all", cmd_ctrl_show_all, CMD_PER_CTRL,
	 "show everything about a controller", "raidcli /c0 show all", {{0}}},
	{OBJ_CTRL, "delete", cmd_ctrl_delete, CMD_PER_CTRL | CMD_WRITES,
	 "forget a software controller; its image files are kept unless delete=files",
	 "raidcli /c0 del", {OPT_FORCE,
	 {"delete", OPT_ENUM, delete_what, 0, 0,
	  "also delete the image files raidcli created (needs force)", false}}},
	{OBJ_CTRL, "add drive", cmd_ctrl_add_drive, CMD_PER_CTRL | CMD_WRITES,
	 "put an image file or block device in the first free slot",
	 "raidcli /c0 add drive path=/dev/sdb",
	 {{"path", OPT_PATH, NULL, 0, 0, "the image file or block device", true}}},
	{OBJ_ENCL, "show", cmd_encl_show, CMD_PER_CTRL, "list enclosures", "raidcli /c0/eall show",
	 {{0}}},
	{OBJ_DRIVE, "show", cmd_drive_show, CMD_PER_CTRL, "list drives",
	 "raidcli /c0/eall/sall show", {{0}}},
	{OBJ_DRIVE, "show all", cmd_drive_show_all, CMD_PER_CTRL,
	 "show every detail of drives", "raidcli /c0/e252/s0 show all", {{0}}},
	{OBJ_DRIVE, "delete", cmd_drive_delete, CMD_PER_CTRL | CMD_WRITES,
	 "empty a slot of a software controller (the file or device is kept)",
	 "raidcli /c0/e252/s3 del", {{0}}},
	{OBJ_VD, "show", cmd_vd_show, CMD_PER_CTRL, "list virtual drives", "raidcli /c0/vall show",
	 {{0}}},
	{OBJ_VD, "show all", cmd_vd_show, CMD_PER_CTRL, "show every detail of virtual drives",
	 "raidcli /c0/vall show all", {{0}}},
	{OBJ_DG, "show", cmd_dg_show, CMD_PER_CTRL, "list disk groups", "raidcli /c0/dall show",
	 {{0}}},
	{OBJ_DG, "show all", cmd_dg_show, CMD_PER_CTRL, "show every detail of disk groups",
	 "raidcli /c0/dall show all", {{0}}},
};

const size_t cli_command_count = sizeof(cli_commands) / sizeof(cli_commands[0]);

/* StorCLI's synonyms, each mapped to the spelling the table uses. */
static const struct {
	const char *alias;
	const char *word;
} word_aliases[] = {
	{"del", "delete"},
	{"-v", "version"},
	{"v", "version"},
	{"-version", "version"},
	{"--version", "version"},
};

const char *grammar_canonical_word(const char *word)
{
	for (size_t i = 0; i < sizeof(word_aliases) / sizeof(word_aliases[0]); i++)
		if (!strcasecmp(word, word_aliases[i].alias))
			return word_aliases[i].word;
	return word;
}

const char *grammar_object_name(enum obj_kind kind)
{
	static const char *const names[] = {
		[OBJ_SYSTEM] = "",        [OBJ_CTRL] = "/cx",    [OBJ_ENCL] = "/cx/ex",
		[OBJ_DRIVE] = "/cx/ex/sx", [OBJ_VD] = "/cx/vx", [OBJ_DG] = "/cx/dx",
	};

	return names[kind];
}

static const char *value_placeholder(const struct opt_spec *opt)
{
	switch (opt->type) {
	case OPT_UINT:
		return "<n>";
	case OPT_SIZE:
		return "<size>";
	case OPT_PATH:
		return "<path>";
	case OPT_STRING:
		return "<text>";
	case OPT_FLAG:
	case OPT_ENUM:
		break;
	}
	return "";
}

void grammar_synopsis(struct rcl_buf *sb, const struct cmd_spec *cmd)
{
	rcl_buf_adds(sb, "raidcli");
	if (cmd->object != OBJ_SYSTEM)
		rcl_buf_addf(sb, " %s", grammar_object_name(cmd->object));
	rcl_buf_addf(sb, " %s", cmd->verb);
	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++) {
		const struct opt_spec *opt = &cmd->opts[i];

		rcl_buf_adds(sb, opt->required ? " " : " [");
		rcl_buf_adds(sb, opt->name);
		if (opt->type == OPT_ENUM) {
			rcl_buf_addch(sb, '=');
			for (size_t k = 0; opt->choices[k]; k++)
				rcl_buf_addf(sb, "%s%s", k ? "|" : "", opt->choices[k]);
		} else if (opt->type != OPT_FLAG) {
			rcl_buf_addf(sb, "=%s", value_placeholder(opt));
		}
		if (!opt->required)
			rcl_buf_addch(sb, ']');
	}
}
