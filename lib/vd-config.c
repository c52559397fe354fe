// SPDX-License-Identifier: MIT
/*
 * vd-config.c - the commands that change a controller's whole
 * configuration of virtual drives at once: "delete config" and "add vd
 * each", on top of vd.c's rules for one VD.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

enum rcl_status rcl_ctrl_delete_config(struct rcl_ctrl *ctrl, bool force, size_t *count,
                                       struct rcl_error *err)
{
	unsigned ids[RCL_MAX_VDS];
	size_t n = ctrl->vd_count;
	enum rcl_status st = RCL_OK;

	*count = 0;
	for (size_t i = 0; i < n; i++)
		ids[i] = ctrl->vds[i].id;
	/* Without force the first export refuses before any stops; with it, each stops. */
	for (size_t i = 0; !st && i < n; i++)
		st = rcl_ctrl_export_release_vd(ctrl, ids[i], force, err);
	if (!st && n)
		st = RCL_OP(ctrl, delete_config, "deleting the configuration", err, force);
	for (size_t i = 0; !st && i < n; i++)
		(void)rcl_event_record(ctrl, RCL_EVENT_VD_DELETED, NULL,
		                       "Deleted VD %u (delete config)", ids[i]);
	if (!st)
		*count = n;
	return st;
}

/* The unconfigured good drives "add vd each" makes VDs of: those @p lists, or all. */
static enum rcl_status each_drives(const struct rcl_ctrl *ctrl, const struct rcl_vd_params *p,
                                   struct rcl_drive_ref *refs, size_t *n, struct rcl_error *err)
{
	*n = 0;
	for (size_t i = 0; i < p->drive_count; i++) {
		const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, &p->drives[i]);

		if (!d)
			return rcl_fail(err, RCL_NOT_FOUND, "drive %u:%u not found on /c%u",
			                p->drives[i].enclosure, p->drives[i].slot, ctrl->entry.id);
		if (d->state != RCL_PD_UGOOD)
			return rcl_fail(err, RCL_NOT_ALLOWED,
			                "drive %u:%u is %s: add vd each makes VDs of unconfigured "
			                "good drives only",
			                d->enclosure, d->slot, rcl_pd_state_abbrev(d->state));
		refs[(*n)++] = p->drives[i];
	}
	for (size_t i = 0; !p->drive_count && i < ctrl->drive_count; i++) {
		const struct rcl_drive *d = &ctrl->drives[i];

		if (d->present && d->state == RCL_PD_UGOOD && !d->foreign && !d->unusable[0] &&
		    d->wiped_by == RCL_TASK_NONE)
			refs[(*n)++] = (struct rcl_drive_ref){d->enclosure, d->slot};
	}
	if (!*n)
		return rcl_fail(err, RCL_NOT_FOUND,
		                "/c%u has no unconfigured good drive: add vd each makes a RAID0 of "
		                "each one",
		                ctrl->entry.id);
	return RCL_OK;
}

/* Every VD "add vd each" makes must pass before the first is made. */
static enum rcl_status check_each(const struct rcl_ctrl *ctrl, const struct rcl_vd_params *p,
                                  const struct rcl_drive_ref *refs, size_t n, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	if (p->level != RCL_RAID0)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "add vd each makes a RAID0 of each drive; %s needs several drives "
		                "in one VD: use add vd type=%s drives=...",
		                rcl_raid_level_name(p->level), rcl_raid_level_name(p->level));
	if (p->spare_count || p->drives_per_span > 1)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "add vd each makes single-drive RAID0s: it takes no spares= or "
		                "pdperarray=");
	if (ctrl->vd_count + n > ctrl->caps.max_vds || ctrl->dg_count + n > ctrl->caps.max_dgs)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "%zu more VDs do not fit on /c%u: it takes %u VDs and %u drive "
		                "groups",
		                n, ctrl->entry.id, ctrl->caps.max_vds, ctrl->caps.max_dgs);
	for (size_t i = 0; !st && i < n; i++) {
		struct rcl_vd_params one = *p;

		one.drives = &refs[i];
		one.drive_count = 1;
		st = rcl_vd_params_check(&one, err);
		if (!st)
			st = rcl_vd_check_fits(ctrl, &one, err);
	}
	return st;
}

enum rcl_status rcl_ctrl_create_vd_each(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                        unsigned *ids, size_t *count, struct rcl_error *err)
{
	struct rcl_drive_ref *refs =
	    rcl_calloc(ctrl->drive_count + params->drive_count + 1, sizeof(*refs));
	struct rcl_buf made = RCL_BUF_INIT;
	enum rcl_status st = refs ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
	size_t n = 0;

	*count = 0;
	if (!st)
		st = each_drives(ctrl, params, refs, &n, err);
	if (!st)
		st = check_each(ctrl, params, refs, n, err);
	for (size_t i = 0; !st && i < n; i++) {
		struct rcl_vd_params one = *params;

		one.drives = &refs[i];
		one.drive_count = 1;
		st = rcl_ctrl_create_vd(ctrl, &one, &ids[i], err);
		if (!st)
			rcl_buf_addf(&made, "%s/v%u", (*count)++ ? ", " : "", ids[i]);
	}
	/* Say what stays: the VDs made before the drive that failed. */
	if (st && *count) {
		char why[RCL_ERROR_MSG_MAX];

		snprintf(why, sizeof(why), "%s", err ? err->msg : "");
		st = rcl_fail(err, st, "made %s, then: %s", made.buf, why);
	}
	rcl_buf_release(&made);
	rcl_free(refs);
	return st;
}
