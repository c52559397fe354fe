// SPDX-License-Identifier: MIT
/*
 * volume.c - a Storage's Volumes as VDs, each on a disk group of its own
 * (Redfish has no disk groups): the level from RAIDType (or the older
 * VolumeType), the members from Links.Drives in their order (RAID10/50/60
 * as two spans), the state from the members' (a rebuilding or failed
 * member degrades it), never better than the Volume's own Health.
 */
#include <string.h>

#include "redfish/map.h"

static enum rcl_status vd_level(json_object *v, const char *uri, enum rcl_raid_level *level,
                                struct rcl_error *err)
{
	char type[32] = "";
	enum rcl_status st = rcl_redfish_text(v, "RAIDType", uri, type, sizeof(type), err);

	if (!st)
		st = rcl_redfish_text(v, "VolumeType", uri, type, sizeof(type), err);
	if (st || rcl_redfish_raid_level(type, level))
		return st;
	return rcl_fail(err, RCL_BAD_REPLY,
	                "volume '%s' has RAID type '%s', which raidcli cannot show", uri, type);
}

static enum rcl_status vd_policies(json_object *v, const char *uri, struct rcl_vd *vd,
                                   struct rcl_error *err)
{
	char write[32] = "", read[32] = "";
	enum rcl_status st =
	    rcl_redfish_text(v, "WriteCachePolicy", uri, write, sizeof(write), err);

	if (!st)
		st = rcl_redfish_text(v, "ReadCachePolicy", uri, read, sizeof(read), err);
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
static enum rcl_status members(struct rcl_redfish_map_state *m, json_object *drives,
                               const char *uri, struct rcl_vd *vd, unsigned *lost,
                               uint64_t *smallest, struct rcl_error *err)
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
		enum rcl_status st = rcl_redfish_element(drives, i, uri, &d_uri, err);

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

		st = rcl_redfish_operation(rcl_redfish_doc(m->docs, d_uri), "Rebuild", d_uri,
		                           &rebuilding, &pct, err);
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

static enum rcl_status map_vd(struct rcl_redfish_map_state *m, const char *uri, unsigned id,
                              struct rcl_error *err)
{
	struct rcl_ctrl *c = m->ctrl;
	struct rcl_vd *vd = &c->vds[id];
	struct rcl_dg *dg = &c->dgs[id];
	unsigned lost[RCL_MAX_SPANS] = {0};
	double bytes = 0, strip = 0;
	uint64_t smallest = 0;
	json_object *v, *drives;
	struct rcl_redfish_status s;
	enum rcl_status st = rcl_redfish_need(m->docs, uri, &v, err);

	*vd = (struct rcl_vd){.id = id, .dg = id, .consistent = true, .autobgi = true};
	if (!st)
		st = vd_level(v, uri, &vd->level, err);
	if (!st)
		st = rcl_redfish_text(v, "DisplayName", uri, vd->name, sizeof(vd->name), err);
	if (!st)
		st = rcl_redfish_text(v, "Name", uri, vd->name, sizeof(vd->name), err);
	if (!st)
		st = rcl_redfish_number(v, "CapacityBytes", uri, 1e18, &bytes, err);
	if (!st)
		st = rcl_redfish_number(v, "OptimumIOSizeBytes", uri, 1 << 30, &strip, err);
	if (!st)
		st = rcl_redfish_number(v, "StripSizeBytes", uri, 1 << 30, &strip, err);
	if (!st)
		st = vd_policies(v, uri, vd, err);
	if (!st)
		st = rcl_redfish_status_of(v, uri, &s, err);
	if (!st)
		st = rcl_redfish_volume_drives(v, uri, &drives, err);
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
	rcl_redfish_attr(vd->attrs, &vd->attr_count, RCL_VD_ATTRS, "Redfish URI", uri);
	rcl_redfish_attr(vd->attrs, &vd->attr_count, RCL_VD_ATTRS, "Redfish Health",
	                 *s.health ? s.health : "Unknown");
	return RCL_OK;
}

enum rcl_status rcl_redfish_map_vds(struct rcl_redfish_map_state *m, json_object *s,
                                    struct rcl_error *err)
{
	struct rcl_ctrl *c = m->ctrl;
	json_object *coll, *list;
	enum rcl_status st;
	size_t n;

	st = rcl_redfish_link(s, "Volumes", true, m->storage, &m->model->volumes, err);
	if (st || !m->model->volumes)
		return st;
	st = rcl_redfish_need(m->docs, m->model->volumes, &coll, err);
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

		st = rcl_redfish_element(list, i, m->model->volumes, &uri, err);
		if (!st)
			st = map_vd(m, uri, (unsigned)i, err);
		c->vd_count += !st;
		c->dg_count += !st;
	}
	return st;
}
