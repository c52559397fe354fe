/* SPDX-License-Identifier: MIT */
/*
 * migrate.h - a VD's RAID level migration or online capacity expansion
 * ("start migrate type=raidX [option=add drives=...]") as configuration
 * changes around the copy that reshape.h does.
 *
 * Supported: RAID5 or RAID6 plus drives, RAID5 -> RAID6, RAID0 -> RAID5,
 * RAID1 -> RAID5, RAID6 -> RAID5, and RAID1, RAID5 or RAID6 -> RAID0
 * (each with at least as many data drives as before), and the removals
 * of the last members by role that keep the data drives (RAID6 -> RAID5
 * less one, RAID5 -> RAID0 less one, RAID6 -> RAID0 less one or two: md
 * keeps the roles through a reshape), for the only VD of
 * a group that is not spanned, whose members are all online, a VD that is
 * consistent. Dedicated spares keep their place: the added members take
 * md device numbers, so spares that had them get free ones and join the
 * new array again (spare.h), at the start and at the end.
 *
 * A member lost meanwhile (the record says so) leaves the copy degraded
 * (reshape.h) as long as both layouts survive it; the end then writes the
 * new superblocks on the members that hold data only, at events past the
 * lost member's, with its role faulty.
 *
 * Start (one change, change.h's order): (a) the added drives get the
 * group's GPT; every member gets the new array's md superblock, with
 * md's reshape fields (RESHAPE_ACTIVE, level/layout/chunk the old ones,
 * new_level/new_layout/new_chunk and raid_disks the new ones,
 * delta_disks the drives added, reshape_position 0) and a clean bitmap,
 * and a blank checkpoint; (b) the record gets the new level and members
 * and "migrate" (config.h) with the old ones. The VD keeps its capacity.
 * A removal is the same with a negative delta_disks: the removed members
 * keep their old roles past the new raid_disks, stay in the record
 * ("removed", rcl_soft_dg_held()) and take the checkpoints too. The walk
 * stays forwards (no RESHAPE_BACKWARDS, unlike md's shrink): the data
 * drives do not change, so data moves only to lower offsets (reshape.h).
 *
 * While it runs the checkpoint (struct rcl_soft_reshape_mark) is on every
 * member twice: in a 4 KiB block of ours in md's reshape headroom (magic,
 * position, rows in the backup, CRC) and as md's reshape_position (the
 * new array's sectors done). Loading takes the lowest block found on the
 * members, which is always safe to resume from (see migrate.c).
 *
 * Finish (one change): every member gets the new array's md superblock
 * without reshape fields, the record drops "migrate" and the VD takes the
 * new array's whole capacity: an expansion grows the VD, as StorCLI's
 * reconstruction with added drives does. The removed drives leave the
 * record, so the change's step (c) wipes their GPT and records: they are
 * unconfigured good.
 */
#ifndef RCL_SOFT_MIGRATE_H
#define RCL_SOFT_MIGRATE_H

#include "reshape.h"
#include "soft/config/scan.h"

/**
 * struct rcl_soft_migration_plan - a migration's arrays and places.
 * @from, @to:	the VD's old and new geometry (@to.bytes: the new capacity).
 * @reshape:	the copy, planned (its @fd, @save and @ctx the caller's).
 * @mark_at:	the drive byte of the checkpoint block on every member.
 * @super_at:	the drive byte of every member's md superblock.
 */
struct rcl_soft_migration_plan {
	struct rcl_soft_geometry from;
	struct rcl_soft_geometry to;
	struct rcl_soft_reshape reshape;
	uint64_t mark_at;
	uint64_t super_at;
};

/**
 * rcl_soft_migrate_start() - start migrating VD @req->vd of @ctrl to
 * @req->level, adding the drives @req->drives (or, @req->remove, removing
 * them: the last members by role), as the header says; @busy:
 * another task of the caller's runs on the VD's group (refused once the
 * VD's own state and the levels are found fine).
 * Return: RCL_OK; RCL_NOT_FOUND (no such VD or drive); RCL_UNSUPPORTED (a
 * pair of levels, or a group, that cannot migrate); RCL_INVALID_PARAM
 * (too few drives for the level, fewer data drives than now); RCL_NOT_ALLOWED
 * (not optimal, not consistent, @busy, a migration running, a drive that is not
 * unconfigured good); RCL_DRIVE_TOO_SMALL; RCL_NEED_FORCE (a drive with
 * a file system); a write's failure. Nothing is changed on a refusal.
 */
enum rcl_status rcl_soft_migrate_start(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       bool busy, struct rcl_error *err);

/**
 * rcl_soft_migrate_check() - what rcl_soft_migrate_start() would refuse,
 * its own checks with no task running, and nothing written: a command
 * that would be refused starts no controller process.
 * Return: as rcl_soft_migrate_start()'s refusals.
 */
enum rcl_status rcl_soft_migrate_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       struct rcl_error *err);

/**
 * rcl_soft_migrate_guard() - refuse @change (what the user asked, as in
 * "deleting its VD") to group @dg (NULL: none) while it migrates: the
 * migration owns its members and layout until it ends (or can never end:
 * rcl_soft_migration_state()).
 * Return: RCL_OK, or RCL_NOT_ALLOWED saying so.
 */
enum rcl_status rcl_soft_migrate_guard(const struct rcl_soft_dg *dg, const char *change,
                                       struct rcl_error *err);

/*
 * rcl_soft_migration_state() - migrating group @dg's state: the worse of
 * its old layout's (its data not yet migrated is there) and its new one's,
 * from the record's member states. Offline: the migration can never end,
 * and rcl_soft_migrate_guard() lets every change through, so that the VD
 * can be deleted.
 */
enum rcl_vd_state rcl_soft_migration_state(const struct rcl_soft_dg *dg);

/* rcl_soft_migrate_finish() - VD @vd's migration has copied everything: switch over. */
enum rcl_status rcl_soft_migrate_finish(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err);

/**
 * rcl_soft_migration_plan() - the plan of the migration group @dg (with
 * "migrate") of VD @vd runs, on drives of @sector_size.
 * Return: RCL_OK; RCL_CORRUPT when the record's migration cannot be.
 */
enum rcl_status rcl_soft_migration_plan(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                        unsigned sector_size, struct rcl_soft_migration_plan *plan,
                                        struct rcl_error *err);

/*
 * rcl_soft_migration_old() - @dg and @vd as they were before the
 * migration, into @old_dg and @old_vd.
 */
void rcl_soft_migration_old(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                            struct rcl_soft_dg *old_dg, struct rcl_soft_vd *old_vd);

/**
 * struct rcl_soft_migration_marks - the checkpoint writer of a running
 * migration: each member's drive (-1: lost, left alone; the owner keeps
 * them in step with the reshape's) and a buffer for its md superblock,
 * read afresh at each checkpoint. A member a checkpoint cannot be written
 * to is reported to the reshape's @failed.
 */
struct rcl_soft_migration_marks {
	const struct rcl_soft_migration_plan *plan;
	unsigned count;
	int fd[RCL_SOFT_ARRAY_MAX];
	struct rcl_md_super1 *sb[RCL_SOFT_ARRAY_MAX];
};

/**
 * rcl_soft_migration_marks_open() - read every member's (but the lost
 * ones', @fds -1) superblock and checkpoint block, and the checkpoint to
 * resume from into *@mark.
 * Return: RCL_OK; RCL_CORRUPT (no member has a valid block), RCL_SYSTEM,
 * RCL_NOMEM. Close with _close() in every case.
 */
enum rcl_status rcl_soft_migration_marks_open(struct rcl_soft_migration_marks *m,
                                              const struct rcl_soft_migration_plan *plan,
                                              const int *fds, struct rcl_soft_reshape_mark *mark,
                                              struct rcl_error *err);
void rcl_soft_migration_marks_close(struct rcl_soft_migration_marks *m);

/* rcl_soft_migration_save() - reshape.h's @save: @mark on every member, synced. */
int rcl_soft_migration_save(void *marks, const struct rcl_soft_reshape_mark *mark);

#endif /* RCL_SOFT_MIGRATE_H */
