/* SPDX-License-Identifier: MIT */
/*
 * sweep-private.h - what the background operations (sweep.h) share:
 * ranges cut into batches under the volume's read lock, positions mapped
 * to VD bytes, stripes' strips in one scratch block, and block compares.
 */
#ifndef RCL_SOFT_SWEEP_PRIVATE_H
#define RCL_SOFT_SWEEP_PRIVATE_H

#include "sweep.h"
#include "soft/engine/volume-private.h"

/* One batch [@from, @to) of a sweep, run with the volume's read lock held. */
typedef int (*rcl_soft_sweep_fn)(struct rcl_soft_volume *vol, uint64_t from, uint64_t to,
                                 void *arg);

/* rcl_soft_sweep_valid() - 0 when [@from, @to) is a range of positions, else -EINVAL. */
int rcl_soft_sweep_valid(const struct rcl_soft_volume *vol, uint64_t from, uint64_t to);

/*
 * rcl_soft_sweep_run() - @fn over [@from, @to) in batches of
 * rcl_soft_sweep_step(), each under the volume's read lock, until one
 * fails. Return: 0, -EINVAL (see rcl_soft_sweep_valid()), or @fn's error.
 */
int rcl_soft_sweep_run(struct rcl_soft_volume *vol, uint64_t from, uint64_t to,
                       rcl_soft_sweep_fn fn, void *arg);

/*
 * rcl_soft_sweep_vd_at() - the VD byte where the data of position @pos's
 * rows begins: 0 at 0 and the capacity at the extent, never decreasing,
 * so consecutive ranges of positions map to consecutive VD ranges.
 */
uint64_t rcl_soft_sweep_vd_at(const struct rcl_soft_volume *vol, uint64_t pos);

/*
 * rcl_soft_sweep_mismatch() - the sectors of the 4 KiB blocks (sectors,
 * when larger) of @len bytes in which any of @pairs buffers @a[i]
 * differs from @b[i].
 */
uint64_t rcl_soft_sweep_mismatch(const struct rcl_soft_volume *vol, unsigned pairs,
                                 const uint8_t *const *a, const uint8_t *const *b, size_t len);

/* Strip @role of the @i-th stripe of a batch, in a block of @a->n strips per stripe. */
static inline uint8_t *rcl_soft_sweep_strip(uint8_t *block, const struct rcl_soft_array *a,
                                            uint64_t i, unsigned role)
{
	return block + (i * a->n + role) * a->chunk;
}

#endif /* RCL_SOFT_SWEEP_PRIVATE_H */
