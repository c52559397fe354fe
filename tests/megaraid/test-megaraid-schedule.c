// SPDX-License-Identifier: MIT
/*
 * test-megaraid-schedule.c - a MegaRAID card's consistency check schedule
 * below the driver: "show cc" and "show all" read it from the card
 * (CC_SCHEDULE_GET_PROPERTIES and _GET_STATUS), "set cc" writes it
 * (CC_SCHEDULE_SET_PROPERTIES, its 168 bytes checked byte for byte, what
 * raidcli does not set kept as the card had it); the firmware's refusals
 * are named; a card whose schedule cannot be read (QEMU's, which runs no
 * checks; a firmware answering nothing, nonsense or INVALID_DCMD) offers
 * no schedule, and says so. The patrol read's schedule likewise ("show
 * patrolread", "set patrolread": PR_GET/SET_PROPERTIES' 208 bytes), and
 * its paused states.
 */
#include <stdlib.h>
#include <string.h>

#include "mfi-host.h"
#include "mfi-shim-tasks.h"
#include "mfi-shim.h"
#include "unit.h"

#define CC_SCHEDULE_GET_STATUS 0x01140100u
#define CC_SCHEDULE_GET        0x01140200u
#define CC_SCHEDULE_SET        0x01140300u
#define PR_GET                 0x01070200u
#define PR_SET                 0x01070300u
#define GET_PROPS              0x01020100u
#define SET_PROPS              0x01020200u

/* 2027/03/01 02:00 UTC and 2030/06/01 03:00 UTC, in the firmware's time (since 2000). */
#define MARCH_2027 0x33178da0u
#define JUNE_2030  0x3935d1b0u

/* Sequential, weekly, the next run on 1 March 2027, VD 2 left out; one run under way. */
static const struct mfi_shim_cc_schedule weekly = {
    .op_mode = 1,
    .max_lds = 4,
    .exclude_count = 1,
    .exclude = {2},
    .next_exec = MARCH_2027,
    .exec_freq = 168 * 3600,
    .clear_freq = 0x12345678,
    .iterations = 3,
    .state = 2,
    .lds_done = 1,
};

/* A card that runs checks (mfi_shim_tasks()), in UTC, with schedule @cc (NULL: QEMU's dummy). */
static void host_cc(struct host *h, const struct mfi_shim_cc_schedule *cc)
{
	host_utc(h);
	mfi_shim_tasks(MFI_SHIM_PROGRESS_FULL);
	if (cc)
		mfi_shim_cc_schedule(cc);
}

/* "show cc": StorCLI's rows, as the card's schedule and status say. */
START_TEST(test_show)
{
	struct host h;

	host_cc(&h, &weekly);
	expect("/c0 show cc", true, RCL_OK, HAS("\"Value\" : \"Sequential\""));
	run_expect("/c0 show cc", RCL_OK, "CC Execution Delay        168 hours");
	run_expect("/c0 show cc", RCL_OK, "CC Next Starttime         03/01/2027, 02:00:00");
	run_expect("/c0 show cc", RCL_OK, "CC Current State          Active");
	run_expect("/c0 show cc", RCL_OK, "CC Number of iterations   3");
	run_expect("/c0 show cc", RCL_OK, "CC Number of VD completed 1");
	run_expect("/c0 show cc", RCL_OK, "CC Excluded VDs           2");
	run_expect("/c0 show all", RCL_OK, "Consistency Check Reoccurrence = 168 hrs");
	run_expect("/c0 show all", RCL_OK, "Next Consistency check launch = 03/01/2027, 02:00:00");
	expect("/c0 show all", true, RCL_OK,
	       HAS("\"Next Consistency check launch\" : \"03/01/2027, 02:00:00\""));
	ck_assert_uint_eq(mfi_shim_sent(CC_SCHEDULE_SET), 0);
	host_done(&h);
}
END_TEST

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* @opcode's payload (@len bytes) after @line answers @row, byte for byte as @want. */
static void expect_payload(const char *line, const char *row, uint32_t opcode, const uint8_t *want,
                           size_t len)
{
	uint8_t mbox[12], data[256], zero[12] = {0};

	run_expect(line, RCL_OK, row);
	ck_assert_uint_eq(mfi_shim_last(opcode, mbox, data, sizeof(data)), len);
	ck_assert_mem_eq(mbox, zero, sizeof(zero)); /* legacy layout */
	ck_assert_mem_eq(data, want, len);
}

/* The CC_SCHEDULE_SET_PROPERTIES payload after @line (@want: the bytes that are not zero). */
static void expect_set(const char *line, const uint8_t *want)
{
	expect_payload(line, "CC Operation Mode", CC_SCHEDULE_SET, want, 168);
}

/* "set cc": the card's properties read afresh, changed, written back whole. */
START_TEST(test_set)
{
	/* Concurrent, the card's LDs at once, targets 0 and 1 excluded. */
	uint8_t want[168] = {[0] = 2, [1] = 4, [3] = 2, [6] = 1};
	struct host h;

	put_le32(want + 152, JUNE_2030);
	put_le32(want + 156, 24 * 3600);
	put_le32(want + 160, weekly.clear_freq); /* the card's, kept */
	host_cc(&h, &weekly);
	expect_set("/c0 set cc=conc delay=24 starttime=2030/06/01 03 excludevd=0-1", want);
	run_expect("/c0 show cc", RCL_OK, "CC Operation Mode         Concurrent");
	run_expect("/c0 show cc", RCL_OK, "CC Execution Delay        24 hours");
	run_expect("/c0 show cc", RCL_OK, "CC Next Starttime         06/01/2030, 03:00:00");
	run_expect("/c0 show cc", RCL_OK, "CC Excluded VDs           0-1");
	/* Off: the schedule keeps its time, but no run is next. */
	want[0] = 0;
	expect_set("/c0 set cc=off", want);
	run_expect("/c0 show cc", RCL_OK, "CC Next Starttime         -");
	run_expect("/c0 show all", RCL_OK, "Consistency Check Reoccurrence = Disabled");
	run_expect("/c0 show all", RCL_OK, "Next Consistency check launch = NA");
	/* No VD left out: the list emptied. */
	want[0] = 1;
	want[3] = 0;
	want[6] = 0;
	expect_set("/c0 set cc=seq excludevd=none", want);
	/* The schedule as it is: nothing to write. */
	run_expect("/c0 set cc=seq excludevd=none", RCL_OK, "CC Operation Mode");
	ck_assert_uint_eq(mfi_shim_sent(CC_SCHEDULE_SET), 3);
	host_done(&h);
}
END_TEST

/*
 * A change of one field writes that field only: a delay the card keeps in
 * seconds (raidcli shows it rounded to hours) and its next run stay as
 * they were when only the excluded VDs change.
 */
START_TEST(test_set_keeps_what_was_not_asked)
{
	struct mfi_shim_cc_schedule odd = weekly;
	uint8_t want[168] = {[0] = 1, [1] = 4};
	struct host h;

	odd.exec_freq = 90 * 60;
	put_le32(want + 152, MARCH_2027);
	put_le32(want + 156, 90 * 60);
	put_le32(want + 160, weekly.clear_freq);
	host_cc(&h, &odd);
	expect_set("/c0 set cc=seq excludevd=none", want);
	host_done(&h);
}
END_TEST

static const struct refused_change cc_refused = {
    CC_SCHEDULE_SET, "/c0 set cc=conc",
    "setting the consistency check schedule (CC_SCHEDULE_SET_PROPERTIES) failed", "/c0 show cc",
    "CC Operation Mode         Sequential"};

/* What raidcli refuses itself: no frame. What the firmware refuses: the schedule unchanged. */
START_TEST(test_refused)
{
	struct host h;

	host_cc(&h, &weekly);
	run_expect("/c0 set cc=seq excludevd=9", RCL_INVALID_PARAM, "/c0 has no VD 9");
	run_expect("/c0 set cc=seq starttime=2001/01/01 03", RCL_INVALID_PARAM, "in the past");
	ck_assert_uint_eq(mfi_shim_sent(CC_SCHEDULE_SET), 0);
	expect_refused(&cc_refused, &fw_refusals[_i]);
	host_done(&h);
}
END_TEST

/*
 * A schedule that cannot be read: nothing written (QEMU's dummy), more
 * excluded LDs than the reply holds, a firmware without the DCMD. The
 * card's checks stay; the schedule is not offered, nor set.
 */
START_TEST(test_unreadable)
{
	struct mfi_shim_cc_schedule bad = weekly;
	struct host h;

	bad.exclude_count = 65;
	host_cc(&h, _i == 1 ? &bad : _i == 2 ? &weekly : NULL);
	if (_i == 2)
		mfi_shim_break(CC_SCHEDULE_GET, MFI_SHIM_STATUS, 0x02);
	run_expect("/c0 show cc", RCL_UNSUPPORTED,
	           "consistency check schedule is not supported by this controller");
	run_expect("/c0 set cc=seq", RCL_UNSUPPORTED, "consistency check schedule");
	run_expect("/c0 show all", RCL_OK, "Consistency Check Reoccurrence = NA");
	run_expect("/c0/v0 show cc", RCL_OK, "Not in progress");
	ck_assert_uint_ge(mfi_shim_sent(CC_SCHEDULE_GET), 1);
	ck_assert_uint_eq(mfi_shim_sent(CC_SCHEDULE_SET), 0);
	host_done(&h);
}
END_TEST

/* QEMU's card runs no checks (RAID0 only, no CC rate): no schedule asked for. */
START_TEST(test_qemu_card)
{
	struct host h;

	host_utc(&h);
	run_expect("/c0 show cc", RCL_UNSUPPORTED, "consistency check is not supported");
	run_expect("/c0 set cc=seq", RCL_UNSUPPORTED, "consistency check is not supported");
	run_expect("/c0 show all", RCL_OK, "Next Consistency check launch = NA");
	ck_assert_uint_eq(mfi_shim_sent(CC_SCHEDULE_GET) + mfi_shim_sent(CC_SCHEDULE_GET_STATUS),
	                  0);
	/* Nor a patrol read (no PR rate): its schedule refused as clearly, nothing sent. */
	run_expect("/c0 set patrolread=on mode=manual", RCL_UNSUPPORTED,
	           "patrol read schedule is not supported by this controller (megaraid)");
	ck_assert_uint_eq(mfi_shim_sent(PR_GET) + mfi_shim_sent(PR_SET), 0);
	host_done(&h);
}
END_TEST

/* Automatic, weekly, 2 drives at once, SSD-only VDs and EPDs read, VD 1 left out; stopped. */
static const struct mfi_shim_patrol patrol = {
    .op_mode = 0,
    .max_pd = 2,
    .options = 0x03,
    .exclude_count = 1,
    .exclude = {1},
    .next_exec = MARCH_2027,
    .exec_freq = 168 * 3600,
    .clear_freq = 0x12345678,
    .iterations = 5,
};

/* A card with checks (VDs to leave out) and patrol read @pr, in UTC. */
static void host_pr(struct host *h, const struct mfi_shim_patrol *pr)
{
	host_cc(h, &weekly);
	mfi_shim_patrol(pr);
}

/* "show patrolread": what the card's properties say, not raidcli's defaults. */
START_TEST(test_pr_show)
{
	struct host h;

	host_pr(&h, &patrol);
	run_expect("/c0 show patrolread", RCL_OK, "PR Mode                 Auto");
	run_expect("/c0 show patrolread", RCL_OK, "PR Next Start time      03/01/2027, 02:00:00");
	run_expect("/c0 show patrolread", RCL_OK, "PR on SSD               Enabled");
	run_expect("/c0 show patrolread", RCL_OK, "PR Excluded VDs         1");
	run_expect("/c0 show patrolread", RCL_OK, "PR MaxConcurrentPd      2");
	run_expect("/c0 show patrolread", RCL_OK, "PR Current State        Stopped");
	host_done(&h);
}
END_TEST

/* MR_PR_STATE's PAUSED (3, by the card) and USER_PAUSED (4): a run under way, paused. */
START_TEST(test_pr_paused)
{
	struct mfi_shim_patrol paused = patrol;
	struct host h;

	paused.state = (uint8_t)_i;
	host_pr(&h, &paused);
	run_expect("/c0 show patrolread", RCL_OK, "PR Current State        Paused");
	expect("/c0 show patrolread", true, RCL_OK, HAS("\"Value\" : \"Paused\""));
	host_done(&h);
}
END_TEST

/*
 * "set patrolread": the card's properties read afresh, the settings given
 * changed, written back whole (the EPD option, drive maps and clear
 * interval as the card had them); "show patrolread" then says so.
 */
START_TEST(test_pr_set)
{
	/* A card reading continuously, its own count of drives at once (0). */
	struct mfi_shim_patrol card = patrol;
	/* Its properties, manual: what was not given stays the card's, not raidcli's rounding. */
	uint8_t manual[208] = {[0] = 1, [2] = 0x03, [3] = 1, [4] = 1};
	/* Then 4 drives at once, EPDs still read, VDs 0 and 1 left out. */
	uint8_t want[208] = {[0] = 1, [1] = 4, [2] = 0x02, [3] = 2, [6] = 1};
	struct host h;

	memset(manual + 132, 0xa5, 64);
	put_le32(manual + 196, MARCH_2027);
	put_le32(manual + 200, 0xffffffff);
	put_le32(manual + 204, patrol.clear_freq);
	memcpy(want + 132, manual + 132, 64);
	put_le32(want + 196, JUNE_2030);
	put_le32(want + 200, 24 * 3600);
	put_le32(want + 204, patrol.clear_freq);
	card.max_pd = 0;
	card.exec_freq = 0xffffffff;
	host_pr(&h, &card);
	expect_payload("/c0 set patrolread=on mode=manual", "PR Mode", PR_SET, manual, 208);
	run_expect("/c0 set patrolread starttime=2030/06/01 03 maxconcurrentpd=4 "
	           "includessds=onlymixed",
	           RCL_OK, "PR MaxConcurrentPd");
	expect_payload("/c0 set patrolread delay=24 excludevd=0-1", "PR Excluded VDs", PR_SET, want,
	               208);
	run_expect("/c0 show patrolread", RCL_OK, "PR Mode                 Manual");
	run_expect("/c0 show patrolread", RCL_OK, "PR Execution Delay      24 hours");
	run_expect("/c0 show patrolread", RCL_OK, "PR on SSD               OnlyMixed");
	run_expect("/c0 show patrolread", RCL_OK, "PR Excluded VDs         0-1");
	run_expect("/c0 show patrolread", RCL_OK, "PR MaxConcurrentPd      4");
	/* Back to automatic, SSDs on, no VD left out: the rest as the last SET left it. */
	want[0] = 0;
	want[2] = 0x03;
	want[3] = 0;
	want[6] = 0;
	run_expect("/c0 set patrolread=on mode=auto", RCL_OK, "PR Mode");
	expect_payload("/c0 set patrolread includessds=on excludevd=none", "PR on SSD", PR_SET,
	               want, 208);
	run_expect("/c0 show patrolread", RCL_OK, "PR Next Start time      06/01/2030, 03:00:00");
	want[0] = 2;
	expect_payload("/c0 set patrolread=off", "PR Mode", PR_SET, want, 208);
	run_expect("/c0 show patrolread", RCL_OK, "PR Mode                 Disable");
	ck_assert_uint_eq(mfi_shim_sent(PR_SET), 6);
	host_done(&h);
}
END_TEST

static const struct refused_change pr_refused[] = {
    {PR_SET, "/c0 set patrolread=on mode=manual",
     "setting the patrol read schedule (PR_SET_PROPERTIES) failed", "/c0 show patrolread",
     "PR Mode                 Auto"},
    {SET_PROPS, "/c0 set patrolread uncfgareas=on",
     "setting the controller properties (CTRL_SET_PROPS) failed", "/c0 show patrolread",
     "PR Unconfigured Areas   Disabled"},
};

/*
 * What PR_SET_PROPERTIES cannot say, and bad input: refused, no frame.
 * What the firmware refuses: named, the schedule unchanged.
 */
START_TEST(test_pr_refused)
{
	struct host h;

	host_pr(&h, &patrol);
	run_expect("/c0 set patrolread excludevd=9", RCL_INVALID_PARAM, "/c0 has no VD 9");
	ck_assert_uint_eq(mfi_shim_sent(PR_SET), 0);
	expect_refused(&pr_refused[0], &fw_refusals[_i]);
	/* The properties' bits (uncfgareas=) alone: the schedule not written. */
	expect_refused(&pr_refused[1], &fw_refusals[_i]);
	ck_assert_uint_eq(mfi_shim_sent(PR_SET), 2);
	host_done(&h);
}
END_TEST

/*
 * uncfgareas= and includessds=off: the controller properties' on/off bits
 * (prCorrectUnconfiguredAreas 2, SSDPatrolReadEnabled 6), the rest of the
 * record written back as read.
 */
START_TEST(test_pr_props)
{
	uint8_t want[64] = {0};
	struct host h;

	host_pr(&h, &patrol);
	want[8] = want[9] = want[10] = want[11] = want[12] = 30; /* the rates */
	want[32 + 1] = 0x20;                                     /* JBOD */
	want[32] = 0x04 | 0x40;
	expect_payload("/c0 set patrolread uncfgareas=on", "PR Unconfigured Areas", SET_PROPS, want,
	               sizeof(want));
	run_expect("/c0 show patrolread", RCL_OK, "PR Unconfigured Areas   Enabled");
	want[32] = 0x04;
	expect_payload("/c0 set patrolread includessds=off", "PR on SSD", SET_PROPS, want,
	               sizeof(want));
	run_expect("/c0 show patrolread", RCL_OK, "PR on SSD               Disabled");
	/* Those two are the properties' bits alone: the schedule is not written. */
	ck_assert_uint_eq(mfi_shim_sent(PR_SET), 0);
	want[32] = 0x04 | 0x40;
	expect_payload("/c0 set patrolread includessds=onlymixed", "PR on SSD", SET_PROPS, want,
	               sizeof(want));
	run_expect("/c0 show patrolread", RCL_OK, "PR on SSD               OnlyMixed");
	/* A schedule change alone leaves the properties alone. */
	run_expect("/c0 set patrolread delay=24", RCL_OK, "PR Execution Delay");
	ck_assert_uint_eq(mfi_shim_sent(SET_PROPS), 3);
	host_done(&h);
}
END_TEST

/*
 * One set of the controller properties' patrol read bit and of the patrol
 * read schedule, all or nothing as far as the card allows: the schedule's
 * read refused before the properties are written, its write refused with
 * the properties written back as read, or that write-back refused too
 * (named, the card keeping the bit).
 */
static const struct {
	enum rcl_status want;
	const char *says;
	unsigned prop_sets; /* SET_PROPS sent */
	const char *shown;  /* the bit as the card has it after (NULL: never written) */
} all_or_nothing[] = {
    {RCL_NOT_ALLOWED, "reading the patrol read schedule (PR_GET_PROPERTIES) failed", 0, NULL},
    {RCL_INVALID_PARAM, "setting the patrol read schedule (PR_SET_PROPERTIES) failed", 2,
     "PR Unconfigured Areas   Disabled"},
    {RCL_INVALID_PARAM,
     "INVALID_PARAMETER (MFI status 0x03); restoring the controller properties "
     "(CTRL_SET_PROPS) failed: the controller answered WRONG_STATE (MFI status 0x32), so the "
     "card keeps that change",
     2, "PR Unconfigured Areas   Enabled"},
};

START_TEST(test_pr_all_or_nothing)
{
	uint8_t was[64] = {0}, mbox[12], data[64];
	struct host h;

	was[8] = was[9] = was[10] = was[11] = was[12] = 30; /* the rates */
	was[32] = 0x40;                                     /* SSDs read */
	was[32 + 1] = 0x20;                                 /* JBOD */
	host_pr(&h, &patrol);
	if (_i == 0) /* after the two loads' reads */
		mfi_shim_break_after(PR_GET, 2, MFI_SHIM_STATUS, 0x32);
	else
		mfi_shim_break(PR_SET, MFI_SHIM_STATUS, 0x03);
	if (_i == 2)
		mfi_shim_break_after(SET_PROPS, 1, MFI_SHIM_STATUS, 0x32);
	run_expect("/c0 set patrolread=on mode=manual uncfgareas=on", all_or_nothing[_i].want,
	           all_or_nothing[_i].says);
	ck_assert_uint_eq(mfi_shim_sent(SET_PROPS), all_or_nothing[_i].prop_sets);
	/* Written back whole, as read. */
	if (all_or_nothing[_i].prop_sets) {
		ck_assert_uint_eq(mfi_shim_last(SET_PROPS, mbox, data, sizeof(data)), sizeof(was));
		ck_assert_mem_eq(data, was, sizeof(was));
	}
	if (all_or_nothing[_i].shown)
		run_expect("/c0 show patrolread", RCL_OK, all_or_nothing[_i].shown);
	host_done(&h);
}
END_TEST

/*
 * A record read for a change that the firmware answers OK without writing
 * (QEMU's dummy answers so every DCMD it does not model): the change
 * refused, nothing written back (zeros were, the read's preset).
 */
static const struct unwritten_read unwritten[] = {
    {PR_GET, PR_SET, 2, "/c0 set patrolread=on mode=manual", "PR_GET_PROPERTIES"},
    {CC_SCHEDULE_GET, CC_SCHEDULE_SET, 2, "/c0 set cc=conc", "CC_SCHEDULE_GET_PROPERTIES"},
    {GET_PROPS, SET_PROPS, 0, "/c0 set patrolread uncfgareas=on", "CTRL_GET_PROPS"},
    {GET_PROPS, SET_PROPS, 0, "/c0 set rebuildrate=45", "CTRL_GET_PROPS"},
};

START_TEST(test_unwritten)
{
	struct host h;

	host_pr(&h, &patrol);
	expect_unwritten(&unwritten[_i]);
	host_done(&h);
}
END_TEST

/*
 * A patrol read whose properties come back unwritten at load: the card
 * keeps its rate alone, as one refusing the DCMDs as unknown does.
 */
START_TEST(test_pr_unwritten_at_load)
{
	struct host h;

	host_pr(&h, &patrol);
	mfi_shim_break(PR_GET, MFI_SHIM_DUMMY, 0);
	run_expect("/c0 set patrolread=on mode=manual", RCL_UNSUPPORTED,
	           "patrol read schedule is not supported by this controller");
	run_expect("/c0 set prrate=40", RCL_OK, "40%");
	ck_assert_uint_eq(mfi_shim_sent(PR_SET), 0);
	host_done(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("megaraid-schedule");
	TCase *tc = tcase_create("cc schedule");
	TCase *pr = tcase_create("patrol read schedule");

	tcase_add_test(tc, test_show);
	tcase_add_test(tc, test_set);
	tcase_add_test(tc, test_set_keeps_what_was_not_asked);
	tcase_add_loop_test(tc, test_refused, 0, FW_REFUSALS);
	tcase_add_loop_test(tc, test_unreadable, 0, 3);
	tcase_add_test(tc, test_qemu_card);
	suite_add_tcase(s, tc);
	tcase_add_test(pr, test_pr_show);
	tcase_add_loop_test(pr, test_pr_paused, 3, 5);
	tcase_add_test(pr, test_pr_set);
	tcase_add_loop_test(pr, test_pr_refused, 0, FW_REFUSALS);
	tcase_add_test(pr, test_pr_props);
	tcase_add_loop_test(pr, test_pr_all_or_nothing, 0,
	                    sizeof(all_or_nothing) / sizeof(all_or_nothing[0]));
	tcase_add_loop_test(pr, test_unwritten, 0, sizeof(unwritten) / sizeof(unwritten[0]));
	tcase_add_test(pr, test_pr_unwritten_at_load);
	suite_add_tcase(s, pr);
	return s;
}

int main(void)
{
	return unit_main(suite());
}
