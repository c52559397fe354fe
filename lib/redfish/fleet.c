// SPDX-License-Identifier: MIT
/*
 * fleet.c - running requests: one to one BMC, or thousands across a fleet,
 * all the same way, over one libcurl multi handle in one thread.
 *
 * Each request is a job that waits for its turn (its client logged in, a
 * free connection under the limits, a retry's delay), runs, and on its
 * answer ends, or waits again: to be retried after a connection error
 * (GET and DELETE only), to follow a redirect on the same host, or for a
 * login after a 401. Logging in is jobs too (the service root, then the
 * session), added when a client's first call comes up. A client whose host
 * does not connect or answer in time is failed as a whole: its waiting
 * jobs end at once with that reason, so a dead host costs one timeout.
 *
 * A run is open-ended: calls may join while it runs, and each call is
 * handed back as soon as it ends (rcl_redfish_run_next()), so a caller
 * can ask a host its next question the moment the last answer is in,
 * while slower hosts are still answering theirs.
 *
 * libcurl is driven by its sockets (curl_multi_socket_action() on what
 * epoll reports ready), not by curl_multi_perform() and curl_multi_poll(),
 * which go over every transfer and socket each time one of them moves:
 * with hundreds under way that was most of a fleet's cost in libcurl and
 * the kernel.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "redfish/client.h"
#include "redfish/credential.h"
#include "redfish/curl-api.h"
#include "redfish/message.h"
#include "redfish/session.h"
#include "redfish/url.h"

#define DEFAULT_PER_HOST 2
#define DEFAULT_TOTAL    64
#define MAX_REDIRECTS    5
#define RETRY_DELAY_MS   100
#define POLL_MAX_MS      1000
#define EVENTS_MAX       64
/*
 * TLS handshakes under way at once, at most. A handshake is CPU on both
 * ends, and starting hundreds together only makes each slower: on a busy
 * machine some then miss their connect timeout though every BMC answers.
 * Requests to BMCs already connected are not held back.
 */
#define CONNECTING_MAX 64

enum job_kind {
	JOB_CALL,  /* a caller's request */
	JOB_ROOT,  /* reading the service root, without credentials */
	JOB_LOGIN, /* opening a session */
};

enum job_state {
	JOB_WAITING,
	JOB_RUNNING,
	JOB_DONE,
};

struct job {
	enum job_kind kind;
	enum job_state state;
	struct rcl_redfish_client *client;
	struct rcl_redfish_call *call;   /* JOB_CALL */
	struct rcl_redfish_response own; /* the others' answer */
	enum rcl_redfish_method method;
	char *url;
	char *body; /* JOB_LOGIN: the credentials, wiped when freed */
	unsigned attempts, redirects;
	bool relogged;
	unsigned token_gen;  /* the login the last attempt used */
	bool connecting;     /* started before its client had a connection */
	uint64_t not_before; /* a retry waits until then */
	uint64_t deadline;   /* of the whole request, retries included; 0: not started */
	struct rcl_redfish_xfer x;
};

struct rcl_redfish_run {
	CURLM *multi;
	struct job **jobs; /* in the order they joined, the ended ones swept out */
	size_t count, alloc;
	struct rcl_redfish_call **ended; /* calls ended, not yet handed back */
	size_t ended_head, ended_count, ended_alloc;
	size_t left; /* jobs not ended */
	unsigned active, per_host, total;
	unsigned connecting; /* running jobs with .connecting */
	int epoll;           /* the sockets libcurl watches */
	bool timer_on;       /* libcurl asked to act again at @timer_at */
	uint64_t timer_at;   /* ms, rcl_redfish_now_ms() */
};

static struct rcl_redfish_response *job_resp(struct job *j)
{
	return j->kind == JOB_CALL ? &j->call->resp : &j->own;
}

static const char *job_path(const struct job *j)
{
	return j->kind == JOB_CALL ? j->call->path : j->url;
}

static struct job *job_add(struct rcl_redfish_run *run, enum job_kind kind,
                           struct rcl_redfish_client *c, enum rcl_redfish_method method)
{
	struct job *j;

	if (run->count == run->alloc) {
		size_t alloc = run->alloc ? 2 * run->alloc : 16;
		struct job **jobs = rcl_realloc(run->jobs, alloc * sizeof(*jobs));

		if (!jobs)
			return NULL;
		run->jobs = jobs;
		run->alloc = alloc;
	}
	j = rcl_calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	*j = (struct job){.kind = kind, .client = c, .method = method, .own = {.retry_after = -1}};
	rcl_buf_init(&j->x.data);
	run->jobs[run->count++] = j;
	run->left++;
	return j;
}

static void job_free(struct job *j)
{
	rcl_redfish_xfer_release(&j->x);
	rcl_redfish_response_release(&j->own);
	rcl_redfish_secret_free(j->body);
	rcl_free(j->url);
	rcl_free(j);
}

/* @j is over: its transfer goes now, the job at the next sweep. */
static void job_done(struct rcl_redfish_run *run, struct job *j)
{
	j->state = JOB_DONE;
	rcl_redfish_xfer_release(&j->x);
	run->left--;
}

/* Queue @call to be handed back; the queue had room reserved when it joined. */
static void call_ended(struct rcl_redfish_run *run, struct rcl_redfish_call *call)
{
	run->ended[run->ended_head + run->ended_count++] = call;
}

/*
 * End @j with @outcome (status 0: success): a call keeps it and is handed
 * back; a login step that failed fails its client, and with it the calls
 * waiting for it.
 */
static void job_end(struct rcl_redfish_run *run, struct job *j, const struct rcl_error *outcome)
{
	job_done(run, j);
	if (j->kind == JOB_CALL) {
		j->call->err = *outcome;
		call_ended(run, j->call);
	} else if (outcome->status) {
		rcl_redfish_client_fail(j->client, outcome);
	}
}

/* A job to @c's root or sessions (@kind); the client's calls wait for it. */
static void client_connect(struct rcl_redfish_run *run, struct rcl_redfish_client *c,
                           enum job_kind kind)
{
	const char *path = kind == JOB_ROOT ? "/redfish/v1/" : c->sessions_uri;
	struct job *j =
	    job_add(run, kind, c, kind == JOB_ROOT ? RCL_REDFISH_GET : RCL_REDFISH_POST);
	struct rcl_error err;

	c->state = RCL_REDFISH_CONNECTING;
	if (!j || (kind == JOB_LOGIN && !(j->body = rcl_redfish_session_body(c)))) {
		rcl_fail(&err, RCL_NOMEM, "out of memory logging in to '%s'", c->host);
		rcl_redfish_client_fail(c, &err);
		if (j)
			job_done(run, j);
	} else if (rcl_redfish_url_join(c->origin, NULL, path, false, &j->url, &err)) {
		job_end(run, j, &err);
	}
}

/* Start @j's next attempt; its deadline runs from its first. */
static void job_start(struct rcl_redfish_run *run, struct job *j, uint64_t now)
{
	const struct rcl_redfish_call *call = j->kind == JOB_CALL ? j->call : NULL;
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	struct rcl_redfish_client *c = j->client;
	enum rcl_status status;
	struct rcl_error err;

	if (!j->deadline)
		j->deadline = now + (uint64_t)c->timeout_ms;
	status = rcl_redfish_xfer_setup(&j->x, c, j->method, j->url, call ? call->body : j->body,
	                                call ? call->if_match : NULL, j->kind != JOB_CALL,
	                                j->deadline > now ? (long)(j->deadline - now) : 1, &err);
	if (!status && curl->multi_add_handle(run->multi, j->x.easy) != CURLM_OK)
		status =
		    rcl_fail(&err, RCL_NOMEM, "out of memory starting a request to '%s'", c->host);
	if (status) {
		job_end(run, j, &err);
		return;
	}
	curl->easy_setopt(j->x.easy, CURLOPT_PRIVATE, j);
	j->token_gen = c->token_gen;
	j->state = JOB_RUNNING;
	j->connecting = !c->connected;
	run->connecting += j->connecting;
	c->active++;
	run->active++;
}

/* Whether waiting call @j may run now, having started its client's login if needed. */
static bool call_may_run(struct rcl_redfish_run *run, struct job *j)
{
	struct rcl_redfish_client *c = j->client;

	switch (c->state) {
	case RCL_REDFISH_FAILED:
		job_end(run, j, &c->failure);
		return false;
	case RCL_REDFISH_NEW:
		if (!j->call->as_is)
			client_connect(run, c, JOB_ROOT);
		return j->call->as_is;
	case RCL_REDFISH_CONNECTING:
		return false;
	case RCL_REDFISH_READY:
		break;
	}
	return true;
}

/* Free the jobs that ended, keeping the others in their order. */
static void sweep(struct rcl_redfish_run *run)
{
	size_t kept = 0;

	for (size_t i = 0; i < run->count; i++) {
		if (run->jobs[i]->state == JOB_DONE)
			job_free(run->jobs[i]);
		else
			run->jobs[kept++] = run->jobs[i];
	}
	run->count = kept;
}

/* Start every waiting job that may run, within the limits. */
static void admit(struct rcl_redfish_run *run)
{
	uint64_t now = rcl_redfish_now_ms();

	sweep(run);

	/* run->count may grow inside: login jobs join at the end and are seen in this pass. */
	for (size_t i = 0; i < run->count && run->active < run->total; i++) {
		struct job *j = run->jobs[i];

		if (j->state != JOB_WAITING || j->not_before > now)
			continue;
		if (j->kind == JOB_CALL && !call_may_run(run, j))
			continue;
		if (j->kind == JOB_CALL && j->call->login_only) {
			job_end(run, j, &(struct rcl_error){0});
			continue;
		}
		if (j->client->active < run->per_host &&
		    (j->client->connected || run->connecting < CONNECTING_MAX))
			job_start(run, j, now);
	}
}

/* Connection errors worth one more try: the request may never have reached the service. */
static bool retriable(CURLcode code)
{
	return code == CURLE_COULDNT_CONNECT || code == CURLE_SEND_ERROR ||
	       code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING;
}

/* Errors that condemn the host, not the one request: it does not connect or answer. */
static bool host_down(CURLcode code)
{
	return code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
	       code == CURLE_OPERATION_TIMEDOUT || code == CURLE_PEER_FAILED_VERIFICATION ||
	       code == CURLE_SSL_CONNECT_ERROR || code == CURLE_SSL_CACERT_BADFILE;
}

/* Try @j again after a delay, when its method allows it and its deadline leaves time. */
static bool retry(struct job *j, CURLcode code, uint64_t now)
{
	uint64_t delay = (uint64_t)RETRY_DELAY_MS << j->attempts;

	if (!retriable(code) || (j->method != RCL_REDFISH_GET && j->method != RCL_REDFISH_DELETE) ||
	    j->attempts >= j->client->retries || now + delay >= j->deadline)
		return false;
	j->attempts++;
	j->not_before = now + delay;
	j->state = JOB_WAITING;
	rcl_redfish_xfer_release(&j->x);
	return true;
}

/*
 * Follow @j's redirect to its Location: on the same host only, a GET on
 * any 3xx and other methods on 307 and 308 only (which keep the method
 * and body). Return: whether it waits to go again; else @err says why not.
 */
static bool redirect(struct job *j, struct rcl_error *err)
{
	const struct rcl_redfish_response *resp = job_resp(j);
	char *url, shown[RCL_QUOTE_MAX + 1];

	rcl_redfish_clean(job_path(j), shown, sizeof(shown));
	if (j->method != RCL_REDFISH_GET && resp->status != 307 && resp->status != 308) {
		rcl_fail(err, RCL_BAD_REPLY, "'%s' redirected %s '%s' (HTTP %ld); not followed",
		         j->client->host, rcl_redfish_method_name(j->method), shown, resp->status);
		return false;
	}
	if (++j->redirects > MAX_REDIRECTS) {
		rcl_fail(err, RCL_BAD_REPLY, "'%s' redirected '%s' more than %d times",
		         j->client->host, shown, MAX_REDIRECTS);
		return false;
	}
	if (rcl_redfish_url_join(j->client->origin, j->url, resp->location, true, &url, err))
		return false;
	rcl_free(j->url);
	j->url = url;
	j->state = JOB_WAITING;
	rcl_redfish_xfer_release(&j->x);
	return true;
}

/*
 * A 401 to a call on a session: the session expired or the BMC forgot it.
 * Log in once more (unless another call already did since this one
 * started) and repeat the call, once. Return: whether it waits to go again.
 */
static bool relogin(struct rcl_redfish_run *run, struct job *j)
{
	struct rcl_redfish_client *c = j->client;

	if (j->kind != JOB_CALL || j->call->as_is || !c->sessions_uri || j->relogged)
		return false;
	j->relogged = true;
	j->state = JOB_WAITING;
	rcl_redfish_xfer_release(&j->x);
	if (j->token_gen == c->token_gen && c->state == RCL_REDFISH_READY)
		client_connect(run, c, JOB_LOGIN);
	return true;
}

/* What a login step's outcome makes of its client (session.c decides). */
static void login_step(struct rcl_redfish_run *run, struct job *j, const struct rcl_error *outcome)
{
	struct rcl_redfish_client *c = j->client;

	if (j->kind == JOB_ROOT && !rcl_redfish_session_root(c, &j->own, outcome) &&
	    c->state == RCL_REDFISH_CONNECTING)
		client_connect(run, c, JOB_LOGIN);
	else if (j->kind == JOB_LOGIN)
		rcl_redfish_session_login(c, &j->x, &j->own, outcome);
	job_done(run, j);
}

/* @j's attempt ended with @code: decode, then end, retry, follow or log in again. */
static void job_finish(struct rcl_redfish_run *run, struct job *j, CURLcode code)
{
	struct rcl_redfish_response *resp = job_resp(j);
	struct rcl_redfish_client *c = j->client;
	uint64_t now = rcl_redfish_now_ms();
	struct rcl_error outcome = {0};

	rcl_redfish_curl()->multi_remove_handle(run->multi, j->x.easy);
	c->active--;
	run->active--;
	run->connecting -= j->connecting;
	j->connecting = false;
	/* A dropped connection makes the next request a handshake again (CONNECTING_MAX). */
	c->connected = rcl_redfish_xfer_kept(&j->x, code);
	if (rcl_redfish_xfer_decode(&j->x, code, c, j->method, job_path(j), resp, &outcome)) {
		if (retry(j, code, now))
			return;
		if (code != CURLE_OK && host_down(code))
			rcl_redfish_client_fail(c, &outcome);
	} else if (resp->status >= 300 && resp->status < 400 && resp->location) {
		if (redirect(j, &outcome))
			return;
	} else if (resp->status == 401 && relogin(run, j)) {
		return;
	} else if (resp->status < 200 || resp->status >= 300) {
		rcl_redfish_refusal(&outcome, c->host, j->method, job_path(j), resp);
	}
	if (j->kind == JOB_CALL)
		job_end(run, j, &outcome);
	else
		login_step(run, j, &outcome);
}

/* How long to wait for the network before a retry falls due (ms). */
static long poll_timeout(const struct rcl_redfish_run *run)
{
	uint64_t now = rcl_redfish_now_ms(), wait = POLL_MAX_MS;

	for (size_t i = 0; i < run->count; i++) {
		const struct job *j = run->jobs[i];

		if (j->state == JOB_WAITING && j->not_before > now && j->not_before - now < wait)
			wait = j->not_before - now;
	}
	return (long)wait;
}

/* CURLMOPT_SOCKETFUNCTION: watch @s for what libcurl waits on, or no more. */
static int on_socket(CURL *easy, curl_socket_t s, int what, void *arg, void *socketp)
{
	struct rcl_redfish_run *run = arg;
	struct epoll_event ev = {.data.fd = s};

	(void)easy;
	(void)socketp;
	if (what == CURL_POLL_REMOVE) {
		epoll_ctl(run->epoll, EPOLL_CTL_DEL, s, NULL); /* it may be closed already */
		return 0;
	}
	ev.events = (what & CURL_POLL_IN ? EPOLLIN : 0) | (what & CURL_POLL_OUT ? EPOLLOUT : 0);
	if (epoll_ctl(run->epoll, EPOLL_CTL_MOD, s, &ev) && errno == ENOENT)
		return epoll_ctl(run->epoll, EPOLL_CTL_ADD, s, &ev) ? -1 : 0;
	return 0;
}

/* CURLMOPT_TIMERFUNCTION: when libcurl wants to act on its own (-1: never). */
static int on_timer(CURLM *multi, long timeout_ms, void *arg)
{
	struct rcl_redfish_run *run = arg;

	(void)multi;
	run->timer_on = timeout_ms >= 0;
	run->timer_at = rcl_redfish_now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
	return 0;
}

/*
 * Wait until a socket is ready, libcurl's timer is due or a retry's
 * delay (poll_timeout()), then let libcurl act on what is ready.
 */
static void drive(struct rcl_redfish_run *run)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	struct epoll_event ev[EVENTS_MAX];
	uint64_t now = rcl_redfish_now_ms();
	long wait = poll_timeout(run);
	int n, running;

	if (run->timer_on && run->timer_at <= now)
		wait = 0;
	else if (run->timer_on && (long)(run->timer_at - now) < wait)
		wait = (long)(run->timer_at - now);
	n = epoll_wait(run->epoll, ev, EVENTS_MAX, (int)wait);
	for (int i = 0; i < n; i++) {
		int what = (ev[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) |
		           (ev[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
		           (ev[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);

		curl->multi_socket_action(run->multi, ev[i].data.fd, what, &running);
	}
	if (run->timer_on && run->timer_at <= rcl_redfish_now_ms()) {
		run->timer_on = false;
		curl->multi_socket_action(run->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	}
}

static void collect(struct rcl_redfish_run *run)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	struct CURLMsg *msg;
	int left;

	while ((msg = curl->multi_info_read(run->multi, &left))) {
		struct job *j;

		if (msg->msg != CURLMSG_DONE)
			continue;
		curl->easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&j);
		job_finish(run, j, msg->data.result);
	}
}

enum rcl_status rcl_redfish_run_new(const struct rcl_redfish_limits *limits,
                                    struct rcl_redfish_run **out, struct rcl_error *err)
{
	enum rcl_status status = rcl_redfish_curl_load(err);
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();
	struct rcl_redfish_run *run;

	if (status)
		return status;
	run = rcl_calloc(1, sizeof(*run));
	if (!run)
		return rcl_fail(err, RCL_NOMEM, "out of memory starting requests");
	run->epoll = epoll_create1(EPOLL_CLOEXEC);
	if (run->epoll < 0) {
		rcl_free(run);
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot start requests");
	}
	run->multi = curl->multi_init();
	if (!run->multi) {
		close(run->epoll);
		rcl_free(run);
		return rcl_fail(err, RCL_NOMEM, "out of memory starting requests");
	}
	curl->multi_setopt(run->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
	curl->multi_setopt(run->multi, CURLMOPT_SOCKETDATA, run);
	curl->multi_setopt(run->multi, CURLMOPT_TIMERFUNCTION, on_timer);
	curl->multi_setopt(run->multi, CURLMOPT_TIMERDATA, run);
	run->per_host = limits && limits->per_host ? limits->per_host : DEFAULT_PER_HOST;
	run->total = limits && limits->total ? limits->total : DEFAULT_TOTAL;
	*out = run;
	return RCL_OK;
}

/* Room in the queue of ended calls for one more, moving it to the front. */
static bool ended_reserve(struct rcl_redfish_run *run)
{
	size_t need = run->ended_count + run->left + 1;

	if (run->ended_count) /* memmove() of NULL, even of 0 bytes, is undefined */
		memmove(run->ended, run->ended + run->ended_head,
		        run->ended_count * sizeof(*run->ended));
	run->ended_head = 0;
	if (need > run->ended_alloc) {
		size_t alloc = 2 * need;
		struct rcl_redfish_call **ended = rcl_realloc(run->ended, alloc * sizeof(*ended));

		if (!ended)
			return false;
		run->ended = ended;
		run->ended_alloc = alloc;
	}
	return true;
}

enum rcl_status rcl_redfish_run_add(struct rcl_redfish_run *run, struct rcl_redfish_call *call,
                                    struct rcl_error *err)
{
	struct job *j =
	    ended_reserve(run) ? job_add(run, JOB_CALL, call->client, call->method) : NULL;

	if (!j)
		return rcl_fail(err, RCL_NOMEM, "out of memory queueing a request to '%s'",
		                call->client->host);
	j->call = call;
	call->err = (struct rcl_error){0};
	rcl_redfish_response_release(&call->resp);
	if (rcl_redfish_url_join(call->client->origin, NULL, call->path, false, &j->url,
	                         &call->err))
		job_end(run, j, &call->err);
	return RCL_OK;
}

struct rcl_redfish_call *rcl_redfish_run_next(struct rcl_redfish_run *run)
{
	while (!run->ended_count && run->left) {
		admit(run);
		if (run->ended_count || !run->left)
			break;
		drive(run);
		collect(run);
	}
	if (!run->ended_count)
		return NULL;
	run->ended_count--;
	return run->ended[run->ended_head++];
}

void rcl_redfish_run_free(struct rcl_redfish_run *run)
{
	const struct rcl_redfish_curl *curl = rcl_redfish_curl();

	if (!run)
		return;
	for (size_t i = 0; i < run->count; i++) {
		if (run->jobs[i]->state == JOB_RUNNING)
			curl->multi_remove_handle(run->multi, run->jobs[i]->x.easy);
		job_free(run->jobs[i]);
	}
	rcl_free(run->jobs);
	rcl_free(run->ended);
	curl->multi_cleanup(run->multi);
	close(run->epoll);
	rcl_free(run);
}

enum rcl_status rcl_redfish_run(struct rcl_redfish_call *calls, size_t count,
                                const struct rcl_redfish_limits *limits, struct rcl_error *err)
{
	struct rcl_redfish_run *run;
	struct rcl_error e = {0};

	for (size_t i = 0; i < count; i++)
		calls[i].err = (struct rcl_error){0};
	if (!rcl_redfish_run_new(limits, &run, &e)) {
		for (size_t i = 0; !e.status && i < count; i++)
			rcl_redfish_run_add(run, &calls[i], &e);
		while (!e.status && rcl_redfish_run_next(run))
			;
		rcl_redfish_run_free(run);
	}
	if (!e.status)
		return RCL_OK;
	/* The run could not be set up: every call gets why. */
	for (size_t i = 0; i < count; i++)
		calls[i].err = e;
	if (err)
		*err = e;
	return e.status;
}
