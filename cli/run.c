// SPDX-License-Identifier: MIT
/*
 * run.c - execute a parsed command: open the registry, address each
 * controller under the right lock, call the handler, collect the results.
 * A controller whose controller process runs gets the command sent there
 * instead (server/service.h), unless the command is CMD_LOCAL.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "service.h"

/* Turn a failed or out-of-memory handler call into a failure result. */
static void settle(struct rcl_result *res, enum rcl_status st, const struct rcl_error *err)
{
	struct rcl_error oom = {0};

	/* A handler may have failed the result itself, naming the object it failed for. */
	if (st && res->status != st) {
		rcl_result_fail(res, err);
	} else if (rcl_node_oom(res->data)) {
		rcl_fail(&oom, RCL_NOMEM, "out of memory building the result");
		rcl_node_free(res->data);
		res->data = rcl_node_new_object();
		rcl_result_fail(res, &oom);
	}
}

void cli_reply_error(struct rcl_reply *reply, const struct obj_path *path,
                     const struct rcl_error *err)
{
	int ctrl = -1;
	struct rcl_result *res;

	if (path && path->ctrl.given && !path->ctrl.all && path->ctrl.count == 1)
		ctrl = (int)path->ctrl.ids[0];
	res = rcl_reply_add(reply, ctrl);
	if (res)
		rcl_result_fail(res, err);
}

/*
 * Start or stop the controller process as the command asks, then send the
 * command there if one runs. *@forwarded says whether @res holds the
 * process's result.
 */
static enum rcl_status reach_service(struct rcl_ctx *lib, const struct cmd_args *args, unsigned id,
                                     bool starts, struct rcl_result *res, bool *forwarded,
                                     struct rcl_error *err)
{
	unsigned flags = args->cmd->flags;
	enum rcl_status st = RCL_OK;
	bool started;
	pid_t pid;

	*forwarded = false;
	if (flags & CMD_STOPS_SERVICE)
		st = service_stop(lib, id, &pid, err);
	if (flags & CMD_LOCAL)
		return st;
	/*
	 * A process found running may be one being killed, gone before it
	 * took the command (service_forward()): a command that needs one
	 * starts the next and goes there.
	 */
	for (int tries = 0; !st && !*forwarded && tries < 2; tries++) {
		if (starts)
			st = service_start(lib, id, &started, err);
		if (!st)
			st = service_forward(lib, args->argc, args->argv, flags & CMD_WRITES, id,
			                     res, forwarded, err);
		if (!starts)
			break;
	}
	return st;
}

/*
 * A change whose event the log could not take (its file system full, say)
 * stands, and was made: its result says so, rather than a failure that
 * would read as nothing done, or a success that hides the gap in the log.
 */
static void note_lost_event(struct rcl_result *res, const struct rcl_ctrl *ctrl)
{
	const struct rcl_error *lost = ctrl ? rcl_ctrl_event_failure(ctrl) : NULL;

	if (lost)
		rcl_result_describe(res, "%s The event log did not record it: %s", res->description,
		                    lost->msg);
}

/*
 * Before a command starts or stops controller @id's process, check what
 * can be checked here (cmd_spec.check): a start or a stop changes things
 * by itself, so a command refused after it would not have changed nothing.
 * A process that runs checks a command it is sent itself.
 */
static enum rcl_status check_first(struct cmd_ctx *c, unsigned id, bool starts,
                                   struct rcl_error *err)
{
	const struct cmd_spec *cmd = c->args->cmd;
	struct service_paths p;
	enum rcl_status st;

	if (!cmd->check)
		return RCL_OK;
	st = service_paths(c->lib, id, &p, err);
	if (st || (starts && (service_self(id) || service_pid(&p))))
		return st;
	st = rcl_ctrl_open(c->lib, id, RCL_LOCK_SHARED, &c->ctrl, err);
	if (!st)
		st = cmd->check(c, err);
	rcl_ctrl_close(c->ctrl);
	c->ctrl = NULL;
	return st;
}

/* Refuse, naming the first, the @settings (bits) @caps lacks. */
static enum rcl_status check_settings(unsigned settings, const struct rcl_caps *caps,
                                      struct rcl_error *err)
{
	for (int s = 0; s < RCL_SETTING_COUNT; s++)
		if ((settings & ~caps->settings) & (1u << s))
			return rcl_unsupported(err, caps->kind, rcl_setting_name(s), NULL);
	return RCL_OK;
}

/* cli_check_caps(), of @caps' parts too if @parts. */
static enum rcl_status check_caps(const struct cmd_args *args, const struct rcl_caps *caps,
                                  bool parts, struct rcl_error *err)
{
	const struct cmd_spec *cmd = args->cmd;
	const char *type = cmd_value(args, "type"), *strip = cmd_value(args, "strip");
	enum rcl_raid_level level;
	enum rcl_status st;

	if (cmd->task && !(caps->tasks & (1u << cmd->task)))
		return rcl_unsupported(err, caps->kind, rcl_task_kind_name(cmd->task), NULL);
	if (cmd->action && !(caps->drive_actions & (1u << cmd->action)))
		return rcl_unsupported(err, caps->kind, rcl_drive_action_name(cmd->action), NULL);
	if (parts && (cmd->flags & CMD_PART)) {
		char what[96];

		snprintf(what, sizeof(what), "%s %s", grammar_object_name(cmd->object), cmd->verb);
		st = rcl_caps_check_part(caps, cmd->part, what, err);
		if (st)
			return st;
	}
	if ((cmd->flags & CMD_EXPORT) && !caps->exports)
		return rcl_unsupported(err, caps->kind, "exporting a virtual drive", NULL);
	if ((cmd->flags & CMD_PROCESS) && !caps->needs_process)
		return rcl_unsupported(err, caps->kind, "a controller process", NULL);
	if ((cmd->flags & CMD_ADDS_DRIVE) && !caps->adds_drives)
		return rcl_unsupported(err, caps->kind, "adding a drive by its path", NULL);
	if ((cmd->flags & CMD_INSERTS_DRIVE) && !caps->inserts_drives)
		return rcl_unsupported(err, caps->kind, RCL_INSERT_DRIVE_NAME, NULL);
	st = check_settings(cmd->settings, caps, err);
	for (size_t i = 0; !st && i < CMD_MAX_OPTS && cmd->opts[i].name; i++)
		if (args->values[i])
			st = check_settings(cmd->opts[i].settings, caps, err);
	if (st || !(cmd->flags & CMD_RAID_LEVEL) || !type ||
	    rcl_raid_level_parse(type, &level, NULL))
		return st;
	return rcl_caps_check_vd(caps, level, strip ? (unsigned)strtoul(strip, NULL, 10) : 0, err);
}

enum rcl_status cli_check_caps(const struct cmd_args *args, const struct rcl_caps *caps,
                               struct rcl_error *err)
{
	return check_caps(args, caps, true, err);
}

bool cli_starts_process(const struct cmd_spec *cmd, const struct rcl_caps *caps)
{
	return (cmd->flags & CMD_STARTS_SERVICE) && caps->needs_process;
}

static enum rcl_status run_on_ctrl(struct rcl_ctx *lib, const struct cmd_args *args, unsigned id,
                                   struct rcl_reply *reply)
{
	enum rcl_lock lock = args->cmd->flags & CMD_WRITES ? RCL_LOCK_EXCLUSIVE : RCL_LOCK_SHARED;
	struct rcl_result *res = rcl_reply_add(reply, (int)id);
	struct cmd_ctx c = {.lib = lib, .args = args, .res = res};
	struct rcl_error err = {0};
	const struct rcl_caps *caps;
	struct rcl_caps asked;
	bool forwarded, starts = false;
	enum rcl_status st;

	if (!res)
		return RCL_NOMEM;
	rcl_ctx_ctrl_host(lib, id, res->host, sizeof(res->host));
	st = rcl_ctx_ctrl_caps(lib, id, &caps, &err);
	if (!st && cli_object_is_backup(args->path.kind)) {
		st = rcl_ctx_ctrl_backup_caps(lib, id, &asked, &err);
		caps = &asked;
	}
	if (!st) {
		starts = cli_starts_process(args->cmd, caps);
		st = cli_check_caps(args, caps, &err);
	}
	if (!st)
		st = check_first(&c, id, starts, &err);
	forwarded = false;
	if (!st)
		st = reach_service(lib, args, id, starts, res, &forwarded, &err);
	if (forwarded)
		return res->status;
	if (!st)
		st = rcl_ctrl_open(lib, id, lock, &c.ctrl, &err);
	/*
	 * Its load narrowed the kind's caps to the controller's own (a card's
	 * firmware without patrol read): checked again, as the kind's were.
	 * Not its parts: their commands answer one found absent themselves
	 * (a battery "Absent").
	 */
	if (!st)
		st = check_caps(args, rcl_ctrl_caps(c.ctrl), false, &err);
	if (!st)
		st = args->cmd->run(&c, &err);
	settle(res, st, &err);
	note_lost_event(res, c.ctrl);
	rcl_ctrl_close(c.ctrl);
	return res->status;
}

/* Seconds since @start (CLOCK_MONOTONIC). */
static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/*
 * Run a per-controller command on each controller @args addresses; a
 * system one (CMD_METRICS given no path) on every controller, and on none
 * without failing when there are none.
 */
static enum rcl_status run_per_ctrl(struct rcl_ctx *lib, const struct cmd_args *args,
                                    struct rcl_reply *reply, struct render_stream *rs)
{
	const struct id_set given = args->path.ctrl, every = {.given = true, .all = true};
	const struct id_set *sel = given.given ? &given : &every;
	const unsigned *ids;
	size_t count = rcl_ctx_ctrl_ids(lib, &ids);
	enum rcl_status first = RCL_OK, st;
	struct rcl_error err = {0};
	unsigned *all = NULL;

	if (!given.given && !count)
		return rcl_reply_add(reply, -1) ? RCL_OK : RCL_NOMEM;
	if (sel->all && !count) {
		rcl_fail(&err, RCL_NOT_FOUND,
		         "no controllers found; create one with: raidcli add controller type=soft "
		         "drives=4 size=1GB");
		cli_reply_error(reply, NULL, &err);
		return err.status;
	}
	/* A handler that changes the registry reloads it, which frees @ids: copy them. */
	if (sel->all) {
		all = rcl_malloc(count * sizeof(*all));
		if (!all) {
			rcl_fail(&err, RCL_NOMEM, "out of memory");
			cli_reply_error(reply, NULL, &err);
			return RCL_NOMEM;
		}
		memcpy(all, ids, count * sizeof(*all));
	}
	/* Remote controllers (BMCs) are read all at once, not one after the other. */
	if (!(args->cmd->flags & CMD_WRITES))
		rcl_ctx_prefetch(lib, sel->all ? all : sel->ids, sel->all ? count : sel->count);
	for (size_t i = 0; i < (sel->all ? count : sel->count); i++) {
		size_t before = reply->count;
		struct timespec start;

		clock_gettime(CLOCK_MONOTONIC, &start);
		st = run_on_ctrl(lib, args, sel->all ? all[i] : sel->ids[i], reply);
		if (reply->count > before)
			reply->results[before].seconds = seconds_since(&start);
		if (reply->count == before) {
			/*
			 * No room for this controller's result: the others alone
			 * would read as a complete success, so drop them for one
			 * out-of-memory failure (or none, which main() reports).
			 */
			rcl_reply_release(reply);
			rcl_fail(&err, RCL_NOMEM, "out of memory");
			cli_reply_error(reply, NULL, &err);
			rcl_free(all);
			if (rs) /* the printed ones stay printed; the failure follows them */
				rs->next = 0;
			return RCL_NOMEM;
		}
		if (!first)
			first = st;
		if (rs)
			render_flush(rs, reply);
	}
	rcl_free(all);
	return first;
}

enum rcl_status cli_run(const struct cmd_args *args, struct rcl_reply *reply,
                        struct render_stream *rs)
{
	struct rcl_error err = {0};
	struct rcl_ctx *lib = NULL;
	struct rcl_result *res;
	enum rcl_status st;

	st = rcl_ctx_new(&lib, NULL, &err);
	if (st) {
		cli_reply_error(reply, &args->path, &err);
		return st;
	}
	rcl_ctx_set_askpass(lib, cli_askpass, NULL);
	if (args->cmd->flags & CMD_PER_CTRL) {
		st = run_per_ctrl(lib, args, reply, rs);
	} else {
		struct cmd_ctx c = {.lib = lib, .args = args};

		res = rcl_reply_add(reply, -1);
		if (!res) {
			rcl_ctx_free(lib);
			return RCL_NOMEM;
		}
		c.res = res;
		st = args->cmd->run(&c, &err);
		settle(res, st, &err);
		st = res->status;
	}
	rcl_ctx_free(lib);
	return st;
}
