// SPDX-License-Identifier: MIT
/*
 * patrol.c - patrol read of a range of positions (see sweep.h): every
 * usable member's bytes there are read, parity and copies included, so
 * that a failing drive shows before a rebuild needs it. A read that fails
 * fails its member through the volume, as a request's would; the sweep
 * goes on with the others. Nothing is written, so nothing is locked.
 */
#include <errno.h>

#include "sweep-private.h"

static int patrol_array(struct rcl_soft_volume *vol, const struct rcl_soft_array *a, uint64_t from,
                        uint64_t to, struct rcl_soft_sweep_counts *counts)
{
	size_t len = to - from, n = 0;
	uint8_t *buf = rcl_malloc(a->n * len);
	struct rcl_soft_op *ops = rcl_malloc(a->n * sizeof(*ops));

	if (buf && ops) {
		for (unsigned i = 0; i < a->n; i++)
			if (rcl_soft_vol_usable(vol, a->first + i, a->start + to))
				rcl_soft_vol_op(vol, ops, n++, RCL_SOFT_OP_READ, a->first + i,
				                buf + i * len, len, a->start + from);
		counts->media_errors += rcl_soft_vol_run(vol, ops, n);
	}
	rcl_free(ops);
	rcl_free(buf);
	return buf && ops ? 0 : -ENOMEM;
}

static int patrol_batch(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, void *arg)
{
	int rc = 0;

	for (unsigned s = 0; s < vol->geo.spans && !rc; s++)
		rc = patrol_array(vol, &vol->geo.arrays[s], from, to, arg);
	return rc;
}

int rcl_soft_patrol_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to,
                          struct rcl_soft_sweep_counts *counts)
{
	return rcl_soft_sweep_run(vol, from, to, patrol_batch, counts);
}
