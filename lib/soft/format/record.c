// SPDX-License-Identifier: MIT
/*
 * record.c - the configuration record in a drive's raidcli metadata
 * partition: its codec, reading both slots, the two-phase update, and the
 * rule that picks one configuration out of many drives (see record.h).
 *
 * Everything read from a drive is hostile until checked: no length read
 * from disk sizes an allocation or a read before it is bounded.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "crc32.h"
#include "le.h"
#include "io.h"
#include "record.h"

/*
 * Generated once at random (uuidgen) for raidcli and never to change: a
 * partition of this type is a raidcli metadata partition, whatever tool
 * lists it. 0A511BD4-1AB7-4BFC-BE0F-14838F789FCD in on-disk byte order.
 */
const struct rcl_guid rcl_soft_record_part_type = {{0xd4, 0x1b, 0x51, 0x0a, 0xb7, 0x1a, 0xfc, 0x4b,
                                                    0xbe, 0x0f, 0x14, 0x83, 0x8f, 0x78, 0x9f,
                                                    0xcd}};

/*
 * Header fields. Later versions must keep the magic, the version and the
 * header CRC where they are, so that this version can tell "newer" from
 * "damaged".
 */
enum {
	H_MAGIC = 0,
	H_VERSION = 8,
	H_SLOT = 12,
	H_GENERATION = 16,
	H_STATE = 24,
	H_PAYLOAD_LEN = 28,
	H_PAYLOAD_CRC = 32,
	H_CRC = 36,
	H_DRIVE_UUID = 40,
	H_SERIAL = 56,
	SERIAL_BYTES = RCL_SOFT_RECORD_SERIAL_MAX + 1,
	H_USED = H_SERIAL + SERIAL_BYTES,
};

#define MAGIC   "RCLCFG01"
#define VERSION 1u

static char slot_name(unsigned slot)
{
	return slot ? 'B' : 'A';
}

static bool all_zero(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static bool printable(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

/* ---- The header codec ---- */

/* The CRC of the 4 KiB block with the CRC field read as zero. */
static uint32_t header_crc(const uint8_t *block)
{
	static const uint8_t zero[4];
	uint32_t crc = rcl_crc32(0, block, H_CRC);

	crc = rcl_crc32(crc, zero, sizeof(zero));
	return rcl_crc32(crc, block + H_CRC + 4, RCL_SOFT_RECORD_HEADER_BYTES - H_CRC - 4);
}

void rcl_soft_record_encode(const struct rcl_soft_record_header *hdr, unsigned slot, uint8_t *block)
{
	memset(block, 0, RCL_SOFT_RECORD_HEADER_BYTES);
	memcpy(block + H_MAGIC, MAGIC, 8);
	rcl_put_le32(block + H_VERSION, VERSION);
	rcl_put_le32(block + H_SLOT, slot);
	rcl_put_le64(block + H_GENERATION, hdr->generation);
	rcl_put_le32(block + H_STATE, hdr->state);
	rcl_put_le32(block + H_PAYLOAD_LEN, hdr->payload_len);
	rcl_put_le32(block + H_PAYLOAD_CRC, hdr->payload_crc);
	memcpy(block + H_DRIVE_UUID, hdr->drive_uuid.b, 16);
	memcpy(block + H_SERIAL, hdr->serial, strnlen(hdr->serial, RCL_SOFT_RECORD_SERIAL_MAX));
	rcl_put_le32(block + H_CRC, header_crc(block));
}

/* A serial field: 1 to 63 printable characters, a NUL, zeros to the end. */
static bool decode_serial(const uint8_t *field, char *out)
{
	size_t len = strnlen((const char *)field, SERIAL_BYTES);

	if (len == 0 || len == SERIAL_BYTES || !printable((const char *)field, len) ||
	    !all_zero(field + len, SERIAL_BYTES - len))
		return false;
	memcpy(out, field, len + 1);
	return true;
}

/* The fields behind a good CRC: a crafted header can still lie in them. */
static enum rcl_status decode_fields(const uint8_t *block, unsigned slot,
                                     struct rcl_soft_record_header *hdr, struct rcl_error *err)
{
	uint32_t written_for = rcl_get_le32(block + H_SLOT);
	uint32_t state = rcl_get_le32(block + H_STATE);

	hdr->generation = rcl_get_le64(block + H_GENERATION);
	hdr->payload_len = rcl_get_le32(block + H_PAYLOAD_LEN);
	hdr->payload_crc = rcl_get_le32(block + H_PAYLOAD_CRC);
	memcpy(hdr->drive_uuid.b, block + H_DRIVE_UUID, 16);
	if (written_for != slot)
		return rcl_fail(err, RCL_CORRUPT, "slot %c holds a header written for slot %u",
		                slot_name(slot), written_for);
	if (state != RCL_SOFT_RECORD_PENDING && state != RCL_SOFT_RECORD_COMMITTED)
		return rcl_fail(err, RCL_CORRUPT, "slot %c has unknown state %u", slot_name(slot),
		                state);
	hdr->state = state;
	/* Generation 0 means "none", and the highest one could not be followed. */
	if (hdr->generation == 0 || hdr->generation == UINT64_MAX)
		return rcl_fail(err, RCL_CORRUPT, "slot %c has invalid generation %llu",
		                slot_name(slot), (unsigned long long)hdr->generation);
	if (hdr->payload_len > RCL_SOFT_RECORD_PAYLOAD_MAX)
		return rcl_fail(err, RCL_CORRUPT,
		                "slot %c's payload of %u bytes exceeds the %u a slot holds",
		                slot_name(slot), hdr->payload_len, RCL_SOFT_RECORD_PAYLOAD_MAX);
	if (!decode_serial(block + H_SERIAL, hdr->serial))
		return rcl_fail(err, RCL_CORRUPT,
		                "slot %c's controller serial is not NUL-terminated printable ASCII",
		                slot_name(slot));
	if (!all_zero(block + H_USED, RCL_SOFT_RECORD_HEADER_BYTES - H_USED))
		return rcl_fail(err, RCL_CORRUPT, "slot %c's reserved header bytes are not zero",
		                slot_name(slot));
	return RCL_OK;
}

enum rcl_status rcl_soft_record_decode(const uint8_t *block, unsigned slot,
                                       struct rcl_soft_record_header *hdr, struct rcl_error *err)
{
	uint32_t version;

	if (all_zero(block, RCL_SOFT_RECORD_HEADER_BYTES))
		return rcl_fail(err, RCL_NOT_FOUND, "slot %c is blank", slot_name(slot));
	if (memcmp(block + H_MAGIC, MAGIC, 8))
		return rcl_fail(err, RCL_CORRUPT, "slot %c has no record magic", slot_name(slot));
	/* CRC before version: a flipped version bit is damage, not a newer format. */
	if (header_crc(block) != rcl_get_le32(block + H_CRC))
		return rcl_fail(err, RCL_CORRUPT,
		                "slot %c's header CRC 0x%08x does not match its contents",
		                slot_name(slot), rcl_get_le32(block + H_CRC));
	version = rcl_get_le32(block + H_VERSION);
	if (version > VERSION)
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "slot %c holds record format %u; this raidcli reads format %u",
		                slot_name(slot), version, VERSION);
	if (version != VERSION)
		return rcl_fail(err, RCL_CORRUPT, "slot %c has invalid record format %u",
		                slot_name(slot), version);
	return decode_fields(block, slot, hdr, err);
}

/* ---- I/O ---- */

static uint64_t slot_offset(const struct rcl_soft_record_drive *drive, unsigned slot)
{
	return drive->offset + (uint64_t)slot * RCL_SOFT_RECORD_SLOT_BYTES;
}

/* The payload bytes slot @slot holds: a short partition (record.h) cuts slot B's. */
static uint64_t slot_room(const struct rcl_soft_record_drive *drive, unsigned slot)
{
	uint64_t start = (uint64_t)slot * RCL_SOFT_RECORD_SLOT_BYTES + RCL_SOFT_RECORD_HEADER_BYTES;
	uint64_t end = start - RCL_SOFT_RECORD_HEADER_BYTES + RCL_SOFT_RECORD_SLOT_BYTES;

	if (end > drive->bytes)
		end = drive->bytes;
	return end > start ? end - start : 0;
}

/*
 * Read @len bytes at @off. The drive ending early is the slot's problem
 * (RCL_CORRUPT in @why: a truncated partition); a failing read is the
 * caller's (RCL_SYSTEM in @err).
 */
static enum rcl_status read_exact(int fd, void *buf, size_t len, uint64_t off,
                                  struct rcl_error *why, struct rcl_error *err)
{
	size_t got;
	enum rcl_status st = rcl_soft_read_upto(fd, buf, len, off, "metadata partition", &got, err);

	if (!st && got < len)
		return rcl_fail(why, RCL_CORRUPT, "the drive ends at byte %llu, inside a slot",
		                (unsigned long long)(off + got));
	return st;
}

/* Write and make durable: the protocol's ordering rests on each sync. */
static enum rcl_status write_durable(int fd, const void *buf, size_t len, uint64_t off,
                                     struct rcl_error *err)
{
	enum rcl_status st = rcl_soft_write(fd, buf, len, off, "configuration record", err);

	return st ? st : rcl_soft_sync(fd, "configuration record", err);
}

/* ---- Reading a drive ---- */

static void slot_release(struct rcl_soft_record_slot *slot)
{
	rcl_free(slot->buf);
	memset(slot, 0, sizeof(*slot));
}

void rcl_soft_record_drive_init(struct rcl_soft_record_drive *drive, int fd, uint64_t offset,
                                uint64_t bytes, const struct rcl_guid *uuid)
{
	memset(drive, 0, sizeof(*drive));
	drive->fd = fd;
	drive->offset = offset;
	drive->bytes = bytes;
	drive->uuid = *uuid;
}

void rcl_soft_record_drive_release(struct rcl_soft_record_drive *drive)
{
	for (unsigned s = 0; s < RCL_SOFT_RECORD_SLOTS; s++)
		slot_release(&drive->slots[s]);
	drive->present = false;
}

/* The payload behind a good header; a short or damaged one leaves the slot invalid. */
static enum rcl_status load_payload(struct rcl_soft_record_drive *drive, unsigned s,
                                    const uint8_t *block, struct rcl_error *err)
{
	struct rcl_soft_record_slot *slot = &drive->slots[s];
	uint32_t len = slot->hdr.payload_len;
	uint8_t *buf = rcl_malloc(RCL_SOFT_RECORD_HEADER_BYTES + (size_t)len);
	enum rcl_status st;

	if (!buf)
		return rcl_fail(err, RCL_NOMEM, "out of memory reading the configuration record");
	memcpy(buf, block, RCL_SOFT_RECORD_HEADER_BYTES);
	if (len > slot_room(drive, s))
		st = rcl_fail(&slot->why, RCL_CORRUPT,
		              "slot %c's payload of %u bytes runs past the partition's end",
		              slot_name(s), len);
	else
		st = read_exact(drive->fd, buf + RCL_SOFT_RECORD_HEADER_BYTES, len,
		                slot_offset(drive, s) + RCL_SOFT_RECORD_HEADER_BYTES, &slot->why,
		                err);
	if (!st && rcl_crc32(0, buf + RCL_SOFT_RECORD_HEADER_BYTES, len) != slot->hdr.payload_crc)
		st = rcl_fail(&slot->why, RCL_CORRUPT, "slot %c's payload CRC does not match",
		              slot_name(s));
	if (st) {
		rcl_free(buf);
		return st == RCL_SYSTEM ? st : RCL_OK;
	}
	slot->buf = buf;
	slot->payload = buf + RCL_SOFT_RECORD_HEADER_BYTES;
	slot->valid = true;
	return RCL_OK;
}

/* Fill slots[@s]; only a failing read or OOM is an error, damage is the slot's state. */
static enum rcl_status read_slot(struct rcl_soft_record_drive *drive, unsigned s,
                                 struct rcl_error *err)
{
	struct rcl_soft_record_slot *slot = &drive->slots[s];
	uint8_t block[RCL_SOFT_RECORD_HEADER_BYTES];
	enum rcl_status st;

	if ((uint64_t)s * RCL_SOFT_RECORD_SLOT_BYTES + RCL_SOFT_RECORD_HEADER_BYTES >
	    drive->bytes) {
		rcl_fail(&slot->why, RCL_CORRUPT,
		         "slot %c lies past the end of the %llu-byte partition", slot_name(s),
		         (unsigned long long)drive->bytes);
		return RCL_OK;
	}
	st = read_exact(drive->fd, block, sizeof(block), slot_offset(drive, s), &slot->why, err);
	if (st)
		return st == RCL_SYSTEM ? st : RCL_OK;
	if (rcl_soft_record_decode(block, s, &slot->hdr, &slot->why))
		return RCL_OK;
	return load_payload(drive, s, block, err);
}

enum rcl_status rcl_soft_record_read(struct rcl_soft_record_drive *drive, struct rcl_error *err)
{
	rcl_soft_record_drive_release(drive);
	for (unsigned s = 0; s < RCL_SOFT_RECORD_SLOTS; s++) {
		enum rcl_status st = read_slot(drive, s, err);

		if (st) {
			rcl_soft_record_drive_release(drive);
			return st;
		}
	}
	drive->present = true;
	return RCL_OK;
}

/*
 * The valid slot in @state with the highest generation, or -1. Two equal
 * generations on one drive would take a caller reusing one: slot A wins.
 */
static int newest(const struct rcl_soft_record_drive *drive, enum rcl_soft_record_state state)
{
	int best = -1;

	for (int s = 0; s < RCL_SOFT_RECORD_SLOTS; s++) {
		const struct rcl_soft_record_slot *slot = &drive->slots[s];

		if (slot->valid && slot->hdr.state == state &&
		    (best < 0 || slot->hdr.generation > drive->slots[best].hdr.generation))
			best = s;
	}
	return best;
}

unsigned rcl_soft_record_target(const struct rcl_soft_record_drive *drive)
{
	return newest(drive, RCL_SOFT_RECORD_COMMITTED) == 0 ? 1 : 0;
}

/* ---- Writing ---- */

/* After a failed write, nobody knows what the slot holds until it is read again. */
static void slot_lost(struct rcl_soft_record_slot *slot, unsigned s)
{
	slot_release(slot);
	rcl_fail(&slot->why, RCL_SYSTEM, "a write to slot %c failed: read the drive again",
	         slot_name(s));
}

static enum rcl_status check_config(const struct rcl_soft_record_drive *drive,
                                    const struct rcl_soft_record_config *cfg, struct rcl_error *err)
{
	size_t serial_len = strnlen(cfg->serial, SERIAL_BYTES);

	if (!drive->present)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "read the drive before writing its configuration record");
	if (cfg->generation == 0 || cfg->generation == UINT64_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM, "invalid generation %llu",
		                (unsigned long long)cfg->generation);
	if (serial_len == 0 || serial_len == SERIAL_BYTES || !printable(cfg->serial, serial_len))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "invalid controller serial '%.*s': use 1 to %u printable ASCII "
		                "characters",
		                (int)serial_len, cfg->serial, RCL_SOFT_RECORD_SERIAL_MAX);
	if (cfg->len > RCL_SOFT_RECORD_PAYLOAD_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "a configuration of %zu bytes exceeds the %u a record holds",
		                cfg->len, RCL_SOFT_RECORD_PAYLOAD_MAX);
	if (drive->bytes < RCL_SOFT_RECORD_PART_MIN)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "the metadata partition has %llu bytes, %u are needed",
		                (unsigned long long)drive->bytes, RCL_SOFT_RECORD_PART_MIN);
	if (cfg->len > slot_room(drive, RCL_SOFT_RECORD_SLOTS - 1))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "a configuration of %zu bytes exceeds the %llu the short metadata "
		                "partition of an adopted md member holds",
		                cfg->len,
		                (unsigned long long)slot_room(drive, RCL_SOFT_RECORD_SLOTS - 1));
	return RCL_OK;
}

/* The header block and payload of @cfg as one buffer, ready for one write. */
static uint8_t *build_slot(const struct rcl_soft_record_drive *drive,
                           const struct rcl_soft_record_config *cfg, unsigned s,
                           struct rcl_soft_record_header *hdr)
{
	uint8_t *buf = rcl_malloc(RCL_SOFT_RECORD_HEADER_BYTES + cfg->len);

	if (!buf)
		return NULL;
	memset(hdr, 0, sizeof(*hdr));
	hdr->generation = cfg->generation;
	hdr->state = RCL_SOFT_RECORD_PENDING;
	memcpy(hdr->serial, cfg->serial, strlen(cfg->serial));
	hdr->drive_uuid = drive->uuid;
	hdr->payload_len = (uint32_t)cfg->len;
	if (cfg->len)
		memcpy(buf + RCL_SOFT_RECORD_HEADER_BYTES, cfg->payload, cfg->len);
	hdr->payload_crc = rcl_crc32(0, buf + RCL_SOFT_RECORD_HEADER_BYTES, cfg->len);
	rcl_soft_record_encode(hdr, s, buf);
	return buf;
}

enum rcl_status rcl_soft_record_prepare(struct rcl_soft_record_drive *drive,
                                        const struct rcl_soft_record_config *cfg,
                                        struct rcl_error *err)
{
	unsigned s = rcl_soft_record_target(drive);
	struct rcl_soft_record_slot *slot = &drive->slots[s];
	struct rcl_soft_record_header hdr;
	enum rcl_status st;
	uint8_t *buf;

	st = check_config(drive, cfg, err);
	if (st)
		return st;
	buf = build_slot(drive, cfg, s, &hdr);
	if (!buf)
		return rcl_fail(err, RCL_NOMEM, "out of memory preparing the configuration record");
	/*
	 * Header and payload go in one write: however it tears, the CRCs
	 * reject the mix, and the slot overwritten holds nothing the drive
	 * needs (never its newest committed record).
	 */
	st = write_durable(drive->fd, buf, RCL_SOFT_RECORD_HEADER_BYTES + cfg->len,
	                   slot_offset(drive, s), err);
	slot_release(slot);
	if (st) {
		rcl_free(buf);
		slot_lost(slot, s);
		return st;
	}
	slot->valid = true;
	slot->hdr = hdr;
	slot->buf = buf;
	slot->payload = buf + RCL_SOFT_RECORD_HEADER_BYTES;
	return RCL_OK;
}

enum rcl_status rcl_soft_record_commit(struct rcl_soft_record_drive *drive, unsigned s,
                                       struct rcl_error *err)
{
	struct rcl_soft_record_slot *slot;
	enum rcl_status st;

	if (s >= RCL_SOFT_RECORD_SLOTS)
		return rcl_fail(err, RCL_INVALID_PARAM, "no slot %u: slots are 0 (A) and 1 (B)", s);
	slot = &drive->slots[s];
	if (!slot->valid || slot->hdr.state != RCL_SOFT_RECORD_PENDING)
		return rcl_fail(err, RCL_NOT_ALLOWED, "slot %c holds no pending record to commit",
		                slot_name(s));
	/*
	 * Only the header block is rewritten: the payload on disk is the one
	 * prepare made durable, which the payload CRC describes.
	 */
	slot->hdr.state = RCL_SOFT_RECORD_COMMITTED;
	rcl_soft_record_encode(&slot->hdr, s, slot->buf);
	st = write_durable(drive->fd, slot->buf, RCL_SOFT_RECORD_HEADER_BYTES,
	                   slot_offset(drive, s), err);
	if (st)
		slot_lost(slot, s);
	return st;
}

/* Phase 2: once a drive has committed, the new configuration has won. */
static enum rcl_status commit_all(struct rcl_soft_record_drive *drives, size_t count,
                                  struct rcl_error *err)
{
	enum rcl_status first = RCL_OK;

	for (size_t i = 0; i < count; i++) {
		enum rcl_status st;

		if (!drives[i].present)
			continue;
		/*
		 * Prepare left the committed slot alone, so the target is
		 * still the slot it wrote. A failure does not stop the
		 * others: committing them can only bring drives up to date,
		 * and the first error is the one reported.
		 */
		st = rcl_soft_record_commit(&drives[i], rcl_soft_record_target(&drives[i]),
		                            first ? NULL : err);
		if (!first)
			first = st;
	}
	return first;
}

enum rcl_status rcl_soft_record_update(struct rcl_soft_record_drive *drives, size_t count,
                                       const struct rcl_soft_record_config *cfg,
                                       struct rcl_error *err)
{
	size_t present = 0;

	for (size_t i = 0; i < count; i++)
		present += drives[i].present;
	if (!present)
		return rcl_fail(err, RCL_INVALID_PARAM, "no drive to write the configuration to");
	/*
	 * Phase 1. Each prepare returns only after its fdatasync, so when
	 * this loop ends every drive holds the new record on stable storage.
	 * A failure stops here, before any commit: the old configuration
	 * stands on every drive.
	 */
	for (size_t i = 0; i < count; i++) {
		enum rcl_status st;

		if (!drives[i].present)
			continue;
		st = rcl_soft_record_prepare(&drives[i], cfg, err);
		if (st)
			return st;
	}
	return commit_all(drives, count, err);
}

/* ---- Choosing ---- */

static bool is_ours(const struct rcl_soft_record_slot *slot, const char *serial)
{
	return !strcmp(slot->hdr.serial, serial);
}

/* The winner's record itself: same controller, generation and payload. */
static bool holds(const struct rcl_soft_record_slot *slot, const char *serial,
                  const struct rcl_soft_record_header *win)
{
	return is_ours(slot, serial) && slot->hdr.generation == win->generation &&
	       slot->hdr.payload_len == win->payload_len &&
	       slot->hdr.payload_crc == win->payload_crc;
}

/* The highest committed generation of @serial, and the generation to use next. */
static void find_winner(const struct rcl_soft_record_drive *drives, size_t count,
                        const char *serial, struct rcl_soft_record_choice *choice)
{
	memset(choice, 0, sizeof(*choice));
	choice->next_generation = 1;
	for (size_t i = 0; i < count; i++) {
		const struct rcl_soft_record_drive *d = &drives[i];
		int c;

		if (!d->present)
			continue;
		for (unsigned s = 0; s < RCL_SOFT_RECORD_SLOTS; s++)
			if (d->slots[s].valid &&
			    d->slots[s].hdr.generation >= choice->next_generation)
				choice->next_generation = d->slots[s].hdr.generation + 1;
		/* A drive counts only when its newest committed record is ours. */
		c = newest(d, RCL_SOFT_RECORD_COMMITTED);
		if (c >= 0 && is_ours(&d->slots[c], serial) &&
		    d->slots[c].hdr.generation > choice->generation) {
			choice->generation = d->slots[c].hdr.generation;
			choice->drive = i;
			choice->slot = (unsigned)c;
		}
	}
}

static struct rcl_soft_record_verdict judge(const struct rcl_soft_record_drive *d,
                                            const char *serial,
                                            const struct rcl_soft_record_header *win)
{
	struct rcl_soft_record_verdict v = {RCL_SOFT_RECORD_ABSENT, 0};
	int c, p, owner;

	if (!d->present)
		return v;
	c = newest(d, RCL_SOFT_RECORD_COMMITTED);
	p = newest(d, RCL_SOFT_RECORD_PENDING);
	owner = c >= 0 ? c : p;
	if (win && c >= 0 && holds(&d->slots[c], serial, win)) {
		v.standing = RCL_SOFT_RECORD_CURRENT;
		v.slot = (unsigned)c;
	} else if (win && p >= 0 && holds(&d->slots[p], serial, win) &&
	           (c < 0 || d->slots[c].hdr.generation < win->generation)) {
		/* Its newest committed record is older (or another controller's, being adopted). */
		v.standing = RCL_SOFT_RECORD_BEHIND;
		v.slot = (unsigned)p;
	} else if (owner < 0) {
		v.standing = RCL_SOFT_RECORD_NONE;
	} else {
		v.standing = is_ours(&d->slots[owner], serial) ? RCL_SOFT_RECORD_STALE
		                                               : RCL_SOFT_RECORD_FOREIGN;
	}
	return v;
}

/*
 * No winner: unconfigured, unless one of our (or unclaimed) drives has a
 * damaged slot, which may have held the configuration. Starting afresh
 * over that must be the user's decision.
 */
static enum rcl_status no_winner(const struct rcl_soft_record_drive *drives, size_t count,
                                 const char *serial, const struct rcl_soft_record_verdict *verdicts,
                                 struct rcl_error *err)
{
	for (size_t i = 0; i < count; i++) {
		if (verdicts[i].standing == RCL_SOFT_RECORD_ABSENT ||
		    verdicts[i].standing == RCL_SOFT_RECORD_FOREIGN)
			continue;
		for (unsigned s = 0; s < RCL_SOFT_RECORD_SLOTS; s++) {
			const struct rcl_soft_record_slot *slot = &drives[i].slots[s];

			if (!slot->valid && slot->why.status != RCL_NOT_FOUND)
				return rcl_fail(
				    err, RCL_CORRUPT,
				    "no valid configuration of controller '%s': drive %zu: %s",
				    serial, i, slot->why.msg);
		}
	}
	return rcl_fail(err, RCL_NOT_FOUND, "no drive holds a configuration of controller '%s'",
	                serial);
}

enum rcl_status rcl_soft_record_choose(const struct rcl_soft_record_drive *drives, size_t count,
                                       const char *serial, struct rcl_soft_record_choice *choice,
                                       struct rcl_soft_record_verdict *verdicts,
                                       struct rcl_error *err)
{
	const struct rcl_soft_record_header *win = NULL;

	find_winner(drives, count, serial, choice);
	if (choice->generation)
		win = &drives[choice->drive].slots[choice->slot].hdr;
	for (size_t i = 0; i < count; i++)
		verdicts[i] = judge(&drives[i], serial, win);
	return win ? RCL_OK : no_winner(drives, count, serial, verdicts, err);
}
