/* SPDX-License-Identifier: MIT */
/*
 * soft.h - the software RAID controller's internals, shared by its files.
 */
#ifndef RCL_SOFT_H
#define RCL_SOFT_H

#include <sys/stat.h>

#include "../internal.h"

/* The virtual backplane every soft controller reports its slots on. */
#define RCL_SOFT_ENCLOSURE 252

/*
 * rcl_soft_probe() - fill @drive's identity-independent fields (kind,
 * presence, sizes, sector sizes, interface, medium, model) from @path.
 * @sector_size is what an image file reports; block devices report theirs.
 */
void rcl_soft_probe(const char *path, unsigned sector_size, struct rcl_drive *drive);

/*
 * rcl_soft_check_usable() - refuse what cannot become a drive: not a file
 * or block device, unreadable, or a block device in use. Fills *@st.
 */
enum rcl_status rcl_soft_check_usable(const char *path, struct stat *st, struct rcl_error *err);

#endif /* RCL_SOFT_H */
