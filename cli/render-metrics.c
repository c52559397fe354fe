// SPDX-License-Identifier: MIT
/*
 * render-metrics.c - a reply of "show metrics" as Prometheus text
 * exposition format 0.0.4, the format node_exporter's textfile collector
 * reads (it takes no OpenMetrics, so there is no "# EOF").
 *
 * Each family comes once, with its HELP and TYPE lines, its samples from
 * every result together (the format wants a family's samples in one
 * block). Before them, as the text renderer starts with its header, each
 * result's outcome: raidcli_scrape_success and _duration_seconds per
 * controller (with its host, a remote one's, also when the host did not
 * answer), and for a failure raidcli_scrape_error with the reason and a
 * comment line carrying the message.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/*
 * @s as a label value: backslash, double quote and newline escaped, as
 * the format asks; an ill-formed UTF-8 sequence as U+FFFD, which the
 * format's readers require the text to be.
 */
static void put_label_value(FILE *out, const char *s)
{
	while (*s) {
		bool valid = true;
		size_t len = (unsigned char)*s >= 0x80 ? render_utf8_len(s, &valid) : 1;

		if (!valid)
			fputs("\xef\xbf\xbd", out);
		else if (*s == '\\' || *s == '"')
			fprintf(out, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fwrite(s, 1, len, out);
		s += len;
	}
}

/* A comment's text on one line: what ends a line becomes a space. */
static void put_comment(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
}

static void put_header(FILE *out, enum metric_id id)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", metric_families[id].name,
	        metric_families[id].help, metric_families[id].name, metric_families[id].type);
}

/* One sample: name{labels} value. @labels: an object of strings, or NULL. */
static void put_sample(FILE *out, enum metric_id id, const struct rcl_node *labels,
                       const char *value)
{
	fputs(metric_families[id].name, out);
	for (size_t i = 0; labels && i < rcl_node_count(labels); i++) {
		const struct rcl_node *l = rcl_node_child(labels, i);

		fprintf(out, "%s%s=\"", i ? "," : "{", rcl_node_key(l));
		put_label_value(out, rcl_node_str(l));
		fputs(i + 1 == rcl_node_count(labels) ? "\"}" : "\"", out);
	}
	fprintf(out, " %s\n", value);
}

/* The "Metrics" rows of @res, or NULL. */
static const struct rcl_node *rows_of(const struct rcl_result *res)
{
	return res->data ? rcl_node_find(res->data, "Metrics") : NULL;
}

/* Whether any result has a sample of @id; a family without one is left out. */
static bool has_samples(const struct rcl_reply *reply, enum metric_id id)
{
	for (size_t r = 0; r < reply->count; r++) {
		const struct rcl_node *rows = rows_of(&reply->results[r]);

		for (size_t i = 0; rows && i < rcl_node_count(rows); i++) {
			const struct rcl_node *name =
			    rcl_node_find(rcl_node_child(rows, i), "Metric");

			if (name && !strcmp(rcl_node_str(name), metric_families[id].name))
				return true;
		}
	}
	return false;
}

/* A sample row's value as the format writes it: an integer or a decimal string. */
static void format_value(const struct rcl_node *v, char *out, size_t size)
{
	if (rcl_node_kind(v) == RCL_NODE_INT)
		snprintf(out, size, "%lld", rcl_node_int(v));
	else
		snprintf(out, size, "%s", rcl_node_str(v));
}

static void put_family(FILE *out, const struct rcl_reply *reply, enum metric_id id)
{
	char value[32];

	if (!has_samples(reply, id))
		return;
	put_header(out, id);
	for (size_t r = 0; r < reply->count; r++) {
		const struct rcl_node *rows = rows_of(&reply->results[r]);

		for (size_t i = 0; rows && i < rcl_node_count(rows); i++) {
			const struct rcl_node *row = rcl_node_child(rows, i);
			const struct rcl_node *name = rcl_node_find(row, "Metric");
			const struct rcl_node *v = rcl_node_find(row, "Value");

			if (!name || !v || strcmp(rcl_node_str(name), metric_families[id].name))
				continue;
			format_value(v, value, sizeof(value));
			put_sample(out, id, rcl_node_find(row, "Labels"), value);
		}
	}
}

/*
 * Each controller's outcome. A result of no controller (the system's) has
 * none: its failure is the command's (raidcli cannot read its registry),
 * which main() tells by the exit status alone.
 */
static void put_outcomes(FILE *out, const struct rcl_reply *reply)
{
	static const enum metric_id ids[] = {METRIC_SCRAPE_SUCCESS, METRIC_SCRAPE_DURATION,
	                                     METRIC_SCRAPE_ERROR};
	bool failed = false, any = false;

	for (size_t r = 0; r < reply->count; r++) {
		any |= reply->results[r].ctrl >= 0;
		failed |= reply->results[r].ctrl >= 0 && reply->results[r].status;
	}
	for (size_t k = 0; any && k < sizeof(ids) / sizeof(ids[0]); k++) {
		if (ids[k] == METRIC_SCRAPE_ERROR && !failed)
			continue;
		put_header(out, ids[k]);
		for (size_t r = 0; r < reply->count; r++) {
			const struct rcl_result *res = &reply->results[r];
			char ctrl[16], value[32];

			if (res->ctrl < 0 || (ids[k] == METRIC_SCRAPE_ERROR && !res->status))
				continue;
			snprintf(ctrl, sizeof(ctrl), "%d", res->ctrl);
			fprintf(out, "%s{controller=\"%s\"", metric_families[ids[k]].name, ctrl);
			if (res->host[0]) {
				fputs(",host=\"", out);
				put_label_value(out, res->host);
				fputc('"', out);
			}
			if (ids[k] == METRIC_SCRAPE_SUCCESS) {
				snprintf(value, sizeof(value), "%d", !res->status);
			} else if (ids[k] == METRIC_SCRAPE_DURATION) {
				snprintf(value, sizeof(value), "%.6f", res->seconds);
			} else {
				fprintf(out, ",reason=\"%s\",code=\"%d\"",
				        rcl_status_name(res->status), res->status);
				snprintf(value, sizeof(value), "1");
			}
			fprintf(out, "} %s\n", value);
			if (ids[k] == METRIC_SCRAPE_ERROR) {
				fprintf(out, "# /c%d: ", res->ctrl);
				put_comment(out, res->description);
				fputc('\n', out);
			}
		}
	}
}

void render_metrics(FILE *out, const struct rcl_reply *reply)
{
	put_header(out, METRIC_BUILD_INFO);
	fputs(metric_families[METRIC_BUILD_INFO].name, out);
	fputs("{version=\"", out);
	put_label_value(out, rcl_version());
	fputs("\"} 1\n", out);
	put_outcomes(out, reply);
	for (int id = METRIC_CTRL_INFO; id < METRIC_COUNT; id++)
		put_family(out, reply, id);
}

enum rcl_status render_metrics_file(const char *path, const struct rcl_reply *reply,
                                    struct rcl_error *err)
{
	const char *slash = strrchr(path, '/');
	struct rcl_buf tmp = RCL_BUF_INIT;
	enum rcl_status st = RCL_OK;
	FILE *f = NULL;
	int fd;

	/* ".name.XXXXXX" beside it: the collector reads only *.prom, and a rename stays in place.
	 */
	if (slash)
		rcl_buf_add(&tmp, path, (size_t)(slash - path + 1));
	rcl_buf_addf(&tmp, ".%s.XXXXXX", slash ? slash + 1 : path);
	if (tmp.oom)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	fd = mkstemp(tmp.buf);
	/* mkstemp() makes it 0600: the collector runs as another user. */
	if (fd < 0 || fchmod(fd, 0644) || !(f = fdopen(fd, "w"))) {
		st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot write '%s': %s", path,
		                    strerror(errno));
		if (fd >= 0)
			close(fd);
	} else {
		render_metrics(f, reply);
		if (fflush(f) || ferror(f) || fsync(fd))
			st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot write '%s': %s", path,
			                    strerror(errno));
		if (fclose(f) && !st)
			st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot write '%s': %s", path,
			                    strerror(errno));
		if (!st && rename(tmp.buf, path))
			st =
			    rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot rename '%s' to '%s': %s",
			                   tmp.buf, path, strerror(errno));
	}
	if (st && fd >= 0)
		unlink(tmp.buf);
	rcl_buf_release(&tmp);
	return st;
}
