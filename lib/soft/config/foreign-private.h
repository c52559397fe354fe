/* SPDX-License-Identifier: MIT */
/*
 * foreign-private.h - what the files behind foreign.h share: the foreign
 * configurations found on the drives (foreign-find.c), md arrays adopted
 * in place (foreign-md.c) and stacked as RAID00/50/60 (foreign-nested.c),
 * their view and deletion (foreign.c), and their import
 * (foreign-import.c).
 */
#ifndef RCL_SOFT_FOREIGN_PRIVATE_H
#define RCL_SOFT_FOREIGN_PRIVATE_H

#include <string.h>

#include "foreign.h"
#include "scan.h"
#include "soft/format/md-super1.h"

/* What one md member's own superblock says (foreign-md.c's md_shape_fits()
 * compares them). */
struct md_seen {
	uint64_t events;
	uint64_t data_offset;
	uint64_t data_size;
	uint32_t dev_number;
};

/**
 * struct found - one foreign configuration as its drives hold it.
 * @disks:	indices into the state's disks of the drives carrying it.
 * @cfg:	RAIDCLI: the configuration its records chose, or NULL (then
 *		@problem says why).
 * @md:		MDADM: a member's superblock (the array's shape), or NULL.
 * @roles:	MDADM: per md role, the disk holding it, or -1.
 * @seen:	MDADM: per md role held, that member's superblock's say.
 * @adopt:	MDADM: the array as a configuration of this controller, when
 *		it can be adopted in place (rcl_soft_foreign_md_plan()), else NULL.
 * @top:	MDADM: with @adopt, the superblock of an md RAID0 striped
 *		over this RAID0/5/6 array and others (foreign-nested.c); once
 *		joined with them, @f is that RAID0 as RAID00/50/60.
 * @joined:	MDADM: a span array taken into another found.
 * @gpts:	with @adopt, per disk of @disks: the GPT it gets, with
 *		raidcli's metadata partition added.
 * @add_bitmap:	with @adopt, the import gives its members the bitmap its
 *		VD's md layout gained (bitmap=internal).
 */
struct found {
	enum rcl_foreign_source source;
	char owner[64];
	size_t disks[RCL_SOFT_MAX_DRIVES];
	size_t disk_count;
	struct rcl_soft_config *cfg;
	struct rcl_md_super1 *md;
	int roles[RCL_SOFT_MAX_MEMBERS];
	struct md_seen seen[RCL_SOFT_MAX_MEMBERS];
	struct rcl_soft_config *adopt;
	struct rcl_md_super1 *top;
	bool joined;
	struct rcl_gpt *gpts[RCL_SOFT_MAX_MEMBERS];
	bool add_bitmap;
	char problem[RCL_ERROR_MSG_MAX];
};

struct found_list {
	struct found *items;
	size_t count;
};

/* ---- Finding them (foreign-find.c) ---- */

/*
 * rcl_soft_foreign_find_all() - every foreign configuration on @state's
 * drives into a new @list, each md array planned for adoption.
 */
enum rcl_status rcl_soft_foreign_find_all(const struct rcl_soft_state *state,
                                          struct found_list *list, struct rcl_error *err);

/* rcl_soft_foreign_found_release() - free what @f holds. */
void rcl_soft_foreign_found_release(struct found *f);

/* rcl_soft_foreign_found_list_release() - free @list and what it holds. */
void rcl_soft_foreign_found_list_release(struct found_list *list);

/* rcl_soft_foreign_found_disk() - the disk of @f whose GPT disk GUID is @uuid, or NULL. */
const struct rcl_soft_disk *rcl_soft_foreign_found_disk(const struct rcl_soft_state *state,
                                                        const struct found *f,
                                                        const struct rcl_guid *uuid);

/* rcl_soft_foreign_md_uuid_text() - "0a1b2c3d:…": an md UUID as mdadm prints it. */
void rcl_soft_foreign_md_uuid_text(const uint8_t *uuid, char *out, size_t size);

/* ---- md arrays adopted in place (foreign-md.c, foreign-nested.c) ---- */

/*
 * rcl_soft_foreign_md_plan() - whether md array @f can become a group of
 * this controller as it lies (md_shape_fits(), md_drives_fit(),
 * same_layout()): fills @f->adopt and @f->gpts, or @f->problem.
 */
enum rcl_status rcl_soft_foreign_md_plan(const struct rcl_soft_state *state, struct found *f,
                                         struct rcl_error *err);

/*
 * rcl_soft_foreign_md_stacks() - each md RAID0 over RAID0/5/6 arrays of
 * @list as one RAID00/50/60 configuration (md_stack()), its span arrays' own
 * taken out of @list.
 */
enum rcl_status rcl_soft_foreign_md_stacks(const struct rcl_soft_state *state,
                                           struct found_list *list, struct rcl_error *err);

/*
 * rcl_soft_foreign_md_level() - the raidcli level of md array @sb, when md
 * has one (else *@level is left alone).
 * Return: whether raidcli lays the array out as md does.
 */
bool rcl_soft_foreign_md_level(const struct rcl_md_super1 *sb, enum rcl_raid_level *level);

/*
 * rcl_soft_foreign_md_identity() - @vd takes md array @sb's UUID, and its
 * name without mdadm's "homehost:".
 */
void rcl_soft_foreign_md_identity(struct rcl_soft_vd *vd, const struct rcl_md_super1 *sb);

/* rcl_soft_foreign_refuse() - @f cannot be imported: @fmt says why, in @f->problem. */
void rcl_soft_foreign_refuse(struct found *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * rcl_soft_foreign_refuse_layout() - refuse @f naming @field, the part of
 * md's layout raidcli cannot keep. Return: false.
 */
bool rcl_soft_foreign_refuse_layout(struct found *f, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- The view (foreign.c) ---- */

/*
 * rcl_soft_foreign_lacks_drives() - why @c, as shown, cannot be imported
 * for want of drives: a group lacks more than it can lose (its VDs would
 * be offline). Into @why (empty when none does). show's Importable and
 * import both go by it, so they agree.
 */
void rcl_soft_foreign_lacks_drives(const struct rcl_foreign_config *c, char *why, size_t size);

/*
 * rcl_soft_foreign_check_held() - refuse to import or delete the foreign
 * configurations of @ctrl when a drive of theirs is held by a controller
 * of another kind running the engine (rcl_soft_check_held_elsewhere()):
 * they are that controller's live arrays.
 */
enum rcl_status rcl_soft_foreign_check_held(const struct rcl_ctrl *ctrl, struct rcl_error *err);

#endif /* RCL_SOFT_FOREIGN_PRIVATE_H */
