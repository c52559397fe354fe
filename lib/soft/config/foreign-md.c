// SPDX-License-Identifier: MIT
/*
 * foreign-md.c - whether an md array mdadm made can be adopted in place,
 * and as which group and VD of this controller (foreign.h says how).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "foreign-private.h"
#include "layout.h"
#include "member.h"
#include "soft/engine/stripe.h"
#include "soft/format/io.h"
#include "soft/format/md-bitmap.h"

static bool is_type(const struct rcl_gpt_part *p, const struct rcl_guid *type)
{
	return !memcmp(&p->type, type, sizeof(*type));
}

void rcl_soft_foreign_refuse(struct found *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->problem, sizeof(f->problem), fmt, ap);
	va_end(ap);
}

bool rcl_soft_foreign_md_level(const struct rcl_md_super1 *sb, enum rcl_raid_level *level)
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

void rcl_soft_foreign_md_identity(struct rcl_soft_vd *vd, const struct rcl_md_super1 *sb)
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
	rcl_soft_foreign_md_identity(vd, sb);
	vd->part = (unsigned)entry;
	vd->strip_kib = sb->chunksize / 2;
	vd->consistent = sb->resync_offset == UINT64_MAX;
	vd->created = (time_t)(sb->ctime & ((1ull << 40) - 1));
	return RCL_OK;
}

bool rcl_soft_foreign_refuse_layout(struct found *f, const char *field, const char *fmt, ...)
{
	char why[RCL_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	rcl_soft_foreign_refuse(f, "its md layout cannot be kept: %s: %s", field, why);
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
			return rcl_soft_foreign_refuse_layout(
			    f, "data offset", "md member %u has %llu, member %u %llu", r,
			    (unsigned long long)m->data_offset, rcl_md_super1_role(sb),
			    (unsigned long long)sb->data_offset);
		if (raid0 ? m->data_size != sb->data_size : m->data_size < sb->size)
			return rcl_soft_foreign_refuse_layout(
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
		return rcl_soft_foreign_refuse_layout(
		    f, "bitmap",
		    "md's superblock names one at offset %d that is not a "
		    "readable md bitmap there",
		    sb->bitmap_offset);
	space = rcl_md_bitmap_space(bms.sync_size, bms.chunksize) / 512;
	if (space > RCL_SOFT_BITMAP_MAX_SECTORS ||
	    sb->super_offset + (uint64_t)sb->bitmap_offset + space > sb->data_offset)
		return rcl_soft_foreign_refuse_layout(
		    f, "bitmap",
		    "md's takes %llu sectors at offset %d, raidcli keeps at most "
		    "%u, before the data",
		    (unsigned long long)space, sb->bitmap_offset, RCL_SOFT_BITMAP_MAX_SECTORS);
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
		return rcl_soft_foreign_refuse_layout(
		    f, "feature map",
		    "md has 0x%x, raidcli keeps no feature but an internal bitmap "
		    "(0x1)",
		    sb->feature_map);
	if (sb->super_offset != RCL_MD_SUPER1_2_OFFSET)
		return rcl_soft_foreign_refuse_layout(
		    f, "superblock offset", "md has %llu, v1.2 has %u",
		    (unsigned long long)sb->super_offset, RCL_MD_SUPER1_2_OFFSET);
	if (!md_members_alike(f))
		return false;
	if (sb->data_offset < sb->super_offset + 8 || sb->data_offset + sb->data_size > sectors)
		return rcl_soft_foreign_refuse_layout(
		    f, "data offset",
		    "md has data from sector %llu for %llu sectors, its partition "
		    "has %llu",
		    (unsigned long long)sb->data_offset, (unsigned long long)sb->data_size,
		    (unsigned long long)sectors);
	if (sb->level != RCL_MD_LEVEL_RAID0 &&
	    (!sb->size || (sb->chunksize && sb->size % sb->chunksize)))
		return rcl_soft_foreign_refuse_layout(
		    f, "size",
		    "md has %llu sectors a member, not a whole number of its "
		    "%u-sector chunks",
		    (unsigned long long)sb->size, sb->chunksize);
	if (sb->chunksize / 2 > RCL_SOFT_MAX_STRIP_KIB)
		return rcl_soft_foreign_refuse_layout(
		    f, "chunk", "md has %u KiB, raidcli's strips go up to %u KiB",
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
		return rcl_soft_foreign_refuse_layout(f, "size",
		                                      "md's gives no capacity raidcli can serve");
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

	if (!rcl_soft_foreign_md_level(sb, level)) {
		rcl_soft_foreign_refuse(
		    out,
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
			rcl_soft_foreign_refuse(
			    out,
			    "md member %u (drive %u:%u) is stale: %llu events, the array's "
			    "freshest member has %llu; md would not assemble it, remove it and "
			    "import the rest degraded",
			    r, RCL_SOFT_ENCLOSURE, slot, (unsigned long long)m->events,
			    (unsigned long long)sb->events);
			return false;
		}
		if (m->dev_number >= sb->max_dev || sb->dev_roles[m->dev_number] != r) {
			rcl_soft_foreign_refuse(
			    out,
			    "drive %u:%u says it is md member %u, which the array no longer "
			    "counts it as; remove it and import the rest degraded",
			    RCL_SOFT_ENCLOSURE, slot, r);
			return false;
		}
	}
	if (f->disk_count != present) {
		rcl_soft_foreign_refuse(
		    out, "it has md spares, or members of several arrays on a drive, which "
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
			rcl_soft_foreign_refuse(
			    f, "drive %u:%u holds other partitions besides the md member",
			    RCL_SOFT_ENCLOSURE, disk->slot);
			return false;
		}
		if (!md_gpt(disk, f->gpts[k], &e)) {
			rcl_soft_foreign_refuse(
			    f,
			    "drive %u:%u has no room in its GPT for raidcli's metadata "
			    "partition: no free, 1 MiB-aligned MiB, nor %u KiB free before "
			    "the md partition",
			    RCL_SOFT_ENCLOSURE, disk->slot, RCL_SOFT_RECORD_PART_MIN >> 10);
			return false;
		}
		if (*first && (disk->sector_size != (*first)->sector_size || e != *entry ||
		               md_part(disk)->first_lba != md_part(*first)->first_lba ||
		               md_part(disk)->last_lba != md_part(*first)->last_lba)) {
			rcl_soft_foreign_refuse(
			    f, "its members' partitions differ in place, size, number or sector "
			       "size; raidcli needs them the same on every member");
			return false;
		}
		*first = *first ? *first : disk;
		*entry = e;
	}
	return true;
}

enum rcl_status rcl_soft_foreign_md_plan(const struct rcl_soft_state *state, struct found *f,
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
