// SPDX-License-Identifier: MIT
/*
 * test-backend.c - the backend contract (lib/backend.h) as a caller meets
 * it: an operation a backend leaves NULL fails with the one "not supported
 * by this controller (<kind>)" answer, as does a task its kind does not
 * run (before the backend is asked), a VD the capability record rules
 * out is refused before the backend is asked (by the library and, naming
 * the kind, by the CLI before it starts anything), only a kind that needs
 * one gets a controller process (its process hooks reached through its
 * ops table, a kind without them refused), and "add controller" reaches a
 * kind's create op through key=value parameters. Help and completion for
 * a path offer only what its controller can do; a setting it lacks is
 * refused like a task it lacks. A controller with an event log of its
 * own is read through its backend, with the user's filter applied. Task
 * settings and schedules go through the contract too: a kind without the
 * ops, or without a setting in its caps, is refused before any backend
 * code runs, and a change touches only the settings it names. Exports: a
 * kind without their ops has none, and the library picks the VDs asked
 * for and refuses a delete while a VD is exported. Insert names a group a
 * backend read without array rows as such.
 *
 * The "bare" backend below is a fake registered only here: every real
 * backend implements the operations these tests leave NULL, so no real
 * peer can take the contract's unsupported path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "internal.h"
#include "service.h"

#include "soft/soft.h"
#include "unit.h"

#define MIB (1ull << 20)

static enum rcl_status bare_load(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	(void)ctrl;
	(void)err;
	return RCL_OK;
}

static void bare_unload(struct rcl_ctrl *ctrl)
{
	(void)ctrl;
}

/* A kind that makes RAID1 only, with strips of 64 to 256 KB. */
static const struct rcl_caps bare_caps = {
    .kind = "bare",
    .levels = 1u << RCL_RAID1,
    .strip_min_kib = 64,
    .strip_max_kib = 256,
    .strip_default_kib = 64,
};

static const struct rcl_backend_ops bare_ops = {
    .name = "bare",
    .caps = &bare_caps,
    .load = bare_load,
    .unload = bare_unload,
};

/* What bare_settings_set() was last given; @calls: how often it ran. */
static struct {
	unsigned calls;
	unsigned changes;
	struct rcl_ctrl_settings settings;
} stored;

static enum rcl_status bare_settings_set(struct rcl_ctrl *ctrl, unsigned changes,
                                         const struct rcl_ctrl_settings *s, struct rcl_error *err)
{
	(void)ctrl;
	(void)err;
	stored.calls++;
	stored.changes = changes;
	stored.settings = *s;
	return RCL_OK;
}

/* The bare kind with a settings_set op, for the checks before it. */
static const struct rcl_backend_ops bare_settable_ops = {
    .name = "bare",
    .caps = &bare_caps,
    .load = bare_load,
    .unload = bare_unload,
    .settings_set = bare_settings_set,
};

/* A controller of the bare kind, as rcl_ctrl_open() would leave it. */
static struct rcl_ctrl bare_ctrl(void)
{
	struct rcl_ctrl ctrl = {.entry = {.id = 7, .ops = &bare_ops}, .lock_fd = -1};

	ctrl.caps = *bare_ops.caps;
	return ctrl;
}

START_TEST(test_null_op_is_unsupported)
{
	struct rcl_ctrl ctrl = bare_ctrl();
	struct rcl_error err = {0};
	struct rcl_foreign out;

	ck_assert_int_eq(rcl_ctrl_set_jbod_mode(&ctrl, true, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "JBOD mode is not supported by this controller (bare)");
	ck_assert_int_eq(rcl_ctrl_foreign(&ctrl, &out, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(
	    err.msg, "reading foreign configurations is not supported by this controller (bare)");
	ck_assert_uint_eq(out.count, 0);
}
END_TEST

START_TEST(test_no_settings_ops_is_unsupported)
{
	struct rcl_ctrl ctrl = bare_ctrl();
	struct rcl_ctrl_settings s = {.rate = {[RCL_SETTING_REBUILD_RATE] = 40}};
	struct rcl_schedule_status status;
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_ctrl_settings_get(&ctrl, &s, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg,
	                 "reading task settings is not supported by this controller (bare)");
	/* Offered by the caps, but the backend has no op to store it. */
	ctrl.caps.settings = 1u << RCL_SETTING_REBUILD_RATE;
	ck_assert_int_eq(rcl_ctrl_settings_set(&ctrl, 1u << RCL_SETTING_REBUILD_RATE, &s, &err),
	                 RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg,
	                 "changing task settings is not supported by this controller (bare)");
	ck_assert_int_eq(rcl_ctrl_schedule_status(&ctrl, &status, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg,
	                 "reading task schedules is not supported by this controller (bare)");
	ctrl.caps.settings = 1u << RCL_SETTING_PR_SCHEDULE;
	ck_assert_int_eq(rcl_ctrl_schedule_status(&ctrl, &status, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg,
	                 "reading task schedules is not supported by this controller (bare)");
}
END_TEST

START_TEST(test_set_refuses_a_setting_the_caps_lack)
{
	struct rcl_ctrl ctrl = bare_ctrl();
	struct rcl_ctrl_settings s = {
	    .rate = {[RCL_SETTING_REBUILD_RATE] = 40, [RCL_SETTING_PR_RATE] = 50}};
	struct rcl_error err = {0};
	unsigned both = 1u << RCL_SETTING_REBUILD_RATE | 1u << RCL_SETTING_PR_RATE;

	ctrl.entry.ops = &bare_settable_ops;
	ctrl.caps.settings = 1u << RCL_SETTING_REBUILD_RATE;
	stored.calls = 0;
	ck_assert_int_eq(rcl_ctrl_settings_set(&ctrl, both, &s, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "patrol read rate is not supported by this controller (bare)");
	ck_assert_uint_eq(stored.calls, 0);
	/* Out of range: refused before the backend too. */
	s.rate[RCL_SETTING_REBUILD_RATE] = 101;
	ck_assert_int_eq(rcl_ctrl_settings_set(&ctrl, 1u << RCL_SETTING_REBUILD_RATE, &s, &err),
	                 RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "the rebuild rate is out of its range");
	ck_assert_uint_eq(stored.calls, 0);
	s.rate[RCL_SETTING_REBUILD_RATE] = 40;
	ck_assert_int_eq(rcl_ctrl_settings_set(&ctrl, 1u << RCL_SETTING_REBUILD_RATE, &s, &err),
	                 RCL_OK);
	ck_assert_uint_eq(stored.calls, 1);
	ck_assert_uint_eq(stored.changes, 1u << RCL_SETTING_REBUILD_RATE);
	ck_assert_uint_eq(stored.settings.rate[RCL_SETTING_REBUILD_RATE], 40);
}
END_TEST

START_TEST(test_exports_unsupported_without_ops)
{
	struct rcl_ctrl ctrl = bare_ctrl();
	struct rcl_export_request req = {.name = "disk"};
	struct rcl_export_info *list;
	struct rcl_error err = {0};
	size_t count;

	/* Whether its caps claim exports or not, a kind without the ops has none. */
	for (int claims = 0; claims < 2; claims++) {
		ctrl.caps.exports = claims;
		ck_assert_int_eq(rcl_ctrl_export_check(&ctrl, 0, &req, &err), RCL_UNSUPPORTED);
		ck_assert_str_eq(err.msg, "exporting a virtual drive is not supported by this "
		                          "controller (bare)");
		ck_assert_int_eq(rcl_ctrl_export_start(&ctrl, 0, &req, &err), RCL_UNSUPPORTED);
		ck_assert_int_eq(rcl_ctrl_export_stop(&ctrl, 0, &err), RCL_UNSUPPORTED);
		ck_assert_int_eq(rcl_ctrl_exports(&ctrl, NULL, 0, &list, &count, &err),
		                 RCL_UNSUPPORTED);
		ck_assert_ptr_null(list);
		ck_assert_uint_eq(count, 0);
		/* Nothing exported stands in a delete's way; no VD waits for force. */
		err = (struct rcl_error){0};
		ck_assert_int_eq(rcl_ctrl_export_release_vd(&ctrl, 0, false, &err), RCL_OK);
		ck_assert_int_eq(rcl_ctrl_export_check_delete(&ctrl, &err), RCL_OK);
		ck_assert_int_eq(err.status, RCL_OK);
		ck_assert_ptr_null(rcl_ctrl_export_needs_force(&ctrl, 0));
		ck_assert_ptr_null(rcl_ctrl_export_waits_for_force(&ctrl, 0));
	}
}
END_TEST

/* A kind with v0 and v2 exported, which notes the export it is told to stop. */
static unsigned stopped;

static enum rcl_status two_exports(struct rcl_ctrl *ctrl, struct rcl_export_info **out,
                                   size_t *count, struct rcl_error *err)
{
	(void)ctrl;
	*out = rcl_calloc(2, sizeof(**out));
	if (!*out)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	(*out)[0] = (struct rcl_export_info){.vd = 0, .name = "first", .address = "unix:/a.sock"};
	(*out)[1] = (struct rcl_export_info){.vd = 2, .name = "second", .address = "[::1]:10809"};
	*count = 2;
	return RCL_OK;
}

static enum rcl_status note_stop(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err)
{
	(void)ctrl;
	(void)err;
	stopped = vd;
	return RCL_OK;
}

static const struct rcl_caps exporting_caps = {.kind = "exporting", .exports = true};

static const struct rcl_backend_ops exporting_ops = {
    .name = "exporting",
    .caps = &exporting_caps,
    .load = bare_load,
    .unload = bare_unload,
    .export_stop = note_stop,
    .exports = two_exports,
};

START_TEST(test_exports_of_the_vds_asked_for)
{
	struct rcl_ctrl ctrl = {.entry = {.id = 3, .ops = &exporting_ops}, .lock_fd = -1};
	struct rcl_export_info *list;
	struct rcl_error err = {0};
	size_t count;

	ctrl.caps = exporting_caps;
	ck_assert_int_eq(rcl_ctrl_exports(&ctrl, NULL, 0, &list, &count, &err), RCL_OK);
	ck_assert_uint_eq(count, 2);
	rcl_free(list);
	ck_assert_int_eq(rcl_ctrl_exports(&ctrl, (unsigned[]){1, 2}, 2, &list, &count, &err),
	                 RCL_OK);
	ck_assert_uint_eq(count, 1);
	ck_assert_str_eq(list[0].name, "second");
	ck_assert_str_eq(list[0].address, "[::1]:10809");
	rcl_free(list);
	ck_assert_int_eq(rcl_ctrl_exports(&ctrl, (unsigned[]){1}, 1, &list, &count, &err), RCL_OK);
	ck_assert_uint_eq(count, 0);
	ck_assert_ptr_null(list);
}
END_TEST

START_TEST(test_delete_refused_while_exported)
{
	struct rcl_ctrl ctrl = {.entry = {.id = 3, .ops = &exporting_ops}, .lock_fd = -1};
	struct rcl_error err = {0};

	ctrl.caps = exporting_caps;
	stopped = 99;
	ck_assert_int_eq(rcl_ctrl_export_release_vd(&ctrl, 1, false, &err), RCL_OK);
	ck_assert_int_eq(rcl_ctrl_export_release_vd(&ctrl, 2, false, &err), RCL_NEED_FORCE);
	ck_assert_str_eq(err.msg, "/c3/v2 is exported as 'second'; stop the export first "
	                          "(raidcli /c3/v2 stop export), or repeat with 'force'");
	ck_assert_uint_eq(stopped, 99);
	ck_assert_int_eq(rcl_ctrl_export_release_vd(&ctrl, 2, true, &err), RCL_OK);
	ck_assert_uint_eq(stopped, 2);
	ck_assert_int_eq(rcl_ctrl_export_check_delete(&ctrl, &err), RCL_NEED_FORCE);
	ck_assert_ptr_nonnull(strstr(err.msg, "/c3/v0 is exported as 'first', with other VDs: "
	                                      "deleting /c3"));
}
END_TEST

START_TEST(test_caps_refuse_a_level_and_a_strip)
{
	struct rcl_drive_ref drives[] = {{252, 0}, {252, 1}, {252, 2}};
	struct rcl_vd_params p = {.level = RCL_RAID5, .drives = drives, .drive_count = 3};
	struct rcl_ctrl ctrl = bare_ctrl();
	struct rcl_error err = {0};
	unsigned vd;

	ck_assert_int_eq(rcl_ctrl_create_vd(&ctrl, &p, &vd, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "RAID level RAID5 is not supported by this controller (bare)");
	p.level = RCL_RAID1;
	p.drive_count = 2;
	p.strip_kib = 8;
	ck_assert_int_eq(rcl_ctrl_create_vd(&ctrl, &p, &vd, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "strip=8 is not supported by this controller (bare); it takes "
	                          "strips of 64 to 256 KB");
}
END_TEST

/* Every task kind a backend may run. */
static const enum rcl_task_kind all_kinds[] = {
    RCL_TASK_REBUILD, RCL_TASK_CC,    RCL_TASK_INIT,      RCL_TASK_BGI,       RCL_TASK_PATROL_READ,
    RCL_TASK_MIGRATE, RCL_TASK_ERASE, RCL_TASK_SELF_TEST, RCL_TASK_FW_UPDATE,
};

/* Whether each generic task call on @ctrl refuses @req with @msg, unsupported. */
static void assert_task_refused(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                const char *msg)
{
	struct rcl_error err = {0};
	struct rcl_task_progress p;

	ck_assert_int_eq(rcl_ctrl_task_check(ctrl, req, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, msg);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(rcl_ctrl_task(ctrl, req, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, msg);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(rcl_ctrl_task_progress(ctrl, req, &p, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, msg);
	ck_assert_int_eq(p.state, RCL_TASK_STATE_STOPPED);
	ck_assert_int_eq(p.percent, -1);
}

/* A backend without task ops refuses every task, even one its caps list. */
START_TEST(test_task_without_ops_is_unsupported)
{
	struct rcl_ctrl ctrl = bare_ctrl();
	char msg[RCL_ERROR_MSG_MAX];

	for (int listed = 0; listed < 2; listed++) {
		ctrl.caps.tasks = listed ? ~0u : 0;
		for (size_t i = 0; i < sizeof(all_kinds) / sizeof(all_kinds[0]); i++) {
			struct rcl_task_request req = {.kind = all_kinds[i],
			                               .action = RCL_TASK_ACTION_START};

			snprintf(msg, sizeof(msg), "%s is not supported by this controller (bare)",
			         rcl_task_kind_name(all_kinds[i]));
			assert_task_refused(&ctrl, &req, msg);
		}
	}
}
END_TEST

/* The requests a backend with task ops was asked, to see what reached it. */
static unsigned ops_calls;

static enum rcl_status tasky_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                   struct rcl_error *err)
{
	(void)ctrl;
	(void)req;
	(void)err;
	ops_calls++;
	return RCL_OK;
}

static enum rcl_status tasky_progress(const struct rcl_ctrl *ctrl,
                                      const struct rcl_task_request *req,
                                      struct rcl_task_progress *out, struct rcl_error *err)
{
	(void)ctrl;
	(void)req;
	(void)err;
	ops_calls++;
	out->state = RCL_TASK_STATE_RUNNING;
	out->percent = 42;
	return RCL_OK;
}

/* A kind that runs consistency checks only, on its one VD. */
static const struct rcl_caps tasky_caps = {.kind = "tasky", .tasks = 1u << RCL_TASK_CC};

static const struct rcl_backend_ops tasky_ops = {
    .name = "tasky",
    .caps = &tasky_caps,
    .load = bare_load,
    .unload = bare_unload,
    .task_check = tasky_check,
    .task = tasky_check,
    .task_progress = tasky_progress,
};

START_TEST(test_task_the_caps_lack_is_unsupported)
{
	struct rcl_vd vd = {.id = 3};
	struct rcl_ctrl ctrl = {.entry = {.id = 7, .ops = &tasky_ops},
	                        .lock_fd = -1,
	                        .caps = tasky_caps,
	                        .vds = &vd,
	                        .vd_count = 1};
	struct rcl_task_request cc = {.kind = RCL_TASK_CC, .vd = 3};
	struct rcl_task_request init = {.kind = RCL_TASK_INIT, .vd = 3};
	struct rcl_error err = {0};
	struct rcl_task_progress p;

	ops_calls = 0;
	assert_task_refused(&ctrl, &init,
	                    "initialization is not supported by this controller (tasky)");
	ck_assert_uint_eq(ops_calls, 0);
	/* The kind it runs reaches the backend, for a VD that exists only. */
	ck_assert_int_eq(rcl_ctrl_task_check(&ctrl, &cc, &err), RCL_OK);
	ck_assert_int_eq(rcl_ctrl_task(&ctrl, &cc, &err), RCL_OK);
	ck_assert_int_eq(rcl_ctrl_task_progress(&ctrl, &cc, &p, &err), RCL_OK);
	ck_assert_int_eq(p.state, RCL_TASK_STATE_RUNNING);
	ck_assert_int_eq(p.percent, 42);
	ck_assert_uint_eq(ops_calls, 3);
	cc.vd = 4;
	ck_assert_int_eq(rcl_ctrl_task(&ctrl, &cc, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "/c7/v4 does not exist");
	ck_assert_uint_eq(ops_calls, 3);
}
END_TEST

/* What the CLI refuses for a controller with @caps, from the words a user types. */
static const char *refusal_for(const char *line, const struct rcl_caps *caps)
{
	static struct rcl_error err;
	struct cmd_args args;
	char **argv;
	int argc;

	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(cli_split_line(line, &argc, &argv, &err), RCL_OK);
	ck_assert_msg(cli_parse(argc, argv, &args, &err) == RCL_OK, "%s", err.msg);
	if (cli_check_caps(&args, caps, &err) == RCL_OK)
		err.msg[0] = '\0';
	else
		ck_assert_int_eq(err.status, RCL_UNSUPPORTED);
	cli_free_words(argc, argv);
	return err.msg;
}

static const char *cli_refusal(const char *line)
{
	return refusal_for(line, &bare_caps);
}

START_TEST(test_cli_refuses_what_the_caps_lack)
{
	ck_assert_str_eq(cli_refusal("/c0 add vd r5 drives=252:0-2"),
	                 "RAID level RAID5 is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0 add vd type=raid1 drives=252:0-1 strip=512"),
	                 "strip=512 is not supported by this controller (bare); it takes strips "
	                 "of 64 to 256 KB");
	ck_assert_str_eq(cli_refusal("/c0/v0 start cc"),
	                 "consistency check is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0/e252/s1 show rebuild"),
	                 "rebuild is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0/v0 start export"),
	                 "exporting a virtual drive is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0 show events type=sincereboot"), "");
	ck_assert_str_eq(cli_refusal("/c0 add vd type=raid1 drives=252:0-1"), "");
}
END_TEST

START_TEST(test_cli_refuses_a_setting_the_caps_lack)
{
	struct rcl_caps rated = bare_caps;

	ck_assert_str_eq(cli_refusal("/c0 set prrate=30"),
	                 "patrol read rate is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0 set ccrate=30"),
	                 "consistency check rate is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0 set rebuildrate=30"),
	                 "rebuild rate is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0 set jbod=on"),
	                 "JBOD mode is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0 show rebuildpriority"),
	                 "rebuild priority is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0/v0 set wrcache=wb"),
	                 "virtual drive policy is not supported by this controller (bare)");
	ck_assert_str_eq(cli_refusal("/c0/v0 set name=data"), "");
	/* One rate it has, one it lacks: the one it lacks is named. */
	rated.settings = 1u << RCL_SETTING_REBUILD_RATE;
	ck_assert_str_eq(refusal_for("/c0 set rebuildrate=30", &rated), "");
	ck_assert_str_eq(refusal_for("/c0 set rebuildrate=30 prrate=30", &rated),
	                 "patrol read rate is not supported by this controller (bare)");
	/* A task it runs, with a schedule it does not keep. */
	rated.tasks = 1u << RCL_TASK_CC;
	ck_assert_str_eq(refusal_for("/c0/v0 start cc", &rated), "");
	ck_assert_str_eq(refusal_for("/c0 set cc=seq", &rated),
	                 "consistency check schedule is not supported by this controller (bare)");
}
END_TEST

/* The help "raidcli <line>" prints for a controller with @caps (NULL: any). */
static char *help_for(const char *line, const struct rcl_caps *caps)
{
	struct rcl_error err = {0};
	struct cmd_args args;
	char *text = NULL, **argv;
	size_t size;
	int argc;
	FILE *out = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(cli_split_line(line, &argc, &argv, &err), RCL_OK);
	ck_assert_msg(cli_parse(argc, argv, &args, &err) == RCL_OK, "%s", err.msg);
	ck_assert(args.help);
	if (!cli_help(out, &args, caps))
		fputs("(no command matches)", out);
	fclose(out);
	cli_free_words(argc, argv);
	return text;
}

static bool help_has(const char *line, const struct rcl_caps *caps, const char *needle)
{
	char *text = help_for(line, caps);
	bool has = strstr(text, needle) != NULL;

	free(text);
	return has;
}

START_TEST(test_help_shows_what_the_caps_offer)
{
	struct rcl_caps cc_only = bare_caps;

	cc_only.tasks = 1u << RCL_TASK_CC;
	cc_only.settings = 1u << RCL_SETTING_REBUILD_RATE;
	ck_assert(help_has("/c0 help", NULL, "raidcli /cx start patrolread"));
	ck_assert(!help_has("/c0 help", &cc_only, "patrolread"));
	ck_assert(!help_has("/c0 help", &cc_only, "show prrate"));
	ck_assert(help_has("/c0 help", &cc_only, "raidcli /cx show rebuildrate"));
	ck_assert(help_has("/c0/v0 help", &cc_only, "raidcli /cx/vx start cc"));
	ck_assert(!help_has("/c0/v0 help", &cc_only, "start export"));
	ck_assert(!help_has("/c0/v0 help", &cc_only, "start init"));
	/* Of "set", the settings it has: the synopsis and the option list. */
	ck_assert(help_has("/c0 set help", &cc_only, "rebuildrate="));
	ck_assert(!help_has("/c0 set help", &cc_only, "prrate"));
	ck_assert(!help_has("/c0 set help", &cc_only, "jbod"));
	ck_assert(help_has("/c0 set help", NULL, "prrate"));
	/* A kind with no setting at all has no "set" of one; storclicompat is raidcli's own. */
	ck_assert(!help_has("/c0 help", &bare_caps, "raidcli /cx set ["));
	ck_assert(!help_has("/c0 help", &bare_caps, "raidcli /cx set cc"));
	ck_assert(help_has("/c0 help", &bare_caps, "raidcli /cx set storclicompat"));
	ck_assert(!help_has("/c0 help", &bare_caps, "raidcli /cx set\n"));
	ck_assert(help_has("/c0 start help", &bare_caps, "(no command matches)"));
	/* Of "add vd", the levels it makes. */
	ck_assert(help_has("/c0 add vd help", &bare_caps, "add vd type=raid1 drives="));
	ck_assert(help_has("/c0 add vd help", NULL, "add vd type=raid0|raid1|raid5|"));
}
END_TEST

/* The completions of @line for a controller with @caps, space-separated. */
static char *complete_for(const char *line, const struct rcl_caps *caps)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	char **words, *all;
	size_t n = cli_complete_caps(line, caps, &words);

	for (size_t i = 0; i < n; i++) {
		rcl_buf_addf(&sb, " %s", words[i]);
		rcl_free(words[i]);
	}
	rcl_free(words);
	rcl_buf_addch(&sb, ' ');
	all = strdup(sb.buf);
	rcl_buf_release(&sb);
	return all;
}

static bool completes(const char *line, const struct rcl_caps *caps, const char *word)
{
	char *all = complete_for(line, caps), needle[64];
	bool has;

	snprintf(needle, sizeof(needle), " %s ", word);
	has = strstr(all, needle) != NULL;
	free(all);
	return has;
}

START_TEST(test_completion_offers_what_the_caps_offer)
{
	struct rcl_caps cc_only = bare_caps;

	cc_only.tasks = 1u << RCL_TASK_CC;
	cc_only.settings = 1u << RCL_SETTING_REBUILD_RATE;
	ck_assert(completes("/c0 start ", NULL, "patrolread"));
	ck_assert(!completes("/c0 start ", &cc_only, "patrolread"));
	ck_assert(!completes("/c0 ", &bare_caps, "start"));
	ck_assert(completes("/c0/v0 start ", &cc_only, "cc"));
	ck_assert(!completes("/c0/v0 start ", &cc_only, "export"));
	ck_assert(!completes("/c0 show ", &cc_only, "prrate"));
	ck_assert(completes("/c0 show ", &cc_only, "rebuildrate"));
	ck_assert(completes("/c0 set ", &cc_only, "rebuildrate="));
	ck_assert(!completes("/c0 set ", &cc_only, "prrate="));
	ck_assert(!completes("/c0 start patrolread ", &cc_only, "wait"));
	/* Only the RAID levels it makes. */
	ck_assert(completes("/c0 add vd type=", &bare_caps, "type=raid1"));
	ck_assert(!completes("/c0 add vd type=", &bare_caps, "type=raid5"));
	ck_assert(completes("/c0 add vd type=", NULL, "type=raid5"));
}
END_TEST

/* A card that runs its own consistency checks gets no raidcli process for one. */
START_TEST(test_only_a_kind_that_needs_it_starts_a_process)
{
	struct rcl_caps card = bare_caps, soft = bare_caps;
	struct rcl_error err = {0};
	struct cmd_args args;
	char **argv;
	int argc;

	card.tasks = soft.tasks = 1u << RCL_TASK_CC;
	soft.needs_process = true;
	ck_assert_int_eq(cli_split_line("/c0/v0 start cc", &argc, &argv, &err), RCL_OK);
	ck_assert_int_eq(cli_parse(argc, argv, &args, &err), RCL_OK);
	ck_assert_int_eq(cli_check_caps(&args, &card, &err), RCL_OK);
	ck_assert(!cli_starts_process(args.cmd, &card));
	ck_assert(cli_starts_process(args.cmd, &soft));
	cli_free_words(argc, argv);
}
END_TEST

/* "raidcli /c7 serve" on a kind that runs no process: refused before it takes anything. */
START_TEST(test_serve_refuses_a_kind_without_a_process)
{
	struct rcl_registry_entry entry = {.id = 7, .ops = &bare_ops};
	struct rcl_ctx ctx = {.entries = &entry, .count = 1};
	struct rcl_error err = {0};

	ck_assert_int_eq(service_serve(&ctx, 7, NULL, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg,
	                 "a controller process is not supported by this controller (bare)");
}
END_TEST

static struct unit_state scratch;

static void setup(void)
{
	unit_state_enter(&scratch, NULL);
}

static void teardown(void)
{
	unit_state_leave(&scratch);
}

START_TEST(test_create_soft_from_key_values)
{
	struct rcl_kv params[] = {{"drives", "2"}, {"size", "64MB"}, {"sectorsize", "4096"}};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_error err = {0};
	const struct rcl_caps *caps;
	struct rcl_ctrl *ctrl;
	unsigned id = 99;

	ck_assert_msg(rcl_ctrl_create(ctx, "soft", params, 3, &id, &err) == RCL_OK, "%s", err.msg);
	ck_assert_uint_eq(id, 0);
	ck_assert_int_eq(rcl_ctx_ctrl_caps(ctx, id, &caps, &err), RCL_OK);
	ck_assert_str_eq(caps->kind, "soft");
	ck_assert(caps->needs_process);
	ck_assert_int_eq(rcl_ctrl_open(ctx, id, RCL_LOCK_SHARED, &ctrl, &err), RCL_OK);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 2);
	ck_assert_uint_eq(rcl_ctrl_drive(ctrl, 0)->logical_sector, 4096);
	ck_assert_str_eq(rcl_ctrl_caps(ctrl)->kind, "soft");
	/* A kind that needs a process has its hooks. */
	ck_assert_ptr_nonnull(ctrl->entry.ops->process);
	ck_assert_ptr_nonnull(ctrl->entry.ops->process->poll);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
}
END_TEST

/* A soft controller keeps what a change names and nothing else. */
START_TEST(test_soft_settings_change_only_what_is_named)
{
	struct rcl_kv params[] = {{"drives", "0"}};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_ctrl_settings s, back;
	struct rcl_schedule_status status;
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	unsigned id;

	ck_assert_msg(rcl_ctrl_create(ctx, "soft", params, 1, &id, &err) == RCL_OK, "%s", err.msg);
	ck_assert_int_eq(rcl_ctrl_open(ctx, id, RCL_LOCK_EXCLUSIVE, &ctrl, &err), RCL_OK);
	ck_assert_int_eq(rcl_ctrl_settings_get(ctrl, &s, &err), RCL_OK);
	ck_assert_uint_eq(s.rate[RCL_SETTING_PR_RATE], RCL_DEFAULT_RATE);
	ck_assert_int_eq(s.pr_mode, RCL_PR_AUTO);
	ck_assert_int_eq(s.cc_mode, RCL_CC_OFF);
	s.rate[RCL_SETTING_PR_RATE] = 70;
	s.rate[RCL_SETTING_CC_RATE] = 10; /* not named below: not stored */
	s.cc_mode = RCL_CC_SEQ;
	s.cc.exclude = 1u << 3;
	ck_assert_msg(
	    rcl_ctrl_settings_set(ctrl, 1u << RCL_SETTING_PR_RATE | 1u << RCL_SETTING_CC_SCHEDULE,
	                          &s, &err) == RCL_OK,
	    "%s", err.msg);
	ck_assert_int_eq(rcl_ctrl_settings_get(ctrl, &back, &err), RCL_OK);
	ck_assert_uint_eq(back.rate[RCL_SETTING_PR_RATE], 70);
	ck_assert_uint_eq(back.rate[RCL_SETTING_CC_RATE], RCL_DEFAULT_RATE);
	ck_assert_int_eq(back.cc_mode, RCL_CC_SEQ);
	ck_assert_uint_eq(back.cc.exclude, 1u << 3);
	/* No process has run either schedule: nothing under way, nothing waiting. */
	ck_assert_int_eq(rcl_ctrl_schedule_status(ctrl, &status, &err), RCL_OK);
	ck_assert_int_eq(status.patrol.state, RCL_SCHEDULE_STOPPED);
	ck_assert_int_eq(status.cc.state, RCL_SCHEDULE_STOPPED);
	ck_assert_int_eq(status.cc.next_start, 0);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
}
END_TEST

START_TEST(test_create_refuses_bad_parameters)
{
	struct rcl_kv unknown[] = {{"drives", "0"}, {"colour", "red"}};
	struct rcl_kv no_size[] = {{"drives", "3"}};
	struct rcl_ctx *ctx = unit_ctx_new(scratch.dir);
	struct rcl_error err = {0};
	const struct rcl_caps *caps;
	unsigned id;

	ck_assert_int_eq(rcl_ctrl_create(ctx, "soft", unknown, 2, &id, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "unknown option 'colour=' for a soft controller");
	ck_assert_int_eq(rcl_ctrl_create(ctx, "soft", no_size, 1, &id, &err), RCL_INVALID_COMMAND);
	ck_assert_ptr_nonnull(strstr(err.msg, "missing option 'size='"));
	ck_assert_int_eq(rcl_ctrl_create(ctx, "floppy", NULL, 0, &id, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "no controller kind 'floppy'");
	ck_assert_int_eq(rcl_ctx_ctrl_caps(ctx, 0, &caps, &err), RCL_NOT_FOUND);
	rcl_ctx_free(ctx);
}
END_TEST

/* A bare controller with a log of its own: three events, one per class, 100 s apart. */
static enum rcl_status logged_read_events(struct rcl_ctrl *ctrl, struct rcl_event_list *list,
                                          struct rcl_error *err)
{
	static const enum rcl_event_class classes[] = {RCL_EVENT_INFO, RCL_EVENT_WARNING,
	                                               RCL_EVENT_CRITICAL};
	size_t i;

	(void)ctrl;
	list->events = rcl_calloc(3, sizeof(*list->events));
	if (!list->events)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (i = 0; i < 3; i++) {
		list->events[i] = (struct rcl_event){
		    .seq = i + 1, .time = (time_t)(100 * (i + 1)), .class_ = classes[i]};
		snprintf(list->events[i].description, RCL_EVENT_DESC_MAX, "event %zu", i + 1);
	}
	list->count = 3;
	return RCL_OK;
}

START_TEST(test_own_event_log_is_filtered_and_not_cleared)
{
	struct rcl_backend_ops logged_ops = bare_ops;
	struct rcl_ctrl ctrl = bare_ctrl();
	struct rcl_event_filter warnings = {.classes = 1u << RCL_EVENT_WARNING};
	struct rcl_event_filter recent = {.since = 200, .latest = 1};
	struct rcl_event_list list = {0};
	struct rcl_error err = {0};

	logged_ops.read_events = logged_read_events;
	ctrl.entry.ops = &logged_ops;
	ck_assert_int_eq(rcl_ctrl_events(&ctrl, NULL, &list, &err), RCL_OK);
	ck_assert_uint_eq(list.count, 3);
	rcl_event_list_release(&list);
	ck_assert_int_eq(rcl_ctrl_events(&ctrl, &warnings, &list, &err), RCL_OK);
	ck_assert_uint_eq(list.count, 1);
	ck_assert_str_eq(list.events[0].description, "event 2");
	rcl_event_list_release(&list);
	ck_assert_int_eq(rcl_ctrl_events(&ctrl, &recent, &list, &err), RCL_OK);
	ck_assert_uint_eq(list.count, 1);
	ck_assert_str_eq(list.events[0].description, "event 3");
	rcl_event_list_release(&list);
	ck_assert_int_eq(rcl_ctrl_delete_events(&ctrl, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg,
	                 "deleting the event log is not supported by this controller (bare)");
}
END_TEST

/*
 * A group a backend read with no array row (a card's LD of no drives):
 * insert says so, rather than offering arrays 0 to 4294967295.
 */
START_TEST(test_insert_into_a_group_without_rows)
{
	struct rcl_ctrl ctrl = bare_ctrl();
	struct rcl_drive drive = {
	    .enclosure = 252, .slot = 1, .present = true, .state = RCL_PD_UGOOD, .dg = -1};
	struct rcl_dg empty = {.id = 0, .level = RCL_RAID1, .spans = 1};
	struct rcl_error err = {0};

	ctrl.caps.inserts_drives = true;
	ctrl.drives = &drive;
	ctrl.drive_count = 1;
	ctrl.dgs = &empty;
	ctrl.dg_count = 1;
	ck_assert_int_eq(
	    rcl_ctrl_insert_drive(&ctrl, &(struct rcl_drive_ref){252, 1}, 0, 0, 0, &err),
	    RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "drive group 0 has no array rows: none is missing a drive");
	empty.spans = 0;
	empty.drives_per_span = 2;
	ck_assert_int_eq(
	    rcl_ctrl_insert_drive(&ctrl, &(struct rcl_drive_ref){252, 1}, 0, 0, 0, &err),
	    RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "drive group 0 has no array rows: none is missing a drive");
}
END_TEST

/*
 * insert is a card's (caps with inserts_drives): a kind without it is not
 * offered it by completion or help, and is refused it naming the kind,
 * by the CLI before it starts anything and by the library before it
 * looks at the drive.
 */
START_TEST(test_insert_needs_the_caps)
{
	struct rcl_caps inserting = bare_caps;
	struct rcl_ctrl ctrl = bare_ctrl();
	struct rcl_error err = {0};

	inserting.inserts_drives = true;
	ck_assert(!completes("/c0/e252/s1 ", &bare_caps, "insert"));
	ck_assert(completes("/c0/e252/s1 ", &inserting, "insert"));
	ck_assert(!help_has("/c0/e252/s1 help", &bare_caps, "insert dg="));
	ck_assert(help_has("/c0/e252/s1 help", &inserting, "insert dg="));
	ck_assert_str_eq(cli_refusal("/c0/e252/s1 insert dg=0 array=0 row=0"),
	                 "replacing a missing drive is not supported by this controller (bare)");
	ck_assert_str_eq(refusal_for("/c0/e252/s1 insert dg=0 array=0 row=0", &inserting), "");
	ck_assert_int_eq(
	    rcl_ctrl_insert_drive(&ctrl, &(struct rcl_drive_ref){252, 1}, 0, 0, 0, &err),
	    RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg,
	                 "replacing a missing drive is not supported by this controller (bare)");
}
END_TEST

static Suite *backend_suite(void)
{
	Suite *s = suite_create("backend");
	TCase *tc;

	tc = tcase_create("rcl_unsupported");
	tcase_add_test(tc, test_null_op_is_unsupported);
	tcase_add_test(tc, test_own_event_log_is_filtered_and_not_cleared);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_settings_set");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_no_settings_ops_is_unsupported);
	tcase_add_test(tc, test_set_refuses_a_setting_the_caps_lack);
	tcase_add_test(tc, test_soft_settings_change_only_what_is_named);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_exports");
	tcase_add_test(tc, test_exports_unsupported_without_ops);
	tcase_add_test(tc, test_exports_of_the_vds_asked_for);
	tcase_add_test(tc, test_delete_refused_while_exported);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_task");
	tcase_add_test(tc, test_task_without_ops_is_unsupported);
	tcase_add_test(tc, test_task_the_caps_lack_is_unsupported);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_caps_check_vd");
	tcase_add_test(tc, test_caps_refuse_a_level_and_a_strip);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli_check_caps");
	tcase_add_test(tc, test_cli_refuses_what_the_caps_lack);
	tcase_add_test(tc, test_cli_refuses_a_setting_the_caps_lack);
	tcase_add_test(tc, test_only_a_kind_that_needs_it_starts_a_process);
	suite_add_tcase(s, tc);

	tc = tcase_create("service_serve");
	tcase_add_test(tc, test_serve_refuses_a_kind_without_a_process);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli_help");
	tcase_add_test(tc, test_help_shows_what_the_caps_offer);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli_complete_caps");
	tcase_add_test(tc, test_completion_offers_what_the_caps_offer);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_create");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_create_soft_from_key_values);
	tcase_add_test(tc, test_create_refuses_bad_parameters);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_insert_drive");
	tcase_add_test(tc, test_insert_into_a_group_without_rows);
	tcase_add_test(tc, test_insert_needs_the_caps);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(backend_suite());
}
