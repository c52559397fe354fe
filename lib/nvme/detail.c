// SPDX-License-Identifier: MIT
/*
 * detail.c - what an NVMe drive answers, decoded into result nodes: its
 * identify controller and namespace data, SMART/health log, error log
 * and firmware slot log. Values are the drive's, in the units nvme-cli's
 * JSON gives them (counts, percentages, Kelvin beside Celsius), so a
 * script can check one tool against the other; tests/vm/test-nvme.py
 * keeps the table of raidcli keys and nvme-cli fields.
 */
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "nvme/nvme.h"

uint64_t rcl_nvme_le128(const uint8_t v[16])
{
	uint64_t lo = 0;

	for (int i = 15; i >= 8; i--)
		if (v[i])
			return UINT64_MAX;
	for (int i = 7; i >= 0; i--)
		lo = lo << 8 | v[i];
	return lo;
}

/* A counter as a JSON number (the node's integers are signed: saturate). */
static void add_count(struct rcl_node *obj, const char *key, uint64_t value)
{
	rcl_node_add_int(obj, key, value > LLONG_MAX ? LLONG_MAX : (long long)value);
}

/* "50C (323 Kelvin)", as nvme-cli's text shows a temperature in Kelvin @k. */
static void add_kelvin(struct rcl_node *obj, const char *key, unsigned k)
{
	rcl_node_add_strf(obj, key, "%dC (%u Kelvin)", (int)k - 273, k);
}

static void add_percent(struct rcl_node *obj, const char *key, unsigned value)
{
	rcl_node_add_strf(obj, key, "%u%%", value);
}

static void add_yes_no(struct rcl_node *obj, const char *key, bool value)
{
	rcl_node_add_str(obj, key, value ? "Yes" : "No");
}

/* The critical warning bits, in the specification's order, with nvme-cli's verbose JSON names. */
static const char *const warning_bits[] = {
    "Available Spare Below Threshold",    /* available_spare */
    "Temperature Threshold Exceeded",     /* temp_threshold */
    "Reliability Degraded",               /* reliability_degraded */
    "Media Read Only",                    /* ro */
    "Volatile Memory Backup Failed",      /* vmbu_failed */
    "Persistent Memory Region Read Only", /* pmr_ro */
};

#define WARNING_BIT_COUNT (sizeof(warning_bits) / sizeof(warning_bits[0]))

void rcl_nvme_critical_warning(struct rcl_buf *sb, unsigned bits)
{
	size_t start = sb->len;

	for (size_t i = 0; i < WARNING_BIT_COUNT; i++)
		if (bits & (1u << i))
			rcl_buf_addf(sb, "%s%s", sb->len > start ? ", " : "", warning_bits[i]);
	if (bits >> WARNING_BIT_COUNT)
		rcl_buf_addf(sb, "%sreserved bits 0x%02x", sb->len > start ? ", " : "",
		             bits & ~((1u << WARNING_BIT_COUNT) - 1));
	if (sb->len == start)
		rcl_buf_adds(sb, "None");
}

void rcl_nvme_add_smart(struct rcl_node *parent, const char *key, const struct nvme_smart_log *log)
{
	struct rcl_node *s = rcl_node_add_object(parent, key);
	struct rcl_buf sb = RCL_BUF_INIT;
	char name[48];

	rcl_node_add_int(s, "Critical Warning", log->critical_warning);
	rcl_nvme_critical_warning(&sb, log->critical_warning);
	if (sb.oom)
		rcl_node_set_oom(s);
	rcl_node_add_str(s, "Critical Warnings", sb.buf);
	rcl_buf_release(&sb);
	for (size_t i = 0; i < WARNING_BIT_COUNT; i++)
		add_yes_no(s, warning_bits[i], log->critical_warning & (1u << i));
	add_kelvin(s, "Composite Temperature",
	           (unsigned)log->temperature[1] << 8 | log->temperature[0]);
	add_percent(s, "Available Spare", log->avail_spare);
	add_percent(s, "Available Spare Threshold", log->spare_thresh);
	add_percent(s, "Percentage Used", log->percent_used);
	rcl_node_add_int(s, "Endurance Group Critical Warning Summary",
	                 log->endu_grp_crit_warn_sumry);
	add_count(s, "Data Units Read", rcl_nvme_le128(log->data_units_read));
	add_count(s, "Data Units Written", rcl_nvme_le128(log->data_units_written));
	add_count(s, "Host Read Commands", rcl_nvme_le128(log->host_reads));
	add_count(s, "Host Write Commands", rcl_nvme_le128(log->host_writes));
	add_count(s, "Controller Busy Time", rcl_nvme_le128(log->ctrl_busy_time));
	add_count(s, "Power Cycles", rcl_nvme_le128(log->power_cycles));
	add_count(s, "Power On Hours", rcl_nvme_le128(log->power_on_hours));
	add_count(s, "Unsafe Shutdowns", rcl_nvme_le128(log->unsafe_shutdowns));
	add_count(s, "Media and Data Integrity Errors", rcl_nvme_le128(log->media_errors));
	add_count(s, "Error Information Log Entries", rcl_nvme_le128(log->num_err_log_entries));
	add_count(s, "Warning Temperature Time", le32toh(log->warning_temp_time));
	add_count(s, "Critical Composite Temperature Time", le32toh(log->critical_comp_time));
	/* As nvme-cli: a sensor reading 0 is not implemented. */
	for (int i = 0; i < 8; i++) {
		unsigned k = le16toh(log->temp_sensor[i]);

		snprintf(name, sizeof(name), "Temperature Sensor %d", i + 1);
		if (k)
			add_kelvin(s, name, k);
	}
	add_count(s, "Thermal Management T1 Transition Count", le32toh(log->thm_temp1_trans_count));
	add_count(s, "Thermal Management T2 Transition Count", le32toh(log->thm_temp2_trans_count));
	add_count(s, "Thermal Management T1 Total Time", le32toh(log->thm_temp1_total_time));
	add_count(s, "Thermal Management T2 Total Time", le32toh(log->thm_temp2_total_time));
}

/* @len bytes of identify string @s without the trailing blanks it is padded with. */
static void add_id_str(struct rcl_node *obj, const char *key, const char *s, size_t len)
{
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\0'))
		len--;
	rcl_node_add_strf(obj, key, "%.*s", (int)len, s);
}

void rcl_nvme_add_id_ctrl(struct rcl_node *parent, const char *key, const struct rcl_nvme_dev *dev,
                          const struct nvme_id_ctrl *id)
{
	struct rcl_node *s = rcl_node_add_object(parent, key);
	uint32_t ver = le32toh(id->ver);

	rcl_node_add_str(s, "Controller", dev->name);
	rcl_node_add_str(s, "Transport", dev->transport);
	rcl_node_add_str(s, !strcmp(dev->transport, "pcie") ? "PCI Address" : "Transport Address",
	                 dev->address);
	rcl_node_add_str(s, "Link Speed", dev->link[0] ? dev->link : "N/A");
	rcl_node_add_str(s, "Max Link Speed", dev->max_link[0] ? dev->max_link : "N/A");
	rcl_node_add_strf(s, "PCI Vendor Id", "0x%04x", le16toh(id->vid));
	rcl_node_add_strf(s, "PCI Subsystem Vendor Id", "0x%04x", le16toh(id->ssvid));
	add_id_str(s, "Serial Number", id->sn, sizeof(id->sn));
	add_id_str(s, "Model Number", id->mn, sizeof(id->mn));
	add_id_str(s, "Firmware Revision", id->fr, sizeof(id->fr));
	rcl_node_add_int(s, "Controller Id", le16toh(id->cntlid));
	rcl_node_add_strf(s, "NVMe Version", "%u.%u.%u", ver >> 16, (ver >> 8) & 0xff, ver & 0xff);
	add_id_str(s, "Subsystem NQN", id->subnqn, sizeof(id->subnqn));
	rcl_node_add_int(s, "Number of Namespaces", le32toh(id->nn));
	add_count(s, "Total NVM Capacity", rcl_nvme_le128(id->tnvmcap));
	add_count(s, "Unallocated NVM Capacity", rcl_nvme_le128(id->unvmcap));
	add_kelvin(s, "Warning Composite Temperature Threshold", le16toh(id->wctemp));
	add_kelvin(s, "Critical Composite Temperature Threshold", le16toh(id->cctemp));
	rcl_node_add_int(s, "Error Log Page Entries", id->elpe + 1u);
	rcl_node_add_int(s, "Firmware Slots", (id->frmw & NVME_CTRL_FRMW_NR_SLOTS) >> 1);
	add_yes_no(s, "Firmware Slot 1 Read Only", id->frmw & NVME_CTRL_FRMW_1ST_RO);
}

void rcl_nvme_add_namespace(struct rcl_node *list, const struct rcl_nvme_ns *ns,
                            const struct nvme_id_ns *id)
{
	struct rcl_node *s = rcl_node_add_object(list, NULL), *lbafs;
	__u8 inuse = 0;

	rcl_node_add_int(s, "NSID", ns->nsid);
	rcl_node_add_str(s, "Block Device", ns->name);
	rcl_node_add_size(s, "Size", ns->lba_count * ns->lba_size);
	rcl_node_add_int(s, "Logical Sector Size", ns->lba_size);
	rcl_node_add_int(s, "Metadata Size", ns->meta_size);
	rcl_node_add_str(s, "In Use", ns->in_use[0] ? ns->in_use : "No");
	if (!id)
		return;
	nvme_id_ns_flbas_to_lbaf_inuse(id->flbas, &inuse);
	add_count(s, "Namespace Size", le64toh(id->nsze));
	add_count(s, "Namespace Capacity", le64toh(id->ncap));
	add_count(s, "Namespace Utilization", le64toh(id->nuse));
	rcl_node_add_int(s, "LBA Format In Use", inuse);
	lbafs = rcl_node_add_array(s, "LBA Formats");
	for (unsigned i = 0; i <= id->nlbaf && i < 64; i++) {
		struct rcl_node *row = rcl_node_add_object(lbafs, NULL);

		rcl_node_add_int(row, "LBA Format", i);
		rcl_node_add_int(row, "Data Size", 1ll << (id->lbaf[i].ds & 31));
		rcl_node_add_int(row, "Metadata Size", le16toh(id->lbaf[i].ms));
		rcl_node_add_int(row, "Relative Performance", id->lbaf[i].rp & 3);
		add_yes_no(row, "In Use", i == inuse);
	}
}

void rcl_nvme_add_error_log(struct rcl_node *parent, const char *key,
                            const struct nvme_error_log_page *log, size_t count)
{
	struct rcl_node *s = rcl_node_add_object(parent, key), *list = NULL;
	size_t used = 0;

	for (size_t i = 0; i < count; i++)
		used += log[i].error_count != 0;
	rcl_node_add_int(s, "Entries", (long long)used);
	for (size_t i = 0; i < count; i++) {
		const struct nvme_error_log_page *e = &log[i];
		unsigned status = le16toh(e->status_field);
		struct rcl_node *row;

		if (!e->error_count)
			continue;
		if (!list)
			list = rcl_node_add_array(s, "Errors");
		row = rcl_node_add_object(list, NULL);
		add_count(row, "Error Count", le64toh(e->error_count));
		rcl_node_add_int(row, "Submission Queue Id", le16toh(e->sqid));
		rcl_node_add_int(row, "Command Id", le16toh(e->cmdid));
		rcl_node_add_strf(row, "Status Field", "0x%04x", status);
		/* Bit 0 is the phase tag; the status is above it. */
		rcl_node_add_str(row, "Status", nvme_status_to_string((int)(status >> 1), false));
		rcl_node_add_int(row, "Parameter Error Location", le16toh(e->parm_error_location));
		add_count(row, "LBA", le64toh(e->lba));
		add_count(row, "NSID", le32toh(e->nsid));
		rcl_node_add_int(row, "Vendor Specific", e->vs);
		rcl_node_add_int(row, "Transport Type", e->trtype);
		add_count(row, "Command Specific", le64toh(e->cs));
		rcl_node_add_int(row, "Transport Type Specific", le16toh(e->trtype_spec_info));
	}
}

void rcl_nvme_add_fw_slots(struct rcl_node *parent, const char *key,
                           const struct nvme_firmware_slot *log, unsigned slots)
{
	struct rcl_node *s = rcl_node_add_object(parent, key);
	char name[32];

	rcl_node_add_int(s, "Active Slot", log->afi & 7);
	rcl_node_add_int(s, "Next Reset Slot", (log->afi >> 4) & 7);
	for (unsigned i = 0; i < slots && i < 7; i++) {
		snprintf(name, sizeof(name), "Slot %u", i + 1);
		if (log->frs[i][0])
			add_id_str(s, name, log->frs[i], sizeof(log->frs[i]));
		else
			rcl_node_add_str(s, name, "Empty");
	}
}
