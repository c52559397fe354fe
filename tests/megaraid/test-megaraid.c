// SPDX-License-Identifier: MIT
/*
 * test-megaraid.c - the megaraid backend end to end, below the driver:
 * a host tree (/proc/devices, sysfs, /dev under
 * $RAIDCLI_TEST_MEGARAID_ROOT) with one megaraid_sas adapter and one
 * other SCSI host, and the adapter played by the ioctl shim as QEMU's
 * megasas-gen2 answers (mfi-shim.h): what discovery registers, the node
 * it makes, what "show" reads, and the firmware's refusals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "mfi-host.h"
#include "mfi-shim.h"
#include "unit.h"

START_TEST(test_show_model)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};
	const struct rcl_ctrl_info *info;
	const struct rcl_caps *caps;
	struct rcl_ctrl_settings settings;
	dev_t dev;
	mode_t mode;

	host_init(&h, MAJOR_NOW);
	ck_assert_msg(open_c0(&ctx, &ctrl, &err) == RCL_OK, "%s (shim: %s)", err.msg,
	              mfi_shim_check());
	ck_assert_ptr_null(mfi_shim_check());
	info = rcl_ctrl_info(ctrl);
	ck_assert_str_eq(info->model, "LSI MegaRAID SAS 9260-8i");
	ck_assert_str_eq(info->serial, "QM00001");
	ck_assert_str_eq(info->firmware, "1.80-QEMU");
	ck_assert_str_eq(info->driver_name, "megaraid_sas");
	ck_assert_str_eq(info->driver_version, "07.719.03.00-rc1");
	ck_assert_str_eq(info->backend, "megaraid");
	ck_assert(info->jbod);
	/* The card's package, PCI function and ids, memory parts and ports. */
	ck_assert_str_eq(info->package, "2.5+-QEMU");
	ck_assert_str_eq(info->pci_address, PCI_FN);
	ck_assert_uint_eq(info->pci_vendor, 0x1000);
	ck_assert_uint_eq(info->pci_device, 0x0079);
	ck_assert_uint_eq(info->pci_subvendor, 0x1000);
	ck_assert_uint_eq(info->pci_subdevice, 0x9261);
	ck_assert_uint_eq(info->ports, 8);
	caps = rcl_ctrl_caps(ctrl);
	ck_assert_str_eq(caps->kind, "megaraid");
	ck_assert_uint_eq(caps->levels, 1u << RCL_RAID0);
	ck_assert_uint_eq(caps->strip_min_kib, 4);
	ck_assert_uint_eq(caps->strip_max_kib, 32768);
	ck_assert_uint_eq(caps->cache_mib, 512);
	ck_assert_int_eq(caps->backup, RCL_BACKUP_NONE);
	ck_assert_uint_eq(caps->max_spans, 1);
	/*
	 * QEMU's adapter_ops offer the rebuild rate only; its properties hold 30
	 * for each, JBOD enabled and automatic rebuild (every card's byte).
	 */
	ck_assert_uint_eq(caps->settings, 1u << RCL_SETTING_REBUILD_RATE |
	                                      1u << RCL_SETTING_VD_POLICY | 1u << RCL_SETTING_JBOD |
	                                      1u << RCL_SETTING_AUTO_REBUILD);
	ck_assert_int_eq(rcl_ctrl_settings_get(ctrl, &settings, &err), RCL_OK);
	ck_assert_uint_eq(settings.rate[RCL_SETTING_REBUILD_RATE], 30);
	ck_assert_uint_eq(mfi_shim_sent(0x01070200), 0); /* no patrol read to ask of */

	/* Every disk a PD on the backplane, slot = SCSI id, each in the group of its RAID0 LD. */
	ck_assert_uint_eq(rcl_ctrl_enclosure_count(ctrl), 1);
	ck_assert_uint_eq(rcl_ctrl_enclosure(ctrl, 0)->id, 252);
	ck_assert_uint_eq(rcl_ctrl_enclosure(ctrl, 0)->slots, 3);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 3);
	for (unsigned i = 0; i < 3; i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

		ck_assert_uint_eq(d->enclosure, 252);
		ck_assert_uint_eq(d->slot, i);
		ck_assert_uint_eq(d->device_id, i << 8);
		ck_assert_int_eq(d->state, RCL_PD_ONLINE);
		ck_assert_int_eq(d->dg, (int)i);
		ck_assert_uint_eq(d->raw_bytes, three[i].blocks * 512);
		ck_assert_str_eq(d->vendor, "QEMU");
		ck_assert_str_eq(d->model, "QEMU HARDDISK");
		ck_assert_str_eq(d->firmware, "2.5+");
		ck_assert_str_eq(d->interface, "SAS");
		/* QEMU's 36 bytes of INQUIRY, asked of the drive. */
		ck_assert_uint_eq(d->inquiry_len, 36);
		ck_assert_mem_eq(d->inquiry + 8, "QEMU    QEMU HARDDISK   2.5+", 28);
		ck_assert_uint_eq(strlen(d->serial), 3);
		ck_assert_int_eq(d->serial[2], '0' + (int)i);
	}
	/*
	 * QEMU's PD_GET_INFO answers for disk 0 only, without its INQUIRY: each
	 * disk is asked its INQUIRY and serial by pass-through, the others their
	 * capacity too. (Registering the controller opened it once before, to
	 * log its arrival; each load lists the LDs once, LD_GET_LIST.)
	 */
	ck_assert_uint_eq(mfi_shim_sent(0x02020000), 3 * mfi_shim_sent(0x03010000));
	ck_assert_uint_eq(mfi_shim_sent(0), 8 * mfi_shim_sent(0x03010000));
	ck_assert_str_eq(rcl_ctrl_drive(ctrl, 0)->link_speed, "1.5Gb/s");

	ck_assert_uint_eq(rcl_ctrl_vd_count(ctrl), 3);
	ck_assert_uint_eq(rcl_ctrl_dg_count(ctrl), 3);
	for (unsigned i = 0; i < 3; i++) {
		const struct rcl_vd *v = rcl_ctrl_vd(ctrl, i);

		ck_assert_uint_eq(v->id, i);
		ck_assert_uint_eq(v->dg, i);
		ck_assert_int_eq(v->level, RCL_RAID0);
		ck_assert_int_eq(v->state, RCL_VD_OPTIMAL);
		ck_assert_uint_eq(v->bytes, three[i].blocks * 512);
		ck_assert_uint_eq(v->strip_kib, 4);
		ck_assert_uint_eq(v->spans, 1);
		ck_assert_uint_eq(v->drives_per_span, 1);
		ck_assert(v->consistent);
		ck_assert_uint_eq(rcl_ctrl_dg(ctrl, i)->member_bytes, three[i].blocks * 512);
	}

	/* The node, made once for the driver's major, for root only. */
	ck_assert_uint_eq(mfi_shim_mknods(&dev, &mode), 1);
	ck_assert_uint_eq(dev, makedev(MAJOR_NOW, 0));
	ck_assert_uint_eq(mode, S_IFCHR | 0600);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	host_release(&h);
}
END_TEST

START_TEST(test_show_commands)
{
	struct host h;
	enum rcl_status st;
	char *out;

	host_init(&h, MAJOR_NOW);
	out = unit_run("/c0 show", false, &st);
	ck_assert_msg(st == RCL_OK, "%s", out);
	ck_assert_msg(strstr(out, "Product Name = LSI MegaRAID SAS 9260-8i"), "%s", out);
	ck_assert_msg(strstr(out, "Serial Number = QM00001"), "%s", out);
	ck_assert_msg(strstr(out, "1.80-QEMU"), "%s", out);
	ck_assert_msg(strstr(out, "FW Package Build = 2.5+-QEMU"), "%s", out);
	ck_assert_msg(strstr(out, "PCI Address = 00:00:05:00"), "%s", out);
	ck_assert_msg(strstr(out, "Vendor Id = 0x1000") && strstr(out, "SubDevice Id = 0x9261") &&
	                  strstr(out, "Device Number = 5"),
	              "%s", out);
	free(out);
	expect("/c0 show rebuildrate", false, RCL_OK, HAS("30%"));
	/* QEMU's card offers no patrol read rate: it has no patrol read to show. */
	expect("/c0 show patrolread", false, RCL_UNSUPPORTED,
	       HAS("not supported by this controller"));
	/* The card has rates but no schedules: show all has the rates' table. */
	expect("/c0 show all", true, RCL_OK, HAS("\"Policy\" : \"Rebuild Rate\""));
	expect("/c0/eall/sall show", false, RCL_OK, HAS("252:2", "Onln"));
	/* The card's 8 ports, not the 240 drives it takes; disk 0's group (ref 0) is DG 0. */
	expect("show", false, RCL_OK, HAS("  0 LSI MegaRAID SAS 9260-8i     8"));
	expect("/c0/d0 show", false, RCL_OK, HAS("252:0      0 DRIVE Onln"));
	expect("/c0/vall show", true, RCL_OK,
	       HAS("\"TYPE\" : \"RAID0\"", "\"State\" : \"Optl\"", "\"DG/VD\" : \"2/2\""));
	host_done(&h);
}
END_TEST

/* A node left from a boot where the driver had another major is made again; a right one is kept. */
START_TEST(test_node_follows_major)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl;
	struct rcl_error err = {0};
	dev_t dev;
	mode_t mode;

	host_init(&h, MAJOR_NOW);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	ck_assert_uint_eq(mfi_shim_mknods(&dev, &mode), 1);
	set_major(&h, 250);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	ck_assert_uint_eq(mfi_shim_mknods(&dev, &mode), 2);
	ck_assert_uint_eq(dev, makedev(250, 0));
	host_release(&h);
}
END_TEST

/* Without the driver: no controller, no node, and the other kinds as they were. */
START_TEST(test_no_driver)
{
	struct host h;
	struct rcl_ctx *ctx;
	const unsigned *ids;
	dev_t dev;
	mode_t mode;

	host_init(&h, -1);
	ctx = unit_ctx_new(getenv("RAIDCLI_STATE_DIR"));
	ck_assert_uint_eq(rcl_ctx_ctrl_ids(ctx, &ids), 0);
	unit_soft_create(ctx, 2, 64 << 20);
	rcl_ctx_free(ctx);
	ctx = unit_ctx_new(getenv("RAIDCLI_STATE_DIR"));
	ck_assert_uint_eq(rcl_ctx_ctrl_ids(ctx, &ids), 1);
	rcl_ctx_free(ctx);
	ck_assert_uint_eq(mfi_shim_mknods(&dev, &mode), 0);
	host_release(&h);
}
END_TEST

/* An adapter registered once and gone now: a clear refusal, not a crash. */
START_TEST(test_adapter_gone)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_init(&h, MAJOR_NOW);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	ck_assert_int_eq(unlink("sys/class/scsi_host/host2"), 0);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_NOT_FOUND);
	ck_assert_str_eq(err.msg, "controller /c0 (megaraid adapter 'pci-0000-00-05-0') is not "
	                          "present: the megaraid_sas driver does not drive it now");
	rcl_ctx_free(ctx);
	host_release(&h);
}
END_TEST

/* Not root: the node cannot be made, and the message says why and what is needed. */
START_TEST(test_not_root)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};
	char want[4200];

	host_init(&h, MAJOR_NOW);
	mfi_shim_deny_mknod(EPERM);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_SYSTEM);
	snprintf(want, sizeof(want),
	         "cannot create '%s/dev/megaraid_sas_ioctl_node' (character device 247:0): "
	         "Operation not permitted; the MFI ioctl needs root (CAP_SYS_ADMIN)",
	         h.root);
	ck_assert_str_eq(err.msg, want);
	ck_assert_uint_eq(mfi_shim_sent(0x01010000), 0);
	rcl_ctx_free(ctx);
	host_release(&h);
}
END_TEST

/* What the firmware refuses, by name, with raidcli's status for it. */
static const struct {
	uint32_t opcode;
	uint8_t status;
	enum rcl_status want;
	const char *detail;
} refusals[] = {
    {0x01010000, 0x32, RCL_NOT_ALLOWED, "WRONG_STATE (MFI status 0x32)"},
    {0x04010000, 0x02, RCL_UNSUPPORTED, "INVALID_DCMD (MFI status 0x02)"},
    {0x02010000, 0x01, RCL_UNSUPPORTED, "INVALID_CMD (MFI status 0x01)"},
    {0x04010000, 0x20, RCL_SYSTEM, "MEMORY_NOT_AVAILABLE (MFI status 0x20)"},
    {0x03010000, 0x03, RCL_INVALID_PARAM, "INVALID_PARAMETER (MFI status 0x03)"},
    {0x03020000, 0x0c, RCL_NOT_FOUND, "DEVICE_NOT_FOUND (MFI status 0x0c)"},
};

START_TEST(test_refusal)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_init(&h, MAJOR_NOW);
	mfi_shim_break(refusals[_i].opcode, MFI_SHIM_STATUS, refusals[_i].status);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), refusals[_i].want);
	ck_assert_str_eq(err.detail, refusals[_i].detail);
	ck_assert_msg(strstr(err.msg, "failed: the controller answered"), "%s", err.msg);
	ck_assert_ptr_null(mfi_shim_check());
	rcl_ctx_free(ctx);
	host_release(&h);
}
END_TEST

/*
 * QEMU's PD_GET_INFO finds no drive when no disk has SCSI id 0: every
 * drive is then asked by pass-through, and shown whole.
 */
START_TEST(test_no_disk_zero)
{
	/* Plugged in this order: QEMU lists them so, the model by slot. */
	static const struct mfi_shim_disk two[] = {{3, 8388608}, {1, 4194304}};
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};
	char *node;

	host_init(&h, MAJOR_NOW);
	node = unit_path(h.root, "dev/megaraid_sas_ioctl_node");
	mfi_shim_setup(node, 2, "QM00002", two, 2);
	free(node);
	ck_assert_msg(open_c0(&ctx, &ctrl, &err) == RCL_OK, "%s", err.msg);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 2);
	for (unsigned i = 0; i < 2; i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

		ck_assert_uint_eq(d->slot, two[1 - i].id);
		ck_assert_uint_eq(d->raw_bytes, two[1 - i].blocks * 512);
		ck_assert_int_eq(d->state, RCL_PD_ONLINE);
		ck_assert_str_eq(d->model, "QEMU HARDDISK");
	}
	ck_assert_uint_eq(rcl_ctrl_vd_by_id(ctrl, 3)->bytes, two[0].blocks * 512);
	ck_assert_ptr_null(mfi_shim_check());
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	host_release(&h);
}
END_TEST

/* A status never written back is not success. */
START_TEST(test_no_status)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_init(&h, MAJOR_NOW);
	mfi_shim_break(0x01010000, MFI_SHIM_SILENT, 0);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_SYSTEM);
	ck_assert_str_eq(err.msg, "reading the controller info (CTRL_GET_INFO) failed: the "
	                          "controller answered INVALID_STATUS (MFI status 0xff)");
	rcl_ctx_free(ctx);
	host_release(&h);
}
END_TEST

/* A list counting more entries than its reply holds is refused, not read past. */
START_TEST(test_bad_count)
{
	static const uint32_t lists[] = {0x02010000, 0x03010000};
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_init(&h, MAJOR_NOW);
	mfi_shim_break(lists[_i], MFI_SHIM_BAD_COUNT, 0);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_BAD_REPLY);
	ck_assert_msg(strstr(err.msg, "counts 1000 drives"), "%s", err.msg);
	rcl_ctx_free(ctx);
	host_release(&h);
}
END_TEST

/* QEMU's model keeps no log: its EVENT_GET writes nothing, so the card's log shows empty. */
START_TEST(test_events_qemu)
{
	struct host h;
	enum rcl_status st;
	char *out;

	host_init(&h, MAJOR_NOW);
	out = unit_run("/c0 show events", true, &st);
	ck_assert_msg(st == RCL_OK && !strstr(out, "seqNum"), "%s", out);
	free(out);
	expect("/c0 show eventloginfo", false, RCL_OK, HAS("Event count = 0"));
	ck_assert_uint_eq(mfi_shim_sent(0x01040100), 2);
	ck_assert_uint_eq(mfi_shim_sent(0x01040300), 2);
	host_done(&h);
}
END_TEST

/*
 * A real card's log, longer than one EVENT_GET (32 events): read whole,
 * oldest first, the firmware's codes, classes, locales and times; its
 * progress events left out; emptied by "delete events".
 */
START_TEST(test_events_card)
{
	static struct mfi_shim_event log[50];
	static char text[50][32];
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};
	struct rcl_event_list list = {0};

	for (unsigned i = 0; i < 50; i++) {
		snprintf(text[i], sizeof(text[i]), "Event %u happened\n", 100 + i);
		log[i] = (struct mfi_shim_event){.seq = 100 + i,
		                                 .time = 0x30000000u + i,
		                                 .code = 0x71 + i,
		                                 .locale = 0x02,
		                                 .class_ = (int8_t)((int)(i % 5) - 1),
		                                 .text = text[i]};
	}
	log[1].time = 0xff000010u; /* before the clock was set: seconds since boot */
	log[49].class_ = 4;        /* dead: raidcli's fatal */
	host_init(&h, MAJOR_NOW);
	mfi_shim_events(log, 50);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	ck_assert_msg(rcl_ctrl_events(ctrl, NULL, &list, &err) == RCL_OK, "%s", err.msg);
	/* Classes -1 0 1 2 3 -1 ...: every fifth a progress event, left out. */
	ck_assert_uint_eq(list.count, 40);
	ck_assert_uint_eq(list.events[0].seq, 101);
	ck_assert_int_eq(list.events[0].class_, RCL_EVENT_INFO);
	ck_assert_int_eq(list.events[1].class_, RCL_EVENT_WARNING);
	ck_assert_int_eq(list.events[3].class_, RCL_EVENT_FATAL);
	ck_assert_uint_eq(list.events[0].code, 0x72);
	ck_assert_uint_eq(list.events[0].locale, 0x02);
	ck_assert_int_eq(list.events[0].time, 0);
	ck_assert_int_eq(list.events[1].time, 946684800 + 0x30000002);
	ck_assert_str_eq(list.events[0].description, "Event 101 happened");
	ck_assert_uint_eq(list.events[list.count - 1].seq, 149);
	ck_assert_int_eq(list.events[list.count - 1].class_, RCL_EVENT_FATAL);
	rcl_event_list_release(&list);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	/* The first batch ends at 32 events, the second at the newest. */
	ck_assert_uint_eq(mfi_shim_sent(0x01040300), 2);

	expect("/c0 show events type=latest=1 filter=fatal", false, RCL_OK,
	       HAS("Code = 0x000000a2", "Event Description = Event 149 happened"));
	expect("/c0 show eventloginfo", false, RCL_OK,
	       HAS("Newest sequence number = 149", "Oldest sequence number = 101"));
	expect("/c0 delete events", false, RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_sent(0x01040200), 1);
	expect("/c0 show eventloginfo", false, RCL_OK, HAS("Event count = 0"));
	host_done(&h);
}
END_TEST

/* An event list counting more than its buffer holds, or a card without the DCMD: clear failures. */
START_TEST(test_events_bad)
{
	static const struct mfi_shim_event one[] = {{.seq = 5, .text = "Boot"}};
	struct host h;
	enum rcl_status st;
	char *out;

	host_init(&h, MAJOR_NOW);
	mfi_shim_events(one, 1);
	if (_i)
		mfi_shim_break(0x01040100, MFI_SHIM_STATUS, 0x02);
	else
		mfi_shim_break(0x01040300, MFI_SHIM_BAD_COUNT, 0);
	out = unit_run("/c0 show events", false, &st);
	ck_assert_int_eq(st, _i ? RCL_UNSUPPORTED : RCL_BAD_REPLY);
	ck_assert_msg(strstr(out, _i ? "CTRL_EVENT_GET_INFO) failed: the controller answered "
	                               "INVALID_DCMD"
	                             : "(CTRL_EVENT_GET) counts 1000 events in 8200 bytes"),
	              "%s", out);
	free(out);
	host_release(&h);
}
END_TEST

/*
 * A card with a patrol read (its adapter_ops offer the rate): its mode,
 * drives at once, interval, state, runs and next start, as the card says.
 * QEMU's card has none and is not asked (test_show_model's caps).
 */
START_TEST(test_patrol_read)
{
	static const struct mfi_shim_patrol pr = {.op_mode = 0,
	                                          .max_pd = 2,
	                                          .next_exec = 0x30000000u,
	                                          .exec_freq = 7 * 24 * 3600,
	                                          .iterations = 3,
	                                          .state = 2};
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};
	struct rcl_ctrl_settings s;
	struct rcl_schedule_status status;

	host_init(&h, MAJOR_NOW);
	mfi_shim_patrol(&pr);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	ck_assert(rcl_ctrl_caps(ctrl)->settings >> RCL_SETTING_PR_SCHEDULE & 1);
	ck_assert_int_eq(rcl_ctrl_settings_get(ctrl, &s, &err), RCL_OK);
	ck_assert_int_eq(s.pr_mode, RCL_PR_AUTO);
	ck_assert_uint_eq(s.pr_max_drives, 2);
	ck_assert_uint_eq(s.pr.delay, 168);
	ck_assert_int_eq(rcl_ctrl_schedule_status(ctrl, &status, &err), RCL_OK);
	ck_assert_int_eq(status.patrol.state, RCL_SCHEDULE_ACTIVE);
	ck_assert_uint_eq(status.patrol.iterations, 3);
	ck_assert_int_eq(status.patrol.next_start, 946684800 + 0x30000000);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	expect("/c0 show patrolread", false, RCL_OK, HAS("168 hours", "Active"));
	host_done(&h);
}
END_TEST

/* A firmware refusing the patrol read DCMDs as unknown keeps its rate alone; WRONG_STATE fails. */
START_TEST(test_patrol_refused)
{
	static const struct mfi_shim_patrol pr = {.op_mode = 1};
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_init(&h, MAJOR_NOW);
	mfi_shim_patrol(&pr);
	mfi_shim_break(0x01070100, MFI_SHIM_STATUS, _i ? 0x32 : 0x02);
	if (_i) {
		ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_NOT_ALLOWED);
		ck_assert_msg(strstr(err.msg, "(PR_GET_STATUS) failed"), "%s", err.msg);
	} else {
		ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
		ck_assert(rcl_ctrl_caps(ctrl)->settings >> RCL_SETTING_PR_RATE & 1);
		ck_assert(!(rcl_ctrl_caps(ctrl)->settings >> RCL_SETTING_PR_SCHEDULE & 1));
		rcl_ctrl_close(ctrl);
	}
	rcl_ctx_free(ctx);
	host_release(&h);
}
END_TEST

/* ------------------------------------------------------------------------
 * Changes: each one frame, checked byte for byte, and what the next
 * "show" reads back from the shim's configuration.
 */

#define CFG_ADD      0x04020000u
#define LD_DELETE    0x03090000u
#define MAKE_SPARE   0x04040000u
#define REMOVE_SPARE 0x04050000u
#define LOCATE_START 0x02070100u
#define LOCATE_STOP  0x02070200u
#define STATE_SET    0x02030100u
#define SET_PROPS    0x01020200u
#define LD_SET_PROP  0x03040000u
#define MISSING_MARK 0x02080100u
#define MISSING_REPL 0x02080200u

/* The frames that change something, of every kind. */
static const uint32_t changes[] = {CFG_ADD,      LD_DELETE,    MAKE_SPARE,  REMOVE_SPARE,
                                   LOCATE_START, LOCATE_STOP,  STATE_SET,   SET_PROPS,
                                   LD_SET_PROP,  MISSING_MARK, MISSING_REPL};

/* The CFG_ADD payload of RAID0 "db" over disks 1 and 2, strip 64 KiB, WB RA: built here by offset.
 */
static size_t expected_cfg_add(uint8_t *p)
{
	static const uint64_t blocks = 4194304;
	uint8_t *a = p + 32, *ld = p + 32 + 288;

	memset(p, 0, 576);
	unit_put_le(p, 576, 4);      /* size */
	unit_put_le(p + 4, 1, 2);    /* one array */
	unit_put_le(p + 6, 288, 2);  /* of 288 bytes */
	unit_put_le(p + 8, 1, 2);    /* one LD */
	unit_put_le(p + 10, 256, 2); /* of 256 bytes */
	unit_put_le(p + 14, 40, 2);  /* spares of 40 bytes, none */
	unit_put_le(a, blocks, 8);
	a[8] = 2;
	unit_put_le(a + 10, 1, 2); /* the first ref QEMU's array (0) does not use */
	memset(a + 32, 0xff, 32 * 8);
	for (unsigned r = 0; r < 2; r++) {
		uint8_t *pd = a + 32 + r * 8;

		unit_put_le(pd, (r + 1) << 8, 2); /* device id: the SCSI id, QEMU's */
		unit_put_le(pd + 2, 0, 2);
		unit_put_le(pd + 4, 0x18, 2); /* ONLINE */
		pd[6] = 0; /* enclosure index: QEMU's PD_GET_INFO is another drive's, mfiutil's 0 */
		pd[7] = (uint8_t)(r + 1); /* slot */
	}
	ld[0] = 1; /* target: the first free one (LD 0 is disk 0's) */
	memcpy(ld + 4, "db", 2);
	ld[20] = ld[23] = 0x01 | 0x04 | 0x20; /* write back, read ahead, writes cached */
	ld[32 + 3] = 7;                       /* 2^7 blocks: 64 KiB */
	ld[32 + 4] = 2;                       /* drives per span */
	ld[32 + 5] = 1;                       /* spans */
	ld[32 + 6] = 3;                       /* OPTIMAL */
	unit_put_le(ld + 64 + 8, blocks, 8);
	unit_put_le(ld + 64 + 16, 1, 2);
	return 576;
}

/* A VD made is one CFG_ADD, shown by the next read; deleting it is one LD_DELETE, and it is gone.
 */
START_TEST(test_create_delete_vd)
{
	struct host h;
	uint8_t mbox[12], got[1024], want[1024];
	size_t len;

	host_free_two(&h);
	run_expect("/c0/eall/sall show", RCL_OK, "UGood");
	run_expect("/c0 add vd r0 name=db drives=252:1-2", RCL_OK, NULL);
	ck_assert_ptr_null(mfi_shim_check());
	ck_assert_uint_eq(mfi_shim_sent(CFG_ADD), 1);
	len = mfi_shim_last(CFG_ADD, mbox, got, sizeof(got));
	ck_assert_uint_eq(len, expected_cfg_add(want));
	for (size_t i = 0; i < len; i++)
		ck_assert_msg(got[i] == want[i], "CFG_ADD byte %zu is 0x%02x, not 0x%02x", i,
		              got[i], want[i]);
	ck_assert_uint_eq(SENT(changes), 1);
	run_expect("/c0/v1 show", RCL_OK, "db");
	run_expect("/c0/v1 show", RCL_OK, "RAID0");
	/* Without force: refused, as raidcli cannot tell whether it holds data. */
	run_expect("/c0/v1 del", RCL_NEED_FORCE, "force");
	ck_assert_uint_eq(SENT(changes), 1);
	run_expect("/c0/v1 del force", RCL_OK, NULL);
	/* The LD's reference: target 1 and the sequence number the card gave it (LD_GET_INFO). */
	expect_mbox(LD_DELETE, (const uint8_t[]){1, 0, 0x41, 0}, 4);
	ck_assert_uint_eq(SENT(changes), 2);
	run_expect("/c0/v1 show", RCL_NOT_FOUND, NULL);
	run_expect("/c0/v0 show", RCL_OK, "RAID0");
	host_done(&h);
}
END_TEST

/* The little-endian integer of @width bytes at @p. */
static uint64_t le(const uint8_t *p, int width)
{
	uint64_t v = 0;

	while (width--)
		v = v << 8 | p[width];
	return v;
}

/*
 * A VD in a group's free space: CFG_ADD carrying the group's array as the
 * card has it (its own ref, its rows) and an LD whose span starts where
 * the first VD's ends. The array stays while a VD is on it.
 */
START_TEST(test_vd_in_free_space)
{
	struct host h;
	uint8_t mbox[12], got[1024], array[288];
	const uint8_t *ld = got + 32 + 288;

	host_free_two(&h);
	run_expect("/c0 add vd r0 name=a drives=252:1-2 size=1GB", RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_last(CFG_ADD, mbox, got, sizeof(got)), 576);
	memcpy(array, got + 32, sizeof(array));
	/* More than the free space (3 GiB): refused before any frame. */
	run_expect("/c0 add vd r0 drives=252:1-2 size=4GB", RCL_INVALID_PARAM, "free space");
	ck_assert_uint_eq(SENT(changes), 1);
	run_expect("/c0 add vd r0 name=b drives=252:1-2 size=512MB", RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_last(CFG_ADD, mbox, got, sizeof(got)), 576);
	ck_assert_uint_eq(le(got + 4, 2), 1);
	ck_assert_mem_eq(got + 32, array, sizeof(array)); /* the same array, ref 1 */
	ck_assert_uint_eq(ld[0], 2);
	ck_assert_mem_eq(ld + 4, "b", 2);
	ck_assert_uint_eq(le(ld + 64, 8), 1048576);    /* after VD 1's 512 MiB */
	ck_assert_uint_eq(le(ld + 64 + 8, 8), 524288); /* 256 MiB of each member */
	ck_assert_uint_eq(le(ld + 64 + 16, 2), 1);     /* on array 1 */
	run_expect("/c0/vall show", RCL_OK, "1/2   RAID0");
	run_expect("/c0/vall show", RCL_OK, "1/1   RAID0");
	run_expect("/c0/v1 del force", RCL_OK, NULL);
	run_expect("/c0/v2 show", RCL_OK, "512.000 MB");
	run_expect("/c0/e252/s1 show", RCL_OK, "Onln");
	ck_assert_uint_eq(SENT(changes), 3);
	host_done(&h);
}
END_TEST

/* The span CFG_ADD last gave its LD on the first array: start and blocks of each member. */
static void expect_span(uint64_t start, uint64_t blocks)
{
	uint8_t mbox[12], got[1024];
	const uint8_t *ld = got + 32 + 288;

	ck_assert_uint_eq(mfi_shim_last(CFG_ADD, mbox, got, sizeof(got)), 576);
	ck_assert_uint_eq(le(ld + 64, 8), start);
	ck_assert_uint_eq(le(ld + 64 + 8, 8), blocks);
}

/*
 * A deleted middle VD leaves a hole: shown as its own free extent, and a
 * new VD goes in the first extent that holds it (the hole), a larger one
 * past it. Blocks of each member: a 0-1M, b 1M-2M (deleted), c 2M-2.5M.
 */
START_TEST(test_vd_in_hole)
{
	struct host h;

	host_free_two(&h);
	run_expect("/c0 add vd r0 name=a drives=252:1-2 size=1GB", RCL_OK, NULL);
	run_expect("/c0 add vd r0 name=b drives=252:1-2 size=1GB", RCL_OK, NULL);
	run_expect("/c0 add vd r0 name=c drives=252:1-2 size=512MB", RCL_OK, NULL);
	run_expect("/c0/v2 del force", RCL_OK, NULL);
	run_expect("/c0/d1 show all", RCL_OK,
	           "FREE SPACE DETAILS :\n==================\n\n"
	           "-----------\nDG     Size\n-----------\n"
	           " 1 1.000 GB\n 1 1.500 GB\n-----------");
	run_expect("/c0 show freespace", RCL_OK, " 1 1.000 GB\n 1 1.500 GB\n");
	run_expect("/c0/d1 show", RCL_OK,
	           " 1   -   - -          - RAID0 Optl  N  4.000 GB dflt N  N   none Y");
	run_expect("/c0 add vd r0 name=d drives=252:1-2 size=768MB", RCL_OK, NULL);
	expect_span(1048576, 786432);
	run_expect("/c0 add vd r0 name=e drives=252:1-2 size=1GB", RCL_OK, NULL);
	expect_span(2621440, 1048576);
	/* All there is: the largest extent left (the end's 512 MB; the hole holds 256 MB). */
	run_expect("/c0 add vd r0 name=f drives=252:1-2", RCL_OK, NULL);
	expect_span(3670016, 524288);
	run_expect("/c0/d1 show all", RCL_OK, "-------------\n 1 256.000 MB\n-------------");
	ck_assert_uint_eq(SENT(changes), 7);
	ck_assert_ptr_null(mfi_shim_check());
	host_release(&h);
}
END_TEST

/* A global hot spare: made with CFG_MAKE_SPARE, shown as GHS, removed with CFG_REMOVE_SPARE. */
START_TEST(test_hotspare)
{
	static const uint8_t spare[8] = {0x00, 0x02}; /* device 0x200, global, no arrays */
	struct host h;
	uint8_t mbox[12], got[64];

	host_free_two(&h);
	run_expect("/c0/e252/s2 add hotsparedrive", RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_last(MAKE_SPARE, mbox, got, sizeof(got)), sizeof(spare));
	ck_assert_mem_eq(got, spare, sizeof(spare));
	ck_assert_mem_eq(mbox, (const uint8_t[12]){0}, 12);
	run_expect("/c0/e252/s2 show", RCL_OK, "252:2   512 GHS");
	run_expect("/c0/e252/s2 delete hotsparedrive", RCL_OK, NULL);
	expect_mbox(REMOVE_SPARE, (const uint8_t[]){0x00, 0x02}, 2);
	run_expect("/c0/e252/s2 show", RCL_OK, "252:2   512 UGood");
	ck_assert_uint_eq(SENT(changes), 2);
	host_done(&h);
}
END_TEST

/* A VD's name and policies: its 32 property bytes read, changed, written back whole. */
START_TEST(test_set_vd)
{
	struct host h;
	uint8_t mbox[12], got[64], want[32] = {0};

	host_init(&h, MAJOR_NOW);
	run_expect("/c0/v1 set name=logs", RCL_OK, NULL);
	run_expect("/c0/v1 set wrcache=awb", RCL_OK, NULL);
	want[0] = 1;                   /* target */
	memcpy(want + 4, "logs", 4);   /* name */
	want[20] = 0x01 | 0x10 | 0x20; /* write back always, writes cached, on QEMU's (none) */
	ck_assert_uint_eq(mfi_shim_last(LD_SET_PROP, mbox, got, sizeof(got)), sizeof(want));
	ck_assert_mem_eq(got, want, sizeof(want));
	/* The LD's reference as LD_GET_PROP gave it: target 1, QEMU's sequence number 0. */
	ck_assert_mem_eq(mbox, ((const uint8_t[12]){1}), 12);
	run_expect("/c0/v1 show", RCL_OK, "logs");
	run_expect("/c0/v1 show", RCL_OK, "AWB");
	ck_assert_uint_eq(SENT(changes), 2);
	mfi_shim_break(LD_SET_PROP, MFI_SHIM_STATUS, 0x03);
	run_expect("/c0/v1 set name=other", RCL_INVALID_PARAM, "INVALID_PARAMETER");
	run_expect("/c0/v1 show", RCL_OK, "logs");
	host_done(&h);
}
END_TEST

/* A VD's spares= are dedicated hot spares of its new arrays: CFG_ADD, then CFG_MAKE_SPARE. */
START_TEST(test_create_with_spare)
{
	/* Device 0x200, dedicated, one array: ref 1, the new VD's. */
	static const uint8_t spare[10] = {0x00, 0x02, 0x00, 0x00, 0x01,
	                                  0x00, 0x00, 0x01, 0x01, 0x00};
	struct host h;
	uint8_t mbox[12], got[64];

	host_free_two(&h);
	run_expect("/c0 add vd r0 drives=252:1 spares=252:2", RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_sent(CFG_ADD), 1);
	ck_assert_uint_eq(mfi_shim_last(MAKE_SPARE, mbox, got, sizeof(got)), sizeof(spare));
	ck_assert_mem_eq(got, spare, sizeof(spare));
	ck_assert_uint_eq(SENT(changes), 2);
	run_expect("/c0/e252/s2 show", RCL_OK, "252:2   512 DHS");
	host_done(&h);
}
END_TEST

/* The locate LED: PD_LOCATE_START and STOP, the device id in the mailbox. */
START_TEST(test_locate)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	run_expect("/c0/e252/s1 start locate", RCL_OK, NULL);
	expect_mbox(LOCATE_START, (const uint8_t[]){0x00, 0x01}, 2);
	run_expect("/c0/e252/s1 stop locate", RCL_OK, NULL);
	expect_mbox(LOCATE_STOP, (const uint8_t[]){0x00, 0x01}, 2);
	ck_assert_uint_eq(SENT(changes), 2);
	host_done(&h);
}
END_TEST

/* A member the firmware took offline goes online with PD_STATE_SET: id, sequence 0, ONLINE. */
START_TEST(test_drive_state)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_set_state(1, 0x10);
	run_expect("/c0/e252/s1 show", RCL_OK, "Offln");
	run_expect("/c0/e252/s1 set online", RCL_OK, NULL);
	expect_mbox(STATE_SET, (const uint8_t[]){0x00, 0x01, 0x00, 0x00, 0x18, 0x00}, 6);
	run_expect("/c0/e252/s1 show", RCL_OK, "Onln");
	ck_assert_uint_eq(SENT(changes), 1);
	/* The firmware's refusal, named, the state kept. */
	mfi_shim_set_state(1, 0x10);
	mfi_shim_break(STATE_SET, MFI_SHIM_STATUS, 0x32);
	run_expect("/c0/e252/s1 set online", RCL_NOT_ALLOWED, "WRONG_STATE");
	run_expect("/c0/e252/s1 show", RCL_OK, "Offln");
	host_done(&h);
}
END_TEST

/* A rate: the properties read, that one byte changed, written back whole; another kept. */
START_TEST(test_rates)
{
	static const struct mfi_shim_patrol pr = {.exec_freq = 86400};
	struct host h;
	uint8_t mbox[12], got[128], want[64] = {0};

	host_init(&h, MAJOR_NOW);
	run_expect("/c0 set rebuildrate=45", RCL_OK, NULL);
	want[8] = 45;                                  /* rebuild */
	want[9] = want[10] = want[11] = want[12] = 30; /* patrol read, BGI, CC, reconstruction */
	want[32 + 1] = 0x20;                           /* JBOD, kept */
	ck_assert_uint_eq(mfi_shim_last(SET_PROPS, mbox, got, sizeof(got)), sizeof(want));
	ck_assert_mem_eq(got, want, sizeof(want));
	ck_assert_mem_eq(mbox, (const uint8_t[12]){0}, 12);
	run_expect("/c0 show rebuildrate", RCL_OK, "45%");
	/* The emulated card takes no CC rate (adapter_ops): refused before any frame. */
	run_expect("/c0 set ccrate=40", RCL_UNSUPPORTED, NULL);
	ck_assert_uint_eq(SENT(changes), 1);
	/* The patrol read's schedule has a DCMD of its own: the properties are not written. */
	mfi_shim_patrol(&pr);
	run_expect("/c0 set patrolread delay=12", RCL_OK, "PR Execution Delay");
	ck_assert_uint_eq(SENT(changes), 1);
	ck_assert_uint_eq(mfi_shim_sent(0x01070300), 1); /* PR_SET_PROPERTIES */
	host_done(&h);
}
END_TEST

/*
 * The properties as the shim's card keeps them, with disable_auto_rebuild
 * @no_rebuild and the on/off word's second byte @onoff1.
 */
static void expect_props(uint8_t no_rebuild, uint8_t onoff1)
{
	uint8_t mbox[12], got[128], want[64] = {0};

	want[8] = want[9] = want[10] = want[11] = want[12] = 30; /* the rates, kept */
	want[19] = no_rebuild;
	want[32 + 1] = onoff1;
	ck_assert_uint_eq(mfi_shim_last(SET_PROPS, mbox, got, sizeof(got)), sizeof(want));
	ck_assert_mem_eq(got, want, sizeof(want));
	ck_assert_mem_eq(mbox, (const uint8_t[12]){0}, 12);
}

/*
 * An on/off setting the properties hold: each set writes the record back
 * with only its bit or byte changed (expect_props() of @props_off after
 * @off, of @props_on after @on), @show telling it.
 */
static const struct switch_prop {
	const char *off, *on, *show;
	bool jbod_support; /* the card must report JBOD support first */
	uint8_t props_off[2], props_on[2];
} switches[] = {
    /* jbod=: the enableJBOD bit (on/off word bit 13). */
    {"/c0 set jbod=off", "/c0 set jbod=on", "/c0 show jbod", true, {0, 0x00}, {0, 0x20}},
    /* autorebuild=: the disable_auto_rebuild byte, inverted. */
    {"/c0 set autorebuild=off",
     "/c0 set autorebuild=on",
     "/c0 show autorebuild",
     false,
     {1, 0x20},
     {0, 0x20}},
};

START_TEST(test_switch)
{
	const struct switch_prop *sw = &switches[_i];
	struct host h;

	host_init(&h, MAJOR_NOW);
	if (sw->jbod_support)
		mfi_shim_jbod(true, true);
	run_expect(sw->show, RCL_OK, "ON");
	run_expect(sw->off, RCL_OK, "OFF");
	expect_props(sw->props_off[0], sw->props_off[1]);
	run_expect(sw->show, RCL_OK, "OFF");
	run_expect(sw->on, RCL_OK, "ON");
	expect_props(sw->props_on[0], sw->props_on[1]);
	run_expect(sw->show, RCL_OK, "ON");
	ck_assert_uint_eq(SENT(changes), 2);
	host_done(&h);
}
END_TEST

/* A card reporting no JBOD support, and none enabled: refused before any frame. */
START_TEST(test_jbod_unsupported)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_jbod(false, false);
	run_expect("/c0 set jbod=on", RCL_UNSUPPORTED, "JBOD");
	ck_assert_uint_eq(SENT(changes), 0);
	host_done(&h);
}
END_TEST

/* The firmware's refusal of a property change: named, and the setting as it was. */
START_TEST(test_props_refused)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	for (size_t i = 0; i < sizeof(switches) / sizeof(switches[0]); i++)
		expect_refused(&(const struct refused_change){SET_PROPS, switches[i].off,
		                                              "setting the controller properties "
		                                              "(CTRL_SET_PROPS) failed",
		                                              switches[i].show, "ON"},
		               &fw_refusals[_i]);
	host_done(&h);
}
END_TEST

/* Bad input: a clear message, a failing status, and no changing frame sent. */
static const struct {
	const char *line;
	enum rcl_status want;
	const char *says;
} bad_inputs[] = {
    {"/c5 add vd r0 drives=252:1-2", RCL_NOT_FOUND, "/c5"},
    {"/c0 add vd r0 drives=252:7", RCL_NOT_FOUND, "252:7"},
    {"/c0 add vd r1 drives=252:1-2", RCL_UNSUPPORTED, "RAID1"},
    {"/c0 add vd r0 name=abcdefghijklmnop drives=252:1-2", RCL_INVALID_PARAM, "name"},
    {"/c0/e252/s7 add hotsparedrive", RCL_NOT_FOUND, "/c0/e252/s7"},
    {"/c0/e252/s0 add hotsparedrive", RCL_NOT_ALLOWED, NULL},
    {"/c0/v9 del", RCL_NOT_FOUND, "v9"},
    {"/c0/e252/s1 set online", RCL_NOT_ALLOWED, NULL},
    {"/c0/e252/s7 set offline", RCL_NOT_FOUND, "/c0/e252/s7"},
};

START_TEST(test_bad_input)
{
	struct host h;

	host_free_two(&h);
	run_expect(bad_inputs[_i].line, bad_inputs[_i].want, bad_inputs[_i].says);
	ck_assert_uint_eq(SENT(changes), 0);
	host_done(&h);
}
END_TEST

/*
 * A MegaRAID card reads as one for StorCLI's consumers from its
 * registration (storclicompat=megaraid_sas); off is kept once set.
 */
START_TEST(test_compat_default)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	run_expect("/c0 show", RCL_OK, "StorCLI Compatibility = megaraid_sas");
	run_expect("/c0 set storclicompat=off", RCL_OK, NULL);
	run_expect("/c0 show", RCL_OK, "StorCLI Compatibility = off");
	run_expect("/c0 set storclicompat=megaraid_sas", RCL_OK, NULL);
	run_expect("/c0 show", RCL_OK, "StorCLI Compatibility = megaraid_sas");
	host_release(&h);
}
END_TEST

/*
 * Every drive or LD a change names carries the sequence number the card
 * gives it now (PD_GET_INFO, LD_GET_INFO), as FreeBSD's mfiutil sends
 * them; the card refuses another one.
 */
START_TEST(test_sequence_numbers)
{
	static const uint8_t spare[8] = {0x00, 0x02, 0x34, 0x12}; /* device 0x200, seq 0x1234 */
	struct host h;
	uint8_t mbox[12], got[1024];

	host_free_two(&h);
	mfi_shim_pd_seq(1, 0x0007);
	mfi_shim_pd_seq(2, 0x1234);
	run_expect("/c0 add vd r0 drives=252:1", RCL_OK, NULL);
	ck_assert_uint_gt(mfi_shim_last(CFG_ADD, mbox, got, sizeof(got)), 32 + 288);
	ck_assert_mem_eq(got + 32 + 32, ((const uint8_t[]){0x00, 0x01, 0x07, 0x00}), 4);
	run_expect("/c0/e252/s2 add hotsparedrive", RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_last(MAKE_SPARE, mbox, got, sizeof(got)), sizeof(spare));
	ck_assert_mem_eq(got, spare, sizeof(spare));
	run_expect("/c0/e252/s2 delete hotsparedrive", RCL_OK, NULL);
	expect_mbox(REMOVE_SPARE, (const uint8_t[]){0x00, 0x02, 0x34, 0x12}, 4);
	run_expect("/c0/v1 del force", RCL_OK, NULL);
	expect_mbox(LD_DELETE, (const uint8_t[]){1, 0, 0x41, 0}, 4);
	ck_assert_uint_eq(SENT(changes), 4);
	/* A number gone stale between the read and the change: the card's refusal, named. */
	mfi_shim_break(STATE_SET, MFI_SHIM_STATUS, 0x04);
	run_expect("/c0/e252/s2 set jbod", RCL_SYSTEM, "INVALID_SEQUENCE_NUMBER");
	host_done(&h);
}
END_TEST

/* A dedicated hot spare of existing groups: CFG_MAKE_SPARE naming each group's arrays. */
START_TEST(test_dedicated_spare)
{
	/* Device 0x200, dedicated, two arrays: 0 (disk 0's, QEMU's) and 1 (the new VD's). */
	static const uint8_t spare[12] = {0x00, 0x02, 0x00, 0x00, 0x01, 0x00,
	                                  0x00, 0x02, 0x00, 0x00, 0x01, 0x00};
	struct host h;
	uint8_t mbox[12], got[64];

	host_free_two(&h);
	run_expect("/c0 add vd r0 drives=252:1", RCL_OK, NULL);
	run_expect("/c0/e252/s2 add hotsparedrive dgs=0,1", RCL_OK, NULL);
	ck_assert_uint_eq(mfi_shim_last(MAKE_SPARE, mbox, got, sizeof(got)), sizeof(spare));
	ck_assert_mem_eq(got, spare, sizeof(spare));
	ck_assert_mem_eq(mbox, (const uint8_t[12]){0}, 12);
	run_expect("/c0/e252/s2 show", RCL_OK, "252:2   512 DHS");
	run_expect("/c0/e252/s2 delete hotsparedrive", RCL_OK, NULL);
	expect_mbox(REMOVE_SPARE, (const uint8_t[]){0x00, 0x02}, 2);
	run_expect("/c0/e252/s2 show", RCL_OK, "252:2   512 UGood");
	/* A group that does not exist: refused before any frame. */
	run_expect("/c0/e252/s2 add hotsparedrive dgs=7", RCL_NOT_FOUND, NULL);
	ck_assert_uint_eq(SENT(changes), 3);
	host_done(&h);
}
END_TEST

/*
 * An offline member marked missing: PD_MISSING_MARK with its reference;
 * its row empty, the drive unconfigured good. An online one is refused
 * before any frame, the card's own refusal named.
 */
START_TEST(test_missing)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_pd_seq(1, 0x0009);
	run_expect("/c0/e252/s1 set missing", RCL_NOT_ALLOWED, NULL);
	ck_assert_uint_eq(SENT(changes), 0);
	mfi_shim_set_state(1, 0x10);
	run_expect("/c0/e252/s1 set missing", RCL_OK, NULL);
	expect_mbox(MISSING_MARK, (const uint8_t[]){0x00, 0x01, 0x09, 0x00}, 4);
	run_expect("/c0/e252/s1 show", RCL_OK, "UGood");
	ck_assert_uint_eq(SENT(changes), 1);
	mfi_shim_set_state(2, 0x10);
	mfi_shim_break(MISSING_MARK, MFI_SHIM_STATUS, 0x32);
	run_expect("/c0/e252/s2 set missing", RCL_NOT_ALLOWED, "WRONG_STATE");
	run_expect("/c0/e252/s2 show", RCL_OK, "Offln");
	host_done(&h);
}
END_TEST

/*
 * insert: a free drive into its group's missing row, one PD_MISSING_REPLACE
 * (its reference, the array's ref, the row), and it is back offline; a
 * row that holds a drive, one the group lacks or a drive in use refused
 * before any frame; the card's own refusal told.
 */
START_TEST(test_insert)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_pd_seq(1, 0x0009);
	mfi_shim_set_state(1, 0x10);
	run_expect("/c0/e252/s1 set missing", RCL_OK, NULL);
	run_expect("/c0/e252/s1 insert dg=0 array=0 row=0", RCL_NOT_ALLOWED,
	           "holds drive /c0/e252/s0");
	run_expect("/c0/e252/s1 insert dg=1 array=1 row=0", RCL_INVALID_PARAM, "arrays 0-0");
	run_expect("/c0/e252/s2 insert dg=1 array=0 row=0", RCL_NOT_ALLOWED, "unconfigured good");
	run_expect("/c0/e252/s1 insert dg=7 array=0 row=0", RCL_NOT_FOUND, "/c0/d7");
	ck_assert_uint_eq(SENT(changes), 1);
	run_expect("/c0/e252/s1 insert dg=1 array=0 row=0", RCL_OK, "Insert Drive Succeeded.");
	expect_mbox(MISSING_REPL, (const uint8_t[]){0x00, 0x01, 0x09, 0x00, 0x00, 0x01, 0x00}, 7);
	run_expect("/c0/e252/s1 show", RCL_OK, "Offln");
	run_expect("/c0/d1 show", RCL_OK, "252:1");
	run_expect("/c0/e252/s1 set missing", RCL_OK, NULL);
	mfi_shim_break(MISSING_REPL, MFI_SHIM_STATUS, 0x0a);
	run_expect("/c0/e252/s1 insert dg=1 array=0 row=0", RCL_SYSTEM, "ARRAY_ROW_NOT_EMPTY");
	run_expect("/c0/e252/s1 show", RCL_OK, "UGood");
	ck_assert_uint_eq(SENT(changes), 4);
	ck_assert_ptr_null(mfi_shim_check());
	host_release(&h);
}
END_TEST

/* A free drive made JBOD and back: PD_STATE_SET to SYSTEM (0x40), then UNCONFIGURED_GOOD. */
START_TEST(test_jbod_drive)
{
	struct host h;

	host_free_two(&h);
	mfi_shim_pd_seq(2, 0x0005);
	run_expect("/c0/e252/s2 set jbod", RCL_OK, NULL);
	expect_mbox(STATE_SET, (const uint8_t[]){0x00, 0x02, 0x05, 0x00, 0x40, 0x00}, 6);
	run_expect("/c0/e252/s2 show", RCL_OK, "JBOD");
	/* The host may use the disk, and raidcli does not look: only with force. */
	run_expect("/c0/e252/s2 set good", RCL_NEED_FORCE, "repeat with 'force'");
	run_expect("/c0/e252/s2 show", RCL_OK, "JBOD");
	run_expect("/c0/e252/s2 set good force", RCL_OK, NULL);
	expect_mbox(STATE_SET, (const uint8_t[]){0x00, 0x02, 0x05, 0x00, 0x00, 0x00}, 6);
	run_expect("/c0/e252/s2 show", RCL_OK, "UGood");
	/* A member is no JBOD candidate: refused before any frame. */
	run_expect("/c0/e252/s0 set jbod", RCL_NOT_ALLOWED, NULL);
	ck_assert_uint_eq(SENT(changes), 2);
	host_done(&h);
}
END_TEST

/* The firmware's refusal of a change: its name in Detailed Status, and nothing sent after it. */
START_TEST(test_change_refused)
{
	struct host h;

	host_free_two(&h);
	mfi_shim_break(CFG_ADD, MFI_SHIM_STATUS, fw_refusals[_i].status);
	run_expect("/c0 add vd r0 drives=252:1 spares=252:2", fw_refusals[_i].want,
	           fw_refusals[_i].name);
	ck_assert_uint_eq(mfi_shim_sent(CFG_ADD), 1);
	ck_assert_uint_eq(SENT(changes), 1); /* no spare made for a VD never made */
	run_expect("/c0/vall show", RCL_OK, NULL);
	run_expect("/c0/v1 show", RCL_NOT_FOUND, NULL);
	expect_refused(&(const struct refused_change){LD_DELETE, "/c0/v0 del force", NULL,
	                                              "/c0/v0 show", "RAID0"},
	               &fw_refusals[_i]);
	host_done(&h);
}
END_TEST

/* A card that reports its drives' temperature (PD_GET_INFO): shown; QEMU's 0 is "not reported". */
START_TEST(test_drive_temperature)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	expect("/c0/e252/s0 show all", false, RCL_OK, HAS("Drive Temperature = N/A"));
	mfi_shim_temperature(38);
	expect("/c0/e252/s0 show all", false, RCL_OK, HAS("Drive Temperature =  38C (100.40 F)"));
	host_done(&h);
}
END_TEST

/* A PD that is no disk (the backplane's SES processor) is no drive: not listed, not usable. */
START_TEST(test_ses_not_a_drive)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_init(&h, MAJOR_NOW);
	mfi_shim_ses();
	ck_assert_msg(open_c0(&ctx, &ctrl, &err) == RCL_OK, "%s", err.msg);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 3);
	for (unsigned i = 0; i < 3; i++)
		ck_assert_uint_eq(rcl_ctrl_drive(ctrl, i)->device_id, i << 8);
	ck_assert_uint_eq(rcl_ctrl_enclosure_count(ctrl), 1);
	ck_assert_uint_eq(rcl_ctrl_enclosure(ctrl, 0)->slots, 3);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	run_expect("/c0/e252/s8 show", RCL_NOT_FOUND, NULL);
	run_expect("/c0 add vd r0 drives=252:8", RCL_NOT_FOUND, NULL);
	host_done(&h);
}
END_TEST

/*
 * A card's firmware numbers its PDs by themselves, and a pass-through
 * names one by that id as target, LUN 0 (QEMU's: the id's two bytes).
 */
START_TEST(test_card_pass_through)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_free_two(&h);
	mfi_shim_card_ids();
	ck_assert_msg(open_c0(&ctx, &ctrl, &err) == RCL_OK, "%s", err.msg);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 3);
	for (unsigned i = 1; i < 3; i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

		ck_assert_uint_eq(d->device_id, i);
		ck_assert_int_eq(d->state, RCL_PD_UGOOD);
		ck_assert_str_eq(d->model, "QEMU HARDDISK");
		ck_assert_int_eq(d->serial[2], '0' + (int)i);
		ck_assert_uint_eq(d->raw_bytes, three[i].blocks * 512);
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	host_done(&h);
}
END_TEST

/* PD_GET_INFO refused: each drive still shows, asked by pass-through, and so does the card. */
START_TEST(test_drive_info_refused)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_init(&h, MAJOR_NOW);
	mfi_shim_break(0x02020000, MFI_SHIM_STATUS, fw_refusals[_i].status);
	ck_assert_msg(open_c0(&ctx, &ctrl, &err) == RCL_OK, "%s", err.msg);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 3);
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_str_eq(rcl_ctrl_drive(ctrl, i)->model, "QEMU HARDDISK");
		ck_assert_int_eq(rcl_ctrl_drive(ctrl, i)->state, RCL_PD_ONLINE);
	}
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	run_expect("/c0 show", RCL_OK, "QEMU HARDDISK");
	host_done(&h);
}
END_TEST

/*
 * A drive that fails its INQUIRY keeps what the list and the configuration
 * say, NA for the rest; one found by neither PD_GET_INFO nor pass-through
 * (DEVICE_NOT_FOUND) was pulled and is left out. The others show.
 */
START_TEST(test_drive_unanswering)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};
	const struct rcl_drive *d;
	bool gone = fw_refusals[_i].want == RCL_NOT_FOUND;

	host_init(&h, MAJOR_NOW);
	mfi_shim_scsi_refuse(1, fw_refusals[_i].status);
	ck_assert_msg(open_c0(&ctx, &ctrl, &err) == RCL_OK, "%s", err.msg);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), gone ? 2 : 3);
	d = rcl_ctrl_drive(ctrl, 1);
	ck_assert_uint_eq(d->slot, gone ? 2 : 1);
	ck_assert_str_eq(d->model, gone ? "QEMU HARDDISK" : "");
	ck_assert_int_eq(d->state, RCL_PD_ONLINE);
	ck_assert_int_eq(d->dg, gone ? 2 : 1);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	run_expect("/c0 show", RCL_OK, gone ? NULL : "252:1");
	run_expect("/c0/e252/s1 show", gone ? RCL_NOT_FOUND : RCL_OK, NULL);
	host_done(&h);
}
END_TEST

/* A drive pulled between PD_GET_LIST and PD_GET_INFO on a card: left out, the rest shown. */
START_TEST(test_drive_pulled)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};

	host_free_two(&h);
	mfi_shim_pd_seq(1, 3);
	mfi_shim_pull(1);
	ck_assert_msg(open_c0(&ctx, &ctrl, &err) == RCL_OK, "%s", err.msg);
	ck_assert_uint_eq(rcl_ctrl_drive_count(ctrl), 2);
	ck_assert_uint_eq(rcl_ctrl_drive(ctrl, 0)->slot, 0);
	ck_assert_uint_eq(rcl_ctrl_drive(ctrl, 1)->slot, 2);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	host_done(&h);
}
END_TEST

/* PD_GET_INFO's media type: an SSD shows as one (Med), a rotating drive and QEMU's as HDD. */
START_TEST(test_ssd_medium)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_pd_seq(1, 5);
	mfi_shim_pd_facts(1, 1, 0);
	mfi_shim_pd_seq(2, 5);
	expect("/c0/e252/s1 show", true, RCL_OK, HAS("\"Med\" : \"SSD\""));
	expect("/c0/e252/s1 show", false, RCL_OK, HAS(" SSD "));
	expect("/c0/e252/s2 show", true, RCL_OK, HAS("\"Med\" : \"HDD\""));
	expect("/c0/e252/s0 show", true, RCL_OK, HAS("\"Med\" : \"HDD\""));
	host_done(&h);
}
END_TEST

/* What the card tells of a drive's port and sequence numbers: shown, not NA. */
START_TEST(test_drive_port)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_pd_seq(1, 5);
	mfi_shim_pd_facts(1, 0, 42);
	expect("/c0/e252/s0 show all", true, RCL_OK,
	       HAS("\"Linkspeed\" : \"1.5Gb/s\"", "\"SAS address\" : \"0x5001a4a000000000\"",
	           "\"Sequence Number\" : 0"));
	expect("/c0/e252/s1 show all", true, RCL_OK,
	       HAS("\"SAS address\" : \"0x5001a4a000010000\"", "\"Sequence Number\" : 5",
	           "\"Last Predictive Failure Event Sequence Number\" : 42"));
	expect("/c0/e252/s1 show all", false, RCL_OK,
	       HAS(" 0x5001a4a000010000", "Sequence Number = 5"));
	host_done(&h);
}
END_TEST

/* Not root, and a node left from another major: replacing it fails, and says why. */
START_TEST(test_stale_node_not_root)
{
	struct host h;
	struct rcl_ctx *ctx;
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_error err = {0};
	char want[4200];

	host_init(&h, MAJOR_NOW);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_OK);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	set_major(&h, 250);
	mfi_shim_deny_unlink(EACCES);
	ck_assert_int_eq(open_c0(&ctx, &ctrl, &err), RCL_SYSTEM);
	snprintf(want, sizeof(want),
	         "cannot replace '%s/dev/megaraid_sas_ioctl_node': Permission denied; the MFI "
	         "ioctl needs root (CAP_SYS_ADMIN)",
	         h.root);
	ck_assert_str_eq(err.msg, want);
	rcl_ctx_free(ctx);
	host_done(&h);
}
END_TEST

/*
 * insert of a drive smaller than the group's members: disk 0 (1 GiB) into
 * the missing row of disk 1's group (2 GiB arrays) is refused before any
 * frame, as the soft kind refuses a spare too small, and the row stays
 * missing.
 */
START_TEST(test_insert_too_small)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	mfi_shim_unconfigure(0);
	mfi_shim_set_state(1, 0x10);
	run_expect("/c0/e252/s1 set missing", RCL_OK, NULL);
	run_expect("/c0/e252/s0 insert dg=0 array=0 row=0", RCL_DRIVE_TOO_SMALL,
	           "drive 252:0 is too small to replace a member of disk group 0");
	ck_assert_uint_eq(mfi_shim_sent(MISSING_REPL), 0);
	run_expect("/c0/e252/s0 show", RCL_OK, "UGood");
	run_expect("/c0/d0 show", RCL_OK, "Msng");
	host_done(&h);
}
END_TEST

/*
 * QEMU's card runs no patrol read (its adapter_ops lack the rate): what
 * needs one is refused with the one "not supported" answer, as a kind
 * without it is, though the megaraid kind's caps let the command in.
 */
START_TEST(test_no_patrol_read)
{
	struct host h;

	host_init(&h, MAJOR_NOW);
	run_expect("/c0 show patrolread", RCL_UNSUPPORTED,
	           "patrol read is not supported by this controller (megaraid)");
	run_expect("/c0 set patrolread delay=24", RCL_UNSUPPORTED,
	           "patrol read is not supported by this controller (megaraid)");
	run_expect("/c0 start patrolread", RCL_UNSUPPORTED,
	           "patrol read is not supported by this controller (megaraid)");
	host_done(&h);
}
END_TEST

/*
 * Opening the registry and completion (help) send the card nothing: only
 * the commands of /cx/bbu and /cx/cv ask it which backs its cache (their
 * answers: test-megaraid-hw's test_cachevault).
 */
START_TEST(test_registry_load_sends_nothing)
{
	struct host h;
	unsigned registered;
	char **words;
	size_t n;

	host_init(&h, MAJOR_NOW);
	/* Registering /c0 opens it once, to log that it came (rcl_event_record_created()). */
	rcl_ctx_free(unit_ctx_new(getenv("RAIDCLI_STATE_DIR")));
	registered = mfi_shim_sent(0x01010000); /* CTRL_GET_INFO */
	rcl_ctx_free(unit_ctx_new(getenv("RAIDCLI_STATE_DIR")));
	n = cli_complete("/c0 sh", &words); /* help reads the same cli_path_caps() */
	for (size_t i = 0; i < n; i++)
		rcl_free(words[i]);
	rcl_free(words);
	ck_assert_uint_eq(mfi_shim_sent(0x01010000), registered);
	run_expect("/c0/bbu show", RCL_OK, NULL);
	ck_assert_uint_gt(mfi_shim_sent(0x01010000), registered);
	host_done(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("megaraid");
	TCase *tc = tcase_create("show");

	tcase_add_test(tc, test_show_model);
	tcase_add_test(tc, test_show_commands);
	tcase_add_test(tc, test_compat_default);
	tcase_add_test(tc, test_node_follows_major);
	tcase_add_test(tc, test_no_driver);
	tcase_add_test(tc, test_adapter_gone);
	tcase_add_test(tc, test_not_root);
	tcase_add_loop_test(tc, test_refusal, 0, sizeof(refusals) / sizeof(refusals[0]));
	tcase_add_test(tc, test_no_disk_zero);
	tcase_add_test(tc, test_no_status);
	tcase_add_loop_test(tc, test_bad_count, 0, 2);
	tcase_add_test(tc, test_events_qemu);
	tcase_add_test(tc, test_events_card);
	tcase_add_loop_test(tc, test_events_bad, 0, 2);
	tcase_add_test(tc, test_patrol_read);
	tcase_add_test(tc, test_drive_temperature);
	tcase_add_loop_test(tc, test_patrol_refused, 0, 2);
	tcase_add_test(tc, test_no_patrol_read);
	tcase_add_test(tc, test_registry_load_sends_nothing);
	tcase_add_test(tc, test_ses_not_a_drive);
	tcase_add_test(tc, test_card_pass_through);
	tcase_add_loop_test(tc, test_drive_info_refused, 0, FW_REFUSALS);
	tcase_add_loop_test(tc, test_drive_unanswering, 0, FW_REFUSALS);
	tcase_add_test(tc, test_drive_pulled);
	tcase_add_test(tc, test_ssd_medium);
	tcase_add_test(tc, test_drive_port);
	tcase_add_test(tc, test_stale_node_not_root);
	suite_add_tcase(s, tc);
	tc = tcase_create("change");
	tcase_add_test(tc, test_create_delete_vd);
	tcase_add_test(tc, test_vd_in_free_space);
	tcase_add_test(tc, test_vd_in_hole);
	tcase_add_test(tc, test_hotspare);
	tcase_add_test(tc, test_create_with_spare);
	tcase_add_test(tc, test_set_vd);
	tcase_add_test(tc, test_locate);
	tcase_add_test(tc, test_drive_state);
	tcase_add_test(tc, test_sequence_numbers);
	tcase_add_test(tc, test_dedicated_spare);
	tcase_add_test(tc, test_jbod_drive);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_insert);
	tcase_add_test(tc, test_rates);
	tcase_add_loop_test(tc, test_switch, 0, sizeof(switches) / sizeof(switches[0]));
	tcase_add_test(tc, test_jbod_unsupported);
	tcase_add_loop_test(tc, test_props_refused, 0, 2); /* WRONG_STATE, INVALID_PARAMETER */
	tcase_add_loop_test(tc, test_bad_input, 0, sizeof(bad_inputs) / sizeof(bad_inputs[0]));
	tcase_add_loop_test(tc, test_change_refused, 0, FW_REFUSALS);
	tcase_add_test(tc, test_insert_too_small);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(suite());
}
