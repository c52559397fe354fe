// SPDX-License-Identifier: MIT
/*
 * events.c - a MegaRAID card's own event log, read as StorCLI's "show
 * events" reads it: CTRL_EVENT_GET_INFO for the oldest and newest
 * sequence numbers, then CTRL_EVENT_GET from the oldest on, a batch at a
 * time, until the card has no more. The card keeps the log in its own
 * NVRAM across boots, so it, not raidcli's own log, is the controller's.
 */
#include <endian.h>
#include <string.h>

#include "megaraid/events.h"
#include "megaraid/frame.h"

/*
 * The lowest class EVENT_GET is asked for: info. Below it are debug and
 * progress events (a rebuild's every percent), which StorCLI's class
 * filter has no name for either.
 */
#define FLOOR_CLASS 0

/* An event's time: 0 (unknown) for one stamped before the card's clock was set. */
static time_t event_time(uint32_t stamp)
{
	return stamp >> 24 == 0xff ? 0 : (time_t)RCL_MFI_EPOCH + stamp;
}

/* The firmware's class -2 .. 4 as raidcli's severities (debug and progress are info). */
static enum rcl_event_class event_class(int8_t class_)
{
	if (class_ <= 0)
		return RCL_EVENT_INFO;
	return class_ >= RCL_EVENT_FATAL ? RCL_EVENT_FATAL : (enum rcl_event_class)class_;
}

/*
 * The firmware's text as printable ASCII, at most the field less its
 * terminator: a reply with no terminator or with bytes of another encoding
 * is cut or shown with '?', never passed on to JSON as invalid UTF-8.
 */
static void copy_description(const char *from, size_t size, char *to)
{
	size_t n = strnlen(from, size - 1);

	while (n && (from[n - 1] == '\n' || from[n - 1] == ' '))
		n--;
	for (size_t i = 0; i < n; i++)
		to[i] = from[i] >= ' ' && from[i] <= '~' ? from[i] : '?';
	to[n] = '\0';
}

static void decode_one(const struct rcl_mfi_evt_detail *e, struct rcl_event *ev)
{
	ev->seq = le32toh(e->seq);
	ev->time = event_time(le32toh(e->time));
	/* The firmware's own code: "show events" prints it as StorCLI does, in hex. */
	ev->code = (enum rcl_event_code)le32toh(e->code);
	ev->class_ = event_class(e->class_);
	ev->locale = le16toh(e->locale);
	copy_description(e->description, sizeof(e->description), ev->description);
}

enum rcl_status rcl_mfi_decode_events(const uint8_t *buf, size_t len, struct rcl_event_list *list,
                                      uint64_t *last, size_t *got, struct rcl_error *err)
{
	const struct rcl_mfi_evt_list *l = (const void *)buf;
	size_t count = len < sizeof(*l) ? 0 : le32toh(l->count);
	struct rcl_event *grown;

	*got = 0;
	if (len < sizeof(*l) || count > (len - sizeof(*l)) / sizeof(l->event[0]))
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the event log (CTRL_EVENT_GET) counts %zu events in %zu bytes",
		                count, len);
	if (!count)
		return RCL_OK;
	grown = rcl_realloc(list->events, (list->count + count) * sizeof(*grown));
	if (!grown)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	list->events = grown;
	for (size_t i = 0; i < count; i++) {
		struct rcl_event *ev = &list->events[list->count];

		memset(ev, 0, sizeof(*ev));
		decode_one(&l->event[i], ev);
		if (list->count + i && ev->seq <= *last)
			return rcl_fail(
			    err, RCL_BAD_REPLY,
			    "the event log (CTRL_EVENT_GET) lists event %llu after %llu",
			    (unsigned long long)ev->seq, (unsigned long long)*last);
		*last = ev->seq;
		list->count++;
	}
	*got = count;
	return RCL_OK;
}

/* One batch of events from sequence number @from on; *@got 0 when the card has no more. */
static enum rcl_status get_batch(const struct rcl_mfi_link *link, uint32_t from, uint8_t *buf,
                                 uint32_t len, struct rcl_event_list *list, uint64_t *last,
                                 size_t *got, struct rcl_error *err)
{
	const uint32_t words[2] = {
	    htole32(from), htole32((uint32_t)(uint8_t)FLOOR_CLASS << 24 | RCL_MFI_LOCALE_ALL)};
	uint8_t mbox[RCL_MFI_MBOX_SIZE] = {0};
	enum rcl_status st;

	/* Preset to zeros: QEMU answers EVENT_GET without writing, an empty log. */
	memcpy(mbox, words, sizeof(words));
	st = rcl_mfi_read_mbox(link, RCL_MFI_DCMD_EVENT_GET, mbox, RCL_MFI_PRESET_ZERO, buf, len,
	                       "the event log (CTRL_EVENT_GET)", err);
	*got = 0;
	/* A card past its newest event answers NOT_FOUND: the end, not a failure. */
	if (st == RCL_NOT_FOUND)
		return RCL_OK;
	return st ? st : rcl_mfi_decode_events(buf, len, list, last, got, err);
}

enum rcl_status rcl_mfi_read_events(const struct rcl_mfi_link *link, struct rcl_event_list *list,
                                    struct rcl_error *err)
{
	uint8_t buf[sizeof(struct rcl_mfi_evt_list) +
	            RCL_MFI_EVENTS_PER_GET * sizeof(struct rcl_mfi_evt_detail)];
	struct rcl_mfi_evt_log_info info;
	uint64_t last = 0;
	size_t got = 0;
	enum rcl_status st =
	    rcl_mfi_read_mbox(link, RCL_MFI_DCMD_EVENT_GET_INFO, NULL, RCL_MFI_PRESET_ZERO, &info,
	                      sizeof(info), "the event log's bounds (CTRL_EVENT_GET_INFO)", err);
	uint32_t from = le32toh(info.oldest_seq), newest = le32toh(info.newest_seq);

	/* Each batch starts past the last event read: the loop ends at the card's end. */
	do {
		if (!st)
			st = get_batch(link, from, buf, sizeof(buf), list, &last, &got, err);
		from = (uint32_t)last + 1;
	} while (!st && got && last < newest);
	return st;
}

enum rcl_status rcl_mfi_clear_events(const struct rcl_mfi_link *link, struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {.opcode = RCL_MFI_DCMD_EVENT_CLEAR, .dir = RCL_MFI_DIR_NONE};

	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d,
	                    "clearing the event log (CTRL_EVENT_CLEAR)", err);
}
