// SPDX-License-Identifier: MIT
/*
 * lookup.c - questions asked of a parsed configuration: a group or VD by
 * id, how many spares, how many drives a group has and holds (config.c
 * reads and writes the record itself).
 */
#include "config.h"

const struct rcl_soft_dg *rcl_soft_config_dg(const struct rcl_soft_config *cfg, unsigned id)
{
	for (size_t i = 0; i < cfg->dg_count; i++)
		if (cfg->dgs[i].id == id)
			return &cfg->dgs[i];
	return NULL;
}

const struct rcl_soft_vd *rcl_soft_config_vd(const struct rcl_soft_config *cfg, unsigned id)
{
	for (size_t i = 0; i < cfg->vd_count; i++)
		if (cfg->vds[i].id == id)
			return &cfg->vds[i];
	return NULL;
}

size_t rcl_soft_config_spares(const struct rcl_soft_config *cfg)
{
	size_t n = cfg->spare_count;

	for (size_t i = 0; i < cfg->dg_count; i++)
		n += cfg->dgs[i].spare_count;
	return n;
}

unsigned rcl_soft_dg_members(const struct rcl_soft_dg *dg)
{
	return dg->spans * dg->drives_per_span;
}

unsigned rcl_soft_dg_held(const struct rcl_soft_dg *dg)
{
	unsigned n = rcl_soft_dg_members(dg);

	return dg->migrate.active && dg->migrate.drives > n ? dg->migrate.drives : n;
}
