/* SPDX-License-Identifier: MIT */
/*
 * signature.h - does a block of data start with a file system, a
 * partition table or another volume format that someone may still need?
 */
#ifndef RCL_SOFT_SIGNATURE_H
#define RCL_SOFT_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes from the start that rcl_soft_signature() looks at. */
#define RCL_SOFT_SIGNATURE_BYTES (68u << 10)

/**
 * rcl_soft_signature() - what @buf (the first @len bytes of a volume)
 * holds: "an ext2/3/4 file system", "an XFS file system", "a btrfs file
 * system", "a GPT", "an MBR partition table", "a LUKS volume", "swap
 * space", or NULL for none of these. Bytes past @len count as absent.
 */
const char *rcl_soft_signature(const uint8_t *buf, size_t len);

/**
 * rcl_soft_has_mbr() - whether @buf (a drive's first @len bytes) holds an
 * MBR partition table: the boot signature and a partition entry in use.
 */
bool rcl_soft_has_mbr(const uint8_t *buf, size_t len);

#endif /* RCL_SOFT_SIGNATURE_H */
