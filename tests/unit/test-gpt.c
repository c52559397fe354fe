// SPDX-License-Identifier: MIT
/*
 * test-gpt.c - GPT on drive images: round trips at 512 and 4096-byte
 * sectors, falling back to the backup, damaged and hostile tables, GUIDs.
 *
 * Drives are memfds: sparse, in memory, with the same pread/pwrite/fdatasync
 * behaviour as an image file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "soft/format/crc32.h"
#include "soft/format/gpt.h"
#include "unit.h"

#define MIB   (1ull << 20)
#define DRIVE (8 * MIB)

static void flip_byte(int fd, uint64_t off)
{
	uint8_t b;

	unit_get(fd, &b, 1, off);
	b ^= 0x40;
	unit_put(fd, &b, 1, off);
}

static uint32_t le32_at(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A table with three partitions in slots 1, 2 and 128, as a caller builds it. */
static void sample_table(struct rcl_gpt *gpt, uint64_t bytes, unsigned ss)
{
	struct rcl_error err = {0};
	uint64_t first, mib = MIB / ss;

	ck_assert_int_eq(rcl_gpt_init(gpt, bytes, ss, &err), RCL_OK);
	first = rcl_gpt_first_aligned_lba(gpt);
	for (int i = 0; i < 3; i++) {
		struct rcl_gpt_part *p = &gpt->parts[i < 2 ? i : RCL_GPT_MAX_PARTS - 1];

		p->type = rcl_gpt_type_linux_raid;
		ck_assert_int_eq(rcl_guid_random(&p->guid, &err), RCL_OK);
		p->first_lba = first + (uint64_t)i * 2 * mib;
		p->last_lba = p->first_lba + mib - 1;
		p->attributes = (uint64_t)i << 48 | 1;
		snprintf(p->name, sizeof(p->name), "raidcli vd%d", i);
	}
	strcpy(gpt->parts[0].name, "a name of exactly 36 characters 1234");
}

static int drive_with_table(struct rcl_gpt *gpt, uint64_t bytes, unsigned ss)
{
	struct rcl_error err = {0};
	int fd = unit_drive_new(bytes);

	sample_table(gpt, bytes, ss);
	ck_assert_msg(rcl_gpt_write(fd, gpt, &err) == RCL_OK, "%s", err.msg);
	return fd;
}

static void assert_same_parts(const struct rcl_gpt *a, const struct rcl_gpt *b)
{
	ck_assert_mem_eq(a->disk_guid.b, b->disk_guid.b, 16);
	for (size_t i = 0; i < RCL_GPT_MAX_PARTS; i++) {
		const struct rcl_gpt_part *p = &a->parts[i], *q = &b->parts[i];

		ck_assert_mem_eq(p->type.b, q->type.b, 16);
		ck_assert_mem_eq(p->guid.b, q->guid.b, 16);
		ck_assert_uint_eq(p->first_lba, q->first_lba);
		ck_assert_uint_eq(p->last_lba, q->last_lba);
		ck_assert_uint_eq(p->attributes, q->attributes);
		ck_assert_str_eq(p->name, q->name);
	}
}

static void read_ok(int fd, uint64_t bytes, unsigned ss, struct rcl_gpt *gpt)
{
	struct rcl_error err = {0};

	ck_assert_msg(rcl_gpt_read(fd, bytes, ss, gpt, &err) == RCL_OK, "%s", err.msg);
	ck_assert_int_eq(err.status, RCL_OK);
}

static void read_refused(int fd, uint64_t bytes, unsigned ss, enum rcl_status status,
                         const char *part)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_gpt_read(fd, bytes, ss, gpt, &err), status);
	ck_assert_int_eq(err.status, status);
	ck_assert_msg(strstr(err.msg, part), "message lacks '%s': %s", part, err.msg);
	free(gpt);
}

/*
 * Set a header field in both copies, then make their CRCs right again:
 * what a buggy or hostile tool would write.
 */
static void set_header_field(int fd, uint64_t bytes, unsigned ss, size_t off, uint64_t value,
                             int width)
{
	uint64_t lbas[2] = {1, bytes / ss - 1};
	uint8_t h[4096];

	for (int i = 0; i < 2; i++) {
		unit_get(fd, h, ss, lbas[i] * ss);
		unit_put_le(h + off, value, width);
		unit_put_le(h + 16, 0, 4);
		unit_put_le(h + 16, rcl_crc32(0, h, 92), 4);
		unit_put(fd, h, ss, lbas[i] * ss);
	}
}

/* Change entry @slot in both copies' arrays and fix both CRCs. */
static void set_entry_field(int fd, uint64_t bytes, unsigned ss, size_t slot, size_t off,
                            uint64_t value, int width)
{
	uint64_t lbas[2] = {1, bytes / ss - 1};
	uint8_t h[4096], array[128 * 128];

	for (int i = 0; i < 2; i++) {
		uint64_t entries;

		unit_get(fd, h, ss, lbas[i] * ss);
		entries = le32_at(h + 72) | (uint64_t)le32_at(h + 76) << 32;
		unit_get(fd, array, sizeof(array), entries * ss);
		unit_put_le(array + slot * 128 + off, value, width);
		unit_put(fd, array, sizeof(array), entries * ss);
		unit_put_le(h + 88, rcl_crc32(0, array, sizeof(array)), 4);
		unit_put_le(h + 16, 0, 4);
		unit_put_le(h + 16, rcl_crc32(0, h, 92), 4);
		unit_put(fd, h, ss, lbas[i] * ss);
	}
}

/* ---- rcl_crc32 ---- */

START_TEST(test_crc32_check_value)
{
	/* The CRC-32 catalogue's check value, and zlib's crc32(). */
	ck_assert_uint_eq(rcl_crc32(0, "123456789", 9), 0xcbf43926);
	ck_assert_uint_eq(rcl_crc32(0, "", 0), 0);
	ck_assert_uint_eq(rcl_crc32(rcl_crc32(0, "12345", 5), "6789", 4), 0xcbf43926);
}
END_TEST

/* ---- GUIDs ---- */

START_TEST(test_guid_linux_raid_type)
{
	char text[RCL_GUID_STRLEN + 1];
	struct rcl_guid g;

	rcl_guid_to_string(&rcl_gpt_type_linux_raid, text);
	ck_assert_str_eq(text, "A19D880F-05FC-4D3B-A006-743F0F84911E");
	ck_assert_int_eq(rcl_guid_parse("a19d880f-05fc-4d3b-a006-743f0f84911e", &g, NULL), RCL_OK);
	ck_assert_mem_eq(g.b, rcl_gpt_type_linux_raid.b, 16);
	/* On disk the first three fields are little-endian. */
	ck_assert_uint_eq(g.b[0], 0x0f);
	ck_assert_uint_eq(g.b[3], 0xa1);
	ck_assert_uint_eq(g.b[4], 0xfc);
	ck_assert_uint_eq(g.b[8], 0xa0);
}
END_TEST

START_TEST(test_guid_parse_refusals)
{
	static const char *bad[] = {
	    "",
	    "A19D880F-05FC-4D3B-A006-743F0F84911",
	    "A19D880F-05FC-4D3B-A006-743F0F84911E0",
	    "A19D880F05FC-4D3B-A006-743F0F84911E-",
	    "A19D880F-05FC-4D3B-A006-743F0F84911G",
	    "{19D880F-05FC-4D3B-A006-743F0F84911E",
	};
	struct rcl_guid g = rcl_gpt_type_linux_raid;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rcl_error err = {0};

		ck_assert_int_eq(rcl_guid_parse(bad[i], &g, &err), RCL_INVALID_PARAM);
		ck_assert_msg(strstr(err.msg, bad[i]), "'%s' not quoted: %s", bad[i], err.msg);
		ck_assert_mem_eq(g.b, rcl_gpt_type_linux_raid.b, 16); /* left alone */
	}
}
END_TEST

START_TEST(test_guid_random_is_version_4)
{
	char a[RCL_GUID_STRLEN + 1], b[RCL_GUID_STRLEN + 1];
	struct rcl_guid g, back;

	ck_assert_int_eq(rcl_guid_random(&g, NULL), RCL_OK);
	rcl_guid_to_string(&g, a);
	ck_assert_int_eq(a[14], '4');
	ck_assert_ptr_nonnull(strchr("89AB", a[19]));
	ck_assert_int_eq(rcl_guid_parse(a, &back, NULL), RCL_OK);
	ck_assert_mem_eq(back.b, g.b, 16);
	ck_assert_int_eq(rcl_guid_random(&g, NULL), RCL_OK);
	rcl_guid_to_string(&g, b);
	ck_assert_str_ne(a, b);
	ck_assert(!rcl_guid_is_zero(&g));
	memset(&g, 0, sizeof(g));
	ck_assert(rcl_guid_is_zero(&g));
}
END_TEST

/* ---- rcl_gpt_init ---- */

START_TEST(test_init_usable_range)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_gpt_init(gpt, DRIVE, 512, &err), RCL_OK);
	ck_assert_uint_eq(gpt->first_usable, 34); /* MBR, header, 32 sectors of entries */
	ck_assert_uint_eq(gpt->last_usable, DRIVE / 512 - 34);
	ck_assert_uint_eq(rcl_gpt_first_aligned_lba(gpt), 2048);
	ck_assert(!rcl_guid_is_zero(&gpt->disk_guid));
	ck_assert_int_eq(rcl_gpt_init(gpt, DRIVE, 4096, &err), RCL_OK);
	ck_assert_uint_eq(gpt->first_usable, 6);
	ck_assert_uint_eq(gpt->last_usable, DRIVE / 4096 - 6);
	ck_assert_uint_eq(rcl_gpt_first_aligned_lba(gpt), 256);
	free(gpt);
}
END_TEST

START_TEST(test_init_refusals)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_gpt_init(gpt, DRIVE, 1024, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "1024"));
	ck_assert_int_eq(rcl_gpt_init(gpt, 67 * 512, 512, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "too small"));
	ck_assert_int_eq(rcl_gpt_init(gpt, 68 * 512, 512, &err), RCL_OK);
	ck_assert_uint_eq(gpt->first_usable, gpt->last_usable); /* one usable sector */
	free(gpt);
}
END_TEST

/* ---- rcl_gpt_write ---- */

START_TEST(test_write_layout_on_disk)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	uint8_t s[512];
	uint64_t last = DRIVE / 512 - 1;
	int fd = drive_with_table(gpt, DRIVE, 512);

	unit_get(fd, s, 512, 0);
	ck_assert_uint_eq(s[510], 0x55);
	ck_assert_uint_eq(s[511], 0xaa);
	ck_assert_uint_eq(s[446 + 4], 0xee);
	ck_assert_uint_eq(le32_at(s + 446 + 8), 1);
	ck_assert_uint_eq(le32_at(s + 446 + 12), last);
	unit_get(fd, s, 512, 512);
	ck_assert_mem_eq(s, "EFI PART", 8);
	ck_assert_uint_eq(le32_at(s + 24), 1);    /* my LBA */
	ck_assert_uint_eq(le32_at(s + 32), last); /* the other header */
	ck_assert_uint_eq(le32_at(s + 72), 2);    /* entries */
	unit_get(fd, s, 512, last * 512);
	ck_assert_mem_eq(s, "EFI PART", 8);
	ck_assert_uint_eq(le32_at(s + 24), last);
	ck_assert_uint_eq(le32_at(s + 32), 1);
	ck_assert_uint_eq(le32_at(s + 72), last - 32);
	close(fd);
	free(gpt);
}
END_TEST

static void write_refused(struct rcl_gpt *gpt, const char *part)
{
	struct rcl_error err = {0};
	int fd = unit_drive_new(DRIVE);

	ck_assert_int_eq(rcl_gpt_write(fd, gpt, &err), RCL_INVALID_PARAM);
	ck_assert_msg(strstr(err.msg, part), "message lacks '%s': %s", part, err.msg);
	read_refused(fd, DRIVE, 512, RCL_NOT_FOUND, "no GPT"); /* nothing written */
	close(fd);
}

START_TEST(test_write_refusals)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));

	sample_table(gpt, DRIVE, 512);
	gpt->parts[1].last_lba = gpt->last_usable + 1;
	write_refused(gpt, "outside the usable LBAs");
	sample_table(gpt, DRIVE, 512);
	gpt->parts[1].first_lba = 33;
	write_refused(gpt, "outside");
	sample_table(gpt, DRIVE, 512);
	gpt->parts[1].first_lba = gpt->parts[1].last_lba + 1;
	write_refused(gpt, "outside");
	sample_table(gpt, DRIVE, 512);
	gpt->parts[RCL_GPT_MAX_PARTS - 1].first_lba = gpt->parts[0].last_lba;
	write_refused(gpt, "partitions 1 and 128 overlap");
	sample_table(gpt, DRIVE, 512);
	gpt->parts[1].name[3] = (char)0xc3;
	write_refused(gpt, "not printable ASCII");
	sample_table(gpt, DRIVE, 512);
	gpt->sector_size = 520;
	write_refused(gpt, "520");
	free(gpt);
}
END_TEST

START_TEST(test_failed_write_keeps_the_old_table)
{
	struct rcl_gpt *old = calloc(1, sizeof(*old)), *next = calloc(1, sizeof(*next));
	struct rcl_gpt *back = calloc(1, sizeof(*back));
	struct rcl_error err = {0};
	char path[64];
	int fd = drive_with_table(old, DRIVE, 512), ro;

	/* The first write (the backup) fails: neither copy may change. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ro = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(ro, 0);
	sample_table(next, DRIVE, 512);
	ck_assert_int_eq(rcl_gpt_write(ro, next, &err), RCL_SYSTEM);
	ck_assert_ptr_nonnull(strstr(err.msg, "backup GPT entries"));
	ck_assert_int_ne(err.sys_errno, 0);
	read_ok(fd, DRIVE, 512, back);
	ck_assert_uint_eq(back->valid, RCL_GPT_PRIMARY | RCL_GPT_BACKUP);
	assert_same_parts(back, old);
	close(ro);
	close(fd);
	free(old);
	free(next);
	free(back);
}
END_TEST

/*
 * Fail allocation 1, 2, ... (transiently, then persistently) until @op
 * succeeds: every failure must be RCL_NOMEM, never a crash or a lie.
 */
static void oom_loop(enum rcl_status (*op)(int fd, struct rcl_gpt *gpt, struct rcl_error *err),
                     int fd, struct rcl_gpt *gpt)
{
	for (int persistent = 0; persistent < 2; persistent++) {
		unsigned long n;

		for (n = 1;; n++) {
			struct rcl_error err = {0};
			enum rcl_status st;

			rcl_alloc_fail_after(n, persistent);
			st = op(fd, gpt, &err);
			rcl_alloc_fail_after(0, false);
			if (st == RCL_OK)
				break;
			ck_assert_int_eq(st, RCL_NOMEM);
			ck_assert_int_eq(err.status, RCL_NOMEM);
		}
		ck_assert_uint_gt(n, 1);
	}
}

static enum rcl_status write_op(int fd, struct rcl_gpt *gpt, struct rcl_error *err)
{
	return rcl_gpt_write(fd, gpt, err);
}

START_TEST(test_write_out_of_memory)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt)), *back = calloc(1, sizeof(*back));
	int fd = unit_drive_new(DRIVE);

	sample_table(gpt, DRIVE, 512);
	oom_loop(write_op, fd, gpt);
	read_ok(fd, DRIVE, 512, back);
	assert_same_parts(back, gpt);
	close(fd);
	free(gpt);
	free(back);
}
END_TEST

/* ---- rcl_gpt_read ---- */

static enum rcl_status read_op(int fd, struct rcl_gpt *gpt, struct rcl_error *err)
{
	return rcl_gpt_read(fd, DRIVE, 512, gpt, err);
}

START_TEST(test_read_out_of_memory)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt)), *back = calloc(1, sizeof(*back));
	int fd = drive_with_table(gpt, DRIVE, 512);

	oom_loop(read_op, fd, back);
	assert_same_parts(back, gpt);
	/* Falling back to the backup allocates too. */
	flip_byte(fd, 512 + 60);
	oom_loop(read_op, fd, back);
	ck_assert_int_eq(back->source, RCL_GPT_BACKUP);
	close(fd);
	free(gpt);
	free(back);
}
END_TEST

static void round_trip(unsigned ss)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt)), *back = calloc(1, sizeof(*back));
	int fd = drive_with_table(gpt, DRIVE, ss);

	read_ok(fd, DRIVE, ss, back);
	ck_assert_int_eq(back->source, RCL_GPT_PRIMARY);
	ck_assert_uint_eq(back->valid, RCL_GPT_PRIMARY | RCL_GPT_BACKUP);
	ck_assert_uint_eq(back->sector_size, ss);
	ck_assert_uint_eq(back->bytes, DRIVE);
	ck_assert_uint_eq(back->first_usable, gpt->first_usable);
	ck_assert_uint_eq(back->last_usable, gpt->last_usable);
	assert_same_parts(back, gpt);
	ck_assert_str_eq(back->parts[0].name, "a name of exactly 36 characters 1234");
	close(fd);
	free(gpt);
	free(back);
}

START_TEST(test_round_trip_512)
{
	round_trip(512);
}
END_TEST

START_TEST(test_round_trip_4096)
{
	round_trip(4096);
}
END_TEST

START_TEST(test_wrong_sector_size_finds_nothing)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	int fd = drive_with_table(gpt, DRIVE, 4096);

	read_refused(fd, DRIVE, 512, RCL_NOT_FOUND, "no GPT");
	read_refused(fd, DRIVE, 2048, RCL_INVALID_PARAM, "2048");
	close(fd);
	free(gpt);
}
END_TEST

/* Damage the primary at @off: the backup must be used, and said so. */
static void primary_damaged(unsigned ss, uint64_t off)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt)), *back = calloc(1, sizeof(*back));
	int fd = drive_with_table(gpt, DRIVE, ss);

	flip_byte(fd, off);
	read_ok(fd, DRIVE, ss, back);
	ck_assert_int_eq(back->source, RCL_GPT_BACKUP);
	ck_assert_uint_eq(back->valid, RCL_GPT_BACKUP);
	assert_same_parts(back, gpt);
	close(fd);
	free(gpt);
	free(back);
}

START_TEST(test_primary_header_damaged)
{
	primary_damaged(512, 512 + 60); /* disk GUID: header CRC */
	primary_damaged(4096, 4096 + 60);
	primary_damaged(512, 512);      /* signature */
	primary_damaged(512, 512 + 88); /* entries CRC field */
}
END_TEST

START_TEST(test_primary_entries_damaged)
{
	primary_damaged(512, 2 * 512 + 128 + 40); /* partition 2's last LBA */
	primary_damaged(4096, 2 * 4096 + 127 * 128);
	primary_damaged(512, 2 * 512 + 100 * 128); /* an unused entry counts too */
}
END_TEST

START_TEST(test_backup_damaged)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt)), *back = calloc(1, sizeof(*back));
	int fd = drive_with_table(gpt, DRIVE, 512);

	flip_byte(fd, DRIVE - 512 + 30);
	read_ok(fd, DRIVE, 512, back);
	ck_assert_int_eq(back->source, RCL_GPT_PRIMARY);
	ck_assert_uint_eq(back->valid, RCL_GPT_PRIMARY);
	assert_same_parts(back, gpt);
	close(fd);
	free(gpt);
	free(back);
}
END_TEST

START_TEST(test_copies_that_differ)
{
	struct rcl_gpt *old = calloc(1, sizeof(*old)), *next = calloc(1, sizeof(*next));
	struct rcl_gpt *back = calloc(1, sizeof(*back));
	uint8_t backup[33 * 512];
	int fd = drive_with_table(old, DRIVE, 512);

	/* A crash after the backup half of a rewrite: both copies valid, not equal. */
	unit_get(fd, backup, sizeof(backup), DRIVE - sizeof(backup));
	sample_table(next, DRIVE, 512);
	ck_assert_int_eq(rcl_gpt_write(fd, next, NULL), RCL_OK);
	unit_put(fd, backup, sizeof(backup), DRIVE - sizeof(backup));
	read_ok(fd, DRIVE, 512, back);
	ck_assert_int_eq(back->source, RCL_GPT_PRIMARY);
	ck_assert_uint_eq(back->valid, RCL_GPT_PRIMARY);
	assert_same_parts(back, next);
	close(fd);
	free(old);
	free(next);
	free(back);
}
END_TEST

START_TEST(test_both_damaged)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	int fd = drive_with_table(gpt, DRIVE, 512);

	flip_byte(fd, 512 + 60);
	flip_byte(fd, DRIVE - 33 * 512 + 5);
	read_refused(fd, DRIVE, 512, RCL_CORRUPT, "primary: header CRC");
	read_refused(fd, DRIVE, 512, RCL_CORRUPT, "backup: entry array CRC");
	close(fd);
	free(gpt);
}
END_TEST

START_TEST(test_no_gpt)
{
	uint8_t mbr[512] = {0};
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	int fd = unit_drive_new(DRIVE);

	read_refused(fd, DRIVE, 512, RCL_NOT_FOUND, "no GPT");
	read_refused(fd, 3 * 512, 512, RCL_NOT_FOUND, "too small");
	close(fd);
	/* An MBR table written over an old GPT: the GPT is stale. */
	fd = drive_with_table(gpt, DRIVE, 512);
	mbr[446 + 4] = 0x83;
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	unit_put(fd, mbr, sizeof(mbr), 0);
	read_refused(fd, DRIVE, 512, RCL_NOT_FOUND, "MBR partition table");
	/* A blank LBA 0 is only a lost protective MBR. */
	memset(mbr, 0, sizeof(mbr));
	unit_put(fd, mbr, sizeof(mbr), 0);
	read_ok(fd, DRIVE, 512, gpt);
	close(fd);
	free(gpt);
}
END_TEST

START_TEST(test_truncated_drive)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	int fd = drive_with_table(gpt, DRIVE, 512);

	ck_assert_int_eq(ftruncate(fd, DRIVE - MIB), 0);
	read_refused(fd, DRIVE - MIB, 512, RCL_CORRUPT, "is not on the drive");
	/* A caller that believes the old size hits the end of the drive. */
	read_refused(fd, DRIVE, 512, RCL_SYSTEM, "ends before byte");
	close(fd);
	free(gpt);
}
END_TEST

START_TEST(test_grown_drive_wants_a_rewrite)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt)), *back = calloc(1, sizeof(*back));
	int fd = drive_with_table(gpt, DRIVE, 512);

	ck_assert_int_eq(ftruncate(fd, 2 * DRIVE), 0);
	read_ok(fd, 2 * DRIVE, 512, back);
	ck_assert_int_eq(back->source, RCL_GPT_PRIMARY);
	ck_assert_uint_eq(back->valid, RCL_GPT_PRIMARY); /* the backup is not at the end */
	assert_same_parts(back, gpt);
	close(fd);
	free(gpt);
	free(back);
}
END_TEST

START_TEST(test_hostile_headers)
{
	static const struct {
		size_t off;
		uint64_t value;
		int width;
		const char *part;
	} cases[] = {
	    {8, 0x00020000, 4, "revision"},
	    {12, 91, 4, "header size 91"},
	    {12, 513, 4, "header size 513"},
	    {24, 5, 8, "says it is at LBA 5"},
	    {32, UINT64_MAX, 8, "not on the drive"},
	    {40, 1, 8, "usable LBAs 1-"},
	    {48, UINT64_MAX - 1, 8, "do not fit"},
	    {72, UINT64_MAX - 1, 8, "entry array at LBA"},
	    {72, 20, 8, "overlaps"},
	    {80, UINT32_MAX, 4, "too large"},
	    {84, 100, 4, "entry size 100"},
	    {84, 0, 4, "entry size 0"},
	    {84, 1u << 31, 4, "entry size"},
	    {84, 192, 4, "entry size 192"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
		int fd = drive_with_table(gpt, DRIVE, 512);

		set_header_field(fd, DRIVE, 512, cases[i].off, cases[i].value, cases[i].width);
		read_refused(fd, DRIVE, 512, RCL_CORRUPT, cases[i].part);
		close(fd);
		free(gpt);
	}
}
END_TEST

START_TEST(test_hostile_entries)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt)), *back = calloc(1, sizeof(*back));
	int fd;

	fd = drive_with_table(gpt, DRIVE, 512);
	set_entry_field(fd, DRIVE, 512, 1, 40, DRIVE / 512, 8); /* past the last usable LBA */
	read_refused(fd, DRIVE, 512, RCL_CORRUPT, "partition 2 is outside");
	close(fd);
	fd = drive_with_table(gpt, DRIVE, 512);
	set_entry_field(fd, DRIVE, 512, 1, 32, 33, 8); /* over the entry array */
	read_refused(fd, DRIVE, 512, RCL_CORRUPT, "partition 2 is outside");
	close(fd);
	fd = drive_with_table(gpt, DRIVE, 512);
	set_entry_field(fd, DRIVE, 512, 127, 32, gpt->parts[1].last_lba, 8);
	read_refused(fd, DRIVE, 512, RCL_CORRUPT, "partitions 2 and 128 overlap");
	close(fd);
	/* Names are whatever a tool wrote: non-ASCII reads back as '?'. */
	fd = drive_with_table(gpt, DRIVE, 512);
	set_entry_field(fd, DRIVE, 512, 1, 56, 0x00e9, 2);
	read_ok(fd, DRIVE, 512, back);
	ck_assert_str_eq(back->parts[1].name, "?aidcli vd1");
	close(fd);
	free(gpt);
	free(back);
}
END_TEST

START_TEST(test_more_than_128_partitions)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	uint8_t h[512], array[256 * 128] = {0};
	int fd = drive_with_table(gpt, DRIVE, 512);

	/* A primary with 256 entries (LBA 2-65), one used past slot 128. */
	memcpy(array + 200 * 128, rcl_gpt_type_linux_raid.b, 16);
	unit_put_le(array + 200 * 128 + 32, 2048, 8);
	unit_put_le(array + 200 * 128 + 40, 4095, 8);
	unit_put(fd, array, sizeof(array), 2 * 512);
	unit_get(fd, h, sizeof(h), 512);
	unit_put_le(h + 40, 66, 8);
	unit_put_le(h + 80, 256, 4);
	unit_put_le(h + 88, rcl_crc32(0, array, sizeof(array)), 4);
	unit_put_le(h + 16, 0, 4);
	unit_put_le(h + 16, rcl_crc32(0, h, 92), 4);
	unit_put(fd, h, sizeof(h), 512);
	read_refused(fd, DRIVE, 512, RCL_UNSUPPORTED, "partition 201");
	/* Unused slots past 128 are fine. */
	memset(array + 200 * 128, 0, 128);
	unit_put(fd, array, sizeof(array), 2 * 512);
	unit_put_le(h + 88, rcl_crc32(0, array, sizeof(array)), 4);
	unit_put_le(h + 16, 0, 4);
	unit_put_le(h + 16, rcl_crc32(0, h, 92), 4);
	unit_put(fd, h, sizeof(h), 512);
	read_ok(fd, DRIVE, 512, gpt);
	ck_assert_int_eq(gpt->source, RCL_GPT_PRIMARY);
	ck_assert_uint_eq(gpt->first_usable, 66);
	close(fd);
	free(gpt);
}
END_TEST

static Suite *gpt_suite(void)
{
	Suite *s = suite_create("gpt");
	TCase *tc;

	tc = tcase_create("rcl_crc32");
	tcase_add_test(tc, test_crc32_check_value);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_guid");
	tcase_add_test(tc, test_guid_linux_raid_type);
	tcase_add_test(tc, test_guid_parse_refusals);
	tcase_add_test(tc, test_guid_random_is_version_4);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_gpt_init");
	tcase_add_test(tc, test_init_usable_range);
	tcase_add_test(tc, test_init_refusals);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_gpt_write");
	tcase_add_test(tc, test_write_layout_on_disk);
	tcase_add_test(tc, test_write_refusals);
	tcase_add_test(tc, test_failed_write_keeps_the_old_table);
	tcase_add_test(tc, test_write_out_of_memory);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_gpt_read");
	tcase_add_test(tc, test_round_trip_512);
	tcase_add_test(tc, test_round_trip_4096);
	tcase_add_test(tc, test_wrong_sector_size_finds_nothing);
	tcase_add_test(tc, test_primary_header_damaged);
	tcase_add_test(tc, test_primary_entries_damaged);
	tcase_add_test(tc, test_backup_damaged);
	tcase_add_test(tc, test_copies_that_differ);
	tcase_add_test(tc, test_both_damaged);
	tcase_add_test(tc, test_no_gpt);
	tcase_add_test(tc, test_truncated_drive);
	tcase_add_test(tc, test_grown_drive_wants_a_rewrite);
	tcase_add_test(tc, test_hostile_headers);
	tcase_add_test(tc, test_hostile_entries);
	tcase_add_test(tc, test_more_than_128_partitions);
	tcase_add_test(tc, test_read_out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(gpt_suite());
}
