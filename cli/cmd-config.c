// SPDX-License-Identifier: MIT
/*
 * cmd-config.c - the commands that change a controller's VDs wholesale or
 * grow one: /cN add vd each, /cN delete config, /cN/vX show expansion and
 * /cN/vX expand. StorCLI's descriptions and tables (research/storcli.md).
 */
#include <stdlib.h>

#include "cli.h"

enum rcl_status cmd_ctrl_add_vd_each(struct cmd_ctx *c, struct rcl_error *err)
{
	struct drive_list *list = rcl_calloc(1, sizeof(*list));
	struct rcl_vd_params params = {0};
	unsigned ids[RCL_MAX_VDS];
	enum rcl_status st;
	size_t n;

	if (!list)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = read_vd_options(c->args, rcl_ctrl_caps(c->ctrl), &params, err);
	if (!st)
		st = parse_drive_list(c->ctrl, "drives", cmd_value(c->args, "drives"), list, err);
	if (!st) {
		params.drives = list->refs;
		params.drive_count = list->count;
		st = rcl_ctrl_create_vd_each(c->ctrl, &params, ids, &n, err);
	}
	if (!st)
		rcl_result_describe(c->res, "Add VD Succeeded.");
	rcl_free(list);
	return st;
}

enum rcl_status cmd_ctrl_delete_config(struct cmd_ctx *c, struct rcl_error *err)
{
	size_t n;
	enum rcl_status st =
	    rcl_ctrl_delete_config(c->ctrl, cmd_value(c->args, "force") != NULL, &n, err);

	if (!st)
		rcl_result_describe(c->res, "Delete Config Succeeded");
	return st;
}

static const char *const legend_expansion =
    "OCE - Online Capacity Expansion | WithArrExp - With Array Expansion\n"
    "VD=Virtual Drive | NoArrExp - Without Array Expansion";

static void add_right_size(struct rcl_node *row, const char *key, uint64_t bytes)
{
	rcl_node_set_flags(rcl_node_add_size(row, key, bytes), RCL_NODE_ALIGN_RIGHT);
}

/* One row of EXPANSION INFORMATION; a VD that cannot grow says why below. */
static void add_expansion_row(struct rcl_node *table, unsigned vd, const struct rcl_vd_expansion *x)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_int(row, "VD", vd);
	add_right_size(row, "Size", x->bytes);
	rcl_node_add_str(row, "OCE", x->grow || x->grow_array ? "Y" : "N");
	add_right_size(row, "NoArrExp", x->grow);
	add_right_size(row, "WithArrExp", x->grow_array);
	rcl_node_add_str(row, "Status", "-");
	if (x->why[0])
		add_footnote(table, "VD %u cannot grow: %s", vd, x->why);
}

enum rcl_status cmd_vd_show_expansion(struct cmd_ctx *c, struct rcl_error *err)
{
	unsigned ids[RCL_MAX_VDS];
	struct rcl_node *table = NULL;
	enum rcl_status st = check_named(c, false, err);
	size_t n = selected_vds(c, ids);

	if (!st && !n)
		rcl_result_describe(c->res, "No VDs have been configured.");
	for (size_t i = 0; !st && i < n; i++) {
		struct rcl_vd_expansion x;

		st = rcl_ctrl_vd_expansion(c->ctrl, ids[i], &x, err);
		if (st)
			break;
		if (!table) {
			table = rcl_node_add_array(c->res->data, "EXPANSION INFORMATION");
			rcl_node_set_legend(table, legend_expansion);
		}
		add_expansion_row(table, ids[i], &x);
	}
	return st;
}

static const char *const legend_expand =
    "Size - Current VD size|FreSpc - Freespace available before expansion\n"
    "%FreSpc - Requested expansion size in % of available free space\n"
    "AbsUsrSz - User size rounded to nearest %";

/* StorCLI's EXPANSION RESULT: @x as it was before, @vd as it is now. */
static void add_expand_result(struct rcl_node *data, const struct rcl_vd *vd, uint64_t asked,
                              uint64_t free_bytes, const struct rcl_vd_expansion *x)
{
	struct rcl_node *table = rcl_node_add_array(data, "EXPANSION RESULT");
	struct rcl_node *row = rcl_node_add_object(table, NULL);
	uint64_t added = vd->bytes - x->bytes;

	rcl_node_set_legend(table, legend_expand);
	rcl_node_add_int(row, "VD", vd->id);
	add_right_size(row, "Size", x->bytes);
	add_right_size(row, "FreSpc", free_bytes);
	add_right_size(row, "ReqSize", asked);
	add_right_size(row, "AbsUsrSz", added);
	rcl_node_set_flags(
	    rcl_node_add_int(row, "%FreSpc", free_bytes ? (int64_t)(added * 100 / free_bytes) : 0),
	    RCL_NODE_ALIGN_RIGHT);
	add_right_size(row, "NewSize", vd->bytes);
	rcl_node_add_str(row, "Status", "-");
	add_right_size(row, "NoArrExp", free_bytes > added ? free_bytes - added : 0);
}

enum rcl_status cmd_vd_expand(struct cmd_ctx *c, struct rcl_error *err)
{
	bool array = cmd_value(c->args, "expandarray") != NULL;
	const char *size = cmd_value(c->args, "size");
	struct rcl_vd_expansion before;
	unsigned ids[RCL_MAX_VDS];
	enum rcl_status st = check_named(c, false, err);
	size_t n = selected_vds(c, ids);
	uint64_t bytes = 0;

	if (!st && n != 1)
		st = rcl_fail(err, RCL_INVALID_COMMAND,
		              "expand grows one virtual drive at a time: name one, as in %s",
		              c->args->cmd->example);
	if (!st)
		st = rcl_size_parse(size, &bytes, err);
	if (!st)
		st = rcl_ctrl_expand_vd(c->ctrl, ids[0], bytes, array, &before, err);
	if (st)
		return st;
	rcl_result_describe(c->res, "expansion operation succeeded");
	add_expand_result(c->res->data, rcl_ctrl_vd_by_id(c->ctrl, ids[0]), bytes,
	                  array ? before.grow_array : before.grow, &before);
	return RCL_OK;
}
