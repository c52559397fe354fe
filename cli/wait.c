// SPDX-License-Identifier: MIT
/*
 * wait.c - the "wait" option of the background task commands ("start cc
 * wait", "show rebuild wait", ...): follow the task until it ends.
 *
 * Any command whose grammar entry has a "wait" flag is followed by its
 * "show" of the same last word ("start cc" and "show cc" by "show cc";
 * "start migrate" by "show migrate"), on the same path, once a
 * second, until no row of it says the task is in progress or paused. On a
 * terminal a one-line bar with the percent and the time left is redrawn in
 * place meanwhile; otherwise nothing is printed until the end. The answer is
 * that last "show" (J: its JSON). Ctrl-C stops the waiting, not the task,
 * which runs in the controller process.
 *
 * The rows read are those every task "show" has: Status ("In progress",
 * "Paused"), Progress% and Estimated Time Left, or, for the patrol read,
 * the Ctrl_Prop rows "PR Current State" (Active, Paused), "PR Progress%"
 * and "PR Estimated Time Left".
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define BAR_WIDTH  30
#define PATH_WORDS 4

/**
 * struct progress - what one "show" says of the tasks it lists.
 * @running, @paused: the rows in progress and paused.
 * @percent:	the lowest percent among them; @left: that row's time left.
 */
struct progress {
	unsigned running;
	unsigned paused;
	long long percent;
	char left[64];
	/* The patrol read's Ctrl_Prop rows, folded in at the end. */
	const char *pr_state, *pr_percent, *pr_left;
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static const char *str_of(const struct rcl_node *obj, const char *key)
{
	const struct rcl_node *n = rcl_node_find(obj, key);

	return n && rcl_node_kind(n) == RCL_NODE_STRING ? rcl_node_str(n) : NULL;
}

/* Count a task row that is @status at @percent with @left to go. */
static void add_task(struct progress *p, const char *status, long long percent, const char *left)
{
	bool paused = !strcmp(status, "Paused");

	if (!paused && strcmp(status, "In progress") && strcmp(status, "Active"))
		return;
	if (paused)
		p->paused++;
	else
		p->running++;
	if (p->running + p->paused == 1 || percent < p->percent) {
		p->percent = percent;
		snprintf(p->left, sizeof(p->left), "%s", left ? left : "-");
	}
}

static void scan(struct progress *p, const struct rcl_node *node)
{
	if (rcl_node_kind(node) == RCL_NODE_OBJECT) {
		const char *status = str_of(node, "Status"), *prop = str_of(node, "Ctrl_Prop");
		const struct rcl_node *percent = rcl_node_find(node, "Progress%");

		if (status && percent)
			add_task(p, status,
			         rcl_node_kind(percent) == RCL_NODE_INT ? rcl_node_int(percent) : 0,
			         str_of(node, "Estimated Time Left"));
		if (prop && ends_with(prop, "Current State"))
			p->pr_state = str_of(node, "Value");
		else if (prop && ends_with(prop, "Progress%"))
			p->pr_percent = str_of(node, "Value");
		else if (prop && ends_with(prop, "Estimated Time Left"))
			p->pr_left = str_of(node, "Value");
	}
	if (rcl_node_kind(node) == RCL_NODE_OBJECT || rcl_node_kind(node) == RCL_NODE_ARRAY)
		for (size_t i = 0; i < rcl_node_count(node); i++)
			scan(p, rcl_node_child(node, i));
}

static struct progress measure(const struct rcl_reply *reply)
{
	struct progress p = {0};

	for (size_t i = 0; i < reply->count; i++) {
		p.pr_state = NULL;
		if (reply->results[i].data)
			scan(&p, reply->results[i].data);
		if (p.pr_state)
			add_task(&p, p.pr_state, p.pr_percent ? atoll(p.pr_percent) : 0, p.pr_left);
	}
	return p;
}

/* The bar, redrawn over itself: "[#####.....]  45%  2 Minutes 3 Seconds left". */
static void draw(const struct progress *p, const char *what)
{
	int filled = (int)(p->percent * BAR_WIDTH / 100);

	fputs("\r[", stdout);
	for (int i = 0; i < BAR_WIDTH; i++)
		fputc(i < filled ? '#' : '.', stdout);
	fprintf(stdout, "] %3lld%%  ", p->percent);
	if (!p->running)
		fputs("paused", stdout);
	else if (strcmp(p->left, "-"))
		fprintf(stdout, "%s left", p->left);
	fprintf(stdout, "  (%s)\033[K", what);
	fflush(stdout);
}

/* Sleep a second, or less when interrupted. */
static void pause_a_second(void)
{
	struct timespec left = {.tv_sec = 1};

	while (!interrupted && nanosleep(&left, &left) && errno == EINTR)
		;
}

/* Parse "<path words> show <noun>" of @args into @show (its words in @words). */
static enum rcl_status show_command(const struct cmd_args *args, char **words, int *count,
                                    struct cmd_args *show, struct rcl_error *err)
{
	const char *noun = strrchr(args->cmd->verb, ' ');

	*count = 0;
	for (int i = 0; i < args->argc && *count < PATH_WORDS; i++)
		if (args->argv[i][0] == '/')
			words[(*count)++] = args->argv[i];
	words[(*count)++] = "show";
	words[(*count)++] = (char *)(noun ? noun + 1 : args->cmd->verb);
	return cli_parse(*count, words, show, err);
}

enum rcl_status cli_wait(const struct cmd_args *args, struct rcl_reply *reply)
{
	char *words[PATH_WORDS + 2];
	struct sigaction sa = {.sa_handler = on_interrupt}, old;
	struct cmd_args show;
	struct rcl_error err = {0};
	bool tty = isatty(STDOUT_FILENO);
	int count;
	struct progress p;

	if (show_command(args, words, &count, &show, &err)) {
		rcl_reply_release(reply);
		cli_reply_error(reply, &args->path, &err);
		return err.status;
	}
	interrupted = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	for (;;) {
		rcl_reply_release(reply);
		rcl_reply_init(reply);
		cli_run(&show, reply, NULL);
		p = measure(reply);
		if (rcl_reply_status(reply) || !(p.running + p.paused) || interrupted)
			break;
		if (tty)
			draw(&p, words[count - 1]);
		pause_a_second();
	}
	sigaction(SIGINT, &old, NULL);
	if (tty)
		fputs("\r\033[K", stdout);
	if (interrupted)
		fprintf(stderr,
		        "raidcli: stopped waiting; the %s goes on in the controller process\n",
		        words[count - 1]);
	return rcl_reply_status(reply);
}
