// SPDX-License-Identifier: MIT
/*
 * test-megaraid-tasks.c - a MegaRAID card's background tasks below the
 * driver: the shim's card runs a consistency check, an initialization and
 * a rebuild that advance each time their progress is read
 * (mfi-shim-tasks.h). Each start, stop, pause and resume is one frame,
 * checked byte for byte; each refusal says what StorCLI's rule or the
 * firmware's status is; a progress reply the firmware wrote short, or not
 * at all, is a clear error and shows no progress.
 */
#include <stdlib.h>
#include <string.h>

#include "mfi-host.h"
#include "mfi-shim-tasks.h"
#include "mfi-shim.h"
#include "unit.h"

#define PR_GET_STATUS     0x01070100u
#define PR_START          0x01070400u
#define PR_STOP           0x01070500u
#define PR_SUSPEND_RESUME 0x01070600u
#define REBUILD_START     0x02040100u
#define REBUILD_ABORT     0x02040200u
#define PD_PROGRESS       0x02060000u
#define REBUILD_SUSPEND   0x020e0100u
#define CC_START          0x03050100u
#define CC_ABORT          0x03050200u
#define INIT_START        0x03060100u
#define INIT_ABORT        0x03060200u
#define LD_PROGRESS       0x03080000u
#define CC_SUSPEND        0x03120200u
#define LD_SET_PROP       0x03040000u

/* VD 1's reference: target 1, the sequence number the card gave the LD it made (LD_GET_INFO). */
static const uint8_t ref1[4] = {1, 0, 0x41, 0};

/* The frames that start, stop, pause or resume a task. */
static const uint32_t task_frames[] = {
    PR_START, PR_STOP,  PR_SUSPEND_RESUME, REBUILD_START, REBUILD_ABORT, REBUILD_SUSPEND,
    CC_START, CC_ABORT, INIT_START,        INIT_ABORT,    CC_SUSPEND,
};

/* The card with tasks, answering progress @how: RAID1 VD 1 over disks 1 and 2. */
static void host_mirror(struct host *h, enum mfi_shim_progress how)
{
	host_free_two(h);
	mfi_shim_tasks(how);
	run_expect("/c0 add vd r1 name=m drives=252:1-2", RCL_OK, NULL);
}

/* QEMU's card (RAID0 only, no CC rate) offers an init alone; a card with RAID1 and rates more. */
START_TEST(test_caps)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_init(&h, MAJOR_NOW);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	ck_assert_uint_eq(rcl_ctrl_caps(ctrl)->tasks, 1u << RCL_TASK_INIT);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	run_expect("/c0/v0 start cc", RCL_UNSUPPORTED, "has no redundancy to check (RAID0)");
	run_expect("/c0/e252/s0 start rebuild", RCL_UNSUPPORTED, "rebuild is not supported");
	mfi_shim_tasks(MFI_SHIM_PROGRESS_FULL);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	ck_assert_uint_eq(rcl_ctrl_caps(ctrl)->tasks,
	                  1u << RCL_TASK_INIT | 1u << RCL_TASK_CC | 1u << RCL_TASK_REBUILD);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	ck_assert_uint_eq(SENT(task_frames), 0);
	host_done(&h);
}
END_TEST

/* A check: started, followed, paused, resumed and stopped, one frame each; the refusals. */
START_TEST(test_cc)
{
	struct host h;

	host_mirror(&h, MFI_SHIM_PROGRESS_FULL);
	expect("/c0/v1 show cc", true, RCL_OK, HAS("\"Status\" : \"Not in progress\""));
	/* The VD was never initialized: StorCLI's rule wants force. */
	run_expect("/c0/v1 start cc", RCL_NEED_FORCE, "not consistent");
	run_expect("/c0/v1 start cc force", RCL_OK, "Start CC Operation Success.");
	expect_mbox(CC_START, ref1, 4);
	/* Each read of the progress: an eighth further, 30 s later. */
	expect("/c0/v1 show cc", true, RCL_OK, HAS("\"Progress%\" : 12"));
	run_expect("/c0/v1 show cc", RCL_OK, "In progress");
	expect("/c0/v1 show cc", true, RCL_OK,
	       HAS("\"Estimated Time Left\" : \"2 Minutes 30 Seconds\""));
	run_expect("/c0/v1 start cc force", RCL_NOT_ALLOWED,
	           "a consistency check of /c0/v1 is in progress already");
	ck_assert_uint_eq(mfi_shim_sent(CC_START), 1);
	run_expect("/c0/v1 pause cc", RCL_OK, "Pause CC Operation Success.");
	expect_mbox(CC_SUSPEND, (const uint8_t[]){1, 0, 0x41, 0, 0}, 5);
	/* Paused (the reply's paused bit), it stays where it was; no second pause is sent. */
	expect("/c0/v1 show cc", true, RCL_OK, HAS("\"Progress%\" : 62"));
	expect("/c0/v1 show cc", true, RCL_OK, HAS("\"Status\" : \"Paused\""));
	run_expect("/c0/v1 pause cc", RCL_NOT_ALLOWED,
	           "the consistency check of /c0/v1 is paused already");
	run_expect("/c0/v1 resume cc", RCL_OK, "Resume CC Operation Success.");
	expect_mbox(CC_SUSPEND, (const uint8_t[]){1, 0, 0x41, 0, 1}, 5);
	run_expect("/c0/v1 resume cc", RCL_NOT_ALLOWED,
	           "the consistency check of /c0/v1 is not paused");
	run_expect("/c0/v1 stop cc", RCL_OK, "Stop CC Operation Success.");
	expect_mbox(CC_ABORT, ref1, 4);
	run_expect("/c0/v1 stop cc", RCL_NOT_ALLOWED,
	           "no consistency check of /c0/v1 is in progress");
	run_expect("/c0/v1 resume cc", RCL_NOT_ALLOWED, "no consistency check of /c0/v1 is paused");
	ck_assert_uint_eq(SENT(task_frames), 4);
	/* Run to its end: eight reads of its progress. */
	run_expect("/c0/v1 start cc force", RCL_OK, NULL);
	run_expect("/c0/vall show all", RCL_OK, "Consistency Check (12%)");
	for (int i = 0; i < 5; i++)
		run_expect("/c0/v1 show cc", RCL_OK, "In progress");
	run_expect("/c0/v1 show cc", RCL_OK, "Not in progress");
	/* A VD with no redundancy: StorCLI's rule, no frame. */
	run_expect("/c0/v0 start cc force", RCL_UNSUPPORTED, "has no redundancy to check (RAID0)");
	ck_assert_uint_eq(mfi_shim_sent(CC_START), 2);
	host_done(&h);
}
END_TEST

/* An init: fast unless full, one frame each; stopped; a second one refused while one runs. */
START_TEST(test_init)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_tasks(MFI_SHIM_PROGRESS_FULL);
	run_expect("/c0/v0 start init", RCL_NEED_FORCE, "destroying its data");
	run_expect("/c0/v0 start init force", RCL_OK, "Start INIT Operation Success.");
	expect_mbox(INIT_START, (const uint8_t[]){0, 0, 0, 0, 0}, 5);
	expect("/c0/v0 show init", true, RCL_OK, HAS("\"Operation\" : \"INIT\""));
	run_expect("/c0/v0 show init", RCL_OK, "In progress");
	run_expect("/c0/v0 start init force", RCL_NOT_ALLOWED,
	           "an initialization of /c0/v0 is in progress already");
	run_expect("/c0/v0 stop init", RCL_OK, "Stop INIT Operation Success.");
	expect_mbox(INIT_ABORT, (const uint8_t[]){0}, 1);
	run_expect("/c0/v0 stop init", RCL_NOT_ALLOWED,
	           "no initialization of /c0/v0 is in progress");
	run_expect("/c0/v2 start init full force", RCL_OK, NULL);
	expect_mbox(INIT_START, (const uint8_t[]){2, 0, 0, 0, 1}, 5);
	expect("/c0/v2 show init", true, RCL_OK, HAS("\"Progress%\" : 12"));
	ck_assert_uint_eq(SENT(task_frames), 3);
	host_done(&h);
}
END_TEST

/* A rebuild of an offline member: PD_REBUILD_* with the drive's reference; it ends online. */
START_TEST(test_rebuild)
{
	static const uint8_t ref2[4] = {0x00, 0x02, 0x00, 0x00}; /* device 0x200, sequence 0 */
	struct host h;

	host_mirror(&h, MFI_SHIM_PROGRESS_FULL);
	mfi_shim_set_state(2, 0x10);
	expect("/c0/e252/s2 show rebuild", true, RCL_OK, HAS("\"Status\" : \"Not in progress\""));
	run_expect("/c0/e252/s2 start rebuild", RCL_OK, "Start Drive Rebuild Succeeded.");
	expect_mbox(REBUILD_START, ref2, 4);
	run_expect("/c0/e252/s2 show", RCL_OK, "Rbld");
	expect("/c0/e252/s2 show rebuild", true, RCL_OK, HAS("\"Drive-ID\" : \"/c0/e252/s2\""));
	expect("/c0/e252/s2 show rebuild", true, RCL_OK, HAS("\"Progress%\" : 25"));
	run_expect("/c0/e252/s2 show all", RCL_OK, "Rebuild (37%)");
	run_expect("/c0/e252/s2 start rebuild", RCL_NOT_ALLOWED,
	           "the rebuild of /c0/e252/s2 is in progress already");
	run_expect("/c0/e252/s2 pause rebuild", RCL_OK, NULL);
	expect_mbox(REBUILD_SUSPEND, (const uint8_t[]){0x00, 0x02, 0, 0, 0}, 5);
	run_expect("/c0/e252/s2 show rebuild", RCL_OK, "Paused");
	run_expect("/c0/e252/s2 pause rebuild", RCL_NOT_ALLOWED,
	           "the rebuild of /c0/e252/s2 is paused already");
	run_expect("/c0/e252/s2 resume rebuild", RCL_OK, NULL);
	expect_mbox(REBUILD_SUSPEND, (const uint8_t[]){0x00, 0x02, 0, 0, 1}, 5);
	run_expect("/c0/e252/s2 resume rebuild", RCL_NOT_ALLOWED,
	           "the rebuild of /c0/e252/s2 is not paused");
	run_expect("/c0/e252/s2 stop rebuild", RCL_OK, NULL);
	expect_mbox(REBUILD_ABORT, ref2, 4);
	run_expect("/c0/e252/s2 stop rebuild", RCL_NOT_ALLOWED,
	           "the rebuild of /c0/e252/s2 is not in progress");
	/* An online member, and a RAID0 one: the firmware's WRONG_STATE, named. */
	run_expect("/c0/e252/s1 start rebuild", RCL_NOT_ALLOWED, "WRONG_STATE");
	run_expect("/c0/e252/s0 start rebuild", RCL_NOT_ALLOWED, "WRONG_STATE");
	/* Started again, it goes on to its end: the drive is online. */
	run_expect("/c0/e252/s2 start rebuild", RCL_OK, NULL);
	for (int i = 0; i < 8; i++)
		run_expect("/c0/e252/s2 show rebuild", RCL_OK, NULL);
	run_expect("/c0/e252/s2 show", RCL_OK, "Onln");
	ck_assert_uint_eq(mfi_shim_sent(REBUILD_START), 4);
	host_done(&h);
}
END_TEST

/*
 * The patrol read: PR_START, PR_STOP, PR_SUSPEND_RESUME, refused as the
 * card's state says: active (2), paused by the user (4) or the card (3).
 */
START_TEST(test_patrol)
{
	static const struct mfi_shim_patrol active = {.state = 2}, stopped = {.state = 0},
	                                    user_paused = {.state = 4}, card_paused = {.state = 3};
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_patrol(&active);
	run_expect("/c0 start patrolread", RCL_NOT_ALLOWED,
	           "/c0: a patrol read is in progress already");
	run_expect("/c0 resume patrolread", RCL_NOT_ALLOWED, "/c0: the patrol read is not paused");
	run_expect("/c0 pause patrolread", RCL_OK, "Pause PR Succeeded.");
	expect_mbox(PR_SUSPEND_RESUME, (const uint8_t[]){0}, 1);
	/* Paused: no second pause is sent; a resume and a stop are. */
	mfi_shim_patrol(&user_paused);
	run_expect("/c0 pause patrolread", RCL_NOT_ALLOWED,
	           "/c0: the patrol read is paused already");
	run_expect("/c0 start patrolread", RCL_NOT_ALLOWED,
	           "/c0: a patrol read is in progress already");
	run_expect("/c0 resume patrolread", RCL_OK, "Resume PR Succeeded.");
	expect_mbox(PR_SUSPEND_RESUME, (const uint8_t[]){1}, 1);
	mfi_shim_patrol(&card_paused);
	run_expect("/c0 stop patrolread", RCL_OK, "Stop PR Succeeded.");
	expect_mbox(PR_STOP, (const uint8_t[]){0}, 0);
	mfi_shim_patrol(&stopped);
	run_expect("/c0 stop patrolread", RCL_NOT_ALLOWED, "/c0: no patrol read is in progress");
	run_expect("/c0 resume patrolread", RCL_NOT_ALLOWED, "/c0: no patrol read is paused");
	run_expect("/c0 start patrolread", RCL_OK, "Start PR Succeeded.");
	expect_mbox(PR_START, (const uint8_t[]){0}, 0);
	ck_assert_uint_eq(SENT(task_frames), 4);
	/* A card that says patrol reads are disabled: its status, named. */
	mfi_shim_break(PR_START, MFI_SHIM_STATUS, 0x27);
	run_expect("/c0 start patrolread", RCL_SYSTEM, "PR_DISABLED");
	host_done(&h);
}
END_TEST

/*
 * A patrol read status (PR_GET_STATUS) answered OK but not written, as
 * QEMU's dummy answers, once the load has read it: said as a malformed
 * progress, and no patrol read started on a reply that says nothing.
 */
START_TEST(test_patrol_unwritten)
{
	static const struct mfi_shim_patrol stopped = {.state = 0};
	struct host h;
	unsigned loads;

	host_init(&h, MAJOR_NOW);
	mfi_shim_patrol(&stopped);
	run_expect("/c0 stop patrolread", RCL_NOT_ALLOWED, "/c0: no patrol read is in progress");
	/* The load's reads of it: all but the task's own. */
	loads = mfi_shim_sent(PR_GET_STATUS) - 1;
	mfi_shim_break_after(PR_GET_STATUS, loads, MFI_SHIM_DUMMY, 0);
	run_expect("/c0 start patrolread", RCL_BAD_REPLY,
	           "the patrol read progress of /c0 (PR_GET_STATUS) is malformed: the controller "
	           "wrote no reply");
	ck_assert_uint_eq(mfi_shim_sent(PR_GET_STATUS), 2 * (loads + 1));
	ck_assert_uint_eq(SENT(task_frames), 0);
	host_done(&h);
}
END_TEST

/*
 * A background initialization the card started on a new LD: followed,
 * paused, resumed and stopped with the check's DCMDs, one frame each; a
 * stop of a check it is not refused before a frame; autobgi is the LD's
 * no_bgi property.
 */
START_TEST(test_bgi)
{
	uint8_t mbox[12], props[32];
	struct host h;

	host_mirror(&h, MFI_SHIM_PROGRESS_FULL);
	mfi_shim_bgi(1);
	expect("/c0/v1 show bgi", true, RCL_OK, HAS("\"Operation\" : \"BGI\""));
	expect("/c0/v1 show bgi", true, RCL_OK, HAS("\"Progress%\" : 25"));
	run_expect("/c0/v1 pause bgi", RCL_OK, "Pause BGI Operation Success.");
	expect_mbox(CC_SUSPEND, (const uint8_t[]){1, 0, 0x41, 0, 0}, 5);
	/* Paused, it stays where it was. */
	expect("/c0/v1 show bgi", true, RCL_OK, HAS("\"Progress%\" : 37"));
	expect("/c0/v1 show bgi", true, RCL_OK, HAS("\"Status\" : \"Paused\""));
	run_expect("/c0/v1 show all", RCL_OK, "Background Initialization (37%, paused)");
	run_expect("/c0/v1 pause bgi", RCL_NOT_ALLOWED,
	           "the background initialization of /c0/v1 is paused already");
	run_expect("/c0/v1 stop cc", RCL_NOT_ALLOWED,
	           "no consistency check of /c0/v1 is in progress");
	run_expect("/c0/v1 start cc force", RCL_SYSTEM, "LD_CC_IN_PROGRESS");
	run_expect("/c0/v1 resume bgi", RCL_OK, "Resume BGI Operation Success.");
	expect_mbox(CC_SUSPEND, (const uint8_t[]){1, 0, 0x41, 0, 1}, 5);
	run_expect("/c0/v1 stop bgi", RCL_OK, "Stop BGI Operation Success.");
	expect_mbox(CC_ABORT, ref1, 4);
	run_expect("/c0/v1 stop bgi", RCL_NOT_ALLOWED,
	           "no background initialization of /c0/v1 is in progress");
	run_expect("/c0/v1 resume bgi", RCL_NOT_ALLOWED,
	           "no background initialization of /c0/v1 is paused");
	run_expect("/c0/v1 show bgi", RCL_OK, "Not in progress");
	ck_assert_uint_eq(SENT(task_frames), 4); /* the refused CC_START, then three */
	/* autobgi: the LD's no_bgi property (its byte 24), written with LD_SET_PROP. */
	expect("/c0/v1 show autobgi", true, RCL_OK, HAS("\"AutoBGI\" : \"On\""));
	run_expect("/c0/v1 set autobgi=off", RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_last(LD_SET_PROP, mbox, props, sizeof(props)), 32);
	ck_assert_uint_eq(props[24], 1);
	expect("/c0/v1 show autobgi", true, RCL_OK, HAS("\"AutoBGI\" : \"Off\""));
	ck_assert_ptr_null(mfi_shim_check());
	host_release(&h);
}
END_TEST

/* A card without the BGI rate (QEMU's, and the shim's without mfi_shim_bgi()): none offered. */
START_TEST(test_no_bgi)
{
	struct host h;

	if (_i)
		host_mirror(&h, MFI_SHIM_PROGRESS_FULL);
	else
		host_init(&h, MAJOR_NOW);
	run_expect("/c0/v0 show bgi", RCL_UNSUPPORTED,
	           "background initialization is not supported by this controller");
	run_expect("/c0/v0 stop bgi", RCL_UNSUPPORTED,
	           "background initialization is not supported");
	ck_assert_uint_eq(SENT(task_frames), 0);
	ck_assert_ptr_null(mfi_shim_check());
	host_release(&h);
}
END_TEST

/* The firmware refusing a start: its status named and mapped, StorCLI's Detailed Status too. */
START_TEST(test_refused)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_tasks(MFI_SHIM_PROGRESS_FULL);
	expect_refused(&(const struct refused_change){INIT_START, "/c0/v0 start init force", NULL,
	                                              "/c0/v0 show init", "Not in progress"},
	               &fw_refusals[_i]);
	host_done(&h);
}
END_TEST

/* An LD gone since the model was read: the progress read's DEVICE_NOT_FOUND, no task frame. */
START_TEST(test_ld_gone)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};
	struct rcl_task_request req = {.kind = RCL_TASK_INIT, .vd = 2};
	struct rcl_task_progress p;

	host_init(&h, MAJOR_NOW);
	mfi_shim_tasks(MFI_SHIM_PROGRESS_FULL);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	mfi_shim_unconfigure(2);
	ck_assert_int_eq(rcl_ctrl_task(ctrl, &req, &err), RCL_NOT_FOUND);
	ck_assert_msg(strstr(err.msg, "(LD_PROGRESS) failed") &&
	                  strstr(err.msg, "DEVICE_NOT_FOUND"),
	              "%s", err.msg);
	ck_assert_int_eq(rcl_ctrl_task_progress(ctrl, &req, &p, &err), RCL_NOT_FOUND);
	ck_assert_int_eq(p.state, RCL_TASK_STATE_STOPPED);
	ck_assert_uint_eq(SENT(task_frames), 0);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	host_done(&h);
}
END_TEST

/*
 * A progress reply written short (the running init's place missing), or
 * not at all (QEMU's dummy): a clear error, no progress shown, and no
 * task started on a reply that says nothing.
 */
START_TEST(test_bad_progress)
{
	struct host h;
	enum rcl_status st;
	char *out;

	host_init(&h, MAJOR_NOW);
	mfi_shim_tasks(_i ? MFI_SHIM_PROGRESS_NONE : MFI_SHIM_PROGRESS_SHORT);
	run_expect("/c0/v0 start init force", _i ? RCL_BAD_REPLY : RCL_OK,
	           _i ? "wrote no reply" : NULL);
	ck_assert_uint_eq(mfi_shim_sent(INIT_START), _i ? 0 : 1);
	out = unit_run("/c0/v0 show init", false, &st);
	ck_assert_msg(st == RCL_BAD_REPLY &&
	                  strstr(out, "the initialization progress of /c0/v0 (LD_PROGRESS) is "
	                              "malformed") &&
	                  strstr(out, _i ? "wrote no reply" : "wrote its reply short") &&
	                  !strstr(out, "progress%") && !strstr(out, "In progress"),
	              "%s", out);
	free(out);
	expect("/c0/v0 show init", true, RCL_BAD_REPLY, HAS("malformed"));
	/* "show all" leaves out what it cannot tell. */
	out = unit_run("/c0/v0 show all", false, &st);
	ck_assert_msg(st == RCL_OK && !strstr(out, "Initialization ("), "%s", out);
	free(out);
	host_done(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("megaraid-tasks");
	TCase *tc = tcase_create("tasks");

	tcase_add_test(tc, test_caps);
	tcase_add_test(tc, test_cc);
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_rebuild);
	tcase_add_test(tc, test_patrol);
	tcase_add_test(tc, test_patrol_unwritten);
	tcase_add_test(tc, test_bgi);
	tcase_add_loop_test(tc, test_no_bgi, 0, 2);
	tcase_add_loop_test(tc, test_refused, 0, FW_REFUSALS);
	tcase_add_test(tc, test_ld_gone);
	tcase_add_loop_test(tc, test_bad_progress, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(suite());
}
