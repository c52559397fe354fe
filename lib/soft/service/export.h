/* SPDX-License-Identifier: MIT */
/*
 * export.h - a controller's NBD exports: which VDs are served where (kept
 * in <state>/exports/<backend>-<key>.json, so a restarted process serves
 * them again), and, inside the controller process, the servers themselves.
 *
 * An export is a Unix socket (mode 0600; by default <state>/run/<serial>-
 * v<N>.sock, export name "<serial>-v<N>") or, when an address is given, a
 * TCP listener. The process opens the VD with rcl_soft_volume_open() and
 * serves it with rcl_nbd_server_start(); a member the volume fails is
 * recorded in the configuration from the process's main loop.
 *
 * Commands reach the exports through the backend contract (rcl_ctrl_export_
 * check(), ..., lib/export.c), which the soft backend's ops table points at
 * export.c's (soft.h). They work in and out of the process: outside it
 * they read and change only the persisted list.
 */
#ifndef RCL_SERVER_EXPORT_H
#define RCL_SERVER_EXPORT_H

#include "raidcli.h"

/*
 * rcl_soft_export_needs_force() - why VD @vd of @ctrl must not be served without force
 * (the soft controller's rcl_ctrl_export_needs_force()): it is degraded
 * and dirty (vd_dirty(): md's write hole), as a phrase ("not consistent
 * (never initialized)"), or NULL when it may be (or its force was given:
 * export_force()). "start export" refuses such a VD without force. Force
 * is not persisted: it is for the state the VD was in when it was given,
 * and is forgotten once the VD is safe.
 */
const char *rcl_soft_export_needs_force(const struct rcl_ctrl *ctrl, unsigned vd);

/*
 * rcl_soft_export_waits_for_force() - rcl_soft_export_needs_force() of a VD that was unsafe already
 * when the process started, or NULL (the soft controller's rcl_ctrl_export_waits_for_force()). md
 * does not assemble such an array without --force, and a forced one serves and recovers: the
 * process does not serve the VD's persisted export (show export: "Needs force") and a rebuild waits
 * at it (tasks.c) until "start export force" or "start rebuild force" gives the force, or the VD is
 * no longer degraded (exports_refresh() then serves the export). A VD degraded while the process
 * runs is not held: as md's running array, it recovers onto a spare.
 */
const char *rcl_soft_export_waits_for_force(const struct rcl_ctrl *ctrl, unsigned vd);

/*
 * rcl_soft_export_name() - the name VD @vd's export gets when none is
 * asked, "<serial>-v<vd>", into @buf of @size bytes: the engine's own
 * controller serial (as md's array names have it), which the soft kind
 * shows as its controller's and a hosting kind keeps in its engine state,
 * whatever it shows itself (the nvme kind: the host's name, "(none)"
 * where none is set).
 */
void rcl_soft_export_name(const struct rcl_ctrl *ctrl, unsigned vd, char *buf, size_t size);

/* export_force() - the force for VD @vd was given (only in the controller process). */
void export_force(unsigned vd);

/* In the controller process (serve.c): */
struct rcl_soft_state;
struct rcl_soft_volume;
/* service_open_ctrl() - open controller @id under @lock in a fresh context, for the loop's work. */
enum rcl_status service_open_ctrl(unsigned id, enum rcl_lock lock, struct rcl_ctx **lib,
                                  struct rcl_ctrl **ctrl, struct rcl_error *err);
/* service_soft_state() - @ctrl's soft configuration and drives, or NULL for another backend. */
const struct rcl_soft_state *service_soft_state(const struct rcl_ctrl *ctrl);
/*
 * service_with_ctrl() - open controller @id shared, for the loop's work, and
 * call @fn with it when it is a soft controller; else log that @what
 * ("the patrol read") cannot run.
 */
void service_with_ctrl(unsigned id, const char *what,
                       void (*fn)(unsigned id, struct rcl_ctrl *ctrl));
/*
 * volume_get() - VD @vd's open volume, opened on first use and shared by
 * its export and its background tasks (one volume per VD, so that their
 * stripe locks meet). volume_put(): flush it; the last user closes it.
 */
enum rcl_status volume_get(const struct rcl_soft_state *state, unsigned vd,
                           struct rcl_soft_volume **out, struct rcl_error *err);
void volume_put(struct rcl_soft_volume *vol);
/* exports_start_all() - serve every persisted export of controller @id. */
void exports_start_all(unsigned id);
/* exports_refresh() - after a command: open volumes and exports take the new configuration. */
void exports_refresh(unsigned id);
/* exports_notified() - the notify pipe @fd is readable: handle failed members. */
void exports_notified(int fd, unsigned id);
/* exports_wake() - from any thread: wake the loop (exports_notified(), then the tasks' poll). */
void exports_wake(void);
/* exports_stop_all() - stop every server, flush and close the volumes. */
void exports_stop_all(void);

#endif /* RCL_SERVER_EXPORT_H */
