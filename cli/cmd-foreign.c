// SPDX-License-Identifier: MIT
/*
 * cmd-foreign.c - foreign configuration commands: /cN/fall show [all],
 * /cN/fall import [preview], /cN/fall del. Keys and descriptions are
 * StorCLI v1's where it has them (research/storcli.md 5.8): the
 * "FOREIGN CONFIGURATION" table and "Total foreign Drive Groups" come
 * first, raidcli's detail (who wrote each configuration, whether it is
 * complete, why it cannot be imported) after them.
 */
#include <string.h>

#include "cli.h"

static const char *const legend_foreign =
    "NoVDs - Number of VDs in disk group|DG - Diskgroup|Frgn=Foreign";
static const char *const legend_foreign_pds =
    "DG=DriveGroup|Arr=Array (span)|Row=Row Index|Frgn=Foreign|Msng=Missing\n"
    "GHS=Global Hotspare|DHS=Dedicated Hot Spare|UGood=not in the configuration";

static size_t dg_total(const struct rcl_foreign *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->count; i++)
		n += f->configs[i].dg_count;
	return n;
}

static uint64_t dg_bytes(const struct rcl_foreign_config *c, unsigned dg)
{
	uint64_t bytes = 0;

	for (size_t v = 0; v < c->vd_count; v++)
		if (c->vds[v].dg == dg)
			bytes += c->vds[v].bytes;
	return bytes;
}

static void add_dg_rows(struct rcl_node *table, const struct rcl_foreign_config *c)
{
	for (size_t d = 0; d < c->dg_count; d++) {
		const struct rcl_dg *dg = &c->dgs[d];
		struct rcl_node *row = rcl_node_add_object(table, NULL);

		rcl_node_add_int(row, "DG", dg->id);
		rcl_node_add_str(row, "EID:Slot", "-");
		rcl_node_add_str(row, "Type", rcl_raid_level_name(dg->level));
		rcl_node_add_str(row, "State", "Frgn");
		rcl_node_set_flags(rcl_node_add_size(row, "Size", dg_bytes(c, dg->id)),
		                   RCL_NODE_ALIGN_RIGHT);
		rcl_node_add_int(row, "NoVDs", dg->vd_count);
	}
}

/* "0-2" style list of @c's group ids, or "-". */
static void add_dg_ids(struct rcl_node *row, const struct rcl_foreign_config *c)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	for (size_t d = 0; d < c->dg_count; d++)
		rcl_buf_addf(&sb, "%s%u", d ? "," : "", c->dgs[d].id);
	rcl_node_add_str(row, "DGs", c->dg_count ? sb.buf : "-");
	if (sb.oom)
		rcl_node_set_oom(row);
	rcl_buf_release(&sb);
}

static size_t present_drives(const struct rcl_foreign_config *c)
{
	size_t n = 0;

	for (size_t d = 0; d < c->drive_count; d++)
		n += c->drives[d].present;
	return n;
}

/* Who wrote @c: "raidcli", "mdadm", or "card" (another controller's firmware). */
static const char *source_name(const struct rcl_foreign_config *c)
{
	switch (c->source) {
	case RCL_FOREIGN_MDADM:
		return "mdadm";
	case RCL_FOREIGN_CARD:
		return "card";
	default:
		return "raidcli";
	}
}

static void add_config_row(struct rcl_node *table, const struct rcl_foreign_config *c, size_t i)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_int(row, "Config", (long long)i);
	rcl_node_add_str(row, "Source", source_name(c));
	rcl_node_add_str(row, "Owner", c->owner);
	add_dg_ids(row, c);
	rcl_node_add_int(row, "VDs", (long long)c->vd_count);
	rcl_node_add_strf(row, "PDs", "%zu/%zu", present_drives(c), c->drive_count);
	rcl_node_add_str(row, "Complete", c->complete ? "Yes" : "No");
	rcl_node_add_str(row, "Importable", c->problem[0] ? "No" : "Yes");
}

static const char *role_name(const struct rcl_foreign_drive *d)
{
	switch (d->role) {
	case RCL_PD_GHS:
		return "GHS";
	case RCL_PD_DHS:
		return "DHS";
	case RCL_PD_ONLINE:
		return "DRIVE";
	default:
		return "UGood";
	}
}

static void add_drive_rows(struct rcl_node *table, const struct rcl_foreign_config *c, size_t i)
{
	for (size_t k = 0; k < c->drive_count; k++) {
		const struct rcl_foreign_drive *d = &c->drives[k];
		struct rcl_node *row = rcl_node_add_object(table, NULL);
		bool member = d->role == RCL_PD_ONLINE;

		rcl_node_add_int(row, "Config", (long long)i);
		/* A missing drive's old slot is another controller's: it means nothing here. */
		if (d->present)
			rcl_node_add_strf(row, "EID:Slt", "%u:%u", d->enclosure, d->slot);
		else
			rcl_node_add_str(row, "EID:Slt", "-");
		if (d->dg >= 0)
			rcl_node_add_int(row, "DG", d->dg);
		else
			rcl_node_set_flags(rcl_node_add_str(row, "DG", "-"), RCL_NODE_ALIGN_RIGHT);
		if (member) {
			rcl_node_add_int(row, "Arr", d->span);
			rcl_node_add_int(row, "Row", d->row);
		} else {
			rcl_node_set_flags(rcl_node_add_str(row, "Arr", "-"), RCL_NODE_ALIGN_RIGHT);
			rcl_node_set_flags(rcl_node_add_str(row, "Row", "-"), RCL_NODE_ALIGN_RIGHT);
		}
		rcl_node_add_str(row, "Type", role_name(d));
		rcl_node_add_str(row, "State", d->present ? "Frgn" : "Msng");
		rcl_node_set_flags(rcl_node_add_size(row, "Size", d->bytes), RCL_NODE_ALIGN_RIGHT);
	}
}

static void add_vd_details(struct rcl_node *table, const struct rcl_foreign_config *c, size_t i)
{
	for (size_t v = 0; v < c->vd_count; v++) {
		struct rcl_node *row = rcl_node_add_object(table, NULL);

		rcl_node_add_int(row, "Config", (long long)i);
		rcl_node_add_strf(row, "DG/VD", "%u/%u", c->vds[v].dg, c->vds[v].id);
		rcl_node_add_strf(row, "Strip Size", "%u KB", c->vds[v].strip_kib);
		rcl_node_add_int(row, "Span Depth", c->vds[v].spans);
		rcl_node_add_int(row, "Number of Drives Per Span", c->vds[v].drives_per_span);
		rcl_node_add_str(row, "md UUID", c->vds[v].uuid);
	}
}

/* Why configurations cannot be imported, one row each; nothing when all can. */
static void add_problems(struct rcl_node *data, const struct rcl_foreign *f)
{
	struct rcl_node *table = NULL;

	for (size_t i = 0; i < f->count; i++) {
		struct rcl_node *row;

		if (!f->configs[i].problem[0])
			continue;
		if (!table)
			table = rcl_node_add_array(data, "Import Problems");
		row = rcl_node_add_object(table, NULL);
		rcl_node_add_int(row, "Config", (long long)i);
		rcl_node_add_str(row, "Reason", f->configs[i].problem);
	}
}

/* What the import adds to configurations besides adopting them (bitmap=internal). */
static void add_changes(struct rcl_node *data, const struct rcl_foreign *f)
{
	struct rcl_node *table = NULL;

	for (size_t i = 0; i < f->count; i++) {
		struct rcl_node *row;

		if (!f->configs[i].adds[0])
			continue;
		if (!table)
			table = rcl_node_add_array(data, "Import Changes");
		row = rcl_node_add_object(table, NULL);
		rcl_node_add_int(row, "Config", (long long)i);
		rcl_node_add_str(row, "Change", f->configs[i].adds);
	}
}

/*
 * @f as tables: StorCLI's summary, then raidcli's per-configuration view;
 * with @all, the VDs and drives too.
 */
static void add_foreign(struct rcl_node *data, const struct rcl_foreign *f, bool all)
{
	struct rcl_node *table;

	if (dg_total(f)) {
		table = rcl_node_add_array(data, "FOREIGN CONFIGURATION");
		for (size_t i = 0; i < f->count; i++)
			add_dg_rows(table, &f->configs[i]);
		rcl_node_set_legend(table, legend_foreign);
	}
	rcl_node_add_int(data, "Total foreign Drive Groups", (long long)dg_total(f));
	if (!f->count)
		return;
	table = rcl_node_add_array(data, "Foreign Configurations");
	for (size_t i = 0; i < f->count; i++)
		add_config_row(table, &f->configs[i], i);
	add_problems(data, f);
	if (!all)
		return;
	table = NULL;
	for (size_t i = 0; i < f->count; i++)
		for (size_t v = 0; v < f->configs[i].vd_count; v++) {
			if (!table) {
				table = rcl_node_add_array(data, "VD LIST");
				rcl_node_set_legend(table, legend_vd_list);
			}
			add_vd_row(table, NULL, &f->configs[i].vds[v]);
		}
	if (table) {
		table = rcl_node_add_array(data, "VD Properties");
		for (size_t i = 0; i < f->count; i++)
			add_vd_details(table, &f->configs[i], i);
	}
	table = rcl_node_add_array(data, "Foreign PD LIST");
	for (size_t i = 0; i < f->count; i++)
		add_drive_rows(table, &f->configs[i], i);
	rcl_node_set_legend(table, legend_foreign_pds);
}

/* StorCLI's counters for an incomplete configuration: how many foreign drives there are. */
static void add_pd_counts(struct rcl_node *data, const struct rcl_foreign *f)
{
	long long drives = 0;

	for (size_t i = 0; i < f->count; i++)
		drives += (long long)present_drives(&f->configs[i]);
	rcl_node_add_int(data, "Total Foreign PDs", drives);
	rcl_node_add_int(data, "Total Locked Foreign PDs", 0);
}

/*
 * As StorCLI, a configuration that lacks drives fails the command with
 * status 59 (monitoring checks read that), the data still all there.
 */
static enum rcl_status show(struct cmd_ctx *c, bool all, struct rcl_error *err)
{
	struct rcl_foreign f;
	enum rcl_status st = rcl_ctrl_foreign(c->ctrl, &f, err);
	bool complete = true;

	if (st)
		return st;
	rcl_result_describe(c->res, "Operation on foreign configuration Succeeded");
	add_foreign(c->res->data, &f, all);
	for (size_t i = 0; i < f.count; i++)
		complete &= f.configs[i].complete;
	if (!complete) {
		add_pd_counts(c->res->data, &f);
		st = rcl_fail(err, RCL_FOREIGN_INCOMPLETE, "Incomplete foreign configuration");
	}
	rcl_foreign_release(&f);
	return st;
}

enum rcl_status cmd_foreign_show(struct cmd_ctx *c, struct rcl_error *err)
{
	return show(c, false, err);
}

enum rcl_status cmd_foreign_show_all(struct cmd_ctx *c, struct rcl_error *err)
{
	return show(c, true, err);
}

/* StorCLI's data for an import refused as incomplete. */
static void add_incomplete(struct cmd_ctx *c)
{
	struct rcl_error ignored = {0};
	struct rcl_foreign f;

	if (rcl_ctrl_foreign(c->ctrl, &f, &ignored))
		return;
	add_pd_counts(c->res->data, &f);
	rcl_foreign_release(&f);
}

static enum rcl_status import(struct cmd_ctx *c, bool preview, struct rcl_error *err)
{
	struct rcl_foreign f;
	enum rcl_status st = rcl_ctrl_import_foreign(c->ctrl, preview,
	                                             cmd_value(c->args, "bitmap") != NULL, &f, err);

	if (st == RCL_FOREIGN_INCOMPLETE)
		add_incomplete(c);
	if (st)
		return st;
	rcl_result_describe(c->res, preview ? "Foreign configuration import preview: nothing was "
	                                      "written"
	                                    : "Successfully imported foreign configuration");
	add_foreign(c->res->data, &f, true);
	add_changes(c->res->data, &f);
	rcl_foreign_release(&f);
	return RCL_OK;
}

enum rcl_status cmd_foreign_import(struct cmd_ctx *c, struct rcl_error *err)
{
	return import(c, false, err);
}

enum rcl_status cmd_foreign_import_preview(struct cmd_ctx *c, struct rcl_error *err)
{
	return import(c, true, err);
}

enum rcl_status cmd_foreign_delete(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_foreign f;
	enum rcl_status st =
	    rcl_ctrl_delete_foreign(c->ctrl, cmd_value(c->args, "force") != NULL, &f, err);

	if (st)
		return st;
	rcl_result_describe(c->res, "Successfully deleted foreign configuration");
	add_foreign(c->res->data, &f, false);
	rcl_foreign_release(&f);
	return RCL_OK;
}
