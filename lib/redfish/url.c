// SPDX-License-Identifier: MIT
/*
 * url.c - a BMC's base URL and its resources' URLs, parsed by libcurl's URL
 * API (the parser its transfers use), so that what is checked here is what
 * goes on the wire.
 */
#include <string.h>
#include <strings.h>

#include "redfish/curl-api.h"
#include "redfish/message.h"
#include "redfish/url.h"

/* @h's part @what, or NULL when it has none (free with curl_free()). */
static char *part(CURLU *h, CURLUPart what, unsigned flags)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	char *value = NULL;

	if (curl->url_get(h, what, &value, flags) != CURLUE_OK)
		return NULL;
	return value;
}

/* "@scheme://@host:@port" of @h in a new string, or NULL (OOM, or no host). */
static char *origin_of(CURLU *h)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	char *scheme = part(h, CURLUPART_SCHEME, 0), *host = part(h, CURLUPART_HOST, 0);
	char *port = part(h, CURLUPART_PORT, CURLU_DEFAULT_PORT), *out = NULL;
	struct rcl_buf sb = RCL_BUF_INIT;

	if (scheme && host && port) {
		rcl_buf_addf(&sb, "%s://%s:%s", scheme, host, port);
		out = rcl_buf_detach(&sb);
	}
	curl->free(scheme);
	curl->free(host);
	curl->free(port);
	return out;
}

/* Why base URL @h is not one raidcli accepts, or NULL. */
static const char *base_problem(CURLU *h)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	char *scheme = part(h, CURLUPART_SCHEME, 0), *path = part(h, CURLUPART_PATH, 0);
	char *user = part(h, CURLUPART_USER, 0), *query = part(h, CURLUPART_QUERY, 0);
	char *fragment = part(h, CURLUPART_FRAGMENT, 0);
	const char *why = NULL;

	if (!scheme || strcasecmp(scheme, "https"))
		why = "is not an https URL (raidcli sends credentials only over TLS)";
	else if (user)
		why = "holds a user name or password: give them as options, the password in a file "
		      "or the environment";
	else if ((path && strcmp(path, "/")) || query || fragment)
		why = "has a path, query or fragment: give only https://host[:port]";
	curl->free(scheme);
	curl->free(path);
	curl->free(user);
	curl->free(query);
	curl->free(fragment);
	return why;
}

enum rcl_status rcl_redfish_url_origin(const char *url, char **origin, char **host,
                                       struct rcl_error *err)
{
	enum rcl_status status = rcl_redfish_curl_load(err);
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	const char *why;
	CURLU *h;
	char *o;

	if (status)
		return status;
	h = curl->url();
	if (!h)
		return rcl_fail(err, RCL_NOMEM, "out of memory parsing '%s'", url);
	if (curl->url_set(h, CURLUPART_URL, url, 0) != CURLUE_OK) {
		status = rcl_fail(err, RCL_INVALID_PARAM,
		                  "'%s' is not a URL: give the BMC as https://host[:port]", url);
	} else if ((why = base_problem(h))) {
		status = rcl_fail(err, RCL_INVALID_PARAM, "BMC URL '%s' %s", url, why);
	} else if (!(o = origin_of(h))) {
		status = rcl_fail(err, RCL_NOMEM, "out of memory parsing '%s'", url);
	} else {
		*origin = o;
		*host = rcl_strdup(strstr(o, "://") + 3);
		if (!*host) {
			rcl_free(o);
			status = rcl_fail(err, RCL_NOMEM, "out of memory parsing '%s'", url);
		}
	}
	curl->url_cleanup(h);
	return status;
}

/* Whether @ref holds a space, a control character or a byte libcurl would send raw. */
static bool unsafe(const char *ref)
{
	for (const unsigned char *p = (const unsigned char *)ref; *p; p++)
		if (*p <= ' ' || *p >= 0x7f)
			return true;
	return false;
}

static bool is_absolute_url(const char *ref)
{
	return !strncasecmp(ref, "https://", 8) || !strncasecmp(ref, "http://", 7);
}

enum rcl_status rcl_redfish_url_join(const char *origin, const char *base, const char *ref,
                                     bool relative, char **out, struct rcl_error *err)
{
	char shown[RCL_QUOTE_MAX + 1], *o = NULL, *url = NULL;
	const struct rcl_redfish_curl *curl;
	enum rcl_status status;
	CURLU *h;

	rcl_redfish_clean(ref, shown, sizeof(shown));
	if (!*ref || unsafe(ref))
		return rcl_fail(err, RCL_BAD_REPLY,
		                "link '%s' is empty or holds spaces or "
		                "control characters",
		                shown);
	if (!relative && ref[0] != '/' && !is_absolute_url(ref))
		return rcl_fail(err, RCL_BAD_REPLY, "link '%s' is not an absolute path", shown);
	status = rcl_redfish_curl_load(err);
	if (status)
		return status;
	curl = rcl_redfish_curl();
	h = curl->url();
	if (!h)
		return rcl_fail(err, RCL_NOMEM, "out of memory joining '%s'", shown);
	/* Set twice: libcurl reads the second URL relative to the first. */
	if (curl->url_set(h, CURLUPART_URL, base ? base : origin, 0) != CURLUE_OK ||
	    curl->url_set(h, CURLUPART_URL, ref, 0) != CURLUE_OK)
		status = rcl_fail(err, RCL_BAD_REPLY, "link '%s' is not a valid URL", shown);
	else if (!(o = origin_of(h)) || !(url = part(h, CURLUPART_URL, 0)))
		status = rcl_fail(err, RCL_NOMEM, "out of memory joining '%s'", shown);
	else if (strcasecmp(o, origin))
		status = rcl_fail(err, RCL_BAD_REPLY,
		                  "link '%s' leads away from '%s'; not followed", shown, origin);
	else if (!(*out = rcl_strdup(url)))
		status = rcl_fail(err, RCL_NOMEM, "out of memory joining '%s'", shown);
	rcl_free(o);
	curl->free(url);
	curl->url_cleanup(h);
	return status;
}
