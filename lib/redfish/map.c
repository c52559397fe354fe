// SPDX-License-Identifier: MIT
/*
 * map.c - a Storage resource, and what it links to, as raidcli's model:
 * pure functions over a document cache (@odata.id -> resource), no I/O,
 * so tests/fuzz/fuzz-redfish.c can feed them anything.
 *
 * Only links the service gave are followed, never URIs built from ids:
 * Storage.StorageControllers[] (inline) or Storage.Controllers (a
 * collection); Storage.Drives[], wherever they live (under the Storage or
 * a Chassis), each Drive's Links.Chassis (its enclosure) and Metrics and
 * EnvironmentMetrics; Storage.Volumes and each Volume's Links.Drives.
 *
 * Mapping: each Chassis the drives name is an enclosure (ids from 252, in
 * the order the drives name them); PhysicalLocation, else the older
 * Location[], gives the slot; a Volume is one VD on its own disk group.
 * States follow StorCLI's: a spare (HotspareType) GHS/DHS, a volume's
 * member Onln, Rbld while a Rebuild operation runs, UBad when its Health
 * is Critical; a VD's state from its members (Dgrd, Pdgd, OfLn), no
 * better than its own Health says.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redfish/json.h"
#include "redfish/message.h"
#include "redfish/map.h"

/* Slots beyond this are a lying BMC's. */
#define MAX_SLOT 4096

json_object *rcl_redfish_doc(json_object *docs, const char *uri)
{
	json_object *d = NULL;

	return json_object_object_get_ex(docs, uri, &d) ? d : NULL;
}

/* A link into a resource itself ("...#/StorageControllers/0") is not fetched. */
static bool fetchable(const char *uri)
{
	return !strchr(uri, '#');
}

static enum rcl_status want(json_object *docs, json_object *out, const char *uri,
                            struct rcl_error *err)
{
	size_t n = json_object_array_length(out);

	if (!uri || !fetchable(uri) || rcl_redfish_doc(docs, uri))
		return RCL_OK;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(out, i)), uri))
			return RCL_OK;
	if (json_object_array_add(out, json_object_new_string(uri)))
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	return RCL_OK;
}

/* The @odata.id of element @i of link array @arr of resource @where, into *@out. */
enum rcl_status rcl_redfish_element(json_object *arr, size_t i, const char *where, const char **out,
                                    struct rcl_error *err)
{
	json_object *el = json_object_array_get_idx(arr, i);

	if (!json_object_is_type(el, json_type_object))
		return rcl_fail(err, RCL_BAD_REPLY, "a link of '%s' is not an object", where);
	return rcl_redfish_string(el, "@odata.id", false, where, out, err);
}

/* Links array @key of @obj (optional), as rcl_redfish_member(). */
enum rcl_status rcl_redfish_links(json_object *obj, const char *key, const char *where,
                                  json_object **out, struct rcl_error *err)
{
	return rcl_redfish_member(obj, key, json_type_array, true, where, out, err);
}

/* Want every link of array @arr (of resource @where). */
static enum rcl_status want_all(json_object *docs, json_object *out, json_object *arr,
                                const char *where, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;
	const char *uri;

	for (size_t i = 0; !st && arr && i < json_object_array_length(arr); i++) {
		st = rcl_redfish_element(arr, i, where, &uri, err);
		if (!st)
			st = want(docs, out, uri, err);
	}
	return st;
}

/* Want the members of collection @uri once it is read; the collection first. */
static enum rcl_status want_collection(json_object *docs, json_object *out, const char *uri,
                                       struct rcl_error *err)
{
	json_object *coll = uri ? rcl_redfish_doc(docs, uri) : NULL, *members;
	enum rcl_status st;

	if (!uri || !coll)
		return want(docs, out, uri, err);
	st = rcl_redfish_member(coll, "Members", json_type_array, false, uri, &members, err);
	return st ? st : want_all(docs, out, members, uri, err);
}

/* A Volume's drives: Links.Drives, or Drives in older schemas. */
enum rcl_status rcl_redfish_volume_drives(json_object *vol, const char *where, json_object **out,
                                          struct rcl_error *err)
{
	json_object *links;
	enum rcl_status st =
	    rcl_redfish_member(vol, "Links", json_type_object, true, where, &links, err);

	*out = NULL;
	if (!st && links)
		st = rcl_redfish_links(links, "Drives", where, out, err);
	if (!st && !*out)
		st = rcl_redfish_links(vol, "Drives", where, out, err);
	return st;
}

static enum rcl_status want_drive(json_object *docs, json_object *out, const char *uri,
                                  struct rcl_error *err)
{
	json_object *d = rcl_redfish_doc(docs, uri), *links;
	const char *chassis = NULL, *metrics = NULL, *env = NULL;
	enum rcl_status st;

	if (!d)
		return want(docs, out, uri, err);
	st = rcl_redfish_member(d, "Links", json_type_object, true, uri, &links, err);
	if (!st && links)
		st = rcl_redfish_link(links, "Chassis", true, uri, &chassis, err);
	if (!st)
		st = rcl_redfish_link(d, "Metrics", true, uri, &metrics, err);
	if (!st)
		st = rcl_redfish_link(d, "EnvironmentMetrics", true, uri, &env, err);
	if (!st)
		st = want(docs, out, chassis, err);
	if (!st)
		st = want(docs, out, metrics, err);
	return st ? st : want(docs, out, env, err);
}

enum rcl_status rcl_redfish_wanted(json_object *docs, const char *storage, json_object *out,
                                   struct rcl_error *err)
{
	json_object *s = rcl_redfish_doc(docs, storage), *drives = NULL;
	const char *controllers = NULL, *volumes = NULL, *uri;
	enum rcl_status st;

	if (!s)
		return want(docs, out, storage, err);
	st = rcl_redfish_link(s, "Controllers", true, storage, &controllers, err);
	if (!st)
		st = rcl_redfish_link(s, "Volumes", true, storage, &volumes, err);
	if (!st)
		st = rcl_redfish_links(s, "Drives", storage, &drives, err);
	if (!st)
		st = want_collection(docs, out, controllers, err);
	if (!st)
		st = want_collection(docs, out, volumes, err);
	for (size_t i = 0; !st && drives && i < json_object_array_length(drives); i++) {
		st = rcl_redfish_element(drives, i, storage, &uri, err);
		if (!st)
			st = want_drive(docs, out, uri, err);
	}
	return st;
}

/* ------------------------------------------------------------------------
 * Reading values: absent is a default, the wrong type is a bad reply.
 */

/* Resource @uri, which must be in the cache. */
enum rcl_status rcl_redfish_need(json_object *docs, const char *uri, json_object **out,
                                 struct rcl_error *err)
{
	char shown[RCL_QUOTE_MAX + 1];

	*out = rcl_redfish_doc(docs, uri);
	if (*out && json_object_is_type(*out, json_type_object))
		return RCL_OK;
	rcl_redfish_clean(uri, shown, sizeof(shown));
	return rcl_fail(err, RCL_BAD_REPLY, "resource '%s' was not read as an object", shown);
}

/* String @key of @obj cleaned into @out (""), when present. */
enum rcl_status rcl_redfish_text(json_object *obj, const char *key, const char *where, char *out,
                                 size_t size, struct rcl_error *err)
{
	const char *s;
	enum rcl_status st = rcl_redfish_string(obj, key, true, where, &s, err);

	if (!st && s && !*out)
		rcl_redfish_clean(s, out, size);
	return st;
}

/* Number @key of @obj into *@out, which keeps its value when absent; @max bounds it. */
enum rcl_status rcl_redfish_number(json_object *obj, const char *key, const char *where, double max,
                                   double *out, struct rcl_error *err)
{
	json_object *v;
	enum rcl_status st = rcl_redfish_member(obj, key, json_type_double, true, where, &v, err);
	double d;

	if (st || !v)
		return st;
	d = json_object_get_double(v);
	if (!isfinite(d) || d < 0 || d > max)
		return rcl_fail(err, RCL_BAD_REPLY, "'%s' of '%s' is out of range", key, where);
	*out = d;
	return RCL_OK;
}

enum rcl_status rcl_redfish_bool(json_object *obj, const char *key, const char *where, bool *out,
                                 struct rcl_error *err)
{
	json_object *v;
	enum rcl_status st = rcl_redfish_member(obj, key, json_type_boolean, true, where, &v, err);

	if (!st && v)
		*out = json_object_get_boolean(v);
	return st;
}

enum rcl_status rcl_redfish_status_of(json_object *obj, const char *where,
                                      struct rcl_redfish_status *out, struct rcl_error *err)
{
	json_object *s;
	enum rcl_status st =
	    rcl_redfish_member(obj, "Status", json_type_object, true, where, &s, err);

	memset(out, 0, sizeof(*out));
	if (!st && s)
		st = rcl_redfish_text(s, "State", where, out->state, sizeof(out->state), err);
	if (!st && s)
		st = rcl_redfish_text(s, "Health", where, out->health, sizeof(out->health), err);
	return st;
}

/* Whether @obj's Operations[] has one named @name (*@percent its progress, -1 unknown). */
enum rcl_status rcl_redfish_operation(json_object *obj, const char *name, const char *where,
                                      bool *found, int *percent, struct rcl_error *err)
{
	json_object *ops;
	enum rcl_status st = rcl_redfish_links(obj, "Operations", where, &ops, err);

	*found = false;
	for (size_t i = 0; !st && ops && i < json_object_array_length(ops) && !*found; i++) {
		json_object *op = json_object_array_get_idx(ops, i);
		char op_name[32] = "";
		double pct = -1;

		if (!json_object_is_type(op, json_type_object))
			return rcl_fail(err, RCL_BAD_REPLY, "an operation of '%s' is not an object",
			                where);
		st = rcl_redfish_text(op, "OperationName", where, op_name, sizeof(op_name), err);
		if (!st)
			st =
			    rcl_redfish_text(op, "Operation", where, op_name, sizeof(op_name), err);
		if (!st)
			st = rcl_redfish_number(op, "PercentageComplete", where, 100, &pct, err);
		if (!st && !strcmp(op_name, name)) {
			*found = true;
			*percent = (int)pct;
		}
	}
	return st;
}

/* ------------------------------------------------------------------------
 * Enclosures and drives.
 */

static enum rcl_status enclosure_of(struct rcl_redfish_map_state *m, const char *chassis,
                                    unsigned *eid, struct rcl_error *err)
{
	struct rcl_ctrl *c = m->ctrl;
	struct rcl_enclosure *e;
	json_object *ch;
	size_t i;

	for (i = 0; i < c->enclosure_count; i++)
		if (!strcmp(m->chassis[i], chassis))
			break;
	if (i < c->enclosure_count) {
		*eid = c->enclosures[i].id;
		return RCL_OK;
	}
	e = &c->enclosures[c->enclosure_count];
	*e = (struct rcl_enclosure){.id = RCL_REDFISH_FIRST_EID + (unsigned)i};
	m->chassis[c->enclosure_count++] = chassis;
	*eid = e->id;
	ch = rcl_redfish_doc(m->docs, chassis);
	if (ch && strcmp(chassis, m->storage))
		return rcl_redfish_text(ch, "Name", chassis, e->product, sizeof(e->product), err);
	snprintf(e->product, sizeof(e->product), "Storage");
	return RCL_OK;
}

/* The slot: PhysicalLocation.PartLocation, else the first Location[]'s. */
static enum rcl_status slot_of(json_object *d, const char *uri, size_t index, unsigned *slot,
                               struct rcl_error *err)
{
	json_object *loc, *part = NULL, *arr;
	double v = (double)index;
	enum rcl_status st =
	    rcl_redfish_member(d, "PhysicalLocation", json_type_object, true, uri, &loc, err);

	if (!st && !loc) {
		st = rcl_redfish_links(d, "Location", uri, &arr, err);
		loc = arr ? json_object_array_get_idx(arr, 0) : NULL;
		if (!st && loc && !json_object_is_type(loc, json_type_object))
			st = rcl_fail(err, RCL_BAD_REPLY, "a Location of '%s' is not an object",
			              uri);
	}
	if (!st && loc)
		st = rcl_redfish_member(loc, "PartLocation", json_type_object, true, uri, &part,
		                        err);
	if (!st && part)
		st = rcl_redfish_number(part, "LocationOrdinalValue", uri, MAX_SLOT - 1, &v, err);
	*slot = (unsigned)v;
	return st;
}

static void speed(char *out, size_t size, double gbps)
{
	if (gbps > 0)
		snprintf(out, size, "%.1fGb/s", gbps);
}

static enum rcl_status drive_metrics(struct rcl_redfish_map_state *m, json_object *d,
                                     const char *uri, struct rcl_drive *drive,
                                     struct rcl_error *err)
{
	const char *metrics = NULL, *env = NULL;
	double temp = 0, unc_r = 0, unc_w = 0, cor_r = 0, cor_w = 0;
	json_object *md, *t;
	enum rcl_status st = rcl_redfish_link(d, "Metrics", true, uri, &metrics, err);

	if (!st)
		st = rcl_redfish_link(d, "EnvironmentMetrics", true, uri, &env, err);
	if (!st && metrics && !(st = rcl_redfish_need(m->docs, metrics, &md, err))) {
		st = rcl_redfish_number(md, "UncorrectableIOReadErrorCount", metrics, 1e9, &unc_r,
		                        err);
		if (!st)
			st = rcl_redfish_number(md, "UncorrectableIOWriteErrorCount", metrics, 1e9,
			                        &unc_w, err);
		if (!st)
			st = rcl_redfish_number(md, "CorrectableIOReadErrorCount", metrics, 1e9,
			                        &cor_r, err);
		if (!st)
			st = rcl_redfish_number(md, "CorrectableIOWriteErrorCount", metrics, 1e9,
			                        &cor_w, err);
	}
	if (!st && env && !(st = rcl_redfish_need(m->docs, env, &md, err))) {
		st = rcl_redfish_member(md, "TemperatureCelsius", json_type_object, true, env, &t,
		                        err);
		if (!st && t)
			st = rcl_redfish_number(t, "Reading", env, 1000, &temp, err);
	}
	drive->media_errors = (unsigned)(unc_r + unc_w);
	drive->other_errors = (unsigned)(cor_r + cor_w);
	drive->temperature_c = (unsigned)lround(temp);
	return st;
}

void rcl_redfish_attr(struct rcl_attr *attrs, size_t *count, size_t max, const char *key,
                      const char *value)
{
	if (*count == max)
		return;
	snprintf(attrs[*count].key, sizeof(attrs->key), "%s", key);
	rcl_redfish_clean(value, attrs[*count].value, sizeof(attrs->value));
	++*count;
}

/* What the drive itself says, before volumes make it a member. */
static enum rcl_status drive_facts(struct rcl_redfish_map_state *m, json_object *d, const char *uri,
                                   size_t index, struct rcl_drive *drive, struct rcl_error *err)
{
	double cap = 0, block = 512, capable = 0, negotiated = 0;
	json_object *links;
	const char *chassis = NULL;
	char spare[16] = "", led[16] = "";
	bool locate = false, predicted = false;
	struct rcl_redfish_status s;
	enum rcl_status st = rcl_redfish_status_of(d, uri, &s, err);

	*drive = (struct rcl_drive){.device_id = (unsigned)index, .dg = -1, .present = true};
	if (!st)
		st = rcl_redfish_member(d, "Links", json_type_object, true, uri, &links, err);
	if (!st && links)
		st = rcl_redfish_link(links, "Chassis", true, uri, &chassis, err);
	if (!st)
		st = enclosure_of(m, chassis ? chassis : m->storage, &drive->enclosure, err);
	if (!st)
		st = slot_of(d, uri, index, &drive->slot, err);
	if (!st)
		st = rcl_redfish_number(d, "CapacityBytes", uri, 1e18, &cap, err);
	if (!st)
		st = rcl_redfish_number(d, "BlockSizeBytes", uri, 65536, &block, err);
	if (!st)
		st = rcl_redfish_number(d, "CapableSpeedGbs", uri, 1e4, &capable, err);
	if (!st)
		st = rcl_redfish_number(d, "NegotiatedSpeedGbs", uri, 1e4, &negotiated, err);
	if (!st)
		st = rcl_redfish_text(d, "SerialNumber", uri, drive->serial, sizeof(drive->serial),
		                      err);
	if (!st)
		st = rcl_redfish_text(d, "Manufacturer", uri, drive->vendor, sizeof(drive->vendor),
		                      err);
	if (!st)
		st = rcl_redfish_text(d, "Model", uri, drive->model, sizeof(drive->model), err);
	if (!st)
		st = rcl_redfish_text(d, "FirmwareVersion", uri, drive->firmware,
		                      sizeof(drive->firmware), err);
	if (!st)
		st = rcl_redfish_text(d, "Revision", uri, drive->firmware, sizeof(drive->firmware),
		                      err);
	if (!st)
		st = rcl_redfish_text(d, "Protocol", uri, drive->interface,
		                      sizeof(drive->interface), err);
	if (!st)
		st = rcl_redfish_text(d, "MediaType", uri, drive->medium, sizeof(drive->medium),
		                      err);
	if (!st)
		st = rcl_redfish_text(d, "HotspareType", uri, spare, sizeof(spare), err);
	if (!st)
		st = rcl_redfish_text(d, "IndicatorLED", uri, led, sizeof(led), err);
	if (!st)
		st = rcl_redfish_bool(d, "LocationIndicatorActive", uri, &locate, err);
	if (!st)
		st = rcl_redfish_bool(d, "FailurePredicted", uri, &predicted, err);
	if (!st)
		st = drive_metrics(m, d, uri, drive, err);
	if (st)
		return st;
	drive->raw_bytes = (uint64_t)cap;
	drive->coerced_bytes = drive->raw_bytes & ~((uint64_t)(1 << 20) - 1);
	drive->logical_sector = drive->physical_sector = (unsigned)block;
	drive->locate = locate || !strcmp(led, "Lit") || !strcmp(led, "Blinking");
	drive->predictive_failures = predicted;
	drive->smart_alert = predicted;
	speed(drive->device_speed, sizeof(drive->device_speed), capable);
	speed(drive->link_speed, sizeof(drive->link_speed), negotiated);
	if (!*drive->medium)
		snprintf(drive->medium, sizeof(drive->medium), "Unknown");
	if (!strcmp(s.state, "Absent")) {
		drive->present = false;
		drive->state = RCL_PD_MISSING;
	} else if (!strcmp(spare, "Global") || !strcmp(spare, "Chassis")) {
		drive->state = RCL_PD_GHS;
	} else if (!strcmp(spare, "Dedicated")) {
		drive->state = RCL_PD_DHS;
	} else {
		drive->state = !strcmp(s.health, "Critical") ? RCL_PD_UBAD : RCL_PD_UGOOD;
	}
	rcl_redfish_attr(drive->attrs, &drive->attr_count, RCL_DRIVE_ATTRS, "Redfish URI", uri);
	rcl_redfish_attr(drive->attrs, &drive->attr_count, RCL_DRIVE_ATTRS, "Redfish Health",
	                 *s.health ? s.health : "Unknown");
	return RCL_OK;
}

static enum rcl_status map_drives(struct rcl_redfish_map_state *m, json_object *drives,
                                  struct rcl_error *err)
{
	struct rcl_ctrl *c = m->ctrl;
	size_t n = drives ? json_object_array_length(drives) : 0;
	enum rcl_status st = RCL_OK;

	c->drives = rcl_calloc(n ? n : 1, sizeof(*c->drives));
	c->enclosures = rcl_calloc(n + 1, sizeof(*c->enclosures));
	m->chassis = rcl_calloc(n + 1, sizeof(*m->chassis));
	m->model->drive_uri = rcl_calloc(n ? n : 1, sizeof(*m->model->drive_uri));
	if (!c->drives || !c->enclosures || !m->chassis || !m->model->drive_uri)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; !st && i < n; i++) {
		const char *uri;
		json_object *d;

		st = rcl_redfish_element(drives, i, m->storage, &uri, err);
		if (!st)
			st = rcl_redfish_need(m->docs, uri, &d, err);
		if (!st)
			st = drive_facts(m, d, uri, i, &c->drives[i], err);
		m->model->drive_uri[i] = uri;
		c->drive_count += !st;
	}
	return st;
}

static bool before(const struct rcl_drive *a, const struct rcl_drive *b)
{
	return a->enclosure != b->enclosure ? a->enclosure < b->enclosure : a->slot < b->slot;
}

/*
 * Slots per enclosure: one past the highest; drives in slot order; two
 * drives in one slot are a lie.
 */
static enum rcl_status order_drives(struct rcl_ctrl *c, const char **uris, struct rcl_error *err)
{
	for (size_t i = 0; i < c->drive_count; i++)
		for (size_t j = 0; j < c->enclosure_count; j++)
			if (c->enclosures[j].id == c->drives[i].enclosure &&
			    c->enclosures[j].slots <= c->drives[i].slot)
				c->enclosures[j].slots = c->drives[i].slot + 1;
	/* In slot order, as the model wants them; the URIs move with their drives. */
	for (size_t i = 1; i < c->drive_count; i++)
		for (size_t j = i; j > 0 && before(&c->drives[j], &c->drives[j - 1]); j--) {
			struct rcl_drive d = c->drives[j];
			const char *uri = uris[j];

			c->drives[j] = c->drives[j - 1];
			c->drives[j - 1] = d;
			uris[j] = uris[j - 1];
			uris[j - 1] = uri;
		}
	for (size_t i = 0; i + 1 < c->drive_count; i++)
		for (size_t j = i + 1; j < c->drive_count; j++)
			if (c->drives[i].enclosure == c->drives[j].enclosure &&
			    c->drives[i].slot == c->drives[j].slot)
				return rcl_fail(err, RCL_BAD_REPLY,
				                "two drives claim slot %u of enclosure %u",
				                c->drives[i].slot, c->drives[i].enclosure);
	return RCL_OK;
}

static const struct {
	const char *name;
	enum rcl_raid_level level;
} raid_types[] = {
    {"RAID0", RCL_RAID0},
    {"RAID1", RCL_RAID1},
    {"RAID5", RCL_RAID5},
    {"RAID6", RCL_RAID6},
    {"RAID10", RCL_RAID10},
    {"RAID50", RCL_RAID50},
    {"RAID60", RCL_RAID60},
    {"RAID00", RCL_RAID00},
    /* The older VolumeType, for services without RAIDType. */
    {"NonRedundant", RCL_RAID0},
    {"Mirrored", RCL_RAID1},
    {"StripedWithParity", RCL_RAID5},
    {"SpannedMirrors", RCL_RAID10},
    {"SpannedStripesWithParity", RCL_RAID50},
};

bool rcl_redfish_raid_level(const char *name, enum rcl_raid_level *level)
{
	for (size_t i = 0; i < sizeof(raid_types) / sizeof(raid_types[0]); i++)
		if (!strcmp(raid_types[i].name, name)) {
			*level = raid_types[i].level;
			return true;
		}
	return false;
}

/* ------------------------------------------------------------------------
 * The controller.
 */

/* The StorageController: StorageControllers[0] inline, else the collection's first. */
static enum rcl_status controller(json_object *docs, json_object *s, const char *storage,
                                  json_object **out, const char **where, struct rcl_error *err)
{
	json_object *arr, *coll;
	const char *uri;
	enum rcl_status st = rcl_redfish_links(s, "StorageControllers", storage, &arr, err);

	*out = NULL;
	*where = storage;
	if (!st && arr && json_object_array_length(arr)) {
		*out = json_object_array_get_idx(arr, 0);
		return json_object_is_type(*out, json_type_object)
		           ? RCL_OK
		           : rcl_fail(err, RCL_BAD_REPLY,
		                      "a StorageControllers entry of '%s' is "
		                      "not an object",
		                      storage);
	}
	if (!st)
		st = rcl_redfish_link(s, "Controllers", true, storage, &uri, err);
	if (st || !uri)
		return st;
	st = rcl_redfish_need(docs, uri, &coll, err);
	if (!st)
		st = rcl_redfish_member(coll, "Members", json_type_array, false, uri, &arr, err);
	if (st || !json_object_array_length(arr))
		return st;
	st = rcl_redfish_element(arr, 0, uri, where, err);
	return st ? st : rcl_redfish_need(docs, *where, out, err);
}

/* The first string of array @key of @obj into @out. */
static enum rcl_status first_text(json_object *obj, const char *key, const char *where, char *out,
                                  size_t size, struct rcl_error *err)
{
	json_object *arr, *v;
	enum rcl_status st = rcl_redfish_links(obj, key, where, &arr, err);

	v = arr ? json_object_array_get_idx(arr, 0) : NULL;
	if (!st && v && json_object_is_type(v, json_type_string))
		rcl_redfish_clean(json_object_get_string(v), out, size);
	return st;
}

static enum rcl_status levels(json_object *sc, const char *where, unsigned *out,
                              struct rcl_error *err)
{
	json_object *arr;
	enum rcl_status st = rcl_redfish_links(sc, "SupportedRAIDTypes", where, &arr, err);
	enum rcl_raid_level level;

	for (size_t i = 0; !st && arr && i < json_object_array_length(arr); i++) {
		json_object *v = json_object_array_get_idx(arr, i);

		if (json_object_is_type(v, json_type_string) &&
		    rcl_redfish_raid_level(json_object_get_string(v), &level))
			*out |= 1u << level;
	}
	return st;
}

static enum rcl_status map_info(json_object *docs, json_object *s, const char *storage,
                                struct rcl_ctrl *c, struct rcl_error *err)
{
	struct rcl_ctrl_info *info = &c->info;
	json_object *sc, *cache;
	const char *where;
	double cache_mib = 0;
	unsigned supported = 0;
	enum rcl_status st = controller(docs, s, storage, &sc, &where, err);

	snprintf(info->backend, sizeof(info->backend), "redfish");
	if (!st && sc) {
		st = rcl_redfish_text(sc, "Model", where, info->model, sizeof(info->model), err);
		if (!st)
			st = rcl_redfish_text(sc, "SerialNumber", where, info->serial,
			                      sizeof(info->serial), err);
		if (!st)
			st = rcl_redfish_text(sc, "FirmwareVersion", where, info->firmware,
			                      sizeof(info->firmware), err);
		if (!st)
			st = first_text(sc, "SupportedControllerProtocols", where,
			                info->host_interface, sizeof(info->host_interface), err);
		if (!st)
			st =
			    first_text(sc, "SupportedDeviceProtocols", where,
			               info->device_interface, sizeof(info->device_interface), err);
		if (!st)
			st = levels(sc, where, &supported, err);
		if (!st)
			st = rcl_redfish_member(sc, "CacheSummary", json_type_object, true, where,
			                        &cache, err);
		if (!st && cache)
			st = rcl_redfish_number(cache, "TotalCacheSizeMiB", where, 1 << 24,
			                        &cache_mib, err);
	}
	if (!st)
		st = rcl_redfish_text(s, "Name", storage, info->model, sizeof(info->model), err);
	c->caps.levels = supported;
	c->caps.cache_mib = (unsigned)cache_mib;
	return st;
}

enum rcl_status rcl_redfish_map(json_object *docs, const char *storage, struct rcl_ctrl *ctrl,
                                struct rcl_redfish_model *model, struct rcl_error *err)
{
	struct rcl_redfish_map_state m = {
	    .docs = docs, .storage = storage, .ctrl = ctrl, .model = model};
	json_object *s, *drives = NULL;
	enum rcl_status st = rcl_redfish_need(docs, storage, &s, err);

	memset(model, 0, sizeof(*model));
	if (!st)
		st = map_info(docs, s, storage, ctrl, err);
	if (!st)
		st = rcl_redfish_links(s, "Drives", storage, &drives, err);
	if (!st)
		st = map_drives(&m, drives, err);
	if (!st)
		st = order_drives(ctrl, model->drive_uri, err);
	if (!st)
		st = rcl_redfish_map_vds(&m, s, err);
	ctrl->info.max_drives = (unsigned)ctrl->drive_count;
	rcl_free(m.chassis);
	return st;
}

void rcl_redfish_model_release(struct rcl_redfish_model *model)
{
	rcl_free(model->drive_uri);
	rcl_free(model->vd_uri);
	memset(model, 0, sizeof(*model));
}
