// SPDX-License-Identifier: MIT
/*
 * actions.c - an NVMe drive's device actions (actions.h): each opens the
 * drive, identifies its controller and sends admin.h's commands.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "nvme/actions.h"
#include "nvme/admin.h"

enum rcl_status rcl_nvme_drive_open(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                    struct rcl_nvme_drive *io, struct rcl_error *err)
{
	enum rcl_status st;

	io->d = rcl_ctrl_find_drive(ctrl, ref);
	io->fd = open(io->d->path, O_RDONLY | O_CLOEXEC);
	if (io->fd < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot open drive %u:%u ('%s'): %s",
		                      io->d->enclosure, io->d->slot, io->d->path, strerror(errno));
	st = rcl_nvme_identify_ctrl(io->fd, &io->id, err);
	if (st)
		close(io->fd);
	return st;
}

enum rcl_status rcl_nvme_only_namespace(const struct rcl_nvme_drive *io, const char *hint,
                                        uint32_t *nsid, struct rcl_error *err)
{
	struct nvme_ns_list list;
	size_t count = 0;
	enum rcl_status st = rcl_nvme_fail(err, nvme_identify_active_ns_list(io->fd, 0, &list),
	                                   "listing the drive's namespaces");

	if (st)
		return st;
	while (count < NVME_ID_NS_LIST_MAX && list.ns[count])
		count++;
	if (count != 1)
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "drive %u:%u has %zu namespaces attached: %s", io->d->enclosure,
		                io->d->slot, count, hint);
	*nsid = le32toh(list.ns[0]);
	return RCL_OK;
}

/* How many LBA formats @ns lists (NLBAF is 0-based). */
static unsigned lbaf_count(const struct nvme_id_ns *ns)
{
	return ns->nlbaf + 1u;
}

/* The format of @ns with @block_size bytes and no metadata, into *@lbaf. */
static enum rcl_status pick_lbaf(const struct rcl_nvme_drive *io, const struct nvme_id_ns *ns,
                                 unsigned block_size, unsigned *lbaf, struct rcl_error *err)
{
	for (unsigned i = 0; i < lbaf_count(ns) && i < 64; i++)
		if (ns->lbaf[i].ds < 32 && 1u << ns->lbaf[i].ds == block_size && !ns->lbaf[i].ms) {
			*lbaf = i;
			return RCL_OK;
		}
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "drive %u:%u has no LBA format of %u-byte blocks without metadata",
	                io->d->enclosure, io->d->slot, block_size);
}

static const unsigned ses_codes[] = {
    [RCL_FORMAT_SES_NONE] = NVME_FORMAT_SES_NONE,
    [RCL_FORMAT_SES_USER] = NVME_FORMAT_SES_USER_DATA_ERASE,
    [RCL_FORMAT_SES_CRYPTO] = NVME_FORMAT_SES_CRYPTO_ERASE,
};

static enum rcl_status format(const struct rcl_nvme_drive *io, const struct rcl_format *fmt,
                              struct rcl_error *err)
{
	struct nvme_id_ns ns;
	unsigned lbaf = (unsigned)fmt->lbaf;
	uint32_t nsid = fmt->nsid;
	enum rcl_status st;

	if (!nsid && rcl_nvme_only_namespace(io, "name the one to format with nsid=", &nsid, err))
		return err->status;
	if (fmt->lbaf < 0) {
		st = rcl_nvme_identify_ns(io->fd, nsid, &ns, err);
		if (!st)
			st = pick_lbaf(io, &ns, fmt->block_size, &lbaf, err);
		if (st)
			return st;
	}
	return rcl_nvme_format(io->fd, &io->id, nsid, lbaf, ses_codes[fmt->ses], err);
}

enum rcl_status rcl_nvme_format_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const struct rcl_format *fmt, struct rcl_error *err)
{
	struct rcl_nvme_drive io;
	enum rcl_status st = rcl_nvme_drive_open(ctrl, ref, &io, err);

	if (st)
		return st;
	st = format(&io, fmt, err);
	close(io.fd);
	return st;
}

static const unsigned commit_actions[] = {
    [RCL_FW_REPLACE] = NVME_FW_COMMIT_CA_REPLACE,
    [RCL_FW_ACTIVATE] = NVME_FW_COMMIT_CA_REPLACE_AND_ACTIVATE,
    [RCL_FW_ACTIVATE_NOW] = NVME_FW_COMMIT_CA_REPLACE_AND_ACTIVATE_IMMEDIATE,
};

enum rcl_status rcl_nvme_download_drive_fw(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                           const struct rcl_fw_download *fw, bool *needs_reset,
                                           struct rcl_error *err)
{
	struct rcl_nvme_drive io;
	enum rcl_status st = rcl_nvme_drive_open(ctrl, ref, &io, err);

	if (st)
		return st;
	st = rcl_nvme_fw_download(io.fd, &io.id, fw->path, err);
	if (!st)
		st = rcl_nvme_fw_commit(io.fd, &io.id, fw->slot, commit_actions[fw->action],
		                        needs_reset, err);
	close(io.fd);
	return st;
}

enum rcl_status rcl_nvme_drive_telemetry(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         const char *path, unsigned area, uint64_t *bytes,
                                         struct rcl_error *err)
{
	struct rcl_nvme_drive io;
	enum rcl_status st = rcl_nvme_drive_open(ctrl, ref, &io, err);

	if (st)
		return st;
	st = rcl_nvme_telemetry_capture(io.fd, &io.id, path, area, bytes, err);
	close(io.fd);
	return st;
}

/* Create: @req->bytes in whole blocks of format @req->lbaf of the controller's namespaces. */
static enum rcl_status ns_create(const struct rcl_nvme_drive *io, struct rcl_ns_request *req,
                                 struct rcl_error *err)
{
	struct nvme_id_ns ns;
	uint64_t block;
	enum rcl_status st =
	    rcl_nvme_fail(err, nvme_identify_ns(io->fd, NVME_NSID_ALL, &ns), "identify namespace");

	if (st)
		return st;
	if (req->lbaf >= lbaf_count(&ns) || ns.lbaf[req->lbaf].ds >= 32)
		return rcl_fail(err, RCL_INVALID_PARAM, "drive %u:%u has no LBA format %u",
		                io->d->enclosure, io->d->slot, req->lbaf);
	block = 1ull << ns.lbaf[req->lbaf].ds;
	if (req->bytes % block)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "a namespace of %llu bytes is not a whole number of LBA format "
		                "%u's %llu-byte blocks",
		                (unsigned long long)req->bytes, req->lbaf,
		                (unsigned long long)block);
	return rcl_nvme_ns_create(io->fd, &io->id, req->bytes / block, req->lbaf, &req->nsid, err);
}

static enum rcl_status ns_change(const struct rcl_nvme_drive *io, struct rcl_ns_request *req,
                                 struct rcl_error *err)
{
	switch (req->action) {
	case RCL_NS_ATTACH:
	case RCL_NS_DETACH:
		return rcl_nvme_ns_attach(io->fd, &io->id, req->nsid, le16toh(io->id.cntlid),
		                          req->action == RCL_NS_ATTACH, err);
	case RCL_NS_CREATE:
		return ns_create(io, req, err);
	case RCL_NS_DELETE:
		break;
	}
	return rcl_nvme_ns_delete(io->fd, &io->id, req->nsid, err);
}

enum rcl_status rcl_nvme_drive_namespace(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_ns_request *req, struct rcl_error *err)
{
	struct rcl_nvme_drive io;
	enum rcl_status st = rcl_nvme_drive_open(ctrl, ref, &io, err);

	if (st)
		return st;
	st = ns_change(&io, req, err);
	close(io.fd);
	return st;
}
