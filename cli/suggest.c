// SPDX-License-Identifier: MIT
/*
 * suggest.c - "did you mean": the nearest valid word by edit distance.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* Optimal string alignment distance, case-insensitive, capped at 32 chars. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[33][33];

	if (la > 32 || lb > 32)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost =
			    tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 &&
			    tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *suggest_within(const char *word, const char *const *candidates, size_t count,
                           size_t max)
{
	size_t len = strlen(word), best_distance = (size_t)-1;
	const char *best = NULL;

	for (size_t i = 0; i < count; i++) {
		size_t distance = edit_distance(word, candidates[i]);

		/* A typed prefix of a long word ("sh" for "show") is a near miss too. */
		if (len >= 2 && !strncasecmp(candidates[i], word, len) && distance > 1)
			distance = 1;
		if (distance < best_distance) {
			best_distance = distance;
			best = candidates[i];
		}
	}
	/* Near means: at most @max edits, and fewer than the word's length. */
	if (best && best_distance <= max && best_distance < len)
		return best;
	return NULL;
}

const char *suggest_closest(const char *word, const char *const *candidates, size_t count)
{
	return suggest_within(word, candidates, count, 2);
}
