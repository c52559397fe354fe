/* SPDX-License-Identifier: MIT */
/*
 * backend.h - the contract between libraidcli's generic layer and a
 * backend: the manual for whoever adds a kind of controller.
 *
 * A backend serves one kind of controller ("soft" today; "nvme",
 * "megaraid" and "redfish" are planned). The generic layer (the files in lib/)
 * numbers controllers (registry.c), takes their locks (ctrl.c), applies
 * StorCLI's rules to every request (drive.c, vd.c, foreign.c), logs events,
 * and only then calls the backend through its struct rcl_backend_ops. The
 * CLI never sees a backend: it reads the model (struct rcl_ctrl's drives,
 * groups and VDs) and the capability record (struct rcl_caps, raidcli.h).
 *
 * How to add a backend
 * --------------------
 * 1. Make one folder, lib/<kind>/, with the backend's own files; prefix its
 *    symbols rcl_<kind>_. Nothing outside the folder includes its headers.
 * 2. Fill one const struct rcl_backend_ops rcl_<kind>_ops (below): @name,
 *    @caps, @load and @unload are required; leave NULL every operation the
 *    kind cannot do. The library then answers that operation with the one
 *    "<what> is not supported by this controller (<kind>)" failure
 *    (rcl_unsupported()), so no backend writes stubs and no caller tests
 *    for NULL.
 * 3. Describe the kind in a static struct rcl_caps: its RAID levels, strip
 *    sizes, limits, tasks, settings, cache and battery, and whether it
 *    needs a raidcli controller process (only the soft engine does: a card
 *    runs its own tasks). "show all", the system overview and the checks
 *    before a command runs read it; nothing in the CLI names a kind.
 * 4. Add one line to the backends[] list in lib/registry.c and the folder's
 *    files to lib/meson.build.
 * 5. Add tests: unit tests for the backend's own parsing, and golden cases
 *    for what its controllers show.
 *
 * Conventions for every operation
 * -------------------------------
 * - The generic layer has already checked what the public function's
 *   manual (raidcli.h) promises: the addressed drive, VD or group exists,
 *   states allow the change, parameters are in range and, with
 *   rcl_caps_check_vd(), within the controller's capabilities. A backend
 *   checks only what its own medium adds.
 * - Locks: @load runs with the controller's lock held (shared or
 *   exclusive, as the caller opened it); every changing operation runs
 *   under the exclusive lock. The registry lock is held as noted.
 * - After a successful change the backend refreshes ctrl->drives,
 *   ->enclosures, ->dgs and ->vds, so the caller (and its event log) sees
 *   the new configuration. On failure nothing has changed, or the backend
 *   says in @err what did.
 * - Errors go through rcl_fail() into @err with the status that
 *   raidcli.h's manual lists for the public call; backends never print,
 *   exit or format for display, and never include cli/ headers.
 * - ctrl->priv is the backend's own; only it reads or frees it.
 *
 * Not in the contract yet (issue 22's next steps): settings, the event
 * log, drive health and exports. The caps already say which of them a kind
 * has; the soft controller's process (server/) still reaches its engine
 * directly.
 */
#ifndef RCL_BACKEND_H
#define RCL_BACKEND_H

#include "raidcli.h"

struct rcl_ctrl;

/* The size of a registry key: a backend's own name for one controller. */
#define RCL_KEY_SIZE 64

/**
 * struct rcl_backend_ops - one backend's operations.
 *
 * @name:	the kind, as the registry stores it and "type=" names it
 *		("soft"); also the stem of lock and event file names.
 * @caps:	what every controller of this kind can do. rcl_ctrl_open()
 *		copies it to ctrl->caps before @load, which may narrow it for
 *		one controller (a card's firmware); rcl_ctx_ctrl_caps() answers
 *		from it without opening the controller.
 *
 * Controllers coming into being (no controller lock held):
 * @discover:	for kinds found on the host rather than created (NVMe,
 *		MegaRAID): store in @keys (at most @max) the key of every
 *		controller present, registered or not, and their number in
 *		*@count. NULL: the kind is only ever created.
 * @create:	for kinds that are created (soft, Redfish): check
 *		@count key=value @params, naming any unknown or missing one
 *		(RCL_INVALID_COMMAND for a missing one, RCL_INVALID_PARAM for a
 *		bad value), make the backend's state and register it:
 *		rcl_registry_lock(), then rcl_registry_add() (internal.h), which
 *		returns its number in *@id. On failure, remove everything it
 *		made.
 *
 * One controller, opened (lock held as the conventions above say):
 * @load:	fill ctrl->info, ->enclosures, ->drives, ->dgs and ->vds from
 *		the backend's state; may narrow ctrl->caps. Required.
 * @unload:	free what @load allocated in ctrl->priv. Required.
 * @add_drive:	put @path in the first free slot, *@slot says which. The
 *		registry lock is held too: check that no controller holds @path.
 * @remove_drive: empty @drive's slot (rcl_ctrl_check_remove_drive() passed).
 * @destroy:	drop the backend's own state after the registry forgot the
 *		controller (registry lock held); @flags as rcl_ctrl_delete().
 * @create_vd:	create a VD from @params, checked and with defaults filled.
 * @delete_vd, @set_vd: as rcl_ctrl_delete_vd() and rcl_ctrl_set_vd(), the
 *		VD found and @props checked.
 * @add_hotspare, @delete_hotspare: as rcl_ctrl_add_hotspare() and
 *		rcl_ctrl_delete_hotspare(), the drive's state checked.
 * @set_locate:	as rcl_ctrl_set_locate(), the drive found.
 * @set_jbod_mode, @set_drive_jbod: as rcl_ctrl_set_jbod_mode() and
 *		rcl_ctrl_set_drive_jbod(), the states checked.
 * @set_drive_state: as rcl_ctrl_set_drive_state() for a member (all but
 *		GOOD of a JBOD drive), the states and force checked.
 * @foreign_show, @foreign_import, @foreign_delete: as rcl_ctrl_foreign(),
 *		rcl_ctrl_import_foreign() and rcl_ctrl_delete_foreign(), @out
 *		zeroed; the generic layer frees @out on failure.
 *
 * Background tasks (lib/task.c calls these only for a kind in caps.tasks,
 * its target found: the drive for a rebuild, the VD for a VD's task):
 * @task_check:	what @task would refuse of the START of @req, told before
 *		it is asked (before a controller process starts): the states,
 *		the force, what else runs. Also outside the process.
 * @task:	start, stop, pause or resume @req: RCL_NOT_ALLOWED for an
 *		action the task's state does not allow, naming the task.
 * @task_progress: fill *@out (zeroed but @kind, @percent, @elapsed,
 *		@remaining, @vd and @vd_percent at -1) with where @req's task
 *		stands, from what the backend has recorded when it is not
 *		running here. Never fails for a task not under way: STOPPED.
 */
struct rcl_backend_ops {
	const char *name;
	const struct rcl_caps *caps;

	enum rcl_status (*discover)(struct rcl_ctx *ctx, char (*keys)[RCL_KEY_SIZE], size_t max,
	                            size_t *count, struct rcl_error *err);
	enum rcl_status (*create)(struct rcl_ctx *ctx, const struct rcl_kv *params, size_t count,
	                          unsigned *id, struct rcl_error *err);

	enum rcl_status (*load)(struct rcl_ctrl *ctrl, struct rcl_error *err);
	void (*unload)(struct rcl_ctrl *ctrl);
	enum rcl_status (*add_drive)(struct rcl_ctrl *ctrl, const char *path, unsigned *slot,
	                             struct rcl_error *err);
	enum rcl_status (*remove_drive)(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
	                                struct rcl_error *err);
	enum rcl_status (*destroy)(struct rcl_ctrl *ctrl, unsigned flags, struct rcl_error *err);
	enum rcl_status (*create_vd)(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
	                             unsigned *vd, struct rcl_error *err);
	enum rcl_status (*delete_vd)(struct rcl_ctrl *ctrl, unsigned vd, bool force,
	                             struct rcl_error *err);
	enum rcl_status (*set_vd)(struct rcl_ctrl *ctrl, unsigned vd,
	                          const struct rcl_vd_props *props, struct rcl_error *err);
	enum rcl_status (*add_hotspare)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                const unsigned *dgs, size_t dg_count, bool force,
	                                struct rcl_error *err);
	enum rcl_status (*delete_hotspare)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                   struct rcl_error *err);
	enum rcl_status (*set_locate)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                              bool on, struct rcl_error *err);
	enum rcl_status (*set_jbod_mode)(struct rcl_ctrl *ctrl, bool on, struct rcl_error *err);
	enum rcl_status (*set_drive_jbod)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                  bool on, struct rcl_error *err);
	enum rcl_status (*set_drive_state)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                   enum rcl_drive_change change, struct rcl_error *err);
	enum rcl_status (*foreign_show)(struct rcl_ctrl *ctrl, struct rcl_foreign *out,
	                                struct rcl_error *err);
	enum rcl_status (*foreign_import)(struct rcl_ctrl *ctrl, bool preview, bool bitmap,
	                                  struct rcl_foreign *out, struct rcl_error *err);
	enum rcl_status (*foreign_delete)(struct rcl_ctrl *ctrl, bool force,
	                                  struct rcl_foreign *out, struct rcl_error *err);

	enum rcl_status (*task_check)(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
	                              struct rcl_error *err);
	enum rcl_status (*task)(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
	                        struct rcl_error *err);
	enum rcl_status (*task_progress)(const struct rcl_ctrl *ctrl,
	                                 const struct rcl_task_request *req,
	                                 struct rcl_task_progress *out, struct rcl_error *err);
};

extern const struct rcl_backend_ops rcl_soft_ops;

#endif /* RCL_BACKEND_H */
