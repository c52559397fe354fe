/* SPDX-License-Identifier: MIT */
/*
 * record.h - the controller's configuration record on each of its drives,
 * and the two-phase update that keeps the drives consistent.
 *
 * A soft controller keeps its configuration on its drives, as a hardware
 * RAID controller does. Each configured drive's GPT starts with a small
 * raidcli metadata partition (type rcl_soft_record_part_type, 1 MiB) that
 * holds two record slots:
 *
 *	byte 0		slot A: a 4 KiB header, then the payload
 *	byte 512 KiB	slot B: the same
 *
 * The partition may be shorter, down to RCL_SOFT_RECORD_PART_MIN: an md
 * member adopted where its partition starts at 1 MiB ("sgdisk -n 1:0:0")
 * keeps it in the GPT's gap before that (foreign.c). Slot B is then cut
 * at the partition's end, and so is the payload it can hold.
 *
 * A header (all fields little-endian; the rest of the 4 KiB is zero):
 *
 *	0	magic "RCLCFG01"
 *	8	format version (1)
 *	12	the slot it was written for (0 = A, 1 = B)
 *	16	generation (u64, from 1)
 *	24	state: 1 PENDING, 2 COMMITTED
 *	28	payload length in bytes
 *	32	CRC-32 of the payload
 *	36	CRC-32 of the whole 4 KiB header, this field counted as zero
 *	40	this drive's UUID (16 bytes)
 *	56	the controller's serial: printable ASCII, NUL-padded to 64 bytes
 *
 * The payload is the caller's (the configuration as JSON); this module
 * only stores it and proves it intact.
 *
 * The update protocol: prepare on every drive (write the new record as
 * PENDING into the slot that does not hold the drive's newest committed
 * record, fdatasync), and only then commit on every drive (rewrite that
 * header as COMMITTED, fdatasync). Loading picks the highest generation
 * committed on any drive (rcl_soft_record_choose()). Why that survives a
 * crash after any write is told at rcl_soft_record_update().
 */
#ifndef RCL_SOFT_RECORD_H
#define RCL_SOFT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "guid.h"
#include "io.h"

/* The metadata partition: its size, its two slots, a slot's header. */
#define RCL_SOFT_RECORD_PART_BYTES   (1u << 20)
#define RCL_SOFT_RECORD_PART_MIN     (768u << 10)
#define RCL_SOFT_RECORD_SLOT_BYTES   (RCL_SOFT_RECORD_PART_BYTES / 2)
#define RCL_SOFT_RECORD_HEADER_BYTES 4096u
#define RCL_SOFT_RECORD_PAYLOAD_MAX  (RCL_SOFT_RECORD_SLOT_BYTES - RCL_SOFT_RECORD_HEADER_BYTES)
/* The longest controller serial a record holds (plus its NUL on disk). */
#define RCL_SOFT_RECORD_SERIAL_MAX 63
#define RCL_SOFT_RECORD_SLOTS      2

/* The metadata partition's GPT type, 0A511BD4-1AB7-4BFC-BE0F-14838F789FCD. */
extern const struct rcl_guid rcl_soft_record_part_type;

enum rcl_soft_record_state {
	RCL_SOFT_RECORD_PENDING = 1,   /* written by prepare, not yet in force */
	RCL_SOFT_RECORD_COMMITTED = 2, /* in force once it is the highest */
};

/**
 * struct rcl_soft_record_header - one slot's header, decoded.
 * @generation:	the update that wrote it; the highest committed one wins.
 * @state:	PENDING or COMMITTED.
 * @serial:	the controller the drive belonged to when it was written.
 * @drive_uuid:	the drive it was written for; the caller compares it with
 *		the drive's identity (a copy of another drive's record
 *		carries the other drive's UUID).
 * @payload_len, @payload_crc: the payload's size and CRC-32.
 */
struct rcl_soft_record_header {
	uint64_t generation;
	enum rcl_soft_record_state state;
	char serial[RCL_SOFT_RECORD_SERIAL_MAX + 1];
	struct rcl_guid drive_uuid;
	uint32_t payload_len;
	uint32_t payload_crc;
};

/**
 * struct rcl_soft_record_slot - one slot as last read or written.
 * @valid:	the header and payload passed every check.
 * @why:	when not @valid, the reason: RCL_NOT_FOUND for a blank
 *		(all-zero) header, RCL_UNSUPPORTED for a newer format,
 *		RCL_CORRUPT for damage, RCL_SYSTEM when a write to it failed
 *		and its contents are unknown until the drive is read again.
 * @hdr:	the header, when @valid.
 * @buf:	owned: the 4 KiB header block followed by the payload.
 * @payload:	borrowed from @buf: @hdr.payload_len bytes, when @valid.
 */
struct rcl_soft_record_slot {
	bool valid;
	struct rcl_error why;
	struct rcl_soft_record_header hdr;
	uint8_t *buf;
	const uint8_t *payload;
};

/**
 * struct rcl_soft_record_drive - one drive's metadata partition.
 * @fd:		the drive, open read-write (read-only suffices for reading).
 * @offset, @bytes: the partition's first byte on @fd and its size.
 * @uuid:	this drive's UUID, written into every record prepared here.
 * @present:	set by a successful rcl_soft_record_read(); a drive that is
 *		missing or could not be read stays false and takes no part.
 * @slots:	slot A then slot B.
 */
struct rcl_soft_record_drive {
	int fd;
	uint64_t offset;
	uint64_t bytes;
	struct rcl_guid uuid;
	bool present;
	struct rcl_soft_record_slot slots[RCL_SOFT_RECORD_SLOTS];
};

/**
 * struct rcl_soft_record_config - a configuration to write.
 * @generation:	rcl_soft_record_choice.next_generation: above every record
 *		on the drives, so no two different payloads ever share one.
 * @serial:	the controller's serial, 1 to 63 printable ASCII characters.
 * @payload, @len: the record's contents (borrowed), at most
 *		RCL_SOFT_RECORD_PAYLOAD_MAX bytes.
 */
struct rcl_soft_record_config {
	uint64_t generation;
	const char *serial;
	const void *payload;
	size_t len;
};

/* Where a drive stands against the chosen configuration. */
enum rcl_soft_record_standing {
	RCL_SOFT_RECORD_ABSENT,  /* not present: missing or unreadable */
	RCL_SOFT_RECORD_NONE,    /* no valid record: blank or damaged (see the slots) */
	RCL_SOFT_RECORD_FOREIGN, /* its newest record is another controller's */
	RCL_SOFT_RECORD_CURRENT, /* holds the chosen configuration, committed */
	RCL_SOFT_RECORD_BEHIND,  /* holds it PENDING: commit that slot */
	RCL_SOFT_RECORD_STALE,   /* this controller's, but older: write it again */
};

/**
 * struct rcl_soft_record_verdict - one drive's standing.
 * @slot:	for CURRENT, the slot holding the configuration; for BEHIND,
 *		the pending slot to pass to rcl_soft_record_commit().
 */
struct rcl_soft_record_verdict {
	enum rcl_soft_record_standing standing;
	unsigned slot;
};

/**
 * struct rcl_soft_record_choice - the configuration loading settled on.
 * @generation:	the winner's generation, 0 when there is none.
 * @drive, @slot: where its payload is: drives[@drive].slots[@slot].
 * @next_generation: one above every valid record on every present drive,
 *		this controller's or not, pending or committed: the
 *		generation for the next update.
 */
struct rcl_soft_record_choice {
	uint64_t generation;
	size_t drive;
	unsigned slot;
	uint64_t next_generation;
};

/**
 * rcl_soft_record_encode() - @hdr as written into slot @slot: the 4 KiB
 * block at @block with its header CRC. @hdr must be one that
 * rcl_soft_record_decode() accepts.
 */
void rcl_soft_record_encode(const struct rcl_soft_record_header *hdr, unsigned slot,
                            uint8_t *block);

/**
 * rcl_soft_record_decode() - check and decode the 4 KiB header @block read
 * from slot @slot. Every field is checked before use: magic, version,
 * header CRC, that the header was written for @slot, state, a non-zero
 * generation, a payload length that fits a slot, a NUL-terminated
 * printable serial with zero padding, zero reserved bytes. The payload's
 * CRC is rcl_soft_record_read()'s to check.
 * Return: RCL_OK; RCL_NOT_FOUND when @block is all zero (never written);
 * RCL_UNSUPPORTED for a later format version; RCL_CORRUPT naming the
 * first failed check.
 */
enum rcl_status rcl_soft_record_decode(const uint8_t *block, unsigned slot,
                                       struct rcl_soft_record_header *hdr, struct rcl_error *err);

/**
 * rcl_soft_record_drive_init() - an unread drive at @offset on @fd, its
 * partition @bytes long, with identity @uuid. Nothing is read yet.
 */
void rcl_soft_record_drive_init(struct rcl_soft_record_drive *drive, int fd, uint64_t offset,
                                uint64_t bytes, const struct rcl_guid *uuid);

/* rcl_soft_record_drive_release() - free the slots' buffers; @drive is unread after. */
void rcl_soft_record_drive_release(struct rcl_soft_record_drive *drive);

/**
 * rcl_soft_record_read() - read and check both slots of @drive.
 *
 * A damaged slot is not an error: it comes back with valid false and the
 * reason in its @why, as does a slot that lies past the partition's end or
 * the end of the drive (a truncated partition). Payloads are kept in the
 * slots. On success @drive->present is true.
 * Return: RCL_OK; RCL_SYSTEM when the drive cannot be read; RCL_NOMEM.
 * On failure the drive is left unread (not present, no buffers).
 */
enum rcl_status rcl_soft_record_read(struct rcl_soft_record_drive *drive, struct rcl_error *err);

/**
 * rcl_soft_record_target() - the slot the next prepare on @drive writes:
 * the one that does not hold its newest valid committed record (any
 * controller's), or slot A when neither slot holds a committed record.
 */
unsigned rcl_soft_record_target(const struct rcl_soft_record_drive *drive);

/**
 * rcl_soft_record_prepare() - phase 1 on one drive: write @cfg as a PENDING
 * record into rcl_soft_record_target()'s slot in one write, then
 * fdatasync. The drive's newest committed record is never touched, so
 * until a commit the drive still loads as before.
 * Return: RCL_OK; RCL_INVALID_PARAM (generation 0, a bad serial, a payload
 * over RCL_SOFT_RECORD_PAYLOAD_MAX, a partition under
 * RCL_SOFT_RECORD_PART_BYTES); RCL_NOT_ALLOWED when @drive was not read;
 * RCL_SYSTEM, after which the slot's contents are unknown (its @why says
 * so) and the drive must be read again; RCL_NOMEM, before any write.
 */
enum rcl_status rcl_soft_record_prepare(struct rcl_soft_record_drive *drive,
                                        const struct rcl_soft_record_config *cfg,
                                        struct rcl_error *err);

/**
 * rcl_soft_record_commit() - phase 2 on one drive: rewrite slot @slot's
 * header as COMMITTED (the header block only, its CRC updated), then
 * fdatasync. The payload already on disk is what the new header's payload
 * CRC was computed over, so the slot stays whole.
 * Return: RCL_OK; RCL_NOT_ALLOWED when @slot does not hold a valid PENDING
 * record; RCL_SYSTEM, after which the slot's contents are unknown.
 */
enum rcl_status rcl_soft_record_commit(struct rcl_soft_record_drive *drive, unsigned slot,
                                       struct rcl_error *err);

/**
 * rcl_soft_record_update() - write @cfg to every present drive of @drives:
 * prepare on every drive, and only when all prepares are durable, commit
 * on every drive.
 *
 * Why a crash after any single write leaves every drive with either the
 * old or the new configuration, and loading agrees on one:
 *  - Prepare writes only into the slot that does not hold the drive's
 *    newest committed record, so throughout phase 1 every drive still
 *    holds the old configuration committed and nothing committed is newer:
 *    loading picks the old one, whatever phase 1 left in the other slots.
 *  - Each prepare is fdatasync'ed before the first commit is written, so
 *    once any drive holds the new generation COMMITTED, every drive holds
 *    it at least PENDING on stable storage. Loading then picks the new one,
 *    and every other drive can be rolled forward by committing its own
 *    pending copy: the new configuration survives the loss of any drives
 *    but all.
 *  - A commit rewrites one 4 KiB header whose fields sit in its first 512
 *    bytes; the rest of the block is zero before and after, so even a
 *    write torn at sector granularity leaves the old or the new header.
 *    Any other tear fails a CRC: the slot reads as damaged, and the drive
 *    falls back to its other slot, which the protocol never writes while
 *    it holds the newest committed record.
 *  - Each commit's fdatasync makes the update durable before success is
 *    reported.
 * A drive that is not present keeps its old record and loads as STALE.
 *
 * Return: RCL_OK; RCL_INVALID_PARAM as for prepare, or when no drive is
 * present; a prepare's failure, with nothing committed anywhere (the old
 * configuration stands); a commit's failure (RCL_SYSTEM), after the other
 * drives were committed all the same: the new configuration stands on the
 * drives that committed and the failed drive is BEHIND or damaged. After
 * any failure, read the drives again before the next update.
 */
enum rcl_status rcl_soft_record_update(struct rcl_soft_record_drive *drives, size_t count,
                                       const struct rcl_soft_record_config *cfg,
                                       struct rcl_error *err);

/**
 * rcl_soft_record_choose() - the configuration of controller @serial that
 * the @count drives of @drives (each read, or not present) hold, and where
 * each drive stands against it in @verdicts (@count entries).
 *
 * A drive belongs to the controller of its newest valid committed record
 * (its newest pending one when it has no committed record); drives of
 * another serial are FOREIGN and take no part. The winner is the highest
 * generation committed on any of the controller's drives (the first such
 * drive supplies the payload). A drive holding that generation PENDING,
 * with the same payload length and CRC, is BEHIND; a drive holding only
 * older records is STALE. A PENDING generation above every committed one
 * means phase 1 may not have finished: it is ignored, and the next update
 * overwrites it. @choice->next_generation is filled in every case.
 * Return: RCL_OK with a winner; RCL_NOT_FOUND when no drive holds a
 * committed configuration of @serial (unconfigured); RCL_CORRUPT when none
 * does but a drive that is not foreign has a damaged slot (the message
 * names the first). The verdicts are filled in every case.
 */
enum rcl_status rcl_soft_record_choose(const struct rcl_soft_record_drive *drives, size_t count,
                                       const char *serial, struct rcl_soft_record_choice *choice,
                                       struct rcl_soft_record_verdict *verdicts,
                                       struct rcl_error *err);

#endif /* RCL_SOFT_RECORD_H */
