/* SPDX-License-Identifier: MIT */
/*
 * operation.h - a Redfish resource's Operations[] (the rebuild, check,
 * initialization or sanitize a Volume or Drive is under) read as raidcli's
 * task progress.
 */
#ifndef RCL_REDFISH_OPERATION_H
#define RCL_REDFISH_OPERATION_H

#include <json-c/json.h>

#include "raidcli.h"

/**
 * rcl_redfish_operation_progress() - where task @kind stands on resource
 * @res (a Volume or Drive read from @where), into *@out (as
 * rcl_ctrl_task_progress() fills it): RUNNING with PercentageComplete when
 * an entry of its Operations[] is that task (its Operation, else its
 * OperationName: Rebuild, CheckConsistency or ConsistencyCheck,
 * Initialize or BackgroundInitialize, Sanitize or SecureErase,
 * ChangeRAIDType, Resize, ChangeStripSize), else STOPPED with -1. A
 * NULL @res is a resource with no Operations.
 * Return: RCL_OK; RCL_BAD_REPLY naming the property of the wrong type.
 */
enum rcl_status rcl_redfish_operation_progress(json_object *res, const char *where,
                                               enum rcl_task_kind kind,
                                               struct rcl_task_progress *out,
                                               struct rcl_error *err);

#endif /* RCL_REDFISH_OPERATION_H */
