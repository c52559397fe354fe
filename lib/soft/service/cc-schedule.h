/* SPDX-License-Identifier: MIT */
/*
 * cc-schedule.h - the controller process's scheduled consistency check
 * (StorCLI's "set cc=seq|conc", struct rcl_ctrl_settings): every "ccdelay" hours after
 * the last run ended (the first: that long after the process first saw the
 * schedule on), or at "ccstart" when that is later, the consistency check
 * of tasks.h (check_control()) runs on each redundant, consistent VD not in
 * "ccexclude": one at a time in id order (seq) or all at once (conc).
 * A VD a user's check, a BGI or a migration keeps busy, a RAID0 and a VD
 * that was never made consistent are left out of the run (the log says
 * why). Its state is kept in <state>/tasks/<backend>-<key>-cc.json:
 *	{"format": 1, "active": true, "since": 1700000000, "iterations": 3,
 *	 "completed": 1, "todo": [2, 4],
 *	 "marks": [{"vd": 2, "position": 12582912, "mismatches": 0}]}
 * ("todo": the VDs of the run not yet checked to their end; "completed":
 * the VDs the run, or the last one, checked to their end; "marks": where
 * the checks under way stood at their last checkpoint, taken every 3
 * seconds at most). A process killed mid-run goes on with the VDs of
 * "todo" from their marks when it starts, the mismatches found before
 * counted, so a run on large VDs ends even if the process is restarted
 * more often than one check takes.
 * Starts and ends go to the event log; "cc=off" ends a run (the checks
 * under way go on, as a user's would). Once loaded, it answers
 * rcl_ctrl_schedule_status() in the process (cc_schedule_live_status()).
 */
#ifndef RCL_SERVER_CC_SCHEDULE_H
#define RCL_SERVER_CC_SCHEDULE_H

#include "internal.h"

/* In the loop (through tasks.c): */
/* cc_schedule_poll() - after a command: take the settings; at the process's start, resume. */
void cc_schedule_poll(unsigned id);
/* cc_schedule_tick() - start the run when due, the next VD's check, end the run. */
void cc_schedule_tick(unsigned id);
/* cc_schedule_busy() - whether the loop must tick: the schedule is on. */
bool cc_schedule_busy(void);
/*
 * cc_schedule_live_status() - the scheduled check of controller @id into
 * @out, from this process's own state when it is @id's process and has
 * loaded it (true); false elsewhere: the status then comes from the records.
 */
bool cc_schedule_live_status(unsigned id, struct rcl_cc_status *out);

#endif /* RCL_SERVER_CC_SCHEDULE_H */
