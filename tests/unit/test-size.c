// SPDX-License-Identifier: MIT
/*
 * test-size.c - capacities as StorCLI reads and prints them: binary units
 * whatever their spelling, a bare number in MB, "893.750 GB" truncated.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"

static uint64_t parse_ok(const char *text)
{
	struct rcl_error err = {0};
	uint64_t bytes = 12345;

	ck_assert_msg(rcl_size_parse(text, &bytes, &err) == RCL_OK, "'%s' refused: %s", text,
	              err.msg);
	ck_assert_int_eq(err.status, RCL_OK); /* untouched on success */
	return bytes;
}

static void parse_refused(const char *text, const char *msg_part)
{
	struct rcl_error err = {0};
	uint64_t bytes = 12345;

	ck_assert_msg(rcl_size_parse(text, &bytes, &err) == RCL_INVALID_PARAM, "'%s' accepted",
	              text);
	ck_assert_int_eq(err.status, RCL_INVALID_PARAM);
	ck_assert_uint_eq(bytes, 12345); /* the output is left alone */
	ck_assert_msg(strstr(err.msg, text), "message does not quote '%s': %s", text, err.msg);
	ck_assert_msg(strstr(err.msg, msg_part), "message lacks '%s': %s", msg_part, err.msg);
}

static void format_is(uint64_t bytes, const char *expect)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_size_format(&sb, bytes);
	ck_assert_msg(!strcmp(sb.buf, expect), "%llu bytes: got '%s', want '%s'",
	              (unsigned long long)bytes, sb.buf, expect);
	rcl_buf_release(&sb);
}

START_TEST(test_every_unit_spelling_is_binary)
{
	static const struct {
		const char *unit;
		unsigned shift;
	} units[] = {
	    {"b", 0},    {"k", 10}, {"kb", 10}, {"kib", 10}, {"m", 20}, {"mb", 20},
	    {"mib", 20}, {"g", 30}, {"gb", 30}, {"gib", 30}, {"t", 40}, {"tb", 40},
	    {"tib", 40}, {"p", 50}, {"pb", 50}, {"pib", 50},
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		char text[16];

		snprintf(text, sizeof(text), "3%s", units[i].unit);
		ck_assert_uint_eq(parse_ok(text), 3ull << units[i].shift);
	}
}
END_TEST

START_TEST(test_units_ignore_case)
{
	ck_assert_uint_eq(parse_ok("10GB"), 10ull << 30);
	ck_assert_uint_eq(parse_ok("10gb"), 10ull << 30);
	ck_assert_uint_eq(parse_ok("10Gb"), 10ull << 30);
	ck_assert_uint_eq(parse_ok("10GiB"), 10ull << 30);
	ck_assert_uint_eq(parse_ok("10GIB"), 10ull << 30);
	ck_assert_uint_eq(parse_ok("4096B"), 4096);
	ck_assert_uint_eq(parse_ok("512M"), 512ull << 20);
}
END_TEST

START_TEST(test_decimals_like_one_and_a_half_tib)
{
	ck_assert_uint_eq(parse_ok("1.5TiB"), 3ull << 39);
	ck_assert_uint_eq(parse_ok("0.5GB"), 512ull << 20);
	ck_assert_uint_eq(parse_ok("893.75GB"), 89375ull * (1ull << 30) / 100);
	/* Parts of a byte are dropped, never rounded up. */
	ck_assert_uint_eq(parse_ok("1.9B"), 1);
	ck_assert_uint_eq(parse_ok("0.1k"), 102);
}
END_TEST

START_TEST(test_bare_number_is_megabytes)
{
	ck_assert_uint_eq(parse_ok("100"), 100ull << 20);
	ck_assert_uint_eq(parse_ok("0"), 0);
	ck_assert_uint_eq(parse_ok("1.5"), 3ull << 19);
}
END_TEST

START_TEST(test_junk_is_refused_naming_the_text)
{
	static const char *const junk[] = {
	    "GB",   "-1GB", "+1GB", " 10GB",  "10 GB", "10GB ", "10XB",   "10GBB", "1.5.5GB",
	    ".5GB", "nan",  "inf",  "0x10GB", "1e3GB", "1E3",   "10KiBs", "ten",   "1,5GB",
	};

	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		parse_refused(junk[i], "expected a number and a unit");
	parse_refused("", "expected a number and a unit");
}
END_TEST

START_TEST(test_sizes_past_64_bits_are_refused)
{
	ck_assert_uint_eq(parse_ok("16383PB"), 16383ull << 50);
	parse_refused("16384PB", "too large");
	parse_refused("99999999999999999999", "too large");
	parse_refused("18446744073709551616B", "too large");
	parse_refused("1e400", "expected a number"); /* no exponents, however large */
}
END_TEST

START_TEST(test_storcli_form_with_three_decimals)
{
	format_is(893ull * (1ull << 30) + (3ull << 28), "893.750 GB");
	format_is(16ull << 20, "16.000 MB");
	format_is(3ull << 39, "1.500 TB");
	format_is(512, "0.500 KB");
}
END_TEST

START_TEST(test_format_truncates_never_rounds_up)
{
	format_is((1ull << 30) - 1, "1023.999 MB");
	format_is((1ull << 40) - 1, "1023.999 GB");
	format_is((1ull << 20) + 1023, "1.000 MB");
	format_is(2047, "1.999 KB");
	format_is(1, "0.000 KB");
	/* Beyond a double's 53 bits the value must not round up either. */
	format_is((1ull << 60) - 1, "1023.999 PB");
	format_is(UINT64_MAX, "16383.999 PB");
}
END_TEST

START_TEST(test_zero_is_0_kb)
{
	format_is(0, "0 KB");
}
END_TEST

START_TEST(test_unit_boundaries_switch_at_1024)
{
	format_is(1023, "0.999 KB");
	format_is(1024, "1.000 KB");
	format_is((1ull << 20) - 1, "1023.999 KB");
	format_is(1ull << 20, "1.000 MB");
	format_is(1ull << 30, "1.000 GB");
	format_is(1ull << 40, "1.000 TB");
	format_is(1ull << 50, "1.000 PB");
	/* PB is the largest unit: no EB. */
	format_is(1ull << 60, "1024.000 PB");
}
END_TEST

START_TEST(test_format_appends_to_what_is_there)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_adds(&sb, "Size = ");
	rcl_size_format(&sb, 1ull << 30);
	ck_assert_str_eq(sb.buf, "Size = 1.000 GB");
	rcl_buf_release(&sb);
}
END_TEST

START_TEST(test_parse_then_format_round_trips)
{
	static const char *const sizes[] = {"893.750 GB", "1.500 TB", "16.000 MB", "3.250 PB"};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char text[32], *space;
		struct rcl_buf sb = RCL_BUF_INIT;

		/* "893.750 GB" is what StorCLI prints; "893.750GB" is how it is typed. */
		snprintf(text, sizeof(text), "%s", sizes[i]);
		space = strchr(text, ' ');
		memmove(space, space + 1, strlen(space));
		rcl_size_format(&sb, parse_ok(text));
		ck_assert_str_eq(sb.buf, sizes[i]);
		rcl_buf_release(&sb);
	}
}
END_TEST

static Suite *size_suite(void)
{
	Suite *s = suite_create("size");
	TCase *tc;

	tc = tcase_create("rcl_size_parse");
	tcase_add_test(tc, test_every_unit_spelling_is_binary);
	tcase_add_test(tc, test_units_ignore_case);
	tcase_add_test(tc, test_decimals_like_one_and_a_half_tib);
	tcase_add_test(tc, test_bare_number_is_megabytes);
	tcase_add_test(tc, test_junk_is_refused_naming_the_text);
	tcase_add_test(tc, test_sizes_past_64_bits_are_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("rcl_size_format");
	tcase_add_test(tc, test_storcli_form_with_three_decimals);
	tcase_add_test(tc, test_format_truncates_never_rounds_up);
	tcase_add_test(tc, test_zero_is_0_kb);
	tcase_add_test(tc, test_unit_boundaries_switch_at_1024);
	tcase_add_test(tc, test_format_appends_to_what_is_there);
	tcase_add_test(tc, test_parse_then_format_round_trips);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(size_suite());
}
