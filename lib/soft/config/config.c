// SPDX-License-Identifier: MIT
/*
 * config.c - the configuration payload: JSON in, checked, and out (see
 * config.h for the schema).
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "layout.h"
#include "soft/format/gpt.h"

/* The parse context: where the payload came from, for every message. */
struct parse {
	const char *drive;
	struct rcl_error *err;
};

static enum rcl_status bad(const struct parse *p, const char *what)
{
	return rcl_fail(p->err, RCL_CORRUPT, "drive %s: its configuration record %s", p->drive,
	                what);
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

static bool get_name(json_object *obj, char *out)
{
	const char *s;

	if (!rcl_json_get_str(obj, "name", &s) || strlen(s) > RCL_VD_NAME_MAX || !printable(s))
		return false;
	strcpy(out, s);
	return true;
}

/*
 * The optional "pdcache" and "io" (records older than them have neither):
 * absent, Default and Direct.
 */
static bool get_cache_policies(json_object *obj, struct rcl_soft_vd *vd)
{
	const char *s;

	vd->disk_cache = RCL_DISK_CACHE_DEFAULT;
	vd->io = RCL_IO_DIRECT;
	if (json_object_object_get_ex(obj, "pdcache", NULL) &&
	    (!rcl_json_get_str(obj, "pdcache", &s) ||
	     rcl_disk_cache_policy_parse(s, &vd->disk_cache, NULL)))
		return false;
	return !json_object_object_get_ex(obj, "io", NULL) ||
	       (rcl_json_get_str(obj, "io", &s) && !rcl_io_policy_parse(s, &vd->io, NULL));
}

/* The policies, by the names rcl_write_policy_name() and its siblings give. */
static bool get_policies(json_object *obj, struct rcl_soft_vd *vd)
{
	const char *w, *r, *a;

	return get_cache_policies(obj, vd) && rcl_json_get_str(obj, "write", &w) &&
	       !rcl_write_policy_parse(w, &vd->write, NULL) && rcl_json_get_str(obj, "read", &r) &&
	       !rcl_read_policy_parse(r, &vd->read, NULL) && rcl_json_get_str(obj, "access", &a) &&
	       !rcl_access_policy_parse(a, &vd->access, NULL);
}

static bool get_level(json_object *obj, enum rcl_raid_level *level)
{
	const char *s;

	return rcl_json_get_str(obj, "level", &s) && !rcl_raid_level_parse(s, level, NULL);
}

/* RAID00/50/60 name their span arrays' UUIDs; other levels have none. */
static bool get_span_uuids(json_object *obj, const struct rcl_soft_dg *dg, struct rcl_soft_vd *vd)
{
	bool nested = rcl_soft_nested(dg->level);
	json_object *list;

	if (!json_object_object_get_ex(obj, "span_uuids", &list))
		return !nested;
	if (!nested || !json_object_is_type(list, json_type_array) ||
	    json_object_array_length(list) != dg->spans)
		return false;
	for (unsigned s = 0; s < dg->spans; s++) {
		struct rcl_error ignored = {0};
		json_object *item = json_object_array_get_idx(list, s);
		struct rcl_guid g;

		if (!json_object_is_type(item, json_type_string) ||
		    rcl_guid_parse(json_object_get_string(item), &g, &ignored))
			return false;
		memcpy(vd->span_uuids[s], g.b, 16);
	}
	return true;
}

/* The md layout keys of "md", in struct rcl_md_geometry's order (config.h). */
static const char *const md_keys[] = {"data_offset",   "data_size",    "size",
                                      "bitmap_offset", "bitmap_chunk", "bitmap_sync_size",
                                      "bblog_offset",  "bblog_size"};

/* @geo's fields that md_keys[] name, in that order (md's offsets here are positive). */
static void md_values(const struct rcl_md_geometry *geo, uint64_t *v)
{
	const uint64_t in[] = {geo->data_offset,
	                       geo->data_size,
	                       geo->size,
	                       (uint64_t)geo->bitmap_offset,
	                       geo->bitmap_chunk,
	                       geo->bitmap_sync_size,
	                       (uint64_t)geo->bblog_offset,
	                       geo->bblog_size};

	memcpy(v, in, sizeof(in));
}

/* An adopted md array's layout ("md"), optional: absent, the computed one holds. */
static bool get_md(json_object *obj, struct rcl_soft_vd *vd)
{
	static const uint64_t max[] = {INT64_MAX,  INT64_MAX, INT64_MAX, INT32_MAX,
	                               UINT32_MAX, INT64_MAX, INT32_MAX, UINT16_MAX};
	uint64_t v[sizeof(md_keys) / sizeof(md_keys[0])];
	json_object *md;

	if (!json_object_object_get_ex(obj, "md", &md))
		return true;
	for (size_t i = 0; i < sizeof(md_keys) / sizeof(md_keys[0]); i++)
		if (!rcl_json_get_uint(md, md_keys[i], max[i], &v[i]))
			return false;
	/* The data lies past the superblock; a bitmap has a chunk. */
	if (v[0] < RCL_MD_SUPER1_2_OFFSET + 8 || (v[3] && !v[4]))
		return false;
	vd->md_kept = true;
	vd->md = (struct rcl_md_geometry){.super_offset = RCL_MD_SUPER1_2_OFFSET,
	                                  .data_offset = v[0],
	                                  .data_size = v[1],
	                                  .size = v[2],
	                                  .bitmap_offset = (int32_t)v[3],
	                                  .bitmap_chunk = (uint32_t)v[4],
	                                  .bitmap_sync_size = v[5],
	                                  .bblog_offset = (int32_t)v[6],
	                                  .bblog_size = (uint16_t)v[7]};
	return true;
}

/* "autobgi": optional, a boolean (absent: on). */
static bool get_autobgi(json_object *obj, struct rcl_soft_vd *vd)
{
	bool on = true;

	if (json_object_object_get_ex(obj, "autobgi", NULL) &&
	    !rcl_json_get_bool(obj, "autobgi", &on))
		return false;
	vd->no_autobgi = !on;
	return true;
}

static enum rcl_status parse_vd(const struct parse *p, json_object *obj,
                                const struct rcl_soft_dg *dg, struct rcl_soft_vd *vd)
{
	uint64_t id, part, first, last, bytes, strip, created;
	struct rcl_guid uuid;

	if (!json_object_is_type(obj, json_type_object) ||
	    !rcl_json_get_uint(obj, "id", RCL_MAX_VDS - 1, &id) || !get_name(obj, vd->name) ||
	    !rcl_json_get_guid(obj, "uuid", &uuid) ||
	    !rcl_json_get_uint(obj, "part", RCL_GPT_MAX_PARTS - 1, &part) || !part ||
	    !rcl_json_get_uint(obj, "first_lba", INT64_MAX, &first) ||
	    !rcl_json_get_uint(obj, "last_lba", INT64_MAX, &last) || last < first ||
	    !rcl_json_get_uint(obj, "bytes", INT64_MAX, &bytes) ||
	    !rcl_json_get_uint(obj, "strip_kib", RCL_SOFT_MAX_STRIP_KIB, &strip) ||
	    !rcl_json_get_bool(obj, "consistent", &vd->consistent) ||
	    !rcl_json_get_uint(obj, "created", INT64_MAX, &created) || !get_policies(obj, vd) ||
	    !get_span_uuids(obj, dg, vd) || !get_md(obj, vd) || !get_autobgi(obj, vd))
		return bad(p, "has a virtual drive with a missing or invalid field");
	vd->id = (unsigned)id;
	vd->dg = dg->id;
	memcpy(vd->uuid, uuid.b, 16);
	vd->part = (unsigned)part;
	vd->first_lba = first;
	vd->last_lba = last;
	vd->bytes = bytes;
	vd->strip_kib = (unsigned)strip;
	vd->created = (time_t)created;
	return RCL_OK;
}

/* One {"uuid", "slot"} drive entry, as members and spares are listed. */
static bool get_member(json_object *m, struct rcl_soft_member *out)
{
	uint64_t slot;

	if (!json_object_is_type(m, json_type_object) ||
	    !rcl_json_get_guid(m, "uuid", &out->uuid) ||
	    !rcl_json_get_uint(m, "slot", RCL_SOFT_MAX_DRIVES - 1, &slot))
		return false;
	out->slot = (unsigned)slot;
	return true;
}

/* The record's names of member states; online has none ("state" is absent). */
static const char *const member_states[] = {
    [RCL_SOFT_MEMBER_OFFLINE] = "offline",
    [RCL_SOFT_MEMBER_FAILED] = "failed",
    [RCL_SOFT_MEMBER_MISSING] = "missing",
    [RCL_SOFT_MEMBER_REBUILD] = "rebuild",
};

/* A member's "state" (absent: online) and, rebuilding, its "rebuilt_lba". */
static bool get_member_state(json_object *m, uint64_t last_lba, struct rcl_soft_member *out)
{
	json_object *value;
	const char *s;
	unsigned i = RCL_SOFT_MEMBER_OFFLINE;

	out->state = RCL_SOFT_MEMBER_ONLINE;
	out->rebuilt_lba = 0;
	if (!json_object_object_get_ex(m, "state", &value))
		return !json_object_object_get_ex(m, "rebuilt_lba", &value);
	if (!rcl_json_get_str(m, "state", &s))
		return false;
	while (i < sizeof(member_states) / sizeof(member_states[0]) && strcmp(s, member_states[i]))
		i++;
	if (i == sizeof(member_states) / sizeof(member_states[0]))
		return false;
	out->state = (enum rcl_soft_member_state)i;
	if (out->state != RCL_SOFT_MEMBER_REBUILD)
		return !json_object_object_get_ex(m, "rebuilt_lba", &value);
	return rcl_json_get_uint(m, "rebuilt_lba", last_lba + 1, &out->rebuilt_lba);
}

static enum rcl_status parse_members(const struct parse *p, json_object *list,
                                     struct rcl_soft_dg *dg)
{
	unsigned n = rcl_soft_dg_members(dg);

	if (!json_object_is_type(list, json_type_array) || json_object_array_length(list) != n)
		return bad(p, "has a disk group whose member count does not match its spans");
	for (unsigned i = 0; i < n; i++) {
		json_object *m = json_object_array_get_idx(list, i);

		if (!get_member(m, &dg->members[i]))
			return bad(p, "has a member with a missing or invalid field");
		if (!get_member_state(m, dg->last_lba, &dg->members[i]))
			return bad(p, "has a member with an invalid state");
	}
	return RCL_OK;
}

/* A spare's optional "enclaffinity" and "nonrevertible", into RCL_SPARE_* @flags. */
static bool get_spare_flags(json_object *e, unsigned *flags)
{
	static const struct {
		const char *key;
		unsigned flag;
	} keys[] = {{"enclaffinity", RCL_SPARE_ENCL_AFFINITY},
	            {"nonrevertible", RCL_SPARE_NONREVERTIBLE}};

	*flags = 0;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		bool on = false;

		if (json_object_object_get_ex(e, keys[k].key, NULL) &&
		    !rcl_json_get_bool(e, keys[k].key, &on))
			return false;
		*flags |= on ? keys[k].flag : 0;
	}
	return true;
}

/* A group's optional "spares": each a member entry with its md device number. */
static enum rcl_status parse_dg_spares(const struct parse *p, json_object *obj,
                                       struct rcl_soft_dg *dg)
{
	unsigned members = rcl_soft_dg_members(dg);
	json_object *list;
	size_t n;

	if (!json_object_object_get_ex(obj, "spares", &list))
		return RCL_OK;
	if (!json_object_is_type(list, json_type_array) ||
	    (n = json_object_array_length(list)) > RCL_MAX_HOT_SPARES)
		return bad(p, "has a disk group with an invalid or too long list of hot spares");
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(list, i);
		uint64_t dev;

		if (!get_member(e, &dg->spares[i].drive) ||
		    !rcl_json_get_uint(e, "dev", RCL_SOFT_MAX_SPARE_DEV, &dev) || dev < members ||
		    !get_spare_flags(e, &dg->spares[i].flags))
			return bad(p, "has a dedicated hot spare with a missing or invalid field");
		dg->spares[i].dev = (unsigned)dev;
		for (size_t j = 0; j < i; j++)
			if (dg->spares[j].dev == dev)
				return bad(
				    p, "has two dedicated hot spares with the same device number");
	}
	dg->spare_count = (unsigned)n;
	return RCL_OK;
}

/* A spare's optional "dgs": distinct ids of groups @cfg has, into the mask @out. */
static bool get_spare_dgs(json_object *e, struct rcl_soft_config *cfg, uint32_t *out)
{
	json_object *list;
	size_t n;

	*out = 0;
	if (!json_object_object_get_ex(e, "dgs", &list))
		return true;
	if (!json_object_is_type(list, json_type_array) || !(n = json_object_array_length(list)))
		return false;
	for (size_t i = 0; i < n; i++) {
		json_object *item = json_object_array_get_idx(list, i);
		int64_t id = json_object_get_int64(item);

		if (!json_object_is_type(item, json_type_int) || id < 0 || id >= RCL_MAX_DGS ||
		    (*out & (1u << id)) || !rcl_soft_config_dg(cfg, (unsigned)id))
			return false;
		*out |= 1u << id;
	}
	return true;
}

/* "spares" is optional: records written before hot spares have none. */
static enum rcl_status parse_spares(const struct parse *p, json_object *root,
                                    struct rcl_soft_config *cfg)
{
	json_object *list;
	size_t n;

	if (!json_object_object_get_ex(root, "spares", &list))
		return RCL_OK;
	if (!json_object_is_type(list, json_type_array) ||
	    (n = json_object_array_length(list)) > RCL_MAX_HOT_SPARES)
		return bad(p, "has an invalid or too long list of hot spares");
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(list, i);

		if (!get_member(e, &cfg->spares[i]) || !get_spare_flags(e, &cfg->spare_flags[i]))
			return bad(p, "has a hot spare with a missing or invalid field");
		if (!get_spare_dgs(e, cfg, &cfg->spare_dgs[i]))
			return bad(p,
			           "has a hot spare dedicated to an invalid list of disk groups");
	}
	cfg->spare_count = n;
	return RCL_OK;
}

/* A removal's "removed": the old members past the new ones, into @dg's members. */
static bool get_removed(json_object *m, unsigned drives, struct rcl_soft_dg *dg)
{
	unsigned n = rcl_soft_dg_members(dg);
	json_object *list;

	if (!json_object_object_get_ex(m, "removed", &list))
		return drives <= n;
	if (!json_object_is_type(list, json_type_array) || drives <= n ||
	    json_object_array_length(list) != drives - n)
		return false;
	for (unsigned i = n; i < drives; i++) {
		json_object *e = json_object_array_get_idx(list, i - n);

		if (!get_member(e, &dg->members[i]) ||
		    !get_member_state(e, dg->last_lba, &dg->members[i]))
			return false;
	}
	return true;
}

/* The optional "migrate": the old level and member count, and the members removed. */
static enum rcl_status parse_migration(const struct parse *p, json_object *obj,
                                       struct rcl_soft_dg *dg)
{
	json_object *m;
	uint64_t drives;

	if (!json_object_object_get_ex(obj, "migrate", &m))
		return RCL_OK;
	if (!json_object_is_type(m, json_type_object) || !get_level(m, &dg->migrate.level) ||
	    !rcl_json_get_uint(m, "drives", RCL_MAX_DRIVES_PER_SPAN, &drives) || !drives ||
	    dg->spans != 1 || !get_removed(m, (unsigned)drives, dg))
		return bad(p, "has a disk group with an invalid migration");
	dg->migrate.active = true;
	dg->migrate.drives = (unsigned)drives;
	return RCL_OK;
}

static enum rcl_status parse_group(const struct parse *p, json_object *obj,
                                   struct rcl_soft_config *cfg)
{
	struct rcl_soft_dg *dg = &cfg->dgs[cfg->dg_count];
	uint64_t id, spans, dps, first, last;
	json_object *members, *vds;
	enum rcl_status st;
	enum rcl_raid_level level;
	size_t n;

	if (!json_object_is_type(obj, json_type_object) ||
	    !rcl_json_get_uint(obj, "id", RCL_MAX_DGS - 1, &id) || !get_level(obj, &level) ||
	    !rcl_json_get_uint(obj, "spans", RCL_MAX_SPANS, &spans) || !spans ||
	    !rcl_json_get_uint(obj, "drives_per_span", RCL_MAX_DRIVES_PER_SPAN, &dps) || !dps ||
	    !rcl_json_get_uint(obj, "first_lba", INT64_MAX, &first) ||
	    !rcl_json_get_uint(obj, "last_lba", INT64_MAX, &last) || last < first ||
	    !json_object_object_get_ex(obj, "members", &members) ||
	    !json_object_object_get_ex(obj, "vds", &vds) ||
	    !json_object_is_type(vds, json_type_array))
		return bad(p, "has a disk group with a missing or invalid field");
	dg->id = (unsigned)id;
	dg->level = level;
	dg->spans = (unsigned)spans;
	dg->drives_per_span = (unsigned)dps;
	dg->first_lba = first;
	dg->last_lba = last;
	st = parse_members(p, members, dg);
	if (!st)
		st = parse_dg_spares(p, obj, dg);
	if (!st)
		st = parse_migration(p, obj, dg);
	if (st)
		return st;
	n = json_object_array_length(vds);
	if (!n || n > RCL_MAX_VDS_PER_DG || cfg->vd_count + n > RCL_MAX_VDS)
		return bad(p, "has a disk group with no or too many virtual drives");
	for (size_t i = 0; i < n; i++) {
		struct rcl_soft_vd *vd = &cfg->vds[cfg->vd_count];

		st = parse_vd(p, json_object_array_get_idx(vds, i), dg, vd);
		if (st)
			return st;
		if (vd->first_lba < dg->first_lba || vd->last_lba > dg->last_lba)
			return bad(p, "has a virtual drive outside its disk group");
		cfg->vd_count++;
	}
	cfg->dg_count++;
	return RCL_OK;
}

/* Every drive @cfg lists (members, dedicated and global spares) into @out. */
static size_t all_drives(const struct rcl_soft_config *cfg, const struct rcl_guid **out)
{
	size_t n = 0;

	for (size_t i = 0; i < cfg->dg_count; i++) {
		const struct rcl_soft_dg *dg = &cfg->dgs[i];

		for (unsigned m = 0; m < rcl_soft_dg_held(dg); m++)
			out[n++] = &dg->members[m].uuid;
		for (unsigned k = 0; k < dg->spare_count; k++)
			out[n++] = &dg->spares[k].drive.uuid;
	}
	for (size_t k = 0; k < cfg->spare_count; k++)
		out[n++] = &cfg->spares[k].uuid;
	return n;
}

/* No two groups share an id; no drive is listed twice; not too many spares. */
static enum rcl_status check_groups(const struct parse *p, const struct rcl_soft_config *cfg)
{
	const struct rcl_guid
	    *uuids[RCL_MAX_DGS * (RCL_SOFT_MAX_MEMBERS + RCL_MAX_HOT_SPARES) + RCL_MAX_HOT_SPARES];
	size_t n = all_drives(cfg, uuids);

	for (size_t i = 0; i < cfg->dg_count; i++)
		for (size_t j = 0; j < i; j++)
			if (cfg->dgs[i].id == cfg->dgs[j].id)
				return bad(p, "has two disk groups with the same id");
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (rcl_guid_equal(uuids[i], uuids[j]))
				return bad(p, "lists a drive twice");
	if (rcl_soft_config_spares(cfg) > RCL_MAX_HOT_SPARES)
		return bad(p, "has more hot spares than a controller can");
	return RCL_OK;
}

/* No two VDs share an id or a UUID; VDs of a group neither share a
 * partition nor overlap. */
static enum rcl_status check_vds(const struct parse *p, const struct rcl_soft_config *cfg)
{
	for (size_t i = 0; i < cfg->vd_count; i++)
		for (size_t j = 0; j < i; j++) {
			const struct rcl_soft_vd *a = &cfg->vds[i], *b = &cfg->vds[j];

			if (a->id == b->id || !memcmp(a->uuid, b->uuid, 16))
				return bad(p, "has two virtual drives with the same id or UUID");
			if (a->dg == b->dg && (a->part == b->part || (a->first_lba <= b->last_lba &&
			                                              b->first_lba <= a->last_lba)))
				return bad(p, "has overlapping virtual drives");
		}
	return RCL_OK;
}

static int cmp_vd(const void *a, const void *b)
{
	const struct rcl_soft_vd *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static enum rcl_status parse_root(const struct parse *p, json_object *root,
                                  struct rcl_soft_config *cfg)
{
	json_object *groups;
	const char *serial;
	uint64_t format;
	enum rcl_status st;
	size_t n;

	if (!json_object_is_type(root, json_type_object) ||
	    !rcl_json_get_uint(root, "format", 1000, &format))
		return bad(p, "is not a configuration");
	if (format != RCL_SOFT_CONFIG_FORMAT)
		return bad(p, "has a format this raidcli does not know");
	if (!rcl_json_get_str(root, "serial", &serial) || !*serial ||
	    strlen(serial) >= sizeof(cfg->serial) || !printable(serial) ||
	    !json_object_object_get_ex(root, "groups", &groups) ||
	    !json_object_is_type(groups, json_type_array))
		return bad(p, "lacks the controller serial or the disk groups");
	strcpy(cfg->serial, serial);
	n = json_object_array_length(groups);
	if (n > RCL_MAX_DGS)
		return bad(p, "has more disk groups than a controller can");
	for (size_t i = 0; i < n; i++) {
		st = parse_group(p, json_object_array_get_idx(groups, i), cfg);
		if (st)
			return st;
	}
	st = parse_spares(p, root, cfg);
	if (!st)
		st = check_groups(p, cfg);
	if (!st)
		st = check_vds(p, cfg);
	qsort(cfg->vds, cfg->vd_count, sizeof(cfg->vds[0]), cmp_vd);
	return st;
}

enum rcl_status rcl_soft_config_parse(const void *text, size_t len, const char *drive,
                                      struct rcl_soft_config *cfg, struct rcl_error *err)
{
	const struct parse p = {drive, err};
	json_tokener *tok;
	json_object *root;
	enum rcl_status st;

	memset(cfg, 0, sizeof(*cfg));
	if (len > INT32_MAX || memchr(text, 0, len))
		return bad(&p, "is not text");
	tok = json_tokener_new();
	if (!tok)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len)
		st = bad(&p, "is not valid JSON");
	else
		st = parse_root(&p, root, cfg);
	json_object_put(root);
	json_tokener_free(tok);
	return st;
}

/* ---- Writing ---- */

/*
 * The builders below tolerate allocation failures (a NULL object takes no
 * fields, a NULL value becomes JSON null): rcl_soft_config_format() reads
 * its text back, and anything lost fails that check.
 */
static void add_obj(json_object *obj, const char *key, json_object *value)
{
	if (obj)
		json_object_object_add(obj, key, value);
	else
		json_object_put(value);
}

static void add_str(json_object *obj, const char *key, const char *value)
{
	add_obj(obj, key, json_object_new_string(value));
}

static void add_int(json_object *obj, const char *key, int64_t value)
{
	add_obj(obj, key, json_object_new_int64(value));
}

static void append(json_object *array, json_object *value)
{
	if (!array || json_object_array_add(array, value))
		json_object_put(value);
}

static json_object *format_vd(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd)
{
	json_object *obj = json_object_new_object();
	json_object *spans;

	add_int(obj, "id", vd->id);
	add_str(obj, "name", vd->name);
	rcl_json_add_guid(obj, "uuid", vd->uuid);
	add_int(obj, "part", vd->part);
	add_int(obj, "first_lba", (int64_t)vd->first_lba);
	add_int(obj, "last_lba", (int64_t)vd->last_lba);
	add_int(obj, "bytes", (int64_t)vd->bytes);
	add_int(obj, "strip_kib", vd->strip_kib);
	add_str(obj, "write", rcl_write_policy_name(vd->write));
	add_str(obj, "read", rcl_read_policy_name(vd->read));
	add_str(obj, "access", rcl_access_policy_name(vd->access));
	/* Written when set, so a record with neither reads as before. */
	if (vd->disk_cache != RCL_DISK_CACHE_DEFAULT)
		add_str(obj, "pdcache", rcl_disk_cache_policy_name(vd->disk_cache));
	if (vd->io != RCL_IO_DIRECT)
		add_str(obj, "io", rcl_io_policy_name(vd->io));
	add_obj(obj, "consistent", json_object_new_boolean(vd->consistent));
	if (vd->no_autobgi)
		add_obj(obj, "autobgi", json_object_new_boolean(false));
	add_int(obj, "created", (int64_t)vd->created);
	if (vd->md_kept) {
		json_object *md = json_object_new_object();
		uint64_t v[sizeof(md_keys) / sizeof(md_keys[0])];

		md_values(&vd->md, v);
		for (size_t i = 0; i < sizeof(md_keys) / sizeof(md_keys[0]); i++)
			add_int(md, md_keys[i], (int64_t)v[i]);
		add_obj(obj, "md", md);
	}
	if (!rcl_soft_nested(dg->level))
		return obj;
	spans = json_object_new_array();
	for (unsigned s = 0; s < dg->spans; s++) {
		struct rcl_guid g;
		char text[RCL_GUID_STRLEN + 1];

		memcpy(g.b, vd->span_uuids[s], 16);
		rcl_guid_to_string(&g, text);
		append(spans, json_object_new_string(text));
	}
	add_obj(obj, "span_uuids", spans);
	return obj;
}

static json_object *format_member(const struct rcl_soft_member *member)
{
	json_object *m = json_object_new_object();

	rcl_json_add_guid(m, "uuid", member->uuid.b);
	add_int(m, "slot", member->slot);
	return m;
}

/* A spare entry @e's "enclaffinity" and "nonrevertible", those of @flags that are set. */
static void add_spare_flags(json_object *e, unsigned flags)
{
	if (flags & RCL_SPARE_ENCL_AFFINITY)
		add_obj(e, "enclaffinity", json_object_new_boolean(true));
	if (flags & RCL_SPARE_NONREVERTIBLE)
		add_obj(e, "nonrevertible", json_object_new_boolean(true));
}

/* Global spare @i, with the groups it is dedicated to when there are any. */
static json_object *format_spare(const struct rcl_soft_config *cfg, size_t i)
{
	const uint32_t *dgs = cfg->spare_dgs;
	json_object *e = format_member(&cfg->spares[i]);
	json_object *ids;

	add_spare_flags(e, cfg->spare_flags[i]);
	if (!dgs[i])
		return e;
	ids = json_object_new_array();
	for (unsigned id = 0; id < RCL_MAX_DGS; id++)
		if (dgs[i] & (1u << id))
			append(ids, json_object_new_int(id));
	add_obj(e, "dgs", ids);
	return e;
}

static json_object *format_dg_spares(const struct rcl_soft_dg *dg)
{
	json_object *spares = json_object_new_array();

	for (unsigned k = 0; k < dg->spare_count; k++) {
		json_object *e = format_member(&dg->spares[k].drive);

		add_int(e, "dev", dg->spares[k].dev);
		add_spare_flags(e, dg->spares[k].flags);
		append(spares, e);
	}
	return spares;
}

/* A member of a group, with its state when it is not online. */
static json_object *format_dg_member(const struct rcl_soft_member *m)
{
	json_object *e = format_member(m);

	if (m->state != RCL_SOFT_MEMBER_ONLINE)
		add_str(e, "state", member_states[m->state]);
	if (m->state == RCL_SOFT_MEMBER_REBUILD)
		add_int(e, "rebuilt_lba", (int64_t)m->rebuilt_lba);
	return e;
}

static json_object *format_group(const struct rcl_soft_config *cfg, const struct rcl_soft_dg *dg)
{
	json_object *obj = json_object_new_object();
	json_object *members = json_object_new_array();
	json_object *vds = json_object_new_array();

	add_int(obj, "id", dg->id);
	add_str(obj, "level", rcl_raid_level_name(dg->level));
	add_int(obj, "spans", dg->spans);
	add_int(obj, "drives_per_span", dg->drives_per_span);
	add_int(obj, "first_lba", (int64_t)dg->first_lba);
	add_int(obj, "last_lba", (int64_t)dg->last_lba);
	for (unsigned i = 0; i < rcl_soft_dg_members(dg); i++)
		append(members, format_dg_member(&dg->members[i]));
	for (size_t i = 0; i < cfg->vd_count; i++)
		if (cfg->vds[i].dg == dg->id)
			append(vds, format_vd(dg, &cfg->vds[i]));
	add_obj(obj, "members", members);
	add_obj(obj, "vds", vds);
	if (dg->spare_count)
		add_obj(obj, "spares", format_dg_spares(dg));
	if (dg->migrate.active) {
		json_object *m = json_object_new_object();

		add_str(m, "level", rcl_raid_level_name(dg->migrate.level));
		add_int(m, "drives", dg->migrate.drives);
		if (rcl_soft_dg_held(dg) > rcl_soft_dg_members(dg)) {
			json_object *removed = json_object_new_array();

			for (unsigned i = rcl_soft_dg_members(dg); i < rcl_soft_dg_held(dg); i++)
				append(removed, format_dg_member(&dg->members[i]));
			add_obj(m, "removed", removed);
		}
		add_obj(obj, "migrate", m);
	}
	return obj;
}

/* Whether @text reads back as a configuration (nothing lost to OOM). */
static bool reads_back(const char *text, size_t len)
{
	struct rcl_soft_config *check = rcl_calloc(1, sizeof(*check));
	struct rcl_error ignored = {0};
	bool ok = check && !rcl_soft_config_parse(text, len, "", check, &ignored);

	rcl_free(check);
	return ok;
}

char *rcl_soft_config_format(const struct rcl_soft_config *cfg, size_t *len)
{
	json_object *root = json_object_new_object();
	json_object *groups = json_object_new_array();
	const char *text;
	char *out = NULL;

	add_int(root, "format", RCL_SOFT_CONFIG_FORMAT);
	add_str(root, "serial", cfg->serial);
	for (size_t i = 0; i < cfg->dg_count; i++)
		append(groups, format_group(cfg, &cfg->dgs[i]));
	add_obj(root, "groups", groups);
	if (cfg->spare_count) {
		json_object *spares = json_object_new_array();

		for (size_t i = 0; i < cfg->spare_count; i++)
			append(spares, format_spare(cfg, i));
		add_obj(root, "spares", spares);
	}
	text = root ? json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN) : NULL;
	if (text && reads_back(text, strlen(text)) && (out = rcl_strdup(text)))
		*len = strlen(out);
	json_object_put(root);
	return out;
}
