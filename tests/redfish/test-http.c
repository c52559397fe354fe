// SPDX-License-Identifier: MIT
/*
 * test-http.c - the Redfish HTTP client against tests/redfish/service.py,
 * the test service on loopback with TLS from a CA made at test time:
 * sessions and their end, a 401 in the middle of a run, TLS checks,
 * dead hosts, oversized and malformed answers, the service's error
 * messages, 202 tasks, ETags, a fleet with dead hosts, and the password
 * kept out of everything but its own file.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "redfish/action.h"
#include "redfish/client.h"
#include "redfish/credential.h"
#include "redfish/json.h"
#include "redfish/session.h"
#include "svc.h"
#include "unit.h"

#define SECRET SVC_SECRET

static struct svc idrac, modern, fleet, basic;

/* @key ("hung_now", "hung_peak") of @s's connections held by dead hosts. */
static int hung(const struct svc *s, const char *key)
{
	json_object *stats, *v;
	int n;

	stats = svc_control(s, "/stats", NULL);
	ck_assert(json_object_object_get_ex(stats, key, &v));
	n = json_object_get_int(v);
	json_object_put(stats);
	return n;
}
static unsigned warnings;

static void count_warning(void *arg, const char *msg)
{
	(void)arg;
	ck_assert(strstr(msg, "verification is off"));
	ck_assert(!strstr(msg, SECRET));
	warnings++;
}

#define SYSTEMS "/redfish/v1/Systems"

START_TEST(test_session_opened_used_and_deleted)
{
	struct rcl_redfish_client *c = svc_client(&idrac, 0, (struct rcl_redfish_opts){0});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};
	json_object *members;

	svc_reset(&idrac, 0);
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_OK);
	ck_assert_int_eq(resp.status, 200);
	ck_assert_int_eq(rcl_redfish_member(resp.body, "Members", json_type_array, false, SYSTEMS,
	                                    &members, &err),
	                 RCL_OK);
	ck_assert_int_eq(rcl_redfish_get(c, "/redfish/v1/Chassis", &resp, &err), RCL_OK);
	ck_assert(!rcl_redfish_client_basic(c));
	ck_assert_ptr_nonnull(rcl_redfish_client_root(c));
	ck_assert_int_eq(svc_sessions(&idrac, 0), 1);
	ck_assert_int_eq(svc_count(&idrac, 0, "POST"), 1); /* one login for both */
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
	ck_assert_int_eq(svc_sessions(&idrac, 0), 0);
	ck_assert_int_eq(svc_count(&idrac, 0, "DELETE"), 1);
}
END_TEST

START_TEST(test_expired_session_logs_in_again_once)
{
	struct rcl_redfish_client *c = svc_client(&idrac, 1, (struct rcl_redfish_opts){0});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&idrac, 1);
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_OK);
	svc_set(&idrac, "/hosts/1/expire-sessions", "{}");
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_OK);
	ck_assert_int_eq(resp.status, 200);
	ck_assert_int_eq(svc_count(&idrac, 1, "POST"), 2);
	/* a session that dies at once every time: one more login, then the 401 is reported */
	svc_faults(&idrac, 1, "{\"session_expire_after\": 0}");
	svc_set(&idrac, "/hosts/1/expire-sessions", "{}");
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_NOT_ALLOWED);
	ck_assert_msg(strstr(err.msg, "(401 Unauthorized)"), "%s", err.msg);
	ck_assert_int_eq(svc_count(&idrac, 1, "POST"), 3);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_untrusted_certificate_refused)
{
	/* the system's CAs do not know the test CA */
	struct rcl_redfish_client *c = svc_client(
	    &idrac, 2, (struct rcl_redfish_opts){.ca_file = "/etc/ssl/certs/ca-certificates.crt"});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&idrac, 2);
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_UNREACHABLE);
	ck_assert_msg(strstr(err.msg, "is not trusted"), "%s", err.msg);
	ck_assert_int_eq(svc_count(&idrac, 2, "GET") + svc_count(&idrac, 2, "POST"), 0);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_insecure_works_and_warns_at_every_login)
{
	struct rcl_redfish_client *c = svc_client(
	    &idrac, 2, (struct rcl_redfish_opts){.insecure = true, .warn = count_warning});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&idrac, 2);
	warnings = 0;
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_OK);
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_OK);
	ck_assert_uint_eq(warnings, 1);
	ck_assert_int_eq(rcl_redfish_logout(&c, 1, NULL, &err), RCL_OK);
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_OK);
	ck_assert_uint_eq(warnings, 2);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_hanging_host_costs_its_timeout)
{
	struct rcl_redfish_client *c =
	    svc_client(&idrac, 3, (struct rcl_redfish_opts){.timeout_ms = 1000});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&idrac, 3);
	svc_faults(&idrac, 3, "{\"dead\": \"stall\"}");
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_UNREACHABLE);
	ck_assert_msg(strstr(err.msg, "did not answer"), "%s", err.msg);
	ck_assert_ptr_nonnull(rcl_redfish_client_failure(c));
	svc_faults(&idrac, 3, "{\"dead\": null}");
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_huge_answer_cut_off)
{
	struct rcl_redfish_client *c =
	    svc_client(&idrac, 4, (struct rcl_redfish_opts){.max_response = 1 << 20});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&idrac, 4);
	svc_faults(&idrac, 4, "{\"huge\": [\"/redfish/v1/Systems\"], \"huge_bytes\": 1073741824}");
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_BAD_REPLY);
	ck_assert_msg(strstr(err.msg, "is larger than raidcli accepts (1048576 bytes)"), "%s",
	              err.msg);
	/* only that answer was too large: the host still serves */
	ck_assert_int_eq(rcl_redfish_get(c, "/redfish/v1/Chassis", &resp, &err), RCL_OK);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_malformed_and_mistyped_answers)
{
	struct rcl_redfish_client *c = svc_client(&idrac, 5, (struct rcl_redfish_opts){0});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};
	json_object *members;

	svc_reset(&idrac, 5);
	svc_faults(&idrac, 5, "{\"malformed\": [\"/redfish/v1/Systems\"]}");
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_BAD_REPLY);
	ck_assert_msg(strstr(err.msg, "malformed JSON in the answer to GET '/redfish/v1/Systems'"),
	              "%s", err.msg);
	svc_faults(&idrac, 5, "{\"malformed\": null, \"wrong_types\": [\"/redfish/v1/Systems\"]}");
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_OK);
	ck_assert_int_eq(rcl_redfish_member(resp.body, "Members", json_type_array, false, SYSTEMS,
	                                    &members, &err),
	                 RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "'Members' of '/redfish/v1/Systems' is an object, not an array");
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

#define VOLUMES "/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1/Volumes"
#define BAY(n)                                                                                     \
	"{\"@odata.id\": \"/redfish/v1/Systems/System.Embedded.1/Storage/RAID.Integrated.1-1/"     \
	"Drives/Disk.Bay." #n ":Enclosure.Internal.0-1:RAID.Integrated.1-1\"}"

START_TEST(test_refusal_shows_extended_info)
{
	struct rcl_redfish_client *c = svc_client(&idrac, 6, (struct rcl_redfish_opts){0});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&idrac, 6);
	/* RAID5 on one drive: the service's own refusal */
	ck_assert_int_ne(
	    rcl_redfish_submit(c, RCL_REDFISH_POST, VOLUMES,
	                       "{\"RAIDType\": \"RAID5\", \"Links\": {\"Drives\": [" BAY(6) "]}}",
	                       NULL, NULL, &resp, &err),
	    RCL_OK);
	ck_assert_int_eq(resp.status, 400);
	ck_assert_msg(strstr(err.msg, "(400 Bad Request): "), "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "(Base.1.18."), "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "Resolution: "), "%s", err.msg);
	svc_faults(
	    &idrac, 6,
	    "{\"errors\": [{\"method\": \"GET\", \"path\": \"/redfish/v1/Chassis\", \"status\": "
	    "503, \"message_id\": \"IDRAC.2.8.SYS446\", \"message\": \"Lifecycle busy.\", "
	    "\"resolution\": \"Wait.\"}]}");
	ck_assert_int_eq(rcl_redfish_get(c, "/redfish/v1/Chassis", &resp, &err), RCL_UNREACHABLE);
	ck_assert_msg(strstr(err.msg, "(503 Service Unavailable): Lifecycle busy. "
	                              "(IDRAC.2.8.SYS446) Resolution: Wait."),
	              "%s", err.msg);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_task_followed_to_its_end)
{
	struct rcl_redfish_client *c = svc_client(&idrac, 7, (struct rcl_redfish_opts){0});
	struct rcl_redfish_poll poll = {.interval_ms = 20};
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&idrac, 7);
	svc_faults(&idrac, 7, "{\"task_polls\": 3}");
	ck_assert_int_eq(
	    rcl_redfish_submit(c, RCL_REDFISH_POST, VOLUMES,
	                       "{\"RAIDType\": \"RAID0\", \"Links\": {\"Drives\": [" BAY(6) "]}}",
	                       NULL, &poll, &resp, &err),
	    RCL_OK);
	ck_assert_int_eq(resp.status == 201 || resp.status == 204, 1);
	ck_assert_ptr_nonnull(resp.location);
	ck_assert(strstr(resp.location, "/Volumes/"));
	/* the monitor was polled until the task was over: the volume is there */
	ck_assert_int_eq(rcl_redfish_get(c, resp.location, &resp, &err), RCL_OK);
	/* a task that does not end within the bound */
	svc_faults(&idrac, 7, "{\"task_polls\": 100000}");
	poll.max_ms = 300;
	ck_assert_int_eq(
	    rcl_redfish_submit(c, RCL_REDFISH_POST, VOLUMES,
	                       "{\"RAIDType\": \"RAID0\", \"Links\": {\"Drives\": [" BAY(7) "]}}",
	                       NULL, &poll, &resp, &err),
	    RCL_BUSY);
	ck_assert_msg(strstr(err.msg, "still runs after"), "%s", err.msg);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

#define VOLUME1 "/redfish/v1/Systems/1/Storage/1/Volumes/1"

START_TEST(test_patch_with_stale_etag_refused)
{
	struct rcl_redfish_client *c = svc_client(&modern, 0, (struct rcl_redfish_opts){0});
	struct rcl_redfish_response first = {.retry_after = -1}, resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&modern, 0);
	ck_assert_int_eq(rcl_redfish_get(c, VOLUME1, &first, &err), RCL_OK);
	ck_assert_ptr_nonnull(first.etag);
	ck_assert_int_eq(rcl_redfish_patch(c, VOLUME1, first.etag, "{\"DisplayName\": \"one\"}",
	                                   NULL, &resp, &err),
	                 RCL_OK);
	/* the volume changed since "first" was read */
	ck_assert_int_eq(rcl_redfish_patch(c, VOLUME1, first.etag, "{\"DisplayName\": \"two\"}",
	                                   NULL, &resp, &err),
	                 RCL_BUSY);
	ck_assert_int_eq(resp.status, 412);
	ck_assert_msg(strstr(err.msg, "(412 Precondition Failed): "), "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "PreconditionFailed"), "%s", err.msg);
	/* no ETag given: the client reads the current one */
	ck_assert_int_eq(
	    rcl_redfish_patch(c, VOLUME1, NULL, "{\"DisplayName\": \"two\"}", NULL, &resp, &err),
	    RCL_OK);
	rcl_redfish_response_release(&first);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

#define MODERN_VOLUMES "/redfish/v1/Systems/1/Storage/1/Volumes"
#define MODERN_CREATE(n)                                                                           \
	"{\"RAIDType\": \"RAID0\", \"Links\": {\"Drives\": [{\"@odata.id\": "                      \
	"\"/redfish/v1/Chassis/1/Drives/" #n "\"}]}}"

/* A create answered at once: 201 with the volume, or 204 with only its Location. */
START_TEST(test_create_answered_at_once)
{
	struct rcl_redfish_client *c = svc_client(&modern, 0, (struct rcl_redfish_opts){0});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&modern, 0);
	ck_assert_int_eq(rcl_redfish_submit(c, RCL_REDFISH_POST, MODERN_VOLUMES, MODERN_CREATE(7),
	                                    NULL, NULL, &resp, &err),
	                 RCL_OK);
	ck_assert_int_eq(resp.status, 201);
	ck_assert_ptr_nonnull(resp.body);
	ck_assert_ptr_nonnull(resp.location);
	svc_faults(&modern, 0, "{\"responses\": {\"create\": 204}}");
	ck_assert_int_eq(rcl_redfish_submit(c, RCL_REDFISH_POST, MODERN_VOLUMES, MODERN_CREATE(8),
	                                    NULL, NULL, &resp, &err),
	                 RCL_OK);
	ck_assert_int_eq(resp.status, 204);
	ck_assert_ptr_null(resp.body);
	ck_assert_ptr_nonnull(resp.location);
	ck_assert_int_eq(rcl_redfish_get(c, resp.location, &resp, &err), RCL_OK);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

/*
 * A fleet of 200 hosts answering in 20-50 ms, 6 of them dead (TCP accepted,
 * TLS never answered): all asked at once, the live ones answer and the dead
 * ones fail with their timeout. That the client waited on the dead hosts
 * together, not one after the other, the service tells: the most
 * connections its dead hosts held open at once. The dead ones are among
 * the first 64 (the client's connection limit), so they all start at
 * once however slow the machine. (How long the fleet takes is bench/'s to
 * measure, not a test's.) The dead hosts' timeout is short, to keep the
 * test short; the live ones' is long, as no live host is to reach it:
 * under ASan on a loaded machine one's TLS handshake and answer, queued
 * behind the first 64, took over 2 s.
 */
static bool fleet_host_dead(int i)
{
	static const int dead[] = {3, 13, 23, 33, 43, 53};

	for (size_t d = 0; d < sizeof(dead) / sizeof(dead[0]); d++)
		if (dead[d] == i)
			return true;
	return false;
}

START_TEST(test_fleet_with_dead_hosts)
{
	enum { HOSTS = 200, DEAD_TIMEOUT_MS = 2000, LIVE_TIMEOUT_MS = 60000 };
	struct rcl_redfish_client **c = calloc(HOSTS, sizeof(*c));
	struct rcl_redfish_call *calls = calloc(HOSTS, sizeof(*calls));
	struct rcl_error err = {0};
	unsigned failed = 0;

	for (int i = 0; i < HOSTS; i++) {
		int timeout_ms = fleet_host_dead(i) ? DEAD_TIMEOUT_MS : LIVE_TIMEOUT_MS;

		c[i] = svc_client(&fleet, i, (struct rcl_redfish_opts){.timeout_ms = timeout_ms});
		calls[i] = (struct rcl_redfish_call){.client = c[i], .path = SYSTEMS};
	}
	svc_set(&fleet, "/stats/reset", "{}");
	ck_assert_int_eq(hung(&fleet, "hung_now"), 0);
	ck_assert_int_eq(rcl_redfish_run(calls, HOSTS, NULL, &err), RCL_OK);
	ck_assert_int_ge(hung(&fleet, "hung_peak"), 6);
	for (int i = 0; i < HOSTS; i++) {
		bool is_dead = fleet_host_dead(i);

		ck_assert_msg(calls[i].err.status == (is_dead ? RCL_UNREACHABLE : RCL_OK),
		              "host %d: %s", i, calls[i].err.msg);
		failed += calls[i].err.status != RCL_OK;
		if (is_dead)
			ck_assert_msg(strstr(calls[i].err.msg, "did not answer"), "%s",
			              calls[i].err.msg);
		rcl_redfish_response_release(&calls[i].resp);
	}
	ck_assert_uint_eq(failed, 6);
	ck_assert_int_eq(rcl_redfish_logout(c, HOSTS, NULL, &err), RCL_OK);
	for (int i = 0; i < HOSTS; i++)
		rcl_redfish_client_free(c[i]);
	ck_assert_int_eq(svc_sessions(&fleet, 0), 0);
	free(c);
	free(calls);
}
END_TEST

/* Whether this process's argv (all of it: NUL-separated) holds SECRET. */
static bool secret_in_cmdline(void)
{
	char buf[65536];
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return memmem(buf, n, SECRET, strlen(SECRET)) != NULL;
}

/* Whether any regular file under @dir but @except holds SECRET. */
static bool secret_in_files(const char *dir, const char *except)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char *path, *text;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = unit_path(dir, e->d_name);
		if (e->d_type == DT_DIR)
			found = secret_in_files(path, except);
		else if (strcmp(path, except) && (text = unit_read(path))) {
			found = strstr(text, SECRET) != NULL;
			free(text);
		}
		free(path);
	}
	closedir(d);
	return found;
}

/*
 * The password goes from its 0600 file into the login's body and nowhere
 * else: not argv, not a message or warning, not a URL the service saw, not
 * a file (the state directory and $TMPDIR, where a client could write).
 */
START_TEST(test_secret_stays_in_its_file)
{
	struct rcl_redfish_client *c = svc_client(&idrac, 6, (struct rcl_redfish_opts){0});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct unit_state st;
	struct rcl_error err = {0};
	json_object *h;

	unit_state_enter(&st, NULL);
	svc_reset(&idrac, 6);
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_OK);
	svc_set(&idrac, "/hosts/6/expire-sessions", "{}");
	ck_assert_int_eq(rcl_redfish_get(c, "/redfish/v1/Nowhere", &resp, &err), RCL_NOT_FOUND);
	ck_assert(!strstr(err.msg, SECRET));
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
	ck_assert(!secret_in_cmdline());
	h = svc_control(&idrac, "/hosts/6", NULL);
	ck_assert(!strstr(json_object_to_json_string(h), SECRET));
	ck_assert(strstr(json_object_to_json_string(h), "SessionService"));
	json_object_put(h);
	ck_assert(!secret_in_files(st.root, idrac.password_file));
	unit_state_leave(&st);
}
END_TEST

/* A service root without SessionService: every request carries Basic credentials. */
START_TEST(test_basic_without_session_service)
{
	struct rcl_redfish_client *c = svc_client(&basic, 0, (struct rcl_redfish_opts){0});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_OK);
	ck_assert_int_eq(rcl_redfish_get(c, "/redfish/v1/Chassis", &resp, &err), RCL_OK);
	ck_assert(rcl_redfish_client_basic(c));
	ck_assert_int_eq(svc_count(&basic, 0, "POST"), 0);
	ck_assert_int_eq(svc_sessions(&basic, 0), 0);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_basic_wrong_password_refused)
{
	struct rcl_redfish_opts o = {.url = svc_host_url(&basic, 0),
	                             .user = "root",
	                             .password = "wrong",
	                             .ca_file = svc_info_string(basic.info, "ca")};
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_redfish_client *c = NULL;
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_redfish_client_new(&o, &c, &err), RCL_OK);
	ck_assert_int_eq(rcl_redfish_get(c, SYSTEMS, &resp, &err), RCL_NOT_ALLOWED);
	ck_assert_msg(strstr(err.msg, "(401 Unauthorized): ") &&
	                  strstr(err.msg, "(Base.1.18.NoValidSession)"),
	              "%s", err.msg);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_redirects_stay_on_the_host)
{
	struct rcl_redfish_client *c = svc_client(&idrac, 4, (struct rcl_redfish_opts){0});
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};
	struct rcl_buf fault = RCL_BUF_INIT;
	const char *id;
	int other_gets;

	svc_reset(&idrac, 4);
	svc_reset(&idrac, 5);
	rcl_buf_addf(
	    &fault,
	    "{\"redirects\": [{\"path\": \"/redfish/v1/Chassis\", \"location\": "
	    "\"/redfish/v1/Systems\", \"status\": 301}, {\"path\": \"/redfish/v1/Managers\", "
	    "\"location\": \"%s/redfish/v1/Managers\"}]}",
	    svc_host_url(&idrac, 5));
	svc_faults(&idrac, 4, fault.buf);
	ck_assert_int_eq(rcl_redfish_get(c, "/redfish/v1/Chassis", &resp, &err), RCL_OK);
	ck_assert_int_eq(rcl_redfish_string(resp.body, "@odata.id", false, "x", &id, &err), RCL_OK);
	ck_assert_str_eq(id, SYSTEMS);
	other_gets = svc_count(&idrac, 5, "GET");
	ck_assert_int_eq(rcl_redfish_get(c, "/redfish/v1/Managers", &resp, &err), RCL_BAD_REPLY);
	ck_assert_msg(strstr(err.msg, "leads away from"), "%s", err.msg);
	ck_assert_int_eq(svc_count(&idrac, 5, "GET"), other_gets);
	rcl_buf_release(&fault);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_failed_task_gives_its_messages)
{
	struct rcl_redfish_client *c = svc_client(&idrac, 7, (struct rcl_redfish_opts){0});
	struct rcl_redfish_poll poll = {.interval_ms = 20};
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&idrac, 7);
	svc_faults(&idrac, 7,
	           "{\"task_polls\": 2, \"task_error\": {\"message_id\": \"IDRAC.2.8.STOR060\", "
	           "\"message\": \"Unable to create the virtual disk.\", \"resolution\": \"Reset "
	           "the configuration.\"}}");
	ck_assert_int_ne(
	    rcl_redfish_submit(c, RCL_REDFISH_POST, VOLUMES,
	                       "{\"RAIDType\": \"RAID0\", \"Links\": {\"Drives\": [" BAY(8) "]}}",
	                       NULL, &poll, &resp, &err),
	    RCL_OK);
	ck_assert_msg(strstr(err.msg, "Unable to create the virtual disk. (IDRAC.2.8.STOR060) "
	                              "Resolution: Reset the configuration."),
	              "%s", err.msg);
	rcl_redfish_response_release(&resp);
	rcl_redfish_client_free(c);
}
END_TEST

/* A BMC that allows one session: each client ends its own, so the next gets one. */
START_TEST(test_sessions_ended_for_the_next_client)
{
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_error err = {0};

	svc_reset(&idrac, 3);
	svc_faults(&idrac, 3, "{\"max_sessions\": 1}");
	for (int i = 0; i < 3; i++) {
		struct rcl_redfish_client *c = svc_client(&idrac, 3, (struct rcl_redfish_opts){0});

		ck_assert_msg(rcl_redfish_get(c, SYSTEMS, &resp, &err) == RCL_OK, "%s", err.msg);
		rcl_redfish_client_free(c);
	}
	ck_assert_int_eq(svc_sessions(&idrac, 3), 0);
	rcl_redfish_response_release(&resp);
}
END_TEST

/*
 * Each of a GET's allocations (login and session end included) failed in
 * turn, once and for good: every run ends in RCL_NOMEM or succeeds, and
 * the next client logs in as if nothing had happened.
 */
START_TEST(test_out_of_memory_at_every_allocation)
{
	struct rcl_redfish_response resp = {.retry_after = -1};
	unsigned long n;

	svc_reset(&idrac, 0);
	for (n = 1; n < 1000; n++) {
		for (int persistent = 0; persistent < 2; persistent++) {
			struct rcl_redfish_client *c =
			    svc_client(&idrac, 0, (struct rcl_redfish_opts){0});
			struct rcl_error err = {0};
			enum rcl_status st;

			rcl_alloc_fail_after(n, persistent);
			st = rcl_redfish_get(c, SYSTEMS, &resp, &err);
			rcl_redfish_response_release(&resp);
			rcl_redfish_client_free(c);
			if (rcl_alloc_fail_after(0, false) < n) {
				ck_assert_int_eq(st, RCL_OK);
				goto done;
			}
			ck_assert_msg(st == RCL_OK || st == RCL_NOMEM, "allocation %lu: %s", n,
			              err.msg);
		}
	}
done:
	printf("oom: redfish GET with login and logout %lu iterations\n", n);
	fflush(stdout);
	ck_assert_uint_gt(n, 5);
	ck_assert_uint_lt(n, 1000);
}
END_TEST

static void idrac_start(void)
{
	static const char *const args[] = {"--tree", "idrac", "--hosts", "8", NULL};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	svc_start(&idrac, args);
}

static void idrac_stop(void)
{
	svc_stop(&idrac);
}

static void modern_start(void)
{
	static const char *const args[] = {"--tree", "modern", NULL};

	svc_start(&modern, args);
}

static void modern_stop(void)
{
	svc_stop(&modern);
}

static void fleet_start(void)
{
	static const char *const args[] = {"--tree",       "modern",           "--hosts",
	                                   "200",          "--delay-ms",       "20-50",
	                                   "--dead-hosts", "3,13,23,33,43,53", NULL};

	svc_start(&fleet, args);
}

static void fleet_stop(void)
{
	svc_stop(&fleet);
}

/* The idrac tree with its service root stripped of sessions, as on a BMC without them. */
static void basic_start(void)
{
	const char *args[] = {"--tree", NULL, NULL};
	json_object *tree, *resources, *root, *links;
	char *src = unit_path(getenv("SOURCE_ROOT"), "tests/redfish/trees/idrac.json"), *dst;

	tree = json_object_from_file(src);
	ck_assert_ptr_nonnull(tree);
	ck_assert(json_object_object_get_ex(tree, "Resources", &resources));
	ck_assert(json_object_object_get_ex(resources, "/redfish/v1/", &root));
	json_object_object_del(root, "SessionService");
	ck_assert(json_object_object_get_ex(root, "Links", &links));
	json_object_object_del(links, "Sessions");
	basic.dir = unit_tmpdir();
	dst = unit_path(basic.dir, "basic.json");
	ck_assert_int_eq(json_object_to_file(dst, tree), 0);
	args[1] = dst;
	svc_start(&basic, args);
	json_object_put(tree);
	free(src);
	free(dst);
}

static void basic_stop(void)
{
	svc_stop(&basic);
}

static Suite *redfish_http_suite(void)
{
	Suite *s = suite_create("redfish-http");
	TCase *tc;

	tc = tcase_create("idrac");
	tcase_add_unchecked_fixture(tc, idrac_start, idrac_stop);
	tcase_set_timeout(tc, 300); /* the OOM loop logs in 72 times */
	tcase_add_test(tc, test_session_opened_used_and_deleted);
	tcase_add_test(tc, test_expired_session_logs_in_again_once);
	tcase_add_test(tc, test_untrusted_certificate_refused);
	tcase_add_test(tc, test_insecure_works_and_warns_at_every_login);
	tcase_add_test(tc, test_hanging_host_costs_its_timeout);
	tcase_add_test(tc, test_huge_answer_cut_off);
	tcase_add_test(tc, test_malformed_and_mistyped_answers);
	tcase_add_test(tc, test_refusal_shows_extended_info);
	tcase_add_test(tc, test_task_followed_to_its_end);
	tcase_add_test(tc, test_secret_stays_in_its_file);
	tcase_add_test(tc, test_redirects_stay_on_the_host);
	tcase_add_test(tc, test_failed_task_gives_its_messages);
	tcase_add_test(tc, test_sessions_ended_for_the_next_client);
	tcase_add_test(tc, test_out_of_memory_at_every_allocation);
	suite_add_tcase(s, tc);
	tc = tcase_create("modern");
	tcase_add_unchecked_fixture(tc, modern_start, modern_stop);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_patch_with_stale_etag_refused);
	tcase_add_test(tc, test_create_answered_at_once);
	suite_add_tcase(s, tc);
	tc = tcase_create("basic");
	tcase_add_unchecked_fixture(tc, basic_start, basic_stop);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_basic_without_session_service);
	tcase_add_test(tc, test_basic_wrong_password_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("fleet");
	tcase_add_unchecked_fixture(tc, fleet_start, fleet_stop);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_fleet_with_dead_hosts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(redfish_http_suite());
}
