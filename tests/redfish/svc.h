/* SPDX-License-Identifier: MIT */
/*
 * svc.h - the Check tests' handle on tests/redfish/service.py (svc.c):
 * one running service, its control endpoint (faults, resets, what each
 * host served), and clients of its hosts. A failure is a Check failure.
 */
#ifndef RCL_TESTS_REDFISH_SVC_H
#define RCL_TESTS_REDFISH_SVC_H

#include <sys/types.h>

#include <json-c/json.h>

#include "redfish/http.h"

/* The password every service started here has, from its 0600 file. */
#define SVC_SECRET "Zq7-test-secret-41"

/* One running service.py: its directory, process and ready file. */
struct svc {
	char *dir;
	char *password_file;
	pid_t pid;
	json_object *info;
};

/* svc_start() - start service.py with @args (NULL-terminated) into @s. */
void svc_start(struct svc *s, const char *const *args);
/* svc_stop() - stop @s and remove its directory. */
void svc_stop(struct svc *s);
/* svc_info_string() - string @key of the ready file's @obj (borrowed). */
const char *svc_info_string(json_object *obj, const char *key);
/* svc_host_url() - host @i's https URL (borrowed). */
const char *svc_host_url(const struct svc *s, int i);
/* svc_control() - the control endpoint's answer to @path (a POST of @body, or a GET for NULL). */
json_object *svc_control(const struct svc *s, const char *path, const char *body);
/* svc_set() - POST @body to @path of the control endpoint, ignoring the answer. */
void svc_set(const struct svc *s, const char *path, const char *body);
/* svc_count() - how many requests of @method host @i has served. */
int svc_count(const struct svc *s, int i, const char *method);
/* svc_sessions() - how many sessions host @i has open. */
int svc_sessions(const struct svc *s, int i);
/* svc_client() - a client of host @i, the password from its file; @o's other fields as given. */
struct rcl_redfish_client *svc_client(const struct svc *s, int i, struct rcl_redfish_opts o);
/* svc_reset() - host @i back to its tree, its faults cleared. */
void svc_reset(const struct svc *s, int i);
/* svc_faults() - set host @i's faults from JSON @json. */
void svc_faults(const struct svc *s, int i, const char *json);

#endif /* RCL_TESTS_REDFISH_SVC_H */
