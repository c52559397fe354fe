// SPDX-License-Identifier: MIT
/*
 * props.c - a MegaRAID adapter's controller properties (config.h): where
 * each task rate sits in them (model.c reads them), and "set" changing
 * them and their on/off bits.
 */
#include <endian.h>
#include <stddef.h>
#include <string.h>

#include "megaraid/config.h"
#include "megaraid/frame.h"

/* Each task rate: the adapter_ops bit saying the card takes it, and its byte in the properties. */
const struct rcl_mfi_rate rcl_mfi_rates[RCL_RATE_COUNT] = {
    {0x0001, RCL_SETTING_REBUILD_RATE, offsetof(struct rcl_mfi_ctrl_props, rebuild_rate)},
    {0x0002, RCL_SETTING_CC_RATE, offsetof(struct rcl_mfi_ctrl_props, cc_rate)},
    {0x0004, RCL_SETTING_BGI_RATE, offsetof(struct rcl_mfi_ctrl_props, bgi_rate)},
    {0x0008, RCL_SETTING_RECON_RATE, offsetof(struct rcl_mfi_ctrl_props, recon_rate)},
    {0x0010, RCL_SETTING_PR_RATE, offsetof(struct rcl_mfi_ctrl_props, patrol_read_rate)},
};

_Static_assert(sizeof(struct rcl_mfi_ctrl_props) <= RCL_MFI_RECORD_MAX, "properties record");

const struct rcl_mfi_record rcl_mfi_props_record = {
    .name = "the controller properties",
    .get = RCL_MFI_DCMD_CTRL_GET_PROPS,
    .set = RCL_MFI_DCMD_CTRL_SET_PROPS,
    .get_name = "CTRL_GET_PROPS",
    .set_name = "CTRL_SET_PROPS",
    .len = sizeof(struct rcl_mfi_ctrl_props),
};

bool rcl_mfi_edit_props(void *rec, const void *arg)
{
	const struct rcl_mfi_props_change *c = arg;
	struct rcl_mfi_ctrl_props *props = rec;

	for (size_t i = 0; i < RCL_RATE_COUNT; i++) {
		const struct rcl_mfi_rate *r = &rcl_mfi_rates[i];

		if (c->settings & 1u << r->setting)
			((uint8_t *)props)[r->offset] = (uint8_t)c->s->rate[r->setting];
	}
	if (c->settings & 1u << RCL_SETTING_AUTO_REBUILD)
		props->disable_auto_rebuild = c->s->no_auto_rebuild;
	props->on_off = htole32((le32toh(props->on_off) & ~c->bits) | (c->on & c->bits));
	return c->settings || c->bits;
}

enum rcl_status rcl_mfi_set_props(const struct rcl_mfi_link *link,
                                  const struct rcl_mfi_props_change *c, struct rcl_error *err)
{
	return rcl_mfi_change_record(link, &rcl_mfi_props_record, rcl_mfi_edit_props, c, err);
}
