// SPDX-License-Identifier: MIT
/*
 * ctrl.c - a controller opened under its lock, whatever its backend.
 *
 * Lock order, everywhere: a controller's lock, then the registry lock, never
 * the other way round. Changes that other controllers must see (deleting a
 * controller, putting a drive in a slot) take the registry lock while holding
 * their controller's; creating a controller takes the registry lock alone.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

enum rcl_status rcl_ctx_entry(const struct rcl_ctx *ctx, unsigned id,
                              const struct rcl_registry_entry **out, struct rcl_error *err)
{
	for (size_t i = 0; i < ctx->count; i++)
		if (ctx->entries[i].id == id) {
			*out = &ctx->entries[i];
			return RCL_OK;
		}
	return rcl_fail(err, RCL_NOT_FOUND, "controller /c%u not found", id);
}

static char *ctrl_lock_path(const struct rcl_ctx *ctx, const struct rcl_registry_entry *entry)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_addf(&sb, "%s/locks/%s-%s.lock", ctx->state_dir, entry->ops->name, entry->key);
	return rcl_buf_detach(&sb);
}

enum rcl_status rcl_ctrl_open(struct rcl_ctx *ctx, unsigned id, enum rcl_lock lock,
                              struct rcl_ctrl **out, struct rcl_error *err)
{
	const struct rcl_registry_entry *entry;
	struct rcl_ctrl *ctrl;
	enum rcl_status st = rcl_ctx_entry(ctx, id, &entry, err);
	char *path;

	if (st)
		return st;
	ctrl = rcl_calloc(1, sizeof(*ctrl));
	path = ctrl_lock_path(ctx, entry);
	if (!ctrl || !path) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
		goto fail;
	}
	ctrl->ctx = ctx;
	ctrl->entry = *entry;
	ctrl->caps = entry->caps;
	ctrl->lock_fd = -1;
	st = rcl_mkdir_in(ctx->state_dir, "locks", 0700, err);
	if (!st)
		st = rcl_lock(path, lock, &ctrl->lock_fd, err);
	if (!st)
		st = entry->ops->load(ctrl, err);
	if (st)
		goto fail;
	rcl_free(path);
	*out = ctrl;
	return RCL_OK;
fail:
	if (ctrl) {
		rcl_unlock(ctrl->lock_fd);
		/* A load that failed half-way may have filled some of these. */
		rcl_free(ctrl->drives);
		rcl_free(ctrl->enclosures);
		rcl_free(ctrl->dgs);
		rcl_free(ctrl->vds);
	}
	rcl_free(ctrl);
	rcl_free(path);
	return st;
}

void rcl_ctrl_close(struct rcl_ctrl *ctrl)
{
	if (!ctrl)
		return;
	ctrl->entry.ops->unload(ctrl);
	rcl_free(ctrl->drives);
	rcl_free(ctrl->enclosures);
	rcl_free(ctrl->dgs);
	rcl_free(ctrl->vds);
	rcl_unlock(ctrl->lock_fd);
	rcl_free(ctrl);
}

unsigned rcl_ctrl_id(const struct rcl_ctrl *ctrl)
{
	return ctrl->entry.id;
}

const struct rcl_ctrl_info *rcl_ctrl_info(const struct rcl_ctrl *ctrl)
{
	return &ctrl->info;
}

const struct rcl_caps *rcl_ctrl_caps(const struct rcl_ctrl *ctrl)
{
	return &ctrl->caps;
}

bool rcl_ctx_ctrl_host(const struct rcl_ctx *ctx, unsigned id, char *out, size_t size)
{
	const struct rcl_registry_entry *entry;

	*out = '\0';
	return !rcl_ctx_entry(ctx, id, &entry, NULL) && entry->ops->host &&
	       entry->ops->host(ctx, entry->key, out, size);
}

enum rcl_status rcl_ctx_ctrl_caps(const struct rcl_ctx *ctx, unsigned id,
                                  const struct rcl_caps **caps, struct rcl_error *err)
{
	const struct rcl_registry_entry *entry;
	enum rcl_status st = rcl_ctx_entry(ctx, id, &entry, err);

	if (!st)
		*caps = &entry->caps;
	return st;
}

enum rcl_status rcl_ctx_ctrl_backup_caps(const struct rcl_ctx *ctx, unsigned id,
                                         struct rcl_caps *out, struct rcl_error *err)
{
	const struct rcl_registry_entry *entry;
	enum rcl_status st = rcl_ctx_entry(ctx, id, &entry, err);
	enum rcl_cache_backup kind;

	if (st)
		return st;
	*out = entry->caps;
	if (entry->ops->backup_kind && !entry->ops->backup_kind(ctx, entry->key, &kind, NULL))
		out->backup = kind;
	return RCL_OK;
}

size_t rcl_ctrl_enclosure_count(const struct rcl_ctrl *ctrl)
{
	return ctrl->enclosure_count;
}

const struct rcl_enclosure *rcl_ctrl_enclosure(const struct rcl_ctrl *ctrl, size_t index)
{
	return index < ctrl->enclosure_count ? &ctrl->enclosures[index] : NULL;
}

size_t rcl_ctrl_drive_count(const struct rcl_ctrl *ctrl)
{
	return ctrl->drive_count;
}

const struct rcl_drive *rcl_ctrl_drive(const struct rcl_ctrl *ctrl, size_t index)
{
	return index < ctrl->drive_count ? &ctrl->drives[index] : NULL;
}

size_t rcl_ctrl_dg_count(const struct rcl_ctrl *ctrl)
{
	return ctrl->dg_count;
}

const struct rcl_dg *rcl_ctrl_dg(const struct rcl_ctrl *ctrl, size_t index)
{
	return index < ctrl->dg_count ? &ctrl->dgs[index] : NULL;
}

size_t rcl_ctrl_vd_count(const struct rcl_ctrl *ctrl)
{
	return ctrl->vd_count;
}

const struct rcl_vd *rcl_ctrl_vd(const struct rcl_ctrl *ctrl, size_t index)
{
	return index < ctrl->vd_count ? &ctrl->vds[index] : NULL;
}

const struct rcl_dg *rcl_ctrl_dg_by_id(const struct rcl_ctrl *ctrl, unsigned id)
{
	for (size_t i = 0; i < ctrl->dg_count; i++)
		if (ctrl->dgs[i].id == id)
			return &ctrl->dgs[i];
	return NULL;
}

const struct rcl_vd *rcl_ctrl_vd_by_id(const struct rcl_ctrl *ctrl, unsigned id)
{
	for (size_t i = 0; i < ctrl->vd_count; i++)
		if (ctrl->vds[i].id == id)
			return &ctrl->vds[i];
	return NULL;
}

/* Log a drive put in @slot, naming it as its path /cN/eN/sN. */
static void record_drive_added(struct rcl_ctrl *ctrl, unsigned slot)
{
	for (size_t i = 0; i < ctrl->drive_count; i++) {
		const struct rcl_drive *d = &ctrl->drives[i];

		if (d->slot == slot)
			(void)rcl_event_record(ctrl, RCL_EVENT_DRIVE_ADDED, NULL,
			                       "Drive /c%u/e%u/s%u added (path %s)",
			                       rcl_ctrl_id(ctrl), d->enclosure, d->slot, d->path);
	}
}

enum rcl_status rcl_ctrl_add_drive(struct rcl_ctrl *ctrl, const char *path, unsigned *slot,
                                   struct rcl_error *err)
{
	enum rcl_status st;
	int reg_fd = -1;

	/*
	 * The backend checks that no controller has @path yet, then saves; only
	 * the registry lock keeps two controllers from both passing the check.
	 */
	st = rcl_registry_lock(ctrl->ctx, &reg_fd, err);
	if (!st)
		st = RCL_OP(ctrl, add_drive, "adding a drive", err, path, slot);
	rcl_unlock(reg_fd);
	if (!st)
		record_drive_added(ctrl, *slot);
	return st;
}

enum rcl_status rcl_ctrl_remove_drive(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                                      bool force, struct rcl_error *err)
{
	/* Copied first: the backend's refresh frees what @drive points into. */
	unsigned enclosure = drive->enclosure, slot = drive->slot;
	enum rcl_status st = rcl_ctrl_check_remove_drive(ctrl, drive, force, err);

	if (!st)
		st = RCL_OP(ctrl, remove_drive, "removing a drive", err, drive);

	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_DRIVE_REMOVED, NULL,
		                       "Drive /c%u/e%u/s%u removed", rcl_ctrl_id(ctrl), enclosure,
		                       slot);
	return st;
}

enum rcl_status rcl_ctrl_delete(struct rcl_ctrl *ctrl, unsigned flags, struct rcl_error *err)
{
	struct rcl_ctx *ctx = ctrl->ctx;
	unsigned id = rcl_ctrl_id(ctrl);
	enum rcl_status st;
	int reg_fd = -1;

	/* Refused before the registry forgets it: a kind found on the host stays. */
	if (!ctrl->entry.ops->destroy) {
		st = rcl_unsupported(err, ctrl->caps.kind, "deleting the controller", NULL);
		goto out;
	}
	st = rcl_registry_lock(ctx, &reg_fd, err);
	if (st)
		goto out;
	/*
	 * Forget the controller before dropping its state: a crash in between
	 * leaves an orphaned state file, never a registered controller whose
	 * state is gone.
	 */
	st = rcl_registry_remove(ctx, id, err);
	if (!st)
		st = ctrl->entry.ops->destroy(ctrl, flags, err);
	if (!st)
		rcl_event_log_remove(ctrl);
out:
	rcl_unlock(reg_fd);
	rcl_ctrl_close(ctrl);
	return st;
}

const char *rcl_pd_state_abbrev(enum rcl_pd_state state)
{
	static const char *const names[] = {
	    [RCL_PD_UGOOD] = "UGood",   [RCL_PD_UBAD] = "UBad",    [RCL_PD_ONLINE] = "Onln",
	    [RCL_PD_OFFLINE] = "Offln", [RCL_PD_MISSING] = "Msng", [RCL_PD_GHS] = "GHS",
	    [RCL_PD_DHS] = "DHS",       [RCL_PD_REBUILD] = "Rbld", [RCL_PD_JBOD] = "JBOD",
	};

	if ((size_t)state < sizeof(names) / sizeof(names[0]) && names[state])
		return names[state];
	return "Unknown";
}

const char *rcl_version(void)
{
	return RAIDCLI_VERSION;
}
