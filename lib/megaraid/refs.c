// SPDX-License-Identifier: MIT
/*
 * refs.c - the references a MegaRAID configuration change names
 * (config.h): a drive's or an LD's sequence number and a drive group's
 * arrays, asked of the card just before the change.
 *
 * The firmware numbers each drive and each LD (MR_PD_REF, MR_LD_REF: the
 * id and a 16-bit sequence number) and refuses a change naming a number
 * that is no longer the current one (INVALID_SEQUENCE_NUMBER): a
 * reference read before someone else changed the configuration does not
 * act on what took its place. FreeBSD's mfiutil reads them the same way,
 * PD_GET_INFO and LD_GET_INFO before each change.
 */
#include <endian.h>
#include <string.h>

#include "megaraid/config.h"
#include "megaraid/frame.h"

enum rcl_status rcl_mfi_pd_ref(const struct rcl_mfi_link *link, uint16_t id,
                               struct rcl_mfi_pd_ref *ref, struct rcl_error *err)
{
	struct rcl_mfi_pd_info pi;
	enum rcl_status st = rcl_mfi_read_mbox(link, RCL_MFI_DCMD_PD_GET_INFO, RCL_MFI_MBOX_U16(id),
	                                       RCL_MFI_PRESET_ZERO, &pi, sizeof(pi),
	                                       "reading the drive's info (PD_GET_INFO)", err);
	bool ours;

	ours = !st && le16toh(pi.device_id) == id;
	ref->seq = ours ? le16toh(pi.seq_num) : 0;
	ref->encl_index = ours ? pi.encl_index : 0;
	return st == RCL_NOT_FOUND ? RCL_OK : st;
}

enum rcl_status rcl_mfi_pd_seq(const struct rcl_mfi_link *link, uint16_t id, uint16_t *seq,
                               struct rcl_error *err)
{
	struct rcl_mfi_pd_ref ref;
	enum rcl_status st = rcl_mfi_pd_ref(link, id, &ref, err);

	*seq = ref.seq;
	return st;
}

enum rcl_status rcl_mfi_ld_seq(const struct rcl_mfi_link *link, unsigned target, uint16_t *seq,
                               struct rcl_error *err)
{
	struct rcl_mfi_ld_info ld;
	enum rcl_status st = rcl_mfi_read_mbox(
	    link, RCL_MFI_DCMD_LD_GET_INFO, RCL_MFI_MBOX_U16((uint8_t)target), RCL_MFI_PRESET_ZERO,
	    &ld, sizeof(ld), "reading the virtual drive's info (LD_GET_INFO)", err);

	*seq = !st && ld.target_id == target ? le16toh(ld.seq) : 0;
	return st;
}

const struct rcl_mfi_array *rcl_mfi_config_array(const uint8_t *buf, uint32_t len, size_t i)
{
	const struct rcl_mfi_config *h = (const void *)buf;
	size_t count = le16toh(h->array_count), size = le16toh(h->array_size);

	/* QEMU gives the arrays' size in all, a card one array's. */
	if (count > 1 && size >= count * sizeof(struct rcl_mfi_array))
		size /= count;
	if (i >= count || size < sizeof(struct rcl_mfi_array) || sizeof(*h) + (i + 1) * size > len)
		return NULL;
	return (const void *)(buf + sizeof(*h) + i * size);
}

/* The ref of the array in configuration @buf holding drive @device_id; -1 if none does. */
static int array_of(const uint8_t *buf, uint32_t len, unsigned device_id)
{
	const struct rcl_mfi_array *a;

	for (size_t i = 0; (a = rcl_mfi_config_array(buf, len, i)); i++)
		for (unsigned r = 0; r < a->num_drives && r < 32; r++)
			if (le16toh(a->pd[r].device_id) == device_id)
				return le16toh(a->array_ref);
	return -1;
}

/* Whether @refs (@count of them) has @ref. */
static bool has_ref(const uint16_t *refs, size_t count, uint16_t ref)
{
	for (size_t i = 0; i < count; i++)
		if (refs[i] == ref)
			return true;
	return false;
}

/* Whether drive @d is a member of one of groups @dgs (@dg_count of them). */
static bool in_groups(const struct rcl_drive *d, const unsigned *dgs, size_t dg_count)
{
	for (size_t k = 0; k < dg_count; k++)
		if (d->dg == (int)dgs[k])
			return true;
	return false;
}

enum rcl_status rcl_mfi_group_refs(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                   const unsigned *dgs, size_t dg_count, uint16_t *refs,
                                   size_t room, size_t *count, struct rcl_error *err)
{
	uint8_t *buf;
	uint32_t len;
	enum rcl_status st;

	*count = 0;
	for (size_t k = 0; k < dg_count; k++)
		if (!rcl_ctrl_dg_by_id(ctrl, dgs[k]))
			return rcl_fail(err, RCL_NOT_FOUND, "drive group /c%u/d%u not found",
			                ctrl->entry.id, dgs[k]);
	st = rcl_mfi_read_config(link, &buf, &len, err);
	if (st)
		return st;
	/* A group's arrays are those holding its members (one per span). */
	for (size_t i = 0; !st && i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);
		int ref = in_groups(d, dgs, dg_count) ? array_of(buf, len, d->device_id) : -1;

		if (ref < 0 || has_ref(refs, *count, (uint16_t)ref))
			continue;
		if (*count == room)
			st = rcl_fail(err, RCL_INVALID_PARAM,
			              "a MegaRAID hot spare serves at most %zu arrays", room);
		else
			refs[(*count)++] = (uint16_t)ref;
	}
	rcl_free(buf);
	return st;
}

/* LD configuration @i of configuration @buf (@len bytes), or NULL. */
static const struct rcl_mfi_ld_info *config_ld(const uint8_t *buf, uint32_t len, size_t i,
                                               struct rcl_mfi_ld_info *ld)
{
	const struct rcl_mfi_config *h = (const void *)buf;
	size_t arrays = le16toh(h->array_count), asize = le16toh(h->array_size);
	size_t count = le16toh(h->ld_count), size = le16toh(h->ld_size);
	size_t at;

	/* QEMU gives each section's size in all, a card one element's. */
	if (arrays > 1 && asize >= arrays * sizeof(struct rcl_mfi_array))
		asize /= arrays;
	if (count > 1 && size >= count * RCL_MFI_LD_CONFIG_SIZE)
		size /= count;
	at = sizeof(*h) + arrays * asize + i * size;
	if (i >= count || size < RCL_MFI_LD_CONFIG_SIZE || at + RCL_MFI_LD_CONFIG_SIZE > len)
		return NULL;
	memset(ld, 0, sizeof(*ld));
	memcpy(ld, buf + at, RCL_MFI_LD_CONFIG_SIZE);
	return ld;
}

/* Add LD @ld's span on array @ref to @ext (@n so far, kept in order of start). */
static size_t add_extent(struct rcl_mfi_extent *ext, size_t n, const struct rcl_mfi_ld_info *ld,
                         uint16_t ref)
{
	for (unsigned s = 0; s < ld->span_depth && s < 8; s++) {
		struct rcl_mfi_extent e = {le64toh(ld->span[s].start_block),
		                           le64toh(ld->span[s].blocks)};
		size_t k = n;

		if (le16toh(ld->span[s].array_ref) != ref || n == RCL_MFI_MAX_LD)
			continue;
		for (; k && ext[k - 1].start > e.start; k--)
			ext[k] = ext[k - 1];
		ext[k] = e;
		return n + 1;
	}
	return n;
}

size_t rcl_mfi_array_holes(const uint8_t *buf, uint32_t len, uint16_t ref, uint64_t blocks,
                           struct rcl_mfi_extent *out, size_t room)
{
	struct rcl_mfi_extent used[RCL_MFI_MAX_LD];
	struct rcl_mfi_ld_info ld;
	uint64_t at = 0;
	size_t n = 0, count = 0;

	for (size_t i = 0; config_ld(buf, len, i, &ld); i++)
		n = add_extent(used, n, &ld, ref);
	/* A hole before each extent that starts past the one before, and the end. */
	for (size_t i = 0; i <= n && count < room; i++) {
		uint64_t end = i < n ? used[i].start : blocks;

		if (end > at)
			out[count++] = (struct rcl_mfi_extent){at, end - at};
		if (i < n && used[i].start + used[i].blocks > at)
			at = used[i].start + used[i].blocks;
	}
	return count;
}

enum rcl_status rcl_mfi_group_arrays(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                     unsigned dg, struct rcl_mfi_array *arrays, size_t spans,
                                     struct rcl_mfi_extent *holes, size_t *hole_count,
                                     struct rcl_error *err)
{
	uint8_t *buf;
	uint32_t len;
	size_t found = 0;
	enum rcl_status st = rcl_mfi_read_config(link, &buf, &len, err);

	*hole_count = 0;
	if (st)
		return st;
	for (size_t s = 0; s < spans; s++)
		for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
			const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);
			const struct rcl_mfi_array *a;
			int ref = d->dg == (int)dg && d->span == s
			              ? array_of(buf, len, d->device_id)
			              : -1;

			for (size_t k = 0; ref >= 0 && (a = rcl_mfi_config_array(buf, len, k)); k++)
				if (le16toh(a->array_ref) == ref && found == s)
					arrays[found++] = *a;
		}
	/* The spans of a group's LDs lie alike on each of its arrays: the first one's holes. */
	if (found)
		*hole_count =
		    rcl_mfi_array_holes(buf, len, le16toh(arrays[0].array_ref),
		                        le64toh(arrays[0].blocks), holes, RCL_MFI_MAX_HOLES);
	rcl_free(buf);
	return found == spans
	           ? RCL_OK
	           : rcl_fail(err, RCL_NOT_FOUND,
	                      "the card's configuration lacks an array of drive group %u", dg);
}

enum rcl_status rcl_mfi_span_ref(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                 unsigned dg, unsigned span, uint16_t *ref, struct rcl_error *err)
{
	struct rcl_mfi_ld_info ld;
	const struct rcl_vd *v = NULL;
	uint8_t *buf;
	uint32_t len;
	bool found = false;
	enum rcl_status st;

	for (size_t i = 0; !v && i < ctrl->vd_count; i++)
		if (ctrl->vds[i].dg == dg)
			v = &ctrl->vds[i];
	if (!v || span >= 8)
		return rcl_fail(err, RCL_NOT_FOUND, "drive group %u has no array %u", dg, span);
	st = rcl_mfi_read_config(link, &buf, &len, err);
	if (st)
		return st;
	/* By its LD, not its drives: every row of the array may be missing. */
	for (size_t i = 0; !found && config_ld(buf, len, i, &ld); i++)
		if (ld.target_id == v->id && span < (ld.span_depth ? ld.span_depth : 1u)) {
			*ref = le16toh(ld.span[span].array_ref);
			found = true;
		}
	rcl_free(buf);
	return found ? RCL_OK
	             : rcl_fail(err, RCL_NOT_FOUND,
	                        "the card's configuration lacks array %u of drive group %u", span,
	                        dg);
}
