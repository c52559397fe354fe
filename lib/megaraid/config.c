// SPDX-License-Identifier: MIT
/*
 * config.c - a MegaRAID adapter's configuration (config.h): read whole
 * (CFG_READ, for model.c and for the changes), a VD made (CFG_ADD) or
 * deleted (LD_DELETE), hot spares. The payloads are built in mfi.h's
 * layouts, little-endian, from the model the generic layer has already
 * checked the request against.
 */
#include <endian.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "megaraid/config.h"
#include "megaraid/frame.h"

/* The most spans one LD has (its configuration's span table). */
#define MAX_LD_SPANS 8

/* A DCMD with no data, its mailbox two u16s: @lo (a device or target id) and @hi. */
static enum rcl_status dcmd_mbox(const struct rcl_mfi_link *link, uint32_t opcode, uint16_t lo,
                                 uint16_t hi, const char *what, struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {.opcode = opcode, .dir = RCL_MFI_DIR_NONE};

	d.mbox[0] = (uint8_t)lo;
	d.mbox[1] = (uint8_t)(lo >> 8);
	d.mbox[2] = (uint8_t)hi;
	d.mbox[3] = (uint8_t)(hi >> 8);
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d, what, err);
}

/* A DCMD writing @len bytes of @buf, the mailbox empty. */
static enum rcl_status dcmd_write(const struct rcl_mfi_link *link, uint32_t opcode, void *buf,
                                  uint32_t len, const char *what, struct rcl_error *err)
{
	struct rcl_mfi_dcmd d = {
	    .opcode = opcode, .buf = buf, .len = len, .dir = RCL_MFI_DIR_WRITE};

	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d, what, err);
}

/* The largest configuration CFG_READ returns that raidcli reads. */
#define CONFIG_MAX (256u << 10)

/*
 * Its header first for the size, then the whole, each read with mailbox
 * byte 0 @index and preset to zeros. QEMU's model refuses more than 4096
 * bytes for CFG_READ, and sends the header as far as it fits.
 */
enum rcl_status rcl_mfi_read_config_of(const struct rcl_mfi_link *link, uint32_t opcode,
                                       uint8_t index, const char *what, uint8_t **out,
                                       uint32_t *len, struct rcl_error *err)
{
	struct rcl_mfi_config h;
	uint32_t size;
	enum rcl_status st;

	st = rcl_mfi_read_mbox(link, opcode, RCL_MFI_MBOX_U16(index), RCL_MFI_PRESET_ZERO, &h,
	                       sizeof(h), what, err);
	if (st)
		return st;
	size = le32toh(h.size);
	if (size < sizeof(h))
		size = sizeof(h);
	if (size > CONFIG_MAX)
		return rcl_fail(err, RCL_BAD_REPLY, "%s: too large: %u bytes", what, size);
	*out = rcl_malloc(size);
	if (!*out)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	*len = size;
	st = rcl_mfi_read_mbox(link, opcode, RCL_MFI_MBOX_U16(index), RCL_MFI_PRESET_ZERO, *out,
	                       size, what, err);
	if (st) {
		rcl_free(*out);
		*out = NULL;
	}
	return st;
}

enum rcl_status rcl_mfi_read_config(const struct rcl_mfi_link *link, uint8_t **out, uint32_t *len,
                                    struct rcl_error *err)
{
	return rcl_mfi_read_config_of(link, RCL_MFI_DCMD_CFG_READ, 0, "reading the configuration",
	                              out, len, err);
}

/*
 * The MFI primary RAID level and its qualifier (DDF's: parity rotating,
 * data continued); over @spans arrays, the secondary level 3 that makes
 * RAID1, 5 or 6 RAID10, 50 or 60 (DDF's spanned; FreeBSD's mfiutil sets
 * it so, and MegaCLI shows RAID10 as Primary-1, Secondary-3).
 */
static void level_params(enum rcl_raid_level level, unsigned spans, struct rcl_mfi_ld_info *ld)
{
	ld->secondary_level = spans > 1 ? 3 : 0;
	switch (level) {
	case RCL_RAID1:
	case RCL_RAID10:
		ld->primary_level = 1;
		break;
	case RCL_RAID5:
	case RCL_RAID50:
		ld->primary_level = 5;
		ld->level_qualifier = 3;
		break;
	case RCL_RAID6:
	case RCL_RAID60:
		ld->primary_level = 6;
		ld->level_qualifier = 3;
		break;
	default:
		ld->primary_level = 0;
		break;
	}
}

/* How many of a span's @n drives hold data at @level. */
unsigned rcl_mfi_data_drives(enum rcl_raid_level level, unsigned n)
{
	switch (level) {
	case RCL_RAID1:
	case RCL_RAID10:
		return n / 2;
	case RCL_RAID5:
	case RCL_RAID50:
		return n - 1;
	case RCL_RAID6:
	case RCL_RAID60:
		return n - 2;
	default:
		return n;
	}
}

/*
 * The cache policy bits of @params. The LD's writes may always use the
 * controller's cache (ALLOW_WRITE_CACHE, as mfiutil creates an LD): write
 * back or through then says when a write completes; "cached" lets its
 * reads use the cache too.
 */
static uint8_t cache_bits(const struct rcl_vd_params *params)
{
	uint8_t bits = RCL_MFI_LD_CACHE_ALLOW_WRITE;

	if (params->write != RCL_WRITE_THROUGH)
		bits |= RCL_MFI_LD_CACHE_WRITE_BACK;
	if (params->write == RCL_WRITE_BACK_ALWAYS)
		bits |= RCL_MFI_LD_CACHE_BAD_BBU;
	if (params->read == RCL_READ_AHEAD)
		bits |= RCL_MFI_LD_CACHE_READ_AHEAD;
	if (params->io == RCL_IO_CACHED)
		bits |= RCL_MFI_LD_CACHE_CACHED_IO;
	return bits;
}

/* log2 of @kib KiB in 512-byte blocks. */
static uint8_t strip_exp(unsigned kib)
{
	uint8_t exp = 0;

	for (unsigned blocks = kib * 2; blocks > 1; blocks >>= 1)
		exp++;
	return exp;
}

/* The array refs CFG_READ already uses, as a bitmap of @used (65536 bits). */
static enum rcl_status used_refs(const struct rcl_mfi_link *link, uint8_t *used,
                                 struct rcl_error *err)
{
	uint8_t *buf;
	uint32_t len;
	const struct rcl_mfi_array *a;
	enum rcl_status st = rcl_mfi_read_config(link, &buf, &len, err);

	if (st)
		return st;
	for (size_t i = 0; (a = rcl_mfi_config_array(buf, len, i)); i++) {
		uint16_t ref = le16toh(a->array_ref);

		used[ref / 8] |= (uint8_t)(1u << ref % 8);
	}
	rcl_free(buf);
	return RCL_OK;
}

/*
 * Fill @a, the array of span @s: its drives from @params, @blocks of each,
 * each named by its current reference (device id and sequence number) and
 * placed where the card says it is (its enclosure index, as PD_GET_INFO
 * gives it; the rows left empty 0xff, as QEMU's CFG_READ has them).
 */
static enum rcl_status fill_array(const struct rcl_mfi_link *link, struct rcl_mfi_array *a,
                                  const struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                  unsigned s, uint64_t blocks, uint16_t ref, struct rcl_error *err)
{
	unsigned n = params->drives_per_span;
	enum rcl_status st = RCL_OK;

	memset(a->pd, 0xff, sizeof(a->pd));
	a->blocks = htole64(blocks);
	a->num_drives = (uint8_t)n;
	a->array_ref = htole16(ref);
	for (unsigned r = 0; !st && r < n; r++) {
		const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, &params->drives[s * n + r]);
		struct rcl_mfi_pd_ref now;

		st = rcl_mfi_pd_ref(link, (uint16_t)d->device_id, &now, err);
		a->pd[r].device_id = htole16((uint16_t)d->device_id);
		a->pd[r].seq_num = htole16(now.seq);
		a->pd[r].fw_state = htole16(RCL_MFI_PD_ONLINE);
		a->pd[r].encl_index = now.encl_index;
		a->pd[r].slot = (uint8_t)d->slot;
	}
	return st;
}

/* The size of the smallest member, in 512-byte blocks. */
static uint64_t member_blocks(const struct rcl_ctrl *ctrl, const struct rcl_vd_params *params)
{
	uint64_t least = UINT64_MAX;

	for (size_t i = 0; i < params->drive_count; i++) {
		const struct rcl_drive *d = rcl_ctrl_find_drive(ctrl, &params->drives[i]);
		uint64_t bytes = d->coerced_bytes ? d->coerced_bytes : d->raw_bytes;

		if (bytes / 512 < least)
			least = bytes / 512;
	}
	return least;
}

/* The first target id no VD of @ctrl has. */
static unsigned free_target(const struct rcl_ctrl *ctrl)
{
	unsigned t = 0;

	while (t < RCL_MFI_MAX_LD && rcl_ctrl_vd_by_id(ctrl, t))
		t++;
	return t;
}

/*
 * The LD configuration of @params, on arrays @refs, each member giving
 * @blocks from block @start on.
 */
static void fill_ld(struct rcl_mfi_ld_info *ld, const struct rcl_vd_params *params, unsigned target,
                    const uint16_t *refs, uint64_t start, uint64_t blocks)
{
	unsigned spans = (unsigned)(params->drive_count / params->drives_per_span);

	ld->target_id = (uint8_t)target;
	if (params->name)
		memcpy(ld->name, params->name, strnlen(params->name, sizeof(ld->name)));
	ld->default_cache = ld->current_cache = cache_bits(params);
	ld->disk_cache = params->disk_cache == RCL_DISK_CACHE_ON    ? 1
	                 : params->disk_cache == RCL_DISK_CACHE_OFF ? 2
	                                                            : 0;
	level_params(params->level, spans, ld);
	ld->stripe_size = strip_exp(params->strip_kib);
	ld->num_drives = (uint8_t)params->drives_per_span;
	ld->span_depth = (uint8_t)spans;
	ld->state = RCL_MFI_LD_OPTIMAL;
	for (unsigned s = 0; s < spans; s++) {
		ld->span[s].start_block = htole64(start);
		ld->span[s].blocks = htole64(blocks);
		ld->span[s].array_ref = htole16(refs[s]);
	}
}

/* The CFG_ADD payload: header, @spans arrays, one LD configuration. */
struct add_payload {
	struct rcl_mfi_config h;
	struct rcl_mfi_array arrays[MAX_LD_SPANS];
	uint8_t ld[RCL_MFI_LD_CONFIG_SIZE];
};

/* The blocks of each member @params->bytes needs (0: all there is). */
static uint64_t want_blocks(const struct rcl_vd_params *params, unsigned spans)
{
	uint64_t data =
	    (uint64_t)rcl_mfi_data_drives(params->level, params->drives_per_span) * spans;

	return (params->bytes + data * 512 - 1) / (data * 512);
}

/* Each member's share of the VD: all of the @room blocks it has, or what @params->bytes needs. */
static uint64_t share_blocks(const struct rcl_vd_params *params, unsigned spans, uint64_t room)
{
	uint64_t want = want_blocks(params, spans);

	return want && want < room ? want : room;
}

/* New arrays of @params' drives into @p, under refs CFG_READ does not use yet. */
static enum rcl_status new_arrays(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                  const struct rcl_vd_params *params, struct add_payload *p,
                                  uint16_t *refs, unsigned spans, struct rcl_error *err)
{
	uint8_t used[65536 / 8] = {0};
	enum rcl_status st = used_refs(link, used, err);

	for (unsigned s = 0, ref = 0; !st && s < spans; s++, ref++) {
		while (used[ref / 8] & 1u << ref % 8)
			ref++;
		refs[s] = (uint16_t)ref;
		st = fill_array(link, &p->arrays[s], ctrl, params, s, member_blocks(ctrl, params),
		                refs[s], err);
	}
	return st;
}

/*
 * The arrays of group @dg, as the card has them, into @p: MFI wants every
 * array an LD spans in the payload, an existing one under its own ref
 * (Broadcom's mr.h, MR_DCMD_CFG_ADD). *@where: the free extent the VD
 * goes in: the first that holds its size, as the soft kind places one;
 * the largest for all the free space (or when none holds it: the
 * firmware then refuses what the model did not).
 */
static enum rcl_status old_arrays(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                  unsigned dg, const struct rcl_vd_params *params,
                                  struct add_payload *p, uint16_t *refs, unsigned spans,
                                  struct rcl_mfi_extent *where, struct rcl_error *err)
{
	struct rcl_mfi_extent holes[RCL_MFI_MAX_HOLES];
	uint64_t want = want_blocks(params, spans);
	size_t n = 0, pick = 0;
	bool fits = false;
	enum rcl_status st = rcl_mfi_group_arrays(link, ctrl, dg, p->arrays, spans, holes, &n, err);

	for (unsigned s = 0; !st && s < spans; s++)
		refs[s] = le16toh(p->arrays[s].array_ref);
	for (size_t i = 0; !fits && i < n; i++) {
		fits = want && holes[i].blocks >= want;
		if (fits || holes[i].blocks > holes[pick].blocks)
			pick = i;
	}
	*where = !st && n ? holes[pick] : (struct rcl_mfi_extent){0, 0};
	return st;
}

/* The CFG_ADD header of @spans arrays and one LD, and LD @ld after those arrays. */
static void fill_header(struct add_payload *p, unsigned spans, const struct rcl_mfi_ld_info *ld)
{
	size_t arrays_end = sizeof(p->h) + spans * sizeof(struct rcl_mfi_array);

	/* The LD follows the arrays actually sent, not the struct's room for eight. */
	memcpy((uint8_t *)p + arrays_end, ld, RCL_MFI_LD_CONFIG_SIZE);
	p->h.size = htole32((uint32_t)(arrays_end + RCL_MFI_LD_CONFIG_SIZE));
	p->h.array_count = htole16((uint16_t)spans);
	p->h.array_size = htole16(sizeof(struct rcl_mfi_array));
	p->h.ld_count = htole16(1);
	p->h.ld_size = htole16(RCL_MFI_LD_CONFIG_SIZE);
	p->h.spare_size = htole16(sizeof(struct rcl_mfi_spare));
}

/*
 * The CFG_MAKE_SPARE payload making drive @d a hot spare: global when
 * @array_count is 0, else dedicated to @array_refs; the drive named by
 * its sequence number now. *@len: the bytes to send.
 */
static enum rcl_status spare_payload(const struct rcl_mfi_link *link, const struct rcl_drive *d,
                                     const uint16_t *array_refs, size_t array_count,
                                     struct rcl_mfi_spare *spare, uint32_t *len,
                                     struct rcl_error *err)
{
	size_t room = sizeof(spare->array_ref) / sizeof(spare->array_ref[0]);
	uint16_t seq;
	enum rcl_status st;

	if (array_count > room)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "a MegaRAID hot spare serves at most %zu arrays", room);
	st = rcl_mfi_pd_seq(link, (uint16_t)d->device_id, &seq, err);
	if (st)
		return st;
	memset(spare, 0, sizeof(*spare));
	spare->device_id = htole16((uint16_t)d->device_id);
	spare->seq_num = htole16(seq);
	spare->spare_type = array_count ? RCL_MFI_SPARE_DEDICATED : 0;
	spare->array_count = (uint8_t)array_count;
	for (size_t i = 0; i < array_count; i++)
		spare->array_ref[i] = htole16(array_refs[i]);
	*len = (uint32_t)(offsetof(struct rcl_mfi_spare, array_ref) +
	                  array_count * sizeof(spare->array_ref[0]));
	return RCL_OK;
}

static enum rcl_status send_spare(const struct rcl_mfi_link *link, struct rcl_mfi_spare *spare,
                                  uint32_t len, struct rcl_error *err)
{
	return dcmd_write(link, RCL_MFI_DCMD_CFG_MAKE_SPARE, spare, len,
	                  "making the hot spare (CFG_MAKE_SPARE)", err);
}

/*
 * A spare of the VD CFG_ADD just made as /c?/v@target that the card
 * refused (@st, its reason in @err). The VD is left, not deleted again:
 * it is whole and usable, the driver may have given it to the host
 * already, and a delete refused in turn would leave a state no message
 * could name. What is there is said instead, so the spare is added
 * alone: repeating "add vd" would make a second VD.
 */
static enum rcl_status spare_refused(const struct rcl_ctrl *ctrl, unsigned target,
                                     const struct rcl_drive *d, enum rcl_status st,
                                     struct rcl_error *err)
{
	char why[RCL_ERROR_MSG_MAX] = "";

	if (err)
		memcpy(why, err->msg, sizeof(why));
	return rcl_fail(err, st,
	                "/c%u/v%u was created, but /c%u/e%u/s%u was not made its hot spare: %s; "
	                "add the spare with '/c%u/e%u/s%u add hotsparedrive dgs=<its group>', "
	                "not with 'add vd' again",
	                ctrl->entry.id, target, ctrl->entry.id, d->enclosure, d->slot, why,
	                ctrl->entry.id, d->enclosure, d->slot);
}

/* The CFG_MAKE_SPARE payloads of a new VD's spares, and their lengths. */
struct new_spares {
	struct rcl_mfi_spare s[RCL_MAX_HOT_SPARES];
	uint32_t len[RCL_MAX_HOT_SPARES];
};

/*
 * The payloads making @params' spares dedicated hot spares of arrays @refs
 * (@spans of them), each drive's sequence number read: before CFG_ADD ...
 */
static enum rcl_status prepare_spares(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                      const struct rcl_vd_params *params, const uint16_t *refs,
                                      unsigned spans, struct new_spares *out, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	if (params->spare_count > RCL_MAX_HOT_SPARES)
		return rcl_fail(err, RCL_INVALID_PARAM, "a group takes at most %d hot spares",
		                RCL_MAX_HOT_SPARES);
	for (size_t i = 0; !st && i < params->spare_count; i++)
		st = spare_payload(link, rcl_ctrl_find_drive(ctrl, &params->spares[i]), refs, spans,
		                   &out->s[i], &out->len[i], err);
	return st;
}

/* ... then sent, after CFG_ADD made VD @target. */
static enum rcl_status make_spares(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                                   const struct rcl_vd_params *params, unsigned target,
                                   struct new_spares *sp, struct rcl_error *err)
{
	for (size_t i = 0; i < params->spare_count; i++) {
		enum rcl_status st = send_spare(link, &sp->s[i], sp->len[i], err);

		if (st)
			return spare_refused(
			    ctrl, target, rcl_ctrl_find_drive(ctrl, &params->spares[i]), st, err);
	}
	return RCL_OK;
}

/* The payloads rcl_mfi_add_vd() sends: CFG_ADD's, then the spares'. */
struct add_frames {
	struct add_payload add;
	struct new_spares spares;
};

enum rcl_status rcl_mfi_add_vd(const struct rcl_mfi_link *link, const struct rcl_ctrl *ctrl,
                               const struct rcl_vd_params *params, unsigned *target,
                               struct rcl_error *err)
{
	unsigned spans = (unsigned)(params->drive_count / params->drives_per_span);
	int dg = rcl_ctrl_find_drive(ctrl, &params->drives[0])->dg;
	struct add_frames *f;
	struct rcl_mfi_ld_info ld = {0};
	uint16_t refs[MAX_LD_SPANS];
	struct rcl_mfi_extent where = {0, member_blocks(ctrl, params)};
	enum rcl_status st;

	if (spans > MAX_LD_SPANS)
		return rcl_fail(err, RCL_INVALID_PARAM, "a MegaRAID VD has at most %u spans",
		                MAX_LD_SPANS);
	f = rcl_calloc(1, sizeof(*f));
	if (!f)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	/* Drives in a group (the generic layer checked they are all of it): its free space. */
	st = dg >= 0
	         ? old_arrays(link, ctrl, (unsigned)dg, params, &f->add, refs, spans, &where, err)
	         : new_arrays(link, ctrl, params, &f->add, refs, spans, err);
	/* Everything the spares need is read first: a refusal then leaves no VD made. */
	if (!st)
		st = prepare_spares(link, ctrl, params, refs, spans, &f->spares, err);
	*target = free_target(ctrl);
	fill_ld(&ld, params, *target, refs, where.start, share_blocks(params, spans, where.blocks));
	fill_header(&f->add, spans, &ld);
	if (!st)
		st = dcmd_write(link, RCL_MFI_DCMD_CFG_ADD, &f->add, le32toh(f->add.h.size),
		                "creating the virtual drive (CFG_ADD)", err);
	if (!st)
		st = make_spares(link, ctrl, params, *target, &f->spares, err);
	rcl_free(f);
	return st;
}

enum rcl_status rcl_mfi_delete_vd(const struct rcl_mfi_link *link, unsigned target,
                                  struct rcl_error *err)
{
	uint16_t seq;
	enum rcl_status st = rcl_mfi_ld_seq(link, target, &seq, err);

	/* The mailbox is the LD's reference: target id, a reserved byte, sequence number. */
	return st ? st
	          : dcmd_mbox(link, RCL_MFI_DCMD_LD_DELETE, (uint16_t)target, seq,
	                      "deleting the virtual drive (LD_DELETE)", err);
}

/* @bits with the bits @mask names set as @on says. */
static uint8_t with_bits(uint8_t bits, uint8_t mask, bool on)
{
	return on ? bits | mask : bits & (uint8_t)~mask;
}

/* The cache policy bits @props changes, applied to @bits. */
static uint8_t props_cache(uint8_t bits, const struct rcl_vd_props *props)
{
	if (props->write >= 0) {
		bits =
		    with_bits(bits, RCL_MFI_LD_CACHE_WRITE_BACK, props->write != RCL_WRITE_THROUGH);
		bits = with_bits(bits, RCL_MFI_LD_CACHE_BAD_BBU,
		                 props->write == RCL_WRITE_BACK_ALWAYS);
	}
	if (props->read >= 0)
		bits = with_bits(bits, RCL_MFI_LD_CACHE_READ_AHEAD, props->read == RCL_READ_AHEAD);
	if (props->io >= 0)
		bits = with_bits(bits, RCL_MFI_LD_CACHE_CACHED_IO, props->io == RCL_IO_CACHED);
	/* Write back, or reads cached, need the cache to take writes (FreeBSD's IO_CACHED). */
	if (props->write == RCL_WRITE_BACK || props->write == RCL_WRITE_BACK_ALWAYS ||
	    props->io == RCL_IO_CACHED)
		bits |= RCL_MFI_LD_CACHE_ALLOW_WRITE;
	return bits;
}

enum rcl_status rcl_mfi_set_vd(const struct rcl_mfi_link *link, unsigned target,
                               const struct rcl_vd_props *props, struct rcl_error *err)
{
	static const uint8_t access[] = {
	    [RCL_ACCESS_RW] = 0, [RCL_ACCESS_RO] = 2, [RCL_ACCESS_BLOCKED] = 3};
	struct rcl_mfi_ld_info ld = {0};
	struct rcl_mfi_dcmd d = {.opcode = RCL_MFI_DCMD_LD_SET_PROP,
	                         .buf = &ld,
	                         .len = RCL_MFI_LD_PROPS_SIZE,
	                         .dir = RCL_MFI_DIR_WRITE};
	enum rcl_status st;

	/* What is read is written back: a reply left unwritten must not become a VD of zeros. */
	st = rcl_mfi_read_mbox(link, RCL_MFI_DCMD_LD_GET_PROP, RCL_MFI_MBOX_U16((uint8_t)target),
	                       RCL_MFI_PRESET_UNWRITTEN, &ld, RCL_MFI_LD_PROPS_SIZE,
	                       "reading the virtual drive's properties (LD_GET_PROP)", err);
	if (st)
		return st;
	if (props->name) {
		memset(ld.name, 0, sizeof(ld.name));
		memcpy(ld.name, props->name, strnlen(props->name, sizeof(ld.name)));
	}
	ld.default_cache = props_cache(ld.default_cache, props);
	if (props->access >= 0)
		ld.access = access[props->access];
	if (props->disk_cache >= 0)
		ld.disk_cache = props->disk_cache == RCL_DISK_CACHE_ON    ? 1
		                : props->disk_cache == RCL_DISK_CACHE_OFF ? 2
		                                                          : 0;
	if (props->autobgi >= 0)
		ld.no_bgi = !props->autobgi;
	/*
	 * The mailbox names the LD by the reference LD_GET_PROP gave (target
	 * id, reserved byte, sequence number), as mfiutil's mfi_ld_set_props()
	 * and OpenBSD's mfii do: the card refuses a stale one.
	 */
	d.mbox[0] = ld.target_id;
	d.mbox[1] = ld.rsvd0;
	memcpy(d.mbox + 2, &ld.seq, sizeof(ld.seq)); /* little-endian as read */
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d,
	                    "setting the virtual drive's properties (LD_SET_PROP)", err);
}

enum rcl_status rcl_mfi_make_spare(const struct rcl_mfi_link *link, const struct rcl_drive *d,
                                   const uint16_t *array_refs, size_t array_count,
                                   struct rcl_error *err)
{
	struct rcl_mfi_spare spare;
	uint32_t len = 0;
	enum rcl_status st = spare_payload(link, d, array_refs, array_count, &spare, &len, err);

	return st ? st : send_spare(link, &spare, len, err);
}

enum rcl_status rcl_mfi_remove_spare(const struct rcl_mfi_link *link, const struct rcl_drive *d,
                                     struct rcl_error *err)
{
	uint16_t seq;
	enum rcl_status st = rcl_mfi_pd_seq(link, (uint16_t)d->device_id, &seq, err);

	return st ? st
	          : dcmd_mbox(link, RCL_MFI_DCMD_CFG_REMOVE_SPARE, (uint16_t)d->device_id, seq,
	                      "removing the hot spare (CFG_REMOVE_SPARE)", err);
}
