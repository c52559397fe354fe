// SPDX-License-Identifier: MIT
/*
 * frame.c - MEGASAS_IOC_FIRMWARE packets: building DCMD and pass-through
 * frames, sending them, and naming the firmware's status; reads checked
 * as written, and the read-change-write of the card's records (frame.h).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "megaraid/frame.h"

/* The firmware's status names, by code (the MFI_STAT_ enumeration, in order). */
static const char *const status_names[] = {
    "OK",
    "INVALID_CMD",
    "INVALID_DCMD",
    "INVALID_PARAMETER",
    "INVALID_SEQUENCE_NUMBER",
    "ABORT_NOT_POSSIBLE",
    "APP_HOST_CODE_NOT_FOUND",
    "APP_IN_USE",
    "APP_NOT_INITIALIZED",
    "ARRAY_INDEX_INVALID",
    "ARRAY_ROW_NOT_EMPTY",
    "CONFIG_RESOURCE_CONFLICT",
    "DEVICE_NOT_FOUND",
    "DRIVE_TOO_SMALL",
    "FLASH_ALLOC_FAIL",
    "FLASH_BUSY",
    "FLASH_ERROR",
    "FLASH_IMAGE_BAD",
    "FLASH_IMAGE_INCOMPLETE",
    "FLASH_NOT_OPEN",
    "FLASH_NOT_STARTED",
    "FLUSH_FAILED",
    "HOST_CODE_NOT_FOUND",
    "LD_CC_IN_PROGRESS",
    "LD_INIT_IN_PROGRESS",
    "LD_LBA_OUT_OF_RANGE",
    "LD_MAX_CONFIGURED",
    "LD_NOT_OPTIMAL",
    "LD_RBLD_IN_PROGRESS",
    "LD_RECON_IN_PROGRESS",
    "LD_WRONG_RAID_LEVEL",
    "MAX_SPARES_EXCEEDED",
    "MEMORY_NOT_AVAILABLE",
    "MFC_HW_ERROR",
    "NO_HW_PRESENT",
    "NOT_FOUND",
    "NOT_IN_ENCL",
    "PD_CLEAR_IN_PROGRESS",
    "PD_TYPE_WRONG",
    "PR_DISABLED",
    "ROW_INDEX_INVALID",
    "SAS_CONFIG_INVALID_ACTION",
    "SAS_CONFIG_INVALID_DATA",
    "SAS_CONFIG_INVALID_PAGE",
    "SAS_CONFIG_INVALID_TYPE",
    "SCSI_DONE_WITH_ERROR",
    "SCSI_IO_FAILED",
    "SCSI_RESERVATION_CONFLICT",
    "SHUTDOWN_FAILED",
    "TIME_NOT_SET",
    "WRONG_STATE",
    "LD_OFFLINE",
    "PEER_NOTIFICATION_REJECTED",
    "PEER_NOTIFICATION_FAILED",
    "RESERVATION_IN_PROGRESS",
    "I2C_ERRORS_DETECTED",
    "PCI_ERRORS_DETECTED",
    "DIAG_FAILED",
    "BOOT_MSG_PENDING",
    "FOREIGN_CONFIG_INCOMPLETE",
    "INVALID_SGL",
    "UNSUPPORTED_HW",
    "CC_SCHEDULE_DISABLED",
    "PD_COPYBACK_IN_PROGRESS",
};

const char *rcl_mfi_status_name(uint8_t status)
{
	if (status == RCL_MFI_STAT_INVALID_STATUS)
		return "INVALID_STATUS";
	return status < sizeof(status_names) / sizeof(status_names[0]) ? status_names[status]
	                                                               : NULL;
}

/* The raidcli status for firmware status @status. */
static enum rcl_status status_of(uint8_t status)
{
	switch (status) {
	case RCL_MFI_STAT_INVALID_CMD:
	case RCL_MFI_STAT_INVALID_DCMD:
		return RCL_UNSUPPORTED;
	case RCL_MFI_STAT_INVALID_PARAMETER:
		return RCL_INVALID_PARAM;
	case RCL_MFI_STAT_DEVICE_NOT_FOUND:
	case RCL_MFI_STAT_NOT_FOUND:
	case RCL_MFI_STAT_TIME_NOT_SET: /* the clock asked for: none */
		return RCL_NOT_FOUND;
	case RCL_MFI_STAT_WRONG_STATE:
		return RCL_NOT_ALLOWED;
	default:
		return RCL_SYSTEM;
	}
}

enum rcl_status rcl_mfi_fail(struct rcl_error *err, uint8_t status, const char *what)
{
	const char *name = rcl_mfi_status_name(status);
	enum rcl_status st;

	if (status == RCL_MFI_STAT_OK)
		return RCL_OK;
	if (!name)
		name = "unknown status";
	st = rcl_fail(err, status_of(status),
	              "%s failed: the controller answered %s (MFI status 0x%02x)", what, name,
	              status);
	if (err)
		snprintf(err->detail, sizeof(err->detail), "%s (MFI status 0x%02x)", name, status);
	return st;
}

/* The frame flags for data moving @dir. */
static uint16_t dir_flags(enum rcl_mfi_dir dir)
{
	return dir == RCL_MFI_DIR_READ    ? RCL_MFI_FLAG_READ
	       : dir == RCL_MFI_DIR_WRITE ? RCL_MFI_FLAG_WRITE
	                                  : RCL_MFI_FLAG_NONE;
}

/* The header and iovec both frames share: @len bytes of @buf, at @sgl_off. */
static void build_common(struct rcl_mfi_packet *pkt, uint16_t host_no, uint8_t cmd,
                         uint32_t sgl_off, void *buf, uint32_t len, enum rcl_mfi_dir dir)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->host_no = host_no;
	pkt->sgl_off = sgl_off;
	pkt->frame.hdr.cmd = cmd;
	pkt->frame.hdr.cmd_status = RCL_MFI_STAT_INVALID_STATUS;
	pkt->frame.hdr.flags = htole16(dir_flags(dir));
	if (buf && len) {
		pkt->sge_count = 1;
		pkt->frame.hdr.sge_count = 1;
		pkt->frame.hdr.data_len = htole32(len);
		pkt->sgl[0].iov_base = buf;
		pkt->sgl[0].iov_len = len;
	}
}

void rcl_mfi_build_dcmd(struct rcl_mfi_packet *pkt, uint16_t host_no, const struct rcl_mfi_dcmd *d)
{
	build_common(pkt, host_no, RCL_MFI_CMD_DCMD, sizeof(struct rcl_mfi_dcmd_frame), d->buf,
	             d->len, d->dir);
	pkt->frame.dcmd.opcode = htole32(d->opcode);
	memcpy(pkt->frame.dcmd.mbox, d->mbox, sizeof(d->mbox));
}

void rcl_mfi_build_scsi(struct rcl_mfi_packet *pkt, uint16_t host_no, const struct rcl_mfi_scsi *s)
{
	uint64_t sense = (uint64_t)(uintptr_t)s->sense;

	build_common(pkt, host_no, RCL_MFI_CMD_PD_SCSI_IO, sizeof(struct rcl_mfi_pass_frame),
	             s->buf, s->len, s->dir);
	pkt->frame.hdr.target_id = s->target;
	pkt->frame.hdr.lun = s->lun;
	pkt->frame.hdr.cdb_len = s->cdb_len;
	memcpy(pkt->frame.pass.cdb, s->cdb, s->cdb_len);
	/* The driver copies the sense data to the user address it finds at sense_off. */
	if (s->sense && s->sense_len) {
		pkt->frame.hdr.sense_len = s->sense_len;
		pkt->sense_off = offsetof(struct rcl_mfi_pass_frame, sense_addr);
		pkt->sense_len = s->sense_len;
		memcpy(&pkt->frame.pass.sense_addr, &sense, sizeof(sense));
	}
}

enum rcl_status rcl_mfi_send(int fd, struct rcl_mfi_packet *pkt, const char *what,
                             struct rcl_error *err)
{
	if (ioctl(fd, RCL_MFI_IOC_FIRMWARE, pkt) < 0)
		return rcl_fail_errno(err, errno == ENOMEM ? RCL_NOMEM : RCL_SYSTEM, errno,
		                      "%s failed: %s", what, strerror(errno));
	return rcl_mfi_fail(err, pkt->frame.hdr.cmd_status, what);
}

enum rcl_status rcl_mfi_dcmd(int fd, uint16_t host_no, const struct rcl_mfi_dcmd *d,
                             const char *what, struct rcl_error *err)
{
	struct rcl_mfi_packet pkt;

	rcl_mfi_build_dcmd(&pkt, host_no, d);
	return rcl_mfi_send(fd, &pkt, what, err);
}

enum rcl_status rcl_mfi_scsi(int fd, uint16_t host_no, const struct rcl_mfi_scsi *s,
                             const char *what, struct rcl_error *err)
{
	struct rcl_mfi_packet pkt;

	/* The frame holds 16 bytes of CDB: a longer one would run into its SGL. */
	if (s->cdb_len > RCL_MFI_CDB_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM, "%s: a CDB of %u bytes (at most %d)", what,
		                s->cdb_len, RCL_MFI_CDB_MAX);
	rcl_mfi_build_scsi(&pkt, host_no, s);
	return rcl_mfi_send(fd, &pkt, what, err);
}

enum rcl_status rcl_mfi_scsi_read(int fd, uint16_t host_no, uint8_t target, uint8_t lun,
                                  const uint8_t *cdb, uint8_t cdb_len, void *buf, uint32_t len,
                                  const char *what, struct rcl_error *err)
{
	uint8_t sense[32];
	struct rcl_mfi_scsi s = {
	    .target = target,
	    .lun = lun,
	    .cdb_len = cdb_len,
	    .buf = buf,
	    .len = len,
	    .dir = RCL_MFI_DIR_READ,
	    .sense = sense,
	    .sense_len = sizeof(sense),
	};

	memcpy(s.cdb, cdb, cdb_len < sizeof(s.cdb) ? cdb_len : sizeof(s.cdb));
	return rcl_mfi_scsi(fd, host_no, &s, what, err);
}

bool rcl_mfi_unwritten(const void *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (((const uint8_t *)p)[i] != RCL_MFI_UNWRITTEN)
			return false;
	return true;
}

enum rcl_status rcl_mfi_read_mbox(const struct rcl_mfi_link *link, uint32_t opcode,
                                  const uint8_t *mbox, enum rcl_mfi_preset preset, void *buf,
                                  uint32_t len, const char *what, struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {.opcode = opcode, .buf = buf, .len = len, .dir = RCL_MFI_DIR_READ};
	bool unwritten = preset == RCL_MFI_PRESET_UNWRITTEN;
	enum rcl_status st;

	if (mbox)
		memcpy(d.mbox, mbox, sizeof(d.mbox));
	memset(buf, unwritten ? RCL_MFI_UNWRITTEN : 0, len);
	st = rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d, what, err);
	if (!st && unwritten && rcl_mfi_unwritten(buf, len))
		return rcl_fail(err, RCL_BAD_REPLY,
		                "%s failed: the controller answered OK but wrote no reply", what);
	return st;
}

enum rcl_status rcl_mfi_read(const struct rcl_mfi_link *link, uint32_t opcode, void *buf,
                             uint32_t len, const char *what, struct rcl_error *err)
{
	return rcl_mfi_read_mbox(link, opcode, NULL, RCL_MFI_PRESET_UNWRITTEN, buf, len, what, err);
}

enum rcl_status rcl_mfi_read_record(const struct rcl_mfi_link *link,
                                    const struct rcl_mfi_record *rec, void *buf,
                                    struct rcl_error *err)
{
	char what[128];
	enum rcl_status st;

	snprintf(what, sizeof(what), "reading %s (%s)", rec->name, rec->get_name);
	st = rcl_mfi_read(link, rec->get, buf, rec->len, what, err);
	return st || !rec->check ? st : rec->check(buf, err);
}

/* Write @buf to the card as record @rec, @doing so ("setting"). */
static enum rcl_status write_record(const struct rcl_mfi_link *link,
                                    const struct rcl_mfi_record *rec, void *buf, const char *doing,
                                    struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {
	    .opcode = rec->set, .buf = buf, .len = rec->len, .dir = RCL_MFI_DIR_WRITE};
	char what[128];

	snprintf(what, sizeof(what), "%s %s (%s)", doing, rec->name, rec->set_name);
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d, what, err);
}

/* Read and edit each of the @count @changes. */
static enum rcl_status read_all(const struct rcl_mfi_link *link, struct rcl_mfi_change *changes,
                                size_t count, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (size_t i = 0; !st && i < count; i++) {
		struct rcl_mfi_change *c = &changes[i];

		st = rcl_mfi_read_record(link, c->rec, c->was, err);
		memcpy(c->now, c->was, c->rec->len);
		c->changed = !st && c->edit(c->now, c->arg);
	}
	return st;
}

/*
 * Write back the first @done of @changes as they were read, the last
 * first; each one refused is added to @err, which holds why they must be.
 */
static void restore(const struct rcl_mfi_link *link, struct rcl_mfi_change *changes, size_t done,
                    struct rcl_error *err)
{
	for (size_t i = done; i-- > 0;) {
		struct rcl_error why = {0};
		struct rcl_error first;

		if (!changes[i].changed ||
		    !write_record(link, changes[i].rec, changes[i].was, "restoring", &why) || !err)
			continue;
		first = *err;
		rcl_fail(err, first.status, "%s; %s, so the card keeps that change", first.msg,
		         why.msg);
		memcpy(err->detail, first.detail, sizeof(err->detail));
		err->sys_errno = first.sys_errno;
	}
}

enum rcl_status rcl_mfi_change(const struct rcl_mfi_link *link, struct rcl_mfi_change *changes,
                               size_t count, struct rcl_error *err)
{
	enum rcl_status st = read_all(link, changes, count, err);
	size_t done = 0;

	while (!st && done < count) {
		if (changes[done].changed)
			st = write_record(link, changes[done].rec, changes[done].now, "setting",
			                  err);
		if (!st)
			done++;
	}
	if (st)
		restore(link, changes, done, err);
	return st;
}

enum rcl_status rcl_mfi_change_record(const struct rcl_mfi_link *link,
                                      const struct rcl_mfi_record *rec, rcl_mfi_edit_fn *edit,
                                      const void *arg, struct rcl_error *err)
{
	struct rcl_mfi_change c = {.rec = rec, .edit = edit, .arg = arg};

	return rcl_mfi_change(link, &c, 1, err);
}
