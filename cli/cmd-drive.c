// SPDX-License-Identifier: MIT
/*
 * cmd-drive.c - enclosure and drive commands: /cN/eall show,
 * /cN/eX/sY show [all|smart], /cN/eX/sY del, /cN/eX/sY add|delete hotsparedrive,
 * /cN/eX/sY start|stop locate, /cN/eX/sY set jbod|good|online|offline|missing.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Fail with the first explicitly named enclosure or slot that is absent. */
static enum rcl_status check_named_drives(const struct cmd_ctx *c, struct rcl_error *err)
{
	const struct obj_path *path = &c->args->path;
	unsigned id = rcl_ctrl_id(c->ctrl);

	for (size_t i = 0; path->encl.given && !path->encl.all && i < path->encl.count; i++) {
		bool found = false;

		for (size_t k = 0; k < rcl_ctrl_enclosure_count(c->ctrl); k++)
			found |= rcl_ctrl_enclosure(c->ctrl, k)->id == path->encl.ids[i];
		if (!found)
			return rcl_fail(err, RCL_NOT_FOUND, "enclosure /c%u/e%u not found", id,
			                path->encl.ids[i]);
	}
	for (size_t i = 0; path->slot.given && !path->slot.all && i < path->slot.count; i++) {
		bool found = false;

		for (size_t k = 0; k < rcl_ctrl_drive_count(c->ctrl); k++) {
			const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, k);

			found |= drive->slot == path->slot.ids[i] && drive_selected(path, drive);
		}
		if (!found && path->encl.given && !path->encl.all && path->encl.count == 1)
			return rcl_fail(err, RCL_NOT_FOUND, "no drive at /c%u/e%u/s%u", id,
			                path->encl.ids[0], path->slot.ids[i]);
		if (!found)
			return rcl_fail(err, RCL_NOT_FOUND, "no drive at /c%u/s%u", id,
			                path->slot.ids[i]);
	}
	return RCL_OK;
}

enum rcl_status cmd_encl_show(struct cmd_ctx *c, struct rcl_error *err)
{
	enum rcl_status st = check_named_drives(c, err);

	if (st)
		return st;
	add_enclosure_rows(rcl_node_add_array(c->res->data, "Properties"), c->ctrl, &c->args->path);
	return RCL_OK;
}

enum rcl_status cmd_drive_show(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_node *table = NULL;
	enum rcl_status st = check_named_drives(c, err);

	if (st)
		return st;
	for (size_t i = 0; i < rcl_ctrl_drive_count(c->ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, i);

		if (!drive_selected(&c->args->path, drive))
			continue;
		if (!table) {
			table = rcl_node_add_array(c->res->data, "Drive Information");
			rcl_node_set_legend(table, legend_pd_list);
		}
		add_pd_row(table, drive);
	}
	rcl_result_describe(c->res,
	                    table ? "Show Drive Information Succeeded." : "No drives found.");
	return RCL_OK;
}

/* "894.252 GB [0x6fc81ab0 Sectors]", StorCLI's size-with-sector-count form. */
static void add_sized(struct rcl_node *obj, const char *key, uint64_t bytes, unsigned sector)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_size_format(&sb, bytes);
	rcl_buf_addf(&sb, " [0x%" PRIx64 " Sectors]", bytes / (sector ? sector : 512));
	if (sb.oom) {
		rcl_node_set_oom(obj);
		return;
	}
	rcl_node_add_str(obj, key, sb.buf);
	rcl_buf_release(&sb);
}

/* Empty @key for the next section name; rcl_buf_reset() forgets a failed append. */
static void restart_key(struct rcl_buf *key, struct rcl_node *data)
{
	if (key->oom)
		rcl_node_set_oom(data);
	rcl_buf_reset(key);
}

/*
 * A drive's link or device speed: raidcli's drives (image files, block
 * devices) have no link; in the megaraid_sas compatibility mode (@compat)
 * StorCLI's "0.0Gb/s", since its consumers read the number (raidcli(8)).
 */
static const char *drive_speed(bool compat)
{
	return compat ? "0.0Gb/s" : "N/A";
}

/* StorCLI's "Inquiry Data": the bytes in hex, "00 00 05 12 ..."; NA without any. */
static void add_inquiry(struct rcl_node *detail, const struct rcl_drive *drive)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	if (!drive->inquiry_len) {
		rcl_node_add_str(detail, "Inquiry Data", "NA");
		return;
	}
	for (size_t i = 0; i < drive->inquiry_len; i++)
		rcl_buf_addf(&sb, i ? " %02x" : "%02x", drive->inquiry[i]);
	if (sb.oom) {
		rcl_node_set_oom(detail);
		return;
	}
	rcl_node_add_str(detail, "Inquiry Data", sb.buf);
	rcl_buf_release(&sb);
}

/*
 * StorCLI's "Port Information": the one path to the drive, whether it
 * answers, and the port's address and link where a card tells of the port
 * (an NVMe drive's PCIe link is no SAS port: its speed stays in "Link Speed").
 */
static void add_port(struct rcl_node *section, const struct rcl_drive *drive, bool compat)
{
	struct rcl_node *row =
	    rcl_node_add_object(rcl_node_add_array(section, "Port Information"), NULL);
	bool port = drive->sas_address[0];

	rcl_node_add_int(row, "Port", 0);
	rcl_node_add_str(row, "Status", drive->present ? "Active" : "Missing");
	rcl_node_add_str(row, "Linkspeed",
	                 port && drive->link_speed[0] ? drive->link_speed : drive_speed(compat));
	rcl_node_add_str(row, "SAS address", port ? drive->sas_address : "NA");
}

/* The place of @drive's enclosure among @ctrl's, as StorCLI's "Enclosure position". */
static size_t enclosure_position(const struct rcl_ctrl *ctrl, const struct rcl_drive *drive)
{
	size_t i = 0;

	while (i < rcl_ctrl_enclosure_count(ctrl) &&
	       rcl_ctrl_enclosure(ctrl, i)->id != drive->enclosure)
		i++;
	return i;
}

/*
 * A hot spare's "<name> Hot Spare Information", as StorCLI prints it after
 * the detailed information: its kind, flags and, dedicated, its groups.
 */
static void add_spare_info(struct rcl_node *data, const struct rcl_drive *drive, const char *name)
{
	struct rcl_buf key = RCL_BUF_INIT, dgs = RCL_BUF_INIT;
	struct rcl_node *info;

	rcl_buf_addf(&key, "%s Hot Spare Information", name);
	info = rcl_node_add_object(data, key.buf);
	rcl_node_add_str(info, "Type",
	                 drive->state == RCL_PD_DHS ? "Dedicated Hot Spare" : "Global Hot Spare");
	rcl_node_add_str(info, "Enclosure Affinity",
	                 drive->spare_flags & RCL_SPARE_ENCL_AFFINITY ? "Yes" : "No");
	rcl_node_add_str(info, "Revertible",
	                 drive->spare_flags & RCL_SPARE_NONREVERTIBLE ? "No" : "Yes");
	for (unsigned id = 0; id < RCL_MAX_DGS; id++)
		if (drive->spare_dgs & (1u << id))
			rcl_buf_addf(&dgs, "%s%u", dgs.len ? ", " : "", id);
	if (drive->state == RCL_PD_DHS)
		rcl_node_add_str(info, "Dedicated Array(s)", dgs.len ? dgs.buf : "-");
	if (key.oom || dgs.oom)
		rcl_node_set_oom(data);
	rcl_buf_release(&key);
	rcl_buf_release(&dgs);
}

static enum rcl_status add_drive_detail(struct rcl_node *data, struct rcl_ctrl *owner,
                                        const struct rcl_drive *drive, bool compat,
                                        struct rcl_error *err)
{
	unsigned ctrl = rcl_ctrl_id(owner);
	struct rcl_buf name = RCL_BUF_INIT, key = RCL_BUF_INIT, ops = RCL_BUF_INIT;
	struct rcl_node *table, *detail, *section;
	bool spare = drive->state == RCL_PD_GHS || drive->state == RCL_PD_DHS;

	enum rcl_status st = RCL_OK;

	rcl_buf_addf(&name, "Drive /c%u/e%u/s%u", ctrl, drive->enclosure, drive->slot);
	if (name.oom) {
		rcl_node_set_oom(data);
		return RCL_OK;
	}
	table = rcl_node_add_array(data, name.buf);
	/* StorCLI prints the legend under each drive's one-row table. */
	rcl_node_set_legend(table, legend_pd_list);
	add_pd_row(table, drive);

	rcl_buf_addf(&key, "%s - Detailed Information", name.buf);
	detail = rcl_node_add_object(data, key.buf);

	restart_key(&key, data);
	rcl_buf_addf(&key, "%s State", name.buf);
	section = rcl_node_add_object(detail, key.buf);
	/* The counters are raidcli's own: it sees every error on the drive. */
	rcl_node_add_int(section, "Shield Counter", 0);
	rcl_node_add_int(section, "Media Error Count", drive->media_errors);
	rcl_node_add_int(section, "Other Error Count", drive->other_errors);
	if (drive->temperature_c)
		rcl_node_add_strf(section, "Drive Temperature", "%3uC (%.2f F)",
		                  drive->temperature_c, drive->temperature_c * 1.8 + 32);
	else
		rcl_node_add_str(section, "Drive Temperature", "N/A");
	rcl_node_add_int(section, "Predictive Failure Count", drive->predictive_failures);
	rcl_node_add_str(section, "S.M.A.R.T alert flagged by drive",
	                 drive->smart_alert ? "Yes" : "No");
	rcl_node_add_str(section, "Locate", drive->locate ? "On" : "Off");
	/* raidcli's: what runs on the drive (StorCLI has "show rebuild" for that). */
	describe_drive_tasks(owner, drive, &ops);
	if (ops.oom)
		rcl_node_set_oom(data);
	rcl_node_add_str(section, "Active Operations", ops.buf);
	rcl_buf_release(&ops);

	restart_key(&key, data);
	rcl_buf_addf(&key, "%s Device attributes", name.buf);
	section = rcl_node_add_object(detail, key.buf);
	rcl_node_add_str(section, "SN", drive->serial);
	rcl_node_add_str(section, "Manufacturer Id", drive->vendor);
	rcl_node_add_str(section, "Model Number", drive->model);
	rcl_node_add_str(section, "WWN", drive->wwn);
	rcl_node_add_str(section, "Firmware Revision", drive->firmware);
	add_sized(section, "Raw size", drive->raw_bytes, drive->logical_sector);
	add_sized(section, "Coerced size", drive->coerced_bytes, drive->logical_sector);
	add_sized(section, "Non Coerced size", drive->raw_bytes, drive->logical_sector);
	rcl_node_add_str(section, "NAND Vendor", "NA");
	rcl_node_add_str(section, "Device Speed",
	                 drive->device_speed[0] ? drive->device_speed : drive_speed(compat));
	rcl_node_add_str(section, "Link Speed",
	                 drive->link_speed[0] ? drive->link_speed : drive_speed(compat));
	rcl_node_add_str(section, "NCQ setting", "N/A");
	rcl_node_add_str(section, "Write Cache", "N/A");
	rcl_node_add_str(section, "Logical Sector Size",
	                 drive->logical_sector == 4096 ? "4 KB" : "512B");
	rcl_node_add_str(section, "Physical Sector Size",
	                 drive->physical_sector == 4096 ? "4 KB" : "512B");
	/* What backs a soft controller's drive; a card's drives have no path. */
	if (drive->path[0] || !drive->present) {
		rcl_node_add_str(section, "Backing Store",
		                 !drive->present                  ? "Missing"
		                 : drive->kind == RCL_DRIVE_IMAGE ? "Image File"
		                                                  : "Block Device");
		rcl_node_add_str(section, "Path", drive->path);
	}
	rcl_node_add_str(section, "Connector Name", "NA");
	for (size_t i = 0; i < drive->attr_count; i++)
		rcl_node_add_str(section, drive->attrs[i].key, drive->attrs[i].value);

	restart_key(&key, data);
	rcl_buf_addf(&key, "%s Policies/Settings", name.buf);
	section = rcl_node_add_object(detail, key.buf);
	if (drive_in_group(drive) && !spare)
		rcl_node_add_strf(section, "Drive position", "DriveGroup:%d, Span:%u, Row:%u",
		                  drive->dg, drive->span, drive->row);
	rcl_node_add_strf(section, "Enclosure position", "%zu", enclosure_position(owner, drive));
	rcl_node_add_str(section, "Connected Port Number", "NA");
	/* The firmware's count of the drive's state changes: raidcli's own kinds keep none. */
	if (drive->has_sequence)
		rcl_node_add_int(section, "Sequence Number", drive->sequence);
	else
		rcl_node_add_str(section, "Sequence Number", "NA");
	rcl_node_add_str(section, "Commissioned Spare", spare ? "Yes" : "No");
	rcl_node_add_str(section, "Emergency Spare", "No");
	/* A card's event of it; raidcli's own kinds raise no predictive failure events. */
	rcl_node_add_int(section, "Last Predictive Failure Event Sequence Number",
	                 drive->last_pred_fail_seq);
	rcl_node_add_str(section, "Successful diagnostics completion on", "N/A");
	rcl_node_add_str(section, "FDE Type", "None");
	rcl_node_add_str(section, "SED Capable", "No");
	rcl_node_add_str(section, "SED Enabled", "No");
	rcl_node_add_str(section, "Secured", "No");
	rcl_node_add_str(section, "Cryptographic Erase Capable", "No");
	rcl_node_add_str(section, "Sanitize Support", "Not supported");
	rcl_node_add_str(section, "Locked", "No");
	rcl_node_add_str(section, "Needs EKM Attention", "No");
	rcl_node_add_str(section, "PI Eligible", "No");
	rcl_node_add_str(section, "Certified", "No");
	rcl_node_add_str(section, "Wide Port Capable", "No");
	rcl_node_add_str(section, "Multipath", "No");
	add_port(section, drive, compat);
	/* What only its backend knows (an NVMe drive's logs), asked of the drive. */
	if (drive->present)
		st = rcl_ctrl_drive_detail(owner, drive, RCL_DETAIL_ALL, name.buf, detail, err);
	/* The drive's SCSI INQUIRY or ATA IDENTIFY data: a file or raw device gives none. */
	add_inquiry(detail, drive);
	if (spare)
		add_spare_info(data, drive, name.buf);
	if (key.oom)
		rcl_node_set_oom(data);
	rcl_buf_release(&key);
	rcl_buf_release(&name);
	return st;
}

enum rcl_status cmd_drive_show_all(struct cmd_ctx *c, struct rcl_error *err)
{
	bool compat = rcl_ctrl_storcli_compat(c->ctrl) == RCL_STORCLI_COMPAT_MEGARAID_SAS;
	bool any = false;
	enum rcl_status st = check_named_drives(c, err);

	if (st)
		return st;
	for (size_t i = 0; !st && i < rcl_ctrl_drive_count(c->ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, i);

		if (!drive_selected(&c->args->path, drive))
			continue;
		st = add_drive_detail(c->res->data, c->ctrl, drive, compat, err);
		any = true;
	}
	if (!st)
		rcl_result_describe(c->res,
		                    any ? "Show Drive Information Succeeded." : "No drives found.");
	return st;
}

/* StorCLI's "show smart": each selected drive's health log, as the drive reports it now. */
enum rcl_status cmd_drive_show_smart(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_buf name = RCL_BUF_INIT;
	bool any = false;
	enum rcl_status st = check_named_drives(c, err);

	for (size_t i = 0; !st && i < rcl_ctrl_drive_count(c->ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, i);

		if (!drive_selected(&c->args->path, drive) || !drive->present)
			continue;
		rcl_buf_reset(&name);
		rcl_buf_addf(&name, "Drive /c%u/e%u/s%u", rcl_ctrl_id(c->ctrl), drive->enclosure,
		             drive->slot);
		st = name.oom ? rcl_fail(err, RCL_NOMEM, "out of memory")
		              : rcl_ctrl_drive_detail(c->ctrl, drive, RCL_DETAIL_SMART, name.buf,
		                                      c->res->data, err);
		any = true;
	}
	rcl_buf_release(&name);
	if (!st && !any)
		st = rcl_fail(err, RCL_NOT_FOUND, "no drives present to ask for their SMART log");
	if (!st)
		rcl_result_describe(c->res, "Show Drive SMART Information Succeeded.");
	return st;
}

/* The drive in slot @ref of @ctrl, or NULL. */
static const struct rcl_drive *find_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref)
{
	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(ctrl, i);

		if (drive->enclosure == ref->enclosure && drive->slot == ref->slot)
			return drive;
	}
	return NULL;
}

enum rcl_status cmd_drive_delete(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_buf removed = RCL_BUF_INIT;
	size_t count = rcl_ctrl_drive_count(c->ctrl), n = 0;
	bool force = cmd_value(c->args, "force") != NULL;
	struct rcl_drive_ref *refs = rcl_calloc(count + 1, sizeof(*refs));
	enum rcl_status st =
	    refs ? check_named_drives(c, err) : rcl_fail(err, RCL_NOMEM, "out of memory");

	/*
	 * The slots to empty are chosen before the first goes: removing a
	 * member reloads the drive list, which then shows its place in the
	 * group as a Msng row in the same slot. Such a row (no backing
	 * store) is a place in a group, not a drive: there is nothing to remove.
	 */
	for (size_t i = 0; !st && i < count; i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, i);

		if (!drive_selected(&c->args->path, drive) ||
		    (drive->state == RCL_PD_MISSING && !drive->path[0]))
			continue;
		/* Every one is checked before the first goes: all or nothing. */
		st = rcl_ctrl_check_remove_drive(c->ctrl, drive, force, err);
		refs[n++] = (struct rcl_drive_ref){drive->enclosure, drive->slot};
	}
	for (size_t k = 0; !st && k < n; k++) {
		const struct rcl_drive *drive = find_drive(c->ctrl, &refs[k]);

		st = drive ? rcl_ctrl_remove_drive(c->ctrl, drive, force, err)
		           : rcl_fail(err, RCL_NOT_FOUND, "no drive in slot %u", refs[k].slot);
		if (!st)
			rcl_buf_addf(&removed, "%s/c%u/e%u/s%u", removed.len ? ", " : "",
			             rcl_ctrl_id(c->ctrl), refs[k].enclosure, refs[k].slot);
	}
	if (!st && !removed.len)
		st = rcl_fail(err, RCL_NOT_FOUND, "no drives to remove");
	if (!st)
		rcl_result_describe(c->res, "Removed drive %s; the backing store is kept.",
		                    removed.buf);
	rcl_buf_release(&removed);
	rcl_free(refs);
	return st;
}

/*
 * Run @op on each selected drive, stopping at the first failure; on
 * success the result says @done ("Add Hot Spare Succeeded."), or with
 * @done NULL (a check) is left as it was.
 */
static enum rcl_status for_each_drive(struct cmd_ctx *c, drive_op *op, const char *done,
                                      struct rcl_error *err)
{
	bool any = false;
	enum rcl_status st = check_named_drives(c, err);

	for (size_t i = 0; !st && i < rcl_ctrl_drive_count(c->ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, i);
		/* @op reloads the drive list: keep the address, not the pointer. */
		const struct rcl_drive_ref ref = {drive->enclosure, drive->slot};

		if (!drive_selected(&c->args->path, drive))
			continue;
		st = op(c, &ref, err);
		any = true;
		/* StorCLI names the drive a per-drive command failed for. */
		if (st)
			rcl_result_fail_object(c->res, err, "Drive", "/c%u/e%u/s%u",
			                       rcl_ctrl_id(c->ctrl), ref.enclosure, ref.slot);
	}
	if (!st && !any)
		st = rcl_fail(err, RCL_NOT_FOUND, "no drives found");
	if (!st && done)
		rcl_result_describe(c->res, "%s", done);
	return st;
}

enum rcl_status cmd_drive_each(struct cmd_ctx *c, drive_op *op, const char *done,
                               struct rcl_error *err)
{
	return for_each_drive(c, op, done, err);
}

/* dgs=0,1: the disk groups a dedicated spare serves, into @ids; none when not given. */
static enum rcl_status parse_dgs(const char *value, unsigned *ids, size_t *count,
                                 struct rcl_error *err)
{
	const char *p = value;

	*count = 0;
	while (p && *p) {
		char *end;
		unsigned long id = strtoul(p, &end, 10);

		if (!isdigit((unsigned char)*p) || id >= RCL_MAX_DGS || *count == RCL_MAX_DGS ||
		    (*end && *end != ','))
			break;
		ids[(*count)++] = (unsigned)id;
		p = *end ? end + 1 : end;
	}
	if (value && (!*count || *p))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "dgs='%s' is not a list of disk group numbers from 0 to %d, as "
		                "dgs=0,1",
		                value, RCL_MAX_DGS - 1);
	return RCL_OK;
}

static enum rcl_status add_spare(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 struct rcl_error *err)
{
	unsigned dgs[RCL_MAX_DGS];
	size_t count;
	enum rcl_status st = parse_dgs(cmd_value(c->args, "dgs"), dgs, &count, err);

	if (st)
		return st;
	return rcl_ctrl_add_hotspare(
	    c->ctrl, ref, dgs, count,
	    (cmd_value(c->args, "enclaffinity") ? RCL_SPARE_ENCL_AFFINITY : 0) |
	        (cmd_value(c->args, "nonrevertible") ? RCL_SPARE_NONREVERTIBLE : 0),
	    cmd_value(c->args, "force") != NULL, err);
}

static enum rcl_status delete_spare(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                    struct rcl_error *err)
{
	return rcl_ctrl_delete_hotspare(c->ctrl, ref, err);
}

enum rcl_status cmd_drive_add_hotspare(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, add_spare, "Add Hot Spare Succeeded.", err);
}

static enum rcl_status locate_on(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 struct rcl_error *err)
{
	return rcl_ctrl_set_locate(c->ctrl, ref, true, err);
}

static enum rcl_status locate_off(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                  struct rcl_error *err)
{
	return rcl_ctrl_set_locate(c->ctrl, ref, false, err);
}

enum rcl_status cmd_drive_start_locate(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, locate_on, "Start Drive Locate Succeeded.", err);
}

enum rcl_status cmd_drive_stop_locate(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, locate_off, "Stop Drive Locate Succeeded.", err);
}

static enum rcl_status jbod_on(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                               struct rcl_error *err)
{
	return rcl_ctrl_set_drive_jbod(c->ctrl, ref, true, err);
}

static enum rcl_status set_state(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 enum rcl_drive_change change, struct rcl_error *err)
{
	return rcl_ctrl_set_drive_state(c->ctrl, ref, change, cmd_value(c->args, "force") != NULL,
	                                err);
}

static enum rcl_status set_good(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                struct rcl_error *err)
{
	return set_state(c, ref, RCL_DRIVE_SET_GOOD, err);
}

static enum rcl_status set_online(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                  struct rcl_error *err)
{
	return set_state(c, ref, RCL_DRIVE_SET_ONLINE, err);
}

static enum rcl_status set_offline(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                   struct rcl_error *err)
{
	return set_state(c, ref, RCL_DRIVE_SET_OFFLINE, err);
}

static enum rcl_status set_missing(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                   struct rcl_error *err)
{
	return set_state(c, ref, RCL_DRIVE_SET_MISSING, err);
}

enum rcl_status cmd_drive_set_jbod(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, jbod_on, "Set Drive JBOD Succeeded.", err);
}

enum rcl_status cmd_drive_set_good(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, set_good, "Set Drive Good Succeeded.", err);
}

enum rcl_status cmd_drive_set_online(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, set_online, "Set Drive Online Succeeded.", err);
}

enum rcl_status cmd_drive_set_offline(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, set_offline, "Set Drive Offline Succeeded.", err);
}

enum rcl_status cmd_drive_set_missing(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, set_missing, "Set Drive Missing Succeeded.", err);
}

static enum rcl_status insert(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                              struct rcl_error *err)
{
	return rcl_ctrl_insert_drive(c->ctrl, ref,
	                             (unsigned)strtoul(cmd_value(c->args, "dg"), NULL, 10),
	                             (unsigned)strtoul(cmd_value(c->args, "array"), NULL, 10),
	                             (unsigned)strtoul(cmd_value(c->args, "row"), NULL, 10), err);
}

enum rcl_status cmd_drive_insert(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, insert, "Insert Drive Succeeded.", err);
}

enum rcl_status cmd_drive_delete_hotspare(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, delete_spare, "Delete Hot Spare Succeeded.", err);
}

/* ------------------------------------------------------------------------
 * Rebuilds (rcl_ctrl_task(); a soft controller's run in its process). */

/* @action on the rebuild of drive @ref; with force, as the command line has it. */
static enum rcl_status rebuild(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                               enum rcl_task_action action, struct rcl_error *err)
{
	struct rcl_task_request req = {.kind = RCL_TASK_REBUILD,
	                               .action = action,
	                               .drive = *ref,
	                               .force = cmd_value(c->args, "force") != NULL};

	return rcl_ctrl_task(c->ctrl, &req, err);
}

static enum rcl_status rebuild_start(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                     struct rcl_error *err)
{
	return rebuild(c, ref, RCL_TASK_ACTION_START, err);
}

static enum rcl_status rebuild_stop(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                    struct rcl_error *err)
{
	return rebuild(c, ref, RCL_TASK_ACTION_STOP, err);
}

static enum rcl_status rebuild_pause(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                     struct rcl_error *err)
{
	return rebuild(c, ref, RCL_TASK_ACTION_PAUSE, err);
}

static enum rcl_status rebuild_resume(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                      struct rcl_error *err)
{
	return rebuild(c, ref, RCL_TASK_ACTION_RESUME, err);
}

static enum rcl_status rebuild_check(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                     struct rcl_error *err)
{
	struct rcl_task_request req = {.kind = RCL_TASK_REBUILD, .drive = *ref};

	return rcl_ctrl_task_check(c->ctrl, &req, err);
}

enum rcl_status cmd_drive_check_rebuild(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, rebuild_check, NULL, err);
}

enum rcl_status cmd_drive_start_rebuild(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, rebuild_start, "Start Drive Rebuild Succeeded.", err);
}

enum rcl_status cmd_drive_stop_rebuild(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, rebuild_stop, "Stop Drive Rebuild Succeeded.", err);
}

enum rcl_status cmd_drive_pause_rebuild(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, rebuild_pause, "Pause Drive Rebuild Succeeded.", err);
}

enum rcl_status cmd_drive_resume_rebuild(struct cmd_ctx *c, struct rcl_error *err)
{
	return for_each_drive(c, rebuild_resume, "Resume Drive Rebuild Succeeded.", err);
}

enum rcl_status cmd_drive_show_rebuild(struct cmd_ctx *c, struct rcl_error *err)
{
	struct rcl_node *table = NULL;
	enum rcl_status st = check_named_drives(c, err);

	for (size_t i = 0; !st && i < rcl_ctrl_drive_count(c->ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, i);
		const struct rcl_drive_ref ref = {drive->enclosure, drive->slot};

		if (!drive_selected(&c->args->path, drive))
			continue;
		/* StorCLI's "Response Data" here is the list of rows itself, not an object. */
		if (!table && rcl_node_count(c->res->data) == 0 && (table = rcl_node_new_array())) {
			rcl_node_free(c->res->data);
			c->res->data = table;
		}
		if (table)
			st = rebuild_row(table, c->ctrl, &ref, err);
	}
	if (!st && !table)
		st = rcl_fail(err, RCL_NOT_FOUND, "no drives found");
	if (!st)
		rcl_result_describe(c->res, "Show Drive Rebuild Status Succeeded.");
	return st;
}
