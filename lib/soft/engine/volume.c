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
 * writes are durable themselves (vol_write_kind()), and so is every member
 * write of a VD whose disk cache policy is Off (pdcache=off).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "soft/config/member.h"
#include "soft/format/md-bitmap.h"
#include "soft/format/md-super1.h"
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
	if (!rcl_guid_equal(&m->uuid, uuid))
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

/* Take the members' drives and states and the VD's policies from @state. */
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
	vol->durable = vd->disk_cache == RCL_DISK_CACHE_OFF;
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

int rcl_soft_vol_md_write_start(struct rcl_soft_volume *vol)
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

void rcl_soft_vol_md_write_end(struct rcl_soft_volume *vol)
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
	    !rcl_soft_vol_bitmap_clean(vol, true, rcl_soft_vol_sync_all, vol) && in_sync(vol))
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
	if (rcl_soft_vol_bitmap_clean(vol, true, rcl_soft_vol_sync_all, vol))
		rc = -EIO;
	/* Its callers have stopped; whatever still awaits a record did not get one. */
	vol->gate.holds++;
	rcl_soft_vol_end_due(rcl_soft_vol_gate_move(vol, rcl_soft_vol_unrecorded(vol)));
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
	rcl_soft_vol_bitmap_clean(vol, true, rcl_soft_vol_sync_all, vol);
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
