// SPDX-License-Identifier: MIT
/*
 * curl-api.c - libcurl loaded with dlopen() the first time the Redfish
 * client needs it, its functions resolved into one table (curl-api.h).
 *
 * libraidcli does not link libcurl: linked, it and the libraries it needs
 * were mapped and relocated by every raidcli process, half the page faults
 * of a `raidcli show` that never talks to a BMC. Loaded here, they cost
 * only the commands that do; and without libcurl installed, the other
 * backends still work and a Redfish command fails saying what to install.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "redfish/curl-api.h"

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct rcl_redfish_curl api;
static const struct rcl_redfish_curl *loaded; /* &api once every function resolved and started */
static char why[RCL_ERROR_MSG_MAX / 2];       /* else why not */

/* @name in @lib; NULL, the loader's reason in why, once a symbol is missing. */
static void *sym(void *lib, const char *name)
{
	const char *e;
	void *p;

	if (why[0])
		return NULL;
	dlerror();
	p = dlsym(lib, name);
	if (!p) {
		e = dlerror();
		snprintf(why, sizeof(why), "%s", e ? e : name);
	}
	return p;
}

/* Field @f of the table from libcurl's "curl_@f", typed as the field is. */
#define RESOLVE(lib, f) (api.f = (__typeof__(api.f))sym(lib, "curl_" #f))

static void resolve(void *lib)
{
	RESOLVE(lib, global_init);
	RESOLVE(lib, version_info);
	RESOLVE(lib, free);
	RESOLVE(lib, easy_init);
	RESOLVE(lib, easy_setopt);
	RESOLVE(lib, easy_getinfo);
	RESOLVE(lib, easy_header);
	RESOLVE(lib, easy_strerror);
	RESOLVE(lib, easy_cleanup);
	RESOLVE(lib, slist_append);
	RESOLVE(lib, slist_free_all);
	RESOLVE(lib, share_init);
	RESOLVE(lib, share_setopt);
	RESOLVE(lib, share_cleanup);
	RESOLVE(lib, multi_init);
	RESOLVE(lib, multi_setopt);
	RESOLVE(lib, multi_add_handle);
	RESOLVE(lib, multi_remove_handle);
	RESOLVE(lib, multi_socket_action);
	RESOLVE(lib, multi_info_read);
	RESOLVE(lib, multi_cleanup);
	RESOLVE(lib, url);
	RESOLVE(lib, url_set);
	RESOLVE(lib, url_get);
	RESOLVE(lib, url_cleanup);
}

static void load(void)
{
	/* Never closed: its functions and global state serve the whole process. */
	void *lib = dlopen(RCL_REDFISH_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
	CURLcode code;

	if (!lib) {
		const char *e = dlerror();

		snprintf(why, sizeof(why), "%s", e ? e : "dlopen() failed");
		return;
	}
	resolve(lib);
	if (why[0]) {
		dlclose(lib);
		return;
	}
	code = api.global_init(CURL_GLOBAL_DEFAULT);
	if (code != CURLE_OK) {
		snprintf(why, sizeof(why), "it does not start: %s", api.easy_strerror(code));
		return;
	}
	loaded = &api;
}

enum rcl_status rcl_redfish_curl_load(struct rcl_error *err)
{
	pthread_once(&load_once, load);
	if (!loaded)
		return rcl_fail(
		    err, RCL_SYSTEM,
		    "Redfish needs " RCL_REDFISH_CURL_SONAME " (Debian package libcurl4): %s", why);
	return RCL_OK;
}

const struct rcl_redfish_curl *rcl_redfish_curl(void)
{
	return loaded;
}
