/* SPDX-License-Identifier: MIT */
/*
 * tasks.h - the controller process's background tasks (lib/soft/tasks/task.h):
 * rebuilds onto hot spares, started by themselves and resumed after a
 * restart, and the commands that show and steer them.
 *
 * A member that is offline, failed or missing in a redundant group with
 * no rebuild under way is replaced by a usable hot spare (a spare of the
 * group first, then a global one: rcl_soft_replace_member()), which is
 * then rebuilt VD by VD in the order of their first LBAs. Every few
 * seconds the position the rebuild has flushed is recorded as the
 * member's rebuilt_lba, so a process killed at any time resumes from
 * there; when the last VD is done the member is online.
 *
 * A redundant VD that is not degraded gets a background initialization
 * (BGI: md's resync) by itself when it is not consistent, or, at the
 * process's start, when a crash left bits set in its write-intent bitmap:
 * then of the regions of those bits only, whose bits it clears as it goes
 * (task.h's dirty_only). When the BGI ends the VD is recorded consistent.
 * A degraded VD gets none.
 * BGIs log their start and end as events (tasks_event()).
 *
 * The patrol read is patrol.h's, the scheduled consistency check
 * cc-schedule.h's; the loop's calls here run them too.
 */
#ifndef RCL_SERVER_TASKS_H
#define RCL_SERVER_TASKS_H

#include "internal.h"
#include "soft/tasks/task.h"

/* In the controller process's loop (serve.c): */
/* tasks_poll() - after a start, a command or a failure: replace members, start rebuilds. */
void tasks_poll(unsigned id);
/* tasks_tick() - record the rebuilds' checkpoints, move on from those that ended. */
void tasks_tick(unsigned id);
/* tasks_busy() - whether a task runs: the loop then ticks every second. */
bool tasks_busy(void);
/* tasks_stop_all() - stop every task and record where it stood. */
void tasks_stop_all(unsigned id);

/*
 * tasks_event() - log @code with a description to the controller's event log:
 * queued, and written at the loop's next tick (task-events.c), as a task may
 * start or end where the controller lock is held. tasks_events_flush() writes them.
 */
void tasks_event(enum rcl_event_code code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tasks_events_flush(unsigned id);

/*
 * rebuild_control() - @action on the rebuild of drive @ref of @ctrl; only
 * inside the controller process. @force (start): rebuild a VD degraded and
 * dirty too (rcl_soft_export_needs_force()). Return: RCL_OK; RCL_NOT_ALLOWED (the drive is
 * not being rebuilt, or the rebuild is not in a state for it);
 * RCL_NEED_FORCE (it waits at a VD degraded and dirty).
 */
enum rcl_status rebuild_control(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                enum rcl_task_action action, bool force, struct rcl_error *err);

/*
 * rebuild_check_start() - whether "start rebuild" can go on drive @ref of
 * @ctrl: a member being rebuilt, or an unconfigured good drive while a
 * redundant group has a lost member for it to replace. Also outside the
 * controller process, before starting it. Return: RCL_OK, RCL_NOT_ALLOWED.
 */
enum rcl_status rebuild_check_start(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                    struct rcl_error *err);

/*
 * rebuild_progress() - where the rebuild of drive @ref stands, into @out
 * (as rcl_ctrl_task_progress() prepared it): outside the process, or with
 * no task running, where the record has it (STOPPED with its percent); a
 * rebuild held at a VD degraded and dirty is WAITING, at that VD, @why
 * saying why. Running, @vd and @vd_percent are the VD it rebuilds now.
 */
void rebuild_progress(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                      struct rcl_task_progress *out);

/*
 * check_control() - @action (start, stop, pause, resume) on the
 * consistency check (@kind CHECK) or full initialization (INIT) of VD
 * @vd; @repair (a check's start): rewrite the parity or copies that
 * differ. Only inside the controller process. A finished init makes the
 * VD consistent in the record.
 * Return: RCL_OK; RCL_NOT_ALLOWED (none runs, or one runs already);
 * RCL_UNSUPPORTED (RAID0); the task's refusal.
 */
enum rcl_status check_control(struct rcl_ctrl *ctrl, unsigned vd, enum rcl_soft_task_kind kind,
                              enum rcl_task_action action, bool repair, struct rcl_error *err);

/*
 * check_progress() - where the consistency check (@kind CHECK), init or
 * BGI of VD @vd stands, into @out: RUNNING or PAUSED while one runs in
 * this process (outside it none does); for a check, the mismatches (in
 * 512-byte sectors, md's mismatch_cnt) and repair of this run or the last.
 */
void check_progress(const struct rcl_ctrl *ctrl, unsigned vd, enum rcl_soft_task_kind kind,
                    struct rcl_task_progress *out);

/*
 * vd_dirty() - whether VD @vd's parity or copies may disagree: it is not
 * consistent, or a crash left bits set in its write-intent bitmap that no
 * resync has covered yet (in the controller process), or (with none
 * running) that the next process will find set. Degraded, such a VD
 * may return wrong data for a lost member's strips (md's write hole).
 */
bool vd_dirty(const struct rcl_ctrl *ctrl, const struct rcl_vd *vd);

/*
 * tasks_running_on() - whether a rebuild runs in VD @vd's group, or a
 * check, init or BGI on @vd (in this process).
 */
bool tasks_running_on(struct rcl_ctrl *ctrl, unsigned vd);

/*
 * tasks_resync_due() - resync VD @vd (a BGI) once it is whole and free:
 * a migration resumed after a crash, whose bitmap bits the migration's
 * end cleared, ended; or a crash left it degraded as well as dirty.
 */
void tasks_resync_due(unsigned vd);

/*
 * check_finished() - whether no consistency check, init or BGI of VD @vd
 * runs (in this process) any more; then *@done: the last one of @vd was a
 * check that reached its end.
 */
bool check_finished(unsigned vd, bool *done);

/*
 * struct check_mark - where a consistency check stood at a checkpoint:
 * every position (task.h's) below @position is checked, and @mismatches
 * (512-byte sectors) were found there.
 */
struct check_mark {
	uint64_t position;
	uint64_t mismatches;
};

/*
 * check_start_at() - start VD @vd's consistency check (no repair) at
 * @from: {0, 0}, or the mark of a check a restart cut short, which then
 * goes on from there with its mismatches counted. Unlike check_control()'s,
 * it keeps a checkpoint every few seconds (check_checkpoint()).
 * Return: as check_control()'s start.
 */
enum rcl_status check_start_at(struct rcl_ctrl *ctrl, unsigned vd, const struct check_mark *from,
                               struct rcl_error *err);

/*
 * check_checkpoint() - whether a consistency check runs on VD @vd (in
 * this process); then *@mark: its last checkpoint, where what it checked
 * is durable (one check_control() started keeps none: where it started).
 */
bool check_checkpoint(unsigned vd, struct check_mark *mark);

#endif /* RCL_SERVER_TASKS_H */
