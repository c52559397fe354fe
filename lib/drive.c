// SPDX-License-Identifier: MIT
/*
 * drive.c - drive operations whatever the backend: hot spares, the locate
 * LED and JBOD. Each wrapper checks the drive's state first, so every
 * backend refuses the same mistakes with the same words.
 */
#include "internal.h"

const struct rcl_drive *rcl_ctrl_find_drive(const struct rcl_ctrl *ctrl,
                                            const struct rcl_drive_ref *ref)
{
	for (size_t i = 0; i < ctrl->drive_count; i++)
		if (ctrl->drives[i].enclosure == ref->enclosure &&
		    ctrl->drives[i].slot == ref->slot)
			return &ctrl->drives[i];
	return NULL;
}

static enum rcl_status present_drive(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                     const struct rcl_drive **out, struct rcl_error *err)
{
	*out = rcl_ctrl_find_drive(ctrl, ref);
	if (!*out)
		return rcl_fail(err, RCL_NOT_FOUND, "drive %u:%u not found on /c%u", ref->enclosure,
		                ref->slot, ctrl->entry.id);
	if (!(*out)->present)
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is missing", ref->enclosure,
		                ref->slot);
	return RCL_OK;
}

enum rcl_status rcl_ctrl_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const unsigned *dgs, size_t dg_count, bool force,
                                      struct rcl_error *err)
{
	const struct rcl_drive *d;
	size_t spares = 0;
	enum rcl_status st = present_drive(ctrl, ref, &d, err);

	if (st)
		return st;
	if (d->state == RCL_PD_GHS || d->state == RCL_PD_DHS)
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is already a hot spare (%s)",
		                ref->enclosure, ref->slot, rcl_pd_state_abbrev(d->state));
	if (d->state != RCL_PD_UGOOD)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "drive %u:%u is in use (%s); a hot spare must be unconfigured good",
		                ref->enclosure, ref->slot, rcl_pd_state_abbrev(d->state));
	for (size_t i = 0; i < ctrl->drive_count; i++)
		spares +=
		    ctrl->drives[i].state == RCL_PD_GHS || ctrl->drives[i].state == RCL_PD_DHS;
	if (spares >= RCL_MAX_HOT_SPARES)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "/c%u already has %d hot spares, the most it takes", ctrl->entry.id,
		                RCL_MAX_HOT_SPARES);
	st = ctrl->entry.ops->add_hotspare(ctrl, ref, dgs, dg_count, force, err);
	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_HOTSPARE_ADDED, NULL,
		                       "Drive /c%u/e%u/s%u is now a %s hot spare", ctrl->entry.id,
		                       ref->enclosure, ref->slot,
		                       dg_count ? "dedicated" : "global");
	return st;
}

enum rcl_status rcl_ctrl_set_locate(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref, bool on,
                                    struct rcl_error *err)
{
	if (!rcl_ctrl_find_drive(ctrl, ref))
		return rcl_fail(err, RCL_NOT_FOUND, "drive %u:%u not found on /c%u", ref->enclosure,
		                ref->slot, ctrl->entry.id);
	return ctrl->entry.ops->set_locate(ctrl, ref, on, err);
}

enum rcl_status rcl_ctrl_set_jbod_mode(struct rcl_ctrl *ctrl, bool on, struct rcl_error *err)
{
	enum rcl_status st;

	for (size_t i = 0; !on && i < ctrl->drive_count; i++)
		if (ctrl->drives[i].state == RCL_PD_JBOD)
			return rcl_fail(err, RCL_NOT_ALLOWED,
			                "drive %u:%u is JBOD; make it unconfigured good first "
			                "(set good)",
			                ctrl->drives[i].enclosure, ctrl->drives[i].slot);
	st = ctrl->entry.ops->set_jbod_mode(ctrl, on, err);
	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_CTRL_CHANGED, NULL, "JBOD mode %s",
		                       on ? "on" : "off");
	return st;
}

enum rcl_status rcl_ctrl_set_drive_jbod(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                        bool on, struct rcl_error *err)
{
	const struct rcl_drive *d;
	enum rcl_status st = present_drive(ctrl, ref, &d, err);
	enum rcl_pd_state from = on ? RCL_PD_UGOOD : RCL_PD_JBOD;

	if (st)
		return st;
	if (on && !ctrl->info.jbod)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "JBOD mode is off on /c%u; turn it on first: /c%u set jbod=on",
		                ctrl->entry.id, ctrl->entry.id);
	if (d->state != from)
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is %s, not %s", ref->enclosure,
		                ref->slot, rcl_pd_state_abbrev(d->state),
		                rcl_pd_state_abbrev(from));
	st = ctrl->entry.ops->set_drive_jbod(ctrl, ref, on, err);
	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_DRIVE_STATE_CHANGED, NULL,
		                       "Drive /c%u/e%u/s%u state changed to %s", ctrl->entry.id,
		                       ref->enclosure, ref->slot, on ? "JBOD" : "UGood");
	return st;
}

enum rcl_status rcl_ctrl_delete_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_error *err)
{
	const struct rcl_drive *d;
	enum rcl_status st = present_drive(ctrl, ref, &d, err);

	if (st)
		return st;
	if (d->state != RCL_PD_GHS && d->state != RCL_PD_DHS)
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is not a hot spare (%s)",
		                ref->enclosure, ref->slot, rcl_pd_state_abbrev(d->state));
	st = ctrl->entry.ops->delete_hotspare(ctrl, ref, err);
	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_HOTSPARE_REMOVED, NULL,
		                       "Drive /c%u/e%u/s%u is no longer a hot spare",
		                       ctrl->entry.id, ref->enclosure, ref->slot);
	return st;
}
