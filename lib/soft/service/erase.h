/* SPDX-License-Identifier: MIT */
/*
 * erase.h - the controller process's VD erases (StorCLI's "/cx/vx start
 * erase"): each pass is an engine task (task.h's ERASE) that writes the
 * pass's pattern over the whole VD through the write path, parity and
 * copies included, so the VD stays consistent; the passes run one after
 * the other (rcl_erase_passes(), rcl_erase_pattern()).
 *
 * Where each erase stands is kept in <state>/tasks/<backend>-<key>-erase.json:
 *	{"format": 1, "vds": [{"vd": 0, "uuid": "<md array UUID>", "mode": 1,
 *	  "patterna": 0, "patternb": 255, "pass": 1, "position": 1048576}]}
 * ("mode": enum rcl_erase_mode; "position": task.h's, below which the
 * pass is durable: a checkpoint every few seconds). A process stopped or
 * killed mid-erase goes on from there when it starts again; a VD deleted
 * meanwhile (its UUID differs) is not erased. A user's stop, or the end,
 * drops the entry.
 */
#ifndef RCL_SERVER_ERASE_H
#define RCL_SERVER_ERASE_H

#include "internal.h"

#define RCL_SOFT_ERASE_SUFFIX "-erase"

/* In the loop (through tasks.c): */
/*
 * erases_poll() - after a command: the erases of deleted VDs stop, the
 * others take the rate (bgirate); at the process's start, resume the
 * erases the record has.
 */
void erases_poll(unsigned id, struct rcl_ctrl *ctrl);
/* erases_tick() - record the checkpoints; start the next pass, or end. */
void erases_tick(unsigned id);
/* erases_busy() - whether an erase runs. */
bool erases_busy(void);
/* erases_stop_all() - stop every erase, keeping where it stood for the next process. */
void erases_stop_all(unsigned id);

/* erase_running() - whether VD @vd is being erased in this process. */
bool erase_running(unsigned vd);

/*
 * erase_control() - start (@req->erase) or stop the erase of VD @req->vd;
 * only inside the controller process. The caller has refused a VD that
 * another task keeps busy. Return: RCL_OK; RCL_NOT_ALLOWED (none runs to
 * stop; one runs already; the VD is read-only); the task's refusal.
 */
enum rcl_status erase_control(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err);

/*
 * erase_progress() - where VD @vd's erase stands, into @out: RUNNING in
 * the process, its percent over all passes; outside it, or stopped by the
 * process's end, HALTED at the record's percent (the next process goes on).
 */
void erase_progress(const struct rcl_ctrl *ctrl, unsigned vd, struct rcl_task_progress *out);

#endif /* RCL_SERVER_ERASE_H */
