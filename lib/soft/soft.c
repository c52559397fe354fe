// SPDX-License-Identifier: MIT
/*
 * soft.c - the software RAID controller: a set of slots, each holding an
 * image file or a block device.
 *
 * The controller's own state is <state dir>/soft/<serial>.json: its serial,
 * its sector size and which backing object sits in which slot, with each
 * drive's serial number and WWN (so they stay stable across runs), and
 * whether its locate LED is on ("locate"), it is exposed as JBOD ("jbod")
 * or it is a failed drive a spare replaced ("bad": UBad until "set good"),
 * the media errors a patrol read found on it unconfigured ("media_errors"),
 * and whether the controller allows JBOD drives ("jbod"), written only when
 * set: files written before them read the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "soft/config/backing.h"
#include "soft/config/expand.h"
#include "soft/config/foreign.h"
#include "soft/config/member.h"
#include "soft/config/model.h"
#include "soft/config/scan.h"
#include "soft.h"
#include "soft/host.h"
#include "soft/config/spare.h"
#include "soft/config/state.h"
#include "soft/config/vd.h"
#include "soft/service/export.h"
#include "soft/service/settings.h"
#include "soft/tasks/schedule.h"

#define SOFT_FORMAT 1

static char *state_path_for(const struct rcl_ctx *ctx, const char *serial)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_addf(&sb, "%s/soft/%s.json", ctx->state_dir, serial);
	return rcl_buf_detach(&sb);
}

static bool copy_checked(char *dst, size_t size, const char *src)
{
	if (strlen(src) >= size)
		return false;
	strcpy(dst, src);
	return true;
}

/* An optional flag: false when absent. Return: false when present but not a boolean. */
static bool get_flag(json_object *obj, const char *key, bool *out)
{
	*out = false;
	return !json_object_object_get_ex(obj, key, NULL) || rcl_json_get_bool(obj, key, out);
}

/* A flag, written only when set. */
static void add_flag(json_object *obj, const char *key, bool on)
{
	if (on)
		json_object_object_add(obj, key, json_object_new_boolean(true));
}

static enum rcl_status parse_slot(json_object *item, const char *path, struct soft_slot *slot,
                                  struct rcl_error *err)
{
	const char *file, *serial, *wwn;
	uint64_t number, errors = 0;

	if (!json_object_is_type(item, json_type_object) ||
	    !rcl_json_get_uint(item, "slot", RCL_SOFT_MAX_DRIVES - 1, &number) ||
	    !rcl_json_get_str(item, "path", &file) || !rcl_json_get_str(item, "serial", &serial) ||
	    !rcl_json_get_str(item, "wwn", &wwn) || !rcl_json_get_bool(item, "owned", &slot->owned))
		return rcl_state_corrupt(err, path,
		                         "a slot lacks slot, path, serial, wwn or owned");
	if (file[0] != '/' || !copy_checked(slot->path, sizeof(slot->path), file) ||
	    !copy_checked(slot->serial, sizeof(slot->serial), serial) ||
	    !copy_checked(slot->wwn, sizeof(slot->wwn), wwn))
		return rcl_state_corrupt(err, path, "a slot has an invalid path, serial or wwn");
	if (!get_flag(item, "locate", &slot->locate) || !get_flag(item, "jbod", &slot->jbod) ||
	    !get_flag(item, "bad", &slot->bad))
		return rcl_state_corrupt(err, path,
		                         "a slot's locate, jbod or bad is not a boolean");
	if (json_object_object_get_ex(item, "media_errors", NULL) &&
	    !rcl_json_get_uint(item, "media_errors", UINT32_MAX, &errors))
		return rcl_state_corrupt(err, path, "a slot's media_errors is not a count");
	slot->media_errors = (unsigned)errors;
	slot->slot = (unsigned)number;
	return RCL_OK;
}

enum rcl_status rcl_soft_parse_state(json_object *root, const char *path, struct soft_ctrl *sc,
                                     struct rcl_error *err)
{
	const char *serial, *dir;
	uint64_t format, sector, created;
	json_object *slots;
	enum rcl_status st;
	size_t n;

	if (!rcl_json_get_uint(root, "format", 1000, &format) || format != SOFT_FORMAT ||
	    !rcl_json_get_str(root, "serial", &serial) ||
	    !rcl_json_get_str(root, "image_dir", &dir) ||
	    !rcl_json_get_uint(root, "sector_size", 4096, &sector) ||
	    !rcl_json_get_uint(root, "created", INT64_MAX, &created) ||
	    !json_object_object_get_ex(root, "slots", &slots) ||
	    !json_object_is_type(slots, json_type_array))
		return rcl_state_corrupt(err, path, "a controller field is missing or mistyped");
	if (!get_flag(root, "jbod", &sc->jbod))
		return rcl_state_corrupt(err, path, "jbod is not a boolean");
	/* image_dir is absolute, or empty for a controller created without images. */
	if ((sector != 512 && sector != 4096) || (dir[0] && dir[0] != '/') ||
	    !copy_checked(sc->serial, sizeof(sc->serial), serial) ||
	    !copy_checked(sc->image_dir, sizeof(sc->image_dir), dir))
		return rcl_state_corrupt(err, path, "a controller field has an invalid value");
	sc->sector_size = (unsigned)sector;
	sc->created = (time_t)created;
	n = json_object_array_length(slots);
	if (n > RCL_SOFT_MAX_DRIVES)
		return rcl_state_corrupt(err, path, "it lists more slots than a controller has");
	sc->slots = rcl_calloc(n, sizeof(*sc->slots));
	if (!sc->slots)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		st = parse_slot(json_object_array_get_idx(slots, i), path, &sc->slots[i], err);
		if (st)
			return st;
		for (size_t j = 0; j < i; j++)
			if (sc->slots[j].slot == sc->slots[i].slot)
				return rcl_state_corrupt(err, path, "two drives share a slot");
			else if (!strcmp(sc->slots[j].path, sc->slots[i].path))
				return rcl_state_corrupt(err, path, "a drive is in two slots");
		sc->slot_count++;
	}
	return RCL_OK;
}

enum rcl_status rcl_soft_save_state(const struct soft_ctrl *sc, struct rcl_error *err)
{
	json_object *root = json_object_new_object();
	json_object *slots = json_object_new_array();
	enum rcl_status st;

	if (!root || !slots) {
		json_object_put(root);
		json_object_put(slots);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	json_object_object_add(root, "format", json_object_new_int(SOFT_FORMAT));
	json_object_object_add(root, "serial", json_object_new_string(sc->serial));
	json_object_object_add(root, "created", json_object_new_int64(sc->created));
	json_object_object_add(root, "sector_size", json_object_new_int((int)sc->sector_size));
	json_object_object_add(root, "image_dir", json_object_new_string(sc->image_dir));
	add_flag(root, "jbod", sc->jbod);
	json_object_object_add(root, "slots", slots);
	for (size_t i = 0; i < sc->slot_count; i++) {
		const struct soft_slot *slot = &sc->slots[i];
		json_object *item = json_object_new_object();

		json_object_object_add(item, "slot", json_object_new_int((int)slot->slot));
		json_object_object_add(item, "path", json_object_new_string(slot->path));
		json_object_object_add(item, "serial", json_object_new_string(slot->serial));
		json_object_object_add(item, "wwn", json_object_new_string(slot->wwn));
		json_object_object_add(item, "owned", json_object_new_boolean(slot->owned));
		add_flag(item, "locate", slot->locate);
		add_flag(item, "jbod", slot->jbod);
		add_flag(item, "bad", slot->bad);
		if (slot->media_errors)
			json_object_object_add(item, "media_errors",
			                       json_object_new_int64(slot->media_errors));
		json_object_array_add(slots, item);
	}
	st = rcl_state_write(sc->state_path, root, err);
	json_object_put(root);
	return st;
}

void rcl_soft_free(struct soft_ctrl *sc)
{
	if (!sc)
		return;
	rcl_soft_state_free(sc->state);
	rcl_free(sc->state_path);
	rcl_free(sc->slots);
	rcl_free(sc);
}

/* The controller's identity and its backplane. */
static enum rcl_status fill_info(struct rcl_ctrl *ctrl, const struct soft_ctrl *sc,
                                 struct rcl_error *err)
{
	struct rcl_ctrl_info *info = &ctrl->info;

	memset(info, 0, sizeof(*info));
	snprintf(info->model, sizeof(info->model), "raidcli Soft RAID");
	snprintf(info->serial, sizeof(info->serial), "%s", sc->serial);
	snprintf(info->firmware, sizeof(info->firmware), "%s", rcl_version());
	snprintf(info->driver_name, sizeof(info->driver_name), "raidcli");
	snprintf(info->driver_version, sizeof(info->driver_version), "%s", rcl_version());
	snprintf(info->backend, sizeof(info->backend), "soft");
	info->max_drives = RCL_SOFT_MAX_DRIVES;
	info->created = sc->created;
	info->jbod = sc->jbod;

	ctrl->enclosures = rcl_calloc(1, sizeof(*ctrl->enclosures));
	if (!ctrl->enclosures)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	ctrl->enclosures->id = RCL_SOFT_ENCLOSURE;
	ctrl->enclosures->slots = RCL_SOFT_MAX_DRIVES;
	snprintf(ctrl->enclosures->product, sizeof(ctrl->enclosures->product), "Virtual");
	ctrl->enclosure_count = 1;
	return RCL_OK;
}

static enum rcl_status load_state(const struct rcl_ctx *ctx, const char *key, unsigned id,
                                  struct soft_ctrl **out, struct rcl_error *err)
{
	struct soft_ctrl *sc = rcl_calloc(1, sizeof(*sc));
	json_object *root = NULL;
	enum rcl_status st;

	if (!sc || !(sc->state_path = state_path_for(ctx, key))) {
		rcl_soft_free(sc);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	st = rcl_state_read(sc->state_path, &root, err);
	if (st == RCL_NOT_FOUND)
		st = rcl_fail(err, RCL_NOT_FOUND,
		              "controller /c%u not found: its state file '%s' is gone", id,
		              sc->state_path);
	if (!st)
		st = rcl_soft_parse_state(root, sc->state_path, sc, err);
	json_object_put(root);
	if (st) {
		rcl_soft_free(sc);
		return st;
	}
	*out = sc;
	return RCL_OK;
}

static enum rcl_status soft_load(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct rcl_soft_view view;
	struct soft_ctrl *sc;
	enum rcl_status st = load_state(ctrl->ctx, ctrl->entry.key, ctrl->entry.id, &sc, err);

	if (st)
		return st;
	st = fill_info(ctrl, sc, err);
	if (!st)
		st = rcl_soft_view_prepare(sc, &view, err);
	if (st) {
		rcl_soft_free(sc);
		return st;
	}
	ctrl->priv = sc;
	rcl_soft_view_apply(ctrl, sc, &view);
	return RCL_OK;
}

void rcl_soft_unload(struct rcl_ctrl *ctrl)
{
	rcl_soft_model_free(ctrl);
	rcl_soft_free(ctrl->priv);
	ctrl->priv = NULL;
}

/*
 * The drive that already stands on storage @mine stands on (backing.h), of
 * any controller: *@user its controller, or -1, *@slot its slot, @path its path.
 */
static enum rcl_status find_user(const struct rcl_ctx *ctx, const struct rcl_soft_backing *mine,
                                 int *user, unsigned *slot, char *path, struct rcl_error *err)
{
	struct rcl_soft_backing *other = rcl_malloc(sizeof(*other));

	*user = -1;
	if (!other)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < ctx->count && *user < 0; i++) {
		const struct rcl_registry_entry *entry = &ctx->entries[i];
		struct soft_ctrl *sc;
		enum rcl_status status;

		if (entry->ops != &rcl_soft_ops)
			continue;
		status = load_state(ctx, entry->key, entry->id, &sc, err);
		if (status == RCL_NOT_FOUND)
			continue; /* deleted meanwhile */
		if (status) {
			rcl_free(other);
			return status;
		}
		for (size_t j = 0; j < sc->slot_count && *user < 0; j++) {
			struct stat st;

			if (stat(sc->slots[j].path, &st))
				continue;
			rcl_soft_backing_of(&st, other);
			if (!rcl_soft_backing_shared(mine, other))
				continue;
			*user = (int)entry->id;
			*slot = sc->slots[j].slot;
			strcpy(path, sc->slots[j].path);
		}
		rcl_soft_free(sc);
	}
	rcl_free(other);
	return RCL_OK;
}

/*
 * Refuse @path (@real resolved, @st its stat()) when a drive of any
 * soft controller stands on the same storage (one VD would hold two
 * members on it, degraded from its first write), or a kind hosting the
 * engine holds it (rcl_soft_check_holders()).
 */
static enum rcl_status check_unused(struct rcl_ctrl *ctrl, const char *path, const char *real,
                                    const struct stat *st, struct rcl_error *err)
{
	struct rcl_soft_backing *mine = rcl_malloc(sizeof(*mine));
	char other[PATH_MAX];
	unsigned slot = 0;
	int user = -1;
	enum rcl_status status;

	if (!mine)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	rcl_soft_backing_of(st, mine);
	status = find_user(ctrl->ctx, mine, &user, &slot, other, err);
	if (!status && user < 0)
		status = rcl_soft_check_holders(ctrl, &path, mine, 1, "adding it to", err);
	rcl_free(mine);
	if (status || user < 0)
		return status;
	if (!strcmp(real, other))
		return rcl_fail(err, RCL_EXISTS,
		                "cannot use '%s': it is already a drive of /c%d, in /c%d/e%u/s%u",
		                path, user, user, RCL_SOFT_ENCLOSURE, slot);
	return rcl_fail(err, RCL_EXISTS,
	                "cannot use '%s': it is already a drive of /c%d, as '%s' in /c%d/e%u/s%u: "
	                "both reach the same storage (a link, a loop device over a file, a "
	                "partition of a disk, a device-mapper target over a device)",
	                path, user, other, user, RCL_SOFT_ENCLOSURE, slot);
}

static enum rcl_status new_identity(struct soft_slot *slot, struct rcl_error *err)
{
	enum rcl_status st;

	/* Serial "RCLD" + 12 hex digits; WWN in NAA 3 (locally assigned) form. */
	memcpy(slot->serial, "RCLD", 4);
	st = rcl_random_hex(slot->serial + 4, 12, err);
	if (!st) {
		slot->wwn[0] = '3';
		st = rcl_random_hex(slot->wwn + 1, 15, err);
	}
	return st;
}

/* Forget slot @number again (an add that failed). */
static void drop_slot(struct soft_ctrl *sc, unsigned number)
{
	for (size_t i = 0; i < sc->slot_count; i++)
		if (sc->slots[i].slot == number) {
			memmove(&sc->slots[i], &sc->slots[i + 1],
			        (sc->slot_count - i - 1) * sizeof(*sc->slots));
			sc->slot_count--;
			return;
		}
}

static enum rcl_status soft_add_drive(struct rcl_ctrl *ctrl, const char *path, unsigned *slot_out,
                                      struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	struct soft_slot *slots, *slot;
	struct rcl_soft_view view;
	char real[PATH_MAX];
	struct stat st;
	enum rcl_status status;
	unsigned number = 0;

	status = rcl_soft_check_usable(path, &st, err);
	if (status)
		return status;
	if (!realpath(path, real))
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot resolve '%s': %s", path,
		                      strerror(errno));
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < RCL_SOFT_MIN_DRIVE_BYTES)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "cannot use '%s': it holds %lld bytes, less than the %llu MiB a "
		                "drive needs",
		                path, (long long)st.st_size, RCL_SOFT_MIN_DRIVE_BYTES >> 20);
	status = check_unused(ctrl, path, real, &st, err);
	if (status)
		return status;
	for (size_t i = 0; i < sc->slot_count && sc->slots[i].slot == number; i++)
		number++;
	if (number >= RCL_SOFT_MAX_DRIVES)
		return rcl_fail(err, RCL_NOT_ALLOWED, "controller %u has no free slot (it has %u)",
		                ctrl->entry.id, RCL_SOFT_MAX_DRIVES);
	slots = rcl_realloc(sc->slots, (sc->slot_count + 1) * sizeof(*slots));
	if (!slots)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	sc->slots = slots;
	slot = &slots[sc->slot_count];
	memset(slot, 0, sizeof(*slot));
	slot->slot = number;
	strcpy(slot->path, real);
	status = new_identity(slot, err);
	if (status)
		return status;
	sc->slot_count++;
	/* The new model first: nothing may fail once the state is saved. */
	status = rcl_soft_view_prepare(sc, &view, err);
	if (!status) {
		status = rcl_soft_save_state(sc, err);
		if (status)
			rcl_soft_view_release(&view);
	}
	if (status) {
		drop_slot(sc, number);
		return status;
	}
	*slot_out = number;
	rcl_soft_view_apply(ctrl, sc, &view);
	return RCL_OK;
}

static enum rcl_status soft_remove_drive(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                                         struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	struct rcl_soft_view view;
	struct soft_slot removed;
	enum rcl_status st;
	size_t i;

	for (i = 0; i < sc->slot_count && sc->slots[i].slot != drive->slot; i++)
		;
	if (i == sc->slot_count)
		return rcl_fail(err, RCL_NOT_FOUND, "no drive in slot %u", drive->slot);
	removed = sc->slots[i];
	memmove(&sc->slots[i], &sc->slots[i + 1], (sc->slot_count - i - 1) * sizeof(*sc->slots));
	sc->slot_count--;
	st = rcl_soft_view_prepare(sc, &view, err);
	if (!st) {
		st = rcl_soft_save_state(sc, err);
		if (st)
			rcl_soft_view_release(&view);
	}
	if (st) {
		memmove(&sc->slots[i + 1], &sc->slots[i],
		        (sc->slot_count - i) * sizeof(*sc->slots));
		sc->slots[i] = removed;
		sc->slot_count++;
		return st;
	}
	rcl_soft_view_apply(ctrl, sc, &view);
	return RCL_OK;
}

static bool image_dir_is_default(const struct rcl_ctx *ctx, const struct soft_ctrl *sc)
{
	size_t len = strlen(ctx->state_dir);

	return !strncmp(sc->image_dir, ctx->state_dir, len) &&
	       !strncmp(sc->image_dir + len, "/images/", 8);
}

static enum rcl_status soft_destroy(struct rcl_ctrl *ctrl, unsigned flags, struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;

	if (unlink(sc->state_path) && errno != ENOENT)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot remove '%s': %s",
		                      sc->state_path, strerror(errno));
	if (!(flags & RCL_DELETE_IMAGES))
		return RCL_OK;
	for (size_t i = 0; i < sc->slot_count; i++)
		if (sc->slots[i].owned && unlink(sc->slots[i].path) && errno != ENOENT)
			return rcl_fail_errno(err, RCL_SYSTEM, errno,
			                      "controller deleted, but image '%s' could not be "
			                      "removed: %s",
			                      sc->slots[i].path, strerror(errno));
	/* Our own default directory goes once empty; a user's dir= stays. */
	if (image_dir_is_default(ctrl->ctx, sc))
		rmdir(sc->image_dir);
	return RCL_OK;
}

/* Set *@flag to @on and save the state file; on failure *@flag is as it was. */
static enum rcl_status save_flag(struct soft_ctrl *sc, bool *flag, bool on, struct rcl_error *err)
{
	bool was = *flag;
	enum rcl_status st;

	*flag = on;
	st = rcl_soft_save_state(sc, err);
	if (st)
		*flag = was;
	return st;
}

static struct soft_slot *find_slot(struct soft_ctrl *sc, const struct rcl_drive_ref *ref,
                                   struct rcl_error *err)
{
	for (size_t i = 0; i < sc->slot_count; i++)
		if (sc->slots[i].slot == ref->slot)
			return &sc->slots[i];
	rcl_fail(err, RCL_NOT_FOUND, "no drive in slot %u", ref->slot);
	return NULL;
}

static enum rcl_status soft_set_locate(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                       bool on, struct rcl_error *err)
{
	struct soft_slot *slot = find_slot(ctrl->priv, ref, err);
	enum rcl_status st = slot ? save_flag(ctrl->priv, &slot->locate, on, err) : RCL_NOT_FOUND;

	for (size_t i = 0; !st && i < ctrl->drive_count; i++)
		if (ctrl->drives[i].slot == ref->slot)
			ctrl->drives[i].locate = on;
	return st;
}

static enum rcl_status soft_set_jbod_mode(struct rcl_ctrl *ctrl, bool on, struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	enum rcl_status st = save_flag(sc, &sc->jbod, on, err);

	if (!st)
		ctrl->info.jbod = on;
	return st;
}

/* The drive's state follows from the flag and the configuration: read it again. */
enum rcl_status rcl_soft_set_drive_jbod_op(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                           bool on, bool force, struct rcl_error *err)
{
	struct soft_slot *slot = find_slot(ctrl->priv, ref, err);
	enum rcl_status st = slot ? save_flag(ctrl->priv, &slot->jbod, on, err) : RCL_NOT_FOUND;

	/* The drive is the host's own file or block device before and after: none is taken. */
	(void)force;
	return st ? st : rcl_soft_refresh(ctrl, err);
}

enum rcl_status rcl_soft_mark_bad(struct rcl_ctrl *ctrl, unsigned slot, struct rcl_error *err)
{
	const struct rcl_drive_ref ref = {RCL_SOFT_ENCLOSURE, slot};
	struct soft_slot *s = find_slot(ctrl->priv, &ref, err);
	enum rcl_status st = s ? save_flag(ctrl->priv, &s->bad, true, err) : RCL_NOT_FOUND;

	return st ? st : rcl_soft_refresh(ctrl, err);
}

/* "set good force" of a drive shown UBad for what it holds (model.c): erase it. */
static enum rcl_status erase_unusable(struct rcl_ctrl *ctrl, const struct rcl_drive *d,
                                      struct rcl_error *err)
{
	const struct soft_ctrl *sc = ctrl->priv;
	enum rcl_status st = rcl_soft_member_erase(&sc->state->disks[d - ctrl->drives], err);

	return st ? st : rcl_soft_refresh(ctrl, err);
}

/*
 * "set good" of a replaced failed drive clears its flag, of a drive holding
 * what raidcli cannot use erases it (the generic layer asked for force); the
 * rest is the members'.
 */
enum rcl_status rcl_soft_set_drive_state_op(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                            enum rcl_drive_change change, struct rcl_error *err)
{
	const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, ref);
	struct soft_slot *slot = find_slot(ctrl->priv, ref, err);
	enum rcl_status st;

	if (change == RCL_DRIVE_SET_GOOD && d && d->unusable[0])
		return erase_unusable(ctrl, d, err);

	if (change != RCL_DRIVE_SET_GOOD || !d || d->dg >= 0 || !slot || !slot->bad)
		return rcl_soft_set_drive_state(ctrl, ref, change, err);
	st = save_flag(ctrl->priv, &slot->bad, false, err);
	return st ? st : rcl_soft_refresh(ctrl, err);
}

/* The engine's (host.h), on the soft controller's own drives: image files, erased by overwriting.
 */
static const struct rcl_caps soft_caps = {
    .kind = "soft",
    .drive_kinds = "Image File, Block Device",
    RCL_SOFT_ENGINE_CAPS,
    .tasks = RCL_SOFT_ENGINE_TASKS | 1u << RCL_TASK_ERASE | 1u << RCL_TASK_DRIVE_INIT,
    .settings = RCL_SOFT_ENGINE_SETTINGS | 1u << RCL_SETTING_JBOD,
    .adds_drives = true,
};

const struct rcl_backend_ops rcl_soft_ops = {
    .name = "soft",
    .caps = &soft_caps,
    .create = rcl_soft_create_kv,
    .load = soft_load,
    .unload = rcl_soft_unload,
    .add_drive = soft_add_drive,
    .remove_drive = soft_remove_drive,
    .destroy = soft_destroy,
    RCL_SOFT_ENGINE_OPS,
    .set_locate = soft_set_locate,
    .set_jbod_mode = soft_set_jbod_mode,
    .set_drive_jbod = rcl_soft_set_drive_jbod_op,
    .process = &rcl_soft_process,
    .task_check = rcl_soft_task_check_op,
    .task = rcl_soft_task_op,
    .task_progress = rcl_soft_task_progress_op,
};

/* Create the sparse image for @slot in sc->image_dir; never overwrite. */
static enum rcl_status create_image(struct soft_ctrl *sc, struct soft_slot *slot, uint64_t bytes,
                                    struct rcl_error *err)
{
	int fd;

	if ((size_t)snprintf(slot->path, sizeof(slot->path), "%s/drive%u.img", sc->image_dir,
	                     slot->slot) >= sizeof(slot->path))
		return rcl_fail(err, RCL_INVALID_PARAM, "image directory '%s' is too long",
		                sc->image_dir);
	fd = open(slot->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST)
			return rcl_fail(
			    err, RCL_EXISTS,
			    "image '%s' already exists; choose another dir=", slot->path);
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot create '%s': %s", slot->path,
		                      strerror(errno));
	}
	slot->owned = true;
	if (ftruncate(fd, (off_t)bytes)) {
		int e = errno;

		close(fd);
		return rcl_fail_errno(err, RCL_SYSTEM, e, "cannot size '%s': %s", slot->path,
		                      strerror(e));
	}
	close(fd);
	return RCL_OK;
}

static enum rcl_status check_params(const struct rcl_soft_params *p, struct rcl_error *err)
{
	if (p->drives > RCL_SOFT_MAX_DRIVES)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "drives=%u is more than a soft controller's %u slots", p->drives,
		                RCL_SOFT_MAX_DRIVES);
	if (p->drives && p->drive_bytes < RCL_SOFT_MIN_DRIVE_BYTES)
		return rcl_fail(err, RCL_INVALID_PARAM, "size is below the %llu MiB a drive needs",
		                RCL_SOFT_MIN_DRIVE_BYTES >> 20);
	if (p->sector_size != 512 && p->sector_size != 4096)
		return rcl_fail(err, RCL_INVALID_PARAM, "sectorsize=%u is not 512 or 4096",
		                p->sector_size);
	return RCL_OK;
}

static enum rcl_status prepare_dir(struct rcl_ctx *ctx, const struct rcl_soft_params *p,
                                   struct soft_ctrl *sc, struct rcl_error *err)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	enum rcl_status st;

	if (p->dir)
		rcl_buf_adds(&sb, p->dir);
	else
		rcl_buf_addf(&sb, "%s/images/%s", ctx->state_dir, sc->serial);
	if (sb.oom)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = p->dir ? rcl_mkdir_p(sb.buf, 0700, err)
	            : rcl_mkdir_in(ctx->state_dir, sb.buf + strlen(ctx->state_dir) + 1, 0700, err);
	if (!st && !realpath(sb.buf, sc->image_dir))
		st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot resolve '%s': %s", sb.buf,
		                    strerror(errno));
	rcl_buf_release(&sb);
	return st;
}

static void remove_created(const struct rcl_ctx *ctx, struct soft_ctrl *sc)
{
	for (size_t i = 0; i < sc->slot_count; i++)
		if (sc->slots[i].owned)
			unlink(sc->slots[i].path);
	if (image_dir_is_default(ctx, sc))
		rmdir(sc->image_dir);
}

enum rcl_status rcl_soft_create(struct rcl_ctx *ctx, const struct rcl_soft_params *params,
                                unsigned *id, struct rcl_error *err)
{
	struct soft_ctrl *sc;
	enum rcl_status st;
	int reg_fd = -1;

	st = check_params(params, err);
	if (st)
		return st;
	sc = rcl_calloc(1, sizeof(*sc));
	if (!sc || !(sc->slots = rcl_calloc(params->drives, sizeof(*sc->slots)))) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
		goto out;
	}
	memcpy(sc->serial, "RCLC", 4);
	sc->sector_size = params->sector_size;
	sc->created = time(NULL);
	st = rcl_random_hex(sc->serial + 4, 12, err);
	/* Allocate before making directories: a failure after them must clean up. */
	if (!st && !(sc->state_path = state_path_for(ctx, sc->serial)))
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	if (!st)
		st = rcl_registry_lock(ctx, &reg_fd, err);
	if (!st)
		st = rcl_mkdir_in(ctx->state_dir, "soft", 0700, err);
	/* A controller without images gets no image directory. */
	if (!st && params->drives)
		st = prepare_dir(ctx, params, sc, err);
	if (st)
		goto out;
	for (unsigned i = 0; i < params->drives && !st; i++) {
		struct soft_slot *slot = &sc->slots[sc->slot_count];

		slot->slot = i;
		st = create_image(sc, slot, params->drive_bytes / (1 << 20) * (1 << 20), err);
		if (slot->owned)
			sc->slot_count++;
		if (!st)
			st = new_identity(slot, err);
	}
	/* State first, registry last: a crash leaves at most an orphaned file. */
	if (!st)
		st = rcl_soft_save_state(sc, err);
	if (!st) {
		st = rcl_registry_add(ctx, &rcl_soft_ops, sc->serial, id, err);
		if (st)
			unlink(sc->state_path);
	}
	if (st)
		remove_created(ctx, sc);
out:
	rcl_unlock(reg_fd);
	rcl_soft_free(sc);
	/* After the registry lock is gone: the controller lock comes first. */
	if (!st)
		rcl_event_record_created(ctx, *id);
	return st;
}
