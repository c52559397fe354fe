/* SPDX-License-Identifier: MIT */
/*
 * url.h - a BMC's base URL, and the URLs of its resources: every request
 * goes to the client's own scheme, host and port, whatever link, Location
 * or redirect a service hands back.
 */
#ifndef RCL_REDFISH_URL_H
#define RCL_REDFISH_URL_H

#include "raidcli.h"

/**
 * rcl_redfish_url_origin() - check the base URL @url ("https://host[:port]"
 * with at most a "/" after it: no user or password, path, query or
 * fragment) and return its origin "https://host:port" in *@origin and
 * "host:port" in *@host, new strings.
 * Return: RCL_OK; RCL_INVALID_PARAM naming @url and what is wrong; RCL_NOMEM.
 */
enum rcl_status rcl_redfish_url_origin(const char *url, char **origin, char **host,
                                       struct rcl_error *err);

/**
 * rcl_redfish_url_join() - the URL of @ref, read relative to @base (a URL
 * on @origin, or NULL for @origin itself), in a new string *@out. @ref is
 * an absolute path ("/redfish/v1/Systems") or an absolute URL; either must
 * lead to @origin. A relative reference ("Systems") is resolved against
 * @base only when @relative (a Location header may be one; an @odata.id
 * may not).
 * Return: RCL_OK; RCL_BAD_REPLY naming @ref when it is malformed, holds
 * spaces or control characters, or leads to another host; RCL_NOMEM.
 */
enum rcl_status rcl_redfish_url_join(const char *origin, const char *base, const char *ref,
                                     bool relative, char **out, struct rcl_error *err);

#endif /* RCL_REDFISH_URL_H */
