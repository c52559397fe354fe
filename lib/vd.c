// SPDX-License-Identifier: MIT
/*
 * vd.c - virtual drives whatever the backend: RAID level names, the rules
 * every "add vd" must pass, and the wrappers that check before a backend
 * changes anything.
 *
 * The rules live here, not in each backend, so every controller refuses the
 * same mistakes with the same words before a single byte is written.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

static const struct {
	enum rcl_raid_level level;
	const char *name;
	unsigned min_per_span; /* drives a span needs at least */
	unsigned max_per_span; /* 0: RCL_MAX_DRIVES_PER_SPAN */
	bool spanned;          /* RAID0 over spans of the base level */
} levels[] = {
    {RCL_RAID0, "RAID0", 1, 0, false},  {RCL_RAID1, "RAID1", 2, 2, false},
    {RCL_RAID5, "RAID5", 3, 0, false},  {RCL_RAID6, "RAID6", 4, 0, false},
    {RCL_RAID10, "RAID10", 2, 2, true}, {RCL_RAID50, "RAID50", 3, 0, true},
    {RCL_RAID60, "RAID60", 4, 0, true}, {RCL_RAID00, "RAID00", 1, 0, true},
};

#define LEVEL_COUNT (sizeof(levels) / sizeof(levels[0]))

const char *rcl_raid_level_name(enum rcl_raid_level level)
{
	return (size_t)level < LEVEL_COUNT ? levels[level].name : "Unknown";
}

static const char *const write_policy_names[] = {
    [RCL_WRITE_THROUGH] = "WT",
    [RCL_WRITE_BACK] = "WB",
    [RCL_WRITE_BACK_ALWAYS] = "AWB",
};
static const char *const read_policy_names[] = {
    [RCL_READ_AHEAD] = "RA",
    [RCL_NO_READ_AHEAD] = "NoRA",
};
static const char *const access_policy_names[] = {
    [RCL_ACCESS_RW] = "RW",
    [RCL_ACCESS_RO] = "RO",
    [RCL_ACCESS_BLOCKED] = "Blocked",
    [RCL_ACCESS_REMOVED_BLOCKED] = "RmvBlkd",
};
static const char *const disk_cache_policy_names[] = {
    [RCL_DISK_CACHE_DEFAULT] = "Default",
    [RCL_DISK_CACHE_ON] = "On",
    [RCL_DISK_CACHE_OFF] = "Off",
};
static const char *const io_policy_names[] = {
    [RCL_IO_DIRECT] = "Direct",
    [RCL_IO_CACHED] = "Cached",
};

#define NAME_OF(names, value)                                                                      \
	((size_t)(value) < sizeof(names) / sizeof((names)[0]) ? (names)[value] : "Unknown")

const char *rcl_write_policy_name(enum rcl_write_policy policy)
{
	return NAME_OF(write_policy_names, policy);
}

const char *rcl_read_policy_name(enum rcl_read_policy policy)
{
	return NAME_OF(read_policy_names, policy);
}

const char *rcl_access_policy_name(enum rcl_access_policy policy)
{
	return NAME_OF(access_policy_names, policy);
}

const char *rcl_disk_cache_policy_name(enum rcl_disk_cache_policy policy)
{
	return NAME_OF(disk_cache_policy_names, policy);
}

const char *rcl_io_policy_name(enum rcl_io_policy policy)
{
	return NAME_OF(io_policy_names, policy);
}

/* The index of @text among @names (case-insensitive), or a failure naming @what. */
static enum rcl_status parse_name(const char *text, const char *const *names, size_t count,
                                  const char *what, int *index, struct rcl_error *err)
{
	for (size_t i = 0; i < count; i++)
		if (!strcasecmp(text, names[i])) {
			*index = (int)i;
			return RCL_OK;
		}
	return rcl_fail(err, RCL_INVALID_PARAM, "unknown %s policy '%s'", what, text);
}

/* @text's index among @names into *@out, an enum of @names' type. */
#define PARSE_POLICY(text, names, what, out, err)                                                  \
	parse_policy(text, names, sizeof(names) / sizeof((names)[0]), what, (int *)(out), err)

static enum rcl_status parse_policy(const char *text, const char *const *names, size_t count,
                                    const char *what, int *out, struct rcl_error *err)
{
	int index = 0;
	enum rcl_status st = parse_name(text, names, count, what, &index, err);

	if (!st)
		*out = index;
	return st;
}

enum rcl_status rcl_write_policy_parse(const char *text, enum rcl_write_policy *policy,
                                       struct rcl_error *err)
{
	return PARSE_POLICY(text, write_policy_names, "write", policy, err);
}

enum rcl_status rcl_read_policy_parse(const char *text, enum rcl_read_policy *policy,
                                      struct rcl_error *err)
{
	return PARSE_POLICY(text, read_policy_names, "read", policy, err);
}

enum rcl_status rcl_access_policy_parse(const char *text, enum rcl_access_policy *policy,
                                        struct rcl_error *err)
{
	return PARSE_POLICY(text, access_policy_names, "access", policy, err);
}

enum rcl_status rcl_disk_cache_policy_parse(const char *text, enum rcl_disk_cache_policy *policy,
                                            struct rcl_error *err)
{
	return PARSE_POLICY(text, disk_cache_policy_names, "disk cache", policy, err);
}

enum rcl_status rcl_io_policy_parse(const char *text, enum rcl_io_policy *policy,
                                    struct rcl_error *err)
{
	return PARSE_POLICY(text, io_policy_names, "I/O", policy, err);
}

enum rcl_status rcl_raid_level_parse(const char *text, enum rcl_raid_level *level,
                                     struct rcl_error *err)
{
	const char *digits = text;

	/* StorCLI takes "raid5", "RAID5" and "r5" alike. */
	if (!strncasecmp(text, "raid", 4))
		digits = text + 4;
	else if (tolower((unsigned char)text[0]) == 'r')
		digits = text + 1;
	for (size_t i = 0; digits != text && i < LEVEL_COUNT; i++) {
		if (!strcmp(digits, levels[i].name + 4)) {
			*level = levels[i].level;
			return RCL_OK;
		}
	}
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "unknown RAID level '%s': expected raid0, raid1, raid5, raid6, raid00, "
	                "raid10, raid50 or raid60 (or r0, r1, ...)",
	                text);
}

const char *rcl_vd_state_abbrev(enum rcl_vd_state state)
{
	static const char *const names[] = {
	    [RCL_VD_OPTIMAL] = "Optl",
	    [RCL_VD_PARTIALLY_DEGRADED] = "Pdgd",
	    [RCL_VD_DEGRADED] = "Dgrd",
	    [RCL_VD_OFFLINE] = "OfLn",
	};

	if ((size_t)state < sizeof(names) / sizeof(names[0]))
		return names[state];
	return "Unknown";
}

enum rcl_vd_state rcl_raid_state(enum rcl_raid_level level, unsigned spans, unsigned per_span,
                                 const unsigned *lost)
{
	unsigned worst = 0, total = 0;

	for (unsigned s = 0; s < spans; s++) {
		total += lost[s];
		if (lost[s] > worst)
			worst = lost[s];
	}
	if (!total)
		return RCL_VD_OPTIMAL;
	switch (level) {
	case RCL_RAID1:
	case RCL_RAID10:
		return worst < per_span ? RCL_VD_DEGRADED : RCL_VD_OFFLINE;
	case RCL_RAID5:
	case RCL_RAID50:
		return worst == 1 ? RCL_VD_DEGRADED : RCL_VD_OFFLINE;
	case RCL_RAID6:
	case RCL_RAID60:
		return worst == 1   ? RCL_VD_PARTIALLY_DEGRADED
		       : worst == 2 ? RCL_VD_DEGRADED
		                    : RCL_VD_OFFLINE;
	default:
		return RCL_VD_OFFLINE;
	}
}

static bool same_ref(const struct rcl_drive_ref *a, const struct rcl_drive_ref *b)
{
	return a->enclosure == b->enclosure && a->slot == b->slot;
}

/* Fail on the first drive that appears twice among members and spares. */
static enum rcl_status check_unique(const struct rcl_vd_params *p, struct rcl_error *err)
{
	size_t total = p->drive_count + p->spare_count;

	for (size_t i = 0; i < total; i++) {
		const struct rcl_drive_ref *a =
		    i < p->drive_count ? &p->drives[i] : &p->spares[i - p->drive_count];

		for (size_t j = i + 1; j < total; j++) {
			const struct rcl_drive_ref *b =
			    j < p->drive_count ? &p->drives[j] : &p->spares[j - p->drive_count];

			if (!same_ref(a, b))
				continue;
			if (j >= p->drive_count && i < p->drive_count)
				return rcl_fail(err, RCL_INVALID_PARAM,
				                "drive %u:%u is listed both as a member and as a "
				                "spare",
				                a->enclosure, a->slot);
			return rcl_fail(err, RCL_INVALID_PARAM, "drive %u:%u is listed twice",
			                a->enclosure, a->slot);
		}
	}
	return RCL_OK;
}

/* Fill in and check drives_per_span against the level's shape. */
static enum rcl_status check_spans(struct rcl_vd_params *p, struct rcl_error *err)
{
	const char *name = levels[p->level].name;
	unsigned min = levels[p->level].min_per_span;
	unsigned max = levels[p->level].max_per_span;
	size_t n = p->drive_count, spans;

	if (!max)
		max = RCL_MAX_DRIVES_PER_SPAN;
	if (!levels[p->level].spanned) {
		if (p->drives_per_span && p->drives_per_span != n)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "%s has a single span: pdperarray=%u must equal the %zu "
			                "drives listed",
			                name, p->drives_per_span, n);
		if (n < min)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "%s needs at least %u drives; drives= lists %zu", name, min,
			                n);
		if (n > max)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                max == min
			                    ? "%s needs exactly %u drives; drives= lists %zu"
			                    : "%s takes at most %u drives; drives= lists %zu",
			                name, max, n);
		p->drives_per_span = (unsigned)n;
		return RCL_OK;
	}
	if (!p->drives_per_span) {
		if (p->level != RCL_RAID10)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "%s needs pdperarray=N: the drives in each span", name);
		p->drives_per_span = 2;
	}
	if (min == max && p->drives_per_span != min)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "%s needs %u drives per span; pdperarray=%u", name, min,
		                p->drives_per_span);
	if (p->drives_per_span < min || p->drives_per_span > max)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "%s needs %u to %u drives per span; pdperarray=%u", name, min, max,
		                p->drives_per_span);
	if (n % p->drives_per_span)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "pdperarray=%u does not divide %zu drives: %s spans must be of "
		                "equal size",
		                p->drives_per_span, n, name);
	spans = n / p->drives_per_span;
	if (spans < 2)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "%s needs at least 2 spans; %zu drives with pdperarray=%u make 1",
		                name, n, p->drives_per_span);
	if (spans > RCL_MAX_SPANS)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "%s takes at most %d spans; %zu drives with pdperarray=%u make %zu",
		                name, RCL_MAX_SPANS, n, p->drives_per_span, spans);
	return RCL_OK;
}

/*
 * A VD name is what MegaRAID keeps: at most 15 printable ASCII characters
 * in a 16-byte field. Its characters are checked first, so a non-ASCII name
 * is refused as such, not as too long for counting its UTF-8 bytes.
 */
static enum rcl_status check_name(const char *name, struct rcl_error *err)
{
	if (!name)
		return RCL_OK;
	for (const char *s = name; *s; s++) {
		if ((unsigned char)*s >= 0x80)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "name '%s' is not ASCII: a VD name is at most %d ASCII "
			                "characters",
			                name, RCL_VD_NAME_MAX);
		if (!isprint((unsigned char)*s))
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "name '%s' holds a character that is not printable", name);
	}
	if (strlen(name) > RCL_VD_NAME_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM, "name '%s' is longer than %d characters",
		                name, RCL_VD_NAME_MAX);
	return RCL_OK;
}

static enum rcl_status check_strip(struct rcl_vd_params *p, struct rcl_error *err)
{
	unsigned s = p->strip_kib;

	if (!s) {
		p->strip_kib = 64;
		return RCL_OK;
	}
	if (s < 8 || s > 1024 || (s & (s - 1)))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "strip=%u is not a power of two from 8 to 1024", s);
	return RCL_OK;
}

enum rcl_status rcl_vd_params_check(struct rcl_vd_params *params, struct rcl_error *err)
{
	struct rcl_vd_params p = *params;
	enum rcl_status st;

	if ((size_t)p.level >= LEVEL_COUNT)
		return rcl_fail(err, RCL_INVALID_PARAM, "unknown RAID level %d", (int)p.level);
	if (!p.drive_count)
		return rcl_fail(err, RCL_INVALID_PARAM, "drives= lists no drive");
	if (p.spare_count > RCL_MAX_HOT_SPARES)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "spares= lists %zu drives; a group takes at most %d", p.spare_count,
		                RCL_MAX_HOT_SPARES);
	st = check_unique(&p, err);
	if (!st)
		st = check_spans(&p, err);
	if (!st)
		st = check_strip(&p, err);
	if (!st)
		st = check_name(p.name, err);
	/* Fill the defaults only once every rule passed: @params is untouched on failure. */
	if (!st)
		*params = p;
	return st;
}

unsigned rcl_raid_min_drives(enum rcl_raid_level level)
{
	return levels[level].min_per_span;
}

enum rcl_raid_level rcl_raid_span_level(enum rcl_raid_level level)
{
	switch (level) {
	case RCL_RAID10:
		return RCL_RAID1;
	case RCL_RAID50:
		return RCL_RAID5;
	case RCL_RAID60:
		return RCL_RAID6;
	case RCL_RAID00:
		return RCL_RAID0;
	default:
		return level;
	}
}

unsigned rcl_raid_span_data_drives(enum rcl_raid_level level, unsigned per_span)
{
	switch (level) {
	case RCL_RAID1:
	case RCL_RAID10:
		return per_span / 2;
	case RCL_RAID5:
	case RCL_RAID50:
		return per_span - 1;
	case RCL_RAID6:
	case RCL_RAID60:
		return per_span - 2;
	case RCL_RAID0:
	case RCL_RAID00:
		break;
	}
	return per_span;
}

/* Every drive named exists; spares must be unconfigured. */
static enum rcl_status check_refs(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *refs,
                                  size_t count, bool spares, struct rcl_error *err)
{
	for (size_t i = 0; i < count; i++) {
		const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, &refs[i]);
		enum rcl_status st;

		if (!d)
			return rcl_fail(err, RCL_NOT_FOUND, "drive %u:%u not found on /c%u",
			                refs[i].enclosure, refs[i].slot, ctrl->entry.id);
		if (!d->present)
			return rcl_fail(err, RCL_NOT_ALLOWED, "drive %u:%u is missing",
			                refs[i].enclosure, refs[i].slot);
		st = rcl_drive_check_usable(ctrl, d, err);
		if (st)
			return st;
		if (spares && d->state != RCL_PD_UGOOD)
			return rcl_fail(err, RCL_NOT_ALLOWED,
			                "drive %u:%u is already in use (%s); a spare must be "
			                "unconfigured good",
			                refs[i].enclosure, refs[i].slot,
			                rcl_pd_state_abbrev(d->state));
	}
	return RCL_OK;
}

/*
 * The group the members are exactly all of, or NULL when they are all
 * unconfigured (a new group); an error for any other mix.
 */
static enum rcl_status members_group(const struct rcl_ctrl *ctrl, const struct rcl_vd_params *p,
                                     const struct rcl_dg **dg, struct rcl_error *err)
{
	const struct rcl_drive *first = rcl_ctrl_find_drive(ctrl, &p->drives[0]);
	size_t in_group = 0;

	*dg = NULL;
	/* Test the state, not dg alone: an unconfigured drive's dg means nothing. */
	if (first->dg < 0 || first->state == RCL_PD_UGOOD) {
		for (size_t i = 0; i < p->drive_count; i++) {
			const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, &p->drives[i]);

			if (d->state != RCL_PD_UGOOD)
				return rcl_fail(
				    err, RCL_NOT_ALLOWED,
				    "drive %u:%u is already in use (%s); a new group needs "
				    "unconfigured good drives",
				    d->enclosure, d->slot, rcl_pd_state_abbrev(d->state));
		}
		return RCL_OK;
	}
	for (size_t i = 0; i < ctrl->dg_count; i++)
		if ((int)ctrl->dgs[i].id == first->dg)
			*dg = &ctrl->dgs[i];
	for (size_t i = 0; i < ctrl->drive_count; i++)
		in_group += ctrl->drives[i].dg == first->dg && ctrl->drives[i].state != RCL_PD_DHS;
	for (size_t i = 0; i < p->drive_count; i++) {
		const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, &p->drives[i]);

		if (d->dg != first->dg || d->state == RCL_PD_DHS)
			return rcl_fail(
			    err, RCL_NOT_ALLOWED,
			    "drive %u:%u is already in use by drive group %d; a VD goes on "
			    "unconfigured drives or on all the members of one group",
			    first->enclosure, first->slot, first->dg);
	}
	if (!*dg || in_group != p->drive_count)
		return rcl_fail(
		    err, RCL_NOT_ALLOWED,
		    "drive %u:%u is already in use by drive group %d; list all %zu of its "
		    "members to add a VD to it",
		    first->enclosure, first->slot, first->dg, in_group);
	return RCL_OK;
}

/* The most a new VD on these drives can hold, before metadata. */
static uint64_t capacity_limit(const struct rcl_ctrl *ctrl, const struct rcl_vd_params *p)
{
	uint64_t smallest = UINT64_MAX;

	for (size_t i = 0; i < p->drive_count; i++) {
		const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, &p->drives[i]);

		if (d->coerced_bytes < smallest)
			smallest = d->coerced_bytes;
	}
	return smallest * (p->drive_count / p->drives_per_span) *
	       rcl_raid_span_data_drives(p->level, p->drives_per_span);
}

/* What the controller's configuration allows, before the backend tries. */
enum rcl_status rcl_vd_check_fits(const struct rcl_ctrl *ctrl, const struct rcl_vd_params *p,
                                  struct rcl_error *err)
{
	const struct rcl_dg *dg;
	enum rcl_status st;
	uint64_t limit;

	st = check_refs(ctrl, p->drives, p->drive_count, false, err);
	if (!st)
		st = check_refs(ctrl, p->spares, p->spare_count, true, err);
	if (!st)
		st = members_group(ctrl, p, &dg, err);
	if (st)
		return st;
	if (ctrl->vd_count >= ctrl->caps.max_vds)
		return rcl_fail(err, RCL_NOT_ALLOWED, "/c%u already has %u VDs, the most it takes",
		                ctrl->entry.id, ctrl->caps.max_vds);
	if (dg && dg->vd_count >= ctrl->caps.max_vds_per_dg)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "drive group %u already has %u VDs, the most a group takes", dg->id,
		                ctrl->caps.max_vds_per_dg);
	if (dg && dg->level != p->level)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "drive group %u is %s; a VD on it must be %s too", dg->id,
		                rcl_raid_level_name(dg->level), rcl_raid_level_name(dg->level));
	if (!dg && ctrl->dg_count >= ctrl->caps.max_dgs)
		return rcl_fail(err, RCL_NOT_ALLOWED, "/c%u already has %u drive groups",
		                ctrl->entry.id, ctrl->caps.max_dgs);
	limit = dg ? dg->free_bytes : capacity_limit(ctrl, p);
	if (dg && !limit)
		return rcl_fail(err, RCL_NOT_ALLOWED, "drive group %u has no free space", dg->id);
	if (p->bytes > limit) {
		struct rcl_buf a = RCL_BUF_INIT, b = RCL_BUF_INIT;

		rcl_size_format(&a, p->bytes);
		rcl_size_format(&b, limit);
		st = rcl_fail(err, RCL_INVALID_PARAM,
		              "size=%s is beyond the free space: these drives give %s at most",
		              a.buf, b.buf);
		rcl_buf_release(&a);
		rcl_buf_release(&b);
		return st;
	}
	return RCL_OK;
}

static void record_vd_created(struct rcl_ctrl *ctrl, unsigned id, size_t drives)
{
	const struct rcl_vd *vd = rcl_ctrl_vd_by_id(ctrl, id);
	struct rcl_buf size = RCL_BUF_INIT;

	if (!vd)
		return;
	rcl_size_format(&size, vd->bytes);
	(void)rcl_event_record(ctrl, RCL_EVENT_VD_CREATED, NULL,
	                       "Created VD %u (%s, %zu drives, %s)", id,
	                       rcl_raid_level_name(vd->level), drives, size.buf);
	rcl_buf_release(&size);
}

enum rcl_status rcl_ctrl_create_vd(struct rcl_ctrl *ctrl, struct rcl_vd_params *params,
                                   unsigned *vd, struct rcl_error *err)
{
	enum rcl_status st = rcl_caps_check_vd(&ctrl->caps, params->level, params->strip_kib, err);

	if (!params->strip_kib)
		params->strip_kib = ctrl->caps.strip_default_kib;
	if (!st)
		st = rcl_vd_params_check(params, err);
	if (!st)
		st = rcl_vd_check_fits(ctrl, params, err);
	if (!st)
		st = RCL_OP(ctrl, create_vd, "creating a virtual drive", err, params, vd);
	if (!st)
		record_vd_created(ctrl, *vd, params->drive_count);
	return st;
}

enum rcl_status rcl_vd_check_exists(const struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err)
{
	if (rcl_ctrl_vd_by_id(ctrl, vd))
		return RCL_OK;
	return rcl_fail(err, RCL_NOT_FOUND, "virtual drive /c%u/v%u not found", ctrl->entry.id, vd);
}

enum rcl_status rcl_ctrl_delete_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                   struct rcl_error *err)
{
	enum rcl_status st = rcl_vd_check_exists(ctrl, vd, err);

	if (!st)
		st = RCL_OP(ctrl, delete_vd, "deleting a virtual drive", err, vd, force);
	if (!st)
		(void)rcl_event_record(ctrl, RCL_EVENT_VD_DELETED, NULL, "Deleted VD %u", vd);
	return st;
}

/* "name=db, wrcache=wb": what @props changes, in the words "set" takes. */
struct rcl_vd_props rcl_vd_props_keep(void)
{
	return (struct rcl_vd_props){
	    .write = -1, .read = -1, .access = -1, .disk_cache = -1, .io = -1, .autobgi = -1};
}

static void describe_props(struct rcl_buf *sb, const struct rcl_vd_props *props)
{
	if (props->name)
		rcl_buf_addf(sb, ", name=%s", props->name);
	if (props->write >= 0)
		rcl_buf_addf(sb, ", wrcache=%s", rcl_write_policy_name(props->write));
	if (props->read >= 0)
		rcl_buf_addf(sb, ", rdcache=%s", rcl_read_policy_name(props->read));
	if (props->access >= 0)
		rcl_buf_addf(sb, ", accesspolicy=%s", rcl_access_policy_name(props->access));
	if (props->disk_cache >= 0)
		rcl_buf_addf(sb, ", pdcache=%s", rcl_disk_cache_policy_name(props->disk_cache));
	if (props->io >= 0)
		rcl_buf_addf(sb, ", iopolicy=%s", rcl_io_policy_name(props->io));
	if (props->autobgi >= 0)
		rcl_buf_addf(sb, ", autobgi=%s", props->autobgi ? "on" : "off");
}

enum rcl_status rcl_ctrl_set_vd(struct rcl_ctrl *ctrl, unsigned vd,
                                const struct rcl_vd_props *props, struct rcl_error *err)
{
	enum rcl_status st = rcl_vd_check_exists(ctrl, vd, err);

	if (!st)
		st = check_name(props->name, err);
	if (!st && props->write > RCL_WRITE_BACK_ALWAYS)
		st = rcl_fail(err, RCL_INVALID_PARAM, "unknown write policy %d", props->write);
	if (!st && props->read > RCL_NO_READ_AHEAD)
		st = rcl_fail(err, RCL_INVALID_PARAM, "unknown read policy %d", props->read);
	if (!st && props->access > RCL_ACCESS_REMOVED_BLOCKED)
		st = rcl_fail(err, RCL_INVALID_PARAM, "unknown access policy %d", props->access);
	if (!st && props->disk_cache > RCL_DISK_CACHE_OFF)
		st = rcl_fail(err, RCL_INVALID_PARAM, "unknown disk cache policy %d",
		              props->disk_cache);
	if (!st && props->io > RCL_IO_CACHED)
		st = rcl_fail(err, RCL_INVALID_PARAM, "unknown I/O policy %d", props->io);
	if (!st && props->autobgi > 1)
		st = rcl_fail(err, RCL_INVALID_PARAM, "autobgi is 1 (on) or 0 (off), not %d",
		              props->autobgi);
	if (!st)
		st = RCL_OP(ctrl, set_vd, "changing a virtual drive's properties", err, vd, props);
	if (!st) {
		struct rcl_buf what = RCL_BUF_INIT;

		describe_props(&what, props);
		(void)rcl_event_record(ctrl, RCL_EVENT_VD_CHANGED, NULL,
		                       "VD %u properties updated: %s", vd,
		                       what.len ? what.buf + 2 : "none");
		rcl_buf_release(&what);
	}
	return st;
}
