// SPDX-License-Identifier: MIT
/*
 * parity.c - RAID5/6 parity and reconstruction through ISA-L (see
 * parity.h). xor_gen and pq_gen compute whole-stripe parity; every other
 * case is a GF(2^8) linear combination of strips, which ec_encode_data
 * computes from a small coefficient matrix.
 */
#include <errno.h>
#include <isa-l/erasure_code.h>
#include <isa-l/raid.h>
#include <string.h>

#include "parity.h"
#include "stripe.h"

/* Strips one stripe has at most: data and two parities. */
#define MAX_STRIPS (RCL_SOFT_ARRAY_MAX + 2)
/* Sources of one combination at most: old and new data, then P and Q (update). */
#define MAX_SOURCES (2 * RCL_SOFT_ARRAY_MAX + 2)
#define MAX_ROWS    2

/* g^d: Q's coefficient of data strip d. */
static uint8_t q_coeff(unsigned d)
{
	uint8_t c = 1;

	while (d--)
		c = gf_mul(c, 2);
	return c;
}

/*
 * out[r] = sum over i of coeff[r * count + i] * src[i], for @rows outputs.
 * A single all-ones row is a plain XOR.
 */
static void combine(unsigned count, unsigned rows, const uint8_t *coeff, size_t len,
                    uint8_t *const *src, uint8_t *const *out)
{
	unsigned char tables[32 * MAX_SOURCES * MAX_ROWS];
	unsigned char *srcs[MAX_SOURCES + 1];
	bool plain_xor = rows == 1;

	for (unsigned i = 0; i < count; i++) {
		srcs[i] = src[i];
		plain_xor = plain_xor && coeff[i] == 1;
	}
	if (plain_xor && count == 1) {
		memcpy(out[0], src[0], len);
		return;
	}
	if (plain_xor) {
		srcs[count] = out[0];
		xor_gen((int)count + 1, (int)len, (void **)srcs);
		return;
	}
	ec_init_tables((int)count, (int)rows, (unsigned char *)coeff, tables);
	ec_encode_data((int)len, (int)count, (int)rows, tables, srcs, (unsigned char **)out);
}

void rcl_soft_parity_gen(unsigned k, unsigned parity, size_t len, uint8_t *const *strips)
{
	void *v[MAX_STRIPS];
	uint8_t coeff[MAX_ROWS * RCL_SOFT_ARRAY_MAX];

	for (unsigned i = 0; i < k + parity; i++)
		v[i] = strips[i];
	/* ISA-L's kernels want two sources at least; one data strip is its own P (and Q). */
	if (k >= 2 && parity == 1) {
		xor_gen((int)k + 1, (int)len, v);
		return;
	}
	if (k >= 2 && parity == 2) {
		pq_gen((int)k + 2, (int)len, v);
		return;
	}
	for (unsigned r = 0; r < parity; r++)
		for (unsigned d = 0; d < k; d++)
			coeff[r * k + d] = r ? q_coeff(d) : 1;
	combine(k, parity, coeff, len, strips, strips + k);
}

void rcl_soft_parity_update(unsigned count, const unsigned *index, size_t len, uint8_t *const *old,
                            uint8_t *const *new, const uint8_t *p_old, uint8_t *p_new,
                            const uint8_t *q_old, uint8_t *q_new)
{
	uint8_t *src[MAX_SOURCES];
	uint8_t coeff[MAX_SOURCES];
	unsigned n = 0;

	/* P' = P + sum(old + new); Q' = Q + sum(g^d (old + new)): + is XOR. */
	for (unsigned i = 0; i < count; i++) {
		src[n++] = old[i];
		src[n++] = new[i];
	}
	if (p_new) {
		for (unsigned i = 0; i < n; i++)
			coeff[i] = 1;
		src[n] = (uint8_t *)p_old;
		coeff[n] = 1;
		combine(n + 1, 1, coeff, len, src, &p_new);
	}
	if (q_new) {
		for (unsigned i = 0; i < n; i++)
			coeff[i] = q_coeff(index[i / 2]);
		src[n] = (uint8_t *)q_old;
		coeff[n] = 1;
		combine(n + 1, 1, coeff, len, src, &q_new);
	}
}

/* Row @role of the stripe's encoding matrix: data rows are the identity. */
static void encoding_row(unsigned k, unsigned role, uint8_t *row)
{
	for (unsigned d = 0; d < k; d++)
		row[d] = role < k ? role == d : role == k ? 1 : q_coeff(d);
}

/*
 * The lost data strips (@lost: every lost role) from k survivors: invert
 * the survivors' rows of the encoding matrix, whose rows for the lost
 * strips then give them.
 */
static void recover_data(unsigned k, unsigned parity, size_t len, uint8_t *const *strips,
                         uint64_t lost)
{
	uint8_t m[RCL_SOFT_ARRAY_MAX * RCL_SOFT_ARRAY_MAX], inv[sizeof(m)];
	uint8_t coeff[MAX_ROWS * RCL_SOFT_ARRAY_MAX];
	uint8_t *src[RCL_SOFT_ARRAY_MAX], *out[MAX_ROWS];
	unsigned rows = 0, n = 0;

	for (unsigned r = 0; r < k + parity && n < k; r++)
		if (!(lost >> r & 1)) {
			encoding_row(k, r, &m[n * k]);
			src[n++] = strips[r];
		}
	gf_invert_matrix(m, inv, (int)k);
	for (unsigned d = 0; d < k; d++)
		if (lost >> d & 1) {
			memcpy(&coeff[rows * k], &inv[d * k], k);
			out[rows++] = strips[d];
		}
	combine(k, rows, coeff, len, src, out);
}

int rcl_soft_parity_recover(unsigned k, unsigned parity, size_t len, uint8_t *const *strips,
                            uint64_t lost)
{
	uint64_t data = (1ull << k) - 1;
	uint8_t coeff[RCL_SOFT_ARRAY_MAX];

	if ((unsigned)__builtin_popcountll(lost) > parity)
		return -EIO;
	if (lost & data)
		recover_data(k, parity, len, strips, lost);
	/* With every data strip known, a lost parity is computed afresh. */
	for (unsigned r = k; r < k + parity; r++)
		if (lost >> r & 1) {
			encoding_row(k, r, coeff);
			combine(k, 1, coeff, len, strips, &strips[r]);
		}
	return 0;
}
