/* SPDX-License-Identifier: MIT */
/*
 * reshape.h - RAID level migration and online capacity expansion of one md
 * array, done the way md reshapes: the data is copied, new stripe by new
 * stripe (a "row": one chunk at the same offset of every member), from the
 * old geometry to a new md geometry over the old members plus any added
 * ones, or over the old members but the last ones (removed), from the
 * front, with the position reached checkpointed by the caller. Supported:
 * an old RAID0, RAID1 (its data read from a member not lost), RAID5 or
 * RAID6 to a RAID0, RAID5 or RAID6 (left-symmetric) with at least as many
 * data strips per stripe, so that data only moves towards lower member
 * offsets: RAID5 add drives, RAID6 add drives, RAID5 -> RAID6 (+1 drive),
 * RAID0 -> RAID5 (+1 drive), RAID1 -> RAID5, RAID6 -> RAID5, RAID1, RAID5
 * or RAID6 -> RAID0 (the same drives), and the removals that keep the data
 * strips: RAID6 -> RAID5 (-1 drive), RAID5 -> RAID0 (-1 drive), RAID6 ->
 * RAID0 (-1 or -2 drives). A removal with fewer data strips would have to
 * walk backwards (md's reshape_backwards) over a larger member area; it is
 * not one of these.
 *
 * Crash safety. Writing new rows [s, s+m) in place overwrites old rows
 * there; that is safe when every byte of data those old rows hold is
 * already in new rows below s, written and synced before the checkpoint
 * that said "position s" (a crash then redoes the step from old rows
 * above, which nothing has touched). Where it is not (the first rows of a
 * growth, every row when the data strips per stripe stay the same), the
 * new rows go first to a backup area on every member, are synced, and
 * the checkpoint records "rows [s, s+m) are in the backup"; a crash then
 * completes them from the backup. Every checkpoint is made by the
 * caller's @save, which must return only once it is durable.
 *
 * Rows past the old data get zero data and matching parity, so the new
 * array is consistent as a whole when the reshape ends.
 *
 * Serving I/O meanwhile: VD data below rcl_soft_reshape_boundary() is in
 * the new geometry, the rest in the old one (data offsets are the same in
 * both: only where a byte lives changes). A step moves only the data in
 * [boundary, rcl_soft_reshape_next()) and overwrites only old rows whose
 * data lies below its end, so a caller that holds that range's stripe
 * locks around each step, and maps every other request by the boundary,
 * serves them all correctly. Rows left in the backup by a crash must be
 * completed (one step) before I/O resumes.
 *
 * Lost members: a member whose @fd is -1 is neither read nor written; the
 * reshape goes on degraded as long as both arrays survive without it
 * (rcl_soft_reshape_survives()), as md's reshape of a degraded array does.
 *
 * What this does not do: change the configuration record or the md
 * superblocks (migrate.h), or serve requests (volume-reshape.c).
 */
#ifndef RCL_SOFT_RESHAPE_H
#define RCL_SOFT_RESHAPE_H

#include "soft/engine/stripe.h"

/**
 * struct rcl_soft_reshape_mark - a checkpoint.
 * @position:	new rows below this are complete, in place.
 * @backup_rows: when not 0, new rows [@position, @position + @backup_rows)
 *		are complete in the backup area (and maybe torn in place).
 */
struct rcl_soft_reshape_mark {
	uint64_t position;
	uint64_t backup_rows;
};

/**
 * struct rcl_soft_reshape - a reshape from @from to @to.
 * @from, @to:	the old and new arrays; old member i is new member i, the
 *		new members past @from.n are the added drives, the old ones
 *		past @to.n the removed drives (read, never written).
 * @fd:		each member's drive (of both arrays), open for reading and
 *		writing, or -1
 *		for a member lost (failed): its old strips are recovered from
 *		the old array's redundancy, its new ones are not written (and
 *		recovered from the new parity when read back from the backup).
 * @failed:	when not NULL, told of each member an I/O error failed (the
 *		step then returns that error; the caller takes the member out
 *		by setting its @fd to -1 and steps again from the last mark).
 * @backup_at:	the drive byte, the same on every new member, of the backup
 *		area: @backup_rows chunks outside both geometries' data.
 * @save:	make @mark durable; 0, or a negative errno.
 * @rows:	(set by _plan()) the new rows to write.
 * @data_bytes: (set by _plan()) the data to move: @from's capacity.
 */
struct rcl_soft_reshape {
	struct rcl_soft_array from;
	struct rcl_soft_array to;
	int fd[RCL_SOFT_ARRAY_MAX];
	uint64_t backup_at;
	uint64_t backup_rows;
	int (*save)(void *ctx, const struct rcl_soft_reshape_mark *mark);
	void *ctx;
	void (*failed)(void *ctx, unsigned member, int error);
	void *failed_ctx;
	uint64_t rows;
	uint64_t data_bytes;
};

/**
 * rcl_soft_reshape_plan() - check the reshape @r describes (its arrays
 * and backup area) and fill in @rows and @data_bytes.
 * Return: RCL_OK; RCL_INVALID_PARAM naming what is not supported: a
 * level pair, fewer data strips or members, another chunk, new data that
 * does not fit, a backup area too small for the critical rows or inside
 * the data.
 */
enum rcl_status rcl_soft_reshape_plan(struct rcl_soft_reshape *r, struct rcl_error *err);

/**
 * rcl_soft_reshape_step() - from checkpoint @mark (as @save last made it;
 * {0, 0} to start), do the next step: complete rows a crash left in the
 * backup, or copy the next rows, and advance *@mark (saved).
 * Return: 1 when rows remain, 0 when the reshape is complete, or a
 * negative errno (a member I/O error, or @save's); after an error, the
 * last saved mark resumes it.
 */
int rcl_soft_reshape_step(const struct rcl_soft_reshape *r, struct rcl_soft_reshape_mark *mark);

/*
 * rcl_soft_reshape_survives() - whether, without the members whose @fd is
 * -1, the old array still gives all its data and the new one loses no
 * more members than its parity covers.
 */
bool rcl_soft_reshape_survives(const struct rcl_soft_reshape *r);

/*
 * rcl_soft_reshape_headroom() - put @r's backup area in md's reshape
 * headroom: the whole chunks (at most RCL_SOFT_RESHAPE_BACKUP_MAX) between
 * drive byte @meta_end (the end of the member's superblock, bitmap and
 * bad-block log) and the lower of the two data starts, the data's own
 * alignment kept. @backup_rows is 0 when not one chunk fits.
 */
#define RCL_SOFT_RESHAPE_BACKUP_MAX 16
void rcl_soft_reshape_headroom(struct rcl_soft_reshape *r, uint64_t meta_end);

/*
 * rcl_soft_reshape_boundary() - at checkpoint @mark (with no rows in the
 * backup), the VD data byte below which the data is in the new geometry.
 */
uint64_t rcl_soft_reshape_boundary(const struct rcl_soft_reshape *r,
                                   const struct rcl_soft_reshape_mark *mark);

/*
 * rcl_soft_reshape_next() - the end of the VD data the next step from
 * @mark moves (from the boundary on): the range to lock around it.
 */
uint64_t rcl_soft_reshape_next(const struct rcl_soft_reshape *r,
                               const struct rcl_soft_reshape_mark *mark);

#endif /* RCL_SOFT_RESHAPE_H */
