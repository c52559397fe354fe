// SPDX-License-Identifier: MIT
/*
 * vd.c - create, delete and change virtual drives of a soft controller,
 * in the crash-safe order change.h describes.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "backing.h"
#include "change.h"
#include "soft/format/io.h"
#include "layout.h"
#include "member.h"
#include "soft/tasks/migrate.h"
#include "soft/format/signature.h"
#include "spare.h"
#include "vd.h"

static unsigned free_vd_id(const struct rcl_soft_config *cfg)
{
	unsigned id = 0;

	while (rcl_soft_config_vd(cfg, id))
		id++;
	return id;
}

static unsigned free_dg_id(const struct rcl_soft_config *cfg)
{
	unsigned id = 0;

	while (rcl_soft_config_dg(cfg, id))
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

/* Where a group on these disks can put VDs: after the metadata, to the smallest end. */
static enum rcl_status new_group_room(const struct rcl_soft_change *c, const size_t *idx, size_t n,
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
		st = rcl_soft_room_end(disk, &end, err);
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

/*
 * Refuse chosen drives that reach the same storage under two paths (an
 * image and a loop device over it, a registry written before add drive
 * checked): their members' writes would land on one another.
 */
static enum rcl_status check_distinct(const struct rcl_soft_change *c, const size_t *idx, size_t n,
                                      const struct rcl_vd_params *p, struct rcl_error *err)
{
	struct rcl_soft_backing *b = rcl_calloc(n + 1, sizeof(*b));
	enum rcl_status st = b ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");

	for (size_t i = 0; i < n && !st; i++) {
		struct stat where;

		if (fstat(c->state->disks[idx[i]].fd, &where))
			continue;
		rcl_soft_backing_of(&where, &b[i]);
		for (size_t j = 0; j < i && !st; j++)
			if (rcl_soft_backing_shared(&b[i], &b[j]))
				st = rcl_fail(
				    err, RCL_NOT_ALLOWED,
				    "drives %u:%u and %u:%u reach the same storage ('%s' and "
				    "'%s'): a VD on both would write each member over the "
				    "other; remove one of them",
				    p->drives[j].enclosure, p->drives[j].slot,
				    p->drives[i].enclosure, p->drives[i].slot,
				    c->state->disks[idx[j]].path, c->state->disks[idx[i]].path);
	}
	rcl_free(b);
	return st;
}

/* The drives of @p, as disk indexes, all members of one group or of none. */
static enum rcl_status pick_disks(struct rcl_soft_change *c, const struct rcl_vd_params *p,
                                  size_t *idx, struct rcl_soft_dg **group, struct rcl_error *err)
{
	struct rcl_soft_config *old = &c->state->cfg;
	unsigned members = 0;
	int dg = -1;

	for (size_t i = 0; i < p->drive_count; i++) {
		enum rcl_status st = rcl_soft_change_find(c, &p->drives[i], &idx[i], err);
		const struct rcl_soft_disk *disk = &c->state->disks[idx[i]];

		if (st)
			return st;
		if (disk->dg < 0 && !p->force)
			st = rcl_soft_check_blank(disk, &p->drives[i], err);
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
	*group = rcl_soft_config_dg_mut(c->cfg, old->dgs[dg].id);
	return RCL_OK;
}

static enum rcl_status add_group(struct rcl_soft_change *c, const struct rcl_vd_params *p,
                                 const size_t *idx, struct rcl_soft_dg **out, struct rcl_error *err)
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

static enum rcl_status add_vd(struct rcl_soft_change *c, const struct rcl_vd_params *p,
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
	vd->disk_cache = p->disk_cache;
	vd->io = p->io;
	/* RAID0 and RAID00 have nothing to agree on; the others start with a resync. */
	vd->consistent = rcl_raid_span_level(p->level) == RCL_RAID0;
	vd->created = time(NULL);
	c->cfg->vd_count++;
	*out = vd;
	return RCL_OK;
}

/* spares= makes dedicated spares of a new group only, and not of every level. */
static enum rcl_status check_vd_spares(const struct rcl_soft_change *c,
                                       const struct rcl_vd_params *p, const struct rcl_soft_dg *dg,
                                       struct rcl_error *err)
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
	return rcl_soft_spare_check_level(p->level, err);
}

static enum rcl_status check_limits(const struct rcl_soft_change *c, const struct rcl_vd_params *p,
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
	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++)
		if (dg->members[m].state != RCL_SOFT_MEMBER_ONLINE)
			return rcl_fail(err, RCL_NOT_ALLOWED,
			                "disk group %u is not optimal (a member in slot %u is not "
			                "online): a new VD needs every member",
			                dg->id, dg->members[m].slot);
	for (size_t i = 0; i < c->cfg->vd_count; i++)
		in_dg += c->cfg->vds[i].dg == dg->id;
	if (in_dg >= RCL_MAX_VDS_PER_DG)
		return rcl_fail(err, RCL_NOT_ALLOWED, "disk group %u has the most VDs (%u)", dg->id,
		                RCL_MAX_VDS_PER_DG);
	return RCL_OK;
}

/* Step (a) of a create: GPTs (and member identities) first, then md. */
static enum rcl_status write_members(struct rcl_soft_change *c, struct rcl_soft_dg *dg,
                                     const struct rcl_soft_vd *vd, const size_t *idx,
                                     struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (unsigned m = 0; m < rcl_soft_dg_members(dg) && !st; m++) {
		int i = c->fresh[idx[m]] ? (int)idx[m] : rcl_soft_change_member(c, dg, m);

		if (i < 0)
			continue; /* a missing member gets the VD when it is rebuilt */
		st = rcl_soft_change_write_gpt(c, (size_t)i, dg, err);
		if (!st && c->fresh[i])
			dg->members[m].uuid = c->gpts[i]->disk_guid;
		if (!st)
			st = rcl_soft_member_write_md(c->state->disks[i].fd,
			                              c->state->disks[i].sector_size, c->sc->serial,
			                              dg, vd, m, err);
	}
	return st;
}

/*
 * A new VD that the drives read back degraded was not made as asked
 * (members written over one another, a drive that dropped out): take it
 * away again rather than report success.
 */
static enum rcl_status check_born_optimal(struct rcl_ctrl *ctrl, unsigned id, struct rcl_error *err)
{
	const struct rcl_vd *vd = rcl_ctrl_vd_by_id(ctrl, id);
	struct rcl_error ignored = {0};

	if (vd && vd->state == RCL_VD_OPTIMAL)
		return RCL_OK;
	rcl_soft_delete_vd(ctrl, id, true, &ignored);
	return rcl_fail(err, RCL_SYSTEM,
	                "virtual drive /v%u read back %s from its drives after it was written, so "
	                "it was deleted again: check that no two drives reach the same storage",
	                id, vd ? "not optimal" : "missing");
}

enum rcl_status rcl_soft_create_vd(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                   unsigned *id, struct rcl_error *err)
{
	size_t idx[RCL_SOFT_MAX_MEMBERS];
	struct rcl_soft_dg *dg = NULL;
	struct rcl_soft_vd *vd;
	struct rcl_soft_change c;
	enum rcl_status st;

	if (params->drive_count > RCL_SOFT_MAX_MEMBERS)
		return rcl_fail(err, RCL_INVALID_PARAM, "too many drives");
	st = rcl_soft_change_begin(ctrl, &c, err);
	if (!st)
		st = pick_disks(&c, params, idx, &dg, err);
	if (!st)
		st = check_distinct(&c, idx, params->drive_count, params, err);
	if (!st)
		st = check_limits(&c, params, dg, err);
	if (!st)
		st = rcl_soft_migrate_guard(dg, "a new VD in it", err);
	if (!st && !dg)
		st = add_group(&c, params, idx, &dg, err);
	if (!st)
		st = rcl_soft_spares_pick(&c, params, dg, err);
	if (!st)
		st = add_vd(&c, params, dg, c.state->disks[idx[0]].sector_size, &vd, err);
	if (st) {
		rcl_soft_change_end(&c);
		return st; /* nothing written */
	}
	*id = vd->id;
	st = rcl_soft_change_writable(&c, err);
	if (!st)
		st = write_members(&c, dg, vd, idx, err);
	if (!st)
		st = rcl_soft_spares_write(&c, dg, vd, err);
	if (!st)
		st = rcl_soft_change_write_records(&c, err);
	if (!st)
		rcl_soft_change_clean_up(&c);
	st = rcl_soft_change_finish(&c, st, err);
	return st ? st : check_born_optimal(ctrl, *id, err);
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
	/* RAID00/50/60: the top RAID0's data starts past its metadata, in span 0. */
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

/* What the start of @vd's data holds, read from the first member that has it. */
static enum rcl_status data_signature(struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                      const struct rcl_soft_vd *vd, const char **what,
                                      struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = rcl_soft_change_any_member(c, dg);
	enum rcl_status st = RCL_NOT_FOUND;
	struct rcl_md_geometry geo;
	uint64_t bytes, offset;
	unsigned first, copies;
	uint8_t *buf;

	if (!disk || rcl_soft_vd_geometry(dg, vd, disk->sector_size, &geo, &bytes, err))
		return rcl_fail(
		    err, RCL_NEED_FORCE,
		    "cannot tell where virtual drive /v%u starts; use force to delete it", vd->id);
	buf = rcl_calloc(1, RCL_SOFT_SIGNATURE_BYTES);
	if (!buf)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	first = first_chunk(dg, vd, &geo, &offset, &copies);
	for (unsigned m = first; m < first + copies && st; m++) {
		int i = rcl_soft_change_member(c, dg, m);

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
		const struct rcl_soft_dg *g = rcl_soft_config_dg(cfg, dg);
		size_t gi = (size_t)(g - cfg->dgs);

		memmove(&cfg->dgs[gi], &cfg->dgs[gi + 1], (cfg->dg_count - gi - 1) * sizeof(*g));
		cfg->dg_count--;
		rcl_soft_spares_forget_dg(cfg, dg);
	}
}

/*
 * Step (c) of a delete whose group stays: each member's and dedicated
 * spare's GPT without the VD's entry, its md superblock wiped first
 * (rcl_soft_change_write_gpt()). A group that went is
 * rcl_soft_change_clean_up()'s: its drives are no member of anything now.
 */
static void remove_vd(struct rcl_soft_change *c, const struct rcl_soft_dg *dg)
{
	struct rcl_error ignored = {0};

	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
		int i = rcl_soft_change_member(c, dg, m);

		if (i >= 0)
			rcl_soft_change_write_gpt(c, (size_t)i, dg, &ignored);
	}
	for (unsigned k = 0; k < dg->spare_count; k++) {
		int i = rcl_soft_change_disk(c, &dg->spares[k].drive.uuid);

		if (i >= 0)
			rcl_soft_change_write_gpt(c, (size_t)i, dg, &ignored);
	}
}

/* Whether @vd of @dg may go: no migration, and without @force no data on it. */
static enum rcl_status check_deletable(struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                       const struct rcl_soft_vd *vd, bool force,
                                       struct rcl_error *err)
{
	const char *what = NULL;
	enum rcl_status st = rcl_soft_migrate_guard(dg, "deleting its VD", err);

	if (!st && !force)
		st = data_signature(c, dg, vd, &what, err);
	if (!st && what)
		st = rcl_fail(err, RCL_NEED_FORCE,
		              "virtual drive /v%u holds %s; use force to delete it", vd->id, what);
	return st;
}

enum rcl_status rcl_soft_delete_vd(struct rcl_ctrl *ctrl, unsigned id, bool force,
                                   struct rcl_error *err)
{
	const struct rcl_soft_vd *vd;
	struct rcl_soft_dg dg;
	struct rcl_soft_change c;
	enum rcl_status st;
	bool dg_gone;

	st = rcl_soft_change_begin(ctrl, &c, err);
	if (st || !(vd = rcl_soft_config_vd(c.cfg, id))) {
		rcl_soft_change_end(&c);
		return st ? st : rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u not found", id);
	}
	dg = *rcl_soft_config_dg(c.cfg, vd->dg);
	st = check_deletable(&c, &dg, vd, force, err);
	if (st) {
		rcl_soft_change_end(&c);
		return st;
	}
	drop_vd(c.cfg, vd, &dg_gone);
	st = rcl_soft_change_write_records(&c, err);
	if (!st && !dg_gone)
		remove_vd(&c, rcl_soft_config_dg(c.cfg, dg.id));
	if (!st)
		rcl_soft_change_clean_up(&c);
	return rcl_soft_change_finish(&c, st, err);
}

/*
 * Every VD, group and dedicated spare goes in one record update: a crash
 * leaves the whole configuration or none, and the drives left blank by
 * step (c) are what the new, empty configuration says they are.
 */
enum rcl_status rcl_soft_delete_config(struct rcl_ctrl *ctrl, bool force, struct rcl_error *err)
{
	struct rcl_soft_change c;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);
	bool dg_gone;

	for (size_t i = 0; !st && i < c.cfg->vd_count; i++)
		st = check_deletable(&c, rcl_soft_config_dg(c.cfg, c.cfg->vds[i].dg),
		                     &c.cfg->vds[i], force, err);
	if (st) {
		rcl_soft_change_end(&c);
		return st;
	}
	while (c.cfg->vd_count)
		drop_vd(c.cfg, &c.cfg->vds[0], &dg_gone);
	st = rcl_soft_change_write_records(&c, err);
	if (!st)
		rcl_soft_change_clean_up(&c);
	return rcl_soft_change_finish(&c, st, err);
}

/* ---- set ---- */

enum rcl_status rcl_soft_set_vd(struct rcl_ctrl *ctrl, unsigned id,
                                const struct rcl_vd_props *props, struct rcl_error *err)
{
	struct rcl_soft_vd *vd;
	struct rcl_soft_change c;
	enum rcl_status st;

	st = rcl_soft_change_begin(ctrl, &c, err);
	if (st || !(vd = rcl_soft_config_vd_mut(c.cfg, id))) {
		rcl_soft_change_end(&c);
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
	if (props->disk_cache >= 0)
		vd->disk_cache = (enum rcl_disk_cache_policy)props->disk_cache;
	if (props->io >= 0)
		vd->io = (enum rcl_io_policy)props->io;
	if (props->autobgi >= 0)
		vd->no_autobgi = !props->autobgi;
	/* The md superblocks name the array by controller and VD id: nothing else changes. */
	st = rcl_soft_change_write_records(&c, err);
	return rcl_soft_change_finish(&c, st, err);
}

enum rcl_status rcl_soft_set_consistent(struct rcl_ctrl *ctrl, unsigned id, struct rcl_error *err)
{
	struct rcl_soft_vd *vd;
	struct rcl_soft_change c;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (st || !(vd = rcl_soft_config_vd_mut(c.cfg, id))) {
		rcl_soft_change_end(&c);
		return st ? st : rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u not found", id);
	}
	vd->consistent = true;
	st = rcl_soft_change_write_records(&c, err);
	return rcl_soft_change_finish(&c, st, err);
}
