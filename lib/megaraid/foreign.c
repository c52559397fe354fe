// SPDX-License-Identifier: MIT
/*
 * foreign.c - foreign configurations on a MegaRAID card (foreign.h): the
 * card's firmware finds them and imports or clears them; raidcli reads
 * each one's arrays, LDs and spares into the generic model (struct
 * rcl_foreign) so "/cx/fall show" prints the card's the way it prints a
 * soft controller's, and applies the same confirmation rules.
 */
#include <ctype.h>
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "megaraid/foreign.h"
#include "megaraid/frame.h"

/* The groups of one configuration being read: the first array of each, by group. */
struct groups {
	uint16_t first_array[RCL_MAX_DGS];
	unsigned next_id; /* the id the next group gets */
};

/* The array of @h's configuration (@buf) whose ref is @ref, or NULL. */
static const struct rcl_mfi_array *find_array(const uint8_t *buf, const struct rcl_mfi_config *h,
                                              uint16_t ref)
{
	size_t size = le16toh(h->array_size);

	for (size_t i = 0; i < le16toh(h->array_count); i++) {
		const struct rcl_mfi_array *a = (const void *)(buf + sizeof(*h) + i * size);

		if (le16toh(a->array_ref) == ref)
			return a;
	}
	return NULL;
}

static enum rcl_status add_drive(struct rcl_foreign_config *c, const struct rcl_foreign_drive *d,
                                 struct rcl_error *err)
{
	struct rcl_foreign_drive *more =
	    rcl_realloc(c->drives, (c->drive_count + 1) * sizeof(*c->drives));

	if (!more)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	c->drives = more;
	c->drives[c->drive_count++] = *d;
	c->complete &= d->present;
	return RCL_OK;
}

/* Foreign drive @device_id (0xffff: a member missing) as the model knows it. */
static struct rcl_foreign_drive foreign_drive(const struct rcl_ctrl *ctrl, uint16_t device_id)
{
	struct rcl_foreign_drive d = {.dg = -1};

	for (size_t i = 0; device_id != 0xffff && i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *pd = rcl_ctrl_drive(ctrl, i);

		if (pd->device_id == device_id) {
			d.enclosure = pd->enclosure;
			d.slot = pd->slot;
			d.bytes = pd->raw_bytes;
			d.present = true;
		}
	}
	return d;
}

/* The members of group @dg: the rows of each array LD @ld spans. */
static enum rcl_status add_members(const struct rcl_ctrl *ctrl, struct rcl_foreign_config *c,
                                   const uint8_t *buf, const struct rcl_mfi_ld_info *ld, int dg,
                                   struct rcl_error *err)
{
	const struct rcl_mfi_config *h = (const void *)buf;
	unsigned depth = ld->span_depth ? ld->span_depth : 1;
	enum rcl_status st = RCL_OK;

	for (unsigned s = 0; !st && s < depth && s < 8; s++) {
		const struct rcl_mfi_array *a = find_array(buf, h, le16toh(ld->span[s].array_ref));

		for (unsigned r = 0; !st && a && r < a->num_drives && r < 32; r++) {
			struct rcl_foreign_drive d =
			    foreign_drive(ctrl, le16toh(a->pd[r].device_id));

			d.role = RCL_PD_ONLINE;
			d.dg = dg;
			d.span = s;
			d.row = r;
			st = add_drive(c, &d, err);
		}
	}
	return st;
}

/* LD @ld as a VD of @c, in a group of its own unless it shares its first array with one. */
static enum rcl_status add_ld(const struct rcl_ctrl *ctrl, struct rcl_foreign_config *c,
                              struct groups *g, const uint8_t *buf,
                              const struct rcl_mfi_ld_info *ld, struct rcl_error *err)
{
	uint16_t first = le16toh(ld->span[0].array_ref);
	struct rcl_vd *v = &c->vds[c->vd_count++];
	size_t k = 0;
	enum rcl_status st = RCL_OK;

	while (k < c->dg_count && g->first_array[k] != first)
		k++;
	if (k == RCL_MAX_DGS)
		return rcl_fail(err, RCL_BAD_REPLY,
		                "a foreign configuration has more than %d groups", RCL_MAX_DGS);
	rcl_mfi_fill_vd(v, ld, k < c->dg_count ? c->dgs[k].id : g->next_id);
	v->bytes = 0;
	for (unsigned s = 0; s < v->spans && s < 8; s++)
		v->bytes += le64toh(ld->span[s].blocks) * 512 *
		            rcl_mfi_data_drives(v->level, v->drives_per_span);
	if (k == c->dg_count) {
		g->first_array[k] = first;
		c->dgs[k] = (struct rcl_dg){.id = g->next_id++,
		                            .level = v->level,
		                            .state = v->state,
		                            .spans = v->spans,
		                            .drives_per_span = v->drives_per_span};
		c->dg_count++;
		st = add_members(ctrl, c, buf, ld, (int)c->dgs[k].id, err);
	}
	c->dgs[k].vd_count++;
	return st;
}

/* The spares after the LDs (@p): global ones, or dedicated to the group of their first array. */
static enum rcl_status add_spares(const struct rcl_ctrl *ctrl, struct rcl_foreign_config *c,
                                  const struct groups *g, const uint8_t *p, size_t count,
                                  size_t size, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (size_t i = 0; !st && i < count; i++) {
		const struct rcl_mfi_spare *s = (const void *)(p + i * size);
		struct rcl_foreign_drive d = foreign_drive(ctrl, le16toh(s->device_id));
		bool dedicated = s->spare_type & RCL_MFI_SPARE_DEDICATED;

		d.role = dedicated ? RCL_PD_DHS : RCL_PD_GHS;
		for (size_t k = 0; dedicated && s->array_count && k < c->dg_count; k++)
			if (g->first_array[k] == le16toh(s->array_ref[0]))
				d.dg = (int)c->dgs[k].id;
		st = add_drive(c, &d, err);
	}
	return st;
}

/* The firmware's identity of configuration @index: its printable text, else its number. */
static void set_owner(struct rcl_foreign_config *c, const char *guid, unsigned index)
{
	size_t n = 0;

	for (size_t i = 0; i < 24 && guid[i]; i++)
		if (isprint((unsigned char)guid[i]))
			c->owner[n++] = guid[i];
	while (n && c->owner[n - 1] == ' ')
		n--;
	c->owner[n] = '\0';
	if (!n)
		snprintf(c->owner, sizeof(c->owner), "foreign configuration %u", index);
}

/* Configuration @index (@buf, @len bytes, CFG_READ's layout) into @c. */
static enum rcl_status parse(const struct rcl_ctrl *ctrl, const uint8_t *buf, size_t len,
                             unsigned index, struct groups *g, struct rcl_foreign_config *c,
                             struct rcl_error *err)
{
	const struct rcl_mfi_config *h = (const void *)buf;
	size_t arrays = le16toh(h->array_count), lds = le16toh(h->ld_count);
	size_t spares = le16toh(h->spare_count), ssize = le16toh(h->spare_size);
	size_t lsize = le16toh(h->ld_size);
	size_t off = sizeof(*h) + arrays * le16toh(h->array_size);
	enum rcl_status st = RCL_OK;

	c->source = RCL_FOREIGN_CARD;
	c->complete = true;
	if (len < sizeof(*h) || (arrays && le16toh(h->array_size) < sizeof(struct rcl_mfi_array)) ||
	    (lds && lsize < RCL_MFI_LD_CONFIG_SIZE) || lds > RCL_MAX_VDS ||
	    (spares && ssize < offsetof(struct rcl_mfi_spare, array_ref) + 2) ||
	    off + lds * lsize + spares * ssize > len)
		return rcl_fail(
		    err, RCL_BAD_REPLY,
		    "foreign configuration %u is malformed: %zu arrays, %zu LDs and %zu "
		    "spares do not fit its %zu bytes",
		    index, arrays, lds, spares, len);
	for (size_t i = 0; !st && i < lds; i++, off += lsize) {
		struct rcl_mfi_ld_info ld;

		memset(&ld, 0, sizeof(ld));
		memcpy(&ld, buf + off, RCL_MFI_LD_CONFIG_SIZE);
		st = add_ld(ctrl, c, g, buf, &ld, err);
	}
	return st ? st : add_spares(ctrl, c, g, buf + off, spares, ssize, err);
}

/*
 * Every foreign configuration, each read with @opcode (DISPLAY: as it is;
 * PREVIEW: as the import makes it, its groups numbered after this
 * controller's).
 */
static enum rcl_status read_all(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                uint32_t opcode, struct rcl_foreign *out, struct rcl_error *err)
{
	struct rcl_mfi_foreign_scan scan;
	struct groups g = {.next_id = opcode == RCL_MFI_DCMD_FOREIGN_PREVIEW
	                                  ? (unsigned)rcl_ctrl_dg_count(ctrl)
	                                  : 0};
	enum rcl_status st;

	st = rcl_mfi_read_mbox(link, RCL_MFI_DCMD_FOREIGN_SCAN, NULL, RCL_MFI_PRESET_ZERO, &scan,
	                       sizeof(scan),
	                       "scanning for foreign configurations (CFG_FOREIGN_SCAN)", err);
	if (!st && le32toh(scan.count) > RCL_MFI_MAX_FOREIGN)
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the foreign scan (CFG_FOREIGN_SCAN) counts %u configurations; a "
		                "scan names at most %d",
		                le32toh(scan.count), RCL_MFI_MAX_FOREIGN);
	if (!st && scan.count &&
	    !(out->configs = rcl_calloc(le32toh(scan.count), sizeof(*out->configs))))
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	for (unsigned i = 0; !st && i < le32toh(scan.count); i++) {
		char what[96];
		uint8_t *buf;
		uint32_t len;

		snprintf(what, sizeof(what), "foreign configuration %u (%s)", i,
		         opcode == RCL_MFI_DCMD_FOREIGN_PREVIEW ? "CFG_FOREIGN_PREVIEW"
		                                                : "CFG_FOREIGN_DISPLAY");
		st = rcl_mfi_read_config_of(link, opcode, (uint8_t)i, what, &buf, &len, err);
		if (st)
			break;
		out->count = i + 1;
		set_owner(&out->configs[i], scan.guid[i], i);
		st = parse(ctrl, buf, len, i, &g, &out->configs[i], err);
		rcl_free(buf);
	}
	return st;
}

/* A DCMD with no data: @what, mailbox byte 0 @index. */
static enum rcl_status send(const struct rcl_mfi_link *link, uint32_t opcode, uint8_t index,
                            const char *what, struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {.opcode = opcode, .dir = RCL_MFI_DIR_NONE};

	d.mbox[0] = index;
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d, what, err);
}

/* How many members a span at @level can lose and keep its data. */
static unsigned tolerance(enum rcl_raid_level level)
{
	switch (level) {
	case RCL_RAID1:
	case RCL_RAID10:
	case RCL_RAID5:
	case RCL_RAID50:
		return 1;
	case RCL_RAID6:
	case RCL_RAID60:
		return 2;
	default:
		return 0;
	}
}

/* RCL_FOREIGN_INCOMPLETE when a span of @c lacks more members than its level can lose. */
static enum rcl_status check_complete(const struct rcl_foreign_config *c, struct rcl_error *err)
{
	for (size_t k = 0; k < c->dg_count; k++)
		for (unsigned s = 0; s < c->dgs[k].spans; s++) {
			unsigned lost = 0;

			for (size_t i = 0; i < c->drive_count; i++)
				lost += c->drives[i].role == RCL_PD_ONLINE &&
				        c->drives[i].dg == (int)c->dgs[k].id &&
				        c->drives[i].span == s && !c->drives[i].present;
			if (lost > tolerance(c->dgs[k].level))
				return rcl_fail(
				    err, RCL_FOREIGN_INCOMPLETE,
				    "foreign drive group %u (%s) lacks %u member%s of span "
				    "%u, more than it can lose: connect them before "
				    "importing",
				    c->dgs[k].id, rcl_raid_level_name(c->dgs[k].level), lost,
				    lost == 1 ? "" : "s", s);
		}
	return RCL_OK;
}

enum rcl_status rcl_mfi_foreign_show(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                     struct rcl_foreign *out, struct rcl_error *err)
{
	return read_all(ctrl, link, RCL_MFI_DCMD_FOREIGN_DISPLAY, out, err);
}

enum rcl_status rcl_mfi_foreign_import(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                       bool preview, bool bitmap, struct rcl_foreign *out,
                                       struct rcl_error *err)
{
	enum rcl_status st;

	/* The card's firmware imports its own configurations: there is no md array to change. */
	if (bitmap)
		return rcl_unsupported(err, ctrl->caps.kind, "bitmap= (an md write-intent bitmap)",
		                       NULL);
	st = read_all(ctrl, link, RCL_MFI_DCMD_FOREIGN_PREVIEW, out, err);
	if (!st && !out->count)
		st = rcl_foreign_none_found(ctrl, err);
	for (size_t i = 0; !st && i < out->count; i++)
		st = check_complete(&out->configs[i], err);
	if (!st && !preview)
		st = send(link, RCL_MFI_DCMD_FOREIGN_IMPORT, RCL_MFI_FOREIGN_ALL,
		          "importing the foreign configurations (CFG_FOREIGN_IMPORT)", err);
	return st;
}

enum rcl_status rcl_mfi_foreign_delete(const struct rcl_mfi_link *link, struct rcl_error *err)
{
	return send(link, RCL_MFI_DCMD_FOREIGN_CLEAR, 0,
	            "clearing the foreign configurations (CFG_FOREIGN_CLEAR)", err);
}
