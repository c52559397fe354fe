/* SPDX-License-Identifier: MIT */
/*
 * events.h - a MegaRAID card's own event log (events.c): the replies of
 * CTRL_EVENT_GET_INFO and CTRL_EVENT_GET, decoded into raidcli's events.
 *
 * Layouts written for raidcli from the public interface (the Linux
 * driver's megaraid_sas.h event structures, QEMU's megasas model);
 * only what raidcli reads is named, the assertions pin the offsets.
 */
#ifndef RCL_MEGARAID_EVENTS_H
#define RCL_MEGARAID_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "megaraid/model.h"

enum {
	RCL_MFI_DCMD_EVENT_GET_INFO = 0x01040100,
	RCL_MFI_DCMD_EVENT_CLEAR = 0x01040200,
	RCL_MFI_DCMD_EVENT_GET = 0x01040300,
};

/* Every locale: EVENT_GET's mailbox asks for the events of these. */
#define RCL_MFI_LOCALE_ALL 0xffff

/* CTRL_EVENT_GET_INFO: the log's sequence numbers. */
struct rcl_mfi_evt_log_info {
	uint32_t newest_seq;
	uint32_t oldest_seq;
	uint32_t clear_seq;
	uint32_t shutdown_seq;
	uint32_t boot_seq;
} __attribute__((packed));

/* One event: 256 bytes, its arguments left unread (the description says it all). */
struct rcl_mfi_evt_detail {
	uint32_t seq;
	uint32_t time; /* seconds since 2000-01-01 UTC; 0xffXXXXXX: XXXXXX seconds since boot */
	uint32_t code;
	uint16_t locale;
	uint8_t rsvd0;
	int8_t class_; /* -2 debug, -1 progress, 0 info ... 3 fatal, 4 dead */
	uint8_t arg_type;
	uint8_t rsvd1[15];
	uint8_t args[96];
	char description[128];
} __attribute__((packed));

/* CTRL_EVENT_GET's reply: @count events follow. */
struct rcl_mfi_evt_list {
	uint32_t count;
	uint32_t rsvd;
	struct rcl_mfi_evt_detail event[];
} __attribute__((packed));

_Static_assert(sizeof(struct rcl_mfi_evt_log_info) == 20, "event log info");
_Static_assert(offsetof(struct rcl_mfi_evt_detail, locale) == 12, "event locale");
_Static_assert(offsetof(struct rcl_mfi_evt_detail, class_) == 15, "event class");
_Static_assert(offsetof(struct rcl_mfi_evt_detail, args) == 32, "event arguments");
_Static_assert(offsetof(struct rcl_mfi_evt_detail, description) == 128, "event description");
_Static_assert(sizeof(struct rcl_mfi_evt_detail) == 256, "event size");
_Static_assert(sizeof(struct rcl_mfi_evt_list) == 8, "event list header");

/* How many events one CTRL_EVENT_GET asks for. */
#define RCL_MFI_EVENTS_PER_GET 32

/**
 * rcl_mfi_decode_events() - append the events of EVENT_GET reply @buf
 * (@len bytes, the buffer sent) to @list, each one's sequence number
 * above *@last (updated). *@got: how many the reply held.
 * Return: RCL_OK; RCL_BAD_REPLY (a count the buffer cannot hold, an
 * event out of order); RCL_NOMEM.
 */
enum rcl_status rcl_mfi_decode_events(const uint8_t *buf, size_t len, struct rcl_event_list *list,
                                      uint64_t *last, size_t *got, struct rcl_error *err);

/**
 * rcl_mfi_read_events() - every event of the card behind @link, oldest
 * first, into @list (zeroed; the caller frees it on failure too).
 * Return: RCL_OK; the firmware's refusal (frame.h); RCL_BAD_REPLY; RCL_NOMEM.
 */
enum rcl_status rcl_mfi_read_events(const struct rcl_mfi_link *link, struct rcl_event_list *list,
                                    struct rcl_error *err);

/* rcl_mfi_clear_events() - empty the card's log (CTRL_EVENT_CLEAR). */
enum rcl_status rcl_mfi_clear_events(const struct rcl_mfi_link *link, struct rcl_error *err);

#endif /* RCL_MEGARAID_EVENTS_H */
