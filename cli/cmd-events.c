// SPDX-License-Identifier: MIT
/*
 * cmd-events.c - the event log: /cN show events [type=...] [filter=...],
 * /cN delete events. Events print as StorCLI dumps them, one block each:
 * seqNum, Time, Code, Class, Locale, Event Description.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"

/* Large enough for any log, small enough that no count overflows. */
#define LATEST_MAX 1000000ul

static time_t boot_time(void)
{
	struct timespec up;

	if (clock_gettime(CLOCK_BOOTTIME, &up))
		return 0;
	return time(NULL) - up.tv_sec;
}

/* type=: StorCLI's "latest=N", or "sincereboot". */
static enum rcl_status parse_type(const char *value, struct rcl_event_filter *f,
                                  struct rcl_error *err)
{
	static const char latest[] = "latest=";
	const char *num = value + strlen(latest);
	unsigned long n;
	char *end;

	if (!strcasecmp(value, "sincereboot")) {
		f->since = boot_time();
		return RCL_OK;
	}
	if (!strncasecmp(value, latest, strlen(latest)) && *num >= '0' && *num <= '9') {
		errno = 0;
		n = strtoul(num, &end, 10);
		if (!*end && !errno && n >= 1 && n <= LATEST_MAX) {
			f->latest = n;
			return RCL_OK;
		}
	}
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "invalid value '%s' for 'type=': expected latest=<n> (n from 1 to %lu) "
	                "or sincereboot",
	                value, LATEST_MAX);
}

/* One class of a filter= list, with a suggestion when it is misspelt. */
static enum rcl_status parse_class(const char *word, const char *value, unsigned *classes,
                                   struct rcl_error *err)
{
	static const char *const names[] = {"info", "warning", "critical", "fatal"};
	enum rcl_event_class class_;
	const char *hint;

	if (!rcl_event_class_parse(word, &class_, NULL)) {
		*classes |= 1u << class_;
		return RCL_OK;
	}
	hint = suggest_closest(word, names, sizeof(names) / sizeof(names[0]));
	if (hint)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "invalid class '%s' in 'filter=%s'; did you mean '%s'?", word,
		                value, hint);
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "invalid class '%s' in 'filter=%s': expected a list of info, warning, "
	                "critical, fatal",
	                word, value);
}

/* filter=: classes joined by ','. */
static enum rcl_status parse_filter(const char *value, struct rcl_event_filter *f,
                                    struct rcl_error *err)
{
	char word[16];

	for (const char *p = value;; p++) {
		size_t len = strcspn(p, ",");

		if (len >= sizeof(word))
			len = sizeof(word) - 1; /* too long for a class: still refused, shortened */
		memcpy(word, p, len);
		word[len] = '\0';
		if (parse_class(word, value, &f->classes, err))
			return RCL_INVALID_PARAM;
		p += strcspn(p, ",");
		if (!*p)
			return RCL_OK;
	}
}

enum rcl_status events_check_type(const char *value, struct rcl_error *err)
{
	struct rcl_event_filter f = {0};

	return parse_type(value, &f, err);
}

enum rcl_status events_check_filter(const char *value, struct rcl_error *err)
{
	struct rcl_event_filter f = {0};

	return parse_filter(value, &f, err);
}

static void add_event(struct rcl_node *events, const struct rcl_event *ev)
{
	struct rcl_node *block = rcl_node_add_object(events, NULL);
	char when[32];

	format_time(when, sizeof(when), ev->time);
	rcl_node_add_strf(block, "seqNum", "0x%08llx", (unsigned long long)ev->seq);
	rcl_node_add_str(block, "Time", when);
	rcl_node_add_strf(block, "Code", "0x%08x", (unsigned)ev->code);
	rcl_node_add_int(block, "Class", ev->class_);
	rcl_node_add_strf(block, "Locale", "0x%02x", ev->locale);
	rcl_node_add_str(block, "Event Description", ev->description);
}

enum rcl_status cmd_ctrl_show_events(struct cmd_ctx *c, struct rcl_error *err)
{
	const char *type = cmd_value(c->args, "type"), *filter = cmd_value(c->args, "filter");
	struct rcl_event_filter f = {0};
	struct rcl_event_list list = {0};
	struct rcl_node *events;
	enum rcl_status st;

	st = type ? parse_type(type, &f, err) : RCL_OK;
	if (!st && filter)
		st = parse_filter(filter, &f, err);
	if (!st)
		st = rcl_ctrl_events(c->ctrl, &f, &list, err);
	if (st)
		return st;
	events = rcl_node_add_array(c->res->data, "Events");
	rcl_node_set_flags(events, RCL_NODE_BLOCKS);
	for (size_t i = 0; i < list.count; i++)
		add_event(events, &list.events[i]);
	/* Damage is news even when some events survive: say so first. */
	if (list.damaged)
		rcl_result_describe(c->res, "Skipped %zu damaged line(s) of the event log.",
		                    list.damaged);
	else if (!list.count)
		rcl_result_describe(c->res, "No events found.");
	rcl_event_list_release(&list);
	return RCL_OK;
}

enum rcl_status cmd_ctrl_delete_events(struct cmd_ctx *c, struct rcl_error *err)
{
	enum rcl_status st = rcl_ctrl_delete_events(c->ctrl, err);

	if (!st)
		rcl_result_describe(c->res, "Events Deleted Successfully.");
	return st;
}
