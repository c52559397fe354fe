// SPDX-License-Identifier: MIT
/*
 * member.c - GPT, md superblocks and bitmaps of one member drive (see
 * member.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "soft/format/io.h"
#include "layout.h"
#include "soft/format/md-bitmap.h"
#include "member.h"
#include "soft/format/record.h"

enum rcl_status rcl_soft_meta_part(const struct rcl_gpt *gpt, struct rcl_gpt_part *part,
                                   struct rcl_error *err)
{
	memset(part, 0, sizeof(*part));
	part->type = rcl_soft_record_part_type;
	part->first_lba = rcl_gpt_first_aligned_lba(gpt);
	part->last_lba = part->first_lba + RCL_SOFT_RECORD_PART_BYTES / gpt->sector_size - 1;
	snprintf(part->name, sizeof(part->name), "raidcli metadata");
	return rcl_guid_random(&part->guid, err);
}

enum rcl_status rcl_soft_meta_part_before(const struct rcl_gpt *gpt, uint64_t end_lba,
                                          struct rcl_gpt_part *part, struct rcl_error *err)
{
	/* 4 KiB aligned, so no record straddles a 4K sector of the drive below. */
	uint64_t align = gpt->sector_size < 4096 ? 4096 / gpt->sector_size : 1;
	uint64_t first = (gpt->first_usable + align - 1) / align * align;
	uint64_t lbas = RCL_SOFT_RECORD_PART_BYTES / gpt->sector_size;
	enum rcl_status st = rcl_soft_meta_part(gpt, part, err);

	if (st)
		return st;
	if (end_lba < first || (end_lba - first) * gpt->sector_size < RCL_SOFT_RECORD_PART_MIN)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "the %llu bytes before LBA %llu cannot hold raidcli's metadata "
		                "partition (%u bytes at least)",
		                (unsigned long long)(end_lba > first
		                                         ? (end_lba - first) * gpt->sector_size
		                                         : 0),
		                (unsigned long long)end_lba, RCL_SOFT_RECORD_PART_MIN);
	part->first_lba = first;
	part->last_lba = first + (end_lba - first < lbas ? end_lba - first : lbas) - 1;
	return RCL_OK;
}

/* Keep the old entry's GUID when the partition stays where it was. */
static enum rcl_status vd_part(const struct rcl_gpt_part *old, const struct rcl_soft_vd *vd,
                               struct rcl_gpt_part *part, struct rcl_error *err)
{
	memset(part, 0, sizeof(*part));
	part->type = rcl_gpt_type_linux_raid;
	part->first_lba = vd->first_lba;
	part->last_lba = vd->last_lba;
	snprintf(part->name, sizeof(part->name), "raidcli v%u", vd->id);
	if (old && !memcmp(&old->type, &part->type, sizeof(part->type)) &&
	    old->first_lba == part->first_lba && old->last_lba == part->last_lba) {
		part->guid = old->guid;
		return RCL_OK;
	}
	return rcl_guid_random(&part->guid, err);
}

enum rcl_status rcl_soft_member_gpt(const struct rcl_soft_disk *disk, bool fresh,
                                    const struct rcl_soft_config *cfg, const struct rcl_soft_dg *dg,
                                    struct rcl_gpt *gpt, struct rcl_error *err)
{
	const struct rcl_gpt *old = fresh ? NULL : disk->gpt;
	struct rcl_gpt_part meta;
	enum rcl_status st;

	if (old) {
		*gpt = *old;
		meta = old->parts[disk->meta];
	} else {
		st = rcl_gpt_init(gpt, disk->bytes, disk->sector_size, err);
		if (!st)
			st = rcl_soft_meta_part(gpt, &meta, err);
		/* An adopted md array may start at 1 MiB: then the metadata goes before it. */
		if (!st && dg && dg->first_lba <= meta.last_lba)
			st = rcl_soft_meta_part_before(gpt, dg->first_lba, &meta, err);
		if (st)
			return st;
	}
	memset(gpt->parts, 0, sizeof(gpt->parts));
	gpt->parts[0] = meta;
	for (size_t i = 0; i < cfg->vd_count; i++) {
		const struct rcl_soft_vd *vd = &cfg->vds[i];

		if (!dg || vd->dg != dg->id)
			continue;
		st = vd_part(old ? &old->parts[vd->part] : NULL, vd, &gpt->parts[vd->part], err);
		if (st)
			return st;
	}
	return RCL_OK;
}

/*
 * md's times hold seconds in the low 40 bits and may hold microseconds
 * above; mdadm and the kernel write whole seconds, and so do we: mdadm
 * takes members whose ctime differs in any bit for different arrays.
 */
static uint64_t now_md(void)
{
	return (uint64_t)time(NULL) & ((1ull << 40) - 1);
}

/**
 * struct md_array - the md array a superblock is for.
 * @geo:	the member's geometry in it.
 * @ctime:	when the VD was created: the same on every member.
 * @roles:	the devices with a role: 0 to @roles - 1 (at least raid_disks).
 * @clean:	in sync (RAID0, or nothing to agree on yet).
 */
struct md_array {
	struct rcl_md_shape shape;
	struct rcl_md_geometry geo;
	const uint8_t *uuid;
	char name[33];
	uint64_t ctime;
	unsigned dev_number;
	unsigned roles;
	bool clean;
};

static enum rcl_status fill_super(struct rcl_md_super1 *sb, const struct md_array *a,
                                  struct rcl_error *err)
{
	struct rcl_guid dev_uuid;
	enum rcl_status st;

	st = rcl_md_super1_init(sb, &a->shape, &a->geo, a->roles, err);
	if (!st)
		st = rcl_guid_random(&dev_uuid, err);
	if (st)
		return st;
	memcpy(sb->set_uuid, a->uuid, 16);
	memcpy(sb->device_uuid, dev_uuid.b, 16);
	memcpy(sb->set_name, a->name, sizeof(sb->set_name));
	sb->ctime = a->ctime;
	sb->utime = now_md();
	sb->dev_number = a->dev_number;
	sb->events = 1;
	/* A new redundant array is not in sync yet: md resyncs it on assembly. */
	sb->resync_offset = a->clean ? UINT64_MAX : 0;
	for (unsigned i = 0; i < a->roles; i++)
		sb->dev_roles[i] = (uint16_t)i;
	return RCL_OK;
}

/*
 * @bms in a zeroed area as big as its bitmap, at @at: no stale bits; with
 * @dirty, every chunk's bit set.
 */
static enum rcl_status write_bitmap_area(int fd, uint64_t at, const struct rcl_md_bitmap_super *bms,
                                         bool dirty, struct rcl_error *err)
{
	uint64_t space = rcl_md_bitmap_space(bms->sync_size, bms->chunksize);
	uint64_t bits = rcl_md_bitmap_bits(bms->sync_size, bms->chunksize);
	enum rcl_status st;
	uint8_t *buf = rcl_calloc(1, space);

	if (!buf)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_md_bitmap_encode(bms, buf, (size_t)space, err);
	/* md numbers the bits little-endian: bit n is bit n % 8 of byte n / 8. */
	for (uint64_t bit = 0; dirty && bit < bits; bit++)
		buf[RCL_MD_BITMAP_SB_BYTES + bit / 8] |= (uint8_t)(1u << (bit % 8));
	if (!st)
		st = rcl_soft_write(fd, buf, (size_t)space, at, "md bitmap", err);
	rcl_free(buf);
	return st;
}

/*
 * A new array's bitmap superblock. As mdadm --create does, an array not in
 * sync gets every bit set: md resyncs only the chunks whose bits are set,
 * so clear bits would leave its parity unwritten for good.
 */
static enum rcl_status write_bitmap(int fd, uint64_t at, const struct rcl_md_super1 *sb,
                                    const struct rcl_md_geometry *geo, bool clean,
                                    struct rcl_error *err)
{
	struct rcl_md_bitmap_super bms;

	rcl_md_bitmap_super_init(&bms, sb, geo);
	return write_bitmap_area(fd, at, &bms, !clean, err);
}

/* The superblock (and bitmap) of member @a->dev_number of array @a, whose device starts at @base.
 */
static enum rcl_status write_super(int fd, uint64_t base, const struct md_array *a,
                                   struct rcl_error *err)
{
	struct rcl_md_super1 *sb = rcl_calloc(1, sizeof(*sb));
	uint8_t block[RCL_MD_SB_AREA];
	enum rcl_status st;

	if (!sb)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = fill_super(sb, a, err);
	if (!st)
		st = rcl_md_super1_encode(sb, block, sizeof(block), err);
	if (!st && a->geo.bitmap_offset)
		st = write_bitmap(
		    fd, base + (a->geo.super_offset + (uint64_t)a->geo.bitmap_offset) * 512, sb,
		    &a->geo, a->clean, err);
	if (!st)
		st = rcl_soft_write(fd, block, sizeof(block), base + a->geo.super_offset * 512,
		                    "md superblock", err);
	rcl_free(sb);
	return st;
}

/*
 * RAID00/50/60: the top RAID0's superblock for span @span, 4 KiB into the span
 * array's data: in its chunk 0, on the member that holds it (@a, the
 * span's array). Parity (RAID50/60) is left to the span's initial resync.
 */
static enum rcl_status write_top(int fd, uint64_t part_off, const char *serial,
                                 const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                 const struct md_array *a, unsigned span, struct rcl_error *err)
{
	struct md_array top = {.shape = {.level = RCL_MD_LEVEL_RAID0,
	                                 .raid_disks = dg->spans,
	                                 .chunk_sectors = vd->strip_kib * 2},
	                       .uuid = vd->uuid,
	                       .ctime = a->ctime,
	                       .dev_number = span,
	                       .roles = dg->spans,
	                       .clean = true};
	enum rcl_status st = rcl_soft_top_geometry(dg, vd->strip_kib, &a->geo, &top.geo, err);

	snprintf(top.name, sizeof(top.name), "%.20s:v%u", serial, vd->id);
	return st ? st : write_super(fd, part_off + a->geo.data_offset * 512, &top, err);
}

enum rcl_status rcl_soft_member_write_md(int fd, unsigned sector_size, const char *serial,
                                         const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                         unsigned member, struct rcl_error *err)
{
	bool nested = rcl_soft_nested(dg->level);
	unsigned span = nested ? member / dg->drives_per_span : 0, chunk0;
	uint64_t part_off = vd->first_lba * sector_size, bytes, at;
	struct md_array a = {.uuid = nested ? vd->span_uuids[span] : vd->uuid,
	                     .ctime = (uint64_t)vd->created,
	                     .dev_number = nested ? member % dg->drives_per_span : member,
	                     .clean = vd->consistent};
	enum rcl_status st;

	rcl_soft_md_shape(dg, vd->strip_kib, &a.shape);
	/* Members a migration removes keep their old roles, past raid_disks, until it ends. */
	a.roles = !nested && rcl_soft_dg_held(dg) > a.shape.raid_disks ? rcl_soft_dg_held(dg)
	                                                               : a.shape.raid_disks;
	st = rcl_soft_vd_geometry(dg, vd, sector_size, &a.geo, &bytes, err);
	/* mdadm's "homehost:name": the controller is the host. */
	if (nested)
		snprintf(a.name, sizeof(a.name), "%.20s:v%u-%u", serial, vd->id, span);
	else
		snprintf(a.name, sizeof(a.name), "%.20s:v%u", serial, vd->id);
	if (!st)
		st = write_super(fd, part_off, &a, err);
	rcl_soft_chunk_member(a.shape.level, a.shape.raid_disks, 0, &chunk0, &at);
	if (!st && nested && a.dev_number == chunk0)
		st = write_top(fd, part_off, serial, dg, vd, &a, span, err);
	if (!st)
		st = rcl_soft_sync(fd, "md superblock", err);
	return st;
}

static enum rcl_status zero(int fd, uint64_t off, size_t len, const char *what,
                            struct rcl_error *err)
{
	uint8_t *buf = rcl_calloc(1, len);
	enum rcl_status st;

	if (!buf)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_soft_write(fd, buf, len, off, what, err);
	rcl_free(buf);
	return st;
}

enum rcl_status rcl_soft_member_clear_records(int fd, unsigned sector_size,
                                              const struct rcl_gpt_part *meta,
                                              struct rcl_error *err)
{
	uint64_t at = meta->first_lba * sector_size;
	enum rcl_status st;

	st = zero(fd, at, RCL_SOFT_RECORD_HEADER_BYTES, "configuration record", err);
	if (!st)
		st = zero(fd, at + RCL_SOFT_RECORD_SLOT_BYTES, RCL_SOFT_RECORD_HEADER_BYTES,
		          "configuration record", err);
	return st ? st : rcl_soft_sync(fd, "configuration record", err);
}

/* The GPT's two copies: the first 1 MiB (before any partition) and the tail. */
static enum rcl_status zero_gpt(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	uint64_t tail = (disk->gpt->last_usable + 1) * disk->sector_size;
	enum rcl_status st;

	st =
	    zero(disk->fd, 0, rcl_gpt_first_aligned_lba(disk->gpt) * disk->sector_size, "GPT", err);
	if (!st && tail < disk->bytes)
		st = zero(disk->fd, tail, (size_t)(disk->bytes - tail), "GPT", err);
	return st ? st : rcl_soft_sync(disk->fd, "GPT", err);
}

static bool is_raid(const struct rcl_gpt_part *p)
{
	return !memcmp(&p->type, &rcl_gpt_type_linux_raid, sizeof(p->type));
}

static enum rcl_status zero_md_at(const struct rcl_soft_disk *disk, const struct rcl_gpt_part *p,
                                  struct rcl_error *err)
{
	return zero(disk->fd, p->first_lba * disk->sector_size + RCL_MD_SUPER1_2_OFFSET * 512,
	            RCL_MD_SB_AREA, "md superblock", err);
}

enum rcl_status rcl_soft_member_wipe_orphans(const struct rcl_soft_disk *disk,
                                             const struct rcl_gpt *gpt, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;
	bool wiped = false;

	for (unsigned i = 0; i < RCL_GPT_MAX_PARTS && !st; i++) {
		const struct rcl_gpt_part *p = &disk->gpt->parts[i];

		if (!is_raid(p) ||
		    (gpt->parts[i].first_lba == p->first_lba && is_raid(&gpt->parts[i])))
			continue;
		st = zero_md_at(disk, p, err);
		wiped = true;
	}
	return st || !wiped ? st : rcl_soft_sync(disk->fd, "md superblock", err);
}

enum rcl_status rcl_soft_member_erase(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	uint64_t head = 2 * (uint64_t)RCL_SOFT_ALIGN_BYTES, tail = RCL_SOFT_ALIGN_BYTES;
	enum rcl_status st;

	if (head > disk->bytes)
		head = disk->bytes;
	if (tail > disk->bytes - head)
		tail = disk->bytes - head;
	st = zero(disk->fd, 0, (size_t)head, "the drive's start", err);
	if (!st && tail)
		st = zero(disk->fd, disk->bytes - tail, (size_t)tail, "the drive's end", err);
	return st ? st : rcl_soft_sync(disk->fd, "the drive", err);
}

enum rcl_status rcl_soft_member_blank(const struct rcl_soft_disk *disk, struct rcl_error *err)
{
	const struct rcl_gpt *gpt = disk->gpt;
	enum rcl_status st = RCL_OK;

	for (unsigned i = 0; i < RCL_GPT_MAX_PARTS && !st; i++)
		if (is_raid(&gpt->parts[i]))
			st = zero_md_at(disk, &gpt->parts[i], err);
	if (!st)
		st = rcl_soft_member_clear_records(disk->fd, disk->sector_size,
		                                   &gpt->parts[disk->meta], err);
	return st ? st : zero_gpt(disk, err);
}

/* ---- Spares: superblocks of an existing array ---- */

/* Where VD @vd's md superblock is on a drive of @sector_size: a byte offset. */
static uint64_t super_at(unsigned sector_size, const struct rcl_soft_vd *vd)
{
	return vd->first_lba * sector_size + RCL_MD_SUPER1_2_OFFSET * 512;
}

enum rcl_status rcl_soft_md_read(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                 struct rcl_md_super1 *sb, struct rcl_error *err)
{
	uint64_t sectors = (vd->last_lba + 1 - vd->first_lba) * sector_size / 512;
	uint8_t *block = rcl_malloc(RCL_MD_SB_AREA);
	enum rcl_status st;

	if (!block)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_soft_read(fd, block, RCL_MD_SB_AREA, super_at(sector_size, vd), err);
	if (!st)
		st = rcl_md_super1_decode(block, RCL_MD_SB_AREA, RCL_MD_SUPER1_2_OFFSET, sectors,
		                          sb, err);
	rcl_free(block);
	return st;
}

/* The bitmap superblock of the array whose superblock @sb sits at @sb_at. */
static enum rcl_status read_bitmap(int fd, uint64_t sb_at, const struct rcl_md_super1 *sb,
                                   struct rcl_md_bitmap_super *bms, struct rcl_error *err)
{
	uint8_t buf[RCL_MD_BITMAP_SB_BYTES];
	enum rcl_status st =
	    rcl_soft_read(fd, buf, sizeof(buf), sb_at + (int64_t)sb->bitmap_offset * 512, err);

	return st ? st
	          : rcl_md_bitmap_decode(buf, sizeof(buf), rcl_md_super1_bitmap_room(sb), bms, err);
}

static enum rcl_status write_sb(int fd, uint64_t at, const struct rcl_md_super1 *sb,
                                struct rcl_error *err)
{
	uint8_t *block = rcl_malloc(RCL_MD_SB_AREA);
	enum rcl_status st;

	if (!block)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_md_super1_encode(sb, block, RCL_MD_SB_AREA, err);
	if (!st)
		st = rcl_soft_write(fd, block, RCL_MD_SB_AREA, at, "md superblock", err);
	rcl_free(block);
	return st;
}

enum rcl_status rcl_soft_md_rewrite(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                    struct rcl_md_super1 *sb, struct rcl_error *err)
{
	uint64_t at = super_at(sector_size, vd);
	struct rcl_md_bitmap_super bms;
	uint8_t buf[RCL_MD_BITMAP_SB_BYTES];
	enum rcl_status st = RCL_OK;

	sb->utime = now_md();
	/* The bitmap's events go first: md takes a bitmap one event ahead, not one behind. */
	if (sb->feature_map & RCL_MD_FEATURE_BITMAP_OFFSET) {
		st = read_bitmap(fd, at, sb, &bms, err);
		bms.events = sb->events;
		if (!st)
			st = rcl_md_bitmap_encode(&bms, buf, sizeof(buf), err);
		if (!st)
			st =
			    rcl_soft_write(fd, buf, sizeof(buf),
			                   at + (int64_t)sb->bitmap_offset * 512, "md bitmap", err);
	}
	if (!st)
		st = write_sb(fd, at, sb, err);
	return st ? st : rcl_soft_sync(fd, "md superblock", err);
}

enum rcl_status rcl_soft_md_add_bitmap(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                       struct rcl_error *err)
{
	uint64_t at = super_at(sector_size, vd);
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	enum rcl_status st = sb ? rcl_soft_md_read(fd, sector_size, vd, sb, err)
	                        : rcl_fail(err, RCL_NOMEM, "out of memory");

	/* The bitmap first: md ignores it until the superblock names it. */
	if (!st && !(sb->feature_map & RCL_MD_FEATURE_BITMAP_OFFSET)) {
		st = write_bitmap(fd, at + (int64_t)vd->md.bitmap_offset * 512, sb, &vd->md,
		                  sb->resync_offset == UINT64_MAX, err);
		sb->feature_map |= RCL_MD_FEATURE_BITMAP_OFFSET;
		sb->bitmap_offset = vd->md.bitmap_offset;
		if (!st)
			st = rcl_soft_md_rewrite(fd, sector_size, vd, sb, err);
	}
	rcl_free(sb);
	return st;
}

enum rcl_status rcl_soft_md_grow(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                 uint64_t events, struct rcl_error *err)
{
	uint64_t at = super_at(sector_size, vd);
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	struct rcl_md_bitmap_super bms;
	enum rcl_status st = sb ? rcl_soft_md_read(fd, sector_size, vd, sb, err)
	                        : rcl_fail(err, RCL_NOMEM, "out of memory");

	if (!st) {
		sb->data_size = vd->md.data_size;
		sb->size = vd->md.size;
		sb->events = events;
		if (!vd->consistent)
			sb->resync_offset = 0;
	}
	/* Every bit set: the whole range is to be resynced, whatever chunk it had. */
	if (!st && (sb->feature_map & RCL_MD_FEATURE_BITMAP_OFFSET)) {
		rcl_md_bitmap_super_init(&bms, sb, &vd->md);
		st = write_bitmap_area(fd, at + (int64_t)sb->bitmap_offset * 512, &bms, true, err);
	}
	if (!st) {
		sb->utime = now_md();
		st = write_sb(fd, at, sb, err);
	}
	rcl_free(sb);
	return st ? st : rcl_soft_sync(fd, "md superblock", err);
}

bool rcl_soft_md_left_active(int fd, unsigned sector_size, const struct rcl_soft_vd *vd)
{
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	bool active = sb && !rcl_soft_md_read(fd, sector_size, vd, sb, &(struct rcl_error){0}) &&
	              sb->resync_offset != UINT64_MAX;

	rcl_free(sb);
	return active;
}

/* One writer of md superblocks at a time in this process (member.h). */
static pthread_mutex_t md_writers = PTHREAD_MUTEX_INITIALIZER;

void rcl_soft_md_lock(void)
{
	pthread_mutex_lock(&md_writers);
}

void rcl_soft_md_unlock(void)
{
	pthread_mutex_unlock(&md_writers);
}

uint64_t rcl_soft_md_next_events(uint64_t events, bool clean, bool rollback)
{
	return clean && rollback && events > 1 ? events - 1 : events + 1;
}

enum rcl_status rcl_soft_md_set_clean(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                      bool clean, uint64_t events, struct rcl_error *err)
{
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	enum rcl_status st = sb ? rcl_soft_md_read(fd, sector_size, vd, sb, err)
	                        : rcl_fail(err, RCL_NOMEM, "out of memory");

	if (!st) {
		sb->resync_offset = clean ? UINT64_MAX : 0;
		sb->events = events;
		sb->utime = now_md();
		st = write_sb(fd, super_at(sector_size, vd), sb, err);
	}
	if (!st)
		st = rcl_soft_sync(fd, "md superblock", err);
	rcl_free(sb);
	return st;
}

enum rcl_status rcl_soft_md_write_spare(int fd, int member_fd, unsigned sector_size,
                                        const struct rcl_soft_vd *vd,
                                        const struct rcl_md_super1 *member, unsigned dev,
                                        struct rcl_error *err)
{
	uint64_t at = super_at(sector_size, vd);
	struct rcl_md_super1 *sb = rcl_malloc(sizeof(*sb));
	struct rcl_md_bitmap_super bms;
	struct rcl_guid uuid;
	enum rcl_status st;

	if (!sb)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	*sb = *member;
	sb->dev_number = dev;
	sb->dev_roles[dev] = RCL_MD_ROLE_SPARE;
	sb->utime = now_md();
	/* Nothing of the member's own state: a spare has nothing recovered, no flags. */
	sb->feature_map &= ~(uint32_t)RCL_MD_FEATURE_RECOVERY_OFFSET;
	sb->recovery_offset = 0;
	sb->devflags = 0;
	sb->cnt_corrected_read = 0;
	st = rcl_guid_random(&uuid, err);
	memcpy(sb->device_uuid, uuid.b, 16);
	if (!st && (sb->feature_map & RCL_MD_FEATURE_BITMAP_OFFSET)) {
		st = read_bitmap(member_fd, at, member, &bms, err);
		bms.events = bms.events_cleared = sb->events;
		if (!st)
			st = write_bitmap_area(fd, at + (int64_t)sb->bitmap_offset * 512, &bms,
			                       false, err);
	}
	if (!st)
		st = write_sb(fd, at, sb, err);
	rcl_free(sb);
	return st ? st : rcl_soft_sync(fd, "md superblock", err);
}
