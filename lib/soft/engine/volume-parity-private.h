/* SPDX-License-Identifier: MIT */
/*
 * volume-parity-private.h - what the parity I/O path (volume-parity.c)
 * and its writes through the stripe cache (volume-parity-cache.c) share:
 * the window being served, cut into stripes.
 */
#ifndef RCL_SOFT_VOLUME_PARITY_PRIVATE_H
#define RCL_SOFT_VOLUME_PARITY_PRIVATE_H

#include "volume-private.h"

/**
 * struct pstripe - one stripe a window touches.
 * @lo, @hi:	data role d's rows the window reads or writes: [lo, hi).
 * @user:	the caller's bytes for row @lo of data role d.
 * @touched:	the data roles with rows (bit per role).
 * @lost:	the roles whose members are not usable now.
 */
struct pstripe {
	unsigned array;
	uint64_t stripe;
	uint32_t lo[RCL_SOFT_ARRAY_MAX], hi[RCL_SOFT_ARRAY_MAX];
	uint8_t *user[RCL_SOFT_ARRAY_MAX];
	uint64_t touched;
	uint64_t lost;
};

/* One window being served. */
struct pwin {
	struct rcl_soft_volume *vol;
	const struct vol_window *w;
	enum rcl_soft_op_kind write_kind; /* how the members are written */
	struct pstripe *stripes;
	size_t nstripes;
	struct pseg *segs;
	size_t nsegs;
	struct rcl_soft_op *ops;
	size_t nops;
	struct rcl_soft_lockset locks;
	void *scratch;
};

static inline const struct rcl_soft_array *array_of(const struct pwin *pw, const struct pstripe *p)
{
	return &pw->vol->geo.arrays[p->array];
}

/* rcl_soft_vol_parity_lock_all() - lock every stripe of @pw. */
void rcl_soft_vol_parity_lock_all(struct pwin *pw);

/*
 * rcl_soft_vol_parity_write_stripes() - write @n stripes whose locks are
 * held, each as the way it costs least picks, with member writes of @kind
 * (vol_write_kind()).
 */
int rcl_soft_vol_parity_write_stripes(struct rcl_soft_volume *vol, struct pstripe *stripes,
                                      size_t n, enum rcl_soft_op_kind kind);

/*
 * rcl_soft_vol_parity_write_window() - write a window: whole stripes go to
 * the members at once; a partial one joins its stripe's cached data. Write
 * back (not FUA) leaves it there; write through holds the partial stripes
 * of a sequential stream briefly for the writes that fill them, and writes
 * the others now.
 */
int rcl_soft_vol_parity_write_window(struct pwin *pw);

/*
 * rcl_soft_vol_parity_overlay() - read: copy the cached data of @pw's
 * stripes over what the members gave (locks held).
 */
void rcl_soft_vol_parity_overlay(struct pwin *pw);

/* rcl_soft_vol_parity_any_cached() - whether any of @pw's stripes has cached data not on the
 * members yet. */
bool rcl_soft_vol_parity_any_cached(const struct pwin *pw);

#endif /* RCL_SOFT_VOLUME_PARITY_PRIVATE_H */
