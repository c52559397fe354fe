// SPDX-License-Identifier: MIT
/*
 * config.c - the mock's configuration operations. Each edits a copy of
 * the controller's JSON and hands it to rcl_mock_commit(), which checks
 * it as a fixture, writes it and refreshes the model; so a failure at any
 * point leaves the controller as it was. The generic layer (lib/vd.c,
 * lib/drive.c) has checked the request as for any controller: what is
 * left here is what a card would do.
 *
 * An allocation that fails while editing leaves a null where a value
 * belongs, which the check in rcl_mock_commit() refuses.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mock/mock.h"

#define MIB (1ull << 20)

/* An editable copy of @ctrl's state, or NULL (out of memory, in @err). */
static json_object *edit_begin(const struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	const struct mock_priv *p = ctrl->priv;
	json_object *copy = NULL;

	if (json_object_deep_copy(p->root, &copy, NULL)) {
		rcl_fail(err, RCL_NOMEM, "out of memory");
		return NULL;
	}
	return copy;
}

static void set_int(json_object *obj, const char *key, int64_t value)
{
	json_object_object_add(obj, key, json_object_new_int64(value));
}

static void set_str(json_object *obj, const char *key, const char *value)
{
	json_object_object_add(obj, key, json_object_new_string(value));
}

static int64_t get_int(json_object *obj, const char *key)
{
	return json_object_get_int64(json_object_object_get(obj, key));
}

/* List @key of @root, made if absent. */
static json_object *list_of(json_object *root, const char *key)
{
	json_object *list = json_object_object_get(root, key);

	if (!list) {
		list = json_object_new_array();
		json_object_object_add(root, key, list);
	}
	return list;
}

/* The index of the item of list @key whose "id" is @id (the model says it exists). */
static size_t index_of(json_object *root, const char *key, unsigned id)
{
	json_object *list = json_object_object_get(root, key);
	size_t i = 0;

	while (i < json_object_array_length(list) &&
	       get_int(json_object_array_get_idx(list, i), "id") != id)
		i++;
	return i;
}

static json_object *by_id(json_object *root, const char *key, unsigned id)
{
	return json_object_array_get_idx(json_object_object_get(root, key),
	                                 index_of(root, key, id));
}

static json_object *drive_obj(json_object *root, const struct rcl_drive_ref *ref)
{
	json_object *list = json_object_object_get(root, "drives");

	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *d = json_object_array_get_idx(list, i);

		if (get_int(d, "enclosure") == ref->enclosure && get_int(d, "slot") == ref->slot)
			return d;
	}
	return NULL;
}

static void set_state(json_object *d, enum rcl_pd_state state, int dg)
{
	set_str(d, "state", rcl_pd_state_abbrev(state));
	json_object_object_del(d, "spare_flags");
	if (dg >= 0) {
		set_int(d, "dg", dg);
		return;
	}
	json_object_object_del(d, "dg");
	json_object_object_del(d, "span");
	json_object_object_del(d, "row");
}

static unsigned free_dg_id(const struct rcl_ctrl *ctrl)
{
	unsigned id = 0;

	while (rcl_ctrl_dg_by_id(ctrl, id))
		id++;
	return id;
}

static unsigned free_vd_id(const struct rcl_ctrl *ctrl)
{
	unsigned id = 0;

	while (rcl_ctrl_vd_by_id(ctrl, id))
		id++;
	return id;
}

/* Make the drives of @p members of new group @id; return what the group holds. */
static uint64_t add_group(const struct rcl_ctrl *ctrl, json_object *root,
                          const struct rcl_vd_params *p, unsigned id)
{
	json_object *dg = json_object_new_object();
	unsigned spans = (unsigned)(p->drive_count / p->drives_per_span);
	uint64_t smallest = UINT64_MAX;

	set_int(dg, "id", id);
	set_str(dg, "level", rcl_raid_level_name(p->level));
	set_int(dg, "spans", spans);
	set_int(dg, "drives_per_span", p->drives_per_span);
	json_object_array_add(list_of(root, "dgs"), dg);
	for (size_t i = 0; i < p->drive_count; i++) {
		json_object *d = drive_obj(root, &p->drives[i]);
		uint64_t bytes = rcl_ctrl_find_drive(ctrl, &p->drives[i])->coerced_bytes;

		set_state(d, RCL_PD_ONLINE, (int)id);
		set_int(d, "span", (int64_t)(i / p->drives_per_span));
		set_int(d, "row", (int64_t)(i % p->drives_per_span));
		smallest = bytes < smallest ? bytes : smallest;
	}
	return smallest * spans * rcl_raid_span_data_drives(p->level, p->drives_per_span);
}

enum rcl_status rcl_mock_create_vd(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                   unsigned *vd, struct rcl_error *err)
{
	const struct rcl_drive *first = rcl_ctrl_find_drive(ctrl, &params->drives[0]);
	json_object *next = edit_begin(ctrl, err), *v;
	unsigned dg = first->state == RCL_PD_UGOOD ? free_dg_id(ctrl) : (unsigned)first->dg;
	unsigned id = free_vd_id(ctrl);
	uint64_t limit, bytes;
	enum rcl_status st;

	if (!next)
		return err->status;
	limit = first->state == RCL_PD_UGOOD ? add_group(ctrl, next, params, dg)
	                                     : rcl_ctrl_dg_by_id(ctrl, dg)->free_bytes;
	/* As a card does: whole MiB, and never beyond the group. */
	bytes = params->bytes ? (params->bytes + MIB - 1) / MIB * MIB : limit;
	v = json_object_new_object();
	set_int(v, "id", id);
	set_int(v, "dg", dg);
	set_str(v, "name", params->name ? params->name : "");
	set_int(v, "bytes", (int64_t)(bytes < limit ? bytes : limit));
	set_int(v, "strip_kib", params->level == RCL_RAID1 ? 0 : params->strip_kib);
	set_str(v, "write", rcl_write_policy_name(params->write));
	set_str(v, "read", rcl_read_policy_name(params->read));
	set_str(v, "pdcache", rcl_disk_cache_policy_name(params->disk_cache));
	set_str(v, "io", rcl_io_policy_name(params->io));
	set_int(v, "created", (int64_t)time(NULL));
	json_object_array_add(list_of(next, "vds"), v);
	for (size_t i = 0; i < params->spare_count; i++)
		set_state(drive_obj(next, &params->spares[i]), RCL_PD_DHS, (int)dg);
	st = rcl_mock_commit(ctrl, next, err);
	if (!st)
		*vd = id;
	return st;
}

/* Make the members and dedicated spares of group @dg (-1: of every group) unconfigured. */
static void free_drives(json_object *root, int dg)
{
	json_object *drives = json_object_object_get(root, "drives");

	for (size_t i = 0; i < json_object_array_length(drives); i++) {
		json_object *d = json_object_array_get_idx(drives, i);

		if (json_object_object_get_ex(d, "dg", NULL) && (dg < 0 || get_int(d, "dg") == dg))
			set_state(d, RCL_PD_UGOOD, -1);
	}
}

enum rcl_status rcl_mock_delete_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                   struct rcl_error *err)
{
	const struct rcl_vd *v = rcl_ctrl_vd_by_id(ctrl, vd);
	const struct rcl_dg *g = rcl_ctrl_dg_by_id(ctrl, v->dg);
	json_object *next = edit_begin(ctrl, err);

	(void)force; /* a mock VD holds no data to protect */
	if (!next)
		return err->status;
	json_object_array_del_idx(json_object_object_get(next, "vds"), index_of(next, "vds", vd),
	                          1);
	if (g->vd_count == 1) {
		/* Its last VD: the group goes, and its members and spares are free again. */
		json_object_array_del_idx(json_object_object_get(next, "dgs"),
		                          index_of(next, "dgs", g->id), 1);
		free_drives(next, (int)g->id);
	}
	return rcl_mock_commit(ctrl, next, err);
}

enum rcl_status rcl_mock_delete_config(struct rcl_ctrl *ctrl, bool force, struct rcl_error *err)
{
	json_object *next = edit_begin(ctrl, err);

	(void)force; /* a mock VD holds no data to protect */
	if (!next)
		return err->status;
	json_object_object_add(next, "vds", json_object_new_array());
	json_object_object_add(next, "dgs", json_object_new_array());
	free_drives(next, -1);
	return rcl_mock_commit(ctrl, next, err);
}

/*
 * A card lays a group's VDs out in the order they were made: only the last
 * one has the group's free space right after it (a mock keeps no extents,
 * and its drives never grow, so expandarray finds nothing more).
 */
enum rcl_status rcl_mock_vd_expansion(struct rcl_ctrl *ctrl, unsigned vd,
                                      struct rcl_vd_expansion *out, struct rcl_error *err)
{
	const struct rcl_vd *v = rcl_ctrl_vd_by_id(ctrl, vd);
	const struct rcl_dg *g = rcl_ctrl_dg_by_id(ctrl, v->dg);

	(void)err;
	for (size_t i = 0; i < ctrl->vd_count; i++)
		if (ctrl->vds[i].dg == v->dg && ctrl->vds[i].id > vd) {
			snprintf(out->limit, sizeof(out->limit), "/v%u", ctrl->vds[i].id);
			return RCL_OK;
		}
	out->grow = out->grow_array = g->free_bytes;
	return RCL_OK;
}

enum rcl_status rcl_mock_expand_vd(struct rcl_ctrl *ctrl, unsigned vd, uint64_t bytes,
                                   bool expand_array, struct rcl_error *err)
{
	const struct rcl_vd *v = rcl_ctrl_vd_by_id(ctrl, vd);
	uint64_t free_bytes = rcl_ctrl_dg_by_id(ctrl, v->dg)->free_bytes;
	json_object *next = edit_begin(ctrl, err);

	(void)expand_array;
	if (!next)
		return err->status;
	/* As a card does: whole MiB, and never beyond the group. */
	bytes = (bytes + MIB - 1) / MIB * MIB;
	set_int(by_id(next, "vds", vd), "bytes",
	        (int64_t)(v->bytes + (bytes < free_bytes ? bytes : free_bytes)));
	return rcl_mock_commit(ctrl, next, err);
}

enum rcl_status rcl_mock_set_vd(struct rcl_ctrl *ctrl, unsigned vd,
                                const struct rcl_vd_props *props, struct rcl_error *err)
{
	json_object *next = edit_begin(ctrl, err), *v;

	if (!next)
		return err->status;
	v = by_id(next, "vds", vd);
	if (props->name)
		set_str(v, "name", props->name);
	if (props->write >= 0)
		set_str(v, "write", rcl_write_policy_name(props->write));
	if (props->read >= 0)
		set_str(v, "read", rcl_read_policy_name(props->read));
	if (props->access >= 0)
		set_str(v, "access", rcl_access_policy_name(props->access));
	if (props->disk_cache >= 0)
		set_str(v, "pdcache", rcl_disk_cache_policy_name(props->disk_cache));
	if (props->io >= 0)
		set_str(v, "io", rcl_io_policy_name(props->io));
	if (props->autobgi >= 0)
		json_object_object_add(v, "autobgi", json_object_new_boolean(props->autobgi));
	return rcl_mock_commit(ctrl, next, err);
}

/* Whether drive @d can serve the groups @dgs as a dedicated spare, as a card checks. */
static enum rcl_status check_serves(const struct rcl_ctrl *ctrl, const struct rcl_drive *d,
                                    const unsigned *dgs, size_t count, struct rcl_error *err)
{
	for (size_t i = 0; i < count; i++) {
		const struct rcl_dg *g = rcl_ctrl_dg_by_id(ctrl, dgs[i]);

		if (!g)
			return rcl_fail(err, RCL_NOT_FOUND, "drive group %u not found on /c%u",
			                dgs[i], ctrl->entry.id);
		for (size_t j = 0; j < i; j++)
			if (dgs[j] == dgs[i])
				return rcl_fail(err, RCL_INVALID_PARAM,
				                "drive group %u is named twice", dgs[i]);
		if (g->level == RCL_RAID0)
			return rcl_fail(err, RCL_NOT_ALLOWED,
			                "drive group %u is RAID0: it has no redundancy a hot spare "
			                "could restore",
			                g->id);
		if (d->coerced_bytes < g->member_bytes)
			return rcl_fail(err, RCL_DRIVE_TOO_SMALL,
			                "drive %u:%u is smaller than the members of drive group %u",
			                d->enclosure, d->slot, g->id);
	}
	return RCL_OK;
}

enum rcl_status rcl_mock_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const unsigned *dgs, size_t dg_count, unsigned flags,
                                      bool force, struct rcl_error *err)
{
	enum rcl_status st = check_serves(ctrl, rcl_ctrl_find_drive(ctrl, ref), dgs, dg_count, err);
	json_object *next, *d;

	(void)force;
	if (st)
		return st;
	next = edit_begin(ctrl, err);
	if (!next)
		return err->status;
	d = drive_obj(next, ref);
	set_state(d, dg_count ? RCL_PD_DHS : RCL_PD_GHS, dg_count ? (int)dgs[0] : -1);
	set_int(d, "spare_flags", flags);
	return rcl_mock_commit(ctrl, next, err);
}

/* Put drive @ref in @state (of group @dg, or none: -1). */
static enum rcl_status set_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                 enum rcl_pd_state state, int dg, struct rcl_error *err)
{
	json_object *next = edit_begin(ctrl, err);

	if (!next)
		return err->status;
	set_state(drive_obj(next, ref), state, dg);
	return rcl_mock_commit(ctrl, next, err);
}

enum rcl_status rcl_mock_delete_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_error *err)
{
	return set_drive(ctrl, ref, RCL_PD_UGOOD, -1, err);
}

enum rcl_status rcl_mock_set_drive_jbod(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                        bool on, bool force, struct rcl_error *err)
{
	(void)force; /* a fixture's drive is seen by no host */
	return set_drive(ctrl, ref, on ? RCL_PD_JBOD : RCL_PD_UGOOD, -1, err);
}

enum rcl_status rcl_mock_set_drive_state(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         enum rcl_drive_change change, struct rcl_error *err)
{
	int dg = rcl_ctrl_find_drive(ctrl, ref)->dg;

	switch (change) {
	case RCL_DRIVE_SET_ONLINE:
		/* No engine to rebuild it: a returned member is used as it is. */
		return set_drive(ctrl, ref, RCL_PD_ONLINE, dg, err);
	case RCL_DRIVE_SET_OFFLINE:
		return set_drive(ctrl, ref, RCL_PD_OFFLINE, dg, err);
	case RCL_DRIVE_SET_FAILED:
		return set_drive(ctrl, ref, RCL_PD_UBAD, dg, err);
	case RCL_DRIVE_SET_MISSING:
	case RCL_DRIVE_SET_GOOD:
		/* Its place in the group waits for a replacement. */
		return set_drive(ctrl, ref, RCL_PD_UGOOD, -1, err);
	}
	return rcl_fail(err, RCL_INVALID_PARAM, "unknown drive state change %d", change);
}

enum rcl_status rcl_mock_insert_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      unsigned dg, unsigned array, unsigned row,
                                      struct rcl_error *err)
{
	json_object *next = edit_begin(ctrl, err);
	json_object *d;

	if (!next)
		return err->status;
	/* It joins offline, as a card puts it: a rebuild is started apart. */
	d = drive_obj(next, ref);
	set_state(d, RCL_PD_OFFLINE, (int)dg);
	json_object_object_add(d, "span", json_object_new_int((int)array));
	json_object_object_add(d, "row", json_object_new_int((int)row));
	return rcl_mock_commit(ctrl, next, err);
}

enum rcl_status rcl_mock_set_locate(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref, bool on,
                                    struct rcl_error *err)
{
	json_object *next = edit_begin(ctrl, err);

	if (!next)
		return err->status;
	json_object_object_add(drive_obj(next, ref), "locate", json_object_new_boolean(on));
	return rcl_mock_commit(ctrl, next, err);
}

enum rcl_status rcl_mock_set_jbod_mode(struct rcl_ctrl *ctrl, bool on, struct rcl_error *err)
{
	json_object *next = edit_begin(ctrl, err);

	if (!next)
		return err->status;
	json_object_object_add(json_object_object_get(next, "info"), "jbod",
	                       json_object_new_boolean(on));
	return rcl_mock_commit(ctrl, next, err);
}

enum rcl_status rcl_mock_settings_get(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *out,
                                      struct rcl_error *err)
{
	const struct mock_priv *p = ctrl->priv;

	return rcl_mock_parse_settings(p->root, p->path, RCL_CORRUPT, out, err);
}

enum rcl_status rcl_mock_settings_set(struct rcl_ctrl *ctrl, unsigned changes,
                                      const struct rcl_ctrl_settings *s, struct rcl_error *err)
{
	struct rcl_ctrl_settings now;
	json_object *next;

	if (rcl_mock_settings_get(ctrl, &now, err))
		return err->status;
	next = edit_begin(ctrl, err);
	if (!next)
		return err->status;
	rcl_settings_apply(&now, changes, s);
	rcl_mock_settings_json(next, &now);
	return rcl_mock_commit(ctrl, next, err);
}

enum rcl_status rcl_mock_schedule_status(struct rcl_ctrl *ctrl, struct rcl_schedule_status *out,
                                         struct rcl_error *err)
{
	/* No engine runs a mock's schedules: a patrol read is under way only if listed. */
	const struct rcl_task_request req = {.kind = RCL_TASK_PATROL_READ};
	struct rcl_task_progress pr = {.kind = RCL_TASK_PATROL_READ};

	if (!(ctrl->caps.tasks & 1u << RCL_TASK_PATROL_READ))
		return RCL_OK;
	if (rcl_mock_task_progress(ctrl, &req, &pr, err))
		return err->status;
	if (pr.state == RCL_TASK_STATE_RUNNING)
		out->patrol.state = RCL_SCHEDULE_ACTIVE;
	else if (pr.state == RCL_TASK_STATE_PAUSED)
		out->patrol.state = RCL_SCHEDULE_PAUSED;
	out->patrol.percent = pr.percent > 0 ? (unsigned)pr.percent : 0;
	out->patrol.vd = pr.vd > 0 ? (unsigned)pr.vd : 0;
	return RCL_OK;
}
