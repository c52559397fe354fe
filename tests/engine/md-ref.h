/* SPDX-License-Identifier: MIT */
/*
 * md-ref.h - Linux md's address arithmetic, written out again for the
 * engine's tests from md's own definitions (drivers/md raid0.c map_sector
 * with one zone, raid1.c, raid5.c raid5_compute_sector and raid6's
 * syndrome slot order, raid10.c raid10_find_phys), in 512-byte sectors as
 * md counts, sharing no code with lib/soft/engine/stripe.c. Also GF(2^8) with
 * md's polynomial 0x11d, one bit at a time.
 */
#ifndef RCL_MD_REF_H
#define RCL_MD_REF_H

#include <stddef.h>
#include <stdint.h>

/* raid0 over @n equal devices: the device and sector on it of array sector @s. */
unsigned mdref_raid0(unsigned n, unsigned chunk, uint64_t s, uint64_t *dev_sector);

/*
 * raid5 (@level 5) or raid6 (6), left-symmetric, over @n devices: array
 * sector @s lies on device *@dd at the returned sector; its stripe's
 * parity is on *@pd and (raid6) Q on *@qd.
 */
uint64_t mdref_raid56(int level, unsigned n, unsigned chunk, uint64_t s, unsigned *dd, unsigned *pd,
                      unsigned *qd);

/* raid6: the syndrome slot (Q coefficient exponent) of data device @dev. */
unsigned mdref_raid6_slot(unsigned n, unsigned pd, unsigned qd, unsigned dev);

/* raid10 near=2 over @n devices: array sector @s's copy @copy (0 or 1). */
unsigned mdref_raid10(unsigned n, unsigned chunk, uint64_t s, unsigned copy, uint64_t *dev_sector);

/**
 * struct mdref_array - one md array's shape as its superblock gives it.
 * @level:	0, 1, 5, 6 or 10.
 * @n:		raid_disks.
 * @chunk:	chunksize in sectors.
 * @data_offset: where each member's data starts, in sectors of the member.
 */
struct mdref_array {
	int level;
	unsigned n;
	unsigned chunk;
	uint64_t data_offset;
};

/**
 * struct mdref_vd - a VD: @array on every member partition (starting at
 * drive sector @part), or, when @spans is above 1 or @top.n is set, a raid0
 * @top over @spans such arrays, each on @array.n consecutive members.
 */
struct mdref_vd {
	uint64_t part;
	unsigned spans;
	struct mdref_array top;
	struct mdref_array array;
};

/* mdref_copies() - how many copies @vd keeps of each sector. */
unsigned mdref_copies(const struct mdref_vd *vd);

/*
 * mdref_place() - copy @copy of VD sector @s: the member (in member order)
 * and the drive sector on it.
 */
unsigned mdref_place(const struct mdref_vd *vd, uint64_t s, unsigned copy, uint64_t *sector);

/* GF(2^8) with polynomial 0x11d: a * b, and 2^e. */
uint8_t mdref_gf_mul(uint8_t a, uint8_t b);
uint8_t mdref_gf_pow2(unsigned e);

#endif /* RCL_MD_REF_H */
