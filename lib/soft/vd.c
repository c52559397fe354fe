// SPDX-License-Identifier: MIT
/*
 * vd.c - create, delete and change virtual drives of a soft controller,
 * in the crash-safe order vd.h describes.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "io.h"
#include "layout.h"
#include "member.h"
#include "model.h"
#include "scan.h"
#include "signature.h"
#include "vd.h"

/**
 * struct change - one configuration change under way.
 * @cfg:	the new configuration.
 * @gpts:	per disk: the GPT step (a) writes, or NULL.
 * @fresh:	per disk: a new member (blank before), whose records start clear.
 */
struct change {
	struct rcl_ctrl *ctrl;
	struct soft_ctrl *sc;
	struct rcl_soft_state *state;
	struct rcl_soft_config *cfg;
	struct rcl_gpt **gpts;
	bool *fresh;
};

static enum rcl_status change_begin(struct rcl_ctrl *ctrl, struct change *c, struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	enum rcl_status st;

	memset(c, 0, sizeof(*c));
	if (sc->stale) {
		st = rcl_soft_refresh(ctrl, err);
		if (st)
			return st;
	}
	c->ctrl = ctrl;
	c->sc = sc;
	c->state = sc->state;
	c->cfg = rcl_calloc(1, sizeof(*c->cfg));
	c->gpts = rcl_calloc(c->state->count + 1, sizeof(*c->gpts));
	c->fresh = rcl_calloc(c->state->count + 1, sizeof(*c->fresh));
	if (!c->cfg || !c->gpts || !c->fresh)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	*c->cfg = c->state->cfg;
	snprintf(c->cfg->serial, sizeof(c->cfg->serial), "%s", c->sc->serial);
	return RCL_OK;
}

static void change_end(struct change *c)
{
	for (size_t i = 0; c->gpts && i < c->state->count; i++)
		rcl_free(c->gpts[i]);
	rcl_free(c->gpts);
	rcl_free(c->fresh);
	rcl_free(c->cfg);
}

enum rcl_status rcl_soft_refresh(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	struct rcl_soft_view view;
	enum rcl_status st = rcl_soft_view_prepare(sc, &view, err);

	sc->stale = st != RCL_OK;
	if (!st)
		rcl_soft_view_apply(ctrl, sc, &view);
	return st;
}

/* After a failed change the drives may hold anything step by step: read them again. */
static enum rcl_status fail_refresh(struct rcl_ctrl *ctrl, enum rcl_status st)
{
	struct rcl_error ignored = {0};

	rcl_soft_refresh(ctrl, &ignored);
	return st;
}

/*
 * The disk whose GPT disk GUID is @uuid, by disk index, or -1: a disk of
 * ours, or one step (a) of this change gave a new GPT.
 */
static int guid_disk(const struct change *c, const struct rcl_guid *uuid)
{
	for (size_t i = 0; i < c->state->count; i++) {
		const struct rcl_gpt *gpt = c->gpts[i] ? c->gpts[i] : c->state->disks[i].gpt;

		if (c->state->disks[i].kind != RCL_SOFT_DISK_ABSENT &&
		    c->state->disks[i].kind != RCL_SOFT_DISK_FOREIGN && gpt &&
		    (c->gpts[i] || c->state->disks[i].kind == RCL_SOFT_DISK_OURS) &&
		    !memcmp(gpt->disk_guid.b, uuid->b, 16))
			return (int)i;
	}
	return -1;
}

/* The disk of the configuration member @m of @dg, by disk index, or -1. */
static int member_disk(const struct change *c, const struct rcl_soft_dg *dg, unsigned m)
{
	return guid_disk(c, &dg->members[m].uuid);
}

/* Whether disk @i is a member or a hot spare in @cfg (per guid_disk()). */
static bool in_config(const struct change *c, const struct rcl_soft_config *cfg, size_t i)
{
	for (size_t d = 0; d < cfg->dg_count; d++) {
		for (unsigned m = 0; m < rcl_soft_dg_members(&cfg->dgs[d]); m++)
			if (member_disk(c, &cfg->dgs[d], m) == (int)i)
				return true;
		for (unsigned k = 0; k < cfg->dgs[d].spare_count; k++)
			if (guid_disk(c, &cfg->dgs[d].spares[k].drive.uuid) == (int)i)
				return true;
	}
	for (size_t k = 0; k < cfg->spare_count; k++)
		if (guid_disk(c, &cfg->spares[k].uuid) == (int)i)
			return true;
	return false;
}

/* ---- Step (b): the record update ---- */

static void record_drive(const struct change *c, size_t i, struct rcl_soft_record_drive *rec)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	const struct rcl_gpt *gpt = c->gpts[i] ? c->gpts[i] : disk->gpt;
	const struct rcl_gpt_part *meta = &gpt->parts[c->gpts[i] ? 0 : disk->meta];

	rcl_soft_record_drive_init(rec, disk->fd, meta->first_lba * disk->sector_size,
	                           (meta->last_lba + 1 - meta->first_lba) * disk->sector_size,
	                           &gpt->disk_guid);
}

/*
 * Write c->cfg to every drive that is a member or spare before or after
 * the change: drives leaving must hold the new configuration too, or, if step (c)
 * never runs, their old record would still count as this controller's.
 */
static enum rcl_status write_records(struct change *c, struct rcl_error *err)
{
	struct rcl_soft_record_drive *recs = rcl_calloc(c->state->count + 1, sizeof(*recs));
	struct rcl_soft_record_config rc = {c->state->next_generation, c->sc->serial, NULL, 0};
	enum rcl_status st = RCL_OK;
	char *payload = rcl_soft_config_format(c->cfg, &rc.len);
	size_t n = 0;

	if (!recs || !payload)
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	rc.payload = payload;
	for (size_t i = 0; i < c->state->count && !st; i++) {
		const struct rcl_soft_disk *disk = &c->state->disks[i];

		if (!in_config(c, c->cfg, i) && disk->dg < 0 && !disk->spare)
			continue;
		record_drive(c, i, &recs[n]);
		st = rcl_soft_record_read(&recs[n++], err);
	}
	if (!st)
		st = rcl_soft_record_update(recs, n, &rc, err);
	for (size_t i = 0; i < n; i++)
		rcl_soft_record_drive_release(&recs[i]);
	rcl_free(recs);
	rcl_free(payload);
	return st;
}

/* ---- Step (a): new structures ---- */

/* Give disk @i of group @dg the GPT the new configuration wants, and write it. */
static enum rcl_status write_gpt(struct change *c, size_t i, const struct rcl_soft_dg *dg,
                                 struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	enum rcl_status st;

	if (!c->gpts[i]) {
		c->gpts[i] = rcl_calloc(1, sizeof(*c->gpts[i]));
		if (!c->gpts[i])
			return rcl_fail(err, RCL_NOMEM, "out of memory");
		st = rcl_soft_member_gpt(disk, c->fresh[i], c->cfg, dg, c->gpts[i], err);
		if (st)
			return st;
	}
	if (!c->fresh[i]) {
		st = rcl_soft_member_wipe_orphans(disk, c->gpts[i], err);
		if (st)
			return st;
	}
	st = rcl_gpt_write(disk->fd, c->gpts[i], err);
	if (!st && c->fresh[i])
		st = rcl_soft_member_clear_records(disk->fd, disk->sector_size,
		                                   &c->gpts[i]->parts[0], err);
	return st;
}

/* ---- Step (c): cleaning up ---- */

/*
 * Blank the drives of this controller that no group uses any more: those
 * a deleted group left, and those an interrupted change left. Failures
 * here are not the change's, which is committed: what is left is what a
 * crash here would leave, and the next change cleans it.
 */
static void clean_up(struct change *c)
{
	struct rcl_error ignored = {0};

	for (size_t i = 0; i < c->state->count; i++) {
		struct rcl_soft_disk *disk = &c->state->disks[i];

		if (disk->kind != RCL_SOFT_DISK_OURS || in_config(c, c->cfg, i) || c->gpts[i])
			continue;
		rcl_soft_member_blank(disk, &ignored);
	}
}

static enum rcl_status finish(struct change *c, enum rcl_status st, struct rcl_error *err)
{
	struct rcl_ctrl *ctrl = c->ctrl;

	change_end(c);
	if (st)
		return fail_refresh(ctrl, st);
	st = rcl_soft_refresh(ctrl, err);
	if (st) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err ? err->msg : "");
		return rcl_fail(err, st,
		                "the change is made, but the configuration could not be read back: "
		                "%s",
		                why);
	}
	return RCL_OK;
}

/* ---- create ---- */

/* The disk in slot @ref, for a new VD. */
static enum rcl_status find_disk(const struct change *c, const struct rcl_drive_ref *ref,
                                 size_t *index, struct rcl_error *err)
{
	for (size_t i = 0; i < c->state->count; i++)
		if (ref->enclosure == RCL_SOFT_ENCLOSURE && c->state->disks[i].slot == ref->slot) {
			const struct rcl_soft_disk *disk = &c->state->disks[i];

			if (disk->kind == RCL_SOFT_DISK_ABSENT)
				return rcl_fail(err, RCL_NOT_ALLOWED,
				                "drive %u:%u is missing: its backing store '%s' "
				                "cannot be opened",
				                ref->enclosure, ref->slot, disk->path);
			if (disk->kind == RCL_SOFT_DISK_FOREIGN)
				return rcl_fail(err, RCL_NOT_ALLOWED,
				                "drive %u:%u holds a foreign configuration: it %s",
				                ref->enclosure, ref->slot, disk->why);
			*index = i;
			return RCL_OK;
		}
	return rcl_fail(err, RCL_NOT_FOUND, "drive %u:%u not found", ref->enclosure, ref->slot);
}

static unsigned free_vd_id(const struct rcl_soft_config *cfg)
{
	unsigned id = 0;

	while (rcl_soft_config_vd((struct rcl_soft_config *)cfg, id))
		id++;
	return id;
}

static unsigned free_dg_id(const struct rcl_soft_config *cfg)
{
	unsigned id = 0;

	while (rcl_soft_config_dg((struct rcl_soft_config *)cfg, id))
		id++;
	return id;
}

/* The lowest GPT entry (from 1) none of @dg's VDs uses. */
static unsigned free_part(const struct rcl_soft_config *cfg, unsigned dg)
{
	unsigned part = 1;

	for (size_t i = 0; i < cfg->vd_count; i++)
		if (cfg->vds[i].dg == dg && cfg->vds[i].part == part) {
			part++;
			i = (size_t)-1;
		}
	return part;
}

/* The last LBA a VD partition on @disk can use: its GPT's end, aligned down. */
static enum rcl_status room_end(const struct rcl_soft_disk *disk, uint64_t *end,
                                struct rcl_error *err)
{
	uint64_t align = RCL_SOFT_ALIGN_BYTES / disk->sector_size;
	struct rcl_gpt gpt;
	enum rcl_status st = rcl_gpt_init(&gpt, disk->bytes, disk->sector_size, err);

	if (!st)
		*end = (gpt.last_usable + 1) / align * align - 1;
	return st;
}

/* Where a group on these disks can put VDs: after the metadata, to the smallest end. */
static enum rcl_status new_group_room(const struct change *c, const size_t *idx, size_t n,
                                      struct rcl_soft_dg *dg, struct rcl_error *err)
{
	unsigned ss = c->state->disks[idx[0]].sector_size;
	uint64_t align = RCL_SOFT_ALIGN_BYTES / ss, end;
	struct rcl_gpt_part meta;
	struct rcl_gpt gpt;
	enum rcl_status st;

	dg->last_lba = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct rcl_soft_disk *disk = &c->state->disks[idx[i]];

		if (disk->sector_size != ss)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "drives %u and %u have different sector sizes (%u and %u "
			                "bytes)",
			                c->state->disks[idx[0]].slot, disk->slot, ss,
			                disk->sector_size);
		st = room_end(disk, &end, err);
		if (st)
			return st;
		if (end < dg->last_lba)
			dg->last_lba = end;
	}
	st = rcl_gpt_init(&gpt, c->state->disks[idx[0]].bytes, ss, err);
	if (!st)
		st = rcl_soft_meta_part(&gpt, &meta, err);
	if (st)
		return st;
	dg->first_lba = meta.last_lba + 1;
	if (dg->last_lba < dg->first_lba + align)
		return rcl_fail(err, RCL_INVALID_PARAM, "the drives are too small");
	return RCL_OK;
}

/* Refuse a drive that holds a file system or partition table: the user's data. */
static enum rcl_status check_blank(const struct rcl_soft_disk *disk,
                                   const struct rcl_drive_ref *ref, struct rcl_error *err)
{
	uint8_t *buf;
	const char *what = NULL;
	enum rcl_status st;

	if (disk->kind != RCL_SOFT_DISK_BLANK)
		return RCL_OK;
	buf = rcl_calloc(1, RCL_SOFT_SIGNATURE_BYTES);
	if (!buf)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_soft_read(disk->fd, buf, RCL_SOFT_SIGNATURE_BYTES, 0, err);
	if (!st)
		what = rcl_soft_signature(buf, RCL_SOFT_SIGNATURE_BYTES);
	rcl_free(buf);
	if (!st && what)
		st =
		    rcl_fail(err, RCL_NEED_FORCE, "drive %u:%u holds %s; use force to overwrite it",
		             ref->enclosure, ref->slot, what);
	return st;
}

/* The drives of @p, as disk indexes, all members of one group or of none. */
static enum rcl_status pick_disks(struct change *c, const struct rcl_vd_params *p, size_t *idx,
                                  struct rcl_soft_dg **group, struct rcl_error *err)
{
	struct rcl_soft_config *old = &c->state->cfg;
	unsigned members = 0;
	int dg = -1;

	for (size_t i = 0; i < p->drive_count; i++) {
		enum rcl_status st = find_disk(c, &p->drives[i], &idx[i], err);
		const struct rcl_soft_disk *disk = &c->state->disks[idx[i]];

		if (st)
			return st;
		if (disk->dg < 0 && !p->force)
			st = check_blank(disk, &p->drives[i], err);
		if (st)
			return st;
		if (disk->dg < 0)
			continue;
		if ((dg >= 0 && disk->dg != dg) || (i && !members))
			return rcl_fail(err, RCL_NOT_ALLOWED,
			                "drive %u:%u belongs to disk group %u: a new VD goes on "
			                "unconfigured drives or on all of one group's drives",
			                p->drives[i].enclosure, p->drives[i].slot,
			                old->dgs[disk->dg].id);
		dg = disk->dg;
		members++;
	}
	*group = NULL;
	if (!members)
		return RCL_OK;
	if (members != p->drive_count || members != rcl_soft_dg_members(&old->dgs[dg]))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "a VD on disk group %u must use exactly its %u drives",
		                old->dgs[dg].id, rcl_soft_dg_members(&old->dgs[dg]));
	*group = rcl_soft_config_dg(c->cfg, old->dgs[dg].id);
	return RCL_OK;
}

static enum rcl_status add_group(struct change *c, const struct rcl_vd_params *p, const size_t *idx,
                                 struct rcl_soft_dg **out, struct rcl_error *err)
{
	struct rcl_soft_dg *dg = &c->cfg->dgs[c->cfg->dg_count];
	enum rcl_status st;

	if (c->cfg->dg_count >= RCL_MAX_DGS)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "the controller has the most disk groups (%u)", RCL_MAX_DGS);
	memset(dg, 0, sizeof(*dg));
	dg->id = free_dg_id(c->cfg);
	dg->level = p->level;
	dg->drives_per_span = p->drives_per_span;
	dg->spans = (unsigned)(p->drive_count / p->drives_per_span);
	st = new_group_room(c, idx, p->drive_count, dg, err);
	if (st)
		return st;
	for (size_t i = 0; i < p->drive_count; i++) {
		dg->members[i].slot = c->state->disks[idx[i]].slot;
		c->fresh[idx[i]] = true;
	}
	c->cfg->dg_count++;
	*out = dg;
	return RCL_OK;
}

static enum rcl_status add_vd(struct change *c, const struct rcl_vd_params *p,
                              const struct rcl_soft_dg *dg, unsigned ss, struct rcl_soft_vd **out,
                              struct rcl_error *err)
{
	struct rcl_soft_vd *vd = &c->cfg->vds[c->cfg->vd_count];
	struct rcl_soft_extent where;
	struct rcl_guid uuid;
	enum rcl_status st;

	memset(vd, 0, sizeof(*vd));
	vd->strip_kib = p->level == RCL_RAID1 ? 0 : p->strip_kib;
	vd->bytes = p->bytes;
	st = rcl_soft_place(c->cfg, dg, vd->strip_kib, ss, &vd->bytes, &where, err);
	if (!st)
		st = rcl_guid_random(&uuid, err);
	for (unsigned s = 0; !st && rcl_soft_nested(dg->level) && s < dg->spans; s++) {
		struct rcl_guid span;

		st = rcl_guid_random(&span, err);
		memcpy(vd->span_uuids[s], span.b, 16);
	}
	if (st)
		return st;
	vd->id = free_vd_id(c->cfg);
	vd->dg = dg->id;
	snprintf(vd->name, sizeof(vd->name), "%s", p->name ? p->name : "");
	memcpy(vd->uuid, uuid.b, 16);
	vd->part = free_part(c->cfg, dg->id);
	vd->first_lba = where.first_lba;
	vd->last_lba = where.first_lba + where.lbas - 1;
	vd->write = p->write;
	vd->read = p->read;
	vd->access = RCL_ACCESS_RW;
	/* RAID0 has nothing to agree on; the others start with a resync. */
	vd->consistent = p->level == RCL_RAID0;
	vd->created = time(NULL);
	c->cfg->vd_count++;
	*out = vd;
	return RCL_OK;
}

static enum rcl_status check_spare_level(enum rcl_raid_level level, struct rcl_error *err);
static enum rcl_status pick_spares(struct change *c, const struct rcl_vd_params *p,
                                   struct rcl_soft_dg *dg, struct rcl_error *err);
static enum rcl_status write_spares(struct change *c, struct rcl_soft_dg *dg,
                                    const struct rcl_soft_vd *vd, struct rcl_error *err);

/* spares= makes dedicated spares of a new group only, and not of every level. */
static enum rcl_status check_vd_spares(const struct change *c, const struct rcl_vd_params *p,
                                       const struct rcl_soft_dg *dg, struct rcl_error *err)
{
	if (!p->spare_count)
		return RCL_OK;
	if (dg)
		return rcl_fail(
		    err, RCL_NOT_ALLOWED,
		    "spares= makes dedicated spares of a new disk group; for disk group "
		    "%u use add hotsparedrive dgs=%u",
		    dg->id, dg->id);
	if (rcl_soft_config_spares(c->cfg) + p->spare_count > RCL_MAX_HOT_SPARES)
		return rcl_fail(err, RCL_NOT_ALLOWED, "the controller takes at most %d hot spares",
		                RCL_MAX_HOT_SPARES);
	return check_spare_level(p->level, err);
}

static enum rcl_status check_limits(const struct change *c, const struct rcl_vd_params *p,
                                    const struct rcl_soft_dg *dg, struct rcl_error *err)
{
	unsigned in_dg = 0;
	enum rcl_status st = check_vd_spares(c, p, dg, err);

	if (st)
		return st;
	if (c->cfg->vd_count >= RCL_MAX_VDS)
		return rcl_fail(err, RCL_NOT_ALLOWED, "the controller has the most VDs (%u)",
		                RCL_MAX_VDS);
	if (!dg)
		return RCL_OK;
	if (dg->level != p->level)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "disk group %u is RAID level %u's; a VD on it must have its level",
		                dg->id, (unsigned)dg->level);
	for (size_t i = 0; i < c->cfg->vd_count; i++)
		in_dg += c->cfg->vds[i].dg == dg->id;
	if (in_dg >= RCL_MAX_VDS_PER_DG)
		return rcl_fail(err, RCL_NOT_ALLOWED, "disk group %u has the most VDs (%u)", dg->id,
		                RCL_MAX_VDS_PER_DG);
	return RCL_OK;
}

/* Step (a) of a create: GPTs (and member identities) first, then md. */
static enum rcl_status write_members(struct change *c, struct rcl_soft_dg *dg,
                                     const struct rcl_soft_vd *vd, const size_t *idx,
                                     struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (unsigned m = 0; m < rcl_soft_dg_members(dg) && !st; m++) {
		int i = c->fresh[idx[m]] ? (int)idx[m] : member_disk(c, dg, m);

		if (i < 0)
			continue; /* a missing member gets the VD when it is rebuilt */
		st = write_gpt(c, (size_t)i, dg, err);
		if (!st && c->fresh[i])
			dg->members[m].uuid = c->gpts[i]->disk_guid;
		if (!st)
			st = rcl_soft_member_write_md(c->state->disks[i].fd,
			                              c->state->disks[i].sector_size, c->sc->serial,
			                              dg, vd, m, err);
	}
	return st;
}

enum rcl_status rcl_soft_create_vd(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                   unsigned *id, struct rcl_error *err)
{
	size_t idx[RCL_SOFT_MAX_MEMBERS];
	struct rcl_soft_dg *dg = NULL;
	struct rcl_soft_vd *vd;
	struct change c;
	enum rcl_status st;

	if (params->drive_count > RCL_SOFT_MAX_MEMBERS)
		return rcl_fail(err, RCL_INVALID_PARAM, "too many drives");
	st = change_begin(ctrl, &c, err);
	if (!st)
		st = pick_disks(&c, params, idx, &dg, err);
	if (!st)
		st = check_limits(&c, params, dg, err);
	if (!st && !dg)
		st = add_group(&c, params, idx, &dg, err);
	if (!st)
		st = pick_spares(&c, params, dg, err);
	if (!st)
		st = add_vd(&c, params, dg, c.state->disks[idx[0]].sector_size, &vd, err);
	if (st) {
		change_end(&c);
		return st; /* nothing written */
	}
	*id = vd->id;
	st = write_members(&c, dg, vd, idx, err);
	if (!st)
		st = write_spares(&c, dg, vd, err);
	if (!st)
		st = write_records(&c, err);
	if (!st)
		clean_up(&c);
	return finish(&c, st, err);
}

/* ---- delete ---- */

/*
 * Where @vd's data starts: the member holding its first chunk (and, for
 * RAID1/10, the one mirroring it) and the byte there, past md's metadata.
 */
static unsigned first_chunk(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                            const struct rcl_md_geometry *geo, uint64_t *offset, unsigned *copies)
{
	struct rcl_md_shape shape;
	struct rcl_md_geometry top;
	struct rcl_error ignored = {0};
	unsigned member;
	uint64_t chunk = 0, at;

	rcl_soft_md_shape(dg, vd->strip_kib, &shape);
	*copies = dg->level == RCL_RAID1 || dg->level == RCL_RAID10 ? 2 : 1;
	*offset = geo->data_offset * 512;
	/* RAID50/60: the top RAID0's data starts past its metadata, in span 0. */
	if (rcl_soft_nested(dg->level) &&
	    !rcl_soft_top_geometry(dg, vd->strip_kib, geo, &top, &ignored))
		chunk = top.data_offset / shape.chunk_sectors;
	if (*copies == 2)
		return 0;
	/* md's left-symmetric RAID6 starts stripe 0 with Q: chunk 0 is on member 1. */
	rcl_soft_chunk_member(shape.level, shape.raid_disks, chunk, &member, &at);
	*offset += at * shape.chunk_sectors * 512;
	return member;
}

/* The first member of @dg that is present, or NULL. */
static const struct rcl_soft_disk *any_member(const struct change *c, const struct rcl_soft_dg *dg)
{
	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
		int i = member_disk(c, dg, m);

		if (i >= 0)
			return &c->state->disks[i];
	}
	return NULL;
}

/* What the start of @vd's data holds, read from the first member that has it. */
static enum rcl_status data_signature(struct change *c, const struct rcl_soft_dg *dg,
                                      const struct rcl_soft_vd *vd, const char **what,
                                      struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = any_member(c, dg);
	enum rcl_status st = RCL_NOT_FOUND;
	struct rcl_md_geometry geo;
	uint64_t bytes, offset;
	unsigned first, copies;
	uint8_t *buf;

	if (!disk || rcl_soft_capacity(dg, vd->strip_kib, vd->last_lba + 1 - vd->first_lba,
	                               disk->sector_size, &geo, &bytes, err))
		return rcl_fail(
		    err, RCL_NEED_FORCE,
		    "cannot tell where virtual drive /v%u starts; use force to delete it", vd->id);
	buf = rcl_calloc(1, RCL_SOFT_SIGNATURE_BYTES);
	if (!buf)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	first = first_chunk(dg, vd, &geo, &offset, &copies);
	for (unsigned m = first; m < first + copies && st; m++) {
		int i = member_disk(c, dg, m);

		if (i >= 0)
			st = rcl_soft_read(c->state->disks[i].fd, buf, RCL_SOFT_SIGNATURE_BYTES,
			                   vd->first_lba * disk->sector_size + offset, err);
	}
	if (!st)
		*what = rcl_soft_signature(buf, RCL_SOFT_SIGNATURE_BYTES);
	rcl_free(buf);
	if (st)
		return rcl_fail(err, RCL_NEED_FORCE,
		                "cannot read the start of virtual drive /v%u to see whether it "
		                "holds data; use force to delete it anyway",
		                vd->id);
	return RCL_OK;
}

static void drop_vd(struct rcl_soft_config *cfg, const struct rcl_soft_vd *vd, bool *dg_gone)
{
	unsigned dg = vd->dg, left = 0;
	size_t at = (size_t)(vd - cfg->vds);

	memmove(&cfg->vds[at], &cfg->vds[at + 1], (cfg->vd_count - at - 1) * sizeof(cfg->vds[0]));
	cfg->vd_count--;
	for (size_t i = 0; i < cfg->vd_count; i++)
		left += cfg->vds[i].dg == dg;
	*dg_gone = !left;
	if (!left) {
		struct rcl_soft_dg *g = rcl_soft_config_dg(cfg, dg);
		size_t gi = (size_t)(g - cfg->dgs);

		memmove(&cfg->dgs[gi], &cfg->dgs[gi + 1], (cfg->dg_count - gi - 1) * sizeof(*g));
		cfg->dg_count--;
	}
}

/*
 * Step (c) of a delete whose group stays: each member's and dedicated
 * spare's GPT without the
 * VD's entry, its md superblock wiped first (write_gpt()). A group that
 * went is clean_up()'s: its drives are no member of anything now.
 */
static void remove_vd(struct change *c, const struct rcl_soft_dg *dg)
{
	struct rcl_error ignored = {0};

	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
		int i = member_disk(c, dg, m);

		if (i >= 0)
			write_gpt(c, (size_t)i, dg, &ignored);
	}
	for (unsigned k = 0; k < dg->spare_count; k++) {
		int i = guid_disk(c, &dg->spares[k].drive.uuid);

		if (i >= 0)
			write_gpt(c, (size_t)i, dg, &ignored);
	}
}

enum rcl_status rcl_soft_delete_vd(struct rcl_ctrl *ctrl, unsigned id, bool force,
                                   struct rcl_error *err)
{
	struct rcl_soft_vd *vd;
	struct rcl_soft_dg dg;
	const char *what = NULL;
	struct change c;
	enum rcl_status st;
	bool dg_gone;

	st = change_begin(ctrl, &c, err);
	if (st || !(vd = rcl_soft_config_vd(c.cfg, id))) {
		change_end(&c);
		return st ? st : rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u not found", id);
	}
	dg = *rcl_soft_config_dg(c.cfg, vd->dg);
	if (!force)
		st = data_signature(&c, &dg, vd, &what, err);
	if (!st && what)
		st = rcl_fail(err, RCL_NEED_FORCE,
		              "virtual drive /v%u holds %s; use force to delete it", id, what);
	if (st) {
		change_end(&c);
		return st;
	}
	drop_vd(c.cfg, vd, &dg_gone);
	st = write_records(&c, err);
	if (!st && !dg_gone)
		remove_vd(&c, rcl_soft_config_dg(c.cfg, dg.id));
	if (!st)
		clean_up(&c);
	return finish(&c, st, err);
}

/* ---- set ---- */

enum rcl_status rcl_soft_set_vd(struct rcl_ctrl *ctrl, unsigned id,
                                const struct rcl_vd_props *props, struct rcl_error *err)
{
	struct rcl_soft_vd *vd;
	struct change c;
	enum rcl_status st;

	st = change_begin(ctrl, &c, err);
	if (st || !(vd = rcl_soft_config_vd(c.cfg, id))) {
		change_end(&c);
		return st ? st : rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u not found", id);
	}
	if (props->name)
		snprintf(vd->name, sizeof(vd->name), "%s", props->name);
	if (props->write >= 0)
		vd->write = (enum rcl_write_policy)props->write;
	if (props->read >= 0)
		vd->read = (enum rcl_read_policy)props->read;
	if (props->access >= 0)
		vd->access = (enum rcl_access_policy)props->access;
	/* The md superblocks name the array by controller and VD id: nothing else changes. */
	st = write_records(&c, err);
	return finish(&c, st, err);
}

/* ---- hot spares ---- */

/* md rebuilds RAID1/5/6/10 onto a spare; RAID0 has nothing to rebuild. */
static enum rcl_status check_spare_level(enum rcl_raid_level level, struct rcl_error *err)
{
	if (level == RCL_RAID0)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "a RAID0 disk group takes no dedicated spare: it cannot rebuild");
	/* A span array's spare would serve one span: not what a DHS promises. */
	if (rcl_soft_nested(level))
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "dedicated spares of RAID50/60 groups are not supported yet");
	return RCL_OK;
}

/*
 * Refuse a spare that could not stand in for a member of @dg (of sector
 * size @ss, 0 for that of a present member): StorCLI's rule, as md's
 * rebuild needs the group's extent on it.
 */
static enum rcl_status check_fits(const struct change *c, const struct rcl_soft_disk *disk,
                                  const struct rcl_drive_ref *ref, const struct rcl_soft_dg *dg,
                                  unsigned ss, struct rcl_error *err)
{
	const struct rcl_soft_disk *member = ss ? NULL : any_member(c, dg);
	uint64_t end;
	enum rcl_status st = room_end(disk, &end, err);

	if (member)
		ss = member->sector_size;
	if (!st && (end < dg->last_lba || (ss && ss != disk->sector_size)))
		st = rcl_fail(err, RCL_DRIVE_TOO_SMALL,
		              "drive %u:%u is too small to replace a member of disk group %u",
		              ref->enclosure, ref->slot, dg->id);
	return st;
}

/* A new spare for @dg (NULL: a global one, which must fit every group). */
static enum rcl_status check_new_spare(const struct change *c, const struct rcl_drive_ref *ref,
                                       size_t i, bool force, const struct rcl_soft_dg *dg,
                                       unsigned ss, struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	enum rcl_status st = RCL_OK;

	if (disk->spare || c->fresh[i])
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is already a hot spare",
		                ref->enclosure, ref->slot);
	if (disk->dg >= 0)
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is a member of disk group %u",
		                ref->enclosure, ref->slot, c->state->cfg.dgs[disk->dg].id);
	if (rcl_soft_config_spares(c->cfg) >= RCL_MAX_HOT_SPARES)
		return rcl_fail(err, RCL_NOT_ALLOWED, "the controller has the most hot spares (%d)",
		                RCL_MAX_HOT_SPARES);
	if (!force)
		st = check_blank(disk, ref, err);
	for (size_t d = 0; !st && d < c->cfg->dg_count; d++)
		if (!dg || dg == &c->cfg->dgs[d])
			st = check_fits(c, disk, ref, &c->cfg->dgs[d], ss, err);
	return st;
}

/* The lowest md device number from the member count that no spare of @dg has. */
static enum rcl_status free_dev(const struct rcl_soft_dg *dg, unsigned *dev, struct rcl_error *err)
{
	for (*dev = rcl_soft_dg_members(dg); *dev <= RCL_SOFT_MAX_SPARE_DEV; ++*dev) {
		unsigned k = 0;

		while (k < dg->spare_count && dg->spares[k].dev != *dev)
			k++;
		if (k == dg->spare_count)
			return RCL_OK;
	}
	return rcl_fail(err, RCL_NOT_ALLOWED, "disk group %u has no md device number left", dg->id);
}

/* Make disk @i a new dedicated spare of @dg in the configuration (its GUID comes later). */
static enum rcl_status append_spare(struct change *c, struct rcl_soft_dg *dg, size_t i,
                                    struct rcl_error *err)
{
	struct rcl_soft_spare *spare = &dg->spares[dg->spare_count];
	enum rcl_status st = free_dev(dg, &spare->dev, err);

	if (st)
		return st;
	memset(&spare->drive, 0, sizeof(spare->drive));
	spare->drive.slot = c->state->disks[i].slot;
	c->fresh[i] = true;
	dg->spare_count++;
	return RCL_OK;
}

/* add vd ... spares=: the new group's dedicated spares, checked and listed. */
static enum rcl_status pick_spares(struct change *c, const struct rcl_vd_params *p,
                                   struct rcl_soft_dg *dg, struct rcl_error *err)
{
	unsigned ss = 0;
	enum rcl_status st = RCL_OK;

	for (size_t m = 0; m < c->state->count && !ss; m++)
		if (c->fresh[m])
			ss = c->state->disks[m].sector_size;
	for (size_t k = 0; k < p->spare_count && !st; k++) {
		size_t i;

		st = find_disk(c, &p->spares[k], &i, err);
		if (!st)
			st = check_new_spare(c, &p->spares[k], i, p->force, dg, ss, err);
		if (!st)
			st = append_spare(c, dg, i, err);
	}
	return st;
}

/* The disk of @dg's spare @k: by GUID, or, new in this change, by slot. */
static int spare_disk(const struct change *c, const struct rcl_soft_dg *dg, unsigned k)
{
	int i = guid_disk(c, &dg->spares[k].drive.uuid);

	for (size_t d = 0; i < 0 && d < c->state->count; d++)
		if (c->fresh[d] && !c->gpts[d] &&
		    c->state->disks[d].slot == dg->spares[k].drive.slot)
			i = (int)d;
	return i;
}

/* The superblock of VD @vd with the highest events among @dg's present members. */
static enum rcl_status freshest(const struct change *c, const struct rcl_soft_dg *dg,
                                const struct rcl_soft_vd *vd, struct rcl_md_super1 *best, int *from,
                                struct rcl_error *err)
{
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	enum rcl_status st = sb ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");

	*from = -1;
	for (unsigned m = 0; m < rcl_soft_dg_members(dg) && !st; m++) {
		int i = member_disk(c, dg, m);

		if (i < 0)
			continue;
		st = rcl_soft_md_read(c->state->disks[i].fd, c->state->disks[i].sector_size, vd, sb,
		                      err);
		if (!st && (*from < 0 || sb->events > best->events)) {
			*best = *sb;
			*from = i;
		}
	}
	rcl_free(sb);
	if (!st && *from < 0)
		st =
		    rcl_fail(err, RCL_NOT_ALLOWED, "no member of disk group %u is present", dg->id);
	return st;
}

/* Disk @i's superblock of VD @vd at events @events. */
static enum rcl_status bump(const struct change *c, int i, const struct rcl_soft_vd *vd,
                            uint64_t events, struct rcl_md_super1 *sb, struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	enum rcl_status st = rcl_soft_md_read(disk->fd, disk->sector_size, vd, sb, err);

	sb->events = events;
	return st ? st : rcl_soft_md_rewrite(disk->fd, disk->sector_size, vd, sb, err);
}

/*
 * Step (a) for VD @vd: spare @k of @dg joins the array as "mdadm --add"
 * leaves it. The spare's superblock first (nothing refers to it yet), then
 * the members' and the earlier spares' with events one up: md takes the
 * roles from the superblock with the highest events, and each says the
 * same.
 */
static enum rcl_status join_spare(struct change *c, const struct rcl_soft_dg *dg,
                                  const struct rcl_soft_vd *vd, unsigned k, struct rcl_error *err)
{
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	int from, spare = spare_disk(c, dg, k);
	enum rcl_status st =
	    sb ? freshest(c, dg, vd, sb, &from, err) : rcl_fail(err, RCL_NOMEM, "out of memory");
	uint64_t events = st ? 0 : sb->events + 1;

	if (!st) {
		sb->events = events;
		st = rcl_soft_md_write_spare(c->state->disks[spare].fd, c->state->disks[from].fd,
		                             c->state->disks[spare].sector_size, vd, sb,
		                             dg->spares[k].dev, err);
	}
	for (unsigned m = 0; m < rcl_soft_dg_members(dg) && !st; m++)
		if (member_disk(c, dg, m) >= 0)
			st = bump(c, member_disk(c, dg, m), vd, events, sb, err);
	for (unsigned o = 0; o < k && !st; o++)
		if (spare_disk(c, dg, o) >= 0)
			st = bump(c, spare_disk(c, dg, o), vd, events, sb, err);
	rcl_free(sb);
	return st;
}

/* Step (a) for a new VD @vd of @dg: each present spare gets its partition, then joins. */
static enum rcl_status write_spares(struct change *c, struct rcl_soft_dg *dg,
                                    const struct rcl_soft_vd *vd, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (unsigned k = 0; k < dg->spare_count && !st; k++) {
		int i = spare_disk(c, dg, k);

		if (i < 0)
			continue; /* a missing spare: nothing to write */
		st = write_gpt(c, (size_t)i, dg, err);
		if (!st && c->fresh[i])
			dg->spares[k].drive.uuid = c->gpts[i]->disk_guid;
		if (!st)
			st = join_spare(c, dg, vd, k, err);
	}
	return st;
}

/* A new global spare: its own GPT with the metadata partition alone. */
static enum rcl_status add_global(struct change *c, size_t i, struct rcl_error *err)
{
	struct rcl_soft_member *spare = &c->cfg->spares[c->cfg->spare_count++];
	enum rcl_status st;

	c->fresh[i] = true;
	spare->slot = c->state->disks[i].slot;
	st = write_gpt(c, i, NULL, err);
	if (!st)
		spare->uuid = c->gpts[i]->disk_guid;
	return st;
}

/* A new dedicated spare of @dg: the group's GPT entries, then it joins each VD. */
static enum rcl_status add_dedicated(struct change *c, size_t i, struct rcl_soft_dg *dg,
                                     struct rcl_error *err)
{
	enum rcl_status st = append_spare(c, dg, i, err);
	unsigned k = dg->spare_count - 1;

	if (!st)
		st = write_gpt(c, i, dg, err);
	if (!st)
		dg->spares[k].drive.uuid = c->gpts[i]->disk_guid;
	for (size_t v = 0; v < c->cfg->vd_count && !st; v++)
		if (c->cfg->vds[v].dg == dg->id)
			st = join_spare(c, dg, &c->cfg->vds[v], k, err);
	return st;
}

/* The group @dgs names for a dedicated spare (none: global), fit to have one. */
static enum rcl_status spare_group(struct change *c, const unsigned *dgs, size_t dg_count,
                                   struct rcl_soft_dg **dg, struct rcl_error *err)
{
	*dg = NULL;
	if (!dg_count)
		return RCL_OK;
	/* Groups' VD partitions may share GPT entries and LBAs: one group per drive. */
	if (dg_count > 1)
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "a soft controller's dedicated spare serves one disk group");
	*dg = rcl_soft_config_dg(c->cfg, dgs[0]);
	if (!*dg)
		return rcl_fail(err, RCL_NOT_FOUND, "disk group %u not found", dgs[0]);
	return check_spare_level((*dg)->level, err);
}

enum rcl_status rcl_soft_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const unsigned *dgs, size_t dg_count, bool force,
                                      struct rcl_error *err)
{
	struct rcl_soft_dg *dg = NULL;
	struct change c;
	size_t i = 0;
	enum rcl_status st = change_begin(ctrl, &c, err);

	if (!st)
		st = find_disk(&c, ref, &i, err);
	if (!st)
		st = spare_group(&c, dgs, dg_count, &dg, err);
	if (!st)
		st = check_new_spare(&c, ref, i, force, dg, 0, err);
	if (st) {
		change_end(&c);
		return st; /* nothing written */
	}
	st = dg ? add_dedicated(&c, i, dg, err) : add_global(&c, i, err);
	if (!st)
		st = write_records(&c, err);
	return finish(&c, st, err);
}

/* Drop disk @i from @cfg's spares, global or dedicated. Return: false if it is none. */
static bool drop_spare(const struct change *c, struct rcl_soft_config *cfg, size_t i)
{
	for (size_t k = 0; k < cfg->spare_count; k++)
		if (guid_disk(c, &cfg->spares[k].uuid) == (int)i) {
			memmove(&cfg->spares[k], &cfg->spares[k + 1],
			        (cfg->spare_count - k - 1) * sizeof(cfg->spares[0]));
			cfg->spare_count--;
			return true;
		}
	for (size_t d = 0; d < cfg->dg_count; d++) {
		struct rcl_soft_dg *dg = &cfg->dgs[d];

		for (unsigned k = 0; k < dg->spare_count; k++)
			if (guid_disk(c, &dg->spares[k].drive.uuid) == (int)i) {
				memmove(&dg->spares[k], &dg->spares[k + 1],
				        (dg->spare_count - k - 1) * sizeof(dg->spares[0]));
				dg->spare_count--;
				return true;
			}
	}
	return false;
}

enum rcl_status rcl_soft_delete_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_error *err)
{
	struct change c;
	size_t i = 0;
	enum rcl_status st = change_begin(ctrl, &c, err);

	if (!st)
		st = find_disk(&c, ref, &i, err);
	if (!st && !drop_spare(&c, c.cfg, i))
		st = rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is not a hot spare",
		              ref->enclosure, ref->slot);
	if (st) {
		change_end(&c);
		return st;
	}
	/*
	 * The drive gets the new record too (write_records()), then clean_up()
	 * blanks it, its md superblocks first. The members' superblocks keep
	 * its device number as "spare", md's word for a free one.
	 */
	st = write_records(&c, err);
	if (!st)
		clean_up(&c);
	return finish(&c, st, err);
}
