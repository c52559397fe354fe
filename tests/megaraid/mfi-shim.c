// SPDX-License-Identifier: MIT
/*
 * mfi-shim.c - the adapter behind mfi-shim.h, built as a shared library
 * that tests/megaraid/meson.build puts in LD_PRELOAD. It reads and writes
 * packets and replies at the byte offsets of the public interface
 * (research/passthrough.md section 4), not through lib/megaraid/mfi.h, so
 * a wrong layout there shows here as a wrong field.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "mfi-shim-hw.h"
#include "mfi-shim-tasks.h"
#include "mfi-shim.h"

/* _IOWR('M', 1, a packet of 404 bytes) on x86-64. */
#define IOC_FIRMWARE 0xc1944d01ul

/* The packet: host, SGL offset, SGE count, sense offset and length, the frame, the iovecs. */
#define PKT_HOST      0
#define PKT_SGL_OFF   4
#define PKT_SGE_COUNT 8
#define PKT_SENSE_OFF 12
#define PKT_SENSE_LEN 16
#define PKT_FRAME     20
#define PKT_IOVECS    148

/* The frame header, then a DCMD's opcode and mailbox, or a pass-through's sense address and CDB. */
#define F_CMD       0
#define F_SENSE_LEN 1
#define F_STATUS    2
#define F_TARGET    4
#define F_LUN       5
#define F_CDB_LEN   6
#define F_SGE_COUNT 7
#define F_FLAGS     16
#define F_DATA_LEN  20
#define F_OPCODE    24
#define F_MBOX      28
#define F_CDB       32

#define MFI_WRITE 0x0008
#define MFI_READ  0x0010

enum {
	ST_OK = 0x00,
	ST_INVALID_PARAMETER = 0x03,
	ST_INVALID_SEQUENCE = 0x04,
	ST_ARRAY_INDEX_INVALID = 0x09,
	ST_ARRAY_ROW_NOT_EMPTY = 0x0a,
	ST_DEVICE_NOT_FOUND = 0x0c,
	ST_NOT_FOUND = 0x23,
	ST_ROW_INDEX_INVALID = 0x28,
	ST_SCSI_DONE_WITH_ERROR = 0x2d,
	ST_WRONG_STATE = 0x32,
};

/* The changes: their opcodes. */
enum {
	OP_GET_PROPS = 0x01020100,
	OP_SET_PROPS = 0x01020200,
	OP_STATE_SET = 0x02030100,
	OP_LOCATE_START = 0x02070100,
	OP_LOCATE_STOP = 0x02070200,
	OP_MISSING_MARK = 0x02080100,
	OP_MISSING_REPLACE = 0x02080200,
	OP_LD_GET_PROP = 0x03030000,
	OP_LD_SET_PROP = 0x03040000,
	OP_LD_DELETE = 0x03090000,
	OP_CFG_ADD = 0x04020000,
	OP_MAKE_SPARE = 0x04040000,
	OP_REMOVE_SPARE = 0x04050000,
};

static char node[4096];
static uint16_t host;
static const char *serial;
static const struct mfi_shim_disk *disks;
static size_t disk_count;
static char failure[512];
static unsigned mknods;
static int mknod_errno;
static int unlink_errno;
static dev_t node_dev;
static mode_t node_mode;
static const struct mfi_shim_event *events;
static size_t event_count;
static bool real_log;
static const struct mfi_shim_patrol *patrol;
static uint8_t pr_set[208]; /* PR_SET_PROPERTIES' payload, once written (pr_written) */
static bool pr_written;
static uint8_t temperature;
static uint32_t raid_levels;    /* CTRL_GET_INFO's; QEMU's: RAID0 */
static uint32_t more_ops;       /* adapter_ops besides QEMU's */
static uint32_t ops2;           /* the second adapter operations word; QEMU's: 0 */
static bool card_ids;           /* PDs numbered by SCSI id, a card's firmware version */
static bool ses;                /* PD_GET_LIST lists an enclosure's SES device last */
static bool pulled[256];        /* by SCSI id: listed, then found by nothing else */
static uint8_t scsi_fault[256]; /* by SCSI id: a pass-through's status (0: answered) */
static struct {
	uint8_t media;
	uint32_t pred_seq;
} facts[256]; /* by SCSI id: what a card's PD_GET_INFO adds (mfi_shim_pd_facts()) */

/* The faults set (each from the DCMD @opcode numbered past @after on), and how many of each opcode
 * came. */
static struct {
	uint32_t opcode;
	unsigned after;
	enum mfi_shim_fault fault;
	uint8_t status;
} faults[8];
static size_t fault_count;
static struct {
	uint32_t opcode;
	unsigned n;
} counts[32];
static size_t count_count;

/*
 * The configuration: QEMU's one RAID0 LD per disk at setup (@qemu: built
 * as QEMU answers), then what CFG_ADD adds and LD_DELETE takes; each LD
 * with its configuration as sent (256 bytes) and its arrays (288 each).
 */
static struct ld {
	uint8_t target;
	const struct mfi_shim_disk *qemu;
	uint8_t config[256];
	uint8_t arrays[8][288];
	unsigned array_count;
	uint64_t blocks;
} lds[64];
static size_t ld_count;
static uint8_t props[64];  /* the controller properties: CTRL_SET_PROPS's, CTRL_GET_INFO's */
static uint8_t spare[256]; /* by SCSI id: 0 none, else 1 + the spare type CFG_MAKE_SPARE sent */
static int fw_state[256];  /* by SCSI id: the state PD_STATE_SET set; -1: online (free: UGood) */
static int pd_seq[256];    /* by SCSI id: the drive's sequence number; -1: QEMU's (0, not told) */
static bool missing[256];  /* by SCSI id: its row in its array marked missing, the drive free */
static uint16_t ld_seqs;   /* the sequence numbers given to the LDs CFG_ADD made */

/* The last frame of each change: its mailbox and data. */
static struct {
	uint32_t opcode;
	uint8_t mbox[12];
	uint8_t data[4096];
	size_t len;
} lasts[16];
static size_t last_count;

void mfi_shim_setup(const char *path, uint16_t host_no, const char *hba_serial,
                    const struct mfi_shim_disk *list, size_t count)
{
	snprintf(node, sizeof(node), "%s", path);
	host = host_no;
	serial = hba_serial;
	disks = list;
	disk_count = count;
	failure[0] = 0;
	mknods = 0;
	mknod_errno = unlink_errno = 0;
	fault_count = count_count = last_count = 0;
	events = NULL;
	event_count = 0;
	real_log = false;
	patrol = NULL;
	pr_written = false;
	temperature = 0;
	raid_levels = 0x01;
	more_ops = 0;
	ops2 = 0;
	card_ids = ses = false;
	memset(pulled, 0, sizeof(pulled));
	memset(scsi_fault, 0, sizeof(scsi_fault));
	memset(facts, 0, sizeof(facts));
	shim_tasks_reset();
	memset(spare, 0, sizeof(spare));
	memset(props, 0, sizeof(props));
	props[8] = props[9] = props[10] = props[11] = props[12] = 30;
	props[32 + 1] = 0x20; /* on/off bit 13: JBOD enabled */
	for (int i = 0; i < 256; i++)
		fw_state[i] = pd_seq[i] = -1;
	ld_seqs = 0x40;
	memset(missing, 0, sizeof(missing));
	ld_count = 0;
	for (size_t i = 0; i < count; i++)
		lds[ld_count++] = (struct ld){.target = list[i].id, .qemu = &list[i]};
	mfi_shim_hw_reset();
}

void mfi_shim_card_ids(void)
{
	card_ids = true;
}

void mfi_shim_ses(void)
{
	ses = true;
}

void mfi_shim_pull(uint8_t id)
{
	pulled[id] = true;
}

void mfi_shim_scsi_refuse(uint8_t id, uint8_t status)
{
	scsi_fault[id] = status;
}

void mfi_shim_pd_facts(uint8_t id, uint8_t media, uint32_t pred_seq)
{
	facts[id].media = media;
	facts[id].pred_seq = pred_seq;
}

void mfi_shim_set_state(uint8_t id, uint16_t state)
{
	fw_state[id] = state;
}

void mfi_shim_pd_seq(uint8_t id, uint16_t seq)
{
	pd_seq[id] = seq;
}

/* The sequence number of the disk of PD device id @pd_id now: QEMU's drives keep 0. */
static uint16_t seq_of(uint16_t pd_id)
{
	return pd_seq[pd_id >> 8] < 0 ? 0 : (uint16_t)pd_seq[pd_id >> 8];
}

/* Forget LD @i, the others keeping their order. */
static void drop_ld(size_t i)
{
	memmove(&lds[i], &lds[i + 1], (--ld_count - i) * sizeof(lds[0]));
}

void mfi_shim_unconfigure(uint8_t id)
{
	for (size_t i = 0; i < ld_count; i++)
		if (lds[i].qemu && lds[i].qemu->id == id)
			drop_ld(i--);
}

size_t mfi_shim_last(uint32_t opcode, uint8_t mbox[12], uint8_t *data, size_t room)
{
	for (size_t i = 0; i < last_count; i++)
		if (lasts[i].opcode == opcode) {
			memcpy(mbox, lasts[i].mbox, 12);
			memcpy(data, lasts[i].data, lasts[i].len < room ? lasts[i].len : room);
			return lasts[i].len;
		}
	return 0;
}

void mfi_shim_temperature(uint8_t celsius)
{
	temperature = celsius;
}

void mfi_shim_patrol(const struct mfi_shim_patrol *pr)
{
	patrol = pr;
	pr_written = false;
	props[32] |= 0x40; /* SSDPatrolReadEnabled: which SSDs, as the patrol read's options say */
}

void mfi_shim_events(const struct mfi_shim_event *log, size_t count)
{
	events = log;
	event_count = count;
	real_log = true;
}

unsigned mfi_shim_sent(uint32_t opcode)
{
	for (size_t i = 0; i < count_count; i++)
		if (counts[i].opcode == opcode)
			return counts[i].n;
	return 0;
}

void mfi_shim_break_after(uint32_t opcode, unsigned skip, enum mfi_shim_fault fault, uint8_t status)
{
	faults[fault_count].opcode = opcode;
	faults[fault_count].after = mfi_shim_sent(opcode) + skip;
	faults[fault_count].fault = fault;
	faults[fault_count++].status = status;
}

void mfi_shim_break(uint32_t opcode, enum mfi_shim_fault fault, uint8_t status)
{
	mfi_shim_break_after(opcode, 0, fault, status);
}

/* Whether fault @i answers this DCMD @opcode (counted already) with @fault. */
static bool broken(size_t i, uint32_t opcode, enum mfi_shim_fault fault)
{
	return faults[i].opcode == opcode && faults[i].fault == fault &&
	       mfi_shim_sent(opcode) > faults[i].after;
}

void mfi_shim_deny_mknod(int errnum)
{
	mknod_errno = errnum;
}

void mfi_shim_deny_unlink(int errnum)
{
	unlink_errno = errnum;
}

unsigned mfi_shim_mknods(dev_t *dev, mode_t *mode)
{
	*dev = node_dev;
	*mode = node_mode;
	return mknods;
}

const char *mfi_shim_check(void)
{
	return failure[0] ? failure : NULL;
}

static void count(uint32_t opcode)
{
	for (size_t i = 0; i < count_count; i++)
		if (counts[i].opcode == opcode) {
			counts[i].n++;
			return;
		}
	counts[count_count].opcode = opcode;
	counts[count_count++].n = 1;
}

static uint64_t get(const uint8_t *p, int width)
{
	uint64_t v = 0;

	for (int i = width - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put(uint8_t *p, uint64_t v, int width)
{
	for (int i = 0; i < width; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static int mismatch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int mismatch(const char *fmt, ...)
{
	va_list ap;

	if (!failure[0]) {
		va_start(ap, fmt);
		vsnprintf(failure, sizeof(failure), fmt, ap);
		va_end(ap);
	}
	errno = EPROTO;
	return -1;
}

#define WANT(what, got, want)                                                                      \
	if ((uint64_t)(got) != (uint64_t)(want))                                                   \
	return mismatch("opcode 0x%08x: %s is 0x%llx, not 0x%llx", opcode, what,                   \
	                (unsigned long long)(got), (unsigned long long)(want))

/* The disk at SCSI id @id, or NULL. */
static const struct mfi_shim_disk *disk_at(unsigned id)
{
	for (size_t i = 0; i < disk_count; i++)
		if (disks[i].id == id)
			return &disks[i];
	return NULL;
}

static bool in_ld(uint8_t id);

/* QEMU's synthesised SAS address of PD @pd_id (megasas_get_sata_addr()). */
static uint64_t sas_addr(uint16_t pd_id)
{
	return 0x5001a4a000000000ull | (uint64_t)pd_id << 8;
}

/* A standard INQUIRY reply of a QEMU scsi-hd, into @p (36 bytes). */
static void inquiry(uint8_t *p)
{
	p[2] = 5;
	p[3] = 2;
	p[4] = 31;
	memcpy(p + 8, "QEMU    QEMU HARDDISK   2.5+", 28);
}

static void ctrl_info(uint8_t *p)
{
	put(p + 0, 0x1000, 2);
	put(p + 2, 0x0079, 2);
	put(p + 4, 0x1000, 2);
	put(p + 6, 0x9261, 2);
	p[32] = 0x02;  /* host: PCIe */
	p[104] = 0x02; /* device: SAS 3G */
	p[111] = 8;
	put(p + 180, 1, 4);
	memcpy(p + 184, "APP", 3);
	memcpy(p + 192, card_ids ? "2.130.403-4660" : "1.80-QEMU", card_ids ? 14 : 9);
	memcpy(p + 224, "Apr  1 2014", 11);
	memcpy(p + 240, "12:34:56", 8);
	p[1340] = 32;  /* max arms */
	p[1341] = 8;   /* max spans */
	p[1342] = 128; /* max arrays */
	p[1343] = 64;  /* max LDs */
	memcpy(p + 1344, "LSI MegaRAID SAS 9260-8i", 24);
	snprintf((char *)p + 1424, 32, "%s", serial);
	put(p + 1456, 0x04 | 0x10 | 0x20, 4); /* NVRAM, memory, flash: no battery */
	put(p + 1472, disk_count, 2);
	put(p + 1478, disk_count, 2);
	put(p + 1480, disk_count, 2);
	put(p + 1488, 512, 2);
	put(p + 1500, raid_levels, 4);
	/* Rebuild rate (and patrol read rate with a patrol read), no spanning. */
	put(p + 1504, 0x0001 | (patrol ? 0x0010 : 0) | 0x1000 | 0x2000 | more_ops, 4);
	p[1512] = 3;
	p[1513] = 16;
	memcpy(p + 1536, props, sizeof(props));
	memcpy(p + 1600, "2.5+-QEMU", 9);
	put(p + 0x7a4, ops2, 4);
	mfi_shim_hw_ctrl_info(p);
}

static void pd_list(uint8_t *p, uint32_t len, bool bad_count)
{
	size_t n = 0;

	for (; n < disk_count && 8 + (n + 1) * 24 <= len; n++) {
		uint8_t *a = p + 8 + n * 24;
		uint16_t id = card_ids ? disks[n].id : (uint16_t)(disks[n].id << 8);

		put(a, id, 2);
		put(a + 2, 0xffff, 2);
		a[5] = disks[n].id;
		a[7] = 1;
		put(a + 8, sas_addr(id), 8);
	}
	if (ses && 8 + (n + 1) * 24 <= len) { /* the backplane's SES processor, at SCSI id 8 */
		uint8_t *a = p + 8 + n++ * 24;

		put(a, 8 << 8, 2);
		put(a + 2, 0xffff, 2);
		a[5] = 8;
		a[6] = 0x0d; /* enclosure services */
		a[7] = 1;
		put(a + 8, sas_addr(8 << 8), 8);
	}
	put(p, 8 + n * 24, 4);
	put(p + 4, bad_count ? 1000 : n, 4);
}

/*
 * PD_GET_INFO as a real card answers it, for a disk whose sequence number
 * the test set: its own device id and number, its INQUIRY, its state.
 */
static uint8_t card_pd_info(uint8_t *p, const struct mfi_shim_disk *d)
{
	uint16_t pd_id, state;

	if (!d || pulled[d->id])
		return ST_DEVICE_NOT_FOUND;
	pd_id = (uint16_t)(d->id << 8);
	state = spare[d->id] ? 0x02 : fw_state[d->id] >= 0 ? (uint16_t)fw_state[d->id] : 0x18;
	put(p, pd_id, 2);
	put(p + 2, seq_of(pd_id), 2);
	inquiry(p + 4);
	put(p + 184, in_ld(d->id) || spare[d->id] || fw_state[d->id] >= 0 ? state : 0x00, 2);
	put(p + 188, 1u << 13, 2); /* SAS */
	put(p + 232, d->blocks, 8);
	put(p + 240, d->blocks, 8);
	put(p + 248, d->blocks, 8);
	put(p + 256, 0xffff, 2);
	p[259] = d->id;
	p[370] = facts[d->id].media;
	put(p + 180, facts[d->id].pred_seq, 4);
	return ST_OK;
}

/*
 * PD_GET_INFO as QEMU answers it: the device id read from mailbox byte 0
 * alone, the INQUIRY data never copied in (0x7f: no device), so offline.
 */
static uint8_t pd_info(uint8_t *p, const uint8_t *mbox)
{
	const struct mfi_shim_disk *d = disk_at(0);
	uint16_t pd_id = mbox[0];

	if (pd_seq[mbox[1]] >= 0 && !mbox[0])
		return card_pd_info(p, disk_at(mbox[1]));
	if (!d || mbox[0] || pulled[0])
		return ST_DEVICE_NOT_FOUND;
	put(p, pd_id, 2);
	p[4] = 0x7f;
	put(p + 184, 0x01, 2);               /* OFFLINE */
	put(p + 188, 1u << 1 | 1u << 13, 2); /* in a VD, SAS */
	p[166] = 1;
	p[167] = 1;
	p[187] = 1;
	p[192] = 1;
	put(p + 200, sas_addr(pd_id), 8);
	put(p + 232, d->blocks, 8);
	put(p + 240, d->blocks, 8);
	put(p + 248, d->blocks, 8);
	put(p + 256, 0xffff, 2);
	p[259] = d->id;
	p[402] = temperature;
	return ST_OK;
}

static uint64_t ld_blocks(const struct ld *l)
{
	return l->qemu ? l->qemu->blocks : l->blocks;
}

static void ld_list(uint8_t *p, bool bad_count)
{
	for (size_t n = 0; n < ld_count; n++) {
		p[8 + n * 16] = lds[n].target;
		p[8 + n * 16 + 4] = 3; /* OPTIMAL */
		put(p + 8 + n * 16 + 8, ld_blocks(&lds[n]), 8);
	}
	put(p, bad_count ? 1000 : ld_count, 4);
}

/* One LD configuration (256 bytes) of disk @d: LD_GET_INFO's and CFG_READ's differ (QEMU's). */
static void ld_config(uint8_t *p, const struct mfi_shim_disk *d, bool cfg)
{
	p[0] = d->id;
	p[32 + 3] = 3; /* 4 KiB strips */
	p[32 + 4] = 1;
	p[32 + 5] = cfg; /* span depth: CFG_READ's only */
	p[32 + 6] = 3;
	p[32 + 8] = 1;
	if (cfg)
		p[20] = p[23] = 0x04 | 0x08; /* read ahead, adaptive */
	put(p + 64 + 8, d->blocks, 8);
	/* LD_GET_INFO passes the target id as the LUN: QEMU's array ref differs from CFG_READ's. */
	put(p + 64 + 16, cfg ? (uint16_t)(d->id << 8) : (uint16_t)(d->id << 8 | d->id), 2);
}

/* QEMU's array of disk @d: the disk alone, online. */
static void qemu_array(uint8_t *a, const struct mfi_shim_disk *d)
{
	uint16_t id = (uint16_t)(d->id << 8);

	put(a, d->blocks, 8);
	a[8] = 1;
	put(a + 10, id, 2);
	for (int r = 0; r < 32; r++) {
		put(a + 32 + r * 8, r ? 0xffff : id, 2);
		put(a + 32 + r * 8 + 4, r ? 0 : 0x18, 2);
		a[32 + r * 8 + 6] = 0xff;
		a[32 + r * 8 + 7] = r ? 0xff : d->id;
	}
}

static const struct ld *ld_at(uint8_t target)
{
	for (size_t i = 0; i < ld_count; i++)
		if (lds[i].target == target)
			return &lds[i];
	return NULL;
}

static uint8_t ld_info(uint8_t *p, const uint8_t *mbox)
{
	const struct ld *l = ld_at(mbox[0]);

	if (!l)
		return ST_DEVICE_NOT_FOUND;
	if (l->qemu)
		ld_config(p, l->qemu, false);
	else
		memcpy(p, l->config, 256);
	put(p + 256, ld_blocks(l), 8);
	return ST_OK;
}

/* How many arrays the LDs have in all. */
static size_t array_total(void)
{
	size_t n = 0;

	for (size_t i = 0; i < ld_count; i++)
		n += lds[i].qemu ? 1 : lds[i].array_count;
	return n;
}

/* The spares, in SCSI id order: 40 bytes each, their type as made (no arrays listed). */
static size_t put_spares(uint8_t *p)
{
	size_t n = 0;

	for (unsigned id = 0; id < 256; id++)
		if (spare[id]) {
			put(p + 40 * n, (uint16_t)(id << 8), 2);
			p[40 * n++ + 4] = (uint8_t)(spare[id] - 1);
		}
	return n;
}

/* The rows of array @a in the state PD_STATE_SET left their drives. */
static void patch_states(uint8_t *a)
{
	for (unsigned r = 0; r < a[8] && r < 32; r++) {
		uint16_t id = (uint16_t)get(a + 32 + r * 8, 2);

		if (!(id & 0xff) && missing[id >> 8])
			put(a + 32 + r * 8, 0xffff, 4); /* an empty row: no device, no number */
		else if (!(id & 0xff) && fw_state[id >> 8] >= 0)
			put(a + 32 + r * 8 + 4, (uint64_t)fw_state[id >> 8], 2);
	}
}

/* CFG_READ: the arrays, the LDs, the spares; the sections' sizes in all, as QEMU writes them. */
static uint8_t cfg_read(uint8_t *p, uint32_t len)
{
	uint8_t data[8192] = {0};
	size_t arrays = array_total(), lds_at = 32 + arrays * 288;
	size_t spares_at = lds_at + ld_count * 256, a = 0, spares;

	if (len > 4096)
		return ST_INVALID_PARAMETER;
	spares = put_spares(data + spares_at);
	put(data, spares_at + spares * 40, 4);
	put(data + 4, arrays, 2);
	put(data + 6, arrays * 288, 2);
	put(data + 8, ld_count, 2);
	put(data + 10, ld_count * 256, 2);
	put(data + 12, spares, 2);
	put(data + 14, 40, 2);
	/* Newest first, as QEMU walks its bus (disk 0 last): no order to number groups by. */
	for (size_t n = 0; n < ld_count; n++) {
		size_t i = ld_count - 1 - n;

		if (lds[i].qemu) {
			qemu_array(data + 32 + a++ * 288, lds[i].qemu);
			ld_config(data + lds_at + n * 256, lds[i].qemu, true);
			continue;
		}
		for (unsigned k = 0; k < lds[i].array_count; k++)
			memcpy(data + 32 + a++ * 288, lds[i].arrays[k], 288);
		memcpy(data + lds_at + n * 256, lds[i].config, 256);
	}
	for (size_t k = 0; k < arrays; k++)
		patch_states(data + 32 + k * 288);
	memcpy(p, data, len < spares_at + spares * 40 ? len : spares_at + spares * 40);
	return ST_OK;
}

/*
 * EVENT_GET_INFO: a real card's log bounds; QEMU's names its event counter
 * newest (the driver's EVENT_WAIT set it), the oldest 0.
 */
static void event_info(uint8_t *p)
{
	put(p, real_log ? (event_count ? events[event_count - 1].seq : 0) : 7, 4);
	put(p + 4, event_count ? events[0].seq : 0, 4);
}

/* EVENT_GET: the events from mailbox word 0 on, of mailbox byte 7's class and above. */
static uint8_t event_get(uint8_t *p, uint32_t len, const uint8_t *mbox, bool bad_count)
{
	uint32_t from = (uint32_t)get(mbox, 4), n = 0;

	if (!real_log)
		return ST_OK; /* QEMU's megasas_dcmd_dummy(): the buffer as it came */
	for (size_t i = 0; i < event_count && 8 + (n + 1) * 256 <= len; i++) {
		uint8_t *e = p + 8 + n * 256;

		if (events[i].seq < from || events[i].class_ < (int8_t)mbox[7])
			continue;
		put(e, events[i].seq, 4);
		put(e + 4, events[i].time, 4);
		put(e + 8, events[i].code, 4);
		put(e + 12, events[i].locale, 2);
		e[15] = (uint8_t)events[i].class_;
		snprintf((char *)e + 128, 128, "%s", events[i].text);
		n++;
	}
	if (!n && !bad_count)
		return ST_NOT_FOUND;
	put(p, bad_count ? 1000 : n, 4);
	return ST_OK;
}

/*
 * PR_GET_PROPERTIES (208 bytes, legacy layout) and PR_GET_STATUS (16):
 * QEMU's dummy writes neither, a real card the whole reply. What
 * PR_SET_PROPERTIES wrote is kept.
 */
static void pr_props(uint8_t *p)
{
	if (!patrol)
		return;
	memset(p, 0, sizeof(pr_set));
	if (pr_written) {
		memcpy(p, pr_set, sizeof(pr_set));
		return;
	}
	p[0] = patrol->op_mode;
	p[1] = patrol->max_pd;
	p[2] = patrol->options;
	p[3] = patrol->exclude_count;
	for (int i = 0; i < patrol->exclude_count && i < 4; i++)
		put(p + 4 + 2 * i, patrol->exclude[i], 2);
	memset(p + 132, 0xa5, 64); /* the drive maps, which a SET must give back */
	put(p + 196, patrol->next_exec, 4);
	put(p + 200, patrol->exec_freq, 4);
	put(p + 204, patrol->clear_freq, 4);
}

/* PR_SET_PROPERTIES: a card with a patrol read takes a mode it knows; QEMU's dummy anything. */
static int pr_set_props(const uint8_t *p, uint32_t len)
{
	if (!patrol)
		return ST_OK;
	if (len != sizeof(pr_set) || p[0] > 2 || p[3] > 64)
		return ST_INVALID_PARAMETER;
	memcpy(pr_set, p, sizeof(pr_set));
	pr_written = true;
	return ST_OK;
}

static void pr_status(uint8_t *p)
{
	if (!patrol)
		return;
	memset(p, 0, 16);
	put(p, patrol->iterations, 4);
	p[4] = patrol->state;
}

/* The smallest (or, for LD_GET_LIST, largest) buffer QEMU takes for @opcode. */
static bool size_refused(uint32_t opcode, uint32_t len)
{
	switch (opcode) {
	case 0x01010000:
		return len < 2048;
	case 0x02010000:
		return len < 32;
	case 0x02020000:
		return len < 512;
	case 0x03010000:
		return len > 1032;
	case 0x03020000:
		return len < 384;
	default:
		return false;
	}
}

/* The mailbox bytes @opcode carries: a PD's id (2), an LD's target (1), a PD's id and sequence. */
static int mbox_used(uint32_t opcode)
{
	switch (opcode) {
	case 0x02020000:
	case OP_LOCATE_START:
	case OP_LOCATE_STOP:
		return 2;
	case 0x03020000:
	case OP_LD_GET_PROP:
		return 1;
	case OP_LD_DELETE:
	case OP_LD_SET_PROP:
	case OP_REMOVE_SPARE:
	case OP_MISSING_MARK:
		return 4;
	case OP_MISSING_REPLACE:
		return 7;
	case OP_STATE_SET:
		return 6;
	default:
		return shim_task_mbox_used(opcode) > 0 ? shim_task_mbox_used(opcode)
		                                       : mfi_shim_hw_mbox_used(opcode);
	}
}

static int check_mbox(uint32_t opcode, const uint8_t *mbox)
{
	int used = mbox_used(opcode);

	if (opcode == 0x01040300) {
		WANT("EVENT_GET's locale (all)", get(mbox + 4, 2), 0xffff);
		WANT("EVENT_GET's class (info)", get(mbox + 6, 2), 0);
		used = 8;
	}

	for (int i = used; i < 12; i++)
		WANT("a mailbox byte beyond the parameter", mbox[i], 0);
	return 0;
}

/* The flags of @opcode's data: written for a change with a payload, none for the other changes. */
static unsigned data_flags(uint32_t opcode)
{
	switch (opcode) {
	case OP_CFG_ADD:
	case OP_MAKE_SPARE:
	case OP_SET_PROPS:
	case OP_LD_SET_PROP:
	case 0x01140300: /* CC_SCHEDULE_SET_PROPERTIES (mfi-shim-tasks.c) */
	case 0x01070300: /* PR_SET_PROPERTIES */
		return MFI_WRITE;
	case OP_LOCATE_START:
	case OP_LOCATE_STOP:
	case OP_LD_DELETE:
	case OP_REMOVE_SPARE:
	case OP_STATE_SET:
	case OP_MISSING_MARK:
	case OP_MISSING_REPLACE:
	case 0x01040200: /* EVENT_CLEAR */
		return 0;
	default:
		return shim_task_no_data(opcode) ? 0 : mfi_shim_hw_data_flags(opcode);
	}
}

/* The disk of PD device id @pd_id (QEMU's: its SCSI id in the high byte), or NULL. */
static const struct mfi_shim_disk *disk_of(uint16_t pd_id)
{
	return pd_id & 0xff ? NULL : disk_at(pd_id >> 8);
}

/* Whether disk @id is a member of an LD (not one whose row is missing). */
static bool in_ld(uint8_t id)
{
	for (size_t i = 0; !missing[id] && i < ld_count; i++) {
		if (lds[i].qemu && lds[i].qemu->id == id)
			return true;
		for (unsigned k = 0; !lds[i].qemu && k < lds[i].array_count; k++)
			for (unsigned r = 0; r < lds[i].arrays[k][8] && r < 32; r++)
				if (get(lds[i].arrays[k] + 32 + r * 8, 2) == (uint16_t)(id << 8))
					return true;
	}
	return false;
}

/* Whether the drives of CFG_ADD's array @a are there (else DEVICE_NOT_FOUND) and free. */
static uint8_t array_free(const uint8_t *a)
{
	if (!a[8] || a[8] > 32)
		return ST_INVALID_PARAMETER;
	for (unsigned r = 0; r < a[8]; r++) {
		const struct mfi_shim_disk *d = disk_of((uint16_t)get(a + 32 + r * 8, 2));

		if (!d)
			return ST_DEVICE_NOT_FOUND;
		if (get(a + 32 + r * 8 + 2, 2) != seq_of((uint16_t)(d->id << 8)))
			return ST_INVALID_SEQUENCE;
		if (in_ld(d->id) || spare[d->id] || fw_state[d->id] >= 0)
			return ST_WRONG_STATE;
	}
	return ST_OK;
}

/* The raid_levels bit of primary level @level (0 for one no card has). */
static uint32_t level_bit(uint8_t level)
{
	return level == 0 ? 0x01 : level == 1 ? 0x02 : level == 5 ? 0x04 : level == 6 ? 0x10 : 0;
}

/* How many of a span's @n drives hold data at primary level @level. */
static unsigned data_drives(uint8_t level, unsigned n)
{
	return level == 1 ? n / 2 : level == 5 ? n - 1 : level == 6 ? n - 2 : n;
}

/* The array under ref @ref, copied into @out (288 bytes); false if there is none. */
static bool existing_array(uint16_t ref, uint8_t *out)
{
	for (size_t i = 0; i < ld_count; i++) {
		if (lds[i].qemu && (uint16_t)(lds[i].qemu->id << 8) == ref) {
			memset(out, 0, 288);
			qemu_array(out, lds[i].qemu);
			return true;
		}
		for (unsigned k = 0; !lds[i].qemu && k < lds[i].array_count; k++)
			if (get(lds[i].arrays[k] + 10, 2) == ref) {
				memcpy(out, lds[i].arrays[k], 288);
				return true;
			}
	}
	return false;
}

static bool array_exists(uint16_t ref)
{
	uint8_t a[288];

	return existing_array(ref, a);
}

/* Whether an LD's extent on array @ref meets blocks @start to @end of each member. */
static bool extent_taken(uint16_t ref, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < ld_count; i++) {
		if (lds[i].qemu && (uint16_t)(lds[i].qemu->id << 8) == ref)
			return true;
		for (unsigned s = 0; !lds[i].qemu && s < lds[i].config[37] && s < 8; s++) {
			const uint8_t *span = lds[i].config + 64 + s * 24;

			if (get(span + 16, 2) == ref && get(span, 8) < end &&
			    start < get(span, 8) + get(span + 8, 8))
				return true;
		}
	}
	return false;
}

/*
 * An array of CFG_ADD's that exists already: it must be that array, row
 * for row (else the card finds a conflict), and the LD's span on it lie
 * in its free space: the end, or a hole a deleted LD left.
 */
static uint8_t array_same(const uint8_t *a, const uint8_t *span)
{
	uint8_t have[288];

	existing_array((uint16_t)get(a + 10, 2), have);
	if (a[8] != have[8])
		return ST_INVALID_PARAMETER;
	for (unsigned r = 0; r < a[8] && r < 32; r++)
		if (get(a + 32 + r * 8, 2) != get(have + 32 + r * 8, 2))
			return ST_INVALID_PARAMETER;
	if (extent_taken((uint16_t)get(a + 10, 2), get(span, 8), get(span, 8) + get(span + 8, 8)) ||
	    get(span, 8) + get(span + 8, 8) > get(have, 8))
		return ST_INVALID_PARAMETER;
	return ST_OK;
}

/*
 * CFG_ADD of one LD, at the levels the card creates (QEMU's: RAID0 only):
 * on new arrays of free drives, or in the free space of existing ones,
 * named under their own refs.
 */
static uint8_t cfg_add(const uint8_t *p, uint32_t len)
{
	size_t arrays = get(p + 4, 2), ld_at_off = 32 + arrays * 288;
	const uint8_t *ld = p + ld_at_off;
	struct ld *l = &lds[ld_count];
	uint8_t st = ST_OK;

	if (len < 32 || get(p, 4) != len || !arrays || arrays > 8 || get(p + 6, 2) != 288 ||
	    get(p + 8, 2) != 1 || get(p + 10, 2) != 256 || ld_at_off + 256 != len)
		return ST_INVALID_PARAMETER;
	if (!(level_bit(ld[32]) & raid_levels) || ld[37] != arrays || ld_at(ld[0]) ||
	    ld_count == 64)
		return ST_INVALID_PARAMETER;
	for (size_t k = 0; !st && k < arrays; k++) {
		const uint8_t *a = p + 32 + k * 288, *span = ld + 64 + k * 24;

		if (get(span + 16, 2) != get(a + 10, 2))
			return ST_INVALID_PARAMETER; /* span k on array k, as raidcli sends them */
		st = array_exists((uint16_t)get(a + 10, 2)) ? array_same(a, span) : array_free(a);
	}
	if (st)
		return st;
	memset(l, 0, sizeof(*l));
	l->target = ld[0];
	memcpy(l->config, ld, 256);
	put(l->config + 2, ++ld_seqs, 2); /* the firmware numbers the new LD */
	/* The LD keeps the arrays it made; an existing one stays its first LD's. */
	for (size_t k = 0; k < arrays; k++)
		if (!array_exists((uint16_t)get(p + 32 + k * 288 + 10, 2)))
			memcpy(l->arrays[l->array_count++], p + 32 + k * 288, 288);
	l->blocks = get(ld + 64 + 8, 8) * data_drives(ld[32], ld[36]) * arrays;
	ld_count++;
	return ST_OK;
}

/* LD_GET_PROP: the first 32 bytes of the LD's configuration. */
static uint8_t ld_get_prop(uint8_t *p, uint32_t len, const uint8_t *mbox)
{
	uint8_t info[384] = {0};
	uint8_t st = len == 32 ? ld_info(info, mbox) : ST_INVALID_PARAMETER;

	if (!st)
		memcpy(p, info, 32);
	return st;
}

/*
 * LD_SET_PROP: the LD's name and policies replaced (a QEMU LD becomes one
 * kept as CFG_READ shows it); the card applies the default cache policy.
 * The mailbox is the LD's reference (MR.H: mbox.w[0] MR_LD_REF), the data
 * the properties naming the same LD.
 */
static uint8_t ld_set_prop(const uint8_t *p, uint32_t len, const uint8_t *mbox)
{
	struct ld *l = NULL;
	uint64_t seq;

	for (size_t i = 0; i < ld_count; i++)
		if (lds[i].target == mbox[0])
			l = &lds[i];
	if (len != 32 || p[0] != mbox[0] || get(p, 4) != get(mbox, 4))
		return ST_INVALID_PARAMETER;
	if (!l)
		return ST_DEVICE_NOT_FOUND;
	seq = l->qemu ? 0 : get(l->config + 2, 2);
	if (get(mbox + 2, 2) != seq)
		return ST_INVALID_SEQUENCE;
	if (l->qemu) {
		ld_config(l->config, l->qemu, true);
		qemu_array(l->arrays[0], l->qemu);
		l->array_count = 1;
		l->blocks = l->qemu->blocks;
		l->qemu = NULL;
	}
	memcpy(l->config, p, 32);
	l->config[23] = l->config[20];
	return ST_OK;
}

/* Whether LD @l spans array @ref. */
static bool spans_array(const struct ld *l, uint16_t ref)
{
	if (l->qemu)
		return (uint16_t)(l->qemu->id << 8) == ref;
	for (unsigned s = 0; s < l->config[37] && s < 8; s++)
		if (get(l->config + 64 + s * 24 + 16, 2) == ref)
			return true;
	return false;
}

/* The arrays LD @gone made, to another LD on them: an array goes with its last LD. */
static void hand_over(const struct ld *gone)
{
	unsigned n = gone->qemu ? 1 : gone->array_count;

	for (unsigned k = 0; k < n; k++) {
		uint8_t a[288] = {0};

		if (gone->qemu)
			qemu_array(a, gone->qemu);
		else
			memcpy(a, gone->arrays[k], 288);
		for (size_t i = 0; i < ld_count; i++)
			if (&lds[i] != gone && !lds[i].qemu &&
			    spans_array(&lds[i], (uint16_t)get(a + 10, 2))) {
				memcpy(lds[i].arrays[lds[i].array_count++], a, 288);
				break;
			}
	}
}

/* LD_DELETE: the mailbox is the LD's reference, its sequence number the current one. */
static uint8_t ld_delete(const uint8_t *mbox)
{
	for (size_t i = 0; i < ld_count; i++)
		if (lds[i].target == mbox[0]) {
			if (get(mbox + 2, 2) != (lds[i].qemu ? 0 : get(lds[i].config + 2, 2)))
				return ST_INVALID_SEQUENCE;
			hand_over(&lds[i]);
			drop_ld(i);
			return ST_OK;
		}
	return ST_DEVICE_NOT_FOUND;
}

/* CFG_MAKE_SPARE: a global spare of an unconfigured drive, or a dedicated one of existing arrays.
 */
static uint8_t make_spare(const uint8_t *p, uint32_t len)
{
	const struct mfi_shim_disk *d;

	if (len < 8 || len != 8 + 2u * p[7] || (p[4] & 1) != (p[7] != 0))
		return ST_INVALID_PARAMETER;
	for (unsigned k = 0; k < p[7]; k++)
		if (!array_exists((uint16_t)get(p + 8 + 2 * k, 2)))
			return ST_INVALID_PARAMETER;
	d = disk_of((uint16_t)get(p, 2));
	if (!d)
		return ST_DEVICE_NOT_FOUND;
	if (get(p + 2, 2) != seq_of((uint16_t)get(p, 2)))
		return ST_INVALID_SEQUENCE;
	if (in_ld(d->id) || spare[d->id] || fw_state[d->id] >= 0)
		return ST_WRONG_STATE;
	spare[d->id] = (uint8_t)(1 + (p[4] & 1));
	return ST_OK;
}

static uint8_t remove_spare(const uint8_t *mbox)
{
	const struct mfi_shim_disk *d = disk_of((uint16_t)get(mbox, 2));

	if (!d)
		return ST_DEVICE_NOT_FOUND;
	if (get(mbox + 2, 2) != seq_of((uint16_t)get(mbox, 2)))
		return ST_INVALID_SEQUENCE;
	if (!spare[d->id])
		return ST_WRONG_STATE;
	spare[d->id] = 0;
	return ST_OK;
}

/*
 * PD_STATE_SET: a member goes online or offline; a free drive becomes JBOD
 * (SYSTEM) while the card allows JBOD, or unconfigured good again.
 */
static uint8_t state_set(const uint8_t *mbox)
{
	const struct mfi_shim_disk *d = disk_of((uint16_t)get(mbox, 2));
	uint16_t want = (uint16_t)get(mbox + 4, 2);
	bool jbod = props[32 + 1] & 0x20;

	if (!d)
		return ST_DEVICE_NOT_FOUND;
	if (get(mbox + 2, 2) != seq_of((uint16_t)get(mbox, 2)))
		return ST_INVALID_SEQUENCE;
	if (in_ld(d->id) ? want != 0x18 && want != 0x10
	                 : spare[d->id] || !(want == 0x00 || (want == 0x40 && jbod)))
		return ST_WRONG_STATE;
	fw_state[d->id] = in_ld(d->id) || want == 0x40 ? want : -1;
	return ST_OK;
}

/* PD_MISSING_MARK: an offline or failed member's row becomes missing, the drive free. */
static uint8_t missing_mark(const uint8_t *mbox)
{
	const struct mfi_shim_disk *d = disk_of((uint16_t)get(mbox, 2));

	if (!d)
		return ST_DEVICE_NOT_FOUND;
	if (get(mbox + 2, 2) != seq_of((uint16_t)get(mbox, 2)))
		return ST_INVALID_SEQUENCE;
	if (!in_ld(d->id) || (fw_state[d->id] != 0x10 && fw_state[d->id] != 0x11))
		return ST_WRONG_STATE;
	missing[d->id] = true;
	fw_state[d->id] = -1;
	return ST_OK;
}

/*
 * PD_MISSING_REPLACE: a free drive into a missing row (mailbox: its
 * reference, the array's ref, the row), where it is OFFLINE until
 * rebuilt. The fake keeps each row's own drive, so only the drive marked
 * missing from that row goes back in; another is INVALID_PARAMETER.
 */
static uint8_t missing_replace(const uint8_t *mbox)
{
	uint16_t pd = (uint16_t)get(mbox, 2), held;
	const struct mfi_shim_disk *d = disk_of(pd);
	uint8_t a[288];

	if (!d)
		return ST_DEVICE_NOT_FOUND;
	if (get(mbox + 2, 2) != seq_of(pd))
		return ST_INVALID_SEQUENCE;
	if (in_ld(d->id) || spare[d->id] || fw_state[d->id] >= 0)
		return ST_WRONG_STATE;
	if (!existing_array((uint16_t)get(mbox + 4, 2), a))
		return ST_ARRAY_INDEX_INVALID;
	if (mbox[6] >= a[8])
		return ST_ROW_INDEX_INVALID;
	held = (uint16_t)get(a + 32 + mbox[6] * 8, 2);
	if ((held & 0xff) || !missing[held >> 8])
		return ST_ARRAY_ROW_NOT_EMPTY;
	if (held != pd)
		return ST_INVALID_PARAMETER;
	missing[d->id] = false;
	fw_state[d->id] = 0x10; /* OFFLINE */
	return ST_OK;
}

void mfi_shim_jbod(bool supported, bool enabled)
{
	ops2 = supported ? 1u << 11 : 0; /* supportJBOD */
	props[32 + 1] = enabled ? 0x20 : 0;
}

void mfi_shim_card(uint32_t levels, uint32_t more)
{
	raid_levels = levels;
	more_ops = more;
}

int shim_ld_level(uint8_t target)
{
	const struct ld *l = ld_at(target);

	return !l ? -1 : l->qemu ? 0 : l->config[32];
}

int shim_member_level(uint8_t id)
{
	for (size_t i = 0; i < ld_count; i++) {
		if (lds[i].qemu && lds[i].qemu->id == id)
			return 0;
		for (unsigned k = 0; !lds[i].qemu && k < lds[i].array_count; k++)
			for (unsigned r = 0; r < lds[i].arrays[k][8] && r < 32; r++)
				if (get(lds[i].arrays[k] + 32 + r * 8, 2) == (uint16_t)(id << 8))
					return lds[i].config[32];
	}
	return -1;
}

int shim_pd_state(uint8_t id)
{
	if (!disk_at(id))
		return -1;
	if (fw_state[id] >= 0)
		return fw_state[id];
	return spare[id] ? 0x02 : in_ld(id) ? 0x18 : 0x00;
}

/* Keep the mailbox and data of change @opcode, the last one of each. */
static void keep(uint32_t opcode, const uint8_t *mbox, const uint8_t *buf, uint32_t len)
{
	size_t i = 0;

	while (i < last_count && lasts[i].opcode != opcode)
		i++;
	if (i == last_count)
		last_count++;
	lasts[i].opcode = opcode;
	memcpy(lasts[i].mbox, mbox, 12);
	lasts[i].len = len < sizeof(lasts[i].data) ? len : sizeof(lasts[i].data);
	if (buf)
		memcpy(lasts[i].data, buf, lasts[i].len);
}

static uint8_t dcmd(uint32_t opcode, uint8_t *f, uint8_t *buf, uint32_t len)
{
	bool bad = false;
	uint8_t st;

	for (size_t i = 0; i < fault_count; i++) {
		if (broken(i, opcode, MFI_SHIM_STATUS))
			return faults[i].status;
		if (broken(i, opcode, MFI_SHIM_DUMMY))
			return ST_OK;
		bad |= broken(i, opcode, MFI_SHIM_BAD_COUNT);
	}
	if (size_refused(opcode, len))
		return ST_INVALID_PARAMETER;
	switch (opcode) {
	case 0x01010000:
		memset(buf, 0, len); /* QEMU's megasas_ctrl_get_info() writes its whole reply */
		ctrl_info(buf);
		return ST_OK;
	case 0x02010000:
		pd_list(buf, len, bad);
		return ST_OK;
	case 0x02020000:
		return pd_info(buf, f + F_MBOX);
	case 0x03010000:
		ld_list(buf, bad);
		return ST_OK;
	case 0x03020000:
		return ld_info(buf, f + F_MBOX);
	case 0x04010000:
		return cfg_read(buf, len);
	case OP_CFG_ADD:
		return cfg_add(buf, len);
	case OP_LD_DELETE:
		return ld_delete(f + F_MBOX);
	case OP_LD_GET_PROP:
		return ld_get_prop(buf, len, f + F_MBOX);
	case OP_LD_SET_PROP:
		return ld_set_prop(buf, len, f + F_MBOX);
	case OP_MAKE_SPARE:
		return make_spare(buf, len);
	case OP_REMOVE_SPARE:
		return remove_spare(f + F_MBOX);
	case OP_STATE_SET:
		return state_set(f + F_MBOX);
	case OP_MISSING_MARK:
		return missing_mark(f + F_MBOX);
	case OP_MISSING_REPLACE:
		return missing_replace(f + F_MBOX);
	case OP_GET_PROPS:
	case OP_SET_PROPS:
		if (len != sizeof(props))
			return ST_INVALID_PARAMETER;
		memcpy(opcode == OP_GET_PROPS ? buf : props, opcode == OP_GET_PROPS ? props : buf,
		       sizeof(props));
		return ST_OK;
	case OP_LOCATE_START:
	case OP_LOCATE_STOP:
		return disk_of((uint16_t)get(f + F_MBOX, 2)) ? ST_OK : ST_DEVICE_NOT_FOUND;
	case 0x01040100:
		event_info(buf);
		return ST_OK;
	case 0x01040300:
		return event_get(buf, len, f + F_MBOX, bad);
	case 0x01040200:
		event_count = 0;
		return ST_OK;
	case 0x01070200:
		pr_props(buf);
		return ST_OK;
	case 0x01070300:
		return pr_set_props(buf, len);
	case 0x01070100:
		pr_status(buf);
		return ST_OK;
	default: /* a task of mfi_shim_tasks(), a DCMD of mfi-shim-hw.c, or QEMU's dummy */
		return shim_task_dcmd(opcode, f + F_MBOX, buf, len, &st)
		           ? st
		           : mfi_shim_hw_dcmd(opcode, f + F_MBOX, buf, len);
	}
}

/*
 * A pass-through command to the disk at target/LUN: INQUIRY (standard, and
 * VPD page 0x80: serial "SN" and the SCSI id) and READ CAPACITY (16).
 */
static uint8_t scsi(const uint8_t *f, uint8_t *buf, uint32_t len)
{
	const struct mfi_shim_disk *d = f[F_LUN] ? NULL : disk_at(f[F_TARGET]);
	const uint8_t *cdb = f + F_CDB;

	/* The SES processor answers its INQUIRY (enclosure services), and no disk's command. */
	if (ses && !f[F_LUN] && f[F_TARGET] == 8) {
		if (cdb[0] != 0x12 || cdb[1] || len < 36)
			return ST_SCSI_DONE_WITH_ERROR;
		inquiry(buf);
		buf[0] = 0x0d;
		return ST_OK;
	}
	if (!d || pulled[d->id])
		return ST_DEVICE_NOT_FOUND;
	if (scsi_fault[d->id])
		return scsi_fault[d->id];
	if (cdb[0] == 0x12 && !cdb[1] && f[F_CDB_LEN] == 6 && len >= 36) {
		inquiry(buf);
		return ST_OK;
	}
	if (cdb[0] == 0x12 && cdb[1] == 1 && cdb[2] == 0x80 && f[F_CDB_LEN] == 6 && len >= 8) {
		buf[1] = 0x80;
		buf[3] = (uint8_t)snprintf((char *)buf + 4, len - 4, "SN%u", d->id);
		return ST_OK;
	}
	if (cdb[0] == 0x9e && cdb[1] == 0x10 && f[F_CDB_LEN] == 16 && len >= 32) {
		put(buf, 0, 8);
		for (int i = 0; i < 8; i++)
			buf[i] = (uint8_t)((d->blocks - 1) >> (56 - 8 * i));
		buf[10] = 2; /* 512-byte blocks */
		return ST_OK;
	}
	return ST_SCSI_DONE_WITH_ERROR;
}

/* Check @pkt field by field and answer it; -1 with EPROTO on a mismatch. */
static int answer(uint8_t *pkt)
{
	uint8_t *f = pkt + PKT_FRAME;
	bool is_dcmd = f[F_CMD] == 0x05;
	uint32_t opcode = is_dcmd ? (uint32_t)get(f + F_OPCODE, 4) : 0;
	struct iovec iov;
	uint32_t len = (uint32_t)get(f + F_DATA_LEN, 4);
	unsigned flags = is_dcmd ? data_flags(opcode) : MFI_READ;
	uint8_t status;

	if (failure[0])
		return mismatch("%s", failure);
	memcpy(&iov, pkt + PKT_IOVECS, sizeof(iov));
	WANT("the frame command", f[F_CMD] == 0x05 || f[F_CMD] == 0x04, 1);
	WANT("host_no", get(pkt + PKT_HOST, 2), host);
	WANT("the packet's pad", get(pkt + 2, 2), 0);
	WANT("sgl_off", get(pkt + PKT_SGL_OFF, 4), is_dcmd ? 40 : 48);
	WANT("the packet's sge_count", get(pkt + PKT_SGE_COUNT, 4), flags != 0);
	WANT("the frame's sge_count", f[F_SGE_COUNT], flags != 0);
	WANT("cmd_status as sent (preset)", f[F_STATUS], 0xff);
	WANT("the flags (the data's direction)", get(f + F_FLAGS, 2), flags);
	WANT("the context, pad and timeout", get(f + 8, 8) | get(f + 18, 2), 0);
	WANT("the iovec's length", iov.iov_len, len);
	WANT("a buffer", iov.iov_base != NULL, flags != 0);
	WANT("data with no direction", len && !flags, 0);
	for (int i = flags ? 16 : 0; i < 16 * 16; i++)
		WANT("an unused iovec", pkt[PKT_IOVECS + i], 0);
	if (is_dcmd) {
		WANT("the sense offset and length", get(pkt + PKT_SENSE_OFF, 8), 0);
		WANT("target, LUN, CDB length", get(f + F_TARGET, 3) | f[F_SENSE_LEN], 0);
		if (check_mbox(opcode, f + F_MBOX))
			return -1;
		for (int i = 40; i < 128; i++)
			WANT("a frame byte past the mailbox", f[i], 0);
	} else {
		uint64_t sense = get(f + 24, 8);

		WANT("the sense offset", get(pkt + PKT_SENSE_OFF, 4), 24);
		WANT("the sense length", get(pkt + PKT_SENSE_LEN, 4), f[F_SENSE_LEN]);
		WANT("a sense buffer", sense != 0 && f[F_SENSE_LEN] != 0, 1);
		WANT("the CDB length", f[F_CDB_LEN] == 6 || f[F_CDB_LEN] == 16, 1);
		for (int i = F_CDB + f[F_CDB_LEN]; i < 128; i++)
			WANT("a frame byte past the CDB", f[i], 0);
	}
	count(opcode);
	if (flags != MFI_READ)
		keep(opcode, f + F_MBOX, iov.iov_base, len);
	for (size_t i = 0; i < fault_count; i++)
		if (broken(i, opcode, MFI_SHIM_SILENT))
			return 0;
	status = is_dcmd ? dcmd(opcode, f, iov.iov_base, len) : scsi(f, iov.iov_base, len);
	/* The driver copies back the buffers and the status byte only. */
	f[F_STATUS] = status;
	return 0;
}

/* Whether @fd is open on the node. */
static bool on_node(int fd)
{
	char link[64], target[4096], want[4096];
	ssize_t n;

	if (!node[0] || !realpath(node, want))
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = 0;
	return !strcmp(target, want);
}

int ioctl(int fd, unsigned long request, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (on_node(fd)) {
		if (request == IOC_FIRMWARE)
			return answer(arg);
		errno = ENOTTY;
		return -1;
	}
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, request, arg);
}

int mknod(const char *path, mode_t mode, dev_t dev)
{
	static int (*real)(const char *, mode_t, dev_t);
	int fd;

	if (node[0] && !strcmp(path, node)) {
		if (mknod_errno) {
			errno = mknod_errno;
			return -1;
		}
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			return -1;
		close(fd);
		mknods++;
		node_dev = dev;
		node_mode = mode;
		return 0;
	}
	if (!real)
		real = (int (*)(const char *, mode_t, dev_t))dlsym(RTLD_NEXT, "mknod");
	return real(path, mode, dev);
}

int unlink(const char *path)
{
	static int (*real)(const char *);
	struct stat st;

	if (unlink_errno && node[0] && !strcmp(path, node) && !lstat(path, &st)) {
		errno = unlink_errno;
		return -1;
	}
	if (!real)
		real = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
	return real(path);
}

int stat(const char *restrict path, struct stat *restrict st)
{
	static int (*real)(const char *restrict, struct stat *restrict);

	if (!real)
		real =
		    (int (*)(const char *restrict, struct stat *restrict))dlsym(RTLD_NEXT, "stat");
	if (real(path, st))
		return -1;
	if (node[0] && !strcmp(path, node) && mknods) {
		st->st_mode = node_mode;
		st->st_rdev = node_dev;
	}
	return 0;
}

uint8_t mfi_shim_cfg_add(const uint8_t *p, uint32_t len)
{
	return cfg_add(p, len);
}
