/* SPDX-License-Identifier: MIT */
/*
 * settings.h - a controller's background task settings: StorCLI's
 * rebuildrate, ccrate, bgirate, prrate and reconrate (migrations; 0-100,
 * default 30) and the
 * rebuild priority (rebuildpriority=rebuild|host, PERC's "rebuild first"
 * or "host I/O first") and the patrol read mode (patrolread=on mode=auto|manual,
 * or off; auto: every "prdelay" hours, default 168), kept in
 * <state>/tasks/<backend>-<key>.json:
 *	{"format": 1, "rebuildrate": 30, "ccrate": 30, "bgirate": 30,
 *	 "prrate": 30, "reconrate": 30, "rebuildpriority": "rebuild", "patrolread": "auto",
 *	 "prdelay": 168}
 * (files written before patrol reads had commands lack the last two: defaults).
 * The CLI changes them under the controller's exclusive lock; the
 * controller process reads them when it starts a task or a command ran.
 */
#ifndef RCL_SERVER_SETTINGS_H
#define RCL_SERVER_SETTINGS_H

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
/* MegaRAID's default patrol read interval, and the longest "set delay=" takes (a year). */
#define SETTING_DEFAULT_PR_DELAY 168
#define SETTING_MAX_PR_DELAY     8760

/* The patrol read modes, as "patrolread" stores them. */
enum pr_mode {
	PR_AUTO,
	PR_MANUAL,
	PR_OFF,
};

/*
 * struct task_settings - a rate per kind; @host_first: rebuildpriority=host;
 * @pr_mode, @pr_delay: patrol reads, and the hours from one's end to the next (auto).
 */
struct task_settings {
	unsigned rate[SETTING_KINDS];
	bool host_first;
	enum pr_mode pr_mode;
	unsigned pr_delay;
};

/* pr_mode_shown() - StorCLI's "Auto", "Manual", "Disable". */
const char *pr_mode_shown(enum pr_mode mode);

/* setting_name() - "rebuildrate", "ccrate", "bgirate", "prrate", "reconrate". */
const char *setting_name(enum setting_kind kind);

/* settings_load() - controller @id's settings (the defaults without a file). */
enum rcl_status settings_load(struct rcl_ctx *lib, unsigned id, struct task_settings *out,
                              struct rcl_error *err);

/* settings_save() - replace controller @id's settings (exclusive lock held). */
enum rcl_status settings_save(struct rcl_ctx *lib, unsigned id, const struct task_settings *s,
                              struct rcl_error *err);

/* settings_pace() - in the process: the rate of @kind's tasks and whether host I/O comes first. */
void settings_pace(unsigned id, enum setting_kind kind, unsigned *rate, bool *host_first);

#endif /* RCL_SERVER_SETTINGS_H */
