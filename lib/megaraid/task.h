/* SPDX-License-Identifier: MIT */
/*
 * task.h - a MegaRAID card's background tasks (task.c): the rebuild of a
 * drive, the consistency check and initialization of an LD, the patrol
 * read; started, stopped, paused and resumed by the firmware's DCMDs, and
 * followed by its progress DCMDs.
 *
 * Opcodes and mailboxes as the public interface gives them: FreeBSD's
 * mfireg.h (PD_REBUILD_START/ABORT, PD_GET_PROGRESS, LD_INIT_START,
 * PR_START/STOP, struct mfi_progress, mfi_ld_progress, mfi_pd_progress)
 * and Broadcom's MR.H as published in public repositories (LD_CC_START/
 * ABORT, LD_INIT_ABORT, LD_PROGRESS, the SUSPEND_RESUME DCMDs, the init's
 * fast/full byte). QEMU's megasas model implements none of them: its
 * dummy answers OK and writes nothing.
 */
#ifndef RCL_MEGARAID_TASK_H
#define RCL_MEGARAID_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "megaraid/model.h"

enum {
	RCL_MFI_DCMD_PR_START = 0x01070400,          /* no mailbox */
	RCL_MFI_DCMD_PR_STOP = 0x01070500,           /* no mailbox */
	RCL_MFI_DCMD_PR_SUSPEND_RESUME = 0x01070600, /* mbox b[0]: 0 suspend, 1 resume */
	/* The drive's: mbox w[0] its reference (device id, sequence number). */
	RCL_MFI_DCMD_PD_REBUILD_START = 0x02040100,
	RCL_MFI_DCMD_PD_REBUILD_ABORT = 0x02040200,
	RCL_MFI_DCMD_PD_GET_PROGRESS = 0x02060000,           /* mbox s[0]: device id */
	RCL_MFI_DCMD_PD_REBUILD_SUSPEND_RESUME = 0x020e0100, /* and b[4]: 0 suspend, 1 resume */
	/* The LD's: mbox w[0] its reference (target id, 0, sequence number). */
	RCL_MFI_DCMD_LD_CC_START = 0x03050100,
	RCL_MFI_DCMD_LD_CC_ABORT = 0x03050200,
	RCL_MFI_DCMD_LD_INIT_START = 0x03060100, /* and b[4]: 0 fast, 1 full */
	RCL_MFI_DCMD_LD_INIT_ABORT = 0x03060200,
	RCL_MFI_DCMD_LD_PROGRESS = 0x03080000,          /* mbox s[0]: target id */
	RCL_MFI_DCMD_LD_CC_SUSPEND_RESUME = 0x03120200, /* and b[4]: 0 suspend, 1 resume */
};

/* Where one task stands: @done of 0xffff of the whole, after @elapsed seconds. */
struct rcl_mfi_progress {
	uint16_t done;
	uint16_t elapsed;
} __attribute__((packed));

/* LD_PROGRESS (and LD_GET_INFO at 264): which tasks run (@active bits), and where. */
struct rcl_mfi_ld_progress {
	uint32_t active;
	struct rcl_mfi_progress cc, bgi, fgi, recon;
	struct rcl_mfi_progress rsvd[4];
} __attribute__((packed));

/* PD_GET_PROGRESS (and PD_GET_INFO at 260). */
struct rcl_mfi_pd_progress {
	uint32_t active;
	struct rcl_mfi_progress rebuild, patrol, clear;
	struct rcl_mfi_progress rsvd[4];
} __attribute__((packed));

/* The @active bits. */
enum {
	RCL_MFI_LD_ACTIVE_CC = 0x01,
	RCL_MFI_LD_ACTIVE_FGI = 0x04, /* foreground (start init) initialization */
	RCL_MFI_PD_ACTIVE_REBUILD = 0x01,
};

_Static_assert(sizeof(struct rcl_mfi_progress) == 4, "MFI progress");
_Static_assert(offsetof(struct rcl_mfi_ld_progress, fgi) == 12, "LD progress init");
_Static_assert(sizeof(struct rcl_mfi_ld_progress) == 36, "LD progress size (LD info 264..300)");
_Static_assert(offsetof(struct rcl_mfi_pd_progress, rebuild) == 4, "PD progress rebuild");
_Static_assert(sizeof(struct rcl_mfi_pd_progress) == 32, "PD progress size (PD info 260..292)");

/**
 * rcl_mfi_task_caps() - narrow @caps->tasks (the model loaded) to what the
 * card offers: a rebuild and a consistency check where it creates a
 * redundant level and takes their rate (adapter_ops, in @caps->settings),
 * an initialization always; the patrol read is patrol.c's.
 */
void rcl_mfi_task_caps(struct rcl_caps *caps);

/**
 * rcl_mfi_task_check() - what a START of @req is refused for from @ctrl's
 * model alone (a check of a VD with no redundancy), no frame sent.
 */
enum rcl_status rcl_mfi_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                   struct rcl_error *err);

/**
 * rcl_mfi_task() - start, stop, pause or resume @req's task on the card
 * behind @link: its progress read first, so that a start of one under
 * way, or a stop, pause or resume of none, is refused in the soft kind's
 * words (rcl_task_refuse()) before the one DCMD that does it is sent.
 * Return: RCL_OK; RCL_NOT_ALLOWED; RCL_UNSUPPORTED (an action the card has
 * no DCMD for); the firmware's refusal (frame.h); RCL_BAD_REPLY.
 */
enum rcl_status rcl_mfi_task(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                             const struct rcl_task_request *req, struct rcl_error *err);

/**
 * rcl_mfi_task_progress() - where @req's task stands on the card behind
 * @link, into @out (as rcl_ctrl_task_progress() prepared it): RUNNING with
 * its percent, elapsed and estimated remaining seconds, or STOPPED.
 * Return: RCL_OK; the firmware's refusal; RCL_BAD_REPLY (a reply the
 * firmware did not write, or wrote short: nothing is shown from it).
 */
enum rcl_status rcl_mfi_task_progress(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                      const struct rcl_task_request *req,
                                      struct rcl_task_progress *out, struct rcl_error *err);

#endif /* RCL_MEGARAID_TASK_H */
