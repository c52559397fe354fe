// SPDX-License-Identifier: MIT
/*
 * test-suggest.c - "did you mean": suggest_closest() picks the nearest
 * valid word by edit distance, or stays quiet when nothing is near.
 */
#include <string.h>

#include "cli.h"
#include "unit.h"

static const char *const verbs[] = {"show", "delete", "add", "version", "help"};
#define NVERBS (sizeof(verbs) / sizeof(verbs[0]))

static const char *closest(const char *word)
{
	return suggest_closest(word, verbs, NVERBS);
}

START_TEST(test_one_typo_suggests_the_word)
{
	ck_assert_str_eq(closest("shw"), "show");     /* deletion */
	ck_assert_str_eq(closest("showw"), "show");   /* insertion */
	ck_assert_str_eq(closest("shaw"), "show");    /* substitution */
	ck_assert_str_eq(closest("delte"), "delete"); /* deletion in a longer word */
	ck_assert_str_eq(closest("versoin"), "version");
}
END_TEST

START_TEST(test_swapped_letters_count_as_one_edit)
{
	ck_assert_str_eq(closest("shwo"), "show");
	ck_assert_str_eq(closest("hsow"), "show");
	ck_assert_str_eq(closest("dleete"), "delete");
	ck_assert_str_eq(closest("ehlp"), "help");
}
END_TEST

START_TEST(test_exact_word_in_any_case_is_itself)
{
	ck_assert_str_eq(closest("show"), "show");
	ck_assert_str_eq(closest("SHOW"), "show");
	ck_assert_str_eq(closest("DeLeTe"), "delete");
}
END_TEST

START_TEST(test_typed_prefix_suggests_the_long_word)
{
	ck_assert_str_eq(closest("sh"), "show");
	ck_assert_str_eq(closest("vers"), "version");
	ck_assert_str_eq(closest("dele"), "delete");
}
END_TEST

START_TEST(test_nothing_near_suggests_nothing)
{
	ck_assert_ptr_null(closest("frobnicate"));
	ck_assert_ptr_null(closest("xyzzy"));
	ck_assert_ptr_null(closest("remove"));
	/* Two edits are near only in a word longer than two letters. */
	ck_assert_ptr_null(closest("zz"));
	ck_assert_ptr_null(closest("x"));
	ck_assert_ptr_null(closest(""));
}
END_TEST

START_TEST(test_two_edits_is_the_limit)
{
	ck_assert_str_eq(closest("shiw2"), "show"); /* two edits */
	ck_assert_ptr_null(closest("shiw23"));      /* three */
	ck_assert_str_eq(closest("verzion"), "version");
	ck_assert_str_eq(closest("vrezion"), "version");
}
END_TEST

START_TEST(test_ties_go_to_the_first_candidate)
{
	static const char *const pair[] = {"sall", "call"};
	static const char *const reversed[] = {"call", "sall"};

	ck_assert_str_eq(suggest_closest("xall", pair, 2), "sall");
	ck_assert_str_eq(suggest_closest("xall", reversed, 2), "call");
}
END_TEST

START_TEST(test_options_with_equals_sign)
{
	static const char *const opts[] = {"type=", "drives=", "size=", "dir=", "sectorsize="};

	ck_assert_str_eq(suggest_closest("typ=", opts, 5), "type=");
	ck_assert_str_eq(suggest_closest("drive=", opts, 5), "drives=");
	ck_assert_str_eq(suggest_closest("sectorsz=", opts, 5), "sectorsize=");
	ck_assert_ptr_null(suggest_closest("path=", opts, 5));
}
END_TEST

START_TEST(test_empty_list_and_long_words_are_safe)
{
	char longword[200];

	memset(longword, 'a', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = '\0';
	ck_assert_ptr_null(suggest_closest("show", NULL, 0));
	ck_assert_ptr_null(closest(longword));
	/* Past 32 characters only a typed prefix can still match. */
	{
		const char *const cands[] = {longword};
		char typed[60];

		memcpy(typed, longword, 40);
		typed[40] = '\0';
		ck_assert_ptr_eq(suggest_closest(typed, cands, 1), longword);
	}
}
END_TEST

static Suite *suggest_suite(void)
{
	Suite *s = suite_create("suggest");
	TCase *tc = tcase_create("suggest_closest");

	tcase_add_test(tc, test_one_typo_suggests_the_word);
	tcase_add_test(tc, test_swapped_letters_count_as_one_edit);
	tcase_add_test(tc, test_exact_word_in_any_case_is_itself);
	tcase_add_test(tc, test_typed_prefix_suggests_the_long_word);
	tcase_add_test(tc, test_nothing_near_suggests_nothing);
	tcase_add_test(tc, test_two_edits_is_the_limit);
	tcase_add_test(tc, test_ties_go_to_the_first_candidate);
	tcase_add_test(tc, test_options_with_equals_sign);
	tcase_add_test(tc, test_empty_list_and_long_words_are_safe);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(suggest_suite());
}
