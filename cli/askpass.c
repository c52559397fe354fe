// SPDX-License-Identifier: MIT
/*
 * askpass.c - asking the person at the terminal for a BMC's password, the
 * way ssh and sudo ask: on /dev/tty (so a redirected stdin or stdout does
 * not matter), echo off, the terminal restored whatever happens, signals
 * included (after OpenBSD's readpassphrase(3)).
 *
 * An answer is kept in this process's memory only: for the rest of one
 * command (which may log in to the same BMCs twice, or to a thousand BMCs
 * of one hosts file), and in the shell or a batch for the rest of the
 * session. An answer given to a command that failed is dropped, since it
 * may have been mistyped; every answer is wiped when the process ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"

/* One answer: for @user at @realm; @fresh until a command that asked for it succeeded. */
struct answer {
	char *user;
	char *realm;
	char *secret;
	size_t size;
	bool fresh;
};

static struct answer *answers;
static size_t answer_count;

/* The signals readpassphrase(3) catches: each one ends or stops the process by default. */
static const int caught_signals[] = {SIGALRM, SIGHUP,  SIGINT,  SIGPIPE, SIGQUIT,
                                     SIGTERM, SIGTSTP, SIGTTIN, SIGTTOU};
#define SIGNAL_COUNT (sizeof(caught_signals) / sizeof(caught_signals[0]))

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	caught = sig;
}

static void answer_wipe(struct answer *a)
{
	explicit_bzero(a->secret, a->size);
	rcl_free(a->secret);
	rcl_free(a->user);
	rcl_free(a->realm);
}

/*
 * Ask @prompt on terminal @fd and read one line into @buf (@size bytes),
 * with echo off. Returns the signal that interrupted it, 0, or minus the
 * errno of a prompt that could not be written. Signals are caught without
 * SA_RESTART, so that read() returns at once and the echo comes back
 * before the signal takes its default effect.
 */
static int read_hidden(int fd, const char *prompt, char *buf, size_t size, bool *too_long)
{
	struct sigaction sa = {.sa_handler = on_signal}, saved[SIGNAL_COUNT];
	struct termios old, quiet;
	size_t len = 0;
	bool have_tio = !tcgetattr(fd, &old);
	char c;

	sigemptyset(&sa.sa_mask);
	caught = 0;
	for (size_t i = 0; i < SIGNAL_COUNT; i++)
		sigaction(caught_signals[i], &sa, &saved[i]);
	if (have_tio) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		tcsetattr(fd, TCSAFLUSH, &quiet);
	}
	if (write(fd, prompt, strlen(prompt)) < 0)
		caught = -errno;
	while (!caught && read(fd, &c, 1) == 1 && c != '\n' && c != '\r') {
		if (len + 1 < size)
			buf[len++] = c;
		else
			*too_long = true;
	}
	buf[len] = '\0';
	explicit_bzero(&c, sizeof(c)); /* the last character read, perhaps the password's */
	/* End the line that the Enter, not echoed, left open; a failure here changes nothing. */
	(void)!write(fd, "\n", 1);
	if (have_tio)
		tcsetattr(fd, TCSANOW, &old);
	for (size_t i = 0; i < SIGNAL_COUNT; i++)
		sigaction(caught_signals[i], &saved[i], NULL);
	return caught;
}

/* Ask on the terminal, again after a stop (Ctrl-Z, fg), into @buf. */
static enum rcl_status ask(const char *user, const char *realm, char *buf, size_t size,
                           struct rcl_error *err)
{
	struct rcl_buf prompt = RCL_BUF_INIT;
	bool too_long = false;
	int fd, sig;

	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return rcl_fail_errno(err, RCL_NOT_ALLOWED, errno,
		                      "there is no terminal to ask on (/dev/tty: %s)",
		                      strerror(errno));
	/* The names come from the state directory: escaped, they cannot drive the terminal. */
	rcl_buf_adds(&prompt, "Password for '");
	render_add_escaped(&prompt, user);
	rcl_buf_adds(&prompt, "' at ");
	render_add_escaped(&prompt, realm);
	rcl_buf_adds(&prompt, ": ");
	if (prompt.oom) {
		close(fd);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	do {
		sig = read_hidden(fd, prompt.buf, buf, size, &too_long);
		if (sig > 0) {
			explicit_bzero(buf, size);
			raise(sig); /* with the caller's handler back: most end the process */
		}
	} while (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU);
	close(fd);
	rcl_buf_release(&prompt);
	if (sig < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, -sig, "cannot write to the terminal: %s",
		                      strerror(-sig));
	if (sig)
		return rcl_fail(err, RCL_NOT_ALLOWED, "the question was interrupted");
	if (too_long) {
		explicit_bzero(buf, size);
		return rcl_fail(err, RCL_INVALID_PARAM, "the answer is longer than %zu bytes",
		                size - 1);
	}
	return RCL_OK;
}

static struct answer *find(const char *user, const char *realm)
{
	for (size_t i = 0; i < answer_count; i++)
		if (!strcmp(answers[i].user, user) && !strcmp(answers[i].realm, realm))
			return &answers[i];
	return NULL;
}

/* Keep @buf's answer for @user at @realm; out of memory, it is simply asked again. */
static void keep(const char *user, const char *realm, const char *buf, size_t size)
{
	struct answer *mem = rcl_realloc(answers, (answer_count + 1) * sizeof(*answers));
	struct answer a = {.user = rcl_strdup(user),
	                   .realm = rcl_strdup(realm),
	                   .secret = rcl_malloc(size),
	                   .size = size,
	                   .fresh = true};

	if (mem)
		answers = mem;
	if (!mem || !a.user || !a.realm || !a.secret) {
		a.size = 0;
		answer_wipe(&a);
		return;
	}
	memcpy(a.secret, buf, size);
	answers[answer_count++] = a;
}

bool cli_askpass(void *arg, const char *user, const char *realm, char *buf, size_t size,
                 struct rcl_error *err)
{
	const struct answer *a = find(user, realm);

	(void)arg;
	if (a && a->size <= size) {
		memcpy(buf, a->secret, a->size);
		return true;
	}
	if (ask(user, realm, buf, size, err))
		return false;
	keep(user, realm, buf, strlen(buf) + 1);
	return true;
}

void cli_askpass_settle(bool keep_fresh)
{
	size_t n = 0;

	for (size_t i = 0; i < answer_count; i++) {
		if (answers[i].fresh && !keep_fresh) {
			answer_wipe(&answers[i]);
			continue;
		}
		answers[i].fresh = false;
		answers[n++] = answers[i];
	}
	answer_count = n;
}

void cli_askpass_forget(void)
{
	for (size_t i = 0; i < answer_count; i++)
		answer_wipe(&answers[i]);
	rcl_free(answers);
	answers = NULL;
	answer_count = 0;
}
