// SPDX-License-Identifier: MIT
/*
 * guid.c - GUIDs as GPT stores them: text form, random ones, well-known types.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "guid.h"

/* A19D880F-05FC-4D3B-A006-743F0F84911E in on-disk byte order. */
const struct rcl_guid rcl_gpt_type_linux_raid = {{0x0f, 0x88, 0x9d, 0xa1, 0xfc, 0x05, 0x3b, 0x4d,
                                                  0xa0, 0x06, 0x74, 0x3f, 0x0f, 0x84, 0x91, 0x1e}};

bool rcl_guid_is_zero(const struct rcl_guid *guid)
{
	for (size_t i = 0; i < sizeof(guid->b); i++)
		if (guid->b[i])
			return false;
	return true;
}

/* Text position i shows on-disk byte text_order[i]: mixed-endian fields. */
static const uint8_t text_order[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};

static bool is_dash_position(size_t i)
{
	return i == 8 || i == 13 || i == 18 || i == 23;
}

void rcl_guid_to_string(const struct rcl_guid *guid, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t pos = 0;

	for (size_t i = 0; i < 16; i++) {
		uint8_t byte = guid->b[text_order[i]];

		if (is_dash_position(pos))
			out[pos++] = '-';
		out[pos++] = hex[byte >> 4];
		out[pos++] = hex[byte & 0xf];
	}
	out[pos] = '\0';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

enum rcl_status rcl_guid_parse(const char *text, struct rcl_guid *guid, struct rcl_error *err)
{
	struct rcl_guid out;
	size_t pos = 0;

	if (strlen(text) != RCL_GUID_STRLEN)
		goto bad;
	for (size_t i = 0; i < 16; i++) {
		int hi, lo;

		if (is_dash_position(pos) && text[pos++] != '-')
			goto bad;
		hi = hex_value(text[pos++]);
		lo = hex_value(text[pos++]);
		if (hi < 0 || lo < 0)
			goto bad;
		out.b[text_order[i]] = (uint8_t)(hi << 4 | lo);
	}
	*guid = out;
	return RCL_OK;
bad:
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "invalid GUID '%s', expected the form A19D880F-05FC-4D3B-A006-743F0F84911E",
	                text);
}

enum rcl_status rcl_guid_random(struct rcl_guid *guid, struct rcl_error *err)
{
	if (getrandom(guid->b, sizeof(guid->b), 0) != (ssize_t)sizeof(guid->b))
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot get random bytes: %s",
		                      strerror(errno));
	/* RFC 4122 version 4: the version is the top nibble of the third
	 * field, which is little-endian, so it lives in byte 7. */
	guid->b[7] = (uint8_t)((guid->b[7] & 0x0f) | 0x40);
	guid->b[8] = (uint8_t)((guid->b[8] & 0x3f) | 0x80);
	return RCL_OK;
}

bool rcl_json_get_guid(json_object *obj, const char *key, struct rcl_guid *out)
{
	struct rcl_error ignored = {0};
	const char *s;

	return rcl_json_get_str(obj, key, &s) && !rcl_guid_parse(s, out, &ignored);
}

void rcl_json_add_guid(json_object *obj, const char *key, const uint8_t *b)
{
	struct rcl_guid g;
	char text[RCL_GUID_STRLEN + 1];

	memcpy(g.b, b, 16);
	rcl_guid_to_string(&g, text);
	json_object_object_add(obj, key, json_object_new_string(text));
}
