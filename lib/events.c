// SPDX-License-Identifier: MIT
/*
 * events.c - each controller's event log: <state dir>/events/<backend>-<key>.log,
 * one JSON object per line, appended with O_APPEND and fdatasync under the
 * controller's exclusive lock.
 *
 * Crash safety: an append either reaches the disk whole or leaves a torn last
 * line (no newline yet). Readers skip a torn last line; the next append cuts
 * it off first, so it never glues onto a good line. An append that fails
 * (a full file system) cuts off what it wrote at once, and the controller
 * remembers the failure for the command's result. The sequence number is
 * the last good line's plus one, so no separate counter file can disagree
 * with the log; deleting events therefore keeps one event that carries the
 * sequence on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "internal.h"

/* What each code means: its class and MegaRAID locale bits. */
static const struct {
	enum rcl_event_class class_;
	unsigned locale;
} code_info[] = {
    [RCL_EVENT_CTRL_CREATED] = {RCL_EVENT_INFO, 0x20},
    [RCL_EVENT_EVENTS_DELETED] = {RCL_EVENT_INFO, 0x20},
    [RCL_EVENT_DRIVE_ADDED] = {RCL_EVENT_INFO, 0x02},
    [RCL_EVENT_DRIVE_REMOVED] = {RCL_EVENT_WARNING, 0x02},
    [RCL_EVENT_VD_CREATED] = {RCL_EVENT_INFO, 0x01},
    [RCL_EVENT_VD_DELETED] = {RCL_EVENT_INFO, 0x01},
    [RCL_EVENT_VD_CHANGED] = {RCL_EVENT_INFO, 0x01},
    [RCL_EVENT_HOTSPARE_ADDED] = {RCL_EVENT_INFO, 0x02},
    [RCL_EVENT_HOTSPARE_REMOVED] = {RCL_EVENT_INFO, 0x02},
    [RCL_EVENT_DRIVE_STATE_CHANGED] = {RCL_EVENT_INFO, 0x02},
    [RCL_EVENT_CTRL_CHANGED] = {RCL_EVENT_INFO, 0x20},
    [RCL_EVENT_DRIVE_FAILED] = {RCL_EVENT_CRITICAL, 0x02},
    [RCL_EVENT_VD_STATE_CHANGED] = {RCL_EVENT_WARNING, 0x01},
    [RCL_EVENT_FOREIGN_IMPORTED] = {RCL_EVENT_INFO, 0x20},
    [RCL_EVENT_FOREIGN_DELETED] = {RCL_EVENT_WARNING, 0x20},
    [RCL_EVENT_REBUILD_STARTED] = {RCL_EVENT_INFO, 0x02},
    [RCL_EVENT_REBUILD_DONE] = {RCL_EVENT_INFO, 0x02},
    [RCL_EVENT_BGI_STARTED] = {RCL_EVENT_INFO, 0x01},
    [RCL_EVENT_BGI_DONE] = {RCL_EVENT_INFO, 0x01},
    [RCL_EVENT_BGI_STOPPED] = {RCL_EVENT_WARNING, 0x01},
    [RCL_EVENT_PATROL_STARTED] = {RCL_EVENT_INFO, 0x20},
    [RCL_EVENT_PATROL_DONE] = {RCL_EVENT_INFO, 0x20},
    [RCL_EVENT_PATROL_STOPPED] = {RCL_EVENT_INFO, 0x20},
    [RCL_EVENT_MIGRATION_STARTED] = {RCL_EVENT_INFO, 0x01},
    [RCL_EVENT_MIGRATION_DONE] = {RCL_EVENT_INFO, 0x01},
    [RCL_EVENT_MIGRATION_FAILED] = {RCL_EVENT_CRITICAL, 0x01},
    [RCL_EVENT_CC_SCHEDULE] = {RCL_EVENT_INFO, 0x20},
    [RCL_EVENT_PATROL_MEDIA_ERROR] = {RCL_EVENT_WARNING, 0x02},
    [RCL_EVENT_DRIVE_FORMATTED] = {RCL_EVENT_INFO, 0x02},
    [RCL_EVENT_NAMESPACE_CHANGED] = {RCL_EVENT_INFO, 0x02},
};

#define CODE_MAX (sizeof(code_info) / sizeof(code_info[0]) - 1)

static const char *const class_names[] = {
    [RCL_EVENT_INFO] = "info",
    [RCL_EVENT_WARNING] = "warning",
    [RCL_EVENT_CRITICAL] = "critical",
    [RCL_EVENT_FATAL] = "fatal",
};

#define CLASS_COUNT (sizeof(class_names) / sizeof(class_names[0]))

const char *rcl_event_class_name(enum rcl_event_class class_)
{
	return (size_t)class_ < CLASS_COUNT ? class_names[class_] : "unknown";
}

enum rcl_status rcl_event_class_parse(const char *text, enum rcl_event_class *class_,
                                      struct rcl_error *err)
{
	for (size_t i = 0; i < CLASS_COUNT; i++)
		if (!strcasecmp(text, class_names[i])) {
			*class_ = (enum rcl_event_class)i;
			return RCL_OK;
		}
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "unknown event class '%s': expected info, warning, critical or fatal",
	                text);
}

void rcl_event_list_release(struct rcl_event_list *list)
{
	rcl_free(list->events);
	*list = (struct rcl_event_list){0};
}

static char *log_path(const struct rcl_ctrl *ctrl)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_addf(&sb, "%s/events/%s-%s.log", ctrl->ctx->state_dir, ctrl->entry.ops->name,
	             ctrl->entry.key);
	return rcl_buf_detach(&sb);
}

/* One line of the log into @ev; false if it is not a well-formed event. */
static bool parse_line(const char *line, size_t len, struct rcl_event *ev)
{
	json_tokener *tok = json_tokener_new();
	json_object *obj = tok ? json_tokener_parse_ex(tok, line, (int)len) : NULL;
	uint64_t seq, t, class_, code;
	const char *desc;
	bool ok;

	ok = obj && json_tokener_get_error(tok) == json_tokener_success &&
	     json_object_is_type(obj, json_type_object) &&
	     rcl_json_get_uint(obj, "seq", UINT64_MAX >> 1, &seq) && seq &&
	     rcl_json_get_uint(obj, "time", INT64_MAX, &t) &&
	     rcl_json_get_uint(obj, "class", CLASS_COUNT - 1, &class_) &&
	     rcl_json_get_uint(obj, "code", CODE_MAX, &code) && code &&
	     rcl_json_get_str(obj, "description", &desc);
	if (ok) {
		*ev = (struct rcl_event){.seq = seq,
		                         .time = (time_t)t,
		                         .class_ = (enum rcl_event_class)class_,
		                         .code = (enum rcl_event_code)code,
		                         .locale = code_info[code].locale};
		snprintf(ev->description, sizeof(ev->description), "%s", desc);
	}
	json_object_put(obj);
	if (tok)
		json_tokener_free(tok);
	return ok;
}

static bool selected(const struct rcl_event *ev, const struct rcl_event_filter *f)
{
	if (f->classes && !(f->classes & (1u << ev->class_)))
		return false;
	return !f->since || ev->time >= f->since;
}

/*
 * Parse the log text in @sb into @list (filtered by @f), and the last good
 * sequence number into *@last_seq. Only whole lines count: text after the
 * last newline is a torn append.
 */
static enum rcl_status parse_log(const struct rcl_buf *sb, const struct rcl_event_filter *f,
                                 struct rcl_event_list *list, uint64_t *last_seq,
                                 struct rcl_error *err)
{
	size_t lines = 0, alloc;
	const char *p, *nl;

	for (p = sb->buf; (nl = strchr(p, '\n')); p = nl + 1)
		lines++;
	alloc = lines ? lines : 1;
	list->events = rcl_calloc(alloc, sizeof(*list->events));
	if (!list->events)
		return rcl_fail(err, RCL_NOMEM, "out of memory reading the event log");
	for (p = sb->buf; (nl = strchr(p, '\n')); p = nl + 1) {
		struct rcl_event *ev = &list->events[list->count];

		if (nl == p)
			continue;
		if (!parse_line(p, (size_t)(nl - p), ev)) {
			list->damaged++;
			continue;
		}
		if (ev->seq > *last_seq)
			*last_seq = ev->seq;
		list->count += selected(ev, f);
	}
	return RCL_OK;
}

/* @path's text into @sb; a missing log is an empty one. */
static enum rcl_status read_text(const char *path, struct rcl_buf *sb, struct rcl_error *err)
{
	struct rcl_error missing = {0};
	enum rcl_status st = rcl_file_read(path, sb, &missing);

	/* Copied only on failure: @err stays untouched when the log is just absent. */
	if (st && st != RCL_NOT_FOUND)
		rcl_error_set(err, missing.status, missing.sys_errno, missing.file, missing.line,
		              "%s", missing.msg);
	return st == RCL_NOT_FOUND ? RCL_OK : st;
}

/* Read and parse @path into @list (released again on failure). */
static enum rcl_status read_log(const char *path, const struct rcl_event_filter *f,
                                struct rcl_event_list *list, uint64_t *last_seq, size_t *good_len,
                                struct rcl_error *err)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	enum rcl_status st;
	const char *end;

	*last_seq = 0;
	st = read_text(path, &sb, err);
	if (!st)
		st = parse_log(&sb, f, list, last_seq, err);
	end = strrchr(sb.buf, '\n');
	*good_len = end ? (size_t)(end - sb.buf) + 1 : 0;
	rcl_buf_release(&sb);
	if (st)
		rcl_event_list_release(list);
	return st;
}

/* The controller's own log (a card's), through its backend, filtered by @f. */
static enum rcl_status read_backend_log(struct rcl_ctrl *ctrl, const struct rcl_event_filter *f,
                                        struct rcl_event_list *list, struct rcl_error *err)
{
	enum rcl_status st = ctrl->entry.ops->read_events(ctrl, list, err);
	size_t i, kept = 0;

	if (st) {
		rcl_event_list_release(list);
		return st;
	}
	for (i = 0; i < list->count; i++)
		if (selected(&list->events[i], f))
			list->events[kept++] = list->events[i];
	list->count = kept;
	return RCL_OK;
}

/* The events raidcli recorded itself for @ctrl, filtered by @f. */
static enum rcl_status read_own_log(struct rcl_ctrl *ctrl, const struct rcl_event_filter *f,
                                    struct rcl_event_list *list, struct rcl_error *err)
{
	char *path = log_path(ctrl);
	enum rcl_status st;
	size_t good_len;
	uint64_t last;

	if (!path)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = read_log(path, f, list, &last, &good_len, err);
	rcl_free(path);
	return st;
}

enum rcl_status rcl_ctrl_events(struct rcl_ctrl *ctrl, const struct rcl_event_filter *filter,
                                struct rcl_event_list *list, struct rcl_error *err)
{
	static const struct rcl_event_filter all = {0};
	const struct rcl_event_filter *f = filter ? filter : &all;
	struct rcl_event_list got = {0};
	enum rcl_status st;

	if (ctrl->entry.ops->read_events)
		st = read_backend_log(ctrl, f, &got, err);
	else
		st = read_own_log(ctrl, f, &got, err);
	if (st)
		return st;
	if (f->latest && got.count > f->latest) {
		memmove(got.events, got.events + (got.count - f->latest),
		        f->latest * sizeof(*got.events));
		got.count = f->latest;
	}
	*list = got;
	return RCL_OK;
}

/* Add @val to @obj as @key; false when out of memory (@val is consumed either way). */
static bool add_field(json_object *obj, const char *key, json_object *val)
{
	if (!val)
		return false;
	if (json_object_object_add(obj, key, val)) {
		json_object_put(val);
		return false;
	}
	return true;
}

/* An event as one line of the log, into @sb (which is marked oom on failure). */
static void format_line(struct rcl_buf *sb, const struct rcl_event *ev)
{
	json_object *obj = json_object_new_object();
	const char *text = NULL;

	if (obj && add_field(obj, "seq", json_object_new_int64((int64_t)ev->seq)) &&
	    add_field(obj, "time", json_object_new_int64((int64_t)ev->time)) &&
	    add_field(obj, "class", json_object_new_int(ev->class_)) &&
	    add_field(obj, "code", json_object_new_int(ev->code)) &&
	    add_field(obj, "description", json_object_new_string(ev->description)))
		text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN |
		                                               JSON_C_TO_STRING_NOSLASHESCAPE);
	if (text)
		rcl_buf_adds(sb, text);
	else
		sb->oom = true;
	json_object_put(obj);
}

/* Open the log for appending, cutting off a torn last line first. */
static enum rcl_status open_for_append(const char *path, size_t good_len, int *fd,
                                       struct rcl_error *err)
{
	*fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (*fd < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot open '%s': %s", path,
		                      strerror(errno));
	if (ftruncate(*fd, (off_t)good_len)) {
		int e = errno;

		close(*fd);
		return rcl_fail_errno(err, RCL_SYSTEM, e, "cannot truncate '%s': %s", path,
		                      strerror(e));
	}
	return RCL_OK;
}

/* The next event of a controller's log, ready to be written. */
struct pending {
	char *path;
	size_t good_len; /* the log's whole lines, in bytes */
	struct rcl_buf line;
};

static void pending_release(struct pending *p)
{
	rcl_free(p->path);
	rcl_buf_release(&p->line);
}

/* Number the event after the log's last one and format it into @p->line. */
static enum rcl_status prepare(struct rcl_ctrl *ctrl, enum rcl_event_code code, struct pending *p,
                               struct rcl_error *err, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

static enum rcl_status prepare(struct rcl_ctrl *ctrl, enum rcl_event_code code, struct pending *p,
                               struct rcl_error *err, const char *fmt, va_list ap)
{
	struct rcl_event_list list = {0};
	struct rcl_event ev;
	enum rcl_status st;
	uint64_t last;

	*p = (struct pending){.path = log_path(ctrl), .line = RCL_BUF_INIT};
	st = p->path ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
	if (!st)
		st = rcl_mkdir_in(ctrl->ctx->state_dir, "events", 0700, err);
	if (!st)
		st = read_log(p->path, &(struct rcl_event_filter){0}, &list, &last, &p->good_len,
		              err);
	rcl_event_list_release(&list);
	if (st)
		return st;
	ev = (struct rcl_event){.seq = last + 1,
	                        .time = time(NULL),
	                        .class_ = code_info[code].class_,
	                        .code = code,
	                        .locale = code_info[code].locale};
	vsnprintf(ev.description, sizeof(ev.description), fmt, ap);
	format_line(&p->line, &ev);
	return p->line.oom ? rcl_fail(err, RCL_NOMEM, "out of memory") : RCL_OK;
}

/* Append @p's line whole, or leave the log as it was (its whole lines). */
static enum rcl_status append_line(const struct pending *p, struct rcl_error *err)
{
	enum rcl_status st;
	int fd;

	st = open_for_append(p->path, p->good_len, &fd, err);
	if (st)
		return st;
	/* One write() of the whole line: a crash tears at most this line. */
	st = rcl_write_all(fd, p->line.buf, p->line.len, p->path, err);
	if (!st && fdatasync(fd))
		st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot sync '%s': %s", p->path,
		                    strerror(errno));
	/* A full file system takes part of a line: cut it off, not to leave it torn. */
	if (st && ftruncate(fd, (off_t)p->good_len))
		rcl_fail_errno(err, RCL_SYSTEM, errno,
		               "cannot write '%s' (%s), nor cut off the part written: %s", p->path,
		               strerror(err->sys_errno), strerror(errno));
	close(fd);
	return st;
}

enum rcl_status rcl_event_record(struct rcl_ctrl *ctrl, enum rcl_event_code code,
                                 struct rcl_error *err, const char *fmt, ...)
{
	struct rcl_error failed = {0};
	struct pending p;
	enum rcl_status st;
	va_list ap;

	va_start(ap, fmt);
	st = prepare(ctrl, code, &p, &failed, fmt, ap);
	va_end(ap);
	rcl_buf_addch(&p.line, '\n');
	if (!st && p.line.oom)
		st = rcl_fail(&failed, RCL_NOMEM, "out of memory");
	if (!st)
		st = append_line(&p, &failed);
	pending_release(&p);
	/* Kept for the command's result (rcl_ctrl_event_failure()): a lost event is never silent.
	 */
	if (st && !ctrl->event_failure.status)
		ctrl->event_failure = failed;
	if (st && err)
		*err = failed;
	return st;
}

const struct rcl_error *rcl_ctrl_event_failure(const struct rcl_ctrl *ctrl)
{
	return ctrl->event_failure.status ? &ctrl->event_failure : NULL;
}

/* prepare() with arguments. */
static enum rcl_status preparef(struct rcl_ctrl *ctrl, enum rcl_event_code code, struct pending *p,
                                struct rcl_error *err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static enum rcl_status preparef(struct rcl_ctrl *ctrl, enum rcl_event_code code, struct pending *p,
                                struct rcl_error *err, const char *fmt, ...)
{
	enum rcl_status st;
	va_list ap;

	va_start(ap, fmt);
	st = prepare(ctrl, code, p, err, fmt, ap);
	va_end(ap);
	return st;
}

enum rcl_status rcl_ctrl_delete_events(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct pending p;
	enum rcl_status st;

	if (ctrl->entry.ops->read_events)
		return RCL_OP(ctrl, clear_events, "deleting the event log", err);
	st = preparef(ctrl, RCL_EVENT_EVENTS_DELETED, &p, err, "Events deleted");
	/* Replace, not truncate: a crash must not lose the sequence number. */
	if (!st)
		st = rcl_file_replace(p.path, p.line.buf, "\n", err);
	pending_release(&p);
	return st;
}

void rcl_event_record_created(struct rcl_ctx *ctx, unsigned id)
{
	struct rcl_ctrl *ctrl;

	/* Best effort, as every recording: the controller exists either way. */
	if (rcl_ctrl_open(ctx, id, RCL_LOCK_EXCLUSIVE, &ctrl, NULL))
		return;
	(void)rcl_event_record(ctrl, RCL_EVENT_CTRL_CREATED, NULL, "Controller created");
	rcl_ctrl_close(ctrl);
}

void rcl_event_log_remove(const struct rcl_ctrl *ctrl)
{
	char *path = log_path(ctrl);

	if (path)
		unlink(path);
	rcl_free(path);
}

void rcl_event_vd_states(struct rcl_ctrl *ctrl, const struct rcl_vd *before, size_t before_count)
{
	for (size_t i = 0; i < ctrl->vd_count; i++)
		for (size_t j = 0; j < before_count; j++)
			if (before[j].id == ctrl->vds[i].id &&
			    before[j].state != ctrl->vds[i].state)
				(void)rcl_event_record(ctrl, RCL_EVENT_VD_STATE_CHANGED, NULL,
				                       "VD %u state changed from %s to %s",
				                       ctrl->vds[i].id,
				                       rcl_vd_state_abbrev(before[j].state),
				                       rcl_vd_state_abbrev(ctrl->vds[i].state));
}
