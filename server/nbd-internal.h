/* SPDX-License-Identifier: MIT */
/*
 * nbd-internal.h - what the NBD server's files share: the server and
 * connection objects, the request slots, and the socket helpers.
 *
 * Threads: one accept thread per server; one thread per connection, which
 * runs the handshake and then reads requests; a pool of workers shared by
 * all connections, which run the export's operations and send the replies
 * (one sender per connection at a time; see struct nbd_conn).
 * A connection owns a fixed set of request slots, each with a payload
 * buffer that grows to the largest request seen and is then reused, so the
 * data path allocates nothing per request and a connection cannot hold more
 * than NBD_CONN_SLOTS requests (and their memory) at once.
 */
#ifndef RCL_SERVER_NBD_INTERNAL_H
#define RCL_SERVER_NBD_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "nbd-proto.h"
#include "nbd.h"

/* Requests one connection may have in flight (read but not yet answered). */
#define NBD_CONN_SLOTS 16
/* Clients served at once; more are closed on accept. */
#define NBD_MAX_CONNECTIONS 64
/* Option data kept in memory: an export name plus the INFO/GO fields. */
#define NBD_OPT_DATA_MAX (NBD_STRING_MAX + 1024)
/* Longer option data is read and dropped up to this, then the client is cut. */
#define NBD_OPT_SKIP_MAX (1u << 20)
/* Options one handshake may send before the server takes it for a flood. */
#define NBD_OPTIONS_MAX 256
/* How long a reply may wait for a client that does not read (seconds). */
#define NBD_SEND_TIMEOUT 30
/* How long a handshake may wait for each message from the client (seconds). */
#define NBD_HANDSHAKE_TIMEOUT 30

struct nbd_conn;

/* struct nbd_slot - one request between the connection's reader and a worker. */
struct nbd_slot {
	struct nbd_slot *next; /* in the connection's free list or the work queue */
	struct nbd_conn *conn;
	uint16_t flags;
	uint16_t type;
	uint64_t cookie;
	uint64_t offset;
	uint32_t length;
	uint32_t error; /* the reply's NBD error */
	void *buf;      /* READ and WRITE payload, @cap bytes */
	size_t cap;
};

struct nbd_conn {
	struct rcl_nbd_server *srv;
	struct nbd_conn *next; /* in the server's live or finished list */
	int fd;
	pthread_t thread;
	bool no_zeroes;  /* NBD_FLAG_C_NO_ZEROES */
	bool structured; /* NBD_OPT_STRUCTURED_REPLY negotiated */

	pthread_mutex_t lock; /* all below but the arrays */
	pthread_cond_t slot_done;
	struct nbd_slot *free_slots;
	unsigned inflight;
	/*
	 * One thread at a time sends (@sending); the others leave their
	 * replies in @replies for it and go back to work, so a client that
	 * stops reading holds one worker, not the pool.
	 */
	bool sending;
	struct nbd_slot *replies, *replies_tail;

	struct nbd_slot slots[NBD_CONN_SLOTS];
	uint8_t opt[NBD_OPT_DATA_MAX]; /* the option being handled */
};

struct rcl_nbd_server {
	struct rcl_nbd_export export; /* name and description owned */
	uint32_t max_payload;         /* export->max_block, capped at 32 MiB */
	uint16_t transmission_flags;

	int listen_fd;
	int wake_pipe[2]; /* stop() writes; the accept thread polls it */
	char *socket_path;
	dev_t socket_dev; /* the socket file we made, so stop() unlinks only it */
	ino_t socket_ino;
	char address[128];
	pthread_t accept_thread;

	pthread_mutex_t lock; /* the connection lists */
	pthread_cond_t conn_gone;
	struct nbd_conn *live;
	struct nbd_conn *finished; /* threads that ended, to join */
	unsigned connections;

	pthread_mutex_t queue_lock; /* the work queue */
	pthread_cond_t queue_ready;
	struct nbd_slot *queue_head, *queue_tail;
	bool workers_stop;
	pthread_t *workers;
	unsigned nworkers;
};

/* nbd-io.c: whole-buffer socket I/O. Each returns 0, or -1 on EOF or error. */
int nbd_recv_all(int fd, void *buf, size_t len);
int nbd_discard(int fd, uint64_t len);
/* nbd_send_iov() - sendmsg() until all is sent; steps @iov over what went out. */
int nbd_send_iov(int fd, struct iovec *iov, int iovcnt);
int nbd_send_all(int fd, const void *buf, size_t len);

/*
 * nbd_handshake() - run the fixed newstyle handshake on @conn.
 * Return: true when the client entered the transmission phase.
 */
bool nbd_handshake(struct nbd_conn *conn);

/* nbd_transmit() - serve requests on @conn until it ends; waits for the in-flight ones. */
void nbd_transmit(struct nbd_conn *conn);

/* nbd_worker() - a worker thread's body (@arg is the server). */
void *nbd_worker(void *arg);

#endif /* RCL_SERVER_NBD_INTERNAL_H */
