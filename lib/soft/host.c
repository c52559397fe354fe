// SPDX-License-Identifier: MIT
/*
 * host.c - the soft engine over another kind's drives (host.h): its state
 * file, its slots as the host hands them over, its model dressed by the
 * host; and what the hosts hold, which a soft controller may not take.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "soft/config/backing.h"
#include "soft/config/model.h"
#include "soft/host.h"

/* The engine state of a host seen for the first time: a new serial, no slot yet. */
static enum rcl_status host_state_new(struct soft_ctrl *sc, struct rcl_error *err)
{
	enum rcl_status st;

	memcpy(sc->serial, "RCLC", 4);
	sc->sector_size = 512;
	sc->created = time(NULL);
	st = rcl_random_hex(sc->serial + 4, 12, err);
	return st ? st : rcl_soft_save_state(sc, err);
}

/* @sc's slots become @slots, each keeping the flags its number had, new ones JBOD. */
static enum rcl_status host_slots(struct soft_ctrl *sc, const struct rcl_soft_host_slot *slots,
                                  size_t count, struct rcl_error *err)
{
	struct soft_slot *next = rcl_calloc(count + 1, sizeof(*next));

	if (!next)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < count; i++) {
		struct soft_slot *s = &next[i];

		s->slot = slots[i].slot;
		s->jbod = true;
		for (size_t j = 0; j < sc->slot_count; j++)
			if (sc->slots[j].slot == s->slot)
				*s = sc->slots[j];
		if ((size_t)snprintf(s->path, sizeof(s->path), "%s", slots[i].path) >=
		        sizeof(s->path) ||
		    (size_t)snprintf(s->serial, sizeof(s->serial), "%s", slots[i].serial) >=
		        sizeof(s->serial)) {
			rcl_free(next);
			return rcl_fail(err, RCL_INVALID_PARAM, "slot %u: path or serial too long",
			                s->slot);
		}
	}
	rcl_free(sc->slots);
	sc->slots = next;
	sc->slot_count = count;
	return RCL_OK;
}

enum rcl_status rcl_soft_host_load(struct rcl_ctrl *ctrl, const struct rcl_soft_host *host,
                                   void *priv, const char *state_path,
                                   const struct rcl_soft_host_slot *slots, size_t count,
                                   struct rcl_error *err)
{
	struct soft_ctrl *sc = rcl_calloc(1, sizeof(*sc));
	struct rcl_soft_view view;
	json_object *root = NULL;
	enum rcl_status st;

	if (!sc || !(sc->state_path = rcl_strdup(state_path))) {
		rcl_soft_free(sc);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	sc->host = host;
	sc->host_priv = priv;
	st = rcl_state_read(state_path, &root, err);
	if (st == RCL_NOT_FOUND)
		st = host_state_new(sc, err);
	else if (!st)
		st = rcl_soft_parse_state(root, state_path, sc, err);
	json_object_put(root);
	if (!st)
		st = host_slots(sc, slots, count, err);
	if (!st)
		st = rcl_soft_view_prepare(sc, &view, err);
	if (st) {
		rcl_soft_free(sc);
		return st;
	}
	ctrl->priv = sc;
	rcl_soft_view_apply(ctrl, sc, &view);
	/* Named as a soft controller is: the serial its records and exports bear. */
	snprintf(ctrl->info.serial, sizeof(ctrl->info.serial), "%s", sc->serial);
	return RCL_OK;
}

void *rcl_soft_host_priv(const struct rcl_ctrl *ctrl)
{
	const struct soft_ctrl *sc = ctrl->priv;

	return sc ? sc->host_priv : NULL;
}

/* rcl_soft_check_holders() of one controller, @holder. */
static enum rcl_status check_holder(const struct rcl_ctrl *holder, const char *path,
                                    const struct rcl_soft_backing *mine, const char *what,
                                    struct rcl_soft_backing *other, struct rcl_error *err)
{
	const struct soft_ctrl *sc = holder->priv;
	char name[PATH_MAX + 64];

	for (size_t i = 0; i < sc->slot_count; i++) {
		struct rcl_drive_ref ref = {RCL_SOFT_ENCLOSURE, sc->slots[i].slot};
		const struct rcl_drive *d = rcl_ctrl_find_drive(holder, &ref);
		struct stat st;

		if (!d || stat(sc->slots[i].path, &st))
			continue;
		rcl_soft_backing_of(&st, other);
		if (!rcl_soft_backing_shared(mine, other))
			continue;
		snprintf(name, sizeof(name), "cannot use '%s': drive /c%u/e%u/s%u", path,
		         holder->entry.id, ref.enclosure, ref.slot);
		return rcl_drive_check_held(holder, d, name, what, err);
	}
	return RCL_OK;
}

/* Whether @entry is a controller of another kind than @taker's that runs the engine. */
static bool may_hold(const struct rcl_ctrl *taker, const struct rcl_registry_entry *entry)
{
	/* Another kind: find_user() keeps soft controllers apart; a host has one nvme. */
	return entry->ops != taker->entry.ops && entry->ops->create_vd == rcl_soft_create_vd;
}

enum rcl_status rcl_soft_check_holders(const struct rcl_ctrl *taker, const char *const *paths,
                                       const struct rcl_soft_backing *mine, size_t count,
                                       const char *doing, struct rcl_error *err)
{
	struct rcl_ctx *ctx = taker->ctx;
	char what[96];
	/* Each holder, opened when first asked about and kept open for the drives after. */
	struct rcl_ctrl **holders = rcl_calloc(ctx->count + 1, sizeof(*holders));
	struct rcl_soft_backing *other = rcl_malloc(sizeof(*other));
	enum rcl_status st = holders && other ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");

	snprintf(what, sizeof(what), "%s /c%u", doing, taker->entry.id);
	for (size_t d = 0; !st && d < count; d++)
		for (size_t i = 0; !st && i < ctx->count; i++) {
			if (!may_hold(taker, &ctx->entries[i]))
				continue;
			if (!holders[i])
				st = rcl_ctrl_open(ctx, ctx->entries[i].id, RCL_LOCK_SHARED_NESTED,
				                   &holders[i], err);
			if (!st)
				st = check_holder(holders[i], paths[d], &mine[d], what, other, err);
		}
	for (size_t i = 0; holders && i < ctx->count; i++)
		if (holders[i])
			rcl_ctrl_close(holders[i]);
	rcl_free(holders);
	rcl_free(other);
	return st;
}

enum rcl_status rcl_soft_check_held_elsewhere(const struct rcl_ctrl *ctrl, const char *const *paths,
                                              size_t count, struct rcl_error *err)
{
	struct rcl_soft_backing *mine = rcl_calloc(count + 1, sizeof(*mine));
	const char **present = rcl_calloc(count + 1, sizeof(*present));
	size_t n = 0;
	struct stat st;
	enum rcl_status status = RCL_OK;

	if (!mine || !present)
		status = rcl_fail(err, RCL_NOMEM, "out of memory");
	/* A drive gone meanwhile is for the caller to refuse, as it reads it. */
	for (size_t i = 0; !status && i < count; i++)
		if (!stat(paths[i], &st)) {
			rcl_soft_backing_of(&st, &mine[n]);
			present[n++] = paths[i];
		}
	if (n)
		status = rcl_soft_check_holders(
		    ctrl, present, mine, n, "importing or deleting its foreign configuration on",
		    err);
	rcl_free(present);
	rcl_free(mine);
	return status;
}
