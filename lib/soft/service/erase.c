// SPDX-License-Identifier: MIT
/*
 * erase.c - the controller process's erases of VDs and of drives (see
 * erase.h), on the loop's thread but for the tasks' callbacks, which only
 * store where their pass stands (atomics) for the loop to record.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "erase.h"
#include "export.h"
#include "service.h"
#include "settings.h"
#include "soft/config/change.h"
#include "soft/config/state.h"
#include "soft/soft.h"
#include "soft/tasks/schedule.h"
#include "soft/tasks/task.h"
#include "tasks.h"

#define RECORD_FORMAT   1
#define CHECKPOINT_SECS 3
/* VDs and drives erased at once: every VD, and more drives than a controller takes. */
#define MAX_ERASES (RCL_MAX_VDS * 4)

/**
 * struct vd_erase - the erase of VD @vd, or of the drive in slot @slot.
 * @kind:	RCL_TASK_VD_ERASE, or a drive's: ERASE, or DRIVE_INIT (one pass
 *		of zeros).
 * @uuid:	a VD's md array UUID: a VD deleted and made again under its
 *		number is not the one to erase.
 * @serial, @path: a drive's serial number (a drive put in its slot since
 *		is not the one to erase) and the path it is written through.
 * @name:	"v0", "drive 252:3", as the log names it.
 * @pass:	the pass running (from 0).
 * @task, @vol, @fd: the pass's task and the volume (a VD's) or the drive
 *		(open for writing) it writes; NULL, -1 between passes, or once
 *		stopped by the process's end.
 * @flushed:	the position below which the pass is durable.
 * @ended:	the pass's final state + 1, once its done callback ran.
 * @saved:	@flushed as the record has it.
 */
struct vd_erase {
	enum rcl_task_kind kind;
	unsigned vd;
	unsigned slot;
	uint8_t uuid[16];
	char serial[sizeof(((struct rcl_drive *)0)->serial)];
	char path[sizeof(((struct rcl_drive *)0)->path)];
	char name[32];
	struct rcl_erase how;
	unsigned pass;
	struct rcl_soft_task *task;
	struct rcl_soft_volume *vol;
	int fd;
	_Atomic uint64_t flushed;
	_Atomic int ended;
	uint64_t total;
	uint64_t saved;
};

/* Allocated one by one: a running pass's callbacks hold its entry, which must not move. */
static struct vd_erase *erases[MAX_ERASES];
static size_t erase_count;

static bool on_drive(const struct vd_erase *e)
{
	return e->kind != RCL_TASK_VD_ERASE;
}

/* The erase of VD @vd, or (@drive) of the drive in slot @vd. */
static struct vd_erase *find_erase(bool drive, unsigned vd)
{
	for (size_t i = 0; i < erase_count; i++)
		if (on_drive(erases[i]) == drive && (drive ? erases[i]->slot : erases[i]->vd) == vd)
			return erases[i];
	return NULL;
}

/* A new entry of @kind, erased as @how, to be given its target (NULL: out of memory). */
static struct vd_erase *new_erase(enum rcl_task_kind kind, const struct rcl_erase *how)
{
	struct vd_erase *e = erase_count < MAX_ERASES ? rcl_calloc(1, sizeof(*e)) : NULL;

	if (!e)
		return NULL;
	e->kind = kind;
	e->how = *how;
	e->fd = -1;
	erases[erase_count++] = e;
	return e;
}

/* A new entry for VD @vd, erased as @how (NULL: out of memory). */
static struct vd_erase *new_vd_erase(unsigned vd, const struct rcl_erase *how, const uint8_t *uuid)
{
	struct vd_erase *e = new_erase(RCL_TASK_VD_ERASE, how);

	if (!e)
		return NULL;
	e->vd = vd;
	memcpy(e->uuid, uuid, sizeof(e->uuid));
	snprintf(e->name, sizeof(e->name), "v%u", vd);
	return e;
}

/* A new entry of @kind for drive @d, erased as @how (NULL: out of memory). */
static struct vd_erase *new_drive_erase(enum rcl_task_kind kind, const struct rcl_drive *d,
                                        const struct rcl_erase *how)
{
	struct vd_erase *e = new_erase(kind, how);

	if (!e)
		return NULL;
	e->slot = d->slot;
	memcpy(e->serial, d->serial, sizeof(e->serial));
	memcpy(e->path, d->path, sizeof(e->path));
	snprintf(e->name, sizeof(e->name), "drive %u:%u", d->enclosure, d->slot);
	return e;
}

/* "erase", "initialization": what the log calls @e. */
static const char *what(const struct vd_erase *e)
{
	return e->kind == RCL_TASK_DRIVE_INIT ? "initialization" : "erase";
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
	json_object *drives = json_object_new_array();

	for (size_t i = 0; i < erase_count; i++) {
		struct vd_erase *e = erases[i];
		json_object *one = json_object_new_object();

		e->saved = atomic_load(&e->flushed);
		if (on_drive(e)) {
			json_object_object_add(one, "slot", json_object_new_int((int)e->slot));
			json_object_object_add(one, "serial", json_object_new_string(e->serial));
			json_object_object_add(one, "path", json_object_new_string(e->path));
			json_object_object_add(
			    one, "init", json_object_new_boolean(e->kind == RCL_TASK_DRIVE_INIT));
		} else {
			json_object_object_add(one, "vd", json_object_new_int((int)e->vd));
			rcl_json_add_guid(one, "uuid", e->uuid);
		}
		json_object_object_add(one, "mode", json_object_new_int((int)e->how.mode));
		json_object_object_add(one, "patterna", json_object_new_int(e->how.pattern_a));
		json_object_object_add(one, "patternb", json_object_new_int(e->how.pattern_b));
		json_object_object_add(one, "pass", json_object_new_int((int)e->pass));
		json_object_object_add(one, "position", json_object_new_int64((int64_t)e->saved));
		json_object_object_add(one, "percent",
		                       json_object_new_int(erase_percent(e, e->saved)));
		json_object_array_add(on_drive(e) ? drives : list, one);
	}
	json_object_object_add(root, "format", json_object_new_int(RECORD_FORMAT));
	json_object_object_add(root, "vds", list);
	json_object_object_add(root, "drives", drives);
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

/* Open @e's drive for its pass: @e->fd and @e->total, its size. */
static enum rcl_status open_drive(struct vd_erase *e, struct rcl_error *err)
{
	off_t end;

	e->fd = open(e->path, O_RDWR | O_CLOEXEC);
	if (e->fd < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot open '%s' of %s", e->path,
		                      e->name);
	end = lseek(e->fd, 0, SEEK_END);
	if (end < 0) {
		rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot size '%s' of %s", e->path, e->name);
		close(e->fd);
		e->fd = -1;
		return err->status;
	}
	e->total = (uint64_t)end;
	return RCL_OK;
}

/* The volume (a VD's) or the drive @e's pass writes, opened: @e->vol or @e->fd. */
static enum rcl_status open_target(const struct rcl_soft_state *state, struct vd_erase *e,
                                   struct rcl_error *err)
{
	enum rcl_status st;

	if (on_drive(e))
		return open_drive(e, err);
	st = volume_get(state, e->vd, &e->vol, err);
	if (!st)
		e->total = rcl_soft_sweep_extent(e->vol);
	return st;
}

/* Close what open_target() opened. */
static void close_target(struct vd_erase *e)
{
	if (e->vol)
		volume_put(e->vol);
	e->vol = NULL;
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
}

/* Start @e's pass @e->pass at @from, paced as a BGI (StorCLI's erase has no rate of its own). */
static enum rcl_status start_pass(unsigned id, const struct rcl_soft_state *state,
                                  struct vd_erase *e, uint64_t from, struct rcl_error *err)
{
	struct rcl_soft_task_params params = {.kind = on_drive(e) ? RCL_SOFT_TASK_WIPE
	                                                          : RCL_SOFT_TASK_ERASE,
	                                      .pattern = rcl_erase_pattern(&e->how, e->pass),
	                                      .from = from,
	                                      .checkpoint_secs = CHECKPOINT_SECS,
	                                      .checkpoint = on_checkpoint,
	                                      .done = on_done,
	                                      .ctx = e};
	enum rcl_status st = open_target(state, e, err);

	settings_pace(id, RCL_SETTING_BGI_RATE, &params.rate, &params.host_first);
	atomic_store(&e->flushed, from);
	atomic_store(&e->ended, 0);
	params.fd = e->fd;
	params.bytes = e->total;
	if (!st)
		st = rcl_soft_task_start(e->vol, &params, &e->task, err);
	if (st)
		close_target(e);
	else
		service_log("%s of %s: pass %u of %u (pattern 0x%02x) from %llu%%", what(e),
		            e->name, e->pass + 1, rcl_erase_passes(e->how.mode), params.pattern,
		            (unsigned long long)(from * 100 / (e->total ? e->total : 1)));
	return st;
}

/* Free @e's ended or stopped task, and close what it wrote. */
static void end_pass(struct vd_erase *e)
{
	rcl_soft_task_free(e->task);
	e->task = NULL;
	close_target(e);
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
		service_log("%s of %s complete", what(e), e->name);
	else
		service_log("%s of %s failed in pass %u: %s", what(e), e->name, e->pass + 1,
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
	const struct vd_erase *e = find_erase(false, vd);

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
 * The record, read at the process's start (erase-record.c reads it too). */

/* The fields every entry has: how it erases, and where it stands. */
static bool read_how(json_object *one, struct rcl_erase *how, unsigned *pass, uint64_t *position)
{
	uint64_t mode, a, b, p;

	if (!rcl_json_get_uint(one, "mode", RCL_ERASE_THOROUGH, &mode) ||
	    !rcl_json_get_uint(one, "patterna", UINT8_MAX, &a) ||
	    !rcl_json_get_uint(one, "patternb", UINT8_MAX, &b) ||
	    !rcl_json_get_uint(one, "pass", 8, &p) ||
	    !rcl_json_get_uint(one, "position", INT64_MAX, position))
		return false;
	*how = (struct rcl_erase){(enum rcl_erase_mode)mode, (uint8_t)a, (uint8_t)b};
	*pass = (unsigned)p;
	return true;
}

/* Go on with new entry @e from pass @pass at @position, or log why not and drop it. */
static void resume(unsigned id, const struct rcl_soft_state *state, struct vd_erase *e,
                   unsigned pass, uint64_t position)
{
	struct rcl_error err = {0};

	e->pass = pass;
	e->saved = position;
	if (e->pass >= rcl_erase_passes(e->how.mode) || start_pass(id, state, e, position, &err)) {
		service_log("cannot resume the %s of %s: %s", what(e), e->name, err.msg);
		drop_erase(e);
	}
}

/* Resume the erase of VD record entry @one, if its VD is still the one erased. */
static void resume_vd(unsigned id, const struct rcl_soft_state *state, json_object *one)
{
	uint64_t vd, position;
	unsigned pass;
	struct rcl_erase how;
	struct rcl_guid uuid;
	const struct rcl_soft_vd *v;
	struct vd_erase *e;

	if (!rcl_json_get_uint(one, "vd", RCL_MAX_VDS - 1, &vd) ||
	    !rcl_json_get_guid(one, "uuid", &uuid) || !read_how(one, &how, &pass, &position)) {
		service_log("an erase in the record is not one: left out");
		return;
	}
	/* A process started for "start erase" has its erase already. */
	if (find_erase(false, (unsigned)vd))
		return;
	v = rcl_soft_config_vd(&state->cfg, (unsigned)vd);
	if (!v || memcmp(v->uuid, uuid.b, sizeof(v->uuid))) {
		service_log("v%u was deleted since its erase stopped: not erased", (unsigned)vd);
		return;
	}
	e = new_vd_erase((unsigned)vd, &how, v->uuid);
	if (!e)
		service_log("cannot resume the erase of v%u: out of memory", (unsigned)vd);
	else
		resume(id, state, e, pass, position);
}

/*
 * The drive of serial number @serial in slot @slot of @ctrl, or NULL: a
 * drive put in its place (another serial number) is not the one to erase.
 */
static const struct rcl_drive *erased_drive(const struct rcl_ctrl *ctrl, unsigned slot,
                                            const char *serial)
{
	const struct rcl_drive_ref ref = {RCL_SOFT_ENCLOSURE, slot};
	const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, &ref);

	return d && d->present && !strcmp(d->serial, serial) ? d : NULL;
}

/* Resume the erase of drive record entry @one, if its drive is still in its slot. */
static void resume_drive(unsigned id, const struct rcl_ctrl *ctrl, json_object *one)
{
	uint64_t slot, position;
	unsigned pass;
	struct rcl_erase how;
	const char *serial;
	enum rcl_task_kind kind;
	const struct rcl_drive *d;
	struct vd_erase *e;

	if (!rcl_json_get_uint(one, "slot", UINT_MAX, &slot) ||
	    !rcl_json_get_str(one, "serial", &serial) || !read_how(one, &how, &pass, &position)) {
		service_log("a drive's erase in the record is not one: left out");
		return;
	}
	if (find_erase(true, (unsigned)slot))
		return;
	d = erased_drive(ctrl, (unsigned)slot, serial);
	if (!d || !erase_record_drive(one, d, &kind)) {
		service_log("the drive in slot %u was replaced since its erase stopped: not erased",
		            (unsigned)slot);
		return;
	}
	e = new_drive_erase(kind, d, &how);
	if (!e)
		service_log("cannot resume the erase of slot %u: out of memory", (unsigned)slot);
	else
		resume(id, service_soft_state(ctrl), e, pass, position);
}

/* Whether @e's VD or drive is still the one it erases (its VD deleted, its drive replaced: no). */
static bool still_there(const struct rcl_ctrl *ctrl, const struct vd_erase *e)
{
	const struct rcl_soft_vd *v;

	if (on_drive(e))
		return erased_drive(ctrl, e->slot, e->serial) != NULL;
	v = rcl_soft_config_vd(&service_soft_state(ctrl)->cfg, e->vd);
	return v && !memcmp(v->uuid, e->uuid, sizeof(e->uuid));
}

/*
 * Stop the erases of VDs a command deleted (or whose id a new VD took),
 * and of drives removed: their passes would write over space the
 * configuration gave up, or over another drive.
 */
static void forget_deleted(unsigned id, const struct rcl_ctrl *ctrl)
{
	bool changed = false;

	for (size_t i = erase_count; i-- > 0;) {
		struct vd_erase *e = erases[i];

		if (still_there(ctrl, e))
			continue;
		if (e->task)
			end_pass(e);
		service_log("%s was deleted or removed: its %s stopped", e->name, what(e));
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
	json_object *root, *one;

	if (state)
		forget_deleted(id, ctrl);
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
	root = erase_record_load(ctrl);
	for (size_t i = 0; (one = erase_record_entry(root, "vds", i)); i++)
		resume_vd(id, state, one);
	for (size_t i = 0; (one = erase_record_entry(root, "drives", i)); i++)
		resume_drive(id, ctrl, one);
	json_object_put(root);
	if (erase_count)
		record_save(id);
}

/* ------------------------------------------------------------------------
 * The commands' side. */

static enum rcl_status start_vd_erase(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                      struct rcl_error *err)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	const struct rcl_soft_vd *v = rcl_soft_config_vd(&state->cfg, req->vd);
	unsigned id = rcl_ctrl_id(ctrl);

	if (!v)
		return rcl_fail(err, RCL_NOT_FOUND, "/c%u/v%u does not exist", id, req->vd);
	if (find_erase(false, req->vd))
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
	return RCL_OK;
}

/*
 * Why drive @d may not be overwritten here (RCL_NOT_ALLOWED, or the check
 * for a file system's), beyond what every kind refuses (rcl_ctrl_task():
 * a member or a hot spare, a drive the host uses).
 */
static enum rcl_status check_drive(const struct rcl_ctrl *ctrl, const struct rcl_drive *d,
                                   bool force, struct rcl_error *err)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	const struct rcl_drive_ref ref = {d->enclosure, d->slot};
	const struct vd_erase *e = find_erase(true, d->slot);
	/* Outside the process, a halted one counts: the next process goes on with it. */
	enum rcl_task_kind busy = e ? e->kind : (enum rcl_task_kind)d->wiped_by;
	unsigned id = rcl_ctrl_id(ctrl);

	if (busy != RCL_TASK_NONE)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "drive %u:%u is being overwritten by its %s already: wait for its "
		                "end, or stop it: raidcli /c%u/e%u/s%u stop %s",
		                d->enclosure, d->slot, rcl_task_kind_name(busy), id, d->enclosure,
		                d->slot, busy == RCL_TASK_DRIVE_INIT ? "initialization" : "erase");
	if (d->state == RCL_PD_JBOD)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "drive %u:%u is JBOD, the host's to use as it is: make it "
		                "unconfigured good first (raidcli /c%u/e%u/s%u set good)",
		                d->enclosure, d->slot, id, d->enclosure, d->slot);
	if (!d->present || d->foreign || d->state != RCL_PD_UGOOD)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "drive %u:%u is %s: only an unconfigured good drive is overwritten",
		                d->enclosure, d->slot,
		                !d->present  ? "missing"
		                : d->foreign ? "foreign"
		                             : rcl_pd_state_abbrev(d->state));
	for (size_t i = 0; !force && i < state->count; i++)
		if (state->disks[i].slot == d->slot)
			return rcl_soft_check_blank(&state->disks[i], &ref, err);
	return RCL_OK;
}

/* What the soft controller cannot do of an erase @req: a drive's own erase (crypto, sanitize). */
static enum rcl_status check_overwrite(const struct rcl_task_request *req, struct rcl_error *err)
{
	enum rcl_erase_mode mode = req->erase.mode;

	if ((req->kind != RCL_TASK_ERASE && req->kind != RCL_TASK_VD_ERASE) ||
	    mode == RCL_ERASE_AUTO || rcl_erase_passes(mode))
		return RCL_OK;
	if (mode == RCL_ERASE_CRYPTO)
		return rcl_unsupported(err, "soft", "a cryptographic erase",
		                       "its drives are image files or plain block devices: erase "
		                       "them simple, normal or thorough");
	return rcl_unsupported(err, "soft", "a drive's own sanitize or format",
	                       "it overwrites its drives itself: erase them simple, normal or "
	                       "thorough");
}

enum rcl_status erase_check_start(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                  struct rcl_error *err)
{
	enum rcl_status st = check_overwrite(req, err);

	if (!st && service_soft_state(ctrl))
		st = check_drive(ctrl, rcl_ctrl_find_drive(ctrl, &req->drive), req->force, err);
	return st;
}

static enum rcl_status start_erase(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                   struct rcl_error *err)
{
	const struct rcl_drive *d = NULL;
	/* A drive's initialization writes zeros once; an erase named by no mode, pattern A once. */
	struct rcl_erase how =
	    req->kind == RCL_TASK_DRIVE_INIT ? (struct rcl_erase){0} : req->erase;
	enum rcl_status st;
	struct vd_erase *e;

	if (req->kind == RCL_TASK_VD_ERASE) {
		st = start_vd_erase(ctrl, req, err);
	} else {
		d = rcl_ctrl_find_drive(ctrl, &req->drive);
		st = check_drive(ctrl, d, req->force, err);
	}
	if (st)
		return st;
	if (how.mode == RCL_ERASE_AUTO)
		how.mode = RCL_ERASE_SIMPLE;
	e = d ? new_drive_erase(req->kind, d, &how)
	      : new_vd_erase(req->vd, &how,
	                     rcl_soft_config_vd(&service_soft_state(ctrl)->cfg, req->vd)->uuid);
	if (!e)
		return rcl_fail(err, RCL_NOMEM, "out of memory, or %d erases under way already",
		                MAX_ERASES);
	if (start_pass(rcl_ctrl_id(ctrl), service_soft_state(ctrl), e, 0, err)) {
		drop_erase(e);
		return err->status;
	}
	record_save(rcl_ctrl_id(ctrl));
	return RCL_OK;
}

/* The erase @req names ("/c0/v0", "drive 252:3") into @name. */
static void request_name(const struct rcl_task_request *req, unsigned id, char *name, size_t size)
{
	if (req->kind == RCL_TASK_VD_ERASE)
		snprintf(name, size, "/c%u/v%u", id, req->vd);
	else
		snprintf(name, size, "drive %u:%u", req->drive.enclosure, req->drive.slot);
}

enum rcl_status erase_control(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl);
	bool drive = req->kind != RCL_TASK_VD_ERASE;
	struct vd_erase *e = find_erase(drive, drive ? req->drive.slot : req->vd);
	enum rcl_status st = check_overwrite(req, err);
	char name[32];

	if (st)
		return st;
	if (!service_self(id) || !service_soft_state(ctrl))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "erases run in the controller process of /c%u, which is not "
		                "running; start it with: raidcli /c%u serve",
		                id, id);
	switch (req->action) {
	case RCL_TASK_ACTION_START:
		return start_erase(ctrl, req, err);
	case RCL_TASK_ACTION_STOP:
		if (!e || e->kind != req->kind)
			break;
		if (e->task)
			end_pass(e);
		service_log("%s of %s stopped in pass %u", what(e), e->name, e->pass + 1);
		drop_erase(e);
		record_save(id);
		return RCL_OK;
	default:
		return rcl_unsupported(err, "soft", "pausing or resuming an erase", NULL);
	}
	request_name(req, id, name, sizeof(name));
	return rcl_fail(err, RCL_NOT_ALLOWED, "no %s of %s is in progress",
	                req->kind == RCL_TASK_DRIVE_INIT ? "initialization" : "erase", name);
}

void erase_progress(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                    struct rcl_task_progress *out)
{
	bool self = service_self(rcl_ctrl_id(ctrl)), drive = req->kind != RCL_TASK_VD_ERASE;
	struct vd_erase *e = self ? find_erase(drive, drive ? req->drive.slot : req->vd) : NULL;
	struct rcl_soft_task_progress p;
	unsigned left;

	if (!self)
		erase_recorded_progress(ctrl, req, out);
	if (!e || !e->task || e->kind != req->kind)
		return;
	rcl_soft_task_progress(e->task, &p);
	left = rcl_erase_passes(e->how.mode) - e->pass - 1;
	out->state = RCL_TASK_STATE_RUNNING;
	out->percent = erase_percent(e, p.position);
	out->elapsed = p.elapsed;
	/* The passes left take as long as this one will. */
	out->remaining = p.remaining < 0 ? -1 : p.remaining + left * (p.elapsed + p.remaining);
}
