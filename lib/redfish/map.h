/* SPDX-License-Identifier: MIT */
/*
 * map.h - what map.c and volume.c share: reading a cache's resources, where
 * absent is a default and a wrong type a bad reply naming the resource.
 */
#ifndef RCL_REDFISH_MAP_H
#define RCL_REDFISH_MAP_H

#include "redfish/json.h"
#include "redfish/redfish.h"

/* Where one rcl_redfish_map() stands. */
struct rcl_redfish_map_state {
	json_object *docs;
	const char *storage;
	struct rcl_ctrl *ctrl;
	struct rcl_redfish_model *model;
	const char **chassis; /* enclosure i's Chassis (or the Storage, for drives without one) */
};

/* rcl_redfish_doc() - resource @uri of @docs, or NULL. */
json_object *rcl_redfish_doc(json_object *docs, const char *uri);
/* rcl_redfish_need() - resource @uri of @docs, which must be there as an object. */
enum rcl_status rcl_redfish_need(json_object *docs, const char *uri, json_object **out,
                                 struct rcl_error *err);
/* rcl_redfish_element() - the @odata.id of element @i of link array @arr of @where. */
enum rcl_status rcl_redfish_element(json_object *arr, size_t i, const char *where, const char **out,
                                    struct rcl_error *err);
/* rcl_redfish_links() - array @key of @obj, *@out NULL when absent. */
enum rcl_status rcl_redfish_links(json_object *obj, const char *key, const char *where,
                                  json_object **out, struct rcl_error *err);
/* rcl_redfish_text() - string @key of @obj cleaned into @out, unless @out already holds one. */
enum rcl_status rcl_redfish_text(json_object *obj, const char *key, const char *where, char *out,
                                 size_t size, struct rcl_error *err);
/* rcl_redfish_number() - number @key of @obj, 0..@max, into *@out (kept when absent). */
enum rcl_status rcl_redfish_number(json_object *obj, const char *key, const char *where, double max,
                                   double *out, struct rcl_error *err);
/* rcl_redfish_bool() - boolean @key of @obj into *@out (kept when absent). */
enum rcl_status rcl_redfish_bool(json_object *obj, const char *key, const char *where, bool *out,
                                 struct rcl_error *err);

/* Status.State and Status.Health of @obj ("" when absent). */
struct rcl_redfish_status {
	char state[24];
	char health[16];
};

enum rcl_status rcl_redfish_status_of(json_object *obj, const char *where,
                                      struct rcl_redfish_status *out, struct rcl_error *err);
/* rcl_redfish_operation() - whether @obj's Operations[] has one named @name, and its percent. */
enum rcl_status rcl_redfish_operation(json_object *obj, const char *name, const char *where,
                                      bool *found, int *percent, struct rcl_error *err);
/* rcl_redfish_volume_drives() - a Volume's drives: Links.Drives, else Drives (older schemas). */
enum rcl_status rcl_redfish_volume_drives(json_object *vol, const char *where, json_object **out,
                                          struct rcl_error *err);
/* rcl_redfish_raid_level() - the level a RAIDType or VolumeType names; false for others. */
bool rcl_redfish_raid_level(const char *name, enum rcl_raid_level *level);

/* rcl_redfish_attr() - add @key = @value (cleaned) to @attrs unless it holds @max already. */
void rcl_redfish_attr(struct rcl_attr *attrs, size_t *count, size_t max, const char *key,
                      const char *value);

/* rcl_redfish_map_vds() (volume.c) - the VDs and groups of Storage @s into @m. */
enum rcl_status rcl_redfish_map_vds(struct rcl_redfish_map_state *m, json_object *s,
                                    struct rcl_error *err);

#endif /* RCL_REDFISH_MAP_H */
