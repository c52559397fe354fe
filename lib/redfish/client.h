/* SPDX-License-Identifier: MIT */
/*
 * client.h - what http.c, fleet.c and session.c share about a client and
 * its transfers; nothing outside lib/redfish/ includes it.
 */
#ifndef RCL_REDFISH_CLIENT_H
#define RCL_REDFISH_CLIENT_H

#include <stdint.h>

#include <curl/curl.h>

#include "http.h"

/*
 * Where a client stands with its host. NEW: nothing asked yet; CONNECTING:
 * reading the service root or logging in, calls wait; READY: calls run;
 * FAILED: the host did not connect or answer in time (or refused the
 * login), and every later call fails with @failure.
 */
enum rcl_redfish_state {
	RCL_REDFISH_NEW,
	RCL_REDFISH_CONNECTING,
	RCL_REDFISH_READY,
	RCL_REDFISH_FAILED,
};

struct rcl_redfish_client {
	char *origin; /* "https://host:port", what every URL must start with */
	char *host;   /* "host:port", for messages */
	char *user;
	char *password; /* wiped when freed */
	char *ca_file;
	bool insecure;
	long connect_timeout_ms, timeout_ms;
	size_t max_response;
	unsigned retries;
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
	CURLSH *share; /* connections, TLS sessions and names, kept across runs */

	enum rcl_redfish_state state;
	struct rcl_error failure;
	json_object *root;  /* the service root, once read */
	char *sessions_uri; /* where to log in; NULL: Basic authentication */
	char *token;        /* X-Auth-Token of the open session, wiped when freed */
	char *session_uri;  /* the session to DELETE when done */
	unsigned token_gen; /* counts logins: a 401 on an older token needs none */
	unsigned active;    /* transfers under way in the current run */
	bool connected;     /* the last transfer left @share a connection to reuse */
};

/*
 * struct rcl_redfish_xfer - one HTTP exchange on the wire: an easy handle
 * set up for one URL, what came back, and the error text libcurl wrote.
 */
struct rcl_redfish_xfer {
	CURL *easy;
	struct curl_slist *headers;
	struct rcl_buf data;
	size_t max;
	bool too_big;
	char errbuf[CURL_ERROR_SIZE];
};

/* rcl_redfish_now_ms() - the monotonic clock in ms, for deadlines. */
uint64_t rcl_redfish_now_ms(void);

/*
 * rcl_redfish_xfer_setup() - make @x a @method request to @url (checked to be
 * on @client's host) with @body and @if_match, authenticated as @client is
 * now (session token, Basic, or nothing when @anonymous), ending by
 * @timeout_ms. Return: RCL_OK, RCL_NOMEM.
 */
enum rcl_status rcl_redfish_xfer_setup(struct rcl_redfish_xfer *x,
                                       const struct rcl_redfish_client *client,
                                       enum rcl_redfish_method method, const char *url,
                                       const char *body, const char *if_match, bool anonymous,
                                       long timeout_ms, struct rcl_error *err);
/* rcl_redfish_xfer_header() - header @name of @x's answer, a new string in *@out or NULL. */
bool rcl_redfish_xfer_header(struct rcl_redfish_xfer *x, const char *name, char **out);
/*
 * rcl_redfish_xfer_kept() - whether @x, which ended with @code, left its
 * connection open for the next request: not after a transport error, nor
 * after an answer with "Connection: close".
 */
bool rcl_redfish_xfer_kept(struct rcl_redfish_xfer *x, CURLcode code);
/* rcl_redfish_xfer_release() - free @x's handle, headers and data. */
void rcl_redfish_xfer_release(struct rcl_redfish_xfer *x);

/*
 * rcl_redfish_xfer_decode() - the outcome of @x, which ended with @code: on
 * a transport error, the error (naming @method, @path and the host); else
 * @resp (released first) with status, headers and the JSON body. A 2xx
 * answer whose body is not a JSON object is an error; an error answer's
 * body is kept when it parses. Return: RCL_OK when an answer arrived, of
 * whatever status, and it decoded.
 */
enum rcl_status rcl_redfish_xfer_decode(struct rcl_redfish_xfer *x, CURLcode code,
                                        const struct rcl_redfish_client *client,
                                        enum rcl_redfish_method method, const char *path,
                                        struct rcl_redfish_response *resp, struct rcl_error *err);

/* rcl_redfish_client_fail() - give up @client's host for @why. */
void rcl_redfish_client_fail(struct rcl_redfish_client *client, const struct rcl_error *why);

/* session.c: the steps of logging in, run by fleet.c. */

/*
 * rcl_redfish_session_root() - take the service root's answer: where to log
 * in, or that Basic authentication is all there is (the client is READY).
 * Return: RCL_OK; else the client has failed with that error.
 */
enum rcl_status rcl_redfish_session_root(struct rcl_redfish_client *client,
                                         struct rcl_redfish_response *resp,
                                         const struct rcl_error *outcome);
/*
 * rcl_redfish_session_body() - the JSON body of a login, a new string the
 * caller wipes and frees with rcl_redfish_secret_free(). NULL on OOM.
 */
char *rcl_redfish_session_body(const struct rcl_redfish_client *client);
/*
 * rcl_redfish_session_login() - take a login's answer: the token and the
 * session to delete (the client is READY). Return: RCL_OK; else the client
 * has failed with that error.
 */
enum rcl_status rcl_redfish_session_login(struct rcl_redfish_client *client,
                                          struct rcl_redfish_xfer *x,
                                          const struct rcl_redfish_response *resp,
                                          const struct rcl_error *outcome);

#endif /* RCL_REDFISH_CLIENT_H */
