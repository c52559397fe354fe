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
#include "redfish/redfish.h"

/* Slots beyond this are a lying BMC's. */
#define MAX_SLOT 4096

static json_object *doc(json_object *docs, const char *uri)
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

	if (!uri || !fetchable(uri) || doc(docs, uri))
		return RCL_OK;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(out, i)), uri))
			return RCL_OK;
	if (json_object_array_add(out, json_object_new_string(uri)))
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	return RCL_OK;
}

/* The @odata.id of element @i of link array @arr of resource @where, into *@out. */
static enum rcl_status element(json_object *arr, size_t i, const char *where, const char **out,
                               struct rcl_error *err)
{
	json_object *el = json_object_array_get_idx(arr, i);

	if (!json_object_is_type(el, json_type_object))
		return rcl_fail(err, RCL_BAD_REPLY, "a link of '%s' is not an object", where);
	return rcl_redfish_string(el, "@odata.id", false, where, out, err);
}

/* Links array @key of @obj (optional), as rcl_redfish_member(). */
static enum rcl_status link_array(json_object *obj, const char *key, const char *where,
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
		st = element(arr, i, where, &uri, err);
		if (!st)
			st = want(docs, out, uri, err);
	}
	return st;
}

/* Want the members of collection @uri once it is read; the collection first. */
static enum rcl_status want_collection(json_object *docs, json_object *out, const char *uri,
                                       struct rcl_error *err)
{
	json_object *coll = uri ? doc(docs, uri) : NULL, *members;
	enum rcl_status st;

	if (!uri || !coll)
		return want(docs, out, uri, err);
	st = rcl_redfish_member(coll, "Members", json_type_array, false, uri, &members, err);
	return st ? st : want_all(docs, out, members, uri, err);
}

/* A Volume's drives: Links.Drives, or Drives in older schemas. */
static enum rcl_status volume_drives(json_object *vol, const char *where, json_object **out,
                                     struct rcl_error *err)
{
	json_object *links;
	enum rcl_status st =
	    rcl_redfish_member(vol, "Links", json_type_object, true, where, &links, err);

	*out = NULL;
	if (!st && links)
		st = link_array(links, "Drives", where, out, err);
	if (!st && !*out)
		st = link_array(vol, "Drives", where, out, err);
	return st;
}

static enum rcl_status want_drive(json_object *docs, json_object *out, const char *uri,
                                  struct rcl_error *err)
{
	json_object *d = doc(docs, uri), *links;
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
	json_object *s = doc(docs, storage), *drives = NULL;
	const char *controllers = NULL, *volumes = NULL, *uri;
	enum rcl_status st;

	if (!s)
		return want(docs, out, storage, err);
	st = rcl_redfish_link(s, "Controllers", true, storage, &controllers, err);
	if (!st)
		st = rcl_redfish_link(s, "Volumes", true, storage, &volumes, err);
	if (!st)
		st = link_array(s, "Drives", storage, &drives, err);
	if (!st)
		st = want_collection(docs, out, controllers, err);
	if (!st)
		st = want_collection(docs, out, volumes, err);
	for (size_t i = 0; !st && drives && i < json_object_array_length(drives); i++) {
		st = element(drives, i, storage, &uri, err);
		if (!st)
			st = want_drive(docs, out, uri, err);
	}
	return st;
}

/* ------------------------------------------------------------------------
 * Reading values: absent is a default, the wrong type is a bad reply.
 */

/* Resource @uri, which must be in the cache. */
static enum rcl_status need(json_object *docs, const char *uri, json_object **out,
                            struct rcl_error *err)
{
	char shown[RCL_QUOTE_MAX + 1];

	*out = doc(docs, uri);
	if (*out && json_object_is_type(*out, json_type_object))
		return RCL_OK;
	rcl_redfish_clean(uri, shown, sizeof(shown));
	return rcl_fail(err, RCL_BAD_REPLY, "resource '%s' was not read as an object", shown);
}

/* String @key of @obj cleaned into @out (""), when present. */
static enum rcl_status text(json_object *obj, const char *key, const char *where, char *out,
                            size_t size, struct rcl_error *err)
{
	const char *s;
	enum rcl_status st = rcl_redfish_string(obj, key, true, where, &s, err);

	if (!st && s && !*out)
		rcl_redfish_clean(s, out, size);
	return st;
}

/* Number @key of @obj into *@out, which keeps its value when absent; @max bounds it. */
static enum rcl_status number(json_object *obj, const char *key, const char *where, double max,
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

static enum rcl_status boolean(json_object *obj, const char *key, const char *where, bool *out,
                               struct rcl_error *err)
{
	json_object *v;
	enum rcl_status st = rcl_redfish_member(obj, key, json_type_boolean, true, where, &v, err);

	if (!st && v)
		*out = json_object_get_boolean(v);
	return st;
}

/* Status.State and Status.Health of @obj ("" when absent). */
struct status {
	char state[24];
	char health[16];
};

static enum rcl_status status_of(json_object *obj, const char *where, struct status *out,
                                 struct rcl_error *err)
{
	json_object *s;
	enum rcl_status st =
	    rcl_redfish_member(obj, "Status", json_type_object, true, where, &s, err);

	memset(out, 0, sizeof(*out));
	if (!st && s)
		st = text(s, "State", where, out->state, sizeof(out->state), err);
	if (!st && s)
		st = text(s, "Health", where, out->health, sizeof(out->health), err);
	return st;
}

/* Whether @obj's Operations[] has one named @name (*@percent its progress, -1 unknown). */
static enum rcl_status operation(json_object *obj, const char *name, const char *where, bool *found,
                                 int *percent, struct rcl_error *err)
{
	json_object *ops;
	enum rcl_status st = link_array(obj, "Operations", where, &ops, err);

	*found = false;
	for (size_t i = 0; !st && ops && i < json_object_array_length(ops) && !*found; i++) {
		json_object *op = json_object_array_get_idx(ops, i);
		char op_name[32] = "";
		double pct = -1;

		if (!json_object_is_type(op, json_type_object))
			return rcl_fail(err, RCL_BAD_REPLY, "an operation of '%s' is not an object",
			                where);
		st = text(op, "OperationName", where, op_name, sizeof(op_name), err);
		if (!st)
			st = text(op, "Operation", where, op_name, sizeof(op_name), err);
		if (!st)
			st = number(op, "PercentageComplete", where, 100, &pct, err);
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

struct map_state {
	json_object *docs;
	const char *storage;
	struct rcl_ctrl *ctrl;
	struct rcl_redfish_model *model;
	const char **chassis; /* enclosure i's Chassis (or the Storage, for drives without one) */
};

static enum rcl_status enclosure_of(struct map_state *m, const char *chassis, unsigned *eid,
                                    struct rcl_error *err)
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
	ch = doc(m->docs, chassis);
	if (ch && strcmp(chassis, m->storage))
		return text(ch, "Name", chassis, e->product, sizeof(e->product), err);
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
		st = link_array(d, "Location", uri, &arr, err);
		loc = arr ? json_object_array_get_idx(arr, 0) : NULL;
		if (!st && loc && !json_object_is_type(loc, json_type_object))
			st = rcl_fail(err, RCL_BAD_REPLY, "a Location of '%s' is not an object",
			              uri);
	}
	if (!st && loc)
		st = rcl_redfish_member(loc, "PartLocation", json_type_object, true, uri, &part,
		                        err);
	if (!st && part)
		st = number(part, "LocationOrdinalValue", uri, MAX_SLOT - 1, &v, err);
	*slot = (unsigned)v;
	return st;
}

static void speed(char *out, size_t size, double gbps)
{
	if (gbps > 0)
		snprintf(out, size, "%.1fGb/s", gbps);
}

static enum rcl_status drive_metrics(struct map_state *m, json_object *d, const char *uri,
                                     struct rcl_drive *drive, struct rcl_error *err)
{
	const char *metrics = NULL, *env = NULL;
	double temp = 0, unc_r = 0, unc_w = 0, cor_r = 0, cor_w = 0;
	json_object *md, *t;
	enum rcl_status st = rcl_redfish_link(d, "Metrics", true, uri, &metrics, err);

	if (!st)
		st = rcl_redfish_link(d, "EnvironmentMetrics", true, uri, &env, err);
	if (!st && metrics && !(st = need(m->docs, metrics, &md, err))) {
		st = number(md, "UncorrectableIOReadErrorCount", metrics, 1e9, &unc_r, err);
		if (!st)
			st =
			    number(md, "UncorrectableIOWriteErrorCount", metrics, 1e9, &unc_w, err);
		if (!st)
			st = number(md, "CorrectableIOReadErrorCount", metrics, 1e9, &cor_r, err);
		if (!st)
			st = number(md, "CorrectableIOWriteErrorCount", metrics, 1e9, &cor_w, err);
	}
	if (!st && env && !(st = need(m->docs, env, &md, err))) {
		st = rcl_redfish_member(md, "TemperatureCelsius", json_type_object, true, env, &t,
		                        err);
		if (!st && t)
			st = number(t, "Reading", env, 1000, &temp, err);
	}
	drive->media_errors = (unsigned)(unc_r + unc_w);
	drive->other_errors = (unsigned)(cor_r + cor_w);
	drive->temperature_c = (unsigned)lround(temp);
	return st;
}

static void add_attr(struct rcl_drive *d, const char *key, const char *value)
{
	if (d->attr_count == RCL_DRIVE_ATTRS)
		return;
	snprintf(d->attrs[d->attr_count].key, sizeof(d->attrs[0].key), "%s", key);
	rcl_redfish_clean(value, d->attrs[d->attr_count].value, sizeof(d->attrs[0].value));
	d->attr_count++;
}

/* What the drive itself says, before volumes make it a member. */
static enum rcl_status drive_facts(struct map_state *m, json_object *d, const char *uri,
                                   size_t index, struct rcl_drive *drive, struct rcl_error *err)
{
	double cap = 0, block = 512, capable = 0, negotiated = 0;
	json_object *links;
	const char *chassis = NULL;
	char spare[16] = "", led[16] = "";
	bool locate = false, predicted = false;
	struct status s;
	enum rcl_status st = status_of(d, uri, &s, err);

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
		st = number(d, "CapacityBytes", uri, 1e18, &cap, err);
	if (!st)
		st = number(d, "BlockSizeBytes", uri, 65536, &block, err);
	if (!st)
		st = number(d, "CapableSpeedGbs", uri, 1e4, &capable, err);
	if (!st)
		st = number(d, "NegotiatedSpeedGbs", uri, 1e4, &negotiated, err);
	if (!st)
		st = text(d, "SerialNumber", uri, drive->serial, sizeof(drive->serial), err);
	if (!st)
		st = text(d, "Manufacturer", uri, drive->vendor, sizeof(drive->vendor), err);
	if (!st)
		st = text(d, "Model", uri, drive->model, sizeof(drive->model), err);
	if (!st)
		st = text(d, "FirmwareVersion", uri, drive->firmware, sizeof(drive->firmware), err);
	if (!st)
		st = text(d, "Revision", uri, drive->firmware, sizeof(drive->firmware), err);
	if (!st)
		st = text(d, "Protocol", uri, drive->interface, sizeof(drive->interface), err);
	if (!st)
		st = text(d, "MediaType", uri, drive->medium, sizeof(drive->medium), err);
	if (!st)
		st = text(d, "HotspareType", uri, spare, sizeof(spare), err);
	if (!st)
		st = text(d, "IndicatorLED", uri, led, sizeof(led), err);
	if (!st)
		st = boolean(d, "LocationIndicatorActive", uri, &locate, err);
	if (!st)
		st = boolean(d, "FailurePredicted", uri, &predicted, err);
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
	add_attr(drive, "Redfish URI", uri);
	add_attr(drive, "Redfish Health", *s.health ? s.health : "Unknown");
	return RCL_OK;
}

static enum rcl_status map_drives(struct map_state *m, json_object *drives, struct rcl_error *err)
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

		st = element(drives, i, m->storage, &uri, err);
		if (!st)
			st = need(m->docs, uri, &d, err);
		if (!st)
			st = drive_facts(m, d, uri, i, &c->drives[i], err);
		m->model->drive_uri[i] = uri;
		c->drive_count += !st;
	}
	return st;
}

/* Slots per enclosure: one past the highest; two drives in one slot are a lie. */
static enum rcl_status check_slots(struct rcl_ctrl *c, struct rcl_error *err)
{
	for (size_t i = 0; i < c->drive_count; i++)
		for (size_t j = 0; j < c->enclosure_count; j++)
			if (c->enclosures[j].id == c->drives[i].enclosure &&
			    c->enclosures[j].slots <= c->drives[i].slot)
				c->enclosures[j].slots = c->drives[i].slot + 1;
	for (size_t i = 0; i < c->drive_count; i++)
		for (size_t j = i + 1; j < c->drive_count; j++)
			if (c->drives[i].enclosure == c->drives[j].enclosure &&
			    c->drives[i].slot == c->drives[j].slot)
				return rcl_fail(err, RCL_BAD_REPLY,
				                "two drives claim slot %u of enclosure %u",
				                c->drives[i].slot, c->drives[i].enclosure);
	return RCL_OK;
}

/* ------------------------------------------------------------------------
 * Volumes.
 */

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

static bool raid_level(const char *name, enum rcl_raid_level *level)
{
	for (size_t i = 0; i < sizeof(raid_types) / sizeof(raid_types[0]); i++)
		if (!strcmp(raid_types[i].name, name)) {
			*level = raid_types[i].level;
			return true;
		}
	return false;
}

static enum rcl_status vd_level(json_object *v, const char *uri, enum rcl_raid_level *level,
                                struct rcl_error *err)
{
	char type[32] = "";
	enum rcl_status st = text(v, "RAIDType", uri, type, sizeof(type), err);

	if (!st)
		st = text(v, "VolumeType", uri, type, sizeof(type), err);
	if (st || raid_level(type, level))
		return st;
	return rcl_fail(err, RCL_BAD_REPLY,
	                "volume '%s' has RAID type '%s', which raidcli cannot show", uri, type);
}

static enum rcl_status vd_policies(json_object *v, const char *uri, struct rcl_vd *vd,
                                   struct rcl_error *err)
{
	char write[32] = "", read[32] = "";
	enum rcl_status st = text(v, "WriteCachePolicy", uri, write, sizeof(write), err);

	if (!st)
		st = text(v, "ReadCachePolicy", uri, read, sizeof(read), err);
	vd->write = !strcmp(write, "ProtectedWriteBack")     ? RCL_WRITE_BACK
	            : !strcmp(write, "UnprotectedWriteBack") ? RCL_WRITE_BACK_ALWAYS
	                                                     : RCL_WRITE_THROUGH;
	vd->read = !strcmp(read, "ReadAhead") || !strcmp(read, "AdaptiveReadAhead")
	               ? RCL_READ_AHEAD
	               : RCL_NO_READ_AHEAD;
	return st;
}

static bool spanned(enum rcl_raid_level level)
{
	return level == RCL_RAID10 || level == RCL_RAID50 || level == RCL_RAID60 ||
	       level == RCL_RAID00;
}

/* Make the volume's drives members of group @vd->dg; count the lost per span. */
static enum rcl_status members(struct map_state *m, json_object *drives, const char *uri,
                               struct rcl_vd *vd, unsigned *lost, uint64_t *smallest,
                               struct rcl_error *err)
{
	struct rcl_ctrl *c = m->ctrl;
	size_t n = drives ? json_object_array_length(drives) : 0;

	vd->spans = spanned(vd->level) && n >= 4 && n % 2 == 0 ? 2 : 1;
	vd->drives_per_span = (unsigned)(n / vd->spans);
	if (!n || n / vd->spans > RCL_MAX_DRIVES_PER_SPAN)
		return rcl_fail(err, RCL_BAD_REPLY, "volume '%s' has %zu drives", uri, n);
	for (size_t i = 0; i < n; i++) {
		const char *d_uri;
		size_t j = 0;
		enum rcl_status st = element(drives, i, uri, &d_uri, err);

		if (st)
			return st;
		while (j < c->drive_count && strcmp(m->model->drive_uri[j], d_uri))
			j++;
		if (j == c->drive_count || c->drives[j].dg >= 0)
			return rcl_fail(err, RCL_BAD_REPLY,
			                "volume '%s' names a drive its storage does not have, or "
			                "another volume's",
			                uri);
		struct rcl_drive *d = &c->drives[j];
		bool rebuilding = false;
		int pct;

		st = operation(doc(m->docs, d_uri), "Rebuild", d_uri, &rebuilding, &pct, err);
		if (st)
			return st;
		d->dg = (int)vd->dg;
		d->span = (unsigned)(i / vd->drives_per_span);
		d->row = (unsigned)(i % vd->drives_per_span);
		if (d->state == RCL_PD_UGOOD)
			d->state = rebuilding ? RCL_PD_REBUILD : RCL_PD_ONLINE;
		if (d->state != RCL_PD_ONLINE)
			lost[d->span]++;
		if (!*smallest || d->coerced_bytes < *smallest)
			*smallest = d->coerced_bytes;
	}
	return RCL_OK;
}

static enum rcl_status map_vd(struct map_state *m, const char *uri, unsigned id,
                              struct rcl_error *err)
{
	struct rcl_ctrl *c = m->ctrl;
	struct rcl_vd *vd = &c->vds[id];
	struct rcl_dg *dg = &c->dgs[id];
	unsigned lost[RCL_MAX_SPANS] = {0};
	double bytes = 0, strip = 0;
	uint64_t smallest = 0;
	json_object *v, *drives;
	struct status s;
	enum rcl_status st = need(m->docs, uri, &v, err);

	*vd = (struct rcl_vd){.id = id, .dg = id, .consistent = true, .autobgi = true};
	if (!st)
		st = vd_level(v, uri, &vd->level, err);
	if (!st)
		st = text(v, "DisplayName", uri, vd->name, sizeof(vd->name), err);
	if (!st)
		st = text(v, "Name", uri, vd->name, sizeof(vd->name), err);
	if (!st)
		st = number(v, "CapacityBytes", uri, 1e18, &bytes, err);
	if (!st)
		st = number(v, "OptimumIOSizeBytes", uri, 1 << 30, &strip, err);
	if (!st)
		st = number(v, "StripSizeBytes", uri, 1 << 30, &strip, err);
	if (!st)
		st = vd_policies(v, uri, vd, err);
	if (!st)
		st = status_of(v, uri, &s, err);
	if (!st)
		st = volume_drives(v, uri, &drives, err);
	if (!st)
		st = members(m, drives, uri, vd, lost, &smallest, err);
	if (st)
		return st;
	vd->bytes = (uint64_t)bytes;
	vd->strip_kib = vd->level == RCL_RAID1 ? 0 : (unsigned)(strip / 1024);
	vd->state = rcl_raid_state(vd->level, vd->spans, vd->drives_per_span, lost);
	if (!strcmp(s.health, "Critical") || !strcmp(s.state, "Disabled"))
		vd->state = RCL_VD_OFFLINE;
	else if (!strcmp(s.health, "Warning") && vd->state == RCL_VD_OPTIMAL)
		vd->state = RCL_VD_DEGRADED;
	*dg = (struct rcl_dg){.id = id,
	                      .level = vd->level,
	                      .state = vd->state,
	                      .spans = vd->spans,
	                      .drives_per_span = vd->drives_per_span,
	                      .vd_count = 1,
	                      .member_bytes = smallest};
	for (unsigned i = 0; i < vd->spans; i++)
		dg->span_states[i] = rcl_raid_state(rcl_raid_span_level(vd->level), 1,
		                                    vd->drives_per_span, &lost[i]);
	m->model->vd_uri[id] = uri;
	return RCL_OK;
}

static enum rcl_status map_vds(struct map_state *m, json_object *s, struct rcl_error *err)
{
	struct rcl_ctrl *c = m->ctrl;
	json_object *coll, *list;
	enum rcl_status st;
	size_t n;

	st = rcl_redfish_link(s, "Volumes", true, m->storage, &m->model->volumes, err);
	if (st || !m->model->volumes)
		return st;
	st = need(m->docs, m->model->volumes, &coll, err);
	if (!st)
		st = rcl_redfish_member(coll, "Members", json_type_array, false, m->model->volumes,
		                        &list, err);
	if (st)
		return st;
	n = json_object_array_length(list);
	if (n > RCL_MAX_VDS || n > RCL_MAX_DGS)
		return rcl_fail(err, RCL_BAD_REPLY, "'%s' has %zu volumes, more than raidcli shows",
		                m->model->volumes, n);
	c->vds = rcl_calloc(n ? n : 1, sizeof(*c->vds));
	c->dgs = rcl_calloc(n ? n : 1, sizeof(*c->dgs));
	m->model->vd_uri = rcl_calloc(n ? n : 1, sizeof(*m->model->vd_uri));
	if (!c->vds || !c->dgs || !m->model->vd_uri)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; !st && i < n; i++) {
		const char *uri;

		st = element(list, i, m->model->volumes, &uri, err);
		if (!st)
			st = map_vd(m, uri, (unsigned)i, err);
		c->vd_count += !st;
		c->dg_count += !st;
	}
	return st;
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
	enum rcl_status st = link_array(s, "StorageControllers", storage, &arr, err);

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
	st = need(docs, uri, &coll, err);
	if (!st)
		st = rcl_redfish_member(coll, "Members", json_type_array, false, uri, &arr, err);
	if (st || !json_object_array_length(arr))
		return st;
	st = element(arr, 0, uri, where, err);
	return st ? st : need(docs, *where, out, err);
}

/* The first string of array @key of @obj into @out. */
static enum rcl_status first_text(json_object *obj, const char *key, const char *where, char *out,
                                  size_t size, struct rcl_error *err)
{
	json_object *arr, *v;
	enum rcl_status st = link_array(obj, key, where, &arr, err);

	v = arr ? json_object_array_get_idx(arr, 0) : NULL;
	if (!st && v && json_object_is_type(v, json_type_string))
		rcl_redfish_clean(json_object_get_string(v), out, size);
	return st;
}

static enum rcl_status levels(json_object *sc, const char *where, unsigned *out,
                              struct rcl_error *err)
{
	json_object *arr;
	enum rcl_status st = link_array(sc, "SupportedRAIDTypes", where, &arr, err);
	enum rcl_raid_level level;

	for (size_t i = 0; !st && arr && i < json_object_array_length(arr); i++) {
		json_object *v = json_object_array_get_idx(arr, i);

		if (json_object_is_type(v, json_type_string) &&
		    raid_level(json_object_get_string(v), &level))
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
		st = text(sc, "Model", where, info->model, sizeof(info->model), err);
		if (!st)
			st = text(sc, "SerialNumber", where, info->serial, sizeof(info->serial),
			          err);
		if (!st)
			st = text(sc, "FirmwareVersion", where, info->firmware,
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
			st = number(cache, "TotalCacheSizeMiB", where, 1 << 24, &cache_mib, err);
	}
	if (!st)
		st = text(s, "Name", storage, info->model, sizeof(info->model), err);
	c->caps.levels = supported;
	c->caps.cache_mib = (unsigned)cache_mib;
	return st;
}

enum rcl_status rcl_redfish_map(json_object *docs, const char *storage, struct rcl_ctrl *ctrl,
                                struct rcl_redfish_model *model, struct rcl_error *err)
{
	struct map_state m = {.docs = docs, .storage = storage, .ctrl = ctrl, .model = model};
	json_object *s, *drives = NULL;
	enum rcl_status st = need(docs, storage, &s, err);

	memset(model, 0, sizeof(*model));
	if (!st)
		st = map_info(docs, s, storage, ctrl, err);
	if (!st)
		st = link_array(s, "Drives", storage, &drives, err);
	if (!st)
		st = map_drives(&m, drives, err);
	if (!st)
		st = check_slots(ctrl, err);
	if (!st)
		st = map_vds(&m, s, err);
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
