// SPDX-License-Identifier: MIT
/*
 * patrol.c - the controller process's patrol read (see patrol.h).
 *
 * One patrol read per controller, on the loop's thread but for the task's
 * callbacks, which only store where the task stands (atomics) for the loop
 * to record.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "export.h"
#include "internal.h"
#include "patrol.h"
#include "service.h"
#include "settings.h"
#include "soft/tasks/task.h"
#include "soft/config/layout.h"
#include "soft/config/scan.h"
#include "soft/engine/volume.h"
#include "soft/soft.h"
#include "soft/config/vd.h"
#include "soft/tasks/schedule.h"

#define RECORD_FORMAT 1 /* rcl_soft_task_record_load() checks it */
/* How often the running VD's flushed position reaches the record, at most. */
#define CHECKPOINT_SECS 3

/**
 * struct area - an area no VD covers, which uncfgareas=on reads: a whole
 * unconfigured good drive (@member -1), or a free extent of member
 * @member of group @dg (its id), in the drives' sectors.
 */
struct area {
	const char *path;
	unsigned slot;
	unsigned dg;
	int member;
	uint64_t first_lba, lbas;
	unsigned sector_size;
};

/**
 * The process's patrol read.
 * @rec:	the record as last saved.
 * @task:	the running (or paused) task, on VD @rec.vd through @vol, or
 *		(@rec.area) a scan of @area through @fd.
 * @area_errors: the reads that failed in the scan of @area, once it ended.
 * @flushed:	the position the task has checkpointed.
 * @ended:	the task's final state + 1, once its done callback ran.
 * @elapsed:	seconds of this run in the VDs done before @task's.
 * @from_percent: where this run started, for the time left.
 * @before, @share: the VDs below @rec.vd, and @rec.vd, as shares of all VDs' data.
 */
static struct {
	bool loaded;
	struct rcl_soft_patrol_record rec;
	struct rcl_ctrl_settings settings;
	struct rcl_soft_volume *vol;
	int fd;
	struct area area;
	uint64_t area_errors;
	struct rcl_soft_task *task;
	_Atomic uint64_t flushed;
	_Atomic uint64_t media_errors;
	_Atomic int ended;
	double elapsed;
	unsigned from_percent;
	double before, share;
} pr;

/* ------------------------------------------------------------------------
 * The record. */

/*
 * Save @pr.rec, with the media errors the running VD's task has
 * checkpointed (a process killed then resumes with them counted); a failure
 * is logged (the patrol read goes on, its record lags).
 */
static void record_save(unsigned id)
{
	struct rcl_soft_patrol_record saved = pr.rec, *r = &saved;
	json_object *root = json_object_new_object();

	r->media_errors += atomic_load(&pr.media_errors);
	json_object_object_add(root, "format", json_object_new_int(RECORD_FORMAT));
	json_object_object_add(root, "active", json_object_new_boolean(r->active));
	json_object_object_add(root, "paused", json_object_new_boolean(r->paused));
	json_object_object_add(root, "vd", json_object_new_int64(r->vd));
	json_object_object_add(root, "position", json_object_new_int64((int64_t)r->position));
	json_object_object_add(root, "percent", json_object_new_int((int)r->percent));
	json_object_object_add(root, "iterations", json_object_new_int64((int64_t)r->iterations));
	json_object_object_add(root, "since", json_object_new_int64(r->since));
	json_object_object_add(root, "media_errors",
	                       json_object_new_int64((int64_t)r->media_errors));
	json_object_object_add(root, "area", json_object_new_int64(r->area));
	task_record_save(id, RCL_SOFT_PATROL_SUFFIX, root, "the patrol read");
}

/* Whether excludevd= leaves VD @vd out. */
static bool excluded(unsigned vd)
{
	return vd < RCL_MAX_VDS && pr.settings.pr.exclude >> vd & 1;
}

/* ------------------------------------------------------------------------
 * Progress. */

static uint64_t vd_sectors(const struct rcl_soft_vd *vd)
{
	return vd->last_lba + 1 - vd->first_lba;
}

/* Whether the patrol read reads drive @drive: not an SSD that includessds= leaves out. */
static bool reads_drive(const struct rcl_drive *drive)
{
	return pr.settings.pr_ssds == RCL_PR_SSDS_ON || strcmp(drive->medium, "SSD");
}

/*
 * Area @k (from 1) of @ctrl into @out: the unconfigured good drives and the
 * free extents of the online members, in slot order. Return: false past the
 * last one.
 */
static bool find_area(const struct rcl_ctrl *ctrl, unsigned k, struct area *out)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);

	for (size_t i = 0; k && i < state->count && i < ctrl->drive_count; i++) {
		const struct rcl_soft_disk *disk = &state->disks[i];
		const struct rcl_drive *drive = &ctrl->drives[i];
		struct rcl_soft_extent ext[RCL_MAX_VDS_PER_DG + 2];
		size_t n = 0;

		if (!reads_drive(drive))
			continue;
		if (drive->state == RCL_PD_UGOOD && drive->wiped_by == RCL_TASK_NONE)
			ext[n++] = (struct rcl_soft_extent){0, disk->bytes / disk->sector_size};
		else if (drive->state == RCL_PD_ONLINE && disk->dg >= 0 && disk->member >= 0)
			n = rcl_soft_free_extents(&state->cfg, &state->cfg.dgs[disk->dg], ext);
		if (k <= n) {
			*out = (struct area){.path = disk->path,
			                     .slot = disk->slot,
			                     .dg = disk->dg >= 0 ? state->cfg.dgs[disk->dg].id : 0,
			                     .member =
			                         drive->state == RCL_PD_ONLINE ? disk->member : -1,
			                     .first_lba = ext[k - 1].first_lba,
			                     .lbas = ext[k - 1].lbas,
			                     .sector_size = disk->sector_size};
			return true;
		}
		k -= (unsigned)n;
	}
	return false;
}

/* The sectors of areas @first to @last - 1 of @ctrl that the patrol read reads. */
static double areas_size(const struct rcl_ctrl *ctrl, unsigned first, unsigned last)
{
	struct area a;
	double size = 0;

	for (unsigned k = first; pr.settings.pr_uncfg && k < last && find_area(ctrl, k, &a); k++)
		size += (double)a.lbas;
	return size;
}

/*
 * @pr.before and @pr.share for VD @vd, or area @area (from 1) of @ctrl: of
 * all the patrol read reads, excluded VDs left out.
 */
static void weigh(const struct rcl_ctrl *ctrl, unsigned vd, unsigned area)
{
	const struct rcl_soft_config *cfg = &service_soft_state(ctrl)->cfg;
	double before = 0, share = 0, all = areas_size(ctrl, 1, UINT_MAX);

	for (size_t v = 0; v < cfg->vd_count; v++) {
		double size = excluded(cfg->vds[v].id) ? 0 : (double)vd_sectors(&cfg->vds[v]);

		all += size;
		if (area || cfg->vds[v].id < vd)
			before += size;
		else if (cfg->vds[v].id == vd)
			share = size;
	}
	if (area) {
		before += areas_size(ctrl, 1, area);
		share = areas_size(ctrl, area, area + 1);
	}
	pr.before = all > 0 ? before / all : 1;
	pr.share = all > 0 ? share / all : 0;
}

/* The share of all VDs' data read once the running VD is read below @done of @total. */
static double fraction_at(uint64_t done, uint64_t total)
{
	return pr.before + (total ? pr.share * (double)done / (double)total : 0);
}

/* ------------------------------------------------------------------------
 * The task's callbacks (on its thread). */

static void on_checkpoint(void *ctx, const struct rcl_soft_task_progress *p)
{
	(void)ctx;
	atomic_store(&pr.flushed, p->position);
	atomic_store(&pr.media_errors, p->counts.media_errors);
}

static void on_done(void *ctx, const struct rcl_soft_task_progress *p)
{
	on_checkpoint(ctx, p);
	atomic_store(&pr.ended, (int)p->state + 1);
}

/* ------------------------------------------------------------------------
 * Running it, VD by VD. */

/* Free the task and its volume or drive, keeping what it read in the record. */
static void drop_task(void)
{
	struct rcl_soft_task_progress p = {0};

	if (!pr.task)
		return;
	rcl_soft_task_progress(pr.task, &p);
	pr.elapsed += p.elapsed;
	rcl_soft_task_free(pr.task);
	pr.task = NULL;
	atomic_store(&pr.ended, 0); /* its done callback has run */
	if (pr.vol)
		volume_put(pr.vol);
	else
		close(pr.fd);
	pr.vol = NULL;
	pr.rec.media_errors += atomic_load(&pr.media_errors);
	atomic_store(&pr.media_errors, 0);
}

/* The patrol read is over (@done: it read everything): record and log it. */
static void finish(unsigned id, bool done)
{
	drop_task();
	pr.rec.active = false;
	pr.rec.paused = false;
	if (done) {
		pr.rec.iterations++;
		pr.rec.percent = 100;
		service_log("patrol read complete: %llu media errors",
		            (unsigned long long)pr.rec.media_errors);
		tasks_event(RCL_EVENT_PATROL_DONE, "Patrol Read complete (%llu media errors)",
		            (unsigned long long)pr.rec.media_errors);
	} else {
		service_log("patrol read stopped at %u%%", pr.rec.percent);
		tasks_event(RCL_EVENT_PATROL_STOPPED, "Patrol Read stopped at %u%%",
		            pr.rec.percent);
	}
	pr.rec.since = rcl_schedule_now();
	record_save(id);
}

/* Whether disk @disk is an SSD: what show's "Med" says (not "HDD" or "Unknown"). */
static bool is_ssd(const struct rcl_soft_disk *disk)
{
	struct rcl_drive drive = {0};

	rcl_soft_probe(disk->path, disk->sector_size, &drive);
	return !strcmp(drive.medium, "SSD");
}

/*
 * The members of VD @vd's group that includessds= leaves out, into @opts's
 * skip (a volume's members are its group's, in the group's order).
 */
static void skip_ssds(const struct rcl_soft_state *state, const struct rcl_soft_vd *vd,
                      struct rcl_soft_patrol_opts *opts)
{
	uint64_t ssds[sizeof(opts->skip) / sizeof(opts->skip[0])] = {0};
	bool others = false;

	for (size_t i = 0; i < state->count; i++) {
		const struct rcl_soft_disk *disk = &state->disks[i];

		if (disk->dg < 0 || disk->member < 0 || state->cfg.dgs[disk->dg].id != vd->dg)
			continue;
		if (is_ssd(disk))
			ssds[disk->member / 64] |= 1ull << (disk->member % 64);
		else
			others = true;
	}
	if (pr.settings.pr_ssds == RCL_PR_SSDS_OFF ||
	    (pr.settings.pr_ssds == RCL_PR_SSDS_MIXED && !others))
		memcpy(opts->skip, ssds, sizeof(ssds));
}

/*
 * Start the task of the first VD from @pr.rec.vd on that has something
 * left and is not excluded, from @pr.rec.position. Return: false when no
 * VD is left.
 */
static bool run_vds(unsigned id, const struct rcl_ctrl *ctrl)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);

	for (size_t v = 0; v < state->cfg.vd_count; v++) {
		const struct rcl_soft_vd *vd = &state->cfg.vds[v];
		struct rcl_soft_task_params params = {.kind = RCL_SOFT_TASK_PATROL,
		                                      .checkpoint_secs = CHECKPOINT_SECS,
		                                      .checkpoint = on_checkpoint,
		                                      .done = on_done};
		struct rcl_error err = {0};
		bool host_first;

		if (vd->id < pr.rec.vd)
			continue;
		if (vd->id > pr.rec.vd) {
			pr.rec.vd = vd->id;
			pr.rec.position = 0;
		}
		if (excluded(vd->id)) {
			service_log("patrol read skips v%u: excluded (excludevd=)", vd->id);
			pr.rec.vd = vd->id + 1;
			pr.rec.position = 0;
			continue;
		}
		params.from = pr.rec.position;
		params.patrol.max_members = pr.settings.pr_max_drives;
		if (pr.settings.pr_ssds != RCL_PR_SSDS_ON)
			skip_ssds(state, vd, &params.patrol);
		weigh(ctrl, vd->id, 0);
		settings_pace(id, RCL_SETTING_PR_RATE, &params.rate, &host_first);
		atomic_store(&pr.ended, 0);
		atomic_store(&pr.flushed, params.from);
		if (!volume_get(state, vd->id, &pr.vol, &err) &&
		    params.from < rcl_soft_sweep_extent(pr.vol) &&
		    !rcl_soft_task_start(pr.vol, &params, &pr.task, &err))
			return true;
		if (err.status)
			service_log("patrol read skips v%u: %s", vd->id, err.msg);
		if (pr.vol)
			volume_put(pr.vol);
		pr.vol = NULL;
		pr.rec.vd = vd->id + 1;
		pr.rec.position = 0;
	}
	return false;
}

/* Start the scan of area @a of @ctrl from @pr.rec.position. Return: whether it runs. */
static bool scan_area(unsigned id, const struct rcl_ctrl *ctrl, const struct area *a)
{
	struct rcl_soft_task_params params = {.kind = RCL_SOFT_TASK_SCAN,
	                                      .bytes = a->lbas * a->sector_size,
	                                      .offset = a->first_lba * a->sector_size,
	                                      .from = pr.rec.position,
	                                      .checkpoint_secs = CHECKPOINT_SECS,
	                                      .checkpoint = on_checkpoint,
	                                      .done = on_done};
	struct rcl_error err = {0};
	bool host_first;

	params.fd = open(a->path, O_RDONLY | O_CLOEXEC);
	if (params.fd < 0) {
		service_log("patrol read skips /c%u/e%u/s%u: cannot open '%s': %s", id,
		            RCL_SOFT_ENCLOSURE, a->slot, a->path, strerror(errno));
		return false;
	}
	weigh(ctrl, 0, pr.rec.area);
	settings_pace(id, RCL_SETTING_PR_RATE, &params.rate, &host_first);
	atomic_store(&pr.ended, 0);
	atomic_store(&pr.flushed, params.from);
	if (params.from < params.bytes && !rcl_soft_task_start(NULL, &params, &pr.task, &err)) {
		pr.fd = params.fd;
		pr.area = *a;
		pr.area.path = NULL; /* the controller's, which the task outlives */
		return true;
	}
	if (err.status)
		service_log("patrol read skips /c%u/e%u/s%u: %s", id, RCL_SOFT_ENCLOSURE, a->slot,
		            err.msg);
	close(params.fd);
	return false;
}

/*
 * Start the task of the VD (see run_vds()) or, once they are read and with
 * uncfgareas=on, of the area from @pr.rec.area on. Return: false when
 * nothing is left.
 */
static bool run_from(unsigned id, const struct rcl_ctrl *ctrl)
{
	struct area a;

	if (!pr.rec.area && run_vds(id, ctrl))
		return true;
	if (!pr.rec.area) {
		pr.rec.area = 1;
		pr.rec.position = 0;
	}
	for (; pr.settings.pr_uncfg && find_area(ctrl, pr.rec.area, &a); pr.rec.area++) {
		if (scan_area(id, ctrl, &a))
			return true;
		pr.rec.position = 0;
	}
	return false;
}

/* Start a patrol read from the beginning. */
static void start_new(unsigned id, const struct rcl_ctrl *ctrl, const char *why)
{
	pr.rec = (struct rcl_soft_patrol_record){
	    .active = true, .iterations = pr.rec.iterations, .since = pr.rec.since};
	pr.elapsed = 0;
	pr.from_percent = 0;
	service_log("patrol read started (%s)", why);
	tasks_event(RCL_EVENT_PATROL_STARTED, "Patrol Read started (%s)", why);
	if (!run_from(id, ctrl))
		finish(id, true);
	else
		record_save(id);
}

/* At the process's start: go on with a patrol read the last one left. */
static void resume_recorded(unsigned id, struct rcl_ctrl *ctrl)
{
	pr.from_percent = pr.rec.percent;
	service_log("resuming the patrol read from v%u at %u%%", pr.rec.vd, pr.rec.percent);
	if (!run_from(id, ctrl))
		finish(id, true);
	else if (pr.rec.paused)
		rcl_soft_task_pause(pr.task);
}

/*
 * The scan of @pr.area found reads failing: its drive is treated as a VD's
 * patrol read treats its member's (failed through a volume of its group),
 * or, unconfigured, reported.
 */
static void area_failed(unsigned id, const struct rcl_ctrl *ctrl)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	const struct area *a = &pr.area;
	unsigned long long n = pr.area_errors;

	if (a->member < 0) {
		/* Its count was raised already, with the controller open exclusive. */
		service_log("patrol read: %llu media errors on unconfigured drive /c%u/e%u/s%u", n,
		            id, RCL_SOFT_ENCLOSURE, a->slot);
		tasks_event(
		    RCL_EVENT_PATROL_MEDIA_ERROR,
		    "Patrol Read found %llu media errors on unconfigured drive /c%u/e%u/s%u", n, id,
		    RCL_SOFT_ENCLOSURE, a->slot);
		return;
	}
	service_log("patrol read: %llu media errors in the free space of member %d of DG %u", n,
	            a->member, a->dg);
	for (size_t v = 0; v < state->cfg.vd_count; v++) {
		struct rcl_soft_volume *vol;
		struct rcl_error err = {0};

		if (state->cfg.vds[v].dg != a->dg)
			continue;
		if (volume_get(state, state->cfg.vds[v].id, &vol, &err)) {
			service_log("cannot fail member %d of DG %u: %s", a->member, a->dg,
			            err.msg);
			continue;
		}
		(void)rcl_soft_volume_member_error(vol, (unsigned)a->member, EIO);
		volume_put(vol);
		return;
	}
}

/* Raise the media error count of @pr.area's unconfigured drive by @pr.area_errors. */
static void count_media_errors(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;
	enum rcl_status st = service_open_ctrl(id, RCL_LOCK_EXCLUSIVE, &lib, &ctrl, &err);

	if (!st)
		st =
		    rcl_soft_count_media_errors(ctrl, pr.area.slot, (unsigned)pr.area_errors, &err);
	if (st)
		service_log("cannot count the media errors of /c%u/e%u/s%u: %s", id,
		            RCL_SOFT_ENCLOSURE, pr.area.slot, err.msg);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
}

static void next_vd(unsigned id, struct rcl_ctrl *ctrl)
{
	if (pr.rec.area && pr.area_errors)
		area_failed(id, ctrl);
	pr.area_errors = 0;
	if (pr.rec.area)
		pr.rec.area++;
	else
		pr.rec.vd++;
	pr.rec.position = 0;
	if (!run_from(id, ctrl))
		finish(id, true);
	else
		record_save(id);
}

static void start_auto(unsigned id, struct rcl_ctrl *ctrl)
{
	start_new(id, ctrl, "auto mode");
}

void patrol_poll(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctx *lib = NULL;
	bool first = !pr.loaded;
	enum rcl_status st = service_ctx_new(id, &lib, &err);

	if (!st)
		st = rcl_soft_settings_load(lib, id, &pr.settings, &err);
	if (!st && first)
		st = rcl_soft_patrol_record_load(lib, id, &pr.rec, &err);
	rcl_ctx_free(lib);
	if (st) {
		service_log("cannot read the patrol read's settings or record: %s", err.msg);
		return;
	}
	pr.loaded = true;
	if (pr.task) {
		unsigned rate;
		bool host_first;

		settings_pace(id, RCL_SETTING_PR_RATE, &rate, &host_first);
		rcl_soft_task_set_rate(pr.task, rate, host_first);
	}
	if (pr.settings.pr_mode == RCL_PR_OFF && pr.rec.active) {
		if (pr.task)
			rcl_soft_task_stop(pr.task);
		finish(id, false);
	}
	if (pr.settings.pr_mode == RCL_PR_AUTO && !pr.rec.since) {
		pr.rec.since = rcl_schedule_now();
		record_save(id);
	}
	if (first && pr.rec.active)
		service_with_ctrl(id, "the patrol read", resume_recorded);
}

void patrol_tick(unsigned id)
{
	int ended = atomic_load(&pr.ended);
	uint64_t flushed = atomic_load(&pr.flushed);

	if (ended) {
		pr.rec.position = flushed;
		pr.area_errors = atomic_load(&pr.media_errors);
		drop_task();
		if (ended - 1 == RCL_SOFT_TASK_FAILED && pr.rec.area)
			service_log("the patrol read of area %u failed; going on with the next",
			            pr.rec.area);
		else if (ended - 1 == RCL_SOFT_TASK_FAILED)
			service_log("the patrol read of v%u failed; going on with the next VD",
			            pr.rec.vd);
		if (ended - 1 != RCL_SOFT_TASK_STOPPED && pr.rec.area && pr.area_errors &&
		    pr.area.member < 0)
			count_media_errors(id);
		if (ended - 1 != RCL_SOFT_TASK_STOPPED)
			service_with_ctrl(id, "the patrol read", next_vd);
	} else if (pr.task && flushed != pr.rec.position) {
		struct rcl_soft_task_progress p;

		rcl_soft_task_progress(pr.task, &p);
		pr.rec.position = flushed;
		pr.rec.percent = (unsigned)(fraction_at(flushed, p.total) * 100);
		record_save(id);
	}
	if (pr.loaded && !pr.rec.active && pr.settings.pr_mode == RCL_PR_AUTO &&
	    rcl_soft_schedule_due(&pr.settings.pr, pr.rec.since))
		service_with_ctrl(id, "the patrol read", start_auto);
}

bool patrol_busy(void)
{
	return pr.task || atomic_load(&pr.ended) ||
	       (pr.loaded && !pr.rec.active && pr.settings.pr_mode == RCL_PR_AUTO);
}

void patrol_stop_all(unsigned id)
{
	struct rcl_soft_task_progress p;

	if (!pr.task)
		return;
	rcl_soft_task_stop(pr.task);
	rcl_soft_task_wait(pr.task, &p);
	/* Not the user's stop: the record stays active, for the next process to resume. */
	pr.rec.position = atomic_load(&pr.flushed);
	pr.rec.percent = (unsigned)(fraction_at(pr.rec.position, p.total) * 100);
	drop_task();
	record_save(id);
}

/* ------------------------------------------------------------------------
 * The commands' side. */

static enum rcl_status refuse(struct rcl_error *err, unsigned id, const char *what)
{
	return rcl_fail(err, RCL_NOT_ALLOWED, "/c%u: %s", id, what);
}

/* Refuse "start patrolread" on controller @id with settings @s and record @rec. */
static enum rcl_status start_refusal(unsigned id, const struct rcl_ctrl_settings *s,
                                     const struct rcl_soft_patrol_record *rec,
                                     struct rcl_error *err)
{
	if (s->pr_mode == RCL_PR_OFF)
		return refuse(err, id,
		              "patrol reads are off; turn them on with: set patrolread=on");
	if (rec->active)
		return refuse(err, id,
		              rec->paused ? "the patrol read is paused: resume it"
		                          : "a patrol read is in progress already");
	return RCL_OK;
}

/*
 * The settings and record of controller @id into @s and @rec: the
 * process's own (*@here) or, outside it, the saved ones.
 */
static enum rcl_status current(struct rcl_ctx *lib, unsigned id, struct rcl_ctrl_settings *s,
                               struct rcl_soft_patrol_record *rec, bool *here,
                               struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	*here = service_self(id) && pr.loaded;
	*s = pr.settings;
	*rec = pr.rec;
	if (!*here)
		st = rcl_soft_settings_load(lib, id, s, err);
	if (!*here && !st)
		st = rcl_soft_patrol_record_load(lib, id, rec, err);
	return st;
}

enum rcl_status patrol_check_start(struct rcl_ctx *lib, struct rcl_ctrl *ctrl,
                                   struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl);
	struct rcl_ctrl_settings s;
	struct rcl_soft_patrol_record rec;
	bool here;

	if (current(lib, id, &s, &rec, &here, err))
		return err->status;
	return start_refusal(id, &s, &rec, err);
}

/* Where the patrol read stands, for rcl_task_refuse(). */
static enum rcl_task_now standing(void)
{
	if (!pr.rec.active || !pr.task)
		return RCL_TASK_NOW_NONE;
	return pr.rec.paused ? RCL_TASK_NOW_PAUSED : RCL_TASK_NOW_RUNNING;
}

enum rcl_status patrol_control(struct rcl_ctrl *ctrl, enum rcl_task_action action,
                               struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl);

	if (!service_self(id) || !service_soft_state(ctrl))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "patrol reads run in the controller process of /c%u, which is not "
		                "running; start it with: raidcli /c%u serve",
		                id, id);
	switch (action) {
	case RCL_TASK_ACTION_START:
		if (start_refusal(id, &pr.settings, &pr.rec, err))
			return err->status;
		start_new(id, ctrl, "by the user");
		return RCL_OK;
	case RCL_TASK_ACTION_STOP:
		if (!pr.rec.active)
			break;
		if (pr.task) {
			struct rcl_soft_task_progress p;

			rcl_soft_task_stop(pr.task);
			rcl_soft_task_wait(pr.task, &p);
			pr.rec.position = atomic_load(&pr.flushed);
			pr.rec.percent = (unsigned)(fraction_at(pr.rec.position, p.total) * 100);
		}
		finish(id, false);
		return RCL_OK;
	case RCL_TASK_ACTION_PAUSE:
		if (!pr.task || pr.rec.paused)
			break;
		rcl_soft_task_pause(pr.task);
		pr.rec.paused = true;
		record_save(id);
		return RCL_OK;
	case RCL_TASK_ACTION_RESUME:
		if (!pr.task || !pr.rec.paused)
			break;
		rcl_soft_task_resume(pr.task);
		pr.rec.paused = false;
		record_save(id);
		return RCL_OK;
	}
	return rcl_task_refuse(
	    ctrl, &(struct rcl_task_request){.kind = RCL_TASK_PATROL_READ, .action = action},
	    standing(), err);
}

/* The time left of the running patrol read, in seconds; -1 when unknown. */
static double time_left(void)
{
	struct rcl_soft_task_progress p;
	double now, done;

	if (!pr.task || pr.rec.paused)
		return -1;
	rcl_soft_task_progress(pr.task, &p);
	now = fraction_at(p.position, p.total) * 100;
	done = now - pr.from_percent;
	return done > 0 ? (pr.elapsed + p.elapsed) * (100 - now) / done : -1;
}

void patrol_progress(const struct rcl_ctrl *ctrl, struct rcl_task_progress *out)
{
	struct rcl_soft_patrol_record rec = pr.rec;
	struct rcl_soft_task_progress p;

	if (!service_self(rcl_ctrl_id(ctrl))) {
		/* The record has one under way: it resumes when the process starts. */
		struct rcl_error err = {0};

		if (!rcl_soft_patrol_record_load(ctrl->ctx, rcl_ctrl_id(ctrl), &rec, &err) &&
		    rec.active) {
			out->state = RCL_TASK_STATE_HALTED;
			out->percent = (int)rec.percent;
		}
		return;
	}
	if (!pr.task)
		return;
	rcl_soft_task_progress(pr.task, &p);
	out->state = rec.paused ? RCL_TASK_STATE_PAUSED : RCL_TASK_STATE_RUNNING;
	out->percent = (int)(fraction_at(p.position, p.total) * 100);
	out->elapsed = pr.elapsed + p.elapsed;
	out->remaining = time_left();
	/* Past the VDs, in the unconfigured areas: on none. */
	out->vd = rec.area ? -1 : (int)rec.vd;
	out->vd_percent = rec.area ? -1 : (int)p.percent;
}

bool patrol_live_status(unsigned id, struct rcl_patrol_status *out)
{
	struct rcl_soft_patrol_record rec = pr.rec;

	if (!service_self(id) || !pr.loaded)
		return false;
	if (pr.task) {
		struct rcl_soft_task_progress p;

		rcl_soft_task_progress(pr.task, &p);
		rec.percent = (unsigned)(fraction_at(p.position, p.total) * 100);
		rec.media_errors += p.counts.media_errors;
	}
	rcl_soft_patrol_status(&pr.settings, &rec, true, out);
	out->time_left = time_left();
	return true;
}
