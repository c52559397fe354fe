// SPDX-License-Identifier: MIT
/*
 * crc32.c - CRC-32 (IEEE 802.3) for GPT.
 *
 * Bit at a time, without a table: a GPT write hashes about 16 KiB, which
 * takes microseconds this way, and there is no table to build, share
 * between threads or spell out as 256 magic numbers.
 */
#include "crc32.h"

#define CRC32_POLY_REFLECTED 0xEDB88320u

uint32_t rcl_crc32(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (CRC32_POLY_REFLECTED & -(crc & 1));
	}
	return ~crc;
}
