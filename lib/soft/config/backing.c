// SPDX-License-Identifier: MIT
/*
 * backing.c - the storage a drive's path stands on (see backing.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "backing.h"

static bool add(struct rcl_soft_backing *out, bool block, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < out->count; i++)
		if (out->objs[i].block == block && out->objs[i].dev == dev &&
		    out->objs[i].ino == ino)
			return false; /* seen: a diamond of dm tables, or a loop */
	if (out->count == RCL_SOFT_BACKING_MAX)
		return false;
	out->objs[out->count++] = (struct rcl_soft_backing_obj){block, dev, ino};
	return true;
}

/*
 * The first line of sysfs file @dir/@name into @buf, without its newline;
 * false if none, or if the path is too long to name it whole.
 */
static bool read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	bool ok;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* The device number sysfs directory @dir names in its "dev" file ("7:0"). */
static bool dev_of(const char *dir, dev_t *dev)
{
	char line[32];
	unsigned maj, min;

	if (!read_line(dir, "dev", line, sizeof(line)) || sscanf(line, "%u:%u", &maj, &min) != 2)
		return false;
	*dev = makedev(maj, min);
	return true;
}

static void add_block(struct rcl_soft_backing *out, dev_t dev);

/* A loop device's backing file, as the kernel names it now (it follows renames). */
static void add_loop_file(struct rcl_soft_backing *out, const char *dir)
{
	char file[4096];
	struct stat st;

	if (!read_line(dir, "loop/backing_file", file, sizeof(file)) || stat(file, &st))
		return;
	if (S_ISREG(st.st_mode))
		add(out, false, st.st_dev, st.st_ino);
	else if (S_ISBLK(st.st_mode))
		add_block(out, st.st_rdev);
	if (!out->file[0])
		snprintf(out->file, sizeof(out->file), "%s", file);
}

/* What a dm or md device @dir sits on: each entry of its slaves/ directory. */
static void add_slaves(struct rcl_soft_backing *out, const char *dir)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/slaves", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char slave[sizeof(path) + 256];
		dev_t dev;

		if (e->d_name[0] == '.')
			continue;
		snprintf(slave, sizeof(slave), "%s/%s", path, e->d_name);
		if (dev_of(slave, &dev))
			add_block(out, dev);
	}
	closedir(d);
}

/* Block device @dev and what it is made of. */
static void add_block(struct rcl_soft_backing *out, dev_t dev)
{
	char dir[64], parent[96], number[16];
	dev_t disk;

	if (!add(out, true, dev, 0))
		return;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	add_loop_file(out, dir);
	add_slaves(out, dir);
	/* A partition's directory sits in its disk's. */
	snprintf(parent, sizeof(parent), "%s/..", dir);
	if (read_line(dir, "partition", number, sizeof(number)) && dev_of(parent, &disk))
		add_block(out, disk);
}

void rcl_soft_backing_of(const struct stat *st, struct rcl_soft_backing *out)
{
	out->count = 0;
	out->file[0] = '\0';
	if (S_ISBLK(st->st_mode))
		add_block(out, st->st_rdev);
	else
		add(out, false, st->st_dev, st->st_ino);
}

bool rcl_soft_backing_shared(const struct rcl_soft_backing *a, const struct rcl_soft_backing *b)
{
	for (size_t i = 0; i < a->count; i++)
		for (size_t j = 0; j < b->count; j++)
			if (a->objs[i].block == b->objs[j].block &&
			    a->objs[i].dev == b->objs[j].dev && a->objs[i].ino == b->objs[j].ino)
				return true;
	return false;
}
