// SPDX-License-Identifier: MIT
/*
 * md-super1.c - encode, check and decode md's v1 superblock.
 *
 * The byte offsets below are those of struct mdp_superblock_1 in the
 * kernel's include/uapi/linux/raid/md_p.h; all fields are little-endian.
 */
#include <string.h>

#include "le.h"
#include "md-super1.h"

enum {
	SB_MAGIC = 0,
	SB_MAJOR = 4,
	SB_FEATURES = 8,
	SB_PAD0 = 12,
	SB_SET_UUID = 16,
	SB_SET_NAME = 32,
	SB_CTIME = 64,
	SB_LEVEL = 72,
	SB_LAYOUT = 76,
	SB_SIZE = 80,
	SB_CHUNK = 88,
	SB_RAID_DISKS = 92,
	SB_BITMAP_OFFSET = 96,
	SB_NEW_LEVEL = 100,
	SB_RESHAPE_POS = 104,
	SB_DELTA_DISKS = 112,
	SB_NEW_LAYOUT = 116,
	SB_NEW_CHUNK = 120,
	SB_NEW_OFFSET = 124,
	SB_DATA_OFFSET = 128,
	SB_DATA_SIZE = 136,
	SB_SUPER_OFFSET = 144,
	SB_RECOVERY_OFFSET = 152,
	SB_DEV_NUMBER = 160,
	SB_CORRECTED = 164,
	SB_DEVICE_UUID = 168,
	SB_DEVFLAGS = 184,
	SB_BBLOG_SHIFT = 185,
	SB_BBLOG_SIZE = 186,
	SB_BBLOG_OFFSET = 188,
	SB_UTIME = 192,
	SB_EVENTS = 200,
	SB_RESYNC_OFFSET = 208,
	SB_CSUM = 216,
	SB_MAX_DEV = 220,
	SB_PAD3 = 224,
	SB_ROLES = RCL_MD_SB_BYTES,
};

#define SET_NAME_BYTES 32
#define PAD3_BYTES     32

size_t rcl_md_super1_bytes(uint32_t max_dev)
{
	return RCL_MD_SB_BYTES + 2 * (size_t)max_dev;
}

uint32_t rcl_md_super1_csum(const uint8_t *buf, uint32_t max_dev)
{
	size_t size = rcl_md_super1_bytes(max_dev), i;
	uint64_t sum = 0;

	for (i = 0; i + 4 <= size; i += 4)
		if (i != SB_CSUM)
			sum += rcl_get_le32(buf + i);
	/* An odd max_dev leaves one 16-bit role; md adds it on its own. */
	if (i < size)
		sum += rcl_get_le16(buf + i);
	/* Fold the carry once, as md does: the result can itself carry. */
	return (uint32_t)((sum & 0xffffffff) + (sum >> 32));
}

/* ---- Encoding ---- */

static void encode_array_part(const struct rcl_md_super1 *sb, uint8_t *b)
{
	rcl_put_le32(b + SB_MAGIC, RCL_MD_SB_MAGIC);
	rcl_put_le32(b + SB_MAJOR, 1);
	rcl_put_le32(b + SB_FEATURES, sb->feature_map);
	memcpy(b + SB_SET_UUID, sb->set_uuid, 16);
	memcpy(b + SB_SET_NAME, sb->set_name, strnlen(sb->set_name, SET_NAME_BYTES));
	rcl_put_le64(b + SB_CTIME, sb->ctime);
	rcl_put_le32(b + SB_LEVEL, (uint32_t)sb->level);
	rcl_put_le32(b + SB_LAYOUT, sb->layout);
	rcl_put_le64(b + SB_SIZE, sb->size);
	rcl_put_le32(b + SB_CHUNK, sb->chunksize);
	rcl_put_le32(b + SB_RAID_DISKS, sb->raid_disks);
	rcl_put_le32(b + SB_BITMAP_OFFSET, (uint32_t)sb->bitmap_offset);
	rcl_put_le32(b + SB_NEW_LEVEL, (uint32_t)sb->new_level);
	rcl_put_le64(b + SB_RESHAPE_POS, sb->reshape_position);
	rcl_put_le32(b + SB_DELTA_DISKS, (uint32_t)sb->delta_disks);
	rcl_put_le32(b + SB_NEW_LAYOUT, sb->new_layout);
	rcl_put_le32(b + SB_NEW_CHUNK, sb->new_chunk);
	rcl_put_le32(b + SB_NEW_OFFSET, (uint32_t)sb->new_offset);
}

static void encode_device_part(const struct rcl_md_super1 *sb, uint8_t *b)
{
	rcl_put_le64(b + SB_DATA_OFFSET, sb->data_offset);
	rcl_put_le64(b + SB_DATA_SIZE, sb->data_size);
	rcl_put_le64(b + SB_SUPER_OFFSET, sb->super_offset);
	rcl_put_le64(b + SB_RECOVERY_OFFSET, sb->recovery_offset);
	rcl_put_le32(b + SB_DEV_NUMBER, sb->dev_number);
	rcl_put_le32(b + SB_CORRECTED, sb->cnt_corrected_read);
	memcpy(b + SB_DEVICE_UUID, sb->device_uuid, 16);
	b[SB_DEVFLAGS] = sb->devflags;
	b[SB_BBLOG_SHIFT] = sb->bblog_shift;
	rcl_put_le16(b + SB_BBLOG_SIZE, sb->bblog_size);
	rcl_put_le32(b + SB_BBLOG_OFFSET, (uint32_t)sb->bblog_offset);
	rcl_put_le64(b + SB_UTIME, sb->utime);
	rcl_put_le64(b + SB_EVENTS, sb->events);
	rcl_put_le64(b + SB_RESYNC_OFFSET, sb->resync_offset);
	rcl_put_le32(b + SB_MAX_DEV, sb->max_dev);
	for (uint32_t i = 0; i < sb->max_dev; i++)
		rcl_put_le16(b + SB_ROLES + 2 * i, sb->dev_roles[i]);
}

enum rcl_status rcl_md_super1_encode(const struct rcl_md_super1 *sb, uint8_t *buf, size_t len,
                                     struct rcl_error *err)
{
	if (sb->max_dev > RCL_MD_MAX_DEV || rcl_md_super1_bytes(sb->max_dev) > len)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "md superblock with max_dev %u does not fit in %zu bytes",
		                sb->max_dev, len);
	memset(buf, 0, len);
	encode_array_part(sb, buf);
	encode_device_part(sb, buf);
	rcl_put_le32(buf + SB_CSUM, rcl_md_super1_csum(buf, sb->max_dev));
	return RCL_OK;
}

/* ---- Decoding ---- */

static void decode_fields(const uint8_t *b, struct rcl_md_super1 *sb)
{
	sb->feature_map = rcl_get_le32(b + SB_FEATURES);
	memcpy(sb->set_uuid, b + SB_SET_UUID, 16);
	memcpy(sb->set_name, b + SB_SET_NAME, SET_NAME_BYTES);
	sb->set_name[SET_NAME_BYTES] = '\0';
	sb->ctime = rcl_get_le64(b + SB_CTIME);
	sb->level = (int32_t)rcl_get_le32(b + SB_LEVEL);
	sb->layout = rcl_get_le32(b + SB_LAYOUT);
	sb->size = rcl_get_le64(b + SB_SIZE);
	sb->chunksize = rcl_get_le32(b + SB_CHUNK);
	sb->raid_disks = rcl_get_le32(b + SB_RAID_DISKS);
	sb->bitmap_offset = (int32_t)rcl_get_le32(b + SB_BITMAP_OFFSET);
	sb->new_level = (int32_t)rcl_get_le32(b + SB_NEW_LEVEL);
	sb->reshape_position = rcl_get_le64(b + SB_RESHAPE_POS);
	sb->delta_disks = (int32_t)rcl_get_le32(b + SB_DELTA_DISKS);
	sb->new_layout = rcl_get_le32(b + SB_NEW_LAYOUT);
	sb->new_chunk = rcl_get_le32(b + SB_NEW_CHUNK);
	sb->new_offset = (int32_t)rcl_get_le32(b + SB_NEW_OFFSET);
	sb->data_offset = rcl_get_le64(b + SB_DATA_OFFSET);
	sb->data_size = rcl_get_le64(b + SB_DATA_SIZE);
	sb->super_offset = rcl_get_le64(b + SB_SUPER_OFFSET);
	sb->recovery_offset = rcl_get_le64(b + SB_RECOVERY_OFFSET);
	sb->dev_number = rcl_get_le32(b + SB_DEV_NUMBER);
	sb->cnt_corrected_read = rcl_get_le32(b + SB_CORRECTED);
	memcpy(sb->device_uuid, b + SB_DEVICE_UUID, 16);
	sb->devflags = b[SB_DEVFLAGS];
	sb->bblog_shift = b[SB_BBLOG_SHIFT];
	sb->bblog_size = rcl_get_le16(b + SB_BBLOG_SIZE);
	sb->bblog_offset = (int32_t)rcl_get_le32(b + SB_BBLOG_OFFSET);
	sb->utime = rcl_get_le64(b + SB_UTIME);
	sb->events = rcl_get_le64(b + SB_EVENTS);
	sb->resync_offset = rcl_get_le64(b + SB_RESYNC_OFFSET);
	sb->sb_csum = rcl_get_le32(b + SB_CSUM);
	sb->max_dev = rcl_get_le32(b + SB_MAX_DEV);
	for (uint32_t i = 0; i < sb->max_dev; i++)
		sb->dev_roles[i] = rcl_get_le16(b + SB_ROLES + 2 * i);
}

/* Is this a v1 superblock whose checksum matches, before any field is used? */
static enum rcl_status check_envelope(const uint8_t *b, size_t len, struct rcl_error *err)
{
	uint32_t magic = rcl_get_le32(b + SB_MAGIC), major = rcl_get_le32(b + SB_MAJOR);
	uint32_t max_dev = rcl_get_le32(b + SB_MAX_DEV), stored, computed;

	if (magic != RCL_MD_SB_MAGIC)
		return rcl_fail(err, RCL_CORRUPT, "no md superblock: magic 0x%08x, expected 0x%08x",
		                magic, RCL_MD_SB_MAGIC);
	if (major != 1)
		return rcl_fail(err, RCL_CORRUPT, "md superblock major version %u, expected 1",
		                major);
	if (max_dev > RCL_MD_MAX_DEV || rcl_md_super1_bytes(max_dev) > len)
		return rcl_fail(
		    err, RCL_CORRUPT, "md superblock max_dev %u is over the limit of %zu", max_dev,
		    len < RCL_MD_SB_AREA ? (len - RCL_MD_SB_BYTES) / 2 : RCL_MD_MAX_DEV);
	stored = rcl_get_le32(b + SB_CSUM);
	computed = rcl_md_super1_csum(b, max_dev);
	if (stored != computed)
		return rcl_fail(
		    err, RCL_CORRUPT,
		    "md superblock checksum 0x%08x does not match its contents (0x%08x)", stored,
		    computed);
	return RCL_OK;
}

/* Non-zero padding or unknown features: a newer md wrote this, md here refuses it. */
static enum rcl_status check_known(const uint8_t *b, struct rcl_error *err)
{
	uint32_t unknown = rcl_get_le32(b + SB_FEATURES) & ~(uint32_t)RCL_MD_FEATURE_ALL;

	if (unknown)
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "md superblock uses unknown features 0x%x (written by a newer md)",
		                unknown);
	if (rcl_get_le32(b + SB_PAD0))
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "md superblock padding at byte %d is not zero", SB_PAD0);
	for (int i = 0; i < PAD3_BYTES; i++)
		if (b[SB_PAD3 + i])
			return rcl_fail(err, RCL_UNSUPPORTED,
			                "md superblock padding at byte %d is not zero",
			                SB_PAD3 + i);
	return RCL_OK;
}

/* [start, start + len) and [start2, start2 + len2) share a sector. */
static bool overlaps(uint64_t start, uint64_t len, uint64_t start2, uint64_t len2)
{
	return len && len2 && start < start2 + len2 && start2 < start + len;
}

/*
 * The start of a region @offset sectors from the superblock, or false if it
 * would be before the device or past its end.
 */
static bool region_start(const struct rcl_md_super1 *sb, int32_t offset, uint64_t dev_sectors,
                         uint64_t *start)
{
	if (offset < 0 && (uint64_t) - (int64_t)offset > sb->super_offset)
		return false;
	*start = sb->super_offset + (uint64_t)(int64_t)offset;
	return *start < dev_sectors;
}

static uint64_t super_sectors(const struct rcl_md_super1 *sb)
{
	return (rcl_md_super1_bytes(sb->max_dev) + 511) / 512;
}

static enum rcl_status check_data(const struct rcl_md_super1 *sb, uint64_t dev_sectors,
                                  struct rcl_error *err)
{
	uint64_t sb_sectors = super_sectors(sb);

	if (sb->super_offset >= dev_sectors || sb_sectors > dev_sectors - sb->super_offset)
		return rcl_fail(err, RCL_CORRUPT,
		                "md superblock at sector %llu is beyond the device of %llu sectors",
		                (unsigned long long)sb->super_offset,
		                (unsigned long long)dev_sectors);
	if (sb->data_offset > dev_sectors || sb->data_size > dev_sectors - sb->data_offset)
		return rcl_fail(err, RCL_CORRUPT,
		                "md data area (offset %llu, %llu sectors) is beyond the device of "
		                "%llu sectors",
		                (unsigned long long)sb->data_offset,
		                (unsigned long long)sb->data_size, (unsigned long long)dev_sectors);
	if (overlaps(sb->super_offset, sb_sectors, sb->data_offset, sb->data_size))
		return rcl_fail(err, RCL_CORRUPT,
		                "md data area at sector %llu overlaps the superblock",
		                (unsigned long long)sb->data_offset);
	return RCL_OK;
}

static enum rcl_status check_region(const struct rcl_md_super1 *sb, const char *what,
                                    int32_t offset, uint64_t len, uint64_t dev_sectors,
                                    struct rcl_error *err)
{
	uint64_t start;

	if (!region_start(sb, offset, dev_sectors, &start) || len > dev_sectors - start)
		return rcl_fail(err, RCL_CORRUPT,
		                "md %s at %d sectors from the superblock is off the device", what,
		                offset);
	if (overlaps(start, len, sb->data_offset, sb->data_size) ||
	    overlaps(start, len, sb->super_offset, super_sectors(sb)))
		return rcl_fail(err, RCL_CORRUPT,
		                "md %s at %d sectors from the superblock overlaps the data or the "
		                "superblock",
		                what, offset);
	return RCL_OK;
}

static bool striped(int32_t level)
{
	return level == 0 || level == 4 || level == 5 || level == 6 || level == 10;
}

static enum rcl_status check_layout(const struct rcl_md_super1 *sb, uint64_t dev_sectors,
                                    struct rcl_error *err)
{
	bool bitmap = sb->feature_map & RCL_MD_FEATURE_BITMAP_OFFSET;
	bool ppl = sb->feature_map & (RCL_MD_FEATURE_PPL | RCL_MD_FEATURE_MULTIPLE_PPLS);
	enum rcl_status st;

	st = check_data(sb, dev_sectors, err);
	if (!st && bitmap && ppl)
		st = rcl_fail(err, RCL_CORRUPT, "md superblock has both a bitmap and a PPL");
	/* Only the bitmap's first sector: its length is in its own superblock. */
	if (!st && bitmap)
		st = check_region(sb, "bitmap", sb->bitmap_offset, 1, dev_sectors, err);
	/* The PPL shares the bitmap's field: offset in the low 16 bits, size above. */
	if (!st && ppl)
		st = check_region(sb, "PPL", (int16_t)(sb->bitmap_offset & 0xffff),
		                  (uint32_t)sb->bitmap_offset >> 16, dev_sectors, err);
	if (!st && sb->bblog_size && sb->bblog_offset)
		st = check_region(sb, "bad-block log", sb->bblog_offset, sb->bblog_size,
		                  dev_sectors, err);
	if (!st && striped(sb->level) && !sb->chunksize)
		st = rcl_fail(err, RCL_CORRUPT, "md superblock of a raid%d array has no chunk size",
		              sb->level);
	return st;
}

enum rcl_status rcl_md_super1_decode(const uint8_t *buf, size_t len, uint64_t super_offset,
                                     uint64_t dev_sectors, struct rcl_md_super1 *sb,
                                     struct rcl_error *err)
{
	enum rcl_status st;

	if (len < RCL_MD_SB_BYTES)
		return rcl_fail(err, RCL_INVALID_PARAM, "%zu bytes cannot hold an md superblock",
		                len);
	st = check_envelope(buf, len, err);
	if (!st)
		st = check_known(buf, err);
	if (st)
		return st;
	decode_fields(buf, sb);
	if (sb->super_offset != super_offset)
		return rcl_fail(
		    err, RCL_CORRUPT, "md superblock at sector %llu says it is at sector %llu",
		    (unsigned long long)super_offset, (unsigned long long)sb->super_offset);
	return check_layout(sb, dev_sectors, err);
}

uint16_t rcl_md_super1_role(const struct rcl_md_super1 *sb)
{
	if (sb->dev_number >= sb->max_dev)
		return RCL_MD_ROLE_SPARE;
	return sb->dev_roles[sb->dev_number];
}

/* The sector after @start where the next of @candidates begins (UINT64_MAX: none). */
static uint64_t next_after(uint64_t start, const uint64_t *candidates, size_t n)
{
	uint64_t next = UINT64_MAX;

	for (size_t i = 0; i < n; i++)
		if (candidates[i] > start && candidates[i] < next)
			next = candidates[i];
	return next;
}

uint64_t rcl_md_super1_bitmap_room(const struct rcl_md_super1 *sb)
{
	uint64_t start, end, things[3];
	size_t n = 0;

	if (!(sb->feature_map & RCL_MD_FEATURE_BITMAP_OFFSET) ||
	    !region_start(sb, sb->bitmap_offset, UINT64_MAX, &start))
		return 0;
	things[n++] = sb->data_offset;
	things[n++] = sb->super_offset;
	if (sb->bblog_size && sb->bblog_offset &&
	    region_start(sb, sb->bblog_offset, UINT64_MAX, &things[n]))
		n++;
	end = next_after(start, things, n);
	return end == UINT64_MAX ? 0 : end - start;
}
