// SPDX-License-Identifier: MIT
/*
 * volume.c - an open virtual drive (see volume.h): its members and their
 * states, request checks, windows, flushes and FUA. The reads and writes
 * themselves are volume-mirror.c's (RAID0/1/10) and volume-parity.c's
 * (RAID5/6/50/60).
 *
 * Members are opened O_RDWR without O_DIRECT: they are often image files
 * on tmpfs, which refuses O_DIRECT, and buffered I/O lets the page cache
 * merge the many small member writes a parity update makes. Durability
 * comes from fdatasync on flush, as for any file; a FUA write's member
 * writes are durable themselves (vol_write_kind()).
 *
 * Access policy: RO refuses writes, zeroing and trimming with -EROFS;
 * Blocked refuses those and reads too, reads with -EPERM (the VD is there
 * but may not be used).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "md-bitmap.h"
#include "md-super1.h"
#include "member.h"
#include "parity.h"
#include "volume-private.h"

/* Requests are served in windows of about this much (whole stripes). */
#define WINDOW_BYTES (4u << 20)

/* ---- members ---- */

bool rcl_soft_vol_usable(const struct rcl_soft_volume *vol, unsigned member, uint64_t end)
{
	const struct vol_member *m = &vol->members[member];

	if (m->fd < 0 || atomic_load(&m->failed))
		return false;
	return m->state == RCL_SOFT_MEMBER_ONLINE ||
	       (m->state == RCL_SOFT_MEMBER_REBUILD && end <= m->valid_below);
}

/* Member @member is whole: open, not failed and online (and not @gone, when >= 0). */
static bool whole(const struct rcl_soft_volume *vol, unsigned member, int gone)
{
	return (int)member != gone && rcl_soft_vol_usable(vol, member, 0) &&
	       vol->members[member].state == RCL_SOFT_MEMBER_ONLINE;
}

static bool survives_without(const struct rcl_soft_volume *vol, int gone);

void rcl_soft_vol_fail(struct rcl_soft_volume *vol, unsigned member, int error, bool tell)
{
	struct vol_member *m = &vol->members[member];

	atomic_store(&m->failed, true);
	if (!atomic_exchange(&m->reported, true) && tell && vol->owner.failed)
		vol->owner.failed(vol->owner.ctx, vol->vd, member, error);
}

/*
 * Whether @error is the host's, not the drive's: the file system holding
 * the member's image is full (ENOSPC, EDQUOT) or read-only (EROFS). Such an
 * error says nothing of the data the member holds, and it usually meets
 * every member at once (they share the file system): failing members for
 * it took a whole VD offline for a full tmpfs, with no way back but
 * wiping. So the member stays in use and the request fails with the errno
 * (NBD's ENOSPC or EPERM), as a full file system fails a write to a file;
 * once space is freed, writes succeed again.
 */
static bool host_error(int error)
{
	return error == ENOSPC || error == EDQUOT || error == EROFS;
}

/*
 * Member @member failed an op with @error: fail it, as md does, while the
 * VD survives without it. The member whose loss the VD would not survive
 * is kept, as md keeps the last working member of an array: the request
 * fails instead (md fails the bio), and the VD keeps its data and its
 * state rather than going offline for one error. One failure is decided
 * at a time, so two threads cannot each fail the member the other's
 * decision counted on.
 * Return: whether the member is out of use (a request may go on without it).
 */
static bool fail_member(struct rcl_soft_volume *vol, unsigned member, int error)
{
	bool out;

	if (host_error(error))
		return false;
	pthread_mutex_lock(&vol->failing);
	out = atomic_load(&vol->members[member].failed) || survives_without(vol, (int)member);
	if (out)
		rcl_soft_vol_fail(vol, member, error, true);
	pthread_mutex_unlock(&vol->failing);
	return out;
}

int rcl_soft_vol_run(struct rcl_soft_volume *vol, struct rcl_soft_op *ops, size_t count)
{
	size_t failed = rcl_soft_uring_run(ops, count);
	int rc = 0;

	for (size_t i = 0; failed && i < count; i++) {
		if (!ops[i].error)
			continue;
		if (!fail_member(vol, ops[i].member, ops[i].error))
			rc = -ops[i].error;
		else if (!rc)
			rc = 1;
	}
	return rc;
}

void rcl_soft_vol_op(const struct rcl_soft_volume *vol, struct rcl_soft_op *ops, size_t n,
                     enum rcl_soft_op_kind kind, unsigned member, void *buf, size_t len,
                     uint64_t off)
{
	ops[n] = (struct rcl_soft_op){.kind = kind,
	                              .fd = vol->members[member].fd,
	                              .nowait = vol->members[member].nowait,
	                              .member = member,
	                              .buf = buf,
	                              .len = len,
	                              .off = off};
}

void rcl_soft_vol_no_readahead(const struct rcl_soft_volume *vol, struct rcl_soft_op *op)
{
	op->fd = vol->members[op->member].old_fd;
}

uint8_t *rcl_soft_vol_scratch(size_t len, void **block)
{
	uintptr_t at;

	*block = rcl_malloc(len + RCL_SOFT_PARITY_ALIGN);
	if (!*block)
		return NULL;
	at = ((uintptr_t)*block + RCL_SOFT_PARITY_ALIGN - 1) &
	     ~(uintptr_t)(RCL_SOFT_PARITY_ALIGN - 1);
	return (uint8_t *)at;
}

/*
 * Whether every array still holds all its data: RAID0 loses none, RAID1
 * keeps one, RAID5/6 lose at most their parity count, RAID10 keeps one of
 * each pair of neighbours that mirror a chunk.
 */
bool rcl_soft_vol_survives(const struct rcl_soft_volume *vol)
{
	return survives_without(vol, -1);
}

/* rcl_soft_vol_survives(), with member @gone (>= 0) out of use too. */
static bool survives_without(const struct rcl_soft_volume *vol, int gone)
{
	for (unsigned s = 0; s < vol->geo.spans; s++) {
		const struct rcl_soft_array *a = &vol->geo.arrays[s];
		unsigned lost = 0, step = a->n % 2 ? 1 : 2;

		for (unsigned i = 0; i < a->n; i++)
			lost += !whole(vol, a->first + i, gone);
		if (a->level == RCL_MD_LEVEL_RAID10)
			for (unsigned i = 0; i < a->n; i += step)
				if (!whole(vol, a->first + i, gone) &&
				    !whole(vol, a->first + (i + 1) % a->n, gone))
					return false;
		if ((a->level == RCL_MD_LEVEL_RAID1 && lost == a->n) ||
		    (a->level != RCL_MD_LEVEL_RAID1 && a->level != RCL_MD_LEVEL_RAID10 &&
		     lost > a->parity))
			return false;
	}
	return true;
}

/* ---- the record gate (volume.h's owner @records) ---- */

/*
 * Whether a member of @vol, or of the old array a migration still serves
 * from, failed and the configuration does not say so yet: the latch that
 * rcl_soft_vol_fail() sets before any request goes on without the member,
 * and apply_member() clears once the configuration records it. @vol->lock
 * held.
 */
static bool unrecorded(const struct rcl_soft_volume *vol)
{
	for (unsigned i = 0; i < vol->member_count; i++)
		if (atomic_load(&vol->members[i].failed))
			return true;
	return vol->reshape && unrecorded(rcl_soft_vol_reshape_source(vol));
}

/* Whether requests that need a record fail rather than wait (the gate's lock held). */
static bool refusing(const struct rcl_soft_volume *vol)
{
	return vol->gate.holds || vol->gate.refused;
}

/*
 * The gate changed, @failed whether a member is still unrecorded (its lock
 * held): waiters look again; the writes awaiting it end when nothing is
 * unrecorded, or with -EIO when none can wait. Return: those, to end
 * (end_due()) with no lock held.
 */
static struct vol_later *gate_move(struct rcl_soft_volume *vol, bool failed)
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

static void end_due(struct vol_later *due)
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
	failed = unrecorded(vol);
	pthread_mutex_lock(&vol->gate.lock);
	vol->gate.refused |= refuse && failed;
	vol->gate.holds = (unsigned)((int)vol->gate.holds + holds);
	due = gate_move(vol, failed);
	pthread_mutex_unlock(&vol->gate.lock);
	pthread_rwlock_unlock(&vol->lock);
	end_due(due);
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
		failed = unrecorded(vol);
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

	if (atomic_load(&l->rc) || !vol->owner.records || !unrecorded(vol))
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

/* ---- configuration ---- */

static const struct rcl_soft_vd *find_vd(const struct rcl_soft_state *state, unsigned id,
                                         const struct rcl_soft_dg **dg)
{
	const struct rcl_soft_vd *vd = rcl_soft_config_vd(&state->cfg, id);

	*dg = vd ? rcl_soft_config_dg(&state->cfg, vd->dg) : NULL;
	return *dg ? vd : NULL;
}

/* The drive of @dg's member @member, or NULL when it is not present. */
static const struct rcl_soft_disk *member_disk(const struct rcl_soft_state *state,
                                               const struct rcl_soft_dg *dg, unsigned member)
{
	int index = (int)(dg - state->cfg.dgs);

	for (size_t i = 0; i < state->count; i++)
		if (state->disks[i].dg == index && state->disks[i].member == (int)member &&
		    state->disks[i].path)
			return &state->disks[i];
	return NULL;
}

static void close_member(struct vol_member *m)
{
	if (m->fd >= 0)
		close(m->fd);
	if (m->old_fd >= 0)
		close(m->old_fd);
	m->fd = m->old_fd = -1;
}

/* Whether @m names the drive @uuid at @path (NULL: not present). */
static bool same_drive(const struct vol_member *m, const struct rcl_guid *uuid, const char *path)
{
	if (memcmp(&m->uuid, uuid, sizeof(*uuid)))
		return false;
	return path && m->path ? !strcmp(path, m->path) : !path && !m->path;
}

static enum rcl_status apply_member(struct rcl_soft_volume *vol, const struct rcl_soft_state *state,
                                    const struct rcl_soft_dg *dg, unsigned index,
                                    struct rcl_error *err)
{
	const struct rcl_soft_member *cm = &dg->members[index];
	const struct rcl_soft_disk *disk = member_disk(state, dg, index);
	const char *path = disk ? disk->path : NULL;
	struct vol_member *m = &vol->members[index];
	bool kept = same_drive(m, &cm->uuid, path), wanted;
	uint64_t valid = cm->rebuilt_lba * vol->sector_size;

	if (!kept) {
		close_member(m);
		rcl_free(m->path);
		m->path = path ? rcl_strdup(path) : NULL;
		m->uuid = cm->uuid;
		atomic_store(&m->failed, false);
		atomic_store(&m->reported, false);
		if (path && !m->path)
			return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	/* A rebuild running on this volume (rebuild.c) may be ahead of the record. */
	if (!kept || m->state != RCL_SOFT_MEMBER_REBUILD || cm->state != RCL_SOFT_MEMBER_REBUILD ||
	    m->valid_below < valid)
		m->valid_below = valid;
	m->state = cm->state;
	/* A failure the configuration now records no longer needs the latch. */
	if (cm->state != RCL_SOFT_MEMBER_ONLINE) {
		atomic_store(&m->failed, false);
		atomic_store(&m->reported, false);
	}
	wanted = m->path &&
	         (cm->state == RCL_SOFT_MEMBER_ONLINE || cm->state == RCL_SOFT_MEMBER_REBUILD);
	if (!wanted)
		close_member(m);
	if (wanted && m->fd < 0) {
		m->fd = open(m->path, O_RDWR | O_CLOEXEC);
		m->old_fd = m->fd < 0 ? -1 : open(m->path, O_RDONLY | O_CLOEXEC);
		if (m->old_fd < 0) {
			enum rcl_status st =
			    rcl_fail(err, RCL_SYSTEM,
			             "cannot open member %u of virtual drive /v%u, '%s': %s", index,
			             vol->vd, m->path, strerror(errno));

			close_member(m);
			return st;
		}
		posix_fadvise(m->old_fd, 0, 0, POSIX_FADV_RANDOM);
		m->nowait = rcl_soft_uring_nowait(m->old_fd);
	}
	return RCL_OK;
}

/* Take the members' drives and states and the VD's access policy from @state. */
static enum rcl_status apply(struct rcl_soft_volume *vol, const struct rcl_soft_state *state,
                             struct rcl_error *err)
{
	const struct rcl_soft_dg *dg;
	const struct rcl_soft_vd *vd = find_vd(state, vol->vd, &dg);
	enum rcl_status st = RCL_OK;

	if (!vd)
		return rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u not found", vol->vd);
	/* Every member is brought up to date; the first problem is reported. */
	for (unsigned i = 0; i < vol->member_count; i++) {
		struct rcl_error one = {0};
		enum rcl_status s = apply_member(vol, state, dg, i, &one);

		if (s && !st) {
			st = s;
			*err = one;
		}
	}
	vol->access = vd->access;
	vol->write_back = vd->write != RCL_WRITE_THROUGH;
	vol->record = *vd;
	return st;
}

/* The controller's sector size, from the first of @dg's drives present. */
static unsigned sector_size(const struct rcl_soft_state *state, const struct rcl_soft_dg *dg)
{
	for (unsigned i = 0; i < rcl_soft_dg_members(dg); i++) {
		const struct rcl_soft_disk *disk = member_disk(state, dg, i);

		if (disk && disk->sector_size)
			return disk->sector_size;
	}
	return 0;
}

/*
 * Whether array @a, with no bitmap, was left active on member @fd: whoever
 * had it open crashed, and md, with no bitmap to say where, resyncs it
 * whole. An array with a bitmap is md's to judge by its bits.
 */
static bool left_active(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                        const struct rcl_soft_array *a)
{
	return !a->bitmap_at && a->level != RCL_MD_LEVEL_RAID0 &&
	       rcl_soft_md_left_active(fd, sector_size, vd);
}

bool rcl_soft_vd_left_dirty(const struct rcl_soft_state *state, unsigned id)
{
	const struct rcl_soft_dg *dg;
	const struct rcl_soft_vd *vd = find_vd(state, id, &dg);
	struct rcl_soft_geometry geo;
	struct rcl_error ignored = {0};
	bool dirty = false;

	/* A migrating VD's bitmap follows its reshape: only its process reads it. */
	if (!vd || dg->migrate.active || !sector_size(state, dg) ||
	    rcl_soft_geometry_get(dg, vd, sector_size(state, dg), &geo, &ignored))
		return false;
	for (unsigned s = 0; s < geo.spans && !dirty; s++) {
		const struct rcl_soft_array *a = &geo.arrays[s];

		/* The first member that keeps the bitmap, as the volume reads it. */
		for (unsigned i = 0; i < a->n; i++) {
			const struct rcl_soft_disk *disk = member_disk(state, dg, a->first + i);
			enum rcl_soft_member_state ms = dg->members[a->first + i].state;

			if (disk && disk->fd >= 0 &&
			    (ms == RCL_SOFT_MEMBER_ONLINE || ms == RCL_SOFT_MEMBER_REBUILD)) {
				dirty = rcl_soft_vol_bitmap_on_disk_dirty(disk->fd, a) ||
				        left_active(disk->fd, sector_size(state, dg), vd, a);
				break;
			}
		}
	}
	return dirty;
}

/* Datasync every member of @ctx (a volume) in use. Return: 0, or -EIO. */
static int sync_all(void *ctx)
{
	struct rcl_soft_volume *vol = ctx;
	struct rcl_soft_op ops[RCL_SOFT_MAX_MEMBERS];
	size_t n = 0;
	int rc;

	for (unsigned i = 0; i < vol->member_count; i++)
		if (vol->members[i].fd >= 0 && !atomic_load(&vol->members[i].failed))
			rcl_soft_vol_op(vol, ops, n++, RCL_SOFT_OP_DATASYNC, i, NULL, 0, 0);
	/* A member that cannot sync is failed while the others hold the data (fail_member()). */
	rc = rcl_soft_vol_run(vol, ops, n);
	if (rc < 0)
		return rc;
	return rc && !rcl_soft_vol_survives(vol) ? -EIO : 0;
}

/* ---- open, close ---- */

/* The data of one full stripe (a strip for RAID0/1/10). */
static uint64_t full_stripe(const struct rcl_soft_geometry *geo)
{
	const struct rcl_soft_array *a = &geo->arrays[0];

	return a->parity ? rcl_soft_array_stripe_bytes(a) * geo->spans : a->chunk;
}

/* The VD's geometry (a migrating VD's new one), window and zeros. */
static enum rcl_status set_geometry(struct rcl_soft_volume *vol, const struct rcl_soft_dg *dg,
                                    const struct rcl_soft_vd *vd, struct rcl_error *err)
{
	enum rcl_status st = dg->migrate.active
	                         ? rcl_soft_vol_reshape_plan(vol, dg, vd, err)
	                         : rcl_soft_geometry_get(dg, vd, vol->sector_size, &vol->geo, err);
	uint64_t stripe;
	void *zeros;

	if (st)
		return st;
	vol->member_count = rcl_soft_dg_members(dg);
	stripe = full_stripe(&vol->geo);
	vol->window = (WINDOW_BYTES + stripe - 1) / stripe * stripe;
	/* Anonymous pages read as zeros without taking memory. */
	zeros = mmap(NULL, vol->window, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (zeros == MAP_FAILED)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	vol->zeros = zeros;
	return RCL_OK;
}

/* Undo set_geometry() and start_serving(). */
static void drop_geometry(struct rcl_soft_volume *vol)
{
	if (vol->cache)
		rcl_soft_vol_cache_close(vol, false);
	rcl_soft_vol_bitmap_close(vol);
	rcl_soft_vol_reshape_close(vol);
	if (vol->zeros)
		munmap((void *)vol->zeros, vol->window);
	vol->zeros = NULL;
}

/* With the members open: what else requests need. */
static enum rcl_status start_serving(struct rcl_soft_volume *vol,
                                     const struct rcl_soft_state *state, struct rcl_error *err)
{
	const struct rcl_soft_dg *dg;
	enum rcl_status st = RCL_OK;

	if (!rcl_soft_vol_survives(vol))
		st = rcl_fail(err, RCL_NOT_ALLOWED,
		              "virtual drive /v%u is offline: more of its drives are lost than its "
		              "RAID level survives",
		              vol->vd);
	if (!st && vol->reshape)
		st = rcl_soft_vol_reshape_resume(vol, state, err);
	/* Not while migrating: the cache knows one geometry (it comes with the next). */
	if (!st && vol->geo.arrays[0].parity && !vol->reshape)
		st = rcl_soft_vol_cache_open(vol, err);
	if (!st && vol->bitmapped)
		st = rcl_soft_vol_bitmap_open(vol, find_vd(state, vol->vd, &dg), err);
	return st;
}

static enum rcl_status prepare(struct rcl_soft_volume *vol, const struct rcl_soft_state *state,
                               struct rcl_error *err)
{
	const struct rcl_soft_dg *dg;
	const struct rcl_soft_vd *vd = find_vd(state, vol->vd, &dg);
	enum rcl_status st;

	if (!vd)
		return rcl_fail(err, RCL_NOT_FOUND, "virtual drive /v%u not found", vol->vd);
	vol->sector_size = sector_size(state, dg);
	if (!vol->sector_size)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "virtual drive /v%u is offline: none of its drives is present",
		                vol->vd);
	st = set_geometry(vol, dg, vd, err);
	if (!st)
		st = apply(vol, state, err);
	return st ? st : start_serving(vol, state, err);
}

/* ---- md's clean and active ---- */

/*
 * md keeps in each array's superblocks whether it is clean: in sync with
 * no write in flight (resync_offset all ones), or active (0). The kernel
 * starts an active array only after resyncing it, and an active degraded
 * one not at all (its parity may be behind its data, with no member left
 * to resync it from). So the arrays of a volume are marked active when it
 * opens, before any write; clean once it has had no write for
 * SAFE_MODE_NS (md's safe mode, safe_mode()) and when it closes, each time
 * with everything durable and in sync; and active again before the next
 * write goes on, which waits for that. A crash soon after writes leaves
 * them active, as md's own would be. Each mark moves md's events as
 * md_update_sb() does (rcl_soft_md_next_events()): a member out of a
 * degraded array falls further behind at every turn. A migration's
 * superblocks are migrate.c's.
 *
 * SAFE_MODE_NS is md's bitmap daemon_sleep (5 s), not md's safe_mode_delay
 * (200 ms): raidcli's own word on a crash is the write-intent bitmap
 * (rcl_soft_vd_left_dirty()), whose bits md's daemon clears after that
 * long idle. Clearing them and marking the arrays clean at one moment
 * gives md and raidcli one answer, and keeps the window in which a crash
 * leaves a VD dirty what it was. A turn costs a superblock write per
 * member, and the bits a bitmap write, which the next write waits for: at
 * most once per 5 s of idleness, never per request.
 */
#define SAFE_MODE_NS ((uint64_t)RCL_MD_BITMAP_DAEMON_SLEEP * 1000000000u)

/* Whether member @i holds a current superblock of its array to mark. */
static bool keeps_md(const struct rcl_soft_volume *vol, unsigned i)
{
	const struct vol_member *m = &vol->members[i];
	const struct rcl_soft_array *a = &vol->geo.arrays[0];

	return a->level != RCL_MD_LEVEL_RAID0 && m->fd >= 0 && !atomic_load(&m->failed) &&
	       (m->state == RCL_SOFT_MEMBER_ONLINE || m->state == RCL_SOFT_MEMBER_REBUILD);
}

/* Whether the volume keeps its arrays' clean and active state (not RAID0, not migrating). */
static bool md_managed(const struct rcl_soft_volume *vol)
{
	return vol->bitmapped && !vol->reshape && vol->geo.arrays[0].level != RCL_MD_LEVEL_RAID0;
}

/* Whether the arrays may say clean: consistent, nothing left to resync, no failure unrecorded. */
static bool in_sync(struct rcl_soft_volume *vol)
{
	for (unsigned i = 0; i < vol->member_count; i++)
		if (atomic_load(&vol->members[i].failed))
			return false;
	return vol->record.consistent && !rcl_soft_volume_needs_resync(vol);
}

/* Whether an array of @vol was left active with no bitmap (left_active()): resync it all. */
static bool crashed_whole(const struct rcl_soft_volume *vol)
{
	if (!vol->bitmapped || vol->reshape)
		return false;
	for (unsigned s = 0; s < vol->geo.spans; s++) {
		const struct rcl_soft_array *a = &vol->geo.arrays[s];
		unsigned i = 0;

		while (i < a->n && !keeps_md(vol, a->first + i))
			i++;
		if (i < a->n &&
		    left_active(vol->members[a->first + i].fd, vol->sector_size, &vol->record, a))
			return true;
	}
	return false;
}

/*
 * An md superblock of member @m could not be read or written (@st, @one):
 * out of memory stops the mark; a member that cannot be marked active
 * fails, as a crash must not find it clean over writes that followed; one
 * with no valid superblock (a rebuild's new drive before it has one) has
 * nothing for md to take.
 */
static enum rcl_status mark_failed(struct rcl_soft_volume *vol, unsigned m, bool clean,
                                   enum rcl_status st, const struct rcl_error *one,
                                   struct rcl_error *err)
{
	if (st == RCL_NOMEM) {
		*err = *one;
		return st;
	}
	if (st == RCL_SYSTEM && !clean)
		rcl_soft_vol_fail(vol, m, one->sys_errno ? one->sys_errno : EIO, true);
	return RCL_OK;
}

/*
 * Mark array @s clean or active, as md_update_sb() does: its events moved
 * from its freshest superblock's, the bitmap's first, on each member that
 * keeps it and that the freshest superblock still counts in (a change may
 * have recorded out a member this volume uses until its update: that one
 * stays behind). @fresh, @sb: room for two superblocks. Holds
 * rcl_soft_md_lock() and @vol->md.lock.
 */
static enum rcl_status mark_array(struct rcl_soft_volume *vol, unsigned s, bool clean,
                                  struct rcl_md_super1 *fresh, struct rcl_md_super1 *sb,
                                  struct rcl_error *err)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[s];
	uint32_t dev[RCL_SOFT_MAX_MEMBERS] = {0};
	bool in[RCL_SOFT_MAX_MEMBERS] = {false}, any = false, whole = true;
	enum rcl_status st = RCL_OK;
	uint64_t events;

	for (unsigned i = 0; i < a->n && !st; i++) {
		unsigned m = a->first + i;
		struct rcl_error one = {0};
		enum rcl_status got = keeps_md(vol, m)
		                          ? rcl_soft_md_read(vol->members[m].fd, vol->sector_size,
		                                             &vol->record, sb, &one)
		                          : RCL_NOT_FOUND;

		if (got) {
			st = mark_failed(vol, m, clean, got, &one, err);
			continue;
		}
		in[i] = true;
		dev[i] = sb->dev_number;
		if (!any || sb->events > fresh->events)
			*fresh = *sb;
		any = true;
	}
	if (st || !any)
		return st;
	for (unsigned i = 0; i < a->n; i++) {
		in[i] =
		    in[i] && dev[i] < fresh->max_dev && fresh->dev_roles[dev[i]] < RCL_MD_ROLE_MAX;
		whole =
		    whole && in[i] && vol->members[a->first + i].state == RCL_SOFT_MEMBER_ONLINE;
	}
	events = rcl_soft_md_next_events(fresh->events, clean,
	                                 whole && vol->md.rollback[s] == fresh->events);
	vol->md.rollback[s] = !clean && whole ? events : 0;
	/* A VD that does not survive this write fails its next request anyway. */
	(void)rcl_soft_vol_bitmap_set_events(vol, s, events, whole);
	for (unsigned i = 0; i < a->n && !st; i++) {
		unsigned m = a->first + i;
		struct rcl_error one = {0};

		if (in[i] && keeps_md(vol, m))
			st = mark_failed(vol, m, clean,
			                 rcl_soft_md_set_clean(vol->members[m].fd, vol->sector_size,
			                                       &vol->record, clean, events, &one),
			                 &one, err);
	}
	return st;
}

/*
 * Mark every array clean or active (@vol->md.lock held, or the volume not
 * shared yet). Return: RCL_OK, or RCL_NOMEM.
 */
static enum rcl_status md_mark(struct rcl_soft_volume *vol, bool clean, struct rcl_error *err)
{
	struct rcl_md_super1 *fresh, *sb;
	enum rcl_status st = RCL_OK;

	if (!md_managed(vol)) {
		vol->md.active = false;
		return RCL_OK;
	}
	fresh = rcl_malloc(sizeof(*fresh));
	sb = rcl_malloc(sizeof(*sb));
	if (!fresh || !sb)
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	rcl_soft_md_lock();
	for (unsigned s = 0; s < vol->geo.spans && !st; s++)
		st = mark_array(vol, s, clean, fresh, sb, err);
	rcl_soft_md_unlock();
	rcl_free(fresh);
	rcl_free(sb);
	if (!st) {
		vol->md.active = !clean;
		pthread_cond_broadcast(&vol->md.moved);
	}
	return st;
}

/*
 * A write is about to go on (@vol->lock read-held): the arrays active
 * first, as md_write_start() has them. Return: 0, or -ENOMEM.
 */
static int md_write_start(struct rcl_soft_volume *vol)
{
	enum rcl_status st = RCL_OK;

	pthread_mutex_lock(&vol->md.lock);
	if (!vol->md.active)
		st = md_mark(vol, false, &(struct rcl_error){0});
	if (!st)
		vol->md.writers++;
	pthread_mutex_unlock(&vol->md.lock);
	return st ? -ENOMEM : 0;
}

static void md_write_end(struct rcl_soft_volume *vol)
{
	pthread_mutex_lock(&vol->md.lock);
	vol->md.writers--;
	vol->md.last_write = rcl_clock_ns(CLOCK_MONOTONIC);
	pthread_mutex_unlock(&vol->md.lock);
}

/*
 * Turn idle arrays clean, writes held off meanwhile (@vol->md.lock): what
 * the stripe cache holds written, the members synced and the bitmap's bits
 * cleared, so that a crash from then on leaves nothing to resync; not
 * while anything is owed a resync or a failure is unrecorded (in_sync()).
 */
static void go_clean(struct rcl_soft_volume *vol)
{
	pthread_rwlock_rdlock(&vol->lock);
	pthread_mutex_lock(&vol->md.lock);
	if (vol->md.active && !vol->md.writers &&
	    rcl_clock_ns(CLOCK_MONOTONIC) - vol->md.last_write >= SAFE_MODE_NS && in_sync(vol) &&
	    !(vol->cache && rcl_soft_vol_cache_flush(vol)) &&
	    !rcl_soft_vol_bitmap_clean(vol, true, sync_all, vol) && in_sync(vol))
		(void)md_mark(vol, true, &(struct rcl_error){0});
	pthread_mutex_unlock(&vol->md.lock);
	pthread_rwlock_unlock(&vol->lock);
}

/*
 * md's safe mode: the arrays of a volume idle for SAFE_MODE_NS turn clean
 * (go_clean()). One that could not (not in sync, or a write came first) is
 * tried again a period later.
 */
static void *safe_mode(void *arg)
{
	struct rcl_soft_volume *vol = arg;
	uint64_t retry = 0;

	pthread_mutex_lock(&vol->md.lock);
	while (!vol->md.stop) {
		uint64_t now = rcl_clock_ns(CLOCK_MONOTONIC);
		uint64_t due = vol->md.last_write + SAFE_MODE_NS;

		due = vol->md.writers ? now + SAFE_MODE_NS : due > retry ? due : retry;
		if (!vol->md.active) {
			pthread_cond_wait(&vol->md.moved, &vol->md.lock);
		} else if (now < due) {
			struct timespec ts = {.tv_sec = (time_t)(due / 1000000000u),
			                      .tv_nsec = (long)(due % 1000000000u)};

			pthread_cond_clockwait(&vol->md.moved, &vol->md.lock, CLOCK_MONOTONIC, &ts);
		} else {
			pthread_mutex_unlock(&vol->md.lock);
			go_clean(vol);
			pthread_mutex_lock(&vol->md.lock);
			retry = now + SAFE_MODE_NS;
		}
	}
	pthread_mutex_unlock(&vol->md.lock);
	return NULL;
}

/* Start the safe-mode thread of a volume that keeps md's state; without one, it stays active. */
static void safe_mode_start(struct rcl_soft_volume *vol)
{
	vol->md.last_write = rcl_clock_ns(CLOCK_MONOTONIC);
	vol->md.running =
	    vol->bitmapped && pthread_create(&vol->md.thread, NULL, safe_mode, vol) == 0;
}

static void safe_mode_stop(struct rcl_soft_volume *vol)
{
	if (!vol->md.running)
		return;
	pthread_mutex_lock(&vol->md.lock);
	vol->md.stop = true;
	pthread_cond_broadcast(&vol->md.moved);
	pthread_mutex_unlock(&vol->md.lock);
	pthread_join(vol->md.thread, NULL);
	vol->md.running = false;
}

static void destroy(struct rcl_soft_volume *vol)
{
	drop_geometry(vol);
	for (unsigned i = 0; i < RCL_SOFT_MAX_MEMBERS; i++) {
		close_member(&vol->members[i]);
		rcl_free(vol->members[i].path);
	}
	rcl_soft_stripe_locks_destroy(&vol->stripes);
	pthread_rwlock_destroy(&vol->lock);
	pthread_mutex_destroy(&vol->failing);
	pthread_cond_destroy(&vol->gate.moved);
	pthread_mutex_destroy(&vol->gate.lock);
	pthread_cond_destroy(&vol->md.moved);
	pthread_mutex_destroy(&vol->md.lock);
	rcl_free(vol);
}

enum rcl_status rcl_soft_volume_open(const struct rcl_soft_state *state, unsigned vd,
                                     const struct rcl_soft_volume_owner *owner,
                                     struct rcl_soft_volume **out, struct rcl_error *err)
{
	return rcl_soft_vol_open(state, vd, owner, true, out, err);
}

enum rcl_status rcl_soft_vol_open(const struct rcl_soft_state *state, unsigned vd,
                                  const struct rcl_soft_volume_owner *owner, bool bitmapped,
                                  struct rcl_soft_volume **out, struct rcl_error *err)
{
	struct rcl_soft_volume *vol = rcl_calloc(1, sizeof(*vol));
	pthread_rwlockattr_t attr;
	enum rcl_status st;

	if (!vol)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	vol->vd = vd;
	vol->bitmapped = bitmapped;
	if (owner)
		vol->owner = *owner;
	for (unsigned i = 0; i < RCL_SOFT_MAX_MEMBERS; i++)
		vol->members[i].fd = vol->members[i].old_fd = -1;
	/* Updates must not starve behind a steady stream of requests. */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&vol->lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	pthread_mutex_init(&vol->failing, NULL);
	pthread_mutex_init(&vol->gate.lock, NULL);
	pthread_cond_init(&vol->gate.moved, NULL);
	pthread_mutex_init(&vol->md.lock, NULL);
	pthread_cond_init(&vol->md.moved, NULL);
	rcl_soft_stripe_locks_init(&vol->stripes);
	st = prepare(vol, state, err);
	/* Before marking them active: whether a crash left them so. */
	atomic_store(&vol->unsynced, !st && crashed_whole(vol) ? 0 : UINT64_MAX);
	if (!st)
		st = md_mark(vol, false, err);
	if (st) {
		destroy(vol);
		return st;
	}
	safe_mode_start(vol);
	*out = vol;
	return RCL_OK;
}

void rcl_soft_volume_close(struct rcl_soft_volume *vol)
{
	int rc = 0;

	if (!vol)
		return;
	/* Nothing marks the arrays behind the close. */
	safe_mode_stop(vol);
	/* Shut down clean: everything durable, no bit left set for md to resync. */
	if (vol->cache)
		rc = rcl_soft_vol_cache_close(vol, true);
	if (rcl_soft_vol_bitmap_clean(vol, true, sync_all, vol))
		rc = -EIO;
	/* Its callers have stopped; whatever still awaits a record did not get one. */
	vol->gate.holds++;
	end_due(gate_move(vol, unrecorded(vol)));
	/* As md stops an array: a superblock write only if it is active. */
	if (!rc && vol->md.active && in_sync(vol))
		(void)md_mark(vol, true, &(struct rcl_error){0});
	destroy(vol);
}

/* Whether a migration of the VD began or ended since @vol took its geometry. */
static bool reshaped(const struct rcl_soft_volume *vol, const struct rcl_soft_state *state)
{
	const struct rcl_soft_dg *dg = NULL;
	const struct rcl_soft_vd *vd = find_vd(state, vol->vd, &dg);

	return vd && (dg->migrate.active != (vol->reshape != NULL) ||
	              rcl_soft_dg_members(dg) != vol->member_count);
}

/*
 * Take the new geometry, everything durable and the bitmap clean first.
 * A volume that cannot is blocked: it serves nothing rather than wrong data.
 */
static enum rcl_status regeometry(struct rcl_soft_volume *vol, const struct rcl_soft_state *state,
                                  struct rcl_error *err)
{
	const struct rcl_soft_dg *dg = NULL;
	const struct rcl_soft_vd *vd = find_vd(state, vol->vd, &dg);
	enum rcl_status st;

	if (vol->cache)
		rcl_soft_vol_cache_close(vol, true);
	rcl_soft_vol_bitmap_clean(vol, true, sync_all, vol);
	drop_geometry(vol);
	st = set_geometry(vol, dg, vd, err);
	if (!st)
		st = apply(vol, state, err);
	if (!st)
		st = start_serving(vol, state, err);
	/* A migration that ended wrote the arrays' superblocks anew, clean: they take writes. */
	pthread_mutex_lock(&vol->md.lock);
	if (!st)
		st = md_mark(vol, false, err);
	pthread_mutex_unlock(&vol->md.lock);
	if (st)
		vol->access = RCL_ACCESS_BLOCKED;
	return st;
}

enum rcl_status rcl_soft_volume_update(struct rcl_soft_volume *vol,
                                       const struct rcl_soft_state *state, struct rcl_error *err)
{
	const struct rcl_soft_dg *dg;
	struct vol_later *due;
	enum rcl_status st;
	bool failed;

	pthread_rwlock_wrlock(&vol->lock);
	if (reshaped(vol, state)) {
		st = regeometry(vol, state, err);
	} else {
		st = apply(vol, state, err);
		if (!st && vol->reshape)
			st = rcl_soft_vol_reshape_update(vol, state, err);
	}
	/* The change bumped the md superblocks' events. A VD that does not survive the bitmap
	 * write fails its next request anyway: the update itself stands. */
	if (!st && vol->bitmapped)
		(void)rcl_soft_vol_bitmap_events(vol, find_vd(state, vol->vd, &dg));
	/* Requests awaiting the record of a failure look again. */
	failed = unrecorded(vol);
	pthread_mutex_lock(&vol->gate.lock);
	vol->gate.refused &= failed;
	due = gate_move(vol, failed);
	pthread_mutex_unlock(&vol->gate.lock);
	pthread_rwlock_unlock(&vol->lock);
	end_due(due);
	return st;
}

uint64_t rcl_soft_volume_bytes(const struct rcl_soft_volume *vol)
{
	return vol->geo.bytes;
}

void rcl_soft_volume_block_sizes(const struct rcl_soft_volume *vol, uint32_t *min,
                                 uint32_t *preferred, uint32_t *max)
{
	*min = vol->sector_size;
	*preferred = (uint32_t)full_stripe(&vol->geo);
	*max = (uint32_t)vol->window;
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
	if (vol->access == RCL_ACCESS_BLOCKED)
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
		rc = md_write_start(vol);
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
	awaits = gated && !rc && vol->owner.records && unrecorded(vol);
	if (started)
		md_write_end(vol);
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
	return serve(vol, true, (uint8_t *)vol->zeros, false, len, off, 0, NULL, false);
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
		rc = rcl_soft_vol_bitmap_clean(vol, false, sync_all, vol);
	awaits = gated && !rc && vol->owner.records && unrecorded(vol);
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
