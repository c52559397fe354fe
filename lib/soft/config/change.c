// SPDX-License-Identifier: MIT
/*
 * change.c - one configuration change of a soft controller, in the
 * crash-safe order change.h describes: the steps every change shares.
 */
#include <stdio.h>
#include <string.h>

#include "change.h"
#include "soft/format/io.h"
#include "layout.h"
#include "member.h"
#include "model.h"
#include "soft/format/signature.h"
#include "vd.h"

enum rcl_status rcl_soft_change_begin(struct rcl_ctrl *ctrl, struct rcl_soft_change *c,
                                      struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	enum rcl_status st;

	memset(c, 0, sizeof(*c));
	/* Before reading the drives: an open volume's clean or active mark is on them whole. */
	rcl_soft_md_lock();
	c->md_locked = true;
	if (sc->stale) {
		st = rcl_soft_refresh(ctrl, err);
		if (st) {
			rcl_soft_change_end(c);
			return st;
		}
	}
	c->ctrl = ctrl;
	c->sc = sc;
	c->state = sc->state;
	c->cfg = rcl_calloc(1, sizeof(*c->cfg));
	c->gpts = rcl_calloc(c->state->count + 1, sizeof(*c->gpts));
	c->fresh = rcl_calloc(c->state->count + 1, sizeof(*c->fresh));
	if (!c->cfg || !c->gpts || !c->fresh) {
		rcl_soft_change_end(c);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	*c->cfg = c->state->cfg;
	snprintf(c->cfg->serial, sizeof(c->cfg->serial), "%s", c->sc->serial);
	return RCL_OK;
}

void rcl_soft_change_end(struct rcl_soft_change *c)
{
	for (size_t i = 0; c->gpts && i < c->state->count; i++)
		rcl_free(c->gpts[i]);
	rcl_free(c->gpts);
	rcl_free(c->fresh);
	rcl_free(c->cfg);
	c->gpts = NULL;
	c->fresh = NULL;
	c->cfg = NULL;
	if (c->md_locked)
		rcl_soft_md_unlock();
	c->md_locked = false;
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
int rcl_soft_change_disk(const struct rcl_soft_change *c, const struct rcl_guid *uuid)
{
	for (size_t i = 0; i < c->state->count; i++) {
		const struct rcl_gpt *gpt = c->gpts[i] ? c->gpts[i] : c->state->disks[i].gpt;

		if (c->state->disks[i].kind != RCL_SOFT_DISK_ABSENT &&
		    c->state->disks[i].kind != RCL_SOFT_DISK_FOREIGN && gpt &&
		    (c->gpts[i] || c->state->disks[i].kind == RCL_SOFT_DISK_OURS) &&
		    rcl_guid_equal(&gpt->disk_guid, uuid))
			return (int)i;
	}
	return -1;
}

int rcl_soft_change_member(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                           unsigned m)
{
	/* A member marked missing has left its drive: the drive is no member now. */
	if (dg->members[m].state == RCL_SOFT_MEMBER_MISSING)
		return -1;
	return rcl_soft_change_disk(c, &dg->members[m].uuid);
}

/* Whether disk @i is a member or a hot spare in @cfg (per rcl_soft_change_disk()). */
static bool in_config(const struct rcl_soft_change *c, const struct rcl_soft_config *cfg, size_t i)
{
	for (size_t d = 0; d < cfg->dg_count; d++) {
		for (unsigned m = 0; m < rcl_soft_dg_held(&cfg->dgs[d]); m++)
			if (rcl_soft_change_member(c, &cfg->dgs[d], m) == (int)i)
				return true;
		for (unsigned k = 0; k < cfg->dgs[d].spare_count; k++)
			if (rcl_soft_change_disk(c, &cfg->dgs[d].spares[k].drive.uuid) == (int)i)
				return true;
	}
	for (size_t k = 0; k < cfg->spare_count; k++)
		if (rcl_soft_change_disk(c, &cfg->spares[k].uuid) == (int)i)
			return true;
	return false;
}

/* Whether step (b) writes disk @i: listed by the configuration before or after the change. */
static bool gets_record(const struct rcl_soft_change *c, size_t i)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];

	return in_config(c, c->cfg, i) || disk->dg >= 0 || disk->spare;
}

/*
 * Whether disk @i is a failed member in @c->cfg. It takes no part in the
 * record update while another drive does: its failure may be this drive's
 * own (truncated, gone, unreadable, no longer writable), and a prepare
 * failing there would stop the update that records it. Its older record
 * loads as STALE, under the configuration the others hold, which says it
 * failed.
 */
static bool failed_member(const struct rcl_soft_change *c, size_t i)
{
	for (size_t d = 0; d < c->cfg->dg_count; d++)
		for (unsigned m = 0; m < rcl_soft_dg_members(&c->cfg->dgs[d]); m++)
			if (c->cfg->dgs[d].members[m].state == RCL_SOFT_MEMBER_FAILED &&
			    rcl_soft_change_member(c, &c->cfg->dgs[d], m) == (int)i)
				return true;
	return false;
}

/*
 * Whether a drive that is no failed member gets the record: then no failed
 * member takes it (takes_record()). The same for every drive of one
 * update: asked once an update, not once a drive.
 */
static bool healthy_drive_gets_record(const struct rcl_soft_change *c)
{
	for (size_t j = 0; j < c->state->count; j++)
		if (gets_record(c, j) && !failed_member(c, j))
			return true;
	return false;
}

/*
 * Whether step (b) writes disk @i: listed by the configuration before or
 * after the change, and not a failed member unless every such drive is one
 * (all a group's members recorded failed; @healthy is false then, from
 * healthy_drive_gets_record()): the record must go somewhere.
 */
static bool takes_record(const struct rcl_soft_change *c, size_t i, bool healthy)
{
	return gets_record(c, i) && (!healthy || !failed_member(c, i));
}

/*
 * A drive that refused to open read-write was opened read-only, to be
 * read: writing it would fail with EBADF, after the other drives were
 * written. Say why it refused (EPERM for an immutable file, EROFS, EACCES).
 */
static enum rcl_status disk_writable(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	if (!disk->ro_errno)
		return RCL_OK;
	return rcl_fail_errno(err, RCL_SYSTEM, disk->ro_errno,
	                      "drive %u:%u cannot be written: '%s' does not open for writing "
	                      "(%s)",
	                      RCL_SOFT_ENCLOSURE, disk->slot, disk->path, strerror(disk->ro_errno));
}

/* rcl_soft_change_writable() with @healthy from healthy_drive_gets_record(). */
static enum rcl_status writable(const struct rcl_soft_change *c, bool healthy,
                                struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (size_t i = 0; i < c->state->count && !st; i++)
		if (c->fresh[i] || c->gpts[i] || takes_record(c, i, healthy))
			st = disk_writable(&c->state->disks[i], err);
	return st;
}

enum rcl_status rcl_soft_change_writable(const struct rcl_soft_change *c, struct rcl_error *err)
{
	return writable(c, healthy_drive_gets_record(c), err);
}

/* ---- Step (b): the record update ---- */

static void record_drive(const struct rcl_soft_change *c, size_t i,
                         struct rcl_soft_record_drive *rec)
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
 * the change but a failed member: drives leaving must hold the new
 * configuration too, or, if step (c) never runs, their old record would
 * still count as this controller's.
 */
enum rcl_status rcl_soft_change_write_records(struct rcl_soft_change *c, struct rcl_error *err)
{
	struct rcl_soft_record_drive *recs = rcl_calloc(c->state->count + 1, sizeof(*recs));
	struct rcl_soft_record_config rc = {c->state->next_generation, c->sc->serial, NULL, 0};
	enum rcl_status st = RCL_OK;
	char *payload = rcl_soft_config_format(c->cfg, &rc.len);
	bool healthy = healthy_drive_gets_record(c);
	size_t n = 0;

	if (!recs || !payload)
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	if (!st)
		st = writable(c, healthy, err);
	rc.payload = payload;
	for (size_t i = 0; i < c->state->count && !st; i++) {
		if (!takes_record(c, i, healthy))
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
enum rcl_status rcl_soft_change_write_gpt(struct rcl_soft_change *c, size_t i,
                                          const struct rcl_soft_dg *dg, struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	enum rcl_status st = disk_writable(disk, err);

	if (st)
		return st;
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
void rcl_soft_change_clean_up(struct rcl_soft_change *c)
{
	struct rcl_error ignored = {0};

	for (size_t i = 0; i < c->state->count; i++) {
		struct rcl_soft_disk *disk = &c->state->disks[i];

		if (disk->kind != RCL_SOFT_DISK_OURS || in_config(c, c->cfg, i) || c->gpts[i])
			continue;
		rcl_soft_member_blank(disk, &ignored);
	}
}

enum rcl_status rcl_soft_change_finish(struct rcl_soft_change *c, enum rcl_status st,
                                       struct rcl_error *err)
{
	struct rcl_ctrl *ctrl = c->ctrl;

	rcl_soft_change_end(c);
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

/* ---- Drives and groups ---- */

/* The disk in slot @ref, for a new VD. */
enum rcl_status rcl_soft_change_find(const struct rcl_soft_change *c,
                                     const struct rcl_drive_ref *ref, size_t *index,
                                     struct rcl_error *err)
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

/* The last LBA a VD partition on @disk can use: its GPT's end, aligned down. */
enum rcl_status rcl_soft_room_end(const struct rcl_soft_disk *disk, uint64_t *end,
                                  struct rcl_error *err)
{
	uint64_t align = RCL_SOFT_ALIGN_BYTES / disk->sector_size;
	struct rcl_gpt gpt;
	enum rcl_status st = rcl_gpt_init(&gpt, disk->bytes, disk->sector_size, err);

	if (!st)
		*end = (gpt.last_usable + 1) / align * align - 1;
	return st;
}

/* Refuse a drive that holds a file system or partition table: the user's data. */
enum rcl_status rcl_soft_check_blank(const struct rcl_soft_disk *disk,
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

/* The first member of @dg that is present, or NULL. */
const struct rcl_soft_disk *rcl_soft_change_any_member(const struct rcl_soft_change *c,
                                                       const struct rcl_soft_dg *dg)
{
	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
		int i = rcl_soft_change_member(c, dg, m);

		if (i >= 0)
			return &c->state->disks[i];
	}
	return NULL;
}

/* The superblock of VD @vd with the highest events among @dg's present members. */
int rcl_soft_change_live(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg, unsigned m)
{
	enum rcl_soft_member_state state = dg->members[m].state;

	if (state != RCL_SOFT_MEMBER_ONLINE && state != RCL_SOFT_MEMBER_REBUILD)
		return -1;
	return rcl_soft_change_member(c, dg, m);
}

bool rcl_soft_same_array(const struct rcl_soft_dg *dg, unsigned a, unsigned b)
{
	return !rcl_soft_nested(dg->level) || a / dg->drives_per_span == b / dg->drives_per_span;
}

enum rcl_status rcl_soft_change_freshest(const struct rcl_soft_change *c,
                                         const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                         unsigned m, struct rcl_md_super1 *best, int *from,
                                         struct rcl_error *err)
{
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	enum rcl_status st = sb ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");

	*from = -1;
	for (unsigned o = 0; o < rcl_soft_dg_members(dg) && !st; o++) {
		int i = rcl_soft_same_array(dg, m, o) ? rcl_soft_change_live(c, dg, o) : -1;

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
		st = rcl_fail(err, RCL_NOT_ALLOWED, "no member of disk group %u is online", dg->id);
	return st;
}

/* Disk @i's superblock of VD @vd at events @events. */
enum rcl_status rcl_soft_change_bump(const struct rcl_soft_change *c, int i,
                                     const struct rcl_soft_vd *vd, uint64_t events,
                                     struct rcl_md_super1 *sb, struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	enum rcl_status st = rcl_soft_md_read(disk->fd, disk->sector_size, vd, sb, err);

	sb->events = events;
	return st ? st : rcl_soft_md_rewrite(disk->fd, disk->sector_size, vd, sb, err);
}
