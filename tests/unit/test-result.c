// SPDX-License-Identifier: MIT
/*
 * test-result.c - the result tree (struct rcl_node) and the per-controller
 * replies the renderers print: order, keys and labels, legends, lookups,
 * out-of-memory marks, failures turned into StorCLI's Detailed Status, and
 * the failure messages themselves (rcl_error_set()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

START_TEST(test_new_object_and_array_are_empty)
{
	struct rcl_node *obj = rcl_node_new_object();
	struct rcl_node *arr = rcl_node_new_array();

	ck_assert_int_eq(rcl_node_kind(obj), RCL_NODE_OBJECT);
	ck_assert_int_eq(rcl_node_kind(arr), RCL_NODE_ARRAY);
	ck_assert_uint_eq(rcl_node_count(obj), 0);
	ck_assert_ptr_null(rcl_node_key(obj));
	ck_assert_ptr_null(rcl_node_child(obj, 0));
	ck_assert(!rcl_node_oom(obj));
	rcl_node_free(obj);
	rcl_node_free(arr);
}
END_TEST

START_TEST(test_free_of_null_and_of_deep_trees)
{
	struct rcl_node *root = rcl_node_new_object(), *node = root;

	rcl_node_free(NULL);
	for (int i = 0; i < 100; i++) {
		node = rcl_node_add_object(node, "nested");
		rcl_node_add_str(node, "k", "v");
	}
	ck_assert(!rcl_node_oom(root));
	rcl_node_free(root); /* leaks show under ASan */
}
END_TEST

START_TEST(test_children_keep_insertion_order)
{
	static const char *const keys[] = {
	    "Product Name",   "Serial Number", "FW Version", "Driver Name", "A",
	    "Zeta",           "Beta",          "Alpha",      "9",           "10",
	    "Physical Drives"};
	struct rcl_node *obj = rcl_node_new_object();
	size_t n = sizeof(keys) / sizeof(keys[0]);

	for (size_t i = 0; i < n; i++)
		rcl_node_add_int(obj, keys[i], (long long)i);
	ck_assert_uint_eq(rcl_node_count(obj), n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_str_eq(rcl_node_key(rcl_node_child(obj, i)), keys[i]);
		ck_assert_int_eq(rcl_node_int(rcl_node_child(obj, i)), (long long)i);
	}
	ck_assert_ptr_null(rcl_node_child(obj, n));
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_array_rows_are_unnamed_tables)
{
	struct rcl_node *data = rcl_node_new_object();
	struct rcl_node *table = rcl_node_add_array(data, "PD LIST");
	const struct rcl_node *row;

	for (int i = 0; i < 20; i++) {
		struct rcl_node *r = rcl_node_add_object(table, NULL);

		rcl_node_add_strf(r, "EID:Slt", "252:%d", i);
		rcl_node_add_int(r, "DID", i);
	}
	ck_assert_int_eq(rcl_node_kind(table), RCL_NODE_ARRAY);
	ck_assert_uint_eq(rcl_node_count(table), 20);
	row = rcl_node_child(table, 19);
	ck_assert_ptr_null(rcl_node_key(row));
	ck_assert_str_eq(rcl_node_str(rcl_node_child(row, 0)), "252:19");
	ck_assert_int_eq(rcl_node_int(rcl_node_child(row, 1)), 19);
	rcl_node_free(data);
}
END_TEST

START_TEST(test_strings_are_copied)
{
	struct rcl_node *obj = rcl_node_new_object();
	char value[] = "Optimal", key[] = "Controller Status";
	const struct rcl_node *child = rcl_node_add_str(obj, key, value);

	value[0] = 'X';
	key[0] = 'X';
	ck_assert_str_eq(rcl_node_str(child), "Optimal");
	ck_assert_str_eq(rcl_node_key(child), "Controller Status");
	ck_assert_int_eq(rcl_node_kind(child), RCL_NODE_STRING);
	/* An int or object has no string: "" rather than NULL. */
	ck_assert_str_eq(rcl_node_str(rcl_node_add_int(obj, "n", 1)), "");
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_strf_formats_the_value)
{
	struct rcl_node *obj = rcl_node_new_object();
	const struct rcl_node *child = rcl_node_add_strf(obj, "Version", "raidcli %s-%d", "0.1", 7);

	ck_assert_str_eq(rcl_node_str(child), "raidcli 0.1-7");
	ck_assert_ptr_null(rcl_node_add_strf(NULL, "k", "%d", 1));
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_ints_keep_their_full_range)
{
	struct rcl_node *obj = rcl_node_new_object();

	rcl_node_add_int(obj, "min", -9223372036854775807LL - 1);
	rcl_node_add_int(obj, "max", 9223372036854775807LL);
	ck_assert_int_eq(rcl_node_int(rcl_node_find(obj, "min")), -9223372036854775807LL - 1);
	ck_assert_int_eq(rcl_node_int(rcl_node_find(obj, "max")), 9223372036854775807LL);
	ck_assert_int_eq(rcl_node_kind(rcl_node_find(obj, "max")), RCL_NODE_INT);
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_size_is_storcli_text_aligned_right)
{
	struct rcl_node *obj = rcl_node_new_object();
	const struct rcl_node *size =
	    rcl_node_add_size(obj, "Size", 893ull * (1ull << 30) + (3ull << 28));

	ck_assert_str_eq(rcl_node_str(size), "893.750 GB");
	ck_assert_int_eq(rcl_node_kind(size), RCL_NODE_STRING);
	ck_assert(rcl_node_flags(size) & RCL_NODE_ALIGN_RIGHT);
	ck_assert_str_eq(rcl_node_str(rcl_node_add_size(obj, "Zero", 0)), "0 KB");
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_label_defaults_to_the_key)
{
	struct rcl_node *obj = rcl_node_new_object();
	struct rcl_node *child = rcl_node_add_str(obj, "Operating System ", "Linux");

	ck_assert_str_eq(rcl_node_label(child), "Operating System ");
	rcl_node_set_label(child, "OS");
	ck_assert_str_eq(rcl_node_label(child), "OS");
	ck_assert_str_eq(rcl_node_key(child), "Operating System "); /* JSON key unchanged */
	rcl_node_set_label(child, "Operating System");
	ck_assert_str_eq(rcl_node_label(child), "Operating System");
	rcl_node_set_label(NULL, "ignored");
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_legend_is_kept_for_text_tables)
{
	struct rcl_node *obj = rcl_node_new_object();
	struct rcl_node *table = rcl_node_add_array(obj, "PD LIST");

	ck_assert_ptr_null(rcl_node_legend(table));
	rcl_node_set_legend(table, "EID=Enclosure Device ID|Slt=Slot No");
	ck_assert_str_eq(rcl_node_legend(table), "EID=Enclosure Device ID|Slt=Slot No");
	rcl_node_set_legend(table, "replaced");
	ck_assert_str_eq(rcl_node_legend(table), "replaced");
	rcl_node_set_legend(NULL, "ignored");
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_flags_replace_previous_flags)
{
	struct rcl_node *obj = rcl_node_new_object();
	struct rcl_node *child = rcl_node_add_str(obj, "DG", "-");

	ck_assert_uint_eq(rcl_node_flags(child), 0);
	rcl_node_set_flags(child, RCL_NODE_ALIGN_RIGHT);
	ck_assert_uint_eq(rcl_node_flags(child), RCL_NODE_ALIGN_RIGHT);
	rcl_node_set_flags(child, 0);
	ck_assert_uint_eq(rcl_node_flags(child), 0);
	rcl_node_set_flags(NULL, 1); /* a failed add's NULL is harmless */
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_find_returns_the_named_child)
{
	struct rcl_node *obj = rcl_node_new_object();
	struct rcl_node *arr = rcl_node_add_array(obj, "Rows");

	rcl_node_add_str(obj, "State", "Onln");
	rcl_node_add_str(obj, "State ", "trailing space is another key");
	rcl_node_add_str(obj, "Dup", "first");
	rcl_node_add_str(obj, "Dup", "second");
	rcl_node_add_str(arr, NULL, "unnamed");
	ck_assert_str_eq(rcl_node_str(rcl_node_find(obj, "State")), "Onln");
	ck_assert_str_eq(rcl_node_str(rcl_node_find(obj, "State ")),
	                 "trailing space is another key");
	ck_assert_str_eq(rcl_node_str(rcl_node_find(obj, "Dup")), "first");
	ck_assert_ptr_eq(rcl_node_find(obj, "Rows"), arr);
	ck_assert_ptr_null(rcl_node_find(obj, "state")); /* keys are exact */
	ck_assert_ptr_null(rcl_node_find(obj, "Missing"));
	ck_assert_ptr_null(rcl_node_find(arr, "unnamed"));
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_adding_to_null_parent_returns_null)
{
	ck_assert_ptr_null(rcl_node_add_object(NULL, "k"));
	ck_assert_ptr_null(rcl_node_add_array(NULL, "k"));
	ck_assert_ptr_null(rcl_node_add_str(NULL, "k", "v"));
	ck_assert_ptr_null(rcl_node_add_int(NULL, "k", 1));
	ck_assert_ptr_null(rcl_node_add_size(NULL, "k", 1));
}
END_TEST

START_TEST(test_out_of_memory_marks_the_parent)
{
	struct rcl_node *obj = rcl_node_new_object();
	struct rcl_node *section = rcl_node_add_object(obj, "Basics");

	rcl_node_add_str(section, "Model", "raidcli Soft RAID");
	ck_assert(!rcl_node_oom(obj));
	rcl_alloc_fail_after(1, false);
	ck_assert_ptr_null(rcl_node_add_str(section, "Serial Number", "RCLC0001"));
	rcl_alloc_fail_after(0, false);
	/* The failure is remembered below, and seen from the root. */
	ck_assert(rcl_node_oom(section));
	ck_assert(rcl_node_oom(obj));
	ck_assert_uint_eq(rcl_node_count(section), 1);
	/* Later adds work again but the mark stays. */
	ck_assert_ptr_nonnull(rcl_node_add_str(section, "Serial Number", "RCLC0001"));
	ck_assert(rcl_node_oom(obj));
	ck_assert(rcl_node_oom(NULL)); /* a node that was never made */
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_out_of_memory_at_every_step_of_an_add)
{
	/* Fail each allocation of one add in turn: NULL, mark, no leak. */
	for (unsigned long n = 1;; n++) {
		struct rcl_node *obj = rcl_node_new_object();
		struct rcl_node *child;
		unsigned long made;

		for (int i = 0; i < 8; i++) /* fill the first block of slots */
			rcl_node_add_int(obj, "pad", i);
		rcl_alloc_fail_after(n, false);
		child = rcl_node_add_str(obj, "key", "value");
		made = rcl_alloc_fail_after(0, false);
		if (made < n) {
			ck_assert_ptr_nonnull(child);
			ck_assert(!rcl_node_oom(obj));
			rcl_node_free(obj);
			break;
		}
		ck_assert_ptr_null(child);
		ck_assert(rcl_node_oom(obj));
		rcl_node_free(obj);
	}
}
END_TEST

START_TEST(test_set_oom_marks_by_hand)
{
	struct rcl_node *obj = rcl_node_new_object();

	rcl_node_set_oom(obj);
	ck_assert(rcl_node_oom(obj));
	rcl_node_set_oom(NULL);
	rcl_node_free(obj);
}
END_TEST

START_TEST(test_new_reply_is_empty)
{
	struct rcl_reply reply;

	memset(&reply, 0x55, sizeof(reply));
	rcl_reply_init(&reply);
	ck_assert_uint_eq(reply.count, 0);
	ck_assert_ptr_null(reply.results);
	ck_assert_int_eq(rcl_reply_status(&reply), RCL_OK);
	rcl_reply_release(&reply);
}
END_TEST

START_TEST(test_release_frees_results_and_empties)
{
	struct rcl_reply reply;
	struct rcl_error err = {0};

	rcl_reply_init(&reply);
	for (int i = 0; i < 9; i++)
		rcl_node_add_str(rcl_reply_add(&reply, i)->data, "k", "v");
	rcl_fail(&err, RCL_NOT_FOUND, "gone");
	rcl_result_fail(&reply.results[3], &err);
	rcl_reply_release(&reply);
	ck_assert_uint_eq(reply.count, 0);
	ck_assert_ptr_null(reply.results);
	rcl_reply_release(&reply); /* twice is fine */
}
END_TEST

START_TEST(test_add_starts_a_successful_result_per_controller)
{
	struct rcl_reply reply;
	struct rcl_result *res;

	rcl_reply_init(&reply);
	for (int i = 0; i < 10; i++) {
		res = rcl_reply_add(&reply, i);
		ck_assert_ptr_nonnull(res);
	}
	res = rcl_reply_add(&reply, -1);
	ck_assert_uint_eq(reply.count, 11);
	for (int i = 0; i < 10; i++) {
		ck_assert_int_eq(reply.results[i].ctrl, i);
		ck_assert_int_eq(reply.results[i].status, RCL_OK);
		ck_assert_str_eq(reply.results[i].description, "None");
		ck_assert_ptr_null(reply.results[i].detail);
		ck_assert_int_eq(rcl_node_kind(reply.results[i].data), RCL_NODE_OBJECT);
		ck_assert_uint_eq(rcl_node_count(reply.results[i].data), 0);
	}
	ck_assert_int_eq(res->ctrl, -1);
	rcl_reply_release(&reply);
}
END_TEST

START_TEST(test_add_out_of_memory_adds_nothing)
{
	struct rcl_reply reply;
	struct rcl_result *res;
	unsigned long n;

	rcl_reply_init(&reply);
	/* Fail each allocation of an add in turn, until one goes through. */
	for (n = 1;; n++) {
		rcl_alloc_fail_after(n, false);
		res = rcl_reply_add(&reply, 0);
		if (rcl_alloc_fail_after(0, false) < n)
			break;
		ck_assert_ptr_null(res);
		ck_assert_uint_eq(reply.count, 0);
	}
	ck_assert_uint_ge(n, 3); /* the array, the description, the data */
	ck_assert_ptr_nonnull(res);
	ck_assert_uint_eq(reply.count, 1);
	rcl_reply_release(&reply);
}
END_TEST

START_TEST(test_describe_replaces_the_description)
{
	struct rcl_reply reply;
	struct rcl_result *res;

	rcl_reply_init(&reply);
	res = rcl_reply_add(&reply, 0);
	ck_assert(rcl_result_describe(res, "Show Drive Information Succeeded."));
	ck_assert_str_eq(res->description, "Show Drive Information Succeeded.");
	ck_assert(rcl_result_describe(res, "Added controller /c%u.", 3u));
	ck_assert_str_eq(res->description, "Added controller /c3.");
	rcl_alloc_fail_after(1, true);
	ck_assert(!rcl_result_describe(res, "lost"));
	rcl_alloc_fail_after(0, false);
	ck_assert_str_eq(res->description, "Added controller /c3.");
	/* A handler that ignores the failure still cannot report a success. */
	ck_assert(rcl_node_oom(res->data));
	rcl_reply_release(&reply);
}
END_TEST

START_TEST(test_fail_adds_detailed_status_with_errcd)
{
	struct rcl_reply reply;
	struct rcl_error err = {0};
	struct rcl_result *res;
	const struct rcl_node *row;

	rcl_reply_init(&reply);
	res = rcl_reply_add(&reply, 2);
	rcl_node_add_str(res->data, "Kept", "yes");
	rcl_fail(&err, RCL_NOT_FOUND, "no drive at /c2/e252/s9");
	rcl_result_fail(res, &err);
	ck_assert_int_eq(res->status, RCL_NOT_FOUND);
	ck_assert_str_eq(res->description, "no drive at /c2/e252/s9");
	ck_assert_int_eq(rcl_node_kind(res->detail), RCL_NODE_ARRAY);
	ck_assert_uint_eq(rcl_node_count(res->detail), 1);
	row = rcl_node_child(res->detail, 0);
	ck_assert_uint_eq(rcl_node_count(row), 4);
	ck_assert_str_eq(rcl_node_key(rcl_node_child(row, 0)), "Ctrl");
	ck_assert_int_eq(rcl_node_int(rcl_node_find(row, "Ctrl")), 2);
	ck_assert_str_eq(rcl_node_str(rcl_node_find(row, "Status")), "Failed");
	ck_assert_int_eq(rcl_node_int(rcl_node_find(row, "ErrCd")), 35);
	ck_assert_str_eq(rcl_node_str(rcl_node_find(row, "ErrMsg")), "no drive at /c2/e252/s9");
	/* StorCLI keeps Response Data on some failures. */
	ck_assert_str_eq(rcl_node_str(rcl_node_find(res->data, "Kept")), "yes");
	rcl_reply_release(&reply);
}
END_TEST

START_TEST(test_fail_of_system_result_has_no_ctrl_column)
{
	struct rcl_reply reply;
	struct rcl_error err = {0};
	struct rcl_result *res;
	const struct rcl_node *row;

	rcl_reply_init(&reply);
	res = rcl_reply_add(&reply, -1);
	rcl_fail(&err, RCL_INVALID_COMMAND, "unknown word 'shwo'; did you mean 'show'?");
	rcl_result_fail(res, &err);
	row = rcl_node_child(res->detail, 0);
	ck_assert_ptr_null(rcl_node_find(row, "Ctrl"));
	ck_assert_str_eq(rcl_node_key(rcl_node_child(row, 0)), "Status");
	ck_assert_int_eq(rcl_node_int(rcl_node_find(row, "ErrCd")), RCL_INVALID_COMMAND);
	/* Failing twice replaces the detail, it does not pile rows up. */
	rcl_fail(&err, RCL_NOMEM, "out of memory");
	rcl_result_fail(res, &err);
	ck_assert_uint_eq(rcl_node_count(res->detail), 1);
	ck_assert_int_eq(rcl_node_int(rcl_node_find(rcl_node_child(res->detail, 0), "ErrCd")),
	                 RCL_NOMEM);
	ck_assert_int_eq(res->status, RCL_NOMEM);
	rcl_reply_release(&reply);
}
END_TEST

START_TEST(test_fail_out_of_memory_still_sets_the_status)
{
	struct rcl_reply reply;
	struct rcl_error err = {0};
	struct rcl_result *res;

	rcl_reply_init(&reply);
	res = rcl_reply_add(&reply, 0);
	rcl_fail(&err, RCL_CORRUPT, "state file '/x' is corrupt");
	rcl_alloc_fail_after(1, true);
	rcl_result_fail(res, &err);
	rcl_alloc_fail_after(0, false);
	ck_assert_int_eq(res->status, RCL_CORRUPT);
	ck_assert_int_eq(rcl_reply_status(&reply), RCL_CORRUPT);
	rcl_reply_release(&reply);
}
END_TEST

START_TEST(test_status_is_the_first_failure)
{
	struct rcl_reply reply;
	struct rcl_error err = {0};

	rcl_reply_init(&reply);
	rcl_reply_add(&reply, 0);
	rcl_reply_add(&reply, 1);
	rcl_reply_add(&reply, 2);
	ck_assert_int_eq(rcl_reply_status(&reply), RCL_OK);
	rcl_fail(&err, RCL_BUSY, "busy");
	rcl_result_fail(&reply.results[2], &err);
	rcl_fail(&err, RCL_NOT_FOUND, "gone");
	rcl_result_fail(&reply.results[1], &err);
	ck_assert_int_eq(rcl_reply_status(&reply), RCL_NOT_FOUND);
	rcl_reply_release(&reply);
}
END_TEST

/* rcl_fail()'s message for a name @value, which it quotes as '%s'. */
static const char *quoted_message(const char *value, struct rcl_error *err)
{
	rcl_fail(err, RCL_INVALID_PARAM, "name '%s' is longer than %d characters", value, 15);
	return err->msg;
}

START_TEST(test_long_quoted_value_keeps_the_reason)
{
	struct rcl_error err = {0};
	char *value = malloc(100001), want[512];

	ck_assert_ptr_nonnull(value);
	memset(value, 'x', 100000);
	value[100000] = '\0';
	snprintf(want, sizeof(want), "name '%.*s...' (100000 bytes) is longer than 15 characters",
	         RCL_QUOTE_MAX, value);
	ck_assert_str_eq(quoted_message(value, &err), want);
	/* At the limit, whole. */
	value[RCL_QUOTE_MAX] = '\0';
	snprintf(want, sizeof(want), "name '%s' is longer than 15 characters", value);
	ck_assert_str_eq(quoted_message(value, &err), want);
	/* A cut never splits a UTF-8 character: 99 x and an e-acute (2 bytes) stop at 99. */
	strcpy(value + RCL_QUOTE_MAX - 1, "\u00e9\u00e9");
	snprintf(want, sizeof(want), "name '%.*s...' (%d bytes) is longer than 15 characters",
	         RCL_QUOTE_MAX - 1, value, RCL_QUOTE_MAX + 3);
	ck_assert_str_eq(quoted_message(value, &err), want);
	free(value);
}
END_TEST

START_TEST(test_message_formats_as_printf_does)
{
	struct rcl_error err = {0};
	char want[512], path[300];

	/* Every conversion the messages use; an unquoted long string is not shortened. */
	memset(path, 'p', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	snprintf(want, sizeof(want), "%u %llu %d %zu %c %08x %lu %x %.3s %.*s %lld %-4d| 100%% %s",
	         4000000000u, 18446744073709551615ull, -7, (size_t)42, 'c', 0xbeefu, 99ul, 255u,
	         "abcdef", 2, "xyz", -5ll, 3, path);
	rcl_fail(&err, RCL_INVALID_PARAM,
	         "%u %llu %d %zu %c %08x %lu %x %.3s %.*s %lld %-4d| 100%% %s", 4000000000u,
	         18446744073709551615ull, -7, (size_t)42, 'c', 0xbeefu, 99ul, 255u, "abcdef", 2,
	         "xyz", -5ll, 3, path);
	ck_assert_str_eq(err.msg, want);
	/* What does not fit is cut at the end, as vsnprintf() cuts. */
	rcl_fail(&err, RCL_INVALID_PARAM, "%s %s", path, path);
	ck_assert_uint_eq(strlen(err.msg), sizeof(err.msg) - 1);
}
END_TEST

static Suite *result_suite(void)
{
	Suite *s = suite_create("result");
	TCase *tc;

	tc = tcase_create("rcl_node_new_object");
	tcase_add_test(tc, test_new_object_and_array_are_empty);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_free");
	tcase_add_test(tc, test_free_of_null_and_of_deep_trees);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_add_object");
	tcase_add_test(tc, test_children_keep_insertion_order);
	tcase_add_test(tc, test_adding_to_null_parent_returns_null);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_add_array");
	tcase_add_test(tc, test_array_rows_are_unnamed_tables);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_add_str");
	tcase_add_test(tc, test_strings_are_copied);
	tcase_add_test(tc, test_out_of_memory_marks_the_parent);
	tcase_add_test(tc, test_out_of_memory_at_every_step_of_an_add);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_add_strf");
	tcase_add_test(tc, test_strf_formats_the_value);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_add_int");
	tcase_add_test(tc, test_ints_keep_their_full_range);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_add_size");
	tcase_add_test(tc, test_size_is_storcli_text_aligned_right);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_set_label");
	tcase_add_test(tc, test_label_defaults_to_the_key);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_set_legend");
	tcase_add_test(tc, test_legend_is_kept_for_text_tables);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_set_flags");
	tcase_add_test(tc, test_flags_replace_previous_flags);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_set_oom");
	tcase_add_test(tc, test_set_oom_marks_by_hand);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_node_find");
	tcase_add_test(tc, test_find_returns_the_named_child);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_reply_init");
	tcase_add_test(tc, test_new_reply_is_empty);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_reply_release");
	tcase_add_test(tc, test_release_frees_results_and_empties);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_reply_add");
	tcase_add_test(tc, test_add_starts_a_successful_result_per_controller);
	tcase_add_test(tc, test_add_out_of_memory_adds_nothing);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_result_describe");
	tcase_add_test(tc, test_describe_replaces_the_description);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_result_fail");
	tcase_add_test(tc, test_fail_adds_detailed_status_with_errcd);
	tcase_add_test(tc, test_fail_of_system_result_has_no_ctrl_column);
	tcase_add_test(tc, test_fail_out_of_memory_still_sets_the_status);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_error_set");
	tcase_add_test(tc, test_long_quoted_value_keeps_the_reason);
	tcase_add_test(tc, test_message_formats_as_printf_does);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_reply_status");
	tcase_add_test(tc, test_status_is_the_first_failure);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(result_suite());
}
