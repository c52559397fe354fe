// SPDX-License-Identifier: MIT
/*
 * mfi-shim-hw.c - the fake adapter's battery, ROC temperature, clock and
 * foreign configuration (mfi-shim-hw.h), at the byte offsets of the public
 * interface (FreeBSD's mfireg.h and mfiutil, QEMU's megasas model), not
 * through lib/megaraid's headers.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mfi-shim-hw.h"

enum {
	OP_GET_TIME = 0x01080101,
	OP_TIME_SECS_GET = 0x01080201,
	OP_TIME_SECS_SET = 0x01080202,
	OP_FOREIGN_SCAN = 0x04060100,
	OP_FOREIGN_DISPLAY = 0x04060200,
	OP_FOREIGN_PREVIEW = 0x04060300,
	OP_FOREIGN_IMPORT = 0x04060400,
	OP_FOREIGN_CLEAR = 0x04060500,
	OP_BBU_STATUS = 0x05010000,
	OP_BBU_CAPACITY = 0x05020000,
	OP_BBU_DESIGN = 0x05030000,
	OP_BBU_LEARN = 0x05040000,
	OP_BBU_GET_PROPS = 0x05050100,
	OP_BBU_SET_PROPS = 0x05050200,
};

enum {
	ST_OK = 0x00,
	ST_INVALID_PARAMETER = 0x03,
	ST_DEVICE_NOT_FOUND = 0x0c,
	ST_NO_HW_PRESENT = 0x22,
	ST_TIME_NOT_SET = 0x31,
	ST_WRONG_STATE = 0x32,
	ST_FOREIGN_INCOMPLETE = 0x3b,
};

/* A foreign configuration as CFG_ADD takes it: header, one array, one LD. */
#define CONFIG_LEN (32 + 288 + 256)

static const struct mfi_shim_bbu *bbu;
static uint8_t roc_temperature;
static uint8_t bbu_props[32];
/* The clock: QEMU's (CTRL_GET_TIME alone) unless a card's is asked for. */
static enum { CLOCK_QEMU, CLOCK_CARD, CLOCK_NOT_SET } clock_kind;
static uint8_t clock_bytes[8];
static bool clock_set;
static uint32_t card_secs;
static uint8_t foreign[CONFIG_LEN];
static bool has_foreign, foreign_incomplete;
static char foreign_guid[24];

static void put(uint8_t *p, uint64_t v, int width)
{
	for (int i = 0; i < width; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

void mfi_shim_hw_reset(void)
{
	bbu = NULL;
	memset(bbu_props, 0, sizeof(bbu_props));
	put(bbu_props, 90 * 86400, 4);
	put(bbu_props + 4, 0x2a000000, 4);
	bbu_props[11] = 0x5a;
	roc_temperature = 0;
	clock_kind = CLOCK_QEMU;
	clock_set = false;
	has_foreign = false;
}

void mfi_shim_bbu(const struct mfi_shim_bbu *b)
{
	bbu = b;
}

void mfi_shim_bbu_props(const uint8_t p[32])
{
	memcpy(bbu_props, p, sizeof(bbu_props));
}

void mfi_shim_roc_temperature(uint8_t celsius)
{
	roc_temperature = celsius;
}

void mfi_shim_clock(const uint8_t bytes[8])
{
	memcpy(clock_bytes, bytes, 8);
	clock_set = true;
}

void mfi_shim_card_clock(uint32_t secs)
{
	clock_kind = CLOCK_CARD;
	card_secs = secs;
}

void mfi_shim_card_clock_unset(void)
{
	clock_kind = CLOCK_NOT_SET;
}

uint32_t mfi_shim_card_clock_now(void)
{
	return card_secs;
}

/* CTRL_TIME_SECS_GET: QEMU's dummy writes nothing; a card whose clock was never set refuses. */
static uint8_t time_secs_get(uint8_t *buf, uint32_t len)
{
	if (len != 4)
		return ST_INVALID_PARAMETER;
	if (clock_kind == CLOCK_NOT_SET)
		return ST_TIME_NOT_SET;
	if (clock_kind == CLOCK_CARD)
		put(buf, card_secs, 4);
	return ST_OK;
}

/* CTRL_TIME_SECS_SET: the mailbox's seconds, at most 0xfeffffff (MR.H); QEMU's does nothing. */
static uint8_t time_secs_set(const uint8_t *mbox)
{
	uint32_t secs = (uint32_t)mbox[0] | (uint32_t)mbox[1] << 8 | (uint32_t)mbox[2] << 16 |
	                (uint32_t)mbox[3] << 24;

	if (clock_kind == CLOCK_QEMU)
		return ST_OK;
	if (secs > 0xfeffffffu)
		return ST_INVALID_PARAMETER;
	mfi_shim_card_clock(secs);
	return ST_OK;
}

/* QEMU's megasas_fw_time(): year, then struct tm's month (0 for January), day, time. */
static void clock_now(uint8_t bytes[8])
{
	time_t now = time(NULL);
	struct tm tm;

	if (clock_set) {
		memcpy(bytes, clock_bytes, 8);
		return;
	}
	gmtime_r(&now, &tm);
	put(bytes, (uint64_t)(tm.tm_year + 1900), 2);
	bytes[2] = (uint8_t)tm.tm_mon;
	bytes[3] = (uint8_t)tm.tm_mday;
	bytes[4] = (uint8_t)tm.tm_hour;
	bytes[5] = (uint8_t)tm.tm_min;
	bytes[6] = (uint8_t)tm.tm_sec;
	bytes[7] = 0;
}

void mfi_shim_foreign(const uint8_t *ids, size_t count, uint8_t target, const char *guid)
{
	uint8_t *a = foreign + 32, *ld = foreign + 32 + 288;

	memset(foreign, 0, sizeof(foreign));
	put(foreign, CONFIG_LEN, 4);
	put(foreign + 4, 1, 2);   /* one array */
	put(foreign + 6, 288, 2); /* of 288 bytes */
	put(foreign + 8, 1, 2);   /* one LD */
	put(foreign + 10, 256, 2);
	put(a, 2048, 8); /* blocks per drive */
	a[8] = (uint8_t)count;
	put(a + 10, 0x0100, 2); /* array ref */
	foreign_incomplete = false;
	for (size_t r = 0; r < 32; r++) {
		bool member = r < count && ids[r] != 0xff;

		put(a + 32 + r * 8, member ? (uint16_t)(ids[r] << 8) : 0xffff, 2);
		put(a + 36 + r * 8, member ? 0x18 : 0, 2);
		a[38 + r * 8] = 0xff;
		a[39 + r * 8] = member ? ids[r] : 0xff;
		foreign_incomplete |= r < count && !member;
	}
	ld[0] = target;
	memcpy(ld + 4, "frgn", 4);
	ld[20] = ld[23] = 0x05; /* write back, read ahead */
	ld[35] = 7;             /* 64 KiB strip */
	ld[36] = (uint8_t)count;
	ld[37] = 1; /* one span */
	ld[38] = 3; /* optimal */
	ld[40] = 1; /* consistent */
	put(ld + 64 + 8, 2048, 8);
	put(ld + 64 + 16, 0x0100, 2);
	snprintf(foreign_guid, sizeof(foreign_guid), "%s", guid);
	has_foreign = true;
}

void mfi_shim_hw_ctrl_info(uint8_t *info)
{
	if (bbu)
		info[1456] |= 0x01; /* hw_present: a battery */
	info[0x7c9] = roc_temperature;
}

int mfi_shim_hw_mbox_used(uint32_t opcode)
{
	switch (opcode) {
	case OP_TIME_SECS_SET:
		return 4;
	case OP_FOREIGN_DISPLAY:
	case OP_FOREIGN_PREVIEW:
	case OP_FOREIGN_IMPORT:
		return 1;
	default:
		return 0;
	}
}

unsigned mfi_shim_hw_data_flags(uint32_t opcode)
{
	switch (opcode) {
	case OP_TIME_SECS_SET:
	case OP_FOREIGN_IMPORT:
	case OP_FOREIGN_CLEAR:
	case OP_BBU_LEARN:
		return 0;
	case OP_BBU_SET_PROPS:
		return 0x0008; /* write */
	default:
		return 0x0010; /* read */
	}
}

static uint8_t bbu_status(uint8_t *p, uint32_t len)
{
	if (len != 64)
		return ST_INVALID_PARAMETER;
	memset(p, 0, len); /* a real card writes its whole reply */
	p[0] = bbu->type;
	put(p + 2, bbu->voltage_mv, 2);
	put(p + 6, bbu->temperature, 2);
	put(p + 8, bbu->fw_status, 4);
	put(p + 34, bbu->relative_charge, 2);
	p[42] = bbu->soh_good;
	return ST_OK;
}

static uint8_t bbu_design(uint8_t *p, uint32_t len)
{
	if (len != 67)
		return ST_INVALID_PARAMETER;
	memset(p, 0, len);
	put(p, bbu->mfg_date, 4);
	memcpy(p + 26, bbu->name, strnlen(bbu->name, 8));
	return ST_OK;
}

/* BBU_GET_PROPERTIES and _SET_PROPERTIES: the 32 bytes; a delay past a week or a mode past 2
 * refused. */
static uint8_t bbu_properties(uint32_t opcode, uint8_t *p, uint32_t len)
{
	if (len != sizeof(bbu_props))
		return ST_INVALID_PARAMETER;
	if (opcode == OP_BBU_GET_PROPS) {
		memcpy(p, bbu_props, len);
		return ST_OK;
	}
	if (p[8] > 168 || p[9] > 2)
		return ST_INVALID_PARAMETER;
	memcpy(bbu_props, p, len);
	return ST_OK;
}

/* CFG_FOREIGN_SCAN: 4 bytes of count, then 8 identities of 24 bytes. */
static uint8_t scan(uint8_t *p, uint32_t len)
{
	if (len != 196)
		return ST_INVALID_PARAMETER;
	if (has_foreign) {
		put(p, 1, 4);
		memcpy(p + 4, foreign_guid, strlen(foreign_guid));
	}
	return ST_OK;
}

/* DISPLAY and PREVIEW: configuration mbox[0] in CFG_READ's layout, as far as @len holds it. */
static uint8_t display(uint8_t *p, uint32_t len, const uint8_t *mbox)
{
	if (!has_foreign || mbox[0] != 0)
		return ST_DEVICE_NOT_FOUND;
	memcpy(p, foreign, len < CONFIG_LEN ? len : CONFIG_LEN);
	return ST_OK;
}

static uint8_t import(const uint8_t *mbox)
{
	uint8_t st;

	if (!has_foreign || (mbox[0] != 0 && mbox[0] != 0xff))
		return ST_DEVICE_NOT_FOUND;
	if (foreign_incomplete)
		return ST_FOREIGN_INCOMPLETE;
	st = mfi_shim_cfg_add(foreign, CONFIG_LEN);
	if (!st)
		has_foreign = false;
	return st;
}

uint8_t mfi_shim_hw_dcmd(uint32_t opcode, const uint8_t *mbox, uint8_t *buf, uint32_t len)
{
	switch (opcode) {
	case OP_GET_TIME:
		if (len != 8)
			return ST_INVALID_PARAMETER;
		clock_now(buf);
		return ST_OK;
	case OP_TIME_SECS_GET:
		return time_secs_get(buf, len);
	case OP_TIME_SECS_SET:
		return time_secs_set(mbox);
	case OP_BBU_STATUS:
		return bbu ? bbu_status(buf, len) : ST_OK;
	case OP_BBU_CAPACITY:
		return ST_OK;
	case OP_BBU_DESIGN:
		return bbu ? bbu_design(buf, len) : ST_OK;
	case OP_BBU_LEARN: /* MR.H: none there, or one learning already (or missing) */
		return !bbu ? ST_NO_HW_PRESENT : bbu->fw_status & 0x41 ? ST_WRONG_STATE : ST_OK;
	case OP_BBU_GET_PROPS:
	case OP_BBU_SET_PROPS:
		return bbu ? bbu_properties(opcode, buf, len) : ST_OK;
	case OP_FOREIGN_SCAN:
		return scan(buf, len);
	case OP_FOREIGN_DISPLAY:
	case OP_FOREIGN_PREVIEW:
		return display(buf, len, mbox);
	case OP_FOREIGN_IMPORT:
		return import(mbox);
	case OP_FOREIGN_CLEAR:
		has_foreign = false;
		return ST_OK;
	default:
		return ST_OK; /* QEMU's dummy: success, nothing done */
	}
}
