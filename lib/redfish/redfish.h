/* SPDX-License-Identifier: MIT */
/*
 * redfish.h - what the redfish backend's files share. A redfish
 * controller is one Storage resource of one BMC, reached over DMTF
 * Redfish with the HTTP client of http.h.
 *
 * How a controller is read: crawl.c fetches, for many controllers at
 * once, every resource its model needs into a document cache (a JSON
 * object: @odata.id -> resource), following only the links the service
 * gave (map.c says which: rcl_redfish_wanted()); map.c then turns one
 * cache into the model with pure functions (no I/O), which the fuzz
 * target tests/fuzz/fuzz-redfish.c feeds with arbitrary caches.
 *
 * The state file <state dir>/redfish/<key>.json holds how to reach the
 * BMC (config.c): its URL, the user, and where the password is (a 0600
 * file's path, an environment variable's name, or "ask"), never the
 * password.
 */
#ifndef RCL_REDFISH_H
#define RCL_REDFISH_H

#include "internal.h"
#include "redfish/http.h"

/* The backend's ops table (backend.c); registry.c lists it. */
extern const struct rcl_backend_ops rcl_redfish_ops;

/* The enclosure id of a Storage's first enclosure (Chassis), as a soft controller's. */
#define RCL_REDFISH_FIRST_EID 252

/**
 * struct rcl_redfish_config - how to reach one controller, as its state
 * file keeps it. Strings are owned (rcl_redfish_config_release()).
 * @url:	the BMC, "https://host[:port]".
 * @user:	the account.
 * @credfile:	the password's file (0600), or NULL.
 * @passenv:	the environment variable holding the password, or NULL.
 * @prompt:	or else what to ask the password for, on a terminal, at
 *		every command (once per shell session): the BMC's URL, or
 *		"the BMCs in FILE" for a hosts file's. Exactly one of the
 *		three is set.
 * @cafile:	the CAs to verify the BMC with, or NULL: the system's.
 * @insecure:	do not verify the BMC's certificate (warned about).
 * @timeout_s:	the whole-request timeout in seconds, 0: the client's.
 * @storage:	the Storage resource's @odata.id.
 */
struct rcl_redfish_config {
	char *url;
	char *user;
	char *credfile;
	char *passenv;
	char *prompt;
	char *cafile;
	bool insecure;
	unsigned timeout_s;
	char *storage;
};

void rcl_redfish_config_release(struct rcl_redfish_config *cfg);

/*
 * rcl_redfish_config_read() - controller @key's state file into @cfg.
 * Return: RCL_OK; RCL_NOT_FOUND (no state file); RCL_CORRUPT naming it.
 */
enum rcl_status rcl_redfish_config_read(const struct rcl_ctx *ctx, const char *key,
                                        struct rcl_redfish_config *cfg, struct rcl_error *err);
/* rcl_redfish_config_write() - @cfg as controller @key's state file (0600). */
enum rcl_status rcl_redfish_config_write(struct rcl_ctx *ctx, const char *key,
                                         const struct rcl_redfish_config *cfg,
                                         struct rcl_error *err);
/* rcl_redfish_config_path() - controller @key's state file, a new string (NULL: OOM). */
char *rcl_redfish_config_path(const struct rcl_ctx *ctx, const char *key);
/*
 * rcl_redfish_config_key() - the registry key of @cfg's controller, stable
 * for one host and Storage resource: "r" and 16 hex digits of their hash.
 */
void rcl_redfish_config_key(const struct rcl_redfish_config *cfg, char key[RCL_KEY_SIZE]);

/*
 * rcl_redfish_client_for() - a client for @cfg's BMC, its password read
 * from the file or variable @cfg names, or asked through @ctx. Return:
 * RCL_OK and *@out; the failures of rcl_redfish_password_load(),
 * rcl_redfish_password_ask() and rcl_redfish_client_new().
 */
enum rcl_status rcl_redfish_client_for(const struct rcl_ctx *ctx,
                                       const struct rcl_redfish_config *cfg,
                                       struct rcl_redfish_client **out, struct rcl_error *err);

/*
 * rcl_redfish_fleet_limits (crawl.c) - how a fleet's runs keep many BMCs
 * busy at once: one connection per BMC (they serve few, and a second
 * one's TLS handshake costs a busy fleet more than it saves; a lone BMC
 * gets two), and hundreds in all (http.h's default of 64 would queue a
 * thousand hosts).
 */
extern const struct rcl_redfish_limits rcl_redfish_fleet_limits;

/**
 * struct rcl_redfish_target - one controller to read, for rcl_redfish_crawl().
 * @client:	its BMC (controllers of one BMC share one client).
 * @storage:	its Storage resource's @odata.id (borrowed).
 * @docs:	out: the cache, @odata.id -> resource (owned; NULL on failure).
 * @err:	out: RCL_OK, or why the controller could not be read.
 * @expanded, @levels: the crawl's own: whether it asked for the Storage
 *		expanded, and how deep in its links it went.
 */
struct rcl_redfish_target {
	struct rcl_redfish_client *client;
	const char *storage;
	json_object *docs;
	struct rcl_error err;
	bool expanded;
	unsigned levels;
};

/**
 * rcl_redfish_crawl() - read every resource @count @targets' models need,
 * concurrently across all their BMCs, into each target's @docs: each
 * target asks for the links its last answers gave as soon as they are
 * all in, so a slow BMC delays only its own targets; a resource that
 * targets of one BMC share (their Chassis) is read once. A target's
 * failure (its BMC dead, a resource refused or malformed) is its own.
 * Return: RCL_OK once every target has its outcome; RCL_NOMEM.
 */
enum rcl_status rcl_redfish_crawl(struct rcl_redfish_target *targets, size_t count,
                                  struct rcl_error *err);

/*
 * A crawl that its caller runs a target at a time, as it needs them: a
 * command over a thousand BMCs takes each controller's cache as soon as
 * it is read and frees it once shown, while the other BMCs are still read
 * alongside, so only the caches under way or not yet shown are held (a
 * hundred or two of 2020), not all of them.
 *
 * rcl_redfish_crawl_begin() - start reading @count @targets, which must
 * outlive the crawl, as rcl_redfish_crawl() does; it returns at once.
 * Return: RCL_OK; RCL_NOMEM (every target then failed with it, no crawl).
 *
 * rcl_redfish_crawl_wait() - run @crawl until target @i has its outcome
 * (@docs, or @err), the others' GETs going on meanwhile. A failure of the
 * whole crawl (out of memory) is the outcome of every target not read by then.
 *
 * rcl_redfish_crawl_end() - stop @crawl; the GETs still under way are
 * dropped. The targets' @docs stay theirs.
 */
struct rcl_redfish_crawl;
enum rcl_status rcl_redfish_crawl_begin(struct rcl_redfish_target *targets, size_t count,
                                        struct rcl_redfish_crawl **out, struct rcl_error *err);
void rcl_redfish_crawl_wait(struct rcl_redfish_crawl *crawl, size_t i);
void rcl_redfish_crawl_end(struct rcl_redfish_crawl *crawl);

/*
 * rcl_redfish_storages() - the @odata.id of every Storage resource of the
 * BMCs of @count @clients, crawled concurrently from their service roots
 * (Systems -> each System's Storage -> its members): (*@out)[i] is a JSON
 * array of strings for client i, or NULL with @errs[i] saying why.
 * Return: RCL_OK; RCL_NOMEM.
 */
enum rcl_status rcl_redfish_storages(struct rcl_redfish_client **clients, size_t count,
                                     json_object ***out, struct rcl_error *errs,
                                     struct rcl_error *err);

/* map.c: the model from a cache, pure. */

/*
 * rcl_redfish_wanted() - add to array @out (strings) each @odata.id the
 * model of the Storage at @storage needs that @docs does not hold yet,
 * as far as what @docs holds links to it; each once.
 * Return: RCL_OK; RCL_BAD_REPLY for a link of the wrong shape; RCL_NOMEM.
 */
enum rcl_status rcl_redfish_wanted(json_object *docs, const char *storage, json_object *out,
                                   struct rcl_error *err);

/**
 * struct rcl_redfish_model - the model of one controller and, for every
 * drive and VD, the resource it came from (so actions find their URI).
 * @drive_uri[i]: ctrl->drives[i]'s Drive, @vd_uri[i]: ctrl->vds[i]'s
 *		Volume (borrowed from the cache); @volumes: the Volumes
 *		collection, or NULL.
 */
struct rcl_redfish_model {
	const char **drive_uri;
	const char **vd_uri;
	const char *volumes;
};

/*
 * rcl_redfish_map() - fill @ctrl's info, caps (narrowed), enclosures,
 * drives, groups and VDs, and @model, from @docs (complete for @storage:
 * rcl_redfish_wanted() gives nothing). @host names the BMC in messages.
 * Return: RCL_OK; RCL_BAD_REPLY naming the resource and property that is
 * missing or wrong; RCL_NOMEM. On failure the caller frees @ctrl's
 * arrays and rcl_redfish_model_release(@model) as after success.
 */
enum rcl_status rcl_redfish_map(json_object *docs, const char *storage, struct rcl_ctrl *ctrl,
                                struct rcl_redfish_model *model, struct rcl_error *err);

void rcl_redfish_model_release(struct rcl_redfish_model *model);

struct rcl_redfish_fleet;

/*
 * rcl_redfish_prefetch_with() (backend.c) - the ops' @prefetch for the
 * controllers @keys, kept in @ctx for their @load, taking @clients (logged
 * in already, the caller's no more): a controller of the same URL and
 * user uses one of them instead of logging in again. Best effort, as
 * @prefetch: a controller it did not read is read alone.
 */
void rcl_redfish_prefetch_with(struct rcl_ctx *ctx, const char (*keys)[RCL_KEY_SIZE], size_t count,
                               struct rcl_redfish_client **clients, size_t client_count);

/* rcl_redfish_create() (create.c) - the ops' @create: hosts, credentials, Storage discovery. */
enum rcl_status rcl_redfish_create(struct rcl_ctx *ctx, const struct rcl_kv *params, size_t count,
                                   unsigned *id, struct rcl_error *err);

/**
 * struct rcl_redfish_priv - an open redfish controller (ctrl->priv).
 * @own:	what read it when it was read alone (not prefetched): the
 *		owner of @cfg and @client.
 * @cfg:	its state file (borrowed from the fleet that read it).
 * @client:	its BMC, logged in once a request ran (actions use it).
 * @docs:	the cache the model was read from.
 * @model:	where each drive and VD came from.
 */
struct rcl_redfish_priv {
	struct rcl_redfish_fleet *own;
	const struct rcl_redfish_config *cfg;
	struct rcl_redfish_client *client;
	json_object *docs;
	struct rcl_redfish_model model;
};

/*
 * rcl_redfish_refresh() - read @ctrl's model again from its BMC (after an
 * action changed it), replacing ctrl's arrays and priv's cache.
 */
enum rcl_status rcl_redfish_refresh(struct rcl_ctrl *ctrl, struct rcl_error *err);

/* rcl_redfish_drive_uri() - the Drive resource of @ctrl's drive @ref, or NULL. */
const char *rcl_redfish_drive_uri(const struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref);
/* rcl_redfish_vd_uri() - the Volume resource of @ctrl's VD @vd, or NULL. */
const char *rcl_redfish_vd_uri(const struct rcl_ctrl *ctrl, unsigned vd);

/* The task progress (Operations[] of drives and volumes), as backend.h describes it. */
enum rcl_status rcl_redfish_task_progress(const struct rcl_ctrl *ctrl,
                                          const struct rcl_task_request *req,
                                          struct rcl_task_progress *out, struct rcl_error *err);
/* The drive's Redfish facts for "show all" (its URI, Id, Status, Operations). */
enum rcl_status rcl_redfish_drive_detail(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                                         enum rcl_drive_detail what, const char *prefix,
                                         struct rcl_node *out, struct rcl_error *err);

/*
 * change.c: the changing operations, as backend.h describes them. A
 * delete and an erase need force: raidcli cannot see through the BMC
 * whether the data matters. A rebuild or check is started by the BMC's
 * controller itself, and Redfish cannot stop, pause or resume a task.
 */
enum rcl_status rcl_redfish_create_vd(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                      unsigned *vd, struct rcl_error *err);
enum rcl_status rcl_redfish_delete_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                      struct rcl_error *err);
enum rcl_status rcl_redfish_set_vd(struct rcl_ctrl *ctrl, unsigned vd,
                                   const struct rcl_vd_props *props, struct rcl_error *err);
enum rcl_status rcl_redfish_set_locate(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                       bool on, struct rcl_error *err);
enum rcl_status rcl_redfish_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         const unsigned *dgs, size_t dg_count, unsigned flags,
                                         bool force, struct rcl_error *err);
enum rcl_status rcl_redfish_delete_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                            struct rcl_error *err);
enum rcl_status rcl_redfish_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       struct rcl_error *err);
enum rcl_status rcl_redfish_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                 struct rcl_error *err);

#endif /* RCL_REDFISH_H */
