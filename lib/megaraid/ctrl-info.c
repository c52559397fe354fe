// SPDX-License-Identifier: MIT
/*
 * ctrl-info.c - what a MegaRAID card answers to CTRL_GET_INFO as raidcli's
 * controller info, its caps narrowed to what the card reports and the task
 * rates its properties hold (model.h).
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "megaraid/model.h"
#include "megaraid/scan.h"

static const char *host_interface(uint8_t type)
{
	return type & 0x02 ? "PCIe" : type & 0x01 ? "PCI-X" : "";
}

static const char *device_interface(uint8_t type)
{
	return type & 0x10   ? "PCIe"
	       : type & 0x02 ? "SAS-3G"
	       : type & 0x08 ? "SATA-3G"
	       : type & 0x04 ? "SATA-1.5G"
	       : type & 0x01 ? "SPI"
	                     : "";
}

/* The levels a card with raid_levels @bits offers; spanned ones where it spans. */
static unsigned levels_of(uint32_t bits, bool spans)
{
	unsigned levels = 0;

	if (bits & RCL_MFI_RAID_0)
		levels |= 1u << RCL_RAID0 | (spans ? 1u << RCL_RAID00 : 0);
	if (bits & RCL_MFI_RAID_1)
		levels |= 1u << RCL_RAID1 | (spans ? 1u << RCL_RAID10 : 0);
	if (bits & RCL_MFI_RAID_5)
		levels |= 1u << RCL_RAID5 | (spans ? 1u << RCL_RAID50 : 0);
	if (bits & RCL_MFI_RAID_6)
		levels |= 1u << RCL_RAID6 | (spans ? 1u << RCL_RAID60 : 0);
	return levels;
}

/* The firmware version: the "APP" image component's, else the first one's. */
static void fw_version(const struct rcl_mfi_ctrl_info *ci, char *dst, size_t size)
{
	unsigned n = le32toh(ci->image_component_count);

	if (n > 8)
		n = 8;
	dst[0] = '\0';
	for (unsigned i = 0; i < n; i++)
		if (!i || !strncmp(ci->image_component[i].name, "APP", 4))
			rcl_mfi_copy_text(dst, size, ci->image_component[i].version,
			                  sizeof(ci->image_component[i].version));
}

/*
 * The task rates the card's properties hold, each offered (caps) where its
 * adapter_ops bit says the card takes it.
 */
static void fill_rates(struct rcl_caps *caps, struct rcl_ctrl_settings *s,
                       const struct rcl_mfi_ctrl_info *ci)
{
	uint32_t ops = le32toh(ci->adapter_ops);

	memset(s, 0, sizeof(*s));
	caps->settings = 0;
	for (size_t i = 0; i < RCL_RATE_COUNT; i++) {
		const struct rcl_mfi_rate *r = &rcl_mfi_rates[i];

		s->rate[r->setting] = ((const uint8_t *)&ci->props)[r->offset];
		if (ops & r->op)
			caps->settings |= 1u << r->setting;
	}
	/* The patrol read's bits; which SSDs it reads when it reads them is its own (schedule.c).
	 */
	s->pr_uncfg = le32toh(ci->props.on_off) & RCL_MFI_PROP_PR_UNCFG;
	if (!(le32toh(ci->props.on_off) & RCL_MFI_PROP_SSD_PR))
		s->pr_ssds = RCL_PR_SSDS_OFF;
	/* Every MFI card keeps the byte: no adapter_ops bit offers it. */
	s->no_auto_rebuild = ci->props.disable_auto_rebuild;
	caps->settings |= 1u << RCL_SETTING_AUTO_REBUILD;
}

/* The controller's identity and limits, narrowing the kind's caps to what the card reports. */
static void fill_info(struct rcl_ctrl *ctrl, const struct rcl_mfi_ctrl_info *ci)
{
	struct rcl_ctrl_info *info = &ctrl->info;
	struct rcl_caps *caps = &ctrl->caps;
	bool spans = le32toh(ci->adapter_ops) & 0x0100; /* SPANNING_ALLOWED */

	memset(info, 0, sizeof(*info));
	rcl_mfi_copy_text(info->model, sizeof(info->model), ci->product_name,
	                  sizeof(ci->product_name));
	rcl_mfi_copy_text(info->serial, sizeof(info->serial), ci->serial_number,
	                  sizeof(ci->serial_number));
	fw_version(ci, info->firmware, sizeof(info->firmware));
	rcl_mfi_copy_text(info->package, sizeof(info->package), ci->package_version,
	                  sizeof(ci->package_version));
	info->pci_vendor = le16toh(ci->pci_vendor);
	info->pci_device = le16toh(ci->pci_device);
	info->pci_subvendor = le16toh(ci->pci_subvendor);
	info->pci_subdevice = le16toh(ci->pci_subdevice);
	info->nvram_kib = le16toh(ci->nvram_size);
	info->flash_mib = le16toh(ci->flash_size);
	info->ports = ci->device_port_count;
	info->roc_temperature_c = ci->roc_temperature;
	snprintf(info->driver_name, sizeof(info->driver_name), "%s", RCL_MFI_PROC_NAME);
	rcl_mfi_driver_version(info->driver_version, sizeof(info->driver_version));
	snprintf(info->host_interface, sizeof(info->host_interface), "%s",
	         host_interface(ci->host_type));
	snprintf(info->device_interface, sizeof(info->device_interface), "%s",
	         device_interface(ci->device_type));
	snprintf(info->backend, sizeof(info->backend), "megaraid");
	info->max_drives = RCL_MFI_MAX_PDS;
	info->jbod = le32toh(ci->props.on_off) & RCL_MFI_PROP_ENABLE_JBOD;

	caps->levels = levels_of(le32toh(ci->raid_levels), spans && ci->max_spans > 1);
	caps->max_spans = spans ? rcl_mfi_at_most(ci->max_spans, RCL_MAX_SPANS) : 1;
	caps->max_drives_per_span = rcl_mfi_at_most(ci->max_arms, RCL_MAX_DRIVES_PER_SPAN);
	caps->max_dgs = rcl_mfi_at_most(ci->max_arrays, RCL_MAX_DGS);
	caps->max_vds = rcl_mfi_at_most(ci->max_lds, RCL_MAX_VDS);
	if (rcl_mfi_strip_kib(ci->stripe_min) &&
	    rcl_mfi_strip_kib(ci->stripe_max) >= rcl_mfi_strip_kib(ci->stripe_min)) {
		caps->strip_min_kib = rcl_mfi_strip_kib(ci->stripe_min);
		caps->strip_max_kib = rcl_mfi_strip_kib(ci->stripe_max);
	}
	if (caps->strip_default_kib < caps->strip_min_kib ||
	    caps->strip_default_kib > caps->strip_max_kib)
		caps->strip_default_kib = caps->strip_min_kib;
	caps->cache_mib = le16toh(ci->memory_size);
	caps->backup = le32toh(ci->hw_present) & RCL_MFI_HW_BBU ? RCL_BACKUP_BBU : RCL_BACKUP_NONE;
	if (le32toh(ci->hw_present) & RCL_MFI_HW_ALARM)
		caps->parts |= 1u << RCL_PART_ALARM;
}

void rcl_mfi_fill_ctrl(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *settings,
                       const struct rcl_mfi_ctrl_info *ci)
{
	fill_info(ctrl, ci);
	fill_rates(&ctrl->caps, settings, ci);
	/* A card with JBOD enabled takes it whatever its (older) adapter operations say. */
	if (le32toh(ci->adapter_ops2) & RCL_MFI_OPS2_JBOD || ctrl->info.jbod)
		ctrl->caps.settings |= 1u << RCL_SETTING_JBOD;
}
