// SPDX-License-Identifier: MIT
/*
 * foreign-import.c - import a soft controller's foreign configurations:
 * the merged configuration goes to the records, md arrays adopted in place
 * first gain raidcli's metadata partition (see foreign.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "foreign-private.h"
#include "layout.h"
#include "member.h"
#include "soft/format/md-bitmap.h"
#include "vd.h"

/* Whether any member or spare of @cfg is the drive @uuid. */
static bool config_has(const struct rcl_soft_config *cfg, const struct rcl_guid *uuid)
{
	for (size_t d = 0; d < cfg->dg_count; d++) {
		const struct rcl_soft_dg *dg = &cfg->dgs[d];

		for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++)
			if (rcl_guid_equal(&dg->members[m].uuid, uuid))
				return true;
		for (unsigned k = 0; k < dg->spare_count; k++)
			if (rcl_guid_equal(&dg->spares[k].drive.uuid, uuid))
				return true;
	}
	for (size_t k = 0; k < cfg->spare_count; k++)
		if (rcl_guid_equal(&cfg->spares[k].uuid, uuid))
			return true;
	return false;
}

/* Can @f join @cfg at all: read, importable, no group lost, no drive twice. */
static enum rcl_status check_importable(const struct rcl_soft_state *state, const struct found *f,
                                        const struct rcl_foreign_config *shown,
                                        const struct rcl_soft_config *cfg, struct rcl_error *err)
{
	char lacking[RCL_ERROR_MSG_MAX];

	if (f->problem[0] || !(f->cfg || f->adopt))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "cannot import the foreign configuration %s: %s", f->owner,
		                f->problem);
	rcl_soft_foreign_lacks_drives(shown, lacking, sizeof(lacking));
	if (*lacking)
		return rcl_fail(err, RCL_FOREIGN_INCOMPLETE, "%s", lacking);
	for (size_t k = 0; k < f->disk_count; k++) {
		const struct rcl_soft_disk *disk = &state->disks[f->disks[k]];

		for (size_t j = 0; j < k; j++)
			if (rcl_guid_equal(&state->disks[f->disks[j]].gpt->disk_guid,
			                   &disk->gpt->disk_guid))
				return rcl_fail(
				    err, RCL_NOT_ALLOWED,
				    "cannot import the foreign configuration %s: drives "
				    "%u:%u and %u:%u have the same identity (GPT disk "
				    "GUID): one is a copy of the other; remove it",
				    f->owner, RCL_SOFT_ENCLOSURE, state->disks[f->disks[j]].slot,
				    RCL_SOFT_ENCLOSURE, disk->slot);
		if (config_has(cfg, &disk->gpt->disk_guid))
			return rcl_fail(
			    err, RCL_NOT_ALLOWED,
			    "cannot import the foreign configuration %s: drive %u:%u "
			    "has the identity (GPT disk GUID) of a drive this controller "
			    "already has: a member left behind by an earlier import, or "
			    "a copy; delete the foreign configuration (fall del force) and "
			    "let it rebuild, or remove the copy",
			    f->owner, RCL_SOFT_ENCLOSURE, disk->slot);
	}
	return RCL_OK;
}

static enum rcl_status check_limits(const struct rcl_soft_config *cfg,
                                    const struct rcl_soft_config *add, struct rcl_error *err)
{
	if (cfg->dg_count + add->dg_count > RCL_MAX_DGS)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "cannot import: %zu disk groups would exceed this controller's %d",
		                cfg->dg_count + add->dg_count, RCL_MAX_DGS);
	if (cfg->vd_count + add->vd_count > RCL_MAX_VDS)
		return rcl_fail(
		    err, RCL_NOT_ALLOWED,
		    "cannot import: %zu virtual drives would exceed this controller's %d",
		    cfg->vd_count + add->vd_count, RCL_MAX_VDS);
	if (rcl_soft_config_spares(cfg) + rcl_soft_config_spares(add) > RCL_MAX_HOT_SPARES)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "cannot import: %zu hot spares would exceed this controller's %d",
		                rcl_soft_config_spares(cfg) + rcl_soft_config_spares(add),
		                RCL_MAX_HOT_SPARES);
	return RCL_OK;
}

/* Members and spares are recorded where they are now: in this controller's slots. */
static void update_slot(const struct rcl_soft_state *state, const struct found *f,
                        struct rcl_soft_member *m)
{
	const struct rcl_soft_disk *disk = rcl_soft_foreign_found_disk(state, f, &m->uuid);

	if (disk)
		m->slot = disk->slot;
}

static int cmp_vd(const void *a, const void *b)
{
	const struct rcl_soft_vd *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * New ids for @n objects whose ids are @old, among @limit ids of which
 * @used are taken: an object keeps its id when it is free, the others
 * then take the lowest free ones (so no object loses its id to another's
 * renumbering). The caller checked that there is room.
 */
static void assign_ids(bool *used, unsigned limit, const unsigned *old, size_t n, unsigned *out)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = UINT_MAX;
		if (old[i] < limit && !used[old[i]]) {
			out[i] = old[i];
			used[old[i]] = true;
		}
	}
	for (size_t i = 0; i < n; i++)
		for (unsigned id = 0; out[i] == UINT_MAX && id < limit; id++)
			if (!used[id]) {
				out[i] = id;
				used[id] = true;
			}
}

/*
 * Add @add (@f's configuration) to @cfg with ids from
 * assign_ids(); @shown (the view of @f, its VDs group by group) takes
 * the new ids.
 */
static void merge(const struct rcl_soft_state *state, const struct found *f,
                  const struct rcl_soft_config *add, struct rcl_soft_config *cfg,
                  struct rcl_foreign_config *shown)
{
	unsigned base = shown->dg_count ? shown->dgs[0].id : 0;
	bool dg_used[RCL_MAX_DGS] = {false}, vd_used[RCL_MAX_VDS] = {false};
	unsigned old_dg[RCL_MAX_DGS], new_dg[RCL_MAX_DGS], old_vd[RCL_MAX_VDS], new_vd[RCL_MAX_VDS];
	size_t order[RCL_MAX_VDS], n = 0;

	for (size_t d = 0; d < cfg->dg_count; d++)
		dg_used[cfg->dgs[d].id] = true;
	for (size_t v = 0; v < cfg->vd_count; v++)
		vd_used[cfg->vds[v].id] = true;
	for (size_t d = 0; d < add->dg_count; d++) {
		old_dg[d] = add->dgs[d].id;
		for (size_t v = 0; v < add->vd_count; v++)
			if (add->vds[v].dg == old_dg[d]) {
				old_vd[n] = add->vds[v].id;
				order[n++] = v;
			}
	}
	assign_ids(dg_used, RCL_MAX_DGS, old_dg, add->dg_count, new_dg);
	assign_ids(vd_used, RCL_MAX_VDS, old_vd, n, new_vd);
	for (size_t d = 0; d < add->dg_count; d++) {
		struct rcl_soft_dg *dg = &cfg->dgs[cfg->dg_count++];

		*dg = add->dgs[d];
		dg->id = shown->dgs[d].id = new_dg[d];
		for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++)
			update_slot(state, f, &dg->members[m]);
		for (unsigned k = 0; k < dg->spare_count; k++)
			update_slot(state, f, &dg->spares[k].drive);
	}
	for (size_t k = 0; k < n; k++) {
		struct rcl_soft_vd *vd = &cfg->vds[cfg->vd_count++];

		*vd = add->vds[order[k]];
		for (size_t d = 0; d < add->dg_count; d++)
			if (old_dg[d] == vd->dg) {
				vd->dg = new_dg[d];
				break;
			}
		vd->id = shown->vds[k].id = new_vd[k];
		shown->vds[k].dg = vd->dg;
	}
	for (size_t k = 0; k < add->spare_count; k++) {
		cfg->spares[cfg->spare_count] = add->spares[k];
		cfg->spare_flags[cfg->spare_count] = add->spare_flags[k];
		update_slot(state, f, &cfg->spares[cfg->spare_count++]);
	}
	/* The view numbered this configuration's groups from its first one's id. */
	for (size_t d = 0; d < shown->drive_count; d++)
		if (shown->drives[d].dg >= 0)
			shown->drives[d].dg = (int)new_dg[(unsigned)shown->drives[d].dg - base];
	qsort(cfg->vds, cfg->vd_count, sizeof(cfg->vds[0]), cmp_vd);
}

/* The GPT an md adoption gives disk @i, or NULL. */
static const struct rcl_gpt *planned_gpt(const struct found_list *list, size_t i)
{
	for (size_t k = 0; k < list->count; k++)
		for (size_t j = 0; j < list->items[k].disk_count; j++)
			if (list->items[k].disks[j] == i && list->items[k].gpts[j])
				return list->items[k].gpts[j];
	return NULL;
}

/*
 * Whether @disk gets the merged configuration @cfg: a member or spare of
 * this controller's, or a foreign drive @cfg lists. A foreign drive its
 * configuration had already dropped stays foreign, its data untouched.
 */
static bool in_merged(const struct rcl_soft_disk *disk, const struct rcl_soft_config *cfg)
{
	if (disk->kind == RCL_SOFT_DISK_OURS)
		return disk->dg >= 0 || disk->spare;
	return disk->kind == RCL_SOFT_DISK_FOREIGN &&
	       (disk->foreign == RCL_SOFT_FOREIGN_RAIDCLI ||
	        disk->foreign == RCL_SOFT_FOREIGN_MD_GPT) &&
	       config_has(cfg, &disk->gpt->disk_guid);
}

/*
 * Write @cfg to every drive in_merged() picks: one record update, so the
 * foreign drives become ours in the same two phases (foreign.h).
 */
static enum rcl_status write_records(const struct soft_ctrl *sc, const struct found_list *list,
                                     const struct rcl_soft_config *cfg, struct rcl_error *err)
{
	const struct rcl_soft_state *state = sc->state;
	struct rcl_soft_record_drive *recs = rcl_calloc(state->count + 1, sizeof(*recs));
	struct rcl_soft_record_config rc = {state->next_generation, sc->serial, NULL, 0};
	char *payload = rcl_soft_config_format(cfg, &rc.len);
	struct rcl_soft_config *check = rcl_malloc(sizeof(*check));
	enum rcl_status st = RCL_OK;
	size_t n = 0;

	if (!recs || !payload || !check) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
		goto out;
	}
	/* What the drives will load must parse: check before the first write. */
	st = rcl_soft_config_parse(payload, rc.len, "(import)", check, err);
	rc.payload = payload;
	for (size_t i = 0; i < state->count && !st; i++) {
		const struct rcl_soft_disk *disk = &state->disks[i];
		const struct rcl_gpt *gpt = planned_gpt(list, i);
		const struct rcl_gpt_part *meta = gpt ? &gpt->parts[0] : NULL;

		if (!in_merged(disk, cfg))
			continue;
		if (!meta)
			meta = &disk->gpt->parts[disk->meta];
		rcl_soft_record_drive_init(&recs[n], disk->fd, meta->first_lba * disk->sector_size,
		                           (meta->last_lba + 1 - meta->first_lba) *
		                               disk->sector_size,
		                           &disk->gpt->disk_guid);
		st = rcl_soft_record_read(&recs[n++], err);
	}
	if (!st)
		st = rcl_soft_record_update(recs, n, &rc, err);
out:
	for (size_t i = 0; i < n; i++)
		rcl_soft_record_drive_release(&recs[i]);
	rcl_free(recs);
	rcl_free(payload);
	rcl_free(check);
	return st;
}

/*
 * Step (a) of vd.h's order for adopted md arrays: each member's GPT gains
 * the metadata partition, its record slots cleared first (the free MiB may
 * hold anything). Nothing references it yet: until the records commit,
 * scan.c still finds an md member there.
 */
static enum rcl_status add_metadata_partitions(const struct rcl_soft_state *state,
                                               const struct found_list *list, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (size_t k = 0; k < list->count && !st; k++)
		for (size_t j = 0; list->items[k].adopt && j < list->items[k].disk_count && !st;
		     j++) {
			const struct rcl_soft_disk *disk = &state->disks[list->items[k].disks[j]];
			const struct rcl_gpt *gpt = list->items[k].gpts[j];

			/* Records first: whatever the free MiB held must not show as one. */
			st = rcl_soft_member_clear_records(disk->fd, disk->sector_size,
			                                   &gpt->parts[0], err);
			if (!st)
				st = rcl_gpt_write(disk->fd, gpt, err);
		}
	return st;
}

/*
 * A degraded adoption of @f: the present members' superblocks count the
 * roles no drive holds as faulty, one event on, as md's do once it runs an
 * array degraded. md then takes a left-behind drive that comes back for
 * stale, never for current after raidcli wrote without it; and a crash
 * before the records commit leaves a degraded md array that says so.
 */
static enum rcl_status mark_lost(const struct rcl_soft_state *state, const struct found *f,
                                 struct rcl_error *err)
{
	const struct rcl_soft_dg *dg = &f->adopt->dgs[0];
	const struct rcl_soft_vd *vd = &f->adopt->vds[0];
	/* Members by md role, one md array (a RAID50/60's span) after the other. */
	unsigned n = rcl_soft_dg_members(dg),
	         width = rcl_soft_nested(dg->level) ? dg->drives_per_span : n;
	bool lost[RCL_MAX_SPANS] = {false};
	struct rcl_md_super1 *sb;
	enum rcl_status st = RCL_OK;
	bool any = false;

	for (unsigned m = 0; m < n; m++)
		any |= lost[m / width] |= f->roles[m] < 0;
	if (!any)
		return RCL_OK;
	sb = rcl_malloc(sizeof(*sb));
	if (!sb)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (unsigned m = 0; m < n && !st; m++) {
		const int *roles = &f->roles[m / width * width];
		const struct rcl_soft_disk *disk;

		if (f->roles[m] < 0 || !lost[m / width])
			continue;
		disk = &state->disks[f->roles[m]];
		st = rcl_soft_md_read(disk->fd, disk->sector_size, vd, sb, err);
		for (unsigned d = 0; !st && d < sb->max_dev && d < RCL_MD_MAX_DEV; d++)
			if (sb->dev_roles[d] < sb->raid_disks && roles[sb->dev_roles[d]] < 0)
				sb->dev_roles[d] = RCL_MD_ROLE_FAULTY;
		/* Present members are as fresh as the freshest (md_shape_fits()). */
		sb->events++;
		if (!st)
			st = rcl_soft_md_rewrite(disk->fd, disk->sector_size, vd, sb, err);
	}
	rcl_free(sb);
	return st;
}

/* The bitmaps plan_bitmap() gave adopted md array @f: each present member's. */
static enum rcl_status add_bitmaps(const struct rcl_soft_state *state, const struct found *f,
                                   struct rcl_error *err)
{
	const struct rcl_soft_vd *vd = &f->adopt->vds[0];
	enum rcl_status st = RCL_OK;

	for (unsigned m = 0; m < rcl_soft_dg_members(&f->adopt->dgs[0]) && !st; m++)
		if (f->roles[m] >= 0) {
			const struct rcl_soft_disk *disk = &state->disks[f->roles[m]];

			st = rcl_soft_md_add_bitmap(disk->fd, disk->sector_size, vd, err);
		}
	return st;
}

/*
 * bitmap=internal for md array @f: when adopted without a bitmap (and not
 * RAID0, which md gives none), its VD's layout gains the one "mdadm
 * --grow --bitmap=internal" would add, @shown->adds says which, and
 * @f->add_bitmap has the import write it.
 */
static enum rcl_status plan_bitmap(struct found *f, struct rcl_foreign_config *shown,
                                   struct rcl_error *err)
{
	struct rcl_soft_vd *vd = f->adopt ? &f->adopt->vds[0] : NULL;
	uint64_t need, room;

	if (!vd || vd->md.bitmap_offset || f->md->level == RCL_MD_LEVEL_RAID0)
		return RCL_OK;
	if (!rcl_md_super1_grow_bitmap(f->md, &vd->md, &need, &room))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "cannot add an md bitmap to md array %s (VD '%s'): it needs %llu "
		                "sectors between the superblock and the %s, there are %llu",
		                f->owner, vd->name, (unsigned long long)need,
		                f->md->bblog_size ? "bad-block log" : "data",
		                (unsigned long long)room);
	f->add_bitmap = true;
	snprintf(
	    shown->adds, sizeof(shown->adds),
	    "md write-intent bitmap: %llu KiB at superblock + 8 sectors, %u KiB chunks, "
	    "bits %s",
	    (unsigned long long)rcl_md_bitmap_space(vd->md.bitmap_sync_size, vd->md.bitmap_chunk) >>
	        10,
	    vd->md.bitmap_chunk >> 10,
	    f->md->resync_offset == UINT64_MAX ? "clear (in sync)" : "set (resync)");
	return RCL_OK;
}

/*
 * Merge every configuration of @list into a copy of this controller's, in
 * @cfg; with @bitmap, adopted md arrays gain a bitmap (plan_bitmap()).
 */
static enum rcl_status plan_import(const struct rcl_soft_state *state, struct found_list *list,
                                   bool bitmap, struct rcl_foreign *shown,
                                   struct rcl_soft_config *cfg, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (size_t k = 0; k < list->count && !st; k++) {
		struct found *f = &list->items[k];
		const struct rcl_soft_config *add = f->adopt ? f->adopt : f->cfg;

		st = check_importable(state, f, &shown->configs[k], cfg, err);
		if (!st && bitmap)
			st = plan_bitmap(f, &shown->configs[k], err);
		if (!st)
			st = check_limits(cfg, add, err);
		if (!st)
			merge(state, f, add, cfg, &shown->configs[k]);
	}
	return st;
}

enum rcl_status rcl_soft_foreign_import(struct rcl_ctrl *ctrl, bool preview, bool bitmap,
                                        struct rcl_foreign *out, struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	struct rcl_soft_config *cfg = NULL;
	struct found_list list = {0};
	enum rcl_status st = rcl_soft_foreign_show(ctrl, out, err);

	if (!st && !out->count)
		st = rcl_foreign_none_found(ctrl, err);
	if (!st)
		st = rcl_soft_foreign_check_held(ctrl, err);
	if (!st)
		st = rcl_soft_foreign_find_all(sc->state, &list, err);
	if (!st && !(cfg = rcl_malloc(sizeof(*cfg))))
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	if (!st) {
		*cfg = sc->state->cfg;
		snprintf(cfg->serial, sizeof(cfg->serial), "%s", sc->serial);
		st = plan_import(sc->state, &list, bitmap, out, cfg, err);
	}
	if (!st && !preview) {
		st = add_metadata_partitions(sc->state, &list, err);
		for (size_t k = 0; k < list.count && !st; k++)
			if (list.items[k].add_bitmap)
				st = add_bitmaps(sc->state, &list.items[k], err);
		for (size_t k = 0; k < list.count && !st; k++)
			if (list.items[k].adopt)
				st = mark_lost(sc->state, &list.items[k], err);
		if (!st)
			st = write_records(sc, &list, cfg, err);
		/* Whatever happened, the drives say what is true now. */
		if (st) {
			struct rcl_error ignored = {0};

			rcl_soft_refresh(ctrl, &ignored);
		} else {
			st = rcl_soft_refresh(ctrl, err);
		}
	}
	rcl_free(cfg);
	rcl_soft_foreign_found_list_release(&list);
	return st;
}
