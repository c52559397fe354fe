// SPDX-License-Identifier: MIT
/*
 * pd.c - what a MegaRAID adapter is told about one physical drive
 * (config.h): its locate LED and its firmware state.
 */
#include <endian.h>
#include <string.h>

#include "megaraid/config.h"
#include "megaraid/frame.h"

/* A DCMD with no data, @n bytes of mailbox from @mbox. */
static enum rcl_status dcmd_mbox(const struct rcl_mfi_link *link, uint32_t opcode,
                                 const uint8_t *mbox, size_t n, const char *what,
                                 struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {.opcode = opcode, .dir = RCL_MFI_DIR_NONE};

	memcpy(d.mbox, mbox, n);
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d, what, err);
}

enum rcl_status rcl_mfi_locate(const struct rcl_mfi_link *link, const struct rcl_drive *d, bool on,
                               struct rcl_error *err)
{
	uint8_t mbox[2] = {(uint8_t)d->device_id, (uint8_t)(d->device_id >> 8)};

	return dcmd_mbox(link, on ? RCL_MFI_DCMD_PD_LOCATE_START : RCL_MFI_DCMD_PD_LOCATE_STOP,
	                 mbox, sizeof(mbox),
	                 on ? "starting the locate LED (PD_LOCATE_START)"
	                    : "stopping the locate LED (PD_LOCATE_STOP)",
	                 err);
}

enum rcl_status rcl_mfi_pd_seq(const struct rcl_mfi_link *link, uint16_t id, uint16_t *seq,
                               struct rcl_error *err)
{
	struct rcl_mfi_pd_info pi = {0};
	struct rcl_mfi_dcmd d = {.opcode = RCL_MFI_DCMD_PD_GET_INFO,
	                         .buf = &pi,
	                         .len = sizeof(pi),
	                         .dir = RCL_MFI_DIR_READ};
	enum rcl_status st;

	d.mbox[0] = (uint8_t)id;
	d.mbox[1] = (uint8_t)(id >> 8);
	st = rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d,
	                  "reading the drive's info (PD_GET_INFO)", err);
	*seq = !st && le16toh(pi.device_id) == id ? le16toh(pi.seq_num) : 0;
	return st == RCL_NOT_FOUND ? RCL_OK : st;
}

enum rcl_status rcl_mfi_set_pd_state(const struct rcl_mfi_link *link, const struct rcl_drive *d,
                                     uint16_t fw_state, struct rcl_error *err)
{
	uint16_t id = (uint16_t)d->device_id, seq;
	enum rcl_status st = rcl_mfi_pd_seq(link, id, &seq, err);
	uint8_t mbox[6] = {(uint8_t)id,         (uint8_t)(id >> 8), (uint8_t)seq,
	                   (uint8_t)(seq >> 8), (uint8_t)fw_state,  (uint8_t)(fw_state >> 8)};

	return st ? st
	          : dcmd_mbox(link, RCL_MFI_DCMD_PD_STATE_SET, mbox, sizeof(mbox),
	                      "setting the drive's state (PD_STATE_SET)", err);
}
