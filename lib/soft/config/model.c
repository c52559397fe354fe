// SPDX-License-Identifier: MIT
/*
 * model.c - disk groups, virtual drives and drive states from the
 * configuration (see model.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "soft/host.h"
#include "soft/service/erase.h"
#include "soft/tasks/migrate.h"
#include "model.h"

static void set_member(struct rcl_drive *drive, const struct rcl_soft_dg *dg, unsigned m,
                       enum rcl_pd_state pd)
{
	drive->state = pd;
	drive->dg = (int)dg->id;
	drive->span = m / dg->drives_per_span;
	drive->row = m % dg->drives_per_span;
}

/*
 * Show missing member @m of @dg in the slot it was last seen in: on the
 * slot's entry when its backing store has vanished, on a new entry when
 * the slot is empty; a slot holding another drive shows that drive.
 */
static void add_missing(struct rcl_ctrl *ctrl, struct rcl_soft_state *state,
                        const struct rcl_soft_dg *dg, unsigned m)
{
	unsigned slot = dg->members[m].slot;
	struct rcl_drive *drive;

	for (size_t i = 0; i < ctrl->drive_count; i++)
		if (ctrl->drives[i].slot == slot) {
			if (i < state->count && state->disks[i].kind == RCL_SOFT_DISK_ABSENT)
				set_member(&ctrl->drives[i], dg, m, RCL_PD_MISSING);
			return;
		}
	drive = &ctrl->drives[ctrl->drive_count++];
	memset(drive, 0, sizeof(*drive));
	drive->enclosure = RCL_SOFT_ENCLOSURE;
	drive->slot = slot;
	drive->device_id = slot;
	snprintf(drive->interface, sizeof(drive->interface), "-");
	snprintf(drive->medium, sizeof(drive->medium), "-");
	set_member(drive, dg, m, RCL_PD_MISSING);
}

/* The drive state a present member shows in: a failed one is UBad, still in its place. */
static enum rcl_pd_state member_pd_state(enum rcl_soft_member_state state)
{
	switch (state) {
	case RCL_SOFT_MEMBER_OFFLINE:
		return RCL_PD_OFFLINE;
	case RCL_SOFT_MEMBER_FAILED:
		return RCL_PD_UBAD;
	case RCL_SOFT_MEMBER_REBUILD:
		return RCL_PD_REBUILD;
	default:
		return RCL_PD_ONLINE;
	}
}

/*
 * The drives a migration removes (rcl_soft_dg_held()) stay in the group,
 * as StorCLI shows them, in the rows past the new ones until it ends.
 */
static void fill_removed(struct rcl_ctrl *ctrl, struct rcl_soft_state *state,
                         const struct rcl_soft_dg *dg)
{
	for (unsigned m = rcl_soft_dg_members(dg); m < rcl_soft_dg_held(dg); m++) {
		struct rcl_soft_disk *disk = rcl_soft_find_member(state, dg, m);
		struct rcl_drive *drive = disk ? &ctrl->drives[disk - state->disks] : NULL;

		if (drive) {
			drive->state = member_pd_state(dg->members[m].state);
			drive->dg = (int)dg->id;
			drive->span = 0;
			drive->row = m;
		}
	}
}

/*
 * One group's members: their drive states, and the group's state. A
 * member marked missing has left its drive (UGood, or blank once the
 * change is done): its place is empty, and TOPOLOGY shows it Msng.
 */
static void fill_group(struct rcl_ctrl *ctrl, struct rcl_soft_state *state,
                       const struct rcl_soft_dg *dg, struct rcl_dg *out)
{
	unsigned lost[RCL_MAX_SPANS] = {0};

	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
		enum rcl_soft_member_state ms = dg->members[m].state;
		struct rcl_soft_disk *disk =
		    ms == RCL_SOFT_MEMBER_MISSING ? NULL : rcl_soft_find_member(state, dg, m);

		if (ms != RCL_SOFT_MEMBER_ONLINE || !disk)
			lost[m / dg->drives_per_span]++;
		if (disk)
			set_member(&ctrl->drives[disk - state->disks], dg, m, member_pd_state(ms));
		else if (ms != RCL_SOFT_MEMBER_MISSING)
			add_missing(ctrl, state, dg, m);
	}
	fill_removed(ctrl, state, dg);
	out->id = dg->id;
	out->level = dg->level;
	out->state = rcl_raid_state(dg->level, dg->spans, dg->drives_per_span, lost);
	/* Its data not yet migrated is in its old layout, which may be worse off. */
	if (dg->migrate.active && rcl_soft_migration_state(dg) > out->state)
		out->state = rcl_soft_migration_state(dg);
	for (unsigned s = 0; s < dg->spans; s++)
		out->span_states[s] = rcl_raid_state(dg->level, 1, dg->drives_per_span, &lost[s]);
	out->spans = dg->spans;
	out->drives_per_span = dg->drives_per_span;
}

static void fill_vd(const struct rcl_soft_vd *vd, const struct rcl_dg *dg, struct rcl_vd *out)
{
	struct rcl_guid g;

	memset(out, 0, sizeof(*out));
	out->id = vd->id;
	out->dg = vd->dg;
	out->level = dg->level;
	out->state = dg->state;
	snprintf(out->name, sizeof(out->name), "%s", vd->name);
	out->bytes = vd->bytes;
	out->strip_kib = vd->strip_kib;
	out->spans = dg->spans;
	out->drives_per_span = dg->drives_per_span;
	out->write = vd->write;
	out->read = vd->read;
	out->access = vd->access;
	out->disk_cache = vd->disk_cache;
	out->io = vd->io;
	out->consistent = vd->consistent;
	out->autobgi = !vd->no_autobgi;
	out->created = vd->created;
	/* mdadm's form: 32 hex digits in groups of 8 joined by ':'. */
	memcpy(g.b, vd->uuid, 16);
	for (int i = 0, pos = 0; i < 16; i++)
		pos += snprintf(out->uuid + pos, sizeof(out->uuid) - (size_t)pos, "%s%02x",
		                i && !(i % 4) ? ":" : "", g.b[i]);
}

/* Capacity and free space of each group, and its VD count. */
static void fill_space(struct rcl_soft_state *state, unsigned sector_size, struct rcl_dg *out,
                       const struct rcl_soft_dg *dg)
{
	struct rcl_soft_extent ext = rcl_soft_largest_free(&state->cfg, dg, sector_size);
	struct rcl_md_geometry geo;
	struct rcl_error ignored = {0};

	out->member_bytes = (dg->last_lba + 1 - dg->first_lba) * sector_size;
	out->free_bytes = 0;
	if (ext.lbas)
		rcl_soft_capacity(dg, 64, ext.lbas, sector_size, &geo, &out->free_bytes, &ignored);
	out->vd_count = 0;
	for (size_t i = 0; i < state->cfg.vd_count; i++)
		out->vd_count += state->cfg.vds[i].dg == dg->id;
}

/* The sector size the group's members use (that of the first one present). */
static unsigned group_sector(struct rcl_soft_state *state, const struct rcl_soft_dg *dg)
{
	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
		const struct rcl_soft_disk *disk = rcl_soft_find_member(state, dg, m);

		if (disk)
			return disk->sector_size;
	}
	return 512;
}

static int cmp_slot(const void *a, const void *b)
{
	const struct soft_slot *x = a, *y = b;

	return (x->slot > y->slot) - (x->slot < y->slot);
}

/*
 * Commit in place the record of each drive a crash left one update behind
 * (the chosen configuration PENDING on it), as md brings a stale
 * superblock up at assembly. Any load may do it: no change runs under a
 * shared lock, and the commit rewrites one header with the same bytes
 * whoever writes it. A failure (a read-only drive) leaves what the next
 * change rewrites anyway.
 */
static void roll_forward(struct rcl_soft_state *state)
{
	for (size_t i = 0; i < state->count; i++) {
		struct rcl_error ignored = {0};

		/* The verdicts stay as read: what the drives held when loading began. */
		if (state->verdicts[i].standing == RCL_SOFT_RECORD_BEHIND)
			rcl_soft_record_commit(&state->recs[i], state->verdicts[i].slot, &ignored);
	}
}

enum rcl_status rcl_soft_view_prepare(struct soft_ctrl *sc, struct rcl_soft_view *view,
                                      struct rcl_error *err)
{
	size_t members = 0;
	enum rcl_status st;

	memset(view, 0, sizeof(*view));
	qsort(sc->slots, sc->slot_count, sizeof(*sc->slots), cmp_slot);
	st = rcl_soft_scan(sc, &view->state, err);
	if (st)
		return st;
	roll_forward(view->state);
	for (size_t d = 0; d < view->state->cfg.dg_count; d++)
		members += rcl_soft_dg_members(&view->state->cfg.dgs[d]);
	view->drives = rcl_calloc(sc->slot_count + members + 1, sizeof(*view->drives));
	view->dgs = rcl_calloc(view->state->cfg.dg_count + 1, sizeof(*view->dgs));
	view->vds = rcl_calloc(view->state->cfg.vd_count + 1, sizeof(*view->vds));
	if (!view->drives || !view->dgs || !view->vds) {
		rcl_soft_view_release(view);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	return RCL_OK;
}

/* Every slot's drive as probed, not yet placed in any group. */
static void fill_slots(struct rcl_ctrl *ctrl, const struct soft_ctrl *sc)
{
	for (size_t i = 0; i < sc->slot_count; i++) {
		struct rcl_drive *drive = &ctrl->drives[i];
		const struct soft_slot *slot = &sc->slots[i];

		drive->enclosure = RCL_SOFT_ENCLOSURE;
		drive->slot = slot->slot;
		drive->device_id = slot->slot;
		/* Members and spares get their state later: only an unconfigured drive is JBOD. */
		drive->state = slot->bad ? RCL_PD_UBAD : slot->jbod ? RCL_PD_JBOD : RCL_PD_UGOOD;
		drive->dg = -1;
		drive->locate = slot->locate;
		snprintf(drive->serial, sizeof(drive->serial), "%s", slot->serial);
		snprintf(drive->wwn, sizeof(drive->wwn), "%s", slot->wwn);
		rcl_soft_probe(slot->path, sc->sector_size, drive);
		drive->media_errors += slot->media_errors;
	}
	ctrl->drive_count = sc->slot_count;
}

/* The drive of the spare whose GPT disk GUID is @uuid, or NULL when it is gone. */
static struct rcl_drive *spare_drive(struct rcl_ctrl *ctrl, const struct rcl_soft_state *state,
                                     const struct rcl_guid *uuid)
{
	struct rcl_soft_disk *disk = rcl_soft_find_disk((struct rcl_soft_state *)state, uuid);

	return disk ? &ctrl->drives[disk - state->disks] : NULL;
}

/*
 * Global hot spares show as GHS, dedicated ones as DHS with their group
 * (the lowest of a spare's several), each with its groups and flags;
 * a spare whose drive is gone is not shown.
 */
static void fill_spares(struct rcl_ctrl *ctrl, const struct rcl_soft_state *state)
{
	for (size_t i = 0; i < state->count; i++) {
		const struct rcl_soft_disk *disk = &state->disks[i];

		if (!disk->spare)
			continue;
		ctrl->drives[i].state = disk->spare_dg < 0 ? RCL_PD_GHS : RCL_PD_DHS;
		if (disk->spare_dg >= 0)
			ctrl->drives[i].dg = (int)state->cfg.dgs[disk->spare_dg].id;
	}
	for (size_t d = 0; d < state->cfg.dg_count; d++) {
		const struct rcl_soft_dg *dg = &state->cfg.dgs[d];

		for (unsigned k = 0; k < dg->spare_count; k++) {
			struct rcl_drive *drive =
			    spare_drive(ctrl, state, &dg->spares[k].drive.uuid);

			if (drive) {
				drive->spare_dgs = 1u << dg->id;
				drive->spare_flags = dg->spares[k].flags;
			}
		}
	}
	/* The record's dedicated spares (config.h) show under their first group. */
	for (size_t k = 0; k < state->cfg.spare_count; k++) {
		struct rcl_drive *drive = spare_drive(ctrl, state, &state->cfg.spares[k].uuid);
		uint32_t dgs = state->cfg.spare_dgs[k];

		if (!drive)
			continue;
		drive->spare_flags = state->cfg.spare_flags[k];
		drive->spare_dgs = dgs;
		if (dgs) {
			drive->state = RCL_PD_DHS;
			drive->dg = __builtin_ctz(dgs);
		}
	}
}

/*
 * Drives carrying a configuration raidcli could import show DG F. Those
 * holding what it cannot import and must not overwrite (a damaged GPT or
 * record, another tool's partitions, a copy) show UBad with the reason:
 * every command refuses them as such until 'set good force' erases them.
 */
static void fill_foreign(struct rcl_ctrl *ctrl, const struct rcl_soft_state *state)
{
	for (size_t i = 0; i < state->count; i++) {
		const struct rcl_soft_disk *disk = &state->disks[i];
		struct rcl_drive *drive = &ctrl->drives[i];

		if (disk->kind != RCL_SOFT_DISK_FOREIGN)
			continue;
		drive->foreign = disk->foreign != RCL_SOFT_FOREIGN_NONE;
		if (drive->foreign)
			continue;
		drive->state = RCL_PD_UBAD;
		snprintf(drive->unusable, sizeof(drive->unusable), "%s", disk->why);
	}
}

void rcl_soft_view_apply(struct rcl_ctrl *ctrl, struct soft_ctrl *sc, struct rcl_soft_view *view)
{
	const struct rcl_soft_config *cfg = &view->state->cfg;
	struct rcl_soft_state *state = view->state;

	rcl_free(ctrl->drives);
	rcl_soft_model_free(ctrl);
	ctrl->drives = view->drives;
	ctrl->dgs = view->dgs;
	ctrl->vds = view->vds;
	fill_slots(ctrl, sc);
	fill_foreign(ctrl, state);
	fill_spares(ctrl, state);
	erase_mark_drives(ctrl);
	for (size_t d = 0; d < cfg->dg_count; d++) {
		fill_group(ctrl, state, &cfg->dgs[d], &ctrl->dgs[d]);
		fill_space(state, group_sector(state, &cfg->dgs[d]), &ctrl->dgs[d], &cfg->dgs[d]);
	}
	for (size_t v = 0; v < cfg->vd_count; v++)
		for (size_t d = 0; d < cfg->dg_count; d++)
			if (ctrl->dgs[d].id == cfg->vds[v].dg)
				fill_vd(&cfg->vds[v], &ctrl->dgs[d], &ctrl->vds[v]);
	ctrl->dg_count = cfg->dg_count;
	ctrl->vd_count = cfg->vd_count;
	rcl_soft_state_free(sc->state);
	sc->state = state;
	memset(view, 0, sizeof(*view));
	if (sc->host)
		sc->host->dress(ctrl);
}

void rcl_soft_view_release(struct rcl_soft_view *view)
{
	rcl_soft_state_free(view->state);
	rcl_free(view->drives);
	rcl_free(view->dgs);
	rcl_free(view->vds);
	memset(view, 0, sizeof(*view));
}

void rcl_soft_model_free(struct rcl_ctrl *ctrl)
{
	rcl_free(ctrl->dgs);
	rcl_free(ctrl->vds);
	ctrl->dgs = NULL;
	ctrl->vds = NULL;
	ctrl->dg_count = ctrl->vd_count = 0;
}

void rcl_soft_vd_model(const struct rcl_soft_vd *vd, const struct rcl_dg *dg, struct rcl_vd *out)
{
	fill_vd(vd, dg, out);
}
