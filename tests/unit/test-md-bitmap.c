// SPDX-License-Identifier: MIT
/*
 * test-md-bitmap.c - md's write-intent bitmap superblock: known bytes
 * mdadm reads back, round trips, what md refuses, and its sizes.
 */
#include <string.h>

#include "soft/format/md-bitmap.h"
#include "unit.h"

/*
 * The non-zero start of a bitmap superblock "mdadm --examine-bitmap" (4.2)
 * reads as: Version 4, UUID 00112233:44556677:8899aabb:ccddeeff, Events 42,
 * Events Cleared 42, State OK, Chunksize 64 MB, Daemon 5s flush period,
 * Write Mode Normal, Sync Size 95232 (KiB), 2 bits. Bytes 72 on are zero.
 */
static const uint8_t known_head[72] = {
    0x62, 0x69, 0x74, 0x6d, 0x04, 0x00, 0x00, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
    0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x2a, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe8, 0x02, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x05, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

#define MIB (1u << 20)

static void known_super(struct rcl_md_bitmap_super *bms)
{
	memset(bms, 0, sizeof(*bms));
	bms->version = RCL_MD_BITMAP_VERSION;
	for (int i = 0; i < 16; i++)
		bms->uuid[i] = (uint8_t)(0x11 * i);
	bms->events = bms->events_cleared = 42;
	bms->sync_size = 190464;
	bms->chunksize = 64 * MIB;
	bms->daemon_sleep = RCL_MD_BITMAP_DAEMON_SLEEP;
	bms->sectors_reserved = 8;
}

static void encode_ok(const struct rcl_md_bitmap_super *bms, uint8_t *buf)
{
	struct rcl_error err = {0};

	ck_assert_msg(rcl_md_bitmap_encode(bms, buf, RCL_MD_BITMAP_SB_BYTES, &err) == RCL_OK, "%s",
	              err.msg);
}

static void refused(const struct rcl_md_bitmap_super *bms, uint64_t room, const char *part)
{
	struct rcl_md_bitmap_super back;
	struct rcl_error err = {0};
	uint8_t buf[RCL_MD_BITMAP_SB_BYTES];

	encode_ok(bms, buf);
	ck_assert_int_eq(rcl_md_bitmap_decode(buf, sizeof(buf), room, &back, &err), RCL_CORRUPT);
	ck_assert_int_eq(err.status, RCL_CORRUPT);
	ck_assert_msg(strstr(err.msg, part), "message lacks '%s': %s", part, err.msg);
}

START_TEST(test_bits)
{
	ck_assert_uint_eq(rcl_md_bitmap_bits(190464, 64 * MIB), 2);
	ck_assert_uint_eq(rcl_md_bitmap_bits(131072, 64 * MIB), 1); /* exactly one chunk */
	ck_assert_uint_eq(rcl_md_bitmap_bits(131073, 64 * MIB), 2);
	ck_assert_uint_eq(rcl_md_bitmap_bits(0, 64 * MIB), 0);
	/* No overflow where sync_size * 512 would wrap. */
	ck_assert_uint_eq(rcl_md_bitmap_bits(UINT64_MAX, 512), UINT64_MAX);
	ck_assert_uint_eq(rcl_md_bitmap_bits(UINT64_MAX, 4096), UINT64_MAX / 8 + 1);
}
END_TEST

START_TEST(test_space_is_whole_4k)
{
	uint64_t fit = 8 * (4096 - RCL_MD_BITMAP_SB_BYTES); /* bits in the first 4 KiB */

	ck_assert_uint_eq(rcl_md_bitmap_space(190464, 64 * MIB), 4096);
	ck_assert_uint_eq(rcl_md_bitmap_space(fit * 8, 4096), 4096);
	ck_assert_uint_eq(rcl_md_bitmap_space(fit * 8 + 1, 4096), 8192);
}
END_TEST

START_TEST(test_default_chunk)
{
	/* At least 64 MiB, as mdadm picks. */
	ck_assert_uint_eq(rcl_md_bitmap_default_chunk(190464, 8), 64 * MIB);
	/* 100 TiB in 128 KiB of bitmap: 64 MiB chunks need 1.6 M bits, too many. */
	ck_assert_uint_eq(rcl_md_bitmap_default_chunk(100ull << 31, 256), 128 * MIB);
	/* A larger room does not make mdadm's default bitmap bigger. */
	ck_assert_uint_eq(rcl_md_bitmap_default_chunk(100ull << 31, 100000), 128 * MIB);
	/* 4 KiB of room: 30720 bits. */
	ck_assert_uint_eq(rcl_md_bitmap_default_chunk(30720ull * 131072 - 8, 8), 64 * MIB);
	ck_assert_uint_eq(rcl_md_bitmap_default_chunk(30720ull * 131072 + 8, 8), 128 * MIB);
	ck_assert_uint_eq(rcl_md_bitmap_default_chunk(190464, 0), 0);
	ck_assert_uint_eq(rcl_md_bitmap_default_chunk(UINT64_MAX, 8), 0); /* past 2 GiB chunks */
}
END_TEST

START_TEST(test_encode_gives_the_known_bytes)
{
	struct rcl_md_bitmap_super bms;
	uint8_t want[512] = {0}, got[512];
	struct rcl_error err = {0};

	known_super(&bms);
	memcpy(want, known_head, sizeof(known_head));
	memset(got, 0xaa, sizeof(got));
	ck_assert_int_eq(rcl_md_bitmap_encode(&bms, got, sizeof(got), &err), RCL_OK);
	ck_assert_mem_eq(got, want, sizeof(want));
	ck_assert_mem_eq(got, "bitm", 4);
}
END_TEST

START_TEST(test_encode_refusals)
{
	struct rcl_md_bitmap_super bms;
	uint8_t buf[RCL_MD_BITMAP_SB_BYTES];
	struct rcl_error err = {0};

	known_super(&bms);
	ck_assert_int_eq(rcl_md_bitmap_encode(&bms, buf, 255, &err), RCL_INVALID_PARAM);
	memset(bms.cluster_name, 'c', RCL_MD_BITMAP_CLUSTER_NAME);
	ck_assert_int_eq(rcl_md_bitmap_encode(&bms, buf, sizeof(buf), &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "cluster name"));
	bms.cluster_name[RCL_MD_BITMAP_CLUSTER_NAME - 1] = '\0';
	ck_assert_int_eq(rcl_md_bitmap_encode(&bms, buf, sizeof(buf), &err), RCL_OK);
}
END_TEST

START_TEST(test_decode_known_bytes)
{
	struct rcl_md_bitmap_super want, got;
	uint8_t buf[RCL_MD_BITMAP_SB_BYTES] = {0};
	struct rcl_error err = {0};

	memcpy(buf, known_head, sizeof(known_head));
	known_super(&want);
	ck_assert_int_eq(rcl_md_bitmap_decode(buf, sizeof(buf), 8, &got, &err), RCL_OK);
	ck_assert_int_eq(err.status, RCL_OK);
	ck_assert_uint_eq(got.version, want.version);
	ck_assert_mem_eq(got.uuid, want.uuid, 16);
	ck_assert_uint_eq(got.events, 42);
	ck_assert_uint_eq(got.events_cleared, 42);
	ck_assert_uint_eq(got.sync_size, 190464);
	ck_assert_uint_eq(got.state, 0);
	ck_assert_uint_eq(got.chunksize, 64 * MIB);
	ck_assert_uint_eq(got.daemon_sleep, 5);
	ck_assert_uint_eq(got.write_behind, 0);
	ck_assert_uint_eq(got.sectors_reserved, 8);
	ck_assert_uint_eq(got.nodes, 0);
	ck_assert_str_eq(got.cluster_name, "");
}
END_TEST

START_TEST(test_round_trip)
{
	struct rcl_md_bitmap_super bms, back;
	uint8_t buf[RCL_MD_BITMAP_SB_BYTES];
	struct rcl_error err = {0};

	known_super(&bms);
	bms.version = RCL_MD_BITMAP_VERSION_CLUSTERED;
	bms.events = 1000;
	bms.events_cleared = 998;
	bms.state = RCL_MD_BITMAP_STATE_STALE;
	bms.write_behind = RCL_MD_BITMAP_MAX_WRITE_BEHIND;
	bms.nodes = 4;
	strcpy(bms.cluster_name, "raidcli-cluster");
	encode_ok(&bms, buf);
	ck_assert_int_eq(rcl_md_bitmap_decode(buf, sizeof(buf), 32, &back, &err), RCL_OK);
	ck_assert_uint_eq(back.version, bms.version);
	ck_assert_uint_eq(back.events, 1000);
	ck_assert_uint_eq(back.events_cleared, 998);
	ck_assert_uint_eq(back.state, RCL_MD_BITMAP_STATE_STALE);
	ck_assert_uint_eq(back.write_behind, RCL_MD_BITMAP_MAX_WRITE_BEHIND);
	ck_assert_uint_eq(back.nodes, 4);
	ck_assert_str_eq(back.cluster_name, "raidcli-cluster");
}
END_TEST

START_TEST(test_bad_magic)
{
	uint8_t buf[RCL_MD_BITMAP_SB_BYTES] = {0};
	struct rcl_md_bitmap_super bms;
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_md_bitmap_decode(buf, sizeof(buf), 8, &bms, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "no md bitmap"));
	ck_assert_int_eq(rcl_md_bitmap_decode(buf, 255, 8, &bms, &err), RCL_INVALID_PARAM);
}
END_TEST

START_TEST(test_what_md_refuses)
{
	struct rcl_md_bitmap_super bms;

	known_super(&bms);
	bms.version = 2;
	refused(&bms, 8, "version 2");
	bms.version = 6;
	refused(&bms, 8, "version 6");
	known_super(&bms);
	bms.chunksize = 0;
	refused(&bms, 8, "chunk size 0");
	bms.chunksize = 256;
	refused(&bms, 8, "chunk size 256");
	bms.chunksize = 3 * MIB;
	refused(&bms, 8, "power of two");
	known_super(&bms);
	bms.daemon_sleep = 0;
	refused(&bms, 8, "daemon sleep");
	known_super(&bms);
	bms.write_behind = RCL_MD_BITMAP_MAX_WRITE_BEHIND + 1;
	refused(&bms, 8, "write-behind 16384");
}
END_TEST

START_TEST(test_bits_must_fit_the_room)
{
	struct rcl_md_bitmap_super bms;

	known_super(&bms);
	bms.chunksize = 4096;
	bms.sync_size = 30720ull * 8; /* 30720 bits: exactly 4 KiB with the superblock */
	refused(&bms, 7, "does not fit");
	bms.sync_size += 8; /* one bit more: 8 KiB */
	refused(&bms, 8, "does not fit");
	known_super(&bms);
	bms.nodes = 3; /* three copies of 4 KiB */
	refused(&bms, 23, "x3 copies");
	bms.sync_size = UINT64_MAX; /* a hostile size must not wrap the check */
	bms.chunksize = 512;
	refused(&bms, 1u << 30, "does not fit");
}
END_TEST

static Suite *md_bitmap_suite(void)
{
	Suite *s = suite_create("md-bitmap");
	TCase *tc;

	tc = tcase_create("rcl_md_bitmap_bits");
	tcase_add_test(tc, test_bits);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_bitmap_space");
	tcase_add_test(tc, test_space_is_whole_4k);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_bitmap_default_chunk");
	tcase_add_test(tc, test_default_chunk);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_bitmap_encode");
	tcase_add_test(tc, test_encode_gives_the_known_bytes);
	tcase_add_test(tc, test_encode_refusals);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_bitmap_decode");
	tcase_add_test(tc, test_decode_known_bytes);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_bad_magic);
	tcase_add_test(tc, test_what_md_refuses);
	tcase_add_test(tc, test_bits_must_fit_the_room);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(md_bitmap_suite());
}
