// SPDX-License-Identifier: MIT
/*
 * test-megaraid-hw.c - a MegaRAID card's own hardware and foreign
 * configurations, below the driver (mfi-shim-hw.h): the battery and the
 * ROC's temperature in "show all", /cx/bbu and the metrics; the
 * battery's learn schedule shown and set; the clock
 * shown and set; foreign configurations shown, imported and deleted,
 * each change's frame checked byte for byte, and the firmware's refusals
 * changing nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mfi-host.h"
#include "mfi-shim-hw.h"

#define GET_TIME        0x01080101u
#define TIME_SECS_GET   0x01080201u
#define TIME_SECS_SET   0x01080202u
#define FOREIGN_SCAN    0x04060100u
#define FOREIGN_SHOW    0x04060200u
#define FOREIGN_PREVIEW 0x04060300u
#define FOREIGN_IMPORT  0x04060400u
#define FOREIGN_CLEAR   0x04060500u
#define BBU_STATUS      0x05010000u
#define BBU_LEARN       0x05040000u
#define BBU_GET_PROPS   0x05050100u
#define BBU_SET_PROPS   0x05050200u

/* "show metrics" has the sample @metric of the controller at @value. */
static void expect_metric(const char *metric, long value)
{
	enum rcl_status st;
	char *out = unit_run("/c0 show metrics", false, &st);
	const char *at = strstr(out, metric);
	char *end;

	ck_assert_msg(st == RCL_OK && at, "no %s in:\n%s", metric, out);
	ck_assert_msg(strtol(at + strlen(metric), &end, 10) == value && (*end == '\n'),
	              "%s is not %ld in:\n%s", metric, value, out);
	free(out);
}

/* QEMU's card: no battery, no ROC sensor, no foreign configuration; nothing asked of a battery. */
START_TEST(test_qemu_card)
{
	struct host h;

	host_utc(&h);
	expect("/c0 show all", false, RCL_OK,
	       HAS("BBU = Absent", "Temperature Sensor for ROC = Absent", "Cachevault_Info"));
	expect("/c0/fall show", false, RCL_OK, HAS("Total foreign Drive Groups = 0"));
	/* A card may have a battery: this one's absence is an answer, not a refusal. */
	expect("/c0/bbu show", true, RCL_OK,
	       HAS("\"BBU_Info\"", "\"Model\" : \"Absent\"", "\"State\" : \"Absent\""));
	expect("/c0 show time", false, RCL_OK, HAS("Time"));
	ck_assert_uint_eq(mfi_shim_sent(BBU_STATUS), 0);
	ck_assert_uint_eq(mfi_shim_sent(FOREIGN_SHOW), 0);
	ck_assert_uint_gt(mfi_shim_sent(GET_TIME), 0);
	host_done(&h);
}
END_TEST

/* A battery: Smart Battery Data's date of 2019-07-06. */
static const struct mfi_shim_bbu batteries[] = {
    {2, 4049, 31, 0, 97, true, "iBBU08", 39u << 9 | 7u << 5 | 6},
    {2, 3900, 45, 1u << 2, 60, true, "iBBU08", 0}, /* too hot */
    {1, 0, 0, 1u << 0, 0, false, "", 0},           /* the pack missing */
    {2, 4049, 30, 1u << 6, 50, true, "BBU", 0},    /* learning */
};
static const char *const battery_states[] = {"Optimal", "Degraded", "Failed", "Learning"};

START_TEST(test_battery)
{
	struct host h;
	char state[64];

	host_utc(&h);
	mfi_shim_bbu(&batteries[_i]);
	snprintf(state, sizeof(state), "\"State\" : \"%s\"", battery_states[_i]);
	expect("/c0 show all", true, RCL_OK, HAS("\"BBU\" : \"Present\"", "\"BBU_Info\"", state));
	if (_i == 0) {
		expect("/c0 show all", true, RCL_OK,
		       HAS("\"Model\" : \"iBBU08\"", "\"Temp\" : \"31C\"",
		           "\"MfgDate\" : \"2019/07/06\"", "\"BBU Status\" : \"Optimal\""));
		expect("/c0/bbu show all", false, RCL_OK,
		       HAS("Voltage", "4049 mV", "Relative State of Charge", "97%", "iBBU08"));
		expect_metric("raidcli_controller_cache_backup_healthy", 1);
	}
	if (_i == 1)
		expect_metric("raidcli_controller_cache_backup_healthy", 0);
	host_done(&h);
}
END_TEST

/* A CacheVault (the status' TMM-C type): shown under /cx/cv, and /cx/bbu refused as StorCLI does.
 */
START_TEST(test_cachevault)
{
	static const struct mfi_shim_bbu cv = {6, 0, 25, 0, 100, false, "CVPM02", 0};
	struct host h;

	host_utc(&h);
	mfi_shim_bbu(&cv);
	expect("/c0 show all", true, RCL_OK,
	       HAS("\"Cachevault_Info\"", "\"Model\" : \"CVPM02\"", "\"State\" : \"Optimal\""));
	expect("/c0/cv show", true, RCL_OK, HAS("\"Model\" : \"CVPM02\"", "\"Temp\" : \"25C\""));
	expect("/c0/bbu show", false, RCL_HW_MISSING, HAS("battery backup unit"));
	host_done(&h);
}
END_TEST

/*
 * A learn cycle: one BBU_LEARN, no mailbox, no data; refused by the card
 * when the battery learns already, and before any frame on a card
 * without one (QEMU's would answer it as any DCMD: success).
 */
START_TEST(test_learn)
{
	static const struct mfi_shim_bbu cv = {6, 0, 25, 0, 100, false, "CVPM02", 0};
	struct host h;

	host_utc(&h);
	expect("/c0/bbu start learn", false, RCL_HW_MISSING, HAS("no battery or CacheVault"));
	ck_assert_uint_eq(mfi_shim_sent(BBU_LEARN), 0);
	mfi_shim_bbu(&batteries[0]);
	expect("/c0/bbu start learn", true, RCL_OK, HAS("Start Learn Succeeded."));
	ck_assert_uint_eq(mfi_shim_sent(BBU_LEARN), 1);
	expect_mbox(BBU_LEARN, NULL, 0);
	mfi_shim_bbu(&batteries[3]); /* learning */
	expect("/c0/bbu start learn", false, RCL_NOT_ALLOWED, HAS("BBU_LEARN", "WRONG_STATE"));
	mfi_shim_bbu(&cv);
	expect("/c0/cv start learn", false, RCL_OK, HAS("Start Learn Succeeded."));
	ck_assert_uint_eq(mfi_shim_sent(BBU_LEARN), 3);
	host_done(&h);
}
END_TEST

/* The battery's properties as mfi_shim_hw_reset() leaves them, @delay, @mode and @bbu_mode set. */
static void default_props(uint8_t p[32], uint8_t delay, uint8_t mode, uint8_t bbu_mode)
{
	static const uint8_t head[8] = {0x00, 0xa7, 0x76, 0x00, 0x00, 0x00, 0x00, 0x2a};

	memset(p, 0, 32);
	memcpy(p, head, sizeof(head)); /* 7776000 s (90 days), next at 0x2a000000 s */
	p[8] = delay;
	p[9] = mode;
	p[10] = bbu_mode;
	p[11] = 0x5a; /* reserved: given back as read */
}

/* The last BBU_SET_PROPERTIES: no mailbox, its 32 bytes @want. */
static void expect_props_sent(const uint8_t want[32])
{
	static const uint8_t none[12];
	uint8_t mbox[12], data[64];

	ck_assert_uint_eq(mfi_shim_last(BBU_SET_PROPS, mbox, data, sizeof(data)), 32);
	ck_assert_mem_eq(mbox, none, sizeof(none));
	ck_assert_mem_eq(data, want, 32);
}

/*
 * The learn schedule: shown in StorCLI's BBU_Properties rows; each set
 * reads the properties again and writes all 32 bytes back with only the
 * fields given changed.
 */
START_TEST(test_bbu_properties)
{
	uint8_t want[32];
	struct host h;

	host_utc(&h);
	mfi_shim_bbu(&batteries[0]);
	expect("/c0/bbu show properties", true, RCL_OK,
	       HAS("\"BBU_Properties\"", "\"Auto-Learn Period\"", "\"90d (7776000 seconds)\"",
	           "\"Next Learn time\"", "\"2022/04/30  14:11:12\"", "\"Learn Delay Interval\"",
	           "\"0 hour(s)\"", "\"Auto-Learn Mode\"", "\"Enabled\""));
	expect("/c0/bbu set learnDelayInterval=24", false, RCL_OK,
	       HAS("Learn Delay Interval", "24 hour(s)"));
	default_props(want, 24, 0, 0);
	expect_props_sent(want);
	expect("/c0/bbu set autolearnmode=2 bbuMode=3", true, RCL_OK,
	       HAS("\"Auto-Learn Mode\"", "\"WarnViaEvent\"", "\"BBU Mode\"", "\"3\""));
	default_props(want, 24, 2, 3);
	expect_props_sent(want);
	expect("/c0/bbu show properties", false, RCL_OK, HAS("24 hour(s)", "WarnViaEvent"));
	ck_assert_uint_eq(mfi_shim_sent(BBU_SET_PROPS), 2);
	host_done(&h);
}
END_TEST

/* The library's own checks (the CLI's grammar bounds the options alike): values out of range. */
static void expect_props_out_of_range(void)
{
	static const struct {
		struct rcl_backup_props p;
		unsigned which;
		const char *name;
	} bad[] = {
	    {{.learn_delay_h = 169}, RCL_BACKUP_PROP_LEARN_DELAY, "learnDelayInterval=169"},
	    {{.auto_learn_mode = 3}, RCL_BACKUP_PROP_AUTO_LEARN, "autolearnmode=3"},
	    {{.bbu_mode = 7}, RCL_BACKUP_PROP_BBU_MODE, "bbuMode=7"},
	    {{0}, 0, "no battery property"},
	};
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	struct rcl_ctx *ctx;

	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(rcl_ctrl_backup_set_props(ctrl, &bad[i].p, bad[i].which, &err),
		                 RCL_INVALID_PARAM);
		ck_assert_msg(strstr(err.msg, bad[i].name), "%s", err.msg);
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
}

/* Bad values, no option, no battery or a CacheVault: refused before any frame. */
START_TEST(test_bbu_properties_refused_early)
{
	static const struct mfi_shim_bbu cv = {6, 0, 25, 0, 100, false, "CVPM02", 0};
	struct host h;

	host_utc(&h);
	expect("/c0/bbu show properties", false, RCL_HW_MISSING, HAS("no battery"));
	expect("/c0/bbu set learnDelayInterval=1", false, RCL_HW_MISSING, HAS("no battery"));
	host_release(&h);
	host_utc(&h);
	mfi_shim_bbu(&batteries[0]);
	run_expect("/c0/bbu set", RCL_INVALID_COMMAND, "nothing to set");
	expect_props_out_of_range();
	host_release(&h);
	host_utc(&h);
	mfi_shim_bbu(&cv);
	expect("/c0/bbu show properties", false, RCL_HW_MISSING, HAS("battery backup unit"));
	ck_assert_uint_eq(mfi_shim_sent(BBU_GET_PROPS), 0);
	ck_assert_uint_eq(mfi_shim_sent(BBU_SET_PROPS), 0);
	host_done(&h);
}
END_TEST

static const struct refused_change bbu_refused[] = {
    {BBU_SET_PROPS, "/c0/bbu set learnDelayInterval=5",
     "setting the battery's properties (BBU_SET_PROPERTIES) failed", "/c0/bbu show properties",
     "0 hour(s)"},
    {BBU_GET_PROPS, "/c0/bbu set learnDelayInterval=5",
     "reading the battery's properties (BBU_GET_PROPERTIES) failed", NULL, NULL},
};

/* The firmware refuses the write, or the read before it: its status named, nothing changed. */
START_TEST(test_bbu_properties_refused)
{
	struct host h;

	host_utc(&h);
	mfi_shim_bbu(&batteries[0]);
	expect_refused(&bbu_refused[0], &fw_refusals[_i]);
	/* The read before the write refused: nothing written. */
	expect_refused(&bbu_refused[1], &fw_refusals[_i]);
	ck_assert_uint_eq(mfi_shim_sent(BBU_SET_PROPS), 2);
	host_done(&h);
}
END_TEST

/*
 * The battery's properties answered OK but not written (QEMU's dummy): shown
 * as no answer, and no set writes a record of zeros back.
 */
START_TEST(test_bbu_properties_unwritten)
{
	static const struct unwritten_read u = {BBU_GET_PROPS, BBU_SET_PROPS, 0,
	                                        "/c0/bbu set learnDelayInterval=5",
	                                        "BBU_GET_PROPERTIES"};
	struct host h;

	host_utc(&h);
	mfi_shim_bbu(&batteries[0]);
	expect_unwritten(&u);
	expect("/c0/bbu show properties", false, RCL_BAD_REPLY, HAS("wrote no reply"));
	host_done(&h);
}
END_TEST

/* The battery's status refused, or answered by no one: a clear failure of the command. */
START_TEST(test_battery_refused)
{
	struct host h;

	host_utc(&h);
	mfi_shim_bbu(&batteries[0]);
	if (_i)
		mfi_shim_break(BBU_STATUS, MFI_SHIM_SILENT, 0);
	else
		mfi_shim_break(BBU_STATUS, MFI_SHIM_STATUS, 0x0c);
	expect("/c0 show all", false, _i ? RCL_SYSTEM : RCL_NOT_FOUND, HAS("BBU_GET_STATUS"));
	host_done(&h);
}
END_TEST

START_TEST(test_roc_temperature)
{
	struct host h;

	host_utc(&h);
	mfi_shim_roc_temperature(52);
	expect("/c0 show all", false, RCL_OK,
	       HAS("Temperature Sensor for ROC = Present", "ROC temperature(Degree Celsius) = 52"));
	expect_metric("raidcli_controller_temperature_celsius", 52);
	host_done(&h);
}
END_TEST

/*
 * A card's clock, seconds since 2000 (CTRL_TIME_SECS_GET), is shown as a
 * date; "set time=" sends the seconds in the mailbox of CTRL_TIME_SECS_SET.
 */
START_TEST(test_clock)
{
	struct host h;
	/* 2026-03-04 05:06:07 and 2026-12-07 03:00:00 UTC, in seconds past 2000. */
	static const uint8_t december[4] = {0xb0, 0xdd, 0xa8, 0x32};

	host_utc(&h);
	mfi_shim_card_clock(0x313a7a3f);
	expect("/c0 show time", false, RCL_OK, HAS("03/04/2026, 05:06:07"));
	expect("/c0 show all", true, RCL_OK,
	       HAS("\"Current Controller Date/Time\" : \"03/04/2026, 05:06:07\""));
	expect("/c0 set time=20261207 03:00:00", false, RCL_OK, HAS("12/07/2026, 03:00:00"));
	expect_mbox(TIME_SECS_SET, december, sizeof(december));
	ck_assert_uint_eq(mfi_shim_card_clock_now(), 0x32a8ddb0);
	expect("/c0 show time", false, RCL_OK, HAS("12/07/2026, 03:00:00"));
	expect("/c0 set time=systemtime", false, RCL_OK, HAS("Time"));
	ck_assert_uint_eq(mfi_shim_sent(TIME_SECS_SET), 2);
	/* Not a time, or one the clock cannot hold: refused before any frame. */
	expect("/c0 set time=2026-12-07", false, RCL_INVALID_PARAM, HAS("yyyymmdd hh:mm:ss"));
	expect("/c0 set time=20261307 03:00:00", false, RCL_INVALID_PARAM, HAS("not a time"));
	expect("/c0 set time=19991231 23:59:59", false, RCL_INVALID_PARAM, HAS("out of the"));
	ck_assert_uint_eq(mfi_shim_sent(TIME_SECS_SET), 2);
	/* The broken-down clock, whose month's base MR.H leaves open, is never asked. */
	ck_assert_uint_eq(mfi_shim_sent(GET_TIME), 0);
	host_done(&h);
}
END_TEST

/*
 * QEMU's card answers the seconds OK without writing them: its clock is
 * read broken down (CTRL_GET_TIME, its month counted from 0).
 */
START_TEST(test_clock_qemu)
{
	struct host h;
	/* 2026-03-04 05:06:07: the month as QEMU writes it, struct tm's (2 for March). */
	static const uint8_t march[8] = {0xea, 0x07, 2, 4, 5, 6, 7, 0};

	host_utc(&h);
	mfi_shim_clock(march);
	expect("/c0 show time", false, RCL_OK, HAS("03/04/2026, 05:06:07"));
	ck_assert_uint_gt(mfi_shim_sent(TIME_SECS_GET), 0);
	ck_assert_uint_gt(mfi_shim_sent(GET_TIME), 0);
	host_done(&h);
}
END_TEST

/*
 * A clock that is no date (QEMU's reading month 13) or that the host never
 * set (TIME_NOT_SET): "show time" says so, everything else works (it shows
 * "Unknown"), and "set time=" mends it; a refused set changes nothing.
 */
START_TEST(test_clock_bad)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};
	static const uint8_t month13[8] = {0xea, 0x07, 12, 1, 0, 0, 0, 0};

	host_utc(&h);
	mfi_shim_clock(month13);
	expect("/c0 show time", false, RCL_BAD_REPLY, HAS("no date", "set time=systemtime"));
	expect("/c0 show all", true, RCL_OK, HAS("\"Current Controller Date/Time\" : \"Unknown\""));
	expect("/c0 show", false, RCL_OK, HAS("Controller Time = Unknown"));
	mfi_shim_card_clock_unset();
	expect("/c0 show time", false, RCL_BAD_REPLY, HAS("no date", "never set"));
	expect("/c0 show", false, RCL_OK, HAS("Controller Time = Unknown"));
	mfi_shim_break(TIME_SECS_SET, MFI_SHIM_STATUS, 0x32);
	expect("/c0 set time=20261207 03:00:00", false, RCL_NOT_ALLOWED, HAS("WRONG_STATE"));
	expect("/c0 show time", false, RCL_BAD_REPLY, HAS("never set"));
	host_done(&h);
	host_utc(&h);
	mfi_shim_card_clock_unset();
	expect("/c0 set time=20261207 03:00:00", false, RCL_OK, HAS("12/07/2026, 03:00:00"));
	expect("/c0 show time", false, RCL_OK, HAS("12/07/2026, 03:00:00"));
	host_done(&h);
	/* A firmware without the DCMD (INVALID_DCMD) keeps no clock: the system's is shown. */
	host_utc(&h);
	mfi_shim_card_clock(0x313a7a3f);
	mfi_shim_break(TIME_SECS_GET, MFI_SHIM_STATUS, 0x02);
	ck_assert_msg(open_c0(&ctx, &ctrl, &err) == RCL_OK, "%s", err.msg);
	ck_assert_int_eq(rcl_ctrl_info(ctrl)->clock, 0);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	expect("/c0 show time", false, RCL_OK, HAS("Time"));
	host_done(&h);
}
END_TEST

/* Disks 1 and 2 free, holding a foreign RAID0 LD 5; disk 0 still QEMU's LD 0. */
static void host_foreign(struct host *h, const uint8_t *ids)
{
	host_utc(h);
	mfi_shim_unconfigure(1);
	mfi_shim_unconfigure(2);
	mfi_shim_foreign(ids, 2, 5, "GUID-0042");
}

static const uint8_t members[2] = {1, 2};

START_TEST(test_foreign_show)
{
	struct host h;

	host_foreign(&h, members);
	expect("/c0/fall show", false, RCL_OK,
	       HAS("Total foreign Drive Groups = 1", "card", "GUID-0042", "RAID0"));
	expect("/c0/fall show all", true, RCL_OK,
	       HAS("\"EID:Slt\" : \"252:1\"", "\"EID:Slt\" : \"252:2\"", "\"Name\" : \"frgn\"",
	           "\"Strip Size\" : \"64 KB\""));
	ck_assert_uint_eq(mfi_shim_sent(FOREIGN_IMPORT) + mfi_shim_sent(FOREIGN_CLEAR), 0);
	host_done(&h);
}
END_TEST

/* The preview sends no import; the import is one frame for all, and LD 5 is then the card's. */
START_TEST(test_foreign_import)
{
	struct host h;
	static const uint8_t all = 0xff;

	host_foreign(&h, members);
	expect("/c0/fall import preview", false, RCL_OK, HAS("nothing was written", "frgn"));
	ck_assert_uint_eq(mfi_shim_sent(FOREIGN_IMPORT), 0);
	expect("/c0/fall import", true, RCL_OK,
	       HAS("Successfully imported foreign configuration", "\"DG/VD\" : \"1/5\""));
	expect_mbox(FOREIGN_IMPORT, &all, 1);
	expect("/c0/vall show", true, RCL_OK, HAS("\"Name\" : \"frgn\"", "\"DG/VD\" : \"1/5\""));
	expect("/c0/fall show", false, RCL_OK, HAS("Total foreign Drive Groups = 0"));
	ck_assert_uint_eq(mfi_shim_sent(FOREIGN_IMPORT), 1);
	host_done(&h);
}
END_TEST

/* Delete asks for force, as the soft kind does; with it, one clear, and nothing is foreign. */
START_TEST(test_foreign_delete)
{
	struct host h;

	host_foreign(&h, members);
	expect("/c0/fall del", false, RCL_NEED_FORCE, HAS("force", "1 virtual drive"));
	ck_assert_uint_eq(mfi_shim_sent(FOREIGN_CLEAR), 0);
	expect("/c0/fall del force", false, RCL_OK, HAS("Successfully deleted"));
	expect_mbox(FOREIGN_CLEAR, NULL, 0);
	expect("/c0/fall show", false, RCL_OK, HAS("Total foreign Drive Groups = 0"));
	expect("/c0/fall del force", false, RCL_NOT_FOUND, HAS("no foreign configuration"));
	ck_assert_uint_eq(mfi_shim_sent(FOREIGN_CLEAR), 1);
	host_done(&h);
}
END_TEST

/* A RAID0 member missing: shown as StorCLI does (status 59), its import refused before any frame.
 */
START_TEST(test_foreign_incomplete)
{
	struct host h;
	static const uint8_t one_missing[2] = {1, 0xff};

	host_foreign(&h, one_missing);
	expect("/c0/fall show all", false, RCL_FOREIGN_INCOMPLETE,
	       HAS("Msng", "Total Foreign PDs = 1"));
	expect("/c0/fall import", false, RCL_FOREIGN_INCOMPLETE, HAS("lacks 1 member"));
	ck_assert_uint_eq(mfi_shim_sent(FOREIGN_IMPORT), 0);
	host_done(&h);
}
END_TEST

/* The firmware's refusals: a clear failure naming the status, nothing imported or cleared. */
static const struct {
	uint32_t opcode;
	uint8_t status;
	const char *line;
	enum rcl_status want;
	const char *name;
} foreign_refusals[] = {
    {FOREIGN_SCAN, 0x32, "/c0/fall show", RCL_NOT_ALLOWED, "WRONG_STATE"},
    {FOREIGN_SHOW, 0x0c, "/c0/fall show", RCL_NOT_FOUND, "DEVICE_NOT_FOUND"},
    {FOREIGN_IMPORT, 0x03, "/c0/fall import", RCL_INVALID_PARAM, "INVALID_PARAMETER"},
    {FOREIGN_IMPORT, 0x32, "/c0/fall import", RCL_NOT_ALLOWED, "WRONG_STATE"},
    {FOREIGN_CLEAR, 0x32, "/c0/fall del force", RCL_NOT_ALLOWED, "WRONG_STATE"},
};

START_TEST(test_foreign_refused)
{
	struct host h;

	host_foreign(&h, members);
	mfi_shim_break(foreign_refusals[_i].opcode, MFI_SHIM_STATUS, foreign_refusals[_i].status);
	expect(foreign_refusals[_i].line, false, foreign_refusals[_i].want,
	       HAS(foreign_refusals[_i].name));
	expect("/c0/vall show", false, RCL_OK, NULL);
	expect("/c0/vall show", true, RCL_OK, HAS("\"DG/VD\" : \"0/0\""));
	mfi_shim_break(foreign_refusals[_i].opcode, MFI_SHIM_STATUS, 0);
	host_done(&h);
}
END_TEST

/* A scan or a configuration answered by no one: a clear failure, no change sent. */
START_TEST(test_foreign_silent)
{
	struct host h;

	host_foreign(&h, members);
	mfi_shim_break(_i ? FOREIGN_PREVIEW : FOREIGN_SCAN, MFI_SHIM_SILENT, 0);
	expect("/c0/fall import", false, RCL_SYSTEM,
	       HAS(_i ? "CFG_FOREIGN_PREVIEW" : "CFG_FOREIGN_SCAN"));
	ck_assert_uint_eq(mfi_shim_sent(FOREIGN_IMPORT), 0);
	host_done(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("megaraid-hw");
	TCase *tc = tcase_create("hw");

	tcase_add_test(tc, test_qemu_card);
	tcase_add_loop_test(tc, test_battery, 0, sizeof(batteries) / sizeof(batteries[0]));
	tcase_add_loop_test(tc, test_battery_refused, 0, 2);
	tcase_add_test(tc, test_cachevault);
	tcase_add_test(tc, test_learn);
	tcase_add_test(tc, test_bbu_properties);
	tcase_add_test(tc, test_bbu_properties_refused_early);
	tcase_add_loop_test(tc, test_bbu_properties_refused, 0, FW_REFUSALS);
	tcase_add_test(tc, test_bbu_properties_unwritten);
	tcase_add_test(tc, test_roc_temperature);
	tcase_add_test(tc, test_clock);
	tcase_add_test(tc, test_clock_qemu);
	tcase_add_test(tc, test_clock_bad);
	suite_add_tcase(s, tc);
	tc = tcase_create("foreign");
	tcase_add_test(tc, test_foreign_show);
	tcase_add_test(tc, test_foreign_import);
	tcase_add_test(tc, test_foreign_delete);
	tcase_add_test(tc, test_foreign_incomplete);
	tcase_add_loop_test(tc, test_foreign_refused, 0,
	                    sizeof(foreign_refusals) / sizeof(foreign_refusals[0]));
	tcase_add_loop_test(tc, test_foreign_silent, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(suite());
}
