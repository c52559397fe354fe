// SPDX-License-Identifier: MIT
/*
 * erase-record.c - the erases' record (erase.h) as the commands read it,
 * in the controller process or outside it: which drives are being
 * overwritten, and where a halted erase stands.
 */
#include <limits.h>
#include <string.h>

#include "erase.h"
#include "export.h"
#include "soft/config/state.h"
#include "soft/soft.h"
#include "soft/tasks/schedule.h"

json_object *erase_record_load(const struct rcl_ctrl *ctrl)
{
	const char *keys[] = {"format"};
	json_object *root = NULL;
	uint64_t format;
	struct rcl_error ignored = {0};

	/* A record that cannot be read shows no erase; the process says why in its log. */
	if (rcl_soft_task_record_load(ctrl->ctx, rcl_ctrl_id(ctrl), RCL_SOFT_ERASE_SUFFIX, keys, 1,
	                              &format, "erase", &root, &ignored))
		return NULL;
	return root;
}

json_object *erase_record_entry(json_object *root, const char *list, size_t i)
{
	json_object *entries;

	if (!root || !json_object_object_get_ex(root, list, &entries) ||
	    i >= json_object_array_length(entries))
		return NULL;
	return json_object_array_get_idx(entries, i);
}

bool erase_record_drive(json_object *one, const struct rcl_drive *d, enum rcl_task_kind *kind)
{
	uint64_t slot;
	const char *serial;
	bool init;

	if (!rcl_json_get_uint(one, "slot", UINT_MAX, &slot) || slot != d->slot ||
	    d->enclosure != RCL_SOFT_ENCLOSURE || !rcl_json_get_str(one, "serial", &serial) ||
	    strcmp(serial, d->serial) || !rcl_json_get_bool(one, "init", &init))
		return false;
	*kind = init ? RCL_TASK_DRIVE_INIT : RCL_TASK_ERASE;
	return true;
}

void erase_mark_drives(struct rcl_ctrl *ctrl)
{
	json_object *root = erase_record_load(ctrl), *one;
	enum rcl_task_kind kind;

	for (size_t i = 0; (one = erase_record_entry(root, "drives", i)); i++)
		for (size_t d = 0; d < ctrl->drive_count; d++)
			if (erase_record_drive(one, &ctrl->drives[d], &kind))
				ctrl->drives[d].wiped_by = (int)kind;
	json_object_put(root);
}

/* Whether record entry @one is the one of @req's VD or drive, now in @ctrl. */
static bool entry_of(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                     json_object *one)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	const struct rcl_soft_vd *v = state ? rcl_soft_config_vd(&state->cfg, req->vd) : NULL;
	const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, &req->drive);
	enum rcl_task_kind kind;
	struct rcl_guid uuid;
	uint64_t at;

	if (req->kind != RCL_TASK_VD_ERASE)
		return d && erase_record_drive(one, d, &kind) && kind == req->kind;
	return v && rcl_json_get_uint(one, "vd", RCL_MAX_VDS - 1, &at) && at == req->vd &&
	       rcl_json_get_guid(one, "uuid", &uuid) && !memcmp(uuid.b, v->uuid, sizeof(v->uuid));
}

void erase_recorded_progress(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                             struct rcl_task_progress *out)
{
	json_object *root = erase_record_load(ctrl), *one;
	const char *list = req->kind == RCL_TASK_VD_ERASE ? "vds" : "drives";
	uint64_t percent;

	for (size_t i = 0; (one = erase_record_entry(root, list, i)); i++)
		if (entry_of(ctrl, req, one) && rcl_json_get_uint(one, "percent", 100, &percent)) {
			out->state = RCL_TASK_STATE_HALTED;
			out->percent = (int)percent;
		}
	json_object_put(root);
}
