// SPDX-License-Identifier: MIT
/*
 * list-drives.c - a program outside the project using only the installed
 * <raidcli.h>: list every controller and its drives.
 */
#include <inttypes.h>
#include <stdio.h>

#include <raidcli.h>

int main(void)
{
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;
	const unsigned *ids;
	size_t count;

	if (rcl_ctx_new(&ctx, NULL, &err)) {
		fprintf(stderr, "list-drives: %s\n", err.msg);
		return 1;
	}
	count = rcl_ctx_ctrl_ids(ctx, &ids);
	for (size_t i = 0; i < count; i++) {
		struct rcl_ctrl *ctrl;

		if (rcl_ctrl_open(ctx, ids[i], RCL_LOCK_SHARED, &ctrl, &err)) {
			fprintf(stderr, "list-drives: %s\n", err.msg);
			rcl_ctx_free(ctx);
			return 1;
		}
		printf("/c%u %s %s\n", rcl_ctrl_id(ctrl), rcl_ctrl_info(ctrl)->model,
		       rcl_ctrl_info(ctrl)->serial);
		for (size_t d = 0; d < rcl_ctrl_drive_count(ctrl); d++) {
			const struct rcl_drive *drive = rcl_ctrl_drive(ctrl, d);

			printf("/c%u/e%u/s%u %s %" PRIu64 "\n", rcl_ctrl_id(ctrl), drive->enclosure,
			       drive->slot, rcl_pd_state_abbrev(drive->state), drive->raw_bytes);
		}
		rcl_ctrl_close(ctrl);
	}
	rcl_ctx_free(ctx);
	return 0;
}
