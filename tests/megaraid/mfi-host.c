// SPDX-License-Identifier: MIT
/*
 * mfi-host.c - the host the megaraid tests run on (mfi-host.h): a tree
 * under $RAIDCLI_TEST_MEGARAID_ROOT with one megaraid_sas adapter and one
 * other SCSI host, the shim playing the adapter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mfi-host.h"
#include "mfi-shim.h"

const struct mfi_shim_disk three[3] = {{0, 2097152}, {1, 4194304}, {2, 4194304}};

const struct refusal fw_refusals[FW_REFUSALS] = {
    {0x32, RCL_NOT_ALLOWED, "WRONG_STATE"},
    {0x03, RCL_INVALID_PARAM, "INVALID_PARAMETER"},
    {0x0c, RCL_NOT_FOUND, "DEVICE_NOT_FOUND"},
    {0x18, RCL_SYSTEM, "LD_INIT_IN_PROGRESS"},
};

static void mkdirs(const char *root, const char *rel)
{
	char path[4096];

	ck_assert_ptr_nonnull(root);
	mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	mkdir(path, 0755);
}

static void put_file(const char *root, const char *rel, const char *text)
{
	char *path = unit_path(root, rel);

	unit_write(path, text);
	free(path);
}

void set_major(const struct host *h, int major)
{
	char text[256];

	snprintf(text, sizeof(text),
	         "Character devices:\n  1 mem\n%3d megaraid_sas_ioctl\n\nBlock devices:\n  8 sd\n",
	         major);
	put_file(h->root, "proc/devices",
	         major < 0 ? "Character devices:\n  1 mem\n\nBlock devices:\n  8 sd\n" : text);
}

void host_init(struct host *h, int major)
{
	char *node;

	unit_state_enter(&h->st, "state");
	h->root = unit_path(h->st.root, "host");
	mkdirs(h->root, "proc");
	mkdirs(h->root, "dev");
	mkdirs(h->root, "sys/class/scsi_host");
	mkdirs(h->root, "sys/devices/pci0000:00/" PCI_FN "/host2/scsi_host/host2");
	mkdirs(h->root, "sys/devices/pci0000:00/0000:00:01.1/ata1/host0/scsi_host/host0");
	mkdirs(h->root, "sys/module/megaraid_sas");
	put_file(h->root, "sys/devices/pci0000:00/" PCI_FN "/host2/scsi_host/host2/proc_name",
	         "megaraid_sas\n");
	put_file(h->root,
	         "sys/devices/pci0000:00/0000:00:01.1/ata1/host0/scsi_host/host0/proc_name",
	         "ata_piix\n");
	put_file(h->root, "sys/module/megaraid_sas/version", "07.719.03.00-rc1\n");
	ck_assert_int_eq(chdir(h->root), 0);
	ck_assert_int_eq(symlink("../../devices/pci0000:00/" PCI_FN "/host2/scsi_host/host2",
	                         "sys/class/scsi_host/host2"),
	                 0);
	ck_assert_int_eq(symlink("../../devices/pci0000:00/0000:00:01.1/ata1/host0/scsi_host/host0",
	                         "sys/class/scsi_host/host0"),
	                 0);
	set_major(h, major);
	setenv("RAIDCLI_TEST_MEGARAID_ROOT", h->root, 1);
	node = unit_path(h->root, "dev/megaraid_sas_ioctl_node");
	mfi_shim_setup(node, 2, "QM00001", three, 3);
	free(node);
}

void host_utc(struct host *h)
{
	setenv("TZ", "UTC", 1);
	tzset();
	host_init(h, MAJOR_NOW);
}

void host_release(struct host *h)
{
	ck_assert_int_eq(chdir("/"), 0);
	unsetenv("RAIDCLI_TEST_MEGARAID_ROOT");
	unit_state_leave(&h->st);
	free(h->root);
}

/* Open the one controller; its status, @err filled on failure. */
void host_done(struct host *h)
{
	ck_assert_ptr_null(mfi_shim_check());
	host_release(h);
}

enum rcl_status open_c0(struct rcl_ctx **ctx, struct rcl_ctrl **ctrl, struct rcl_error *err)
{
	const unsigned *ids;

	*ctx = unit_ctx_new(getenv("RAIDCLI_STATE_DIR"));
	ck_assert_uint_eq(rcl_ctx_ctrl_ids(*ctx, &ids), 1);
	return rcl_ctrl_open(*ctx, ids[0], RCL_LOCK_SHARED, ctrl, err);
}

void expect(const char *line, bool json, enum rcl_status want, const char *const *has)
{
	enum rcl_status st;
	char *out = unit_run(line, json, &st);

	ck_assert_msg(st == want, "%s: status %d, not %d:\n%s", line, st, want, out);
	for (; has && *has; has++)
		ck_assert_msg(strstr(out, *has), "%s: no '%s' in:\n%s", line, *has, out);
	free(out);
}

void run_expect(const char *line, enum rcl_status want, const char *has)
{
	expect(line, false, want, has ? HAS(has) : NULL);
}

unsigned frames_sent(const uint32_t *ops, size_t n)
{
	unsigned sent = 0;

	for (size_t i = 0; i < n; i++)
		sent += mfi_shim_sent(ops[i]);
	return sent;
}

/* The mailbox of the last change @opcode: @want's first bytes, the rest zero. */
void expect_mbox(uint32_t opcode, const uint8_t *want, size_t n)
{
	uint8_t mbox[12], data[1];
	uint8_t full[12] = {0};

	if (n) /* memcpy() of NULL, even of 0 bytes, is undefined */
		memcpy(full, want, n);
	ck_assert_uint_eq(mfi_shim_last(opcode, mbox, data, sizeof(data)), 0);
	ck_assert_mem_eq(mbox, full, sizeof(full));
}

void expect_refused(const struct refused_change *c, const struct refusal *r)
{
	mfi_shim_break(c->opcode, MFI_SHIM_STATUS, r->status);
	expect(c->line, false, r->want, HAS(r->name, c->says));
	expect(c->line, true, r->want, HAS(r->name));
	if (c->show)
		expect(c->show, false, RCL_OK, HAS(c->still));
}

void expect_unwritten(const struct unwritten_read *u)
{
	unsigned sets = mfi_shim_sent(u->set);

	mfi_shim_break_after(u->get, u->loaded, MFI_SHIM_DUMMY, 0);
	expect(u->line, false, RCL_BAD_REPLY, HAS(u->get_name, "wrote no reply"));
	ck_assert_uint_eq(mfi_shim_sent(u->set), sets);
}

/* The host with disks 1 and 2 free (QEMU's LDs of them gone), disk 0 still LD 0. */
void host_free_two(struct host *h)
{
	host_init(h, MAJOR_NOW);
	mfi_shim_unconfigure(1);
	mfi_shim_unconfigure(2);
}
