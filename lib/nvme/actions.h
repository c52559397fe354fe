/* SPDX-License-Identifier: MIT */
/*
 * actions.h - the nvme backend's device actions (struct rcl_backend_ops's
 * format_drive, download_drive_fw, drive_telemetry and drive_namespace),
 * and the one way its operations open a drive. lib/device.c has checked
 * the drive, its state, force and the numbers; these map the request to
 * the admin commands of admin.h on the drive's path (struct rcl_drive's
 * @path: its controller's character device or a namespace's block
 * device), which check what the drive itself can do.
 */
#ifndef RCL_NVME_ACTIONS_H
#define RCL_NVME_ACTIONS_H

#include <libnvme.h>

#include "internal.h"

/* One drive, open for admin commands, and what it says it can do. */
struct rcl_nvme_drive {
	const struct rcl_drive *d;
	int fd;
	struct nvme_id_ctrl id;
};

/**
 * rcl_nvme_drive_open() - open drive @ref of @ctrl (the generic layer
 * found it) and identify its controller into @io; close(@io->fd) after.
 * Return: RCL_OK; RCL_SYSTEM (cannot open); rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_drive_open(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                    struct rcl_nvme_drive *io, struct rcl_error *err);

/**
 * rcl_nvme_only_namespace() - the one namespace attached to @io's
 * controller, into *@nsid: what a format names when the user names none.
 * Return: RCL_OK; RCL_INVALID_COMMAND (none or several: the message ends
 * with @hint, how to name one); rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_only_namespace(const struct rcl_nvme_drive *io, const char *hint,
                                        uint32_t *nsid, struct rcl_error *err);

/*
 * The ops. format_drive formats namespace @nsid, or the drive's only one
 * (rcl_nvme_only_namespace()); with @lbaf -1,
 * in its format of @block_size bytes without metadata. drive_namespace
 * attaches and detaches to and from the controller the path is open on,
 * and creates in whole blocks of the format (RCL_INVALID_PARAM for a
 * size that is not).
 */
enum rcl_status rcl_nvme_format_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const struct rcl_format *fmt, struct rcl_error *err);
enum rcl_status rcl_nvme_download_drive_fw(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                           const struct rcl_fw_download *fw, bool *needs_reset,
                                           struct rcl_error *err);
enum rcl_status rcl_nvme_drive_telemetry(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         const char *path, unsigned area, uint64_t *bytes,
                                         struct rcl_error *err);
enum rcl_status rcl_nvme_drive_namespace(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_ns_request *req, struct rcl_error *err);

#endif /* RCL_NVME_ACTIONS_H */
