/* SPDX-License-Identifier: MIT */
/*
 * message.h - a Redfish service's own words for what went wrong
 * (@Message.ExtendedInfo, a Task's Messages[]), made into raidcli's
 * errors; and the cleaning every text from a BMC gets before a terminal
 * shows it.
 */
#ifndef RCL_REDFISH_MESSAGE_H
#define RCL_REDFISH_MESSAGE_H

#include <json-c/json.h>

#include "redfish/http.h"

/**
 * rcl_redfish_clean() - @in, NUL-terminated in @out (@size bytes, cut to
 * fit), each control character (escape sequences included) and each byte
 * of a broken UTF-8 sequence replaced by '?': a BMC's text may be hostile.
 */
void rcl_redfish_clean(const char *in, char *out, size_t size);

/**
 * rcl_redfish_add_messages() - append to @sb, cleaned and separated by
 * "; ", each Redfish Message object of array @list: "Message (MessageId)
 * Resolution: ...". Entries of the wrong type are skipped.
 * Return: how many were appended.
 */
size_t rcl_redfish_add_messages(struct rcl_buf *sb, json_object *list);

/**
 * rcl_redfish_refusal() - fill @err for @method @path that @host answered
 * with the error @resp: the service's @Message.ExtendedInfo (or its
 * error.message), else what the HTTP status means; the status named with
 * its reason, never alone.
 * Return: the status for it: RCL_INVALID_PARAM (400), RCL_NOT_ALLOWED
 * (401, 403, 409, 428, other 4xx), RCL_NOT_FOUND (404, 410),
 * RCL_UNSUPPORTED (405, 501), RCL_BUSY (412, 429), RCL_UNREACHABLE (503,
 * 504), RCL_BAD_REPLY (other 5xx, anything else).
 */
enum rcl_status rcl_redfish_refusal(struct rcl_error *err, const char *host,
                                    enum rcl_redfish_method method, const char *path,
                                    const struct rcl_redfish_response *resp);

#endif /* RCL_REDFISH_MESSAGE_H */
