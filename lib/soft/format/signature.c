// SPDX-License-Identifier: MIT
/*
 * signature.c - recognize what blkid would call a used volume (see
 * signature.h). Offsets are those of each format's superblock.
 */
#include <stdbool.h>
#include <string.h>

#include "signature.h"

struct magic {
	size_t offset;
	const char *bytes;
	size_t len;
	const char *what;
};

static const struct magic magics[] = {
    {1080, "\x53\xef", 2, "an ext2/3/4 file system"},
    {0, "XFSB", 4, "an XFS file system"},
    {65600, "_BHRfS_M", 8, "a btrfs file system"},
    {512, "EFI PART", 8, "a GPT"},
    {4096, "EFI PART", 8, "a GPT"}, /* on 4 KiB sectors */
    {0, "LUKS\xba\xbe", 6, "a LUKS volume"},
    {4086, "SWAPSPACE2", 10, "swap space"},
};

bool rcl_soft_has_mbr(const uint8_t *buf, size_t len)
{
	static const uint8_t empty[16];

	if (len < 512 || buf[510] != 0x55 || buf[511] != 0xaa)
		return false;
	for (size_t entry = 446; entry < 510; entry += 16)
		if (memcmp(buf + entry, empty, sizeof(empty)))
			return true;
	return false;
}

const char *rcl_soft_signature(const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		const struct magic *m = &magics[i];

		if (m->offset + m->len <= len && !memcmp(buf + m->offset, m->bytes, m->len))
			return m->what;
	}
	return rcl_soft_has_mbr(buf, len) ? "an MBR partition table" : NULL;
}
