// SPDX-License-Identifier: MIT
/*
 * stripe-lock.c - hashed stripe locks (see stripe-lock.h).
 */
#include "stripe-lock.h"

_Static_assert(RCL_SOFT_STRIPE_LOCKS == 1 << 10, "the hash keeps 10 bits");

void rcl_soft_stripe_locks_init(struct rcl_soft_stripe_locks *locks)
{
	for (unsigned i = 0; i < RCL_SOFT_STRIPE_LOCKS; i++)
		pthread_mutex_init(&locks->bucket[i], NULL);
}

void rcl_soft_stripe_locks_destroy(struct rcl_soft_stripe_locks *locks)
{
	for (unsigned i = 0; i < RCL_SOFT_STRIPE_LOCKS; i++)
		pthread_mutex_destroy(&locks->bucket[i]);
}

void rcl_soft_lockset_add(struct rcl_soft_lockset *set, unsigned array, uint64_t stripe)
{
	/* Fibonacci hashing: neighbouring stripes land in different buckets. */
	uint64_t h = (stripe * 8 + array) * 0x9e3779b97f4a7c15ull;
	unsigned b = (unsigned)(h >> 54); /* the top 10 bits: 0 .. 1023 */

	set->bits[b / 64] |= 1ull << (b % 64);
}

void rcl_soft_lockset_lock(struct rcl_soft_stripe_locks *locks, const struct rcl_soft_lockset *set)
{
	for (unsigned w = 0; w < RCL_SOFT_STRIPE_LOCKS / 64; w++)
		for (uint64_t bits = set->bits[w]; bits; bits &= bits - 1)
			pthread_mutex_lock(&locks->bucket[w * 64 + __builtin_ctzll(bits)]);
}

void rcl_soft_lockset_unlock(struct rcl_soft_stripe_locks *locks,
                             const struct rcl_soft_lockset *set)
{
	for (unsigned w = 0; w < RCL_SOFT_STRIPE_LOCKS / 64; w++)
		for (uint64_t bits = set->bits[w]; bits; bits &= bits - 1)
			pthread_mutex_unlock(&locks->bucket[w * 64 + __builtin_ctzll(bits)]);
}
