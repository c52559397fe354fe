/* SPDX-License-Identifier: MIT */
/*
 * nvme.h - what the nvme backend's files share. The backend shows the
 * host's NVMe drives as one controller of kind "nvme" (nvme.c): every
 * NVMe controller (a drive, as lsblk and nvme-cli count them) is a drive
 * /cN/e252/sS on one virtual enclosure, its namespaces listed with it.
 * Slots are remembered per drive in the backend's state file (slots.c),
 * so a drive keeps its slot across reboots and hot-plug; the topology
 * comes from libnvme's scan (scan.c); the drive's own data (identify,
 * SMART/health, its log pages through logs.c) is shown by detail.c.
 */
#ifndef RCL_NVME_H
#define RCL_NVME_H

#include <libnvme.h>

#include "internal.h"

/* The backend's ops table (nvme.c); registry.c lists it (lib/meson.build's backend_kinds). */
extern const struct rcl_backend_ops rcl_nvme_ops;
/* rcl_nvme_process - its controller process: the engine's, watching for drives gone (process.c). */
extern const struct rcl_process_ops rcl_nvme_process;

/* The virtual enclosure every NVMe drive sits in, as a soft controller's backplane. */
#define RCL_NVME_ENCLOSURE 252
/* The most drives (NVMe controllers) one host's nvme controller shows. */
#define RCL_NVME_MAX_DRIVES 240
/* A drive's identity as the state file keeps it: "<subsystem NQN> <serial> <cntlid>". */
#define RCL_NVME_ID_SIZE 300

/**
 * struct rcl_nvme_ns - one namespace of a drive, as sysfs describes it.
 * @name:	its block device ("nvme0n1").
 * @in_use:	what uses it, as a phrase ("mounted on /srv", "a member of
 *		md127"), or "" (rcl_nvme_ns_in_use()).
 * @wwn:	its world-wide name: its EUI-64, else its NGUID, in uppercase
 *		hex as StorCLI writes a WWN, or "" when it has neither.
 */
struct rcl_nvme_ns {
	unsigned nsid;
	char name[32];
	char wwn[40];
	uint64_t lba_count;
	unsigned lba_size;
	unsigned meta_size;
	char in_use[96];
};

/**
 * struct rcl_nvme_dev - one NVMe controller found on the host.
 * @name:	its character device ("nvme0").
 * @id:		its identity (RCL_NVME_ID_SIZE), the key of its slot.
 * @address:	its PCI address ("0000:00:04.0"), or the transport's.
 * @link, @max_link: the PCIe link now and at most, "8.0GT/s x4" ("" if
 *		sysfs has none).
 * @ns:		@ns_count namespaces attached to it, by nsid.
 */
struct rcl_nvme_dev {
	char name[32];
	char id[RCL_NVME_ID_SIZE];
	char serial[32];
	char model[48];
	char firmware[16];
	char address[64];
	char transport[16];
	char nqn[224];
	unsigned cntlid;
	char link[24];
	char max_link[24];
	struct rcl_nvme_ns *ns;
	size_t ns_count;
};

/* rcl_nvme_devs_free() - free @count devices from rcl_nvme_scan(). */
void rcl_nvme_devs_free(struct rcl_nvme_dev *devs, size_t count);

/**
 * rcl_nvme_present() - whether the host has any NVMe controller: one
 * directory read, so that opening the registry stays quiet and fast on a
 * host without NVMe (discovery asks on every command).
 */
bool rcl_nvme_present(void);

/**
 * rcl_nvme_scan() - every NVMe controller on the host, by libnvme's
 * topology scan (sysfs only: no device is opened), into *@out (freed with
 * rcl_nvme_devs_free()) and *@count, ordered by name.
 * Return: RCL_OK (none: *@count 0); RCL_SYSTEM; RCL_NOMEM.
 */
enum rcl_status rcl_nvme_scan(struct rcl_nvme_dev **out, size_t *count, struct rcl_error *err);

/**
 * rcl_nvme_ns_in_use() - what uses block device @name ("nvme0n1") or one
 * of its partitions, into @why (@size bytes; "" when nothing does): a
 * holder in sysfs (md, device-mapper), a mount (/proc/mounts), swap
 * (/proc/swaps), or what udev's probe found on it (a file system or other
 * signature, a partition table). Reads no data from the drive. Actions
 * that destroy data refuse such a namespace without force.
 */
void rcl_nvme_ns_in_use(const char *name, char *why, size_t size);

/* Slots (slots.c). */

/**
 * struct rcl_nvme_slot - one slot remembered in the state file.
 * @id:		the identity of the drive it belongs to.
 * @serial, @model: the drive's, to show it while it is missing.
 * @dev:	the index of the drive in the scan when present, else -1.
 */
struct rcl_nvme_slot {
	unsigned slot;
	char id[RCL_NVME_ID_SIZE];
	char serial[32];
	char model[48];
	int dev;
};

/**
 * rcl_nvme_slots_read() - the slots remembered in @root (the state file's
 * JSON, NULL: none yet) into *@out (rcl_free()) and *@count, ordered by
 * slot. Return: RCL_OK; RCL_CORRUPT naming @file; RCL_NOMEM.
 */
enum rcl_status rcl_nvme_slots_read(json_object *root, const char *file, struct rcl_nvme_slot **out,
                                    size_t *count, struct rcl_error *err);

/**
 * rcl_nvme_slots_assign() - give each of the @dev_count drives @devs a
 * slot: the one remembered for its identity, else the lowest slot no
 * drive ever had (a new drive never takes a missing drive's slot, so the
 * others are never renumbered). Sets each slot's @dev; *@changed tells
 * whether a drive was new (the state file must be written).
 * Return: RCL_OK; RCL_NOT_ALLOWED when RCL_NVME_MAX_DRIVES slots are
 * taken; RCL_NOMEM. *@slots is kept ordered by slot.
 */
enum rcl_status rcl_nvme_slots_assign(struct rcl_nvme_slot **slots, size_t *count,
                                      const struct rcl_nvme_dev *devs, size_t dev_count,
                                      bool *changed, struct rcl_error *err);

/* rcl_nvme_slots_json() - @slots as the state file's JSON, or NULL when out of memory. */
json_object *rcl_nvme_slots_json(const struct rcl_nvme_slot *slots, size_t count);

/* Decoding what a drive answers (detail.c); every key is named once, in the node. */

/**
 * rcl_nvme_add_smart() - the SMART/health log @log as section @key of
 * @parent: the critical warning and its bits by name, temperatures,
 * spare, wear, the 128-bit counters (values as nvme-cli's smart-log
 * prints them), error log entries and temperature times.
 */
void rcl_nvme_add_smart(struct rcl_node *parent, const char *key, const struct nvme_smart_log *log);

/* rcl_nvme_add_id_ctrl() - identify controller @id (with @dev's sysfs facts) as section @key. */
void rcl_nvme_add_id_ctrl(struct rcl_node *parent, const char *key, const struct rcl_nvme_dev *dev,
                          const struct nvme_id_ctrl *id);

/*
 * rcl_nvme_add_namespace() - namespace @ns, identified as @id (NULL when
 * it could not be asked: sysfs facts only), as an object of array @list:
 * its size, the LBA format in use and every LBA format it offers.
 */
void rcl_nvme_add_namespace(struct rcl_node *list, const struct rcl_nvme_ns *ns,
                            const struct nvme_id_ns *id);

/*
 * Log pages from the raw bytes a drive returned (@len of them at @page),
 * decoded by logs.c, each as section @key of @parent; a page that does not
 * decode is the section's one "Status" row with the reason.
 */

/* rcl_nvme_add_error_log() - the entries of an error log with a non-zero error count. */
void rcl_nvme_add_error_log(struct rcl_node *parent, const char *key, const void *page, size_t len);

/* rcl_nvme_add_fw_slots() - the firmware slot log, its first @slots slots (id-ctrl FRMW). */
void rcl_nvme_add_fw_slots(struct rcl_node *parent, const char *key, const void *page, size_t len,
                           unsigned slots);

/* rcl_nvme_add_self_test() - the self-test log: the test running, the results newest first. */
void rcl_nvme_add_self_test(struct rcl_node *parent, const char *key, const void *page, size_t len);

/* rcl_nvme_add_sanitize() - the sanitize status log: SSTAT, SPROG, global data erased. */
void rcl_nvme_add_sanitize(struct rcl_node *parent, const char *key, const void *page, size_t len);

/* rcl_nvme_add_telemetry() - a host-initiated telemetry header: what a capture holds. */
void rcl_nvme_add_telemetry(struct rcl_node *parent, const char *key, const void *page, size_t len);

/*
 * rcl_nvme_add_fdp() - an endurance group's FDP configurations, reclaim
 * unit handle usage and statistics logs, as one section.
 */
void rcl_nvme_add_fdp(struct rcl_node *parent, const char *key, const void *configs,
                      size_t configs_len, const void *usage, size_t usage_len, const void *stats,
                      size_t stats_len);

/* rcl_nvme_add_unavailable() - section @key whose one "Status" row says @why it is not shown. */
void rcl_nvme_add_unavailable(struct rcl_node *parent, const char *key, const char *why);

/* rcl_nvme_le128() - a 128-bit little-endian counter, saturated at UINT64_MAX. */
uint64_t rcl_nvme_le128(const uint8_t v[16]);

/* rcl_nvme_critical_warning() - the set bits of a critical warning by name ("None" for 0). */
void rcl_nvme_critical_warning(struct rcl_buf *sb, unsigned bits);

#endif /* RCL_NVME_H */
