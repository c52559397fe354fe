// SPDX-License-Identifier: MIT
/*
 * scan.c - the host's NVMe controllers and their namespaces, as libnvme's
 * topology scan finds them in sysfs, and what uses each namespace.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "nvme/nvme.h"

#define SYSFS_NVME "/sys/class/nvme"

bool rcl_nvme_present(void)
{
	DIR *d = opendir(SYSFS_NVME);
	struct dirent *de;
	bool found = false;

	while (d && !found && (de = readdir(d)))
		found = !strncmp(de->d_name, "nvme", 4);
	if (d)
		closedir(d);
	return found;
}

/* Copy @src (NULL: "") into @dst of @size bytes without its surrounding blanks. */
static void copy_trimmed(char *dst, size_t size, const char *src)
{
	size_t len;

	src = src ? src : "";
	while (isspace((unsigned char)*src))
		src++;
	len = strlen(src);
	while (len && isspace((unsigned char)src[len - 1]))
		len--;
	snprintf(dst, size, "%.*s", (int)len, src);
}

/* Controller attribute @attr of @c, trimmed, into @dst ("" when sysfs has none). */
static void ctrl_attr(nvme_ctrl_t c, const char *attr, char *dst, size_t size)
{
	char *value = nvme_get_ctrl_attr(c, attr);

	copy_trimmed(dst, size, value);
	free(value); /* libnvme's allocation */
}

/* "8.0GT/s x4" from sysfs's "8.0 GT/s PCIe" and "4" (prefix "current" or "max"). */
static void link_of(nvme_ctrl_t c, const char *prefix, char *dst, size_t size)
{
	char attr[64], speed[16], width[4], *p;

	snprintf(attr, sizeof(attr), "device/%s_link_speed", prefix);
	ctrl_attr(c, attr, speed, sizeof(speed));
	snprintf(attr, sizeof(attr), "device/%s_link_width", prefix);
	ctrl_attr(c, attr, width, sizeof(width));
	if ((p = strstr(speed, " PCIe")))
		*p = '\0';
	if ((p = strstr(speed, " GT/s")))
		memmove(p, p + 1, strlen(p));
	*dst = '\0';
	/* A device on a bus without a PCIe link says "Unknown" or nothing. */
	if (isdigit((unsigned char)speed[0]))
		snprintf(dst, size, "%s x%s", speed, width);
}

static int cmp_ns(const void *a, const void *b)
{
	const struct rcl_nvme_ns *x = a, *y = b;

	return (x->nsid > y->nsid) - (x->nsid < y->nsid);
}

/* @len bytes of @id as uppercase hex into @out (2 * @len + 1); false if all are zero. */
static bool hex_id(const uint8_t *id, size_t len, char *out)
{
	bool set = false;

	for (size_t i = 0; i < len; i++) {
		sprintf(out + 2 * i, "%02X", id[i]);
		set = set || id[i];
	}
	return set;
}

/* The namespace's name (struct rcl_nvme_ns): EUI-64, else NGUID, else none. */
static void ns_wwn(nvme_ns_t n, struct rcl_nvme_ns *ns)
{
	if (!hex_id(nvme_ns_get_eui64(n), 8, ns->wwn) && !hex_id(nvme_ns_get_nguid(n), 16, ns->wwn))
		ns->wwn[0] = '\0';
}

/* Add namespace @n to @dev unless it is there (a private one and a path to it). */
static bool add_ns(struct rcl_nvme_dev *dev, nvme_ns_t n)
{
	struct rcl_nvme_ns *ns;

	for (size_t i = 0; i < dev->ns_count; i++)
		if (dev->ns[i].nsid == (unsigned)nvme_ns_get_nsid(n))
			return true;
	ns = rcl_realloc(dev->ns, (dev->ns_count + 1) * sizeof(*ns));
	if (!ns)
		return false;
	dev->ns = ns;
	ns = &dev->ns[dev->ns_count++];
	memset(ns, 0, sizeof(*ns));
	ns->nsid = (unsigned)nvme_ns_get_nsid(n);
	copy_trimmed(ns->name, sizeof(ns->name), nvme_ns_get_name(n));
	ns->lba_count = nvme_ns_get_lba_count(n);
	ns->lba_size = (unsigned)nvme_ns_get_lba_size(n);
	ns->meta_size = (unsigned)nvme_ns_get_meta_size(n);
	ns_wwn(n, ns);
	rcl_nvme_ns_in_use(ns->name, ns->in_use, sizeof(ns->in_use));
	return true;
}

/*
 * Fill @dev from controller @c. Its namespaces are its own (no multipath)
 * or reached through its paths (the kernel's multipath heads, nvme0n1
 * over nvme0c0n1), which is how Debian's kernel shows every namespace.
 */
static bool fill_dev(struct rcl_nvme_dev *dev, nvme_ctrl_t c)
{
	char cntlid[16];
	nvme_path_t p;
	nvme_ns_t n;
	bool ok = true;

	memset(dev, 0, sizeof(*dev));
	copy_trimmed(dev->name, sizeof(dev->name), nvme_ctrl_get_name(c));
	copy_trimmed(dev->serial, sizeof(dev->serial), nvme_ctrl_get_serial(c));
	copy_trimmed(dev->model, sizeof(dev->model), nvme_ctrl_get_model(c));
	copy_trimmed(dev->firmware, sizeof(dev->firmware), nvme_ctrl_get_firmware(c));
	copy_trimmed(dev->address, sizeof(dev->address), nvme_ctrl_get_address(c));
	copy_trimmed(dev->transport, sizeof(dev->transport), nvme_ctrl_get_transport(c));
	copy_trimmed(dev->nqn, sizeof(dev->nqn), nvme_ctrl_get_subsysnqn(c));
	ctrl_attr(c, "cntlid", cntlid, sizeof(cntlid));
	dev->cntlid = (unsigned)strtoul(cntlid, NULL, 0);
	snprintf(dev->id, sizeof(dev->id), "%s %s %u", dev->nqn, dev->serial, dev->cntlid);
	link_of(c, "current", dev->link, sizeof(dev->link));
	link_of(c, "max", dev->max_link, sizeof(dev->max_link));
	for (n = nvme_ctrl_first_ns(c); n; n = nvme_ctrl_next_ns(c, n))
		ok = ok && add_ns(dev, n);
	for (p = nvme_ctrl_first_path(c); p; p = nvme_ctrl_next_path(c, p))
		if (nvme_path_get_ns(p))
			ok = ok && add_ns(dev, nvme_path_get_ns(p));
	if (dev->ns_count)
		qsort(dev->ns, dev->ns_count, sizeof(*dev->ns), cmp_ns);
	return ok;
}

void rcl_nvme_devs_free(struct rcl_nvme_dev *devs, size_t count)
{
	for (size_t i = 0; devs && i < count; i++)
		rcl_free(devs[i].ns);
	rcl_free(devs);
}

/* nvme0 before nvme1 before nvme10: by the kernel's instance number. */
static int cmp_dev(const void *a, const void *b)
{
	const struct rcl_nvme_dev *x = a, *y = b;
	unsigned long i = strtoul(x->name + 4, NULL, 10), j = strtoul(y->name + 4, NULL, 10);

	return (i > j) - (i < j);
}

/* Append controller @c to *@devs. */
static enum rcl_status add_dev(struct rcl_nvme_dev **devs, size_t *count, nvme_ctrl_t c,
                               struct rcl_error *err)
{
	struct rcl_nvme_dev *grown;

	if (*count == RCL_NVME_MAX_DRIVES)
		return RCL_OK; /* the slots are full: rcl_nvme_slots_assign() says so */
	grown = rcl_realloc(*devs, (*count + 1) * sizeof(**devs));
	if (!grown)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	*devs = grown;
	if (!fill_dev(&grown[*count], c)) {
		rcl_free(grown[*count].ns);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	(*count)++;
	return RCL_OK;
}

enum rcl_status rcl_nvme_scan(struct rcl_nvme_dev **out, size_t *count, struct rcl_error *err)
{
	/* libnvme logs to stderr: a library must not print, so only emergencies. */
	nvme_root_t r = nvme_create_root(NULL, LOG_EMERG);
	enum rcl_status st = RCL_OK;
	nvme_subsystem_t s;
	nvme_host_t h;
	nvme_ctrl_t c;

	*out = NULL;
	*count = 0;
	if (!r)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot start libnvme: %s",
		                      strerror(errno));
	if (nvme_scan_topology(r, NULL, NULL) < 0 && errno != ENOENT)
		st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot scan the NVMe topology: %s",
		                    strerror(errno));
	for (h = nvme_first_host(r); h && !st; h = nvme_next_host(r, h))
		for (s = nvme_first_subsystem(h); s && !st; s = nvme_next_subsystem(h, s))
			for (c = nvme_subsystem_first_ctrl(s); c && !st;
			     c = nvme_subsystem_next_ctrl(s, c))
				st = add_dev(out, count, c, err);
	nvme_free_tree(r);
	if (st) {
		rcl_nvme_devs_free(*out, *count);
		*out = NULL;
		*count = 0;
		return st;
	}
	if (*count)
		qsort(*out, *count, sizeof(**out), cmp_dev);
	return RCL_OK;
}

/* The first holder of sysfs block directory @dir ("md127"), into @why; false if none. */
static bool held(const char *dir, const char *dev, char *why, size_t size)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	bool found = false;

	snprintf(path, sizeof(path), "%s/holders", dir);
	d = opendir(path);
	while (d && !found && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(why, size, "%s is held by %s", dev, de->d_name);
			found = true;
		}
	if (d)
		closedir(d);
	return found;
}

/* Whether the first field of a line of @table names /dev/@dev: where, into @why. */
static bool listed(const char *table, const char *dev, const char *what, char *why, size_t size)
{
	FILE *f = fopen(table, "re");
	char line[1024], src[512], dst[512];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%511s %511s", src, dst) < 1 || strncmp(src, "/dev/", 5) ||
		    strcmp(src + 5, dev))
			continue;
		if (!strcmp(what, "swap"))
			snprintf(why, size, "%s is swap space", dev);
		else
			snprintf(why, size, "%s is mounted on %s", dev, dst);
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

/*
 * What udev's probe (blkid) found on block device @dir/dev, from its
 * database, into @why: a file system or other volume signature, or a
 * partition table. No read of the drive: a "show" must not move its
 * SMART counters, nor wait on a drive that is slow to answer.
 */
static bool udev_found(const char *dir, const char *dev, char *why, size_t size)
{
	char path[512], line[256], devnum[32] = "";
	const char *keys[][2] = {{"E:ID_FS_TYPE=", "a signature"},
	                         {"E:ID_PART_TABLE_TYPE=", "a partition table"}};
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/dev", dir);
	f = fopen(path, "re");
	if (f && !fgets(devnum, sizeof(devnum), f))
		devnum[0] = '\0';
	if (f)
		fclose(f);
	devnum[strcspn(devnum, "\n")] = '\0';
	snprintf(path, sizeof(path), "/run/udev/data/b%s", devnum);
	f = devnum[0] ? fopen(path, "re") : NULL;
	while (f && !found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		for (size_t k = 0; !found && k < 2; k++)
			if (!strncmp(line, keys[k][0], strlen(keys[k][0])) &&
			    line[strlen(keys[k][0])]) {
				snprintf(why, size, "%s holds %s: %s", dev, keys[k][1],
				         line + strlen(keys[k][0]));
				found = true;
			}
	}
	if (f)
		fclose(f);
	return found;
}

/* What uses or fills block device @dev (a namespace or a partition of it), into @why. */
static bool dev_in_use(const char *dir, const char *dev, char *why, size_t size)
{
	return held(dir, dev, why, size) || listed("/proc/mounts", dev, "mount", why, size) ||
	       listed("/proc/swaps", dev, "swap", why, size) || udev_found(dir, dev, why, size);
}

void rcl_nvme_ns_in_use(const char *name, char *why, size_t size)
{
	char dir[256], sub[512];
	struct dirent *de;
	DIR *d;
	bool found;

	*why = '\0';
	snprintf(dir, sizeof(dir), "/sys/class/block/%s", name);
	found = dev_in_use(dir, name, why, size);
	/* Its partitions: nvme0n1p1 ... are subdirectories of its sysfs directory. */
	d = found ? NULL : opendir(dir);
	while (d && !found && (de = readdir(d))) {
		if (strncmp(de->d_name, name, strlen(name)) || !de->d_name[strlen(name)])
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		found = dev_in_use(sub, de->d_name, why, size);
	}
	if (d)
		closedir(d);
}
