// SPDX-License-Identifier: MIT
/*
 * slots.c - which slot each NVMe drive has. The kernel numbers NVMe
 * controllers in the order it probes them (nvme0, nvme1...), which moves
 * when a drive is added, removed or slow to answer; a StorCLI path must
 * not. So each drive keeps the slot it was first given, remembered by
 * its identity in the state file:
 *
 *   {"format": 1, "slots": [{"slot": 0, "id": "<nqn> <serial> <cntlid>",
 *                            "serial": "S0", "model": "QEMU NVMe Ctrl"}]}
 *
 * A new drive takes the lowest slot no drive has ever had; a drive that
 * vanished keeps its slot (shown missing) so no other drive moves.
 */
#include <stdlib.h>
#include <string.h>

#include "nvme/nvme.h"

#define SLOTS_FORMAT 1

static int cmp_slot(const void *a, const void *b)
{
	const struct rcl_nvme_slot *x = a, *y = b;

	return (x->slot > y->slot) - (x->slot < y->slot);
}

/* Read one entry of "slots" into @s; false if it is not a slot. */
static bool read_slot(json_object *obj, struct rcl_nvme_slot *s)
{
	const char *id, *serial = "", *model = "";
	uint64_t slot;

	if (!rcl_json_get_uint(obj, "slot", RCL_NVME_MAX_DRIVES - 1, &slot) ||
	    !rcl_json_get_str(obj, "id", &id) || strlen(id) >= sizeof(s->id))
		return false;
	rcl_json_get_str(obj, "serial", &serial);
	rcl_json_get_str(obj, "model", &model);
	memset(s, 0, sizeof(*s));
	s->slot = (unsigned)slot;
	strcpy(s->id, id);
	snprintf(s->serial, sizeof(s->serial), "%s", serial);
	snprintf(s->model, sizeof(s->model), "%s", model);
	s->dev = -1;
	return true;
}

enum rcl_status rcl_nvme_slots_read(json_object *root, const char *file, struct rcl_nvme_slot **out,
                                    size_t *count, struct rcl_error *err)
{
	json_object *list = NULL;
	uint64_t format;
	size_t n;

	*out = NULL;
	*count = 0;
	if (!root)
		return RCL_OK;
	if (!rcl_json_get_uint(root, "format", UINT32_MAX, &format) || format != SLOTS_FORMAT ||
	    !json_object_object_get_ex(root, "slots", &list) ||
	    !json_object_is_type(list, json_type_array))
		return rcl_state_corrupt(err, file, "no \"slots\" list of format 1");
	n = json_object_array_length(list);
	if (n > RCL_NVME_MAX_DRIVES)
		return rcl_state_corrupt(err, file, "more slots than a controller has");
	*out = rcl_calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct rcl_nvme_slot *s = &(*out)[i];
		bool dup = false;

		if (!read_slot(json_object_array_get_idx(list, i), s)) {
			rcl_free(*out);
			*out = NULL;
			return rcl_state_corrupt(err, file, "a slot without a number or identity");
		}
		for (size_t k = 0; k < i; k++)
			dup |= (*out)[k].slot == s->slot || !strcmp((*out)[k].id, s->id);
		if (dup) {
			rcl_free(*out);
			*out = NULL;
			return rcl_state_corrupt(err, file, "a slot or a drive listed twice");
		}
	}
	*count = n;
	if (n)
		qsort(*out, n, sizeof(**out), cmp_slot);
	return RCL_OK;
}

/* The lowest slot number not in @slots (ordered by slot), or RCL_NVME_MAX_DRIVES. */
static unsigned lowest_free(const struct rcl_nvme_slot *slots, size_t count)
{
	unsigned next = 0;

	for (size_t i = 0; i < count && slots[i].slot == next; i++)
		next++;
	return next;
}

/* Give device @d (index @dev) a new slot in *@slots. */
static enum rcl_status new_slot(struct rcl_nvme_slot **slots, size_t *count,
                                const struct rcl_nvme_dev *d, int dev, struct rcl_error *err)
{
	unsigned number = lowest_free(*slots, *count);
	struct rcl_nvme_slot *grown, *s;

	if (number >= RCL_NVME_MAX_DRIVES)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "NVMe drive %s (serial '%s') finds no free slot: %d are remembered",
		                d->name, d->serial, RCL_NVME_MAX_DRIVES);
	grown = rcl_realloc(*slots, (*count + 1) * sizeof(*grown));
	if (!grown)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	*slots = grown;
	s = &grown[(*count)++];
	memset(s, 0, sizeof(*s));
	s->slot = number;
	snprintf(s->id, sizeof(s->id), "%s", d->id);
	snprintf(s->serial, sizeof(s->serial), "%s", d->serial);
	snprintf(s->model, sizeof(s->model), "%s", d->model);
	s->dev = dev;
	qsort(*slots, *count, sizeof(**slots), cmp_slot);
	return RCL_OK;
}

enum rcl_status rcl_nvme_slots_assign(struct rcl_nvme_slot **slots, size_t *count,
                                      const struct rcl_nvme_dev *devs, size_t dev_count,
                                      bool *changed, struct rcl_error *err)
{
	enum rcl_status st = RCL_OK;

	*changed = false;
	for (size_t i = 0; i < *count; i++)
		(*slots)[i].dev = -1;
	for (size_t d = 0; !st && d < dev_count; d++) {
		size_t i = 0;

		while (i < *count && strcmp((*slots)[i].id, devs[d].id))
			i++;
		if (i < *count) {
			(*slots)[i].dev = (int)d;
			continue;
		}
		st = new_slot(slots, count, &devs[d], (int)d, err);
		*changed |= !st;
	}
	return st;
}

/* Add @value (NULL: an allocation failed) to @obj as @key; false on failure. */
static bool add(json_object *obj, const char *key, json_object *value)
{
	if (value && !json_object_object_add(obj, key, value))
		return true;
	json_object_put(value);
	return false;
}

json_object *rcl_nvme_slots_json(const struct rcl_nvme_slot *slots, size_t count)
{
	json_object *root = json_object_new_object(), *list = json_object_new_array();
	bool ok = root && list;

	for (size_t i = 0; ok && i < count; i++) {
		json_object *s = json_object_new_object();

		ok = s && !json_object_array_add(list, s);
		if (!ok) {
			json_object_put(s);
			break;
		}
		ok = add(s, "slot", json_object_new_int64(slots[i].slot)) &&
		     add(s, "id", json_object_new_string(slots[i].id)) &&
		     add(s, "serial", json_object_new_string(slots[i].serial)) &&
		     add(s, "model", json_object_new_string(slots[i].model));
	}
	ok = ok && add(root, "format", json_object_new_int(SLOTS_FORMAT));
	if (ok)
		ok = add(root, "slots", list);
	else
		json_object_put(list);
	if (!ok) {
		json_object_put(root);
		return NULL;
	}
	return root;
}
