// SPDX-License-Identifier: MIT
/*
 * size.c - parse and print capacities the way StorCLI does.
 *
 * StorCLI prints binary multiples with decimal-looking names ("893.750 GB"
 * is 893.75 * 2^30 bytes) and scripts parse that form, so we print it too;
 * on input both spellings mean the binary unit.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "raidcli.h"

static const struct {
	const char *name;
	unsigned shift;
} size_units[] = {
    {"b", 0},    {"k", 10}, {"kb", 10}, {"kib", 10}, {"m", 20}, {"mb", 20},
    {"mib", 20}, {"g", 30}, {"gb", 30}, {"gib", 30}, {"t", 40}, {"tb", 40},
    {"tib", 40}, {"p", 50}, {"pb", 50}, {"pib", 50},
};

enum rcl_status rcl_size_parse(const char *text, uint64_t *bytes, struct rcl_error *err)
{
	const char *unit;
	char *end;
	double value;

	if (!isdigit((unsigned char)text[0]))
		goto bad;
	errno = 0;
	value = strtod(text, &end);
	/* strtod() also takes hex ("0x10") and exponents ("1e3"): not sizes. */
	if (errno || end == text || strspn(text, "0123456789.") != (size_t)(end - text))
		goto bad;
	unit = end;
	if (!*unit) {
		/* StorCLI reads a bare number as megabytes. */
		value *= 1 << 20;
	} else {
		size_t i, n = sizeof(size_units) / sizeof(size_units[0]);

		for (i = 0; i < n; i++)
			if (!strcasecmp(unit, size_units[i].name))
				break;
		if (i == n)
			goto bad;
		value = ldexp(value, (int)size_units[i].shift);
	}
	if (value >= 18446744073709551615.0)
		return rcl_fail(err, RCL_INVALID_PARAM, "size '%s' is too large", text);
	*bytes = (uint64_t)value;
	return RCL_OK;
bad:
	return rcl_fail(err, RCL_INVALID_PARAM,
	                "invalid size '%s': expected a number and a unit, as in 100GB or 1.5TiB",
	                text);
}

void rcl_size_format(struct rcl_buf *sb, uint64_t bytes)
{
	static const char *const names[] = {"KB", "MB", "GB", "TB", "PB"};
	unsigned shift = 10;
	size_t unit = 0;
	uint64_t whole, frac;

	if (!bytes) {
		rcl_buf_adds(sb, "0 KB");
		return;
	}
	while ((bytes >> shift) >= 1024 && unit + 1 < sizeof(names) / sizeof(names[0])) {
		shift += 10;
		unit++;
	}
	/*
	 * Truncate rather than round, as StorCLI does: never overstate. Integer
	 * arithmetic, since a double cannot hold every 64-bit size and would
	 * round 2^60 - 1 bytes up to "1024.000 PB". The remainder is below
	 * 2^50, so multiplying it by 1000 cannot overflow.
	 */
	whole = bytes >> shift;
	frac = ((bytes & ((UINT64_C(1) << shift) - 1)) * 1000) >> shift;
	rcl_buf_addf(sb, "%" PRIu64 ".%03" PRIu64 " %s", whole, frac, names[unit]);
}
