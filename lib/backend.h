/* SPDX-License-Identifier: MIT */
/*
 * backend.h - the contract between libraidcli's generic layer and a
 * backend: the manual for whoever adds a kind of controller.
 *
 * A backend serves one kind of controller ("soft", raidcli's engine; "mock", whose
 * controllers are JSON fixtures for tests: lib/mock/ is the smallest
 * complete example; "nvme" (lib/nvme/, the host's NVMe drives) is found
 * by discovery and hosts the soft engine for RAID (soft/host.h);
 * "megaraid" (lib/megaraid/) shows MegaRAID and PERC cards through the
 * megaraid_sas driver; "redfish" (lib/redfish/) serves a BMC's Storage
 * resources). The
 * generic layer (the files in lib/)
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
 *    runs its own tasks; such a kind also fills @process, below). "show
 *    all", the system overview and the checks before a command runs read
 *    it; nothing in the CLI names a kind.
 * 4. Add the kind's name to backend_kinds in lib/meson.build: registry.c
 *    lists every kind from it, and the folder's meson.build (which sets
 *    <kind>_sources) is read from it.
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
 * The controller process
 * ----------------------
 * A kind whose caps say needs_process runs its tasks and exports in
 * "raidcli /cN serve" (server/serve.c): the process owns the controller,
 * answers the CLI's commands on its control socket and, between them,
 * calls the kind's struct rcl_process_ops (below). server/ knows no kind:
 * everything the process does for one lives in the kind's folder (the
 * soft controller's in lib/soft/service/).
 *
 * Hosting the soft engine
 * -----------------------
 * A kind whose drives are plain block devices (nvme: the host's NVMe
 * namespaces, RAID on the CPU as Intel VROC does it) does not copy the
 * engine: it includes lib/soft/host.h, the one header of lib/soft/ another
 * folder may include, points its VD, group, spare, foreign, settings and
 * export entries at the soft ones (RCL_SOFT_ENGINE_OPS), its task and
 * process entries at the soft ones or its wrappers, and loads the engine
 * over the slots it hands it (ctrl->priv is then the engine's; the kind's
 * own data hangs off it). The engine dresses its model in the kind's
 * identity of each drive through the host's callback.
 */
#ifndef RCL_BACKEND_H
#define RCL_BACKEND_H

#include "raidcli.h"

struct rcl_ctrl;
struct rcl_process_ops;

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
 * @storcli_compat: the storclicompat= mode a controller of this kind
 *		has from its registration, and while its registry entry names
 *		none (megaraid: megaraid_sas, the driver the consumers of
 *		StorCLI's output were written for; the others: off).
 * @ctrl_caps:	for kinds whose controllers differ (mock: each fixture
 *		says what its controller can do): fill @caps, a copy of the
 *		kind's, for the controller with registry key @key, without
 *		its lock. The registry asks when it loads, so
 *		rcl_ctx_ctrl_caps(), help and completion answer for that
 *		controller. A failure leaves the kind's record; @load then
 *		reports it. NULL: every controller has the kind's @caps.
 * @backup_kind: for kinds whose controllers differ in what backs their
 *		cache, which only the controller can tell (megaraid: a
 *		battery or a CacheVault): store it in *@kind for the
 *		controller with registry key @key, without its lock.
 *		rcl_ctx_ctrl_backup_caps() asks, for the commands, help and
 *		completion of /cx/bbu and /cx/cv alone: no other command, and
 *		no registry load, asks a controller anything before it is
 *		opened. A failure leaves the kind's @caps.backup. NULL: the
 *		caps say.
 *
 * Controllers coming into being (no controller lock held):
 * @discover:	for kinds found on the host rather than created (NVMe,
 *		MegaRAID): store in @keys (at most @max) the key of every
 *		controller present, registered or not, and their number in
 *		*@count. Opening the registry (rcl_ctx_new()) asks every kind
 *		and registers a key it has not seen under the lowest free
 *		number; a key no longer reported stays registered (its @load
 *		then says the controller is gone). NULL: the kind is only ever
 *		created.
 * @create:	for kinds that are created (soft, Redfish): check
 *		@count key=value @params, naming any unknown or missing one
 *		(RCL_INVALID_COMMAND for a missing one, RCL_INVALID_PARAM for a
 *		bad value), make the backend's state and register it:
 *		rcl_registry_lock(), then rcl_registry_add() (internal.h), which
 *		returns its number in *@id. On failure, remove everything it
 *		made.
 *
 * Commands over many controllers (no lock held):
 * @prefetch:	for kinds whose controllers answer over a network (Redfish):
 *		read at once, concurrently, what @load needs for the @count
 *		controllers with registry keys @keys, which a reading command
 *		is about to open one after the other, so that it waits for the
 *		slowest of them rather than for their sum. What it read goes
 *		to *@out; the context keeps it until rcl_ctx_free(), which
 *		calls @prefetch_free on it, and @load finds it with
 *		rcl_ctx_prefetched() (internal.h) and takes its controller's
 *		part, or its failure (a dead host's), from there. A controller
 *		it does not cover, and every controller after @prefetch
 *		failed, @load reads by itself. NULL: @load reads alone.
 * @prefetch_free: free what @prefetch returned.
 * @host:	for kinds whose controllers are remote: the host serving
 *		controller @key ("bmc.example:443") into @out (@size bytes),
 *		from the kind's own state only (no lock, no network), so a
 *		result names it even when the host does not answer. NULL:
 *		the controllers are local.
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
 * @vd_expansion: fill @out (zeroed, @bytes set) with how far VD @vd can
 *		grow, as struct rcl_vd_expansion says; @why when it cannot.
 * @expand_vd:	grow VD @vd by @bytes (not 0, at most what @vd_expansion
 *		gives for @expand_array: the generic layer checked), its data
 *		in place; an exported VD never reaches it.
 * @delete_config: delete every VD, their groups and the spares dedicated
 *		to them in one change, as rcl_ctrl_delete_config(): without
 *		@force, refuse (RCL_NEED_FORCE, naming it) before any change
 *		when a VD is one @delete_vd would refuse without force. The
 *		exports are stopped, and the events are the generic layer's.
 * @add_hotspare, @delete_hotspare: as rcl_ctrl_add_hotspare() and
 *		rcl_ctrl_delete_hotspare(), the drive's state checked.
 * @set_locate:	as rcl_ctrl_set_locate(), the drive found.
 * @set_jbod_mode, @set_drive_jbod: as rcl_ctrl_set_jbod_mode() and
 *		rcl_ctrl_set_drive_jbod(), the states checked. Turning a drive's
 *		JBOD off (!@on) takes a disk the host sees away from it: a kind
 *		that cannot look whether the host uses it refuses without
 *		@force (RCL_NEED_FORCE), as its @delete_vd does.
 * @set_drive_state: as rcl_ctrl_set_drive_state() for a member (all but
 *		GOOD of a JBOD drive), the states and force checked.
 * @format_drive, @download_drive_fw, @drive_telemetry, @drive_namespace:
 *		as rcl_ctrl_format_drive(), rcl_ctrl_download_drive_fw(),
 *		rcl_ctrl_drive_telemetry() and rcl_ctrl_drive_namespace(): the
 *		drive found and present, its state and @force checked, the
 *		numbers in range. @fmt->lbaf -1: pick the format of
 *		@fmt->block_size. Where the drive itself refuses, fill @err's
 *		@detail with its status.
 * @foreign_show, @foreign_import: as rcl_ctrl_foreign() and
 *		rcl_ctrl_import_foreign(), @out zeroed; the generic layer frees
 *		@out on failure.
 * @foreign_delete: clear every foreign configuration, as
 *		rcl_ctrl_delete_foreign(); the generic layer has shown them
 *		(@foreign_show) and refused to delete none or without force.
 *
 * @set_time:	as rcl_ctrl_set_time(), for a controller with its own
 *		clock: set it to @t (UTC). NULL: the clock is the system's.
 * @insert_drive: as rcl_ctrl_insert_drive(), the drive, group, array and
 *		row checked: put the drive in that missing row.
 * @backup_learn: as rcl_ctrl_backup_learn(): start a learn cycle of the
 *		battery or CacheVault ctrl->caps.backup names.
 * @backup_props, @backup_set_props: as rcl_ctrl_backup_props() and
 *		rcl_ctrl_backup_set_props(), the battery there and @p checked.
 *
 * @drive_detail: as rcl_ctrl_drive_detail(), the drive found: add the
 *		sections only the kind knows to @out (its keys start with
 *		@prefix). NULL: nothing more to tell ("show smart" is then
 *		unsupported).
 *
 * The event log. Every controller has the log raidcli keeps of the
 * changes it made (lib/events.c); a kind whose controller keeps its own
 * (a card's firmware log, a BMC's) reads that instead:
 * @read_events: every event of the controller's own log into @list
 *		(zeroed; allocate ->events with rcl_calloc()), oldest first,
 *		@seq rising; the generic layer applies the user's filter and
 *		frees @list on failure. NULL: raidcli's own log is the log.
 * @clear_events: empty the controller's own log ("delete events"); NULL
 *		with @read_events set: the log cannot be cleared (the one
 *		"not supported" failure).
 *
 * Task settings and schedules (raidcli.h's rcl_ctrl_settings_get() and
 * friends; a backend stores them as it likes, a card in its firmware):
 * @settings_get: the controller's settings into @out, the defaults
 *		(RCL_DEFAULT_RATE, RCL_DEFAULT_DELAY, RCL_MAX_PR_DRIVES, patrol
 *		reads auto, SSDs read, no scheduled check) for what was never set.
 * @settings_set: store the settings @changes names (1u << enum
 *		rcl_setting) from @s and keep the others; the generic layer has
 *		checked that ctrl->caps offers each and that the values are in
 *		range (rcl_settings_apply() copies the changed ones, for a
 *		backend that stores the whole record). Exclusive lock held.
 * @schedule_status: what the patrol read and the scheduled consistency
 *		check are doing, @out zeroed: counts, state and next start,
 *		never text (the CLI builds StorCLI's rows).
 *
 * The controller process:
 * @process:	the hooks its process calls, for a kind whose caps say
 *		needs_process (struct rcl_process_ops); NULL for the others.
 *
 * Exports, for a kind whose caps say @exports (lib/export.c calls these
 * only then; with the cap and an op NULL, the op is unsupported):
 * @export_check: as rcl_ctrl_export_check(), @vd not yet looked up.
 * @export_start: as rcl_ctrl_export_start(), refusing what @export_check
 *		refuses too.
 * @export_stop: as rcl_ctrl_export_stop(); RCL_NOT_FOUND, naming the VD
 *		and how to list the exports, when @vd is not exported.
 * @exports:	every export, in the order they were started, into *@out
 *		(allocated with rcl_calloc(); NULL when there are none) and
 *		their number into *@count. The generic layer selects the VDs
 *		asked for, and builds on it the checks before a delete.
 * @export_needs_force, @export_waits_for_force: as the public calls of
 *		those names; NULL: no VD ever needs force.
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
	enum rcl_storcli_compat storcli_compat;

	enum rcl_status (*discover)(struct rcl_ctx *ctx, char (*keys)[RCL_KEY_SIZE], size_t max,
	                            size_t *count, struct rcl_error *err);
	enum rcl_status (*create)(struct rcl_ctx *ctx, const struct rcl_kv *params, size_t count,
	                          unsigned *id, struct rcl_error *err);

	enum rcl_status (*prefetch)(const struct rcl_ctx *ctx, const char (*keys)[RCL_KEY_SIZE],
	                            size_t count, void **out, struct rcl_error *err);
	void (*prefetch_free)(void *data);
	bool (*host)(const struct rcl_ctx *ctx, const char *key, char *out, size_t size);

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
	enum rcl_status (*delete_config)(struct rcl_ctrl *ctrl, bool force, struct rcl_error *err);
	enum rcl_status (*vd_expansion)(struct rcl_ctrl *ctrl, unsigned vd,
	                                struct rcl_vd_expansion *out, struct rcl_error *err);
	enum rcl_status (*expand_vd)(struct rcl_ctrl *ctrl, unsigned vd, uint64_t bytes,
	                             bool expand_array, struct rcl_error *err);
	enum rcl_status (*add_hotspare)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                const unsigned *dgs, size_t dg_count, unsigned flags,
	                                bool force, struct rcl_error *err);
	enum rcl_status (*delete_hotspare)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                   struct rcl_error *err);
	enum rcl_status (*set_locate)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                              bool on, struct rcl_error *err);
	enum rcl_status (*set_jbod_mode)(struct rcl_ctrl *ctrl, bool on, struct rcl_error *err);
	enum rcl_status (*set_drive_jbod)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                  bool on, bool force, struct rcl_error *err);
	enum rcl_status (*set_drive_state)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                   enum rcl_drive_change change, struct rcl_error *err);
	enum rcl_status (*insert_drive)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                unsigned dg, unsigned array, unsigned row,
	                                struct rcl_error *err);
	enum rcl_status (*format_drive)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                const struct rcl_format *fmt, struct rcl_error *err);
	enum rcl_status (*download_drive_fw)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                     const struct rcl_fw_download *fw, bool *needs_reset,
	                                     struct rcl_error *err);
	enum rcl_status (*drive_telemetry)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                   const char *path, unsigned area, uint64_t *bytes,
	                                   struct rcl_error *err);
	enum rcl_status (*drive_namespace)(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
	                                   struct rcl_ns_request *req, struct rcl_error *err);
	enum rcl_status (*foreign_show)(struct rcl_ctrl *ctrl, struct rcl_foreign *out,
	                                struct rcl_error *err);
	enum rcl_status (*foreign_import)(struct rcl_ctrl *ctrl, bool preview, bool bitmap,
	                                  struct rcl_foreign *out, struct rcl_error *err);
	enum rcl_status (*foreign_delete)(struct rcl_ctrl *ctrl, struct rcl_error *err);

	enum rcl_status (*set_time)(struct rcl_ctrl *ctrl, time_t t, struct rcl_error *err);
	enum rcl_status (*backup_learn)(struct rcl_ctrl *ctrl, struct rcl_error *err);
	enum rcl_status (*backup_props)(struct rcl_ctrl *ctrl, struct rcl_backup_props *out,
	                                struct rcl_error *err);
	enum rcl_status (*backup_set_props)(struct rcl_ctrl *ctrl, const struct rcl_backup_props *p,
	                                    unsigned which, struct rcl_error *err);

	enum rcl_status (*drive_detail)(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
	                                enum rcl_drive_detail what, const char *prefix,
	                                struct rcl_node *out, struct rcl_error *err);

	enum rcl_status (*read_events)(struct rcl_ctrl *ctrl, struct rcl_event_list *list,
	                               struct rcl_error *err);
	enum rcl_status (*clear_events)(struct rcl_ctrl *ctrl, struct rcl_error *err);

	enum rcl_status (*settings_get)(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *out,
	                                struct rcl_error *err);
	enum rcl_status (*settings_set)(struct rcl_ctrl *ctrl, unsigned changes,
	                                const struct rcl_ctrl_settings *s, struct rcl_error *err);
	enum rcl_status (*schedule_status)(struct rcl_ctrl *ctrl, struct rcl_schedule_status *out,
	                                   struct rcl_error *err);

	const struct rcl_process_ops *process;

	enum rcl_status (*ctrl_caps)(const struct rcl_ctx *ctx, const char *key,
	                             struct rcl_caps *caps, struct rcl_error *err);
	enum rcl_status (*backup_kind)(const struct rcl_ctx *ctx, const char *key,
	                               enum rcl_cache_backup *kind, struct rcl_error *err);

	enum rcl_status (*export_check)(struct rcl_ctrl *ctrl, unsigned vd,
	                                const struct rcl_export_request *req,
	                                struct rcl_error *err);
	enum rcl_status (*export_start)(struct rcl_ctrl *ctrl, unsigned vd,
	                                const struct rcl_export_request *req,
	                                struct rcl_error *err);
	enum rcl_status (*export_stop)(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err);
	enum rcl_status (*exports)(struct rcl_ctrl *ctrl, struct rcl_export_info **out,
	                           size_t *count, struct rcl_error *err);
	const char *(*export_needs_force)(const struct rcl_ctrl *ctrl, unsigned vd);
	const char *(*export_waits_for_force)(const struct rcl_ctrl *ctrl, unsigned vd);

	enum rcl_status (*task_check)(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
	                              struct rcl_error *err);
	enum rcl_status (*task)(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
	                        struct rcl_error *err);
	enum rcl_status (*task_progress)(const struct rcl_ctrl *ctrl,
	                                 const struct rcl_task_request *req,
	                                 struct rcl_task_progress *out, struct rcl_error *err);
};

/**
 * struct rcl_process_ops - what a controller's process does for its kind.
 *
 * "raidcli /cN serve" (server/serve.c) serves one controller, @id below,
 * in one loop on one thread, and calls these from that thread only, in
 * this order: @start once, then, around the commands it answers, @poll,
 * @tick, @after_command and @notified, and @stop once at the end. None
 * is handed a lock or an open controller: each opens the controller as
 * it needs (the process takes the controller lock per command, never for
 * its lifetime). They report through the process's log (service_log(),
 * server/service.h), not through a result: no user waits on them.
 *
 * @start:	the process owns the controller: start what runs without a
 *		command (the soft kind serves the exports it persisted).
 * @poll:	look for work to start: lost members to hand to hot spares,
 *		tasks that are due. Called after @start, after each command
 *		and after each @notified; a process started on demand for a
 *		command calls it only once that command ran (a command that
 *		names the drive to take a lost member's place must come first).
 * @tick:	follow the running tasks (record checkpoints, move on from
 *		those that ended). Called on every turn of the loop: at least
 *		once a second while @busy, at least every two seconds else.
 * @busy:	whether a task runs, so the loop ticks every second.
 * @after_command: a command ran and changed what it changed: bring what
 *		runs to the new configuration before the CLI gets its answer
 *		(when it returns, open volumes and exports follow the change).
 * @notified:	the process's wake-up pipe has data: @fd is its read end.
 *		The kind's own threads write to its other end
 *		(service_notify_fd()) with what only the loop may act on (a
 *		failed member to record); read it all and act on it. Called
 *		once more after @stop, for what came meanwhile.
 * @stop:	the process stops: stop every task, recording where it
 *		stood, and everything @start started.
 *
 * Where the hooks live: in the kind's folder (the soft kind's in
 * lib/soft/service/), built into libraidcli with server/'s process loop
 * and NBD server, which they use.
 */
struct rcl_process_ops {
	void (*start)(unsigned id);
	void (*poll)(unsigned id);
	void (*tick)(unsigned id);
	bool (*busy)(void);
	void (*after_command)(unsigned id);
	void (*notified)(int fd, unsigned id);
	void (*stop)(unsigned id);
};

#endif /* RCL_BACKEND_H */
