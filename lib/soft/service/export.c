// SPDX-License-Identifier: MIT
/*
 * export.c - a controller's NBD exports: the persisted list, and in the
 * controller process the volumes and NBD servers behind it. See export.h.
 *
 * The list file, <state>/exports/<backend>-<key>.json, changes only under
 * the controller's exclusive lock:
 *	{"format": 1, "exports": [{"vd": 0, "name": "RCLC…-v0",
 *	  "socket": "/…/run/RCLC…-v0.sock"} | {"vd": 1, "name": "…",
 *	  "host": "127.0.0.1", "port": 10809}, …]}
 *
 * Over 800 lines: the export list and the soft controller's volumes behind
 * NBD, to be split when they move behind the backend contract (issue 22).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "migrate.h"
#include "tasks.h"
#include "nbd.h"
#include "service.h"
#include "soft/config/scan.h"
#include "soft/config/state.h"
#include "soft/engine/volume.h"
#include "soft/soft.h"

#define EXPORTS_FORMAT 1
/*
 * Threads per connection (nbd.h; each comes when the connection's requests
 * need it): each runs one request at a time, synchronously, so this is a
 * connection's I/O depth: bench/nbd-fio.sh's 128K profiles ran about twice
 * as fast with 16 as with 4, and 32 added nothing on 4K.
 */
#define NBD_THREADS 16

struct export
{
	unsigned vd;
	char name[128];
	char socket[PATH_MAX]; /* "" for TCP */
	char host[256];
	unsigned port;
	/* In the controller process: */
	struct rcl_soft_volume *vol;
	struct rcl_nbd_server *srv;
	enum rcl_access_policy access; /* what @srv was started with */
	bool held;                     /* not served at start: rcl_soft_export_waits_for_force() */
};

struct export_list {
	struct export *items;
	size_t count;
};

/* The process's exports, served or not (only while service_self()). */
static struct export_list live;

/* The VDs (a bit per id) whose force was given: rcl_soft_export_needs_force() lets them be. */
static uint64_t forced;

/* The VDs (a bit per id) degraded and dirty when the process started:
 * rcl_soft_export_waits_for_force(). */
static uint64_t held_at_start;

/* What a member failure sends through the notify pipe to the main loop. */
struct failure {
	unsigned vd;
	unsigned member;
	struct rcl_guid drive;
	int error;
};

/* ------------------------------------------------------------------------
 * The persisted list. */

static enum rcl_status parse_export(json_object *item, const char *path, struct export *e,
                                    struct rcl_error *err)
{
	const char *name, *text;
	uint64_t vd, port;

	memset(e, 0, sizeof(*e));
	if (!rcl_json_get_uint(item, "vd", RCL_MAX_VDS, &vd) ||
	    !rcl_json_get_str(item, "name", &name) || strlen(name) >= sizeof(e->name))
		return rcl_state_corrupt(err, path, "an export lacks its vd or name");
	e->vd = (unsigned)vd;
	strcpy(e->name, name);
	if (rcl_json_get_str(item, "socket", &text) && strlen(text) < sizeof(e->socket)) {
		strcpy(e->socket, text);
		return RCL_OK;
	}
	if (rcl_json_get_str(item, "host", &text) && strlen(text) < sizeof(e->host) &&
	    rcl_json_get_uint(item, "port", 65535, &port)) {
		strcpy(e->host, text);
		e->port = (unsigned)port;
		return RCL_OK;
	}
	return rcl_state_corrupt(err, path, "an export has neither a socket nor a host and port");
}

static enum rcl_status list_load(const char *path, struct export_list *list, struct rcl_error *err)
{
	json_object *root = NULL, *items;
	uint64_t format;
	enum rcl_status st = rcl_state_read(path, &root, err);

	memset(list, 0, sizeof(*list));
	if (st == RCL_NOT_FOUND)
		return RCL_OK;
	if (st)
		return st;
	if (!rcl_json_get_uint(root, "format", UINT32_MAX, &format) || format != EXPORTS_FORMAT ||
	    !json_object_object_get_ex(root, "exports", &items) ||
	    !json_object_is_type(items, json_type_array))
		st = rcl_state_corrupt(err, path, "it is not a format 1 export list");
	else if (json_object_array_length(items) &&
	         !(list->items = rcl_calloc(json_object_array_length(items), sizeof(*list->items))))
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; !st && i < json_object_array_length(items); i++)
		st = parse_export(json_object_array_get_idx(items, i), path,
		                  &list->items[list->count++], err);
	json_object_put(root);
	return st;
}

static enum rcl_status list_save(const struct service_paths *p, const struct export_list *list,
                                 struct rcl_error *err)
{
	json_object *root, *items;
	enum rcl_status st;

	if (!list->count)
		return unlink(p->exports) && errno != ENOENT
		           ? rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot remove '%s': %s",
		                            p->exports, strerror(errno))
		           : RCL_OK;
	st = service_make_parent(p, p->exports, err);
	if (st)
		return st;
	root = json_object_new_object();
	items = json_object_new_array();
	json_object_object_add(root, "format", json_object_new_int(EXPORTS_FORMAT));
	for (size_t i = 0; i < list->count; i++) {
		const struct export *e = &list->items[i];
		json_object *item = json_object_new_object();

		json_object_object_add(item, "vd", json_object_new_int((int)e->vd));
		json_object_object_add(item, "name", json_object_new_string(e->name));
		if (*e->socket) {
			json_object_object_add(item, "socket", json_object_new_string(e->socket));
		} else {
			json_object_object_add(item, "host", json_object_new_string(e->host));
			json_object_object_add(item, "port", json_object_new_int((int)e->port));
		}
		json_object_array_add(items, item);
	}
	json_object_object_add(root, "exports", items);
	st = rcl_state_write(p->exports, root, err);
	json_object_put(root);
	return st;
}

static struct export *list_find(const struct export_list *list, unsigned vd)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].vd == vd)
			return &list->items[i];
	return NULL;
}

static void list_release(struct export_list *list)
{
	if (list != &live)
		rcl_free(list->items);
}

/*
 * The list to read or change: the live one inside the controller process,
 * else a fresh copy of the persisted one (freed by list_release()).
 */
static enum rcl_status list_get(struct rcl_ctrl *ctrl, struct service_paths *p,
                                struct export_list **out, struct export_list *scratch,
                                struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl);
	enum rcl_status st = service_paths(ctrl->ctx, id, p, err);

	if (st)
		return st;
	if (service_self(id)) {
		*out = &live;
		return RCL_OK;
	}
	*out = scratch;
	return list_load(p->exports, scratch, err);
}

/* ------------------------------------------------------------------------
 * Serving one export (in the process). */

static int vol_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	return rcl_soft_volume_read(ctx, buf, len, off);
}

static int vol_write(void *ctx, const void *buf, size_t len, uint64_t off, bool fua)
{
	return rcl_soft_volume_write(ctx, buf, len, off, fua ? RCL_SOFT_IO_FUA : 0);
}

static int vol_write_later(void *ctx, const void *buf, size_t len, uint64_t off, bool fua,
                           const void *client, void (*ended)(void *token, int rc), void *token)
{
	_Static_assert(RCL_SOFT_LATER == RCL_NBD_LATER, "one value says 'ends later'");
	return rcl_soft_volume_write_later(ctx, buf, len, off, fua ? RCL_SOFT_IO_FUA : 0, client,
	                                   ended, token);
}

static void vol_stalled(void *ctx, const void *client)
{
	rcl_soft_volume_release(ctx, client);
}

static int vol_flush(void *ctx)
{
	return rcl_soft_volume_flush(ctx);
}

static int vol_trim(void *ctx, size_t len, uint64_t off)
{
	return rcl_soft_volume_trim(ctx, len, off);
}

static int vol_zero(void *ctx, size_t len, uint64_t off, bool fua)
{
	return rcl_soft_volume_zero(ctx, len, off, fua ? RCL_SOFT_IO_FUA : 0);
}

/* From an I/O thread: hand the failure to the main loop, which may take the controller lock. */
static void on_member_failed(void *ctx, unsigned vd, unsigned member, const struct rcl_guid *drive,
                             int error)
{
	struct failure f = {.vd = vd, .member = member, .drive = *drive, .error = error};

	(void)ctx;
	if (write(service_notify_fd(), &f, sizeof(f)) != sizeof(f))
		service_log("lost the report of v%u member %u failing: %s", vd, member,
		            strerror(errno));
}

/*
 * The loop records each failure (exports_notified()) and then updates the
 * volumes; host writes that went on without the member wait for that.
 */
static const struct rcl_soft_volume_owner volume_owner = {.failed = on_member_failed,
                                                          .records = true};

/* A failure of no member: the loop wakes, refreshes and looks at its tasks. */
#define WAKE_VD UINT_MAX

void exports_wake(void)
{
	struct failure f = {.vd = WAKE_VD};

	if (service_notify_fd() >= 0)
		(void)!write(service_notify_fd(), &f, sizeof(f));
}

/* The process's open volumes: one per VD, shared by its export and its background tasks. */
struct shared_volume {
	unsigned vd;
	unsigned users;
	struct rcl_soft_volume *vol;
};

static struct shared_volume shared[RCL_MAX_VDS];
static size_t shared_count;

enum rcl_status volume_get(const struct rcl_soft_state *state, unsigned vd,
                           struct rcl_soft_volume **out, struct rcl_error *err)
{
	struct shared_volume *sv;
	enum rcl_status st;

	for (size_t i = 0; i < shared_count; i++)
		if (shared[i].vd == vd) {
			shared[i].users++;
			*out = shared[i].vol;
			return RCL_OK;
		}
	if (shared_count == RCL_MAX_VDS)
		return rcl_fail(err, RCL_NOMEM, "too many open volumes");
	sv = &shared[shared_count];
	st = rcl_soft_volume_open(state, vd, &volume_owner, &sv->vol, err);
	if (st)
		return st;
	sv->vd = vd;
	sv->users = 1;
	shared_count++;
	*out = sv->vol;
	return RCL_OK;
}

void volume_put(struct rcl_soft_volume *vol)
{
	for (size_t i = 0; i < shared_count; i++) {
		struct shared_volume *sv = &shared[i];
		int rc;

		if (sv->vol != vol)
			continue;
		/* The loop records failures: its own flush cannot wait for one. */
		rc = rcl_soft_volume_sync(vol);
		if (rc)
			service_log("flushing v%u failed: %s", sv->vd, strerror(-rc));
		if (--sv->users)
			return;
		rcl_soft_volume_close(vol);
		*sv = shared[--shared_count];
		return;
	}
}

/* Give every open volume the new configuration. */
static void volumes_refresh(const struct rcl_soft_state *state)
{
	for (size_t i = 0; i < shared_count; i++) {
		struct rcl_error err = {0};

		if (rcl_soft_volume_update(shared[i].vol, state, &err))
			service_log("v%u: cannot take the new configuration: %s", shared[i].vd,
			            err.msg);
	}
}

const struct rcl_soft_state *service_soft_state(const struct rcl_ctrl *ctrl)
{
	const struct soft_ctrl *sc = ctrl->priv;

	return ctrl->entry.ops->exports == rcl_soft_exports && sc ? sc->state : NULL;
}

/* Open @e's VD and start its NBD server. */
static enum rcl_status serve_export(struct rcl_ctrl *ctrl, struct export *e, struct rcl_error *err)
{
	const struct rcl_vd *vd = rcl_ctrl_vd_by_id(ctrl, e->vd);
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	struct rcl_nbd_listen where = {
	    .socket_path = *e->socket ? e->socket : NULL, .host = e->host, .port = e->port};
	struct rcl_nbd_export nbd = {.name = e->name,
	                             .read = vol_read,
	                             .write = vol_write,
	                             .write_later = vol_write_later,
	                             .stalled = vol_stalled,
	                             .flush = vol_flush,
	                             .trim = vol_trim,
	                             .zero = vol_zero};
	enum rcl_status st;

	if (!vd)
		return rcl_fail(err, RCL_NOT_FOUND, "virtual drive /c%u/v%u not found",
		                rcl_ctrl_id(ctrl), e->vd);
	if (!state)
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "only a soft controller's VDs can be exported");
	if (vd->access == RCL_ACCESS_BLOCKED || vd->access == RCL_ACCESS_REMOVED_BLOCKED)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "/c%u/v%u is blocked (accesspolicy=%s); set accesspolicy=rw or ro "
		                "to export it",
		                rcl_ctrl_id(ctrl), e->vd,
		                vd->access == RCL_ACCESS_BLOCKED ? "blocked" : "rmvblkd");
	st = volume_get(state, e->vd, &e->vol, err);
	if (st)
		return st;
	nbd.description = *vd->name ? vd->name : NULL;
	nbd.bytes = rcl_soft_volume_bytes(e->vol);
	rcl_soft_volume_block_sizes(e->vol, &nbd.min_block, &nbd.preferred_block, &nbd.max_block);
	nbd.read_only = vd->access != RCL_ACCESS_RW;
	nbd.ctx = e->vol;
	e->access = vd->access;
	st = rcl_nbd_server_start(&nbd, &where, NBD_THREADS, &e->srv, err);
	if (st) {
		volume_put(e->vol);
		e->vol = NULL;
		return st;
	}
	e->held = false;
	service_log("serving v%u as '%s' at %s", e->vd, e->name, rcl_nbd_server_address(e->srv));
	return RCL_OK;
}

/* Stop @e's server (its clients disconnect), flush and close its volume. */
static void unserve_export(struct export *e)
{
	if (e->srv) {
		/* Its requests end first, and none can wait for the loop to record a failure. */
		rcl_soft_volume_hold_records(e->vol, true);
		rcl_nbd_server_stop(e->srv);
		rcl_soft_volume_hold_records(e->vol, false);
		e->srv = NULL;
		service_log("stopped serving v%u", e->vd);
	}
	if (e->vol) {
		volume_put(e->vol);
		e->vol = NULL;
	}
}

/* ------------------------------------------------------------------------
 * The handlers' calls. */

/* "HOST:PORT" (HOST may be [IPv6]) into @e. */
static enum rcl_status parse_address(const char *text, struct export *e, struct rcl_error *err)
{
	const char *colon = strrchr(text, ':');
	const char *host = text;
	size_t len = colon ? (size_t)(colon - text) : 0;
	char *end;
	unsigned long port;

	if (colon) {
		errno = 0;
		port = strtoul(colon + 1, &end, 10);
		if (*host == '[' && len >= 2 && host[len - 1] == ']') {
			host++;
			len -= 2;
		}
		if (len && len < sizeof(e->host) && colon[1] && !*end && !errno && port <= 65535 &&
		    !memchr(host, '/', len)) {
			memcpy(e->host, host, len);
			e->host[len] = '\0';
			e->port = (unsigned)port;
			return RCL_OK;
		}
	}
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "address '%s' is not HOST:PORT, as in address=127.0.0.1:10809 (port 0: any "
	                "free port)",
	                text);
}

static bool same_place(const struct export *a, const struct export *b)
{
	return !strcmp(a->name, b->name) && !strcmp(a->socket, b->socket) &&
	       !strcmp(a->host, b->host) && a->port == b->port;
}

void rcl_soft_export_name(const struct rcl_ctrl *ctrl, unsigned vd, char *buf, size_t size)
{
	const struct soft_ctrl *sc = ctrl->priv;

	snprintf(buf, size, "%s-v%u", sc->serial, vd);
}

/* Fill @e from @req with the defaults, and check it against the other exports. */
static enum rcl_status plan_export(struct rcl_ctrl *ctrl, const struct service_paths *p,
                                   unsigned vd, const struct rcl_export_request *req,
                                   const struct export_list *list, struct export *e,
                                   struct rcl_error *err)
{
	const char *serial = ((const struct soft_ctrl *)ctrl->priv)->serial;
	enum rcl_status st = RCL_OK;

	memset(e, 0, sizeof(*e));
	e->vd = vd;
	if (req->socket && req->address)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "give socket= or address=, not both: an export listens on one");
	if (req->name && (!*req->name || strlen(req->name) >= sizeof(e->name)))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "export name '%s' must be 1 to %zu bytes long", req->name,
		                sizeof(e->name) - 1);
	if (req->name)
		snprintf(e->name, sizeof(e->name), "%s", req->name);
	else
		rcl_soft_export_name(ctrl, vd, e->name, sizeof(e->name));
	if (req->address) {
		st = parse_address(req->address, e, err);
	} else if (req->socket) {
		if (*req->socket != '/')
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "socket path '%s' must be absolute: the controller process "
			                "runs elsewhere",
			                req->socket);
		snprintf(e->socket, sizeof(e->socket), "%s", req->socket);
	} else if (snprintf(e->socket, sizeof(e->socket), "%s/%s-v%u.sock", p->run_dir, serial,
	                    vd) >= (int)sizeof(e->socket)) {
		return rcl_fail(err, RCL_INVALID_PARAM, "the state directory '%s' is too long",
		                p->state_dir);
	}
	if (!st && *e->socket)
		st = service_check_socket(e->socket, "export socket", err);
	for (size_t i = 0; !st && i < list->count; i++) {
		const struct export *o = &list->items[i];

		if (o->vd == vd && same_place(o, e))
			continue; /* asked again for what is there: rcl_soft_export_start() resumes
			             it */
		if (o->vd == vd)
			st =
			    rcl_fail(err, RCL_EXISTS,
			             "/c%u/v%u is already exported as '%s'; stop it first: raidcli "
			             "/c%u/v%u stop export",
			             p->id, vd, o->name, p->id, vd);
		else if (!strcmp(o->name, e->name))
			st = rcl_fail(err, RCL_EXISTS, "export name '%s' is taken by /c%u/v%u",
			              e->name, p->id, o->vd);
		else if (*e->socket && !strcmp(o->socket, e->socket))
			st = rcl_fail(err, RCL_EXISTS, "socket '%s' is taken by /c%u/v%u",
			              e->socket, p->id, o->vd);
	}
	return st;
}

static enum rcl_status list_append(struct export_list *list, const struct export *e,
                                   struct rcl_error *err)
{
	struct export *items = rcl_realloc(list->items, (list->count + 1) * sizeof(*items));

	if (!items)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	list->items = items;
	list->items[list->count++] = *e;
	return RCL_OK;
}

static void list_remove(struct export_list *list, struct export *e)
{
	size_t i = (size_t)(e - list->items);

	memmove(e, e + 1, (list->count - i - 1) * sizeof(*e));
	list->count--;
}

/* Where @e listens, as rcl_export_info.address says it. */
static void export_address(const struct export *e, char *buf, size_t size)
{
	if (e->srv)
		snprintf(buf, size, "%s", rcl_nbd_server_address(e->srv));
	else if (*e->socket)
		snprintf(buf, size, "unix:%s", e->socket);
	else if (strchr(e->host, ':'))
		snprintf(buf, size, "[%s]:%u", e->host, e->port);
	else
		snprintf(buf, size, "%s:%u", e->host, e->port);
}

/* How @e is, for rcl_ctrl_exports(). */
static enum rcl_export_state export_state(const struct rcl_ctrl *ctrl, const struct export *e)
{
	return e->srv                            ? RCL_EXPORT_SERVING
	       : e->held                         ? RCL_EXPORT_HELD
	       : service_self(rcl_ctrl_id(ctrl)) ? RCL_EXPORT_FAILED
	                                         : RCL_EXPORT_STOPPED;
}

static void export_info(const struct rcl_ctrl *ctrl, const struct export *e,
                        struct rcl_export_info *info)
{
	info->vd = e->vd;
	snprintf(info->name, sizeof(info->name), "%s", e->name);
	export_address(e, info->address, sizeof(info->address));
	info->state = export_state(ctrl, e);
	info->clients = e->srv ? rcl_nbd_server_connections(e->srv) : 0;
}

/* plan_export() of VD @vd, which must exist. */
static enum rcl_status plan_checked(struct rcl_ctrl *ctrl, const struct service_paths *p,
                                    unsigned vd, const struct rcl_export_request *req,
                                    const struct export_list *list, struct export *e,
                                    struct rcl_error *err)
{
	if (!rcl_ctrl_vd_by_id(ctrl, vd))
		return rcl_fail(err, RCL_NOT_FOUND, "virtual drive /c%u/v%u not found", p->id, vd);
	return plan_export(ctrl, p, vd, req, list, e, err);
}

/* The backend's export ops (soft.h): rcl_ctrl_export_check() and its siblings. */

enum rcl_status rcl_soft_export_check(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err)
{
	struct export_list *list, scratch;
	struct service_paths p;
	struct export e;
	enum rcl_status st = list_get(ctrl, &p, &list, &scratch, err);

	if (st)
		return st;
	st = plan_checked(ctrl, &p, vd, req, list, &e, err);
	list_release(list);
	return st;
}

enum rcl_status rcl_soft_export_start(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err)
{
	struct export_list *list, scratch;
	struct export e, *existing;
	struct service_paths p;
	enum rcl_status st = list_get(ctrl, &p, &list, &scratch, err);

	if (st)
		return st;
	/* The same force lets a rebuild of the VD go on (tasks.c). */
	if (req->force)
		export_force(vd);
	if (list != &live) {
		list_release(list);
		return rcl_fail(
		    err, RCL_NOT_ALLOWED,
		    "exports are served by the controller process of /c%u, which is not "
		    "running; start it with: raidcli /c%u serve",
		    p.id, p.id);
	}
	st = plan_checked(ctrl, &p, vd, req, list, &e, err);
	existing = list_find(list, vd);
	if (!st && existing) {
		/* Already there (a restarted process serves it): serve it if it is not. */
		return existing->srv ? RCL_OK : serve_export(ctrl, existing, err);
	}
	if (!st)
		st = serve_export(ctrl, &e, err);
	if (!st) {
		st = list_append(list, &e, err);
		if (!st)
			st = list_save(&p, list, err);
		if (st) {
			/* Not persisted: not served either, so the two never disagree. */
			if (list->count && list->items[list->count - 1].vd == vd)
				list->count--;
			unserve_export(&e);
		}
	}
	return st;
}

enum rcl_status rcl_soft_export_stop(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err)
{
	struct export_list *list, scratch;
	struct service_paths p;
	struct export *e;
	enum rcl_status st = list_get(ctrl, &p, &list, &scratch, err);

	if (st)
		return st;
	e = list_find(list, vd);
	if (!e) {
		list_release(list);
		return rcl_fail(
		    err, RCL_NOT_FOUND,
		    "/c%u/v%u is not exported; 'raidcli /c%u/vall show export' lists the "
		    "exports",
		    p.id, vd, p.id);
	}
	unserve_export(e);
	list_remove(list, e);
	st = list_save(&p, list, err);
	list_release(list);
	return st;
}

enum rcl_status rcl_soft_exports(struct rcl_ctrl *ctrl, struct rcl_export_info **out, size_t *count,
                                 struct rcl_error *err)
{
	struct export_list *list, scratch;
	struct service_paths p;
	enum rcl_status st = list_get(ctrl, &p, &list, &scratch, err);

	if (st)
		return st;
	if (list->count && !(*out = rcl_calloc(list->count, sizeof(**out))))
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; !st && i < list->count; i++)
		export_info(ctrl, &list->items[i], &(*out)[i]);
	if (!st)
		*count = list->count;
	list_release(list);
	return st;
}

/* Why VD @vd is degraded and dirty, forced or not (rcl_soft_export_needs_force()). */
static const char *degraded_and_dirty(const struct rcl_ctrl *ctrl, unsigned vd)
{
	const struct rcl_vd *v = rcl_ctrl_vd_by_id(ctrl, vd);

	if (!v || v->state == RCL_VD_OPTIMAL || v->state == RCL_VD_OFFLINE || !vd_dirty(ctrl, v))
		return NULL;
	return v->consistent ? "was not shut down cleanly (not resynced)"
	                     : "not consistent (never initialized)";
}

const char *rcl_soft_export_needs_force(const struct rcl_ctrl *ctrl, unsigned vd)
{
	return vd < 64 && (forced >> vd & 1) ? NULL : degraded_and_dirty(ctrl, vd);
}

const char *rcl_soft_export_waits_for_force(const struct rcl_ctrl *ctrl, unsigned vd)
{
	return vd < 64 && (held_at_start >> vd & 1) ? rcl_soft_export_needs_force(ctrl, vd) : NULL;
}

void export_force(unsigned vd)
{
	forced |= vd < 64 ? 1ull << vd : 0;
	held_at_start &= ~forced;
}

/*
 * Forget the force of the VDs that are safe again (a later crash asks for it
 * anew), and serve the exports held for want of it once their VD needs none:
 * no longer degraded (a member came back: the resync puts the parity right)
 * or forced ("start rebuild force").
 */
static void settle_force(struct rcl_ctrl *ctrl)
{
	for (unsigned vd = 0; vd < 64; vd++)
		if (((forced | held_at_start) >> vd & 1) && !degraded_and_dirty(ctrl, vd)) {
			forced &= ~(1ull << vd);
			held_at_start &= ~(1ull << vd);
		}
	for (size_t i = 0; i < live.count; i++) {
		struct export *e = &live.items[i];
		struct rcl_error err = {0};

		if (!e->held || rcl_soft_export_waits_for_force(ctrl, e->vd))
			continue;
		service_log("v%u needs no force now: serving it", e->vd);
		if (serve_export(ctrl, e, &err))
			service_log("cannot serve v%u: %s", e->vd, err.msg);
	}
}

/* ------------------------------------------------------------------------
 * The process's side. */

enum rcl_status service_open_ctrl(unsigned id, enum rcl_lock lock, struct rcl_ctx **lib,
                                  struct rcl_ctrl **ctrl, struct rcl_error *err)
{
	enum rcl_status st;

	*lib = NULL;
	*ctrl = NULL;
	st = service_ctx_new(id, lib, err);
	if (!st)
		st = rcl_ctrl_open(*lib, id, lock, ctrl, err);
	return st;
}

void service_with_ctrl(unsigned id, const char *what,
                       void (*fn)(unsigned id, struct rcl_ctrl *ctrl))
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;

	if (service_open_ctrl(id, RCL_LOCK_SHARED, &lib, &ctrl, &err) || !service_soft_state(ctrl))
		service_log("cannot run %s: %s", what, err.msg);
	else
		fn(id, ctrl);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
}

/* Hold the VDs unsafe as the process starts: what md would not assemble without --force. */
static void hold_unsafe(struct rcl_ctrl *ctrl)
{
	for (size_t i = 0; i < rcl_ctrl_vd_count(ctrl); i++) {
		unsigned vd = rcl_ctrl_vd(ctrl, i)->id;

		if (vd < 64 && rcl_soft_export_needs_force(ctrl, vd))
			held_at_start |= 1ull << vd;
	}
}

void exports_start_all(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	struct rcl_ctx *lib;
	enum rcl_status st = service_open_ctrl(id, RCL_LOCK_SHARED, &lib, &ctrl, &err);

	if (!st)
		hold_unsafe(ctrl);
	if (!st)
		st = list_load(service_self(id)->exports, &live, &err);
	if (st)
		service_log("cannot read the exports: %s", err.msg);
	for (size_t i = 0; !st && i < live.count; i++) {
		struct export *e = &live.items[i];

		const char *unsafe = rcl_soft_export_waits_for_force(ctrl, e->vd);

		err = (struct rcl_error){0};
		e->held = unsafe != NULL;
		if (unsafe)
			service_log(
			    "not serving v%u: it is degraded and %s; 'raidcli /c%u/v%u start "
			    "export force' serves it",
			    e->vd, unsafe, id, e->vd);
		else if (serve_export(ctrl, e, &err))
			service_log("cannot serve v%u: %s", e->vd, err.msg);
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
}

/*
 * A changed access policy changes
 * what NBD advertises, which only a new server can: its clients reconnect.
 */
static void refresh_export(struct rcl_ctrl *ctrl, struct export *e)
{
	const struct rcl_vd *vd = rcl_ctrl_vd_by_id(ctrl, e->vd);
	struct rcl_error err = {0};

	if (!e->srv || !vd || vd->access == e->access)
		return;
	service_log("v%u: access policy changed; restarting its export", e->vd);
	unserve_export(e);
	if (serve_export(ctrl, e, &err))
		service_log("cannot serve v%u: %s", e->vd, err.msg);
}

void exports_refresh(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;

	if (!live.count && !shared_count && !forced && !held_at_start)
		return;
	if (service_open_ctrl(id, RCL_LOCK_SHARED, &lib, &ctrl, &err)) {
		service_log("cannot reload the configuration: %s", err.msg);
	} else {
		volumes_refresh(service_soft_state(ctrl));
		for (size_t i = 0; i < live.count; i++)
			refresh_export(ctrl, &live.items[i]);
		settle_force(ctrl);
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
}

/*
 * Where member @f->member (one a removal drops too) of VD @f->vd's group
 * sits in @ctrl's configuration, and its state.
 */
static const struct rcl_soft_member *failed_member(struct rcl_ctrl *ctrl, const struct failure *f)
{
	struct soft_ctrl *sc = service_soft_state(ctrl) ? ctrl->priv : NULL;
	const struct rcl_soft_vd *vd = sc ? rcl_soft_config_vd(&sc->state->cfg, f->vd) : NULL;
	const struct rcl_soft_dg *dg = vd ? rcl_soft_config_dg(&sc->state->cfg, vd->dg) : NULL;

	return dg && f->member < rcl_soft_dg_held(dg) ? &dg->members[f->member] : NULL;
}

/* Log the failure just recorded of @m (as it was before), and each VD it degraded. */
static void log_failure(struct rcl_ctrl *ctrl, const struct rcl_soft_member *m,
                        const struct rcl_vd *before, size_t count)
{
	unsigned id = rcl_ctrl_id(ctrl);

	service_log("recorded /c%u/e%u/s%u as failed", id, RCL_SOFT_ENCLOSURE, m->slot);
	(void)rcl_event_record(ctrl, RCL_EVENT_DRIVE_FAILED, NULL,
	                       "Drive /c%u/e%u/s%u state changed from %s to UBad (I/O error)", id,
	                       RCL_SOFT_ENCLOSURE, m->slot,
	                       m->state == RCL_SOFT_MEMBER_REBUILD ? "Rbld" : "Onln");
	rcl_event_vd_states(ctrl, before, count);
}

/*
 * Record that member @f->member of VD @f->vd, the drive @f->drive, failed,
 * under the controller lock, from the surviving members alone
 * (rcl_soft_fail_member()): the drive in the failed member's slot may be
 * anything now. Return: whether the configuration records the member as
 * out of use (recorded now, or already, or its VD gone, or another drive
 * in its place); else writes that did without it must fail.
 */
static bool record_failure(unsigned id, const struct failure *f)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;
	const struct rcl_soft_member *found;
	struct rcl_soft_member m;
	struct rcl_vd *before = NULL;
	enum rcl_status st;
	size_t count;

	service_log("v%u: member %u failed (%s); serving degraded", f->vd, f->member,
	            strerror(f->error));
	/* Its checkpoints rewrite the superblocks this change does: not at the same time. */
	migration_hold(f->vd);
	st = service_open_ctrl(id, RCL_LOCK_EXCLUSIVE, &lib, &ctrl, &err);
	found = st ? NULL : failed_member(ctrl, f);
	count = st ? 0 : rcl_ctrl_vd_count(ctrl);
	if (!st && !found)
		service_log("v%u: member %u is no longer in the configuration", f->vd, f->member);
	if (found && !(before = rcl_calloc(count + 1, sizeof(*before))))
		st = rcl_fail(&err, RCL_NOMEM, "out of memory");
	if (found && !st) {
		m = *found;
		for (size_t i = 0; i < count; i++)
			before[i] = *rcl_ctrl_vd(ctrl, i);
		st = rcl_soft_fail_member(ctrl, f->vd, f->member, &f->drive, &err);
		if (!st)
			log_failure(ctrl, &m, before, count);
	}
	/*
	 * Another drive in its place: the failure was recorded already (a hot
	 * spare took the place since), and is not the new drive's.
	 */
	if (found && st == RCL_NOT_FOUND) {
		service_log("v%u: %s; its failure is ignored", f->vd, err.msg);
		st = RCL_OK;
	}
	/* Not online any more: recorded already, by a change of the user's. */
	if (st == RCL_NOT_ALLOWED)
		st = RCL_OK;
	if (st)
		service_log("cannot record member %u of v%u as failed: %s", f->member, f->vd,
		            err.msg);
	rcl_free(before);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
	return !st;
}

/* Writes that went on without a member whose failure cannot be recorded must fail. */
static void record_failed(unsigned vd)
{
	for (size_t i = 0; i < shared_count; i++)
		if (shared[i].vd == vd)
			rcl_soft_volume_record_failed(shared[i].vol);
}

void exports_notified(int fd, unsigned id)
{
	struct failure f;

	while (read(fd, &f, sizeof(f)) == sizeof(f))
		if (f.vd != WAKE_VD && !record_failure(id, &f))
			record_failed(f.vd);
	exports_refresh(id);
}

void exports_stop_all(void)
{
	for (size_t i = 0; i < live.count; i++)
		unserve_export(&live.items[i]);
	rcl_free(live.items);
	live = (struct export_list){0};
}
