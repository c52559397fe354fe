// SPDX-License-Identifier: MIT
/*
 * slot-health.c - what a soft controller keeps of a drive's health with
 * its slot, in its state file: the media errors the patrol read found on
 * the drive while it was unconfigured (no member to fail for them).
 */
#include "soft.h"

enum rcl_status rcl_soft_count_media_errors(struct rcl_ctrl *ctrl, unsigned slot, unsigned n,
                                            struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;

	for (size_t i = 0; i < sc->slot_count; i++) {
		struct soft_slot *s = &sc->slots[i];
		enum rcl_status st;

		if (s->slot != slot)
			continue;
		s->media_errors += n;
		st = rcl_soft_save_state(sc, err);
		if (st)
			s->media_errors -= n;
		return st;
	}
	return rcl_fail(err, RCL_NOT_FOUND, "no drive in slot %u", slot);
}
