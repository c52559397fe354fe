// SPDX-License-Identifier: MIT
/*
 * state.c - set a soft controller's members online, offline, missing or
 * failed (see state.h), as md would record it.
 */
#include <string.h>

#include "change.h"
#include "layout.h"
#include "soft/format/md-super1.h"
#include "soft/tasks/migrate.h"
#include "spare.h"
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
	/* A replacement's superblock was written with raidcli's name: the array keeps its own. */
	memcpy(sb->set_name, roles->set_name, sizeof(sb->set_name));
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
	/* The members a removal drops keep their roles and events until it ends. */
	unsigned n = nested ? dg->drives_per_span : rcl_soft_dg_held(dg);
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

/* Whether @dg's VDs hold all their data without member @m, its other members as recorded. */
static bool survives_without(const struct rcl_soft_dg *dg, unsigned m)
{
	unsigned lost[RCL_MAX_SPANS] = {0};

	for (unsigned o = 0; o < rcl_soft_dg_members(dg); o++)
		if (o == m || dg->members[o].state != RCL_SOFT_MEMBER_ONLINE)
			lost[o / dg->drives_per_span]++;
	return rcl_raid_state(dg->level, dg->spans, dg->drives_per_span, lost) != RCL_VD_OFFLINE;
}

/*
 * A failed member set online (set online force) returns without losing
 * data, as md's members do. While its VDs hold all their data without it,
 * it is rebuilt from the others, as mdadm --re-add does: only what they
 * reconstruct is written to it, so what it missed while out is put right
 * and nothing else changes. A member they do not survive losing is taken
 * back as it is, as mdadm --assemble --force takes back failed members to
 * start an array: after a host-side error (a full file system, a file
 * briefly unreadable) its data is what it held when it failed.
 */
static bool rebuilt_on_return(const struct rcl_soft_dg *dg, unsigned m,
                              enum rcl_drive_change change)
{
	return change == RCL_DRIVE_SET_ONLINE && dg->members[m].state == RCL_SOFT_MEMBER_FAILED &&
	       survives_without(dg, m);
}

/* The events of VD @vd's md superblock on member @m's own drive; 0 when it cannot be read. */
static uint64_t own_events(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                           const struct rcl_soft_vd *vd, unsigned m)
{
	int i = rcl_soft_change_member(c, dg, m);
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	uint64_t events = 0;

	if (sb && i >= 0 &&
	    !rcl_soft_md_read(c->state->disks[i].fd, c->state->disks[i].sector_size, vd, sb,
	                      &(struct rcl_error){0}))
		events = sb->events;
	rcl_free(sb);
	return events;
}

/*
 * A failed member of @m's md array that failed after @m did, or -1: its own
 * superblock's events are ahead of @m's, as the members left counted @m's
 * failure before its. Taken back as it is, @m would serve data older than
 * that member's (mdadm --assemble --force also picks the freshest first).
 */
static int failed_later(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg, unsigned m)
{
	const struct rcl_soft_vd *vd = NULL;
	uint64_t mine;

	for (size_t v = 0; v < c->cfg->vd_count && !vd; v++)
		if (c->cfg->vds[v].dg == dg->id)
			vd = &c->cfg->vds[v];
	if (!vd)
		return -1;
	mine = own_events(c, dg, vd, m);
	for (unsigned o = 0; o < rcl_soft_dg_members(dg); o++)
		if (o != m && dg->members[o].state == RCL_SOFT_MEMBER_FAILED &&
		    rcl_soft_same_array(dg, o, m) && own_events(c, dg, vd, o) > mine)
			return (int)o;
	return -1;
}

/* A failed member taken back as it is must be the freshest of its array's (rebuilt_on_return()). */
static enum rcl_status check_return(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                    unsigned m, enum rcl_drive_change change, struct rcl_error *err)
{
	int later;

	if (change != RCL_DRIVE_SET_ONLINE || dg->members[m].state != RCL_SOFT_MEMBER_FAILED ||
	    survives_without(dg, m) || (later = failed_later(c, dg, m)) < 0)
		return RCL_OK;
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "drive %u:%u failed before drive %u:%u, whose data is newer: set that "
	                "one online first",
	                RCL_SOFT_ENCLOSURE, dg->members[m].slot, RCL_SOFT_ENCLOSURE,
	                dg->members[later].slot);
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

/*
 * Give member @m of @dg state @state, @rebuilt: to be rebuilt from the
 * others (rebuilt_on_return()); steps (a) to (c) of change.h, and end @c.
 */
static enum rcl_status change_member(struct rcl_soft_change *c, struct rcl_soft_dg *dg, unsigned m,
                                     enum rcl_soft_member_state state, bool rebuilt,
                                     struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	dg->members[m].state = state;
	dg->members[m].rebuilt_lba = rebuilt ? dg->first_lba : 0;
	for (size_t v = 0; v < c->cfg->vd_count && !st; v++) {
		if (c->cfg->vds[v].dg != dg->id)
			continue;
		st = rcl_soft_sync_roles(c, dg, &c->cfg->vds[v], m, err);
		if (!st && rebuilt)
			st = rcl_soft_mark_recovery(c, rcl_soft_change_live(c, dg, m),
			                            &c->cfg->vds[v], err);
	}
	if (!st)
		st = rcl_soft_change_write_records(c, err);
	/* A member marked missing is no member now (rcl_soft_change_member()): blank it. */
	if (!st)
		rcl_soft_change_clean_up(c);
	return rcl_soft_change_finish(c, st, err);
}

enum rcl_status rcl_soft_set_drive_state(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         enum rcl_drive_change change, struct rcl_error *err)
{
	struct rcl_soft_dg *dg;
	struct rcl_soft_change c;
	unsigned m = 0;
	bool rebuilt;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (!st)
		st = find_member(&c, ref, &dg, &m, err);
	/* A member failing is recorded: the migration halts on its I/O errors. */
	if (!st && change != RCL_DRIVE_SET_FAILED)
		st = rcl_soft_migrate_guard(dg, "changing a member's state", err);
	if (!st)
		st = check_return(&c, dg, m, change, err);
	if (st) {
		rcl_soft_change_end(&c);
		return st;
	}
	rebuilt = rebuilt_on_return(dg, m, change);
	return change_member(&c, dg, m, rebuilt ? RCL_SOFT_MEMBER_REBUILD : new_state(change),
	                     rebuilt, err);
}

enum rcl_status rcl_soft_fail_member(struct rcl_ctrl *ctrl, unsigned vd, unsigned m,
                                     const struct rcl_guid *drive, struct rcl_error *err)
{
	const struct rcl_soft_vd *v;
	struct rcl_soft_dg *dg = NULL;
	struct rcl_soft_change c;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	v = st ? NULL : rcl_soft_config_vd(c.cfg, vd);
	if (v)
		dg = rcl_soft_config_dg_mut(c.cfg, v->dg);
	if (!st && (!dg || m >= rcl_soft_dg_held(dg)))
		st = rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u has no member %u", vd, m);
	if (!st && !rcl_guid_equal(&dg->members[m].uuid, drive))
		st = rcl_fail(err, RCL_NOT_FOUND,
		              "member %u of virtual drive /v%u is another drive now", m, vd);
	if (!st && dg->members[m].state != RCL_SOFT_MEMBER_ONLINE &&
	    dg->members[m].state != RCL_SOFT_MEMBER_REBUILD)
		st = rcl_fail(err, RCL_NOT_ALLOWED,
		              "member %u of virtual drive /v%u holds no data already", m, vd);
	if (st) {
		rcl_soft_change_end(&c);
		return st;
	}
	return change_member(&c, dg, m, RCL_SOFT_MEMBER_FAILED, false, err);
}
