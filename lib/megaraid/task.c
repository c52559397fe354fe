// SPDX-License-Identifier: MIT
/*
 * task.c - a MegaRAID card's background tasks (task.h): the firmware runs
 * them; raidcli starts, stops, pauses and resumes them with one DCMD each,
 * and reads where they stand from the card's progress DCMDs every time it
 * is asked, so "show" follows the card, never a copy.
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "megaraid/config.h"
#include "megaraid/frame.h"
#include "megaraid/schedule.h"
#include "megaraid/task.h"

/* What each task is on the card: its DCMDs by action, and where its progress is. */
struct task_kind {
	enum rcl_task_kind kind;
	uint32_t op[4]; /* by enum rcl_task_action; 0: the card has none */
	const char *op_name[4];
	uint32_t active; /* the progress reply's bit */
	size_t at;       /* its struct rcl_mfi_progress in the reply */
};

static const struct task_kind kinds[] = {
    {RCL_TASK_CC,
     {RCL_MFI_DCMD_LD_CC_START, RCL_MFI_DCMD_LD_CC_ABORT, RCL_MFI_DCMD_LD_CC_SUSPEND_RESUME,
      RCL_MFI_DCMD_LD_CC_SUSPEND_RESUME},
     {"LD_CC_START", "LD_CC_ABORT", "LD_CC_SUSPEND_RESUME", "LD_CC_SUSPEND_RESUME"},
     RCL_MFI_LD_ACTIVE_CC,
     offsetof(struct rcl_mfi_ld_progress, cc)},
    /* The card starts it by itself; the check's DCMDs stop, pause and resume it. */
    {RCL_TASK_BGI,
     {0, RCL_MFI_DCMD_LD_CC_ABORT, RCL_MFI_DCMD_LD_CC_SUSPEND_RESUME,
      RCL_MFI_DCMD_LD_CC_SUSPEND_RESUME},
     {NULL, "LD_CC_ABORT", "LD_CC_SUSPEND_RESUME", "LD_CC_SUSPEND_RESUME"},
     RCL_MFI_LD_ACTIVE_BGI,
     offsetof(struct rcl_mfi_ld_progress, bgi)},
    {RCL_TASK_INIT,
     {RCL_MFI_DCMD_LD_INIT_START, RCL_MFI_DCMD_LD_INIT_ABORT, 0, 0},
     {"LD_INIT_START", "LD_INIT_ABORT", NULL, NULL},
     RCL_MFI_LD_ACTIVE_FGI,
     offsetof(struct rcl_mfi_ld_progress, fgi)},
    {RCL_TASK_REBUILD,
     {RCL_MFI_DCMD_PD_REBUILD_START, RCL_MFI_DCMD_PD_REBUILD_ABORT,
      RCL_MFI_DCMD_PD_REBUILD_SUSPEND_RESUME, RCL_MFI_DCMD_PD_REBUILD_SUSPEND_RESUME},
     {"PD_REBUILD_START", "PD_REBUILD_ABORT", "PD_REBUILD_SUSPEND_RESUME",
      "PD_REBUILD_SUSPEND_RESUME"},
     RCL_MFI_PD_ACTIVE_REBUILD,
     offsetof(struct rcl_mfi_pd_progress, rebuild)},
    {RCL_TASK_PATROL_READ,
     {RCL_MFI_DCMD_PR_START, RCL_MFI_DCMD_PR_STOP, RCL_MFI_DCMD_PR_SUSPEND_RESUME,
      RCL_MFI_DCMD_PR_SUSPEND_RESUME},
     {"PR_START", "PR_STOP", "PR_SUSPEND_RESUME", "PR_SUSPEND_RESUME"},
     0,
     0},
};

static const struct task_kind *kind_of(enum rcl_task_kind kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

void rcl_mfi_task_caps(struct rcl_caps *caps)
{
	bool redundant = caps->levels & ~(1u << RCL_RAID0 | 1u << RCL_RAID00);
	unsigned tasks = 1u << RCL_TASK_INIT;

	if (redundant && caps->settings >> RCL_SETTING_REBUILD_RATE & 1)
		tasks |= 1u << RCL_TASK_REBUILD;
	if (redundant && caps->settings >> RCL_SETTING_CC_RATE & 1)
		tasks |= 1u << RCL_TASK_CC;
	if (redundant && caps->settings >> RCL_SETTING_BGI_RATE & 1)
		tasks |= 1u << RCL_TASK_BGI;
	caps->tasks &= tasks | 1u << RCL_TASK_PATROL_READ;
}

/*
 * The firmware's LD_WRONG_RAID_LEVEL, a check of a VD with no redundancy,
 * in the soft kind's words.
 */
static enum rcl_status check_level(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                   struct rcl_error *err)
{
	const struct rcl_vd *vd = rcl_ctrl_vd_by_id(ctrl, req->vd);

	if (req->kind == RCL_TASK_CC && vd && rcl_raid_span_level(vd->level) == RCL_RAID0)
		return rcl_fail(err, RCL_UNSUPPORTED, "/c%u/v%u has no redundancy to check (%s)",
		                ctrl->entry.id, vd->id, rcl_raid_level_name(vd->level));
	return RCL_OK;
}

enum rcl_status rcl_mfi_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                   struct rcl_error *err)
{
	return check_level(ctrl, req, err);
}

/* "/c0/v1", "/c0/e252/s1" or "/c0": @req's target. */
static void target_of(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req, char *out,
                      size_t size)
{
	if (req->kind == RCL_TASK_REBUILD)
		snprintf(out, size, "/c%u/e%u/s%u", ctrl->entry.id, req->drive.enclosure,
		         req->drive.slot);
	else if (req->kind == RCL_TASK_PATROL_READ)
		snprintf(out, size, "/c%u", ctrl->entry.id);
	else
		snprintf(out, size, "/c%u/v%u", ctrl->entry.id, req->vd);
}

/* The device id of @req's drive (found: lib/task.c looked it up). */
static uint16_t device_of(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req)
{
	return (uint16_t)rcl_ctrl_find_drive(ctrl, &req->drive)->device_id;
}

static enum rcl_status malformed(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                 const char *opcode, const char *why, struct rcl_error *err)
{
	char target[64];

	target_of(ctrl, req, target, sizeof(target));
	return rcl_fail(err, RCL_BAD_REPLY,
	                "the %s progress of %s (%s) is malformed: the controller %s; no progress "
	                "is shown",
	                rcl_task_kind_name(req->kind), target, opcode, why);
}

/*
 * Where a task stands: under way (@active), paused (where the reply says:
 * @pause_known), and its place (@at: not a patrol read's).
 */
struct task_now {
	bool active;
	bool pause_known;
	bool paused;
	struct rcl_mfi_progress at;
};

/* PR_GET_STATUS: whether a patrol read is under way, and paused. */
static enum rcl_status patrol_active(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                     const struct rcl_task_request *req, struct task_now *now,
                                     struct rcl_error *err)
{
	struct rcl_mfi_pr_status s;
	enum rcl_status st =
	    rcl_mfi_read_mbox(link, RCL_MFI_DCMD_PR_GET_STATUS, NULL, RCL_MFI_PRESET_UNWRITTEN, &s,
	                      sizeof(s), "reading the patrol read status (PR_GET_STATUS)", err);

	/* RCL_BAD_REPLY: answered OK, nothing written; said in a progress's words. */
	if (st == RCL_BAD_REPLY)
		return malformed(ctrl, req, "PR_GET_STATUS", "wrote no reply", err);
	if (st)
		return st;
	/* The card's state says whether a run under way is paused. */
	now->pause_known = true;
	now->paused = rcl_mfi_pr_state(s.state) == RCL_SCHEDULE_PAUSED;
	now->active = rcl_mfi_pr_state(s.state) != RCL_SCHEDULE_STOPPED;
	return RCL_OK;
}

/*
 * LD_PROGRESS or PD_GET_PROGRESS of @req's target: whether its task is
 * under way, paused, and where (when it is), into @now.
 */
static enum rcl_status read_progress(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                     const struct rcl_task_request *req, const struct task_kind *k,
                                     struct task_now *now, struct rcl_error *err)
{
	uint8_t reply[sizeof(struct rcl_mfi_ld_progress)];
	bool pd = req->kind == RCL_TASK_REBUILD;
	uint32_t len = pd ? sizeof(struct rcl_mfi_pd_progress) : sizeof(struct rcl_mfi_ld_progress);
	uint16_t id = pd ? device_of(ctrl, req) : (uint16_t)req->vd;
	const char *opcode = pd ? "PD_GET_PROGRESS" : "LD_PROGRESS";
	size_t paused_at = pd ? offsetof(struct rcl_mfi_pd_progress, paused)
	                      : offsetof(struct rcl_mfi_ld_progress, paused);
	char what[160], target[64];
	uint32_t bits, paused;
	enum rcl_status st;

	target_of(ctrl, req, target, sizeof(target));
	snprintf(what, sizeof(what), "reading the progress of %s (%s)", target, opcode);
	/* Preset as unwritten: the bytes it leaves so say what it did not write. */
	st = rcl_mfi_read_mbox(link, pd ? RCL_MFI_DCMD_PD_GET_PROGRESS : RCL_MFI_DCMD_LD_PROGRESS,
	                       RCL_MFI_MBOX_U16(id), RCL_MFI_PRESET_UNWRITTEN, reply, len, what,
	                       err);
	if (st == RCL_BAD_REPLY)
		return malformed(ctrl, req, opcode, "wrote no reply", err);
	if (st)
		return st;
	memcpy(&bits, reply, sizeof(bits));
	memcpy(&paused, reply + paused_at, sizeof(paused));
	memcpy(&now->at, reply + k->at, sizeof(now->at));
	now->active = le32toh(bits) & k->active;
	/* A firmware that fills no paused bits (they came later) says nothing of pauses. */
	now->pause_known = !rcl_mfi_unwritten(&paused, sizeof(paused));
	now->paused = now->active && now->pause_known && le32toh(paused) & k->active;
	/* A task under way whose place was never written: the reply stopped short of it. */
	if (now->active && rcl_mfi_unwritten(&now->at, sizeof(now->at)))
		return malformed(ctrl, req, opcode, "wrote its reply short", err);
	return RCL_OK;
}

/* Where @req's task stands, into @now. */
static enum rcl_status task_state(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                  const struct rcl_task_request *req, const struct task_kind *k,
                                  struct task_now *now, struct rcl_error *err)
{
	*now = (struct task_now){0};
	if (req->kind == RCL_TASK_PATROL_READ)
		return patrol_active(link, ctrl, req, now, err);
	return read_progress(link, ctrl, req, k, now, err);
}

/*
 * Where @now's task stands, for rcl_task_refuse(): only under way where the
 * card does not say whether it is paused.
 */
static enum rcl_task_now standing(const struct task_now *now)
{
	if (!now->active)
		return RCL_TASK_NOW_NONE;
	if (!now->pause_known)
		return RCL_TASK_NOW_UNDER_WAY;
	return now->paused ? RCL_TASK_NOW_PAUSED : RCL_TASK_NOW_RUNNING;
}

/*
 * The mailbox of @req's @action: the LD's or drive's reference (MR.H's
 * MR_LD_REF or MR_PD_REF: the id and the sequence number LD_GET_INFO or
 * PD_GET_INFO gives now, as LD_DELETE sends it), then a suspend/resume's
 * or an init's byte.
 */
static enum rcl_status build_mbox(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                  const struct rcl_task_request *req, uint8_t *mbox,
                                  struct rcl_error *err)
{
	uint8_t arg = req->action == RCL_TASK_ACTION_RESUME ||
	              (req->action == RCL_TASK_ACTION_START && req->full);
	uint16_t id, seq = 0;
	enum rcl_status st = RCL_OK;

	if (req->kind == RCL_TASK_PATROL_READ) {
		mbox[0] = req->action >= RCL_TASK_ACTION_PAUSE ? arg : 0;
		return RCL_OK;
	}
	if (req->kind == RCL_TASK_REBUILD) {
		id = device_of(ctrl, req);
		st = rcl_mfi_pd_seq(link, id, &seq, err);
		mbox[1] = (uint8_t)(id >> 8);
		mbox[0] = (uint8_t)id;
	} else {
		st = rcl_mfi_ld_seq(link, req->vd, &seq, err);
		mbox[0] = (uint8_t)req->vd;
	}
	mbox[2] = (uint8_t)seq;
	mbox[3] = (uint8_t)(seq >> 8);
	mbox[4] = arg;
	return st;
}

enum rcl_status rcl_mfi_task(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                             const struct rcl_task_request *req, struct rcl_error *err)
{
	static const char *const verbs[] = {"starting", "stopping", "pausing", "resuming"};
	const struct task_kind *k = kind_of(req->kind);
	struct rcl_mfi_dcmd d = {.dir = RCL_MFI_DIR_NONE};
	struct task_now now;
	char what[128], target[64];
	enum rcl_status st;

	if (!k || !k->op[req->action]) {
		snprintf(what, sizeof(what), "%s the %s", verbs[req->action],
		         rcl_task_kind_name(req->kind));
		return rcl_unsupported(err, ctrl->caps.kind, what,
		                       "the card has no command for it");
	}
	st = req->action == RCL_TASK_ACTION_START ? check_level(ctrl, req, err) : RCL_OK;
	if (!st)
		st = task_state(link, ctrl, req, k, &now, err);
	if (!st)
		st = rcl_task_refuse(ctrl, req, standing(&now), err);
	if (!st)
		st = build_mbox(link, ctrl, req, d.mbox, err);
	if (st)
		return st;
	d.opcode = k->op[req->action];
	target_of(ctrl, req, target, sizeof(target));
	snprintf(what, sizeof(what), "%s the %s of %s (%s)", verbs[req->action],
	         rcl_task_kind_name(req->kind), target, k->op_name[req->action]);
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d, what, err);
}

/* The first VD of drive @ref's group: the one its rebuild works on, as "show all" asks. */
static int vd_of(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref)
{
	const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, ref);

	for (size_t i = 0; d && i < ctrl->vd_count; i++)
		if ((int)ctrl->vds[i].dg == d->dg)
			return (int)ctrl->vds[i].id;
	return -1;
}

enum rcl_status rcl_mfi_task_progress(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                      const struct rcl_task_request *req,
                                      struct rcl_task_progress *out, struct rcl_error *err)
{
	const struct task_kind *k = kind_of(req->kind);
	struct task_now now = {0};
	unsigned done, secs;
	enum rcl_status st = k ? task_state(link, ctrl, req, k, &now, err) : RCL_OK;

	out->state = RCL_TASK_STATE_STOPPED;
	if (st || !now.active)
		return st;
	out->state = now.paused ? RCL_TASK_STATE_PAUSED : RCL_TASK_STATE_RUNNING;
	if (req->kind == RCL_TASK_PATROL_READ)
		return RCL_OK; /* PR_GET_STATUS counts drives, not how far */
	done = le16toh(now.at.done);
	secs = le16toh(now.at.elapsed);
	out->percent = (int)(done * 100u / 0xffff);
	out->elapsed = secs;
	/* At the pace so far (mfiutil's estimate). */
	out->remaining = done && secs ? (double)secs * (0xffff - done) / done : -1;
	if (req->kind == RCL_TASK_REBUILD) {
		out->vd = vd_of(ctrl, &req->drive);
		out->vd_percent = out->vd >= 0 ? out->percent : -1;
	}
	return RCL_OK;
}
