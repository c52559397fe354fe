// SPDX-License-Identifier: MIT
/*
 * scan.c - read a soft controller's configuration from its drives (see
 * scan.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "soft/format/io.h"
#include "soft/format/le.h"
#include "soft/format/md-super1.h"
#include "scan.h"
#include "soft/format/signature.h"

static void classify(struct rcl_soft_disk *disk, enum rcl_soft_disk_kind kind, const char *why)
{
	disk->kind = kind;
	snprintf(disk->why, sizeof(disk->why), "%s", why);
}

static enum rcl_status open_disk(struct rcl_soft_disk *disk, unsigned image_sector)
{
	struct stat st;
	off_t end;
	int ss;

	disk->fd = open(disk->path, O_RDWR | O_CLOEXEC);
	disk->ro_errno = disk->fd < 0 ? errno : 0;
	if (disk->fd < 0)
		disk->fd = open(disk->path, O_RDONLY | O_CLOEXEC);
	if (disk->fd < 0)
		disk->ro_errno = 0; /* absent, not read-only */
	if (disk->fd < 0 || fstat(disk->fd, &st) || (end = lseek(disk->fd, 0, SEEK_END)) < 0)
		return RCL_SYSTEM;
	disk->bytes = (uint64_t)end;
	disk->sector_size = image_sector;
	if (S_ISBLK(st.st_mode) && !ioctl(disk->fd, BLKSSZGET, &ss))
		disk->sector_size = (unsigned)ss;
	return RCL_OK;
}

/* md metadata 1.0 or 0.90, which sit near the end of the drive. */
static bool md_at_end(const struct rcl_soft_disk *disk)
{
	uint64_t sectors = disk->bytes / 512;
	/* v1.0: 8 KiB before the end, 4 KiB aligned; v0.90: the last 64 KiB block but one. */
	uint64_t at[] = {((sectors - 16) & ~7ull) * 512, ((sectors & ~127ull) - 128) * 512};
	struct rcl_error ignored = {0};
	uint8_t magic[4];

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		if (!rcl_soft_read(disk->fd, magic, sizeof(magic), at[i], &ignored) &&
		    rcl_get_le32(magic) == RCL_MD_SB_MAGIC)
			return true;
	return false;
}

/*
 * A drive without a GPT: blank, unless it holds md metadata or an MBR
 * partition table (a file system alone only makes a create ask for force).
 */
static void classify_no_gpt(struct rcl_soft_disk *disk)
{
	uint8_t buf[4096 + 4];
	struct rcl_error ignored = {0};

	if (disk->bytes < sizeof(buf) || rcl_soft_read(disk->fd, buf, sizeof(buf), 0, &ignored)) {
		classify(disk, RCL_SOFT_DISK_FOREIGN, "cannot be read");
		return;
	}
	if (rcl_get_le32(buf) == RCL_MD_SB_MAGIC || rcl_get_le32(buf + 4096) == RCL_MD_SB_MAGIC ||
	    md_at_end(disk)) {
		classify(disk, RCL_SOFT_DISK_FOREIGN, "holds an md superblock");
		disk->foreign = RCL_SOFT_FOREIGN_MD_DISK;
	} else if (rcl_soft_has_mbr(buf, sizeof(buf))) {
		classify(disk, RCL_SOFT_DISK_FOREIGN, "holds an MBR partition table");
	} else {
		classify(disk, RCL_SOFT_DISK_BLANK, "");
	}
}

/*
 * Whether a Linux RAID partition of @disk's GPT starts with an md v1.2
 * superblock, and (@serial not NULL) one whose array name does not start
 * with "@serial:", as the names of arrays this controller made do.
 */
static bool md_partition(const struct rcl_soft_disk *disk, const char *serial)
{
	struct rcl_error ignored = {0};
	/* member.c names arrays "%.20s:vN" after the serial. */
	size_t len = serial ? strnlen(serial, 20) : 0;
	uint8_t sb[64];

	for (unsigned i = 0; i < RCL_GPT_MAX_PARTS; i++) {
		const struct rcl_gpt_part *p = &disk->gpt->parts[i];
		const char *name = (const char *)sb + 32;

		if (!memcmp(&p->type, &rcl_gpt_type_linux_raid, sizeof(p->type)) &&
		    !rcl_soft_read(disk->fd, sb, sizeof(sb),
		                   p->first_lba * disk->sector_size + RCL_MD_SUPER1_2_OFFSET * 512,
		                   &ignored) &&
		    rcl_get_le32(sb) == RCL_MD_SB_MAGIC &&
		    (!serial || strncmp(name, serial, len) || name[len] != ':'))
			return true;
	}
	return false;
}

/* Find the metadata partition in the GPT just read. */
static void classify_gpt(struct rcl_soft_disk *disk)
{
	for (unsigned i = 0; i < RCL_GPT_MAX_PARTS; i++)
		if (!memcmp(&disk->gpt->parts[i].type, &rcl_soft_record_part_type,
		            sizeof(struct rcl_guid))) {
			disk->meta = i;
			classify(disk, RCL_SOFT_DISK_OURS, "");
			return;
		}
	if (md_partition(disk, NULL)) {
		classify(disk, RCL_SOFT_DISK_FOREIGN,
		         "holds md array members raidcli did not make");
		disk->foreign = RCL_SOFT_FOREIGN_MD_GPT;
		return;
	}
	classify(disk, RCL_SOFT_DISK_FOREIGN, "holds a GPT raidcli did not write");
}

static enum rcl_status read_disk(struct rcl_soft_disk *disk, struct rcl_soft_record_drive *rec,
                                 unsigned image_sector, struct rcl_error *err)
{
	struct rcl_error why = {0};
	const struct rcl_gpt_part *p;
	enum rcl_status st;
	static const struct rcl_guid none;

	rcl_soft_record_drive_init(rec, -1, 0, 0, &none);
	if (open_disk(disk, image_sector)) {
		classify(disk, RCL_SOFT_DISK_ABSENT, "cannot be opened");
		return RCL_OK;
	}
	disk->gpt = rcl_calloc(1, sizeof(*disk->gpt));
	if (!disk->gpt)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_gpt_read(disk->fd, disk->bytes, disk->sector_size, disk->gpt, &why);
	if (st == RCL_NOT_FOUND)
		classify_no_gpt(disk);
	else if (st == RCL_NOMEM)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	else if (st)
		classify(disk, RCL_SOFT_DISK_FOREIGN, "holds a damaged or unknown GPT");
	else
		classify_gpt(disk);
	if (disk->kind != RCL_SOFT_DISK_OURS)
		return RCL_OK;
	p = &disk->gpt->parts[disk->meta];
	rcl_soft_record_drive_init(rec, disk->fd, p->first_lba * disk->sector_size,
	                           (p->last_lba + 1 - p->first_lba) * disk->sector_size,
	                           &disk->gpt->disk_guid);
	st = rcl_soft_record_read(rec, &why);
	if (st == RCL_NOMEM)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (st)
		classify(disk, RCL_SOFT_DISK_FOREIGN, "cannot be read");
	return RCL_OK;
}

/* Whether a slot of @rec holds something other than nothing. */
static bool damaged(const struct rcl_soft_record_drive *rec)
{
	for (unsigned s = 0; s < RCL_SOFT_RECORD_SLOTS; s++)
		if (!rec->slots[s].valid && rec->slots[s].why.status != RCL_NOT_FOUND)
			return true;
	return false;
}

/*
 * The controller a drive belongs to, as rcl_soft_record_choose() decides
 * it: that of its newest valid committed record, else its newest pending one.
 */
static const char *record_owner(const struct rcl_soft_record_drive *rec)
{
	const struct rcl_soft_record_slot *best = NULL;

	for (unsigned s = 0; s < RCL_SOFT_RECORD_SLOTS; s++) {
		const struct rcl_soft_record_slot *slot = &rec->slots[s];

		if (slot->valid && (!best ||
		                    (slot->hdr.state == RCL_SOFT_RECORD_COMMITTED) >
		                        (best->hdr.state == RCL_SOFT_RECORD_COMMITTED) ||
		                    (slot->hdr.state == best->hdr.state &&
		                     slot->hdr.generation > best->hdr.generation)))
			best = slot;
	}
	return best ? best->hdr.serial : "";
}

/* Drives of other controllers, and copies of a drive seen already, are foreign. */
static void mark_foreign(struct rcl_soft_state *state)
{
	for (size_t i = 0; i < state->count; i++) {
		struct rcl_soft_disk *disk = &state->disks[i];

		if (disk->kind != RCL_SOFT_DISK_OURS)
			continue;
		if (state->verdicts[i].standing == RCL_SOFT_RECORD_FOREIGN) {
			classify(disk, RCL_SOFT_DISK_FOREIGN,
			         "holds another controller's configuration");
			disk->foreign = RCL_SOFT_FOREIGN_RAIDCLI;
			snprintf(disk->owner, sizeof(disk->owner), "%s",
			         record_owner(&state->recs[i]));
			continue;
		}
		for (size_t j = 0; j < i; j++)
			if (state->disks[j].kind == RCL_SOFT_DISK_OURS &&
			    rcl_guid_equal(&state->disks[j].gpt->disk_guid, &disk->gpt->disk_guid))
				classify(disk, RCL_SOFT_DISK_FOREIGN,
				         "is a copy of another drive (same disk GUID)");
	}
}

/*
 * A drive outside the configuration whose record is damaged may belong to
 * a configuration that cannot be read: never reuse (and so wipe) it.
 */
static void mark_damaged(struct rcl_soft_state *state)
{
	for (size_t i = 0; i < state->count; i++)
		if (state->disks[i].kind == RCL_SOFT_DISK_OURS && state->disks[i].dg < 0 &&
		    !state->disks[i].spare && state->verdicts[i].standing == RCL_SOFT_RECORD_NONE &&
		    damaged(&state->recs[i]))
			classify(&state->disks[i], RCL_SOFT_DISK_FOREIGN,
			         "holds a damaged raidcli configuration record");
}

/*
 * A drive with our metadata partition but no record in force, holding md
 * members of an array this controller did not make, is an md member still:
 * an import of it was interrupted before its record was committed (see
 * foreign.h). Left unconfigured, a create could overwrite the array.
 */
static void mark_md_members(struct rcl_soft_state *state, const char *serial)
{
	for (size_t i = 0; i < state->count; i++) {
		struct rcl_soft_disk *disk = &state->disks[i];
		enum rcl_soft_record_standing standing = state->verdicts[i].standing;

		if (disk->kind == RCL_SOFT_DISK_OURS && disk->dg < 0 && !disk->spare &&
		    (standing == RCL_SOFT_RECORD_NONE || standing == RCL_SOFT_RECORD_STALE) &&
		    md_partition(disk, serial)) {
			classify(disk, RCL_SOFT_DISK_FOREIGN,
			         "holds md array members raidcli did not make");
			disk->foreign = RCL_SOFT_FOREIGN_MD_GPT;
		}
	}
}

static void place_spare(struct rcl_soft_state *state, const struct rcl_guid *uuid, int dg)
{
	struct rcl_soft_disk *disk = rcl_soft_find_disk(state, uuid);

	if (disk) {
		disk->spare = true;
		disk->spare_dg = dg;
	}
}

/* Place each member and spare of the configuration on the drive that carries it. */
static void place_members(struct rcl_soft_state *state)
{
	for (size_t k = 0; k < state->cfg.spare_count; k++)
		place_spare(state, &state->cfg.spares[k].uuid, -1);
	for (size_t d = 0; d < state->cfg.dg_count; d++) {
		const struct rcl_soft_dg *dg = &state->cfg.dgs[d];

		for (unsigned k = 0; k < dg->spare_count; k++)
			place_spare(state, &dg->spares[k].drive.uuid, (int)d);
		for (unsigned m = 0; m < rcl_soft_dg_held(dg); m++) {
			struct rcl_soft_disk *disk = rcl_soft_find_member(state, dg, m);

			if (disk) {
				disk->dg = (int)d;
				disk->member = (int)m;
			}
		}
	}
}

static enum rcl_status choose(struct rcl_soft_state *state, const char *serial,
                              struct rcl_error *err)
{
	struct rcl_soft_record_choice choice;
	struct rcl_error why = {0};
	const struct rcl_soft_record_slot *slot;
	enum rcl_status st;

	st = rcl_soft_record_choose(state->recs, state->count, serial, &choice, state->verdicts,
	                            &why);
	state->next_generation = choice.next_generation;
	mark_foreign(state);
	if (st) {
		mark_md_members(state, serial);
		mark_damaged(state);
		return RCL_OK; /* unconfigured: nothing committed here */
	}
	slot = &state->recs[choice.drive].slots[choice.slot];
	st = rcl_soft_config_parse(slot->payload, slot->hdr.payload_len,
	                           state->disks[choice.drive].path, &state->cfg, err);
	if (!st && strcmp(state->cfg.serial, serial))
		st = rcl_fail(err, RCL_CORRUPT,
		              "drive %s: its configuration record names controller %s",
		              state->disks[choice.drive].path, state->cfg.serial);
	if (st)
		return st;
	place_members(state);
	mark_md_members(state, serial);
	mark_damaged(state);
	return RCL_OK;
}

enum rcl_status rcl_soft_scan(const struct soft_ctrl *sc, struct rcl_soft_state **out,
                              struct rcl_error *err)
{
	struct rcl_soft_state *state = rcl_calloc(1, sizeof(*state));
	enum rcl_status st = RCL_OK;

	if (!state || !(state->disks = rcl_calloc(sc->slot_count + 1, sizeof(*state->disks))) ||
	    !(state->recs = rcl_calloc(sc->slot_count + 1, sizeof(*state->recs))) ||
	    !(state->verdicts = rcl_calloc(sc->slot_count + 1, sizeof(*state->verdicts)))) {
		rcl_soft_state_free(state);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < sc->slot_count && !st; i++) {
		struct rcl_soft_disk *disk = &state->disks[i];

		disk->slot = sc->slots[i].slot;
		disk->path = sc->slots[i].path;
		disk->dg = disk->member = disk->spare_dg = -1;
		disk->fd = -1;
		state->count++;
		/* A host's JBOD drive is not read: a "show" leaves it alone (host.h). */
		if (sc->host && sc->slots[i].jbod)
			classify(disk, RCL_SOFT_DISK_ABSENT, "not read: JBOD");
		else
			st = read_disk(disk, &state->recs[i], sc->sector_size, err);
	}
	if (!st)
		st = choose(state, sc->serial, err);
	if (st) {
		rcl_soft_state_free(state);
		return st;
	}
	*out = state;
	return RCL_OK;
}

void rcl_soft_state_free(struct rcl_soft_state *state)
{
	if (!state)
		return;
	for (size_t i = 0; i < state->count; i++) {
		if (state->disks[i].fd >= 0)
			close(state->disks[i].fd);
		rcl_free(state->disks[i].gpt);
		rcl_soft_record_drive_release(&state->recs[i]);
	}
	rcl_free(state->disks);
	rcl_free(state->recs);
	rcl_free(state->verdicts);
	rcl_free(state);
}

struct rcl_soft_disk *rcl_soft_find_disk(struct rcl_soft_state *state, const struct rcl_guid *uuid)
{
	for (size_t i = 0; i < state->count; i++) {
		struct rcl_soft_disk *disk = &state->disks[i];

		if (disk->kind == RCL_SOFT_DISK_OURS && rcl_guid_equal(&disk->gpt->disk_guid, uuid))
			return disk;
	}
	return NULL;
}

struct rcl_soft_disk *rcl_soft_find_member(struct rcl_soft_state *state,
                                           const struct rcl_soft_dg *dg, unsigned member)
{
	return rcl_soft_find_disk(state, &dg->members[member].uuid);
}
