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
 * An md array mdadm made is adopted in place, in the layout md gave it:
 * each member alone in a Linux RAID partition at the same LBAs and GPT
 * entry on every member, a level raidcli lays out as md does, members as
 * fresh as the freshest; the VD's record keeps md's data offset, size and
 * bitmap (or none) as they are (config.h's "md"), whatever raidcli would
 * have chosen. Roles no drive holds become members marked missing, so the
 * array comes in degraded. Each member's GPT gains raidcli's metadata
 * partition in a free, 1 MiB-aligned MiB, or else in the GPT's gap before
 * the md partition (a short one, record.h), as entry 0 (the md partition
 * moves to entry 1 if it was there, keeping its place on the drive), its
 * record slots cleared, before the record update (vd.h's step (a)); until
 * that commits, scan.c still finds an md member there, so a crash leaves
 * the array foreign and importable again. md data is never written, nor
 * are superblocks, but in a degraded adoption: there, before the records,
 * the present members' count the lost roles faulty, one event on, as md's
 * do once it runs the array degraded. Whole-drive md members cannot get a GPT without moving
 * their data: they are shown, and deleted, but never imported
 * (raidcli-format(7)).
 */
#ifndef RCL_SOFT_FOREIGN_H
#define RCL_SOFT_FOREIGN_H

#include "soft/soft.h"

/* rcl_soft_foreign_show() - the backend's foreign_show. */
enum rcl_status rcl_soft_foreign_show(struct rcl_ctrl *ctrl, struct rcl_foreign *out,
                                      struct rcl_error *err);

/* rcl_soft_foreign_import() - the backend's foreign_import (see above). */
enum rcl_status rcl_soft_foreign_import(struct rcl_ctrl *ctrl, bool preview, bool bitmap,
                                        struct rcl_foreign *out, struct rcl_error *err);

/*
 * rcl_soft_foreign_delete() - the backend's foreign_delete: each foreign
 * drive loses its md superblocks, records and GPT (member.h's blanking),
 * and becomes blank.
 */
enum rcl_status rcl_soft_foreign_delete(struct rcl_ctrl *ctrl, struct rcl_error *err);

#endif /* RCL_SOFT_FOREIGN_H */
