// SPDX-License-Identifier: MIT
/*
 * foreign.c - show, import and delete a soft controller's foreign
 * configurations (see foreign.h).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foreign.h"
#include "soft/format/io.h"
#include "layout.h"
#include "soft/format/le.h"
#include "soft/format/md-bitmap.h"
#include "soft/format/md-super1.h"
#include "member.h"
#include "model.h"
#include "scan.h"
#include "soft/engine/stripe.h"
#include "vd.h"

/* What one md member's own superblock says (md_shape_fits() compares them). */
struct md_seen {
	uint64_t events;
	uint64_t data_offset;
	uint64_t data_size;
	uint32_t dev_number;
};

/**
 * struct found - one foreign configuration as its drives hold it.
 * @disks:	indices into the state's disks of the drives carrying it.
 * @cfg:	RAIDCLI: the configuration its records chose, or NULL (then
 *		@problem says why).
 * @md:		MDADM: a member's superblock (the array's shape), or NULL.
 * @roles:	MDADM: per md role, the disk holding it, or -1.
 * @seen:	MDADM: per md role held, that member's superblock's say.
 * @adopt:	MDADM: the array as a configuration of this controller, when
 *		it can be adopted in place (md_plan()), else NULL.
 * @top:	MDADM: with @adopt, the superblock of an md RAID0 striped
 *		over this RAID5/6 array and others (md_read_top()); once
 *		md_stack() joined them, @f is that RAID0 as RAID50/60.
 * @joined:	MDADM: a span array md_stack() took into another found.
 * @gpts:	with @adopt, per disk of @disks: the GPT it gets, with
 *		raidcli's metadata partition added.
 */
struct found {
	enum rcl_foreign_source source;
	char owner[64];
	size_t disks[RCL_SOFT_MAX_DRIVES];
	size_t disk_count;
	struct rcl_soft_config *cfg;
	struct rcl_md_super1 *md;
	int roles[RCL_SOFT_MAX_MEMBERS];
	struct md_seen seen[RCL_SOFT_MAX_MEMBERS];
	struct rcl_soft_config *adopt;
	struct rcl_md_super1 *top;
	bool joined;
	struct rcl_gpt *gpts[RCL_SOFT_MAX_MEMBERS];
	char problem[RCL_ERROR_MSG_MAX];
};

struct found_list {
	struct found *items;
	size_t count;
};

static void found_release(struct found *f)
{
	rcl_free(f->cfg);
	rcl_free(f->md);
	rcl_free(f->adopt);
	rcl_free(f->top);
	for (size_t k = 0; k < RCL_SOFT_MAX_MEMBERS; k++)
		rcl_free(f->gpts[k]);
}

static void found_list_release(struct found_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		found_release(&list->items[i]);
	rcl_free(list->items);
	memset(list, 0, sizeof(*list));
}

static bool same_guid(const struct rcl_guid *a, const struct rcl_guid *b)
{
	return !memcmp(a->b, b->b, sizeof(a->b));
}

/* The configuration @source/@owner in @list, added (empty) when new; NULL when out of memory. */
static struct found *found_get(struct found_list *list, enum rcl_foreign_source source,
                               const char *owner)
{
	struct found *items, *f;

	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].source == source && !strcmp(list->items[i].owner, owner))
			return &list->items[i];
	items = rcl_realloc(list->items, (list->count + 1) * sizeof(*items));
	if (!items)
		return NULL;
	list->items = items;
	f = &items[list->count++];
	memset(f, 0, sizeof(*f));
	f->source = source;
	snprintf(f->owner, sizeof(f->owner), "%s", owner);
	for (size_t r = 0; r < RCL_SOFT_MAX_MEMBERS; r++)
		f->roles[r] = -1;
	return f;
}

/* ---- raidcli configurations ---- */

/*
 * Choose @f's configuration among its drives' records, as its own
 * controller would: only its drives take part, so the other drives'
 * records (ours, other controllers') cannot outvote it.
 */
static enum rcl_status read_raidcli(const struct rcl_soft_state *state, struct found *f,
                                    struct rcl_error *err)
{
	struct rcl_soft_record_drive *recs = rcl_calloc(f->disk_count, sizeof(*recs));
	struct rcl_soft_record_verdict *verdicts = rcl_calloc(f->disk_count, sizeof(*verdicts));
	struct rcl_soft_record_choice choice;
	struct rcl_error why = {0};
	const struct rcl_soft_record_slot *slot;
	enum rcl_status st = RCL_OK;

	if (!recs || !verdicts || !(f->cfg = rcl_calloc(1, sizeof(*f->cfg)))) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
		goto out;
	}
	/* Shallow copies: the state keeps owning the slots' buffers. */
	for (size_t k = 0; k < f->disk_count; k++)
		recs[k] = state->recs[f->disks[k]];
	if (rcl_soft_record_choose(recs, f->disk_count, f->owner, &choice, verdicts, &why)) {
		snprintf(f->problem, sizeof(f->problem),
		         "its drives hold no readable configuration of controller %s", f->owner);
		goto drop;
	}
	slot = &recs[choice.drive].slots[choice.slot];
	st = rcl_soft_config_parse(slot->payload, slot->hdr.payload_len,
	                           state->disks[f->disks[choice.drive]].path, f->cfg, &why);
	if (st == RCL_NOMEM) {
		*err = why;
		goto out;
	}
	st = RCL_OK;
	if (why.status) {
		snprintf(f->problem, sizeof(f->problem), "%s", why.msg);
		goto drop;
	}
	goto out;
drop:
	rcl_free(f->cfg);
	f->cfg = NULL;
out:
	rcl_free(recs);
	rcl_free(verdicts);
	return st;
}

/* ---- md arrays ---- */

/* "0a1b2c3d:…": an md UUID as mdadm prints it. */
static void md_uuid_text(const uint8_t *uuid, char *out, size_t size)
{
	size_t pos = 0;

	for (int i = 0; i < 16 && pos < size; i++)
		pos += (size_t)snprintf(out + pos, size - pos, "%s%02x", i && !(i % 4) ? ":" : "",
		                        uuid[i]);
}

/*
 * Read the md v1.2 superblock of the device at byte @at, @sectors long,
 * into a new *@sb (NULL on failure).
 */
static enum rcl_status read_md(int fd, uint64_t at, uint64_t sectors, struct rcl_md_super1 **sb,
                               struct rcl_error *err)
{
	uint8_t *block = rcl_malloc(RCL_MD_SB_AREA);
	enum rcl_status st;

	*sb = rcl_malloc(sizeof(**sb));
	if (!block || !*sb)
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	else
		st = rcl_soft_read(fd, block, RCL_MD_SB_AREA, at + RCL_MD_SUPER1_2_OFFSET * 512,
		                   err);
	if (!st)
		st = rcl_md_super1_decode(block, RCL_MD_SB_AREA, RCL_MD_SUPER1_2_OFFSET, sectors,
		                          *sb, err);
	rcl_free(block);
	if (st) {
		rcl_free(*sb);
		*sb = NULL;
	}
	return st;
}

static void add_disk(struct found *f, size_t disk)
{
	for (size_t k = 0; k < f->disk_count; k++)
		if (f->disks[k] == disk)
			return;
	f->disks[f->disk_count++] = disk;
}

/* File md member @sb found on disk @i under its array, which keeps the first superblock. */
static enum rcl_status add_md_member(struct found_list *list, size_t i, struct rcl_md_super1 *sb,
                                     const char *problem, struct rcl_error *err)
{
	char owner[64];
	uint16_t role = rcl_md_super1_role(sb);
	struct found *f;

	md_uuid_text(sb->set_uuid, owner, sizeof(owner));
	f = found_get(list, RCL_FOREIGN_MDADM, owner);
	if (!f) {
		rcl_free(sb);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	add_disk(f, i);
	if (role < RCL_SOFT_MAX_MEMBERS) {
		f->roles[role] = (int)i;
		f->seen[role] =
		    (struct md_seen){sb->events, sb->data_offset, sb->data_size, sb->dev_number};
	}
	if (!f->problem[0] && problem)
		snprintf(f->problem, sizeof(f->problem), "%s", problem);
	/* The freshest superblock speaks for the array, as it does to md. */
	if (f->md && f->md->events >= sb->events) {
		rcl_free(sb);
		return RCL_OK;
	}
	rcl_free(f->md);
	f->md = sb;
	return RCL_OK;
}

/* A drive whose md metadata cannot be read: a configuration of its own. */
static enum rcl_status add_unreadable(struct found_list *list, const struct rcl_soft_disk *disk,
                                      size_t i, struct rcl_error *err)
{
	char owner[64];
	struct found *f;

	snprintf(owner, sizeof(owner), "unknown (drive in slot %u)", disk->slot);
	f = found_get(list, RCL_FOREIGN_MDADM, owner);
	if (!f)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	add_disk(f, i);
	snprintf(f->problem, sizeof(f->problem),
	         "its md metadata is not a readable v1.2 superblock (md 0.90, 1.0 and 1.1 "
	         "are not imported)");
	return RCL_OK;
}

static const char whole_drive[] =
    "its md members are whole drives: raidcli keeps its metadata in a GPT, which cannot "
    "be added without moving the data (raidcli-format(7))";

static enum rcl_status read_md_disk(struct found_list *list, const struct rcl_soft_disk *disk,
                                    size_t i, struct rcl_error *err)
{
	struct rcl_md_super1 *sb;
	struct rcl_error why = {0};
	enum rcl_status st = read_md(disk->fd, 0, disk->bytes / 512, &sb, &why);

	if (st == RCL_NOMEM)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (st)
		return add_unreadable(list, disk, i, err);
	return add_md_member(list, i, sb, whole_drive, err);
}

static enum rcl_status read_md_gpt(struct found_list *list, const struct rcl_soft_disk *disk,
                                   size_t i, struct rcl_error *err)
{
	for (unsigned p = 0; p < RCL_GPT_MAX_PARTS; p++) {
		const struct rcl_gpt_part *part = &disk->gpt->parts[p];
		uint64_t bytes = (part->last_lba + 1 - part->first_lba) * disk->sector_size;
		struct rcl_md_super1 *sb;
		struct rcl_error why = {0};
		enum rcl_status st;

		if (memcmp(&part->type, &rcl_gpt_type_linux_raid, sizeof(part->type)))
			continue;
		st = read_md(disk->fd, part->first_lba * disk->sector_size, bytes / 512, &sb, &why);
		if (st == RCL_NOMEM)
			return rcl_fail(err, RCL_NOMEM, "out of memory");
		if (st)
			continue;
		st = add_md_member(list, i, sb, NULL, err);
		if (st)
			return st;
	}
	return RCL_OK;
}

/* ---- Adopting an md array in place ---- */

static bool is_type(const struct rcl_gpt_part *p, const struct rcl_guid *type)
{
	return !memcmp(&p->type, type, sizeof(*type));
}

static void refuse(struct found *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void refuse(struct found *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->problem, sizeof(f->problem), fmt, ap);
	va_end(ap);
}

/*
 * The raidcli level of md array @sb, when md has one (else *@level is left
 * alone). Return: whether raidcli lays the array out as md does.
 */
static bool md_level(const struct rcl_md_super1 *sb, enum rcl_raid_level *level)
{
	static const struct {
		int32_t md;
		enum rcl_raid_level level;
	} known[] = {{RCL_MD_LEVEL_RAID0, RCL_RAID0},
	             {RCL_MD_LEVEL_RAID1, RCL_RAID1},
	             {RCL_MD_LEVEL_RAID5, RCL_RAID5},
	             {RCL_MD_LEVEL_RAID6, RCL_RAID6},
	             {RCL_MD_LEVEL_RAID10, RCL_RAID10}};
	size_t i = 0;

	while (i < sizeof(known) / sizeof(known[0]) && known[i].md != sb->level)
		i++;
	if (i == sizeof(known) / sizeof(known[0]) || !sb->raid_disks)
		return false;
	*level = known[i].level;
	switch (*level) {
	case RCL_RAID1:
		return sb->raid_disks == 2;
	case RCL_RAID5:
	case RCL_RAID6:
		return sb->layout == RCL_MD_LAYOUT_LEFT_SYMMETRIC &&
		       sb->raid_disks <= RCL_MAX_DRIVES_PER_SPAN;
	case RCL_RAID10:
		/* md's near=2 pairs consecutive roles: StorCLI's spans of two. */
		return sb->layout == RCL_MD_LAYOUT_RAID10_NEAR2 && sb->raid_disks % 2 == 0 &&
		       sb->raid_disks / 2 <= RCL_MAX_SPANS;
	default:
		return sb->raid_disks <= RCL_MAX_DRIVES_PER_SPAN;
	}
}

/* The one Linux RAID entry of @gpt, or -1 when it has another partition too. */
static int md_entry(const struct rcl_gpt *gpt)
{
	int found = -1;

	for (int i = 0; i < RCL_GPT_MAX_PARTS; i++) {
		const struct rcl_gpt_part *p = &gpt->parts[i];

		if (rcl_guid_is_zero(&p->type) || is_type(p, &rcl_soft_record_part_type))
			continue;
		if (!is_type(p, &rcl_gpt_type_linux_raid) || found >= 0)
			return -1;
		found = i;
	}
	return found;
}

/* Whether LBAs [@first, @last] of @gpt are used by no entry. */
static bool free_in(const struct rcl_gpt *gpt, uint64_t first, uint64_t last)
{
	if (first < gpt->first_usable || last > gpt->last_usable)
		return false;
	for (unsigned i = 0; i < RCL_GPT_MAX_PARTS; i++)
		if (!rcl_guid_is_zero(&gpt->parts[i].type) && first <= gpt->parts[i].last_lba &&
		    gpt->parts[i].first_lba <= last)
			return false;
	return true;
}

/*
 * @disk's GPT with raidcli's metadata partition in entry 0 (kept when an
 * interrupted import put it there) and the md partition moved to entry 1
 * when it was entry 0: partitions keep their places on the drive, only
 * their numbers may change. The metadata partition takes a free 1 MiB-
 * aligned MiB, else the free LBAs before the md partition (record.h's
 * short one). Return: false when neither holds it.
 */
static bool md_gpt(const struct rcl_soft_disk *disk, struct rcl_gpt *gpt, int *entry)
{
	uint64_t step = RCL_SOFT_RECORD_PART_BYTES / disk->sector_size;
	struct rcl_gpt_part meta;
	struct rcl_error ignored = {0};

	*gpt = *disk->gpt;
	*entry = md_entry(gpt);
	if (is_type(&gpt->parts[0], &rcl_soft_record_part_type))
		return true;
	if (rcl_soft_meta_part(gpt, &meta, &ignored))
		return false;
	while (!free_in(gpt, meta.first_lba, meta.last_lba) && meta.last_lba < gpt->last_usable) {
		meta.first_lba += step;
		meta.last_lba += step;
	}
	/* No free MiB ("sgdisk -n 1:0:0"): the GPT's gap before the md partition. */
	if (!free_in(gpt, meta.first_lba, meta.last_lba) &&
	    (*entry < 0 ||
	     rcl_soft_meta_part_before(gpt, gpt->parts[*entry].first_lba, &meta, &ignored) ||
	     !free_in(gpt, meta.first_lba, meta.last_lba)))
		return false;
	if (*entry == 0) {
		int to = 1;

		while (to < RCL_GPT_MAX_PARTS && !rcl_guid_is_zero(&gpt->parts[to].type))
			to++;
		if (to == RCL_GPT_MAX_PARTS)
			return false;
		gpt->parts[to] = gpt->parts[0];
		*entry = to;
	}
	gpt->parts[0] = meta;
	return true;
}

/* @vd takes md array @sb's UUID, and its name without mdadm's "homehost:". */
static void md_identity(struct rcl_soft_vd *vd, const struct rcl_md_super1 *sb)
{
	const char *name = strchr(sb->set_name, ':');

	memcpy(vd->uuid, sb->set_uuid, 16);
	snprintf(vd->name, sizeof(vd->name), "%.15s", name ? name + 1 : sb->set_name);
	for (char *c = vd->name; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			*c = '_';
}

/*
 * The group and VD md array @f becomes, its members on the disks @f found;
 * a role no drive holds is a member marked missing (a drive that left),
 * under a new identity, waiting for a replacement.
 */
static enum rcl_status md_config(const struct rcl_soft_state *state, const struct found *f,
                                 enum rcl_raid_level level, const struct rcl_gpt_part *part,
                                 int entry, struct rcl_soft_config *cfg, struct rcl_error *err)
{
	const struct rcl_md_super1 *sb = f->md;
	struct rcl_soft_dg *dg = &cfg->dgs[0];
	struct rcl_soft_vd *vd = &cfg->vds[0];

	cfg->dg_count = cfg->vd_count = 1;
	dg->level = level;
	dg->spans = level == RCL_RAID10 ? sb->raid_disks / 2 : 1;
	dg->drives_per_span = sb->raid_disks / dg->spans;
	dg->first_lba = vd->first_lba = part->first_lba;
	dg->last_lba = vd->last_lba = part->last_lba;
	for (unsigned r = 0; r < sb->raid_disks; r++) {
		struct rcl_soft_member *m = &dg->members[r];

		if (f->roles[r] < 0) {
			m->state = RCL_SOFT_MEMBER_MISSING;
			if (rcl_guid_random(&m->uuid, err))
				return err->status;
			continue;
		}
		m->uuid = state->disks[f->roles[r]].gpt->disk_guid;
		m->slot = state->disks[f->roles[r]].slot;
	}
	md_identity(vd, sb);
	vd->part = (unsigned)entry;
	vd->strip_kib = sb->chunksize / 2;
	vd->consistent = sb->resync_offset == UINT64_MAX;
	vd->created = (time_t)(sb->ctime & ((1ull << 40) - 1));
	return RCL_OK;
}

static bool refuse_layout(struct found *f, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Refuse @f naming @field, the part of md's layout raidcli cannot keep. Return: false. */
static bool refuse_layout(struct found *f, const char *field, const char *fmt, ...)
{
	char why[RCL_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	refuse(f, "its md layout cannot be kept: %s: %s", field, why);
	return false;
}

/*
 * Whether @f's members agree with its freshest superblock where raidcli
 * keeps one value for all: the data offset, and for RAID0 (which uses all
 * of each member, unequal ones making zones) the data size.
 */
static bool md_members_alike(struct found *f)
{
	const struct rcl_md_super1 *sb = f->md;
	bool raid0 = sb->level == RCL_MD_LEVEL_RAID0;

	for (unsigned r = 0; r < sb->raid_disks; r++) {
		const struct md_seen *m = &f->seen[r];

		if (f->roles[r] < 0)
			continue;
		if (m->data_offset != sb->data_offset)
			return refuse_layout(
			    f, "data offset", "md member %u has %llu, member %u %llu", r,
			    (unsigned long long)m->data_offset, rcl_md_super1_role(sb),
			    (unsigned long long)sb->data_offset);
		if (raid0 ? m->data_size != sb->data_size : m->data_size < sb->size)
			return refuse_layout(
			    f, "data size", "md member %u has %llu sectors, %s %llu", r,
			    (unsigned long long)m->data_size, raid0 ? "another" : "the array uses",
			    (unsigned long long)(raid0 ? sb->data_size : sb->size));
	}
	return true;
}

/*
 * md's internal bitmap of @f into @geo, read from the member on @disk at
 * @part, when it is one raidcli keeps: where the superblock says, whole
 * before the data, no larger than the engine holds.
 */
static bool md_keep_bitmap(struct found *f, const struct rcl_soft_disk *disk,
                           const struct rcl_gpt_part *part, struct rcl_md_geometry *geo)
{
	const struct rcl_md_super1 *sb = f->md;
	uint8_t buf[RCL_MD_BITMAP_SB_BYTES];
	struct rcl_md_bitmap_super bms;
	struct rcl_error ignored = {0};
	uint64_t space;

	if (sb->bitmap_offset <= 0 ||
	    rcl_soft_read(disk->fd, buf, sizeof(buf),
	                  part->first_lba * disk->sector_size +
	                      (sb->super_offset + (uint64_t)sb->bitmap_offset) * 512,
	                  &ignored) ||
	    rcl_md_bitmap_decode(buf, sizeof(buf), rcl_md_super1_bitmap_room(sb), &bms, &ignored))
		return refuse_layout(f, "bitmap",
		                     "md's superblock names one at offset %d that is not a "
		                     "readable md bitmap there",
		                     sb->bitmap_offset);
	space = rcl_md_bitmap_space(bms.sync_size, bms.chunksize) / 512;
	if (space > RCL_SOFT_BITMAP_MAX_SECTORS ||
	    sb->super_offset + (uint64_t)sb->bitmap_offset + space > sb->data_offset)
		return refuse_layout(f, "bitmap",
		                     "md's takes %llu sectors at offset %d, raidcli keeps at most "
		                     "%u, before the data",
		                     (unsigned long long)space, sb->bitmap_offset,
		                     RCL_SOFT_BITMAP_MAX_SECTORS);
	geo->bitmap_offset = sb->bitmap_offset;
	geo->bitmap_chunk = bms.chunksize;
	geo->bitmap_sync_size = bms.sync_size;
	return true;
}

/*
 * Whether the VD can keep md's member layout as md array @f has it
 * (mdadm's choice of data offset and size, a bitmap or none): fills @vd's
 * md layout and capacity, else @f->problem naming the field that differs.
 * @disk holds a member, @part its md partition.
 */
static bool md_layout(struct found *f, const struct rcl_soft_dg *dg, struct rcl_soft_vd *vd,
                      const struct rcl_soft_disk *disk, const struct rcl_gpt_part *part)
{
	const struct rcl_md_super1 *sb = f->md;
	uint64_t sectors = (part->last_lba + 1 - part->first_lba) * disk->sector_size / 512;
	uint32_t known = RCL_MD_FEATURE_BITMAP_OFFSET |
	                 (sb->level == RCL_MD_LEVEL_RAID0 ? RCL_MD_FEATURE_RAID0_LAYOUT : 0);
	struct rcl_md_geometry geo;
	struct rcl_error ignored = {0};

	if (sb->feature_map & ~known)
		return refuse_layout(f, "feature map",
		                     "md has 0x%x, raidcli keeps no feature but an internal bitmap "
		                     "(0x1)",
		                     sb->feature_map);
	if (sb->super_offset != RCL_MD_SUPER1_2_OFFSET)
		return refuse_layout(f, "superblock offset", "md has %llu, v1.2 has %u",
		                     (unsigned long long)sb->super_offset, RCL_MD_SUPER1_2_OFFSET);
	if (!md_members_alike(f))
		return false;
	if (sb->data_offset < sb->super_offset + 8 || sb->data_offset + sb->data_size > sectors)
		return refuse_layout(f, "data offset",
		                     "md has data from sector %llu for %llu sectors, its partition "
		                     "has %llu",
		                     (unsigned long long)sb->data_offset,
		                     (unsigned long long)sb->data_size,
		                     (unsigned long long)sectors);
	if (sb->level != RCL_MD_LEVEL_RAID0 &&
	    (!sb->size || (sb->chunksize && sb->size % sb->chunksize)))
		return refuse_layout(f, "size",
		                     "md has %llu sectors a member, not a whole number of its "
		                     "%u-sector chunks",
		                     (unsigned long long)sb->size, sb->chunksize);
	if (sb->chunksize / 2 > RCL_SOFT_MAX_STRIP_KIB)
		return refuse_layout(f, "chunk", "md has %u KiB, raidcli's strips go up to %u KiB",
		                     sb->chunksize / 2, RCL_SOFT_MAX_STRIP_KIB);
	vd->md = (struct rcl_md_geometry){.super_offset = sb->super_offset,
	                                  .data_offset = sb->data_offset,
	                                  .data_size = sb->data_size,
	                                  .size = sb->level == RCL_MD_LEVEL_RAID0 ? 0 : sb->size,
	                                  .bblog_offset = sb->bblog_offset,
	                                  .bblog_size = sb->bblog_size};
	if ((sb->feature_map & RCL_MD_FEATURE_BITMAP_OFFSET) &&
	    !md_keep_bitmap(f, disk, part, &vd->md))
		return false;
	vd->md_kept = true;
	if (rcl_soft_vd_geometry(dg, vd, disk->sector_size, &geo, &vd->bytes, &ignored))
		return refuse_layout(f, "size", "md's gives no capacity raidcli can serve");
	return true;
}

/*
 * Whether md array @f has a level raidcli lays out as md does, and members
 * md would assemble now: each as fresh as the freshest (a stale one would
 * serve old data), each still in its role there. Roles no drive holds are
 * fine: the array comes in degraded (check_importable() refuses it when
 * too many are gone).
 */
static bool md_shape_fits(const struct rcl_soft_state *state, const struct found *f,
                          enum rcl_raid_level *level, struct found *out)
{
	const struct rcl_md_super1 *sb = f->md;
	size_t present = 0;

	if (!md_level(sb, level)) {
		refuse(out,
		       "md level %d with layout %u and %u members is not one raidcli lays "
		       "out as md does",
		       sb->level, sb->layout, sb->raid_disks);
		return false;
	}
	for (unsigned r = 0; r < sb->raid_disks; r++) {
		const struct md_seen *m = &f->seen[r];
		unsigned slot;

		if (f->roles[r] < 0)
			continue;
		present++;
		slot = state->disks[f->roles[r]].slot;
		if (m->events != sb->events) {
			refuse(out,
			       "md member %u (drive %u:%u) is stale: %llu events, the array's "
			       "freshest member has %llu; md would not assemble it, remove it and "
			       "import the rest degraded",
			       r, RCL_SOFT_ENCLOSURE, slot, (unsigned long long)m->events,
			       (unsigned long long)sb->events);
			return false;
		}
		if (m->dev_number >= sb->max_dev || sb->dev_roles[m->dev_number] != r) {
			refuse(out,
			       "drive %u:%u says it is md member %u, which the array no longer "
			       "counts it as; remove it and import the rest degraded",
			       RCL_SOFT_ENCLOSURE, slot, r);
			return false;
		}
	}
	if (f->disk_count != present) {
		refuse(out, "it has md spares, or members of several arrays on a drive, which "
		            "raidcli does not adopt");
		return false;
	}
	return true;
}

/* The md partition of @disk's GPT. */
static const struct rcl_gpt_part *md_part(const struct rcl_soft_disk *disk)
{
	return &disk->gpt->parts[md_entry(disk->gpt)];
}

/*
 * Whether each member is alone in a GPT partition at the same LBAs and
 * entry as the others, with room for the metadata partition: @f->gpts
 * get the new GPTs, *@entry the md partition's entry, *@first a member.
 */
static bool md_drives_fit(const struct rcl_soft_state *state, struct found *f,
                          const struct rcl_soft_disk **first, int *entry)
{
	*first = NULL;
	for (size_t k = 0; k < f->disk_count; k++) {
		const struct rcl_soft_disk *disk = &state->disks[f->disks[k]];
		int e;

		if (md_entry(disk->gpt) < 0) {
			refuse(f, "drive %u:%u holds other partitions besides the md member",
			       RCL_SOFT_ENCLOSURE, disk->slot);
			return false;
		}
		if (!md_gpt(disk, f->gpts[k], &e)) {
			refuse(f,
			       "drive %u:%u has no room in its GPT for raidcli's metadata "
			       "partition: no free, 1 MiB-aligned MiB, nor %u KiB free before "
			       "the md partition",
			       RCL_SOFT_ENCLOSURE, disk->slot, RCL_SOFT_RECORD_PART_MIN >> 10);
			return false;
		}
		if (*first && (disk->sector_size != (*first)->sector_size || e != *entry ||
		               md_part(disk)->first_lba != md_part(*first)->first_lba ||
		               md_part(disk)->last_lba != md_part(*first)->last_lba)) {
			refuse(f, "its members' partitions differ in place, size, number or sector "
			          "size; raidcli needs them the same on every member");
			return false;
		}
		*first = *first ? *first : disk;
		*entry = e;
	}
	return true;
}

/*
 * Whether md array @f can become a group of this controller as it lies
 * (md_shape_fits(), md_drives_fit(), same_layout()): fills @f->adopt and
 * @f->gpts, or @f->problem.
 */
static enum rcl_status md_plan(const struct rcl_soft_state *state, struct found *f,
                               struct rcl_error *err)
{
	const struct rcl_soft_disk *first;
	enum rcl_raid_level level;
	enum rcl_status st = RCL_OK;
	int entry;

	if (f->problem[0] || !f->md || !md_shape_fits(state, f, &level, f))
		return RCL_OK;
	f->adopt = rcl_calloc(1, sizeof(*f->adopt));
	for (size_t k = 0; f->adopt && k < f->disk_count; k++)
		if (!(f->gpts[k] = rcl_malloc(sizeof(*f->gpts[k])))) {
			rcl_free(f->adopt);
			f->adopt = NULL;
		}
	if (!f->adopt)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (md_drives_fit(state, f, &first, &entry)) {
		st = md_config(state, f, level, md_part(first), entry, f->adopt, err);
		if (!st)
			md_layout(f, &f->adopt->dgs[0], &f->adopt->vds[0], first, md_part(first));
	}
	if (f->problem[0] || st) {
		rcl_free(f->adopt);
		f->adopt = NULL;
	}
	return st;
}

/* ---- An md RAID0 over md RAID5/6 arrays: raidcli's RAID50/60 ---- */

/* Where an md RAID0 over RAID5/6 arrays keeps its superblock: 4 KiB into each's data. */
#define TOP_BYTES (RCL_MD_SUPER1_2_OFFSET * 512 + RCL_MD_SB_AREA)

/*
 * The first TOP_BYTES of RAID5/6 array @f's data into @buf: on the member
 * holding its chunk 0 or, that one missing, the XOR of the others but Q
 * (stripe 0 has P on the last member, RAID6's Q on the first). Return:
 * whether they could be read.
 */
static bool md_read_chunk0(const struct rcl_soft_state *state, const struct found *f, uint8_t *buf)
{
	const struct rcl_soft_dg *dg = &f->adopt->dgs[0];
	const struct rcl_soft_vd *vd = &f->adopt->vds[0];
	unsigned n = dg->drives_per_span, q = dg->level == RCL_RAID6 ? 0 : n, chunk0;
	bool direct;
	struct rcl_md_shape shape;
	struct rcl_error ignored = {0};
	uint8_t tmp[TOP_BYTES];
	uint64_t at;

	rcl_soft_md_shape(dg, vd->strip_kib, &shape);
	rcl_soft_chunk_member(shape.level, n, 0, &chunk0, &at);
	direct = f->roles[chunk0] >= 0;
	memset(buf, 0, TOP_BYTES);
	for (unsigned m = 0; m < n; m++) {
		const struct rcl_soft_disk *disk;

		if (direct ? m != chunk0 : m == chunk0 || m == q)
			continue;
		if (f->roles[m] < 0)
			return false;
		disk = &state->disks[f->roles[m]];
		if (rcl_soft_read(disk->fd, tmp, sizeof(tmp),
		                  vd->first_lba * disk->sector_size + vd->md.data_offset * 512,
		                  &ignored))
			return false;
		for (size_t b = 0; b < sizeof(tmp); b++)
			buf[b] ^= tmp[b];
	}
	return true;
}

/*
 * The superblock of an md RAID0 striped over adoptable RAID5/6 array @f
 * into @f->top, when one lies where raidcli's RAID50/60 keep theirs
 * (layout.h): 4 KiB into the array's data, in its chunk 0.
 */
static enum rcl_status md_read_top(const struct rcl_soft_state *state, struct found *f,
                                   struct rcl_error *err)
{
	const struct rcl_soft_dg *dg = f->adopt ? &f->adopt->dgs[0] : NULL;
	struct rcl_error why = {0};
	uint8_t buf[TOP_BYTES];

	if (!dg || (dg->level != RCL_RAID5 && dg->level != RCL_RAID6) ||
	    f->adopt->vds[0].strip_kib * 1024 < TOP_BYTES || !md_read_chunk0(state, f, buf))
		return RCL_OK;
	if (!(f->top = rcl_malloc(sizeof(*f->top))))
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (rcl_md_super1_decode(buf + RCL_MD_SUPER1_2_OFFSET * 512, RCL_MD_SB_AREA,
	                         RCL_MD_SUPER1_2_OFFSET, f->adopt->vds[0].bytes / 512, f->top,
	                         &why) ||
	    f->top->level != RCL_MD_LEVEL_RAID0 || f->top->raid_disks < 2 ||
	    f->top->raid_disks > RCL_MAX_SPANS) {
		rcl_free(f->top);
		f->top = NULL;
	}
	return RCL_OK;
}

/* Whether two span arrays' members have the same md layout. */
static bool same_md_layout(const struct rcl_md_geometry *a, const struct rcl_md_geometry *b)
{
	return a->data_offset == b->data_offset && a->data_size == b->data_size &&
	       a->size == b->size && a->bitmap_offset == b->bitmap_offset &&
	       a->bitmap_chunk == b->bitmap_chunk && a->bblog_offset == b->bblog_offset;
}

/* The span arrays of the md RAID0 @top in @list, by its roles. Return: whether all are there. */
static bool md_spans(const struct found_list *list, const struct rcl_md_super1 *top,
                     struct found **spans)
{
	unsigned have = 0;

	memset(spans, 0, top->raid_disks * sizeof(*spans));
	for (size_t k = 0; k < list->count; k++) {
		struct found *f = &list->items[k];
		uint16_t role = f->top ? rcl_md_super1_role(f->top) : UINT16_MAX;

		if (role < top->raid_disks && !spans[role] &&
		    !memcmp(f->top->set_uuid, top->set_uuid, 16)) {
			spans[role] = f;
			have++;
		}
	}
	return have == top->raid_disks;
}

/*
 * Span arrays @spans of md RAID0 @top as one RAID50/60 group and VD in
 * @cfg, which holds span 0's: the RAID0 keeps the UUID and name, each span
 * its own UUID. Return: whether raidcli lays it out as md does (spans
 * alike, the RAID0 where raidcli's RAID50/60 puts it), else @f->problem.
 */
static bool md_join(const struct rcl_soft_state *state, struct found *f,
                    const struct rcl_md_super1 *top, struct found *const *spans,
                    struct rcl_soft_config *cfg)
{
	struct rcl_soft_dg *dg = &cfg->dgs[0];
	struct rcl_soft_vd *vd = &cfg->vds[0];
	unsigned dps = dg->drives_per_span;
	struct rcl_md_geometry geo;
	struct rcl_error ignored = {0};

	for (unsigned s = 1; s < top->raid_disks; s++) {
		const struct rcl_soft_config *o = spans[s]->adopt;

		if (o->dgs[0].level != dg->level || o->dgs[0].drives_per_span != dps ||
		    (s + 1) * dps > RCL_SOFT_MAX_MEMBERS || o->dgs[0].first_lba != dg->first_lba ||
		    o->dgs[0].last_lba != dg->last_lba || o->vds[0].part != vd->part ||
		    o->vds[0].strip_kib != vd->strip_kib ||
		    !same_md_layout(&o->vds[0].md, &vd->md)) {
			refuse(f,
			       "the md arrays its md RAID0 stripes over differ in level, members, "
			       "partitions or md layout; raidcli's RAID50/60 needs them alike");
			return false;
		}
		memcpy(&dg->members[s * dps], o->dgs[0].members, dps * sizeof(dg->members[0]));
		memcpy(vd->span_uuids[s], o->vds[0].uuid, 16);
		vd->consistent &= o->vds[0].consistent;
	}
	memcpy(vd->span_uuids[0], vd->uuid, 16);
	md_identity(vd, top);
	dg->level = dg->level == RCL_RAID5 ? RCL_RAID50 : RCL_RAID60;
	dg->spans = top->raid_disks;
	if (top->chunksize != vd->strip_kib * 2)
		return refuse_layout(f, "RAID0 chunk", "md has %u KiB, its span arrays %u KiB",
		                     top->chunksize / 2, vd->strip_kib);
	if (rcl_soft_top_geometry(dg, vd->strip_kib, &vd->md, &geo, &ignored) ||
	    geo.data_offset != top->data_offset || geo.data_size != top->data_size)
		return refuse_layout(
		    f, "RAID0 data offset",
		    "md has data from sector %llu for %llu sectors of each span "
		    "array, raidcli's RAID50/60 from %llu for %llu",
		    (unsigned long long)top->data_offset, (unsigned long long)top->data_size,
		    (unsigned long long)geo.data_offset, (unsigned long long)geo.data_size);
	if (rcl_soft_vd_geometry(dg, vd, state->disks[f->disks[0]].sector_size, &geo, &vd->bytes,
	                         &ignored))
		return refuse_layout(f, "size", "md's gives no capacity raidcli can serve");
	return true;
}

/* Span arrays @spans, joined into @spans[0], hand it their drives and roles. */
static void md_take_spans(struct found *const *spans, unsigned n, unsigned dps)
{
	struct found *f = spans[0];

	for (unsigned s = n - 1; s > 0; s--) {
		for (unsigned r = 0; r < dps; r++)
			f->roles[s * dps + r] = spans[s]->roles[r];
		for (size_t j = 0; j < spans[s]->disk_count; j++) {
			f->gpts[f->disk_count] = spans[s]->gpts[j];
			spans[s]->gpts[j] = NULL;
			f->disks[f->disk_count++] = spans[s]->disks[j];
		}
		spans[s]->joined = true;
	}
}

/* Refuse span array @o for @why: it stays a RAID5/6 that cannot be imported. */
static void md_unstack(struct found *o, const char *why)
{
	if (o->problem != why)
		snprintf(o->problem, sizeof(o->problem), "%s", why);
	rcl_free(o->adopt);
	rcl_free(o->top);
	o->adopt = NULL;
	o->top = NULL;
}

/*
 * @f, span array of an md RAID0, with the RAID0's other spans becomes
 * that RAID0 as one RAID50/60 (md_join()); when they are not all there or
 * not alike, each is refused: alone it would serve a piece of the RAID0.
 */
static enum rcl_status md_stack(const struct rcl_soft_state *state, struct found_list *list,
                                struct found *f, struct rcl_error *err)
{
	struct found *spans[RCL_MAX_SPANS];
	struct rcl_soft_config *cfg = NULL;
	unsigned n = f->top->raid_disks;
	bool whole = md_spans(list, f->top, spans);
	char owner[64];

	if (whole && spans[0] != f)
		return RCL_OK;
	if (whole && !(cfg = rcl_malloc(sizeof(*cfg))))
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	md_uuid_text(f->top->set_uuid, owner, sizeof(owner));
	if (!whole) {
		refuse(f,
		       "it is one of the %u md arrays that md RAID0 %s stripes over, and the "
		       "others are missing or cannot be adopted",
		       n, owner);
	} else {
		*cfg = *f->adopt;
		if (md_join(state, f, f->top, spans, cfg)) {
			rcl_free(f->adopt);
			f->adopt = cfg;
			md_take_spans(spans, n, cfg->dgs[0].drives_per_span);
			snprintf(f->owner, sizeof(f->owner), "%s", owner);
			return RCL_OK;
		}
		rcl_free(cfg);
	}
	for (unsigned s = 0; s < n; s++)
		if (spans[s] && spans[s] != f)
			md_unstack(spans[s], f->problem);
	md_unstack(f, f->problem);
	return RCL_OK;
}

/*
 * Each md RAID0 over RAID5/6 arrays of @list as one RAID50/60
 * configuration (md_stack()), its span arrays' own taken out of @list.
 */
static enum rcl_status md_stacks(const struct rcl_soft_state *state, struct found_list *list,
                                 struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;
	size_t kept = 0;

	for (size_t k = 0; k < list->count && !st; k++)
		st = md_read_top(state, &list->items[k], err);
	for (size_t k = 0; k < list->count && !st; k++)
		if (list->items[k].top && list->items[k].adopt && !list->items[k].joined &&
		    list->items[k].adopt->dgs[0].spans == 1)
			st = md_stack(state, list, &list->items[k], err);
	for (size_t k = 0; k < list->count; k++) {
		if (list->items[k].joined)
			found_release(&list->items[k]);
		else
			list->items[kept++] = list->items[k];
	}
	list->count = kept;
	return st;
}

/* ---- Finding them all ---- */

static enum rcl_status find_all(const struct rcl_soft_state *state, struct found_list *list,
                                struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	memset(list, 0, sizeof(*list));
	for (size_t i = 0; i < state->count && !st; i++) {
		const struct rcl_soft_disk *disk = &state->disks[i];
		struct found *f;

		if (disk->kind != RCL_SOFT_DISK_FOREIGN)
			continue;
		switch (disk->foreign) {
		case RCL_SOFT_FOREIGN_RAIDCLI:
			f = found_get(list, RCL_FOREIGN_RAIDCLI, disk->owner);
			if (f)
				add_disk(f, i);
			else
				st = rcl_fail(err, RCL_NOMEM, "out of memory");
			break;
		case RCL_SOFT_FOREIGN_MD_DISK:
			st = read_md_disk(list, disk, i, err);
			break;
		case RCL_SOFT_FOREIGN_MD_GPT:
			st = read_md_gpt(list, disk, i, err);
			break;
		case RCL_SOFT_FOREIGN_NONE:
			break;
		}
	}
	for (size_t k = 0; k < list->count && !st; k++)
		st = list->items[k].source == RCL_FOREIGN_RAIDCLI
		         ? read_raidcli(state, &list->items[k], err)
		         : md_plan(state, &list->items[k], err);
	if (!st)
		st = md_stacks(state, list, err);
	if (st)
		found_list_release(list);
	return st;
}

/* The disk of @f whose GPT disk GUID is @uuid, or NULL. */
static const struct rcl_soft_disk *found_disk(const struct rcl_soft_state *state,
                                              const struct found *f, const struct rcl_guid *uuid)
{
	for (size_t k = 0; k < f->disk_count; k++) {
		const struct rcl_soft_disk *disk = &state->disks[f->disks[k]];

		if (same_guid(&disk->gpt->disk_guid, uuid))
			return disk;
	}
	return NULL;
}

/* ---- The public view ---- */

static struct rcl_foreign_drive *add_drive(struct rcl_foreign_config *out)
{
	struct rcl_foreign_drive *d = &out->drives[out->drive_count++];

	memset(d, 0, sizeof(*d));
	d->enclosure = RCL_SOFT_ENCLOSURE;
	d->dg = -1;
	return d;
}

static void place(struct rcl_foreign_drive *d, const struct rcl_soft_disk *disk, unsigned slot)
{
	d->present = disk != NULL;
	d->slot = disk ? disk->slot : slot;
	d->bytes = disk ? disk->bytes : 0;
}

/* Group @dg of @f's configuration @cfg as group @id of the view, with its members, spares and VDs.
 */
static void view_group(const struct rcl_soft_state *state, const struct found *f,
                       const struct rcl_soft_config *cfg, const struct rcl_soft_dg *dg, unsigned id,
                       struct rcl_foreign_config *out)
{
	unsigned lost[RCL_MAX_SPANS] = {0}, sector = 512;
	struct rcl_dg *g = &out->dgs[out->dg_count++];

	for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++) {
		const struct rcl_soft_disk *disk = found_disk(state, f, &dg->members[m].uuid);
		struct rcl_foreign_drive *d = add_drive(out);

		place(d, disk, dg->members[m].slot);
		d->role = RCL_PD_ONLINE;
		d->dg = (int)id;
		d->span = m / dg->drives_per_span;
		d->row = m % dg->drives_per_span;
		if (disk)
			sector = disk->sector_size;
		else
			lost[d->span]++;
	}
	for (unsigned k = 0; k < dg->spare_count; k++) {
		struct rcl_foreign_drive *d = add_drive(out);

		place(d, found_disk(state, f, &dg->spares[k].drive.uuid), dg->spares[k].drive.slot);
		d->role = RCL_PD_DHS;
		d->dg = (int)id;
	}
	memset(g, 0, sizeof(*g));
	g->id = id;
	g->level = dg->level;
	g->state = rcl_raid_state(dg->level, dg->spans, dg->drives_per_span, lost);
	g->spans = dg->spans;
	g->drives_per_span = dg->drives_per_span;
	g->member_bytes = (dg->last_lba + 1 - dg->first_lba) * sector;
	for (size_t v = 0; v < cfg->vd_count; v++) {
		if (cfg->vds[v].dg != dg->id)
			continue;
		rcl_soft_vd_model(&cfg->vds[v], g, &out->vds[out->vd_count]);
		out->vds[out->vd_count++].dg = id;
		g->vd_count++;
	}
}

/* The drives of @f no group of its configuration names (it has none, or they were left out). */
static void view_loose(const struct rcl_soft_state *state, const struct found *f,
                       struct rcl_foreign_config *out)
{
	for (size_t k = 0; k < f->disk_count; k++) {
		const struct rcl_soft_disk *disk = &state->disks[f->disks[k]];
		bool listed = false;

		for (size_t j = 0; j < out->drive_count && !listed; j++)
			listed = out->drives[j].present && out->drives[j].slot == disk->slot;
		if (!listed) {
			struct rcl_foreign_drive *d = add_drive(out);

			place(d, disk, 0);
			d->role = RCL_PD_UGOOD;
		}
	}
}

/* The state of an md array's group @g missing @lost[span] members. */
static enum rcl_vd_state md_state(const struct rcl_dg *g, const unsigned *lost)
{
	struct rcl_soft_dg dg = {
	    .level = g->level, .spans = g->spans, .drives_per_span = g->drives_per_span};

	return rcl_raid_state(dg.level, dg.spans, dg.drives_per_span, lost);
}

/* An md array: one group with one VD, members by md role. */
static void view_md(const struct rcl_soft_state *state, const struct found *f, unsigned id,
                    struct rcl_foreign_config *out)
{
	const struct rcl_md_super1 *sb = f->md;
	struct rcl_dg *g = &out->dgs[out->dg_count++];
	struct rcl_vd *v = &out->vds[out->vd_count++];
	unsigned lost[RCL_MAX_SPANS] = {0};
	unsigned n = sb->raid_disks < RCL_SOFT_MAX_MEMBERS ? sb->raid_disks : 0;
	const char *name = strchr(sb->set_name, ':');

	memset(g, 0, sizeof(*g));
	memset(v, 0, sizeof(*v));
	md_level(sb, &g->level);
	v->level = g->level;
	g->id = v->dg = id;
	g->spans = g->level == RCL_RAID10 && n >= 2 && n / 2 <= RCL_MAX_SPANS ? n / 2 : 1;
	g->drives_per_span = n / g->spans;
	g->vd_count = 1;
	for (unsigned r = 0; r < n; r++) {
		struct rcl_foreign_drive *d = add_drive(out);

		place(d, f->roles[r] >= 0 ? &state->disks[f->roles[r]] : NULL, 0);
		d->role = RCL_PD_ONLINE;
		d->dg = (int)id;
		d->span = r / g->drives_per_span;
		d->row = r % g->drives_per_span;
		lost[d->span] += !d->present;
	}
	g->state = md_state(g, lost);
	g->member_bytes = sb->data_size * 512;
	v->state = g->state;
	v->bytes = (sb->size ? sb->size : sb->data_size) * 512 * g->spans *
	           rcl_raid_span_data_drives(v->level, g->drives_per_span);
	v->strip_kib = sb->chunksize / 2;
	v->consistent = sb->resync_offset == UINT64_MAX;
	v->created = (time_t)(sb->ctime & ((1ull << 40) - 1));
	v->spans = g->spans;
	v->drives_per_span = g->drives_per_span;
	snprintf(v->name, sizeof(v->name), "%.15s", name ? name + 1 : sb->set_name);
	md_uuid_text(sb->set_uuid, v->uuid, sizeof(v->uuid));
}

/*
 * Why @c, as shown, cannot be imported for want of drives: a group lacks
 * more than it can lose (its VDs would be offline). Into @why (empty when
 * none does). show's Importable and import both go by it, so they agree.
 */
static void lacks_drives(const struct rcl_foreign_config *c, char *why, size_t size)
{
	*why = '\0';
	for (size_t d = 0; d < c->dg_count && !*why; d++)
		if (c->dgs[d].state == RCL_VD_OFFLINE)
			snprintf(why, size,
			         "Incomplete foreign configuration: a %s group of controller %s "
			         "lacks more drives than it can lose; add them and try again",
			         rcl_raid_level_name(c->dgs[d].level), c->owner);
}

static enum rcl_status view(const struct rcl_soft_state *state, const struct found_list *list,
                            struct rcl_foreign *out, struct rcl_error *err)
{
	unsigned next_dg = 0;

	memset(out, 0, sizeof(*out));
	out->configs = rcl_calloc(list->count + 1, sizeof(*out->configs));
	if (!out->configs)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t k = 0; k < list->count; k++) {
		const struct found *f = &list->items[k];
		struct rcl_foreign_config *c = &out->configs[out->count++];
		size_t room =
		    f->disk_count + RCL_SOFT_MAX_MEMBERS * RCL_MAX_DGS + RCL_MAX_HOT_SPARES;

		snprintf(c->owner, sizeof(c->owner), "%s", f->owner);
		c->source = f->source;
		snprintf(c->problem, sizeof(c->problem), "%s", f->problem);
		c->drives = rcl_calloc(room, sizeof(*c->drives));
		if (!c->drives) {
			rcl_foreign_release(out);
			return rcl_fail(err, RCL_NOMEM, "out of memory");
		}
		/* An md RAID0 over RAID5/6 arrays shows as the RAID50/60 it becomes. */
		if (f->top)
			view_group(state, f, f->adopt, &f->adopt->dgs[0], next_dg++, c);
		else if (f->md)
			view_md(state, f, next_dg++, c);
		for (size_t d = 0; f->cfg && d < f->cfg->dg_count; d++)
			view_group(state, f, f->cfg, &f->cfg->dgs[d], next_dg++, c);
		for (size_t s = 0; f->cfg && s < f->cfg->spare_count; s++) {
			struct rcl_foreign_drive *d = add_drive(c);

			place(d, found_disk(state, f, &f->cfg->spares[s].uuid),
			      f->cfg->spares[s].slot);
			d->role = RCL_PD_GHS;
		}
		view_loose(state, f, c);
		c->complete = true;
		for (size_t d = 0; d < c->drive_count; d++)
			c->complete &= c->drives[d].present;
		if (!c->problem[0])
			lacks_drives(c, c->problem, sizeof(c->problem));
	}
	return RCL_OK;
}

static enum rcl_status refresh_if_stale(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;

	return sc->stale ? rcl_soft_refresh(ctrl, err) : RCL_OK;
}

static enum rcl_status none_found(const struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	return rcl_fail(err, RCL_NOT_FOUND, "no foreign configuration found on /c%u",
	                ctrl->entry.id);
}

enum rcl_status rcl_soft_foreign_show(struct rcl_ctrl *ctrl, struct rcl_foreign *out,
                                      struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	struct found_list list;
	enum rcl_status st = refresh_if_stale(ctrl, err);

	if (!st)
		st = find_all(sc->state, &list, err);
	if (st)
		return st;
	st = view(sc->state, &list, out, err);
	found_list_release(&list);
	return st;
}

/* ---- Import ---- */

/* Whether any member or spare of @cfg is the drive @uuid. */
static bool config_has(const struct rcl_soft_config *cfg, const struct rcl_guid *uuid)
{
	for (size_t d = 0; d < cfg->dg_count; d++) {
		const struct rcl_soft_dg *dg = &cfg->dgs[d];

		for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++)
			if (same_guid(&dg->members[m].uuid, uuid))
				return true;
		for (unsigned k = 0; k < dg->spare_count; k++)
			if (same_guid(&dg->spares[k].drive.uuid, uuid))
				return true;
	}
	for (size_t k = 0; k < cfg->spare_count; k++)
		if (same_guid(&cfg->spares[k].uuid, uuid))
			return true;
	return false;
}

/* Can @f join @cfg at all: read, importable, no group lost, no drive twice. */
static enum rcl_status check_importable(const struct rcl_soft_state *state, const struct found *f,
                                        const struct rcl_foreign_config *shown,
                                        const struct rcl_soft_config *cfg, struct rcl_error *err)
{
	char lacking[RCL_ERROR_MSG_MAX];

	if (f->problem[0] || !(f->cfg || f->adopt))
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "cannot import the foreign configuration %s: %s", f->owner,
		                f->problem);
	lacks_drives(shown, lacking, sizeof(lacking));
	if (*lacking)
		return rcl_fail(err, RCL_FOREIGN_INCOMPLETE, "%s", lacking);
	for (size_t k = 0; k < f->disk_count; k++) {
		const struct rcl_soft_disk *disk = &state->disks[f->disks[k]];

		for (size_t j = 0; j < k; j++)
			if (same_guid(&state->disks[f->disks[j]].gpt->disk_guid,
			              &disk->gpt->disk_guid))
				return rcl_fail(
				    err, RCL_NOT_ALLOWED,
				    "cannot import the foreign configuration %s: drives "
				    "%u:%u and %u:%u have the same identity (GPT disk "
				    "GUID): one is a copy of the other; remove it",
				    f->owner, RCL_SOFT_ENCLOSURE, state->disks[f->disks[j]].slot,
				    RCL_SOFT_ENCLOSURE, disk->slot);
		if (config_has(cfg, &disk->gpt->disk_guid))
			return rcl_fail(
			    err, RCL_NOT_ALLOWED,
			    "cannot import the foreign configuration %s: drive %u:%u "
			    "has the identity (GPT disk GUID) of a drive this controller "
			    "already has: a member left behind by an earlier import, or "
			    "a copy; delete the foreign configuration (fall del force) and "
			    "let it rebuild, or remove the copy",
			    f->owner, RCL_SOFT_ENCLOSURE, disk->slot);
	}
	return RCL_OK;
}

static enum rcl_status check_limits(const struct rcl_soft_config *cfg,
                                    const struct rcl_soft_config *add, struct rcl_error *err)
{
	if (cfg->dg_count + add->dg_count > RCL_MAX_DGS)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "cannot import: %zu disk groups would exceed this controller's %d",
		                cfg->dg_count + add->dg_count, RCL_MAX_DGS);
	if (cfg->vd_count + add->vd_count > RCL_MAX_VDS)
		return rcl_fail(
		    err, RCL_NOT_ALLOWED,
		    "cannot import: %zu virtual drives would exceed this controller's %d",
		    cfg->vd_count + add->vd_count, RCL_MAX_VDS);
	if (rcl_soft_config_spares(cfg) + rcl_soft_config_spares(add) > RCL_MAX_HOT_SPARES)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "cannot import: %zu hot spares would exceed this controller's %d",
		                rcl_soft_config_spares(cfg) + rcl_soft_config_spares(add),
		                RCL_MAX_HOT_SPARES);
	return RCL_OK;
}

/* Members and spares are recorded where they are now: in this controller's slots. */
static void update_slot(const struct rcl_soft_state *state, const struct found *f,
                        struct rcl_soft_member *m)
{
	const struct rcl_soft_disk *disk = found_disk(state, f, &m->uuid);

	if (disk)
		m->slot = disk->slot;
}

static int cmp_vd(const void *a, const void *b)
{
	const struct rcl_soft_vd *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * New ids for @n objects whose ids are @old, among @limit ids of which
 * @used are taken: an object keeps its id when it is free, the others
 * then take the lowest free ones (so no object loses its id to another's
 * renumbering). The caller checked that there is room.
 */
static void assign_ids(bool *used, unsigned limit, const unsigned *old, size_t n, unsigned *out)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = UINT_MAX;
		if (old[i] < limit && !used[old[i]]) {
			out[i] = old[i];
			used[old[i]] = true;
		}
	}
	for (size_t i = 0; i < n; i++)
		for (unsigned id = 0; out[i] == UINT_MAX && id < limit; id++)
			if (!used[id]) {
				out[i] = id;
				used[id] = true;
			}
}

/*
 * Add @add (@f's configuration) to @cfg with ids from
 * assign_ids(); @shown (the view of @f, its VDs group by group) takes
 * the new ids.
 */
static void merge(const struct rcl_soft_state *state, const struct found *f,
                  const struct rcl_soft_config *add, struct rcl_soft_config *cfg,
                  struct rcl_foreign_config *shown)
{
	unsigned base = shown->dg_count ? shown->dgs[0].id : 0;
	bool dg_used[RCL_MAX_DGS] = {false}, vd_used[RCL_MAX_VDS] = {false};
	unsigned old_dg[RCL_MAX_DGS], new_dg[RCL_MAX_DGS], old_vd[RCL_MAX_VDS], new_vd[RCL_MAX_VDS];
	size_t order[RCL_MAX_VDS], n = 0;

	for (size_t d = 0; d < cfg->dg_count; d++)
		dg_used[cfg->dgs[d].id] = true;
	for (size_t v = 0; v < cfg->vd_count; v++)
		vd_used[cfg->vds[v].id] = true;
	for (size_t d = 0; d < add->dg_count; d++) {
		old_dg[d] = add->dgs[d].id;
		for (size_t v = 0; v < add->vd_count; v++)
			if (add->vds[v].dg == old_dg[d]) {
				old_vd[n] = add->vds[v].id;
				order[n++] = v;
			}
	}
	assign_ids(dg_used, RCL_MAX_DGS, old_dg, add->dg_count, new_dg);
	assign_ids(vd_used, RCL_MAX_VDS, old_vd, n, new_vd);
	for (size_t d = 0; d < add->dg_count; d++) {
		struct rcl_soft_dg *dg = &cfg->dgs[cfg->dg_count++];

		*dg = add->dgs[d];
		dg->id = shown->dgs[d].id = new_dg[d];
		for (unsigned m = 0; m < rcl_soft_dg_members(dg); m++)
			update_slot(state, f, &dg->members[m]);
		for (unsigned k = 0; k < dg->spare_count; k++)
			update_slot(state, f, &dg->spares[k].drive);
	}
	for (size_t k = 0; k < n; k++) {
		struct rcl_soft_vd *vd = &cfg->vds[cfg->vd_count++];

		*vd = add->vds[order[k]];
		for (size_t d = 0; d < add->dg_count; d++)
			if (old_dg[d] == vd->dg) {
				vd->dg = new_dg[d];
				break;
			}
		vd->id = shown->vds[k].id = new_vd[k];
		shown->vds[k].dg = vd->dg;
	}
	for (size_t k = 0; k < add->spare_count; k++) {
		cfg->spares[cfg->spare_count] = add->spares[k];
		update_slot(state, f, &cfg->spares[cfg->spare_count++]);
	}
	/* The view numbered this configuration's groups from its first one's id. */
	for (size_t d = 0; d < shown->drive_count; d++)
		if (shown->drives[d].dg >= 0)
			shown->drives[d].dg = (int)new_dg[(unsigned)shown->drives[d].dg - base];
	qsort(cfg->vds, cfg->vd_count, sizeof(cfg->vds[0]), cmp_vd);
}

/* The GPT an md adoption gives disk @i, or NULL. */
static const struct rcl_gpt *planned_gpt(const struct found_list *list, size_t i)
{
	for (size_t k = 0; k < list->count; k++)
		for (size_t j = 0; j < list->items[k].disk_count; j++)
			if (list->items[k].disks[j] == i && list->items[k].gpts[j])
				return list->items[k].gpts[j];
	return NULL;
}

/*
 * Whether @disk gets the merged configuration @cfg: a member or spare of
 * this controller's, or a foreign drive @cfg lists. A foreign drive its
 * configuration had already dropped stays foreign, its data untouched.
 */
static bool in_merged(const struct rcl_soft_disk *disk, const struct rcl_soft_config *cfg)
{
	if (disk->kind == RCL_SOFT_DISK_OURS)
		return disk->dg >= 0 || disk->spare;
	return disk->kind == RCL_SOFT_DISK_FOREIGN &&
	       (disk->foreign == RCL_SOFT_FOREIGN_RAIDCLI ||
	        disk->foreign == RCL_SOFT_FOREIGN_MD_GPT) &&
	       config_has(cfg, &disk->gpt->disk_guid);
}

/*
 * Write @cfg to every drive in_merged() picks: one record update, so the
 * foreign drives become ours in the same two phases (foreign.h).
 */
static enum rcl_status write_records(const struct soft_ctrl *sc, const struct found_list *list,
                                     const struct rcl_soft_config *cfg, struct rcl_error *err)
{
	const struct rcl_soft_state *state = sc->state;
	struct rcl_soft_record_drive *recs = rcl_calloc(state->count + 1, sizeof(*recs));
	struct rcl_soft_record_config rc = {state->next_generation, sc->serial, NULL, 0};
	char *payload = rcl_soft_config_format(cfg, &rc.len);
	struct rcl_soft_config *check = rcl_malloc(sizeof(*check));
	enum rcl_status st = RCL_OK;
	size_t n = 0;

	if (!recs || !payload || !check) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
		goto out;
	}
	/* What the drives will load must parse: check before the first write. */
	st = rcl_soft_config_parse(payload, rc.len, "(import)", check, err);
	rc.payload = payload;
	for (size_t i = 0; i < state->count && !st; i++) {
		const struct rcl_soft_disk *disk = &state->disks[i];
		const struct rcl_gpt *gpt = planned_gpt(list, i);
		const struct rcl_gpt_part *meta = gpt ? &gpt->parts[0] : NULL;

		if (!in_merged(disk, cfg))
			continue;
		if (!meta)
			meta = &disk->gpt->parts[disk->meta];
		rcl_soft_record_drive_init(&recs[n], disk->fd, meta->first_lba * disk->sector_size,
		                           (meta->last_lba + 1 - meta->first_lba) *
		                               disk->sector_size,
		                           &disk->gpt->disk_guid);
		st = rcl_soft_record_read(&recs[n++], err);
	}
	if (!st)
		st = rcl_soft_record_update(recs, n, &rc, err);
out:
	for (size_t i = 0; i < n; i++)
		rcl_soft_record_drive_release(&recs[i]);
	rcl_free(recs);
	rcl_free(payload);
	rcl_free(check);
	return st;
}

/*
 * Step (a) of vd.h's order for adopted md arrays: each member's GPT gains
 * the metadata partition, its record slots cleared first (the free MiB may
 * hold anything). Nothing references it yet: until the records commit,
 * scan.c still finds an md member there.
 */
static enum rcl_status add_metadata_partitions(const struct rcl_soft_state *state,
                                               const struct found_list *list, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (size_t k = 0; k < list->count && !st; k++)
		for (size_t j = 0; list->items[k].adopt && j < list->items[k].disk_count && !st;
		     j++) {
			const struct rcl_soft_disk *disk = &state->disks[list->items[k].disks[j]];
			const struct rcl_gpt *gpt = list->items[k].gpts[j];

			/* Records first: whatever the free MiB held must not show as one. */
			st = rcl_soft_member_clear_records(disk->fd, disk->sector_size,
			                                   &gpt->parts[0], err);
			if (!st)
				st = rcl_gpt_write(disk->fd, gpt, err);
		}
	return st;
}

/*
 * A degraded adoption of @f: the present members' superblocks count the
 * roles no drive holds as faulty, one event on, as md's do once it runs an
 * array degraded. md then takes a left-behind drive that comes back for
 * stale, never for current after raidcli wrote without it; and a crash
 * before the records commit leaves a degraded md array that says so.
 */
static enum rcl_status mark_lost(const struct rcl_soft_state *state, const struct found *f,
                                 struct rcl_error *err)
{
	const struct rcl_soft_dg *dg = &f->adopt->dgs[0];
	const struct rcl_soft_vd *vd = &f->adopt->vds[0];
	/* Members by md role, one md array (a RAID50/60's span) after the other. */
	unsigned n = rcl_soft_dg_members(dg),
	         width = rcl_soft_nested(dg->level) ? dg->drives_per_span : n;
	bool lost[RCL_MAX_SPANS] = {false};
	struct rcl_md_super1 *sb;
	enum rcl_status st = RCL_OK;
	bool any = false;

	for (unsigned m = 0; m < n; m++)
		any |= lost[m / width] |= f->roles[m] < 0;
	if (!any)
		return RCL_OK;
	sb = rcl_malloc(sizeof(*sb));
	if (!sb)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (unsigned m = 0; m < n && !st; m++) {
		const int *roles = &f->roles[m / width * width];
		const struct rcl_soft_disk *disk;

		if (f->roles[m] < 0 || !lost[m / width])
			continue;
		disk = &state->disks[f->roles[m]];
		st = rcl_soft_md_read(disk->fd, disk->sector_size, vd, sb, err);
		for (unsigned d = 0; !st && d < sb->max_dev && d < RCL_MD_MAX_DEV; d++)
			if (sb->dev_roles[d] < sb->raid_disks && roles[sb->dev_roles[d]] < 0)
				sb->dev_roles[d] = RCL_MD_ROLE_FAULTY;
		/* Present members are as fresh as the freshest (md_shape_fits()). */
		sb->events++;
		if (!st)
			st = rcl_soft_md_rewrite(disk->fd, disk->sector_size, vd, sb, err);
	}
	rcl_free(sb);
	return st;
}

/* Merge every configuration of @list into a copy of this controller's, in @cfg. */
static enum rcl_status plan_import(const struct rcl_soft_state *state,
                                   const struct found_list *list, struct rcl_foreign *shown,
                                   struct rcl_soft_config *cfg, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (size_t k = 0; k < list->count && !st; k++) {
		const struct found *f = &list->items[k];
		const struct rcl_soft_config *add = f->adopt ? f->adopt : f->cfg;

		st = check_importable(state, f, &shown->configs[k], cfg, err);
		if (!st)
			st = check_limits(cfg, add, err);
		if (!st)
			merge(state, f, add, cfg, &shown->configs[k]);
	}
	return st;
}

enum rcl_status rcl_soft_foreign_import(struct rcl_ctrl *ctrl, bool preview,
                                        struct rcl_foreign *out, struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	struct rcl_soft_config *cfg = NULL;
	struct found_list list = {0};
	enum rcl_status st = rcl_soft_foreign_show(ctrl, out, err);

	if (!st && !out->count)
		st = none_found(ctrl, err);
	if (!st)
		st = find_all(sc->state, &list, err);
	if (!st && !(cfg = rcl_malloc(sizeof(*cfg))))
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	if (!st) {
		*cfg = sc->state->cfg;
		snprintf(cfg->serial, sizeof(cfg->serial), "%s", sc->serial);
		st = plan_import(sc->state, &list, out, cfg, err);
	}
	if (!st && !preview) {
		st = add_metadata_partitions(sc->state, &list, err);
		for (size_t k = 0; k < list.count && !st; k++)
			if (list.items[k].adopt)
				st = mark_lost(sc->state, &list.items[k], err);
		if (!st)
			st = write_records(sc, &list, cfg, err);
		/* Whatever happened, the drives say what is true now. */
		if (st) {
			struct rcl_error ignored = {0};

			rcl_soft_refresh(ctrl, &ignored);
		} else {
			st = rcl_soft_refresh(ctrl, err);
		}
	}
	rcl_free(cfg);
	found_list_release(&list);
	return st;
}

/* ---- Delete ---- */

static enum rcl_status zero_range(int fd, uint64_t off, uint64_t len, struct rcl_error *err)
{
	uint8_t *buf = rcl_calloc(1, (size_t)len);
	enum rcl_status st;

	if (!buf)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_soft_write(fd, buf, (size_t)len, off, "foreign metadata", err);
	rcl_free(buf);
	return st;
}

/*
 * md metadata on the whole drive: every place md keeps a superblock
 * (v1.1 at 0, v1.2 at 4 KiB, v1.0 and 0.90 near the end) that holds one.
 */
static enum rcl_status wipe_md_disk(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	uint64_t sectors = disk->bytes / 512;
	uint64_t at[] = {0, 4096, ((sectors - 16) & ~7ull) * 512,
	                 ((sectors & ~127ull) - 128) * 512};
	enum rcl_status st = RCL_OK;

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]) && !st; i++) {
		uint8_t magic[4];
		struct rcl_error ignored = {0};

		if (!rcl_soft_read(disk->fd, magic, sizeof(magic), at[i], &ignored) &&
		    rcl_get_le32(magic) == RCL_MD_SB_MAGIC)
			st = zero_range(disk->fd, at[i], RCL_MD_SB_AREA, err);
	}
	return st ? st : rcl_soft_sync(disk->fd, "md superblock", err);
}

/* md members in GPT partitions: their superblocks, then both copies of the GPT. */
static enum rcl_status wipe_md_gpt(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	const struct rcl_gpt *gpt = disk->gpt;
	uint64_t tail = (gpt->last_usable + 1) * disk->sector_size;
	enum rcl_status st = RCL_OK;

	for (unsigned i = 0; i < RCL_GPT_MAX_PARTS && !st; i++)
		if (!memcmp(&gpt->parts[i].type, &rcl_gpt_type_linux_raid, sizeof(struct rcl_guid)))
			st = zero_range(disk->fd,
			                gpt->parts[i].first_lba * disk->sector_size +
			                    RCL_MD_SUPER1_2_OFFSET * 512,
			                RCL_MD_SB_AREA, err);
	if (!st)
		st = rcl_soft_sync(disk->fd, "md superblock", err);
	if (!st)
		st = zero_range(disk->fd, 0, gpt->first_usable * disk->sector_size, err);
	if (!st && tail < disk->bytes)
		st = zero_range(disk->fd, tail, disk->bytes - tail, err);
	return st ? st : rcl_soft_sync(disk->fd, "GPT", err);
}

static enum rcl_status wipe(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	switch (disk->foreign) {
	case RCL_SOFT_FOREIGN_RAIDCLI:
		return rcl_soft_member_blank(disk, err);
	case RCL_SOFT_FOREIGN_MD_DISK:
		return wipe_md_disk(disk, err);
	case RCL_SOFT_FOREIGN_MD_GPT:
		return wipe_md_gpt(disk, err);
	case RCL_SOFT_FOREIGN_NONE:
		break;
	}
	return RCL_OK;
}

enum rcl_status rcl_soft_foreign_delete(struct rcl_ctrl *ctrl, bool force, struct rcl_foreign *out,
                                        struct rcl_error *err)
{
	struct soft_ctrl *sc = ctrl->priv;
	struct rcl_error ignored = {0};
	enum rcl_status st = rcl_soft_foreign_show(ctrl, out, err);

	if (!st && !out->count)
		st = none_found(ctrl, err);
	if (!st && !force)
		st = rcl_fail(err, RCL_NEED_FORCE,
		              "deleting the foreign configuration destroys its %zu virtual drive%s "
		              "and their data; repeat with 'force' to confirm: raidcli "
		              "/c%u/fall del force",
		              rcl_foreign_vd_count(out), rcl_foreign_vd_count(out) == 1 ? "" : "s",
		              ctrl->entry.id);
	for (size_t i = 0; !st && i < sc->state->count; i++)
		if (sc->state->disks[i].kind == RCL_SOFT_DISK_FOREIGN)
			st = wipe(&sc->state->disks[i], err);
	if (st && st != RCL_NOT_FOUND && st != RCL_NEED_FORCE)
		rcl_soft_refresh(ctrl, &ignored);
	else if (!st)
		st = rcl_soft_refresh(ctrl, err);
	return st;
}
