// SPDX-License-Identifier: MIT
/*
 * bench/rebuild.c - how fast the soft engine rebuilds one member of a
 * RAID5 of four 1 GB image files, next to fio moving the same bytes on
 * the same files in the same run: three sequential readers and one
 * sequential writer at once, 1 MiB blocks (research/softraid.md section
 * 4: the mixed ceiling a rebuild cannot beat). Both sides are buffered,
 * as the engine is (volume.c), from a cold cache: every image's pages are
 * written back and dropped (posix_fadvise DONTNEED, no root needed)
 * before each run, and both end with their writes synced.
 *
 * Two modes, as "set rebuildpriority" has them:
 * - rebuild-first at rebuildrate 100: minutes per TiB next to the
 *   ceiling's, and their ratio (goal: at most 1.25).
 * - host-first at rebuildrate 30 and 60, under a host load (one thread of
 *   64 KiB random reads and writes through the same volume, as the NBD
 *   export's would be): the rate is the share of the time the rebuild
 *   works (lib/soft/tasks/task.h), measured as the task's time in its steps
 *   over its elapsed time (goal: within 20 % of the set rate), and the
 *   bandwidth it got as a share of the rebuild-first one.
 *
 * Each repetition runs every mode once; the table shows each, then the
 * median of the ratios (the machine is shared: compare ratios, not times).
 *
 * Usage: bench-rebuild RAIDCLI [DIR [REPEAT]]  (DIR: where the images go,
 * default the current directory, on a real disk rather than tmpfs;
 * REPEAT: default 3)
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "raidcli.h"
#include "soft/soft.h"
#include "soft/tasks/task.h"
#include "soft/engine/volume.h"

#define DRIVES   4
#define REBUILT  1
#define MIB      (1024 * 1024ull)
#define HOST_IO  (64 * 1024u)
#define MAX_REPS 20

static const unsigned host_rates[] = {30, 60};
#define HOST_RATES (sizeof(host_rates) / sizeof(host_rates[0]))

/* The bench's state: the owner's view with member REBUILT on a blank drive. */
struct bench {
	const char *raidcli;
	char dir[PATH_MAX];
	char blank[PATH_MAX + 16];
	struct rcl_soft_state view;
	struct rcl_soft_disk *disks;
	const char *paths[DRIVES];
	uint64_t member_bytes;
	uint64_t extent;
	uint64_t start;
};

/* A host-first run's result. */
struct host_run {
	double elapsed;
	double busy;
	uint64_t host_ios;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, const char *why)
{
	fprintf(stderr, "bench-rebuild: %s: %s\n", what, why);
	exit(1);
}

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char line[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (system(line))
		die("failed", line);
}

static void member_failed(void *ctx, unsigned vd, unsigned member, const struct rcl_guid *drive,
                          int error)
{
	(void)ctx;
	(void)drive;
	fprintf(stderr, "bench-rebuild: /v%u member %u failed: %s\n", vd, member, strerror(error));
}

static const struct rcl_soft_volume_owner owner = {member_failed, NULL};

/* Write @path's dirty pages back and drop its cached ones: the next run reads from the disk. */
static void evict(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

static void evict_all(const struct bench *b)
{
	for (unsigned m = 0; m < DRIVES; m++)
		evict(b->paths[m]);
	evict(b->blank);
}

static uint64_t xorshift(uint64_t *seed)
{
	*seed ^= *seed << 13, *seed ^= *seed >> 7, *seed ^= *seed << 17;
	return *seed;
}

/* Fill the VD with data, so the members hold real bytes (not holes). */
static void fill(struct rcl_soft_volume *vol)
{
	uint64_t bytes = rcl_soft_volume_bytes(vol), seed = 88172645463325252ull;
	uint64_t *buf = malloc(4 * MIB);

	for (uint64_t off = 0; off < bytes; off += 4 * MIB) {
		size_t len = bytes - off < 4 * MIB ? bytes - off : 4 * MIB;

		for (size_t i = 0; i < len / 8; i++)
			buf[i] = xorshift(&seed);
		if (rcl_soft_volume_write(vol, buf, len, off, 0))
			die("fill", "write failed");
	}
	rcl_soft_volume_flush(vol);
	free(buf);
}

/* The host load: 64 KiB random reads and writes, one at a time, until @stop. */
struct host_load {
	struct rcl_soft_volume *vol;
	atomic_bool stop;
	uint64_t ios;
};

static void *host_load(void *arg)
{
	struct host_load *h = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ull, blocks = rcl_soft_volume_bytes(h->vol) / HOST_IO;
	uint8_t *buf = calloc(1, HOST_IO);

	while (!atomic_load(&h->stop)) {
		uint64_t r = xorshift(&seed), off = r % blocks * HOST_IO;
		int rc = r >> 63 ? rcl_soft_volume_write(h->vol, buf, HOST_IO, off, 0)
		                 : rcl_soft_volume_read(h->vol, buf, HOST_IO, off);

		if (rc)
			die("host load", strerror(-rc));
		h->ios++;
	}
	free(buf);
	return NULL;
}

/*
 * Member REBUILT rebuilt onto a fresh blank drive at @rate (@host_first,
 * with the host load when @host is given). Return: the wall time from the
 * start to the synced end.
 */
static double rebuild(struct bench *b, unsigned rate, bool host_first, struct host_run *host)
{
	struct rcl_soft_task_params params = {.kind = RCL_SOFT_TASK_REBUILD,
	                                      .member = REBUILT,
	                                      .rate = rate,
	                                      .host_first = host_first};
	struct host_load load = {0};
	struct rcl_soft_task_progress p;
	struct rcl_soft_volume *vol;
	struct rcl_soft_task *task;
	struct rcl_error err = {0};
	pthread_t thread;
	double began;

	sh("rm -f '%s' && truncate -s %llu '%s'", b->blank, (unsigned long long)b->member_bytes,
	   b->blank);
	evict_all(b);
	b->view.cfg.dgs[0].members[REBUILT].state = RCL_SOFT_MEMBER_REBUILD;
	b->view.cfg.dgs[0].members[REBUILT].rebuilt_lba = 0;
	if (rcl_soft_volume_open(&b->view, 0, &owner, &vol, &err))
		die("open", err.msg);
	load.vol = vol;
	if (host && pthread_create(&thread, NULL, host_load, &load))
		die("host load", "no thread");
	began = now();
	if (rcl_soft_task_start(vol, &params, &task, &err))
		die("rebuild", err.msg);
	/* The task's end flushes what it wrote before it reports. */
	rcl_soft_task_wait(task, &p);
	began = now() - began;
	rcl_soft_task_free(task);
	if (host) {
		atomic_store(&load.stop, true);
		pthread_join(thread, NULL);
		*host = (struct host_run){p.elapsed, p.busy, load.ios};
	}
	rcl_soft_volume_close(vol);
	if (p.state != RCL_SOFT_TASK_DONE)
		die("rebuild", "did not finish");
	return began;
}

/* fio's ceiling for the same bytes: the three survivors read, a blank file written, synced. */
static double ceiling(const struct bench *b)
{
	double began;

	sh("rm -f '%s/fio-blank'", b->dir);
	evict_all(b);
	began = now();
	sh("fio --output=/dev/null --ioengine=io_uring --iodepth=16 --bs=1M --direct=0 "
	   "--size=%llu --offset=%llu "
	   "--name=r0 --rw=read --filename='%s' --name=r1 --rw=read --filename='%s' "
	   "--name=r2 --rw=read --filename='%s' "
	   "--name=w --rw=write --end_fsync=1 --offset=0 --filename='%s/fio-blank'",
	   (unsigned long long)b->extent, (unsigned long long)b->start, b->paths[0], b->paths[2],
	   b->paths[3], b->dir);
	return now() - began;
}

static double min_per_tib(const struct bench *b, double seconds)
{
	return seconds * (double)(1ull << 40) / (double)b->extent / 60;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The controller, its VD filled with data, and the view the runs rebuild member REBUILT in. */
static void set_up(struct bench *b, struct rcl_ctx **ctx, struct rcl_ctrl **ctrl)
{
	struct rcl_soft_volume *vol;
	struct rcl_error err = {0};

	strcat(b->dir, "/raidcli-bench-rebuild");
	sh("rm -rf '%s' && mkdir -p '%s'", b->dir, b->dir);
	setenv("RAIDCLI_STATE_DIR", b->dir, 1);
	sh("'%s' add controller type=soft drives=%d size=1GB >/dev/null", b->raidcli, DRIVES);
	sh("'%s' /c0 add vd type=raid5 drives=252:0-%d >/dev/null", b->raidcli, DRIVES - 1);
	if (rcl_ctx_new(ctx, b->dir, &err) || rcl_ctrl_open(*ctx, 0, RCL_LOCK_SHARED, ctrl, &err))
		die("open", err.msg);
	b->view = *((struct soft_ctrl *)(*ctrl)->priv)->state;
	b->disks = malloc(b->view.count * sizeof(*b->disks));
	memcpy(b->disks, b->view.disks, b->view.count * sizeof(*b->disks));
	b->view.disks = b->disks;
	if (rcl_soft_volume_open(&b->view, 0, &owner, &vol, &err))
		die("open", err.msg);
	fill(vol);
	b->extent = rcl_soft_sweep_extent(vol);
	b->start = rcl_soft_sweep_lba(vol, 0) * 512;
	rcl_soft_volume_close(vol);
	snprintf(b->blank, sizeof(b->blank), "%s/blank.img", b->dir);
	for (size_t i = 0; i < b->view.count; i++) {
		struct rcl_soft_disk *d = &b->disks[i];

		if (d->dg != 0 || d->member < 0 || d->member >= DRIVES)
			continue;
		b->paths[d->member] = d->path;
		if (d->member == REBUILT) {
			b->member_bytes = d->bytes;
			d->path = b->blank;
		}
	}
}

int main(int argc, char **argv)
{
	struct bench b = {0};
	double ratio[MAX_REPS], share[HOST_RATES][MAX_REPS], duty[HOST_RATES][MAX_REPS];
	unsigned reps = argc > 3 ? (unsigned)atoi(argv[3]) : 3;
	struct rcl_ctrl *ctrl;
	struct rcl_ctx *ctx;

	if (argc < 2 || !realpath(argc > 2 ? argv[2] : ".", b.dir) || !reps || reps > MAX_REPS) {
		fprintf(stderr, "usage: bench-rebuild RAIDCLI [DIR [REPEAT (1-%d)]]\n", MAX_REPS);
		return 1;
	}
	b.raidcli = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0); /* each row as it comes: a run takes minutes */
	set_up(&b, &ctx, &ctrl);
	printf(
	    "RAID5 of %d x 1 GB image files, member %d rebuilt (%llu MiB), cold cache each run\n",
	    DRIVES, REBUILT, (unsigned long long)(b.extent / MIB));
	printf("%-4s %-28s %9s %9s %8s %9s\n", "run", "mode", "seconds", "min/TiB", "ratio",
	       "achieved");
	for (unsigned r = 0; r < reps; r++) {
		double t_rebuild = rebuild(&b, 100, false, NULL), t_fio = ceiling(&b);

		ratio[r] = t_rebuild / t_fio;
		printf("%-4u %-28s %9.2f %9.1f\n", r + 1, "fio ceiling (3 read, 1 write)", t_fio,
		       min_per_tib(&b, t_fio));
		printf("%-4u %-28s %9.2f %9.1f %8.2f\n", r + 1, "rebuild-first, rate 100",
		       t_rebuild, min_per_tib(&b, t_rebuild), ratio[r]);
		for (unsigned k = 0; k < HOST_RATES; k++) {
			struct host_run h;
			double t = rebuild(&b, host_rates[k], true, &h);
			char mode[64];

			duty[k][r] = 100 * h.busy / h.elapsed;
			share[k][r] = 100 * t_rebuild / t;
			snprintf(mode, sizeof(mode), "host-first, rate %u + host", host_rates[k]);
			printf("%-4u %-28s %9.2f %9.1f %8s %8.1f%%  (bandwidth %.0f%% of rate 100; "
			       "%llu host I/Os)\n",
			       r + 1, mode, t, min_per_tib(&b, t), "", duty[k][r], share[k][r],
			       (unsigned long long)h.host_ios);
		}
	}
	printf("median rebuild-first / ceiling: %.2f (goal <= 1.25)\n", median(ratio, reps));
	for (unsigned k = 0; k < HOST_RATES; k++)
		printf("median host-first rate %u: works %.1f%% of the time (goal %u +- 20%%), "
		       "bandwidth %.0f%% of rate 100's\n",
		       host_rates[k], median(duty[k], reps), host_rates[k], median(share[k], reps));
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	free(b.disks);
	sh("rm -rf '%s'", b.dir);
	return 0;
}
