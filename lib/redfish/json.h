/* SPDX-License-Identifier: MIT */
/*
 * json.h - reading a Redfish service's JSON with json-c: parse errors and
 * wrong types become RCL_BAD_REPLY errors that name the resource and the
 * property, so a lying BMC is reported, never trusted or crashed on.
 */
#ifndef RCL_REDFISH_JSON_H
#define RCL_REDFISH_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "raidcli.h"

/**
 * rcl_redfish_json_parse() - parse the @len bytes at @text as one JSON
 * object, nothing after it but white space. @what names the document in
 * messages ("the answer to GET '/redfish/v1' from 'h:443'").
 * Return: RCL_OK and *@out (owned: json_object_put()); RCL_BAD_REPLY with
 * json-c's reason and the byte offset, or when the value is not an object;
 * RCL_NOMEM.
 */
enum rcl_status rcl_redfish_json_parse(const char *text, size_t len, const char *what,
                                       json_object **out, struct rcl_error *err);

/**
 * rcl_redfish_member() - @obj's member @key, which must be of @type. An
 * absent or null member is *@out = NULL when @optional.
 * @where:	the resource, for messages ("/redfish/v1/Systems").
 * Return: RCL_OK and *@out (borrowed from @obj); RCL_BAD_REPLY naming
 * @key, @where and both types, or saying the member is missing.
 */
enum rcl_status rcl_redfish_member(json_object *obj, const char *key, enum json_type type,
                                   bool optional, const char *where, json_object **out,
                                   struct rcl_error *err);

/* rcl_redfish_string() - rcl_redfish_member() for a string: *@out borrowed, or NULL. */
enum rcl_status rcl_redfish_string(json_object *obj, const char *key, bool optional,
                                   const char *where, const char **out, struct rcl_error *err);

/**
 * rcl_redfish_link() - the URI of link @key of @obj ({"@odata.id": URI}),
 * *@out borrowed, or NULL when absent and @optional.
 * Return: RCL_OK; RCL_BAD_REPLY as rcl_redfish_member().
 */
enum rcl_status rcl_redfish_link(json_object *obj, const char *key, bool optional,
                                 const char *where, const char **out, struct rcl_error *err);

#endif /* RCL_REDFISH_JSON_H */
