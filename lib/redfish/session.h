/* SPDX-License-Identifier: MIT */
/*
 * session.h - a client's standing with its BMC: the service root, read
 * without credentials, and the Redfish session raidcli opens to do its
 * work.
 *
 * A client logs in when its first call runs: GET /redfish/v1/, then a POST
 * of the user name and password to the service root's Links.Sessions
 * (normally /redfish/v1/SessionService/Sessions); the X-Auth-Token it
 * returns authenticates every later request, and DELETE of the session's
 * Location ends it (BMCs allow few sessions: always log out). A service
 * without a SessionService gets HTTP Basic authentication on every request
 * instead. A 401 in the middle of a run (the session expired, or the BMC
 * restarted) makes the client log in once more and repeat the request,
 * once. The password and the token never appear in a message.
 */
#ifndef RCL_REDFISH_SESSION_H
#define RCL_REDFISH_SESSION_H

#include "redfish/http.h"

/**
 * rcl_redfish_client_root() - the service root @client read when it logged
 * in (borrowed), or NULL before its first request.
 */
json_object *rcl_redfish_client_root(const struct rcl_redfish_client *client);

/**
 * rcl_redfish_client_basic() - whether @client authenticates with Basic
 * (its service has no SessionService); false before its first request.
 */
bool rcl_redfish_client_basic(const struct rcl_redfish_client *client);

/**
 * rcl_redfish_logout() - end the sessions of the @count @clients that have
 * one, concurrently (a session the service already dropped counts as
 * ended), and forget their tokens. Their next request logs in again.
 * Return: RCL_OK, or the first failure (the others' sessions are still
 * ended; an unended one expires on the BMC after its SessionTimeout).
 */
enum rcl_status rcl_redfish_logout(struct rcl_redfish_client **clients, size_t count,
                                   const struct rcl_redfish_limits *limits, struct rcl_error *err);

#endif /* RCL_REDFISH_SESSION_H */
