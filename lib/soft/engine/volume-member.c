// SPDX-License-Identifier: MIT
/*
 * volume-member.c - an open volume's members in use (volume-private.h):
 * which may be read and written, taking one out of use after an I/O
 * error, and whether the VD survives without it; running member I/O.
 */
#include <errno.h>
#include <sys/stat.h>

#include "parity.h"
#include "volume-private.h"

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
		vol->owner.failed(vol->owner.ctx, vol->vd, member, &m->uuid, error);
}

/*
 * Whether @error of member @m is the host's, not the drive's: the file
 * system holding the member's image is full (ENOSPC, EDQUOT) or read-only
 * (EROFS). A block device has no file system under it: its ENOSPC is the
 * drive's (the kernel's answer once a hot-unplugged device's size is 0).
 * Such an
 * error says nothing of the data the member holds, and it usually meets
 * every member at once (they share the file system): failing members for
 * it took a whole VD offline for a full tmpfs, with no way back but
 * wiping. So the member stays in use and the request fails with the errno
 * (NBD's ENOSPC or EPERM), as a full file system fails a write to a file;
 * once space is freed, writes succeed again.
 */
static bool host_error(const struct vol_member *m, int error)
{
	struct stat st;

	if (error == ENOSPC && !fstat(m->fd, &st) && S_ISBLK(st.st_mode))
		return false;
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

	if (host_error(&vol->members[member], error))
		return false;
	pthread_mutex_lock(&vol->failing);
	out = atomic_load(&vol->members[member].failed) || survives_without(vol, (int)member);
	if (out)
		rcl_soft_vol_fail(vol, member, error, true);
	pthread_mutex_unlock(&vol->failing);
	return out;
}

bool rcl_soft_volume_member_error(struct rcl_soft_volume *vol, unsigned member, int error)
{
	return fail_member(vol, member, error);
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
	/* pdcache=off: no member write may sit in a drive's (or the page) cache. */
	if (vol->durable && kind == RCL_SOFT_OP_WRITE)
		kind = RCL_SOFT_OP_WRITE_DURABLE;
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
