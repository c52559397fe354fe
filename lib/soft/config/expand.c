// SPDX-License-Identifier: MIT
/*
 * expand.c - a soft controller's VD grown into the free space right after
 * it (StorCLI's "expand size= [expandarray]"), and how far each can grow
 * ("show expansion").
 *
 * A VD is one partition per member holding an md v1.2 member. It grows as
 * "mdadm --grow --size" grows an array whose partitions were enlarged: the
 * data stays where it is, so the VD keeps its md layout (data_offset
 * included) in its record from then on (struct rcl_soft_vd's @md, as an
 * adopted array does); the partitions end later, and md's data_size and
 * size, and the bitmap's range, cover the new space. In change.h's order,
 * so that every md superblock always fits the partition the record names:
 *  (a) each member's and dedicated spare's GPT entry grows: a larger
 *      partition around the old md member is valid to md and to raidcli;
 *  (b) the record takes the new extent, capacity and md layout;
 *  (c) each md superblock takes the new data_size and size, one event on.
 * A crash in (a) leaves partitions longer than the record says, which the
 * next change of the group writes back; in (c), superblocks at the old
 * size, which md assembles at the old size and raidcli at the new one.
 *
 * The new space of a redundant VD holds whatever was there: its parity or
 * copies do not agree. The VD is recorded not consistent, and each md
 * superblock says resync from 0 with every bitmap bit set: the controller
 * process runs a background initialization over the whole VD (it cannot
 * start at the old end: its progress is one range from 0), and md would
 * resync it whole.
 */
#include <stdio.h>
#include <string.h>

#include "change.h"
#include "expand.h"
#include "layout.h"
#include "member.h"
#include "soft/tasks/migrate.h"

#define BITMAP_FULL "its md bitmap would outgrow the room it has before the data"

/* What stops a VD growing further, found by room(). */
struct room {
	uint64_t end;       /* the last LBA it may reach */
	uint64_t end_array; /* the same with expandarray */
	char limit[32];     /* what ends it with expandarray */
};

/* Why a VD of @dg cannot grow at all, into @why ("" when it can). */
static void why_not(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg, char *why,
                    size_t size)
{
	*why = 0;
	if (rcl_soft_nested(dg->level))
		snprintf(why, size,
		         "a %s keeps its top RAID0's md superblock inside its span arrays, "
		         "which raidcli does not grow",
		         rcl_raid_level_name(dg->level));
	else if (dg->migrate.active)
		snprintf(why, size, "its drive group is being migrated");
	for (unsigned m = 0; !*why && m < rcl_soft_dg_members(dg); m++)
		if (dg->members[m].state != RCL_SOFT_MEMBER_ONLINE ||
		    rcl_soft_change_member(c, dg, m) < 0)
			snprintf(why, size, "member %u:%u of its drive group is not online",
			         RCL_SOFT_ENCLOSURE, dg->members[m].slot);
}

/* The end of the room on disk @i for @dg's partitions; @r->limit names the first to end. */
static enum rcl_status disk_end(const struct rcl_soft_change *c, int i, struct room *r,
                                struct rcl_error *err)
{
	uint64_t end;
	enum rcl_status st = i < 0 ? RCL_OK : rcl_soft_room_end(&c->state->disks[i], &end, err);

	if (!st && i >= 0 && end < r->end_array) {
		r->end_array = end;
		snprintf(r->limit, sizeof(r->limit), "drive %u:%u", RCL_SOFT_ENCLOSURE,
		         c->state->disks[i].slot);
	}
	return st;
}

/* Where @vd may end: before the next VD of @dg, else at its group's (or drives') end. */
static enum rcl_status room(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                            const struct rcl_soft_vd *vd, struct room *r, struct rcl_error *err)
{
	const struct rcl_soft_vd *next = NULL;
	enum rcl_status st = RCL_OK;

	for (size_t i = 0; i < c->cfg->vd_count; i++) {
		const struct rcl_soft_vd *o = &c->cfg->vds[i];

		if (o->dg == dg->id && o->first_lba > vd->last_lba &&
		    (!next || o->first_lba < next->first_lba))
			next = o;
	}
	r->end = next ? next->first_lba - 1 : dg->last_lba;
	r->end_array = UINT64_MAX;
	if (next) {
		r->end_array = r->end;
		snprintf(r->limit, sizeof(r->limit), "/v%u", next->id);
		return RCL_OK;
	}
	/* A dedicated spare must hold the grown VD too, to stand in for a member. */
	for (unsigned m = 0; !st && m < rcl_soft_dg_members(dg); m++)
		st = disk_end(c, rcl_soft_change_member(c, dg, m), r, err);
	for (unsigned k = 0; !st && k < dg->spare_count; k++)
		st = disk_end(c, rcl_soft_change_disk(c, &dg->spares[k].drive.uuid), r, err);
	if (r->end_array < r->end)
		r->end_array = r->end;
	return st;
}

/*
 * @vd's md layout for partitions of @lbas sectors, kept where it is, into
 * @grown (last_lba, md, bytes). Return: RCL_NOT_ALLOWED when the bitmap
 * the larger array needs has no room before the data.
 */
static enum rcl_status grow_to(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                               unsigned ss, uint64_t lbas, struct rcl_soft_vd *grown,
                               struct rcl_error *err)
{
	struct rcl_md_super1 *sb = rcl_calloc(1, sizeof(*sb));
	struct rcl_md_geometry geo;
	struct rcl_md_shape shape;
	uint64_t bytes, round, need, space;
	enum rcl_status st = sb ? rcl_soft_vd_geometry(dg, vd, ss, &geo, &bytes, err)
	                        : rcl_fail(err, RCL_NOMEM, "out of memory");

	rcl_soft_md_shape(dg, vd->strip_kib, &shape);
	/* As md-geometry.c rounds: to the chunk, RAID1 to 64 KiB. */
	round = shape.chunk_sectors ? shape.chunk_sectors : 128;
	geo.data_size = lbas * ss / 512 - geo.data_offset;
	if (geo.size)
		geo.size = geo.data_size / round * round;
	if (!st && geo.bitmap_offset) {
		*sb = (struct rcl_md_super1){.level = shape.level,
		                             .layout = shape.layout,
		                             .raid_disks = shape.raid_disks,
		                             .size = geo.size,
		                             .data_offset = geo.data_offset,
		                             .super_offset = geo.super_offset,
		                             .bblog_offset = geo.bblog_offset,
		                             .bblog_size = geo.bblog_size};
		if (geo.bitmap_offset != 8 || !rcl_md_super1_grow_bitmap(sb, &geo, &need, &space))
			st = rcl_fail(err, RCL_NOT_ALLOWED, "/v%u: %s", vd->id, BITMAP_FULL);
	}
	rcl_free(sb);
	*grown = *vd;
	grown->last_lba = vd->first_lba + lbas - 1;
	grown->md_kept = true;
	grown->md = geo;
	if (!st)
		st = rcl_soft_vd_geometry(dg, grown, ss, &geo, &grown->bytes, err);
	return st;
}

/* The partition length, in whole MiB, that @vd of @dg reaches ending at most at @end. */
static uint64_t lbas_to(const struct rcl_soft_vd *vd, uint64_t end, unsigned ss)
{
	uint64_t align = RCL_SOFT_ALIGN_BYTES / ss;

	return (end + 1 - vd->first_lba) / align * align;
}

/* The sector size of @dg's drives (all alike: new_group_room() checks). */
static unsigned group_sector_size(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg)
{
	const struct rcl_soft_disk *disk = rcl_soft_change_any_member(c, dg);

	return disk ? disk->sector_size : 512;
}

/* How far @vd can grow, as rcl_soft_vd_expansion() says, within change @c. */
static enum rcl_status expansion(const struct rcl_soft_change *c, const struct rcl_soft_vd *vd,
                                 struct rcl_vd_expansion *out, struct room *r,
                                 struct rcl_error *err)
{
	const struct rcl_soft_dg *dg = rcl_soft_config_dg(c->cfg, vd->dg);
	unsigned ss = group_sector_size(c, dg);
	struct rcl_soft_vd grown;
	enum rcl_status st;

	out->bytes = vd->bytes;
	why_not(c, dg, out->why, sizeof(out->why));
	if (out->why[0])
		return RCL_OK;
	st = room(c, dg, vd, r, err);
	snprintf(out->limit, sizeof(out->limit), "%s", r->limit);
	if (!st && r->end > vd->last_lba)
		st = grow_to(dg, vd, ss, lbas_to(vd, r->end, ss), &grown, err);
	if (!st && r->end > vd->last_lba)
		out->grow = grown.bytes - vd->bytes;
	if (!st && r->end_array > vd->last_lba)
		st = grow_to(dg, vd, ss, lbas_to(vd, r->end_array, ss), &grown, err);
	if (!st && r->end_array > vd->last_lba)
		out->grow_array = grown.bytes - vd->bytes;
	/* A bitmap with no room to grow: the VD cannot grow, which is no failure to show. */
	if (st == RCL_NOT_ALLOWED) {
		snprintf(out->why, sizeof(out->why), "%s", BITMAP_FULL);
		out->grow = out->grow_array = 0;
		st = RCL_OK;
	}
	return st;
}

enum rcl_status rcl_soft_vd_expansion(struct rcl_ctrl *ctrl, unsigned id,
                                      struct rcl_vd_expansion *out, struct rcl_error *err)
{
	struct rcl_soft_change c;
	const struct rcl_soft_vd *vd;
	struct room r;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (st)
		return st;
	vd = rcl_soft_config_vd(c.cfg, id);
	st = vd ? expansion(&c, vd, out, &r, err)
	        : rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u not found", id);
	rcl_soft_change_end(&c);
	return st;
}

/* The shortest whole-MiB partition, up to @max lbas, giving @vd at least @bytes. */
static enum rcl_status smallest_fit(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                    unsigned ss, uint64_t bytes, uint64_t max,
                                    struct rcl_soft_vd *grown, struct rcl_error *err)
{
	uint64_t align = RCL_SOFT_ALIGN_BYTES / ss;
	uint64_t lo = (vd->last_lba + 1 - vd->first_lba) / align + 1, hi = max / align;
	enum rcl_status st;

	/* Capacity grows with the partition: bisect for the smallest that holds @bytes. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		st = grow_to(dg, vd, ss, mid * align, grown, err);
		if (st)
			return st;
		if (grown->bytes >= bytes)
			hi = mid;
		else
			lo = mid + 1;
	}
	return grow_to(dg, vd, ss, hi * align, grown, err);
}

/* Step (a): every member's and dedicated spare's GPT with the grown partition. */
static enum rcl_status write_gpts(struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                  struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (unsigned m = 0; !st && m < rcl_soft_dg_members(dg); m++)
		st =
		    rcl_soft_change_write_gpt(c, (size_t)rcl_soft_change_member(c, dg, m), dg, err);
	for (unsigned k = 0; !st && k < dg->spare_count; k++) {
		int i = rcl_soft_change_disk(c, &dg->spares[k].drive.uuid);

		if (i >= 0)
			st = rcl_soft_change_write_gpt(c, (size_t)i, dg, err);
	}
	return st;
}

/* Step (c): every md superblock of @vd grown, one event past the freshest. */
static enum rcl_status write_supers(struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                    const struct rcl_soft_vd *vd, struct rcl_error *err)
{
	struct rcl_md_super1 *best = rcl_malloc(sizeof(*best));
	enum rcl_status st = best ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
	int from;

	if (!st)
		st = rcl_soft_change_freshest(c, dg, vd, 0, best, &from, err);
	for (unsigned m = 0; !st && m < rcl_soft_dg_members(dg); m++) {
		const struct rcl_soft_disk *d = &c->state->disks[rcl_soft_change_member(c, dg, m)];

		st = rcl_soft_md_grow(d->fd, d->sector_size, vd, best->events + 1, err);
	}
	for (unsigned k = 0; !st && k < dg->spare_count; k++) {
		int i = rcl_soft_change_disk(c, &dg->spares[k].drive.uuid);

		if (i >= 0)
			st = rcl_soft_md_grow(c->state->disks[i].fd, c->state->disks[i].sector_size,
			                      vd, best->events + 1, err);
	}
	rcl_free(best);
	return st;
}

enum rcl_status rcl_soft_expand_vd(struct rcl_ctrl *ctrl, unsigned id, uint64_t bytes,
                                   bool expand_array, struct rcl_error *err)
{
	struct rcl_vd_expansion x = {0};
	struct rcl_soft_change c;
	struct rcl_soft_vd *vd, grown;
	struct rcl_soft_dg *dg;
	struct room r;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (st)
		return st;
	vd = rcl_soft_config_vd_mut(c.cfg, id);
	st = vd ? expansion(&c, vd, &x, &r, err)
	        : rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u not found", id);
	if (!st && (x.why[0] || bytes > (expand_array ? x.grow_array : x.grow)))
		st = rcl_fail(err, RCL_NOT_ALLOWED, "/v%u cannot grow by %llu bytes", id,
		              (unsigned long long)bytes);
	if (!st) {
		dg = rcl_soft_config_dg_mut(c.cfg, vd->dg);
		st = smallest_fit(
		    dg, vd, group_sector_size(&c, dg), vd->bytes + bytes,
		    lbas_to(vd, expand_array ? r.end_array : r.end, group_sector_size(&c, dg)),
		    &grown, err);
	}
	if (st) {
		rcl_soft_change_end(&c);
		return st; /* nothing written */
	}
	/* Only a redundant VD has copies or parity the new space must agree with. */
	grown.consistent = vd->consistent && dg->level == RCL_RAID0;
	*vd = grown;
	if (grown.last_lba > dg->last_lba)
		dg->last_lba = r.end_array;
	st = rcl_soft_change_writable(&c, err);
	if (!st)
		st = write_gpts(&c, dg, err);
	if (!st)
		st = rcl_soft_change_write_records(&c, err);
	if (!st)
		st = write_supers(&c, dg, vd, err);
	return rcl_soft_change_finish(&c, st, err);
}
