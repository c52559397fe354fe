/* SPDX-License-Identifier: MIT */
/*
 * nbd.h - a Network Block Device server (the NBD protocol's "fixed
 * newstyle" handshake and transmission phase) serving one export.
 *
 * The server knows nothing of RAID: it calls the export's operations from
 * each connection's threads, several requests in flight per connection and
 * several connections at once (it advertises CAN_MULTI_CONN, so an export
 * must make a flush cover writes completed on every connection).
 */
#ifndef RCL_SERVER_NBD_H
#define RCL_SERVER_NBD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "raidcli.h"

/**
 * struct rcl_nbd_export - what is served.
 * @name:	the export name clients ask for ("" also selects it).
 * @description: shown by NBD_INFO_DESCRIPTION, or NULL.
 * @bytes:	its size.
 * @min_block, @preferred_block, @max_block: NBD_INFO_BLOCK_SIZE. 0 takes
 *		the spec's default (1, 4096, 32 MiB); @preferred_block is
 *		rounded down to a power of two, as the protocol requires, and
 *		@max_block capped at 32 MiB.
 * @read_only:	refuse writes (NBD_FLAG_READ_ONLY).
 * @read .. @zero: the operations; each returns 0 or a negative errno,
 *		which the client receives as the matching NBD error. @trim and
 *		@zero may be NULL (not advertised); so may @flush (then neither
 *		FLUSH nor FUA is), and @write when @read_only.
 * @write_later: may be NULL; else WRITE runs through it: a write that
 *		may end after it returns, as a write whose data waits for its
 *		neighbours does. It returns RCL_NBD_LATER and later calls
 *		@ended(@token, result) once, from any thread, @buf lent to it
 *		until then; or it returns its result, as @write does (which
 *		still serves the writes of zeros). @client is the connection
 *		it came on, the same for all of that connection's writes.
 * @stalled:	may be NULL; called when every request @client has in flight
 *		is a write ending later and nothing more has come from it: it
 *		likely waits for their replies before it sends more (its
 *		queue is full), so holding them for neighbours only delays it.
 * @ctx:	passed to the operations.
 */
struct rcl_nbd_export {
	const char *name;
	const char *description;
	uint64_t bytes;
	uint32_t min_block;
	uint32_t preferred_block;
	uint32_t max_block;
	bool read_only;
	int (*read)(void *ctx, void *buf, size_t len, uint64_t off);
	int (*write)(void *ctx, const void *buf, size_t len, uint64_t off, bool fua);
	int (*flush)(void *ctx);
	int (*trim)(void *ctx, size_t len, uint64_t off);
	int (*zero)(void *ctx, size_t len, uint64_t off, bool fua);
	int (*write_later)(void *ctx, const void *buf, size_t len, uint64_t off, bool fua,
	                   const void *client, void (*ended)(void *token, int rc), void *token);
	void (*stalled)(void *ctx, const void *client);
	void *ctx;
};

/* What @write_later returns when @ended will give the result. */
#define RCL_NBD_LATER 1

struct rcl_nbd_server;

/**
 * struct rcl_nbd_listen - where to listen: a Unix socket at @socket_path
 * (created mode 0600, replacing a stale socket), or TCP at @host:@port
 * when @socket_path is NULL (@host NULL: 127.0.0.1).
 */
struct rcl_nbd_listen {
	const char *socket_path;
	const char *host;
	unsigned port;
};

/**
 * rcl_nbd_server_start() - listen and serve @export (copied; its @ctx
 * must outlive the server), in threads of its own: each connection has up
 * to @threads (0 means 1; at most 64), so as many requests in flight;
 * they come as its requests need them and end with it.
 * Return: RCL_OK and *@out; RCL_SYSTEM (cannot listen, naming the
 * address); RCL_NOMEM; RCL_INVALID_PARAM (block sizes or operations the
 * protocol cannot express, a socket path too long, a port above 65535).
 */
enum rcl_status rcl_nbd_server_start(const struct rcl_nbd_export *export,
                                     const struct rcl_nbd_listen *where, unsigned threads,
                                     struct rcl_nbd_server **out, struct rcl_error *err);

/* rcl_nbd_server_address() - "unix:PATH" or "HOST:PORT" as bound (the real port for 0). */
const char *rcl_nbd_server_address(const struct rcl_nbd_server *srv);

/* rcl_nbd_server_connections() - how many clients are connected now. */
unsigned rcl_nbd_server_connections(const struct rcl_nbd_server *srv);

/*
 * rcl_nbd_server_stop() - stop listening, finish the requests in flight,
 * disconnect every client, join the threads, remove the Unix socket and
 * free @srv (NULL is fine).
 */
void rcl_nbd_server_stop(struct rcl_nbd_server *srv);

#endif /* RCL_SERVER_NBD_H */
