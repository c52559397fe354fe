// SPDX-License-Identifier: MIT
/*
 * crawl.c - reading many controllers' resources at once, each on its own:
 * every GET's answer is taken as soon as it arrives, and once a
 * controller has all it asked for, map.c says which links its cache still
 * lacks and those GETs join the same rcl_redfish_run() at once. A
 * command over a thousand controllers takes as long as its slowest
 * controller's chain of GETs (Storage, Volumes, a Volume), not a thousand
 * times one host's time, and a slow host delays only its own chain.
 */
#include <string.h>

#include <json-c/linkhash.h>

#include "redfish/json.h"
#include "redfish/map.h"
#include "redfish/message.h"
#include "redfish/session.h"
#include "redfish/redfish.h"

const struct rcl_redfish_limits rcl_redfish_fleet_limits = {.per_host = 1, .total = 512};

/* Link chains are short (Storage -> collection -> member -> metrics); deeper is a loop. */
#define MAX_LEVELS 8

/*
 * One GET of a crawl, and whose cache (or hop) it fills. The call comes
 * first: a call rcl_redfish_run_next() hands back is its fetch.
 */
struct fetch {
	struct rcl_redfish_call call;
	size_t owner;
	unsigned step;       /* rcl_redfish_storages(): where in the walk */
	size_t slot;         /* in crawl.live */
	struct asked *asked; /* the targets of its client it serves, or NULL */
	char uri[];
};

/*
 * A resource that a target asked its client for (two Storages of a BMC
 * name the same Chassis): its GET under way, with the other targets of
 * that client that wait for it, or once answered its outcome, which a
 * target asking later takes as it is. Each resource of a BMC is read
 * once a crawl.
 */
struct asked {
	struct fetch *live; /* NULL once answered */
	size_t *waiting;    /* targets besides live->owner */
	size_t waiting_count, waiting_alloc;
	json_object *body;    /* the answer */
	struct rcl_error err; /* or why there is none */
	char key[];           /* "client URI" */
};

/*
 * The GETs under way, how many each owner (a target or a client) has,
 * and (rcl_redfish_crawl()) what was asked of which client: key -> asked.
 */
struct crawl {
	struct rcl_redfish_run *run;
	struct fetch **live;
	size_t live_count, live_alloc;
	size_t *pending;
	struct lh_table *asked;
};

static void fetch_free(struct fetch *f)
{
	rcl_redfish_response_release(&f->call.resp);
	rcl_free(f);
}

/*
 * A crawl for @owners (targets or clients), each with GETs to make. A
 * lone BMC (@one_bmc) gets a second connection, its two Storages read side
 * by side, as it waits on the network only; in a fleet each BMC has one
 * (rcl_redfish_fleet_limits): there a second connection is one more TLS
 * handshake on both sides and its buffers on cores the fleet keeps busy
 * (at 110 BMCs, a fifth of raidcli's CPU and a third of the BMCs').
 */
static enum rcl_status crawl_start(struct crawl *cr, size_t owners, bool one_bmc,
                                   struct rcl_error *err)
{
	struct rcl_redfish_limits limits = rcl_redfish_fleet_limits;

	if (one_bmc)
		limits.per_host = 2;
	*cr = (struct crawl){.pending = rcl_calloc(owners ? owners : 1, sizeof(*cr->pending))};
	if (!cr->pending)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	return rcl_redfish_run_new(&limits, &cr->run, err);
}

/* Stop @cr; the GETs still under way are dropped. */
static void crawl_end(struct crawl *cr)
{
	rcl_redfish_run_free(cr->run);
	for (size_t k = 0; k < cr->live_count; k++)
		fetch_free(cr->live[k]);
	rcl_free(cr->live);
	rcl_free(cr->pending);
	if (cr->asked)
		lh_table_free(cr->asked);
}

static void asked_free(struct lh_entry *e)
{
	struct asked *a = (struct asked *)lh_entry_v(e);

	json_object_put(a->body);
	rcl_free(a->waiting);
	rcl_free(a);
}

/* GET @uri from @client for @owner (NULL: only log in); it joins the run at once. */
static enum rcl_status crawl_add(struct crawl *cr, struct rcl_redfish_client *client, size_t owner,
                                 unsigned step, const char *uri, struct rcl_error *err)
{
	size_t len = uri ? strlen(uri) : 0;
	struct fetch *f = rcl_calloc(1, sizeof(*f) + len + 1);

	if (f && cr->live_count == cr->live_alloc) {
		size_t alloc = cr->live_alloc ? 2 * cr->live_alloc : 64;
		struct fetch **live = rcl_realloc(cr->live, alloc * sizeof(*live));

		if (live) {
			cr->live = live;
			cr->live_alloc = alloc;
		}
	}
	if (!f || cr->live_count == cr->live_alloc) {
		rcl_free(f);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	*f = (struct fetch){.call = {.client = client,
	                             .method = RCL_REDFISH_GET,
	                             .path = uri ? f->uri : "/redfish/v1/",
	                             .login_only = !uri,
	                             .resp = {.retry_after = -1}},
	                    .owner = owner,
	                    .step = step,
	                    .slot = cr->live_count};
	memcpy(f->uri, uri ? uri : "", len + 1);
	if (rcl_redfish_run_add(cr->run, &f->call, err)) {
		rcl_free(f);
		return err->status;
	}
	cr->live[cr->live_count++] = f;
	cr->pending[owner]++;
	return RCL_OK;
}

/* The next GET that ended, now the caller's (fetch_free()); NULL when none is left. */
static struct fetch *crawl_next(struct crawl *cr)
{
	struct fetch *f = (struct fetch *)rcl_redfish_run_next(cr->run);

	if (!f)
		return NULL;
	cr->live[f->slot] = cr->live[--cr->live_count];
	cr->live[f->slot]->slot = f->slot;
	cr->pending[f->owner]--;
	return f;
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

/*
 * A crawl's step: logging in (FETCH_LOGIN, which sends nothing of its
 * own), a resource, or the Storage with $expand (FETCH_EXPANDED).
 */
enum { FETCH_LOGIN, FETCH_PLAIN, FETCH_EXPANDED };

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

/* Target @t takes the outcome of @a, answered before it asked. */
static void take_asked(struct rcl_redfish_target *t, const char *uri, const struct asked *a)
{
	if (a->err.status)
		t->err = a->err;
	else
		json_object_object_add(t->docs, uri, json_object_get(a->body));
}

/* Target @i waits for the GET of @a another target made. */
static enum rcl_status wait_for(struct crawl *cr, struct asked *a, size_t i, struct rcl_error *err)
{
	if (a->waiting_count == a->waiting_alloc) {
		size_t alloc = a->waiting_alloc ? 2 * a->waiting_alloc : 4;
		size_t *waiting = rcl_realloc(a->waiting, alloc * sizeof(*waiting));

		if (!waiting)
			return rcl_fail(err, RCL_NOMEM, "out of memory");
		a->waiting = waiting;
		a->waiting_alloc = alloc;
	}
	a->waiting[a->waiting_count++] = i;
	cr->pending[i]++;
	return RCL_OK;
}

/*
 * GET @uri for target @i, unless another target of the same client asked
 * for it already: then wait for that GET, or take what it brought now
 * (*@took).
 */
static enum rcl_status ask(struct crawl *cr, struct rcl_redfish_target *t, size_t i,
                           const char *uri, bool *took, struct rcl_error *err)
{
	struct rcl_buf key = RCL_BUF_INIT;
	struct asked *a = NULL;
	enum rcl_status st = RCL_OK;

	rcl_buf_addf(&key, "%p %s", (void *)t->client, uri);
	if (!key.oom && lh_table_lookup_ex(cr->asked, key.buf, (void **)&a)) {
		rcl_buf_release(&key);
		if (!a->live) {
			take_asked(t, uri, a);
			*took = true;
			return RCL_OK;
		}
		return wait_for(cr, a, i, err);
	}
	a = key.oom ? NULL : rcl_calloc(1, sizeof(*a) + key.len + 1);
	if (a) {
		memcpy(a->key, key.buf, key.len + 1);
		st = crawl_add(cr, t->client, i, FETCH_PLAIN, uri, err);
	}
	rcl_buf_release(&key);
	if (!a || (!st && lh_table_insert(cr->asked, a->key, a))) {
		rcl_free(a);
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	if (st) {
		rcl_free(a);
		return st;
	}
	a->live = cr->live[cr->live_count - 1];
	a->live->asked = a;
	return RCL_OK;
}

/*
 * Ask for the links target @i's cache lacks (a level of them); its
 * failure is its own. Once logged in (the service root read), a service
 * that offers $expand gives the Storage and the rest in one GET: every
 * BMC then answers a handful of requests, not one per drive, nor the
 * Storage twice.
 */
static enum rcl_status plan_level(struct crawl *cr, struct rcl_redfish_target *t, size_t i,
                                  bool *took, struct rcl_error *err)
{
	json_object *wanted = json_object_new_array();
	enum rcl_status st;

	if (!wanted)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	if (!t->expanded && expands(t->client) && !strchr(t->storage, '?')) {
		struct rcl_buf sb = RCL_BUF_INIT;

		t->expanded = true;
		t->levels++;
		rcl_buf_addf(&sb, "%s?$expand=.($levels=2)", t->storage);
		st = sb.buf ? crawl_add(cr, t->client, i, FETCH_EXPANDED, sb.buf, err)
		            : rcl_fail(err, RCL_NOMEM, "out of memory");
		rcl_buf_release(&sb);
		json_object_put(wanted);
		return st;
	}
	st = rcl_redfish_wanted(t->docs, t->storage, wanted, &t->err);
	if (st == RCL_NOMEM)
		*err = t->err;
	if (!st && json_object_array_length(wanted) && ++t->levels > MAX_LEVELS)
		st = rcl_fail(&t->err, RCL_BAD_REPLY,
		              "the links of '%s' go deeper than raidcli follows", t->storage);
	for (size_t k = 0; !st && k < json_object_array_length(wanted); k++)
		st = ask(cr, t, i, json_object_get_string(json_object_array_get_idx(wanted, k)),
		         took, err);
	json_object_put(wanted);
	return st == RCL_NOMEM ? st : RCL_OK;
}

/* Ask for target @i's next level of links; levels its client had read already are taken. */
static enum rcl_status plan(struct crawl *cr, struct rcl_redfish_target *t, size_t i,
                            struct rcl_error *err)
{
	enum rcl_status st;
	bool took;

	do {
		took = false;
		st = plan_level(cr, t, i, &took, err);
	} while (!st && took && !cr->pending[i] && !t->err.status);
	return st;
}

/* What fetch @f brought to its target @t's cache. */
static void take(struct rcl_redfish_target *t, struct fetch *f)
{
	struct rcl_redfish_call *c = &f->call;
	json_object *body;

	if (t->err.status)
		return;
	if (f->step == FETCH_LOGIN) {
		t->err = c->err;
		return;
	}
	/* A refused $expand is no failure: the next level GETs each link. */
	if (f->step == FETCH_EXPANDED) {
		if (!c->err.status && c->resp.body)
			harvest(t->docs, c->resp.body);
		return;
	}
	if (c->err.status) {
		t->err = c->err;
		return;
	}
	if (!body_of(c, &body, &t->err))
		json_object_object_add(t->docs, f->uri, json_object_get(body));
}

/* Target @i takes @f; with nothing more pending, it asks for its next level. */
static enum rcl_status deliver(struct crawl *cr, struct rcl_redfish_target *t, size_t i,
                               struct fetch *f, struct rcl_error *err)
{
	take(t, f);
	/* All it asked for is in: its next level goes now, whatever the others do. */
	if (!cr->pending[i] && !t->err.status)
		return plan(cr, t, i, err);
	return RCL_OK;
}

/* What @f brought, to its owner and to the targets that waited for it. */
static enum rcl_status deliver_all(struct crawl *cr, struct rcl_redfish_target *targets,
                                   struct fetch *f, struct rcl_error *err)
{
	struct asked *a = f->asked;
	enum rcl_status st;

	if (a) {
		a->live = NULL;
		if (f->call.err.status)
			a->err = f->call.err;
		else if (!body_of(&f->call, &a->body, &a->err))
			json_object_get(a->body);
	}
	st = deliver(cr, &targets[f->owner], f->owner, f, err);
	for (size_t k = 0; a && k < a->waiting_count; k++) {
		cr->pending[a->waiting[k]]--;
		if (!st)
			st = deliver(cr, &targets[a->waiting[k]], a->waiting[k], f, err);
	}
	return st;
}

struct rcl_redfish_crawl {
	struct crawl cr;
	struct rcl_redfish_target *targets;
	enum rcl_status st; /* a failure of the whole crawl, and why in @err */
	struct rcl_error err;
};

/* Target @t has its outcome: a failure's cache goes. */
static void settle(struct rcl_redfish_target *t)
{
	if (t->err.status) {
		json_object_put(t->docs);
		t->docs = NULL;
	}
}

enum rcl_status rcl_redfish_crawl_begin(struct rcl_redfish_target *targets, size_t count,
                                        struct rcl_redfish_crawl **out, struct rcl_error *err)
{
	struct rcl_redfish_crawl *c = rcl_calloc(1, sizeof(*c));
	bool one_bmc = true;
	enum rcl_status st;

	for (size_t i = 1; i < count; i++)
		one_bmc = one_bmc && targets[i].client == targets[0].client;
	for (size_t i = 0; i < count; i++)
		targets[i] = (struct rcl_redfish_target){.client = targets[i].client,
		                                         .storage = targets[i].storage};
	st = c ? crawl_start(&c->cr, count, one_bmc, err)
	       : rcl_fail(err, RCL_NOMEM, "out of memory");
	if (!st && !(c->cr.asked = lh_kchar_table_new(64, asked_free)))
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; !st && i < count; i++) {
		targets[i].docs = json_object_new_object();
		st = targets[i].docs
		         ? crawl_add(&c->cr, targets[i].client, i, FETCH_LOGIN, NULL, err)
		         : rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	if (st) {
		for (size_t i = 0; i < count; i++) {
			targets[i].err = *err;
			settle(&targets[i]);
		}
		if (c)
			crawl_end(&c->cr);
		rcl_free(c);
		return st;
	}
	c->targets = targets;
	*out = c;
	return RCL_OK;
}

void rcl_redfish_crawl_wait(struct rcl_redfish_crawl *c, size_t i)
{
	struct fetch *f;

	while (!c->st && c->cr.pending[i] && (f = crawl_next(&c->cr))) {
		c->st = deliver_all(&c->cr, c->targets, f, &c->err);
		fetch_free(f);
	}
	/* Out of memory, a target's cache may lack what its plan could not ask for. */
	if (c->st && !c->targets[i].err.status)
		c->targets[i].err = c->err;
	settle(&c->targets[i]);
}

void rcl_redfish_crawl_end(struct rcl_redfish_crawl *c)
{
	if (!c)
		return;
	crawl_end(&c->cr);
	rcl_free(c);
}

enum rcl_status rcl_redfish_crawl(struct rcl_redfish_target *targets, size_t count,
                                  struct rcl_error *err)
{
	struct rcl_redfish_crawl *c;
	enum rcl_status st = rcl_redfish_crawl_begin(targets, count, &c, err);

	if (st)
		return st;
	for (size_t i = 0; i < count; i++)
		rcl_redfish_crawl_wait(c, i);
	st = c->st;
	if (st) {
		*err = c->err;
		for (size_t i = 0; i < count; i++) {
			if (!targets[i].err.status)
				targets[i].err = c->err;
			settle(&targets[i]);
		}
	}
	rcl_redfish_crawl_end(c);
	return st;
}

/* ------------------------------------------------------------------------
 * Finding the Storage resources of BMCs: service root -> Systems -> each
 * System -> its Storage collection -> the members.
 */

enum step {
	STEP_LOGIN, /* logging in reads the service root */
	STEP_ROOT,
	STEP_SYSTEMS,
	STEP_SYSTEM,
	STEP_STORAGES,
};

/* The next hops from @body, the answer to a @step GET of client @i's. */
static enum rcl_status next_hops(struct crawl *cr, struct rcl_redfish_client *client, size_t i,
                                 enum step step, json_object *body, const char *where,
                                 json_object *found, struct rcl_error *err, struct rcl_error *nomem)
{
	const char *link;
	json_object *members;
	enum rcl_status st;

	if (step == STEP_ROOT || step == STEP_SYSTEM) {
		st = rcl_redfish_link(body, step == STEP_ROOT ? "Systems" : "Storage",
		                      step == STEP_SYSTEM, where, &link, err);
		return st || !link ? st : crawl_add(cr, client, i, step + 1, link, nomem);
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
			st = crawl_add(cr, client, i, STEP_SYSTEM, link, nomem);
		else if (json_object_array_add(found, json_object_new_string(link)))
			st = rcl_fail(nomem, RCL_NOMEM, "out of memory");
	}
	return st;
}

/* Client @i logged in: the hops from its service root, read anew only if the login could not. */
static enum rcl_status after_login(struct crawl *cr, struct rcl_redfish_client *client, size_t i,
                                   json_object *found, struct rcl_error *err,
                                   struct rcl_error *nomem)
{
	json_object *root = rcl_redfish_client_root(client);

	if (!root) /* it wants credentials to be read */
		return crawl_add(cr, client, i, STEP_ROOT, "/redfish/v1/", nomem);
	return next_hops(cr, client, i, STEP_ROOT, root, "/redfish/v1/", found, err, nomem);
}

enum rcl_status rcl_redfish_storages(struct rcl_redfish_client **clients, size_t count,
                                     json_object ***out, struct rcl_error *errs,
                                     struct rcl_error *err)
{
	struct crawl cr = {0};
	struct fetch *f;
	json_object **found = rcl_calloc(count ? count : 1, sizeof(*found));
	enum rcl_status st = found ? crawl_start(&cr, count, count == 1, err)
	                           : rcl_fail(err, RCL_NOMEM, "out of memory");

	for (size_t i = 0; !st && i < count; i++) {
		errs[i] = (struct rcl_error){0};
		found[i] = json_object_new_array();
		st = found[i] ? crawl_add(&cr, clients[i], i, STEP_LOGIN, NULL, err)
		              : rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	while (!st && (f = crawl_next(&cr))) {
		size_t i = f->owner;
		json_object *body;

		if (!errs[i].status && f->call.err.status)
			errs[i] = f->call.err;
		else if (!errs[i].status && f->step == STEP_LOGIN)
			st = after_login(&cr, clients[i], i, found[i], &errs[i], err);
		else if (!errs[i].status && !body_of(&f->call, &body, &errs[i]))
			st = next_hops(&cr, clients[i], i, f->step, body, f->uri, found[i],
			               &errs[i], err);
		if (st == RCL_BAD_REPLY)
			st = RCL_OK; /* that host's own failure, in errs[i] */
		fetch_free(f);
	}
	crawl_end(&cr);
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
