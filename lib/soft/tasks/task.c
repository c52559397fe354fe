// SPDX-License-Identifier: MIT
/*
 * task.c - background tasks (see task.h): a thread that runs one sweep
 * over a VD a step at a time, paced by its rate, pausable and stoppable
 * between steps, reporting progress and checkpoints.
 *
 * Every wait (the rate's sleep, a host-first yield, a pause) is a wait on
 * the task's condition variable, so pause, stop and rate changes wake it
 * at once.
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "task.h"
#include "sweep-private.h"

/* Host-first: how long one yield waits, and the most waited before a step. */
#define YIELD_NS   (20 * 1000000L)
#define MAX_YIELDS 50
/* A wipe's step: a drive has no stripes to follow. */
#define WIPE_STEP (1u << 20) /* and a scan's */

struct rcl_soft_task {
	struct rcl_soft_volume *vol; /* NULL for a wipe or a scan */
	struct rcl_soft_task_params p;
	pthread_t thread;
	bool joined;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	/* Under @lock: the requests, and what progress shows. */
	bool pause, stop;
	unsigned rate;
	bool host_first;
	struct rcl_soft_task_progress now;
	double started, paused_at, paused_for;
	/* The thread's own. */
	uint64_t step;
	uint64_t host_seen;
	unsigned steps_since_checkpoint;
	double last_checkpoint;
};

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait on @t->wake (with @t->lock held) until @until (monotonic seconds) or a wake-up. */
static void wait_until(struct rcl_soft_task *t, double until)
{
	struct timespec ts = {.tv_sec = (time_t)until,
	                      .tv_nsec = (long)((until - (double)(time_t)until) * 1e9)};

	pthread_cond_timedwait(&t->wake, &t->lock, &ts);
}

/* The progress as of now; @t->lock held. */
static void snapshot(struct rcl_soft_task *t, struct rcl_soft_task_progress *out)
{
	struct rcl_soft_task_progress *p = &t->now;
	double end = p->state == RCL_SOFT_TASK_RUNNING ? monotonic() : t->paused_at;
	uint64_t done = p->position - t->p.from;

	p->elapsed = end - t->started - t->paused_for;
	p->percent = p->total ? (unsigned)(p->position * 100 / p->total) : 100;
	p->remaining = done ? p->elapsed * (double)(p->total - p->position) / (double)done : -1;
	*out = *p;
	/*
	 * A pause or resume asked for is what everyone sees at once: the task
	 * honours it before its next step, and a step under load may take a
	 * while ("pause rebuild" then "show rebuild" must say Paused).
	 */
	if (p->state == RCL_SOFT_TASK_RUNNING && t->pause && !t->stop)
		out->state = RCL_SOFT_TASK_PAUSED;
	else if (p->state == RCL_SOFT_TASK_PAUSED && !t->pause)
		out->state = RCL_SOFT_TASK_RUNNING;
}

/*
 * Call @fn with the progress now, without the lock, once what the task
 * wrote is durable: the owner may store the position as done.
 */
static void report(struct rcl_soft_task *t,
                   void (*fn)(void *ctx, const struct rcl_soft_task_progress *progress))
{
	struct rcl_soft_task_progress p;

	/* The flush also clears the bitmap bits of the regions a resync has done. */
	if (t->p.kind == RCL_SOFT_TASK_WIPE)
		fdatasync(t->p.fd);
	else if (t->vol && t->p.kind != RCL_SOFT_TASK_PATROL)
		rcl_soft_volume_sync(t->vol);
	pthread_mutex_lock(&t->lock);
	snapshot(t, &p);
	pthread_mutex_unlock(&t->lock);
	if (fn)
		fn(t->p.ctx, &p);
	t->steps_since_checkpoint = 0;
	t->last_checkpoint = monotonic();
}

/* Hold while paused (checkpointing once). Return: whether to run another step. */
static bool next(struct rcl_soft_task *t)
{
	bool paused = false, more;

	pthread_mutex_lock(&t->lock);
	while (t->pause && !t->stop) {
		if (!paused) {
			t->now.state = RCL_SOFT_TASK_PAUSED;
			t->paused_at = monotonic();
			pthread_mutex_unlock(&t->lock);
			report(t, t->p.checkpoint);
			pthread_mutex_lock(&t->lock);
			paused = true;
			continue;
		}
		pthread_cond_wait(&t->wake, &t->lock);
	}
	if (paused) {
		t->paused_for += monotonic() - t->paused_at;
		t->now.state = RCL_SOFT_TASK_RUNNING;
	}
	more = !t->stop && t->now.position < t->now.total;
	pthread_mutex_unlock(&t->lock);
	return more;
}

/* Host requests in flight, or begun since the task last looked. */
static bool host_busy(struct rcl_soft_task *t)
{
	uint64_t started = t->vol ? atomic_load(&t->vol->host_started) : 0;
	bool busy =
	    t->vol && (started != atomic_load(&t->vol->host_done) || started != t->host_seen);

	t->host_seen = started;
	return busy;
}

/* @rate as a pace has it: 1-100, 0 counting as 1. */
static unsigned pace_rate(unsigned rate)
{
	return rate ? (rate < 100 ? rate : 100) : 1;
}

double rcl_soft_pace_rest(double took, unsigned rate)
{
	rate = pace_rate(rate);
	return took * (100 - rate) / rate;
}

/*
 * The rest the rate gives after a step that took @took seconds, spent
 * before the next one. Host-first, it is spent waiting for host requests
 * to drain; at rate 100, which gives no rest, host-first may still wait,
 * up to a second. Either way the step then starts.
 */
static void rest(struct rcl_soft_task *t, double took)
{
	double owed, until;

	pthread_mutex_lock(&t->lock);
	owed = rcl_soft_pace_rest(took, t->rate);
	if (t->host_first && t->rate == 100)
		owed = MAX_YIELDS * YIELD_NS / 1e9;
	until = monotonic() + owed;
	while (t->host_first && !t->pause && !t->stop && monotonic() < until && host_busy(t)) {
		t->now.yields++;
		wait_until(t, monotonic() + YIELD_NS / 1e9 < until ? monotonic() + YIELD_NS / 1e9
		                                                   : until);
	}
	if (t->rate < 100 && !t->pause && !t->stop && monotonic() < until) {
		t->now.sleeps++;
		wait_until(t, until);
	}
	pthread_mutex_unlock(&t->lock);
}

static int sweep(struct rcl_soft_task *t, uint64_t from, uint64_t to,
                 struct rcl_soft_sweep_counts *counts)
{
	switch (t->p.kind) {
	case RCL_SOFT_TASK_REBUILD:
		return rcl_soft_rebuild_range(t->vol, t->p.member, from, to);
	case RCL_SOFT_TASK_CHECK:
		return rcl_soft_check_range(t->vol, from, to, t->p.repair, counts);
	case RCL_SOFT_TASK_BGI:
		return rcl_soft_check_range(t->vol, from, to, true, counts);
	case RCL_SOFT_TASK_INIT:
		return rcl_soft_init_range(t->vol, from, to);
	case RCL_SOFT_TASK_PATROL:
		return rcl_soft_patrol_range(t->vol, from, to, &t->p.patrol, counts);
	case RCL_SOFT_TASK_ERASE:
		return rcl_soft_erase_range(t->vol, from, to, t->p.pattern);
	case RCL_SOFT_TASK_WIPE:
		return rcl_soft_wipe_range(t->p.fd, t->p.offset + from, t->p.offset + to,
		                           t->p.pattern);
	case RCL_SOFT_TASK_SCAN:
		return rcl_soft_scan_range(t->p.fd, t->p.offset + from, t->p.offset + to, counts);
	}
	return -EINVAL;
}

/*
 * Where the next step goes: [*@from, *@to) from the position on, a step
 * long at most; a dirty-only resync's skips the clean regions and stops at
 * the end of a dirty one (*@from = *@to = the extent: none is left).
 */
static void next_range(struct rcl_soft_task *t, uint64_t *from, uint64_t *to)
{
	uint64_t total = t->now.total, end = total, first;

	*from = t->now.position;
	if (t->p.dirty_only) {
		if (!rcl_soft_sweep_dirty(t->vol, *from, &first, &end))
			first = end = total;
		*from = first > *from ? first : *from;
	}
	*to = end - *from < t->step ? end : *from + t->step;
}

/* One step from the position on. Return: 0 or the sweep's error. */
static int step(struct rcl_soft_task *t)
{
	uint64_t from, to, total = t->now.total;
	struct rcl_soft_sweep_counts counts = {0};
	double began = monotonic(), took;
	int rc;

	next_range(t, &from, &to);
	rc = from < to ? sweep(t, from, to, &counts) : 0;

	took = monotonic() - began;
	/* Its own requests (full init and erase write through the volume) are not the host's. */
	t->host_seen = t->vol ? atomic_load(&t->vol->host_started) : 0;
	pthread_mutex_lock(&t->lock);
	t->now.counts.mismatches += counts.mismatches;
	t->now.counts.media_errors += counts.media_errors;
	t->now.busy += took;
	if (!rc) {
		t->now.position = to;
		t->now.swept += to - from;
	}
	pthread_mutex_unlock(&t->lock);
	if (rc)
		return rc;
	/* Repaired or zeroed with its parity: a crash's bits there are done with. */
	if (t->p.kind == RCL_SOFT_TASK_BGI || t->p.kind == RCL_SOFT_TASK_INIT ||
	    t->p.kind == RCL_SOFT_TASK_ERASE || (t->p.kind == RCL_SOFT_TASK_CHECK && t->p.repair))
		rcl_soft_sweep_resynced(t->vol, t->p.from, from, to);
	t->steps_since_checkpoint++;
	if ((t->p.checkpoint_steps && t->steps_since_checkpoint >= t->p.checkpoint_steps) ||
	    (t->p.checkpoint_secs && monotonic() - t->last_checkpoint >= t->p.checkpoint_secs))
		report(t, t->p.checkpoint);
	if (to < total)
		rest(t, took);
	return 0;
}

static void *run(void *arg)
{
	struct rcl_soft_task *t = arg;
	int rc = 0;

	while (!rc && next(t))
		rc = step(t);
	pthread_mutex_lock(&t->lock);
	t->paused_at = monotonic();
	t->now.error = rc;
	t->now.state = rc                               ? RCL_SOFT_TASK_FAILED
	               : t->now.position < t->now.total ? RCL_SOFT_TASK_STOPPED
	                                                : RCL_SOFT_TASK_DONE;
	pthread_mutex_unlock(&t->lock);
	report(t, t->p.done);
	return NULL;
}

/* Whether the VD's level can run @kind. */
static bool level_has(const struct rcl_soft_volume *vol, enum rcl_soft_task_kind kind)
{
	bool redundant = vol->geo.arrays[0].level != RCL_MD_LEVEL_RAID0;

	return redundant || kind == RCL_SOFT_TASK_INIT || kind == RCL_SOFT_TASK_PATROL ||
	       kind == RCL_SOFT_TASK_ERASE;
}

static enum rcl_status check_params(struct rcl_soft_volume *vol,
                                    const struct rcl_soft_task_params *p, struct rcl_error *err)
{
	uint64_t extent, rebuilt;
	bool rebuilding;

	if (!vol)
		return p->from <= p->bytes
		           ? RCL_OK
		           : rcl_fail(err, RCL_INVALID_PARAM,
		                      "cannot start at %llu: the drive ends at %llu",
		                      (unsigned long long)p->from, (unsigned long long)p->bytes);
	extent = rcl_soft_sweep_extent(vol);
	if (!level_has(vol, p->kind))
		return rcl_fail(err, RCL_UNSUPPORTED,
		                "virtual drive /v%u has no redundancy to rebuild or check",
		                vol->vd);
	if (rcl_soft_sweep_valid(vol, p->from, extent))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "cannot start at %llu: not a multiple of %llu up to %llu",
		                (unsigned long long)p->from,
		                (unsigned long long)rcl_soft_sweep_unit(vol),
		                (unsigned long long)extent);
	if (p->kind != RCL_SOFT_TASK_REBUILD)
		return RCL_OK;
	if (p->member >= vol->member_count)
		return rcl_fail(err, RCL_INVALID_PARAM, "virtual drive /v%u has no member %u",
		                vol->vd, p->member);
	pthread_rwlock_rdlock(&vol->lock);
	rebuilding = vol->members[p->member].state == RCL_SOFT_MEMBER_REBUILD;
	rebuilt = rcl_soft_sweep_rebuilt(vol, p->member);
	pthread_rwlock_unlock(&vol->lock);
	if (!rebuilding)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "member %u of virtual drive /v%u is not rebuilding", p->member,
		                vol->vd);
	if (p->from > rebuilt)
		return rcl_fail(
		    err, RCL_NOT_ALLOWED,
		    "member %u of virtual drive /v%u holds data below %llu only, not %llu",
		    p->member, vol->vd, (unsigned long long)rebuilt, (unsigned long long)p->from);
	return RCL_OK;
}

static void task_release(struct rcl_soft_task *t)
{
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	rcl_free(t);
}

enum rcl_status rcl_soft_task_start(struct rcl_soft_volume *vol,
                                    const struct rcl_soft_task_params *params,
                                    struct rcl_soft_task **out, struct rcl_error *err)
{
	enum rcl_status st = check_params(vol, params, err);
	struct rcl_soft_task *t;
	pthread_condattr_t attr;
	int rc;

	if (st)
		return st;
	t = rcl_calloc(1, sizeof(*t));
	if (!t)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	t->vol = vol;
	t->p = *params;
	t->rate = pace_rate(params->rate);
	t->host_first = params->host_first;
	t->step = vol ? rcl_soft_sweep_step(vol) : WIPE_STEP;
	t->now = (struct rcl_soft_task_progress){.kind = params->kind,
	                                         .member = params->member,
	                                         .position = params->from,
	                                         .total = vol ? rcl_soft_sweep_extent(vol)
	                                                      : params->bytes};
	t->started = t->last_checkpoint = monotonic();
	t->host_seen = vol ? atomic_load(&vol->host_started) : 0;
	pthread_mutex_init(&t->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&t->wake, &attr);
	pthread_condattr_destroy(&attr);
	/* Set first: the task's callbacks may look for it. */
	*out = t;
	rc = pthread_create(&t->thread, NULL, run, t);
	if (rc) {
		*out = NULL;
		task_release(t);
		return rcl_fail_errno(err, RCL_SYSTEM, rc, "cannot start a background task");
	}
	return RCL_OK;
}

/* Set a request under the lock and wake the task. */
static void request(struct rcl_soft_task *task, bool *flag, bool value)
{
	pthread_mutex_lock(&task->lock);
	*flag = value;
	pthread_cond_broadcast(&task->wake);
	pthread_mutex_unlock(&task->lock);
}

void rcl_soft_task_pause(struct rcl_soft_task *task)
{
	request(task, &task->pause, true);
}

void rcl_soft_task_resume(struct rcl_soft_task *task)
{
	request(task, &task->pause, false);
}

void rcl_soft_task_stop(struct rcl_soft_task *task)
{
	request(task, &task->stop, true);
}

void rcl_soft_task_set_rate(struct rcl_soft_task *task, unsigned rate, bool host_first)
{
	pthread_mutex_lock(&task->lock);
	task->rate = pace_rate(rate);
	task->host_first = host_first;
	pthread_cond_broadcast(&task->wake);
	pthread_mutex_unlock(&task->lock);
}

void rcl_soft_task_progress(struct rcl_soft_task *task, struct rcl_soft_task_progress *out)
{
	pthread_mutex_lock(&task->lock);
	snapshot(task, out);
	pthread_mutex_unlock(&task->lock);
}

void rcl_soft_task_wait(struct rcl_soft_task *task, struct rcl_soft_task_progress *out)
{
	if (!task->joined)
		pthread_join(task->thread, NULL);
	task->joined = true;
	rcl_soft_task_progress(task, out);
}

void rcl_soft_task_free(struct rcl_soft_task *task)
{
	struct rcl_soft_task_progress ignored;

	if (!task)
		return;
	rcl_soft_task_stop(task);
	rcl_soft_task_wait(task, &ignored);
	task_release(task);
}
