// SPDX-License-Identifier: MIT
/*
 * md-bitmap.c - encode, check and size md's write-intent bitmap.
 *
 * Offsets are those of bitmap_super_t in the kernel's drivers/md/md-bitmap.h
 * (and mdadm's bitmap.h); all fields are little-endian.
 */
#include <string.h>

#include "le.h"
#include "md-bitmap.h"

enum {
	BM_MAGIC = 0,
	BM_VERSION = 4,
	BM_UUID = 8,
	BM_EVENTS = 24,
	BM_EVENTS_CLEARED = 32,
	BM_SYNC_SIZE = 40,
	BM_STATE = 48,
	BM_CHUNKSIZE = 52,
	BM_DAEMON_SLEEP = 56,
	BM_WRITE_BEHIND = 60,
	BM_SECTORS_RESERVED = 64,
	BM_NODES = 68,
	BM_CLUSTER_NAME = 72,
};

#define KIB4  4096u
#define MIB64 (64u << 20)
/* Sub-page bitmap chunks do not work in md (mdadm's comment), so 4 KiB up. */
#define MIN_CHUNK           4096u
#define MAX_DEFAULT_SECTORS 256u

uint64_t rcl_md_bitmap_bits(uint64_t sync_size, uint32_t chunksize)
{
	uint64_t per_bit = chunksize / 512;

	/* In sectors, not bytes: sync_size * 512 can overflow. */
	return sync_size / per_bit + (sync_size % per_bit != 0);
}

uint64_t rcl_md_bitmap_space(uint64_t sync_size, uint32_t chunksize)
{
	uint64_t bits = rcl_md_bitmap_bits(sync_size, chunksize);
	/* bits / 8 rounded up without bits + 7, which wraps for hostile sizes */
	uint64_t bytes = RCL_MD_BITMAP_SB_BYTES + bits / 8 + (bits % 8 != 0);

	return (bytes + KIB4 - 1) / KIB4 * KIB4;
}

uint32_t rcl_md_bitmap_default_chunk(uint64_t sync_size, uint64_t room_sectors)
{
	uint64_t max_bits, bits;
	uint64_t chunk = MIN_CHUNK;

	/* mdadm keeps a bitmap it sizes itself to 128 KiB, whatever the room. */
	if (room_sectors > MAX_DEFAULT_SECTORS)
		room_sectors = MAX_DEFAULT_SECTORS;
	if (room_sectors * 512 <= RCL_MD_BITMAP_SB_BYTES)
		return 0;
	max_bits = (room_sectors * 512 - RCL_MD_BITMAP_SB_BYTES) * 8;
	/* mdadm's loop, one more bit than needed included: keep its numbers. */
	bits = sync_size / (MIN_CHUNK / 512) + 1;
	while (bits > max_bits) {
		chunk *= 2;
		bits = (bits + 1) / 2;
	}
	if (chunk < MIB64)
		chunk = MIB64;
	return chunk > UINT32_MAX / 2 + 1 ? 0 : (uint32_t)chunk;
}

enum rcl_status rcl_md_bitmap_encode(const struct rcl_md_bitmap_super *bms, uint8_t *buf,
                                     size_t len, struct rcl_error *err)
{
	size_t name_len = strnlen(bms->cluster_name, sizeof(bms->cluster_name));

	if (len < RCL_MD_BITMAP_SB_BYTES)
		return rcl_fail(err, RCL_INVALID_PARAM, "%zu bytes cannot hold a bitmap superblock",
		                len);
	/* md prints the name as a C string: keep a NUL inside the 64 bytes. */
	if (name_len >= RCL_MD_BITMAP_CLUSTER_NAME)
		return rcl_fail(err, RCL_INVALID_PARAM, "cluster name '%s' is over %d characters",
		                bms->cluster_name, RCL_MD_BITMAP_CLUSTER_NAME - 1);
	memset(buf, 0, len);
	rcl_put_le32(buf + BM_MAGIC, RCL_MD_BITMAP_MAGIC);
	rcl_put_le32(buf + BM_VERSION, bms->version);
	memcpy(buf + BM_UUID, bms->uuid, 16);
	rcl_put_le64(buf + BM_EVENTS, bms->events);
	rcl_put_le64(buf + BM_EVENTS_CLEARED, bms->events_cleared);
	rcl_put_le64(buf + BM_SYNC_SIZE, bms->sync_size);
	rcl_put_le32(buf + BM_STATE, bms->state);
	rcl_put_le32(buf + BM_CHUNKSIZE, bms->chunksize);
	rcl_put_le32(buf + BM_DAEMON_SLEEP, bms->daemon_sleep);
	rcl_put_le32(buf + BM_WRITE_BEHIND, bms->write_behind);
	rcl_put_le32(buf + BM_SECTORS_RESERVED, bms->sectors_reserved);
	rcl_put_le32(buf + BM_NODES, bms->nodes);
	memcpy(buf + BM_CLUSTER_NAME, bms->cluster_name, name_len);
	return RCL_OK;
}

static void decode_fields(const uint8_t *buf, struct rcl_md_bitmap_super *bms)
{
	bms->version = rcl_get_le32(buf + BM_VERSION);
	memcpy(bms->uuid, buf + BM_UUID, 16);
	bms->events = rcl_get_le64(buf + BM_EVENTS);
	bms->events_cleared = rcl_get_le64(buf + BM_EVENTS_CLEARED);
	bms->sync_size = rcl_get_le64(buf + BM_SYNC_SIZE);
	bms->state = rcl_get_le32(buf + BM_STATE);
	bms->chunksize = rcl_get_le32(buf + BM_CHUNKSIZE);
	bms->daemon_sleep = rcl_get_le32(buf + BM_DAEMON_SLEEP);
	bms->write_behind = rcl_get_le32(buf + BM_WRITE_BEHIND);
	bms->sectors_reserved = rcl_get_le32(buf + BM_SECTORS_RESERVED);
	bms->nodes = rcl_get_le32(buf + BM_NODES);
	memcpy(bms->cluster_name, buf + BM_CLUSTER_NAME, RCL_MD_BITMAP_CLUSTER_NAME);
	bms->cluster_name[RCL_MD_BITMAP_CLUSTER_NAME] = '\0';
}

static enum rcl_status check_fields(const struct rcl_md_bitmap_super *bms, struct rcl_error *err)
{
	if (bms->version < RCL_MD_BITMAP_VERSION_HOSTENDIAN ||
	    bms->version > RCL_MD_BITMAP_VERSION_CLUSTERED)
		return rcl_fail(err, RCL_CORRUPT, "md bitmap version %u is not between %d and %d",
		                bms->version, RCL_MD_BITMAP_VERSION_HOSTENDIAN,
		                RCL_MD_BITMAP_VERSION_CLUSTERED);
	if (bms->chunksize < 512 || (bms->chunksize & (bms->chunksize - 1)))
		return rcl_fail(err, RCL_CORRUPT,
		                "md bitmap chunk size %u is not a power of two of at least 512",
		                bms->chunksize);
	if (bms->daemon_sleep < 1)
		return rcl_fail(err, RCL_CORRUPT, "md bitmap daemon sleep of 0 seconds");
	if (bms->write_behind > RCL_MD_BITMAP_MAX_WRITE_BEHIND)
		return rcl_fail(err, RCL_CORRUPT, "md bitmap write-behind %u is over %d",
		                bms->write_behind, RCL_MD_BITMAP_MAX_WRITE_BEHIND);
	return RCL_OK;
}

/* Every node's copy (one when not clustered) must fit in the room. */
static enum rcl_status check_room(const struct rcl_md_bitmap_super *bms, uint64_t room_sectors,
                                  struct rcl_error *err)
{
	uint64_t copies = bms->nodes ? bms->nodes : 1;
	uint64_t space = rcl_md_bitmap_space(bms->sync_size, bms->chunksize) / 512;

	if (space > room_sectors / copies)
		return rcl_fail(err, RCL_CORRUPT,
		                "md bitmap of %llu sectors (x%llu copies) does not fit its %llu "
		                "sectors",
		                (unsigned long long)space, (unsigned long long)copies,
		                (unsigned long long)room_sectors);
	return RCL_OK;
}

enum rcl_status rcl_md_bitmap_decode(const uint8_t *buf, size_t len, uint64_t room_sectors,
                                     struct rcl_md_bitmap_super *bms, struct rcl_error *err)
{
	uint32_t magic;
	enum rcl_status st;

	if (len < RCL_MD_BITMAP_SB_BYTES)
		return rcl_fail(err, RCL_INVALID_PARAM, "%zu bytes cannot hold a bitmap superblock",
		                len);
	magic = rcl_get_le32(buf + BM_MAGIC);
	if (magic != RCL_MD_BITMAP_MAGIC)
		return rcl_fail(err, RCL_CORRUPT, "no md bitmap: magic 0x%08x, expected 0x%08x",
		                magic, RCL_MD_BITMAP_MAGIC);
	decode_fields(buf, bms);
	st = check_fields(bms, err);
	if (!st)
		st = check_room(bms, room_sectors, err);
	return st;
}
