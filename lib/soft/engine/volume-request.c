// SPDX-License-Identifier: MIT
/*
 * volume-request.c - requests to an open volume (see volume.h): checked,
 * served in windows by the I/O paths, flushed, and held back while a
 * failed member is not yet in the configuration (the record gate).
 *
 * Access policy: RO refuses writes, zeroing and trimming with -EROFS;
 * Blocked (and RmvBlkd, which the export also withdraws) refuses those
 * and reads too, reads with -EPERM (the VD is there but may not be used).
 */
#include <errno.h>

#include "volume-private.h"

/* ---- the record gate (volume.h's owner @records) ---- */

bool rcl_soft_vol_unrecorded(const struct rcl_soft_volume *vol)
{
	for (unsigned i = 0; i < vol->member_count; i++)
		if (atomic_load(&vol->members[i].failed))
			return true;
	return vol->reshape && rcl_soft_vol_unrecorded(rcl_soft_vol_reshape_source(vol));
}

/* Whether requests that need a record fail rather than wait (the gate's lock held). */
static bool refusing(const struct rcl_soft_volume *vol)
{
	return vol->gate.holds || vol->gate.refused;
}

struct vol_later *rcl_soft_vol_gate_move(struct rcl_soft_volume *vol, bool failed)
{
	struct vol_later *due = NULL;

	vol->gate.moves++;
	pthread_cond_broadcast(&vol->gate.moved);
	if (!failed || refusing(vol)) {
		due = vol->gate.awaiting;
		vol->gate.awaiting = NULL;
	}
	for (struct vol_later *l = due; l && failed; l = l->next)
		atomic_store(&l->rc, -EIO);
	return due;
}

void rcl_soft_vol_end_due(struct vol_later *due)
{
	while (due) {
		struct vol_later *l = due;

		due = l->next;
		l->ended(l->token, atomic_load(&l->rc));
		rcl_free(l);
	}
}

/* Move the gate from outside a request: @refuse, or a hold taken (@holds 1) or let go (-1). */
static void gate_set(struct rcl_soft_volume *vol, bool refuse, int holds)
{
	struct vol_later *due;
	bool failed;

	if (!vol->owner.records)
		return;
	pthread_rwlock_rdlock(&vol->lock);
	failed = rcl_soft_vol_unrecorded(vol);
	pthread_mutex_lock(&vol->gate.lock);
	vol->gate.refused |= refuse && failed;
	vol->gate.holds = (unsigned)((int)vol->gate.holds + holds);
	due = rcl_soft_vol_gate_move(vol, failed);
	pthread_mutex_unlock(&vol->gate.lock);
	pthread_rwlock_unlock(&vol->lock);
	rcl_soft_vol_end_due(due);
}

void rcl_soft_volume_record_failed(struct rcl_soft_volume *vol)
{
	gate_set(vol, true, 0);
}

void rcl_soft_volume_hold_records(struct rcl_soft_volume *vol, bool hold)
{
	gate_set(vol, false, hold ? 1 : -1);
}

/*
 * A write, zeroing or flush that succeeded found a member unrecorded as it
 * ended: wait (no lock held) until no member is, or fail once none can
 * wait. Return: 0 or -EIO.
 */
static int await_record(struct rcl_soft_volume *vol)
{
	for (;;) {
		uint64_t seen;
		bool failed, refused;

		pthread_mutex_lock(&vol->gate.lock);
		seen = vol->gate.moves;
		pthread_mutex_unlock(&vol->gate.lock);
		pthread_rwlock_rdlock(&vol->lock);
		failed = rcl_soft_vol_unrecorded(vol);
		pthread_rwlock_unlock(&vol->lock);
		if (!failed)
			return 0;
		pthread_mutex_lock(&vol->gate.lock);
		while (vol->gate.moves == seen && !refusing(vol))
			pthread_cond_wait(&vol->gate.moved, &vol->gate.lock);
		refused = refusing(vol);
		pthread_mutex_unlock(&vol->gate.lock);
		if (refused)
			return -EIO;
	}
}

/*
 * A write ending later, @l, succeeded and ends now (@vol->lock held, as
 * within a call to the volume): while a member is unrecorded it awaits the
 * record instead (or fails, when none can wait). Return: whether it waits.
 */
static bool later_awaits(struct vol_later *l)
{
	struct rcl_soft_volume *vol = l->vol;
	bool waits = false;

	if (atomic_load(&l->rc) || !vol->owner.records || !rcl_soft_vol_unrecorded(vol))
		return false;
	pthread_mutex_lock(&vol->gate.lock);
	if (refusing(vol)) {
		atomic_store(&l->rc, -EIO);
	} else {
		l->next = vol->gate.awaiting;
		vol->gate.awaiting = l;
		waits = true;
	}
	pthread_mutex_unlock(&vol->gate.lock);
	return waits;
}

/* ---- requests ---- */

static int check_range(const struct rcl_soft_volume *vol, size_t len, uint64_t off)
{
	if (off % vol->sector_size || len % vol->sector_size || off > vol->geo.bytes ||
	    len > vol->geo.bytes - off)
		return -EINVAL;
	return 0;
}

static int check_access(const struct rcl_soft_volume *vol, bool write)
{
	if (vol->access == RCL_ACCESS_BLOCKED || vol->access == RCL_ACCESS_REMOVED_BLOCKED)
		return write ? -EROFS : -EPERM;
	return write && vol->access == RCL_ACCESS_RO ? -EROFS : 0;
}

/* ---- requests ---- */

struct vol_later *rcl_soft_vol_later_join(struct vol_ending *ending)
{
	struct vol_later *l = ending->later;

	if (!l) {
		l = rcl_malloc(sizeof(*l));
		if (!l)
			return NULL;
		/* The request's own part: it ends when its call is about to return. */
		*l = (struct vol_later){
		    .ended = ending->ended, .token = ending->token, .parts = 1, .vol = ending->vol};
		ending->later = l;
	}
	atomic_fetch_add(&l->parts, 1);
	return l;
}

/* A part of @l ended with @rc. Return: whether it was the last. */
static bool later_part_ends(struct vol_later *l, int rc)
{
	int none = 0;

	if (rc)
		atomic_compare_exchange_strong(&l->rc, &none, rc);
	return atomic_fetch_sub(&l->parts, 1) == 1;
}

void rcl_soft_vol_later_end(struct vol_later *l, int rc)
{
	if (!later_part_ends(l, rc) || later_awaits(l))
		return;
	l->ended(l->token, atomic_load(&l->rc));
	rcl_free(l);
}

/*
 * The request's own part ends with @rc: its result when it was the last
 * part (its holds ended already), else RCL_SOFT_LATER.
 */
static int end_request(struct vol_ending *ending, int rc)
{
	struct vol_later *l = ending ? ending->later : NULL;

	if (!l)
		return rc;
	if (!later_part_ends(l, rc))
		return RCL_SOFT_LATER;
	rc = atomic_load(&l->rc);
	rcl_free(l);
	return rc;
}

/*
 * Serve @len bytes at @off in windows: @buf is read into or written from
 * (@step says whether the source advances: not for zeros). A write with
 * @ending may end later (see rcl_soft_volume_write_later()); a @gated one
 * that succeeds waits for the record of every member failed so far.
 */
static int serve(struct rcl_soft_volume *vol, bool write, uint8_t *buf, bool step, size_t len,
                 uint64_t off, unsigned flags, struct vol_ending *ending, bool gated)
{
	bool awaits, started;
	bool parity = vol->geo.arrays[0].parity;
	int rc = check_range(vol, len, off);
	size_t below = len;

	if (rc)
		return rc;
	atomic_fetch_add(&vol->host_started, 1);
	pthread_rwlock_rdlock(&vol->lock);
	rc = check_access(vol, write);
	if (write && !rc)
		rc = rcl_soft_vol_md_write_start(vol);
	started = write && !rc;
	if (vol->reshape)
		below = rcl_soft_vol_reshape_below(vol, len, off);
	for (size_t done = 0; done < below && !rc;) {
		uint64_t at = off + done, end = (at / vol->window + 1) * vol->window;
		struct vol_window w = {.write = write,
		                       .flags = flags,
		                       .buf = step ? buf + done : buf,
		                       .len = end - at < below - done ? end - at : below - done,
		                       .off = at,
		                       .ending = ending};

		rc = parity ? rcl_soft_vol_parity_io(vol, &w) : rcl_soft_vol_mirror_io(vol, &w);
		done += w.len;
	}
	if (!rc && below < len)
		rc = rcl_soft_vol_reshape_old(vol, write, step ? buf + below : buf, step,
		                              len - below, off + below, flags);
	awaits = gated && !rc && vol->owner.records && rcl_soft_vol_unrecorded(vol);
	if (started)
		rcl_soft_vol_md_write_end(vol);
	pthread_rwlock_unlock(&vol->lock);
	atomic_fetch_add(&vol->host_done, 1);
	rc = end_request(ending, rc);
	return rc || !awaits ? rc : await_record(vol);
}

int rcl_soft_volume_read(struct rcl_soft_volume *vol, void *buf, size_t len, uint64_t off)
{
	return serve(vol, false, buf, true, len, off, 0, NULL, false);
}

int rcl_soft_volume_write(struct rcl_soft_volume *vol, const void *buf, size_t len, uint64_t off,
                          unsigned flags)
{
	/* The write paths never store into the buffer they write from. */
	return serve(vol, true, (uint8_t *)buf, true, len, off, flags, NULL, true);
}

int rcl_soft_volume_write_later(struct rcl_soft_volume *vol, const void *buf, size_t len,
                                uint64_t off, unsigned flags, const void *owner,
                                void (*ended)(void *token, int rc), void *token)
{
	struct vol_ending ending = {.vol = vol, .ended = ended, .token = token, .owner = owner};

	return serve(vol, true, (uint8_t *)buf, true, len, off, flags, &ending, true);
}

void rcl_soft_volume_release(struct rcl_soft_volume *vol, const void *owner)
{
	pthread_rwlock_rdlock(&vol->lock);
	rcl_soft_vol_cache_release(vol, owner);
	pthread_rwlock_unlock(&vol->lock);
}

int rcl_soft_volume_zero(struct rcl_soft_volume *vol, size_t len, uint64_t off, unsigned flags)
{
	return serve(vol, true, (uint8_t *)vol->zeros, false, len, off, flags, NULL, true);
}

int rcl_soft_vol_zero(struct rcl_soft_volume *vol, size_t len, uint64_t off)
{
	return rcl_soft_vol_fill(vol, vol->zeros, len, off);
}

int rcl_soft_vol_fill(struct rcl_soft_volume *vol, const void *block, size_t len, uint64_t off)
{
	return serve(vol, true, (uint8_t *)block, false, len, off, 0, NULL, false);
}

int rcl_soft_volume_trim(struct rcl_soft_volume *vol, size_t len, uint64_t off)
{
	/*
	 * Trimming is advisory and md-compatible parity needs the trimmed
	 * range's contents anyway, so it does nothing beyond checking.
	 */
	int rc = check_range(vol, len, off);

	if (rc)
		return rc;
	pthread_rwlock_rdlock(&vol->lock);
	rc = check_access(vol, true);
	pthread_rwlock_unlock(&vol->lock);
	return rc;
}

/* Flush; @gated: a success waits for the record of every member failed so far. */
static int flush(struct rcl_soft_volume *vol, bool gated)
{
	bool awaits;
	int rc;

	pthread_rwlock_rdlock(&vol->lock);
	/* Write back: what was acknowledged from the stripe cache goes to the members first. */
	rc = rcl_soft_vol_cache_flush(vol);
	if (!rc)
		rc = rcl_soft_vol_bitmap_clean(vol, false, rcl_soft_vol_sync_all, vol);
	awaits = gated && !rc && vol->owner.records && rcl_soft_vol_unrecorded(vol);
	pthread_rwlock_unlock(&vol->lock);
	return awaits ? await_record(vol) : rc;
}

int rcl_soft_volume_flush(struct rcl_soft_volume *vol)
{
	return flush(vol, true);
}

int rcl_soft_volume_sync(struct rcl_soft_volume *vol)
{
	return flush(vol, false);
}
