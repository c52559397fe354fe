// SPDX-License-Identifier: MIT
/*
 * nbd-transmit.c - the NBD transmission phase: each connection's reader
 * checks requests and queues them in its slots; the shared workers run the
 * export's operations and send the simple replies.
 *
 * Requests that fail the checks (bounds, alignment, flags, read-only) are
 * answered by the reader at once and never reach a worker or the export.
 * Replies may leave out of order, as the spec allows; a connection's send
 * lock keeps each one whole on the wire.
 */
#include <errno.h>
#include <stdlib.h>
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
static void send_simple_reply(struct nbd_conn *conn, uint64_t cookie, uint32_t error,
                              const void *data, size_t len)
{
	uint8_t head[NBD_SIMPLE_REPLY_SIZE];
	struct iovec iov[2] = {{head, sizeof(head)}, {(void *)data, len}};
	int rc;

	nbd_put32(head, NBD_MAGIC_SIMPLE_REPLY);
	nbd_put32(head + 4, error);
	nbd_put64(head + 8, cookie);
	pthread_mutex_lock(&conn->send_lock);
	rc = nbd_send_iov(conn->fd, iov, len ? 2 : 1);
	pthread_mutex_unlock(&conn->send_lock);
	if (rc)
		shutdown(conn->fd, SHUT_RDWR);
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

static void release_slot(struct nbd_slot *slot)
{
	struct nbd_conn *conn = slot->conn;

	pthread_mutex_lock(&conn->lock);
	slot->next = conn->free_slots;
	conn->free_slots = slot;
	conn->inflight--;
	pthread_cond_broadcast(&conn->slot_done);
	/* After this unlock the connection may be gone: touch nothing of it. */
	pthread_mutex_unlock(&conn->lock);
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
		uint32_t error = nbd_error(run_request(&srv->export, slot));
		bool with_data = slot->type == NBD_CMD_READ && !error;

		send_simple_reply(slot->conn, slot->cookie, error, slot->buf,
		                  with_data ? slot->length : 0);
		release_slot(slot);
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

	if (req->type > NBD_CMD_WRITE_ZEROES)
		return NBD_EINVAL;
	if (writes && ex->read_only) /* before "not advertised": the spec asks EPERM */
		return NBD_EPERM;
	if (!type_supported(srv, req->type) || req->flags & ~allowed_flags(srv, req->type))
		return NBD_EINVAL;
	if (req->type == NBD_CMD_FLUSH)
		return 0; /* offset and length are reserved */
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

/* Give back a slot that never reached a worker. */
static void put_slot(struct nbd_conn *conn, struct nbd_slot *slot)
{
	slot->conn = conn;
	release_slot(slot);
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
 * Answer a request that will not run. A refused WRITE's payload is read and
 * dropped to stay in step with the client, unless it is too large to be
 * anything but an attack.
 * Return: false when the connection must end.
 */
static bool refuse(struct nbd_conn *conn, const struct nbd_slot *req, uint32_t error)
{
	if (req->type == NBD_CMD_WRITE &&
	    (req->length > NBD_DOS_PAYLOAD_MAX || nbd_discard(conn->fd, req->length)))
		return false;
	send_simple_reply(conn, req->cookie, error, NULL, 0);
	return true;
}

/* Read one request and hand it on. Return: false when the connection ends. */
static bool next_request(struct nbd_conn *conn)
{
	struct rcl_nbd_server *srv = conn->srv;
	uint8_t head[NBD_REQUEST_SIZE];
	struct nbd_slot req, *slot;
	uint32_t error;

	if (nbd_recv_all(conn->fd, head, sizeof(head)) || nbd_get32(head) != NBD_MAGIC_REQUEST)
		return false;
	parse_request(head, &req);
	if (req.type == NBD_CMD_DISC)
		return false;
	error = check_request(srv, &req);
	if (error)
		return refuse(conn, &req, error);
	if (!req.length && req.type != NBD_CMD_FLUSH)
		return refuse(conn, &req, 0); /* nothing to do: succeed */

	slot = take_slot(conn);
	if ((req.type == NBD_CMD_READ || req.type == NBD_CMD_WRITE) &&
	    !slot_reserve(slot, req.length)) {
		put_slot(conn, slot);
		return refuse(conn, &req, NBD_ENOMEM);
	}
	if (req.type == NBD_CMD_WRITE && nbd_recv_all(conn->fd, slot->buf, req.length)) {
		put_slot(conn, slot);
		return false;
	}
	slot->conn = conn;
	slot->flags = req.flags;
	slot->type = req.type;
	slot->cookie = req.cookie;
	slot->offset = req.offset;
	slot->length = req.length;
	queue_work(srv, slot);
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
