// SPDX-License-Identifier: MIT
/*
 * change.c - the redfish backend's changing operations: each finds the
 * Drive or Volume its drive or VD came from, asks the BMC through
 * volume-action.c or drive-action.c with the ETag it read (so a change
 * made meanwhile on the BMC is refused, not overwritten), and reads the
 * controller again so the caller sees the BMC's new configuration. A refusal is the service's
 * own message; nothing is read again after it, as nothing changed.
 */
#include <stdio.h>
#include <string.h>

#include "redfish/drive-action.h"
#include "redfish/redfish.h"
#include "redfish/volume-action.h"

/* The resource @uri as the controller was read, or NULL. */
static json_object *doc(const struct rcl_ctrl *ctrl, const char *uri)
{
	const struct rcl_redfish_priv *p = ctrl->priv;
	json_object *res = NULL;

	return uri && json_object_object_get_ex(p->docs, uri, &res) ? res : NULL;
}

/* The ETag of @res as read (its @odata.etag), or NULL: the service gives none. */
static const char *etag_of(json_object *res)
{
	json_object *v;

	return json_object_object_get_ex(res, "@odata.etag", &v) &&
	               json_object_is_type(v, json_type_string)
	           ? json_object_get_string(v)
	           : NULL;
}

/* A change accepted (@status RCL_OK): read the controller again. */
static enum rcl_status changed(struct rcl_ctrl *ctrl, enum rcl_status status, struct rcl_error *err)
{
	return status ? status : rcl_redfish_refresh(ctrl, err);
}

enum rcl_status rcl_redfish_create_vd(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                      unsigned *vd, struct rcl_error *err)
{
	struct rcl_redfish_priv *p = ctrl->priv;
	const char **uris;
	char *made = NULL;
	enum rcl_status st;

	if (!p->model.volumes)
		return rcl_unsupported(err, ctrl->caps.kind, "creating a virtual drive",
		                       "the BMC's Storage has no Volumes collection");
	uris = rcl_calloc(params->drive_count, sizeof(*uris));
	if (!uris)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < params->drive_count; i++)
		uris[i] = rcl_redfish_drive_uri(ctrl, &params->drives[i]);
	st = rcl_redfish_volume_create(p->client, p->model.volumes, params, uris, NULL, &made, err);
	rcl_free(uris);
	st = changed(ctrl, st, err);
	for (size_t i = 0; !st && i < ctrl->vd_count; i++) {
		const char *uri = rcl_redfish_vd_uri(ctrl, ctrl->vds[i].id);

		if (uri && !strcmp(uri, made)) {
			*vd = ctrl->vds[i].id;
			rcl_free(made);
			return RCL_OK;
		}
	}
	if (!st)
		st = rcl_fail(err, RCL_BAD_REPLY,
		              "the BMC created a volume but its Storage does not list it");
	rcl_free(made);
	return st;
}

enum rcl_status rcl_redfish_delete_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                      struct rcl_error *err)
{
	struct rcl_redfish_priv *p = ctrl->priv;

	/* StorCLI wants force for a VD holding data; through a BMC raidcli cannot look. */
	if (!force)
		return rcl_fail(err, RCL_NEED_FORCE,
		                "raidcli cannot see through the BMC whether /c%u/v%u holds a file "
		                "system or an operating system; repeat with 'force' to delete it",
		                ctrl->entry.id, vd);
	return changed(
	    ctrl, rcl_redfish_volume_delete(p->client, rcl_redfish_vd_uri(ctrl, vd), NULL, err),
	    err);
}

enum rcl_status rcl_redfish_set_vd(struct rcl_ctrl *ctrl, unsigned vd,
                                   const struct rcl_vd_props *props, struct rcl_error *err)
{
	struct rcl_redfish_priv *p = ctrl->priv;
	const char *uri = rcl_redfish_vd_uri(ctrl, vd);
	json_object *res = doc(ctrl, uri);

	return changed(ctrl, rcl_redfish_volume_set(p->client, uri, res, etag_of(res), props, err),
	               err);
}

enum rcl_status rcl_redfish_set_locate(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                       bool on, struct rcl_error *err)
{
	struct rcl_redfish_priv *p = ctrl->priv;
	const char *uri = rcl_redfish_drive_uri(ctrl, ref);
	json_object *res = doc(ctrl, uri);

	return changed(ctrl, rcl_redfish_drive_locate(p->client, uri, res, etag_of(res), on, err),
	               err);
}

/* Drive @ref a global hot spare (@on) or none. */
static enum rcl_status spare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref, bool on,
                             bool dedicated, unsigned flags, struct rcl_error *err)
{
	struct rcl_redfish_priv *p = ctrl->priv;
	const char *uri = rcl_redfish_drive_uri(ctrl, ref);
	json_object *res = doc(ctrl, uri);

	return changed(
	    ctrl,
	    rcl_redfish_drive_spare(p->client, uri, res, etag_of(res), on, dedicated, flags, err),
	    err);
}

enum rcl_status rcl_redfish_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         const unsigned *dgs, size_t dg_count, unsigned flags,
                                         bool force, struct rcl_error *err)
{
	(void)dgs;
	(void)force; /* a spare's data is only overwritten by a rebuild, as on a card */
	return spare(ctrl, ref, true, dg_count > 0, flags, err);
}

enum rcl_status rcl_redfish_delete_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                            struct rcl_error *err)
{
	return spare(ctrl, ref, false, false, 0, err);
}

enum rcl_status rcl_redfish_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       struct rcl_error *err)
{
	char what[64];

	if (req->kind != RCL_TASK_ERASE && req->kind != RCL_TASK_INIT) {
		snprintf(what, sizeof(what), "starting a %s", rcl_task_kind_name(req->kind));
		return rcl_unsupported(err, ctrl->caps.kind, what,
		                       "the BMC's controller runs it by itself; 'show' follows it");
	}
	/* As a delete: raidcli cannot see what the drive holds. */
	if (req->kind == RCL_TASK_ERASE && !req->force)
		return rcl_fail(err, RCL_NEED_FORCE,
		                "an erase destroys drive %u:%u's data, which raidcli cannot see "
		                "through the BMC; repeat with 'force' to confirm",
		                req->drive.enclosure, req->drive.slot);
	return RCL_OK;
}

enum rcl_status rcl_redfish_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                 struct rcl_error *err)
{
	struct rcl_redfish_priv *p = ctrl->priv;
	enum rcl_status st;
	const char *uri;

	if (req->action != RCL_TASK_ACTION_START)
		return rcl_unsupported(err, ctrl->caps.kind, "stopping, pausing or resuming a task",
		                       "Redfish has no action for it");
	st = rcl_redfish_task_check(ctrl, req, err);
	if (st)
		return st;
	if (req->kind == RCL_TASK_ERASE) {
		uri = rcl_redfish_drive_uri(ctrl, &req->drive);
		return rcl_redfish_drive_erase(p->client, uri, doc(ctrl, uri), req->erase.mode,
		                               err);
	}
	/* raidcli's init is always full: a Slow one, every block written */
	uri = rcl_redfish_vd_uri(ctrl, req->vd);
	return rcl_redfish_volume_initialize(p->client, uri, doc(ctrl, uri), true, err);
}
