// SPDX-License-Identifier: MIT
/*
 * serve.c - the controller process: "raidcli /cN serve" in the foreground.
 *
 * It takes the owner lock, listens on the control socket, and runs one
 * loop on one thread: a command from a CLI (run by the CLI's handler,
 * then the backend's process hooks bring what runs to the new
 * configuration), a wake-up from one of the backend's threads (through a
 * pipe, so the configuration is only ever changed from here), or SIGTERM
 * or SIGINT (stop, exit 0). It also stops, the same way, once its lock
 * file is gone (owner_lost()). What it runs for the controller (tasks,
 * exports) is the backend's: its struct rcl_process_ops (backend.h).
 * Every event is one line on stderr with the time.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "service.h"

/* A CLI that connects and then sends nothing does not hold the loop longer than this. */
#define CLIENT_TIMEOUT_S 30
/* How often the loop looks at the running background tasks. */
#define TICK_MS 1000
/* How often an idle loop looks whether its lock file is still there (owner_lost()). */
#define IDLE_MS 2000

struct server {
	struct service_paths paths;
	time_t started;
	int owner_fd;
	int listen_fd;
	int signal_fd;
	int notify[2];
	bool waiting; /* started on demand: no @process->poll() before its command */
	const struct rcl_process_ops *process;
	service_handler *run;
};

/* The one server of this process, while it serves. */
static struct server *serving;

const struct service_paths *service_self(unsigned id)
{
	return serving && serving->paths.id == id ? &serving->paths : NULL;
}

time_t service_started(void)
{
	return serving ? serving->started : 0;
}

int service_notify_fd(void)
{
	return serving ? serving->notify[1] : -1;
}

enum rcl_status service_ctx_new(unsigned id, struct rcl_ctx **lib, struct rcl_error *err)
{
	return rcl_ctx_open(lib, service_self(id)->state_dir, err);
}

void service_log(const char *fmt, ...)
{
	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;
	va_list ap;

	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	flockfile(stderr);
	if (serving)
		fprintf(stderr, "%s raidcli[%d] /c%u: ", stamp, (int)getpid(), serving->paths.id);
	else
		fprintf(stderr, "%s raidcli[%d]: ", stamp, (int)getpid());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
	fflush(stderr);
}

/* Take the owner lock and write our pid into it. */
static enum rcl_status take_owner(struct server *srv, struct rcl_error *err)
{
	const struct service_paths *p = &srv->paths;
	enum rcl_status st = service_make_parent(p, p->owner, err);
	pid_t other;

	if (st)
		return st;
	srv->owner_fd = open(p->owner, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (srv->owner_fd < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot open '%s': %s", p->owner,
		                      strerror(errno));
	if (flock(srv->owner_fd, LOCK_EX | LOCK_NB)) {
		close(srv->owner_fd);
		srv->owner_fd = -1;
		other = service_pid(p);
		return rcl_fail(
		    err, RCL_BUSY,
		    "the controller process of /c%u is already running (pid %d); stop it "
		    "with: raidcli /c%u stop service",
		    p->id, (int)other, p->id);
	}
	if (ftruncate(srv->owner_fd, 0) || dprintf(srv->owner_fd, "%d\n", (int)getpid()) < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot write '%s': %s", p->owner,
		                      strerror(errno));
	return RCL_OK;
}

/* Listen on the control socket, mode 0600; a socket left there is stale (we own the lock). */
static enum rcl_status listen_control(struct server *srv, struct rcl_error *err)
{
	struct sockaddr_un addr;
	const char *path = srv->paths.socket;
	enum rcl_status st = service_make_parent(&srv->paths, path, err);
	mode_t mask;
	int rc;

	if (st)
		return st;
	srv->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (srv->listen_fd < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot create a socket: %s",
		                      strerror(errno));
	service_sockaddr(&addr, path);
	unlink(path);
	mask = umask(0177);
	rc = bind(srv->listen_fd, (struct sockaddr *)&addr, sizeof(addr));
	umask(mask);
	if (rc || listen(srv->listen_fd, 16))
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot listen on '%s': %s", path,
		                      strerror(errno));
	return RCL_OK;
}

/* SIGTERM and SIGINT arrive on a descriptor; the threads started later inherit the mask. */
static enum rcl_status catch_signals(struct server *srv, struct rcl_error *err)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	signal(SIGPIPE, SIG_IGN);
	if (sigprocmask(SIG_BLOCK, &set, NULL) ||
	    (srv->signal_fd = signalfd(-1, &set, SFD_CLOEXEC)) < 0 ||
	    pipe2(srv->notify, O_CLOEXEC | O_NONBLOCK))
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot set up signal handling: %s",
		                      strerror(errno));
	return RCL_OK;
}

/*
 * Accept one connection and answer it; *@commanded (if not NULL): whether
 * it sent a command. Return: false if none was waiting.
 */
static bool answer_one(struct server *srv, bool *commanded)
{
	struct timeval tv = {.tv_sec = CLIENT_TIMEOUT_S};
	int fd = accept4(srv->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	bool answered;

	if (commanded)
		*commanded = false;
	if (fd < 0)
		return false;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	answered = service_answer(fd, srv->paths.id, srv->run, srv->process->after_command);
	close(fd);
	if (commanded)
		*commanded = answered;
	return true;
}

/*
 * Before stopping: refuse new connections, then answer every one already
 * made. A CLI whose connect() succeeded has sent its command and waits
 * for the answer; closing the socket on it would leave it not knowing
 * whether the command ran. One refused (ECONNREFUSED) runs the command
 * itself once this process is gone (service_forward()). shutdown() sets
 * the refusal under the lock the kernel queues connections under, so none
 * slips in between the last accept() and close().
 */
static void drain(struct server *srv)
{
	unsigned answered = 0;

	if (shutdown(srv->listen_fd, SHUT_RD) ||
	    fcntl(srv->listen_fd, F_SETFL, fcntl(srv->listen_fd, F_GETFL) | O_NONBLOCK)) {
		service_log("cannot stop accepting commands: %s", strerror(errno));
		return;
	}
	while (answer_one(srv, NULL))
		answered++;
	if (answered)
		service_log("answered %u command%s sent before the stop", answered,
		            answered == 1 ? "" : "s");
}

/*
 * Whether the owner lock no longer guards the controller: the file this
 * process holds locked is no longer the one at its path. Deleting the state
 * directory (a test's rm -rf) or moving it does that, and a new process
 * would then lock a new file and serve the controller beside this one,
 * whose configuration is gone. A stat() failing otherwise proves nothing.
 */
static bool owner_lost(const struct server *srv)
{
	struct stat held, named;

	if (stat(srv->paths.owner, &named))
		return errno == ENOENT || errno == ENOTDIR;
	return !fstat(srv->owner_fd, &held) &&
	       (named.st_dev != held.st_dev || named.st_ino != held.st_ino);
}

static enum rcl_status stop_orphaned(const struct server *srv, struct rcl_error *err)
{
	rcl_fail(err, RCL_NOT_FOUND,
	         "the lock file '%s' is gone (was the state directory '%s' deleted or moved?); "
	         "stopping, so that no new process serves /c%u beside this one",
	         srv->paths.owner, srv->paths.state_dir, srv->paths.id);
	service_log("%s", err->msg);
	return err->status;
}

/* Run until a stop signal (RCL_OK) or until the lock file is gone (RCL_NOT_FOUND). */
static enum rcl_status serve_loop(struct server *srv, struct rcl_error *err)
{
	struct pollfd fds[] = {
	    {.fd = srv->signal_fd, .events = POLLIN},
	    {.fd = srv->listen_fd, .events = POLLIN},
	    {.fd = srv->notify[0], .events = POLLIN},
	};
	struct signalfd_siginfo info;
	int ready;

	for (;;) {
		bool answered = false;

		ready = poll(fds, sizeof(fds) / sizeof(fds[0]),
		             srv->process->busy() ? TICK_MS : IDLE_MS);
		if (ready < 0) {
			if (errno == EINTR)
				continue;
			service_log("poll failed: %s; stopping", strerror(errno));
			return RCL_OK;
		}
		if (fds[0].revents && read(srv->signal_fd, &info, sizeof(info)) == sizeof(info)) {
			service_log("stopping on %s", strsignal((int)info.ssi_signo));
			drain(srv);
			return RCL_OK;
		}
		if (owner_lost(srv))
			return stop_orphaned(srv, err);
		if (fds[2].revents)
			srv->process->notified(srv->notify[0], srv->paths.id);
		if (fds[1].revents)
			answer_one(srv, &answered);
		/* Its command ran, or none came (its CLI gave up): the first look now. */
		if (srv->waiting && (answered || !ready)) {
			srv->waiting = false;
			srv->process->poll(srv->paths.id);
		} else if (!srv->waiting && (fds[1].revents || fds[2].revents)) {
			srv->process->poll(srv->paths.id);
		}
		srv->process->tick(srv->paths.id);
	}
}

static void server_close(struct server *srv)
{
	if (srv->listen_fd >= 0) {
		close(srv->listen_fd);
		unlink(srv->paths.socket);
	}
	if (srv->signal_fd >= 0)
		close(srv->signal_fd);
	for (int i = 0; i < 2; i++)
		if (srv->notify[i] >= 0)
			close(srv->notify[i]);
	/* The lock file stays: removing it could split two starters onto two files. */
	if (srv->owner_fd >= 0)
		close(srv->owner_fd);
}

/* Controller @id's process hooks; a kind that runs no process has none. */
static enum rcl_status find_process(struct rcl_ctx *lib, unsigned id,
                                    const struct rcl_process_ops **process, struct rcl_error *err)
{
	for (size_t i = 0; i < lib->count; i++) {
		const struct rcl_backend_ops *ops = lib->entries[i].ops;

		if (lib->entries[i].id != id)
			continue;
		*process = ops->caps->needs_process ? ops->process : NULL;
		return *process
		           ? RCL_OK
		           : rcl_unsupported(err, ops->caps->kind, "a controller process", NULL);
	}
	return rcl_fail(err, RCL_NOT_FOUND, "controller /c%u not found", id);
}

enum rcl_status service_serve(struct rcl_ctx *lib, unsigned id, service_handler *run,
                              struct rcl_error *err)
{
	struct server srv = {
	    .owner_fd = -1, .listen_fd = -1, .signal_fd = -1, .notify = {-1, -1}, .run = run};
	enum rcl_status st;

	/* Signals first: a client may signal as soon as the socket appears. */
	st = catch_signals(&srv, err);
	if (!st)
		st = find_process(lib, id, &srv.process, err);
	if (!st)
		st = service_paths(lib, id, &srv.paths, err);
	if (!st)
		st = service_check_socket(srv.paths.socket, "control socket", err);
	if (!st)
		st = take_owner(&srv, err);
	if (!st)
		st = listen_control(&srv, err);
	if (st) {
		server_close(&srv);
		return st;
	}
	srv.started = time(NULL);
	serving = &srv;
	service_log("serving /c%u (pid %d) on %s", id, (int)getpid(), srv.paths.socket);
	srv.process->start(id);
	srv.waiting = getenv(SERVICE_ON_DEMAND_ENV) != NULL;
	unsetenv(SERVICE_ON_DEMAND_ENV); /* not for what it runs */
	if (!srv.waiting)
		srv.process->poll(id);
	st = serve_loop(&srv, err);
	srv.process->stop(id);
	/* What came meanwhile (a member whose writes failed) is handled before the process goes. */
	srv.process->notified(srv.notify[0], id);
	service_log("stopped");
	serving = NULL;
	server_close(&srv);
	return st;
}
