// SPDX-License-Identifier: MIT
/*
 * fuzz-state.c - damaged state files: the input becomes registry.json or a
 * soft controller's state file in a throwaway state directory, and the
 * library loads it (rcl_ctx_new, rcl_ctrl_open) and the CLI shows it.
 * Every call must return a status, never crash or leak, and a refusal of
 * a damaged file must name that file.
 *
 * The first input byte picks what the rest is:
 *   0: registry.json; the controllers it lists are opened and shown.
 *   1: the state file of soft controller 0; it is opened and shown.
 *   2: the same, and a drive is added to and removed from it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"
#include "soft/soft.h"

#define MAX_STATE (64 << 10)
/* The controller every mode but 0 addresses, with a key the registry accepts. */
#define SOFT_KEY "RCLCF022000000000"

static const char registry_json[] =
    "{\"format\":1,\"controllers\":[{\"id\":0,\"backend\":\"soft\",\"key\":\"" SOFT_KEY "\"}]}\n";

static const char *state_dir;
static char registry_path[4096], soft_path[4096], extra_image[4096];
static FILE *devnull;

static const char *good_soft_state(void)
{
	static char text[8192];

	snprintf(text, sizeof(text),
	         "{\"format\":1,\"serial\":\"" SOFT_KEY "\",\"created\":1700000000,"
	         "\"sector_size\":512,\"image_dir\":\"%s\",\"slots\":[{\"slot\":0,\"path\":"
	         "\"%s\",\"serial\":\"RCLD000000000001\",\"wwn\":\"3000000000000001\","
	         "\"owned\":false}]}\n",
	         state_dir, extra_image);
	return text;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	state_dir = fuzz_state_dir();
	devnull = fopen("/dev/null", "we");
	FUZZ_CHECK(devnull);
	snprintf(registry_path, sizeof(registry_path), "%s", fuzz_path(state_dir, "registry.json"));
	snprintf(soft_path, sizeof(soft_path), "%s/soft/%s.json", state_dir, SOFT_KEY);
	snprintf(extra_image, sizeof(extra_image), "%s", fuzz_path(state_dir, "extra.img"));
	FUZZ_CHECK(!mkdir(fuzz_path(state_dir, "soft"), 0700));
	/* A sparse image big enough to be a drive, for mode 2 to add. */
	fuzz_write_file(extra_image, "", 0);
	FUZZ_CHECK(!truncate(extra_image, RCL_SOFT_MIN_DRIVE_BYTES));
	return 0;
}

static void check_status(enum rcl_status st, const struct rcl_error *err, const char *file)
{
	if (st == RCL_OK)
		return;
	FUZZ_CHECK(strcmp(rcl_status_name(st), "unknown status"));
	FUZZ_CHECK(err->status == st && err->msg[0]);
	/* The one message for a damaged file says which file. */
	if (st == RCL_CORRUPT)
		FUZZ_CHECK(strstr(err->msg, file));
}

/* Read everything a caller can read of an open controller. */
static void read_ctrl(const struct rcl_ctrl *ctrl)
{
	const struct rcl_ctrl_info *info = rcl_ctrl_info(ctrl);

	FUZZ_CHECK(strlen(info->serial) < sizeof(info->serial));
	for (size_t i = 0; i < rcl_ctrl_enclosure_count(ctrl); i++)
		FUZZ_CHECK(rcl_ctrl_enclosure(ctrl, i));
	for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(ctrl, i);

		FUZZ_CHECK(drive && drive->slot < RCL_SOFT_MAX_DRIVES);
		FUZZ_CHECK(strlen(drive->path) < sizeof(drive->path));
		FUZZ_CHECK(drive->coerced_bytes <= drive->raw_bytes);
		if (i)
			FUZZ_CHECK(rcl_ctrl_drive(ctrl, i - 1)->slot < drive->slot);
	}
}

/* Run one CLI command against the state and render it both ways. */
static void show(const char *line)
{
	struct rcl_error err = {0};
	struct rcl_reply reply;
	struct cmd_args args;
	char **argv;
	int argc;

	FUZZ_CHECK(!cli_split_line(line, &argc, &argv, &err));
	FUZZ_CHECK(!cli_parse(argc, argv, &args, &err));
	rcl_reply_init(&reply);
	cli_run(&args, &reply, NULL);
	FUZZ_CHECK(reply.count);
	for (size_t i = 0; i < reply.count; i++) {
		FUZZ_CHECK(strcmp(rcl_status_name(reply.results[i].status), "unknown status"));
		FUZZ_CHECK(reply.results[i].description);
	}
	render_json(devnull, &reply);
	render_text(devnull, &reply, false);
	rcl_reply_release(&reply);
	cli_free_words(argc, argv);
}

static void open_each(struct rcl_ctx *ctx, const char *file)
{
	const unsigned *ids;
	size_t count = rcl_ctx_ctrl_ids(ctx, &ids);

	for (size_t i = 0; i < count && i < 16; i++) {
		struct rcl_error err = {0};
		struct rcl_ctrl *ctrl;
		enum rcl_status st = rcl_ctrl_open(ctx, ids[i], RCL_LOCK_SHARED, &ctrl, &err);

		check_status(st, &err, file);
		if (st)
			continue;
		FUZZ_CHECK(rcl_ctrl_id(ctrl) == ids[i]);
		read_ctrl(ctrl);
		rcl_ctrl_close(ctrl);
	}
}

static void add_and_remove(struct rcl_ctx *ctx)
{
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl;
	enum rcl_status st;
	unsigned slot;

	st = rcl_ctrl_open(ctx, 0, RCL_LOCK_EXCLUSIVE, &ctrl, &err);
	check_status(st, &err, soft_path);
	if (st)
		return;
	st = rcl_ctrl_add_drive(ctrl, extra_image, &slot, &err);
	check_status(st, &err, soft_path);
	if (!st) {
		const struct rcl_drive *added = NULL;

		for (size_t i = 0; i < rcl_ctrl_drive_count(ctrl); i++)
			if (rcl_ctrl_drive(ctrl, i)->slot == slot)
				added = rcl_ctrl_drive(ctrl, i);
		FUZZ_CHECK(added);
		read_ctrl(ctrl);
		st = rcl_ctrl_remove_drive(ctrl, added, false, &err);
		check_status(st, &err, soft_path);
	}
	rcl_ctrl_close(ctrl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rcl_error err = {0};
	struct rcl_ctx *ctx;
	enum rcl_status st;
	unsigned mode;

	if (!size || size > MAX_STATE)
		return 0;
	if (!state_dir)
		LLVMFuzzerInitialize(NULL, NULL);
	mode = data[0] % 3;
	if (mode == 0) {
		fuzz_write_file(registry_path, data + 1, size - 1);
		fuzz_write_file(soft_path, good_soft_state(), strlen(good_soft_state()));
	} else {
		fuzz_write_file(registry_path, registry_json, strlen(registry_json));
		fuzz_write_file(soft_path, data + 1, size - 1);
	}

	st = rcl_ctx_new(&ctx, state_dir, &err);
	check_status(st, &err, registry_path);
	if (st)
		return 0;
	open_each(ctx, mode ? soft_path : registry_path);
	if (mode == 2)
		add_and_remove(ctx);
	rcl_ctx_free(ctx);
	show("/call show");
	show("/call/eall/sall show all");
	return 0;
}
