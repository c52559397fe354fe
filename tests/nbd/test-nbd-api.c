// SPDX-License-Identifier: MIT
/*
 * test-nbd-api.c - server/nbd.h's calls, one TCase per function: what start
 * refuses and how it names it, its out-of-memory paths, the address and
 * connection count it reports, and stop. The protocol itself is tested
 * with real clients in test-nbd.py; the export here is an array in
 * memory as large as the largest request, which is all these checks need.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "nbd-internal.h"
#include "nbd-proto.h"
#include "nbd.h"
#include "unit.h"

static char disk[NBD_DOS_PAYLOAD_MAX];

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

/*
 * A gate in the export's reads, for what only timing would show otherwise
 * (no real peer can hold a request inside the server): each read waits
 * until @open_at reads are inside at once, or the test opens the gate.
 * A read that waits in vain for 60 s goes on, so a server that runs
 * requests one at a time fails the test instead of hanging it.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	unsigned inside, most, open_at;
	bool open;
} gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, false};

static int gated_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 60;
	pthread_mutex_lock(&gate.lock);
	gate.inside++;
	gate.most = gate.inside > gate.most ? gate.inside : gate.most;
	if (gate.inside >= gate.open_at)
		gate.open = true;
	pthread_cond_broadcast(&gate.changed);
	while (!gate.open && !pthread_cond_timedwait(&gate.changed, &gate.lock, &deadline))
		;
	gate.inside--;
	pthread_mutex_unlock(&gate.lock);
	return mem_read(ctx, buf, len, off);
}

static void gate_set(unsigned open_at)
{
	pthread_mutex_lock(&gate.lock);
	gate.open_at = open_at;
	gate.open = false;
	gate.most = 0;
	pthread_mutex_unlock(&gate.lock);
}

static void gate_wait_inside(unsigned n)
{
	pthread_mutex_lock(&gate.lock);
	while (gate.inside < n)
		pthread_cond_wait(&gate.changed, &gate.lock);
	pthread_mutex_unlock(&gate.lock);
}

static void gate_open(void)
{
	pthread_mutex_lock(&gate.lock);
	gate.open = true;
	pthread_cond_broadcast(&gate.changed);
	pthread_mutex_unlock(&gate.lock);
}

/* The memory export with gated reads, started with @threads per connection. */
static struct rcl_nbd_server *start_gated(const char *sock, unsigned threads)
{
	struct rcl_nbd_export ex = memory_export();
	struct rcl_nbd_listen where = {.socket_path = sock};
	struct rcl_nbd_server *srv;
	struct rcl_error err;

	for (size_t i = 0; i < sizeof(disk); i++)
		disk[i] = (char)(i * 7 + i / 4096);
	ex.read = gated_read;
	ck_assert_int_eq(rcl_nbd_server_start(&ex, &where, threads, &srv, &err), RCL_OK);
	return srv;
}

/* A client in the transmission phase (NBD_OPT_EXPORT_NAME ""), simple replies. */
static int transmitting_client(const char *socket_path)
{
	int fd = greeted_client(socket_path);
	uint8_t flags[4], opt[16], info[10];

	nbd_put32(flags, NBD_FLAG_C_FIXED_NEWSTYLE | NBD_FLAG_C_NO_ZEROES);
	nbd_put64(opt, NBD_MAGIC_OPT);
	nbd_put32(opt + 8, NBD_OPT_EXPORT_NAME);
	nbd_put32(opt + 12, 0);
	ck_assert_int_eq(send(fd, flags, sizeof(flags), 0), sizeof(flags));
	ck_assert_int_eq(send(fd, opt, sizeof(opt), 0), sizeof(opt));
	ck_assert_int_eq(recv(fd, info, sizeof(info), MSG_WAITALL), sizeof(info));
	ck_assert_uint_eq(nbd_get64(info), sizeof(disk));
	return fd;
}

/* Send a READ of @len bytes at @off as request @cookie. */
static void send_read_of(int fd, uint64_t cookie, uint64_t off, uint32_t len)
{
	uint8_t req[NBD_REQUEST_SIZE];

	nbd_put32(req, NBD_MAGIC_REQUEST);
	nbd_put16(req + 4, 0);
	nbd_put16(req + 6, NBD_CMD_READ);
	nbd_put64(req + 8, cookie);
	nbd_put64(req + 16, off);
	nbd_put32(req + 24, len);
	ck_assert_int_eq(send(fd, req, sizeof(req), 0), sizeof(req));
}

/* Send READ number @i: 4 KiB at @i * 4 KiB, cookie @i. */
static void send_read(int fd, unsigned i)
{
	send_read_of(fd, i, i * 4096ull, 4096);
}

/* Take @n replies to send_read()'s, in any order: each once, whole and right. */
static void expect_read_replies(int fd, unsigned n)
{
	uint64_t seen = 0;

	for (unsigned k = 0; k < n; k++) {
		uint8_t head[NBD_SIMPLE_REPLY_SIZE], data[4096];
		uint64_t cookie;

		ck_assert_int_eq(recv(fd, head, sizeof(head), MSG_WAITALL), sizeof(head));
		ck_assert_uint_eq(nbd_get32(head), NBD_MAGIC_SIMPLE_REPLY);
		ck_assert_uint_eq(nbd_get32(head + 4), 0);
		cookie = nbd_get64(head + 8);
		ck_assert_uint_lt(cookie, 64);
		ck_assert(!(seen >> cookie & 1));
		seen |= 1ull << cookie;
		ck_assert_int_eq(recv(fd, data, sizeof(data), MSG_WAITALL), sizeof(data));
		ck_assert(!memcmp(data, disk + cookie * 4096, sizeof(data)));
	}
}

/* The threads of this process now (Check runs each test in a process of its own). */
static unsigned thread_count(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %u", &n) == 1)
			break;
	fclose(f);
	return n;
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

/*
 * One connection runs as many requests at once as it has threads (4
 * here): the gate lets reads go only when 4 are inside together, and 8
 * are sent. No more than 4 are ever inside, and the connection's threads
 * end with it: the process has only the accept thread left.
 */
START_TEST(test_start_a_connection_runs_threads_requests_at_once)
{
	char *dir = unit_tmpdir();
	char *sock = unit_path(dir, "s");
	unsigned before = thread_count();
	struct rcl_nbd_server *srv = start_gated(sock, 4);
	int fd;

	gate_set(4);
	fd = transmitting_client(sock);
	for (unsigned i = 0; i < 8; i++)
		send_read(fd, i);
	expect_read_replies(fd, 8);
	ck_assert_uint_eq(gate.most, 4);
	ck_assert_uint_le(thread_count(), before + 1 + 4);
	close(fd);
	/*
	 * The server notices the hang-up in its own time, and the connection's
	 * last thread ends just after it no longer counts the connection (under
	 * ASan, long enough to be seen); Check's timeout bounds both waits.
	 */
	while (rcl_nbd_server_connections(srv))
		usleep(1000);
	while (thread_count() > before + 1)
		usleep(1000);
	ck_assert_uint_eq(thread_count(), before + 1);
	rcl_nbd_server_stop(srv);
	ck_assert_uint_eq(thread_count(), before);
	free(sock);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

/*
 * Which thread ran each of the reads at 4 KiB * i (i < 8), and how many ran
 * at once; a read may first sleep (while sleeps are left) or go through the gate.
 */
static struct {
	atomic_int tid[8];
	atomic_uint inside, most, sleeps;
	atomic_bool gated;
} trace;

static int traced_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	unsigned inside = atomic_fetch_add(&trace.inside, 1) + 1;
	unsigned most = atomic_load(&trace.most);
	int rc;

	while (inside > most && !atomic_compare_exchange_weak(&trace.most, &most, inside))
		;
	if (off / 4096 < 8)
		atomic_store(&trace.tid[off / 4096], gettid());
	if (atomic_load(&trace.sleeps) && atomic_fetch_sub(&trace.sleeps, 1))
		usleep(2000);
	rc = atomic_load(&trace.gated) ? gated_read(ctx, buf, len, off)
	                               : mem_read(ctx, buf, len, off);
	atomic_fetch_sub(&trace.inside, 1);
	return rc;
}

/* Send the reads at 4 KiB * i for i < 8 at once and take their replies. */
static void read_eight(int fd)
{
	for (unsigned i = 0; i < 8; i++)
		send_read(fd, i);
	expect_read_replies(fd, 8);
}

/*
 * A connection's requests run beside its reader while they wait, and on
 * the reader while they do not: the memory export's reads never sleep, so
 * once the first NBD_BESIDE_REQUESTS (which run beside it, as a new
 * connection's do) are done, the next 8, sent at once, run on one thread,
 * one at a time. Reads that sleep turn the connection back (as many as
 * the reader lets go unmeasured, one at a time: one of them is measured):
 * the next 8, gated until 4 are inside at once, run on 4 threads.
 */
START_TEST(test_start_requests_run_beside_the_reader_only_while_they_wait)
{
	char *dir = unit_tmpdir();
	char *sock = unit_path(dir, "s");
	struct rcl_nbd_export ex = memory_export();
	struct rcl_nbd_listen where = {.socket_path = sock};
	struct rcl_nbd_server *srv;
	struct rcl_error err;
	bool one_thread = true;
	int fd;

	for (size_t i = 0; i < sizeof(disk); i++)
		disk[i] = (char)(i * 7 + i / 4096);
	ex.read = traced_read;
	ck_assert_int_eq(rcl_nbd_server_start(&ex, &where, 4, &srv, &err), RCL_OK);
	fd = transmitting_client(sock);
	for (unsigned sent = 0; sent < NBD_BESIDE_REQUESTS; sent += 8)
		read_eight(fd);
	atomic_store(&trace.most, 0);
	read_eight(fd);
	ck_assert_uint_eq(atomic_load(&trace.most), 1);
	for (unsigned i = 1; i < 8; i++)
		one_thread &= atomic_load(&trace.tid[i]) == atomic_load(&trace.tid[0]);
	ck_assert(one_thread);

	atomic_store(&trace.sleeps, NBD_WAIT_SAMPLE);
	for (unsigned i = 0; i < NBD_WAIT_SAMPLE; i++) {
		send_read(fd, 0);
		expect_read_replies(fd, 1);
	}
	gate_set(4);
	atomic_store(&trace.gated, true);
	read_eight(fd);
	ck_assert_uint_eq(gate.most, 4);
	close(fd);
	rcl_nbd_server_stop(srv);
	free(sock);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

/* Connections do not share threads: 3 clients with 2 threads each have 6 reads inside. */
START_TEST(test_start_threads_are_per_connection)
{
	char *dir = unit_tmpdir();
	char *sock = unit_path(dir, "s");
	struct rcl_nbd_server *srv = start_gated(sock, 2);
	int fds[3];

	gate_set(6);
	for (unsigned c = 0; c < 3; c++) {
		fds[c] = transmitting_client(sock);
		for (unsigned i = 0; i < 4; i++)
			send_read(fds[c], c * 4 + i);
	}
	for (unsigned c = 0; c < 3; c++)
		expect_read_replies(fds[c], 4);
	ck_assert_uint_eq(gate.most, 6);
	for (unsigned c = 0; c < 3; c++)
		close(fds[c]);
	rcl_nbd_server_stop(srv);
	free(sock);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

/*
 * An export whose writes all end later, when the test ends them: what the
 * soft volume does with a partial stripe held for its neighbours, with
 * the timing in the test's hands.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t came;
	unsigned count;
	struct {
		void (*ended)(void *token, int rc);
		void *token;
		const void *buf;
		size_t len;
		uint64_t off;
	} w[16];
	const void *client; /* of the last write */
	bool gated;         /* writes wait in later_write() until later_open() */
	pthread_cond_t opened;
} later = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {{0}}, NULL, false,
           PTHREAD_COND_INITIALIZER};

static int later_write(void *ctx, const void *buf, size_t len, uint64_t off, bool fua,
                       const void *client, void (*ended)(void *token, int rc), void *token)
{
	(void)ctx;
	(void)fua;
	pthread_mutex_lock(&later.lock);
	ck_assert_uint_lt(later.count, 16);
	later.client = client;
	later.w[later.count].ended = ended;
	later.w[later.count].token = token;
	later.w[later.count].buf = buf;
	later.w[later.count].len = len;
	later.w[later.count].off = off;
	later.count++;
	pthread_cond_broadcast(&later.came);
	while (later.gated)
		pthread_cond_wait(&later.opened, &later.lock);
	pthread_mutex_unlock(&later.lock);
	return RCL_NBD_LATER;
}

/* Let the writes waiting in later_write() return. */
static void later_open(void)
{
	pthread_mutex_lock(&later.lock);
	later.gated = false;
	pthread_cond_broadcast(&later.opened);
	pthread_mutex_unlock(&later.lock);
}

/* Wait (up to 60 s) until @n writes have come to the export. */
static unsigned later_wait(unsigned n)
{
	struct timespec deadline;
	unsigned count;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 60;
	pthread_mutex_lock(&later.lock);
	while (later.count < n && !pthread_cond_timedwait(&later.came, &later.lock, &deadline))
		;
	count = later.count;
	pthread_mutex_unlock(&later.lock);
	return count;
}

/* End the @i-th write to come with @rc, its data stored when 0. */
static void later_end(unsigned i, int rc)
{
	if (!rc)
		memcpy(disk + later.w[i].off, later.w[i].buf, later.w[i].len);
	later.w[i].ended(later.w[i].token, rc);
}

/*
 * A server of an export on a Unix socket, at most @threads per
 * connection, and one client through its handshake.
 */
struct served {
	char *dir, *sock;
	struct rcl_nbd_server *srv;
	int fd;
};

static void serve_start(struct served *t, const struct rcl_nbd_export *ex, unsigned threads)
{
	struct rcl_error err;

	t->dir = unit_tmpdir();
	t->sock = unit_path(t->dir, "s");
	ck_assert_int_eq(rcl_nbd_server_start(ex, &(struct rcl_nbd_listen){.socket_path = t->sock},
	                                      threads, &t->srv, &err),
	                 RCL_OK);
	t->fd = transmitting_client(t->sock);
}

/* The client hangs up; return once its connection has ended. */
static void serve_hang_up(struct served *t)
{
	close(t->fd);
	while (rcl_nbd_server_connections(t->srv))
		usleep(1000);
}

static void serve_stop(struct served *t)
{
	rcl_nbd_server_stop(t->srv);
	free(t->sock);
	unit_rmrf(t->dir);
	free(t->dir);
}

/*
 * serve_start() of the memory export whose writes all end later
 * (later_write), with @stalled as its stall report.
 */
static void later_start(struct served *t, unsigned threads,
                        void (*stalled)(void *ctx, const void *client))
{
	struct rcl_nbd_export ex = memory_export();

	ex.write_later = later_write;
	ex.stalled = stalled;
	serve_start(t, &ex, threads);
}

/* Send a WRITE of @len bytes of @cookie's low byte at @off. */
static void send_write_of(int fd, uint64_t cookie, uint64_t off, uint32_t len)
{
	uint8_t req[NBD_REQUEST_SIZE];
	uint8_t *data = malloc(len);

	ck_assert_ptr_nonnull(data);
	nbd_put32(req, NBD_MAGIC_REQUEST);
	nbd_put16(req + 4, 0);
	nbd_put16(req + 6, NBD_CMD_WRITE);
	nbd_put64(req + 8, cookie);
	nbd_put64(req + 16, off);
	nbd_put32(req + 24, len);
	memset(data, (int)(cookie & 0xff), len);
	ck_assert_int_eq(send(fd, req, sizeof(req), 0), sizeof(req));
	ck_assert_int_eq(send(fd, data, len, 0), (ssize_t)len);
	free(data);
}

/* Send WRITE number @i: 4 KiB of @i at @i * 4 KiB, cookie @i. */
static void send_write(int fd, unsigned i)
{
	send_write_of(fd, i, i * 4096ull, 4096);
}

/* The next reply is write @cookie's, with NBD error @error. */
static void expect_write_reply(int fd, uint64_t cookie, uint32_t error)
{
	uint8_t head[NBD_SIMPLE_REPLY_SIZE];

	ck_assert_int_eq(recv(fd, head, sizeof(head), MSG_WAITALL), sizeof(head));
	ck_assert_uint_eq(nbd_get32(head), NBD_MAGIC_SIMPLE_REPLY);
	ck_assert_uint_eq(nbd_get32(head + 4), error);
	ck_assert_uint_eq(nbd_get64(head + 8), cookie);
}

/*
 * Writes the export ends later: one thread takes in all 4 without waiting
 * for any; nothing is answered before it ends; each is answered when it
 * ends, in that order, an error as the NBD error; a client that hangs up
 * with a write still to end gets its reply first, and the connection lasts
 * until then.
 */
START_TEST(test_start_writes_ending_later_are_answered_when_they_end)
{
	struct served t;
	uint8_t disc[NBD_REQUEST_SIZE] = {0}, byte;

	later_start(&t, 1, NULL);
	for (unsigned i = 0; i < 4; i++)
		send_write(t.fd, i);
	ck_assert_uint_eq(later_wait(4), 4);
	ck_assert_int_eq(recv(t.fd, &byte, 1, MSG_DONTWAIT), -1);
	ck_assert_int_eq(errno, EAGAIN);
	later_end(2, 0);
	expect_write_reply(t.fd, 2, 0);
	later_end(0, -EIO);
	expect_write_reply(t.fd, 0, NBD_EIO);
	later_end(1, 0);
	expect_write_reply(t.fd, 1, 0);
	ck_assert_int_eq(disk[1 * 4096], 1);
	ck_assert_int_eq(disk[2 * 4096 + 4095], 2);
	/* Hang up with write 3 still to end. */
	nbd_put32(disc, NBD_MAGIC_REQUEST);
	nbd_put16(disc + 6, NBD_CMD_DISC);
	ck_assert_int_eq(send(t.fd, disc, sizeof(disc), 0), sizeof(disc));
	usleep(100000);
	ck_assert_uint_eq(rcl_nbd_server_connections(t.srv), 1);
	later_end(3, 0);
	expect_write_reply(t.fd, 3, 0);
	ck_assert_int_eq(recv(t.fd, &byte, 1, 0), 0);
	serve_hang_up(&t);
	serve_stop(&t);
}
END_TEST

/* Take @n write replies, all successes, in any order: the cookies they answer (bits). */
static uint64_t write_replies(int fd, unsigned n)
{
	uint64_t seen = 0;

	for (unsigned i = 0; i < n; i++) {
		uint8_t head[NBD_SIMPLE_REPLY_SIZE];
		uint64_t cookie;

		ck_assert_int_eq(recv(fd, head, sizeof(head), MSG_WAITALL), sizeof(head));
		ck_assert_uint_eq(nbd_get32(head + 4), 0);
		cookie = nbd_get64(head + 8);
		ck_assert(cookie < 64 && !(seen >> cookie & 1));
		seen |= 1ull << cookie;
	}
	return seen;
}

/*
 * Told that the client stalled, the export ends every write it holds, as
 * the soft volume writes their stripes, on the server's thread.
 */
static struct {
	unsigned calls, ended;
	bool same_client;
} stall;

static void end_all_on_stall(void *ctx, const void *client)
{
	unsigned count;

	(void)ctx;
	pthread_mutex_lock(&later.lock);
	count = later.count;
	stall.same_client = client == later.client;
	pthread_mutex_unlock(&later.lock);
	stall.calls++;
	while (stall.ended < count)
		later_end(stall.ended++, 0);
}

/*
 * A client whose requests in flight are all writes the export holds, and
 * that sends nothing more (it waits for their replies, as a client at its
 * queue depth does), is reported stalled, with the connection its writes
 * came on; the export ends them, and the client gets its replies without
 * anyone else writing.
 */
START_TEST(test_start_a_client_waiting_on_held_writes_is_reported_stalled)
{
	struct served t;

	later_start(&t, 1, end_all_on_stall);
	send_write(t.fd, 0);
	send_write(t.fd, 1);
	/* Nobody ends them but the export when told: Check's timeout bounds the wait. */
	ck_assert_uint_eq(write_replies(t.fd, 2), 0x3);
	ck_assert_uint_ge(stall.calls, 1);
	ck_assert(stall.same_client);
	ck_assert_int_eq(disk[4096 + 4095], 1);
	serve_hang_up(&t);
	serve_stop(&t);
}
END_TEST

/*
 * The stall is seen from the other side too: on a connection of two
 * threads, the second waits for the client (reading) while the first
 * still runs the client's only write; that write, once held, leaves the
 * client waiting with every request held, and the export is told as the
 * first thread finishes, though the reader had looked before.
 */
START_TEST(test_start_a_stall_that_comes_after_the_reader_looked_is_reported)
{
	struct served t;

	later.gated = true;
	later_start(&t, 2, end_all_on_stall);
	send_write(t.fd, 0);
	ck_assert_uint_eq(later_wait(1), 1);
	/* Time for the second thread to start waiting; the outcome is the same either way. */
	usleep(100000);
	later_open();
	/* Nobody ends it but the export when told: Check's timeout bounds the wait. */
	ck_assert_uint_eq(write_replies(t.fd, 1), 0x1);
	ck_assert_uint_ge(stall.calls, 1);
	ck_assert(stall.same_client);
	serve_hang_up(&t);
	serve_stop(&t);
}
END_TEST

/*
 * A client that leaves takes its connection's request buffers with it:
 * once its writes (ended later, so their slots went through the
 * connection's spares) are answered and it has hung up, no payload buffer
 * is left, while the server runs on and accepts no other client that
 * would free them.
 */
START_TEST(test_start_a_finished_connection_keeps_no_buffers)
{
	struct served t;

	ck_assert_uint_eq(rcl_pages_in_use(), 0);
	later_start(&t, 4, NULL);
	for (unsigned i = 0; i < 8; i++)
		send_write(t.fd, i);
	ck_assert_uint_eq(later_wait(8), 8);
	ck_assert_uint_ge(rcl_pages_in_use(), 8 * 4096);
	for (unsigned i = 0; i < 8; i++)
		later_end(i, 0);
	/* The 4 threads took the writes in any order: each is answered once. */
	ck_assert_uint_eq(write_replies(t.fd, 8), 0xff);
	serve_hang_up(&t);
	ck_assert_uint_eq(rcl_pages_in_use(), 0);
	serve_stop(&t);
}
END_TEST

/*
 * Large writes held later keep at most NBD_LENT_BYTES of buffers: of twelve
 * 1 MiB writes on one thread, eight are held and the rest are written and
 * answered at once, while those eight wait; the buffers in use stay within
 * the held ones' and the thread's own. Once answered, their buffers are
 * spares that make room again, so the next write is held later too.
 */
START_TEST(test_start_writes_held_later_keep_bounded_buffers)
{
	struct served t;
	const uint32_t mib = 1 << 20;
	const unsigned held = NBD_LENT_BYTES / mib;

	later_start(&t, 1, NULL);
	/* A server holding them all would send no reply: Check's timeout bounds the wait. */
	for (unsigned i = 0; i < held + 4; i++)
		send_write_of(t.fd, i, 0, mib);
	ck_assert_uint_eq(write_replies(t.fd, 4), 0xfull << held);
	ck_assert_uint_eq(later_wait(held), held);
	ck_assert_uint_le(rcl_pages_in_use(), (held + 1) * (size_t)mib);
	for (unsigned i = 0; i < held; i++)
		later_end(i, 0);
	ck_assert_uint_eq(write_replies(t.fd, held), (1ull << held) - 1);
	send_write(t.fd, held + 4);
	ck_assert_uint_eq(later_wait(held + 1), held + 1);
	ck_assert_uint_le(rcl_pages_in_use(), (held + 1) * (size_t)mib);
	later_end(held, 0);
	ck_assert_uint_eq(write_replies(t.fd, 1), 1ull << (held + 4));
	serve_hang_up(&t);
	ck_assert_uint_eq(rcl_pages_in_use(), 0);
	serve_stop(&t);
}
END_TEST

/* Read @len bytes at 0 as request @cookie: the reply is a success carrying the disk's bytes. */
static void read_whole(int fd, uint64_t cookie, uint32_t len)
{
	uint8_t head[NBD_SIMPLE_REPLY_SIZE], *data = malloc(len);

	ck_assert_ptr_nonnull(data);
	send_read_of(fd, cookie, 0, len);
	ck_assert_int_eq(recv(fd, head, sizeof(head), MSG_WAITALL), sizeof(head));
	ck_assert_uint_eq(nbd_get32(head + 4), 0);
	ck_assert_uint_eq(nbd_get64(head + 8), cookie);
	ck_assert_int_eq(recv(fd, data, len, MSG_WAITALL), (ssize_t)len);
	ck_assert(!memcmp(data, disk, len));
	free(data);
}

/*
 * A thread keeps its request buffer for the next request up to
 * NBD_SLOT_KEEP_BYTES, and lets a larger one go once answered: after a
 * 32 MiB read, and after a 16 MiB write, the connection, still open, holds
 * only what its next 4 KiB request took; after 1 MiB requests it keeps
 * their buffer, which the next request reuses.
 */
START_TEST(test_start_a_connection_keeps_no_buffer_larger_than_a_slot_keeps)
{
	struct rcl_nbd_export ex = memory_export();
	const uint32_t mib = 1 << 20;
	struct served t;

	memset(disk, 0x5a, sizeof(disk));
	/* One thread: each request is answered before the next is read. */
	serve_start(&t, &ex, 1);
	read_whole(t.fd, 1, NBD_DOS_PAYLOAD_MAX);
	read_whole(t.fd, 2, 4096);
	ck_assert_uint_le(rcl_pages_in_use(), 4096);
	send_write_of(t.fd, 3, 0, 16 * mib);
	expect_write_reply(t.fd, 3, 0);
	ck_assert_int_eq(disk[16 * mib - 1], 3);
	read_whole(t.fd, 4, 4096);
	ck_assert_uint_le(rcl_pages_in_use(), 4096);
	read_whole(t.fd, 5, mib);
	read_whole(t.fd, 6, 4096);
	ck_assert_uint_eq(rcl_pages_in_use(), mib);
	serve_hang_up(&t);
	ck_assert_uint_eq(rcl_pages_in_use(), 0);
	serve_stop(&t);
}
END_TEST

static void *stop_thread(void *srv)
{
	rcl_nbd_server_stop(srv);
	return NULL;
}

/*
 * Stop with a request running on each of a connection's 4 threads: every
 * one is answered, whole, before the client sees the end.
 */
START_TEST(test_stop_lets_requests_on_every_thread_finish)
{
	char *dir = unit_tmpdir();
	char *sock = unit_path(dir, "s");
	struct rcl_nbd_server *srv = start_gated(sock, 4);
	pthread_t stopper;
	char byte;
	int fd;

	gate_set(UINT32_MAX);
	fd = transmitting_client(sock);
	for (unsigned i = 0; i < 4; i++)
		send_read(fd, i);
	gate_wait_inside(4);
	ck_assert_int_eq(pthread_create(&stopper, NULL, stop_thread, srv), 0);
	/* Give stop the time to cut the requests; the outcome is the same either way. */
	usleep(100000);
	gate_open();
	expect_read_replies(fd, 4);
	ck_assert_int_eq(recv(fd, &byte, 1, 0), 0);
	pthread_join(stopper, NULL);
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
	tcase_add_test(tc, test_start_a_connection_runs_threads_requests_at_once);
	tcase_add_test(tc, test_start_threads_are_per_connection);
	tcase_add_test(tc, test_start_requests_run_beside_the_reader_only_while_they_wait);
	tcase_add_test(tc, test_start_writes_ending_later_are_answered_when_they_end);
	tcase_add_test(tc, test_start_a_finished_connection_keeps_no_buffers);
	tcase_add_test(tc, test_start_writes_held_later_keep_bounded_buffers);
	tcase_add_test(tc, test_start_a_client_waiting_on_held_writes_is_reported_stalled);
	tcase_add_test(tc, test_start_a_stall_that_comes_after_the_reader_looked_is_reported);
	tcase_add_test(tc, test_start_a_connection_keeps_no_buffer_larger_than_a_slot_keeps);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_nbd_server_address");
	tcase_add_test(tc, test_address_is_the_bound_one);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_nbd_server_connections");
	tcase_add_test(tc, test_connections_counts_clients_as_they_come_and_go);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_nbd_server_stop");
	tcase_add_test(tc, test_stop_disconnects_clients_and_removes_the_socket);
	tcase_add_test(tc, test_stop_lets_requests_on_every_thread_finish);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(nbd_suite());
}
