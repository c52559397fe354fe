// SPDX-License-Identifier: MIT
/*
 * migrate.c - RAID level migration and online capacity expansion as
 * configuration changes, and the checkpoints of the copy in between (see
 * migrate.h).
 *
 * Why the lowest checkpoint on the members is safe to resume from: a
 * checkpoint is written (to every member, then synced) only after the
 * rows it covers are synced, and at most two checkpoints coexist on the
 * members (the one before a save and the one it writes), adjacent in
 * time. Resuming from the older one redoes the last step: from old rows
 * nothing has touched yet (reshape.h), or from the backup it had already
 * filled. Host writes to the rows a step moved start only once the step,
 * its save included, has returned (volume-reshape.c), so a redo never
 * copies old data over newer writes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "soft/config/change.h"
#include "soft/format/crc32.h"
#include "internal.h"
#include "soft/format/io.h"
#include "soft/config/layout.h"
#include "soft/format/le.h"
#include "soft/format/md-super1.h"
#include "soft/config/member.h"
#include "migrate.h"
#include "soft/soft.h"
#include "soft/config/spare.h"
#include "soft/config/state.h"

/* The checkpoint block: magic, position, backup rows, CRC-32 of those 24 bytes. */
#define MARK_BYTES 4096u
static const char mark_magic[8] = "RCLRSHP1";

void rcl_soft_migration_old(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                            struct rcl_soft_dg *old_dg, struct rcl_soft_vd *old_vd)
{
	*old_dg = *dg;
	old_dg->level = dg->migrate.level;
	old_dg->drives_per_span = dg->migrate.drives;
	old_dg->migrate = (struct rcl_soft_migration){0};
	*old_vd = *vd;
	old_vd->strip_kib = dg->migrate.level == RCL_RAID1 ? 0 : vd->strip_kib;
}

/* ---- the plan ---- */

/* The drive byte where the md metadata of @vd's members ends (bitmap, bad-block log). */
static enum rcl_status meta_end(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                unsigned ss, uint64_t *end, struct rcl_error *err)
{
	struct rcl_md_geometry g;
	uint64_t bytes, at;
	enum rcl_status st = rcl_soft_capacity(dg, vd->strip_kib, vd->last_lba + 1 - vd->first_lba,
	                                       ss, &g, &bytes, err);

	if (st)
		return st;
	at = vd->first_lba * ss + (g.super_offset + (uint64_t)g.bblog_offset + g.bblog_size) * 512;
	if (at > *end)
		*end = at;
	return RCL_OK;
}

enum rcl_status rcl_soft_migration_plan(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                        unsigned ss, struct rcl_soft_migration_plan *plan,
                                        struct rcl_error *err)
{
	struct rcl_soft_dg old_dg;
	struct rcl_soft_vd old_vd, new_vd = *vd;
	struct rcl_md_geometry g;
	uint64_t end = 0;
	enum rcl_status st;

	memset(plan, 0, sizeof(*plan));
	rcl_soft_migration_old(dg, vd, &old_dg, &old_vd);
	st = rcl_soft_capacity(dg, vd->strip_kib, vd->last_lba + 1 - vd->first_lba, ss, &g,
	                       &new_vd.bytes, err);
	if (!st)
		st = rcl_soft_geometry_get(&old_dg, &old_vd, ss, &plan->from, err);
	if (!st)
		st = rcl_soft_geometry_get(dg, &new_vd, ss, &plan->to, err);
	if (!st)
		st = meta_end(&old_dg, &old_vd, ss, &end, err);
	if (!st)
		st = meta_end(dg, &new_vd, ss, &end, err);
	if (st)
		return st;
	plan->super_at = vd->first_lba * ss + RCL_MD_SUPER1_2_OFFSET * 512ull;
	plan->mark_at = (end + MARK_BYTES - 1) / MARK_BYTES * MARK_BYTES;
	plan->reshape.from = plan->from.arrays[0];
	plan->reshape.to = plan->to.arrays[0];
	rcl_soft_reshape_headroom(&plan->reshape, plan->mark_at + MARK_BYTES);
	if (plan->reshape.backup_at < plan->mark_at + MARK_BYTES)
		plan->reshape.backup_rows = 0; /* not one chunk fits: _plan() says so */
	return rcl_soft_reshape_plan(&plan->reshape, err);
}

/* ---- checkpoints ---- */

static void mark_encode(const struct rcl_soft_reshape_mark *mark, uint8_t *block)
{
	memset(block, 0, MARK_BYTES);
	memcpy(block, mark_magic, sizeof(mark_magic));
	rcl_put_le64(block + 8, mark->position);
	rcl_put_le64(block + 16, mark->backup_rows);
	rcl_put_le32(block + 24, rcl_crc32(0, block, 24));
}

static bool mark_decode(const uint8_t *block, struct rcl_soft_reshape_mark *mark)
{
	if (memcmp(block, mark_magic, sizeof(mark_magic)) ||
	    rcl_get_le32(block + 24) != rcl_crc32(0, block, 24))
		return false;
	mark->position = rcl_get_le64(block + 8);
	mark->backup_rows = rcl_get_le64(block + 16);
	return true;
}

/* Checkpoints in the order they are written: {s, 0} < {s, m} < {s + m, 0}. */
static uint64_t mark_order(const struct rcl_soft_reshape_mark *mark)
{
	return mark->position * 2 + (mark->backup_rows != 0);
}

/* md's reshape_position: the new array's sectors done. */
static uint64_t md_position(const struct rcl_soft_migration_plan *plan, uint64_t position)
{
	return position * rcl_soft_array_stripe_bytes(&plan->reshape.to) / 512;
}

/* Write @mark (block and superblock) on member @i; synced by the caller. */
static enum rcl_status write_mark(const struct rcl_soft_migration_marks *m, unsigned i,
                                  const struct rcl_soft_reshape_mark *mark, struct rcl_error *err)
{
	uint8_t block[MARK_BYTES];
	enum rcl_status st;

	mark_encode(mark, block);
	st = rcl_soft_write(m->fd[i], block, sizeof(block), m->plan->mark_at, "reshape checkpoint",
	                    err);
	if (st || !m->sb[i])
		return st;
	m->sb[i]->reshape_position = md_position(m->plan, mark->position);
	st = rcl_md_super1_encode(m->sb[i], block, RCL_MD_SB_AREA, err);
	return st ? st
	          : rcl_soft_write(m->fd[i], block, RCL_MD_SB_AREA, m->plan->super_at,
	                           "md superblock", err);
}

static enum rcl_status read_super(int fd, uint64_t at, struct rcl_md_super1 *sb,
                                  struct rcl_error *err)
{
	uint8_t block[RCL_MD_SB_AREA];
	enum rcl_status st = rcl_soft_read(fd, block, sizeof(block), at, err);

	/* The device size only bounds the checks: the data area was checked at load. */
	return st ? st
	          : rcl_md_super1_decode(block, sizeof(block), RCL_MD_SUPER1_2_OFFSET,
	                                 UINT64_MAX / 2, sb, err);
}

/* Member @i could not take a checkpoint: tell the reshape's owner, who takes it out. */
static bool lost(const struct rcl_soft_migration_marks *m, unsigned i, const struct rcl_error *err)
{
	if (m->plan->reshape.failed)
		m->plan->reshape.failed(m->plan->reshape.failed_ctx, i,
		                        err->sys_errno ? err->sys_errno : EIO);
	return true;
}

/*
 * Every member not lost gets @mark; its superblock is read afresh first,
 * so that the roles and events a change of member states wrote meanwhile
 * (the owner holds the migration off during one) are kept.
 */
int rcl_soft_migration_save(void *ctx, const struct rcl_soft_reshape_mark *mark)
{
	struct rcl_soft_migration_marks *m = ctx;
	bool failed = false;

	for (unsigned i = 0; i < m->count; i++) {
		struct rcl_error err = {0};

		if (m->fd[i] >= 0 && (read_super(m->fd[i], m->plan->super_at, m->sb[i], &err) ||
		                      write_mark(m, i, mark, &err)))
			failed = lost(m, i, &err);
	}
	for (unsigned i = 0; i < m->count; i++) {
		struct rcl_error err = {0};

		if (m->fd[i] >= 0 && rcl_soft_sync(m->fd[i], "reshape checkpoint", &err))
			failed = lost(m, i, &err);
	}
	return failed ? -EIO : 0;
}

enum rcl_status rcl_soft_migration_marks_open(struct rcl_soft_migration_marks *m,
                                              const struct rcl_soft_migration_plan *plan,
                                              const int *fds, struct rcl_soft_reshape_mark *mark,
                                              struct rcl_error *err)
{
	uint8_t block[MARK_BYTES];
	bool found = false;

	/* Every member of either array: those a removal drops resume it as well. */
	*m = (struct rcl_soft_migration_marks){.plan = plan,
	                                       .count = plan->reshape.to.n > plan->reshape.from.n
	                                                    ? plan->reshape.to.n
	                                                    : plan->reshape.from.n};
	for (unsigned i = 0; i < m->count; i++) {
		struct rcl_soft_reshape_mark one;
		enum rcl_status st;

		m->fd[i] = fds[i];
		m->sb[i] = rcl_malloc(sizeof(*m->sb[i]));
		if (!m->sb[i])
			return rcl_fail(err, RCL_NOMEM, "out of memory");
		if (fds[i] < 0)
			continue; /* lost: the others hold the checkpoint */
		st = read_super(fds[i], plan->super_at, m->sb[i], err);
		if (!st)
			st = rcl_soft_read(fds[i], block, sizeof(block), plan->mark_at, err);
		if (st)
			return st;
		if (mark_decode(block, &one) && (!found || mark_order(&one) < mark_order(mark))) {
			*mark = one;
			found = true;
		}
	}
	if (!found || mark->position > plan->reshape.rows)
		return rcl_fail(err, RCL_CORRUPT, "no member holds the migration's checkpoint");
	return RCL_OK;
}

void rcl_soft_migration_marks_close(struct rcl_soft_migration_marks *m)
{
	for (unsigned i = 0; i < RCL_SOFT_ARRAY_MAX; i++) {
		rcl_free(m->sb[i]);
		m->sb[i] = NULL;
	}
}

/* ---- start ---- */

static struct rcl_soft_vd *vd_of(struct rcl_soft_change *c, unsigned id, struct rcl_soft_dg **dg,
                                 struct rcl_error *err)
{
	struct rcl_soft_vd *vd = rcl_soft_config_vd_mut(c->cfg, id);

	if (!vd) {
		rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u not found", id);
		return NULL;
	}
	*dg = rcl_soft_config_dg_mut(c->cfg, vd->dg);
	return vd;
}

/* Data drives of @level over @n drives. */
static unsigned data_drives(enum rcl_raid_level level, unsigned n)
{
	return level == RCL_RAID1 ? 1 : level == RCL_RAID5 ? n - 1 : level == RCL_RAID6 ? n - 2 : n;
}

/* MegaRAID's RAID level migrations (those of one span). */
static bool supported_pair(enum rcl_raid_level from, enum rcl_raid_level to)
{
	switch (to) {
	case RCL_RAID0:
		return from == RCL_RAID1 || from == RCL_RAID5 || from == RCL_RAID6;
	case RCL_RAID5:
		return from == RCL_RAID0 || from == RCL_RAID1 || from == RCL_RAID5 ||
		       from == RCL_RAID6;
	case RCL_RAID6:
		return from == RCL_RAID5 || from == RCL_RAID6;
	default:
		return false;
	}
}

/* The rules that do not depend on the added drives. */
static enum rcl_status check_vd(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                const struct rcl_soft_vd *vd, enum rcl_raid_level level, unsigned n,
                                bool busy, struct rcl_error *err)
{
	unsigned old_n = rcl_soft_dg_members(dg), vds = 0;
	unsigned min = level == RCL_RAID6 ? 4 : level == RCL_RAID5 ? 3 : 2;

	for (size_t i = 0; i < c->cfg->vd_count; i++)
		vds += c->cfg->vds[i].dg == dg->id;
	if (dg->migrate.active)
		return rcl_fail(err, RCL_NOT_ALLOWED, "/v%u is being migrated already", vd->id);
	if (dg->spans != 1 || dg->level == RCL_RAID10 || rcl_soft_nested(dg->level))
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "disk group %u is a %s: spanned drive groups (RAID10, RAID50, "
		                "RAID60) cannot migrate",
		                dg->id, rcl_raid_level_name(dg->level));
	/* A new layout is computed for the partitions; md's own one would be lost. */
	if (vd->md_kept)
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "/v%u keeps an md layout of its own (of the array it was "
		                "imported from, or kept when it grew), which raidcli does not "
		                "migrate",
		                vd->id);
	if (!supported_pair(dg->level, level))
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "migrating %s to %s is not supported (supported, for a group "
		                "of one span: RAID0 or RAID1 to RAID5, RAID1, RAID5 or RAID6 to "
		                "RAID0, RAID5 to RAID6, RAID6 to RAID5, adding drives to RAID5 "
		                "or RAID6)",
		                rcl_raid_level_name(dg->level), rcl_raid_level_name(level));
	if (level == RCL_RAID0 && dg->spare_count)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "disk group %u has dedicated hot spares, which a RAID0 cannot "
		                "have: delete them (delete hotsparedrive) before migrating it to "
		                "RAID0",
		                dg->id);
	if (vds != 1)
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "disk group %u holds %u virtual drives: only a group with a "
		                "single VD can migrate",
		                dg->id, vds);
	for (unsigned m = 0; m < old_n; m++)
		if (dg->members[m].state != RCL_SOFT_MEMBER_ONLINE)
			return rcl_fail(err, RCL_NOT_ALLOWED,
			                "/v%u is not optimal (the member in slot %u is not online)",
			                vd->id, dg->members[m].slot);
	if (!vd->consistent)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "/v%u is not consistent: initialize it (or let its background "
		                "initialization end) before migrating it",
		                vd->id);
	if (busy)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "another operation runs on /v%u or its disk group: wait for it to "
		                "end, or stop it",
		                vd->id);
	if (n < min || n > RCL_SOFT_ARRAY_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM, "%s needs %u to %u drives, not %u",
		                rcl_raid_level_name(level), min, RCL_SOFT_ARRAY_MAX, n);
	if (n == old_n && level == dg->level)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "/v%u is %s already: add drives with option=add drives=", vd->id,
		                rcl_raid_level_name(level));
	if (data_drives(level, n) < data_drives(dg->level, old_n))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "%s over %u drives holds less than /v%u does now: %s",
		                rcl_raid_level_name(level), n, vd->id,
		                n < old_n ? "a removal keeps the data drives (RAID6 to RAID5 less "
		                            "one drive, RAID5 to RAID0 less one, RAID6 to RAID0 "
		                            "less one or two)"
		                          : "add drives");
	return RCL_OK;
}

/* Added drive @ref (disk @i) must be unconfigured good and big enough. */
static enum rcl_status check_drive(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                   const struct rcl_drive_ref *ref, size_t i, bool force,
                                   struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	const struct rcl_soft_disk *member = rcl_soft_change_any_member(c, dg);
	uint64_t end;
	enum rcl_status st;

	if (disk->dg >= 0 || disk->spare || c->fresh[i])
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "drive %u:%u is not unconfigured good: it is %s", ref->enclosure,
		                ref->slot, disk->spare ? "a hot spare" : "a member already");
	st = force ? RCL_OK : rcl_soft_check_blank(disk, ref, err);
	if (!st)
		st = rcl_soft_room_end(disk, &end, err);
	if (!st && (end < dg->last_lba || (member && member->sector_size != disk->sector_size)))
		st = rcl_fail(err, RCL_DRIVE_TOO_SMALL,
		              "drive %u:%u is too small to join disk group %u", ref->enclosure,
		              ref->slot, dg->id);
	return st;
}

/* The added drives become members past the old ones. */
static enum rcl_status add_drives(struct rcl_soft_change *c, struct rcl_soft_dg *dg,
                                  const struct rcl_drive_ref *drives, size_t count, bool force,
                                  struct rcl_error *err)
{
	unsigned n = rcl_soft_dg_members(dg);

	for (size_t k = 0; k < count; k++) {
		size_t i;
		enum rcl_status st = rcl_soft_change_find(c, &drives[k], &i, err);

		if (!st)
			st = check_drive(c, dg, &drives[k], i, force, err);
		if (st)
			return st;
		c->fresh[i] = true;
		dg->members[n + k] = (struct rcl_soft_member){.slot = drives[k].slot};
	}
	dg->drives_per_span = n + (unsigned)count;
	return RCL_OK;
}

/* "e:s,e:s" of @dg's members [from, to). */
static void list_slots(const struct rcl_soft_dg *dg, unsigned from, unsigned to, char *out,
                       size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (unsigned m = from; m < to && len < size; m++)
		len += (size_t)snprintf(out + len, size - len, "%s%u:%u", m > from ? "," : "",
		                        RCL_SOFT_ENCLOSURE, dg->members[m].slot);
}

/*
 * The removed drives must be the last members by role: md keeps every
 * member's role through a reshape, so only the roles past the new
 * raid_disks can go. (They stay in the members array, past the new ones,
 * until the migration ends: rcl_soft_dg_held().)
 */
static enum rcl_status check_last(struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                  const struct rcl_drive_ref *drives, size_t count,
                                  struct rcl_error *err)
{
	unsigned old_n = rcl_soft_dg_members(dg), n = count < old_n ? old_n - (unsigned)count : 0;
	char last[RCL_SOFT_ARRAY_MAX * 12];

	list_slots(dg, n, old_n, last, sizeof(last));
	for (size_t k = 0; k < count; k++) {
		size_t i;
		unsigned m = n;
		enum rcl_status st = rcl_soft_change_find(c, &drives[k], &i, err);

		while (!st && m < old_n && rcl_soft_change_member(c, dg, m) != (int)i)
			m++;
		if (!st && m == old_n)
			st =
			    rcl_fail(err, RCL_INVALID_PARAM,
			             "drive %u:%u cannot be removed: md keeps each member's place "
			             "through a migration, so only the last %zu may go (drives=%s)",
			             drives[k].enclosure, drives[k].slot, count, last);
		if (st)
			return st;
	}
	return RCL_OK;
}

/* The superblock of a member as md has it during a reshape from @dg's old array. */
static void set_reshape_fields(struct rcl_md_super1 *sb, const struct rcl_soft_dg *dg,
                               const struct rcl_soft_vd *vd)
{
	struct rcl_soft_dg old_dg;
	struct rcl_soft_vd old_vd;
	struct rcl_md_shape old;

	rcl_soft_migration_old(dg, vd, &old_dg, &old_vd);
	rcl_soft_md_shape(&old_dg, old_vd.strip_kib, &old);
	sb->feature_map |= RCL_MD_FEATURE_RESHAPE_ACTIVE;
	sb->new_level = sb->level;
	sb->new_layout = sb->layout;
	sb->new_chunk = sb->chunksize;
	sb->level = old.level;
	sb->layout = old.layout;
	sb->chunksize = old.chunk_sectors;
	sb->delta_disks = (int32_t)(rcl_soft_dg_members(dg) - old.raid_disks);
	sb->reshape_position = 0;
}

/* Member @m's superblock of the new array (and, @start, the reshape fields and a blank mark). */
static enum rcl_status write_member(struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                    const struct rcl_soft_vd *vd, int i, unsigned m, bool start,
                                    struct rcl_error *err)
{
	const struct rcl_soft_disk *disk = &c->state->disks[i];
	struct rcl_soft_migration_plan *plan = NULL;
	struct rcl_soft_migration_marks marks = {.count = 1, .fd = {disk->fd}};
	enum rcl_status st =
	    rcl_soft_member_write_md(disk->fd, disk->sector_size, c->sc->serial, dg, vd, m, err);

	if (st || !start)
		return st;
	plan = rcl_malloc(sizeof(*plan));
	marks.sb[0] = rcl_malloc(sizeof(*marks.sb[0]));
	if (!plan || !marks.sb[0])
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	if (!st)
		st = rcl_soft_migration_plan(dg, vd, disk->sector_size, plan, err);
	marks.plan = plan;
	if (!st)
		st = read_super(disk->fd, plan->super_at, marks.sb[0], err);
	if (!st) {
		set_reshape_fields(marks.sb[0], dg, vd);
		st = write_mark(&marks, 0, &(struct rcl_soft_reshape_mark){0, 0}, err);
	}
	if (!st)
		st = rcl_soft_sync(disk->fd, "md superblock", err);
	rcl_free(marks.sb[0]);
	rcl_free(plan);
	return st;
}

/* Step (a): GPTs for the added drives, then every member's superblock. */
static enum rcl_status write_members(struct rcl_soft_change *c, struct rcl_soft_dg *dg,
                                     const struct rcl_soft_vd *vd, bool start,
                                     struct rcl_error *err)
{
	/* At the start the members a removal drops take the reshape's superblock too. */
	unsigned held = start ? rcl_soft_dg_held(dg) : rcl_soft_dg_members(dg);
	enum rcl_status st = RCL_OK;

	for (unsigned m = 0; m < held && !st; m++) {
		int i = start ? rcl_soft_change_member(c, dg, m) : rcl_soft_change_live(c, dg, m);

		/* A member lost meanwhile keeps its superblock, events behind the others'. */
		if (!start && i < 0)
			continue;
		if (m >= dg->migrate.drives && m < rcl_soft_dg_members(dg) && start && i < 0) {
			for (size_t d = 0; d < c->state->count && i < 0; d++)
				if (c->fresh[d] && c->state->disks[d].slot == dg->members[m].slot)
					i = (int)d;
			st = rcl_soft_change_write_gpt(c, (size_t)i, dg, err);
			if (!st)
				dg->members[m].uuid = c->gpts[i]->disk_guid;
		}
		if (!st && i < 0)
			st = rcl_fail(err, RCL_NOT_ALLOWED, "member %u of disk group %u is missing",
			              m, dg->id);
		if (!st)
			st = write_member(c, dg, vd, i, m, start, err);
	}
	return st;
}

/*
 * Plan migrating VD @req->vd in change @c (its group and VD into *@dg and
 * *@vd): every refusal comes here, before anything is written.
 */
static enum rcl_status plan_migration(struct rcl_soft_change *c, const struct rcl_task_request *req,
                                      bool busy, struct rcl_soft_dg **dg, struct rcl_soft_vd **vd,
                                      struct rcl_error *err)
{
	struct rcl_soft_migration_plan *plan = rcl_malloc(sizeof(*plan));
	unsigned old_n = 0, n = 0;
	enum rcl_status st;

	*vd = plan ? vd_of(c, req->vd, dg, err) : NULL;
	if (!plan)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (*vd) {
		old_n = rcl_soft_dg_members(*dg);
		n = !req->remove               ? old_n + (unsigned)req->drive_count
		    : req->drive_count < old_n ? old_n - (unsigned)req->drive_count
		                               : 0;
	}
	st = !*vd          ? RCL_NOT_FOUND
	     : req->remove ? check_last(c, *dg, req->drives, req->drive_count, err)
	                   : RCL_OK;
	if (!st)
		st = check_vd(c, *dg, *vd, req->level, n, busy, err);
	if (!st) {
		(*dg)->migrate = (struct rcl_soft_migration){true, (*dg)->level, old_n};
		if (req->remove)
			(*dg)->drives_per_span = n;
		else
			st = add_drives(c, *dg, req->drives, req->drive_count, req->force, err);
	}
	if (!st) {
		(*dg)->level = req->level;
		if ((*dg)->migrate.level == RCL_RAID1)
			(*vd)->strip_kib = 64; /* RAID1 has none; StorCLI's default strip */
		/* Refuse what the copy cannot do before anything is written. */
		st = rcl_soft_migration_plan(
		    *dg, *vd, rcl_soft_change_any_member(c, *dg)->sector_size, plan, err);
		if (st)
			st = rcl_fail(err, RCL_UNSUPPORTED, "/v%u cannot migrate: %s", req->vd,
			              err->msg);
	}
	rcl_free(plan);
	return st;
}

enum rcl_status rcl_soft_migrate_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       struct rcl_error *err)
{
	struct rcl_soft_change c;
	struct rcl_soft_dg *dg;
	struct rcl_soft_vd *vd;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (!st)
		st = plan_migration(&c, req, false, &dg, &vd, err);
	rcl_soft_change_end(&c);
	return st;
}

enum rcl_status rcl_soft_migrate_start(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       bool busy, struct rcl_error *err)
{
	struct rcl_soft_change c;
	struct rcl_soft_dg *dg;
	struct rcl_soft_vd *vd;
	enum rcl_status st = rcl_soft_change_begin(ctrl, &c, err);

	if (!st)
		st = plan_migration(&c, req, busy, &dg, &vd, err);
	if (st) {
		rcl_soft_change_end(&c);
		return st; /* nothing written */
	}
	st = write_members(&c, dg, vd, true, err);
	if (!st)
		st = rcl_soft_spares_rejoin(&c, dg, vd, err);
	if (!st)
		st = rcl_soft_change_write_records(&c, err);
	return rcl_soft_change_finish(&c, st, err);
}

/* The state of @level over @dg's first @n members. */
static enum rcl_vd_state layout_state(const struct rcl_soft_dg *dg, enum rcl_raid_level level,
                                      unsigned n)
{
	unsigned lost = 0;

	for (unsigned m = 0; m < n; m++)
		lost += dg->members[m].state != RCL_SOFT_MEMBER_ONLINE;
	return rcl_raid_state(level, 1, n, &lost);
}

enum rcl_vd_state rcl_soft_migration_state(const struct rcl_soft_dg *dg)
{
	enum rcl_vd_state old = layout_state(dg, dg->migrate.level, dg->migrate.drives);
	enum rcl_vd_state now = layout_state(dg, dg->level, rcl_soft_dg_members(dg));

	return old > now ? old : now;
}

enum rcl_status rcl_soft_migrate_guard(const struct rcl_soft_dg *dg, const char *change,
                                       struct rcl_error *err)
{
	/* One that can never end does not hold the group: its VD can be deleted. */
	if (!dg || !dg->migrate.active || rcl_soft_migration_state(dg) == RCL_VD_OFFLINE)
		return RCL_OK;
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "disk group %u is migrating: %s waits until the migration has ended "
	                "(show migrate)",
	                dg->id, change);
}

/* ---- finish ---- */

/*
 * The new superblocks (events 1) take the events after @events, the
 * highest before, and the record's roles: a member lost during the
 * migration stays faulty and behind, as md has it.
 */
static enum rcl_status carry_events(struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                    const struct rcl_soft_vd *vd, uint64_t events,
                                    struct rcl_error *err)
{
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	enum rcl_status st = sb ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");

	for (unsigned m = 0; m < rcl_soft_dg_members(dg) && !st; m++)
		if (rcl_soft_change_live(c, dg, m) >= 0)
			st = rcl_soft_change_bump(c, rcl_soft_change_live(c, dg, m), vd, events, sb,
			                          err);
	rcl_free(sb);
	return st ? st : rcl_soft_sync_roles(c, dg, vd, 0, err);
}

enum rcl_status rcl_soft_migrate_finish(struct rcl_ctrl *ctrl, unsigned id, struct rcl_error *err)
{
	struct rcl_soft_change c;
	struct rcl_soft_dg *dg = NULL;
	struct rcl_soft_vd *vd;
	struct rcl_md_geometry g;
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	int from;
	enum rcl_status st =
	    sb ? rcl_soft_change_begin(ctrl, &c, err) : rcl_fail(err, RCL_NOMEM, "out of memory");

	if (st) {
		rcl_free(sb);
		return st;
	}
	vd = vd_of(&c, id, &dg, err);
	st = !vd                   ? RCL_NOT_FOUND
	     : !dg->migrate.active ? rcl_fail(err, RCL_NOT_ALLOWED, "/v%u is not migrating", id)
	                           : RCL_OK;
	if (!st) {
		st = rcl_soft_capacity(dg, vd->strip_kib, vd->last_lba + 1 - vd->first_lba,
		                       rcl_soft_change_any_member(&c, dg)->sector_size, &g,
		                       &vd->bytes, err);
		dg->migrate = (struct rcl_soft_migration){0};
	}
	if (!st)
		st = rcl_soft_change_freshest(&c, dg, vd, 0, sb, &from, err);
	if (st) {
		rcl_free(sb);
		rcl_soft_change_end(&c);
		return st;
	}
	st = write_members(&c, dg, vd, false, err);
	if (!st)
		st = carry_events(&c, dg, vd, sb->events, err);
	if (!st)
		st = rcl_soft_spares_rejoin(&c, dg, vd, err);
	rcl_free(sb);
	if (!st)
		st = rcl_soft_change_write_records(&c, err);
	return rcl_soft_change_finish(&c, st, err);
}
