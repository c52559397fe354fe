// SPDX-License-Identifier: MIT
/*
 * test-oom.c - out-of-memory loops, as SQLite's malloc tests run them: an
 * operation is repeated with allocation 1, 2, 3, ... failing, transiently
 * (only that one) or persistently (that one and all after it), until it
 * completes without reaching the failure. Each iteration must end in
 * success or in RCL_NOMEM (or a result carrying it), never a crash, and
 * must leave no partial state behind; a run that reports success must
 * have lost nothing. Leaks are caught by running this under ASan/LSan.
 *
 * json-c allocates with plain malloc(): those allocations are not
 * injected, by design.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "unit.h"
#include "soft/soft.h"

#define MIB (1ull << 20)
/* A bound no loop should reach: it would mean the operation never ends. */
#define MAX_ITERATIONS 100000

static struct unit_state scratch;

static void setup(void)
{
	unit_state_enter(&scratch, "state");
}

static void teardown(void)
{
	rcl_alloc_fail_after(0, false);
	unit_state_leave(&scratch);
}

static void report(const char *what, bool persistent, unsigned long iterations)
{
	printf("oom: %-28s %-10s %5lu iterations\n", what, persistent ? "persistent" : "transient",
	       iterations);
	fflush(stdout);
	ck_assert_uint_gt(iterations, 1); /* the operation allocates at all */
	ck_assert_uint_lt(iterations, MAX_ITERATIONS);
}

/* The state a normal run sees: a context, or a failure of the test. */
static void nomem_or_ok(enum rcl_status st, const struct rcl_error *err, unsigned long n)
{
	ck_assert_msg(st == RCL_OK || st == RCL_NOMEM,
	              "allocation %lu failing: status %d (%s), not out of memory", n, st,
	              err ? err->msg : "");
	if (st == RCL_NOMEM && err)
		ck_assert_int_eq(err->status, RCL_NOMEM);
}

/*
 * After a create that failed: no registry entry, no state file, no image,
 * no image directory; only the registry lock (and an empty registry) stay.
 */
static void no_trace_of_a_controller(void)
{
	char *soft = unit_path(scratch.dir, "soft"), *images = unit_path(scratch.dir, "images");
	char *registry = unit_path(scratch.dir, "registry.json");
	struct rcl_ctx *ctx;
	const unsigned *ids;
	size_t files = unit_count(scratch.dir, false);

	ck_assert_uint_eq(unit_count(soft, false), 0);
	ck_assert_uint_eq(unit_count(images, false), 0);
	ck_assert_uint_eq(unit_count(images, true), 0);
	ck_assert_uint_le(files, 1 + unit_exists(registry));
	ctx = unit_ctx_new(scratch.dir);
	ck_assert_uint_eq(rcl_ctx_ctrl_ids(ctx, &ids), 0);
	rcl_ctx_free(ctx);
	free(soft);
	free(images);
	free(registry);
}

static void four_drives(struct rcl_ctx *ctx, unsigned id)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;

	ck_assert_msg(rcl_ctrl_open(ctx, id, RCL_LOCK_SHARED, &ctrl, &err) == RCL_OK, "%s",
	              err.msg);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 4);
	for (size_t i = 0; i < 4; i++) {
		ck_assert(rcl_ctrl_drive(ctrl, i)->present);
		ck_assert_uint_eq(rcl_ctrl_drive(ctrl, i)->raw_bytes, 16 * MIB);
	}
	rcl_ctrl_close(ctrl);
}

static void create_loop(bool persistent)
{
	struct rcl_soft_params params = {.drives = 4, .drive_bytes = 16 * MIB, .sector_size = 512};
	unsigned long n;

	for (n = 1; n < MAX_ITERATIONS; n++) {
		struct rcl_error err = {0};
		struct rcl_ctx *ctx = NULL;
		enum rcl_status st;
		unsigned id = 99;
		bool hit;

		unit_rmrf(scratch.dir);
		rcl_alloc_fail_after(n, persistent);
		st = rcl_ctx_new(&ctx, scratch.dir, &err);
		if (!st)
			st = rcl_soft_create(ctx, &params, &id, &err);
		rcl_ctx_free(ctx);
		hit = rcl_alloc_fail_after(0, false) >= n;
		nomem_or_ok(st, &err, n);
		if (st == RCL_NOMEM) {
			no_trace_of_a_controller();
			/* And a following normal run succeeds, with number 0. */
			ctx = unit_ctx_new(scratch.dir);
			ck_assert_uint_eq(unit_soft_create(ctx, 4, 16 * MIB), 0);
			four_drives(ctx, 0);
			rcl_ctx_free(ctx);
			continue;
		}
		ck_assert_uint_eq(id, 0);
		ctx = unit_ctx_new(scratch.dir);
		four_drives(ctx, 0);
		rcl_ctx_free(ctx);
		if (!hit)
			break;
	}
	report("rcl_ctx_new+rcl_soft_create", persistent, n);
}

START_TEST(test_create_out_of_memory_transient)
{
	create_loop(false);
}
END_TEST

START_TEST(test_create_out_of_memory_persistent)
{
	create_loop(true);
}
END_TEST

/* Open controller 0 and read everything about its drives. */
static enum rcl_status open_and_read(struct rcl_error *err, uint64_t *total)
{
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl;
	enum rcl_status st;

	*total = 0;
	st = rcl_ctx_new(&ctx, scratch.dir, err);
	if (st)
		return st;
	st = rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, err);
	if (!st) {
		for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++)
			*total +=
			    rcl_ctrl_drive(ctrl, i)->raw_bytes + rcl_ctrl_drive(ctrl, i)->slot;
		for (size_t i = 0; i < rcl_ctrl_enclosure_count(ctrl); i++)
			*total += rcl_ctrl_enclosure(ctrl, i)->id;
		rcl_ctrl_close(ctrl);
	}
	rcl_ctx_free(ctx);
	return st;
}

static void open_loop(bool persistent)
{
	struct rcl_error err = {0};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	uint64_t want, got;
	unsigned long n;

	unit_soft_create(ctx, 4, 16 * MIB);
	rcl_ctx_free(ctx);
	ck_assert_int_eq(open_and_read(&err, &want), RCL_OK);
	for (n = 1; n < MAX_ITERATIONS; n++) {
		enum rcl_status st;
		bool hit;

		memset(&err, 0, sizeof(err));
		rcl_alloc_fail_after(n, persistent);
		st = open_and_read(&err, &got);
		hit = rcl_alloc_fail_after(0, false) >= n;
		nomem_or_ok(st, &err, n);
		if (!st)
			ck_assert_uint_eq(got, want); /* nothing is silently lost */
		if (!hit)
			break;
	}
	ck_assert_int_eq(open_and_read(&err, &got), RCL_OK);
	ck_assert_uint_eq(got, want);
	report("rcl_ctrl_open+drives", persistent, n);
}

START_TEST(test_open_out_of_memory_transient)
{
	open_loop(false);
}
END_TEST

START_TEST(test_open_out_of_memory_persistent)
{
	open_loop(true);
}
END_TEST

static size_t drive_count(void)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	size_t n;

	ck_assert_msg(rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err) == RCL_OK, "%s", err.msg);
	n = rcl_ctrl_drive_count(ctrl);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	return n;
}

static void add_drive_loop(bool persistent)
{
	char *extra = unit_path(scratch.root, "extra.img");
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	unsigned long n;

	unit_soft_create(ctx, 2, 16 * MIB);
	rcl_ctx_free(ctx);
	unit_make_image(extra, 16 * MIB);
	for (n = 1; n < MAX_ITERATIONS; n++) {
		struct rcl_error err = {0};
		struct rcl_ctrl *ctrl;
		enum rcl_status st;
		unsigned slot;
		bool hit;

		ctx = unit_ctx_new(scratch.dir);
		ck_assert_int_eq(rcl_ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE, &ctrl, &err), RCL_OK);
		rcl_alloc_fail_after(n, persistent);
		st = rcl_ctrl_add_drive(ctrl, extra, &slot, &err);
		hit = rcl_alloc_fail_after(0, false) >= n;
		nomem_or_ok(st, &err, n);
		if (!st) {
			ck_assert_uint_eq(slot, 2);
			ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 3);
			ck_assert_int_eq(
			    rcl_ctrl_remove_drive(ctrl, rcl_ctrl_drive(ctrl, 2), false, &err),
			    RCL_OK);
		}
		rcl_ctrl_close(ctrl);
		rcl_ctx_free(ctx);
		/* "Nothing changes on failure": the drive is not half added. */
		ck_assert_uint_eq(drive_count(), 2);
		if (!hit)
			break;
	}
	report("rcl_ctrl_add_drive", persistent, n);
	free(extra);
}

START_TEST(test_add_drive_out_of_memory_transient)
{
	add_drive_loop(false);
}
END_TEST

START_TEST(test_add_drive_out_of_memory_persistent)
{
	add_drive_loop(true);
}
END_TEST

/* Drop the lines that hold the clock: they change between two runs. */
static void drop_clock_lines(char *text)
{
	char *out = text;

	for (char *line = text; *line;) {
		char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line + 1) : strlen(line);

		if (!memmem(line, len, "Date/", 5) && !memmem(line, len, " Time", 5)) {
			memmove(out, line, len);
			out += len;
		}
		line += len;
	}
	*out = '\0';
}

/* Fail naming the first line where @got differs from @want. */
static void same_output(const char *got, const char *want, unsigned long n)
{
	size_t line = 1, i = 0;

	while (got[i] && got[i] == want[i])
		line += got[i++] == '\n';
	while (i && got[i - 1] != '\n')
		i--;
	ck_assert_msg(!strcmp(got, want),
	              "allocation %lu failing: success, but output line %zu differs: '%.80s'", n,
	              line, got + i);
}

static char *render_both(const struct rcl_reply *reply)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(out);
	render_json(out, reply);
	render_text(out, reply, false);
	fclose(out);
	drop_clock_lines(text);
	return text;
}

/*
 * Split, parse and run @line into @reply, printing its results as they
 * come with @rs (or none). Return: what cli_run() returned, or the
 * split's or parse's failure.
 */
static enum rcl_status run_line(const char *line, struct rcl_reply *reply, struct render_stream *rs)
{
	struct rcl_error err = {0};
	struct cmd_args args;
	enum rcl_status st;
	char **argv;
	int argc;

	st = cli_split_line(line, &argc, &argv, &err);
	if (st)
		return st;
	st = cli_parse(argc, argv, &args, &err);
	if (!st)
		st = cli_run(&args, reply, rs);
	cli_free_words(argc, argv);
	return st;
}

/* Run @line (with its own reply) where a failure fails the test. */
static void must_run(const char *line)
{
	struct rcl_reply reply;

	rcl_reply_init(&reply);
	ck_assert_msg(run_line(line, &reply, NULL) == RCL_OK, "'%s' failed", line);
	rcl_reply_release(&reply);
}

/*
 * The loop on @line, after two controllers (4 and 2 drives) and @setup
 * (lines, each a command).
 */
static void cli_loop_after(const char *setup, const char *line, bool persistent)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_reply reply;
	char *want, *got;
	unsigned long n;

	unit_soft_create(ctx, 4, 16 * MIB);
	unit_soft_create(ctx, 2, 16 * MIB);
	rcl_ctx_free(ctx);
	for (const char *p = setup; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
		char *one = strndup(p, strcspn(p, "\n"));

		must_run(one);
		free(one);
	}
	rcl_reply_init(&reply);
	ck_assert_int_eq(run_line(line, &reply, NULL), RCL_OK);
	want = render_both(&reply);
	rcl_reply_release(&reply);

	for (n = 1; n < MAX_ITERATIONS; n++) {
		enum rcl_status st;
		unsigned long made;
		bool all_ok = true;

		rcl_reply_init(&reply);
		rcl_alloc_fail_after(n, persistent);
		st = run_line(line, &reply, NULL);
		made = rcl_alloc_fail_after(0, false);
		nomem_or_ok(st, NULL, n);
		ck_assert_msg(st || reply.count, "allocation %lu: success without a result", n);
		for (size_t i = 0; i < reply.count; i++) {
			nomem_or_ok(reply.results[i].status, NULL, n);
			all_ok = all_ok && !reply.results[i].status;
		}
		ck_assert_msg(!reply.count || !st == all_ok,
		              "allocation %lu: status %d disagrees with results", n, st);
		if (made >= n) {
			/* The failure hit the run: a success must have lost nothing. */
			got = render_both(&reply);
			if (!st)
				same_output(got, want, n);
			free(got);
		} else {
			/* It hits the renderers: they must not crash, whatever they print. */
			rcl_alloc_fail_after(n - made, persistent);
			got = render_both(&reply);
			made = rcl_alloc_fail_after(0, false) + made;
			if (made < n) {
				/* Never reached: this was the normal run. */
				ck_assert_int_eq(st, RCL_OK);
				same_output(got, want, n);
				free(got);
				rcl_reply_release(&reply);
				break;
			}
			free(got);
		}
		rcl_reply_release(&reply);
	}
	report(line, persistent, n);
	free(want);
}

static void cli_loop(const char *line, bool persistent)
{
	cli_loop_after(NULL, line, persistent);
}

static char *render_whole_json(const struct rcl_reply *reply)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(out);
	render_json(out, reply);
	fclose(out);
	drop_clock_lines(text);
	return text;
}

/* @line's JSON printed as its results come, as main() does: run, then what is left and the end. */
static char *run_streamed(const char *line, enum rcl_status *st)
{
	struct rcl_reply reply;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	struct render_stream rs = {.out = out, .json = true};

	ck_assert_ptr_nonnull(out);
	rcl_reply_init(&reply);
	*st = run_line(line, &reply, &rs);
	render_reply(&reply, &rs, false);
	rcl_reply_release(&reply);
	fclose(out);
	drop_clock_lines(text);
	return text;
}

/*
 * @line over both controllers, each result printed as soon as it is in
 * (how a fleet's come out): whichever allocation fails, what was printed
 * is one JSON document, and a success prints what the whole reply would.
 */
static void streamed_loop(const char *line, bool persistent)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_reply reply;
	enum rcl_status st;
	char *want, *got;
	unsigned long n, made = 0;

	unit_soft_create(ctx, 4, 16 * MIB);
	unit_soft_create(ctx, 2, 16 * MIB);
	rcl_ctx_free(ctx);
	rcl_reply_init(&reply);
	ck_assert_int_eq(run_line(line, &reply, NULL), RCL_OK);
	ck_assert_uint_eq(reply.count, 2);
	want = render_whole_json(&reply);
	rcl_reply_release(&reply);
	for (n = 1; n < MAX_ITERATIONS; n++) {
		json_object *doc;

		rcl_alloc_fail_after(n, persistent);
		got = run_streamed(line, &st);
		made = rcl_alloc_fail_after(0, false);
		nomem_or_ok(st, NULL, n);
		if (!*got) {
			/* main()'s "out of memory" on stderr: no result could hold it. */
			ck_assert_msg(st, "allocation %lu: success, but nothing printed", n);
		} else {
			doc = json_tokener_parse(got);
			ck_assert_msg(
			    doc, "allocation %lu failing: not one JSON document:\n%.2000s", n, got);
			json_object_put(doc);
			/* A failure is never printed as a success. */
			ck_assert_msg(
			    !st || strstr(got, "\"Status\" : \"Failure\""),
			    "allocation %lu failing: failed, but printed no failure:\n%.2000s", n,
			    got);
		}
		if (!st)
			same_output(got, want, n);
		free(got);
		if (made < n)
			break;
	}
	report(line, persistent, n);
	free(want);
}

START_TEST(test_streamed_show_out_of_memory_transient)
{
	streamed_loop("/call show all", false);
}
END_TEST

START_TEST(test_streamed_show_out_of_memory_persistent)
{
	streamed_loop("/call show all", true);
}
END_TEST

START_TEST(test_ctrl_show_all_out_of_memory_transient)
{
	cli_loop("/c0 show all", false);
}
END_TEST

START_TEST(test_ctrl_show_all_out_of_memory_persistent)
{
	cli_loop("/c0 show all", true);
}
END_TEST

START_TEST(test_all_drives_show_all_out_of_memory_transient)
{
	cli_loop("/call/eall/sall show all", false);
}
END_TEST

START_TEST(test_all_drives_show_all_out_of_memory_persistent)
{
	cli_loop("/call/eall/sall show all", true);
}
END_TEST

START_TEST(test_system_show_out_of_memory_transient)
{
	cli_loop("show all", false);
}
END_TEST

START_TEST(test_system_show_out_of_memory_persistent)
{
	cli_loop("show all", true);
}
END_TEST

/* Every row builder of VDs and groups: TOPOLOGY, VD LIST, VD properties. */
#define WITH_VD "/c0 add vd r5 drives=252:0-2 name=data"

START_TEST(test_ctrl_show_vds_out_of_memory_transient)
{
	cli_loop_after(WITH_VD, "/c0 show", false);
}
END_TEST

START_TEST(test_ctrl_show_vds_out_of_memory_persistent)
{
	cli_loop_after(WITH_VD, "/c0 show", true);
}
END_TEST

START_TEST(test_vd_show_all_out_of_memory_transient)
{
	cli_loop_after(WITH_VD, "/c0/vall show all", false);
}
END_TEST

START_TEST(test_vd_show_all_out_of_memory_persistent)
{
	cli_loop_after(WITH_VD, "/c0/vall show all", true);
}
END_TEST

START_TEST(test_dg_show_all_out_of_memory_transient)
{
	cli_loop_after(WITH_VD, "/c0/dall show all", false);
}
END_TEST

START_TEST(test_dg_show_all_out_of_memory_persistent)
{
	cli_loop_after(WITH_VD, "/c0/dall show all", true);
}
END_TEST

/* The event log: reading it and the block renderer. */
START_TEST(test_show_events_out_of_memory_transient)
{
	cli_loop_after(WITH_VD, "/c0 show events", false);
}
END_TEST

START_TEST(test_show_events_out_of_memory_persistent)
{
	cli_loop_after(WITH_VD, "/c0 show events", true);
}
END_TEST

/*
 * /c0 with a foreign RAID1 and a global spare: /c2 made them in
 * <state>/fimg and was deleted, its images kept. Return: the setup lines.
 */
static char *foreign_setup(void)
{
	char *lines = NULL;

	ck_assert(asprintf(&lines,
	                   "add controller type=soft drives=3 size=16MB dir=%s/fimg\n"
	                   "/c2 add vd r1 drives=252:0-1 name=moved\n"
	                   "/c2/e252/s2 add hotsparedrive\n"
	                   "/c2 del\n"
	                   "/c0 add drive path=%s/fimg/drive1.img\n"
	                   "/c0 add drive path=%s/fimg/drive0.img\n"
	                   "/c0 add drive path=%s/fimg/drive2.img",
	                   scratch.dir, scratch.dir, scratch.dir, scratch.dir) > 0);
	return lines;
}

static void foreign_loop(const char *line, bool persistent)
{
	char *setup = foreign_setup();

	cli_loop_after(setup, line, persistent);
	free(setup);
}

START_TEST(test_foreign_show_all_out_of_memory_transient)
{
	foreign_loop("/c0/fall show all", false);
}
END_TEST

START_TEST(test_foreign_show_all_out_of_memory_persistent)
{
	foreign_loop("/c0/fall show all", true);
}
END_TEST

START_TEST(test_foreign_preview_out_of_memory_transient)
{
	foreign_loop("/c0/fall import preview", false);
}
END_TEST

START_TEST(test_foreign_preview_out_of_memory_persistent)
{
	foreign_loop("/c0/fall import preview", true);
}
END_TEST

static Suite *oom_suite(void)
{
	Suite *s = suite_create("oom");
	TCase *tc;

	tc = tcase_create("rcl_soft_create");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_create_out_of_memory_transient);
	tcase_add_test(tc, test_create_out_of_memory_persistent);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_open");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_open_out_of_memory_transient);
	tcase_add_test(tc, test_open_out_of_memory_persistent);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_add_drive");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_add_drive_out_of_memory_transient);
	tcase_add_test(tc, test_add_drive_out_of_memory_persistent);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli_run");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_ctrl_show_all_out_of_memory_transient);
	tcase_add_test(tc, test_streamed_show_out_of_memory_transient);
	tcase_add_test(tc, test_streamed_show_out_of_memory_persistent);
	tcase_add_test(tc, test_ctrl_show_all_out_of_memory_persistent);
	tcase_add_test(tc, test_all_drives_show_all_out_of_memory_transient);
	tcase_add_test(tc, test_all_drives_show_all_out_of_memory_persistent);
	tcase_add_test(tc, test_system_show_out_of_memory_transient);
	tcase_add_test(tc, test_system_show_out_of_memory_persistent);
	tcase_add_test(tc, test_ctrl_show_vds_out_of_memory_transient);
	tcase_add_test(tc, test_ctrl_show_vds_out_of_memory_persistent);
	tcase_add_test(tc, test_vd_show_all_out_of_memory_transient);
	tcase_add_test(tc, test_vd_show_all_out_of_memory_persistent);
	tcase_add_test(tc, test_dg_show_all_out_of_memory_transient);
	tcase_add_test(tc, test_dg_show_all_out_of_memory_persistent);
	tcase_add_test(tc, test_show_events_out_of_memory_transient);
	tcase_add_test(tc, test_show_events_out_of_memory_persistent);
	tcase_add_test(tc, test_foreign_show_all_out_of_memory_transient);
	tcase_add_test(tc, test_foreign_show_all_out_of_memory_persistent);
	tcase_add_test(tc, test_foreign_preview_out_of_memory_transient);
	tcase_add_test(tc, test_foreign_preview_out_of_memory_persistent);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(oom_suite());
}
