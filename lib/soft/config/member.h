/* SPDX-License-Identifier: MIT */
/*
 * member.h - the on-disk structures of one member drive: its GPT as the
 * configuration describes it, the md superblock and bitmap of each of its
 * VD partitions, and wiping them. Every write goes through io.h's hook.
 */
#ifndef RCL_SOFT_MEMBER_H
#define RCL_SOFT_MEMBER_H

#include "config.h"
#include "soft/format/gpt.h"
#include "scan.h"

/**
 * rcl_soft_member_gpt() - the GPT @disk must carry as a member of @dg in
 * @cfg: the metadata partition, then one Linux RAID partition per VD of
 * @dg, nothing else (orphans of an interrupted change go); a NULL @dg
 * (a global hot spare) gets the metadata partition alone. Entries that
 * stay keep their partition GUIDs. With @fresh (a new member) the drive
 * gets a new table, and so a new disk GUID; else @disk->gpt is the base.
 * Return: RCL_OK, RCL_INVALID_PARAM, RCL_SYSTEM (no randomness).
 */
enum rcl_status rcl_soft_member_gpt(const struct rcl_soft_disk *disk, bool fresh,
                                    const struct rcl_soft_config *cfg, const struct rcl_soft_dg *dg,
                                    struct rcl_gpt *gpt, struct rcl_error *err);

/**
 * rcl_soft_meta_part() - the metadata partition a new GPT @gpt gets: 1 MiB
 * at the first 1 MiB boundary, with a random partition GUID.
 * Return: RCL_OK, or RCL_SYSTEM when there is no randomness.
 */
enum rcl_status rcl_soft_meta_part(const struct rcl_gpt *gpt, struct rcl_gpt_part *part,
                                   struct rcl_error *err);

/**
 * rcl_soft_meta_part_before() - a metadata partition in the free LBAs of
 * @gpt before @end_lba (the GPT's gap before an adopted md partition that
 * starts at 1 MiB): from the first usable 4 KiB boundary, 1 MiB at most,
 * RCL_SOFT_RECORD_PART_MIN at least (record.h).
 * Return: RCL_OK; RCL_NOT_ALLOWED when the gap is smaller.
 */
enum rcl_status rcl_soft_meta_part_before(const struct rcl_gpt *gpt, uint64_t end_lba,
                                          struct rcl_gpt_part *part, struct rcl_error *err);

/**
 * rcl_soft_member_write_md() - write member @member's md superblock and
 * (for redundant levels) an empty write-intent bitmap for VD @vd of @dg
 * into its partition on @fd, then flush.
 * Return: RCL_OK, RCL_INVALID_PARAM, RCL_SYSTEM.
 */
enum rcl_status rcl_soft_member_write_md(int fd, unsigned sector_size, const char *serial,
                                         const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                         unsigned member, struct rcl_error *err);

/**
 * rcl_soft_member_wipe_orphans() - zero the md superblock of every Linux
 * RAID partition of @disk's current GPT that @gpt (the table about to be
 * written) no longer lists, so no stale array member outlives its entry.
 */
enum rcl_status rcl_soft_member_wipe_orphans(const struct rcl_soft_disk *disk,
                                             const struct rcl_gpt *gpt, struct rcl_error *err);

/**
 * rcl_soft_member_erase() - make @disk, whatever it holds, a blank drive:
 * zero its first 2 MiB and its last MiB, where partition tables (MBR, both
 * GPT copies), raidcli's records and whole-drive md superblocks are. For
 * a drive whose metadata cannot be read, so rcl_soft_member_blank() cannot
 * tell where they are; the user asked to lose what it holds.
 */
enum rcl_status rcl_soft_member_erase(const struct rcl_soft_disk *disk, struct rcl_error *err);

/**
 * rcl_soft_member_blank() - make @disk a blank drive again: zero the md
 * superblock of every Linux RAID partition its GPT lists, both record
 * headers, and both copies of the GPT.
 */
enum rcl_status rcl_soft_member_blank(const struct rcl_soft_disk *disk, struct rcl_error *err);

/**
 * rcl_soft_member_clear_records() - zero both record headers of the
 * metadata partition @meta on @fd, so a reused drive carries no old record.
 */
enum rcl_status rcl_soft_member_clear_records(int fd, unsigned sector_size,
                                              const struct rcl_gpt_part *meta,
                                              struct rcl_error *err);

/*
 * Dedicated spares. A spare joins each of its group's arrays as md's
 * "mdadm --add" leaves it: its own superblock, a copy of a member's with
 * its device number and role spare (every role past the members' is
 * spare already, rcl_md_super1_init()), and every superblock's events
 * one up, so the array's members and spares agree.
 */
struct rcl_md_super1;

/**
 * rcl_soft_md_read() - read and check VD @vd's md superblock on @fd into
 * *@sb (heap-sized: about 4 KiB).
 * Return: RCL_OK, RCL_CORRUPT, RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_soft_md_read(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                 struct rcl_md_super1 *sb, struct rcl_error *err);

/**
 * rcl_soft_md_rewrite() - write @sb back as VD @vd's superblock on @fd,
 * its utime now, the bitmap superblock's events first set to @sb's; flush.
 */
enum rcl_status rcl_soft_md_rewrite(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                    struct rcl_md_super1 *sb, struct rcl_error *err);

/**
 * rcl_soft_md_grow() - VD @vd's md array member on @fd grown, as "mdadm
 * --grow --size" grows it: data_size and size from @vd->md, @events; a VD
 * not consistent also gets resync_offset 0 (md resyncs it whole); a
 * bitmap gets @vd->md's range and chunk, every bit set. Bitmap first,
 * then the superblock; flush. @vd's partition is the grown one.
 * Return: RCL_OK, or as rcl_soft_md_read(); RCL_SYSTEM.
 */
enum rcl_status rcl_soft_md_grow(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                 uint64_t events, struct rcl_error *err);

/**
 * rcl_soft_md_add_bitmap() - give VD @vd's md array member on @fd the
 * internal bitmap @vd->md describes, as "mdadm --grow --bitmap=internal"
 * does: a bitmap superblock at the array's events, every bit clear when
 * the array is in sync (set when not: md resyncs what they mark), then
 * the superblock naming it; flush. A member that has one keeps it.
 * Return: RCL_OK, or as rcl_soft_md_read(); RCL_SYSTEM.
 */
enum rcl_status rcl_soft_md_add_bitmap(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                       struct rcl_error *err);

/**
 * rcl_soft_md_left_active() - whether VD @vd's md superblock on @fd says
 * active (resync_offset not all ones): whoever had the array open did not
 * close it cleanly. A superblock that cannot be read says nothing: false.
 */
bool rcl_soft_md_left_active(int fd, unsigned sector_size, const struct rcl_soft_vd *vd);

/**
 * rcl_soft_md_lock() - take (rcl_soft_md_unlock(): let go) the process's
 * lock on md superblock writes: a configuration change holds it from
 * rcl_soft_change_begin() to its end, an open volume while it marks its
 * arrays clean or active (volume.c), so neither rewrites a superblock from
 * what it read before the other wrote it (a member recorded failed must
 * stay so). Not recursive.
 */
void rcl_soft_md_lock(void);
void rcl_soft_md_unlock(void);

/**
 * rcl_soft_md_next_events() - the events md's md_update_sb() gives an
 * array whose freshest superblock has @events when it turns @clean (else
 * active): one up; one back when it turns clean with @rollback, which md
 * allows only when the update before was its own turn to active on an
 * array that is not degraded, with nothing written between (its
 * "can_decrease_events"). So a member taken out of a degraded array falls
 * further behind the others at every turn, and md, which takes a member at
 * most one event behind for current, never takes it back.
 */
uint64_t rcl_soft_md_next_events(uint64_t events, bool clean, bool rollback);

/**
 * rcl_soft_md_set_clean() - mark VD @vd's md superblock on @fd clean
 * (@clean: resync_offset all ones, md's "in sync, no write in flight") or
 * active (resync_offset 0: md resyncs what the bitmap marks before it
 * trusts the parity, and starts the array degraded only when forced), at
 * the array's new @events (rcl_soft_md_next_events()); then flush. The
 * caller moves the bitmap superblock's events first, as md does (md
 * forces a full resync on a bitmap behind the superblock), and holds
 * rcl_soft_md_lock().
 * Return: RCL_OK, or as rcl_soft_md_read(); RCL_SYSTEM when it cannot be
 * written.
 */
enum rcl_status rcl_soft_md_set_clean(int fd, unsigned sector_size, const struct rcl_soft_vd *vd,
                                      bool clean, uint64_t events, struct rcl_error *err);

/**
 * rcl_soft_md_write_spare() - write VD @vd's superblock on spare @fd: a
 * copy of @member's (read from @member_fd, whose bitmap superblock the
 * spare's empty bitmap copies) with device number @dev, role spare and a
 * new device UUID; then flush.
 */
enum rcl_status rcl_soft_md_write_spare(int fd, int member_fd, unsigned sector_size,
                                        const struct rcl_soft_vd *vd,
                                        const struct rcl_md_super1 *member, unsigned dev,
                                        struct rcl_error *err);

#endif /* RCL_SOFT_MEMBER_H */
