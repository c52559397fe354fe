// SPDX-License-Identifier: MIT
/*
 * spare.c - a soft controller's hot spares, global and dedicated (see
 * spare.h), changed in change.h's order.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "change.h"
#include "layout.h"
#include "soft/format/md-super1.h"
#include "member.h"
#include "soft/tasks/migrate.h"
#include "spare.h"
#include "state.h"

/* Drop entry @k of @cfg's spares (global or the record's dedicated ones). */
static void drop_record_spare(struct rcl_soft_config *cfg, size_t k)
{
	size_t after = cfg->spare_count - k - 1;

	memmove(&cfg->spares[k], &cfg->spares[k + 1], after * sizeof(cfg->spares[0]));
	memmove(&cfg->spare_dgs[k], &cfg->spare_dgs[k + 1], after * sizeof(cfg->spare_dgs[0]));
	memmove(&cfg->spare_flags[k], &cfg->spare_flags[k + 1],
	        after * sizeof(cfg->spare_flags[0]));
	cfg->spare_count--;
}

/* A redundant level rebuilds onto a spare; RAID0 and RAID00 have nothing to rebuild. */
enum rcl_status rcl_soft_spare_check_level(enum rcl_raid_level level, struct rcl_error *err)
{
	if (rcl_raid_span_level(level) == RCL_RAID0)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "a %s disk group takes no dedicated spare: it cannot rebuild",
		                rcl_raid_level_name(level));
	return RCL_OK;
}

/*
 * Whether a spare of @dg can join md's arrays as md's own spare: a spare
 * of one array. A RAID50/60 span array's spare would serve that span
 * alone, and a drive's partitions can hold one group's VDs, so spares of
 * those groups, and of several groups, are the record's only (config.h).
 */
static bool md_spare(const struct rcl_soft_dg *dg, uint32_t dgs)
{
	return !rcl_soft_nested(dg->level) && !(dgs & (dgs - 1));
}

/*
 * Refuse a spare that could not stand in for a member of @dg (of sector
 * size @ss, 0 for that of a present member): StorCLI's rule, as md's
 * rebuild needs the group's extent on it.
 */
static enum rcl_status check_fits(const struct rcl_soft_change *c, const struct rcl_soft_disk *disk,
                                  const struct rcl_drive_ref *ref, const struct rcl_soft_dg *dg,
                                  unsigned ss, struct rcl_error *err)
{
	const struct rcl_soft_disk *member = ss ? NULL : rcl_soft_change_any_member(c, dg);
	struct rcl_gpt gpt;
	/* The group's extent, as it is: an adopted md group's need not end on a MiB. */
	enum rcl_status st = rcl_gpt_init(&gpt, disk->bytes, disk->sector_size, err);

	if (member)
		ss = member->sector_size;
	if (!st && (gpt.last_usable < dg->last_lba || (ss && ss != disk->sector_size)))
		st = rcl_fail(err, RCL_DRIVE_TOO_SMALL,
		              "drive %u:%u is too small to replace a member of disk group %u",
		              ref->enclosure, ref->slot, dg->id);
	return st;
}

/* A new spare for the groups whose ids @dgs has (0: a global one, which must fit every group). */
static enum rcl_status check_new_spare(const struct rcl_soft_change *c,
                                       const struct rcl_drive_ref *ref, size_t i, bool force,
                                       uint32_t dgs, unsigned ss, struct rcl_error *err)
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
		st = rcl_soft_check_blank(disk, ref, err);
	for (size_t d = 0; !st && d < c->cfg->dg_count; d++)
		if (!dgs || (dgs & (1u << c->cfg->dgs[d].id)))
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

/*
 * Make disk @i a new dedicated spare of @dg in the configuration, serving
 * as @flags say (its GUID comes later).
 */
static enum rcl_status append_spare(struct rcl_soft_change *c, struct rcl_soft_dg *dg, size_t i,
                                    unsigned flags, struct rcl_error *err)
{
	struct rcl_soft_spare *spare = &dg->spares[dg->spare_count];
	enum rcl_status st = free_dev(dg, &spare->dev, err);

	if (st)
		return st;
	memset(&spare->drive, 0, sizeof(spare->drive));
	spare->drive.slot = c->state->disks[i].slot;
	spare->flags = flags;
	c->fresh[i] = true;
	dg->spare_count++;
	return RCL_OK;
}

/*
 * Make disk @i a new global spare, or one of the groups @dgs has that md
 * does not know, serving as @flags say.
 */
static struct rcl_soft_member *append_record_spare(struct rcl_soft_change *c, size_t i,
                                                   uint32_t dgs, unsigned flags)
{
	struct rcl_soft_member *spare = &c->cfg->spares[c->cfg->spare_count];

	memset(spare, 0, sizeof(*spare));
	spare->slot = c->state->disks[i].slot;
	c->cfg->spare_flags[c->cfg->spare_count] = flags;
	c->cfg->spare_dgs[c->cfg->spare_count++] = dgs;
	c->fresh[i] = true;
	return spare;
}

/* Whether @spare is new in this change: its drive has no GPT yet, so no GUID. */
static bool is_new(const struct rcl_soft_member *spare)
{
	static const struct rcl_guid none;

	return !memcmp(&spare->uuid, &none, sizeof(none));
}

/* Its own GPT with the metadata partition alone, for new record spare @spare on disk @i. */
static enum rcl_status write_record_spare(struct rcl_soft_change *c, size_t i,
                                          struct rcl_soft_member *spare, struct rcl_error *err)
{
	enum rcl_status st = rcl_soft_change_write_gpt(c, i, NULL, err);

	if (!st)
		spare->uuid = c->gpts[i]->disk_guid;
	return st;
}

/* add vd ... spares=: the new group's dedicated spares, checked and listed. */
enum rcl_status rcl_soft_spares_pick(struct rcl_soft_change *c, const struct rcl_vd_params *p,
                                     struct rcl_soft_dg *dg, struct rcl_error *err)
{
	unsigned ss = 0;
	enum rcl_status st = RCL_OK;

	for (size_t m = 0; m < c->state->count && !ss; m++)
		if (c->fresh[m])
			ss = c->state->disks[m].sector_size;
	for (size_t k = 0; k < p->spare_count && !st; k++) {
		size_t i;

		st = rcl_soft_change_find(c, &p->spares[k], &i, err);
		if (!st)
			st = check_new_spare(c, &p->spares[k], i, p->force, 1u << dg->id, ss, err);
		if (!st && md_spare(dg, 1u << dg->id))
			st = append_spare(c, dg, i, 0, err);
		else if (!st)
			append_record_spare(c, i, 1u << dg->id, 0);
	}
	return st;
}

/* The disk of @dg's spare @k: by GUID, or, new in this change, by slot. */
static int spare_disk(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg, unsigned k)
{
	int i = rcl_soft_change_disk(c, &dg->spares[k].drive.uuid);

	for (size_t d = 0; i < 0 && d < c->state->count; d++)
		if (c->fresh[d] && !c->gpts[d] &&
		    c->state->disks[d].slot == dg->spares[k].drive.slot)
			i = (int)d;
	return i;
}

/*
 * Step (a) for VD @vd: spare @k of @dg joins the array as "mdadm --add"
 * leaves it. The spare's superblock first (nothing refers to it yet), then
 * the members' and the earlier spares' with events one up: md takes the
 * roles from the superblock with the highest events, and each says the
 * same.
 */
static enum rcl_status join_spare(struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                  const struct rcl_soft_vd *vd, unsigned k, struct rcl_error *err)
{
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	int from, spare = spare_disk(c, dg, k);
	enum rcl_status st = sb ? rcl_soft_change_freshest(c, dg, vd, 0, sb, &from, err)
	                        : rcl_fail(err, RCL_NOMEM, "out of memory");
	uint64_t events = st ? 0 : sb->events + 1;

	if (!st) {
		sb->events = events;
		st = rcl_soft_md_write_spare(c->state->disks[spare].fd, c->state->disks[from].fd,
		                             c->state->disks[spare].sector_size, vd, sb,
		                             dg->spares[k].dev, err);
	}
	/* Not a member md has kicked: md writes nothing to it either. */
	for (unsigned m = 0; m < rcl_soft_dg_held(dg) && !st; m++)
		if (rcl_soft_change_live(c, dg, m) >= 0)
			st = rcl_soft_change_bump(c, rcl_soft_change_live(c, dg, m), vd, events, sb,
			                          err);
	for (unsigned o = 0; o < k && !st; o++)
		if (spare_disk(c, dg, o) >= 0)
			st = rcl_soft_change_bump(c, spare_disk(c, dg, o), vd, events, sb, err);
	rcl_free(sb);
	return st;
}

enum rcl_status rcl_soft_spares_rejoin(struct rcl_soft_change *c, struct rcl_soft_dg *dg,
                                       const struct rcl_soft_vd *vd, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	/* Numbers taken by members go first, so that the free ones are known. */
	for (unsigned k = 0; k < dg->spare_count; k++)
		if (dg->spares[k].dev < rcl_soft_dg_members(dg))
			dg->spares[k].dev = UINT_MAX;
	for (unsigned k = 0; k < dg->spare_count && !st; k++) {
		unsigned dev;

		if (dg->spares[k].dev != UINT_MAX)
			continue;
		st = free_dev(dg, &dev, err);
		dg->spares[k].dev = dev;
	}
	for (unsigned k = 0; k < dg->spare_count && !st; k++)
		if (spare_disk(c, dg, k) >= 0)
			st = join_spare(c, dg, vd, k, err);
	return st;
}

/*
 * Step (a) for a new VD @vd of @dg: each present spare gets its partition,
 * then joins; the record's spares picked in this change get their GPT.
 */
enum rcl_status rcl_soft_spares_write(struct rcl_soft_change *c, struct rcl_soft_dg *dg,
                                      const struct rcl_soft_vd *vd, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (size_t k = 0; k < c->cfg->spare_count && !st; k++)
		for (size_t i = 0; i < c->state->count && !st; i++)
			if (c->fresh[i] && !c->gpts[i] && is_new(&c->cfg->spares[k]) &&
			    c->state->disks[i].slot == c->cfg->spares[k].slot)
				st = write_record_spare(c, i, &c->cfg->spares[k], err);

	for (unsigned k = 0; k < dg->spare_count && !st; k++) {
		int i = spare_disk(c, dg, k);

		if (i < 0)
			continue; /* a missing spare: nothing to write */
		st = rcl_soft_change_write_gpt(c, (size_t)i, dg, err);
		if (!st && c->fresh[i])
			dg->spares[k].drive.uuid = c->gpts[i]->disk_guid;
		if (!st)
			st = join_spare(c, dg, vd, k, err);
	}
	return st;
}

/* A new spare in the record only (global with @dgs 0): the metadata partition alone. */
static enum rcl_status add_record_spare(struct rcl_soft_change *c, size_t i, uint32_t dgs,
                                        unsigned flags, struct rcl_error *err)
{
	return write_record_spare(c, i, append_record_spare(c, i, dgs, flags), err);
}

/* A new dedicated spare of @dg: the group's GPT entries, then it joins each VD. */
static enum rcl_status add_dedicated(struct rcl_soft_change *c, size_t i, struct rcl_soft_dg *dg,
                                     unsigned flags, struct rcl_error *err)
{
	enum rcl_status st = append_spare(c, dg, i, flags, err);
	unsigned k = dg->spare_count - 1;

	if (!st)
		st = rcl_soft_change_write_gpt(c, i, dg, err);
	if (!st)
		dg->spares[k].drive.uuid = c->gpts[i]->disk_guid;
	for (size_t v = 0; v < c->cfg->vd_count && !st; v++)
		if (c->cfg->vds[v].dg == dg->id)
			st = join_spare(c, dg, &c->cfg->vds[v], k, err);
	return st;
}

/*
 * The groups @dgs names for a dedicated spare, as a mask of their ids (0:
 * global), each fit to have one; *@dg the first.
 */
static enum rcl_status spare_groups(struct rcl_soft_change *c, const unsigned *dgs, size_t dg_count,
                                    uint32_t *mask, struct rcl_soft_dg **dg, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	*mask = 0;
	*dg = NULL;
	for (size_t k = 0; k < dg_count && !st; k++) {
		struct rcl_soft_dg *g = rcl_soft_config_dg_mut(c->cfg, dgs[k]);

		if (!g)
			return rcl_fail(err, RCL_NOT_FOUND, "disk group %u not found", dgs[k]);
		if (*mask & (1u << g->id))
			return rcl_fail(err, RCL_INVALID_PARAM, "dgs= names disk group %u twice",
			                g->id);
		st = rcl_soft_spare_check_level(g->level, err);
		if (!st)
			st = rcl_soft_migrate_guard(g, "a dedicated hot spare", err);
		*mask |= 1u << g->id;
		if (!*dg)
			*dg = g;
	}
	return st;
}

enum rcl_status rcl_soft_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const unsigned *dgs, size_t dg_count, unsigned flags,
                                      bool force, struct rcl_error *err)
{
	struct rcl_soft_dg *dg = NULL;
	struct rcl_soft_change c;
	uint32_t mask = 0;
	size_t i = 0;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (!st)
		st = rcl_soft_change_find(&c, ref, &i, err);
	if (!st)
		st = spare_groups(&c, dgs, dg_count, &mask, &dg, err);
	if (!st)
		st = check_new_spare(&c, ref, i, force, mask, 0, err);
	if (st) {
		rcl_soft_change_end(&c);
		return st; /* nothing written */
	}
	if (dg && md_spare(dg, mask))
		st = add_dedicated(&c, i, dg, flags, err);
	else
		st = add_record_spare(&c, i, mask, flags, err);
	if (!st)
		st = rcl_soft_change_write_records(&c, err);
	return rcl_soft_change_finish(&c, st, err);
}

void rcl_soft_spares_forget_dg(struct rcl_soft_config *cfg, unsigned id)
{
	for (size_t k = 0; k < cfg->spare_count; k++) {
		if (!(cfg->spare_dgs[k] & (1u << id)))
			continue;
		cfg->spare_dgs[k] &= ~(1u << id);
		if (!cfg->spare_dgs[k])
			drop_record_spare(cfg, k--);
	}
}

/* Drop disk @i from @cfg's spares, global or dedicated. Return: false if it is none. */
static bool drop_spare(const struct rcl_soft_change *c, struct rcl_soft_config *cfg, size_t i)
{
	for (size_t k = 0; k < cfg->spare_count; k++)
		if (rcl_soft_change_disk(c, &cfg->spares[k].uuid) == (int)i) {
			drop_record_spare(cfg, k);
			return true;
		}
	for (size_t d = 0; d < cfg->dg_count; d++) {
		struct rcl_soft_dg *dg = &cfg->dgs[d];

		for (unsigned k = 0; k < dg->spare_count; k++)
			if (rcl_soft_change_disk(c, &dg->spares[k].drive.uuid) == (int)i) {
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
	struct rcl_soft_change c;
	size_t i = 0;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (!st)
		st = rcl_soft_change_find(&c, ref, &i, err);
	if (!st && !drop_spare(&c, c.cfg, i))
		st = rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is not a hot spare",
		              ref->enclosure, ref->slot);
	if (st) {
		rcl_soft_change_end(&c);
		return st;
	}
	/*
	 * The drive gets the new record too (rcl_soft_change_write_records()),
	 * then rcl_soft_change_clean_up() blanks it, its md superblocks first.
	 * The members' superblocks keep its device number as "spare", md's
	 * word for a free one.
	 */
	st = rcl_soft_change_write_records(&c, err);
	if (!st)
		rcl_soft_change_clean_up(&c);
	return rcl_soft_change_finish(&c, st, err);
}

/* ---- A spare takes a member's place ---- */

/* Whether a spare with @flags in slot @spare may stand in for the member last in slot @member. */
static bool may_serve(unsigned flags, unsigned spare, unsigned member,
                      unsigned (*encl_of)(unsigned))
{
	return !(flags & RCL_SPARE_ENCL_AFFINITY) || encl_of(spare) == encl_of(member);
}

size_t rcl_soft_spare_order(const struct rcl_soft_config *cfg, unsigned dg_id, unsigned slot,
                            unsigned (*encl_of)(unsigned slot), struct rcl_guid *out)
{
	const struct rcl_soft_dg *dg = rcl_soft_config_dg(cfg, dg_id);
	size_t n = 0;

	for (unsigned k = 0; dg && k < dg->spare_count; k++)
		if (may_serve(dg->spares[k].flags, dg->spares[k].drive.slot, slot, encl_of))
			out[n++] = dg->spares[k].drive.uuid;
	for (int global = 0; global < 2; global++)
		for (size_t k = 0; k < cfg->spare_count; k++)
			if ((global ? !cfg->spare_dgs[k] : (cfg->spare_dgs[k] & (1u << dg_id))) &&
			    may_serve(cfg->spare_flags[k], cfg->spares[k].slot, slot, encl_of))
				out[n++] = cfg->spares[k].uuid;
	return n;
}

/* Every slot of a soft controller is in its one enclosure. */
static unsigned soft_enclosure(unsigned slot)
{
	(void)slot;
	return RCL_SOFT_ENCLOSURE;
}

/*
 * The disk of the spare that replaces member @m of @dg, in
 * rcl_soft_spare_order()'s order; present and big enough. -1 when there
 * is none.
 */
static int pick_spare(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg, unsigned m)
{
	struct rcl_guid order[RCL_MAX_HOT_SPARES * 2];
	size_t n = rcl_soft_spare_order(&c->state->cfg, dg->id, dg->members[m].slot, soft_enclosure,
	                                order);

	for (size_t k = 0; k < n; k++) {
		int i = rcl_soft_change_disk(c, &order[k]);
		struct rcl_drive_ref ref = {.enclosure = RCL_SOFT_ENCLOSURE};
		struct rcl_error quiet = {0};

		if (i < 0)
			continue;
		ref.slot = c->state->disks[i].slot;
		if (!check_fits(c, &c->state->disks[i], &ref, dg, 0, &quiet))
			return i;
	}
	return -1;
}

/*
 * VD @vd's md superblock on disk @i: its member recovering from the start
 * (@recovering: recovery offset 0, md rebuilds it before trusting it), or
 * in sync (no recovery offset, as md writes a member whose recovery ended).
 */
static enum rcl_status set_recovery(const struct rcl_soft_change *c, int i,
                                    const struct rcl_soft_vd *vd, bool recovering,
                                    struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = i < 0 ? NULL : &c->state->disks[i];
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	enum rcl_status st = !sb     ? rcl_fail(err, RCL_NOMEM, "out of memory")
	                     : !disk ? rcl_fail(err, RCL_NOT_FOUND, "the member's drive is missing")
	                             : rcl_soft_md_read(disk->fd, disk->sector_size, vd, sb, err);

	if (!st) {
		if (recovering)
			sb->feature_map |= RCL_MD_FEATURE_RECOVERY_OFFSET;
		else
			sb->feature_map &= ~(uint32_t)RCL_MD_FEATURE_RECOVERY_OFFSET;
		sb->recovery_offset = 0;
		st = rcl_soft_md_rewrite(disk->fd, disk->sector_size, vd, sb, err);
	}
	rcl_free(sb);
	return st;
}

enum rcl_status rcl_soft_mark_recovery(const struct rcl_soft_change *c, int i,
                                       const struct rcl_soft_vd *vd, struct rcl_error *err)
{
	return set_recovery(c, i, vd, true, err);
}

/*
 * Step (a) of a replacement: disk @i gets @dg's GPT and, per VD, member
 * @m's superblock. With its GPT's disk GUID the drive is member @m, so the
 * roles synced next reach its superblock too: it joins the array at the
 * others' events, and with the array's name (rcl_soft_sync_roles()).
 */
static enum rcl_status write_replacement(struct rcl_soft_change *c, size_t i,
                                         struct rcl_soft_dg *dg, unsigned m, struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	enum rcl_status st = rcl_soft_change_write_gpt(c, i, dg, err);

	if (!st)
		dg->members[m].uuid = c->gpts[i]->disk_guid;

	for (size_t v = 0; v < c->cfg->vd_count && !st; v++) {
		const struct rcl_soft_vd *vd = &c->cfg->vds[v];

		if (vd->dg != dg->id)
			continue;
		st = rcl_soft_member_write_md(disk->fd, disk->sector_size, c->cfg->serial, dg, vd,
		                              m, err);
		if (!st)
			st = rcl_soft_sync_roles(c, dg, vd, m, err);
		if (!st)
			st = rcl_soft_mark_recovery(c, (int)i, vd, err);
	}
	return st;
}

/*
 * The unconfigured drive @onto, to take a member's place in @dg: a new GPT
 * (fresh) for it. Return: its disk index, or -1 with @err set.
 */
static int pick_drive(struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                      const struct rcl_drive_ref *onto, struct rcl_error *err)
{
	size_t i;

	if (rcl_soft_change_find(c, onto, &i, err))
		return -1;
	if (c->state->disks[i].dg >= 0 || c->state->disks[i].spare) {
		rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is not unconfigured", onto->enclosure,
		         onto->slot);
		return -1;
	}
	if (check_fits(c, &c->state->disks[i], onto, dg, 0, err))
		return -1;
	c->fresh[i] = true;
	return (int)i;
}

enum rcl_status rcl_soft_replace_member(struct rcl_ctrl *ctrl, unsigned dg_id, unsigned m,
                                        const struct rcl_drive_ref *onto,
                                        struct rcl_drive_ref *spare, struct rcl_error *err)
{
	struct rcl_soft_change c;
	struct rcl_soft_dg *dg;
	int i = -1;
	unsigned old;
	bool failed;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (st)
		return st;
	dg = rcl_soft_config_dg_mut(c.cfg, dg_id);
	if (!dg || m >= rcl_soft_dg_members(dg) || rcl_raid_span_level(dg->level) == RCL_RAID0)
		st = rcl_fail(err, RCL_NOT_FOUND, "disk group %u has no member %u to rebuild",
		              dg_id, m);
	else if (dg->members[m].state == RCL_SOFT_MEMBER_ONLINE ||
	         dg->members[m].state == RCL_SOFT_MEMBER_REBUILD)
		st = rcl_fail(err, RCL_NOT_ALLOWED, "member %u of disk group %u holds data", m,
		              dg_id);
	else if (onto && (i = pick_drive(&c, dg, onto, err)) < 0)
		st = err->status;
	else if (!onto && (i = pick_spare(&c, dg, m)) < 0)
		st = rcl_fail(err, RCL_NOT_FOUND,
		              "no hot spare can replace member %u of disk group %u", m, dg_id);
	if (st) {
		rcl_soft_change_end(&c);
		return st;
	}
	failed = dg->members[m].state == RCL_SOFT_MEMBER_FAILED;
	old = dg->members[m].slot;
	drop_spare(&c, c.cfg, (size_t)i);
	/* An unconfigured drive has no GPT yet: it gets its GUID with the new one. */
	dg->members[m] = (struct rcl_soft_member){.uuid = onto ? (struct rcl_guid){{0}}
	                                                       : c.state->disks[i].gpt->disk_guid,
	                                          .slot = c.state->disks[i].slot,
	                                          .state = RCL_SOFT_MEMBER_REBUILD,
	                                          .rebuilt_lba = dg->first_lba};
	*spare =
	    (struct rcl_drive_ref){.enclosure = RCL_SOFT_ENCLOSURE, .slot = dg->members[m].slot};
	st = write_replacement(&c, (size_t)i, dg, m, err);
	if (!st)
		st = rcl_soft_change_write_records(&c, err);
	/* The replaced drive is in no group now: it is blanked, unconfigured (UBad if it failed).
	 */
	if (!st)
		rcl_soft_change_clean_up(&c);
	st = rcl_soft_change_finish(&c, st, err);
	if (!st && failed)
		(void)rcl_soft_mark_bad(ctrl, old, &(struct rcl_error){0});
	return st;
}

/* Begin change @c of rebuilding member @m of group @dg_id, whose record is *@dg. */
static enum rcl_status begin_rebuilt(struct rcl_ctrl *ctrl, unsigned dg_id, unsigned m,
                                     struct rcl_soft_change *c, struct rcl_soft_dg **dg,
                                     struct rcl_error *err)
{
	enum rcl_status st = rcl_soft_change_begin(ctrl, c, err);

	if (st)
		return st;
	*dg = rcl_soft_config_dg_mut(c->cfg, dg_id);
	if (*dg && m < rcl_soft_dg_members(*dg) &&
	    (*dg)->members[m].state == RCL_SOFT_MEMBER_REBUILD)
		return RCL_OK;
	rcl_soft_change_end(c);
	return rcl_fail(err, RCL_NOT_ALLOWED, "member %u of disk group %u is not being rebuilt", m,
	                dg_id);
}

/* Step (b) alone: rebuilding member @m of group @dg_id holds data below @lba (at most its end). */
static enum rcl_status record_rebuilt(struct rcl_ctrl *ctrl, unsigned dg_id, unsigned m,
                                      uint64_t lba, struct rcl_error *err)
{
	struct rcl_soft_change c;
	struct rcl_soft_dg *dg;
	enum rcl_status st = begin_rebuilt(ctrl, dg_id, m, &c, &dg, err);

	if (st)
		return st;
	dg->members[m].rebuilt_lba = lba < dg->last_lba + 1 ? lba : dg->last_lba + 1;
	st = rcl_soft_change_write_records(&c, err);
	return rcl_soft_change_finish(&c, st, err);
}

/*
 * The end of member @m's rebuild, as md records the end of a recovery:
 * (a) per VD, every superblock of the member's array at new events with
 * the member's role active (rcl_soft_sync_roles()), then the member's own
 * without its recovery offset; (b) the record with the member online.
 * The record already says the member holds all its data (set_rebuilt()),
 * so a crash in (a) or before (b) leaves a member that raidcli keeps
 * writing and finishes again, while md sees it recovering (from 0) or in
 * sync; never in sync with data it lacks.
 */
static enum rcl_status finish_rebuild(struct rcl_ctrl *ctrl, unsigned dg_id, unsigned m,
                                      struct rcl_error *err)
{
	struct rcl_soft_change c;
	struct rcl_soft_dg *dg;
	enum rcl_status st = begin_rebuilt(ctrl, dg_id, m, &c, &dg, err);

	if (st)
		return st;
	dg->members[m].state = RCL_SOFT_MEMBER_ONLINE;
	dg->members[m].rebuilt_lba = 0;
	for (size_t v = 0; v < c.cfg->vd_count && !st; v++) {
		if (c.cfg->vds[v].dg != dg->id)
			continue;
		st = rcl_soft_sync_roles(&c, dg, &c.cfg->vds[v], m, err);
		if (!st)
			st = set_recovery(&c, rcl_soft_change_live(&c, dg, m), &c.cfg->vds[v],
			                  false, err);
	}
	if (!st)
		st = rcl_soft_change_write_records(&c, err);
	return rcl_soft_change_finish(&c, st, err);
}

enum rcl_status rcl_soft_set_rebuilt(struct rcl_ctrl *ctrl, unsigned dg_id, unsigned m,
                                     uint64_t lba, struct rcl_error *err)
{
	/* Done: first recorded as holding data to its end, which finish_rebuild() relies on. */
	enum rcl_status st = record_rebuilt(ctrl, dg_id, m, lba, err);

	return st || lba != RCL_SOFT_REBUILT_ALL ? st : finish_rebuild(ctrl, dg_id, m, err);
}
