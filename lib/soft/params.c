// SPDX-License-Identifier: MIT
/*
 * params.c - a soft controller from "add controller"'s key=value
 * parameters: the backend's create op, which reads and checks them and
 * hands them to rcl_soft_create().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "soft.h"

/* @text as an unsigned of at most @max into *@out, else the value refused. */
static enum rcl_status parse_uint(const char *key, const char *text, unsigned max, unsigned *out,
                                  struct rcl_error *err)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(text, &end, 10);
	if (!*text || *end || *text == '-' || errno || v > max)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "invalid value '%s' for '%s=': expected 0-%u", text, key, max);
	*out = (unsigned)v;
	return RCL_OK;
}

/* The value of @key in @params, or NULL. */
static const char *kv_value(const struct rcl_kv *params, size_t count, const char *key)
{
	for (size_t i = 0; i < count; i++)
		if (!strcmp(params[i].key, key))
			return params[i].value;
	return NULL;
}

enum rcl_status rcl_soft_create_kv(struct rcl_ctx *ctx, const struct rcl_kv *params, size_t count,
                                   unsigned *id, struct rcl_error *err)
{
	static const char *const keys[] = {"drives", "size", "sectorsize", "dir"};
	const char *drives = kv_value(params, count, "drives");
	const char *size = kv_value(params, count, "size");
	const char *sector = kv_value(params, count, "sectorsize");
	struct rcl_soft_params p = {.sector_size = 512, .dir = kv_value(params, count, "dir")};
	enum rcl_status st;

	for (size_t i = 0; i < count; i++) {
		size_t k = 0;

		while (k < sizeof(keys) / sizeof(keys[0]) && strcmp(keys[k], params[i].key))
			k++;
		if (k == sizeof(keys) / sizeof(keys[0]))
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "unknown option '%s=' for a soft controller",
			                params[i].key);
	}
	if (!drives)
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "missing option 'drives=', as in: raidcli add controller type=soft "
		                "drives=4 size=10GB");
	st = parse_uint("drives", drives, RCL_SOFT_MAX_DRIVES, &p.drives, err);
	if (!st && sector)
		st = parse_uint("sectorsize", sector, 4096, &p.sector_size, err);
	if (st)
		return st;
	if (p.drives && !size)
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "missing option 'size=' (each image's size), as in: raidcli add "
		                "controller type=soft drives=%u size=10GB",
		                p.drives);
	if (size && rcl_size_parse(size, &p.drive_bytes, err))
		return RCL_INVALID_PARAM;
	/* rcl_soft_create() checks this too, but only here is the typed value known. */
	if (p.drives && p.drive_bytes < RCL_SOFT_MIN_DRIVE_BYTES)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "invalid value '%s' for 'size=': a drive needs at least %llu MiB",
		                size, RCL_SOFT_MIN_DRIVE_BYTES >> 20);
	return rcl_soft_create(ctx, &p, id, err);
}
