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

#define MFI_READ 0x0010

enum {
	ST_OK = 0x00,
	ST_INVALID_PARAMETER = 0x03,
	ST_DEVICE_NOT_FOUND = 0x0c,
	ST_NOT_FOUND = 0x23,
	ST_SCSI_DONE_WITH_ERROR = 0x2d,
};

static char node[4096];
static uint16_t host;
static const char *serial;
static const struct mfi_shim_disk *disks;
static size_t disk_count;
static char failure[512];
static unsigned mknods;
static int mknod_errno;
static dev_t node_dev;
static mode_t node_mode;
static const struct mfi_shim_event *events;
static size_t event_count;
static bool real_log;
static const struct mfi_shim_patrol *patrol;
static uint8_t temperature;

/* The faults set, and how many of each opcode came. */
static struct {
	uint32_t opcode;
	enum mfi_shim_fault fault;
	uint8_t status;
} faults[8];
static size_t fault_count;
static struct {
	uint32_t opcode;
	unsigned n;
} counts[32];
static size_t count_count;

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
	mknod_errno = 0;
	fault_count = count_count = 0;
	events = NULL;
	event_count = 0;
	real_log = false;
	patrol = NULL;
	temperature = 0;
}

void mfi_shim_temperature(uint8_t celsius)
{
	temperature = celsius;
}

void mfi_shim_patrol(const struct mfi_shim_patrol *pr)
{
	patrol = pr;
}

void mfi_shim_events(const struct mfi_shim_event *log, size_t count)
{
	events = log;
	event_count = count;
	real_log = true;
}

void mfi_shim_break(uint32_t opcode, enum mfi_shim_fault fault, uint8_t status)
{
	faults[fault_count].opcode = opcode;
	faults[fault_count].fault = fault;
	faults[fault_count++].status = status;
}

unsigned mfi_shim_sent(uint32_t opcode)
{
	for (size_t i = 0; i < count_count; i++)
		if (counts[i].opcode == opcode)
			return counts[i].n;
	return 0;
}

void mfi_shim_deny_mknod(int errnum)
{
	mknod_errno = errnum;
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
	memcpy(p + 192, "1.80-QEMU", 9);
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
	put(p + 1500, 0x01, 4); /* RAID0 */
	/* Rebuild rate (and patrol read rate with a patrol read), no spanning. */
	put(p + 1504, 0x0001 | (patrol ? 0x0010 : 0) | 0x1000 | 0x2000, 4);
	p[1512] = 3;
	p[1513] = 16;
	p[1536 + 8] = p[1536 + 9] = p[1536 + 10] = p[1536 + 11] = p[1536 + 12] = 30;
	put(p + 1536 + 32, 1u << 13, 4); /* JBOD enabled */
	memcpy(p + 1600, "2.5+-QEMU", 9);
}

static void pd_list(uint8_t *p, uint32_t len, bool bad_count)
{
	size_t n = 0;

	for (; n < disk_count && 8 + (n + 1) * 24 <= len; n++) {
		uint8_t *a = p + 8 + n * 24;
		uint16_t id = (uint16_t)(disks[n].id << 8);

		put(a, id, 2);
		put(a + 2, 0xffff, 2);
		a[5] = disks[n].id;
		a[7] = 1;
		put(a + 8, sas_addr(id), 8);
	}
	put(p, 8 + n * 24, 4);
	put(p + 4, bad_count ? 1000 : n, 4);
}

/*
 * PD_GET_INFO as QEMU answers it: the device id read from mailbox byte 0
 * alone, the INQUIRY data never copied in (0x7f: no device), so offline.
 */
static uint8_t pd_info(uint8_t *p, const uint8_t *mbox)
{
	const struct mfi_shim_disk *d = disk_at(0);
	uint16_t pd_id = mbox[0];

	if (!d || mbox[0])
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

static void ld_list(uint8_t *p, bool bad_count)
{
	for (size_t n = 0; n < disk_count; n++) {
		p[8 + n * 16] = disks[n].id;
		p[8 + n * 16 + 4] = 3; /* OPTIMAL */
		put(p + 8 + n * 16 + 8, disks[n].blocks, 8);
	}
	put(p, bad_count ? 1000 : disk_count, 4);
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

static uint8_t ld_info(uint8_t *p, const uint8_t *mbox)
{
	const struct mfi_shim_disk *d = disk_at(mbox[0]);

	if (!d)
		return ST_DEVICE_NOT_FOUND;
	ld_config(p, d, false);
	put(p + 256, d->blocks, 8);
	return ST_OK;
}

/* CFG_READ: one array and one LD per disk; the sections' sizes in all, as QEMU writes them. */
static uint8_t cfg_read(uint8_t *p, uint32_t len)
{
	uint8_t data[4096] = {0};
	size_t n = disk_count, arrays = 32, lds = arrays + n * 288, size = lds + n * 256;

	if (len > sizeof(data))
		return ST_INVALID_PARAMETER;
	put(data, size, 4);
	put(data + 4, n, 2);
	put(data + 6, n * 288, 2);
	put(data + 8, n, 2);
	put(data + 10, n * 256, 2);
	put(data + 14, 40, 2);
	for (size_t i = 0; i < n; i++) {
		uint8_t *a = data + arrays + i * 288;
		uint16_t id = (uint16_t)(disks[i].id << 8);

		put(a, disks[i].blocks, 8);
		a[8] = 1;
		put(a + 10, id, 2);
		for (int r = 0; r < 32; r++) {
			put(a + 32 + r * 8, r ? 0xffff : id, 2);
			put(a + 32 + r * 8 + 4, r ? 0 : 0x18, 2);
			a[32 + r * 8 + 6] = 0xff;
			a[32 + r * 8 + 7] = r ? 0xff : disks[i].id;
		}
		ld_config(data + lds + i * 256, &disks[i], true);
	}
	memcpy(p, data, len < size ? len : size);
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

/* PR_GET_PROPERTIES (208 bytes) and PR_GET_STATUS (16): QEMU's dummy writes neither. */
static void pr_props(uint8_t *p)
{
	if (!patrol)
		return;
	p[0] = patrol->op_mode;
	p[1] = patrol->max_pd;
	put(p + 196, patrol->next_exec, 4);
	put(p + 200, patrol->exec_freq, 4);
}

static void pr_status(uint8_t *p)
{
	if (!patrol)
		return;
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

/* The mailbox @opcode must carry: the PD's id (2 bytes) or the LD's target, else nothing. */
static int check_mbox(uint32_t opcode, const uint8_t *mbox)
{
	int used = opcode == 0x02020000 ? 2 : opcode == 0x03020000 ? 1 : 0;

	if (opcode == 0x01040300) {
		WANT("EVENT_GET's locale (all)", get(mbox + 4, 2), 0xffff);
		WANT("EVENT_GET's class (info)", get(mbox + 6, 2), 0);
		used = 8;
	}

	for (int i = used; i < 12; i++)
		WANT("a mailbox byte beyond the parameter", mbox[i], 0);
	return 0;
}

static uint8_t dcmd(uint32_t opcode, uint8_t *f, uint8_t *buf, uint32_t len)
{
	bool bad = false;

	for (size_t i = 0; i < fault_count; i++) {
		if (faults[i].opcode == opcode && faults[i].fault == MFI_SHIM_STATUS)
			return faults[i].status;
		bad |= faults[i].opcode == opcode && faults[i].fault == MFI_SHIM_BAD_COUNT;
	}
	if (size_refused(opcode, len))
		return ST_INVALID_PARAMETER;
	switch (opcode) {
	case 0x01010000:
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
	case 0x01070100:
		pr_status(buf);
		return ST_OK;
	default:
		return ST_OK; /* QEMU's dummy: success, nothing done */
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

	if (!d)
		return ST_DEVICE_NOT_FOUND;
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
	bool data = opcode != 0x01040200; /* EVENT_CLEAR moves none */
	uint8_t status;

	if (failure[0])
		return mismatch("%s", failure);
	memcpy(&iov, pkt + PKT_IOVECS, sizeof(iov));
	WANT("the frame command", f[F_CMD] == 0x05 || f[F_CMD] == 0x04, 1);
	WANT("host_no", get(pkt + PKT_HOST, 2), host);
	WANT("the packet's pad", get(pkt + 2, 2), 0);
	WANT("sgl_off", get(pkt + PKT_SGL_OFF, 4), is_dcmd ? 40 : 48);
	WANT("the packet's sge_count", get(pkt + PKT_SGE_COUNT, 4), data);
	WANT("the frame's sge_count", f[F_SGE_COUNT], data);
	WANT("cmd_status as sent (preset)", f[F_STATUS], 0xff);
	WANT("the flags (read)", get(f + F_FLAGS, 2), data ? MFI_READ : 0);
	WANT("the context, pad and timeout", get(f + 8, 8) | get(f + 18, 2), 0);
	WANT("the iovec's length", iov.iov_len, len);
	WANT("a buffer", iov.iov_base != NULL, data);
	for (int i = 16; i < 16 * 16; i++)
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
	for (size_t i = 0; i < fault_count; i++)
		if (faults[i].opcode == opcode && faults[i].fault == MFI_SHIM_SILENT)
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
