/* SPDX-License-Identifier: MIT */
/*
 * drive-fixture.h - a controller of one unconfigured NVMe drive, 252:0,
 * whose path is a file the ioctl shim (nvme-shim.h) plays: what the
 * backend's task and action operations get from the generic layer.
 */
#ifndef RCL_NVME_DRIVE_FIXTURE_H
#define RCL_NVME_DRIVE_FIXTURE_H

#include "internal.h"

struct fixture {
	char *dir;
	struct rcl_drive drive;
	struct rcl_ctrl ctrl;
};

/* fixture_init() - the controller, its drive's file made in a new temporary folder. */
void fixture_init(struct fixture *f);

/* fixture_release() - remove the folder. */
void fixture_release(struct fixture *f);

#endif /* RCL_NVME_DRIVE_FIXTURE_H */
