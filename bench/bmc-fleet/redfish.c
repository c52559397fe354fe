// SPDX-License-Identifier: MIT
//
// redfish.c - bmc-fleet's requests: parsed, and answered as service.py's
// dispatch() answers them for a read-only BMC (the answers from answers.c),
// with sessions and Basic credentials checked here.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/rand.h>

#include "answers.h"
#include "redfish.h"

#define ROOT     "/redfish/v1/"
#define SESSIONS "/redfish/v1/SessionService/Sessions"

static uint64_t token_key; // random per run: a token is only this run's

uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static bool session_open(const struct sessions *s, uint32_t sid)
{
	return sid / 64 < s->open_words && (s->open[sid / 64] >> (sid % 64) & 1);
}

static void session_set(struct sessions *s, uint32_t sid, bool open)
{
	if (sid / 64 >= s->open_words) {
		size_t words = sid / 64 + 16;

		s->open = xrealloc(s->open, words * sizeof(*s->open));
		memset(s->open + s->open_words, 0, (words - s->open_words) * sizeof(*s->open));
		s->open_words = words;
	}
	if (open)
		s->open[sid / 64] |= 1ULL << (sid % 64);
	else
		s->open[sid / 64] &= ~(1ULL << (sid % 64));
}

// 32 hex digits, as service.py's tokens: hash, host index, session id.
static void make_token(char out[33], int host, uint32_t sid)
{
	uint64_t mac = mix64(token_key ^ ((uint64_t)host << 32 | sid));

	snprintf(out, 33, "%016" PRIx64 "%08x%08x", mac, (unsigned)host, sid);
}

// The session a token names on host @host, or 0 when it names none open.
static uint32_t token_session(const struct sessions *s, int host, const char *token, size_t len)
{
	char text[33], want[33];
	uint32_t sid;

	if (len != 32)
		return 0;
	memcpy(text, token, 32);
	text[32] = '\0';
	sid = (uint32_t)strtoul(text + 24, NULL, 16);
	make_token(want, host, sid);
	return strcmp(text, want) || !session_open(s, sid) ? 0 : sid;
}

static bool is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !strncasecmp(s, word, len);
}

static size_t field(const char *s, const char *end, char stop, const char **at)
{
	const char *e = memchr(s, stop, end - s);

	*at = s;
	return e ? (size_t)(e - s) : (size_t)(end - s);
}

bool request_parse(const char *head, size_t len, struct request *rq)
{
	const char *end, *line, *eol;
	size_t length = 0;

	end = len ? memmem(head, len, "\r\n\r\n", 4) : NULL;
	if (!end)
		return false;
	*rq = (struct request){0};
	line = head;
	eol = memmem(line, end + 2 - line, "\r\n", 2);
	rq->method_len = field(line, eol, ' ', &rq->method);
	line = rq->method + rq->method_len + (rq->method_len < (size_t)(eol - line));
	rq->target_len = field(line, eol, ' ', &rq->target);
	for (line = eol + 2; line < end + 2; line = eol + 2) {
		const char *name, *v;
		size_t name_len, v_len;

		eol = memmem(line, end + 2 - line, "\r\n", 2);
		name_len = field(line, eol, ':', &name);
		for (v = line + name_len + 1; v < eol && *v == ' '; v++)
			;
		v_len = v < eol ? (size_t)(eol - v) : 0;
		if (is(name, name_len, "authorization"))
			rq->auth = v, rq->auth_len = v_len;
		else if (is(name, name_len, "x-auth-token"))
			rq->token = v, rq->token_len = v_len;
		else if (is(name, name_len, "connection"))
			rq->connection = v, rq->connection_len = v_len;
		else if (is(name, name_len, "content-length"))
			length = strtoul(v, NULL, 10);
	}
	rq->size = end + 4 - head + length;
	if (rq->size > len)
		return false;
	rq->body = end + 4;
	rq->body_len = length;
	return true;
}

// A JSON string value of @key in a flat object (a login's body), unescaped.
static char *json_string(const char *body, size_t len, const char *key)
{
	char pattern[64];
	const char *p, *end = body + len;
	struct buf out = {0};

	snprintf(pattern, sizeof(pattern), "\"%s\"", key);
	p = memmem(body, len, pattern, strlen(pattern));
	if (!p)
		return NULL;
	for (p += strlen(pattern); p < end && (*p == ' ' || *p == ':'); p++)
		;
	if (p >= end || *p++ != '"')
		return NULL;
	for (; p < end && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < end)
			p++;
		buf_add(&out, p, 1);
	}
	buf_add(&out, "", 1);
	return out.data;
}

// One request being answered: for host @index, with its sessions.
struct call {
	struct sessions *sessions;
	int index, vary; // vary: the host's index with --vary-serials, else -1
	const struct request *rq;
	struct buf *out;
	bool close;
};

static void put(struct call *c, const struct answer *a, const struct marks *m)
{
	answer_put(c->out, a, m, c->vary, c->close);
}

static bool authenticated(struct call *c)
{
	const struct request *rq = c->rq;

	if (rq->token)
		return token_session(c->sessions, c->index, rq->token, rq->token_len) != 0;
	return rq->auth && rq->auth_len == strlen(answers_basic()) &&
	       !memcmp(rq->auth, answers_basic(), rq->auth_len);
}

static void login(struct call *c)
{
	char *user = json_string(c->rq->body, c->rq->body_len, "UserName");
	char *password = json_string(c->rq->body, c->rq->body_len, "Password");
	struct sessions *s = c->sessions;

	if (user && password && !strcmp(user, answers_user()) &&
	    !strcmp(password, answers_password())) {
		char sid[16], token[33];
		struct marks m = {.sid = sid, .token = token};

		snprintf(sid, sizeof(sid), "%u", ++s->next_sid);
		make_token(token, c->index, s->next_sid);
		session_set(s, s->next_sid, true);
		put(c, answers_named("LOGIN"), &m);
	} else {
		put(c, answers_named("LOGIN-REFUSED"), NULL);
	}
	free(user);
	free(password);
}

// A GET of @path (?$expand=@value) among the dumped answers.
static void get(struct call *c, const char *path, const char *value, const struct marks *m)
{
	struct buf key = {0};
	const struct answer *a;

	buf_addf(&key, "GET %s", path);
	if (value)
		buf_addf(&key, "?$expand=%s", value);
	a = answers_find(key.data, key.len);
	if (!a && value && answers_find(key.data, strlen(path) + 4))
		a = answers_named("EXPAND-BAD");
	put(c, a ? a : answers_named("MISSING"), m);
	buf_release(&key);
}

static int unhex(char ch)
{
	return ch >= '0' && ch <= '9'   ? ch - '0'
	       : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
	       : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
	                                : -1;
}

// Percent-decoded (and '+' as a space in a query value, as service.py's parse_query).
static char *decode(const char *s, size_t len, bool plus)
{
	char *out = xrealloc(NULL, len + 1), *o = out;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len && unhex(s[i + 1]) >= 0 && unhex(s[i + 2]) >= 0) {
			*o++ = (char)(unhex(s[i + 1]) * 16 + unhex(s[i + 2]));
			i += 2;
		} else {
			*o++ = plus && s[i] == '+' ? ' ' : s[i];
		}
	}
	*o = '\0';
	return out;
}

// The $expand value of a query, decoded, or NULL.
static char *expand_value(const char *query, size_t len)
{
	const char *p = query, *end = query + len;

	while (p < end) {
		const char *amp = memchr(p, '&', end - p), *stop = amp ? amp : end;
		const char *eq = memchr(p, '=', stop - p);
		char *key = decode(p, (eq ? eq : stop) - p, false);
		bool found = !strcmp(key, "$expand");

		free(key);
		if (found)
			return eq ? decode(eq + 1, stop - eq - 1, true) : strdup("");
		p = stop + 1;
	}
	return NULL;
}

// service.py's dispatch() for what the fleet serves.
static void route(struct call *c)
{
	const struct request *rq = c->rq;
	const char *q = memchr(rq->target, '?', rq->target_len);
	size_t path_len = q ? (size_t)(q - rq->target) : rq->target_len;
	char *path = decode(rq->target, path_len, false);
	char *value = q ? expand_value(q + 1, rq->target + rq->target_len - q - 1) : NULL;
	struct marks m = {.method = rq->method, .method_len = rq->method_len};
	bool get_ = is(rq->method, rq->method_len, "GET");
	size_t len = strlen(path);
	uint32_t sid;

	if (strcmp(path, ROOT))
		while (len && path[len - 1] == '/')
			path[--len] = '\0';
	if (!strcmp(path, "/redfish/v1")) {
		free(path);
		path = strdup(ROOT);
		len = strlen(ROOT);
	}
	m.path = path;
	m.path_len = len;
	m.value = value;
	m.value_len = value ? strlen(value) : 0;
	if (get_ && !strcmp(path, "/redfish"))
		put(c, answers_named("GET /redfish"), NULL);
	else if (get_ && !strcmp(path, ROOT))
		get(c, path, value, &m);
	else if (is(rq->method, rq->method_len, "POST") && !strcmp(path, SESSIONS))
		login(c);
	else if (!authenticated(c))
		put(c, answers_named("NO-SESSION"), NULL);
	else if (get_)
		get(c, path, value, &m);
	else if (is(rq->method, rq->method_len, "DELETE") &&
	         !strncmp(path, SESSIONS "/", sizeof(SESSIONS)) &&
	         (sid = (uint32_t)strtoul(path + sizeof(SESSIONS), NULL, 10)) &&
	         session_open(c->sessions, sid)) {
		session_set(c->sessions, sid, false);
		put(c, answers_named("DELETE-SESSION"), NULL);
	} else if (is(rq->method, rq->method_len, "DELETE") &&
	           !strncmp(path, SESSIONS "/", sizeof(SESSIONS)))
		put(c, answers_named("MISSING"), &m);
	else
		put(c, answers_named("NOT-ALLOWED"), &m);
	free(path);
	free(value);
}

void redfish_init(void)
{
	if (RAND_bytes((unsigned char *)&token_key, sizeof(token_key)) != 1)
		die("RAND_bytes");
}

bool redfish_answer(struct sessions *sessions, int index, bool vary, const struct request *rq,
                    struct buf *out)
{
	struct call c = {
	    .sessions = sessions, .index = index, .vary = vary ? index : -1, .rq = rq, .out = out};

	c.close = rq->connection && is(rq->connection, rq->connection_len, "close");
	route(&c);
	return c.close;
}
