// SPDX-License-Identifier: MIT
/*
 * control.c - the control socket's protocol, both ends: a CLI forwards a
 * command to its controller's process and gets the result tree back; the
 * process runs the command (the CLI's service_handler) and sends it. Also
 * the process's files, the owner-lock probe, start on demand and stop.
 *
 * One connection carries one exchange: the client writes a JSON request
 * and shuts down its sending side; the process answers and closes.
 *	request: {"argv": ["/c0/v0", "set", "name=x"], "ctrl": 0,
 *		  "version": "0.1.0", "tz": "UTC"}
 *	reply:	 {"results": [{"ctrl": 0, "status": 0, "description": "...",
 *		   "detail": NODE|null, "data": NODE|null}, ...]}
 *	NODE:	 {"t": "o"|"a"|"s"|"i", "k": key, "l": label, "g": legend,
 *		   "f": flags, "v": children, string or integer}
 * Rendering stays in the CLI, so text, JSON and colour come out exactly
 * as if the command had run locally. The argv is the user's own, parsed
 * again by the process (/call narrowed to the one controller).
 *
 * Over 800 lines: the protocol and the controller process's start and
 * stop, to be split when the backend contract reworks them (issue 22).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "service.h"
#include "sock-io.h"

/* How long a starting process may take to answer, and a stopping one to exit. */
#define START_TIMEOUT_MS 10000
#define STOP_TIMEOUT_MS  60000
#define POLL_MS          20
/* How long a process whose connection broke may take to let go of its owner lock. */
#define DYING_MS 1000
/* The largest request or reply accepted (a reply is the result tree of one command). */
#define MESSAGE_MAX (64u << 20)

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static bool set_path(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool set_path(char *out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, PATH_MAX, fmt, ap);
	va_end(ap);
	return n >= 0 && n < PATH_MAX;
}

enum rcl_status service_paths(struct rcl_ctx *lib, unsigned id, struct service_paths *p,
                              struct rcl_error *err)
{
	const struct rcl_registry_entry *entry = NULL;
	const char *dir = lib->state_dir;

	for (size_t i = 0; i < lib->count; i++)
		if (lib->entries[i].id == id)
			entry = &lib->entries[i];
	if (!entry)
		return rcl_fail(err, RCL_NOT_FOUND, "controller /c%u not found", id);
	memset(p, 0, sizeof(*p));
	p->id = id;
	snprintf(p->name, sizeof(p->name), "%s-%s", entry->ops->name, entry->key);
	if (!set_path(p->state_dir, "%s", dir) || !set_path(p->run_dir, "%s/run", dir) ||
	    !set_path(p->owner, "%s/locks/%s.owner", dir, p->name) ||
	    !set_path(p->socket, "%s/run/%s.sock", dir, p->name) ||
	    !set_path(p->log, "%s/run/%s.log", dir, p->name) ||
	    !set_path(p->exports, "%s/exports/%s.json", dir, p->name))
		return rcl_fail(err, RCL_SYSTEM, "the state directory '%s' is too long", dir);
	return RCL_OK;
}

enum rcl_status service_make_parent(const struct service_paths *p, const char *path,
                                    struct rcl_error *err)
{
	size_t start = strlen(p->state_dir) + 1;
	char sub[PATH_MAX];

	snprintf(sub, sizeof(sub), "%.*s", (int)(strrchr(path, '/') - path - (ptrdiff_t)start),
	         path + start);
	return rcl_mkdir_in(p->state_dir, sub, 0700, err);
}

enum rcl_status service_check_socket(const char *path, const char *what, struct rcl_error *err)
{
	if (strlen(path) <= SERVICE_SOCKET_MAX)
		return RCL_OK;
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "the %s path '%s' is %zu bytes long; a Unix socket path holds at most %d "
	                "(use a shorter path, or a shorter RAIDCLI_STATE_DIR)",
	                what, path, strlen(path), SERVICE_SOCKET_MAX);
}

void service_unlink_files(const struct service_paths *p)
{
	unlink(p->exports);
	unlink(p->socket);
	unlink(p->log);
	unlink(p->owner);
}

/* The pid the owner wrote into its lock file; 0 before it has. */
static pid_t read_pid(int fd)
{
	char text[24] = "";
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	long pid = n > 0 ? strtol(text, NULL, 10) : 0;

	return pid > 0 ? (pid_t)pid : 0;
}

pid_t service_pid(const struct service_paths *p)
{
	int fd = open(p->owner, O_RDONLY | O_CLOEXEC);
	pid_t pid = 0;

	if (fd < 0)
		return 0;
	/* Held: a process runs. It writes its pid right after locking. */
	for (int tries = 0; flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK; tries++) {
		pid = read_pid(fd);
		if (pid || tries == START_TIMEOUT_MS / POLL_MS)
			break;
		sleep_ms(POLL_MS);
	}
	close(fd);
	return pid;
}

/* ------------------------------------------------------------------------
 * Socket I/O. */

void service_sockaddr(struct sockaddr_un *addr, const char *path)
{
	size_t len = strlen(path);

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	/* Callers checked the length (service_check_socket()); never overrun regardless. */
	memcpy(addr->sun_path, path,
	       len < sizeof(addr->sun_path) ? len : sizeof(addr->sun_path) - 1);
}

static int connect_socket(const char *path)
{
	struct sockaddr_un addr;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	service_sockaddr(&addr, path);
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* Send all of @data on the control socket (sock-io.h: EPIPE, not SIGPIPE). */
static enum rcl_status send_all(int fd, const char *data, struct rcl_error *err)
{
	if (sock_send_all(fd, data, strlen(data)))
		return rcl_fail_errno(err, RCL_SYSTEM, errno,
		                      "cannot send on the control socket: %s", strerror(errno));
	return RCL_OK;
}

/* Read @fd to its end into @sb. Return: 0, or an errno. */
static int read_to_end(int fd, struct rcl_buf *sb)
{
	char chunk[65536];

	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (!n)
			return sb->oom ? ENOMEM : 0;
		if (sb->len + (size_t)n > MESSAGE_MAX)
			return EMSGSIZE;
		rcl_buf_add(sb, chunk, (size_t)n);
	}
}

static enum rcl_status service_exchange(int fd, const char *request, struct rcl_buf *reply,
                                        struct rcl_error *err)
{
	enum rcl_status st = send_all(fd, request, err);
	int e;

	if (st)
		return st;
	shutdown(fd, SHUT_WR);
	e = read_to_end(fd, reply);
	if (e)
		return rcl_fail_errno(err, RCL_SYSTEM, e,
		                      "cannot read the controller process's reply: %s",
		                      strerror(e));
	return RCL_OK;
}

/* ------------------------------------------------------------------------
 * The result tree on the wire. */

static json_object *node_to_json(const struct rcl_node *node)
{
	static const char *const kinds[] = {[RCL_NODE_OBJECT] = "o",
	                                    [RCL_NODE_ARRAY] = "a",
	                                    [RCL_NODE_STRING] = "s",
	                                    [RCL_NODE_INT] = "i"};
	enum rcl_node_kind kind = rcl_node_kind(node);
	json_object *obj = json_object_new_object(), *kids;
	const char *key = rcl_node_key(node);

	json_object_object_add(obj, "t", json_object_new_string(kinds[kind]));
	if (key)
		json_object_object_add(obj, "k", json_object_new_string(key));
	if (key && strcmp(rcl_node_label(node), key))
		json_object_object_add(obj, "l", json_object_new_string(rcl_node_label(node)));
	if (rcl_node_legend(node))
		json_object_object_add(obj, "g", json_object_new_string(rcl_node_legend(node)));
	if (rcl_node_flags(node))
		json_object_object_add(obj, "f", json_object_new_int((int)rcl_node_flags(node)));
	switch (kind) {
	case RCL_NODE_STRING:
		json_object_object_add(obj, "v", json_object_new_string(rcl_node_str(node)));
		break;
	case RCL_NODE_INT:
		json_object_object_add(obj, "v", json_object_new_int64(rcl_node_int(node)));
		break;
	case RCL_NODE_OBJECT:
	case RCL_NODE_ARRAY:
		kids = json_object_new_array();
		for (size_t i = 0; i < rcl_node_count(node); i++)
			json_object_array_add(kids, node_to_json(rcl_node_child(node, i)));
		json_object_object_add(obj, "v", kids);
		break;
	}
	return obj;
}

static const char *json_str(json_object *obj, const char *key)
{
	const char *s = NULL;

	return rcl_json_get_str(obj, key, &s) ? s : NULL;
}

static void node_attrs_from_json(struct rcl_node *node, json_object *obj);
static bool kids_from_json(struct rcl_node *node, json_object *kids);

/* Append the node @obj describes to @parent. Return: false if @obj is malformed. */
static bool node_from_json(struct rcl_node *parent, json_object *obj)
{
	const char *kind = json_str(obj, "t"), *key = json_str(obj, "k"), *text;
	json_object *val = NULL;
	struct rcl_node *node;

	if (!kind || !json_object_object_get_ex(obj, "v", &val))
		return false;
	if (!strcmp(kind, "s") && (text = json_object_get_string(val)))
		node = rcl_node_add_str(parent, key, text);
	else if (!strcmp(kind, "i"))
		node = rcl_node_add_int(parent, key, json_object_get_int64(val));
	else if (!strcmp(kind, "o"))
		node = rcl_node_add_object(parent, key);
	else if (!strcmp(kind, "a"))
		node = rcl_node_add_array(parent, key);
	else
		return false;
	if (!node)
		return true; /* out of memory: the parent remembers it */
	node_attrs_from_json(node, obj);
	return (*kind != 'o' && *kind != 'a') || kids_from_json(node, val);
}

/* Label, legend and flags of @obj onto @node. */
static void node_attrs_from_json(struct rcl_node *node, json_object *obj)
{
	json_object *flags;

	if (json_str(obj, "l"))
		rcl_node_set_label(node, json_str(obj, "l"));
	if (json_str(obj, "g"))
		rcl_node_set_legend(node, json_str(obj, "g"));
	if (json_object_object_get_ex(obj, "f", &flags))
		rcl_node_set_flags(node, (unsigned)json_object_get_int(flags));
}

/* Append @kids (a JSON array of nodes) to @node. Return: false if malformed. */
static bool kids_from_json(struct rcl_node *node, json_object *kids)
{
	if (!json_object_is_type(kids, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(kids); i++)
		if (!node_from_json(node, json_object_array_get_idx(kids, i)))
			return false;
	return true;
}

/* The root node (data or detail) @obj describes, in a new tree; NULL for JSON null. */
static bool tree_from_json(json_object *obj, struct rcl_node **out)
{
	const char *kind = json_str(obj, "t");
	json_object *kids = NULL;

	*out = NULL;
	if (!obj)
		return true;
	if (!kind || (strcmp(kind, "o") && strcmp(kind, "a")) ||
	    !json_object_object_get_ex(obj, "v", &kids))
		return false;
	*out = *kind == 'o' ? rcl_node_new_object() : rcl_node_new_array();
	if (!*out)
		return true; /* the caller's result keeps its own empty data */
	node_attrs_from_json(*out, obj);
	if (kids_from_json(*out, kids))
		return true;
	rcl_node_free(*out);
	*out = NULL;
	return false;
}

static json_object *result_to_json(const struct rcl_result *res)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "ctrl", json_object_new_int(res->ctrl));
	json_object_object_add(obj, "status", json_object_new_int((int)res->status));
	json_object_object_add(obj, "description", json_object_new_string(res->description));
	json_object_object_add(obj, "detail", res->detail ? node_to_json(res->detail) : NULL);
	json_object_object_add(obj, "data", res->data ? node_to_json(res->data) : NULL);
	return obj;
}

/* Fill @res from the process's result @obj. */
static enum rcl_status result_from_json(json_object *obj, struct rcl_result *res,
                                        struct rcl_error *err)
{
	json_object *detail = NULL, *data = NULL;
	struct rcl_node *detail_tree, *data_tree;
	const char *description = json_str(obj, "description");
	uint64_t status;

	json_object_object_get_ex(obj, "detail", &detail);
	json_object_object_get_ex(obj, "data", &data);
	if (!description || !rcl_json_get_uint(obj, "status", 255, &status) ||
	    !tree_from_json(detail, &detail_tree))
		return rcl_fail(err, RCL_SYSTEM, "the controller process sent a malformed reply");
	if (!tree_from_json(data, &data_tree)) {
		rcl_node_free(detail_tree);
		return rcl_fail(err, RCL_SYSTEM, "the controller process sent a malformed reply");
	}
	res->status = (enum rcl_status)status;
	rcl_result_describe(res, "%s", description);
	rcl_node_free(res->detail);
	rcl_node_free(res->data);
	res->detail = detail_tree;
	res->data = data_tree;
	return RCL_OK;
}

/* ------------------------------------------------------------------------
 * The process's end: one request in, its results out. */

/* Take the caller's time zone for the command, as times are formatted in local time. */
static void use_time_zone(json_object *req)
{
	const char *tz = json_str(req, "tz");

	if (tz)
		setenv("TZ", tz, 1);
	else
		unsetenv("TZ");
	tzset();
}

/* One log line per command: its words and how it ended. */
static void log_command(char *const *argv, size_t argc, const struct rcl_reply *reply)
{
	struct rcl_buf words = RCL_BUF_INIT;
	enum rcl_status st = rcl_reply_status(reply);

	for (size_t i = 0; i < argc; i++)
		rcl_buf_addf(&words, "%s%s", i ? " " : "", argv[i]);
	if (st)
		service_log("ran '%s': failed (%d): %s", words.buf, (int)st,
		            reply->count ? reply->results[0].description : "");
	else
		service_log("ran '%s': ok", words.buf);
	rcl_buf_release(&words);
}

/* A failure of the request itself, for no controller in particular. */
static void reply_error(struct rcl_reply *reply, const struct rcl_error *err)
{
	struct rcl_result *res = rcl_reply_add(reply, -1);

	if (res)
		rcl_result_fail(res, err);
}

/* Run the request's argv on controller @id into @reply, through @run. */
static void run_request(json_object *req, unsigned id, service_handler *run,
                        struct rcl_reply *reply)
{
	json_object *words = NULL;
	struct rcl_error err = {0};
	char *argv[64];
	size_t argc = 0;

	if (json_object_object_get_ex(req, "argv", &words) &&
	    json_object_is_type(words, json_type_array))
		argc = json_object_array_length(words);
	for (size_t i = 0; i < argc && i < sizeof(argv) / sizeof(argv[0]); i++) {
		json_object *word = json_object_array_get_idx(words, i);

		argv[i] = json_object_is_type(word, json_type_string)
		              ? (char *)json_object_get_string(word)
		              : NULL;
		if (!argv[i])
			argc = 0;
	}
	if (!argc || argc > sizeof(argv) / sizeof(argv[0])) {
		rcl_fail(&err, RCL_INVALID_COMMAND,
		         "the controller process got a malformed request");
		reply_error(reply, &err);
		return;
	}
	/* Another version may parse the words otherwise: ask for a restart instead. */
	if (!json_str(req, "version") || strcmp(json_str(req, "version"), RAIDCLI_VERSION)) {
		rcl_fail(&err, RCL_NOT_ALLOWED,
		         "the controller process of /c%u runs raidcli %s, this is raidcli %s; "
		         "restart it: raidcli /c%u stop service",
		         id, RAIDCLI_VERSION,
		         json_str(req, "version") ? json_str(req, "version") : "(unknown)", id);
		reply_error(reply, &err);
		return;
	}
	use_time_zone(req);
	run((int)argc, argv, id, reply);
	log_command(argv, argc, reply);
}

static char *handle_request(const char *text, unsigned id, service_handler *run)
{
	json_object *req = json_tokener_parse(text), *results = json_object_new_array();
	json_object *root = json_object_new_object();
	struct rcl_reply reply;
	char *out;

	rcl_reply_init(&reply);
	run_request(req, id, run, &reply);
	for (size_t i = 0; i < reply.count; i++)
		json_object_array_add(results, result_to_json(&reply.results[i]));
	json_object_object_add(root, "results", results);
	out = rcl_strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
	json_object_put(root);
	json_object_put(req);
	rcl_reply_release(&reply);
	return out;
}

bool service_answer(int fd, unsigned id, service_handler *run, void (*ran)(unsigned id))
{
	struct rcl_buf request = RCL_BUF_INIT;
	struct rcl_error err = {0};
	char *reply;
	int e = read_to_end(fd, &request);

	/* Nothing sent: a starter checking that the socket answers. */
	if (e || !request.len) {
		if (e)
			service_log("dropped a request: %s", strerror(e));
		rcl_buf_release(&request);
		return false;
	}
	reply = handle_request(request.buf, id, run);
	/* Before answering: when the CLI returns, what runs follows the change. */
	ran(id);
	if (!reply || send_all(fd, reply, &err))
		service_log("could not answer a request: %s", reply ? err.msg : "out of memory");
	rcl_free(reply);
	rcl_buf_release(&request);
	return true;
}

/* ------------------------------------------------------------------------
 * The client's end. */

/* Connect to @p's process, waiting while it is starting. Return: the socket or -1. */
static int connect_service(const struct service_paths *p, pid_t *pid, struct rcl_error *err)
{
	for (int tries = 0;; tries++) {
		int fd = connect_socket(p->socket), e = errno;

		if (fd >= 0)
			return fd;
		/* Gone meanwhile: the caller runs the command itself. */
		if (!(*pid = service_pid(p)))
			return -1;
		/* Not listening yet (it takes its lock first): wait. */
		if ((e != ENOENT && e != ECONNREFUSED) || tries == START_TIMEOUT_MS / POLL_MS) {
			rcl_fail_errno(
			    err, RCL_SYSTEM, e,
			    "cannot reach the controller process of /c%u (pid %d) at '%s': "
			    "%s; the command did not run",
			    p->id, (int)*pid, p->socket, strerror(e));
			return -1;
		}
		sleep_ms(POLL_MS);
	}
}

/*
 * Whether @p's process is gone, or goes within @ms: one that dies closes
 * its sockets a moment before the kernel drops its owner lock.
 */
static bool exited(const struct service_paths *p, unsigned ms)
{
	for (unsigned waited = 0; service_pid(p); waited += POLL_MS) {
		if (waited >= ms)
			return false;
		sleep_ms(POLL_MS);
	}
	return true;
}

static char *request_text(int argc, char *const *argv, unsigned id)
{
	json_object *req = json_object_new_object(), *words = json_object_new_array();
	const char *tz = getenv("TZ");
	char *text;

	for (int i = 0; i < argc; i++)
		json_object_array_add(words, json_object_new_string(argv[i]));
	json_object_object_add(req, "argv", words);
	json_object_object_add(req, "ctrl", json_object_new_int((int)id));
	json_object_object_add(req, "version", json_object_new_string(RAIDCLI_VERSION));
	if (tz)
		json_object_object_add(req, "tz", json_object_new_string(tz));
	text = rcl_strdup(json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN));
	json_object_put(req);
	return text;
}

static enum rcl_status parse_reply(const char *text, struct rcl_result *res, struct rcl_error *err)
{
	json_object *root = json_tokener_parse(text), *results = NULL;
	enum rcl_status st;

	if (!json_object_object_get_ex(root, "results", &results) ||
	    json_object_array_length(results) != 1)
		st = rcl_fail(err, RCL_SYSTEM, "the controller process sent a malformed reply");
	else
		st = result_from_json(json_object_array_get_idx(results, 0), res, err);
	json_object_put(root);
	return st;
}

/*
 * Whether the exchange failed in a way that shows the process never took
 * the request: on a Linux AF_UNIX stream socket, a peer that closes with
 * data of ours unread, or before it accepted the connection at all (a
 * process killed as the command was sent), resets the connection
 * (ECONNRESET), and one closed before the send ended breaks the pipe
 * (EPIPE). A process that read the request and died running it leaves no
 * such trace: the connection just ends, with no reply.
 */
static bool request_untaken(enum rcl_status st, const struct rcl_error *err)
{
	return st && (err->sys_errno == EPIPE || err->sys_errno == ECONNRESET);
}

enum rcl_status service_forward(struct rcl_ctx *lib, int argc, char *const *argv, bool writes,
                                unsigned id, struct rcl_result *res, bool *forwarded,
                                struct rcl_error *err)
{
	struct rcl_buf reply = RCL_BUF_INIT;
	struct service_paths p;
	enum rcl_status st;
	bool untaken;
	char *request;
	pid_t pid;
	int fd;

	*forwarded = false;
	/* No such controller: running it locally reports that. */
	if (service_self(id) || service_paths(lib, id, &p, err) || !(pid = service_pid(&p)))
		return RCL_OK;
	st = service_check_socket(p.socket, "control socket", err);
	if (st)
		return st;
	fd = connect_service(&p, &pid, err);
	if (fd < 0)
		return pid ? err->status : RCL_OK;
	request = request_text(argc, argv, id);
	if (!request) {
		close(fd);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	st = service_exchange(fd, request, &reply, err);
	close(fd);
	untaken = request_untaken(st, err);
	if ((untaken || ((st || !reply.len) && !writes)) && exited(&p, DYING_MS)) {
		/*
		 * It died before taking the command, or before answering one
		 * that changes nothing: the caller runs it without the process,
		 * or in a new one.
		 */
		*err = (struct rcl_error){0};
		rcl_free(request);
		rcl_buf_release(&reply);
		return RCL_OK;
	}
	if (untaken)
		st =
		    rcl_fail_errno(err, RCL_SYSTEM, err->sys_errno,
		                   "the controller process of /c%u (pid %d) dropped the connection "
		                   "before it took the command (%s); the command did not run: see "
		                   "its log %s",
		                   id, (int)pid, strerror(err->sys_errno), p.log);
	else if (!st && !reply.len)
		st = rcl_fail(
		    err, RCL_SYSTEM,
		    "the controller process of /c%u (pid %d) did not answer (it closed the "
		    "connection); whether the command took effect is unknown: see its log %s",
		    id, (int)pid, p.log);
	if (!st)
		st = parse_reply(reply.buf, res, err);
	*forwarded = !st;
	rcl_free(request);
	rcl_buf_release(&reply);
	return st;
}

/* ------------------------------------------------------------------------
 * Start on demand and stop. */

/* The grandchild: become "raidcli /cN serve", logging to @p->log. Never returns. */
static void exec_serve(const struct service_paths *p, const char *exe)
{
	int log = open(p->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char ctrl[16];

	snprintf(ctrl, sizeof(ctrl), "/c%u", p->id);
	if (log < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(log, STDOUT_FILENO) < 0 ||
	    dup2(log, STDERR_FILENO) < 0)
		_exit(127);
	/* Nothing of the caller's (a shell's terminal, say) stays open in the process. */
	close_range(STDERR_FILENO + 1, ~0u, 0);
	/* The same state directory as this CLI's, however it found it. */
	setenv("RAIDCLI_STATE_DIR", p->state_dir, 1);
	setenv(SERVICE_ON_DEMAND_ENV, "1", 1);
	execl(exe, "raidcli", ctrl, "serve", (char *)NULL);
	dprintf(STDERR_FILENO, "raidcli: cannot run '%s': %s\n", exe, strerror(errno));
	_exit(127);
}

/*
 * Fork a detached process: the child starts a new session and forks the
 * server, then exits at once, so the server is nobody's zombie. Return:
 * the server's pid, or -1.
 */
static pid_t spawn_detached(const struct service_paths *p, const char *exe)
{
	int fds[2];
	pid_t child, server = -1;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	child = fork();
	if (child == 0) {
		pid_t pid;

		close(fds[0]);
		setsid();
		pid = fork();
		if (pid == 0)
			exec_serve(p, exe);
		if (write(fds[1], &pid, sizeof(pid)) != sizeof(pid))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (child > 0) {
		waitpid(child, NULL, 0);
		if (read(fds[0], &server, sizeof(server)) != sizeof(server))
			server = -1;
	}
	close(fds[0]);
	return server;
}

/* Wait until @p's socket answers; the process is @pid. */
static enum rcl_status wait_answer(const struct service_paths *p, pid_t pid, struct rcl_error *err)
{
	for (int tries = 0; tries <= START_TIMEOUT_MS / POLL_MS; tries++) {
		int fd = connect_socket(p->socket);

		if (fd >= 0) {
			close(fd);
			return RCL_OK;
		}
		if (kill(pid, 0) && errno == ESRCH)
			return rcl_fail(err, RCL_SYSTEM,
			                "the controller process of /c%u exited while starting; see "
			                "its log: %s",
			                p->id, p->log);
		sleep_ms(POLL_MS);
	}
	return rcl_fail(err, RCL_SYSTEM,
	                "the controller process of /c%u (pid %d) did not answer within %d s; see "
	                "its log: %s",
	                p->id, (int)pid, START_TIMEOUT_MS / 1000, p->log);
}

enum rcl_status service_start(struct rcl_ctx *lib, unsigned id, bool *started,
                              struct rcl_error *err)
{
	char exe[PATH_MAX];
	struct service_paths p;
	enum rcl_status st;
	ssize_t n;
	pid_t pid;

	*started = false;
	st = service_paths(lib, id, &p, err);
	if (!st)
		st = service_check_socket(p.socket, "control socket", err);
	if (st || service_self(id))
		return st;
	pid = service_pid(&p);
	if (pid)
		return wait_answer(&p, pid, err);
	st = service_make_parent(&p, p.socket, err);
	if (st)
		return st;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot find the raidcli program: %s",
		                      strerror(errno));
	exe[n] = '\0';
	pid = spawn_detached(&p, exe);
	if (pid < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno,
		                      "cannot start the controller process of /c%u: %s", id,
		                      strerror(errno));
	*started = true;
	return wait_answer(&p, pid, err);
}

/* Wait for the process behind @pidfd to exit (it has dropped its lock: it is exiting). */
static bool wait_exit(int pidfd)
{
	struct pollfd exit = {.fd = pidfd, .events = POLLIN};

	return poll(&exit, 1, STOP_TIMEOUT_MS) == 1;
}

enum rcl_status service_stop(struct rcl_ctx *lib, unsigned id, pid_t *pid, struct rcl_error *err)
{
	struct service_paths p;
	enum rcl_status st = service_paths(lib, id, &p, err);
	int pidfd;

	*pid = 0;
	if (st)
		return st;
	if (service_self(id))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "the controller process of /c%u cannot stop itself this way; send "
		                "it SIGTERM",
		                id);
	*pid = service_pid(&p);
	if (!*pid)
		return RCL_OK;
	/* A pidfd says when it has exited, not just dropped its lock (it is not our child). */
	pidfd = (int)syscall(SYS_pidfd_open, *pid, 0);
	if (kill(*pid, SIGTERM) && errno != ESRCH)
		st = rcl_fail_errno(err, RCL_SYSTEM, errno,
		                    "cannot stop the controller process of /c%u (pid %d): %s", id,
		                    (int)*pid, strerror(errno));
	else if (!exited(&p, STOP_TIMEOUT_MS) || (pidfd >= 0 && !wait_exit(pidfd)))
		st = rcl_fail(
		    err, RCL_BUSY,
		    "the controller process of /c%u (pid %d) did not stop within %d s; see "
		    "its log: %s",
		    id, (int)*pid, STOP_TIMEOUT_MS / 1000, p.log);
	if (pidfd >= 0)
		close(pidfd);
	return st;
}
