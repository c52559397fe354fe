// SPDX-License-Identifier: MIT
/*
 * foreign-nested.c - an md RAID0 over md RAID0/5/6 arrays, as mdadm would
 * assemble raidcli's RAID00/50/60: its span arrays found among the foreign
 * md arrays are adopted together as one RAID00/50/60.
 */
#include <stdio.h>
#include <string.h>

#include "foreign-private.h"
#include "layout.h"
#include "soft/format/io.h"

/* Where an md RAID0 over RAID5/6 arrays keeps its superblock: 4 KiB into each's data. */
#define TOP_BYTES (RCL_MD_SUPER1_2_OFFSET * 512 + RCL_MD_SB_AREA)

/*
 * The first TOP_BYTES of RAID5/6 array @f's data into @buf: on the member
 * holding its chunk 0 or, that one missing, the XOR of the others but Q
 * (stripe 0 has P on the last member, RAID6's Q on the first). Return:
 * whether they could be read.
 */
static bool md_read_chunk0(const struct rcl_soft_state *state, const struct found *f, uint8_t *buf)
{
	const struct rcl_soft_dg *dg = &f->adopt->dgs[0];
	const struct rcl_soft_vd *vd = &f->adopt->vds[0];
	unsigned n = dg->drives_per_span, q = dg->level == RCL_RAID6 ? 0 : n, chunk0;
	bool direct;
	struct rcl_md_shape shape;
	struct rcl_error ignored = {0};
	uint8_t tmp[TOP_BYTES];
	uint64_t at;

	rcl_soft_md_shape(dg, vd->strip_kib, &shape);
	rcl_soft_chunk_member(shape.level, n, 0, &chunk0, &at);
	direct = f->roles[chunk0] >= 0;
	if (!direct && dg->level == RCL_RAID0)
		return false; /* no parity to rebuild it from */
	memset(buf, 0, TOP_BYTES);
	for (unsigned m = 0; m < n; m++) {
		const struct rcl_soft_disk *disk;

		if (direct ? m != chunk0 : m == chunk0 || m == q)
			continue;
		if (f->roles[m] < 0)
			return false;
		disk = &state->disks[f->roles[m]];
		if (rcl_soft_read(disk->fd, tmp, sizeof(tmp),
		                  vd->first_lba * disk->sector_size + vd->md.data_offset * 512,
		                  &ignored))
			return false;
		for (size_t b = 0; b < sizeof(tmp); b++)
			buf[b] ^= tmp[b];
	}
	return true;
}

/*
 * The superblock of an md RAID0 striped over adoptable RAID5/6 array @f
 * into @f->top, when one lies where raidcli's RAID50/60 keep theirs
 * (layout.h): 4 KiB into the array's data, in its chunk 0.
 */
static enum rcl_status md_read_top(const struct rcl_soft_state *state, struct found *f,
                                   struct rcl_error *err)
{
	const struct rcl_soft_dg *dg = f->adopt ? &f->adopt->dgs[0] : NULL;
	struct rcl_error why = {0};
	uint8_t buf[TOP_BYTES];

	if (!dg || (dg->level != RCL_RAID0 && dg->level != RCL_RAID5 && dg->level != RCL_RAID6) ||
	    f->adopt->vds[0].strip_kib * 1024 < TOP_BYTES || !md_read_chunk0(state, f, buf))
		return RCL_OK;
	if (!(f->top = rcl_malloc(sizeof(*f->top))))
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (rcl_md_super1_decode(buf + RCL_MD_SUPER1_2_OFFSET * 512, RCL_MD_SB_AREA,
	                         RCL_MD_SUPER1_2_OFFSET, f->adopt->vds[0].bytes / 512, f->top,
	                         &why) ||
	    f->top->level != RCL_MD_LEVEL_RAID0 || f->top->raid_disks < 2 ||
	    f->top->raid_disks > RCL_MAX_SPANS) {
		rcl_free(f->top);
		f->top = NULL;
	}
	return RCL_OK;
}

/* Whether two span arrays' members have the same md layout. */
static bool same_md_layout(const struct rcl_md_geometry *a, const struct rcl_md_geometry *b)
{
	return a->data_offset == b->data_offset && a->data_size == b->data_size &&
	       a->size == b->size && a->bitmap_offset == b->bitmap_offset &&
	       a->bitmap_chunk == b->bitmap_chunk && a->bblog_offset == b->bblog_offset;
}

/* The span arrays of the md RAID0 @top in @list, by its roles. Return: whether all are there. */
static bool md_spans(const struct found_list *list, const struct rcl_md_super1 *top,
                     struct found **spans)
{
	unsigned have = 0;

	memset(spans, 0, top->raid_disks * sizeof(*spans));
	for (size_t k = 0; k < list->count; k++) {
		struct found *f = &list->items[k];
		uint16_t role = f->top ? rcl_md_super1_role(f->top) : UINT16_MAX;

		if (role < top->raid_disks && !spans[role] &&
		    !memcmp(f->top->set_uuid, top->set_uuid, 16)) {
			spans[role] = f;
			have++;
		}
	}
	return have == top->raid_disks;
}

/*
 * Span arrays @spans of md RAID0 @top as one RAID50/60 group and VD in
 * @cfg, which holds span 0's: the RAID0 keeps the UUID and name, each span
 * its own UUID. Return: whether raidcli lays it out as md does (spans
 * alike, the RAID0 where raidcli's RAID50/60 puts it), else @f->problem.
 */
static bool md_join(const struct rcl_soft_state *state, struct found *f,
                    const struct rcl_md_super1 *top, struct found *const *spans,
                    struct rcl_soft_config *cfg)
{
	struct rcl_soft_dg *dg = &cfg->dgs[0];
	struct rcl_soft_vd *vd = &cfg->vds[0];
	unsigned dps = dg->drives_per_span;
	struct rcl_md_geometry geo;
	struct rcl_error ignored = {0};

	for (unsigned s = 1; s < top->raid_disks; s++) {
		const struct rcl_soft_config *o = spans[s]->adopt;

		if (o->dgs[0].level != dg->level || o->dgs[0].drives_per_span != dps ||
		    (s + 1) * dps > RCL_SOFT_MAX_MEMBERS || o->dgs[0].first_lba != dg->first_lba ||
		    o->dgs[0].last_lba != dg->last_lba || o->vds[0].part != vd->part ||
		    o->vds[0].strip_kib != vd->strip_kib ||
		    !same_md_layout(&o->vds[0].md, &vd->md)) {
			rcl_soft_foreign_refuse(
			    f, "the md arrays its md RAID0 stripes over differ in level, members, "
			       "partitions or md layout; raidcli's RAID00/50/60 needs them alike");
			return false;
		}
		memcpy(&dg->members[s * dps], o->dgs[0].members, dps * sizeof(dg->members[0]));
		memcpy(vd->span_uuids[s], o->vds[0].uuid, 16);
		vd->consistent &= o->vds[0].consistent;
	}
	memcpy(vd->span_uuids[0], vd->uuid, 16);
	rcl_soft_foreign_md_identity(vd, top);
	dg->level = dg->level == RCL_RAID0   ? RCL_RAID00
	            : dg->level == RCL_RAID5 ? RCL_RAID50
	                                     : RCL_RAID60;
	dg->spans = top->raid_disks;
	if (top->chunksize != vd->strip_kib * 2)
		return rcl_soft_foreign_refuse_layout(f, "RAID0 chunk",
		                                      "md has %u KiB, its span arrays %u KiB",
		                                      top->chunksize / 2, vd->strip_kib);
	if (rcl_soft_top_geometry(dg, vd->strip_kib, &vd->md, &geo, &ignored) ||
	    geo.data_offset != top->data_offset || geo.data_size != top->data_size)
		return rcl_soft_foreign_refuse_layout(
		    f, "RAID0 data offset",
		    "md has data from sector %llu for %llu sectors of each span "
		    "array, raidcli's RAID50/60 from %llu for %llu",
		    (unsigned long long)top->data_offset, (unsigned long long)top->data_size,
		    (unsigned long long)geo.data_offset, (unsigned long long)geo.data_size);
	if (rcl_soft_vd_geometry(dg, vd, state->disks[f->disks[0]].sector_size, &geo, &vd->bytes,
	                         &ignored))
		return rcl_soft_foreign_refuse_layout(f, "size",
		                                      "md's gives no capacity raidcli can serve");
	return true;
}

/* Span arrays @spans, joined into @spans[0], hand it their drives and roles. */
static void md_take_spans(struct found *const *spans, unsigned n, unsigned dps)
{
	struct found *f = spans[0];

	for (unsigned s = n - 1; s > 0; s--) {
		for (unsigned r = 0; r < dps; r++)
			f->roles[s * dps + r] = spans[s]->roles[r];
		for (size_t j = 0; j < spans[s]->disk_count; j++) {
			f->gpts[f->disk_count] = spans[s]->gpts[j];
			spans[s]->gpts[j] = NULL;
			f->disks[f->disk_count++] = spans[s]->disks[j];
		}
		spans[s]->joined = true;
	}
}

/* Refuse span array @o for @why: it stays a RAID5/6 that cannot be imported. */
static void md_unstack(struct found *o, const char *why)
{
	if (o->problem != why)
		snprintf(o->problem, sizeof(o->problem), "%s", why);
	rcl_free(o->adopt);
	rcl_free(o->top);
	o->adopt = NULL;
	o->top = NULL;
}

/*
 * @f, span array of an md RAID0, with the RAID0's other spans becomes
 * that RAID0 as one RAID50/60 (md_join()); when they are not all there or
 * not alike, each is refused: alone it would serve a piece of the RAID0.
 */
static enum rcl_status md_stack(const struct rcl_soft_state *state, struct found_list *list,
                                struct found *f, struct rcl_error *err)
{
	struct found *spans[RCL_MAX_SPANS];
	struct rcl_soft_config *cfg = NULL;
	unsigned n = f->top->raid_disks;
	bool whole = md_spans(list, f->top, spans);
	char owner[64];

	if (whole && spans[0] != f)
		return RCL_OK;
	if (whole && !(cfg = rcl_malloc(sizeof(*cfg))))
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	rcl_soft_foreign_md_uuid_text(f->top->set_uuid, owner, sizeof(owner));
	if (!whole) {
		rcl_soft_foreign_refuse(
		    f,
		    "it is one of the %u md arrays that md RAID0 %s stripes over, and the "
		    "others are missing or cannot be adopted",
		    n, owner);
	} else {
		*cfg = *f->adopt;
		if (md_join(state, f, f->top, spans, cfg)) {
			rcl_free(f->adopt);
			f->adopt = cfg;
			md_take_spans(spans, n, cfg->dgs[0].drives_per_span);
			snprintf(f->owner, sizeof(f->owner), "%s", owner);
			return RCL_OK;
		}
		rcl_free(cfg);
	}
	for (unsigned s = 0; s < n; s++)
		if (spans[s] && spans[s] != f)
			md_unstack(spans[s], f->problem);
	md_unstack(f, f->problem);
	return RCL_OK;
}

enum rcl_status rcl_soft_foreign_md_stacks(const struct rcl_soft_state *state,
                                           struct found_list *list, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;
	size_t kept = 0;

	for (size_t k = 0; k < list->count && !st; k++)
		st = md_read_top(state, &list->items[k], err);
	for (size_t k = 0; k < list->count && !st; k++)
		if (list->items[k].top && list->items[k].adopt && !list->items[k].joined &&
		    list->items[k].adopt->dgs[0].spans == 1)
			st = md_stack(state, list, &list->items[k], err);
	for (size_t k = 0; k < list->count; k++) {
		if (list->items[k].joined)
			rcl_soft_foreign_found_release(&list->items[k]);
		else
			list->items[kept++] = list->items[k];
	}
	list->count = kept;
	return st;
}
