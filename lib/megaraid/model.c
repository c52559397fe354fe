// SPDX-License-Identifier: MIT
/*
 * model.c - a MegaRAID adapter's configuration as raidcli's model: what
 * the firmware answers to CTRL_GET_INFO, CFG_READ, PD_GET_LIST and
 * PD_GET_INFO, LD_GET_LIST and LD_GET_INFO, mapped onto struct rcl_ctrl's
 * info, caps, enclosures, drives, disk groups and VDs (model.h); a drive
 * PD_GET_INFO does not tell of is asked itself (inquiry.h).
 *
 * StorCLI's disk group is the firmware's set of arrays one LD spans (a
 * RAID10 or 50 LD spans several arrays); every buffer is zeroed before it
 * is sent, because QEMU's model answers some DCMDs with success and no
 * data, and a reply is read only as far as its own counts say and the
 * buffer holds.
 */
#include <endian.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "megaraid/frame.h"
#include "megaraid/inquiry.h"
#include "megaraid/model.h"
#include "megaraid/scan.h"

/* The enclosure id of drives the firmware puts in no enclosure: the card's own backplane. */
#define BACKPLANE_ID 252
#define NO_ENCLOSURE 0xffff

/* PD_GET_LIST's scsi_dev_type of a disk (SCSI peripheral device type 0, direct access). */
#define SCSI_DISK 0

/* A drive's place in the configuration, from CFG_READ. */
struct member {
	uint16_t device_id;
	uint16_t fw_state;
	unsigned dg, span, row;
};

/* A drive group: the arrays its LDs span, named by the first, and its free extents on them. */
struct group {
	uint16_t ref;
	bool members_added;
	struct rcl_mfi_extent holes[RCL_MFI_MAX_HOLES];
	size_t hole_count;
};

/* What CFG_READ told: each member drive and the group of each array. */
struct config {
	struct member *members;
	size_t member_count;
	struct group *groups; /* in order of their first array's ref */
	size_t dg_count;
	unsigned ld_dg[256]; /* by LD target id: its group + 1 (0: not in the configuration) */
	size_t extra_dgs;    /* groups of LDs CFG_READ lacks */
	struct rcl_mfi_array *arrays;
	size_t array_count;
	struct {
		uint16_t device_id;
		bool dedicated;
	} spares[RCL_MFI_MAX_PDS];
	size_t spare_count;
};

static void config_release(struct config *c)
{
	rcl_free(c->members);
	rcl_free(c->groups);
	rcl_free(c->arrays);
	memset(c, 0, sizeof(*c));
}

void rcl_mfi_copy_text(char *dst, size_t size, const void *src, size_t n)
{
	const char *s = src;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\0'))
		n--;
	while (n && *s == ' ') {
		s++;
		n--;
	}
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* One element's size in a CFG_READ section of @count elements, from the header's @field. */
static size_t element_size(size_t field, size_t count, size_t least)
{
	/*
	 * Firmware gives one element's size; QEMU's model gives the whole
	 * section's, which holds @count elements of at least @least bytes (a
	 * test of the room left would misread a section of few elements
	 * before one of many).
	 */
	return count > 1 && field >= count * least ? field / count : field;
}

/* The array whose ref is @ref, or NULL. */
static const struct rcl_mfi_array *find_array(const struct config *c, uint16_t ref)
{
	for (size_t i = 0; i < c->array_count; i++)
		if (le16toh(c->arrays[i].array_ref) == ref)
			return &c->arrays[i];
	return NULL;
}

/* Put the drives of the arrays @ld (an LD configuration) spans into group @dg. */
static enum rcl_status add_members(struct config *c, const struct rcl_mfi_ld_info *ld, unsigned dg,
                                   struct rcl_error *err)
{
	unsigned depth = ld->span_depth ? ld->span_depth : 1;

	for (unsigned s = 0; s < depth && s < 8; s++) {
		const struct rcl_mfi_array *a = find_array(c, le16toh(ld->span[s].array_ref));

		for (unsigned r = 0; a && r < a->num_drives && r < 32; r++) {
			struct member *m;

			if (le16toh(a->pd[r].device_id) == 0xffff)
				continue;
			m = rcl_realloc(c->members, (c->member_count + 1) * sizeof(*m));
			if (!m)
				return rcl_fail(err, RCL_NOMEM, "out of memory");
			c->members = m;
			c->members[c->member_count++] = (struct member){
			    .device_id = le16toh(a->pd[r].device_id),
			    .fw_state = le16toh(a->pd[r].fw_state),
			    .dg = dg,
			    .span = s,
			    .row = r,
			};
		}
	}
	return RCL_OK;
}

/* The hot spares after the LDs (@room bytes at @p): which drives, and whether dedicated. */
static enum rcl_status parse_spares(struct config *c, const uint8_t *p, size_t room,
                                    const struct rcl_mfi_config *h, struct rcl_error *err)
{
	size_t count = le16toh(h->spare_count);
	size_t size = element_size(le16toh(h->spare_size), count, sizeof(struct rcl_mfi_spare));

	if (count && (size < offsetof(struct rcl_mfi_spare, array_ref) || count * size > room ||
	              count > RCL_MFI_MAX_PDS))
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the configuration (CFG_READ) is truncated: %zu spares", count);
	for (size_t i = 0; i < count; i++) {
		const struct rcl_mfi_spare *s = (const void *)(p + i * size);

		c->spares[i].device_id = le16toh(s->device_id);
		c->spares[i].dedicated = s->spare_type & RCL_MFI_SPARE_DEDICATED;
	}
	c->spare_count = count;
	return RCL_OK;
}

/* LD configuration @i of the @lsize-byte ones at @p, whole. */
static void copy_ld(struct rcl_mfi_ld_info *ld, const uint8_t *p, size_t lsize, size_t i)
{
	memset(ld, 0, sizeof(*ld));
	memcpy(ld, p + i * lsize, RCL_MFI_LD_CONFIG_SIZE);
}

/* Group @ref's index in @c (kept in order of ref), added if new. */
static size_t group_index(struct config *c, uint16_t ref)
{
	size_t k = 0;

	while (k < c->dg_count && c->groups[k].ref < ref)
		k++;
	if (k < c->dg_count && c->groups[k].ref == ref)
		return k;
	memmove(&c->groups[k + 1], &c->groups[k], (c->dg_count - k) * sizeof(c->groups[0]));
	c->groups[k] = (struct group){.ref = ref};
	c->dg_count++;
	return k;
}

/*
 * The groups: one per distinct first array of the LDs, numbered in the
 * order of those arrays' refs as StorCLI numbers them (not CFG_READ's
 * order: QEMU lists its disks last to first), then their members and
 * free extents.
 */
static enum rcl_status parse_config(struct config *c, const uint8_t *buf, size_t len,
                                    struct rcl_error *err)
{
	const struct rcl_mfi_config *h = (const void *)buf;
	size_t arrays = le16toh(h->array_count), lds = le16toh(h->ld_count);
	size_t room = len - sizeof(*h);
	size_t asize = element_size(le16toh(h->array_size), arrays, sizeof(struct rcl_mfi_array));
	size_t lsize, off = sizeof(*h);
	struct rcl_mfi_ld_info ld;
	enum rcl_status st = RCL_OK;

	if (arrays && asize < sizeof(struct rcl_mfi_array))
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the configuration (CFG_READ) is malformed: "
		                "arrays of %zu bytes",
		                asize);
	if (arrays * asize > room)
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the configuration (CFG_READ) is truncated: %zu arrays", arrays);
	c->arrays = rcl_calloc(arrays ? arrays : 1, sizeof(*c->arrays));
	c->groups = rcl_calloc(lds ? lds : 1, sizeof(*c->groups));
	if (!c->arrays || !c->groups)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < arrays; i++, off += asize)
		memcpy(&c->arrays[i], buf + off, sizeof(c->arrays[i]));
	c->array_count = arrays;
	lsize = element_size(le16toh(h->ld_size), lds, RCL_MFI_LD_CONFIG_SIZE);
	if (lds && (lsize < RCL_MFI_LD_CONFIG_SIZE || lds * lsize > len - off))
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the configuration (CFG_READ) is truncated: %zu LDs", lds);
	for (size_t i = 0; i < lds; i++) {
		copy_ld(&ld, buf + off, lsize, i);
		group_index(c, le16toh(ld.span[0].array_ref));
	}
	for (size_t i = 0; !st && i < lds; i++) {
		size_t dg;

		copy_ld(&ld, buf + off, lsize, i);
		dg = group_index(c, le16toh(ld.span[0].array_ref));
		c->ld_dg[ld.target_id] = (unsigned)dg + 1;
		if (!c->groups[dg].members_added)
			st = add_members(c, &ld, (unsigned)dg, err);
		c->groups[dg].members_added = true;
	}
	for (size_t k = 0; k < c->dg_count; k++) {
		struct group *g = &c->groups[k];
		const struct rcl_mfi_array *a = find_array(c, g->ref);

		g->hole_count =
		    a ? rcl_mfi_array_holes(buf, (uint32_t)len, g->ref, le64toh(a->blocks),
		                            g->holes, RCL_MFI_MAX_HOLES)
		      : 0;
	}
	off += lds * lsize;
	return st ? st : parse_spares(c, buf + off, len - off, h, err);
}

static enum rcl_status read_config(const struct rcl_mfi_link *link, struct config *c,
                                   struct rcl_error *err)
{
	uint8_t *buf;
	uint32_t size;
	enum rcl_status st = rcl_mfi_read_config(link, &buf, &size, err);

	if (st)
		return st;
	st = parse_config(c, buf, size, err);
	rcl_free(buf);
	return st;
}

static enum rcl_pd_state pd_state(uint16_t fw_state)
{
	switch (fw_state) {
	case RCL_MFI_PD_UNCONFIGURED_GOOD:
		return RCL_PD_UGOOD;
	case RCL_MFI_PD_HOT_SPARE:
		return RCL_PD_GHS;
	case RCL_MFI_PD_OFFLINE:
		return RCL_PD_OFFLINE;
	case RCL_MFI_PD_REBUILD:
		return RCL_PD_REBUILD;
	case RCL_MFI_PD_ONLINE:
	case RCL_MFI_PD_COPYBACK:
		return RCL_PD_ONLINE;
	case RCL_MFI_PD_SYSTEM:
		return RCL_PD_JBOD;
	default: /* UNCONFIGURED_BAD, FAILED, and what raidcli does not know */
		return RCL_PD_UBAD;
	}
}

static const char *speed_name(uint8_t code)
{
	static const char *const names[] = {"",        "1.5Gb/s",  "3.0Gb/s",
	                                    "6.0Gb/s", "12.0Gb/s", "22.5Gb/s"};

	return code < sizeof(names) / sizeof(names[0]) ? names[code] : "";
}

/* Drive @d's firmware device id and first SAS address, also among its backend facts. */
static void add_attrs(struct rcl_drive *d, uint16_t id, uint64_t sas_addr)
{
	snprintf(d->attrs[0].key, sizeof(d->attrs[0].key), "Device Id");
	snprintf(d->attrs[0].value, sizeof(d->attrs[0].value), "%u", id);
	snprintf(d->sas_address, sizeof(d->sas_address), "0x%016llx", (unsigned long long)sas_addr);
	snprintf(d->attrs[1].key, sizeof(d->attrs[1].key), "SAS Address");
	snprintf(d->attrs[1].value, sizeof(d->attrs[1].value), "%s", d->sas_address);
	d->attr_count = 2;
}

/* StorCLI's "Med" of PD_GET_INFO's media type: a flash module is solid state too. */
static const char *medium_name(uint8_t media_type)
{
	return media_type == RCL_MFI_MEDIA_SSD || media_type == RCL_MFI_MEDIA_SSM_FLASH ? "SSD"
	                                                                                : "HDD";
}

/* What PD_GET_INFO @pi says of drive @d. */
static void fill_pd_info(struct rcl_drive *d, const struct rcl_mfi_pd_info *pi)
{
	uint16_t ddf = le16toh(pi->ddf_type);

	d->state = pd_state(le16toh(pi->fw_state));
	d->raw_bytes = le64toh(pi->raw_blocks) * 512;
	d->coerced_bytes = le64toh(pi->coerced_blocks) * 512;
	rcl_mfi_fill_inquiry(d, pi->inquiry);
	snprintf(d->interface, sizeof(d->interface), "%s",
	         ddf & 0xc000   ? "SATA"
	         : ddf & 0x2000 ? "SAS"
	                        : "SCSI");
	d->media_errors = le32toh(pi->media_errors);
	d->other_errors = le32toh(pi->other_errors);
	d->predictive_failures = le32toh(pi->pred_fail_count);
	d->temperature_c = pi->temperature;
	d->smart_alert = d->predictive_failures != 0;
	d->has_sequence = true;
	d->sequence = le16toh(pi->seq_num);
	d->last_pred_fail_seq = le32toh(pi->last_pred_fail_seq);
	snprintf(d->medium, sizeof(d->medium), "%s", medium_name(pi->media_type));
	snprintf(d->device_speed, sizeof(d->device_speed), "%s", speed_name(pi->device_speed));
	snprintf(d->link_speed, sizeof(d->link_speed), "%s", speed_name(pi->link_speed));
}

/*
 * Whether failure @why of a question about one drive is the firmware's
 * answer (its status in @why's detail, rcl_mfi_fail()), not the ioctl's or
 * the host's: the drive, not the adapter, could not tell.
 */
static bool drive_refused(const struct rcl_error *why)
{
	return why->detail[0] != '\0';
}

/* The adapter's failure @why, for the caller (the firmware's status stays in its detail). */
static enum rcl_status adapter_failed(struct rcl_error *err, const struct rcl_error *why)
{
	if (err)
		*err = *why;
	return why->status;
}

/*
 * One drive of PD_GET_LIST's entry @e, its configuration place from @c.
 * A drive the firmware cannot tell of keeps what the list and the
 * configuration say (the rest empty: NA), so one failed drive does not
 * hide the controller; *@gone tells one neither PD_GET_INFO nor the
 * drive itself finds (pulled since the list was read: it is left out).
 * Return: RCL_OK, or the adapter's failure.
 */
static enum rcl_status fill_drive(const struct rcl_mfi_asker *a, const struct config *c,
                                  const struct rcl_mfi_pd_address *e, struct rcl_drive *d,
                                  bool *gone, struct rcl_error *err)
{
	uint16_t id = le16toh(e->device_id), encl = le16toh(e->encl_device_id);
	struct rcl_mfi_pd_info pi;
	struct rcl_error why = {0};
	char what[64];
	enum rcl_pd_state unconfigured = RCL_PD_UGOOD; /* of a drive in no group */
	enum rcl_status st;

	d->device_id = id;
	d->enclosure = encl == NO_ENCLOSURE ? BACKPLANE_ID : encl;
	d->slot = e->slot;
	d->dg = -1;
	d->kind = RCL_DRIVE_BLOCK;
	d->present = true;
	d->logical_sector = d->physical_sector = 512;
	snprintf(d->medium, sizeof(d->medium), "HDD");
	for (size_t i = 0; i < c->member_count; i++)
		if (c->members[i].device_id == id) {
			d->dg = (int)c->members[i].dg;
			d->span = c->members[i].span;
			d->row = c->members[i].row;
			d->state = pd_state(c->members[i].fw_state);
		}
	for (size_t i = 0; i < c->spare_count; i++)
		if (c->spares[i].device_id == id)
			unconfigured = c->spares[i].dedicated ? RCL_PD_DHS : RCL_PD_GHS;
	add_attrs(d, id, le64toh(e->sas_addr[0]));
	snprintf(what, sizeof(what), "the drive info of device %u (PD_GET_INFO)", id);
	st = rcl_mfi_read_mbox(a->link, RCL_MFI_DCMD_PD_GET_INFO, RCL_MFI_MBOX_U16(id),
	                       RCL_MFI_PRESET_ZERO, &pi, sizeof(pi), what, &why);
	if (st && !drive_refused(&why))
		return adapter_failed(err, &why);
	if (!st && le16toh(pi.device_id) == id) {
		enum rcl_pd_state member = d->state;

		fill_pd_info(d, &pi);
		/*
		 * Peripheral qualifier 3, no device: the firmware holds no
		 * INQUIRY of the drive (QEMU's model, which then calls it
		 * offline). Its sizes and speeds stand; the drive answers for
		 * itself, and the configuration gives its state.
		 */
		if (pi.inquiry[0] >> 5 == 3) {
			d->state = d->dg >= 0 ? member : unconfigured;
			st = rcl_mfi_ask_inquiry(a, d, id, &why);
			return st && !drive_refused(&why) ? adapter_failed(err, &why) : RCL_OK;
		}
		if (d->dg >= 0 && d->state == RCL_PD_UBAD)
			d->state = member;
		/* HOT_SPARE is either kind: CFG_READ's spares say which. */
		if (d->state == RCL_PD_GHS && unconfigured == RCL_PD_DHS)
			d->state = RCL_PD_DHS;
		return RCL_OK;
	}
	if (d->dg < 0)
		d->state = unconfigured;
	st = rcl_mfi_ask_drive(a, d, id, &why);
	if (st && !drive_refused(&why))
		return adapter_failed(err, &why);
	*gone = st == RCL_NOT_FOUND;
	return RCL_OK;
}

/*
 * PD_GET_LIST, then each drive. A PD that is no disk (an enclosure's SES
 * processor, an expander) is no drive, as FreeBSD's mfiutil has it;
 * fill_enclosures() builds the enclosures from the drives alone.
 */
static enum rcl_status read_drives(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                   const struct config *c, struct rcl_error *err)
{
	uint32_t len =
	    sizeof(struct rcl_mfi_pd_list) + RCL_MFI_MAX_PDS * sizeof(struct rcl_mfi_pd_address);
	struct rcl_mfi_pd_list *list = rcl_malloc(len);
	const struct rcl_mfi_asker a = {.link = link, .qemu = rcl_mfi_is_qemu(&ctrl->info)};
	enum rcl_status st;
	size_t count;

	if (!list)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_mfi_read_mbox(link, RCL_MFI_DCMD_PD_GET_LIST, NULL, RCL_MFI_PRESET_ZERO, list, len,
	                       "listing the drives (PD_GET_LIST)", err);
	count = st ? 0 : le32toh(list->count);
	if (!st && count > (len - sizeof(*list)) / sizeof(list->addr[0]))
		st = rcl_fail(err, RCL_BAD_REPLY, "the drive list (PD_GET_LIST) counts %zu drives",
		              count);
	if (!st)
		ctrl->drives = rcl_calloc(count ? count : 1, sizeof(*ctrl->drives));
	if (!st && !ctrl->drives)
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; !st && i < count; i++) {
		struct rcl_drive *d = &ctrl->drives[ctrl->drive_count];
		bool gone = false;

		if (list->addr[i].scsi_dev_type != SCSI_DISK)
			continue;
		st = fill_drive(&a, c, &list->addr[i], d, &gone, err);
		if (gone)
			memset(d, 0, sizeof(*d));
		else
			ctrl->drive_count++;
	}
	rcl_free(list);
	return st;
}

/* The model's orders: drives by enclosure and slot, enclosures by id (the firmware's is its own).
 */
static int by_place(const void *a, const void *b)
{
	const struct rcl_drive *x = a, *y = b;

	if (x->enclosure != y->enclosure)
		return (x->enclosure > y->enclosure) - (x->enclosure < y->enclosure);
	return (x->slot > y->slot) - (x->slot < y->slot);
}

static int by_id(const void *a, const void *b)
{
	const struct rcl_enclosure *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The enclosures the drives are in, each as many slots as its highest one needs. */
static enum rcl_status fill_enclosures(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	ctrl->enclosures =
	    rcl_calloc(ctrl->drive_count ? ctrl->drive_count : 1, sizeof(*ctrl->enclosures));
	if (!ctrl->enclosures)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < ctrl->drive_count; i++) {
		const struct rcl_drive *d = &ctrl->drives[i];
		struct rcl_enclosure *e = NULL;

		for (size_t j = 0; j < ctrl->enclosure_count && !e; j++)
			if (ctrl->enclosures[j].id == d->enclosure)
				e = &ctrl->enclosures[j];
		if (!e) {
			e = &ctrl->enclosures[ctrl->enclosure_count++];
			e->id = d->enclosure;
			snprintf(e->product, sizeof(e->product), "%s",
			         d->enclosure == BACKPLANE_ID ? "Backplane" : "Enclosure");
		}
		if (d->slot + 1 > e->slots)
			e->slots = d->slot + 1;
	}
	qsort(ctrl->drives, ctrl->drive_count, sizeof(*ctrl->drives), by_place);
	qsort(ctrl->enclosures, ctrl->enclosure_count, sizeof(*ctrl->enclosures), by_id);
	return RCL_OK;
}

static enum rcl_raid_level level_of(const struct rcl_mfi_ld_info *ld, unsigned spans)
{
	switch (ld->primary_level) {
	case 1:
		return spans > 1 ? RCL_RAID10 : RCL_RAID1;
	case 5:
		return spans > 1 ? RCL_RAID50 : RCL_RAID5;
	case 6:
		return spans > 1 ? RCL_RAID60 : RCL_RAID6;
	default:
		return spans > 1 ? RCL_RAID00 : RCL_RAID0;
	}
}

static enum rcl_vd_state vd_state(uint8_t state)
{
	switch (state) {
	case RCL_MFI_LD_OPTIMAL:
		return RCL_VD_OPTIMAL;
	case RCL_MFI_LD_PARTIALLY_DEGRADED:
		return RCL_VD_PARTIALLY_DEGRADED;
	case RCL_MFI_LD_DEGRADED:
		return RCL_VD_DEGRADED;
	default:
		return RCL_VD_OFFLINE;
	}
}

void rcl_mfi_fill_vd(struct rcl_vd *v, const struct rcl_mfi_ld_info *ld, unsigned dg)
{
	static const enum rcl_access_policy access[] = {RCL_ACCESS_RW, RCL_ACCESS_RW, RCL_ACCESS_RO,
	                                                RCL_ACCESS_BLOCKED};
	uint8_t cache = ld->current_cache;

	v->id = ld->target_id;
	v->dg = dg;
	v->spans = ld->span_depth ? ld->span_depth : 1;
	v->drives_per_span = ld->num_drives;
	v->level = level_of(ld, v->spans);
	v->state = vd_state(ld->state);
	rcl_mfi_copy_text(v->name, sizeof(v->name), ld->name, sizeof(ld->name));
	v->bytes = le64toh(ld->blocks) * 512;
	v->strip_kib = v->level == RCL_RAID1 ? 0 : rcl_mfi_strip_kib(ld->stripe_size);
	v->write = !(cache & RCL_MFI_LD_CACHE_WRITE_BACK) ? RCL_WRITE_THROUGH
	           : cache & RCL_MFI_LD_CACHE_BAD_BBU     ? RCL_WRITE_BACK_ALWAYS
	                                                  : RCL_WRITE_BACK;
	v->read = cache & RCL_MFI_LD_CACHE_READ_AHEAD ? RCL_READ_AHEAD : RCL_NO_READ_AHEAD;
	v->io = cache & RCL_MFI_LD_CACHE_CACHED_IO ? RCL_IO_CACHED : RCL_IO_DIRECT;
	v->access = access[ld->access & 3];
	v->disk_cache = ld->disk_cache == 1   ? RCL_DISK_CACHE_ON
	                : ld->disk_cache == 2 ? RCL_DISK_CACHE_OFF
	                                      : RCL_DISK_CACHE_DEFAULT;
	v->consistent = ld->consistent;
	v->autobgi = !ld->no_bgi;
}

/*
 * The group of LD @target, as CFG_READ places it (by target id: QEMU's
 * LD_GET_INFO names another array than its CFG_READ); an LD the
 * configuration lacks gets a group of its own, after CFG_READ's.
 */
static unsigned group_of(struct config *c, uint8_t target)
{
	if (!c->ld_dg[target])
		c->ld_dg[target] = (unsigned)++c->extra_dgs + (unsigned)c->dg_count;
	return c->ld_dg[target] - 1;
}

/* LD_GET_LIST, then each LD. */
static enum rcl_status read_vds(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                struct config *c, struct rcl_error *err)
{
	struct rcl_mfi_ld_list list;
	struct rcl_mfi_ld_info ld;
	char what[64];
	enum rcl_status st;
	size_t count;

	st = rcl_mfi_read_mbox(link, RCL_MFI_DCMD_LD_GET_LIST, NULL, RCL_MFI_PRESET_ZERO, &list,
	                       sizeof(list), "listing the virtual drives (LD_GET_LIST)", err);
	if (st)
		return st;
	count = le32toh(list.count);
	if (count > RCL_MFI_MAX_LD)
		return rcl_fail(err, RCL_BAD_REPLY,
		                "the virtual drive list (LD_GET_LIST) counts %zu drives", count);
	ctrl->vds = rcl_calloc(count ? count : 1, sizeof(*ctrl->vds));
	if (!ctrl->vds)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; !st && i < count; i++) {
		uint8_t target = list.ld[i].target_id;

		snprintf(what, sizeof(what), "the info of virtual drive %u (LD_GET_INFO)", target);
		st = rcl_mfi_read_mbox(link, RCL_MFI_DCMD_LD_GET_INFO, RCL_MFI_MBOX_U16(target),
		                       RCL_MFI_PRESET_ZERO, &ld, sizeof(ld), what, err);
		if (!st && ld.target_id != target)
			st = rcl_fail(err, RCL_BAD_REPLY, "%s answered for virtual drive %u", what,
			              ld.target_id);
		if (!st) {
			rcl_mfi_fill_vd(&ctrl->vds[i], &ld, group_of(c, target));
			ctrl->vd_count = i + 1;
		}
	}
	return st;
}

/* @g's free extents in host capacity (holes deleted VDs left, then the end), from @cg's. */
static void fill_free(struct rcl_dg *g, const struct group *cg)
{
	uint64_t per_block =
	    512 * (uint64_t)rcl_raid_span_data_drives(g->level, g->drives_per_span) * g->spans;

	g->free_bytes = 0;
	g->free_extent_count = 0;
	for (size_t k = 0; cg && k < cg->hole_count; k++) {
		uint64_t bytes = cg->holes[k].blocks * per_block;

		g->free_extents[g->free_extent_count++] = bytes;
		if (bytes > g->free_bytes)
			g->free_bytes = bytes;
	}
}

/* The groups the VDs are on: shape, level and state (the worst of their VDs). */
static enum rcl_status fill_dgs(struct rcl_ctrl *ctrl, const struct config *c,
                                struct rcl_error *err)
{
	size_t n = 0;

	for (size_t i = 0; i < ctrl->vd_count; i++)
		if (ctrl->vds[i].dg + 1 > n)
			n = ctrl->vds[i].dg + 1;
	ctrl->dgs = rcl_calloc(n ? n : 1, sizeof(*ctrl->dgs));
	if (!ctrl->dgs)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < ctrl->vd_count; i++) {
		const struct rcl_vd *v = &ctrl->vds[i];
		struct rcl_dg *g = &ctrl->dgs[v->dg];
		const struct group *cg = v->dg < c->dg_count ? &c->groups[v->dg] : NULL;
		const struct rcl_mfi_array *a = cg ? find_array(c, cg->ref) : NULL;

		if (!g->vd_count || v->state > g->state)
			g->state = v->state;
		g->id = v->dg;
		g->level = v->level;
		g->spans = v->spans;
		g->drives_per_span = v->drives_per_span;
		g->vd_count++;
		g->member_bytes = a ? le64toh(a->blocks) * 512 : 0;
		fill_free(g, cg);
		for (unsigned s = 0; s < g->spans && s < RCL_MAX_SPANS; s++)
			g->span_states[s] = g->state;
	}
	/* A group no VD is on (CFG_READ's arrays without LDs) is not shown. */
	for (size_t i = 0; i < n; i++)
		if (ctrl->dgs[i].vd_count)
			ctrl->dgs[ctrl->dg_count++] = ctrl->dgs[i];
	return RCL_OK;
}

enum rcl_status rcl_mfi_load_model(struct rcl_ctrl *ctrl, const struct rcl_mfi_link *link,
                                   struct rcl_ctrl_settings *settings, struct rcl_error *err)
{
	struct rcl_mfi_ctrl_info *ci = rcl_malloc(sizeof(*ci));
	struct config c = {0};
	enum rcl_status st;

	if (!ci)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_mfi_read_mbox(link, RCL_MFI_DCMD_CTRL_GET_INFO, NULL, RCL_MFI_PRESET_ZERO, ci,
	                       sizeof(*ci), "reading the controller info (CTRL_GET_INFO)", err);
	if (!st) {
		rcl_mfi_fill_ctrl(ctrl, settings, ci);
		rcl_mfi_pci_address(link->host_no, ctrl->info.pci_address,
		                    sizeof(ctrl->info.pci_address));
	}
	rcl_free(ci);
	if (!st)
		st = read_config(link, &c, err);
	if (!st)
		st = read_drives(ctrl, link, &c, err);
	if (!st)
		st = fill_enclosures(ctrl, err);
	if (!st)
		st = read_vds(ctrl, link, &c, err);
	if (!st)
		st = fill_dgs(ctrl, &c, err);
	config_release(&c);
	return st;
}
