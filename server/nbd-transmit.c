// SPDX-License-Identifier: MIT
/*
 * nbd-transmit.c - the NBD transmission phase: each connection's reader
 * checks requests and queues them in its slots; the shared workers run the
 * export's operations and send the replies (simple ones, or for READ a
 * single structured chunk once the client negotiated them).
 *
 * Requests that fail the checks (bounds, alignment, flags, read-only) are
 * answered by the reader at once and never reach a worker or the export.
 * Replies may leave out of order, as the spec allows; one sender at a time
 * per connection (deliver()) keeps each one whole on the wire.
 */
#include <errno.h>
#include <sys/socket.h>

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
	if (nbd_send_iov(conn->fd, iov, iovcnt))
		shutdown(conn->fd, SHUT_RDWR);
}

static void send_simple_reply(struct nbd_conn *conn, const struct nbd_slot *req)
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
static void send_read_chunk(struct nbd_conn *conn, const struct nbd_slot *req)
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
static void send_reply(struct nbd_conn *conn, const struct nbd_slot *req)
{
	if (conn->structured && req->type == NBD_CMD_READ)
		send_read_chunk(conn, req);
	else
		send_simple_reply(conn, req);
}

/* Back to the free list; the caller holds @conn->lock. */
static void give_back(struct nbd_conn *conn, struct nbd_slot *slot)
{
	slot->next = conn->free_slots;
	conn->free_slots = slot;
	conn->inflight--;
	pthread_cond_broadcast(&conn->slot_done);
}

/*
 * Send @slot's reply and free the slot. If another thread is sending on
 * this connection, leave the reply to it; else send, then send whatever
 * the others left meanwhile.
 */
static void deliver(struct nbd_slot *slot)
{
	struct nbd_conn *conn = slot->conn;
	bool more;

	slot->next = NULL;
	pthread_mutex_lock(&conn->lock);
	if (conn->sending) {
		if (conn->replies_tail)
			conn->replies_tail->next = slot;
		else
			conn->replies = slot;
		conn->replies_tail = slot;
		pthread_mutex_unlock(&conn->lock);
		return;
	}
	conn->sending = true;
	pthread_mutex_unlock(&conn->lock);

	do {
		struct nbd_slot *next;

		send_reply(conn, slot);
		pthread_mutex_lock(&conn->lock);
		next = conn->replies;
		if (next) {
			conn->replies = next->next;
			if (!conn->replies)
				conn->replies_tail = NULL;
		}
		more = next != NULL;
		conn->sending = more;
		give_back(conn, slot);
		/* With nothing more to send the connection may go after this unlock. */
		pthread_mutex_unlock(&conn->lock);
		slot = next;
	} while (more);
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

/* ---- workers ---- */

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

static int run_request(const struct rcl_nbd_export *ex, struct nbd_slot *slot)
{
	bool fua = slot->flags & NBD_CMD_FLAG_FUA;
	int rc;

	switch (slot->type) {
	case NBD_CMD_READ:
		return ex->read(ex->ctx, slot->buf, slot->length, slot->offset);
	case NBD_CMD_WRITE:
		return ex->write(ex->ctx, slot->buf, slot->length, slot->offset, fua);
	case NBD_CMD_FLUSH:
		return ex->flush(ex->ctx);
	case NBD_CMD_TRIM:
		rc = ex->trim(ex->ctx, slot->length, slot->offset);
		return rc || !fua ? rc : ex->flush(ex->ctx);
	case NBD_CMD_WRITE_ZEROES:
		if (slot->flags & NBD_CMD_FLAG_NO_HOLE)
			return write_zero_bytes(ex, slot->offset, slot->length, fua);
		return ex->zero(ex->ctx, slot->length, slot->offset, fua);
	default: /* the reader lets no other type through */
		return -EINVAL;
	}
}

static struct nbd_slot *next_work(struct rcl_nbd_server *srv)
{
	struct nbd_slot *slot;

	pthread_mutex_lock(&srv->queue_lock);
	while (!srv->queue_head && !srv->workers_stop)
		pthread_cond_wait(&srv->queue_ready, &srv->queue_lock);
	slot = srv->queue_head;
	if (slot) {
		srv->queue_head = slot->next;
		if (!srv->queue_head)
			srv->queue_tail = NULL;
	}
	pthread_mutex_unlock(&srv->queue_lock);
	return slot;
}

void *nbd_worker(void *arg)
{
	struct rcl_nbd_server *srv = arg;
	struct nbd_slot *slot;

	while ((slot = next_work(srv))) {
		slot->error = nbd_error(run_request(&srv->export, slot));
		deliver(slot);
	}
	return NULL;
}

static void queue_work(struct rcl_nbd_server *srv, struct nbd_slot *slot)
{
	slot->next = NULL;
	pthread_mutex_lock(&srv->queue_lock);
	if (srv->queue_tail)
		srv->queue_tail->next = slot;
	else
		srv->queue_head = slot;
	srv->queue_tail = slot;
	pthread_cond_signal(&srv->queue_ready);
	pthread_mutex_unlock(&srv->queue_lock);
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
static uint32_t check_request(const struct rcl_nbd_server *srv, const struct nbd_slot *req)
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

static struct nbd_slot *take_slot(struct nbd_conn *conn)
{
	struct nbd_slot *slot;

	pthread_mutex_lock(&conn->lock);
	while (!conn->free_slots)
		pthread_cond_wait(&conn->slot_done, &conn->lock);
	slot = conn->free_slots;
	conn->free_slots = slot->next;
	conn->inflight++;
	pthread_mutex_unlock(&conn->lock);
	return slot;
}

/* Give back a slot whose request was cut short: no reply. */
static void drop_slot(struct nbd_conn *conn, struct nbd_slot *slot)
{
	pthread_mutex_lock(&conn->lock);
	give_back(conn, slot);
	pthread_mutex_unlock(&conn->lock);
}

/*
 * Grow @slot's buffer to @len: a fresh allocation rather than realloc(),
 * which would copy contents nobody needs. Once grown it is reused.
 */
static bool slot_reserve(struct nbd_slot *slot, size_t len)
{
	if (slot->cap >= len)
		return true;
	rcl_free(slot->buf);
	slot->buf = rcl_malloc(len);
	slot->cap = slot->buf ? len : 0;
	return slot->buf != NULL;
}

static void parse_request(const uint8_t *head, struct nbd_slot *req)
{
	req->flags = nbd_get16(head + 4);
	req->type = nbd_get16(head + 6);
	req->cookie = nbd_get64(head + 8);
	req->offset = nbd_get64(head + 16);
	req->length = nbd_get32(head + 24);
}

/*
 * Take in a WRITE's payload: into the slot's buffer if it will run, else
 * read and dropped to stay in step with the client, unless it is too large
 * to be anything but an attack. Return: false when the connection must end.
 */
static bool take_payload(struct nbd_conn *conn, struct nbd_slot *slot, bool runs)
{
	if (runs)
		return !nbd_recv_all(conn->fd, slot->buf, slot->length);
	return slot->length <= NBD_DOS_PAYLOAD_MAX && !nbd_discard(conn->fd, slot->length);
}

/*
 * Read one request into a slot and queue it for the workers, or answer it
 * at once if it fails the checks or has nothing to do (length 0).
 * Return: false when the connection ends.
 */
static bool next_request(struct nbd_conn *conn)
{
	struct rcl_nbd_server *srv = conn->srv;
	uint8_t head[NBD_REQUEST_SIZE];
	struct nbd_slot *slot;
	bool runs;

	if (nbd_recv_all(conn->fd, head, sizeof(head)) || nbd_get32(head) != NBD_MAGIC_REQUEST)
		return false;
	slot = take_slot(conn);
	slot->conn = conn;
	parse_request(head, slot);
	if (slot->type == NBD_CMD_DISC) {
		drop_slot(conn, slot);
		return false;
	}
	slot->error = check_request(srv, slot);
	if (!slot->error && (slot->type == NBD_CMD_READ || slot->type == NBD_CMD_WRITE) &&
	    !slot_reserve(slot, slot->length))
		slot->error = NBD_ENOMEM;
	runs = !slot->error && (slot->length || slot->type == NBD_CMD_FLUSH);
	if (slot->type == NBD_CMD_WRITE && !take_payload(conn, slot, runs)) {
		drop_slot(conn, slot);
		return false;
	}
	if (runs)
		queue_work(srv, slot);
	else
		deliver(slot);
	return true;
}

void nbd_transmit(struct nbd_conn *conn)
{
	while (next_request(conn))
		;
	/* The spec: handle all outstanding requests, then close. */
	pthread_mutex_lock(&conn->lock);
	while (conn->inflight)
		pthread_cond_wait(&conn->slot_done, &conn->lock);
	pthread_mutex_unlock(&conn->lock);
}
