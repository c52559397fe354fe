// SPDX-License-Identifier: MIT
/*
 * scan.c - the megaraid_sas driver's adapters and management node (scan.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "megaraid/mfi.h"
#include "megaraid/scan.h"

#define SCSI_HOSTS "/sys/class/scsi_host"

/* @path under the test root, when one is set, into @buf. */
static const char *host_path(char *buf, size_t size, const char *path)
{
	const char *root = getenv("RAIDCLI_TEST_MEGARAID_ROOT");

	snprintf(buf, size, "%s%s", root ? root : "", path);
	return buf;
}

/* The first line of file @path, trimmed, into @buf; false if it cannot be read. */
static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok = f && fgets(buf, (int)size, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* The driver's character device major from /proc/devices, or -1 without the driver. */
static int driver_major(void)
{
	char path[PATH_MAX], line[128], name[64];
	int major = -1, n;
	FILE *f = fopen(host_path(path, sizeof(path), "/proc/devices"), "re");

	if (!f)
		return -1;
	/* The "Character devices:" section comes first; block majors never carry this name. */
	while (major < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %63s", &n, name) == 2 && !strcmp(name, RCL_MFI_CHRDEV_NAME))
			major = n;
	fclose(f);
	return major;
}

/* Whether @s is a PCI address, "0000:03:00.0". */
static bool is_pci_address(const char *s)
{
	unsigned domain, bus, dev, fn;
	int end = 0;

	return sscanf(s, "%4x:%2x:%2x.%1x%n", &domain, &bus, &dev, &fn, &end) == 4 &&
	       s[end] == '\0' && end == 12;
}

bool rcl_mfi_pci_address(unsigned host_no, char *out, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX], *component, *save = NULL;
	char rel[64];
	bool found = false;

	snprintf(rel, sizeof(rel), SCSI_HOSTS "/host%u", host_no);
	if (!realpath(host_path(link, sizeof(link), rel), target))
		return false;
	/* The last PCI address in the device path: the adapter's own function. */
	for (component = strtok_r(target, "/", &save); component;
	     component = strtok_r(NULL, "/", &save))
		if (is_pci_address(component)) {
			snprintf(out, size, "%s", component);
			found = true;
		}
	return found;
}

/* Host @host_no's key: the PCI function it hangs off in sysfs, else "host<N>". */
static void adapter_key(unsigned host_no, char *key)
{
	char pci[16];

	if (!rcl_mfi_pci_address(host_no, pci, sizeof(pci))) {
		snprintf(key, RCL_KEY_SIZE, "host%u", host_no);
		return;
	}
	snprintf(key, RCL_KEY_SIZE, "pci-%s", pci);
	/* Keys name lock files: "pci-0000-03-00-0". */
	for (char *p = key; *p; p++)
		if (*p == ':' || *p == '.')
			*p = '-';
}

static int by_host(const void *a, const void *b)
{
	const struct rcl_mfi_adapter *x = a, *y = b;

	return (x->host_no > y->host_no) - (x->host_no < y->host_no);
}

enum rcl_status rcl_mfi_adapters(struct rcl_mfi_adapter *out, size_t max, size_t *count,
                                 struct rcl_error *err)
{
	char path[PATH_MAX], name[64];
	struct dirent *e;
	unsigned host_no;
	DIR *d;

	(void)err;
	*count = 0;
	if (driver_major() < 0)
		return RCL_OK;
	d = opendir(host_path(path, sizeof(path), SCSI_HOSTS));
	if (!d)
		return RCL_OK;
	while ((e = readdir(d)) && *count < max) {
		char rel[sizeof(e->d_name) + 64];

		if (sscanf(e->d_name, "host%u", &host_no) != 1)
			continue;
		snprintf(rel, sizeof(rel), SCSI_HOSTS "/%s/proc_name", e->d_name);
		if (!read_line(host_path(path, sizeof(path), rel), name, sizeof(name)) ||
		    strcmp(name, RCL_MFI_PROC_NAME))
			continue;
		out[*count].host_no = host_no;
		adapter_key(host_no, out[*count].key);
		(*count)++;
	}
	closedir(d);
	qsort(out, *count, sizeof(*out), by_host);
	return RCL_OK;
}

/*
 * What a failure with @errnum adds to its message: a user who is not root
 * can neither make nor replace the node, nor open it (the driver wants
 * CAP_SYS_ADMIN).
 */
static const char *root_hint(int errnum)
{
	return errnum == EACCES || errnum == EPERM ? "; the MFI ioctl needs root (CAP_SYS_ADMIN)"
	                                           : "";
}

/* Make the node at @path for @major, replacing whatever is there with another number. */
static enum rcl_status make_node(const char *path, int major, struct rcl_error *err)
{
	dev_t dev = makedev((unsigned)major, 0);
	struct stat st;

	if (!stat(path, &st) && S_ISCHR(st.st_mode) && st.st_rdev == dev)
		return RCL_OK;
	/* A node left from a boot where the driver had another major reaches another device. */
	if (unlink(path) && errno != ENOENT)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot replace '%s': %s%s", path,
		                      strerror(errno), root_hint(errno));
	if (mknod(path, S_IFCHR | 0600, dev))
		return rcl_fail_errno(err, RCL_SYSTEM, errno,
		                      "cannot create '%s' (character device %d:0): %s%s", path,
		                      major, strerror(errno), root_hint(errno));
	return RCL_OK;
}

enum rcl_status rcl_mfi_open(int *fd, struct rcl_error *err)
{
	int major = driver_major();
	char path[PATH_MAX];
	enum rcl_status st;

	if (major < 0)
		return rcl_fail(
		    err, RCL_NOT_FOUND,
		    "the megaraid_sas driver is not loaded ('%s' is not in /proc/devices)",
		    RCL_MFI_CHRDEV_NAME);
	host_path(path, sizeof(path), RCL_MFI_NODE);
	st = make_node(path, major, err);
	if (st)
		return st;
	*fd = open(path, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot open '%s': %s%s", path,
		                      strerror(errno), root_hint(errno));
	return RCL_OK;
}

void rcl_mfi_driver_version(char *buf, size_t size)
{
	char path[PATH_MAX];

	if (!read_line(host_path(path, sizeof(path), "/sys/module/megaraid_sas/version"), buf,
	               size))
		buf[0] = '\0';
}
