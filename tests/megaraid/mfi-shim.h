/* SPDX-License-Identifier: MIT */
/*
 * mfi-shim.h - a MegaRAID adapter that exists only as the answers of an
 * LD_PRELOADed ioctl() (mfi-shim.c), playing what QEMU 7.2's megasas-gen2
 * model answers (hw/scsi/megasas.c: an "LSI MegaRAID SAS 9260-8i",
 * firmware "1.80-QEMU", RAID0 only, each SCSI disk one PD and one RAID0
 * LD, PD_GET_INFO reading one mailbox byte), so the backend is tested
 * below the driver, where no real card or driver is needed; and what
 * the model never does: firmware refusals, no status written back,
 * replies whose counts do not fit.
 *
 * It keeps a configuration, as the firmware does: QEMU's one LD per disk
 * at setup, then what CFG_ADD adds (one LD, at a level mfi_shim_card()
 * lets the card create: QEMU's RAID0 alone, spanning none; on new
 * arrays of free disks, or in the free space of existing arrays),
 * LD_DELETE takes (an array going with its last LD) and CFG_MAKE_SPARE, CFG_REMOVE_SPARE,
 * PD_STATE_SET and PD_MISSING_MARK change, and the controller properties
 * CTRL_SET_PROPS writes, so the next LD_GET_LIST and CFG_READ show it. A
 * change the emulated card would refuse is refused as it would be: a
 * drive in use WRONG_STATE, one not there DEVICE_NOT_FOUND, a malformed
 * payload, another level or an existing array named otherwise
 * INVALID_PARAMETER, a drive or LD named with another sequence number
 * than the current one INVALID_SEQUENCE_NUMBER.
 *
 * Every MEGASAS_IOC_FIRMWARE packet on a descriptor open on the node is
 * checked field by field (the packet header, the frame header, the
 * opcode's mailbox, the buffer's size and direction); the first mismatch
 * fails that ioctl with EPROTO and is kept for mfi_shim_check(). mknod()
 * and stat() of the node are played too (the tests do not make device
 * nodes): the node becomes a regular file that stat() reports as the
 * character device last made.
 */
#ifndef RCL_MFI_SHIM_H
#define RCL_MFI_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One SCSI disk on the adapter's bus, at SCSI id @id, LUN 0. */
struct mfi_shim_disk {
	uint8_t id;
	uint64_t blocks; /* of 512 bytes */
};

/*
 * mfi_shim_setup() - the adapter at SCSI host @host_no, serial @serial,
 * with @count disks (kept, not copied); its node is @node. Forgets every
 * refusal, count and failure.
 */
void mfi_shim_setup(const char *node, uint16_t host_no, const char *serial,
                    const struct mfi_shim_disk *disks, size_t count);

/* One event of a card's own log (QEMU's model keeps none). */
struct mfi_shim_event {
	uint32_t seq;
	uint32_t time; /* the firmware's: seconds since 2000-01-01 */
	uint32_t code;
	uint16_t locale;
	int8_t class_;
	const char *text;
};

/*
 * mfi_shim_events() - the card keeps @count events (kept, not copied;
 * seq rising) as a real card's firmware does: EVENT_GET_INFO bounds them,
 * EVENT_GET answers those from the mailbox's sequence number on at or
 * above its class, NOT_FOUND past the newest, EVENT_CLEAR empties the
 * log. Never called: QEMU's model, whose EVENT_GET writes nothing.
 */
void mfi_shim_events(const struct mfi_shim_event *log, size_t count);

/* A card's patrol read (QEMU's model has none: its adapter_ops lack the rate). */
struct mfi_shim_patrol {
	uint8_t op_mode; /* 0 auto, 1 manual, 2 disabled */
	uint8_t max_pd;
	uint8_t options; /* 0x01: VDs of SSDs alone too */
	uint8_t exclude_count;
	uint16_t exclude[4]; /* excluded LDs' target ids */
	uint32_t next_exec;  /* the firmware's time */
	uint32_t exec_freq;  /* seconds */
	uint32_t clear_freq;
	uint32_t iterations;
	uint8_t state; /* 0 stopped, 1 ready, 2 active, 3 paused, 4 paused by the user */
};

/*
 * mfi_shim_patrol() - the card offers the patrol read rate (adapter_ops)
 * and answers PR_GET_PROPERTIES and PR_GET_STATUS with @pr (kept, not
 * copied), its drive maps 0xa5 bytes; PR_SET_PROPERTIES' payload answers
 * the next PR_GET_PROPERTIES; its controller properties read SSDs
 * (SSDPatrolReadEnabled). Never called: QEMU's, which answers all three
 * with its dummy.
 */
void mfi_shim_patrol(const struct mfi_shim_patrol *pr);

/*
 * mfi_shim_temperature() - PD_GET_INFO reports @celsius for the drive it
 * answers for, as a real card does (QEMU's reports 0: not known).
 */
void mfi_shim_temperature(uint8_t celsius);

/*
 * mfi_shim_jbod() - CTRL_GET_INFO's adapter operations say the card
 * supports JBOD (@supported; QEMU's say nothing), its properties that
 * JBOD is enabled (@enabled; QEMU's: on).
 */
void mfi_shim_jbod(bool supported, bool enabled);

/*
 * mfi_shim_card_ids() - the card numbers its PDs as a card's firmware
 * does, by SCSI id (QEMU's: id << 8), and its firmware version is a
 * card's: a pass-through then names a PD by its id as target, LUN 0.
 */
void mfi_shim_card_ids(void);

/*
 * mfi_shim_ses() - PD_GET_LIST lists the backplane's SES processor last
 * (SCSI device type 0x0d), as a card with an expander backplane does.
 */
void mfi_shim_ses(void);

/*
 * mfi_shim_pull() - disk @id is pulled once PD_GET_LIST has listed it:
 * PD_GET_INFO and pass-through commands find no device.
 */
void mfi_shim_pull(uint8_t id);

/* mfi_shim_scsi_refuse() - pass-through commands to disk @id end with MFI status @status. */
void mfi_shim_scsi_refuse(uint8_t id, uint8_t status);

/*
 * mfi_shim_pd_facts() - PD_GET_INFO answered as a card does for disk @id
 * (mfi_shim_pd_seq()) reports media type @media (1: SSD) and the event of
 * its last predictive failure @pred_seq.
 */
void mfi_shim_pd_facts(uint8_t id, uint8_t media, uint32_t pred_seq);

/* How a DCMD is answered wrongly (mfi_shim_break()). */
enum mfi_shim_fault {
	MFI_SHIM_STATUS,    /* the firmware refuses with @status */
	MFI_SHIM_SILENT,    /* no status comes back: cmd_status stays as sent */
	MFI_SHIM_BAD_COUNT, /* a list counts more entries than its buffer holds */
	MFI_SHIM_DUMMY,     /* status OK, the buffer not written (QEMU's megasas_dcmd_dummy()) */
};

/* mfi_shim_break() - answer every DCMD @opcode with @fault (@status for MFI_SHIM_STATUS). */
void mfi_shim_break(uint32_t opcode, enum mfi_shim_fault fault, uint8_t status);

/*
 * mfi_shim_break_after() - mfi_shim_break(), but the next @skip DCMDs
 * @opcode are answered as before: a refusal of the second of two writes
 * of one record, a reply left unwritten only after the load read it.
 */
void mfi_shim_break_after(uint32_t opcode, unsigned skip, enum mfi_shim_fault fault,
                          uint8_t status);

/* mfi_shim_sent() - how many DCMDs @opcode (0: pass-through commands) came. */
unsigned mfi_shim_sent(uint32_t opcode);

/* mfi_shim_unconfigure() - drop the LD QEMU made of disk @id: the disk is free. */
void mfi_shim_unconfigure(uint8_t id);

/* mfi_shim_set_state() - the firmware moves member disk @id to state @state (0x10: OFFLINE). */
void mfi_shim_set_state(uint8_t id, uint16_t state);

/*
 * mfi_shim_pd_seq() - the firmware numbers disk @id's reference with @seq
 * (QEMU's keeps 0), and PD_GET_INFO answers for it as a real card does:
 * its own device id and number, INQUIRY and state. A change naming the
 * drive with another number is refused (INVALID_SEQUENCE_NUMBER); so is
 * an LD_DELETE or LD_SET_PROP naming an LD CFG_ADD made (numbered by the
 * fake from 0x41) with another one than LD_GET_INFO gives.
 */
void mfi_shim_pd_seq(uint8_t id, uint16_t seq);

/*
 * mfi_shim_last() - the last change @opcode sent: its mailbox into @mbox,
 * its data into @data (at most @room bytes). Return: the data's length
 * (0 for none, or none sent: mfi_shim_sent() tells).
 */
size_t mfi_shim_last(uint32_t opcode, uint8_t mbox[12], uint8_t *data, size_t room);

/* mfi_shim_deny_mknod() - making the node fails with @errnum (0: it succeeds), as for a user. */
void mfi_shim_deny_mknod(int errnum);

/* mfi_shim_deny_unlink() - removing the node, once made, fails with @errnum, as for a user. */
void mfi_shim_deny_unlink(int errnum);

/* mfi_shim_mknods() - how many times the node was made; *@dev, *@mode: the last. */
unsigned mfi_shim_mknods(dev_t *dev, mode_t *mode);

/* mfi_shim_check() - the first malformed packet, described; NULL if none. */
const char *mfi_shim_check(void);

#endif /* RCL_MFI_SHIM_H */
