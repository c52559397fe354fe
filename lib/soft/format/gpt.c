// SPDX-License-Identifier: MIT
/*
 * gpt.c - read, check and write a drive's GUID Partition Table.
 *
 * Everything read from disk is treated as hostile: sizes and offsets are
 * bounded before they size an allocation or steer a read, and a table only
 * counts once both of its CRCs match.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "crc32.h"
#include "gpt.h"
#include "io.h"
#include "le.h"

#define MIB (1ull << 20)

/* Header fields (UEFI table 5-5) and its size as we write it. */
enum {
	H_SIGNATURE = 0,
	H_REVISION = 8,
	H_SIZE = 12,
	H_CRC = 16,
	H_MY_LBA = 24,
	H_ALT_LBA = 32,
	H_FIRST_USABLE = 40,
	H_LAST_USABLE = 48,
	H_DISK_GUID = 56,
	H_ENTRIES_LBA = 72,
	H_ENTRY_COUNT = 80,
	H_ENTRY_SIZE = 84,
	H_ENTRIES_CRC = 88,
	HEADER_BYTES = 92,
};

/* Entry fields (UEFI table 5-6). */
enum {
	E_TYPE = 0,
	E_GUID = 16,
	E_FIRST = 32,
	E_LAST = 40,
	E_ATTR = 48,
	E_NAME = 56,
	ENTRY_BYTES = 128,
};

#define GPT_SIGNATURE "EFI PART"
#define GPT_REVISION  0x00010000u
/* The largest entry array we accept from another tool: far above any real one. */
#define MAX_ARRAY_BYTES MIB
#define MAX_ENTRY_BYTES 4096u

/* Protective MBR (UEFI 5.2.3): one partition record, type 0xEE, from LBA 1. */
enum {
	MBR_RECORDS = 446,
	MBR_RECORD_BYTES = 16,
	MBR_SIGNATURE = 510,
	MBR_TYPE_GPT = 0xee,
};

/* Where our own tables go on a drive of a given size. */
struct layout {
	uint64_t lbas;
	uint64_t array_sectors;
	uint64_t first_usable;
	uint64_t last_usable;
	uint64_t backup_array;
	uint64_t backup_header;
};

static bool sector_size_ok(unsigned sector_size)
{
	return sector_size == 512 || sector_size == 4096;
}

/* False when the drive cannot hold the MBR, two tables and one usable sector. */
static bool layout_compute(uint64_t bytes, unsigned sector_size, struct layout *l)
{
	l->lbas = bytes / sector_size;
	l->array_sectors = RCL_GPT_MAX_PARTS * ENTRY_BYTES / sector_size;
	if (l->lbas < 2 + 2 * (1 + l->array_sectors))
		return false;
	l->first_usable = 2 + l->array_sectors;
	l->backup_header = l->lbas - 1;
	l->backup_array = l->backup_header - l->array_sectors;
	l->last_usable = l->backup_array - 1;
	return true;
}

/* ---- Building a table ---- */

enum rcl_status rcl_gpt_init(struct rcl_gpt *gpt, uint64_t bytes, unsigned sector_size,
                             struct rcl_error *err)
{
	struct layout l;

	if (!sector_size_ok(sector_size))
		return rcl_fail(err, RCL_INVALID_PARAM, "invalid sector size %u, use 512 or 4096",
		                sector_size);
	if (!layout_compute(bytes, sector_size, &l))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "a drive of %llu bytes is too small for a GPT",
		                (unsigned long long)bytes);
	memset(gpt, 0, sizeof(*gpt));
	gpt->sector_size = sector_size;
	gpt->bytes = bytes;
	gpt->first_usable = l.first_usable;
	gpt->last_usable = l.last_usable;
	return rcl_guid_random(&gpt->disk_guid, err);
}

uint64_t rcl_gpt_first_aligned_lba(const struct rcl_gpt *gpt)
{
	uint64_t align = MIB / gpt->sector_size;

	return (gpt->first_usable + align - 1) / align * align;
}

static enum rcl_status check_part(const struct rcl_gpt *gpt, size_t slot, const struct layout *l,
                                  struct rcl_error *err)
{
	const struct rcl_gpt_part *p = &gpt->parts[slot];

	if (p->first_lba > p->last_lba || p->first_lba < l->first_usable ||
	    p->last_lba > l->last_usable)
		return rcl_fail(
		    err, RCL_INVALID_PARAM,
		    "partition %zu (LBA %llu-%llu) is outside the usable LBAs %llu-%llu", slot + 1,
		    (unsigned long long)p->first_lba, (unsigned long long)p->last_lba,
		    (unsigned long long)l->first_usable, (unsigned long long)l->last_usable);
	for (const char *c = p->name; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "partition %zu's name '%s' is not printable ASCII",
			                slot + 1, p->name);
	for (size_t j = 0; j < slot; j++) {
		const struct rcl_gpt_part *q = &gpt->parts[j];

		if (!rcl_guid_is_zero(&q->type) && p->first_lba <= q->last_lba &&
		    q->first_lba <= p->last_lba)
			return rcl_fail(err, RCL_INVALID_PARAM, "partitions %zu and %zu overlap",
			                j + 1, slot + 1);
	}
	return RCL_OK;
}

static void encode_entry(const struct rcl_gpt_part *p, uint8_t *e)
{
	memcpy(e + E_TYPE, p->type.b, 16);
	memcpy(e + E_GUID, p->guid.b, 16);
	rcl_put_le64(e + E_FIRST, p->first_lba);
	rcl_put_le64(e + E_LAST, p->last_lba);
	rcl_put_le64(e + E_ATTR, p->attributes);
	for (size_t i = 0; i < RCL_GPT_NAME_MAX && p->name[i]; i++)
		rcl_put_le16(e + E_NAME + 2 * i, (uint8_t)p->name[i]);
}

static void encode_header(const struct rcl_gpt *gpt, const struct layout *l, bool primary,
                          uint32_t array_crc, uint8_t *h)
{
	memcpy(h + H_SIGNATURE, GPT_SIGNATURE, 8);
	rcl_put_le32(h + H_REVISION, GPT_REVISION);
	rcl_put_le32(h + H_SIZE, HEADER_BYTES);
	rcl_put_le64(h + H_MY_LBA, primary ? 1 : l->backup_header);
	rcl_put_le64(h + H_ALT_LBA, primary ? l->backup_header : 1);
	rcl_put_le64(h + H_FIRST_USABLE, l->first_usable);
	rcl_put_le64(h + H_LAST_USABLE, l->last_usable);
	memcpy(h + H_DISK_GUID, gpt->disk_guid.b, 16);
	rcl_put_le64(h + H_ENTRIES_LBA, primary ? 2 : l->backup_array);
	rcl_put_le32(h + H_ENTRY_COUNT, RCL_GPT_MAX_PARTS);
	rcl_put_le32(h + H_ENTRY_SIZE, ENTRY_BYTES);
	rcl_put_le32(h + H_ENTRIES_CRC, array_crc);
	rcl_put_le32(h + H_CRC, rcl_crc32(0, h, HEADER_BYTES));
}

static void encode_pmbr(const struct layout *l, uint8_t *mbr)
{
	uint8_t *rec = mbr + MBR_RECORDS;
	uint64_t size = l->lbas - 1;

	/* Starting CHS 0/0/2, ending CHS all ones: "past what CHS can say". */
	rec[2] = 0x02;
	rec[4] = MBR_TYPE_GPT;
	rec[5] = rec[6] = rec[7] = 0xff;
	rcl_put_le32(rec + 8, 1);
	rcl_put_le32(rec + 12, size > UINT32_MAX ? UINT32_MAX : (uint32_t)size);
	mbr[MBR_SIGNATURE] = 0x55;
	mbr[MBR_SIGNATURE + 1] = 0xaa;
}

static enum rcl_status check_table(const struct rcl_gpt *gpt, struct layout *l,
                                   struct rcl_error *err)
{
	enum rcl_status st;

	if (!sector_size_ok(gpt->sector_size))
		return rcl_fail(err, RCL_INVALID_PARAM, "invalid sector size %u, use 512 or 4096",
		                gpt->sector_size);
	if (!layout_compute(gpt->bytes, gpt->sector_size, l))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "a drive of %llu bytes is too small for a GPT",
		                (unsigned long long)gpt->bytes);
	for (size_t i = 0; i < RCL_GPT_MAX_PARTS; i++) {
		if (rcl_guid_is_zero(&gpt->parts[i].type))
			continue;
		st = check_part(gpt, i, l, err);
		if (st)
			return st;
	}
	return RCL_OK;
}

/* The three steps of rcl_gpt_write(), in the order that keeps a copy valid. */
static enum rcl_status write_steps(int fd, const struct rcl_gpt *gpt, const struct layout *l,
                                   const uint8_t *array, uint8_t *sector, struct rcl_error *err)
{
	uint64_t ss = gpt->sector_size;
	uint32_t array_crc = rcl_crc32(0, array, RCL_GPT_MAX_PARTS * ENTRY_BYTES);
	enum rcl_status st;

	encode_header(gpt, l, false, array_crc, sector);
	if ((st = rcl_soft_write(fd, array, RCL_GPT_MAX_PARTS * ENTRY_BYTES, l->backup_array * ss,
	                         "backup GPT entries", err)) ||
	    (st =
	         rcl_soft_write(fd, sector, ss, l->backup_header * ss, "backup GPT header", err)) ||
	    (st = rcl_soft_sync(fd, "backup GPT", err)))
		return st;
	memset(sector, 0, ss);
	encode_header(gpt, l, true, array_crc, sector);
	if ((st = rcl_soft_write(fd, array, RCL_GPT_MAX_PARTS * ENTRY_BYTES, 2 * ss,
	                         "primary GPT entries", err)) ||
	    (st = rcl_soft_write(fd, sector, ss, ss, "primary GPT header", err)) ||
	    (st = rcl_soft_sync(fd, "primary GPT", err)))
		return st;
	memset(sector, 0, ss);
	encode_pmbr(l, sector);
	if ((st = rcl_soft_write(fd, sector, ss, 0, "protective MBR", err)) ||
	    (st = rcl_soft_sync(fd, "protective MBR", err)))
		return st;
	return RCL_OK;
}

enum rcl_status rcl_gpt_write(int fd, const struct rcl_gpt *gpt, struct rcl_error *err)
{
	struct layout l;
	uint8_t *array, *sector;
	enum rcl_status st;

	st = check_table(gpt, &l, err);
	if (st)
		return st;
	array = rcl_calloc(RCL_GPT_MAX_PARTS, ENTRY_BYTES);
	sector = rcl_calloc(1, gpt->sector_size);
	if (!array || !sector) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory writing the GPT");
		goto out;
	}
	for (size_t i = 0; i < RCL_GPT_MAX_PARTS; i++)
		if (!rcl_guid_is_zero(&gpt->parts[i].type))
			encode_entry(&gpt->parts[i], array + i * ENTRY_BYTES);
	st = write_steps(fd, gpt, &l, array, sector, err);
out:
	rcl_free(array);
	rcl_free(sector);
	return st;
}

/* ---- Reading a table ---- */

/* One copy's header fields, as read and before they are trusted. */
struct header {
	uint64_t my_lba;
	uint64_t alt_lba;
	uint64_t first_usable;
	uint64_t last_usable;
	uint64_t entries_lba;
	uint32_t count;
	uint32_t entry_size;
	uint32_t entries_crc;
	struct rcl_guid disk_guid;
};

/* Signature, revision, size and CRC: is this sector a GPT header at all? */
static enum rcl_status check_header_sector(uint8_t *h, unsigned sector_size, uint64_t lba,
                                           struct rcl_error *err)
{
	uint32_t size, crc;

	if (memcmp(h + H_SIGNATURE, GPT_SIGNATURE, 8))
		return rcl_fail(err, RCL_NOT_FOUND, "no GPT signature at LBA %llu",
		                (unsigned long long)lba);
	if (rcl_get_le32(h + H_REVISION) >> 16 != GPT_REVISION >> 16)
		return rcl_fail(err, RCL_CORRUPT, "unknown GPT revision 0x%08x",
		                rcl_get_le32(h + H_REVISION));
	size = rcl_get_le32(h + H_SIZE);
	if (size < HEADER_BYTES || size > sector_size)
		return rcl_fail(err, RCL_CORRUPT, "header size %u is not between %u and %u", size,
		                HEADER_BYTES, sector_size);
	crc = rcl_get_le32(h + H_CRC);
	rcl_put_le32(h + H_CRC, 0);
	if (rcl_crc32(0, h, size) != crc)
		return rcl_fail(err, RCL_CORRUPT, "header CRC 0x%08x does not match its contents",
		                crc);
	return RCL_OK;
}

/* Is every LBA the header points at on the drive and where it belongs? */
static enum rcl_status check_header_fields(const struct header *hd, uint64_t lba, uint64_t lbas,
                                           unsigned sector_size, struct rcl_error *err)
{
	uint64_t array_bytes = (uint64_t)hd->count * hd->entry_size;
	uint64_t array_sectors = (array_bytes + sector_size - 1) / sector_size;

	if (hd->my_lba != lba)
		return rcl_fail(err, RCL_CORRUPT, "header at LBA %llu says it is at LBA %llu",
		                (unsigned long long)lba, (unsigned long long)hd->my_lba);
	if (hd->alt_lba >= lbas || hd->alt_lba == lba || hd->alt_lba == 0)
		return rcl_fail(err, RCL_CORRUPT,
		                "other header at LBA %llu is not on the drive of %llu sectors",
		                (unsigned long long)hd->alt_lba, (unsigned long long)lbas);
	if (hd->first_usable < 2 || hd->first_usable > hd->last_usable || hd->last_usable >= lbas)
		return rcl_fail(err, RCL_CORRUPT,
		                "usable LBAs %llu-%llu do not fit the drive of %llu sectors",
		                (unsigned long long)hd->first_usable,
		                (unsigned long long)hd->last_usable, (unsigned long long)lbas);
	if ((lba >= hd->first_usable && lba <= hd->last_usable) ||
	    (hd->alt_lba >= hd->first_usable && hd->alt_lba <= hd->last_usable))
		return rcl_fail(err, RCL_CORRUPT, "usable LBAs %llu-%llu cover a GPT header",
		                (unsigned long long)hd->first_usable,
		                (unsigned long long)hd->last_usable);
	if (hd->entry_size < ENTRY_BYTES || hd->entry_size > MAX_ENTRY_BYTES ||
	    (hd->entry_size & (hd->entry_size - 1)))
		return rcl_fail(err, RCL_CORRUPT,
		                "entry size %u is not a power of two from %u to %u", hd->entry_size,
		                ENTRY_BYTES, MAX_ENTRY_BYTES);
	if (array_bytes > MAX_ARRAY_BYTES)
		return rcl_fail(err, RCL_CORRUPT, "entry array of %u entries is too large",
		                hd->count);
	if (hd->entries_lba < 2 || hd->entries_lba >= lbas ||
	    array_sectors > lbas - hd->entries_lba ||
	    (hd->entries_lba <= hd->last_usable &&
	     hd->entries_lba + array_sectors > hd->first_usable) ||
	    (lba >= hd->entries_lba && lba < hd->entries_lba + array_sectors))
		return rcl_fail(err, RCL_CORRUPT,
		                "entry array at LBA %llu overlaps the header or usable LBAs",
		                (unsigned long long)hd->entries_lba);
	return RCL_OK;
}

static void decode_header(const uint8_t *h, struct header *hd)
{
	hd->my_lba = rcl_get_le64(h + H_MY_LBA);
	hd->alt_lba = rcl_get_le64(h + H_ALT_LBA);
	hd->first_usable = rcl_get_le64(h + H_FIRST_USABLE);
	hd->last_usable = rcl_get_le64(h + H_LAST_USABLE);
	memcpy(hd->disk_guid.b, h + H_DISK_GUID, 16);
	hd->entries_lba = rcl_get_le64(h + H_ENTRIES_LBA);
	hd->count = rcl_get_le32(h + H_ENTRY_COUNT);
	hd->entry_size = rcl_get_le32(h + H_ENTRY_SIZE);
	hd->entries_crc = rcl_get_le32(h + H_ENTRIES_CRC);
}

static void decode_entry(const uint8_t *e, struct rcl_gpt_part *p)
{
	size_t i;

	memcpy(p->type.b, e + E_TYPE, 16);
	memcpy(p->guid.b, e + E_GUID, 16);
	p->first_lba = rcl_get_le64(e + E_FIRST);
	p->last_lba = rcl_get_le64(e + E_LAST);
	p->attributes = rcl_get_le64(e + E_ATTR);
	for (i = 0; i < RCL_GPT_NAME_MAX; i++) {
		uint16_t unit = rcl_get_le16(e + E_NAME + 2 * i);

		if (!unit)
			break;
		p->name[i] = unit >= 0x20 && unit <= 0x7e ? (char)unit : '?';
	}
	p->name[i] = '\0';
}

/* Entries past our 128 slots must be unused; the used ones must fit and not overlap. */
static enum rcl_status decode_entries(const uint8_t *array, const struct header *hd,
                                      struct rcl_gpt *gpt, struct rcl_error *err)
{
	for (uint32_t i = 0; i < hd->count; i++) {
		const uint8_t *e = array + (size_t)i * hd->entry_size;
		struct rcl_gpt_part *p;
		struct rcl_guid type;

		memcpy(type.b, e + E_TYPE, 16);
		if (rcl_guid_is_zero(&type))
			continue;
		if (i >= RCL_GPT_MAX_PARTS)
			return rcl_fail(err, RCL_UNSUPPORTED,
			                "partition %u is beyond the %u partitions supported", i + 1,
			                RCL_GPT_MAX_PARTS);
		p = &gpt->parts[i];
		decode_entry(e, p);
		if (p->first_lba > p->last_lba || p->first_lba < hd->first_usable ||
		    p->last_lba > hd->last_usable)
			return rcl_fail(err, RCL_CORRUPT, "partition %u is outside the usable LBAs",
			                i + 1);
		for (uint32_t j = 0; j < i; j++) {
			const struct rcl_gpt_part *q = &gpt->parts[j];

			if (!rcl_guid_is_zero(&q->type) && p->first_lba <= q->last_lba &&
			    q->first_lba <= p->last_lba)
				return rcl_fail(err, RCL_CORRUPT, "partitions %u and %u overlap",
				                j + 1, i + 1);
		}
	}
	return RCL_OK;
}

static enum rcl_status load_entries(int fd, const struct header *hd, unsigned sector_size,
                                    struct rcl_gpt *gpt, struct rcl_error *err)
{
	size_t len = (size_t)hd->count * hd->entry_size;
	uint8_t *array = rcl_malloc(len);
	enum rcl_status st;

	if (!array)
		return rcl_fail(err, RCL_NOMEM, "out of memory reading the GPT");
	st = rcl_soft_read(fd, array, len, hd->entries_lba * sector_size, err);
	if (!st && rcl_crc32(0, array, len) != hd->entries_crc)
		st =
		    rcl_fail(err, RCL_CORRUPT, "entry array CRC 0x%08x does not match its contents",
		             hd->entries_crc);
	if (!st)
		st = decode_entries(array, hd, gpt, err);
	rcl_free(array);
	return st;
}

/*
 * Load the copy whose header is at @lba into @gpt. Return: RCL_OK,
 * RCL_NOT_FOUND (no signature), RCL_CORRUPT (why in @err), or a hard error.
 */
static enum rcl_status load_copy(int fd, uint64_t lba, uint64_t lbas, struct rcl_gpt *gpt,
                                 struct rcl_error *err)
{
	uint8_t *h = rcl_malloc(gpt->sector_size);
	struct header hd;
	enum rcl_status st;

	if (!h)
		return rcl_fail(err, RCL_NOMEM, "out of memory reading the GPT");
	st = rcl_soft_read(fd, h, gpt->sector_size, lba * gpt->sector_size, err);
	if (!st)
		st = check_header_sector(h, gpt->sector_size, lba, err);
	decode_header(h, &hd);
	rcl_free(h);
	if (!st)
		st = check_header_fields(&hd, lba, lbas, gpt->sector_size, err);
	if (!st)
		st = load_entries(fd, &hd, gpt->sector_size, gpt, err);
	if (st)
		return st;
	gpt->disk_guid = hd.disk_guid;
	gpt->first_usable = hd.first_usable;
	gpt->last_usable = hd.last_usable;
	return RCL_OK;
}

/*
 * An MBR partition table without a protective (0xEE) record means the drive
 * is MBR-partitioned and any GPT on it is stale: Linux ignores it too. A
 * blank LBA 0 is tolerated, as sgdisk does: the GPT just lost its MBR.
 */
static enum rcl_status check_mbr(int fd, struct rcl_error *err)
{
	uint8_t mbr[512]; /* the first 512 bytes, whatever the sector size */
	enum rcl_status st;

	st = rcl_soft_read(fd, mbr, sizeof(mbr), 0, err);
	if (st)
		return st;
	if (mbr[MBR_SIGNATURE] != 0x55 || mbr[MBR_SIGNATURE + 1] != 0xaa)
		return RCL_OK;
	for (int i = 0; i < 4; i++)
		if (mbr[MBR_RECORDS + i * MBR_RECORD_BYTES + 4] == MBR_TYPE_GPT)
			return RCL_OK;
	return rcl_fail(err, RCL_NOT_FOUND, "the drive has an MBR partition table, not a GPT");
}

/* A hard error, or both copies bad: the status and message rcl_gpt_read() returns. */
static enum rcl_status neither_copy(enum rcl_status pst, const struct rcl_error *perr,
                                    enum rcl_status bst, const struct rcl_error *berr,
                                    struct rcl_error *err)
{
	if (pst != RCL_CORRUPT && pst != RCL_NOT_FOUND) {
		*err = *perr;
		return pst;
	}
	if (bst != RCL_CORRUPT && bst != RCL_NOT_FOUND) {
		*err = *berr;
		return bst;
	}
	if (pst == RCL_NOT_FOUND && bst == RCL_NOT_FOUND)
		return rcl_fail(err, RCL_NOT_FOUND, "the drive has no GPT");
	return rcl_fail(err, RCL_CORRUPT, "damaged GPT: primary: %s; backup: %s", perr->msg,
	                berr->msg);
}

static bool same_part(const struct rcl_gpt_part *p, const struct rcl_gpt_part *q)
{
	return !memcmp(p->type.b, q->type.b, 16) && !memcmp(p->guid.b, q->guid.b, 16) &&
	       p->first_lba == q->first_lba && p->last_lba == q->last_lba &&
	       p->attributes == q->attributes && !strcmp(p->name, q->name);
}

/* Do two loaded copies describe the same table? */
static bool same_table(const struct rcl_gpt *a, const struct rcl_gpt *b)
{
	if (memcmp(a->disk_guid.b, b->disk_guid.b, 16) || a->first_usable != b->first_usable ||
	    a->last_usable != b->last_usable)
		return false;
	for (size_t i = 0; i < RCL_GPT_MAX_PARTS; i++)
		if (!same_part(&a->parts[i], &b->parts[i]))
			return false;
	return true;
}

/*
 * Is the other copy intact, and the same table as @gpt? A crash between
 * the two halves of rcl_gpt_write() leaves two valid copies that differ:
 * the caller must hear that the table wants rewriting.
 */
static enum rcl_status copy_valid(int fd, uint64_t lba, uint64_t lbas, const struct rcl_gpt *gpt,
                                  bool *valid, struct rcl_error *err)
{
	struct rcl_gpt *other = rcl_calloc(1, sizeof(*other));
	struct rcl_error why = {0};
	enum rcl_status st;

	*valid = false;
	if (!other)
		return rcl_fail(err, RCL_NOMEM, "out of memory reading the GPT");
	other->sector_size = gpt->sector_size;
	st = load_copy(fd, lba, lbas, other, &why);
	*valid = st == RCL_OK && same_table(gpt, other);
	rcl_free(other);
	if (st == RCL_OK || st == RCL_CORRUPT || st == RCL_NOT_FOUND)
		return RCL_OK;
	*err = why;
	return st;
}

enum rcl_status rcl_gpt_read(int fd, uint64_t bytes, unsigned sector_size, struct rcl_gpt *gpt,
                             struct rcl_error *err)
{
	struct rcl_error perr = {0}, berr = {0};
	enum rcl_status pst, bst = RCL_NOT_FOUND, st;
	uint64_t lbas;
	bool other_ok;

	if (!sector_size_ok(sector_size))
		return rcl_fail(err, RCL_INVALID_PARAM, "invalid sector size %u, use 512 or 4096",
		                sector_size);
	lbas = bytes / sector_size;
	if (lbas < 4)
		return rcl_fail(err, RCL_NOT_FOUND, "the drive is too small to hold a GPT");
	st = check_mbr(fd, err);
	if (st)
		return st;
	memset(gpt, 0, sizeof(*gpt));
	gpt->sector_size = sector_size;
	gpt->bytes = bytes;
	pst = load_copy(fd, 1, lbas, gpt, &perr);
	/*
	 * The backup is looked for in the last LBA, not where the primary's
	 * alternate field points: on a drive that grew, it is no longer at
	 * the end and the table wants rewriting (as "sgdisk -e" would).
	 */
	if (pst == RCL_OK) {
		st = copy_valid(fd, lbas - 1, lbas, gpt, &other_ok, err);
		gpt->source = RCL_GPT_PRIMARY;
		gpt->valid = RCL_GPT_PRIMARY | (other_ok ? RCL_GPT_BACKUP : 0);
		return st;
	}
	memset(gpt->parts, 0, sizeof(gpt->parts));
	if (pst == RCL_CORRUPT || pst == RCL_NOT_FOUND)
		bst = load_copy(fd, lbas - 1, lbas, gpt, &berr);
	if (bst != RCL_OK)
		return neither_copy(pst, &perr, bst, &berr, err);
	gpt->source = gpt->valid = RCL_GPT_BACKUP;
	return RCL_OK;
}
