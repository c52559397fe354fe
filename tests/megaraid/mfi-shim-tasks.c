// SPDX-License-Identifier: MIT
/*
 * mfi-shim-tasks.c - the shim card's background tasks (mfi-shim-tasks.h):
 * a consistency check and an initialization per LD, a rebuild per drive,
 * each running, paused or not under way, and their progress. Replies are
 * written at the public interface's byte offsets (FreeBSD's mfireg.h
 * mfi_ld_progress and mfi_pd_progress), not through lib/megaraid/.
 */
#include <string.h>

#include "mfi-shim-tasks.h"
#include "mfi-shim.h"

enum {
	OP_PR_START = 0x01070400,
	OP_PR_STOP = 0x01070500,
	OP_PR_SUSPEND_RESUME = 0x01070600,
	OP_REBUILD_START = 0x02040100,
	OP_REBUILD_ABORT = 0x02040200,
	OP_PD_PROGRESS = 0x02060000,
	OP_REBUILD_SUSPEND_RESUME = 0x020e0100,
	OP_CC_START = 0x03050100,
	OP_CC_ABORT = 0x03050200,
	OP_INIT_START = 0x03060100,
	OP_INIT_ABORT = 0x03060200,
	OP_LD_PROGRESS = 0x03080000,
	OP_CC_SUSPEND_RESUME = 0x03120200,
};

enum {
	ST_OK = 0x00,
	ST_INVALID_PARAMETER = 0x03,
	ST_INVALID_SEQUENCE_NUMBER = 0x04,
	ST_DEVICE_NOT_FOUND = 0x0c,
	ST_LD_CC_IN_PROGRESS = 0x17,
	ST_LD_INIT_IN_PROGRESS = 0x18,
	ST_LD_WRONG_RAID_LEVEL = 0x1e,
	ST_WRONG_STATE = 0x32,
};

/* The drive states a rebuild starts from, and goes through. */
enum { PD_OFFLINE = 0x10, PD_FAILED = 0x11, PD_REBUILD = 0x14, PD_ONLINE = 0x18 };

/* One task: under way (and maybe paused), how far of 0xffff, after how many seconds. */
struct run {
	bool on;
	bool paused;
	unsigned done;
	unsigned elapsed;
};

static bool enabled;
static enum mfi_shim_progress answer_how;
static struct run cc[256], init[256], rebuild[256]; /* by LD target, by SCSI id */

void mfi_shim_tasks(enum mfi_shim_progress how)
{
	enabled = true;
	answer_how = how;
	mfi_shim_card(0x01 | 0x02, 0x0002); /* RAID0 and RAID1; the CC rate */
}

void shim_tasks_reset(void)
{
	enabled = false;
	memset(cc, 0, sizeof(cc));
	memset(init, 0, sizeof(init));
	memset(rebuild, 0, sizeof(rebuild));
}

int shim_task_mbox_used(uint32_t opcode)
{
	switch (opcode) {
	case OP_PR_START:
	case OP_PR_STOP:
		return 0;
	case OP_PR_SUSPEND_RESUME:
		return 1;
	case OP_PD_PROGRESS:
	case OP_LD_PROGRESS:
		return 2;
	case OP_REBUILD_START:
	case OP_REBUILD_ABORT:
	case OP_CC_START:
	case OP_CC_ABORT:
	case OP_INIT_ABORT:
		return 4;
	case OP_REBUILD_SUSPEND_RESUME:
	case OP_CC_SUSPEND_RESUME:
	case OP_INIT_START:
		return 5;
	default:
		return -1;
	}
}

bool shim_task_no_data(uint32_t opcode)
{
	return shim_task_mbox_used(opcode) >= 0 && opcode != OP_PD_PROGRESS &&
	       opcode != OP_LD_PROGRESS;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* A poll: a running task goes an eighth further, 30 seconds later; at the end it is over. */
static bool advance(struct run *r)
{
	if (!r->on || r->paused)
		return false;
	r->done += 0x2000;
	r->elapsed += 30;
	if (r->done < 0xffff)
		return false;
	*r = (struct run){0};
	return true;
}

/* Task @r's place in a progress reply at @p, its @bit in the active word at @active. */
static void put_run(uint8_t *active, uint8_t *p, const struct run *r, unsigned bit)
{
	if (!r->on)
		return;
	active[0] |= (uint8_t)bit;
	put16(p, r->done);
	put16(p + 2, r->elapsed);
}

/* Write @n bytes of @reply into @buf, as the progress replies are set to. */
static void give(uint8_t *buf, const uint8_t *reply, uint32_t n)
{
	if (answer_how == MFI_SHIM_PROGRESS_FULL)
		memcpy(buf, reply, n);
	else if (answer_how == MFI_SHIM_PROGRESS_SHORT)
		memcpy(buf, reply, 4);
}

static uint8_t ld_progress(uint8_t target, uint8_t *buf, uint32_t len)
{
	uint8_t reply[36] = {0};

	if (len < sizeof(reply))
		return ST_INVALID_PARAMETER;
	if (shim_ld_level(target) < 0)
		return ST_DEVICE_NOT_FOUND;
	advance(&cc[target]);
	advance(&init[target]);
	put_run(reply, reply + 4, &cc[target], 0x01);
	put_run(reply, reply + 12, &init[target], 0x04);
	give(buf, reply, sizeof(reply));
	return ST_OK;
}

static uint8_t pd_progress(uint8_t id, uint8_t *buf, uint32_t len)
{
	uint8_t reply[32] = {0};

	if (len < sizeof(reply))
		return ST_INVALID_PARAMETER;
	if (shim_pd_state(id) < 0)
		return ST_DEVICE_NOT_FOUND;
	if (advance(&rebuild[id]))
		mfi_shim_set_state(id, PD_ONLINE);
	put_run(reply, reply + 4, &rebuild[id], 0x01);
	give(buf, reply, sizeof(reply));
	return ST_OK;
}

/* Stop (@b4 < 0), suspend (0) or resume (1) task @r. */
static uint8_t control(struct run *r, int b4)
{
	if (b4 > 1)
		return ST_INVALID_PARAMETER;
	if (b4 < 0 ? !r->on : b4 == 0 ? !r->on || r->paused : !r->paused)
		return ST_WRONG_STATE;
	if (b4 < 0)
		*r = (struct run){0};
	else
		r->paused = !b4;
	return ST_OK;
}

static uint8_t ld_task(uint32_t opcode, const uint8_t *mbox)
{
	uint8_t t = mbox[0];
	int level = shim_ld_level(t);

	if (level < 0)
		return ST_DEVICE_NOT_FOUND;
	switch (opcode) {
	case OP_CC_START:
		if (!level)
			return ST_LD_WRONG_RAID_LEVEL;
		if (init[t].on)
			return ST_LD_INIT_IN_PROGRESS;
		if (cc[t].on)
			return ST_LD_CC_IN_PROGRESS;
		cc[t] = (struct run){.on = true};
		return ST_OK;
	case OP_INIT_START:
		if (mbox[4] > 1)
			return ST_INVALID_PARAMETER;
		if (cc[t].on)
			return ST_LD_CC_IN_PROGRESS;
		if (init[t].on)
			return ST_LD_INIT_IN_PROGRESS;
		init[t] = (struct run){.on = true};
		return ST_OK;
	case OP_CC_ABORT:
		return control(&cc[t], -1);
	case OP_INIT_ABORT:
		return control(&init[t], -1);
	default:
		return control(&cc[t], mbox[4]);
	}
}

static uint8_t pd_task(uint32_t opcode, const uint8_t *mbox)
{
	uint16_t pd_id = (uint16_t)(mbox[0] | mbox[1] << 8);
	uint8_t id = (uint8_t)(pd_id >> 8);
	int state = pd_id & 0xff ? -1 : shim_pd_state(id);

	if (state < 0)
		return ST_DEVICE_NOT_FOUND;
	if (mbox[2] || mbox[3])
		return ST_INVALID_SEQUENCE_NUMBER; /* the shim's drives keep 0 */
	if (opcode == OP_REBUILD_ABORT)
		return control(&rebuild[id], -1);
	if (opcode == OP_REBUILD_SUSPEND_RESUME)
		return control(&rebuild[id], mbox[4]);
	if (shim_member_level(id) <= 0 || rebuild[id].on ||
	    (state != PD_OFFLINE && state != PD_FAILED && state != PD_REBUILD))
		return ST_WRONG_STATE;
	rebuild[id] = (struct run){.on = true};
	mfi_shim_set_state(id, PD_REBUILD);
	return ST_OK;
}

bool shim_task_dcmd(uint32_t opcode, const uint8_t *mbox, uint8_t *buf, uint32_t len,
                    uint8_t *status)
{
	if (!enabled || shim_task_mbox_used(opcode) < 0 || opcode >> 16 == 0x0107)
		return false;
	if (opcode == OP_LD_PROGRESS)
		*status = ld_progress(mbox[0], buf, len);
	else if (opcode == OP_PD_PROGRESS)
		*status = mbox[0] ? ST_DEVICE_NOT_FOUND : pd_progress(mbox[1], buf, len);
	else if (opcode >> 24 == 0x02)
		*status = pd_task(opcode, mbox);
	else
		*status = ld_task(opcode, mbox);
	return true;
}
