// SPDX-License-Identifier: MIT
/*
 * volume-parity-cache.c - the parity I/O path's writes through the stripe
 * cache, and its reads of cached data.
 *
 * A partial stripe first joins the stripe's entry in the stripe cache
 * (stripe-cache.h), where the writes to one stripe gather: when their
 * data fills the stripe it is written whole, reading nothing. Write
 * through holds the partial stripes of a sequential stream for a while
 * (GATHER_NS) for the writes that fill them (the one that does writes for
 * all, and wakes them), and writes any other at once; a holder's data is
 * not copied: the entry points at its buffer until written. A holder that
 * may end later (rcl_soft_volume_write_later()) does not wait: the writer
 * that writes the stripe ends it, or the background writer once the hold
 * is over, so a thread serving a stream goes on to its next write; or its
 * owner's thread, when that owner sends nothing more until its held writes
 * end (rcl_soft_volume_release()): the writes that would fill the stripes
 * are not coming. Write back
 * leaves them cached for the background writer, a flush, or the write
 * that fills them. Reads of a stripe with cached data take its lock and lay
 * the cached data over what the members hold. Cached data is written by
 * the same path as any other, so the write-intent bits go first.
 */
#include <errno.h>
#include <string.h>

#include "volume-parity-private.h"

/*
 * How long a partial stripe of a sequential write-through write waits for
 * its neighbours: GATHER_NS; when the write directly continues another,
 * on while other writes are under way, up to GATHER_MOST_NS (a busy
 * machine may keep the neighbour's thread off the CPU for longer than
 * GATHER_NS, and giving up then costs reads). A write only near another
 * may be a random one that no neighbour will follow.
 */
#define GATHER_NS      (1000 * 1000ull)
#define GATHER_MOST_NS (10 * GATHER_NS)
/* How long a write-back stripe stays in memory without new data. */
#define IDLE_NS (20 * 1000 * 1000ull)

/* Whether rows [@lo, @hi) of the data roles in @touched are the whole stripe of @a. */
static bool whole_stripe(const struct rcl_soft_array *a, uint64_t touched, const uint32_t *lo,
                         const uint32_t *hi)
{
	for (unsigned d = 0; d < rcl_soft_array_data_strips(a); d++)
		if (!(touched >> d & 1) || lo[d] || hi[d] != a->chunk)
			return false;
	return true;
}

/* Whether @p's rows join @e's without a gap in any data strip (one range per strip). */
static bool mergeable(const struct rcl_soft_cached *e, const struct pstripe *p)
{
	for (unsigned d = 0; d < RCL_SOFT_ARRAY_MAX; d++)
		if ((e->touched & p->touched) >> d & 1 &&
		    (p->lo[d] > e->hi[d] || p->hi[d] < e->lo[d]))
			return false;
	return true;
}

/* Where row @row of data role @d of @e is (a dirty row, or any when the role is not lent). */
static uint8_t *cached_row(const struct rcl_soft_cached *e, unsigned d, uint64_t chunk,
                           uint32_t row)
{
	return e->lent[d] ? e->lent[d] + (row - e->lo[d]) : e->data + d * chunk + row;
}

/* Copy data role @d's lent rows into @e's own memory. */
static void take_back(struct rcl_soft_cached *e, unsigned d, uint64_t chunk)
{
	if (!e->lent[d])
		return;
	memcpy(e->data + d * chunk + e->lo[d], e->lent[d], e->hi[d] - e->lo[d]);
	e->lent[d] = NULL;
}

/*
 * Put @p's data into @e (clean or mergeable): with @lend, a data role @p
 * writes whole (all of its dirty rows and maybe more) just points at
 * @p's buffer; the rest is copied.
 */
static void deposit(struct pwin *pw, struct rcl_soft_cached *e, const struct pstripe *p, bool lend)
{
	uint64_t chunk = array_of(pw, p)->chunk;

	for (unsigned d = 0; d < RCL_SOFT_ARRAY_MAX; d++) {
		bool had = e->touched >> d & 1;

		if (!(p->touched >> d & 1))
			continue;
		if (lend && (!had || (p->lo[d] <= e->lo[d] && p->hi[d] >= e->hi[d]))) {
			e->lent[d] = p->user[d];
			e->lo[d] = p->lo[d];
			e->hi[d] = p->hi[d];
			continue;
		}
		if (had)
			take_back(e, d, chunk);
		memcpy(e->data + d * chunk + p->lo[d], p->user[d], p->hi[d] - p->lo[d]);
		if (!had) {
			e->lo[d] = p->lo[d];
			e->hi[d] = p->hi[d];
		}
		e->lo[d] = p->lo[d] < e->lo[d] ? p->lo[d] : e->lo[d];
		e->hi[d] = p->hi[d] > e->hi[d] ? p->hi[d] : e->hi[d];
	}
	e->touched |= p->touched;
	rcl_soft_stripe_cache_touch(pw->vol->cache, e);
}

/* @e's dirty rows as a stripe to write. */
static struct pstripe cached_stripe(const struct rcl_soft_volume *vol,
                                    const struct rcl_soft_cached *e)
{
	uint64_t chunk = vol->geo.arrays[e->array].chunk;
	struct pstripe p = {.array = e->array, .stripe = e->stripe, .touched = e->touched};

	for (unsigned d = 0; d < RCL_SOFT_ARRAY_MAX; d++)
		if (e->touched >> d & 1) {
			p.lo[d] = e->lo[d];
			p.hi[d] = e->hi[d];
			p.user[d] = cached_row(e, d, chunk, e->lo[d]);
		}
	return p;
}

/*
 * struct rcl_soft_cache_later - a stripe held by a write that did not
 * wait for it (hold_later()): a part of that write, which ends with @rc
 * when the stripe's data is written.
 */
struct rcl_soft_cache_later {
	struct vol_later *later;
	int rc;
	struct rcl_soft_cache_later *next;
};

/*
 * Hold @e for @ending's request without waiting (its stripe lock held).
 * Return: false when out of memory (then the request waits for it).
 */
static bool hold_later(struct rcl_soft_volume *vol, struct rcl_soft_cached *e,
                       struct vol_ending *ending, uint64_t most_ns)
{
	struct rcl_soft_cache_later *h = rcl_malloc(sizeof(*h));

	if (!h || !(h->later = rcl_soft_vol_later_join(ending))) {
		rcl_free(h);
		return false;
	}
	h->next = e->laters;
	e->laters = h;
	rcl_soft_stripe_cache_hold(vol->cache, e, GATHER_NS, most_ns, ending->owner);
	return true;
}

/* End the parts @list holds: after letting go of the stripe locks, as ended() may block. */
static void end_laters(struct rcl_soft_cache_later *list)
{
	while (list) {
		struct rcl_soft_cache_later *h = list;

		list = h->next;
		rcl_soft_vol_later_end(h->later, h->rc);
		rcl_free(h);
	}
}

/*
 * @e's data has been written with result @rc (its stripe lock held): its
 * waiters wake, and the writes that held it without waiting go to *@ended.
 */
static void cached_written(struct rcl_soft_volume *vol, struct rcl_soft_cached *e, int rc,
                           struct rcl_soft_cache_later **ended)
{
	while (e->laters) {
		struct rcl_soft_cache_later *h = e->laters;

		e->laters = h->next;
		h->rc = rc;
		h->next = *ended;
		*ended = h;
	}
	e->touched = 0;
	memset(e->lent, 0, sizeof(e->lent));
	rcl_soft_stripe_cache_written(vol->cache, e, rc);
}

/* Write @e's dirty data now (its stripe lock held); see cached_written(). */
static int write_cached(struct rcl_soft_volume *vol, struct rcl_soft_cached *e,
                        struct rcl_soft_cache_later **ended)
{
	struct pstripe p = cached_stripe(vol, e);
	int rc = rcl_soft_vol_parity_write_stripes(vol, &p, 1, RCL_SOFT_OP_WRITE);

	cached_written(vol, e, rc, ended);
	return rc;
}

static void lock_one(struct rcl_soft_volume *vol, struct rcl_soft_lockset *set,
                     const struct rcl_soft_cached *e)
{
	*set = (struct rcl_soft_lockset){{0}};
	rcl_soft_lockset_add(set, e->array, e->stripe);
	rcl_soft_lockset_lock(&vol->stripes, set);
}

/* A write-through write's data waiting in a cached stripe for its neighbours. */
struct held {
	struct rcl_soft_cached *e;
	uint64_t batch;
	uint64_t most_ns;
};

/*
 * Wait (bounded) for @h's batch to be written by a writer that fills the
 * stripe; when none comes, write it. Return: the batch's result.
 */
static int wait_held(struct rcl_soft_volume *vol, const struct held *h)
{
	struct rcl_soft_cache_later *laters = NULL;
	struct rcl_soft_lockset set;
	int rc;
	bool ended =
	    rcl_soft_stripe_cache_wait(vol->cache, h->e, h->batch, GATHER_NS, h->most_ns, &rc);

	lock_one(vol, &set, h->e);
	if (!ended)
		rc = h->e->written > h->batch ? h->e->error : write_cached(vol, h->e, &laters);
	rcl_soft_stripe_cache_unpin(vol->cache, h->e);
	rcl_soft_lockset_unlock(&vol->stripes, &set);
	end_laters(laters);
	return rc;
}

/* Write the cached stripes @why picks (dirty since epoch @upto or before, when not 0). */
static int write_picked(struct rcl_soft_volume *vol, enum rcl_soft_cache_drain why, uint64_t upto)
{
	struct rcl_soft_cached *e;
	int rc = 0;

	while ((e = rcl_soft_stripe_cache_pick(vol->cache, why, IDLE_NS, upto))) {
		struct rcl_soft_cache_later *laters = NULL;
		struct rcl_soft_lockset set;
		int one = 0;

		lock_one(vol, &set, e);
		if (e->touched)
			one = write_cached(vol, e, &laters);
		rcl_soft_stripe_cache_unpin(vol->cache, e);
		rcl_soft_lockset_unlock(&vol->stripes, &set);
		end_laters(laters);
		rc = rc ? rc : one;
	}
	return rc;
}

/* The background writer's work: write idle stripes, or the oldest under memory pressure. */
static void drain(void *ctx, enum rcl_soft_cache_drain why)
{
	struct rcl_soft_volume *vol = ctx;

	/*
	 * Not while a geometry change holds the volume: it closes this cache,
	 * joining this thread, and writes what is cached itself.
	 */
	if (pthread_rwlock_tryrdlock(&vol->lock))
		return;
	write_picked(vol, why, 0);
	pthread_rwlock_unlock(&vol->lock);
}

enum rcl_status rcl_soft_vol_cache_open(struct rcl_soft_volume *vol, struct rcl_error *err)
{
	vol->cache = rcl_soft_stripe_cache_new(drain, vol);
	return vol->cache ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
}

int rcl_soft_vol_cache_flush(struct rcl_soft_volume *vol)
{
	if (!vol->cache)
		return 0;
	return write_picked(vol, RCL_SOFT_DRAIN_IDLE, rcl_soft_stripe_cache_epoch(vol->cache));
}

/* Write now, on this thread, the stripes held for @owner's writes ending later. */
void rcl_soft_vol_cache_release(struct rcl_soft_volume *vol, const void *owner)
{
	if (vol->cache && rcl_soft_stripe_cache_unhold(vol->cache, owner))
		write_picked(vol, RCL_SOFT_DRAIN_IDLE, 0);
}

int rcl_soft_vol_cache_close(struct rcl_soft_volume *vol, bool write)
{
	int rc = 0;

	rcl_soft_stripe_cache_stop(vol->cache);
	if (write)
		rc = rcl_soft_vol_cache_flush(vol);
	rcl_soft_stripe_cache_free(vol->cache);
	vol->cache = NULL;
	return rc;
}

void rcl_soft_vol_parity_overlay(struct pwin *pw)
{
	for (size_t i = 0; i < pw->nstripes; i++) {
		struct pstripe *p = &pw->stripes[i];
		struct rcl_soft_cached *e =
		    rcl_soft_stripe_cache_find(pw->vol->cache, p->array, p->stripe);
		uint64_t chunk = array_of(pw, p)->chunk;

		for (unsigned d = 0; e && d < RCL_SOFT_ARRAY_MAX; d++) {
			uint32_t x0 = p->lo[d] > e->lo[d] ? p->lo[d] : e->lo[d];
			uint32_t x1 = p->hi[d] < e->hi[d] ? p->hi[d] : e->hi[d];

			if ((p->touched & e->touched) >> d & 1 && x0 < x1)
				memcpy(p->user[d] + (x0 - p->lo[d]), cached_row(e, d, chunk, x0),
				       x1 - x0);
		}
	}
}

bool rcl_soft_vol_parity_any_cached(const struct pwin *pw)
{
	for (size_t i = 0; i < pw->nstripes; i++)
		if (rcl_soft_stripe_cache_dirty(pw->vol->cache, pw->stripes[i].array,
		                                pw->stripes[i].stripe))
			return true;
	return false;
}

/*
 * Where @p's data goes, its lock held: into @batch as it is (a whole
 * stripe, or uncached), or into its cached stripe, which goes into @batch
 * (and @done) when now whole or not to be held, is held for neighbours
 * (by hold_later() for an @ending that may end later, else into @held to
 * wait for), and stays (write back) otherwise; the writes that held a
 * stripe written now without waiting go to @ended. Return: 0 or a negative errno.
 */
struct plan {
	bool cache, hold;
	uint64_t hold_ns;
	struct vol_ending *ending;
	struct rcl_soft_cache_later *ended;
	struct pstripe *batch;
	size_t nbatch;
	struct rcl_soft_cached **done;
	size_t ndone;
	struct held *held;
	size_t nheld;
};

static int place(struct pwin *pw, struct pstripe *p, struct plan *plan)
{
	struct rcl_soft_volume *vol = pw->vol;
	const struct rcl_soft_array *a = array_of(pw, p);
	struct rcl_soft_cached *e = rcl_soft_stripe_cache_find(vol->cache, p->array, p->stripe);
	int rc = 0;

	if (whole_stripe(a, p->touched, p->lo, p->hi)) {
		/* It replaces whatever the stripe had cached. */
		if (e && e->touched)
			plan->done[plan->ndone++] = e;
		plan->batch[plan->nbatch++] = *p;
		return 0;
	}
	if (!e && plan->cache)
		e = rcl_soft_stripe_cache_get(vol->cache, p->array, p->stripe,
		                              rcl_soft_array_data_strips(a) * a->chunk);
	if (!e) {
		plan->batch[plan->nbatch++] = *p;
		return 0;
	}
	if (e->touched && !mergeable(e, p) && (rc = write_cached(vol, e, &plan->ended)))
		return rc;
	/* A writer that holds or writes the stripe now stays until its data is written. */
	deposit(pw, e, p, plan->hold || !plan->cache);
	if (whole_stripe(a, e->touched, e->lo, e->hi) || !plan->cache) {
		plan->batch[plan->nbatch++] = cached_stripe(vol, e);
		plan->done[plan->ndone++] = e;
	} else if (plan->hold) {
		if (plan->ending && hold_later(vol, e, plan->ending, plan->hold_ns))
			return 0;
		plan->held[plan->nheld++] =
		    (struct held){.e = e,
		                  .batch = rcl_soft_stripe_cache_pin(vol->cache, e),
		                  .most_ns = plan->hold_ns};
	}
	return 0;
}

/* The data bytes of a stripe across every span. */
static uint64_t full_stripe(const struct rcl_soft_volume *vol)
{
	return rcl_soft_array_stripe_bytes(&vol->geo.arrays[0]) * vol->geo.spans;
}

int rcl_soft_vol_parity_write_window(struct pwin *pw)
{
	struct rcl_soft_volume *vol = pw->vol;
	const struct vol_window *w = pw->w;
	bool fua = w->flags & RCL_SOFT_IO_FUA, back = vol->write_back && !fua;
	enum rcl_soft_stream stream =
	    !back && !fua && vol->cache
	        ? rcl_soft_stripe_cache_sequential(vol->cache, w->off, w->len, full_stripe(vol))
	        : RCL_SOFT_STREAM_NONE;
	bool hold = stream != RCL_SOFT_STREAM_NONE;
	struct plan plan = {.cache = back || hold,
	                    .hold = hold,
	                    .hold_ns = stream == RCL_SOFT_STREAM_NEXT ? GATHER_MOST_NS : GATHER_NS,
	                    .ending = w->ending};
	int rc = -ENOMEM;

	if (vol->cache)
		rcl_soft_stripe_cache_begin(vol->cache);
	plan.batch = rcl_malloc(pw->nstripes * sizeof(*plan.batch));
	plan.done = rcl_malloc(pw->nstripes * sizeof(*plan.done));
	plan.held = rcl_malloc(pw->nstripes * sizeof(*plan.held));
	if (plan.batch && plan.done && plan.held) {
		rcl_soft_vol_parity_lock_all(pw);
		rc = 0;
		for (size_t i = 0; i < pw->nstripes && !rc; i++)
			rc = place(pw, &pw->stripes[i], &plan);
		if (!rc)
			rc = rcl_soft_vol_parity_write_stripes(vol, plan.batch, plan.nbatch,
			                                       vol_write_kind(w->flags));
		for (size_t i = 0; i < plan.ndone; i++) {
			cached_written(vol, plan.done[i], rc, &plan.ended);
			rcl_soft_stripe_cache_release(vol->cache, plan.done[i]);
		}
		rcl_soft_lockset_unlock(&vol->stripes, &pw->locks);
		end_laters(plan.ended);
	}
	for (size_t i = 0; i < plan.nheld; i++) {
		int one = wait_held(vol, &plan.held[i]);

		rc = rc ? rc : one;
	}
	rcl_free(plan.held);
	rcl_free(plan.done);
	rcl_free(plan.batch);
	if (vol->cache)
		rcl_soft_stripe_cache_end(vol->cache);
	return rc;
}
