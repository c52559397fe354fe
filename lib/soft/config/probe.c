// SPDX-License-Identifier: MIT
/*
 * probe.c - what a soft controller's slot holds: an image file or a block
 * device, its capacity, sector sizes and what the kernel says about it.
 *
 * Only facts are reported. Where the backing store hides something (an
 * image file has no model or firmware), the field says so rather than
 * inventing a value.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "soft/soft.h"

#define MIB (1ull << 20)

/* Read the first line of a sysfs attribute, trimmed; false if unreadable. */
static bool sysfs_read(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t len;

	if (!f)
		return false;
	if (!fgets(out, (int)size, f)) {
		fclose(f);
		return false;
	}
	fclose(f);
	len = strlen(out);
	while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
		out[--len] = '\0';
	return len > 0;
}

/* Read attribute @attr ("queue/rotational") of block device @dev from sysfs. */
static bool sysfs_attr(dev_t dev, const char *attr, char *out, size_t size)
{
	char path[160];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(dev), minor(dev), attr);
	return sysfs_read(path, out, size);
}

/*
 * "SSD", "HDD" or "Unknown" for the block device @dev. A partition has no
 * queue directory of its own; its disk's is one level up.
 */
static const char *medium_of(dev_t dev)
{
	char value[8];

	if (!major(dev))
		return "Unknown"; /* tmpfs, overlayfs and friends */
	if (!sysfs_attr(dev, "queue/rotational", value, sizeof(value)) &&
	    !sysfs_attr(dev, "../queue/rotational", value, sizeof(value)))
		return "Unknown";
	return strcmp(value, "0") ? "HDD" : "SSD";
}

/* Copy @src into @dst, cut to fit: sysfs strings can be longer than ours. */
static void copy_field(char *dst, size_t size, const char *src)
{
	size_t len = strnlen(src, size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Copy sysfs attribute @attr of @dev into @dst, or @fallback if it has none. */
static void copy_attr(char *dst, size_t size, dev_t dev, const char *attr, const char *fallback)
{
	char value[64];

	copy_field(dst, size, sysfs_attr(dev, attr, value, sizeof(value)) ? value : fallback);
}

static void probe_block_identity(dev_t rdev, struct rcl_drive *drive)
{
	char path[64], link[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	if (strstr(link, "/nvme"))
		copy_field(drive->interface, sizeof(drive->interface), "NVMe");
	else if (strstr(link, "/ata"))
		copy_field(drive->interface, sizeof(drive->interface), "SATA");
	else
		copy_field(drive->interface, sizeof(drive->interface), "Block");
	copy_attr(drive->model, sizeof(drive->model), rdev, "device/model", "Block Device");
	copy_attr(drive->vendor, sizeof(drive->vendor), rdev, "device/vendor", "N/A");
	/* NVMe names it firmware_rev, SCSI rev. */
	copy_attr(drive->firmware, sizeof(drive->firmware), rdev, "device/firmware_rev", "");
	if (!drive->firmware[0])
		copy_attr(drive->firmware, sizeof(drive->firmware), rdev, "device/rev", "N/A");
	copy_field(drive->medium, sizeof(drive->medium), medium_of(rdev));
}

static void probe_block(const char *path, const struct stat *st, struct rcl_drive *drive)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	uint64_t bytes = 0;
	int lss = 512;
	unsigned pss = 512;

	drive->kind = RCL_DRIVE_BLOCK;
	if (fd >= 0) {
		if (ioctl(fd, BLKGETSIZE64, &bytes))
			bytes = 0;
		if (ioctl(fd, BLKSSZGET, &lss))
			lss = 512;
		if (ioctl(fd, BLKPBSZGET, &pss))
			pss = (unsigned)lss;
		close(fd);
	}
	drive->raw_bytes = bytes;
	drive->logical_sector = (unsigned)lss;
	drive->physical_sector = pss;
	probe_block_identity(st->st_rdev, drive);
}

static void probe_image(const struct stat *st, unsigned sector_size, struct rcl_drive *drive)
{
	drive->kind = RCL_DRIVE_IMAGE;
	drive->raw_bytes = (uint64_t)st->st_size;
	drive->logical_sector = sector_size;
	drive->physical_sector = sector_size;
	copy_field(drive->interface, sizeof(drive->interface), "File");
	copy_field(drive->vendor, sizeof(drive->vendor), "raidcli");
	copy_field(drive->model, sizeof(drive->model), "Image File");
	copy_field(drive->firmware, sizeof(drive->firmware), "N/A");
	copy_field(drive->medium, sizeof(drive->medium), medium_of(st->st_dev));
}

void rcl_soft_probe(const char *path, unsigned sector_size, struct rcl_drive *drive)
{
	struct stat st;

	copy_field(drive->path, sizeof(drive->path), path);
	drive->present = stat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
	if (!drive->present) {
		drive->state = RCL_PD_MISSING;
		drive->logical_sector = sector_size;
		drive->physical_sector = sector_size;
		copy_field(drive->interface, sizeof(drive->interface), "-");
		copy_field(drive->vendor, sizeof(drive->vendor), "N/A");
		copy_field(drive->model, sizeof(drive->model), "Missing");
		copy_field(drive->firmware, sizeof(drive->firmware), "N/A");
		copy_field(drive->medium, sizeof(drive->medium), "Unknown");
		return;
	}
	if (S_ISBLK(st.st_mode))
		probe_block(path, &st, drive);
	else
		probe_image(&st, sector_size, drive);
	drive->coerced_bytes = drive->raw_bytes / MIB * MIB;
}

enum rcl_status rcl_soft_check_usable(const char *path, struct stat *st, struct rcl_error *err)
{
	int fd;

	if (stat(path, st))
		return rcl_fail_errno(err, errno == ENOENT ? RCL_NOT_FOUND : RCL_SYSTEM, errno,
		                      "cannot use '%s': %s", path, strerror(errno));
	if (!S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "cannot use '%s': it is neither a regular file nor a block device",
		                path);
	/*
	 * O_EXCL on a block device fails with EBUSY while anything holds it:
	 * a mounted file system, md, device-mapper, another exclusive opener.
	 */
	fd = open(path, O_RDWR | O_CLOEXEC | (S_ISBLK(st->st_mode) ? O_EXCL : 0));
	if (fd < 0) {
		if (errno == EBUSY)
			return rcl_fail_errno(err, RCL_BUSY, errno,
			                      "cannot use '%s': it is in use (mounted, or held by "
			                      "md, device-mapper or another program)",
			                      path);
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot use '%s': %s", path,
		                      strerror(errno));
	}
	close(fd);
	return RCL_OK;
}
