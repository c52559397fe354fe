// SPDX-License-Identifier: MIT
/*
 * cmd-export.c - what the controller process does for virtual drives: NBD
 * exports (/cN/vX start|stop|show export, through rcl_ctrl_export_start()
 * and its siblings; the rows of "Export LIST") and the VD's tasks
 * (rcl_ctrl_task()): consistency checks, inits and BGIs
 * (start|stop|pause|resume|show cc|init|bgi), erases (start|stop|show
 * erase) and migrations (start|show migrate).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The "State" "show export" gives export @e of VD @vd (NULL: not found). */
static const char *export_state(const struct rcl_export_info *e, const struct rcl_vd *vd)
{
	static const char *const names[] = {
	    [RCL_EXPORT_STOPPED] = "Stopped",
	    [RCL_EXPORT_SERVING] = "Serving",
	    [RCL_EXPORT_HELD] = "Needs force",
	    [RCL_EXPORT_FAILED] = "Failed",
	};

	/* An offline VD's server answers every read with an error: it serves nothing. */
	if (e->state == RCL_EXPORT_SERVING && vd && vd->state == RCL_VD_OFFLINE)
		return "Offline";
	return names[e->state];
}

static void add_export_row(struct rcl_node *table, const struct rcl_ctrl *ctrl,
                           const struct rcl_export_info *e)
{
	const struct rcl_vd *vd = rcl_ctrl_vd_by_id(ctrl, e->vd);
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_strf(row, "DG/VD", "%u/%u", vd ? vd->dg : 0, e->vd);
	rcl_node_add_str(row, "Export Name", e->name);
	rcl_node_add_str(row, "Address", e->address);
	rcl_node_add_str(row, "State", export_state(e, vd));
	rcl_node_add_int(row, "Clients", e->clients);
}

enum rcl_status add_export_list(struct rcl_node *data, struct rcl_ctrl *ctrl,
                                const struct id_set *vds, size_t *rows, struct rcl_error *err)
{
	bool every = !vds || !vds->given || vds->all;
	struct rcl_export_info *list;
	struct rcl_node *table;
	enum rcl_status st = rcl_ctrl_exports(ctrl, every ? NULL : vds->ids, every ? 0 : vds->count,
	                                      &list, rows, err);

	if (st || !*rows)
		return st;
	table = rcl_node_add_array(data, "Export LIST");
	for (size_t i = 0; i < *rows; i++)
		add_export_row(table, ctrl, &list[i]);
	rcl_free(list);
	return RCL_OK;
}

/* The VDs the path selects, failing for one it names that does not exist. */
static enum rcl_status vds_to_act_on(struct cmd_ctx *c, unsigned *ids, size_t *n,
                                     struct rcl_error *err)
{
	enum rcl_status st = check_named(c, false, err);

	*n = selected_vds(c, ids);
	if (!st && !*n)
		st =
		    rcl_fail(err, RCL_NOT_FOUND, "no virtual drives on /c%u", rcl_ctrl_id(c->ctrl));
	return st;
}

/* Refuse, without force, to serve VD @id both degraded and dirty: md refuses such an array too. */
static enum rcl_status refuse_dirty_degraded(struct cmd_ctx *c, unsigned id, struct rcl_error *err)
{
	const char *unsafe =
	    cmd_value(c->args, "force") ? NULL : rcl_ctrl_export_needs_force(c->ctrl, id);

	if (!unsafe)
		return RCL_OK;
	return rcl_fail(err, RCL_NEED_FORCE,
	                "/c%u/v%u is degraded and %s: its parity may not match its data (the "
	                "write hole), so a lost member's strips may read back wrong; repeat with "
	                "'force' to serve it anyway",
	                rcl_ctrl_id(c->ctrl), id, unsafe);
}

/*
 * Refuse, force or not, to serve VD @id offline: every read would fail, and
 * an export shown Serving would say otherwise. Its failed members may come
 * back without losing data (set online force).
 */
static enum rcl_status refuse_offline(struct cmd_ctx *c, unsigned id, struct rcl_error *err)
{
	const struct rcl_vd *vd = rcl_ctrl_vd_by_id(c->ctrl, id);
	unsigned ctrl = rcl_ctrl_id(c->ctrl);

	if (!vd || vd->state != RCL_VD_OFFLINE)
		return RCL_OK;
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "/c%u/v%u is offline (OfLn): more of its drives are lost than its RAID "
	                "level survives, so it cannot be served; a member failed by an error "
	                "that has passed returns with 'raidcli /c%u/eX/sY set online force' "
	                "(see Member I/O errors in raidcli(8))",
	                ctrl, id, ctrl);
}

/* The export "start export" asks for. */
static struct rcl_export_request export_asked(const struct cmd_ctx *c)
{
	return (struct rcl_export_request){.socket = cmd_value(c->args, "socket"),
	                                   .address = cmd_value(c->args, "address"),
	                                   .name = cmd_value(c->args, "name"),
	                                   .force = cmd_value(c->args, "force") != NULL};
}

/*
 * What "start export" of the VDs the path selects (into @ids, @n) is
 * refused for: checked before the controller process starts, and in it.
 */
static enum rcl_status export_refusal(struct cmd_ctx *c, const struct rcl_export_request *req,
                                      unsigned *ids, size_t *n, struct rcl_error *err)
{
	enum rcl_status st = vds_to_act_on(c, ids, n, err);

	if (!st && *n > 1 && (req->socket || req->address || req->name))
		st = rcl_fail(err, RCL_INVALID_PARAM,
		              "socket=, address= and name= name one export: address one VD, as in "
		              "/c%u/v%u",
		              rcl_ctrl_id(c->ctrl), ids[0]);
	for (size_t i = 0; !st && i < *n; i++)
		st = refuse_offline(c, ids[i], err);
	for (size_t i = 0; !st && i < *n; i++)
		st = refuse_dirty_degraded(c, ids[i], err);
	for (size_t i = 0; !st && i < *n; i++)
		st = rcl_ctrl_export_check(c->ctrl, ids[i], req, err);
	return st;
}

enum rcl_status cmd_vd_check_export(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_export_request req = export_asked(c);
	unsigned ids[RCL_MAX_VDS];
	size_t n;

	return export_refusal(c, &req, ids, &n, err);
}

enum rcl_status cmd_vd_start_export(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_export_request req = export_asked(c);
	unsigned ids[RCL_MAX_VDS];
	size_t n;
	enum rcl_status st = export_refusal(c, &req, ids, &n, err);

	for (size_t i = 0; !st && i < n; i++)
		st = rcl_ctrl_export_start(c->ctrl, ids[i], &req, err);
	if (st)
		return st;
	rcl_result_describe(c->res, "Started the export of %zu VD%s.", n, n == 1 ? "" : "s");
	return add_export_list(c->res->data, c->ctrl, &c->args->path.vd, &n, err);
}

enum rcl_status cmd_vd_stop_export(struct cmd_ctx *c, struct rcl_error *err)
{
	unsigned ids[RCL_MAX_VDS];
	size_t n, stopped = 0;
	enum rcl_status st = vds_to_act_on(c, ids, &n, err);

	for (size_t i = 0; !st && i < n; i++) {
		st = rcl_ctrl_export_stop(c->ctrl, ids[i], err);
		/* /vall stops what is exported; a VD named on its own must be. */
		if (st == RCL_NOT_FOUND && c->args->path.vd.all) {
			*err = (struct rcl_error){0};
			st = RCL_OK;
			continue;
		}
		stopped++;
	}
	if (!st && !stopped)
		st = rcl_fail(err, RCL_NOT_FOUND, "/c%u has no exports to stop",
		              rcl_ctrl_id(c->ctrl));
	if (!st)
		rcl_result_describe(c->res, "Stopped the export of %zu VD%s.", stopped,
		                    stopped == 1 ? "" : "s");
	return st;
}

enum rcl_status cmd_vd_show_export(struct cmd_ctx *c, struct rcl_error *err)
{
	enum rcl_status st = check_named(c, false, err);
	size_t rows;

	if (!st)
		st = add_export_list(c->res->data, c->ctrl, &c->args->path.vd, &rows, err);
	if (!st && !rows)
		rcl_result_describe(c->res, "No exports.");
	return st;
}

/* ------------------------------------------------------------------------
 * Consistency checks, inits and BGIs (a soft controller's run in its process). */

/* Refuse what start needs force for: an init destroys data; a check of a VD never initialized. */
static enum rcl_status check_force(struct cmd_ctx *c, enum rcl_task_kind kind,
                                   const struct rcl_vd *vd, struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(c->ctrl);

	if (cmd_value(c->args, "force"))
		return RCL_OK;
	if (kind == RCL_TASK_INIT)
		return rcl_fail(
		    err, RCL_NEED_FORCE,
		    "start init zeroes /c%u/v%u, destroying its data; repeat with 'force' "
		    "to confirm",
		    id, vd->id);
	if (!vd->consistent)
		return rcl_fail(
		    err, RCL_NEED_FORCE,
		    "/c%u/v%u is not consistent (not initialized): a check would report "
		    "every stripe; initialize it, or repeat with 'force'",
		    id, vd->id);
	return RCL_OK;
}

/*
 * Refuse a check of a VD that is not optimal, as MegaRAID does (and md,
 * which recovers a degraded array instead of checking it): a stripe that
 * lacks a member has nothing to compare its parity or copies with.
 */
static enum rcl_status check_optimal(struct cmd_ctx *c, const struct rcl_vd *vd,
                                     struct rcl_error *err)
{
	if (vd->state == RCL_VD_OPTIMAL)
		return RCL_OK;
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "/c%u/v%u is not optimal: a consistency check needs every member; "
	                "rebuild it first",
	                rcl_ctrl_id(c->ctrl), vd->id);
}

/*
 * Refuse a check of a RAID0 or RAID00 VD, which has no parity or copies to compare:
 * the level is in the record, so no controller process need start to say
 * so (the backend refuses it too, for the checks it starts itself).
 */
static enum rcl_status check_redundant(struct cmd_ctx *c, const struct rcl_vd *vd,
                                       struct rcl_error *err)
{
	if (rcl_raid_span_level(vd->level) != RCL_RAID0)
		return RCL_OK;
	return rcl_fail(err, RCL_UNSUPPORTED, "/c%u/v%u has no redundancy to check (%s)",
	                rcl_ctrl_id(c->ctrl), vd->id, rcl_raid_level_name(vd->level));
}

/*
 * Refuse a check or init of a VD the record has migrating: a controller
 * process starting resumes the migration first (and refuses it then too),
 * and the VD's layout is half the old, half the new one.
 */
static enum rcl_status check_not_migrating(struct cmd_ctx *c, const struct rcl_vd *vd,
                                           struct rcl_error *err)
{
	if (!vd_migrating(c->ctrl, vd->id))
		return RCL_OK;
	return rcl_fail(err, RCL_NOT_ALLOWED, "/c%u/v%u is migrating", rcl_ctrl_id(c->ctrl),
	                vd->id);
}

/*
 * Refuse a check without repair of a VD a crash left with regions to
 * resync (cli_vd_dirty()): its resync (a BGI the process starts) comes
 * first, and a check that only counts in its place would leave those
 * regions' parity stale. A process started for the command would run it
 * before it looks for resyncs, and then start none.
 */
static enum rcl_status check_resynced(struct cmd_ctx *c, const struct rcl_vd *vd,
                                      struct rcl_error *err)
{
	if (cmd_value(c->args, "repair") || !vd->consistent || !cli_vd_dirty(c->ctrl, vd))
		return RCL_OK;
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "the background initialization of /c%u/v%u (its resync after an unclean "
	                "stop) comes first: a check without repair would leave the parity or "
	                "copies of the regions it resyncs stale; wait for it to end, or repeat "
	                "with repair",
	                rcl_ctrl_id(c->ctrl), vd->id);
}

/* What a check of VD @vd is refused for, but force. */
static enum rcl_status check_refusal(struct cmd_ctx *c, const struct rcl_vd *vd,
                                     struct rcl_error *err)
{
	enum rcl_status st = check_redundant(c, vd, err);

	if (!st)
		st = check_optimal(c, vd, err);
	return st ? st : check_resynced(c, vd, err);
}

/*
 * What a start of @kind on VD @vd is refused for before the controller
 * process starts, and in it.
 */
static enum rcl_status start_refusal(struct cmd_ctx *c, enum rcl_task_kind kind,
                                     const struct rcl_vd *vd, struct rcl_error *err)
{
	enum rcl_status st = check_not_migrating(c, vd, err);

	if (!st && kind == RCL_TASK_CC)
		st = check_refusal(c, vd, err);
	/* An erase's force is for an exported VD only (rcl_ctrl_task() asks). */
	if (st || kind == RCL_TASK_VD_ERASE)
		return st;
	return check_force(c, kind, vd, err);
}

/* StorCLI's 8-bit pattern @text ("01010101") into *@out. */
static enum rcl_status parse_pattern(const char *name, const char *text, uint8_t *out,
                                     struct rcl_error *err)
{
	size_t n = strspn(text, "01");

	*out = 0;
	if (n != 8 || text[n])
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "%s='%s' is not a pattern: give 8 binary digits, as in %s=01010101",
		                name, text, name);
	for (size_t i = 0; i < n; i++)
		*out = (uint8_t)(*out << 1 | (text[i] == '1'));
	return RCL_OK;
}

enum rcl_status cmd_erase_how(struct cmd_ctx *c, struct rcl_erase *how, struct rcl_error *err)
{
	/* The grammar offers each form its own words of these. */
	static const char *const modes[] = {
	    [RCL_ERASE_SIMPLE] = "simple",     [RCL_ERASE_NORMAL] = "normal",
	    [RCL_ERASE_THOROUGH] = "thorough", [RCL_ERASE_CRYPTO] = "crypto",
	    [RCL_ERASE_BLOCK] = "blockerase",  [RCL_ERASE_OVERWRITE] = "overwrite",
	    [RCL_ERASE_FORMAT] = "format"};
	const char *a = cmd_value(c->args, "patterna"), *b = cmd_value(c->args, "patternb");
	unsigned given = 0;
	enum rcl_status st = RCL_OK;

	*how = (struct rcl_erase){.mode = RCL_ERASE_AUTO, .pattern_b = 0xff};
	for (unsigned m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
		if (cmd_value(c->args, modes[m])) {
			how->mode = (enum rcl_erase_mode)m;
			given++;
		}
	if (given > 1)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "give one of simple, normal and thorough, not %u", given);
	if (a)
		st = parse_pattern("patternA", a, &how->pattern_a, err);
	if (!st && b)
		st = parse_pattern("patternB", b, &how->pattern_b, err);
	return st;
}

/* start_refusal() of each VD the path selects. */
static enum rcl_status start_refusals(struct cmd_ctx *c, enum rcl_task_kind kind,
                                      struct rcl_error *err)
{
	unsigned ids[RCL_MAX_VDS];
	size_t n;
	enum rcl_status st = vds_to_act_on(c, ids, &n, err);

	for (size_t i = 0; !st && i < n; i++) {
		const struct rcl_vd *vd = rcl_ctrl_vd_by_id(c->ctrl, ids[i]);

		if (vd)
			st = start_refusal(c, kind, vd, err);
	}
	return st;
}

enum rcl_status cmd_vd_check_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	return start_refusals(c, RCL_TASK_CC, err);
}

enum rcl_status cmd_vd_check_init(struct cmd_ctx *c, struct rcl_error *err)
{
	return start_refusals(c, RCL_TASK_INIT, err);
}

/* The request for @kind and @action on the VDs the path selects, with the command's options. */
static enum rcl_status vd_request(struct cmd_ctx *c, enum rcl_task_kind kind,
                                  enum rcl_task_action action, struct rcl_task_request *req,
                                  struct rcl_error *err)
{
	*req = (struct rcl_task_request){.kind = kind,
	                                 .action = action,
	                                 .repair = cmd_value(c->args, "repair") != NULL,
	                                 .full = cmd_value(c->args, "full") != NULL};
	if (kind != RCL_TASK_VD_ERASE || action != RCL_TASK_ACTION_START)
		return RCL_OK;
	req->force = cmd_value(c->args, "force") != NULL;
	return cmd_erase_how(c, &req->erase, err);
}

enum rcl_status cmd_vd_check_erase(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_task_request req;
	unsigned ids[RCL_MAX_VDS];
	size_t n = 0;
	enum rcl_status st = vd_request(c, RCL_TASK_VD_ERASE, RCL_TASK_ACTION_START, &req, err);

	if (!st)
		st = start_refusals(c, RCL_TASK_VD_ERASE, err);
	if (!st)
		st = vds_to_act_on(c, ids, &n, err);
	for (size_t i = 0; !st && i < n; i++) {
		req.vd = ids[i];
		st = rcl_ctrl_task_check(c->ctrl, &req, err);
	}
	return st;
}

static enum rcl_status check_each(struct cmd_ctx *c, enum rcl_task_kind kind,
                                  enum rcl_task_action action, const char *done,
                                  struct rcl_error *err)
{
	struct rcl_task_request req;
	unsigned ids[RCL_MAX_VDS];
	size_t n = 0;
	enum rcl_status st = vd_request(c, kind, action, &req, err);

	if (!st)
		st = vds_to_act_on(c, ids, &n, err);

	for (size_t i = 0; !st && i < n; i++) {
		const struct rcl_vd *vd = rcl_ctrl_vd_by_id(c->ctrl, ids[i]);

		if (action == RCL_TASK_ACTION_START && vd)
			st = start_refusal(c, kind, vd, err);
		req.vd = ids[i];
		if (!st)
			st = rcl_ctrl_task(c->ctrl, &req, err);
	}
	if (!st)
		rcl_result_describe(c->res, "%s", done);
	return st;
}

enum rcl_status cmd_vd_start_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_CC, RCL_TASK_ACTION_START, "Start CC Operation Success.",
	                  err);
}

enum rcl_status cmd_vd_stop_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_CC, RCL_TASK_ACTION_STOP, "Stop CC Operation Success.", err);
}

enum rcl_status cmd_vd_pause_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_CC, RCL_TASK_ACTION_PAUSE, "Pause CC Operation Success.",
	                  err);
}

enum rcl_status cmd_vd_resume_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_CC, RCL_TASK_ACTION_RESUME, "Resume CC Operation Success.",
	                  err);
}

/* "show" of task @kind: the "VD Operation Status" table, a row per VD the path selects. */
static enum rcl_status show_each(struct cmd_ctx *c, enum rcl_task_kind kind, struct rcl_error *err)
{
	unsigned ids[RCL_MAX_VDS];
	size_t n;
	enum rcl_status st = vds_to_act_on(c, ids, &n, err);
	struct rcl_node *table;

	if (st)
		return st;
	table = rcl_node_add_array(c->res->data, "VD Operation Status");
	for (size_t i = 0; !st && i < n; i++)
		st = vd_task_row(table, c->ctrl, ids[i], kind, err);
	if (!st)
		rcl_result_describe(c->res, "None");
	return st;
}

enum rcl_status cmd_vd_show_cc(struct cmd_ctx *c, struct rcl_error *err)
{
	return show_each(c, RCL_TASK_CC, err);
}

enum rcl_status cmd_vd_start_init(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_INIT, RCL_TASK_ACTION_START, "Start INIT Operation Success.",
	                  err);
}

enum rcl_status cmd_vd_stop_init(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_INIT, RCL_TASK_ACTION_STOP, "Stop INIT Operation Success.",
	                  err);
}

enum rcl_status cmd_vd_show_init(struct cmd_ctx *c, struct rcl_error *err)
{
	return show_each(c, RCL_TASK_INIT, err);
}

enum rcl_status cmd_vd_stop_bgi(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_BGI, RCL_TASK_ACTION_STOP, "Stop BGI Operation Success.",
	                  err);
}

enum rcl_status cmd_vd_pause_bgi(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_BGI, RCL_TASK_ACTION_PAUSE, "Pause BGI Operation Success.",
	                  err);
}

enum rcl_status cmd_vd_resume_bgi(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_BGI, RCL_TASK_ACTION_RESUME, "Resume BGI Operation Success.",
	                  err);
}

enum rcl_status cmd_vd_show_bgi(struct cmd_ctx *c, struct rcl_error *err)
{
	return show_each(c, RCL_TASK_BGI, err);
}

/* "show autobgi": StorCLI's "VD Operation Status" rows, a VD and its AutoBGI. */
enum rcl_status cmd_vd_show_autobgi(struct cmd_ctx *c, struct rcl_error *err)
{
	unsigned ids[RCL_MAX_VDS];
	size_t n;
	enum rcl_status st = vds_to_act_on(c, ids, &n, err);
	struct rcl_node *table;

	if (st)
		return st;
	table = rcl_node_add_array(c->res->data, "VD Operation Status");
	for (size_t i = 0; i < n; i++) {
		struct rcl_node *row = rcl_node_add_object(table, NULL);

		rcl_node_add_int(row, "VD", ids[i]);
		rcl_node_add_str(row, "AutoBGI",
		                 rcl_ctrl_vd_by_id(c->ctrl, ids[i])->autobgi ? "On" : "Off");
	}
	rcl_result_describe(c->res, "None");
	return RCL_OK;
}

enum rcl_status cmd_vd_set_autobgi(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_vd_props props = rcl_vd_props_keep();
	unsigned ids[RCL_MAX_VDS];
	size_t n;
	enum rcl_status st = vds_to_act_on(c, ids, &n, err);

	props.autobgi = !strcmp(cmd_value(c->args, "autobgi"), "on");

	for (size_t i = 0; !st && i < n; i++)
		st = rcl_ctrl_set_vd(c->ctrl, ids[i], &props, err);
	if (!st)
		rcl_result_describe(c->res, "Set VD Properties Succeeded.");
	return st;
}

enum rcl_status cmd_vd_start_erase(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_VD_ERASE, RCL_TASK_ACTION_START,
	                  "Start Erase Operation Success.", err);
}

enum rcl_status cmd_vd_stop_erase(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_each(c, RCL_TASK_VD_ERASE, RCL_TASK_ACTION_STOP,
	                  "Stop Erase Operation Success.", err);
}

enum rcl_status cmd_vd_show_erase(struct cmd_ctx *c, struct rcl_error *err)
{
	return show_each(c, RCL_TASK_VD_ERASE, err);
}

/* ------------------------------------------------------------------------
 * Migrations (a soft controller's run in its process). */

/* The one VD the path names: a migration changes one group at a time. */
static enum rcl_status one_vd(struct cmd_ctx *c, unsigned *id, struct rcl_error *err)
{
	unsigned ids[RCL_MAX_VDS];
	size_t n;
	enum rcl_status st = vds_to_act_on(c, ids, &n, err);

	if (!st && n != 1)
		st = rcl_fail(err, RCL_INVALID_PARAM,
		              "start migrate changes one virtual drive: name it, as in /c%u/v%u",
		              rcl_ctrl_id(c->ctrl), ids[0]);
	*id = ids[0];
	return st;
}

/* The drives option=add|remove drives= names (none without option=); *@remove: which. */
static enum rcl_status option_drives(struct cmd_ctx *c, struct drive_list *list, bool *remove,
                                     struct rcl_error *err)
{
	const char *option = cmd_value(c->args, "option");
	const char *drives = cmd_value(c->args, "drives");

	list->count = 0;
	*remove = option && !strcmp(option, "remove");
	if (!option != !drives)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "option=add|remove and drives= go together, as in: %s",
		                c->args->cmd->example);
	return parse_drive_list(c->ctrl, "drives", drives, list, err);
}

/* What "start migrate" asks: the VD, level and whether it removes into @req, the drives into @list.
 */
static enum rcl_status migration_asked(struct cmd_ctx *c, struct rcl_task_request *req,
                                       struct drive_list *list, struct rcl_error *err)
{
	enum rcl_status st = one_vd(c, &req->vd, err);

	if (!st)
		st = rcl_raid_level_parse(cmd_value(c->args, "type"), &req->level, err);
	if (!st)
		st = option_drives(c, list, &req->remove, err);
	return st;
}

/* "start migrate" through @start (rcl_ctrl_task() or rcl_ctrl_task_check()). */
static enum rcl_status migrate_with(struct cmd_ctx *c,
                                    enum rcl_status (*start)(struct rcl_ctrl *,
                                                             const struct rcl_task_request *,
                                                             struct rcl_error *),
                                    struct rcl_error *err)
{
	struct drive_list *list = rcl_calloc(1, sizeof(*list));
	struct rcl_task_request req = {.kind = RCL_TASK_MIGRATE,
	                               .action = RCL_TASK_ACTION_START,
	                               .force = cmd_value(c->args, "force") != NULL,
	                               .level = RCL_RAID5};
	enum rcl_status st =
	    list ? migration_asked(c, &req, list, err) : rcl_fail(err, RCL_NOMEM, "out of memory");

	if (!st) {
		req.drives = list->refs;
		req.drive_count = list->count;
		st = start(c->ctrl, &req, err);
	}
	rcl_free(list);
	return st;
}

enum rcl_status cmd_vd_check_migrate(struct cmd_ctx *c, struct rcl_error *err)
{
	return migrate_with(c, rcl_ctrl_task_check, err);
}

enum rcl_status cmd_vd_start_migrate(struct cmd_ctx *c, struct rcl_error *err)
{
	enum rcl_status st = migrate_with(c, rcl_ctrl_task, err);

	if (!st)
		rcl_result_describe(c->res, "Start Migrate Operation Success.");
	return st;
}

enum rcl_status cmd_vd_show_migrate(struct cmd_ctx *c, struct rcl_error *err)
{
	return show_each(c, RCL_TASK_MIGRATE, err);
}
