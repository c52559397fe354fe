/* SPDX-License-Identifier: MIT */
/*
 * logs.h - NVMe log pages decoded from the bytes a drive returned into
 * plain structs: the device self-test log, the sanitize status log, the
 * firmware slot log, a telemetry log's header, the Flexible Data
 * Placement logs (configurations, reclaim unit handle usage, statistics)
 * and error information entries. Offsets and sizes are the NVMe base
 * specification's (2.0), read little-endian byte by byte, so a decoder
 * never depends on libnvme's struct layouts. Each checks the length it was
 * given and the page's own counts against it: a short or inconsistent page
 * is RCL_CORRUPT, naming the page and the sizes, never a read past @len.
 */
#ifndef RCL_NVME_LOGS_H
#define RCL_NVME_LOGS_H

#include <stddef.h>
#include <stdint.h>

#include "raidcli.h"

/* Sizes the specification fixes. */
#define RCL_NVME_SELF_TEST_LOG_SIZE    564
#define RCL_NVME_SANITIZE_LOG_SIZE     512
#define RCL_NVME_FW_SLOT_LOG_SIZE      512
#define RCL_NVME_TELEMETRY_HEADER_SIZE 512
#define RCL_NVME_TELEMETRY_BLOCK       512
#define RCL_NVME_FDP_STATS_SIZE        64
#define RCL_NVME_ERROR_ENTRY_SIZE      64
#define RCL_NVME_SELF_TEST_RESULTS     20
#define RCL_NVME_FW_SLOTS              7

/**
 * struct rcl_nvme_self_test_result - one entry of the self-test log.
 * @code:	the test it was (1 short, 2 extended, 0xe vendor specific).
 * @result:	0 no error, 1 aborted by command, 2 by reset, 3 namespace
 *		removed, 4 by a format, 5 fatal error, 6 a failed segment not
 *		known, 7 failed at @segment, 8 aborted for an unknown reason,
 *		9 by a sanitize.
 * @segment:	the first failed segment (@result 7), else 0.
 * @poh:	power-on hours when it completed.
 * @nsid, @flba: the namespace and LBA that failed, where @has_nsid and
 *		@has_flba say the drive filled them in.
 * @sct, @sc:	the status of the failure, where @has_status says so.
 */
struct rcl_nvme_self_test_result {
	unsigned code;
	unsigned result;
	unsigned segment;
	uint64_t poh;
	uint32_t nsid;
	uint64_t flba;
	unsigned sct, sc;
	bool has_nsid, has_flba, has_status;
};

/**
 * struct rcl_nvme_self_test_log - the device self-test log (log id 0x06).
 * @current:	the test in progress (1 short, 2 extended, 0xe vendor), 0 none.
 * @percent:	how much of it is done, 0-100.
 * @count:	the entries of @results in use, newest first.
 */
struct rcl_nvme_self_test_log {
	unsigned current;
	unsigned percent;
	size_t count;
	struct rcl_nvme_self_test_result results[RCL_NVME_SELF_TEST_RESULTS];
};

enum rcl_status rcl_nvme_self_test_decode(const void *buf, size_t len,
                                          struct rcl_nvme_self_test_log *out,
                                          struct rcl_error *err);

/* Where the last sanitize stands (SSTAT bits 2:0). */
enum rcl_nvme_sanitize_state {
	RCL_NVME_SANITIZE_NEVER = 0,
	RCL_NVME_SANITIZE_DONE = 1,
	RCL_NVME_SANITIZE_RUNNING = 2,
	RCL_NVME_SANITIZE_FAILED = 3,
	RCL_NVME_SANITIZE_DONE_NO_DEALLOC = 4,
};

/**
 * struct rcl_nvme_sanitize_log - the sanitize status log (log id 0x81).
 * @state:	as above.
 * @percent:	SPROG as a percentage (of the one running; 100 when none).
 * @passes:	overwrite passes done by the last overwrite.
 * @global_erased: no user data was written since the last sanitize (or
 *		since manufacture).
 * @cdw10:	the Sanitize command that started the last one.
 * @eto, @etbe, @etce: its estimated seconds for an overwrite, a block
 *		erase, a crypto erase (0xffffffff: not reported).
 */
struct rcl_nvme_sanitize_log {
	enum rcl_nvme_sanitize_state state;
	unsigned percent;
	unsigned passes;
	bool global_erased;
	uint32_t cdw10;
	uint32_t eto, etbe, etce;
};

enum rcl_status rcl_nvme_sanitize_decode(const void *buf, size_t len,
                                         struct rcl_nvme_sanitize_log *out, struct rcl_error *err);

/**
 * struct rcl_nvme_fw_slots - the firmware slot log (log id 0x03).
 * @active:	the slot running now (1-7).
 * @next:	the slot that runs after the next reset, 0: @active.
 * @revision:	each slot's firmware revision, "" for an empty slot.
 */
struct rcl_nvme_fw_slots {
	unsigned active;
	unsigned next;
	char revision[RCL_NVME_FW_SLOTS][9];
};

enum rcl_status rcl_nvme_fw_slots_decode(const void *buf, size_t len, struct rcl_nvme_fw_slots *out,
                                         struct rcl_error *err);

/**
 * struct rcl_nvme_telemetry - a telemetry log's header (log id 0x07 host
 * initiated, 0x08 controller initiated).
 * @lid:	the log id it says it is.
 * @last_block:	the last 512-byte block of data areas 1 to 4 (block 0 is
 *		the header), each at least the one before.
 * @ctrl_available: the controller has a capture of its own to read.
 * @generation:	its data generation number (host or controller initiated).
 */
struct rcl_nvme_telemetry {
	unsigned lid;
	uint32_t last_block[4];
	bool ctrl_available;
	unsigned generation;
};

enum rcl_status rcl_nvme_telemetry_decode(const void *buf, size_t len,
                                          struct rcl_nvme_telemetry *out, struct rcl_error *err);

/**
 * struct rcl_nvme_fdp_config - one FDP configuration descriptor.
 * @valid:	the configuration can be used (FDPA bit 7).
 * @vwc:	it has a volatile write cache (FDPA bit 4).
 * @rgif:	bits of a placement identifier that name a reclaim group.
 * @groups, @handles, @max_pids, @max_namespaces: NRG, NRUH, MAXPIDS
 *		(1-based here), NNSS.
 * @unit_bytes:	the reclaim unit's nominal size (RUNS).
 * @time_limit:	seconds before a reclaim unit is closed (ERUTL), 0: none.
 * @ruh_types:	@handles types, 1 initially isolated, 2 persistently
 *		isolated (borrowed from the struct rcl_nvme_fdp_configs).
 */
struct rcl_nvme_fdp_config {
	bool valid, vwc;
	unsigned rgif;
	uint32_t groups;
	unsigned handles;
	unsigned max_pids;
	uint32_t max_namespaces;
	uint64_t unit_bytes;
	uint32_t time_limit;
	const uint8_t *ruh_types;
};

/**
 * struct rcl_nvme_fdp_configs - the FDP configurations log (0x20).
 * Release with rcl_nvme_fdp_configs_release().
 */
struct rcl_nvme_fdp_configs {
	size_t count;
	struct rcl_nvme_fdp_config *configs;
	uint8_t *types; /* every descriptor's RUH types, one array */
};

enum rcl_status rcl_nvme_fdp_configs_decode(const void *buf, size_t len,
                                            struct rcl_nvme_fdp_configs *out,
                                            struct rcl_error *err);
void rcl_nvme_fdp_configs_release(struct rcl_nvme_fdp_configs *configs);

/* How a reclaim unit handle is used (RUHA). */
enum rcl_nvme_ruh_use {
	RCL_NVME_RUH_UNUSED = 0,
	RCL_NVME_RUH_HOST = 1,
	RCL_NVME_RUH_CONTROLLER = 2,
};

/**
 * struct rcl_nvme_ruh_usage - the reclaim unit handle usage log (0x21):
 * @count handles, @use[i] for handle i (enum rcl_nvme_ruh_use values).
 * Release with rcl_free(usage->use).
 */
struct rcl_nvme_ruh_usage {
	size_t count;
	uint8_t *use;
};

enum rcl_status rcl_nvme_ruh_usage_decode(const void *buf, size_t len,
                                          struct rcl_nvme_ruh_usage *out, struct rcl_error *err);

/*
 * A 128-bit counter of the FDP statistics, as two halves; @hi is 0 on any
 * drive that has not written 16 EiB.
 */
struct rcl_nvme_u128 {
	uint64_t lo, hi;
};

/**
 * struct rcl_nvme_fdp_stats - the FDP statistics log (0x22), in bytes:
 * @host_written (HBMW), @media_written (MBMW), @media_erased (MBE).
 */
struct rcl_nvme_fdp_stats {
	struct rcl_nvme_u128 host_written, media_written, media_erased;
};

enum rcl_status rcl_nvme_fdp_stats_decode(const void *buf, size_t len,
                                          struct rcl_nvme_fdp_stats *out, struct rcl_error *err);

/**
 * struct rcl_nvme_error_entry - one error information log entry (0x01).
 * @count:	the error's number (0: an empty entry).
 * @sqid, @cmdid: the command's submission queue and command id.
 * @status:	its NVMe status (the phase tag dropped): DNR, SCT, SC.
 * @phase:	the phase tag the entry's status field carries in bit 0.
 * @param_loc:	the byte and bit of the command that was wrong.
 * @lba, @nsid:	where it failed.
 * @vs, @trtype: vendor log page, transport type.
 * @cmd_info:	command specific information; @trtype_info: transport's.
 */
struct rcl_nvme_error_entry {
	uint64_t count;
	unsigned sqid, cmdid;
	unsigned status;
	unsigned phase;
	unsigned param_loc;
	uint64_t lba;
	uint32_t nsid;
	unsigned vs, trtype;
	uint64_t cmd_info;
	unsigned trtype_info;
};

/**
 * rcl_nvme_error_log_decode() - the entries of an error log page of @len
 * bytes (a whole number of 64-byte entries) into @out (room for @max),
 * their number in *@count: all of them, empty ones too, as the drive
 * keeps them newest first.
 */
enum rcl_status rcl_nvme_error_log_decode(const void *buf, size_t len,
                                          struct rcl_nvme_error_entry *out, size_t max,
                                          size_t *count, struct rcl_error *err);

#endif /* RCL_NVME_LOGS_H */
