// SPDX-License-Identifier: MIT
/*
 * test-mock.c - the mock backend (lib/mock/) as a user meets it: "add
 * controller type=mock fixture=" copies a checked fixture and never
 * writes it; a bad fixture is refused naming the key and where it is;
 * controllers in $RAIDCLI_MOCK_DIR are found and registered on first
 * sight, each with its own fixture's capabilities; configuration changes
 * persist in the state file and what a fixture's caps lack is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* tests/fixtures/mock/@name, in a new string. */
static char *fixture(const char *name)
{
	const char *root = getenv("SOURCE_ROOT");
	char *path;

	ck_assert_ptr_nonnull(root);
	ck_assert_int_ge(asprintf(&path, "%s/tests/fixtures/mock/%s", root, name), 0);
	return path;
}

static enum rcl_status add_mock(struct rcl_ctx *ctx, const char *path, unsigned *id,
                                struct rcl_error *err)
{
	struct rcl_kv kv = {"fixture", path};

	return rcl_ctrl_create(ctx, "mock", &kv, 1, id, err);
}

/* A fresh state directory @st holding /c0, a mock controller of fixture @name. */
static void mock_state_enter(struct unit_state *st, const char *name)
{
	char *path = fixture(name);
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;
	unsigned id;

	unit_state_enter(st, NULL);
	ctx = unit_ctx_new(st->dir);
	ck_assert_msg(add_mock(ctx, path, &id, &err) == RCL_OK, "%s", err.msg);
	ck_assert_uint_eq(id, 0);
	rcl_ctx_free(ctx);
	free(path);
}

/* The file @text written as @name in @dir; the caller frees the path. */
static char *write_in(const char *dir, const char *name, const char *text)
{
	char *path = unit_path(dir, name);

	unit_write(path, text);
	return path;
}

/* The megaraid fixture with @from replaced by @to, written to @dir. */
static char *edited_fixture(const char *dir, const char *from, const char *to)
{
	char *orig = fixture("megaraid.json"), *text = unit_read(orig), *at, *out, *path;

	ck_assert_ptr_nonnull(text);
	at = strstr(text, from);
	ck_assert_msg(at != NULL, "'%s' not in the fixture", from);
	*at = '\0';
	ck_assert_int_ge(asprintf(&out, "%s%s%s", text, to, at + strlen(from)), 0);
	path = write_in(dir, "edited.json", out);
	free(out);
	free(text);
	free(orig);
	return path;
}

START_TEST(test_add_copies_the_fixture)
{
	struct unit_state st;
	char *path = fixture("megaraid.json"), *before = unit_read(path), *after, *out, *mock;
	enum rcl_status status;

	mock_state_enter(&st, "megaraid.json");
	/* A change goes to the copy: the fixture stays as it was. */
	out = unit_run("/c0 add vd r0 drives=252:7", false, &status);
	ck_assert_msg(status == RCL_OK, "%s", out);
	free(out);
	after = unit_read(path);
	ck_assert_str_eq(before, after);
	mock = unit_path(st.dir, "mock");
	ck_assert_uint_eq(unit_count(mock, false), 1);
	free(mock);
	out = unit_run("/c0/v2 show", false, &status);
	ck_assert_int_eq(status, RCL_OK);
	ck_assert_ptr_nonnull(strstr(out, "RAID0"));
	free(out);
	free(before);
	free(after);
	free(path);
	unit_state_leave(&st);
}
END_TEST

/* The refusal of fixture @path, which must fail with status @want. */
static void refused_fixture(const char *path, enum rcl_status want, const char *msg)
{
	struct rcl_error err = {0};
	struct unit_state st;
	struct rcl_ctx *ctx;
	unsigned id;

	unit_state_enter(&st, NULL);
	ctx = unit_ctx_new(st.dir);
	ck_assert_int_eq(add_mock(ctx, path, &id, &err), want);
	ck_assert_msg(strstr(err.msg, msg) != NULL, "'%s' lacks '%s'", err.msg, msg);
	ck_assert_uint_eq(rcl_ctx_ctrl_ids(ctx, &(const unsigned *){NULL}), 0);
	rcl_ctx_free(ctx);
	unit_state_leave(&st);
}

/* Edits of the megaraid fixture (@from becomes @to) and what their refusal says. */
static const struct {
	const char *from, *to, *msg;
} bad_edits[] = {
    {"\"model\": \"MegaRAID 9560-8i 4GB\",", "", "edited.json': info.model is missing"},
    {"\"slot\": 1,", "\"slot\": \"1\",", "drives[1].slot must be an integer"},
    {"\"RAID60\"", "\"RAID61\"", "caps.levels[7] 'RAID61' is not one of"},
    {"\"state\": \"GHS\"", "\"state\": \"DHS\"", "drives[6].dg is needed for a drive in state DHS"},
    {"\"slot\": 1,", "\"slot\": 0,", "drives[1].slot is the same as drives[0]'s"},
    {"\"exports\": false", "\"exports\": true", "caps.exports must be false"},
};

START_TEST(test_bad_fixtures_name_the_key)
{
	char *dir = unit_tmpdir(), *path;
	struct rcl_error err = {0};

	for (size_t i = 0; i < sizeof(bad_edits) / sizeof(bad_edits[0]); i++) {
		path = edited_fixture(dir, bad_edits[i].from, bad_edits[i].to);
		refused_fixture(path, RCL_INVALID_PARAM, bad_edits[i].msg);
		free(path);
	}
	path = write_in(dir, "broken.json", "{\"info\": ");
	refused_fixture(path, RCL_INVALID_PARAM, "is not valid JSON");
	free(path);
	path = unit_path(dir, "absent.json");
	refused_fixture(path, RCL_INVALID_PARAM, "absent.json' does not exist");
	free(path);
	{
		struct unit_state st;
		struct rcl_ctx *ctx;
		struct rcl_kv kv = {"drives", "4"};
		unsigned id;

		unit_state_enter(&st, NULL);
		ctx = unit_ctx_new(st.dir);
		ck_assert_int_eq(rcl_ctrl_create(ctx, "mock", NULL, 0, &id, &err),
		                 RCL_INVALID_COMMAND);
		ck_assert_ptr_nonnull(strstr(err.msg, "missing option 'fixture='"));
		ck_assert_int_eq(rcl_ctrl_create(ctx, "mock", &kv, 1, &id, &err),
		                 RCL_INVALID_PARAM);
		ck_assert_str_eq(err.msg, "unknown option 'drives=' for a mock controller");
		rcl_ctx_free(ctx);
		unit_state_leave(&st);
	}
	unit_rmrf(dir);
	free(dir);
}
END_TEST

/* Copy fixture @name into @dir as @as. */
static void copy_fixture(const char *dir, const char *name, const char *as)
{
	char *src = fixture(name), *text = unit_read(src), *dst = unit_path(dir, as);

	unit_write(dst, text);
	free(dst);
	free(text);
	free(src);
}

START_TEST(test_discovered_controllers_register_once)
{
	char *dir = unit_tmpdir();
	const struct rcl_caps *caps;
	struct rcl_error err = {0};
	struct unit_state st;
	const unsigned *ids;
	struct rcl_ctx *ctx;

	copy_fixture(dir, "nvme.json", "host-nvme.json");
	copy_fixture(dir, "megaraid.json", "card.json");
	setenv("RAIDCLI_MOCK_DIR", dir, 1);
	unit_state_enter(&st, NULL);
	ctx = unit_ctx_new(st.dir);
	/* Found without "add controller", numbered in name order. */
	ck_assert_uint_eq(rcl_ctx_ctrl_ids(ctx, &ids), 2);
	ck_assert_int_eq(rcl_ctx_ctrl_caps(ctx, 0, &caps, &err), RCL_OK);
	ck_assert_uint_eq(caps->cache_mib, 4096); /* card.json */
	ck_assert_int_eq(rcl_ctx_ctrl_caps(ctx, 1, &caps, &err), RCL_OK);
	ck_assert_uint_eq(caps->levels & (1u << RCL_RAID6), 0); /* host-nvme.json */
	ck_assert_str_eq(caps->kind, "mock");
	rcl_ctx_free(ctx);
	/* Seen again, not registered again. */
	ctx = unit_ctx_new(st.dir);
	ck_assert_uint_eq(rcl_ctx_ctrl_ids(ctx, &ids), 2);
	rcl_ctx_free(ctx);
	unsetenv("RAIDCLI_MOCK_DIR");
	unit_state_leave(&st);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

START_TEST(test_changes_persist_and_caps_refuse)
{
	enum rcl_status status;
	struct unit_state st;
	char *out;

	mock_state_enter(&st, "nvme.json");
	out = unit_run("/c0 add vd r6 drives=1:0-3", false, &status);
	ck_assert_int_eq(status, RCL_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(out, "RAID level RAID6 is not supported by this controller"));
	free(out);
	out = unit_run("/c0 add vd r1 drives=1:2-3 name=scratch", false, &status);
	ck_assert_msg(status == RCL_OK, "%s", out);
	free(out);
	out = unit_run("/c0/e1/s2 set offline", false, &status);
	ck_assert_int_eq(status, RCL_OK);
	free(out);
	out = unit_run("/c0/v1 show", false, &status);
	ck_assert_ptr_nonnull(strstr(out, "Dgrd"));
	free(out);
	out = unit_run("/c0 set rebuildrate=30", false, &status);
	ck_assert_int_eq(status, RCL_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(out, "rebuild rate is not supported by this controller"));
	free(out);
	out = unit_run("/c0/v1 del", false, &status);
	ck_assert_int_eq(status, RCL_OK);
	free(out);
	out = unit_run("/c0/e1/s2 show", false, &status);
	ck_assert_ptr_nonnull(strstr(out, "UGood"));
	free(out);
	unit_state_leave(&st);
}
END_TEST

/* Open /c0 exclusively and create a RAID0 VD on 252:7 (the MegaRAID fixture). */
static enum rcl_status add_vd(const char *dir, struct rcl_error *err)
{
	struct rcl_drive_ref drive = {252, 7};
	struct rcl_vd_params p = {.level = RCL_RAID0, .drives = &drive, .drive_count = 1};
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	enum rcl_status st = rcl_ctx_new(&ctx, dir, err);
	unsigned vd;

	if (st)
		return st;
	st = rcl_ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE, &ctrl, err);
	if (!st)
		st = rcl_ctrl_create_vd(ctrl, &p, &vd, err);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	return st;
}

/* How many VDs /c0 has, without allocation failures. */
static size_t vd_count(const char *dir)
{
	struct rcl_ctx *ctx = unit_ctx_new(dir);
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	size_t n;

	ck_assert_int_eq(rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err), RCL_OK);
	n = rcl_ctrl_vd_count(ctrl);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	return n;
}

/* Allocation 1, 2, ... failing: "add vd" succeeds whole or leaves the state as it was. */
static void add_vd_oom_loop(bool persistent)
{
	unsigned long n;

	for (n = 1; n < 100000; n++) {
		struct rcl_error err = {0};
		enum rcl_status status;
		struct unit_state st;
		bool hit;

		mock_state_enter(&st, "megaraid.json");
		rcl_alloc_fail_after(n, persistent);
		status = add_vd(st.dir, &err);
		hit = rcl_alloc_fail_after(0, false) >= n;
		ck_assert_msg(status == RCL_OK || status == RCL_NOMEM, "allocation %lu: %s", n,
		              err.msg);
		ck_assert_uint_eq(vd_count(st.dir), status ? 2 : 3);
		unit_state_leave(&st);
		if (!hit)
			break;
	}
	ck_assert_uint_gt(n, 1);
}

START_TEST(test_add_vd_out_of_memory)
{
	add_vd_oom_loop(false);
	add_vd_oom_loop(true);
}
END_TEST

/* Allocation 1, 2, ... failing: "add controller" registers it whole or leaves no trace. */
static void create_oom_loop(bool persistent)
{
	char *path = fixture("nvme.json");
	struct unit_state st;
	unsigned long n;

	unit_state_enter(&st, NULL);
	for (n = 1; n < 100000; n++) {
		struct rcl_error err = {0};
		struct rcl_ctx *ctx = NULL;
		enum rcl_status status;
		char *mock;
		unsigned id;
		bool hit;

		rcl_alloc_fail_after(n, persistent);
		status = rcl_ctx_new(&ctx, st.dir, &err);
		if (!status)
			status = add_mock(ctx, path, &id, &err);
		rcl_ctx_free(ctx);
		hit = rcl_alloc_fail_after(0, false) >= n;
		ck_assert_msg(status == RCL_OK || status == RCL_NOMEM, "allocation %lu: %s", n,
		              err.msg);
		ctx = unit_ctx_new(st.dir);
		ck_assert_uint_eq(rcl_ctx_ctrl_ids(ctx, &(const unsigned *){NULL}), !status);
		rcl_ctx_free(ctx);
		mock = unit_path(st.dir, "mock");
		ck_assert_uint_eq(unit_count(mock, false), !status);
		free(mock);
		unit_rmrf(st.dir);
		if (!hit)
			break;
	}
	ck_assert_uint_gt(n, 1);
	free(path);
	unit_state_leave(&st);
}

START_TEST(test_create_out_of_memory)
{
	create_oom_loop(false);
	create_oom_loop(true);
}
END_TEST

START_TEST(test_settings_persist)
{
	enum rcl_status status;
	struct unit_state st;
	char *out;

	mock_state_enter(&st, "megaraid.json");
	out = unit_run("/c0 set prrate=55", false, &status);
	ck_assert_msg(status == RCL_OK, "%s", out);
	free(out);
	out = unit_run("/c0 set cc=seq delay=12 excludevd=0,1", false, &status);
	ck_assert_msg(status == RCL_OK, "%s", out);
	free(out);
	out = unit_run("/c0 show prrate", false, &status);
	ck_assert_ptr_nonnull(strstr(out, "55%"));
	free(out);
	out = unit_run("/c0 show cc", false, &status);
	ck_assert_ptr_nonnull(strstr(out, "Sequential"));
	ck_assert_ptr_nonnull(strstr(out, "12 hours"));
	ck_assert_ptr_nonnull(strstr(out, "Excluded VDs           0-1"));
	free(out);
	unit_state_leave(&st);
}
END_TEST

static Suite *mock_suite(void)
{
	Suite *s = suite_create("mock");
	TCase *tc = tcase_create("mock");

	tcase_add_test(tc, test_add_copies_the_fixture);
	tcase_add_test(tc, test_bad_fixtures_name_the_key);
	tcase_add_test(tc, test_discovered_controllers_register_once);
	tcase_add_test(tc, test_changes_persist_and_caps_refuse);
	tcase_add_test(tc, test_settings_persist);
	tcase_add_test(tc, test_add_vd_out_of_memory);
	tcase_add_test(tc, test_create_out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(mock_suite());
}
