/* SPDX-License-Identifier: MIT */
/*
 * le.h - little-endian field access for on-disk formats (GPT, md).
 *
 * Every on-disk structure is handled as a byte buffer, never as a packed
 * C struct cast over it: the buffer may be unaligned and hostile, and the
 * layout then lives in one place, the offsets in each codec.
 */
#ifndef RCL_SOFT_LE_H
#define RCL_SOFT_LE_H

#include <stdint.h>

static inline uint16_t rcl_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t rcl_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rcl_get_le64(const uint8_t *p)
{
	return (uint64_t)rcl_get_le32(p) | (uint64_t)rcl_get_le32(p + 4) << 32;
}

static inline void rcl_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void rcl_put_le32(uint8_t *p, uint32_t v)
{
	rcl_put_le16(p, (uint16_t)v);
	rcl_put_le16(p + 2, (uint16_t)(v >> 16));
}

static inline void rcl_put_le64(uint8_t *p, uint64_t v)
{
	rcl_put_le32(p, (uint32_t)v);
	rcl_put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif /* RCL_SOFT_LE_H */
