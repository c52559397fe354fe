// SPDX-License-Identifier: MIT
/*
 * svc.c - the Check tests' handle on tests/redfish/service.py: start and
 * stop it, ask its control endpoint, and make clients of its hosts.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curl/curl.h>

#include "redfish/credential.h"
#include "svc.h"
#include "unit.h"

/* The password goes to a 0600 file the service reads; the TLS files to its directory. */
void svc_start(struct svc *s, const char *const *args)
{
	char *ready, *tls, *script;
	const char *argv[32];
	int n = 0;

	s->dir = s->dir ? s->dir : unit_tmpdir();
	s->password_file = unit_path(s->dir, "bmc.pw");
	unit_write(s->password_file, SVC_SECRET "\n");
	ck_assert_int_eq(chmod(s->password_file, 0600), 0);
	ready = unit_path(s->dir, "ready.json");
	tls = unit_path(s->dir, "tls");
	script = unit_path(getenv("SOURCE_ROOT"), "tests/redfish/service.py");
	argv[n++] = "python3";
	argv[n++] = script;
	argv[n++] = "--quiet";
	argv[n++] = "--tls-dir";
	argv[n++] = tls;
	argv[n++] = "--ready-file";
	argv[n++] = ready;
	argv[n++] = "--password-file";
	argv[n++] = s->password_file;
	while (*args)
		argv[n++] = *args++;
	argv[n] = NULL;
	s->pid = fork();
	if (s->pid == 0) {
		execvp("python3", (char *const *)argv);
		_exit(127);
	}
	/* The machine may be busy: wait for up to two minutes. */
	for (int i = 0; i < 1200 && !unit_exists(ready); i++) {
		ck_assert_int_eq(waitpid(s->pid, NULL, WNOHANG), 0);
		usleep(100000);
	}
	s->info = json_object_from_file(ready);
	ck_assert_ptr_nonnull(s->info);
	free(ready);
	free(tls);
	free(script);
}

void svc_stop(struct svc *s)
{
	kill(s->pid, SIGTERM);
	waitpid(s->pid, NULL, 0);
	json_object_put(s->info);
	unit_rmrf(s->dir);
	free(s->dir);
	free(s->password_file);
}

const char *svc_info_string(json_object *obj, const char *key)
{
	json_object *v;

	ck_assert(json_object_object_get_ex(obj, key, &v));
	return json_object_get_string(v);
}

const char *svc_host_url(const struct svc *s, int i)
{
	json_object *hosts;

	ck_assert(json_object_object_get_ex(s->info, "hosts", &hosts));
	return svc_info_string(json_object_array_get_idx(hosts, (size_t)i), "url");
}

static size_t on_control_data(char *data, size_t size, size_t n, void *arg)
{
	rcl_buf_add(arg, data, size * n);
	return size * n;
}

/* The control endpoint's answer to @method @path with @body (NULL: none); put it. */
json_object *svc_control(const struct svc *s, const char *path, const char *body)
{
	struct rcl_buf out = RCL_BUF_INIT, url = RCL_BUF_INIT;
	CURL *e = curl_easy_init();
	json_object *obj;

	rcl_buf_addf(&url, "%s%s", svc_info_string(s->info, "control"), path);
	curl_easy_setopt(e, CURLOPT_URL, url.buf);
	if (body)
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_control_data);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &out);
	ck_assert_int_eq(curl_easy_perform(e), CURLE_OK);
	curl_easy_cleanup(e);
	obj = json_tokener_parse(out.buf);
	ck_assert_ptr_nonnull(obj);
	rcl_buf_release(&out);
	rcl_buf_release(&url);
	return obj;
}

/* POST @body to @path of the control endpoint, ignoring the answer. */
void svc_set(const struct svc *s, const char *path, const char *body)
{
	json_object_put(svc_control(s, path, body));
}

/* How many requests of @method host @i of @s has served. */
int svc_count(const struct svc *s, int i, const char *method)
{
	char path[64];
	json_object *h, *counts, *v;
	int n = 0;

	snprintf(path, sizeof(path), "/hosts/%d", i);
	h = svc_control(s, path, NULL);
	ck_assert(json_object_object_get_ex(h, "counts", &counts));
	if (json_object_object_get_ex(counts, method, &v))
		n = json_object_get_int(v);
	json_object_put(h);
	return n;
}

int svc_sessions(const struct svc *s, int i)
{
	char path[64];
	json_object *h, *v;
	int n;

	snprintf(path, sizeof(path), "/hosts/%d", i);
	h = svc_control(s, path, NULL);
	ck_assert(json_object_object_get_ex(h, "sessions", &v));
	n = json_object_get_int(v);
	json_object_put(h);
	return n;
}

/* A client of host @i of @s, the password from its 0600 file; @o's other fields as given. */
struct rcl_redfish_client *svc_client(const struct svc *s, int i, struct rcl_redfish_opts o)
{
	struct rcl_redfish_client *c = NULL;
	struct rcl_error err = {0};
	char *pw = NULL;
	json_object *user;

	ck_assert_int_eq(rcl_redfish_password_load(s->password_file, NULL, &pw, &err), RCL_OK);
	ck_assert(json_object_object_get_ex(s->info, "user", &user));
	o.url = svc_host_url(s, i);
	o.user = json_object_get_string(user);
	o.password = pw;
	if (!o.ca_file && !o.insecure)
		o.ca_file = svc_info_string(s->info, "ca");
	ck_assert_int_eq(rcl_redfish_client_new(&o, &c, &err), RCL_OK);
	rcl_redfish_secret_free(pw);
	return c;
}

void svc_reset(const struct svc *s, int i)
{
	char path[64];

	snprintf(path, sizeof(path), "/hosts/%d/reset", i);
	svc_set(s, path, "{}");
}

void svc_faults(const struct svc *s, int i, const char *json)
{
	char path[64];

	snprintf(path, sizeof(path), "/hosts/%d/faults", i);
	svc_set(s, path, json);
}
