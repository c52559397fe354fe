// SPDX-License-Identifier: MIT
/*
 * main.c - argv to one command, its output, and the exit status.
 *
 * The exit status is the command's status code: 0 on success, StorCLI's
 * error code otherwise (raidcli's own codes are 240 and up).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static bool want_color(void)
{
	const char *term = getenv("TERM");

	return isatty(STDOUT_FILENO) && !getenv("NO_COLOR") && term && strcmp(term, "dumb");
}

static bool argv_wants_json(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (cli_is_json_word(argv[i]))
			return true;
	return false;
}

/* How a reply goes to standard output: as JSON or text, as its results come. */
static struct render_stream to_stdout(bool json)
{
	return (struct render_stream){.out = stdout, .json = json, .color = !json && want_color()};
}

/* The file= a command writes its answer to (show events), or NULL. */
static const char *answer_file(const struct cmd_args *args)
{
	return args->cmd->flags & CMD_ANSWER_TO_FILE ? cmd_value(args, "file") : NULL;
}

/*
 * Whether @args' results may be printed as they come: not when they are
 * followed (wait), written to a file, or a metrics exposition (written
 * whole, atomically).
 */
static bool streams(const struct cmd_args *args)
{
	return !cmd_value(args, "wait") && !(args->cmd->flags & CMD_METRICS) && !answer_file(args);
}

static enum rcl_status write_text_file(const char *path, const struct rcl_reply *reply,
                                       struct rcl_error *err)
{
	FILE *f = fopen(path, "w");

	if (f)
		render_text(f, reply, false);
	if (!f || fclose(f))
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot write '%s': %s", path,
		                      strerror(errno));
	return RCL_OK;
}

/*
 * file= (show events): StorCLI writes the answer to the file, as text;
 * the terminal gets where it went. sosreport passes file=/dev/stdout.
 * show metrics writes its exposition there, atomically, as a textfile
 * collector needs it; a controller that failed is in it, as a sample,
 * and keeps its failure here. A file that cannot be written fails the
 * command instead.
 */
static void divert_to_file(struct rcl_reply *reply, const struct cmd_args *args, const char *path)
{
	bool metrics = args->cmd->flags & CMD_METRICS;
	struct rcl_error err = {0};

	if (metrics ? render_command_failed(reply) : rcl_reply_status(reply) != RCL_OK)
		return;
	if (!(metrics ? render_metrics_file(path, reply, &err)
	              : write_text_file(path, reply, &err))) {
		for (size_t i = 0; i < reply->count; i++) {
			rcl_node_free(reply->results[i].data);
			reply->results[i].data = NULL;
			if (!reply->results[i].status)
				rcl_result_describe(&reply->results[i], "Written to '%s'.", path);
		}
		return;
	}
	rcl_reply_release(reply);
	rcl_reply_init(reply);
	cli_reply_error(reply, &args->path, &err);
}

int cli_execute(int argc, char **argv)
{
	struct rcl_error err = {0};
	struct rcl_reply reply;
	struct render_stream rs;
	struct cmd_args args;
	struct rcl_caps caps;
	int status;

	rcl_reply_init(&reply);
	if (cli_parse(argc, argv, &args, &err)) {
		cli_reply_error(&reply, NULL, &err);
		rs = to_stdout(argv_wants_json(argc, argv));
		status = render_reply(&reply, &rs, false);
	} else if (args.help) {
		if (cli_help(stdout, &args, cli_path_caps(&args.path, &caps)))
			return 0;
		rcl_fail(&err, RCL_INVALID_COMMAND, "no command matches; see 'raidcli help'");
		cli_reply_error(&reply, NULL, &err);
		rs = to_stdout(args.json);
		status = render_reply(&reply, &rs, false);
	} else {
		rs = to_stdout(args.json);
		cli_run(&args, &reply, streams(&args) ? &rs : NULL);
		if (cmd_value(&args, "wait") && !rcl_reply_status(&reply))
			cli_wait(&args, &reply);
		if (answer_file(&args))
			divert_to_file(&reply, &args, answer_file(&args));
		status = render_reply(&reply, &rs,
		                      (args.cmd->flags & CMD_METRICS) && !cmd_value(&args, "file"));
	}
	cli_askpass_settle(status == 0);
	rcl_reply_release(&reply);
	return status;
}

/* Internal commands for the completion scripts, the build and the tests. */
static int run_internal(int argc, char **argv)
{
	if (!strcmp(argv[1], "__complete") && argc == 3) {
		char **words;
		size_t n = cli_complete(argv[2], &words);

		for (size_t i = 0; i < n; i++) {
			puts(words[i]);
			rcl_free(words[i]);
		}
		rcl_free(words);
		return 0;
	}
	if (!strcmp(argv[1], "__completion") && argc == 3) {
		cli_completion_script(stdout, argv[2]);
		return 0;
	}
	if (!strcmp(argv[1], "__grammar") && argc == 2) {
		for (size_t i = 0; i < cli_command_count; i++) {
			struct rcl_buf sb = RCL_BUF_INIT;

			grammar_synopsis(&sb, &cli_commands[i], NULL);
			puts(sb.buf);
			rcl_buf_release(&sb);
		}
		return 0;
	}
	fprintf(stderr, "raidcli: unknown internal command '%s'\n", argv[1]);
	return RCL_INVALID_COMMAND;
}

int main(int argc, char **argv)
{
	int status;

	if (argc == 1) {
		status = isatty(STDIN_FILENO) ? cli_repl() : cli_batch(stdin);
		cli_askpass_forget();
		return status;
	}
	if (!strncmp(argv[1], "__", 2))
		return run_internal(argc, argv);
	status = cli_execute(argc - 1, argv + 1);
	cli_askpass_forget();
	if (fflush(stdout) || ferror(stdout)) {
		perror("raidcli: cannot write output");
		return RCL_SYSTEM;
	}
	return status;
}
