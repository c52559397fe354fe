/* SPDX-License-Identifier: MIT */
/*
 * layout.h - how a disk group's VDs map onto md arrays and onto the
 * members' space: md shapes, capacities and free extents.
 *
 * RAID0/1/5/6/10 are one md array over all the group's members, in member
 * order: RAID0/1/5/6 as md's own levels (RAID5/6 left-symmetric), RAID10
 * as md raid10 near=2, whose pairs of consecutive devices are StorCLI's
 * spans of two mirrored drives. RAID00/50/60 nest, as mdadm would assemble
 * them: each span is an md RAID0/5/6 array over its members, and an md
 * RAID0 over the span arrays keeps its v1.2 superblock 4 KiB into each
 * span array's data, where the span's chunk 0 lies.
 */
#ifndef RCL_SOFT_LAYOUT_H
#define RCL_SOFT_LAYOUT_H

#include "config.h"
#include "soft/format/md-super1.h"

/* Every VD partition starts and ends on a 1 MiB boundary. */
#define RCL_SOFT_ALIGN_BYTES (1u << 20)

/* rcl_soft_nested() - RAID00/50/60: an md RAID0 over md RAID0/5/6 span arrays. */
bool rcl_soft_nested(enum rcl_raid_level level);

/*
 * rcl_soft_md_shape() - the md array each member of a VD of @dg with
 * @strip_kib belongs to (for RAID00/50/60: its span's).
 */
void rcl_soft_md_shape(const struct rcl_soft_dg *dg, unsigned strip_kib,
                       struct rcl_md_shape *shape);

/**
 * rcl_soft_capacity() - what md presents for a VD of @dg whose partitions
 * are @lbas sectors of @sector_size bytes; the md geometry in *@geo.
 * Return: RCL_OK, or RCL_INVALID_PARAM when the partition is too small.
 */
enum rcl_status rcl_soft_capacity(const struct rcl_soft_dg *dg, unsigned strip_kib, uint64_t lbas,
                                  unsigned sector_size, struct rcl_md_geometry *geo,
                                  uint64_t *bytes, struct rcl_error *err);

/**
 * rcl_soft_vd_geometry() - rcl_soft_capacity() for VD @vd of @dg on drives
 * of @sector_size: the md layout it keeps (struct rcl_soft_vd's @md, an
 * adopted md array's), else the one computed for its partitions.
 * Return: as rcl_soft_capacity().
 */
enum rcl_status rcl_soft_vd_geometry(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                     unsigned sector_size, struct rcl_md_geometry *geo,
                                     uint64_t *bytes, struct rcl_error *err);

/**
 * rcl_soft_top_geometry() - RAID00/50/60: the top RAID0's geometry on each
 * span array, whose members have @member geometry.
 * Return: RCL_OK, or RCL_INVALID_PARAM when the span arrays are too small.
 */
enum rcl_status rcl_soft_top_geometry(const struct rcl_soft_dg *dg, unsigned strip_kib,
                                      const struct rcl_md_geometry *member,
                                      struct rcl_md_geometry *top, struct rcl_error *err);

/**
 * rcl_soft_chunk_member() - where chunk @chunk of an md RAID0, RAID5 or
 * RAID6 (left-symmetric) array over @n members lies: the member and the
 * chunk's index on it.
 */
void rcl_soft_chunk_member(int32_t md_level, unsigned n, uint64_t chunk, unsigned *member,
                           uint64_t *at);

/**
 * struct rcl_soft_extent - free room on every member of a group.
 * @first_lba: where it starts; @lbas: how long (a multiple of 1 MiB).
 */
struct rcl_soft_extent {
	uint64_t first_lba;
	uint64_t lbas;
};

/*
 * rcl_soft_free_extents() - the free extents of @dg in @cfg, in order, into
 * @out (room for RCL_MAX_VDS_PER_DG + 2). Return: how many.
 */
size_t rcl_soft_free_extents(const struct rcl_soft_config *cfg, const struct rcl_soft_dg *dg,
                             struct rcl_soft_extent *out);

/**
 * rcl_soft_largest_free() - the largest free extent of @dg in @cfg
 * (@lbas 0 when it is full).
 */
struct rcl_soft_extent rcl_soft_largest_free(const struct rcl_soft_config *cfg,
                                             const struct rcl_soft_dg *dg, unsigned sector_size);

/**
 * rcl_soft_place() - where a VD of @bytes (0: the largest free extent)
 * goes in @dg: the first free extent that holds it, cut to the smallest
 * 1 MiB multiple that does. *@bytes becomes what md will present.
 * Return: RCL_OK; RCL_INVALID_PARAM naming the free space when nothing
 * holds it.
 */
enum rcl_status rcl_soft_place(const struct rcl_soft_config *cfg, const struct rcl_soft_dg *dg,
                               unsigned strip_kib, unsigned sector_size, uint64_t *bytes,
                               struct rcl_soft_extent *where, struct rcl_error *err);

#endif /* RCL_SOFT_LAYOUT_H */
