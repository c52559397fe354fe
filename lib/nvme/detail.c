// SPDX-License-Identifier: MIT
/*
 * detail.c - what an NVMe drive answers, decoded into result nodes: its
 * identify controller and namespace data, SMART/health log, and the log
 * pages logs.c decodes from their raw bytes (error, firmware slot,
 * self-test, sanitize status, telemetry header, FDP); a page that cannot
 * be shown is one "Status" row saying why. Values are the drive's, in the units nvme-cli's
 * JSON gives them (counts, percentages, Kelvin beside Celsius), so a
 * script can check one tool against the other; tests/vm/test-nvme.py
 * keeps the table of raidcli keys and nvme-cli fields.
 */
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "nvme/logs.h"
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

void rcl_nvme_add_unavailable(struct rcl_node *parent, const char *key, const char *why)
{
	rcl_node_add_str(rcl_node_add_object(parent, key), "Status", why);
}

/* Section @key, or its row saying why @err kept the page from being decoded. */
static struct rcl_node *decoded(struct rcl_node *parent, const char *key, enum rcl_status st,
                                const struct rcl_error *err)
{
	if (!st)
		return rcl_node_add_object(parent, key);
	rcl_nvme_add_unavailable(parent, key, err->msg);
	return NULL;
}

static void add_error_entry(struct rcl_node *list, const struct rcl_nvme_error_entry *e)
{
	struct rcl_node *row = rcl_node_add_object(list, NULL);

	add_count(row, "Error Count", e->count);
	rcl_node_add_int(row, "Submission Queue Id", e->sqid);
	rcl_node_add_int(row, "Command Id", e->cmdid);
	/* As the drive keeps it: the phase tag in bit 0, the status above it. */
	rcl_node_add_strf(row, "Status Field", "0x%04x", e->status << 1 | e->phase);
	rcl_node_add_str(row, "Status", nvme_status_to_string((int)e->status, false));
	rcl_node_add_int(row, "Parameter Error Location", e->param_loc);
	add_count(row, "LBA", e->lba);
	add_count(row, "NSID", e->nsid);
	rcl_node_add_int(row, "Vendor Specific", e->vs);
	rcl_node_add_int(row, "Transport Type", e->trtype);
	add_count(row, "Command Specific", e->cmd_info);
	rcl_node_add_int(row, "Transport Type Specific", e->trtype_info);
}

void rcl_nvme_add_error_log(struct rcl_node *parent, const char *key, const void *page, size_t len)
{
	size_t max = len / RCL_NVME_ERROR_ENTRY_SIZE, count = 0, used = 0;
	struct rcl_nvme_error_entry *entries = rcl_calloc(max ? max : 1, sizeof(*entries));
	struct rcl_error err = {0};
	struct rcl_node *s, *list = NULL;
	enum rcl_status st;

	st = entries ? rcl_nvme_error_log_decode(page, len, entries, max, &count, &err)
	             : rcl_fail(&err, RCL_NOMEM, "out of memory");
	s = decoded(parent, key, st, &err);
	for (size_t i = 0; s && i < count; i++)
		used += entries[i].count != 0;
	if (s)
		rcl_node_add_int(s, "Entries", (long long)used);
	for (size_t i = 0; s && i < count; i++) {
		if (!entries[i].count)
			continue;
		if (!list)
			list = rcl_node_add_array(s, "Errors");
		add_error_entry(list, &entries[i]);
	}
	rcl_free(entries);
}

void rcl_nvme_add_fw_slots(struct rcl_node *parent, const char *key, const void *page, size_t len,
                           unsigned slots)
{
	struct rcl_nvme_fw_slots fw;
	struct rcl_error err = {0};
	struct rcl_node *s =
	    decoded(parent, key, rcl_nvme_fw_slots_decode(page, len, &fw, &err), &err);
	char name[32];

	if (!s)
		return;
	rcl_node_add_int(s, "Active Slot", fw.active);
	rcl_node_add_int(s, "Next Reset Slot", fw.next);
	for (unsigned i = 0; i < slots && i < RCL_NVME_FW_SLOTS; i++) {
		snprintf(name, sizeof(name), "Slot %u", i + 1);
		rcl_node_add_str(s, name, fw.revision[i][0] ? fw.revision[i] : "Empty");
	}
}

/* A self-test's code (STC, the log's "Self-test Code") by name. */
static const char *self_test_name(unsigned code)
{
	switch (code) {
	case 0:
		return "None";
	case NVME_ST_CODE_SHORT:
		return "Short";
	case NVME_ST_CODE_EXTENDED:
		return "Extended";
	case NVME_ST_CODE_VS:
		return "Vendor Specific";
	default:
		return "Reserved";
	}
}

/* The results of a self-test (the log's Self-test Result), as the specification names them. */
static const char *const self_test_results[] = {
    "Completed without error",
    "Aborted by a Device Self-test command",
    "Aborted by a Controller Level Reset",
    "Aborted by a namespace removal",
    "Aborted by a Format NVM command",
    "Fatal or unknown test error",
    "Completed with a failed segment (which one is not known)",
    "Completed with one or more failed segments",
    "Aborted for an unknown reason",
    "Aborted by a sanitize operation",
};

static void add_self_test_result(struct rcl_node *list, const struct rcl_nvme_self_test_result *r)
{
	struct rcl_node *row = rcl_node_add_object(list, NULL);
	size_t names = sizeof(self_test_results) / sizeof(self_test_results[0]);

	rcl_node_add_str(row, "Test", self_test_name(r->code));
	rcl_node_add_int(row, "Result Code", r->result);
	rcl_node_add_str(row, "Result",
	                 r->result < names ? self_test_results[r->result] : "Reserved");
	if (r->result == NVME_ST_RESULT_KNOWN_SEG_FAIL)
		rcl_node_add_int(row, "Failed Segment", r->segment);
	add_count(row, "Power On Hours", r->poh);
	if (r->has_nsid)
		add_count(row, "NSID", r->nsid);
	if (r->has_flba)
		add_count(row, "Failing LBA", r->flba);
	if (r->has_status)
		rcl_node_add_str(row, "Status",
		                 nvme_status_to_string((int)(r->sct << 8 | r->sc), false));
}

void rcl_nvme_add_self_test(struct rcl_node *parent, const char *key, const void *page, size_t len)
{
	struct rcl_nvme_self_test_log log;
	struct rcl_error err = {0};
	struct rcl_node *s =
	    decoded(parent, key, rcl_nvme_self_test_decode(page, len, &log, &err), &err);
	struct rcl_node *list;

	if (!s)
		return;
	rcl_node_add_str(s, "Current Operation", self_test_name(log.current));
	add_percent(s, "Current Completion", log.current ? log.percent : 0);
	rcl_node_add_int(s, "Results", (long long)log.count);
	if (!log.count)
		return;
	list = rcl_node_add_array(s, "Newest Results");
	rcl_node_set_flags(list, RCL_NODE_BLOCKS);
	for (size_t i = 0; i < log.count; i++)
		add_self_test_result(list, &log.results[i]);
}

static const char *const sanitize_states[] = {
    [RCL_NVME_SANITIZE_NEVER] = "Never sanitized",
    [RCL_NVME_SANITIZE_DONE] = "Completed successfully",
    [RCL_NVME_SANITIZE_RUNNING] = "In progress",
    [RCL_NVME_SANITIZE_FAILED] = "Failed",
    [RCL_NVME_SANITIZE_DONE_NO_DEALLOC] = "Completed successfully without deallocation",
};

/* An estimated time in seconds, where the drive reports one. */
static void add_estimate(struct rcl_node *obj, const char *key, uint32_t seconds)
{
	if (seconds == UINT32_MAX)
		rcl_node_add_str(obj, key, "Not Reported");
	else
		rcl_node_add_strf(obj, key, "%u s", seconds);
}

void rcl_nvme_add_sanitize(struct rcl_node *parent, const char *key, const void *page, size_t len)
{
	struct rcl_nvme_sanitize_log log;
	struct rcl_error err = {0};
	struct rcl_node *s =
	    decoded(parent, key, rcl_nvme_sanitize_decode(page, len, &log, &err), &err);

	if (!s)
		return;
	rcl_node_add_int(s, "Sanitize Status (SSTAT)", log.state);
	rcl_node_add_str(s, "Sanitize Status", sanitize_states[log.state]);
	add_percent(s, "Sanitize Progress (SPROG)", log.percent);
	rcl_node_add_int(s, "Overwrite Passes Completed", log.passes);
	add_yes_no(s, "Global Data Erased", log.global_erased);
	rcl_node_add_strf(s, "Last Sanitize Command (CDW10)", "0x%08x", log.cdw10);
	add_estimate(s, "Estimated Time for Overwrite", log.eto);
	add_estimate(s, "Estimated Time for Block Erase", log.etbe);
	add_estimate(s, "Estimated Time for Crypto Erase", log.etce);
}

void rcl_nvme_add_telemetry(struct rcl_node *parent, const char *key, const void *page, size_t len)
{
	struct rcl_nvme_telemetry t;
	struct rcl_error err = {0};
	struct rcl_node *s =
	    decoded(parent, key, rcl_nvme_telemetry_decode(page, len, &t, &err), &err);
	char name[48];

	if (!s)
		return;
	rcl_node_add_str(s, "Host-Initiated", "Supported");
	rcl_node_add_str(s, "Controller-Initiated", "Supported");
	add_yes_no(s, "Controller-Initiated Data Available", t.ctrl_available);
	rcl_node_add_int(s, "Host-Initiated Data Generation", t.generation);
	if (!t.last_block[2] && !t.last_block[3]) {
		rcl_node_add_str(s, "Host-Initiated Data", "None captured");
		return;
	}
	/* Block 0 is the header: area N spans the blocks after area N-1's last. */
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "Data Area %d Size", i + 1);
		if (i < 3 || t.last_block[3])
			rcl_node_add_size(
			    s, name,
			    (uint64_t)(t.last_block[i] - (i ? t.last_block[i - 1] : 0)) *
			        RCL_NVME_TELEMETRY_BLOCK);
	}
}

/* A 128-bit byte count, saturated (the node's integers are signed 64-bit). */
static void add_u128(struct rcl_node *obj, const char *key, struct rcl_nvme_u128 v)
{
	add_count(obj, key, v.hi ? UINT64_MAX : v.lo);
}

static void add_fdp_config(struct rcl_node *list, const struct rcl_nvme_fdp_config *c)
{
	struct rcl_node *row = rcl_node_add_object(list, NULL);

	add_yes_no(row, "Valid", c->valid);
	add_yes_no(row, "Volatile Write Cache", c->vwc);
	add_count(row, "Reclaim Groups", c->groups);
	rcl_node_add_int(row, "Reclaim Unit Handles", c->handles);
	rcl_node_add_int(row, "Max Placement Identifiers", c->max_pids);
	add_count(row, "Max Namespaces", c->max_namespaces);
	add_count(row, "Reclaim Unit Nominal Size", c->unit_bytes);
	add_count(row, "Reclaim Unit Time Limit", c->time_limit);
}

/* The handle usage as counts: handles unused, used by the host, by the controller. */
static void add_ruh_usage(struct rcl_node *s, const struct rcl_nvme_ruh_usage *u)
{
	size_t by[3] = {0};

	for (size_t i = 0; i < u->count; i++)
		if (u->use[i] < 3)
			by[u->use[i]]++;
	rcl_node_add_int(s, "Reclaim Unit Handles", (long long)u->count);
	rcl_node_add_int(s, "Handles Unused", (long long)by[RCL_NVME_RUH_UNUSED]);
	rcl_node_add_int(s, "Handles Used by the Host", (long long)by[RCL_NVME_RUH_HOST]);
	rcl_node_add_int(s, "Handles Used by the Controller",
	                 (long long)by[RCL_NVME_RUH_CONTROLLER]);
}

void rcl_nvme_add_fdp(struct rcl_node *parent, const char *key, const void *configs,
                      size_t configs_len, const void *usage, size_t usage_len, const void *stats,
                      size_t stats_len)
{
	struct rcl_nvme_fdp_configs c = {0};
	struct rcl_nvme_ruh_usage u = {0};
	struct rcl_nvme_fdp_stats f;
	struct rcl_error err = {0};
	struct rcl_node *s, *list;
	enum rcl_status st = rcl_nvme_fdp_configs_decode(configs, configs_len, &c, &err);

	if (!st)
		st = rcl_nvme_ruh_usage_decode(usage, usage_len, &u, &err);
	if (!st)
		st = rcl_nvme_fdp_stats_decode(stats, stats_len, &f, &err);
	s = decoded(parent, key, st, &err);
	if (s) {
		rcl_node_add_int(s, "Configurations", (long long)c.count);
		list = rcl_node_add_array(s, "FDP Configurations");
		rcl_node_set_flags(list, RCL_NODE_BLOCKS);
		for (size_t i = 0; i < c.count; i++)
			add_fdp_config(list, &c.configs[i]);
		add_ruh_usage(s, &u);
		add_u128(s, "Host Bytes with Metadata Written", f.host_written);
		add_u128(s, "Media Bytes with Metadata Written", f.media_written);
		add_u128(s, "Media Bytes Erased", f.media_erased);
	}
	rcl_nvme_fdp_configs_release(&c);
	rcl_free(u.use);
}
