// SPDX-License-Identifier: MIT
/*
 * render.c - a reply printed as text or StorCLI JSON, whole or a result at
 * a time (struct render_stream): one path for both, so the bytes are the
 * same either way.
 */
#include "cli.h"

static void render_one(struct render_stream *rs, const struct rcl_result *res)
{
	if (rs->json)
		render_json_result(rs->out, res, rs->printed);
	else
		render_text_result(rs->out, res, rs->color, rs->printed);
	rs->printed++;
}

void render_flush(struct render_stream *rs, struct rcl_reply *reply)
{
	for (; rs->next < reply->count; rs->next++) {
		struct rcl_result *res = &reply->results[rs->next];

		render_one(rs, res);
		/* What decides the exit status (each result's) stays. */
		rcl_node_free(res->data);
		res->data = NULL;
		rcl_node_free(res->detail);
		res->detail = NULL;
	}
	/* Someone watching a fleet sees each controller as it answers. */
	fflush(rs->out);
}

void render_end(struct render_stream *rs)
{
	if (rs->json)
		render_json_end(rs->out, rs->printed);
}

bool render_command_failed(const struct rcl_reply *reply)
{
	return reply->count && reply->results[0].ctrl < 0 && reply->results[0].status;
}

/*
 * After results printed as they came, a failure that had no room for a
 * result of its own: the printed ones must not read as the whole answer.
 */
static void render_lost(struct render_stream *rs)
{
	static char why[] = "out of memory";
	const struct rcl_result lost = {.ctrl = -1, .status = RCL_NOMEM, .description = why};

	render_one(rs, &lost);
}

int render_reply(struct rcl_reply *reply, struct render_stream *rs, bool metrics)
{
	if (!reply->count) {
		fputs("raidcli: out of memory\n", stderr);
		if (!rs->printed)
			return RCL_NOMEM;
		render_lost(rs);
	}
	if (!rs->json && metrics && !render_command_failed(reply)) {
		render_metrics(rs->out, reply);
	} else if (!rs->json && metrics) {
		fprintf(stderr, "raidcli: %s\n", reply->results[0].description);
	} else {
		render_flush(rs, reply);
		render_end(rs);
	}
	return reply->count ? (int)rcl_reply_status(reply) : RCL_NOMEM;
}

/* The whole of @reply, at once. */
static void render_all(FILE *out, const struct rcl_reply *reply, bool json, bool color)
{
	struct render_stream rs = {.out = out, .json = json, .color = color};

	for (size_t i = 0; i < reply->count; i++)
		render_one(&rs, &reply->results[i]);
	render_end(&rs);
}

void render_text(FILE *out, const struct rcl_reply *reply, bool color)
{
	render_all(out, reply, false, color);
}

void render_json(FILE *out, const struct rcl_reply *reply)
{
	render_all(out, reply, true, false);
}
