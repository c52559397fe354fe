/* SPDX-License-Identifier: MIT */
/*
 * guid.h - GUIDs in GPT's on-disk form.
 */
#ifndef RCL_SOFT_GUID_H
#define RCL_SOFT_GUID_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* "A19D880F-05FC-4D3B-A006-743F0F84911E" */
#define RCL_GUID_STRLEN 36

/**
 * struct rcl_guid - a GUID as stored on disk: the first three fields
 * little-endian, the last eight bytes in order (so the text form's first
 * four bytes appear reversed in @b).
 */
struct rcl_guid {
	uint8_t b[16];
};

/* The partition type of Linux md members, A19D880F-05FC-4D3B-A006-743F0F84911E. */
extern const struct rcl_guid rcl_gpt_type_linux_raid;

/* rcl_guid_equal() - whether @a and @b are the same GUID. */
static inline bool rcl_guid_equal(const struct rcl_guid *a, const struct rcl_guid *b)
{
	return !memcmp(a->b, b->b, sizeof(a->b));
}

/* rcl_guid_is_zero() - true for the all-zero GUID (an unused entry's type). */
bool rcl_guid_is_zero(const struct rcl_guid *guid);

/**
 * rcl_guid_to_string() - the text form, upper case as sgdisk prints it, into
 * @out (RCL_GUID_STRLEN + 1 bytes).
 */
void rcl_guid_to_string(const struct rcl_guid *guid, char *out);

/**
 * rcl_guid_parse() - read the text form (either case) into *@guid.
 * Return: RCL_OK, or RCL_INVALID_PARAM quoting @text.
 */
enum rcl_status rcl_guid_parse(const char *text, struct rcl_guid *guid, struct rcl_error *err);

/* rcl_json_get_guid() - the GUID in text form at @key; false if missing or not a GUID. */
bool rcl_json_get_guid(json_object *obj, const char *key, struct rcl_guid *out);

/* rcl_json_add_guid() - @key: the text form of the GUID in @b (16 bytes, on-disk form). */
void rcl_json_add_guid(json_object *obj, const char *key, const uint8_t *b);

/**
 * rcl_guid_random() - a random (version 4, RFC 4122 variant) GUID.
 * Return: RCL_OK, RCL_SYSTEM when the kernel gives no randomness.
 */
enum rcl_status rcl_guid_random(struct rcl_guid *guid, struct rcl_error *err);

#endif /* RCL_SOFT_GUID_H */
