/* SPDX-License-Identifier: MIT */
/*
 * soft.h - the software RAID controller's internals, shared by its files.
 */
#ifndef RCL_SOFT_H
#define RCL_SOFT_H

#include <limits.h>
#include <sys/stat.h>
#include <time.h>

#include "internal.h"

struct rcl_soft_state;

/* The backend's ops table (soft.c); registry.c lists it (lib/meson.build's backend_kinds). */
extern const struct rcl_backend_ops rcl_soft_ops;

/* The virtual backplane every soft controller reports its slots on. */
#define RCL_SOFT_ENCLOSURE 252

/* One slot: its backing object and the identity the drive shows. */
struct soft_slot {
	unsigned slot;
	bool owned;            /* an image raidcli created, deleted with delete=images */
	bool locate;           /* its locate LED is on: kept here, as it is the slot's */
	bool jbod;             /* exposed to the host as it is (JBOD) while unconfigured */
	bool bad;              /* a failed member a spare replaced: UBad until "set good" */
	unsigned media_errors; /* reads the patrol read found failing while unconfigured */
	char serial[32];
	char wwn[24];
	char path[PATH_MAX];
};

/*
 * One open soft controller (ctrl->priv). @state is its configuration as
 * its drives hold it (scan.h); @stale when a change could not read it
 * back, so the next change reads it first.
 */
struct soft_ctrl {
	const struct rcl_soft_host *host; /* the kind hosting the engine (host.h), or NULL */
	void *host_priv;
	char *state_path;
	char serial[32];
	char image_dir[PATH_MAX];
	unsigned sector_size;
	time_t created;
	struct soft_slot *slots;
	size_t slot_count;
	struct rcl_soft_state *state;
	bool stale;
	bool jbod; /* JBOD drives allowed ("/cx set jbod=on") */
};

/*
 * rcl_soft_probe() - fill @drive's identity-independent fields (kind,
 * presence, sizes, sector sizes, interface, medium, model) from @path.
 * @sector_size is what an image file reports; block devices report theirs.
 */
void rcl_soft_probe(const char *path, unsigned sector_size, struct rcl_drive *drive);

/*
 * rcl_soft_parse_state() - @sc's fields and slots from @root, the state
 * file @path's JSON (soft.c describes it). Return: RCL_OK; RCL_CORRUPT
 * naming @path; RCL_NOMEM.
 */
enum rcl_status rcl_soft_parse_state(json_object *root, const char *path, struct soft_ctrl *sc,
                                     struct rcl_error *err);

/* rcl_soft_unload() - the backend's unload: free ctrl->priv (the engine) and the model. */
void rcl_soft_unload(struct rcl_ctrl *ctrl);

/* rcl_soft_free() - free @sc (NULL: nothing) and its configuration. */
void rcl_soft_free(struct soft_ctrl *sc);

/* rcl_soft_save_state() - write @sc's state file (soft.c describes it). */
enum rcl_status rcl_soft_save_state(const struct soft_ctrl *sc, struct rcl_error *err);

/*
 * rcl_soft_count_media_errors() - add @n to the media errors of the drive in
 * slot @slot of @ctrl (open exclusive): kept with the slot, shown in the
 * drive's Media Error Count, until the drive leaves the slot.
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_SYSTEM (nothing changes).
 */
enum rcl_status rcl_soft_count_media_errors(struct rcl_ctrl *ctrl, unsigned slot, unsigned n,
                                            struct rcl_error *err);

/*
 * rcl_soft_check_usable() - refuse what cannot become a drive: not a file
 * or block device, unreadable, or a block device in use. Fills *@st.
 */
enum rcl_status rcl_soft_check_usable(const char *path, struct stat *st, struct rcl_error *err);

/*
 * rcl_soft_mark_bad() - the drive in @slot, which left its group failed,
 * stays UBad (as StorCLI keeps a replaced failed drive) until "set good":
 * neither a spare nor a member of a new VD. Kept in the state file.
 */
enum rcl_status rcl_soft_mark_bad(struct rcl_ctrl *ctrl, unsigned slot, struct rcl_error *err);

/**
 * struct rcl_soft_params - a new software controller.
 * @drives:	how many image files to create (0 for none).
 * @drive_bytes: each image's size; rounded down to a whole MiB.
 * @sector_size: 512 or 4096, the logical sector size its drives report.
 * @dir:	where to create the images; NULL: <state dir>/images/<serial>.
 */
struct rcl_soft_params {
	unsigned drives;
	uint64_t drive_bytes;
	unsigned sector_size;
	const char *dir;
};

/* The smallest drive a soft controller accepts. */
#define RCL_SOFT_MIN_DRIVE_BYTES (16ull << 20)

/**
 * rcl_soft_create() - create a software controller with @params->drives
 * sparse image files (never overwriting an existing file) and register it
 * under the lowest free number.
 * Return: RCL_OK and *@id; on failure every file created is removed again.
 */
enum rcl_status rcl_soft_create(struct rcl_ctx *ctx, const struct rcl_soft_params *params,
                                unsigned *id, struct rcl_error *err);

/*
 * rcl_soft_create_kv() - the backend's create op: "add controller
 * type=soft drives=N [size=S] [sectorsize=512|4096] [dir=D]" as @count
 * key=value @params; RCL_INVALID_COMMAND for a missing drives= (or size=
 * with drives), RCL_INVALID_PARAM for an unknown key or a bad value, else
 * rcl_soft_create()'s.
 */
enum rcl_status rcl_soft_create_kv(struct rcl_ctx *ctx, const struct rcl_kv *params, size_t count,
                                   unsigned *id, struct rcl_error *err);

/*
 * The ops of the soft controller's process code (service/): its hooks
 * (process.c), its exports (export.c: served by the process, listed and
 * checked from any CLI; its force queries are in service/export.h) and its
 * background tasks (task-ops.c), as struct rcl_backend_ops names them.
 */
extern const struct rcl_process_ops rcl_soft_process;
enum rcl_status rcl_soft_export_check(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err);
enum rcl_status rcl_soft_export_start(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err);
enum rcl_status rcl_soft_export_stop(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err);
enum rcl_status rcl_soft_exports(struct rcl_ctrl *ctrl, struct rcl_export_info **out, size_t *count,
                                 struct rcl_error *err);
enum rcl_status rcl_soft_task_check_op(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       struct rcl_error *err);
enum rcl_status rcl_soft_task_op(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                 struct rcl_error *err);
enum rcl_status rcl_soft_task_progress_op(const struct rcl_ctrl *ctrl,
                                          const struct rcl_task_request *req,
                                          struct rcl_task_progress *out, struct rcl_error *err);

#endif /* RCL_SOFT_H */
