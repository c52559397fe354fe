// SPDX-License-Identifier: MIT
/*
 * test-megaraid-writes.c - every frame that changes a MegaRAID card,
 * checked byte for byte against a payload built here by offset (not
 * through lib/megaraid/mfi.h): CFG_ADD at each level the firmware creates
 * with its strips, cache policies and dedicated spares, LD_SET_PROP of each
 * VD property, PD_STATE_SET taking a member offline, CTRL_SET_PROPS of
 * each task rate.
 *
 * The card is the shim's with twelve disks, each numbered by the firmware
 * as a real card does (mfi_shim_pd_seq()), creating RAID0, 1, 5 and 6 and
 * spanning them (mfi_shim_card()): QEMU's creates RAID0 alone and never
 * spans, so no real peer the tests can run produces these frames.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mfi-host.h"
#include "mfi-shim-tasks.h"
#include "mfi-shim.h"
#include "unit.h"

#define PD_GET_INFO 0x02020000u
#define STATE_SET   0x02030100u
#define LD_GET_PROP 0x03030000u
#define LD_SET_PROP 0x03040000u
#define CFG_ADD     0x04020000u
#define MAKE_SPARE  0x04040000u
#define SET_PROPS   0x01020200u

/* CTRL_GET_INFO's raid_levels: RAID0, 1, 5 and 6. */
#define LEVELS_0156 (0x01u | 0x02u | 0x04u | 0x10u)
/* adapter_ops: SPANNING_ALLOWED, and the CC, BGI, reconstruction and patrol read rates. */
#define OPS_SPANS 0x0100u
#define OPS_RATES (0x0002u | 0x0004u | 0x0008u | 0x0010u)

#define DISKS       12
#define DISK_BLOCKS 2097152u /* 1 GiB */

/* The sequence number the card gives disk @id (its PD_GET_INFO, what each change must carry). */
static uint16_t seq_of(unsigned id)
{
	return (uint16_t)(0x10 + id);
}

/*
 * The host with the card of twelve disks: disk 0 QEMU's LD 0 (array ref
 * 0), the others free and numbered by the firmware.
 */
static void host_big_card(struct host *h)
{
	static struct mfi_shim_disk disks[DISKS];
	char *node;

	host_init(h, MAJOR_NOW);
	for (unsigned i = 0; i < DISKS; i++)
		disks[i] = (struct mfi_shim_disk){(uint8_t)i, DISK_BLOCKS};
	node = unit_path(h->root, "dev/megaraid_sas_ioctl_node");
	mfi_shim_setup(node, 2, "QM00001", disks, DISKS);
	free(node);
	mfi_shim_card(LEVELS_0156, OPS_SPANS | OPS_RATES);
	for (unsigned i = 1; i < DISKS; i++) {
		mfi_shim_unconfigure((uint8_t)i);
		mfi_shim_pd_seq((uint8_t)i, seq_of(i));
	}
}

/* Data @got (@len bytes) is @want's @n, byte for byte. */
static void expect_bytes(const char *what, const uint8_t *got, size_t len, const uint8_t *want,
                         size_t n)
{
	ck_assert_msg(len == n, "%s: %zu bytes, not %zu", what, len, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i], "%s byte %zu is 0x%02x, not 0x%02x", what, i,
		              got[i], want[i]);
}

/* The last frame @opcode: its mailbox @mbox's first @nmbox bytes (the rest 0), its data @want. */
static void expect_frame(uint32_t opcode, const uint8_t *mbox, size_t nmbox, const uint8_t *want,
                         size_t n)
{
	uint8_t got_mbox[12], full[12] = {0}, got[4096];
	size_t len = mfi_shim_last(opcode, got_mbox, got, sizeof(got));

	if (nmbox) /* memcpy() of NULL, even of 0 bytes, is undefined */
		memcpy(full, mbox, nmbox);
	ck_assert_mem_eq(got_mbox, full, sizeof(full));
	expect_bytes("the data", got, len, want, n);
}

/*
 * One VD to create: the command, then what its CFG_ADD must say: the MFI
 * primary level, qualifier and secondary level, @spans arrays of @per
 * disks from slot 1 on, the strip (log2 of 512-byte blocks), the cache
 * policy byte, the disk cache byte, and the @spares disks after the
 * members, dedicated to the new arrays.
 */
struct create_case {
	const char *line;
	const char *shows; /* "show" of the new VD: its level and cache policies */
	uint8_t primary, qualifier, secondary;
	unsigned spans, per;
	uint8_t strip, cache, disk_cache;
	unsigned spares;
};

/*
 * Cache bytes: 0x01 write back, 0x04 read ahead, 0x10 write back on a bad
 * BBU, 0x20 and 0x40 the controller's cache taking writes and keeping reads.
 */
static const struct create_case creates[] = {
    {"/c0 add vd r0 name=r0 drives=252:1-2 strip=128 wrcache=wt rdcache=nora iopolicy=direct "
     "pdcache=off",
     "RAID0 Optl  RW     No      NRWTD", 0, 0, 0, 1, 2, 8, 0x20, 2, 0},
    {"/c0 add vd r1 name=r1 drives=252:1-2 strip=256 wrcache=wb rdcache=ra iopolicy=cached "
     "pdcache=on spares=252:3",
     "RAID1 Optl  RW     No      RWBC", 1, 0, 0, 1, 2, 9, 0x65, 1, 1},
    {"/c0 add vd r5 name=r5 drives=252:1-3 strip=512 wrcache=awb rdcache=nora iopolicy=direct "
     "spares=252:4",
     "RAID5 Optl  RW     No      NRAWBD", 5, 3, 0, 1, 3, 10, 0x31, 0, 1},
    {"/c0 add vd r6 name=r6 drives=252:1-4 strip=1024 wrcache=wt rdcache=ra iopolicy=cached "
     "spares=252:5-6",
     "RAID6 Optl  RW     No      RWTC", 6, 3, 0, 1, 4, 11, 0x64, 0, 2},
    {"/c0 add vd r10 name=r10 drives=252:1-4 strip=128 wrcache=wb rdcache=nora iopolicy=direct "
     "pdcache=off spares=252:5",
     "RAID10 Optl  RW     No      NRWBD", 1, 0, 3, 2, 2, 8, 0x21, 2, 1},
    {"/c0 add vd r50 name=r50 drives=252:1-6 pdperarray=3 strip=256 wrcache=awb rdcache=ra "
     "iopolicy=cached spares=252:7",
     "RAID50 Optl  RW     No      RAWBC", 5, 3, 3, 2, 3, 9, 0x75, 0, 1},
    {"/c0 add vd r60 name=r60 drives=252:1-8 pdperarray=4 strip=512 wrcache=wt rdcache=nora "
     "iopolicy=cached pdcache=on spares=252:9-10",
     "RAID60 Optl  RW     No      NRWTC", 6, 3, 3, 2, 4, 10, 0x60, 1, 2},
};

/* "show all" of each disk cache byte. */
static const char *const disk_caches[] = {"Disk Cache Policy = Disk's Default",
                                          "Disk Cache Policy = Enabled",
                                          "Disk Cache Policy = Disabled"};

/* The CFG_ADD payload of @c into @p, by offset; its size. */
static size_t expected_add(const struct create_case *c, const char *name, uint8_t *p)
{
	size_t size = 32 + c->spans * 288 + 256;
	uint8_t *ld = p + 32 + c->spans * 288;

	memset(p, 0, size);
	unit_put_le(p, size, 4);
	unit_put_le(p + 4, c->spans, 2); /* arrays */
	unit_put_le(p + 6, 288, 2);
	unit_put_le(p + 8, 1, 2); /* one LD */
	unit_put_le(p + 10, 256, 2);
	unit_put_le(p + 14, 40, 2); /* spares: none here, 40 bytes each */
	for (unsigned s = 0; s < c->spans; s++) {
		uint8_t *a = p + 32 + s * 288;

		unit_put_le(a, DISK_BLOCKS, 8);
		a[8] = (uint8_t)c->per;
		unit_put_le(a + 10, s + 1, 2); /* the refs disk 0's array (0) leaves */
		memset(a + 32, 0xff, 32 * 8);  /* empty rows */
		for (unsigned r = 0; r < c->per; r++) {
			uint8_t *row = a + 32 + r * 8;
			unsigned id = 1 + s * c->per + r;

			unit_put_le(row, id << 8, 2); /* device id: QEMU's, the SCSI id */
			unit_put_le(row + 2, seq_of(id), 2);
			unit_put_le(row + 4, 0x18, 2); /* ONLINE */
			row[6] = 0;           /* enclosure index, as PD_GET_INFO gives it */
			row[7] = (uint8_t)id; /* slot */
		}
	}
	ld[0] = 1; /* target: the first free one */
	memcpy(ld + 4, name, strlen(name));
	ld[20] = ld[23] = c->cache; /* default and current policy */
	ld[22] = c->disk_cache;
	ld[32] = c->primary;
	ld[33] = c->qualifier;
	ld[34] = c->secondary;
	ld[35] = c->strip;
	ld[36] = (uint8_t)c->per;
	ld[37] = (uint8_t)c->spans;
	ld[38] = 3; /* OPTIMAL */
	for (unsigned s = 0; s < c->spans; s++) {
		unit_put_le(ld + 64 + s * 24 + 8, DISK_BLOCKS, 8); /* all of each member, from 0 */
		unit_put_le(ld + 64 + s * 24 + 16, s + 1, 2);
	}
	return size;
}

/* The CFG_MAKE_SPARE payload making disk @id a spare dedicated to @c's arrays; its size. */
static size_t expected_spare(const struct create_case *c, unsigned id, uint8_t *p)
{
	memset(p, 0, 40);
	unit_put_le(p, id << 8, 2);
	unit_put_le(p + 2, seq_of(id), 2);
	p[4] = 1; /* dedicated */
	p[7] = (uint8_t)c->spans;
	for (unsigned s = 0; s < c->spans; s++)
		unit_put_le(p + 8 + 2 * s, s + 1, 2);
	return 8 + 2 * c->spans;
}

/*
 * Each level the card creates: one CFG_ADD with its arrays, rows, strip,
 * policies and secondary level exactly, then one CFG_MAKE_SPARE per
 * spare; "show" reads the VD back as it was asked for.
 */
START_TEST(test_create_levels)
{
	const struct create_case *c = &creates[_i];
	const char *name = strstr(c->line, "name=") + 5;
	char vd_name[8] = "";
	uint8_t want[4096];
	size_t n;
	struct host h;

	memcpy(vd_name, name, strcspn(name, " "));
	host_big_card(&h);
	run_expect(c->line, RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_sent(CFG_ADD), 1);
	n = expected_add(c, vd_name, want);
	expect_frame(CFG_ADD, NULL, 0, want, n);
	ck_assert_uint_eq(mfi_shim_sent(MAKE_SPARE), c->spares);
	if (c->spares) {
		unsigned last = 1 + c->spans * c->per + c->spares - 1;

		n = expected_spare(c, last, want);
		expect_frame(MAKE_SPARE, NULL, 0, want, n);
	}
	run_expect("/c0/v1 show", RCL_OK, c->shows);
	run_expect("/c0/v1 show all", RCL_OK, disk_caches[c->disk_cache]);
	host_done(&h);
}
END_TEST

/*
 * One property a "set" changes on VD 1 (made "wrcache=wb rdcache=ra
 * iopolicy=direct": policy byte 0x25): the LD_SET_PROP byte at @at becomes
 * @value, every other of the 32 as LD_GET_PROP gave them.
 */
static const struct {
	const char *set;
	unsigned at;
	uint8_t value;
	const char *shows;
} props[] = {
    {"rdcache=nora", 20, 0x21, "NRWBD"},
    {"rdcache=ra", 20, 0x25, "RWBD"},
    {"iopolicy=cached", 20, 0x65, "RWBC"},
    {"iopolicy=direct", 20, 0x25, "RWBD"},
    {"wrcache=wt", 20, 0x24, "RWTD"},
    {"wrcache=awb", 20, 0x35, "RAWBD"},
    {"accesspolicy=ro", 21, 2, "RAID1 Optl  RO "},
    {"accesspolicy=blocked", 21, 3, "RAID1 Optl  B "},
    {"accesspolicy=rw", 21, 0, "RAID1 Optl  RW "},
    {"pdcache=on", 22, 1, "Disk Cache Policy = Enabled"},
    {"pdcache=off", 22, 2, "Disk Cache Policy = Disabled"},
    {"pdcache=default", 22, 0, "Disk Cache Policy = Disk's Default"},
};

/* Each VD property through LD_SET_PROP: the LD's reference in the mailbox, its 32 bytes changed. */
START_TEST(test_set_props)
{
	static const uint8_t ref[4] = {1, 0, 0x41, 0}; /* target 1, the number the card gave it */
	uint8_t want[32] = {1, 0, 0x41, 0, 'm'};
	char line[128];
	struct host h;

	host_big_card(&h);
	run_expect("/c0 add vd r1 name=m drives=252:1-2 wrcache=wb rdcache=ra iopolicy=direct",
	           RCL_OK, NULL);
	want[20] = want[23] = 0x25;
	want[props[_i].at] = props[_i].value;
	snprintf(line, sizeof(line), "/c0/v1 set %s", props[_i].set);
	run_expect(line, RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_sent(LD_SET_PROP), 1);
	expect_frame(LD_SET_PROP, ref, sizeof(ref), want, sizeof(want));
	run_expect("/c0/v1 show all", RCL_OK, props[_i].shows);
	host_done(&h);
}
END_TEST

/*
 * A card that answers LD_GET_PROP OK but writes nothing (QEMU's dummy):
 * the set refused as a reply never written, and nothing written back, so
 * a VD's name, policies and access are never replaced by zeros.
 */
START_TEST(test_set_props_unwritten)
{
	struct host h;

	host_big_card(&h);
	run_expect("/c0 add vd r1 name=m drives=252:1-2", RCL_OK, NULL);
	mfi_shim_break(LD_GET_PROP, MFI_SHIM_DUMMY, 0);
	run_expect("/c0/v1 set wrcache=wt", RCL_BAD_REPLY, "wrote no reply");
	ck_assert_uint_eq(mfi_shim_sent(LD_SET_PROP), 0);
	host_done(&h);
}
END_TEST

/* A member taken offline: PD_STATE_SET, the drive's reference and OFFLINE in the mailbox. */
START_TEST(test_set_offline)
{
	struct host h;

	host_big_card(&h);
	run_expect("/c0 add vd r1 drives=252:1-2", RCL_OK, NULL);
	run_expect("/c0/e252/s2 set offline", RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_sent(STATE_SET), 1);
	expect_frame(STATE_SET, (const uint8_t[]){0x00, 0x02, 0x12, 0x00, 0x10, 0x00}, 6, NULL, 0);
	run_expect("/c0/e252/s2 show", RCL_OK, "Offln");
	host_done(&h);
}
END_TEST

/* Each task rate but the rebuild's (test-megaraid.c): its byte of the properties, the rest kept. */
static const struct {
	const char *set;
	unsigned at;
	const char *show;
} rates[] = {
    {"prrate=41", 9, "/c0 show prrate"},
    {"bgirate=42", 10, "/c0 show bgirate"},
    {"ccrate=43", 11, "/c0 show ccrate"},
    {"reconrate=44", 12, "/c0 show reconrate"},
};

START_TEST(test_set_rates)
{
	uint8_t want[64] = {0};
	char line[64], shows[8];
	struct host h;

	host_big_card(&h);
	snprintf(line, sizeof(line), "/c0 set %s", rates[_i].set);
	run_expect(line, RCL_OK, NULL);
	want[8] = want[9] = want[10] = want[11] = want[12] = 30; /* the card's rates */
	want[rates[_i].at] = (uint8_t)(41 + _i);
	want[32 + 1] = 0x20; /* JBOD on, kept */
	ck_assert_uint_eq(mfi_shim_sent(SET_PROPS), 1);
	expect_frame(SET_PROPS, NULL, 0, want, sizeof(want));
	snprintf(shows, sizeof(shows), "%u%%", 41 + _i);
	run_expect(rates[_i].show, RCL_OK, shows);
	host_done(&h);
}
END_TEST

/*
 * A spare the card refuses after CFG_ADD made the VD: the VD stays, and
 * the error says so and names the spare, so "add vd" is not repeated.
 */
START_TEST(test_spare_refused)
{
	struct host h;

	host_big_card(&h);
	mfi_shim_break(MAKE_SPARE, MFI_SHIM_STATUS, 0x32);
	expect("/c0 add vd r1 drives=252:1-2 spares=252:3", false, RCL_NOT_ALLOWED,
	       HAS("/c0/v1 was created, but /c0/e252/s3 was not made its hot spare", "WRONG_STATE",
	           "add hotsparedrive", "not with 'add vd' again"));
	ck_assert_uint_eq(mfi_shim_sent(CFG_ADD), 1);
	run_expect("/c0/v1 show", RCL_OK, "RAID1");
	run_expect("/c0/e252/s3 show", RCL_OK, "UGood");
	host_done(&h);
}
END_TEST

/*
 * What a spare needs is read before CFG_ADD: when CFG_ADD is refused, the
 * spare's PD_GET_INFO was sent already, and no spare is made.
 */
START_TEST(test_spare_read_first)
{
	unsigned before, without, with;
	struct host h;

	host_big_card(&h);
	run_expect("/c0 show", RCL_OK, NULL); /* the first load registers the card */
	mfi_shim_break(CFG_ADD, MFI_SHIM_STATUS, 0x32);
	before = mfi_shim_sent(PD_GET_INFO);
	run_expect("/c0 add vd r1 drives=252:1-2", RCL_NOT_ALLOWED, "WRONG_STATE");
	without = mfi_shim_sent(PD_GET_INFO) - before;
	before = mfi_shim_sent(PD_GET_INFO);
	run_expect("/c0 add vd r1 drives=252:1-2 spares=252:3-4", RCL_NOT_ALLOWED, "WRONG_STATE");
	with = mfi_shim_sent(PD_GET_INFO) - before;
	ck_assert_uint_eq(with, without + 2);
	ck_assert_uint_eq(mfi_shim_sent(MAKE_SPARE), 0);
	host_done(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("megaraid-writes");
	TCase *tc = tcase_create("writes");

	tcase_add_loop_test(tc, test_create_levels, 0, sizeof(creates) / sizeof(creates[0]));
	tcase_add_loop_test(tc, test_set_props, 0, sizeof(props) / sizeof(props[0]));
	tcase_add_test(tc, test_set_props_unwritten);
	tcase_add_test(tc, test_set_offline);
	tcase_add_loop_test(tc, test_set_rates, 0, sizeof(rates) / sizeof(rates[0]));
	tcase_add_test(tc, test_spare_refused);
	tcase_add_test(tc, test_spare_read_first);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(suite());
}
