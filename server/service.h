/* SPDX-License-Identifier: MIT */
/*
 * service.h - a soft controller's controller process ("raidcli /cN serve")
 * and how the CLI reaches it.
 *
 * The process holds the controller's owner lock (<state>/locks/<backend>-
 * <key>.owner, flock()ed for its lifetime, its pid inside) and listens on
 * <state>/run/<backend>-<key>.sock (mode 0600). A CLI that finds the owner
 * lock held sends each per-controller command there (control.c) and renders
 * the result the process sends back, so output is the same either way. The
 * process runs commands one at a time, through the same command table, and
 * serves the controller's NBD exports (export.h).
 */
#ifndef RCL_SERVER_SERVICE_H
#define RCL_SERVER_SERVICE_H

#include <limits.h>
#include <sys/types.h>

#include "cli.h"

/* The longest Unix socket path bind() and connect() take (sun_path less its NUL). */
#define SERVICE_SOCKET_MAX 107

/**
 * struct service_paths - where controller @id's process keeps its files.
 * @name:	"<backend>-<key>", unique per controller.
 * @owner:	the owner lock; it holds the process's pid.
 * @socket:	the control socket (may be too long: service_check_socket()).
 * @log:	where a process started on demand writes its log.
 * @exports:	the persisted exports (export.c).
 */
struct service_paths {
	unsigned id;
	char name[96];
	char state_dir[PATH_MAX];
	char run_dir[PATH_MAX];
	char owner[PATH_MAX];
	char socket[PATH_MAX];
	char log[PATH_MAX];
	char exports[PATH_MAX];
};

/* service_paths() - @p for controller @id of @lib. Return: RCL_OK, RCL_NOT_FOUND. */
enum rcl_status service_paths(struct rcl_ctx *lib, unsigned id, struct service_paths *p,
                              struct rcl_error *err);

/*
 * service_make_parent() - make the directory that holds @path, one of @p's
 * files, but not the state directory itself (see rcl_mkdir_in()).
 */
enum rcl_status service_make_parent(const struct service_paths *p, const char *path,
                                    struct rcl_error *err);

/* service_check_socket() - refuse a socket path longer than sun_path holds. */
enum rcl_status service_check_socket(const char *path, const char *what, struct rcl_error *err);

/* service_sockaddr() - @addr for the Unix socket @path (checked by service_check_socket()). */
struct sockaddr_un;
void service_sockaddr(struct sockaddr_un *addr, const char *path);

/* service_pid() - the pid of the process holding @p's owner lock, or 0 if none runs. */
pid_t service_pid(const struct service_paths *p);

/*
 * service_forward() - run @args on controller @id in its process, if one
 * runs and it is not this one: *@forwarded says whether it did; then @res
 * holds the process's result. Return: RCL_OK or why the process could not
 * be reached.
 */
enum rcl_status service_forward(struct rcl_ctx *lib, const struct cmd_args *args, unsigned id,
                                struct rcl_result *res, bool *forwarded, struct rcl_error *err);

/*
 * service_start() - start controller @id's process unless one runs: a
 * detached "raidcli /cN serve" logging to @p->log; wait until its socket
 * answers. *@started says whether this call started it.
 */
enum rcl_status service_start(struct rcl_ctx *lib, unsigned id, bool *started,
                              struct rcl_error *err);

/* service_stop() - SIGTERM controller @id's process and wait for it to exit; *@pid: its pid or 0.
 */
enum rcl_status service_stop(struct rcl_ctx *lib, unsigned id, pid_t *pid, struct rcl_error *err);

/*
 * service_serve() - be controller @id's process until SIGTERM or SIGINT
 * (serve.c), or until its owner lock file is gone (the state directory was
 * deleted or moved). Return: RCL_OK after a clean stop; RCL_NOT_FOUND after
 * the lock file went (it stops as cleanly); RCL_BUSY when another process
 * owns the controller; RCL_SYSTEM.
 */
enum rcl_status service_serve(struct rcl_ctx *lib, unsigned id, struct rcl_error *err);

/*
 * service_answer() - the process's end: read a request from @fd, run it on
 * controller @id, reply. Return: whether there was a request (a starter
 * checking that the socket answers sends none).
 */
bool service_answer(int fd, unsigned id);

/*
 * Set in the environment of a controller process service_start() starts
 * for a command: that command runs before the process's first look for
 * lost members to hand to hot spares (a "start rebuild" names the drive to
 * take a lost member's place; a spare must not take it first).
 */
#define SERVICE_ON_DEMAND_ENV "RAIDCLI_SERVE_ON_DEMAND"

/* service_notify_fd() - the process's pipe that wakes its main loop (export.c), or -1. */
int service_notify_fd(void);

/* service_self() - this process's paths when it is controller @id's process, else NULL. */
const struct service_paths *service_self(unsigned id);

/* service_started() - when this process started serving (service_self() only). */
time_t service_started(void);

/*
 * service_ctx_new() - a fresh library context on controller @id's state
 * directory, for this process's own work (service_self() only). Return:
 * rcl_ctx_open()'s: RCL_NOT_FOUND once the directory is gone (it is not
 * created again, empty, while the process stops).
 */
enum rcl_status service_ctx_new(unsigned id, struct rcl_ctx **lib, struct rcl_error *err);

/*
 * service_register_tasks() - give the soft backend its task operations
 * (backend.h): the process's rebuilds, checks, migrations and patrol
 * reads (lib/soft/service/task-ops.c), which libraidcli cannot link
 * against itself. cli_run() calls it before any command runs.
 */
void service_register_tasks(void);

/* service_log() - one line on stderr: UTC time, the controller, the event. */
void service_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* service_unlink_files() - remove @p's files once the controller is deleted. */
void service_unlink_files(const struct service_paths *p);

#endif /* RCL_SERVER_SERVICE_H */
