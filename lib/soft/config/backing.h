/* SPDX-License-Identifier: MIT */
/*
 * backing.h - the storage a drive's path stands on, to tell two paths
 * that reach the same bytes apart from two drives.
 *
 * A regular file is its inode (a hard link, a symlink or a bind mount
 * reach the same one). A block device is itself and what it is made of,
 * read from sysfs: a loop device's backing file (loop/backing_file), a
 * partition's disk, and the devices a device-mapper or md device sits on
 * (slaves/), each again with what it is made of. Two paths share storage
 * when their sets meet: an image file and a loop device over it, a disk
 * and one of its partitions, a dm target and the device under it.
 */
#ifndef RCL_SOFT_BACKING_H
#define RCL_SOFT_BACKING_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* At most this many objects per path: deeper stacks are cut off there. */
#define RCL_SOFT_BACKING_MAX 32

/* One storage object: a file's inode (@block false) or a block device (@dev its number). */
struct rcl_soft_backing_obj {
	bool block;
	dev_t dev;
	ino_t ino;
};

/**
 * struct rcl_soft_backing - what one path stands on.
 * @file:	the backing file reached through loop devices, for messages,
 *		or "" (a regular file, or a block device over none).
 */
struct rcl_soft_backing {
	size_t count;
	struct rcl_soft_backing_obj objs[RCL_SOFT_BACKING_MAX];
	char file[4096];
};

/* rcl_soft_backing_of() - fill @out for the object @st (stat() of a file or block device). */
void rcl_soft_backing_of(const struct stat *st, struct rcl_soft_backing *out);

/* rcl_soft_backing_shared() - whether @a and @b stand on a storage object in common. */
bool rcl_soft_backing_shared(const struct rcl_soft_backing *a, const struct rcl_soft_backing *b);

#endif /* RCL_SOFT_BACKING_H */
