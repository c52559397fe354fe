/* SPDX-License-Identifier: MIT */
/*
 * scan.h - finding MegaRAID adapters and the megaraid_sas driver's
 * management node.
 *
 * The driver registers a character device "megaraid_sas_ioctl" with a
 * dynamic major and no device class, so udev makes no node: every tool
 * (StorCLI too) reads the major from /proc/devices and makes the node
 * itself. Each adapter is a SCSI host whose proc_name is megaraid_sas;
 * its host number selects it in every ioctl, and its PCI address, which
 * survives reboots where host numbers do not, is its registry key
 * ("pci-0000-03-00-0": keys name files).
 *
 * Tests: $RAIDCLI_TEST_MEGARAID_ROOT, when set, is put before every path
 * this file reads or makes (/proc, /sys, /dev), so a test plays the host
 * from a directory tree (tests/megaraid/).
 */
#ifndef RCL_MEGARAID_SCAN_H
#define RCL_MEGARAID_SCAN_H

#include "backend.h"

/* One adapter: its SCSI host number and its registry key (its PCI address). */
struct rcl_mfi_adapter {
	unsigned host_no;
	char key[RCL_KEY_SIZE];
};

/**
 * rcl_mfi_adapters() - the adapters the driver drives, at most @max into
 * @out, ordered by host number; none (RCL_OK, *@count 0) without the driver.
 */
enum rcl_status rcl_mfi_adapters(struct rcl_mfi_adapter *out, size_t max, size_t *count,
                                 struct rcl_error *err);

/*
 * rcl_mfi_pci_address() - the PCI function adapter @host_no hangs off in
 * sysfs ("0000:03:00.0"), into @out; false when it has none.
 */
bool rcl_mfi_pci_address(unsigned host_no, char *out, size_t size);

/**
 * rcl_mfi_open() - open the management node for commands, making it first
 * when it is missing or carries another major (0600, as StorCLI does).
 * Return: RCL_OK and *@fd; RCL_NOT_FOUND (the driver is not loaded);
 * RCL_SYSTEM naming the node and why (not root: the driver wants
 * CAP_SYS_ADMIN).
 */
enum rcl_status rcl_mfi_open(int *fd, struct rcl_error *err);

/* rcl_mfi_driver_version() - the driver's version into @buf ("" when unknown). */
void rcl_mfi_driver_version(char *buf, size_t size);

#endif /* RCL_MEGARAID_SCAN_H */
