// SPDX-License-Identifier: MIT
/*
 * test-md-super1.c - md's v1 superblock: known bytes mdadm accepts, round
 * trips, every corruption refused, and mdadm 4.2's v1.2 member geometry.
 */
#include <string.h>

#include "soft/format/md-bitmap.h"
#include "soft/format/md-super1.h"
#include "unit.h"

/*
 * The first 256 bytes of a superblock that "mdadm --examine" (4.2) reports
 * as "Checksum : d82d0cc0 - correct": a raid5 member, 4 disks, 64K chunk,
 * internal bitmap. max_dev is 128 and dev_roles[] is 0, 1, 2, 3, then
 * 0xffff. Its word sum, 0x48d82d0c78, carries: the fold is exercised.
 */
static const uint8_t known_head[256] = {
    0xfc, 0x4e, 0x2b, 0xa9, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
    0x72, 0x61, 0x69, 0x64, 0x63, 0x6c, 0x69, 0x3a, 0x6b, 0x6e, 0x6f, 0x77, 0x6e, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0xf1, 0x53, 0x65, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
    0x00, 0xe8, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xdf, 0xef, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
    0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff, 0x00, 0x00, 0x08, 0x00, 0x10, 0x00, 0x00, 0x00,
    0x64, 0xf1, 0x53, 0x65, 0x00, 0x00, 0x00, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc0, 0x0c, 0x2d, 0xd8, 0x80, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
#define KNOWN_CSUM 0xd82d0cc0u

static void known_bytes(uint8_t *buf)
{
	memset(buf, 0, RCL_MD_SB_AREA);
	memcpy(buf, known_head, sizeof(known_head));
	for (int i = 0; i < 128; i++) {
		buf[256 + 2 * i] = i < 4 ? (uint8_t)i : 0xff;
		buf[256 + 2 * i + 1] = i < 4 ? 0 : 0xff;
	}
}

/* The struct the known bytes encode. */
static void known_super(struct rcl_md_super1 *sb)
{
	memset(sb, 0, sizeof(*sb));
	for (int i = 0; i < 16; i++) {
		sb->set_uuid[i] = (uint8_t)(0x11 * i);
		sb->device_uuid[i] = (uint8_t)(0xf0 + i);
	}
	strcpy(sb->set_name, "raidcli:known");
	sb->feature_map = RCL_MD_FEATURE_BITMAP_OFFSET;
	sb->ctime = 1700000000;
	sb->level = RCL_MD_LEVEL_RAID5;
	sb->layout = RCL_MD_LAYOUT_LEFT_SYMMETRIC;
	sb->size = 190464;
	sb->chunksize = 128;
	sb->raid_disks = 4;
	sb->bitmap_offset = 8;
	sb->data_offset = 2048;
	sb->data_size = 192479;
	sb->super_offset = 8;
	sb->dev_number = 2;
	sb->bblog_size = 8;
	sb->bblog_offset = 16;
	sb->utime = 1700000100;
	sb->events = 42;
	sb->resync_offset = UINT64_MAX;
	sb->sb_csum = KNOWN_CSUM;
	sb->max_dev = 128;
	for (int i = 0; i < 128; i++)
		sb->dev_roles[i] = i < 4 ? (uint16_t)i : RCL_MD_ROLE_SPARE;
}

#define KNOWN_DEV_SECTORS 194527ull

static void assert_same(const struct rcl_md_super1 *a, const struct rcl_md_super1 *b)
{
	ck_assert_uint_eq(a->feature_map, b->feature_map);
	ck_assert_mem_eq(a->set_uuid, b->set_uuid, 16);
	ck_assert_str_eq(a->set_name, b->set_name);
	ck_assert_uint_eq(a->ctime, b->ctime);
	ck_assert_int_eq(a->level, b->level);
	ck_assert_uint_eq(a->layout, b->layout);
	ck_assert_uint_eq(a->size, b->size);
	ck_assert_uint_eq(a->chunksize, b->chunksize);
	ck_assert_uint_eq(a->raid_disks, b->raid_disks);
	ck_assert_int_eq(a->bitmap_offset, b->bitmap_offset);
	ck_assert_int_eq(a->new_level, b->new_level);
	ck_assert_uint_eq(a->reshape_position, b->reshape_position);
	ck_assert_int_eq(a->delta_disks, b->delta_disks);
	ck_assert_uint_eq(a->new_layout, b->new_layout);
	ck_assert_uint_eq(a->new_chunk, b->new_chunk);
	ck_assert_int_eq(a->new_offset, b->new_offset);
	ck_assert_uint_eq(a->data_offset, b->data_offset);
	ck_assert_uint_eq(a->data_size, b->data_size);
	ck_assert_uint_eq(a->super_offset, b->super_offset);
	ck_assert_uint_eq(a->recovery_offset, b->recovery_offset);
	ck_assert_uint_eq(a->dev_number, b->dev_number);
	ck_assert_uint_eq(a->cnt_corrected_read, b->cnt_corrected_read);
	ck_assert_mem_eq(a->device_uuid, b->device_uuid, 16);
	ck_assert_uint_eq(a->devflags, b->devflags);
	ck_assert_uint_eq(a->bblog_shift, b->bblog_shift);
	ck_assert_uint_eq(a->bblog_size, b->bblog_size);
	ck_assert_int_eq(a->bblog_offset, b->bblog_offset);
	ck_assert_uint_eq(a->utime, b->utime);
	ck_assert_uint_eq(a->events, b->events);
	ck_assert_uint_eq(a->resync_offset, b->resync_offset);
	ck_assert_uint_eq(a->sb_csum, b->sb_csum);
	ck_assert_uint_eq(a->max_dev, b->max_dev);
	ck_assert_mem_eq(a->dev_roles, b->dev_roles, 2 * a->max_dev);
}

/* Decode @buf expecting @status and a message containing @part. */
static void refused(const uint8_t *buf, size_t len, uint64_t dev_sectors, enum rcl_status status,
                    const char *part)
{
	struct rcl_md_super1 sb;
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_md_super1_decode(buf, len, 8, dev_sectors, &sb, &err), status);
	ck_assert_int_eq(err.status, status);
	ck_assert_msg(strstr(err.msg, part), "message lacks '%s': %s", part, err.msg);
}

/* Encode @sb (checksum and all) and expect decode to refuse it. */
static void refused_sb(const struct rcl_md_super1 *sb, uint64_t dev_sectors, enum rcl_status status,
                       const char *part)
{
	uint8_t buf[RCL_MD_SB_AREA];

	ck_assert_int_eq(rcl_md_super1_encode(sb, buf, sizeof(buf), NULL), RCL_OK);
	refused(buf, sizeof(buf), dev_sectors, status, part);
}

/* Encode @sb and expect decode to take it. */
static void accepted_sb(const struct rcl_md_super1 *sb, uint64_t dev_sectors)
{
	uint8_t buf[RCL_MD_SB_AREA];
	struct rcl_md_super1 back;
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_md_super1_encode(sb, buf, sizeof(buf), NULL), RCL_OK);
	ck_assert_msg(rcl_md_super1_decode(buf, sizeof(buf), 8, dev_sectors, &back, &err) == RCL_OK,
	              "%s", err.msg);
}

START_TEST(test_csum_of_known_bytes)
{
	uint8_t buf[RCL_MD_SB_AREA];

	known_bytes(buf);
	ck_assert_uint_eq(rcl_md_super1_csum(buf, 128), KNOWN_CSUM);
}
END_TEST

START_TEST(test_csum_ignores_the_csum_field)
{
	uint8_t buf[RCL_MD_SB_AREA];

	known_bytes(buf);
	memset(buf + 216, 0x5a, 4);
	ck_assert_uint_eq(rcl_md_super1_csum(buf, 128), KNOWN_CSUM);
}
END_TEST

START_TEST(test_csum_odd_max_dev_adds_the_last_role)
{
	uint8_t buf[RCL_MD_SB_AREA];
	uint32_t two, three;

	known_bytes(buf);
	two = rcl_md_super1_csum(buf, 2);
	three = rcl_md_super1_csum(buf, 3);
	buf[256 + 4] ^= 0x34; /* role 2's low byte: summed for max_dev 3 only */
	ck_assert_uint_eq(rcl_md_super1_csum(buf, 2), two);
	ck_assert_uint_eq(rcl_md_super1_csum(buf, 3), three + 0x34);
}
END_TEST

START_TEST(test_encode_gives_the_known_bytes)
{
	struct rcl_md_super1 sb;
	uint8_t want[RCL_MD_SB_AREA], got[RCL_MD_SB_AREA];
	struct rcl_error err = {0};

	known_super(&sb);
	sb.sb_csum = 0; /* ignored: encode computes it */
	known_bytes(want);
	memset(got, 0xaa, sizeof(got));
	ck_assert_int_eq(rcl_md_super1_encode(&sb, got, sizeof(got), &err), RCL_OK);
	ck_assert_int_eq(err.status, RCL_OK);
	ck_assert_mem_eq(got, want, sizeof(want));
}
END_TEST

START_TEST(test_encode_refuses_too_many_roles)
{
	struct rcl_md_super1 sb;
	uint8_t buf[RCL_MD_SB_AREA];
	struct rcl_error err = {0};

	known_super(&sb);
	sb.max_dev = RCL_MD_MAX_DEV + 1;
	ck_assert_int_eq(rcl_md_super1_encode(&sb, buf, sizeof(buf), &err), RCL_INVALID_PARAM);
	sb.max_dev = 128;
	ck_assert_int_eq(rcl_md_super1_encode(&sb, buf, 511, &err), RCL_INVALID_PARAM);
	ck_assert_int_eq(rcl_md_super1_encode(&sb, buf, 512, &err), RCL_OK);
}
END_TEST

START_TEST(test_decode_known_bytes)
{
	struct rcl_md_super1 want, got;
	uint8_t buf[RCL_MD_SB_AREA];
	struct rcl_error err = {0};

	known_bytes(buf);
	known_super(&want);
	ck_assert_int_eq(rcl_md_super1_decode(buf, sizeof(buf), 8, KNOWN_DEV_SECTORS, &got, &err),
	                 RCL_OK);
	ck_assert_int_eq(err.status, RCL_OK);
	assert_same(&got, &want);
	ck_assert_uint_eq(rcl_md_super1_role(&got), 2);
}
END_TEST

START_TEST(test_round_trip_every_field)
{
	struct rcl_md_super1 sb, back;
	uint8_t buf[RCL_MD_SB_AREA];
	struct rcl_error err = {0};

	known_super(&sb);
	/* A v1.2 RAID6 mid-reshape, rebuilding, with odd max_dev. */
	sb.feature_map = RCL_MD_FEATURE_BITMAP_OFFSET | RCL_MD_FEATURE_RECOVERY_OFFSET |
	                 RCL_MD_FEATURE_RESHAPE_ACTIVE | RCL_MD_FEATURE_NEW_OFFSET;
	strcpy(sb.set_name, "host-with-a-long-name:array-name");
	sb.level = RCL_MD_LEVEL_RAID6;
	sb.new_level = RCL_MD_LEVEL_RAID6;
	sb.reshape_position = 123456789;
	sb.delta_disks = -1;
	sb.new_layout = 3;
	sb.new_chunk = 256;
	sb.new_offset = -1024;
	sb.recovery_offset = 4096;
	sb.cnt_corrected_read = 17;
	sb.devflags = RCL_MD_DEVFLAG_WRITEMOSTLY | RCL_MD_DEVFLAG_FAILFAST;
	sb.bblog_shift = 3;
	sb.max_dev = 5;
	sb.dev_roles[4] = RCL_MD_ROLE_FAULTY;
	ck_assert_int_eq(rcl_md_super1_encode(&sb, buf, sizeof(buf), &err), RCL_OK);
	ck_assert_int_eq(rcl_md_super1_decode(buf, sizeof(buf), 8, KNOWN_DEV_SECTORS, &back, &err),
	                 RCL_OK);
	sb.sb_csum = rcl_md_super1_csum(buf, 5);
	assert_same(&back, &sb);
}
END_TEST

START_TEST(test_every_flipped_byte_is_caught)
{
	uint8_t good[RCL_MD_SB_AREA], buf[RCL_MD_SB_AREA];

	known_bytes(good);
	for (size_t i = 0; i < rcl_md_super1_bytes(128); i++) {
		for (int bit = 0; bit < 8; bit++) {
			struct rcl_md_super1 sb;
			struct rcl_error err = {0};
			bool envelope =
			    i < 8 || (i >= 220 && i < 224); /* magic, version, max_dev */

			memcpy(buf, good, sizeof(buf));
			buf[i] ^= (uint8_t)(1 << bit);
			ck_assert_msg(rcl_md_super1_decode(buf, sizeof(buf), 8, KNOWN_DEV_SECTORS,
			                                   &sb, &err) == RCL_CORRUPT,
			              "byte %zu bit %d flipped: accepted", i, bit);
			ck_assert_msg(envelope || strstr(err.msg, "checksum"),
			              "byte %zu bit %d: %s", i, bit, err.msg);
		}
	}
}
END_TEST

START_TEST(test_bad_magic)
{
	uint8_t buf[RCL_MD_SB_AREA];

	known_bytes(buf);
	buf[0] = 0;
	refused(buf, sizeof(buf), KNOWN_DEV_SECTORS, RCL_CORRUPT, "magic 0xa92b4e00");
	memset(buf, 0, sizeof(buf));
	refused(buf, sizeof(buf), KNOWN_DEV_SECTORS, RCL_CORRUPT, "no md superblock");
}
END_TEST

START_TEST(test_bad_major_version)
{
	uint8_t buf[RCL_MD_SB_AREA];

	known_bytes(buf);
	buf[4] = 0; /* 0.90 superblocks live elsewhere and look nothing like this */
	refused(buf, sizeof(buf), KNOWN_DEV_SECTORS, RCL_CORRUPT, "major version 0");
}
END_TEST

START_TEST(test_max_dev_over_the_limit)
{
	uint8_t buf[RCL_MD_SB_AREA];

	known_bytes(buf);
	buf[220] = 0x81; /* 1921 */
	buf[221] = 0x07;
	refused(buf, sizeof(buf), KNOWN_DEV_SECTORS, RCL_CORRUPT, "max_dev 1921");
	buf[220] = 0xff;
	buf[223] = 0xff;
	refused(buf, sizeof(buf), KNOWN_DEV_SECTORS, RCL_CORRUPT, "max_dev");
	/* Within md's limit but past what the caller read. */
	known_bytes(buf);
	refused(buf, 300, KNOWN_DEV_SECTORS, RCL_CORRUPT, "max_dev 128");
}
END_TEST

START_TEST(test_short_buffer_is_a_caller_error)
{
	uint8_t buf[RCL_MD_SB_AREA];

	known_bytes(buf);
	refused(buf, 255, KNOWN_DEV_SECTORS, RCL_INVALID_PARAM, "255 bytes");
}
END_TEST

START_TEST(test_data_beyond_the_device)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	refused_sb(&sb, KNOWN_DEV_SECTORS - 1, RCL_CORRUPT, "beyond the device");
	sb.data_offset = KNOWN_DEV_SECTORS + 1;
	sb.data_size = 0;
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "beyond the device");
	/* data_offset + data_size must not wrap around */
	known_super(&sb);
	sb.data_size = UINT64_MAX - 100;
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "beyond the device");
}
END_TEST

START_TEST(test_superblock_beyond_the_device)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	refused_sb(&sb, 8, RCL_CORRUPT, "superblock at sector 8 is beyond");
}
END_TEST

START_TEST(test_data_over_the_superblock)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	sb.data_offset = 0;
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "overlaps the superblock");
}
END_TEST

START_TEST(test_superblock_elsewhere)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	sb.super_offset = 0; /* a v1.1 superblock found at v1.2's place */
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "says it is at sector 0");
}
END_TEST

START_TEST(test_bitmap_outside_its_place)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	sb.bitmap_offset = 2040 + 100; /* in the data */
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "bitmap at 2140 sectors");
	sb.bitmap_offset = -9; /* before the device */
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "off the device");
	sb.bitmap_offset = 0; /* on the superblock */
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "overlaps");
	sb.feature_map = 0; /* without the feature bit the field means nothing */
	accepted_sb(&sb, KNOWN_DEV_SECTORS);
}
END_TEST

START_TEST(test_bblog_outside_its_place)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	sb.bblog_offset = 2040 - 4; /* last 4 sectors run into the data */
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "bad-block log");
	sb.bblog_offset = INT32_MAX;
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "off the device");
}
END_TEST

START_TEST(test_ppl_outside_its_place)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	sb.feature_map = RCL_MD_FEATURE_PPL;
	sb.bitmap_offset = (int32_t)(8u << 16 | 8); /* 8 sectors at 8: fine */
	accepted_sb(&sb, KNOWN_DEV_SECTORS);
	sb.bitmap_offset = (int32_t)(2048u << 16 | 8); /* 2048 sectors: into the data */
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "PPL at 8 sectors");
	sb.feature_map |= RCL_MD_FEATURE_BITMAP_OFFSET;
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "both a bitmap and a PPL");
}
END_TEST

START_TEST(test_striped_level_without_chunk)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	sb.chunksize = 0;
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_CORRUPT, "no chunk size");
}
END_TEST

START_TEST(test_unknown_features_and_padding)
{
	struct rcl_md_super1 sb;
	uint8_t buf[RCL_MD_SB_AREA];

	known_super(&sb);
	sb.feature_map |= 1u << 7;
	refused_sb(&sb, KNOWN_DEV_SECTORS, RCL_UNSUPPORTED, "unknown features 0x80");
	known_bytes(buf);
	buf[240] = 1;
	buf[216] = buf[217] = buf[218] = buf[219] = 0;
	{
		uint32_t csum = rcl_md_super1_csum(buf, 128);

		for (int i = 0; i < 4; i++)
			buf[216 + i] = (uint8_t)(csum >> (8 * i));
	}
	refused(buf, sizeof(buf), KNOWN_DEV_SECTORS, RCL_UNSUPPORTED, "padding at byte 240");
}
END_TEST

START_TEST(test_role)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	ck_assert_uint_eq(rcl_md_super1_role(&sb), 2);
	sb.dev_number = 4;
	ck_assert_uint_eq(rcl_md_super1_role(&sb), RCL_MD_ROLE_SPARE);
	sb.dev_number = 128; /* past max_dev: md treats it as a spare */
	ck_assert_uint_eq(rcl_md_super1_role(&sb), RCL_MD_ROLE_SPARE);
}
END_TEST

START_TEST(test_bitmap_room)
{
	struct rcl_md_super1 sb;

	known_super(&sb);
	ck_assert_uint_eq(rcl_md_super1_bitmap_room(&sb), 8); /* up to the bad-block log */
	sb.bblog_size = 0;
	ck_assert_uint_eq(rcl_md_super1_bitmap_room(&sb), 2048 - 16); /* up to the data */
	sb.feature_map = 0;
	ck_assert_uint_eq(rcl_md_super1_bitmap_room(&sb), 0);
	/* v1.0: data first, bitmap before the superblock at the end. */
	known_super(&sb);
	sb.data_offset = 0;
	sb.super_offset = 1000;
	sb.bitmap_offset = -16;
	sb.bblog_size = 0;
	ck_assert_uint_eq(rcl_md_super1_bitmap_room(&sb), 16);
}
END_TEST

/* ---- geometry ---- */

static struct rcl_md_geometry geometry(uint64_t dev_sectors, int32_t level, uint32_t layout,
                                       uint32_t disks, uint32_t chunk, bool bitmap)
{
	struct rcl_md_shape shape = {level, layout, disks, chunk, bitmap};
	struct rcl_md_geometry geo;
	struct rcl_error err = {0};

	ck_assert_msg(rcl_md_super1_geometry(dev_sectors, &shape, &geo, &err) == RCL_OK, "%s",
	              err.msg);
	ck_assert_uint_eq(geo.super_offset, 8);
	ck_assert_uint_eq(geo.data_size, dev_sectors - geo.data_offset);
	return geo;
}

#define GIB (2ull * 1024 * 1024) /* in sectors */

START_TEST(test_data_offset_like_mdadm)
{
	/* Small devices: headroom stops at two chunks, or ~0.1% without. */
	ck_assert_uint_eq(geometry(194527, 5, 2, 4, 128, true).data_offset, 2048);
	ck_assert_uint_eq(geometry(194527, 5, 2, 4, 1024, true).data_offset, 4096);
	ck_assert_uint_eq(geometry(194527, 1, 0, 2, 0, true).data_offset, 2048);
	/* 1 GiB RAID1: 2048 sectors of headroom, plus metadata: 2 MiB. */
	ck_assert_uint_eq(geometry(GIB, 1, 0, 2, 0, true).data_offset, 4096);
	/* 10 GiB: 8 MiB headroom, 64 KiB bitmap space: 9 MiB. */
	ck_assert_uint_eq(geometry(10 * GIB, 6, 2, 5, 1024, true).data_offset, 18432);
	/* From 128 GiB the full 128 MiB headroom: mdadm's familiar 264192. */
	ck_assert_uint_eq(geometry(1024 * GIB, 5, 2, 4, 1024, true).data_offset, 264192);
	ck_assert_uint_eq(geometry(1024 * GIB, 0, 0, 4, 1024, false).data_offset, 264192);
}
END_TEST

START_TEST(test_size_rounding)
{
	struct rcl_md_geometry geo;

	geo = geometry(194527, 5, 2, 4, 128, true);
	ck_assert_uint_eq(geo.data_size, 192479);
	ck_assert_uint_eq(geo.size, 192384); /* whole 64K chunks */
	geo = geometry(194527, 1, 0, 2, 0, true);
	ck_assert_uint_eq(geo.size, 192384); /* RAID1: whole 64 KiB */
	geo = geometry(194527, 10, 0x102, 4, 1024, true);
	ck_assert_uint_eq(geo.size, 189440); /* whole 512K chunks */
	geo = geometry(194527, 0, 0, 3, 1024, false);
	ck_assert_uint_eq(geo.size, 0); /* RAID0: mdadm writes none */
}
END_TEST

START_TEST(test_bitmap_and_bblog_placement)
{
	struct rcl_md_geometry geo;

	geo = geometry(194527, 5, 2, 4, 128, true);
	ck_assert_int_eq(geo.bitmap_offset, 8);
	ck_assert_uint_eq(geo.bitmap_chunk, 64u << 20);
	ck_assert_uint_eq(geo.bitmap_sync_size, geo.size);
	ck_assert_int_eq(geo.bblog_offset, 16); /* after the bitmap's 4 KiB */
	ck_assert_uint_eq(geo.bblog_size, 8);
	/* RAID10's bitmap covers the array: near-2 over 4 disks is 2 members. */
	geo = geometry(194527, 10, 0x102, 4, 1024, true);
	ck_assert_uint_eq(geo.bitmap_sync_size, 2 * geo.size);
	/* No bitmap: the log goes after the space kept for one. */
	geo = geometry(194527, 5, 2, 4, 128, false);
	ck_assert_int_eq(geo.bitmap_offset, 0);
	ck_assert_uint_eq(geo.bitmap_chunk, 0);
	ck_assert_int_eq(geo.bblog_offset, 16);
	geo = geometry(194527, 0, 0, 3, 1024, true); /* md gives RAID0 no bitmap */
	ck_assert_int_eq(geo.bitmap_offset, 0);
	ck_assert_int_eq(geo.bblog_offset, 8);
	/* 1 TiB: 128 KiB of bitmap space, still 64 MiB chunks (16384 bits). */
	geo = geometry(1024 * GIB, 1, 0, 2, 0, true);
	ck_assert_uint_eq(geo.bitmap_chunk, 64u << 20);
	ck_assert_int_eq(geo.bblog_offset, 16);
	geo = geometry(1024 * GIB, 1, 0, 2, 0, false);
	ck_assert_int_eq(geo.bblog_offset, 8 + 256);
}
END_TEST

/* A member of @geo (made without a bitmap) as md's superblock has it. */
static void grow(const struct rcl_md_geometry *geo, int32_t level, uint32_t layout, uint32_t disks,
                 struct rcl_md_geometry *out, uint64_t *need, uint64_t *room, bool fits)
{
	static struct rcl_md_super1 sb;

	memset(&sb, 0, sizeof(sb));
	sb.level = level;
	sb.layout = layout;
	sb.raid_disks = disks;
	sb.size = geo->size;
	sb.super_offset = geo->super_offset;
	sb.data_offset = geo->data_offset;
	sb.data_size = geo->data_size;
	sb.bblog_offset = geo->bblog_offset;
	sb.bblog_size = geo->bblog_size;
	*out = *geo;
	ck_assert(rcl_md_super1_grow_bitmap(&sb, out, need, room) == fits);
}

START_TEST(test_grow_bitmap_like_mdadm)
{
	struct rcl_md_geometry geo, with;
	uint64_t need, room;

	/* mdadm's small arrays: 4 KiB kept before the log, one block of 64 MiB chunks. */
	geo = geometry(194527, 5, 2, 4, 128, false);
	grow(&geo, 5, 2, 4, &geo, &need, &room, true);
	ck_assert_int_eq(geo.bitmap_offset, 8);
	ck_assert_uint_eq(geo.bitmap_chunk, 64u << 20);
	ck_assert_uint_eq(geo.bitmap_sync_size, geo.size);
	ck_assert_uint_eq(room, 8);
	ck_assert_uint_eq(need, 8);
	/* RAID10's covers the array; 1 TiB: 128 KiB kept, as --create would use. */
	geo = geometry(194527, 10, 0x102, 4, 1024, false);
	grow(&geo, 10, 0x102, 4, &with, &need, &room, true);
	ck_assert_uint_eq(with.bitmap_sync_size, 2 * geo.size);
	geo = geometry(1024 * GIB, 1, 0, 2, 0, false);
	grow(&geo, 1, 0, 2, &with, &need, &room, true);
	ck_assert_uint_eq(room, 256);
	ck_assert_uint_eq(with.bitmap_chunk, geometry(1024 * GIB, 1, 0, 2, 0, true).bitmap_chunk);
	/* The log right after the superblock, or no room before the data: none. */
	geo = geometry(194527, 1, 0, 2, 0, false);
	geo.bblog_offset = 8;
	grow(&geo, 1, 0, 2, &with, &need, &room, false);
	ck_assert_uint_eq(room, 0);
	ck_assert_uint_eq(need, 8);
	geo.bblog_size = 0;
	geo.data_offset = 24;
	grow(&geo, 1, 0, 2, &with, &need, &room, false);
	ck_assert_int_eq(with.bitmap_offset, 0);
}
END_TEST

START_TEST(test_geometry_refusals)
{
	static const struct {
		uint64_t sectors;
		struct rcl_md_shape shape;
		const char *part;
	} cases[] = {
	    {194527, {4, 0, 4, 128, true}, "level 4"},
	    {194527, {5, 2, 4, 96, true}, "power of two"},
	    {194527, {5, 2, 4, 4, true}, "power of two"},
	    {194527, {1, 0, 2, 128, true}, "no chunk"},
	    {194527, {10, 0, 4, 128, true}, "no copies"},
	    {4096 + 1023, {5, 2, 4, 1024, true}, "cannot hold"},
	    {2048 + 127, {1, 0, 2, 0, true}, "cannot hold"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rcl_md_geometry geo;
		struct rcl_error err = {0};

		ck_assert_int_eq(
		    rcl_md_super1_geometry(cases[i].sectors, &cases[i].shape, &geo, &err),
		    RCL_INVALID_PARAM);
		ck_assert_msg(strstr(err.msg, cases[i].part), "case %zu: %s", i, err.msg);
	}
}
END_TEST

START_TEST(test_init_from_geometry)
{
	struct rcl_md_shape shape = {5, 2, 4, 128, true};
	struct rcl_md_geometry geo = geometry(194527, 5, 2, 4, 128, true);
	struct rcl_md_super1 sb;
	struct rcl_error err = {0};
	uint8_t buf[RCL_MD_SB_AREA];

	ck_assert_int_eq(rcl_md_super1_init(&sb, &shape, &geo, 5, &err), RCL_OK);
	ck_assert_uint_eq(sb.max_dev, 128);
	ck_assert_uint_eq(sb.feature_map, RCL_MD_FEATURE_BITMAP_OFFSET);
	ck_assert_int_eq(sb.bitmap_offset, 8);
	ck_assert_uint_eq(sb.data_offset, 2048);
	ck_assert_uint_eq(sb.size, geo.size);
	ck_assert_uint_eq(sb.dev_roles[0], RCL_MD_ROLE_SPARE);
	ck_assert_uint_eq(sb.dev_roles[RCL_MD_MAX_DEV - 1], RCL_MD_ROLE_SPARE);
	/* What init gives must pass decode on the device it was made for. */
	ck_assert_int_eq(rcl_md_super1_encode(&sb, buf, sizeof(buf), &err), RCL_OK);
	ck_assert_int_eq(rcl_md_super1_decode(buf, sizeof(buf), 8, 194527, &sb, &err), RCL_OK);
	/* mdadm rounds the superblock to whole sectors: 129 devices need 384 roles. */
	ck_assert_int_eq(rcl_md_super1_init(&sb, &shape, &geo, 129, &err), RCL_OK);
	ck_assert_uint_eq(sb.max_dev, 384);
	ck_assert_int_eq(rcl_md_super1_init(&sb, &shape, &geo, RCL_MD_MAX_DEV, &err), RCL_OK);
	ck_assert_uint_eq(sb.max_dev, RCL_MD_MAX_DEV);
	ck_assert_int_eq(rcl_md_super1_init(&sb, &shape, &geo, RCL_MD_MAX_DEV + 1, &err),
	                 RCL_INVALID_PARAM);
	ck_assert_int_eq(rcl_md_super1_init(&sb, &shape, &geo, 3, &err), RCL_INVALID_PARAM);
}
END_TEST

static Suite *md_super1_suite(void)
{
	Suite *s = suite_create("md-super1");
	TCase *tc;

	tc = tcase_create("rcl_md_super1_csum");
	tcase_add_test(tc, test_csum_of_known_bytes);
	tcase_add_test(tc, test_csum_ignores_the_csum_field);
	tcase_add_test(tc, test_csum_odd_max_dev_adds_the_last_role);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_super1_encode");
	tcase_add_test(tc, test_encode_gives_the_known_bytes);
	tcase_add_test(tc, test_encode_refuses_too_many_roles);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_super1_decode");
	tcase_add_test(tc, test_decode_known_bytes);
	tcase_add_test(tc, test_round_trip_every_field);
	tcase_add_test(tc, test_every_flipped_byte_is_caught);
	tcase_add_test(tc, test_bad_magic);
	tcase_add_test(tc, test_bad_major_version);
	tcase_add_test(tc, test_max_dev_over_the_limit);
	tcase_add_test(tc, test_short_buffer_is_a_caller_error);
	tcase_add_test(tc, test_data_beyond_the_device);
	tcase_add_test(tc, test_superblock_beyond_the_device);
	tcase_add_test(tc, test_data_over_the_superblock);
	tcase_add_test(tc, test_superblock_elsewhere);
	tcase_add_test(tc, test_bitmap_outside_its_place);
	tcase_add_test(tc, test_bblog_outside_its_place);
	tcase_add_test(tc, test_ppl_outside_its_place);
	tcase_add_test(tc, test_striped_level_without_chunk);
	tcase_add_test(tc, test_unknown_features_and_padding);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_super1_role");
	tcase_add_test(tc, test_role);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_super1_bitmap_room");
	tcase_add_test(tc, test_bitmap_room);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_super1_geometry");
	tcase_add_test(tc, test_data_offset_like_mdadm);
	tcase_add_test(tc, test_size_rounding);
	tcase_add_test(tc, test_bitmap_and_bblog_placement);
	tcase_add_test(tc, test_geometry_refusals);
	tcase_add_test(tc, test_grow_bitmap_like_mdadm);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_md_super1_init");
	tcase_add_test(tc, test_init_from_geometry);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(md_super1_suite());
}
