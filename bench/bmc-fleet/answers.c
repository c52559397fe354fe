// SPDX-License-Identifier: MIT
//
// answers.c - the answers of service.py's --dump file (its format is in
// service.py's dump()), kept as read, in one table by key, and written out
// as service.py's respond() writes them.
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "answers.h"

void die(const char *what)
{
	fprintf(stderr, "bmc-fleet: %s: %s\n", what, errno ? strerror(errno) : "failed");
	ERR_print_errors_fp(stderr);
	exit(1);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

void buf_add(struct buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	if (b->len + len > b->cap) {
		b->cap = (b->len + len) * 2;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
}

void buf_addf(struct buf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	buf_add(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

void buf_release(struct buf *b)
{
	free(b->data);
	*b = (struct buf){0};
}

// ---------------------------------------------------------- the answers
// A value inside a body that --vary-serials rewrites per host.
struct span {
	size_t at, len;
};

struct answer {
	char *key;
	int status;
	const char *head; // extra header lines, each ending in CRLF
	size_t head_len;
	const char *body; // NULL: none (204)
	size_t body_len;
	struct span *serials;
	size_t n_serials;
	bool marked; // a named answer: its @PATH@-style marks are filled in
};

static struct {
	char *user, *password, *basic; // basic: "Basic base64(user:password)"
	struct answer *slots;          // open addressing by key, a power of two
	size_t n_slots;
} dump;

static size_t hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return (size_t)h;
}

static struct answer *lookup(const char *key, size_t len)
{
	for (size_t i = hash(key, len) & (dump.n_slots - 1);; i = (i + 1) & (dump.n_slots - 1)) {
		struct answer *a = &dump.slots[i];

		if (!a->key || (strlen(a->key) == len && !memcmp(a->key, key, len)))
			return a;
	}
}

const struct answer *answers_named(const char *key)
{
	const struct answer *a = lookup(key, strlen(key));

	if (!a->key) {
		fprintf(stderr, "bmc-fleet: the dump has no %s answer\n", key);
		exit(1);
	}
	return a;
}

// The SerialNumber values of @body, into *@spans (grown with realloc) and *@n.
static void find_serials(const char *body, size_t len, struct span **spans, size_t *n)
{
	static const char mark[] = "\"SerialNumber\": \"";
	const char *p = body, *end = body + len;

	while (p && (p = memmem(p, end - p, mark, sizeof(mark) - 1))) {
		const char *v = p + sizeof(mark) - 1, *q = memchr(v, '"', end - v);

		if (!q)
			break;
		*spans = xrealloc(*spans, (*n + 1) * sizeof(**spans));
		(*spans)[(*n)++] = (struct span){v - body, q - v};
		p = q;
	}
}

static char *header_line(char **p, const char *name)
{
	size_t n = strlen(name);
	char *line = *p, *nl = strchr(line, '\n');

	if (!nl || strncmp(line, name, n) || line[n] != ' ')
		die("the dump's head is not service.py --dump's");
	*nl = '\0';
	*p = nl + 1;
	return line + n + 1;
}

// Reads service.py's --dump file (its format is in service.py's dump()).
void answers_load(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t size, n_records = 0, cap = 64;
	char *data, *p, *end, *pair;
	struct answer *records = NULL;

	if (!f || fseek(f, 0, SEEK_END) || (long)(size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die(path);
	data = xrealloc(NULL, size + 1);
	if (fread(data, 1, size, f) != size)
		die(path);
	fclose(f);
	data[size] = '\0';
	p = data;
	end = data + size;
	if (strncmp(p, "raidcli-bmc-dump 1\n", 19))
		die("not a dump of service.py --dump");
	p += 19;
	dump.user = header_line(&p, "user");
	dump.password = header_line(&p, "password");
	records = xrealloc(NULL, cap * sizeof(*records));
	while (p < end) {
		struct answer a = {0};
		int key_len, head_len, body_len, used;

		if (sscanf(p, "R %d %d %d %d\n%n", &key_len, &a.status, &head_len, &body_len,
		           &used) != 4 ||
		    key_len <= 0 || head_len < 0 || body_len < -1 ||
		    used + key_len + head_len + (body_len > 0 ? body_len : 0) > end - p)
			die("a record of the dump is cut or malformed");
		p += used;
		a.key = strndup(p, key_len);
		a.head = p + key_len;
		a.head_len = head_len;
		a.body = body_len < 0 ? NULL : a.head + head_len;
		a.body_len = body_len < 0 ? 0 : body_len;
		p += key_len + head_len + a.body_len;
		a.marked = strncmp(a.key, "GET ", 4) != 0;
		if (!a.marked) // a marked body's serials move as its marks are filled
			find_serials(a.body, a.body_len, &a.serials, &a.n_serials);
		if (n_records == cap)
			records = xrealloc(records, (cap *= 2) * sizeof(*records));
		records[n_records++] = a;
	}
	for (dump.n_slots = 16; dump.n_slots < 2 * n_records; dump.n_slots *= 2)
		;
	dump.slots = xrealloc(NULL, dump.n_slots * sizeof(*dump.slots));
	memset(dump.slots, 0, dump.n_slots * sizeof(*dump.slots));
	for (size_t i = 0; i < n_records; i++)
		*lookup(records[i].key, strlen(records[i].key)) = records[i];
	free(records);
	if (asprintf(&pair, "%s:%s", dump.user, dump.password) < 0)
		die("out of memory");
	dump.basic = xrealloc(NULL, 6 + 4 * (strlen(pair) / 3 + 1) + 1);
	memcpy(dump.basic, "Basic ", 6);
	EVP_EncodeBlock((unsigned char *)dump.basic + 6, (unsigned char *)pair, strlen(pair));
	free(pair);
}

const char *answers_user(void)
{
	return dump.user;
}

const char *answers_password(void)
{
	return dump.password;
}

const char *answers_basic(void)
{
	return dump.basic;
}

const struct answer *answers_find(const char *key, size_t len)
{
	const struct answer *a = lookup(key, len);

	return a->key ? a : NULL;
}

static void add_json_escaped(struct buf *b, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = s[i];

		if (ch == '"' || ch == '\\')
			buf_addf(b, "\\%c", ch);
		else if (ch < 0x20)
			buf_addf(b, "\\u%04x", ch);
		else
			buf_add(b, &ch, 1);
	}
}

static void add_filled(struct buf *b, const char *text, size_t len, const struct marks *m)
{
	const struct {
		const char *name, *value;
		size_t len;
	} fill[] = {{"@PATH@", m->path, m->path_len},
	            {"@METHOD@", m->method, m->method_len},
	            {"@VALUE@", m->value, m->value_len},
	            {"@SID@", m->sid, m->sid ? strlen(m->sid) : 0},
	            {"@TOKEN@", m->token, m->token ? strlen(m->token) : 0}};
	const char *end = text + len, *at;

	while ((at = memchr(text, '@', end - text))) {
		size_t i = 0;

		while (i < sizeof(fill) / sizeof(fill[0]) &&
		       (!fill[i].value || (size_t)(end - at) < strlen(fill[i].name) ||
		        memcmp(at, fill[i].name, strlen(fill[i].name))))
			i++;
		buf_add(b, text, at - text);
		if (i == sizeof(fill) / sizeof(fill[0])) {
			buf_add(b, "@", 1);
			text = at + 1;
			continue;
		}
		add_json_escaped(b, fill[i].value, fill[i].len);
		text = at + strlen(fill[i].name);
	}
	buf_add(b, text, end - text);
}

static const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 201:
		return "Created";
	case 204:
		return "No Content";
	case 400:
		return "Bad Request";
	case 401:
		return "Unauthorized";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 501:
		return "Not Implemented";
	default:
		return "Status";
	}
}

void answer_put(struct buf *out, const struct answer *a, const struct marks *m, int vary_host,
                bool close)
{
	static const struct marks none;
	struct buf filled = {0};
	const char *body = a->body;
	size_t len = a->body_len, at, n_serials = a->n_serials;
	struct span *serials = a->serials, *found = NULL;

	m = m ? m : &none;
	if (a->marked && body) {
		add_filled(&filled, body, len, m);
		body = filled.data;
		len = filled.len;
		n_serials = 0;
		if (vary_host >= 0)
			find_serials(body, len, &found, &n_serials);
		serials = found;
	}
	out->len = 0;
	buf_addf(out, "HTTP/1.1 %d %s\r\n", a->status, reason(a->status));
	if (body)
		buf_addf(out,
		         "Content-Type: application/json; charset=utf-8\r\n"
		         "Content-Length: %zu\r\n",
		         len);
	else
		buf_addf(out, "Content-Length: 0\r\n");
	buf_addf(out, "OData-Version: 4.0\r\nCache-Control: no-store\r\n");
	if (a->marked)
		add_filled(out, a->head, a->head_len, m);
	else
		buf_add(out, a->head, a->head_len);
	buf_addf(out, "Connection: %s\r\n\r\n", close ? "close" : "keep-alive");
	at = out->len;
	buf_add(out, body, len);
	buf_release(&filled);
	for (size_t i = 0; vary_host >= 0 && i < n_serials; i++) {
		char digits[16];
		size_t n = serials[i].len < 6 ? serials[i].len : 6;

		snprintf(digits, sizeof(digits), "%06d", vary_host % 1000000);
		memcpy(out->data + at + serials[i].at + serials[i].len - n, digits + 6 - n, n);
	}
	free(found);
}
