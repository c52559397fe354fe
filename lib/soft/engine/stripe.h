/* SPDX-License-Identifier: MIT */
/*
 * stripe.h - where a virtual drive's bytes live on its members, in md's
 * layouts: raid0 (equal members, so one zone), raid1, raid5 and raid6
 * left-symmetric, raid10 near=2, and RAID00/50/60 as an md raid0 over md
 * raid0/5/6 span arrays. Everything is in bytes; no I/O.
 *
 * A VD is one md array (RAID0/1/5/6/10) or, nested, a top raid0 whose
 * chunks go round-robin to its span arrays, starting past the top raid0's
 * own metadata in each span array (layout.h). Each array's members keep
 * md's data from the same byte of their drives on ("start": the VD
 * partition's offset plus the member's data_offset).
 *
 * Striped parity arrays are addressed by stripe and role: a stripe is one
 * chunk on each member at the same offset; its roles are the data strips
 * in data order (0 .. k-1), then P (k) and Q (k+1). Data role d's place in
 * the rotation is md's dd_idx, so Q's coefficient for it is g^d.
 */
#ifndef RCL_SOFT_STRIPE_H
#define RCL_SOFT_STRIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "soft/config/config.h"
#include "soft/format/md-super1.h"

/* The most members one md array has (RAID1 is one array over them all). */
#define RCL_SOFT_ARRAY_MAX RCL_MAX_DRIVES_PER_SPAN

/* The most sectors an md bitmap's superblock and bits take (128 KiB of bits). */
#define RCL_SOFT_BITMAP_MAX_SECTORS 320

/**
 * struct rcl_soft_array - one md array of a VD.
 * @level:	RCL_MD_LEVEL_RAID0, _RAID1, _RAID5, _RAID6 or _RAID10.
 * @n:		its raid disks.
 * @first:	its first member's index in the group's member order; array
 *		member i is group member @first + i.
 * @parity:	parity strips per stripe: 0, 1 (RAID5) or 2 (RAID6).
 * @chunk:	the md chunk in bytes; for RAID1, which has none, the unit
 *		the VD is split into for I/O and locking.
 * @start:	the byte of each member's drive where the array's data starts.
 * @member_bytes: bytes of each member the array uses from @start.
 * @bitmap_at:	the drive byte of each member's write-intent bitmap (its
 *		superblock), or 0 when the array has none.
 * @bitmap_chunk: bytes per bitmap bit: of each member's data (RAID1/5/6),
 *		of the array's (RAID10, whose bitmap covers the array).
 * @bitmap_bits: how many bits the bitmap has.
 * @bitmap_sectors: the space it takes on each member (superblock, bits).
 */
struct rcl_soft_array {
	int32_t level;
	unsigned n;
	unsigned first;
	unsigned parity;
	uint64_t chunk;
	uint64_t start;
	uint64_t member_bytes;
	uint64_t bitmap_at;
	uint32_t bitmap_chunk;
	uint64_t bitmap_bits;
	uint64_t bitmap_sectors;
};

/**
 * struct rcl_soft_geometry - a VD's arrays.
 * @spans:	how many arrays: the span arrays when @nested, else 1.
 * @nested:	RAID00/50/60: a top raid0 with chunk @chunk over the arrays.
 * @top_start:	nested: where the top raid0's data starts in each span
 *		array's data (its data_offset), in bytes.
 * @chunk:	the VD's strip in bytes (the top raid0's chunk when nested).
 * @bytes:	the capacity md presents.
 */
struct rcl_soft_geometry {
	unsigned spans;
	bool nested;
	uint64_t top_start;
	uint64_t chunk;
	uint64_t bytes;
	struct rcl_soft_array arrays[RCL_MAX_SPANS];
};

/**
 * rcl_soft_geometry_get() - the geometry of @vd, in group @dg, on drives
 * of @sector_size bytes, as layout.c sized it and member.c wrote it.
 * Return: RCL_OK; RCL_CORRUPT when it does not give the capacity the
 * configuration records (the VD cannot be served safely); RCL_INVALID_PARAM
 * when the partition is too small for its md metadata.
 */
enum rcl_status rcl_soft_geometry_get(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                      unsigned sector_size, struct rcl_soft_geometry *geo,
                                      struct rcl_error *err);

/**
 * rcl_soft_geometry_locate() - which array holds VD byte @off, and the byte
 * of that array's data it is. *@run: how many bytes from there stay in the
 * same array contiguously (to the end of the top chunk when nested).
 */
unsigned rcl_soft_geometry_locate(const struct rcl_soft_geometry *geo, uint64_t off,
                                  uint64_t *array_off, uint64_t *run);

/* rcl_soft_array_data_strips() - data strips per stripe (k) of a parity array. */
unsigned rcl_soft_array_data_strips(const struct rcl_soft_array *a);

/* rcl_soft_array_stripe_bytes() - the data one stripe of a parity array holds. */
uint64_t rcl_soft_array_stripe_bytes(const struct rcl_soft_array *a);

/**
 * rcl_soft_array_role() - RAID5/6: the array member (0 .. n-1) holding
 * role @role (data 0 .. k-1, P k, Q k+1) of stripe @stripe.
 */
unsigned rcl_soft_array_role(const struct rcl_soft_array *a, uint64_t stripe, unsigned role);

/* rcl_soft_array_strip_at() - the drive byte where stripe @stripe's strips start. */
uint64_t rcl_soft_array_strip_at(const struct rcl_soft_array *a, uint64_t stripe);

/**
 * struct rcl_soft_copies - where one byte of a RAID0/1/10 array is kept.
 * @count:	1 (RAID0), 2 (RAID10 near=2) or n (RAID1).
 * @member:	array members (0 .. n-1), md's copy order.
 * @at:		the drive byte on each.
 */
struct rcl_soft_copies {
	unsigned count;
	unsigned member[RCL_SOFT_ARRAY_MAX];
	uint64_t at[RCL_SOFT_ARRAY_MAX];
};

/**
 * rcl_soft_array_copies() - RAID0/1/10: the copies of the array's data
 * byte @off, and in *@run how many bytes from there are contiguous on
 * every copy (to the end of the chunk).
 */
void rcl_soft_array_copies(const struct rcl_soft_array *a, uint64_t off,
                           struct rcl_soft_copies *copies, uint64_t *run);

#endif /* RCL_SOFT_STRIPE_H */
