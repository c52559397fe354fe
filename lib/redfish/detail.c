// SPDX-License-Identifier: MIT
/*
 * detail.c - what a redfish controller tells beyond the model: each
 * drive's resource ("show all": its URI, Id, Status, running operations)
 * and the progress of rebuilds, checks, initializations and erases, read
 * from the Operations[] of the drives and volumes the model came from.
 */
#include <stdio.h>
#include <string.h>

#include "redfish/message.h"
#include "redfish/operation.h"
#include "redfish/redfish.h"

static json_object *resource(const struct rcl_redfish_priv *p, const char *uri)
{
	json_object *d = NULL;

	return uri && json_object_object_get_ex(p->docs, uri, &d) ? d : NULL;
}

/* String @key of @obj (at @path, "Status.Health"), cleaned into @out, or "". */
static void text_at(json_object *obj, const char *key, const char *sub, char *out, size_t size)
{
	json_object *v = NULL;

	*out = '\0';
	if (sub && !json_object_object_get_ex(obj, sub, &obj))
		return;
	if (json_object_object_get_ex(obj, key, &v) && json_object_is_type(v, json_type_string))
		rcl_redfish_clean(json_object_get_string(v), out, size);
}

/* Add @key = @obj's @sub.@key to @section when it has one. */
static void add_text(struct rcl_node *section, const char *label, json_object *obj, const char *sub,
                     const char *key)
{
	char value[128];

	text_at(obj, key, sub, value, sizeof(value));
	if (*value)
		rcl_node_add_str(section, label, value);
}

/* Operations[] of @obj as "Name 42%" rows of @section. */
static void add_operations(struct rcl_node *section, json_object *obj)
{
	json_object *ops = NULL;

	if (!json_object_object_get_ex(obj, "Operations", &ops) ||
	    !json_object_is_type(ops, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(ops); i++) {
		json_object *op = json_object_array_get_idx(ops, i), *pct = NULL;
		char name[32];

		text_at(op, "OperationName", NULL, name, sizeof(name));
		if (!*name)
			text_at(op, "Operation", NULL, name, sizeof(name));
		if (*name && json_object_object_get_ex(op, "PercentageComplete", &pct))
			rcl_node_add_strf(section, "Operation", "%s %d%%", name,
			                  json_object_get_int(pct));
	}
}

enum rcl_status rcl_redfish_drive_detail(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                                         enum rcl_drive_detail what, const char *prefix,
                                         struct rcl_node *out, struct rcl_error *err)
{
	const struct rcl_redfish_priv *p = ctrl->priv;
	const struct rcl_drive_ref ref = {drive->enclosure, drive->slot};
	const char *uri = rcl_redfish_drive_uri(ctrl, &ref);
	json_object *d = resource(p, uri);
	struct rcl_buf key = RCL_BUF_INIT;
	struct rcl_node *section;

	if (what == RCL_DETAIL_SMART)
		return rcl_unsupported(err, ctrl->caps.kind, "a drive's SMART log",
		                       "its health is in \"show all\"");
	if (!d)
		return RCL_OK;
	rcl_buf_addf(&key, "%s - Redfish", prefix);
	section = key.buf ? rcl_node_add_object(out, key.buf) : NULL;
	rcl_buf_release(&key);
	if (!section)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	rcl_node_add_str(section, "URI", uri);
	rcl_node_add_str(section, "BMC", p->cfg->url);
	add_text(section, "Id", d, NULL, "Id");
	add_text(section, "State", d, "Status", "State");
	add_text(section, "Health", d, "Status", "Health");
	add_text(section, "Hot Spare Type", d, NULL, "HotspareType");
	add_operations(section, d);
	return rcl_node_oom(out) ? rcl_fail(err, RCL_NOMEM, "out of memory") : RCL_OK;
}

/* rcl_redfish_operation_progress() reads it; a rebuild and an erase are the drive's. */
enum rcl_status rcl_redfish_task_progress(const struct rcl_ctrl *ctrl,
                                          const struct rcl_task_request *req,
                                          struct rcl_task_progress *out, struct rcl_error *err)
{
	const char *uri = req->kind == RCL_TASK_REBUILD || req->kind == RCL_TASK_ERASE
	                      ? rcl_redfish_drive_uri(ctrl, &req->drive)
	                      : rcl_redfish_vd_uri(ctrl, req->vd);

	return rcl_redfish_operation_progress(resource(ctrl->priv, uri), uri ? uri : "", req->kind,
	                                      out, err);
}
