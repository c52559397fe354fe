// SPDX-License-Identifier: MIT
/*
 * cmd-vd.c - virtual drive and disk group commands: /cN add vd,
 * /cN/vX show [all], /cN/vX del, /cN/vX set, /cN/dX show [all].
 * Keys and messages are StorCLI v1's (research/storcli.md 2.1, 5.5, 5.7).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"

static enum rcl_status bad_list(const char *key, const char *text, struct rcl_error *err)
{
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "invalid drive list '%s=%s': expected E:S, E:S-S or bare slots S, S-S, "
	                "joined by ',' (as in 252:0-3,5)",
	                key, text);
}

/* A bare slot names the one drive in that slot, whatever its enclosure. */
static enum rcl_status slot_enclosure(const struct rcl_ctrl *ctrl, unsigned long slot,
                                      unsigned *encl, struct rcl_error *err)
{
	size_t found = 0;

	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

		if (d->slot != slot)
			continue;
		if (found++)
			return rcl_fail(
			    err, RCL_INVALID_PARAM,
			    "slot %lu is in enclosures %u and %u; write E:S, as in %u:%lu", slot,
			    *encl, d->enclosure, *encl, slot);
		*encl = d->enclosure;
	}
	if (!found)
		return rcl_fail(err, RCL_NOT_FOUND, "drive in slot %lu not found on /c%u", slot,
		                rcl_ctrl_id(ctrl));
	return RCL_OK;
}

static enum rcl_status add_ref(struct drive_list *list, const char *key, unsigned encl,
                               unsigned long slot, struct rcl_error *err)
{
	if (list->count == DRIVE_LIST_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM, "%s= lists more than %d drives", key,
		                DRIVE_LIST_MAX);
	list->refs[list->count].enclosure = encl;
	list->refs[list->count].slot = (unsigned)slot;
	list->count++;
	return RCL_OK;
}

/* One item: "E:S", "E:S-S", "S" or "S-S"; a bare slot after E:S stays in E. */
static enum rcl_status parse_item(const struct rcl_ctrl *ctrl, const char *key, const char *text,
                                  const char **p, long *encl, struct drive_list *list,
                                  struct rcl_error *err)
{
	unsigned long a, b;
	unsigned e;
	char *end;
	enum rcl_status st;

	if (!isdigit((unsigned char)**p))
		return bad_list(key, text, err);
	a = strtoul(*p, &end, 10);
	if (*end == ':') {
		if (a > 9999 || !isdigit((unsigned char)end[1]))
			return bad_list(key, text, err);
		*encl = (long)a;
		a = strtoul(end + 1, &end, 10);
	}
	b = a;
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return bad_list(key, text, err);
		b = strtoul(end + 1, &end, 10);
	}
	if (b < a || b > 9999 || (*end && *end != ','))
		return bad_list(key, text, err);
	*p = end;
	for (unsigned long slot = a; slot <= b; slot++) {
		st = *encl >= 0 ? RCL_OK : slot_enclosure(ctrl, slot, &e, err);
		if (!st)
			st = add_ref(list, key, *encl >= 0 ? (unsigned)*encl : e, slot, err);
		if (st)
			return st;
	}
	return RCL_OK;
}

enum rcl_status parse_drive_list(const struct rcl_ctrl *ctrl, const char *key, const char *text,
                                 struct drive_list *list, struct rcl_error *err)
{
	const char *p = text;
	long encl = -1;
	enum rcl_status st;

	list->count = 0;
	if (!text)
		return RCL_OK;
	for (;;) {
		st = parse_item(ctrl, key, text, &p, &encl, list, err);
		if (st)
			return st;
		if (!*p)
			return RCL_OK;
		p++; /* the ',' */
	}
}

static enum rcl_status parse_size(const char *text, uint64_t *bytes, struct rcl_error *err)
{
	*bytes = 0; /* no size, or a word the grammar allows (all, remaining): all the free space */
	if (!text || !isdigit((unsigned char)text[0]))
		return RCL_OK;
	return rcl_size_parse(text, bytes, err);
}

/* The index of @word in @choices (a grammar table list). */
static int choice_index(const char *const *choices, const char *word)
{
	for (int i = 0; choices[i]; i++)
		if (!strcasecmp(choices[i], word))
			return i;
	return -1;
}

/*
 * The grammar lists policies in enum order (wt, wb, awb = enum
 * rcl_write_policy), so a choice's index is its value; @unset if not given.
 */
static int policy(const char *const *choices, const char *word, int unset)
{
	return word ? choice_index(choices, word) : unset;
}

/* A numeric option's value (the grammar checked its range), or 0 if not given. */
static unsigned uint_value(const struct cmd_args *a, const char *name)
{
	const char *value = cmd_value(a, name);

	return value ? (unsigned)strtoul(value, NULL, 10) : 0;
}

enum rcl_status read_vd_options(const struct cmd_args *a, const struct rcl_caps *caps,
                                struct rcl_vd_params *p, struct rcl_error *err)
{
	p->name = cmd_value(a, "name");
	p->strip_kib = uint_value(a, "strip");
	p->drives_per_span = uint_value(a, "pdperarray");
	p->write = (enum rcl_write_policy)policy(grammar_write_policies, cmd_value(a, "wrcache"),
	                                         (int)caps->default_write);
	p->read = (enum rcl_read_policy)policy(grammar_read_policies, cmd_value(a, "rdcache"),
	                                       (int)caps->default_read);
	p->disk_cache = (enum rcl_disk_cache_policy)policy(
	    grammar_disk_cache_policies, cmd_value(a, "pdcache"), RCL_DISK_CACHE_DEFAULT);
	p->io = (enum rcl_io_policy)policy(grammar_io_policies, cmd_value(a, "iopolicy"),
	                                   RCL_IO_DIRECT);
	p->force = cmd_value(a, "force") != NULL;
	if (parse_size(cmd_value(a, "size"), &p->bytes, err))
		return err->status;
	return rcl_raid_level_parse(cmd_value(a, "type"), &p->level, err);
}

enum rcl_status cmd_ctrl_add_vd(struct cmd_ctx *c, struct rcl_error *err)
{
	/* [0]: drives=, [1]: spares=; on the heap, they hold 256 refs each. */
	struct drive_list *lists = rcl_calloc(2, sizeof(*lists));
	struct rcl_vd_params params = {0};
	enum rcl_status st;
	unsigned vd;

	if (!lists)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = read_vd_options(c->args, rcl_ctrl_caps(c->ctrl), &params, err);
	if (!st)
		st = parse_drive_list(c->ctrl, "drives", cmd_value(c->args, "drives"), &lists[0],
		                      err);
	if (!st)
		st = parse_drive_list(c->ctrl, "spares", cmd_value(c->args, "spares"), &lists[1],
		                      err);
	if (!st) {
		params.drives = lists[0].refs;
		params.drive_count = lists[0].count;
		params.spares = lists[1].refs;
		params.spare_count = lists[1].count;
		st = rcl_ctrl_create_vd(c->ctrl, &params, &vd, err);
	}
	if (!st)
		rcl_result_describe(c->res, "Add VD Succeeded.");
	rcl_free(lists);
	return st;
}

enum rcl_status check_named(const struct cmd_ctx *c, bool dg, struct rcl_error *err)
{
	const struct id_set *set = dg ? &c->args->path.dg : &c->args->path.vd;

	for (size_t i = 0; !set->all && i < set->count; i++) {
		bool found = dg ? rcl_ctrl_dg_by_id(c->ctrl, set->ids[i]) != NULL
		                : rcl_ctrl_vd_by_id(c->ctrl, set->ids[i]) != NULL;

		if (!found)
			return rcl_fail(err, RCL_NOT_FOUND, "%s /c%u/%c%u not found",
			                dg ? "disk group" : "virtual drive", rcl_ctrl_id(c->ctrl),
			                dg ? 'd' : 'v', set->ids[i]);
	}
	return RCL_OK;
}

/* Check the path; *@any false (with StorCLI's description) when there is nothing. */
static enum rcl_status start_show(struct cmd_ctx *c, bool dg, bool *any, struct rcl_error *err)
{
	enum rcl_status st = check_named(c, dg, err);

	*any = dg ? rcl_ctrl_dg_count(c->ctrl) : rcl_ctrl_vd_count(c->ctrl);
	if (!st && !*any)
		rcl_result_describe(c->res, dg ? "No drive groups have been configured."
		                               : "No VDs have been configured.");
	return st;
}

enum rcl_status cmd_vd_show(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_node *table = NULL;
	bool any;
	enum rcl_status st = start_show(c, false, &any, err);

	for (size_t i = 0; !st && any && i < rcl_ctrl_vd_count(c->ctrl); i++) {
		const struct rcl_vd *vd = rcl_ctrl_vd(c->ctrl, i);

		if (!id_in(&c->args->path.vd, vd->id))
			continue;
		if (!table) {
			table = rcl_node_add_array(c->res->data, "Virtual Drives");
			rcl_node_set_legend(table, legend_vd_list);
		}
		add_vd_row(table, c->ctrl, vd);
		note_held_vd(table, c->ctrl, vd->id);
	}
	return st;
}

/* Members of @vd's group, span by span, as "PDs for VD N" lists them. */
static void add_vd_drives(struct rcl_node *table, const struct rcl_ctrl *ctrl,
                          const struct rcl_vd *vd)
{
	for (unsigned span = 0; span < vd->spans; span++)
		for (unsigned row = 0; row < vd->drives_per_span; row++)
			for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
				const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

				if (drive_in_group(d) && d->dg == (int)vd->dg &&
				    d->state != RCL_PD_DHS && d->span == span && d->row == row)
					add_pd_row(table, d);
			}
}

static void add_vd_properties(struct rcl_node *props, const struct rcl_ctrl *ctrl,
                              const struct rcl_vd *vd, unsigned sector)
{
	struct rcl_buf ops = RCL_BUF_INIT;
	static const char *const writes[] = {[RCL_WRITE_THROUGH] = "WriteThrough",
	                                     [RCL_WRITE_BACK] = "WriteBack",
	                                     [RCL_WRITE_BACK_ALWAYS] = "Always WriteBack"};
	static const char *const disk_caches[] = {[RCL_DISK_CACHE_DEFAULT] = "Disk's Default",
	                                          [RCL_DISK_CACHE_ON] = "Enabled",
	                                          [RCL_DISK_CACHE_OFF] = "Disabled"};
	struct tm tm;
	char date[16], clock[16];

	localtime_r(&vd->created, &tm);
	strftime(date, sizeof(date), "%d-%m-%Y", &tm);
	strftime(clock, sizeof(clock), "%I:%M:%S %p", &tm);
	if (vd->strip_kib)
		rcl_node_add_strf(props, "Strip Size", "%u KB", vd->strip_kib);
	else
		rcl_node_add_str(props, "Strip Size", "N/A"); /* RAID1 has no strips */
	rcl_node_add_int(props, "Number of Blocks", (long long)(vd->bytes / sector));
	rcl_node_add_int(props, "Span Depth", vd->spans);
	rcl_node_add_int(props, "Number of Drives Per Span", vd->drives_per_span);
	rcl_node_add_str(props, "Write Cache(initial setting)", writes[vd->write]);
	rcl_node_add_str(props, "Disk Cache Policy", disk_caches[vd->disk_cache]);
	rcl_node_add_str(props, "Encryption", "None");
	describe_vd_tasks(ctrl, vd, &ops);
	if (ops.oom)
		rcl_node_set_oom(props);
	rcl_node_add_str(props, "Active Operations", ops.buf);
	rcl_buf_release(&ops);
	/* raidcli does not assemble the array for the host (yet). */
	rcl_node_add_str(props, "Exposed to OS", "No");
	rcl_node_add_str(props, "OS Drive Name", "N/A");
	rcl_node_add_str(props, "Creation Date", date);
	rcl_node_add_str(props, "Creation Time", clock);
	/* raidcli's own: match the VD with what mdadm --examine prints (md arrays only). */
	if (vd->uuid[0])
		rcl_node_add_str(props, "md Array UUID", vd->uuid);
	for (size_t i = 0; i < vd->attr_count; i++)
		rcl_node_add_str(props, vd->attrs[i].key, vd->attrs[i].value);
}

/* The logical sector size of @vd's members (512 if none is found). */
static unsigned vd_sector(const struct rcl_ctrl *ctrl, const struct rcl_vd *vd)
{
	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

		if (drive_in_group(d) && d->dg == (int)vd->dg && d->logical_sector)
			return d->logical_sector;
	}
	return 512;
}

/*
 * Format a key into @key; NULL (and @data marked out of memory) if that
 * failed: rcl_buf_reset() would forget the failure before a later check.
 */
static const char *vd_key(struct rcl_buf *key, struct rcl_node *data, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static const char *vd_key(struct rcl_buf *key, struct rcl_node *data, const char *fmt, ...)
{
	va_list ap;

	rcl_buf_reset(key);
	va_start(ap, fmt);
	rcl_buf_vaddf(key, fmt, ap);
	va_end(ap);
	if (!key->oom)
		return key->buf;
	rcl_node_set_oom(data);
	return NULL;
}

static void add_vd_detail(struct rcl_node *data, const struct rcl_ctrl *ctrl,
                          const struct rcl_vd *vd)
{
	struct rcl_buf key = RCL_BUF_INIT;
	struct rcl_node *table;
	const char *name;

	name = vd_key(&key, data, "/c%u/v%u", rcl_ctrl_id(ctrl), vd->id);
	if (!name)
		goto out;
	table = rcl_node_add_array(data, name);
	rcl_node_set_legend(table, legend_vd_list);
	add_vd_row(table, ctrl, vd);
	note_held_vd(table, ctrl, vd->id);
	name = vd_key(&key, data, "PDs for VD %u", vd->id);
	if (!name)
		goto out;
	table = rcl_node_add_array(data, name);
	rcl_node_set_legend(table, legend_pd_list);
	add_vd_drives(table, ctrl, vd);
	name = vd_key(&key, data, "VD%u Properties", vd->id);
	if (name)
		add_vd_properties(rcl_node_add_object(data, name), ctrl, vd, vd_sector(ctrl, vd));
out:
	rcl_buf_release(&key);
}

enum rcl_status cmd_vd_show_all(struct cmd_ctx *c, struct rcl_error *err)
{
	bool any;
	enum rcl_status st = start_show(c, false, &any, err);

	for (size_t i = 0; !st && any && i < rcl_ctrl_vd_count(c->ctrl); i++) {
		const struct rcl_vd *vd = rcl_ctrl_vd(c->ctrl, i);

		if (id_in(&c->args->path.vd, vd->id))
			add_vd_detail(c->res->data, c->ctrl, vd);
	}
	return st;
}

/* The VDs the path names, copied: deleting one reloads the list. */
size_t selected_vds(const struct cmd_ctx *c, unsigned *ids)
{
	size_t n = 0;

	for (size_t i = 0; i < rcl_ctrl_vd_count(c->ctrl) && n < RCL_MAX_VDS; i++)
		if (id_in(&c->args->path.vd, rcl_ctrl_vd(c->ctrl, i)->id))
			ids[n++] = rcl_ctrl_vd(c->ctrl, i)->id;
	return n;
}

enum rcl_status cmd_vd_delete(struct cmd_ctx *c, struct rcl_error *err)
{
	bool force = cmd_value(c->args, "force") != NULL;
	unsigned ids[RCL_MAX_VDS];
	enum rcl_status st = check_named(c, false, err);
	size_t n = selected_vds(c, ids);

	if (!st && !n)
		st = rcl_fail(err, RCL_NOT_FOUND, "no virtual drives to delete on /c%u",
		              rcl_ctrl_id(c->ctrl));
	for (size_t i = 0; !st && i < n; i++)
		st = rcl_ctrl_export_release_vd(c->ctrl, ids[i], force, err);
	for (size_t i = 0; !st && i < n; i++)
		st = rcl_ctrl_delete_vd(c->ctrl, ids[i], force, err);
	if (!st)
		rcl_result_describe(c->res, "Delete VD succeeded");
	return st;
}

enum rcl_status cmd_vd_set(struct cmd_ctx *c, struct rcl_error *err)
{
	const struct cmd_args *a = c->args;
	struct rcl_vd_props props = rcl_vd_props_keep();
	unsigned ids[RCL_MAX_VDS];
	enum rcl_status st = check_named(c, false, err);

	props.name = cmd_value(a, "name");
	props.write = policy(grammar_write_policies, cmd_value(a, "wrcache"), -1);
	props.read = policy(grammar_read_policies, cmd_value(a, "rdcache"), -1);
	props.access = policy(grammar_access_policies, cmd_value(a, "accesspolicy"), -1);
	props.disk_cache = policy(grammar_disk_cache_policies, cmd_value(a, "pdcache"), -1);
	props.io = policy(grammar_io_policies, cmd_value(a, "iopolicy"), -1);
	size_t n = selected_vds(c, ids);

	if (!st && !props.name && props.write < 0 && props.read < 0 && props.access < 0 &&
	    props.disk_cache < 0 && props.io < 0)
		st = rcl_fail(err, RCL_INVALID_COMMAND,
		              "nothing to set: give name=, wrcache=, rdcache=, accesspolicy=, "
		              "pdcache= or iopolicy=, as in: %s",
		              a->cmd->example);
	if (!st && !n)
		st = rcl_fail(err, RCL_NOT_FOUND, "no virtual drives to change on /c%u",
		              rcl_ctrl_id(c->ctrl));
	for (size_t i = 0; !st && i < n; i++)
		st = rcl_ctrl_set_vd(c->ctrl, ids[i], &props, err);
	if (!st)
		rcl_result_describe(c->res, "Set VD Properties Succeeded.");
	return st;
}

enum rcl_status cmd_dg_show(struct cmd_ctx *c, struct rcl_error *err)
{
	bool any;
	enum rcl_status st = start_show(c, true, &any, err);

	if (!st && any)
		add_topology(c->res->data, c->ctrl, &c->args->path.dg);
	return st;
}

static void add_dg_drives(struct rcl_node *data, const struct rcl_ctrl *ctrl,
                          const struct id_set *groups)
{
	struct rcl_node *table = NULL;

	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

		if (!drive_in_group(d) || !id_in(groups, (unsigned)d->dg))
			continue;
		if (!table) {
			table = rcl_node_add_array(data, "DG Drive LIST");
			rcl_node_set_legend(table, legend_pd_list);
		}
		add_pd_row(table, d);
	}
}

enum rcl_status cmd_dg_show_all(struct cmd_ctx *c, struct rcl_error *err)
{
	const struct id_set *groups = &c->args->path.dg;
	bool any;
	enum rcl_status st = start_show(c, true, &any, err);

	if (st || !any)
		return st;
	add_topology(c->res->data, c->ctrl, groups);
	add_vd_list(c->res->data, c->ctrl, "VD LIST", groups);
	add_free_space(c->res->data, c->ctrl, groups);
	add_dg_drives(c->res->data, c->ctrl, groups);
	return RCL_OK;
}
