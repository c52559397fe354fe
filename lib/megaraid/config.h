/* SPDX-License-Identifier: MIT */
/*
 * config.h - the changes a MegaRAID adapter's configuration takes, each
 * one DCMD or two (config.c: VDs and hot spares; pd.c: a drive's LED and
 * state; props.c: the controller's properties).
 *
 * Each function sends its frame only: the generic layer (lib/vd.c,
 * lib/drive.c) has checked the request against the model first, so the
 * firmware's own refusal, named by frame.h, is the only one left here.
 */
#ifndef RCL_MEGARAID_CONFIG_H
#define RCL_MEGARAID_CONFIG_H

#include "megaraid/frame.h"
#include "megaraid/model.h"

/**
 * rcl_mfi_add_vd() - create the VD @params describes on @ctrl's adapter
 * (CFG_ADD: one new array per span of unconfigured drives, or the
 * existing arrays of the group its drives are in, its LD in their free
 * space; one LD), then make its spares dedicated hot spares of those
 * arrays (their references read before CFG_ADD; a spare the card still
 * refuses after it leaves the VD made, and the error says so and names
 * the spare). *@target: the new LD's target id, the first one no VD of
 * @ctrl has.
 */
enum rcl_status rcl_mfi_add_vd(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                               const struct rcl_vd_params *params, unsigned *target,
                               struct rcl_error *err);

/* rcl_mfi_delete_vd() - delete the LD with target id @target (LD_DELETE). */
enum rcl_status rcl_mfi_delete_vd(const struct rcl_mfi_link *link, unsigned target,
                                  struct rcl_error *err);

/*
 * rcl_mfi_set_vd() - change what @props names (not -1, @name not NULL)
 * of the LD with target id @target: LD_GET_PROP, those fields changed,
 * LD_SET_PROP of the whole 32 bytes, the LD's reference as read in its
 * mailbox.
 */
enum rcl_status rcl_mfi_set_vd(const struct rcl_mfi_link *link, unsigned target,
                               const struct rcl_vd_props *props, struct rcl_error *err);

/*
 * rcl_mfi_make_spare() - make drive @d a hot spare (CFG_MAKE_SPARE): a
 * global one when @array_count is 0, else dedicated to @array_refs.
 */
enum rcl_status rcl_mfi_make_spare(const struct rcl_mfi_link *link, const struct rcl_drive *d,
                                   const uint16_t *array_refs, size_t array_count,
                                   struct rcl_error *err);

/* rcl_mfi_remove_spare() - make hot spare @d unconfigured again (CFG_REMOVE_SPARE). */
enum rcl_status rcl_mfi_remove_spare(const struct rcl_mfi_link *link, const struct rcl_drive *d,
                                     struct rcl_error *err);

/* rcl_mfi_locate() - start (@on) or stop drive @d's locate LED (PD_LOCATE_START/STOP). */
enum rcl_status rcl_mfi_locate(const struct rcl_mfi_link *link, const struct rcl_drive *d, bool on,
                               struct rcl_error *err);

/**
 * rcl_mfi_set_pd_state() - move drive @d to firmware state @fw_state
 * (RCL_MFI_PD_ONLINE, _OFFLINE, _UNCONFIGURED_GOOD: PD_STATE_SET), with
 * the sequence number PD_GET_INFO gives it (0 when the firmware answers
 * for another drive, as QEMU's does).
 */
enum rcl_status rcl_mfi_set_pd_state(const struct rcl_mfi_link *link, const struct rcl_drive *d,
                                     uint16_t fw_state, struct rcl_error *err);

/*
 * rcl_mfi_mark_missing() - leave the row of offline or failed member @d
 * missing, the drive unconfigured (PD_MISSING_MARK, its reference in the
 * mailbox): a hot spare takes the row if the card has one.
 */
enum rcl_status rcl_mfi_mark_missing(const struct rcl_mfi_link *link, const struct rcl_drive *d,
                                     struct rcl_error *err);

/**
 * struct rcl_mfi_props_change - what a "set" changes in the card's
 * properties.
 * @settings:	the settings to store (1u << enum rcl_setting: the rates,
 *		RCL_SETTING_AUTO_REBUILD), from @s.
 * @s:		their values (NULL when @settings is 0).
 * @bits:	the on/off word's bits to change (RCL_MFI_PROP_*) ...
 * @on:		... and which of them to turn on (the others off).
 */
struct rcl_mfi_props_change {
	unsigned settings;
	const struct rcl_ctrl_settings *s;
	uint32_t bits;
	uint32_t on;
};

/*
 * rcl_mfi_props_record, rcl_mfi_edit_props() - the controller properties
 * (CTRL_GET/SET_PROPS) and their edit for rcl_mfi_change(): what @arg, a
 * struct rcl_mfi_props_change, asks for.
 */
extern const struct rcl_mfi_record rcl_mfi_props_record;
bool rcl_mfi_edit_props(void *rec, const void *arg);

/**
 * rcl_mfi_set_props() - store @c in the card's properties: CTRL_GET_PROPS,
 * those bytes and bits changed, CTRL_SET_PROPS of the whole record, so what
 * raidcli does not know is written back as the card gave it.
 */
enum rcl_status rcl_mfi_set_props(const struct rcl_mfi_link *link,
                                  const struct rcl_mfi_props_change *c, struct rcl_error *err);

/*
 * rcl_mfi_pd_seq(), rcl_mfi_ld_seq() (refs.c) - the sequence number the
 * card gives drive @id now (PD_GET_INFO; 0 when the firmware answers for
 * another drive, as QEMU's does for all but the first), or LD @target
 * (LD_GET_INFO; 0 when it answers for another one): what a change naming
 * it must carry.
 */
enum rcl_status rcl_mfi_pd_seq(const struct rcl_mfi_link *link, uint16_t id, uint16_t *seq,
                               struct rcl_error *err);

/*
 * rcl_mfi_pd_ref() (refs.c) - rcl_mfi_pd_seq()'s sequence number and the
 * enclosure index PD_GET_INFO gives drive @id (0, as FreeBSD's mfiutil
 * leaves it in a new array, when the firmware answers for another drive).
 */
struct rcl_mfi_pd_ref {
	uint16_t seq;
	uint8_t encl_index;
};
enum rcl_status rcl_mfi_pd_ref(const struct rcl_mfi_link *link, uint16_t id,
                               struct rcl_mfi_pd_ref *ref, struct rcl_error *err);
enum rcl_status rcl_mfi_ld_seq(const struct rcl_mfi_link *link, unsigned target, uint16_t *seq,
                               struct rcl_error *err);

/*
 * rcl_mfi_config_array() (refs.c) - array @i of configuration @buf (@len
 * bytes, as CFG_READ gave it), or NULL past the last one or the buffer.
 */
const struct rcl_mfi_array *rcl_mfi_config_array(const uint8_t *buf, uint32_t len, size_t i);

/*
 * rcl_mfi_group_refs() (refs.c) - the refs of the arrays drive groups
 * @dgs (@dg_count of them, as @ctrl numbers them) span, from the card's
 * configuration now: at most @room into @refs, *@count of them.
 * RCL_NOT_FOUND for a group @ctrl does not have.
 */
enum rcl_status rcl_mfi_group_refs(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                   const unsigned *dgs, size_t dg_count, uint16_t *refs,
                                   size_t room, size_t *count, struct rcl_error *err);

/*
 * rcl_mfi_group_arrays() (refs.c) - the arrays of drive group @dg, one
 * per span (@spans), copied from the card's configuration now into
 * @arrays, and its free extents on them (rcl_mfi_array_holes(), room for
 * RCL_MFI_MAX_HOLES) into @holes, *@hole_count of them.
 */
enum rcl_status rcl_mfi_group_arrays(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                     unsigned dg, struct rcl_mfi_array *arrays, size_t spans,
                                     struct rcl_mfi_extent *holes, size_t *hole_count,
                                     struct rcl_error *err);

/*
 * rcl_mfi_span_ref() (refs.c) - the ref of array @span of drive group @dg
 * (@ctrl's numbering), read from the card's configuration now through
 * the group's first LD.
 */
enum rcl_status rcl_mfi_span_ref(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                 unsigned dg, unsigned span, uint16_t *ref, struct rcl_error *err);

/**
 * rcl_mfi_insert_drive() - put drive @d in the missing row @row of array
 * @span of group @dg (PD_MISSING_REPLACE: mailbox the drive's reference,
 * the array's ref, the row; Broadcom's MR.H).
 */
enum rcl_status rcl_mfi_insert_drive(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                     const struct rcl_drive *d, unsigned dg, unsigned span,
                                     unsigned row, struct rcl_error *err);

#endif /* RCL_MEGARAID_CONFIG_H */
