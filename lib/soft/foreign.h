/* SPDX-License-Identifier: MIT */
/*
 * foreign.h - a soft controller's foreign configurations (/cN/fall): the
 * backend's foreign_show, foreign_import and foreign_delete.
 *
 * A drive is foreign when it carries a configuration this controller did
 * not write (scan.h classifies it):
 *  - another raidcli controller's: its records are chosen among the
 *    drives of that controller's serial with rcl_soft_record_choose(), as
 *    that controller would choose them, and the payload is its
 *    configuration;
 *  - an md array mdadm made: md v1.2 superblocks in Linux RAID partitions
 *    of a GPT, or md metadata on the whole drive.
 *
 * Importing a raidcli configuration rewrites nothing but the records: the
 * merged configuration (this controller's plus the foreign groups, VDs and
 * spares, ids kept where free) goes to every drive of both with
 * rcl_soft_record_update(). Until the first commit every foreign drive
 * still loads as foreign; after it, the foreign drives that hold the new
 * record only pending load as BEHIND (rcl_soft_record_choose() adopts
 * them), so a crash leaves the drives foreign or imported, never a mix.
 * GPTs, md superblocks and data stay as they are.
 *
 * md arrays are shown and can be deleted, not imported: a whole-drive
 * member has no room for a GPT without moving its data, and a partition
 * member's layout (data offset, bitmap) is mdadm's choice, not the one
 * raidcli's I/O path computes (raidcli-format(7) says what import needs).
 */
#ifndef RCL_SOFT_FOREIGN_H
#define RCL_SOFT_FOREIGN_H

#include "soft.h"

/* rcl_soft_foreign_show() - the backend's foreign_show. */
enum rcl_status rcl_soft_foreign_show(struct rcl_ctrl *ctrl, struct rcl_foreign *out,
                                      struct rcl_error *err);

/* rcl_soft_foreign_import() - the backend's foreign_import (see above). */
enum rcl_status rcl_soft_foreign_import(struct rcl_ctrl *ctrl, bool preview,
                                        struct rcl_foreign *out, struct rcl_error *err);

/*
 * rcl_soft_foreign_delete() - the backend's foreign_delete: each foreign
 * drive loses its md superblocks, records and GPT (member.h's blanking),
 * and becomes blank.
 */
enum rcl_status rcl_soft_foreign_delete(struct rcl_ctrl *ctrl, bool force, struct rcl_foreign *out,
                                        struct rcl_error *err);

#endif /* RCL_SOFT_FOREIGN_H */
