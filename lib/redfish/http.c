// SPDX-License-Identifier: MIT
/*
 * http.c - one BMC's client and one HTTP exchange: how a libcurl easy
 * handle is set up (TLS, timeouts, size cap, authentication, no redirects
 * of its own) and how what came back becomes a response or an error. The
 * runs that drive the exchanges are fleet.c's; logging in is session.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "redfish/client.h"
#include "redfish/credential.h"
#include "redfish/curl-api.h"
#include "redfish/json.h"
#include "redfish/message.h"
#include "redfish/session.h"
#include "redfish/url.h"

static const char *const method_names[] = {
    [RCL_REDFISH_GET] = "GET",
    [RCL_REDFISH_POST] = "POST",
    [RCL_REDFISH_PATCH] = "PATCH",
    [RCL_REDFISH_DELETE] = "DELETE",
};

const char *rcl_redfish_method_name(enum rcl_redfish_method method)
{
	return method_names[method];
}

uint64_t rcl_redfish_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* A copy of @s into *@dst, or NULL for NULL. Return: false on OOM. */
static bool copy(char **dst, const char *s)
{
	*dst = s ? rcl_strdup(s) : NULL;
	return !s || *dst;
}

static enum rcl_status client_share(struct rcl_redfish_client *c, struct rcl_error *err)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();

	c->share = curl->share_init();
	if (!c->share)
		return rcl_fail(err, RCL_NOMEM, "out of memory setting up a client for '%s'",
		                c->host);
	/* One client is only ever run by one thread: the share needs no lock. */
	curl->share_setopt(c->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
	curl->share_setopt(c->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
	curl->share_setopt(c->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
	return RCL_OK;
}

enum rcl_status rcl_redfish_client_new(const struct rcl_redfish_opts *opts,
                                       struct rcl_redfish_client **out, struct rcl_error *err)
{
	struct rcl_redfish_client *c;
	enum rcl_status status = rcl_redfish_curl_load(err);

	if (status)
		return status;
	if (!opts->user || !*opts->user || !opts->password)
		return rcl_fail(err, RCL_INVALID_PARAM, "a BMC needs a user and a password");
	if (opts->insecure && !opts->warn)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "insecure needs a place for its warning (opts->warn)");
	c = rcl_calloc(1, sizeof(*c));
	if (!c)
		return rcl_fail(err, RCL_NOMEM, "out of memory setting up a client for '%s'",
		                opts->url);
	status = rcl_redfish_url_origin(opts->url, &c->origin, &c->host, err);
	if (!status && (!copy(&c->user, opts->user) || !copy(&c->password, opts->password) ||
	                !copy(&c->ca_file, opts->ca_file)))
		status = rcl_fail(err, RCL_NOMEM, "out of memory setting up a client for '%s'",
		                  opts->url);
	if (!status)
		status = client_share(c, err);
	if (status) {
		rcl_redfish_client_free(c);
		return status;
	}
	c->insecure = opts->insecure;
	c->connect_timeout_ms =
	    opts->connect_timeout_ms ? opts->connect_timeout_ms : RCL_REDFISH_CONNECT_TIMEOUT_MS;
	c->timeout_ms = opts->timeout_ms ? opts->timeout_ms : RCL_REDFISH_TIMEOUT_MS;
	c->max_response = opts->max_response ? opts->max_response : RCL_REDFISH_MAX_RESPONSE;
	c->retries = opts->retries ? opts->retries : RCL_REDFISH_RETRIES;
	c->warn = opts->warn;
	c->warn_arg = opts->warn_arg;
	*out = c;
	return RCL_OK;
}

void rcl_redfish_client_free(struct rcl_redfish_client *c)
{
	if (!c)
		return;
	if (c->session_uri)
		rcl_redfish_logout(&c, 1, NULL, NULL);
	if (c->share)
		rcl_redfish_curl()->share_cleanup(c->share);
	json_object_put(c->root);
	rcl_redfish_secret_free(c->password);
	rcl_redfish_secret_free(c->token);
	rcl_free(c->origin);
	rcl_free(c->host);
	rcl_free(c->user);
	rcl_free(c->ca_file);
	rcl_free(c->sessions_uri);
	rcl_free(c->session_uri);
	rcl_free(c);
}

const char *rcl_redfish_client_host(const struct rcl_redfish_client *c)
{
	return c->host;
}

const struct rcl_error *rcl_redfish_client_failure(const struct rcl_redfish_client *c)
{
	return c->state == RCL_REDFISH_FAILED ? &c->failure : NULL;
}

void rcl_redfish_client_fail(struct rcl_redfish_client *c, const struct rcl_error *why)
{
	c->state = RCL_REDFISH_FAILED;
	c->failure = *why;
}

void rcl_redfish_response_release(struct rcl_redfish_response *resp)
{
	json_object_put(resp->body);
	rcl_free(resp->etag);
	rcl_free(resp->location);
	*resp = (struct rcl_redfish_response){.retry_after = -1};
}

/* libcurl's write callback: keep the body, up to the cap. */
static size_t on_data(char *data, size_t size, size_t n, void *arg)
{
	struct rcl_redfish_xfer *x = arg;

	if (x->data.len + n > x->max) {
		x->too_big = true;
		return 0; /* makes libcurl stop the transfer with CURLE_WRITE_ERROR */
	}
	rcl_buf_add(&x->data, data, n);
	return x->data.oom ? 0 : size * n;
}

/* Add "@name: @value" to @x's headers. Return: false on OOM. */
static bool add_header(struct rcl_redfish_xfer *x, const char *name, const char *value)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	struct curl_slist *l;

	rcl_buf_addf(&sb, "%s: %s", name, value);
	l = sb.oom ? NULL : rcl_redfish_curl()->slist_append(x->headers, sb.buf);
	/* The token may be in it: the copy libcurl made is the only one left. */
	explicit_bzero(sb.buf, sb.len);
	rcl_buf_release(&sb);
	if (l)
		x->headers = l;
	return l != NULL;
}

static bool set_headers(struct rcl_redfish_xfer *x, const struct rcl_redfish_client *c,
                        const char *body, const char *if_match, bool anonymous)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	bool ok =
	    add_header(x, "Accept", "application/json") && add_header(x, "OData-Version", "4.0");

	if (ok && body)
		ok = add_header(x, "Content-Type", "application/json; charset=utf-8") &&
		     add_header(x, "Expect", ""); /* no 100-continue round trip */
	if (ok && if_match)
		ok = add_header(x, "If-Match", if_match);
	if (ok && !anonymous && c->token)
		ok = add_header(x, "X-Auth-Token", c->token);
	if (!anonymous && !c->token && !c->sessions_uri) {
		curl->easy_setopt(x->easy, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl->easy_setopt(x->easy, CURLOPT_USERNAME, c->user);
		curl->easy_setopt(x->easy, CURLOPT_PASSWORD, c->password);
	}
	return ok;
}

static void set_method(CURL *easy, enum rcl_redfish_method method, const char *body)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();

	if (method == RCL_REDFISH_GET)
		curl->easy_setopt(easy, CURLOPT_HTTPGET, 1L);
	else
		curl->easy_setopt(easy, CURLOPT_CUSTOMREQUEST, rcl_redfish_method_name(method));
	if (body) {
		curl->easy_setopt(easy, CURLOPT_POSTFIELDS, body);
		curl->easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
	}
}

/*
 * The CAs come from one file: the client's, else libcurl's bundle (the
 * system's). With a CA directory besides (Debian's libcurl has both by
 * default), libcurl parses the file again for every connection, which
 * was most of a fleet's CPU; from a file alone it parses it once per run
 * and keeps the store (CURLOPT_CA_CACHE_TIMEOUT, 24 h by default).
 */
static void set_tls(CURL *easy, const struct rcl_redfish_client *c)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	const char *bundle = c->ca_file ? c->ca_file : curl->version_info(CURLVERSION_NOW)->cainfo;

	if (bundle) {
		curl->easy_setopt(easy, CURLOPT_CAINFO, bundle);
		curl->easy_setopt(easy, CURLOPT_CAPATH, NULL);
	}
	curl->easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, c->insecure ? 0L : 1L);
	curl->easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, c->insecure ? 0L : 2L);
}

enum rcl_status rcl_redfish_xfer_setup(struct rcl_redfish_xfer *x,
                                       const struct rcl_redfish_client *c,
                                       enum rcl_redfish_method method, const char *url,
                                       const char *body, const char *if_match, bool anonymous,
                                       long timeout_ms, struct rcl_error *err)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	CURL *e = curl->easy_init();

	*x = (struct rcl_redfish_xfer){.easy = e, .max = c->max_response};
	rcl_buf_init(&x->data);
	if (!e || !set_headers(x, c, body, if_match, anonymous))
		return rcl_fail(err, RCL_NOMEM, "out of memory preparing a request to '%s'",
		                c->host);
	curl->easy_setopt(e, CURLOPT_URL, url);
	curl->easy_setopt(e, CURLOPT_PROTOCOLS_STR, "https");
	curl->easy_setopt(e, CURLOPT_FOLLOWLOCATION,
	                  0L); /* fleet.c follows, on the same host only */
	curl->easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl->easy_setopt(e, CURLOPT_SHARE, c->share);
	curl->easy_setopt(e, CURLOPT_HTTPHEADER, x->headers);
	curl->easy_setopt(e, CURLOPT_USERAGENT, "raidcli/" RAIDCLI_VERSION);
	curl->easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
	                  c->connect_timeout_ms < timeout_ms ? c->connect_timeout_ms : timeout_ms);
	curl->easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
	/* With a Content-Length, an oversized answer is refused before its body. */
	curl->easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)c->max_response);
	curl->easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
	curl->easy_setopt(e, CURLOPT_WRITEDATA, x);
	curl->easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf);
	set_tls(e, c);
	set_method(e, method, body);
	return RCL_OK;
}

void rcl_redfish_xfer_release(struct rcl_redfish_xfer *x)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();

	/* A job that never started holds neither. */
	if (x->easy)
		curl->easy_cleanup(x->easy);
	if (x->headers)
		curl->slist_free_all(x->headers);
	rcl_buf_release(&x->data);
	*x = (struct rcl_redfish_xfer){0};
	rcl_buf_init(&x->data);
}

/* Why the exchange failed on the wire, in @err. */
static enum rcl_status transport_error(struct rcl_redfish_xfer *x, CURLcode code,
                                       const struct rcl_redfish_client *c, const char *req,
                                       struct rcl_error *err)
{
	char detail[CURL_ERROR_SIZE];

	rcl_redfish_clean(x->errbuf[0] ? x->errbuf : rcl_redfish_curl()->easy_strerror(code),
	                  detail, sizeof(detail));
	switch (code) {
	case CURLE_FILESIZE_EXCEEDED:
	case CURLE_WRITE_ERROR:
		if (x->data.oom)
			return rcl_fail(err, RCL_NOMEM,
			                "out of memory reading the answer to %s from "
			                "'%s'",
			                req, c->host);
		return rcl_fail(
		    err, RCL_BAD_REPLY,
		    "the answer to %s from '%s' is larger than raidcli accepts (%zu bytes)", req,
		    c->host, c->max_response);
	case CURLE_OPERATION_TIMEDOUT:
		return rcl_fail(err, RCL_UNREACHABLE, "'%s' did not answer %s in time: %s", c->host,
		                req, detail);
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
		return rcl_fail(err, RCL_UNREACHABLE,
		                "the TLS certificate of '%s' is not trusted (%s): name the CA that "
		                "signed it, or turn verification off with insecure",
		                c->host, detail);
	case CURLE_SSL_CONNECT_ERROR:
		return rcl_fail(err, RCL_UNREACHABLE, "the TLS handshake with '%s' failed: %s",
		                c->host, detail);
	case CURLE_GOT_NOTHING:
		return rcl_fail(err, RCL_UNREACHABLE,
		                "'%s' closed the connection without "
		                "answering %s",
		                c->host, req);
	case CURLE_OUT_OF_MEMORY:
		return rcl_fail(err, RCL_NOMEM, "out of memory sending %s to '%s'", req, c->host);
	case CURLE_WEIRD_SERVER_REPLY:
		return rcl_fail(err, RCL_BAD_REPLY, "'%s' answered %s with no valid HTTP: %s",
		                c->host, req, detail);
	default:
		return rcl_fail(err, RCL_UNREACHABLE, "cannot reach '%s' for %s: %s", c->host, req,
		                detail);
	}
}

bool rcl_redfish_xfer_header(struct rcl_redfish_xfer *x, const char *name, char **out)
{
	struct curl_header *h;

	*out = NULL;
	if (rcl_redfish_curl()->easy_header(x->easy, name, 0, CURLH_HEADER, -1, &h) != CURLHE_OK)
		return true;
	*out = rcl_strdup(h->value);
	return *out != NULL;
}

bool rcl_redfish_xfer_kept(struct rcl_redfish_xfer *x, CURLcode code)
{
	struct curl_header *h;

	if (code != CURLE_OK)
		return false;
	return rcl_redfish_curl()->easy_header(x->easy, "Connection", 0, CURLH_HEADER, -1, &h) !=
	           CURLHE_OK ||
	       !strcasestr(h->value, "close");
}

/* Headers of @resp from @x. Return: false on OOM. */
static bool take_headers(struct rcl_redfish_xfer *x, struct rcl_redfish_response *resp)
{
	char *retry = NULL;
	bool ok = rcl_redfish_xfer_header(x, "ETag", &resp->etag) &&
	          rcl_redfish_xfer_header(x, "Location", &resp->location) &&
	          rcl_redfish_xfer_header(x, "Retry-After", &retry);

	if (ok && retry) {
		char *end;
		long s = strtol(retry, &end, 10);

		resp->retry_after = end != retry && s >= 0 ? s : -1; /* HTTP dates: no hint */
	}
	rcl_free(retry);
	return ok;
}

/* The body's @odata.etag when no ETag header came. Return: false on OOM. */
static bool body_etag(struct rcl_redfish_response *resp)
{
	json_object *v;

	if (resp->etag || !json_object_object_get_ex(resp->body, "@odata.etag", &v) ||
	    !json_object_is_type(v, json_type_string))
		return true;
	resp->etag = rcl_strdup(json_object_get_string(v));
	return resp->etag != NULL;
}

enum rcl_status rcl_redfish_xfer_decode(struct rcl_redfish_xfer *x, CURLcode code,
                                        const struct rcl_redfish_client *c,
                                        enum rcl_redfish_method method, const char *path,
                                        struct rcl_redfish_response *resp, struct rcl_error *err)
{
	char shown[RCL_QUOTE_MAX + 1], req[RCL_QUOTE_MAX + 16], what[2 * RCL_QUOTE_MAX + 64];
	struct rcl_error parse_err;
	enum rcl_status status;

	rcl_redfish_clean(path, shown, sizeof(shown));
	snprintf(req, sizeof(req), "%s '%s'", rcl_redfish_method_name(method), shown);
	rcl_redfish_response_release(resp);
	if (code != CURLE_OK)
		return transport_error(x, code, c, req, err);
	rcl_redfish_curl()->easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &resp->status);
	if (!take_headers(x, resp))
		return rcl_fail(err, RCL_NOMEM, "out of memory reading the answer to %s", req);
	if (!x->data.len)
		return RCL_OK;
	snprintf(what, sizeof(what), "the answer to %s from '%s'", req, c->host);
	status = rcl_redfish_json_parse(x->data.buf, x->data.len, what, &resp->body, &parse_err);
	/* An error answer may carry HTML or text: the status still says what happened. */
	if (status && (status == RCL_NOMEM || (resp->status >= 200 && resp->status < 300)))
		return rcl_fail(err, parse_err.status, "%s", parse_err.msg);
	if (!body_etag(resp))
		return rcl_fail(err, RCL_NOMEM, "out of memory reading the answer to %s", req);
	return RCL_OK;
}

enum rcl_status rcl_redfish_request(struct rcl_redfish_client *client,
                                    enum rcl_redfish_method method, const char *path,
                                    const char *body, const char *if_match,
                                    struct rcl_redfish_response *resp, struct rcl_error *err)
{
	struct rcl_redfish_call call = {.client = client,
	                                .method = method,
	                                .path = path,
	                                .body = body,
	                                .if_match = if_match,
	                                .resp = {.retry_after = -1}};
	enum rcl_status status = rcl_redfish_run(&call, 1, NULL, err);

	rcl_redfish_response_release(resp);
	*resp = call.resp;
	if (status)
		return status;
	if (call.err.status && err)
		*err = call.err;
	return call.err.status;
}

enum rcl_status rcl_redfish_get(struct rcl_redfish_client *client, const char *path,
                                struct rcl_redfish_response *resp, struct rcl_error *err)
{
	return rcl_redfish_request(client, RCL_REDFISH_GET, path, NULL, NULL, resp, err);
}
