// SPDX-License-Identifier: MIT
/*
 * test-soft-config.c - the soft controller's configuration payload (round
 * trip, every refusal, hostile and truncated text), the data signatures
 * that make deleting a VD need force, and loading a configuration when
 * some drives' metadata is damaged.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "soft/config/config.h"
#include "soft/config/spare.h"
#include "soft/format/record.h"
#include "soft/format/signature.h"
#include "unit.h"

/*
 * Two groups: RAID5 (1 x 3) with two VDs, a dedicated spare (md device 3)
 * and member 1 offline, RAID50 (2 x 2) with one VD and member 2 being
 * rebuilt; a global spare, and one dedicated to both groups in the record.
 * VD 2 has its disk caches off and cached I/O; the global spare has
 * enclosure affinity, the md one is nonrevertible.
 */
static struct rcl_soft_config *sample(void)
{
	struct rcl_soft_config *cfg = calloc(1, sizeof(*cfg));
	struct rcl_error err = {0};

	ck_assert_ptr_nonnull(cfg);
	strcpy(cfg->serial, "RCLC0123456789AB");
	cfg->dgs[0] = (struct rcl_soft_dg){.id = 0,
	                                   .level = RCL_RAID5,
	                                   .spans = 1,
	                                   .drives_per_span = 3,
	                                   .first_lba = 4096,
	                                   .last_lba = 262143};
	cfg->dgs[1] = (struct rcl_soft_dg){.id = 3,
	                                   .level = RCL_RAID50,
	                                   .spans = 2,
	                                   .drives_per_span = 2,
	                                   .first_lba = 4096,
	                                   .last_lba = 131071};
	cfg->dg_count = 2;
	for (unsigned i = 0; i < 4; i++) {
		ck_assert_int_eq(rcl_guid_random(&cfg->dgs[1].members[i].uuid, &err), RCL_OK);
		cfg->dgs[1].members[i].slot = 10 + i;
		if (i == 3)
			continue;
		ck_assert_int_eq(rcl_guid_random(&cfg->dgs[0].members[i].uuid, &err), RCL_OK);
		cfg->dgs[0].members[i].slot = i;
	}
	for (unsigned v = 0; v < 3; v++) {
		struct rcl_soft_vd *vd = &cfg->vds[v];
		struct rcl_guid g;

		ck_assert_int_eq(rcl_guid_random(&g, &err), RCL_OK);
		*vd = (struct rcl_soft_vd){.id = v * 2,
		                           .dg = v < 2 ? 0 : 3,
		                           .part = v < 2 ? v + 1 : 1,
		                           .first_lba = v == 1 ? 100000 : 4096,
		                           .last_lba = v == 1 ? 200000 : 50000,
		                           .bytes = 123456789ull << v,
		                           .strip_kib = 64 << v,
		                           .write = RCL_WRITE_BACK_ALWAYS,
		                           .read = RCL_NO_READ_AHEAD,
		                           .access = (enum rcl_access_policy)v,
		                           .consistent = v == 1,
		                           .created = 1767225600 + v};
		memcpy(vd->uuid, g.b, 16);
		snprintf(vd->name, sizeof(vd->name), "vd-%u", v);
		for (unsigned sp = 0; v == 2 && sp < 2; sp++) {
			ck_assert_int_eq(rcl_guid_random(&g, &err), RCL_OK);
			memcpy(vd->span_uuids[sp], g.b, 16);
		}
	}
	cfg->vd_count = 3;
	/* VD 0 keeps an adopted md array's layout: no bitmap, mdadm's data offset. */
	cfg->vds[0].md_kept = true;
	cfg->vds[0].md = (struct rcl_md_geometry){.super_offset = RCL_MD_SUPER1_2_OFFSET,
	                                          .data_offset = 2048,
	                                          .data_size = 43905,
	                                          .size = 43904,
	                                          .bblog_offset = 16,
	                                          .bblog_size = 8};
	ck_assert_int_eq(rcl_guid_random(&cfg->spares[0].uuid, &err), RCL_OK);
	cfg->spares[0].slot = 20;
	ck_assert_int_eq(rcl_guid_random(&cfg->spares[1].uuid, &err), RCL_OK);
	cfg->spares[1].slot = 22;
	cfg->spare_dgs[1] = 1u << 0 | 1u << 3;
	cfg->spare_flags[0] = RCL_SPARE_ENCL_AFFINITY;
	cfg->spare_count = 2;
	cfg->vds[2].disk_cache = RCL_DISK_CACHE_OFF;
	cfg->vds[2].io = RCL_IO_CACHED;
	cfg->dgs[0].members[1].state = RCL_SOFT_MEMBER_OFFLINE;
	cfg->dgs[1].members[2].state = RCL_SOFT_MEMBER_REBUILD;
	cfg->dgs[1].members[2].rebuilt_lba = 5000;
	ck_assert_int_eq(rcl_guid_random(&cfg->dgs[0].spares[0].drive.uuid, &err), RCL_OK);
	cfg->dgs[0].spares[0].drive.slot = 21;
	cfg->dgs[0].spares[0].dev = 3;
	cfg->dgs[0].spares[0].flags = RCL_SPARE_NONREVERTIBLE;
	cfg->dgs[0].spare_count = 1;
	return cfg;
}

static char *format(const struct rcl_soft_config *cfg, size_t *len)
{
	char *text = rcl_soft_config_format(cfg, len);

	ck_assert_ptr_nonnull(text);
	return text;
}

static bool same_md(const struct rcl_md_geometry *a, const struct rcl_md_geometry *b)
{
	return a->super_offset == b->super_offset && a->data_offset == b->data_offset &&
	       a->data_size == b->data_size && a->size == b->size &&
	       a->bitmap_offset == b->bitmap_offset && a->bitmap_chunk == b->bitmap_chunk &&
	       a->bitmap_sync_size == b->bitmap_sync_size && a->bblog_offset == b->bblog_offset &&
	       a->bblog_size == b->bblog_size;
}

START_TEST(test_round_trip)
{
	struct rcl_soft_config *cfg = sample(), *back = calloc(1, sizeof(*back));
	struct rcl_error err = {0};
	size_t len;
	char *text = format(cfg, &len);

	ck_assert_int_eq(rcl_soft_config_parse(text, len, "d0", back, &err), RCL_OK);
	ck_assert_str_eq(back->serial, cfg->serial);
	ck_assert_uint_eq(back->dg_count, cfg->dg_count);
	ck_assert_uint_eq(back->vd_count, cfg->vd_count);
	ck_assert_uint_eq(back->spare_count, 2);
	ck_assert_mem_eq(back->spares, cfg->spares, sizeof(cfg->spares));
	ck_assert_mem_eq(back->spare_dgs, cfg->spare_dgs, sizeof(cfg->spare_dgs));
	ck_assert_mem_eq(back->spare_flags, cfg->spare_flags, sizeof(cfg->spare_flags));
	for (size_t i = 0; i < cfg->dg_count; i++)
		ck_assert_mem_eq(&back->dgs[i], &cfg->dgs[i], sizeof(cfg->dgs[i]));
	for (size_t i = 0; i < cfg->vd_count; i++) {
		const struct rcl_soft_vd *a = &back->vds[i], *b = &cfg->vds[i];

		ck_assert_msg(a->id == b->id && a->dg == b->dg && !strcmp(a->name, b->name) &&
		                  !memcmp(a->uuid, b->uuid, 16) && a->part == b->part &&
		                  a->first_lba == b->first_lba && a->last_lba == b->last_lba &&
		                  a->bytes == b->bytes && a->strip_kib == b->strip_kib &&
		                  a->write == b->write && a->read == b->read &&
		                  a->access == b->access && a->disk_cache == b->disk_cache &&
		                  a->io == b->io && a->consistent == b->consistent &&
		                  a->created == b->created &&
		                  !memcmp(a->span_uuids, b->span_uuids, sizeof(a->span_uuids)) &&
		                  a->md_kept == b->md_kept && same_md(&a->md, &b->md),
		              "VD %zu differs", i);
	}
	rcl_free(text);
	free(cfg);
	free(back);
}
END_TEST

START_TEST(test_empty_round_trip)
{
	struct rcl_soft_config cfg = {.serial = "RCLC1"}, back;
	struct rcl_error err = {0};
	size_t len;
	char *text = format(&cfg, &len);

	ck_assert_int_eq(rcl_soft_config_parse(text, len, "d0", &back, &err), RCL_OK);
	ck_assert_uint_eq(back.dg_count, 0);
	/* No spares, no "spares" key: records from before spares read the same. */
	ck_assert_ptr_null(strstr(text, "spares"));
	ck_assert_uint_eq(back.spare_count, 0);
	rcl_free(text);
}
END_TEST

/* @text refused as RCL_CORRUPT, with the drive named. */
static void refused(const char *text, size_t len)
{
	struct rcl_soft_config *cfg = calloc(1, sizeof(*cfg));
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_soft_config_parse(text, len, "/dev/test7", cfg, &err), RCL_CORRUPT);
	ck_assert_msg(strstr(err.msg, "drive /dev/test7: "), "%s", err.msg);
	free(cfg);
}

/* Apply @from -> @to once to the sample's text, and check it is refused. */
static void edited(const char *from, const char *to)
{
	struct rcl_soft_config *cfg = sample();
	size_t len;
	char *text = format(cfg, &len), *at = strstr(text, from);
	char buf[8192];

	ck_assert_msg(at, "'%s' not in %s", from, text);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	refused(buf, strlen(buf));
	rcl_free(text);
	free(cfg);
}

START_TEST(test_refusals)
{
	edited("\"format\":1", "\"format\":2");
	edited("\"format\":1", "\"format\":\"1\"");
	edited("\"level\":\"RAID5\"", "\"level\":\"RAID7\"");
	edited("\"level\":\"RAID5\"", "\"level\":\"RAID50\"");  /* no span UUIDs */
	edited("\"level\":\"RAID50\"", "\"level\":\"RAID10\""); /* span UUIDs too many */
	edited("\"span_uuids\":[\"", "\"span_uuids\":[7,\"");
	edited("\"spans\":1", "\"spans\":0");
	edited("\"spans\":1", "\"spans\":9");
	edited("\"spans\":1", "\"spans\":2"); /* member count no longer matches */
	edited("\"drives_per_span\":3", "\"drives_per_span\":-3");
	edited("\"id\":0,\"level\"", "\"id\":3,\"level\""); /* two groups with id 3 */
	edited("\"id\":2,", "\"id\":0,");                   /* two VDs with id 0 */
	edited("\"id\":2,", "\"id\":64,");
	edited("\"first_lba\":100000", "\"first_lba\":40000");  /* overlaps VD 0 */
	edited("\"first_lba\":100000", "\"first_lba\":300000"); /* after its end */
	edited("\"last_lba\":200000", "\"last_lba\":300000");   /* outside the group */
	edited("\"part\":2", "\"part\":1");
	edited("\"part\":2", "\"part\":0");
	edited("\"part\":2", "\"part\":128");
	edited("\"name\":\"vd-0\"", "\"name\":\"a name far too long\"");
	edited("\"name\":\"vd-0\"", "\"name\":\"a\\u0001\"");
	edited("\"write\":\"AWB\"", "\"write\":\"XX\"");
	edited("\"read\":\"NoRA\"", "\"read\":1");
	edited("\"pdcache\":\"Off\"", "\"pdcache\":\"Sometimes\"");
	edited("\"io\":\"Cached\"", "\"io\":true");
	edited("\"enclaffinity\":true", "\"enclaffinity\":1");
	edited("\"nonrevertible\":true", "\"nonrevertible\":\"yes\"");
	edited("\"consistent\":false", "\"consistent\":0");
	edited("\"strip_kib\":64", "\"strip_kib\":2048");
	edited("\"slot\":0", "\"slot\":240");
	edited("\"serial\":\"RCLC0123456789AB\"", "\"serial\":\"\"");
	edited("\"uuid\":\"", "\"uuid\":\"X");
	edited("\"vds\":[{", "\"vds\":[7,{");
	edited("\"members\":[", "\"members\":{},\"x\":[");
	edited("\"spares\":[{", "\"spares\":[7,{");
	edited("\"spares\":[", "\"spares\":{},\"x\":[");
	edited("\"slot\":20", "\"slot\":-1");
	edited("\"dev\":3", "\"dev\":2");   /* a member's device number */
	edited("\"dev\":3", "\"dev\":128"); /* past md's roles */
	edited("\"dev\":3", "\"dev\":\"3\"");
	/* Member states: only the four names, rebuilt_lba with rebuild alone. */
	edited("\"state\":\"offline\"", "\"state\":\"Offline\"");
	edited("\"state\":\"offline\"", "\"state\":\"online\"");
	edited("\"state\":\"offline\"", "\"state\":1");
	edited("\"state\":\"offline\"", "\"state\":\"offline\",\"rebuilt_lba\":5");
	edited("\"state\":\"rebuild\",\"rebuilt_lba\":5000", "\"state\":\"rebuild\"");
	edited("\"rebuilt_lba\":5000", "\"rebuilt_lba\":-1");
	edited("\"rebuilt_lba\":5000", "\"rebuilt_lba\":131073"); /* past the group */
	edited("\"slot\":0}", "\"slot\":0,\"rebuilt_lba\":0}");   /* online */
	/* A spare's groups: distinct ids of groups there are. */
	edited("\"dgs\":[0,3]", "\"dgs\":[0,0]");
	edited("\"dgs\":[0,3]", "\"dgs\":[]");
	edited("\"dgs\":[0,3]", "\"dgs\":[5]");
	edited("\"dgs\":[0,3]", "\"dgs\":[32]");
	edited("\"dgs\":[0,3]", "\"dgs\":[\"0\"]");
	edited("\"dgs\":[0,3]", "\"dgs\":0");
	/* An adopted md layout: data past the superblock, a bitmap with a chunk. */
	edited("\"data_offset\":2048", "\"data_offset\":15");
	edited("\"data_offset\":2048", "\"data_offset\":-1");
	edited("\"bitmap_offset\":0", "\"bitmap_offset\":8");
	edited("\"bblog_size\":8", "\"bblog_size\":65536");
	edited("\"size\":43904,", "");
}
END_TEST

/* The sample with group 0 a RAID6 of four drives losing its last one, migrating to RAID5. */
static struct rcl_soft_config *removing(void)
{
	struct rcl_soft_config *cfg = sample();
	struct rcl_soft_dg *dg = &cfg->dgs[0];
	struct rcl_error err = {0};

	ck_assert_int_eq(rcl_guid_random(&dg->members[3].uuid, &err), RCL_OK);
	dg->members[3].slot = 3;
	dg->migrate = (struct rcl_soft_migration){true, RCL_RAID6, 4};
	dg->spares[0].dev = 4; /* past every old role */
	return cfg;
}

/* A removal's record keeps the removed member, after the new ones, in its role. */
START_TEST(test_removal_round_trip)
{
	struct rcl_soft_config *cfg = removing(), *back = calloc(1, sizeof(*back));
	struct rcl_error err = {0};
	size_t len;
	char *text = format(cfg, &len);

	ck_assert_ptr_nonnull(strstr(text, "\"drives\":4,\"removed\":[{"));
	ck_assert_int_eq(rcl_soft_config_parse(text, len, "d0", back, &err), RCL_OK);
	ck_assert_mem_eq(&back->dgs[0], &cfg->dgs[0], sizeof(cfg->dgs[0]));
	ck_assert_uint_eq(rcl_soft_dg_members(&back->dgs[0]), 3);
	ck_assert_uint_eq(rcl_soft_dg_held(&back->dgs[0]), 4);
	rcl_free(text);
	/* The removed drive is a drive of the record: it cannot be a spare too. */
	cfg->dgs[0].spares[0].drive.uuid = cfg->dgs[0].members[3].uuid;
	ck_assert_ptr_null(rcl_soft_config_format(cfg, &len));
	free(cfg);
	free(back);
}
END_TEST

/* @from -> @to in the removal's record is refused. */
static void removal_edited(const char *from, const char *to)
{
	struct rcl_soft_config *cfg = removing();
	size_t len;
	char *text = format(cfg, &len), *at = strstr(text, from);
	char buf[8192];

	ck_assert_msg(at, "'%s' not in %s", from, text);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	refused(buf, strlen(buf));
	rcl_free(text);
	free(cfg);
}

START_TEST(test_removal_refusals)
{
	removal_edited("\"drives\":4", "\"drives\":5"); /* one removed member missing */
	removal_edited("\"drives\":4", "\"drives\":3"); /* removed members, none removed */
	removal_edited("\"removed\":[", "\"removed\":{},\"x\":[");
	removal_edited("\"removed\":[{", "\"removed\":[7,{");
	removal_edited("\"slot\":3}", "\"slot\":3,\"state\":\"Online\"}");
}
END_TEST

START_TEST(test_same_member_twice)
{
	struct rcl_soft_config *cfg = sample();
	struct rcl_error err = {0};
	size_t len;
	char *text;

	cfg->dgs[1].members[2].uuid = cfg->dgs[0].members[1].uuid;
	text = rcl_soft_config_format(cfg, &len);
	ck_assert_ptr_null(text); /* format refuses what parse would */
	cfg->dgs[1].members[2].uuid = cfg->dgs[1].members[0].uuid;
	ck_assert_ptr_null(rcl_soft_config_format(cfg, &len));
	/* A spare that is also a member, or listed twice. */
	free(cfg);
	cfg = sample();
	cfg->spares[0].uuid = cfg->dgs[1].members[3].uuid;
	ck_assert_ptr_null(rcl_soft_config_format(cfg, &len));
	cfg->spares[0].uuid = cfg->dgs[0].members[0].uuid;
	ck_assert_ptr_null(rcl_soft_config_format(cfg, &len));
	free(cfg);
	cfg = sample();
	cfg->spares[1] = cfg->spares[0];
	cfg->spare_count = 2;
	ck_assert_ptr_null(rcl_soft_config_format(cfg, &len));
	/* A dedicated spare that is a global one too; two with one device number. */
	cfg->spare_count = 1;
	cfg->dgs[0].spares[0].drive.uuid = cfg->spares[0].uuid;
	ck_assert_ptr_null(rcl_soft_config_format(cfg, &len));
	free(cfg);
	cfg = sample();
	cfg->dgs[0].spares[1] = cfg->dgs[0].spares[0];
	ck_assert_int_eq(rcl_guid_random(&cfg->dgs[0].spares[1].drive.uuid, &err), RCL_OK);
	cfg->dgs[0].spare_count = 2;
	ck_assert_ptr_null(rcl_soft_config_format(cfg, &len));
	free(cfg);
}
END_TEST

START_TEST(test_hostile_text)
{
	static const char *const texts[] = {
	    "",
	    "{",
	    "[]",
	    "null",
	    "{}",
	    "{\"format\":1}",
	    "{\"format\":1,\"serial\":\"x\"}",
	    "{\"format\":1,\"serial\":\"x\",\"groups\":{}}",
	    "{\"format\":1,\"serial\":\"x\",\"groups\":[null]}",
	    "{\"format\":1,\"serial\":\"x\",\"groups\":[]} trailing",
	    "{\"format\":1,\"serial\":\"x\",\"groups\":[{\"id\":0}]}",
	    "{\"format\":18446744073709551617,\"serial\":\"x\",\"groups\":[]}",
	};
	char deep[4096];

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		refused(texts[i], strlen(texts[i]));
	refused("{\"format\":1,\"serial\":\"x\",\"groups\":[]}\0", 38);
	memset(deep, '[', sizeof(deep));
	refused(deep, sizeof(deep));
}
END_TEST

/* Every prefix of a valid payload is refused, none crashes. */
START_TEST(test_truncated)
{
	struct rcl_soft_config *cfg = sample();
	size_t len;
	char *text = format(cfg, &len);

	for (size_t cut = 0; cut < len; cut++)
		refused(text, cut);
	rcl_free(text);
	free(cfg);
}
END_TEST

/* Flipping any byte yields a refusal or another valid configuration. */
START_TEST(test_byte_flips)
{
	struct rcl_soft_config *cfg = sample(), *back = calloc(1, sizeof(*back));
	struct rcl_error err = {0};
	size_t len;
	char *text = format(cfg, &len);

	for (size_t i = 0; i < len; i++) {
		char saved = text[i];
		enum rcl_status st;

		text[i] ^= 0x21;
		st = rcl_soft_config_parse(text, len, "d", back, &err);
		ck_assert_msg(st == RCL_OK || st == RCL_CORRUPT, "flip at %zu: %d", i, st);
		text[i] = saved;
	}
	rcl_free(text);
	free(cfg);
	free(back);
}
END_TEST

START_TEST(test_signatures)
{
	uint8_t buf[RCL_SOFT_SIGNATURE_BYTES] = {0};

	ck_assert_ptr_null(rcl_soft_signature(buf, sizeof(buf)));
	memcpy(buf + 1080, "\x53\xef", 2);
	ck_assert_str_eq(rcl_soft_signature(buf, sizeof(buf)), "an ext2/3/4 file system");
	ck_assert_ptr_null(rcl_soft_signature(buf, 1081)); /* past @len counts as absent */
	memset(buf, 0, sizeof(buf));
	memcpy(buf + 65600, "_BHRfS_M", 8);
	ck_assert_str_eq(rcl_soft_signature(buf, sizeof(buf)), "a btrfs file system");
	memset(buf, 0, sizeof(buf));
	memcpy(buf + 4086, "SWAPSPACE2", 10);
	ck_assert_str_eq(rcl_soft_signature(buf, sizeof(buf)), "swap space");
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "LUKS\xba\xbe", 6);
	ck_assert_str_eq(rcl_soft_signature(buf, sizeof(buf)), "a LUKS volume");
	memset(buf, 0, sizeof(buf));
	buf[510] = 0x55;
	buf[511] = 0xaa;
	ck_assert_ptr_null(rcl_soft_signature(buf, sizeof(buf))); /* no partition in it */
	buf[446 + 4] = 0x83;
	ck_assert_str_eq(rcl_soft_signature(buf, sizeof(buf)), "an MBR partition table");
	memcpy(buf + 512, "EFI PART", 8);
	ck_assert_str_eq(rcl_soft_signature(buf, sizeof(buf)), "a GPT");
}
END_TEST

/* ---- Loading with damage ---- */

static struct rcl_ctx *controller(char **dir, unsigned drives)
{
	struct rcl_ctx *ctx;

	*dir = unit_tmpdir();
	ctx = unit_ctx_new(*dir);
	unit_soft_create(ctx, drives, 32ull << 20);
	return ctx;
}

static struct rcl_ctrl *open0(struct rcl_ctx *ctx, struct rcl_error *err)
{
	struct rcl_ctrl *ctrl = NULL;

	ck_assert_msg(!rcl_ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE, &ctrl, err), "%s", err->msg);
	return ctrl;
}

static void raid5(struct rcl_ctx *ctx, unsigned first)
{
	struct rcl_drive_ref refs[] = {{252, first}, {252, first + 1}, {252, first + 2}};
	struct rcl_vd_params p = {.level = RCL_RAID5, .drives = refs, .drive_count = 3};
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = open0(ctx, &err);
	unsigned vd;

	ck_assert_msg(!rcl_ctrl_create_vd(ctrl, &p, &vd, &err), "%s", err.msg);
	rcl_ctrl_close(ctrl);
}

static void scribble(const char *path, uint64_t off, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	char junk[8192];

	memset(junk, 0x5a, sizeof(junk));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, junk, len, (off_t)off), (ssize_t)len);
	close(fd);
}

START_TEST(test_damaged_records_on_one_drive)
{
	char *dir, *img;
	struct rcl_ctx *ctx = controller(&dir, 4);
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;

	raid5(ctx, 0);
	ctrl = open0(ctx, &err);
	img = strdup(rcl_ctrl_drive(ctrl, 0)->path);
	rcl_ctrl_close(ctrl);
	/* Both record slots of drive 0 (the metadata partition is at 1 MiB). */
	scribble(img, 1 << 20, 4096);
	scribble(img, (1 << 20) + RCL_SOFT_RECORD_SLOT_BYTES, 4096);
	ctrl = open0(ctx, &err);
	ck_assert_uint_eq(rcl_ctrl_vd_count(ctrl), 1);
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_OPTIMAL);
	ck_assert_int_eq(rcl_ctrl_drive(ctrl, 0)->state, RCL_PD_ONLINE);
	rcl_ctrl_close(ctrl);
	/* Its GPT, both copies: the drive drops out, the VD degrades; it shows UBad, as it is used.
	 */
	scribble(img, 512, 1024);
	scribble(img, (32ull << 20) - 512, 512);
	ctrl = open0(ctx, &err);
	ck_assert_uint_eq(rcl_ctrl_vd_count(ctrl), 1);
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_DEGRADED);
	ck_assert_int_eq(rcl_ctrl_drive(ctrl, 0)->state, RCL_PD_UBAD);
	ck_assert(rcl_ctrl_drive(ctrl, 0)->unusable[0]);
	ck_assert_int_eq(rcl_ctrl_drive(ctrl, 0)->dg, -1);
	rcl_ctrl_close(ctrl);
	free(img);
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

START_TEST(test_missing_member_is_msng)
{
	char *dir, *img;
	struct rcl_ctx *ctx = controller(&dir, 4);
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	const struct rcl_drive *d;

	raid5(ctx, 1);
	ctrl = open0(ctx, &err);
	img = strdup(rcl_ctrl_drive(ctrl, 2)->path);
	rcl_ctrl_close(ctrl);
	ck_assert_int_eq(unlink(img), 0);
	ctrl = open0(ctx, &err);
	ck_assert_int_eq(rcl_ctrl_vd(ctrl, 0)->state, RCL_VD_DEGRADED);
	d = rcl_ctrl_drive(ctrl, 2);
	ck_assert_uint_eq(d->slot, 2);
	ck_assert_int_eq(d->state, RCL_PD_MISSING);
	ck_assert_int_eq(d->dg, 0);
	ck_assert_uint_eq(d->row, 1);
	rcl_ctrl_close(ctrl);
	free(img);
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

START_TEST(test_foreign_drive_refused)
{
	char *dir;
	struct rcl_ctx *ctx = controller(&dir, 4);
	struct rcl_drive_ref refs[] = {{252, 0}, {252, 1}};
	struct rcl_vd_params p = {.level = RCL_RAID1, .drives = refs, .drive_count = 2};
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = open0(ctx, &err);
	unsigned vd;
	uint8_t md[4] = {0xfc, 0x4e, 0x2b, 0xa9};
	int fd = open(rcl_ctrl_drive(ctrl, 1)->path, O_WRONLY | O_CLOEXEC);

	/* An md v1.2 superblock on the whole drive: someone's array member. */
	ck_assert_int_eq(pwrite(fd, md, 4, 4096), 4);
	close(fd);
	rcl_ctrl_close(ctrl);
	ctrl = open0(ctx, &err);
	ck_assert_int_eq(rcl_ctrl_drive(ctrl, 1)->state, RCL_PD_UGOOD);
	ck_assert_int_eq(rcl_ctrl_create_vd(ctrl, &p, &vd, &err), RCL_NOT_ALLOWED);
	ck_assert_msg(strstr(err.msg, "holds a foreign configuration"), "%s", err.msg);
	/* md 1.0 metadata, 8 KiB before the end of the drive. */
	fd = open(rcl_ctrl_drive(ctrl, 3)->path, O_WRONLY | O_CLOEXEC);
	ck_assert_int_eq(pwrite(fd, md, 4, (32 << 20) - 8192), 4);
	close(fd);
	rcl_ctrl_close(ctrl);
	ctrl = open0(ctx, &err);
	refs[0].slot = 2;
	refs[1].slot = 3;
	ck_assert_int_eq(rcl_ctrl_create_vd(ctrl, &p, &vd, &err), RCL_NOT_ALLOWED);
	ck_assert_msg(strstr(err.msg, "252:3 holds a foreign configuration: it holds an md "
	                              "superblock"),
	              "%s", err.msg);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

static enum rcl_status create_on(struct rcl_ctx *ctx, enum rcl_raid_level level,
                                 const unsigned *slots, size_t n, bool force, struct rcl_error *err)
{
	struct rcl_drive_ref refs[4];
	struct rcl_vd_params p = {.level = level, .drives = refs, .drive_count = n, .force = force};
	struct rcl_ctrl *ctrl = open0(ctx, err);
	enum rcl_status st;
	unsigned vd;

	for (size_t i = 0; i < n; i++)
		refs[i] = (struct rcl_drive_ref){252, slots[i]};
	st = rcl_ctrl_create_vd(ctrl, &p, &vd, err);
	rcl_ctrl_close(ctrl);
	return st;
}

static size_t vd_count(struct rcl_ctx *ctx)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = open0(ctx, &err);
	size_t n = rcl_ctrl_vd_count(ctrl);

	rcl_ctrl_close(ctrl);
	return n;
}

static char *drive_path(struct rcl_ctx *ctx, unsigned index)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = open0(ctx, &err);
	char *path = strdup(rcl_ctrl_drive(ctrl, index)->path);

	rcl_ctrl_close(ctrl);
	return path;
}

START_TEST(test_file_system_needs_force)
{
	static const unsigned slots[] = {0, 1};
	char *dir, *img;
	struct rcl_ctx *ctx = controller(&dir, 2);
	struct rcl_error err = {0};
	int fd;

	img = drive_path(ctx, 1);
	fd = open(img, O_WRONLY | O_CLOEXEC);
	ck_assert_int_eq(pwrite(fd, "XFSB", 4, 0), 4);
	close(fd);
	ck_assert_int_eq(create_on(ctx, RCL_RAID1, slots, 2, false, &err), RCL_NEED_FORCE);
	ck_assert_msg(strstr(err.msg, "252:1 holds an XFS file system"), "%s", err.msg);
	ck_assert_uint_eq(vd_count(ctx), 0);
	ck_assert_msg(!create_on(ctx, RCL_RAID1, slots, 2, true, &err), "%s", err.msg);
	ck_assert_uint_eq(vd_count(ctx), 1);
	free(img);
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

/* With every record damaged the configuration is gone, but no drive is reused. */
START_TEST(test_damaged_records_everywhere)
{
	static const unsigned slots[] = {0, 1};
	char *dir;
	struct rcl_ctx *ctx = controller(&dir, 2);
	struct rcl_error err = {0};

	ck_assert_msg(!create_on(ctx, RCL_RAID1, slots, 2, false, &err), "%s", err.msg);
	for (unsigned i = 0; i < 2; i++) {
		char *img = drive_path(ctx, i);

		scribble(img, 1 << 20, 4096);
		scribble(img, (1 << 20) + RCL_SOFT_RECORD_SLOT_BYTES, 4096);
		free(img);
	}
	ck_assert_uint_eq(vd_count(ctx), 0);
	ck_assert_int_eq(create_on(ctx, RCL_RAID1, slots, 2, true, &err), RCL_NOT_ALLOWED);
	ck_assert_msg(strstr(err.msg, "damaged raidcli configuration record"), "%s", err.msg);
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

static void delete0(struct rcl_ctx *ctx)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = open0(ctx, &err);

	ck_assert_msg(!rcl_ctrl_delete_vd(ctrl, 0, true, &err), "%s", err.msg);
	rcl_ctrl_close(ctrl);
}

/* Out of memory at each allocation of a create and a delete: the old or the new configuration. */
START_TEST(test_out_of_memory)
{
	static const unsigned slots[] = {0, 1, 2};
	char *dir;
	struct rcl_ctx *ctx = controller(&dir, 3);
	unsigned long n;

	for (n = 1;; n++) {
		struct rcl_error err = {0};
		struct rcl_ctrl *ctrl = open0(ctx, &err);
		struct rcl_drive_ref refs[] = {{252, 0}, {252, 1}, {252, 2}};
		struct rcl_vd_params p = {.level = RCL_RAID5, .drives = refs, .drive_count = 3};
		enum rcl_status st;
		unsigned vd;
		bool hit;

		rcl_alloc_fail_after(n, false);
		st = rcl_ctrl_create_vd(ctrl, &p, &vd, &err);
		hit = rcl_alloc_fail_after(0, false) >= n;
		ck_assert_msg(st == RCL_OK || st == RCL_NOMEM, "create, allocation %lu: %s", n,
		              err.msg);
		rcl_ctrl_close(ctrl);
		/* A failure after the commit only costs the model: the VD may be there. */
		if (vd_count(ctx)) {
			ctrl = open0(ctx, &err);
			rcl_alloc_fail_after(n, false);
			st = rcl_ctrl_delete_vd(ctrl, 0, true, &err);
			rcl_alloc_fail_after(0, false);
			ck_assert_msg(st == RCL_OK || st == RCL_NOMEM, "delete: %s", err.msg);
			rcl_ctrl_close(ctrl);
			if (vd_count(ctx))
				delete0(ctx);
		}
		ck_assert_uint_eq(vd_count(ctx), 0);
		if (!hit)
			break;
	}
	ck_assert_msg(!create_on(ctx, RCL_RAID5, slots, 3, false, &(struct rcl_error){0}),
	              "a create after the loop");
	rcl_ctx_free(ctx);
	unit_rmrf(dir);
	free(dir);
}
END_TEST

/* Slots 0 to 19 in enclosure 252, the rest in 253. */
static unsigned two_enclosures(unsigned slot)
{
	return slot < 20 ? 252 : 253;
}

/*
 * The spares tried for a lost member: dedicated (md's, then the record's),
 * then global; one with enclosure affinity only for a member of its own
 * enclosure.
 */
START_TEST(test_spare_order)
{
	struct rcl_soft_config *cfg = sample();
	struct rcl_guid order[2 * RCL_MAX_HOT_SPARES];

	/* Group 0's member in slot 1 (enclosure 252): the global spare (slot 20, 253) is left out.
	 */
	ck_assert_uint_eq(rcl_soft_spare_order(cfg, 0, 1, two_enclosures, order), 2);
	ck_assert(rcl_guid_equal(&order[0], &cfg->dgs[0].spares[0].drive.uuid));
	ck_assert(rcl_guid_equal(&order[1], &cfg->spares[1].uuid));
	/* A member in enclosure 253: it serves. */
	ck_assert_uint_eq(rcl_soft_spare_order(cfg, 0, 25, two_enclosures, order), 3);
	ck_assert(rcl_guid_equal(&order[2], &cfg->spares[0].uuid));
	/* Without affinity it serves any enclosure; group 3 has no md spare. */
	cfg->spare_flags[0] = 0;
	ck_assert_uint_eq(rcl_soft_spare_order(cfg, 3, 10, two_enclosures, order), 2);
	ck_assert(rcl_guid_equal(&order[0], &cfg->spares[1].uuid));
	ck_assert(rcl_guid_equal(&order[1], &cfg->spares[0].uuid));
	free(cfg);
}
END_TEST

static Suite *soft_config_suite(void)
{
	Suite *s = suite_create("soft-config");
	TCase *tc;

	tc = tcase_create("payload");
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_empty_round_trip);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_removal_round_trip);
	tcase_add_test(tc, test_removal_refusals);
	tcase_add_test(tc, test_same_member_twice);
	tcase_add_test(tc, test_hostile_text);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_byte_flips);
	suite_add_tcase(s, tc);

	tc = tcase_create("spares");
	tcase_add_test(tc, test_spare_order);
	suite_add_tcase(s, tc);

	tc = tcase_create("signature");
	tcase_add_test(tc, test_signatures);
	suite_add_tcase(s, tc);

	tc = tcase_create("load");
	tcase_add_test(tc, test_damaged_records_on_one_drive);
	tcase_add_test(tc, test_missing_member_is_msng);
	tcase_add_test(tc, test_foreign_drive_refused);
	tcase_add_test(tc, test_file_system_needs_force);
	tcase_add_test(tc, test_damaged_records_everywhere);
	suite_add_tcase(s, tc);

	tc = tcase_create("oom");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(soft_config_suite());
}
