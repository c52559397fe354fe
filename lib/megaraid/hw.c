// SPDX-License-Identifier: MIT
/*
 * hw.c - a MegaRAID card's battery and clock (hw.h), read at load so
 * "show all", /cx/bbu and "show time" tell what the card says, and its
 * clock set from "set time="; the battery's learn schedule, read and
 * written when asked ("/cx/bbu show properties", "/cx/bbu set").
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "megaraid/frame.h"
#include "megaraid/hw.h"

/* Copy fixed-width firmware text @src (@n bytes) into @dst, up to its first NUL, trimmed. */
static void copy_name(char *dst, size_t size, const char *src, size_t n)
{
	size_t len = strnlen(src, n);

	while (len && src[len - 1] == ' ')
		len--;
	snprintf(dst, size, "%.*s", (int)len, src);
}

/* StorCLI's word for what @s says of the battery. */
static const char *backup_state(const struct rcl_mfi_bbu_status *s)
{
	uint32_t bits = le32toh(s->fw_status);

	if (bits & RCL_MFI_BBU_PACK_MISSING)
		return "Failed";
	if (bits & (RCL_MFI_BBU_VOLTAGE_LOW | RCL_MFI_BBU_TEMPERATURE_HIGH |
	            RCL_MFI_BBU_LEARN_FAILED | RCL_MFI_BBU_LEARN_TIMEOUT | RCL_MFI_BBU_I2C_ERROR) ||
	    (s->battery_type == RCL_MFI_BBU_TYPE_BBU && !s->soh_good))
		return "Degraded";
	return bits & RCL_MFI_BBU_LEARN_ACTIVE ? "Learning" : "Optimal";
}

/* The pack's name and date (BBU_GET_DESIGN_INFO), where the card gives them. */
static enum rcl_status read_design(const struct rcl_mfi_link *link, struct rcl_backup_info *b,
                                   struct rcl_error *err)
{
	struct rcl_mfi_bbu_design d;
	enum rcl_status st = rcl_mfi_read(link, RCL_MFI_DCMD_BBU_GET_DESIGN, &d, sizeof(d),
	                                  "the battery's design (BBU_GET_DESIGN_INFO)", err);
	uint32_t date = le32toh(d.mfg_date);

	if (st)
		return st;
	copy_name(b->model, sizeof(b->model), d.device_name, sizeof(d.device_name));
	if (date)
		snprintf(b->mfg_date, sizeof(b->mfg_date), "%04u/%02u/%02u",
		         1980 + (date >> 9 & 0x7f), date >> 5 & 0x0f, date & 0x1f);
	return RCL_OK;
}

/*
 * The cache's backup: a battery, or a CacheVault where the status names a
 * TMM-C (the card's hw_present has one bit for both: StorCLI shows the
 * one under /cx/bbu, the other under /cx/cv).
 */
static enum rcl_status read_backup(const struct rcl_mfi_link *link, struct rcl_ctrl *ctrl,
                                   struct rcl_error *err)
{
	struct rcl_backup_info *b = &ctrl->info.backup;
	struct rcl_mfi_bbu_status s;
	enum rcl_status st = rcl_mfi_read(link, RCL_MFI_DCMD_BBU_GET_STATUS, &s, sizeof(s),
	                                  "the battery's status (BBU_GET_STATUS)", err);

	if (st)
		return st;
	if (s.battery_type == RCL_MFI_BBU_TYPE_TMMC)
		ctrl->caps.backup = RCL_BACKUP_CACHEVAULT;
	snprintf(b->state, sizeof(b->state), "%s", backup_state(&s));
	b->temperature_c = le16toh(s.temperature);
	b->voltage_mv = le16toh(s.voltage);
	b->charge_pct = le16toh(s.relative_charge);
	return read_design(link, b, err);
}

/*
 * QEMU's clock (CTRL_GET_TIME, broken down), or 0 when it keeps none (year
 * 0). One that is no date is RCL_CLOCK_NO_DATE, not a failed load: every
 * command would fail with it.
 */
static enum rcl_status read_qemu_clock(const struct rcl_mfi_link *link, time_t *out,
                                       struct rcl_error *err)
{
	struct rcl_mfi_time t;
	struct tm tm = {0};
	enum rcl_status st = rcl_mfi_read(link, RCL_MFI_DCMD_CTRL_GET_TIME, &t, sizeof(t),
	                                  "the controller's clock (CTRL_GET_TIME)", err);

	*out = 0;
	if (st || !t.year)
		return st;
	if (t.month > 11 || !t.day || t.day > 31 || t.hour > 23 || t.minute > 59 || t.second > 60) {
		*out = RCL_CLOCK_NO_DATE;
		return RCL_OK;
	}
	tm.tm_year = le16toh(t.year) - 1900;
	tm.tm_mon = t.month;
	tm.tm_mday = t.day;
	tm.tm_hour = t.hour;
	tm.tm_min = t.minute;
	tm.tm_sec = t.second;
	*out = timegm(&tm);
	return RCL_OK;
}

/*
 * The card's clock: seconds since 2000-01-01 (MR.H's CTRL_TIME_SECS_GET,
 * what mfiutil and OpenBSD's mfii read). A clock the host never set
 * (TIME_NOT_SET) is RCL_CLOCK_NO_DATE; one without the DCMD keeps none (0:
 * the system's is shown). QEMU's card answers the seconds without writing
 * them and its clock broken down (read_qemu_clock()).
 */
static enum rcl_status read_clock(const struct rcl_mfi_link *link, time_t *out,
                                  struct rcl_error *err)
{
	uint32_t secs;
	enum rcl_status st =
	    rcl_mfi_read(link, RCL_MFI_DCMD_CTRL_TIME_SECS_GET, &secs, sizeof(secs),
	                 "the controller's clock (CTRL_TIME_SECS_GET)", err);

	*out = 0;
	if (st == RCL_BAD_REPLY || st == RCL_NOT_FOUND) {
		if (err)
			memset(err, 0, sizeof(*err));
		if (st == RCL_BAD_REPLY)
			return read_qemu_clock(link, out, err);
		*out = RCL_CLOCK_NO_DATE;
		return RCL_OK;
	}
	if (!st)
		*out = RCL_MFI_EPOCH + (time_t)le32toh(secs);
	return st;
}

/*
 * @st, but a DCMD the firmware does not know leaves its part unknown: one
 * it refuses as unknown, or answers without writing a reply (as QEMU
 * answers the battery's, which its card reports none of).
 */
static enum rcl_status known(enum rcl_status st, struct rcl_error *err)
{
	if (st != RCL_UNSUPPORTED && st != RCL_BAD_REPLY)
		return st;
	if (err)
		memset(err, 0, sizeof(*err));
	return RCL_OK;
}

enum rcl_status rcl_mfi_read_hw(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	if (ctrl->caps.backup != RCL_BACKUP_NONE)
		st = known(read_backup(link, ctrl, err), err);
	return st ? st : known(read_clock(link, &ctrl->info.clock, err), err);
}

enum rcl_status rcl_mfi_backup_kind(const struct rcl_mfi_link *link, enum rcl_cache_backup *kind,
                                    struct rcl_error *err)
{
	struct rcl_mfi_ctrl_info *ci = rcl_malloc(sizeof(*ci));
	struct rcl_mfi_bbu_status s;
	enum rcl_status st = ci ? rcl_mfi_read(link, RCL_MFI_DCMD_CTRL_GET_INFO, ci, sizeof(*ci),
	                                       "reading the controller info (CTRL_GET_INFO)", err)
	                        : rcl_fail(err, RCL_NOMEM, "out of memory");

	*kind = RCL_BACKUP_BBU;
	if (!st && le32toh(ci->hw_present) & RCL_MFI_HW_BBU) {
		st = known(rcl_mfi_read(link, RCL_MFI_DCMD_BBU_GET_STATUS, &s, sizeof(s),
		                        "the battery's status (BBU_GET_STATUS)", err),
		           err);
		if (!st && s.battery_type == RCL_MFI_BBU_TYPE_TMMC)
			*kind = RCL_BACKUP_CACHEVAULT;
	}
	rcl_free(ci);
	return st;
}

enum rcl_status rcl_mfi_backup_learn(const struct rcl_mfi_link *link, struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {.opcode = RCL_MFI_DCMD_BBU_LEARN, .dir = RCL_MFI_DIR_NONE};

	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d,
	                    "starting the learn cycle (BBU_LEARN)", err);
}

_Static_assert(sizeof(struct rcl_mfi_bbu_props) <= RCL_MFI_RECORD_MAX, "battery record");

static const struct rcl_mfi_record bbu_record = {
    .name = "the battery's properties",
    .get = RCL_MFI_DCMD_BBU_GET_PROPS,
    .set = RCL_MFI_DCMD_BBU_SET_PROPS,
    .get_name = "BBU_GET_PROPERTIES",
    .set_name = "BBU_SET_PROPERTIES",
    .len = sizeof(struct rcl_mfi_bbu_props),
};

enum rcl_status rcl_mfi_backup_props(const struct rcl_mfi_link *link, struct rcl_backup_props *out,
                                     struct rcl_error *err)
{
	struct rcl_mfi_bbu_props raw;
	enum rcl_status st = rcl_mfi_read_record(link, &bbu_record, &raw, err);
	uint32_t next = le32toh(raw.next_learn_time);

	if (st)
		return st;
	*out = (struct rcl_backup_props){
	    .learn_period_s = le32toh(raw.auto_learn_period),
	    .next_learn = next ? (time_t)RCL_MFI_EPOCH + next : 0,
	    .learn_delay_h = raw.learn_delay_interval,
	    .auto_learn_mode = raw.auto_learn_mode,
	    .bbu_mode = raw.bbu_mode,
	};
	return RCL_OK;
}

/* What a "/cx/bbu set" changes: the properties of @p that @which names. */
struct bbu_change {
	const struct rcl_backup_props *p;
	unsigned which;
};

/* The battery's properties @rec as @arg (a struct bbu_change) asks for. */
static bool edit_bbu(void *rec, const void *arg)
{
	const struct bbu_change *c = arg;
	struct rcl_mfi_bbu_props *raw = rec;

	if (c->which & RCL_BACKUP_PROP_LEARN_DELAY)
		raw->learn_delay_interval = (uint8_t)c->p->learn_delay_h;
	if (c->which & RCL_BACKUP_PROP_AUTO_LEARN)
		raw->auto_learn_mode = (uint8_t)c->p->auto_learn_mode;
	if (c->which & RCL_BACKUP_PROP_BBU_MODE)
		raw->bbu_mode = (uint8_t)c->p->bbu_mode;
	return c->which & (RCL_BACKUP_PROP_LEARN_DELAY | RCL_BACKUP_PROP_AUTO_LEARN |
	                   RCL_BACKUP_PROP_BBU_MODE);
}

enum rcl_status rcl_mfi_backup_set_props(const struct rcl_mfi_link *link,
                                         const struct rcl_backup_props *p, unsigned which,
                                         struct rcl_error *err)
{
	return rcl_mfi_change_record(link, &bbu_record, edit_bbu,
	                             &(struct bbu_change){.p = p, .which = which}, err);
}

/* MR.H: the largest seconds CTRL_TIME_SECS_SET takes. */
#define MFI_TIME_SECS_MAX 0xfeffffffu

enum rcl_status rcl_mfi_set_time(const struct rcl_mfi_link *link, time_t t, struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {.opcode = RCL_MFI_DCMD_CTRL_TIME_SECS_SET,
	                         .dir = RCL_MFI_DIR_NONE};
	uint32_t secs;

	if (t < RCL_MFI_EPOCH || t - RCL_MFI_EPOCH > MFI_TIME_SECS_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "the time %lld is out of the controller clock's range",
		                (long long)t);
	secs = htole32((uint32_t)(t - RCL_MFI_EPOCH));
	memcpy(d.mbox, &secs, sizeof(secs));
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d,
	                    "setting the controller's clock (CTRL_TIME_SECS_SET)", err);
}
