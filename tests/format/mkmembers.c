// SPDX-License-Identifier: MIT
/*
 * mkmembers.c - write md array members the way the soft RAID engine lays
 * them out, for test-md-oracle.py to show to sgdisk, sfdisk and mdadm.
 *
 * Usage: mkmembers DIR [plain|stack|stack0]. For each array below, one sparse image
 * per member in DIR: a GPT with one Linux RAID partition from the first
 * 1 MiB boundary to the last usable sector (as "sgdisk -n 1:0:0" makes
 * it), so the data area is not a whole number of chunks. In it an md v1.2
 * superblock and, except for RAID0, an internal bitmap; all clean. Prints
 * a JSON array describing every member, with what mdadm should report.
 *
 * With "plain", the arrays are those mdadm makes with its defaults on
 * small drives (no bitmap below 100 GB) or with a data offset of its
 * user's choice (mdadm --data-offset), for import tests; the RAID1s'
 * members hold a pattern (mkmembers_pattern() in test-md-foreign.py):
 * sector k of the array is k, as 8 little-endian bytes, 64 times.
 *
 * With "stack", an md RAID0 over two md RAID5s ("p50-0-*", "p50-1-*"),
 * as "mdadm --create /dev/md2 -l0 -n2 /dev/md0 /dev/md1" makes it over two
 * 3-member RAID5s: the RAID0's superblock 4 KiB into each RAID5's data,
 * the RAID0 holding the pattern, the RAID5s' parity in place. With
 * "stack0", the same over two 2-member md RAID0s ("p00-0-*", "p00-1-*").
 */
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "soft/format/gpt.h"
#include "soft/config/layout.h"
#include "soft/format/md-bitmap.h"
#include "soft/format/md-super1.h"

#define MIB         (1ull << 20)
#define IMAGE_BYTES (96 * MIB)
#define EVENTS      7

/*
 * @data_offset: sectors, instead of mdadm's default (0).
 * @fill:	RAID1: the members hold the pattern.
 */
struct array {
	const char *name;
	struct rcl_md_shape shape;
	unsigned spares;
	unsigned sector_size;
	uint64_t data_offset;
	bool fill;
};

static const struct array arrays[] = {
    {"r0", {RCL_MD_LEVEL_RAID0, 0, 3, 1024, false}, 0, 512, 0, false},
    {"r1", {RCL_MD_LEVEL_RAID1, 0, 2, 0, true}, 0, 512, 0, false},
    {"r5", {RCL_MD_LEVEL_RAID5, RCL_MD_LAYOUT_LEFT_SYMMETRIC, 4, 128, true}, 0, 512, 0, false},
    {"r6", {RCL_MD_LEVEL_RAID6, RCL_MD_LAYOUT_LEFT_SYMMETRIC, 5, 1024, true}, 0, 512, 0, false},
    {"r10", {RCL_MD_LEVEL_RAID10, RCL_MD_LAYOUT_RAID10_NEAR2, 4, 1024, true}, 0, 512, 0, false},
    {"r5spare", {RCL_MD_LEVEL_RAID5, RCL_MD_LAYOUT_LEFT_SYMMETRIC, 3, 128, true}, 1, 512, 0, false},
    {"r1-4k", {RCL_MD_LEVEL_RAID1, 0, 2, 0, true}, 0, 4096, 0, false},
    {.name = NULL},
};

static const struct array plain[] = {
    {"p1", {RCL_MD_LEVEL_RAID1, 0, 2, 0, false}, 0, 512, 0, true},
    {"p1off", {RCL_MD_LEVEL_RAID1, 0, 2, 0, true}, 0, 512, 8192, true},
    {"p5", {RCL_MD_LEVEL_RAID5, RCL_MD_LAYOUT_LEFT_SYMMETRIC, 3, 1024, false}, 0, 512, 0, false},
    {"p10", {RCL_MD_LEVEL_RAID10, RCL_MD_LAYOUT_RAID10_NEAR2, 4, 1024, false}, 0, 512, 0, false},
    {.name = NULL},
};

static void die(const char *what, const struct rcl_error *err)
{
	fprintf(stderr, "mkmembers: %s: %s\n", what, err ? err->msg : "failed");
	exit(1);
}

static void pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	if (pwrite(fd, buf, len, (off_t)off) != (ssize_t)len)
		die("pwrite", NULL);
}

static void hex_uuid(const uint8_t *u, char *out)
{
	/* mdadm's form: 4-byte groups joined by ':'. */
	for (int i = 0, pos = 0; i < 16; i++)
		pos += sprintf(out + pos, "%s%02x", i && !(i % 4) ? ":" : "", u[i]);
}

/* The GPT: one Linux RAID partition, 1 MiB aligned, to the end. */
static struct rcl_gpt_part *gpt_layout(const struct array *a, struct rcl_gpt *gpt)
{
	struct rcl_error err = {0};
	struct rcl_gpt_part *p = &gpt->parts[0];
	if (rcl_gpt_init(gpt, IMAGE_BYTES, a->sector_size, &err) || rcl_guid_random(&p->guid, &err))
		die("gpt", &err);
	p->type = rcl_gpt_type_linux_raid;
	p->first_lba = rcl_gpt_first_aligned_lba(gpt);
	p->last_lba = gpt->last_usable;
	snprintf(p->name, sizeof(p->name), "raidcli %s", a->name);
	return p;
}

static struct rcl_gpt_part *write_gpt(int fd, const struct array *a, struct rcl_gpt *gpt)
{
	struct rcl_error err = {0};
	struct rcl_gpt_part *p = gpt_layout(a, gpt);

	if (rcl_gpt_write(fd, gpt, &err))
		die("gpt write", &err);
	return p;
}

static void fill_super(struct rcl_md_super1 *sb, const struct array *a,
                       const struct rcl_md_geometry *geo, const uint8_t *uuid, unsigned member)
{
	struct rcl_error err = {0};
	struct rcl_guid dev_uuid;

	if (rcl_md_super1_init(sb, &a->shape, geo, a->shape.raid_disks + a->spares, &err) ||
	    rcl_guid_random(&dev_uuid, &err))
		die("superblock", &err);
	memcpy(sb->set_uuid, uuid, 16);
	memcpy(sb->device_uuid, dev_uuid.b, 16);
	snprintf(sb->set_name, sizeof(sb->set_name), "raidcli:%s", a->name);
	sb->ctime = sb->utime = (uint64_t)time(NULL);
	sb->dev_number = member;
	sb->events = EVENTS;
	sb->resync_offset = UINT64_MAX; /* clean */
	for (unsigned i = 0; i < a->shape.raid_disks; i++)
		sb->dev_roles[i] = (uint16_t)i;
}

/* The md superblock at 4 KiB into the partition, the bitmap after it. */
static void write_md(int fd, uint64_t part_off, const struct rcl_md_super1 *sb,
                     const struct rcl_md_geometry *geo)
{
	struct rcl_md_bitmap_super bms;
	struct rcl_error err = {0};
	uint8_t buf[RCL_MD_SB_AREA];

	if (rcl_md_super1_encode(sb, buf, sizeof(buf), &err))
		die("encode", &err);
	pwrite_all(fd, buf, sizeof(buf), part_off + sb->super_offset * 512);
	if (!geo->bitmap_offset)
		return;
	rcl_md_bitmap_super_init(&bms, sb, geo);
	/* Clean array: every bit stays zero, so the superblock is enough. */
	if (rcl_md_bitmap_encode(&bms, buf, RCL_MD_BITMAP_SB_BYTES, &err))
		die("bitmap", &err);
	pwrite_all(fd, buf, RCL_MD_BITMAP_SB_BYTES,
	           part_off + (sb->super_offset + (uint64_t)sb->bitmap_offset) * 512);
}

/* mdadm --data-offset: the data moves, the rest of the member is data. */
static void move_data(const struct array *a, uint64_t dev_sectors, struct rcl_md_geometry *geo)
{
	uint64_t round = a->shape.chunk_sectors ? a->shape.chunk_sectors : 128;

	geo->data_offset = a->data_offset;
	geo->data_size = dev_sectors - geo->data_offset;
	geo->size = a->shape.level == RCL_MD_LEVEL_RAID0 ? 0 : geo->data_size / round * round;
}

/* The pattern over the array's @sectors, on a RAID1 member's data at @at. */
static void fill(int fd, uint64_t at, uint64_t sectors)
{
	static uint8_t buf[1 << 20];

	for (uint64_t k = 0; k < sectors;) {
		size_t n = 0;

		for (; n < sizeof(buf) / 512 && k < sectors; n++, k++)
			for (unsigned i = 0; i < 64; i++)
				for (unsigned b = 0; b < 8; b++)
					buf[n * 512 + i * 8 + b] = (uint8_t)(k >> (8 * b));
		pwrite_all(fd, buf, n * 512, at + (k - n) * 512);
	}
}

static void describe(json_object *out, const char *image, const struct array *a,
                     const struct rcl_gpt_part *p, const struct rcl_md_super1 *sb,
                     const struct rcl_md_geometry *geo)
{
	json_object *m = json_object_new_object();
	char text[64];
	uint16_t role = rcl_md_super1_role(sb);

	json_object_object_add(m, "array", json_object_new_string(a->name));
	json_object_object_add(m, "image", json_object_new_string(image));
	json_object_object_add(m, "sector_size", json_object_new_int(a->sector_size));
	json_object_object_add(m, "first_lba", json_object_new_int64((int64_t)p->first_lba));
	json_object_object_add(m, "last_lba", json_object_new_int64((int64_t)p->last_lba));
	rcl_guid_to_string(&p->guid, text);
	json_object_object_add(m, "part_guid", json_object_new_string(text));
	json_object_object_add(m, "part_name", json_object_new_string(p->name));
	json_object_object_add(m, "level", json_object_new_int(sb->level));
	json_object_object_add(m, "chunk_sectors", json_object_new_int((int)sb->chunksize));
	json_object_object_add(m, "raid_disks", json_object_new_int((int)sb->raid_disks));
	hex_uuid(sb->set_uuid, text);
	json_object_object_add(m, "uuid", json_object_new_string(text));
	hex_uuid(sb->device_uuid, text);
	json_object_object_add(m, "device_uuid", json_object_new_string(text));
	json_object_object_add(m, "name", json_object_new_string(sb->set_name));
	json_object_object_add(m, "data_offset", json_object_new_int64((int64_t)sb->data_offset));
	json_object_object_add(m, "data_size", json_object_new_int64((int64_t)sb->data_size));
	json_object_object_add(m, "size", json_object_new_int64((int64_t)sb->size));
	json_object_object_add(m, "role",
	                       role == RCL_MD_ROLE_SPARE ? json_object_new_string("spare")
	                                                 : json_object_new_int(role));
	json_object_object_add(m, "events", json_object_new_int64((int64_t)sb->events));
	json_object_object_add(m, "bitmap_offset", json_object_new_int(sb->bitmap_offset));
	json_object_object_add(m, "bitmap_chunk", json_object_new_int64(geo->bitmap_chunk));
	json_object_object_add(m, "bitmap_sync_size",
	                       json_object_new_int64((int64_t)geo->bitmap_sync_size));
	json_object_object_add(
	    m, "bitmap_bits",
	    json_object_new_int64(geo->bitmap_chunk ? (int64_t)rcl_md_bitmap_bits(
	                                                  geo->bitmap_sync_size, geo->bitmap_chunk)
	                                            : 0));
	json_object_array_add(out, m);
}

static void make_member(const char *dir, const struct array *a, const struct rcl_guid *uuid,
                        unsigned member, json_object *out)
{
	struct rcl_error err = {0};
	struct rcl_md_geometry geo;
	struct rcl_md_super1 sb;
	struct rcl_gpt gpt;
	struct rcl_gpt_part *p;
	uint64_t part_off;
	char image[4096];
	int fd;

	snprintf(image, sizeof(image), "%s/%s-%u.img", dir, a->name, member);
	fd = open(image, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)IMAGE_BYTES) < 0)
		die(image, NULL);
	p = write_gpt(fd, a, &gpt);
	part_off = p->first_lba * a->sector_size;
	if (rcl_md_super1_geometry((p->last_lba + 1 - p->first_lba) * a->sector_size / 512,
	                           &a->shape, &geo, &err))
		die("geometry", &err);
	if (a->data_offset)
		move_data(a, (p->last_lba + 1 - p->first_lba) * a->sector_size / 512, &geo);
	fill_super(&sb, a, &geo, uuid->b, member);
	write_md(fd, part_off, &sb, &geo);
	if (a->fill)
		fill(fd, part_off + geo.data_offset * 512, geo.size);
	if (close(fd) < 0)
		die(image, NULL);
	describe(out, image, a, p, &sb, &geo);
}

/* The pattern's sector @k, or zeros past the array's @sectors. */
static void pattern(uint8_t *sector, uint64_t k, uint64_t sectors)
{
	for (unsigned i = 0; i < 64; i++)
		for (unsigned b = 0; b < 8; b++)
			sector[i * 8 + b] = k < sectors ? (uint8_t)(k >> (8 * b)) : 0;
}

/*
 * Chunk @chunk of span @span's RAID5 data, as the RAID0 @top over @spans
 * of them lays its pattern there: its superblock in chunk 0, its data
 * from its data offset, chunks taking turns over the spans.
 */
static void stack_chunk(uint8_t *buf, const struct rcl_md_super1 *top, unsigned spans,
                        unsigned span, uint64_t chunk)
{
	uint64_t cs = top->chunksize, used = top->data_size / cs * cs * spans;
	struct rcl_error err = {0};

	memset(buf, 0, cs * 512);
	if (!chunk &&
	    rcl_md_super1_encode(top, buf + top->super_offset * 512, RCL_MD_SB_AREA, &err))
		die("encode", &err);
	for (uint64_t i = 0; i < cs; i++) {
		uint64_t x = chunk * cs + i, y, k;

		if (x < top->data_offset)
			continue;
		y = x - top->data_offset;
		k = (y / cs * spans + span) * cs + y % cs;
		pattern(buf + i * 512, k, used);
	}
}

/* Span @span of the stack: its RAID5 or RAID0 members, their data laid out by md (with parity). */
static void make_span(const char *dir, const struct array *a, unsigned span,
                      const struct rcl_guid *top_uuid, json_object *out)
{
	unsigned n = a->shape.raid_disks, cs = a->shape.chunk_sectors;
	unsigned k = n - (a->shape.level == RCL_MD_LEVEL_RAID5);
	uint64_t used;
	struct rcl_md_shape top_shape = {RCL_MD_LEVEL_RAID0, 0, 2, cs, false};
	struct rcl_md_geometry geo, top_geo;
	struct rcl_md_super1 top;
	struct rcl_error err = {0};
	struct rcl_guid uuid;
	struct rcl_gpt gpt;
	uint8_t *buf = malloc((size_t)(k + 1) * cs * 512); /* data strips, then parity */
	struct rcl_gpt_part *p = gpt_layout(a, &gpt);
	uint64_t part_off = p->first_lba * 512, sectors = p->last_lba + 1 - p->first_lba;
	int fds[RCL_MD_MAX_DEV];

	if (!buf || rcl_guid_random(&uuid, &err))
		die("span", &err);
	for (unsigned m = 0; m < n; m++) {
		char image[4096];

		make_member(dir, a, &uuid, m, out);
		snprintf(image, sizeof(image), "%s/%s-%u.img", dir, a->name, m);
		if ((fds[m] = open(image, O_RDWR | O_CLOEXEC)) < 0)
			die(image, NULL);
	}
	if (rcl_md_super1_geometry(sectors, &a->shape, &geo, &err))
		die("geometry", &err);
	/* md's raid0 has no size of its own: it uses each member's data in whole chunks. */
	used = geo.size ? geo.size : geo.data_size / cs * cs;
	if (rcl_md_super1_geometry(used * k, &top_shape, &top_geo, &err))
		die("geometry", &err);
	fill_super(&top, &(struct array){k < n ? "p50" : "p00", top_shape, 0, 512, 0, false},
	           &top_geo, top_uuid->b, span);
	for (uint64_t t = 0; t < used / cs; t++) {
		uint8_t *parity = buf + (size_t)k * cs * 512;

		memset(parity, 0, (size_t)cs * 512);
		for (unsigned d = 0; d < k; d++) {
			unsigned member;
			uint64_t at;

			rcl_soft_chunk_member(a->shape.level, n, t * k + d, &member, &at);
			stack_chunk(buf + (size_t)d * cs * 512, &top, 2, span, t * k + d);
			for (size_t b = 0; b < (size_t)cs * 512; b++)
				parity[b] ^= buf[(size_t)d * cs * 512 + b];
			pwrite_all(fds[member], buf + (size_t)d * cs * 512, (size_t)cs * 512,
			           part_off + (geo.data_offset + at * cs) * 512);
		}
		/* left-symmetric: P walks down from the last member. */
		if (k < n)
			pwrite_all(fds[n - 1 - t % n], parity, (size_t)cs * 512,
			           part_off + (geo.data_offset + t * cs) * 512);
	}
	for (unsigned m = 0; m < n; m++)
		close(fds[m]);
	free(buf);
}

/* mkmembers DIR stack|stack0: an md RAID0 over two md RAID5s (@raid5) or RAID0s. */
static void make_stack(const char *dir, bool raid5, json_object *out)
{
	struct rcl_error err = {0};
	struct rcl_guid top_uuid;

	if (rcl_guid_random(&top_uuid, &err))
		die("uuid", &err);
	for (unsigned s = 0; s < 2; s++) {
		char name[16];
		struct array a = {
		    name,
		    raid5 ? (struct rcl_md_shape){RCL_MD_LEVEL_RAID5, RCL_MD_LAYOUT_LEFT_SYMMETRIC,
		                                  3, 1024, false}
		          : (struct rcl_md_shape){RCL_MD_LEVEL_RAID0, 0, 2, 1024, false},
		    0,
		    512,
		    0,
		    false};

		snprintf(name, sizeof(name), "p%s-%u", raid5 ? "50" : "00", s);
		make_span(dir, &a, s, &top_uuid, out);
	}
}

int main(int argc, char **argv)
{
	json_object *out = json_object_new_array();
	struct rcl_error err = {0};
	const struct array *set = argc == 3 && !strcmp(argv[2], "plain") ? plain : arrays;

	if (argc == 3 && (!strcmp(argv[2], "stack") || !strcmp(argv[2], "stack0"))) {
		make_stack(argv[1], !strcmp(argv[2], "stack"), out);
		set = &plain[sizeof(plain) / sizeof(plain[0]) - 1];
	} else if (argc != 2 && set == arrays) {
		fprintf(stderr, "usage: mkmembers DIR [plain|stack|stack0]\n");
		return 2;
	}
	for (const struct array *a = set; a->name; a++) {
		struct rcl_guid uuid;

		if (rcl_guid_random(&uuid, &err))
			die("uuid", &err);
		for (unsigned m = 0; m < a->shape.raid_disks + a->spares; m++)
			make_member(argv[1], a, &uuid, m, out);
	}
	puts(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY));
	json_object_put(out);
	return 0;
}
