// SPDX-License-Identifier: MIT
/*
 * volume.c - an open virtual drive (see volume.h): opening it on its
 * members, following the configuration's changes, md's clean and active
 * flags, closing it. Its members' failures are volume-member.c's, the
 * requests volume-request.c's; the reads and writes themselves are
 * volume-mirror.c's (RAID0/1/10) and volume-parity.c's (RAID5/6/50/60).
 *
 * Members are opened O_RDWR without O_DIRECT: they are often image files
 * on tmpfs, which refuses O_DIRECT, and buffered I/O lets the page cache
 * merge the many small member writes a parity update makes. Durability
 * comes from fdatasync on flush, as for any file; a FUA write's member
 * writes are durable themselves (vol_write_kind()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "soft/config/member.h"
#include "parity.h"
#include "volume-private.h"

/* Requests are served in windows of about this much (whole stripes). */
#define WINDOW_BYTES (4u << 20)

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

int rcl_soft_vol_sync_all(void *ctx)
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
 * no write in flight (resync_offset all ones), or active (0), which it
 * sets before the first write and clears once the array is idle again.
 * The kernel starts an active array only after resyncing it, and an
 * active degraded one not at all (its parity may be behind its data, with
 * no member left to resync it from). So the arrays of a volume are marked
 * active when it opens, before any write, and clean when it closes with
 * everything durable and in sync; a crash leaves them active, as md's
 * own would be. A migration's superblocks are migrate.c's.
 */

/* Whether member @i holds a current superblock of its array to mark. */
static bool keeps_md(const struct rcl_soft_volume *vol, unsigned i)
{
	const struct vol_member *m = &vol->members[i];
	const struct rcl_soft_array *a = &vol->geo.arrays[0];

	return a->level != RCL_MD_LEVEL_RAID0 && m->fd >= 0 && !atomic_load(&m->failed) &&
	       (m->state == RCL_SOFT_MEMBER_ONLINE || m->state == RCL_SOFT_MEMBER_REBUILD);
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
 * Mark the arrays clean or active on every member that keeps them. A
 * member that cannot be written active fails: a crash must not find it
 * clean over writes that followed. One with no valid superblock (a
 * rebuild's new drive before it has one) has nothing for md to take.
 * Return: RCL_OK, or RCL_NOMEM.
 */
static enum rcl_status md_mark(struct rcl_soft_volume *vol, bool clean, struct rcl_error *err)
{
	if (!vol->bitmapped || vol->reshape)
		return RCL_OK;
	for (unsigned i = 0; i < vol->member_count; i++) {
		struct rcl_error one = {0};
		enum rcl_status st =
		    keeps_md(vol, i) ? rcl_soft_md_set_clean(vol->members[i].fd, vol->sector_size,
		                                             &vol->record, clean, &one)
		                     : RCL_OK;

		if (st == RCL_NOMEM) {
			*err = one;
			return st;
		}
		if (st == RCL_SYSTEM && !clean)
			rcl_soft_vol_fail(vol, i, one.sys_errno ? one.sys_errno : EIO, true);
	}
	return RCL_OK;
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
	*out = vol;
	return RCL_OK;
}

void rcl_soft_volume_close(struct rcl_soft_volume *vol)
{
	int rc = 0;

	if (!vol)
		return;
	/* Shut down clean: everything durable, no bit left set for md to resync. */
	if (vol->cache)
		rc = rcl_soft_vol_cache_close(vol, true);
	if (rcl_soft_vol_bitmap_clean(vol, true, rcl_soft_vol_sync_all, vol))
		rc = -EIO;
	/* Its callers have stopped; whatever still awaits a record did not get one. */
	vol->gate.holds++;
	rcl_soft_vol_end_due(rcl_soft_vol_gate_move(vol, rcl_soft_vol_unrecorded(vol)));
	if (!rc && in_sync(vol))
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
	rcl_soft_vol_bitmap_clean(vol, true, rcl_soft_vol_sync_all, vol);
	drop_geometry(vol);
	st = set_geometry(vol, dg, vd, err);
	if (!st)
		st = apply(vol, state, err);
	if (!st)
		st = start_serving(vol, state, err);
	/* A migration that ended wrote the arrays' superblocks anew, clean: they take writes. */
	if (!st)
		st = md_mark(vol, false, err);
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
	failed = rcl_soft_vol_unrecorded(vol);
	pthread_mutex_lock(&vol->gate.lock);
	vol->gate.refused &= failed;
	due = rcl_soft_vol_gate_move(vol, failed);
	pthread_mutex_unlock(&vol->gate.lock);
	pthread_rwlock_unlock(&vol->lock);
	rcl_soft_vol_end_due(due);
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
