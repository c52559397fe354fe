/* SPDX-License-Identifier: MIT */
/*
 * patrol.h - the controller process's patrol read (lib/soft/tasks/patrol.c): every
 * VD's data on every usable member is read, VD by VD in id order, so that a
 * drive with media errors fails (and is rebuilt onto a hot spare, as a
 * failing request's drive is) before a rebuild needs its data.
 *
 * Started by "start patrolread", or in auto mode (struct rcl_ctrl_settings) by itself
 * "prdelay" hours after the previous one ended (the first: that long after
 * the process first saw auto mode), or at "prstart" when that is later
 * than the previous end. The settings shape each run: the VDs of
 * "prexclude" are skipped (the log says so), at most "prmaxpd" members of
 * an array are read at once, and with "prssds" off (or onlymixed, in a VD
 * of SSDs only) members whose drive show lists as Med SSD are not read.
 * With "pruncfg" on, the VDs read, it reads the areas no VD covers, one
 * scan each (task.h's SCAN): the unconfigured good drives whole and the
 * free extents of the online members, in slot order ("area" in the record);
 * a member whose reads fail there is failed through a volume of its group,
 * an unconfigured drive's failing reads are logged (event 0x1c).
 * Its state is kept in <state>/tasks/<backend>-<key>-patrol.json (struct
 * rcl_soft_patrol_record, soft/tasks/schedule.h; "media_errors": those of
 * this run so far, the running VD's as far as its checkpoint),
 * and the running one's position is checkpointed there every few seconds,
 * so a process killed at any time resumes it from there (paused, if it was).
 * Starting, finishing and stopping go to the event log. Once loaded, it
 * answers rcl_ctrl_schedule_status() in the process (rcl_soft_live_patrol).
 */
#ifndef RCL_SERVER_PATROL_H
#define RCL_SERVER_PATROL_H

#include "tasks.h"

/* In the loop (through tasks.c): */
/* patrol_poll() - after a command: take the settings; at the process's start, resume. */
void patrol_poll(unsigned id);
/* patrol_tick() - checkpoint, move on to the next VD, start an auto patrol read when due. */
void patrol_tick(unsigned id);
/* patrol_busy() - whether the loop must tick: one runs, or auto mode waits for its time. */
bool patrol_busy(void);
/*
 * patrol_live_status() - the patrol read of controller @id into @out, from
 * this process's own state when it is @id's process and has loaded it
 * (true); false elsewhere: the status then comes from the records.
 */
bool patrol_live_status(unsigned id, struct rcl_patrol_status *out);
/* patrol_stop_all() - the process stops: record where the patrol read stood (it resumes). */
void patrol_stop_all(unsigned id);

/*
 * patrol_progress() - where the patrol read of @ctrl stands, into @out: in
 * the process, RUNNING or PAUSED while one reads a VD (@vd, @vd_percent);
 * outside it, HALTED when the record has one under way (it resumes when
 * the process starts). @percent: of all VDs' data.
 */
void patrol_progress(const struct rcl_ctrl *ctrl, struct rcl_task_progress *out);

/*
 * patrol_control() - "start|stop|pause|resume patrolread" on @ctrl; only in
 * the controller process. Return: RCL_OK; RCL_NOT_ALLOWED (patrol reads are
 * off, none runs, or one runs already, or the process is not running).
 */
enum rcl_status patrol_control(struct rcl_ctrl *ctrl, enum rcl_task_action action,
                               struct rcl_error *err);

/*
 * patrol_check_start() - what "start patrolread" on @ctrl would be refused
 * for (patrol reads off, one in progress), told also outside the
 * controller process, before it starts.
 */
enum rcl_status patrol_check_start(struct rcl_ctx *lib, struct rcl_ctrl *ctrl,
                                   struct rcl_error *err);

#endif /* RCL_SERVER_PATROL_H */
