/* SPDX-License-Identifier: MIT */
/*
 * foreign.h - configurations a MegaRAID card finds on drives another
 * controller configured (foreign.c): found (CFG_FOREIGN_SCAN), each read
 * as it is (CFG_FOREIGN_DISPLAY) or as an import would make it
 * (CFG_FOREIGN_PREVIEW), imported (CFG_FOREIGN_IMPORT) or cleared
 * (CFG_FOREIGN_CLEAR).
 *
 * Opcodes and the scan's layout written for raidcli from the public
 * interface (FreeBSD's mfireg.h and mfiutil's mfi_foreign.c; QEMU's
 * megasas model names the scan CFG_FOREIGN_READ and answers it and the
 * import with its dummy: no foreign configuration). A configuration
 * comes in CFG_READ's layout (mfi.h). Import and clear take the index
 * of one configuration in mailbox byte 0; mfiutil imports all with 0xff
 * and clears all with an empty mailbox, as raidcli does.
 */
#ifndef RCL_MEGARAID_FOREIGN_H
#define RCL_MEGARAID_FOREIGN_H

#include <stddef.h>
#include <stdint.h>

#include "megaraid/model.h"

enum {
	RCL_MFI_DCMD_FOREIGN_SCAN = 0x04060100,
	RCL_MFI_DCMD_FOREIGN_DISPLAY = 0x04060200,
	RCL_MFI_DCMD_FOREIGN_PREVIEW = 0x04060300,
	RCL_MFI_DCMD_FOREIGN_IMPORT = 0x04060400,
	RCL_MFI_DCMD_FOREIGN_CLEAR = 0x04060500,
};

/* The most foreign configurations one scan names, and "every one" for the import. */
#define RCL_MFI_MAX_FOREIGN 8
#define RCL_MFI_FOREIGN_ALL 0xff

/* CFG_FOREIGN_SCAN: how many configurations, each with the identity the firmware gives it. */
struct rcl_mfi_foreign_scan {
	uint32_t count;
	char guid[RCL_MFI_MAX_FOREIGN][24];
} __attribute__((packed));

_Static_assert(sizeof(struct rcl_mfi_foreign_scan) == 196, "foreign scan size");

/*
 * rcl_mfi_foreign_show(), rcl_mfi_foreign_import(), rcl_mfi_foreign_delete()
 * - the backend's foreign_show, foreign_import and foreign_delete
 * (backend.h) on the card behind @link; the delete clears them all.
 */
enum rcl_status rcl_mfi_foreign_show(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                     struct rcl_foreign *out, struct rcl_error *err);
enum rcl_status rcl_mfi_foreign_import(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                       bool preview, bool bitmap, struct rcl_foreign *out,
                                       struct rcl_error *err);
enum rcl_status rcl_mfi_foreign_delete(const struct rcl_mfi_link *link, struct rcl_error *err);

#endif /* RCL_MEGARAID_FOREIGN_H */
