// SPDX-License-Identifier: MIT
/*
 * cmd-common.c - rows, tables and legends that several commands print.
 * Key names and value formats are StorCLI v1's (research/storcli.md).
 */
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

void format_time(char *out, size_t size, time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
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
	/* StorCLI's DG is a number for members, "-" otherwise; right-aligned. */
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

static bool id_in(const struct id_set *set, unsigned id)
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
