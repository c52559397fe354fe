/* SPDX-License-Identifier: MIT */
/*
 * scan.h - read a soft controller's configuration from its drives.
 *
 * Each slot's drive is opened and classified: blank (no GPT, no md
 * superblock), raidcli's (a GPT with the metadata partition), or foreign
 * (anything else, or another controller's record). The records of every
 * raidcli drive go to rcl_soft_record_choose(); the winner's payload is
 * the configuration. A damaged GPT or record on one drive only takes that
 * drive out: the others still carry the configuration.
 */
#ifndef RCL_SOFT_SCAN_H
#define RCL_SOFT_SCAN_H

#include "config.h"
#include "soft/format/gpt.h"
#include "soft/format/record.h"
#include "soft/soft.h"

/* What a drive holds, as far as this controller is concerned. */
enum rcl_soft_disk_kind {
	RCL_SOFT_DISK_ABSENT,  /* no drive, or it cannot be opened */
	RCL_SOFT_DISK_BLANK,   /* no GPT, no md superblock: free */
	RCL_SOFT_DISK_OURS,    /* our metadata partition, a record of this controller or none */
	RCL_SOFT_DISK_FOREIGN, /* another controller's, or data we did not write */
};

/*
 * The configuration a FOREIGN drive carries, if any: those drives show as
 * foreign (DG F) and make up /cN/fall (foreign.h). Other foreign drives
 * (an MBR, a GPT of another tool, a damaged record) only refuse to be used.
 */
enum rcl_soft_foreign {
	RCL_SOFT_FOREIGN_NONE,
	RCL_SOFT_FOREIGN_RAIDCLI, /* another controller's record: @owner names it */
	RCL_SOFT_FOREIGN_MD_DISK, /* md metadata on the whole drive */
	RCL_SOFT_FOREIGN_MD_GPT,  /* md members in Linux RAID partitions of a GPT (@gpt) */
};

/**
 * struct rcl_soft_disk - one slot's drive.
 * @path:	borrowed from the controller's slot.
 * @fd:		open read-write (read-only when it refuses), or -1.
 * @ro_errno:	why it refused to open read-write (errno), or 0: a change
 *		that would write it fails before writing anything
 *		(rcl_soft_change_writable()).
 * @gpt:	its GPT when @kind is OURS, or FOREIGN with a GPT (heap: 18 KiB).
 * @meta:	@gpt's entry of the metadata partition, when OURS (or
 *		FOREIGN_RAIDCLI).
 * @dg, @member: its group's index in the configuration and its index
 *		among the group's members, or -1.
 * @spare:	a hot spare of the configuration.
 * @spare_dg:	for a dedicated spare, its group's index in the
 *		configuration; -1 for a global one.
 * @why:	for FOREIGN, what was found.
 * @foreign, @owner: for FOREIGN, the configuration it carries, and for
 *		FOREIGN_RAIDCLI the serial of the controller that wrote it.
 */
struct rcl_soft_disk {
	unsigned slot;
	const char *path;
	int fd;
	int ro_errno;
	unsigned sector_size;
	uint64_t bytes;
	enum rcl_soft_disk_kind kind;
	struct rcl_gpt *gpt;
	unsigned meta;
	int dg;
	int member;
	bool spare;
	int spare_dg;
	char why[96];
	enum rcl_soft_foreign foreign;
	char owner[RCL_SOFT_RECORD_SERIAL_MAX + 1];
};

/**
 * struct rcl_soft_state - the configuration and the drives it was read from.
 * @disks:	one per slot, in the controller's slot order.
 * @recs, @verdicts: per disk: its metadata partition's records (not
 *		present unless the disk is OURS) and its standing.
 * @cfg:	the configuration in force (no groups when unconfigured).
 * @next_generation: for the next record update.
 */
struct rcl_soft_state {
	size_t count;
	struct rcl_soft_disk *disks;
	struct rcl_soft_record_drive *recs;
	struct rcl_soft_record_verdict *verdicts;
	struct rcl_soft_config cfg;
	uint64_t next_generation;
};

/**
 * rcl_soft_scan() - open and read every drive of @sc into a new state.
 * Return: RCL_OK; RCL_CORRUPT when the chosen record's payload is not a
 * valid configuration of this controller (naming the drive); RCL_NOMEM.
 */
enum rcl_status rcl_soft_scan(const struct soft_ctrl *sc, struct rcl_soft_state **out,
                              struct rcl_error *err);

/* rcl_soft_state_free() - close the drives and free @state (NULL is fine). */
void rcl_soft_state_free(struct rcl_soft_state *state);

/* rcl_soft_find_member() - the disk that is @dg's member @member, or NULL. */
struct rcl_soft_disk *rcl_soft_find_member(struct rcl_soft_state *state,
                                           const struct rcl_soft_dg *dg, unsigned member);

/* rcl_soft_find_disk() - the drive of ours whose GPT disk GUID is @uuid, or NULL. */
struct rcl_soft_disk *rcl_soft_find_disk(struct rcl_soft_state *state, const struct rcl_guid *uuid);

#endif /* RCL_SOFT_SCAN_H */
