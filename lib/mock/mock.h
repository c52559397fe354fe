/* SPDX-License-Identifier: MIT */
/*
 * mock.h - what the mock backend's files share. The mock serves
 * controllers whose complete state is a JSON fixture (the format is
 * described in fixture.c), so the generic layer and the CLI can be run
 * against an NVMe host, a MegaRAID card or a Redfish server before their
 * transports exist.
 */
#ifndef RCL_MOCK_H
#define RCL_MOCK_H

#include "internal.h"

/* The backend's ops table (mock.c); registry.c lists it (lib/meson.build's backend_kinds). */
extern const struct rcl_backend_ops rcl_mock_ops;

/* An open mock controller: its state file and that file's JSON. */
struct mock_priv {
	char *path;
	json_object *root;
};

/*
 * rcl_mock_parse() - check @root, read from @file, and fill @ctrl's info,
 * caps, enclosures, drives, groups and VDs from it (the groups' and VDs'
 * states follow from their members'). A failure names the key and where
 * it is, with status @bad: RCL_INVALID_PARAM for a fixture a user gave,
 * RCL_CORRUPT for a state file. @ctrl's arrays are left for the caller
 * to free either way.
 */
enum rcl_status rcl_mock_parse(json_object *root, const char *file, enum rcl_status bad,
                               struct rcl_ctrl *ctrl, struct rcl_error *err);

/* rcl_mock_parse_caps() - only the "caps" of @root, into @caps (kind "mock"). */
enum rcl_status rcl_mock_parse_caps(json_object *root, const char *file, enum rcl_status bad,
                                    struct rcl_caps *caps, struct rcl_error *err);

/* The fixture's names of the task kinds ("rebuild", "cc", "patrolread"...). */
extern const char *const rcl_mock_task_names[RCL_TASK_KIND_COUNT];

/* The task operations (task.c), as backend.h describes them. */
enum rcl_status rcl_mock_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err);
enum rcl_status rcl_mock_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err);
enum rcl_status rcl_mock_task_progress(const struct rcl_ctrl *ctrl,
                                       const struct rcl_task_request *req,
                                       struct rcl_task_progress *out, struct rcl_error *err);

/* rcl_mock_parse_settings() - the task settings of @root ("settings"), defaults where absent. */
enum rcl_status rcl_mock_parse_settings(json_object *root, const char *file, enum rcl_status bad,
                                        struct rcl_ctrl_settings *out, struct rcl_error *err);
/* rcl_mock_settings_json() - store @s as @root's "settings" (an allocation failing leaves nulls).
 */
void rcl_mock_settings_json(json_object *root, const struct rcl_ctrl_settings *s);

/*
 * rcl_mock_commit() - make @next (an edited copy of the controller's JSON,
 * owned by the call) its state: check it, write it over the state file,
 * and refresh the model. On failure nothing has changed.
 */
enum rcl_status rcl_mock_commit(struct rcl_ctrl *ctrl, json_object *next, struct rcl_error *err);

/* The configuration operations (config.c), as backend.h describes them. */
enum rcl_status rcl_mock_create_vd(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                   unsigned *vd, struct rcl_error *err);
enum rcl_status rcl_mock_delete_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                   struct rcl_error *err);
enum rcl_status rcl_mock_delete_config(struct rcl_ctrl *ctrl, bool force, struct rcl_error *err);
enum rcl_status rcl_mock_vd_expansion(struct rcl_ctrl *ctrl, unsigned vd,
                                      struct rcl_vd_expansion *out, struct rcl_error *err);
enum rcl_status rcl_mock_expand_vd(struct rcl_ctrl *ctrl, unsigned vd, uint64_t bytes,
                                   bool expand_array, struct rcl_error *err);
enum rcl_status rcl_mock_set_vd(struct rcl_ctrl *ctrl, unsigned vd,
                                const struct rcl_vd_props *props, struct rcl_error *err);
enum rcl_status rcl_mock_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const unsigned *dgs, size_t dg_count, unsigned flags,
                                      bool force, struct rcl_error *err);
enum rcl_status rcl_mock_delete_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_error *err);
enum rcl_status rcl_mock_set_locate(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref, bool on,
                                    struct rcl_error *err);
enum rcl_status rcl_mock_set_jbod_mode(struct rcl_ctrl *ctrl, bool on, struct rcl_error *err);
enum rcl_status rcl_mock_set_drive_jbod(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                        bool on, bool force, struct rcl_error *err);
enum rcl_status rcl_mock_settings_get(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *out,
                                      struct rcl_error *err);
enum rcl_status rcl_mock_settings_set(struct rcl_ctrl *ctrl, unsigned changes,
                                      const struct rcl_ctrl_settings *s, struct rcl_error *err);
enum rcl_status rcl_mock_schedule_status(struct rcl_ctrl *ctrl, struct rcl_schedule_status *out,
                                         struct rcl_error *err);
enum rcl_status rcl_mock_set_drive_state(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         enum rcl_drive_change change, struct rcl_error *err);
enum rcl_status rcl_mock_insert_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      unsigned dg, unsigned array, unsigned row,
                                      struct rcl_error *err);

#endif /* RCL_MOCK_H */
