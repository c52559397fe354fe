// SPDX-License-Identifier: MIT
/*
 * nbd-transmit.c - the NBD transmission phase: each of a connection's
 * threads in turn reads one request under the read lock, checks it, runs
 * the export's operation and sends the reply under the send lock (simple
 * replies, or for READ a single structured chunk once the client
 * negotiated them); see nbd-internal.h for how threads come and go. A
 * write the export ends later is answered by whoever ends it.
 *
 * Requests that fail the checks (bounds, alignment, flags, read-only) are
 * answered at once and never reach the export. Replies may leave out of
 * order, as the spec allows; the send lock keeps each one whole on the wire.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "nbd-internal.h"
#include "nbd-proto.h"

/*
 * The source of WRITE_ZEROES with NO_HOLE, which must allocate: written
 * through the export's write operation. Never written to; .bss, so it
 * costs no memory until read.
 */
static uint8_t zero_source[1u << 20];

/* ---- replies ---- */

/* A reply that cannot be sent ends the connection: wake its reader. */
static void send_iov(struct nbd_conn *conn, struct iovec *iov, int iovcnt)
{
	if (sock_send_iov(conn->fd, iov, iovcnt))
		shutdown(conn->fd, SHUT_RDWR);
}

static void send_simple_reply(struct nbd_conn *conn, const struct nbd_req *req)
{
	uint8_t head[NBD_SIMPLE_REPLY_SIZE];
	uint32_t error = req->error;
	bool with_data = req->type == NBD_CMD_READ && !error && req->length;
	struct iovec iov[2] = {{head, sizeof(head)}, {req->buf, req->length}};

	nbd_put32(head, NBD_MAGIC_SIMPLE_REPLY);
	nbd_put32(head + 4, error);
	nbd_put64(head + 8, req->cookie);
	send_iov(conn, iov, with_data ? 2 : 1);
}

/*
 * A READ's structured reply: one chunk, flagged DONE, holding the data
 * (OFFSET_DATA), the error (ERROR, no message) or, for a zero-length read,
 * nothing (NONE: a data chunk must describe at least one byte).
 */
static void send_read_chunk(struct nbd_conn *conn, const struct nbd_req *req)
{
	uint8_t head[NBD_CHUNK_HEADER_SIZE + 8];
	uint32_t error = req->error;
	struct iovec iov[2] = {{head, sizeof(head)}, {req->buf, req->length}};
	uint16_t type = error         ? NBD_REPLY_TYPE_ERROR
	                : req->length ? NBD_REPLY_TYPE_OFFSET_DATA
	                              : NBD_REPLY_TYPE_NONE;
	uint32_t payload = 0;
	int iovcnt = 1;

	nbd_put32(head, NBD_MAGIC_STRUCTURED_REPLY);
	nbd_put16(head + 4, NBD_REPLY_FLAG_DONE);
	nbd_put16(head + 6, type);
	nbd_put64(head + 8, req->cookie);
	if (type == NBD_REPLY_TYPE_ERROR) {
		nbd_put32(head + 20, error);
		nbd_put16(head + 24, 0); /* message length */
		payload = 6;
	} else if (type == NBD_REPLY_TYPE_OFFSET_DATA) {
		nbd_put64(head + 20, req->offset);
		payload = 8 + req->length;
		iovcnt = 2;
	}
	nbd_put32(head + 16, payload);
	iov[0].iov_len = NBD_CHUNK_HEADER_SIZE + (payload < 8 ? payload : 8);
	send_iov(conn, iov, iovcnt);
}

/*
 * Once structured replies are negotiated a READ must get one, even for an
 * early EINVAL; other commands may keep simple replies (no payload).
 */
static void send_reply(struct nbd_conn *conn, const struct nbd_req *req)
{
	pthread_mutex_lock(&conn->send_lock);
	if (conn->structured && req->type == NBD_CMD_READ)
		send_read_chunk(conn, req);
	else
		send_simple_reply(conn, req);
	pthread_mutex_unlock(&conn->send_lock);
}

/* The spec's fixed error values, from the export's negative errno. */
static uint32_t nbd_error(int rc)
{
	switch (-rc) {
	case 0:
		return 0;
	case EPERM:
	case EROFS:
		return NBD_EPERM;
	case ENOMEM:
		return NBD_ENOMEM;
	case EINVAL:
		return NBD_EINVAL;
	case ENOSPC:
	case EDQUOT:
	case EFBIG:
		return NBD_ENOSPC;
	case EOVERFLOW:
		return NBD_EOVERFLOW;
	case ENOTSUP:
		return NBD_ENOTSUP;
	case ESHUTDOWN:
		return NBD_ESHUTDOWN;
	default:
		return NBD_EIO;
	}
}

/* ---- running requests ---- */

static int write_zero_bytes(const struct rcl_nbd_export *ex, uint64_t off, uint64_t len, bool fua)
{
	while (len) {
		size_t chunk = len < sizeof(zero_source) ? (size_t)len : sizeof(zero_source);
		int rc = ex->write(ex->ctx, zero_source, chunk, off, fua);

		if (rc)
			return rc;
		off += chunk;
		len -= chunk;
	}
	return 0;
}

/* Free a list of request slots (linked by @next) and their buffers. */
static void slots_free(struct nbd_req *list)
{
	while (list) {
		struct nbd_req *req = list;

		list = req->next;
		rcl_pages_free(req->buf, req->cap);
		rcl_free(req);
	}
}

/* One write ending later less to answer (the connection's lock held). */
static void one_answered(struct nbd_conn *conn)
{
	if (!--conn->later)
		pthread_cond_broadcast(&conn->all_answered);
}

/* Write @req, ended later, is answered: its slot is a spare (the connection's lock held). */
static void answered_slot(struct nbd_conn *conn, struct nbd_req *req)
{
	req->next = conn->spares;
	conn->spares = req;
	conn->later_bytes -= req->cap;
	conn->spare_bytes += req->cap;
	one_answered(conn);
}

/* The connection this thread serves requests of, if any. */
static _Thread_local struct nbd_conn *serving;

/*
 * The connection's answerer: sends the replies of writes ended on other
 * threads, which must not wait for this client to read.
 */
static void *answerer(void *arg)
{
	struct nbd_conn *conn = arg;

	pthread_mutex_lock(&conn->lock);
	for (;;) {
		struct nbd_req *due;

		while (!conn->answers && !conn->answerer_stop)
			pthread_cond_wait(&conn->answers_due, &conn->lock);
		if (!conn->answers)
			break;
		due = conn->answers;
		conn->answers = NULL;
		pthread_mutex_unlock(&conn->lock);
		for (struct nbd_req *req = due; req; req = req->next)
			send_reply(conn, req);
		pthread_mutex_lock(&conn->lock);
		while (due) {
			struct nbd_req *req = due;

			due = req->next;
			answered_slot(conn, req);
		}
	}
	pthread_mutex_unlock(&conn->lock);
	return NULL;
}

/* Leave @req's reply to the answerer, started if need be. Return: false when it cannot be. */
static bool leave_to_answerer(struct nbd_conn *conn, struct nbd_req *req)
{
	bool left = true;

	pthread_mutex_lock(&conn->lock);
	if (!conn->answerer_running)
		conn->answerer_running = !pthread_create(&conn->answerer, NULL, answerer, conn);
	if (conn->answerer_running) {
		req->next = conn->answers;
		conn->answers = req;
		pthread_cond_signal(&conn->answers_due);
	} else {
		left = false;
	}
	pthread_mutex_unlock(&conn->lock);
	return left;
}

/*
 * A write the export ended later: answer it, and its slot is a spare. A
 * thread of this connection sends the reply itself; any other thread (a
 * neighbour's, the cache's writer) leaves it to the answerer.
 */
static void write_ended(void *token, int rc)
{
	struct nbd_req *req = token;
	struct nbd_conn *conn = req->conn;

	req->error = nbd_error(rc);
	if (serving != conn && leave_to_answerer(conn, req))
		return;
	send_reply(conn, req);
	pthread_mutex_lock(&conn->lock);
	answered_slot(conn, req);
	pthread_mutex_unlock(&conn->lock);
}

/*
 * Count @req a write ending later, its buffer lent, if its buffer fits
 * within NBD_LENT_BYTES with those of the other writes ending later;
 * spares make room (moved to *@dropped, to be freed without the lock):
 * they are only kept for reuse, and are not dropped for a write that
 * would not fit even without them. The connection's lock held.
 * Return: whether it fits.
 */
static bool lend_slot(struct nbd_conn *conn, struct nbd_req *req, struct nbd_req **dropped)
{
	if (conn->later_bytes + req->cap > NBD_LENT_BYTES)
		return false;
	while (conn->later_bytes + conn->spare_bytes + req->cap > NBD_LENT_BYTES && conn->spares) {
		struct nbd_req *spare = conn->spares;

		conn->spares = spare->next;
		conn->spare_bytes -= spare->cap;
		spare->next = *dropped;
		*dropped = spare;
	}
	conn->later_bytes += req->cap;
	conn->later++;
	return true;
}

/*
 * Run a WRITE through write_later, counted from now until answered; past
 * NBD_LATER_MAX such writes or NBD_LENT_BYTES of their buffers, through
 * write, which waits.
 */
static int write_later(const struct rcl_nbd_export *ex, struct nbd_req *req, bool fua)
{
	struct nbd_conn *conn = req->conn;
	struct nbd_req *dropped = NULL;
	bool later;
	int rc;

	pthread_mutex_lock(&conn->lock);
	later = conn->later < NBD_LATER_MAX && lend_slot(conn, req, &dropped);
	pthread_mutex_unlock(&conn->lock);
	slots_free(dropped);
	if (!later)
		return ex->write(ex->ctx, req->buf, req->length, req->offset, fua);
	rc = ex->write_later(ex->ctx, req->buf, req->length, req->offset, fua, conn, write_ended,
	                     req);
	if (rc != RCL_NBD_LATER) {
		pthread_mutex_lock(&conn->lock);
		conn->later_bytes -= req->cap;
		one_answered(conn);
		pthread_mutex_unlock(&conn->lock);
	}
	return rc;
}

/* Return: the export's result, or RCL_NBD_LATER for a write it ends later. */
static int run_request(const struct rcl_nbd_export *ex, struct nbd_req *req)
{
	bool fua = req->flags & NBD_CMD_FLAG_FUA;
	int rc;

	switch (req->type) {
	case NBD_CMD_READ:
		return ex->read(ex->ctx, req->buf, req->length, req->offset);
	case NBD_CMD_WRITE:
		if (ex->write_later)
			return write_later(ex, req, fua);
		return ex->write(ex->ctx, req->buf, req->length, req->offset, fua);
	case NBD_CMD_FLUSH:
		return ex->flush(ex->ctx);
	case NBD_CMD_TRIM:
		rc = ex->trim(ex->ctx, req->length, req->offset);
		return rc || !fua ? rc : ex->flush(ex->ctx);
	case NBD_CMD_WRITE_ZEROES:
		if (req->flags & NBD_CMD_FLAG_NO_HOLE)
			return write_zero_bytes(ex, req->offset, req->length, fua);
		return ex->zero(ex->ctx, req->length, req->offset, fua);
	default: /* the reader lets no other type through */
		return -EINVAL;
	}
}

/* ---- the reader ---- */

static uint16_t allowed_flags(const struct rcl_nbd_server *srv, uint16_t type)
{
	/* FUA is valid on every command once SEND_FUA is advertised. */
	uint16_t fua = srv->transmission_flags & NBD_FLAG_SEND_FUA ? NBD_CMD_FLAG_FUA : 0;

	return type == NBD_CMD_WRITE_ZEROES ? fua | NBD_CMD_FLAG_NO_HOLE : fua;
}

static bool type_supported(const struct rcl_nbd_server *srv, uint16_t type)
{
	switch (type) {
	case NBD_CMD_READ:
	case NBD_CMD_WRITE:
		return true;
	case NBD_CMD_FLUSH:
		return srv->transmission_flags & NBD_FLAG_SEND_FLUSH;
	case NBD_CMD_TRIM:
		return srv->transmission_flags & NBD_FLAG_SEND_TRIM;
	case NBD_CMD_WRITE_ZEROES:
		return srv->transmission_flags & NBD_FLAG_SEND_WRITE_ZEROES;
	default:
		return false;
	}
}

/* The error the spec asks for when a request cannot run, or 0. */
static uint32_t check_request(const struct rcl_nbd_server *srv, const struct nbd_req *req)
{
	const struct rcl_nbd_export *ex = &srv->export;
	bool writes = req->type == NBD_CMD_WRITE || req->type == NBD_CMD_TRIM ||
	              req->type == NBD_CMD_WRITE_ZEROES;
	bool payload = req->type == NBD_CMD_READ || req->type == NBD_CMD_WRITE;

	if (writes && ex->read_only) /* before "not advertised": the spec asks EPERM */
		return NBD_EPERM;
	if (!type_supported(srv, req->type) || req->flags & ~allowed_flags(srv, req->type))
		return NBD_EINVAL;
	if (req->type == NBD_CMD_FLUSH)
		return 0; /* offset and length are reserved */
	/* EOVERFLOW is only for lengths without payload; TRIM and ZEROES may exceed it. */
	if (payload && req->length > srv->max_payload)
		return NBD_EINVAL;
	if (req->offset % ex->min_block || req->length % ex->min_block)
		return NBD_EINVAL;
	if (req->offset > ex->bytes || req->length > ex->bytes - req->offset)
		return writes && req->type != NBD_CMD_TRIM ? NBD_ENOSPC : NBD_EINVAL;
	return 0;
}

/*
 * Grow @req's buffer to @len: fresh pages rather than realloc(), which
 * would copy contents nobody needs. Once grown it is reused (AddressSanitizer
 * watching the bytes past @len). Pages of its
 * own, not malloc()'s: a slot passes between the connection's threads, and
 * a buffer freed into another thread's arena would stay there, the
 * process's memory growing with every client served. Page-aligned: the
 * parity code wants its data aligned (a misaligned write would be copied
 * to aligned memory first) and page-aligned copies into the page cache are
 * the cheapest.
 */
static bool req_reserve(struct nbd_req *req, size_t len)
{
	if (req->cap >= len) {
		rcl_pages_use(req->buf, req->cap, len);
		return true;
	}
	rcl_pages_free(req->buf, req->cap);
	req->buf = rcl_pages_alloc(len);
	req->cap = req->buf ? len : 0;
	return req->buf != NULL;
}

static void parse_request(const uint8_t *head, struct nbd_req *req)
{
	req->flags = nbd_get16(head + 4);
	req->type = nbd_get16(head + 6);
	req->cookie = nbd_get64(head + 8);
	req->offset = nbd_get64(head + 16);
	req->length = nbd_get32(head + 24);
}

/*
 * Take in a WRITE's payload: into @req's buffer if it will run, else read
 * and dropped to stay in step with the client, unless it is too large to
 * be anything but an attack. Return: false when the connection must end.
 */
static bool take_payload(struct nbd_conn *conn, struct nbd_req *req, bool runs)
{
	if (runs)
		return !nbd_inbuf_recv(conn->fd, &conn->in, req->buf, req->length);
	return req->length <= NBD_DOS_PAYLOAD_MAX &&
	       !nbd_inbuf_recv(conn->fd, &conn->in, NULL, req->length);
}

/*
 * When the reader waits for the client with nothing of it buffered
 * (@conn->awaiting), no thread runs a request, and writes of the client
 * end later, the client most likely waits for their replies before it
 * sends more (its queue is full of them), and the export holding them for
 * neighbours only delays it: tell the export (which may end them on this
 * thread), unless a non-blocking peek finds that the client has sent more.
 * Both sides of the wait check: the reader as it starts waiting, and a
 * thread whose request became a write ending later; else such a write,
 * held just after the reader looked (on a connection of several threads),
 * would wait out its hold.
 */
static void tell_if_stalled(struct nbd_conn *conn)
{
	const struct rcl_nbd_export *ex = &conn->srv->export;
	bool stalled;
	uint8_t byte;

	pthread_mutex_lock(&conn->lock);
	stalled = atomic_load(&conn->awaiting) && conn->later &&
	          atomic_load(&conn->idle) == conn->nthreads;
	pthread_mutex_unlock(&conn->lock);
	if (stalled && recv(conn->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) < 0 && errno == EAGAIN)
		ex->stalled(ex->ctx, conn);
}

/* Read the next request's header, after telling the export if the client stalled. */
static bool read_header(struct nbd_conn *conn, uint8_t *head)
{
	bool awaiting = conn->srv->export.stalled && conn->in.start == conn->in.end;
	int rc;

	if (awaiting) {
		atomic_store(&conn->awaiting, true);
		tell_if_stalled(conn);
	}
	rc = nbd_inbuf_recv(conn->fd, &conn->in, head, NBD_REQUEST_SIZE);
	if (awaiting)
		atomic_store(&conn->awaiting, false);
	return !rc && nbd_get32(head) == NBD_MAGIC_REQUEST;
}

/*
 * Read one request (header and payload) into @req and check it; *@runs
 * says whether the export has work to do (else the reply is due at once:
 * a failed check, or length 0). The caller holds the read lock.
 * Return: false when there are no more requests (the connection ends).
 */
static bool read_request(struct nbd_conn *conn, struct nbd_req *req, bool *runs)
{
	uint8_t head[NBD_REQUEST_SIZE];

	if (!read_header(conn, head))
		return false;
	parse_request(head, req);
	if (req->type == NBD_CMD_DISC)
		return false;
	req->error = check_request(conn->srv, req);
	if (!req->error && (req->type == NBD_CMD_READ || req->type == NBD_CMD_WRITE) &&
	    !req_reserve(req, req->length))
		req->error = NBD_ENOMEM;
	*runs = !req->error && (req->length || req->type == NBD_CMD_FLUSH);
	/* Large writes tend to come in runs: after one, take the next header alone. */
	conn->in.refill = req->type == NBD_CMD_WRITE && req->length > sizeof(conn->in.data) / 4
	                      ? NBD_REQUEST_SIZE
	                      : sizeof(conn->in.data);
	return req->type != NBD_CMD_WRITE || take_payload(conn, req, *runs);
}

/* ---- the connection's threads ---- */

static void *request_thread(void *arg);

/*
 * Add a thread to @conn, unless it has its limit or is ending. Called by
 * a thread that took the last idle one's place: without it the next
 * request would wait for a running one to finish.
 */
static void add_thread(struct nbd_conn *conn)
{
	pthread_mutex_lock(&conn->lock);
	if (!conn->closed && conn->nthreads < conn->srv->conn_threads) {
		atomic_fetch_add(&conn->idle, 1);
		if (pthread_create(&conn->threads[conn->nthreads], NULL, request_thread, conn))
			atomic_fetch_sub(&conn->idle, 1); /* serve with the threads it has */
		else
			conn->nthreads++;
	}
	pthread_mutex_unlock(&conn->lock);
}

/* Between requests: @req's buffer goes if it is larger than the slot keeps. */
static void slot_shrink(struct nbd_req *req)
{
	if (req->cap <= NBD_SLOT_KEEP_BYTES)
		return;
	rcl_pages_free(req->buf, req->cap);
	req->buf = NULL;
	req->cap = 0;
}

/* This thread's id, once known (0 before). */
static _Thread_local pid_t thread_id;

/*
 * Open the scheduler statistics (/proc/thread-self/schedstat) of the
 * thread running the reader's requests, unless open already: the reader
 * changes threads seldom once its requests run on it, and one file per
 * connection rather than per thread keeps a busy server's descriptors to
 * its clients'. The read lock held. Return: the file, or -1 when the
 * kernel keeps no statistics.
 */
static int reader_schedstat(struct nbd_conn *conn)
{
	if (!thread_id)
		thread_id = gettid();
	if (conn->schedstat_tid != thread_id) {
		if (conn->schedstat_fd >= 0)
			close(conn->schedstat_fd);
		conn->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
		conn->schedstat_tid = thread_id;
	}
	return conn->schedstat_fd;
}

/* A request's clocks: wall time, and this thread's time on a CPU and queued for one. */
struct run_clock {
	uint64_t wall_ns, cpu_ns, queued_ns;
	bool known;
};

/*
 * Read the clocks of the reader's thread. The CPU time comes from the
 * thread's clock, which counts up to now; the schedstat file's second
 * field is its time queued for a CPU (its first counts only up to the
 * thread's last scheduling event, so a request would seem to sleep).
 */
static void run_clock_read(struct nbd_conn *conn, struct run_clock *c)
{
	int fd = reader_schedstat(conn);
	char text[96];
	ssize_t n = fd < 0 ? -1 : pread(fd, text, sizeof(text) - 1, 0);

	/* An open file that cannot be read: its thread is gone, its id reused. */
	if (n <= 0 && fd >= 0)
		conn->schedstat_tid = 0;
	c->wall_ns = rcl_clock_ns(CLOCK_MONOTONIC);
	c->known = n > 0;
	if (!c->known)
		return;
	text[n] = '\0';
	c->cpu_ns = rcl_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	c->known = sscanf(text, "%*u %" SCNu64, &c->queued_ns) == 1;
}

/*
 * Count a request the reader ran, from @from to @to, for itself and the
 * NBD_WAIT_SAMPLE - 1 after it, which are not measured, in the
 * connection's wait score: time asleep (for a device, a lock, a hold) adds
 * NBD_WAIT_WEIGHT times itself, time on the CPU takes itself off. Time
 * queued for a CPU is neither: every CPU was busy, and more threads would
 * not help. Unknown clocks count the whole run as asleep. Once the score
 * reaches NBD_WAIT_LIMIT_NS (or one request sleeps that long), the next
 * NBD_BESIDE_REQUESTS requests run beside the reader. The read lock held.
 */
static void note_wait(struct nbd_conn *conn, const struct run_clock *from,
                      const struct run_clock *to)
{
	bool known = from->known && to->known;
	uint64_t took = to->wall_ns - from->wall_ns;
	uint64_t ran = known ? to->cpu_ns - from->cpu_ns : 0;
	uint64_t busy = ran + (known ? to->queued_ns - from->queued_ns : 0);
	uint64_t slept = took > busy ? took - busy : 0;

	if (slept >= NBD_WAIT_LIMIT_NS) { /* one wait that long is reason enough */
		conn->wait_score = NBD_WAIT_LIMIT_NS;
	} else {
		conn->wait_score += slept * NBD_WAIT_WEIGHT * NBD_WAIT_SAMPLE;
		ran *= NBD_WAIT_SAMPLE;
		conn->wait_score -= conn->wait_score < ran ? conn->wait_score : ran;
	}
	if (conn->wait_score >= NBD_WAIT_LIMIT_NS) {
		conn->wait_score = 0;
		conn->beside = NBD_BESIDE_REQUESTS;
		conn->unmeasured = 0; /* the first back on the reader is measured */
	}
}

/* Run @req on the reader, measuring one request in NBD_WAIT_SAMPLE. The read lock held. */
static int run_on_reader(struct nbd_conn *conn, struct nbd_req *req)
{
	struct run_clock from, to;
	int rc;

	if (conn->unmeasured) {
		conn->unmeasured--;
		return run_request(&conn->srv->export, req);
	}
	conn->unmeasured = NBD_WAIT_SAMPLE - 1;
	run_clock_read(conn, &from);
	rc = run_request(&conn->srv->export, req);
	run_clock_read(conn, &to);
	note_wait(conn, &from, &to);
	return rc;
}

/*
 * Reply to the request in slot *@slot, which ran with result @rc, unless
 * it is a write that ends later: that one keeps the slot (*@slot becomes
 * NULL).
 */
static void answer(struct nbd_conn *conn, struct nbd_req **slot, int rc)
{
	struct nbd_req *req = *slot;

	if (rc == RCL_NBD_LATER) {
		*slot = NULL;
		return;
	}
	req->error = nbd_error(rc);
	send_reply(conn, req);
}

/*
 * Serve one request on this thread in slot *@slot, from reading it to
 * sending its reply; a write ended later keeps the slot (*@slot becomes
 * NULL). Called with the read lock held, and returns with it held.
 *
 * While the connection's requests do not wait, the reader runs each
 * itself and keeps the lock: no other thread wakes, and the next request
 * is read as soon as this one is done. When they wait (see note_wait()),
 * the next NBD_BESIDE_REQUESTS run beside the reader: a thread lets go of
 * the lock before it runs its request, so that another reads (and runs)
 * the next while this one waits. Then the reader runs them again, and
 * measures again: how much requests wait is measured only there, as
 * beside the reader they also wait for each other.
 *
 * Return: false when the connection has no more requests.
 */
static bool serve_one(struct nbd_conn *conn, struct nbd_req **slot)
{
	const struct rcl_nbd_export *ex = &conn->srv->export;
	struct nbd_req *req = *slot;
	bool runs = false;
	int rc;

	if (conn->ending || !read_request(conn, req, &runs)) {
		conn->ending = true;
		return false;
	}
	if (!runs) {
		send_reply(conn, req);
		return true;
	}
	if (!conn->beside) {
		answer(conn, slot, run_on_reader(conn, req));
		return true;
	}
	conn->beside--;
	pthread_mutex_unlock(&conn->read_lock);
	if (atomic_fetch_sub(&conn->idle, 1) == 1)
		add_thread(conn);
	rc = run_request(ex, req);
	answer(conn, slot, rc);
	atomic_fetch_add(&conn->idle, 1);
	/* Only a write ended later can leave the client stalled: a reply lets it send more. */
	if (rc == RCL_NBD_LATER && atomic_load(&conn->awaiting))
		tell_if_stalled(conn);
	pthread_mutex_lock(&conn->read_lock);
	return true;
}

/* A request slot: a spare, or a new one. NULL when out of memory. */
static struct nbd_req *take_slot(struct nbd_conn *conn)
{
	struct nbd_req *req;

	pthread_mutex_lock(&conn->lock);
	req = conn->spares;
	if (req) {
		conn->spares = req->next;
		conn->spare_bytes -= req->cap;
	}
	pthread_mutex_unlock(&conn->lock);
	if (!req && (req = rcl_calloc(1, sizeof(*req))))
		req->conn = conn;
	return req;
}

/*
 * Serve requests until the connection has no more. A thread that cannot
 * have a slot (out of memory) ends, no longer counted idle: the others
 * serve on, and add a thread again when they all are busy.
 */
static void serve_requests(struct nbd_conn *conn)
{
	struct nbd_req *req = NULL;
	bool more = true;

	serving = conn;
	pthread_mutex_lock(&conn->read_lock);
	while (more) {
		if (req) {
			slot_shrink(req);
		} else if (!(req = take_slot(conn))) {
			atomic_fetch_sub(&conn->idle, 1);
			break;
		}
		more = serve_one(conn, &req);
	}
	pthread_mutex_unlock(&conn->read_lock);
	if (req) {
		req->next = NULL;
		slots_free(req);
	}
}

static void *request_thread(void *arg)
{
	serve_requests(arg);
	return NULL;
}

void nbd_transmit(struct nbd_conn *conn)
{
	bool answering;
	unsigned n;

	serve_requests(conn);
	/* The spec: handle all outstanding requests, then close. */
	pthread_mutex_lock(&conn->lock);
	conn->closed = true;
	n = conn->nthreads;
	pthread_mutex_unlock(&conn->lock);
	for (unsigned i = 1; i < n; i++)
		pthread_join(conn->threads[i], NULL);
	/* Writes ending later still owe their replies, and their slots are lent out. */
	pthread_mutex_lock(&conn->lock);
	while (conn->later)
		pthread_cond_wait(&conn->all_answered, &conn->lock);
	conn->answerer_stop = true;
	pthread_cond_signal(&conn->answers_due);
	answering = conn->answerer_running;
	pthread_mutex_unlock(&conn->lock);
	if (answering)
		pthread_join(conn->answerer, NULL);
	/*
	 * Every slot left is a spare now. Free them here rather than with the
	 * connection, which is freed only when its server next accepts one or
	 * stops: an export whose client left would keep every buffer.
	 */
	slots_free(conn->spares);
	conn->spares = NULL;
	if (conn->schedstat_fd >= 0)
		close(conn->schedstat_fd);
	conn->schedstat_fd = -1;
}
