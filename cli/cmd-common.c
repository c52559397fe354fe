// SPDX-License-Identifier: MIT
/*
 * cmd-common.c - rows, tables and legends that several commands print.
 * Key names and value formats are StorCLI v1's (research/storcli.md).
 */
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "cli.h"

const char *const legend_pd_list =
    "EID=Enclosure Device ID|Slt=Slot No|DID=Device ID|DG=DriveGroup\n"
    "DHS=Dedicated Hot Spare|UGood=Unconfigured Good|GHS=Global Hotspare\n"
    "UBad=Unconfigured Bad|Onln=Online|Offln=Offline|Intf=Interface\n"
    "Med=Media Type|SED=Self Encryptive Drive|PI=PI Eligible\n"
    "SeSz=Sector Size|Sp=Spun|U=Up|D=Down|T=Transition|F=Foreign\n"
    "Msng=Missing|Rbld=Rebuild|File=Image File";

const char *const legend_enclosure =
    "EID=Enclosure Device ID | PD=Physical drive count | PS=Power Supply count\n"
    "TSs=Temperature sensor count | Alms=Alarm count | SIM=SIM Count | ProdID=Product ID";

const char *const legend_vd_list =
    "VD=Virtual Drive| DG=Drive Group|Rec=Recovery\n"
    "Cac=CacheCade|OfLn=OffLine|Pdgd=Partially Degraded|Dgrd=Degraded\n"
    "Optl=Optimal|dflt=Default|RO=Read Only|RW=Read Write|HD=Hidden|TRANS=TransportReady\n"
    "B=Blocked|Consist=Consistent|R=Read Ahead Always|NR=No Read Ahead|WB=WriteBack\n"
    "AWB=Always WriteBack|WT=WriteThrough|C=Cached IO|D=Direct IO|sCC=Scheduled\n"
    "Check Consistency";

const char *const legend_topology =
    "DG=Disk Group Index|Arr=Array Index|Row=Row Index|EID=Enclosure Device ID\n"
    "DID=Device ID|Type=Drive or RAID Type|Onln=Online|Rbld=Rebuild|Optl=Optimal\n"
    "Dgrd=Degraded|Pdgd=Partially degraded|Offln=Offline|BT=Background Task Active\n"
    "PDC=PD Cache|PI=Protection Info|SED=Self Encrypting Drive|Frgn=Foreign\n"
    "DS3=Dimmer Switch 3|dflt=Default|Msng=Missing|FSpace=Free Space Present\n"
    "TR=Transport Ready";

void format_time(char *out, size_t size, time_t t)
{
	struct tm tm;

	if (t == RCL_CLOCK_NO_DATE)
		snprintf(out, size, "Unknown");
	else if (localtime_r(&t, &tm))
		strftime(out, size, "%m/%d/%Y, %H:%M:%S", &tm);
}

static const char *sector_size_text(unsigned bytes)
{
	return bytes == 4096 ? "4 KB" : "512B";
}

void add_pd_row(struct rcl_node *table, const struct rcl_drive *drive)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_strf(row, "EID:Slt", "%u:%u", drive->enclosure, drive->slot);
	rcl_node_add_int(row, "DID", drive->device_id);
	rcl_node_add_str(row, "State", rcl_pd_state_abbrev(drive->state));
	/* StorCLI's DG is a number for members, F for foreign, "-" otherwise; right-aligned. */
	if (drive->foreign)
		rcl_node_set_flags(rcl_node_add_str(row, "DG", "F"), RCL_NODE_ALIGN_RIGHT);
	else if (drive_in_group(drive))
		rcl_node_add_int(row, "DG", drive->dg);
	else
		rcl_node_set_flags(rcl_node_add_str(row, "DG", "-"), RCL_NODE_ALIGN_RIGHT);
	rcl_node_add_size(row, "Size", drive->coerced_bytes);
	rcl_node_add_str(row, "Intf", drive->interface);
	rcl_node_add_str(row, "Med", drive->medium);
	rcl_node_add_str(row, "SED", "N");
	rcl_node_add_str(row, "PI", "N");
	rcl_node_add_str(row, "SeSz", sector_size_text(drive->logical_sector));
	rcl_node_add_str(row, "Model", drive->model);
	rcl_node_add_str(row, "Sp", drive->present ? "U" : "-");
	rcl_node_add_str(row, "Type", "-");
}

void add_pd_list(struct rcl_node *data, const struct rcl_ctrl *ctrl, const char *key)
{
	size_t count = rcl_ctrl_drive_count(ctrl);
	struct rcl_node *table;

	if (!count)
		return;
	table = rcl_node_add_array(data, key);
	for (size_t i = 0; i < count; i++)
		add_pd_row(table, rcl_ctrl_drive(ctrl, i));
	rcl_node_set_legend(table, legend_pd_list);
}

bool drive_in_group(const struct rcl_drive *drive)
{
	/*
	 * A backend may leave dg at 0 for unconfigured drives: the state decides.
	 * A UBad drive with a group is a failed member, still in its place.
	 */
	switch (drive->state) {
	case RCL_PD_UGOOD:
	case RCL_PD_GHS:
	case RCL_PD_JBOD:
		return false;
	default:
		return drive->dg >= 0;
	}
}

/* "RWTD": read (R|NR), write (WT|WB|AWB), I/O (C|D). */
static void add_cache(struct rcl_node *row, const struct rcl_vd *vd)
{
	rcl_node_add_strf(row, "Cache", "%s%s%s", vd->read == RCL_READ_AHEAD ? "R" : "NR",
	                  rcl_write_policy_name(vd->write), vd->io == RCL_IO_CACHED ? "C" : "D");
}

/*
 * Consist, as the controller process enforces it: a degraded VD that a
 * crash left with regions to resync (cli_vd_dirty()) is refused as dirty by
 * start export and rebuild, so it is not shown consistent either. The
 * same test as theirs (server/export.c), so that an optimal VD's show
 * opens no volume.
 */
static bool shown_consistent(const struct rcl_ctrl *ctrl, const struct rcl_vd *vd)
{
	if (!ctrl || !vd->consistent)
		return vd->consistent;
	return vd->state == RCL_VD_OPTIMAL || vd->state == RCL_VD_OFFLINE ||
	       !cli_vd_dirty(ctrl, vd);
}

void add_vd_row(struct rcl_node *table, const struct rcl_ctrl *ctrl, const struct rcl_vd *vd)
{
	static const char *const access[] = {[RCL_ACCESS_RW] = "RW",
	                                     [RCL_ACCESS_RO] = "RO",
	                                     [RCL_ACCESS_BLOCKED] = "B",
	                                     [RCL_ACCESS_REMOVED_BLOCKED] = "RmvBlkd"};
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_strf(row, "DG/VD", "%u/%u", vd->dg, vd->id);
	rcl_node_add_str(row, "TYPE", rcl_raid_level_name(vd->level));
	rcl_node_add_str(row, "State", rcl_vd_state_abbrev(vd->state));
	rcl_node_add_str(row, "Access", access[vd->access]);
	rcl_node_add_str(row, "Consist", shown_consistent(ctrl, vd) ? "Yes" : "No");
	add_cache(row, vd);
	rcl_node_add_str(row, "Cac", "-");
	rcl_node_add_str(row, "sCC", "OFF");
	rcl_node_set_flags(rcl_node_add_size(row, "Size", vd->bytes), RCL_NODE_ALIGN_RIGHT);
	rcl_node_add_str(row, "Name", vd->name);
}

void add_footnote(struct rcl_node *table, const char *fmt, ...)
{
	struct rcl_buf text = RCL_BUF_INIT;
	va_list ap;

	if (rcl_node_legend(table))
		rcl_buf_addf(&text, "%s\n", rcl_node_legend(table));
	va_start(ap, fmt);
	rcl_buf_vaddf(&text, fmt, ap);
	va_end(ap);
	if (text.oom)
		rcl_node_set_oom(table);
	else
		rcl_node_set_legend(table, text.buf);
	rcl_buf_release(&text);
}

void note_held_vd(struct rcl_node *table, const struct rcl_ctrl *ctrl, unsigned vd)
{
	const char *why = rcl_ctrl_export_waits_for_force(ctrl, vd);
	unsigned id = rcl_ctrl_id(ctrl);

	if (why)
		add_footnote(table,
		             "/c%u/v%u waits for force: it is degraded and %s; 'raidcli /c%u/v%u "
		             "start export force' serves it and lets its rebuild go on",
		             id, vd, why, id, vd);
}

void add_vd_list(struct rcl_node *data, const struct rcl_ctrl *ctrl, const char *key,
                 const struct id_set *groups)
{
	struct rcl_node *table = NULL;

	for (size_t i = 0; i < rcl_ctrl_vd_count(ctrl); i++) {
		const struct rcl_vd *vd = rcl_ctrl_vd(ctrl, i);

		if (groups && !id_in(groups, vd->dg))
			continue;
		if (!table) {
			table = rcl_node_add_array(data, key);
			rcl_node_set_legend(table, legend_vd_list);
		}
		add_vd_row(table, ctrl, vd);
		note_held_vd(table, ctrl, vd->id);
	}
}

/* The columns every TOPOLOGY row has after "Size", with @fspace. */
static void add_topology_tail(struct rcl_node *row, const char *fspace)
{
	rcl_node_add_str(row, "PDC", "dflt");
	rcl_node_add_str(row, "PI", "N");
	rcl_node_add_str(row, "SED", "N");
	rcl_node_add_str(row, "DS3", "none");
	rcl_node_add_str(row, "FSpace", fspace);
	rcl_node_add_str(row, "TR", "N");
}

/*
 * One TOPOLOGY row for a group (@span < 0) or one of its spans: the row
 * kinds differ only in Arr, Type and Size.
 */
static void add_group_row(struct rcl_node *table, const struct rcl_dg *dg, int span)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);
	uint64_t bytes =
	    dg->member_bytes * rcl_raid_span_data_drives(dg->level, dg->drives_per_span);

	rcl_node_add_int(row, "DG", dg->id);
	if (span < 0)
		rcl_node_set_flags(rcl_node_add_str(row, "Arr", "-"), RCL_NODE_ALIGN_RIGHT);
	else
		rcl_node_add_int(row, "Arr", span);
	rcl_node_set_flags(rcl_node_add_str(row, "Row", "-"), RCL_NODE_ALIGN_RIGHT);
	rcl_node_add_str(row, "EID:Slot", "-");
	rcl_node_set_flags(rcl_node_add_str(row, "DID", "-"), RCL_NODE_ALIGN_RIGHT);
	rcl_node_add_str(
	    row, "Type",
	    rcl_raid_level_name(span < 0 ? dg->level : rcl_raid_span_level(dg->level)));
	rcl_node_add_str(row, "State",
	                 rcl_vd_state_abbrev(span < 0 ? dg->state : dg->span_states[span]));
	rcl_node_add_str(row, "BT", "N");
	rcl_node_set_flags(rcl_node_add_size(row, "Size", span < 0 ? bytes * dg->spans : bytes),
	                   RCL_NODE_ALIGN_RIGHT);
	add_topology_tail(row, span < 0 && dg->free_bytes ? "Y" : "N");
}

static void add_member_row(struct rcl_node *table, const struct rcl_drive *drive)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_int(row, "DG", drive->dg);
	rcl_node_add_int(row, "Arr", drive->span);
	rcl_node_add_int(row, "Row", drive->row);
	rcl_node_add_strf(row, "EID:Slot", "%u:%u", drive->enclosure, drive->slot);
	rcl_node_add_int(row, "DID", drive->device_id);
	rcl_node_add_str(row, "Type", "DRIVE");
	rcl_node_add_str(row, "State", rcl_pd_state_abbrev(drive->state));
	rcl_node_add_str(row, "BT", "N");
	rcl_node_set_flags(rcl_node_add_size(row, "Size", drive->coerced_bytes),
	                   RCL_NODE_ALIGN_RIGHT);
	add_topology_tail(row, "-");
}

/* A place in the group no drive holds (a member marked missing): StorCLI's Msng row. */
static void add_missing_row(struct rcl_node *table, const struct rcl_dg *dg, unsigned span,
                            unsigned r)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_int(row, "DG", dg->id);
	rcl_node_add_int(row, "Arr", span);
	rcl_node_add_int(row, "Row", r);
	rcl_node_add_str(row, "EID:Slot", "-");
	rcl_node_set_flags(rcl_node_add_str(row, "DID", "-"), RCL_NODE_ALIGN_RIGHT);
	rcl_node_add_str(row, "Type", "DRIVE");
	rcl_node_add_str(row, "State", rcl_pd_state_abbrev(RCL_PD_MISSING));
	rcl_node_add_str(row, "BT", "N");
	rcl_node_set_flags(rcl_node_add_str(row, "Size", "-"), RCL_NODE_ALIGN_RIGHT);
	add_topology_tail(row, "-");
}

static void add_group_topology(struct rcl_node *table, const struct rcl_ctrl *ctrl,
                               const struct rcl_dg *dg)
{
	add_group_row(table, dg, -1);
	for (unsigned span = 0; span < dg->spans; span++) {
		add_group_row(table, dg, (int)span);
		for (unsigned r = 0; r < dg->drives_per_span; r++) {
			bool held = false;

			for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
				const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

				if (drive_in_group(d) && d->dg == (int)dg->id &&
				    d->state != RCL_PD_DHS && d->span == span && d->row == r) {
					add_member_row(table, d);
					held = true;
				}
			}
			if (!held)
				add_missing_row(table, dg, span, r);
		}
	}
}

void add_topology(struct rcl_node *data, const struct rcl_ctrl *ctrl, const struct id_set *groups)
{
	struct rcl_node *table = NULL;

	for (size_t i = 0; i < rcl_ctrl_dg_count(ctrl); i++) {
		const struct rcl_dg *group = rcl_ctrl_dg(ctrl, i);

		if (groups && !id_in(groups, group->id))
			continue;
		if (!table) {
			table = rcl_node_add_array(data, "TOPOLOGY");
			rcl_node_set_legend(table, legend_topology);
		}
		add_group_topology(table, ctrl, group);
	}
}

/* One FREE SPACE DETAILS row: a free extent of @dg of @bytes. */
static void add_free_row(struct rcl_node *table, const struct rcl_dg *dg, uint64_t bytes)
{
	struct rcl_node *row = rcl_node_add_object(table, NULL);

	rcl_node_add_int(row, "DG", dg->id);
	rcl_node_set_flags(rcl_node_add_size(row, "Size", bytes), RCL_NODE_ALIGN_RIGHT);
}

struct rcl_node *add_free_space(struct rcl_node *data, const struct rcl_ctrl *ctrl,
                                const struct id_set *groups)
{
	struct rcl_node *table = NULL;

	for (size_t i = 0; i < rcl_ctrl_dg_count(ctrl); i++) {
		const struct rcl_dg *dg = rcl_ctrl_dg(ctrl, i);

		if ((groups && !id_in(groups, dg->id)) || !dg->free_bytes)
			continue;
		if (!table)
			table = rcl_node_add_array(data, "FREE SPACE DETAILS");
		/* StorCLI gives each extent its row: a deleted VD's hole too. */
		for (unsigned k = 0; k < dg->free_extent_count; k++)
			add_free_row(table, dg, dg->free_extents[k]);
		if (!dg->free_extent_count)
			add_free_row(table, dg, dg->free_bytes);
	}
	return table;
}

unsigned ctrl_ports(const struct rcl_ctrl_info *info)
{
	return info->ports ? info->ports : info->max_drives;
}

bool id_in(const struct id_set *set, unsigned id)
{
	if (!set->given || set->all)
		return true;
	for (size_t i = 0; i < set->count; i++)
		if (set->ids[i] == id)
			return true;
	return false;
}

static long long drives_in(const struct rcl_ctrl *ctrl, unsigned enclosure)
{
	long long n = 0;

	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++)
		n += rcl_ctrl_drive(ctrl, i)->enclosure == enclosure;
	return n;
}

void add_enclosure_rows(struct rcl_node *table, const struct rcl_ctrl *ctrl,
                        const struct obj_path *path)
{
	for (size_t i = 0; i < rcl_ctrl_enclosure_count(ctrl); i++) {
		const struct rcl_enclosure *encl = rcl_ctrl_enclosure(ctrl, i);
		struct rcl_node *row;

		if (path && !id_in(&path->encl, encl->id))
			continue;
		row = rcl_node_add_object(table, NULL);
		rcl_node_add_int(row, "EID", encl->id);
		rcl_node_add_str(row, "State", "OK");
		rcl_node_add_int(row, "Slots", encl->slots);
		rcl_node_add_int(row, "PD", drives_in(ctrl, encl->id));
		/* Counts of what the enclosure has: a virtual one has none of it. */
		rcl_node_add_int(row, "PS", 0);
		rcl_node_add_int(row, "Fans", 0);
		rcl_node_add_int(row, "TSs", 0);
		rcl_node_add_int(row, "Alms", 0);
		rcl_node_add_int(row, "SIM", 0);
		rcl_node_add_str(row, "Port#", "-");
		rcl_node_add_str(row, "ProdID", encl->product);
		rcl_node_add_str(row, "VendorSpecific", " ");
	}
	rcl_node_set_legend(table, legend_enclosure);
}

bool drive_selected(const struct obj_path *path, const struct rcl_drive *drive)
{
	return id_in(&path->encl, drive->enclosure) && id_in(&path->slot, drive->slot);
}

const char *backup_state(const struct rcl_caps *caps, const struct rcl_ctrl_info *info,
                         const char *absent)
{
	if (!caps->backup)
		return absent;
	return info->backup.state[0] ? info->backup.state : "Unknown";
}
