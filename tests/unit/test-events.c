// SPDX-License-Identifier: MIT
/*
 * test-events.c - the per-controller event log: appending and reading,
 * sequence numbers across reopening and deleting, a torn last line after a
 * crash, damaged lines, the filters, and the events the public wrappers
 * record. Each test works in its own throwaway state directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "unit.h"

#define MIB (1ull << 20)

static struct unit_state scratch;
static struct rcl_ctx *ctx;
static unsigned id;

static void setup(void)
{
	unit_state_enter(&scratch, NULL);
	ctx = unit_ctx_new(scratch.dir);
	id = unit_soft_create(ctx, 4, 16 * MIB);
}

static void teardown(void)
{
	rcl_ctx_free(ctx);
	unit_state_leave(&scratch);
}

static struct rcl_ctrl *ctrl_open(void)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;

	ck_assert_msg(rcl_ctrl_open(ctx, id, RCL_LOCK_EXCLUSIVE, &ctrl, &err) == RCL_OK, "%s",
	              err.msg);
	return ctrl;
}

static void record(const char *text)
{
	struct rcl_ctrl *ctrl = ctrl_open();
	struct rcl_error err = {0};

	ck_assert_msg(rcl_event_record(ctrl, RCL_EVENT_VD_DELETED, &err, "%s", text) == RCL_OK,
	              "%s", err.msg);
	rcl_ctrl_close(ctrl);
}

/* The events @filter (NULL: all) selects, read through a fresh open. */
static struct rcl_event_list events(const struct rcl_event_filter *filter)
{
	struct rcl_ctrl *ctrl = ctrl_open();
	struct rcl_event_list list = {0};
	struct rcl_error err = {0};

	ck_assert_msg(rcl_ctrl_events(ctrl, filter, &list, &err) == RCL_OK, "%s", err.msg);
	ck_assert_int_eq(err.status, RCL_OK); /* untouched on success */
	rcl_ctrl_close(ctrl);
	return list;
}

static char *log_path(void)
{
	struct rcl_ctrl *ctrl = ctrl_open();
	char *path = NULL;

	ck_assert_int_ne(
	    asprintf(&path, "%s/events/soft-%s.log", scratch.dir, rcl_ctrl_info(ctrl)->serial), -1);
	rcl_ctrl_close(ctrl);
	return path;
}

/* Append @text to the log file as it is, as a crash or damage would leave it. */
static void append_raw(const char *text)
{
	char *path = log_path();
	FILE *f = fopen(path, "a");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static void seqs_are(const struct rcl_event_list *list, size_t count, const uint64_t *want)
{
	ck_assert_uint_eq(list->count, count);
	for (size_t i = 0; i < count; i++)
		ck_assert_uint_eq(list->events[i].seq, want[i]);
}

START_TEST(test_created_controller_logs_its_creation)
{
	struct rcl_event_list list = events(NULL);

	ck_assert_uint_eq(list.count, 1);
	ck_assert_uint_eq(list.events[0].seq, 1);
	ck_assert_int_eq(list.events[0].code, RCL_EVENT_CTRL_CREATED);
	ck_assert_int_eq(list.events[0].class_, RCL_EVENT_INFO);
	ck_assert_uint_eq(list.events[0].locale, 0x20);
	ck_assert_str_eq(list.events[0].description, "Controller created");
	ck_assert(list.events[0].time > 0);
	ck_assert_uint_eq(list.damaged, 0);
	rcl_event_list_release(&list);
}
END_TEST

START_TEST(test_append_then_read_in_order)
{
	static const uint64_t want[] = {1, 2, 3};
	struct rcl_event_list list;

	record("Deleted VD 1");
	record("Deleted VD 2 \"quoted\"\\");
	list = events(NULL);
	seqs_are(&list, 3, want);
	ck_assert_str_eq(list.events[1].description, "Deleted VD 1");
	ck_assert_str_eq(list.events[2].description, "Deleted VD 2 \"quoted\"\\");
	ck_assert_uint_eq(list.events[2].locale, 0x01);
	rcl_event_list_release(&list);
}
END_TEST

START_TEST(test_sequence_survives_a_new_context)
{
	static const uint64_t want[] = {1, 2, 3};
	struct rcl_event_list list;

	record("first");
	rcl_ctx_free(ctx);
	ctx = unit_ctx_new(scratch.dir);
	record("after restart");
	list = events(NULL);
	seqs_are(&list, 3, want);
	rcl_event_list_release(&list);
}
END_TEST

START_TEST(test_torn_last_line_is_skipped_then_cut)
{
	static const uint64_t before[] = {1}, after[] = {1, 2};
	struct rcl_event_list list;

	append_raw("{\"seq\":2,\"time\":1,\"cla");
	list = events(NULL);
	seqs_are(&list, 1, before);
	ck_assert_uint_eq(list.damaged, 0); /* a crash, not damage */
	rcl_event_list_release(&list);

	/* The next append cuts the torn line off instead of gluing onto it. */
	record("after the crash");
	list = events(NULL);
	seqs_are(&list, 2, after);
	ck_assert_uint_eq(list.damaged, 0);
	ck_assert_str_eq(list.events[1].description, "after the crash");
	rcl_event_list_release(&list);
}
END_TEST

START_TEST(test_damaged_lines_are_counted_not_fatal)
{
	static const uint64_t want[] = {1, 2};
	struct rcl_event_list list;

	append_raw("not json\n{\"seq\":0,\"time\":1,\"class\":0,\"code\":1,\"description\":\"\"}\n"
	           "{\"seq\":9,\"time\":1,\"class\":7,\"code\":1,\"description\":\"x\"}\n\n");
	record("still logged");
	list = events(NULL);
	seqs_are(&list, 2, want);
	ck_assert_uint_eq(list.damaged, 3);
	rcl_event_list_release(&list);
}
END_TEST

START_TEST(test_delete_keeps_the_sequence)
{
	static const uint64_t want[] = {3, 4};
	struct rcl_event_list list;
	struct rcl_ctrl *ctrl;
	struct rcl_error err = {0};

	record("one");
	ctrl = ctrl_open();
	ck_assert_msg(rcl_ctrl_delete_events(ctrl, &err) == RCL_OK, "%s", err.msg);
	rcl_ctrl_close(ctrl);
	record("after delete");
	list = events(NULL);
	seqs_are(&list, 2, want);
	ck_assert_int_eq(list.events[0].code, RCL_EVENT_EVENTS_DELETED);
	ck_assert_str_eq(list.events[0].description, "Events deleted");
	rcl_event_list_release(&list);
}
END_TEST

START_TEST(test_filter_by_class)
{
	struct rcl_event_filter warnings = {.classes = 1u << RCL_EVENT_WARNING};
	struct rcl_event_filter fatal = {.classes = 1u << RCL_EVENT_FATAL};
	struct rcl_error err = {0};
	struct rcl_event_list list;
	struct rcl_ctrl *ctrl = ctrl_open();

	ck_assert_int_eq(rcl_ctrl_remove_drive(ctrl, rcl_ctrl_drive(ctrl, 3), false, &err), RCL_OK);
	rcl_ctrl_close(ctrl);
	list = events(&warnings);
	ck_assert_uint_eq(list.count, 1);
	ck_assert_int_eq(list.events[0].code, RCL_EVENT_DRIVE_REMOVED);
	ck_assert_str_eq(list.events[0].description, "Drive /c0/e252/s3 removed");
	rcl_event_list_release(&list);
	list = events(&fatal);
	ck_assert_uint_eq(list.count, 0);
	rcl_event_list_release(&list);
}
END_TEST

START_TEST(test_latest_and_since)
{
	static const uint64_t last2[] = {3, 4}, all[] = {1, 2, 3, 4};
	struct rcl_event_filter latest = {.latest = 2}, many = {.latest = 10};
	struct rcl_event_filter future = {.since = time(NULL) + 3600};
	struct rcl_event_list list;

	for (int i = 0; i < 3; i++)
		record("event");
	list = events(&latest);
	seqs_are(&list, 2, last2);
	rcl_event_list_release(&list);
	list = events(&many);
	seqs_are(&list, 4, all);
	rcl_event_list_release(&list);
	list = events(&future);
	ck_assert_uint_eq(list.count, 0);
	rcl_event_list_release(&list);
}
END_TEST

START_TEST(test_no_log_is_empty)
{
	char *path = log_path();
	struct rcl_event_list list;

	ck_assert_int_eq(remove(path), 0);
	list = events(NULL);
	ck_assert_uint_eq(list.count, 0);
	ck_assert_uint_eq(list.damaged, 0);
	rcl_event_list_release(&list);
	free(path);
}
END_TEST

START_TEST(test_wrappers_record_vd_changes)
{
	struct rcl_drive_ref drives[] = {{252, 0}, {252, 1}, {252, 2}};
	struct rcl_vd_params p = {.level = RCL_RAID5, .drives = drives, .drive_count = 3};
	struct rcl_vd_props props = rcl_vd_props_keep();
	struct rcl_ctrl *ctrl = ctrl_open();
	struct rcl_error err = {0};
	struct rcl_event_list list;
	unsigned vd;

	props.name = "db";
	props.write = RCL_WRITE_BACK;
	ck_assert_msg(rcl_ctrl_create_vd(ctrl, &p, &vd, &err) == RCL_OK, "%s", err.msg);
	ck_assert_msg(rcl_ctrl_set_vd(ctrl, vd, &props, &err) == RCL_OK, "%s", err.msg);
	ck_assert_msg(rcl_ctrl_delete_vd(ctrl, vd, true, &err) == RCL_OK, "%s", err.msg);
	/* A refused change logs nothing. */
	ck_assert_int_eq(rcl_ctrl_delete_vd(ctrl, vd, true, &err), RCL_NOT_FOUND);
	rcl_ctrl_close(ctrl);
	list = events(NULL);
	ck_assert_uint_eq(list.count, 4);
	ck_assert(!strncmp(list.events[1].description, "Created VD 0 (RAID5, 3 drives, ", 31));
	ck_assert_str_eq(list.events[2].description,
	                 "VD 0 properties updated: name=db, wrcache=WB");
	ck_assert_str_eq(list.events[3].description, "Deleted VD 0");
	rcl_event_list_release(&list);
}
END_TEST

START_TEST(test_deleting_the_controller_removes_its_log)
{
	char *path = log_path();
	struct rcl_error err = {0};

	ck_assert(unit_exists(path));
	ck_assert_int_eq(rcl_ctrl_delete(ctrl_open(), 0, &err), RCL_OK);
	ck_assert(!unit_exists(path));
	free(path);
}
END_TEST

START_TEST(test_class_names_round_trip)
{
	static const char *const names[] = {"info", "warning", "critical", "fatal"};
	struct rcl_error err = {0};
	enum rcl_event_class c;

	for (int i = 0; i < 4; i++) {
		ck_assert_str_eq(rcl_event_class_name((enum rcl_event_class)i), names[i]);
		ck_assert_int_eq(rcl_event_class_parse(names[i], &c, &err), RCL_OK);
		ck_assert_int_eq(c, i);
	}
	ck_assert_int_eq(rcl_event_class_parse("WARNING", &c, &err), RCL_OK);
	ck_assert_int_eq(c, RCL_EVENT_WARNING);
	ck_assert_int_eq(rcl_event_class_parse("warn", &c, &err), RCL_INVALID_PARAM);
	ck_assert_msg(strstr(err.msg, "'warn'"), "%s", err.msg);
	ck_assert_str_eq(rcl_event_class_name((enum rcl_event_class)9), "unknown");
}
END_TEST

static TCase *tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	return tc;
}

static Suite *events_suite(void)
{
	Suite *s = suite_create("events");
	TCase *tc;

	tc = tcase("rcl_event_record");
	tcase_add_test(tc, test_created_controller_logs_its_creation);
	tcase_add_test(tc, test_append_then_read_in_order);
	tcase_add_test(tc, test_sequence_survives_a_new_context);
	tcase_add_test(tc, test_torn_last_line_is_skipped_then_cut);
	tcase_add_test(tc, test_damaged_lines_are_counted_not_fatal);
	tcase_add_test(tc, test_wrappers_record_vd_changes);
	suite_add_tcase(s, tc);

	tc = tcase("rcl_ctrl_delete_events");
	tcase_add_test(tc, test_delete_keeps_the_sequence);
	suite_add_tcase(s, tc);

	tc = tcase("rcl_ctrl_events");
	tcase_add_test(tc, test_filter_by_class);
	tcase_add_test(tc, test_latest_and_since);
	tcase_add_test(tc, test_no_log_is_empty);
	suite_add_tcase(s, tc);

	tc = tcase("rcl_event_log_remove");
	tcase_add_test(tc, test_deleting_the_controller_removes_its_log);
	suite_add_tcase(s, tc);

	tc = tcase("rcl_event_class_parse");
	tcase_add_test(tc, test_class_names_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(events_suite());
}
