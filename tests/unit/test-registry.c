// SPDX-License-Identifier: MIT
/*
 * test-registry.c - controllers as a user sees them across runs: the state
 * directory, controller numbers (lowest free, stable, reused after
 * delete), soft controllers and their drives, and damaged state files,
 * which must be refused with the file named. Each test works in its own
 * throwaway RAIDCLI_STATE_DIR.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "unit.h"
#include "soft/soft.h"

#define MIB (1ull << 20)

/* The state dir is <root>/a/b/state, made by rcl_ctx_new. */
static struct unit_state scratch;

static void setup(void)
{
	unit_state_enter(&scratch, "a/b/state");
}

static void teardown(void)
{
	unit_state_leave(&scratch);
}

static struct rcl_ctrl *ctrl_open(struct rcl_ctx *ctx, unsigned id, enum rcl_lock lock)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;

	ck_assert_msg(rcl_ctrl_open(ctx, id, lock, &ctrl, &err) == RCL_OK, "%s", err.msg);
	return ctrl;
}

static void ids_are(const struct rcl_ctx *ctx, size_t count, const unsigned *want)
{
	const unsigned *ids;
	size_t n = rcl_ctx_ctrl_ids(ctx, &ids);

	ck_assert_uint_eq(n, count);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(ids[i], want[i]);
}

static void delete_ctrl(struct rcl_ctx *ctx, unsigned id, unsigned flags)
{
	struct rcl_error err = {0};

	ck_assert_msg(rcl_ctrl_delete(ctrl_open(ctx, id, RCL_LOCK_EXCLUSIVE), flags, &err) ==
	                  RCL_OK,
	              "%s", err.msg);
}

/* The path of soft controller @id's state file, from its serial. */
static char *soft_state_path(struct rcl_ctx *ctx, unsigned id)
{
	struct rcl_ctrl *ctrl = ctrl_open(ctx, id, RCL_LOCK_SHARED);
	char *path = NULL;

	ck_assert_int_ne(
	    asprintf(&path, "%s/soft/%s.json", rcl_ctx_state_dir(ctx), rcl_ctrl_info(ctrl)->serial),
	    -1);
	rcl_ctrl_close(ctrl);
	return path;
}

/* Replace registry.json by @text: rcl_ctx_new must refuse it, naming the file. */
static void registry_refused(const char *text)
{
	char *path = unit_path(scratch.dir, "registry.json");
	struct rcl_error err = {0};
	struct rcl_ctx *ctx = (struct rcl_ctx *)0x1;

	unit_write(path, text);
	ck_assert_int_eq(rcl_ctx_new(&ctx, scratch.dir, &err), RCL_CORRUPT);
	ck_assert_int_eq(err.status, RCL_CORRUPT);
	ck_assert_msg(strstr(err.msg, "registry.json"), "'%s': message does not name the file: %s",
	              text, err.msg);
	ck_assert_msg(strstr(err.msg, "corrupt"), "%s", err.msg);
	ck_assert_ptr_eq(ctx, (struct rcl_ctx *)0x1); /* nothing handed back */
	free(path);
}

START_TEST(test_ctx_new_creates_the_state_dir_private)
{
	struct rcl_ctx *ctx;
	struct stat st;

	ck_assert(!unit_exists(scratch.dir));
	ctx = unit_ctx_new(scratch.dir);
	ck_assert_int_eq(stat(scratch.dir, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 0777, 0700);
	ids_are(ctx, 0, NULL);
	rcl_ctx_free(ctx);
	rcl_ctx_free(NULL);
	/* Opening again finds it as it was. */
	ctx = unit_ctx_new(scratch.dir);
	ids_are(ctx, 0, NULL);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_ctx_new_default_is_raidcli_state_dir)
{
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;
	char *real;

	ck_assert_int_eq(rcl_ctx_new(&ctx, NULL, &err), RCL_OK);
	real = realpath(scratch.dir, NULL);
	ck_assert_str_eq(rcl_ctx_state_dir(ctx), real);
	free(real);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_ctx_new_resolves_symlinks)
{
	char *link = unit_path(scratch.root, "link");
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;
	char *real;

	rcl_ctx_free(unit_ctx_new(scratch.dir));
	ck_assert_int_eq(symlink(scratch.dir, link), 0);
	ck_assert_int_eq(rcl_ctx_new(&ctx, link, &err), RCL_OK);
	real = realpath(scratch.dir, NULL);
	ck_assert_str_eq(rcl_ctx_state_dir(ctx), real);
	free(real);
	free(link);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_ctx_new_refuses_a_file_as_state_dir)
{
	char *file = unit_path(scratch.root, "file");
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;

	unit_write(file, "not a directory\n");
	ck_assert_int_eq(rcl_ctx_new(&ctx, file, &err), RCL_SYSTEM);
	ck_assert_int_ne(err.sys_errno, 0);
	ck_assert_msg(strstr(err.msg, file), "%s", err.msg);
	free(file);
}
END_TEST

START_TEST(test_corrupt_registry_is_refused_naming_it)
{
	rcl_ctx_free(unit_ctx_new(scratch.dir));
	registry_refused("");
	registry_refused("{");
	registry_refused("not json at all");
	registry_refused("[]");
	registry_refused("{\"format\":1}");
	registry_refused("{\"format\":2,\"controllers\":[]}");
	registry_refused("{\"format\":1,\"controllers\":{}}");
	registry_refused("{\"format\":1,\"controllers\":[7]}");
	registry_refused("{\"format\":1,\"controllers\":[{\"id\":0,\"backend\":\"soft\"}]}");
	registry_refused(
	    "{\"format\":1,\"controllers\":[{\"id\":-1,\"backend\":\"soft\",\"key\":\"K\"}]}");
	registry_refused(
	    "{\"format\":1,\"controllers\":[{\"id\":0,\"backend\":\"nosuch\",\"key\":\"K\"}]}");
	registry_refused(
	    "{\"format\":1,\"controllers\":[{\"id\":0,\"backend\":\"soft\",\"key\":\"../x\"}]}");
	registry_refused("{\"format\":1,\"controllers\":[{\"id\":0,\"backend\":\"soft\",\"key\":"
	                 "\"A\"},{\"id\":0,\"backend\":\"soft\",\"key\":\"B\"}]}");
}
END_TEST

START_TEST(test_corrupt_registry_is_left_as_it_was)
{
	char *path = unit_path(scratch.dir, "registry.json");
	struct rcl_soft_params params = {.drives = 1, .drive_bytes = 16 * MIB, .sector_size = 512};
	struct rcl_error err = {0};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	char *after;
	unsigned id;

	unit_soft_create(ctx, 1, 32 * MIB);
	unit_write(path, "{\"format\":1,\"controllers\":[{\"id\":0}]}");
	/* A create in a context opened earlier rereads the registry under its lock. */
	ck_assert_int_eq(rcl_soft_create(ctx, &params, &id, &err), RCL_CORRUPT);
	ck_assert_msg(strstr(err.msg, path), "%s", err.msg);
	after = unit_read(path);
	ck_assert_str_eq(after, "{\"format\":1,\"controllers\":[{\"id\":0}]}");
	/* No images were made for it either. */
	/* registry and its lock, and the first controller's state, image, lock, event log */
	ck_assert_uint_eq(unit_count(scratch.dir, false), 6);
	free(after);
	free(path);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_numbers_are_the_lowest_free)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);

	ck_assert_uint_eq(unit_soft_create(ctx, 0, 32 * MIB), 0);
	ck_assert_uint_eq(unit_soft_create(ctx, 1, 32 * MIB), 1);
	ck_assert_uint_eq(unit_soft_create(ctx, 0, 32 * MIB), 2);
	ck_assert_uint_eq(unit_soft_create(ctx, 0, 32 * MIB), 3);
	ids_are(ctx, 4, (const unsigned[]){0, 1, 2, 3});
	delete_ctrl(ctx, 1, 0);
	delete_ctrl(ctx, 2, 0);
	ids_are(ctx, 2, (const unsigned[]){0, 3});
	ck_assert_uint_eq(unit_soft_create(ctx, 0, 32 * MIB), 1);
	ck_assert_uint_eq(unit_soft_create(ctx, 0, 32 * MIB), 2);
	ck_assert_uint_eq(unit_soft_create(ctx, 0, 32 * MIB), 4);
	delete_ctrl(ctx, 0, 0);
	ck_assert_uint_eq(unit_soft_create(ctx, 0, 32 * MIB), 0);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_numbers_are_stable_after_reopen)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	char serial[3][32];

	for (unsigned i = 0; i < 3; i++) {
		struct rcl_ctrl *ctrl;

		ck_assert_uint_eq(unit_soft_create(ctx, 1, 32 * MIB), i);
		ctrl = ctrl_open(ctx, i, RCL_LOCK_SHARED);
		snprintf(serial[i], sizeof(serial[i]), "%s", rcl_ctrl_info(ctrl)->serial);
		rcl_ctrl_close(ctrl);
	}
	delete_ctrl(ctx, 0, RCL_DELETE_IMAGES);
	rcl_ctx_free(ctx);

	ctx = unit_ctx_new(scratch.dir);
	ids_are(ctx, 2, (const unsigned[]){1, 2});
	for (unsigned i = 1; i < 3; i++) {
		struct rcl_ctrl *ctrl = ctrl_open(ctx, i, RCL_LOCK_SHARED);

		ck_assert_uint_eq(rcl_ctrl_id(ctrl), i);
		ck_assert_str_eq(rcl_ctrl_info(ctrl)->serial, serial[i]);
		rcl_ctrl_close(ctrl);
	}
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_two_contexts_see_each_others_creates)
{
	struct rcl_ctx *a = unit_ctx_new(scratch.dir), *b = unit_ctx_new(scratch.dir);

	/* Each create rereads the registry under its lock: no number is handed out twice. */
	ck_assert_uint_eq(unit_soft_create(a, 0, 32 * MIB), 0);
	ck_assert_uint_eq(unit_soft_create(b, 0, 32 * MIB), 1);
	ck_assert_uint_eq(unit_soft_create(a, 0, 32 * MIB), 2);
	ids_are(a, 3, (const unsigned[]){0, 1, 2});
	rcl_ctx_free(a);
	rcl_ctx_free(b);
}
END_TEST

START_TEST(test_create_makes_sparse_images_of_whole_mib)
{
	struct rcl_soft_params params = {
	    .drives = 4, .drive_bytes = 100 * MIB + 12345, .sector_size = 4096};
	struct rcl_error err = {0};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_ctrl *ctrl;
	unsigned id;

	ck_assert_int_eq(rcl_soft_create(ctx, &params, &id, &err), RCL_OK);
	ctrl = ctrl_open(ctx, id, RCL_LOCK_SHARED);
	ck_assert_str_eq(rcl_ctrl_info(ctrl)->backend, "soft");
	ck_assert_uint_eq(rcl_ctrl_enclosure_count(ctrl), 1);
	ck_assert_uint_eq(rcl_ctrl_enclosure(ctrl, 0)->id, 252);
	ck_assert_ptr_null(rcl_ctrl_enclosure(ctrl, 1));
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 4);
	ck_assert_ptr_null(rcl_ctrl_drive(ctrl, 4));
	for (unsigned i = 0; i < 4; i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);
		struct stat st;

		ck_assert_uint_eq(d->enclosure, 252);
		ck_assert_uint_eq(d->slot, i);
		ck_assert(d->present);
		ck_assert_int_eq(d->state, RCL_PD_UGOOD);
		ck_assert_uint_eq(d->raw_bytes, 100 * MIB);
		ck_assert_uint_eq(d->coerced_bytes, 100 * MIB);
		ck_assert_uint_eq(d->logical_sector, 4096);
		ck_assert_str_eq(d->interface, "File");
		ck_assert_int_eq(strncmp(d->serial, "RCLD", 4), 0);
		ck_assert_int_eq(stat(d->path, &st), 0);
		ck_assert_int_eq(st.st_size, (off_t)(100 * MIB));
		ck_assert_int_lt(st.st_blocks * 512, (off_t)MIB); /* sparse */
		ck_assert_int_eq(
		    strncmp(d->path, rcl_ctx_state_dir(ctx), strlen(rcl_ctx_state_dir(ctx))), 0);
		if (i)
			ck_assert_str_ne(d->serial, rcl_ctrl_drive(ctrl, i - 1)->serial);
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_create_refuses_bad_parameters_and_leaves_nothing)
{
	static const struct rcl_soft_params bad[] = {
	    {.drives = 241, .drive_bytes = 16 * MIB, .sector_size = 512},
	    {.drives = 1, .drive_bytes = 16 * MIB - 1, .sector_size = 512},
	    {.drives = 1, .drive_bytes = 16 * MIB, .sector_size = 1024},
	    {.drives = 0, .drive_bytes = 0, .sector_size = 0},
	};
	static const char *const why[] = {"240", "16 MiB", "sectorsize=1024", "sectorsize=0"};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rcl_error err = {0};
		unsigned id = 77;

		ck_assert_int_eq(rcl_soft_create(ctx, &bad[i], &id, &err), RCL_INVALID_PARAM);
		ck_assert_msg(strstr(err.msg, why[i]), "%s", err.msg);
		ck_assert_uint_eq(id, 77);
	}
	ids_are(ctx, 0, NULL);
	ck_assert_uint_eq(unit_count(scratch.dir, false), 0);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_create_never_overwrites_an_image)
{
	char *dir = unit_path(scratch.root, "images"), *taken = unit_path(dir, "drive2.img");
	struct rcl_soft_params params = {
	    .drives = 4, .drive_bytes = 16 * MIB, .sector_size = 512, .dir = dir};
	struct rcl_error err = {0};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	char *text;
	unsigned id;

	ck_assert_int_eq(rcl_mkdir_p(dir, 0700, &err), RCL_OK);
	unit_write(taken, "precious data\n");
	ck_assert_int_eq(rcl_soft_create(ctx, &params, &id, &err), RCL_EXISTS);
	ck_assert_msg(strstr(err.msg, "drive2.img"), "%s", err.msg);
	text = unit_read(taken);
	ck_assert_str_eq(text, "precious data\n");
	/* The images made before it are gone again, and nothing was registered. */
	ck_assert_uint_eq(unit_count(dir, false), 1);
	ck_assert_uint_eq(unit_count(scratch.dir, false), 1); /* registry.lock */
	ids_are(ctx, 0, NULL);
	/* A user's dir= is kept. */
	ck_assert(unit_exists(dir));
	free(text);
	free(taken);
	free(dir);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_delete_frees_the_number_and_keeps_images)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_ctrl *ctrl;
	char *image, *state;

	ck_assert_uint_eq(unit_soft_create(ctx, 2, 32 * MIB), 0);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_SHARED);
	image = strdup(rcl_ctrl_drive(ctrl, 1)->path);
	rcl_ctrl_close(ctrl);
	state = soft_state_path(ctx, 0);
	delete_ctrl(ctx, 0, 0);
	ids_are(ctx, 0, NULL);
	ck_assert(unit_exists(image));
	ck_assert(!unit_exists(state));
	rcl_ctx_free(ctx);
	/* Gone for a new context too, and its number is free. */
	ctx = unit_ctx_new(scratch.dir);
	ids_are(ctx, 0, NULL);
	ck_assert_uint_eq(unit_soft_create(ctx, 0, 32 * MIB), 0);
	free(image);
	free(state);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_delete_with_images_removes_them_and_their_dir)
{
	char *images = unit_path(scratch.dir, "images");
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);

	unit_soft_create(ctx, 3, 32 * MIB);
	ck_assert_uint_eq(unit_count(images, false), 3);
	delete_ctrl(ctx, 0, RCL_DELETE_IMAGES);
	ck_assert_uint_eq(unit_count(images, false), 0);
	ck_assert_uint_eq(unit_count(images, true), 0); /* images/<serial> too */
	free(images);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_open_unknown_controller_is_not_found)
{
	struct rcl_error err = {0};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_ctrl *ctrl = (struct rcl_ctrl *)0x1;

	ck_assert_int_eq(rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err), RCL_NOT_FOUND);
	ck_assert_msg(strstr(err.msg, "0"), "%s", err.msg);
	ck_assert_ptr_eq(ctrl, (struct rcl_ctrl *)0x1);
	unit_soft_create(ctx, 0, 32 * MIB);
	ck_assert_int_eq(rcl_ctrl_open(ctx, 1, RCL_LOCK_SHARED, &ctrl, &err), RCL_NOT_FOUND);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_open_with_state_file_gone_is_not_found)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	char *state;

	unit_soft_create(ctx, 0, 32 * MIB);
	state = soft_state_path(ctx, 0);
	ck_assert_int_eq(unlink(state), 0);
	ck_assert_int_eq(rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err), RCL_NOT_FOUND);
	ck_assert_msg(strstr(err.msg, state), "%s", err.msg);
	free(state);
	rcl_ctx_free(ctx);
}
END_TEST

/*
 * A controller opened for a change blocks a nested reader (one holding
 * another controller's lock) only for a while: it gets RCL_BUSY, so two
 * commands that each want the other's controller never wait forever, and
 * the controller's state is as it was. A plain reader would wait; other
 * readers never block it. The wait is the test-only
 * $RAIDCLI_TEST_LOCK_WAIT_MS's 100 ms here, not RCL_LOCK_NESTED_WAIT_MS:
 * the same loop, ending the same way, without sitting through 5 s.
 */
START_TEST(test_nested_open_of_a_controller_being_changed_is_busy)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_error err = {0};
	struct rcl_ctrl *changing, *reader, *nested = (struct rcl_ctrl *)0x1;
	char *state, *before, *after;

	unit_soft_create(ctx, 0, 32 * MIB);
	state = soft_state_path(ctx, 0);
	before = unit_read(state);
	changing = ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE);
	ck_assert_int_eq(setenv("RAIDCLI_TEST_LOCK_WAIT_MS", "100", 1), 0);
	ck_assert_int_eq(rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED_NESTED, &nested, &err), RCL_BUSY);
	ck_assert_int_eq(unsetenv("RAIDCLI_TEST_LOCK_WAIT_MS"), 0);
	ck_assert_msg(strstr(err.msg, "nothing was changed; try again"), "%s", err.msg);
	ck_assert_ptr_eq(nested, (struct rcl_ctrl *)0x1);
	after = unit_read(state);
	ck_assert_str_eq(after, before);
	rcl_ctrl_close(changing);
	reader = ctrl_open(ctx, 0, RCL_LOCK_SHARED);
	nested = ctrl_open(ctx, 0, RCL_LOCK_SHARED_NESTED);
	rcl_ctrl_close(nested);
	rcl_ctrl_close(reader);
	free(after);
	free(before);
	free(state);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_corrupt_soft_state_is_refused_naming_it)
{
	static const char *const damage[] = {
	    "",
	    "{\"format\":1",
	    "[1]",
	    "{\"format\":9,\"serial\":\"S\",\"created\":0,\"sector_size\":512,"
	    "\"image_dir\":\"/x\",\"slots\":[]}",
	    "{\"format\":1,\"serial\":\"S\",\"created\":0,\"sector_size\":1000,"
	    "\"image_dir\":\"/x\",\"slots\":[]}",
	    "{\"format\":1,\"serial\":\"S\",\"created\":0,\"sector_size\":512,"
	    "\"image_dir\":\"/x\",\"slots\":[{\"slot\":0}]}",
	    "{\"format\":1,\"serial\":\"S\",\"created\":0,\"sector_size\":512,"
	    "\"image_dir\":\"/x\",\"slots\":[{\"slot\":999,\"path\":\"/a\",\"serial\":\"s\","
	    "\"wwn\":\"w\",\"owned\":true}]}",
	    "{\"format\":1,\"serial\":\"S\",\"created\":0,\"sector_size\":512,"
	    "\"image_dir\":\"/x\",\"slots\":[{\"slot\":1,\"path\":\"relative\",\"serial\":\"s\","
	    "\"wwn\":\"w\",\"owned\":true}]}",
	    "{\"format\":1,\"serial\":\"S\",\"created\":0,\"sector_size\":512,"
	    "\"image_dir\":\"/x\",\"slots\":[{\"slot\":1,\"path\":\"/a\",\"serial\":\"s\","
	    "\"wwn\":\"w\",\"owned\":true},{\"slot\":1,\"path\":\"/b\",\"serial\":\"t\","
	    "\"wwn\":\"v\",\"owned\":false}]}",
	};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	char *state;

	unit_soft_create(ctx, 1, 32 * MIB);
	state = soft_state_path(ctx, 0);
	for (size_t i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
		struct rcl_error err = {0};
		struct rcl_ctrl *ctrl;

		unit_write(state, damage[i]);
		ck_assert_msg(rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err) == RCL_CORRUPT,
		              "damage %zu accepted", i);
		ck_assert_msg(strstr(err.msg, state), "damage %zu: file not named: %s", i, err.msg);
	}
	free(state);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_flipped_bytes_in_soft_state_never_crash)
{
	/* SQLite's malformed-file tests: start from a good file and damage it. */
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	char *state, *good;
	size_t len;

	unit_soft_create(ctx, 2, 32 * MIB);
	state = soft_state_path(ctx, 0);
	good = unit_read(state);
	len = strlen(good);
	for (size_t i = 0; i < len; i++) {
		struct rcl_error err = {0};
		struct rcl_ctrl *ctrl;
		enum rcl_status st;
		char *bad = strdup(good);

		bad[i] ^= 0x20;
		unit_write(state, bad);
		st = rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err);
		if (st == RCL_OK)
			rcl_ctrl_close(ctrl);
		else if (st == RCL_CORRUPT)
			ck_assert_msg(strstr(err.msg, state), "%s", err.msg);
		else
			ck_assert_msg(0, "byte %zu: unexpected status %d: %s", i, st, err.msg);
		free(bad);
	}
	free(good);
	free(state);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_drive_whose_image_vanished_is_missing)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_ctrl *ctrl;
	const struct rcl_drive *d;

	unit_soft_create(ctx, 2, 32 * MIB);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_SHARED);
	ck_assert_int_eq(unlink(rcl_ctrl_drive(ctrl, 1)->path), 0);
	rcl_ctrl_close(ctrl);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_SHARED);
	d = rcl_ctrl_drive(ctrl, 1);
	ck_assert(!d->present);
	ck_assert_int_eq(d->state, RCL_PD_MISSING);
	ck_assert_uint_eq(d->raw_bytes, 0);
	ck_assert_str_eq(rcl_pd_state_abbrev(d->state), "Msng");
	ck_assert(rcl_ctrl_drive(ctrl, 0)->present);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_add_drive_takes_the_first_free_slot)
{
	char *extra = unit_path(scratch.root, "extra.img");
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	unsigned slot = 99;

	unit_soft_create(ctx, 3, 32 * MIB);
	unit_make_image(extra, 20 * MIB + 5);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE);
	ck_assert_int_eq(rcl_ctrl_remove_drive(ctrl, rcl_ctrl_drive(ctrl, 1), false, &err), RCL_OK);
	ck_assert_int_eq(rcl_ctrl_add_drive(ctrl, extra, &slot, &err), RCL_OK);
	ck_assert_uint_eq(slot, 1);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 3);
	ck_assert_uint_eq(rcl_ctrl_drive(ctrl, 1)->slot, 1);
	ck_assert_uint_eq(rcl_ctrl_drive(ctrl, 1)->raw_bytes, 20 * MIB + 5);
	ck_assert_uint_eq(rcl_ctrl_drive(ctrl, 1)->coerced_bytes, 20 * MIB);
	rcl_ctrl_close(ctrl);
	/* It is still there in the next run. */
	rcl_ctx_free(ctx);
	ctx = unit_ctx_new(scratch.dir);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_SHARED);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 3);
	ck_assert_str_eq(rcl_ctrl_drive(ctrl, 1)->path, realpath(extra, (char[4096]){0}));
	rcl_ctrl_close(ctrl);
	free(extra);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_add_drive_refuses_what_cannot_be_a_drive)
{
	char *small = unit_path(scratch.root, "small.img"),
	     *missing = unit_path(scratch.root, "missing.img");
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	unsigned slot = 99;

	unit_soft_create(ctx, 0, 32 * MIB);
	unit_make_image(small, 16 * MIB - 1);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE);
	ck_assert_int_eq(rcl_ctrl_add_drive(ctrl, small, &slot, &err), RCL_INVALID_PARAM);
	ck_assert_msg(strstr(err.msg, small) && strstr(err.msg, "16 MiB"), "%s", err.msg);
	ck_assert_int_eq(rcl_ctrl_add_drive(ctrl, missing, &slot, &err), RCL_NOT_FOUND);
	ck_assert_msg(strstr(err.msg, missing), "%s", err.msg);
	ck_assert_int_eq(rcl_ctrl_add_drive(ctrl, scratch.root, &slot, &err), RCL_INVALID_PARAM);
	ck_assert_msg(strstr(err.msg, "neither a regular file nor a block device"), "%s", err.msg);
	ck_assert_uint_eq(slot, 99);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 0);
	rcl_ctrl_close(ctrl);
	free(small);
	free(missing);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_same_file_in_two_controllers_is_refused)
{
	char *shared = unit_path(scratch.root, "shared.img"),
	     *alias = unit_path(scratch.root, "alias.img");
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	unsigned slot;

	unit_soft_create(ctx, 0, 32 * MIB);
	unit_soft_create(ctx, 0, 32 * MIB);
	unit_make_image(shared, 16 * MIB);
	ck_assert_int_eq(symlink(shared, alias), 0);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE);
	ck_assert_int_eq(rcl_ctrl_add_drive(ctrl, shared, &slot, &err), RCL_OK);
	/* Twice in the same controller, by name or through a symlink. */
	ck_assert_int_eq(rcl_ctrl_add_drive(ctrl, shared, &slot, &err), RCL_EXISTS);
	ck_assert_int_eq(rcl_ctrl_add_drive(ctrl, alias, &slot, &err), RCL_EXISTS);
	rcl_ctrl_close(ctrl);
	ctrl = ctrl_open(ctx, 1, RCL_LOCK_EXCLUSIVE);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(rcl_ctrl_add_drive(ctrl, alias, &slot, &err), RCL_EXISTS);
	ck_assert_msg(strstr(err.msg, "already a drive of /c0"), "%s", err.msg);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 0);
	rcl_ctrl_close(ctrl);
	free(shared);
	free(alias);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_remove_drive_empties_the_slot_and_keeps_the_file)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	char *path;

	unit_soft_create(ctx, 3, 32 * MIB);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE);
	path = strdup(rcl_ctrl_drive(ctrl, 0)->path);
	ck_assert_int_eq(rcl_ctrl_remove_drive(ctrl, rcl_ctrl_drive(ctrl, 0), false, &err), RCL_OK);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 2);
	ck_assert_uint_eq(rcl_ctrl_drive(ctrl, 0)->slot, 1);
	ck_assert(unit_exists(path));
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	ctx = unit_ctx_new(scratch.dir);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_SHARED);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 2);
	ck_assert_uint_eq(rcl_ctrl_drive(ctrl, 0)->slot, 1);
	rcl_ctrl_close(ctrl);
	/* The removed file can go into another controller now. */
	unit_soft_create(ctx, 0, 32 * MIB);
	ctrl = ctrl_open(ctx, 1, RCL_LOCK_EXCLUSIVE);
	ck_assert_int_eq(rcl_ctrl_add_drive(ctrl, path, &(unsigned){0}, &err), RCL_OK);
	rcl_ctrl_close(ctrl);
	free(path);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_mkdir_p_makes_parents_and_accepts_existing)
{
	char *deep = unit_path(scratch.root, "x/y/z"), *file = unit_path(scratch.root, "f");
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_mkdir_p(deep, 0700, &err), RCL_OK);
	ck_assert(unit_exists(deep));
	ck_assert_int_eq(rcl_mkdir_p(deep, 0700, &err), RCL_OK);
	unit_write(file, "x");
	free(deep);
	deep = unit_path(file, "sub");
	ck_assert_int_eq(rcl_mkdir_p(deep, 0700, &err), RCL_SYSTEM);
	ck_assert_msg(strstr(err.msg, deep), "%s", err.msg);
	free(deep);
	free(file);
}
END_TEST

START_TEST(test_mkdir_in_makes_below_the_base_but_never_the_base)
{
	char *deep = unit_path(scratch.root, "base/x/y"), *base = unit_path(scratch.root, "base");
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_mkdir_in(base, "x/y", 0700, &err), RCL_SYSTEM);
	ck_assert_msg(strstr(err.msg, base) && strstr(err.msg, "No such file"), "%s", err.msg);
	ck_assert(!unit_exists(base));
	ck_assert_int_eq(rcl_mkdir_p(base, 0700, &err), RCL_OK);
	ck_assert_int_eq(rcl_mkdir_in(base, "x/y", 0700, &err), RCL_OK);
	ck_assert(unit_exists(deep));
	ck_assert_int_eq(rcl_mkdir_in(base, "x/y", 0700, &err), RCL_OK);
	free(deep);
	free(base);
}
END_TEST

START_TEST(test_open_needs_the_state_directory_and_never_makes_it)
{
	struct rcl_error err = {0};
	struct rcl_ctx *ctx = NULL;

	ck_assert_int_eq(rcl_ctx_open(&ctx, scratch.dir, &err), RCL_NOT_FOUND);
	ck_assert_msg(strstr(err.msg, scratch.dir) && strstr(err.msg, "does not exist"), "%s",
	              err.msg);
	ck_assert(!ctx && !unit_exists(scratch.dir));
	ctx = unit_ctx_new(scratch.dir);
	unit_soft_create(ctx, 2, 32 * MIB);
	rcl_ctx_free(ctx);
	ctx = NULL;
	ck_assert_msg(rcl_ctx_open(&ctx, scratch.dir, &err) == RCL_OK, "%s", err.msg);
	ids_are(ctx, 1, (unsigned[]){0});
	rcl_ctx_free(ctx);
}
END_TEST

/*
 * A process that keeps a controller open while its state directory is
 * deleted (serve, when a test or an administrator removes it) fails to
 * record what happens next, and leaves the directory deleted: made again, it
 * would be an empty state beside the one the process still serves.
 */
START_TEST(test_a_deleted_state_directory_is_not_made_again)
{
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_ctrl *ctrl;
	struct rcl_error err = {0};

	unit_soft_create(ctx, 2, 32 * MIB);
	ctrl = ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE);
	unit_rmrf(scratch.dir);
	ck_assert_int_eq(rcl_event_record(ctrl, RCL_EVENT_CTRL_CHANGED, &err, "after"), RCL_SYSTEM);
	ck_assert_msg(strstr(err.msg, "events"), "%s", err.msg);
	ck_assert_int_eq(rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &(struct rcl_ctrl *){NULL}, &err),
	                 RCL_SYSTEM);
	ck_assert(!unit_exists(scratch.dir));
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
}
END_TEST

static Suite *registry_suite(void)
{
	Suite *s = suite_create("registry");
	TCase *tc;

	tc = tcase_create("rcl_ctx_new");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_ctx_new_creates_the_state_dir_private);
	tcase_add_test(tc, test_ctx_new_default_is_raidcli_state_dir);
	tcase_add_test(tc, test_ctx_new_resolves_symlinks);
	tcase_add_test(tc, test_ctx_new_refuses_a_file_as_state_dir);
	tcase_add_test(tc, test_corrupt_registry_is_refused_naming_it);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_soft_create");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_numbers_are_the_lowest_free);
	tcase_add_test(tc, test_two_contexts_see_each_others_creates);
	tcase_add_test(tc, test_create_makes_sparse_images_of_whole_mib);
	tcase_add_test(tc, test_create_refuses_bad_parameters_and_leaves_nothing);
	tcase_add_test(tc, test_create_never_overwrites_an_image);
	tcase_add_test(tc, test_corrupt_registry_is_left_as_it_was);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctx_ctrl_ids");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_numbers_are_stable_after_reopen);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_delete");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_delete_frees_the_number_and_keeps_images);
	tcase_add_test(tc, test_delete_with_images_removes_them_and_their_dir);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_open");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_open_unknown_controller_is_not_found);
	tcase_add_test(tc, test_open_with_state_file_gone_is_not_found);
	tcase_add_test(tc, test_nested_open_of_a_controller_being_changed_is_busy);
	tcase_add_test(tc, test_corrupt_soft_state_is_refused_naming_it);
	tcase_add_test(tc, test_flipped_bytes_in_soft_state_never_crash);
	tcase_add_test(tc, test_drive_whose_image_vanished_is_missing);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_add_drive");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_add_drive_takes_the_first_free_slot);
	tcase_add_test(tc, test_add_drive_refuses_what_cannot_be_a_drive);
	tcase_add_test(tc, test_same_file_in_two_controllers_is_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_remove_drive");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_remove_drive_empties_the_slot_and_keeps_the_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_mkdir_p");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_mkdir_p_makes_parents_and_accepts_existing);
	tcase_add_test(tc, test_mkdir_in_makes_below_the_base_but_never_the_base);
	tcase_add_test(tc, test_a_deleted_state_directory_is_not_made_again);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctx_open");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_open_needs_the_state_directory_and_never_makes_it);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(registry_suite());
}
