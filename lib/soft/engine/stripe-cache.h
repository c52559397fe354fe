/* SPDX-License-Identifier: MIT */
/*
 * stripe-cache.h - a parity volume's stripe cache: the data of partial
 * stripes written but not yet on the members, one entry per stripe, so
 * that the writes to one stripe share a parity computation and one set of
 * member writes (volume-parity-cache.c does the I/O; this file keeps entries,
 * memory, waiting and the background writer).
 *
 * An entry's data (data_strips x chunk bytes, data role d at d x chunk)
 * and its dirty rows (@lo, @hi, @touched, @lent) belong to whoever holds the
 * stripe's lock (stripe-lock.h). The cache's own mutex guards the table,
 * the memory count and each entry's bookkeeping (@batch, @written,
 * @error, @pins, @dirty, @last_ns); lock order: stripe locks, then that
 * mutex. Writers whose data went into an entry are in its batch @batch;
 * the batch ends when the entry's data is written (@written passes it).
 * An entry is freed once clean and unpinned, by a holder of its stripe lock.
 *
 * Memory: all caches of the process share one budget, RAIDCLI_CACHE_MIB
 * mebibytes from the environment when the first cache is made (default
 * 64, 0 turns caching off); an entry that would pass it is not made and
 * the write goes to the members as it is.
 */
#ifndef RCL_SOFT_STRIPE_CACHE_H
#define RCL_SOFT_STRIPE_CACHE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stripe.h"

struct rcl_soft_stripe_cache;

/**
 * struct rcl_soft_cached - one cached stripe.
 * @data:	the stripe's data strips (aligned for parity.h).
 * @lo, @hi:	data role d's dirty rows [lo, hi), for the roles in @touched.
 * @lent:	per role: NULL when its dirty rows are in @data, else where
 *		they are: in the buffer of a writer that stays until they are
 *		written (a write-through writer waiting for the batch, or the
 *		one writing it), which spares copying them.
 * @batch:	the batch new data joins; @written: batches before it are on
 *		the members (or failed with @error).
 * @laters:	writes that did not wait for its data to be written
 *		(volume-parity-cache.c's hold_later()): they end when it is, and
 *		their buffers are lent until then. Its stripe lock's, like @lo.
 * @pins:	threads that will come back to it (waiters, flushers).
 * @done:	signalled when a batch ends (with the cache's mutex).
 * @dirty:	0 when clean, else when it became dirty (the cache's epoch).
 * @last_ns:	when data last went in (CLOCK_MONOTONIC).
 * @held_ns:	0, or when a write first held it without waiting (_hold());
 *		@hold_wait_ns, @hold_most_ns: how long it may be held then;
 *		@held_for: that write's owner (_unhold()).
 */
struct rcl_soft_cached {
	unsigned array;
	uint64_t stripe;
	uint8_t *data;
	uint32_t lo[RCL_SOFT_ARRAY_MAX], hi[RCL_SOFT_ARRAY_MAX];
	uint64_t touched;
	uint8_t *lent[RCL_SOFT_ARRAY_MAX];
	struct rcl_soft_cache_later *laters;
	uint64_t batch, written;
	int error;
	unsigned pins;
	pthread_cond_t done;
	uint64_t dirty;
	uint64_t last_ns;
	uint64_t held_ns, hold_wait_ns, hold_most_ns;
	const void *held_for;
	size_t bytes;
	void *block;
	struct rcl_soft_cached *next;
};

/* What the background writer should write: see rcl_soft_stripe_cache_new(). */
enum rcl_soft_cache_drain {
	RCL_SOFT_DRAIN_IDLE,     /* entries idle for a while, or held long enough (_hold()) */
	RCL_SOFT_DRAIN_PRESSURE, /* the oldest, until the cache is half empty */
};

/*
 * rcl_soft_stripe_cache_new() - a cache whose background thread calls
 * @drain(@ctx, why) when entries have idled or memory ran short. NULL when
 * out of memory or threads.
 */
struct rcl_soft_stripe_cache *
rcl_soft_stripe_cache_new(void (*drain)(void *ctx, enum rcl_soft_cache_drain), void *ctx);

/* rcl_soft_stripe_cache_stop() - stop the background thread (before the last drain). */
void rcl_soft_stripe_cache_stop(struct rcl_soft_stripe_cache *cache);

/* rcl_soft_stripe_cache_free() - free a stopped cache and its entries. */
void rcl_soft_stripe_cache_free(struct rcl_soft_stripe_cache *cache);

/*
 * rcl_soft_stripe_cache_find() - the entry of stripe @stripe of array
 * @array, or NULL; _get() makes a clean one of @bytes when there is none
 * and the budget allows (else NULL, and the background writer is woken).
 * Both: the stripe's lock held.
 */
struct rcl_soft_cached *rcl_soft_stripe_cache_find(struct rcl_soft_stripe_cache *cache,
                                                   unsigned array, uint64_t stripe);
struct rcl_soft_cached *rcl_soft_stripe_cache_get(struct rcl_soft_stripe_cache *cache,
                                                  unsigned array, uint64_t stripe, size_t bytes);

/* rcl_soft_stripe_cache_dirty() - whether that stripe has data not yet written (no lock). */
bool rcl_soft_stripe_cache_dirty(struct rcl_soft_stripe_cache *cache, unsigned array,
                                 uint64_t stripe);

/* rcl_soft_stripe_cache_touch() - data went into @e (its stripe lock held). */
void rcl_soft_stripe_cache_touch(struct rcl_soft_stripe_cache *cache, struct rcl_soft_cached *e);

/*
 * rcl_soft_stripe_cache_written() - @e's data was written with result @rc
 * (0 or a negative errno) and @e is clean: its batch ends, waiters wake.
 * Its stripe lock held.
 */
void rcl_soft_stripe_cache_written(struct rcl_soft_stripe_cache *cache, struct rcl_soft_cached *e,
                                   int rc);

/*
 * rcl_soft_stripe_cache_pin() - keep @e until _unpin(); return its current
 * batch. _unpin() frees @e if it is clean and nobody else pins it. Both:
 * its stripe lock held.
 */
uint64_t rcl_soft_stripe_cache_pin(struct rcl_soft_stripe_cache *cache, struct rcl_soft_cached *e);
void rcl_soft_stripe_cache_unpin(struct rcl_soft_stripe_cache *cache, struct rcl_soft_cached *e);

/* rcl_soft_stripe_cache_release() - free @e if clean and unpinned (its stripe lock held). */
void rcl_soft_stripe_cache_release(struct rcl_soft_stripe_cache *cache, struct rcl_soft_cached *e);

/*
 * rcl_soft_stripe_cache_begin(), _end() - a write to the cache's volume
 * starts, ends: _wait() counts the writes under way.
 */
void rcl_soft_stripe_cache_begin(struct rcl_soft_stripe_cache *cache);
void rcl_soft_stripe_cache_end(struct rcl_soft_stripe_cache *cache);

/*
 * rcl_soft_stripe_cache_wait() - wait, without locks, for the end of batch
 * @batch of the pinned @e: up to @wait_ns, and on for further @wait_ns
 * turns while other writes are under way (one of them may fill the
 * stripe), up to @most_ns in all. The caller is a write (between _begin()
 * and _end()). Return: true and *@rc its result when it ended; false when
 * the time ran out.
 */
bool rcl_soft_stripe_cache_wait(struct rcl_soft_stripe_cache *cache, struct rcl_soft_cached *e,
                                uint64_t batch, uint64_t wait_ns, uint64_t most_ns, int *rc);

/*
 * rcl_soft_stripe_cache_hold() - a write holds @e for its neighbours
 * without waiting (its stripe lock held): the background writer writes
 * @e when nobody has for the time _wait() would have waited, @wait_ns
 * since data last went in and on while other writes are under way, up to
 * @most_ns since the first such hold, or once released for @owner, that
 * write's owner (_unhold()).
 */
void rcl_soft_stripe_cache_hold(struct rcl_soft_stripe_cache *cache, struct rcl_soft_cached *e,
                                uint64_t wait_ns, uint64_t most_ns, const void *owner);

/*
 * rcl_soft_stripe_cache_unhold() - the entries first held for @owner are
 * held no longer: _pick() takes them as due. Return: whether there were any.
 */
bool rcl_soft_stripe_cache_unhold(struct rcl_soft_stripe_cache *cache, const void *owner);

/*
 * rcl_soft_stripe_cache_pick() - a dirty entry to write, pinned, or NULL:
 * for @why IDLE, one idle for @idle_ns or held long enough; PRESSURE, the oldest while more
 * than half the budget is in use; with @upto (nonzero), one dirty since
 * epoch @upto or before.
 */
struct rcl_soft_cached *rcl_soft_stripe_cache_pick(struct rcl_soft_stripe_cache *cache,
                                                   enum rcl_soft_cache_drain why, uint64_t idle_ns,
                                                   uint64_t upto);

/* rcl_soft_stripe_cache_epoch() - the epoch now: entries dirty now are dirty since it or before. */
uint64_t rcl_soft_stripe_cache_epoch(struct rcl_soft_stripe_cache *cache);

/* How a write lies next to the last few: see rcl_soft_stripe_cache_sequential(). */
enum rcl_soft_stream {
	RCL_SOFT_STREAM_NONE, /* apart from all */
	RCL_SOFT_STREAM_NEAR, /* at most @near bytes from one */
	RCL_SOFT_STREAM_NEXT, /* right after or before one */
};

/*
 * rcl_soft_stripe_cache_sequential() - whether a write of @len bytes at
 * @off follows or is followed by one of the last few writes, right away
 * (NEXT) or with a gap of at most @near bytes (NEAR); then a partial
 * stripe is worth holding for its neighbours. Remembers it. NEAR lets a
 * stream's writes be seen as one though the threads that serve them run
 * them out of order: a write may come before the one it continues.
 */
enum rcl_soft_stream rcl_soft_stripe_cache_sequential(struct rcl_soft_stripe_cache *cache,
                                                      uint64_t off, uint64_t len, uint64_t near);

#endif /* RCL_SOFT_STRIPE_CACHE_H */
