// SPDX-License-Identifier: MIT
/*
 * test-stripe.c - lib/soft/engine/stripe.c's layouts against md's own arithmetic
 * (md-ref.c, written from md's definitions independently of it) for every
 * level and several shapes, against places derived by hand from md's
 * documented layouts, and its refusal of a capacity that does not match.
 */
#include <stdlib.h>
#include <string.h>

#include "md-ref.h"
#include "soft/config/layout.h"
#include "soft/engine/stripe.h"
#include "unit.h"

#define KIB 1024ull

/* A VD of @level over @spans x @dps members with @strip_kib, in @lbas sectors. */
static void make_vd(enum rcl_raid_level level, unsigned spans, unsigned dps, unsigned strip_kib,
                    uint64_t lbas, struct rcl_soft_dg *dg, struct rcl_soft_vd *vd,
                    struct rcl_md_geometry *member)
{
	struct rcl_error err = {0};

	memset(dg, 0, sizeof(*dg));
	memset(vd, 0, sizeof(*vd));
	dg->level = level;
	dg->spans = spans;
	dg->drives_per_span = dps;
	vd->strip_kib = strip_kib;
	vd->first_lba = 4096;
	vd->last_lba = 4096 + lbas - 1;
	ck_assert_msg(!rcl_soft_capacity(dg, strip_kib, lbas, 512, member, &vd->bytes, &err), "%s",
	              err.msg);
}

static void geometry(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                     struct rcl_soft_geometry *geo)
{
	struct rcl_error err = {0};

	ck_assert_msg(!rcl_soft_geometry_get(dg, vd, 512, geo, &err), "%s", err.msg);
}

/* Where the library puts copy @copy of VD byte @off: group member and drive byte. */
static unsigned lib_place(const struct rcl_soft_geometry *geo, uint64_t off, unsigned copy,
                          uint64_t *at)
{
	uint64_t aoff, run;
	unsigned ai = rcl_soft_geometry_locate(geo, off, &aoff, &run);
	const struct rcl_soft_array *a = &geo->arrays[ai];
	struct rcl_soft_copies c;

	if (a->parity) {
		uint64_t sb = rcl_soft_array_stripe_bytes(a), stripe = aoff / sb;
		unsigned d = (unsigned)(aoff % sb / a->chunk);

		*at = rcl_soft_array_strip_at(a, stripe) + aoff % a->chunk;
		return a->first + rcl_soft_array_role(a, stripe, d);
	}
	rcl_soft_array_copies(a, aoff, &c, &run);
	ck_assert_uint_lt(copy, c.count);
	*at = c.at[copy];
	return a->first + c.member[copy];
}

/*
 * Where md puts it: md's formulas over the shapes and data offsets the
 * superblocks carry (here, as layout.c computes them).
 */
static unsigned ref_place(const struct rcl_soft_dg *dg, const struct rcl_soft_vd *vd,
                          const struct rcl_md_geometry *member, uint64_t off, unsigned copy,
                          uint64_t *at)
{
	bool nested = dg->level == RCL_RAID00 || dg->level == RCL_RAID50 || dg->level == RCL_RAID60;
	static const int md_level[] = {
	    [RCL_RAID0] = 0,   [RCL_RAID1] = 1,  [RCL_RAID5] = 5,  [RCL_RAID6] = 6,
	    [RCL_RAID10] = 10, [RCL_RAID50] = 5, [RCL_RAID60] = 6, [RCL_RAID00] = 0};
	struct mdref_vd ref = {.part = vd->first_lba,
	                       .spans = nested ? dg->spans : 1,
	                       .array = {md_level[dg->level],
	                                 nested ? dg->drives_per_span : rcl_soft_dg_members(dg),
	                                 vd->strip_kib * 2, member->data_offset}};
	uint64_t sector;
	unsigned m;

	if (nested) {
		struct rcl_md_geometry top;
		struct rcl_error err = {0};

		ck_assert(!rcl_soft_top_geometry(dg, vd->strip_kib, member, &top, &err));
		ref.top = (struct mdref_array){0, dg->spans, vd->strip_kib * 2, top.data_offset};
	}
	m = mdref_place(&ref, off / 512, copy, &sector);
	*at = sector * 512 + off % 512;
	return m;
}

static unsigned copies_of(enum rcl_raid_level level, unsigned n)
{
	return level == RCL_RAID1 ? n : level == RCL_RAID10 ? 2 : 1;
}

static void check_against_md(enum rcl_raid_level level, unsigned spans, unsigned dps,
                             unsigned strip_kib)
{
	struct rcl_soft_dg dg;
	struct rcl_soft_vd vd;
	struct rcl_md_geometry member;
	struct rcl_soft_geometry geo;
	uint64_t chunk = strip_kib * KIB;

	make_vd(level, spans, dps, strip_kib, 200000, &dg, &vd, &member);
	geometry(&dg, &vd, &geo);
	ck_assert_uint_eq(geo.bytes, vd.bytes);
	srandom(level * 1000 + spans * 100 + dps);
	for (unsigned i = 0; i < 3000; i++) {
		/* The first chunks' edges, then random sectors over the whole VD. */
		uint64_t off = i < 200 ? (i / 2) * chunk + (i % 2 ? chunk - 512 : 0)
		                       : (uint64_t)random() % (vd.bytes / 512) * 512;

		for (unsigned c = 0; c < copies_of(level, spans * dps); c++) {
			uint64_t lib_at, ref_at;
			unsigned lib_m = lib_place(&geo, off, c, &lib_at);
			unsigned ref_m = ref_place(&dg, &vd, &member, off, c, &ref_at);

			ck_assert_msg(
			    lib_m == ref_m && lib_at == ref_at,
			    "%s %ux%u: byte %llu copy %u: member %u at %llu, md: %u at %llu",
			    rcl_raid_level_name(level), spans, dps, (unsigned long long)off, c,
			    lib_m, (unsigned long long)lib_at, ref_m, (unsigned long long)ref_at);
		}
	}
}

START_TEST(test_md_layouts)
{
	check_against_md(RCL_RAID0, 1, 3, 64);
	check_against_md(RCL_RAID0, 1, 5, 8);
	check_against_md(RCL_RAID1, 1, 2, 64);
	check_against_md(RCL_RAID1, 1, 3, 64);
	check_against_md(RCL_RAID5, 1, 3, 64);
	check_against_md(RCL_RAID5, 1, 7, 16);
	check_against_md(RCL_RAID6, 1, 4, 64);
	check_against_md(RCL_RAID6, 1, 8, 32);
	check_against_md(RCL_RAID10, 2, 2, 64);
	check_against_md(RCL_RAID10, 3, 2, 16);
	check_against_md(RCL_RAID50, 2, 3, 64);
	check_against_md(RCL_RAID50, 3, 4, 16);
	check_against_md(RCL_RAID60, 2, 4, 64);
	check_against_md(RCL_RAID60, 2, 5, 8);
	check_against_md(RCL_RAID00, 2, 2, 64);
	check_against_md(RCL_RAID00, 3, 3, 16);
}
END_TEST

/* P and Q of every stripe where md has them, and data strips in md's Q order. */
static void check_parity_roles(enum rcl_raid_level level, unsigned n)
{
	struct rcl_soft_dg dg;
	struct rcl_soft_vd vd;
	struct rcl_md_geometry member;
	struct rcl_soft_geometry geo;
	const struct rcl_soft_array *a;
	int md_level = level == RCL_RAID6 ? 6 : 5;

	make_vd(level, 1, n, 64, 100000, &dg, &vd, &member);
	geometry(&dg, &vd, &geo);
	a = &geo.arrays[0];
	for (uint64_t stripe = 0; stripe < 3 * n; stripe++) {
		unsigned k = rcl_soft_array_data_strips(a), dd, pd, qd;

		for (unsigned d = 0; d < k; d++) {
			uint64_t s = (stripe * k + d) * 128;

			mdref_raid56(md_level, n, 128, s, &dd, &pd, &qd);
			ck_assert_uint_eq(rcl_soft_array_role(a, stripe, d), dd);
			ck_assert_uint_eq(rcl_soft_array_role(a, stripe, k), pd);
			if (md_level == 6) {
				ck_assert_uint_eq(rcl_soft_array_role(a, stripe, k + 1), qd);
				ck_assert_uint_eq(mdref_raid6_slot(n, pd, qd, dd), d);
			}
		}
	}
}

START_TEST(test_parity_roles)
{
	check_parity_roles(RCL_RAID5, 3);
	check_parity_roles(RCL_RAID5, 6);
	check_parity_roles(RCL_RAID6, 4);
	check_parity_roles(RCL_RAID6, 7);
}
END_TEST

/* The member and drive byte (past the array's start) of VD chunk @chunk's copy @copy. */
static void expect(const struct rcl_soft_geometry *geo, uint64_t chunk, unsigned copy,
                   unsigned member, uint64_t byte)
{
	uint64_t at;
	unsigned m = lib_place(geo, chunk * geo->chunk, copy, &at);
	const struct rcl_soft_array *a = &geo->arrays[m / geo->arrays[0].n];

	ck_assert_uint_eq(m, member);
	ck_assert_uint_eq(at - a->start, byte);
}

/*
 * Places read off md's layout pictures: RAID5 left-symmetric on 3 drives
 * is D0 D1 P / D3 P D2 / P D4 D5; RAID6 on 4 drives Q D0 D1 P / D2 D3 P Q;
 * RAID10 near=2 on 4 drives mirrors chunk 0 on drives 0-1 and chunk 1 on
 * 2-3; RAID0 on 3 drives puts chunk 4 on drive 1, second row.
 */
START_TEST(test_by_hand)
{
	struct rcl_soft_dg dg;
	struct rcl_soft_vd vd;
	struct rcl_md_geometry member;
	struct rcl_soft_geometry geo;
	const uint64_t c = 64 * KIB;

	make_vd(RCL_RAID5, 1, 3, 64, 100000, &dg, &vd, &member);
	geometry(&dg, &vd, &geo);
	ck_assert_uint_eq(geo.arrays[0].start, (4096 + member.data_offset) * 512);
	expect(&geo, 0, 0, 0, 0);
	expect(&geo, 1, 0, 1, 0);
	expect(&geo, 2, 0, 2, c);
	expect(&geo, 3, 0, 0, c);
	expect(&geo, 4, 0, 1, 2 * c);
	expect(&geo, 5, 0, 2, 2 * c);
	ck_assert_uint_eq(rcl_soft_array_role(&geo.arrays[0], 1, 2), 1);

	make_vd(RCL_RAID6, 1, 4, 64, 100000, &dg, &vd, &member);
	geometry(&dg, &vd, &geo);
	expect(&geo, 0, 0, 1, 0);
	expect(&geo, 1, 0, 2, 0);
	expect(&geo, 2, 0, 0, c);
	expect(&geo, 3, 0, 1, c);
	ck_assert_uint_eq(rcl_soft_array_role(&geo.arrays[0], 0, 2), 3);
	ck_assert_uint_eq(rcl_soft_array_role(&geo.arrays[0], 0, 3), 0);
	ck_assert_uint_eq(rcl_soft_array_role(&geo.arrays[0], 1, 2), 2);
	ck_assert_uint_eq(rcl_soft_array_role(&geo.arrays[0], 1, 3), 3);

	make_vd(RCL_RAID10, 2, 2, 64, 100000, &dg, &vd, &member);
	geometry(&dg, &vd, &geo);
	expect(&geo, 0, 0, 0, 0);
	expect(&geo, 0, 1, 1, 0);
	expect(&geo, 1, 0, 2, 0);
	expect(&geo, 1, 1, 3, 0);
	expect(&geo, 2, 1, 1, c);

	make_vd(RCL_RAID0, 1, 3, 64, 100000, &dg, &vd, &member);
	geometry(&dg, &vd, &geo);
	expect(&geo, 4, 0, 1, c);

	/*
	 * RAID50 over two RAID5 spans of 3: VD chunks alternate spans, each
	 * span's chunks starting past the top raid0's metadata (t chunks in),
	 * in the 3-drive picture above.
	 */
	make_vd(RCL_RAID50, 2, 3, 64, 100000, &dg, &vd, &member);
	geometry(&dg, &vd, &geo);
	ck_assert_uint_eq(geo.top_start % c, 0);
	for (uint64_t chunk = 0; chunk < 8; chunk++) {
		static const unsigned picture[3][2] = {{0, 1}, {2, 0}, {1, 2}};
		uint64_t t = geo.top_start / c + chunk / 2, row = t / 2;

		expect(&geo, chunk, 0, (unsigned)(chunk % 2 * 3 + picture[row % 3][t % 2]),
		       row * c);
	}
}
END_TEST

/* A capacity the geometry does not give is refused. */
START_TEST(test_mismatch)
{
	struct rcl_soft_dg dg;
	struct rcl_soft_vd vd;
	struct rcl_md_geometry member;
	struct rcl_soft_geometry geo;
	struct rcl_error err = {0};

	make_vd(RCL_RAID5, 1, 4, 64, 100000, &dg, &vd, &member);
	vd.bytes += 512;
	ck_assert_int_eq(rcl_soft_geometry_get(&dg, &vd, 512, &geo, &err), RCL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "md geometry"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stripe");
	TCase *tc = tcase_create("stripe");

	tcase_add_test(tc, test_md_layouts);
	tcase_add_test(tc, test_parity_roles);
	tcase_add_test(tc, test_by_hand);
	tcase_add_test(tc, test_mismatch);
	suite_add_tcase(s, tc);
	return unit_main(s);
}
