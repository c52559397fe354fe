// SPDX-License-Identifier: MIT
/*
 * layout.c - md shapes, capacities and free extents of disk groups (see
 * layout.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "layout.h"

bool rcl_soft_nested(enum rcl_raid_level level)
{
	return level == RCL_RAID00 || level == RCL_RAID50 || level == RCL_RAID60;
}

void rcl_soft_md_shape(const struct rcl_soft_dg *dg, unsigned strip_kib, struct rcl_md_shape *shape)
{
	static const int32_t md_level[] = {[RCL_RAID0] = RCL_MD_LEVEL_RAID0,
	                                   [RCL_RAID1] = RCL_MD_LEVEL_RAID1,
	                                   [RCL_RAID5] = RCL_MD_LEVEL_RAID5,
	                                   [RCL_RAID6] = RCL_MD_LEVEL_RAID6};

	shape->level = dg->level == RCL_RAID10 ? RCL_MD_LEVEL_RAID10
	                                       : md_level[rcl_raid_span_level(dg->level)];
	shape->layout = shape->level == RCL_MD_LEVEL_RAID5 || shape->level == RCL_MD_LEVEL_RAID6
	                    ? RCL_MD_LAYOUT_LEFT_SYMMETRIC
	                : dg->level == RCL_RAID10 ? RCL_MD_LAYOUT_RAID10_NEAR2
	                                          : 0;
	shape->raid_disks =
	    rcl_soft_nested(dg->level) ? dg->drives_per_span : rcl_soft_dg_members(dg);
	shape->chunk_sectors = dg->level == RCL_RAID1 ? 0 : strip_kib * 2;
	shape->bitmap = shape->level != RCL_MD_LEVEL_RAID0;
}

/* Members' worth of data in the array (RAID10: half of them). */
static uint64_t data_members(const struct rcl_soft_dg *dg)
{
	unsigned n = rcl_soft_dg_members(dg);

	switch (dg->level) {
	case RCL_RAID1:
		return 1;
	case RCL_RAID5:
		return n - 1;
	case RCL_RAID6:
		return n - 2;
	case RCL_RAID10:
		return n / 2;
	default:
		return n;
	}
}

/* md's RAID0 uses each member's data area rounded down to the chunk. */
static uint64_t used_sectors(const struct rcl_md_geometry *geo, uint32_t chunk_sectors)
{
	return geo->size ? geo->size : geo->data_size / chunk_sectors * chunk_sectors;
}

enum rcl_status rcl_soft_top_geometry(const struct rcl_soft_dg *dg, unsigned strip_kib,
                                      const struct rcl_md_geometry *member,
                                      struct rcl_md_geometry *top, struct rcl_error *err)
{
	struct rcl_md_shape shape = {RCL_MD_LEVEL_RAID0, 0, dg->spans, strip_kib * 2, false};
	uint64_t data = rcl_raid_span_data_drives(dg->level, dg->drives_per_span);
	/* A RAID0 span array has no size of its own: md's raid0 uses each data area whole. */
	uint64_t per_member = member->size ? member->size : used_sectors(member, strip_kib * 2);

	return rcl_md_super1_geometry(per_member * data, &shape, top, err);
}

void rcl_soft_chunk_member(int32_t md_level, unsigned n, uint64_t chunk, unsigned *member,
                           uint64_t *at)
{
	unsigned parity = md_level == RCL_MD_LEVEL_RAID6 ? 2 : md_level == RCL_MD_LEVEL_RAID5;
	uint64_t stripe = chunk / (n - parity);
	unsigned data = (unsigned)(chunk % (n - parity));
	/* left-symmetric: P walks down from the last member, data follows P (and Q). */
	unsigned pd = n - 1 - (unsigned)(stripe % n);

	*at = stripe;
	*member = parity ? (pd + parity + data) % n : data;
}

/* What md presents for a VD of @dg whose members have @geo. */
static enum rcl_status presents(const struct rcl_soft_dg *dg, unsigned strip_kib,
                                const struct rcl_md_geometry *geo, uint64_t *bytes,
                                struct rcl_error *err)
{
	struct rcl_md_geometry top;
	enum rcl_status st;

	if (!rcl_soft_nested(dg->level)) {
		*bytes = used_sectors(geo, strip_kib * 2) * 512 * data_members(dg);
		return RCL_OK;
	}
	/* RAID50/60: the top RAID0 over the spans decides. */
	st = rcl_soft_top_geometry(dg, strip_kib, geo, &top, err);
	if (!st)
		*bytes = used_sectors(&top, strip_kib * 2) * 512 * dg->spans;
	return st;
}

enum rcl_status rcl_soft_capacity(const struct rcl_soft_dg *dg, unsigned strip_kib, uint64_t lbas,
                                  unsigned sector_size, struct rcl_md_geometry *geo,
                                  uint64_t *bytes, struct rcl_error *err)
{
	struct rcl_md_shape shape;
	enum rcl_status st;

	rcl_soft_md_shape(dg, strip_kib, &shape);
	st = rcl_md_super1_geometry(lbas * sector_size / 512, &shape, geo, err);
	return st ? st : presents(dg, strip_kib, geo, bytes, err);
}

enum rcl_status rcl_soft_vd_geometry(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                     unsigned sector_size, struct rcl_md_geometry *geo,
                                     uint64_t *bytes, struct rcl_error *err)
{
	if (!vd->md_kept)
		return rcl_soft_capacity(dg, vd->strip_kib, vd->last_lba + 1 - vd->first_lba,
		                         sector_size, geo, bytes, err);
	*geo = vd->md;
	return presents(dg, vd->strip_kib, geo, bytes, err);
}

static int cmp_extent(const void *a, const void *b)
{
	const struct rcl_soft_extent *x = a, *y = b;

	return (x->first_lba > y->first_lba) - (x->first_lba < y->first_lba);
}

size_t rcl_soft_free_extents(const struct rcl_soft_config *cfg, const struct rcl_soft_dg *dg,
                             struct rcl_soft_extent *out)
{
	struct rcl_soft_extent used[RCL_MAX_VDS_PER_DG + 1];
	size_t n = 0, count = 0;
	uint64_t at = dg->first_lba;

	for (size_t i = 0; i < cfg->vd_count && n < RCL_MAX_VDS_PER_DG + 1; i++)
		if (cfg->vds[i].dg == dg->id)
			used[n++] = (struct rcl_soft_extent){cfg->vds[i].first_lba,
			                                     cfg->vds[i].last_lba + 1 -
			                                         cfg->vds[i].first_lba};
	qsort(used, n, sizeof(used[0]), cmp_extent);
	for (size_t i = 0; i <= n; i++) {
		uint64_t end = i < n ? used[i].first_lba : dg->last_lba + 1;

		if (end > at)
			out[count++] = (struct rcl_soft_extent){at, end - at};
		if (i < n && used[i].first_lba + used[i].lbas > at)
			at = used[i].first_lba + used[i].lbas;
	}
	return count;
}

struct rcl_soft_extent rcl_soft_largest_free(const struct rcl_soft_config *cfg,
                                             const struct rcl_soft_dg *dg, unsigned sector_size)
{
	struct rcl_soft_extent ext[RCL_MAX_VDS_PER_DG + 2], best = {0, 0};
	uint64_t align = RCL_SOFT_ALIGN_BYTES / sector_size;
	size_t n = rcl_soft_free_extents(cfg, dg, ext);

	for (size_t i = 0; i < n; i++) {
		ext[i].lbas = ext[i].lbas / align * align;
		if (ext[i].lbas > best.lbas)
			best = ext[i];
	}
	return best;
}

/* The smallest 1 MiB multiple of at most @max lbas holding @bytes, or 0. */
static uint64_t fit(const struct rcl_soft_dg *dg, unsigned strip_kib, unsigned sector_size,
                    uint64_t bytes, uint64_t max)
{
	uint64_t align = RCL_SOFT_ALIGN_BYTES / sector_size, lo = 1, hi = max / align, cap;
	struct rcl_md_geometry geo;
	struct rcl_error ignored = {0};

	if (!hi ||
	    rcl_soft_capacity(dg, strip_kib, hi * align, sector_size, &geo, &cap, &ignored) ||
	    cap < bytes)
		return 0;
	/* Capacity grows with the partition: bisect for the smallest that holds @bytes. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (!rcl_soft_capacity(dg, strip_kib, mid * align, sector_size, &geo, &cap,
		                       &ignored) &&
		    cap >= bytes)
			hi = mid;
		else
			lo = mid + 1;
	}
	return hi * align;
}

enum rcl_status rcl_soft_place(const struct rcl_soft_config *cfg, const struct rcl_soft_dg *dg,
                               unsigned strip_kib, unsigned sector_size, uint64_t *bytes,
                               struct rcl_soft_extent *where, struct rcl_error *err)
{
	struct rcl_soft_extent ext[RCL_MAX_VDS_PER_DG + 2];
	struct rcl_soft_extent best = rcl_soft_largest_free(cfg, dg, sector_size);
	uint64_t align = RCL_SOFT_ALIGN_BYTES / sector_size, free_bytes = 0;
	struct rcl_md_geometry geo;
	struct rcl_error ignored = {0};
	size_t n = rcl_soft_free_extents(cfg, dg, ext);

	if (best.lbas)
		rcl_soft_capacity(dg, strip_kib, best.lbas, sector_size, &geo, &free_bytes,
		                  &ignored);
	if (!*bytes && free_bytes) {
		*where = best;
		*bytes = free_bytes;
		return RCL_OK;
	}
	for (size_t i = 0; *bytes && i < n; i++) {
		uint64_t lbas =
		    fit(dg, strip_kib, sector_size, *bytes, ext[i].lbas / align * align);

		if (lbas) {
			*where = (struct rcl_soft_extent){ext[i].first_lba, lbas};
			return rcl_soft_capacity(dg, strip_kib, lbas, sector_size, &geo, bytes,
			                         err);
		}
	}
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "the disk group has %llu bytes (%llu MiB) of free space for a new "
	                "virtual drive, not enough for %llu bytes",
	                (unsigned long long)free_bytes, (unsigned long long)(free_bytes >> 20),
	                (unsigned long long)*bytes);
}
