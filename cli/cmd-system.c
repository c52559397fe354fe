// SPDX-License-Identifier: MIT
/*
 * cmd-system.c - commands without an object path: show, show all,
 * show ctrlcount, version, add controller.
 */
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char *const legend_overview =
    "Ctl=Controller Index|DGs=Drive groups|VDs=Virtual drives|Fld=Failed\n"
    "PDs=Physical drives|DNOpt=Array NotOptimal|VNOpt=VD NotOptimal|Opt=Optimal\n"
    "Msng=Missing|Dgd=Degraded|NdAtn=Need Attention|Unkwn=Unknown\n"
    "sPR=Scheduled Patrol Read|DS=DimmerSwitch|EHS=Emergency Spare Drive\n"
    "Y=Yes|N=No|ASOs=Advanced Software Options|BBU=Battery backup unit/CV\n"
    "Hlth=Health|N/A=Not applicable";

static long long dgs_not_optimal(const struct rcl_ctrl *ctrl)
{
	long long n = 0;

	for (size_t i = 0; i < rcl_ctrl_dg_count(ctrl); i++)
		n += rcl_ctrl_dg(ctrl, i)->state != RCL_VD_OPTIMAL;
	return n;
}

long long vds_not_optimal(const struct rcl_ctrl *ctrl)
{
	long long n = 0;

	for (size_t i = 0; i < rcl_ctrl_vd_count(ctrl); i++)
		n += rcl_ctrl_vd(ctrl, i)->state != RCL_VD_OPTIMAL;
	return n;
}

static void add_overview_row(struct rcl_node *table, const struct rcl_ctrl *ctrl)
{
	const struct rcl_caps *caps = rcl_ctrl_caps(ctrl);
	struct rcl_node *row = rcl_node_add_object(table, NULL);
	long long vnopt = vds_not_optimal(ctrl);

	rcl_node_add_int(row, "Ctl", rcl_ctrl_id(ctrl));
	rcl_node_add_str(row, "Model", rcl_ctrl_info(ctrl)->model);
	rcl_node_add_int(row, "Ports", ctrl_ports(rcl_ctrl_info(ctrl)));
	rcl_node_add_int(row, "PDs", (long long)rcl_ctrl_drive_count(ctrl));
	rcl_node_add_int(row, "DGs", (long long)rcl_ctrl_dg_count(ctrl));
	rcl_node_add_int(row, "DNOpt", dgs_not_optimal(ctrl));
	rcl_node_add_int(row, "VDs", (long long)rcl_ctrl_vd_count(ctrl));
	rcl_node_add_int(row, "VNOpt", vnopt);
	rcl_node_add_str(row, "BBU", backup_state(caps, rcl_ctrl_info(ctrl), "N/A"));
	/* Whether a patrol read schedule is on is a setting, not yet read here. */
	rcl_node_add_str(row, "sPR", caps->tasks & (1u << RCL_TASK_PATROL_READ) ? "Off" : "N/A");
	rcl_node_add_str(row, "DS", "N/A");
	rcl_node_add_str(row, "EHS", caps->emergency_spare ? "Y" : "N");
	rcl_node_add_int(row, "ASOs", 0);
	/* StorCLI's overview says "NdAtn" while a VD is not optimal. */
	rcl_node_add_str(row, "Hlth", vnopt ? "NdAtn" : "Opt");
}

/*
 * A controller that cannot be read (its state file damaged, say): a row that
 * says so (Hlth Unkwn, "-" for what is unknown) and a Detailed Status row
 * with the reason.
 */
static void add_unreadable_row(struct cmd_ctx *c, struct rcl_node *table, unsigned id,
                               const struct rcl_error *why)
{
	static const char *const unknown[] = {"Model", "Ports", "PDs", "DGs", "DNOpt", "VDs",
	                                      "VNOpt", "BBU",   "sPR", "DS",  "EHS",   "ASOs"};
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_int(row, "Ctl", id);
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		rcl_node_add_str(row, unknown[i], "-");
	rcl_node_add_str(row, "Hlth", "Unkwn");
	if (!c->res->detail)
		c->res->detail = rcl_node_new_array();
	row = rcl_node_add_object(c->res->detail, NULL);
	rcl_node_add_int(row, "Ctrl", id);
	rcl_node_add_str(row, "Status", "Failed");
	rcl_node_add_int(row, "ErrCd", why->status);
	rcl_node_add_str(row, "ErrMsg", why->msg);
	if (!row)
		rcl_node_set_oom(c->res->data);
}

/*
 * The system overview: one row per controller. One that cannot be read
 * does not hide the others: each is listed, the unreadable ones marked, and
 * the command fails with the first one's status, as a /call command does.
 */
static enum rcl_status add_overview(struct cmd_ctx *c)
{
	struct rcl_node *data = c->res->data;
	const unsigned *ids;
	size_t count = rcl_ctx_ctrl_ids(c->lib, &ids), unreadable = 0;
	struct rcl_error first = {0};
	unsigned first_id = 0;
	struct rcl_node *table;
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	rcl_node_add_int(data, "Number of Controllers", (long long)count);
	rcl_node_add_str(data, "Host Name", host);
	/* The trailing space is StorCLI's, and scripts match it. */
	rcl_node_add_str(data, "Operating System ", render_os_name());
	if (!count)
		return RCL_OK;
	table = rcl_node_add_array(data, "System Overview");
	rcl_node_set_legend(table, legend_overview);
	rcl_ctx_prefetch(c->lib, ids, count); /* every BMC at once, not one after another */
	for (size_t i = 0; i < count; i++) {
		struct rcl_error why = {0};
		struct rcl_ctrl *ctrl;

		if (rcl_ctrl_open(c->lib, ids[i], RCL_LOCK_SHARED, &ctrl, &why)) {
			add_unreadable_row(c, table, ids[i], &why);
			if (!unreadable++) {
				first = why;
				first_id = ids[i];
			}
			continue;
		}
		add_overview_row(table, ctrl);
		rcl_ctrl_close(ctrl);
	}
	if (!unreadable)
		return RCL_OK;
	c->res->status = first.status;
	if (unreadable == 1)
		rcl_result_describe(c->res, "/c%u cannot be read: %s", first_id, first.msg);
	else
		rcl_result_describe(c->res,
		                    "/c%u cannot be read: %s (and %zu more: see Detailed Status)",
		                    first_id, first.msg, unreadable - 1);
	return first.status;
}

enum rcl_status cmd_system_show(struct cmd_ctx *c, struct rcl_error *err)
{
	(void)err; /* add_overview() fails the result itself, per controller */
	return add_overview(c);
}

enum rcl_status cmd_system_show_all(struct cmd_ctx *c, struct rcl_error *err)
{
	enum rcl_status st = add_overview(c);

	(void)err;
	rcl_node_add_str(c->res->data, "raidcli Version", rcl_version());
	rcl_node_add_str(c->res->data, "State Directory", rcl_ctx_state_dir(c->lib));
	return st;
}

enum rcl_status cmd_system_ctrlcount(struct cmd_ctx *c, struct rcl_error *err)
{
	const unsigned *ids;

	(void)err;
	rcl_node_add_int(c->res->data, "Controller Count",
	                 (long long)rcl_ctx_ctrl_ids(c->lib, &ids));
	return RCL_OK;
}

enum rcl_status cmd_system_version(struct cmd_ctx *c, struct rcl_error *err)
{
	(void)err;
	rcl_node_add_strf(c->res->data, "Version", "raidcli %s", rcl_version());
	rcl_node_add_str(c->res->data, "License", "MIT");
	return RCL_OK;
}

static bool has_id(const unsigned *ids, size_t count, unsigned id)
{
	for (size_t i = 0; i < count; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/*
 * "Added controller /c3." or, when one command added several (a BMC's
 * Storages, a hosts file's BMCs), all of them: "Added controllers /c2-/c5,
 * /c7." The new ones are those not among @before's @count ids.
 */
static enum rcl_status describe_added(struct cmd_ctx *c, const unsigned *before, size_t count,
                                      struct rcl_error *err)
{
	const unsigned *ids;
	size_t n = rcl_ctx_ctrl_ids(c->lib, &ids), added = 0;
	struct rcl_buf list = RCL_BUF_INIT;
	bool oom;

	for (size_t i = 0; i < n; i++) {
		size_t end = i;

		if (has_id(before, count, ids[i]))
			continue;
		/* A run of consecutive new ids as one range. */
		while (end + 1 < n && ids[end + 1] == ids[end] + 1 &&
		       !has_id(before, count, ids[end + 1]))
			end++;
		rcl_buf_addf(&list, "%s/c%u", added ? ", " : "", ids[i]);
		if (end > i)
			rcl_buf_addf(&list, "-/c%u", ids[end]);
		added += end - i + 1;
		i = end;
	}
	oom = list.oom;
	if (!oom)
		rcl_result_describe(c->res, "Added controller%s %s.", added > 1 ? "s" : "",
		                    list.buf);
	rcl_buf_release(&list);
	return oom ? rcl_fail(err, RCL_NOMEM, "out of memory") : RCL_OK;
}

/* Every option given but type= goes to the kind's backend as key=value. */
enum rcl_status cmd_add_controller(struct cmd_ctx *c, struct rcl_error *err)
{
	const struct cmd_spec *cmd = c->args->cmd;
	struct rcl_kv params[CMD_MAX_OPTS];
	const unsigned *ids;
	size_t count = 0, before = rcl_ctx_ctrl_ids(c->lib, &ids);
	unsigned *old = rcl_calloc(before + 1, sizeof(*old));
	struct rcl_ctrl *ctrl;
	enum rcl_status st;
	unsigned id;

	if (!old)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	memcpy(old, ids, before * sizeof(*old));
	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++)
		if (c->args->values[i] && strcmp(cmd->opts[i].name, "type"))
			params[count++] = (struct rcl_kv){cmd->opts[i].name, c->args->values[i]};
	st = rcl_ctrl_create(c->lib, cmd_value(c->args, "type"), params, count, &id, err);
	if (!st)
		st = describe_added(c, old, before, err);
	rcl_free(old);
	if (st)
		return st;
	rcl_node_add_int(c->res->data, "Controller", id);
	st = rcl_ctrl_open(c->lib, id, RCL_LOCK_SHARED, &ctrl, err);
	if (st)
		return st;
	rcl_node_add_str(c->res->data, "Product Name", rcl_ctrl_info(ctrl)->model);
	rcl_node_add_str(c->res->data, "Serial Number", rcl_ctrl_info(ctrl)->serial);
	rcl_node_add_int(c->res->data, "Physical Drives", (long long)rcl_ctrl_drive_count(ctrl));
	add_pd_list(c->res->data, ctrl, "PD LIST");
	rcl_ctrl_close(ctrl);
	return RCL_OK;
}
