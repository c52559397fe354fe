// SPDX-License-Identifier: MIT
/*
 * nbd-handshake.c - the NBD fixed newstyle handshake (option haggling).
 *
 * Options served: EXPORT_NAME, ABORT, LIST, INFO, GO and STRUCTURED_REPLY.
 * STARTTLS is refused by policy (no TLS: the Unix socket's permissions or
 * loopback TCP are the access control). Anything else (the metadata
 * context options among them: no block status) gets UNSUP, as the spec
 * requires, and the session goes on.
 */
#include <string.h>

#include "nbd-internal.h"
#include "nbd-proto.h"

/* How an option ended: keep haggling, start transmission, or end the session. */
enum opt_outcome { OPT_NEXT, OPT_TRANSMIT, OPT_CLOSE };

static enum opt_outcome send_reply(struct nbd_conn *conn, uint32_t opt, uint32_t type,
                                   const void *data, size_t len)
{
	uint8_t head[20];
	struct iovec iov[2] = {{head, sizeof(head)}, {(void *)data, len}};

	nbd_put64(head, NBD_MAGIC_OPT_REPLY);
	nbd_put32(head + 8, opt);
	nbd_put32(head + 12, type);
	nbd_put32(head + 16, (uint32_t)len);
	return sock_send_iov(conn->fd, iov, len ? 2 : 1) ? OPT_CLOSE : OPT_NEXT;
}

/* An error reply, with a message for the human behind the client. */
static enum opt_outcome send_error(struct nbd_conn *conn, uint32_t opt, uint32_t type,
                                   const char *msg)
{
	return send_reply(conn, opt, type, msg, strlen(msg));
}

/* An NBD_REP_INFO whose payload is a 16-bit type then @len bytes of @data. */
static enum opt_outcome send_info(struct nbd_conn *conn, uint32_t opt, uint16_t info,
                                  const void *data, size_t len)
{
	uint8_t buf[2 + NBD_STRING_MAX];

	if (len > NBD_STRING_MAX)
		len = NBD_STRING_MAX;
	nbd_put16(buf, info);
	memcpy(buf + 2, data, len);
	return send_reply(conn, opt, NBD_REP_INFO, buf, 2 + len);
}

/* Does @name (@len bytes, not terminated) select the export? "" does. */
static bool export_matches(const struct rcl_nbd_server *srv, const uint8_t *name, size_t len)
{
	return len == 0 ||
	       (len == strlen(srv->export.name) && !memcmp(name, srv->export.name, len));
}

static enum opt_outcome opt_export_name(struct nbd_conn *conn, uint32_t len)
{
	const struct rcl_nbd_server *srv = conn->srv;
	uint8_t reply[8 + 2 + 124] = {0};

	/* This option cannot return an error: an unknown name ends the session. */
	if (!export_matches(srv, conn->opt, len))
		return OPT_CLOSE;
	nbd_put64(reply, srv->export.bytes);
	nbd_put16(reply + 8, srv->transmission_flags);
	if (sock_send_all(conn->fd, reply, conn->no_zeroes ? 10 : sizeof(reply)))
		return OPT_CLOSE;
	return OPT_TRANSMIT;
}

/*
 * One NBD_REP_SERVER: the name, then the description, which the spec has
 * clients (qemu-nbd --list, nbdinfo --list) show as free text.
 */
static enum opt_outcome opt_list(struct nbd_conn *conn, uint32_t len)
{
	const struct rcl_nbd_export *ex = &conn->srv->export;
	size_t name_len = strlen(ex->name);
	size_t text_len = ex->description ? strlen(ex->description) : 0;
	uint8_t buf[4 + 2 * NBD_STRING_MAX];

	if (len)
		return send_error(conn, NBD_OPT_LIST, NBD_REP_ERR_INVALID, "LIST takes no data");
	/* rcl_nbd_server_start() checked both lengths against NBD_STRING_MAX. */
	nbd_put32(buf, (uint32_t)name_len);
	memcpy(buf + 4, ex->name, name_len);
	memcpy(buf + 4 + name_len, ex->description ? ex->description : "", text_len);
	if (send_reply(conn, NBD_OPT_LIST, NBD_REP_SERVER, buf, 4 + name_len + text_len) ==
	    OPT_CLOSE)
		return OPT_CLOSE;
	return send_reply(conn, NBD_OPT_LIST, NBD_REP_ACK, NULL, 0);
}

/* The NBD_INFO_* items every INFO or GO reply carries, and those asked for. */
static enum opt_outcome send_export_info(struct nbd_conn *conn, uint32_t opt,
                                         const uint8_t *requests, uint16_t nrequests)
{
	const struct rcl_nbd_server *srv = conn->srv;
	const struct rcl_nbd_export *ex = &srv->export;
	uint8_t export[10], sizes[12];
	bool want_name = false, want_description = false;

	for (uint16_t i = 0; i < nrequests; i++) {
		uint16_t item = nbd_get16(requests + 2 * i);

		want_name |= item == NBD_INFO_NAME;
		want_description |= item == NBD_INFO_DESCRIPTION;
	}
	nbd_put64(export, ex->bytes);
	nbd_put16(export + 8, srv->transmission_flags);
	/* Block sizes go out unasked too: they are not the defaults. */
	nbd_put32(sizes, ex->min_block);
	nbd_put32(sizes + 4, ex->preferred_block);
	nbd_put32(sizes + 8, srv->max_payload);
	if (send_info(conn, opt, NBD_INFO_EXPORT, export, sizeof(export)) == OPT_CLOSE ||
	    send_info(conn, opt, NBD_INFO_BLOCK_SIZE, sizes, sizeof(sizes)) == OPT_CLOSE)
		return OPT_CLOSE;
	if (want_name &&
	    send_info(conn, opt, NBD_INFO_NAME, ex->name, strlen(ex->name)) == OPT_CLOSE)
		return OPT_CLOSE;
	if (want_description && ex->description &&
	    send_info(conn, opt, NBD_INFO_DESCRIPTION, ex->description, strlen(ex->description)) ==
	        OPT_CLOSE)
		return OPT_CLOSE;
	return send_reply(conn, opt, NBD_REP_ACK, NULL, 0);
}

/*
 * INFO and GO: 32-bit name length, the name, a 16-bit count of information
 * requests, then the 16-bit requests; the lengths must add up exactly.
 */
static enum opt_outcome opt_info_go(struct nbd_conn *conn, uint32_t opt, uint32_t len)
{
	const uint8_t *data = conn->opt;
	uint32_t name_len;
	uint16_t nrequests;
	enum opt_outcome sent;

	if (len < 6 || (name_len = nbd_get32(data)) > len - 6)
		return send_error(conn, opt, NBD_REP_ERR_INVALID, "malformed INFO/GO option");
	nrequests = nbd_get16(data + 4 + name_len);
	if (len != 4 + name_len + 2 + 2u * nrequests)
		return send_error(conn, opt, NBD_REP_ERR_INVALID, "malformed INFO/GO option");
	if (!export_matches(conn->srv, data + 4, name_len))
		return send_error(conn, opt, NBD_REP_ERR_UNKNOWN, "no export of that name");
	sent = send_export_info(conn, opt, data + 4 + name_len + 2, nrequests);
	if (sent == OPT_NEXT && opt == NBD_OPT_GO)
		return OPT_TRANSMIT;
	return sent;
}

static enum opt_outcome handle_option(struct nbd_conn *conn, uint32_t opt, uint32_t len)
{
	switch (opt) {
	case NBD_OPT_EXPORT_NAME:
		return opt_export_name(conn, len);
	case NBD_OPT_ABORT:
		send_reply(conn, opt, NBD_REP_ACK, NULL, 0);
		return OPT_CLOSE;
	case NBD_OPT_LIST:
		return opt_list(conn, len);
	case NBD_OPT_STARTTLS:
		return send_error(conn, opt, NBD_REP_ERR_POLICY, "TLS is not offered");
	case NBD_OPT_INFO:
	case NBD_OPT_GO:
		return opt_info_go(conn, opt, len);
	case NBD_OPT_STRUCTURED_REPLY:
		if (len)
			return send_error(conn, opt, NBD_REP_ERR_INVALID,
			                  "STRUCTURED_REPLY takes no data");
		conn->structured = true;
		return send_reply(conn, opt, NBD_REP_ACK, NULL, 0);
	default:
		return send_error(conn, opt, NBD_REP_ERR_UNSUP, "option not supported");
	}
}

/*
 * Data too long to keep: drop it and answer TOO_BIG, or cut a client that
 * sends so much it can only be an attack. EXPORT_NAME cannot be answered
 * with an error, so it ends the session.
 */
static enum opt_outcome oversized_option(struct nbd_conn *conn, uint32_t opt, uint32_t len)
{
	if (len > NBD_OPT_SKIP_MAX || opt == NBD_OPT_EXPORT_NAME || nbd_discard(conn->fd, len))
		return OPT_CLOSE;
	return send_error(conn, opt, NBD_REP_ERR_TOO_BIG, "option data too long");
}

static enum opt_outcome next_option(struct nbd_conn *conn)
{
	uint8_t head[16];
	uint32_t opt, len;

	if (nbd_recv_all(conn->fd, head, sizeof(head)) || nbd_get64(head) != NBD_MAGIC_OPT)
		return OPT_CLOSE;
	opt = nbd_get32(head + 8);
	len = nbd_get32(head + 12);
	if (len > sizeof(conn->opt))
		return oversized_option(conn, opt, len);
	if (nbd_recv_all(conn->fd, conn->opt, len))
		return OPT_CLOSE;
	return handle_option(conn, opt, len);
}

bool nbd_handshake(struct nbd_conn *conn)
{
	uint8_t hello[18], client[4];
	uint32_t client_flags;

	nbd_put64(hello, NBD_MAGIC_INIT);
	nbd_put64(hello + 8, NBD_MAGIC_OPT);
	nbd_put16(hello + 16, NBD_FLAG_FIXED_NEWSTYLE | NBD_FLAG_NO_ZEROES);
	if (sock_send_all(conn->fd, hello, sizeof(hello)) ||
	    nbd_recv_all(conn->fd, client, sizeof(client)))
		return false;
	client_flags = nbd_get32(client);
	/* The spec has the server drop a client that sets flags it did not offer. */
	if (client_flags & ~(uint32_t)(NBD_FLAG_C_FIXED_NEWSTYLE | NBD_FLAG_C_NO_ZEROES))
		return false;
	conn->no_zeroes = client_flags & NBD_FLAG_C_NO_ZEROES;

	for (unsigned i = 0; i < NBD_OPTIONS_MAX; i++) {
		enum opt_outcome outcome = next_option(conn);

		if (outcome != OPT_NEXT)
			return outcome == OPT_TRANSMIT;
	}
	return false; /* a flood of options: the spec allows a hard disconnect */
}
