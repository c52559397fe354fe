// SPDX-License-Identifier: MIT
/*
 * patrol.c - a MegaRAID card's patrol read, which its firmware schedules
 * and runs itself: raidcli reads its properties and status as StorCLI's
 * "show patrolread" does, so "show all" and the schedule rows tell what
 * the card will do, not raidcli's defaults.
 */
#include <endian.h>
#include <string.h>

#include "megaraid/frame.h"
#include "megaraid/patrol.h"

/* The Unix time of the MFI epoch, 2000-01-01 00:00:00 UTC. */
#define MFI_EPOCH 946684800

static enum rcl_status read_dcmd(const struct rcl_mfi_link *link, uint32_t opcode, void *buf,
                                 uint32_t len, const char *what, struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {.opcode = opcode, .buf = buf, .len = len, .dir = RCL_MFI_DIR_READ};

	memset(buf, 0, len);
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d, what, err);
}

static enum rcl_pr_mode pr_mode(uint8_t op_mode)
{
	return op_mode == RCL_MFI_PR_AUTO     ? RCL_PR_AUTO
	       : op_mode == RCL_MFI_PR_MANUAL ? RCL_PR_MANUAL
	                                      : RCL_PR_OFF;
}

/* Hours between runs, within raidcli's range (a card counts seconds). */
static unsigned delay_hours(uint32_t seconds)
{
	unsigned hours = seconds / 3600;

	return hours < 1 ? 1 : hours > RCL_MAX_DELAY ? RCL_MAX_DELAY : hours;
}

enum rcl_status rcl_mfi_read_patrol(const struct rcl_mfi_link *link,
                                    struct rcl_ctrl_settings *settings,
                                    struct rcl_patrol_status *status, struct rcl_error *err)
{
	struct rcl_mfi_pr_props props;
	struct rcl_mfi_pr_status now;
	enum rcl_status st = read_dcmd(link, RCL_MFI_DCMD_PR_GET_PROPERTIES, &props, sizeof(props),
	                               "the patrol read properties (PR_GET_PROPERTIES)", err);

	if (!st)
		st = read_dcmd(link, RCL_MFI_DCMD_PR_GET_STATUS, &now, sizeof(now),
		               "the patrol read status (PR_GET_STATUS)", err);
	if (st)
		return st;
	settings->pr_mode = pr_mode(props.op_mode);
	settings->pr_max_drives = props.max_pd ? props.max_pd : RCL_MAX_PR_DRIVES;
	settings->pr.delay = delay_hours(le32toh(props.exec_freq));
	/* Only an automatic patrol read has a next run the card will start. */
	status->next_start = props.op_mode == RCL_MFI_PR_AUTO && props.next_exec
	                         ? (int64_t)MFI_EPOCH + le32toh(props.next_exec)
	                         : 0;
	status->iterations = le32toh(now.iterations);
	status->state = now.state == RCL_MFI_PR_ACTIVE ? RCL_SCHEDULE_ACTIVE : RCL_SCHEDULE_STOPPED;
	return RCL_OK;
}
