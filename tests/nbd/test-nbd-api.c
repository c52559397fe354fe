// SPDX-License-Identifier: MIT
/*
 * test-nbd-api.c - server/nbd.h's calls, one TCase per function: what start
 * refuses and how it names it, its out-of-memory paths, the address and
 * connection count it reports, and stop. The protocol itself is tested
 * with real clients in test-nbd.py; the export here is a 1 MiB array in
 * memory, which is all these checks need.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "nbd.h"
#include "unit.h"

static char disk[1 << 20];

static int mem_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	(void)ctx;
	memcpy(buf, disk + off, len);
	return 0;
}

static int mem_write(void *ctx, const void *buf, size_t len, uint64_t off, bool fua)
{
	(void)ctx;
	(void)fua;
	memcpy(disk + off, buf, len);
	return 0;
}

static int mem_flush(void *ctx)
{
	(void)ctx;
	return 0;
}

static struct rcl_nbd_export memory_export(void)
{
	return (struct rcl_nbd_export){
	    .name = "vd0",
	    .description = "memory",
	    .bytes = sizeof(disk),
	    .read = mem_read,
	    .write = mem_write,
	    .flush = mem_flush,
	};
}

static const struct rcl_nbd_listen loopback = {.host = "127.0.0.1"};

static enum rcl_status start(const struct rcl_nbd_export *ex, const struct rcl_nbd_listen *where,
                             struct rcl_nbd_server **srv, struct rcl_error *err)
{
	memset(err, 0, sizeof(*err));
	return rcl_nbd_server_start(ex, where, 2, srv, err);
}

/* A raw client that has read the server's 18-byte greeting. */
static int greeted_client(const char *socket_path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	char hello[18];
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	strcpy(addr.sun_path, socket_path);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	ck_assert_int_eq(recv(fd, hello, sizeof(hello), MSG_WAITALL), sizeof(hello));
	ck_assert(!memcmp(hello, "NBDMAGICIHAVEOPT", 16));
	return fd;
}

START_TEST(test_start_refuses_block_sizes_the_protocol_cannot_express)
{
	static const uint32_t bad[][3] = {{3, 0, 0}, {131072, 0, 0}, {512, 4096, 256}};
	struct rcl_nbd_export ex = memory_export();
	struct rcl_nbd_server *srv = NULL;
	struct rcl_error err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ex.min_block = bad[i][0];
		ex.preferred_block = bad[i][1];
		ex.max_block = bad[i][2];
		ck_assert_int_eq(start(&ex, &loopback, &srv, &err), RCL_INVALID_PARAM);
		ck_assert_ptr_nonnull(strstr(err.msg, "'vd0'"));
		ck_assert_ptr_null(srv);
	}
}
END_TEST

START_TEST(test_start_refuses_names_the_protocol_cannot_carry)
{
	struct rcl_nbd_export ex = memory_export();
	struct rcl_nbd_server *srv = NULL;
	struct rcl_error err;
	char name[4098];

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ex.name = name;
	ck_assert_int_eq(start(&ex, &loopback, &srv, &err), RCL_INVALID_PARAM);
	ex.name = "vd0";
	ex.description = name;
	ck_assert_int_eq(start(&ex, &loopback, &srv, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "4096 bytes"));
	ck_assert_ptr_null(srv);
}
END_TEST

START_TEST(test_start_refuses_a_writable_export_without_write)
{
	struct rcl_nbd_export ex = memory_export();
	struct rcl_nbd_server *srv = NULL;
	struct rcl_error err;

	ex.write = NULL;
	ck_assert_int_eq(start(&ex, &loopback, &srv, &err), RCL_INVALID_PARAM);
	ex.read_only = true;
	ck_assert_int_eq(start(&ex, &loopback, &srv, &err), RCL_OK);
	rcl_nbd_server_stop(srv);
}
END_TEST

START_TEST(test_start_names_the_address_it_cannot_listen_on)
{
	struct rcl_nbd_export ex = memory_export();
	struct rcl_nbd_listen where = {.socket_path = "/nonexistent-dir/nbd.sock"};
	struct rcl_nbd_listen too_long = {.socket_path = NULL};
	struct rcl_nbd_listen bad_port = {.port = 70000};
	struct rcl_nbd_server *srv = NULL;
	struct rcl_error err;
	char path[200];

	ck_assert_int_eq(start(&ex, &where, &srv, &err), RCL_SYSTEM);
	ck_assert_int_eq(err.sys_errno, ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "unix:/nonexistent-dir/nbd.sock"));

	memset(path, 'x', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	too_long.socket_path = path;
	ck_assert_int_eq(start(&ex, &too_long, &srv, &err), RCL_INVALID_PARAM);

	ck_assert_int_eq(start(&ex, &bad_port, &srv, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "70000"));
	ck_assert_ptr_null(srv);
}
END_TEST

/* Fail each allocation in turn, once and then for good: RCL_NOMEM, no leak. */
START_TEST(test_start_out_of_memory_returns_nomem_and_leaks_nothing)
{
	struct rcl_nbd_export ex = memory_export();
	char *dir = unit_tmpdir();
	char *sock = unit_path(dir, "s");
	struct rcl_nbd_listen where = {.socket_path = sock};

	for (int persistent = 0; persistent < 2; persistent++) {
		unsigned failures = 0;

		for (unsigned long n = 1;; n++) {
			struct rcl_nbd_server *srv = NULL;
			struct rcl_error err;
			enum rcl_status status;

			rcl_alloc_fail_after(n, persistent);
			status = start(&ex, &where, &srv, &err);
			rcl_alloc_fail_after(0, false);
			if (status == RCL_OK) {
				rcl_nbd_server_stop(srv);
				break;
			}
			ck_assert_int_eq(status, RCL_NOMEM);
			ck_assert(!unit_exists(sock));
			failures++;
		}
		ck_assert_uint_gt(failures, 0);
	}
	free(sock);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

START_TEST(test_address_is_the_bound_one)
{
	struct rcl_nbd_export ex = memory_export();
	char *dir = unit_tmpdir();
	char *sock = unit_path(dir, "s");
	struct rcl_nbd_listen unix_where = {.socket_path = sock};
	struct rcl_nbd_listen any_port = {0};
	struct rcl_nbd_server *srv;
	struct rcl_error err;
	char want[300];
	const char *addr;

	ck_assert_int_eq(start(&ex, &unix_where, &srv, &err), RCL_OK);
	snprintf(want, sizeof(want), "unix:%s", sock);
	ck_assert_str_eq(rcl_nbd_server_address(srv), want);
	rcl_nbd_server_stop(srv);

	ck_assert_int_eq(start(&ex, &any_port, &srv, &err), RCL_OK);
	addr = rcl_nbd_server_address(srv);
	ck_assert_msg(!strncmp(addr, "127.0.0.1:", 10) && atoi(addr + 10) > 0,
	              "address '%s': want 127.0.0.1 and the real port", addr);
	rcl_nbd_server_stop(srv);
	free(sock);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

START_TEST(test_connections_counts_clients_as_they_come_and_go)
{
	struct rcl_nbd_export ex = memory_export();
	char *dir = unit_tmpdir();
	char *sock = unit_path(dir, "s");
	struct rcl_nbd_listen where = {.socket_path = sock};
	struct rcl_nbd_server *srv;
	struct rcl_error err;
	int a, b;

	ck_assert_int_eq(start(&ex, &where, &srv, &err), RCL_OK);
	ck_assert_uint_eq(rcl_nbd_server_connections(srv), 0);
	a = greeted_client(sock);
	b = greeted_client(sock);
	ck_assert_uint_eq(rcl_nbd_server_connections(srv), 2);
	close(a);
	/* The server notices the hang-up in its own time; Check's timeout bounds the wait. */
	while (rcl_nbd_server_connections(srv) != 1)
		usleep(1000);
	close(b);
	while (rcl_nbd_server_connections(srv) != 0)
		usleep(1000);
	rcl_nbd_server_stop(srv);
	free(sock);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

START_TEST(test_stop_disconnects_clients_and_removes_the_socket)
{
	struct rcl_nbd_export ex = memory_export();
	char *dir = unit_tmpdir();
	char *sock = unit_path(dir, "s");
	struct rcl_nbd_listen where = {.socket_path = sock};
	struct rcl_nbd_server *srv;
	struct rcl_error err;
	char byte;
	int fd;

	rcl_nbd_server_stop(NULL);
	ck_assert_int_eq(start(&ex, &where, &srv, &err), RCL_OK);
	fd = greeted_client(sock);
	rcl_nbd_server_stop(srv);
	ck_assert_int_eq(recv(fd, &byte, 1, 0), 0);
	ck_assert(!unit_exists(sock));
	close(fd);
	free(sock);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

static Suite *nbd_suite(void)
{
	Suite *s = suite_create("nbd");
	TCase *tc;

	tc = tcase_create("rcl_nbd_server_start");
	tcase_add_test(tc, test_start_refuses_block_sizes_the_protocol_cannot_express);
	tcase_add_test(tc, test_start_refuses_names_the_protocol_cannot_carry);
	tcase_add_test(tc, test_start_refuses_a_writable_export_without_write);
	tcase_add_test(tc, test_start_names_the_address_it_cannot_listen_on);
	tcase_add_test(tc, test_start_out_of_memory_returns_nomem_and_leaks_nothing);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_nbd_server_address");
	tcase_add_test(tc, test_address_is_the_bound_one);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_nbd_server_connections");
	tcase_add_test(tc, test_connections_counts_clients_as_they_come_and_go);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_nbd_server_stop");
	tcase_add_test(tc, test_stop_disconnects_clients_and_removes_the_socket);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(nbd_suite());
}
