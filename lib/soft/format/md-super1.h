/* SPDX-License-Identifier: MIT */
/*
 * md-super1.h - Linux md's version-1 superblock, and where v1.2 puts things.
 *
 * Each member of a soft RAID virtual drive is a GPT partition laid out as
 * mdadm 4.2 lays out a v1.2 member, so Linux md assembles it unchanged:
 *
 *	sector 0	4 KiB left free (boot blocks, partition tables)
 *	sector 8	the superblock: 256 bytes + 2 bytes per dev_roles[] slot
 *	sector 16	the write-intent bitmap (superblock + bits), if any
 *	after it	the bad-block log, 8 sectors
 *	data_offset	the member's data, data_size sectors to the end
 *
 * All offsets and sizes in the superblock count 512-byte sectors, whatever
 * the drive's logical sector size. md-super1.c converts the superblock
 * between bytes and struct rcl_md_super1, md-geometry.c computes that
 * layout for a new member; neither does I/O.
 */
#ifndef RCL_SOFT_MD_SUPER1_H
#define RCL_SOFT_MD_SUPER1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define RCL_MD_SB_MAGIC 0xa92b4efcu
/* The fixed part; dev_roles[] follows it. */
#define RCL_MD_SB_BYTES 256
/* Superblocks are read and written as one 4 KiB block (as md does). */
#define RCL_MD_SB_AREA 4096
/* The most dev_roles[] slots: the kernel refuses a superblock over 4 KiB. */
#define RCL_MD_MAX_DEV ((RCL_MD_SB_AREA - RCL_MD_SB_BYTES) / 2)
/* v1.2: the superblock sits 4 KiB into the member. */
#define RCL_MD_SUPER1_2_OFFSET 8

/* dev_roles[] values besides an active slot number (0, 1, ...). */
#define RCL_MD_ROLE_SPARE   0xffff
#define RCL_MD_ROLE_FAULTY  0xfffe
#define RCL_MD_ROLE_JOURNAL 0xfffd
/* Slot numbers are below this; values from here up are states. */
#define RCL_MD_ROLE_MAX 0xff00

/* md's personalities (md_p.h "level"); linear and multipath are negative. */
enum rcl_md_level {
	RCL_MD_LEVEL_RAID0 = 0,
	RCL_MD_LEVEL_RAID1 = 1,
	RCL_MD_LEVEL_RAID5 = 5,
	RCL_MD_LEVEL_RAID6 = 6,
	RCL_MD_LEVEL_RAID10 = 10,
};

/*
 * md layouts. RAID5/6 left-symmetric is mdadm's default; RAID10's layout
 * packs near copies in bits 0-7, far copies in 8-15 and the offset flag in
 * bit 16, so "near=2" is 2 near copies times 1 far copy.
 */
enum rcl_md_layout {
	RCL_MD_LAYOUT_LEFT_SYMMETRIC = 2,
	RCL_MD_LAYOUT_RAID10_NEAR2 = 0x102,
};

/* feature_map bits (md_p.h MD_FEATURE_*). */
enum rcl_md_feature {
	RCL_MD_FEATURE_BITMAP_OFFSET = 1 << 0,   /* bitmap_offset is valid */
	RCL_MD_FEATURE_RECOVERY_OFFSET = 1 << 1, /* recovery_offset is valid */
	RCL_MD_FEATURE_RESHAPE_ACTIVE = 1 << 2,  /* the reshape fields are valid */
	RCL_MD_FEATURE_BAD_BLOCKS = 1 << 3,      /* the bad-block log is not empty */
	RCL_MD_FEATURE_REPLACEMENT = 1 << 4,     /* replacing the device of the same role */
	RCL_MD_FEATURE_RESHAPE_BACKWARDS = 1 << 5,
	RCL_MD_FEATURE_NEW_OFFSET = 1 << 6, /* new_offset is valid */
	RCL_MD_FEATURE_CLUSTERED = 1 << 8,  /* mdadm: "BITMAP_VERSIONED" */
	RCL_MD_FEATURE_JOURNAL = 1 << 9,    /* the array has a write journal */
	RCL_MD_FEATURE_PPL = 1 << 10,       /* partial parity log */
	RCL_MD_FEATURE_MULTIPLE_PPLS = 1 << 11,
	RCL_MD_FEATURE_RAID0_LAYOUT = 1 << 12, /* layout is meaningful for RAID0 */
	RCL_MD_FEATURE_ALL = 0x1f7f,
};

/* devflags bits. */
enum {
	RCL_MD_DEVFLAG_WRITEMOSTLY = 1 << 0,
	RCL_MD_DEVFLAG_FAILFAST = 1 << 1,
};

/**
 * struct rcl_md_super1 - every field of md's struct mdp_superblock_1, in
 * host order. The constant fields (magic, major_version 1, zero padding)
 * are not kept: encode writes them and decode checks them. Sector counts
 * are 512-byte sectors.
 *
 * @ctime, @utime: seconds in the low 40 bits, microseconds in the top 24.
 * @level:	enum rcl_md_level, or md's negative levels.
 * @size:	sectors of each member the array uses (mdadm writes 0 for
 *		RAID0, whose size comes from @data_size).
 * @chunksize:	chunk in sectors (0 for RAID1).
 * @bitmap_offset: bitmap start relative to the superblock, signed. With
 *		RCL_MD_FEATURE_PPL the same 32 bits hold the PPL's offset (low
 *		16) and size (high 16).
 * @new_level .. @new_offset: the reshape fields, with RESHAPE_ACTIVE.
 * @data_offset, @data_size: where this member's data starts, how long.
 * @super_offset: where this superblock is (8 for v1.2).
 * @recovery_offset: rebuilt up to here (RECOVERY_OFFSET), or the journal tail.
 * @dev_number:	this member's index into @dev_roles (not its role).
 * @bblog_offset: bad-block log start relative to the superblock, signed.
 * @events:	the generation counter; the highest wins at assembly.
 * @resync_offset: in sync up to here; ~0 when the array is clean.
 * @sb_csum:	decode: the stored checksum, verified; encode: ignored.
 * @max_dev:	how many @dev_roles entries are on disk (and checksummed).
 * @dev_roles:	per dev_number: a slot, RCL_MD_ROLE_SPARE, _FAULTY or _JOURNAL.
 */
struct rcl_md_super1 {
	uint32_t feature_map;
	uint8_t set_uuid[16];
	char set_name[33];
	uint64_t ctime;
	int32_t level;
	uint32_t layout;
	uint64_t size;
	uint32_t chunksize;
	uint32_t raid_disks;
	int32_t bitmap_offset;
	int32_t new_level;
	uint64_t reshape_position;
	int32_t delta_disks;
	uint32_t new_layout;
	uint32_t new_chunk;
	int32_t new_offset;
	uint64_t data_offset;
	uint64_t data_size;
	uint64_t super_offset;
	uint64_t recovery_offset;
	uint32_t dev_number;
	uint32_t cnt_corrected_read;
	uint8_t device_uuid[16];
	uint8_t devflags;
	uint8_t bblog_shift;
	uint16_t bblog_size;
	int32_t bblog_offset;
	uint64_t utime;
	uint64_t events;
	uint64_t resync_offset;
	uint32_t sb_csum;
	uint32_t max_dev;
	uint16_t dev_roles[RCL_MD_MAX_DEV];
};

/* rcl_md_super1_bytes() - the superblock's size on disk with @max_dev roles. */
size_t rcl_md_super1_bytes(uint32_t max_dev);

/**
 * rcl_md_super1_csum() - md's checksum of the superblock in @buf: the sum
 * of its little-endian 32-bit words (a trailing 16-bit one when @max_dev
 * is odd) over rcl_md_super1_bytes(@max_dev) bytes, the sb_csum field
 * counted as zero, the carry above 32 bits added back once.
 */
uint32_t rcl_md_super1_csum(const uint8_t *buf, uint32_t max_dev);

/**
 * rcl_md_super1_encode() - @sb as md writes it into @buf: the superblock
 * with its checksum, then zeros to @len.
 * Return: RCL_OK, or RCL_INVALID_PARAM when @sb->max_dev exceeds
 * RCL_MD_MAX_DEV or does not fit in @len bytes.
 */
enum rcl_status rcl_md_super1_encode(const struct rcl_md_super1 *sb, uint8_t *buf, size_t len,
                                     struct rcl_error *err);

/**
 * rcl_md_super1_decode() - check and decode the superblock in @buf, read
 * from sector @super_offset of a member of @dev_sectors sectors.
 *
 * Checks, in order: magic, major version, max_dev within RCL_MD_MAX_DEV
 * and @len, checksum, zero padding, known feature bits, that the
 * superblock says it is at @super_offset, that the superblock, data area,
 * bitmap start (or PPL) and bad-block log lie on the device without
 * overlapping the data or each other, and that a striped level has a
 * chunk. The bitmap's own superblock is rcl_md_bitmap_decode()'s job: note
 * that mdadm silently ignores RCL_MD_FEATURE_BITMAP_OFFSET when it finds
 * no valid bitmap superblock with the array's UUID there.
 * Return: RCL_OK; RCL_CORRUPT with a message naming the first failed
 * check; RCL_UNSUPPORTED for feature bits or padding md itself would
 * refuse (a newer md wrote it); RCL_INVALID_PARAM when @len < 256.
 */
enum rcl_status rcl_md_super1_decode(const uint8_t *buf, size_t len, uint64_t super_offset,
                                     uint64_t dev_sectors, struct rcl_md_super1 *sb,
                                     struct rcl_error *err);

/**
 * rcl_md_super1_bitmap_room() - sectors the internal bitmap may use, from
 * its start to the next thing on the member (the bad-block log, the data
 * or the superblock), or 0 when @sb has no bitmap.
 */
uint64_t rcl_md_super1_bitmap_room(const struct rcl_md_super1 *sb);

/**
 * rcl_md_super1_role() - this member's role: dev_roles[dev_number], or
 * RCL_MD_ROLE_SPARE when dev_number is past max_dev (as md reads it).
 */
uint16_t rcl_md_super1_role(const struct rcl_md_super1 *sb);

/**
 * struct rcl_md_shape - what an array is, for rcl_md_super1_geometry().
 * @level, @layout, @raid_disks: as in the superblock.
 * @chunk_sectors: the chunk (0 for RAID1).
 * @bitmap:	whether members carry an internal write-intent bitmap
 *		(ignored for RAID0, which md gives none).
 */
struct rcl_md_shape {
	int32_t level;
	uint32_t layout;
	uint32_t raid_disks;
	uint32_t chunk_sectors;
	bool bitmap;
};

/**
 * struct rcl_md_geometry - where a v1.2 member keeps things, in sectors.
 * @super_offset: RCL_MD_SUPER1_2_OFFSET.
 * @data_offset, @data_size: mdadm's choice, and the rest of the member.
 * @size:	sectors each member contributes: @data_size rounded down to
 *		the chunk (RAID1: to 64 KiB), 0 for RAID0 as mdadm writes.
 * @bitmap_offset: 8 (right after the superblock's 4 KiB), or 0 if none.
 * @bitmap_chunk: bytes of array data per bitmap bit (0 if none).
 * @bitmap_sync_size: sectors the bitmap covers (RAID10: the array size).
 * @bblog_offset, @bblog_size: the bad-block log, after the bitmap.
 */
struct rcl_md_geometry {
	uint64_t super_offset;
	uint64_t data_offset;
	uint64_t data_size;
	uint64_t size;
	int32_t bitmap_offset;
	uint32_t bitmap_chunk;
	uint64_t bitmap_sync_size;
	int32_t bblog_offset;
	uint16_t bblog_size;
};

/**
 * rcl_md_super1_geometry() - the layout mdadm 4.2 gives a v1.2 member of
 * @dev_sectors sectors for @shape ("mdadm --create" defaults: data offset
 * with reshape headroom rounded to 1 MiB, a bitmap of at most 128 KiB with
 * chunks of at least 64 MiB, an 8-sector bad-block log). Give every
 * member the geometry computed for the smallest one.
 * Return: RCL_OK, or RCL_INVALID_PARAM for an unknown level, a striped
 * level without a power-of-two chunk, or a device too small for the
 * metadata plus one chunk of data.
 */
enum rcl_status rcl_md_super1_geometry(uint64_t dev_sectors, const struct rcl_md_shape *shape,
                                       struct rcl_md_geometry *geo, struct rcl_error *err);

/**
 * rcl_md_super1_grow_bitmap() - the internal bitmap "mdadm --grow
 * --bitmap=internal" adds to an array whose member @sb has none, data
 * left where it is: 8 sectors after the superblock, up to the bad-block
 * log (or 8 sectors before the data), the chunk mdadm picks for that room.
 * Fills @geo's bitmap fields; *@need and *@room get the sectors the
 * smallest bitmap takes and those there are.
 * Return: whether the bitmap fits.
 */
bool rcl_md_super1_grow_bitmap(const struct rcl_md_super1 *sb, struct rcl_md_geometry *geo,
                               uint64_t *need, uint64_t *room);

/**
 * rcl_md_super1_init() - a superblock for a new array member: @shape and
 * @geo filled in, @max_dev as mdadm sizes it for @devices members (raid
 * disks plus spares; 128 up to 128 devices), every role spare, events 0,
 * resync_offset 0 (not yet in sync). The caller adds the UUIDs, name,
 * times, dev_number and roles.
 * Return: RCL_OK, or RCL_INVALID_PARAM when @devices exceeds
 * RCL_MD_MAX_DEV or is below @shape->raid_disks.
 */
enum rcl_status rcl_md_super1_init(struct rcl_md_super1 *sb, const struct rcl_md_shape *shape,
                                   const struct rcl_md_geometry *geo, unsigned devices,
                                   struct rcl_error *err);

struct rcl_md_bitmap_super;

/**
 * rcl_md_bitmap_super_init() - the bitmap superblock mdadm writes beside
 * member superblock @sb for bitmap geometry @geo: @sb's set UUID and
 * events (as both events and events_cleared), md's default daemon sleep,
 * the sectors @geo reserves. Every other field zero.
 */
void rcl_md_bitmap_super_init(struct rcl_md_bitmap_super *bms, const struct rcl_md_super1 *sb,
                              const struct rcl_md_geometry *geo);

#endif /* RCL_SOFT_MD_SUPER1_H */
