// SPDX-License-Identifier: MIT
/*
 * pd.c - what a MegaRAID adapter is told about one physical drive
 * (config.h): its locate LED, its firmware state, and that its place in
 * its array is missing.
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

enum rcl_status rcl_mfi_mark_missing(const struct rcl_mfi_link *link, const struct rcl_drive *d,
                                     struct rcl_error *err)
{
	uint16_t id = (uint16_t)d->device_id, seq;
	enum rcl_status st = rcl_mfi_pd_seq(link, id, &seq, err);
	uint8_t mbox[4] = {(uint8_t)id, (uint8_t)(id >> 8), (uint8_t)seq, (uint8_t)(seq >> 8)};

	return st ? st
	          : dcmd_mbox(link, RCL_MFI_DCMD_PD_MISSING_MARK, mbox, sizeof(mbox),
	                      "marking the drive missing (PD_MISSING_MARK)", err);
}

enum rcl_status rcl_mfi_insert_drive(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                     const struct rcl_drive *d, unsigned dg, unsigned span,
                                     unsigned row, struct rcl_error *err)
{
	uint16_t id = (uint16_t)d->device_id, seq, ref;
	enum rcl_status st = rcl_mfi_pd_seq(link, id, &seq, err);
	uint8_t mbox[7];

	if (!st)
		st = rcl_mfi_span_ref(link, ctrl, dg, span, &ref, err);
	if (st)
		return st;
	mbox[0] = (uint8_t)id;
	mbox[1] = (uint8_t)(id >> 8);
	mbox[2] = (uint8_t)seq;
	mbox[3] = (uint8_t)(seq >> 8);
	mbox[4] = (uint8_t)ref;
	mbox[5] = (uint8_t)(ref >> 8);
	mbox[6] = (uint8_t)row;
	return dcmd_mbox(link, RCL_MFI_DCMD_PD_MISSING_REPLACE, mbox, sizeof(mbox),
	                 "replacing the missing drive (PD_MISSING_REPLACE)", err);
}
