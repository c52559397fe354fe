/* SPDX-License-Identifier: MIT */
/*
 * patrol.h - a MegaRAID card's patrol read (patrol.c): its mode and
 * schedule (PR_GET_PROPERTIES) and what it is doing (PR_GET_STATUS).
 *
 * Layouts written for raidcli from the public interface (FreeBSD's
 * mfireg.h patrol read structures); only what raidcli reads is named.
 */
#ifndef RCL_MEGARAID_PATROL_H
#define RCL_MEGARAID_PATROL_H

#include <stddef.h>
#include <stdint.h>

#include "megaraid/model.h"

enum {
	RCL_MFI_DCMD_PR_GET_STATUS = 0x01070100,
	RCL_MFI_DCMD_PR_GET_PROPERTIES = 0x01070200,
};

/* PR_GET_PROPERTIES' op_mode. */
enum {
	RCL_MFI_PR_AUTO = 0,
	RCL_MFI_PR_MANUAL = 1,
	RCL_MFI_PR_DISABLED = 2,
};

/* PR_GET_STATUS' state that means a run is under way. */
#define RCL_MFI_PR_ACTIVE 2

/* PR_GET_PROPERTIES: 208 bytes. */
struct rcl_mfi_pr_props {
	uint8_t op_mode;
	uint8_t max_pd; /* drives read at once */
	uint8_t rsvd0[2];
	uint8_t rsvd1[192]; /* excluded LDs, this and the last run's drive maps */
	uint32_t next_exec; /* MFI time (seconds since 2000-01-01 UTC) of the next run */
	uint32_t exec_freq; /* seconds between runs */
	uint32_t clear_freq;
} __attribute__((packed));

/* PR_GET_STATUS: 16 bytes. */
struct rcl_mfi_pr_status {
	uint32_t iterations;
	uint8_t state;
	uint8_t pds_done;
	uint8_t rsvd[10];
} __attribute__((packed));

_Static_assert(offsetof(struct rcl_mfi_pr_props, next_exec) == 196, "PR next run");
_Static_assert(sizeof(struct rcl_mfi_pr_props) == 208, "PR properties size");
_Static_assert(sizeof(struct rcl_mfi_pr_status) == 16, "PR status size");

/**
 * rcl_mfi_read_patrol() - the patrol read of the card behind @link: its
 * mode, drives at once and schedule into @settings (the rest untouched),
 * its state, runs done and next start into @status.
 * Return: RCL_OK; the firmware's refusal (frame.h).
 */
enum rcl_status rcl_mfi_read_patrol(const struct rcl_mfi_link *link,
                                    struct rcl_ctrl_settings *settings,
                                    struct rcl_patrol_status *status, struct rcl_error *err);

#endif /* RCL_MEGARAID_PATROL_H */
