/* SPDX-License-Identifier: MIT */
/*
 * frame.h - MFI commands through the megaraid_sas management ioctl: the
 * one place that builds MEGASAS_IOC_FIRMWARE packets, sends them, and
 * turns the firmware's answer into a struct rcl_error.
 *
 * The driver's ioctl returns 0 even when the firmware refused the command:
 * the firmware's verdict is the frame's cmd_status, copied back into the
 * packet. rcl_mfi_send() presets it to INVALID_STATUS, so a driver that
 * wrote nothing back is not taken for success.
 */
#ifndef RCL_MEGARAID_FRAME_H
#define RCL_MEGARAID_FRAME_H

#include <stdbool.h>

#include "backend.h"
#include "megaraid/mfi.h"

/* Which way a command's data goes. */
enum rcl_mfi_dir {
	RCL_MFI_DIR_NONE,
	RCL_MFI_DIR_READ,  /* from the controller into @buf */
	RCL_MFI_DIR_WRITE, /* from @buf to the controller */
};

/**
 * struct rcl_mfi_dcmd - one DCMD: @opcode, its mailbox (parameters), and
 * at most one data buffer @buf of @len bytes moving @dir.
 */
struct rcl_mfi_dcmd {
	uint32_t opcode;
	uint8_t mbox[RCL_MFI_MBOX_SIZE];
	void *buf;
	uint32_t len;
	enum rcl_mfi_dir dir;
};

/**
 * struct rcl_mfi_scsi - one SCSI command passed through to physical drive
 * @target/@lun: @cdb (@cdb_len bytes, at most 16), data as in a DCMD, and
 * @sense (@sense_len bytes, may be 0) for the drive's sense data.
 */
struct rcl_mfi_scsi {
	uint8_t target;
	uint8_t lun;
	uint8_t cdb[RCL_MFI_CDB_MAX];
	uint8_t cdb_len;
	void *buf;
	uint32_t len;
	enum rcl_mfi_dir dir;
	uint8_t *sense;
	uint8_t sense_len;
};

/* rcl_mfi_build_dcmd() - fill @pkt (zeroed here) with DCMD @d for adapter @host_no. */
void rcl_mfi_build_dcmd(struct rcl_mfi_packet *pkt, uint16_t host_no, const struct rcl_mfi_dcmd *d);

/* rcl_mfi_build_scsi() - fill @pkt (zeroed here) with pass-through @s for adapter @host_no. */
void rcl_mfi_build_scsi(struct rcl_mfi_packet *pkt, uint16_t host_no, const struct rcl_mfi_scsi *s);

/**
 * rcl_mfi_status_name() - the firmware's name for MFI status @status
 * ("WRONG_STATE"), or NULL for a code raidcli does not know.
 */
const char *rcl_mfi_status_name(uint8_t status);

/**
 * rcl_mfi_fail() - the failure for firmware status @status of @what ("the
 * controller info (CTRL_GET_INFO)"): its status mapped (INVALID_PARAMETER
 * to RCL_INVALID_PARAM, DEVICE_NOT_FOUND to RCL_NOT_FOUND, WRONG_STATE to
 * RCL_NOT_ALLOWED, INVALID_CMD and INVALID_DCMD to RCL_UNSUPPORTED, the
 * rest RCL_SYSTEM), the name in the message and in @err->detail, as
 * StorCLI's Detailed Status shows it. RCL_OK for MFI_STAT_OK.
 */
enum rcl_status rcl_mfi_fail(struct rcl_error *err, uint8_t status, const char *what);

/**
 * rcl_mfi_send() - send @pkt on @fd (the open ioctl node) and check the
 * firmware's status: RCL_OK; RCL_SYSTEM (the ioctl failed: errno named;
 * ENODEV: the adapter is gone); rcl_mfi_fail()'s.
 */
enum rcl_status rcl_mfi_send(int fd, struct rcl_mfi_packet *pkt, const char *what,
                             struct rcl_error *err);

/* rcl_mfi_dcmd() - build DCMD @d for @host_no and rcl_mfi_send() it. */
enum rcl_status rcl_mfi_dcmd(int fd, uint16_t host_no, const struct rcl_mfi_dcmd *d,
                             const char *what, struct rcl_error *err);

/*
 * What raidcli presets a reply buffer to where a firmware may answer OK and
 * write nothing (QEMU's dummy DCMD): a reply still all of it was never
 * written.
 */
#define RCL_MFI_UNWRITTEN 0xff

/* rcl_mfi_unwritten() - whether the @len bytes at @p are all still RCL_MFI_UNWRITTEN. */
bool rcl_mfi_unwritten(const void *p, size_t len);

/*
 * rcl_mfi_scsi_read() - rcl_mfi_scsi() of @cdb (@cdb_len bytes) to @target
 * and @lun, reading @len bytes into @buf; the sense data is not kept.
 */
enum rcl_status rcl_mfi_scsi_read(int fd, uint16_t host_no, uint8_t target, uint8_t lun,
                                  const uint8_t *cdb, uint8_t cdb_len, void *buf, uint32_t len,
                                  const char *what, struct rcl_error *err);

/*
 * rcl_mfi_scsi() - build pass-through @s for @host_no and rcl_mfi_send()
 * it; RCL_INVALID_PARAM, nothing sent, for a CDB over 16 bytes.
 */
enum rcl_status rcl_mfi_scsi(int fd, uint16_t host_no, const struct rcl_mfi_scsi *s,
                             const char *what, struct rcl_error *err);

#endif /* RCL_MEGARAID_FRAME_H */
