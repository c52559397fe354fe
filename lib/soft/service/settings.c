// SPDX-License-Identifier: MIT
/*
 * settings.c - a controller's background task settings, in and out of its
 * controller process (see settings.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "service.h"
#include "settings.h"

#define SETTINGS_FORMAT 1

static const char *const names[SETTING_KINDS] = {
    [SETTING_REBUILD] = "rebuildrate", [SETTING_CC] = "ccrate",       [SETTING_BGI] = "bgirate",
    [SETTING_PR] = "prrate",           [SETTING_RECON] = "reconrate",
};

/* The words the file stores, each list in its enum's order. */
static const char *const pr_modes[] = {
    [PR_AUTO] = "auto", [PR_MANUAL] = "manual", [PR_OFF] = "off", NULL};
static const char *const pr_ssds_words[] = {
    [PR_SSDS_ON] = "on", [PR_SSDS_MIXED] = "onlymixed", [PR_SSDS_OFF] = "off", NULL};
static const char *const cc_modes[] = {
    [CC_OFF] = "off", [CC_SEQ] = "seq", [CC_CONC] = "conc", NULL};

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

const char *pr_ssds_shown(enum pr_ssds ssds)
{
	static const char *const shown[] = {
	    [PR_SSDS_ON] = "Enabled", [PR_SSDS_MIXED] = "OnlyMixed", [PR_SSDS_OFF] = "Disabled"};

	return shown[ssds];
}

const char *cc_mode_shown(enum cc_mode mode)
{
	static const char *const shown[] = {
	    [CC_OFF] = "Disabled", [CC_SEQ] = "Sequential", [CC_CONC] = "Concurrent"};

	return shown[mode];
}

int64_t schedule_next(const struct task_schedule *s, int64_t since)
{
	return s->start > since ? s->start : since + (int64_t)s->delay * 3600;
}

int64_t schedule_now(void)
{
	const char *shift = getenv("RAIDCLI_TEST_CLOCK_SHIFT");

	return (int64_t)time(NULL) + (shift ? strtoll(shift, NULL, 10) : 0);
}

bool schedule_due(const struct task_schedule *s, int64_t since)
{
	return since && schedule_now() >= schedule_next(s, since);
}

void schedule_next_shown(const struct task_schedule *s, bool waiting, int64_t since, char *out,
                         size_t size)
{
	if (waiting && (since || s->start))
		format_time(out, size, (time_t)schedule_next(s, since));
	else
		snprintf(out, size, "-");
}

void schedule_excluded(const struct task_schedule *s, char *out, size_t size)
{
	size_t len = 0;

	snprintf(out, size, "None");
	for (unsigned vd = 0; vd < RCL_MAX_VDS && len < size; vd++) {
		unsigned last = vd;

		if (!(s->exclude >> vd & 1))
			continue;
		while (last + 1 < RCL_MAX_VDS && s->exclude >> (last + 1) & 1)
			last++;
		len += (size_t)snprintf(out + len, size - len, last > vd ? "%s%u-%u" : "%s%u",
		                        len ? "," : "", vd, last);
		vd = last;
	}
}

enum rcl_status task_file_path(struct rcl_ctx *lib, unsigned id, const char *suffix, char *path,
                               size_t size, struct rcl_error *err)
{
	struct service_paths p;
	enum rcl_status st = service_paths(lib, id, &p, err);

	if (!st &&
	    snprintf(path, size, "%s/tasks/%s%s.json", p.state_dir, p.name, suffix) >= (int)size)
		st = rcl_fail(err, RCL_INVALID_PARAM, "the state directory '%s' is too long",
		              p.state_dir);
	return st;
}

enum rcl_status task_file_write(struct rcl_ctx *lib, const char *path, json_object *root,
                                struct rcl_error *err)
{
	enum rcl_status st = rcl_mkdir_in(rcl_ctx_state_dir(lib), "tasks", 0700, err);

	return st ? st : rcl_state_write(path, root, err);
}

enum rcl_status task_record_load(struct rcl_ctx *lib, unsigned id, const char *suffix,
                                 const char *const *keys, size_t nkeys, uint64_t *v,
                                 const char *what, json_object **root, struct rcl_error *err)
{
	char path[PATH_MAX], why[96];
	enum rcl_status st = task_file_path(lib, id, suffix, path, sizeof(path), err);

	*root = NULL;
	if (!st)
		st = rcl_state_read(path, root, err);
	if (st == RCL_NOT_FOUND) {
		*err = (struct rcl_error){0};
		return RCL_OK;
	}
	for (size_t k = 0; !st && k < nkeys; k++)
		if (!rcl_json_get_uint(*root, keys[k], INT64_MAX, &v[k])) {
			snprintf(why, sizeof(why), "a field of the %s is missing", what);
			st = rcl_state_corrupt(err, path, why);
		}
	if (!st && v[0] != 1) {
		snprintf(why, sizeof(why), "it is not a format 1 %s record", what);
		st = rcl_state_corrupt(err, path, why);
	}
	if (st) {
		json_object_put(*root);
		*root = NULL;
	}
	return st;
}

void task_record_save(unsigned id, const char *suffix, json_object *root, const char *what)
{
	struct rcl_error err = {0};
	struct rcl_ctx *lib = NULL;
	char path[PATH_MAX];
	enum rcl_status st = service_ctx_new(id, &lib, &err);

	if (!st)
		st = task_file_path(lib, id, suffix, path, sizeof(path), &err);
	if (!st)
		st = task_file_write(lib, path, root, &err);
	if (st)
		service_log("cannot record %s: %s", what, err.msg);
	json_object_put(root);
	rcl_ctx_free(lib);
}

static enum rcl_status settings_path(struct rcl_ctx *lib, unsigned id, char *path, size_t size,
                                     struct rcl_error *err)
{
	return task_file_path(lib, id, "", path, size, err);
}

static void defaults(struct task_settings *out)
{
	for (int k = 0; k < SETTING_KINDS; k++)
		out->rate[k] = SETTING_DEFAULT_RATE;
	out->host_first = false;
	out->pr_mode = PR_AUTO;
	out->pr = (struct task_schedule){.delay = SETTING_DEFAULT_DELAY};
	out->pr_max_drives = SETTING_MAX_PR_DRIVES;
	out->pr_ssds = PR_SSDS_ON;
	out->cc_mode = CC_OFF;
	out->cc = (struct task_schedule){.delay = SETTING_DEFAULT_DELAY};
}

static enum rcl_status corrupt_key(struct rcl_error *err, const char *path, const char *key)
{
	char what[64];

	snprintf(what, sizeof(what), "%s is out of its range", key);
	return rcl_state_corrupt(err, path, what);
}

/* Word @key of @root, one of @words, into *@out; absent: kept. */
static enum rcl_status load_word(json_object *root, const char *path, const char *key,
                                 const char *const *words, unsigned *out, struct rcl_error *err)
{
	const char *word = NULL;
	unsigned k = 0;

	if (!json_object_object_get_ex(root, key, NULL))
		return RCL_OK;
	if (rcl_json_get_str(root, key, &word))
		while (words[k] && strcmp(words[k], word))
			k++;
	if (!word || !words[k])
		return corrupt_key(err, path, key);
	*out = k;
	return RCL_OK;
}

/* Number @key of @root within [@min, @max] into *@out; absent: kept. */
static enum rcl_status load_number(json_object *root, const char *path, const char *key,
                                   uint64_t min, uint64_t max, uint64_t *out, struct rcl_error *err)
{
	uint64_t v;

	if (!json_object_object_get_ex(root, key, NULL))
		return RCL_OK;
	if (!rcl_json_get_uint(root, key, max, &v) || v < min)
		return corrupt_key(err, path, key);
	*out = v;
	return RCL_OK;
}

/* The VD ids of list @key of @root into the bit set *@out; absent: kept. */
static enum rcl_status load_vds(json_object *root, const char *path, const char *key, uint64_t *out,
                                struct rcl_error *err)
{
	json_object *list;
	uint64_t set = 0;

	if (!json_object_object_get_ex(root, key, &list))
		return RCL_OK;
	for (size_t i = 0;
	     json_object_is_type(list, json_type_array) && i < json_object_array_length(list);
	     i++) {
		json_object *id = json_object_array_get_idx(list, i);
		int64_t vd = json_object_get_int64(id);

		if (!json_object_is_type(id, json_type_int) || vd < 0 || vd >= RCL_MAX_VDS)
			return corrupt_key(err, path, key);
		set |= 1ull << vd;
	}
	if (!json_object_is_type(list, json_type_array))
		return corrupt_key(err, path, key);
	*out = set;
	return RCL_OK;
}

/* Schedule @prefix ("pr", "cc") of @root into @out: "<prefix>delay", "start", "exclude". */
static enum rcl_status load_schedule(json_object *root, const char *path, const char *prefix,
                                     struct task_schedule *out, struct rcl_error *err)
{
	char key[16];
	uint64_t delay = out->delay, start = (uint64_t)out->start;
	enum rcl_status st;

	snprintf(key, sizeof(key), "%sdelay", prefix);
	st = load_number(root, path, key, 1, SETTING_MAX_DELAY, &delay, err);
	snprintf(key, sizeof(key), "%sstart", prefix);
	if (!st)
		st = load_number(root, path, key, 0, INT64_MAX, &start, err);
	snprintf(key, sizeof(key), "%sexclude", prefix);
	if (!st)
		st = load_vds(root, path, key, &out->exclude, err);
	out->delay = (unsigned)delay;
	out->start = (int64_t)start;
	return st;
}

static void save_schedule(json_object *root, const char *prefix, const struct task_schedule *s)
{
	json_object *list = json_object_new_array();
	char key[16];

	snprintf(key, sizeof(key), "%sdelay", prefix);
	json_object_object_add(root, key, json_object_new_int((int)s->delay));
	snprintf(key, sizeof(key), "%sstart", prefix);
	json_object_object_add(root, key, json_object_new_int64(s->start));
	for (unsigned vd = 0; vd < RCL_MAX_VDS; vd++)
		if (s->exclude >> vd & 1)
			json_object_array_add(list, json_object_new_int((int)vd));
	snprintf(key, sizeof(key), "%sexclude", prefix);
	json_object_object_add(root, key, list);
}

/* The patrol read's and scheduled CC's keys, which older files lack (the defaults stay). */
static enum rcl_status load_schedules(json_object *root, const char *path,
                                      struct task_settings *out, struct rcl_error *err)
{
	unsigned mode = out->pr_mode, ssds = out->pr_ssds, cc = out->cc_mode;
	uint64_t drives = out->pr_max_drives;
	enum rcl_status st = load_word(root, path, "patrolread", pr_modes, &mode, err);

	if (!st)
		st = load_word(root, path, "prssds", pr_ssds_words, &ssds, err);
	if (!st)
		st = load_word(root, path, "cc", cc_modes, &cc, err);
	if (!st)
		st = load_number(root, path, "prmaxpd", 1, SETTING_MAX_PR_DRIVES, &drives, err);
	if (!st)
		st = load_schedule(root, path, "pr", &out->pr, err);
	if (!st)
		st = load_schedule(root, path, "cc", &out->cc, err);
	out->pr_mode = (enum pr_mode)mode;
	out->pr_ssds = (enum pr_ssds)ssds;
	out->cc_mode = (enum cc_mode)cc;
	out->pr_max_drives = (unsigned)drives;
	return st;
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
		st = load_schedules(root, path, out, err);
	json_object_put(root);
	return st;
}

enum rcl_status settings_save(struct rcl_ctx *lib, unsigned id, const struct task_settings *s,
                              struct rcl_error *err)
{
	char path[PATH_MAX];
	json_object *root;
	enum rcl_status st = settings_path(lib, id, path, sizeof(path), err);

	if (st)
		return st;
	root = json_object_new_object();
	json_object_object_add(root, "format", json_object_new_int(SETTINGS_FORMAT));
	for (int k = 0; k < SETTING_KINDS; k++)
		json_object_object_add(root, names[k], json_object_new_int((int)s->rate[k]));
	json_object_object_add(root, "rebuildpriority",
	                       json_object_new_string(s->host_first ? "host" : "rebuild"));
	json_object_object_add(root, "patrolread", json_object_new_string(pr_modes[s->pr_mode]));
	save_schedule(root, "pr", &s->pr);
	json_object_object_add(root, "prmaxpd", json_object_new_int((int)s->pr_max_drives));
	json_object_object_add(root, "prssds", json_object_new_string(pr_ssds_words[s->pr_ssds]));
	json_object_object_add(root, "cc", json_object_new_string(cc_modes[s->cc_mode]));
	save_schedule(root, "cc", &s->cc);
	st = task_file_write(lib, path, root, err);
	json_object_put(root);
	return st;
}

void settings_pace(unsigned id, enum setting_kind kind, unsigned *rate, bool *host_first)
{
	struct task_settings s;
	struct rcl_error err = {0};
	struct rcl_ctx *lib = NULL;
	enum rcl_status st = service_ctx_new(id, &lib, &err);

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
