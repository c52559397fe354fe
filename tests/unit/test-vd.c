// SPDX-License-Identifier: MIT
/*
 * test-vd.c - the rules every "add vd" passes before a backend writes a
 * byte: level names, drive counts per level and span, strip, name, drives
 * listed twice; and the controller checks (unknown drive, size beyond the
 * drives); member states and the VD states they make, with their events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* 252:first .. 252:first+count-1 */
static struct rcl_drive_ref refs[64];

static struct rcl_vd_params params(enum rcl_raid_level level, size_t count, unsigned per_span)
{
	struct rcl_vd_params p = {.level = level, .drives = refs, .drive_count = count};

	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++)
		refs[i] = (struct rcl_drive_ref){.enclosure = 252, .slot = (unsigned)i};
	p.drives_per_span = per_span;
	return p;
}

static void accepted(struct rcl_vd_params *p)
{
	struct rcl_error err = {0};

	ck_assert_msg(rcl_vd_params_check(p, &err) == RCL_OK, "refused: %s", err.msg);
	ck_assert_int_eq(err.status, RCL_OK);
}

/* Refused with RCL_INVALID_PARAM, a message holding @msg, @p untouched. */
static void refused(struct rcl_vd_params *p, const char *msg)
{
	struct rcl_vd_params before = *p;
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_vd_params_check(p, &err), RCL_INVALID_PARAM);
	ck_assert_msg(strstr(err.msg, msg), "message '%s' lacks '%s'", err.msg, msg);
	ck_assert(!memcmp(&before, p, sizeof(before)));
}

static enum rcl_raid_level parse_ok(const char *text)
{
	struct rcl_error err = {0};
	enum rcl_raid_level level = RCL_RAID60;

	ck_assert_msg(rcl_raid_level_parse(text, &level, &err) == RCL_OK, "'%s': %s", text,
	              err.msg);
	return level;
}

START_TEST(test_level_spellings)
{
	static const struct {
		const char *text;
		enum rcl_raid_level level;
	} cases[] = {
	    {"raid0", RCL_RAID0},   {"RAID1", RCL_RAID1},   {"r5", RCL_RAID5},
	    {"R6", RCL_RAID6},      {"raid10", RCL_RAID10}, {"r10", RCL_RAID10},
	    {"Raid50", RCL_RAID50}, {"r50", RCL_RAID50},    {"RAID60", RCL_RAID60},
	    {"r60", RCL_RAID60},    {"rAiD5", RCL_RAID5},   {"r0", RCL_RAID0},
	    {"r00", RCL_RAID00},    {"RAID00", RCL_RAID00},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_int_eq(parse_ok(cases[i].text), cases[i].level);
}
END_TEST

START_TEST(test_level_junk_refused)
{
	static const char *const junk[] = {"raid7",  "r", "raid", "5",      "r05",
	                                   "raid5x", "",  "rr5",  "raid 5", "r000"};

	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		struct rcl_error err = {0};
		enum rcl_raid_level level = RCL_RAID6;

		ck_assert_int_eq(rcl_raid_level_parse(junk[i], &level, &err), RCL_INVALID_PARAM);
		ck_assert_int_eq(level, RCL_RAID6);
		ck_assert_msg(strstr(err.msg, junk[i]), "'%s' not quoted: %s", junk[i], err.msg);
	}
}
END_TEST

START_TEST(test_level_names_round_trip)
{
	for (int l = RCL_RAID0; l <= RCL_RAID00; l++)
		ck_assert_int_eq(parse_ok(rcl_raid_level_name((enum rcl_raid_level)l)), l);
	ck_assert_str_eq(rcl_raid_level_name((enum rcl_raid_level)99), "Unknown");
}
END_TEST

START_TEST(test_state_abbrevs)
{
	ck_assert_str_eq(rcl_vd_state_abbrev(RCL_VD_OPTIMAL), "Optl");
	ck_assert_str_eq(rcl_vd_state_abbrev(RCL_VD_PARTIALLY_DEGRADED), "Pdgd");
	ck_assert_str_eq(rcl_vd_state_abbrev(RCL_VD_DEGRADED), "Dgrd");
	ck_assert_str_eq(rcl_vd_state_abbrev(RCL_VD_OFFLINE), "OfLn");
	ck_assert_str_eq(rcl_vd_state_abbrev((enum rcl_vd_state)42), "Unknown");
}
END_TEST

START_TEST(test_defaults_filled)
{
	struct rcl_vd_params p = params(RCL_RAID5, 4, 0);

	accepted(&p);
	ck_assert_uint_eq(p.drives_per_span, 4);
	ck_assert_uint_eq(p.strip_kib, 64);
	p = params(RCL_RAID10, 6, 0);
	accepted(&p);
	ck_assert_uint_eq(p.drives_per_span, 2);
}
END_TEST

START_TEST(test_minimum_drives_per_level)
{
	struct rcl_vd_params p;

	p = params(RCL_RAID0, 0, 0);
	refused(&p, "drives= lists no drive");
	p = params(RCL_RAID0, 1, 0);
	accepted(&p);
	p = params(RCL_RAID5, 2, 0);
	refused(&p, "RAID5 needs at least 3 drives; drives= lists 2");
	p = params(RCL_RAID5, 3, 0);
	accepted(&p);
	p = params(RCL_RAID6, 3, 0);
	refused(&p, "RAID6 needs at least 4 drives; drives= lists 3");
	p = params(RCL_RAID6, 4, 0);
	accepted(&p);
}
END_TEST

START_TEST(test_raid1_is_two_drives)
{
	struct rcl_vd_params p;

	p = params(RCL_RAID1, 1, 0);
	refused(&p, "RAID1 needs at least 2 drives; drives= lists 1");
	p = params(RCL_RAID1, 3, 0);
	refused(&p, "RAID1 needs exactly 2 drives; drives= lists 3");
	/* The capture's "r1 ... PDperArray=2" is accepted. */
	p = params(RCL_RAID1, 2, 2);
	accepted(&p);
}
END_TEST

START_TEST(test_single_span_levels_refuse_other_pdperarray)
{
	struct rcl_vd_params p = params(RCL_RAID5, 6, 3);

	refused(&p, "RAID5 has a single span: pdperarray=3 must equal the 6 drives");
}
END_TEST

START_TEST(test_spanned_levels)
{
	struct rcl_vd_params p;

	p = params(RCL_RAID10, 3, 0);
	refused(&p, "pdperarray=2 does not divide 3 drives");
	p = params(RCL_RAID10, 8, 4);
	refused(&p, "RAID10 needs 2 drives per span; pdperarray=4");
	p = params(RCL_RAID10, 2, 2);
	refused(&p, "RAID10 needs at least 2 spans; 2 drives with pdperarray=2 make 1");
	p = params(RCL_RAID50, 6, 0);
	refused(&p, "RAID50 needs pdperarray=N");
	p = params(RCL_RAID50, 8, 3);
	refused(&p, "pdperarray=3 does not divide 8 drives");
	p = params(RCL_RAID50, 6, 2);
	refused(&p, "RAID50 needs 3 to 32 drives per span; pdperarray=2");
	p = params(RCL_RAID50, 6, 3);
	accepted(&p);
	p = params(RCL_RAID60, 8, 3);
	refused(&p, "RAID60 needs 4 to 32 drives per span; pdperarray=3");
	p = params(RCL_RAID60, 8, 4);
	accepted(&p);
	p = params(RCL_RAID10, 18, 2);
	refused(&p, "RAID10 takes at most 8 spans");
}
END_TEST

START_TEST(test_drive_listed_twice)
{
	struct rcl_vd_params p = params(RCL_RAID5, 4, 0);
	struct rcl_drive_ref spare = {252, 1};

	refs[3].slot = 1;
	refused(&p, "drive 252:1 is listed twice");
	p = params(RCL_RAID5, 4, 0);
	p.spares = &spare;
	p.spare_count = 1;
	refused(&p, "drive 252:1 is listed both as a member and as a spare");
}
END_TEST

START_TEST(test_strip)
{
	static const unsigned bad[] = {1, 4, 48, 100, 2048, 7, 1023};
	static const unsigned good[] = {8, 16, 32, 64, 128, 256, 512, 1024};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rcl_vd_params p = params(RCL_RAID0, 2, 0);
		char msg[64];

		p.strip_kib = bad[i];
		snprintf(msg, sizeof(msg), "strip=%u is not a power of two from 8 to 1024", bad[i]);
		refused(&p, msg);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct rcl_vd_params p = params(RCL_RAID0, 2, 0);

		p.strip_kib = good[i];
		accepted(&p);
		ck_assert_uint_eq(p.strip_kib, good[i]);
	}
}
END_TEST

START_TEST(test_name)
{
	struct rcl_vd_params p = params(RCL_RAID0, 1, 0);

	p.name = "fifteen-chars-x";
	accepted(&p);
	p.name = "sixteen-chars-xx";
	refused(&p, "name 'sixteen-chars-xx' is longer than 15 characters");
	p.name = "tab\there";
	refused(&p, "not printable");
	/* Eight characters, sixteen bytes: refused for what they are, not their length. */
	p.name = "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9";
	refused(&p, "is not ASCII");
}
END_TEST

START_TEST(test_too_many_spares)
{
	struct rcl_vd_params p = params(RCL_RAID5, 3, 0);

	p.spares = refs + 3;
	p.spare_count = RCL_MAX_HOT_SPARES + 1;
	refused(&p, "spares= lists 9 drives");
}
END_TEST

START_TEST(test_span_data_drives)
{
	ck_assert_uint_eq(rcl_raid_span_data_drives(RCL_RAID0, 3), 3);
	ck_assert_uint_eq(rcl_raid_span_data_drives(RCL_RAID1, 2), 1);
	ck_assert_uint_eq(rcl_raid_span_data_drives(RCL_RAID10, 2), 1);
	ck_assert_uint_eq(rcl_raid_span_data_drives(RCL_RAID5, 4), 3);
	ck_assert_uint_eq(rcl_raid_span_data_drives(RCL_RAID50, 3), 2);
	ck_assert_uint_eq(rcl_raid_span_data_drives(RCL_RAID6, 6), 4);
	ck_assert_uint_eq(rcl_raid_span_data_drives(RCL_RAID60, 4), 2);
}
END_TEST

/* A spanned level's span is its single-span level; the others are their own. */
START_TEST(test_span_level)
{
	ck_assert_int_eq(rcl_raid_span_level(RCL_RAID10), RCL_RAID1);
	ck_assert_int_eq(rcl_raid_span_level(RCL_RAID50), RCL_RAID5);
	ck_assert_int_eq(rcl_raid_span_level(RCL_RAID60), RCL_RAID6);
	ck_assert_int_eq(rcl_raid_span_level(RCL_RAID0), RCL_RAID0);
	ck_assert_int_eq(rcl_raid_span_level(RCL_RAID5), RCL_RAID5);
}
END_TEST

/* A soft controller with @drives 64 MB images in a throwaway state dir. */
static struct rcl_ctrl *open_ctrl(char **dir, struct rcl_ctx **ctx, unsigned drives)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	unsigned id;

	*dir = unit_tmpdir();
	*ctx = unit_ctx_new(*dir);
	id = unit_soft_create(*ctx, drives, 64 << 20);
	ck_assert_int_eq(rcl_ctrl_open(*ctx, id, RCL_LOCK_EXCLUSIVE, &ctrl, &err), RCL_OK);
	return ctrl;
}

static void close_ctrl(char *dir, struct rcl_ctx *ctx, struct rcl_ctrl *ctrl)
{
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
}

START_TEST(test_create_checks_the_controller)
{
	struct rcl_ctx *ctx;
	char *dir;
	struct rcl_ctrl *ctrl = open_ctrl(&dir, &ctx, 4);
	struct rcl_vd_params p = params(RCL_RAID5, 3, 0);
	struct rcl_error err = {0};
	unsigned vd;

	refs[2].slot = 9;
	ck_assert_int_eq(rcl_ctrl_create_vd(ctrl, &p, &vd, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "drive 252:9 not found on /c0");

	p = params(RCL_RAID5, 3, 0);
	p.bytes = 1ull << 40;
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(rcl_ctrl_create_vd(ctrl, &p, &vd, &err), RCL_INVALID_PARAM);
	ck_assert_msg(strstr(err.msg, "is beyond the free space"), "%s", err.msg);

	p = params(RCL_RAID5, 2, 0);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(rcl_ctrl_create_vd(ctrl, &p, &vd, &err), RCL_INVALID_PARAM);
	ck_assert_msg(strstr(err.msg, "RAID5 needs at least 3 drives"), "%s", err.msg);
	close_ctrl(dir, ctx, ctrl);
}
END_TEST

START_TEST(test_delete_and_set_name_the_missing_vd)
{
	struct rcl_ctx *ctx;
	char *dir;
	struct rcl_ctrl *ctrl = open_ctrl(&dir, &ctx, 0);
	struct rcl_vd_props props = rcl_vd_props_keep();
	struct rcl_error err = {0};

	props.name = "x";
	ck_assert_uint_eq(rcl_ctrl_vd_count(ctrl), 0);
	ck_assert_ptr_null(rcl_ctrl_vd(ctrl, 0));
	ck_assert_uint_eq(rcl_ctrl_dg_count(ctrl), 0);
	ck_assert_ptr_null(rcl_ctrl_dg(ctrl, 0));
	ck_assert_int_eq(rcl_ctrl_delete_vd(ctrl, 3, false, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "virtual drive /c0/v3 not found");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(rcl_ctrl_set_vd(ctrl, 0, &props, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "virtual drive /c0/v0 not found");
	close_ctrl(dir, ctx, ctrl);
}
END_TEST

/* A new VD of @level on the first @count drives of @ctrl. */
static void make_vd(struct rcl_ctrl *ctrl, enum rcl_raid_level level, size_t count,
                    unsigned per_span)
{
	struct rcl_vd_params p = params(level, count, per_span);
	struct rcl_error err = {0};
	unsigned vd;

	ck_assert_msg(!rcl_vd_params_check(&p, &err), "%s", err.msg);
	ck_assert_msg(!rcl_ctrl_create_vd(ctrl, &p, &vd, &err), "%s", err.msg);
}

/* Change drive 252:@slot's state: the status, and the message holding @msg. */
static void change(struct rcl_ctrl *ctrl, unsigned slot, enum rcl_drive_change how, bool force,
                   enum rcl_status want, const char *msg)
{
	const struct rcl_drive_ref ref = {252, slot};
	struct rcl_error err = {0};

	ck_assert_msg(rcl_ctrl_set_drive_state(ctrl, &ref, how, force, &err) == want,
	              "set %s 252:%u: %d %s", rcl_drive_change_name(how), slot, err.status,
	              err.msg);
	ck_assert_msg(strstr(err.msg, msg), "'%s' lacks '%s'", err.msg, msg);
}

static const struct rcl_drive *slot_drive(const struct rcl_ctrl *ctrl, unsigned slot)
{
	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++)
		if (rcl_ctrl_drive(ctrl, i)->slot == slot)
			return rcl_ctrl_drive(ctrl, i);
	ck_abort_msg("no drive in slot %u", slot);
	return NULL;
}

/* The last @n events' descriptions, oldest first, joined by '|'. */
static void last_events(struct rcl_ctrl *ctrl, size_t n, char *out, size_t size,
                        enum rcl_event_code *first_code)
{
	struct rcl_event_filter filter = {.latest = n};
	struct rcl_event_list list = {0};
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_ctrl_events(ctrl, &filter, &list, &err), RCL_OK);
	ck_assert_uint_eq(list.count, n);
	*out = 0;
	for (size_t i = 0; i < list.count; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? "|" : "",
		         list.events[i].description);
	*first_code = list.events[0].code;
	rcl_event_list_release(&list);
}

START_TEST(test_failed_member_is_ubad_until_made_good)
{
	struct rcl_ctx *ctx;
	char *dir;
	struct rcl_ctrl *ctrl = open_ctrl(&dir, &ctx, 3);
	enum rcl_event_code code;
	char events[1024];

	make_vd(ctrl, RCL_RAID5, 3, 0);
	change(ctrl, 1, RCL_DRIVE_SET_FAILED, false, RCL_OK, "");
	ck_assert_int_eq(slot_drive(ctrl, 1)->state, RCL_PD_UBAD);
	ck_assert_int_eq(slot_drive(ctrl, 1)->dg, 0);
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_DEGRADED);
	last_events(ctrl, 2, events, sizeof(events), &code);
	ck_assert_int_eq(code, RCL_EVENT_DRIVE_FAILED);
	ck_assert_str_eq(events, "Drive /c0/e252/s1 state changed from Onln to UBad (I/O error)|"
	                         "VD 0 state changed from Optl to Dgrd");
	change(ctrl, 1, RCL_DRIVE_SET_FAILED, false, RCL_NOT_ALLOWED, "252:1 is UBad");
	/* Back without wiping only with force (test-transient.c takes that way). */
	change(ctrl, 1, RCL_DRIVE_SET_ONLINE, false, RCL_NEED_FORCE, "use force to return it");
	change(ctrl, 0, RCL_DRIVE_SET_OFFLINE, false, RCL_NEED_FORCE, "use force");
	change(ctrl, 1, RCL_DRIVE_SET_GOOD, false, RCL_NEED_FORCE, "failed member");
	change(ctrl, 1, RCL_DRIVE_SET_GOOD, true, RCL_OK, "");
	ck_assert_int_eq(slot_drive(ctrl, 1)->state, RCL_PD_UGOOD);
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_DEGRADED);
	/* A new process reads the same states from the drives. */
	rcl_ctrl_close(ctrl);
	ck_assert_int_eq(rcl_ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE, &ctrl, NULL), RCL_OK);
	ck_assert_int_eq(slot_drive(ctrl, 1)->state, RCL_PD_UGOOD);
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_DEGRADED);
	close_ctrl(dir, ctx, ctrl);
}
END_TEST

START_TEST(test_raid60_states_per_span)
{
	struct rcl_ctx *ctx;
	char *dir;
	struct rcl_ctrl *ctrl = open_ctrl(&dir, &ctx, 8);
	const struct rcl_dg *dg;

	make_vd(ctrl, RCL_RAID60, 8, 4);
	change(ctrl, 0, RCL_DRIVE_SET_OFFLINE, false, RCL_OK, "");
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_PARTIALLY_DEGRADED);
	change(ctrl, 1, RCL_DRIVE_SET_OFFLINE, false, RCL_OK, "");
	change(ctrl, 4, RCL_DRIVE_SET_OFFLINE, false, RCL_OK, "");
	dg = rcl_ctrl_dg(ctrl, 0);
	ck_assert_int_eq(dg->state, RCL_VD_DEGRADED);
	ck_assert_int_eq(dg->span_states[0], RCL_VD_DEGRADED);
	ck_assert_int_eq(dg->span_states[1], RCL_VD_PARTIALLY_DEGRADED);
	change(ctrl, 2, RCL_DRIVE_SET_OFFLINE, false, RCL_NEED_FORCE, "RAID60");
	change(ctrl, 5, RCL_DRIVE_SET_OFFLINE, false, RCL_OK, "");
	change(ctrl, 2, RCL_DRIVE_SET_OFFLINE, true, RCL_OK, "");
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_OFFLINE);
	change(ctrl, 2, RCL_DRIVE_SET_ONLINE, false, RCL_OK, "");
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_DEGRADED);
	close_ctrl(dir, ctx, ctrl);
}
END_TEST

START_TEST(test_raid10_pairs_and_raid1)
{
	struct rcl_ctx *ctx;
	char *dir;
	struct rcl_ctrl *ctrl = open_ctrl(&dir, &ctx, 6);

	make_vd(ctrl, RCL_RAID10, 4, 2);
	change(ctrl, 0, RCL_DRIVE_SET_OFFLINE, false, RCL_OK, "");
	change(ctrl, 3, RCL_DRIVE_SET_OFFLINE, false, RCL_OK, "");
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_DEGRADED);
	change(ctrl, 1, RCL_DRIVE_SET_OFFLINE, false, RCL_NEED_FORCE, "RAID10");
	change(ctrl, 0, RCL_DRIVE_SET_MISSING, false, RCL_OK, "");
	ck_assert_int_eq(slot_drive(ctrl, 0)->state, RCL_PD_UGOOD);
	ck_assert_int_eq(slot_drive(ctrl, 0)->dg, -1);
	change(ctrl, 0, RCL_DRIVE_SET_ONLINE, false, RCL_NOT_ALLOWED, "252:0 is UGood");
	/* The drive has left the group: it can serve as anything unconfigured does. */
	ck_assert_int_eq(
	    rcl_ctrl_add_hotspare(ctrl, &(struct rcl_drive_ref){252, 0}, NULL, 0, 0, false, NULL),
	    RCL_OK);
	close_ctrl(dir, ctx, ctrl);
}
END_TEST

static Suite *vd_suite(void)
{
	Suite *s = suite_create("vd");
	TCase *tc;

	tc = tcase_create("rcl_raid_level_parse");
	tcase_add_test(tc, test_level_spellings);
	tcase_add_test(tc, test_level_junk_refused);
	tcase_add_test(tc, test_level_names_round_trip);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_raid_span_data_drives");
	tcase_add_test(tc, test_span_data_drives);
	tcase_add_test(tc, test_span_level);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_vd_state_abbrev");
	tcase_add_test(tc, test_state_abbrevs);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_vd_params_check");
	tcase_add_test(tc, test_defaults_filled);
	tcase_add_test(tc, test_minimum_drives_per_level);
	tcase_add_test(tc, test_raid1_is_two_drives);
	tcase_add_test(tc, test_single_span_levels_refuse_other_pdperarray);
	tcase_add_test(tc, test_spanned_levels);
	tcase_add_test(tc, test_drive_listed_twice);
	tcase_add_test(tc, test_strip);
	tcase_add_test(tc, test_name);
	tcase_add_test(tc, test_too_many_spares);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_create_vd");
	tcase_add_test(tc, test_create_checks_the_controller);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_delete_vd");
	tcase_add_test(tc, test_delete_and_set_name_the_missing_vd);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_ctrl_set_drive_state");
	tcase_add_test(tc, test_failed_member_is_ubad_until_made_good);
	tcase_add_test(tc, test_raid60_states_per_span);
	tcase_add_test(tc, test_raid10_pairs_and_raid1);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(vd_suite());
}
