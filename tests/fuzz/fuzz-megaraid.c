// SPDX-License-Identifier: MIT
/*
 * fuzz-megaraid.c - whatever a MegaRAID card answers to CTRL_EVENT_GET:
 * the input is the reply buffer as the driver copies it back (a count,
 * then 256-byte event details). rcl_mfi_decode_events() must append
 * exactly the events it counts, in rising order with their descriptions
 * ended and printable, or refuse with a message; never read past the buffer, crash or
 * leak. Decoding the same reply again after it must refuse any event
 * (its sequence numbers no longer rise).
 *
 * The seeds in corpus/fuzz-megaraid/ are replies of tests/megaraid's shim:
 * QEMU's (the zeroed buffer its dummy EVENT_GET leaves), a real card's
 * batch of three events, and a count past the buffer.
 */
#include <string.h>

#include "fuzz.h"
#include "megaraid/events.h"

#define MAX_INPUT (1 << 16)

static void check_list(const struct rcl_event_list *list, size_t got)
{
	FUZZ_CHECK(list->count == got);
	for (size_t i = 0; i < list->count; i++) {
		const struct rcl_event *ev = &list->events[i];

		FUZZ_CHECK(memchr(ev->description, '\0', sizeof(ev->description)));
		FUZZ_CHECK(strlen(ev->description) < 128);
		for (const char *c = ev->description; *c; c++)
			FUZZ_CHECK(*c >= ' ' && *c <= '~');
		FUZZ_CHECK(ev->class_ >= RCL_EVENT_INFO && ev->class_ <= RCL_EVENT_FATAL);
		FUZZ_CHECK(!i || ev->seq > list->events[i - 1].seq);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rcl_event_list list = {0};
	struct rcl_error err = {0};
	uint64_t last = 0;
	size_t got, again;
	enum rcl_status st;

	if (size > MAX_INPUT)
		return 0;
	st = rcl_mfi_decode_events(data, size, &list, &last, &got, &err);
	if (st) {
		FUZZ_CHECK(err.status == st && err.msg[0]);
	} else {
		check_list(&list, got);
		err = (struct rcl_error){0};
		st = rcl_mfi_decode_events(data, size, &list, &last, &again, &err);
		FUZZ_CHECK(got ? st == RCL_BAD_REPLY && err.msg[0] : !st && !again);
	}
	rcl_event_list_release(&list);
	return 0;
}
