// SPDX-License-Identifier: MIT
/*
 * test-nvme-export.c - the names of the nvme kind's exports: the engine it
 * hosts names them as it names them on a soft controller, after its own
 * controller serial ("RCLC…-v0"), never after the host's name, which is
 * "(none)" in a VM where none is set; and the controller shows that serial
 * as its own, the same each time it is opened. The nvme controller here
 * has no drive present (as on this host, and CI): its engine loads all the
 * same.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvme/nvme.h"
#include "soft/service/export.h"
#include "unit.h"

/* The engine's serial, as the nvme kind keeps it in <state>/nvme/host-raid.json. */
static char *engine_serial(const char *dir)
{
	char *path = unit_path(dir, "nvme/host-raid.json");
	char *text = unit_read(path);
	json_object *root = text ? json_tokener_parse(text) : NULL, *serial;
	char *out;

	ck_assert_msg(root && json_object_object_get_ex(root, "serial", &serial), "%s: %s", path,
	              text ? text : "unreadable");
	out = strdup(json_object_get_string(serial));
	json_object_put(root);
	free(text);
	free(path);
	return out;
}

START_TEST(test_export_named_by_engine)
{
	struct rcl_error err = {0};
	struct unit_state st;
	struct rcl_ctrl *ctrl;
	struct rcl_ctx *ctx;
	char *path, *serial, name[128], want[128];

	if (rcl_nvme_present())
		return; /* a host with NVMe: the VM test covers it */
	unit_state_enter(&st, NULL);
	path = unit_path(st.dir, "registry.json");
	unit_write(path, "{\"format\": 1, \"controllers\": [{\"id\": 0, \"backend\": \"nvme\", "
	                 "\"key\": \"host\"}]}");
	free(path);
	ctx = unit_ctx_new(st.dir);
	ck_assert_msg(!rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err), "%s", err.msg);
	serial = engine_serial(st.dir);
	ck_assert_msg(!strncmp(serial, "RCLC", 4), "%s", serial);
	rcl_soft_export_name(ctrl, 0, name, sizeof(name));
	snprintf(want, sizeof(want), "%s-v0", serial);
	ck_assert_str_eq(name, want);
	ck_assert_str_eq(rcl_ctrl_info(ctrl)->serial, serial);
	rcl_ctrl_close(ctrl);
	ck_assert_msg(!rcl_ctrl_open(ctx, 0, RCL_LOCK_SHARED, &ctrl, &err), "%s", err.msg);
	ck_assert_str_eq(rcl_ctrl_info(ctrl)->serial, serial);
	free(serial);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	unit_state_leave(&st);
}
END_TEST

static Suite *export_suite(void)
{
	Suite *s = suite_create("nvme-export");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_export_named_by_engine);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(export_suite());
}
