// SPDX-License-Identifier: MIT
/*
 * json.c - a Redfish service's JSON, parsed and read with the types
 * checked: every property comes from the network, so none is assumed.
 */
#include <ctype.h>
#include <string.h>

#include "redfish/json.h"
#include "redfish/message.h"

/* Deep enough for any Redfish resource, shallow enough that nesting cannot exhaust the stack. */
#define JSON_DEPTH 64

enum rcl_status rcl_redfish_json_parse(const char *text, size_t len, const char *what,
                                       json_object **out, struct rcl_error *err)
{
	struct json_tokener *tok = json_tokener_new_ex(JSON_DEPTH);
	enum json_tokener_error jerr;
	json_object *obj;
	size_t end;

	if (!tok)
		return rcl_fail(err, RCL_NOMEM, "out of memory parsing %s", what);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (obj && end < len && isspace((unsigned char)text[end]))
		end++;
	if (!obj || end < len) {
		json_object_put(obj);
		if (jerr == json_tokener_continue)
			return rcl_fail(err, RCL_BAD_REPLY,
			                "malformed JSON in %s: it ends early, "
			                "at byte %zu",
			                what, len);
		return rcl_fail(err, RCL_BAD_REPLY, "malformed JSON in %s: %s at byte %zu", what,
		                obj ? "data after the value" : json_tokener_error_desc(jerr), end);
	}
	if (!json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		return rcl_fail(err, RCL_BAD_REPLY, "%s is JSON but not an object", what);
	}
	*out = obj;
	return RCL_OK;
}

static const char *article(enum json_type type)
{
	return strchr("aeiou", json_type_to_name(type)[0]) ? "an" : "a";
}

enum rcl_status rcl_redfish_member(json_object *obj, const char *key, enum json_type type,
                                   bool optional, const char *where, json_object **out,
                                   struct rcl_error *err)
{
	char shown[RCL_QUOTE_MAX + 1];
	json_object *v = NULL;

	json_object_object_get_ex(obj, key, &v);
	*out = NULL;
	if (!v && optional)
		return RCL_OK;
	/* A number is a double to json-c only when it has a fraction or an exponent. */
	if (v && (json_object_is_type(v, type) ||
	          (type == json_type_double && json_object_is_type(v, json_type_int)))) {
		*out = v;
		return RCL_OK;
	}
	/* Only a failure names @where: cleaning it for every lookup was a map's hot spot. */
	rcl_redfish_clean(where, shown, sizeof(shown));
	if (!v)
		return rcl_fail(err, RCL_BAD_REPLY, "'%s' has no '%s'", shown, key);
	return rcl_fail(err, RCL_BAD_REPLY, "'%s' of '%s' is %s %s, not %s %s", key, shown,
	                article(json_object_get_type(v)),
	                json_type_to_name(json_object_get_type(v)), article(type),
	                json_type_to_name(type));
}

enum rcl_status rcl_redfish_string(json_object *obj, const char *key, bool optional,
                                   const char *where, const char **out, struct rcl_error *err)
{
	json_object *v;
	enum rcl_status status =
	    rcl_redfish_member(obj, key, json_type_string, optional, where, &v, err);

	*out = v ? json_object_get_string(v) : NULL;
	return status;
}

enum rcl_status rcl_redfish_link(json_object *obj, const char *key, bool optional,
                                 const char *where, const char **out, struct rcl_error *err)
{
	json_object *link;
	enum rcl_status status =
	    rcl_redfish_member(obj, key, json_type_object, optional, where, &link, err);

	*out = NULL;
	if (status || !link)
		return status;
	return rcl_redfish_string(link, "@odata.id", false, where, out, err);
}
