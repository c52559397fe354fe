// SPDX-License-Identifier: MIT
/*
 * task.c - an NVMe drive's background tasks (task.h): self-test and
 * erase, which the drive runs by itself once started. Nothing is
 * recorded on the host: where a task stands is read from the drive each
 * time, from its device self-test log (current operation, completion) and
 * its sanitize status log (SSTAT, SPROG).
 */
#include <endian.h>
#include <unistd.h>

#include "nvme/actions.h"
#include "nvme/admin.h"
#include "nvme/logs.h"
#include "nvme/task.h"

static bool has_self_test(const struct nvme_id_ctrl *id)
{
	return le16toh(id->oacs) & NVME_CTRL_OACS_SELF_TEST;
}

static uint32_t sanitize_methods(const struct nvme_id_ctrl *id)
{
	return le32toh(id->sanicap) &
	       (NVME_CTRL_SANICAP_CES | NVME_CTRL_SANICAP_BES | NVME_CTRL_SANICAP_OWS);
}

/* Bit of "Format NVM" among erase_methods()'s, above SANICAP's method bits. */
#define ERASE_BY_FORMAT (1u << 31)

/* How the drive can erase itself: SANICAP's method bits, and ERASE_BY_FORMAT. */
static uint32_t erase_methods(const struct nvme_id_ctrl *id)
{
	return sanitize_methods(id) |
	       (le16toh(id->oacs) & NVME_CTRL_OACS_FORMAT ? ERASE_BY_FORMAT : 0);
}

/* The erase_methods() bits that can carry out @how (AUTO: any of them; passes: none). */
static uint32_t method_bits(enum rcl_erase_mode how)
{
	switch (how) {
	case RCL_ERASE_CRYPTO:
		return NVME_CTRL_SANICAP_CES;
	case RCL_ERASE_BLOCK:
		return NVME_CTRL_SANICAP_BES;
	case RCL_ERASE_OVERWRITE:
		return NVME_CTRL_SANICAP_OWS;
	case RCL_ERASE_FORMAT:
		return ERASE_BY_FORMAT;
	case RCL_ERASE_AUTO:
		return UINT32_MAX;
	default:
		return 0;
	}
}

/* The words of the erases drive @id offers ("crypto, format", or "none"), into @buf. */
static void offered(const struct nvme_id_ctrl *id, char *buf, size_t size)
{
	static const enum rcl_erase_mode own[] = {RCL_ERASE_CRYPTO, RCL_ERASE_BLOCK,
	                                          RCL_ERASE_OVERWRITE, RCL_ERASE_FORMAT};
	static const char *const words[] = {"crypto", "blockerase", "overwrite", "format"};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < 4; i++)
		if (erase_methods(id) & method_bits(own[i]) && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", words[i]);
	if (!n)
		snprintf(buf, size, "none");
}

/* How an erase by @how is named in refusals. */
static const char *erase_name(enum rcl_erase_mode how)
{
	switch (how) {
	case RCL_ERASE_CRYPTO:
		return "sanitize by crypto erase";
	case RCL_ERASE_BLOCK:
		return "sanitize by block erase";
	case RCL_ERASE_OVERWRITE:
		return "sanitize by overwrite";
	case RCL_ERASE_FORMAT:
		return "erase by format";
	case RCL_ERASE_AUTO:
		return "erase";
	default:
		return "an erase simple, normal or thorough";
	}
}

/*
 * Whether the drive of @id erases as @how: refused, naming what it offers,
 * when it cannot (and always for passes: the drive erases itself).
 */
static enum rcl_status check_erase(const struct nvme_id_ctrl *id, enum rcl_erase_mode how,
                                   struct rcl_error *err)
{
	char words[64], hint[160];

	if (erase_methods(id) & method_bits(how))
		return RCL_OK;
	if (how == RCL_ERASE_AUTO)
		return rcl_unsupported(err, "nvme", erase_name(how),
		                       "the drive has neither sanitize (SANICAP) nor Format NVM "
		                       "(OACS)");
	offered(id, words, sizeof(words));
	if (rcl_erase_passes(how))
		snprintf(hint, sizeof(hint),
		         "it is an overwrite by passes, and an NVMe drive erases itself: this "
		         "drive offers %s",
		         words);
	else
		snprintf(hint, sizeof(hint),
		         "the drive does not offer it (SANICAP, OACS): this drive offers %s",
		         words);
	return rcl_unsupported(err, "nvme", erase_name(how), hint);
}

/* Where @kind stands on the drive, from its log: *@state and *@percent (-1: none). */
static enum rcl_status drive_state(const struct rcl_nvme_drive *io, enum rcl_task_kind kind,
                                   enum rcl_task_state *state, int *percent, struct rcl_error *err)
{
	uint8_t buf[RCL_NVME_SELF_TEST_LOG_SIZE];
	struct rcl_nvme_log log = {.nsid = NVME_NSID_ALL};
	struct rcl_nvme_self_test_log st_log;
	struct rcl_nvme_sanitize_log san;
	enum rcl_status st;

	*state = RCL_TASK_STATE_STOPPED;
	*percent = -1;
	/* A drive without the command has no log to read (QEMU answers Invalid Field). */
	if (kind == RCL_TASK_SELF_TEST && has_self_test(&io->id)) {
		log.lid = NVME_LOG_LID_DEVICE_SELF_TEST;
		log.what = "self-test log";
		st = rcl_nvme_get_log(io->fd, &log, buf, RCL_NVME_SELF_TEST_LOG_SIZE, err);
		if (!st)
			st = rcl_nvme_self_test_decode(buf, RCL_NVME_SELF_TEST_LOG_SIZE, &st_log,
			                               err);
		if (!st && st_log.current) {
			*state = RCL_TASK_STATE_RUNNING;
			*percent = (int)st_log.percent;
		}
		return st;
	}
	if (kind == RCL_TASK_ERASE && sanitize_methods(&io->id)) {
		log.lid = NVME_LOG_LID_SANITIZE;
		log.what = "sanitize status log";
		st = rcl_nvme_get_log(io->fd, &log, buf, RCL_NVME_SANITIZE_LOG_SIZE, err);
		if (!st)
			st = rcl_nvme_sanitize_decode(buf, RCL_NVME_SANITIZE_LOG_SIZE, &san, err);
		if (!st && san.state == RCL_NVME_SANITIZE_RUNNING) {
			*state = RCL_TASK_STATE_RUNNING;
			*percent = (int)san.percent;
		} else if (!st && san.state == RCL_NVME_SANITIZE_FAILED) {
			/* The drive stays in its failure mode until a sanitize completes. */
			*state = RCL_TASK_STATE_FAILED;
		}
		return st;
	}
	return RCL_OK;
}

/* What refuses a START of @req on the open drive. */
static enum rcl_status check_start(const struct rcl_nvme_drive *io,
                                   const struct rcl_task_request *req, struct rcl_error *err)
{
	const char *name = rcl_task_kind_name(req->kind);
	enum rcl_task_state state;
	int percent;
	enum rcl_status st;

	if (req->kind == RCL_TASK_SELF_TEST && !has_self_test(&io->id))
		return rcl_unsupported(err, "nvme", name,
		                       "the drive has no Device Self-test command (OACS)");
	st = req->kind == RCL_TASK_ERASE ? check_erase(&io->id, req->erase.mode, err) : RCL_OK;
	if (!st)
		st = drive_state(io, req->kind, &state, &percent, err);
	if (!st && state == RCL_TASK_STATE_RUNNING)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "a %s is already running on drive %u:%u (%d %%)", name,
		                io->d->enclosure, io->d->slot, percent);
	return st;
}

/* The firmware update is no task here: the request cannot say what to update. */
static enum rcl_status no_fw_task(struct rcl_error *err)
{
	return rcl_unsupported(err, "nvme", "firmware update as a task",
	                       "it needs an image file, a slot and a drive; "
	                       "download it to the drive instead");
}

enum rcl_status rcl_nvme_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err)
{
	struct rcl_nvme_drive io;
	enum rcl_status st;

	if (req->kind == RCL_TASK_FW_UPDATE)
		return no_fw_task(err);
	st = rcl_nvme_drive_open(ctrl, &req->drive, &io, err);
	if (st)
		return st;
	st = check_start(&io, req, err);
	close(io.fd);
	return st;
}

/*
 * Erase by @how (check_start() found the drive has it); AUTO: sanitize by
 * the strongest method the drive has, else format with erase.
 */
static enum rcl_status erase(const struct rcl_nvme_drive *io, enum rcl_erase_mode how,
                             struct rcl_error *err)
{
	static const enum rcl_nvme_sanitize order[] = {
	    RCL_NVME_SANITIZE_CRYPTO, RCL_NVME_SANITIZE_BLOCK, RCL_NVME_SANITIZE_OVERWRITE};
	static const uint32_t bits[] = {NVME_CTRL_SANICAP_CES, NVME_CTRL_SANICAP_BES,
	                                NVME_CTRL_SANICAP_OWS};
	struct nvme_id_ns ns;
	uint32_t nsid;
	enum rcl_status st;

	for (size_t i = 0; i < 3; i++)
		if (sanitize_methods(&io->id) & bits[i] & method_bits(how))
			return rcl_nvme_sanitize(io->fd, &io->id, order[i], err);
	st = rcl_nvme_only_namespace(io,
	                             "a drive without sanitize is erased by a format of its "
	                             "only one: format each (format nsid= ses=user)",
	                             &nsid, err);
	if (!st)
		st = rcl_nvme_identify_ns(io->fd, nsid, &ns, err);
	if (st)
		return st;
	/* FLBAS: the format in use, bits 3:0, and its upper bits 6:5. */
	return rcl_nvme_format(io->fd, &io->id, nsid, (ns.flbas & 0xf) | ((ns.flbas >> 5) & 3) << 4,
	                       NVME_FORMAT_SES_USER_DATA_ERASE, err);
}

static enum rcl_status act(const struct rcl_nvme_drive *io, const struct rcl_task_request *req,
                           struct rcl_error *err)
{
	const char *name = rcl_task_kind_name(req->kind);
	enum rcl_task_state state;
	int percent;
	enum rcl_status st;

	switch (req->action) {
	case RCL_TASK_ACTION_START:
		st = check_start(io, req, err);
		if (st)
			return st;
		if (req->kind == RCL_TASK_ERASE)
			return erase(io, req->erase.mode, err);
		return rcl_nvme_self_test(io->fd, &io->id, NVME_NSID_ALL,
		                          req->self_test == RCL_SELF_TEST_EXTENDED
		                              ? NVME_DST_STC_LONG
		                              : NVME_DST_STC_SHORT,
		                          err);
	case RCL_TASK_ACTION_STOP:
		if (req->kind == RCL_TASK_ERASE)
			return rcl_fail(err, RCL_NOT_ALLOWED,
			                "an erase of drive %u:%u cannot be stopped: NVMe drives "
			                "finish a sanitize or format once started",
			                io->d->enclosure, io->d->slot);
		st = drive_state(io, req->kind, &state, &percent, err);
		if (!st && state != RCL_TASK_STATE_RUNNING)
			return rcl_fail(err, RCL_NOT_ALLOWED, "no %s is running on drive %u:%u",
			                name, io->d->enclosure, io->d->slot);
		return st ? st
		          : rcl_nvme_self_test(io->fd, &io->id, NVME_NSID_ALL, NVME_DST_STC_ABORT,
		                               err);
	case RCL_TASK_ACTION_PAUSE:
	case RCL_TASK_ACTION_RESUME:
		break;
	}
	return rcl_fail(err, RCL_NOT_ALLOWED,
	                "a %s of drive %u:%u cannot be paused or resumed: NVMe has no such command",
	                name, io->d->enclosure, io->d->slot);
}

enum rcl_status rcl_nvme_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err)
{
	struct rcl_nvme_drive io;
	enum rcl_status st;

	if (req->kind == RCL_TASK_FW_UPDATE)
		return no_fw_task(err);
	st = rcl_nvme_drive_open(ctrl, &req->drive, &io, err);
	if (st)
		return st;
	st = act(&io, req, err);
	close(io.fd);
	return st;
}

enum rcl_status rcl_nvme_task_progress(const struct rcl_ctrl *ctrl,
                                       const struct rcl_task_request *req,
                                       struct rcl_task_progress *out, struct rcl_error *err)
{
	struct rcl_nvme_drive io;
	enum rcl_status st;

	/* A firmware download ends before its command returns: none is ever under way. */
	if (req->kind == RCL_TASK_FW_UPDATE) {
		out->state = RCL_TASK_STATE_STOPPED;
		return RCL_OK;
	}
	st = rcl_nvme_drive_open(ctrl, &req->drive, &io, err);
	if (st)
		return st;
	st = drive_state(&io, req->kind, &out->state, &out->percent, err);
	close(io.fd);
	return st;
}
