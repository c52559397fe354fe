// SPDX-License-Identifier: MIT
/*
 * caps.c - what a controller can do: the names of task kinds and
 * settings, the one failure for an operation a controller cannot do, and
 * the capability checks every kind shares.
 */
#include <stdio.h>

#include "raidcli.h"

const char *rcl_task_kind_name(enum rcl_task_kind kind)
{
	static const char *const names[] = {
	    [RCL_TASK_NONE] = "no task",
	    [RCL_TASK_REBUILD] = "rebuild",
	    [RCL_TASK_CC] = "consistency check",
	    [RCL_TASK_INIT] = "initialization",
	    [RCL_TASK_BGI] = "background initialization",
	    [RCL_TASK_PATROL_READ] = "patrol read",
	    [RCL_TASK_MIGRATE] = "migration",
	    [RCL_TASK_ERASE] = "erase",
	    [RCL_TASK_SELF_TEST] = "self-test",
	    [RCL_TASK_FW_UPDATE] = "firmware update",
	    [RCL_TASK_VD_ERASE] = "virtual drive erase",
	    [RCL_TASK_DRIVE_INIT] = "drive initialization",
	};

	if ((size_t)kind < sizeof(names) / sizeof(names[0]))
		return names[kind];
	return "unknown task";
}

const char *rcl_setting_name(enum rcl_setting setting)
{
	static const char *const names[] = {
	    [RCL_SETTING_REBUILD_RATE] = "rebuild rate",
	    [RCL_SETTING_CC_RATE] = "consistency check rate",
	    [RCL_SETTING_BGI_RATE] = "background initialization rate",
	    [RCL_SETTING_PR_RATE] = "patrol read rate",
	    [RCL_SETTING_RECON_RATE] = "migration rate",
	    [RCL_SETTING_REBUILD_PRIORITY] = "rebuild priority",
	    [RCL_SETTING_CC_SCHEDULE] = "consistency check schedule",
	    [RCL_SETTING_PR_SCHEDULE] = "patrol read schedule",
	    [RCL_SETTING_JBOD] = "JBOD mode",
	    [RCL_SETTING_VD_POLICY] = "virtual drive policy",
	    [RCL_SETTING_AUTO_REBUILD] = "automatic rebuild",
	};

	if ((size_t)setting < sizeof(names) / sizeof(names[0]))
		return names[setting];
	return "unknown setting";
}

const char *rcl_part_name(enum rcl_part part)
{
	static const char *const names[] = {
	    [RCL_PART_BBU] = "a battery backup unit",
	    [RCL_PART_CACHEVAULT] = "a CacheVault",
	    [RCL_PART_CACHE] = "on-board cache memory",
	    [RCL_PART_PHYS] = "SAS or PCIe phys",
	    [RCL_PART_ALARM] = "an alarm",
	    [RCL_PART_SENSORS] = "temperature sensors",
	    [RCL_PART_ENCL_MGMT] = "enclosure management over SES or SGPIO",
	    [RCL_PART_POWER] = "drive power management",
	    [RCL_PART_SECURITY] = "drive security, SED keys and sanitize",
	    [RCL_PART_FLASH] = "a flash ROM for firmware, BIOS and logs",
	    [RCL_PART_FIRMWARE] = "MegaRAID firmware options",
	    [RCL_PART_HEALTH] = "drive health logs",
	};

	if ((size_t)part < sizeof(names) / sizeof(names[0]))
		return names[part];
	return "unknown part";
}

const char *rcl_drive_action_name(enum rcl_drive_action action)
{
	static const char *const names[] = {
	    [RCL_DRIVE_ACTION_NONE] = "no action",
	    [RCL_DRIVE_ACTION_FORMAT] = "formatting a drive",
	    [RCL_DRIVE_ACTION_FW_DOWNLOAD] = "downloading a drive's firmware",
	    [RCL_DRIVE_ACTION_TELEMETRY] = "capturing a drive's telemetry",
	    [RCL_DRIVE_ACTION_NAMESPACE] = "managing a drive's namespaces",
	};

	if ((size_t)action < sizeof(names) / sizeof(names[0]))
		return names[action];
	return "unknown action";
}

static bool caps_have_part(const struct rcl_caps *caps, enum rcl_part part)
{
	switch (part) {
	case RCL_PART_BBU:
		return caps->backup == RCL_BACKUP_BBU;
	case RCL_PART_CACHEVAULT:
		return caps->backup == RCL_BACKUP_CACHEVAULT;
	case RCL_PART_CACHE:
		return caps->cache_mib > 0;
	default:
		return caps->parts & (1u << part);
	}
}

enum rcl_status rcl_caps_check_part(const struct rcl_caps *caps, enum rcl_part part,
                                    const char *what, struct rcl_error *err)
{
	if (caps_have_part(caps, part))
		return RCL_OK;
	return rcl_fail(err, RCL_HW_MISSING, "'%s' (%s) is not supported by this controller (%s)",
	                what, rcl_part_name(part), caps->kind);
}

enum rcl_status rcl_unsupported(struct rcl_error *err, const char *kind, const char *what,
                                const char *hint)
{
	return rcl_fail(err, RCL_UNSUPPORTED, "%s is not supported by this controller (%s)%s%s",
	                what, kind, hint ? "; " : "", hint ? hint : "");
}

enum rcl_status rcl_caps_check_vd(const struct rcl_caps *caps, enum rcl_raid_level level,
                                  unsigned strip_kib, struct rcl_error *err)
{
	char what[64], hint[64];

	if (!(caps->levels & (1u << level))) {
		snprintf(what, sizeof(what), "RAID level %s", rcl_raid_level_name(level));
		/* RAID00 stripes spans of stripes: one RAID0 over the same drives is alike. */
		return rcl_unsupported(err, caps->kind, what,
		                       level == RCL_RAID00 && (caps->levels & 1u << RCL_RAID0)
		                           ? "a RAID0 over the same drives stripes them alike: use "
		                             "type=raid0"
		                           : NULL);
	}
	if (strip_kib && (strip_kib < caps->strip_min_kib || strip_kib > caps->strip_max_kib)) {
		snprintf(what, sizeof(what), "strip=%u", strip_kib);
		snprintf(hint, sizeof(hint), "it takes strips of %u to %u KB", caps->strip_min_kib,
		         caps->strip_max_kib);
		return rcl_unsupported(err, caps->kind, what, hint);
	}
	return RCL_OK;
}
