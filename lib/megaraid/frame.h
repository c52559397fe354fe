/* SPDX-License-Identifier: MIT */
/*
 * frame.h - MFI commands through the megaraid_sas management ioctl: the
 * one place that builds MEGASAS_IOC_FIRMWARE packets, sends them, and
 * turns the firmware's answer into a struct rcl_error.
 *
 * The driver's ioctl returns 0 even when the firmware refused the command:
 * the firmware's verdict is the frame's cmd_status, copied back into the
 * packet. rcl_mfi_send() presets it to INVALID_STATUS, so a driver that
 * wrote nothing back is not taken for success; rcl_mfi_read() presets a
 * reply likewise, so a firmware that answered OK and wrote nothing is not
 * taken for one that answered zeros (rcl_mfi_read_mbox(), which it is
 * built on, presets zeros where its caller asks: replies a firmware may
 * leave unwritten). A record the card keeps (its properties, schedules,
 * battery settings) is changed one way only: rcl_mfi_change(), all or
 * none of several.
 */
#ifndef RCL_MEGARAID_FRAME_H
#define RCL_MEGARAID_FRAME_H

#include <stdbool.h>

#include "backend.h"
#include "megaraid/mfi.h"
#include "megaraid/model.h"

/* The Unix time of the MFI epoch, 2000-01-01 00:00:00 UTC, which the firmware counts its times
 * from. */
#define RCL_MFI_EPOCH 946684800

/* Which way a command's data goes. */
enum rcl_mfi_dir {
	RCL_MFI_DIR_NONE,
	RCL_MFI_DIR_READ,  /* from the controller into @buf */
	RCL_MFI_DIR_WRITE, /* from @buf to the controller */
};

/**
 * struct rcl_mfi_dcmd - one DCMD: @opcode, its mailbox (parameters), and
 * at most one data buffer @buf of @len bytes moving @dir.
 */
struct rcl_mfi_dcmd {
	uint32_t opcode;
	uint8_t mbox[RCL_MFI_MBOX_SIZE];
	void *buf;
	uint32_t len;
	enum rcl_mfi_dir dir;
};

/**
 * struct rcl_mfi_scsi - one SCSI command passed through to physical drive
 * @target/@lun: @cdb (@cdb_len bytes, at most 16), data as in a DCMD, and
 * @sense (@sense_len bytes, may be 0) for the drive's sense data.
 */
struct rcl_mfi_scsi {
	uint8_t target;
	uint8_t lun;
	uint8_t cdb[RCL_MFI_CDB_MAX];
	uint8_t cdb_len;
	void *buf;
	uint32_t len;
	enum rcl_mfi_dir dir;
	uint8_t *sense;
	uint8_t sense_len;
};

/* rcl_mfi_build_dcmd() - fill @pkt (zeroed here) with DCMD @d for adapter @host_no. */
void rcl_mfi_build_dcmd(struct rcl_mfi_packet *pkt, uint16_t host_no, const struct rcl_mfi_dcmd *d);

/* rcl_mfi_build_scsi() - fill @pkt (zeroed here) with pass-through @s for adapter @host_no. */
void rcl_mfi_build_scsi(struct rcl_mfi_packet *pkt, uint16_t host_no, const struct rcl_mfi_scsi *s);

/**
 * rcl_mfi_status_name() - the firmware's name for MFI status @status
 * ("WRONG_STATE"), or NULL for a code raidcli does not know.
 */
const char *rcl_mfi_status_name(uint8_t status);

/**
 * rcl_mfi_fail() - the failure for firmware status @status of @what ("the
 * controller info (CTRL_GET_INFO)"): its status mapped (INVALID_PARAMETER
 * to RCL_INVALID_PARAM, DEVICE_NOT_FOUND, NOT_FOUND and TIME_NOT_SET to
 * RCL_NOT_FOUND, WRONG_STATE to
 * RCL_NOT_ALLOWED, INVALID_CMD and INVALID_DCMD to RCL_UNSUPPORTED, the
 * rest RCL_SYSTEM), the name in the message and in @err->detail, as
 * StorCLI's Detailed Status shows it. RCL_OK for MFI_STAT_OK.
 */
enum rcl_status rcl_mfi_fail(struct rcl_error *err, uint8_t status, const char *what);

/**
 * rcl_mfi_send() - send @pkt on @fd (the open ioctl node) and check the
 * firmware's status: RCL_OK; RCL_SYSTEM (the ioctl failed: errno named;
 * ENODEV: the adapter is gone); rcl_mfi_fail()'s.
 */
enum rcl_status rcl_mfi_send(int fd, struct rcl_mfi_packet *pkt, const char *what,
                             struct rcl_error *err);

/* rcl_mfi_dcmd() - build DCMD @d for @host_no and rcl_mfi_send() it. */
enum rcl_status rcl_mfi_dcmd(int fd, uint16_t host_no, const struct rcl_mfi_dcmd *d,
                             const char *what, struct rcl_error *err);

/*
 * What raidcli presets a reply buffer to where a firmware may answer OK and
 * write nothing (QEMU's dummy DCMD): a reply still all of it was never
 * written.
 */
#define RCL_MFI_UNWRITTEN 0xff

/* rcl_mfi_unwritten() - whether the @len bytes at @p are all still RCL_MFI_UNWRITTEN. */
bool rcl_mfi_unwritten(const void *p, size_t len);

/* How a read presets its reply: what a reply the firmware never wrote reads as. */
enum rcl_mfi_preset {
	/* RCL_MFI_UNWRITTEN; a reply answered OK and left all so is RCL_BAD_REPLY. */
	RCL_MFI_PRESET_UNWRITTEN,
	/* Zeros, taken as the card's: for replies a firmware may leave short or unwritten. */
	RCL_MFI_PRESET_ZERO,
};

/* A mailbox (a compound literal) zero but for @v, little-endian, in its first two bytes. */
#define RCL_MFI_MBOX_U16(v)                                                                        \
	((const uint8_t[RCL_MFI_MBOX_SIZE]){(uint8_t)(v), (uint8_t)((uint16_t)(v) >> 8)})

/**
 * rcl_mfi_read_mbox() - DCMD @opcode with mailbox @mbox (RCL_MFI_MBOX_SIZE
 * bytes; NULL: zero) on @link, reading @len bytes into @buf, preset as
 * @preset says.
 * Return: RCL_OK; rcl_mfi_dcmd()'s failure of @what ("reading the
 * controller properties (CTRL_GET_PROPS)"); with RCL_MFI_PRESET_UNWRITTEN,
 * RCL_BAD_REPLY for a reply answered OK but not written, as QEMU answers a
 * DCMD it does not model (rcl_mfi_dcmd() never fails so: a caller may say
 * that case in its own words).
 */
enum rcl_status rcl_mfi_read_mbox(const struct rcl_mfi_link *link, uint32_t opcode,
                                  const uint8_t *mbox, enum rcl_mfi_preset preset, void *buf,
                                  uint32_t len, const char *what, struct rcl_error *err);

/**
 * rcl_mfi_read() - rcl_mfi_read_mbox() of @opcode, its mailbox zero, preset
 * to RCL_MFI_UNWRITTEN so that a reply the firmware never wrote is not
 * taken for the card's (as zeros were: a record of them written back).
 */
enum rcl_status rcl_mfi_read(const struct rcl_mfi_link *link, uint32_t opcode, void *buf,
                             uint32_t len, const char *what, struct rcl_error *err);

/* The largest card record raidcli changes (the patrol read's properties: 208 bytes). */
#define RCL_MFI_RECORD_MAX 256

/**
 * struct rcl_mfi_record - a record of the card's that raidcli changes by
 * reading it whole, editing that copy and writing it back whole, so what
 * raidcli does not name stays the card's.
 * @name:	what it is, in messages ("the patrol read schedule").
 * @get, @set:	the DCMDs reading and writing it (mailbox zero) ...
 * @get_name, @set_name: ... and their names ("PR_GET_PROPERTIES").
 * @len:	its size, at most RCL_MFI_RECORD_MAX.
 * @check:	NULL, or the check of a record read: RCL_OK, or RCL_BAD_REPLY
 *		(@err filled) for one raidcli cannot take.
 */
struct rcl_mfi_record {
	const char *name;
	uint32_t get;
	uint32_t set;
	const char *get_name;
	const char *set_name;
	uint32_t len;
	enum rcl_status (*check)(const void *rec, struct rcl_error *err);
};

/* rcl_mfi_read_record() - @rec read into @buf: rcl_mfi_read()'s status, then @rec->check's. */
enum rcl_status rcl_mfi_read_record(const struct rcl_mfi_link *link,
                                    const struct rcl_mfi_record *rec, void *buf,
                                    struct rcl_error *err);

/*
 * rcl_mfi_edit_fn - the edit of record @rec read for a change: change in
 * it what @arg asks for; whether that is anything (false: no SET is sent).
 */
typedef bool rcl_mfi_edit_fn(void *rec, const void *arg);

/**
 * struct rcl_mfi_change - one record of a change (rcl_mfi_change()).
 * @rec, @edit, @arg: the record and its edit, as rcl_mfi_change_record()
 *		takes them.
 * @was, @now, @changed: rcl_mfi_change()'s: the record as read, as
 *		edited, and whether the edit changed it.
 */
struct rcl_mfi_change {
	const struct rcl_mfi_record *rec;
	rcl_mfi_edit_fn *edit;
	const void *arg;
	uint8_t was[RCL_MFI_RECORD_MAX];
	uint8_t now[RCL_MFI_RECORD_MAX];
	bool changed;
};

/**
 * rcl_mfi_change() - change the @count records of @changes on the card
 * behind @link, all or none as far as the card allows: every one read
 * (rcl_mfi_read_record()) and edited before any is written, then those
 * their edit changed written in order. When the card refuses a write,
 * the records written before it are written back as they were read, the
 * last first; a write-back refused too is named in @err after the first
 * refusal, whose status stays.
 * Return: RCL_OK; the first failure (nothing written when a read failed).
 */
enum rcl_status rcl_mfi_change(const struct rcl_mfi_link *link, struct rcl_mfi_change *changes,
                               size_t count, struct rcl_error *err);

/* rcl_mfi_change_record() - rcl_mfi_change() of one record, @rec edited by @edit with @arg. */
enum rcl_status rcl_mfi_change_record(const struct rcl_mfi_link *link,
                                      const struct rcl_mfi_record *rec, rcl_mfi_edit_fn *edit,
                                      const void *arg, struct rcl_error *err);

/*
 * rcl_mfi_scsi_read() - rcl_mfi_scsi() of @cdb (@cdb_len bytes) to @target
 * and @lun, reading @len bytes into @buf; the sense data is not kept.
 */
enum rcl_status rcl_mfi_scsi_read(int fd, uint16_t host_no, uint8_t target, uint8_t lun,
                                  const uint8_t *cdb, uint8_t cdb_len, void *buf, uint32_t len,
                                  const char *what, struct rcl_error *err);

/*
 * rcl_mfi_scsi() - build pass-through @s for @host_no and rcl_mfi_send()
 * it; RCL_INVALID_PARAM, nothing sent, for a CDB over 16 bytes.
 */
enum rcl_status rcl_mfi_scsi(int fd, uint16_t host_no, const struct rcl_mfi_scsi *s,
                             const char *what, struct rcl_error *err);

#endif /* RCL_MEGARAID_FRAME_H */
