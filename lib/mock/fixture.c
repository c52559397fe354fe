// SPDX-License-Identifier: MIT
/*
 * fixture.c - a mock controller's state, read from its JSON fixture.
 *
 * A fixture is one object (tests/fixtures/mock/ has examples):
 *   "_source"    where its values come from (keys starting with '_' are
 *                comments and ignored);
 *   "info"       model, serial (required); firmware, driver_name,
 *                driver_version, host_interface, device_interface,
 *                max_drives, jbod, created (seconds since the epoch);
 *   "caps"       struct rcl_caps: levels ["RAID0", ...], strip_min_kib,
 *                strip_max_kib, strip_default_kib, max_spans,
 *                max_drives_per_span, max_dgs, max_vds, max_vds_per_dg,
 *                default_write, default_read (required); drive_kinds,
 *                mirror_drives, tasks ["rebuild", ...], settings
 *                ["rebuildrate", ...], drive_actions ["format",
 *                "download", "telemetry", "namespace"], cache_mib, backup ("none", "bbu",
 *                "cachevault"), emergency_spare, inserts_drives; needs_process and
 *                exports, false if given: a mock never needs a controller
 *                process and never exports;
 *   "enclosures" [{id, slots, product}];
 *   "drives"     [{enclosure, slot, device_id, state ("UGood", "Onln", as
 *                PD LIST abbreviates), bytes, model, interface, medium;
 *                dg, span, row, coerced_bytes, logical_sector,
 *                physical_sector, serial, wwn, vendor, firmware, locate,
 *                present, health {media_errors, other_errors,
 *                predictive_failures, temperature_c, smart_alert,
 *                device_speed, link_speed}, attrs {name: "value"}}];
 *   "dgs"        [{id, level, spans, drives_per_span}];
 *   "vds"        [{id, dg, bytes; name, strip_kib, write, read, access,
 *                consistent, autobgi, created}];
 *   "settings"   the task settings (struct rcl_ctrl_settings), each
 *                optional: rebuildrate, ccrate, bgirate, prrate, reconrate
 *                (0-100), rebuildpriority ("rebuild", "host"), patrolread
 *                {mode ("auto", "manual", "off"), delay, start, exclude
 *                [VD numbers], max_drives, ssds ("on", "onlymixed",
 *                "off"), uncfg_areas (bool)}, cc {mode ("off", "seq", "conc"), delay, start,
 *                exclude};
 *   "tasks"      the background tasks under way (task.c describes them).
 * Groups' and VDs' states are not stored: they follow from the members',
 * as on a card. Every failure names the key and where it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mock/mock.h"

/* A reader of one file: the first failure sticks, so callers check once. */
struct reader {
	const char *file;
	enum rcl_status bad;
	enum rcl_status st;
	struct rcl_error *err;
};

static void fail(struct reader *r, const char *where, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(struct reader *r, const char *where, const char *key, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	if (r->st)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	r->st = rcl_fail(r->err, r->bad, "mock fixture '%s': %s%s%s %s", r->file, where,
	                 *where && *key ? "." : "", key, why);
}

static const char *type_name(json_type type)
{
	switch (type) {
	case json_type_object:
		return "an object";
	case json_type_array:
		return "a list";
	case json_type_string:
		return "a string";
	case json_type_int:
		return "an integer";
	case json_type_boolean:
		return "true or false";
	default:
		return "a value";
	}
}

/* Member @key of @obj, of @type: NULL when absent (a failure if @required) or mistyped. */
static json_object *field(struct reader *r, json_object *obj, const char *where, const char *key,
                          json_type type, bool required)
{
	json_object *v;

	if (r->st)
		return NULL;
	if (!json_object_object_get_ex(obj, key, &v)) {
		if (required)
			fail(r, where, key, "is missing");
		return NULL;
	}
	if (!json_object_is_type(v, type)) {
		fail(r, where, key, "must be %s", type_name(type));
		return NULL;
	}
	return v;
}

static void get_str(struct reader *r, json_object *obj, const char *where, const char *key,
                    char *dst, size_t size, bool required)
{
	json_object *v = field(r, obj, where, key, json_type_string, required);

	if (!v)
		return;
	if ((size_t)json_object_get_string_len(v) >= size)
		fail(r, where, key, "is longer than %zu characters", size - 1);
	else
		strcpy(dst, json_object_get_string(v));
}

static int64_t get_int(struct reader *r, json_object *obj, const char *where, const char *key,
                       int64_t min, int64_t max, int64_t dflt, bool required)
{
	json_object *v = field(r, obj, where, key, json_type_int, required);
	int64_t n;

	if (!v)
		return dflt;
	n = json_object_get_int64(v);
	if (n < min || n > max) {
		fail(r, where, key, "%lld is out of range (%lld to %lld)", (long long)n,
		     (long long)min, (long long)max);
		return dflt;
	}
	return n;
}

static unsigned get_uint(struct reader *r, json_object *obj, const char *where, const char *key,
                         unsigned max, bool required)
{
	return (unsigned)get_int(r, obj, where, key, 0, max, 0, required);
}

static bool get_bool(struct reader *r, json_object *obj, const char *where, const char *key,
                     bool dflt)
{
	json_object *v = field(r, obj, where, key, json_type_boolean, false);

	return v ? json_object_get_boolean(v) : dflt;
}

/* Which of @names (case-insensitive) string @v is, as its index; @dflt for none. */
static int name_of(struct reader *r, json_object *v, const char *where, const char *key,
                   const char *const *names, int count, int dflt)
{
	const char *text = json_object_get_string(v);

	if (r->st)
		return dflt;
	if (!json_object_is_type(v, json_type_string)) {
		fail(r, where, key, "must be a string");
		return dflt;
	}
	for (int i = 0; i < count; i++)
		if (names[i] && !strcasecmp(text, names[i]))
			return i;
	fail(r, where, key, "'%s' is not one of %s, %s...", text, names[0], names[1]);
	return dflt;
}

/* A name out of @names, as its index; @dflt when absent. */
static int get_name(struct reader *r, json_object *obj, const char *where, const char *key,
                    const char *const *names, int count, int dflt, bool required)
{
	json_object *v = field(r, obj, where, key, json_type_string, required);

	return v ? name_of(r, v, where, key, names, count, dflt) : dflt;
}

/* In enum rcl_raid_level's order. */
static const char *const level_names[] = {"RAID0",  "RAID1",  "RAID5",  "RAID6",
                                          "RAID10", "RAID50", "RAID60", "RAID00"};
static const char *const write_names[] = {"WT", "WB", "AWB"};
static const char *const read_names[] = {"RA", "NoRA"};
static const char *const access_names[] = {"RW", "RO", "Blocked", "RmvBlkd"};
static const char *const disk_cache_names[] = {"Default", "On", "Off"};
static const char *const io_names[] = {"Direct", "Cached"};
static const char *const backup_names[] = {"none", "bbu", "cachevault"};
const char *const rcl_mock_task_names[RCL_TASK_KIND_COUNT] = {
    [RCL_TASK_NONE] = "none",
    [RCL_TASK_REBUILD] = "rebuild",
    [RCL_TASK_CC] = "cc",
    [RCL_TASK_INIT] = "init",
    [RCL_TASK_BGI] = "bgi",
    [RCL_TASK_PATROL_READ] = "patrolread",
    [RCL_TASK_MIGRATE] = "migrate",
    [RCL_TASK_ERASE] = "erase",
    [RCL_TASK_SELF_TEST] = "selftest",
    [RCL_TASK_FW_UPDATE] = "fwupdate",
    [RCL_TASK_VD_ERASE] = "vderase",
    [RCL_TASK_DRIVE_INIT] = "driveinit",
};
static const char *const action_names[] = {
    [RCL_DRIVE_ACTION_NONE] = "none",
    [RCL_DRIVE_ACTION_FORMAT] = "format",
    [RCL_DRIVE_ACTION_FW_DOWNLOAD] = "download",
    [RCL_DRIVE_ACTION_TELEMETRY] = "telemetry",
    [RCL_DRIVE_ACTION_NAMESPACE] = "namespace",
};
static const char *const setting_names[] = {
    [RCL_SETTING_REBUILD_RATE] = "rebuildrate",
    [RCL_SETTING_CC_RATE] = "ccrate",
    [RCL_SETTING_BGI_RATE] = "bgirate",
    [RCL_SETTING_PR_RATE] = "prrate",
    [RCL_SETTING_RECON_RATE] = "reconrate",
    [RCL_SETTING_REBUILD_PRIORITY] = "rebuildpriority",
    [RCL_SETTING_CC_SCHEDULE] = "ccschedule",
    [RCL_SETTING_PR_SCHEDULE] = "prschedule",
    [RCL_SETTING_JBOD] = "jbod",
    [RCL_SETTING_VD_POLICY] = "vdpolicy",
    [RCL_SETTING_AUTO_REBUILD] = "autorebuild",
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* A list of names out of @names, as a mask of (1u << index). */
static unsigned get_mask(struct reader *r, json_object *obj, const char *where, const char *key,
                         const char *const *names, int count, bool required)
{
	json_object *list = field(r, obj, where, key, json_type_array, required);
	char at[64];
	unsigned mask = 0;

	for (size_t i = 0; list && i < json_object_array_length(list); i++) {
		snprintf(at, sizeof(at), "%s.%s[%zu]", where, key, i);
		mask |=
		    1u << name_of(r, json_object_array_get_idx(list, i), at, "", names, count, 0);
	}
	return mask;
}

static bool power_of_two(unsigned n)
{
	return n && !(n & (n - 1));
}

static void read_caps(struct reader *r, json_object *obj, struct rcl_caps *c)
{
	const char *w = "caps";

	memset(c, 0, sizeof(*c));
	strcpy(c->kind, "mock");
	get_str(r, obj, w, "drive_kinds", c->drive_kinds, sizeof(c->drive_kinds), false);
	c->levels = get_mask(r, obj, w, "levels", level_names, COUNT(level_names), true);
	c->mirror_drives = get_uint(r, obj, w, "mirror_drives", RCL_MAX_DRIVES_PER_SPAN, false);
	c->strip_min_kib = get_uint(r, obj, w, "strip_min_kib", 1024, true);
	c->strip_max_kib = get_uint(r, obj, w, "strip_max_kib", 1024, true);
	c->strip_default_kib = get_uint(r, obj, w, "strip_default_kib", 1024, true);
	c->max_spans = get_uint(r, obj, w, "max_spans", RCL_MAX_SPANS, true);
	c->max_drives_per_span =
	    get_uint(r, obj, w, "max_drives_per_span", RCL_MAX_DRIVES_PER_SPAN, true);
	c->max_dgs = get_uint(r, obj, w, "max_dgs", RCL_MAX_DGS, true);
	c->max_vds = get_uint(r, obj, w, "max_vds", RCL_MAX_VDS, true);
	c->max_vds_per_dg = get_uint(r, obj, w, "max_vds_per_dg", RCL_MAX_VDS_PER_DG, true);
	c->tasks = get_mask(r, obj, w, "tasks", rcl_mock_task_names, RCL_TASK_KIND_COUNT, false) &
	           ~(1u << RCL_TASK_NONE);
	c->settings = get_mask(r, obj, w, "settings", setting_names, COUNT(setting_names), false);
	c->drive_actions =
	    get_mask(r, obj, w, "drive_actions", action_names, COUNT(action_names), false) &
	    ~(1u << RCL_DRIVE_ACTION_NONE);
	c->default_write =
	    get_name(r, obj, w, "default_write", write_names, COUNT(write_names), 0, true);
	c->default_read =
	    get_name(r, obj, w, "default_read", read_names, COUNT(read_names), 0, true);
	c->cache_mib = get_uint(r, obj, w, "cache_mib", 1u << 20, false);
	c->backup = get_name(r, obj, w, "backup", backup_names, COUNT(backup_names), 0, false);
	c->emergency_spare = get_bool(r, obj, w, "emergency_spare", false);
	c->inserts_drives = get_bool(r, obj, w, "inserts_drives", false);
	/* Said for completeness, never true: a mock has no engine to run nor serve. */
	if (get_bool(r, obj, w, "needs_process", false))
		fail(r, w, "needs_process", "must be false: a mock controller has no process");
	if (get_bool(r, obj, w, "exports", false))
		fail(r, w, "exports", "must be false: a mock controller serves no VD");
	if (!r->st &&
	    (!power_of_two(c->strip_min_kib) || !power_of_two(c->strip_max_kib) ||
	     !power_of_two(c->strip_default_kib) || c->strip_min_kib > c->strip_default_kib ||
	     c->strip_default_kib > c->strip_max_kib))
		fail(r, w, "strip_default_kib",
		     "must lie between strip_min_kib and strip_max_kib, all powers of two");
}

static void read_info(struct reader *r, json_object *obj, struct rcl_ctrl_info *info)
{
	const char *w = "info";

	memset(info, 0, sizeof(*info));
	strcpy(info->backend, "mock");
	get_str(r, obj, w, "model", info->model, sizeof(info->model), true);
	get_str(r, obj, w, "serial", info->serial, sizeof(info->serial), true);
	get_str(r, obj, w, "firmware", info->firmware, sizeof(info->firmware), false);
	get_str(r, obj, w, "driver_name", info->driver_name, sizeof(info->driver_name), false);
	get_str(r, obj, w, "driver_version", info->driver_version, sizeof(info->driver_version),
	        false);
	get_str(r, obj, w, "host_interface", info->host_interface, sizeof(info->host_interface),
	        false);
	get_str(r, obj, w, "device_interface", info->device_interface,
	        sizeof(info->device_interface), false);
	info->max_drives = get_uint(r, obj, w, "max_drives", 4096, false);
	info->created = (time_t)get_int(r, obj, w, "created", 0, INT32_MAX, 0, false);
	info->jbod = get_bool(r, obj, w, "jbod", false);
}

/* The items of list @key of @root, allocated (*@out, *@count); false on failure. */
static bool read_list(struct reader *r, json_object *root, const char *key, size_t size,
                      bool required, void **out, size_t *count)
{
	json_object *list = field(r, root, "", key, json_type_array, required);

	*count = list ? json_object_array_length(list) : 0;
	*out = rcl_calloc(*count + 1, size);
	if (!*out && !r->st)
		r->st = rcl_fail(r->err, RCL_NOMEM, "out of memory");
	return !r->st;
}

/* Item @i of list @key of @root, as an object ("drives[2]" into @where). */
static json_object *item(struct reader *r, json_object *root, const char *key, size_t i,
                         char *where, size_t size)
{
	json_object *it = json_object_array_get_idx(json_object_object_get(root, key), i);

	snprintf(where, size, "%s[%zu]", key, i);
	if (!r->st && !json_object_is_type(it, json_type_object))
		fail(r, where, "", "must be an object");
	return r->st ? NULL : it;
}

/*
 * How list @key of a fixture is read: items of @size bytes, each by
 * @read, none the same as another by @cmp (naming @unique), sorted by it
 * if @sorted.
 */
struct list_spec {
	const char *key;
	size_t size;
	bool required, sorted;
	void (*read)(struct reader *r, json_object *o, const char *where, struct rcl_ctrl *ctrl,
	             void *item);
	int (*cmp)(const void *a, const void *b);
	const char *unique;
};

/* The items of @spec's list in @root, into *@out and *@count. */
static void read_items(struct reader *r, json_object *root, const struct list_spec *spec,
                       struct rcl_ctrl *ctrl, void **out, size_t *count)
{
	char w[64]; /* "key[index]" */

	if (!read_list(r, root, spec->key, spec->size, spec->required, out, count))
		return;
	for (size_t i = 0; i < *count; i++) {
		json_object *o = item(r, root, spec->key, i, w, sizeof(w));
		char *base = *out;

		if (!o)
			return;
		spec->read(r, o, w, ctrl, base + i * spec->size);
		for (size_t j = 0; !r->st && j < i; j++)
			if (!spec->cmp(base + j * spec->size, base + i * spec->size))
				fail(r, w, spec->unique, "is the same as %s[%zu]'s", spec->key, j);
	}
	if (!r->st && spec->sorted && *count)
		qsort(*out, *count, spec->size, spec->cmp);
}

static void read_enclosure(struct reader *r, json_object *o, const char *w, struct rcl_ctrl *ctrl,
                           void *item)
{
	struct rcl_enclosure *e = item;

	(void)ctrl;
	e->id = get_uint(r, o, w, "id", 65535, true);
	e->slots = get_uint(r, o, w, "slots", 4096, true);
	get_str(r, o, w, "product", e->product, sizeof(e->product), false);
}

static int cmp_enclosure(const void *a, const void *b)
{
	const struct rcl_enclosure *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static void read_health(struct reader *r, json_object *d, const char *where, struct rcl_drive *dr)
{
	json_object *h = field(r, d, where, "health", json_type_object, false);
	char w[48];

	if (!h)
		return;
	snprintf(w, sizeof(w), "%s.health", where);
	dr->media_errors = get_uint(r, h, w, "media_errors", UINT32_MAX, false);
	dr->other_errors = get_uint(r, h, w, "other_errors", UINT32_MAX, false);
	dr->predictive_failures = get_uint(r, h, w, "predictive_failures", UINT32_MAX, false);
	dr->temperature_c = get_uint(r, h, w, "temperature_c", 200, false);
	dr->smart_alert = get_bool(r, h, w, "smart_alert", false);
	get_str(r, h, w, "device_speed", dr->device_speed, sizeof(dr->device_speed), false);
	get_str(r, h, w, "link_speed", dr->link_speed, sizeof(dr->link_speed), false);
}

static void read_attrs(struct reader *r, json_object *d, const char *where, struct rcl_drive *dr)
{
	json_object *a = field(r, d, where, "attrs", json_type_object, false);
	char w[48];

	if (!a)
		return;
	snprintf(w, sizeof(w), "%s.attrs", where);
	json_object_object_foreach(a, key, value)
	{
		struct rcl_attr *at = &dr->attrs[dr->attr_count];

		(void)value;
		if (dr->attr_count == RCL_DRIVE_ATTRS) {
			fail(r, w, key, "is one attribute too many (at most %d)", RCL_DRIVE_ATTRS);
			return;
		}
		if (strlen(key) >= sizeof(at->key)) {
			fail(r, w, key, "is too long a name");
			return;
		}
		strcpy(at->key, key);
		get_str(r, a, w, key, at->value, sizeof(at->value), true);
		dr->attr_count++;
	}
}

static const struct rcl_enclosure *enclosure_of(const struct rcl_ctrl *ctrl, unsigned id)
{
	for (size_t i = 0; i < ctrl->enclosure_count; i++)
		if (ctrl->enclosures[i].id == id)
			return &ctrl->enclosures[i];
	return NULL;
}

static void read_drive(struct reader *r, json_object *o, const char *w, struct rcl_ctrl *ctrl,
                       void *item)
{
	struct rcl_drive *d = item;
	static const char *const states[] = {"UGood", "UBad", "Onln", "Offln", "Msng",
	                                     "GHS",   "DHS",  "Rbld", "JBOD"};
	const struct rcl_enclosure *e;

	d->enclosure = get_uint(r, o, w, "enclosure", 65535, true);
	d->slot = get_uint(r, o, w, "slot", 4095, true);
	d->device_id = get_uint(r, o, w, "device_id", 65535, true);
	d->state = get_name(r, o, w, "state", states, COUNT(states), 0, true);
	d->dg = (int)get_int(r, o, w, "dg", -1, RCL_MAX_DGS - 1, -1, false);
	d->spare_flags = (unsigned)get_int(
	    r, o, w, "spare_flags", 0, RCL_SPARE_ENCL_AFFINITY | RCL_SPARE_NONREVERTIBLE, 0, false);
	d->span = get_uint(r, o, w, "span", RCL_MAX_SPANS - 1, false);
	d->row = get_uint(r, o, w, "row", RCL_MAX_DRIVES_PER_SPAN - 1, false);
	d->kind = RCL_DRIVE_BLOCK;
	d->present = get_bool(r, o, w, "present", true);
	d->raw_bytes = (uint64_t)get_int(r, o, w, "bytes", 0, INT64_MAX, 0, true);
	/* As MegaRAID coerces: down to a whole MiB. */
	d->coerced_bytes = (uint64_t)get_int(r, o, w, "coerced_bytes", 0, (int64_t)d->raw_bytes,
	                                     (int64_t)(d->raw_bytes & ~((1ull << 20) - 1)), false);
	d->logical_sector = get_uint(r, o, w, "logical_sector", 4096, false);
	if (!d->logical_sector)
		d->logical_sector = 512;
	d->physical_sector = get_uint(r, o, w, "physical_sector", 65536, false);
	if (!d->physical_sector)
		d->physical_sector = d->logical_sector;
	get_str(r, o, w, "serial", d->serial, sizeof(d->serial), false);
	get_str(r, o, w, "wwn", d->wwn, sizeof(d->wwn), false);
	get_str(r, o, w, "vendor", d->vendor, sizeof(d->vendor), false);
	get_str(r, o, w, "model", d->model, sizeof(d->model), true);
	get_str(r, o, w, "firmware", d->firmware, sizeof(d->firmware), false);
	get_str(r, o, w, "interface", d->interface, sizeof(d->interface), true);
	get_str(r, o, w, "medium", d->medium, sizeof(d->medium), true);
	d->locate = get_bool(r, o, w, "locate", false);
	read_health(r, o, w, d);
	read_attrs(r, o, w, d);
	if (r->st)
		return;
	e = enclosure_of(ctrl, d->enclosure);
	if (!e)
		fail(r, w, "enclosure", "%u is not in \"enclosures\"", d->enclosure);
	else if (d->slot >= e->slots)
		fail(r, w, "slot", "%u is beyond enclosure %u's %u slots", d->slot, e->id,
		     e->slots);
	if (d->dg < 0 && (d->state == RCL_PD_ONLINE || d->state == RCL_PD_OFFLINE ||
	                  d->state == RCL_PD_REBUILD || d->state == RCL_PD_DHS))
		fail(r, w, "dg", "is needed for a drive in state %s", states[d->state]);
	if (d->state == RCL_PD_DHS && d->dg >= 0)
		d->spare_dgs = 1u << d->dg;
}

static int cmp_drive(const void *a, const void *b)
{
	const struct rcl_drive *x = a, *y = b;

	if (x->enclosure != y->enclosure)
		return x->enclosure < y->enclosure ? -1 : 1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

/* A group's member size and states, from its members. */
static void derive_dg(struct reader *r, const char *w, struct rcl_ctrl *ctrl, struct rcl_dg *g)
{
	unsigned lost[RCL_MAX_SPANS];
	uint64_t smallest = 0;

	for (unsigned s = 0; s < g->spans; s++)
		lost[s] = g->drives_per_span;
	for (size_t i = 0; i < ctrl->drive_count; i++) {
		const struct rcl_drive *d = &ctrl->drives[i];

		if (d->dg != (int)g->id || d->state == RCL_PD_DHS)
			continue;
		if (d->span >= g->spans || d->row >= g->drives_per_span)
			fail(r, w, "spans", "leave no place for drive %u:%u (span %u, row %u)",
			     d->enclosure, d->slot, d->span, d->row);
		else if (d->state == RCL_PD_ONLINE)
			lost[d->span] -= lost[d->span] > 0;
		if (d->present && (!smallest || d->coerced_bytes < smallest))
			smallest = d->coerced_bytes;
	}
	for (unsigned s = 0; s < g->spans; s++)
		g->span_states[s] =
		    rcl_raid_state(rcl_raid_span_level(g->level), 1, g->drives_per_span, &lost[s]);
	g->state = rcl_raid_state(g->level, g->spans, g->drives_per_span, lost);
	g->member_bytes = smallest;
	g->free_bytes =
	    smallest * g->spans * rcl_raid_span_data_drives(g->level, g->drives_per_span);
}

static void read_dg(struct reader *r, json_object *o, const char *w, struct rcl_ctrl *ctrl,
                    void *item)
{
	struct rcl_dg *g = item;

	g->id = get_uint(r, o, w, "id", RCL_MAX_DGS - 1, true);
	g->level = get_name(r, o, w, "level", level_names, COUNT(level_names), 0, true);
	g->spans = (unsigned)get_int(r, o, w, "spans", 1, RCL_MAX_SPANS, 1, true);
	g->drives_per_span =
	    (unsigned)get_int(r, o, w, "drives_per_span", 1, RCL_MAX_DRIVES_PER_SPAN, 1, true);
	if (!r->st)
		derive_dg(r, w, ctrl, g);
}

static int cmp_dg(const void *a, const void *b)
{
	const struct rcl_dg *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static struct rcl_dg *dg_of(struct rcl_ctrl *ctrl, unsigned id)
{
	for (size_t i = 0; i < ctrl->dg_count; i++)
		if (ctrl->dgs[i].id == id)
			return &ctrl->dgs[i];
	return NULL;
}

static void read_vd(struct reader *r, json_object *o, const char *w, struct rcl_ctrl *ctrl,
                    void *item)
{
	struct rcl_vd *v = item;
	struct rcl_dg *g;

	v->id = get_uint(r, o, w, "id", RCL_MAX_VDS - 1, true);
	v->dg = get_uint(r, o, w, "dg", RCL_MAX_DGS - 1, true);
	v->bytes = (uint64_t)get_int(r, o, w, "bytes", 1, INT64_MAX, 1, true);
	get_str(r, o, w, "name", v->name, sizeof(v->name), false);
	v->strip_kib = get_uint(r, o, w, "strip_kib", 1024, false);
	v->write = get_name(r, o, w, "write", write_names, COUNT(write_names),
	                    ctrl->caps.default_write, false);
	v->read = get_name(r, o, w, "read", read_names, COUNT(read_names), ctrl->caps.default_read,
	                   false);
	v->access = get_name(r, o, w, "access", access_names, COUNT(access_names), 0, false);
	v->disk_cache =
	    get_name(r, o, w, "pdcache", disk_cache_names, COUNT(disk_cache_names), 0, false);
	v->io = get_name(r, o, w, "io", io_names, COUNT(io_names), 0, false);
	v->consistent = get_bool(r, o, w, "consistent", true);
	v->autobgi = get_bool(r, o, w, "autobgi", true);
	v->created = (time_t)get_int(r, o, w, "created", 0, INT32_MAX, ctrl->info.created, false);
	g = r->st ? NULL : dg_of(ctrl, v->dg);
	if (!r->st && !g) {
		fail(r, w, "dg", "%u is not in \"dgs\"", v->dg);
		return;
	}
	if (!g)
		return;
	v->level = g->level;
	v->state = g->state;
	v->spans = g->spans;
	v->drives_per_span = g->drives_per_span;
	/* A group whose members are all gone has no size to check against. */
	if (g->member_bytes && v->bytes > g->free_bytes)
		fail(r, w, "bytes", "is more than drive group %u has left", g->id);
	g->free_bytes -= v->bytes < g->free_bytes ? v->bytes : g->free_bytes;
	g->vd_count++;
}

static int cmp_vd(const void *a, const void *b)
{
	const struct rcl_vd *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Every drive group holds a VD: a card deletes the group with its last one. */
static void check_dgs_used(struct reader *r, const struct rcl_ctrl *ctrl)
{
	for (size_t i = 0; !r->st && i < ctrl->dg_count; i++)
		if (!ctrl->dgs[i].vd_count)
			fail(r, "dgs", "", "hold drive group %u, which has no VD", ctrl->dgs[i].id);
}

static const char *const rate_names[] = {"rebuildrate", "ccrate", "bgirate", "prrate", "reconrate"};
static const char *const priority_names[] = {"rebuild", "host"};
static const char *const pr_mode_names[] = {"auto", "manual", "off"};
static const char *const pr_ssds_names[] = {"on", "onlymixed", "off"};
static const char *const cc_mode_names[] = {"off", "seq", "conc"};

static void read_schedule(struct reader *r, json_object *obj, const char *w,
                          struct rcl_schedule *out)
{
	json_object *list = field(r, obj, w, "exclude", json_type_array, false);

	out->delay =
	    (unsigned)get_int(r, obj, w, "delay", 1, RCL_MAX_DELAY, RCL_DEFAULT_DELAY, false);
	out->start = get_int(r, obj, w, "start", 0, INT64_MAX, 0, false);
	out->exclude = 0;
	for (size_t i = 0; list && i < json_object_array_length(list); i++) {
		json_object *id = json_object_array_get_idx(list, i);

		if (!json_object_is_type(id, json_type_int) || json_object_get_int64(id) < 0 ||
		    json_object_get_int64(id) >= RCL_MAX_VDS)
			fail(r, w, "exclude", "must list VD numbers (0 to %d)", RCL_MAX_VDS - 1);
		else
			out->exclude |= 1ull << json_object_get_int64(id);
	}
}

static void read_settings(struct reader *r, json_object *obj, struct rcl_ctrl_settings *s)
{
	json_object *pr = field(r, obj, "settings", "patrolread", json_type_object, false);
	json_object *cc = field(r, obj, "settings", "cc", json_type_object, false);

	for (int k = 0; k < RCL_RATE_COUNT; k++)
		s->rate[k] = (unsigned)get_int(r, obj, "settings", rate_names[k], 0, 100,
		                               RCL_DEFAULT_RATE, false);
	s->host_first = get_name(r, obj, "settings", "rebuildpriority", priority_names,
	                         COUNT(priority_names), 0, false);
	s->pr_mode = get_name(r, pr, "settings.patrolread", "mode", pr_mode_names,
	                      COUNT(pr_mode_names), RCL_PR_AUTO, false);
	read_schedule(r, pr, "settings.patrolread", &s->pr);
	s->pr_max_drives = (unsigned)get_int(r, pr, "settings.patrolread", "max_drives", 1,
	                                     RCL_MAX_PR_DRIVES, RCL_MAX_PR_DRIVES, false);
	s->pr_ssds = get_name(r, pr, "settings.patrolread", "ssds", pr_ssds_names,
	                      COUNT(pr_ssds_names), RCL_PR_SSDS_ON, false);
	s->pr_uncfg = get_bool(r, pr, "settings.patrolread", "uncfg_areas", false);
	s->cc_mode = get_name(r, cc, "settings.cc", "mode", cc_mode_names, COUNT(cc_mode_names),
	                      RCL_CC_OFF, false);
	read_schedule(r, cc, "settings.cc", &s->cc);
}

enum rcl_status rcl_mock_parse_settings(json_object *root, const char *file, enum rcl_status bad,
                                        struct rcl_ctrl_settings *out, struct rcl_error *err)
{
	struct reader r = {.file = file, .bad = bad, .err = err};
	json_object *obj = field(&r, root, "", "settings", json_type_object, false);

	memset(out, 0, sizeof(*out));
	read_settings(&r, obj, out);
	return r.st;
}

/* @sched's excluded VDs, as the list "exclude" of @obj. */
static void schedule_exclude(json_object *obj, const struct rcl_schedule *sched)
{
	json_object *list = json_object_new_array();

	for (unsigned vd = 0; vd < RCL_MAX_VDS; vd++)
		if (sched->exclude & 1ull << vd)
			json_object_array_add(list, json_object_new_int((int)vd));
	json_object_object_add(obj, "exclude", list);
}

void rcl_mock_settings_json(json_object *root, const struct rcl_ctrl_settings *s)
{
	json_object *obj = json_object_new_object(), *pr = json_object_new_object();
	json_object *cc = json_object_new_object();

	for (int k = 0; k < RCL_RATE_COUNT; k++)
		json_object_object_add(obj, rate_names[k], json_object_new_int((int)s->rate[k]));
	json_object_object_add(obj, "rebuildpriority",
	                       json_object_new_string(priority_names[s->host_first]));
	json_object_object_add(pr, "mode", json_object_new_string(pr_mode_names[s->pr_mode]));
	json_object_object_add(pr, "delay", json_object_new_int((int)s->pr.delay));
	json_object_object_add(pr, "start", json_object_new_int64(s->pr.start));
	json_object_object_add(pr, "max_drives", json_object_new_int((int)s->pr_max_drives));
	json_object_object_add(pr, "ssds", json_object_new_string(pr_ssds_names[s->pr_ssds]));
	json_object_object_add(pr, "uncfg_areas", json_object_new_boolean(s->pr_uncfg));
	json_object_object_add(obj, "patrolread", pr);
	json_object_object_add(cc, "mode", json_object_new_string(cc_mode_names[s->cc_mode]));
	json_object_object_add(cc, "delay", json_object_new_int((int)s->cc.delay));
	json_object_object_add(cc, "start", json_object_new_int64(s->cc.start));
	schedule_exclude(pr, &s->pr);
	schedule_exclude(cc, &s->cc);
	json_object_object_add(obj, "cc", cc);
	json_object_object_add(root, "settings", obj);
}

enum rcl_status rcl_mock_parse_caps(json_object *root, const char *file, enum rcl_status bad,
                                    struct rcl_caps *caps, struct rcl_error *err)
{
	struct reader r = {.file = file, .bad = bad, .err = err};
	json_object *obj = field(&r, root, "", "caps", json_type_object, true);

	if (obj)
		read_caps(&r, obj, caps);
	return r.st;
}

/* The lists of a fixture, in the order each needs the ones before. */
static const struct list_spec enclosures = {
    "enclosures", sizeof(struct rcl_enclosure), true, false, read_enclosure, cmp_enclosure, "id"};
static const struct list_spec drives = {
    "drives", sizeof(struct rcl_drive), true, true, read_drive, cmp_drive, "slot"};
static const struct list_spec dgs = {"dgs", sizeof(struct rcl_dg), false, false, read_dg, cmp_dg,
                                     "id"};
static const struct list_spec vds = {"vds", sizeof(struct rcl_vd), false, true, read_vd, cmp_vd,
                                     "id"};

enum rcl_status rcl_mock_parse(json_object *root, const char *file, enum rcl_status bad,
                               struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct reader r = {.file = file, .bad = bad, .err = err};
	json_object *info = field(&r, root, "", "info", json_type_object, true);

	json_object *caps = field(&r, root, "", "caps", json_type_object, true);

	if (info)
		read_info(&r, info, &ctrl->info);
	if (caps)
		read_caps(&r, caps, &ctrl->caps);
	read_items(&r, root, &enclosures, ctrl, (void **)&ctrl->enclosures, &ctrl->enclosure_count);
	read_items(&r, root, &drives, ctrl, (void **)&ctrl->drives, &ctrl->drive_count);
	read_items(&r, root, &dgs, ctrl, (void **)&ctrl->dgs, &ctrl->dg_count);
	for (size_t i = 0; !r.st && i < ctrl->drive_count; i++)
		if (ctrl->drives[i].dg >= 0 && !dg_of(ctrl, (unsigned)ctrl->drives[i].dg))
			fail(&r, "drives", "dg", "%d is not in \"dgs\"", ctrl->drives[i].dg);
	read_items(&r, root, &vds, ctrl, (void **)&ctrl->vds, &ctrl->vd_count);
	check_dgs_used(&r, ctrl);
	field(&r, root, "", "tasks", json_type_array, false); /* its items: task.c */
	if (!r.st) {
		struct rcl_ctrl_settings settings;

		return rcl_mock_parse_settings(root, file, bad, &settings, err);
	}
	return r.st;
}
