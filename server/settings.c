// SPDX-License-Identifier: MIT
/*
 * settings.c - a controller's background task settings, in and out of its
 * controller process (see settings.h).
 */
#include <string.h>

#include "internal.h"
#include "service.h"
#include "settings.h"

#define SETTINGS_FORMAT 1

static const char *const names[SETTING_KINDS] = {
    [SETTING_REBUILD] = "rebuildrate", [SETTING_CC] = "ccrate",       [SETTING_BGI] = "bgirate",
    [SETTING_PR] = "prrate",           [SETTING_RECON] = "reconrate",
};

static const char *const pr_modes[] = {
    [PR_AUTO] = "auto",
    [PR_MANUAL] = "manual",
    [PR_OFF] = "off",
};

const char *setting_name(enum setting_kind kind)
{
	return names[kind];
}

const char *pr_mode_shown(enum pr_mode mode)
{
	static const char *const shown[] = {
	    [PR_AUTO] = "Auto", [PR_MANUAL] = "Manual", [PR_OFF] = "Disable"};

	return shown[mode];
}

static enum rcl_status settings_path(struct rcl_ctx *lib, unsigned id, char *path, size_t size,
                                     struct rcl_error *err)
{
	struct service_paths p;
	enum rcl_status st = service_paths(lib, id, &p, err);

	if (!st && snprintf(path, size, "%s/tasks/%s.json", p.state_dir, p.name) >= (int)size)
		st = rcl_fail(err, RCL_INVALID_PARAM, "the state directory '%s' is too long",
		              p.state_dir);
	return st;
}

static void defaults(struct task_settings *out)
{
	for (int k = 0; k < SETTING_KINDS; k++)
		out->rate[k] = SETTING_DEFAULT_RATE;
	out->host_first = false;
	out->pr_mode = PR_AUTO;
	out->pr_delay = SETTING_DEFAULT_PR_DELAY;
}

/* The patrol read keys, which older files lack (the defaults stay). */
static enum rcl_status load_patrol(json_object *root, const char *path, struct task_settings *out,
                                   struct rcl_error *err)
{
	const char *mode;
	uint64_t v;

	if (rcl_json_get_str(root, "patrolread", &mode)) {
		int m = PR_OFF;

		while (m >= 0 && strcmp(pr_modes[m], mode))
			m--;
		if (m < 0)
			return rcl_state_corrupt(err, path,
			                         "patrolread is not auto, manual or off");
		out->pr_mode = (enum pr_mode)m;
	}
	if (json_object_object_get_ex(root, "prdelay", NULL)) {
		if (!rcl_json_get_uint(root, "prdelay", SETTING_MAX_PR_DELAY, &v) || !v)
			return rcl_state_corrupt(err, path, "prdelay is not 1-8760 hours");
		out->pr_delay = (unsigned)v;
	}
	return RCL_OK;
}

enum rcl_status settings_load(struct rcl_ctx *lib, unsigned id, struct task_settings *out,
                              struct rcl_error *err)
{
	json_object *root = NULL;
	char path[PATH_MAX];
	const char *priority;
	uint64_t v;
	enum rcl_status st = settings_path(lib, id, path, sizeof(path), err);

	defaults(out);
	if (!st)
		st = rcl_state_read(path, &root, err);
	if (st == RCL_NOT_FOUND) {
		*err = (struct rcl_error){0};
		return RCL_OK;
	}
	if (st)
		return st;
	if (!rcl_json_get_uint(root, "format", UINT32_MAX, &v) || v != SETTINGS_FORMAT)
		st = rcl_state_corrupt(err, path, "it is not a format 1 settings file");
	for (int k = 0; !st && k < SETTING_KINDS; k++) {
		/* Files written before migrations existed have no reconrate: the default. */
		if (k == SETTING_RECON && !json_object_object_get_ex(root, names[k], NULL))
			continue;
		if (!rcl_json_get_uint(root, names[k], 100, &v))
			st = rcl_state_corrupt(err, path, "a rate is not 0-100");
		out->rate[k] = (unsigned)v;
	}
	if (!st && !rcl_json_get_str(root, "rebuildpriority", &priority))
		st = rcl_state_corrupt(err, path, "it lacks rebuildpriority");
	if (!st)
		out->host_first = !strcmp(priority, "host");
	if (!st)
		st = load_patrol(root, path, out, err);
	json_object_put(root);
	return st;
}

enum rcl_status settings_save(struct rcl_ctx *lib, unsigned id, const struct task_settings *s,
                              struct rcl_error *err)
{
	char path[PATH_MAX];
	json_object *root;
	enum rcl_status st = settings_path(lib, id, path, sizeof(path), err);

	if (!st) {
		*strrchr(path, '/') = '\0';
		st = rcl_mkdir_p(path, 0700, err);
		path[strlen(path)] = '/';
	}
	if (st)
		return st;
	root = json_object_new_object();
	json_object_object_add(root, "format", json_object_new_int(SETTINGS_FORMAT));
	for (int k = 0; k < SETTING_KINDS; k++)
		json_object_object_add(root, names[k], json_object_new_int((int)s->rate[k]));
	json_object_object_add(root, "rebuildpriority",
	                       json_object_new_string(s->host_first ? "host" : "rebuild"));
	json_object_object_add(root, "patrolread", json_object_new_string(pr_modes[s->pr_mode]));
	json_object_object_add(root, "prdelay", json_object_new_int((int)s->pr_delay));
	st = rcl_state_write(path, root, err);
	json_object_put(root);
	return st;
}

void settings_pace(unsigned id, enum setting_kind kind, unsigned *rate, bool *host_first)
{
	struct task_settings s;
	struct rcl_error err = {0};
	struct rcl_ctx *lib = NULL;
	enum rcl_status st = rcl_ctx_new(&lib, service_self(id)->state_dir, &err);

	if (!st)
		st = settings_load(lib, id, &s, &err);
	if (st) {
		service_log("cannot read the task settings (using the defaults): %s", err.msg);
		defaults(&s);
	}
	rcl_ctx_free(lib);
	*rate = s.rate[kind];
	*host_first = kind == SETTING_REBUILD && s.host_first;
}
