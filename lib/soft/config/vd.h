/* SPDX-License-Identifier: MIT */
/*
 * vd.h - creating, deleting and changing a soft controller's virtual
 * drives: the backend's create_vd, delete_vd and set_vd (hot spares are
 * spare.h's).
 *
 * Every change follows change.h's crash-safe order.
 */
#ifndef RCL_SOFT_VD_H
#define RCL_SOFT_VD_H

#include "soft/soft.h"

/**
 * rcl_soft_create_vd() - the backend's create_vd, @params checked by
 * rcl_vd_params_check(). Unconfigured drives make a new group (members in
 * @params order); exactly one group's members add a VD in its free space.
 * @params->spares become dedicated spares of a new group in the same
 * change (rcl_soft_add_hotspare()).
 * Return: RCL_OK and *@vd; RCL_NOT_FOUND (no such drive); RCL_NOT_ALLOWED
 * (a missing or foreign drive, drives of a group mixed with others, a
 * limit reached, spares for an existing or a RAID0 group); RCL_NEED_FORCE
 * (an unconfigured drive holds a file system or partition table, without
 * @params->force); RCL_INVALID_PARAM (another level than the group's, too
 * little free space, mixed sector sizes); RCL_DRIVE_TOO_SMALL (a spare);
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_soft_create_vd(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                   unsigned *vd, struct rcl_error *err);

/**
 * rcl_soft_delete_vd() - the backend's delete_vd: without @force, refuse
 * (RCL_NEED_FORCE) when the VD's first strip starts with a file system or
 * partition table signature, or cannot be read. The group goes with its
 * last VD, and its drives become blank.
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_NEED_FORCE; RCL_SYSTEM; RCL_NOMEM.
 */
enum rcl_status rcl_soft_delete_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                   struct rcl_error *err);

/**
 * rcl_soft_delete_config() - the backend's delete_config: every VD, as
 * rcl_soft_delete_vd() checks each (all before any goes), in one change;
 * global hot spares stay.
 * Return: RCL_OK; RCL_NEED_FORCE; RCL_NOT_ALLOWED (a migration runs);
 * RCL_SYSTEM; RCL_NOMEM.
 */
enum rcl_status rcl_soft_delete_config(struct rcl_ctrl *ctrl, bool force, struct rcl_error *err);

/**
 * rcl_soft_set_vd() - the backend's set_vd: name and policies, in the
 * configuration record only (the md superblocks name arrays by VD id).
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_SYSTEM; RCL_NOMEM.
 */
enum rcl_status rcl_soft_set_vd(struct rcl_ctrl *ctrl, unsigned vd,
                                const struct rcl_vd_props *props, struct rcl_error *err);

/**
 * rcl_soft_refresh() - read the configuration from the drives again and
 * rebuild the model (ctrl->drives, ->dgs, ->vds). On failure the old model
 * stays and the controller is marked stale: the next change reads first.
 */
enum rcl_status rcl_soft_refresh(struct rcl_ctrl *ctrl, struct rcl_error *err);

/**
 * rcl_soft_set_consistent() - VD @vd's parity or copies agree (a full or
 * background initialization finished): the record says so. Step (b) alone.
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_SYSTEM; RCL_NOMEM.
 */
enum rcl_status rcl_soft_set_consistent(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err);

#endif /* RCL_SOFT_VD_H */
