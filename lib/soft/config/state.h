/* SPDX-License-Identifier: MIT */
/*
 * state.h - the states of a soft controller's members: the backend's
 * set_drive_state, in the configuration record and in md's superblocks.
 */
#ifndef RCL_SOFT_STATE_H
#define RCL_SOFT_STATE_H

#include "change.h"

/**
 * rcl_soft_set_drive_state() - the backend's set_drive_state for member
 * @ref (rcl_ctrl_set_drive_state() has checked its state). In change.h's
 * order: (a) in every VD's array the member belongs to, the superblocks of
 * the members that hold data (and of the group's dedicated spares) get
 * its role (0xfffe, faulty, unless it is online now) and events one up;
 * a member set online gets its own superblock back too; (b) the record
 * with its new state; (c) for MISSING and GOOD, its drive is blanked: it
 * has left the group, unconfigured good.
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_NOT_ALLOWED (not a member);
 * RCL_CORRUPT (a superblock), RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_soft_set_drive_state(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         enum rcl_drive_change change, struct rcl_error *err);

/**
 * rcl_soft_fail_member() - record that member @m (in its group's member
 * order) of VD @vd, the drive @drive, failed an I/O, as
 * rcl_soft_set_drive_state() records RCL_DRIVE_SET_FAILED, from the
 * surviving members alone: the failed drive is found by its place in the
 * configuration, not by what its slot holds now, and is neither read nor
 * written (it may be truncated, gone or unreadable), so its own superblock
 * and record keep their older events and generation, which loading and md
 * take for stale. A report that comes after another drive took the place
 * (a hot spare, once the failure was recorded another way) is not the
 * new drive's failure: @drive must still be member @m.
 * Return: RCL_OK; RCL_NOT_FOUND (no such VD or member, or member @m is
 * not @drive now); RCL_NOT_ALLOWED (the member holds no data: neither
 * online nor rebuilding); as rcl_soft_set_drive_state() otherwise.
 * Nothing changes on failure.
 */
enum rcl_status rcl_soft_fail_member(struct rcl_ctrl *ctrl, unsigned vd, unsigned m,
                                     const struct rcl_guid *drive, struct rcl_error *err);

/*
 * rcl_soft_sync_roles() - step (a) for VD @vd: the md array member @m
 * belongs to gets the roles @dg's member states give, events one up, on
 * each superblock of a member that holds data (online or rebuilding) and
 * of a dedicated spare, and the freshest one's array name. With no member
 * holding data, nothing is written.
 */
enum rcl_status rcl_soft_sync_roles(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                                    const struct rcl_soft_vd *vd, unsigned m,
                                    struct rcl_error *err);

#endif /* RCL_SOFT_STATE_H */
