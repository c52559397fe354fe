// SPDX-License-Identifier: MIT
/*
 * schedule.c - a soft controller's task settings and the records of its
 * scheduled tasks, as files, and the backend's settings ops
 * (see schedule.h).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "soft/tasks/schedule.h"

#define SETTINGS_FORMAT 1

/* The rates' keys in the file, by enum rcl_setting. */
static const char *const rate_keys[RCL_RATE_COUNT] = {
    [RCL_SETTING_REBUILD_RATE] = "rebuildrate", [RCL_SETTING_CC_RATE] = "ccrate",
    [RCL_SETTING_BGI_RATE] = "bgirate",         [RCL_SETTING_PR_RATE] = "prrate",
    [RCL_SETTING_RECON_RATE] = "reconrate",
};

/* The words the file stores, each list in its enum's order. */
static const char *const pr_modes[] = {
    [RCL_PR_AUTO] = "auto", [RCL_PR_MANUAL] = "manual", [RCL_PR_OFF] = "off", NULL};
static const char *const pr_ssds_words[] = {
    [RCL_PR_SSDS_ON] = "on", [RCL_PR_SSDS_MIXED] = "onlymixed", [RCL_PR_SSDS_OFF] = "off", NULL};
static const char *const off_on[] = {"off", "on", NULL};
static const char *const cc_modes[] = {
    [RCL_CC_OFF] = "off", [RCL_CC_SEQ] = "seq", [RCL_CC_CONC] = "conc", NULL};

int64_t rcl_soft_schedule_next(const struct rcl_schedule *s, int64_t since)
{
	return s->start > since ? s->start : since + (int64_t)s->delay * 3600;
}

bool rcl_soft_schedule_due(const struct rcl_schedule *s, int64_t since)
{
	return since && rcl_schedule_now() >= rcl_soft_schedule_next(s, since);
}

/* ------------------------------------------------------------------------
 * The files. */

enum rcl_status rcl_soft_task_file(struct rcl_ctx *ctx, unsigned id, const char *suffix, char *path,
                                   size_t size, struct rcl_error *err)
{
	const struct rcl_registry_entry *e;
	enum rcl_status st = rcl_ctx_entry(ctx, id, &e, err);

	if (st)
		return st;
	if (snprintf(path, size, "%s/tasks/%s-%s%s.json", ctx->state_dir, e->ops->name, e->key,
	             suffix) >= (int)size)
		return rcl_fail(err, RCL_INVALID_PARAM, "the state directory '%s' is too long",
		                ctx->state_dir);
	return RCL_OK;
}

enum rcl_status rcl_soft_task_file_write(struct rcl_ctx *ctx, const char *path, json_object *root,
                                         struct rcl_error *err)
{
	enum rcl_status st = rcl_mkdir_in(ctx->state_dir, "tasks", 0700, err);

	return st ? st : rcl_state_write(path, root, err);
}

enum rcl_status rcl_soft_task_record_load(struct rcl_ctx *ctx, unsigned id, const char *suffix,
                                          const char *const *keys, size_t nkeys, uint64_t *v,
                                          const char *what, json_object **root,
                                          struct rcl_error *err)
{
	char path[PATH_MAX], why[96];
	enum rcl_status st = rcl_soft_task_file(ctx, id, suffix, path, sizeof(path), err);

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

/* ------------------------------------------------------------------------
 * The settings. */

void rcl_soft_settings_defaults(struct rcl_ctrl_settings *out)
{
	for (int k = 0; k < RCL_RATE_COUNT; k++)
		out->rate[k] = RCL_DEFAULT_RATE;
	out->host_first = false;
	out->pr_mode = RCL_PR_AUTO;
	out->pr = (struct rcl_schedule){.delay = RCL_DEFAULT_DELAY};
	out->pr_max_drives = RCL_MAX_PR_DRIVES;
	out->pr_ssds = RCL_PR_SSDS_ON;
	out->pr_uncfg = false;
	out->cc_mode = RCL_CC_OFF;
	out->cc = (struct rcl_schedule){.delay = RCL_DEFAULT_DELAY};
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
                                     struct rcl_schedule *out, struct rcl_error *err)
{
	char key[16];
	uint64_t delay = out->delay, start = (uint64_t)out->start;
	enum rcl_status st;

	snprintf(key, sizeof(key), "%sdelay", prefix);
	st = load_number(root, path, key, 1, RCL_MAX_DELAY, &delay, err);
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

static void save_schedule(json_object *root, const char *prefix, const struct rcl_schedule *s)
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
                                      struct rcl_ctrl_settings *out, struct rcl_error *err)
{
	unsigned mode = out->pr_mode, ssds = out->pr_ssds, uncfg = out->pr_uncfg, cc = out->cc_mode;
	uint64_t drives = out->pr_max_drives;
	enum rcl_status st = load_word(root, path, "patrolread", pr_modes, &mode, err);

	if (!st)
		st = load_word(root, path, "prssds", pr_ssds_words, &ssds, err);
	if (!st)
		st = load_word(root, path, "pruncfg", off_on, &uncfg, err);
	if (!st)
		st = load_word(root, path, "cc", cc_modes, &cc, err);
	if (!st)
		st = load_number(root, path, "prmaxpd", 1, RCL_MAX_PR_DRIVES, &drives, err);
	if (!st)
		st = load_schedule(root, path, "pr", &out->pr, err);
	if (!st)
		st = load_schedule(root, path, "cc", &out->cc, err);
	out->pr_mode = (enum rcl_pr_mode)mode;
	out->pr_ssds = (enum rcl_pr_ssds)ssds;
	out->pr_uncfg = uncfg;
	out->cc_mode = (enum rcl_cc_mode)cc;
	out->pr_max_drives = (unsigned)drives;
	return st;
}

enum rcl_status rcl_soft_settings_load(struct rcl_ctx *ctx, unsigned id,
                                       struct rcl_ctrl_settings *out, struct rcl_error *err)
{
	json_object *root = NULL;
	char path[PATH_MAX];
	const char *priority;
	uint64_t v;
	enum rcl_status st = rcl_soft_task_file(ctx, id, "", path, sizeof(path), err);

	rcl_soft_settings_defaults(out);
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
	for (int k = 0; !st && k < RCL_RATE_COUNT; k++) {
		/* Files written before migrations existed have no reconrate: the default. */
		if (k == RCL_SETTING_RECON_RATE &&
		    !json_object_object_get_ex(root, rate_keys[k], NULL))
			continue;
		if (!rcl_json_get_uint(root, rate_keys[k], 100, &v))
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

/* Replace controller @id's settings by @s (exclusive lock held). */
static enum rcl_status settings_save(struct rcl_ctx *ctx, unsigned id,
                                     const struct rcl_ctrl_settings *s, struct rcl_error *err)
{
	char path[PATH_MAX];
	json_object *root;
	enum rcl_status st = rcl_soft_task_file(ctx, id, "", path, sizeof(path), err);

	if (st)
		return st;
	root = json_object_new_object();
	json_object_object_add(root, "format", json_object_new_int(SETTINGS_FORMAT));
	for (int k = 0; k < RCL_RATE_COUNT; k++)
		json_object_object_add(root, rate_keys[k], json_object_new_int((int)s->rate[k]));
	json_object_object_add(root, "rebuildpriority",
	                       json_object_new_string(s->host_first ? "host" : "rebuild"));
	json_object_object_add(root, "patrolread", json_object_new_string(pr_modes[s->pr_mode]));
	save_schedule(root, "pr", &s->pr);
	json_object_object_add(root, "prmaxpd", json_object_new_int((int)s->pr_max_drives));
	json_object_object_add(root, "prssds", json_object_new_string(pr_ssds_words[s->pr_ssds]));
	json_object_object_add(root, "pruncfg", json_object_new_string(off_on[s->pr_uncfg]));
	json_object_object_add(root, "cc", json_object_new_string(cc_modes[s->cc_mode]));
	save_schedule(root, "cc", &s->cc);
	st = rcl_soft_task_file_write(ctx, path, root, err);
	json_object_put(root);
	return st;
}

/* ------------------------------------------------------------------------
 * The records. */

enum rcl_status rcl_soft_patrol_record_load(struct rcl_ctx *ctx, unsigned id,
                                            struct rcl_soft_patrol_record *out,
                                            struct rcl_error *err)
{
	static const char *const keys[] = {"format",     "vd",    "position",
	                                   "iterations", "since", "media_errors"};
	json_object *root, *flag;
	uint64_t v[6];
	enum rcl_status st = rcl_soft_task_record_load(ctx, id, RCL_SOFT_PATROL_SUFFIX, keys, 6, v,
	                                               "patrol read", &root, err);

	*out = (struct rcl_soft_patrol_record){0};
	if (st || !root)
		return st;
	out->vd = (unsigned)v[1];
	out->position = v[2];
	out->iterations = v[3];
	out->since = (int64_t)v[4];
	out->media_errors = v[5];
	out->active =
	    json_object_object_get_ex(root, "active", &flag) && json_object_get_boolean(flag);
	out->paused =
	    json_object_object_get_ex(root, "paused", &flag) && json_object_get_boolean(flag);
	out->percent = rcl_json_get_uint(root, "percent", 100, &v[0]) ? (unsigned)v[0] : 0;
	/* Records written before uncfgareas= existed have no area: the VDs. */
	out->area = rcl_json_get_uint(root, "area", UINT32_MAX, &v[0]) ? (unsigned)v[0] : 0;
	json_object_put(root);
	return RCL_OK;
}

/* What is wrong with the lists of scheduled check record @root, or NULL. */
static const char *cc_lists_problem(json_object *root)
{
	json_object *list;

	if (!json_object_object_get_ex(root, "todo", &list) ||
	    !json_object_is_type(list, json_type_array))
		return "its todo is not a list of VDs";
	/* Records from before the marks have none. */
	if (json_object_object_get_ex(root, "marks", &list) &&
	    !json_object_is_type(list, json_type_array))
		return "its marks are not a list";
	return NULL;
}

enum rcl_status rcl_soft_cc_record_load(struct rcl_ctx *ctx, unsigned id,
                                        struct rcl_soft_cc_summary *out, json_object **root,
                                        struct rcl_error *err)
{
	static const char *const keys[] = {"format", "since", "iterations", "completed"};
	json_object *rec, *flag;
	uint64_t v[4];
	const char *bad;
	enum rcl_status st = rcl_soft_task_record_load(ctx, id, RCL_SOFT_CC_SUFFIX, keys, 4, v,
	                                               "scheduled check", &rec, err);

	*out = (struct rcl_soft_cc_summary){0};
	if (root)
		*root = NULL;
	if (st || !rec)
		return st;
	bad = cc_lists_problem(rec);
	if (bad) {
		char path[PATH_MAX];

		st = rcl_soft_task_file(ctx, id, RCL_SOFT_CC_SUFFIX, path, sizeof(path), err);
		json_object_put(rec);
		return st ? st : rcl_state_corrupt(err, path, bad);
	}
	out->since = (int64_t)v[1];
	out->iterations = v[2];
	out->completed = v[3];
	out->active =
	    json_object_object_get_ex(rec, "active", &flag) && json_object_get_boolean(flag);
	if (root)
		*root = rec;
	else
		json_object_put(rec);
	return RCL_OK;
}

/* ------------------------------------------------------------------------
 * The status. */

/*
 * The next start of @s, on (@waiting: no run is under way), the last run
 * having ended (or the schedule begun) at @since: 0 when it has neither
 * begun nor a start time.
 */
static int64_t next_start(const struct rcl_schedule *s, bool waiting, int64_t since)
{
	return waiting && (since || s->start) ? rcl_soft_schedule_next(s, since) : 0;
}

static enum rcl_schedule_state state_of(bool active, bool paused, bool here)
{
	if (!active)
		return RCL_SCHEDULE_STOPPED;
	if (!here)
		return RCL_SCHEDULE_INTERRUPTED; /* it resumes when the process starts */
	return paused ? RCL_SCHEDULE_PAUSED : RCL_SCHEDULE_ACTIVE;
}

void rcl_soft_patrol_status(const struct rcl_ctrl_settings *s,
                            const struct rcl_soft_patrol_record *rec, bool here,
                            struct rcl_patrol_status *out)
{
	*out = (struct rcl_patrol_status){
	    .state = state_of(rec->active, rec->paused, here),
	    .iterations = rec->iterations,
	    .next_start = next_start(&s->pr, s->pr_mode == RCL_PR_AUTO && !rec->active, rec->since),
	    .vd = rec->vd,
	    .percent = rec->percent,
	    .time_left = -1,
	    .media_errors = rec->media_errors,
	};
}

void rcl_soft_cc_status(const struct rcl_ctrl_settings *s, const struct rcl_soft_cc_summary *rec,
                        bool here, struct rcl_cc_status *out)
{
	*out = (struct rcl_cc_status){
	    .state = state_of(rec->active, false, here),
	    .next_start = next_start(&s->cc, s->cc_mode != RCL_CC_OFF && !rec->active, rec->since),
	    .iterations = rec->iterations,
	    .completed = rec->completed,
	};
}

/* ------------------------------------------------------------------------
 * The ops. */

enum rcl_status rcl_soft_settings_get(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *out,
                                      struct rcl_error *err)
{
	return rcl_soft_settings_load(ctrl->ctx, ctrl->entry.id, out, err);
}

enum rcl_status rcl_soft_settings_set(struct rcl_ctrl *ctrl, unsigned changes,
                                      const struct rcl_ctrl_settings *s, struct rcl_error *err)
{
	struct rcl_ctrl_settings now;
	enum rcl_status st = rcl_soft_settings_load(ctrl->ctx, ctrl->entry.id, &now, err);

	if (st)
		return st;
	rcl_settings_apply(&now, changes, s);
	return settings_save(ctrl->ctx, ctrl->entry.id, &now, err);
}
