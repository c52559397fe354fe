// SPDX-License-Identifier: MIT
/*
 * drive-action.c - raidcli's drive requests sent as Redfish Drive changes.
 */
#include <string.h>

#include "redfish/drive-action.h"

#define KIND "redfish"

/* PATCH drive @uri (ETag @etag) with @body, taken over; @oom from building it. */
static enum rcl_status patch_drive(struct rcl_redfish_client *c, const char *uri, const char *etag,
                                   json_object *body, bool oom, struct rcl_error *err)
{
	struct rcl_redfish_response resp = {.retry_after = -1};
	enum rcl_status status =
	    rcl_redfish_submit_body(c, RCL_REDFISH_PATCH, uri, body, oom, etag, NULL, &resp, err);

	rcl_redfish_response_release(&resp);
	return status;
}

static bool has(json_object *obj, const char *key)
{
	return json_object_object_get_ex(obj, key, NULL);
}

enum rcl_status rcl_redfish_drive_locate(struct rcl_redfish_client *c, const char *uri,
                                         json_object *drive, const char *etag, bool on,
                                         struct rcl_error *err)
{
	json_object *body;
	bool oom;

	if (!has(drive, "LocationIndicatorActive") && !has(drive, "IndicatorLED"))
		return rcl_unsupported(err, KIND, "locate",
		                       "the drive has neither LocationIndicatorActive nor "
		                       "IndicatorLED");
	body = json_object_new_object();
	oom = !body;
	if (has(drive, "LocationIndicatorActive"))
		rcl_redfish_add(body, "LocationIndicatorActive", json_object_new_boolean(on), &oom);
	else
		rcl_redfish_add(body, "IndicatorLED",
		                json_object_new_string(on ? "Blinking" : "Off"), &oom);
	return patch_drive(c, uri, etag, body, oom, err);
}

static const char *const sanitize_types[] = {
    [RCL_ERASE_CRYPTO] = "CryptographicErase",
    [RCL_ERASE_BLOCK] = "BlockErase",
    [RCL_ERASE_OVERWRITE] = "Overwrite",
};

/* Whether array @allowed lists @value. */
static bool allows(json_object *allowed, const char *value)
{
	for (size_t i = 0; i < json_object_array_length(allowed); i++) {
		json_object *v = json_object_array_get_idx(allowed, i);

		if (json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), value))
			return true;
	}
	return false;
}

/* The SanitizationType to send for @how, or NULL for the service's own choice. */
static const char *sanitization(json_object *drive, enum rcl_erase_mode how)
{
	json_object *allowed = NULL;

	if (how != RCL_ERASE_AUTO)
		return sanitize_types[how];
	json_object_object_get_ex(drive, "Actions", &allowed);
	json_object_object_get_ex(allowed, "#Drive.SecureErase", &allowed);
	if (!json_object_object_get_ex(allowed, "SanitizationType@Redfish.AllowableValues",
	                               &allowed) ||
	    !json_object_is_type(allowed, json_type_array))
		return NULL;
	/* the strongest first: a new key, a block erase, an overwrite */
	for (int t = RCL_ERASE_CRYPTO; t <= RCL_ERASE_OVERWRITE; t++)
		if (allows(allowed, sanitize_types[t]))
			return sanitize_types[t];
	return NULL;
}

enum rcl_status rcl_redfish_drive_erase(struct rcl_redfish_client *c, const char *uri,
                                        json_object *drive, enum rcl_erase_mode how,
                                        struct rcl_error *err)
{
	const char *type;
	json_object *body;
	bool oom;

	if (how == RCL_ERASE_FORMAT || rcl_erase_passes(how))
		return rcl_unsupported(err, KIND,
		                       how == RCL_ERASE_FORMAT
		                           ? "a format as erase"
		                           : "an erase by passes (simple, normal, "
		                             "thorough)",
		                       "#Drive.SecureErase takes CryptographicErase, BlockErase or "
		                       "Overwrite: start erase crypto|blockerase|overwrite");
	type = sanitization(drive, how);
	body = json_object_new_object();
	oom = !body;
	if (type)
		rcl_redfish_add(body, "SanitizationType", json_object_new_string(type), &oom);
	return rcl_redfish_action_start(c, drive, uri, "#Drive.SecureErase", body, oom, err);
}

enum rcl_status rcl_redfish_drive_spare(struct rcl_redfish_client *c, const char *uri,
                                        json_object *drive, const char *etag, bool on,
                                        bool dedicated, unsigned flags, struct rcl_error *err)
{
	json_object *body;
	bool oom;

	if (!has(drive, "HotspareType"))
		return rcl_unsupported(err, KIND, "hot spares", "the drive has no HotspareType");
	if (dedicated)
		return rcl_unsupported(err, KIND, "dedicated hot spares",
		                       "make a global one: 'add hotsparedrive' without dgs=");
	if (flags & RCL_SPARE_ENCL_AFFINITY)
		return rcl_unsupported(err, KIND, "enclaffinity",
		                       "a Redfish Drive has no such property");
	body = json_object_new_object();
	oom = !body;
	rcl_redfish_add(body, "HotspareType", json_object_new_string(on ? "Global" : "None"), &oom);
	if (on && has(drive, "HotspareReplacementMode"))
		rcl_redfish_add(body, "HotspareReplacementMode",
		                json_object_new_string(flags & RCL_SPARE_NONREVERTIBLE
		                                           ? "NonRevertible"
		                                           : "Revertible"),
		                &oom);
	return patch_drive(c, uri, etag, body, oom, err);
}
