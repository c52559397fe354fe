/* SPDX-License-Identifier: MIT */
/*
 * stripe-lock.h - a volume's stripe locks: a fixed table of mutexes that
 * stripes hash into, so writers to one stripe (and readers that
 * reconstruct from it) never interleave while other stripes go on in
 * parallel. A request gathers the stripes it touches into a set and locks
 * the set's buckets in ascending order, so two requests never deadlock.
 */
#ifndef RCL_SOFT_STRIPE_LOCK_H
#define RCL_SOFT_STRIPE_LOCK_H

#include <pthread.h>
#include <stdint.h>

#define RCL_SOFT_STRIPE_LOCKS 1024

struct rcl_soft_stripe_locks {
	pthread_mutex_t bucket[RCL_SOFT_STRIPE_LOCKS];
};

/* struct rcl_soft_lockset - the buckets one request holds or will hold. */
struct rcl_soft_lockset {
	uint64_t bits[RCL_SOFT_STRIPE_LOCKS / 64];
};

void rcl_soft_stripe_locks_init(struct rcl_soft_stripe_locks *locks);
void rcl_soft_stripe_locks_destroy(struct rcl_soft_stripe_locks *locks);

/* rcl_soft_lockset_add() - add stripe @stripe of array @array to @set. */
void rcl_soft_lockset_add(struct rcl_soft_lockset *set, unsigned array, uint64_t stripe);

/* rcl_soft_lockset_lock(), _unlock() - take or release every bucket of @set. */
void rcl_soft_lockset_lock(struct rcl_soft_stripe_locks *locks, const struct rcl_soft_lockset *set);
void rcl_soft_lockset_unlock(struct rcl_soft_stripe_locks *locks,
                             const struct rcl_soft_lockset *set);

#endif /* RCL_SOFT_STRIPE_LOCK_H */
