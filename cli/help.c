// SPDX-License-Identifier: MIT
/*
 * help.c - "raidcli help", "raidcli /c0 help", "raidcli /c0 add help": the
 * commands from the grammar table that fit what was typed before "help".
 */
#include <string.h>
#include <strings.h>

#include "cli.h"

static const char *const help_intro =
    "Usage: raidcli [object] verb [words] [key=value ...] [J] [nolog]\n"
    "Objects: /cN controller, /cN/eN enclosure, /cN/eN/sN or /cN/sN drive,\n"
    "         /cN/vN virtual drive, /cN/dN disk group; N may be 'all', a list (0,1)\n"
    "         or a range (0-3). J prints StorCLI-compatible JSON.\n"
    "With no arguments on a terminal raidcli opens an interactive shell.\n";

/* Whether the words typed before "help" start @cmd's verb. */
static bool verb_starts_with(const struct cmd_spec *cmd, const struct cmd_args *args)
{
	const char *verb = cmd->verb;

	for (size_t i = 0; i < args->help_words; i++) {
		const char *word = grammar_canonical_word(args->help_verb[i]);
		size_t len = strcspn(verb, " ");

		if (strlen(word) != len || strncasecmp(verb, word, len))
			return false;
		verb += len;
		verb += *verb == ' ';
	}
	return true;
}

static void put_command(FILE *out, const struct cmd_spec *cmd, const struct rcl_caps *caps,
                        bool detailed)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	grammar_synopsis(&sb, cmd, caps);
	fprintf(out, "%s\n    %s\n", sb.buf, cmd->summary);
	rcl_buf_release(&sb);
	if (!detailed)
		return;
	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++)
		if (cli_offers_opt(&cmd->opts[i], caps))
			fprintf(out, "    %-12s %s%s\n", cmd->opts[i].name, cmd->opts[i].help,
			        cmd->opts[i].required ? " (required)" : "");
	fprintf(out, "    example: %s\n", cmd->example);
}

/* Whether help for @args shows @cmd (@everything: "raidcli help", every object). */
static bool shown(const struct cmd_spec *cmd, const struct cmd_args *args,
                  const struct rcl_caps *caps, bool everything)
{
	return (everything || cmd->object == args->path.kind) && verb_starts_with(cmd, args) &&
	       cli_offers(cmd, caps);
}

bool cli_help(FILE *out, const struct cmd_args *args, const struct rcl_caps *caps)
{
	enum obj_kind kind = args->path.kind;
	bool everything = kind == OBJ_SYSTEM && !args->help_words;
	size_t matches = 0;

	for (size_t i = 0; i < cli_command_count; i++)
		matches += shown(&cli_commands[i], args, caps, everything);
	if (!matches)
		return false;
	if (everything)
		fprintf(out, "%s\n", help_intro);
	for (size_t i = 0; i < cli_command_count; i++)
		if (shown(&cli_commands[i], args, caps, everything))
			put_command(out, &cli_commands[i], caps,
			            !everything && (matches == 1 || args->help_words));
	if (everything)
		fprintf(out, "\nSee raidcli(8) for details and examples.\n");
	return true;
}
