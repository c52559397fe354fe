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
 * @ref becomes a global hot spare, or one dedicated to groups @dgs. A
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
                                      const unsigned *dgs, size_t dg_count, bool force,
                                      struct rcl_error *err);

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
 * rcl_soft_spares_forget_dg() - group @id is gone from @cfg: the record's
 * spares dedicated to it serve their other groups, or leave with it.
 */
void rcl_soft_spares_forget_dg(struct rcl_soft_config *cfg, unsigned id);

#endif /* RCL_SOFT_SPARE_H */
