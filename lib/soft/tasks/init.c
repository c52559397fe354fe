// SPDX-License-Identifier: MIT
/*
 * init.c - full initialization and erase of a range of positions (see
 * sweep.h): the VD bytes those rows hold are zeroed (or filled with an
 * erase's pattern) through the volume's own zeroing,
 * which writes whole stripes with their parity without reading and takes
 * the same locks as any write. Going through VD bytes rather than member
 * rows keeps what is not VD data: the top raid0's md superblock inside
 * each RAID50/60 span array. The stripes that hold it get their parity
 * from their data instead (a repair), as the VD's creation left that to
 * its first initialization.
 *
 * A wipe is simpler: a drive outside any VD, written as it is.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sweep-private.h"

/*
 * Nested with parity: the positions up to the end of the stripes holding
 * the top raid0's metadata (RAID00's span arrays have no parity to repair).
 */
static uint64_t metadata_end(const struct rcl_soft_volume *vol)
{
	const struct rcl_soft_array *a = &vol->geo.arrays[0];
	uint64_t stripe = rcl_soft_array_stripe_bytes(a);

	return vol->geo.nested && a->parity ? (vol->geo.top_start + stripe - 1) / stripe * a->chunk
	                                    : 0;
}

/* The VD bytes of [@from, @to) written from @block (@vol->window bytes). */
static int fill_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, const void *block)
{
	int rc = rcl_soft_sweep_valid(vol, from, to);
	uint64_t at = rcl_soft_sweep_vd_at(vol, from), end = rcl_soft_sweep_vd_at(vol, to);
	uint64_t meta = metadata_end(vol);
	struct rcl_soft_sweep_counts ignored = {0};

	if (!rc && from < meta)
		rc = rcl_soft_check_range(vol, from, to < meta ? to : meta, true, &ignored);
	if (rc || at == end)
		return rc;
	return rcl_soft_vol_fill(vol, block, end - at, at);
}

int rcl_soft_init_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to)
{
	return fill_range(vol, from, to, vol->zeros);
}

int rcl_soft_erase_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, uint8_t pattern)
{
	uint8_t *block;
	int rc;

	if (!pattern)
		return rcl_soft_init_range(vol, from, to);
	block = rcl_malloc(vol->window);
	if (!block)
		return -ENOMEM;
	memset(block, pattern, vol->window);
	rc = fill_range(vol, from, to, block);
	rcl_free(block);
	return rc;
}

int rcl_soft_wipe_range(int fd, uint64_t from, uint64_t to, uint8_t pattern)
{
	uint8_t *block = rcl_malloc((size_t)(to - from));
	size_t done = 0, len = (size_t)(to - from);
	ssize_t n = 0;
	int rc;

	if (!block)
		return -ENOMEM;
	memset(block, pattern, len);
	while (done < len && (n = pwrite(fd, block + done, len - done, (off_t)(from + done))) > 0)
		done += (size_t)n;
	rc = done == len ? 0 : n < 0 ? -errno : -EIO;
	rcl_free(block);
	return rc;
}
