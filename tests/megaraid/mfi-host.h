/* SPDX-License-Identifier: MIT */
/*
 * mfi-host.h - the host the megaraid tests run on (mfi-host.c), and the
 * checks they share.
 */
#ifndef RCL_MFI_HOST_H
#define RCL_MFI_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mfi-shim.h"
#include "unit.h"

#define MAJOR_NOW 247
#define PCI_FN    "0000:00:05.0"

/* QEMU's three disks: SCSI ids 0 to 2, of 1 GiB, 2 GiB and 2 GiB. */
extern const struct mfi_shim_disk three[3];

/* A host with the driver loaded at @major (-1: not loaded), the adapter at host 2. */
struct host {
	struct unit_state st;
	char *root;
};

/* The driver's major now @major (-1: not loaded). */
void set_major(const struct host *h, int major);

/* The host with the driver at @major, the adapter (QEMU's, three disks) at host 2. */
void host_init(struct host *h, int major);

/* host_init() with the driver loaded, in UTC: the card's times shown as it keeps them. */
void host_utc(struct host *h);

void host_release(struct host *h);

/* The end of every test: the shim saw nothing amiss; the host released. */
void host_done(struct host *h);

/* Open the one controller; its status, @err filled on failure. */
enum rcl_status open_c0(struct rcl_ctx **ctx, struct rcl_ctrl **ctrl, struct rcl_error *err);

/* Run @line (as "J" when @json); its status must be @want, its output contain each of @has. */
void expect(const char *line, bool json, enum rcl_status want, const char *const *has);

/* @has of expect(): the strings given, NULL-ended. */
#define HAS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* expect() of the text output and one string @has (NULL: none). */
void run_expect(const char *line, enum rcl_status want, const char *has);

/* How many frames of the @n opcodes @ops came; SENT() of an array of them. */
unsigned frames_sent(const uint32_t *ops, size_t n);
#define SENT(ops) frames_sent((ops), sizeof(ops) / sizeof((ops)[0]))

/* The mailbox of the last change @opcode: @want's first bytes, the rest zero. */
void expect_mbox(uint32_t opcode, const uint8_t *want, size_t n);

/* A status the firmware refuses a change with: raidcli's status for it, and its name. */
struct refusal {
	uint8_t status;
	enum rcl_status want;
	const char *name;
};

/* Such refusals, one of each kind raidcli maps (FW_REFUSALS of them). */
extern const struct refusal fw_refusals[];
#define FW_REFUSALS 4

/*
 * A change the firmware refuses: @line, its DCMD @opcode refused; its
 * failure says @says (NULL: the status name alone); @show then answers
 * @still, as before (@show NULL: not asked).
 */
struct refused_change {
	uint32_t opcode;
	const char *line;
	const char *says;
	const char *show;
	const char *still;
};

/*
 * expect_refused() - @c refused with @r: its status, @c->says and the
 * status's name in the text, the name in the JSON; nothing changed.
 */
void expect_refused(const struct refused_change *c, const struct refusal *r);

/*
 * A change whose record read (@get, after the @loaded reads of the
 * command's loads: a set opens the controller to check, then to change)
 * the firmware answers OK without writing, as QEMU's dummy does.
 */
struct unwritten_read {
	uint32_t get;
	uint32_t set;
	unsigned loaded;
	const char *line;
	const char *get_name;
};

/* @u's @line refused as a bad reply naming @u->get_name; no @u->set sent (no zeros written back).
 */
void expect_unwritten(const struct unwritten_read *u);

/* The host with disks 1 and 2 free (QEMU's LDs of them gone), disk 0 still LD 0. */
void host_free_two(struct host *h);

#endif /* RCL_MFI_HOST_H */
