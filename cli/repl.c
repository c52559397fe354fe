// SPDX-License-Identifier: MIT
/*
 * repl.c - the interactive shell (libedit) and batch mode.
 *
 * The shell keeps a current object: typing only a path ("/c0") makes it
 * current and shows in the prompt; "/" goes back to the system level. A
 * command without a path runs on the current object, and a path that does
 * not start with a controller ("/eall/sall") is taken below it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <editline/readline.h>

#include "cli.h"

static char current[128]; /* "" or "/c0" or "/c0/v1": the current object */

static char *history_path(void)
{
	const char *env = getenv("XDG_STATE_HOME");
	struct rcl_buf dir = RCL_BUF_INIT;
	char *path;

	if (env && *env == '/')
		rcl_buf_addf(&dir, "%s/raidcli", env);
	else if ((env = getenv("HOME")) && *env)
		rcl_buf_addf(&dir, "%s/.local/state/raidcli", env);
	else
		return NULL;
	if (dir.oom || rcl_mkdir_p(dir.buf, 0700, NULL)) {
		rcl_buf_release(&dir);
		return NULL;
	}
	rcl_buf_adds(&dir, "/history");
	path = rcl_buf_detach(&dir);
	return path;
}

/* Whether every word is part of an object path. */
static bool only_path(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (argv[i][0] != '/')
			return false;
	return argc > 0;
}

/*
 * The words to run for a typed line: the current object's path prepended
 * when the line has none, or joined to a relative path; a leading "/"
 * alone means the system level. Takes ownership of *@argv.
 */
static enum rcl_status resolve_line(int *argc, char ***argv, struct rcl_error *err)
{
	char **old = *argv, **words;
	struct rcl_buf path = RCL_BUF_INIT;
	int skip = 0, n = 0;

	if (!strcmp(old[0], "/")) {
		rcl_free(old[0]);
		memmove(old, old + 1, (size_t)*argc * sizeof(*old));
		(*argc)--;
		return RCL_OK;
	}
	if (!current[0] || (old[0][0] == '/' && !strncasecmp(old[0], "/c", 2)))
		return RCL_OK;
	rcl_buf_adds(&path, current);
	if (old[0][0] == '/')
		rcl_buf_adds(&path, old[skip++]);
	words = rcl_calloc((size_t)*argc + 2, sizeof(*words));
	if (!words || path.oom) {
		rcl_free(words);
		rcl_buf_release(&path);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	words[n++] = rcl_buf_detach(&path);
	for (int i = skip; i < *argc; i++)
		words[n++] = old[i];
	if (skip)
		rcl_free(old[0]);
	rcl_free(old);
	*argc = n;
	*argv = words;
	return RCL_OK;
}

/* Run one line; update the current object when the line is only a path. */
static int run_line(const char *line, bool interactive)
{
	struct rcl_error err = {0};
	struct obj_path path;
	char **argv;
	int argc, status;

	if (cli_split_line(line, &argc, &argv, &err)) {
		fprintf(stderr, "raidcli: %s\n", err.msg);
		return err.status;
	}
	if (!argc) {
		cli_free_words(argc, argv);
		return 0;
	}
	if (interactive && only_path(argc, argv) && argc == 1 && !strcmp(argv[0], "/")) {
		current[0] = '\0';
		cli_free_words(argc, argv);
		return 0;
	}
	if (resolve_line(&argc, &argv, &err)) {
		cli_free_words(argc, argv);
		fprintf(stderr, "raidcli: %s\n", err.msg);
		return err.status;
	}
	if (!argc) {
		cli_free_words(argc, argv);
		return 0;
	}
	if (interactive && only_path(argc, argv)) {
		status = cli_parse_path((const char *const *)argv, (size_t)argc, &path, &err);
		if (status)
			fprintf(stderr, "raidcli: %s\n", err.msg);
		else if (argc == 1 && strlen(argv[0]) < sizeof(current))
			strcpy(current, argv[0]);
		cli_free_words(argc, argv);
		return status;
	}
	status = cli_execute(argc, argv);
	cli_free_words(argc, argv);
	return status;
}

static char *candidate_generator(const char *text, int state)
{
	static char **words;
	static size_t count, next;

	(void)text;
	if (!state) {
		struct rcl_buf line = RCL_BUF_INIT;

		for (size_t i = 0; i < count; i++)
			rcl_free(words[i]);
		rcl_free(words);
		words = NULL;
		count = next = 0;
		/* Complete as the line will run: below the current object. */
		if (current[0] && rl_line_buffer[0] != '/')
			rcl_buf_addf(&line, "%s ", current);
		rcl_buf_add(&line, rl_line_buffer, (size_t)rl_point);
		if (!line.oom)
			count = cli_complete(line.buf, &words);
		rcl_buf_release(&line);
	}
	if (next < count) {
		/* readline frees what we return, with free(). */
		char *copy = strdup(words[next++]);

		return copy;
	}
	return NULL;
}

static char **attempt_completion(const char *text, int start, int end)
{
	char **matches;

	(void)start;
	(void)end;
	rl_attempted_completion_over = 1; /* never fall back to file names */
	matches = rl_completion_matches(text, candidate_generator);
	/* "size=" and "/c0/" continue the same word: no space after them. */
	rl_completion_append_character = ' ';
	if (matches && matches[0] && !matches[1]) {
		size_t len = strlen(matches[0]);

		if (len && (matches[0][len - 1] == '=' || matches[0][len - 1] == '/'))
			rl_completion_append_character = '\0';
	}
	return matches;
}

int cli_repl(void)
{
	char *history = history_path();
	char prompt[160];
	int last = 0;

	rl_readline_name = "raidcli";
	rl_basic_word_break_characters = " \t";
	rl_completer_word_break_characters = (char *)" \t";
	rl_attempted_completion_function = attempt_completion;
	using_history();
	stifle_history(1000);
	if (history)
		read_history(history);
	printf("raidcli %s interactive shell. Type 'help' for commands, 'exit' to leave.\n",
	       rcl_version());
	for (;;) {
		char *line;
		const char *p;

		snprintf(prompt, sizeof(prompt), "raidcli%s%s> ", current[0] ? " " : "", current);
		line = readline(prompt);
		if (!line) {
			putchar('\n');
			break;
		}
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p) {
			add_history(line);
			if (history)
				write_history(history);
		}
		if (!strcmp(p, "exit") || !strcmp(p, "quit")) {
			free(line);
			break;
		}
		last = run_line(p, true);
		fflush(stdout);
		free(line);
	}
	rcl_free(history);
	return last;
}

int cli_batch(FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long number = 0;
	int status = 0;

	while (getline(&line, &cap, in) >= 0) {
		number++;
		line[strcspn(line, "\n")] = '\0';
		status = run_line(line, false);
		fflush(stdout);
		if (status) {
			fprintf(stderr, "raidcli: line %lu failed (status %d); stopping\n", number,
				status);
			break;
		}
	}
	free(line); /* getline() allocates with malloc() */
	return status;
}
