// SPDX-License-Identifier: MIT
/*
 * test-nvme-logs.c - the nvme backend's log page decoders (lib/nvme/
 * logs.c) on pages built from the NVMe base specification's figures:
 * what each field decodes to, and that a short or self-contradicting page
 * is refused by name, never read past. QEMU 7.2 has none of these pages
 * but the firmware slot and error logs (it answers Invalid Field for the
 * others), so the bytes are made here.
 */
#include <stdlib.h>
#include <string.h>

#include "nvme/logs.h"
#include "spec.h"
#include "unit.h"

/* A copy of @len bytes of @src at the end of a heap block, so ASan sees any read past it. */
static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	ck_assert_ptr_nonnull(p);
	memcpy(p, src, len);
	return p;
}

START_TEST(test_self_test_log)
{
	uint8_t page[564] = {0}, *p;
	struct rcl_nvme_self_test_log log;
	struct rcl_error err = {0};

	page[0] = 2;  /* an extended test runs */
	page[1] = 37; /* 37 % done */
	for (int i = 0; i < 20; i++)
		page[4 + 28 * i] = 0x0f; /* entries not used */
	/* Newest: a short test that failed at segment 3, LBA 0x1234 of namespace 1. */
	page[4] = 0x1 << 4 | 0x7;
	page[5] = 3;
	page[6] = 0x0f;
	spec_le(page + 8, 1000, 8);
	spec_le(page + 16, 1, 4);
	spec_le(page + 20, 0x1234, 8);
	page[28] = 0x2;
	page[29] = 0x81;
	/* Then an extended one with no error. */
	page[32] = 0x2 << 4;
	spec_le(page + 36, 990, 8);
	p = exact(page, sizeof(page));
	ck_assert_int_eq(rcl_nvme_self_test_decode(p, sizeof(page), &log, &err), RCL_OK);
	ck_assert_uint_eq(log.current, 2);
	ck_assert_uint_eq(log.percent, 37);
	ck_assert_uint_eq(log.count, 2);
	ck_assert_uint_eq(log.results[0].code, 1);
	ck_assert_uint_eq(log.results[0].result, 7);
	ck_assert_uint_eq(log.results[0].segment, 3);
	ck_assert_uint_eq(log.results[0].poh, 1000);
	ck_assert(log.results[0].has_nsid && log.results[0].has_flba && log.results[0].has_status);
	ck_assert_uint_eq(log.results[0].nsid, 1);
	ck_assert_uint_eq(log.results[0].flba, 0x1234);
	ck_assert_uint_eq(log.results[0].sct, 2);
	ck_assert_uint_eq(log.results[0].sc, 0x81);
	ck_assert_uint_eq(log.results[1].code, 2);
	ck_assert_uint_eq(log.results[1].result, 0);
	ck_assert(!log.results[1].has_nsid);
	free(p);

	/* Short by one byte: refused, naming the page and both sizes. */
	p = exact(page, 563);
	ck_assert_int_eq(rcl_nvme_self_test_decode(p, 563, &log, &err), RCL_CORRUPT);
	ck_assert_str_eq(err.msg,
	                 "the drive's self-test log is 563 bytes, short of the 564 it must hold");
	free(p);

	page[1] = 101;
	ck_assert_int_eq(rcl_nvme_self_test_decode(page, sizeof(page), &log, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "101 %"));
}
END_TEST

START_TEST(test_sanitize_log)
{
	uint8_t page[512] = {0};
	struct rcl_nvme_sanitize_log log;
	struct rcl_error err = {0};

	spec_le(page, 0x8000, 2);         /* SPROG: half */
	spec_le(page + 2, 2 | 1 << 3, 2); /* in progress, 1 pass */
	spec_le(page + 4, 0x2, 4);        /* SCDW10: block erase */
	spec_le(page + 12, 120, 4);       /* ETBE */
	ck_assert_int_eq(rcl_nvme_sanitize_decode(page, sizeof(page), &log, &err), RCL_OK);
	ck_assert_int_eq(log.state, RCL_NVME_SANITIZE_RUNNING);
	ck_assert_uint_eq(log.percent, 50);
	ck_assert_uint_eq(log.passes, 1);
	ck_assert_uint_eq(log.cdw10, 2);
	ck_assert_uint_eq(log.etbe, 120);

	/* Done: SPROG is 0xffff, and no longer a fraction of anything. */
	spec_le(page, 0xffff, 2);
	spec_le(page + 2, 1 | 1 << 8, 2);
	ck_assert_int_eq(rcl_nvme_sanitize_decode(page, sizeof(page), &log, &err), RCL_OK);
	ck_assert_int_eq(log.state, RCL_NVME_SANITIZE_DONE);
	ck_assert_uint_eq(log.percent, 100);
	ck_assert(log.global_erased);

	spec_le(page + 2, 5, 2);
	ck_assert_int_eq(rcl_nvme_sanitize_decode(page, sizeof(page), &log, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "reserved status (5)"));
	ck_assert_int_eq(rcl_nvme_sanitize_decode(page, 20, &log, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "sanitize status log is 20 bytes"));
}
END_TEST

START_TEST(test_fw_slots)
{
	uint8_t page[512] = {0};
	struct rcl_nvme_fw_slots slots;
	struct rcl_error err = {0};

	page[0] = 1 | 2 << 4; /* slot 1 runs, slot 2 after the next reset */
	memcpy(page + 8, "1.0     ", 8);
	memcpy(page + 16, "2.1b", 4);
	ck_assert_int_eq(rcl_nvme_fw_slots_decode(page, sizeof(page), &slots, &err), RCL_OK);
	ck_assert_uint_eq(slots.active, 1);
	ck_assert_uint_eq(slots.next, 2);
	ck_assert_str_eq(slots.revision[0], "1.0");
	ck_assert_str_eq(slots.revision[1], "2.1b");
	ck_assert_str_eq(slots.revision[2], "");

	page[0] = 0;
	ck_assert_int_eq(rcl_nvme_fw_slots_decode(page, sizeof(page), &slots, &err), RCL_CORRUPT);
	ck_assert_int_eq(rcl_nvme_fw_slots_decode(page, 64, &slots, &err), RCL_CORRUPT);
}
END_TEST

START_TEST(test_telemetry_header)
{
	uint8_t page[512] = {0};
	struct rcl_nvme_telemetry t;
	struct rcl_error err = {0};

	page[0] = 0x07;
	spec_le(page + 8, 3, 2);
	spec_le(page + 10, 8, 2);
	spec_le(page + 12, 8, 2);
	page[381] = 5;
	page[382] = 1;
	ck_assert_int_eq(rcl_nvme_telemetry_decode(page, sizeof(page), &t, &err), RCL_OK);
	ck_assert_uint_eq(t.lid, 7);
	ck_assert_uint_eq(t.last_block[0], 3);
	ck_assert_uint_eq(t.last_block[1], 8);
	ck_assert_uint_eq(t.last_block[2], 8);
	ck_assert_uint_eq(t.last_block[3], 0);
	ck_assert_uint_eq(t.generation, 5);
	ck_assert(t.ctrl_available);

	/* Area 2 ending before area 1: the header contradicts itself. */
	spec_le(page + 10, 2, 2);
	ck_assert_int_eq(rcl_nvme_telemetry_decode(page, sizeof(page), &t, &err), RCL_CORRUPT);
	ck_assert_str_eq(err.msg, "the drive's telemetry header ends data area 2 at block 2, "
	                          "before area 1 (block 3)");
	page[0] = 0x02;
	ck_assert_int_eq(rcl_nvme_telemetry_decode(page, sizeof(page), &t, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "log 0x02"));
	ck_assert_int_eq(rcl_nvme_telemetry_decode(page, 511, &t, &err), RCL_CORRUPT);
}
END_TEST

/*
 * An FDP configurations log with two descriptors: one valid with 2
 * handles (initially, persistently isolated) and 8 bytes of vendor data,
 * one not valid with 1 handle. Its length in *@len.
 */
static void fdp_page(uint8_t *page, size_t *len)
{
	uint8_t *d = page + 16;

	memset(page, 0, 256);
	spec_le(page, 1, 2); /* NUMFDPC: 2 configurations, 0-based */
	d[2] = 0x80 | 0x10 | 0x2;
	d[3] = 1; /* VSS: 8 bytes */
	spec_le(d, 64 + 2 * 4 + 8, 2);
	spec_le(d + 4, 4, 4);           /* NRG */
	spec_le(d + 8, 2, 2);           /* NRUH */
	spec_le(d + 10, 127, 2);        /* MAXPIDS, 0-based */
	spec_le(d + 12, 16, 4);         /* NNSS */
	spec_le(d + 16, 1ull << 30, 8); /* RUNS */
	spec_le(d + 24, 3600, 4);       /* ERUTL */
	d[64] = 1;
	d[68] = 2;
	d += 64 + 8 + 8;
	spec_le(d, 64 + 4, 2);
	spec_le(d + 8, 1, 2);
	d[64] = 1;
	*len = (size_t)(d + 68 - page);
	spec_le(page + 4, *len, 4);
}

START_TEST(test_fdp_configs)
{
	uint8_t page[256], *p;
	size_t len;
	struct rcl_nvme_fdp_configs c;
	struct rcl_error err = {0};

	fdp_page(page, &len);
	p = exact(page, len);
	ck_assert_int_eq(rcl_nvme_fdp_configs_decode(p, len, &c, &err), RCL_OK);
	ck_assert_uint_eq(c.count, 2);
	ck_assert(c.configs[0].valid && c.configs[0].vwc);
	ck_assert_uint_eq(c.configs[0].rgif, 2);
	ck_assert_uint_eq(c.configs[0].groups, 4);
	ck_assert_uint_eq(c.configs[0].handles, 2);
	ck_assert_uint_eq(c.configs[0].max_pids, 128);
	ck_assert_uint_eq(c.configs[0].max_namespaces, 16);
	ck_assert_uint_eq(c.configs[0].unit_bytes, 1ull << 30);
	ck_assert_uint_eq(c.configs[0].time_limit, 3600);
	ck_assert_uint_eq(c.configs[0].ruh_types[0], 1);
	ck_assert_uint_eq(c.configs[0].ruh_types[1], 2);
	ck_assert(!c.configs[1].valid);
	ck_assert_uint_eq(c.configs[1].handles, 1);
	ck_assert_uint_eq(c.configs[1].ruh_types[0], 1);
	rcl_nvme_fdp_configs_release(&c);
	free(p);

	/* The page says it is longer than what came. */
	p = exact(page, len - 4);
	ck_assert_int_eq(rcl_nvme_fdp_configs_decode(p, len - 4, &c, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "says it is"));
	ck_assert_ptr_null(c.configs);
	free(p);

	/* A descriptor claiming more handles than its size holds. */
	spec_le(page + 16 + 8, 5, 2);
	p = exact(page, len);
	ck_assert_int_eq(rcl_nvme_fdp_configs_decode(p, len, &c, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "80-byte descriptor that must hold 92 bytes"));
	free(p);

	/* More configurations than the page has room for. */
	fdp_page(page, &len);
	spec_le(page, 9, 2);
	ck_assert_int_eq(rcl_nvme_fdp_configs_decode(page, len, &c, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "10 configurations"));
	ck_assert_int_eq(rcl_nvme_fdp_configs_decode(page, 8, &c, &err), RCL_CORRUPT);
}
END_TEST

START_TEST(test_ruh_usage)
{
	uint8_t page[8 + 3 * 8] = {0}, *p;
	struct rcl_nvme_ruh_usage u;
	struct rcl_error err = {0};

	spec_le(page, 3, 2);
	page[8] = 1;
	page[16] = 2;
	page[24] = 0;
	p = exact(page, sizeof(page));
	ck_assert_int_eq(rcl_nvme_ruh_usage_decode(p, sizeof(page), &u, &err), RCL_OK);
	ck_assert_uint_eq(u.count, 3);
	ck_assert_uint_eq(u.use[0], RCL_NVME_RUH_HOST);
	ck_assert_uint_eq(u.use[1], RCL_NVME_RUH_CONTROLLER);
	ck_assert_uint_eq(u.use[2], RCL_NVME_RUH_UNUSED);
	rcl_free(u.use);
	free(p);

	/* Three handles listed, two sent. */
	p = exact(page, sizeof(page) - 8);
	ck_assert_int_eq(rcl_nvme_ruh_usage_decode(p, sizeof(page) - 8, &u, &err), RCL_CORRUPT);
	ck_assert_str_eq(err.msg, "the drive's reclaim unit handle usage log lists 3 handles in 24 "
	                          "bytes, short of the 32 they take");
	ck_assert_ptr_null(u.use);
	free(p);
}
END_TEST

START_TEST(test_fdp_stats)
{
	uint8_t page[64] = {0};
	struct rcl_nvme_fdp_stats s;
	struct rcl_error err = {0};

	spec_le(page, 4096, 8);
	spec_le(page + 16, 8192, 8);
	spec_le(page + 24, 1, 8); /* MBMW past 2^64 */
	spec_le(page + 32, 1 << 20, 8);
	ck_assert_int_eq(rcl_nvme_fdp_stats_decode(page, sizeof(page), &s, &err), RCL_OK);
	ck_assert_uint_eq(s.host_written.lo, 4096);
	ck_assert_uint_eq(s.host_written.hi, 0);
	ck_assert_uint_eq(s.media_written.lo, 8192);
	ck_assert_uint_eq(s.media_written.hi, 1);
	ck_assert_uint_eq(s.media_erased.lo, 1 << 20);
	ck_assert_int_eq(rcl_nvme_fdp_stats_decode(page, 48, &s, &err), RCL_CORRUPT);
	ck_assert_str_eq(err.msg, "the drive's FDP statistics log is 48 bytes, short of the 64 it "
	                          "must hold");
}
END_TEST

START_TEST(test_error_log)
{
	uint8_t page[2 * 64] = {0};
	struct rcl_nvme_error_entry e[4];
	size_t count;
	struct rcl_error err = {0};

	spec_le(page, 7, 8);
	spec_le(page + 8, 0, 2);
	spec_le(page + 10, 0x1a, 2);
	/* Invalid Field (SCT 0, SC 2) with DNR, shifted over the phase tag. */
	spec_le(page + 12, (0x4002u << 1) | 1, 2);
	spec_le(page + 14, 0x28, 2);
	spec_le(page + 24, 1, 4);
	ck_assert_int_eq(rcl_nvme_error_log_decode(page, sizeof(page), e, 4, &count, &err), RCL_OK);
	ck_assert_uint_eq(count, 2);
	ck_assert_uint_eq(e[0].count, 7);
	ck_assert_uint_eq(e[0].cmdid, 0x1a);
	ck_assert_uint_eq(e[0].status, 0x4002);
	ck_assert_uint_eq(e[0].param_loc, 0x28);
	ck_assert_uint_eq(e[0].nsid, 1);
	ck_assert_uint_eq(e[1].count, 0);
	ck_assert_int_eq(rcl_nvme_error_log_decode(page, sizeof(page), e, 1, &count, &err), RCL_OK);
	ck_assert_uint_eq(count, 1);
	ck_assert_int_eq(rcl_nvme_error_log_decode(page, 100, e, 4, &count, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "100 bytes, not a whole number of 64-byte entries"));
}
END_TEST

static Suite *logs_suite(void)
{
	Suite *s = suite_create("nvme-logs");
	TCase *tc = tcase_create("decode");

	tcase_add_test(tc, test_self_test_log);
	tcase_add_test(tc, test_sanitize_log);
	tcase_add_test(tc, test_fw_slots);
	tcase_add_test(tc, test_telemetry_header);
	tcase_add_test(tc, test_fdp_configs);
	tcase_add_test(tc, test_ruh_usage);
	tcase_add_test(tc, test_fdp_stats);
	tcase_add_test(tc, test_error_log);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(logs_suite());
}
