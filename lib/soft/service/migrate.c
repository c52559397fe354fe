// SPDX-License-Identifier: MIT
/*
 * migrate.c - the controller process's migrations (see migrate.h).
 *
 * The thread only steps the volume (whose checkpoints are durable before
 * a step returns) and stores where it stands in atomics; the loop's
 * thread makes every configuration change, as for the other tasks.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "export.h"
#include "migrate.h"
#include "service.h"
#include "settings.h"
#include "soft/tasks/migrate.h"
#include "soft/tasks/task.h"
#include "soft/engine/volume.h"
#include "tasks.h"

/* How a migration's thread ended. */
enum {
	RUNNING,
	COPIED, /* every row is in the new geometry: the end is to be recorded */
	STOPPED,
	FAILED,
};

/**
 * struct migration - one VD's migration in this process.
 * @halted:	it failed: not restarted until the process starts again.
 * @failed:	a step failed (not: it could not start).
 * @first, @first_at: the rows done after this run's first step, and when
 *		(CLOCK_MONOTONIC ns), for the time left.
 */
struct migration {
	unsigned vd;
	struct rcl_soft_volume *vol;
	pthread_t thread;
	bool joined;
	bool halted;
	bool failed;
	bool resumed;
	atomic_bool stop;
	atomic_int ended;
	atomic_int error;
	atomic_uint rate;
	_Atomic uint64_t done;
	_Atomic uint64_t total;
	_Atomic uint64_t first;
	_Atomic uint64_t first_at;
};

static struct migration migrations[RCL_MAX_VDS];
static size_t migration_count;

static const struct rcl_soft_state *state_of(const struct rcl_ctrl *ctrl)
{
	return service_soft_state(ctrl);
}

static struct migration *find(unsigned vd)
{
	for (size_t i = 0; i < migration_count; i++)
		if (migrations[i].vd == vd)
			return &migrations[i];
	return NULL;
}

bool migration_running(unsigned vd)
{
	struct migration *m = find(vd);

	return m && !m->joined;
}

/*
 * The migrations' rests end early when one is told to stop or the rate
 * changes: a member failing, a configuration change or SIGTERM then waits
 * for a step at most, not for a rest of up to 5 s.
 */
static pthread_mutex_t rest_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rest_over = PTHREAD_COND_INITIALIZER;

/* Wake every migration resting. */
static void end_rests(void)
{
	pthread_mutex_lock(&rest_lock);
	pthread_cond_broadcast(&rest_over);
	pthread_mutex_unlock(&rest_lock);
}

/* Rest after a step of @took seconds as task.h paces, 5 s at most. */
static void pace(struct migration *m, double took)
{
	unsigned rate = atomic_load(&m->rate);
	double wait = rcl_soft_pace_rest(took, rate);
	uint64_t until = rcl_clock_ns(CLOCK_MONOTONIC) + (uint64_t)((wait > 5 ? 5 : wait) * 1e9);
	struct timespec ts = {.tv_sec = (time_t)(until / 1000000000u),
	                      .tv_nsec = (long)(until % 1000000000u)};

	pthread_mutex_lock(&rest_lock);
	while (wait > 0 && !atomic_load(&m->stop) && atomic_load(&m->rate) == rate &&
	       rcl_clock_ns(CLOCK_MONOTONIC) < until)
		pthread_cond_clockwait(&rest_over, &rest_lock, CLOCK_MONOTONIC, &ts);
	pthread_mutex_unlock(&rest_lock);
}

static void *run(void *arg)
{
	struct migration *m = arg;
	int e = 1;

	while (e > 0 && !atomic_load(&m->stop)) {
		uint64_t done = 0, total = 0, t0 = rcl_clock_ns(CLOCK_MONOTONIC);

		e = rcl_soft_volume_migrate_step(m->vol, &done, &total);
		atomic_store(&m->done, done);
		atomic_store(&m->total, total);
		if (!atomic_load(&m->first_at)) {
			atomic_store(&m->first, done);
			atomic_store(&m->first_at, rcl_clock_ns(CLOCK_MONOTONIC));
		}
		if (e > 0)
			pace(m, (double)(rcl_clock_ns(CLOCK_MONOTONIC) - t0) / 1e9);
	}
	atomic_store(&m->error, e < 0 ? -e : 0);
	atomic_store(&m->ended, e == 0 ? COPIED : e < 0 ? FAILED : STOPPED);
	/* Wake the loop, which records the end. */
	exports_wake();
	return NULL;
}

/* Start (@resumed: at the process's start, go on with) VD @vd's migration. */
static void start_one(unsigned id, const struct rcl_soft_state *state, unsigned vd, bool resumed)
{
	struct migration *m = find(vd);
	struct rcl_error err = {0};
	bool host_first;
	unsigned rate;

	if (m && (!m->joined || m->halted))
		return;
	/* One held (migration_hold()) goes on as it started: resumed or not. */
	resumed |= m && m->resumed;
	if (!m)
		m = &migrations[migration_count++];
	*m = (struct migration){.vd = vd, .joined = true, .resumed = resumed};
	if (volume_get(state, vd, &m->vol, &err)) {
		service_log("cannot resume the migration of v%u: %s", vd, err.msg);
		m->halted = true;
		return;
	}
	settings_pace(id, RCL_SETTING_RECON_RATE, &rate, &host_first);
	atomic_store(&m->rate, rate);
	m->joined = pthread_create(&m->thread, NULL, run, m) != 0;
	if (m->joined) {
		service_log("cannot start the migration of v%u: no thread", vd);
		volume_put(m->vol);
		m->halted = true;
		return;
	}
	service_log("migration of v%u running", vd);
}

void migrations_poll(unsigned id, struct rcl_ctrl *ctrl)
{
	/* A migration the record has when the process starts was cut short. */
	static bool polled;
	const struct rcl_soft_config *cfg = &state_of(ctrl)->cfg;

	for (size_t v = 0; v < cfg->vd_count; v++) {
		const struct rcl_soft_dg *dg = rcl_soft_config_dg(cfg, cfg->vds[v].dg);

		if (dg && dg->migrate.active)
			start_one(id, state_of(ctrl), cfg->vds[v].id, !polled);
	}
	polled = true;
}

void migrations_pace(unsigned id)
{
	unsigned rate;
	bool host_first;

	settings_pace(id, RCL_SETTING_RECON_RATE, &rate, &host_first);
	for (size_t i = 0; i < migration_count; i++)
		atomic_store(&migrations[i].rate, rate);
	end_rests();
}

bool migrations_busy(void)
{
	for (size_t i = 0; i < migration_count; i++)
		if (!migrations[i].joined)
			return true;
	return false;
}

/* Join @m's thread and let its volume go. Return: how it ended. */
static int join(struct migration *m)
{
	int ended = atomic_load(&m->ended);

	if (m->joined)
		return ended;
	pthread_join(m->thread, NULL);
	m->joined = true;
	volume_put(m->vol);
	m->vol = NULL;
	return ended;
}

void migration_hold(unsigned vd)
{
	struct migration *m = find(vd);

	if (!m || m->joined)
		return;
	atomic_store(&m->stop, true);
	end_rests();
	/* Copied or failed meanwhile: the next run says so again at once, and the tick acts. */
	join(m);
	service_log("migration of v%u held for a change of its members", vd);
}

/* Record the end of @m's copy: the VD takes its new geometry. */
static void finish(unsigned id, struct migration *m)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;

	if (service_open_ctrl(id, RCL_LOCK_EXCLUSIVE, &lib, &ctrl, &err) ||
	    rcl_soft_migrate_finish(ctrl, m->vd, &err)) {
		service_log("cannot record the end of the migration of v%u: %s", m->vd, err.msg);
		m->halted = true;
	} else {
		service_log("migration of v%u complete", m->vd);
		(void)rcl_event_record(ctrl, RCL_EVENT_MIGRATION_DONE, NULL,
		                       "Reconstruction complete on VD %02u", m->vd);
		m->total = 0;
		/* Host writes a crash cut short left parity to check, and the end cleared their
		 * bits. */
		if (m->resumed)
			tasks_resync_due(m->vd);
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
}

/* Why a migration's step failed, from its errno. */
static const char *failure(int error)
{
	return error == ENXIO ? "it lost more drives than its old or new RAID level survives"
	                      : strerror(error);
}

static void failed(unsigned id, struct migration *m)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *lib = NULL;
	const char *why = failure(atomic_load(&m->error));

	m->halted = m->failed = true;
	service_log("the migration of v%u failed: %s", m->vd, why);
	if (!service_open_ctrl(id, RCL_LOCK_EXCLUSIVE, &lib, &ctrl, &err))
		(void)rcl_event_record(ctrl, RCL_EVENT_MIGRATION_FAILED, NULL,
		                       "Reconstruction of VD %02u failed: %s", m->vd, why);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(lib);
}

void migrations_tick(unsigned id)
{
	bool refresh = false;

	for (size_t i = 0; i < migration_count; i++) {
		struct migration *m = &migrations[i];
		int ended = m->joined ? RUNNING : atomic_load(&m->ended);

		if (ended == RUNNING)
			continue;
		join(m);
		if (ended == COPIED) {
			finish(id, m);
			refresh = true;
		} else if (ended == FAILED) {
			failed(id, m);
		}
	}
	if (refresh)
		exports_refresh(id);
}

void migrations_stop_all(void)
{
	for (size_t i = 0; i < migration_count; i++)
		atomic_store(&migrations[i].stop, true);
	end_rests();
	for (size_t i = 0; i < migration_count; i++)
		join(&migrations[i]);
	/* Their checkpoints are on the members: the next start resumes them. */
	migration_count = 0;
}

/* ------------------------------------------------------------------------
 * The commands' side. */

enum rcl_status migrate_start(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err)
{
	unsigned id = rcl_ctrl_id(ctrl), vd = req->vd;
	enum rcl_raid_level level = req->level;
	enum rcl_status st;

	if (!service_self(id) || !state_of(ctrl))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "migrations run in the controller process of /c%u, which is not "
		                "running; start it with: raidcli /c%u serve",
		                id, id);
	st = rcl_soft_migrate_start(ctrl, req, tasks_running_on(ctrl, vd), err);
	if (st)
		return st;
	service_log("migration of v%u to %s started", vd, rcl_raid_level_name(level));
	(void)rcl_event_record(ctrl, RCL_EVENT_MIGRATION_STARTED, NULL,
	                       "Reconstruction of VD %02u to %s started", vd,
	                       rcl_raid_level_name(level));
	return RCL_OK;
}

enum rcl_status migrate_check_start(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err)
{
	if (!state_of(ctrl))
		return RCL_OK; /* not a soft controller: migrate_start() refuses it */
	return rcl_soft_migrate_check(ctrl, req, err);
}

bool migration_recorded(const struct rcl_ctrl *ctrl, unsigned vd)
{
	const struct rcl_soft_config *cfg = state_of(ctrl) ? &state_of(ctrl)->cfg : NULL;
	const struct rcl_soft_vd *v = cfg ? rcl_soft_config_vd(cfg, vd) : NULL;
	const struct rcl_soft_dg *dg = v ? rcl_soft_config_dg(cfg, v->dg) : NULL;

	return dg && dg->migrate.active;
}

void migrate_progress(const struct rcl_ctrl *ctrl, unsigned vd, struct rcl_task_progress *out)
{
	struct migration *m = service_self(rcl_ctrl_id(ctrl)) ? find(vd) : NULL;
	uint64_t done = m ? atomic_load(&m->done) : 0, total = m ? atomic_load(&m->total) : 0;
	bool running = m && !m->joined;
	uint64_t first = m ? atomic_load(&m->first) : 0, at = m ? atomic_load(&m->first_at) : 0;
	double elapsed = at ? (double)(rcl_clock_ns(CLOCK_MONOTONIC) - at) / 1e9 : -1;

	if (!migration_recorded(ctrl, vd))
		return;
	out->state = running          ? RCL_TASK_STATE_RUNNING
	             : m && m->failed ? RCL_TASK_STATE_FAILED
	                              : RCL_TASK_STATE_HALTED;
	if (total)
		out->percent = (int)(done * 100 / total);
	if (running)
		out->elapsed = elapsed;
	if (running && at && done > first)
		out->remaining = elapsed * (double)(total - done) / (double)(done - first);
}
