// SPDX-License-Identifier: MIT
/*
 * repl.c - the interactive shell (libedit) and batch mode.
 *
 * The shell keeps a current object: typing only a path ("/c0") makes it
 * current and shows in the prompt; "/" goes back to the system level. A
 * command without a path runs on the current object. A path that does not
 * start with a controller is taken below the current controller ("/eall/sall
 * show" at /c0 is "/c0/eall/sall show"), and a slot below the current
 * enclosure too ("/s3" at /c0/e252/s0 is /c0/e252/s3). Completion sees the
 * line the way it will run.
 *
 * Batch mode runs one command a line from a file or pipe, skipping blank
 * lines and comments; "exit" or "quit" ends it early, as in the shell. It
 * stops at the first failing line and exits with that line's status.
 */
#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <editline/readline.h>

#include "cli.h"

/* "" or a normalized path such as "/c0" or "/c0/e252": the current object */
static char current[128];

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
	/* Commands may name files and devices: keep the history private. */
	if (path) {
		int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);

		if (fd >= 0)
			close(fd);
	}
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

/* Whether path word @word names a controller, so does not continue the current object. */
static bool is_absolute(const char *word)
{
	return word[0] == '/' && tolower((unsigned char)word[1]) == 'c';
}

/*
 * How many leading characters of the current object a relative path whose
 * first component starts with @letter continues: the controller, and for a
 * slot also the enclosure.
 */
static size_t relative_base(char letter)
{
	size_t len = 1 + strcspn(current + 1, "/");

	if (tolower((unsigned char)letter) == 's' && current[len] == '/' && current[len + 1] == 'e')
		len += 1 + strcspn(current + len + 1, "/");
	return len;
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
	if (!current[0] || is_absolute(old[0]))
		return RCL_OK;
	if (old[0][0] == '/') {
		rcl_buf_add(&path, current, relative_base(old[0][1]));
		rcl_buf_adds(&path, old[skip++]);
	} else {
		rcl_buf_adds(&path, current);
	}
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

/* Whether every controller @path names exists: a typo would strand the prompt. */
static enum rcl_status check_controllers(const struct obj_path *path, struct rcl_error *err)
{
	struct rcl_ctx *lib;
	const unsigned *ids;
	size_t count;
	enum rcl_status status = rcl_ctx_new(&lib, NULL, err);

	if (status)
		return status;
	count = rcl_ctx_ctrl_ids(lib, &ids);
	for (size_t i = 0; i < path->ctrl.count && !status; i++) {
		size_t k = 0;

		while (k < count && ids[k] != path->ctrl.ids[i])
			k++;
		if (k == count)
			status =
			    rcl_fail(err, RCL_NOT_FOUND,
			             "controller '/c%u' not found; 'show' lists the controllers",
			             path->ctrl.ids[i]);
	}
	rcl_ctx_free(lib);
	return status;
}

/*
 * Make the path words @argv the current object, in one normalized word:
 * "/C0/ /e252" becomes "/c0/e252" (every path keyword is case-insensitive).
 */
static enum rcl_status set_current(int argc, char **argv, struct rcl_error *err)
{
	struct rcl_buf norm = RCL_BUF_INIT;
	struct obj_path path;
	enum rcl_status status;

	status = cli_parse_path((const char *const *)argv, (size_t)argc, &path, err);
	if (!status)
		status = check_controllers(&path, err);
	if (status)
		return status;
	for (int i = 0; i < argc; i++)
		for (const char *p = argv[i]; *p; p++)
			if (*p != '/')
				rcl_buf_addch(&norm, (char)tolower((unsigned char)*p));
			else if (!norm.len || norm.buf[norm.len - 1] != '/')
				rcl_buf_addch(&norm, '/');
	while (norm.len && norm.buf[norm.len - 1] == '/')
		norm.buf[--norm.len] = '\0';
	if (norm.oom)
		status = rcl_fail(err, RCL_NOMEM, "out of memory");
	else if (norm.len >= sizeof(current))
		status =
		    rcl_fail(err, RCL_INVALID_COMMAND, "object path '%s' is too long", norm.buf);
	else
		memcpy(current, norm.buf, norm.len + 1);
	rcl_buf_release(&norm);
	return status;
}

/*
 * "raidcli: @msg" on stderr, escaped as text output is: a message quotes
 * typed words and names from disks, which must not drive the terminal.
 */
static void put_error(const char *msg)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	render_add_escaped(&sb, msg);
	fprintf(stderr, "raidcli: %s\n", sb.oom ? "out of memory" : sb.buf);
	rcl_buf_release(&sb);
}

/*
 * A batch line that does not even split into words still gets StorCLI's
 * failure block on stdout, where scripts read every other outcome; a J word
 * anywhere on the line asks for JSON.
 */
static void render_line_error(const char *line, const struct rcl_error *err)
{
	struct rcl_reply reply;
	bool json = false;

	for (const char *p = line + strspn(line, " \t"); *p; p += strspn(p, " \t")) {
		size_t len = strcspn(p, " \t");

		json |= len == 1 && (*p == 'J' || *p == 'j');
		p += len;
	}
	rcl_reply_init(&reply);
	cli_reply_error(&reply, NULL, err);
	if (!reply.count)
		put_error(err->msg);
	else if (json)
		render_json(stdout, &reply);
	else
		render_text(stdout, &reply, false);
	rcl_reply_release(&reply);
}

/* Run one line; update the current object when the line is only a path. */
static int run_line(const char *line, bool interactive)
{
	struct rcl_error err = {0};
	char **argv;
	int argc, status;

	if (cli_split_line(line, &argc, &argv, &err)) {
		if (interactive)
			put_error(err.msg);
		else
			render_line_error(line, &err);
		return err.status;
	}
	if (!argc) {
		cli_free_words(argc, argv);
		return 0;
	}
	if (interactive && argc == 1 && !strcmp(argv[0], "/")) {
		current[0] = '\0';
		cli_free_words(argc, argv);
		return 0;
	}
	if (interactive && resolve_line(&argc, &argv, &err)) {
		cli_free_words(argc, argv);
		put_error(err.msg);
		return err.status;
	}
	if (interactive && only_path(argc, argv)) {
		status = set_current(argc, argv, &err);
		if (status)
			put_error(err.msg);
		cli_free_words(argc, argv);
		return status;
	}
	status = cli_execute(argc, argv);
	cli_free_words(argc, argv);
	return status;
}

/* cli_complete() of the @plen bytes of @prefix as a word, then @len bytes of @text. */
static size_t complete_after(const char *prefix, size_t plen, const char *text, size_t len,
                             char ***out)
{
	struct rcl_buf line = RCL_BUF_INIT;
	size_t count = 0;

	*out = NULL;
	if (plen) {
		rcl_buf_add(&line, prefix, plen);
		rcl_buf_addch(&line, ' ');
	}
	rcl_buf_add(&line, text, len);
	if (!line.oom)
		count = cli_complete(line.buf, out);
	rcl_buf_release(&line);
	return count;
}

/*
 * Candidates for the @len typed bytes of @typed, seen as the line will
 * run (see resolve_line()). A lone "/" being typed may start a relative or
 * an absolute path, so it gets both.
 */
static size_t complete_typed(const char *typed, size_t len, char ***out)
{
	const char *p = typed;
	size_t first, count, nrel;
	char **rel, **all;

	while (len && (*p == ' ' || *p == '\t')) {
		p++;
		len--;
	}
	first = strcspn(p, " \t");
	if (first > len)
		first = len;
	if (!current[0] || (first && is_absolute(p)) || (first == 1 && *p == '/' && len > 1))
		return complete_after(NULL, 0, p, len, out);
	if (*p != '/')
		return complete_after(current, strlen(current), p, len, out);
	if (len > 1)
		return complete_after(current, relative_base(p[1]), p, len, out);
	count = complete_after(NULL, 0, p, len, out);
	nrel = complete_after(current, relative_base('c'), p, len, &rel);
	all = nrel ? rcl_realloc(*out, (count + nrel) * sizeof(*all)) : NULL;
	if (!all) {
		for (size_t i = 0; i < nrel; i++)
			rcl_free(rel[i]);
		rcl_free(rel);
		return count;
	}
	memcpy(all + count, rel, nrel * sizeof(*rel));
	rcl_free(rel);
	*out = all;
	return count + nrel;
}

static char *candidate_generator(const char *text, int state)
{
	static char **words;
	static size_t count, next;

	(void)text;
	if (!state) {
		for (size_t i = 0; i < count; i++)
			rcl_free(words[i]);
		rcl_free(words);
		count = complete_typed(rl_line_buffer, (size_t)rl_point, &words);
		next = 0;
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
	/* One match is {match, NULL} in GNU readline, {match, match, NULL} in libedit. */
	if (matches && matches[0] &&
	    (!matches[1] || (!matches[2] && !strcmp(matches[0], matches[1])))) {
		size_t len = strlen(matches[0]);

		if (len && (matches[0][len - 1] == '=' || matches[0][len - 1] == '/'))
			rl_completion_append_character = '\0';
	}
	return matches;
}

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * readline(), where Ctrl-C drops the line being typed instead of ending
 * the shell: libedit passes SIGINT on to our handler and gives up the
 * line. Commands still run with the default action, so Ctrl-C stops a
 * command (as it does outside the shell) rather than making its system
 * calls fail with EINTR.
 */
static char *read_line(const char *prompt, bool *cancelled)
{
	struct sigaction sa = {0}, old;
	char *line;

	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	line = readline(prompt);
	sigaction(SIGINT, &old, NULL);
	*cancelled = !line && interrupted;
	return line;
}

/* Whether the line is "exit" or "quit", trailing blanks allowed. */
static bool is_exit(const char *line)
{
	size_t len = strcspn(line, " \t");

	if (line[len + strspn(line + len, " \t")])
		return false;
	return (len == 4 && (!strncmp(line, "exit", 4) || !strncmp(line, "quit", 4)));
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
		bool cancelled;
		char *line;
		const char *p;

		snprintf(prompt, sizeof(prompt), "raidcli%s%s> ", current[0] ? " " : "", current);
		line = read_line(prompt, &cancelled);
		if (!line) {
			putchar('\n');
			if (cancelled)
				continue;
			break;
		}
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p) {
			add_history(line);
			if (history)
				write_history(history);
		}
		if (is_exit(p)) {
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
		if (is_exit(line + strspn(line, " \t")))
			break;
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
