/* SPDX-License-Identifier: MIT */
/*
 * curl-api.h - libcurl, loaded on first use: the Redfish client calls
 * libcurl only through the table here, so a raidcli that never talks to a
 * BMC never maps libcurl and the thirty-odd libraries it needs (TLS,
 * Kerberos, LDAP, SSH...), each of which costs every command page faults.
 * Nothing outside lib/redfish/ includes it.
 */
#ifndef RCL_REDFISH_CURL_API_H
#define RCL_REDFISH_CURL_API_H

#include <curl/curl.h>

#include "raidcli.h"

/* The soname loaded: libcurl's ABI 4, whatever TLS library it was built with. */
#define RCL_REDFISH_CURL_SONAME "libcurl.so.4"

/*
 * struct rcl_redfish_curl - the libcurl functions lib/redfish/ calls, each
 * named as libcurl names it without "curl_" and typed from libcurl's own
 * declaration (so a prototype that does not match is a compile error).
 * easy_setopt, easy_getinfo, multi_setopt and share_setopt are variadic,
 * as libcurl's are: pass the same types a direct call would (long, not
 * int; curl_off_t where the option says so); libcurl's compile-time type
 * checks of those calls (typecheck-gcc.h) do not reach calls through here.
 */
struct rcl_redfish_curl {
	__typeof__(curl_global_init) *global_init;
	__typeof__(curl_version_info) *version_info;
	__typeof__(curl_free) *free;

	__typeof__(curl_easy_init) *easy_init;
	__typeof__(curl_easy_setopt) *easy_setopt;
	__typeof__(curl_easy_getinfo) *easy_getinfo;
	__typeof__(curl_easy_header) *easy_header;
	__typeof__(curl_easy_strerror) *easy_strerror;
	__typeof__(curl_easy_cleanup) *easy_cleanup;
	__typeof__(curl_slist_append) *slist_append;
	__typeof__(curl_slist_free_all) *slist_free_all;

	__typeof__(curl_share_init) *share_init;
	__typeof__(curl_share_setopt) *share_setopt;
	__typeof__(curl_share_cleanup) *share_cleanup;

	__typeof__(curl_multi_init) *multi_init;
	__typeof__(curl_multi_setopt) *multi_setopt;
	__typeof__(curl_multi_add_handle) *multi_add_handle;
	__typeof__(curl_multi_remove_handle) *multi_remove_handle;
	__typeof__(curl_multi_socket_action) *multi_socket_action;
	__typeof__(curl_multi_info_read) *multi_info_read;
	__typeof__(curl_multi_cleanup) *multi_cleanup;

	__typeof__(curl_url) *url;
	__typeof__(curl_url_set) *url_set;
	__typeof__(curl_url_get) *url_get;
	__typeof__(curl_url_cleanup) *url_cleanup;
};

/**
 * rcl_redfish_curl_load() - load libcurl (dlopen() of libcurl.so.4),
 * resolve every function of struct rcl_redfish_curl and start it
 * (curl_global_init()), the first time any thread calls; later calls
 * return what the first found. Every entry point of the Redfish client
 * that reaches libcurl first (a client, a run, a URL) calls it.
 * Return: RCL_OK, and rcl_redfish_curl() holds the table for the life of
 * the process; RCL_SYSTEM when libcurl is not installed, lacks a function
 * or does not start, the message naming libcurl.so.4 and the reason.
 */
enum rcl_status rcl_redfish_curl_load(struct rcl_error *err);

/**
 * rcl_redfish_curl() - libcurl's functions, for code that runs only once
 * rcl_redfish_curl_load() succeeded: on a client, a run or a transfer.
 * Return: the table; NULL before a successful load.
 */
const struct rcl_redfish_curl *rcl_redfish_curl(void);

#endif /* RCL_REDFISH_CURL_API_H */
