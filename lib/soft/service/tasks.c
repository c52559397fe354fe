// SPDX-License-Identifier: MIT
/*
 * tasks.c - the controller process's background tasks: rebuilds onto hot
 * spares (see tasks.h).
 *
 * Everything here runs on the process's main loop thread but the tasks'
 * callbacks, which only store where their task stands (atomics) for the
 * loop to record: configuration changes take the controller lock, which
 * is the loop's alone.
 *
 * Over 800 lines: the soft controller's task orchestration, to be split
 * when it moves behind the backend contract (issue 22).
 */
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "erase.h"
#include "export.h"
#include "migrate.h"
#include "cc-schedule.h"
#include "patrol.h"
#include "service.h"
#include "settings.h"
#include "soft/config/spare.h"
#include "soft/config/state.h"
#include "soft/tasks/task.h"
#include "soft/config/vd.h"
#include "soft/engine/volume.h"
#include "tasks.h"

/* How often a rebuild's (or a scheduled check's) flushed position reaches the record, at most. */
#define CHECKPOINT_SECS 3

/**
 * struct rebuild - one member's rebuild, VD by VD.
 * @vds:	the group's VD ids by first LBA; @next is the one running.
 * @task:	the running task on @vol (NULL: between VDs, stopped or failed).
 * @flushed:	the LBA below which the member holds flushed data.
 * @ended:	the task's final state + 1, once its done callback ran.
 * @recorded:	the rebuilt_lba the record has.
 * @halted:	stopped by the user or failed: not restarted by itself.
 * @held:	waiting at VD @vds[@next], degraded and dirty, for its force
 *		(rcl_soft_export_needs_force()): its lost member's strips would be rebuilt from
 *		parity a crash may have left stale.
 */
struct rebuild {
	unsigned dg;
	unsigned member;
	unsigned slot;
	unsigned vds[RCL_MAX_VDS];
	uint64_t vd_sectors[RCL_MAX_VDS];
	uint64_t vd_first[RCL_MAX_VDS];
	size_t vd_count;
	size_t next;
	struct rcl_soft_volume *vol;
	struct rcl_soft_task *task;
	_Atomic uint64_t flushed;
	_Atomic int ended;
	uint64_t recorded;
	bool halted;
	bool held;
};

static struct rebuild *rebuilds[RCL_SOFT_MAX_MEMBERS * RCL_MAX_DGS];
static size_t rebuild_count;

struct vd_check;
static bool reap_checks(void);
static void mark_initialized(unsigned id);
static void release_due(void);
static void stop_checks(void);
static bool checks_running(void);
static struct vd_check *find_check(unsigned vd);
static void forget_deleted_checks(const struct rcl_soft_config *cfg);
static void reap_check(struct vd_check *k);
static void pace_checks(unsigned id);
static enum rcl_status start_check(struct rcl_ctrl *ctrl, unsigned vd, enum rcl_soft_task_kind kind,
                                   bool repair, const struct check_mark *from,
                                   struct rcl_error *err);

static struct soft_ctrl *soft(struct rcl_ctrl *ctrl)
{
	return service_soft_state(ctrl) ? ctrl->priv : NULL;
}

static struct rebuild *find_rebuild(unsigned dg, unsigned member)
{
	for (size_t i = 0; i < rebuild_count; i++)
		if (rebuilds[i]->dg == dg && rebuilds[i]->member == member)
			return rebuilds[i];
	return NULL;
}

/* Drop @r, and its task and volume if it still holds them (a stop that could not record). */
static void forget_rebuild(struct rebuild *r)
{
	if (r->task) {
		rcl_soft_task_free(r->task);
		volume_put(r->vol);
	}
	for (size_t i = 0; i < rebuild_count; i++)
		if (rebuilds[i] == r)
			rebuilds[i] = rebuilds[--rebuild_count];
	free(r);
}

/* ------------------------------------------------------------------------
 * The task's callbacks (on its thread). */

static void on_checkpoint(void *ctx, const struct rcl_soft_task_progress *progress)
{
	struct rebuild *r = ctx;

	atomic_store(&r->flushed, rcl_soft_sweep_lba(r->vol, progress->position));
}

static void on_done(void *ctx, const struct rcl_soft_task_progress *progress)
{
	struct rebuild *r = ctx;

	atomic_store(&r->flushed, rcl_soft_sweep_lba(r->vol, progress->position));
	atomic_store(&r->ended, (int)progress->state + 1);
}

/* ------------------------------------------------------------------------
 * Running a rebuild. */

/* The VDs of group @dg of @cfg, by first LBA, into @r. */
static void plan_vds(struct rebuild *r, const struct rcl_soft_config *cfg)
{
	r->vd_count = 0;
	for (size_t v = 0; v < cfg->vd_count; v++) {
		const struct rcl_soft_vd *vd = &cfg->vds[v];
		size_t at = r->vd_count;

		if (vd->dg != r->dg)
			continue;
		while (at && r->vd_first[at - 1] > vd->first_lba) {
			r->vds[at] = r->vds[at - 1];
			r->vd_first[at] = r->vd_first[at - 1];
			r->vd_sectors[at] = r->vd_sectors[at - 1];
			at--;
		}
		r->vds[at] = vd->id;
		r->vd_first[at] = vd->first_lba;
		r->vd_sectors[at] = vd->last_lba + 1 - vd->first_lba;
		r->vd_count++;
	}
}

/* Whether @r must wait at VD @vd for its force (@r->held; said once in the log). */
static bool wait_for_force(struct rebuild *r, struct rcl_ctrl *ctrl, unsigned vd)
{
	const char *unsafe = rcl_soft_export_waits_for_force(ctrl, vd);
	unsigned id = rcl_ctrl_id(ctrl);

	if (unsafe && !r->held)
		service_log("the rebuild of /c%u/e%u/s%u waits at v%u: it is degraded and %s, and "
		            "its parity may not match its data; 'raidcli /c%u/e%u/s%u start "
		            "rebuild force' or 'raidcli /c%u/v%u start export force' goes on",
		            id, RCL_SOFT_ENCLOSURE, r->slot, vd, unsafe, id, RCL_SOFT_ENCLOSURE,
		            r->slot, id, vd);
	r->held = unsafe != NULL;
	return r->held;
}

/*
 * Start the task of the first VD from @r->next on that is not rebuilt
 * yet. Return: false when none is left; true when one runs, or waits for
 * force, or cannot start (@r halts).
 */
static bool start_next(struct rebuild *r, struct rcl_ctrl *ctrl)
{
	unsigned id = rcl_ctrl_id(ctrl);
	const struct rcl_soft_state *state = soft(ctrl)->state;

	while (r->next < r->vd_count) {
		struct rcl_soft_task_params params = {.kind = RCL_SOFT_TASK_REBUILD,
		                                      .member = r->member,
		                                      .checkpoint_secs = CHECKPOINT_SECS,
		                                      .checkpoint = on_checkpoint,
		                                      .done = on_done,
		                                      .ctx = r};
		struct rcl_error err = {0};
		unsigned vd = r->vds[r->next];
		enum rcl_status st = volume_get(state, vd, &r->vol, &err);

		if (!st) {
			params.from = rcl_soft_sweep_rebuilt(r->vol, r->member);
			if (params.from >= rcl_soft_sweep_extent(r->vol)) {
				volume_put(r->vol);
				r->vol = NULL;
				r->next++;
				continue;
			}
			if (wait_for_force(r, ctrl, vd)) {
				volume_put(r->vol);
				r->vol = NULL;
				return true;
			}
			settings_pace(id, RCL_SETTING_REBUILD_RATE, &params.rate,
			              &params.host_first);
			atomic_store(&r->ended, 0);
			st = rcl_soft_task_start(r->vol, &params, &r->task, &err);
		}
		if (st) {
			service_log("cannot rebuild v%u onto /c%u/e%u/s%u: %s", vd, id,
			            RCL_SOFT_ENCLOSURE, r->slot, err.msg);
			if (r->vol)
				volume_put(r->vol);
			r->vol = NULL;
			r->halted = true;
			return true;
		}
		service_log(
		    "rebuilding v%u onto /c%u/e%u/s%u from %llu%%", vd, id, RCL_SOFT_ENCLOSURE,
		    r->slot,
		    (unsigned long long)(params.from * 100 / rcl_soft_sweep_extent(r->vol)));
		return true;
	}
	return false;
}

static struct rebuild *new_rebuild(const struct rcl_soft_dg *dg, unsigned m,
                                   const struct rcl_soft_config *cfg)
{
	struct rebuild *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->dg = dg->id;
	r->member = m;
	r->slot = dg->members[m].slot;
	r->recorded = dg->members[m].rebuilt_lba;
	atomic_store(&r->flushed, r->recorded);
	plan_vds(r, cfg);
	rebuilds[rebuild_count++] = r;
	return r;
}

/* The first lost member of redundant group @dg with no rebuild under way, or -1. */
static int lost_member(const struct rcl_soft_dg *dg)
{
	int lost = -1;

	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
		if (dg->members[m].state == RCL_SOFT_MEMBER_REBUILD)
			return -1; /* one rebuild at a time per group, as md does */
		if (dg->members[m].state != RCL_SOFT_MEMBER_ONLINE && lost < 0)
			lost = (int)m;
	}
	/* A migrating group's members are rebuilt once the migration has ended. */
	return rcl_raid_span_level(dg->level) == RCL_RAID0 || dg->migrate.active ? -1 : lost;
}

/* Drive @by took the place of the member in slot @old of group @dg_id: log it, and its event. */
static void log_replacement(struct rcl_ctrl *ctrl, const char *what, const struct rcl_drive_ref *by,
                            unsigned old, unsigned dg_id)
{
	unsigned id = rcl_ctrl_id(ctrl);

	service_log("%s /c%u/e%u/s%u replaces /c%u/e%u/s%u in DG %u", what, id, by->enclosure,
	            by->slot, id, RCL_SOFT_ENCLOSURE, old, dg_id);
	(void)rcl_event_record(ctrl, RCL_EVENT_REBUILD_STARTED, NULL,
	                       "Rebuild started on PD %u:%u (replacing %u:%u in DG %u)",
	                       by->enclosure, by->slot, RCL_SOFT_ENCLOSURE, old, dg_id);
}

/* Replace the first member of @dg that lost its data, if a spare can. Return: whether one was. */
static bool replace_one(struct rcl_ctrl *ctrl, const struct rcl_soft_dg *dg)
{
	struct rcl_drive_ref spare;
	struct rcl_error err = {0};
	unsigned dg_id = dg->id, old;
	int m = lost_member(dg);

	if (m < 0)
		return false;
	old = dg->members[m].slot;
	if (rcl_soft_replace_member(ctrl, dg_id, (unsigned)m, NULL, &spare, &err)) {
		if (err.status != RCL_NOT_FOUND)
			service_log("cannot replace member %d of DG %u: %s", m, dg_id, err.msg);
		return false;
	}
	log_replacement(ctrl, "hot spare", &spare, old, dg_id);
	return true;
}

/*
 * Fail the first online member of @dg whose drive the engine's host no
 * longer hands over (host.h: a hot-unplugged NVMe drive no I/O reached
 * since), as md fails a device that left, so a hot spare takes its place.
 * A soft controller's absent image may come back: it stays a missing
 * member. Return: whether one was failed.
 */
static bool fail_unplugged(struct rcl_ctrl *ctrl, const struct rcl_soft_dg *dg)
{
	struct soft_ctrl *sc = soft(ctrl);
	const struct rcl_soft_config *cfg = &sc->state->cfg;
	struct rcl_error err = {0};
	size_t v;

	for (v = 0; v < cfg->vd_count && cfg->vds[v].dg != dg->id; v++)
		;
	for (unsigned m = 0; sc->host && v < cfg->vd_count && m < rcl_soft_dg_members(dg); m++) {
		const struct rcl_soft_disk *disk = rcl_soft_find_member(sc->state, dg, m);
		unsigned slot = dg->members[m].slot, dg_id = dg->id;

		if (dg->members[m].state != RCL_SOFT_MEMBER_ONLINE ||
		    (disk && disk->kind != RCL_SOFT_DISK_ABSENT))
			continue;
		if (rcl_soft_fail_member(ctrl, cfg->vds[v].id, m, &dg->members[m].uuid, &err)) {
			service_log("cannot fail member %u of DG %u, whose drive is gone: %s", m,
			            dg_id, err.msg);
			return false;
		}
		service_log("/c%u/e%u/s%u of DG %u is gone: failed", rcl_ctrl_id(ctrl),
		            RCL_SOFT_ENCLOSURE, slot, dg_id);
		return true;
	}
	return false;
}

/* Put hot spares in the place of lost members. Return: whether the configuration changed. */
static bool replace_members(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;
	bool changed = false, again = true;

	if (service_open_ctrl(id, RCL_LOCK_EXCLUSIVE, &lib, &ctrl, &err)) {
		service_log("cannot look for members to rebuild: %s", err.msg);
		again = false;
	}
	/* Each replacement reloads the configuration: look at it afresh. */
	while (again && soft(ctrl)) {
		const struct rcl_soft_config *cfg = &soft(ctrl)->state->cfg;

		again = false;
		for (size_t d = 0; d < cfg->dg_count && !again; d++)
			again =
			    fail_unplugged(ctrl, &cfg->dgs[d]) || replace_one(ctrl, &cfg->dgs[d]);
		changed |= again;
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
	return changed;
}

/*
 * Forget the halted rebuilds whose drive is no longer the rebuilding
 * member (it failed, or another spare took its place), so the member's
 * next rebuild starts.
 */
static void forget_stale(const struct rcl_soft_config *cfg)
{
	for (size_t i = rebuild_count; i-- > 0;) {
		struct rebuild *r = rebuilds[i];
		const struct rcl_soft_dg *dg = rcl_soft_config_dg(cfg, r->dg);

		if (r->task || atomic_load(&r->ended))
			continue;
		if (!dg || dg->members[r->member].state != RCL_SOFT_MEMBER_REBUILD ||
		    dg->members[r->member].slot != r->slot)
			forget_rebuild(r);
	}
}

/*
 * Whether every member of @vd's group holds its data (no BGI on a degraded VD: see tasks.h),
 * and the VD is not migrating (the migration writes every stripe anew).
 */
static bool vd_whole(const struct rcl_soft_config *cfg, const struct rcl_soft_vd *vd)
{
	const struct rcl_soft_dg *dg = rcl_soft_config_dg(cfg, vd->dg);

	if (!dg || dg->migrate.active)
		return false;
	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++)
		if (dg->members[m].state != RCL_SOFT_MEMBER_ONLINE)
			return false;
	return rcl_raid_span_level(dg->level) != RCL_RAID0;
}

/* Whether VD @vd's write-intent bitmaps had bits set when it opened: a crash left stripes to
 * resync. */
static bool needs_resync(const struct rcl_soft_state *state, unsigned vd)
{
	struct rcl_soft_volume *vol = NULL;
	struct rcl_error err = {0};
	bool dirty;

	if (volume_get(state, vd, &vol, &err)) {
		service_log("cannot read the bitmap of v%u: %s", vd, err.msg);
		return false;
	}
	dirty = rcl_soft_volume_needs_resync(vol);
	volume_put(vol);
	return dirty;
}

bool vd_dirty(const struct rcl_ctrl *ctrl, const struct rcl_vd *vd)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);

	if (!vd->consistent || !state)
		return !vd->consistent;
	/* A resync clears the volume's bits as it goes: what is left is still due. */
	if (service_self(rcl_ctrl_id(ctrl)))
		return needs_resync(state, vd->id);
	/* No process: what one would find on starting, so a show agrees with it. */
	return rcl_soft_vd_left_dirty(state, vd->id);
}

/* The VDs (a bit per id) that tasks_resync_due() named, whose resync has not started yet. */
static uint64_t resync_due;

void tasks_resync_due(unsigned vd)
{
	resync_due |= vd < 64 ? 1ull << vd : 0;
}

/*
 * Start a BGI on each redundant, whole VD with no task of its own yet that
 * is not consistent or, at the process's start (@at_start), that a crash
 * left with bitmap bits set (md's resync), or that tasks_resync_due() named.
 * A VD the crash left degraded too is resynced once it is whole again.
 */
static void start_bgis(struct rcl_ctrl *ctrl, bool at_start)
{
	const struct rcl_soft_state *state = soft(ctrl)->state;
	const struct rcl_soft_config *cfg = &state->cfg;

	for (size_t v = 0; v < cfg->vd_count; v++) {
		const struct rcl_soft_vd *vd = &cfg->vds[v];
		struct rcl_error err = {0};
		bool dirty;

		if (find_check(vd->id) || erase_running(vd->id))
			continue;
		if (!vd_whole(cfg, vd)) {
			if (at_start && vd->consistent && needs_resync(state, vd->id))
				tasks_resync_due(vd->id);
			continue;
		}
		dirty = vd->consistent && ((at_start && needs_resync(state, vd->id)) ||
		                           (resync_due & (1ull << vd->id)));
		resync_due &= ~(1ull << vd->id);
		/* autobgi=off: it waits for "start init"; a crash's resync still runs. */
		if (!dirty && (vd->consistent || vd->no_autobgi))
			continue;
		if (dirty)
			service_log("v%u was not shut down cleanly: resyncing it", vd->id);
		if (start_check(ctrl, vd->id, RCL_SOFT_TASK_BGI, false, NULL, &err))
			service_log("cannot start the BGI of v%u: %s", vd->id, err.msg);
	}
}

void tasks_poll(unsigned id)
{
	static bool started; /* the bitmaps are looked at once, when the process starts */
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;

	if (replace_members(id))
		exports_refresh(id);
	/* A command may have changed the rates. */
	for (size_t i = 0; i < rebuild_count; i++) {
		unsigned rate;
		bool host_first;

		if (!rebuilds[i]->task)
			continue;
		settings_pace(id, RCL_SETTING_REBUILD_RATE, &rate, &host_first);
		rcl_soft_task_set_rate(rebuilds[i]->task, rate, host_first);
	}
	pace_checks(id);
	migrations_pace(id);
	if (service_open_ctrl(id, RCL_LOCK_SHARED, &lib, &ctrl, &err)) {
		service_log("cannot look for members to rebuild: %s", err.msg);
	} else if (soft(ctrl)) {
		const struct rcl_soft_state *state = soft(ctrl)->state;

		forget_stale(&state->cfg);
		forget_deleted_checks(&state->cfg);
		for (size_t d = 0; d < state->cfg.dg_count; d++) {
			const struct rcl_soft_dg *dg = &state->cfg.dgs[d];

			for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
				struct rebuild *r = find_rebuild(dg->id, m);

				/* A rebuild waiting for force goes on once it has it. */
				if (dg->members[m].state != RCL_SOFT_MEMBER_REBUILD ||
				    (r && !(r->held && !r->task)))
					continue;
				r = r ? r : new_rebuild(dg, m, &state->cfg);
				if (r && !start_next(r, ctrl))
					atomic_store(&r->ended, RCL_SOFT_TASK_DONE + 1);
			}
		}
		erases_poll(id, ctrl);
		start_bgis(ctrl, !started);
		migrations_poll(id, ctrl);
		started = true;
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
	patrol_poll(id);
	cc_schedule_poll(id);
}

bool tasks_busy(void)
{
	for (size_t i = 0; i < rebuild_count; i++)
		if (rebuilds[i]->task || atomic_load(&rebuilds[i]->ended))
			return true;
	return checks_running() || patrol_busy() || cc_schedule_busy() || migrations_busy() ||
	       erases_busy();
}

/* Record @r's flushed position (online past the group's end); @ctrl is locked exclusively. */
static bool record(struct rcl_ctrl *ctrl, struct rebuild *r, uint64_t lba)
{
	struct rcl_error err = {0};

	if (lba == r->recorded)
		return true;
	if (rcl_soft_set_rebuilt(ctrl, r->dg, r->member, lba, &err)) {
		service_log("cannot record the rebuild of /c%u/e%u/s%u: %s", rcl_ctrl_id(ctrl),
		            RCL_SOFT_ENCLOSURE, r->slot, err.msg);
		return false;
	}
	r->recorded = lba;
	return true;
}

/* @r's task ended (as @state): move on to the next VD, or finish. Return: whether @r is gone. */
static bool task_ended(struct rcl_ctrl *ctrl, struct rebuild *r, enum rcl_soft_task_state state)
{
	unsigned id = rcl_ctrl_id(ctrl);
	struct rcl_soft_task_progress p = {0};

	atomic_store(&r->ended, 0);
	if (r->task) {
		rcl_soft_task_progress(r->task, &p);
		rcl_soft_task_free(r->task);
		r->task = NULL;
		volume_put(r->vol);
		r->vol = NULL;
	}
	record(ctrl, r, atomic_load(&r->flushed));
	if (state != RCL_SOFT_TASK_DONE) {
		r->halted = true;
		if (state == RCL_SOFT_TASK_FAILED)
			service_log("the rebuild of /c%u/e%u/s%u failed: %s", id,
			            RCL_SOFT_ENCLOSURE, r->slot, strerror(-p.error));
		return false;
	}
	r->next++;
	if (start_next(r, ctrl))
		return false;
	/* Every VD is rebuilt: the member is online. */
	if (!record(ctrl, r, RCL_SOFT_REBUILT_ALL))
		return false;
	service_log("rebuild of /c%u/e%u/s%u complete", id, RCL_SOFT_ENCLOSURE, r->slot);
	(void)rcl_event_record(ctrl, RCL_EVENT_REBUILD_DONE, NULL, "Rebuild complete on PD %u:%u",
	                       RCL_SOFT_ENCLOSURE, r->slot);
	forget_rebuild(r);
	return true;
}

void tasks_tick(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;
	bool refresh = false;

	if (reap_checks())
		mark_initialized(id);
	patrol_tick(id);
	cc_schedule_tick(id);
	tasks_events_flush(id);
	migrations_tick(id);
	erases_tick(id);
	if (!rebuild_count)
		return;
	if (service_open_ctrl(id, RCL_LOCK_EXCLUSIVE, &lib, &ctrl, &err) || !soft(ctrl)) {
		service_log("cannot record the rebuilds: %s", err.msg);
	} else {
		for (size_t i = rebuild_count; i-- > 0;) {
			struct rebuild *r = rebuilds[i];
			int ended = atomic_load(&r->ended);

			if (ended)
				refresh |=
				    task_ended(ctrl, r, (enum rcl_soft_task_state)(ended - 1));
			else if (r->task)
				record(ctrl, r, atomic_load(&r->flushed));
		}
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
	if (refresh)
		exports_refresh(id);
}

void tasks_stop_all(unsigned id)
{
	patrol_stop_all(id);
	stop_checks();
	migrations_stop_all();
	erases_stop_all(id);
	for (size_t i = 0; i < rebuild_count; i++)
		if (rebuilds[i]->task)
			rcl_soft_task_stop(rebuilds[i]->task);
	for (size_t i = 0; i < rebuild_count; i++)
		if (rebuilds[i]->task)
			rcl_soft_task_wait(rebuilds[i]->task, &(struct rcl_soft_task_progress){0});
	tasks_tick(id);
	release_due(); /* what could not be recorded: the next process initializes it again */
	while (rebuild_count)
		forget_rebuild(rebuilds[0]);
}

/* ------------------------------------------------------------------------
 * The commands' side. */

/* The group and member index of drive @ref in @ctrl's configuration, if it is a member. */
static const struct rcl_soft_dg *member_of(const struct rcl_ctrl *ctrl,
                                           const struct rcl_drive_ref *ref, unsigned *m)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	const struct rcl_soft_config *cfg = state ? &state->cfg : NULL;

	for (size_t d = 0; cfg && ref->enclosure == RCL_SOFT_ENCLOSURE && d < cfg->dg_count; d++)
		for (*m = 0; *m < rcl_soft_dg_members(&cfg->dgs[d]); ++*m)
			if (cfg->dgs[d].members[*m].slot == ref->slot &&
			    cfg->dgs[d].members[*m].state != RCL_SOFT_MEMBER_MISSING)
				return &cfg->dgs[d];
	return NULL;
}

/* The share of @r's VD sectors below @lba, in percent. */
static unsigned percent_below(const struct rebuild *r, uint64_t lba)
{
	uint64_t done = 0, total = 0;

	for (size_t k = 0; k < r->vd_count; k++) {
		uint64_t end = r->vd_first[k] + r->vd_sectors[k];

		total += r->vd_sectors[k];
		if (lba >= end)
			done += r->vd_sectors[k];
		else if (lba > r->vd_first[k])
			done += lba - r->vd_first[k];
	}
	return total ? (unsigned)(done * 100 / total) : 100;
}

/* Why @r waits at its next VD for the force (rcl_soft_export_waits_for_force()), or NULL. */
static const char *waits_for_force(const struct rcl_ctrl *ctrl, const struct rebuild *r)
{
	return r->held && !r->task && r->next < r->vd_count
	           ? rcl_soft_export_waits_for_force(ctrl, r->vds[r->next])
	           : NULL;
}

/* The generic state of a rebuild at @p; @waiting: it waits for the force. */
static enum rcl_task_state rebuild_state(const struct rcl_soft_task_progress *p, bool waiting)
{
	if (p->state == RCL_SOFT_TASK_RUNNING)
		return RCL_TASK_STATE_RUNNING;
	if (p->state == RCL_SOFT_TASK_PAUSED)
		return RCL_TASK_STATE_PAUSED;
	return waiting ? RCL_TASK_STATE_WAITING : RCL_TASK_STATE_STOPPED;
}

void rebuild_progress(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                      struct rcl_task_progress *out)
{
	unsigned m = 0;
	const struct rcl_soft_dg *dg = member_of(ctrl, ref, &m);
	bool rebuilding = dg && dg->members[m].state == RCL_SOFT_MEMBER_REBUILD;
	struct rebuild *r =
	    rebuilding && service_self(rcl_ctrl_id(ctrl)) ? find_rebuild(dg->id, m) : NULL;
	struct rcl_soft_task_progress p = {.state = RCL_SOFT_TASK_STOPPED, .remaining = -1};
	struct rebuild planned = {.dg = dg ? dg->id : 0};
	const char *waiting = r ? waits_for_force(ctrl, r) : NULL;

	if (!rebuilding)
		return;
	if (r && r->task) {
		rcl_soft_task_progress(r->task, &p);
		out->elapsed = p.elapsed;
		out->vd = (int)r->vds[r->next];
		out->vd_percent = (int)p.percent;
	}
	if (!r) {
		plan_vds(&planned, &service_soft_state(ctrl)->cfg);
		r = &planned;
	}
	out->percent = (int)percent_below(r, p.state == RCL_SOFT_TASK_STOPPED
	                                         ? dg->members[m].rebuilt_lba
	                                         : rcl_soft_sweep_lba(r->vol, p.position));
	out->state = rebuild_state(&p, waiting);
	out->remaining = p.state == RCL_SOFT_TASK_RUNNING ? p.remaining : -1;
	if (waiting) {
		out->vd = (int)r->vds[r->next];
		snprintf(out->why, sizeof(out->why), "%s", waiting);
	}
}

/* Whether drive @ref of @ctrl is unconfigured good. */
static bool unconfigured_good(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref)
{
	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

		if (d->enclosure == ref->enclosure && d->slot == ref->slot)
			return d->state == RCL_PD_UGOOD;
	}
	return false;
}

/* The first redundant group with a lost member and no rebuild under way, or NULL. */
static const struct rcl_soft_dg *group_with_lost(const struct rcl_soft_config *cfg)
{
	for (size_t d = 0; d < cfg->dg_count; d++)
		if (lost_member(&cfg->dgs[d]) >= 0)
			return &cfg->dgs[d];
	return NULL;
}

static enum rcl_status no_lost_member(const struct rcl_drive_ref *ref, struct rcl_error *err)
{
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "no disk group has a lost member for drive %u:%u to replace (or one is "
	                "being rebuilt already)",
	                ref->enclosure, ref->slot);
}

static enum rcl_status not_rebuilt(unsigned id, const struct rcl_drive_ref *ref,
                                   struct rcl_error *err)
{
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "drive /c%u/e%u/s%u is not being rebuilt (a hot spare takes a lost "
	                "member's place by itself; start rebuild on an unconfigured good "
	                "drive puts it there)",
	                id, ref->enclosure, ref->slot);
}

/*
 * "start rebuild" on unconfigured good drive @ref: it takes the place of the
 * first lost member (offline, failed or missing) of a redundant group with
 * no rebuild under way, as a hot spare would, and is rebuilt from the start.
 */
static enum rcl_status rebuild_onto(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                    struct rcl_error *err)
{
	const struct rcl_soft_dg *dg = group_with_lost(&soft(ctrl)->state->cfg);
	struct rcl_drive_ref taken;
	unsigned dg_id, old;
	int lost;

	if (!dg)
		return no_lost_member(ref, err);
	lost = lost_member(dg);
	dg_id = dg->id;
	old = dg->members[lost].slot;
	if (rcl_soft_replace_member(ctrl, dg_id, (unsigned)lost, ref, &taken, err))
		return err->status;
	log_replacement(ctrl, "drive", ref, old, dg_id);
	return RCL_OK;
}

enum rcl_status rebuild_check_start(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                    struct rcl_error *err)
{
	const struct rcl_soft_state *state = service_soft_state(ctrl);
	unsigned m = 0;
	const struct rcl_soft_dg *dg = member_of(ctrl, ref, &m);

	if (dg && dg->members[m].state == RCL_SOFT_MEMBER_REBUILD)
		return RCL_OK;
	if (dg || !state || !unconfigured_good(ctrl, ref))
		return not_rebuilt(rcl_ctrl_id(ctrl), ref, err);
	return group_with_lost(&state->cfg) ? RCL_OK : no_lost_member(ref, err);
}

/* "start rebuild": with @force, of the VDs of @r degraded and dirty too. */
static enum rcl_status start_rebuild(struct rcl_ctrl *ctrl, struct rebuild *r, bool force,
                                     struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl);

	for (size_t k = 0; force && k < r->vd_count; k++)
		if (rcl_soft_export_waits_for_force(ctrl, r->vds[k]))
			export_force(r->vds[k]);
	r->halted = false;
	if (!start_next(r, ctrl))
		atomic_store(&r->ended, RCL_SOFT_TASK_DONE + 1);
	if (r->held)
		return rcl_fail(err, RCL_NEED_FORCE,
		                "the rebuild of /c%u/e%u/s%u waits at /c%u/v%u: it is degraded and "
		                "%s, so its parity may not match its data (the write hole) and the "
		                "lost member's strips may be rebuilt wrong; repeat with 'force' to "
		                "rebuild it anyway",
		                id, RCL_SOFT_ENCLOSURE, r->slot, id, r->vds[r->next],
		                rcl_soft_export_waits_for_force(ctrl, r->vds[r->next]));
	return r->halted ? rcl_fail(err, RCL_SYSTEM,
	                            "the rebuild could not start; see the controller process's log")
	                 : RCL_OK;
}

/* Where a task that stands as @p does stands, for rcl_task_refuse(): ended is none. */
static enum rcl_task_now standing(const struct rcl_soft_task_progress *p)
{
	if (p->state == RCL_SOFT_TASK_RUNNING)
		return RCL_TASK_NOW_RUNNING;
	return p->state == RCL_SOFT_TASK_PAUSED ? RCL_TASK_NOW_PAUSED : RCL_TASK_NOW_NONE;
}

enum rcl_status rebuild_control(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                enum rcl_task_action action, bool force, struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl), m = 0;
	const struct rcl_soft_dg *dg = member_of(ctrl, ref, &m);
	struct rebuild *r = NULL;
	struct rcl_soft_task_progress p = {.state = RCL_SOFT_TASK_STOPPED};

	if (action == RCL_TASK_ACTION_START && !dg && service_self(id) && soft(ctrl) &&
	    unconfigured_good(ctrl, ref))
		return rebuild_onto(ctrl, ref, err);
	if (!dg || dg->members[m].state != RCL_SOFT_MEMBER_REBUILD)
		return not_rebuilt(id, ref, err);
	if (!service_self(id))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "rebuilds run in the controller process of /c%u, which is not "
		                "running; start it with: raidcli /c%u serve",
		                id, id);
	r = find_rebuild(dg->id, m);
	if (!r)
		r = new_rebuild(dg, m, &soft(ctrl)->state->cfg);
	if (!r)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (r->task)
		rcl_soft_task_progress(r->task, &p);
	switch (action) {
	case RCL_TASK_ACTION_START:
		if (r->task)
			return rcl_fail(err, RCL_NOT_ALLOWED, "the rebuild of /c%u/e%u/s%u is %s",
			                id, ref->enclosure, ref->slot,
			                p.state == RCL_SOFT_TASK_PAUSED ? "paused: resume it"
			                                                : "in progress already");
		return start_rebuild(ctrl, r, force, err);
	case RCL_TASK_ACTION_STOP:
		if (!r->task)
			break;
		rcl_soft_task_stop(r->task);
		rcl_soft_task_wait(r->task, &p);
		task_ended(ctrl, r, RCL_SOFT_TASK_STOPPED);
		return RCL_OK;
	case RCL_TASK_ACTION_PAUSE:
		if (p.state != RCL_SOFT_TASK_RUNNING)
			break;
		rcl_soft_task_pause(r->task);
		return RCL_OK;
	case RCL_TASK_ACTION_RESUME:
		if (p.state != RCL_SOFT_TASK_PAUSED)
			break;
		rcl_soft_task_resume(r->task);
		return RCL_OK;
	}
	return rcl_task_refuse(
	    ctrl,
	    &(struct rcl_task_request){.kind = RCL_TASK_REBUILD, .action = action, .drive = *ref},
	    standing(&p), err);
}

/* ------------------------------------------------------------------------
 * Consistency checks: one per VD, run until done or stopped; the last
 * run's result stays for "show cc" until the process exits. */

/**
 * struct vd_check - VD @vd's consistency check.
 * @uuid:	the md array UUID of the VD that @vd named: a deleted VD's id
 *		is given to the next one created, which must not inherit
 *		its result (nor miss its own BGI because of it).
 * @bytes:	the VD's capacity then: one that grew since is another
 *		VD to check (and to initialize, not consistent any more).
 * @task:	running or paused (NULL once ended).
 * @last:	where it stood when it ended (@ended set).
 * @carried:	the mismatches a run a restart cut short found below where
 *		this one started (check_start_at()).
 * @mark:	its last checkpoint, under @marks_lock; kept by the checks
 *		check_start_at() starts only.
 */
struct vd_check {
	unsigned vd;
	uint8_t uuid[16];
	uint64_t bytes;
	enum rcl_soft_task_kind kind;
	bool repair;
	struct rcl_soft_volume *vol; /* while @task runs */
	struct rcl_soft_task *task;
	_Atomic bool ended;
	struct rcl_soft_task_progress last;
	uint64_t carried;
	struct check_mark mark;
};

static struct vd_check checks[RCL_MAX_VDS];
static size_t check_count;
/* The checks' checkpoints: written on their tasks' threads, read on the loop's. */
static pthread_mutex_t marks_lock = PTHREAD_MUTEX_INITIALIZER;

/* A slot whose check was forgotten (forget_deleted_checks()). */
#define NO_VD UINT_MAX

/**
 * struct consistent_due - a VD whose init or BGI finished, not yet recorded
 * as consistent (mark_initialized() does, on the loop's next tick, under an
 * exclusive lock the command or poll that reaped it may not hold). Kept
 * apart from the check's slot, which a new check of the VD (start_check())
 * or the process's stop (stop_checks()) takes before that tick.
 * @uuid:	the VD's md array UUID: one deleted meanwhile, its id given to
 *		another, is not recorded.
 * @vol:	held open until then: closed, the volume marks its arrays clean,
 *		which only the record's consistent flag makes true.
 */
struct consistent_due {
	unsigned vd;
	uint8_t uuid[16];
	struct rcl_soft_volume *vol;
};

static struct consistent_due due[RCL_MAX_VDS];
static size_t due_count;

static struct vd_check *find_check(unsigned vd)
{
	for (size_t i = 0; i < check_count; i++)
		if (checks[i].vd == vd)
			return &checks[i];
	return NULL;
}

/* An ended check of a VD that is gone, whose id a new VD took, or that grew, is forgotten. */
static void forget_deleted_checks(const struct rcl_soft_config *cfg)
{
	for (size_t i = 0; i < check_count; i++) {
		struct vd_check *k = &checks[i];
		const struct rcl_soft_vd *vd = rcl_soft_config_vd(cfg, k->vd);

		if (k->vd != NO_VD && !k->task &&
		    (!vd || memcmp(vd->uuid, k->uuid, sizeof(k->uuid)) || vd->bytes != k->bytes))
			k->vd = NO_VD;
	}
}

static const char *operation_name(enum rcl_soft_task_kind kind)
{
	return kind == RCL_SOFT_TASK_INIT ? "INIT" : kind == RCL_SOFT_TASK_BGI ? "BGI" : "CC";
}

/* The public kind of check, init or BGI @kind, as rcl_task_refuse() names it. */
static enum rcl_task_kind public_kind(enum rcl_soft_task_kind kind)
{
	return kind == RCL_SOFT_TASK_INIT  ? RCL_TASK_INIT
	       : kind == RCL_SOFT_TASK_BGI ? RCL_TASK_BGI
	                                   : RCL_TASK_CC;
}

static const char *task_noun(enum rcl_soft_task_kind kind)
{
	return kind == RCL_SOFT_TASK_INIT  ? "initialization"
	       : kind == RCL_SOFT_TASK_BGI ? "background initialization"
	                                   : "consistency check";
}

static void on_check_checkpoint(void *ctx, const struct rcl_soft_task_progress *progress)
{
	struct vd_check *k = ctx;

	pthread_mutex_lock(&marks_lock);
	k->mark = (struct check_mark){progress->position, k->carried + progress->counts.mismatches};
	pthread_mutex_unlock(&marks_lock);
}

static void on_check_done(void *ctx, const struct rcl_soft_task_progress *progress)
{
	struct vd_check *k = ctx;

	k->last = *progress;
	k->last.counts.mismatches += k->carried;
	atomic_store(&k->ended, true);
}

/* Why a check, init or BGI failed, from the sweep's errno (sweep.h). */
static const char *task_failure(int error)
{
	return error == -ENXIO ? "failed: a member cannot be used (the VD is degraded)" : "failed";
}

/* Note @k's VD as due to be recorded consistent; its volume goes with the note. */
static void add_due(struct vd_check *k)
{
	struct consistent_due *d = due;

	while (d < due + due_count && d->vd != k->vd)
		d++;
	/* One id is due once: an entry of a VD deleted meanwhile gives way. */
	if (d < due + due_count)
		volume_put(d->vol);
	else
		due_count++;
	*d = (struct consistent_due){.vd = k->vd, .vol = k->vol};
	memcpy(d->uuid, k->uuid, sizeof(d->uuid));
	k->vol = NULL;
}

/* Close the volumes of the due entries and forget them. */
static void release_due(void)
{
	for (size_t i = 0; i < due_count; i++)
		volume_put(due[i].vol);
	due_count = 0;
}

/* Free @k's ended task and its volume; its result stays. */
static void reap_check(struct vd_check *k)
{
	if (!k->task || !atomic_load(&k->ended))
		return;
	rcl_soft_task_free(k->task);
	k->task = NULL;
	/* A full init zeroed the VD, a BGI rewrote its parity or copies: either way they agree. */
	if (k->kind != RCL_SOFT_TASK_CHECK && k->last.state == RCL_SOFT_TASK_DONE)
		add_due(k);
	else
		volume_put(k->vol);
	k->vol = NULL;
	service_log("the %s of v%u ended: %s, %llu mismatches, %llu MiB swept per member",
	            operation_name(k->kind), k->vd,
	            k->last.state == RCL_SOFT_TASK_DONE     ? "done"
	            : k->last.state == RCL_SOFT_TASK_FAILED ? task_failure(k->last.error)
	                                                    : "stopped",
	            (unsigned long long)k->last.counts.mismatches,
	            (unsigned long long)(k->last.swept >> 20));
	if (k->kind != RCL_SOFT_TASK_BGI)
		return;
	if (k->last.state == RCL_SOFT_TASK_DONE)
		tasks_event(RCL_EVENT_BGI_DONE, "Background Initialization complete on VD %u",
		            k->vd);
	else
		tasks_event(RCL_EVENT_BGI_STOPPED, "Background Initialization %s on VD %u at %u%%",
		            k->last.state == RCL_SOFT_TASK_FAILED ? "failed" : "stopped", k->vd,
		            k->last.percent);
}

/*
 * A BGI of a consistent VD is the resync after a crash (start_bgis()): of
 * the regions the bitmap had set only, whose bits each checkpoint clears.
 */
static void resync_params(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_soft_task_params *params)
{
	const struct rcl_soft_vd *v = rcl_soft_config_vd(&soft(ctrl)->state->cfg, vd);

	if (params->kind == RCL_SOFT_TASK_BGI && v && v->consistent) {
		params->dirty_only = true;
		params->checkpoint_secs = CHECKPOINT_SECS;
	}
}

/* @from: where a check that keeps checkpoints starts (check_start_at()); NULL: at 0, none. */
static enum rcl_status start_check(struct rcl_ctrl *ctrl, unsigned vd, enum rcl_soft_task_kind kind,
                                   bool repair, const struct check_mark *from,
                                   struct rcl_error *err)
{
	struct vd_check *k = find_check(vd);
	const struct rcl_soft_vd *one = rcl_soft_config_vd(&soft(ctrl)->state->cfg, vd);
	struct rcl_soft_task_params params = {
	    .kind = kind, .repair = repair, .done = on_check_done};
	bool host_first;
	enum rcl_status st;

	/*
	 * The user's check or init takes the place of the BGI the process
	 * started by itself; but only a repairing check or an init takes a
	 * crash's resync's (the BGI of a VD made consistent once): a check that
	 * only counts would leave the dirty regions' parity stale.
	 */
	if (k && k->task && k->kind == RCL_SOFT_TASK_BGI && kind != RCL_SOFT_TASK_BGI &&
	    (!one || !one->consistent || repair || kind == RCL_SOFT_TASK_INIT)) {
		rcl_soft_task_stop(k->task);
		rcl_soft_task_wait(k->task, &(struct rcl_soft_task_progress){0});
		reap_check(k);
	}
	if (migration_running(vd))
		return rcl_fail(err, RCL_NOT_ALLOWED, "/c%u/v%u is migrating", rcl_ctrl_id(ctrl),
		                vd);
	if (erase_running(vd))
		return rcl_fail(err, RCL_NOT_ALLOWED, "/c%u/v%u is being erased", rcl_ctrl_id(ctrl),
		                vd);
	if (k && k->task)
		return rcl_fail(err, RCL_NOT_ALLOWED, "a %s of /c%u/v%u is %s already",
		                task_noun(k->kind), rcl_ctrl_id(ctrl), vd,
		                atomic_load(&k->ended) ? "ending" : "in progress");
	if (!one)
		return rcl_fail(err, RCL_NOT_FOUND, "/c%u/v%u does not exist", rcl_ctrl_id(ctrl),
		                vd);
	if (!k)
		k = find_check(NO_VD);
	if (!k)
		k = &checks[check_count++];
	*k = (struct vd_check){.vd = vd, .bytes = one->bytes, .kind = kind, .repair = repair};
	memcpy(k->uuid, one->uuid, sizeof(k->uuid));
	params.ctx = k;
	if (from) {
		k->carried = from->mismatches;
		k->mark = *from;
		params.from = from->position;
		params.checkpoint = on_check_checkpoint;
		params.checkpoint_secs = CHECKPOINT_SECS;
	}
	settings_pace(rcl_ctrl_id(ctrl),
	              kind == RCL_SOFT_TASK_CHECK ? RCL_SETTING_CC_RATE : RCL_SETTING_BGI_RATE,
	              &params.rate, &host_first);
	resync_params(ctrl, vd, &params);
	st = volume_get(soft(ctrl)->state, vd, &k->vol, err);
	if (!st)
		st = rcl_soft_task_start(k->vol, &params, &k->task, err);
	if (st) {
		volume_put(k->vol);
		k->vol = NULL; /* the slot's next check must not put it again */
		k->vd = NO_VD; /* another slot may hold a running task's context: none moves */
		if (st == RCL_UNSUPPORTED)
			return rcl_fail(
			    err, RCL_UNSUPPORTED, "/c%u/v%u has no redundancy to check (%s)",
			    rcl_ctrl_id(ctrl), vd,
			    rcl_raid_level_name(
			        rcl_soft_config_dg(&soft(ctrl)->state->cfg, one->dg)->level));
		return st;
	}
	service_log("%s of v%u started%s", operation_name(kind), vd, repair ? " (repairing)" : "");
	if (kind == RCL_SOFT_TASK_BGI)
		tasks_event(RCL_EVENT_BGI_STARTED, "Background Initialization started on VD %u",
		            vd);
	return RCL_OK;
}

enum rcl_status check_control(struct rcl_ctrl *ctrl, unsigned vd, enum rcl_soft_task_kind kind,
                              enum rcl_task_action action, bool repair, struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl);
	struct vd_check *k;
	struct rcl_soft_task_progress p = {.state = RCL_SOFT_TASK_STOPPED};

	if (!service_self(id) || !soft(ctrl))
		return rcl_fail(
		    err, RCL_NOT_ALLOWED,
		    "consistency checks run in the controller process of /c%u, which is "
		    "not running; start it with: raidcli /c%u serve",
		    id, id);
	k = find_check(vd);
	if (k)
		reap_check(k);
	if (action == RCL_TASK_ACTION_START)
		return start_check(ctrl, vd, kind, repair, NULL, err);
	if (k && k->kind != kind)
		k = NULL;
	if (k && k->task)
		rcl_soft_task_progress(k->task, &p);
	if (action == RCL_TASK_ACTION_STOP && k && k->task) {
		rcl_soft_task_stop(k->task);
		rcl_soft_task_wait(k->task, &p);
		reap_check(k);
		return RCL_OK;
	}
	if (action == RCL_TASK_ACTION_PAUSE && p.state == RCL_SOFT_TASK_RUNNING) {
		rcl_soft_task_pause(k->task);
		return RCL_OK;
	}
	if (action == RCL_TASK_ACTION_RESUME && p.state == RCL_SOFT_TASK_PAUSED) {
		rcl_soft_task_resume(k->task);
		return RCL_OK;
	}
	return rcl_task_refuse(
	    ctrl, &(struct rcl_task_request){.kind = public_kind(kind), .action = action, .vd = vd},
	    standing(&p), err);
}

enum rcl_status check_start_at(struct rcl_ctrl *ctrl, unsigned vd, const struct check_mark *from,
                               struct rcl_error *err)
{
	struct vd_check *k = find_check(vd);

	if (k)
		reap_check(k);
	return start_check(ctrl, vd, RCL_SOFT_TASK_CHECK, false, from, err);
}

bool check_checkpoint(unsigned vd, struct check_mark *mark)
{
	struct vd_check *k = find_check(vd);

	if (!k || !k->task || k->kind != RCL_SOFT_TASK_CHECK)
		return false;
	pthread_mutex_lock(&marks_lock);
	*mark = k->mark;
	pthread_mutex_unlock(&marks_lock);
	return true;
}

bool check_finished(unsigned vd, bool *done)
{
	struct vd_check *k = find_check(vd);

	if (k)
		reap_check(k);
	if (k && k->task)
		return false;
	*done = k && k->kind == RCL_SOFT_TASK_CHECK && k->last.state == RCL_SOFT_TASK_DONE;
	return true;
}

void check_progress(const struct rcl_ctrl *ctrl, unsigned vd, enum rcl_soft_task_kind kind,
                    struct rcl_task_progress *out)
{
	struct vd_check *k = service_self(rcl_ctrl_id(ctrl)) ? find_check(vd) : NULL;
	struct rcl_soft_task_progress p = {.state = RCL_SOFT_TASK_STOPPED, .remaining = -1};

	if (k)
		reap_check(k);
	if (k && k->kind != kind)
		k = NULL;
	if (k && k->task) {
		rcl_soft_task_progress(k->task, &p);
		p.counts.mismatches += k->carried;
		out->state = p.state == RCL_SOFT_TASK_PAUSED ? RCL_TASK_STATE_PAUSED
		                                             : RCL_TASK_STATE_RUNNING;
		out->percent = (int)p.percent;
		out->elapsed = p.elapsed;
		out->remaining = p.state == RCL_SOFT_TASK_RUNNING ? p.remaining : -1;
	} else if (k) {
		p = k->last;
	}
	out->ran = k != NULL;
	out->mismatches = k ? p.counts.mismatches : 0;
	out->repair = k && k->repair;
}

/* Reap the ended checks and inits. Return: whether a VD is due to be recorded consistent. */
static bool reap_checks(void)
{
	for (size_t i = 0; i < check_count; i++)
		reap_check(&checks[i]);
	return due_count;
}

/* Record due VD @d as consistent, if it is still the VD whose init or BGI finished. */
static void record_due(struct rcl_ctrl *ctrl, const struct consistent_due *d)
{
	const struct rcl_soft_vd *vd = rcl_soft_config_vd(&soft(ctrl)->state->cfg, d->vd);
	struct rcl_error err = {0};

	if (!vd || memcmp(vd->uuid, d->uuid, sizeof(d->uuid)))
		service_log("v%u was deleted since its initialization ended: not recorded", d->vd);
	else if (rcl_soft_set_consistent(ctrl, d->vd, &err))
		service_log("cannot record v%u as consistent: %s", d->vd, err.msg);
	else
		service_log("v%u is initialized: consistent", d->vd);
}

/* Record the VDs whose init or BGI finished as consistent; failing to open, on the next tick. */
static void mark_initialized(unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;

	if (service_open_ctrl(id, RCL_LOCK_EXCLUSIVE, &lib, &ctrl, &err) || !soft(ctrl)) {
		service_log("cannot record an initialization: %s", err.msg);
		rcl_ctrl_close(ctrl);
		rcl_ctx_free(lib);
		return;
	}
	for (size_t i = 0; i < due_count; i++)
		record_due(ctrl, &due[i]);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
	/* Their volumes take the record, then close: md finds the arrays clean, not active. */
	exports_refresh(id);
	release_due();
}

/*
 * Stop the checks, inits and BGIs. One that finished first is reaped, so
 * that tasks_stop_all() records its result before the process goes.
 */
static void stop_checks(void)
{
	for (size_t i = 0; i < check_count; i++)
		if (checks[i].task)
			rcl_soft_task_stop(checks[i].task);
	for (size_t i = 0; i < check_count; i++) {
		struct vd_check *k = &checks[i];

		if (k->task)
			rcl_soft_task_wait(k->task, &(struct rcl_soft_task_progress){0});
		if (k->task && k->last.state == RCL_SOFT_TASK_DONE)
			reap_check(k);
		rcl_soft_task_free(k->task);
		if (k->vol)
			volume_put(k->vol);
	}
	check_count = 0;
}

static bool checks_running(void)
{
	for (size_t i = 0; i < check_count; i++)
		if (checks[i].task)
			return true;
	return false;
}

/* A command may have changed the rates: the running checks, inits and BGIs take them. */
static void pace_checks(unsigned id)
{
	for (size_t i = 0; i < check_count; i++) {
		unsigned rate;
		bool host_first;

		if (!checks[i].task)
			continue;
		settings_pace(id,
		              checks[i].kind == RCL_SOFT_TASK_CHECK ? RCL_SETTING_CC_RATE
		                                                    : RCL_SETTING_BGI_RATE,
		              &rate, &host_first);
		rcl_soft_task_set_rate(checks[i].task, rate, host_first);
	}
}

bool tasks_running_on(struct rcl_ctrl *ctrl, unsigned vd)
{
	const struct rcl_soft_vd *v = rcl_soft_config_vd(&soft(ctrl)->state->cfg, vd);
	struct vd_check *k = find_check(vd);

	if (k)
		reap_check(k);
	if ((k && k->task) || migration_running(vd) || erase_running(vd))
		return true;
	for (size_t i = 0; v && i < rebuild_count; i++)
		if (rebuilds[i]->dg == v->dg && rebuilds[i]->task)
			return true;
	return false;
}
