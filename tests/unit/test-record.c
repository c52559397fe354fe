// SPDX-License-Identifier: MIT
/*
 * test-record.c - the configuration record: the header codec, every
 * single-bit flip refused, hostile and truncated slots, which slot a
 * prepare writes, prepare and commit on a drive, and the choice rule over
 * every mix of drive states for one to four drives.
 *
 * Drives are memfds: sparse, in memory, with the same pread, pwrite and
 * fdatasync behaviour as an image file. The metadata partition starts 1 MiB
 * in, where a GPT puts its first partition.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "soft/format/crc32.h"
#include "soft/format/record.h"
#include "unit.h"

#define MIB     (1ull << 20)
#define PART    MIB
#define DRIVE   (4 * MIB)
#define HDR     RCL_SOFT_RECORD_HEADER_BYTES
#define SLOT    RCL_SOFT_RECORD_SLOT_BYTES
#define SERIAL  "RCLC0001"
#define OTHER   "RCLC0002"
#define PAYLOAD 300
/* Slot states, short: hand-built drives list many. */
#define C RCL_SOFT_RECORD_COMMITTED
#define P RCL_SOFT_RECORD_PENDING

/* Header offsets, as record.h documents them. */
enum {
	O_VERSION = 8,
	O_SLOT = 12,
	O_GENERATION = 16,
	O_STATE = 24,
	O_LEN = 28,
	O_PAYLOAD_CRC = 32,
	O_CRC = 36,
	O_SERIAL = 56,
	O_RESERVED = 120,
};

static const struct rcl_guid uuid = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};

/* Recompute a crafted header's CRC, as a hostile tool would. */
static void fix_crc(uint8_t *block)
{
	unit_put_le(block + O_CRC, 0, 4);
	unit_put_le(block + O_CRC, rcl_crc32(0, block, HDR), 4);
}

static void fill_payload(uint8_t *buf, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

/* (Re)open @d, which is zeroed or was opened before, on @fd and read it. */
static void open_drive(struct rcl_soft_record_drive *d, int fd, uint64_t bytes)
{
	struct rcl_error err = {0};

	rcl_soft_record_drive_release(d);
	rcl_soft_record_drive_init(d, fd, PART, bytes, &uuid);
	ck_assert_msg(rcl_soft_record_read(d, &err) == RCL_OK, "%s", err.msg);
	ck_assert(d->present);
}

/* Prepare and commit generation @gen with payload seed @gen on one drive. */
static void write_gen(struct rcl_soft_record_drive *d, uint64_t gen, const char *serial)
{
	uint8_t payload[PAYLOAD];
	struct rcl_soft_record_config cfg = {gen, serial, payload, sizeof(payload)};
	struct rcl_error err = {0};
	unsigned s = rcl_soft_record_target(d);

	fill_payload(payload, sizeof(payload), (unsigned)gen);
	ck_assert_msg(rcl_soft_record_prepare(d, &cfg, &err) == RCL_OK, "%s", err.msg);
	ck_assert_msg(rcl_soft_record_commit(d, s, &err) == RCL_OK, "%s", err.msg);
}

static void sample_header(struct rcl_soft_record_header *hdr)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->generation = 0x0102030405060708ull;
	hdr->state = RCL_SOFT_RECORD_COMMITTED;
	strcpy(hdr->serial, SERIAL);
	hdr->drive_uuid = uuid;
	hdr->payload_len = 1234;
	hdr->payload_crc = 0xdeadbeef;
}

static void assert_refused(const uint8_t *block, unsigned slot, enum rcl_status status,
                           const char *part)
{
	struct rcl_soft_record_header hdr;
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_soft_record_decode(block, slot, &hdr, &err), status);
	ck_assert_int_eq(err.status, status);
	ck_assert_msg(strstr(err.msg, part), "message lacks '%s': %s", part, err.msg);
}

/* ---- rcl_soft_record_decode ---- */

START_TEST(test_part_type)
{
	char text[RCL_GUID_STRLEN + 1];

	rcl_guid_to_string(&rcl_soft_record_part_type, text);
	ck_assert_str_eq(text, "0A511BD4-1AB7-4BFC-BE0F-14838F789FCD");
}
END_TEST

START_TEST(test_codec_round_trip)
{
	struct rcl_soft_record_header in, out;
	struct rcl_error err = {0};
	uint8_t block[HDR];

	sample_header(&in);
	for (unsigned slot = 0; slot < 2; slot++) {
		rcl_soft_record_encode(&in, slot, block);
		ck_assert_mem_eq(block, "RCLCFG01", 8);
		ck_assert_uint_eq(block[O_SLOT], slot);
		ck_assert_uint_eq(block[O_GENERATION], 0x08);
		ck_assert_uint_eq(block[O_GENERATION + 7], 0x01);
		ck_assert_str_eq((const char *)block + O_SERIAL, SERIAL);
		memset(&out, 0xaa, sizeof(out));
		ck_assert_msg(rcl_soft_record_decode(block, slot, &out, &err) == RCL_OK, "%s",
		              err.msg);
		ck_assert_uint_eq(out.generation, in.generation);
		ck_assert_int_eq(out.state, in.state);
		ck_assert_str_eq(out.serial, in.serial);
		ck_assert_mem_eq(out.drive_uuid.b, in.drive_uuid.b, 16);
		ck_assert_uint_eq(out.payload_len, in.payload_len);
		ck_assert_uint_eq(out.payload_crc, in.payload_crc);
	}
	/* The longest serial fills the field but for its NUL. */
	memset(in.serial, 'S', RCL_SOFT_RECORD_SERIAL_MAX);
	in.serial[RCL_SOFT_RECORD_SERIAL_MAX] = '\0';
	rcl_soft_record_encode(&in, 0, block);
	ck_assert_int_eq(rcl_soft_record_decode(block, 0, &out, &err), RCL_OK);
	ck_assert_str_eq(out.serial, in.serial);
	ck_assert_int_eq(err.status, RCL_OK);
}
END_TEST

START_TEST(test_codec_every_bit_flip)
{
	struct rcl_soft_record_header hdr;
	uint8_t block[HDR];

	sample_header(&hdr);
	rcl_soft_record_encode(&hdr, 1, block);
	for (size_t bit = 0; bit < HDR * 8; bit++) {
		struct rcl_soft_record_header out;

		block[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		ck_assert_msg(rcl_soft_record_decode(block, 1, &out, NULL) != RCL_OK,
		              "flipping bit %zu went unnoticed", bit);
		block[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	ck_assert_int_eq(rcl_soft_record_decode(block, 1, &hdr, NULL), RCL_OK);
}
END_TEST

START_TEST(test_codec_hostile_fields)
{
	struct rcl_soft_record_header hdr;
	uint8_t good[HDR], block[HDR];

	sample_header(&hdr);
	rcl_soft_record_encode(&hdr, 0, good);

	memset(block, 0, HDR);
	assert_refused(block, 0, RCL_NOT_FOUND, "slot A is blank");
	block[HDR - 1] = 1;
	assert_refused(block, 0, RCL_CORRUPT, "no record magic");

	memcpy(block, good, HDR);
	unit_put_le(block + O_CRC, 0, 4);
	assert_refused(block, 0, RCL_CORRUPT, "header CRC");

	/* Each of these carries a correct CRC: only the field checks stand. */
	static const struct {
		size_t off;
		uint64_t value;
		int width;
		enum rcl_status status;
		const char *part;
	} cases[] = {
	    {O_VERSION, 2, 4, RCL_UNSUPPORTED, "record format 2"},
	    {O_VERSION, 0, 4, RCL_CORRUPT, "invalid record format 0"},
	    {O_SLOT, 1, 4, RCL_CORRUPT, "written for slot 1"},
	    {O_SLOT, 0xffffffff, 4, RCL_CORRUPT, "written for slot 4294967295"},
	    {O_STATE, 0, 4, RCL_CORRUPT, "unknown state 0"},
	    {O_STATE, 3, 4, RCL_CORRUPT, "unknown state 3"},
	    {O_GENERATION, 0, 8, RCL_CORRUPT, "invalid generation 0"},
	    {O_GENERATION, UINT64_MAX, 8, RCL_CORRUPT, "invalid generation"},
	    {O_LEN, RCL_SOFT_RECORD_PAYLOAD_MAX + 1, 4, RCL_CORRUPT, "exceeds"},
	    {O_LEN, 0xffffffff, 4, RCL_CORRUPT, "exceeds"},
	    {O_SERIAL, 0, 1, RCL_CORRUPT, "serial"},        /* empty */
	    {O_SERIAL + 2, 0x07, 1, RCL_CORRUPT, "serial"}, /* not printable */
	    {O_SERIAL + 2, 0xc3, 1, RCL_CORRUPT, "serial"}, /* not ASCII */
	    {O_SERIAL + 20, 'x', 1, RCL_CORRUPT, "serial"}, /* junk after the NUL */
	    {O_RESERVED, 1, 1, RCL_CORRUPT, "reserved"},    /* first reserved byte */
	    {HDR - 1, 0x80, 1, RCL_CORRUPT, "reserved"},    /* last reserved byte */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(block, good, HDR);
		unit_put_le(block + cases[i].off, cases[i].value, cases[i].width);
		fix_crc(block);
		assert_refused(block, 0, cases[i].status, cases[i].part);
	}
	/* A serial with no NUL in its 64 bytes. */
	memcpy(block, good, HDR);
	memset(block + O_SERIAL, 'S', RCL_SOFT_RECORD_SERIAL_MAX + 1);
	fix_crc(block);
	assert_refused(block, 0, RCL_CORRUPT, "NUL-terminated");
	/* The largest payload a slot holds is fine. */
	memcpy(block, good, HDR);
	unit_put_le(block + O_LEN, RCL_SOFT_RECORD_PAYLOAD_MAX, 4);
	fix_crc(block);
	ck_assert_int_eq(rcl_soft_record_decode(block, 0, &hdr, NULL), RCL_OK);
	ck_assert_uint_eq(hdr.payload_len, RCL_SOFT_RECORD_PAYLOAD_MAX);
}
END_TEST

/* ---- rcl_soft_record_read ---- */

START_TEST(test_read_blank_drive)
{
	struct rcl_soft_record_drive d = {0};
	int fd = unit_drive_new(DRIVE);

	open_drive(&d, fd, PART);
	for (unsigned s = 0; s < 2; s++) {
		ck_assert(!d.slots[s].valid);
		ck_assert_int_eq(d.slots[s].why.status, RCL_NOT_FOUND);
		ck_assert_ptr_null(d.slots[s].buf);
	}
	rcl_soft_record_drive_release(&d);
	ck_assert(!d.present);
	close(fd);
}
END_TEST

START_TEST(test_read_round_trip)
{
	struct rcl_soft_record_drive d = {0}, again = {0};
	uint8_t payload[PAYLOAD];
	int fd = unit_drive_new(DRIVE);

	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	write_gen(&d, 2, SERIAL);
	open_drive(&again, fd, PART);
	for (unsigned s = 0; s < 2; s++) {
		const struct rcl_soft_record_slot *slot = &again.slots[s];

		ck_assert_msg(slot->valid, "slot %u: %s", s, slot->why.msg);
		ck_assert_int_eq(slot->why.status, RCL_OK);
		ck_assert_uint_eq(slot->hdr.generation, s + 1);
		ck_assert_int_eq(slot->hdr.state, RCL_SOFT_RECORD_COMMITTED);
		ck_assert_str_eq(slot->hdr.serial, SERIAL);
		ck_assert_mem_eq(slot->hdr.drive_uuid.b, uuid.b, 16);
		ck_assert_uint_eq(slot->hdr.payload_len, PAYLOAD);
		fill_payload(payload, sizeof(payload), s + 1);
		ck_assert_mem_eq(slot->payload, payload, PAYLOAD);
		/* What the writer kept in memory is what the reader finds. */
		ck_assert_mem_eq(slot->buf, d.slots[s].buf, HDR + PAYLOAD);
	}
	rcl_soft_record_drive_release(&d);
	rcl_soft_record_drive_release(&again);
	close(fd);
}
END_TEST

START_TEST(test_read_every_payload_bit_flip)
{
	struct rcl_soft_record_drive d = {0};
	uint64_t at = PART + HDR;
	int fd = unit_drive_new(DRIVE);
	uint8_t byte;

	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	for (size_t bit = 0; bit < PAYLOAD * 8; bit++) {
		unit_get(fd, &byte, 1, at + bit / 8);
		byte ^= (uint8_t)(1u << (bit % 8));
		unit_put(fd, &byte, 1, at + bit / 8);
		open_drive(&d, fd, PART);
		ck_assert_msg(!d.slots[0].valid, "flipping payload bit %zu went unnoticed", bit);
		ck_assert_int_eq(d.slots[0].why.status, RCL_CORRUPT);
		ck_assert_ptr_null(d.slots[0].buf);
		byte ^= (uint8_t)(1u << (bit % 8));
		unit_put(fd, &byte, 1, at + bit / 8);
	}
	open_drive(&d, fd, PART);
	ck_assert(d.slots[0].valid);
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

START_TEST(test_read_header_bit_flips)
{
	struct rcl_soft_record_drive d = {0};
	int fd = unit_drive_new(DRIVE);
	uint8_t byte;

	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	write_gen(&d, 2, SERIAL);
	/* Every bit of slot B's used header bytes, through the whole read path. */
	for (size_t bit = 0; bit < O_RESERVED * 8; bit++) {
		uint64_t at = PART + SLOT + bit / 8;

		unit_get(fd, &byte, 1, at);
		byte ^= (uint8_t)(1u << (bit % 8));
		unit_put(fd, &byte, 1, at);
		open_drive(&d, fd, PART);
		ck_assert_msg(!d.slots[1].valid, "flipping header bit %zu went unnoticed", bit);
		ck_assert(d.slots[0].valid);
		byte ^= (uint8_t)(1u << (bit % 8));
		unit_put(fd, &byte, 1, at);
	}
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

START_TEST(test_read_truncated_partition)
{
	struct rcl_soft_record_drive d = {0};
	int fd = unit_drive_new(DRIVE);

	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	write_gen(&d, 2, SERIAL);
	/* A short partition (an adopted md member's): slot B holds less, and reads. */
	open_drive(&d, fd, SLOT + HDR + PAYLOAD);
	ck_assert(d.slots[0].valid);
	ck_assert(d.slots[1].valid);
	/* One that ends inside slot B's payload, then its header: slot A still reads. */
	open_drive(&d, fd, SLOT + HDR + PAYLOAD - 1);
	ck_assert(d.slots[0].valid);
	ck_assert(!d.slots[1].valid);
	ck_assert_int_eq(d.slots[1].why.status, RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(d.slots[1].why.msg, "past the partition's end"));
	open_drive(&d, fd, SLOT + HDR - 1);
	ck_assert(d.slots[0].valid);
	ck_assert(!d.slots[1].valid);
	ck_assert_int_eq(d.slots[1].why.status, RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(d.slots[1].why.msg, "past the end"));
	open_drive(&d, fd, HDR + PAYLOAD - 1);
	ck_assert(!d.slots[0].valid);
	ck_assert(!d.slots[1].valid);
	/* A drive that ends inside slot A's payload, then inside its header. */
	ck_assert_int_eq(ftruncate(fd, (off_t)(PART + HDR + PAYLOAD / 2)), 0);
	open_drive(&d, fd, PART);
	ck_assert(!d.slots[0].valid);
	ck_assert_ptr_nonnull(strstr(d.slots[0].why.msg, "drive ends"));
	ck_assert_ptr_null(d.slots[0].buf);
	ck_assert(!d.slots[1].valid);
	ck_assert_int_eq(ftruncate(fd, (off_t)(PART + 100)), 0);
	open_drive(&d, fd, PART);
	ck_assert_int_eq(d.slots[0].why.status, RCL_CORRUPT);
	ck_assert_int_eq(d.slots[1].why.status, RCL_CORRUPT);
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

START_TEST(test_read_hostile_lengths)
{
	struct rcl_soft_record_drive d = {0};
	int fd = unit_drive_new(DRIVE);
	uint8_t block[HDR];

	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	/* The largest length, with the right header CRC: the payload CRC says no. */
	unit_get(fd, block, HDR, PART);
	unit_put_le(block + O_LEN, RCL_SOFT_RECORD_PAYLOAD_MAX, 4);
	fix_crc(block);
	unit_put(fd, block, HDR, PART);
	open_drive(&d, fd, PART);
	ck_assert(!d.slots[0].valid);
	ck_assert_ptr_nonnull(strstr(d.slots[0].why.msg, "payload CRC"));
	/* The same header in slot B of a drive that ends inside its payload. */
	unit_put_le(block + O_SLOT, 1, 4);
	fix_crc(block);
	unit_put(fd, block, HDR, PART + SLOT);
	ck_assert_int_eq(ftruncate(fd, (off_t)(PART + SLOT + HDR + 10)), 0);
	open_drive(&d, fd, PART);
	ck_assert(!d.slots[1].valid);
	ck_assert_ptr_nonnull(strstr(d.slots[1].why.msg, "drive ends"));
	/* One past the largest: refused before anything is allocated or read. */
	unit_put_le(block + O_LEN, RCL_SOFT_RECORD_PAYLOAD_MAX + 1, 4);
	fix_crc(block);
	unit_put(fd, block, HDR, PART + SLOT);
	open_drive(&d, fd, PART);
	ck_assert_ptr_nonnull(strstr(d.slots[1].why.msg, "exceeds"));
	/* A header copied into the other slot. */
	unit_get(fd, block, HDR, PART);
	unit_put(fd, block, HDR, PART + SLOT);
	open_drive(&d, fd, PART);
	ck_assert_ptr_nonnull(strstr(d.slots[1].why.msg, "written for slot 0"));
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

START_TEST(test_read_errors)
{
	struct rcl_soft_record_drive d = {0};
	struct rcl_error err = {0};
	int fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* A directory cannot be read: a hard error, and the drive stays absent. */
	ck_assert_int_ge(fd, 0);
	rcl_soft_record_drive_init(&d, fd, PART, PART, &uuid);
	ck_assert_int_eq(rcl_soft_record_read(&d, &err), RCL_SYSTEM);
	ck_assert_int_eq(err.sys_errno, EISDIR);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot read the metadata partition"));
	ck_assert(!d.present);
	close(fd);
}
END_TEST

START_TEST(test_read_out_of_memory)
{
	struct rcl_soft_record_drive d = {0};
	struct rcl_error err = {0};
	int fd = unit_drive_new(DRIVE);

	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	write_gen(&d, 2, SERIAL);
	for (unsigned long n = 1;; n++) {
		enum rcl_status st;

		rcl_alloc_fail_after(n, false);
		st = rcl_soft_record_read(&d, &err);
		if (rcl_alloc_fail_after(0, false) < n) {
			ck_assert_int_eq(st, RCL_OK);
			break;
		}
		ck_assert_int_eq(st, RCL_NOMEM);
		ck_assert(!d.present);
		ck_assert_ptr_null(d.slots[0].buf);
	}
	ck_assert(d.slots[0].valid && d.slots[1].valid);
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

/* ---- rcl_soft_record_target ---- */

static void set_slot(struct rcl_soft_record_drive *d, unsigned s, uint64_t gen,
                     enum rcl_soft_record_state state, const char *serial)
{
	struct rcl_soft_record_slot *slot = &d->slots[s];

	memset(slot, 0, sizeof(*slot));
	slot->valid = true;
	slot->hdr.generation = gen;
	slot->hdr.state = state;
	strcpy(slot->hdr.serial, serial);
	/* A payload identity that follows the generation, as real updates give. */
	slot->hdr.payload_len = (uint32_t)(100 + gen);
	slot->hdr.payload_crc = (uint32_t)(gen * 2654435761u);
}

static void set_bad(struct rcl_soft_record_drive *d, unsigned s, enum rcl_status why)
{
	memset(&d->slots[s], 0, sizeof(d->slots[s]));
	rcl_fail(&d->slots[s].why, why, "test: slot %u is bad", s);
}

static void blank_drive(struct rcl_soft_record_drive *d)
{
	memset(d, 0, sizeof(*d));
	d->present = true;
	set_bad(d, 0, RCL_NOT_FOUND);
	set_bad(d, 1, RCL_NOT_FOUND);
}

START_TEST(test_target_rule)
{
	struct rcl_soft_record_drive d = {0};

	blank_drive(&d);
	ck_assert_uint_eq(rcl_soft_record_target(&d), 0);
	set_slot(&d, 0, 5, C, SERIAL);
	ck_assert_uint_eq(rcl_soft_record_target(&d), 1);
	set_slot(&d, 1, 6, C, SERIAL);
	ck_assert_uint_eq(rcl_soft_record_target(&d), 0);
	set_slot(&d, 1, 4, C, SERIAL);
	ck_assert_uint_eq(rcl_soft_record_target(&d), 1);
	/* Pending records do not count: they are what prepare overwrites. */
	set_slot(&d, 1, 6, P, SERIAL);
	ck_assert_uint_eq(rcl_soft_record_target(&d), 1);
	set_slot(&d, 0, 6, P, SERIAL);
	set_slot(&d, 1, 5, C, SERIAL);
	ck_assert_uint_eq(rcl_soft_record_target(&d), 0);
	/* A damaged slot is free; the committed one is kept whoever wrote it. */
	set_bad(&d, 0, RCL_CORRUPT);
	ck_assert_uint_eq(rcl_soft_record_target(&d), 0);
	set_slot(&d, 0, 9, C, OTHER);
	set_bad(&d, 1, RCL_CORRUPT);
	ck_assert_uint_eq(rcl_soft_record_target(&d), 1);
}
END_TEST

START_TEST(test_target_on_disk)
{
	struct rcl_soft_record_drive d = {0};
	uint8_t before[HDR], after[HDR];
	int fd = unit_drive_new(DRIVE);

	open_drive(&d, fd, PART);
	/* Updates alternate slots, and each leaves the other slot's bytes alone. */
	for (uint64_t gen = 1; gen <= 5; gen++) {
		unsigned s = rcl_soft_record_target(&d);

		ck_assert_uint_eq(s, (gen - 1) % 2);
		unit_get(fd, before, HDR, PART + (1 - s) * SLOT);
		write_gen(&d, gen, SERIAL);
		unit_get(fd, after, HDR, PART + (1 - s) * SLOT);
		ck_assert_mem_eq(before, after, HDR);
		open_drive(&d, fd, PART);
		ck_assert_uint_eq(d.slots[s].hdr.generation, gen);
	}
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

/* ---- rcl_soft_record_prepare ---- */

START_TEST(test_prepare_writes_pending)
{
	struct rcl_soft_record_drive d = {0};
	uint8_t payload[PAYLOAD];
	struct rcl_soft_record_config cfg = {7, SERIAL, payload, sizeof(payload)};
	struct rcl_error err = {0};
	int fd = unit_drive_new(DRIVE);

	fill_payload(payload, sizeof(payload), 7);
	open_drive(&d, fd, PART);
	write_gen(&d, 6, SERIAL);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_OK);
	ck_assert_int_eq(d.slots[1].hdr.state, RCL_SOFT_RECORD_PENDING);
	open_drive(&d, fd, PART);
	ck_assert(d.slots[0].valid && d.slots[1].valid);
	ck_assert_uint_eq(d.slots[0].hdr.generation, 6);
	ck_assert_int_eq(d.slots[0].hdr.state, RCL_SOFT_RECORD_COMMITTED);
	ck_assert_uint_eq(d.slots[1].hdr.generation, 7);
	ck_assert_int_eq(d.slots[1].hdr.state, RCL_SOFT_RECORD_PENDING);
	ck_assert_mem_eq(d.slots[1].payload, payload, PAYLOAD);
	/* A second prepare replaces the pending record in the same slot. */
	cfg.generation = 8;
	cfg.len = 10;
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_OK);
	open_drive(&d, fd, PART);
	ck_assert_uint_eq(d.slots[0].hdr.generation, 6);
	ck_assert_uint_eq(d.slots[1].hdr.generation, 8);
	ck_assert_uint_eq(d.slots[1].hdr.payload_len, 10);
	/* An empty payload is a record too. */
	cfg.len = 0;
	cfg.payload = NULL;
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_OK);
	open_drive(&d, fd, PART);
	ck_assert(d.slots[1].valid);
	ck_assert_uint_eq(d.slots[1].hdr.payload_len, 0);
	ck_assert_int_eq(err.status, RCL_OK);
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

START_TEST(test_prepare_largest_payload)
{
	struct rcl_soft_record_drive d = {0};
	uint8_t *payload = malloc(RCL_SOFT_RECORD_PAYLOAD_MAX + 1);
	struct rcl_soft_record_config cfg = {2, SERIAL, payload, RCL_SOFT_RECORD_PAYLOAD_MAX};
	struct rcl_error err = {0};
	int fd = unit_drive_new(DRIVE);

	ck_assert_ptr_nonnull(payload);
	fill_payload(payload, RCL_SOFT_RECORD_PAYLOAD_MAX + 1, 3);
	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	/* Slot B, the last byte of the partition included. */
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_OK);
	open_drive(&d, fd, PART);
	ck_assert(d.slots[1].valid);
	ck_assert_mem_eq(d.slots[1].payload, payload, RCL_SOFT_RECORD_PAYLOAD_MAX);
	cfg.len++;
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "exceeds"));
	rcl_soft_record_drive_release(&d);
	free(payload);
	close(fd);
}
END_TEST

START_TEST(test_prepare_refusals)
{
	struct rcl_soft_record_drive d = {0};
	struct rcl_soft_record_config cfg = {1, SERIAL, "x", 1};
	char long_serial[RCL_SOFT_RECORD_SERIAL_MAX + 2];
	struct rcl_error err = {0};
	uint8_t zero[HDR] = {0}, block[HDR], *big;
	int fd = unit_drive_new(DRIVE);

	rcl_soft_record_drive_init(&d, fd, PART, PART, &uuid);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_NOT_ALLOWED);
	open_drive(&d, fd, PART);
	cfg.generation = 0;
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_INVALID_PARAM);
	cfg.generation = UINT64_MAX;
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_INVALID_PARAM);
	cfg.generation = 1;
	cfg.serial = "";
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_INVALID_PARAM);
	cfg.serial = "tab\there";
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "invalid controller serial"));
	memset(long_serial, 'S', sizeof(long_serial) - 1);
	long_serial[sizeof(long_serial) - 1] = '\0';
	cfg.serial = long_serial;
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_INVALID_PARAM);
	long_serial[RCL_SOFT_RECORD_SERIAL_MAX] = '\0';
	/* A partition too small for both slots. */
	open_drive(&d, fd, RCL_SOFT_RECORD_PART_MIN - 512);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "metadata partition has"));
	/* A short one whose slot B cannot hold the payload: both slots must. */
	cfg.len = RCL_SOFT_RECORD_PART_MIN - SLOT - HDR + 1;
	cfg.payload = big = calloc(1, cfg.len);
	ck_assert_ptr_nonnull(big);
	open_drive(&d, fd, RCL_SOFT_RECORD_PART_MIN);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "short metadata partition"));
	free(big);
	cfg.payload = "x";
	cfg.len = 1;
	/* None of that wrote anything. */
	unit_get(fd, block, HDR, PART);
	ck_assert_mem_eq(block, zero, HDR);
	open_drive(&d, fd, PART);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_OK);
	open_drive(&d, fd, PART);
	ck_assert_str_eq(d.slots[0].hdr.serial, long_serial);
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

static int fail_writes;
static ssize_t failing_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	if (fail_writes) {
		errno = EIO;
		return -1;
	}
	return pwrite(fd, buf, len, off);
}

static int failing_fdatasync(int fd)
{
	(void)fd;
	errno = EIO;
	return -1;
}

START_TEST(test_prepare_io_errors)
{
	static const struct rcl_soft_io bad_write = {failing_pwrite, fdatasync};
	static const struct rcl_soft_io bad_sync = {failing_pwrite, failing_fdatasync};
	struct rcl_soft_record_drive d = {0};
	struct rcl_soft_record_config cfg = {3, SERIAL, "new", 3};
	struct rcl_error err = {0};
	int fd = unit_drive_new(DRIVE);

	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	write_gen(&d, 2, SERIAL);
	fail_writes = 1;
	rcl_soft_set_io(&bad_write);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_SYSTEM);
	ck_assert_int_eq(err.sys_errno, EIO);
	/* The slot written is unknown now; the committed one is untouched. */
	ck_assert(!d.slots[0].valid);
	ck_assert_int_eq(d.slots[0].why.status, RCL_SYSTEM);
	ck_assert(d.slots[1].valid);
	fail_writes = 0;
	rcl_soft_set_io(&bad_sync);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_SYSTEM);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot flush"));
	rcl_soft_set_io(NULL);
	open_drive(&d, fd, PART);
	ck_assert_uint_eq(d.slots[1].hdr.generation, 2);
	ck_assert_int_eq(d.slots[1].hdr.state, RCL_SOFT_RECORD_COMMITTED);
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

START_TEST(test_prepare_out_of_memory)
{
	struct rcl_soft_record_drive d = {0};
	struct rcl_soft_record_config cfg = {2, SERIAL, "two", 3};
	struct rcl_error err = {0};
	uint8_t before[HDR], after[HDR];
	int fd = unit_drive_new(DRIVE);

	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	unit_get(fd, before, HDR, PART + SLOT);
	rcl_alloc_fail_after(1, true);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_NOMEM);
	rcl_alloc_fail_after(0, false);
	unit_get(fd, after, HDR, PART + SLOT);
	ck_assert_mem_eq(before, after, HDR);
	ck_assert(d.slots[0].valid);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_OK);
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

/* ---- rcl_soft_record_commit ---- */

START_TEST(test_commit_rewrites_the_header_only)
{
	struct rcl_soft_record_drive d = {0};
	uint8_t payload[PAYLOAD];
	struct rcl_soft_record_config cfg = {2, SERIAL, payload, sizeof(payload)};
	struct rcl_error err = {0};
	uint8_t *before = malloc(2 * SLOT), *after = malloc(2 * SLOT);
	int fd = unit_drive_new(DRIVE);

	ck_assert(before && after);
	fill_payload(payload, sizeof(payload), 2);
	open_drive(&d, fd, PART);
	write_gen(&d, 1, SERIAL);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_OK);
	unit_get(fd, before, 2 * SLOT, PART);
	ck_assert_int_eq(rcl_soft_record_commit(&d, 1, &err), RCL_OK);
	unit_get(fd, after, 2 * SLOT, PART);
	/* Slot A and slot B's payload are as they were; its header differs in state and CRC. */
	ck_assert_mem_eq(before, after, SLOT);
	ck_assert_mem_eq(before + SLOT + HDR, after + SLOT + HDR, SLOT - HDR);
	for (size_t i = 0; i < HDR; i++)
		if (before[SLOT + i] != after[SLOT + i])
			ck_assert_msg((i >= O_STATE && i < O_STATE + 4) ||
			                  (i >= O_CRC && i < O_CRC + 4),
			              "commit changed header byte %zu", i);
	open_drive(&d, fd, PART);
	ck_assert(d.slots[1].valid);
	ck_assert_int_eq(d.slots[1].hdr.state, RCL_SOFT_RECORD_COMMITTED);
	ck_assert_mem_eq(d.slots[1].payload, payload, PAYLOAD);
	rcl_soft_record_drive_release(&d);
	free(before);
	free(after);
	close(fd);
}
END_TEST

START_TEST(test_commit_refusals)
{
	static const struct rcl_soft_io bad_write = {failing_pwrite, fdatasync};
	struct rcl_soft_record_drive d = {0};
	struct rcl_soft_record_config cfg = {2, SERIAL, "two", 3};
	struct rcl_error err = {0};
	int fd = unit_drive_new(DRIVE);

	open_drive(&d, fd, PART);
	ck_assert_int_eq(rcl_soft_record_commit(&d, 0, &err), RCL_NOT_ALLOWED);
	ck_assert_ptr_nonnull(strstr(err.msg, "slot A holds no pending record"));
	write_gen(&d, 1, SERIAL);
	ck_assert_int_eq(rcl_soft_record_commit(&d, 0, &err), RCL_NOT_ALLOWED);
	ck_assert_int_eq(rcl_soft_record_commit(&d, 2, &err), RCL_INVALID_PARAM);
	ck_assert_int_eq(rcl_soft_record_prepare(&d, &cfg, &err), RCL_OK);
	fail_writes = 1;
	rcl_soft_set_io(&bad_write);
	ck_assert_int_eq(rcl_soft_record_commit(&d, 1, &err), RCL_SYSTEM);
	rcl_soft_set_io(NULL);
	fail_writes = 0;
	ck_assert(!d.slots[1].valid);
	ck_assert_int_eq(d.slots[1].why.status, RCL_SYSTEM);
	/* Read again, the drive still has its pending record to commit. */
	open_drive(&d, fd, PART);
	ck_assert_int_eq(d.slots[1].hdr.state, RCL_SOFT_RECORD_PENDING);
	ck_assert_int_eq(rcl_soft_record_commit(&d, 1, &err), RCL_OK);
	rcl_soft_record_drive_release(&d);
	close(fd);
}
END_TEST

/* ---- rcl_soft_record_update ---- */

START_TEST(test_update_drives)
{
	struct rcl_soft_record_drive d[3];
	struct rcl_soft_record_config cfg = {1, SERIAL, "config", 6};
	struct rcl_error err = {0};
	int fd[3];

	for (int i = 0; i < 3; i++) {
		fd[i] = unit_drive_new(DRIVE);
		rcl_soft_record_drive_init(&d[i], fd[i], PART, PART, &uuid);
	}
	ck_assert_int_eq(rcl_soft_record_update(d, 3, &cfg, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "no drive"));
	/* Drive 1 is absent: it is left alone. */
	open_drive(&d[0], fd[0], PART);
	open_drive(&d[2], fd[2], PART);
	ck_assert_int_eq(rcl_soft_record_update(d, 3, &cfg, &err), RCL_OK);
	for (int i = 0; i < 3; i++) {
		open_drive(&d[i], fd[i], PART);
		ck_assert(d[i].slots[0].valid == (i != 1));
		rcl_soft_record_drive_release(&d[i]);
		close(fd[i]);
	}
}
END_TEST

/* ---- rcl_soft_record_choose ---- */

/* What one drive holds, for the exhaustive choice test. G is the old generation. */
enum drive_kind { OLD, PENDING_NEW, NEW, CORRUPT, ABSENT, FOREIGN, KINDS };
#define G 10

static void build(struct rcl_soft_record_drive *d, enum drive_kind kind)
{

	blank_drive(d);
	switch (kind) {
	case OLD:
		set_slot(d, 0, G, C, SERIAL);
		set_slot(d, 1, G - 1, C, SERIAL);
		break;
	case PENDING_NEW:
		set_slot(d, 0, G, C, SERIAL);
		set_slot(d, 1, G + 1, P, SERIAL);
		break;
	case NEW:
		set_slot(d, 0, G, C, SERIAL);
		set_slot(d, 1, G + 1, C, SERIAL);
		break;
	case CORRUPT:
		set_bad(d, 0, RCL_CORRUPT);
		set_bad(d, 1, RCL_CORRUPT);
		break;
	case ABSENT:
		memset(d, 0, sizeof(*d));
		break;
	case FOREIGN:
		set_slot(d, 0, 2 * G, C, OTHER);
		break;
	case KINDS:
		break;
	}
}

static bool any(const enum drive_kind *kinds, size_t n, enum drive_kind kind)
{
	for (size_t i = 0; i < n; i++)
		if (kinds[i] == kind)
			return true;
	return false;
}

/* The rule, restated per kind: what choose must answer for @kinds. */
static void expect(const enum drive_kind *kinds, size_t n, struct rcl_soft_record_choice *want,
                   struct rcl_soft_record_verdict *verdicts, enum rcl_status *status)
{
	bool new_won = any(kinds, n, NEW);
	bool old_won = !new_won && (any(kinds, n, OLD) || any(kinds, n, PENDING_NEW));

	memset(want, 0, sizeof(*want));
	want->next_generation = any(kinds, n, FOREIGN)                             ? 2 * G + 1
	                        : any(kinds, n, NEW) || any(kinds, n, PENDING_NEW) ? G + 2
	                        : any(kinds, n, OLD)                               ? G + 1
	                                                                           : 1;
	*status = new_won || old_won       ? RCL_OK
	          : any(kinds, n, CORRUPT) ? RCL_CORRUPT
	                                   : RCL_NOT_FOUND;
	for (size_t i = n; i-- > 0;) {
		struct rcl_soft_record_verdict *v = &verdicts[i];

		v->slot = 0;
		switch (kinds[i]) {
		case NEW:
			v->standing = RCL_SOFT_RECORD_CURRENT;
			v->slot = 1;
			break;
		case PENDING_NEW:
			v->standing = new_won ? RCL_SOFT_RECORD_BEHIND : RCL_SOFT_RECORD_CURRENT;
			v->slot = new_won ? 1 : 0;
			break;
		case OLD:
			v->standing = new_won ? RCL_SOFT_RECORD_STALE : RCL_SOFT_RECORD_CURRENT;
			break;
		case CORRUPT:
			v->standing = RCL_SOFT_RECORD_NONE;
			break;
		case ABSENT:
			v->standing = RCL_SOFT_RECORD_ABSENT;
			break;
		default:
			v->standing = RCL_SOFT_RECORD_FOREIGN;
		}
		/* The first drive holding the winner committed supplies it. */
		if (v->standing == RCL_SOFT_RECORD_CURRENT) {
			want->generation = new_won ? G + 1 : G;
			want->drive = i;
			want->slot = v->slot;
		}
	}
}

static void check_combination(const enum drive_kind *kinds, size_t n)
{
	struct rcl_soft_record_drive drives[4];
	struct rcl_soft_record_verdict got[4], want_v[4];
	struct rcl_soft_record_choice got_c, want_c;
	struct rcl_error err = {0};
	enum rcl_status st, want_st;

	for (size_t i = 0; i < n; i++)
		build(&drives[i], kinds[i]);
	expect(kinds, n, &want_c, want_v, &want_st);
	st = rcl_soft_record_choose(drives, n, SERIAL, &got_c, got, &err);
	ck_assert_int_eq(st, want_st);
	ck_assert_int_eq(err.status, want_st);
	ck_assert_uint_eq(got_c.generation, want_c.generation);
	ck_assert_uint_eq(got_c.next_generation, want_c.next_generation);
	if (want_c.generation) {
		ck_assert_uint_eq(got_c.drive, want_c.drive);
		ck_assert_uint_eq(got_c.slot, want_c.slot);
	}
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(got[i].standing == want_v[i].standing,
		              "drive %zu of %zu (kind %d): standing %d, want %d", i, n, kinds[i],
		              got[i].standing, want_v[i].standing);
		if (want_v[i].standing == RCL_SOFT_RECORD_CURRENT ||
		    want_v[i].standing == RCL_SOFT_RECORD_BEHIND)
			ck_assert_uint_eq(got[i].slot, want_v[i].slot);
	}
}

START_TEST(test_choose_every_combination)
{
	enum drive_kind kinds[4];
	size_t checked = 0;

	for (size_t n = 1; n <= 4; n++) {
		size_t total = 1;

		for (size_t i = 0; i < n; i++)
			total *= KINDS;
		for (size_t code = 0; code < total; code++) {
			size_t c = code;

			for (size_t i = 0; i < n; i++, c /= KINDS)
				kinds[i] = (enum drive_kind)(c % KINDS);
			check_combination(kinds, n);
			checked++;
		}
	}
	ck_assert_uint_eq(checked, 6 + 36 + 216 + 1296);
}
END_TEST

static enum rcl_status choose(struct rcl_soft_record_drive *d, size_t n,
                              struct rcl_soft_record_choice *c, struct rcl_soft_record_verdict *v,
                              struct rcl_error *err)
{
	memset(err, 0, sizeof(*err));
	return rcl_soft_record_choose(d, n, SERIAL, c, v, err);
}

START_TEST(test_choose_unconfigured)
{
	struct rcl_soft_record_drive d[3];
	struct rcl_soft_record_verdict v[3];
	struct rcl_soft_record_choice c;
	struct rcl_error err;

	for (int i = 0; i < 3; i++)
		blank_drive(&d[i]);
	ck_assert_int_eq(choose(d, 0, &c, v, &err), RCL_NOT_FOUND);
	ck_assert_uint_eq(c.next_generation, 1);
	ck_assert_int_eq(choose(d, 3, &c, v, &err), RCL_NOT_FOUND);
	ck_assert_ptr_nonnull(strstr(err.msg, "no drive holds a configuration of controller"));
	ck_assert_int_eq(v[2].standing, RCL_SOFT_RECORD_NONE);
	/* The very first update stopped in phase 1: still unconfigured, the leftovers stale. */
	for (int i = 0; i < 2; i++)
		set_slot(&d[i], 0, 1, P, SERIAL);
	ck_assert_int_eq(choose(d, 3, &c, v, &err), RCL_NOT_FOUND);
	ck_assert_uint_eq(c.generation, 0);
	ck_assert_uint_eq(c.next_generation, 2);
	ck_assert_int_eq(v[0].standing, RCL_SOFT_RECORD_STALE);
	ck_assert_int_eq(v[2].standing, RCL_SOFT_RECORD_NONE);
	/* Damage on such a drive may have been the configuration: corrupt, not blank. */
	set_bad(&d[1], 1, RCL_UNSUPPORTED);
	ck_assert_int_eq(choose(d, 3, &c, v, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "drive 1: test: slot 1 is bad"));
	/* Damage on a foreign drive is its owner's business. */
	set_bad(&d[1], 1, RCL_NOT_FOUND);
	set_slot(&d[2], 0, 3, RCL_SOFT_RECORD_COMMITTED, OTHER);
	set_bad(&d[2], 1, RCL_CORRUPT);
	ck_assert_int_eq(choose(d, 3, &c, v, &err), RCL_NOT_FOUND);
	ck_assert_int_eq(v[2].standing, RCL_SOFT_RECORD_FOREIGN);
	ck_assert_uint_eq(c.next_generation, 4);
}
END_TEST

START_TEST(test_choose_payload_identity)
{
	struct rcl_soft_record_drive d[3];
	struct rcl_soft_record_verdict v[3];
	struct rcl_soft_record_choice c;
	struct rcl_error err;

	for (int i = 0; i < 3; i++) {
		build(&d[i], PENDING_NEW);
		set_slot(&d[i], 1, G + 1, i ? P : C, SERIAL);
	}
	/*
	 * Drive 1's pending G+1 is another update's (a generation reused
	 * while it was away): same generation, other payload. Not behind.
	 */
	d[1].slots[1].hdr.payload_crc ^= 1;
	d[2].slots[1].hdr.payload_len++;
	ck_assert_int_eq(choose(d, 3, &c, v, &err), RCL_OK);
	ck_assert_uint_eq(c.generation, G + 1);
	ck_assert_int_eq(v[0].standing, RCL_SOFT_RECORD_CURRENT);
	ck_assert_int_eq(v[1].standing, RCL_SOFT_RECORD_STALE);
	ck_assert_int_eq(v[2].standing, RCL_SOFT_RECORD_STALE);
	/* Two drives committed the same generation differently: the first wins. */
	d[1].slots[1].hdr.state = C;
	ck_assert_int_eq(choose(d, 3, &c, v, &err), RCL_OK);
	ck_assert_uint_eq(c.drive, 0);
	ck_assert_int_eq(v[1].standing, RCL_SOFT_RECORD_STALE);
}
END_TEST

START_TEST(test_choose_ownership)
{
	struct rcl_soft_record_drive d[4];
	struct rcl_soft_record_verdict v[4];
	struct rcl_soft_record_choice c;
	struct rcl_error err;

	/* Drive 0 holds generation 31 committed. */
	blank_drive(&d[0]);
	set_slot(&d[0], 0, 31, C, SERIAL);
	/* Drive 1 is being adopted: another controller's 30, our 31 pending. */
	blank_drive(&d[1]);
	set_slot(&d[1], 0, 30, C, OTHER);
	set_slot(&d[1], 1, 31, P, SERIAL);
	/* Drive 2 was ours, then another controller took it over. */
	blank_drive(&d[2]);
	set_slot(&d[2], 0, 20, C, SERIAL);
	set_slot(&d[2], 1, 40, C, OTHER);
	/* Drive 3 is new: only our pending 31, nothing committed yet. */
	blank_drive(&d[3]);
	set_slot(&d[3], 1, 31, P, SERIAL);
	ck_assert_int_eq(choose(d, 4, &c, v, &err), RCL_OK);
	ck_assert_uint_eq(c.generation, 31);
	ck_assert_int_eq(v[0].standing, RCL_SOFT_RECORD_CURRENT);
	ck_assert_int_eq(v[1].standing, RCL_SOFT_RECORD_BEHIND);
	ck_assert_uint_eq(v[1].slot, 1);
	ck_assert_int_eq(v[2].standing, RCL_SOFT_RECORD_FOREIGN);
	ck_assert_int_eq(v[3].standing, RCL_SOFT_RECORD_BEHIND);
	ck_assert_uint_eq(c.next_generation, 41);
	/* Another controller's pending record on a blank drive makes it foreign. */
	set_slot(&d[3], 1, 31, P, OTHER);
	ck_assert_int_eq(choose(d, 4, &c, v, &err), RCL_OK);
	ck_assert_int_eq(v[3].standing, RCL_SOFT_RECORD_FOREIGN);
	/* Another controller's adoption stopped in phase 1: still ours, if older. */
	set_slot(&d[3], 0, 29, C, SERIAL);
	set_slot(&d[3], 1, 45, P, OTHER);
	ck_assert_int_eq(choose(d, 4, &c, v, &err), RCL_OK);
	ck_assert_int_eq(v[3].standing, RCL_SOFT_RECORD_STALE);
	/* Our pending 31 under another controller's newer commit is not ours to commit. */
	set_slot(&d[3], 0, 40, C, OTHER);
	set_slot(&d[3], 1, 31, P, SERIAL);
	ck_assert_int_eq(choose(d, 4, &c, v, &err), RCL_OK);
	ck_assert_int_eq(v[3].standing, RCL_SOFT_RECORD_FOREIGN);
	/* Our older generation on a drive whose newest is foreign does not count. */
	set_slot(&d[0], 0, 10, C, SERIAL);
	set_slot(&d[0], 1, 50, C, OTHER);
	set_bad(&d[1], 1, RCL_CORRUPT);
	set_bad(&d[2], 1, RCL_NOT_FOUND);
	ck_assert_int_eq(choose(d, 4, &c, v, &err), RCL_OK);
	ck_assert_uint_eq(c.generation, 20);
	ck_assert_uint_eq(c.drive, 2);
	ck_assert_int_eq(v[0].standing, RCL_SOFT_RECORD_FOREIGN);
}
END_TEST

START_TEST(test_choose_on_disk)
{
	struct rcl_soft_record_drive d[2];
	struct rcl_soft_record_verdict v[2];
	struct rcl_soft_record_choice c;
	struct rcl_error err;
	uint8_t payload[PAYLOAD];
	int fd[2];

	memset(d, 0, sizeof(d));
	for (int i = 0; i < 2; i++) {
		fd[i] = unit_drive_new(DRIVE);
		open_drive(&d[i], fd[i], PART);
		write_gen(&d[i], 1, SERIAL);
		write_gen(&d[i], 2, SERIAL);
	}
	ck_assert_int_eq(choose(d, 2, &c, v, &err), RCL_OK);
	ck_assert_uint_eq(c.generation, 2);
	ck_assert_uint_eq(c.slot, 1);
	ck_assert_uint_eq(c.next_generation, 3);
	fill_payload(payload, sizeof(payload), 2);
	ck_assert_mem_eq(d[c.drive].slots[c.slot].payload, payload, PAYLOAD);
	for (int i = 0; i < 2; i++) {
		rcl_soft_record_drive_release(&d[i]);
		close(fd[i]);
	}
}
END_TEST

static Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc;

	tc = tcase_create("rcl_soft_record_decode");
	tcase_add_test(tc, test_part_type);
	tcase_add_test(tc, test_codec_round_trip);
	tcase_add_test(tc, test_codec_every_bit_flip);
	tcase_add_test(tc, test_codec_hostile_fields);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_soft_record_read");
	tcase_add_test(tc, test_read_blank_drive);
	tcase_add_test(tc, test_read_round_trip);
	tcase_add_test(tc, test_read_every_payload_bit_flip);
	tcase_add_test(tc, test_read_header_bit_flips);
	tcase_add_test(tc, test_read_truncated_partition);
	tcase_add_test(tc, test_read_hostile_lengths);
	tcase_add_test(tc, test_read_errors);
	tcase_add_test(tc, test_read_out_of_memory);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_soft_record_target");
	tcase_add_test(tc, test_target_rule);
	tcase_add_test(tc, test_target_on_disk);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_soft_record_prepare");
	tcase_add_test(tc, test_prepare_writes_pending);
	tcase_add_test(tc, test_prepare_largest_payload);
	tcase_add_test(tc, test_prepare_refusals);
	tcase_add_test(tc, test_prepare_io_errors);
	tcase_add_test(tc, test_prepare_out_of_memory);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_soft_record_commit");
	tcase_add_test(tc, test_commit_rewrites_the_header_only);
	tcase_add_test(tc, test_commit_refusals);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_soft_record_update");
	tcase_add_test(tc, test_update_drives);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_soft_record_choose");
	tcase_add_test(tc, test_choose_every_combination);
	tcase_add_test(tc, test_choose_unconfigured);
	tcase_add_test(tc, test_choose_payload_identity);
	tcase_add_test(tc, test_choose_ownership);
	tcase_add_test(tc, test_choose_on_disk);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(record_suite());
}
