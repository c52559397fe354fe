/* SPDX-License-Identifier: MIT */
/*
 * task.h - the nvme backend's task operations (struct rcl_backend_ops's
 * task_check, task and task_progress): a drive's self-test and erase,
 * run by the drive itself and followed through its logs.
 *
 * What struct rcl_task_request carries decides what they can do:
 * - RCL_TASK_SELF_TEST starts the short or extended self-test (the
 *   request's @self_test) of the controller and all its namespaces; STOP
 *   aborts it.
 * - RCL_TASK_ERASE erases by the request's @sanitize method, refused
 *   where the drive lacks it; RCL_SANITIZE_AUTO sanitizes with the
 *   strongest method the drive's SANICAP offers (crypto erase, then block
 *   erase, then overwrite) or, on a drive without sanitize, formats the
 *   drive's namespace in its present LBA format with a user data erase,
 *   as RCL_SANITIZE_FORMAT does.
 *   A sanitize erases every namespace of the controller's subsystem.
 *   Neither can be stopped: NVMe has no abort for them.
 * - RCL_TASK_FW_UPDATE is refused: the request names neither the image
 *   file, the slot, the commit action nor the drive (its target is the
 *   controller). rcl_nvme_fw_download() and rcl_nvme_fw_commit() do it.
 *
 * The drive's path (struct rcl_drive's @path) is opened for the commands:
 * its controller's character device or a namespace's block device.
 */
#ifndef RCL_NVME_TASK_H
#define RCL_NVME_TASK_H

#include "internal.h"

enum rcl_status rcl_nvme_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err);
enum rcl_status rcl_nvme_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err);
enum rcl_status rcl_nvme_task_progress(const struct rcl_ctrl *ctrl,
                                       const struct rcl_task_request *req,
                                       struct rcl_task_progress *out, struct rcl_error *err);

#endif /* RCL_NVME_TASK_H */
