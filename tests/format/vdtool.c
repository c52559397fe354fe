// SPDX-License-Identifier: MIT
/*
 * vdtool.c - drive the soft controller's VD operations through the public
 * API, for test-vd-oracle.py (which checks the result with mdadm).
 *
 * Usage, the state directory first:
 *	vdtool STATE new DRIVES MIB		a controller of sparse images
 *	vdtool STATE create LEVEL SLOTS [MIB [STRIP [PER_SPAN]]]  e.g. RAID5 0,1,2
 *	vdtool STATE delete VD [force]
 *	vdtool STATE set VD NAME
 *	vdtool STATE spare SLOT [DG[,DG]]	a global spare, or one dedicated to groups
 *	vdtool STATE unspare SLOT
 *	vdtool STATE state SLOT CHANGE [force]	online, offline, missing, good, failed
 *	vdtool STATE show			the model as JSON
 * Controller 0 is used. Exit status: the rcl_status of the call.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raidcli.h"
#include "soft/soft.h"

static int fail(const struct rcl_error *err)
{
	fprintf(stderr, "vdtool: %s\n", err->msg);
	return err->status ? (int)err->status : 1;
}

static void add_int(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static json_object *show_drive(const struct rcl_drive *d)
{
	json_object *o = json_object_new_object();

	add_int(o, "slot", d->slot);
	json_object_object_add(o, "state", json_object_new_string(rcl_pd_state_abbrev(d->state)));
	add_int(o, "dg", d->dg);
	add_int(o, "span", d->span);
	add_int(o, "row", d->row);
	json_object_object_add(o, "path", json_object_new_string(d->path));
	return o;
}

static json_object *show_vd(const struct rcl_vd *v)
{
	json_object *o = json_object_new_object();

	add_int(o, "id", v->id);
	add_int(o, "dg", v->dg);
	json_object_object_add(o, "level", json_object_new_string(rcl_raid_level_name(v->level)));
	json_object_object_add(o, "state", json_object_new_string(rcl_vd_state_abbrev(v->state)));
	json_object_object_add(o, "name", json_object_new_string(v->name));
	add_int(o, "bytes", (int64_t)v->bytes);
	add_int(o, "strip_kib", v->strip_kib);
	add_int(o, "spans", v->spans);
	add_int(o, "drives_per_span", v->drives_per_span);
	add_int(o, "write", v->write);
	add_int(o, "read", v->read);
	add_int(o, "access", v->access);
	json_object_object_add(o, "consistent", json_object_new_boolean(v->consistent));
	json_object_object_add(o, "uuid", json_object_new_string(v->uuid));
	add_int(o, "created", (int64_t)v->created);
	return o;
}

static json_object *show_dg(const struct rcl_dg *g)
{
	json_object *o = json_object_new_object();

	add_int(o, "id", g->id);
	json_object_object_add(o, "level", json_object_new_string(rcl_raid_level_name(g->level)));
	json_object_object_add(o, "state", json_object_new_string(rcl_vd_state_abbrev(g->state)));
	add_int(o, "spans", g->spans);
	add_int(o, "drives_per_span", g->drives_per_span);
	add_int(o, "vd_count", g->vd_count);
	add_int(o, "member_bytes", (int64_t)g->member_bytes);
	add_int(o, "free_bytes", (int64_t)g->free_bytes);
	return o;
}

static void show(const struct rcl_ctrl *ctrl)
{
	json_object *root = json_object_new_object();
	json_object *drives = json_object_new_array();
	json_object *dgs = json_object_new_array();
	json_object *vds = json_object_new_array();

	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++)
		json_object_array_add(drives, show_drive(rcl_ctrl_drive(ctrl, i)));
	for (size_t i = 0; i < rcl_ctrl_dg_count(ctrl); i++)
		json_object_array_add(dgs, show_dg(rcl_ctrl_dg(ctrl, i)));
	for (size_t i = 0; i < rcl_ctrl_vd_count(ctrl); i++)
		json_object_array_add(vds, show_vd(rcl_ctrl_vd(ctrl, i)));
	json_object_object_add(root, "serial", json_object_new_string(rcl_ctrl_info(ctrl)->serial));
	json_object_object_add(root, "drives", drives);
	json_object_object_add(root, "dgs", dgs);
	json_object_object_add(root, "vds", vds);
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
	json_object_put(root);
}

static enum rcl_status create(struct rcl_ctrl *ctrl, int argc, char **argv, struct rcl_error *err)
{
	struct rcl_drive_ref refs[64];
	struct rcl_vd_params p = {0};
	char *list = argv[1], *tok;
	unsigned vd;
	enum rcl_status st = rcl_raid_level_parse(argv[0], &p.level, err);

	if (st)
		return st;
	for (tok = strtok(list, ","); tok && p.drive_count < 64; tok = strtok(NULL, ","))
		refs[p.drive_count++] = (struct rcl_drive_ref){252, (unsigned)atoi(tok)};
	p.drives = refs;
	p.bytes = argc > 2 ? strtoull(argv[2], NULL, 10) << 20 : 0;
	p.strip_kib = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
	p.drives_per_span = argc > 4 ? (unsigned)atoi(argv[4]) : 0;
	p.write = RCL_WRITE_BACK;
	st = rcl_ctrl_create_vd(ctrl, &p, &vd, err);
	if (!st)
		printf("%u\n", vd);
	return st;
}

/* spare SLOT [DG[,DG]]: a global spare, or one dedicated to the groups listed. */
static enum rcl_status spare(struct rcl_ctrl *ctrl, int argc, char **argv, struct rcl_error *err)
{
	struct rcl_drive_ref ref = {252, (unsigned)atoi(argv[0])};
	unsigned dgs[RCL_MAX_DGS];
	size_t n = 0;

	for (char *tok = argc > 1 ? strtok(argv[1], ",") : NULL; tok && n < RCL_MAX_DGS;
	     tok = strtok(NULL, ","))
		dgs[n++] = (unsigned)atoi(tok);
	return rcl_ctrl_add_hotspare(ctrl, &ref, dgs, n, 0, false, err);
}

/* state SLOT CHANGE [force]: CHANGE as rcl_drive_change_name() spells it. */
static enum rcl_status state(struct rcl_ctrl *ctrl, int argc, char **argv, struct rcl_error *err)
{
	struct rcl_drive_ref ref = {252, (unsigned)atoi(argv[0])};
	unsigned change = 0;

	while (change <= RCL_DRIVE_SET_FAILED &&
	       strcmp(argv[1], rcl_drive_change_name((enum rcl_drive_change)change)))
		change++;
	if (change > RCL_DRIVE_SET_FAILED)
		return rcl_fail(err, RCL_INVALID_PARAM, "unknown state change '%s'", argv[1]);
	return rcl_ctrl_set_drive_state(ctrl, &ref, (enum rcl_drive_change)change,
	                                argc > 2 && !strcmp(argv[2], "force"), err);
}

/* Rename VD @vd: the one property vdtool sets. */
static enum rcl_status set_name(struct rcl_ctrl *ctrl, unsigned vd, const char *name,
                                struct rcl_error *err)
{
	struct rcl_vd_props props = rcl_vd_props_keep();

	props.name = name;
	return rcl_ctrl_set_vd(ctrl, vd, &props, err);
}

static enum rcl_status run(struct rcl_ctx *ctx, int argc, char **argv, struct rcl_error *err)
{
	const char *cmd = argv[0];
	struct rcl_ctrl *ctrl;
	enum rcl_status st;

	if (!strcmp(cmd, "new") && argc == 3) {
		struct rcl_soft_params p = {(unsigned)atoi(argv[1]),
		                            strtoull(argv[2], NULL, 10) << 20, 512, NULL};
		unsigned id;

		return rcl_soft_create(ctx, &p, &id, err);
	}
	st = rcl_ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE, &ctrl, err);
	if (st)
		return st;
	if (!strcmp(cmd, "create") && argc >= 3)
		st = create(ctrl, argc - 1, argv + 1, err);
	else if (!strcmp(cmd, "delete") && argc >= 2)
		st = rcl_ctrl_delete_vd(ctrl, (unsigned)atoi(argv[1]),
		                        argc > 2 && !strcmp(argv[2], "force"), err);
	else if (!strcmp(cmd, "spare") && (argc == 2 || argc == 3))
		st = spare(ctrl, argc - 1, argv + 1, err);
	else if (!strcmp(cmd, "unspare") && argc == 2)
		st = rcl_ctrl_delete_hotspare(
		    ctrl, &(struct rcl_drive_ref){252, (unsigned)atoi(argv[1])}, err);
	else if (!strcmp(cmd, "state") && (argc == 3 || argc == 4))
		st = state(ctrl, argc - 1, argv + 1, err);
	else if (!strcmp(cmd, "set") && argc == 3)
		st = set_name(ctrl, (unsigned)atoi(argv[1]), argv[2], err);
	else if (strcmp(cmd, "show"))
		st = rcl_fail(err, RCL_INVALID_COMMAND, "unknown command '%s'", cmd);
	if (!st)
		show(ctrl);
	rcl_ctrl_close(ctrl);
	return st;
}

int main(int argc, char **argv)
{
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;
	enum rcl_status st;

	if (argc < 3) {
		fprintf(stderr, "usage: vdtool STATE COMMAND ...\n");
		return 2;
	}
	if (rcl_ctx_new(&ctx, argv[1], &err))
		return fail(&err);
	st = run(ctx, argc - 2, argv + 2, &err);
	rcl_ctx_free(ctx);
	return st ? fail(&err) : 0;
}
