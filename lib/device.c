// SPDX-License-Identifier: MIT
/*
 * device.c - what a drive does to itself on command, whatever the
 * backend: a format, a firmware download, a telemetry capture, its
 * namespaces. Each call checks here what every kind must refuse (an
 * absent drive, one whose data belongs to a disk group or waits as a hot
 * spare, a destructive change without force, numbers out of range), then
 * hands the drive to its backend through RCL_OP(). A kind whose caps lack
 * the action (drive_actions), or whose backend lacks the operation,
 * answers the one "not supported" failure, the first before any check.
 * What changes the drive's formats or namespaces is logged as an event, as
 * every change is.
 */
#include <stdio.h>

#include "internal.h"

/* The most LBA formats an NVMe namespace lists (NLBAF is 0-based, at most 63). */
#define LBAF_MAX 63
/* The firmware slots NVMe numbers (FRMW: at most 7). */
#define FW_SLOT_MAX 7
/* The telemetry data areas: 1 to 3, and 4 where the drive has an extended one. */
#define TELEMETRY_AREA_MAX 4

enum rcl_status rcl_drive_check_held(const struct rcl_ctrl *ctrl, const struct rcl_drive *d,
                                     const char *name, const char *what, struct rcl_error *err)
{
	if (d->dg >= 0)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "%s is a member of disk group %d: take it out of the "
		                "configuration before %s",
		                name, d->dg, what);
	if (d->state == RCL_PD_GHS || d->state == RCL_PD_DHS)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "%s is a hot spare (%s): take it out of the configuration "
		                "(raidcli /c%u/e%u/s%u delete hotsparedrive) before %s",
		                name, rcl_pd_state_abbrev(d->state), ctrl->entry.id, d->enclosure,
		                d->slot, what);
	return RCL_OK;
}

enum rcl_status rcl_drive_check_destroy(const struct rcl_ctrl *ctrl,
                                        const struct rcl_drive_ref *ref, const char *what,
                                        const char *harm, bool confirm, bool force,
                                        struct rcl_error *err)
{
	const struct rcl_drive *d;
	char name[32];
	enum rcl_status st = rcl_drive_present(ctrl, ref, &d, err);

	snprintf(name, sizeof(name), "drive %u:%u", ref->enclosure, ref->slot);
	if (!st)
		st = rcl_drive_check_held(ctrl, d, name, what, err);
	if (st)
		return st;
	if (!force && (confirm || d->in_use[0]))
		return rcl_fail(err, RCL_NEED_FORCE, "%s %s drive %u:%u%s%s%s; repeat with force",
		                what, harm, ref->enclosure, ref->slot,
		                d->in_use[0] ? ", which is in use (" : "", d->in_use,
		                d->in_use[0] ? ")" : "");
	return RCL_OK;
}

/*
 * Whether @ctrl's kind does @action (its caps' drive_actions), before any
 * other check: a kind that does not is refused, naming it as @what (NULL:
 * rcl_drive_action_name()).
 */
static enum rcl_status check_offered(const struct rcl_ctrl *ctrl, enum rcl_drive_action action,
                                     const char *what, struct rcl_error *err)
{
	if (ctrl->caps.drive_actions & (1u << action))
		return RCL_OK;
	return rcl_unsupported(err, ctrl->caps.kind, what ? what : rcl_drive_action_name(action),
	                       NULL);
}

enum rcl_status rcl_ctrl_format_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const struct rcl_format *fmt, struct rcl_error *err)
{
	enum rcl_status st = check_offered(ctrl, RCL_DRIVE_ACTION_FORMAT, NULL, err);
	char to[32];

	if (st)
		return st;
	if (fmt->lbaf > LBAF_MAX || fmt->lbaf < -1)
		return rcl_fail(err, RCL_INVALID_PARAM, "LBA format %d does not exist: 0 to %d",
		                fmt->lbaf, LBAF_MAX);
	if (fmt->lbaf < 0 && fmt->block_size != 512 && fmt->block_size != 4096)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "a block size of %u bytes cannot be formatted: 512 or 4096",
		                fmt->block_size);
	st = rcl_drive_check_destroy(ctrl, ref, "formatting", "destroys every block of", true,
	                             fmt->force, err);
	if (!st)
		st = RCL_OP(ctrl, format_drive, "formatting a drive", err, ref, fmt);
	if (st)
		return st;
	if (fmt->lbaf >= 0)
		snprintf(to, sizeof(to), "LBA format %d", fmt->lbaf);
	else
		snprintf(to, sizeof(to), "%u-byte blocks", fmt->block_size);
	(void)rcl_event_record(ctrl, RCL_EVENT_DRIVE_FORMATTED, NULL,
	                       "Drive /c%u/e%u/s%u formatted to %s", ctrl->entry.id, ref->enclosure,
	                       ref->slot, to);
	return RCL_OK;
}

enum rcl_status rcl_ctrl_download_drive_fw(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                           const struct rcl_fw_download *fw, bool *needs_reset,
                                           struct rcl_error *err)
{
	const struct rcl_drive *d;
	enum rcl_status st = check_offered(ctrl, RCL_DRIVE_ACTION_FW_DOWNLOAD, NULL, err);

	*needs_reset = false;
	if (st)
		return st;
	if (!fw->path || !fw->path[0])
		return rcl_fail(err, RCL_INVALID_PARAM, "no firmware image file given: src=<file>");
	if (fw->slot > FW_SLOT_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM, "firmware slot %u does not exist: 1 to %d",
		                fw->slot, FW_SLOT_MAX);
	st = rcl_drive_present(ctrl, ref, &d, err);
	return st ? st
	          : RCL_OP(ctrl, download_drive_fw, "downloading a drive's firmware", err, ref, fw,
	                   needs_reset);
}

enum rcl_status rcl_ctrl_drive_telemetry(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         const char *path, unsigned area, uint64_t *bytes,
                                         struct rcl_error *err)
{
	const struct rcl_drive *d;
	enum rcl_status st = check_offered(ctrl, RCL_DRIVE_ACTION_TELEMETRY, NULL, err);

	*bytes = 0;
	if (st)
		return st;
	if (!path || !path[0])
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "no file given for the telemetry: file=<path>");
	if (area > TELEMETRY_AREA_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "telemetry data area %u does not exist: 1 to %d", area,
		                TELEMETRY_AREA_MAX);
	st = rcl_drive_present(ctrl, ref, &d, err);
	return st ? st
	          : RCL_OP(ctrl, drive_telemetry, "capturing a drive's telemetry", err, ref, path,
	                   area ? area : 3, bytes);
}

/* What @action does, as a refusal names it ("deleting a namespace"). */
static const char *ns_doing(enum rcl_ns_action action)
{
	switch (action) {
	case RCL_NS_ATTACH:
		return "attaching a namespace";
	case RCL_NS_DETACH:
		return "detaching a namespace";
	case RCL_NS_CREATE:
		return "creating a namespace";
	case RCL_NS_DELETE:
		break;
	}
	return "deleting a namespace";
}

/* What @req checks before its backend is asked, the drive found. */
static enum rcl_status check_ns(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                const struct rcl_ns_request *req, struct rcl_error *err)
{
	const struct rcl_drive *d;
	char what[64];

	if (req->action == RCL_NS_CREATE) {
		if (!req->bytes)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "a namespace needs a size: size=<bytes>, as size=100GB");
		if (req->lbaf > LBAF_MAX)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "LBA format %u does not exist: 0 to %d", req->lbaf,
			                LBAF_MAX);
		return rcl_drive_present(ctrl, ref, &d, err);
	}
	if (!req->nsid || req->nsid == UINT32_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "namespace %u does not exist: namespaces are numbered from 1",
		                req->nsid);
	if (req->action == RCL_NS_ATTACH)
		return rcl_drive_present(ctrl, ref, &d, err);
	snprintf(what, sizeof(what), "%s namespace %u",
	         req->action == RCL_NS_DELETE ? "deleting" : "detaching", req->nsid);
	return rcl_drive_check_destroy(ctrl, ref, what,
	                               req->action == RCL_NS_DELETE
	                                   ? "destroys its data on"
	                                   : "takes its block device from the host, on",
	                               true, req->force, err);
}

/* The event of @req, done on drive @ref: "Namespace 3 created on drive /c0/e1/s0 (1.000 GB)". */
static void record_ns(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                      const struct rcl_ns_request *req)
{
	static const char *const done[] = {[RCL_NS_ATTACH] = "attached to",
	                                   [RCL_NS_DETACH] = "detached from",
	                                   [RCL_NS_CREATE] = "created on",
	                                   [RCL_NS_DELETE] = "deleted from"};
	struct rcl_buf size = RCL_BUF_INIT;

	if (req->action == RCL_NS_CREATE) {
		rcl_buf_adds(&size, " (");
		rcl_size_format(&size, req->bytes);
		rcl_buf_addch(&size, ')');
	}
	(void)rcl_event_record(ctrl, RCL_EVENT_NAMESPACE_CHANGED, NULL,
	                       "Namespace %u %s drive /c%u/e%u/s%u%s", req->nsid, done[req->action],
	                       ctrl->entry.id, ref->enclosure, ref->slot, size.buf);
	rcl_buf_release(&size);
}

enum rcl_status rcl_ctrl_drive_namespace(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_ns_request *req, struct rcl_error *err)
{
	enum rcl_status st =
	    check_offered(ctrl, RCL_DRIVE_ACTION_NAMESPACE, ns_doing(req->action), err);

	if (!st)
		st = check_ns(ctrl, ref, req, err);
	if (!st)
		st = RCL_OP(ctrl, drive_namespace, ns_doing(req->action), err, ref, req);
	if (!st)
		record_ns(ctrl, ref, req);
	return st;
}
