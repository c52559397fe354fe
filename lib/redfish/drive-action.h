/* SPDX-License-Identifier: MIT */
/*
 * drive-action.h - raidcli's drive requests as Redfish Drive changes: the locate
 * LED (LocationIndicatorActive, or the older IndicatorLED, whichever the
 * drive has), #Drive.SecureErase, and hot spares (HotspareType and, where
 * the drive has it, HotspareReplacementMode). Each takes the drive's URI
 * and its JSON and ETag as the backend read them; a PATCH sends If-Match,
 * so a drive changed since is refused (412), not overwritten.
 */
#ifndef RCL_REDFISH_DRIVE_ACTION_H
#define RCL_REDFISH_DRIVE_ACTION_H

#include "redfish/action.h"

/**
 * rcl_redfish_drive_locate() - turn the locate LED of drive @uri (@drive
 * as read with ETag @etag, NULL: none) on or off: LocationIndicatorActive
 * true/false, else IndicatorLED Blinking/Off.
 * Return: RCL_OK; RCL_UNSUPPORTED when the drive has neither;
 * rcl_redfish_submit()'s (412: RCL_BUSY).
 */
enum rcl_status rcl_redfish_drive_locate(struct rcl_redfish_client *client, const char *uri,
                                         json_object *drive, const char *etag, bool on,
                                         struct rcl_error *err);

/**
 * rcl_redfish_drive_erase() - start #Drive.SecureErase of drive @uri
 * (@drive as read) with @how: a SanitizationType (CryptographicErase,
 * BlockErase, Overwrite); RCL_ERASE_AUTO the first of those the action
 * allows (its SanitizationType@Redfish.AllowableValues), or the service's
 * choice when it lists none. The drive's Operations[] show the progress.
 * Return: RCL_OK; RCL_UNSUPPORTED (RCL_ERASE_FORMAT, an erase by passes, or no such
 * action); rcl_redfish_action_start()'s.
 */
enum rcl_status rcl_redfish_drive_erase(struct rcl_redfish_client *client, const char *uri,
                                        json_object *drive, enum rcl_erase_mode how,
                                        struct rcl_error *err);

/**
 * rcl_redfish_drive_spare() - make drive @uri (@drive as read with ETag
 * @etag) a global hot spare (@on: HotspareType Global) or no spare (None).
 * @flags (RCL_SPARE_*): NONREVERTIBLE sets HotspareReplacementMode
 * NonRevertible (else Revertible) where the drive has that property.
 * Return: RCL_OK; RCL_UNSUPPORTED when the drive has no HotspareType, for
 * a dedicated spare (@dedicated) and for enclosure affinity, before any
 * request; rcl_redfish_submit()'s.
 */
enum rcl_status rcl_redfish_drive_spare(struct rcl_redfish_client *client, const char *uri,
                                        json_object *drive, const char *etag, bool on,
                                        bool dedicated, unsigned flags, struct rcl_error *err);

#endif /* RCL_REDFISH_DRIVE_ACTION_H */
