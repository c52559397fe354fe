/* SPDX-License-Identifier: MIT */
/*
 * erase.h - the controller process's erases (StorCLI's "/cx/vx start
 * erase"): each pass is an engine task (task.h's ERASE) that writes the
 * pass's pattern over the whole VD through the write path, parity and
 * copies included, so the VD stays consistent; the passes run one after
 * the other (rcl_erase_passes(), rcl_erase_pattern()). The erase of an
 * unconfigured good drive ("/cx/ex/sx start erase") is the same passes
 * over the whole drive (task.h's WIPE); its initialization ("start
 * initialization") one pass of zeros.
 *
 * Where each erase stands is kept in <state>/tasks/<backend>-<key>-erase.json:
 *	{"format": 1, "vds": [{"vd": 0, "uuid": "<md array UUID>", "mode": 1,
 *	  "patterna": 0, "patternb": 255, "pass": 1, "position": 1048576}],
 *	 "drives": [{"slot": 3, "serial": "<its serial>", "path": "<its path>",
 *	  "init": false, "mode": 0, ...}]}
 * ("mode": enum rcl_erase_mode; "position": task.h's, below which the
 * pass is durable: a checkpoint every few seconds). A process stopped or
 * killed mid-erase goes on from there when it starts again; a VD deleted
 * meanwhile (its UUID differs), or a drive replaced (its serial differs),
 * is not erased. A user's stop, or the end, drops the entry. While a
 * drive's entry is there the drive is kept out of use (erase_mark_drives()).
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
 * erase_control() - start (@req->erase) or stop the erase (RCL_TASK_VD_ERASE)
 * of VD @req->vd, or the erase (ERASE) or initialization (DRIVE_INIT) of
 * drive @req->drive; only inside the controller process. The caller has
 * refused a VD that another task keeps busy. Return: RCL_OK;
 * RCL_NOT_ALLOWED (none runs to stop; one runs already; the VD is
 * read-only; the drive is not unconfigured good); RCL_NEED_FORCE (the
 * drive holds a file system); RCL_UNSUPPORTED (a cryptographic erase, a
 * drive's own sanitize); the task's refusal.
 */
enum rcl_status erase_control(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err);

/*
 * erase_check_start() - erase_control()'s refusals of the start of a
 * drive's erase or initialization @req, outside the process too.
 */
enum rcl_status erase_check_start(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                  struct rcl_error *err);

/*
 * erase_progress() - where @req's erase stands, into @out: RUNNING in
 * the process, its percent over all passes; outside it, or stopped by the
 * process's end, HALTED at the record's percent (the next process goes on).
 */
void erase_progress(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                    struct rcl_task_progress *out);

/*
 * erase_mark_drives() - set the wiped_by of @ctrl's drives that the record
 * has an erase or initialization of, running or halted: their data is
 * half overwritten, and the next process goes on.
 */
void erase_mark_drives(struct rcl_ctrl *ctrl);

/* Between erase.c and erase-record.c: */
/* erase_record_load() - the record of @ctrl's erases (NULL: none, or one that cannot be read). */
json_object *erase_record_load(const struct rcl_ctrl *ctrl);
/* erase_record_entry() - the @i-th entry of the record's @list ("vds", "drives"); NULL past the
 * end. */
json_object *erase_record_entry(json_object *root, const char *list, size_t i);
/* erase_record_drive() - whether drive entry @one is the erase of drive @d; *@kind: which task. */
bool erase_record_drive(json_object *one, const struct rcl_drive *d, enum rcl_task_kind *kind);
/* erase_recorded_progress() - @req's entry in the record, as HALTED at its percent. */
void erase_recorded_progress(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                             struct rcl_task_progress *out);

#endif /* RCL_SERVER_ERASE_H */
