// SPDX-License-Identifier: MIT
/*
 * megaraid.c - the megaraid backend: Broadcom MegaRAID and Dell PERC
 * cards through the Linux megaraid_sas driver's MFI ioctl.
 *
 * Each adapter the driver drives is one controller of kind "megaraid",
 * found by discovery (scan.c), keyed by its PCI address. Opening one asks
 * its firmware for the configuration (model.c) through DCMD frames
 * (frame.c); the card runs its own RAID, tasks and cache, so the kind
 * needs no controller process. It shows the controller, its drives, disk
 * groups and VDs, the task rates its properties hold and the schedules
 * of its patrol read and consistency check (schedule.c); it creates and
 * deletes VDs, changes their names and policies, makes and removes
 * global and dedicated hot spares (config.c, refs.c), lights a drive's
 * LED, sets its state, marks it missing or makes it JBOD (pd.c), sets the
 * task rates (props.c) and both schedules, and starts, stops and
 * follows the card's tasks (task.c). The changes left NULL below answer
 * "not supported".
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "megaraid/config.h"
#include "megaraid/events.h"
#include "megaraid/foreign.h"
#include "megaraid/hw.h"
#include "megaraid/mfi.h"
#include "megaraid/model.h"
#include "megaraid/schedule.h"
#include "megaraid/scan.h"
#include "megaraid/task.h"

/* The most adapters one host has that raidcli looks at. */
#define MAX_ADAPTERS 64

static enum rcl_status megaraid_discover(struct rcl_ctx *ctx, char (*keys)[RCL_KEY_SIZE],
                                         size_t max, size_t *count, struct rcl_error *err)
{
	struct rcl_mfi_adapter found[MAX_ADAPTERS];
	enum rcl_status st;

	(void)ctx;
	st = rcl_mfi_adapters(found, max < MAX_ADAPTERS ? max : MAX_ADAPTERS, count, err);
	for (size_t i = 0; !st && i < *count; i++)
		memcpy(keys[i], found[i].key, RCL_KEY_SIZE);
	return st;
}

/* The host number of the adapter registered under @key (*@found: whether one is). */
static enum rcl_status host_of(const char *key, unsigned *host_no, bool *found,
                               struct rcl_error *err)
{
	struct rcl_mfi_adapter adapters[MAX_ADAPTERS];
	size_t count;
	enum rcl_status st = rcl_mfi_adapters(adapters, MAX_ADAPTERS, &count, err);

	*found = false;
	for (size_t i = 0; !st && !*found && i < count; i++)
		if (!strcmp(adapters[i].key, key)) {
			*host_no = adapters[i].host_no;
			*found = true;
		}
	return st;
}

/* The host number of the adapter registered as @ctrl, or a failure saying it is gone. */
static enum rcl_status find_adapter(const struct rcl_ctrl *ctrl, unsigned *host_no,
                                    struct rcl_error *err)
{
	bool found;
	enum rcl_status st = host_of(ctrl->entry.key, host_no, &found, err);

	return st || found ? st
	                   : rcl_fail(err, RCL_NOT_FOUND,
	                              "controller /c%u (megaraid adapter '%s') is not present: the "
	                              "megaraid_sas driver does not drive it now",
	                              ctrl->entry.id, ctrl->entry.key);
}

/*
 * Whether a battery or a CacheVault backs a card's cache, before it is
 * opened: /cx/cv or /cx/bbu is the path its commands take.
 */
static enum rcl_status megaraid_backup_kind(const struct rcl_ctx *ctx, const char *key,
                                            enum rcl_cache_backup *kind, struct rcl_error *err)
{
	struct rcl_mfi_link link = {.fd = -1};
	bool found;
	enum rcl_status st = host_of(key, &link.host_no, &found, err);

	(void)ctx;
	if (!st && !found)
		st = rcl_fail(err, RCL_NOT_FOUND, "megaraid adapter '%s' is not present", key);
	if (!st)
		st = rcl_mfi_open(&link.fd, err);
	if (!st)
		st = rcl_mfi_backup_kind(&link, kind, err);
	if (link.fd >= 0)
		close(link.fd);
	return st;
}

/*
 * An open controller: what the card's properties and patrol read said.
 * Nothing is kept open between commands.
 */
struct megaraid_priv {
	struct rcl_ctrl_settings settings;
	struct rcl_schedule_status status;
};

static void megaraid_unload(struct rcl_ctrl *ctrl)
{
	rcl_free(ctrl->priv);
	ctrl->priv = NULL;
}

/*
 * A card whose adapter_ops offer the patrol read rate runs patrol reads:
 * their mode, schedule and state are read too, and its caps offer the
 * schedule; a firmware without the DCMDs (refusing them as unknown, or
 * answering without a reply, as QEMU does) keeps the rate alone.
 */
static enum rcl_status load_patrol(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                   struct megaraid_priv *p, struct rcl_error *err)
{
	enum rcl_status st;

	ctrl->caps.tasks &= ~(1u << RCL_TASK_PATROL_READ);
	if (!(ctrl->caps.settings >> RCL_SETTING_PR_RATE & 1))
		return RCL_OK;
	st = rcl_mfi_read_patrol(link, &p->settings, &p->status.patrol, err);
	if (!st) {
		ctrl->caps.settings |= 1u << RCL_SETTING_PR_SCHEDULE;
		ctrl->caps.tasks |= 1u << RCL_TASK_PATROL_READ;
	}
	return st == RCL_UNSUPPORTED || st == RCL_BAD_REPLY ? RCL_OK : st;
}

/*
 * A card that runs consistency checks schedules them: the schedule is read
 * and its caps offer it. A firmware without the DCMDs, or one answering
 * nothing or nonsense, keeps the checks alone: the model of the card
 * loads whatever its schedule says.
 */
static void load_cc_schedule(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                             struct megaraid_priv *p)
{
	struct rcl_error ignored = {0};

	if (ctrl->caps.tasks >> RCL_TASK_CC & 1 &&
	    !rcl_mfi_read_cc_schedule(link, &p->settings, &p->status.cc, &ignored))
		ctrl->caps.settings |= 1u << RCL_SETTING_CC_SCHEDULE;
}

static enum rcl_status megaraid_load(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct megaraid_priv *p = rcl_calloc(1, sizeof(*p));
	struct rcl_mfi_link link = {.fd = -1};
	enum rcl_status st =
	    p ? find_adapter(ctrl, &link.host_no, err) : rcl_fail(err, RCL_NOMEM, "out of memory");

	ctrl->priv = p;
	if (!st)
		st = rcl_mfi_open(&link.fd, err);
	if (!st)
		st = rcl_mfi_load_model(ctrl, &link, &p->settings, err);
	if (!st)
		rcl_mfi_task_caps(&ctrl->caps);
	if (!st)
		st = load_patrol(ctrl, &link, p, err);
	if (!st)
		load_cc_schedule(ctrl, &link, p);
	if (!st)
		st = rcl_mfi_read_hw(ctrl, &link, err);
	/* The model's rates narrowed the settings; every card takes LD_SET_PROP. */
	ctrl->caps.settings |= 1u << RCL_SETTING_VD_POLICY;
	if (link.fd >= 0)
		close(link.fd);
	if (st)
		megaraid_unload(ctrl); /* rcl_ctrl_open() does not unload what failed to load */
	return st;
}

static enum rcl_status megaraid_settings_get(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *out,
                                             struct rcl_error *err)
{
	const struct megaraid_priv *p = ctrl->priv;

	(void)err;
	*out = p->settings;
	return RCL_OK;
}

/*
 * What the patrol read and the scheduled check were doing at load (the
 * generic layer asks only a card with a schedule).
 */
static enum rcl_status megaraid_schedule_status(struct rcl_ctrl *ctrl,
                                                struct rcl_schedule_status *out,
                                                struct rcl_error *err)
{
	const struct megaraid_priv *p = ctrl->priv;

	(void)err;
	*out = p->status;
	return RCL_OK;
}

/* Open @ctrl's adapter for one change: @link's descriptor, closed by the caller. */
static enum rcl_status open_link(const struct rcl_ctrl *ctrl, struct rcl_mfi_link *link,
                                 struct rcl_error *err)
{
	enum rcl_status st = find_adapter(ctrl, &link->host_no, err);

	link->fd = -1;
	return st ? st : rcl_mfi_open(&link->fd, err);
}

static void close_link(struct rcl_mfi_link *link)
{
	if (link->fd >= 0)
		close(link->fd);
}

/* @st, once @link is closed: ON_LINK()'s last step. */
static enum rcl_status closed(struct rcl_mfi_link *link, enum rcl_status st)
{
	close_link(link);
	return st;
}

/*
 * ON_LINK() - the status of @call, one rcl_mfi_* call on @link, made with
 * @ctrl's adapter opened into @link for it alone and closed after; the
 * open's failure instead if it fails. Most of the card's operations are
 * one such call: struct rcl_mfi_link link; return ON_LINK(ctrl, &link,
 * err, rcl_mfi_...(&link, ..., err));
 */
#define ON_LINK(ctrl, link, err, call) closed((link), open_link((ctrl), (link), (err)) ?: (call))

static enum rcl_status megaraid_create_vd(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                          unsigned *vd, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_add_vd(&link, ctrl, params, vd, err));
}

/*
 * Whether @action ("delete it") may take @object ("/c0/v1"), a disk the
 * host sees, from it: StorCLI wants force for one holding data; raidcli
 * does not yet read the disk on the host to look, so it always asks.
 */
static enum rcl_status check_unlooked(bool force, const char *object, const char *action,
                                      struct rcl_error *err)
{
	if (force)
		return RCL_OK;
	return rcl_fail(err, RCL_NEED_FORCE,
	                "raidcli does not look whether %s holds a file system or an operating "
	                "system; repeat with 'force' to %s",
	                object, action);
}

static enum rcl_status megaraid_delete_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                          struct rcl_error *err)
{
	struct rcl_mfi_link link;
	char name[32];

	snprintf(name, sizeof(name), "/c%u/v%u", ctrl->entry.id, vd);
	return check_unlooked(force, name, "delete it", err)
	           ?: ON_LINK(ctrl, &link, err, rcl_mfi_delete_vd(&link, vd, err));
}

static enum rcl_status megaraid_set_vd(struct rcl_ctrl *ctrl, unsigned vd,
                                       const struct rcl_vd_props *props, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_set_vd(&link, vd, props, err));
}

/* A dedicated spare names the arrays of its groups, as the card has them now. */
static enum rcl_status make_spare(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                  const struct rcl_drive_ref *ref, const unsigned *dgs,
                                  size_t dg_count, struct rcl_error *err)
{
	uint16_t refs[16];
	size_t count = 0;
	enum rcl_status st = RCL_OK;

	if (dg_count)
		st = rcl_mfi_group_refs(link, ctrl, dgs, dg_count, refs, 16, &count, err);
	return st ? st : rcl_mfi_make_spare(link, rcl_ctrl_find_drive(ctrl, ref), refs, count, err);
}

static enum rcl_status megaraid_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                             const unsigned *dgs, size_t dg_count, unsigned flags,
                                             bool force, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	(void)flags;
	(void)force;
	return ON_LINK(ctrl, &link, err, make_spare(&link, ctrl, ref, dgs, dg_count, err));
}

static enum rcl_status megaraid_delete_hotspare(struct rcl_ctrl *ctrl,
                                                const struct rcl_drive_ref *ref,
                                                struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err,
	               rcl_mfi_remove_spare(&link, rcl_ctrl_find_drive(ctrl, ref), err));
}

static enum rcl_status megaraid_set_locate(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                           bool on, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err,
	               rcl_mfi_locate(&link, rcl_ctrl_find_drive(ctrl, ref), on, err));
}

/* The properties' patrol read bits @s asks for: unconfigured areas, SSDs read at all. */
static uint32_t pr_bits(const struct rcl_ctrl_settings *s)
{
	return (s->pr_uncfg ? RCL_MFI_PROP_PR_UNCFG : 0) |
	       (s->pr_ssds != RCL_PR_SSDS_OFF ? RCL_MFI_PROP_SSD_PR : 0);
}

/*
 * The rates, automatic rebuild, the patrol read's property bits and the
 * schedules go to the card, all or nothing as far as it allows
 * (rcl_mfi_change()): a schedule it refuses leaves the properties as they
 * were. The settings kept for this open controller follow.
 */
static enum rcl_status megaraid_settings_set(struct rcl_ctrl *ctrl, unsigned changes,
                                             const struct rcl_ctrl_settings *s,
                                             struct rcl_error *err)
{
	struct megaraid_priv *p = ctrl->priv;
	struct rcl_mfi_props_change c = {
	    .settings = changes & (((1u << RCL_RATE_COUNT) - 1) | 1u << RCL_SETTING_AUTO_REBUILD),
	    .s = s};
	struct rcl_mfi_schedule_change sc = {.was = &p->settings, .s = s};
	struct rcl_mfi_change records[3];
	struct rcl_mfi_link link;
	size_t n = 0;
	enum rcl_status st;

	/* Only the patrol read bits that change: the rest stays the card's. */
	if (changes >> RCL_SETTING_PR_SCHEDULE & 1) {
		c.bits = pr_bits(s) ^ pr_bits(&p->settings);
		c.on = pr_bits(s);
	}
	if (c.settings || c.bits)
		records[n++] = (struct rcl_mfi_change){
		    .rec = &rcl_mfi_props_record, .edit = rcl_mfi_edit_props, .arg = &c};
	if (changes >> RCL_SETTING_PR_SCHEDULE & 1)
		records[n++] = (struct rcl_mfi_change){
		    .rec = &rcl_mfi_pr_record, .edit = rcl_mfi_edit_patrol, .arg = &sc};
	if (changes >> RCL_SETTING_CC_SCHEDULE & 1)
		records[n++] = (struct rcl_mfi_change){
		    .rec = &rcl_mfi_cc_record, .edit = rcl_mfi_edit_cc, .arg = &sc};
	st = ON_LINK(ctrl, &link, err, rcl_mfi_change(&link, records, n, err));
	if (!st)
		rcl_settings_apply(&p->settings, changes, s);
	return st;
}

/* The properties' enableJBOD bit; a card without JBOD support is refused before any frame. */
static enum rcl_status megaraid_set_jbod_mode(struct rcl_ctrl *ctrl, bool on, struct rcl_error *err)
{
	struct rcl_mfi_link link;
	enum rcl_status st;

	if (!(ctrl->caps.settings >> RCL_SETTING_JBOD & 1))
		return rcl_unsupported(err, ctrl->caps.kind, "JBOD mode",
		                       "the card reports no JBOD support");
	st = ON_LINK(ctrl, &link, err,
	             rcl_mfi_set_props(
	                 &link,
	                 &(struct rcl_mfi_props_change){.bits = RCL_MFI_PROP_ENABLE_JBOD,
	                                                .on = on ? RCL_MFI_PROP_ENABLE_JBOD : 0},
	                 err));
	if (!st)
		ctrl->info.jbod = on;
	return st;
}

/*
 * A JBOD drive is the firmware's SYSTEM state, set as any other (FreeBSD
 * mfiutil's "syspd"); one made unconfigured good leaves the host, which may
 * have it mounted, so that needs force as deleting a VD does.
 */
static enum rcl_status megaraid_set_drive_jbod(struct rcl_ctrl *ctrl,
                                               const struct rcl_drive_ref *ref, bool on, bool force,
                                               struct rcl_error *err)
{
	struct rcl_mfi_link link;
	char name[48];

	snprintf(name, sizeof(name), "/c%u/e%u/s%u", ctrl->entry.id, ref->enclosure, ref->slot);
	return (on ? RCL_OK : check_unlooked(force, name, "make it unconfigured good", err))
	           ?: ON_LINK(ctrl, &link, err,
	                      rcl_mfi_set_pd_state(
	                          &link, rcl_ctrl_find_drive(ctrl, ref),
	                          on ? RCL_MFI_PD_SYSTEM : RCL_MFI_PD_UNCONFIGURED_GOOD, err));
}

/* The firmware state @change moves a drive to; MISSING has a DCMD of its own, FAILED none. */
static enum rcl_status change_state(const struct rcl_ctrl *ctrl, enum rcl_drive_change change,
                                    uint16_t *fw_state, struct rcl_error *err)
{
	switch (change) {
	case RCL_DRIVE_SET_ONLINE:
		*fw_state = RCL_MFI_PD_ONLINE;
		return RCL_OK;
	case RCL_DRIVE_SET_OFFLINE:
		*fw_state = RCL_MFI_PD_OFFLINE;
		return RCL_OK;
	case RCL_DRIVE_SET_GOOD:
		*fw_state = RCL_MFI_PD_UNCONFIGURED_GOOD;
		return RCL_OK;
	default:
		return rcl_unsupported(err, ctrl->caps.kind, rcl_drive_change_name(change), NULL);
	}
}

static enum rcl_status megaraid_set_drive_state(struct rcl_ctrl *ctrl,
                                                const struct rcl_drive_ref *ref,
                                                enum rcl_drive_change change, struct rcl_error *err)
{
	const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, ref);
	struct rcl_mfi_link link;
	uint16_t fw_state = 0;
	enum rcl_status st;

	if (change == RCL_DRIVE_SET_MISSING)
		return ON_LINK(ctrl, &link, err, rcl_mfi_mark_missing(&link, d, err));
	st = change_state(ctrl, change, &fw_state, err);
	return st ? st : ON_LINK(ctrl, &link, err, rcl_mfi_set_pd_state(&link, d, fw_state, err));
}

static enum rcl_status megaraid_insert_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                             unsigned dg, unsigned array, unsigned row,
                                             struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(
	    ctrl, &link, err,
	    rcl_mfi_insert_drive(&link, ctrl, rcl_ctrl_find_drive(ctrl, ref), dg, array, row, err));
}

/* The card's own log, read anew each time (it grows while raidcli is not looking). */
static enum rcl_status megaraid_read_events(struct rcl_ctrl *ctrl, struct rcl_event_list *list,
                                            struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_read_events(&link, list, err));
}

static enum rcl_status megaraid_clear_events(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_clear_events(&link, err));
}

/* The card runs its tasks: each action is one DCMD (task.c), on a link opened for it. */
static enum rcl_status megaraid_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                     struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_task(&link, ctrl, req, err));
}

static enum rcl_status megaraid_task_progress(const struct rcl_ctrl *ctrl,
                                              const struct rcl_task_request *req,
                                              struct rcl_task_progress *out, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_task_progress(&link, ctrl, req, out, err));
}

/* The card's foreign configurations and clock (foreign.c, hw.c), on its adapter opened for it. */
static enum rcl_status megaraid_foreign_show(struct rcl_ctrl *ctrl, struct rcl_foreign *out,
                                             struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_foreign_show(ctrl, &link, out, err));
}

static enum rcl_status megaraid_foreign_import(struct rcl_ctrl *ctrl, bool preview, bool bitmap,
                                               struct rcl_foreign *out, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err,
	               rcl_mfi_foreign_import(ctrl, &link, preview, bitmap, out, err));
}

static enum rcl_status megaraid_foreign_delete(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_foreign_delete(&link, err));
}

static enum rcl_status megaraid_set_time(struct rcl_ctrl *ctrl, time_t t, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_set_time(&link, t, err));
}

static enum rcl_status megaraid_backup_learn(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_backup_learn(&link, err));
}

static enum rcl_status megaraid_backup_props(struct rcl_ctrl *ctrl, struct rcl_backup_props *out,
                                             struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_backup_props(&link, out, err));
}

static enum rcl_status megaraid_backup_set_props(struct rcl_ctrl *ctrl,
                                                 const struct rcl_backup_props *p, unsigned which,
                                                 struct rcl_error *err)
{
	struct rcl_mfi_link link;

	return ON_LINK(ctrl, &link, err, rcl_mfi_backup_set_props(&link, p, which, err));
}

/*
 * What a MegaRAID card can be asked, before its own answer narrows it at
 * load (levels, limits, strips, cache, battery and the rates it takes:
 * model.c).
 */
static const struct rcl_caps megaraid_caps = {
    .kind = "megaraid",
    .drive_kinds = "SAS, SATA",
    /* Every level the MFI interface names: the parser takes them, the card's answer narrows. */
    .levels = 1u << RCL_RAID0 | 1u << RCL_RAID1 | 1u << RCL_RAID5 | 1u << RCL_RAID6 |
              1u << RCL_RAID00 | 1u << RCL_RAID10 | 1u << RCL_RAID50 | 1u << RCL_RAID60,
    .strip_min_kib = 64,
    .strip_max_kib = 1024,
    .strip_default_kib = 64,
    .max_spans = RCL_MAX_SPANS,
    .max_drives_per_span = RCL_MAX_DRIVES_PER_SPAN,
    .max_dgs = RCL_MAX_DGS,
    .max_vds = RCL_MAX_VDS,
    .max_vds_per_dg = RCL_MAX_VDS_PER_DG,
    .settings = 1u << RCL_SETTING_REBUILD_RATE | 1u << RCL_SETTING_CC_RATE |
                1u << RCL_SETTING_BGI_RATE | 1u << RCL_SETTING_PR_RATE |
                1u << RCL_SETTING_RECON_RATE | 1u << RCL_SETTING_VD_POLICY |
                /* Narrowed at load (load_patrol(), load_cc_schedule(), the JBOD support). */
                1u << RCL_SETTING_PR_SCHEDULE | 1u << RCL_SETTING_CC_SCHEDULE |
                1u << RCL_SETTING_JBOD | 1u << RCL_SETTING_AUTO_REBUILD,
    .default_write = RCL_WRITE_BACK,
    .default_read = RCL_READ_AHEAD,
    .backup = RCL_BACKUP_BBU, /* /cx/bbu answers; narrowed at load (hw_present) */
    .inserts_drives = true,
    /* Narrowed at load (rcl_mfi_task_caps(), load_patrol()). */
    .tasks = 1u << RCL_TASK_PATROL_READ | 1u << RCL_TASK_REBUILD | 1u << RCL_TASK_CC |
             1u << RCL_TASK_INIT | 1u << RCL_TASK_BGI,
};

const struct rcl_backend_ops rcl_megaraid_ops = {
    .name = "megaraid",
    .caps = &megaraid_caps,
    .backup_kind = megaraid_backup_kind,
    /* StorCLI's consumers were written for these very cards: they read as one from the start. */
    .storcli_compat = RCL_STORCLI_COMPAT_MEGARAID_SAS,
    .discover = megaraid_discover,
    .load = megaraid_load,
    .unload = megaraid_unload,
    .create_vd = megaraid_create_vd,
    .delete_vd = megaraid_delete_vd,
    .set_vd = megaraid_set_vd,
    .add_hotspare = megaraid_add_hotspare,
    .delete_hotspare = megaraid_delete_hotspare,
    .set_locate = megaraid_set_locate,
    .set_jbod_mode = megaraid_set_jbod_mode,
    .set_drive_jbod = megaraid_set_drive_jbod,
    .set_drive_state = megaraid_set_drive_state,
    .insert_drive = megaraid_insert_drive,
    .read_events = megaraid_read_events,
    .clear_events = megaraid_clear_events,
    .foreign_show = megaraid_foreign_show,
    .foreign_import = megaraid_foreign_import,
    .foreign_delete = megaraid_foreign_delete,
    .set_time = megaraid_set_time,
    .backup_learn = megaraid_backup_learn,
    .backup_props = megaraid_backup_props,
    .backup_set_props = megaraid_backup_set_props,
    .settings_get = megaraid_settings_get,
    .settings_set = megaraid_settings_set,
    .schedule_status = megaraid_schedule_status,
    .task_check = rcl_mfi_task_check,
    .task = megaraid_task,
    .task_progress = megaraid_task_progress,
};
