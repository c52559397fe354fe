/* SPDX-License-Identifier: MIT */
/*
 * parity.h - RAID5/6 parity with md's arithmetic, computed by ISA-L.
 *
 * P is the XOR of the data strips; Q = sum of g^d * D_d over GF(2^8) with
 * polynomial 0x11d and generator g = 2, d being the data strip's index
 * (stripe.h's data role, md's dd_idx). A stripe's strips are passed as one
 * array in role order: data 0 .. k-1, then P, then Q.
 *
 * Every buffer must be 32-byte aligned and every length a multiple of 32
 * (ISA-L's AVX2 kernels need both; volumes only pass whole sectors).
 */
#ifndef RCL_SOFT_PARITY_H
#define RCL_SOFT_PARITY_H

#include <stddef.h>
#include <stdint.h>

/* The alignment parity buffers need. */
#define RCL_SOFT_PARITY_ALIGN 64

/**
 * rcl_soft_parity_gen() - P (and Q when @parity is 2) of the @k data
 * strips in @strips[0 .. k-1], into @strips[k] (and @strips[k+1]).
 */
void rcl_soft_parity_gen(unsigned k, unsigned parity, size_t len, uint8_t *const *strips);

/**
 * rcl_soft_parity_update() - read-modify-write: the parity after data
 * strips @index[0 .. count-1] changed from @old[i] to @new[i]. @p_old and
 * @p_new (or both NULL to skip P), @q_old and @q_new likewise; the new
 * parity must not share a buffer with any input.
 */
void rcl_soft_parity_update(unsigned count, const unsigned *index, size_t len, uint8_t *const *old,
                            uint8_t *const *new, const uint8_t *p_old, uint8_t *p_new,
                            const uint8_t *q_old, uint8_t *q_new);

/**
 * rcl_soft_parity_recover() - fill the strips whose role bit is set in
 * @lost (bit r for role r) from the others, @k data strips and @parity
 * parity strips in @strips.
 * Return: 0, or -EIO when more than @parity strips are lost.
 */
int rcl_soft_parity_recover(unsigned k, unsigned parity, size_t len, uint8_t *const *strips,
                            uint64_t lost);

#endif /* RCL_SOFT_PARITY_H */
