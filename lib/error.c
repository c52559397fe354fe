// SPDX-License-Identifier: MIT
/*
 * error.c - status names and the one way to record a failure.
 */
#include <stdio.h>

#include "raidcli.h"

static const struct {
	enum rcl_status status;
	const char *name;
} status_names[] = {
    {RCL_OK, "success"},
    {RCL_INVALID_COMMAND, "invalid command"},
    {RCL_INVALID_PARAM, "invalid parameter"},
    {RCL_DRIVE_TOO_SMALL, "drive too small"},
    {RCL_NOT_FOUND, "not found"},
    {RCL_FOREIGN_INCOMPLETE, "incomplete foreign configuration"},
    {RCL_NOT_ALLOWED, "operation not allowed"},
    {RCL_NOMEM, "out of memory"},
    {RCL_CORRUPT, "corrupt state"},
    {RCL_SYSTEM, "system error"},
    {RCL_BUSY, "busy"},
    {RCL_UNSUPPORTED, "not supported by this controller"},
    {RCL_NEED_FORCE, "confirmation required"},
    {RCL_EXISTS, "already exists"},
};

const char *rcl_status_name(enum rcl_status status)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (status_names[i].status == status)
			return status_names[i].name;
	return "unknown status";
}

enum rcl_status rcl_error_set(struct rcl_error *err, enum rcl_status status, int sys_errno,
                              const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return status;
	err->status = status;
	err->sys_errno = sys_errno;
	err->file = file;
	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return status;
}
