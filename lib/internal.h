/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the library's parts share and callers never see: the
 * controller object, the registry and state-file helpers. The backend
 * contract is backend.h.
 */
#ifndef RCL_INTERNAL_H
#define RCL_INTERNAL_H

#include <sys/stat.h>

#include <json-c/json.h>

#include "backend.h"
#include "raidcli.h"

struct rcl_ctrl;

/*
 * RCL_OP() - call backend operation @op of @ctrl as op(@ctrl, ..., @err)
 * (or op(@ctrl, @err) with no more arguments) or, if the backend left it
 * NULL, fail with rcl_unsupported() naming @what ("adding a drive"): the
 * one place that tests an op for NULL.
 */
#define RCL_OP(ctrl, op, what, err, ...)                                                           \
	((ctrl)->entry.ops->op ? (ctrl)->entry.ops->op((ctrl), ##__VA_ARGS__, (err))               \
	                       : rcl_unsupported((err), (ctrl)->caps.kind, (what), NULL))

/*
 * rcl_settings_apply() (settings.c) - copy the settings @changes names (bits
 * of enum rcl_setting) from @src to @dst: for a backend that stores the
 * whole record.
 */
void rcl_settings_apply(struct rcl_ctrl_settings *dst, unsigned changes,
                        const struct rcl_ctrl_settings *src);

/*
 * rcl_drive_present() (drive.c) - drive @ref into *@out: RCL_NOT_FOUND
 * when the controller has none there, RCL_NOT_ALLOWED when it is missing.
 */
enum rcl_status rcl_drive_present(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                  const struct rcl_drive **out, struct rcl_error *err);

/*
 * rcl_drive_check_held() (device.c) - whether drive @d of @ctrl, said as
 * @name ("drive 252:0"), is free of @ctrl's configuration for @what
 * ("formatting"): RCL_NOT_ALLOWED for a disk group's member or a hot
 * spare, naming the group or the command that frees the spare. The one
 * rule of what a controller holds, whoever asks (rcl_drive_check_destroy(),
 * another controller about to take the drive).
 */
enum rcl_status rcl_drive_check_held(const struct rcl_ctrl *ctrl, const struct rcl_drive *d,
                                     const char *name, const char *what, struct rcl_error *err);

/*
 * rcl_drive_check_destroy() (device.c) - whether @what ("formatting"),
 * which @harm ("destroys every block of") drive @ref, may go on, whatever
 * the backend: never on a disk group's member or a hot spare
 * (RCL_NOT_ALLOWED: their data is the group's, take the drive out first);
 * without @force, neither on a drive the host uses (its in_use) nor, with
 * @confirm, on any (RCL_NEED_FORCE). Else as rcl_drive_present().
 */
enum rcl_status rcl_drive_check_destroy(const struct rcl_ctrl *ctrl,
                                        const struct rcl_drive_ref *ref, const char *what,
                                        const char *harm, bool confirm, bool force,
                                        struct rcl_error *err);

/* The VDs of every foreign configuration in @f. */
size_t rcl_foreign_vd_count(const struct rcl_foreign *f);

/* One registered controller: its number, backend, backend-local key and capabilities. */
struct rcl_registry_entry {
	unsigned id;
	const struct rcl_backend_ops *ops;
	char key[RCL_KEY_SIZE];
	struct rcl_caps caps; /* the kind's, or the controller's own (@ctrl_caps) */
	enum rcl_storcli_compat compat;
};

/* What one kind's @prefetch read (backend.h), kept until the context is freed. */
struct rcl_prefetched {
	const struct rcl_backend_ops *ops;
	void *data;
};

struct rcl_ctx {
	char *state_dir;
	struct rcl_registry_entry *entries;
	size_t count;
	unsigned *ids;
	struct rcl_prefetched *prefetched;
	size_t prefetched_count;
	rcl_askpass_fn askpass; /* NULL: cannot ask */
	void *askpass_arg;
};

/* rcl_ctx_prefetched() (registry.c) - what kind @ops's @prefetch read into @ctx, or NULL. */
void *rcl_ctx_prefetched(const struct rcl_ctx *ctx, const struct rcl_backend_ops *ops);
/*
 * rcl_ctx_keep_prefetched() (registry.c) - keep @data, what kind @ops read
 * ahead, in @ctx until it is freed; out of memory, @data is freed now.
 */
void rcl_ctx_keep_prefetched(struct rcl_ctx *ctx, const struct rcl_backend_ops *ops, void *data);

struct rcl_ctrl {
	struct rcl_ctx *ctx;
	struct rcl_registry_entry entry; /* a copy: registry reloads move entries */
	int lock_fd;
	struct rcl_ctrl_info info;
	struct rcl_caps caps; /* the kind's, as @load may have narrowed them */
	struct rcl_enclosure *enclosures;
	size_t enclosure_count;
	struct rcl_drive *drives;
	size_t drive_count;
	struct rcl_dg *dgs;
	size_t dg_count;
	struct rcl_vd *vds;
	size_t vd_count;
	void *priv;
	struct rcl_error event_failure; /* the first event not logged (status 0: none) */
};

/* drive.c */
/* rcl_ctrl_find_drive() - the drive at @ref, or NULL (borrowed from ctrl->drives). */
const struct rcl_drive *rcl_ctrl_find_drive(const struct rcl_ctrl *ctrl,
                                            const struct rcl_drive_ref *ref);
/*
 * rcl_drive_check_usable() - RCL_NOT_ALLOWED if the backend will not use
 * drive @d as it is (d->unusable), saying why and the command that erases
 * it, or while a task overwrites it (d->wiped_by), naming the task; RCL_OK
 * otherwise.
 */
enum rcl_status rcl_drive_check_usable(const struct rcl_ctrl *ctrl, const struct rcl_drive *d,
                                       struct rcl_error *err);

/* Where a task stands, as rcl_task_refuse() needs to know it. */
enum rcl_task_now {
	RCL_TASK_NOW_NONE,      /* not under way */
	RCL_TASK_NOW_UNDER_WAY, /* running or paused: the backend cannot tell which */
	RCL_TASK_NOW_RUNNING,
	RCL_TASK_NOW_PAUSED,
};

/**
 * rcl_task_refuse() (task.c) - StorCLI's refusal, in the soft kind's words,
 * of @req's action on its task when that task stands as @now does not fit
 * it: a START of one under way, a STOP of none, a PAUSE of one not running
 * (none, or paused already), a RESUME of one not paused (none, or
 * running). Every kind's one refusal of these. Return: RCL_OK when the
 * action fits; RCL_NOT_ALLOWED, naming the task and its target.
 */
enum rcl_status rcl_task_refuse(const struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                enum rcl_task_now now, struct rcl_error *err);

/*
 * rcl_foreign_none_found() (foreign.c) - RCL_NOT_FOUND: @ctrl has no
 * foreign configuration to import or delete, in every kind's words.
 */
enum rcl_status rcl_foreign_none_found(const struct rcl_ctrl *ctrl, struct rcl_error *err);

/* vd.c: rcl_vd_check_fits() - what the controller's configuration allows a new VD of @p. */
enum rcl_status rcl_vd_check_fits(const struct rcl_ctrl *ctrl, const struct rcl_vd_params *p,
                                  struct rcl_error *err);
/* rcl_vd_check_exists() - RCL_NOT_FOUND, naming it, unless @ctrl has VD @vd. */
enum rcl_status rcl_vd_check_exists(const struct rcl_ctrl *ctrl, unsigned vd,
                                    struct rcl_error *err);

/*
 * rcl_ctx_entry() (ctrl.c) - controller @id's registry entry into *@out
 * (borrowed from @ctx, until its registry is reloaded); RCL_NOT_FOUND,
 * naming it, when there is none.
 */
enum rcl_status rcl_ctx_entry(const struct rcl_ctx *ctx, unsigned id,
                              const struct rcl_registry_entry **out, struct rcl_error *err);

/* registry.c */
enum rcl_status rcl_registry_add(struct rcl_ctx *ctx, const struct rcl_backend_ops *ops,
                                 const char *key, unsigned *id, struct rcl_error *err);
/*
 * rcl_registry_add_many() - rcl_registry_add() for @count @keys at once,
 * numbered in @ids, with one write of the registry: all of them or none.
 */
enum rcl_status rcl_registry_add_many(struct rcl_ctx *ctx, const struct rcl_backend_ops *ops,
                                      const char *const *keys, size_t count, unsigned *ids,
                                      struct rcl_error *err);
enum rcl_status rcl_registry_remove(struct rcl_ctx *ctx, unsigned id, struct rcl_error *err);
/* The lock that serializes registry changes; release with rcl_unlock(). */
enum rcl_status rcl_registry_lock(struct rcl_ctx *ctx, int *fd, struct rcl_error *err);

/* vd.c */
/*
 * rcl_raid_state() - the state of a VD of @level whose group has @spans
 * spans of @per_span drives, @lost[s] of span s's not holding data: each
 * span (a RAID10 mirror pair, a RAID50/60 span) must keep its redundancy.
 */
enum rcl_vd_state rcl_raid_state(enum rcl_raid_level level, unsigned spans, unsigned per_span,
                                 const unsigned *lost);

/* rcl_raid_min_drives() - the drives one span of @level needs at least. */
unsigned rcl_raid_min_drives(enum rcl_raid_level level);

/* statefile.c */
/*
 * rcl_path_join() - "@dir/@name" in a new string. Return: NULL on OOM.
 */
char *rcl_path_join(const char *dir, const char *name);
/*
 * rcl_state_read() - parse the JSON state file at @path into *@out.
 * Return: RCL_NOT_FOUND if it does not exist, RCL_CORRUPT (naming the file)
 * if it is not valid JSON or not an object, RCL_SYSTEM on read errors.
 */
enum rcl_status rcl_state_read(const char *path, json_object **out, struct rcl_error *err);
/*
 * rcl_state_write() - replace @path by @obj atomically: write a temporary
 * file beside it, fsync, rename over, fsync the directory. A crash leaves
 * either the old or the new file, never a mix.
 */
enum rcl_status rcl_state_write(const char *path, json_object *obj, struct rcl_error *err);
/*
 * rcl_file_read() - append all of @path to @sb. Return: RCL_NOT_FOUND if it
 * does not exist, RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_file_read(const char *path, struct rcl_buf *sb, struct rcl_error *err);
/*
 * rcl_file_replace() - rcl_state_write() for text: @text then @tail, both
 * written to a temporary file that is synced and renamed over @path.
 */
enum rcl_status rcl_file_replace(const char *path, const char *text, const char *tail,
                                 struct rcl_error *err);
/* rcl_write_all() - write all of @data to @fd, retrying short writes. */
enum rcl_status rcl_write_all(int fd, const char *data, size_t len, const char *path,
                              struct rcl_error *err);
/* rcl_lock() - open (creating) @path and flock() it; *@fd holds the lock. */
enum rcl_status rcl_lock(const char *path, enum rcl_lock mode, int *fd, struct rcl_error *err);
void rcl_unlock(int fd);
/* rcl_state_corrupt() - the one message for a damaged state file. */
enum rcl_status rcl_state_corrupt(struct rcl_error *err, const char *path, const char *what);

/* events.c */
/*
 * rcl_event_record() - append an event to @ctrl's log (exclusive lock
 * held); the class and locale follow from @code. Callers record after a
 * change succeeded and ignore a failure here: the change is done, and a log
 * that cannot be written must not misreport it.
 */
enum rcl_status rcl_event_record(struct rcl_ctrl *ctrl, enum rcl_event_code code,
                                 struct rcl_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/*
 * rcl_event_vd_states() - log each VD of @ctrl whose state differs from
 * its state in @before (@before_count VDs, taken before a change).
 */
void rcl_event_vd_states(struct rcl_ctrl *ctrl, const struct rcl_vd *before, size_t before_count);
/* rcl_event_record_created() - log "Controller created" for new controller @id. */
void rcl_event_record_created(struct rcl_ctx *ctx, unsigned id);
/* rcl_event_log_remove() - delete @ctrl's log, as its controller goes. */
void rcl_event_log_remove(const struct rcl_ctrl *ctrl);

/* JSON field readers for state files; false if missing or mistyped. */
bool rcl_json_get_str(json_object *obj, const char *key, const char **out);
bool rcl_json_get_uint(json_object *obj, const char *key, uint64_t max, uint64_t *out);
bool rcl_json_get_bool(json_object *obj, const char *key, bool *out);

/* rcl_random_hex() - @digits random upper-case hex digits into @out. */
enum rcl_status rcl_random_hex(char *out, size_t digits, struct rcl_error *err);

#endif /* RCL_INTERNAL_H */
