// SPDX-License-Identifier: MIT
/*
 * test-record-crash.c - the configuration record's two-phase update under
 * crashes, I/O errors and allocation failures, on four drive images.
 *
 * Each drive is a sparse image file with a GPT whose first partition is the
 * raidcli metadata partition, holding generation G committed (and G-1 in
 * the other slot). An update to G+1 makes 2 writes per drive (prepare,
 * then commit) and a fdatasync after each. A fault layer under the record
 * code's writes (fault-io.h) then:
 *  - crashes after write k, for every k: the writes after it never reach
 *    the disk, optionally with write k+1 torn (only its first sector, or
 *    all but it, reached the disk) or with every write not yet synced
 *    lost (as SQLite's test6.c drops unsynced writes);
 *  - fails call j (a write or a sync) with EIO, once or from then on.
 * After each fault the drives are closed and opened again, as after a
 * restart, and loading must pick exactly G or exactly G+1 on every drive
 * (G+1 whenever a commit reached a disk); the next update must complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fault-io.h"
#include "soft/format/gpt.h"
#include "soft/format/record.h"
#include "unit.h"

#define MIB    (1ull << 20)
#define IMAGE  (8 * MIB)
#define SECTOR 512u
#define DRIVES 4
#define SERIAL "RCLCFAULT1"
/* The generation on the drives before the update under test. */
#define G 2
/* Writes in one update of every drive: prepare and commit. */
#define WRITES (2 * DRIVES)
/* Calls (writes and syncs) in one update. */
#define CALLS (2 * WRITES)

/* ---- Configurations ---- */

/* Configurations are numbered 1 to 4; a payload fits this many bytes. */
#define CONFIG_BYTES (16384 + 3001 * 4)

/* The payload of configuration @id: JSON text of a size that differs per id. */
static size_t payload(unsigned id, uint8_t *buf)
{
	size_t len = 16384 + 3001 * id;
	int head = snprintf((char *)buf, len, "{\"config\":%u,\"pad\":\"", id);

	for (size_t i = (size_t)head; i < len - 2; i++)
		buf[i] = (uint8_t)('a' + (i * 7 + id) % 26);
	memcpy(buf + len - 2, "\"}", 2);
	return len;
}

/* Configuration @id as generation @generation. */
struct config {
	uint8_t bytes[CONFIG_BYTES];
	struct rcl_soft_record_config cfg;
};

static void config_make(struct config *c, unsigned id, uint64_t generation)
{
	c->cfg.generation = generation;
	c->cfg.serial = SERIAL;
	c->cfg.payload = c->bytes;
	c->cfg.len = payload(id, c->bytes);
}

/* ---- Four drives ---- */

/* The fault being recovered from, for failure messages. */
static char where[64];

struct rig {
	char *dir;
	char *paths[DRIVES];
	int fds[DRIVES];
	struct rcl_soft_record_drive d[DRIVES];
	struct rcl_soft_record_verdict v[DRIVES];
	struct rcl_soft_record_choice choice;
	uint8_t *saved[DRIVES]; /* the partitions as rig_new() left them */
};

static void make_image(const char *path)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	struct rcl_error err = {0};
	struct rcl_gpt_part *p;
	int fd;

	ck_assert_ptr_nonnull(gpt);
	unit_make_image(path, IMAGE);
	fd = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(rcl_gpt_init(gpt, IMAGE, SECTOR, &err), RCL_OK);
	p = &gpt->parts[0];
	p->type = rcl_soft_record_part_type;
	ck_assert_int_eq(rcl_guid_random(&p->guid, &err), RCL_OK);
	p->first_lba = rcl_gpt_first_aligned_lba(gpt);
	p->last_lba = p->first_lba + RCL_SOFT_RECORD_PART_BYTES / SECTOR - 1;
	strcpy(p->name, "raidcli metadata");
	ck_assert_msg(rcl_gpt_write(fd, gpt, &err) == RCL_OK, "%s", err.msg);
	close(fd);
	free(gpt);
}

/* Open drive @i as a restarted controller would: find its partition in the GPT. */
static void open_drive(struct rig *r, int i, bool present)
{
	struct rcl_gpt *gpt = calloc(1, sizeof(*gpt));
	struct rcl_error err = {0};
	const struct rcl_gpt_part *p;

	ck_assert_ptr_nonnull(gpt);
	r->fds[i] = open(r->paths[i], O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(r->fds[i], 0);
	ck_assert_msg(rcl_gpt_read(r->fds[i], IMAGE, SECTOR, gpt, &err) == RCL_OK, "%s", err.msg);
	p = &gpt->parts[0];
	ck_assert_mem_eq(p->type.b, rcl_soft_record_part_type.b, 16);
	rcl_soft_record_drive_init(&r->d[i], r->fds[i], p->first_lba * SECTOR,
	                           (p->last_lba - p->first_lba + 1) * SECTOR, &p->guid);
	free(gpt);
	if (present)
		ck_assert_msg(rcl_soft_record_read(&r->d[i], &err) == RCL_OK, "%s", err.msg);
}

/* Open every drive; a drive not in @present stays absent (unplugged). */
static void rig_open(struct rig *r, unsigned present)
{
	for (int i = 0; i < DRIVES; i++)
		open_drive(r, i, present & (1u << i));
}

/* Drop everything in memory, as a crash or a restart does. */
static void rig_close(struct rig *r)
{
	for (int i = 0; i < DRIVES; i++) {
		rcl_soft_record_drive_release(&r->d[i]);
		close(r->fds[i]);
	}
}

#define ALL ((1u << DRIVES) - 1)

static enum rcl_status rig_choose(struct rig *r)
{
	struct rcl_error err = {0};

	return rcl_soft_record_choose(r->d, DRIVES, SERIAL, &r->choice, r->v, &err);
}

static void rig_update(struct rig *r, unsigned id, uint64_t generation)
{
	static struct config c;
	struct rcl_error err = {0};

	config_make(&c, id, generation);
	ck_assert_msg(rcl_soft_record_update(r->d, DRIVES, &c.cfg, &err) == RCL_OK, "%s", err.msg);
}

/* Four drives holding configuration 1 as G-1 and configuration 2 as G, both committed. */
static void rig_new(struct rig *r)
{
	memset(r, 0, sizeof(*r));
	r->dir = unit_tmpdir();
	for (int i = 0; i < DRIVES; i++) {
		char name[16];

		snprintf(name, sizeof(name), "drive%d.img", i);
		r->paths[i] = unit_path(r->dir, name);
		make_image(r->paths[i]);
	}
	rig_open(r, ALL);
	ck_assert_int_eq(rig_choose(r), RCL_NOT_FOUND);
	rig_update(r, 1, G - 1);
	rig_update(r, 2, G);
	for (int i = 0; i < DRIVES; i++) {
		r->saved[i] = malloc(RCL_SOFT_RECORD_PART_BYTES);
		ck_assert_ptr_nonnull(r->saved[i]);
		ck_assert_int_eq(pread(r->fds[i], r->saved[i], RCL_SOFT_RECORD_PART_BYTES,
		                       (off_t)r->d[i].offset),
		                 RCL_SOFT_RECORD_PART_BYTES);
	}
	rig_close(r);
}

/*
 * Put the metadata partitions back as rig_new() left them: cheaper than
 * new images (whose GPT writes each sync three times), and the record
 * code writes nothing outside them.
 */
static void rig_reset(struct rig *r)
{
	rig_open(r, 0);
	for (int i = 0; i < DRIVES; i++)
		ck_assert_int_eq(pwrite(r->fds[i], r->saved[i], RCL_SOFT_RECORD_PART_BYTES,
		                        (off_t)r->d[i].offset),
		                 RCL_SOFT_RECORD_PART_BYTES);
	rig_close(r);
}

static void rig_free(struct rig *r)
{
	for (int i = 0; i < DRIVES; i++) {
		free(r->paths[i]);
		free(r->saved[i]);
	}
	unit_rmrf(r->dir);
	free(r->dir);
}

/* The payload of drive @i's slot @s is configuration @id, byte for byte. */
static void assert_payload(const struct rig *r, size_t i, unsigned s, unsigned id)
{
	static uint8_t want[CONFIG_BYTES];
	const struct rcl_soft_record_slot *slot = &r->d[i].slots[s];
	size_t len = payload(id, want);

	ck_assert(slot->valid);
	ck_assert_uint_eq(slot->hdr.payload_len, len);
	ck_assert_mem_eq(slot->payload, want, len);
}

/*
 * Load and check: the winner is configuration @id at @generation, and
 * every drive holds it, committed (CURRENT) or pending (BEHIND): none is
 * left with a third configuration or with nothing. Return: how many
 * drives are current.
 */
static size_t assert_loaded(struct rig *r, unsigned id, uint64_t generation)
{
	size_t current = 0;

	ck_assert_msg(rig_choose(r) == RCL_OK, "%s: nothing loads", where);
	ck_assert_msg(r->choice.generation == generation, "%s: generation %llu loads, want %llu",
	              where, (unsigned long long)r->choice.generation,
	              (unsigned long long)generation);
	assert_payload(r, r->choice.drive, r->choice.slot, id);
	for (size_t i = 0; i < DRIVES; i++) {
		enum rcl_soft_record_standing st = r->v[i].standing;

		ck_assert_msg(st == RCL_SOFT_RECORD_CURRENT || st == RCL_SOFT_RECORD_BEHIND,
		              "%s: drive %zu stands %d at generation %llu", where, i, st,
		              (unsigned long long)generation);
		assert_payload(r, i, r->v[i].slot, id);
		current += st == RCL_SOFT_RECORD_CURRENT;
	}
	return current;
}

/* Commit the pending copy on every drive that is behind, as loading should. */
static void roll_forward(struct rig *r)
{
	struct rcl_error err = {0};

	for (size_t i = 0; i < DRIVES; i++)
		if (r->v[i].standing == RCL_SOFT_RECORD_BEHIND)
			ck_assert_msg(rcl_soft_record_commit(&r->d[i], r->v[i].slot, &err) ==
			                  RCL_OK,
			              "%s", err.msg);
}

/*
 * After a fault: restart, load (G, or G+1 when @new_won), roll forward,
 * then update everything to configuration 4 and check all drives agree.
 */
static void recover(struct rig *r, bool new_won)
{
	uint64_t next;

	rig_close(r);
	rig_open(r, ALL);
	if (new_won) {
		size_t current = assert_loaded(r, 3, G + 1);

		roll_forward(r);
		rig_close(r);
		rig_open(r, ALL);
		ck_assert_uint_eq(assert_loaded(r, 3, G + 1), DRIVES);
		ck_assert_uint_ge(current, 1);
	} else {
		ck_assert_uint_eq(assert_loaded(r, 2, G), DRIVES);
	}
	/* A generation above anything any drive holds, even an abandoned pending one. */
	next = r->choice.next_generation;
	ck_assert(next == G + 1 || next == G + 2);
	rig_update(r, 4, next);
	rig_close(r);
	rig_open(r, ALL);
	ck_assert_uint_eq(assert_loaded(r, 4, next), DRIVES);
	rig_close(r);
}

/* ---- Crashes ---- */

/* Commits that reached a disk when the machine died after write @k. */
static unsigned long commits_made(unsigned long k, enum fault_crash crash)
{
	/* A lost unsynced write is the crash one write earlier. */
	if (crash == FAULT_UNSYNCED && k > 0)
		k--;
	/*
	 * A commit's fields all sit in its header's first sector, so a torn
	 * commit that wrote that sector is a whole commit. (A torn prepare is
	 * no prepare: its CRCs fail.)
	 */
	if (crash == FAULT_TORN_HEAD && k < WRITES)
		k++;
	return k > DRIVES ? k - DRIVES : 0;
}

START_TEST(test_crash_after_every_write)
{
	static const struct {
		enum fault_crash kind;
		const char *name;
	} crashes[] = {{FAULT_CLEAN, "clean"},
	               {FAULT_TORN_HEAD, "torn head"},
	               {FAULT_TORN_TAIL, "torn tail"},
	               {FAULT_UNSYNCED, "unsynced lost"}};
	struct rig r;
	struct config c;

	rig_new(&r);
	config_make(&c, 3, G + 1);
	/* Count the writes and calls of one update (each run resets the drives). */
	rig_open(&r, ALL);
	fault_arm(FAULT_OFF, 0);
	ck_assert_int_eq(rcl_soft_record_update(r.d, DRIVES, &c.cfg, NULL), RCL_OK);
	ck_assert_uint_eq(fault.writes, WRITES);
	ck_assert_uint_eq(fault.calls, CALLS);
	rig_close(&r);

	for (unsigned long k = 0; k <= WRITES; k++) {
		for (size_t i = 0; i < sizeof(crashes) / sizeof(crashes[0]); i++) {
			unsigned long commits = commits_made(k, crashes[i].kind);

			snprintf(where, sizeof(where), "crash after write %lu, %s", k,
			         crashes[i].name);
			rig_reset(&r);
			rig_open(&r, ALL);
			fault_arm(FAULT_CRASH, k);
			fault.crash = crashes[i].kind;
			/* The code cannot see the crash: the update "succeeds". */
			ck_assert_int_eq(rcl_soft_record_update(r.d, DRIVES, &c.cfg, NULL), RCL_OK);
			if (!fault.crashed)
				fault_crash();
			fault_arm(FAULT_OFF, 0);
			recover(&r, commits > 0);
		}
	}
	rig_free(&r);
}
END_TEST

/* ---- I/O errors ---- */

/* With call @j failing, did any commit reach a disk? */
static bool eio_new_won(unsigned long j, bool persistent)
{
	/* Phase 1 is a write and a sync per drive. */
	unsigned long first_commit_write = 2 * DRIVES + 1;

	if (j < first_commit_write)
		return false;
	/* Transient: the other drives commit. Persistent: those whose write came before @j. */
	return !persistent || j > first_commit_write;
}

static void eio_run(struct rig *r, unsigned long j, bool persistent)
{
	struct rcl_error err = {0};
	struct config c;

	snprintf(where, sizeof(where), "EIO at call %lu%s", j, persistent ? " and after" : "");
	rig_reset(r);
	rig_open(r, ALL);
	config_make(&c, 3, G + 1);
	/* Calls 1 to @j - 1 go through; syncs count and fail as writes do. */
	fault_arm(FAULT_EIO, j - 1);
	fault.persistent = persistent;
	fault.eio_syncs = true;
	ck_assert_int_eq(rcl_soft_record_update(r->d, DRIVES, &c.cfg, &err), RCL_SYSTEM);
	fault_arm(FAULT_OFF, 0);
	ck_assert_int_eq(err.sys_errno, EIO);
	ck_assert_msg(strstr(err.msg, "configuration record"), "%s", err.msg);
	recover(r, eio_new_won(j, persistent));
}

START_TEST(test_eio_at_every_call)
{
	struct rig r;

	rig_new(&r);
	for (unsigned long j = 1; j <= CALLS; j++) {
		eio_run(&r, j, false);
		eio_run(&r, j, true);
	}
	rig_free(&r);
}
END_TEST

/* ---- A drive missing during the update ---- */

START_TEST(test_missing_drive_is_stale)
{
	struct rcl_error err = {0};
	struct config c;
	struct rig r;

	snprintf(where, sizeof(where), "missing drive");
	rig_new(&r);
	rig_open(&r, ALL & ~(1u << 3));
	rig_update(&r, 3, G + 1);
	rig_close(&r);
	/* Back again: it still holds G, and loading says so. */
	rig_open(&r, ALL);
	ck_assert_int_eq(rig_choose(&r), RCL_OK);
	ck_assert_uint_eq(r.choice.generation, G + 1);
	ck_assert_uint_eq(r.choice.next_generation, G + 2);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(r.v[i].standing, RCL_SOFT_RECORD_CURRENT);
	ck_assert_int_eq(r.v[3].standing, RCL_SOFT_RECORD_STALE);
	/* On its own it would load G: a drive alone cannot know it is stale. */
	ck_assert_int_eq(rcl_soft_record_choose(&r.d[3], 1, SERIAL, &r.choice, r.v, &err), RCL_OK);
	ck_assert_uint_eq(r.choice.generation, G);
	/* Rolling it forward is writing the winner to it: prepare, commit. */
	ck_assert_int_eq(rig_choose(&r), RCL_OK);
	config_make(&c, 3, G + 1);
	ck_assert_int_eq(rcl_soft_record_prepare(&r.d[3], &c.cfg, &err), RCL_OK);
	ck_assert_int_eq(rcl_soft_record_commit(&r.d[3], rcl_soft_record_target(&r.d[3]), &err),
	                 RCL_OK);
	rig_close(&r);
	rig_open(&r, ALL);
	ck_assert_uint_eq(assert_loaded(&r, 3, G + 1), DRIVES);
	rig_update(&r, 4, r.choice.next_generation);
	rig_close(&r);
	rig_open(&r, ALL);
	ck_assert_uint_eq(assert_loaded(&r, 4, G + 2), DRIVES);
	rig_close(&r);
	rig_free(&r);
}
END_TEST

START_TEST(test_missing_drive_then_crash)
{
	struct config c;
	struct rig r;

	/* Drive 3 away, the update crashes after drive 0's commit: G+1 wins, 3 is stale. */
	snprintf(where, sizeof(where), "missing drive, then a crash");
	rig_new(&r);
	rig_open(&r, ALL & ~(1u << 3));
	config_make(&c, 3, G + 1);
	fault_arm(FAULT_CRASH, 3 + 1);
	ck_assert_int_eq(rcl_soft_record_update(r.d, DRIVES, &c.cfg, NULL), RCL_OK);
	fault_arm(FAULT_OFF, 0);
	rig_close(&r);
	rig_open(&r, ALL);
	ck_assert_int_eq(rig_choose(&r), RCL_OK);
	ck_assert_uint_eq(r.choice.generation, G + 1);
	ck_assert_int_eq(r.v[0].standing, RCL_SOFT_RECORD_CURRENT);
	ck_assert_int_eq(r.v[1].standing, RCL_SOFT_RECORD_BEHIND);
	ck_assert_int_eq(r.v[2].standing, RCL_SOFT_RECORD_BEHIND);
	ck_assert_int_eq(r.v[3].standing, RCL_SOFT_RECORD_STALE);
	rig_update(&r, 4, r.choice.next_generation);
	rig_close(&r);
	rig_open(&r, ALL);
	ck_assert_uint_eq(assert_loaded(&r, 4, G + 2), DRIVES);
	rig_close(&r);
	rig_free(&r);
}
END_TEST

/* ---- Allocation failures ---- */

static void oom_read(bool persistent)
{
	struct rig r;

	snprintf(where, sizeof(where), "out of memory in read");
	rig_new(&r);
	rig_open(&r, 0);
	for (unsigned long n = 1;; n++) {
		struct rcl_error err = {0};
		enum rcl_status st;

		rcl_alloc_fail_after(n, persistent);
		st = rcl_soft_record_read(&r.d[0], &err);
		if (rcl_alloc_fail_after(0, false) < n) {
			ck_assert_int_eq(st, RCL_OK);
			break;
		}
		ck_assert_int_eq(st, RCL_NOMEM);
		ck_assert(!r.d[0].present);
	}
	assert_payload(&r, 0, 1, 2);
	rig_close(&r);
	rig_free(&r);
}

START_TEST(test_oom_read)
{
	oom_read(false);
	oom_read(true);
}
END_TEST

static void oom_prepare(bool persistent)
{
	static uint8_t before[RCL_SOFT_RECORD_PART_BYTES], after[RCL_SOFT_RECORD_PART_BYTES];
	struct config c;
	struct rig r;

	snprintf(where, sizeof(where), "out of memory in prepare");
	rig_new(&r);
	rig_open(&r, ALL);
	config_make(&c, 3, G + 1);
	ck_assert_int_eq(pread(r.fds[0], before, sizeof(before), (off_t)r.d[0].offset),
	                 (ssize_t)sizeof(before));
	for (unsigned long n = 1;; n++) {
		struct rcl_error err = {0};
		enum rcl_status st;

		rcl_alloc_fail_after(n, persistent);
		st = rcl_soft_record_prepare(&r.d[0], &c.cfg, &err);
		if (rcl_alloc_fail_after(0, false) < n) {
			ck_assert_int_eq(st, RCL_OK);
			break;
		}
		/* Out of memory before the first write: the drive is as it was. */
		ck_assert_int_eq(st, RCL_NOMEM);
		ck_assert_int_eq(pread(r.fds[0], after, sizeof(after), (off_t)r.d[0].offset),
		                 (ssize_t)sizeof(after));
		ck_assert_mem_eq(before, after, sizeof(before));
		assert_payload(&r, 0, 0, 1);
		assert_payload(&r, 0, 1, 2);
	}
	assert_payload(&r, 0, 0, 3);
	rig_close(&r);
	rig_free(&r);
}

START_TEST(test_oom_prepare)
{
	oom_prepare(false);
	oom_prepare(true);
}
END_TEST

/* Every allocation of a whole update failed in turn: G stands until one completes. */
static void oom_update(bool persistent)
{
	struct rig r;
	uint64_t next = 0;

	snprintf(where, sizeof(where), "out of memory in update");
	rig_new(&r);
	for (unsigned long n = 1;; n++) {
		struct rcl_error err = {0};
		struct config c;
		enum rcl_status st;

		rig_open(&r, ALL);
		ck_assert_uint_eq(assert_loaded(&r, 2, G), DRIVES);
		next = r.choice.next_generation;
		config_make(&c, 3, next);
		rcl_alloc_fail_after(n, persistent);
		st = rcl_soft_record_update(r.d, DRIVES, &c.cfg, &err);
		rig_close(&r);
		if (rcl_alloc_fail_after(0, false) < n) {
			ck_assert_int_eq(st, RCL_OK);
			break;
		}
		ck_assert_int_eq(st, RCL_NOMEM);
	}
	rig_open(&r, ALL);
	ck_assert_uint_eq(assert_loaded(&r, 3, next), DRIVES);
	rig_close(&r);
	rig_free(&r);
}

START_TEST(test_oom_update)
{
	oom_update(false);
	oom_update(true);
}
END_TEST

static Suite *record_crash_suite(void)
{
	Suite *s = suite_create("record-crash");
	TCase *tc;

	tc = tcase_create("crash");
	tcase_add_checked_fixture(tc, fault_setup, fault_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_crash_after_every_write);
	suite_add_tcase(s, tc);

	tc = tcase_create("eio");
	tcase_add_checked_fixture(tc, fault_setup, fault_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_eio_at_every_call);
	suite_add_tcase(s, tc);

	tc = tcase_create("missing drive");
	tcase_add_checked_fixture(tc, fault_setup, fault_teardown);
	tcase_add_test(tc, test_missing_drive_is_stale);
	tcase_add_test(tc, test_missing_drive_then_crash);
	suite_add_tcase(s, tc);

	tc = tcase_create("oom");
	tcase_add_checked_fixture(tc, fault_setup, fault_teardown);
	tcase_add_test(tc, test_oom_read);
	tcase_add_test(tc, test_oom_prepare);
	tcase_add_test(tc, test_oom_update);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(record_crash_suite());
}
