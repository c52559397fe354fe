// SPDX-License-Identifier: MIT
/*
 * inquiry.c - a MegaRAID adapter's drive asked itself, by SCSI pass-through
 * (inquiry.h): its INQUIRY, serial and capacity, addressed as the card
 * addresses its drives.
 */
#include <stdio.h>
#include <string.h>

#include "megaraid/frame.h"
#include "megaraid/inquiry.h"

void rcl_mfi_fill_inquiry(struct rcl_drive *d, const uint8_t *inq)
{
	rcl_mfi_copy_text(d->vendor, sizeof(d->vendor), inq + 8, 8);
	rcl_mfi_copy_text(d->model, sizeof(d->model), inq + 16, 16);
	rcl_mfi_copy_text(d->firmware, sizeof(d->firmware), inq + 32, 4);
	/* LSI firmware puts the drive's serial number in the vendor-specific bytes. */
	rcl_mfi_copy_text(d->serial, sizeof(d->serial), inq + 36, 20);
	/* The data as far as its additional length goes and it fits. */
	d->inquiry_len = rcl_mfi_at_most(inq[4] + 5u, sizeof(d->inquiry));
	memcpy(d->inquiry, inq, d->inquiry_len);
}

bool rcl_mfi_is_qemu(const struct rcl_ctrl_info *info)
{
	size_t n = strlen(info->firmware);

	return n >= 5 && !strcmp(info->firmware + n - 5, "-QEMU");
}

/*
 * Pass-through @cdb to PD @device_id. A card's firmware takes the device
 * id as the frame's target, LUN 0 (smartmontools' "-d megaraid,N" sends
 * N so); its ids fit the 8-bit target (the driver's MEGASAS_MAX_PD is
 * 256). QEMU's model numbers a PD by its SCSI id and LUN, (id << 8) | lun,
 * and finds the device the frame's target and LUN name
 * (megasas_handle_scsi()): there they are the id's two bytes. Neither
 * reading fits the other's ids (QEMU's disk at SCSI id 1 is PD 256, whose
 * low byte would name target 0), so the card says which it is.
 */
static enum rcl_status ask_scsi(const struct rcl_mfi_asker *a, uint16_t device_id,
                                const uint8_t *cdb, uint8_t cdb_len, void *buf, uint32_t len,
                                const char *what, struct rcl_error *err)
{
	uint8_t target = a->qemu ? (uint8_t)(device_id >> 8) : (uint8_t)device_id;
	uint8_t lun = a->qemu ? (uint8_t)device_id : 0;

	return rcl_mfi_scsi_read(a->link->fd, (uint16_t)a->link->host_no, target, lun, cdb, cdb_len,
	                         buf, len, what, err);
}

enum rcl_status rcl_mfi_ask_inquiry(const struct rcl_mfi_asker *a, struct rcl_drive *d,
                                    uint16_t device_id, struct rcl_error *err)
{
	static const uint8_t std[6] = {0x12, 0, 0, 0, 96}, vpd80[6] = {0x12, 1, 0x80, 0, 64};
	uint8_t inq[96] = {0}, page[64] = {0};
	enum rcl_status st =
	    ask_scsi(a, device_id, std, sizeof(std), inq, sizeof(inq), "INQUIRY of a drive", err);

	if (st)
		return st;
	rcl_mfi_fill_inquiry(d, inq);
	/* A drive without the page refuses it: the serial stays as it is. */
	if (!d->serial[0] &&
	    !ask_scsi(a, device_id, vpd80, sizeof(vpd80), page, sizeof(page),
	              "INQUIRY of a drive's serial number", NULL) &&
	    page[1] == 0x80)
		rcl_mfi_copy_text(d->serial, sizeof(d->serial), page + 4,
		                  page[3] < sizeof(page) - 4 ? page[3] : sizeof(page) - 4);
	return RCL_OK;
}

enum rcl_status rcl_mfi_ask_drive(const struct rcl_mfi_asker *a, struct rcl_drive *d,
                                  uint16_t device_id, struct rcl_error *err)
{
	/* SERVICE ACTION IN (16): READ CAPACITY (16) */
	static const uint8_t cdb[16] = {0x9e, 0x10, [13] = 32};
	uint8_t cap[32] = {0};
	enum rcl_status st = rcl_mfi_ask_inquiry(a, d, device_id, err);

	if (st)
		return st;
	st = ask_scsi(a, device_id, cdb, sizeof(cdb), cap, sizeof(cap), "READ CAPACITY of a drive",
	              err);
	if (!st) {
		uint64_t last = 0;
		uint32_t block = 0;

		for (int i = 0; i < 8; i++)
			last = last << 8 | cap[i];
		for (int i = 8; i < 12; i++)
			block = block << 8 | cap[i];
		d->raw_bytes = (last + 1) * block;
		d->coerced_bytes = d->raw_bytes >> 20 << 20;
		d->logical_sector = d->physical_sector = block;
	}
	snprintf(d->interface, sizeof(d->interface), "SAS");
	return st;
}
