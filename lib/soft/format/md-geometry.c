// SPDX-License-Identifier: MIT
/*
 * md-geometry.c - where a new md v1.2 member keeps its superblock, bitmap,
 * bad-block log and data: the choices mdadm 4.2 makes for "mdadm --create"
 * (validate_geometry1(), add_internal_bitmap1() and write_init_super1() in
 * its super1.c), redone here so our members look like mdadm's.
 */
#include <string.h>

#include "md-bitmap.h"
#include "md-super1.h"

#define GIB_SECTORS (2ull * 1024 * 1024)
/* mdadm rounds data_offset up to 1 MiB ... */
#define DATA_ALIGN 2048
/* ... after 12 KiB of metadata, the bitmap space and up to 128 MiB headroom. */
#define META_SECTORS  24
#define MAX_HEADROOM  262144
#define BBLOG_SECTORS 8
/* RAID1 has no chunk; mdadm rounds its size to 64 KiB for a later reshape. */
#define RAID1_ROUND 128

/*
 * mdadm's choose_bm_space(): sectors kept for a bitmap on a device of
 * @sectors: 4 KiB, 64 KiB from 8 GiB, 128 KiB from 200 GiB. Multiples of
 * 4 KiB, so 4K-sector drives stay aligned.
 */
static uint64_t bitmap_reserve(uint64_t sectors)
{
	if (sectors < 128)
		return 0;
	if (sectors - 128 >= 200 * GIB_SECTORS)
		return 256;
	if (sectors - 8 > 8 * GIB_SECTORS)
		return 128;
	return 8;
}

/*
 * Headroom for a reshape to move data: 128 MiB, halved while it is more
 * than about 0.1% of the device, but not below two chunks' worth.
 */
static uint64_t headroom(uint64_t dev_sectors, uint32_t chunk_sectors)
{
	uint64_t room = MAX_HEADROOM;

	while ((room << 10) > dev_sectors && (!chunk_sectors || room / 2 >= 2ull * chunk_sectors))
		room >>= 1;
	return room;
}

static uint64_t data_offset(uint64_t dev_sectors, uint32_t chunk_sectors)
{
	uint64_t offset =
	    META_SECTORS + bitmap_reserve(dev_sectors) + headroom(dev_sectors, chunk_sectors);

	return (offset + DATA_ALIGN - 1) / DATA_ALIGN * DATA_ALIGN;
}

static enum rcl_status check_shape(const struct rcl_md_shape *shape, struct rcl_error *err)
{
	uint32_t chunk = shape->chunk_sectors;

	switch (shape->level) {
	case RCL_MD_LEVEL_RAID1:
		if (chunk)
			return rcl_fail(err, RCL_INVALID_PARAM, "md raid1 takes no chunk size");
		return RCL_OK;
	case RCL_MD_LEVEL_RAID10:
		if ((shape->layout & 0xff) * ((shape->layout >> 8) & 0xff) == 0)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "md raid10 layout 0x%x has no copies", shape->layout);
		/* fall through */
	case RCL_MD_LEVEL_RAID0:
	case RCL_MD_LEVEL_RAID5:
	case RCL_MD_LEVEL_RAID6:
		if (chunk < 8 || (chunk & (chunk - 1)))
			return rcl_fail(
			    err, RCL_INVALID_PARAM,
			    "md chunk of %u sectors is not a power of two of at least 4 KiB",
			    chunk);
		return RCL_OK;
	default:
		return rcl_fail(err, RCL_INVALID_PARAM, "md level %d is not supported",
		                shape->level);
	}
}

/* The bitmap's sync range: a member's size, RAID10's whole array (mdadm, in KiB). */
static uint64_t bitmap_sync_size(const struct rcl_md_shape *shape, uint64_t size)
{
	uint64_t copies = (shape->layout & 0xff) * ((shape->layout >> 8) & 0xff);

	if (shape->level != RCL_MD_LEVEL_RAID10)
		return size;
	return size / 2 * shape->raid_disks / copies * 2;
}

/*
 * The bitmap, and the bad-block log placed after the space it takes (after
 * the space kept for one when there is no bitmap), as write_init_super1().
 */
static enum rcl_status place_bitmap(const struct rcl_md_shape *shape, struct rcl_md_geometry *geo,
                                    struct rcl_error *err)
{
	uint64_t bm_space = bitmap_reserve(geo->size);

	if (shape->bitmap && shape->level != RCL_MD_LEVEL_RAID0) {
		geo->bitmap_sync_size = bitmap_sync_size(shape, geo->size);
		geo->bitmap_chunk = rcl_md_bitmap_default_chunk(geo->bitmap_sync_size, bm_space);
		if (!geo->bitmap_chunk)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "no room for an md bitmap on a member of %llu sectors",
			                (unsigned long long)geo->data_size);
		geo->bitmap_offset = 8;
		bm_space = rcl_md_bitmap_space(geo->bitmap_sync_size, geo->bitmap_chunk) / 512;
	}
	geo->bblog_size = BBLOG_SECTORS;
	if (geo->data_offset >= geo->super_offset + 8 + bm_space + BBLOG_SECTORS)
		geo->bblog_offset = (int32_t)(8 + bm_space);
	else
		geo->bblog_offset = (int32_t)(geo->data_offset - BBLOG_SECTORS - geo->super_offset);
	return RCL_OK;
}

/*
 * Sectors "mdadm --grow --bitmap=internal" gives a bitmap on v1.2 member
 * @sb: from the end of the superblock's 4 KiB to the bad-block log, or to
 * 8 sectors kept for one before the data (rcl_md_bitmap_default_chunk()
 * uses 128 KiB of it at most, as mdadm). Rounded down to 4 KiB: the
 * bitmap is written in 4 KiB blocks, which must not reach the log.
 */
static uint64_t grow_bitmap_room(const struct rcl_md_super1 *sb)
{
	int64_t end = sb->bblog_size
	                  ? (int64_t)sb->bblog_offset
	                  : (int64_t)(sb->data_offset - sb->super_offset) - BBLOG_SECTORS;
	uint64_t room = end > 8 ? (uint64_t)end - 8 : 0;

	return room / 8 * 8;
}

bool rcl_md_super1_grow_bitmap(const struct rcl_md_super1 *sb, struct rcl_md_geometry *geo,
                               uint64_t *need, uint64_t *room)
{
	struct rcl_md_shape shape = {
	    .level = sb->level, .layout = sb->layout, .raid_disks = sb->raid_disks};
	uint64_t sync_size = bitmap_sync_size(&shape, sb->size);
	uint32_t chunk;

	*room = grow_bitmap_room(sb);
	/* The least any bitmap takes: md's largest chunk, 2 GiB. */
	*need = rcl_md_bitmap_space(sync_size, 1u << 31) / 512;
	chunk = rcl_md_bitmap_default_chunk(sync_size, *room);
	if (!chunk || rcl_md_bitmap_space(sync_size, chunk) / 512 > *room)
		return false;
	geo->bitmap_offset = 8;
	geo->bitmap_chunk = chunk;
	geo->bitmap_sync_size = sync_size;
	return true;
}

enum rcl_status rcl_md_super1_geometry(uint64_t dev_sectors, const struct rcl_md_shape *shape,
                                       struct rcl_md_geometry *geo, struct rcl_error *err)
{
	uint64_t round = shape->chunk_sectors ? shape->chunk_sectors : RAID1_ROUND, usable;
	enum rcl_status st;

	st = check_shape(shape, err);
	if (st)
		return st;
	memset(geo, 0, sizeof(*geo));
	geo->super_offset = RCL_MD_SUPER1_2_OFFSET;
	geo->data_offset = data_offset(dev_sectors, shape->chunk_sectors);
	if (dev_sectors < geo->data_offset + round)
		return rcl_fail(
		    err, RCL_INVALID_PARAM,
		    "a member of %llu sectors cannot hold md metadata (%llu sectors) and "
		    "data",
		    (unsigned long long)dev_sectors, (unsigned long long)geo->data_offset);
	geo->data_size = dev_sectors - geo->data_offset;
	usable = geo->data_size / round * round;
	/* md RAID0 sizes itself from data_size; mdadm leaves size 0. */
	geo->size = shape->level == RCL_MD_LEVEL_RAID0 ? 0 : usable;
	return place_bitmap(shape, geo, err);
}

enum rcl_status rcl_md_super1_init(struct rcl_md_super1 *sb, const struct rcl_md_shape *shape,
                                   const struct rcl_md_geometry *geo, unsigned devices,
                                   struct rcl_error *err)
{
	/* mdadm: room for every device's role, the superblock a whole sector. */
	size_t bytes = (RCL_MD_SB_BYTES + 2 * (size_t)devices + 511) / 512 * 512;

	if (devices < shape->raid_disks || devices > RCL_MD_MAX_DEV)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "an md array of %u raid disks cannot have %u devices",
		                shape->raid_disks, devices);
	memset(sb, 0, sizeof(*sb));
	sb->level = shape->level;
	sb->layout = shape->layout;
	sb->chunksize = shape->chunk_sectors;
	sb->raid_disks = shape->raid_disks;
	sb->size = geo->size;
	sb->data_offset = geo->data_offset;
	sb->data_size = geo->data_size;
	sb->super_offset = geo->super_offset;
	if (geo->bitmap_offset) {
		sb->feature_map |= RCL_MD_FEATURE_BITMAP_OFFSET;
		sb->bitmap_offset = geo->bitmap_offset;
	}
	sb->bblog_offset = geo->bblog_offset;
	sb->bblog_size = geo->bblog_size;
	sb->max_dev = (uint32_t)((bytes - RCL_MD_SB_BYTES) / 2);
	for (size_t i = 0; i < RCL_MD_MAX_DEV; i++)
		sb->dev_roles[i] = RCL_MD_ROLE_SPARE;
	return RCL_OK;
}

void rcl_md_bitmap_super_init(struct rcl_md_bitmap_super *bms, const struct rcl_md_super1 *sb,
                              const struct rcl_md_geometry *geo)
{
	*bms = (struct rcl_md_bitmap_super){
	    .version = RCL_MD_BITMAP_VERSION,
	    .events = sb->events,
	    .events_cleared = sb->events,
	    .sync_size = geo->bitmap_sync_size,
	    .chunksize = geo->bitmap_chunk,
	    .daemon_sleep = RCL_MD_BITMAP_DAEMON_SLEEP,
	    .sectors_reserved =
	        (uint32_t)(rcl_md_bitmap_space(geo->bitmap_sync_size, geo->bitmap_chunk) / 512),
	};
	memcpy(bms->uuid, sb->set_uuid, sizeof(bms->uuid));
}
