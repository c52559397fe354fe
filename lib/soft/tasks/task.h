/* SPDX-License-Identifier: MIT */
/*
 * task.h - a soft controller's background task: one of the sweeps of
 * sweep.h (rebuild, consistency check, background or full init, patrol
 * read) run over a whole VD, in a thread of its own, a step at a time;
 * or a wipe, which writes a byte over the whole of an unconfigured drive
 * (its positions are the drive's bytes; it has no host requests to yield to);
 * or a scan, the patrol read of an area no VD covers (an unconfigured
 * drive, a member's free space): its positions are the area's bytes.
 *
 * Positions are sweep.h's: bytes of each member's data area, from 0 to
 * the extent. A task starts at a given position (0, or a checkpoint) and
 * goes up to the extent unless stopped or failed; everything below its
 * position is done.
 *
 * Pace: @rate is StorCLI's rebuildrate, ccrate, bgirate or prrate, the
 * share of the time (1-100 %) the task works: after each step it rests as
 * long as the step took times (100 - rate) / rate, so 100 runs flat out
 * and 25 works a quarter of the time (progress's @busy over @elapsed).
 * With @host_first it spends that rest waiting for host requests in
 * flight, or begun since its last step, to drain (md's yielding above
 * speed_limit_min), sleeping the remainder: the rate holds under a steady
 * host load too. At rate 100 (no rest) host-first still waits for them,
 * for at most a second before each step.
 *
 * A BGI with @dirty_only is md's bitmap-based resync after a crash: it
 * sweeps only the regions the write-intent bitmap had set when the volume
 * opened (rcl_soft_sweep_dirty()), skipping over the rest, and each
 * checkpoint's flush clears the bits of the regions it has done on the
 * members: the bitmap itself is the resync's checkpoint, so a resync
 * killed half-way resumes at the next open with what is left.
 *
 * Persisting progress (the owner's job): every @checkpoint_steps steps or
 * @checkpoint_secs seconds, whichever comes first, and when the task
 * pauses, what the task wrote is flushed to the members and @checkpoint is
 * called; @done once at the end, after the same flush, with the final
 * position (stopped, failed or finished). So a stored position never runs
 * ahead of the data on them. For a rebuild, the owner stores
 * rcl_soft_sweep_lba(vol, position) as the member's rebuilt_lba (and sets
 * the member online once the rebuild of every VD of its group is done);
 * for the others, the position itself, to start the task from it again.
 * Both callbacks run on the task's thread, without its lock: they may call
 * rcl_soft_task_pause(), _stop(), _progress() and rcl_soft_volume_update(),
 * but not rcl_soft_task_wait() or _free().
 */
#ifndef RCL_SOFT_TASK_H
#define RCL_SOFT_TASK_H

#include "internal.h"
#include "sweep.h"

struct rcl_soft_volume;
struct rcl_soft_task;

enum rcl_soft_task_kind {
	RCL_SOFT_TASK_REBUILD, /* member @member's data from the others */
	RCL_SOFT_TASK_CHECK,   /* consistency check; @repair rewrites what differs */
	RCL_SOFT_TASK_BGI,     /* background init: md's resync, a check that repairs */
	RCL_SOFT_TASK_INIT,    /* full init: zeros with matching parity */
	RCL_SOFT_TASK_PATROL,  /* patrol read */
	RCL_SOFT_TASK_ERASE,   /* one erase pass: @pattern with matching parity */
	RCL_SOFT_TASK_WIPE,    /* one pass of @pattern over drive @fd, no volume */
	RCL_SOFT_TASK_SCAN,    /* patrol read of an area of drive @fd, no volume */
};

enum rcl_soft_task_state {
	RCL_SOFT_TASK_RUNNING,
	RCL_SOFT_TASK_PAUSED,
	RCL_SOFT_TASK_STOPPED, /* by rcl_soft_task_stop() */
	RCL_SOFT_TASK_DONE,    /* reached the extent */
	RCL_SOFT_TASK_FAILED,  /* @error says why */
};

/**
 * struct rcl_soft_task_progress - where a task stands.
 * @position:	everything below it is done.
 * @total:	the extent: where the task ends.
 * @percent:	@position of @total, rounded down.
 * @elapsed:	seconds since it started, pauses left out.
 * @remaining:	seconds left at the pace of this run so far; -1 before
 *		the first step.
 * @counts:	what the sweep found (mismatches, media errors).
 * @swept:	bytes of positions swept (below @position - start when a
 *		@dirty_only resync skips clean regions).
 * @busy:	seconds spent in its steps (the rest is rest, yields and pauses).
 * @sleeps:	how many times the rate made it wait after a step.
 * @yields:	how many times it waited for host I/O (@host_first).
 * @error:	FAILED: the sweep's negative errno (sweep.h).
 */
struct rcl_soft_task_progress {
	enum rcl_soft_task_kind kind;
	enum rcl_soft_task_state state;
	unsigned member;
	uint64_t position;
	uint64_t total;
	unsigned percent;
	double elapsed;
	double remaining;
	struct rcl_soft_sweep_counts counts;
	uint64_t swept;
	double busy;
	uint64_t sleeps;
	uint64_t yields;
	int error;
};

/**
 * struct rcl_soft_task_params - what to run and how.
 * @member:	REBUILD: the member (group member order) to rebuild.
 * @repair:	CHECK: repair the mismatches found.
 * @dirty_only: BGI: only the regions a crash left dirty (see the header).
 * @patrol:	PATROL: which members, how many at once (sweep.h).
 * @pattern:	ERASE, WIPE: the byte the pass writes.
 * @fd, @bytes, @offset: WIPE, SCAN: the drive (open for writing, for a
 *		WIPE), and the area its positions cover: @bytes from @offset.
 * @from:	where to start: 0, or a checkpoint's position (a rebuild
 *		may not start above rcl_soft_sweep_rebuilt()).
 * @rate:	1-100 (0 counts as 1): the share of the time it may use.
 * @host_first:	wait for host requests before each step.
 * @checkpoint_steps, @checkpoint_secs: how often @checkpoint is called;
 *		0 turns that trigger off.
 * @checkpoint, @done: called as the header says; either may be NULL.
 */
struct rcl_soft_task_params {
	enum rcl_soft_task_kind kind;
	unsigned member;
	bool repair;
	bool dirty_only;
	struct rcl_soft_patrol_opts patrol;
	uint8_t pattern;
	int fd;
	uint64_t bytes;
	uint64_t offset;
	uint64_t from;
	unsigned rate;
	bool host_first;
	unsigned checkpoint_steps;
	unsigned checkpoint_secs;
	void (*checkpoint)(void *ctx, const struct rcl_soft_task_progress *progress);
	void (*done)(void *ctx, const struct rcl_soft_task_progress *progress);
	void *ctx;
};

/**
 * rcl_soft_task_start() - start @params's task on @vol, which must stay
 * open until the task is freed (a WIPE: NULL; @params->fd stays open).
 * Return: RCL_OK and *@out (free with rcl_soft_task_free()), set before the
 * task's first callback; RCL_UNSUPPORTED
 * (the RAID level has no such operation: rebuild, check and background
 * init need redundancy); RCL_INVALID_PARAM (no such member, or @from is
 * not a position); RCL_NOT_ALLOWED (the member is not being rebuilt, or
 * @from is above what it holds); RCL_SYSTEM (no thread); RCL_NOMEM.
 */
enum rcl_status rcl_soft_task_start(struct rcl_soft_volume *vol,
                                    const struct rcl_soft_task_params *params,
                                    struct rcl_soft_task **out, struct rcl_error *err);

/* rcl_soft_task_pause(), _resume() - hold the task after its current step; let it go on. */
void rcl_soft_task_pause(struct rcl_soft_task *task);
void rcl_soft_task_resume(struct rcl_soft_task *task);

/* rcl_soft_task_stop() - end the task after its current step (also when paused). */
void rcl_soft_task_stop(struct rcl_soft_task *task);

/*
 * rcl_soft_pace_rest() - the rest, in seconds, after a step of @took seconds
 * at @rate (1-100; 0 counts as 1), as the header's pace has it. Tasks and
 * migrations (StorCLI's reconrate) share it; host-first is the tasks' own.
 */
double rcl_soft_pace_rest(double took, unsigned rate);

/* rcl_soft_task_set_rate() - change the pace (see the header) from the next step on. */
void rcl_soft_task_set_rate(struct rcl_soft_task *task, unsigned rate, bool host_first);

/* rcl_soft_task_progress() - where the task stands now. */
void rcl_soft_task_progress(struct rcl_soft_task *task, struct rcl_soft_task_progress *out);

/* rcl_soft_task_wait() - wait for the task to end (it is not stopped), then its progress. */
void rcl_soft_task_wait(struct rcl_soft_task *task, struct rcl_soft_task_progress *out);

/* rcl_soft_task_free() - stop the task, wait for it and free it (NULL is fine). */
void rcl_soft_task_free(struct rcl_soft_task *task);

#endif /* RCL_SOFT_TASK_H */
