// SPDX-License-Identifier: MIT
/*
 * test-nvme-task.c - the nvme backend's task operations (lib/nvme/
 * task.c) on a controller of one drive that the ioctl shim plays
 * (nvme-shim.h): starting, stopping and following a self-test and an
 * erase, with the commands and log reads each sends checked against the
 * NVMe specification (spec.h). QEMU 7.2 has neither self-test nor
 * sanitize (it answers Invalid Opcode), so only these fakes show them
 * running; its answer, a drive without them, is tested here too.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvme/task.h"
#include "drive-fixture.h"
#include "spec.h"
#include "unit.h"

static struct rcl_task_request request(enum rcl_task_kind kind, enum rcl_task_action action)
{
	return (struct rcl_task_request){.kind = kind,
	                                 .action = action,
	                                 .drive = {.enclosure = 252, .slot = 0},
	                                 .erase = {.mode = RCL_ERASE_AUTO}};
}

/* Identify Controller with @oacs and @sanicap, the rest 0. */
static void id_ctrl(uint8_t *page, unsigned oacs, uint32_t sanicap)
{
	memset(page, 0, 4096);
	page[SPEC_IDC_MDTS] = 5;
	spec_le(page + SPEC_IDC_OACS, oacs, 2);
	spec_le(page + SPEC_IDC_SANICAP, sanicap, 4);
}

#define OACS_FORMAT    (1u << 1)
#define OACS_SELF_TEST (1u << 4)
#define SANICAP_CRYPTO (1u << 0)
#define SANICAP_BLOCK  (1u << 1)

/* A self-test log: @current running (0: none) at @percent, no results. */
static void self_test_log(uint8_t *page, unsigned current, unsigned percent)
{
	memset(page, 0, 564);
	page[0] = (uint8_t)current;
	page[1] = (uint8_t)percent;
	for (int i = 0; i < 20; i++)
		page[4 + 28 * i] = 0x0f;
}

/* A sanitize status log: status @sstat, progress @sprog (65536ths). */
static void sanitize_log(uint8_t *page, unsigned sstat, unsigned sprog)
{
	memset(page, 0, 512);
	spec_le(page, sprog, 2);
	spec_le(page + 2, sstat, 2);
}

START_TEST(test_self_test)
{
	struct fixture f;
	uint8_t id[4096], idle[564], busy[564];
	struct rcl_task_request start = request(RCL_TASK_SELF_TEST, RCL_TASK_ACTION_START);
	struct rcl_task_request stop = request(RCL_TASK_SELF_TEST, RCL_TASK_ACTION_STOP);
	struct rcl_task_progress p = {0};
	struct rcl_error err = {0};

	fixture_init(&f);
	id_ctrl(id, OACS_SELF_TEST, 0);
	self_test_log(idle, 0, 0);
	self_test_log(busy, 1, 42);
	/* Start: none runs, so a short test of the controller and every namespace. */
	struct shim_cmd started[] = {
	    spec_identify(1, 0, id),
	    spec_get_log(0x06, 0, 0xffffffff, 0, 564, idle),
	    spec_self_test(0xffffffff, 1, 0),
	};
	shim_expect(f.drive.path, 1, started, 3);
	SHIM_OK(rcl_nvme_task(&f.ctrl, &start, &err));
	SHIM_SENT();
	/* Where it stands: the log's current operation and completion. */
	struct shim_cmd running[] = {spec_identify(1, 0, id),
	                             spec_get_log(0x06, 0, 0xffffffff, 0, 564, busy)};
	shim_expect(f.drive.path, 1, running, 2);
	SHIM_OK(rcl_nvme_task_progress(&f.ctrl, &start, &p, &err));
	ck_assert_int_eq(p.state, RCL_TASK_STATE_RUNNING);
	ck_assert_int_eq(p.percent, 42);
	SHIM_SENT();
	/* A second start is refused while it runs. */
	shim_expect(f.drive.path, 1, running, 2);
	ck_assert_int_eq(rcl_nvme_task_check(&f.ctrl, &start, &err), RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg, "a self-test is already running on drive 252:0 (42 %)");
	SHIM_SENT();
	/* Stop: an abort. */
	struct shim_cmd aborted[] = {spec_identify(1, 0, id),
	                             spec_get_log(0x06, 0, 0xffffffff, 0, 564, busy),
	                             spec_self_test(0xffffffff, 0xf, 0)};
	shim_expect(f.drive.path, 1, aborted, 3);
	SHIM_OK(rcl_nvme_task(&f.ctrl, &stop, &err));
	SHIM_SENT();
	/* Once it is over: stopped; and nothing to stop. */
	struct shim_cmd over[] = {spec_identify(1, 0, id),
	                          spec_get_log(0x06, 0, 0xffffffff, 0, 564, idle)};
	shim_expect(f.drive.path, 1, over, 2);
	SHIM_OK(rcl_nvme_task_progress(&f.ctrl, &start, &p, &err));
	ck_assert_int_eq(p.state, RCL_TASK_STATE_STOPPED);
	ck_assert_int_eq(p.percent, -1);
	SHIM_SENT();
	shim_expect(f.drive.path, 1, over, 2);
	ck_assert_int_eq(rcl_nvme_task(&f.ctrl, &stop, &err), RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg, "no self-test is running on drive 252:0");
	SHIM_SENT();
	fixture_release(&f);
}
END_TEST

START_TEST(test_extended_self_test)
{
	struct fixture f;
	uint8_t id[4096], idle[564];
	struct rcl_task_request start = request(RCL_TASK_SELF_TEST, RCL_TASK_ACTION_START);
	struct rcl_error err = {0};

	/* The request's extended self-test: STC 2. */
	fixture_init(&f);
	id_ctrl(id, OACS_SELF_TEST, 0);
	self_test_log(idle, 0, 0);
	start.self_test = RCL_SELF_TEST_EXTENDED;
	struct shim_cmd started[] = {
	    spec_identify(1, 0, id),
	    spec_get_log(0x06, 0, 0xffffffff, 0, 564, idle),
	    spec_self_test(0xffffffff, 2, 0),
	};
	shim_expect(f.drive.path, 1, started, 3);
	SHIM_OK(rcl_nvme_task(&f.ctrl, &start, &err));
	SHIM_SENT();
	fixture_release(&f);
}
END_TEST

START_TEST(test_no_self_test)
{
	struct fixture f;
	uint8_t id[4096];
	struct rcl_task_request start = request(RCL_TASK_SELF_TEST, RCL_TASK_ACTION_START);
	struct rcl_task_progress p = {0};
	struct rcl_error err = {0};

	/* QEMU 7.2's controller: Format NVM and namespace management, no self-test. */
	fixture_init(&f);
	id_ctrl(id, OACS_FORMAT | 1u << 3, 0);
	struct shim_cmd identify[] = {spec_identify(1, 0, id)};
	shim_expect(f.drive.path, 1, identify, 1);
	ck_assert_int_eq(rcl_nvme_task(&f.ctrl, &start, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "self-test is not supported by this controller (nvme); the drive "
	                          "has no Device Self-test command (OACS)");
	SHIM_SENT();
	/* Its progress reads no log QEMU would refuse: stopped. */
	shim_expect(f.drive.path, 1, identify, 1);
	SHIM_OK(rcl_nvme_task_progress(&f.ctrl, &start, &p, &err));
	ck_assert_int_eq(p.state, RCL_TASK_STATE_STOPPED);
	SHIM_SENT();
	fixture_release(&f);
}
END_TEST

START_TEST(test_erase_sanitize)
{
	struct fixture f;
	uint8_t id[4096], never[512], running[512], failed[512];
	struct rcl_task_request start = request(RCL_TASK_ERASE, RCL_TASK_ACTION_START);
	struct rcl_task_request stop = request(RCL_TASK_ERASE, RCL_TASK_ACTION_STOP);
	struct rcl_task_progress p = {0};
	struct rcl_error err = {0};

	fixture_init(&f);
	id_ctrl(id, OACS_FORMAT, SANICAP_CRYPTO | SANICAP_BLOCK);
	sanitize_log(never, 0, 0xffff);
	sanitize_log(running, 2, 0x4000);
	sanitize_log(failed, 3, 0xffff);
	/* Start: the strongest method SANICAP offers, crypto erase (SANACT 4). */
	struct shim_cmd started[] = {spec_identify(1, 0, id),
	                             spec_get_log(0x81, 0, 0xffffffff, 0, 512, never),
	                             spec_sanitize(4, 0, 0)};
	shim_expect(f.drive.path, 1, started, 3);
	SHIM_OK(rcl_nvme_task(&f.ctrl, &start, &err));
	SHIM_SENT();
	/* SPROG 0x4000 of 65536: a quarter done. */
	struct shim_cmd going[] = {spec_identify(1, 0, id),
	                           spec_get_log(0x81, 0, 0xffffffff, 0, 512, running)};
	shim_expect(f.drive.path, 1, going, 2);
	SHIM_OK(rcl_nvme_task_progress(&f.ctrl, &start, &p, &err));
	ck_assert_int_eq(p.state, RCL_TASK_STATE_RUNNING);
	ck_assert_int_eq(p.percent, 25);
	SHIM_SENT();
	/* No stopping it, nor pausing: NVMe has no such command. */
	struct shim_cmd identify[] = {spec_identify(1, 0, id)};
	shim_expect(f.drive.path, 1, identify, 1);
	ck_assert_int_eq(rcl_nvme_task(&f.ctrl, &stop, &err), RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg, "an erase of drive 252:0 cannot be stopped: NVMe drives finish a "
	                          "sanitize or format once started");
	SHIM_SENT();
	/* A failed sanitize leaves the drive in its failure mode: shown as failed. */
	struct shim_cmd fail[] = {spec_identify(1, 0, id),
	                          spec_get_log(0x81, 0, 0xffffffff, 0, 512, failed)};
	shim_expect(f.drive.path, 1, fail, 2);
	SHIM_OK(rcl_nvme_task_progress(&f.ctrl, &start, &p, &err));
	ck_assert_int_eq(p.state, RCL_TASK_STATE_FAILED);
	SHIM_SENT();
	fixture_release(&f);
}
END_TEST

START_TEST(test_erase_format)
{
	struct fixture f;
	uint8_t id[4096], ns[4096], list[4096] = {3};
	struct rcl_task_request start = request(RCL_TASK_ERASE, RCL_TASK_ACTION_START);
	struct rcl_error err = {0};

	/*
	 * No sanitize: a format of the drive's only namespace (3, the active
	 * namespace list says) in its own format, erasing user data.
	 */
	fixture_init(&f);
	id_ctrl(id, OACS_FORMAT, 0);
	memset(ns, 0, sizeof(ns));
	spec_le(ns, 1 << 20, 8);
	ns[25] = 1;
	ns[26] = 1; /* FLBAS: format 1 (4096 bytes) in use */
	ns[128 + 2] = 9;
	ns[132 + 2] = 12;
	struct shim_cmd cmds[] = {
	    spec_identify(1, 0, id), spec_identify(2, 0, list),       spec_identify(0, 3, ns),
	    spec_identify(0, 3, ns), spec_format(3, 1, 1, 600000, 0),
	};
	shim_expect(f.drive.path, 3, cmds, 5);
	SHIM_OK(rcl_nvme_task(&f.ctrl, &start, &err));
	SHIM_SENT();
	fixture_release(&f);
}
END_TEST

START_TEST(test_erase_methods)
{
	struct fixture f;
	uint8_t id[4096], never[512], ns[4096], list[4096] = {3};
	struct rcl_task_request start = request(RCL_TASK_ERASE, RCL_TASK_ACTION_START);
	struct rcl_error err = {0};

	fixture_init(&f);
	id_ctrl(id, OACS_FORMAT, SANICAP_CRYPTO | SANICAP_BLOCK);
	sanitize_log(never, 0, 0xffff);
	/* The method asked for, not the strongest: block erase (SANACT 2). */
	start.erase.mode = RCL_ERASE_BLOCK;
	struct shim_cmd block[] = {spec_identify(1, 0, id),
	                           spec_get_log(0x81, 0, 0xffffffff, 0, 512, never),
	                           spec_sanitize(2, 0, 0)};
	shim_expect(f.drive.path, 1, block, 3);
	SHIM_OK(rcl_nvme_task(&f.ctrl, &start, &err));
	SHIM_SENT();
	/* One the drive lacks is refused before any log is read or command sent. */
	start.erase.mode = RCL_ERASE_OVERWRITE;
	struct shim_cmd identify[] = {spec_identify(1, 0, id)};
	shim_expect(f.drive.path, 1, identify, 1);
	ck_assert_int_eq(rcl_nvme_task_check(&f.ctrl, &start, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "sanitize by overwrite is not supported by this controller "
	                          "(nvme); the drive does not offer it (SANICAP, OACS): this "
	                          "drive offers crypto, blockerase, format");
	SHIM_SENT();
	/* An overwrite by passes is the soft controller's: refused, naming the drive's own. */
	for (enum rcl_erase_mode m = RCL_ERASE_SIMPLE; m <= RCL_ERASE_THOROUGH; m++) {
		start.erase.mode = m;
		shim_expect(f.drive.path, 1, identify, 1);
		ck_assert_int_eq(rcl_nvme_task(&f.ctrl, &start, &err), RCL_UNSUPPORTED);
		ck_assert_str_eq(
		    err.msg, "an erase simple, normal or thorough is not supported by this "
		             "controller (nvme); it is an overwrite by passes, and an NVMe "
		             "drive erases itself: this drive offers crypto, blockerase, format");
		SHIM_SENT();
	}
	/* A format, though the drive sanitizes: its namespace in its format, erasing user data. */
	memset(ns, 0, sizeof(ns));
	spec_le(ns, 1 << 20, 8);
	ns[25] = 1;
	ns[128 + 2] = 9;
	ns[132 + 2] = 12;
	start.erase.mode = RCL_ERASE_FORMAT;
	struct shim_cmd format[] = {
	    spec_identify(1, 0, id),   spec_get_log(0x81, 0, 0xffffffff, 0, 512, never),
	    spec_identify(2, 0, list), spec_identify(0, 3, ns),
	    spec_identify(0, 3, ns),   spec_format(3, 0, 1, 600000, 0),
	};
	shim_expect(f.drive.path, 3, format, 6);
	SHIM_OK(rcl_nvme_task(&f.ctrl, &start, &err));
	SHIM_SENT();
	fixture_release(&f);
}
END_TEST

START_TEST(test_erase_in_use)
{
	struct fixture f;
	uint8_t id[4096], never[512];
	struct rcl_task_request start = request(RCL_TASK_ERASE, RCL_TASK_ACTION_START);
	struct rcl_error err = {0};

	fixture_init(&f);
	id_ctrl(id, OACS_FORMAT, SANICAP_BLOCK);
	sanitize_log(never, 0, 0xffff);
	/*
	 * What refuses an erase of a drive in use is the generic layer's
	 * (test-device.c): the backend, asked, sanitizes it.
	 */
	snprintf(f.drive.in_use, sizeof(f.drive.in_use), "mounted on /srv");
	start.force = true;
	struct shim_cmd forced[] = {spec_identify(1, 0, id),
	                            spec_get_log(0x81, 0, 0xffffffff, 0, 512, never),
	                            spec_sanitize(2, 0, 0)};
	shim_expect(f.drive.path, 1, forced, 3);
	SHIM_OK(rcl_nvme_task(&f.ctrl, &start, &err));
	SHIM_SENT();
	fixture_release(&f);
}
END_TEST

START_TEST(test_not_tasks)
{
	struct fixture f;
	uint8_t id[4096];
	struct rcl_task_request fw = request(RCL_TASK_FW_UPDATE, RCL_TASK_ACTION_START);
	struct rcl_task_request pause = request(RCL_TASK_SELF_TEST, RCL_TASK_ACTION_PAUSE);
	struct rcl_task_progress p = {0};
	struct rcl_error err = {0};

	fixture_init(&f);
	id_ctrl(id, OACS_SELF_TEST, 0);
	/* A firmware update: the request cannot name the image, so no command goes. */
	shim_expect(f.drive.path, 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_task_check(&f.ctrl, &fw, &err), RCL_UNSUPPORTED);
	ck_assert_int_eq(rcl_nvme_task(&f.ctrl, &fw, &err), RCL_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "firmware update as a task is not supported"));
	SHIM_OK(rcl_nvme_task_progress(&f.ctrl, &fw, &p, &err));
	ck_assert_int_eq(p.state, RCL_TASK_STATE_STOPPED);
	SHIM_SENT();
	struct shim_cmd identify[] = {spec_identify(1, 0, id)};
	shim_expect(f.drive.path, 1, identify, 1);
	ck_assert_int_eq(rcl_nvme_task(&f.ctrl, &pause, &err), RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg,
	                 "a self-test of drive 252:0 cannot be paused or resumed: NVMe has "
	                 "no such command");
	SHIM_SENT();
	/* A drive whose path is no NVMe device. */
	shim_expect("/nonexistent", 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_task_progress(&f.ctrl, &pause, &p, &err), RCL_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "not an NVMe device"));
	fixture_release(&f);
}
END_TEST

static Suite *task_suite(void)
{
	Suite *s = suite_create("nvme-task");
	TCase *self_test = tcase_create("self-test");
	TCase *erase = tcase_create("erase");
	TCase *other = tcase_create("other");

	tcase_add_test(self_test, test_self_test);
	tcase_add_test(self_test, test_extended_self_test);
	tcase_add_test(self_test, test_no_self_test);
	tcase_add_test(erase, test_erase_sanitize);
	tcase_add_test(erase, test_erase_format);
	tcase_add_test(erase, test_erase_methods);
	tcase_add_test(erase, test_erase_in_use);
	tcase_add_test(other, test_not_tasks);
	suite_add_tcase(s, self_test);
	suite_add_tcase(s, erase);
	suite_add_tcase(s, other);
	return s;
}

int main(void)
{
	return unit_main(task_suite());
}
