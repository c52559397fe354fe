// SPDX-License-Identifier: MIT
/*
 * mock.c - the mock backend: controllers whose whole state is a JSON
 * fixture (fixture.c), for tests and demonstrations. Nothing here touches
 * a device; every change is an edit of the state file.
 *
 * A controller comes into being in one of two ways:
 *  - "add controller type=mock fixture=PATH" copies the fixture, checked,
 *    to <state dir>/mock/<key>.json (key "m" and 12 hex digits), so the
 *    fixture itself is never written;
 *  - discovery: each PATH.json in the directory $RAIDCLI_MOCK_DIR names
 *    is a controller found on the host (key "d-" and the file's stem),
 *    like a card in a slot; its state is that file, which changes write.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mock/mock.h"

#define DISCOVERED "d-"

/* The state file of the controller with @key, into *@out. */
static enum rcl_status state_path(const struct rcl_ctx *ctx, const char *key, char **out,
                                  struct rcl_error *err)
{
	const char *dir = getenv("RAIDCLI_MOCK_DIR");
	struct rcl_buf sb = RCL_BUF_INIT;

	*out = NULL;
	if (strncmp(key, DISCOVERED, strlen(DISCOVERED)))
		rcl_buf_addf(&sb, "%s/mock/%s.json", ctx->state_dir, key);
	else if (dir && *dir)
		rcl_buf_addf(&sb, "%s/%s.json", dir, key + strlen(DISCOVERED));
	else
		return rcl_fail(err, RCL_NOT_FOUND,
		                "mock controller '%s' is not present: RAIDCLI_MOCK_DIR is not set",
		                key + strlen(DISCOVERED));
	*out = rcl_buf_detach(&sb);
	return *out ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
}

static enum rcl_status mock_ctrl_caps(const struct rcl_ctx *ctx, const char *key,
                                      struct rcl_caps *caps, struct rcl_error *err)
{
	json_object *root = NULL;
	char *path;
	enum rcl_status st = state_path(ctx, key, &path, err);

	if (!st)
		st = rcl_state_read(path, &root, err);
	if (!st)
		st = rcl_mock_parse_caps(root, path, RCL_CORRUPT, caps, err);
	json_object_put(root);
	rcl_free(path);
	return st;
}

/* Parse @root (from @file) into a fresh model in @tmp; the caller frees its arrays. */
static enum rcl_status parse_into(json_object *root, const char *file, enum rcl_status bad,
                                  struct rcl_ctrl *tmp, struct rcl_error *err)
{
	memset(tmp, 0, sizeof(*tmp));
	return rcl_mock_parse(root, file, bad, tmp, err);
}

static void free_model(struct rcl_ctrl *m)
{
	rcl_free(m->enclosures);
	rcl_free(m->drives);
	rcl_free(m->dgs);
	rcl_free(m->vds);
}

/* Move @tmp's model into @ctrl, freeing @ctrl's. */
static void take_model(struct rcl_ctrl *ctrl, struct rcl_ctrl *tmp)
{
	free_model(ctrl);
	ctrl->info = tmp->info;
	ctrl->caps = tmp->caps;
	ctrl->enclosures = tmp->enclosures;
	ctrl->enclosure_count = tmp->enclosure_count;
	ctrl->drives = tmp->drives;
	ctrl->drive_count = tmp->drive_count;
	ctrl->dgs = tmp->dgs;
	ctrl->dg_count = tmp->dg_count;
	ctrl->vds = tmp->vds;
	ctrl->vd_count = tmp->vd_count;
}

static void mock_unload(struct rcl_ctrl *ctrl)
{
	struct mock_priv *p = ctrl->priv;

	if (!p)
		return;
	json_object_put(p->root);
	rcl_free(p->path);
	rcl_free(p);
	ctrl->priv = NULL;
}

static enum rcl_status mock_load(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct mock_priv *p = rcl_calloc(1, sizeof(*p));
	struct rcl_ctrl tmp;
	enum rcl_status st;

	if (!p)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = state_path(ctrl->ctx, ctrl->entry.key, &p->path, err);
	if (!st)
		st = rcl_state_read(p->path, &p->root, err);
	if (st == RCL_NOT_FOUND)
		st = rcl_fail(err, RCL_NOT_FOUND, "controller /c%u is gone: '%s' does not exist",
		              ctrl->entry.id, p->path);
	if (!st) {
		st = parse_into(p->root, p->path, RCL_CORRUPT, &tmp, err);
		if (st)
			free_model(&tmp);
		else
			take_model(ctrl, &tmp);
	}
	ctrl->priv = p;
	if (st)
		mock_unload(ctrl); /* rcl_ctrl_open() does not unload what failed to load */
	return st;
}

enum rcl_status rcl_mock_commit(struct rcl_ctrl *ctrl, json_object *next, struct rcl_error *err)
{
	struct mock_priv *p = ctrl->priv;
	struct rcl_ctrl tmp;
	enum rcl_status st = parse_into(next, p->path, RCL_CORRUPT, &tmp, err);

	if (!st)
		st = rcl_state_write(p->path, next, err);
	if (st) {
		free_model(&tmp);
		json_object_put(next);
		return st;
	}
	take_model(ctrl, &tmp);
	json_object_put(p->root);
	p->root = next;
	return RCL_OK;
}

static enum rcl_status mock_destroy(struct rcl_ctrl *ctrl, unsigned flags, struct rcl_error *err)
{
	struct mock_priv *p = ctrl->priv;

	(void)flags;
	/* A discovered controller's file is the "card": it stays, and is found again. */
	if (!strncmp(ctrl->entry.key, DISCOVERED, strlen(DISCOVERED)))
		return RCL_OK;
	if (unlink(p->path) && errno != ENOENT)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot remove '%s': %s", p->path,
		                      strerror(errno));
	return RCL_OK;
}

/* Read fixture @file and check it as a controller's state. */
static enum rcl_status read_fixture(const char *file, json_object **root, struct rcl_error *err)
{
	struct rcl_ctrl tmp;
	enum rcl_status st = rcl_state_read(file, root, err);

	if (st == RCL_NOT_FOUND)
		return rcl_fail(err, RCL_INVALID_PARAM, "mock fixture '%s' does not exist", file);
	if (st == RCL_CORRUPT)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "mock fixture '%s' is not valid JSON (an object)", file);
	if (st)
		return st;
	st = parse_into(*root, file, RCL_INVALID_PARAM, &tmp, err);
	free_model(&tmp);
	return st;
}

/* Save @root as new controller @key's state and register it. */
static enum rcl_status save_and_register(struct rcl_ctx *ctx, json_object *root, const char *key,
                                         unsigned *id, struct rcl_error *err)
{
	char *path;
	enum rcl_status st = state_path(ctx, key, &path, err);
	int fd = -1;

	if (!st)
		st = rcl_mkdir_in(ctx->state_dir, "mock", 0700, err);
	if (!st)
		st = rcl_registry_lock(ctx, &fd, err);
	if (!st)
		st = rcl_state_write(path, root, err);
	if (!st) {
		st = rcl_registry_add(ctx, &rcl_mock_ops, key, id, err);
		if (st)
			unlink(path);
	}
	rcl_unlock(fd);
	rcl_free(path);
	return st;
}

static enum rcl_status mock_create(struct rcl_ctx *ctx, const struct rcl_kv *params, size_t count,
                                   unsigned *id, struct rcl_error *err)
{
	const char *fixture = NULL;
	json_object *root = NULL;
	char key[16] = "m";
	enum rcl_status st;

	for (size_t i = 0; i < count; i++) {
		if (strcmp(params[i].key, "fixture"))
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "unknown option '%s=' for a mock controller",
			                params[i].key);
		fixture = params[i].value;
	}
	if (!fixture)
		return rcl_fail(
		    err, RCL_INVALID_COMMAND,
		    "missing option 'fixture=', as in: raidcli add controller type=mock "
		    "fixture=tests/fixtures/mock/megaraid.json");
	st = read_fixture(fixture, &root, err);
	if (!st)
		st = rcl_random_hex(key + 1, 12, err);
	if (!st)
		st = save_and_register(ctx, root, key, id, err);
	if (!st)
		rcl_event_record_created(ctx, *id);
	json_object_put(root);
	return st;
}

/* The stem of @name if it is "<stem>.json" with a stem a key may hold, else NULL. */
static bool fixture_stem(const char *name, char *stem, size_t size)
{
	size_t len = strlen(name);

	if (len <= 5 || strcmp(name + len - 5, ".json") || len - 5 + strlen(DISCOVERED) >= size)
		return false;
	for (size_t i = 0; i < len - 5; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_",
		            name[i]))
			return false;
	snprintf(stem, size, "%s%.*s", DISCOVERED, (int)(len - 5), name);
	return true;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(a, b);
}

static enum rcl_status mock_discover(struct rcl_ctx *ctx, char (*keys)[RCL_KEY_SIZE], size_t max,
                                     size_t *count, struct rcl_error *err)
{
	const char *dir = getenv("RAIDCLI_MOCK_DIR");
	struct dirent *de;
	DIR *d;

	(void)ctx;
	*count = 0;
	if (!dir || !*dir)
		return RCL_OK;
	d = opendir(dir);
	if (!d)
		return rcl_fail_errno(err, RCL_SYSTEM, errno,
		                      "cannot read RAIDCLI_MOCK_DIR '%s': %s", dir,
		                      strerror(errno));
	while ((de = readdir(d)) && *count < max)
		*count += fixture_stem(de->d_name, keys[*count], RCL_KEY_SIZE);
	closedir(d);
	/* Numbered in name order, not in the directory's. */
	qsort(keys, *count, RCL_KEY_SIZE, cmp_key);
	return RCL_OK;
}

/* A mock controller can do anything a fixture says; the kind's record before it is read. */
static const struct rcl_caps mock_caps = {
    .kind = "mock",
    .drive_kinds = "Mock",
    .strip_min_kib = 64,
    .strip_max_kib = 1024,
    .strip_default_kib = 64,
};

/* A fixture's battery or CacheVault: its learn cycle starts (a fixture keeps no learn state). */
static enum rcl_status mock_backup_learn(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	(void)ctrl;
	(void)err;
	return RCL_OK;
}

const struct rcl_backend_ops rcl_mock_ops = {
    .name = "mock",
    .caps = &mock_caps,
    .discover = mock_discover,
    .create = mock_create,
    .load = mock_load,
    .unload = mock_unload,
    .destroy = mock_destroy,
    .create_vd = rcl_mock_create_vd,
    .delete_vd = rcl_mock_delete_vd,
    .set_vd = rcl_mock_set_vd,
    .delete_config = rcl_mock_delete_config,
    .vd_expansion = rcl_mock_vd_expansion,
    .expand_vd = rcl_mock_expand_vd,
    .add_hotspare = rcl_mock_add_hotspare,
    .delete_hotspare = rcl_mock_delete_hotspare,
    .set_locate = rcl_mock_set_locate,
    .set_jbod_mode = rcl_mock_set_jbod_mode,
    .set_drive_jbod = rcl_mock_set_drive_jbod,
    .set_drive_state = rcl_mock_set_drive_state,
    .insert_drive = rcl_mock_insert_drive,
    .task_check = rcl_mock_task_check,
    .task = rcl_mock_task,
    .task_progress = rcl_mock_task_progress,
    .settings_get = rcl_mock_settings_get,
    .settings_set = rcl_mock_settings_set,
    .schedule_status = rcl_mock_schedule_status,
    .ctrl_caps = mock_ctrl_caps,
    .backup_learn = mock_backup_learn,
};
