/* SPDX-License-Identifier: MIT */
/*
 * change.h - one change of a soft controller's configuration, and the
 * steps every change (VDs, hot spares, member states) shares.
 *
 * Every change follows one order, so that a crash after any write leaves
 * the old configuration or the new one:
 *  (a) write the new structures nobody references yet: GPT entries, md
 *      superblocks and bitmaps of a new VD (fresh drives also get their
 *      GPT and metadata partition, their record slots cleared);
 *  (b) write the new configuration with rcl_soft_record_update(): prepare
 *      on every drive, then commit on every drive;
 *  (c) remove what the new configuration no longer references: a deleted
 *      VD's md superblock and GPT entry, and the GPT and records of drives
 *      that left every group.
 * A crash in (a) leaves orphan partitions that loading ignores and the
 * next change of the group removes; in (c), drives that loading shows as
 * unconfigured, cleaned by the next change.
 *
 * A change of member states rewrites the md superblocks of existing arrays
 * in (a), events one up on each: md trusts the highest events, so it sees
 * a member set offline as faulty before the record says so. A crash
 * before (b) leaves the old record, which loading shows, and md more
 * careful than it; the next change of the group rewrites the roles from
 * the record in force.
 */
#ifndef RCL_SOFT_CHANGE_H
#define RCL_SOFT_CHANGE_H

#include "member.h"
#include "scan.h"

struct rcl_md_super1;

/**
 * struct rcl_soft_change - one configuration change under way.
 * @state:	the configuration as the drives hold it (borrowed).
 * @cfg:	the new configuration, a copy of @state's to edit.
 * @gpts:	per disk: the GPT step (a) writes, or NULL.
 * @fresh:	per disk: a new member (blank before), whose records start clear.
 * @md_locked:	it holds rcl_soft_md_lock(), from its begin to its end.
 */
struct rcl_soft_change {
	struct rcl_ctrl *ctrl;
	struct soft_ctrl *sc;
	struct rcl_soft_state *state;
	struct rcl_soft_config *cfg;
	struct rcl_gpt **gpts;
	bool *fresh;
	bool md_locked;
};

/*
 * rcl_soft_change_begin() - start a change of @ctrl (reading its drives
 * first when the model is stale). Always end it with rcl_soft_change_end()
 * (nothing written) or rcl_soft_change_finish(); one that fails has ended
 * already (ending it again does nothing).
 */
enum rcl_status rcl_soft_change_begin(struct rcl_ctrl *ctrl, struct rcl_soft_change *c,
                                      struct rcl_error *err);
void rcl_soft_change_end(struct rcl_soft_change *c);

/*
 * rcl_soft_change_finish() - end @c after its writes: on failure (@st)
 * read the drives again and return @st; else reload the model.
 */
enum rcl_status rcl_soft_change_finish(struct rcl_soft_change *c, enum rcl_status st,
                                       struct rcl_error *err);

/* rcl_soft_change_find() - the disk in slot @ref, present and not foreign. */
enum rcl_status rcl_soft_change_find(const struct rcl_soft_change *c,
                                     const struct rcl_drive_ref *ref, size_t *index,
                                     struct rcl_error *err);

/*
 * rcl_soft_change_disk() - the disk whose GPT disk GUID is @uuid, by disk
 * index, or -1: a disk of ours, or one step (a) of this change gave a new
 * GPT. rcl_soft_change_member(): that of member @m of @dg, -1 too when
 * @m is marked missing (its drive has left the group).
 */
int rcl_soft_change_disk(const struct rcl_soft_change *c, const struct rcl_guid *uuid);
int rcl_soft_change_member(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg,
                           unsigned m);

/*
 * rcl_soft_change_live() - the disk of member @m of @dg when it is present
 * and holds the array's data (online or rebuilding), else -1.
 */
int rcl_soft_change_live(const struct rcl_soft_change *c, const struct rcl_soft_dg *dg, unsigned m);

/* rcl_soft_same_array() - whether members @a and @b of @dg are in one md array. */
bool rcl_soft_same_array(const struct rcl_soft_dg *dg, unsigned a, unsigned b);

/* rcl_soft_change_any_member() - the first member of @dg that is present, or NULL. */
const struct rcl_soft_disk *rcl_soft_change_any_member(const struct rcl_soft_change *c,
                                                       const struct rcl_soft_dg *dg);

/* Step (a): give disk @i the GPT @c->cfg wants for it as @dg's drive (NULL: no group). */
enum rcl_status rcl_soft_change_write_gpt(struct rcl_soft_change *c, size_t i,
                                          const struct rcl_soft_dg *dg, struct rcl_error *err);

/*
 * rcl_soft_change_freshest() - the superblock of VD @vd (for RAID50/60:
 * of the span array of member @m's span; @m is ignored otherwise) with the
 * highest events among the live members of that array, and its disk.
 */
enum rcl_status rcl_soft_change_freshest(const struct rcl_soft_change *c,
                                         const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                                         unsigned m, struct rcl_md_super1 *best, int *from,
                                         struct rcl_error *err);

/* rcl_soft_change_bump() - read disk @i's superblock of VD @vd into @sb, set its events. */
enum rcl_status rcl_soft_change_bump(const struct rcl_soft_change *c, int i,
                                     const struct rcl_soft_vd *vd, uint64_t events,
                                     struct rcl_md_super1 *sb, struct rcl_error *err);

/*
 * rcl_soft_change_writable() - before step (a): fail (RCL_SYSTEM, with the
 * errno the drive gave) if a drive the change writes (a new member, or a
 * drive the old or new configuration lists) could only be opened read-only,
 * so that nothing is written to the others. rcl_soft_change_write_gpt()
 * and rcl_soft_change_write_records() check the drives they write too.
 */
enum rcl_status rcl_soft_change_writable(const struct rcl_soft_change *c, struct rcl_error *err);

/* Step (b): write @c->cfg to every drive it or the old configuration lists, but failed members. */
enum rcl_status rcl_soft_change_write_records(struct rcl_soft_change *c, struct rcl_error *err);

/* Step (c): blank the drives of ours no group or spare list uses any more. */
void rcl_soft_change_clean_up(struct rcl_soft_change *c);

/* rcl_soft_room_end() - the last LBA a VD partition on @disk can use. */
enum rcl_status rcl_soft_room_end(const struct rcl_soft_disk *disk, uint64_t *end,
                                  struct rcl_error *err);

/* rcl_soft_check_blank() - refuse (RCL_NEED_FORCE) a blank @disk that holds a file system. */
enum rcl_status rcl_soft_check_blank(const struct rcl_soft_disk *disk,
                                     const struct rcl_drive_ref *ref, struct rcl_error *err);

#endif /* RCL_SOFT_CHANGE_H */
