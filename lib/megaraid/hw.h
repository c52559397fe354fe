/* SPDX-License-Identifier: MIT */
/*
 * hw.h - what a MegaRAID card reports of its own hardware (hw.c): the
 * battery that keeps its cache (BBU_GET_STATUS, BBU_GET_CAPACITY_INFO,
 * BBU_GET_DESIGN_INFO, its learn schedule: BBU_GET_PROPERTIES,
 * BBU_SET_PROPERTIES) and its clock (CTRL_TIME_SECS_GET, _SECS_SET; QEMU's
 * card answers only CTRL_GET_TIME).
 *
 * Layouts written for raidcli from the public interface: FreeBSD's
 * mfireg.h (the battery's structures and status bits), Broadcom's MR.H (the
 * clock's opcodes: seconds since 2000-01-01, which FreeBSD's and OpenBSD's
 * drivers read too), QEMU's megasas model (CTRL_GET_TIME's reply,
 * megasas_fw_time()); only what raidcli reads is named. No public source
 * tells a CacheVault from a battery: MFI's battery types are none, iBBU
 * and BBU, and raidcli shows every one as StorCLI's BBU.
 */
#ifndef RCL_MEGARAID_HW_H
#define RCL_MEGARAID_HW_H

#include <stddef.h>
#include <stdint.h>

#include "megaraid/model.h"

enum {
	RCL_MFI_DCMD_CTRL_GET_TIME = 0x01080101,      /* reads struct rcl_mfi_time (QEMU's) */
	RCL_MFI_DCMD_CTRL_TIME_SECS_GET = 0x01080201, /* reads seconds since RCL_MFI_EPOCH */
	RCL_MFI_DCMD_CTRL_TIME_SECS_SET = 0x01080202, /* mailbox: those seconds, no data */
	RCL_MFI_DCMD_BBU_GET_STATUS = 0x05010000,
	RCL_MFI_DCMD_BBU_GET_CAPACITY = 0x05020000,
	RCL_MFI_DCMD_BBU_GET_DESIGN = 0x05030000,
	RCL_MFI_DCMD_BBU_LEARN = 0x05040000,     /* MR.H's MR_DCMD_BBU_LEARN */
	RCL_MFI_DCMD_BBU_GET_PROPS = 0x05050100, /* reads struct rcl_mfi_bbu_props */
	RCL_MFI_DCMD_BBU_SET_PROPS = 0x05050200, /* writes it, no mailbox */
};

/*
 * The clock broken down, as QEMU's card answers CTRL_GET_TIME: the month as
 * struct tm's (0 for January). MR.H does not say its month's base; every
 * other date there counts from 1, so only QEMU's answer is read this way.
 */
struct rcl_mfi_time {
	uint16_t year;
	uint8_t month;
	uint8_t day;
	uint8_t hour;
	uint8_t minute;
	uint8_t second;
	uint8_t rsvd;
} __attribute__((packed));

/* BBU_GET_STATUS' fw_status bits. */
enum {
	RCL_MFI_BBU_PACK_MISSING = 1u << 0,
	RCL_MFI_BBU_VOLTAGE_LOW = 1u << 1,
	RCL_MFI_BBU_TEMPERATURE_HIGH = 1u << 2,
	RCL_MFI_BBU_LEARN_ACTIVE = 1u << 6,
	RCL_MFI_BBU_LEARN_FAILED = 1u << 7,
	RCL_MFI_BBU_LEARN_TIMEOUT = 1u << 8,
	RCL_MFI_BBU_I2C_ERROR = 1u << 9,
};

/* BBU_GET_STATUS' battery_type. */
enum {
	RCL_MFI_BBU_TYPE_NONE = 0,
	RCL_MFI_BBU_TYPE_IBBU = 1,
	RCL_MFI_BBU_TYPE_BBU = 2,
	RCL_MFI_BBU_TYPE_TMMC = 6, /* MR.H's TMM-C, a supercap module: a CacheVault */
};

/* BBU_GET_STATUS: 64 bytes. */
struct rcl_mfi_bbu_status {
	uint8_t battery_type;
	uint8_t rsvd0;
	uint16_t voltage;     /* mV */
	int16_t current;      /* mA */
	uint16_t temperature; /* degrees Celsius */
	uint32_t fw_status;
	uint8_t rsvd1[20];
	/* The type's detail: both start with the gas gauge and the relative charge. */
	uint16_t gas_gauge;
	uint16_t relative_charge;
	uint8_t rsvd2[6];
	uint8_t soh_good; /* a BBU's state of health (an iBBU's detail has none) */
	uint8_t rsvd3[21];
} __attribute__((packed));

/* BBU_GET_DESIGN_INFO: 67 bytes. */
struct rcl_mfi_bbu_design {
	uint32_t mfg_date; /* Smart Battery Data's date: (year - 1980) << 9 | month << 5 | day */
	uint16_t design_capacity;
	uint16_t design_voltage;
	uint16_t spec_info;
	uint16_t serial;
	uint16_t pack_stat_config;
	char mfg_name[12];
	char device_name[8];
	char chemistry[8];
	uint8_t mfg_data[8];
	uint8_t rsvd[17];
} __attribute__((packed));

_Static_assert(sizeof(struct rcl_mfi_time) == 8, "MFI time");
_Static_assert(offsetof(struct rcl_mfi_bbu_status, temperature) == 6, "BBU temperature");
_Static_assert(offsetof(struct rcl_mfi_bbu_status, fw_status) == 8, "BBU fw status");
_Static_assert(offsetof(struct rcl_mfi_bbu_status, relative_charge) == 34, "BBU charge");
_Static_assert(offsetof(struct rcl_mfi_bbu_status, soh_good) == 42, "BBU health");
_Static_assert(sizeof(struct rcl_mfi_bbu_status) == 64, "BBU status size");
_Static_assert(offsetof(struct rcl_mfi_bbu_design, device_name) == 26, "BBU design name");
_Static_assert(sizeof(struct rcl_mfi_bbu_design) == 67, "BBU design size");

/* BBU_GET_PROPERTIES and BBU_SET_PROPERTIES: 32 bytes. */
struct rcl_mfi_bbu_props {
	uint32_t auto_learn_period;   /* seconds; read only */
	uint32_t next_learn_time;     /* seconds since 2000-01-01; read only */
	uint8_t learn_delay_interval; /* hours */
	uint8_t auto_learn_mode;      /* 0 auto, 1 disabled, 2 warn via event */
	uint8_t bbu_mode;
	uint8_t rsvd[21];
} __attribute__((packed));

_Static_assert(offsetof(struct rcl_mfi_bbu_props, learn_delay_interval) == 8, "BBU learn delay");
_Static_assert(offsetof(struct rcl_mfi_bbu_props, bbu_mode) == 10, "BBU mode");
_Static_assert(sizeof(struct rcl_mfi_bbu_props) == 32, "BBU properties size");

/**
 * rcl_mfi_read_hw() - the battery (when ctrl->caps says the card has one)
 * and the clock of the card behind @link into @ctrl's info. A firmware
 * that does not know a DCMD (INVALID_DCMD) leaves that part unknown.
 * Return: RCL_OK; the firmware's refusal (frame.h); RCL_BAD_REPLY (a
 * clock that is no date).
 */
enum rcl_status rcl_mfi_read_hw(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                struct rcl_error *err);

/**
 * rcl_mfi_backup_kind() - what backs the cache of the card behind @link,
 * told before its model is read (the caps that decide between /cx/bbu
 * and /cx/cv): RCL_BACKUP_CACHEVAULT where its battery status names a
 * TMM-C, else RCL_BACKUP_BBU (a card without one answers "Absent").
 * Return: RCL_OK; the firmware's refusal (frame.h); RCL_BAD_REPLY (the
 * controller info not written).
 */
enum rcl_status rcl_mfi_backup_kind(const struct rcl_mfi_link *link, enum rcl_cache_backup *kind,
                                    struct rcl_error *err);

/*
 * rcl_mfi_backup_learn() - start a learn cycle of the card's battery or
 * CacheVault (BBU_LEARN: no mailbox, no data).
 */
enum rcl_status rcl_mfi_backup_learn(const struct rcl_mfi_link *link, struct rcl_error *err);

/*
 * rcl_mfi_backup_props() - the battery's learn schedule (BBU_GET_PROPERTIES)
 * into @out; RCL_BAD_REPLY for a reply the firmware did not write.
 */
enum rcl_status rcl_mfi_backup_props(const struct rcl_mfi_link *link, struct rcl_backup_props *out,
                                     struct rcl_error *err);

/*
 * rcl_mfi_backup_set_props() - the fields @which (enum rcl_backup_prop) of
 * @p written (BBU_SET_PROPERTIES), the others as the card answers them
 * just before: it takes the whole record (frame.h's read-change-write).
 */
enum rcl_status rcl_mfi_backup_set_props(const struct rcl_mfi_link *link,
                                         const struct rcl_backup_props *p, unsigned which,
                                         struct rcl_error *err);

/* rcl_mfi_set_time() - set the card's clock to @t (UTC; CTRL_SET_TIME). */
enum rcl_status rcl_mfi_set_time(const struct rcl_mfi_link *link, time_t t, struct rcl_error *err);

#endif /* RCL_MEGARAID_HW_H */
