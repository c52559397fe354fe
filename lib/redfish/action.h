/* SPDX-License-Identifier: MIT */
/*
 * action.h - changing a Redfish resource and seeing the change through:
 * the service may do it at once (200, 201 Created with the new resource's
 * Location, 204) or accept it as a task (202 with a task monitor to poll),
 * and a PATCH carries If-Match with the resource's ETag, so a change made
 * meanwhile by someone else is refused (412), not overwritten.
 */
#ifndef RCL_REDFISH_ACTION_H
#define RCL_REDFISH_ACTION_H

#include "redfish/http.h"

#define RCL_REDFISH_POLL_INTERVAL_MS 1000
#define RCL_REDFISH_POLL_MAX_MS      (10 * 60 * 1000)
/* The longest wait between polls a service's Retry-After gets. */
#define RCL_REDFISH_POLL_CAP_MS 10000

/**
 * struct rcl_redfish_poll - how a task is followed.
 * @interval_ms: between polls; a longer Retry-After from the service wins
 *		(up to RCL_REDFISH_POLL_CAP_MS).
 * @max_ms:	how long at most; the task goes on on the BMC after that.
 * 0 for either: the defaults above.
 */
struct rcl_redfish_poll {
	long interval_ms;
	long max_ms;
};

/**
 * rcl_redfish_submit() - send @method @path with @body (and If-Match
 * @if_match), then, on 202, poll the task monitor its Location names
 * (@poll's interval or the service's longer Retry-After, at most
 * RCL_REDFISH_POLL_CAP_MS apart)
 * until it ends: a 202 means running, as does a Task whose TaskState has
 * not ended; a Task that ended in Exception, Killed or Cancelled is a
 * failure with its Messages[].
 * @poll:	NULL for the defaults.
 * @out:	the final answer (released first): 201's with the new
 *		resource's Location, 204's, or the finished task's.
 * Return: RCL_OK; RCL_BUSY when the task still runs after @poll's
 * max_ms; RCL_NOT_ALLOWED for a task that failed; RCL_BAD_REPLY for a 202
 * without a Location; else rcl_redfish_request()'s.
 */
enum rcl_status rcl_redfish_submit(struct rcl_redfish_client *client,
                                   enum rcl_redfish_method method, const char *path,
                                   const char *body, const char *if_match,
                                   const struct rcl_redfish_poll *poll,
                                   struct rcl_redfish_response *out, struct rcl_error *err);

/**
 * rcl_redfish_patch() - rcl_redfish_submit() of a PATCH with If-Match
 * @etag: the ETag of the resource as the caller read it (its
 * rcl_redfish_response.etag); NULL: GET the resource first for it (none
 * sent if it has none). A 412 means it changed meanwhile: RCL_BUSY.
 */
enum rcl_status rcl_redfish_patch(struct rcl_redfish_client *client, const char *path,
                                  const char *etag, const char *body,
                                  const struct rcl_redfish_poll *poll,
                                  struct rcl_redfish_response *out, struct rcl_error *err);

/**
 * rcl_redfish_add() - set member @key of request body @obj to @value,
 * taking @value over (freed on failure). A NULL @obj or @value (json-c out
 * of memory) or a failed add sets *@oom: a body is built whole, then
 * checked once when sent (rcl_redfish_submit_body()).
 */
void rcl_redfish_add(json_object *obj, const char *key, json_object *value, bool *oom);

/**
 * rcl_redfish_submit_body() - rcl_redfish_submit() of request body @body,
 * which it frees; @oom (from building @body) or json-c out of memory:
 * RCL_NOMEM, nothing sent.
 */
enum rcl_status rcl_redfish_submit_body(struct rcl_redfish_client *client,
                                        enum rcl_redfish_method method, const char *path,
                                        json_object *body, bool oom, const char *if_match,
                                        const struct rcl_redfish_poll *poll,
                                        struct rcl_redfish_response *out, struct rcl_error *err);

/**
 * rcl_redfish_action_start() - POST @body (freed, @oom as for
 * rcl_redfish_submit_body()) to the target of @action of resource @res
 * (read from @where), and return once the service took it
 * (200, 202 or 204), without following a task: the action starts an
 * operation that may run for hours, followed in the resource's
 * Operations[] (operation.h).
 * Return: RCL_OK; RCL_UNSUPPORTED naming the action when @res's Actions
 * do not offer it; RCL_BAD_REPLY when Actions, the action or its target
 * has the wrong type; else rcl_redfish_request()'s.
 */
enum rcl_status rcl_redfish_action_start(struct rcl_redfish_client *client, json_object *res,
                                         const char *where, const char *action, json_object *body,
                                         bool oom, struct rcl_error *err);

#endif /* RCL_REDFISH_ACTION_H */
