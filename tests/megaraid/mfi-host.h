/* SPDX-License-Identifier: MIT */
/*
 * mfi-host.h - the host the megaraid tests run on (mfi-host.c), and the
 * checks they share.
 */
#ifndef RCL_MFI_HOST_H
#define RCL_MFI_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "mfi-shim.h"
#include "unit.h"

#define MAJOR_NOW 247
#define PCI_FN    "0000:00:05.0"

/* QEMU's three disks: SCSI ids 0 to 2, of 1 GiB, 2 GiB and 2 GiB. */
extern const struct mfi_shim_disk three[3];

/* A host with the driver loaded at @major (-1: not loaded), the adapter at host 2. */
struct host {
	struct unit_state st;
	char *root;
};

/* The driver's major now @major (-1: not loaded). */
void set_major(const struct host *h, int major);

/* The host with the driver at @major, the adapter (QEMU's, three disks) at host 2. */
void host_init(struct host *h, int major);

void host_release(struct host *h);

/* Open the one controller; its status, @err filled on failure. */
enum rcl_status open_c0(struct rcl_ctx **ctx, struct rcl_ctrl **ctrl, struct rcl_error *err);

/* Run @line; its status must be @want, its output contain @has. */
void run_expect(const char *line, enum rcl_status want, const char *has);

/* "raidcli @line J": its status must be @want, its JSON contain @has. */
void json_expect(const char *line, enum rcl_status want, const char *has);

/* The mailbox of the last change @opcode: @want's first bytes, the rest zero. */
void expect_mbox(uint32_t opcode, const uint8_t *want, size_t n);

/* The host with disks 1 and 2 free (QEMU's LDs of them gone), disk 0 still LD 0. */
void host_free_two(struct host *h);

#endif /* RCL_MFI_HOST_H */
