/* SPDX-License-Identifier: MIT */
/*
 * host.h - the soft engine hosted by another kind: the one header outside
 * lib/soft/ may include (backend.h, "Hosting the soft engine").
 *
 * A kind whose drives are block devices of its own (nvme: the host's
 * NVMe namespaces, the VROC way) gets the soft controller's RAID by
 * filling its ops table with RCL_SOFT_ENGINE_OPS (VD, group, hot spare,
 * member state, foreign, settings and export entries) and pointing its
 * task and process entries at the soft ones below (or at wrappers of
 * them, as soft.h declares them). For them ctrl->priv is the
 * engine's struct soft_ctrl: the host loads it with rcl_soft_host_load(),
 * keeps its own data in it (rcl_soft_host_priv()) and frees it with
 * rcl_soft_unload(). The engine keeps the slots' flags (JBOD,
 * locate, replaced) in a soft-format state file the host names; which
 * device sits in which slot is the host's to say on every load, so a
 * slot whose device is gone is not handed over and its members are
 * missing: the VD degraded. The controller process fails such a member
 * (at its next poll, or at once when an exported VD's I/O meets the gone
 * device), and a hot spare rebuilds it; a host whose devices can vanish
 * with no I/O to tell has its process poll when they do (nvme/process.c).
 */
#ifndef RCL_SOFT_HOST_H
#define RCL_SOFT_HOST_H

#include "soft/config/expand.h"
#include "soft/config/foreign.h"
#include "soft/config/spare.h"
#include "soft/config/vd.h"
#include "soft/service/export.h"
#include "soft/service/settings.h"
#include "soft/soft.h"
#include "soft/tasks/schedule.h"

/*
 * What the engine gives a controller's capabilities (struct rcl_caps),
 * whoever hosts it: its levels and limits (the model's, raidcli.h; md's
 * near-2 mirrors) and its process and exports (RCL_SOFT_ENGINE_CAPS), the
 * tasks it runs on VDs and members and their settings.
 */
#define RCL_SOFT_ENGINE_CAPS                                                                       \
	.levels = 1u << RCL_RAID0 | 1u << RCL_RAID1 | 1u << RCL_RAID5 | 1u << RCL_RAID6 |          \
	          1u << RCL_RAID10 | 1u << RCL_RAID50 | 1u << RCL_RAID60 | 1u << RCL_RAID00,       \
	.mirror_drives = 2, .strip_min_kib = 8, .strip_max_kib = 1024, .strip_default_kib = 64,    \
	.max_spans = RCL_MAX_SPANS, .max_drives_per_span = RCL_MAX_DRIVES_PER_SPAN,                \
	.max_dgs = RCL_MAX_DGS, .max_vds = RCL_MAX_VDS, .max_vds_per_dg = RCL_MAX_VDS_PER_DG,      \
	.default_write = RCL_WRITE_THROUGH, .default_read = RCL_READ_AHEAD, .needs_process = true, \
	.exports = true
#define RCL_SOFT_ENGINE_TASKS                                                                      \
	(1u << RCL_TASK_REBUILD | 1u << RCL_TASK_CC | 1u << RCL_TASK_INIT | 1u << RCL_TASK_BGI |   \
	 1u << RCL_TASK_PATROL_READ | 1u << RCL_TASK_MIGRATE | 1u << RCL_TASK_VD_ERASE)
#define RCL_SOFT_ENGINE_SETTINGS                                                                   \
	(1u << RCL_SETTING_REBUILD_RATE | 1u << RCL_SETTING_CC_RATE | 1u << RCL_SETTING_BGI_RATE | \
	 1u << RCL_SETTING_PR_RATE | 1u << RCL_SETTING_RECON_RATE |                                \
	 1u << RCL_SETTING_REBUILD_PRIORITY | 1u << RCL_SETTING_CC_SCHEDULE |                      \
	 1u << RCL_SETTING_PR_SCHEDULE | 1u << RCL_SETTING_VD_POLICY)

/*
 * The engine's entries of a host's struct rcl_backend_ops: VDs, groups,
 * spares, member states, foreign configurations, settings, schedules and
 * exports, whoever hosts it, so a new engine op is added here once. The
 * drive, task and process entries stay each kind's own (a host wraps the
 * engine's rcl_soft_task_*_op() around its drives' tasks).
 */
#define RCL_SOFT_ENGINE_OPS                                                                        \
	.create_vd = rcl_soft_create_vd, .delete_vd = rcl_soft_delete_vd,                          \
	.set_vd = rcl_soft_set_vd, .delete_config = rcl_soft_delete_config,                        \
	.vd_expansion = rcl_soft_vd_expansion, .expand_vd = rcl_soft_expand_vd,                    \
	.add_hotspare = rcl_soft_add_hotspare, .delete_hotspare = rcl_soft_delete_hotspare,        \
	.set_drive_state = rcl_soft_set_drive_state_op, .foreign_show = rcl_soft_foreign_show,     \
	.foreign_import = rcl_soft_foreign_import, .foreign_delete = rcl_soft_foreign_delete,      \
	.settings_get = rcl_soft_settings_get, .settings_set = rcl_soft_settings_set,              \
	.schedule_status = rcl_soft_schedule_status, .export_check = rcl_soft_export_check,        \
	.export_start = rcl_soft_export_start, .export_stop = rcl_soft_export_stop,                \
	.exports = rcl_soft_exports, .export_needs_force = rcl_soft_export_needs_force,            \
	.export_waits_for_force = rcl_soft_export_waits_for_force

/**
 * struct rcl_soft_host - what the engine asks of its host.
 * @dress:	after every model the engine builds into @ctrl (load and
 *		each change): give ctrl->drives the host's identity for
 *		their slots, keeping the engine's state, group and spare
 *		fields, and add the host's drives the engine does not hold
 *		(ctrl->drives may be reallocated).
 */
struct rcl_soft_host {
	void (*dress)(struct rcl_ctrl *ctrl);
};

/* One slot the host hands to the engine: its number and its block device. */
struct rcl_soft_host_slot {
	unsigned slot;
	const char *path;
	const char *serial;
};

/**
 * rcl_soft_host_load() - load the engine over @count @slots (ordered or
 * not) into ctrl->priv, with @priv as the host's own data, the flags kept
 * in @state_path (made, with a new controller serial, when there is none:
 * a slot not in it yet starts JBOD, the host's drives being exposed as
 * they are), then build the model and dress it with @host. The
 * controller's serial (ctrl->info) becomes the engine's, kept in
 * @state_path, as a soft controller's is: stable, and the one its
 * records and exports bear.
 * Return: RCL_OK; RCL_CORRUPT naming @state_path; the scan's errors.
 * On failure ctrl->priv is NULL and @priv is the caller's.
 */
enum rcl_status rcl_soft_host_load(struct rcl_ctrl *ctrl, const struct rcl_soft_host *host,
                                   void *priv, const char *state_path,
                                   const struct rcl_soft_host_slot *slots, size_t count,
                                   struct rcl_error *err);

/* rcl_soft_host_priv() - the host's data rcl_soft_host_load() was given. */
void *rcl_soft_host_priv(const struct rcl_ctrl *ctrl);

/* The soft controller's own drive operations, as struct rcl_backend_ops names them. */
enum rcl_status rcl_soft_set_drive_jbod_op(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                           bool on, bool force, struct rcl_error *err);
enum rcl_status rcl_soft_set_drive_state_op(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                            enum rcl_drive_change change, struct rcl_error *err);

struct rcl_soft_backing;

/**
 * rcl_soft_check_holders() - refuse the @count drives at @paths, drive i
 * standing on storage @mine[i], to @taker (a soft controller adding one,
 * or any controller running the engine importing or deleting the foreign
 * configuration on them), @doing that ("adding it to": the message names
 * @taker after it), when a controller of another kind running the engine
 * holds that storage in its configuration, by the rule that keeps such a
 * drive from being formatted (rcl_drive_check_held()): a member of one of
 * its groups or a hot spare. Its other drives are the holder's to give.
 * One rule both ways: a soft controller does not take an nvme RAID's
 * namespace, nor the nvme kind a namespace a soft controller's VD stands
 * on. Drive by drive in the order given, each holder opened once however
 * many drives are asked about.
 * Return: RCL_OK; RCL_NOT_ALLOWED naming the holder (of the first drive
 * held); as rcl_ctrl_open().
 */
enum rcl_status rcl_soft_check_holders(const struct rcl_ctrl *taker, const char *const *paths,
                                       const struct rcl_soft_backing *mine, size_t count,
                                       const char *doing, struct rcl_error *err);

/*
 * rcl_soft_check_held_elsewhere() - rcl_soft_check_holders() of the
 * @count drives at @paths, drives of @ctrl (those gone are skipped): before
 * a foreign configuration on them is imported or deleted, for to @ctrl a
 * live array of another kind running the engine is foreign (its records
 * bear another serial).
 */
enum rcl_status rcl_soft_check_held_elsewhere(const struct rcl_ctrl *ctrl, const char *const *paths,
                                              size_t count, struct rcl_error *err);

#endif /* RCL_SOFT_HOST_H */
