// SPDX-License-Identifier: MIT
/*
 * operation.c - Operations[] entries as raidcli's task progress. The
 * Operation enum (Volume 1.9, Drive 1.17 on) names the task; older
 * services give only the free-text OperationName, compared with the enum's
 * names without regard to case or spaces ("Check Consistency").
 */
#include <ctype.h>
#include <string.h>

#include "redfish/json.h"
#include "redfish/message.h"
#include "redfish/operation.h"

/* The Redfish OperationType values of each raidcli task kind. */
static const struct {
	enum rcl_task_kind kind;
	const char *operation;
} operations[] = {
    /* the Operation enum's names, then other names BMCs give */
    {RCL_TASK_REBUILD, "Rebuild"},           {RCL_TASK_CC, "CheckConsistency"},
    {RCL_TASK_INIT, "Initialize"},           {RCL_TASK_ERASE, "Sanitize"},
    {RCL_TASK_MIGRATE, "ChangeRAIDType"},    {RCL_TASK_MIGRATE, "Resize"},
    {RCL_TASK_MIGRATE, "ChangeStripSize"},   {RCL_TASK_CC, "ConsistencyCheck"},
    {RCL_TASK_INIT, "BackgroundInitialize"}, {RCL_TASK_ERASE, "SecureErase"},
};

/* Whether @name is @operation, but for case and spaces. */
static bool same_name(const char *name, const char *operation)
{
	for (;; name++) {
		if (*name == ' ')
			continue;
		if (tolower((unsigned char)*name) != tolower((unsigned char)*operation))
			return false;
		if (!*operation++)
			return true;
	}
}

static bool is_kind(const char *name, enum rcl_task_kind kind)
{
	for (size_t i = 0; name && i < sizeof(operations) / sizeof(operations[0]); i++)
		if (operations[i].kind == kind && same_name(name, operations[i].operation))
			return true;
	return false;
}

/* Whether entry @op of @where's Operations[] is task @kind. */
static enum rcl_status entry_is(json_object *op, const char *where, enum rcl_task_kind kind,
                                bool *match, struct rcl_error *err)
{
	const char *operation, *name;
	enum rcl_status status = rcl_redfish_string(op, "Operation", true, where, &operation, err);

	if (!status)
		status = rcl_redfish_string(op, "OperationName", true, where, &name, err);
	*match = !status && (operation ? is_kind(operation, kind) : is_kind(name, kind));
	return status;
}

static enum rcl_status not_an_object(json_object *op, const char *where, struct rcl_error *err)
{
	char shown[RCL_QUOTE_MAX + 1];

	rcl_redfish_clean(where, shown, sizeof(shown));
	return rcl_fail(err, RCL_BAD_REPLY, "an entry of 'Operations' of '%s' is %s, not an object",
	                shown, json_type_to_name(json_object_get_type(op)));
}

enum rcl_status rcl_redfish_operation_progress(json_object *res, const char *where,
                                               enum rcl_task_kind kind,
                                               struct rcl_task_progress *out, struct rcl_error *err)
{
	json_object *ops, *percent;
	enum rcl_status status;

	*out = (struct rcl_task_progress){.kind = kind,
	                                  .state = RCL_TASK_STATE_STOPPED,
	                                  .percent = -1,
	                                  .elapsed = -1,
	                                  .remaining = -1,
	                                  .vd = -1,
	                                  .vd_percent = -1};
	status = rcl_redfish_member(res, "Operations", json_type_array, true, where, &ops, err);
	for (size_t i = 0; !status && ops && i < json_object_array_length(ops); i++) {
		json_object *op = json_object_array_get_idx(ops, i);
		bool match;

		if (!json_object_is_type(op, json_type_object))
			return not_an_object(op, where, err);
		status = entry_is(op, where, kind, &match, err);
		if (status || !match)
			continue;
		status = rcl_redfish_member(op, "PercentageComplete", json_type_int, true, where,
		                            &percent, err);
		if (status)
			return status;
		out->state = RCL_TASK_STATE_RUNNING;
		if (percent) {
			int64_t p = json_object_get_int64(percent);

			out->percent = p < 0 ? 0 : p > 100 ? 100 : (int)p;
		}
		return RCL_OK;
	}
	return status;
}
