// SPDX-License-Identifier: MIT
/*
 * test-nvme.c - the nvme backend without a device: which slot each drive
 * gets and keeps (slots.c), how what a drive answers is decoded into the
 * result (detail.c), how a drive's error becomes a message, that a
 * host without NVMe shows no nvme controller, and what the nvme
 * controller registered there is named (its serial, its exports), and
 * that a foreign import's check of the drives it holds opens it once. What
 * a real drive answers is checked against nvme-cli in the VM
 * (tests/vm/test-nvme.py).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvme/nvme.h"
#include "soft/service/export.h"
#include "unit.h"

/* A drive found by the scan, with identity "nqn.test <serial> 1". */
static struct rcl_nvme_dev dev_named(const char *name, const char *serial)
{
	struct rcl_nvme_dev d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	snprintf(d.serial, sizeof(d.serial), "%s", serial);
	snprintf(d.model, sizeof(d.model), "QEMU NVMe Ctrl");
	snprintf(d.id, sizeof(d.id), "nqn.test %s 1", serial);
	return d;
}

/* The slot remembered for @serial, or -1. */
static int slot_of(const struct rcl_nvme_slot *slots, size_t count, const char *serial)
{
	for (size_t i = 0; i < count; i++)
		if (!strcmp(slots[i].serial, serial))
			return (int)slots[i].slot;
	return -1;
}

/* Assign @n drives against @slots, checking it succeeds; whether the state changed. */
static bool assign(struct rcl_nvme_slot **slots, size_t *count, const struct rcl_nvme_dev *devs,
                   size_t n)
{
	struct rcl_error err = {0};
	bool changed;

	ck_assert_msg(rcl_nvme_slots_assign(slots, count, devs, n, &changed, &err) == RCL_OK, "%s",
	              err.msg);
	return changed;
}

/* Write @slots to JSON and read them back, as the next command would. */
static void reread(struct rcl_nvme_slot **slots, size_t *count)
{
	json_object *root = rcl_nvme_slots_json(*slots, *count);
	struct rcl_error err = {0};

	ck_assert_ptr_nonnull(root);
	rcl_free(*slots);
	ck_assert_msg(rcl_nvme_slots_read(root, "nvme/host.json", slots, count, &err) == RCL_OK,
	              "%s", err.msg);
	json_object_put(root);
}

START_TEST(test_slots_stay_with_their_drives)
{
	struct rcl_nvme_dev first[] = {dev_named("nvme0", "A"), dev_named("nvme1", "B"),
	                               dev_named("nvme2", "C")};
	/* After a reboot B is gone, the kernel numbered the others anew, and D came. */
	struct rcl_nvme_dev later[] = {dev_named("nvme0", "C"), dev_named("nvme1", "D"),
	                               dev_named("nvme2", "A")};
	struct rcl_nvme_slot *slots = NULL;
	size_t count = 0;

	ck_assert(assign(&slots, &count, first, 3));
	ck_assert_int_eq(slot_of(slots, count, "A"), 0);
	ck_assert_int_eq(slot_of(slots, count, "B"), 1);
	ck_assert_int_eq(slot_of(slots, count, "C"), 2);
	reread(&slots, &count);
	ck_assert(!assign(&slots, &count, first, 3)); /* nothing new: nothing to write */

	ck_assert(assign(&slots, &count, later, 3));
	ck_assert_uint_eq(count, 4);
	ck_assert_int_eq(slot_of(slots, count, "A"), 0);
	ck_assert_int_eq(slot_of(slots, count, "C"), 2);
	/* B's slot waits for B (shown missing): D takes the next one never used. */
	ck_assert_int_eq(slot_of(slots, count, "B"), 1);
	ck_assert_int_eq(slots[1].dev, -1);
	ck_assert_int_eq(slot_of(slots, count, "D"), 3);
	ck_assert_int_eq(slots[3].dev, 1);
	ck_assert_int_eq(slots[0].dev, 2);

	/* B comes back, in any order: it is in slot 1 again. */
	reread(&slots, &count);
	ck_assert(!assign(&slots, &count, (struct rcl_nvme_dev[]){dev_named("nvme5", "B")}, 1));
	ck_assert_int_eq(slots[1].dev, 0);
	ck_assert_int_eq(slots[0].dev, -1);
	rcl_free(slots);
}
END_TEST

START_TEST(test_damaged_slots_name_the_file)
{
	const char *bad[] = {
	    "{\"format\": 2, \"slots\": []}",
	    "{\"format\": 1}",
	    "{\"format\": 1, \"slots\": [{\"slot\": 0}]}",
	    "{\"format\": 1, \"slots\": [{\"slot\": 999, \"id\": \"x\"}]}",
	    "{\"format\": 1, \"slots\": [{\"slot\": 0, \"id\": \"x\"}, {\"slot\": 1, \"id\": "
	    "\"x\"}]}",
	    "{\"format\": 1, \"slots\": [{\"slot\": 0, \"id\": \"x\"}, {\"slot\": 0, \"id\": "
	    "\"y\"}]}",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_object *root = json_tokener_parse(bad[i]);
		struct rcl_nvme_slot *slots = NULL;
		struct rcl_error err = {0};
		size_t count = 0;

		ck_assert_ptr_nonnull(root);
		ck_assert_int_eq(
		    rcl_nvme_slots_read(root, "/state/nvme/host.json", &slots, &count, &err),
		    RCL_CORRUPT);
		ck_assert_msg(strstr(err.msg, "/state/nvme/host.json"), "%s", err.msg);
		ck_assert_ptr_null(slots);
		json_object_put(root);
	}
}
END_TEST

/* The value of @key in object @obj, which must be there. */
static const struct rcl_node *field(const struct rcl_node *obj, const char *key)
{
	const struct rcl_node *n = rcl_node_find(obj, key);

	ck_assert_msg(n != NULL, "no key '%s'", key);
	return n;
}

static void str_is(const struct rcl_node *obj, const char *key, const char *want)
{
	ck_assert_str_eq(rcl_node_str(field(obj, key)), want);
}

static void int_is(const struct rcl_node *obj, const char *key, long long want)
{
	ck_assert_int_eq(rcl_node_int(field(obj, key)), want);
}

START_TEST(test_smart_log_decoded)
{
	struct rcl_node *root = rcl_node_new_object();
	struct nvme_smart_log log;
	const struct rcl_node *s;

	memset(&log, 0, sizeof(log));
	log.critical_warning = NVME_SMART_CRIT_SPARE | NVME_SMART_CRIT_DEGRADED;
	log.temperature[0] = 323 & 0xff;
	log.temperature[1] = 323 >> 8;
	log.avail_spare = 4;
	log.spare_thresh = 10;
	log.percent_used = 3;
	unit_put_le(log.data_units_read, 1234567, 8);
	unit_put_le(log.data_units_written, 89, 8);
	unit_put_le(log.host_reads, 5000, 8);
	log.power_on_hours[8] = 1; /* past 2^64: shown as the most a counter holds */
	unit_put_le(log.power_cycles, 17, 8);
	unit_put_le(log.unsafe_shutdowns, 2, 8);
	unit_put_le(log.media_errors, 6, 8);
	unit_put_le(log.num_err_log_entries, 9, 8);
	log.warning_temp_time = htole32(11);
	log.critical_comp_time = htole32(12);
	log.temp_sensor[1] = htole16(300);

	rcl_nvme_add_smart(root, "Drive /c0/e252/s0 SMART/Health Information", &log);
	ck_assert(!rcl_node_oom(root));
	s = field(root, "Drive /c0/e252/s0 SMART/Health Information");
	int_is(s, "Critical Warning", 5);
	str_is(s, "Critical Warnings", "Available Spare Below Threshold, Reliability Degraded");
	str_is(s, "Available Spare Below Threshold", "Yes");
	str_is(s, "Temperature Threshold Exceeded", "No");
	str_is(s, "Reliability Degraded", "Yes");
	str_is(s, "Composite Temperature", "50C (323 Kelvin)");
	str_is(s, "Available Spare", "4%");
	str_is(s, "Available Spare Threshold", "10%");
	str_is(s, "Percentage Used", "3%");
	int_is(s, "Data Units Read", 1234567);
	int_is(s, "Data Units Written", 89);
	int_is(s, "Host Read Commands", 5000);
	int_is(s, "Power Cycles", 17);
	int_is(s, "Power On Hours", INT64_MAX);
	int_is(s, "Unsafe Shutdowns", 2);
	int_is(s, "Media and Data Integrity Errors", 6);
	int_is(s, "Error Information Log Entries", 9);
	int_is(s, "Warning Temperature Time", 11);
	int_is(s, "Critical Composite Temperature Time", 12);
	/* Sensors reading 0 are absent, as nvme-cli leaves them out. */
	ck_assert_ptr_null(rcl_node_find(s, "Temperature Sensor 1"));
	str_is(s, "Temperature Sensor 2", "27C (300 Kelvin)");
	rcl_node_free(root);
}
END_TEST

START_TEST(test_critical_warning_names)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_nvme_critical_warning(&sb, 0);
	ck_assert_str_eq(sb.buf, "None");
	rcl_buf_reset(&sb);
	rcl_nvme_critical_warning(&sb, 0x88);
	ck_assert_str_eq(sb.buf, "Media Read Only, reserved bits 0x80");
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_namespace_lba_formats)
{
	struct rcl_nvme_ns ns = {
	    .nsid = 2, .name = "nvme1n2", .lba_count = 262144, .lba_size = 4096};
	struct rcl_node *list = rcl_node_new_array();
	const struct rcl_node *row, *lbafs;
	const unsigned metadata[] = {0, 8, 16, 64};
	struct nvme_id_ns id;

	memset(&id, 0, sizeof(id));
	id.nsze = id.ncap = htole64(262144);
	id.nuse = htole64(100);
	id.nlbaf =
	    7; /* 8 formats, as QEMU offers: 512 and 4096 with 0, 8, 16, 64 bytes of metadata */
	id.flbas = 4;
	for (int i = 0; i < 8; i++) {
		id.lbaf[i].ds = i < 4 ? 9 : 12;
		id.lbaf[i].ms = htole16(metadata[i % 4]);
	}
	rcl_nvme_add_namespace(list, &ns, &id);
	row = rcl_node_child(list, 0);
	int_is(row, "NSID", 2);
	str_is(row, "Block Device", "nvme1n2");
	str_is(row, "Size", "1.000 GB");
	int_is(row, "Logical Sector Size", 4096);
	str_is(row, "In Use", "No");
	int_is(row, "Namespace Size", 262144);
	int_is(row, "Namespace Utilization", 100);
	int_is(row, "LBA Format In Use", 4);
	lbafs = field(row, "LBA Formats");
	ck_assert_uint_eq(rcl_node_count(lbafs), 8);
	int_is(rcl_node_child(lbafs, 0), "Data Size", 512);
	str_is(rcl_node_child(lbafs, 0), "In Use", "No");
	int_is(rcl_node_child(lbafs, 4), "Data Size", 4096);
	str_is(rcl_node_child(lbafs, 4), "In Use", "Yes");
	int_is(rcl_node_child(lbafs, 7), "Metadata Size", 64);
	rcl_node_free(list);
}
END_TEST

/* Little-endian @v into @n bytes at @p, as a drive writes a log page. */
static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* The one "Status" row of section @key that could not be shown, containing @want. */
static void status_has(const struct rcl_node *root, const char *key, const char *want)
{
	const struct rcl_node *s = field(root, key);
	const char *got = rcl_node_str(field(s, "Status"));

	ck_assert_uint_eq(rcl_node_count(s), 1);
	ck_assert_msg(strstr(got, want), "%s: '%s' lacks '%s'", key, got, want);
}

START_TEST(test_error_log_keeps_errors_only)
{
	uint8_t page[4 * 64];
	struct rcl_node *root = rcl_node_new_object();
	const struct rcl_node *s, *row;

	memset(page, 0, sizeof(page));
	put_le(page + 64, 7, 8);     /* entry 1: error count */
	put_le(page + 64 + 8, 1, 2); /* SQID */
	put_le(page + 64 + 10, 0x12, 2);
	/* Invalid Field in Command (SCT 0, SC 0x02), shifted past the phase tag (set). */
	put_le(page + 64 + 12, 0x02 << 1 | 1, 2);
	put_le(page + 64 + 24, 1, 4);
	rcl_nvme_add_error_log(root, "Error Log", page, sizeof(page));
	s = field(root, "Error Log");
	int_is(s, "Entries", 1);
	row = rcl_node_child(field(s, "Errors"), 0);
	int_is(row, "Error Count", 7);
	int_is(row, "Submission Queue Id", 1);
	int_is(row, "Command Id", 0x12);
	int_is(row, "NSID", 1);
	str_is(row, "Status Field", "0x0005");
	ck_assert_msg(strstr(rcl_node_str(field(row, "Status")), "Invalid Field"), "%s",
	              rcl_node_str(field(row, "Status")));

	/* QEMU's log: every entry zero, so no table. */
	memset(page, 0, sizeof(page));
	rcl_nvme_add_error_log(root, "Empty", page, sizeof(page));
	int_is(field(root, "Empty"), "Entries", 0);
	ck_assert_ptr_null(rcl_node_find(field(root, "Empty"), "Errors"));

	/* Not a whole number of entries: the reason, not a table. */
	rcl_nvme_add_error_log(root, "Short", page, 100);
	status_has(root, "Short", "100 bytes, not a whole number of 64-byte entries");
	rcl_node_free(root);
}
END_TEST

START_TEST(test_firmware_slots)
{
	uint8_t page[512];
	struct rcl_node *root = rcl_node_new_object();
	const struct rcl_node *s;

	memset(page, 0, sizeof(page));
	page[0] = 0x21; /* AFI: slot 1 active, slot 2 after the next reset */
	memcpy(page + 8, "1.0     ", 8);
	memcpy(page + 16, "2.0ABCDE", 8);
	rcl_nvme_add_fw_slots(root, "Firmware Slots", page, sizeof(page), 3);
	s = field(root, "Firmware Slots");
	int_is(s, "Active Slot", 1);
	int_is(s, "Next Reset Slot", 2);
	str_is(s, "Slot 1", "1.0"); /* without the padding */
	str_is(s, "Slot 2", "2.0ABCDE");
	str_is(s, "Slot 3", "Empty");
	ck_assert_ptr_null(rcl_node_find(s, "Slot 4"));

	rcl_nvme_add_fw_slots(root, "Short", page, 64, 3);
	status_has(root, "Short", "firmware slot log is 64 bytes, short of the 512");
	page[0] = 0x20; /* no active slot: not a page a drive can send */
	rcl_nvme_add_fw_slots(root, "Garbled", page, sizeof(page), 3);
	status_has(root, "Garbled", "names no active slot");
	rcl_node_free(root);
}
END_TEST

START_TEST(test_self_test_log)
{
	uint8_t page[564];
	struct rcl_node *root = rcl_node_new_object();
	const struct rcl_node *s, *list, *row;

	memset(page, 0, sizeof(page));
	page[0] = 2;  /* an extended test runs */
	page[1] = 40; /* 40 % done */
	for (int i = 0; i < 20; i++)
		page[4 + 28 * i] = 0xf; /* entry not used */
	/* Newest: a short test failed at segment 3, on nsid 1 LBA 0x1000, Unrecovered Read. */
	page[4] = 0x1 << 4 | 7;
	page[5] = 3;
	page[6] = 0xf; /* NSID, FLBA, SCT and SC valid */
	put_le(page + 8, 1234, 8);
	put_le(page + 16, 1, 4);
	put_le(page + 20, 0x1000, 8);
	page[28] = 2;    /* media and data integrity */
	page[29] = 0x81; /* Unrecovered Read Error */
	/* Older: an extended test completed. */
	page[32] = 0x2 << 4 | 0;
	put_le(page + 36, 1000, 8);
	rcl_nvme_add_self_test(root, "Self-test Log", page, sizeof(page));
	s = field(root, "Self-test Log");
	str_is(s, "Current Operation", "Extended");
	str_is(s, "Current Completion", "40%");
	int_is(s, "Results", 2);
	list = field(s, "Newest Results");
	row = rcl_node_child(list, 0);
	str_is(row, "Test", "Short");
	int_is(row, "Result Code", 7);
	str_is(row, "Result", "Completed with one or more failed segments");
	int_is(row, "Failed Segment", 3);
	int_is(row, "Power On Hours", 1234);
	int_is(row, "NSID", 1);
	int_is(row, "Failing LBA", 0x1000);
	ck_assert_msg(strstr(rcl_node_str(field(row, "Status")), "Unrecovered Read"), "%s",
	              rcl_node_str(field(row, "Status")));
	row = rcl_node_child(list, 1);
	str_is(row, "Test", "Extended");
	str_is(row, "Result", "Completed without error");
	ck_assert_ptr_null(rcl_node_find(row, "Failed Segment"));
	ck_assert_ptr_null(rcl_node_find(row, "Status"));

	rcl_nvme_add_self_test(root, "Short", page, 512);
	status_has(root, "Short", "self-test log is 512 bytes, short of the 564");
	page[1] = 101;
	rcl_nvme_add_self_test(root, "Garbled", page, sizeof(page));
	status_has(root, "Garbled", "101 % of its test is done");
	rcl_node_free(root);
}
END_TEST

START_TEST(test_sanitize_status)
{
	uint8_t page[512];
	struct rcl_node *root = rcl_node_new_object();
	const struct rcl_node *s;

	memset(page, 0, sizeof(page));
	put_le(page, 0x8000, 2);         /* SPROG: half */
	put_le(page + 2, 2 | 1 << 8, 2); /* running, global data erased */
	put_le(page + 4, 0x00000204, 4); /* the command: crypto erase */
	put_le(page + 8, 0xffffffff, 4); /* no overwrite estimate */
	put_le(page + 12, 60, 4);
	put_le(page + 16, 5, 4);
	rcl_nvme_add_sanitize(root, "Sanitize Status", page, sizeof(page));
	s = field(root, "Sanitize Status");
	int_is(s, "Sanitize Status (SSTAT)", 2);
	str_is(s, "Sanitize Status", "In progress");
	str_is(s, "Sanitize Progress (SPROG)", "50%");
	str_is(s, "Global Data Erased", "Yes");
	str_is(s, "Last Sanitize Command (CDW10)", "0x00000204");
	str_is(s, "Estimated Time for Overwrite", "Not Reported");
	str_is(s, "Estimated Time for Block Erase", "60 s");
	str_is(s, "Estimated Time for Crypto Erase", "5 s");

	rcl_nvme_add_sanitize(root, "Short", page, 20);
	status_has(root, "Short", "sanitize status log is 20 bytes, short of the 512");
	page[2] = 7; /* a reserved status */
	rcl_nvme_add_sanitize(root, "Garbled", page, sizeof(page));
	status_has(root, "Garbled", "reserved status (7)");
	rcl_node_free(root);
}
END_TEST

START_TEST(test_telemetry_header)
{
	uint8_t page[512];
	struct rcl_node *root = rcl_node_new_object();
	const struct rcl_node *s;

	memset(page, 0, sizeof(page));
	page[0] = NVME_LOG_LID_TELEMETRY_HOST;
	rcl_nvme_add_telemetry(root, "None", page, sizeof(page));
	s = field(root, "None");
	str_is(s, "Host-Initiated", "Supported");
	str_is(s, "Controller-Initiated Data Available", "No");
	str_is(s, "Host-Initiated Data", "None captured");
	ck_assert_ptr_null(rcl_node_find(s, "Data Area 1 Size"));

	put_le(page + 8, 2, 2);  /* area 1: blocks 1-2 */
	put_le(page + 10, 6, 2); /* area 2: blocks 3-6 */
	put_le(page + 12, 6, 2); /* area 3: empty */
	page[381] = 3;
	page[382] = 1;
	rcl_nvme_add_telemetry(root, "Telemetry", page, sizeof(page));
	s = field(root, "Telemetry");
	str_is(s, "Controller-Initiated Data Available", "Yes");
	int_is(s, "Host-Initiated Data Generation", 3);
	str_is(s, "Data Area 1 Size", "1.000 KB");
	str_is(s, "Data Area 2 Size", "2.000 KB");
	str_is(s, "Data Area 3 Size", "0 KB");
	ck_assert_ptr_null(rcl_node_find(s, "Data Area 4 Size"));

	rcl_nvme_add_telemetry(root, "Short", page, 500);
	status_has(root, "Short", "telemetry header is 500 bytes, short of the 512");
	put_le(page + 12, 4, 2); /* area 3 ends before area 2 */
	rcl_nvme_add_telemetry(root, "Garbled", page, sizeof(page));
	status_has(root, "Garbled", "ends data area 3 at block 4, before area 2");
	rcl_node_free(root);
}
END_TEST

START_TEST(test_fdp)
{
	uint8_t configs[88], usage[24], stats[64];
	struct rcl_node *root = rcl_node_new_object();
	const struct rcl_node *s, *row;

	memset(configs, 0, sizeof(configs));
	put_le(configs + 4, sizeof(configs), 4); /* one configuration (NUMFDPC 0) */
	put_le(configs + 16, 72, 2);             /* its descriptor: 64 bytes, 2 handles */
	configs[18] = 0x80;                      /* valid */
	put_le(configs + 20, 1, 4);              /* NRG */
	put_le(configs + 24, 2, 2);              /* NRUH */
	put_le(configs + 26, 1, 2);              /* MAXPIDS, 0-based */
	put_le(configs + 28, 1, 4);              /* NNSS */
	put_le(configs + 32, 1 << 20, 8);        /* RUNS */
	memset(usage, 0, sizeof(usage));
	put_le(usage, 2, 2);
	usage[8] = 1;  /* handle 0: the host's */
	usage[16] = 2; /* handle 1: the controller's */
	memset(stats, 0, sizeof(stats));
	put_le(stats, 4096, 8);
	put_le(stats + 16, 8192, 8);
	rcl_nvme_add_fdp(root, "FDP", configs, sizeof(configs), usage, sizeof(usage), stats,
	                 sizeof(stats));
	s = field(root, "FDP");
	int_is(s, "Configurations", 1);
	row = rcl_node_child(field(s, "FDP Configurations"), 0);
	str_is(row, "Valid", "Yes");
	int_is(row, "Reclaim Groups", 1);
	int_is(row, "Reclaim Unit Handles", 2);
	int_is(row, "Max Placement Identifiers", 2);
	int_is(row, "Reclaim Unit Nominal Size", 1 << 20);
	int_is(s, "Handles Used by the Host", 1);
	int_is(s, "Handles Used by the Controller", 1);
	int_is(s, "Handles Unused", 0);
	int_is(s, "Host Bytes with Metadata Written", 4096);
	int_is(s, "Media Bytes with Metadata Written", 8192);
	int_is(s, "Media Bytes Erased", 0);

	rcl_nvme_add_fdp(root, "Short", configs, sizeof(configs), usage, sizeof(usage), stats, 32);
	status_has(root, "Short", "FDP statistics log is 32 bytes, short of the 64");
	put_le(configs + 4, 200, 4);
	rcl_nvme_add_fdp(root, "Garbled", configs, sizeof(configs), usage, sizeof(usage), stats,
	                 sizeof(stats));
	status_has(root, "Garbled", "says it is 200 bytes, but 88 came");
	rcl_node_free(root);
}
END_TEST

/* This host (and CI) has no NVMe: no nvme controller, and "show smart" is refused. */
START_TEST(test_host_without_nvme)
{
	struct unit_state st;
	enum rcl_status status;
	struct rcl_ctx *ctx;
	const unsigned *ids;
	char *out;

	if (rcl_nvme_present())
		return; /* a host with NVMe: the VM test covers it */
	unit_state_enter(&st, NULL);
	ctx = unit_ctx_new(st.dir);
	ck_assert_uint_eq(rcl_ctx_ctrl_ids(ctx, &ids), 0);
	unit_soft_create(ctx, 1, 64 << 20);
	rcl_ctx_free(ctx);
	out = unit_run("/c0/e252/s0 show smart", false, &status);
	ck_assert_int_eq(status, RCL_HW_MISSING);
	ck_assert_msg(strstr(out, "drive health logs") && strstr(out, "(soft)"), "%s", out);
	free(out);
	unit_state_leave(&st);
}
END_TEST

/*
 * The state of a host without NVMe (as this one, and CI) whose registry
 * has the nvme controller /c0: whether it is such a host (a host with
 * NVMe: the VM tests cover it, and @st is not entered).
 */
static bool nvme_host_enter(struct unit_state *st)
{
	char *path;

	if (rcl_nvme_present())
		return false;
	unit_state_enter(st, NULL);
	path = unit_path(st->dir, "registry.json");
	unit_write(path, "{\"format\": 1, \"controllers\": [{\"id\": 0, \"backend\": \"nvme\", "
	                 "\"key\": \"host\"}]}");
	free(path);
	return true;
}

/* The engine's serial, as the nvme kind keeps it in <state>/nvme/host-raid.json. */
static char *engine_serial(const char *dir)
{
	char *path = unit_path(dir, "nvme/host-raid.json");
	char *text = unit_read(path);
	json_object *root = text ? json_tokener_parse(text) : NULL, *serial;
	char *out;

	ck_assert_msg(root && json_object_object_get_ex(root, "serial", &serial), "%s: %s", path,
	              text ? text : "unreadable");
	out = strdup(json_object_get_string(serial));
	json_object_put(root);
	free(text);
	free(path);
	return out;
}

/*
 * The names of the nvme kind's exports: the engine it hosts names them as
 * it names them on a soft controller, after its own controller serial
 * ("RCLC…-v0"), never after the host's name, which is "(none)" in a VM
 * where none is set; and the controller shows that serial as its own, the
 * same each time it is opened. The nvme controller here has no drive
 * present: its engine loads all the same.
 */
START_TEST(test_export_named_by_engine)
{
	struct rcl_error err = {0};
	struct unit_state st;
	struct rcl_ctrl *ctrl;
	struct rcl_ctx *ctx;
	char *serial, name[128], want[128];

	if (!nvme_host_enter(&st))
		return;
	ctx = unit_ctx_new(st.dir);
	ck_assert_msg(!rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err), "%s", err.msg);
	serial = engine_serial(st.dir);
	ck_assert_msg(!strncmp(serial, "RCLC", 4), "%s", serial);
	rcl_soft_export_name(ctrl, 0, name, sizeof(name));
	snprintf(want, sizeof(want), "%s-v0", serial);
	ck_assert_str_eq(name, want);
	ck_assert_str_eq(rcl_ctrl_info(ctrl)->serial, serial);
	rcl_ctrl_close(ctrl);
	ck_assert_msg(!rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err), "%s", err.msg);
	ck_assert_str_eq(rcl_ctrl_info(ctrl)->serial, serial);
	free(serial);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	unit_state_leave(&st);
}
END_TEST

/*
 * A host whose NVMe drives were all pulled: its nvme controller stays,
 * each drive Msng in the slot it had, with the serial and model it had.
 */
START_TEST(test_vanished_drives_stay_missing)
{
	struct unit_state st;
	enum rcl_status status;
	char *dir, *path, *out;

	if (!nvme_host_enter(&st))
		return;
	dir = unit_path(st.dir, "nvme");
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	path = unit_path(dir, "host.json");
	unit_write(path,
	           "{\"format\": 1, \"slots\": [{\"slot\": 0, \"id\": \"nqn.a S0 1\", "
	           "\"serial\": \"S0\", \"model\": \"QEMU NVMe Ctrl\"}, {\"slot\": 2, \"id\": "
	           "\"nqn.a S2 2\", \"serial\": \"S2\", \"model\": \"QEMU NVMe Ctrl\"}]}");
	free(path);
	out = unit_run("/c0/eall/sall show", false, &status);
	ck_assert_int_eq(status, RCL_OK);
	ck_assert_msg(strstr(out, "252:0") && strstr(out, "252:2") && strstr(out, "Msng") &&
	                  !strstr(out, "252:1 "),
	              "%s", out);
	free(out);
	out = unit_run("/c0/e252/s2 show all", false, &status);
	ck_assert_int_eq(status, RCL_OK);
	ck_assert_msg(strstr(out, "SN = S2") && strstr(out, "Model Number = QEMU NVMe Ctrl"), "%s",
	              out);
	free(out);
	out = unit_run("/c0 show all", true, &status);
	ck_assert_int_eq(status, RCL_OK);
	ck_assert_msg(strstr(out, "\"nvme\""), "%s", out);
	free(out);
	out = unit_run("/c0/eall/sall show smart", false, &status);
	ck_assert_int_eq(status, RCL_NOT_FOUND);
	free(out);
	free(dir);
	unit_state_leave(&st);
}
END_TEST

/* Run @line, which must succeed. */
static void run_ok(const char *line)
{
	enum rcl_status status;
	char *out = unit_run(line, false, &status);

	ck_assert_msg(status == RCL_OK, "'%s': %s", line, out);
	free(out);
}

/* How many times the file @name in directory @dir was opened while @line ran (it succeeds). */
static unsigned opens_while(const char *dir, const char *name, const char *line)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	int fd = inotify_init1(IN_NONBLOCK);
	const struct inotify_event *ev;
	unsigned opens = 0;
	ssize_t len;

	ck_assert_int_ge(fd, 0);
	/* Its closes watched too: inotify merges an event into the same one just before it. */
	ck_assert_int_ge(inotify_add_watch(fd, dir, IN_OPEN | IN_CLOSE), 0);
	run_ok(line);
	while ((len = read(fd, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + len; p += sizeof(*ev) + ev->len) {
			ev = (const struct inotify_event *)p;
			opens += (ev->mask & IN_OPEN) && ev->len && !strcmp(ev->name, name);
		}
	ck_assert_int_eq(close(fd), 0);
	return opens;
}

/*
 * A soft controller's foreign configuration on three drives, checked
 * against the controllers of another kind that run the engine (here the
 * nvme controller /c0) before an import: each is opened once for the
 * three drives, not once per drive (its lock file's opens, counted).
 */
START_TEST(test_holders_opened_once)
{
	struct unit_state st;
	char *locks, line[PATH_MAX + 64];

	if (!nvme_host_enter(&st))
		return;
	snprintf(line, sizeof(line), "add controller type=soft drives=1 size=16MB dir=%s/mine",
	         st.dir);
	run_ok(line);
	snprintf(line, sizeof(line), "add controller type=soft drives=3 size=16MB dir=%s/fimg",
	         st.dir);
	run_ok(line);
	run_ok("/c2 add vd r1 drives=252:0-1");
	run_ok("/c2/e252/s2 add hotsparedrive");
	run_ok("/c2 del");
	for (int i = 0; i < 3; i++) {
		snprintf(line, sizeof(line), "/c1 add drive path=%s/fimg/drive%d.img", st.dir, i);
		run_ok(line);
	}
	locks = unit_path(st.dir, "locks");
	ck_assert_uint_eq(opens_while(locks, "nvme-host.lock", "/c1/fall import preview"), 1);
	free(locks);
	unit_state_leave(&st);
}
END_TEST

static Suite *nvme_suite(void)
{
	Suite *s = suite_create("nvme");
	TCase *slots = tcase_create("slots");
	TCase *detail = tcase_create("detail");
	TCase *host = tcase_create("host");

	tcase_add_test(slots, test_slots_stay_with_their_drives);
	tcase_add_test(slots, test_damaged_slots_name_the_file);
	tcase_add_test(detail, test_smart_log_decoded);
	tcase_add_test(detail, test_critical_warning_names);
	tcase_add_test(detail, test_namespace_lba_formats);
	tcase_add_test(detail, test_error_log_keeps_errors_only);
	tcase_add_test(detail, test_firmware_slots);
	tcase_add_test(detail, test_self_test_log);
	tcase_add_test(detail, test_sanitize_status);
	tcase_add_test(detail, test_telemetry_header);
	tcase_add_test(detail, test_fdp);
	tcase_add_test(host, test_host_without_nvme);
	tcase_add_test(host, test_vanished_drives_stay_missing);
	tcase_add_test(host, test_export_named_by_engine);
	tcase_add_test(host, test_holders_opened_once);
	suite_add_tcase(s, slots);
	suite_add_tcase(s, detail);
	suite_add_tcase(s, host);
	return s;
}

int main(void)
{
	return unit_main(nvme_suite());
}
