/* SPDX-License-Identifier: MIT */
/*
 * config.h - a soft controller's configuration (its disk groups and
 * virtual drives) and the JSON payload its drives' records carry.
 *
 * The payload, version 1 (every field required):
 *
 *	{"format": 1, "serial": "RCLC…",
 *	 "groups": [{"id": 0, "level": "RAID5", "spans": 1, "drives_per_span": 3,
 *	             "first_lba": 4096, "last_lba": 2097118,
 *	             "members": [{"uuid": "<GPT disk GUID>", "slot": 4}, …],
 *	             "vds": [{"id": 0, "name": "", "uuid": "<md array UUID>",
 *	                      "part": 2, "first_lba": 4096, "last_lba": 208895,
 *	                      "bytes": …, "strip_kib": 64, "write": "WB",
 *	                      "read": "RA", "access": "RW", "consistent": false,
 *	                      "created": 1767225600}, …],
 *	             "spares": [{"uuid": "<GPT disk GUID>", "slot": 5, "dev": 3}]}, …],
 *	 "spares": [{"uuid": "<GPT disk GUID>", "slot": 6}, …]}
 *
 * Members are listed span by span, so member i is row i % drives_per_span
 * of span i / drives_per_span, and its md device role is i. A member is
 * known by its GPT disk GUID (the slot is where it was last seen, so a
 * missing member keeps its place). Every member of a group carries each of
 * the group's VDs in the same partition (GPT entry number @part) over the
 * same LBAs: the group is laid out for its smallest member.
 *
 * A group being migrated (a RAID level migration or an online capacity
 * expansion, migrate.h) has "migrate": {"level": "RAID5", "drives": 3}:
 * the level and member count it is migrating from; "level" and the
 * members are the target's, the added drives listed last. A migration
 * that removes drives (option=remove) also has "removed": the old members
 * past the new ones (the last roles), each as a member is, which the copy
 * reads until it ends and then leave the group. The VDs keep
 * their old "bytes" until the migration ends. How far it has come is in
 * the members' md superblocks (reshape_position), not here.
 *
 * A VD may also have "pdcache": "On" or "Off" (the members' write
 * caches; absent: "Default") and "io": "Cached" (absent: "Direct").
 * A VD whose background initialization does not start by itself (StorCLI's
 * "set autobgi=off") has "autobgi": false; absent, it is on.
 *
 * A VD adopted from an md array that mdadm made (foreign.c) has "md":
 * {"data_offset": 2048, "data_size": …, "size": …, "bitmap_offset": 8,
 *  "bitmap_chunk": …, "bitmap_sync_size": …, "bblog_offset": 8,
 *  "bblog_size": 8}: md's own member layout, in sectors, which the VD keeps
 * instead of the one raidcli computes for its partitions (md-geometry.c);
 * "bitmap_offset" 0 is an array without a bitmap. A VD that grew (expand.c)
 * keeps its md layout the same way: its data_offset stays where it was.
 *
 * A member's "state" is absent while it is online, else "offline",
 * "failed", "missing" or "rebuild"; a rebuilding member has "rebuilt_lba"
 * too, and no other member has.
 *
 * "spares" lists the global hot spares, known by GPT disk GUID as members
 * are; it is optional (absent means none, as in records written before
 * spares existed) and written only when not empty. A global spare carries
 * the metadata partition and the record, and no VD partition. An entry
 * with "dgs": [0, 2] (group ids, optional) is a spare dedicated to those
 * groups that md does not know about: a RAID50/60 group's, or one serving
 * several groups (raidcli-format(7) says why). A group's
 * "spares" (as optional) are its dedicated spares: each carries the
 * group's GPT entries, and in each VD's partition an md superblock of the
 * VD's array with device number "dev" (from the member count up, unique
 * in the group) and role spare, as md lists a spare. Any spare may have
 * "enclaffinity": true and "nonrevertible": true (optional, written only
 * when true): how it serves, as "add hotsparedrive" set it.
 */
#ifndef RCL_SOFT_CONFIG_H
#define RCL_SOFT_CONFIG_H

#include <stddef.h>
#include <time.h>

#include "soft/format/guid.h"
#include "soft/format/md-super1.h"

#define RCL_SOFT_CONFIG_FORMAT 1
#define RCL_SOFT_MAX_MEMBERS   (RCL_MAX_SPANS * RCL_MAX_DRIVES_PER_SPAN)
/* The largest strip a record holds (raidcli(8): strip=8 to 1024). */
#define RCL_SOFT_MAX_STRIP_KIB 1024
/* The highest md device number a dedicated spare takes: md's superblock has
 * 128 roles, all "spare" but the members' (rcl_md_super1_init()). */
#define RCL_SOFT_MAX_SPARE_DEV 127

/*
 * What a member is doing, as the record keeps it ("state" in JSON, absent
 * for online). Only an online member, or a rebuilding one below its
 * @rebuilt_lba, holds data the I/O path may read.
 */
enum rcl_soft_member_state {
	RCL_SOFT_MEMBER_ONLINE,
	RCL_SOFT_MEMBER_OFFLINE, /* set offline by the user: no I/O, its data kept */
	RCL_SOFT_MEMBER_FAILED,  /* failed on an I/O error: no I/O */
	RCL_SOFT_MEMBER_MISSING, /* marked missing: its role waits for a replacement */
	RCL_SOFT_MEMBER_REBUILD, /* being rebuilt: valid below @rebuilt_lba */
};

/**
 * struct rcl_soft_member - a member drive: its identity and last slot.
 * @state:	online unless the record says otherwise.
 * @rebuilt_lba: REBUILD: the drive holds valid data in its sectors below
 *		this (the rebuild walks the group's VD area upwards).
 */
struct rcl_soft_member {
	struct rcl_guid uuid;
	unsigned slot;
	enum rcl_soft_member_state state;
	uint64_t rebuilt_lba;
};

/*
 * struct rcl_soft_spare - a dedicated spare, its md device number, and how
 * it serves (RCL_SPARE_* flags).
 */
struct rcl_soft_spare {
	struct rcl_soft_member drive;
	unsigned dev;
	unsigned flags;
};

/**
 * struct rcl_soft_migration - where a group migrates from ("migrate").
 * @active:	a migration is under way.
 * @level, @drives: the old RAID level and member count (the first
 *		@drives members are the old ones, in their old order).
 */
struct rcl_soft_migration {
	bool active;
	enum rcl_raid_level level;
	unsigned drives;
};

/**
 * struct rcl_soft_dg - one disk group.
 * @first_lba, @last_lba: the room for VD partitions on every member.
 * @members:	span by span; @spans * @drives_per_span of them.
 * @spares:	its dedicated hot spares, @spare_count of them.
 * @migrate:	the migration under way, if any.
 */
struct rcl_soft_dg {
	unsigned id;
	enum rcl_raid_level level;
	unsigned spans;
	unsigned drives_per_span;
	uint64_t first_lba;
	uint64_t last_lba;
	struct rcl_soft_member members[RCL_SOFT_MAX_MEMBERS];
	unsigned spare_count;
	struct rcl_soft_spare spares[RCL_MAX_HOT_SPARES];
	struct rcl_soft_migration migrate;
};

/**
 * struct rcl_soft_vd - one virtual drive, as stored.
 * @dg:		its group's id.
 * @uuid:	the md array UUID (set_uuid), in md's byte order; for
 *		RAID00/50/60 the top RAID0's.
 * @span_uuids:	RAID00/50/60: each span array's UUID ("span_uuids" in JSON,
 *		only for those levels).
 * @part:	its GPT entry on every member (index into parts[], >= 1).
 * @first_lba, @last_lba: the partition's extent, in the drives' sectors.
 * @bytes:	the capacity md presents.
 * @md_kept:	the VD keeps md's member layout @md (an adopted md array's)
 *		rather than the computed one (see rcl_soft_vd_geometry()).
 * @no_autobgi:	"autobgi": false (so a VD made zeroed has it on).
 */
struct rcl_soft_vd {
	unsigned id;
	unsigned dg;
	char name[RCL_VD_NAME_MAX + 1];
	uint8_t uuid[16];
	uint8_t span_uuids[RCL_MAX_SPANS][16];
	unsigned part;
	uint64_t first_lba;
	uint64_t last_lba;
	uint64_t bytes;
	unsigned strip_kib;
	enum rcl_write_policy write;
	enum rcl_read_policy read;
	enum rcl_access_policy access;
	enum rcl_disk_cache_policy disk_cache;
	enum rcl_io_policy io;
	bool consistent;
	bool no_autobgi;
	time_t created;
	bool md_kept;
	struct rcl_md_geometry md;
};

/*
 * struct rcl_soft_config - the whole configuration; VDs sorted by id.
 * @spares:	the global hot spares, @spare_count of them.
 * @spare_dgs:	per entry of @spares: a bit per group id it is dedicated
 *		to ("dgs" in JSON), 0 for a global spare.
 * @spare_flags: per entry of @spares: its RCL_SPARE_* flags.
 */
struct rcl_soft_config {
	char serial[64];
	size_t spare_count;
	struct rcl_soft_member spares[RCL_MAX_HOT_SPARES];
	uint32_t spare_dgs[RCL_MAX_HOT_SPARES];
	unsigned spare_flags[RCL_MAX_HOT_SPARES];
	size_t dg_count;
	struct rcl_soft_dg dgs[RCL_MAX_DGS];
	size_t vd_count;
	struct rcl_soft_vd vds[RCL_MAX_VDS];
};

/**
 * rcl_soft_config_parse() - read and check the payload @text (@len bytes,
 * not NUL-terminated) taken from drive @drive (a name for messages).
 * Everything is checked: types, ranges, unique ids, members and UUIDs, VD
 * extents that lie inside the drive's GPT range and do not overlap.
 * Return: RCL_OK; RCL_CORRUPT "drive @drive: …" naming the first problem;
 * RCL_NOMEM.
 */
enum rcl_status rcl_soft_config_parse(const void *text, size_t len, const char *drive,
                                      struct rcl_soft_config *cfg, struct rcl_error *err);

/**
 * rcl_soft_config_format() - @cfg as the payload, in a new NUL-terminated
 * string (free with rcl_free()), its length in *@len.
 * Return: the string, or NULL when out of memory.
 */
char *rcl_soft_config_format(const struct rcl_soft_config *cfg, size_t *len);

/* rcl_soft_config_dg() - the group with id @id, or NULL. */
const struct rcl_soft_dg *rcl_soft_config_dg(const struct rcl_soft_config *cfg, unsigned id);

/* rcl_soft_config_vd() - the VD with id @id, or NULL. */
const struct rcl_soft_vd *rcl_soft_config_vd(const struct rcl_soft_config *cfg, unsigned id);

/*
 * rcl_soft_config_dg_mut(), rcl_soft_config_vd_mut() - the same lookups in a
 * configuration the caller changes (@cfg is not const, so neither is what it holds).
 */
static inline struct rcl_soft_dg *rcl_soft_config_dg_mut(struct rcl_soft_config *cfg, unsigned id)
{
	return (struct rcl_soft_dg *)rcl_soft_config_dg(cfg, id);
}

static inline struct rcl_soft_vd *rcl_soft_config_vd_mut(struct rcl_soft_config *cfg, unsigned id)
{
	return (struct rcl_soft_vd *)rcl_soft_config_vd(cfg, id);
}

/* rcl_soft_config_spares() - how many hot spares @cfg has, global and dedicated. */
size_t rcl_soft_config_spares(const struct rcl_soft_config *cfg);

/* rcl_soft_dg_members() - how many members @dg has. */
unsigned rcl_soft_dg_members(const struct rcl_soft_dg *dg);

/*
 * rcl_soft_dg_held() - how many drives @dg holds: its members, and while
 * a migration removes drives the removed ones too (members past
 * rcl_soft_dg_members(), in their old roles), which the copy still reads.
 */
unsigned rcl_soft_dg_held(const struct rcl_soft_dg *dg);

#endif /* RCL_SOFT_CONFIG_H */
