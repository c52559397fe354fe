// SPDX-License-Identifier: MIT
/*
 * stripe.c - md's layouts in bytes: VD offsets to arrays, stripes, roles
 * and copies (see stripe.h).
 */
#include "stripe.h"
#include "soft/config/layout.h"
#include "soft/format/md-bitmap.h"

/* RAID1 has no chunk: it is split into units of this for I/O and locking. */
#define RAID1_UNIT (64u << 10)

/* What md's raid0 uses of each member: data_size rounded down to the chunk. */
static uint64_t raid0_bytes(const struct rcl_md_geometry *g, uint64_t chunk)
{
	return g->data_size * 512 / chunk * chunk;
}

static void fill_array(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                       unsigned sector_size, const struct rcl_md_geometry *member, unsigned index,
                       struct rcl_soft_array *a)
{
	struct rcl_md_shape shape;

	rcl_soft_md_shape(dg, vd->strip_kib, &shape);
	a->level = shape.level;
	a->n = shape.raid_disks;
	a->first = index * shape.raid_disks;
	a->parity = shape.level == RCL_MD_LEVEL_RAID6 ? 2 : shape.level == RCL_MD_LEVEL_RAID5;
	a->chunk = shape.chunk_sectors ? shape.chunk_sectors * 512ull
	           : vd->strip_kib     ? vd->strip_kib * 1024ull
	                               : RAID1_UNIT;
	a->start = vd->first_lba * sector_size + member->data_offset * 512;
	a->member_bytes = member->size ? member->size * 512 : raid0_bytes(member, a->chunk);
	if (member->bitmap_offset) {
		a->bitmap_at = vd->first_lba * sector_size +
		               (member->super_offset + (uint64_t)member->bitmap_offset) * 512;
		a->bitmap_chunk = member->bitmap_chunk;
		a->bitmap_bits = rcl_md_bitmap_bits(member->bitmap_sync_size, member->bitmap_chunk);
		a->bitmap_sectors =
		    rcl_md_bitmap_space(member->bitmap_sync_size, member->bitmap_chunk) / 512;
	}
}

enum rcl_status rcl_soft_geometry_get(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                      unsigned sector_size, struct rcl_soft_geometry *geo,
                                      struct rcl_error *err)
{
	struct rcl_md_geometry member, top;
	enum rcl_status st;

	*geo = (struct rcl_soft_geometry){.spans = 1, .nested = rcl_soft_nested(dg->level)};
	st = rcl_soft_vd_geometry(dg, vd, sector_size, &member, &geo->bytes, err);
	if (st)
		return st;
	if (geo->nested) {
		st = rcl_soft_top_geometry(dg, vd->strip_kib, &member, &top, err);
		if (st)
			return st;
		geo->spans = dg->spans;
		geo->top_start = top.data_offset * 512;
	}
	for (unsigned s = 0; s < geo->spans; s++)
		fill_array(dg, vd, sector_size, &member, s, &geo->arrays[s]);
	geo->chunk = geo->arrays[0].chunk;
	if (geo->bytes != vd->bytes)
		return rcl_fail(err, RCL_CORRUPT,
		                "virtual drive /v%u records %llu bytes but its md geometry gives "
		                "%llu",
		                vd->id, (unsigned long long)vd->bytes,
		                (unsigned long long)geo->bytes);
	return RCL_OK;
}

unsigned rcl_soft_geometry_locate(const struct rcl_soft_geometry *geo, uint64_t off,
                                  uint64_t *array_off, uint64_t *run)
{
	uint64_t chunk = off / geo->chunk, within = off % geo->chunk;

	if (!geo->nested) {
		*array_off = off;
		*run = geo->bytes - off;
		return 0;
	}
	/* md raid0 with equal members: chunk c is on device c % n, row c / n. */
	*array_off = geo->top_start + chunk / geo->spans * geo->chunk + within;
	*run = geo->chunk - within;
	return (unsigned)(chunk % geo->spans);
}

unsigned rcl_soft_array_data_strips(const struct rcl_soft_array *a)
{
	return a->n - a->parity;
}

uint64_t rcl_soft_array_stripe_bytes(const struct rcl_soft_array *a)
{
	return rcl_soft_array_data_strips(a) * a->chunk;
}

unsigned rcl_soft_array_role(const struct rcl_soft_array *a, uint64_t stripe, unsigned role)
{
	unsigned k = rcl_soft_array_data_strips(a);
	/* left-symmetric: P walks down from the last member; Q follows P, data Q. */
	unsigned p = a->n - 1 - (unsigned)(stripe % a->n);

	if (role >= k)
		return (p + role - k) % a->n;
	return (p + a->parity + role) % a->n;
}

uint64_t rcl_soft_array_strip_at(const struct rcl_soft_array *a, uint64_t stripe)
{
	return a->start + stripe * a->chunk;
}

void rcl_soft_array_copies(const struct rcl_soft_array *a, uint64_t off,
                           struct rcl_soft_copies *copies, uint64_t *run)
{
	uint64_t chunk = off / a->chunk, within = off % a->chunk, dev;

	*run = a->chunk - within;
	switch (a->level) {
	case RCL_MD_LEVEL_RAID1:
		copies->count = a->n;
		for (unsigned i = 0; i < a->n; i++) {
			copies->member[i] = i;
			copies->at[i] = a->start + off;
		}
		return;
	case RCL_MD_LEVEL_RAID10:
		/* near=2: chunk c's copies are devices 2c % n and the next, wrapping a row. */
		dev = chunk * 2;
		copies->count = 2;
		for (unsigned i = 0; i < 2; i++, dev++) {
			copies->member[i] = (unsigned)(dev % a->n);
			copies->at[i] = a->start + dev / a->n * a->chunk + within;
		}
		return;
	default:
		copies->count = 1;
		copies->member[0] = (unsigned)(chunk % a->n);
		copies->at[0] = a->start + chunk / a->n * a->chunk + within;
	}
}
