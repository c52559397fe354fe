// SPDX-License-Identifier: MIT
//
// answers.h - what bmc-fleet answers: the answers service.py dumped for a
// tree (service.py --dump), found by key and written out as HTTP responses.
#ifndef BMC_FLEET_ANSWERS_H
#define BMC_FLEET_ANSWERS_H

#include <stdbool.h>
#include <stddef.h>

// Prints what failed (errno's and OpenSSL's reasons too) and exits 1.
void die(const char *what);
void *xrealloc(void *p, size_t n);

// A growable byte buffer; data is NULL until something is added.
struct buf {
	char *data;
	size_t len, cap;
};

void buf_add(struct buf *b, const void *data, size_t len);
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_release(struct buf *b);

struct answer;

// The values the marks of a named answer stand for (NULL: left as they are).
struct marks {
	const char *path, *method, *value, *sid, *token;
	size_t path_len, method_len, value_len;
};

// Reads service.py's --dump file; exits if it cannot.
void answers_load(const char *path);
// The tree's user name, password, and "Basic base64(user:password)".
const char *answers_user(void);
const char *answers_password(void);
const char *answers_basic(void);
// The answer dumped under @key ("GET PATH[?$expand=V]" or a name), or NULL.
const struct answer *answers_find(const char *key, size_t len);
// The answer named @key, which every dump has.
const struct answer *answers_named(const char *key);

// @a as service.py sends it, into @out (emptied first): its marks filled
// from @m, and with @vary_host >= 0 the last digits of each SerialNumber
// made that host's index; "Connection: close" when @close.
void answer_put(struct buf *out, const struct answer *a, const struct marks *m, int vary_host,
                bool close);

#endif
