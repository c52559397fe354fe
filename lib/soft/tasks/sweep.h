/* SPDX-License-Identifier: MIT */
/*
 * sweep.h - the background operations on an open volume (volume.h), each
 * over a range of its members: rebuild (rebuild.c), consistency check,
 * repair and background init (check.c), full init and erase (init.c) and patrol
 * read (patrol.c). task.h runs them over a whole VD in a thread.
 *
 * Positions: a range is given in bytes of each member's data area, from
 * 0 to rcl_soft_sweep_extent(); every array of a VD uses the same extent
 * on each of its members, so a position is the same row on every member,
 * as md's resync position is for raid1/4/5/6. Positions are multiples of
 * rcl_soft_sweep_unit(), except that a range may end at the extent.
 *
 * Each call is safe while the volume serves requests: it holds the
 * volume's read lock and takes the stripe locks the write paths take
 * (stripe-lock.h) around every read-compute-write it does, a few stripes
 * at a time, so a request waits at most for one of those batches.
 *
 * Mismatches are counted as md's mismatch_cnt is for raid5: in 512-byte
 * sectors, a whole 4 KiB block (a sector, when sectors are larger) for
 * each block of a stripe whose parity, or of a chunk whose copies, differ.
 *
 * Return (all): 0, or a negative errno: -EINVAL for a range out of bounds
 * or misaligned (or, for rebuild, a member not being rebuilt or a range
 * that starts above what it holds), -EOPNOTSUPP for an operation the RAID
 * level has not (no redundancy: no rebuild or check), -ENXIO when check
 * or background init meets a member that cannot be used (the VD is
 * degraded: rebuild it first), -EIO when the data cannot be recovered or
 * the rebuilt member fails, -EROFS (full init of a read-only VD), -ENOMEM.
 */
#ifndef RCL_SOFT_SWEEP_H
#define RCL_SOFT_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "soft/config/config.h"

struct rcl_soft_volume;

/**
 * struct rcl_soft_sweep_counts - what a sweep found, added to by each call.
 * @mismatches:	check: sectors found inconsistent (repaired when asked).
 * @media_errors: patrol read: member reads that failed (each failed its
 *		member, as a request's failing read does); a scan's reads.
 */
struct rcl_soft_sweep_counts {
	uint64_t mismatches;
	uint64_t media_errors;
};

/* rcl_soft_sweep_extent() - the end of the positions: the bytes each member holds. */
uint64_t rcl_soft_sweep_extent(const struct rcl_soft_volume *vol);

/* rcl_soft_sweep_unit() - what positions are multiples of: the chunk. */
uint64_t rcl_soft_sweep_unit(const struct rcl_soft_volume *vol);

/*
 * rcl_soft_sweep_step() - how much a background task does at once: whole
 * units, a few MiB of member I/O.
 */
uint64_t rcl_soft_sweep_step(const struct rcl_soft_volume *vol);

/**
 * rcl_soft_sweep_lba() - position @pos as the member drive's LBA: what
 * the record's rebuilt_lba says once a rebuild has reached @pos.
 */
uint64_t rcl_soft_sweep_lba(const struct rcl_soft_volume *vol, uint64_t pos);

/**
 * rcl_soft_sweep_rebuilt() - where member @member's rebuild stands: the
 * position below which it holds data (from its rebuilt_lba, or what a
 * rebuild on this volume reached since), the extent when it is online.
 */
uint64_t rcl_soft_sweep_rebuilt(const struct rcl_soft_volume *vol, unsigned member);

/**
 * rcl_soft_rebuild_range() - member @member (an index in the group's
 * member order, in the rebuild state) gets its data over [@from, @to)
 * from the others: copied from a mirror, or its strips (data, P or Q)
 * reconstructed from the rest of each stripe. It then holds data below
 * @to: requests read it and write it there. @from must not be above
 * rcl_soft_sweep_rebuilt(), so that no hole is left.
 */
int rcl_soft_rebuild_range(struct rcl_soft_volume *vol, unsigned member, uint64_t from,
                           uint64_t to);

/**
 * rcl_soft_check_range() - consistency check of [@from, @to): every stripe
 * read whole and its parity compared with its data's, or every chunk's
 * copies compared; mismatches are added to @counts. With @repair the
 * parity is rewritten from the data, or the other copies from the first
 * (md's "repair"); that is also background initialization (md's resync).
 */
int rcl_soft_check_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, bool repair,
                         struct rcl_soft_sweep_counts *counts);

/**
 * rcl_soft_sweep_resynced() - [@from, @to) has been repaired (a check with
 * repair, background or full init over it succeeded), the last of it from
 * @since on: the write-intent bits a crash left set for the regions wholly
 * inside may be cleared again, and those the repair just finished (ending
 * above @since) at the next flush, without waiting for them to be idle for
 * md's daemon_sleep: the repair's own writes set them. task.c calls it after
 * each step of a repairing task; its checkpoints flush.
 */
void rcl_soft_sweep_resynced(struct rcl_soft_volume *vol, uint64_t from, uint64_t since,
                             uint64_t to);

/**
 * rcl_soft_sweep_dirty() - the first range of positions, ending above
 * @from, that holds regions a crash left dirty in a write-intent bitmap,
 * or all of an array it left active without one (bits set, or an array
 * found active, when the volume opened that no repair has covered since:
 * rcl_soft_sweep_resynced()): [*@first, *@end), whole units clamped to the
 * extent; *@first may be below @from. Return: false when there is none.
 */
bool rcl_soft_sweep_dirty(struct rcl_soft_volume *vol, uint64_t from, uint64_t *first,
                          uint64_t *end);

/**
 * rcl_soft_init_range() - full initialization of [@from, @to): the VD data
 * there is zeroed with matching parity (through the write path; md's own
 * metadata inside a RAID50/60 span array is kept).
 */
int rcl_soft_init_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to);

/**
 * rcl_soft_erase_range() - one erase pass over [@from, @to): as
 * rcl_soft_init_range(), the VD data there written as bytes @pattern
 * with matching parity and copies.
 */
int rcl_soft_erase_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to, uint8_t pattern);

/*
 * rcl_soft_wipe_range() - bytes [@from, @to) of drive @fd written as
 * @pattern (not flushed). Return: 0 or a negative errno.
 */
int rcl_soft_wipe_range(int fd, uint64_t from, uint64_t to, uint8_t pattern);

/*
 * rcl_soft_scan_range() - bytes [@from, @to) of drive @fd read, for a patrol
 * read of what no VD covers; a read that fails adds one to @counts's
 * media_errors (the drive is not the sweep's to fail). Return: 0 or -ENOMEM.
 */
int rcl_soft_scan_range(int fd, uint64_t from, uint64_t to, struct rcl_soft_sweep_counts *counts);

/**
 * struct rcl_soft_patrol_opts - which members a patrol read reads, and how.
 * @max_members: how many members are read at once (StorCLI's
 *		maxconcurrentpd): an array's members are read in groups of at
 *		most this many, each group's reads done before the next's begin;
 *		0: all of an array's at once.
 * @skip:	bit m (of word m / 64) set: volume member m is not read (the
 *		owner's choice: StorCLI's includessds=off leaves SSDs out).
 */
struct rcl_soft_patrol_opts {
	unsigned max_members;
	uint64_t skip[(RCL_SOFT_MAX_MEMBERS + 63) / 64];
};

/**
 * rcl_soft_patrol_range() - patrol read of [@from, @to): every usable
 * member's bytes there are read (data, parity and copies alike) as @opts
 * says (NULL: all, at once); the reads that fail are added to @counts and
 * fail their members.
 */
int rcl_soft_patrol_range(struct rcl_soft_volume *vol, uint64_t from, uint64_t to,
                          const struct rcl_soft_patrol_opts *opts,
                          struct rcl_soft_sweep_counts *counts);

#endif /* RCL_SOFT_SWEEP_H */
