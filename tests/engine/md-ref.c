// SPDX-License-Identifier: MIT
/*
 * md-ref.c - md's address arithmetic and GF(2^8), the tests' reference
 * (see md-ref.h).
 */
#include "md-ref.h"

unsigned mdref_raid0(unsigned n, unsigned chunk, uint64_t s, uint64_t *dev_sector)
{
	uint64_t in_chunk = s % chunk, chunk_no = s / chunk;

	*dev_sector = chunk_no / n * chunk + in_chunk;
	return (unsigned)(chunk_no % n);
}

uint64_t mdref_raid56(int level, unsigned n, unsigned chunk, uint64_t s, unsigned *dd, unsigned *pd,
                      unsigned *qd)
{
	unsigned data_disks = n - (level == 6 ? 2 : 1);
	uint64_t chunk_offset = s % chunk, chunk_number = s / chunk;
	uint64_t stripe = chunk_number / data_disks;

	*dd = (unsigned)(chunk_number % data_disks);
	if (level == 5) {
		/* ALGORITHM_LEFT_SYMMETRIC */
		*pd = data_disks - (unsigned)(stripe % n);
		*dd = (*pd + 1 + *dd) % n;
		*qd = ~0u;
	} else {
		*pd = n - 1 - (unsigned)(stripe % n);
		*qd = (*pd + 1) % n;
		*dd = (*pd + 2 + *dd) % n;
	}
	return stripe * chunk + chunk_offset;
}

unsigned mdref_raid6_slot(unsigned n, unsigned pd, unsigned qd, unsigned dev)
{
	/* raid6_d0(): the first data slot is the device after Q, then onwards. */
	unsigned slot = 0;

	for (unsigned i = (qd + 1) % n; i != dev; i = (i + 1) % n)
		if (i != pd && i != qd)
			slot++;
	return slot;
}

unsigned mdref_raid10(unsigned n, unsigned chunk, uint64_t s, unsigned copy, uint64_t *dev_sector)
{
	uint64_t chunk_no = s / chunk * 2, stripe = chunk_no / n;
	unsigned dev = (unsigned)(chunk_no % n);
	uint64_t sector = stripe * chunk + s % chunk;

	for (unsigned c = 0; c < copy; c++) {
		dev++;
		if (dev >= n) {
			dev = 0;
			sector += chunk;
		}
	}
	*dev_sector = sector;
	return dev;
}

unsigned mdref_copies(const struct mdref_vd *vd)
{
	return vd->array.level == 1 ? vd->array.n : vd->array.level == 10 ? 2 : 1;
}

/* Array sector @s of @a: the device and the sector in its data. */
static unsigned array_place(const struct mdref_array *a, uint64_t s, unsigned copy,
                            uint64_t *sector)
{
	unsigned dev, pd, qd;

	switch (a->level) {
	case 0:
		return mdref_raid0(a->n, a->chunk, s, sector);
	case 1:
		*sector = s;
		return copy;
	case 10:
		return mdref_raid10(a->n, a->chunk, s, copy, sector);
	default:
		*sector = mdref_raid56(a->level, a->n, a->chunk, s, &dev, &pd, &qd);
		return dev;
	}
}

unsigned mdref_place(const struct mdref_vd *vd, uint64_t s, unsigned copy, uint64_t *sector)
{
	unsigned span = 0, dev;

	if (vd->top.n) {
		span = array_place(&vd->top, s, 0, &s);
		s += vd->top.data_offset;
	}
	dev = array_place(&vd->array, s, copy, sector);
	*sector += vd->part + vd->array.data_offset;
	return span * vd->array.n + dev;
}

uint8_t mdref_gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1d : 0));
		b >>= 1;
	}
	return r;
}

uint8_t mdref_gf_pow2(unsigned e)
{
	uint8_t r = 1;

	while (e--)
		r = mdref_gf_mul(r, 2);
	return r;
}
