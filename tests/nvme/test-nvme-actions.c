// SPDX-License-Identifier: MIT
/*
 * test-nvme-actions.c - the nvme backend's device actions (lib/nvme/
 * actions.c) on a controller of one drive that the ioctl shim plays
 * (nvme-shim.h): what a format by block size, a firmware download with
 * its commit and a namespace's creation and attachment send, checked
 * against the NVMe specification (spec.h). QEMU 7.2 answers Invalid
 * Opcode to the firmware commands and namespace creation.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvme/actions.h"
#include "drive-fixture.h"
#include "spec.h"
#include "unit.h"

static const struct rcl_drive_ref s0 = {252, 0};

/* Identify Controller: format, firmware and namespace management; controller 7; 3 slots. */
static void id_ctrl(uint8_t *page)
{
	memset(page, 0, 4096);
	page[SPEC_IDC_MDTS] = 1;
	spec_le(page + SPEC_IDC_CNTLID, 7, 2);
	spec_le(page + SPEC_IDC_OACS, 1u << 1 | 1u << 2 | 1u << 3, 2);
	page[SPEC_IDC_FRMW] = 3u << 1;
}

/* Identify Namespace: formats 512 and 4096 bytes, the second with @ms bytes of metadata. */
static void id_ns(uint8_t *page, unsigned ms)
{
	memset(page, 0, 4096);
	spec_le(page, 1 << 20, 8);
	spec_le(page + 8, 1 << 20, 8);
	page[25] = 1;
	page[128 + 2] = 9;
	spec_le(page + 132, ms, 2);
	page[132 + 2] = 12;
}

START_TEST(test_format_by_block_size)
{
	struct fixture f;
	uint8_t id[4096], ns[4096], list[4096] = {1}, two[4096] = {1, 0, 0, 0, 2};
	struct rcl_format fmt = {.lbaf = -1, .block_size = 4096, .ses = RCL_FORMAT_SES_USER};
	struct rcl_error err = {0};

	/*
	 * The drive's only namespace, 1 (the active namespace list, CNS 2):
	 * its 4096-byte format is LBAF 1; a user data erase is SES 1.
	 */
	fixture_init(&f);
	id_ctrl(id);
	id_ns(ns, 0);
	struct shim_cmd cmds[] = {
	    spec_identify(1, 0, id), spec_identify(2, 0, list),       spec_identify(0, 1, ns),
	    spec_identify(0, 1, ns), spec_format(1, 1, 1, 600000, 0),
	};
	shim_expect(f.drive.path, 1, cmds, 5);
	SHIM_OK(rcl_nvme_format_drive(&f.ctrl, &s0, &fmt, &err));
	SHIM_SENT();
	/* Two namespaces: the format must be told which. */
	cmds[1].out_data = two;
	shim_expect(f.drive.path, 1, cmds, 2);
	ck_assert_int_eq(rcl_nvme_format_drive(&f.ctrl, &s0, &fmt, &err), RCL_INVALID_COMMAND);
	ck_assert_str_eq(err.msg, "drive 252:0 has 2 namespaces attached: name the one to format "
	                          "with nsid=");
	SHIM_SENT();
	/* Its only 4096-byte format carries metadata: none to pick. */
	cmds[1].out_data = list;
	fmt.nsid = 1;
	id_ns(ns, 8);
	cmds[1] = cmds[2];
	shim_expect(f.drive.path, 1, cmds, 2);
	ck_assert_int_eq(rcl_nvme_format_drive(&f.ctrl, &s0, &fmt, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg,
	                 "drive 252:0 has no LBA format of 4096-byte blocks without metadata");
	SHIM_SENT();
	fixture_release(&f);
}
END_TEST

START_TEST(test_fw_download_commit)
{
	struct fixture f;
	uint8_t id[4096], image[4096];
	char *path;
	struct rcl_fw_download fw = {.slot = 2, .action = RCL_FW_ACTIVATE_NOW};
	struct rcl_error err = {0};
	bool reset = true;
	int fd;

	fixture_init(&f);
	id_ctrl(id);
	for (size_t i = 0; i < sizeof(image); i++)
		image[i] = (uint8_t)(i * 3);
	path = unit_path(f.dir, "fw.bin");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_eq(write(fd, image, sizeof(image)), (ssize_t)sizeof(image));
	close(fd);
	fw.path = path;
	/* The image, then a commit to slot 2 running it at once (CA 3). */
	struct shim_cmd cmds[] = {
	    spec_identify(1, 0, id),
	    spec_fw_download(0, 4096, image),
	    spec_fw_commit(2, 3, 0),
	};
	shim_expect(f.drive.path, 1, cmds, 3);
	SHIM_OK(rcl_nvme_download_drive_fw(&f.ctrl, &s0, &fw, &reset, &err));
	ck_assert(!reset);
	SHIM_SENT();
	free(path);
	fixture_release(&f);
}
END_TEST

START_TEST(test_namespace)
{
	struct fixture f;
	uint8_t id[4096], all[4096], made[4096] = {0}, list[4096] = {0};
	struct rcl_ns_request create = {.action = RCL_NS_CREATE, .bytes = 8 << 20, .lbaf = 1};
	struct rcl_ns_request attach = {.action = RCL_NS_ATTACH, .nsid = 5};
	struct rcl_error err = {0};

	fixture_init(&f);
	id_ctrl(id);
	id_ns(all, 0);
	/* 8 MiB in format 1: 2048 blocks of 4096 bytes (NSZE, NCAP, FLBAS 1). */
	spec_le(made, 2048, 8);
	spec_le(made + 8, 2048, 8);
	made[26] = 1;
	struct shim_cmd created[] = {
	    spec_identify(1, 0, id),
	    spec_identify(0, 0xffffffff, all),
	    {.opcode = SPEC_NS_MGMT, .cdw10 = 0, .data_len = 4096, .in_data = made, .result = 5},
	};
	shim_expect(f.drive.path, 1, created, 3);
	SHIM_OK(rcl_nvme_drive_namespace(&f.ctrl, &s0, &create, &err));
	ck_assert_uint_eq(create.nsid, 5);
	SHIM_SENT();
	/* Attached to the controller the path is open on: its CNTLID, 7. */
	spec_le(list, 1, 2);
	spec_le(list + 2, 7, 2);
	struct shim_cmd attached[] = {
	    spec_identify(1, 0, id),
	    {.opcode = SPEC_NS_ATTACH, .nsid = 5, .cdw10 = 0, .data_len = 4096, .in_data = list},
	};
	shim_expect(f.drive.path, 1, attached, 2);
	SHIM_OK(rcl_nvme_drive_namespace(&f.ctrl, &s0, &attach, &err));
	SHIM_SENT();
	/* A size that is no whole number of blocks: refused before the command. */
	create.bytes = 4096 + 512;
	shim_expect(f.drive.path, 1, created, 2);
	ck_assert_int_eq(rcl_nvme_drive_namespace(&f.ctrl, &s0, &create, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "a namespace of 4608 bytes is not a whole number of LBA format "
	                          "1's 4096-byte blocks");
	SHIM_SENT();
	fixture_release(&f);
}
END_TEST

static Suite *actions_suite(void)
{
	Suite *s = suite_create("nvme-actions");
	TCase *tc = tcase_create("actions");

	tcase_add_test(tc, test_format_by_block_size);
	tcase_add_test(tc, test_fw_download_commit);
	tcase_add_test(tc, test_namespace);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(actions_suite());
}
