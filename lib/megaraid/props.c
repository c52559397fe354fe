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

enum rcl_status rcl_mfi_set_props(const struct rcl_mfi_link *link,
                                  const struct rcl_mfi_props_change *c, struct rcl_error *err)
{
	struct rcl_mfi_ctrl_props props;
	struct rcl_mfi_dcmd d = {.opcode = RCL_MFI_DCMD_CTRL_SET_PROPS,
	                         .buf = &props,
	                         .len = sizeof(props),
	                         .dir = RCL_MFI_DIR_WRITE};
	enum rcl_status st =
	    rcl_mfi_read(link, RCL_MFI_DCMD_CTRL_GET_PROPS, &props, sizeof(props),
	                 "reading the controller properties (CTRL_GET_PROPS)", err);

	if (st)
		return st;
	for (size_t i = 0; i < RCL_RATE_COUNT; i++) {
		const struct rcl_mfi_rate *r = &rcl_mfi_rates[i];

		if (c->settings & 1u << r->setting)
			((uint8_t *)&props)[r->offset] = (uint8_t)c->s->rate[r->setting];
	}
	if (c->settings & 1u << RCL_SETTING_AUTO_REBUILD)
		props.disable_auto_rebuild = c->s->no_auto_rebuild;
	props.on_off = htole32((le32toh(props.on_off) & ~c->bits) | (c->on & c->bits));
	return rcl_mfi_dcmd(link->fd, (uint16_t)link->host_no, &d,
	                    "setting the controller properties (CTRL_SET_PROPS)", err);
}
