// SPDX-License-Identifier: MIT
/*
 * schedule.c - the patrol read and the consistency check a MegaRAID
 * card's firmware schedules and runs itself: raidcli reads their
 * properties and status as StorCLI's "show patrolread" and "show cc" do,
 * so "show all" and the schedule rows tell what the card will do, not
 * raidcli's defaults; "set patrolread" and "set cc" write their
 * schedules to the card.
 */
#include <endian.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "megaraid/frame.h"
#include "megaraid/schedule.h"

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

/* Every VD raidcli numbers fits the legacy layouts' excluded LDs. */
_Static_assert(RCL_MAX_VDS <= RCL_MFI_MAX_LD, "excluded LD lists");

/*
 * The excluded LD list @list of a packed reply (RCL_MFI_MAX_LD target
 * ids, little-endian, unaligned): its first @count as VDs.
 */
static uint64_t excluded_vds(const uint8_t *list, unsigned count)
{
	uint64_t set = 0;

	for (unsigned i = 0; i < count && i < RCL_MFI_MAX_LD; i++) {
		unsigned id = list[2 * i] | list[2 * i + 1] << 8;

		if (id < RCL_MAX_VDS)
			set |= 1ull << id;
	}
	return set;
}

/* @set's VDs as the excluded LD list @list, the rest zero; their count. */
static uint8_t put_excluded(uint8_t *list, uint64_t set)
{
	unsigned n = 0;

	memset(list, 0, RCL_MFI_MAX_LD * 2);
	for (unsigned vd = 0; vd < RCL_MAX_VDS; vd++)
		if (set >> vd & 1)
			list[2 * n++] = (uint8_t)vd; /* below 256: the high byte stays 0 */
	return (uint8_t)n;
}

/* The excluded LD list of the packed @props of type @type. */
#define EXCLUDED(props, type) ((uint8_t *)(props) + offsetof(type, exclude))

enum rcl_schedule_state rcl_mfi_pr_state(uint8_t state)
{
	return state == RCL_MFI_PR_ACTIVE ? RCL_SCHEDULE_ACTIVE
	       : state == RCL_MFI_PR_PAUSED || state == RCL_MFI_PR_USER_PAUSED
	           ? RCL_SCHEDULE_PAUSED
	           : RCL_SCHEDULE_STOPPED;
}

_Static_assert(sizeof(struct rcl_mfi_pr_props) <= RCL_MFI_RECORD_MAX, "patrol read record");
_Static_assert(sizeof(struct rcl_mfi_cc_props) <= RCL_MFI_RECORD_MAX, "cc schedule record");

const struct rcl_mfi_record rcl_mfi_pr_record = {
    .name = "the patrol read schedule",
    .get = RCL_MFI_DCMD_PR_GET_PROPERTIES,
    .set = RCL_MFI_DCMD_PR_SET_PROPERTIES,
    .get_name = "PR_GET_PROPERTIES",
    .set_name = "PR_SET_PROPERTIES",
    .len = sizeof(struct rcl_mfi_pr_props),
};

/* A CC schedule read is checked: no more excluded LDs than the reply holds. */
static enum rcl_status check_cc(const void *rec, struct rcl_error *err)
{
	const struct rcl_mfi_cc_props *p = rec;

	if (p->exclude_count <= RCL_MFI_MAX_LD)
		return RCL_OK;
	return rcl_fail(err, RCL_BAD_REPLY,
	                "the consistency check schedule (CC_SCHEDULE_GET_PROPERTIES) is malformed: "
	                "it excludes %u LDs, more than its %d rows",
	                p->exclude_count, RCL_MFI_MAX_LD);
}

const struct rcl_mfi_record rcl_mfi_cc_record = {
    .name = "the consistency check schedule",
    .get = RCL_MFI_DCMD_CC_SCHEDULE_GET_PROPERTIES,
    .set = RCL_MFI_DCMD_CC_SCHEDULE_SET_PROPERTIES,
    .get_name = "CC_SCHEDULE_GET_PROPERTIES",
    .set_name = "CC_SCHEDULE_SET_PROPERTIES",
    .len = sizeof(struct rcl_mfi_cc_props),
    .check = check_cc,
};

enum rcl_status rcl_mfi_read_patrol(const struct rcl_mfi_link *link,
                                    struct rcl_ctrl_settings *settings,
                                    struct rcl_patrol_status *status, struct rcl_error *err)
{
	struct rcl_mfi_pr_props props;
	struct rcl_mfi_pr_status now;
	enum rcl_status st = rcl_mfi_read_record(link, &rcl_mfi_pr_record, &props, err);

	if (!st)
		st = rcl_mfi_read(link, RCL_MFI_DCMD_PR_GET_STATUS, &now, sizeof(now),
		                  "reading the patrol read status (PR_GET_STATUS)", err);
	if (st)
		return st;
	settings->pr_mode = pr_mode(props.op_mode);
	settings->pr_max_drives = props.max_pd ? props.max_pd : RCL_MAX_PR_DRIVES;
	/*
	 * Without the option, an SSD is read only in a VD that has drives of
	 * other kinds; the controller properties may leave SSDs out altogether.
	 */
	if (settings->pr_ssds != RCL_PR_SSDS_OFF)
		settings->pr_ssds =
		    props.options & RCL_MFI_PR_INCLUDE_SSD ? RCL_PR_SSDS_ON : RCL_PR_SSDS_MIXED;
	settings->pr.delay = delay_hours(le32toh(props.exec_freq));
	settings->pr.exclude =
	    excluded_vds(EXCLUDED(&props, struct rcl_mfi_pr_props), props.exclude_count);
	/* Only an automatic patrol read has a next run the card will start. */
	status->next_start = props.op_mode == RCL_MFI_PR_AUTO && props.next_exec
	                         ? (int64_t)RCL_MFI_EPOCH + le32toh(props.next_exec)
	                         : 0;
	status->iterations = le32toh(now.iterations);
	status->state = rcl_mfi_pr_state(now.state);
	return RCL_OK;
}

/* Whether @s changes a field of the patrol read properties from @was (rcl_mfi_edit_patrol()). */
static bool patrol_changes(const struct rcl_ctrl_settings *was, const struct rcl_ctrl_settings *s)
{
	return s->pr_mode != was->pr_mode || s->pr_max_drives != was->pr_max_drives ||
	       (s->pr_ssds != was->pr_ssds && s->pr_ssds != RCL_PR_SSDS_OFF) ||
	       s->pr.delay != was->pr.delay ||
	       (s->pr.start != was->pr.start && s->pr.start > RCL_MFI_EPOCH) ||
	       s->pr.exclude != was->pr.exclude;
}

bool rcl_mfi_edit_patrol(void *rec, const void *arg)
{
	static const uint8_t modes[] = {[RCL_PR_AUTO] = RCL_MFI_PR_AUTO,
	                                [RCL_PR_MANUAL] = RCL_MFI_PR_MANUAL,
	                                [RCL_PR_OFF] = RCL_MFI_PR_DISABLED};
	const struct rcl_mfi_schedule_change *change = arg;
	const struct rcl_ctrl_settings *was = change->was, *s = change->s;
	struct rcl_mfi_pr_props *props = rec;

	if (!patrol_changes(was, s))
		return false;
	if (s->pr_mode != was->pr_mode)
		props->op_mode = modes[s->pr_mode];
	if (s->pr_max_drives != was->pr_max_drives)
		props->max_pd = (uint8_t)s->pr_max_drives;
	/* SSDs left out are the controller properties' bit: the option stays. */
	if (s->pr_ssds != was->pr_ssds && s->pr_ssds != RCL_PR_SSDS_OFF)
		props->options =
		    (uint8_t)((props->options & ~RCL_MFI_PR_INCLUDE_SSD) |
		              (s->pr_ssds == RCL_PR_SSDS_ON ? RCL_MFI_PR_INCLUDE_SSD : 0));
	if (s->pr.delay != was->pr.delay)
		props->exec_freq = htole32(s->pr.delay * 3600u);
	if (s->pr.start != was->pr.start && s->pr.start > RCL_MFI_EPOCH)
		props->next_exec = htole32((uint32_t)(s->pr.start - RCL_MFI_EPOCH));
	if (s->pr.exclude != was->pr.exclude)
		props->exclude_count =
		    put_excluded(EXCLUDED(props, struct rcl_mfi_pr_props), s->pr.exclude);
	return true;
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
	return t ? (int64_t)RCL_MFI_EPOCH + le32toh(t) : 0;
}

enum rcl_status rcl_mfi_read_cc_schedule(const struct rcl_mfi_link *link,
                                         struct rcl_ctrl_settings *settings,
                                         struct rcl_cc_status *status, struct rcl_error *err)
{
	struct rcl_mfi_cc_props props;
	struct rcl_mfi_cc_status now;
	enum rcl_status st = rcl_mfi_read_record(link, &rcl_mfi_cc_record, &props, err);

	if (!st)
		st = rcl_mfi_read(link, RCL_MFI_DCMD_CC_SCHEDULE_GET_STATUS, &now, sizeof(now),
		                  "reading the consistency check schedule (CC_SCHEDULE_GET_STATUS)",
		                  err);
	if (st)
		return st;
	settings->cc_mode = cc_mode(props.op_mode);
	settings->cc.delay = delay_hours(le32toh(props.exec_freq));
	settings->cc.start = unix_time(props.next_exec);
	settings->cc.exclude =
	    excluded_vds(EXCLUDED(&props, struct rcl_mfi_cc_props), props.exclude_count);
	/* A schedule switched off starts nothing, whatever time it keeps. */
	status->next_start = settings->cc_mode != RCL_CC_OFF ? settings->cc.start : 0;
	status->iterations = le32toh(now.iterations);
	status->completed = now.lds_done;
	status->state = now.state == RCL_MFI_CC_ACTIVE ? RCL_SCHEDULE_ACTIVE : RCL_SCHEDULE_STOPPED;
	return RCL_OK;
}

/* Whether @s changes a field of the CC schedule from @was (rcl_mfi_edit_cc()). */
static bool cc_changes(const struct rcl_ctrl_settings *was, const struct rcl_ctrl_settings *s)
{
	return s->cc_mode != was->cc_mode || s->cc.delay != was->cc.delay ||
	       (s->cc.start != was->cc.start && s->cc.start > RCL_MFI_EPOCH) ||
	       s->cc.exclude != was->cc.exclude;
}

bool rcl_mfi_edit_cc(void *rec, const void *arg)
{
	static const uint8_t modes[] = {[RCL_CC_OFF] = RCL_MFI_CC_DISABLED,
	                                [RCL_CC_SEQ] = RCL_MFI_CC_SEQUENTIAL,
	                                [RCL_CC_CONC] = RCL_MFI_CC_CONCURRENT};
	const struct rcl_mfi_schedule_change *change = arg;
	const struct rcl_ctrl_settings *was = change->was, *s = change->s;
	struct rcl_mfi_cc_props *props = rec;

	if (!cc_changes(was, s))
		return false;
	if (s->cc_mode != was->cc_mode)
		props->op_mode = modes[s->cc_mode];
	if (s->cc.delay != was->cc.delay)
		props->exec_freq = htole32(s->cc.delay * 3600u);
	if (s->cc.start != was->cc.start && s->cc.start > RCL_MFI_EPOCH)
		props->next_exec = htole32((uint32_t)(s->cc.start - RCL_MFI_EPOCH));
	if (s->cc.exclude != was->cc.exclude)
		props->exclude_count =
		    put_excluded(EXCLUDED(props, struct rcl_mfi_cc_props), s->cc.exclude);
	return true;
}
