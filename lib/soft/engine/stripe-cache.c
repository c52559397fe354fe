// SPDX-License-Identifier: MIT
/*
 * stripe-cache.c - cached stripes, their memory and the background writer
 * (see stripe-cache.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "parity.h"
#include "raidcli.h"
#include "stripe-cache.h"

#define BUCKETS 256
/*
 * Writes remembered to tell a sequential stream. Enough for several
 * streams with their queues full: 4 writers at queue depth 4 filled 16,
 * and a write whose predecessor had dropped out was taken for a random
 * one and written at once, reading what its stripe kept (on disk-backed
 * members, twice the reads of 64 in the bench's 128K writes).
 */
#define RECENT 64
/* How often the background writer looks for idle entries. */
#define TICK_NS (10 * 1000 * 1000ull)

struct rcl_soft_stripe_cache {
	pthread_mutex_t lock;
	pthread_cond_t kick; /* the background writer has work */
	pthread_t thread;
	bool running, stop, pressure;
	size_t dirty_count;
	/* Entries held without a waiter (_hold()), and the shortest of their waits. */
	size_t holding;
	uint64_t hold_tick_ns;
	uint64_t epoch;
	void (*drain)(void *ctx, enum rcl_soft_cache_drain why);
	void *ctx;
	struct rcl_soft_cached *bucket[BUCKETS];
	_Atomic size_t entries;
	/* Writes between _begin() and _end(), less those waiting in _wait(). */
	atomic_uint writers;
	/* The last writes, for rcl_soft_stripe_cache_sequential(). */
	uint64_t recent_start[RECENT], recent_end[RECENT];
	unsigned recent_next;
};

/* The process's budget, shared by every cache. */
static pthread_once_t budget_once = PTHREAD_ONCE_INIT;
static size_t budget_limit;
static _Atomic size_t budget_used;

static void budget_init(void)
{
	const char *mib = getenv("RAIDCLI_CACHE_MIB");
	char *end;
	unsigned long v = mib && *mib ? strtoul(mib, &end, 10) : 64;

	if (mib && *mib && *end)
		v = 64; /* not a number: the default */
	budget_limit = (size_t)v << 20;
}

static bool budget_take(size_t bytes)
{
	size_t used = atomic_load(&budget_used);

	do {
		if (used + bytes > budget_limit)
			return false;
	} while (!atomic_compare_exchange_weak(&budget_used, &used, used + bytes));
	return true;
}

static struct timespec deadline(uint64_t wait_ns)
{
	uint64_t at = rcl_clock_ns(CLOCK_MONOTONIC) + wait_ns;

	return (struct timespec){.tv_sec = (time_t)(at / 1000000000ull),
	                         .tv_nsec = (long)(at % 1000000000ull)};
}

/* Waits on @cond time out by CLOCK_MONOTONIC, as deadline() gives. */
static void monotonic_cond(pthread_cond_t *cond)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
}

static unsigned bucket_of(unsigned array, uint64_t stripe)
{
	return (unsigned)(((stripe * 8 + array) * 0x9e3779b97f4a7c15ull) >> 56);
}

/* ---- the background writer ---- */

/* How often the writer looks: a held entry is due within its wait (the lock held). */
static uint64_t writer_tick(const struct rcl_soft_stripe_cache *c)
{
	return c->holding && c->hold_tick_ns < TICK_NS ? c->hold_tick_ns : TICK_NS;
}

static void *writer(void *arg)
{
	struct rcl_soft_stripe_cache *c = arg;

	pthread_mutex_lock(&c->lock);
	while (!c->stop) {
		struct timespec at = deadline(writer_tick(c));
		enum rcl_soft_cache_drain why;

		if (!c->dirty_count && !c->pressure)
			pthread_cond_wait(&c->kick, &c->lock);
		else if (!c->pressure)
			pthread_cond_timedwait(&c->kick, &c->lock, &at);
		if (c->stop)
			break;
		why = c->pressure ? RCL_SOFT_DRAIN_PRESSURE : RCL_SOFT_DRAIN_IDLE;
		c->pressure = false;
		pthread_mutex_unlock(&c->lock);
		c->drain(c->ctx, why);
		pthread_mutex_lock(&c->lock);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

struct rcl_soft_stripe_cache *
rcl_soft_stripe_cache_new(void (*drain)(void *ctx, enum rcl_soft_cache_drain), void *ctx)
{
	struct rcl_soft_stripe_cache *c = rcl_calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	pthread_once(&budget_once, budget_init);
	pthread_mutex_init(&c->lock, NULL);
	monotonic_cond(&c->kick);
	c->drain = drain;
	c->ctx = ctx;
	c->epoch = 1;
	/* No write ends or starts at UINT64_MAX, so none matches these yet. */
	for (unsigned i = 0; i < RECENT; i++)
		c->recent_start[i] = c->recent_end[i] = UINT64_MAX;
	c->running = !pthread_create(&c->thread, NULL, writer, c);
	if (!c->running) {
		rcl_soft_stripe_cache_free(c);
		return NULL;
	}
	return c;
}

void rcl_soft_stripe_cache_stop(struct rcl_soft_stripe_cache *c)
{
	if (!c || !c->running)
		return;
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	pthread_cond_signal(&c->kick);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	c->running = false;
}

static void entry_free(struct rcl_soft_cached *e)
{
	pthread_cond_destroy(&e->done);
	atomic_fetch_sub(&budget_used, e->bytes);
	rcl_free(e->block);
	rcl_free(e);
}

void rcl_soft_stripe_cache_free(struct rcl_soft_stripe_cache *c)
{
	if (!c)
		return;
	rcl_soft_stripe_cache_stop(c);
	for (unsigned b = 0; b < BUCKETS; b++)
		while (c->bucket[b]) {
			struct rcl_soft_cached *e = c->bucket[b];

			c->bucket[b] = e->next;
			entry_free(e);
		}
	pthread_cond_destroy(&c->kick);
	pthread_mutex_destroy(&c->lock);
	rcl_free(c);
}

/* ---- entries ---- */

static struct rcl_soft_cached *lookup(struct rcl_soft_stripe_cache *c, unsigned array,
                                      uint64_t stripe)
{
	for (struct rcl_soft_cached *e = c->bucket[bucket_of(array, stripe)]; e; e = e->next)
		if (e->array == array && e->stripe == stripe)
			return e;
	return NULL;
}

struct rcl_soft_cached *rcl_soft_stripe_cache_find(struct rcl_soft_stripe_cache *c, unsigned array,
                                                   uint64_t stripe)
{
	struct rcl_soft_cached *e;

	if (!c || !atomic_load(&c->entries))
		return NULL;
	pthread_mutex_lock(&c->lock);
	e = lookup(c, array, stripe);
	pthread_mutex_unlock(&c->lock);
	return e;
}

static struct rcl_soft_cached *entry_new(unsigned array, uint64_t stripe, size_t bytes)
{
	struct rcl_soft_cached *e;

	if (!budget_take(bytes))
		return NULL;
	e = rcl_calloc(1, sizeof(*e));
	if (e)
		e->block = rcl_malloc(bytes + RCL_SOFT_PARITY_ALIGN);
	if (!e || !e->block) {
		rcl_free(e);
		atomic_fetch_sub(&budget_used, bytes);
		return NULL;
	}
	e->array = array;
	e->stripe = stripe;
	e->bytes = bytes;
	monotonic_cond(&e->done);
	e->data = (uint8_t *)(((uintptr_t)e->block + RCL_SOFT_PARITY_ALIGN - 1) &
	                      ~(uintptr_t)(RCL_SOFT_PARITY_ALIGN - 1));
	return e;
}

struct rcl_soft_cached *rcl_soft_stripe_cache_get(struct rcl_soft_stripe_cache *c, unsigned array,
                                                  uint64_t stripe, size_t bytes)
{
	struct rcl_soft_cached *e = rcl_soft_stripe_cache_find(c, array, stripe);

	if (e || !c)
		return e;
	/* The stripe's lock keeps anyone else from making this entry meanwhile. */
	e = entry_new(array, stripe, bytes);
	pthread_mutex_lock(&c->lock);
	if (e) {
		unsigned b = bucket_of(array, stripe);

		e->next = c->bucket[b];
		c->bucket[b] = e;
		atomic_fetch_add(&c->entries, 1);
	} else if (budget_limit) {
		c->pressure = true;
		pthread_cond_signal(&c->kick);
	}
	pthread_mutex_unlock(&c->lock);
	return e;
}

bool rcl_soft_stripe_cache_dirty(struct rcl_soft_stripe_cache *c, unsigned array, uint64_t stripe)
{
	struct rcl_soft_cached *e;
	bool dirty;

	if (!c || !atomic_load(&c->entries))
		return false;
	pthread_mutex_lock(&c->lock);
	e = lookup(c, array, stripe);
	dirty = e && e->dirty;
	pthread_mutex_unlock(&c->lock);
	return dirty;
}

void rcl_soft_stripe_cache_touch(struct rcl_soft_stripe_cache *c, struct rcl_soft_cached *e)
{
	pthread_mutex_lock(&c->lock);
	if (!e->dirty) {
		e->dirty = c->epoch;
		if (!c->dirty_count++)
			pthread_cond_signal(&c->kick);
	}
	e->last_ns = rcl_clock_ns(CLOCK_MONOTONIC);
	pthread_mutex_unlock(&c->lock);
}

void rcl_soft_stripe_cache_written(struct rcl_soft_stripe_cache *c, struct rcl_soft_cached *e,
                                   int rc)
{
	pthread_mutex_lock(&c->lock);
	if (e->dirty) {
		e->dirty = 0;
		c->dirty_count--;
	}
	/* Writing the data is a point after which new data is in a new batch. */
	c->epoch++;
	e->written = ++e->batch;
	e->error = rc;
	if (e->held_ns) {
		e->held_ns = 0;
		c->holding--;
	}
	pthread_mutex_unlock(&c->lock);
	/*
	 * After letting go, or each waiter would wake only to wait for the
	 * lock. @e stays: the caller holds its stripe lock, which freeing takes.
	 */
	pthread_cond_broadcast(&e->done);
}

uint64_t rcl_soft_stripe_cache_pin(struct rcl_soft_stripe_cache *c, struct rcl_soft_cached *e)
{
	uint64_t batch;

	pthread_mutex_lock(&c->lock);
	e->pins++;
	batch = e->batch;
	pthread_mutex_unlock(&c->lock);
	return batch;
}

/* Free @e if it is clean and unpinned; the cache's lock held. */
static void reap(struct rcl_soft_stripe_cache *c, struct rcl_soft_cached *e)
{
	struct rcl_soft_cached **at = &c->bucket[bucket_of(e->array, e->stripe)];

	if (e->dirty || e->pins)
		return;
	while (*at != e)
		at = &(*at)->next;
	*at = e->next;
	atomic_fetch_sub(&c->entries, 1);
	entry_free(e);
}

void rcl_soft_stripe_cache_unpin(struct rcl_soft_stripe_cache *c, struct rcl_soft_cached *e)
{
	pthread_mutex_lock(&c->lock);
	e->pins--;
	reap(c, e);
	pthread_mutex_unlock(&c->lock);
}

void rcl_soft_stripe_cache_release(struct rcl_soft_stripe_cache *c, struct rcl_soft_cached *e)
{
	pthread_mutex_lock(&c->lock);
	reap(c, e);
	pthread_mutex_unlock(&c->lock);
}

void rcl_soft_stripe_cache_begin(struct rcl_soft_stripe_cache *c)
{
	atomic_fetch_add(&c->writers, 1);
}

void rcl_soft_stripe_cache_end(struct rcl_soft_stripe_cache *c)
{
	atomic_fetch_sub(&c->writers, 1);
}

/*
 * Wait in turns of @wait_ns, for at most @most_ns: another turn only while
 * some other write is under way (it may be the one that fills the stripe;
 * when none is, none can come before this write is answered).
 */
bool rcl_soft_stripe_cache_wait(struct rcl_soft_stripe_cache *c, struct rcl_soft_cached *e,
                                uint64_t batch, uint64_t wait_ns, uint64_t most_ns, int *rc)
{
	uint64_t start = rcl_clock_ns(CLOCK_MONOTONIC);
	bool ended;

	atomic_fetch_sub(&c->writers, 1);
	pthread_mutex_lock(&c->lock);
	for (bool first = true; e->written <= batch; first = false) {
		uint64_t waited = rcl_clock_ns(CLOCK_MONOTONIC) - start;
		struct timespec at;

		if (waited >= most_ns || (!first && !atomic_load(&c->writers)))
			break;
		at = deadline(most_ns - waited < wait_ns ? most_ns - waited : wait_ns);
		while (e->written <= batch &&
		       pthread_cond_timedwait(&e->done, &c->lock, &at) != ETIMEDOUT)
			;
	}
	ended = e->written > batch;
	*rc = e->error;
	pthread_mutex_unlock(&c->lock);
	atomic_fetch_add(&c->writers, 1);
	return ended;
}

void rcl_soft_stripe_cache_hold(struct rcl_soft_stripe_cache *c, struct rcl_soft_cached *e,
                                uint64_t wait_ns, uint64_t most_ns, const void *owner)
{
	pthread_mutex_lock(&c->lock);
	if (!e->held_ns) {
		e->held_ns = rcl_clock_ns(CLOCK_MONOTONIC);
		e->hold_wait_ns = wait_ns;
		e->hold_most_ns = most_ns;
		e->held_for = owner;
		if (!c->holding++ || wait_ns < c->hold_tick_ns) {
			c->hold_tick_ns = wait_ns;
			pthread_cond_signal(&c->kick); /* to wait no longer than this */
		}
	}
	pthread_mutex_unlock(&c->lock);
}

bool rcl_soft_stripe_cache_unhold(struct rcl_soft_stripe_cache *c, const void *owner)
{
	bool any = false;

	pthread_mutex_lock(&c->lock);
	for (unsigned b = 0; b < BUCKETS; b++)
		for (struct rcl_soft_cached *e = c->bucket[b]; e; e = e->next)
			if (e->held_ns && e->held_for == owner) {
				e->hold_most_ns = 0; /* hold_over() from now on */
				any = true;
			}
	pthread_mutex_unlock(&c->lock);
	return any;
}

/* Whether held @e has waited as long as rcl_soft_stripe_cache_wait() would have. */
static bool hold_over(const struct rcl_soft_stripe_cache *c, const struct rcl_soft_cached *e,
                      uint64_t now)
{
	if (!e->held_ns)
		return false;
	if (now - e->held_ns >= e->hold_most_ns)
		return true;
	return now - e->last_ns >= e->hold_wait_ns && !atomic_load(&c->writers);
}

/* Whether @e is one to write now. */
static bool wanted(const struct rcl_soft_stripe_cache *c, const struct rcl_soft_cached *e,
                   enum rcl_soft_cache_drain why, uint64_t now, uint64_t idle_before, uint64_t upto)
{
	if (!e->dirty || (upto && e->dirty > upto))
		return false;
	if (why == RCL_SOFT_DRAIN_PRESSURE)
		return atomic_load(&budget_used) > budget_limit / 2;
	return upto || e->last_ns <= idle_before || hold_over(c, e, now);
}

struct rcl_soft_cached *rcl_soft_stripe_cache_pick(struct rcl_soft_stripe_cache *c,
                                                   enum rcl_soft_cache_drain why, uint64_t idle_ns,
                                                   uint64_t upto)
{
	struct rcl_soft_cached *best = NULL;
	uint64_t now, idle_before;

	if (!c || !atomic_load(&c->entries))
		return NULL;
	pthread_mutex_lock(&c->lock);
	/* Under the lock: no entry's times (set under it) are later than this. */
	now = rcl_clock_ns(CLOCK_MONOTONIC);
	idle_before = now > idle_ns ? now - idle_ns : 0;
	for (unsigned b = 0; b < BUCKETS; b++)
		for (struct rcl_soft_cached *e = c->bucket[b]; e; e = e->next)
			if (wanted(c, e, why, now, idle_before, upto) &&
			    (!best || e->last_ns < best->last_ns))
				best = e;
	if (best)
		best->pins++;
	pthread_mutex_unlock(&c->lock);
	return best;
}

uint64_t rcl_soft_stripe_cache_epoch(struct rcl_soft_stripe_cache *c)
{
	uint64_t epoch;

	pthread_mutex_lock(&c->lock);
	epoch = c->epoch;
	pthread_mutex_unlock(&c->lock);
	return epoch;
}

/* How [@start, @end) lies next to a write of @len bytes at @off. */
static enum rcl_soft_stream neighbour(uint64_t start, uint64_t end, uint64_t off, uint64_t len,
                                      uint64_t near)
{
	if (start == UINT64_MAX)
		return RCL_SOFT_STREAM_NONE;
	if (end == off || start == off + len)
		return RCL_SOFT_STREAM_NEXT;
	if ((end < off && off - end <= near) || (start > off + len && start - off - len <= near))
		return RCL_SOFT_STREAM_NEAR;
	return RCL_SOFT_STREAM_NONE;
}

enum rcl_soft_stream rcl_soft_stripe_cache_sequential(struct rcl_soft_stripe_cache *c, uint64_t off,
                                                      uint64_t len, uint64_t near)
{
	enum rcl_soft_stream best = RCL_SOFT_STREAM_NONE;

	pthread_mutex_lock(&c->lock);
	for (unsigned i = 0; i < RECENT && best != RCL_SOFT_STREAM_NEXT; i++) {
		enum rcl_soft_stream s =
		    neighbour(c->recent_start[i], c->recent_end[i], off, len, near);

		best = s > best ? s : best;
	}
	c->recent_start[c->recent_next] = off;
	c->recent_end[c->recent_next] = off + len;
	c->recent_next = (c->recent_next + 1) % RECENT;
	pthread_mutex_unlock(&c->lock);
	return best;
}
