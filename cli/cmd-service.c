// SPDX-License-Identifier: MIT
/*
 * cmd-service.c - the controller process: /cN serve, /cN show service,
 * /cN stop service (server/service.h has the process itself; it runs the
 * commands CLIs send it through run_sent()).
 */
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "service.h"

/*
 * The process's service_handler: a command a CLI sent, parsed again here
 * and run as that CLI would, on controller @id alone.
 */
static void run_sent(int argc, char **argv, unsigned id, struct rcl_reply *reply)
{
	struct rcl_error err = {0};
	struct cmd_args args;

	if (cli_parse(argc, argv, &args, &err) || args.help || (args.cmd->flags & CMD_LOCAL) ||
	    !(args.cmd->flags & CMD_PER_CTRL)) {
		if (!err.status)
			rcl_fail(&err, RCL_INVALID_COMMAND,
			         "the controller process does not run this command");
		cli_reply_error(reply, NULL, &err);
		return;
	}
	/* The client asks once per controller: narrow /call or /c0,1 to this one. */
	args.path.ctrl = (struct id_set){.given = true, .count = 1, .ids = {id}};
	cli_run(&args, reply, NULL);
}

enum rcl_status cmd_ctrl_serve(struct cmd_ctx *c, struct rcl_error *err)
{
	const struct id_set *ctrls = &c->args->path.ctrl;
	unsigned id = rcl_ctrl_id(c->ctrl);
	enum rcl_status st;

	if (ctrls->all || ctrls->count != 1)
		return rcl_fail(
		    err, RCL_INVALID_COMMAND,
		    "serve runs one controller's process: name one, as in: raidcli /c%u "
		    "serve",
		    id);
	/* The process takes the controller lock per command, never for its lifetime. */
	rcl_ctrl_close(c->ctrl);
	c->ctrl = NULL;
	st = service_serve(c->lib, id, run_sent, err);
	if (!st)
		rcl_result_describe(c->res, "The controller process of /c%u stopped.", id);
	return st;
}

/* "1d 02:03:04" since @since. */
static void add_uptime(struct rcl_node *section, time_t since)
{
	long long s = (long long)(time(NULL) - since);

	rcl_node_add_strf(section, "Uptime", "%lldd %02lld:%02lld:%02lld", s / 86400, s / 3600 % 24,
	                  s / 60 % 60, s % 60);
}

/*
 * Run by the process itself when it runs (the command is forwarded), so a
 * running process reports its own pid, uptime and live exports.
 */
enum rcl_status cmd_ctrl_show_service(struct cmd_ctx *c, struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(c->ctrl);
	const struct service_paths *self = service_self(id);
	struct service_paths p;
	enum rcl_status st = service_paths(c->lib, id, &p, err);
	struct rcl_node *section;
	char started[32];
	size_t exports;

	if (st)
		return st;
	section = rcl_node_add_object(c->res->data, "Controller Process");
	rcl_node_add_str(section, "Status", self ? "Running" : "Not Running");
	if (self) {
		rcl_node_add_int(section, "PID", getpid());
		format_time(started, sizeof(started), service_started());
		rcl_node_add_str(section, "Started", started);
		add_uptime(section, service_started());
	}
	rcl_node_add_str(section, "Control Socket", p.socket);
	rcl_node_add_str(section, "Log", p.log);
	/* A kind whose process serves no exports has none to list. */
	if (!rcl_ctrl_caps(c->ctrl)->exports)
		return RCL_OK;
	return add_export_list(c->res->data, c->ctrl, NULL, &exports, err);
}

enum rcl_status cmd_ctrl_stop_service(struct cmd_ctx *c, struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(c->ctrl);
	enum rcl_status st;
	pid_t pid;

	/* The process may need the controller lock to finish: do not hold it meanwhile. */
	rcl_ctrl_close(c->ctrl);
	c->ctrl = NULL;
	st = service_stop(c->lib, id, &pid, err);
	if (st)
		return st;
	if (pid)
		rcl_result_describe(c->res, "Stopped the controller process of /c%u (pid %d).", id,
		                    (int)pid);
	else
		rcl_result_describe(c->res, "The controller process of /c%u is not running.", id);
	return RCL_OK;
}
