// SPDX-License-Identifier: MIT
/*
 * cmd-device.c - what a drive does to itself (lib/device.c):
 * /cN/eX/sY format, download src=, get telemetry, attach|detach|add|
 * delete namespace, and the tasks a drive runs by itself: start|stop|show
 * diag (its self-test) and start erase by the drive's own methods. The
 * library checks the drive and the numbers; a kind that cannot do it
 * answers "not supported by this controller".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* StorCLI's name for drive @ref, "Drive /c0/e252/s4", a key of the result's data. */
static const char *drive_key(const struct cmd_ctx *c, const struct rcl_drive_ref *ref, char *buf,
                             size_t size)
{
	snprintf(buf, size, "Drive /c%u/e%u/s%u", rcl_ctrl_id(c->ctrl), ref->enclosure, ref->slot);
	return buf;
}

/* Option @name's number (the parser checked its range), or @absent when not given. */
static unsigned long opt_number(const struct cmd_ctx *c, const char *name, unsigned long absent)
{
	const char *value = cmd_value(c->args, name);

	return value ? strtoul(value, NULL, 10) : absent;
}

static bool opt_flag(const struct cmd_ctx *c, const char *name)
{
	return cmd_value(c->args, name) != NULL;
}

/* Whether option @name is @choice. */
static bool opt_is(const struct cmd_ctx *c, const char *name, const char *choice)
{
	const char *value = cmd_value(c->args, name);

	return value && !strcmp(value, choice);
}

static enum rcl_status format_one(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                  struct rcl_error *err)
{
	struct rcl_format fmt = {
	    .lbaf = (int)opt_number(c, "lbaf", (unsigned long)-1),
	    .block_size = (unsigned)opt_number(c, "blocksize", 0),
	    .nsid = (uint32_t)opt_number(c, "nsid", 0),
	    .ses = opt_is(c, "ses", "crypto") ? RCL_FORMAT_SES_CRYPTO
	           : opt_is(c, "ses", "user") ? RCL_FORMAT_SES_USER
	                                      : RCL_FORMAT_SES_NONE,
	    .force = opt_flag(c, "force"),
	};

	return rcl_ctrl_format_drive(c->ctrl, ref, &fmt, err);
}

enum rcl_status cmd_drive_format(struct cmd_ctx *c, struct rcl_error *err)
{
	if (!cmd_value(c->args, "lbaf") == !cmd_value(c->args, "blocksize"))
		return rcl_fail(
		    err, RCL_INVALID_COMMAND,
		    "name the format by exactly one of lbaf=<index> and blocksize=512|4096");
	return cmd_drive_each(c, format_one, "Format Drive Succeeded.", err);
}

static enum rcl_status download_one(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                    struct rcl_error *err)
{
	struct rcl_fw_download fw = {
	    .path = cmd_value(c->args, "src"),
	    .slot = (unsigned)opt_number(c, "slot", 0),
	    .action = opt_is(c, "action", "replace")       ? RCL_FW_REPLACE
	              : opt_is(c, "action", "activatenow") ? RCL_FW_ACTIVATE_NOW
	                                                   : RCL_FW_ACTIVATE,
	};
	bool needs_reset;
	char key[64];
	enum rcl_status st = rcl_ctrl_download_drive_fw(c->ctrl, ref, &fw, &needs_reset, err);

	if (!st)
		rcl_node_add_str(c->res->data, drive_key(c, ref, key, sizeof(key)),
		                 fw.action == RCL_FW_REPLACE ? "stored in its slot, not activated"
		                 : needs_reset || fw.action == RCL_FW_ACTIVATE
		                     ? "the new firmware runs after the next reset"
		                     : "the new firmware runs now");
	return st;
}

enum rcl_status cmd_drive_download(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_drive_each(c, download_one, "Download Drive Firmware Succeeded.", err);
}

static enum rcl_status telemetry_one(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                     struct rcl_error *err)
{
	const char *file = cmd_value(c->args, "file");
	uint64_t bytes;
	enum rcl_status st = rcl_ctrl_drive_telemetry(
	    c->ctrl, ref, file, (unsigned)opt_number(c, "area", 0), &bytes, err);

	if (!st) {
		rcl_node_add_str(c->res->data, "File", file);
		rcl_node_add_strf(c->res->data, "Size", "%" PRIu64 " bytes", bytes);
	}
	return st;
}

enum rcl_status cmd_drive_get_telemetry(struct cmd_ctx *c, struct rcl_error *err)
{
	size_t selected = 0;

	/* One file holds one drive's capture. */
	for (size_t i = 0; i < rcl_ctrl_drive_count(c->ctrl); i++)
		selected += drive_selected(&c->args->path, rcl_ctrl_drive(c->ctrl, i));
	if (selected > 1)
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "the path names %zu drives, and a telemetry file holds one "
		                "drive's capture: name one drive (/cx/ex/sx)",
		                selected);
	return cmd_drive_each(c, telemetry_one, "Get Drive Telemetry Succeeded.", err);
}

/* @action on namespace nsid= (ADD: a new one) of drive @ref. */
static enum rcl_status ns_change(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 enum rcl_ns_action action, struct rcl_error *err)
{
	struct rcl_ns_request req = {
	    .action = action,
	    .nsid = (uint32_t)opt_number(c, "nsid", 0),
	    .lbaf = (unsigned)opt_number(c, "lbaf", 0),
	    .force = opt_flag(c, "force"),
	};
	const char *size = cmd_value(c->args, "size");
	char key[64];
	enum rcl_status st = size ? rcl_size_parse(size, &req.bytes, err) : RCL_OK;

	if (!st)
		st = rcl_ctrl_drive_namespace(c->ctrl, ref, &req, err);
	if (!st && action == RCL_NS_CREATE)
		rcl_node_add_strf(c->res->data, drive_key(c, ref, key, sizeof(key)),
		                  "namespace %" PRIu32, req.nsid);
	return st;
}

static enum rcl_status ns_attach(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 struct rcl_error *err)
{
	return ns_change(c, ref, RCL_NS_ATTACH, err);
}

static enum rcl_status ns_detach(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 struct rcl_error *err)
{
	return ns_change(c, ref, RCL_NS_DETACH, err);
}

static enum rcl_status ns_create(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 struct rcl_error *err)
{
	return ns_change(c, ref, RCL_NS_CREATE, err);
}

static enum rcl_status ns_delete(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 struct rcl_error *err)
{
	return ns_change(c, ref, RCL_NS_DELETE, err);
}

enum rcl_status cmd_drive_attach_namespace(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_drive_each(c, ns_attach, "Attach Namespace Succeeded.", err);
}

enum rcl_status cmd_drive_detach_namespace(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_drive_each(c, ns_detach, "Detach Namespace Succeeded.", err);
}

enum rcl_status cmd_drive_add_namespace(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_drive_each(c, ns_create, "Add Namespace Succeeded.", err);
}

enum rcl_status cmd_drive_delete_namespace(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_drive_each(c, ns_delete, "Delete Namespace Succeeded.", err);
}

/* The request for @action on drive @ref's task @kind, as the command line words it. */
static enum rcl_status drive_request(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                     enum rcl_task_kind kind, enum rcl_task_action action,
                                     struct rcl_task_request *req, struct rcl_error *err)
{
	*req = (struct rcl_task_request){
	    .kind = kind,
	    .action = action,
	    .drive = *ref,
	    .force = opt_flag(c, "force"),
	    .self_test = opt_flag(c, "extended") ? RCL_SELF_TEST_EXTENDED : RCL_SELF_TEST_SHORT,
	};
	return kind == RCL_TASK_ERASE && action == RCL_TASK_ACTION_START
	           ? cmd_erase_how(c, &req->erase, err)
	           : RCL_OK;
}

/* @action on drive @ref's task @kind. */
static enum rcl_status drive_task(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                  enum rcl_task_kind kind, enum rcl_task_action action,
                                  struct rcl_error *err)
{
	struct rcl_task_request req;
	enum rcl_status st = drive_request(c, ref, kind, action, &req, err);

	return st ? st : rcl_ctrl_task(c->ctrl, &req, err);
}

/* Before the controller process starts: refuse the start of @kind on any drive the path selects. */
static enum rcl_status check_starts(struct cmd_ctx *c, enum rcl_task_kind kind,
                                    struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	for (size_t i = 0; !st && i < rcl_ctrl_drive_count(c->ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, i);
		const struct rcl_drive_ref ref = {drive->enclosure, drive->slot};
		struct rcl_task_request req;

		if (!drive_selected(&c->args->path, drive))
			continue;
		st = drive_request(c, &ref, kind, RCL_TASK_ACTION_START, &req, err);
		if (!st)
			st = rcl_ctrl_task_check(c->ctrl, &req, err);
	}
	return st;
}

/* A row per drive the path selects: where its task @kind stands; @done describes the result. */
static enum rcl_status show_drive_tasks(struct cmd_ctx *c, enum rcl_task_kind kind,
                                        const char *done, struct rcl_error *err)
{
	struct rcl_node *table = rcl_node_add_array(c->res->data, "Drive Status");

	for (size_t i = 0; i < rcl_ctrl_drive_count(c->ctrl); i++) {
		const struct rcl_drive *drive = rcl_ctrl_drive(c->ctrl, i);
		const struct rcl_drive_ref ref = {drive->enclosure, drive->slot};

		if (drive_selected(&c->args->path, drive))
			drive_task_row(table, c->ctrl, &ref, kind);
	}
	if (!rcl_node_count(table))
		return rcl_fail(err, RCL_NOT_FOUND, "no drives found");
	rcl_result_describe(c->res, "%s", done);
	return RCL_OK;
}

static enum rcl_status diag_start(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                  struct rcl_error *err)
{
	return drive_task(c, ref, RCL_TASK_SELF_TEST, RCL_TASK_ACTION_START, err);
}

static enum rcl_status diag_stop(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 struct rcl_error *err)
{
	return drive_task(c, ref, RCL_TASK_SELF_TEST, RCL_TASK_ACTION_STOP, err);
}

static enum rcl_status erase_start(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                   struct rcl_error *err)
{
	return drive_task(c, ref, RCL_TASK_ERASE, RCL_TASK_ACTION_START, err);
}

/* Refuse a command that names more than one of @words: they exclude each other. */
static enum rcl_status one_of(const struct cmd_ctx *c, const char *const *words,
                              struct rcl_error *err)
{
	const char *first = NULL;

	for (size_t i = 0; words[i]; i++) {
		if (!opt_flag(c, words[i]))
			continue;
		if (first)
			return rcl_fail(err, RCL_INVALID_COMMAND,
			                "'%s' and '%s' exclude each other: give one", first,
			                words[i]);
		first = words[i];
	}
	return RCL_OK;
}

enum rcl_status cmd_drive_start_diag(struct cmd_ctx *c, struct rcl_error *err)
{
	static const char *const kinds[] = {"short", "extended", NULL};
	enum rcl_status st = one_of(c, kinds, err);

	return st ? st : cmd_drive_each(c, diag_start, "Start Drive Diagnostic Succeeded.", err);
}

enum rcl_status cmd_drive_stop_diag(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_drive_each(c, diag_stop, "Stop Drive Diagnostic Succeeded.", err);
}

enum rcl_status cmd_drive_show_diag(struct cmd_ctx *c, struct rcl_error *err)
{
	return show_drive_tasks(c, RCL_TASK_SELF_TEST, "Show Drive Diagnostic Status Succeeded.",
	                        err);
}

enum rcl_status cmd_drive_start_erase(struct cmd_ctx *c, struct rcl_error *err)
{
	static const char *const methods[] = {"crypto", "blockerase", "overwrite", "format", NULL};
	enum rcl_status st = one_of(c, methods, err);

	return st ? st : cmd_drive_each(c, erase_start, "Start Drive Erase Succeeded.", err);
}

enum rcl_status cmd_drive_check_erase(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_starts(c, RCL_TASK_ERASE, err);
}

static enum rcl_status erase_stop(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                  struct rcl_error *err)
{
	return drive_task(c, ref, RCL_TASK_ERASE, RCL_TASK_ACTION_STOP, err);
}

enum rcl_status cmd_drive_stop_erase(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_drive_each(c, erase_stop, "Stop Drive Erase Succeeded.", err);
}

enum rcl_status cmd_drive_show_erase(struct cmd_ctx *c, struct rcl_error *err)
{
	return show_drive_tasks(c, RCL_TASK_ERASE, "Show Drive Erase Status Succeeded.", err);
}

static enum rcl_status init_start(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                  struct rcl_error *err)
{
	return drive_task(c, ref, RCL_TASK_DRIVE_INIT, RCL_TASK_ACTION_START, err);
}

static enum rcl_status init_stop(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 struct rcl_error *err)
{
	return drive_task(c, ref, RCL_TASK_DRIVE_INIT, RCL_TASK_ACTION_STOP, err);
}

enum rcl_status cmd_drive_start_init(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_drive_each(c, init_start, "Start Drive Initialization Succeeded.", err);
}

enum rcl_status cmd_drive_check_init(struct cmd_ctx *c, struct rcl_error *err)
{
	return check_starts(c, RCL_TASK_DRIVE_INIT, err);
}

enum rcl_status cmd_drive_stop_init(struct cmd_ctx *c, struct rcl_error *err)
{
	return cmd_drive_each(c, init_stop, "Stop Drive Initialization Succeeded.", err);
}

enum rcl_status cmd_drive_show_init(struct cmd_ctx *c, struct rcl_error *err)
{
	return show_drive_tasks(c, RCL_TASK_DRIVE_INIT,
	                        "Show Drive Initialization Status Succeeded.", err);
}
