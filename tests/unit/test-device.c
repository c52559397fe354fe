// SPDX-License-Identifier: MIT
/*
 * test-device.c - a drive's own actions (lib/device.c) as the generic
 * layer checks them: a kind without the operation answers the one "not
 * supported by this controller (<kind>)", and every kind refuses the same
 * drives and numbers before its backend is asked (an absent or missing
 * drive, a member or hot spare for what destroys data, no force, numbers
 * out of range), then gets the request as the caller made it. A device's
 * own status (rcl_error.detail) becomes the Detailed Status's ErrMsg. A
 * format or namespace change done is logged as an event.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "unit.h"

/* What the "dev" backend's ops were last given; @calls: how often any ran. */
static struct {
	unsigned calls;
	struct rcl_format fmt;
	struct rcl_fw_download fw;
	unsigned area;
	struct rcl_ns_request ns;
} seen;

static enum rcl_status dev_format(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                  const struct rcl_format *fmt, struct rcl_error *err)
{
	(void)ctrl, (void)ref, (void)err;
	seen.calls++;
	seen.fmt = *fmt;
	return RCL_OK;
}

static enum rcl_status dev_download(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                    const struct rcl_fw_download *fw, bool *needs_reset,
                                    struct rcl_error *err)
{
	(void)ctrl, (void)ref, (void)err;
	seen.calls++;
	seen.fw = *fw;
	*needs_reset = true;
	return RCL_OK;
}

static enum rcl_status dev_telemetry(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                     const char *path, unsigned area, uint64_t *bytes,
                                     struct rcl_error *err)
{
	(void)ctrl, (void)ref, (void)path, (void)err;
	seen.calls++;
	seen.area = area;
	*bytes = 4096;
	return RCL_OK;
}

static enum rcl_status dev_namespace(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                     struct rcl_ns_request *req, struct rcl_error *err)
{
	(void)ctrl, (void)ref, (void)err;
	seen.calls++;
	seen.ns = *req;
	if (req->action == RCL_NS_CREATE)
		req->nsid = 3;
	return RCL_OK;
}

static enum rcl_status dev_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                struct rcl_error *err)
{
	(void)ctrl, (void)req, (void)err;
	seen.calls++;
	return RCL_OK;
}

static const struct rcl_caps dev_caps = {
    .kind = "dev",
    .tasks = 1u << RCL_TASK_ERASE | 1u << RCL_TASK_DRIVE_INIT,
    .drive_actions = 1u << RCL_DRIVE_ACTION_FORMAT | 1u << RCL_DRIVE_ACTION_FW_DOWNLOAD |
                     1u << RCL_DRIVE_ACTION_TELEMETRY | 1u << RCL_DRIVE_ACTION_NAMESPACE};
/* Caps that claim every action, on a backend with none of the ops: RCL_OP() refuses. */
static const struct rcl_caps bare_caps = {.kind = "bare", .drive_actions = ~0u};

static const struct rcl_backend_ops dev_ops = {
    .name = "dev",
    .caps = &dev_caps,
    .format_drive = dev_format,
    .download_drive_fw = dev_download,
    .drive_telemetry = dev_telemetry,
    .drive_namespace = dev_namespace,
    .task_check = dev_task,
    .task = dev_task,
};
static const struct rcl_backend_ops bare_ops = {.name = "bare", .caps = &bare_caps};

/* Slot 0 UGood, 1 a member, 2 a hot spare, 3 missing, 4 UGood holding a file system. */
static struct rcl_drive drives[5];
/* Where the controllers' event logs go. */
static struct unit_state scratch;
static struct rcl_ctx *ctx;

static void setup(void)
{
	unit_state_enter(&scratch, NULL);
	ctx = unit_ctx_new(scratch.dir);
}

static void teardown(void)
{
	rcl_ctx_free(ctx);
	unit_state_leave(&scratch);
}

static struct rcl_ctrl ctrl_of(const struct rcl_backend_ops *ops)
{
	struct rcl_ctrl ctrl = {
	    .ctx = ctx, .entry = {.id = 3, .ops = ops, .key = "k"}, .lock_fd = -1};

	for (unsigned i = 0; i < 5; i++)
		drives[i] = (struct rcl_drive){
		    .enclosure = 252, .slot = i, .state = RCL_PD_UGOOD, .dg = -1, .present = true};
	drives[1].state = RCL_PD_ONLINE;
	drives[1].dg = 0;
	drives[2].state = RCL_PD_GHS;
	drives[3].present = false;
	snprintf(drives[4].in_use, sizeof(drives[4].in_use), "holds a file system");
	ctrl.drives = drives;
	ctrl.drive_count = 5;
	ctrl.caps = *ops->caps;
	memset(&seen, 0, sizeof(seen));
	return ctrl;
}

static const struct rcl_drive_ref s0 = {252, 0}, member = {252, 1}, spare = {252, 2},
                                  missing = {252, 3}, in_use = {252, 4}, absent = {252, 9};

START_TEST(test_kind_without_ops)
{
	struct rcl_ctrl ctrl = ctrl_of(&bare_ops);
	struct rcl_format fmt = {.lbaf = 1, .force = true};
	struct rcl_fw_download fw = {.path = "fw.rom"};
	struct rcl_ns_request ns = {.action = RCL_NS_ATTACH, .nsid = 1};
	struct rcl_error err = {0};
	uint64_t bytes;
	bool reset;

	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &s0, &fmt, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "formatting a drive is not supported by this controller (bare)");
	ck_assert_int_eq(rcl_ctrl_download_drive_fw(&ctrl, &s0, &fw, &reset, &err),
	                 RCL_UNSUPPORTED);
	ck_assert_str_eq(
	    err.msg, "downloading a drive's firmware is not supported by this controller (bare)");
	ck_assert_int_eq(rcl_ctrl_drive_telemetry(&ctrl, &s0, "t.bin", 0, &bytes, &err),
	                 RCL_UNSUPPORTED);
	ck_assert_str_eq(
	    err.msg, "capturing a drive's telemetry is not supported by this controller (bare)");
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &s0, &ns, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg,
	                 "attaching a namespace is not supported by this controller (bare)");
}
END_TEST

START_TEST(test_kind_without_caps)
{
	struct rcl_ctrl ctrl = ctrl_of(&dev_ops);
	struct rcl_format fmt = {.lbaf = 99};
	struct rcl_ns_request ns = {.action = RCL_NS_DELETE};
	struct rcl_error err = {0};

	/* Caps without the action: refused by name before any other check or the op. */
	ctrl.caps.drive_actions = 1u << RCL_DRIVE_ACTION_TELEMETRY;
	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &member, &fmt, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "formatting a drive is not supported by this controller (dev)");
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &absent, &ns, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "deleting a namespace is not supported by this controller (dev)");
	ck_assert_str_eq(rcl_drive_action_name(RCL_DRIVE_ACTION_FW_DOWNLOAD),
	                 "downloading a drive's firmware");
	ck_assert_uint_eq(seen.calls, 0);
}
END_TEST

START_TEST(test_drive_refusals)
{
	struct rcl_ctrl ctrl = ctrl_of(&dev_ops);
	struct rcl_format fmt = {.lbaf = 0, .force = true};
	struct rcl_fw_download fw = {.path = "fw.rom"};
	struct rcl_ns_request del = {.action = RCL_NS_DELETE, .nsid = 1, .force = true};
	struct rcl_error err = {0};
	uint64_t bytes;
	bool reset;

	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &absent, &fmt, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "drive 252:9 not found on /c3");
	ck_assert_int_eq(rcl_ctrl_download_drive_fw(&ctrl, &missing, &fw, &reset, &err),
	                 RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg, "drive 252:3 is missing");
	ck_assert_int_eq(rcl_ctrl_drive_telemetry(&ctrl, &absent, "t.bin", 0, &bytes, &err),
	                 RCL_NOT_FOUND);
	/* What destroys data refuses a member and a spare even with force. */
	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &member, &fmt, &err), RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg, "drive 252:1 is a member of disk group 0: take it out of the "
	                          "configuration before formatting");
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &spare, &del, &err), RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg, "drive 252:2 is a hot spare (GHS): take it out of the "
	                          "configuration (raidcli /c3/e252/s2 delete hotsparedrive) before "
	                          "deleting namespace 1");
	/* ... and needs force, naming what the drive holds. */
	fmt.force = false;
	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &in_use, &fmt, &err), RCL_NEED_FORCE);
	ck_assert_str_eq(err.msg, "formatting destroys every block of drive 252:4, which is in use "
	                          "(holds a file system); repeat with force");
	del.action = RCL_NS_DETACH;
	del.force = false;
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &s0, &del, &err), RCL_NEED_FORCE);
	ck_assert_str_eq(err.msg, "detaching namespace 1 takes its block device from the host, on "
	                          "drive 252:0; repeat with force");
	/* A member's firmware and telemetry are its own: no refusal. */
	ck_assert_int_eq(rcl_ctrl_download_drive_fw(&ctrl, &member, &fw, &reset, &err), RCL_OK);
	ck_assert_uint_eq(seen.calls, 1);
}
END_TEST

START_TEST(test_drive_overwrite)
{
	struct rcl_ctrl ctrl = ctrl_of(&dev_ops);
	struct rcl_task_request req = {.kind = RCL_TASK_ERASE,
	                               .action = RCL_TASK_ACTION_START,
	                               .drive = member,
	                               .force = true};
	struct rcl_error err = {0};

	/* A drive's erase or initialization refuses what a format refuses, in its words... */
	ck_assert_int_eq(rcl_ctrl_task(&ctrl, &req, &err), RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg, "drive 252:1 is a member of disk group 0: take it out of the "
	                          "configuration before erasing");
	req.kind = RCL_TASK_DRIVE_INIT;
	req.drive = spare;
	ck_assert_int_eq(rcl_ctrl_task_check(&ctrl, &req, &err), RCL_NOT_ALLOWED);
	ck_assert_ptr_nonnull(strstr(err.msg, "is a hot spare (GHS)"));
	/* ... but asks for force only where the host uses the drive. */
	req.force = false;
	req.drive = in_use;
	ck_assert_int_eq(rcl_ctrl_task(&ctrl, &req, &err), RCL_NEED_FORCE);
	ck_assert_str_eq(err.msg, "initializing destroys every block of drive 252:4, which is in "
	                          "use (holds a file system); repeat with force");
	ck_assert_uint_eq(seen.calls, 0);
	req.drive = s0;
	ck_assert_int_eq(rcl_ctrl_task(&ctrl, &req, &err), RCL_OK);
	/* Stopping one is no overwrite. */
	req.action = RCL_TASK_ACTION_STOP;
	req.drive = member;
	ck_assert_int_eq(rcl_ctrl_task(&ctrl, &req, &err), RCL_OK);
	ck_assert_uint_eq(seen.calls, 2);
}
END_TEST

START_TEST(test_numbers)
{
	struct rcl_ctrl ctrl = ctrl_of(&dev_ops);
	struct rcl_format fmt = {.lbaf = 64, .force = true};
	struct rcl_fw_download fw = {.path = "fw.rom", .slot = 8};
	struct rcl_ns_request ns = {.action = RCL_NS_ATTACH};
	struct rcl_error err = {0};
	uint64_t bytes;
	bool reset;

	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &s0, &fmt, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "LBA format 64 does not exist: 0 to 63");
	fmt.lbaf = -1;
	fmt.block_size = 1024;
	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &s0, &fmt, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "a block size of 1024 bytes cannot be formatted: 512 or 4096");
	ck_assert_int_eq(rcl_ctrl_download_drive_fw(&ctrl, &s0, &fw, &reset, &err),
	                 RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "firmware slot 8 does not exist: 1 to 7");
	fw = (struct rcl_fw_download){.path = ""};
	ck_assert_int_eq(rcl_ctrl_download_drive_fw(&ctrl, &s0, &fw, &reset, &err),
	                 RCL_INVALID_PARAM);
	ck_assert_int_eq(rcl_ctrl_drive_telemetry(&ctrl, &s0, "t.bin", 5, &bytes, &err),
	                 RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "telemetry data area 5 does not exist: 1 to 4");
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &s0, &ns, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "namespace 0 does not exist: namespaces are numbered from 1");
	ns = (struct rcl_ns_request){.action = RCL_NS_CREATE, .lbaf = 1};
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &s0, &ns, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "a namespace needs a size: size=<bytes>, as size=100GB");
	ck_assert_uint_eq(seen.calls, 0);
}
END_TEST

START_TEST(test_reaches_backend)
{
	struct rcl_ctrl ctrl = ctrl_of(&dev_ops);
	struct rcl_format fmt = {
	    .lbaf = -1, .block_size = 4096, .ses = RCL_FORMAT_SES_CRYPTO, .force = true};
	struct rcl_fw_download fw = {.path = "fw.rom", .slot = 2, .action = RCL_FW_ACTIVATE_NOW};
	struct rcl_ns_request ns = {.action = RCL_NS_CREATE, .bytes = 1 << 20, .lbaf = 1};
	struct rcl_error err = {0};
	uint64_t bytes;
	bool reset = false;

	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &s0, &fmt, &err), RCL_OK);
	ck_assert_int_eq(seen.fmt.block_size, 4096);
	ck_assert_int_eq(seen.fmt.ses, RCL_FORMAT_SES_CRYPTO);
	ck_assert_int_eq(rcl_ctrl_download_drive_fw(&ctrl, &s0, &fw, &reset, &err), RCL_OK);
	ck_assert_uint_eq(seen.fw.slot, 2);
	ck_assert(reset);
	/* No area named: the whole capture, areas 1 to 3. */
	ck_assert_int_eq(rcl_ctrl_drive_telemetry(&ctrl, &s0, "t.bin", 0, &bytes, &err), RCL_OK);
	ck_assert_uint_eq(seen.area, 3);
	ck_assert_uint_eq(bytes, 4096);
	/* A new namespace needs no force, and its id comes back. */
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &in_use, &ns, &err), RCL_OK);
	ck_assert_uint_eq(ns.nsid, 3);
	ck_assert_uint_eq(seen.ns.bytes, 1 << 20);
	ck_assert_uint_eq(seen.calls, 4);
}
END_TEST

/* The description of the last event logged on @ctrl, checking its @code. */
static const char *last_event(struct rcl_ctrl *ctrl, enum rcl_event_code code)
{
	static char desc[RCL_EVENT_DESC_MAX];
	struct rcl_event_list list = {0};
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_ctrl_events(ctrl, NULL, &list, &err), RCL_OK);
	ck_assert_uint_ge(list.count, 1);
	ck_assert_int_eq(list.events[list.count - 1].code, code);
	ck_assert_uint_eq(list.events[list.count - 1].locale, 0x02);
	snprintf(desc, sizeof(desc), "%s", list.events[list.count - 1].description);
	rcl_event_list_release(&list);
	return desc;
}

START_TEST(test_changes_logged)
{
	struct rcl_ctrl ctrl = ctrl_of(&dev_ops);
	struct rcl_format fmt = {.lbaf = 1, .force = true};
	struct rcl_ns_request ns = {.action = RCL_NS_CREATE, .bytes = 1 << 30, .lbaf = 0};
	struct rcl_error err = {0};

	/* A format and each namespace change are events, as every change is. */
	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &s0, &fmt, &err), RCL_OK);
	ck_assert_str_eq(last_event(&ctrl, RCL_EVENT_DRIVE_FORMATTED),
	                 "Drive /c3/e252/s0 formatted to LBA format 1");
	fmt = (struct rcl_format){.lbaf = -1, .block_size = 4096, .force = true};
	ck_assert_int_eq(rcl_ctrl_format_drive(&ctrl, &s0, &fmt, &err), RCL_OK);
	ck_assert_str_eq(last_event(&ctrl, RCL_EVENT_DRIVE_FORMATTED),
	                 "Drive /c3/e252/s0 formatted to 4096-byte blocks");
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &s0, &ns, &err), RCL_OK);
	ck_assert_str_eq(last_event(&ctrl, RCL_EVENT_NAMESPACE_CHANGED),
	                 "Namespace 3 created on drive /c3/e252/s0 (1.000 GB)");
	ns = (struct rcl_ns_request){.action = RCL_NS_DETACH, .nsid = 1, .force = true};
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &s0, &ns, &err), RCL_OK);
	ck_assert_str_eq(last_event(&ctrl, RCL_EVENT_NAMESPACE_CHANGED),
	                 "Namespace 1 detached from drive /c3/e252/s0");
	/* A refused one is not. */
	ns.action = RCL_NS_DELETE;
	ck_assert_int_eq(rcl_ctrl_drive_namespace(&ctrl, &member, &ns, &err), RCL_NOT_ALLOWED);
	ck_assert_str_eq(last_event(&ctrl, RCL_EVENT_NAMESPACE_CHANGED),
	                 "Namespace 1 detached from drive /c3/e252/s0");
	ck_assert_ptr_null(rcl_ctrl_event_failure(&ctrl));
}
END_TEST

START_TEST(test_device_status)
{
	struct rcl_reply reply;
	struct rcl_result *res;
	struct rcl_error err = {0};

	/* A backend's detail, after its failure, is the row's ErrMsg. */
	rcl_fail(&err, RCL_INVALID_PARAM,
	         "firmware commit to slot 2 failed: Invalid Firmware Slot");
	snprintf(err.detail, sizeof(err.detail), "Invalid Firmware Slot (SCT 0x1, SC 0x06, DNR)");
	rcl_reply_init(&reply);
	res = rcl_reply_add(&reply, 3);
	rcl_result_fail(res, &err);
	ck_assert_str_eq(res->description,
	                 "firmware commit to slot 2 failed: Invalid Firmware Slot");
	ck_assert_str_eq(rcl_node_str(rcl_node_find(rcl_node_child(res->detail, 0), "ErrMsg")),
	                 "Invalid Firmware Slot (SCT 0x1, SC 0x06, DNR)");
	/* The next failure recorded in @err has none. */
	rcl_fail(&err, RCL_NOT_FOUND, "drive 252:9 not found on /c3");
	ck_assert_str_eq(err.detail, "");
	rcl_reply_release(&reply);
}
END_TEST

static Suite *device_suite(void)
{
	Suite *s = suite_create("device");
	TCase *tc = tcase_create("checks");

	tcase_add_checked_fixture(tc, setup, teardown);

	tcase_add_test(tc, test_kind_without_ops);
	tcase_add_test(tc, test_kind_without_caps);
	tcase_add_test(tc, test_drive_refusals);
	tcase_add_test(tc, test_drive_overwrite);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_reaches_backend);
	tcase_add_test(tc, test_changes_logged);
	tcase_add_test(tc, test_device_status);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(device_suite());
}
