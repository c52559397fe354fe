// SPDX-License-Identifier: MIT
/*
 * backend.c - the redfish backend: each Storage resource of a BMC is a
 * controller, read over Redfish whenever it is opened.
 *
 * "add controller type=redfish host=https://bmc user=NAME credfile=PATH"
 * (or passenv=VAR, or neither: asked on the terminal; hostsfile=PATH for
 * many BMCs) asks every BMC for its Storage resources, all at once, and
 * registers one controller for each.
 * Opening one reads its resources (crawl.c) and maps them (map.c); a
 * command over many controllers starts reading them all at once
 * (@prefetch), and each @load then takes its part as soon as it is read,
 * the others still read meanwhile.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/linkhash.h>

#include "redfish/client.h"
#include "redfish/redfish.h"
#include "redfish/session.h"
#include "redfish/url.h"

/* ------------------------------------------------------------------------
 * Reading controllers, one or many.
 */

/*
 * struct rcl_redfish_fleet - controllers read together: their state, their BMCs'
 * clients (one per URL and user, shared by that BMC's controllers) and
 * what was read. What @prefetch keeps in the context until it is freed.
 */
struct fleet_item {
	char key[RCL_KEY_SIZE];
	struct rcl_redfish_config cfg;
	struct rcl_redfish_target target; /* its outcome, once taken from the crawl */
	size_t client;
	size_t crawled; /* its index in the crawl's targets, or SIZE_MAX once taken */
};

struct rcl_redfish_fleet {
	struct fleet_item *items;
	size_t count;
	size_t next; /* where take_part() looks first: controllers open in their order */
	struct rcl_redfish_client **clients;
	size_t client_count;
	struct rcl_redfish_crawl *crawl; /* reading @targets, or NULL */
	struct rcl_redfish_target *targets;
	size_t target_count;
};

static void fleet_free(void *data)
{
	struct rcl_redfish_fleet *f = data;

	if (!f)
		return;
	/* Its GETs on the clients' connections go before the logouts. */
	rcl_redfish_crawl_end(f->crawl);
	for (size_t k = 0; k < f->target_count; k++)
		json_object_put(f->targets[k].docs);
	rcl_free(f->targets);
	/* Log out of every BMC at once: a thousand sequential DELETEs would be the slow part. */
	rcl_redfish_logout(f->clients, f->client_count, &rcl_redfish_fleet_limits, NULL);
	for (size_t i = 0; i < f->client_count; i++)
		rcl_redfish_client_free(f->clients[i]);
	for (size_t i = 0; i < f->count; i++) {
		rcl_redfish_config_release(&f->items[i].cfg);
		json_object_put(f->items[i].target.docs);
	}
	rcl_free(f->clients);
	rcl_free(f->items);
	rcl_free(f);
}

static void made_free(struct lh_entry *e)
{
	rcl_free(lh_entry_k(e));
}

/*
 * Remember in @made ("URL\nuser" -> index + 1) that the fleet's client @k
 * is @url's for @user. A table, not a search of the earlier items: that
 * was quadratic, a thousand BMCs' two million string compares.
 */
static void made_add(struct lh_table *made, size_t k, const char *url, const char *user)
{
	struct rcl_buf key = RCL_BUF_INIT;

	rcl_buf_addf(&key, "%s\n%s", url, user);
	/* Out of memory, the next item of this BMC only gets a client of its own. */
	if (!key.oom && lh_table_insert(made, key.buf, (void *)(uintptr_t)(k + 1)))
		rcl_buf_release(&key);
}

/* The client for item @i: the one @made has for its URL and user, else a new one. */
static enum rcl_status fleet_client(const struct rcl_ctx *ctx, struct rcl_redfish_fleet *f,
                                    struct lh_table *made, size_t i, struct rcl_error *err)
{
	const struct rcl_redfish_config *cfg = &f->items[i].cfg;
	struct rcl_buf key = RCL_BUF_INIT;
	enum rcl_status st;
	void *known = NULL;

	rcl_buf_addf(&key, "%s\n%s", cfg->url, cfg->user);
	if (key.oom)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	lh_table_lookup_ex(made, key.buf, &known);
	rcl_buf_release(&key);
	if (known) {
		f->items[i].client = (size_t)(uintptr_t)known - 1;
		return RCL_OK;
	}
	st = rcl_redfish_client_for(ctx, cfg, &f->clients[f->client_count], err);
	if (st)
		return st;
	f->items[i].client = f->client_count++;
	made_add(made, f->items[i].client, cfg->url, cfg->user);
	return RCL_OK;
}

/* Free @clients, logged out all at once (a fleet that could not be made). */
static void clients_free(struct rcl_redfish_client **clients, size_t count)
{
	rcl_redfish_logout(clients, count, &rcl_redfish_fleet_limits, NULL);
	for (size_t i = 0; i < count; i++)
		rcl_redfish_client_free(clients[i]);
}

/*
 * Start reading the controllers with keys @keys into a new fleet
 * (take_part() waits for each); each one's failure is its own. The fleet
 * takes @given clients (logged in already: the controllers of their URL
 * and user use them), even when it fails.
 */
static enum rcl_status fleet_read(const struct rcl_ctx *ctx, const char (*keys)[RCL_KEY_SIZE],
                                  size_t count, struct rcl_redfish_client **given,
                                  size_t given_count, struct rcl_redfish_fleet **out,
                                  struct rcl_error *err)
{
	struct rcl_redfish_fleet *f = rcl_calloc(1, sizeof(*f));
	struct lh_table *made = lh_kchar_table_new(64, made_free);
	size_t n = 0;
	enum rcl_status st = RCL_OK;

	if (f) {
		f->items = rcl_calloc(count ? count : 1, sizeof(*f->items));
		f->clients = rcl_calloc(count + given_count + 1, sizeof(*f->clients));
		f->targets = rcl_calloc(count ? count : 1, sizeof(*f->targets));
	}
	if (!f || !f->items || !f->clients || !f->targets || !made) {
		if (made)
			lh_table_free(made);
		fleet_free(f);
		clients_free(given, given_count);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	for (; f->client_count < given_count; f->client_count++) {
		struct rcl_redfish_client *c = given[f->client_count];

		f->clients[f->client_count] = c;
		made_add(made, f->client_count, c->origin, c->user);
	}
	f->count = count;
	for (size_t i = 0; i < count; i++) {
		struct fleet_item *it = &f->items[i];

		snprintf(it->key, sizeof(it->key), "%s", keys[i]);
		it->client = it->crawled = SIZE_MAX;
		if (!rcl_redfish_config_read(ctx, it->key, &it->cfg, &it->target.err) &&
		    !fleet_client(ctx, f, made, i, &it->target.err)) {
			f->targets[n] = (struct rcl_redfish_target){
			    .client = f->clients[it->client], .storage = it->cfg.storage};
			it->crawled = n++;
		}
	}
	lh_table_free(made);
	f->target_count = n;
	st = rcl_redfish_crawl_begin(f->targets, n, &f->crawl, err);
	if (st) {
		fleet_free(f);
		return st;
	}
	*out = f;
	return RCL_OK;
}

/* Item @it's outcome: read by now, and taken from the crawl. */
static void item_read(struct rcl_redfish_fleet *f, struct fleet_item *it)
{
	if (it->crawled == SIZE_MAX)
		return;
	rcl_redfish_crawl_wait(f->crawl, it->crawled);
	it->target = f->targets[it->crawled];
	f->targets[it->crawled].docs = NULL;
	it->crawled = SIZE_MAX;
}

static void redfish_prefetch_free(void *data)
{
	fleet_free(data);
}

static enum rcl_status redfish_prefetch(const struct rcl_ctx *ctx, const char (*keys)[RCL_KEY_SIZE],
                                        size_t count, void **out, struct rcl_error *err)
{
	return fleet_read(ctx, keys, count, NULL, 0, (struct rcl_redfish_fleet **)out, err);
}

void rcl_redfish_prefetch_with(struct rcl_ctx *ctx, const char (*keys)[RCL_KEY_SIZE], size_t count,
                               struct rcl_redfish_client **clients, size_t client_count)
{
	struct rcl_redfish_fleet *f;

	if (!fleet_read(ctx, keys, count, clients, client_count, &f, NULL))
		rcl_ctx_keep_prefetched(ctx, &rcl_redfish_ops, f);
}

/* ------------------------------------------------------------------------
 * One controller.
 */

static void redfish_unload(struct rcl_ctrl *ctrl)
{
	struct rcl_redfish_priv *p = ctrl->priv;

	if (!p)
		return;
	rcl_redfish_model_release(&p->model);
	json_object_put(p->docs);
	fleet_free(p->own);
	rcl_free(p);
	ctrl->priv = NULL;
}

/* Read Storage @storage of @client's BMC anew into *@docs (NULL on failure). */
static enum rcl_status read_anew(struct rcl_redfish_client *client, const char *storage,
                                 json_object **docs, struct rcl_error *err)
{
	struct rcl_redfish_target t = {.client = client, .storage = storage};
	struct rcl_error e = {0};
	enum rcl_status st = rcl_redfish_crawl(&t, 1, &e);

	if (!st && t.err.status)
		e = t.err;
	if (e.status && err)
		*err = e;
	*docs = t.docs;
	return e.status;
}

/* Take controller @key's part of @f into @p: its cache, state and (borrowed) client. */
static enum rcl_status take_part(struct rcl_redfish_fleet *f, const char *key,
                                 struct rcl_redfish_priv *p, struct rcl_error *err)
{
	for (size_t n = 0; n < f->count; n++) {
		size_t i = (f->next + n) % f->count;
		struct fleet_item *it = &f->items[i];

		if (strcmp(it->key, key))
			continue;
		f->next = i + 1;
		item_read(f, it);
		if (it->target.err.status) {
			if (err) /* callers such as event recording pass none */
				*err = it->target.err;
			return it->target.err.status;
		}
		/*
		 * The cache is taken, not shared, so that it goes when its
		 * controller closes: a thousand BMCs' caches kept to the end
		 * of the command took 760 MiB. A controller opened again in
		 * the same command (add's event, then its reply) is read anew,
		 * over the session the fleet holds: not a login more.
		 */
		if (!it->target.docs) {
			enum rcl_status st = read_anew(f->clients[it->client], it->cfg.storage,
			                               &it->target.docs, err);

			if (st)
				return st;
		}
		p->cfg = &it->cfg;
		p->docs = it->target.docs;
		it->target.docs = NULL;
		p->client = f->clients[it->client];
		return RCL_OK;
	}
	return RCL_NOT_FOUND;
}

static void free_model(struct rcl_ctrl *m)
{
	rcl_free(m->enclosures);
	rcl_free(m->drives);
	rcl_free(m->dgs);
	rcl_free(m->vds);
}

/* Map @p's cache into @ctrl's model, replacing it only on success. */
static enum rcl_status map_into(struct rcl_ctrl *ctrl, struct rcl_redfish_priv *p,
                                struct rcl_error *err)
{
	struct rcl_ctrl tmp = {.caps = ctrl->entry.ops->caps[0]};
	struct rcl_redfish_model model;
	enum rcl_status st = rcl_redfish_map(p->docs, p->cfg->storage, &tmp, &model, err);

	if (st) {
		free_model(&tmp);
		rcl_redfish_model_release(&model);
		return st;
	}
	free_model(ctrl);
	ctrl->info = tmp.info;
	ctrl->caps = tmp.caps;
	ctrl->enclosures = tmp.enclosures;
	ctrl->enclosure_count = tmp.enclosure_count;
	ctrl->drives = tmp.drives;
	ctrl->drive_count = tmp.drive_count;
	ctrl->dgs = tmp.dgs;
	ctrl->dg_count = tmp.dg_count;
	ctrl->vds = tmp.vds;
	ctrl->vd_count = tmp.vd_count;
	rcl_redfish_model_release(&p->model);
	p->model = model;
	return RCL_OK;
}

/* Read controller @ctrl alone, into @p (which then owns its client). */
static enum rcl_status read_alone(struct rcl_ctrl *ctrl, struct rcl_redfish_priv *p,
                                  struct rcl_error *err)
{
	enum rcl_status st = fleet_read(ctrl->ctx, &ctrl->entry.key, 1, NULL, 0, &p->own, err);

	return st ? st : take_part(p->own, ctrl->entry.key, p, err);
}

static enum rcl_status redfish_load(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct rcl_redfish_fleet *pre = rcl_ctx_prefetched(ctrl->ctx, &rcl_redfish_ops);
	struct rcl_redfish_priv *p = rcl_calloc(1, sizeof(*p));
	enum rcl_status st = p ? RCL_NOT_FOUND : rcl_fail(err, RCL_NOMEM, "out of memory");

	if (p && pre)
		st = take_part(pre, ctrl->entry.key, p, err);
	if (st == RCL_NOT_FOUND)
		st = read_alone(ctrl, p, err);
	if (p)
		ctrl->priv = p;
	if (!st)
		st = map_into(ctrl, p, err);
	if (st)
		redfish_unload(ctrl); /* rcl_ctrl_open() does not unload what failed to load */
	return st;
}

enum rcl_status rcl_redfish_refresh(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct rcl_redfish_priv *p = ctrl->priv;
	json_object *old, *docs;
	enum rcl_status st = read_anew(p->client, p->cfg->storage, &docs, err);

	if (st)
		return st;
	/* The model borrows the cache's strings: swap both or neither. */
	old = p->docs;
	p->docs = docs;
	st = map_into(ctrl, p, err);
	if (st) {
		p->docs = old;
		json_object_put(docs);
		return st;
	}
	json_object_put(old);
	return RCL_OK;
}

const char *rcl_redfish_drive_uri(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref)
{
	const struct rcl_redfish_priv *p = ctrl->priv;

	for (size_t i = 0; i < ctrl->drive_count; i++)
		if (ctrl->drives[i].enclosure == ref->enclosure &&
		    ctrl->drives[i].slot == ref->slot)
			return p->model.drive_uri[i];
	return NULL;
}

const char *rcl_redfish_vd_uri(const struct rcl_ctrl *ctrl, unsigned vd)
{
	const struct rcl_redfish_priv *p = ctrl->priv;

	for (size_t i = 0; i < ctrl->vd_count; i++)
		if (ctrl->vds[i].id == vd)
			return p->model.vd_uri[i];
	return NULL;
}

static enum rcl_status redfish_destroy(struct rcl_ctrl *ctrl, unsigned flags, struct rcl_error *err)
{
	char *path = rcl_redfish_config_path(ctrl->ctx, ctrl->entry.key);

	(void)flags;
	if (!path)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (unlink(path) && errno != ENOENT) {
		rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot remove '%s': %s", path,
		               strerror(errno));
		rcl_free(path);
		return err->status;
	}
	rcl_free(path);
	return RCL_OK;
}

static bool redfish_host(const struct rcl_ctx *ctx, const char *key, char *out, size_t size)
{
	struct rcl_redfish_config cfg;
	const char *host;

	if (rcl_redfish_config_read(ctx, key, &cfg, NULL))
		return false;
	host = strstr(cfg.url, "://");
	snprintf(out, size, "%s", host ? host + 3 : cfg.url);
	rcl_redfish_config_release(&cfg);
	return true;
}

/* A redfish controller's kind record; @load narrows the levels and cache to the BMC's. */
static const struct rcl_caps redfish_caps = {
    .kind = "redfish",
    .drive_kinds = "SAS, SATA, NVMe (through a BMC)",
    .levels = (1u << RCL_RAID0) | (1u << RCL_RAID1) | (1u << RCL_RAID5) | (1u << RCL_RAID6) |
              (1u << RCL_RAID10) | (1u << RCL_RAID50) | (1u << RCL_RAID60),
    .strip_min_kib = 64,
    .strip_max_kib = 1024,
    .strip_default_kib = 64,
    .max_spans = 2,
    .max_drives_per_span = RCL_MAX_DRIVES_PER_SPAN,
    .max_dgs = RCL_MAX_DGS,
    .max_vds = RCL_MAX_VDS,
    .max_vds_per_dg = 1,
    .tasks = (1u << RCL_TASK_REBUILD) | (1u << RCL_TASK_CC) | (1u << RCL_TASK_INIT) |
             (1u << RCL_TASK_ERASE),
    .settings = 1u << RCL_SETTING_VD_POLICY,
    .default_write = RCL_WRITE_BACK,
    .default_read = RCL_READ_AHEAD,
};

/* The changing operations are change.c's. */
const struct rcl_backend_ops rcl_redfish_ops = {
    .name = "redfish",
    .caps = &redfish_caps,
    .create = rcl_redfish_create,
    .prefetch = redfish_prefetch,
    .prefetch_free = redfish_prefetch_free,
    .host = redfish_host,
    .load = redfish_load,
    .unload = redfish_unload,
    .destroy = redfish_destroy,
    .create_vd = rcl_redfish_create_vd,
    .delete_vd = rcl_redfish_delete_vd,
    .set_vd = rcl_redfish_set_vd,
    .add_hotspare = rcl_redfish_add_hotspare,
    .delete_hotspare = rcl_redfish_delete_hotspare,
    .set_locate = rcl_redfish_set_locate,
    .drive_detail = rcl_redfish_drive_detail,
    .task_check = rcl_redfish_task_check,
    .task = rcl_redfish_task,
    .task_progress = rcl_redfish_task_progress,
};
