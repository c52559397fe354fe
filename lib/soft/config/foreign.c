// SPDX-License-Identifier: MIT
/*
 * foreign.c - show and delete a soft controller's foreign configurations
 * (see foreign.h). Finding them is foreign-find.c's, importing them
 * foreign-import.c's.
 */
#include <stdio.h>
#include <string.h>

#include "foreign-private.h"
#include "member.h"
#include "model.h"
#include "vd.h"
#include "soft/host.h"
#include "soft/format/le.h"

/* ---- The public view ---- */

static struct rcl_foreign_drive *add_drive(struct rcl_foreign_config *out)
{
	struct rcl_foreign_drive *d = &out->drives[out->drive_count++];

	memset(d, 0, sizeof(*d));
	d->enclosure = RCL_SOFT_ENCLOSURE;
	d->dg = -1;
	return d;
}

static void place(struct rcl_foreign_drive *d, const struct rcl_soft_disk *disk, unsigned slot)
{
	d->present = disk != NULL;
	d->slot = disk ? disk->slot : slot;
	d->bytes = disk ? disk->bytes : 0;
}

/* Group @dg of @f's configuration @cfg as group @id of the view, with its members, spares and VDs.
 */
static void view_group(const struct rcl_soft_state *state, const struct found *f,
                       const struct rcl_soft_config *cfg, const struct rcl_soft_dg *dg, unsigned id,
                       struct rcl_foreign_config *out)
{
	unsigned lost[RCL_MAX_SPANS] = {0}, sector = 512;
	struct rcl_dg *g = &out->dgs[out->dg_count++];

	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
		const struct rcl_soft_disk *disk =
		    rcl_soft_foreign_found_disk(state, f, &dg->members[m].uuid);
		struct rcl_foreign_drive *d = add_drive(out);

		place(d, disk, dg->members[m].slot);
		d->role = RCL_PD_ONLINE;
		d->dg = (int)id;
		d->span = m / dg->drives_per_span;
		d->row = m % dg->drives_per_span;
		if (disk)
			sector = disk->sector_size;
		else
			lost[d->span]++;
	}
	for (unsigned k = 0; k < dg->spare_count; k++) {
		struct rcl_foreign_drive *d = add_drive(out);

		place(d, rcl_soft_foreign_found_disk(state, f, &dg->spares[k].drive.uuid),
		      dg->spares[k].drive.slot);
		d->role = RCL_PD_DHS;
		d->dg = (int)id;
	}
	memset(g, 0, sizeof(*g));
	g->id = id;
	g->level = dg->level;
	g->state = rcl_raid_state(dg->level, dg->spans, dg->drives_per_span, lost);
	g->spans = dg->spans;
	g->drives_per_span = dg->drives_per_span;
	g->member_bytes = (dg->last_lba + 1 - dg->first_lba) * sector;
	for (size_t v = 0; v < cfg->vd_count; v++) {
		if (cfg->vds[v].dg != dg->id)
			continue;
		rcl_soft_vd_model(&cfg->vds[v], g, &out->vds[out->vd_count]);
		out->vds[out->vd_count++].dg = id;
		g->vd_count++;
	}
}

/* The drives of @f no group of its configuration names (it has none, or they were left out). */
static void view_loose(const struct rcl_soft_state *state, const struct found *f,
                       struct rcl_foreign_config *out)
{
	for (size_t k = 0; k < f->disk_count; k++) {
		const struct rcl_soft_disk *disk = &state->disks[f->disks[k]];
		bool listed = false;

		for (size_t j = 0; j < out->drive_count && !listed; j++)
			listed = out->drives[j].present && out->drives[j].slot == disk->slot;
		if (!listed) {
			struct rcl_foreign_drive *d = add_drive(out);

			place(d, disk, 0);
			d->role = RCL_PD_UGOOD;
		}
	}
}

/* The state of an md array's group @g missing @lost[span] members. */
static enum rcl_vd_state md_state(const struct rcl_dg *g, const unsigned *lost)
{
	struct rcl_soft_dg dg = {
	    .level = g->level, .spans = g->spans, .drives_per_span = g->drives_per_span};

	return rcl_raid_state(dg.level, dg.spans, dg.drives_per_span, lost);
}

/* An md array: one group with one VD, members by md role. */
static void view_md(const struct rcl_soft_state *state, const struct found *f, unsigned id,
                    struct rcl_foreign_config *out)
{
	const struct rcl_md_super1 *sb = f->md;
	struct rcl_dg *g = &out->dgs[out->dg_count++];
	struct rcl_vd *v = &out->vds[out->vd_count++];
	unsigned lost[RCL_MAX_SPANS] = {0};
	unsigned n = sb->raid_disks < RCL_SOFT_MAX_MEMBERS ? sb->raid_disks : 0;
	const char *name = strchr(sb->set_name, ':');

	memset(g, 0, sizeof(*g));
	memset(v, 0, sizeof(*v));
	rcl_soft_foreign_md_level(sb, &g->level);
	v->level = g->level;
	g->id = v->dg = id;
	g->spans = g->level == RCL_RAID10 && n >= 2 && n / 2 <= RCL_MAX_SPANS ? n / 2 : 1;
	g->drives_per_span = n / g->spans;
	g->vd_count = 1;
	for (unsigned r = 0; r < n; r++) {
		struct rcl_foreign_drive *d = add_drive(out);

		place(d, f->roles[r] >= 0 ? &state->disks[f->roles[r]] : NULL, 0);
		d->role = RCL_PD_ONLINE;
		d->dg = (int)id;
		d->span = r / g->drives_per_span;
		d->row = r % g->drives_per_span;
		lost[d->span] += !d->present;
	}
	g->state = md_state(g, lost);
	g->member_bytes = sb->data_size * 512;
	v->state = g->state;
	v->bytes = (sb->size ? sb->size : sb->data_size) * 512 * g->spans *
	           rcl_raid_span_data_drives(v->level, g->drives_per_span);
	v->strip_kib = sb->chunksize / 2;
	v->consistent = sb->resync_offset == UINT64_MAX;
	v->created = (time_t)(sb->ctime & ((1ull << 40) - 1));
	v->spans = g->spans;
	v->drives_per_span = g->drives_per_span;
	snprintf(v->name, sizeof(v->name), "%.15s", name ? name + 1 : sb->set_name);
	rcl_soft_foreign_md_uuid_text(sb->set_uuid, v->uuid, sizeof(v->uuid));
}

void rcl_soft_foreign_lacks_drives(const struct rcl_foreign_config *c, char *why, size_t size)
{
	*why = '\0';
	for (size_t d = 0; d < c->dg_count && !*why; d++)
		if (c->dgs[d].state == RCL_VD_OFFLINE)
			snprintf(why, size,
			         "Incomplete foreign configuration: a %s group of controller %s "
			         "lacks more drives than it can lose; add them and try again",
			         rcl_raid_level_name(c->dgs[d].level), c->owner);
}

static enum rcl_status view(const struct rcl_soft_state *state, const struct found_list *list,
                            struct rcl_foreign *out, struct rcl_error *err)
{
	unsigned next_dg = 0;

	memset(out, 0, sizeof(*out));
	out->configs = rcl_calloc(list->count + 1, sizeof(*out->configs));
	if (!out->configs)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t k = 0; k < list->count; k++) {
		const struct found *f = &list->items[k];
		struct rcl_foreign_config *c = &out->configs[out->count++];
		size_t room =
		    f->disk_count + RCL_SOFT_MAX_MEMBERS * RCL_MAX_DGS + RCL_MAX_HOT_SPARES;

		snprintf(c->owner, sizeof(c->owner), "%s", f->owner);
		c->source = f->source;
		snprintf(c->problem, sizeof(c->problem), "%s", f->problem);
		c->drives = rcl_calloc(room, sizeof(*c->drives));
		if (!c->drives) {
			rcl_foreign_release(out);
			return rcl_fail(err, RCL_NOMEM, "out of memory");
		}
		/* An md RAID0 over RAID0/5/6 arrays shows as the RAID00/50/60 it becomes. */
		if (f->top)
			view_group(state, f, f->adopt, &f->adopt->dgs[0], next_dg++, c);
		else if (f->md)
			view_md(state, f, next_dg++, c);
		for (size_t d = 0; f->cfg && d < f->cfg->dg_count; d++)
			view_group(state, f, f->cfg, &f->cfg->dgs[d], next_dg++, c);
		for (size_t s = 0; f->cfg && s < f->cfg->spare_count; s++) {
			struct rcl_foreign_drive *d = add_drive(c);

			place(d, rcl_soft_foreign_found_disk(state, f, &f->cfg->spares[s].uuid),
			      f->cfg->spares[s].slot);
			d->role = RCL_PD_GHS;
		}
		view_loose(state, f, c);
		c->complete = true;
		for (size_t d = 0; d < c->drive_count; d++)
			c->complete &= c->drives[d].present;
		if (!c->problem[0])
			rcl_soft_foreign_lacks_drives(c, c->problem, sizeof(c->problem));
	}
	return RCL_OK;
}

static enum rcl_status refresh_if_stale(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;

	return sc->stale ? rcl_soft_refresh(ctrl, err) : RCL_OK;
}

enum rcl_status rcl_soft_foreign_show(struct rcl_ctrl *ctrl, struct rcl_foreign *out,
                                      struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	struct found_list list;
	enum rcl_status st = refresh_if_stale(ctrl, err);

	if (!st)
		st = rcl_soft_foreign_find_all(sc->state, &list, err);
	if (st)
		return st;
	st = view(sc->state, &list, out, err);
	rcl_soft_foreign_found_list_release(&list);
	return st;
}

/* ---- Delete ---- */

static enum rcl_status zero_range(int fd, uint64_t off, uint64_t len, struct rcl_error *err)
{
	uint8_t *buf = rcl_calloc(1, (size_t)len);
	enum rcl_status st;

	if (!buf)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_soft_write(fd, buf, (size_t)len, off, "foreign metadata", err);
	rcl_free(buf);
	return st;
}

/*
 * md metadata on the whole drive: every place md keeps a superblock
 * (v1.1 at 0, v1.2 at 4 KiB, v1.0 and 0.90 near the end) that holds one.
 */
static enum rcl_status wipe_md_disk(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	uint64_t sectors = disk->bytes / 512;
	uint64_t at[] = {0, 4096, ((sectors - 16) & ~7ull) * 512,
	                 ((sectors & ~127ull) - 128) * 512};
	enum rcl_status st = RCL_OK;

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]) && !st; i++) {
		uint8_t magic[4];
		struct rcl_error ignored = {0};

		if (!rcl_soft_read(disk->fd, magic, sizeof(magic), at[i], &ignored) &&
		    rcl_get_le32(magic) == RCL_MD_SB_MAGIC)
			st = zero_range(disk->fd, at[i], RCL_MD_SB_AREA, err);
	}
	return st ? st : rcl_soft_sync(disk->fd, "md superblock", err);
}

/* md members in GPT partitions: their superblocks, then both copies of the GPT. */
static enum rcl_status wipe_md_gpt(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	const struct rcl_gpt *gpt = disk->gpt;
	uint64_t tail = (gpt->last_usable + 1) * disk->sector_size;
	enum rcl_status st = RCL_OK;

	for (unsigned i = 0; i < RCL_GPT_MAX_PARTS && !st; i++)
		if (rcl_guid_equal(&gpt->parts[i].type, &rcl_gpt_type_linux_raid))
			st = zero_range(disk->fd,
			                gpt->parts[i].first_lba * disk->sector_size +
			                    RCL_MD_SUPER1_2_OFFSET * 512,
			                RCL_MD_SB_AREA, err);
	if (!st)
		st = rcl_soft_sync(disk->fd, "md superblock", err);
	if (!st)
		st = zero_range(disk->fd, 0, gpt->first_usable * disk->sector_size, err);
	if (!st && tail < disk->bytes)
		st = zero_range(disk->fd, tail, disk->bytes - tail, err);
	return st ? st : rcl_soft_sync(disk->fd, "GPT", err);
}

static enum rcl_status wipe(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	switch (disk->foreign) {
	case RCL_SOFT_FOREIGN_RAIDCLI:
		return rcl_soft_member_blank(disk, err);
	case RCL_SOFT_FOREIGN_MD_DISK:
		return wipe_md_disk(disk, err);
	case RCL_SOFT_FOREIGN_MD_GPT:
		return wipe_md_gpt(disk, err);
	case RCL_SOFT_FOREIGN_NONE:
		break;
	}
	return RCL_OK;
}

enum rcl_status rcl_soft_foreign_check_held(const struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	const struct soft_ctrl *sc = ctrl->priv;
	const char **paths = rcl_calloc(sc->state->count + 1, sizeof(*paths));
	size_t n = 0;
	enum rcl_status st;

	if (!paths)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < sc->state->count; i++)
		if (sc->state->disks[i].kind == RCL_SOFT_DISK_FOREIGN)
			paths[n++] = sc->state->disks[i].path;
	st = rcl_soft_check_held_elsewhere(ctrl, paths, n, err);
	rcl_free(paths);
	return st;
}

enum rcl_status rcl_soft_foreign_delete(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	struct rcl_error ignored = {0};
	enum rcl_status st = rcl_soft_foreign_check_held(ctrl, err);

	if (st)
		return st; /* nothing written */

	for (size_t i = 0; !st && i < sc->state->count; i++)
		if (sc->state->disks[i].kind == RCL_SOFT_DISK_FOREIGN)
			st = wipe(&sc->state->disks[i], err);
	/* Whatever happened, the drives say what is true now. */
	if (st)
		rcl_soft_refresh(ctrl, &ignored);
	else
		st = rcl_soft_refresh(ctrl, err);
	return st;
}
