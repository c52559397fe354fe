// SPDX-License-Identifier: MIT
/*
 * drive.c - drive operations whatever the backend: hot spares, the locate
 * LED, JBOD and what only the backend can tell about a drive. Each wrapper checks the drive's state
 * first, so every backend refuses the same mistakes with the same words.
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

enum rcl_status rcl_drive_present(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
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

enum rcl_status rcl_drive_check_usable(const struct rcl_ctrl *ctrl, const struct rcl_drive *d,
                                       struct rcl_error *err)
{
	/* StorCLI's verb for each: "show erase", "stop initialization". */
	const char *verb = d->wiped_by == RCL_TASK_DRIVE_INIT ? "initialization" : "erase";

	if (d->wiped_by != RCL_TASK_NONE)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "drive %u:%u is being overwritten by its %s (raidcli /c%u/e%u/s%u "
		                "show %s): wait for its end, or stop it: raidcli /c%u/e%u/s%u "
		                "stop %s",
		                d->enclosure, d->slot, rcl_task_kind_name(d->wiped_by),
		                ctrl->entry.id, d->enclosure, d->slot, verb, ctrl->entry.id,
		                d->enclosure, d->slot, verb);
	if (!d->unusable[0])
		return RCL_OK;
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "drive %u:%u is UBad: it %s; to erase it and use it: raidcli "
	                "/c%u/e%u/s%u set good force",
	                d->enclosure, d->slot, d->unusable, ctrl->entry.id, d->enclosure, d->slot);
}

enum rcl_status rcl_ctrl_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const unsigned *dgs, size_t dg_count, unsigned flags,
                                      bool force, struct rcl_error *err)
{
	const struct rcl_drive *d;
	size_t spares = 0;
	enum rcl_status st = rcl_drive_present(ctrl, ref, &d, err);

	if (!st)
		st = rcl_drive_check_usable(ctrl, d, err);
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
	st =
	    RCL_OP(ctrl, add_hotspare, "adding a hot spare", err, ref, dgs, dg_count, flags, force);
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
	return RCL_OP(ctrl, set_locate, "locating a drive", err, ref, on);
}

enum rcl_status rcl_ctrl_drive_detail(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                                      enum rcl_drive_detail what, const char *prefix,
                                      struct rcl_node *out, struct rcl_error *err)
{
	if (!ctrl->entry.ops->drive_detail && what == RCL_DETAIL_ALL)
		return RCL_OK;
	return RCL_OP(ctrl, drive_detail, "a drive's health log", err, drive, what, prefix, out);
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
	st = RCL_OP(ctrl, set_jbod_mode, "JBOD mode", err, on);
	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_CTRL_CHANGED, NULL, "JBOD mode %s",
		                       on ? "on" : "off");
	return st;
}

/* rcl_ctrl_set_drive_jbod(), @force passed to the backend for a JBOD drive turned off. */
static enum rcl_status set_drive_jbod(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      bool on, bool force, struct rcl_error *err)
{
	const struct rcl_drive *d;
	enum rcl_status st = rcl_drive_present(ctrl, ref, &d, err);
	enum rcl_pd_state from = on ? RCL_PD_UGOOD : RCL_PD_JBOD;

	if (!st && on)
		st = rcl_drive_check_usable(ctrl, d, err);
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
	st = RCL_OP(ctrl, set_drive_jbod, "a JBOD drive", err, ref, on, force);
	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_DRIVE_STATE_CHANGED, NULL,
		                       "Drive /c%u/e%u/s%u state changed to %s", ctrl->entry.id,
		                       ref->enclosure, ref->slot, on ? "JBOD" : "UGood");
	return st;
}

enum rcl_status rcl_ctrl_set_drive_jbod(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                        bool on, struct rcl_error *err)
{
	return set_drive_jbod(ctrl, ref, on, false, err);
}

enum rcl_status rcl_ctrl_delete_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_error *err)
{
	const struct rcl_drive *d;
	enum rcl_status st = rcl_drive_present(ctrl, ref, &d, err);

	if (st)
		return st;
	if (d->state != RCL_PD_GHS && d->state != RCL_PD_DHS)
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is not a hot spare (%s)",
		                ref->enclosure, ref->slot, rcl_pd_state_abbrev(d->state));
	st = RCL_OP(ctrl, delete_hotspare, "deleting a hot spare", err, ref);
	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_HOTSPARE_REMOVED, NULL,
		                       "Drive /c%u/e%u/s%u is no longer a hot spare",
		                       ctrl->entry.id, ref->enclosure, ref->slot);
	return st;
}

const char *rcl_drive_change_name(enum rcl_drive_change change)
{
	static const char *const names[] = {
	    [RCL_DRIVE_SET_ONLINE] = "online",   [RCL_DRIVE_SET_OFFLINE] = "offline",
	    [RCL_DRIVE_SET_MISSING] = "missing", [RCL_DRIVE_SET_GOOD] = "good",
	    [RCL_DRIVE_SET_FAILED] = "failed",
	};

	if ((size_t)change < sizeof(names) / sizeof(names[0]))
		return names[change];
	return "unknown";
}

/* Whether @state is one @change starts from (the states rcl_ctrl_set_drive_state() lists). */
static bool takes(enum rcl_drive_change change, enum rcl_pd_state state, bool member)
{
	switch (change) {
	case RCL_DRIVE_SET_ONLINE:
		return state == RCL_PD_OFFLINE || (member && state == RCL_PD_UBAD);
	case RCL_DRIVE_SET_MISSING:
		return state == RCL_PD_OFFLINE;
	case RCL_DRIVE_SET_OFFLINE:
		return state == RCL_PD_ONLINE;
	case RCL_DRIVE_SET_GOOD:
		return state == RCL_PD_UBAD;
	case RCL_DRIVE_SET_FAILED:
		return member && (state == RCL_PD_ONLINE || state == RCL_PD_REBUILD);
	}
	return false;
}

static const char *const taken_states[] = {
    [RCL_DRIVE_SET_ONLINE] = "an Offln drive, or a failed member (UBad) with force",
    [RCL_DRIVE_SET_OFFLINE] = "an Onln drive",
    [RCL_DRIVE_SET_MISSING] = "an Offln drive (set offline first)",
    [RCL_DRIVE_SET_GOOD] = "a UBad or JBOD drive",
    [RCL_DRIVE_SET_FAILED] = "an Onln or Rbld member",
};

/* The state @dg's VDs would have with member @d no longer holding data. */
static enum rcl_vd_state state_without(const struct rcl_ctrl *ctrl, const struct rcl_dg *dg,
                                       const struct rcl_drive *d)
{
	unsigned lost[RCL_MAX_SPANS];

	for (unsigned s = 0; s < dg->spans && s < RCL_MAX_SPANS; s++)
		lost[s] = dg->drives_per_span;
	/* Count what holds data, not what is lost: a vanished member may have no row. */
	for (size_t i = 0; i < ctrl->drive_count; i++) {
		const struct rcl_drive *o = &ctrl->drives[i];

		if (o != d && o->dg == (int)dg->id && o->state == RCL_PD_ONLINE &&
		    o->span < RCL_MAX_SPANS)
			lost[o->span]--;
	}
	return rcl_raid_state(dg->level, dg->spans, dg->drives_per_span, lost);
}

/* StorCLI's rules for @change of drive @d (rcl_ctrl_set_drive_state()). */
static enum rcl_status check_change(const struct rcl_ctrl *ctrl, const struct rcl_drive *d,
                                    const struct rcl_drive_ref *ref, enum rcl_drive_change change,
                                    bool force, struct rcl_error *err)
{
	const struct rcl_dg *dg = d->dg < 0 ? NULL : rcl_ctrl_dg_by_id(ctrl, (unsigned)d->dg);

	if ((unsigned)change > RCL_DRIVE_SET_FAILED)
		return rcl_fail(err, RCL_INVALID_PARAM, "unknown drive state change %d", change);
	if (!takes(change, d->state, dg != NULL))
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is %s; set %s takes %s",
		                ref->enclosure, ref->slot, rcl_pd_state_abbrev(d->state),
		                rcl_drive_change_name(change), taken_states[change]);
	if (change == RCL_DRIVE_SET_GOOD && d->unusable[0] && !force)
		return rcl_fail(
		    err, RCL_NEED_FORCE,
		    "drive %u:%u %s; use force to erase it (all of it is lost) and make "
		    "it unconfigured good",
		    ref->enclosure, ref->slot, d->unusable);
	if (change == RCL_DRIVE_SET_ONLINE && d->state == RCL_PD_UBAD && !force)
		return rcl_fail(err, RCL_NEED_FORCE,
		                "drive %u:%u is a failed member of disk group %u; use force to "
		                "return it: it is rebuilt from the other members, or, where its "
		                "virtual drives cannot do without it, taken back as it is",
		                ref->enclosure, ref->slot, dg->id);
	if (change == RCL_DRIVE_SET_GOOD && dg && !force)
		return rcl_fail(
		    err, RCL_NEED_FORCE,
		    "drive %u:%u is a failed member of disk group %u; use force to make "
		    "it unconfigured good, its place left for a replacement",
		    ref->enclosure, ref->slot, dg->id);
	if (change == RCL_DRIVE_SET_OFFLINE && dg && !force &&
	    state_without(ctrl, dg, d) == RCL_VD_OFFLINE)
		return rcl_fail(err, RCL_NEED_FORCE,
		                "taking drive %u:%u offline takes the %s virtual drives of disk "
		                "group %u offline; use force to do it anyway",
		                ref->enclosure, ref->slot, rcl_raid_level_name(dg->level), dg->id);
	return RCL_OK;
}

enum rcl_status rcl_ctrl_check_remove_drive(const struct rcl_ctrl *ctrl,
                                            const struct rcl_drive *drive, bool force,
                                            struct rcl_error *err)
{
	const struct rcl_dg *dg =
	    drive->dg < 0 ? NULL : rcl_ctrl_dg_by_id(ctrl, (unsigned)drive->dg);
	enum rcl_vd_state after;

	/* A member that is not online holds no data its group still reads. */
	if (force || !dg || drive->state != RCL_PD_ONLINE)
		return RCL_OK;
	after = state_without(ctrl, dg, drive);
	if (after == RCL_VD_OPTIMAL)
		return RCL_OK;
	return rcl_fail(
	    err, RCL_NEED_FORCE,
	    "removing drive %u:%u %s the %s virtual drives of disk group %u%s; use "
	    "force to do it anyway",
	    drive->enclosure, drive->slot, after == RCL_VD_OFFLINE ? "takes" : "degrades",
	    rcl_raid_level_name(dg->level), dg->id, after == RCL_VD_OFFLINE ? " offline" : "");
}

/* Log the change of drive @ref from @from, and each VD whose state @before differs now. */
static void log_state_change(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                             enum rcl_drive_change change, enum rcl_pd_state from,
                             const struct rcl_vd *before, size_t before_count)
{
	const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, ref);
	enum rcl_pd_state to = d ? d->state : RCL_PD_MISSING;

	(void)rcl_event_record(
	    ctrl,
	    change == RCL_DRIVE_SET_FAILED ? RCL_EVENT_DRIVE_FAILED : RCL_EVENT_DRIVE_STATE_CHANGED,
	    NULL, "Drive /c%u/e%u/s%u state changed from %s to %s%s", ctrl->entry.id,
	    ref->enclosure, ref->slot, rcl_pd_state_abbrev(from), rcl_pd_state_abbrev(to),
	    change == RCL_DRIVE_SET_FAILED ? " (I/O error)" : "");
	rcl_event_vd_states(ctrl, before, before_count);
}

enum rcl_status rcl_ctrl_set_drive_state(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         enum rcl_drive_change change, bool force,
                                         struct rcl_error *err)
{
	const struct rcl_drive *d;
	struct rcl_vd *before;
	enum rcl_pd_state from;
	size_t count = ctrl->vd_count;
	enum rcl_status st = rcl_drive_present(ctrl, ref, &d, err);

	if (st)
		return st;
	if (change == RCL_DRIVE_SET_GOOD && d->state == RCL_PD_JBOD)
		return set_drive_jbod(ctrl, ref, false, force, err);
	st = check_change(ctrl, d, ref, change, force, err);
	if (st)
		return st;
	from = d->state;
	/* The VDs' states before, to log those the change moves (the model is reloaded). */
	before = rcl_calloc(count + 1, sizeof(*before));
	if (!before)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < count; i++)
		before[i] = ctrl->vds[i];
	st = RCL_OP(ctrl, set_drive_state, "changing a drive's state", err, ref, change);
	if (!st)
		log_state_change(ctrl, ref, change, from, before, count);
	rcl_free(before);
	return st;
}

/* The drive in row @row of span @array of group @dg, or NULL. */
static const struct rcl_drive *drive_at(const struct rcl_ctrl *ctrl, unsigned dg, unsigned array,
                                        unsigned row)
{
	for (size_t i = 0; i < ctrl->drive_count; i++) {
		const struct rcl_drive *d = &ctrl->drives[i];

		if (d->dg == (int)dg && d->span == array && d->row == row &&
		    d->state != RCL_PD_DHS && d->state != RCL_PD_GHS && d->state != RCL_PD_MISSING)
			return d;
	}
	return NULL;
}

enum rcl_status rcl_ctrl_insert_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      unsigned dg, unsigned array, unsigned row,
                                      struct rcl_error *err)
{
	const struct rcl_drive *d, *there;
	const struct rcl_dg *g = rcl_ctrl_dg_by_id(ctrl, dg);
	enum rcl_status st =
	    ctrl->caps.inserts_drives
	        ? rcl_drive_present(ctrl, ref, &d, err)
	        : rcl_unsupported(err, ctrl->caps.kind, RCL_INSERT_DRIVE_NAME, NULL);

	if (st)
		return st;
	if (d->state != RCL_PD_UGOOD)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "drive /c%u/e%u/s%u is %s: only an unconfigured good drive "
		                "replaces a missing one",
		                ctrl->entry.id, ref->enclosure, ref->slot,
		                rcl_pd_state_abbrev(d->state));
	if (!g)
		return rcl_fail(err, RCL_NOT_FOUND, "drive group /c%u/d%u not found",
		                ctrl->entry.id, dg);
	/* A backend's group read as no array or no row has no place to fill. */
	if (!g->spans || !g->drives_per_span)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "drive group %u has no array rows: none is missing a drive", dg);
	if (array >= g->spans || row >= g->drives_per_span)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "drive group %u has arrays 0-%u of rows 0-%u, not array %u row %u",
		                dg, g->spans - 1, g->drives_per_span - 1, array, row);
	there = drive_at(ctrl, dg, array, row);
	if (there)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "row %u of array %u of drive group %u holds drive /c%u/e%u/s%u, "
		                "not a missing one",
		                row, array, dg, ctrl->entry.id, there->enclosure, there->slot);
	/* The row's extent must fit: a card would take it and fail the rebuild. */
	if (d->coerced_bytes < g->member_bytes)
		return rcl_fail(err, RCL_DRIVE_TOO_SMALL,
		                "drive %u:%u is too small to replace a member of disk group %u",
		                ref->enclosure, ref->slot, dg);
	return RCL_OP(ctrl, insert_drive, RCL_INSERT_DRIVE_NAME, err, ref, dg, array, row);
}
