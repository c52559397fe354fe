// SPDX-License-Identifier: MIT
/*
 * state.c - set a soft controller's members online, offline, missing or
 * failed (see state.h), as md would record it.
 */
#include <string.h>

#include "change.h"
#include "layout.h"
#include "md-super1.h"
#include "migrate.h"
#include "state.h"

/* The record's state for @change. */
static enum rcl_soft_member_state new_state(enum rcl_drive_change change)
{
	switch (change) {
	case RCL_DRIVE_SET_ONLINE:
		return RCL_SOFT_MEMBER_ONLINE;
	case RCL_DRIVE_SET_OFFLINE:
		return RCL_SOFT_MEMBER_OFFLINE;
	case RCL_DRIVE_SET_FAILED:
		return RCL_SOFT_MEMBER_FAILED;
	default:
		return RCL_SOFT_MEMBER_MISSING;
	}
}

/* Member @m's md role in its array: its row there while it holds data, else faulty. */
static uint16_t role(const struct rcl_soft_dg *dg, unsigned m)
{
	enum rcl_soft_member_state s = dg->members[m].state;

	if (s != RCL_SOFT_MEMBER_ONLINE && s != RCL_SOFT_MEMBER_REBUILD)
		return RCL_MD_ROLE_FAULTY;
	return (uint16_t)(rcl_soft_nested(dg->level) ? m % dg->drives_per_span : m);
}

/* Disk @i's superblock of @vd with @roles' member roles and @events. */
static enum rcl_status rewrite(const struct rcl_soft_change *c, int i, const struct rcl_soft_vd *vd,
                               const struct rcl_md_super1 *roles, unsigned members,
                               struct rcl_md_super1 *sb, struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	enum rcl_status st = rcl_soft_md_read(disk->fd, disk->sector_size, vd, sb, err);

	if (st)
		return st;
	memcpy(sb->dev_roles, roles->dev_roles, members * sizeof(sb->dev_roles[0]));
	sb->events = roles->events;
	/* A member coming back takes the array's clean or active state too (volume.c). */
	sb->resync_offset = roles->resync_offset;
	return rcl_soft_md_rewrite(disk->fd, disk->sector_size, vd, sb, err);
}

/* With no member holding data there is no superblock md would trust: none is written. */
enum rcl_status rcl_soft_sync_roles(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                    const struct rcl_soft_vd *vd, unsigned m, struct rcl_error *err)
{
	bool nested = rcl_soft_nested(dg->level);
	unsigned first = nested ? m / dg->drives_per_span * dg->drives_per_span : 0;
	unsigned n = nested ? dg->drives_per_span : rcl_soft_dg_members(dg);
	struct rcl_md_super1 *best = rcl_malloc(sizeof(*best)), *sb = rcl_malloc(sizeof(*sb));
	enum rcl_status st = best && sb ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
	bool any = false;
	int from;

	for (unsigned o = first; o < first + n; o++)
		any |= rcl_soft_change_live(c, dg, o) >= 0;
	if (!st && any)
		st = rcl_soft_change_freshest(c, dg, vd, m, best, &from, err);
	if (!st && any) {
		best->events++;
		for (unsigned o = first; o < first + n; o++)
			best->dev_roles[o - first] = role(dg, o);
	}
	for (unsigned o = first; any && o < first + n && !st; o++)
		if (rcl_soft_change_live(c, dg, o) >= 0)
			st = rewrite(c, rcl_soft_change_live(c, dg, o), vd, best, n, sb, err);
	for (unsigned k = 0; any && !nested && k < dg->spare_count && !st; k++) {
		int i = rcl_soft_change_disk(c, &dg->spares[k].drive.uuid);

		if (i >= 0)
			st = rewrite(c, i, vd, best, n, sb, err);
	}
	rcl_free(best);
	rcl_free(sb);
	return st;
}

/* The disk at @ref as member *@m of the new configuration's group *@dg. */
static enum rcl_status find_member(struct rcl_soft_change *c, const struct rcl_drive_ref *ref,
                                   struct rcl_soft_dg **dg, unsigned *m, struct rcl_error *err)
{
	size_t i;
	enum rcl_status st = rcl_soft_change_find(c, ref, &i, err);
	const struct rcl_soft_disk *disk = &c->state->disks[i];

	if (st)
		return st;
	*dg = disk->dg < 0 ? NULL : rcl_soft_config_dg_mut(c->cfg, c->state->cfg.dgs[disk->dg].id);
	*m = disk->member < 0 ? 0 : (unsigned)disk->member;
	if (!*dg || (*dg)->members[*m].state == RCL_SOFT_MEMBER_MISSING)
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is no member of a disk group",
		                ref->enclosure, ref->slot);
	return RCL_OK;
}

enum rcl_status rcl_soft_set_drive_state(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         enum rcl_drive_change change, struct rcl_error *err)
{
	struct rcl_soft_member *member;
	struct rcl_soft_dg *dg;
	struct rcl_soft_change c;
	unsigned m = 0;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (!st)
		st = find_member(&c, ref, &dg, &m, err);
	/* A member failing is recorded: the migration halts on its I/O errors. */
	if (!st && change != RCL_DRIVE_SET_FAILED)
		st = rcl_soft_migrate_guard(dg, "changing a member's state", err);
	if (st) {
		rcl_soft_change_end(&c);
		return st;
	}
	member = &dg->members[m];
	member->state = new_state(change);
	member->rebuilt_lba = 0;
	for (size_t v = 0; v < c.cfg->vd_count && !st; v++)
		if (c.cfg->vds[v].dg == dg->id)
			st = rcl_soft_sync_roles(&c, dg, &c.cfg->vds[v], m, err);
	if (!st)
		st = rcl_soft_change_write_records(&c, err);
	/* A member marked missing is no member now (rcl_soft_change_member()): blank it. */
	if (!st)
		rcl_soft_change_clean_up(&c);
	return rcl_soft_change_finish(&c, st, err);
}
