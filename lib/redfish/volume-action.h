/* SPDX-License-Identifier: MIT */
/*
 * volume-action.h - raidcli's VD requests as Redfish Volume changes: a create
 * POSTed to a Storage's Volumes collection, a delete, a PATCH of the
 * policies, #Volume.Initialize. Each takes raidcli's own request (raidcli.h),
 * checked by the generic layer, and the URIs and JSON the backend read.
 */
#ifndef RCL_REDFISH_VOLUME_ACTION_H
#define RCL_REDFISH_VOLUME_ACTION_H

#include "redfish/action.h"

/**
 * rcl_redfish_volume_body() - the JSON body of a create of @params over
 * the drives @drive_uris (their @odata.id, in @params' order), a new object
 * (json_object_put()): RAIDType, Links.Drives, and what @params sets of
 * Name, CapacityBytes, StripSizeBytes, ReadCachePolicy and
 * WriteCachePolicy (WB is ProtectedWriteBack: write-back while the cache
 * is protected, as StorCLI's WB; AWB UnprotectedWriteBack).
 * Return: RCL_OK; RCL_UNSUPPORTED for what a Volume cannot say (dedicated
 * spares, pdcache=, cached I/O); RCL_NOMEM.
 */
enum rcl_status rcl_redfish_volume_body(const struct rcl_vd_params *params,
                                        const char *const *drive_uris, json_object **out,
                                        struct rcl_error *err);

/**
 * rcl_redfish_volume_create() - POST the create of @params (drives
 * @drive_uris) to Volumes collection @volumes and see it through: 201 or
 * 204 at once, or 202 with a task followed (@poll, NULL: the defaults) to
 * its end.
 * @uri:	the new volume's URI (rcl_free()), the final answer's Location.
 * Return: RCL_OK; RCL_BAD_REPLY when the answer names no volume;
 * rcl_redfish_volume_body()'s; rcl_redfish_submit()'s, the service's
 * refusal in its own words.
 */
enum rcl_status rcl_redfish_volume_create(struct rcl_redfish_client *client, const char *volumes,
                                          const struct rcl_vd_params *params,
                                          const char *const *drive_uris,
                                          const struct rcl_redfish_poll *poll, char **uri,
                                          struct rcl_error *err);

/**
 * rcl_redfish_volume_delete() - DELETE volume @uri, following a task
 * (@poll) to its end. Return: rcl_redfish_submit()'s.
 */
enum rcl_status rcl_redfish_volume_delete(struct rcl_redfish_client *client, const char *uri,
                                          const struct rcl_redfish_poll *poll,
                                          struct rcl_error *err);

/**
 * rcl_redfish_volume_set() - PATCH volume @uri, as @volume read it with
 * ETag @etag (NULL: the service gave none), to @props: the name (the
 * volume's DisplayName where it has one, else Name), ReadCachePolicy and
 * WriteCachePolicy. If-Match carries @etag, so a volume changed since it
 * was read is refused (412, RCL_BUSY) and stays as it is.
 * Return: RCL_OK; RCL_UNSUPPORTED for what a Volume has no property for
 * (access=, pdcache=, iopolicy=, autobgi=), before any request;
 * rcl_redfish_patch()'s.
 */
enum rcl_status rcl_redfish_volume_set(struct rcl_redfish_client *client, const char *uri,
                                       json_object *volume, const char *etag,
                                       const struct rcl_vd_props *props, struct rcl_error *err);

/**
 * rcl_redfish_volume_initialize() - start #Volume.Initialize of volume
 * @uri (@volume as read): InitializeType Slow when @full, else Fast. The
 * service runs it; its Operations[] show the progress
 * (rcl_redfish_operation_progress()).
 * Return: as rcl_redfish_action_start().
 */
enum rcl_status rcl_redfish_volume_initialize(struct rcl_redfish_client *client, const char *uri,
                                              json_object *volume, bool full,
                                              struct rcl_error *err);

#endif /* RCL_REDFISH_VOLUME_ACTION_H */
