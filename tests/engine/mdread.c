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
 * Every copy of a mirrored sector must be the same, as md may read any.
 * Exit status: 0; 1 bad usage or an I/O error; 2 no md superblock where
 * expected; 3 the copies of a sector differ.
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

static int fds[MAX_MEMBERS];

static uint64_t le(const uint8_t *p, int width)
{
	uint64_t v = 0;

	for (int i = width - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The md array whose superblock is at byte @at of member @m; false when there is none. */
static bool read_super(unsigned m, uint64_t at, struct mdref_array *a)
{
	uint8_t sb[256];

	if (pread(fds[m], sb, sizeof(sb), (off_t)at) != (ssize_t)sizeof(sb) ||
	    le(sb, 4) != SB_MAGIC)
		return false;
	/* mdp_superblock_1: level at 72, chunksize at 88, raid_disks at 92, data_offset at 128. */
	*a = (struct mdref_array){(int)le(sb + 72, 4), (unsigned)le(sb + 92, 4),
	                          (unsigned)le(sb + 88, 4), le(sb + 128, 8)};
	return a->n && a->n <= MAX_MEMBERS;
}

/* The VD as md assembles it from @members drives whose partitions start at @lba. */
static bool md_view(uint64_t lba, unsigned members, struct mdref_vd *vd)
{
	uint64_t top_sector;
	unsigned dev;

	*vd = (struct mdref_vd){.part = lba, .spans = 1};
	if (!read_super(0, lba * 512 + 4096, &vd->array))
		return false;
	if (vd->array.n == members)
		return true;
	/* RAID50/60: the top raid0's superblock is 4 KiB into the first span's array. */
	vd->spans = members / vd->array.n;
	dev = mdref_place(&(struct mdref_vd){.part = lba, .spans = 1, .array = vd->array}, 8, 0,
	                  &top_sector);
	return read_super(dev, top_sector * 512, &vd->top) && vd->top.level == 0 &&
	       vd->top.n == vd->spans;
}

/* VD sector @s into @out; every copy must agree. Return: the exit status. */
static int read_sector(const struct mdref_vd *vd, uint64_t s, uint8_t *out)
{
	uint8_t other[512];

	for (unsigned c = 0; c < mdref_copies(vd); c++) {
		uint64_t at;
		unsigned m = mdref_place(vd, s, c, &at);

		if (pread(fds[m], c ? other : out, 512, (off_t)(at * 512)) != 512) {
			perror("mdread: a member");
			return 1;
		}
		if (c && memcmp(other, out, 512)) {
			fprintf(stderr, "mdread: VD sector %llu: copy %u differs from copy 0\n",
			        (unsigned long long)s, c);
			return 3;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned members = (unsigned)(argc - 4);
	uint64_t lba, len;
	struct mdref_vd vd;
	uint8_t *buf;
	int rc = 0;
	FILE *out;

	if (argc < 5 || members > MAX_MEMBERS ||
	    sscanf(argv[1], "%llu", (unsigned long long *)&lba) != 1 ||
	    sscanf(argv[2], "%llu", (unsigned long long *)&len) != 1 || len % 512) {
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
	if (!md_view(lba, members, &vd)) {
		fprintf(stderr, "mdread: no md superblock of %u members at LBA %llu\n", members,
		        (unsigned long long)lba);
		return 2;
	}
	buf = malloc(len ? len : 1);
	out = fopen(argv[3], "wb");
	if (!buf || !out) {
		perror(argv[3]);
		return 1;
	}
	for (uint64_t s = 0; s < len / 512 && !rc; s++)
		rc = read_sector(&vd, s, buf + s * 512);
	if (!rc && fwrite(buf, 1, len, out) != len)
		rc = 1;
	if (fclose(out))
		rc = rc ? rc : 1;
	free(buf);
	return rc;
}
