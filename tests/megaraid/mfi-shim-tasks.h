/* SPDX-License-Identifier: MIT */
/*
 * mfi-shim-tasks.h - the background tasks of the shim's card
 * (mfi-shim-tasks.c), for a card that has them: QEMU's model has none (its
 * dummy answers every task DCMD OK and writes nothing), so they exist only
 * once mfi_shim_tasks() is called.
 *
 * The firmware's rules as Broadcom's MR.H states them: a check of an LD
 * with no redundancy LD_WRONG_RAID_LEVEL; a check or an init while the
 * other runs LD_CC_IN_PROGRESS or LD_INIT_IN_PROGRESS; a rebuild of a
 * drive that is not an offline, failed or rebuilding member of a
 * redundant LD WRONG_STATE, of a stale sequence number
 * INVALID_SEQUENCE_NUMBER; a stop, pause or resume of a task not in that
 * state WRONG_STATE; an LD or drive not there DEVICE_NOT_FOUND. A task
 * under way and not paused goes an eighth further, 30 seconds later, each
 * time its LD's or drive's progress is read, and ends at the eighth: a
 * rebuilt drive is online again. A background initialization the card
 * started by itself (mfi_shim_bgi()) is stopped, paused and resumed by the
 * check's DCMDs, as MR.H says. The consistency check's schedule
 * (mfi_shim_cc_schedule()) is answered and kept as CC_SCHEDULE_SET_
 * PROPERTIES writes it, refused INVALID_PARAMETER for a mode it does not
 * know or an excluded LD it does not have.
 */
#ifndef RCL_MFI_SHIM_TASKS_H
#define RCL_MFI_SHIM_TASKS_H

#include <stdbool.h>
#include <stdint.h>

/* How the progress DCMDs answer (mfi_shim_tasks()). */
enum mfi_shim_progress {
	MFI_SHIM_PROGRESS_FULL,  /* the whole reply */
	MFI_SHIM_PROGRESS_SHORT, /* only its first 4 bytes (which tasks run) */
	MFI_SHIM_PROGRESS_NONE,  /* OK, nothing written: QEMU's dummy */
};

/*
 * mfi_shim_tasks() - the card runs tasks, its progress replies @how. Its
 * RAID levels and adapter_ops gain RAID1 and the CC rate (mfi_shim_card()).
 */
void mfi_shim_tasks(enum mfi_shim_progress how);

/*
 * mfi_shim_bgi() - the card offers the BGI rate too, and LD @target (of a
 * redundant level) is under its background initialization, as a card
 * starts one on a new LD. mfi_shim_tasks() first.
 */
void mfi_shim_bgi(uint8_t target);

/* A card's consistency check schedule, as its two GET DCMDs answer it. */
struct mfi_shim_cc_schedule {
	uint8_t op_mode; /* 0 disabled, 1 sequential, 2 concurrent */
	uint8_t max_lds;
	uint8_t exclude_count; /* more than 64: a malformed reply */
	uint16_t exclude[4];
	uint32_t next_exec; /* the firmware's time */
	uint32_t exec_freq; /* seconds */
	uint32_t clear_freq;
	uint32_t iterations;
	uint8_t state; /* 0 stopped, 1 ready, 2 active */
	uint8_t lds_done;
};

/*
 * mfi_shim_cc_schedule() - the card answers CC_SCHEDULE_GET_PROPERTIES and
 * _GET_STATUS with @cc (copied: SET_PROPERTIES changes the copy). Never
 * called: the card answers them as QEMU's dummy does, OK and nothing
 * written.
 */
void mfi_shim_cc_schedule(const struct mfi_shim_cc_schedule *cc);

/*
 * mfi_shim_card() (mfi-shim.c) - the card creates the levels of
 * CTRL_GET_INFO's raid_levels @levels (QEMU's: 0x01, RAID0) and has
 * adapter_ops @more besides QEMU's.
 */
void mfi_shim_card(uint32_t levels, uint32_t more);

/* The shim's side, for mfi-shim.c. */

/* Forget every task (mfi_shim_setup()). */
void shim_tasks_reset(void);

/* The mailbox bytes task DCMD @opcode uses; -1 for another opcode. */
int shim_task_mbox_used(uint32_t opcode);

/* Whether @opcode is a task DCMD without data (its flags none). */
bool shim_task_no_data(uint32_t opcode);

/*
 * shim_task_dcmd() - answer task DCMD @opcode (mailbox @mbox, buffer @buf
 * of @len bytes) into *@status. Return: false for another opcode, or
 * while the card runs no tasks (QEMU's dummy answers).
 */
bool shim_task_dcmd(uint32_t opcode, const uint8_t *mbox, uint8_t *buf, uint32_t len,
                    uint8_t *status);

/* What the configuration says (mfi-shim.c). */

/* The primary RAID level of LD @target; -1: no such LD. */
int shim_ld_level(uint8_t target);

/* The primary RAID level of the LD disk @id is a member of; -1: none. */
int shim_member_level(uint8_t id);

/* Disk @id's firmware state; -1: no such disk. */
int shim_pd_state(uint8_t id);

#endif /* RCL_MFI_SHIM_TASKS_H */
