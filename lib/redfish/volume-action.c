// SPDX-License-Identifier: MIT
/*
 * volume-action.c - raidcli's VD requests sent as Redfish Volume changes, and
 * the answers read back: the new volume's URI, the service's refusals.
 */
#include <stdio.h>
#include <string.h>

#include "redfish/json.h"
#include "redfish/message.h"
#include "redfish/volume-action.h"

#define KIND "redfish"

static const char *const write_cache[] = {
    [RCL_WRITE_THROUGH] = "WriteThrough",
    [RCL_WRITE_BACK] = "ProtectedWriteBack",
    [RCL_WRITE_BACK_ALWAYS] = "UnprotectedWriteBack",
};
static const char *const read_cache[] = {
    [RCL_READ_AHEAD] = "ReadAhead",
    [RCL_NO_READ_AHEAD] = "Off",
};

/* What a Volume create has no property for, refused before any request. */
static enum rcl_status create_unsupported(const struct rcl_vd_params *p, struct rcl_error *err)
{
	if (p->spare_count)
		return rcl_unsupported(err, KIND, "dedicated hot spares at creation",
		                       "make global spares with 'add hotsparedrive'");
	if (p->disk_cache != RCL_DISK_CACHE_DEFAULT)
		return rcl_unsupported(err, KIND,
		                       "pdcache=", "a Redfish Volume has no such property");
	if (p->io != RCL_IO_DIRECT)
		return rcl_unsupported(err, KIND, "cached I/O",
		                       "a Redfish Volume has no such property");
	return RCL_OK;
}

enum rcl_status rcl_redfish_volume_body(const struct rcl_vd_params *p,
                                        const char *const *drive_uris, json_object **out,
                                        struct rcl_error *err)
{
	enum rcl_status status = create_unsupported(p, err);
	json_object *body, *links, *drives;
	bool oom;

	*out = NULL;
	if (status)
		return status;
	body = json_object_new_object();
	links = json_object_new_object();
	drives = json_object_new_array();
	oom = !body || !links || !drives;
	for (size_t i = 0; !oom && i < p->drive_count; i++) {
		json_object *link = json_object_new_object();

		rcl_redfish_add(link, "@odata.id", json_object_new_string(drive_uris[i]), &oom);
		if (!link || json_object_array_add(drives, link)) {
			json_object_put(link);
			oom = true;
		}
	}
	rcl_redfish_add(links, "Drives", drives, &oom);
	if (p->name && *p->name)
		rcl_redfish_add(body, "Name", json_object_new_string(p->name), &oom);
	rcl_redfish_add(body, "RAIDType", json_object_new_string(rcl_raid_level_name(p->level)),
	                &oom);
	rcl_redfish_add(body, "Links", links, &oom);
	if (p->bytes)
		rcl_redfish_add(body, "CapacityBytes", json_object_new_int64((int64_t)p->bytes),
		                &oom);
	if (p->strip_kib)
		rcl_redfish_add(body, "StripSizeBytes",
		                json_object_new_int64((int64_t)p->strip_kib * 1024), &oom);
	rcl_redfish_add(body, "ReadCachePolicy", json_object_new_string(read_cache[p->read]), &oom);
	rcl_redfish_add(body, "WriteCachePolicy", json_object_new_string(write_cache[p->write]),
	                &oom);
	if (oom) {
		json_object_put(body);
		return rcl_fail(err, RCL_NOMEM, "out of memory building a Redfish volume create");
	}
	*out = body;
	return RCL_OK;
}

enum rcl_status rcl_redfish_volume_create(struct rcl_redfish_client *c, const char *volumes,
                                          const struct rcl_vd_params *params,
                                          const char *const *drive_uris,
                                          const struct rcl_redfish_poll *poll, char **uri,
                                          struct rcl_error *err)
{
	struct rcl_redfish_response resp = {.retry_after = -1};
	enum rcl_status status;
	json_object *body;
	char shown[RCL_QUOTE_MAX + 1];

	*uri = NULL;
	status = rcl_redfish_volume_body(params, drive_uris, &body, err);
	if (status)
		return status;
	status = rcl_redfish_submit_body(c, RCL_REDFISH_POST, volumes, body, false, NULL, poll,
	                                 &resp, err);
	/* a 201 or 204 has its Location, as a task's end has (DMTF DSP0266) */
	if (!status && !resp.location) {
		rcl_redfish_clean(volumes, shown, sizeof(shown));
		status = rcl_fail(err, RCL_BAD_REPLY,
		                  "'%s' answered the create in '%s' (%ld) without naming the new "
		                  "volume",
		                  rcl_redfish_client_host(c), shown, resp.status);
	}
	if (!status && !(*uri = rcl_strdup(resp.location)))
		status = rcl_fail(err, RCL_NOMEM, "out of memory reading a created volume");
	rcl_redfish_response_release(&resp);
	return status;
}

enum rcl_status rcl_redfish_volume_delete(struct rcl_redfish_client *c, const char *uri,
                                          const struct rcl_redfish_poll *poll,
                                          struct rcl_error *err)
{
	struct rcl_redfish_response resp = {.retry_after = -1};
	enum rcl_status status =
	    rcl_redfish_submit(c, RCL_REDFISH_DELETE, uri, NULL, NULL, poll, &resp, err);

	rcl_redfish_response_release(&resp);
	return status;
}

/* What a Volume has no writable property for, refused before any request. */
static enum rcl_status set_unsupported(const struct rcl_vd_props *p, struct rcl_error *err)
{
	static const char hint[] = "a Redfish Volume has no such property";

	if (p->access >= 0)
		return rcl_unsupported(err, KIND, "accesspolicy=", hint);
	if (p->disk_cache >= 0)
		return rcl_unsupported(err, KIND, "pdcache=", hint);
	if (p->io >= 0)
		return rcl_unsupported(err, KIND, "iopolicy=", hint);
	if (p->autobgi >= 0)
		return rcl_unsupported(err, KIND, "autobgi=", hint);
	return RCL_OK;
}

enum rcl_status rcl_redfish_volume_set(struct rcl_redfish_client *c, const char *uri,
                                       json_object *volume, const char *etag,
                                       const struct rcl_vd_props *props, struct rcl_error *err)
{
	struct rcl_redfish_response resp = {.retry_after = -1};
	enum rcl_status status = set_unsupported(props, err);
	json_object *body;
	bool oom;

	if (status)
		return status;
	body = json_object_new_object();
	oom = !body;
	if (props->name)
		rcl_redfish_add(
		    body,
		    json_object_object_get_ex(volume, "DisplayName", NULL) ? "DisplayName" : "Name",
		    json_object_new_string(props->name), &oom);
	if (props->read >= 0)
		rcl_redfish_add(body, "ReadCachePolicy",
		                json_object_new_string(read_cache[props->read]), &oom);
	if (props->write >= 0)
		rcl_redfish_add(body, "WriteCachePolicy",
		                json_object_new_string(write_cache[props->write]), &oom);
	/* no ETag from the service: none to send, and none to GET first (rcl_redfish_patch()) */
	status =
	    rcl_redfish_submit_body(c, RCL_REDFISH_PATCH, uri, body, oom, etag, NULL, &resp, err);
	rcl_redfish_response_release(&resp);
	return status;
}

enum rcl_status rcl_redfish_volume_initialize(struct rcl_redfish_client *c, const char *uri,
                                              json_object *volume, bool full, struct rcl_error *err)
{
	json_object *body = json_object_new_object();
	bool oom = !body;

	rcl_redfish_add(body, "InitializeType", json_object_new_string(full ? "Slow" : "Fast"),
	                &oom);
	return rcl_redfish_action_start(c, volume, uri, "#Volume.Initialize", body, oom, err);
}
