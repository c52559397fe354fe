// SPDX-License-Identifier: MIT
//
// bmc-fleet - a fleet of simulated Redfish BMCs for bench/redfish-fleet.py:
// N hosts, each on its own 127.0.0.1 port with TLS, answering what
// tests/redfish/service.py answers for the same tree, light enough that the
// bench measures raidcli rather than its BMCs. One thread, epoll; each
// answer waits its random delay on one timerfd (a heap of deadlines).
//
//   bmc-fleet --dump F --cert C --key K [--hosts N] [--delay-ms LO-HI]
//             [--seed S] [--vary-serials] [--base-port P] [--ready-file R]
//
// F comes from `service.py --tree T --dump F`: every GET of the tree (and its
// $expand forms) as service.py answers it, plus the login, logout and refusal
// answers with marks to fill. What the fleet does on its own: sessions (a
// token names its host and session and carries a keyed hash, so no table of
// tokens), Basic credentials, the delay, and with --vary-serials the last
// digits of every SerialNumber set to the host's index so hosts differ. It
// is read-only: any other change is refused (405 OperationNotAllowed). Not
// simulated: faults, tasks, Expect: 100-continue, chunked request bodies,
// the Sessions collection's members (the tree's), GETs of a session.
// answers.c holds the dumped answers, redfish.c parses and routes requests,
// this file the connections, TLS, delays and control.
//
// Once every host listens it writes R (JSON: pid, user, hosts[] with index,
// port and url). Lines on stdin control it: "hang FIRST COUNT" makes those
// hosts dead as service.py's "hang" fault does (new connections accepted,
// TLS never answered; open ones answered no more), answered "ok" on
// stdout. End of stdin, SIGTERM or SIGINT stops it.
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "answers.h"
#include "redfish.h"

// service.py's limit on a request body; a larger request is cut off here.
#define MAX_REQUEST ((1 << 20) + 65536)

// ------------------------------------------------------------------ hosts
enum kind { LISTENER, CONNECTION, TIMER, CONTROL };

struct host {
	enum kind kind; // first: what an epoll event's pointer points to
	int index, fd, port;
	bool hung;
	uint64_t rng;
	struct sessions sessions;
};

// A per-host xorshift: the delays differ by host but repeat with the seed.
static uint64_t next_random(struct host *h)
{
	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 7;
	h->rng ^= h->rng << 17;
	return h->rng;
}

// ------------------------------------------------------------ connections
// CLOSED: freed after the current batch of events, which may still name it.
enum state { HANDSHAKE, READING, WAITING, WRITING, SWALLOWING, STALLED, CLOSED };

struct conn {
	enum kind kind;
	int fd;
	struct host *host;
	SSL *ssl;
	enum state state;
	uint32_t events;
	struct buf in, out;
	size_t out_off;
	bool close_after;
	struct request rq;
	uint64_t due;   // ns, CLOCK_MONOTONIC
	size_t at_heap; // index in the timer heap while WAITING
	struct conn *next_closed;
};

static struct {
	int epoll, timer;
	SSL_CTX *tls;
	unsigned delay_lo, delay_hi; // ms
	bool vary_serials;
	struct conn **heap;
	size_t heap_len, heap_cap;
	struct conn *closed;
} fleet;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void watch(struct conn *c, uint32_t events)
{
	struct epoll_event ev = {.events = events, .data.ptr = c};

	if (c->events != events && epoll_ctl(fleet.epoll, EPOLL_CTL_MOD, c->fd, &ev))
		die("epoll_ctl");
	c->events = events;
}

// The timer heap: the earliest answer due at the top, the timerfd set to it.
static void heap_place(size_t i, struct conn *c)
{
	fleet.heap[i] = c;
	c->at_heap = i;
}

static void heap_up(size_t i)
{
	struct conn *c = fleet.heap[i];

	for (; i && fleet.heap[(i - 1) / 2]->due > c->due; i = (i - 1) / 2)
		heap_place(i, fleet.heap[(i - 1) / 2]);
	heap_place(i, c);
}

static void heap_down(size_t i)
{
	struct conn *c = fleet.heap[i];

	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= fleet.heap_len)
			break;
		if (k + 1 < fleet.heap_len && fleet.heap[k + 1]->due < fleet.heap[k]->due)
			k++;
		if (fleet.heap[k]->due >= c->due)
			break;
		heap_place(i, fleet.heap[k]);
		i = k;
	}
	heap_place(i, c);
}

static void arm_timer(void)
{
	struct itimerspec it = {0};

	if (fleet.heap_len) {
		uint64_t due = fleet.heap[0]->due;

		it.it_value.tv_sec = due / 1000000000ULL;
		it.it_value.tv_nsec = due % 1000000000ULL;
	}
	if (timerfd_settime(fleet.timer, TFD_TIMER_ABSTIME, &it, NULL))
		die("timerfd_settime");
}

static void heap_push(struct conn *c)
{
	if (fleet.heap_len == fleet.heap_cap) {
		fleet.heap_cap = fleet.heap_cap ? 2 * fleet.heap_cap : 1024;
		fleet.heap = xrealloc(fleet.heap, fleet.heap_cap * sizeof(*fleet.heap));
	}
	fleet.heap[fleet.heap_len++] = c;
	heap_up(fleet.heap_len - 1);
	if (c->at_heap == 0)
		arm_timer();
}

static void heap_remove(struct conn *c)
{
	size_t i = c->at_heap;
	struct conn *last = fleet.heap[--fleet.heap_len];

	if (i < fleet.heap_len) {
		heap_place(i, last);
		heap_up(i);
		heap_down(last->at_heap);
	}
	if (i == 0)
		arm_timer();
}

static void conn_close(struct conn *c)
{
	if (c->state == WAITING)
		heap_remove(c);
	c->state = CLOSED;
	close(c->fd);
	c->next_closed = fleet.closed;
	fleet.closed = c;
}

static void free_closed(void)
{
	while (fleet.closed) {
		struct conn *c = fleet.closed;

		fleet.closed = c->next_closed;
		SSL_free(c->ssl);
		buf_release(&c->in);
		buf_release(&c->out);
		free(c);
	}
}

// ------------------------------------------------------------ the loop
// The next request, if one is in: its answer waits its delay.
static void next_request(struct conn *c)
{
	struct host *h = c->host;
	uint64_t span = (uint64_t)(fleet.delay_hi - fleet.delay_lo) * 1000000ULL;

	if (!request_parse(c->in.data, c->in.len, &c->rq)) {
		c->state = READING;
		return;
	}
	if (h->hung) {
		c->state = STALLED;
		watch(c, EPOLLRDHUP);
		return;
	}
	c->state = WAITING;
	watch(c, 0);
	c->due = now_ns() + fleet.delay_lo * 1000000ULL + (span ? next_random(h) % (span + 1) : 0);
	heap_push(c);
}

// The SSL call's result: true to go on; false when it waits (epoll set) or c is closed.
static bool tls_ok(struct conn *c, int ret)
{
	switch (SSL_get_error(c->ssl, ret)) {
	case SSL_ERROR_NONE:
		return true;
	case SSL_ERROR_WANT_READ:
		watch(c, EPOLLIN);
		return false;
	case SSL_ERROR_WANT_WRITE:
		watch(c, EPOLLOUT);
		return false;
	default: // the client went, or broke TLS
		ERR_clear_error();
		conn_close(c);
		return false;
	}
}

static void read_requests(struct conn *c)
{
	for (;;) {
		int n;

		if (c->in.cap - c->in.len < 16384) {
			c->in.cap = c->in.len + 32768;
			c->in.data = xrealloc(c->in.data, c->in.cap);
		}
		n = SSL_read(c->ssl, c->in.data + c->in.len, (int)(c->in.cap - c->in.len));
		if (n <= 0) {
			if (tls_ok(c, n))
				continue;
			return;
		}
		c->in.len += n;
		next_request(c);
		if (c->state != READING)
			return;
		if (c->in.len > MAX_REQUEST) {
			conn_close(c);
			return;
		}
	}
}

static void write_answer(struct conn *c)
{
	while (c->out_off < c->out.len) {
		int n = SSL_write(c->ssl, c->out.data + c->out_off, (int)(c->out.len - c->out_off));

		if (n <= 0) {
			if (!tls_ok(c, n))
				return;
			continue;
		}
		c->out_off += n;
	}
	if (c->close_after) {
		conn_close(c);
		return;
	}
	memmove(c->in.data, c->in.data + c->rq.size, c->in.len - c->rq.size);
	c->in.len -= c->rq.size;
	next_request(c);
	if (c->state == READING)
		read_requests(c); // SSL may hold a record epoll will not report
}

static void conn_io(struct conn *c)
{
	char sink[4096];

	switch (c->state) {
	case HANDSHAKE:
		if (tls_ok(c, SSL_accept(c->ssl))) {
			c->state = READING;
			read_requests(c);
		}
		break;
	case READING:
		read_requests(c);
		break;
	case WRITING:
		write_answer(c);
		break;
	case SWALLOWING: {
		ssize_t n = read(c->fd, sink, sizeof(sink));

		if (n == 0 || (n < 0 && errno != EAGAIN))
			conn_close(c);
		break;
	}
	case WAITING:
	case STALLED:
		conn_close(c); // only a hang-up or error wakes these
		break;
	case CLOSED:
		break;
	}
}

static void timer_fired(void)
{
	uint64_t expirations, now = now_ns();

	if (read(fleet.timer, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		die("timerfd");
	while (fleet.heap_len && fleet.heap[0]->due <= now) {
		struct conn *c = fleet.heap[0];

		heap_remove(c);
		if (c->host->hung) {
			c->state = STALLED;
			watch(c, EPOLLRDHUP);
			continue;
		}
		c->state = WRITING;
		c->close_after = redfish_answer(&c->host->sessions, c->host->index,
		                                fleet.vary_serials, &c->rq, &c->out);
		c->out_off = 0;
		write_answer(c);
	}
	arm_timer();
}

static void accept_all(struct host *h)
{
	int fd;

	while ((fd = accept4(h->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		struct conn *c = xrealloc(NULL, sizeof(*c));
		struct epoll_event ev = {.data.ptr = c};
		int one = 1;

		*c = (struct conn){.kind = CONNECTION, .fd = fd, .host = h};
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (h->hung) {
			c->state = SWALLOWING;
		} else {
			c->state = HANDSHAKE;
			c->ssl = SSL_new(fleet.tls);
			if (!c->ssl || !SSL_set_fd(c->ssl, fd))
				die("SSL_new");
		}
		ev.events = c->events = EPOLLIN;
		if (epoll_ctl(fleet.epoll, EPOLL_CTL_ADD, fd, &ev))
			die("epoll_ctl");
	}
	if (errno != EAGAIN && errno != ECONNABORTED)
		perror("bmc-fleet: accept");
}

static void add_watch(int fd, void *ptr)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = ptr};

	if (epoll_ctl(fleet.epoll, EPOLL_CTL_ADD, fd, &ev))
		die("epoll_ctl");
}

static void control(struct host *hosts, int n_hosts)
{
	static struct buf line;
	char chunk[256], *nl;
	ssize_t n = read(STDIN_FILENO, chunk, sizeof(chunk));

	if (n <= 0)
		exit(0);
	buf_add(&line, chunk, n);
	while ((nl = memchr(line.data, '\n', line.len))) {
		int first, count;

		*nl = '\0';
		if (sscanf(line.data, "hang %d %d", &first, &count) == 2 && first >= 0 &&
		    count >= 0 && first + count <= n_hosts) {
			for (int i = first; i < first + count; i++)
				hosts[i].hung = true;
			printf("ok\n");
		} else {
			printf("error: %s\n", line.data);
		}
		fflush(stdout);
		line.len -= nl + 1 - line.data;
		memmove(line.data, nl + 1, line.len);
	}
}

static void listen_all(struct host *hosts, int n_hosts, int base_port, unsigned seed)
{
	for (int i = 0; i < n_hosts; i++) {
		struct host *h = &hosts[i];
		struct sockaddr_in sa = {.sin_family = AF_INET,
		                         .sin_port = htons(base_port ? base_port + i : 0),
		                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		socklen_t len = sizeof(sa);
		int one = 1;

		*h =
		    (struct host){.kind = LISTENER, .index = i, .rng = mix64(seed * 100003ULL + i)};
		h->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (h->fd < 0 || setsockopt(h->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
		    bind(h->fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(h->fd, 1024) ||
		    getsockname(h->fd, (struct sockaddr *)&sa, &len))
			die("a host's listening socket");
		h->port = ntohs(sa.sin_port);
		add_watch(h->fd, h);
	}
}

static void write_ready(const char *path, const struct host *hosts, int n_hosts)
{
	char *tmp;
	FILE *f;

	if (asprintf(&tmp, "%s.tmp", path) < 0 || !(f = fopen(tmp, "w")))
		die(path);
	fprintf(f, "{\"pid\": %d, \"user\": \"", (int)getpid());
	for (const char *s = answers_user(); *s; s++)
		fprintf(f, *s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
	fprintf(f, "\", \"hosts\": [");
	for (int i = 0; i < n_hosts; i++)
		fprintf(f, "%s\n {\"index\": %d, \"port\": %d, \"url\": \"https://127.0.0.1:%d\"}",
		        i ? "," : "", i, hosts[i].port, hosts[i].port);
	fprintf(f, "]}\n");
	if (fclose(f) || rename(tmp, path))
		die(path);
	free(tmp);
}

static void setup_tls(const char *cert, const char *key)
{
	fleet.tls = SSL_CTX_new(TLS_server_method());
	if (!fleet.tls || SSL_CTX_use_certificate_chain_file(fleet.tls, cert) != 1 ||
	    SSL_CTX_use_PrivateKey_file(fleet.tls, key, SSL_FILETYPE_PEM) != 1)
		die("the certificate or key");
	// A client holding a thousand idle connections: buffers only while in use.
	SSL_CTX_set_mode(fleet.tls, SSL_MODE_ENABLE_PARTIAL_WRITE |
	                                SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER |
	                                SSL_MODE_RELEASE_BUFFERS);
}

static void usage(void)
{
	fprintf(stderr, "usage: bmc-fleet --dump F --cert C --key K [--hosts N] "
	                "[--delay-ms LO-HI] [--seed S] [--vary-serials] [--base-port P] "
	                "[--ready-file R]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dump_file = NULL, *cert = NULL, *key = NULL, *ready = NULL;
	int n_hosts = 1, base_port = 0;
	unsigned seed = 1;
	struct host *hosts;
	struct rlimit rl;
	static const enum kind timer_kind = TIMER, control_kind = CONTROL;

	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--vary-serials")) {
			fleet.vary_serials = true;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(argv[i - 1], "--dump"))
			dump_file = v;
		else if (!strcmp(argv[i - 1], "--cert"))
			cert = v;
		else if (!strcmp(argv[i - 1], "--key"))
			key = v;
		else if (!strcmp(argv[i - 1], "--ready-file"))
			ready = v;
		else if (!strcmp(argv[i - 1], "--hosts"))
			n_hosts = atoi(v);
		else if (!strcmp(argv[i - 1], "--base-port"))
			base_port = atoi(v);
		else if (!strcmp(argv[i - 1], "--seed"))
			seed = (unsigned)atoi(v);
		else if (!strcmp(argv[i - 1], "--delay-ms") &&
		         sscanf(v, "%u-%u", &fleet.delay_lo, &fleet.delay_hi) >= 1)
			fleet.delay_hi =
			    fleet.delay_hi < fleet.delay_lo ? fleet.delay_lo : fleet.delay_hi;
		else
			usage();
	}
	if (!dump_file || !cert || !key || n_hosts < 1)
		usage();
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	// A client gone while its answer is written: that connection's error, not the fleet's end.
	signal(SIGPIPE, SIG_IGN);
	answers_load(dump_file);
	setup_tls(cert, key);
	redfish_init();
	fleet.epoll = epoll_create1(EPOLL_CLOEXEC);
	fleet.timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (fleet.epoll < 0 || fleet.timer < 0)
		die("epoll or timerfd");
	add_watch(fleet.timer, (void *)&timer_kind);
	add_watch(STDIN_FILENO, (void *)&control_kind);
	hosts = xrealloc(NULL, n_hosts * sizeof(*hosts));
	listen_all(hosts, n_hosts, base_port, seed);
	if (ready)
		write_ready(ready, hosts, n_hosts);
	for (;;) {
		struct epoll_event events[256];
		int n = epoll_wait(fleet.epoll, events, 256, -1);

		if (n < 0 && errno != EINTR)
			die("epoll_wait");
		for (int i = 0; i < n; i++) {
			void *ptr = events[i].data.ptr;

			switch (*(enum kind *)ptr) {
			case LISTENER:
				accept_all(ptr);
				break;
			case CONNECTION:
				conn_io(ptr);
				break;
			case TIMER:
				timer_fired();
				break;
			case CONTROL:
				control(hosts, n_hosts);
				break;
			}
		}
		free_closed();
	}
}
