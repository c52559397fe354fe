// SPDX-License-Identifier: MIT
/*
 * crawl.c - reading many controllers' resources at once. Every round asks
 * map.c which links the caches lack, then GETs them all, across every BMC,
 * in one rcl_redfish_run(): a command over a thousand controllers takes
 * as many rounds as the deepest link chain (Storage, Volumes, a Volume),
 * each as long as its slowest host, not a thousand times one host's time.
 */
#include <string.h>

#include "redfish/json.h"
#include "redfish/map.h"
#include "redfish/message.h"
#include "redfish/session.h"
#include "redfish/redfish.h"

const struct rcl_redfish_limits rcl_redfish_fleet_limits = {.per_host = 2, .total = 512};

/* Link chains are short (Storage -> collection -> member -> metrics); deeper is a loop. */
#define MAX_ROUNDS 8

/* One GET of a round, and whose cache (or hop) it fills. */
struct fetch {
	size_t owner;
	unsigned step; /* rcl_redfish_storages(): where in the walk */
	char *uri;
};

struct round {
	struct rcl_redfish_call *calls;
	struct fetch *fetches;
	size_t count, alloc;
};

static void round_release(struct round *r)
{
	for (size_t i = 0; i < r->count; i++) {
		rcl_redfish_response_release(&r->calls[i].resp);
		rcl_free(r->fetches[i].uri);
	}
	rcl_free(r->calls);
	rcl_free(r->fetches);
	memset(r, 0, sizeof(*r));
}

static enum rcl_status round_add(struct round *r, struct rcl_redfish_client *client, size_t owner,
                                 unsigned step, const char *uri, struct rcl_error *err)
{
	char *copy = rcl_strdup(uri);

	if (copy && r->count == r->alloc) {
		size_t alloc = r->alloc ? 2 * r->alloc : 64;
		struct rcl_redfish_call *calls = rcl_realloc(r->calls, alloc * sizeof(*calls));
		struct fetch *fetches =
		    calls ? rcl_realloc(r->fetches, alloc * sizeof(*fetches)) : NULL;

		if (calls)
			r->calls = calls;
		if (fetches) {
			r->fetches = fetches;
			r->alloc = alloc;
		}
	}
	if (!copy || r->count == r->alloc) {
		rcl_free(copy);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	r->fetches[r->count] = (struct fetch){.owner = owner, .step = step, .uri = copy};
	r->calls[r->count] = (struct rcl_redfish_call){
	    .client = client, .method = RCL_REDFISH_GET, .path = copy, .resp = {.retry_after = -1}};
	r->count++;
	return RCL_OK;
}

/* The body of call @c, which succeeded, or a bad reply for an empty one. */
static enum rcl_status body_of(struct rcl_redfish_call *c, json_object **out, struct rcl_error *err)
{
	char shown[RCL_QUOTE_MAX + 1];

	*out = c->resp.body;
	if (*out)
		return RCL_OK;
	rcl_redfish_clean(c->path, shown, sizeof(shown));
	return rcl_fail(err, RCL_BAD_REPLY, "GET '%s' from '%s' answered no resource", shown,
	                rcl_redfish_client_host(c->client));
}

/* A crawl's GET: a resource, or the Storage with $expand (FETCH_EXPANDED). */
enum { FETCH_PLAIN, FETCH_EXPANDED };

/* Member @key of @obj when it is a boolean true. */
static bool is_true(json_object *obj, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(obj, key, &v) &&
	       json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

/* Whether @client's service root offers $expand=.($levels=n). */
static bool expands(const struct rcl_redfish_client *client)
{
	json_object *root = rcl_redfish_client_root(client), *features = NULL, *expand = NULL;

	return root && json_object_object_get_ex(root, "ProtocolFeaturesSupported", &features) &&
	       json_object_object_get_ex(features, "ExpandQuery", &expand) &&
	       is_true(expand, "NoLinks") && is_true(expand, "Levels");
}

/*
 * Add every resource @node holds expanded (an object with an @odata.id of
 * its own and more than that) to @docs, unless @docs has it already.
 */
static void harvest(json_object *docs, json_object *node)
{
	json_object *id = NULL;

	if (json_object_is_type(node, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(node); i++)
			harvest(docs, json_object_array_get_idx(node, i));
		return;
	}
	if (!json_object_is_type(node, json_type_object))
		return;
	if (json_object_object_get_ex(node, "@odata.id", &id) &&
	    json_object_is_type(id, json_type_string) && !strchr(json_object_get_string(id), '#') &&
	    json_object_object_length(node) > 1 &&
	    !json_object_object_get_ex(docs, json_object_get_string(id), NULL))
		json_object_object_add(docs, json_object_get_string(id), json_object_get(node));
	json_object_object_foreach(node, key, value)
	{
		(void)key;
		harvest(docs, value);
	}
}

/*
 * Add the links target @i's cache lacks to @r; its failure is its own.
 * Once the Storage is read (and with it the service root), a service that
 * offers $expand gives the rest in one GET: every BMC then answers a
 * handful of requests, not one per drive.
 */
static enum rcl_status plan(struct rcl_redfish_target *t, size_t i, struct round *r,
                            struct rcl_error *err)
{
	json_object *wanted = json_object_new_array();
	enum rcl_status st;

	if (!wanted)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (!t->expanded && rcl_redfish_doc(t->docs, t->storage) && expands(t->client) &&
	    !strchr(t->storage, '?')) {
		struct rcl_buf sb = RCL_BUF_INIT;

		t->expanded = true;
		rcl_buf_addf(&sb, "%s?$expand=.($levels=2)", t->storage);
		st = sb.buf ? round_add(r, t->client, i, FETCH_EXPANDED, sb.buf, err)
		            : rcl_fail(err, RCL_NOMEM, "out of memory");
		rcl_buf_release(&sb);
		json_object_put(wanted);
		return st;
	}
	st = rcl_redfish_wanted(t->docs, t->storage, wanted, &t->err);
	for (size_t k = 0; !st && k < json_object_array_length(wanted); k++)
		st = round_add(r, t->client, i, FETCH_PLAIN,
		               json_object_get_string(json_object_array_get_idx(wanted, k)), err);
	json_object_put(wanted);
	return st == RCL_NOMEM ? st : RCL_OK;
}

static void take(struct rcl_redfish_target *targets, struct round *r)
{
	for (size_t k = 0; k < r->count; k++) {
		struct rcl_redfish_call *c = &r->calls[k];
		struct rcl_redfish_target *t = &targets[r->fetches[k].owner];
		json_object *body;

		if (t->err.status)
			continue;
		/* A refused $expand is no failure: the next round GETs each link. */
		if (r->fetches[k].step == FETCH_EXPANDED) {
			if (!c->err.status && c->resp.body)
				harvest(t->docs, c->resp.body);
			continue;
		}
		if (c->err.status) {
			t->err = c->err;
			continue;
		}
		if (!body_of(c, &body, &t->err))
			json_object_object_add(t->docs, r->fetches[k].uri, json_object_get(body));
	}
}

enum rcl_status rcl_redfish_crawl(struct rcl_redfish_target *targets, size_t count,
                                  struct rcl_error *err)
{
	struct round r = {0};
	enum rcl_status st = RCL_OK;
	unsigned rounds = 0;

	for (size_t i = 0; !st && i < count; i++) {
		targets[i].err = (struct rcl_error){0};
		targets[i].expanded = false;
		targets[i].docs = json_object_new_object();
		if (!targets[i].docs)
			st = rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	do {
		round_release(&r);
		for (size_t i = 0; !st && i < count; i++)
			if (!targets[i].err.status)
				st = plan(&targets[i], i, &r, err);
		if (!st && r.count && ++rounds > MAX_ROUNDS) {
			for (size_t k = 0; k < r.count; k++)
				rcl_fail(&targets[r.fetches[k].owner].err, RCL_BAD_REPLY,
				         "the links of '%s' go deeper than raidcli follows",
				         targets[r.fetches[k].owner].storage);
			break;
		}
		if (!st && r.count)
			st = rcl_redfish_run(r.calls, r.count, &rcl_redfish_fleet_limits, err);
		if (!st)
			take(targets, &r);
	} while (!st && r.count);
	round_release(&r);
	for (size_t i = 0; i < count; i++)
		if (st || targets[i].err.status) {
			json_object_put(targets[i].docs);
			targets[i].docs = NULL;
			if (st && !targets[i].err.status)
				targets[i].err = *err;
		}
	return st;
}

/* ------------------------------------------------------------------------
 * Finding the Storage resources of BMCs: service root -> Systems -> each
 * System -> its Storage collection -> the members.
 */

enum step {
	STEP_ROOT,
	STEP_SYSTEMS,
	STEP_SYSTEM,
	STEP_STORAGES,
};

/* The next hops from @body, the answer to a @step GET of client @i's. */
static enum rcl_status next_hops(struct round *next, struct rcl_redfish_client *client, size_t i,
                                 enum step step, json_object *body, const char *where,
                                 json_object *found, struct rcl_error *err, struct rcl_error *nomem)
{
	const char *link;
	json_object *members;
	enum rcl_status st;

	if (step == STEP_ROOT || step == STEP_SYSTEM) {
		st = rcl_redfish_link(body, step == STEP_ROOT ? "Systems" : "Storage",
		                      step == STEP_SYSTEM, where, &link, err);
		return st || !link ? st : round_add(next, client, i, step + 1, link, nomem);
	}
	st = rcl_redfish_member(body, "Members", json_type_array, false, where, &members, err);
	for (size_t k = 0; !st && k < json_object_array_length(members); k++) {
		json_object *el = json_object_array_get_idx(members, k);

		st = json_object_is_type(el, json_type_object)
		         ? rcl_redfish_string(el, "@odata.id", false, where, &link, err)
		         : rcl_fail(err, RCL_BAD_REPLY, "a member of '%s' is not an object", where);
		if (st)
			break;
		if (step == STEP_SYSTEMS)
			st = round_add(next, client, i, STEP_SYSTEM, link, nomem);
		else if (json_object_array_add(found, json_object_new_string(link)))
			st = rcl_fail(nomem, RCL_NOMEM, "out of memory");
	}
	return st;
}

enum rcl_status rcl_redfish_storages(struct rcl_redfish_client **clients, size_t count,
                                     json_object ***out, struct rcl_error *errs,
                                     struct rcl_error *err)
{
	struct round r = {0}, next = {0};
	json_object **found = rcl_calloc(count ? count : 1, sizeof(*found));
	enum rcl_status st = found ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");

	for (size_t i = 0; !st && i < count; i++) {
		errs[i] = (struct rcl_error){0};
		found[i] = json_object_new_array();
		st = found[i] ? round_add(&r, clients[i], i, STEP_ROOT, "/redfish/v1/", err)
		              : rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	while (!st && r.count) {
		st = rcl_redfish_run(r.calls, r.count, &rcl_redfish_fleet_limits, err);
		for (size_t k = 0; !st && k < r.count; k++) {
			struct rcl_redfish_call *c = &r.calls[k];
			size_t i = r.fetches[k].owner;
			json_object *body;

			if (errs[i].status)
				continue;
			if (c->err.status)
				errs[i] = c->err;
			else if (!body_of(c, &body, &errs[i]))
				st = next_hops(&next, clients[i], i, r.fetches[k].step, body,
				               c->path, found[i], &errs[i], err);
			if (st == RCL_BAD_REPLY)
				st = RCL_OK; /* that host's own failure, in errs[i] */
		}
		round_release(&r);
		r = next;
		next = (struct round){0};
	}
	round_release(&r);
	for (size_t i = 0; found && i < count; i++)
		if (st || errs[i].status) {
			json_object_put(found[i]);
			found[i] = NULL;
		}
	if (st) {
		rcl_free(found);
		found = NULL;
	}
	*out = found;
	return st;
}
