// SPDX-License-Identifier: MIT
/*
 * erase.c - the controller process's VD erases (see erase.h), on the
 * loop's thread but for the tasks' callbacks, which only store where
 * their pass stands (atomics) for the loop to record.
 */
#include <limits.h>
#include <stdatomic.h>
#include <string.h>

#include "erase.h"
#include "export.h"
#include "service.h"
#include "settings.h"
#include "soft/config/state.h"
#include "soft/tasks/schedule.h"
#include "soft/tasks/task.h"
#include "tasks.h"

#define RECORD_FORMAT   1
#define CHECKPOINT_SECS 3

/**
 * struct vd_erase - VD @vd's erase.
 * @uuid:	the VD's md array UUID: a VD deleted and made again under its
 *		number is not the one to erase.
 * @pass:	the pass running (from 0).
 * @task, @vol: the pass's task and the volume it writes (NULL between
 *		passes, or once stopped by the process's end).
 * @flushed:	the position below which the pass is durable.
 * @ended:	the pass's final state + 1, once its done callback ran.
 * @saved:	@flushed as the record has it.
 */
struct vd_erase {
	unsigned vd;
	uint8_t uuid[16];
	struct rcl_erase how;
	unsigned pass;
	struct rcl_soft_task *task;
	struct rcl_soft_volume *vol;
	_Atomic uint64_t flushed;
	_Atomic int ended;
	uint64_t total;
	uint64_t saved;
};

/* Allocated one by one: a running pass's callbacks hold its entry, which must not move. */
static struct vd_erase *erases[RCL_MAX_VDS];
static size_t erase_count;

static struct vd_erase *find_erase(unsigned vd)
{
	for (size_t i = 0; i < erase_count; i++)
		if (erases[i]->vd == vd)
			return erases[i];
	return NULL;
}

/* A new entry for VD @vd, erased as @how (NULL: out of memory). */
static struct vd_erase *new_erase(unsigned vd, const struct rcl_erase *how, const uint8_t *uuid)
{
	struct vd_erase *e = erase_count < RCL_MAX_VDS ? rcl_calloc(1, sizeof(*e)) : NULL;

	if (!e)
		return NULL;
	e->vd = vd;
	e->how = *how;
	memcpy(e->uuid, uuid, sizeof(e->uuid));
	erases[erase_count++] = e;
	return e;
}

/* Forget @e, whose pass has ended (or never started). */
static void drop_erase(struct vd_erase *e)
{
	for (size_t i = 0; i < erase_count; i++)
		if (erases[i] == e)
			erases[i] = erases[--erase_count];
	rcl_free(e);
}

/* How much of @e is done, in percent of all its passes. */
static int erase_percent(const struct vd_erase *e, uint64_t position)
{
	unsigned passes = rcl_erase_passes(e->how.mode);
	uint64_t total = e->total ? e->total : 1;

	return (int)((e->pass * total + position) * 100 / (passes * total));
}

/* Save every erase under way, where its pass is durable; a failure is logged. */
static void record_save(unsigned id)
{
	json_object *root = json_object_new_object(), *list = json_object_new_array();

	for (size_t i = 0; i < erase_count; i++) {
		struct vd_erase *e = erases[i];
		json_object *one = json_object_new_object();

		e->saved = atomic_load(&e->flushed);
		json_object_object_add(one, "vd", json_object_new_int((int)e->vd));
		rcl_json_add_guid(one, "uuid", e->uuid);
		json_object_object_add(one, "mode", json_object_new_int((int)e->how.mode));
		json_object_object_add(one, "patterna", json_object_new_int(e->how.pattern_a));
		json_object_object_add(one, "patternb", json_object_new_int(e->how.pattern_b));
		json_object_object_add(one, "pass", json_object_new_int((int)e->pass));
		json_object_object_add(one, "position", json_object_new_int64((int64_t)e->saved));
		json_object_object_add(one, "percent",
		                       json_object_new_int(erase_percent(e, e->saved)));
		json_object_array_add(list, one);
	}
	json_object_object_add(root, "format", json_object_new_int(RECORD_FORMAT));
	json_object_object_add(root, "vds", list);
	task_record_save(id, RCL_SOFT_ERASE_SUFFIX, root, "the erases");
}

/* ------------------------------------------------------------------------
 * The task's callbacks (on its thread). */

static void on_checkpoint(void *ctx, const struct rcl_soft_task_progress *progress)
{
	struct vd_erase *e = ctx;

	atomic_store(&e->flushed, progress->position);
}

static void on_done(void *ctx, const struct rcl_soft_task_progress *progress)
{
	struct vd_erase *e = ctx;

	atomic_store(&e->flushed, progress->position);
	atomic_store(&e->ended, (int)progress->state + 1);
}

/* ------------------------------------------------------------------------
 * Passes. */

/* Start @e's pass @e->pass at @from, paced as a BGI (StorCLI's erase has no rate of its own). */
static enum rcl_status start_pass(unsigned id, const struct rcl_soft_state *state,
                                  struct vd_erase *e, uint64_t from, struct rcl_error *err)
{
	struct rcl_soft_task_params params = {.kind = RCL_SOFT_TASK_ERASE,
	                                      .pattern = rcl_erase_pattern(&e->how, e->pass),
	                                      .from = from,
	                                      .checkpoint_secs = CHECKPOINT_SECS,
	                                      .checkpoint = on_checkpoint,
	                                      .done = on_done,
	                                      .ctx = e};
	enum rcl_status st = volume_get(state, e->vd, &e->vol, err);

	settings_pace(id, RCL_SETTING_BGI_RATE, &params.rate, &params.host_first);
	atomic_store(&e->flushed, from);
	atomic_store(&e->ended, 0);
	if (!st) {
		e->total = rcl_soft_sweep_extent(e->vol);
		st = rcl_soft_task_start(e->vol, &params, &e->task, err);
	}
	if (st && e->vol)
		volume_put(e->vol);
	if (st)
		e->vol = NULL;
	else
		service_log("erase of v%u: pass %u of %u (pattern 0x%02x) from %llu%%", e->vd,
		            e->pass + 1, rcl_erase_passes(e->how.mode), params.pattern,
		            (unsigned long long)(from * 100 / (e->total ? e->total : 1)));
	return st;
}

/* Free @e's ended or stopped task and its volume. */
static void end_pass(struct vd_erase *e)
{
	rcl_soft_task_free(e->task);
	e->task = NULL;
	volume_put(e->vol);
	e->vol = NULL;
}

/* Where @e stands after its pass ended as @state: the next pass, or the end (dropped). */
static void pass_ended(unsigned id, const struct rcl_soft_state *state, struct vd_erase *e,
                       enum rcl_soft_task_state ended)
{
	struct rcl_error err = {0};
	struct rcl_soft_task_progress p;

	rcl_soft_task_progress(e->task, &p);
	end_pass(e);
	if (ended == RCL_SOFT_TASK_DONE && ++e->pass < rcl_erase_passes(e->how.mode) &&
	    !start_pass(id, state, e, 0, &err))
		return;
	if (ended == RCL_SOFT_TASK_DONE && e->pass >= rcl_erase_passes(e->how.mode))
		service_log("erase of v%u complete", e->vd);
	else
		service_log("erase of v%u failed in pass %u: %s", e->vd, e->pass + 1,
		            err.msg[0] ? err.msg : strerror(-p.error));
	drop_erase(e);
}

void erases_tick(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;
	bool changed = false;

	if (!erase_count)
		return;
	if (service_open_ctrl(id, RCL_LOCK_SHARED, &lib, &ctrl, &err) ||
	    !service_soft_state(ctrl)) {
		service_log("cannot follow the erases: %s", err.msg);
	} else {
		for (size_t i = erase_count; i-- > 0;) {
			struct vd_erase *e = erases[i];
			int ended = atomic_load(&e->ended);

			if (ended && e->task) {
				pass_ended(id, service_soft_state(ctrl), e,
				           (enum rcl_soft_task_state)(ended - 1));
				changed = true;
			} else {
				changed |= atomic_load(&e->flushed) != e->saved;
			}
		}
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
	if (changed)
		record_save(id);
}

bool erases_busy(void)
{
	return erase_count != 0;
}

bool erase_running(unsigned vd)
{
	const struct vd_erase *e = find_erase(vd);

	return e && e->task;
}

void erases_stop_all(unsigned id)
{
	for (size_t i = 0; i < erase_count; i++)
		if (erases[i]->task)
			rcl_soft_task_stop(erases[i]->task);
	for (size_t i = 0; i < erase_count; i++)
		if (erases[i]->task)
			end_pass(erases[i]);
	/* Where each stood stays in the record: the next process goes on from there. */
	if (erase_count)
		record_save(id);
	while (erase_count)
		drop_erase(erases[0]);
}

/* ------------------------------------------------------------------------
 * The record, read at the process's start. */

/* Resume the erase of record entry @one, if its VD is still the one erased. */
static void resume_one(unsigned id, const struct rcl_soft_state *state, json_object *one)
{
	uint64_t vd, mode, a, b, pass, position;
	struct rcl_guid uuid;
	const struct rcl_soft_vd *v;
	struct rcl_error err = {0};
	struct vd_erase *e;

	if (!rcl_json_get_uint(one, "vd", RCL_MAX_VDS - 1, &vd) ||
	    !rcl_json_get_guid(one, "uuid", &uuid) ||
	    !rcl_json_get_uint(one, "mode", RCL_ERASE_THOROUGH, &mode) ||
	    !rcl_json_get_uint(one, "patterna", UINT8_MAX, &a) ||
	    !rcl_json_get_uint(one, "patternb", UINT8_MAX, &b) ||
	    !rcl_json_get_uint(one, "pass", 8, &pass) ||
	    !rcl_json_get_uint(one, "position", INT64_MAX, &position)) {
		service_log("an erase in the record is not one: left out");
		return;
	}
	/* A process started for "start erase" has its erase already. */
	if (find_erase((unsigned)vd))
		return;
	v = rcl_soft_config_vd(&state->cfg, (unsigned)vd);
	if (!v || memcmp(v->uuid, uuid.b, sizeof(v->uuid))) {
		service_log("v%u was deleted since its erase stopped: not erased", (unsigned)vd);
		return;
	}
	e = new_erase((unsigned)vd,
	              &(struct rcl_erase){(enum rcl_erase_mode)mode, (uint8_t)a, (uint8_t)b},
	              v->uuid);
	if (!e) {
		service_log("cannot resume the erase of v%u: out of memory", (unsigned)vd);
		return;
	}
	e->pass = (unsigned)pass;
	e->saved = position;
	if (e->pass >= rcl_erase_passes(e->how.mode) || start_pass(id, state, e, position, &err)) {
		service_log("cannot resume the erase of v%u: %s", e->vd, err.msg);
		drop_erase(e);
	}
}

/*
 * Stop the erases of VDs a command deleted (or whose id a new VD took):
 * their passes would write over space the configuration gave up.
 */
static void forget_deleted(unsigned id, const struct rcl_soft_state *state)
{
	bool changed = false;

	for (size_t i = erase_count; i-- > 0;) {
		struct vd_erase *e = erases[i];
		const struct rcl_soft_vd *v = rcl_soft_config_vd(&state->cfg, e->vd);

		if (v && !memcmp(v->uuid, e->uuid, sizeof(e->uuid)))
			continue;
		if (e->task)
			end_pass(e);
		service_log("v%u was deleted: its erase stopped", e->vd);
		drop_erase(e);
		changed = true;
	}
	if (changed)
		record_save(id);
}

void erases_poll(unsigned id, struct rcl_ctrl *ctrl)
{
	static bool resumed;
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	const char *keys[] = {"format"};
	struct rcl_error err = {0};
	json_object *root = NULL, *list;
	uint64_t format;

	if (state)
		forget_deleted(id, state);
	/* A command may have changed the rate. */
	for (size_t i = 0; i < erase_count; i++) {
		unsigned rate;
		bool host_first;

		if (!erases[i]->task)
			continue;
		settings_pace(id, RCL_SETTING_BGI_RATE, &rate, &host_first);
		rcl_soft_task_set_rate(erases[i]->task, rate, host_first);
	}
	if (resumed || !state)
		return;
	resumed = true;
	if (rcl_soft_task_record_load(ctrl->ctx, id, RCL_SOFT_ERASE_SUFFIX, keys, 1, &format,
	                              "erase", &root, &err)) {
		service_log("cannot resume the erases: %s", err.msg);
		return;
	}
	if (root && json_object_object_get_ex(root, "vds", &list))
		for (size_t i = 0; i < json_object_array_length(list); i++)
			resume_one(id, state, json_object_array_get_idx(list, i));
	json_object_put(root);
	if (erase_count)
		record_save(id);
}

/* ------------------------------------------------------------------------
 * The commands' side. */

static enum rcl_status start_erase(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                   struct rcl_error *err)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	const struct rcl_soft_vd *v = rcl_soft_config_vd(&state->cfg, req->vd);
	unsigned id = rcl_ctrl_id(ctrl);
	struct vd_erase *e;

	if (!v)
		return rcl_fail(err, RCL_NOT_FOUND, "/c%u/v%u does not exist", id, req->vd);
	if (find_erase(req->vd))
		return rcl_fail(err, RCL_NOT_ALLOWED, "/c%u/v%u is being erased already", id,
		                req->vd);
	if (v->access != RCL_ACCESS_RW)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "/c%u/v%u is not writable (access policy %s): set accesspolicy=rw "
		                "first",
		                id, req->vd, rcl_access_policy_name(v->access));
	if (tasks_running_on(ctrl, req->vd))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "another task runs on /c%u/v%u (show all lists it under Active "
		                "Operations): stop it, or wait for its end, first",
		                id, req->vd);
	if (!rcl_erase_passes(req->erase.mode))
		return rcl_unsupported(err, "soft", "a cryptographic erase",
		                       "its drives are image files or plain block devices");
	e = new_erase(req->vd, &req->erase, v->uuid);
	if (!e)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (start_pass(id, state, e, 0, err)) {
		drop_erase(e);
		return err->status;
	}
	record_save(id);
	return RCL_OK;
}

enum rcl_status erase_control(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl);
	struct vd_erase *e = find_erase(req->vd);

	if (!service_self(id) || !service_soft_state(ctrl))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "erases run in the controller process of /c%u, which is not "
		                "running; start it with: raidcli /c%u serve",
		                id, id);
	switch (req->action) {
	case RCL_TASK_ACTION_START:
		return start_erase(ctrl, req, err);
	case RCL_TASK_ACTION_STOP:
		if (!e)
			break;
		if (e->task)
			end_pass(e);
		service_log("erase of v%u stopped in pass %u", e->vd, e->pass + 1);
		drop_erase(e);
		record_save(id);
		return RCL_OK;
	default:
		return rcl_unsupported(err, "soft", "pausing or resuming an erase", NULL);
	}
	return rcl_fail(err, RCL_NOT_ALLOWED, "no erase of /c%u/v%u is in progress", id, req->vd);
}

/* Outside the process: the record's entry for VD @vd, as HALTED at its percent. */
static void recorded_progress(const struct rcl_ctrl *ctrl, unsigned vd,
                              struct rcl_task_progress *out)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	const struct rcl_soft_vd *v = state ? rcl_soft_config_vd(&state->cfg, vd) : NULL;
	const char *keys[] = {"format"};
	json_object *root = NULL, *list;
	uint64_t format, at, percent;
	struct rcl_guid uuid;
	struct rcl_error ignored = {0};

	/* A record that cannot be read shows no erase; the process says why in its log. */
	if (!v || rcl_soft_task_record_load(ctrl->ctx, rcl_ctrl_id(ctrl), RCL_SOFT_ERASE_SUFFIX,
	                                    keys, 1, &format, "erase", &root, &ignored))
		return;
	if (root && json_object_object_get_ex(root, "vds", &list))
		for (size_t i = 0; i < json_object_array_length(list); i++) {
			json_object *one = json_object_array_get_idx(list, i);

			if (rcl_json_get_uint(one, "vd", RCL_MAX_VDS - 1, &at) && at == vd &&
			    rcl_json_get_guid(one, "uuid", &uuid) &&
			    !memcmp(uuid.b, v->uuid, sizeof(v->uuid)) &&
			    rcl_json_get_uint(one, "percent", 100, &percent)) {
				out->state = RCL_TASK_STATE_HALTED;
				out->percent = (int)percent;
			}
		}
	json_object_put(root);
}

void erase_progress(const struct rcl_ctrl *ctrl, unsigned vd, struct rcl_task_progress *out)
{
	struct vd_erase *e = service_self(rcl_ctrl_id(ctrl)) ? find_erase(vd) : NULL;
	struct rcl_soft_task_progress p;
	unsigned left;

	if (!service_self(rcl_ctrl_id(ctrl)))
		recorded_progress(ctrl, vd, out);
	if (!e || !e->task)
		return;
	rcl_soft_task_progress(e->task, &p);
	left = rcl_erase_passes(e->how.mode) - e->pass - 1;
	out->state = RCL_TASK_STATE_RUNNING;
	out->percent = erase_percent(e, p.position);
	out->elapsed = p.elapsed;
	/* The passes left take as long as this one will. */
	out->remaining = p.remaining < 0 ? -1 : p.remaining + left * (p.elapsed + p.remaining);
}
