/* SPDX-License-Identifier: MIT */
/*
 * md-bitmap.h - md's write-intent bitmap: its superblock and its size.
 *
 * An internal bitmap sits bitmap_offset sectors from the md superblock: a
 * 256-byte superblock, then one bit per bitmap chunk of the array's sync
 * range (bit set: the chunk may differ between members and needs resync),
 * the whole padded to 4 KiB. This module does no I/O.
 */
#ifndef RCL_SOFT_MD_BITMAP_H
#define RCL_SOFT_MD_BITMAP_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define RCL_MD_BITMAP_MAGIC 0x6d746962u /* "bitm" */
/* Version 4: bits little-endian. 3 is the old host-endian one, 5 clustered. */
#define RCL_MD_BITMAP_VERSION            4
#define RCL_MD_BITMAP_VERSION_HOSTENDIAN 3
#define RCL_MD_BITMAP_VERSION_CLUSTERED  5
#define RCL_MD_BITMAP_SB_BYTES           256
/* mdadm's defaults: flush every 5 s, no write-behind. */
#define RCL_MD_BITMAP_DAEMON_SLEEP 5
/* The most outstanding write-behind writes md can count (14-bit counters). */
#define RCL_MD_BITMAP_MAX_WRITE_BEHIND 16383
#define RCL_MD_BITMAP_CLUSTER_NAME     64

/* state bits. */
enum {
	RCL_MD_BITMAP_STATE_ACTIVE = 1 << 0,
	RCL_MD_BITMAP_STATE_STALE = 1 << 1, /* out of date: resync everything */
};

/**
 * struct rcl_md_bitmap_super - md's bitmap_super_t in host order; the magic
 * and padding are written by encode and checked by decode.
 * @uuid:	the array's set_uuid (md refuses a bitmap that differs).
 * @events:	updated before the md superblock's; md accepts the bitmap when
 *		it equals the array's events or is one ahead.
 * @events_cleared: events when bits were last cleared.
 * @sync_size:	sectors the bitmap covers: a member's size, for RAID10 the
 *		array's.
 * @chunksize:	bytes of that range per bit; a power of two, at least 512.
 * @daemon_sleep: seconds between flushes of cleared bits.
 * @write_behind: outstanding write-behind writes allowed (0: none).
 * @sectors_reserved: sectors set aside for the bitmap (superblock + bits).
 * @nodes:	cluster nodes, each with its own bitmap copy (0: not clustered).
 * @cluster_name: NUL-terminated.
 */
struct rcl_md_bitmap_super {
	uint32_t version;
	uint8_t uuid[16];
	uint64_t events;
	uint64_t events_cleared;
	uint64_t sync_size;
	uint32_t state;
	uint32_t chunksize;
	uint32_t daemon_sleep;
	uint32_t write_behind;
	uint32_t sectors_reserved;
	uint32_t nodes;
	char cluster_name[RCL_MD_BITMAP_CLUSTER_NAME + 1];
};

/**
 * rcl_md_bitmap_bits() - bits for @sync_size sectors in @chunksize-byte
 * chunks (the last chunk may be partial). @chunksize: a power of two >= 512.
 */
uint64_t rcl_md_bitmap_bits(uint64_t sync_size, uint32_t chunksize);

/**
 * rcl_md_bitmap_space() - bytes one bitmap copy takes on disk: superblock
 * plus bits, rounded up to 4 KiB as mdadm writes it.
 */
uint64_t rcl_md_bitmap_space(uint64_t sync_size, uint32_t chunksize);

/**
 * rcl_md_bitmap_default_chunk() - mdadm's bitmap chunk for @sync_size
 * sectors when none is asked for: the smallest power of two from 4 KiB
 * whose bits fit in @room_sectors (at most 128 KiB of it), and at least
 * 64 MiB.
 * Return: the chunk in bytes, or 0 when @room_sectors holds no bitmap.
 */
uint32_t rcl_md_bitmap_default_chunk(uint64_t sync_size, uint64_t room_sectors);

/**
 * rcl_md_bitmap_encode() - @bms into @buf (at least 256 bytes): the
 * superblock, then zeros to @len. The bits that follow are the caller's.
 * Return: RCL_OK, or RCL_INVALID_PARAM for a buffer under 256 bytes or a
 * cluster name over 63 characters.
 */
enum rcl_status rcl_md_bitmap_encode(const struct rcl_md_bitmap_super *bms, uint8_t *buf,
                                     size_t len, struct rcl_error *err);

/**
 * rcl_md_bitmap_decode() - check and decode the bitmap superblock in @buf,
 * found where a member's md superblock says, with @room_sectors of space
 * there (rcl_md_super1_bitmap_room()).
 *
 * Checks what md checks when it loads a bitmap: magic, version (3 to 5),
 * chunk size (a power of two, at least 512), daemon_sleep (at least 1),
 * write_behind, and that every node's copy of the bits fits in the room.
 * Return: RCL_OK; RCL_CORRUPT naming the first failed check;
 * RCL_INVALID_PARAM when @len < 256.
 */
enum rcl_status rcl_md_bitmap_decode(const uint8_t *buf, size_t len, uint64_t room_sectors,
                                     struct rcl_md_bitmap_super *bms, struct rcl_error *err);

#endif /* RCL_SOFT_MD_BITMAP_H */
