// SPDX-License-Identifier: MIT
//
// redfish.h - bmc-fleet's HTTP requests and their Redfish answers.
#ifndef BMC_FLEET_REDFISH_H
#define BMC_FLEET_REDFISH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "answers.h"

// A request's parts, pointing into the bytes it was parsed from.
struct request {
	const char *method, *target, *auth, *token, *body, *connection;
	size_t method_len, target_len, auth_len, token_len, body_len, connection_len;
	size_t size; // head and body: what to drop from the input once answered
};

// One host's sessions: ids count from 1, as service.py's.
struct sessions {
	uint32_t next_sid;
	uint64_t *open; // bit per session id: still logged in
	size_t open_words;
};

// A well-mixed 64-bit function of @x (splitmix64's).
uint64_t mix64(uint64_t x);
// Picks this run's key of session tokens.
void redfish_init(void);
// Whether @len bytes at @in start with a whole request; then @rq has its parts.
bool request_parse(const char *in, size_t len, struct request *rq);
// @rq's answer from host @index (its serials varied when @vary) into @out;
// returns whether the connection closes after it.
bool redfish_answer(struct sessions *sessions, int index, bool vary, const struct request *rq,
                    struct buf *out);

#endif
