// SPDX-License-Identifier: MIT
/*
 * drive-fixture.c - a controller of one NVMe drive for the backend's
 * operations (drive-fixture.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive-fixture.h"
#include "unit.h"

void fixture_init(struct fixture *f)
{
	char *path;

	memset(f, 0, sizeof(*f));
	f->dir = unit_tmpdir();
	path = unit_path(f->dir, "nvme0n1");
	unit_write(path, "");
	snprintf(f->drive.path, sizeof(f->drive.path), "%s", path);
	free(path);
	f->drive.enclosure = 252;
	f->drive.state = RCL_PD_UGOOD;
	f->drive.dg = -1;
	f->ctrl.drives = &f->drive;
	f->ctrl.drive_count = 1;
	snprintf(f->ctrl.caps.kind, sizeof(f->ctrl.caps.kind), "nvme");
}

void fixture_release(struct fixture *f)
{
	unit_rmrf(f->dir);
	free(f->dir);
}
