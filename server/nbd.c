// SPDX-License-Identifier: MIT
/*
 * nbd.c - the NBD server's life cycle: listening (Unix socket or TCP),
 * accepting clients, each connection's first thread (nbd-transmit.c adds
 * the others), and a stop that lets in-flight requests finish before it
 * cuts the clients.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "nbd-internal.h"
#include "nbd-proto.h"

/* How long stop() lets clients take the replies to their last requests. */
#define NBD_STOP_GRACE_SECONDS 5

/* ---- connections ---- */

static void conn_free(struct nbd_conn *conn)
{
	close(conn->fd);
	pthread_mutex_destroy(&conn->read_lock);
	pthread_mutex_destroy(&conn->send_lock);
	pthread_mutex_destroy(&conn->lock);
	pthread_cond_destroy(&conn->all_answered);
	pthread_cond_destroy(&conn->answers_due);
	rcl_free(conn);
}

static void unlink_conn(struct nbd_conn **list, struct nbd_conn *conn)
{
	while (*list != conn)
		list = &(*list)->next;
	*list = conn->next;
}

static void *conn_thread(void *arg)
{
	struct nbd_conn *conn = arg;
	struct rcl_nbd_server *srv = conn->srv;

	if (nbd_handshake(conn)) {
		struct timeval no_timeout = {0};

		setsockopt(conn->fd, SOL_SOCKET, SO_RCVTIMEO, &no_timeout, sizeof(no_timeout));
		nbd_transmit(conn);
	}
	/* Tell the client now; the descriptor closes when the thread is joined. */
	shutdown(conn->fd, SHUT_RDWR);

	pthread_mutex_lock(&srv->lock);
	unlink_conn(&srv->live, conn);
	conn->next = srv->finished;
	srv->finished = conn;
	srv->connections--;
	pthread_cond_broadcast(&srv->conn_gone);
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

/* Join and free the connections whose threads have ended. */
static void reap_finished(struct rcl_nbd_server *srv)
{
	struct nbd_conn *done;

	pthread_mutex_lock(&srv->lock);
	done = srv->finished;
	srv->finished = NULL;
	pthread_mutex_unlock(&srv->lock);
	while (done) {
		struct nbd_conn *next = done->next;

		pthread_join(done->threads[0], NULL);
		conn_free(done);
		done = next;
	}
}

static struct nbd_conn *conn_new(struct rcl_nbd_server *srv, int fd)
{
	struct nbd_conn *conn = rcl_calloc(1, sizeof(*conn));

	if (!conn)
		return NULL;
	conn->srv = srv;
	conn->fd = fd;
	pthread_mutex_init(&conn->read_lock, NULL);
	pthread_mutex_init(&conn->send_lock, NULL);
	pthread_mutex_init(&conn->lock, NULL);
	pthread_cond_init(&conn->all_answered, NULL);
	pthread_cond_init(&conn->answers_due, NULL);
	conn->in.refill = sizeof(conn->in.data);
	conn->nthreads = 1; /* conn_thread, in threads[0] */
	atomic_init(&conn->idle, 1);
	conn->beside = NBD_BESIDE_REQUESTS;
	conn->schedstat_fd = -1;
	return conn;
}

/*
 * A client that stops reading must not hold its connection's threads for
 * ever: its sends time out and the connection ends. One that connects and says nothing
 * must not hold a connection for ever either: the handshake has a receive
 * timeout, lifted for the transmission phase, where idle clients are
 * normal. TCP_NODELAY because a reply is one small header the client
 * waits for (the spec asks for it).
 */
static void tune_client_socket(int fd)
{
	struct timeval send_timeout = {.tv_sec = NBD_SEND_TIMEOUT};
	struct timeval handshake_timeout = {.tv_sec = NBD_HANDSHAKE_TIMEOUT};
	int one = 1;

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof(send_timeout));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &handshake_timeout, sizeof(handshake_timeout));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)); /* fails on Unix: fine */
}

static void serve_client(struct rcl_nbd_server *srv, int fd)
{
	struct nbd_conn *conn;

	pthread_mutex_lock(&srv->lock);
	if (srv->connections >= NBD_MAX_CONNECTIONS) {
		pthread_mutex_unlock(&srv->lock);
		close(fd);
		return;
	}
	conn = conn_new(srv, fd);
	if (!conn || pthread_create(&conn->threads[0], NULL, conn_thread, conn)) {
		pthread_mutex_unlock(&srv->lock);
		if (conn)
			conn_free(conn);
		else
			close(fd);
		return;
	}
	conn->next = srv->live;
	srv->live = conn;
	srv->connections++;
	pthread_mutex_unlock(&srv->lock);
}

static void *accept_thread(void *arg)
{
	struct rcl_nbd_server *srv = arg;
	struct pollfd fds[2] = {{srv->listen_fd, POLLIN, 0}, {srv->wake_pipe[0], POLLIN, 0}};

	for (;;) {
		int fd;

		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[1].revents || fds[0].revents & (POLLERR | POLLHUP | POLLNVAL))
			break;
		if (!(fds[0].revents & POLLIN))
			continue;
		/* The listening socket is non-blocking: a client gone between poll and accept. */
		fd = accept4(srv->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue; /* the client gave up, or out of descriptors for now */
		tune_client_socket(fd);
		reap_finished(srv);
		serve_client(srv, fd);
	}
	return NULL;
}

/* ---- listening ---- */

/* Is a live server answering at @path? (Else the socket file is stale.) */
static bool socket_in_use(const char *path, const struct sockaddr_un *addr)
{
	struct stat st;
	int fd;
	bool in_use;

	if (lstat(path, &st) || !S_ISSOCK(st.st_mode))
		return true; /* not a socket: never delete it */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return true;
	in_use =
	    !connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) || errno != ECONNREFUSED;
	close(fd);
	return in_use;
}

/*
 * Bind, make the file 0600, then listen: nobody can connect before
 * listen(), so the mode is right before the first client whatever the
 * umask, and no process-wide umask change is needed.
 */
static enum rcl_status listen_unix(struct rcl_nbd_server *srv, const char *path,
                                   struct rcl_error *err)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	struct stat st;
	int fd, rc;

	if (strlen(path) >= sizeof(addr.sun_path))
		return rcl_fail(err, RCL_INVALID_PARAM, "socket path '%s' is too long", path);
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot create a Unix socket");
	rc = bind(fd, (struct sockaddr *)&addr, sizeof(addr));
	if (rc && errno == EADDRINUSE && !socket_in_use(path, &addr) && !unlink(path))
		rc = bind(fd, (struct sockaddr *)&addr, sizeof(addr));
	if (rc || chmod(path, 0600) || stat(path, &st) || listen(fd, SOMAXCONN)) {
		int saved = errno;

		close(fd);
		return rcl_fail_errno(err, RCL_SYSTEM, saved, "cannot listen on 'unix:%s': %s",
		                      path, strerror(saved));
	}
	srv->socket_path = rcl_strdup(path);
	if (!srv->socket_path) {
		unlink(path);
		close(fd);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	srv->socket_dev = st.st_dev;
	srv->socket_ino = st.st_ino;
	srv->listen_fd = fd;
	snprintf(srv->address, sizeof(srv->address), "unix:%s", path);
	return RCL_OK;
}

static void format_tcp_address(struct rcl_nbd_server *srv)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[NI_MAXHOST], port[NI_MAXSERV];

	if (getsockname(srv->listen_fd, (struct sockaddr *)&ss, &len) ||
	    getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host), port, sizeof(port),
	                NI_NUMERICHOST | NI_NUMERICSERV))
		return;
	snprintf(srv->address, sizeof(srv->address), ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s",
	         host, port);
}

static int bind_first(const struct addrinfo *list)
{
	int one = 1;

	for (const struct addrinfo *ai = list; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
		                ai->ai_protocol);

		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, SOMAXCONN))
			return fd;
		close(fd);
	}
	return -1;
}

static enum rcl_status listen_tcp(struct rcl_nbd_server *srv, const char *host, unsigned port,
                                  struct rcl_error *err)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
	struct addrinfo *list;
	char service[16];
	int rc;

	if (!host)
		host = "127.0.0.1";
	if (port > 65535)
		return rcl_fail(err, RCL_INVALID_PARAM, "port '%u' is out of range (0-65535)",
		                port);
	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &list);
	if (rc)
		return rcl_fail(err, RCL_SYSTEM, "cannot resolve '%s': %s", host, gai_strerror(rc));
	srv->listen_fd = bind_first(list);
	rc = errno;
	freeaddrinfo(list);
	if (srv->listen_fd < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, rc, "cannot listen on '%s:%u': %s", host,
		                      port, strerror(rc));
	snprintf(srv->address, sizeof(srv->address), "%s:%u", host, port);
	format_tcp_address(srv);
	return RCL_OK;
}

/* ---- the server ---- */

static bool power_of_two(uint32_t n)
{
	return n && !(n & (n - 1));
}

/* The largest power of two not above @n (n > 0). */
static uint32_t round_down_pow2(uint32_t n)
{
	return 1u << (31 - __builtin_clz(n));
}

/*
 * Fill the block sizes the export left 0 with the spec's defaults and fit
 * the rest to the spec's rules for NBD_INFO_BLOCK_SIZE: the preferred size
 * must be a power of two (a RAID stripe often is not: 3 x 64 KiB), so it
 * is rounded down; the maximum is capped at 32 MiB, the most the spec has
 * every client accept without taking it for an attack.
 */
static enum rcl_status settle_block_sizes(struct rcl_nbd_server *srv, struct rcl_error *err)
{
	struct rcl_nbd_export *ex = &srv->export;
	uint32_t floor;

	if (!ex->min_block)
		ex->min_block = 1;
	floor = ex->min_block > 512 ? ex->min_block : 512;
	if (!ex->max_block || ex->max_block > NBD_DOS_PAYLOAD_MAX)
		ex->max_block = NBD_DOS_PAYLOAD_MAX;
	if (!ex->preferred_block)
		ex->preferred_block = floor > 4096 ? floor : 4096;
	if (ex->preferred_block > ex->max_block)
		ex->preferred_block = ex->max_block;
	ex->preferred_block = round_down_pow2(ex->preferred_block);
	if (ex->preferred_block < floor)
		ex->preferred_block = floor;
	srv->max_payload = ex->max_block;
	if (!power_of_two(ex->min_block) || ex->min_block > 65536 ||
	    ex->max_block < ex->preferred_block)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "export '%s' has invalid block sizes %u/%u/%u (the minimum must "
		                "be a power of two up to 64 KiB, the maximum at least 512 and "
		                "the minimum)",
		                ex->name, ex->min_block, ex->preferred_block, ex->max_block);
	return RCL_OK;
}

/* What the protocol can carry (strings of 4 KiB) and the operations needed. */
static enum rcl_status check_export(struct rcl_nbd_server *srv, struct rcl_error *err)
{
	const struct rcl_nbd_export *ex = &srv->export;

	if (strlen(ex->name) > NBD_STRING_MAX ||
	    (ex->description && strlen(ex->description) > NBD_STRING_MAX))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "an export's name and description may have %u bytes at most",
		                NBD_STRING_MAX);
	if (!ex->read || (!ex->write && !ex->read_only))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "export '%s' needs a read and (unless read-only) a write operation",
		                ex->name);
	return settle_block_sizes(srv, err);
}

static uint16_t transmission_flags(const struct rcl_nbd_export *ex)
{
	uint16_t flags =
	    NBD_FLAG_HAS_FLAGS | NBD_FLAG_SEND_FLUSH | NBD_FLAG_SEND_FUA | NBD_FLAG_CAN_MULTI_CONN;

	if (ex->read_only)
		return flags | NBD_FLAG_READ_ONLY;
	if (ex->trim)
		flags |= NBD_FLAG_SEND_TRIM;
	if (ex->zero)
		flags |= NBD_FLAG_SEND_WRITE_ZEROES;
	return flags;
}

static void server_free(struct rcl_nbd_server *srv)
{
	rcl_free((char *)srv->export.name);
	rcl_free((char *)srv->export.description);
	rcl_free(srv->socket_path);
	pthread_mutex_destroy(&srv->lock);
	pthread_cond_destroy(&srv->conn_gone);
	rcl_free(srv);
}

static struct rcl_nbd_server *server_new(const struct rcl_nbd_export *export, unsigned threads)
{
	struct rcl_nbd_server *srv = rcl_calloc(1, sizeof(*srv));

	if (!srv)
		return NULL;
	pthread_mutex_init(&srv->lock, NULL);
	pthread_cond_init(&srv->conn_gone, NULL);
	srv->listen_fd = srv->wake_pipe[0] = srv->wake_pipe[1] = -1;
	srv->export = *export;
	srv->export.name = rcl_strdup(export->name ? export->name : "");
	srv->export.description = export->description ? rcl_strdup(export->description) : NULL;
	srv->conn_threads = threads < NBD_CONN_THREADS_MAX ? threads : NBD_CONN_THREADS_MAX;
	if (!srv->export.name || (export->description && !srv->export.description)) {
		server_free(srv);
		return NULL;
	}
	return srv;
}

static enum rcl_status spawn_threads(struct rcl_nbd_server *srv, struct rcl_error *err)
{
	int rc = 0;

	if (pipe2(srv->wake_pipe, O_CLOEXEC))
		rc = errno;
	else
		rc = pthread_create(&srv->accept_thread, NULL, accept_thread, srv);
	if (!rc)
		return RCL_OK;
	return rcl_fail_errno(err, RCL_SYSTEM, rc, "cannot start the NBD server threads: %s",
	                      strerror(rc));
}

/*
 * The server's threads (the accept thread, and the connections' threads,
 * which inherit its mask) block every signal, so the process's handlers and sigwait() run
 * in its own threads, never in the middle of a reply.
 */
static enum rcl_status start_threads(struct rcl_nbd_server *srv, struct rcl_error *err)
{
	sigset_t all, saved;
	enum rcl_status status;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	status = spawn_threads(srv, err);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return status;
}

static void close_listener(struct rcl_nbd_server *srv)
{
	struct stat st;

	if (srv->listen_fd >= 0)
		close(srv->listen_fd);
	/* Unlink only the socket we made, not one a later server put there. */
	if (srv->socket_path && !lstat(srv->socket_path, &st) && st.st_dev == srv->socket_dev &&
	    st.st_ino == srv->socket_ino)
		unlink(srv->socket_path);
	if (srv->wake_pipe[0] >= 0)
		close(srv->wake_pipe[0]);
	if (srv->wake_pipe[1] >= 0)
		close(srv->wake_pipe[1]);
}

enum rcl_status rcl_nbd_server_start(const struct rcl_nbd_export *export,
                                     const struct rcl_nbd_listen *where, unsigned threads,
                                     struct rcl_nbd_server **out, struct rcl_error *err)
{
	struct rcl_nbd_server *srv;
	enum rcl_status status;

	if (!threads)
		threads = 1;
	srv = server_new(export, threads);
	if (!srv)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	srv->transmission_flags = transmission_flags(export);
	status = check_export(srv, err);
	if (!status)
		status = where->socket_path ? listen_unix(srv, where->socket_path, err)
		                            : listen_tcp(srv, where->host, where->port, err);
	if (!status)
		status = start_threads(srv, err);
	if (status) {
		close_listener(srv);
		server_free(srv);
		return status;
	}
	*out = srv;
	return RCL_OK;
}

const char *rcl_nbd_server_address(const struct rcl_nbd_server *srv)
{
	return srv->address;
}

unsigned rcl_nbd_server_connections(const struct rcl_nbd_server *srv)
{
	struct rcl_nbd_server *s = (struct rcl_nbd_server *)srv;
	unsigned n;

	pthread_mutex_lock(&s->lock);
	n = s->connections;
	pthread_mutex_unlock(&s->lock);
	return n;
}

static void shutdown_clients(struct rcl_nbd_server *srv, int how)
{
	for (struct nbd_conn *conn = srv->live; conn; conn = conn->next)
		shutdown(conn->fd, how);
}

/*
 * Cut the clients' requests (SHUT_RD: readers see end of file) so that
 * those in flight finish and their replies go out; after the grace period,
 * cut the replies too, for clients that stopped reading.
 */
static void disconnect_clients(struct rcl_nbd_server *srv)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += NBD_STOP_GRACE_SECONDS;
	pthread_mutex_lock(&srv->lock);
	shutdown_clients(srv, SHUT_RD);
	while (srv->live && pthread_cond_timedwait(&srv->conn_gone, &srv->lock, &deadline) == 0)
		;
	shutdown_clients(srv, SHUT_RDWR);
	while (srv->live)
		pthread_cond_wait(&srv->conn_gone, &srv->lock);
	pthread_mutex_unlock(&srv->lock);
}

void rcl_nbd_server_stop(struct rcl_nbd_server *srv)
{
	if (!srv)
		return;
	/* The accept thread first, so no client arrives during the rest. */
	if (write(srv->wake_pipe[1], "", 1) < 0)
		shutdown(srv->listen_fd, SHUT_RDWR);
	pthread_join(srv->accept_thread, NULL);
	disconnect_clients(srv);
	reap_finished(srv);
	close_listener(srv);
	server_free(srv);
}
