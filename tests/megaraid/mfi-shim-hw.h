/* SPDX-License-Identifier: MIT */
/*
 * mfi-shim-hw.h - the part of the fake adapter (mfi-shim.h) that plays a
 * card's own hardware and foreign configurations (mfi-shim-hw.c): a
 * battery (BBU_GET_STATUS, _CAPACITY_INFO, _DESIGN_INFO, its properties:
 * BBU_GET_PROPERTIES, BBU_SET_PROPERTIES), the ROC's
 * temperature in CTRL_GET_INFO, the clock (CTRL_TIME_SECS_GET, _SECS_SET;
 * QEMU's CTRL_GET_TIME)
 * and one foreign configuration (CFG_FOREIGN_SCAN, _DISPLAY, _PREVIEW,
 * _IMPORT, _CLEAR). Without a call below it answers as QEMU's
 * megasas-gen2 does: no battery, no temperature, its clock, no foreign
 * configuration.
 */
#ifndef RCL_MFI_SHIM_HW_H
#define RCL_MFI_SHIM_HW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A battery, as BBU_GET_STATUS and BBU_GET_DESIGN_INFO tell it. */
struct mfi_shim_bbu {
	uint8_t type; /* 1 iBBU, 2 BBU, 6 TMM-C (CacheVault) */
	uint16_t voltage_mv;
	uint16_t temperature;
	uint32_t fw_status;
	uint16_t relative_charge;
	bool soh_good;
	const char *name;  /* the design info's device name, at most 8 bytes */
	uint32_t mfg_date; /* Smart Battery Data's */
};

/* mfi_shim_bbu() - the card has battery @b (kept, not copied); NULL: none. */
void mfi_shim_bbu(const struct mfi_shim_bbu *b);

/*
 * mfi_shim_bbu_props() - the battery's 32 bytes of properties read @p;
 * BBU_SET_PROPERTIES stores its payload there. Until then: a learn every
 * 90 days, the next at 0x2a000000 s past 2000, no delay, mode auto, a
 * reserved byte 0x5a that a write must give back.
 */
void mfi_shim_bbu_props(const uint8_t p[32]);

/* mfi_shim_roc_temperature() - CTRL_GET_INFO reports the ROC at @celsius (0: no sensor). */
void mfi_shim_roc_temperature(uint8_t celsius);

/*
 * mfi_shim_clock() - QEMU's clock reads @bytes (CTRL_GET_TIME's 8 bytes);
 * until then it reads the time now. As QEMU's, the card answers the
 * seconds' DCMDs OK and does nothing.
 */
void mfi_shim_clock(const uint8_t bytes[8]);

/*
 * mfi_shim_card_clock() - the card keeps a clock as MR.H's: @secs past
 * 2000-01-01 read by CTRL_TIME_SECS_GET, set by CTRL_TIME_SECS_SET.
 */
void mfi_shim_card_clock(uint32_t secs);

/* mfi_shim_card_clock_unset() - as mfi_shim_card_clock(), one never set: TIME_NOT_SET. */
void mfi_shim_card_clock_unset(void);

/* mfi_shim_card_clock_now() - the seconds the card's clock reads. */
uint32_t mfi_shim_card_clock_now(void);

/*
 * mfi_shim_foreign() - the free disks @ids (@count of them, kept) hold
 * one foreign RAID0 LD, target @target, named by @guid; a disk id 0xff
 * stands for a member missing. The import adds it to the configuration
 * as CFG_ADD would; the clear forgets it.
 */
void mfi_shim_foreign(const uint8_t *ids, size_t count, uint8_t target, const char *guid);

/* Hooks for mfi-shim.c. */
void mfi_shim_hw_reset(void);
void mfi_shim_hw_ctrl_info(uint8_t *info);
int mfi_shim_hw_mbox_used(uint32_t opcode);
unsigned mfi_shim_hw_data_flags(uint32_t opcode);
uint8_t mfi_shim_hw_dcmd(uint32_t opcode, const uint8_t *mbox, uint8_t *buf, uint32_t len);
/* mfi_shim_cfg_add() (mfi-shim.c) - CFG_ADD of payload @p (@len bytes): its status. */
uint8_t mfi_shim_cfg_add(const uint8_t *p, uint32_t len);

#endif /* RCL_MFI_SHIM_HW_H */
