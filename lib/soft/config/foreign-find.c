// SPDX-License-Identifier: MIT
/*
 * foreign-find.c - the foreign configurations on a soft controller's
 * drives: other raidcli controllers' by their records, md arrays by their
 * superblocks, each md array planned for adoption in place (foreign-md.c,
 * foreign-nested.c). See foreign-private.h.
 */
#include <stdio.h>
#include <string.h>

#include "foreign-private.h"
#include "soft/format/io.h"

void rcl_soft_foreign_found_release(struct found *f)
{
	rcl_free(f->cfg);
	rcl_free(f->md);
	rcl_free(f->adopt);
	rcl_free(f->top);
	for (size_t k = 0; k < RCL_SOFT_MAX_MEMBERS; k++)
		rcl_free(f->gpts[k]);
}

void rcl_soft_foreign_found_list_release(struct found_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		rcl_soft_foreign_found_release(&list->items[i]);
	rcl_free(list->items);
	memset(list, 0, sizeof(*list));
}

/* The configuration @source/@owner in @list, added (empty) when new; NULL when out of memory. */
static struct found *found_get(struct found_list *list, enum rcl_foreign_source source,
                               const char *owner)
{
	struct found *items, *f;

	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].source == source && !strcmp(list->items[i].owner, owner))
			return &list->items[i];
	items = rcl_realloc(list->items, (list->count + 1) * sizeof(*items));
	if (!items)
		return NULL;
	list->items = items;
	f = &items[list->count++];
	memset(f, 0, sizeof(*f));
	f->source = source;
	snprintf(f->owner, sizeof(f->owner), "%s", owner);
	for (size_t r = 0; r < RCL_SOFT_MAX_MEMBERS; r++)
		f->roles[r] = -1;
	return f;
}

/* ---- raidcli configurations ---- */

/*
 * Choose @f's configuration among its drives' records, as its own
 * controller would: only its drives take part, so the other drives'
 * records (ours, other controllers') cannot outvote it.
 */
static enum rcl_status read_raidcli(const struct rcl_soft_state *state, struct found *f,
                                    struct rcl_error *err)
{
	struct rcl_soft_record_drive *recs = rcl_calloc(f->disk_count, sizeof(*recs));
	struct rcl_soft_record_verdict *verdicts = rcl_calloc(f->disk_count, sizeof(*verdicts));
	struct rcl_soft_record_choice choice;
	struct rcl_error why = {0};
	const struct rcl_soft_record_slot *slot;
	enum rcl_status st = RCL_OK;

	if (!recs || !verdicts || !(f->cfg = rcl_calloc(1, sizeof(*f->cfg)))) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
		goto out;
	}
	/* Shallow copies: the state keeps owning the slots' buffers. */
	for (size_t k = 0; k < f->disk_count; k++)
		recs[k] = state->recs[f->disks[k]];
	if (rcl_soft_record_choose(recs, f->disk_count, f->owner, &choice, verdicts, &why)) {
		snprintf(f->problem, sizeof(f->problem),
		         "its drives hold no readable configuration of controller %s", f->owner);
		goto drop;
	}
	slot = &recs[choice.drive].slots[choice.slot];
	st = rcl_soft_config_parse(slot->payload, slot->hdr.payload_len,
	                           state->disks[f->disks[choice.drive]].path, f->cfg, &why);
	if (st == RCL_NOMEM) {
		*err = why;
		goto out;
	}
	st = RCL_OK;
	if (why.status) {
		snprintf(f->problem, sizeof(f->problem), "%s", why.msg);
		goto drop;
	}
	goto out;
drop:
	rcl_free(f->cfg);
	f->cfg = NULL;
out:
	rcl_free(recs);
	rcl_free(verdicts);
	return st;
}

/* ---- md arrays ---- */

void rcl_soft_foreign_md_uuid_text(const uint8_t *uuid, char *out, size_t size)
{
	size_t pos = 0;

	for (int i = 0; i < 16 && pos < size; i++)
		pos += (size_t)snprintf(out + pos, size - pos, "%s%02x", i && !(i % 4) ? ":" : "",
		                        uuid[i]);
}

/*
 * Read the md v1.2 superblock of the device at byte @at, @sectors long,
 * into a new *@sb (NULL on failure).
 */
static enum rcl_status read_md(int fd, uint64_t at, uint64_t sectors, struct rcl_md_super1 **sb,
                               struct rcl_error *err)
{
	uint8_t *block = rcl_malloc(RCL_MD_SB_AREA);
	enum rcl_status st;

	*sb = rcl_malloc(sizeof(**sb));
	if (!block || !*sb)
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	else
		st = rcl_soft_read(fd, block, RCL_MD_SB_AREA, at + RCL_MD_SUPER1_2_OFFSET * 512,
		                   err);
	if (!st)
		st = rcl_md_super1_decode(block, RCL_MD_SB_AREA, RCL_MD_SUPER1_2_OFFSET, sectors,
		                          *sb, err);
	rcl_free(block);
	if (st) {
		rcl_free(*sb);
		*sb = NULL;
	}
	return st;
}

static void add_disk(struct found *f, size_t disk)
{
	for (size_t k = 0; k < f->disk_count; k++)
		if (f->disks[k] == disk)
			return;
	f->disks[f->disk_count++] = disk;
}

/* File md member @sb found on disk @i under its array, which keeps the first superblock. */
static enum rcl_status add_md_member(struct found_list *list, size_t i, struct rcl_md_super1 *sb,
                                     const char *problem, struct rcl_error *err)
{
	char owner[64];
	uint16_t role = rcl_md_super1_role(sb);
	struct found *f;

	rcl_soft_foreign_md_uuid_text(sb->set_uuid, owner, sizeof(owner));
	f = found_get(list, RCL_FOREIGN_MDADM, owner);
	if (!f) {
		rcl_free(sb);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	add_disk(f, i);
	if (role < RCL_SOFT_MAX_MEMBERS) {
		f->roles[role] = (int)i;
		f->seen[role] =
		    (struct md_seen){sb->events, sb->data_offset, sb->data_size, sb->dev_number};
	}
	if (!f->problem[0] && problem)
		snprintf(f->problem, sizeof(f->problem), "%s", problem);
	/* The freshest superblock speaks for the array, as it does to md. */
	if (f->md && f->md->events >= sb->events) {
		rcl_free(sb);
		return RCL_OK;
	}
	rcl_free(f->md);
	f->md = sb;
	return RCL_OK;
}

/* A drive whose md metadata cannot be read: a configuration of its own. */
static enum rcl_status add_unreadable(struct found_list *list, const struct rcl_soft_disk *disk,
                                      size_t i, struct rcl_error *err)
{
	char owner[64];
	struct found *f;

	snprintf(owner, sizeof(owner), "unknown (drive in slot %u)", disk->slot);
	f = found_get(list, RCL_FOREIGN_MDADM, owner);
	if (!f)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	add_disk(f, i);
	snprintf(f->problem, sizeof(f->problem),
	         "its md metadata is not a readable v1.2 superblock (md 0.90, 1.0 and 1.1 "
	         "are not imported)");
	return RCL_OK;
}

static const char whole_drive[] =
    "its md members are whole drives: raidcli keeps its metadata in a GPT, which cannot "
    "be added without moving the data (raidcli-format(7))";

static enum rcl_status read_md_disk(struct found_list *list, const struct rcl_soft_disk *disk,
                                    size_t i, struct rcl_error *err)
{
	struct rcl_md_super1 *sb;
	struct rcl_error why = {0};
	enum rcl_status st = read_md(disk->fd, 0, disk->bytes / 512, &sb, &why);

	if (st == RCL_NOMEM)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (st)
		return add_unreadable(list, disk, i, err);
	return add_md_member(list, i, sb, whole_drive, err);
}

static enum rcl_status read_md_gpt(struct found_list *list, const struct rcl_soft_disk *disk,
                                   size_t i, struct rcl_error *err)
{
	for (unsigned p = 0; p < RCL_GPT_MAX_PARTS; p++) {
		const struct rcl_gpt_part *part = &disk->gpt->parts[p];
		uint64_t bytes = (part->last_lba + 1 - part->first_lba) * disk->sector_size;
		struct rcl_md_super1 *sb;
		struct rcl_error why = {0};
		enum rcl_status st;

		if (memcmp(&part->type, &rcl_gpt_type_linux_raid, sizeof(part->type)))
			continue;
		st = read_md(disk->fd, part->first_lba * disk->sector_size, bytes / 512, &sb, &why);
		if (st == RCL_NOMEM)
			return rcl_fail(err, RCL_NOMEM, "out of memory");
		if (st)
			continue;
		st = add_md_member(list, i, sb, NULL, err);
		if (st)
			return st;
	}
	return RCL_OK;
}

/* ---- Finding them all ---- */

enum rcl_status rcl_soft_foreign_find_all(const struct rcl_soft_state *state,
                                          struct found_list *list, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	memset(list, 0, sizeof(*list));
	for (size_t i = 0; i < state->count && !st; i++) {
		const struct rcl_soft_disk *disk = &state->disks[i];
		struct found *f;

		if (disk->kind != RCL_SOFT_DISK_FOREIGN)
			continue;
		switch (disk->foreign) {
		case RCL_SOFT_FOREIGN_RAIDCLI:
			f = found_get(list, RCL_FOREIGN_RAIDCLI, disk->owner);
			if (f)
				add_disk(f, i);
			else
				st = rcl_fail(err, RCL_NOMEM, "out of memory");
			break;
		case RCL_SOFT_FOREIGN_MD_DISK:
			st = read_md_disk(list, disk, i, err);
			break;
		case RCL_SOFT_FOREIGN_MD_GPT:
			st = read_md_gpt(list, disk, i, err);
			break;
		case RCL_SOFT_FOREIGN_NONE:
			break;
		}
	}
	for (size_t k = 0; k < list->count && !st; k++)
		st = list->items[k].source == RCL_FOREIGN_RAIDCLI
		         ? read_raidcli(state, &list->items[k], err)
		         : rcl_soft_foreign_md_plan(state, &list->items[k], err);
	if (!st)
		st = rcl_soft_foreign_md_stacks(state, list, err);
	if (st)
		rcl_soft_foreign_found_list_release(list);
	return st;
}

const struct rcl_soft_disk *rcl_soft_foreign_found_disk(const struct rcl_soft_state *state,
                                                        const struct found *f,
                                                        const struct rcl_guid *uuid)
{
	for (size_t k = 0; k < f->disk_count; k++) {
		const struct rcl_soft_disk *disk = &state->disks[f->disks[k]];

		if (rcl_guid_equal(&disk->gpt->disk_guid, uuid))
			return disk;
	}
	return NULL;
}
