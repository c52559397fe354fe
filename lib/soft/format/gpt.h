/* SPDX-License-Identifier: MIT */
/*
 * gpt.h - the GUID Partition Table (UEFI 2.x, chapter 5) on a drive.
 *
 * A soft controller's drive carries a GPT with one partition (type Linux
 * RAID) per virtual drive it belongs to. This module reads and writes that
 * table and nothing else: which partitions exist is the caller's business.
 *
 * On disk: LBA 0 holds a protective MBR, LBA 1 the primary header, LBA 2 on
 * the primary entry array (128 entries of 128 bytes); the backup entry array
 * and the backup header sit at the end of the drive, the header in the last
 * LBA. An LBA is the drive's logical sector, 512 or 4096 bytes.
 */
#ifndef RCL_SOFT_GPT_H
#define RCL_SOFT_GPT_H

#include <stdbool.h>
#include <stdint.h>

#include "guid.h"

/* Entry slots in the tables this module writes, the UEFI minimum. */
#define RCL_GPT_MAX_PARTS 128
/* A partition name: 36 UTF-16LE code units on disk, ASCII here. */
#define RCL_GPT_NAME_MAX 36
/**
 * struct rcl_gpt_part - one entry. A slot whose @type is all zero is unused.
 * @first_lba, @last_lba: the partition's extent, both inclusive.
 * @attributes:	UEFI bits 0-2 and type-specific bits 48-63, kept as found.
 * @name:	printable ASCII, NUL-terminated; non-ASCII read from disk
 *		comes back as '?'.
 */
struct rcl_gpt_part {
	struct rcl_guid type;
	struct rcl_guid guid;
	uint64_t first_lba;
	uint64_t last_lba;
	uint64_t attributes;
	char name[RCL_GPT_NAME_MAX + 1];
};

/* Which copy of the table, for struct rcl_gpt's @source and @valid. */
enum rcl_gpt_copy {
	RCL_GPT_PRIMARY = 1 << 0,
	RCL_GPT_BACKUP = 1 << 1,
};

/**
 * struct rcl_gpt - a drive's partition table.
 * @disk_guid:	the drive's GUID.
 * @sector_size: logical sector size, 512 or 4096.
 * @bytes:	the drive's size; the last whole sector holds the backup header.
 * @first_usable, @last_usable: the LBAs partitions may use. rcl_gpt_init()
 *		and rcl_gpt_read() fill them; rcl_gpt_write() recomputes them
 *		from @bytes and @sector_size, always writing 128 entries.
 * @source:	after rcl_gpt_read(): the copy the table came from (the
 *		primary whenever it is valid).
 * @valid:	after rcl_gpt_read(): the copies that passed every check and
 *		agree with @source; a caller seeing less than both should
 *		rewrite the table.
 * @parts:	entries by slot: slot i is Linux partition number i + 1.
 */
struct rcl_gpt {
	struct rcl_guid disk_guid;
	unsigned sector_size;
	uint64_t bytes;
	uint64_t first_usable;
	uint64_t last_usable;
	enum rcl_gpt_copy source;
	unsigned valid;
	struct rcl_gpt_part parts[RCL_GPT_MAX_PARTS];
};

/**
 * rcl_gpt_init() - an empty table for a drive of @bytes with @sector_size
 * byte sectors, with a random disk GUID and the usable range filled in.
 * Return: RCL_OK, RCL_INVALID_PARAM (sector size not 512 or 4096, drive
 * too small for a GPT), RCL_SYSTEM (no randomness).
 */
enum rcl_status rcl_gpt_init(struct rcl_gpt *gpt, uint64_t bytes, unsigned sector_size,
                             struct rcl_error *err);

/**
 * rcl_gpt_write() - write @gpt to the drive open (read-write) on @fd.
 *
 * Order, for crash safety: backup entries and header, fdatasync; primary
 * entries and header, fdatasync; protective MBR, fdatasync. A crash
 * leaves at least one valid copy, old or new, and the MBR goes last so an
 * MBR-partitioned drive stays MBR until both GPT copies are in place.
 * Return: RCL_OK, RCL_INVALID_PARAM (bad sector size, a partition outside
 * the usable range or overlapping another, a non-ASCII name), RCL_SYSTEM
 * (I/O; the message names the step), RCL_NOMEM.
 */
enum rcl_status rcl_gpt_write(int fd, const struct rcl_gpt *gpt, struct rcl_error *err);

/**
 * rcl_gpt_read() - read and check the GPT of the drive on @fd, whose size
 * is @bytes and logical sector @sector_size.
 *
 * The primary copy is used when valid, else the backup in the last LBA;
 * @gpt->source and @gpt->valid say which. Every size and offset read from
 * disk is checked before use. Entry slots past 128 must be unused.
 * Return: RCL_OK; RCL_NOT_FOUND when the drive has no GPT (neither header
 * signature present, an MBR partition table, or too small to hold one);
 * RCL_CORRUPT when a GPT is there but no copy is valid (the message says
 * what is wrong with each); RCL_UNSUPPORTED for more than 128 partitions;
 * RCL_INVALID_PARAM, RCL_SYSTEM, RCL_NOMEM. On failure *@gpt is garbage.
 */
enum rcl_status rcl_gpt_read(int fd, uint64_t bytes, unsigned sector_size, struct rcl_gpt *gpt,
                             struct rcl_error *err);

/**
 * rcl_gpt_first_aligned_lba() - the first usable LBA on a 1 MiB boundary,
 * where partitioning tools start the first partition (2048 on 512-byte
 * sectors, 256 on 4 KiB ones).
 */
uint64_t rcl_gpt_first_aligned_lba(const struct rcl_gpt *gpt);

#endif /* RCL_SOFT_GPT_H */
