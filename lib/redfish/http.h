/* SPDX-License-Identifier: MIT */
/*
 * http.h - raidcli's HTTP client for Redfish services: the transport the
 * Redfish backend sits on.
 *
 * A struct rcl_redfish_client stands for one BMC: its https base URL, the
 * user and password, the TLS and timeout settings, and (session.h) the
 * Redfish session it holds. Requests are struct rcl_redfish_call records;
 * rcl_redfish_run() runs any number of them, to one BMC or to a thousand,
 * concurrently over one libcurl multi handle (fleet.c): logging in where
 * needed, bounded in connections per host and in total, each host's
 * failure reported in its own calls while the others finish. The single
 * request calls below are runs of one call, so both go one way.
 *
 * What every request does:
 * - Only https, TLS verified against the system's CAs or @ca_file, unless
 *   @insecure (then the client warns through @warn each time it logs in).
 * - A whole-request deadline (@timeout_ms, retries included) and a
 *   connect timeout; a host that fails to connect or to answer in time is
 *   marked failed, and its later calls fail at once with the same reason,
 *   so a dead or slow host costs one timeout, not one per request.
 * - Retries (@retries, after 100 ms, 200 ms, ...) only for GET and DELETE,
 *   and only on connection errors, never after a timeout.
 * - Redirects are followed only to the same scheme, host and port (a GET
 *   on any 3xx, other methods on 307/308 only), at most five.
 * - Answers larger than @max_response bytes are cut off with an error.
 * - A 2xx answer's body is parsed as one JSON object (json.h); an error
 *   answer becomes an rcl_error whose message is the service's
 *   @Message.ExtendedInfo (message.c), never a bare HTTP code.
 *
 * Statuses every call here may return: RCL_UNREACHABLE (refused, timed
 * out, TLS failure), RCL_BAD_REPLY (malformed or oversized answer, wrong
 * types, a redirect off the host), RCL_NOMEM, and those of a refused
 * request (rcl_redfish_refusal(), message.h).
 */
#ifndef RCL_REDFISH_HTTP_H
#define RCL_REDFISH_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "raidcli.h"

#define RCL_REDFISH_CONNECT_TIMEOUT_MS 5000
#define RCL_REDFISH_TIMEOUT_MS         30000
#define RCL_REDFISH_MAX_RESPONSE       (16u << 20)
#define RCL_REDFISH_RETRIES            2

/**
 * struct rcl_redfish_opts - how to reach one BMC. Strings are borrowed:
 * rcl_redfish_client_new() copies what it keeps.
 * @url:	"https://host[:port]", optionally ending in "/"; no user,
 *		password, path, query or fragment.
 * @user, @password: the account; @password comes from
 *		rcl_redfish_password_load() (credential.h), never argv.
 * @ca_file:	a PEM file of CAs to trust instead of the system's; NULL:
 *		the system's.
 * @insecure:	do not verify the BMC's certificate. Needs @warn, which
 *		is told so every time the client logs in.
 * @connect_timeout_ms, @timeout_ms, @max_response, @retries: 0 for the
 *		defaults above.
 * @warn:	where the client's warnings go (the library never prints),
 *		with @warn_arg.
 */
struct rcl_redfish_opts {
	const char *url;
	const char *user;
	const char *password;
	const char *ca_file;
	bool insecure;
	long connect_timeout_ms;
	long timeout_ms;
	size_t max_response;
	unsigned retries;
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
};

struct rcl_redfish_client;

/**
 * rcl_redfish_client_new() - a client for the BMC @opts describes. No
 * request is made yet: the first one logs in (session.h).
 * Return: RCL_OK and *@out; RCL_INVALID_PARAM naming the bad URL or the
 * missing setting; RCL_NOMEM.
 */
enum rcl_status rcl_redfish_client_new(const struct rcl_redfish_opts *opts,
                                       struct rcl_redfish_client **out, struct rcl_error *err);
/**
 * rcl_redfish_client_free() - log out if a session is open (session.h,
 * with the client's own timeout), wipe the password and token, free the
 * client. NULL is a no-op. To log out of many BMCs at once, call
 * rcl_redfish_logout() on them all first.
 */
void rcl_redfish_client_free(struct rcl_redfish_client *client);
/* rcl_redfish_client_host() - "host:port", as messages name the BMC (borrowed). */
const char *rcl_redfish_client_host(const struct rcl_redfish_client *client);
/*
 * rcl_redfish_client_failure() - why the client's host was given up (it did
 * not connect or answer in time), or NULL while it has not been.
 */
const struct rcl_error *rcl_redfish_client_failure(const struct rcl_redfish_client *client);

enum rcl_redfish_method {
	RCL_REDFISH_GET,
	RCL_REDFISH_POST,
	RCL_REDFISH_PATCH,
	RCL_REDFISH_DELETE,
};

/* rcl_redfish_method_name() - "GET", "POST", ... */
const char *rcl_redfish_method_name(enum rcl_redfish_method method);

/**
 * struct rcl_redfish_response - one answer.
 * @status:	the HTTP status (0: none arrived).
 * @body:	the body parsed as a JSON object, NULL when it was empty;
 *		owned (json_object_put() by rcl_redfish_response_release()).
 * @etag:	the ETag header, else the body's "@odata.etag", else NULL.
 * @location:	the Location header, else NULL.
 * @retry_after: the Retry-After header in seconds, -1 without one.
 */
struct rcl_redfish_response {
	long status;
	json_object *body;
	char *etag;
	char *location;
	long retry_after;
};

/* rcl_redfish_response_release() - free @resp's members; it reads as no answer after. */
void rcl_redfish_response_release(struct rcl_redfish_response *resp);

/**
 * struct rcl_redfish_call - one request and its outcome, for
 * rcl_redfish_run().
 * @client:	the BMC to ask.
 * @method:	the method.
 * @path:	"/redfish/v1/..." (an @odata.id as the service gave it), or
 *		an absolute URL on the client's own host (a Location).
 * @body:	JSON text to send (POST, PATCH), or NULL; borrowed.
 * @if_match:	an ETag to send as If-Match, or NULL; borrowed.
 * @as_is:	use the client's session as it stands: never log in, not
 *		even again on a 401 (for logging out).
 * @login_only:	send nothing: the call ends once the client has logged in
 *		(with its service root read), or with why it could not, so
 *		that the caller's first question can depend on the root.
 * @resp:	the answer: filled whenever one arrived, refused or not.
 * @err:	@err.status is RCL_OK when the service accepted the request
 *		(2xx); else why not.
 */
struct rcl_redfish_call {
	struct rcl_redfish_client *client;
	enum rcl_redfish_method method;
	const char *path;
	const char *body;
	const char *if_match;
	bool as_is;
	bool login_only;
	struct rcl_redfish_response resp;
	struct rcl_error err;
};

/**
 * struct rcl_redfish_limits - how many requests rcl_redfish_run() keeps
 * under way: at most @per_host to one client and @total in all (0: the
 * defaults, 2 and 64; BMCs serve few connections).
 */
struct rcl_redfish_limits {
	unsigned per_host;
	unsigned total;
};

/**
 * rcl_redfish_run() - run @count @calls concurrently, in their order
 * within each host. Every call ends with its own @resp and @err: a dead,
 * slow or lying host fails its own calls, never the others'.
 * @limits:	NULL for the defaults.
 * Return: RCL_OK once every call has its outcome; RCL_NOMEM or
 * RCL_SYSTEM (in @err, every call's @err set too) when the run itself
 * could not be set up.
 */
enum rcl_status rcl_redfish_run(struct rcl_redfish_call *calls, size_t count,
                                const struct rcl_redfish_limits *limits, struct rcl_error *err);

/*
 * A run that calls join while it runs, for a caller that asks each host
 * its next question as soon as the last answer is in: a slow host then
 * delays only its own questions. rcl_redfish_run() is this, with every
 * call added first. Within a host, calls start in the order they joined;
 * the limits are the run's. @call stays the caller's: it must outlive its
 * time in the run (until handed back, or until the run is freed).
 */
struct rcl_redfish_run;

/* rcl_redfish_run_new() - an empty run (@limits NULL: the defaults). Return: RCL_OK; RCL_NOMEM. */
enum rcl_status rcl_redfish_run_new(const struct rcl_redfish_limits *limits,
                                    struct rcl_redfish_run **out, struct rcl_error *err);
/*
 * rcl_redfish_run_add() - let @call join @run (its @resp and @err reset);
 * it starts at the next rcl_redfish_run_next(). Return: RCL_OK; RCL_NOMEM
 * (@call is not in the run).
 */
enum rcl_status rcl_redfish_run_add(struct rcl_redfish_run *run, struct rcl_redfish_call *call,
                                    struct rcl_error *err);
/*
 * rcl_redfish_run_next() - run until a call ends and hand it back, with
 * its @resp and @err; calls may join before the next one. Return: the
 * call; NULL once every call that joined was handed back.
 */
struct rcl_redfish_call *rcl_redfish_run_next(struct rcl_redfish_run *run);
/*
 * rcl_redfish_run_free() - stop @run: calls still under way are dropped
 * (their @resp and @err as they were). NULL is a no-op.
 */
void rcl_redfish_run_free(struct rcl_redfish_run *run);

/**
 * rcl_redfish_request() - one request, run alone: @resp gets the answer
 * (released first), also a refused one.
 * Return: RCL_OK for a 2xx answer; else the statuses above.
 */
enum rcl_status rcl_redfish_request(struct rcl_redfish_client *client,
                                    enum rcl_redfish_method method, const char *path,
                                    const char *body, const char *if_match,
                                    struct rcl_redfish_response *resp, struct rcl_error *err);

/* rcl_redfish_get() - rcl_redfish_request() for a GET. */
enum rcl_status rcl_redfish_get(struct rcl_redfish_client *client, const char *path,
                                struct rcl_redfish_response *resp, struct rcl_error *err);

#endif /* RCL_REDFISH_HTTP_H */
