// SPDX-License-Identifier: MIT
/*
 * cmd-export.c - NBD exports of virtual drives: /cN/vX start export,
 * stop export, show export (server/export.h serves them).
 */
#include "export.h"

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

enum rcl_status cmd_vd_start_export(struct cmd_ctx *c, struct rcl_error *err)
{
	struct export_request req = {.socket = cmd_value(c->args, "socket"),
	                             .address = cmd_value(c->args, "address"),
	                             .name = cmd_value(c->args, "name")};
	unsigned ids[RCL_MAX_VDS];
	size_t n;
	enum rcl_status st = vds_to_act_on(c, ids, &n, err);

	if (!st && n > 1 && (req.socket || req.address || req.name))
		st = rcl_fail(err, RCL_INVALID_PARAM,
		              "socket=, address= and name= name one export: address one VD, as in "
		              "/c%u/v%u",
		              rcl_ctrl_id(c->ctrl), ids[0]);
	if (st)
		return st;
	for (size_t i = 0; !st && i < n; i++)
		st = export_start(c->lib, c->ctrl, ids[i], &req, err);
	if (st)
		return st;
	rcl_result_describe(c->res, "Started the export of %zu VD%s.", n, n == 1 ? "" : "s");
	return export_list(c->lib, c->ctrl, &c->args->path.vd, c->res->data, "Export LIST", &n,
	                   err);
}

enum rcl_status cmd_vd_stop_export(struct cmd_ctx *c, struct rcl_error *err)
{
	unsigned ids[RCL_MAX_VDS];
	size_t n, stopped = 0;
	enum rcl_status st = vds_to_act_on(c, ids, &n, err);

	for (size_t i = 0; !st && i < n; i++) {
		st = export_stop(c->lib, c->ctrl, ids[i], err);
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
		st = export_list(c->lib, c->ctrl, &c->args->path.vd, c->res->data, "Export LIST",
		                 &rows, err);
	if (!st && !rows)
		rcl_result_describe(c->res, "No exports.");
	return st;
}
