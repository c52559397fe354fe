/* SPDX-License-Identifier: MIT */
/*
 * model.h - a MegaRAID adapter's configuration read into raidcli's model
 * (model.c).
 */
#ifndef RCL_MEGARAID_MODEL_H
#define RCL_MEGARAID_MODEL_H

#include "internal.h"
#include "megaraid/mfi.h"

/* An open adapter: the management node's descriptor and the adapter's SCSI host number. */
struct rcl_mfi_link {
	int fd;
	unsigned host_no;
};

/* A task rate in the controller properties: @op the adapter_ops bit, @offset its byte. */
struct rcl_mfi_rate {
	uint32_t op;
	enum rcl_setting setting;
	size_t offset;
};

/* The rates, one per rate setting (RCL_RATE_COUNT; props.c). */
extern const struct rcl_mfi_rate rcl_mfi_rates[];

/**
 * rcl_mfi_load_model() - fill @ctrl's info, enclosures, drives, groups and
 * VDs, and narrow its caps, from what the adapter behind @link answers;
 * @settings gets the task rates its properties hold (the rest zero: the
 * card's schedules are not read, and its caps offer none).
 * On failure @ctrl may hold part of it (the caller frees it).
 * Return: RCL_OK; the firmware's refusal (frame.h); RCL_BAD_REPLY (a
 * reply whose counts do not fit it); RCL_SYSTEM; RCL_NOMEM.
 */
enum rcl_status rcl_mfi_load_model(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                   struct rcl_ctrl_settings *settings, struct rcl_error *err);

/**
 * rcl_mfi_read_config() (config.c) - the adapter's whole configuration
 * (CFG_READ: header, arrays, LDs, spares) into *@out (rcl_malloc()ed,
 * the caller frees it), its size into *@len.
 */
enum rcl_status rcl_mfi_read_config(const struct rcl_mfi_link *link, uint8_t **out, uint32_t *len,
                                    struct rcl_error *err);

/**
 * rcl_mfi_read_config_of() (config.c) - rcl_mfi_read_config() of another
 * DCMD that answers in CFG_READ's layout (a foreign configuration:
 * @opcode, its index @index in mailbox byte 0), @what naming it in errors.
 */
enum rcl_status rcl_mfi_read_config_of(const struct rcl_mfi_link *link, uint32_t opcode,
                                       uint8_t index, const char *what, uint8_t **out,
                                       uint32_t *len, struct rcl_error *err);

/* A free extent of an array: from block @start, @blocks of each member. */
struct rcl_mfi_extent {
	uint64_t start;
	uint64_t blocks;
};

/* The most free extents a group is read with: one before each of its LDs and the end. */
#define RCL_MFI_MAX_HOLES (RCL_MAX_VDS_PER_DG + 1)

/*
 * rcl_mfi_array_holes() (refs.c) - the free extents of array @ref
 * (@blocks of each member) that configuration @buf (@len bytes, as
 * CFG_READ gave it) leaves between and after its LDs' spans, in order: at
 * most @room into @out. Return: how many.
 */
size_t rcl_mfi_array_holes(const uint8_t *buf, uint32_t len, uint16_t ref, uint64_t blocks,
                           struct rcl_mfi_extent *out, size_t room);

/* rcl_mfi_fill_vd() - VD @v from the LD configuration @ld (LD_GET_INFO's), in group @dg. */
void rcl_mfi_fill_vd(struct rcl_vd *v, const struct rcl_mfi_ld_info *ld, unsigned dg);

/* rcl_mfi_data_drives() (config.c) - how many of a span's @n drives hold data at @level. */
unsigned rcl_mfi_data_drives(enum rcl_raid_level level, unsigned n);

/*
 * rcl_mfi_fill_ctrl() (ctrl-info.c) - @ctrl's info from CTRL_GET_INFO's
 * @ci, its caps narrowed to what the card reports, @settings the task
 * rates its properties hold.
 */
void rcl_mfi_fill_ctrl(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *settings,
                       const struct rcl_mfi_ctrl_info *ci);

/* rcl_mfi_copy_text() - fixed-width, space-padded firmware text @src (@n bytes) into @dst, trimmed.
 */
void rcl_mfi_copy_text(char *dst, size_t size, const void *src, size_t n);

/* A card's limit @v, or @max where it gives none or more. */
static inline unsigned rcl_mfi_at_most(unsigned v, unsigned max)
{
	return v && v < max ? v : max;
}

/* A strip of 2^@exp 512-byte blocks, in KiB (0: none). */
static inline unsigned rcl_mfi_strip_kib(unsigned exp)
{
	return exp >= 1 && exp < 22 ? (512u << exp) / 1024 : 0;
}

#endif /* RCL_MEGARAID_MODEL_H */
