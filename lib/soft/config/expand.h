/* SPDX-License-Identifier: MIT */
/*
 * expand.h - growing a soft controller's VD into the free space right
 * after it: the backend's vd_expansion and expand_vd (expand.c says how,
 * and in which crash-safe order).
 */
#ifndef RCL_SOFT_EXPAND_H
#define RCL_SOFT_EXPAND_H

#include "soft/soft.h"

/**
 * rcl_soft_vd_expansion() - the backend's vd_expansion: how far VD @vd can
 * grow, into @out. A RAID50/60, a VD of a group being migrated or with a
 * member not online, or one whose md bitmap has no room to grow cannot
 * (@out->why says so).
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_SYSTEM; RCL_NOMEM.
 */
enum rcl_status rcl_soft_vd_expansion(struct rcl_ctrl *ctrl, unsigned vd,
                                      struct rcl_vd_expansion *out, struct rcl_error *err);

/**
 * rcl_soft_expand_vd() - the backend's expand_vd: VD @vd grown by at least
 * @bytes (whole MiB of partition on every member), with @expand_array its
 * group first to the end of its smallest member and dedicated spare. A
 * redundant VD is recorded not consistent (the process initializes it).
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_NOT_ALLOWED (it cannot grow so far);
 * RCL_SYSTEM; RCL_NOMEM.
 */
enum rcl_status rcl_soft_expand_vd(struct rcl_ctrl *ctrl, unsigned vd, uint64_t bytes,
                                   bool expand_array, struct rcl_error *err);

#endif /* RCL_SOFT_EXPAND_H */
