// SPDX-License-Identifier: MIT
/*
 * test-tasks.c - the soft controller's background tasks (lib/soft/tasks/task.h
 * over lib/soft/tasks/sweep.h) on real soft controllers made by the raidcli
 * binary, for every redundant level:
 *  - rebuild: a member replaced by a blank drive image gets back the very
 *    bytes the old one held; again while a writer keeps writing, after
 *    which the VD reads what was written, checks clean, and still reads it
 *    with the rebuilt member's partner failed;
 *  - check and repair: a clean VD has no mismatches; a parity strip (or a
 *    second copy) overwritten on the image file gives exactly md's count
 *    for one 4 KiB block; repair fixes it and leaves the data alone;
 *  - init: full init reads back zeros and checks clean; background init
 *    repairs deliberately desynced parity;
 *  - pause, resume, stop and a restart from the checkpoint the owner kept;
 *  - the rate and host-first pacing, by what the task reports it did
 *    (sleeps, yields), never by how long it took;
 *  - the patrol read's options: how many members it reads at once (seen
 *    through the fault hook as the reads are issued) and members left out;
 *  - a member's failure reported with its drive: recorded while that drive
 *    is the member, ignored once a hot spare has taken its place.
 * Member I/O errors and a host request held in flight come from the uring
 * layer's test-only fault hook: no real drive fails or stalls on demand.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "soft/config/spare.h"
#include "soft/config/state.h"
#include "soft/format/md-bitmap.h"
#include "soft/soft.h"
#include "soft/engine/stripe.h"
#include "soft/tasks/sweep.h"
#include "soft/tasks/task.h"
#include "soft/engine/uring.h"
#include "soft/engine/volume.h"
#include "unit.h"

#define MIB    (1024 * 1024ull)
#define MAXMEM 16

struct fixture {
	struct unit_state st;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl;
	struct rcl_soft_state *state;
	struct rcl_soft_volume *vol;
	struct rcl_soft_geometry geo;
	uint64_t bytes;
	uint8_t *shadow;
	unsigned members;
	/* The owner's view: a copy of the state whose drives can be swapped. */
	struct rcl_soft_state view;
	struct rcl_soft_disk *disks;
	char *spare_paths[4];
	unsigned spares;
	atomic_uint failed[MAXMEM];
};

static void owner_failed(void *ctx, unsigned vd, unsigned member, const struct rcl_guid *drive,
                         int error)
{
	struct fixture *f = ctx;

	(void)drive;
	(void)vd;
	(void)error;
	atomic_fetch_add(&f->failed[member], 1);
}

static void cli(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void cli(const char *fmt, ...)
{
	char args[256], line[PATH_MAX + 300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "'%s' %s >/dev/null", getenv("RAIDCLI"), args);
	ck_assert_msg(system(line) == 0, "failed: raidcli %s", args);
}

/* The view's drive of member @m. */
static struct rcl_soft_disk *disk_of(struct fixture *f, unsigned m)
{
	for (size_t i = 0; i < f->view.count; i++)
		if (f->view.disks[i].dg == 0 && f->view.disks[i].member == (int)m)
			return &f->view.disks[i];
	ck_abort_msg("member %u has no drive", m);
	return NULL;
}

static void open_volume(struct fixture *f)
{
	const struct rcl_soft_volume_owner owner = {.failed = owner_failed, .ctx = f};
	struct rcl_error err = {0};

	ck_assert_msg(!rcl_soft_volume_open(&f->view, 0, &owner, &f->vol, &err), "%s", err.msg);
}

static void setup_sized(struct fixture *f, const char *type, unsigned drives, const char *size,
                        const char *extra)
{
	struct rcl_error err = {0};

	memset(f, 0, sizeof(*f));
	unit_state_enter(&f->st, NULL);
	cli("add controller type=soft drives=%u size=%s", drives, size);
	cli("/c0 add vd type=%s drives=252:0-%u %s", type, drives - 1, extra);
	f->ctx = unit_ctx_new(f->st.dir);
	ck_assert_msg(!rcl_ctrl_open(f->ctx, 0, RCL_LOCK_SHARED, &f->ctrl, &err), "%s", err.msg);
	f->state = ((struct soft_ctrl *)f->ctrl->priv)->state;
	f->members = rcl_soft_dg_members(&f->state->cfg.dgs[0]);
	ck_assert_uint_le(f->members, MAXMEM);
	f->view = *f->state;
	f->disks = malloc(f->state->count * sizeof(*f->disks));
	ck_assert_ptr_nonnull(f->disks);
	memcpy(f->disks, f->state->disks, f->state->count * sizeof(*f->disks));
	f->view.disks = f->disks;
	ck_assert(
	    !rcl_soft_geometry_get(&f->view.cfg.dgs[0], &f->view.cfg.vds[0], 512, &f->geo, &err));
	open_volume(f);
	f->bytes = rcl_soft_volume_bytes(f->vol);
	f->shadow = calloc(1, f->bytes);
	ck_assert_ptr_nonnull(f->shadow);
}

/* Drives of 16 MB: one write-intent bit each. */
static void setup(struct fixture *f, const char *type, unsigned drives, const char *extra)
{
	setup_sized(f, type, drives, "16MB", extra);
}

static void teardown(struct fixture *f)
{
	rcl_soft_uring_set_fault(NULL, NULL);
	rcl_soft_volume_close(f->vol);
	rcl_ctrl_close(f->ctrl);
	rcl_ctx_free(f->ctx);
	unit_state_leave(&f->st);
	for (unsigned i = 0; i < f->spares; i++)
		free(f->spare_paths[i]);
	free(f->disks);
	free(f->shadow);
}

static void update(struct fixture *f)
{
	struct rcl_error err = {0};

	ck_assert_msg(!rcl_soft_volume_update(f->vol, &f->view, &err), "%s", err.msg);
}

static void set_member(struct fixture *f, unsigned m, enum rcl_soft_member_state state)
{
	f->view.cfg.dgs[0].members[m].state = state;
	f->view.cfg.dgs[0].members[m].rebuilt_lba = 0;
	update(f);
}

/* Fail member @m, then give its role a new blank drive image to rebuild. */
static void replace(struct fixture *f, unsigned m)
{
	struct rcl_soft_disk *disk = disk_of(f, m);
	char name[32];

	ck_assert_uint_lt(f->spares, 4);
	set_member(f, m, RCL_SOFT_MEMBER_FAILED);
	snprintf(name, sizeof(name), "blank%u.img", f->spares);
	f->spare_paths[f->spares] = unit_path(f->st.root, name);
	unit_make_image(f->spare_paths[f->spares], disk->bytes);
	disk->path = f->spare_paths[f->spares++];
	set_member(f, m, RCL_SOFT_MEMBER_REBUILD);
}

/* ---- data ---- */

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fill(uint8_t *buf, size_t len, uint64_t *seed)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t v = next_random(seed);

		memcpy(buf + i, &v, 8);
	}
}

/* Seeded data over the whole VD, in the shadow too. */
static void write_all(struct fixture *f, uint64_t seed)
{
	fill(f->shadow, f->bytes, &seed);
	for (uint64_t off = 0; off < f->bytes; off += 4 * MIB) {
		size_t len = f->bytes - off < 4 * MIB ? f->bytes - off : 4 * MIB;

		ck_assert_int_eq(rcl_soft_volume_write(f->vol, f->shadow + off, len, off, 0), 0);
	}
}

/* The whole VD reads back as the shadow. */
static void verify(struct fixture *f)
{
	uint8_t *buf = malloc(4 * MIB);

	for (uint64_t off = 0; off < f->bytes; off += 4 * MIB) {
		size_t len = f->bytes - off < 4 * MIB ? f->bytes - off : 4 * MIB;

		ck_assert_int_eq(rcl_soft_volume_read(f->vol, buf, len, off), 0);
		for (size_t i = 0; i < len; i += 512)
			ck_assert_msg(!memcmp(buf + i, f->shadow + off + i, 512),
			              "VD byte %llu differs", (unsigned long long)(off + i));
	}
	free(buf);
}

/* Member @m's data area, read from its drive image. */
static uint8_t *member_bytes(struct fixture *f, unsigned m)
{
	uint64_t extent = rcl_soft_sweep_extent(f->vol);
	uint8_t *buf = malloc(extent);
	int fd = open(disk_of(f, m)->path, O_RDONLY | O_CLOEXEC);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_ge(fd, 0);
	unit_get(fd, buf, extent, f->geo.arrays[0].start);
	close(fd);
	return buf;
}

/* Overwrite @len bytes at drive byte @at of member @m's image with garbage. */
static void corrupt(struct fixture *f, unsigned m, uint64_t at, size_t len)
{
	uint64_t seed = 0xbad ^ at;
	uint8_t *buf = malloc(len);
	int fd = open(disk_of(f, m)->path, O_RDWR | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	fill(buf, len, &seed);
	unit_put(fd, buf, len, at);
	close(fd);
	free(buf);
}

/*
 * Garbage over 4 KiB of a redundant strip of the VD: the P (or, @q, Q)
 * strip of stripe @stripe of span 0, or the second copy of chunk @stripe.
 */
static void corrupt_redundancy(struct fixture *f, uint64_t stripe, bool q)
{
	const struct rcl_soft_array *a = &f->geo.arrays[0];
	struct rcl_soft_copies c;
	uint64_t run;

	if (a->parity) {
		unsigned role = rcl_soft_array_data_strips(a) + (q && a->parity == 2);

		corrupt(f, a->first + rcl_soft_array_role(a, stripe, role),
		        rcl_soft_array_strip_at(a, stripe) + 4096, 4096);
		return;
	}
	rcl_soft_array_copies(a, stripe * a->chunk, &c, &run);
	corrupt(f, a->first + c.member[1], c.at[1] + 4096, 4096);
}

/*
 * The first byte of member @m's write-intent bits, as md reads them: the
 * bitmap is 8 sectors past the md superblock, itself 8 into the partition.
 */
static uint8_t bitmap_bits(struct fixture *f, unsigned m)
{
	struct rcl_md_bitmap_super bms;
	struct rcl_error err = {0};
	uint8_t buf[512];
	int fd = open(disk_of(f, m)->path, O_RDONLY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	unit_get(fd, buf, sizeof(buf), (f->view.cfg.vds[0].first_lba + 16) * 512);
	close(fd);
	ck_assert_msg(!rcl_md_bitmap_decode(buf, sizeof(buf), 8, &bms, &err), "%s", err.msg);
	return buf[256];
}

/* Close the volume and open it again: closing clears every idle bit. */
static void reopen(struct fixture *f)
{
	rcl_soft_volume_close(f->vol);
	open_volume(f);
}

/* ---- tasks ---- */

/**
 * struct run - one task and what its callbacks saw.
 * @rebuild_member: persist rebuilt_lba of this member at checkpoints.
 * @pause_at, @stop_at: pause or stop at the first checkpoint at or past.
 */
struct run {
	struct fixture *f;
	struct rcl_soft_task *task;
	int rebuild_member;
	uint64_t pause_at, stop_at;
	unsigned checkpoints, dones;
	uint64_t last_checkpoint;
	bool positions_rise;
	struct rcl_soft_task_progress final;
};

static void on_checkpoint(void *ctx, const struct rcl_soft_task_progress *p)
{
	struct run *r = ctx;

	/*
	 * The owner persists the rebuild's progress, and updates the volume
	 * with a record a step behind it (as a slow owner would).
	 */
	if (r->rebuild_member >= 0) {
		r->f->view.cfg.dgs[0].members[r->rebuild_member].rebuilt_lba =
		    rcl_soft_sweep_lba(r->f->vol, r->last_checkpoint);
		update(r->f);
	}
	r->positions_rise &= p->position >= r->last_checkpoint;
	r->last_checkpoint = p->position;
	r->checkpoints++;
	if (r->pause_at && p->position >= r->pause_at && p->state == RCL_SOFT_TASK_RUNNING) {
		r->pause_at = 0;
		rcl_soft_task_pause(r->task);
	}
	if (r->stop_at && p->position >= r->stop_at) {
		r->stop_at = 0;
		rcl_soft_task_stop(r->task);
	}
}

static void on_done(void *ctx, const struct rcl_soft_task_progress *p)
{
	struct run *r = ctx;

	r->dones++;
	r->final = *p;
}

static struct rcl_soft_task_params params(struct run *r, struct fixture *f,
                                          enum rcl_soft_task_kind kind)
{
	*r = (struct run){.f = f, .rebuild_member = -1, .positions_rise = true};
	return (struct rcl_soft_task_params){.kind = kind,
	                                     .rate = 100,
	                                     .checkpoint_steps = 1,
	                                     .checkpoint = on_checkpoint,
	                                     .done = on_done,
	                                     .ctx = r};
}

/* Wait until @r's task is in @state. Return: its progress then. */
static struct rcl_soft_task_progress wait_state(struct run *r, enum rcl_soft_task_state state)
{
	struct rcl_soft_task_progress p;

	for (rcl_soft_task_progress(r->task, &p); p.state != state;
	     rcl_soft_task_progress(r->task, &p))
		usleep(1000);
	return p;
}

static void start(struct fixture *f, struct run *r, const struct rcl_soft_task_params *p)
{
	struct rcl_error err = {0};

	ck_assert_msg(!rcl_soft_task_start(f->vol, p, &r->task, &err), "%s", err.msg);
}

/* Wait for @r's task, free it; its final progress, which the done callback saw too. */
static struct rcl_soft_task_progress finish(struct run *r)
{
	struct rcl_soft_task_progress p;

	rcl_soft_task_wait(r->task, &p);
	rcl_soft_task_free(r->task);
	ck_assert_uint_eq(r->dones, 1);
	ck_assert_uint_eq(r->final.position, p.position);
	ck_assert_int_eq(r->final.state, p.state);
	ck_assert(r->positions_rise);
	return p;
}

/* Run a task of @kind over the whole VD to its end. Return: its final progress. */
static struct rcl_soft_task_progress run_task(struct fixture *f, enum rcl_soft_task_kind kind,
                                              bool repair, int member)
{
	struct run r;
	struct rcl_soft_task_params p = params(&r, f, kind);
	struct rcl_soft_task_progress out;

	p.repair = repair;
	p.member = member >= 0 ? (unsigned)member : 0;
	r.rebuild_member = kind == RCL_SOFT_TASK_REBUILD ? member : -1;
	start(f, &r, &p);
	out = finish(&r);
	ck_assert_msg(out.state == RCL_SOFT_TASK_DONE, "task ended in state %d, error %d",
	              out.state, out.error);
	ck_assert_uint_eq(out.position, out.total);
	ck_assert_uint_eq(out.percent, 100);
	ck_assert_uint_ge(r.checkpoints, 1);
	return out;
}

static uint64_t check(struct fixture *f)
{
	return run_task(f, RCL_SOFT_TASK_CHECK, false, -1).counts.mismatches;
}

/* ---- levels ---- */

struct level_case {
	const char *type;
	unsigned drives;
	const char *extra;
	unsigned rebuild; /* the member rebuilt */
	unsigned partner; /* one whose loss the rebuilt member then covers */
};

static const struct level_case cases[] = {
    {"raid1", 2, "", 1, 0},
    {"raid5", 4, "strip=16", 1, 3},
    {"raid6", 5, "strip=32", 4, 0},
    {"raid10", 4, "", 2, 3},
    {"raid50", 6, "pdperarray=3 strip=16", 4, 5},
    {"raid60", 8, "pdperarray=4", 1, 2},
};

/* Setup, then the background init a new VD starts with: afterwards it checks clean. */
static void setup_case(struct fixture *f, const struct level_case *c)
{
	setup(f, c->type, c->drives, c->extra);
	run_task(f, RCL_SOFT_TASK_BGI, false, -1);
	ck_assert_uint_eq(check(f), 0);
}

/* A writer that keeps writing seeded data until told to stop. */
struct writer {
	struct fixture *f;
	atomic_bool stop;
	atomic_uint writes;
	unsigned errors;
};

static void *write_on(void *arg)
{
	struct writer *w = arg;
	struct fixture *f = w->f;
	uint64_t seed = 0x1234567;
	uint8_t *buf = malloc(256 * 1024);

	while (!atomic_load(&w->stop)) {
		uint64_t sectors = f->bytes / 512, at = next_random(&seed) % sectors;
		uint64_t len = 1 + next_random(&seed) % 512;

		len = at + len > sectors ? sectors - at : len;
		fill(buf, len * 512, &seed);
		w->errors += rcl_soft_volume_write(f->vol, buf, len * 512, at * 512, 0) != 0;
		memcpy(f->shadow + at * 512, buf, len * 512);
		atomic_fetch_add(&w->writes, 1);
	}
	free(buf);
	return NULL;
}

START_TEST(test_rebuild)
{
	const struct level_case *c = &cases[_i];
	struct writer w = {0};
	struct fixture f;
	uint8_t *old, *rebuilt;
	pthread_t thread;
	unsigned before;

	setup_case(&f, c);
	write_all(&f, 7 + _i);
	old = member_bytes(&f, c->rebuild);

	/* Quiet: the new drive gets the very bytes of the old one. */
	replace(&f, c->rebuild);
	verify(&f);
	run_task(&f, RCL_SOFT_TASK_REBUILD, false, (int)c->rebuild);
	rebuilt = member_bytes(&f, c->rebuild);
	ck_assert_msg(!memcmp(old, rebuilt, rcl_soft_sweep_extent(f.vol)),
	              "the rebuilt member differs from the one it replaces");
	free(rebuilt);
	free(old);
	set_member(&f, c->rebuild, RCL_SOFT_MEMBER_ONLINE);
	verify(&f);

	/* Busy: a writer goes on during the rebuild; the data and parity still agree. */
	replace(&f, c->rebuild);
	w.f = &f;
	ck_assert(!pthread_create(&thread, NULL, write_on, &w));
	while ((before = atomic_load(&w.writes)) < 2)
		usleep(1000);
	run_task(&f, RCL_SOFT_TASK_REBUILD, false, (int)c->rebuild);
	ck_assert_uint_gt(atomic_load(&w.writes), before); /* writes went on meanwhile */
	atomic_store(&w.stop, true);
	ck_assert(!pthread_join(thread, NULL));
	ck_assert_uint_eq(w.errors, 0);
	set_member(&f, c->rebuild, RCL_SOFT_MEMBER_ONLINE);
	verify(&f);
	ck_assert_uint_eq(check(&f), 0);
	set_member(&f, c->partner, RCL_SOFT_MEMBER_FAILED);
	verify(&f);
	for (unsigned m = 0; m < f.members; m++)
		ck_assert_uint_eq(atomic_load(&f.failed[m]), 0);
	teardown(&f);
}
END_TEST

START_TEST(test_check_repair)
{
	const struct level_case *c = &cases[_i];
	struct rcl_soft_sweep_counts counts = {0};
	struct rcl_soft_task_progress p;
	struct fixture f;

	setup_case(&f, c);
	write_all(&f, 11 + _i);
	ck_assert_uint_eq(check(&f), 0);
	/* One 4 KiB block of one stripe: md counts its 8 sectors. */
	corrupt_redundancy(&f, 3, true);
	reopen(&f);
	ck_assert_uint_eq(check(&f), 8);
	ck_assert_uint_eq(check(&f), 8); /* a check changes nothing, */
	for (unsigned m = 0; m < f.geo.arrays[0].n; m++)
		ck_assert_uint_eq(bitmap_bits(&f, m), 0); /* not even the bitmap */
	/* A repair writes under the write-intent bitmap like any write (the bits stay till a
	 * flush). */
	ck_assert_int_eq(
	    rcl_soft_check_range(f.vol, 0, rcl_soft_sweep_extent(f.vol), true, &counts), 0);
	ck_assert_uint_eq(counts.mismatches, 8);
	for (unsigned m = 0; m < f.geo.arrays[0].n; m++)
		ck_assert_uint_eq(bitmap_bits(&f, m), 1);
	ck_assert_uint_eq(check(&f), 0);
	verify(&f);
	/* The same through a task. */
	corrupt_redundancy(&f, 3, true);
	p = run_task(&f, RCL_SOFT_TASK_CHECK, true, -1);
	ck_assert_uint_eq(p.counts.mismatches, 8);
	ck_assert_uint_eq(check(&f), 0);
	verify(&f);
	teardown(&f);
}
END_TEST

START_TEST(test_init)
{
	const struct level_case *c = &cases[_i];
	struct rcl_soft_task_progress p;
	struct fixture f;

	setup(&f, c->type, c->drives, c->extra);
	write_all(&f, 13 + _i);
	/* Full init: zeros, and parity that agrees, also where creation left it to init. */
	run_task(&f, RCL_SOFT_TASK_INIT, false, -1);
	memset(f.shadow, 0, f.bytes);
	verify(&f);
	ck_assert_uint_eq(check(&f), 0);
	/* Background init: parity desynced in two stripes is made to agree again. */
	corrupt_redundancy(&f, 1, false);
	corrupt_redundancy(&f, 6, true);
	p = run_task(&f, RCL_SOFT_TASK_BGI, false, -1);
	ck_assert_uint_eq(p.counts.mismatches, 16);
	ck_assert_uint_eq(check(&f), 0);
	verify(&f);
	teardown(&f);
}
END_TEST

/*
 * Write-intent bits a crash left set stay set until their regions are
 * resynced: a background init clears them as it passes them, at its
 * checkpoints (the last one when it ends), not md's daemon_sleep later.
 */
START_TEST(test_crash_bits)
{
	const struct level_case *c = &cases[_i];
	uint8_t bit = 1;
	struct fixture f;

	setup(&f, c->type, c->drives, c->extra);
	rcl_soft_volume_close(f.vol);
	for (unsigned m = 0; m < f.members; m++) {
		int fd = open(disk_of(&f, m)->path, O_RDWR | O_CLOEXEC);

		ck_assert_int_ge(fd, 0);
		unit_put(fd, &bit, 1, (f.view.cfg.vds[0].first_lba + 16) * 512 + 256);
		close(fd);
	}
	open_volume(&f);
	reopen(&f);
	for (unsigned m = 0; m < f.members; m++)
		ck_assert_uint_eq(bitmap_bits(&f, m), 1);
	run_task(&f, RCL_SOFT_TASK_BGI, false, -1);
	for (unsigned m = 0; m < f.members; m++)
		ck_assert_uint_eq(bitmap_bits(&f, m), 0);
	teardown(&f);
}
END_TEST

/*
 * The resync after a crash (a BGI with dirty_only) sweeps the regions
 * whose bits were set when the volume opened, and only those.
 */
START_TEST(test_resync_dirty_only)
{
	const uint64_t region = 64 * MIB; /* the bitmap chunk of 320 MB drives */
	const uint8_t bits = 0x05;        /* regions 0 and 2 dirty */
	struct rcl_soft_task_params tp;
	struct rcl_soft_task_progress p;
	struct fixture f;
	struct run r;
	uint64_t data;

	setup_sized(&f, "raid5", 3, "320MB", ""); /* blank drives: their parity matches */
	ck_assert_uint_eq(f.geo.arrays[0].bitmap_chunk, region);
	ck_assert_uint_eq(f.geo.arrays[0].bitmap_bits, 5);
	rcl_soft_volume_close(f.vol);
	for (unsigned m = 0; m < f.members; m++) {
		int fd = open(disk_of(&f, m)->path, O_RDWR | O_CLOEXEC);

		ck_assert_int_ge(fd, 0);
		unit_put(fd, &bits, 1, (f.view.cfg.vds[0].first_lba + 16) * 512 + 256);
		close(fd);
	}
	data = f.geo.arrays[0].start;
	corrupt(&f, 1, data + 2 * region + 4096, 4096); /* torn in a dirty region */
	corrupt(&f, 1, data + 4 * region + 4096, 4096); /* and in a clean one */
	open_volume(&f);
	ck_assert(rcl_soft_volume_needs_resync(f.vol));
	tp = params(&r, &f, RCL_SOFT_TASK_BGI);
	tp.dirty_only = true;
	start(&f, &r, &tp);
	p = finish(&r);
	ck_assert_int_eq(p.state, RCL_SOFT_TASK_DONE);
	ck_assert_uint_eq(p.position, p.total);
	ck_assert_uint_eq(p.swept, 2 * region);
	ck_assert_uint_eq(p.counts.mismatches, 8); /* the dirty region's block, repaired */
	ck_assert(!rcl_soft_volume_needs_resync(f.vol));
	/* Cleared as the resync passed them, the repaired region's too (its repair set it). */
	for (unsigned m = 0; m < f.members; m++)
		ck_assert_uint_eq(bitmap_bits(&f, m), 0);
	ck_assert_uint_eq(check(&f), 8); /* the clean region's, left alone */
	teardown(&f);
}
END_TEST

/* ---- pause, stop, checkpoints ---- */

START_TEST(test_pause_resume)
{
	struct rcl_soft_task_progress p, later;
	struct fixture f;
	struct run r;
	struct rcl_soft_task_params tp;

	setup(&f, "raid5", 4, "strip=16");
	tp = params(&r, &f, RCL_SOFT_TASK_BGI);
	r.pause_at = rcl_soft_sweep_extent(f.vol) / 2;
	start(&f, &r, &tp);
	p = wait_state(&r, RCL_SOFT_TASK_PAUSED);
	ck_assert_uint_ge(p.position, rcl_soft_sweep_extent(f.vol) / 2);
	ck_assert_uint_lt(p.position, p.total);
	ck_assert_uint_eq(r.last_checkpoint, p.position); /* pausing checkpoints */
	ck_assert_double_ge(p.remaining, 0);
	usleep(50 * 1000);
	rcl_soft_task_progress(r.task, &later);
	ck_assert_int_eq(later.state, RCL_SOFT_TASK_PAUSED);
	ck_assert_uint_eq(later.position, p.position);
	ck_assert_double_eq(later.elapsed, p.elapsed); /* pauses do not count */
	rcl_soft_task_resume(r.task);
	p = finish(&r);
	ck_assert_int_eq(p.state, RCL_SOFT_TASK_DONE);
	ck_assert_uint_eq(p.position, p.total);
	ck_assert_uint_eq(check(&f), 0);

	/* Stopping a paused task ends it where it stood. */
	tp = params(&r, &f, RCL_SOFT_TASK_PATROL);
	r.pause_at = 1;
	start(&f, &r, &tp);
	p = wait_state(&r, RCL_SOFT_TASK_PAUSED);
	rcl_soft_task_stop(r.task);
	later = finish(&r);
	ck_assert_int_eq(later.state, RCL_SOFT_TASK_STOPPED);
	ck_assert_uint_eq(later.position, p.position);
	teardown(&f);
}
END_TEST

START_TEST(test_stop_and_restart)
{
	struct rcl_soft_task_progress p;
	struct rcl_soft_task *task;
	struct rcl_error err = {0};
	struct fixture f;
	struct run r;
	struct rcl_soft_task_params tp;
	uint64_t extent, saved;
	uint8_t *old, *rebuilt;

	setup(&f, "raid6", 5, "strip=16");
	run_task(&f, RCL_SOFT_TASK_BGI, false, -1);
	write_all(&f, 17);
	old = member_bytes(&f, 2);
	replace(&f, 2);
	extent = rcl_soft_sweep_extent(f.vol);

	tp = params(&r, &f, RCL_SOFT_TASK_REBUILD);
	tp.member = 2;
	r.rebuild_member = 2;
	r.stop_at = extent / 2;
	start(&f, &r, &tp);
	p = finish(&r);
	ck_assert_int_eq(p.state, RCL_SOFT_TASK_STOPPED);
	ck_assert_uint_ge(p.position, extent / 2);
	ck_assert_uint_lt(p.position, extent);
	/* The owner keeps the position at the end (the done callback); then restarts. */
	f.view.cfg.dgs[0].members[2].rebuilt_lba = rcl_soft_sweep_lba(f.vol, p.position);
	saved = p.position;
	rcl_soft_volume_close(f.vol);
	open_volume(&f);
	ck_assert_uint_eq(rcl_soft_sweep_rebuilt(f.vol, 2), saved);
	verify(&f);

	/* A restart above what the member holds would leave a hole. */
	tp.from = saved + rcl_soft_sweep_unit(f.vol);
	ck_assert_int_eq(rcl_soft_task_start(f.vol, &tp, &task, &err), RCL_NOT_ALLOWED);
	tp.from = saved + 512;
	ck_assert_int_eq(rcl_soft_task_start(f.vol, &tp, &task, &err), RCL_INVALID_PARAM);

	tp = params(&r, &f, RCL_SOFT_TASK_REBUILD);
	tp.member = 2;
	tp.from = saved;
	r.rebuild_member = 2;
	start(&f, &r, &tp);
	p = finish(&r);
	ck_assert_int_eq(p.state, RCL_SOFT_TASK_DONE);
	rebuilt = member_bytes(&f, 2);
	ck_assert(!memcmp(old, rebuilt, extent));
	free(rebuilt);
	free(old);
	set_member(&f, 2, RCL_SOFT_MEMBER_ONLINE);
	ck_assert_uint_eq(check(&f), 0);
	verify(&f);
	teardown(&f);
}
END_TEST

/* ---- pace ---- */

START_TEST(test_rate)
{
	struct rcl_soft_task_progress p;
	struct fixture f;
	struct run r;
	struct rcl_soft_task_params tp;
	uint64_t steps;

	setup(&f, "raid5", 3, "strip=16");
	steps = (rcl_soft_sweep_extent(f.vol) + rcl_soft_sweep_step(f.vol) - 1) /
	        rcl_soft_sweep_step(f.vol);
	ck_assert_uint_ge(steps, 3);
	p = run_task(&f, RCL_SOFT_TASK_PATROL, false, -1);
	ck_assert_uint_eq(p.sleeps, 0);

	/* Below 100 % the task rests after every step but the last. */
	tp = params(&r, &f, RCL_SOFT_TASK_PATROL);
	tp.rate = 50;
	start(&f, &r, &tp);
	p = finish(&r);
	ck_assert_int_eq(p.state, RCL_SOFT_TASK_DONE);
	ck_assert_uint_eq(p.sleeps, steps - 1);

	/* A new rate wakes a task resting at the slowest one. */
	tp = params(&r, &f, RCL_SOFT_TASK_PATROL);
	tp.rate = 0;
	start(&f, &r, &tp);
	for (rcl_soft_task_progress(r.task, &p); !p.sleeps; rcl_soft_task_progress(r.task, &p))
		usleep(1000);
	rcl_soft_task_set_rate(r.task, 100, false);
	p = finish(&r);
	ck_assert_int_eq(p.state, RCL_SOFT_TASK_DONE);
	ck_assert_uint_eq(p.sleeps, 1);
	teardown(&f);
}
END_TEST

/* Host-first: a host write held in flight by the fault hook. */
struct hold {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t writer;
	bool holding, released;
};

static int hold_writer(void *ctx, const struct rcl_soft_op *op)
{
	struct hold *h = ctx;

	/* The patrol read only reads: every write is the host's. */
	if (op->kind != RCL_SOFT_OP_WRITE)
		return 0;
	pthread_mutex_lock(&h->lock);
	h->holding = true;
	pthread_cond_broadcast(&h->cond);
	while (!h->released)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	return 0;
}

static void *write_once(void *arg)
{
	struct fixture *f = arg;
	static uint8_t block[4096];

	memset(block, 0x5a, sizeof(block));
	ck_assert_int_eq(rcl_soft_volume_write(f->vol, block, sizeof(block), 0, 0), 0);
	return NULL;
}

START_TEST(test_host_first)
{
	struct hold h = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false, false};
	struct rcl_soft_task_progress p;
	struct fixture f;
	struct run r;
	struct rcl_soft_task_params tp;

	setup(&f, "raid10", 4, "");
	p = run_task(&f, RCL_SOFT_TASK_PATROL, false, -1);
	ck_assert_uint_eq(p.yields, 0); /* no host I/O: nothing to give way to */

	pthread_mutex_lock(&h.lock);
	rcl_soft_uring_set_fault(hold_writer, &h);
	ck_assert(!pthread_create(&h.writer, NULL, write_once, &f));
	while (!h.holding)
		pthread_cond_wait(&h.cond, &h.lock);
	pthread_mutex_unlock(&h.lock);

	tp = params(&r, &f, RCL_SOFT_TASK_PATROL);
	tp.host_first = true;
	start(&f, &r, &tp);
	for (rcl_soft_task_progress(r.task, &p); p.yields < 3; rcl_soft_task_progress(r.task, &p))
		usleep(1000);
	pthread_mutex_lock(&h.lock);
	h.released = true;
	pthread_cond_broadcast(&h.cond);
	pthread_mutex_unlock(&h.lock);
	ck_assert(!pthread_join(h.writer, NULL));
	p = finish(&r);
	ck_assert_int_eq(p.state, RCL_SOFT_TASK_DONE);
	ck_assert_uint_ge(p.yields, 3);
	teardown(&f);
}
END_TEST

/* ---- errors ---- */

static int fail_member_reads(void *ctx, const struct rcl_soft_op *op)
{
	return op->kind == RCL_SOFT_OP_READ && op->member == *(unsigned *)ctx ? EIO : 0;
}

START_TEST(test_errors)
{
	struct rcl_soft_task_progress p;
	struct rcl_soft_task_params tp;
	struct rcl_soft_task *task;
	struct rcl_error err = {0};
	struct fixture f;
	unsigned bad = 2;
	struct run r;

	setup(&f, "raid0", 3, "strip=16");
	tp = params(&r, &f, RCL_SOFT_TASK_CHECK);
	ck_assert_int_eq(rcl_soft_task_start(f.vol, &tp, &task, &err), RCL_UNSUPPORTED);
	tp.kind = RCL_SOFT_TASK_REBUILD;
	ck_assert_int_eq(rcl_soft_task_start(f.vol, &tp, &task, &err), RCL_UNSUPPORTED);
	/* RAID0 has no redundancy, but can be initialized and patrolled. */
	write_all(&f, 29);
	p = run_task(&f, RCL_SOFT_TASK_PATROL, false, -1);
	ck_assert_uint_eq(p.counts.media_errors, 0);
	verify(&f);
	run_task(&f, RCL_SOFT_TASK_INIT, false, -1);
	memset(f.shadow, 0, f.bytes);
	verify(&f);
	teardown(&f);

	setup(&f, "raid5", 4, "strip=16");
	run_task(&f, RCL_SOFT_TASK_BGI, false, -1);
	tp = params(&r, &f, RCL_SOFT_TASK_REBUILD);
	tp.member = 1; /* online: nothing to rebuild */
	ck_assert_int_eq(rcl_soft_task_start(f.vol, &tp, &task, &err), RCL_NOT_ALLOWED);
	tp.member = 9;
	ck_assert_int_eq(rcl_soft_task_start(f.vol, &tp, &task, &err), RCL_INVALID_PARAM);
	tp.kind = RCL_SOFT_TASK_PATROL;
	tp.from = rcl_soft_sweep_extent(f.vol) + rcl_soft_sweep_unit(f.vol);
	ck_assert_int_eq(rcl_soft_task_start(f.vol, &tp, &task, &err), RCL_INVALID_PARAM);

	/* A patrol read meets a failing drive: counted, and the member is failed. */
	write_all(&f, 19);
	rcl_soft_uring_set_fault(fail_member_reads, &bad);
	p = run_task(&f, RCL_SOFT_TASK_PATROL, false, -1);
	rcl_soft_uring_set_fault(NULL, NULL);
	ck_assert_uint_eq(p.counts.media_errors, 1);
	ck_assert_uint_eq(atomic_load(&f.failed[2]), 1);
	verify(&f); /* the others still serve the data */

	/* A check needs every member: it stops at once on the degraded VD. */
	tp = params(&r, &f, RCL_SOFT_TASK_CHECK);
	start(&f, &r, &tp);
	p = finish(&r);
	ck_assert_int_eq(p.state, RCL_SOFT_TASK_FAILED);
	ck_assert_int_eq(p.error, -ENXIO);
	ck_assert_uint_eq(p.position, 0);
	teardown(&f);
}
END_TEST

/* A RAID6 rebuild that loses one of its sources goes on with the others. */
START_TEST(test_rebuild_source_fails)
{
	struct rcl_soft_task_progress p;
	struct rcl_soft_task_params tp;
	struct fixture f;
	unsigned bad = 3;
	uint8_t *old, *rebuilt;
	struct run r;

	setup(&f, "raid6", 5, "strip=16");
	run_task(&f, RCL_SOFT_TASK_BGI, false, -1);
	write_all(&f, 23);
	old = member_bytes(&f, 1);
	replace(&f, 1);
	rcl_soft_uring_set_fault(fail_member_reads, &bad);
	p = run_task(&f, RCL_SOFT_TASK_REBUILD, false, 1);
	rcl_soft_uring_set_fault(NULL, NULL);
	ck_assert_uint_eq(p.position, p.total);
	ck_assert_uint_eq(atomic_load(&f.failed[3]), 1);
	rebuilt = member_bytes(&f, 1);
	ck_assert(!memcmp(old, rebuilt, rcl_soft_sweep_extent(f.vol)));
	free(rebuilt);
	free(old);
	set_member(&f, 1, RCL_SOFT_MEMBER_ONLINE);
	set_member(&f, 3, RCL_SOFT_MEMBER_FAILED);
	verify(&f);

	/* With a second source gone too, the data cannot be had: the rebuild fails. */
	replace(&f, 1);
	bad = 0;
	rcl_soft_uring_set_fault(fail_member_reads, &bad);
	tp = params(&r, &f, RCL_SOFT_TASK_REBUILD);
	tp.member = 1;
	r.rebuild_member = 1;
	start(&f, &r, &tp);
	p = finish(&r);
	rcl_soft_uring_set_fault(NULL, NULL);
	ck_assert_int_eq(p.state, RCL_SOFT_TASK_FAILED);
	ck_assert_int_eq(p.error, -EIO);
	ck_assert_uint_eq(p.position, 0);
	teardown(&f);
}
END_TEST

/* ---- a member's failure, reported by its drive ---- */

/* A member failure as the volume reports it to its owner. */
struct report {
	atomic_uint count;
	unsigned vd, member;
	struct rcl_guid drive;
};

static void keep_report(void *ctx, unsigned vd, unsigned member, const struct rcl_guid *drive,
                        int error)
{
	struct report *r = ctx;

	(void)error;
	r->vd = vd;
	r->member = member;
	r->drive = *drive;
	atomic_fetch_add(&r->count, 1);
}

static int fail_member_ops(void *ctx, const struct rcl_soft_op *op)
{
	return op->member == *(unsigned *)ctx ? EIO : 0;
}

static enum rcl_soft_member_state member_state(struct rcl_ctrl *ctrl, unsigned m, unsigned *slot)
{
	const struct rcl_soft_dg *dg = &((struct soft_ctrl *)ctrl->priv)->state->cfg.dgs[0];

	*slot = dg->members[m].slot;
	return dg->members[m].state;
}

/*
 * A RAID1's member 1 fails a write: its report is recorded while that
 * drive is member 1. A hot spare takes the place; the same report coming
 * again late (as one does when the failure was recorded first another
 * way: the process's poll of an unplugged drive, a second volume) is the
 * old drive's, and must not fail the spare rebuilding there.
 */
START_TEST(test_late_failure_report)
{
	struct report r = {0};
	const struct rcl_soft_volume_owner owner = {.failed = keep_report, .ctx = &r};
	struct rcl_soft_volume *vol;
	struct rcl_drive_ref spare;
	struct rcl_error err = {0};
	struct unit_state st;
	struct rcl_ctrl *ctrl;
	struct rcl_ctx *ctx;
	uint8_t block[4096] = {1};
	unsigned bad = 1, slot;

	unit_state_enter(&st, NULL);
	cli("add controller type=soft drives=3 size=16MB");
	cli("/c0 add vd type=raid1 drives=252:0-1");
	cli("/c0/e252/s2 add hotsparedrive");
	ctx = unit_ctx_new(st.dir);
	ck_assert_msg(!rcl_ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE, &ctrl, &err), "%s", err.msg);
	ck_assert_msg(
	    !rcl_soft_volume_open(((struct soft_ctrl *)ctrl->priv)->state, 0, &owner, &vol, &err),
	    "%s", err.msg);
	rcl_soft_uring_set_fault(fail_member_ops, &bad);
	ck_assert_int_eq(rcl_soft_volume_write(vol, block, sizeof(block), 0, 0), 0);
	rcl_soft_uring_set_fault(NULL, NULL);
	ck_assert_uint_eq(atomic_load(&r.count), 1);
	ck_assert_uint_eq(r.member, 1);

	/* Current: member 1 is the drive that failed. */
	ck_assert_msg(!rcl_soft_fail_member(ctrl, r.vd, r.member, &r.drive, &err), "%s", err.msg);
	ck_assert_int_eq(member_state(ctrl, 1, &slot), RCL_SOFT_MEMBER_FAILED);
	ck_assert_uint_eq(slot, 1);

	/* Late: the spare in slot 2 rebuilds member 1 now. */
	ck_assert_msg(!rcl_soft_replace_member(ctrl, 0, 1, NULL, &spare, &err), "%s", err.msg);
	ck_assert_uint_eq(spare.slot, 2);
	ck_assert_int_eq(rcl_soft_fail_member(ctrl, r.vd, r.member, &r.drive, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "member 1 of virtual drive /v0 is another drive now");
	ck_assert_int_eq(member_state(ctrl, 1, &slot), RCL_SOFT_MEMBER_REBUILD);
	ck_assert_uint_eq(slot, 2);

	rcl_soft_volume_close(vol);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	unit_state_leave(&st);
}
END_TEST

/* ---- patrol read options ---- */

/*
 * The patrol read's member reads as the fault hook sees them issued, pass
 * by pass (a pass: one array's reads at one position, in member order):
 * how many of the pass's reads were issued together. The hook sees all of
 * a batch's ops before any of them runs (their @done 0, short of their
 * @len), and those of the pass's earlier batches complete.
 */
struct watch {
	const struct rcl_soft_op *pass[MAXMEM];
	unsigned n, last_member, most_open;
	unsigned reads[MAXMEM];
};

static int watch_reads(void *ctx, const struct rcl_soft_op *op)
{
	struct watch *w = ctx;
	unsigned open = 1;

	if (op->kind != RCL_SOFT_OP_READ)
		return 0;
	if (w->n && op->member <= w->last_member)
		w->n = 0; /* a new pass: the last one's ops are gone */
	for (unsigned i = 0; i < w->n; i++)
		open += w->pass[i]->done < w->pass[i]->len;
	if (open > w->most_open)
		w->most_open = open;
	w->pass[w->n++] = op;
	w->last_member = op->member;
	w->reads[op->member]++;
	return 0;
}

/* A patrol read with @opts under watch. */
static struct watch watch_patrol(struct fixture *f, const struct rcl_soft_patrol_opts *opts)
{
	struct watch w = {0};
	struct rcl_soft_task_params tp;
	struct run r;

	tp = params(&r, f, RCL_SOFT_TASK_PATROL);
	tp.patrol = *opts;
	rcl_soft_uring_set_fault(watch_reads, &w);
	start(f, &r, &tp);
	ck_assert_int_eq(finish(&r).state, RCL_SOFT_TASK_DONE);
	rcl_soft_uring_set_fault(NULL, NULL);
	return w;
}

START_TEST(test_patrol_options)
{
	struct rcl_soft_patrol_opts opts = {0};
	struct fixture f;
	struct watch w;

	setup(&f, "raid5", 4, "strip=16");
	write_all(&f, 41);
	w = watch_patrol(&f, &opts);
	ck_assert_uint_eq(w.most_open, 4); /* by default an array's members are read at once */
	for (unsigned m = 0; m < 4; m++)
		ck_assert_uint_gt(w.reads[m], 0);
	for (unsigned most = 1; most <= 3; most++) {
		opts.max_members = most;
		w = watch_patrol(&f, &opts);
		ck_assert_uint_eq(w.most_open, most);
	}
	/* A member left out is not read at all; the others are. */
	opts = (struct rcl_soft_patrol_opts){.skip = {1u << 2}};
	w = watch_patrol(&f, &opts);
	ck_assert_uint_eq(w.reads[2], 0);
	ck_assert_uint_gt(w.reads[0], 0);
	ck_assert_uint_gt(w.reads[3], 0);
	ck_assert_uint_eq(w.most_open, 3);
	verify(&f);
	teardown(&f);
}
END_TEST

static Suite *tasks_suite(void)
{
	Suite *s = suite_create("tasks");
	TCase *tc = tcase_create("sweeps");
	unsigned n = sizeof(cases) / sizeof(cases[0]);

	tcase_add_loop_test(tc, test_rebuild, 0, (int)n);
	tcase_add_loop_test(tc, test_check_repair, 0, (int)n);
	tcase_add_loop_test(tc, test_init, 0, (int)n);
	tcase_add_loop_test(tc, test_crash_bits, 0, (int)n);
	suite_add_tcase(s, tc);
	tc = tcase_create("runner");
	tcase_add_test(tc, test_resync_dirty_only);
	tcase_add_test(tc, test_pause_resume);
	tcase_add_test(tc, test_stop_and_restart);
	tcase_add_test(tc, test_rate);
	tcase_add_test(tc, test_host_first);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_rebuild_source_fails);
	tcase_add_test(tc, test_late_failure_report);
	tcase_add_test(tc, test_patrol_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(tasks_suite());
}
