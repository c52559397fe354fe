// SPDX-License-Identifier: MIT
/*
 * logs.c - NVMe log pages decoded from raw bytes (logs.h). The offsets
 * are the NVMe base specification's figures, read here byte by byte in
 * little-endian order: libnvme 1.3's structs for the FDP pages declare
 * their fields in host order, and a decoder that copies a struct over a
 * short buffer reads past it. Every decoder checks @len first.
 */
#include <string.h>

#include <libnvme.h>

#include "nvme/logs.h"

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* The one refusal of a page shorter than what it must hold. */
static enum rcl_status short_page(struct rcl_error *err, const char *page, size_t len, size_t need)
{
	return rcl_fail(err, RCL_CORRUPT,
	                "the drive's %s is %zu bytes, short of the %zu it must hold", page, len,
	                need);
}

enum rcl_status rcl_nvme_self_test_decode(const void *buf, size_t len,
                                          struct rcl_nvme_self_test_log *out, struct rcl_error *err)
{
	const uint8_t *p = buf;

	if (len < RCL_NVME_SELF_TEST_LOG_SIZE)
		return short_page(err, "self-test log", len, RCL_NVME_SELF_TEST_LOG_SIZE);
	*out = (struct rcl_nvme_self_test_log){.current = p[0] & 0xf, .percent = p[1] & 0x7f};
	if (out->percent > 100)
		return rcl_fail(err, RCL_CORRUPT,
		                "the drive's self-test log says %u %% of its test is done",
		                out->percent);
	for (size_t i = 0; i < RCL_NVME_SELF_TEST_RESULTS; i++) {
		const uint8_t *e = p + 4 + 28 * i;
		struct rcl_nvme_self_test_result *r = &out->results[out->count];

		if ((e[0] & 0xf) == NVME_ST_RESULT_NOT_USED)
			continue;
		*r = (struct rcl_nvme_self_test_result){
		    .code = e[0] >> 4,
		    .result = e[0] & 0xf,
		    .segment = e[1],
		    .has_nsid = e[2] & 1,
		    .has_flba = e[2] & 2,
		    .has_status = (e[2] & 0xc) == 0xc,
		    .poh = le64(e + 4),
		};
		if (r->has_nsid)
			r->nsid = le32(e + 12);
		if (r->has_flba)
			r->flba = le64(e + 16);
		if (r->has_status) {
			r->sct = e[24] & 7;
			r->sc = e[25];
		}
		out->count++;
	}
	return RCL_OK;
}

enum rcl_status rcl_nvme_sanitize_decode(const void *buf, size_t len,
                                         struct rcl_nvme_sanitize_log *out, struct rcl_error *err)
{
	const uint8_t *p = buf;
	uint16_t sstat;

	if (len < RCL_NVME_SANITIZE_LOG_SIZE)
		return short_page(err, "sanitize status log", len, RCL_NVME_SANITIZE_LOG_SIZE);
	sstat = le16(p + 2);
	if ((sstat & 7) > RCL_NVME_SANITIZE_DONE_NO_DEALLOC)
		return rcl_fail(err, RCL_CORRUPT,
		                "the drive's sanitize status log has a reserved status (%u)",
		                sstat & 7);
	*out = (struct rcl_nvme_sanitize_log){
	    .state = (enum rcl_nvme_sanitize_state)(sstat & 7),
	    .passes = (sstat >> 3) & 0x1f,
	    .global_erased = sstat & 0x100,
	    .cdw10 = le32(p + 4),
	    .eto = le32(p + 8),
	    .etbe = le32(p + 12),
	    .etce = le32(p + 16),
	};
	/* SPROG counts in 65536ths, and is 0xffff once none runs. */
	out->percent = out->state == RCL_NVME_SANITIZE_RUNNING ? le16(p) * 100u / 65536u : 100;
	return RCL_OK;
}

/* @dst: the 8 bytes at @src, without the spaces and NULs that pad them. */
static void revision(char dst[9], const uint8_t *src)
{
	size_t n = 8;

	memcpy(dst, src, 8);
	while (n && (src[n - 1] == ' ' || src[n - 1] == 0))
		n--;
	dst[n] = 0;
}

enum rcl_status rcl_nvme_fw_slots_decode(const void *buf, size_t len, struct rcl_nvme_fw_slots *out,
                                         struct rcl_error *err)
{
	const uint8_t *p = buf;

	if (len < RCL_NVME_FW_SLOT_LOG_SIZE)
		return short_page(err, "firmware slot log", len, RCL_NVME_FW_SLOT_LOG_SIZE);
	*out = (struct rcl_nvme_fw_slots){.active = p[0] & 7, .next = (p[0] >> 4) & 7};
	if (!out->active)
		return rcl_fail(err, RCL_CORRUPT,
		                "the drive's firmware slot log names no active slot (0)");
	for (size_t i = 0; i < RCL_NVME_FW_SLOTS; i++)
		revision(out->revision[i], p + 8 + 8 * i);
	return RCL_OK;
}

enum rcl_status rcl_nvme_telemetry_decode(const void *buf, size_t len,
                                          struct rcl_nvme_telemetry *out, struct rcl_error *err)
{
	const uint8_t *p = buf;

	if (len < RCL_NVME_TELEMETRY_HEADER_SIZE)
		return short_page(err, "telemetry header", len, RCL_NVME_TELEMETRY_HEADER_SIZE);
	*out = (struct rcl_nvme_telemetry){
	    .lid = p[0],
	    .last_block = {le16(p + 8), le16(p + 10), le16(p + 12), le32(p + 16)},
	    .ctrl_available = p[382] & 1,
	    .generation = p[0] == NVME_LOG_LID_TELEMETRY_HOST ? p[381] : p[383],
	};
	if (out->lid != NVME_LOG_LID_TELEMETRY_HOST && out->lid != NVME_LOG_LID_TELEMETRY_CTRL)
		return rcl_fail(
		    err, RCL_CORRUPT,
		    "the drive's telemetry header names log 0x%02x, not a telemetry log", out->lid);
	/* The areas nest: each ends where the one before did, or after. */
	for (int i = 1; i < 3; i++)
		if (out->last_block[i] < out->last_block[i - 1])
			return rcl_fail(
			    err, RCL_CORRUPT,
			    "the drive's telemetry header ends data area %d at block %u, "
			    "before area %d (block %u)",
			    i + 1, out->last_block[i], i, out->last_block[i - 1]);
	if (out->last_block[3] && out->last_block[3] < out->last_block[2])
		return rcl_fail(err, RCL_CORRUPT,
		                "the drive's telemetry header ends data area 4 at block %u, "
		                "before area 3 (block %u)",
		                out->last_block[3], out->last_block[2]);
	return RCL_OK;
}

/*
 * One FDP configuration descriptor at @p, @room bytes left in the page:
 * its size in *@size, its RUH types copied to @types.
 */
static enum rcl_status fdp_config(const uint8_t *p, size_t room, struct rcl_nvme_fdp_config *c,
                                  uint8_t *types, size_t *size, struct rcl_error *err)
{
	size_t need;

	if (room < 64)
		return short_page(err, "FDP configurations log", room, 64);
	*size = le16(p);
	*c = (struct rcl_nvme_fdp_config){
	    .valid = p[2] & 0x80,
	    .vwc = p[2] & 0x10,
	    .rgif = p[2] & 0xf,
	    .groups = le32(p + 4),
	    .handles = le16(p + 8),
	    .max_pids = le16(p + 10) + 1u,
	    .max_namespaces = le32(p + 12),
	    .unit_bytes = le64(p + 16),
	    .time_limit = le32(p + 24),
	    .ruh_types = types,
	};
	/* 64 bytes, a 4-byte descriptor per handle, vendor data in 8-byte units (VSS). */
	need = 64 + 4 * (size_t)c->handles + 8 * (size_t)p[3];
	if (*size < need || *size > room)
		return rcl_fail(err, RCL_CORRUPT,
		                "the drive's FDP configurations log has a %zu-byte descriptor "
		                "that must hold %zu bytes within the %zu left",
		                *size, need, room);
	for (unsigned i = 0; i < c->handles; i++)
		types[i] = p[64 + 4 * i];
	return RCL_OK;
}

enum rcl_status rcl_nvme_fdp_configs_decode(const void *buf, size_t len,
                                            struct rcl_nvme_fdp_configs *out, struct rcl_error *err)
{
	const uint8_t *p = buf;
	size_t size, count, at = 16;

	*out = (struct rcl_nvme_fdp_configs){0};
	if (len < 16)
		return short_page(err, "FDP configurations log", len, 16);
	size = le32(p + 4);
	if (size > len || size < 16)
		return rcl_fail(err, RCL_CORRUPT,
		                "the drive's FDP configurations log says it is %zu bytes, "
		                "but %zu came",
		                size, len);
	count = le16(p) + 1u; /* NUMFDPC is 0-based */
	if (16 + 64 * count > size)
		return rcl_fail(err, RCL_CORRUPT,
		                "the drive's FDP configurations log lists %zu configurations in "
		                "%zu bytes, short of the %zu they take",
		                count, size, 16 + 64 * count);
	out->count = count;
	out->configs = rcl_calloc(out->count, sizeof(*out->configs));
	/* No descriptor's handles can outnumber the bytes of the page. */
	out->types = rcl_calloc(size / 4 + 1, 1);
	if (!out->configs || !out->types) {
		rcl_nvme_fdp_configs_release(out);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	for (size_t i = 0, types = 0; i < out->count; i++) {
		size_t dsize = 0;
		enum rcl_status st = fdp_config(p + at, size - at, &out->configs[i],
		                                out->types + types, &dsize, err);

		if (st) {
			rcl_nvme_fdp_configs_release(out);
			return st;
		}
		at += dsize;
		types += out->configs[i].handles;
	}
	return RCL_OK;
}

void rcl_nvme_fdp_configs_release(struct rcl_nvme_fdp_configs *configs)
{
	rcl_free(configs->configs);
	rcl_free(configs->types);
	*configs = (struct rcl_nvme_fdp_configs){0};
}

enum rcl_status rcl_nvme_ruh_usage_decode(const void *buf, size_t len,
                                          struct rcl_nvme_ruh_usage *out, struct rcl_error *err)
{
	const uint8_t *p = buf;
	size_t need;

	*out = (struct rcl_nvme_ruh_usage){0};
	if (len < 8)
		return short_page(err, "reclaim unit handle usage log", len, 8);
	out->count = le16(p);
	need = 8 + 8 * out->count;
	if (len < need)
		return rcl_fail(err, RCL_CORRUPT,
		                "the drive's reclaim unit handle usage log lists %zu handles in "
		                "%zu bytes, short of the %zu they take",
		                out->count, len, need);
	out->use = rcl_calloc(out->count + 1, 1);
	if (!out->use)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < out->count; i++)
		out->use[i] = p[8 + 8 * i];
	return RCL_OK;
}

static struct rcl_nvme_u128 le128(const uint8_t *p)
{
	return (struct rcl_nvme_u128){.lo = le64(p), .hi = le64(p + 8)};
}

enum rcl_status rcl_nvme_fdp_stats_decode(const void *buf, size_t len,
                                          struct rcl_nvme_fdp_stats *out, struct rcl_error *err)
{
	const uint8_t *p = buf;

	if (len < RCL_NVME_FDP_STATS_SIZE)
		return short_page(err, "FDP statistics log", len, RCL_NVME_FDP_STATS_SIZE);
	*out = (struct rcl_nvme_fdp_stats){
	    .host_written = le128(p),
	    .media_written = le128(p + 16),
	    .media_erased = le128(p + 32),
	};
	return RCL_OK;
}

enum rcl_status rcl_nvme_error_log_decode(const void *buf, size_t len,
                                          struct rcl_nvme_error_entry *out, size_t max,
                                          size_t *count, struct rcl_error *err)
{
	const uint8_t *p = buf;

	if (!len || len % RCL_NVME_ERROR_ENTRY_SIZE)
		return rcl_fail(err, RCL_CORRUPT,
		                "the drive's error log is %zu bytes, not a whole number of "
		                "%d-byte entries",
		                len, RCL_NVME_ERROR_ENTRY_SIZE);
	*count = len / RCL_NVME_ERROR_ENTRY_SIZE < max ? len / RCL_NVME_ERROR_ENTRY_SIZE : max;
	for (size_t i = 0; i < *count; i++, p += RCL_NVME_ERROR_ENTRY_SIZE)
		out[i] = (struct rcl_nvme_error_entry){
		    .count = le64(p),
		    .sqid = le16(p + 8),
		    .cmdid = le16(p + 10),
		    .status = le16(p + 12) >> 1, /* bit 0 is the phase tag */
		    .phase = p[12] & 1u,
		    .param_loc = le16(p + 14),
		    .lba = le64(p + 16),
		    .nsid = le32(p + 24),
		    .vs = p[28],
		    .trtype = p[29],
		    .cmd_info = le64(p + 32),
		    .trtype_info = le16(p + 40),
		};
	return RCL_OK;
}
