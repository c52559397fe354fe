// SPDX-License-Identifier: MIT
/*
 * bench/rebuild.c - how long the soft engine takes to rebuild one member
 * of a RAID5 of four 1 GB image files, next to fio moving the same bytes
 * on the same files in the same run: three sequential readers and one
 * sequential writer at once, 1 MiB blocks, buffered as the engine is
 * (research/softraid.md section 4: the mixed ceiling a rebuild cannot
 * beat). Prints both times, the efficiency (fio's time over the
 * rebuild's; the goal is >= 0.7 for RAID5) and minutes per TiB.
 *
 * Usage: bench-rebuild RAIDCLI [DIR]   (DIR: where the images go; default
 * the current directory, which should be on a real disk, not tmpfs)
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "raidcli.h"
#include "soft/soft.h"
#include "soft/task.h"
#include "soft/volume.h"

#define DRIVES  4
#define REBUILT 1
#define MIB     (1024 * 1024ull)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char line[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (system(line)) {
		fprintf(stderr, "bench-rebuild: failed: %s\n", line);
		exit(1);
	}
}

static void member_failed(void *ctx, unsigned vd, unsigned member, int error)
{
	(void)ctx;
	fprintf(stderr, "bench-rebuild: /v%u member %u failed: %s\n", vd, member, strerror(error));
}

/* Fill the VD with data, so the members hold real bytes (not holes). */
static void fill(struct rcl_soft_volume *vol)
{
	uint64_t bytes = rcl_soft_volume_bytes(vol), seed = 88172645463325252ull;
	uint64_t *buf = malloc(4 * MIB);

	for (uint64_t off = 0; off < bytes; off += 4 * MIB) {
		size_t len = bytes - off < 4 * MIB ? bytes - off : 4 * MIB;

		for (size_t i = 0; i < len / 8; i++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			buf[i] = seed;
		}
		if (rcl_soft_volume_write(vol, buf, len, off, 0))
			exit(1);
	}
	rcl_soft_volume_flush(vol);
	free(buf);
}

int main(int argc, char **argv)
{
	const struct rcl_soft_volume_owner owner = {member_failed, NULL};
	struct rcl_soft_task_params params = {
	    .kind = RCL_SOFT_TASK_REBUILD, .member = REBUILT, .rate = 100};
	char dir[PATH_MAX], blank[PATH_MAX + 16];
	struct rcl_soft_task_progress p;
	struct rcl_soft_volume *vol;
	struct rcl_soft_task *task;
	struct rcl_error err = {0};
	struct rcl_soft_state view;
	struct rcl_soft_disk *disks;
	struct rcl_ctrl *ctrl;
	struct rcl_ctx *ctx;
	double t_rebuild, t_fio;
	const char *paths[DRIVES] = {0};
	uint64_t extent, start;

	if (argc < 2 || !realpath(argc > 2 ? argv[2] : ".", dir)) {
		fprintf(stderr, "usage: bench-rebuild RAIDCLI [DIR]\n");
		return 1;
	}
	strcat(dir, "/raidcli-bench-rebuild");
	sh("rm -rf '%s' && mkdir -p '%s'", dir, dir);
	setenv("RAIDCLI_STATE_DIR", dir, 1);
	sh("'%s' add controller type=soft drives=%d size=1GB >/dev/null", argv[1], DRIVES);
	sh("'%s' /c0 add vd type=raid5 drives=252:0-%d >/dev/null", argv[1], DRIVES - 1);
	if (rcl_ctx_new(&ctx, dir, &err) || rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err)) {
		fprintf(stderr, "bench-rebuild: %s\n", err.msg);
		return 1;
	}
	/* The owner's view of the state, whose member REBUILT gets a blank drive. */
	view = *((struct soft_ctrl *)ctrl->priv)->state;
	disks = malloc(view.count * sizeof(*disks));
	memcpy(disks, view.disks, view.count * sizeof(*disks));
	view.disks = disks;
	for (size_t i = 0; i < view.count; i++)
		if (disks[i].dg == 0 && disks[i].member >= 0 && disks[i].member < DRIVES)
			paths[disks[i].member] = disks[i].path;
	if (rcl_soft_volume_open(&view, 0, &owner, &vol, &err)) {
		fprintf(stderr, "bench-rebuild: %s\n", err.msg);
		return 1;
	}
	fill(vol);
	extent = rcl_soft_sweep_extent(vol);
	start = rcl_soft_sweep_lba(vol, 0) * 512;

	snprintf(blank, sizeof(blank), "%s/blank.img", dir);
	for (size_t i = 0; i < view.count; i++)
		if (disks[i].dg == 0 && disks[i].member == REBUILT) {
			sh("truncate -s %llu '%s'", (unsigned long long)disks[i].bytes, blank);
			disks[i].path = blank;
		}
	view.cfg.dgs[0].members[REBUILT].state = RCL_SOFT_MEMBER_REBUILD;
	view.cfg.dgs[0].members[REBUILT].rebuilt_lba = 0;
	if (rcl_soft_volume_update(vol, &view, &err) ||
	    rcl_soft_task_start(vol, &params, &task, &err)) {
		fprintf(stderr, "bench-rebuild: %s\n", err.msg);
		return 1;
	}
	rcl_soft_task_wait(task, &p);
	rcl_soft_volume_flush(vol);
	t_rebuild = p.elapsed;
	rcl_soft_task_free(task);
	if (p.state != RCL_SOFT_TASK_DONE)
		return 1;

	/* The same bytes with fio: the three sources read, a blank file written. */
	t_fio = now();
	sh("fio --output=/dev/null --ioengine=io_uring --iodepth=16 --bs=1M --direct=0 "
	   "--size=%llu --offset=%llu "
	   "--name=r0 --rw=read --filename='%s' --name=r1 --rw=read --filename='%s' "
	   "--name=r2 --rw=read --filename='%s' "
	   "--name=w --rw=write --end_fsync=1 --offset=0 --filename='%s/fio-blank'",
	   (unsigned long long)extent, (unsigned long long)start, paths[0], paths[2], paths[3],
	   dir);
	t_fio = now() - t_fio;

	printf("RAID5 of %d x 1 GB image files, member %d rebuilt (%llu MiB of it)\n", DRIVES,
	       REBUILT, (unsigned long long)(extent / MIB));
	printf("%-34s %8.2f s  %7.1f MiB/s  %6.1f min/TiB\n", "rebuild (rate 100)", t_rebuild,
	       (double)extent / MIB / t_rebuild,
	       t_rebuild * (1 << 20) / ((double)extent / MIB) / 60);
	printf("%-34s %8.2f s\n", "fio 3 readers + 1 writer", t_fio);
	printf("efficiency (fio / rebuild)         %8.2f   goal >= 0.70\n", t_fio / t_rebuild);
	rcl_soft_volume_close(vol);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	free(disks);
	sh("rm -rf '%s'", dir);
	return 0;
}
