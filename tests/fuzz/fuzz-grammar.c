// SPDX-License-Identifier: MIT
/*
 * fuzz-grammar.c - the command grammar under arbitrary input: a line is
 * split into words (cli_split_line), parsed (cli_parse) and completed
 * (cli_complete). Nothing may crash, every refusal must carry a message,
 * and what parses must be a command the table has, with values its
 * options accept. Completion reads a live state directory holding one soft
 * controller, so object paths come from a real configuration.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"
#include "soft/soft.h"

/* Longer lines only slow the fuzzer down: the parser caps words anyway. */
#define MAX_LINE 4096

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct rcl_soft_params params = {.drives = 2, .drive_bytes = 16 << 20, .sector_size = 512};
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;
	unsigned id;

	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "we");
	FUZZ_CHECK(devnull);
	FUZZ_CHECK(!rcl_ctx_new(&ctx, fuzz_state_dir(), &err));
	FUZZ_CHECK(!rcl_soft_create(ctx, &params, &id, &err));
	rcl_ctx_free(ctx);
	return 0;
}

/* What parsed must hold together: a known command, values its options take. */
static void check_parsed(const struct cmd_args *args)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	if (args->help) {
		FUZZ_CHECK(args->help_words <= 4);
		cli_help(devnull, args, NULL);
		return;
	}
	/* A command of the grammar, or of a part no kind has yet (taking StorCLI's options). */
	FUZZ_CHECK((args->cmd >= cli_commands && args->cmd < cli_commands + cli_command_count) ||
	           cli_part_command_index(args->cmd) != SIZE_MAX);
	FUZZ_CHECK(args->cmd->object == args->path.kind);
	for (size_t i = 0; i < CMD_MAX_OPTS && args->cmd->opts[i].name; i++) {
		const struct opt_spec *opt = &args->cmd->opts[i];
		const char *value = args->values[i];
		uint64_t bytes;

		if (!value)
			FUZZ_CHECK(!opt->required);
		else if (opt->type == OPT_SIZE)
			FUZZ_CHECK(!rcl_size_parse(value, &bytes, NULL));
		else if (opt->type == OPT_UINT)
			FUZZ_CHECK(strtoul(value, NULL, 10) >= opt->min &&
			           strtoul(value, NULL, 10) <= opt->max);
	}
	grammar_synopsis(&sb, args->cmd, NULL);
	FUZZ_CHECK(!sb.oom && sb.len);
	rcl_buf_release(&sb);
}

/* A refusal is rendered as the CLI would, to exercise quoting of any bytes. */
static void check_refusal(const struct rcl_error *err, const struct obj_path *path)
{
	struct rcl_reply reply;

	FUZZ_CHECK(err->status == RCL_INVALID_COMMAND || err->status == RCL_INVALID_PARAM);
	FUZZ_CHECK(err->msg[0]);
	rcl_reply_init(&reply);
	cli_reply_error(&reply, path, err);
	FUZZ_CHECK(reply.count == 1 && reply.results[0].status == err->status);
	render_json(devnull, &reply);
	render_text(devnull, &reply, false);
	rcl_reply_release(&reply);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rcl_error err = {0};
	struct cmd_args args;
	char *line, **argv, **words;
	int argc;
	size_t n;

	if (size > MAX_LINE)
		return 0;
	if (!devnull)
		LLVMFuzzerInitialize(NULL, NULL);
	line = malloc(size + 1);
	FUZZ_CHECK(line);
	memcpy(line, data, size);
	line[size] = '\0';

	if (!cli_split_line(line, &argc, &argv, &err)) {
		FUZZ_CHECK(argc >= 0 && (argc == 0 || argv));
		for (int i = 0; i < argc; i++)
			FUZZ_CHECK(argv[i]);
		if (!cli_parse(argc, argv, &args, &err))
			check_parsed(&args);
		else
			check_refusal(&err, NULL);
		cli_free_words(argc, argv);
	} else {
		FUZZ_CHECK(err.status == RCL_INVALID_COMMAND && err.msg[0]);
	}

	n = cli_complete(line, &words);
	for (size_t i = 0; i < n; i++) {
		FUZZ_CHECK(words[i]);
		rcl_free(words[i]);
	}
	rcl_free(words);
	free(line);
	return 0;
}
