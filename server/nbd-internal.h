/* SPDX-License-Identifier: MIT */
/*
 * nbd-internal.h - what the NBD server's files share: the server and
 * connection objects, the request slots, and the socket helpers.
 *
 * Threads: one accept thread per server; per connection, one thread that
 * runs the handshake and then, like each of the connection's other threads,
 * serves requests: it takes the connection's read lock, reads one request
 * (header and payload), runs it and sends the reply under the send lock.
 * While the connection's requests wait (for a device, a lock), the reader
 * lets go of the read lock before it runs its request, so that another
 * thread reads the next meanwhile; while they do not, the reader runs
 * them itself, one after the other, and no other thread wakes: on a
 * machine whose CPUs are all busy, handing each request to another thread
 * cost more than it overlapped. A client that wants more than one CPU's
 * worth of requests that do not wait uses more connections (the export
 * advertises multi-conn). A request never changes threads, so it costs no
 * handoff (wake-ups, context switches) on its way; except a write the
 * export ends later (write_later): the thread leaves it to whoever ends it
 * and serves the next request with another slot. A thread of the
 * connection that ends it sends its reply; another thread (of another
 * client, or the volume's own) hands it to the connection's answerer
 * thread, made on first need, so that no thread ever waits on a client it
 * does not serve.
 *
 * A connection starts with one thread and adds one whenever all of its
 * threads are busy with requests run beside the reader, up to the server's
 * per-connection limit; its threads end with it, so idle exports and
 * finished clients cost no threads. Each request slot keeps a payload
 * buffer that grows to the largest request it has seen, up to
 * NBD_SLOT_KEEP_BYTES, and is then reused (a larger one goes once
 * answered): a thread keeps its slot, and a slot left with a write ending
 * later goes back to the connection's spares once answered, so the data
 * path allocates nothing per request once warm; a connection holds a
 * slot per thread and per write ending later (at most NBD_LATER_MAX,
 * their buffers and the spares' within NBD_LENT_BYTES), and frees them
 * all as its transmission ends.
 */
#ifndef RCL_SERVER_NBD_INTERNAL_H
#define RCL_SERVER_NBD_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "nbd-proto.h"
#include "nbd.h"
#include "sock-io.h"

/* The most threads (so requests in flight) one connection may have. */
#define NBD_CONN_THREADS_MAX 64
/* The most writes ending later one connection may have (each keeps its payload buffer). */
#define NBD_LATER_MAX 64
/*
 * The most buffer bytes one connection may keep in slots no thread holds
 * (writes ending later and spares): a write whose slot would go past it
 * waits instead, so large writes held later cannot take without bound.
 */
#define NBD_LENT_BYTES (8u << 20)
/*
 * The largest payload buffer a thread's slot keeps for its next request: a
 * larger one is freed once its request is answered (qemu-nbd frees every
 * request's). Kept, a client's burst of 32 MiB requests on 64 threads
 * would hold 2 GiB for as long as it stays connected; requests up to this
 * size (fio's, nbdcopy's, qemu-img's) allocate nothing once warm.
 */
#define NBD_SLOT_KEEP_BYTES (4u << 20)
/*
 * A nanosecond a request run by the reader spends asleep counts as much as
 * this many on the CPU: the reader lets requests run beside it once they
 * spend more than a quarter of their time asleep (see note_wait()).
 */
#define NBD_WAIT_WEIGHT 3
/* The wait score (ns) at which requests start running beside the reader. */
#define NBD_WAIT_LIMIT_NS (500u * 1000)
/*
 * The reader measures one request in this many, and counts it for all of
 * them: each measurement costs four system calls (about 5 us in a VM, a
 * third of a 4K write's whole cost on tmpfs), the score only an average.
 */
#define NBD_WAIT_SAMPLE 8
/*
 * How many requests run beside the reader once it finds them waiting,
 * before it runs them itself again to measure; a new connection's first
 * requests run beside it too, as a client that opens with requests which
 * wait on each other (or on a slow device) would otherwise wait on the
 * first of them.
 */
#define NBD_BESIDE_REQUESTS 256
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

/* struct nbd_req - one request slot: the request a thread read and runs, or one ending later. */
struct nbd_req {
	struct nbd_conn *conn;
	struct nbd_req *next; /* in the connection's spares */
	uint16_t flags;
	uint16_t type;
	uint64_t cookie;
	uint64_t offset;
	uint32_t length;
	uint32_t error; /* the reply's NBD error */
	void *buf;      /* READ and WRITE payload, @cap bytes, rcl_pages_alloc()'s */
	size_t cap;
};

/*
 * struct nbd_inbuf - what a connection has received but not yet taken: one
 * recv() brings in every request the client has queued (a 4K write is 4
 * KiB and 28 bytes), so the next threads find theirs without a system call.
 * @refill caps what one recv() takes: after a large WRITE only the next
 * header, so that a large payload goes straight to its request's buffer
 * rather than through this one.
 */
struct nbd_inbuf {
	size_t start, end, refill;
	uint8_t data[64 << 10];
};

struct nbd_conn {
	struct rcl_nbd_server *srv;
	struct nbd_conn *next; /* in the server's live or finished list */
	int fd;
	bool no_zeroes;  /* NBD_FLAG_C_NO_ZEROES */
	bool structured; /* NBD_OPT_STRUCTURED_REPLY negotiated */

	pthread_mutex_t read_lock; /* one thread reads a request at a time; the next six */
	bool ending;               /* no more requests: end of file, DISC, a broken stream */
	struct nbd_inbuf in;
	unsigned beside;     /* requests still to run beside the reader (see serve_one()) */
	unsigned unmeasured; /* requests the reader runs before it measures one again */
	uint64_t wait_score; /* how long the reader's requests waited lately (see note_wait()) */
	int schedstat_fd;    /* the reader's thread's /proc/thread-self/schedstat, or -1 */
	pid_t schedstat_tid; /* the thread it is of (0: none yet) */
	pthread_mutex_t send_lock; /* one reply on the wire at a time */

	/* Threads not busy with a request: a thread that takes the last one adds a thread. */
	atomic_uint idle;
	atomic_bool awaiting; /* the reader waits for the client, nothing buffered */
	pthread_mutex_t lock; /* @nthreads and @threads, @closed, the rest below */
	bool closed;          /* no thread may be added: the connection is ending */
	struct nbd_req *spares;
	size_t spare_bytes;          /* buffer bytes of @spares */
	unsigned later;              /* writes ending later, not yet answered */
	size_t later_bytes;          /* their buffer bytes */
	pthread_cond_t all_answered; /* @later fell to 0 */
	struct nbd_req *answers;     /* replies due, for the answerer */
	pthread_cond_t answers_due;  /* @answers or @answerer_stop set */
	bool answerer_running, answerer_stop;
	pthread_t answerer;
	unsigned nthreads;
	pthread_t threads[NBD_CONN_THREADS_MAX]; /* [0] ran the handshake, and joins the rest */

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

	unsigned conn_threads; /* the most threads one connection may have */
};

/* nbd-io.c: whole-buffer socket I/O. Each returns 0, or -1 on EOF or error. */
int nbd_recv_all(int fd, void *buf, size_t len);
int nbd_discard(int fd, uint64_t len);
/*
 * nbd_inbuf_recv() - @len bytes from @fd through @in into @buf (NULL: read
 * and dropped). What is left of a large payload once @in is empty goes
 * straight into @buf.
 */
int nbd_inbuf_recv(int fd, struct nbd_inbuf *in, void *buf, size_t len);

/*
 * nbd_handshake() - run the fixed newstyle handshake on @conn.
 * Return: true when the client entered the transmission phase.
 */
bool nbd_handshake(struct nbd_conn *conn);

/*
 * nbd_transmit() - serve requests on @conn (on its first thread) until it
 * ends; returns when its other threads have ended too, every request
 * answered or the connection broken.
 */
void nbd_transmit(struct nbd_conn *conn);

#endif /* RCL_SERVER_NBD_INTERNAL_H */
