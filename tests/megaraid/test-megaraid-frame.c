// SPDX-License-Identifier: MIT
/*
 * test-megaraid-frame.c - the MEGASAS_IOC_FIRMWARE packets frame.c builds,
 * read back at the byte offsets of the public interface
 * (research/passthrough.md section 4.2 and 4.3), the firmware status
 * names and statuses it gives, and its reads' presets against the fake
 * card (mfi-shim.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "megaraid/frame.h"
#include "mfi-host.h"

static uint64_t le(const uint8_t *p, int width)
{
	uint64_t v = 0;

	for (int i = width - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

START_TEST(test_ioctl_number)
{
	ck_assert_uint_eq(sizeof(struct rcl_mfi_packet), 404);
	ck_assert_uint_eq(RCL_MFI_IOC_FIRMWARE, 0xc1944d01ul);
}
END_TEST

START_TEST(test_build_dcmd)
{
	uint8_t buf[512], raw[sizeof(struct rcl_mfi_packet)];
	struct rcl_mfi_dcmd d = {.opcode = 0x02020000,
	                         .mbox = {0x00, 0x01},
	                         .buf = buf,
	                         .len = sizeof(buf),
	                         .dir = RCL_MFI_DIR_READ};
	struct rcl_mfi_packet pkt;
	const uint8_t *f = raw + 20;
	struct iovec iov;

	memset(&pkt, 0xaa, sizeof(pkt));
	rcl_mfi_build_dcmd(&pkt, 7, &d);
	memcpy(raw, &pkt, sizeof(raw));
	ck_assert_uint_eq(le(raw, 2), 7);       /* host_no */
	ck_assert_uint_eq(le(raw + 4, 4), 40);  /* sgl_off: after the mailbox */
	ck_assert_uint_eq(le(raw + 8, 4), 1);   /* sge_count */
	ck_assert_uint_eq(le(raw + 12, 8), 0);  /* no sense */
	ck_assert_uint_eq(f[0], 0x05);          /* DCMD */
	ck_assert_uint_eq(f[2], 0xff);          /* cmd_status preset: nothing answered yet */
	ck_assert_uint_eq(f[7], 1);             /* the frame's sge_count */
	ck_assert_uint_eq(le(f + 16, 2), 0x10); /* read */
	ck_assert_uint_eq(le(f + 20, 4), 512);  /* data_len */
	ck_assert_uint_eq(le(f + 24, 4), 0x02020000);
	ck_assert_uint_eq(le(f + 28, 2), 0x0100);
	for (int i = 30; i < 128; i++)
		ck_assert_uint_eq(f[i], 0);
	memcpy(&iov, raw + 148, sizeof(iov));
	ck_assert_ptr_eq(iov.iov_base, buf);
	ck_assert_uint_eq(iov.iov_len, 512);
	for (size_t i = 148 + sizeof(iov); i < sizeof(raw); i++)
		ck_assert_uint_eq(raw[i], 0);
}
END_TEST

/* A DCMD without data has no SGE and no direction. */
START_TEST(test_build_dcmd_no_data)
{
	struct rcl_mfi_dcmd d = {.opcode = 0x01101000, .mbox = {1}};
	struct rcl_mfi_packet pkt;

	rcl_mfi_build_dcmd(&pkt, 0, &d);
	ck_assert_uint_eq(pkt.sge_count, 0);
	ck_assert_uint_eq(pkt.frame.raw[7], 0);
	ck_assert_uint_eq(pkt.frame.raw[16], 0);
	ck_assert_uint_eq(pkt.frame.raw[28], 1);
}
END_TEST

START_TEST(test_build_scsi)
{
	uint8_t buf[96], sense[32], raw[sizeof(struct rcl_mfi_packet)];
	struct rcl_mfi_scsi s = {.target = 3,
	                         .lun = 1,
	                         .cdb = {0x12, 0, 0, 0, 96},
	                         .cdb_len = 6,
	                         .buf = buf,
	                         .len = sizeof(buf),
	                         .dir = RCL_MFI_DIR_READ,
	                         .sense = sense,
	                         .sense_len = sizeof(sense)};
	struct rcl_mfi_packet pkt;
	const uint8_t *f = raw + 20;

	rcl_mfi_build_scsi(&pkt, 2, &s);
	memcpy(raw, &pkt, sizeof(raw));
	ck_assert_uint_eq(le(raw + 4, 4), 48);  /* sgl_off: after the CDB */
	ck_assert_uint_eq(le(raw + 12, 4), 24); /* sense_off: the frame's sense address */
	ck_assert_uint_eq(le(raw + 16, 4), 32);
	ck_assert_uint_eq(f[0], 0x04); /* PD SCSI I/O */
	ck_assert_uint_eq(f[1], 32);
	ck_assert_uint_eq(f[4], 3);
	ck_assert_uint_eq(f[5], 1);
	ck_assert_uint_eq(f[6], 6);
	ck_assert_uint_eq(le(f + 24, 8), (uint64_t)(uintptr_t)sense);
	ck_assert_uint_eq(f[32], 0x12);
	ck_assert_uint_eq(f[36], 96);
	ck_assert_uint_eq(le(f + 20, 4), 96);
}
END_TEST

START_TEST(test_status_names)
{
	ck_assert_str_eq(rcl_mfi_status_name(0x00), "OK");
	ck_assert_str_eq(rcl_mfi_status_name(0x01), "INVALID_CMD");
	ck_assert_str_eq(rcl_mfi_status_name(0x02), "INVALID_DCMD");
	ck_assert_str_eq(rcl_mfi_status_name(0x03), "INVALID_PARAMETER");
	ck_assert_str_eq(rcl_mfi_status_name(0x0c), "DEVICE_NOT_FOUND");
	ck_assert_str_eq(rcl_mfi_status_name(0x20), "MEMORY_NOT_AVAILABLE");
	ck_assert_str_eq(rcl_mfi_status_name(0x2d), "SCSI_DONE_WITH_ERROR");
	ck_assert_str_eq(rcl_mfi_status_name(0x32), "WRONG_STATE");
	ck_assert_str_eq(rcl_mfi_status_name(0x3f), "PD_COPYBACK_IN_PROGRESS");
	ck_assert_str_eq(rcl_mfi_status_name(0xff), "INVALID_STATUS");
	ck_assert_ptr_null(rcl_mfi_status_name(0x90));
}
END_TEST

START_TEST(test_fail)
{
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_mfi_fail(&err, 0, "x"), RCL_OK);
	ck_assert_int_eq(err.status, RCL_OK);
	ck_assert_int_eq(rcl_mfi_fail(&err, 0x32, "starting a rebuild"), RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg, "starting a rebuild failed: the controller answered WRONG_STATE "
	                          "(MFI status 0x32)");
	ck_assert_str_eq(err.detail, "WRONG_STATE (MFI status 0x32)");
	ck_assert_int_eq(rcl_mfi_fail(&err, 0x90, "x"), RCL_SYSTEM);
	ck_assert_str_eq(err.detail, "unknown status (MFI status 0x90)");
}
END_TEST

/* A CDB over the frame's 16 bytes is refused before any frame is built or sent. */
START_TEST(test_scsi_cdb_too_long)
{
	uint8_t buf[32];
	struct rcl_mfi_scsi s = {.cdb = {0x9e, 0x10},
	                         .cdb_len = RCL_MFI_CDB_MAX + 1,
	                         .buf = buf,
	                         .len = sizeof(buf),
	                         .dir = RCL_MFI_DIR_READ};
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_mfi_scsi(-1, 0, &s, "READ CAPACITY", &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "READ CAPACITY: a CDB of 17 bytes (at most 16)");
	/* 16 bytes fit: the frame goes to the ioctl (here on no descriptor). */
	s.cdb_len = RCL_MFI_CDB_MAX;
	ck_assert_int_eq(rcl_mfi_scsi(-1, 0, &s, "READ CAPACITY", &err), RCL_SYSTEM);
	ck_assert_int_eq(err.sys_errno, EBADF);
}
END_TEST

/* Whether the @len bytes at @p are all @byte. */
static bool all(const void *p, size_t len, uint8_t byte)
{
	for (size_t i = 0; i < len; i++)
		if (((const uint8_t *)p)[i] != byte)
			return false;
	return true;
}

/*
 * rcl_mfi_read_mbox() sends its mailbox as given; a reply QEMU's dummy
 * answers OK and leaves unwritten reads as its preset says: zeros, taken
 * (model.c's and events.c's reads), or RCL_MFI_UNWRITTEN, refused
 * (rcl_mfi_read()'s).
 */
START_TEST(test_read_presets)
{
	struct rcl_mfi_ld_info ld;
	struct rcl_error err = {0};
	struct host h;
	char *node;
	int fd;

	host_init(&h, MAJOR_NOW);
	node = unit_path(h.root, "dev/megaraid_sas_ioctl_node");
	fd = open(node, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	const struct rcl_mfi_link link = {.fd = fd, .host_no = 2};

	memset(&ld, 0xa5, sizeof(ld));
	ck_assert_int_eq(rcl_mfi_read_mbox(&link, RCL_MFI_DCMD_LD_GET_INFO, RCL_MFI_MBOX_U16(1),
	                                   RCL_MFI_PRESET_ZERO, &ld, sizeof(ld), "LD_GET_INFO",
	                                   &err),
	                 RCL_OK);
	ck_assert_uint_eq(ld.target_id, 1);

	mfi_shim_break(RCL_MFI_DCMD_LD_GET_INFO, MFI_SHIM_DUMMY, 0);
	memset(&ld, 0xa5, sizeof(ld));
	ck_assert_int_eq(rcl_mfi_read_mbox(&link, RCL_MFI_DCMD_LD_GET_INFO, RCL_MFI_MBOX_U16(1),
	                                   RCL_MFI_PRESET_ZERO, &ld, sizeof(ld), "LD_GET_INFO",
	                                   &err),
	                 RCL_OK);
	ck_assert(all(&ld, sizeof(ld), 0));
	memset(&ld, 0xa5, sizeof(ld));
	ck_assert_int_eq(rcl_mfi_read_mbox(&link, RCL_MFI_DCMD_LD_GET_INFO, RCL_MFI_MBOX_U16(1),
	                                   RCL_MFI_PRESET_UNWRITTEN, &ld, sizeof(ld), "LD_GET_INFO",
	                                   &err),
	                 RCL_BAD_REPLY);
	ck_assert_str_eq(err.msg,
	                 "LD_GET_INFO failed: the controller answered OK but wrote no reply");
	ck_assert(all(&ld, sizeof(ld), RCL_MFI_UNWRITTEN));
	ck_assert_uint_eq(mfi_shim_sent(RCL_MFI_DCMD_LD_GET_INFO), 3);

	close(fd);
	free(node);
	host_done(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("megaraid-frame");
	TCase *tc = tcase_create("frame");

	tcase_add_test(tc, test_ioctl_number);
	tcase_add_test(tc, test_build_dcmd);
	tcase_add_test(tc, test_build_dcmd_no_data);
	tcase_add_test(tc, test_build_scsi);
	tcase_add_test(tc, test_status_names);
	tcase_add_test(tc, test_fail);
	tcase_add_test(tc, test_scsi_cdb_too_long);
	tcase_add_test(tc, test_read_presets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(suite());
}
