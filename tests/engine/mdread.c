// SPDX-License-Identifier: MIT
/*
 * mdread.c - read a VD from its member drives the way Linux md would
 * assemble it: the shape and data offsets from the md v1.2 superblocks on
 * the drives, the addresses from md-ref.c (md's own formulas, written out
 * apart from the engine), and nothing from raidcli. For tests that check
 * what the members hold once the controller process has stopped.
 *
 * Usage: mdread LBA LEN OUT IMAGE...
 *	LBA:	where the VD's partition starts on each drive (512-byte sectors)
 *	LEN:	the VD's bytes to read into OUT (created)
 *	IMAGE:	the member drives in md role order, span after span
 * md builds each array from every member's own superblock and orders a
 * RAID50/60's spans by the roles in each span's top superblock, so those
 * must all agree with the order given: same array, shape and data offset,
 * each member in its role, none behind the others' events or recovering
 * (md would read it through parity). Every copy of a mirrored sector must
 * be the same, as md may read any; and where md takes a parity array for
 * in sync (clean, bit clear in its bitmap), P and Q must be the data's, as
 * md reads through them once a member is gone.
 * Exit status: 0; 1 bad usage or an I/O error; 2 no md superblock where
 * expected, or superblocks that disagree; 3 the copies of a sector differ;
 * 4 a stripe's parity is not its data's.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "md-ref.h"

#define MAX_MEMBERS 64
#define SB_MAGIC    0xa92b4efcu
#define SB_BYTES    4096
#define BITMAP_SB   256
#define SECTOR      512

static int fds[MAX_MEMBERS];

/**
 * struct super - what md takes from one md v1.2 superblock.
 * @a:		the array's shape and the member's data offset.
 * @uuid:	the array's.
 * @role:	the member's role (dev_roles[dev_number]).
 * @at:		where the superblock is on the member (bytes).
 */
struct super {
	struct mdref_array a;
	uint8_t uuid[16];
	uint64_t events, resync, size, at;
	uint32_t features, bitmap_chunk;
	int32_t bitmap_offset;
	unsigned role;
};

static uint64_t le(const uint8_t *p, int width)
{
	uint64_t v = 0;

	for (int i = width - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The superblock at byte @at of member @m; false when there is none. */
static bool read_super(unsigned m, uint64_t at, struct super *s)
{
	uint8_t sb[SB_BYTES];
	unsigned dev;

	if (pread(fds[m], sb, sizeof(sb), (off_t)at) != (ssize_t)sizeof(sb) ||
	    le(sb, 4) != SB_MAGIC)
		return false;
	/* mdp_superblock_1's offsets (include/uapi/linux/raid/md_p.h). */
	*s = (struct super){.a = {(int)le(sb + 72, 4), (unsigned)le(sb + 92, 4),
	                          (unsigned)le(sb + 88, 4), le(sb + 128, 8)},
	                    .events = le(sb + 200, 8),
	                    .resync = le(sb + 208, 8),
	                    .size = le(sb + 80, 8),
	                    .at = at,
	                    .features = (uint32_t)le(sb + 8, 4),
	                    .bitmap_offset = (int32_t)le(sb + 96, 4)};
	memcpy(s->uuid, sb + 16, sizeof(s->uuid));
	dev = (unsigned)le(sb + 160, 4);
	s->role = dev < le(sb + 220, 4) && 256 + 2 * dev < SB_BYTES
	              ? (unsigned)le(sb + 256 + 2 * dev, 2)
	              : ~0u;
	if (s->features & 1) {
		uint8_t bm[BITMAP_SB];

		if (pread(fds[m], bm, sizeof(bm),
		          (off_t)(at + (int64_t)s->bitmap_offset * SECTOR)) != (ssize_t)sizeof(bm))
			return false;
		s->bitmap_chunk = (uint32_t)le(bm + 52, 4);
	}
	return s->a.n && s->a.n <= MAX_MEMBERS;
}

static bool fail(const char *what, unsigned m)
{
	fprintf(stderr, "mdread: member %u: %s\n", m, what);
	return false;
}

/*
 * Whether @s, on member @m in role @role, is a member of the array whose
 * superblock on its first member is @first (and of the same shape as
 * @shape) that md would read like the others.
 */
static bool agrees(const struct super *s, const struct super *first,
                   const struct mdref_array *shape, unsigned m, unsigned role)
{
	if (memcmp(s->uuid, first->uuid, sizeof(s->uuid)))
		return fail("its superblock is of another md array", m);
	if (s->a.level != shape->level || s->a.n != shape->n || s->a.chunk != shape->chunk)
		return fail("its md superblock says another level, member count or chunk", m);
	if (s->a.data_offset != shape->data_offset)
		return fail("its md superblock says another data offset", m);
	if (s->role != role)
		return fail("md would put it in another role", m);
	if (s->events != first->events)
		return fail(
		    "its events differ from its array's first member's (md keeps the newest)", m);
	/* MD_FEATURE_RECOVERY_OFFSET: md does not take the member for in sync. */
	if (s->features & 2)
		return fail("md would take it as recovering and read its data through parity", m);
	return true;
}

/* The top raid0's superblock of span @span (4 KiB into the span's array); member in *@m. */
static bool read_top(const struct mdref_vd *vd, unsigned span, struct super *s, unsigned *m)
{
	uint64_t sector;

	*m = span * vd->array.n +
	     mdref_place(&(struct mdref_vd){.part = vd->part, .spans = 1, .array = vd->array}, 8, 0,
	                 &sector);
	return read_super(*m, sector * SECTOR, s);
}

/* The VD as md assembles it from @members drives whose partitions start at @lba. */
static bool md_view(uint64_t lba, unsigned members, struct mdref_vd *vd, struct super *supers)
{
	struct super top0;
	unsigned m;

	*vd = (struct mdref_vd){.part = lba, .spans = 1};
	for (m = 0; m < members; m++)
		if (!read_super(m, lba * SECTOR + 4096, &supers[m]))
			return fail("no md superblock", m);
	vd->array = supers[0].a;
	if (members % vd->array.n)
		return fail("its array's member count does not divide the members given", 0);
	vd->spans = members / vd->array.n;
	for (m = 0; m < members; m++)
		if (!agrees(&supers[m], &supers[m - m % vd->array.n], &vd->array, m,
		            m % vd->array.n))
			return false;
	if (vd->spans == 1)
		return true;
	/* RAID50/60: md orders the spans by the roles in their top superblocks. */
	for (unsigned span = 0; span < vd->spans; span++) {
		struct super top;

		if (span && !memcmp(supers[span * vd->array.n].uuid, supers[0].uuid, 16))
			return fail("its span has the first span's array UUID", span * vd->array.n);
		if (!read_top(vd, span, span ? &top : &top0, &m))
			return fail("no top raid0 superblock in its span", m);
		if (!span)
			vd->top = top0.a;
		if (vd->top.level != 0 || vd->top.n != vd->spans ||
		    (span && !agrees(&top, &top0, &vd->top, m, span)))
			return fail("its span's top superblock is not the top raid0's", m);
		if (!span && top0.role)
			return fail("md would not make it the top raid0's first span", m);
	}
	return true;
}

/* VD sector @s into @out; every copy must agree. Return: the exit status. */
static int read_sector(const struct mdref_vd *vd, uint64_t s, uint8_t *out)
{
	uint8_t other[SECTOR];

	for (unsigned c = 0; c < mdref_copies(vd); c++) {
		uint64_t at;
		unsigned m = mdref_place(vd, s, c, &at);

		if (pread(fds[m], c ? other : out, SECTOR, (off_t)(at * SECTOR)) != SECTOR) {
			perror("mdread: a member");
			return 1;
		}
		if (c && memcmp(other, out, SECTOR)) {
			fprintf(stderr, "mdread: VD sector %llu: copy %u differs from copy 0\n",
			        (unsigned long long)s, c);
			return 3;
		}
	}
	return 0;
}

/* Whether md resyncs member sector @row of @s's array before it trusts its parity. */
static bool unsynced(unsigned m, const struct super *s, uint64_t row)
{
	uint64_t bit = row / (s->bitmap_chunk / SECTOR);
	uint8_t byte;

	if (s->resync != UINT64_MAX)
		return true;
	if (!(s->features & 1) || !s->bitmap_chunk)
		return false;
	return pread(fds[m], &byte, 1,
	             (off_t)(s->at + (int64_t)s->bitmap_offset * SECTOR + BITMAP_SB + bit / 8)) !=
	           1 ||
	       byte >> (bit % 8) & 1;
}

static uint8_t gf_mul[256][256];

/* P (and Q) of stripe @stripe of @a, member d's chunk in @rows[d]: 0 when they are the data's. */
static int check_stripe(const struct mdref_array *a, uint64_t stripe, uint8_t **rows)
{
	unsigned parity = a->level == 6 ? 2 : 1, dd, pd, qd;
	size_t bytes = (size_t)a->chunk * SECTOR;
	uint8_t coef[MAX_MEMBERS];

	mdref_raid56(a->level, a->n, a->chunk, stripe * a->chunk * (a->n - parity), &dd, &pd, &qd);
	for (unsigned d = 0; d < a->n; d++)
		coef[d] = parity == 1 || d == pd || d == qd
		              ? 0
		              : mdref_gf_pow2(mdref_raid6_slot(a->n, pd, qd, d));
	for (size_t i = 0; i < bytes; i++) {
		uint8_t p = 0, q = 0;

		for (unsigned d = 0; d < a->n; d++) {
			if (d == pd || d == qd)
				continue;
			p ^= rows[d][i];
			q ^= gf_mul[coef[d]][rows[d][i]];
		}
		if (p != rows[pd][i] || (parity == 2 && q != rows[qd][i]))
			return 4;
	}
	return 0;
}

/* Every stripe md takes for in sync of the parity array on members @first onwards. */
static int check_parity(const struct mdref_vd *vd, const struct super *s, unsigned first)
{
	const struct mdref_array *a = &vd->array;
	size_t bytes = (size_t)a->chunk * SECTOR;
	uint8_t *rows[MAX_MEMBERS];
	int rc = 0;

	for (unsigned d = 0; d < a->n; d++)
		rows[d] = malloc(bytes);
	for (uint64_t stripe = 0; stripe < s->size / a->chunk && !rc; stripe++) {
		uint64_t row = stripe * a->chunk;

		if (unsynced(first, s, row))
			continue;
		for (unsigned d = 0; d < a->n && !rc; d++)
			if (!rows[d] || pread(fds[first + d], rows[d], bytes,
			                      (off_t)((vd->part + a->data_offset + row) *
			                              SECTOR)) != (ssize_t)bytes) {
				perror("mdread: a member");
				rc = 1;
			}
		rc = rc ? rc : check_stripe(a, stripe, rows);
		if (rc == 4)
			fprintf(stderr,
			        "mdread: members %u-%u: stripe %llu: parity is not its data's\n",
			        first, first + a->n - 1, (unsigned long long)stripe);
	}
	for (unsigned d = 0; d < a->n; d++)
		free(rows[d]);
	return rc;
}

static int check_parities(const struct mdref_vd *vd, const struct super *supers)
{
	int rc = 0;

	if (vd->array.level != 5 && vd->array.level != 6)
		return 0;
	for (unsigned x = 0; x < 256; x++)
		for (unsigned y = 0; y < 256; y++)
			gf_mul[x][y] = mdref_gf_mul((uint8_t)x, (uint8_t)y);
	for (unsigned span = 0; span < vd->spans && !rc; span++)
		rc = check_parity(vd, &supers[span * vd->array.n], span * vd->array.n);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned members = (unsigned)(argc - 4);
	struct super supers[MAX_MEMBERS];
	uint64_t lba, len;
	struct mdref_vd vd;
	uint8_t *buf;
	int rc = 0;
	FILE *out;

	if (argc < 5 || members > MAX_MEMBERS ||
	    sscanf(argv[1], "%llu", (unsigned long long *)&lba) != 1 ||
	    sscanf(argv[2], "%llu", (unsigned long long *)&len) != 1 || len % SECTOR) {
		fprintf(stderr, "usage: mdread LBA LEN OUT IMAGE...\n");
		return 1;
	}
	for (unsigned m = 0; m < members; m++) {
		fds[m] = open(argv[4 + m], O_RDONLY | O_CLOEXEC);
		if (fds[m] < 0) {
			perror(argv[4 + m]);
			return 1;
		}
	}
	if (!md_view(lba, members, &vd, supers)) {
		fprintf(stderr, "mdread: md would not read %u members at LBA %llu as one VD\n",
		        members, (unsigned long long)lba);
		return 2;
	}
	buf = malloc(len ? len : 1);
	out = fopen(argv[3], "wb");
	if (!buf || !out) {
		perror(argv[3]);
		return 1;
	}
	for (uint64_t s = 0; s < len / SECTOR && !rc; s++)
		rc = read_sector(&vd, s, buf + s * SECTOR);
	if (!rc && fwrite(buf, 1, len, out) != len)
		rc = 1;
	if (fclose(out))
		rc = rc ? rc : 1;
	free(buf);
	return rc ? rc : check_parities(&vd, supers);
}
