// SPDX-License-Identifier: MIT
/*
 * test-parity.c - lib/soft/engine/parity.c against a plain GF(2^8) reference
 * (md-ref.c: polynomial 0x11d, generator 2, Q = sum of 2^d * D_d): P and Q
 * of stripes of every width, read-modify-write updates, and recovery of
 * every single and double loss of a 6-drive RAID6 and of RAID5 stripes.
 */
#include <stdlib.h>
#include <string.h>

#include "md-ref.h"
#include "soft/engine/parity.h"
#include "unit.h"

#define LEN  4096 /* bytes per strip */
#define MAXK 32

struct stripe {
	unsigned k, parity;
	uint8_t *strips[MAXK + 2];
};

static struct stripe *stripe_new(unsigned k, unsigned parity, unsigned seed)
{
	struct stripe *s = calloc(1, sizeof(*s));

	s->k = k;
	s->parity = parity;
	srandom(seed);
	for (unsigned r = 0; r < k + parity; r++) {
		ck_assert(!posix_memalign((void **)&s->strips[r], 64, LEN));
		for (unsigned i = 0; i < LEN; i++)
			s->strips[r][i] = r < k ? (uint8_t)random() : 0;
	}
	return s;
}

static void stripe_free(struct stripe *s)
{
	for (unsigned r = 0; r < s->k + s->parity; r++)
		free(s->strips[r]);
	free(s);
}

/* Parity @r (0 P, 1 Q) of @s's data, byte by byte. */
static void reference(const struct stripe *s, unsigned r, uint8_t *out)
{
	for (unsigned i = 0; i < LEN; i++) {
		uint8_t v = 0;

		for (unsigned d = 0; d < s->k; d++)
			v ^= r ? mdref_gf_mul(mdref_gf_pow2(d), s->strips[d][i]) : s->strips[d][i];
		out[i] = v;
	}
}

static void check_parity(const struct stripe *s)
{
	uint8_t want[LEN];

	for (unsigned r = 0; r < s->parity; r++) {
		reference(s, r, want);
		ck_assert_msg(!memcmp(want, s->strips[s->k + r], LEN),
		              "%s of %u data strips differs", r ? "Q" : "P", s->k);
	}
}

START_TEST(test_gen)
{
	for (unsigned parity = 1; parity <= 2; parity++)
		for (unsigned k = 1; k <= MAXK - parity; k++) {
			struct stripe *s = stripe_new(k, parity, k * 7 + parity);

			rcl_soft_parity_gen(k, parity, LEN, s->strips);
			check_parity(s);
			stripe_free(s);
		}
}
END_TEST

/* Rewrite data strips @which of a stripe by read-modify-write; parity must match. */
static void update(unsigned k, unsigned parity, const unsigned *which, unsigned count)
{
	struct stripe *s = stripe_new(k, parity, k + count);
	uint8_t *old[MAXK], *new[MAXK], *p_new, *q_new;

	rcl_soft_parity_gen(k, parity, LEN, s->strips);
	ck_assert(!posix_memalign((void **)&p_new, 64, LEN));
	ck_assert(!posix_memalign((void **)&q_new, 64, LEN));
	for (unsigned i = 0; i < count; i++) {
		old[i] = s->strips[which[i]];
		ck_assert(!posix_memalign((void **)&new[i], 64, LEN));
		for (unsigned b = 0; b < LEN; b++)
			new[i][b] = (uint8_t)random();
	}
	rcl_soft_parity_update(count, which, LEN, old, new, s->strips[k], p_new,
	                       parity == 2 ? s->strips[k + 1] : NULL, parity == 2 ? q_new : NULL);
	for (unsigned i = 0; i < count; i++) {
		memcpy(s->strips[which[i]], new[i], LEN);
		free(new[i]);
	}
	memcpy(s->strips[k], p_new, LEN);
	if (parity == 2)
		memcpy(s->strips[k + 1], q_new, LEN);
	check_parity(s);
	free(p_new);
	free(q_new);
	stripe_free(s);
}

START_TEST(test_update)
{
	const unsigned one[] = {3}, two[] = {0, 5}, three[] = {1, 2, 6};

	update(4, 1, one, 1);
	update(4, 2, one, 1);
	update(6, 2, two, 2);
	update(7, 1, three, 3);
	update(7, 2, three, 3);
}
END_TEST

/* Lose the strips in @lost, recover them, and compare with the originals. */
static void lose(struct stripe *s, uint64_t lost)
{
	uint8_t *keep[MAXK + 2];

	for (unsigned r = 0; r < s->k + s->parity; r++) {
		keep[r] = malloc(LEN);
		memcpy(keep[r], s->strips[r], LEN);
		if (lost >> r & 1)
			memset(s->strips[r], 0xa5, LEN);
	}
	ck_assert_int_eq(rcl_soft_parity_recover(s->k, s->parity, LEN, s->strips, lost), 0);
	for (unsigned r = 0; r < s->k + s->parity; r++) {
		ck_assert_msg(!memcmp(keep[r], s->strips[r], LEN),
		              "k=%u parity=%u lost %#llx: strip %u differs", s->k, s->parity,
		              (unsigned long long)lost, r);
		free(keep[r]);
	}
}

/* Every one or two of a 6-drive RAID6's strips (4 data, P, Q). */
START_TEST(test_raid6_every_loss)
{
	struct stripe *s = stripe_new(4, 2, 6);
	unsigned combos = 0;

	rcl_soft_parity_gen(4, 2, LEN, s->strips);
	for (unsigned a = 0; a < 6; a++)
		for (unsigned b = a; b < 6; b++, combos++)
			lose(s, 1ull << a | 1ull << b);
	ck_assert_uint_eq(combos, 6 + 15);
	stripe_free(s);
}
END_TEST

START_TEST(test_recover_widths)
{
	for (unsigned k = 1; k <= 30; k += 7) {
		struct stripe *s5 = stripe_new(k, 1, k), *s6 = stripe_new(k, 2, k + 1);

		rcl_soft_parity_gen(k, 1, LEN, s5->strips);
		rcl_soft_parity_gen(k, 2, LEN, s6->strips);
		for (unsigned a = 0; a <= k; a++)
			lose(s5, 1ull << a);
		lose(s6, 1ull << 0 | 1ull << (k - 1));
		lose(s6, 1ull << (k - 1) | 1ull << (k + 1));
		lose(s6, 1ull << k | 1ull << (k + 1));
		stripe_free(s5);
		stripe_free(s6);
	}
}
END_TEST

START_TEST(test_too_many_lost)
{
	struct stripe *s = stripe_new(4, 1, 1);

	ck_assert_int_lt(rcl_soft_parity_recover(4, 1, LEN, s->strips, 3), 0);
	stripe_free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("parity");
	TCase *tc = tcase_create("parity");

	tcase_add_test(tc, test_gen);
	tcase_add_test(tc, test_update);
	tcase_add_test(tc, test_raid6_every_loss);
	tcase_add_test(tc, test_recover_widths);
	tcase_add_test(tc, test_too_many_lost);
	suite_add_tcase(s, tc);
	return unit_main(s);
}
