/* SPDX-License-Identifier: MIT */
/*
 * inquiry.h - a MegaRAID adapter's drive asked itself, by SCSI pass-through
 * (inquiry.c), where PD_GET_INFO does not tell of it.
 */
#ifndef RCL_MEGARAID_INQUIRY_H
#define RCL_MEGARAID_INQUIRY_H

#include "megaraid/model.h"

/*
 * An adapter whose drives are asked: its link, and whether it is QEMU's
 * model, which addresses a pass-through otherwise (inquiry.c, ask_scsi()).
 */
struct rcl_mfi_asker {
	const struct rcl_mfi_link *link;
	bool qemu;
};

/*
 * rcl_mfi_is_qemu() - whether @info is QEMU's megasas model: its firmware
 * version ends in "-QEMU" ("1.80-QEMU" of megasas-gen2, "1.70-QEMU" of
 * megasas).
 */
bool rcl_mfi_is_qemu(const struct rcl_ctrl_info *info);

/*
 * rcl_mfi_fill_inquiry() - @d's vendor, product, revision, serial and
 * INQUIRY data from standard INQUIRY data @inq (at least 36 bytes).
 */
void rcl_mfi_fill_inquiry(struct rcl_drive *d, const uint8_t *inq);

/*
 * rcl_mfi_ask_inquiry() - drive @device_id's INQUIRY into @d, and its
 * serial from VPD page 0x80 where the standard data has none (QEMU's
 * disks): for a card whose PD_GET_INFO holds no INQUIRY (QEMU's model,
 * which reads mailbox byte 0 alone, answering for another drive or
 * DEVICE_NOT_FOUND). Return: RCL_OK; rcl_mfi_scsi()'s failure.
 */
enum rcl_status rcl_mfi_ask_inquiry(const struct rcl_mfi_asker *a, struct rcl_drive *d,
                                    uint16_t device_id, struct rcl_error *err);

/*
 * rcl_mfi_ask_drive() - drive @device_id asked by pass-through alone:
 * rcl_mfi_ask_inquiry(), then its capacity and block size (READ
 * CAPACITY (16)) into @d.
 */
enum rcl_status rcl_mfi_ask_drive(const struct rcl_mfi_asker *a, struct rcl_drive *d,
                                  uint16_t device_id, struct rcl_error *err);

#endif /* RCL_MEGARAID_INQUIRY_H */
