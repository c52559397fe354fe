/* SPDX-License-Identifier: MIT */
/*
 * schedule.h - the tasks a MegaRAID card schedules itself (schedule.c):
 * the patrol read's mode and schedule (PR_GET/SET_PROPERTIES) and what it
 * is doing (PR_GET_STATUS); the consistency check's schedule
 * (CTRL_CC_SCHEDULE_GET/SET_PROPERTIES) and what it is doing
 * (CTRL_CC_SCHEDULE_GET_STATUS).
 *
 * Layouts written for raidcli from the public interface: FreeBSD's
 * mfireg.h patrol read structures; the CC schedule's opcodes, both
 * legacy layouts (mailbox byte 0 = 0: up to 64 LDs, raidcli's most), the
 * patrol read's options and states from Broadcom's MR.H as published in
 * a public repository (numbers and offsets only). Only what raidcli
 * reads or writes is named.
 */
#ifndef RCL_MEGARAID_SCHEDULE_H
#define RCL_MEGARAID_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "megaraid/frame.h"
#include "megaraid/model.h"

/* The properties' DCMDs take mbox b[0] 0: the legacy layouts below. */
enum {
	RCL_MFI_DCMD_PR_GET_STATUS = 0x01070100,
	RCL_MFI_DCMD_PR_GET_PROPERTIES = 0x01070200,
	RCL_MFI_DCMD_PR_SET_PROPERTIES = 0x01070300,
	RCL_MFI_DCMD_CC_SCHEDULE_GET_STATUS = 0x01140100,
	RCL_MFI_DCMD_CC_SCHEDULE_GET_PROPERTIES = 0x01140200,
	RCL_MFI_DCMD_CC_SCHEDULE_SET_PROPERTIES = 0x01140300,
};

/* The CC schedule's op_mode. */
enum {
	RCL_MFI_CC_DISABLED = 0,
	RCL_MFI_CC_SEQUENTIAL = 1, /* one LD at a time */
	RCL_MFI_CC_CONCURRENT = 2, /* up to max_lds at once */
};

/* CC_SCHEDULE_GET_STATUS' state that means a run is under way. */
#define RCL_MFI_CC_ACTIVE 2

/* PR_GET_PROPERTIES' op_mode. */
enum {
	RCL_MFI_PR_AUTO = 0,
	RCL_MFI_PR_MANUAL = 1,
	RCL_MFI_PR_DISABLED = 2,
};

/* PR_GET_PROPERTIES' options: the patrol read also reads VDs of SSDs alone. */
#define RCL_MFI_PR_INCLUDE_SSD 0x01

/* PR_GET_STATUS' states of a run under way: reading, paused by the card, by the user. */
enum {
	RCL_MFI_PR_ACTIVE = 2,
	RCL_MFI_PR_PAUSED = 3,
	RCL_MFI_PR_USER_PAUSED = 4,
};

/* PR_GET/SET_PROPERTIES, legacy: 208 bytes. */
struct rcl_mfi_pr_props {
	uint8_t op_mode;
	uint8_t max_pd; /* drives read at once */
	uint8_t options;
	uint8_t exclude_count;
	uint16_t exclude[RCL_MFI_MAX_LD]; /* target ids, the first exclude_count used */
	uint8_t rsvd[64];                 /* this and the last run's drive maps */
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

/* CC_SCHEDULE_GET/SET_PROPERTIES, legacy: 168 bytes. */
struct rcl_mfi_cc_props {
	uint8_t op_mode;
	uint8_t max_lds; /* LDs checked at once, concurrent */
	uint8_t rsvd0;
	uint8_t exclude_count;
	uint16_t exclude[RCL_MFI_MAX_LD]; /* target ids, the first exclude_count used */
	uint8_t rsvd1[20];                /* padding, this and the last cycle's LD maps */
	uint32_t next_exec;               /* MFI time of the next run */
	uint32_t exec_freq;               /* seconds between runs */
	uint32_t clear_freq;
	uint8_t rsvd2[4];
} __attribute__((packed));

/* CC_SCHEDULE_GET_STATUS: 16 bytes. */
struct rcl_mfi_cc_status {
	uint32_t iterations;
	uint8_t state;
	uint8_t lds_done; /* in the cycle under way */
	uint8_t rsvd[10];
} __attribute__((packed));

_Static_assert(offsetof(struct rcl_mfi_pr_props, exclude) == 4, "PR excluded LDs");
_Static_assert(offsetof(struct rcl_mfi_pr_props, next_exec) == 196, "PR next run");
_Static_assert(offsetof(struct rcl_mfi_cc_props, exclude) == 4, "CC excluded LDs");
_Static_assert(offsetof(struct rcl_mfi_cc_props, next_exec) == 152, "CC next run");
_Static_assert(sizeof(struct rcl_mfi_cc_props) == 168, "CC schedule size");
_Static_assert(sizeof(struct rcl_mfi_cc_status) == 16, "CC status size");
_Static_assert(sizeof(struct rcl_mfi_pr_props) == 208, "PR properties size");
_Static_assert(sizeof(struct rcl_mfi_pr_status) == 16, "PR status size");

/**
 * rcl_mfi_pr_state() - PR_GET_STATUS' @state as raidcli's: a pause, by
 * the card or the user, is StorCLI's "Paused"; a run ready to start,
 * aborted or unknown, stopped.
 */
enum rcl_schedule_state rcl_mfi_pr_state(uint8_t state);

/**
 * rcl_mfi_read_patrol() - the patrol read of the card behind @link: its
 * mode, drives at once, SSDs read, schedule and excluded VDs into
 * @settings (the rest untouched), its state, runs done and next start
 * into @status.
 * Return: RCL_OK; the firmware's refusal (frame.h).
 */
enum rcl_status rcl_mfi_read_patrol(const struct rcl_mfi_link *link,
                                    struct rcl_ctrl_settings *settings,
                                    struct rcl_patrol_status *status, struct rcl_error *err);

/**
 * rcl_mfi_read_cc_schedule() - the consistency check schedule of the card
 * behind @link: its mode, delay, next start and excluded VDs into
 * @settings (the rest untouched), its state, runs done, VDs done in this
 * run and next start into @status.
 * Return: RCL_OK; the firmware's refusal (frame.h: RCL_UNSUPPORTED, a
 * firmware without the DCMDs); RCL_BAD_REPLY (a reply not written, as
 * QEMU's dummy answers, or counting more excluded LDs than it holds).
 */
enum rcl_status rcl_mfi_read_cc_schedule(const struct rcl_mfi_link *link,
                                         struct rcl_ctrl_settings *settings,
                                         struct rcl_cc_status *status, struct rcl_error *err);

/*
 * struct rcl_mfi_schedule_change - what a "set" of a schedule changes: the
 * fields of @s that differ from @was (what the load read).
 */
struct rcl_mfi_schedule_change {
	const struct rcl_ctrl_settings *was;
	const struct rcl_ctrl_settings *s;
};

/*
 * rcl_mfi_cc_record, rcl_mfi_edit_cc() - the consistency check schedule
 * (CC_SCHEDULE_GET/SET_PROPERTIES; a read checked: RCL_BAD_REPLY for more
 * excluded LDs than it holds) and its edit for rcl_mfi_change(): the mode,
 * delay, start time and excluded VDs a struct rcl_mfi_schedule_change
 * @arg asks for, the rest as the card has it (LDs at once, the LD maps; a
 * delay raidcli reads rounded to hours, a start time not asked for);
 * nothing written when no field differs.
 */
extern const struct rcl_mfi_record rcl_mfi_cc_record;
bool rcl_mfi_edit_cc(void *rec, const void *arg);

/*
 * rcl_mfi_pr_record, rcl_mfi_edit_patrol() - the patrol read properties
 * (PR_GET/SET_PROPERTIES) and their edit for rcl_mfi_change(): the mode,
 * drives at once, SSDs read, delay, start time and excluded VDs a struct
 * rcl_mfi_schedule_change @arg asks for, the rest as the card has it, even
 * where raidcli reads it rounded (a delay in seconds, drives at once 0);
 * nothing written when no field differs. @s->pr_ssds RCL_PR_SSDS_OFF and
 * @s->pr_uncfg are the controller properties' (rcl_mfi_edit_props()).
 */
extern const struct rcl_mfi_record rcl_mfi_pr_record;
bool rcl_mfi_edit_patrol(void *rec, const void *arg);

#endif /* RCL_MEGARAID_SCHEDULE_H */
