// SPDX-License-Identifier: MIT
/*
 * patrol.c - patrol read of a range of positions (see sweep.h): every
 * usable member's bytes there are read, parity and copies included, so
 * that a failing drive shows before a rebuild needs it. A read that fails
 * fails its member through the volume, as a request's would; the sweep
 * goes on with the others. Nothing is written, so nothing is locked.
 * The owner may leave members out and bound how many are read at once.
 * A scan reads an area of a drive that no VD covers the same way, counting
 * what fails for the owner to act on.
 */
#include <errno.h>
#include <unistd.h>

#include "sweep-private.h"

static bool skipped(const struct rcl_soft_patrol_opts *opts, unsigned member)
{
	return opts && opts->skip[member / 64] >> (member % 64) & 1;
}

/* Run @ops (@n of them) in groups of at most @opts's max_members. Return: the reads that failed. */
static size_t run_groups(struct rcl_soft_volume *vol, struct rcl_soft_op *ops, size_t n,
                         const struct rcl_soft_patrol_opts *opts)
{
	size_t group = opts && opts->max_members ? opts->max_members : n, failed = 0;

	for (size_t k = 0; k < n; k += group)
		(void)rcl_soft_vol_run(vol, ops + k, n - k < group ? n - k : group);
	/* A read error is counted whether its member could be failed or not. */
	for (size_t i = 0; i < n; i++)
		failed += ops[i].error != 0;
	return failed;
}

static int patrol_array(struct rcl_soft_volume *vol, const struct rcl_soft_array *a, uint64_t from,
                        uint64_t to, const struct rcl_soft_patrol_opts *opts,
                        struct rcl_soft_sweep_counts *counts)
{
	size_t len = to - from, n = 0;
	uint8_t *buf = rcl_malloc(a->n * len);
	struct rcl_soft_op *ops = rcl_malloc(a->n * sizeof(*ops));

	if (buf && ops) {
		for (unsigned i = 0; i < a->n; i++)
			if (!skipped(opts, a->first + i) &&
			    rcl_soft_vol_usable(vol, a->first + i, a->start + to))
				rcl_soft_vol_op(vol, ops, n++, RCL_SOFT_OP_READ, a->first + i,
				                buf + i * len, len, a->start + from);
		counts->media_errors += run_groups(vol, ops, n, opts);
	}
	rcl_free(ops);
	rcl_free(buf);
	return buf && ops ? 0 : -ENOMEM;
}

struct patrol_arg {
	const struct rcl_soft_patrol_opts *opts;
	struct rcl_soft_sweep_counts *counts;
};

static int patrol_batch(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, void *arg)
{
	const struct patrol_arg *pa = arg;
	int rc = 0;

	for (unsigned s = 0; s < vol->geo.spans && !rc; s++)
		rc = patrol_array(vol, &vol->geo.arrays[s], from, to, pa->opts, pa->counts);
	return rc;
}

int rcl_soft_patrol_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to,
                          const struct rcl_soft_patrol_opts *opts,
                          struct rcl_soft_sweep_counts *counts)
{
	struct patrol_arg arg = {opts, counts};

	return rcl_soft_sweep_run(vol, from, to, patrol_batch, &arg);
}

int rcl_soft_scan_range(int fd, uint64_t from, uint64_t to, struct rcl_soft_sweep_counts *counts)
{
	size_t len = (size_t)(to - from), done = 0;
	uint8_t *buf = rcl_malloc(len);
	ssize_t n = 1;

	if (!buf)
		return -ENOMEM;
	while (done < len && (n = pread(fd, buf + done, len - done, (off_t)(from + done))) > 0)
		done += (size_t)n;
	counts->media_errors += done < len;
	rcl_free(buf);
	return 0;
}
