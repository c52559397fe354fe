// SPDX-License-Identifier: MIT
/*
 * fuzz-redfish.c - whatever a BMC answers: the input is a document cache
 * as lib/redfish/crawl.c fills it (a JSON object, @odata.id -> resource),
 * with the Storage resource to read under "@storage" (else its first key).
 * The links still wanted (rcl_redfish_wanted()) and the model
 * (rcl_redfish_map()) must come out, or a refusal with a message, never a
 * crash, a leak or a model that points outside itself.
 *
 * The seeds in corpus/fuzz-redfish/ are the Storage resources of
 * tests/redfish/trees/ with everything they link to, written by
 * tests/fuzz/redfish-corpus.py.
 */
#include <string.h>

#include "fuzz.h"
#include "redfish/redfish.h"

#define MAX_INPUT (1 << 20)

static void check_model(const struct rcl_ctrl *c, const struct rcl_redfish_model *m)
{
	for (size_t i = 0; i < c->drive_count; i++) {
		FUZZ_CHECK(m->drive_uri[i]);
		FUZZ_CHECK(c->drives[i].dg < (int)c->dg_count);
		FUZZ_CHECK(c->drives[i].attr_count <= RCL_DRIVE_ATTRS);
	}
	for (size_t i = 0; i < c->vd_count; i++) {
		FUZZ_CHECK(m->vd_uri[i]);
		FUZZ_CHECK(c->vds[i].dg < c->dg_count);
		FUZZ_CHECK(c->vds[i].spans * c->vds[i].drives_per_span > 0);
	}
	FUZZ_CHECK(c->enclosure_count <= c->drive_count + 1);
}

static void map_one(json_object *docs, const char *storage)
{
	struct rcl_ctrl ctrl = {0};
	struct rcl_redfish_model model;
	struct rcl_error err = {0};
	json_object *wanted = json_object_new_array();
	enum rcl_status st;

	FUZZ_CHECK(wanted);
	st = rcl_redfish_wanted(docs, storage, wanted, &err);
	FUZZ_CHECK(!st || err.msg[0]);
	json_object_put(wanted);
	err = (struct rcl_error){0};
	st = rcl_redfish_map(docs, storage, &ctrl, &model, &err);
	if (st)
		FUZZ_CHECK(err.status == st && err.msg[0]);
	else
		check_model(&ctrl, &model);
	rcl_redfish_model_release(&model);
	rcl_free(ctrl.enclosures);
	rcl_free(ctrl.drives);
	rcl_free(ctrl.dgs);
	rcl_free(ctrl.vds);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_tokener *tok;
	json_object *docs, *at = NULL;
	const char *storage = NULL;

	if (size > MAX_INPUT)
		return 0;
	tok = json_tokener_new();
	FUZZ_CHECK(tok);
	docs = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (!json_object_is_type(docs, json_type_object)) {
		json_object_put(docs);
		return 0;
	}
	if (json_object_object_get_ex(docs, "@storage", &at) &&
	    json_object_is_type(at, json_type_string))
		storage = json_object_get_string(at);
	else {
		json_object_object_foreach(docs, key, value)
		{
			(void)value;
			storage = key;
			break;
		}
	}
	if (storage)
		map_one(docs, storage);
	json_object_put(docs);
	return 0;
}
