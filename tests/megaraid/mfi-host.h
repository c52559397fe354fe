/* SPDX-License-Identifier: MIT */
/*
 * mfi-host.h - the host the megaraid tests run on (mfi-host.c): a tree
 * (/proc/devices, sysfs, /dev under $RAIDCLI_TEST_MEGARAID_ROOT) with one
 * megaraid_sas adapter at SCSI host 2 and one other SCSI host, the
 * adapter played by the ioctl shim (mfi-shim.h) with three disks.
 */
#ifndef RCL_MFI_HOST_H
#define RCL_MFI_HOST_H

#include "mfi-shim.h"
#include "unit.h"

#define MAJOR_NOW 247
#define PCI_FN    "0000:00:05.0"

/* The adapter's disks: SCSI ids 0 to 2. */
extern const struct mfi_shim_disk three[3];

/* A host with the driver loaded at @major (-1: not loaded), the adapter at host 2. */
struct host {
	struct unit_state st;
	char *root;
};

/* set_major() - the driver's character device now has @major (-1: not loaded). */
void set_major(const struct host *h, int major);
/* host_init() - make the host in a fresh state directory and set the shim up. */
void host_init(struct host *h, int major);
void host_release(struct host *h);
/* open_c0() - open the one controller; its status, @err filled on failure. */
enum rcl_status open_c0(struct rcl_ctx **ctx, struct rcl_ctrl **ctrl, struct rcl_error *err);

#endif /* RCL_MFI_HOST_H */
