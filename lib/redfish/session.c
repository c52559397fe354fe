// SPDX-License-Identifier: MIT
/*
 * session.c - logging in to a Redfish service and out again: what the
 * service root says about sessions, the login's body and its answer, and
 * ending the sessions. fleet.c runs the requests; their outcomes are
 * decided here.
 */
#include <stdio.h>
#include <string.h>

#include "redfish/client.h"
#include "redfish/credential.h"
#include "redfish/json.h"
#include "redfish/session.h"

/* Where the DMTF puts the sessions, for a root that wants credentials itself. */
#define DEFAULT_SESSIONS "/redfish/v1/SessionService/Sessions"

json_object *rcl_redfish_client_root(const struct rcl_redfish_client *c)
{
	return c->root;
}

bool rcl_redfish_client_basic(const struct rcl_redfish_client *c)
{
	return c->state == RCL_REDFISH_READY && !c->sessions_uri;
}

static enum rcl_status fail(struct rcl_redfish_client *c, const struct rcl_error *why)
{
	rcl_redfish_client_fail(c, why);
	return why->status;
}

/* The client may run its calls. Insecure clients say so at every login, never silently. */
static void ready(struct rcl_redfish_client *c)
{
	char msg[RCL_ERROR_MSG_MAX];

	c->state = RCL_REDFISH_READY;
	if (!c->insecure)
		return;
	snprintf(msg, sizeof(msg),
	         "TLS certificate verification is off for '%s' (insecure): anyone on the path "
	         "to the BMC can read the password and change what raidcli reads and writes",
	         c->host);
	c->warn(c->warn_arg, msg);
}

/* Read the service root in @body: where to log in (*@sessions borrowed, NULL: Basic). */
static enum rcl_status read_root(struct rcl_redfish_client *c, json_object *body,
                                 const char **sessions, struct rcl_error *err)
{
	json_object *service, *links;
	enum rcl_status status;

	if (!body)
		return rcl_fail(err, RCL_BAD_REPLY, "the service root of '%s' is empty", c->host);
	status = rcl_redfish_member(body, "SessionService", json_type_object, true, "/redfish/v1/",
	                            &service, err);
	if (!status)
		status = rcl_redfish_member(body, "Links", json_type_object, true, "/redfish/v1/",
		                            &links, err);
	if (!status && links)
		status = rcl_redfish_link(links, "Sessions", true, "/redfish/v1/", sessions, err);
	if (!status && !*sessions && service)
		*sessions = DEFAULT_SESSIONS;
	return status;
}

enum rcl_status rcl_redfish_session_root(struct rcl_redfish_client *c,
                                         struct rcl_redfish_response *resp,
                                         const struct rcl_error *outcome)
{
	const char *sessions = DEFAULT_SESSIONS;
	struct rcl_error err;

	rcl_free(c->sessions_uri);
	c->sessions_uri = NULL;
	if (outcome->status && resp->status != 401 && resp->status != 403)
		return fail(c, outcome);
	if (!outcome->status) {
		sessions = NULL;
		if (read_root(c, resp->body, &sessions, &err))
			return fail(c, &err);
		json_object_put(c->root);
		c->root = json_object_get(resp->body);
	}
	if (!sessions) {
		ready(c);
		return RCL_OK;
	}
	c->sessions_uri = rcl_strdup(sessions);
	if (!c->sessions_uri)
		return fail(c, &(struct rcl_error){.status = RCL_NOMEM, .msg = "out of memory"});
	return RCL_OK;
}

/* @s as a JSON string into @sb, escaped by hand: no copy of the password is left behind. */
static void add_json_string(struct rcl_buf *sb, const char *s)
{
	rcl_buf_addch(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			rcl_buf_addch(sb, '\\');
		if (*p < ' ')
			rcl_buf_addf(sb, "\\u%04x", *p);
		else
			rcl_buf_addch(sb, (char)*p);
	}
	rcl_buf_addch(sb, '"');
}

char *rcl_redfish_session_body(const struct rcl_redfish_client *c)
{
	/* Room for the worst case (every byte a \u00XX), so the buffer never moves: a
	 * buffer that grows leaves copies of the password in freed memory. */
	size_t size = 6 * (strlen(c->user) + strlen(c->password)) + 64;
	struct rcl_buf sb = {.buf = rcl_malloc(size), .alloc = size};

	if (!sb.buf)
		return NULL;
	sb.buf[0] = '\0';
	rcl_buf_adds(&sb, "{\"UserName\": ");
	add_json_string(&sb, c->user);
	rcl_buf_adds(&sb, ", \"Password\": ");
	add_json_string(&sb, c->password);
	rcl_buf_adds(&sb, "}");
	return sb.buf;
}

enum rcl_status rcl_redfish_session_login(struct rcl_redfish_client *c, struct rcl_redfish_xfer *x,
                                          const struct rcl_redfish_response *resp,
                                          const struct rcl_error *outcome)
{
	const char *self = NULL;
	struct rcl_error err;
	char *token;

	if (outcome->status)
		return fail(c, outcome);
	if (!rcl_redfish_xfer_header(x, "X-Auth-Token", &token))
		return fail(c, &(struct rcl_error){.status = RCL_NOMEM, .msg = "out of memory"});
	if (!token || !*token) {
		rcl_redfish_secret_free(token);
		rcl_fail(&err, RCL_BAD_REPLY,
		         "'%s' accepted the login (HTTP %ld) but sent no X-Auth-Token", c->host,
		         resp->status);
		return fail(c, &err);
	}
	rcl_redfish_secret_free(c->token);
	c->token = token;
	c->token_gen++;
	rcl_free(c->session_uri);
	if (!resp->location)
		rcl_redfish_string(resp->body, "@odata.id", true, "the new session", &self, NULL);
	c->session_uri = rcl_strdup(resp->location ? resp->location : self ? self : "");
	if (c->session_uri && !*c->session_uri) {
		rcl_free(c->session_uri); /* nowhere to log out from: it expires on its own */
		c->session_uri = NULL;
	}
	ready(c);
	return RCL_OK;
}

/* Forget @c's session: the next request logs in again. */
static void forget_session(struct rcl_redfish_client *c)
{
	rcl_redfish_secret_free(c->token);
	rcl_free(c->session_uri);
	c->token = NULL;
	c->session_uri = NULL;
	if (c->state == RCL_REDFISH_READY)
		c->state = RCL_REDFISH_NEW;
}

enum rcl_status rcl_redfish_logout(struct rcl_redfish_client **clients, size_t count,
                                   const struct rcl_redfish_limits *limits, struct rcl_error *err)
{
	struct rcl_redfish_call *calls = rcl_calloc(count ? count : 1, sizeof(*calls));
	enum rcl_status status = RCL_OK;
	size_t n = 0;

	if (!calls)
		return rcl_fail(err, RCL_NOMEM, "out of memory logging out");
	for (size_t i = 0; i < count; i++)
		if (clients[i]->session_uri && clients[i]->state == RCL_REDFISH_READY)
			calls[n++] = (struct rcl_redfish_call){.client = clients[i],
			                                       .method = RCL_REDFISH_DELETE,
			                                       .path = clients[i]->session_uri,
			                                       .as_is = true};
	if (n)
		status = rcl_redfish_run(calls, n, limits, err);
	for (size_t i = 0; i < n; i++) {
		long http = calls[i].resp.status;

		/* 401 or 404: the service had already ended it. */
		if (!status && calls[i].err.status && http != 401 && http != 404) {
			status = calls[i].err.status;
			if (err)
				*err = calls[i].err;
		}
		rcl_redfish_response_release(&calls[i].resp);
	}
	for (size_t i = 0; i < count; i++)
		if (clients[i]->session_uri)
			forget_session(clients[i]);
	rcl_free(calls);
	return status;
}
