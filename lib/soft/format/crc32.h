/* SPDX-License-Identifier: MIT */
/*
 * crc32.h - the CRC-32 of IEEE 802.3 (reflected 0x04C11DB7, initial and
 * final value 0xFFFFFFFF), as UEFI uses for GPT headers and entry arrays.
 */
#ifndef RCL_SOFT_CRC32_H
#define RCL_SOFT_CRC32_H

#include <stddef.h>
#include <stdint.h>

/**
 * rcl_crc32() - extend @crc (0 to start) over @len bytes at @data.
 * Return: the CRC of everything fed so far; crc32("123456789") = 0xCBF43926.
 */
uint32_t rcl_crc32(uint32_t crc, const void *data, size_t len);

#endif /* RCL_SOFT_CRC32_H */
