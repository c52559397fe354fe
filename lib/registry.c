// SPDX-License-Identifier: MIT
/*
 * registry.c - which controller number belongs to which backend object.
 *
 * The registry gives controllers of every backend one numbering that stays
 * stable across runs: a new controller takes the lowest free number and keeps
 * it until it is deleted. It lives in <state dir>/registry.json; changes are
 * serialized by <state dir>/registry.lock and written atomically. Opening it
 * asks every kind that finds controllers on the host (@discover) which are
 * there, and registers the new ones on first sight.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends.h"
#include "internal.h"

#define REGISTRY_FORMAT 1

/* Every kind's ops table: RCL_BACKENDS lists lib/meson.build's backend_kinds. */
#define RCL_BACKEND(kind) extern const struct rcl_backend_ops rcl_##kind##_ops;
RCL_BACKENDS
#undef RCL_BACKEND

static const struct rcl_backend_ops *const backends[] = {
#define RCL_BACKEND(kind) &rcl_##kind##_ops,
    RCL_BACKENDS
#undef RCL_BACKEND
};

static const struct rcl_backend_ops *backend_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

enum rcl_status rcl_ctrl_create(struct rcl_ctx *ctx, const char *kind, const struct rcl_kv *params,
                                size_t count, unsigned *id, struct rcl_error *err)
{
	const struct rcl_backend_ops *ops = backend_by_name(kind);

	if (!ops)
		return rcl_fail(err, RCL_NOT_FOUND, "no controller kind '%s'", kind);
	if (!ops->create)
		return rcl_unsupported(err, ops->caps->kind, "adding a controller",
		                       "its controllers are found on the host");
	return ops->create(ctx, params, count, id, err);
}

/* The state directory: explicit, $RAIDCLI_STATE_DIR, /var/lib for root, XDG. */
static char *default_state_dir(void)
{
	const char *env = getenv("RAIDCLI_STATE_DIR");
	struct rcl_buf sb = RCL_BUF_INIT;

	if (env && *env)
		return rcl_strdup(env);
	if (geteuid() == 0)
		return rcl_strdup("/var/lib/raidcli");
	env = getenv("XDG_DATA_HOME");
	if (env && *env == '/')
		rcl_buf_addf(&sb, "%s/raidcli", env);
	else if ((env = getenv("HOME")) && *env)
		rcl_buf_addf(&sb, "%s/.local/share/raidcli", env);
	else
		rcl_buf_adds(&sb, "/var/lib/raidcli");
	return rcl_buf_detach(&sb);
}

static bool key_is_safe(const char *key)
{
	if (!*key || strlen(key) >= sizeof(((struct rcl_registry_entry *)0)->key))
		return false;
	for (const char *p = key; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= 'a' && *p <= 'z') || *p == '-' || *p == '_'))
			return false;
	return true;
}

static const char *const compat_names[] = {
    [RCL_STORCLI_COMPAT_OFF] = "off",
    [RCL_STORCLI_COMPAT_MEGARAID_SAS] = "megaraid_sas",
};

const char *rcl_storcli_compat_name(enum rcl_storcli_compat mode)
{
	return compat_names[mode];
}

enum rcl_status rcl_storcli_compat_parse(const char *text, enum rcl_storcli_compat *mode,
                                         struct rcl_error *err)
{
	for (size_t i = 0; i < sizeof(compat_names) / sizeof(*compat_names); i++)
		if (!strcmp(text, compat_names[i])) {
			*mode = (enum rcl_storcli_compat)i;
			return RCL_OK;
		}
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "unknown compatibility mode '%s': it is megaraid_sas or off", text);
}

/*
 * An entry's "storclicompat" (absent: its kind's default @kind_mode, off
 * for every kind in registries written before it).
 */
static enum rcl_status parse_compat(json_object *item, const char *path,
                                    enum rcl_storcli_compat kind_mode,
                                    enum rcl_storcli_compat *mode, struct rcl_error *err)
{
	const char *text;

	*mode = kind_mode;
	if (!json_object_object_get_ex(item, "storclicompat", NULL))
		return RCL_OK;
	if (!rcl_json_get_str(item, "storclicompat", &text) ||
	    rcl_storcli_compat_parse(text, mode, NULL))
		return rcl_state_corrupt(err, path,
		                         "a controller names an unknown storclicompat mode");
	return RCL_OK;
}

/* @entry's capabilities: its own where its kind says controllers differ. */
static void entry_caps(const struct rcl_ctx *ctx, struct rcl_registry_entry *entry)
{
	entry->caps = *entry->ops->caps;
	if (entry->ops->ctrl_caps && entry->ops->ctrl_caps(ctx, entry->key, &entry->caps, NULL))
		entry->caps = *entry->ops->caps;
}

static enum rcl_status parse_entry(const struct rcl_ctx *ctx, json_object *item, const char *path,
                                   struct rcl_registry_entry *entry, struct rcl_error *err)
{
	const char *backend, *key;
	uint64_t id;

	if (!json_object_is_type(item, json_type_object) ||
	    !rcl_json_get_uint(item, "id", 9999, &id) ||
	    !rcl_json_get_str(item, "backend", &backend) || !rcl_json_get_str(item, "key", &key))
		return rcl_state_corrupt(err, path, "a controller entry lacks id, backend or key");
	entry->ops = backend_by_name(backend);
	if (!entry->ops)
		return rcl_state_corrupt(err, path, "a controller names an unknown backend");
	if (!key_is_safe(key))
		return rcl_state_corrupt(err, path, "a controller key has unexpected characters");
	entry->id = (unsigned)id;
	strcpy(entry->key, key);
	entry_caps(ctx, entry);
	return parse_compat(item, path, entry->ops->storcli_compat, &entry->compat, err);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct rcl_registry_entry *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Rebuild ctx->ids from ctx->entries (kept sorted by id). */
static enum rcl_status index_entries(struct rcl_ctx *ctx, struct rcl_error *err)
{
	rcl_free(ctx->ids);
	ctx->ids = rcl_calloc(ctx->count, sizeof(*ctx->ids));
	if (!ctx->ids)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (ctx->count) /* entries is NULL for an empty registry */
		qsort(ctx->entries, ctx->count, sizeof(*ctx->entries), cmp_entry);
	for (size_t i = 0; i < ctx->count; i++)
		ctx->ids[i] = ctx->entries[i].id;
	return RCL_OK;
}

static enum rcl_status registry_load(struct rcl_ctx *ctx, struct rcl_error *err)
{
	char *path = rcl_path_join(ctx->state_dir, "registry.json");
	json_object *root = NULL, *list;
	enum rcl_status st;
	uint64_t format;
	size_t n;

	if (!path)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	rcl_free(ctx->entries);
	ctx->entries = NULL;
	ctx->count = 0;
	st = rcl_state_read(path, &root, err);
	if (st == RCL_NOT_FOUND) {
		st = index_entries(ctx, err);
		goto out;
	}
	if (st)
		goto out;
	if (!rcl_json_get_uint(root, "format", 1000, &format) || format != REGISTRY_FORMAT ||
	    !json_object_object_get_ex(root, "controllers", &list) ||
	    !json_object_is_type(list, json_type_array)) {
		st = rcl_state_corrupt(err, path, "no format 1 'controllers' list");
		goto out;
	}
	n = json_object_array_length(list);
	ctx->entries = rcl_calloc(n, sizeof(*ctx->entries));
	if (!ctx->entries) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		st = parse_entry(ctx, json_object_array_get_idx(list, i), path, &ctx->entries[i],
		                 err);
		if (st)
			goto out;
		for (size_t j = 0; j < i; j++)
			if (ctx->entries[j].id == ctx->entries[i].id)
				st = rcl_state_corrupt(err, path, "two controllers share a number");
			else if (ctx->entries[j].ops == ctx->entries[i].ops &&
			         !strcmp(ctx->entries[j].key, ctx->entries[i].key))
				/* Deleting either number would destroy the other's state. */
				st = rcl_state_corrupt(err, path, "one controller has two numbers");
		if (st)
			goto out;
		ctx->count++;
	}
	st = index_entries(ctx, err);
out:
	json_object_put(root);
	rcl_free(path);
	return st;
}

static enum rcl_status registry_save(struct rcl_ctx *ctx, struct rcl_error *err)
{
	char *path = rcl_path_join(ctx->state_dir, "registry.json");
	json_object *root = json_object_new_object();
	json_object *list = json_object_new_array();
	enum rcl_status st = RCL_OK;

	if (!path || !root || !list) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
		json_object_put(list);
		goto out;
	}
	json_object_object_add(root, "format", json_object_new_int(REGISTRY_FORMAT));
	json_object_object_add(root, "controllers", list);
	for (size_t i = 0; i < ctx->count; i++) {
		json_object *item = json_object_new_object();

		json_object_object_add(item, "id", json_object_new_int((int)ctx->entries[i].id));
		json_object_object_add(item, "backend",
		                       json_object_new_string(ctx->entries[i].ops->name));
		json_object_object_add(item, "key", json_object_new_string(ctx->entries[i].key));
		if (ctx->entries[i].compat != ctx->entries[i].ops->storcli_compat)
			json_object_object_add(
			    item, "storclicompat",
			    json_object_new_string(compat_names[ctx->entries[i].compat]));
		json_object_array_add(list, item);
	}
	st = rcl_state_write(path, root, err);
out:
	json_object_put(root);
	rcl_free(path);
	return st;
}

/* Resolve state directory *@path to an absolute path without symlinks, in place. */
static enum rcl_status canonicalize(char **path, struct rcl_error *err)
{
	char *real = realpath(*path, NULL);
	char *copy;

	if (!real && errno == ENOENT)
		return rcl_fail(err, RCL_NOT_FOUND, "the state directory '%s' does not exist",
		                *path);
	if (!real)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot resolve '%s': %s", *path,
		                      strerror(errno));
	copy = rcl_strdup(real);
	free(real); /* realpath() allocates with malloc() */
	if (!copy)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	rcl_free(*path);
	*path = copy;
	return RCL_OK;
}

/* Whether a controller of kind @ops with key @key is registered. */
static bool registered(const struct rcl_ctx *ctx, const struct rcl_backend_ops *ops,
                       const char *key)
{
	for (size_t i = 0; i < ctx->count; i++)
		if (ctx->entries[i].ops == ops && !strcmp(ctx->entries[i].key, key))
			return true;
	return false;
}

/* Register, under the registry lock, the @count @keys of kind @ops not registered yet. */
static enum rcl_status register_found(struct rcl_ctx *ctx, const struct rcl_backend_ops *ops,
                                      char (*keys)[RCL_KEY_SIZE], size_t count,
                                      struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;
	size_t i = 0;
	int fd = -1;
	unsigned id;

	while (i < count && registered(ctx, ops, keys[i]))
		i++;
	if (i == count)
		return RCL_OK; /* the usual case: no lock, no write */
	st = rcl_registry_lock(ctx, &fd, err);
	for (; !st && i < count; i++) {
		if (!key_is_safe(keys[i]))
			st =
			    rcl_fail(err, RCL_CORRUPT,
			             "the %s backend found a controller with a bad key", ops->name);
		else if (!registered(ctx, ops, keys[i]) &&
		         !(st = rcl_registry_add(ctx, ops, keys[i], &id, err)))
			rcl_event_record_created(ctx, id);
	}
	rcl_unlock(fd);
	return st;
}

/* The most controllers of one kind discovery registers. */
#define DISCOVER_MAX 64

/* Register the controllers every kind finds on the host, on first sight. */
static enum rcl_status discover(struct rcl_ctx *ctx, struct rcl_error *err)
{
	char(*keys)[RCL_KEY_SIZE] = NULL;
	enum rcl_status st = RCL_OK;
	size_t count;

	for (size_t i = 0; !st && i < sizeof(backends) / sizeof(backends[0]); i++) {
		if (!backends[i]->discover)
			continue;
		if (!keys && !(keys = rcl_calloc(DISCOVER_MAX, RCL_KEY_SIZE)))
			return rcl_fail(err, RCL_NOMEM, "out of memory");
		st = backends[i]->discover(ctx, keys, DISCOVER_MAX, &count, err);
		if (!st)
			st = register_found(ctx, backends[i], keys, count, err);
	}
	rcl_free(keys);
	return st;
}

/* Open the registry in @state_dir (NULL: the default), creating the directory if @create. */
static enum rcl_status ctx_open(struct rcl_ctx **out, const char *state_dir, bool create,
                                struct rcl_error *err)
{
	struct rcl_ctx *ctx = rcl_calloc(1, sizeof(*ctx));
	enum rcl_status st;

	if (!ctx)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	ctx->state_dir = state_dir ? rcl_strdup(state_dir) : default_state_dir();
	if (!ctx->state_dir) {
		rcl_ctx_free(ctx);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	st = create ? rcl_mkdir_p(ctx->state_dir, 0700, err) : RCL_OK;
	if (!st)
		st = canonicalize(&ctx->state_dir, err);
	if (!st)
		st = registry_load(ctx, err);
	if (!st)
		st = discover(ctx, err);
	if (st) {
		rcl_ctx_free(ctx);
		return st;
	}
	*out = ctx;
	return RCL_OK;
}

enum rcl_status rcl_ctx_new(struct rcl_ctx **out, const char *state_dir, struct rcl_error *err)
{
	return ctx_open(out, state_dir, true, err);
}

enum rcl_status rcl_ctx_open(struct rcl_ctx **out, const char *state_dir, struct rcl_error *err)
{
	return ctx_open(out, state_dir, false, err);
}

void rcl_ctx_free(struct rcl_ctx *ctx)
{
	if (!ctx)
		return;
	for (size_t i = 0; i < ctx->prefetched_count; i++)
		ctx->prefetched[i].ops->prefetch_free(ctx->prefetched[i].data);
	rcl_free(ctx->prefetched);
	rcl_free(ctx->state_dir);
	rcl_free(ctx->entries);
	rcl_free(ctx->ids);
	rcl_free(ctx);
}

void rcl_ctx_set_askpass(struct rcl_ctx *ctx, rcl_askpass_fn fn, void *arg)
{
	ctx->askpass = fn;
	ctx->askpass_arg = arg;
}

void *rcl_ctx_prefetched(const struct rcl_ctx *ctx, const struct rcl_backend_ops *ops)
{
	for (size_t i = 0; i < ctx->prefetched_count; i++)
		if (ctx->prefetched[i].ops == ops)
			return ctx->prefetched[i].data;
	return NULL;
}

void rcl_ctx_keep_prefetched(struct rcl_ctx *ctx, const struct rcl_backend_ops *ops, void *data)
{
	struct rcl_prefetched *mem =
	    rcl_realloc(ctx->prefetched, (ctx->prefetched_count + 1) * sizeof(*ctx->prefetched));

	if (!mem) {
		ops->prefetch_free(data);
		return;
	}
	ctx->prefetched = mem;
	ctx->prefetched[ctx->prefetched_count++] = (struct rcl_prefetched){ops, data};
}

/* Run kind @ops's @prefetch for the controllers of @ids that are of that kind. */
static void prefetch_kind(struct rcl_ctx *ctx, const struct rcl_backend_ops *ops,
                          const unsigned *ids, size_t count)
{
	char(*keys)[RCL_KEY_SIZE] = rcl_calloc(count ? count : 1, RCL_KEY_SIZE);
	size_t n = 0;
	void *data;

	for (size_t i = 0; keys && i < count; i++)
		for (size_t k = 0; k < ctx->count; k++)
			if (ctx->entries[k].id == ids[i] && ctx->entries[k].ops == ops)
				memcpy(keys[n++], ctx->entries[k].key, RCL_KEY_SIZE);
	/* A failure is no failure of the command: each controller's @load reads alone. */
	if (n && !rcl_ctx_prefetched(ctx, ops) && !ops->prefetch(ctx, keys, n, &data, NULL))
		rcl_ctx_keep_prefetched(ctx, ops, data);
	rcl_free(keys);
}

void rcl_ctx_prefetch(struct rcl_ctx *ctx, const unsigned *ids, size_t count)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (backends[i]->prefetch)
			prefetch_kind(ctx, backends[i], ids, count);
}

const char *rcl_ctx_state_dir(const struct rcl_ctx *ctx)
{
	return ctx->state_dir;
}

size_t rcl_ctx_ctrl_ids(const struct rcl_ctx *ctx, const unsigned **ids)
{
	*ids = ctx->ids;
	return ctx->count;
}

enum rcl_status rcl_registry_lock(struct rcl_ctx *ctx, int *fd, struct rcl_error *err)
{
	char *path = rcl_path_join(ctx->state_dir, "registry.lock");
	enum rcl_status st;

	if (!path)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_lock(path, RCL_LOCK_EXCLUSIVE, fd, err);
	rcl_free(path);
	if (st)
		return st;
	/* Another process may have changed the registry while we waited. */
	st = registry_load(ctx, err);
	if (st) {
		rcl_unlock(*fd);
		*fd = -1;
	}
	return st;
}

enum rcl_status rcl_registry_add_many(struct rcl_ctx *ctx, const struct rcl_backend_ops *ops,
                                      const char *const *keys, size_t count, unsigned *ids,
                                      struct rcl_error *err)
{
	struct rcl_registry_entry *mem =
	    rcl_realloc(ctx->entries, (ctx->count + count) * sizeof(*mem));
	size_t old = ctx->count, i = 0;
	unsigned next = 0;
	enum rcl_status st;

	if (!mem)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	ctx->entries = mem;
	for (size_t k = 0; k < count; k++) {
		/* The lowest numbers free: the old entries are sorted by number. */
		while (i < old && mem[i].id == next) {
			i++;
			next++;
		}
		ids[k] = next++;
		mem[ctx->count] = (struct rcl_registry_entry){
		    .id = ids[k], .ops = ops, .compat = ops->storcli_compat};
		snprintf(mem[ctx->count].key, sizeof(mem->key), "%s", keys[k]);
		entry_caps(ctx, &mem[ctx->count]);
		ctx->count++;
	}
	st = index_entries(ctx, err);
	if (!st)
		st = registry_save(ctx, err);
	if (st)
		registry_load(ctx, NULL);
	return st;
}

enum rcl_status rcl_registry_add(struct rcl_ctx *ctx, const struct rcl_backend_ops *ops,
                                 const char *key, unsigned *id, struct rcl_error *err)
{
	return rcl_registry_add_many(ctx, ops, &key, 1, id, err);
}

/* The index of controller @id's entry in @ctx, into *@index (@ctx->count if none). */
static enum rcl_status entry_index(const struct rcl_ctx *ctx, unsigned id, size_t *index,
                                   struct rcl_error *err)
{
	for (*index = 0; *index < ctx->count; ++*index)
		if (ctx->entries[*index].id == id)
			return RCL_OK;
	return rcl_fail(err, RCL_NOT_FOUND, "controller /c%u not found", id);
}

enum rcl_status rcl_registry_remove(struct rcl_ctx *ctx, unsigned id, struct rcl_error *err)
{
	enum rcl_status st;
	size_t i;

	st = entry_index(ctx, id, &i, err);
	if (st)
		return st;
	memmove(&ctx->entries[i], &ctx->entries[i + 1],
	        (ctx->count - i - 1) * sizeof(*ctx->entries));
	ctx->count--;
	st = index_entries(ctx, err);
	if (!st)
		st = registry_save(ctx, err);
	if (st)
		registry_load(ctx, NULL);
	return st;
}

enum rcl_storcli_compat rcl_ctrl_storcli_compat(const struct rcl_ctrl *ctrl)
{
	return ctrl->entry.compat;
}

enum rcl_status rcl_ctrl_set_storcli_compat(struct rcl_ctrl *ctrl, enum rcl_storcli_compat mode,
                                            struct rcl_error *err)
{
	struct rcl_ctx *ctx = ctrl->ctx;
	enum rcl_status st;
	size_t i;
	int fd;

	st = rcl_registry_lock(ctx, &fd, err);
	if (st)
		return st;
	st = entry_index(ctx, ctrl->entry.id, &i, err);
	if (!st) {
		ctx->entries[i].compat = mode;
		st = registry_save(ctx, err);
		if (st)
			registry_load(ctx, NULL);
		else
			ctrl->entry.compat = mode;
	}
	rcl_unlock(fd);
	return st;
}
