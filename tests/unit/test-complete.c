// SPDX-License-Identifier: MIT
/*
 * test-complete.c - completion as the shells and the interactive prompt
 * ask for it: cli_complete() offers grammar words and the object paths of
 * the live configuration (one soft controller with two drives here).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "unit.h"

static struct unit_state scratch;

static void setup(void)
{
	struct rcl_ctx *ctx;

	unit_state_enter(&scratch, NULL);
	ctx = unit_ctx_new(NULL);
	unit_soft_create(ctx, 2, 16 << 20);
	rcl_ctx_free(ctx);
}

static void teardown(void)
{
	unit_state_leave(&scratch);
}

/* The candidates for @line, space-separated, for compact assertions. */
static char *complete(const char *line)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	char **words, *all;
	size_t n = cli_complete(line, &words);

	for (size_t i = 0; i < n; i++) {
		rcl_buf_addf(&sb, "%s%s", i ? " " : "", words[i]);
		rcl_free(words[i]);
	}
	rcl_free(words);
	all = strdup(sb.buf);
	rcl_buf_release(&sb);
	return all;
}

static void offers(const char *line, const char *word)
{
	char *all = complete(line);
	char padded[256], needle[128];

	snprintf(padded, sizeof(padded), " %s ", all);
	snprintf(needle, sizeof(needle), " %s ", word);
	ck_assert_msg(strstr(padded, needle), "'%s' does not offer '%s' (offers: %s)", line, word,
	              all);
	free(all);
}

static void offers_not(const char *line, const char *word)
{
	char *all = complete(line);
	char padded[256], needle[128];

	snprintf(padded, sizeof(padded), " %s ", all);
	snprintf(needle, sizeof(needle), " %s ", word);
	ck_assert_msg(!strstr(padded, needle), "'%s' offers '%s' (offers: %s)", line, word, all);
	free(all);
}

static void offers_exactly(const char *line, const char *expect)
{
	char *all = complete(line);

	ck_assert_msg(!strcmp(all, expect), "'%s' offers '%s', want '%s'", line, all, expect);
	free(all);
}

START_TEST(test_empty_line_offers_paths_and_verbs)
{
	offers("", "/c0");
	offers("", "/call");
	offers("", "show");
	offers("", "help");
	offers("", "add");
}
END_TEST

START_TEST(test_paths_come_from_the_live_configuration)
{
	offers_exactly("/c", "/call /c0");
	offers("/c0/e252/s", "/c0/e252/s0");
	offers("/c0/e252/s", "/c0/e252/s1");
	offers("/c0/e252/s", "/c0/e252/sall");
	offers_not("/c0/e252/s", "/c0/e252/s2");
	offers_not("/c", "/c1");
}
END_TEST

START_TEST(test_verbs_after_a_path)
{
	offers("/c0 ", "show");
	offers("/c0 ", "delete");
	offers("/c0 ", "add");
	offers_exactly("/c0 sh", "show");
	offers("/c0 show ", "all");
	/* The second word of a verb whose first word is no command by itself. */
	offers("/c0 start ", "patrolread");
	offers("/c0 add ", "vd");
	offers_not("/c0 add vd ", "vd");
}
END_TEST

START_TEST(test_options_not_yet_given)
{
	offers("add controller ", "type=");
	offers("add controller ", "drives=");
	offers("add controller ", "J");
	offers_exactly("add controller type=", "type=soft type=mock type=redfish");
	offers_not("add controller type=soft ", "type=");
	offers("add controller type=soft ", "drives=");
	/* Only the options of the type= given: a soft controller has no BMC. */
	offers_not("add controller type=soft ", "host=");
	offers_not("add controller type=Soft ", "fixture=");
	offers("add controller type=redfish ", "credfile=");
	offers_not("add controller type=redfish ", "size=");
	offers("add controller host=https://bmc ", "drives=");
}
END_TEST

START_TEST(test_bare_values)
{
	/* Policies are offered as StorCLI types them, and go once one is given. */
	offers("/c0 add vd r5 ", "wb");
	offers("/c0 add vd r5 ", "nora");
	offers_exactly("/c0 add vd r5 aw", "awb");
	offers_not("/c0 add vd r5 wt ", "wb");
	offers("/c0 add vd r5 wt ", "ra");
	/* A bare level (an alias too) gives type=. */
	offers("/c0 add vd ", "type=");
	offers_not("/c0 add vd r5 ", "type=");
	offers_not("/c0 add vd RAID10 ", "type=");
}
END_TEST

START_TEST(test_lines_without_words_never_crash)
{
	/* "#" and "show\r" end in neither space nor tab, yet split into no word. */
	static const char *const lines[] = {"#",      "  # c", "\r", "\v",
	                                    "show\r", "'open", "\"", "\\"};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		free(complete(lines[i]));
	offers_exactly("'open", "");
}
END_TEST

static Suite *complete_suite(void)
{
	Suite *s = suite_create("complete");
	TCase *tc = tcase_create("cli_complete");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_empty_line_offers_paths_and_verbs);
	tcase_add_test(tc, test_paths_come_from_the_live_configuration);
	tcase_add_test(tc, test_verbs_after_a_path);
	tcase_add_test(tc, test_options_not_yet_given);
	tcase_add_test(tc, test_bare_values);
	tcase_add_test(tc, test_lines_without_words_never_crash);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(complete_suite());
}
