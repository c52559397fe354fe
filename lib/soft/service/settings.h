/* SPDX-License-Identifier: MIT */
/*
 * settings.h - a controller's background task settings: StorCLI's
 * rebuildrate, ccrate, bgirate, prrate and reconrate (migrations; 0-100,
 * default 30) and the
 * rebuild priority (rebuildpriority=rebuild|host, PERC's "rebuild first"
 * or "host I/O first"), the patrol read's (patrolread=on mode=auto|manual,
 * or off; auto: every "prdelay" hours, default 168, or at "prstart"; VDs
 * "prexclude" skipped; "prmaxpd" drives read at once; "prssds": SSDs read
 * or not) and the scheduled consistency check's (cc=off|seq|conc, every
 * "ccdelay" hours or at "ccstart", VDs "ccexclude" skipped), kept in
 * <state>/tasks/<backend>-<key>.json:
 *	{"format": 1, "rebuildrate": 30, "ccrate": 30, "bgirate": 30,
 *	 "prrate": 30, "reconrate": 30, "rebuildpriority": "rebuild", "patrolread": "auto",
 *	 "prdelay": 168, "prstart": 0, "prexclude": [1, 3], "prmaxpd": 255, "prssds": "on",
 *	 "cc": "off", "ccdelay": 168, "ccstart": 0, "ccexclude": []}
 * (files written before a key existed lack it: its default; a start of 0
 * is none).
 * The CLI changes them under the controller's exclusive lock; the
 * controller process reads them when it starts a task or a command ran.
 */
#ifndef RCL_SERVER_SETTINGS_H
#define RCL_SERVER_SETTINGS_H

#include <json-c/json.h>

#include "cli.h"

enum setting_kind {
	SETTING_REBUILD,
	SETTING_CC,
	SETTING_BGI,
	SETTING_PR,
	SETTING_RECON,
	SETTING_KINDS,
};

#define SETTING_DEFAULT_RATE 30
/* MegaRAID's default patrol read and CC interval, and the longest "delay=" takes (a year). */
#define SETTING_DEFAULT_DELAY 168
#define SETTING_MAX_DELAY     8760
/* StorCLI's maxconcurrentpd: its default and most. */
#define SETTING_MAX_PR_DRIVES 255

/* The patrol read modes, as "patrolread" stores them. */
enum pr_mode {
	PR_AUTO,
	PR_MANUAL,
	PR_OFF,
};

/* StorCLI's includessds=on|onlymixed|off, as "prssds" stores them. */
enum pr_ssds {
	PR_SSDS_ON,
	PR_SSDS_MIXED, /* an SSD is read only in a VD that has drives of other kinds */
	PR_SSDS_OFF,
};

/* The scheduled consistency check's modes (StorCLI's cc=off|seq|conc). */
enum cc_mode {
	CC_OFF,
	CC_SEQ,  /* one VD at a time */
	CC_CONC, /* all VDs at once */
};

/**
 * struct task_schedule - when an automatic task runs.
 * @delay:	hours from the end of one run to the start of the next.
 * @start:	starttime=: the next run starts then instead (0: none; it is
 *		ignored once a run ended after it).
 * @exclude:	excludevd=: bit n set: VD n is left out.
 */
struct task_schedule {
	unsigned delay;
	int64_t start;
	uint64_t exclude;
};

/*
 * struct task_settings - a rate per kind; @host_first: rebuildpriority=host;
 * @pr_mode, @pr: patrol reads and their schedule; @pr_max_drives: how many
 * drives they read at once; @pr_ssds: whether they read SSDs; @cc_mode,
 * @cc: the scheduled consistency check and its schedule.
 */
struct task_settings {
	unsigned rate[SETTING_KINDS];
	bool host_first;
	enum pr_mode pr_mode;
	struct task_schedule pr;
	unsigned pr_max_drives;
	enum pr_ssds pr_ssds;
	enum cc_mode cc_mode;
	struct task_schedule cc;
};

/* pr_mode_shown() - StorCLI's "Auto", "Manual", "Disable". */
const char *pr_mode_shown(enum pr_mode mode);

/* pr_ssds_shown() - StorCLI's "PR on SSD": "Enabled", "OnlyMixed", "Disabled". */
const char *pr_ssds_shown(enum pr_ssds ssds);

/* cc_mode_shown() - StorCLI's "CC Operation Mode": "Disabled", "Sequential", "Concurrent". */
const char *cc_mode_shown(enum cc_mode mode);

/*
 * schedule_next() - when @s's next run starts, the last one having ended
 * (or the schedule begun) at @since.
 */
int64_t schedule_next(const struct task_schedule *s, int64_t since);

/*
 * schedule_now() - the clock schedules run by: the time, shifted by
 * $RAIDCLI_TEST_CLOCK_SHIFT seconds when set (test-only: lets a test meet a
 * start time on the hour within seconds).
 */
int64_t schedule_now(void);

/*
 * schedule_due() - whether @s's next run is due, the last one having ended
 * (or the schedule begun) at @since; never before the schedule began (0).
 */
bool schedule_due(const struct task_schedule *s, int64_t since);

/*
 * schedule_next_shown() - the next start time "show" gives for @s into
 * @out: when @waiting (the schedule is on and no run is under way) and it
 * has begun at @since or has a start time, schedule_next() as StorCLI
 * shows a time; else "-".
 */
void schedule_next_shown(const struct task_schedule *s, bool waiting, int64_t since, char *out,
                         size_t size);

/* schedule_excluded() - "None", or @s's excluded VDs as StorCLI lists them ("0,2-3"). */
void schedule_excluded(const struct task_schedule *s, char *out, size_t size);

/* setting_name() - "rebuildrate", "ccrate", "bgirate", "prrate", "reconrate". */
const char *setting_name(enum setting_kind kind);

/*
 * task_file_path() - <state>/tasks/<backend>-<key><@suffix>.json, the file
 * of controller @id's task settings ("") or a task's record ("-patrol").
 */
enum rcl_status task_file_path(struct rcl_ctx *lib, unsigned id, const char *suffix, char *path,
                               size_t size, struct rcl_error *err);

/*
 * task_file_write() - write @root to @path (task_file_path()'s), the tasks
 * directory made if needed (not the state directory of @lib: see rcl_mkdir_in()).
 */
enum rcl_status task_file_write(struct rcl_ctx *lib, const char *path, json_object *root,
                                struct rcl_error *err);

/*
 * task_record_load() - a task's record <suffix> of controller @id: *@root
 * (NULL when there is none, which is no error), with @nkeys required
 * unsigned fields @keys read into @v; keys[0] is "format" and must be 1.
 * @what names the task in the errors ("patrol read"). The caller puts *@root.
 */
enum rcl_status task_record_load(struct rcl_ctx *lib, unsigned id, const char *suffix,
                                 const char *const *keys, size_t nkeys, uint64_t *v,
                                 const char *what, json_object **root, struct rcl_error *err);

/*
 * task_record_save() - write @root as controller @id's record <suffix>
 * (the process's own); a failure is logged, naming @what ("the patrol
 * read"), as the task goes on with its record lagging. @root is put.
 */
void task_record_save(unsigned id, const char *suffix, json_object *root, const char *what);

/* settings_load() - controller @id's settings (the defaults without a file). */
enum rcl_status settings_load(struct rcl_ctx *lib, unsigned id, struct task_settings *out,
                              struct rcl_error *err);

/* settings_save() - replace controller @id's settings (exclusive lock held). */
enum rcl_status settings_save(struct rcl_ctx *lib, unsigned id, const struct task_settings *s,
                              struct rcl_error *err);

/* settings_pace() - in the process: the rate of @kind's tasks and whether host I/O comes first. */
void settings_pace(unsigned id, enum setting_kind kind, unsigned *rate, bool *host_first);

#endif /* RCL_SERVER_SETTINGS_H */
