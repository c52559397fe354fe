// SPDX-License-Identifier: MIT
/*
 * test-client.c - the Redfish HTTP client's parts that need no Redfish
 * service: base URLs and links, the service's error messages, JSON with
 * the wrong shape, password files, and hosts that refuse or never answer
 * (plain loopback sockets). tests/redfish/test-service.c runs the client
 * against the test service.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "redfish/client.h"
#include "redfish/credential.h"
#include "redfish/json.h"
#include "redfish/message.h"
#include "redfish/url.h"
#include "unit.h"

#define SECRET "s3cret-Pa55-for-tests"

/* A loopback port nothing listens on: bound, then closed. */
static unsigned short closed_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	return ntohs(a.sin_port);
}

/* A loopback socket that listens and never answers: the kernel accepts, no one speaks. */
static int silent_host(unsigned short *port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(listen(fd, 16), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static struct rcl_redfish_client *client_at(unsigned short port, long timeout_ms)
{
	char url[64];
	struct rcl_redfish_opts o = {.url = url,
	                             .user = "admin",
	                             .password = SECRET,
	                             .timeout_ms = timeout_ms,
	                             .connect_timeout_ms = timeout_ms};
	struct rcl_redfish_client *c = NULL;
	struct rcl_error err = {0};

	snprintf(url, sizeof(url), "https://127.0.0.1:%u", port);
	ck_assert_int_eq(rcl_redfish_client_new(&o, &c, &err), RCL_OK);
	return c;
}

START_TEST(test_origin_of_base_url)
{
	struct rcl_error err = {0};
	char *origin, *host;

	ck_assert_int_eq(rcl_redfish_url_origin("https://bmc.example:8443/", &origin, &host, &err),
	                 RCL_OK);
	ck_assert_str_eq(origin, "https://bmc.example:8443");
	ck_assert_str_eq(host, "bmc.example:8443");
	rcl_free(origin);
	rcl_free(host);
	ck_assert_int_eq(rcl_redfish_url_origin("https://10.0.0.7", &origin, &host, &err), RCL_OK);
	ck_assert_str_eq(origin, "https://10.0.0.7:443");
	rcl_free(origin);
	rcl_free(host);
}
END_TEST

START_TEST(test_base_url_refused)
{
	static const struct {
		const char *url, *says;
	} bad[] = {
	    {"http://bmc", "not an https URL"},
	    {"https://root:calvin@bmc", "user name or password"},
	    {"https://bmc/redfish/v1", "path, query or fragment"},
	    {"https://bmc/?x=1", "path, query or fragment"},
	    {"bmc", "is not a URL"},
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rcl_error err = {0};
		char *origin = NULL, *host = NULL;

		ck_assert_int_eq(rcl_redfish_url_origin(bad[i].url, &origin, &host, &err),
		                 RCL_INVALID_PARAM);
		ck_assert_msg(strstr(err.msg, bad[i].says), "%s: %s", bad[i].url, err.msg);
		ck_assert_ptr_null(origin);
	}
}
END_TEST

START_TEST(test_join_stays_on_the_host)
{
	const char *o = "https://bmc:443";
	struct rcl_error err = {0};
	char *url;

	ck_assert_int_eq(rcl_redfish_url_join(o, NULL, "/redfish/v1/Systems", false, &url, &err),
	                 RCL_OK);
	ck_assert_str_eq(url, "https://bmc:443/redfish/v1/Systems");
	rcl_free(url);
	/* Dell's ids hold ':' and '.'; they stay in the path */
	ck_assert_int_eq(
	    rcl_redfish_url_join(o, NULL, "/redfish/v1/Disk.Bay.0:Enclosure.1", false, &url, &err),
	    RCL_OK);
	ck_assert_str_eq(url, "https://bmc:443/redfish/v1/Disk.Bay.0:Enclosure.1");
	rcl_free(url);
	ck_assert_int_eq(rcl_redfish_url_join(o, NULL, "https://BMC/redfish/v1/TaskService/Tasks/1",
	                                      false, &url, &err),
	                 RCL_OK);
	rcl_free(url);
	ck_assert_int_eq(
	    rcl_redfish_url_join(o, "https://bmc:443/redfish/v1/Tasks/1", "2", true, &url, &err),
	    RCL_OK);
	ck_assert_str_eq(url, "https://bmc:443/redfish/v1/Tasks/2");
	rcl_free(url);
}
END_TEST

START_TEST(test_join_refuses_other_hosts_and_junk)
{
	static const char *const bad[] = {
	    "https://evil:443/redfish/v1",
	    "//evil/redfish/v1",
	    "https://bmc:8443/x",
	    "http://bmc/x",
	    "Systems",
	    "/redfish/v1/a b",
	    "/redfish/\x1b[31mv1",
	    "",
	};
	const char *o = "https://bmc:443";

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rcl_error err = {0};
		char *url = NULL;

		ck_assert_int_eq(rcl_redfish_url_join(o, NULL, bad[i], false, &url, &err),
		                 RCL_BAD_REPLY);
		ck_assert_ptr_null(url);
		ck_assert_msg(!strchr(err.msg, '\x1b'), "escape echoed: %s", err.msg);
	}
}
END_TEST

/* The refusal of PATCH /x answered with @status and body @json. */
static enum rcl_status refusal(long status, const char *json, struct rcl_error *err)
{
	struct rcl_redfish_response resp = {.status = status, .retry_after = -1};
	enum rcl_status st;

	if (json)
		ck_assert_int_eq(
		    rcl_redfish_json_parse(json, strlen(json), "test", &resp.body, err), RCL_OK);
	st = rcl_redfish_refusal(err, "bmc:443", RCL_REDFISH_PATCH, "/redfish/v1/x", &resp);
	rcl_redfish_response_release(&resp);
	return st;
}

START_TEST(test_refusal_gives_extended_info)
{
	struct rcl_error err = {0};

	ck_assert_int_eq(
	    refusal(
	        412,
	        "{\"error\": {\"code\": \"Base.1.16.GeneralError\", \"message\": \"See info\", "
	        "\"@Message.ExtendedInfo\": [{\"MessageId\": \"Base.1.16.PreconditionFailed\", "
	        "\"Message\": \"The ETag did not match.\", \"Resolution\": \"Read it again.\"}, "
	        "{\"MessageId\": \"IDRAC.2.2.STOR009\", \"Message\": \"Second.\"}]}}",
	        &err),
	    RCL_BUSY);
	ck_assert_str_eq(err.msg, "PATCH '/redfish/v1/x' refused by 'bmc:443' (412 Precondition "
	                          "Failed): The ETag did not match. (Base.1.16.PreconditionFailed) "
	                          "Resolution: Read it again.; Second. (IDRAC.2.2.STOR009)");
}
END_TEST

START_TEST(test_refusal_without_extended_info)
{
	struct rcl_error err = {0};

	ck_assert_int_eq(refusal(404, NULL, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "PATCH '/redfish/v1/x' refused by 'bmc:443' (404 Not Found): the "
	                          "service has no such resource");
	ck_assert_int_eq(refusal(400,
	                         "{\"error\": {\"code\": \"Base.1.0.Malformed\", "
	                         "\"message\": \"Bad body\"}}",
	                         &err),
	                 RCL_INVALID_PARAM);
	ck_assert(strstr(err.msg, "(400 Bad Request): Bad body (Base.1.0.Malformed)"));
	ck_assert_int_eq(refusal(418, NULL, &err), RCL_NOT_ALLOWED);
	ck_assert(strstr(err.msg, "(418 unexpected status)"));
}
END_TEST

START_TEST(test_refusal_text_is_cleaned)
{
	struct rcl_error err = {0};

	refusal(
	    500,
	    "{\"error\": {\"@Message.ExtendedInfo\": [{\"Message\": \"\\u001b[2Jwiped\\u0007\"}]}}",
	    &err);
	ck_assert(strstr(err.msg, "?[2Jwiped?"));
	ck_assert(!strchr(err.msg, '\x1b'));
}
END_TEST

START_TEST(test_json_malformed_and_wrong_types)
{
	struct rcl_error err = {0};
	json_object *obj = NULL, *v;
	const char *s, *text;

	ck_assert_int_eq(rcl_redfish_json_parse("{\"a\": ", 6, "the answer", &obj, &err),
	                 RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "malformed JSON in the answer: it ends early, at byte 6");
	ck_assert_int_eq(rcl_redfish_json_parse("{} x", 4, "the answer", &obj, &err),
	                 RCL_BAD_REPLY);
	ck_assert(strstr(err.msg, "data after the value"));
	ck_assert_int_eq(rcl_redfish_json_parse("{\"a\" 1}", 7, "the answer", &obj, &err),
	                 RCL_BAD_REPLY);
	ck_assert(strstr(err.msg, "malformed JSON in the answer: "));
	ck_assert_int_eq(rcl_redfish_json_parse("[1]", 3, "the answer", &obj, &err), RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "the answer is JSON but not an object");

	text = "{\"Members\": \"x\", \"N\": null, \"L\": {}}";
	ck_assert_int_eq(rcl_redfish_json_parse(text, strlen(text), "t", &obj, &err), RCL_OK);
	ck_assert_int_eq(rcl_redfish_member(obj, "Members", json_type_array, false,
	                                    "/redfish/v1/Systems", &v, &err),
	                 RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "'Members' of '/redfish/v1/Systems' is a string, not an array");
	ck_assert_int_eq(rcl_redfish_string(obj, "N", true, "/x", &s, &err), RCL_OK);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(rcl_redfish_string(obj, "N", false, "/x", &s, &err), RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "'/x' has no 'N'");
	ck_assert_int_eq(rcl_redfish_link(obj, "L", false, "/x", &s, &err), RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg, "'/x' has no '@odata.id'");
	json_object_put(obj);
}
END_TEST

/* A password file holding @text with @mode in a new directory; free the path. */
static char *password_file(const char *text, mode_t mode, char **dir)
{
	char *path;

	*dir = unit_tmpdir();
	path = unit_path(*dir, "bmc.pw");
	unit_write(path, text);
	ck_assert_int_eq(chmod(path, mode), 0);
	return path;
}

START_TEST(test_password_from_private_file)
{
	struct rcl_error err = {0};
	char *dir, *path = password_file(SECRET "\n", 0600, &dir), *pw = NULL;

	ck_assert_int_eq(rcl_redfish_password_load(path, NULL, &pw, &err), RCL_OK);
	ck_assert_str_eq(pw, SECRET);
	rcl_redfish_secret_free(pw);
	unit_rmrf(dir);
	free(dir);
	free(path);
}
END_TEST

START_TEST(test_password_file_readable_by_others_refused)
{
	static const mode_t modes[] = {0644, 0640, 0604, 0660, 0606};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct rcl_error err = {0};
		char *dir, *path = password_file(SECRET, modes[i], &dir), *pw = NULL, mode[16];

		ck_assert_int_eq(rcl_redfish_password_load(path, NULL, &pw, &err), RCL_NOT_ALLOWED);
		ck_assert_ptr_null(pw);
		snprintf(mode, sizeof(mode), "mode %04o", (unsigned)modes[i]);
		ck_assert_msg(strstr(err.msg, mode), "%s", err.msg);
		ck_assert(strstr(err.msg, "chmod 600"));
		ck_assert(!strstr(err.msg, SECRET));
		unit_rmrf(dir);
		free(dir);
		free(path);
	}
}
END_TEST

START_TEST(test_password_file_symlink_and_empty_refused)
{
	struct rcl_error err = {0};
	char *dir, *path = password_file("\n", 0600, &dir), *pw = NULL, *link;

	ck_assert_int_eq(rcl_redfish_password_load(path, NULL, &pw, &err), RCL_INVALID_PARAM);
	ck_assert(strstr(err.msg, "is empty"));
	link = unit_path(dir, "link");
	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(rcl_redfish_password_load(link, NULL, &pw, &err), RCL_SYSTEM);
	ck_assert_ptr_null(pw);
	unit_rmrf(dir);
	free(dir);
	free(path);
	free(link);
}
END_TEST

START_TEST(test_password_from_environment)
{
	struct rcl_error err = {0};
	char *pw = NULL;

	setenv("RCL_TEST_BMC_PW", SECRET, 1);
	ck_assert_int_eq(rcl_redfish_password_load(NULL, "RCL_TEST_BMC_PW", &pw, &err), RCL_OK);
	ck_assert_str_eq(pw, SECRET);
	rcl_redfish_secret_free(pw);
	unsetenv("RCL_TEST_BMC_PW");
	ck_assert_int_eq(rcl_redfish_password_load(NULL, "RCL_TEST_BMC_PW", &pw, &err),
	                 RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "environment variable 'RCL_TEST_BMC_PW' is not set");
}
END_TEST

/* An askpass that answers @arg (NULL: "no terminal"), and notes whom it was asked for. */
static char asked_for[256];

static bool answer_with(void *arg, const char *user, const char *realm, char *buf, size_t size,
                        struct rcl_error *err)
{
	snprintf(asked_for, sizeof(asked_for), "%s at %s", user, realm);
	if (!arg) {
		rcl_fail(err, RCL_NOT_ALLOWED, "there is no terminal to ask on");
		return false;
	}
	snprintf(buf, size, "%s", (const char *)arg);
	return true;
}

START_TEST(test_password_asked)
{
	char *dir = unit_tmpdir(), *pw = NULL;
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;

	ck_assert_int_eq(rcl_ctx_new(&ctx, dir, &err), RCL_OK);
	/* A daemon sets no askpass: asking fails, saying how to do without. */
	ck_assert_int_eq(rcl_redfish_password_ask(ctx, "root", "https://bmc", &pw, &err),
	                 RCL_UNSUPPORTED);
	ck_assert_ptr_null(pw);
	ck_assert_msg(strstr(err.msg, "credfile=") && strstr(err.msg, "passenv="), "%s", err.msg);
	rcl_ctx_set_askpass(ctx, answer_with, NULL);
	ck_assert_int_eq(rcl_redfish_password_ask(ctx, "root", "https://bmc", &pw, &err),
	                 RCL_NOT_ALLOWED);
	ck_assert_msg(strstr(err.msg, "of 'root' at https://bmc: there is no terminal"), "%s",
	              err.msg);
	rcl_ctx_set_askpass(ctx, answer_with, (void *)"");
	ck_assert_int_eq(rcl_redfish_password_ask(ctx, "root", "https://bmc", &pw, &err),
	                 RCL_INVALID_PARAM);
	ck_assert(!strstr(err.msg, SECRET));
	rcl_ctx_set_askpass(ctx, answer_with, (void *)SECRET);
	ck_assert_int_eq(rcl_redfish_password_ask(ctx, "admin", "the BMCs in /h", &pw, &err),
	                 RCL_OK);
	ck_assert_str_eq(pw, SECRET);
	ck_assert_str_eq(asked_for, "admin at the BMCs in /h");
	rcl_redfish_secret_free(pw);
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

static void no_warning(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

START_TEST(test_client_options_checked)
{
	struct rcl_redfish_opts o = {.url = "http://bmc", .user = "u", .password = "p"};
	struct rcl_redfish_client *c = NULL;
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_redfish_client_new(&o, &c, &err), RCL_INVALID_PARAM);
	o.url = "https://bmc";
	o.insecure = true;
	ck_assert_int_eq(rcl_redfish_client_new(&o, &c, &err), RCL_INVALID_PARAM);
	ck_assert(strstr(err.msg, "insecure"));
	o.warn = no_warning;
	ck_assert_int_eq(rcl_redfish_client_new(&o, &c, &err), RCL_OK);
	ck_assert_str_eq(rcl_redfish_client_host(c), "bmc:443");
	rcl_redfish_client_free(c);
}
END_TEST

START_TEST(test_refused_connection_is_unreachable)
{
	struct rcl_redfish_response resp = {.retry_after = -1};
	struct rcl_redfish_client *c = client_at(closed_port(), 5000);
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_redfish_get(c, "/redfish/v1/Systems", &resp, &err), RCL_UNREACHABLE);
	ck_assert_msg(strstr(err.msg, "cannot reach '127.0.0.1:"), "%s", err.msg);
	ck_assert(!strstr(err.msg, SECRET));
	ck_assert_ptr_nonnull(rcl_redfish_client_failure(c));
	/* the host is given up: the next request fails at once, with the same reason */
	ck_assert_int_eq(rcl_redfish_get(c, "/redfish/v1/Chassis", &resp, &err), RCL_UNREACHABLE);
	ck_assert(strstr(err.msg, "cannot reach"));
	rcl_redfish_client_free(c);
}
END_TEST

/*
 * Hosts that accept connections and never answer, asked all at once: each
 * fails with its timeout, and together they take about one timeout, far
 * less than one after the other (the bound here is half of that, so a
 * loaded machine does not fail it).
 */
START_TEST(test_fleet_of_silent_hosts_costs_one_timeout)
{
	enum { HOSTS = 12, TIMEOUT_MS = 1500 };
	struct rcl_redfish_client *c[HOSTS];
	struct rcl_redfish_call calls[HOSTS] = {0};
	struct rcl_redfish_limits limits = {.per_host = 2, .total = 64};
	struct rcl_error err = {0};
	int fds[HOSTS];
	uint64_t start;

	for (int i = 0; i < HOSTS; i++) {
		unsigned short port;

		fds[i] = silent_host(&port);
		c[i] = client_at(port, TIMEOUT_MS);
		calls[i] = (struct rcl_redfish_call){.client = c[i], .path = "/redfish/v1/Systems"};
	}
	start = rcl_redfish_now_ms();
	ck_assert_int_eq(rcl_redfish_run(calls, HOSTS, &limits, &err), RCL_OK);
	ck_assert_uint_lt(rcl_redfish_now_ms() - start, HOSTS * TIMEOUT_MS / 2);
	for (int i = 0; i < HOSTS; i++) {
		ck_assert_int_eq(calls[i].err.status, RCL_UNREACHABLE);
		ck_assert_msg(strstr(calls[i].err.msg, "did not answer"), "%s", calls[i].err.msg);
		rcl_redfish_response_release(&calls[i].resp);
		rcl_redfish_client_free(c[i]);
		close(fds[i]);
	}
}
END_TEST

static Suite *redfish_client_suite(void)
{
	Suite *s = suite_create("redfish-client");
	TCase *tc;

	tc = tcase_create("url");
	tcase_add_test(tc, test_origin_of_base_url);
	tcase_add_test(tc, test_base_url_refused);
	tcase_add_test(tc, test_join_stays_on_the_host);
	tcase_add_test(tc, test_join_refuses_other_hosts_and_junk);
	suite_add_tcase(s, tc);
	tc = tcase_create("refusal");
	tcase_add_test(tc, test_refusal_gives_extended_info);
	tcase_add_test(tc, test_refusal_without_extended_info);
	tcase_add_test(tc, test_refusal_text_is_cleaned);
	suite_add_tcase(s, tc);
	tc = tcase_create("json");
	tcase_add_test(tc, test_json_malformed_and_wrong_types);
	suite_add_tcase(s, tc);
	tc = tcase_create("password");
	tcase_add_test(tc, test_password_from_private_file);
	tcase_add_test(tc, test_password_file_readable_by_others_refused);
	tcase_add_test(tc, test_password_file_symlink_and_empty_refused);
	tcase_add_test(tc, test_password_from_environment);
	tcase_add_test(tc, test_password_asked);
	suite_add_tcase(s, tc);
	tc = tcase_create("client");
	tcase_add_test(tc, test_client_options_checked);
	tcase_add_test(tc, test_refused_connection_is_unreachable);
	tcase_add_test(tc, test_fleet_of_silent_hosts_costs_one_timeout);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(redfish_client_suite());
}
