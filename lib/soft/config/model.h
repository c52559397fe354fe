/* SPDX-License-Identifier: MIT */
/*
 * model.h - the controller's disk groups, virtual drives and drive states
 * as the configuration read from its drives describes them.
 */
#ifndef RCL_SOFT_MODEL_H
#define RCL_SOFT_MODEL_H

#include "scan.h"

/**
 * struct rcl_soft_view - a new model, built in two steps so that a change
 * already on disk never fails to show: prepare (which may fail) before the
 * change, apply (which cannot) after it.
 * @state:	the configuration read from the drives.
 * @drives:	room for every slot and every member that may be missing.
 */
struct rcl_soft_view {
	struct rcl_soft_state *state;
	struct rcl_drive *drives;
	struct rcl_dg *dgs;
	struct rcl_vd *vds;
};

/**
 * rcl_soft_view_prepare() - sort @sc's slots, read the configuration from
 * their drives (committing it on a drive that holds it pending: one a
 * crash left behind) and allocate the model's arrays.
 * Return: RCL_OK; rcl_soft_scan()'s errors; RCL_NOMEM.
 */
enum rcl_status rcl_soft_view_prepare(struct soft_ctrl *sc, struct rcl_soft_view *view,
                                      struct rcl_error *err);

/**
 * rcl_soft_view_apply() - make @view the model of @ctrl and its state
 * @sc's: ctrl->drives (each slot probed, then members Onln with their
 * group, span and row, hot spares GHS or DHS (with their group),
 * everyone else UGood, Msng for a vanished backing
 * store), ctrl->dgs and ctrl->vds. A member whose drive is not there shows
 * as Msng in the slot it was last seen in, unless another drive sits
 * there. A VD is Optl with all members, else Dgrd, Pdgd or OfLn as its
 * level allows. Takes over @view's memory.
 */
void rcl_soft_view_apply(struct rcl_ctrl *ctrl, struct soft_ctrl *sc, struct rcl_soft_view *view);

/* rcl_soft_view_release() - free a view that was not applied. */
void rcl_soft_view_release(struct rcl_soft_view *view);

/* rcl_soft_model_free() - free ctrl->dgs and ctrl->vds. */
void rcl_soft_model_free(struct rcl_ctrl *ctrl);

/* rcl_soft_vd_model() - the model of stored VD @vd of group @dg (its state @dg's). */
void rcl_soft_vd_model(const struct rcl_soft_vd *vd, const struct rcl_dg *dg, struct rcl_vd *out);

#endif /* RCL_SOFT_MODEL_H */
