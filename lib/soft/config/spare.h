/* SPDX-License-Identifier: MIT */
/*
 * spare.h - a soft controller's hot spares: the backend's add_hotspare and
 * delete_hotspare, and the dedicated spares "add vd ... spares=" makes.
 * Every change follows change.h's crash-safe order.
 */
#ifndef RCL_SOFT_SPARE_H
#define RCL_SOFT_SPARE_H

#include "change.h"

/**
 * rcl_soft_add_hotspare() - the backend's add_hotspare: unconfigured drive
 * @ref becomes a global hot spare, or one dedicated to groups @dgs,
 * serving as @flags (RCL_SPARE_*) say. A
 * spare of one RAID1/5/6/10 group is md's too: (a) a GPT with the group's
 * entries, whose md superblocks then join each VD's array (member.h). A
 * global spare, or a RAID50/60 group's or several groups' (config.h), is
 * the record's only: (a) a GPT with the metadata partition alone. Then
 * (b) the record listing it, on every member and spare.
 * Return: RCL_OK; RCL_NOT_FOUND (drive or group); RCL_NOT_ALLOWED
 * (missing, foreign, a member or spare already, RCL_MAX_HOT_SPARES
 * reached, a RAID0 group); RCL_INVALID_PARAM (a group named twice);
 * RCL_NEED_FORCE (it holds a file system or partition table, without
 * @force); RCL_DRIVE_TOO_SMALL (it cannot hold a group's extent, or its
 * sector size differs); RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_soft_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const unsigned *dgs, size_t dg_count, unsigned flags,
                                      bool force, struct rcl_error *err);

/**
 * rcl_soft_delete_hotspare() - the backend's delete_hotspare, for global
 * and dedicated spares: (b) the record without @ref, written to it too,
 * then (c) the drive is blanked.
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_NOT_ALLOWED (not a hot spare);
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_soft_delete_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_error *err);

/* rcl_soft_spare_check_level() - refuse dedicated spares for a group of @level. */
enum rcl_status rcl_soft_spare_check_level(enum rcl_raid_level level, struct rcl_error *err);

/* rcl_soft_spares_pick() - add vd ... spares=: @p's spares become new group @dg's. */
enum rcl_status rcl_soft_spares_pick(struct rcl_soft_change *c, const struct rcl_vd_params *p,
                                     struct rcl_soft_dg *dg, struct rcl_error *err);

/* rcl_soft_spares_write() - step (a) for new VD @vd of @dg: its spares join its array. */
enum rcl_status rcl_soft_spares_write(struct rcl_soft_change *c, struct rcl_soft_dg *dg,
                                      const struct rcl_soft_vd *vd, struct rcl_error *err);

/*
 * rcl_soft_spares_rejoin() - step (a) after VD @vd of @dg got new members'
 * superblocks (a migration's start or end): spares whose md device number
 * a member now has get the lowest free ones, and every present spare joins
 * the array again as it now is.
 */
enum rcl_status rcl_soft_spares_rejoin(struct rcl_soft_change *c, struct rcl_soft_dg *dg,
                                       const struct rcl_soft_vd *vd, struct rcl_error *err);

/*
 * rcl_soft_spares_forget_dg() - group @id is gone from @cfg: the record's
 * spares dedicated to it serve their other groups, or leave with it.
 */
void rcl_soft_spares_forget_dg(struct rcl_soft_config *cfg, unsigned id);

/*
 * rcl_soft_mark_recovery() - VD @vd's md superblock on disk @i says its
 * member holds no data yet (recovery offset 0): md recovers it before
 * trusting it, as the rebuild the record asks for does.
 */
enum rcl_status rcl_soft_mark_recovery(const struct rcl_soft_change *c, int i,
                                       const struct rcl_soft_vd *vd, struct rcl_error *err);

/**
 * rcl_soft_spare_order() - the hot spares of @cfg that may take the place
 * of a member of group @dg_id last seen in slot @slot, in the order StorCLI
 * tries them: those dedicated to the group (md's, then the record's), then
 * the global ones. A spare with enclosure affinity (RCL_SPARE_ENCL_AFFINITY)
 * is left out unless its slot is in the member's enclosure; @encl_of gives
 * a slot's enclosure (a soft controller has one, so affinity never leaves
 * a spare out there, but the rule is the choice's, not the enclosure
 * count's). Their GPT disk GUIDs go into @out (room for
 * 2 * RCL_MAX_HOT_SPARES). Return: their count.
 */
size_t rcl_soft_spare_order(const struct rcl_soft_config *cfg, unsigned dg_id, unsigned slot,
                            unsigned (*encl_of)(unsigned slot), struct rcl_guid *out);

/**
 * rcl_soft_replace_member() - a hot spare takes the place of member @m of
 * group @dg_id (offline, failed or missing) and is rebuilt from the start:
 * the first spare of rcl_soft_spare_order() that is present and big enough; or,
 * with @onto, that unconfigured drive ("start rebuild" on it). In
 * change.h's order: (a) the spare gets the group's GPT and in each VD's
 * partition member @m's md superblock (role @m, recovery_offset 0, the
 * array's name), the roles synced on it and the others; (b) the record with the spare as member @m
 * in state REBUILD, rebuilt_lba at the group's first LBA; (c) the replaced
 * drive, in no group now, is blanked, and a failed one marked UBad
 * (rcl_soft_mark_bad()). *@spare: the drive that took it.
 * Return: RCL_OK; RCL_NOT_FOUND (no such member, or no usable spare);
 * RCL_NOT_ALLOWED (the member holds data, @onto is configured);
 * RCL_DRIVE_TOO_SMALL (@onto cannot hold the group's extent); RCL_SYSTEM,
 * RCL_NOMEM.
 */
enum rcl_status rcl_soft_replace_member(struct rcl_ctrl *ctrl, unsigned dg_id, unsigned m,
                                        const struct rcl_drive_ref *onto,
                                        struct rcl_drive_ref *spare, struct rcl_error *err);

/* What rcl_soft_set_rebuilt() takes for a rebuild that is done. */
#define RCL_SOFT_REBUILT_ALL UINT64_MAX

/**
 * rcl_soft_set_rebuilt() - rebuilding member @m of group @dg_id holds data
 * below LBA @lba (rcl_soft_sweep_lba()): the record says so (step (b)
 * alone). With RCL_SOFT_REBUILT_ALL (every VD rebuilt, flushed) the record
 * first says it holds data to the group's end, then the member is in sync
 * as md records a recovery's end: every superblock of its arrays at new
 * events, its role active, its own without a recovery offset; then the
 * record has it online.
 * Return: RCL_OK; RCL_NOT_ALLOWED (not being rebuilt); RCL_NOT_FOUND (its
 * drive is gone); RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_soft_set_rebuilt(struct rcl_ctrl *ctrl, unsigned dg_id, unsigned m,
                                     uint64_t lba, struct rcl_error *err);

#endif /* RCL_SOFT_SPARE_H */
