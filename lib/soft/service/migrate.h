/* SPDX-License-Identifier: MIT */
/*
 * migrate.h - the controller process's migrations (RAID level migration
 * and online capacity expansion, lib/soft/tasks/migrate.h): one thread per
 * migrating VD copies it step by step on the VD's shared volume at
 * StorCLI's reconrate, each step's checkpoint durable on the members, so
 * a process killed at any time resumes where it stood when it starts
 * again; the loop then records the end (the VD's new level, members and
 * capacity) and logs the events.
 */
#ifndef RCL_SERVER_MIGRATE_H
#define RCL_SERVER_MIGRATE_H

#include "internal.h"

/* From the loop (tasks.c): start the migrations the record has, record those that ended. */
void migrations_poll(unsigned id, struct rcl_ctrl *ctrl);
void migrations_tick(unsigned id);
bool migrations_busy(void);
void migrations_stop_all(void);
/* migrations_pace() - the running migrations take the reconrate a command may have set. */
void migrations_pace(unsigned id);

/*
 * migration_hold() - stop VD @vd's running migration (its checkpoint
 * stands) while the loop changes its group's member states, whose md
 * superblocks the migration's checkpoints also write; the next
 * migrations_poll() starts it again from there.
 */
void migration_hold(unsigned vd);

/* migration_running() - whether VD @vd is migrating in this process. */
bool migration_running(unsigned vd);

/*
 * migration_recorded() - whether @ctrl's record has VD @vd migrating: in
 * this process or not, a process starting resumes it.
 */
bool migration_recorded(const struct rcl_ctrl *ctrl, unsigned vd);

/*
 * migrate_start() - "start migrate" (@req): migrate VD @req->vd of @ctrl to
 * @req->level, adding or removing @req->drives; inside the controller
 * process only. Refused, with nothing changed, while another task runs on
 * the VD's group.
 */
enum rcl_status migrate_start(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err);

/*
 * migrate_check_start() - what migrate_start() would refuse of the same
 * command, told also outside the controller process, before it starts.
 */
enum rcl_status migrate_check_start(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err);

/*
 * migrate_progress() - where the migration of VD @vd stands, into @out:
 * STOPPED when the record has none; RUNNING in this process; FAILED, or
 * HALTED (it resumes when a process starts, or starts again).
 */
void migrate_progress(const struct rcl_ctrl *ctrl, unsigned vd, struct rcl_task_progress *out);

#endif /* RCL_SERVER_MIGRATE_H */
