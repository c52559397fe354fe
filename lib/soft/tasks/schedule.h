/* SPDX-License-Identifier: MIT */
/*
 * schedule.h - a soft controller's task settings and the records of its
 * scheduled tasks, as files, and the backend's settings ops.
 *
 * The settings (struct rcl_ctrl_settings) are kept in
 * <state>/tasks/<backend>-<key>.json:
 *	{"format": 1, "rebuildrate": 30, "ccrate": 30, "bgirate": 30,
 *	 "prrate": 30, "reconrate": 30, "rebuildpriority": "rebuild", "patrolread": "auto",
 *	 "prdelay": 168, "prstart": 0, "prexclude": [1, 3], "prmaxpd": 255, "prssds": "on",
 *	 "pruncfg": "off",
 *	 "cc": "off", "ccdelay": 168, "ccstart": 0, "ccexclude": []}
 * (files written before a key existed lack it: its default; a start of 0
 * is none). The CLI changes them under the controller's exclusive lock;
 * the controller process reads them when it starts a task or a command
 * ran. Beside them, <backend>-<key>-patrol.json and -cc.json record the
 * patrol read and the scheduled consistency check, which the controller
 * process runs (server/patrol.h, server/cc-schedule.h) and a status read
 * outside it finds there.
 */
#ifndef RCL_SOFT_TASKS_SCHEDULE_H
#define RCL_SOFT_TASKS_SCHEDULE_H

#include "internal.h"

#define RCL_SOFT_PATROL_SUFFIX "-patrol"
#define RCL_SOFT_CC_SUFFIX     "-cc"

/*
 * rcl_soft_settings_load() - controller @id's settings (the defaults
 * without a file). Return: RCL_OK; RCL_CORRUPT; RCL_NOT_FOUND, RCL_SYSTEM.
 */
enum rcl_status rcl_soft_settings_load(struct rcl_ctx *ctx, unsigned id,
                                       struct rcl_ctrl_settings *out, struct rcl_error *err);

/* rcl_soft_settings_defaults() - what a controller that was never set has. */
void rcl_soft_settings_defaults(struct rcl_ctrl_settings *out);

/*
 * rcl_soft_task_file() - <state>/tasks/<backend>-<key><@suffix>.json, the
 * file of controller @id's settings ("") or a task's record ("-patrol").
 */
enum rcl_status rcl_soft_task_file(struct rcl_ctx *ctx, unsigned id, const char *suffix, char *path,
                                   size_t size, struct rcl_error *err);

/*
 * rcl_soft_task_file_write() - write @root to @path (rcl_soft_task_file()'s),
 * the tasks directory made if needed (not the state directory of @ctx:
 * see rcl_mkdir_in()).
 */
enum rcl_status rcl_soft_task_file_write(struct rcl_ctx *ctx, const char *path, json_object *root,
                                         struct rcl_error *err);

/*
 * rcl_soft_task_record_load() - a task's record <suffix> of controller
 * @id: *@root (NULL when there is none, which is no error), with @nkeys
 * required unsigned fields @keys read into @v; keys[0] is "format" and
 * must be 1. @what names the task in the errors ("patrol read"). The
 * caller puts *@root.
 */
enum rcl_status rcl_soft_task_record_load(struct rcl_ctx *ctx, unsigned id, const char *suffix,
                                          const char *const *keys, size_t nkeys, uint64_t *v,
                                          const char *what, json_object **root,
                                          struct rcl_error *err);

/*
 * rcl_soft_schedule_next() - when @s's next run starts, the last one having
 * ended (or the schedule begun) at @since.
 */
int64_t rcl_soft_schedule_next(const struct rcl_schedule *s, int64_t since);

/*
 * rcl_soft_schedule_due() - whether @s's next run is due, the last one
 * having ended (or the schedule begun) at @since; never before the
 * schedule began (0).
 */
bool rcl_soft_schedule_due(const struct rcl_schedule *s, int64_t since);

/**
 * struct rcl_soft_patrol_record - what <backend>-<key>-patrol.json keeps:
 *	{"format": 1, "active": true, "paused": false, "vd": 0,
 *	 "position": 1048576, "percent": 12, "iterations": 3,
 *	 "since": 1700000000, "media_errors": 0, "area": 0}
 * @active:	a patrol read is under way (running or paused): it resumes.
 * @vd, @position: where: below @position of VD @vd, and every VD of a lower id, is read.
 * @area:	0 while the VDs are read; then (uncfgareas=on) the unconfigured
 *		area being read, from 1, @position its bytes read.
 * @percent:	of the whole, at @position.
 * @since:	auto mode: the next one starts "prdelay" hours after it: when the
 *		last one ended, or when the process first saw auto mode (0: not yet).
 * @media_errors: reads that failed in this patrol read, or the last one.
 */
struct rcl_soft_patrol_record {
	bool active;
	bool paused;
	unsigned vd;
	uint64_t position;
	unsigned percent;
	uint64_t iterations;
	int64_t since;
	uint64_t media_errors;
	unsigned area;
};

/* rcl_soft_patrol_record_load() - controller @id's patrol read record (zeroed without one). */
enum rcl_status rcl_soft_patrol_record_load(struct rcl_ctx *ctx, unsigned id,
                                            struct rcl_soft_patrol_record *out,
                                            struct rcl_error *err);

/**
 * struct rcl_soft_cc_summary - the counts of <backend>-<key>-cc.json
 * (server/cc-schedule.h has the whole record).
 * @active:	a run is under way: it goes on when the process starts.
 * @since:	when the last run ended, or the process first saw the schedule on (0: not yet).
 * @iterations:	runs that ended.
 * @completed:	VDs this run (or the last) checked to their end.
 */
struct rcl_soft_cc_summary {
	bool active;
	int64_t since;
	uint64_t iterations;
	uint64_t completed;
};

/*
 * rcl_soft_cc_record_load() - controller @id's scheduled check record:
 * its counts into @out (zeroed without one) and, when @root is not NULL,
 * the record in *@root (NULL without one; the caller puts it) for its
 * "todo" and "marks", which are checked to be lists.
 */
enum rcl_status rcl_soft_cc_record_load(struct rcl_ctx *ctx, unsigned id,
                                        struct rcl_soft_cc_summary *out, json_object **root,
                                        struct rcl_error *err);

/*
 * rcl_soft_patrol_status(), rcl_soft_cc_status() - what settings @s and
 * record @rec say of the patrol read or the scheduled check; @here: the
 * record is the running process's own (else a run under way is
 * interrupted). The patrol read's time left is unknown (-1).
 */
void rcl_soft_patrol_status(const struct rcl_ctrl_settings *s,
                            const struct rcl_soft_patrol_record *rec, bool here,
                            struct rcl_patrol_status *out);
void rcl_soft_cc_status(const struct rcl_ctrl_settings *s, const struct rcl_soft_cc_summary *rec,
                        bool here, struct rcl_cc_status *out);

/* The backend's ops (lib/backend.h). */
enum rcl_status rcl_soft_settings_get(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *out,
                                      struct rcl_error *err);
enum rcl_status rcl_soft_settings_set(struct rcl_ctrl *ctrl, unsigned changes,
                                      const struct rcl_ctrl_settings *s, struct rcl_error *err);

#endif /* RCL_SOFT_TASKS_SCHEDULE_H */
