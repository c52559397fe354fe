// SPDX-License-Identifier: MIT
/*
 * test-nvme-admin.c - the nvme backend's admin commands (lib/nvme/
 * admin.c) against a drive played by the ioctl shim (nvme-shim.h): every
 * command checked field by field, and the firmware image byte by byte,
 * against the NVMe specification (spec.h); replies built from it. QEMU
 * 7.2 answers Invalid Opcode to firmware download and commit, sanitize,
 * self-test and namespace create, and has no telemetry: these fakes stand
 * in for a drive that has them, and for the error statuses of each class
 * that no emulated drive can be made to answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvme/admin.h"
#include "spec.h"
#include "unit.h"

/* A drive: a file in a throwaway directory, open, that the shim answers for. */
struct drive {
	char *dir;
	char *path;
	int fd;
};

static void drive_open(struct drive *d)
{
	d->dir = unit_tmpdir();
	d->path = unit_path(d->dir, "nvme0");
	unit_write(d->path, "");
	d->fd = open(d->path, O_RDONLY);
	ck_assert_int_ge(d->fd, 0);
}

static void drive_close(struct drive *d)
{
	close(d->fd);
	unit_rmrf(d->dir);
	free(d->path);
	free(d->dir);
}

/* The drive got exactly its list of commands. */

/* An Identify Controller page from the specification's offsets, as libnvme reads it. */
static struct nvme_id_ctrl id_ctrl(unsigned oacs, uint8_t mdts, uint8_t frmw, uint8_t lpa,
                                   uint8_t fwug, uint32_t sanicap, uint8_t fna)
{
	uint8_t page[4096] = {0};
	struct nvme_id_ctrl id;

	page[SPEC_IDC_MDTS] = mdts;
	spec_le(page + SPEC_IDC_CNTLID, 1, 2);
	spec_le(page + SPEC_IDC_OACS, oacs, 2);
	page[SPEC_IDC_FRMW] = frmw;
	page[SPEC_IDC_LPA] = lpa;
	page[SPEC_IDC_FWUG] = fwug;
	spec_le(page + SPEC_IDC_SANICAP, sanicap, 4);
	page[SPEC_IDC_FNA] = fna;
	ck_assert_uint_eq(sizeof(id), sizeof(page));
	memcpy(&id, page, sizeof(id));
	return id;
}

/* OACS bits: format (1), firmware (2), namespace management (3), self-test (4). */
#define OACS_ALL (1u << 1 | 1u << 2 | 1u << 3 | 1u << 4)
/* FRMW: 3 slots, slot 1 read-only. */
#define FRMW_3_RO (3u << 1 | 1u)

/* A firmware file of @len bytes 0, 1, 2, ... in @d's directory; the caller frees it. */
static char *fw_file(const struct drive *d, size_t len, uint8_t **bytes)
{
	char *path = unit_path(d->dir, "fw.bin");
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	*bytes = malloc(len + 1);
	ck_assert_ptr_nonnull(*bytes);
	for (size_t i = 0; i < len; i++)
		(*bytes)[i] = (uint8_t)(i * 7 + 1);
	ck_assert_int_eq(write(fd, *bytes, len), (ssize_t)len);
	close(fd);
	return path;
}

START_TEST(test_fw_chunk)
{
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 0, 0, 0, 0, 0, 0);

	ck_assert_uint_eq(rcl_nvme_fw_chunk(&id), 64 << 10); /* no MDTS: raidcli's own size */
	id = id_ctrl(OACS_ALL, 1, 0, 0, 0, 0, 0);
	ck_assert_uint_eq(rcl_nvme_fw_chunk(&id), 8192); /* MDTS 1: 2 pages of 4 KiB */
	id = id_ctrl(OACS_ALL, 5, 0, 0, 3, 0, 0);
	ck_assert_uint_eq(rcl_nvme_fw_chunk(&id),
	                  5 * 12288); /* in 64 KiB, a multiple of FWUG's 12 KiB */
	id = id_ctrl(OACS_ALL, 1, 0, 0, 4, 0, 0);
	ck_assert_uint_eq(rcl_nvme_fw_chunk(&id), 0); /* 16 KiB granularity, 8 KiB transfers */
	id = id_ctrl(OACS_ALL, 1, 0, 0, 0xff, 0, 0);
	ck_assert_uint_eq(rcl_nvme_fw_chunk(&id), 8192);
}
END_TEST

START_TEST(test_fw_download)
{
	struct drive d;
	uint8_t *image;
	char *path;
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, FRMW_3_RO, 0, 0, 0, 0);
	struct rcl_error err = {0};

	drive_open(&d);
	path = fw_file(&d, 20480, &image);
	/* 20 KiB in transfers of 8 KiB (MDTS 1): two whole, one of 4 KiB. */
	struct shim_cmd cmds[] = {
	    spec_fw_download(0, 8192, image),
	    spec_fw_download(8192, 8192, image + 8192),
	    spec_fw_download(16384, 4096, image + 16384),
	};
	shim_expect(d.path, 1, cmds, 3);
	SHIM_OK(rcl_nvme_fw_download(d.fd, &id, path, &err));
	SHIM_SENT();
	free(image);
	free(path);
	drive_close(&d);
}
END_TEST

START_TEST(test_fw_download_refused_file)
{
	struct drive d;
	uint8_t *image;
	char *path;
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, FRMW_3_RO, 0, 0, 0, 0);
	struct rcl_error err = {0};

	drive_open(&d);
	/* Not a whole number of dwords: refused before any command. */
	path = fw_file(&d, 4097, &image);
	shim_expect(d.path, 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_fw_download(d.fd, &id, path, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "is 4097 bytes: an NVMe firmware image is a whole "
	                                      "number of 4-byte dwords"));
	SHIM_SENT();
	free(image);
	free(path);
	/* Empty. */
	path = fw_file(&d, 0, &image);
	ck_assert_int_eq(rcl_nvme_fw_download(d.fd, &id, path, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "is 0 bytes"));
	SHIM_SENT();
	free(image);
	free(path);
	/* Not there; a directory. */
	ck_assert_int_eq(rcl_nvme_fw_download(d.fd, &id, "/nonexistent/fw.bin", &err),
	                 RCL_NOT_FOUND);
	ck_assert_int_eq(rcl_nvme_fw_download(d.fd, &id, d.dir, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "is not a regular file"));
	/* A drive without firmware commands. */
	id = id_ctrl(1u << 1, 1, FRMW_3_RO, 0, 0, 0, 0);
	path = fw_file(&d, 4096, &image);
	ck_assert_int_eq(rcl_nvme_fw_download(d.fd, &id, path, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "firmware download is not supported by this controller (nvme); "
	                          "the drive has no firmware commands (OACS)");
	SHIM_SENT();
	free(image);
	free(path);
	drive_close(&d);
}
END_TEST

START_TEST(test_fw_download_error)
{
	struct drive d;
	uint8_t *image;
	char *path;
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, FRMW_3_RO, 0, 0, 0, 0);
	struct rcl_error err = {0};

	drive_open(&d);
	path = fw_file(&d, 16384, &image);
	struct shim_cmd cmds[] = {
	    spec_fw_download(0, 8192, image),
	    spec_fw_download(8192, 8192, image + 8192),
	};
	/* The drive refuses the second part: Overlapping Range (SCT 1, SC 0x14), DNR. */
	cmds[1].status = SPEC_STATUS(1, 0x14, 1);
	shim_expect(d.path, 1, cmds, 2);
	ck_assert_int_eq(rcl_nvme_fw_download(d.fd, &id, path, &err), RCL_NOT_ALLOWED);
	ck_assert_str_eq(err.msg,
	                 "firmware download at offset 8192 of 16384 bytes failed: "
	                 "Overlapping Range: The downloaded firmware image has overlapping "
	                 "ranges (NVMe status 0x4114: SCT 0x1 command "
	                 "specific, SC 0x14, DNR)");
	SHIM_SENT();
	free(image);
	free(path);
	drive_close(&d);
}
END_TEST

START_TEST(test_fw_commit)
{
	struct drive d;
	bool reset;
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, FRMW_3_RO, 0, 0, 0, 0);
	struct rcl_error err = {0};
	struct shim_cmd ok[] = {spec_fw_commit(2, 1, 0)};
	/* Firmware Activation Requires Conventional Reset: committed, runs after a reset. */
	struct shim_cmd needs_reset[] = {spec_fw_commit(3, 1, SPEC_STATUS(1, 0x0b, 0))};
	struct shim_cmd bad_image[] = {spec_fw_commit(2, 0, SPEC_STATUS(1, 0x07, 1))};

	drive_open(&d);
	shim_expect(d.path, 1, ok, 1);
	SHIM_OK(rcl_nvme_fw_commit(d.fd, &id, 2, 1, &reset, &err));
	ck_assert(!reset);
	SHIM_SENT();
	shim_expect(d.path, 1, needs_reset, 1);
	SHIM_OK(rcl_nvme_fw_commit(d.fd, &id, 3, 1, &reset, &err));
	ck_assert(reset);
	SHIM_SENT();
	shim_expect(d.path, 1, bad_image, 1);
	ck_assert_int_eq(rcl_nvme_fw_commit(d.fd, &id, 2, 0, &reset, &err), RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg, "firmware commit to slot 2 failed: Invalid Firmware "
	                                      "Image"));
	ck_assert_ptr_nonnull(strstr(err.msg, "SCT 0x1 command specific, SC 0x07, DNR)"));
	/* The drive's status alone, for the Detailed Status's ErrMsg. */
	ck_assert_str_eq(err.detail, "Invalid Firmware Image (SCT 0x1, SC 0x07, DNR)");
	SHIM_SENT();
	/* Refused before any command: the read-only slot, a slot it lacks, a bad action. */
	shim_expect(d.path, 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_fw_commit(d.fd, &id, 1, 0, &reset, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg,
	                 "firmware slot 1 is read-only: commit to slot 2-3, or activate it");
	ck_assert_int_eq(rcl_nvme_fw_commit(d.fd, &id, 4, 1, &reset, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "firmware slot 4 does not exist: the drive has slots 1-3");
	ck_assert_int_eq(rcl_nvme_fw_commit(d.fd, &id, 2, 6, &reset, &err), RCL_INVALID_PARAM);
	SHIM_SENT();
	drive_close(&d);
}
END_TEST

START_TEST(test_sanitize)
{
	struct drive d;
	/* SANICAP: block erase and overwrite, no crypto erase. */
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, 0, 0, 0, 1u << 1 | 1u << 2, 0);
	struct rcl_error err = {0};
	struct shim_cmd block[] = {spec_sanitize(2, 0, 0)};
	struct shim_cmd overwrite[] = {spec_sanitize(3, 1, 0)};
	/* Sanitize Prohibited While Persistent Memory Region is Enabled (SCT 1, SC 0x23). */
	struct shim_cmd refused[] = {spec_sanitize(2, 0, SPEC_STATUS(1, 0x23, 1))};

	drive_open(&d);
	shim_expect(d.path, 1, block, 1);
	SHIM_OK(rcl_nvme_sanitize(d.fd, &id, RCL_NVME_SANITIZE_BLOCK, &err));
	SHIM_SENT();
	shim_expect(d.path, 1, overwrite, 1);
	SHIM_OK(rcl_nvme_sanitize(d.fd, &id, RCL_NVME_SANITIZE_OVERWRITE, &err));
	SHIM_SENT();
	shim_expect(d.path, 1, refused, 1);
	ck_assert_int_eq(rcl_nvme_sanitize(d.fd, &id, RCL_NVME_SANITIZE_BLOCK, &err),
	                 RCL_NOT_ALLOWED);
	ck_assert_ptr_nonnull(
	    strstr(err.msg, "sanitize by block erase failed: Sanitize Prohibited"));
	SHIM_SENT();
	/* A method SANICAP lacks: refused, naming those it has, with nothing sent. */
	shim_expect(d.path, 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_sanitize(d.fd, &id, RCL_NVME_SANITIZE_CRYPTO, &err),
	                 RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "sanitize by crypto erase is not supported by this controller "
	                          "(nvme); the drive offers block erase, overwrite");
	id = id_ctrl(OACS_ALL, 1, 0, 0, 0, 0, 0);
	ck_assert_int_eq(rcl_nvme_sanitize(d.fd, &id, RCL_NVME_SANITIZE_BLOCK, &err),
	                 RCL_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "offers no sanitize (SANICAP)"));
	SHIM_SENT();
	drive_close(&d);
}
END_TEST

START_TEST(test_self_test)
{
	struct drive d;
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, 0, 0, 0, 0, 0);
	struct rcl_error err = {0};
	struct shim_cmd cmds[] = {
	    spec_self_test(0xffffffff, 1, 0),
	    spec_self_test(0xffffffff, 0xf, 0),
	    spec_self_test(1, 2, 0),
	};

	drive_open(&d);
	shim_expect(d.path, 1, cmds, 3);
	SHIM_OK(rcl_nvme_self_test(d.fd, &id, 0xffffffff, 1, &err));
	SHIM_OK(rcl_nvme_self_test(d.fd, &id, 0xffffffff, 0xf, &err));
	SHIM_OK(rcl_nvme_self_test(d.fd, &id, 1, 2, &err));
	SHIM_SENT();
	shim_expect(d.path, 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_self_test(d.fd, &id, 1, 3, &err), RCL_INVALID_PARAM);
	/* What QEMU 7.2 is: no self-test in OACS. */
	id = id_ctrl(1u << 1 | 1u << 3, 7, 0, 0, 0, 0, 0);
	ck_assert_int_eq(rcl_nvme_self_test(d.fd, &id, 1, 1, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "self-test is not supported by this controller (nvme); the drive "
	                          "has no Device Self-test command (OACS)");
	SHIM_SENT();
	drive_close(&d);
}
END_TEST

/*
 * One status of each status code type, as a self-test start's answer: its
 * name, SCT and SC in the message, and the raidcli status it maps to.
 */
START_TEST(test_status_classes)
{
	static const struct {
		int status;
		enum rcl_status want;
		const char *text;
	} cases[] = {
	    {SPEC_STATUS(0, 0x01, 1), RCL_UNSUPPORTED,
	     "self-test start failed: Invalid Command Opcode: A reserved coded value or an "
	     "unsupported value in the command opcode field (NVMe status 0x4001: SCT 0x0 generic, "
	     "SC 0x01, DNR)"},
	    {SPEC_STATUS(0, 0x02, 1), RCL_INVALID_PARAM, "Invalid Field in Command"},
	    {SPEC_STATUS(0, 0x0b, 1), RCL_NOT_FOUND, "Invalid Namespace or Format"},
	    {SPEC_STATUS(0, 0x1d, 0), RCL_NOT_ALLOWED, "Sanitize In Progress"},
	    {SPEC_STATUS(1, 0x1d, 0), RCL_NOT_ALLOWED,
	     "Device Self-test In Progress: The controller or NVM subsystem already has a device "
	     "self-test operation in process (NVMe status 0x011d: SCT 0x1 command specific, "
	     "SC 0x1d)"},
	    {SPEC_STATUS(2, 0x81, 1), RCL_SYSTEM, "SCT 0x2 media and data integrity, SC 0x81"},
	    {SPEC_STATUS(3, 0x00, 0), RCL_SYSTEM, "SCT 0x3 path related, SC 0x00"},
	    {SPEC_STATUS(7, 0x42, 1), RCL_SYSTEM,
	     "Vendor Specific Status (NVMe status 0x4742: SCT 0x7 vendor specific, SC 0x42, DNR)"},
	    {-EIO, RCL_SYSTEM, "self-test start failed: Input/output error"},
	};
	struct drive d;
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, 0, 0, 0, 0, 0);
	struct rcl_error err = {0};

	drive_open(&d);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct shim_cmd cmd = spec_self_test(0xffffffff, 1, cases[i].status);

		shim_expect(d.path, 1, &cmd, 1);
		ck_assert_int_eq(rcl_nvme_self_test(d.fd, &id, 0xffffffff, 1, &err), cases[i].want);
		ck_assert_msg(strstr(err.msg, cases[i].text), "case %zu: '%s'", i, err.msg);
		/* Only a status the drive answered is the device's own. */
		ck_assert_int_eq(err.detail[0] != '\0', cases[i].status > 0);
		if (i == 0)
			ck_assert_str_eq(err.detail,
			                 "Invalid Command Opcode (SCT 0x0, SC 0x01, DNR)");
		SHIM_SENT();
	}
	drive_close(&d);
}
END_TEST

START_TEST(test_not_nvme)
{
	struct drive d;
	struct nvme_id_ctrl id;
	struct rcl_error err = {0};

	/* A file the shim does not answer for reaches the real ioctl: ENOTTY. */
	drive_open(&d);
	shim_expect("/nonexistent", 0, NULL, 0);
	ck_assert_int_eq(rcl_nvme_identify_ctrl(d.fd, &id, &err), RCL_UNSUPPORTED);
	ck_assert_str_eq(err.msg, "identify controller failed: not an NVMe device (Inappropriate "
	                          "ioctl for device)");
	ck_assert_int_eq(err.sys_errno, ENOTTY);
	drive_close(&d);
}
END_TEST

/* A 512-byte telemetry header (log 0x07) ending data areas 1-3 at @a1, @a2, @a3. */
static void telemetry_header(uint8_t *hdr, unsigned a1, unsigned a2, unsigned a3)
{
	memset(hdr, 0, 512);
	hdr[0] = 0x07;
	spec_le(hdr + 8, a1, 2);
	spec_le(hdr + 10, a2, 2);
	spec_le(hdr + 12, a3, 2);
}

START_TEST(test_telemetry)
{
	struct drive d;
	/* LPA bit 3: telemetry. */
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, 0, 1u << 3, 0, 0, 0);
	struct rcl_error err = {0};
	uint8_t hdr[512], data[10 * 512];
	uint64_t bytes;
	char *out, *want, *got;

	drive_open(&d);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i % 251);
	telemetry_header(hdr, 3, 10, 12);
	/*
	 * Area 2: the header created (LSP 1), then blocks 1-10 as captured
	 * (LSP 0) from byte 512, in 4 KiB reads.
	 */
	struct shim_cmd cmds[] = {
	    spec_get_log(0x07, 1, 0, 0, 512, hdr),
	    spec_get_log(0x07, 0, 0, 512, 4096, data),
	    spec_get_log(0x07, 0, 0, 4608, 1024, data + 4096),
	};
	out = unit_path(d.dir, "telemetry.bin");
	shim_expect(d.path, 1, cmds, 3);
	SHIM_OK(rcl_nvme_telemetry_capture(d.fd, &id, out, 2, &bytes, &err));
	SHIM_SENT();
	ck_assert_uint_eq(bytes, 11 * 512);
	want = malloc(11 * 512);
	memcpy(want, hdr, 512);
	memcpy(want + 512, data, 10 * 512);
	got = malloc(11 * 512 + 1);
	int fd = open(out, O_RDONLY);
	ck_assert_int_eq(read(fd, got, 11 * 512 + 1), 11 * 512);
	close(fd);
	ck_assert_mem_eq(got, want, 11 * 512);

	/* The file is there now: refused before any command. */
	shim_expect(d.path, 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_telemetry_capture(d.fd, &id, out, 1, &bytes, &err), RCL_EXISTS);
	SHIM_SENT();
	unlink(out);

	/* A header whose area 2 ends before area 1: refused, and no file left. */
	telemetry_header(hdr, 3, 2, 12);
	struct shim_cmd bad[] = {spec_get_log(0x07, 1, 0, 0, 512, hdr)};
	shim_expect(d.path, 1, bad, 1);
	ck_assert_int_eq(rcl_nvme_telemetry_capture(d.fd, &id, out, 2, &bytes, &err), RCL_CORRUPT);
	ck_assert(!unit_exists(out));
	SHIM_SENT();

	/* What QEMU 7.2 answers for the telemetry log: Invalid Field. */
	struct shim_cmd qemu[] = {spec_get_log(0x07, 1, 0, 0, 512, NULL)};
	qemu[0].status = SPEC_STATUS(0, 0x02, 1);
	shim_expect(d.path, 1, qemu, 1);
	ck_assert_int_eq(rcl_nvme_telemetry_capture(d.fd, &id, out, 1, &bytes, &err),
	                 RCL_INVALID_PARAM);
	ck_assert_ptr_nonnull(strstr(err.msg,
	                             "reading the telemetry header (log page 0x07) failed: "
	                             "Invalid Field in Command"));
	ck_assert(!unit_exists(out));
	SHIM_SENT();

	/* No telemetry in LPA. */
	id = id_ctrl(OACS_ALL, 1, 0, 0, 0, 0, 0);
	shim_expect(d.path, 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_telemetry_capture(d.fd, &id, out, 1, &bytes, &err),
	                 RCL_UNSUPPORTED);
	ck_assert(!unit_exists(out));
	SHIM_SENT();
	free(want);
	free(got);
	free(out);
	drive_close(&d);
}
END_TEST

/* An Identify Namespace page: @blocks blocks, formats 512 and 4096 bytes, @flbas in use. */
static void id_ns(uint8_t *page, uint64_t blocks, uint8_t flbas)
{
	memset(page, 0, 4096);
	spec_le(page, blocks, 8);
	spec_le(page + 8, blocks, 8);
	page[25] = 1; /* NLBAF: 2 formats, 0-based */
	page[26] = flbas;
	page[128 + 2] = 9;  /* LBAF 0: 2^9 bytes */
	page[132 + 2] = 12; /* LBAF 1: 2^12 bytes */
}

START_TEST(test_format)
{
	struct drive d;
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, 0, 0, 0, 0, 0);
	struct rcl_error err = {0};
	uint8_t ns[4096], none[4096] = {0};
	struct shim_cmd to4k[] = {
	    spec_identify(0, 1, ns),
	    spec_format(1, 1, 0, RCL_NVME_LONG_TIMEOUT_MS, 0),
	};
	struct shim_cmd bad_lbaf[] = {spec_identify(0, 1, ns)};
	struct shim_cmd inactive[] = {spec_identify(0, 7, none)};
	struct shim_cmd invalid_ns[] = {spec_identify(0, 99, NULL)};

	drive_open(&d);
	id_ns(ns, 1 << 20, 0);
	shim_expect(d.path, 1, to4k, 2);
	SHIM_OK(rcl_nvme_format(d.fd, &id, 1, 1, 0, &err));
	SHIM_SENT();
	/* A format the namespace does not have: refused, listing those it has. */
	shim_expect(d.path, 1, bad_lbaf, 1);
	ck_assert_int_eq(rcl_nvme_format(d.fd, &id, 1, 4, 0, &err), RCL_INVALID_PARAM);
	ck_assert_str_eq(err.msg, "LBA format 4 is not one namespace 1 has (0: 512, 1: 4096 bytes "
	                          "per block)");
	SHIM_SENT();
	/* A namespace id no namespace has: zeroes, or Invalid Namespace. */
	shim_expect(d.path, 1, inactive, 1);
	ck_assert_int_eq(rcl_nvme_format(d.fd, &id, 7, 0, 0, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "namespace 7 does not exist on this controller");
	SHIM_SENT();
	invalid_ns[0].status = SPEC_STATUS(0, 0x0b, 1);
	shim_expect(d.path, 1, invalid_ns, 1);
	ck_assert_int_eq(rcl_nvme_format(d.fd, &id, 99, 0, 0, &err), RCL_NOT_FOUND);
	ck_assert_ptr_nonnull(strstr(err.msg, "identify namespace 99 failed: Invalid Namespace or "
	                                      "Format"));
	SHIM_SENT();
	/* Crypto erase without FNA's bit, a bad SES, nsid 0: nothing sent. */
	shim_expect(d.path, 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_format(d.fd, &id, 1, 0, 2, &err), RCL_UNSUPPORTED);
	ck_assert_int_eq(rcl_nvme_format(d.fd, &id, 1, 0, 3, &err), RCL_INVALID_PARAM);
	ck_assert_int_eq(rcl_nvme_format(d.fd, &id, 0, 0, 0, &err), RCL_INVALID_PARAM);
	SHIM_SENT();
	drive_close(&d);
}
END_TEST

START_TEST(test_namespaces)
{
	struct drive d;
	struct nvme_id_ctrl id = id_ctrl(OACS_ALL, 1, 0, 0, 0, 0, 0);
	struct rcl_error err = {0};
	uint8_t list[4096] = {0}, ns[4096] = {0};
	uint32_t nsid = 0;

	/* A controller list of one: the count, then controller 3. */
	spec_le(list, 1, 2);
	spec_le(list + 2, 3, 2);
	/* A namespace of 1000 blocks (NSZE, NCAP) in format 1. */
	spec_le(ns, 1000, 8);
	spec_le(ns + 8, 1000, 8);
	ns[26] = 1;
	struct shim_cmd cmds[] = {
	    {.opcode = SPEC_NS_ATTACH, .nsid = 2, .cdw10 = 0, .data_len = 4096, .in_data = list},
	    {.opcode = SPEC_NS_ATTACH, .nsid = 2, .cdw10 = 1, .data_len = 4096, .in_data = list},
	    {.opcode = SPEC_NS_MGMT, .cdw10 = 0, .data_len = 4096, .in_data = ns, .result = 5},
	    {.opcode = SPEC_NS_MGMT, .nsid = 5, .cdw10 = 1},
	    /* Namespace Already Attached (SCT 1, SC 0x18). */
	    {.opcode = SPEC_NS_ATTACH,
	     .nsid = 2,
	     .data_len = 4096,
	     .in_data = list,
	     .status = SPEC_STATUS(1, 0x18, 1)},
	};

	drive_open(&d);
	shim_expect(d.path, 1, cmds, 5);
	SHIM_OK(rcl_nvme_ns_attach(d.fd, &id, 2, 3, true, &err));
	SHIM_OK(rcl_nvme_ns_attach(d.fd, &id, 2, 3, false, &err));
	SHIM_OK(rcl_nvme_ns_create(d.fd, &id, 1000, 1, &nsid, &err));
	ck_assert_uint_eq(nsid, 5);
	SHIM_OK(rcl_nvme_ns_delete(d.fd, &id, 5, &err));
	ck_assert_int_eq(rcl_nvme_ns_attach(d.fd, &id, 2, 3, true, &err), RCL_NOT_ALLOWED);
	ck_assert_ptr_nonnull(strstr(err.msg, "attach of namespace 2 to controller 3 failed: "
	                                      "Namespace Already Attached"));
	SHIM_SENT();
	shim_expect(d.path, 1, NULL, 0);
	ck_assert_int_eq(rcl_nvme_ns_attach(d.fd, &id, 0xffffffff, 3, true, &err),
	                 RCL_INVALID_PARAM);
	ck_assert_int_eq(rcl_nvme_ns_create(d.fd, &id, 0, 1, &nsid, &err), RCL_INVALID_PARAM);
	SHIM_SENT();
	drive_close(&d);
}
END_TEST

static Suite *admin_suite(void)
{
	Suite *s = suite_create("nvme-admin");
	TCase *fw = tcase_create("firmware");
	TCase *erase = tcase_create("sanitize-format");
	TCase *other = tcase_create("self-test-telemetry-namespaces");

	tcase_add_test(fw, test_fw_chunk);
	tcase_add_test(fw, test_fw_download);
	tcase_add_test(fw, test_fw_download_refused_file);
	tcase_add_test(fw, test_fw_download_error);
	tcase_add_test(fw, test_fw_commit);
	tcase_add_test(erase, test_sanitize);
	tcase_add_test(erase, test_format);
	tcase_add_test(other, test_self_test);
	tcase_add_test(other, test_status_classes);
	tcase_add_test(other, test_not_nvme);
	tcase_add_test(other, test_telemetry);
	tcase_add_test(other, test_namespaces);
	suite_add_tcase(s, fw);
	suite_add_tcase(s, erase);
	suite_add_tcase(s, other);
	return s;
}

int main(void)
{
	return unit_main(admin_suite());
}
