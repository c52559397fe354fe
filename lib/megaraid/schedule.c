// SPDX-License-Identifier: MIT
/*
 * schedule.c - the patrol read and the consistency check a MegaRAID
 * card's firmware schedules and runs itself: raidcli reads their
 * properties and status as StorCLI's "show patrolread" and "show cc" do,
 * so "show all" and the schedule rows tell what the card will do, not
 * raidcli's defaults; "set cc" writes the check's schedule to the card.
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "megaraid/frame.h"
#include "megaraid/schedule.h"

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

/* Every VD raidcli numbers fits the legacy layout's excluded LDs. */
_Static_assert(RCL_MAX_VDS <= RCL_MFI_MAX_LD, "CC schedule exclusions");

/* CC_SCHEDULE_GET_PROPERTIES or _GET_STATUS (@opcode, @name) into @buf, checked as written. */
static enum rcl_status read_cc(const struct rcl_mfi_link *link, uint32_t opcode, const char *name,
                               void *buf, uint32_t len, struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {.opcode = opcode, .buf = buf, .len = len, .dir = RCL_MFI_DIR_READ};
	char what[96];
	enum rcl_status st;

	snprintf(what, sizeof(what), "reading the consistency check schedule (%s)", name);
	memset(buf, RCL_MFI_UNWRITTEN, len);
	st = rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d, what, err);
	if (!st && rcl_mfi_unwritten(buf, len))
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the consistency check schedule (%s) is malformed: the controller "
		                "wrote no reply",
		                name);
	return st;
}

/* The card's CC schedule properties, checked: no more excluded LDs than the reply holds. */
static enum rcl_status read_cc_props(const struct rcl_mfi_link *link, struct rcl_mfi_cc_props *p,
                                     struct rcl_error *err)
{
	const char *name = "CC_SCHEDULE_GET_PROPERTIES";
	enum rcl_status st =
	    read_cc(link, RCL_MFI_DCMD_CC_SCHEDULE_GET_PROPERTIES, name, p, sizeof(*p), err);

	if (!st && p->exclude_count > RCL_MFI_MAX_LD)
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the consistency check schedule (%s) is malformed: it excludes %u "
		                "LDs, more than its %d rows",
		                name, p->exclude_count, RCL_MFI_MAX_LD);
	return st;
}

static enum rcl_cc_mode cc_mode(uint8_t op_mode)
{
	return op_mode == RCL_MFI_CC_SEQUENTIAL   ? RCL_CC_SEQ
	       : op_mode == RCL_MFI_CC_CONCURRENT ? RCL_CC_CONC
	                                          : RCL_CC_OFF;
}

/* The Unix time of MFI time @t; 0 (none) for 0. */
static int64_t unix_time(uint32_t t)
{
	return t ? (int64_t)MFI_EPOCH + le32toh(t) : 0;
}

enum rcl_status rcl_mfi_read_cc_schedule(const struct rcl_mfi_link *link,
                                         struct rcl_ctrl_settings *settings,
                                         struct rcl_cc_status *status, struct rcl_error *err)
{
	struct rcl_mfi_cc_props props;
	struct rcl_mfi_cc_status now;
	enum rcl_status st = read_cc_props(link, &props, err);

	if (!st)
		st = read_cc(link, RCL_MFI_DCMD_CC_SCHEDULE_GET_STATUS, "CC_SCHEDULE_GET_STATUS",
		             &now, sizeof(now), err);
	if (st)
		return st;
	settings->cc_mode = cc_mode(props.op_mode);
	settings->cc.delay = delay_hours(le32toh(props.exec_freq));
	settings->cc.start = unix_time(props.next_exec);
	settings->cc.exclude = 0;
	for (unsigned i = 0; i < props.exclude_count; i++)
		if (le16toh(props.exclude[i]) < RCL_MAX_VDS)
			settings->cc.exclude |= 1ull << le16toh(props.exclude[i]);
	/* A schedule switched off starts nothing, whatever time it keeps. */
	status->next_start = settings->cc_mode != RCL_CC_OFF ? settings->cc.start : 0;
	status->iterations = le32toh(now.iterations);
	status->completed = now.lds_done;
	status->state = now.state == RCL_MFI_CC_ACTIVE ? RCL_SCHEDULE_ACTIVE : RCL_SCHEDULE_STOPPED;
	return RCL_OK;
}

enum rcl_status rcl_mfi_set_cc_schedule(const struct rcl_mfi_link *link,
                                        const struct rcl_ctrl_settings *s, struct rcl_error *err)
{
	static const uint8_t modes[] = {[RCL_CC_OFF] = RCL_MFI_CC_DISABLED,
	                                [RCL_CC_SEQ] = RCL_MFI_CC_SEQUENTIAL,
	                                [RCL_CC_CONC] = RCL_MFI_CC_CONCURRENT};
	struct rcl_mfi_cc_props props;
	struct rcl_mfi_dcmd d = {.opcode = RCL_MFI_DCMD_CC_SCHEDULE_SET_PROPERTIES,
	                         .buf = &props,
	                         .len = sizeof(props),
	                         .dir = RCL_MFI_DIR_WRITE};
	enum rcl_status st = read_cc_props(link, &props, err);
	unsigned n = 0;

	if (st)
		return st;
	props.op_mode = modes[s->cc_mode];
	props.exec_freq = htole32(s->cc.delay * 3600u);
	if (s->cc.start > MFI_EPOCH)
		props.next_exec = htole32((uint32_t)(s->cc.start - MFI_EPOCH));
	memset(props.exclude, 0, sizeof(props.exclude));
	for (unsigned vd = 0; vd < RCL_MAX_VDS; vd++)
		if (s->cc.exclude >> vd & 1)
			props.exclude[n++] = htole16((uint16_t)vd);
	props.exclude_count = (uint8_t)n;
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d,
	                    "setting the consistency check schedule (CC_SCHEDULE_SET_PROPERTIES)",
	                    err);
}
