// SPDX-License-Identifier: MIT
/*
 * create.c - "add controller type=redfish": check the options, read the
 * password once from where the user keeps it, or ask for it (to fail now
 * rather than at every later command), ask every BMC for its Storage
 * resources at once, and register one controller per Storage. All or
 * nothing: a BMC that does not answer fails the whole command, naming it,
 * and nothing is registered.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redfish/redfish.h"
#include "redfish/session.h"
#include "redfish/url.h"

#define MAX_HOSTS 100000

struct create_opts {
	const char *host, *hostsfile, *user, *credfile, *passenv, *cafile, *timeout;
	bool insecure;
};

static enum rcl_status parse_opts(const struct rcl_kv *params, size_t count, struct create_opts *o,
                                  struct rcl_error *err)
{
	static const char *const names[] = {"host",    "hostsfile", "user",    "credfile",
	                                    "passenv", "cafile",    "timeout", "insecure"};
	const char **slots[] = {&o->host,    &o->hostsfile, &o->user,    &o->credfile,
	                        &o->passenv, &o->cafile,    &o->timeout, NULL};

	for (size_t i = 0; i < count; i++) {
		size_t k = 0;

		while (k < sizeof(names) / sizeof(names[0]) && strcmp(names[k], params[i].key))
			k++;
		if (k == sizeof(names) / sizeof(names[0]))
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "unknown option '%s=' for a redfish controller",
			                params[i].key);
		if (slots[k])
			*slots[k] = params[i].value;
		else
			o->insecure = true;
	}
	if (!o->host == !o->hostsfile)
		return rcl_fail(
		    err, o->host ? RCL_INVALID_PARAM : RCL_INVALID_COMMAND,
		    "give one of 'host=' and 'hostsfile=', as in: raidcli add controller "
		    "type=redfish host=https://bmc.example user=root credfile=/root/bmc.pw");
	if (!o->user)
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "missing option 'user=': the BMC account to log in as");
	/* Neither: the password is asked on the terminal, as ssh and sudo ask. */
	if (o->credfile && o->passenv)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "give only one of 'credfile=' (a file only you can read holding "
		                "the password) and 'passenv=' (the environment variable holding "
		                "it), or neither to be asked on the terminal");
	return RCL_OK;
}

/* @path made absolute (commands run from anywhere later), into *@out. */
static enum rcl_status absolute(const char *path, char **out, struct rcl_error *err)
{
	char buf[PATH_MAX];

	*out = NULL;
	if (!path)
		return RCL_OK;
	if (!realpath(path, buf))
		return rcl_fail_errno(err, RCL_INVALID_PARAM, errno, "cannot use '%s': %s", path,
		                      strerror(errno));
	*out = rcl_strdup(buf);
	return *out ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
}

/*
 * What the terminal prompt names, when neither credfile= nor passenv= is
 * given, into *@out (else NULL): the host, or the hosts file, whose BMCs
 * then share one answer.
 */
static enum rcl_status ask_realm(const struct create_opts *o, char **out, struct rcl_error *err)
{
	char *file = NULL;
	struct rcl_buf sb = RCL_BUF_INIT;
	enum rcl_status st;

	*out = NULL;
	if (o->credfile || o->passenv)
		return RCL_OK;
	if (o->host) {
		*out = rcl_strdup(o->host);
		return *out ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	st = absolute(o->hostsfile, &file, err);
	if (!st) {
		rcl_buf_addf(&sb, "the BMCs in %s", file);
		*out = rcl_buf_detach(&sb);
		st = *out ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
	}
	rcl_free(file);
	return st;
}

/* The settings every host shares, into @cfg (url and storage still NULL). */
static enum rcl_status base_config(const struct create_opts *o, struct rcl_redfish_config *cfg,
                                   struct rcl_error *err)
{
	char *end;
	unsigned long t = 0;
	enum rcl_status st;

	memset(cfg, 0, sizeof(*cfg));
	if (o->timeout) {
		errno = 0;
		t = strtoul(o->timeout, &end, 10);
		if (errno || *end || !t || t > 3600)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "timeout '%s' is not a number of seconds from 1 to 3600",
			                o->timeout);
	}
	cfg->timeout_s = (unsigned)t;
	cfg->insecure = o->insecure;
	cfg->user = rcl_strdup(o->user);
	cfg->passenv = o->passenv ? rcl_strdup(o->passenv) : NULL;
	if (!cfg->user || (o->passenv && !cfg->passenv))
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = absolute(o->credfile, &cfg->credfile, err);
	if (!st)
		st = absolute(o->cafile, &cfg->cafile, err);
	if (!st)
		st = ask_realm(o, &cfg->prompt, err);
	return st;
}

/* Append the host URLs of @o (host=, or hostsfile= one a line, # comments) to @hosts. */
static enum rcl_status host_list(const struct create_opts *o, json_object *hosts,
                                 struct rcl_error *err)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	enum rcl_status st;
	char *line, *save;

	if (o->host)
		return json_object_array_add(hosts, json_object_new_string(o->host))
		           ? rcl_fail(err, RCL_NOMEM, "out of memory")
		           : RCL_OK;
	st = rcl_file_read(o->hostsfile, &sb, err);
	if (st == RCL_NOT_FOUND)
		st = rcl_fail(err, RCL_INVALID_PARAM, "hosts file '%s' does not exist",
		              o->hostsfile);
	for (line = st ? NULL : strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, "#")] = '\0';
		line += strspn(line, " \t\r");
		line[strcspn(line, " \t\r")] = '\0';
		if (!*line)
			continue;
		if (json_object_array_length(hosts) == MAX_HOSTS)
			st = rcl_fail(err, RCL_INVALID_PARAM,
			              "hosts file '%s' has more than %d hosts", o->hostsfile,
			              MAX_HOSTS);
		else if (json_object_array_add(hosts, json_object_new_string(line)))
			st = rcl_fail(err, RCL_NOMEM, "out of memory");
		if (st)
			break;
	}
	if (!st && !json_object_array_length(hosts))
		st =
		    rcl_fail(err, RCL_INVALID_PARAM, "hosts file '%s' names no host", o->hostsfile);
	rcl_buf_release(&sb);
	return st;
}

/*
 * struct found - one controller to register: its state and key. The
 * configs own their url and storage; the rest is the shared base's.
 */
struct found {
	struct rcl_redfish_config cfg;
	char key[RCL_KEY_SIZE];
};

struct plan {
	struct rcl_redfish_config base;
	struct rcl_redfish_client **clients;
	char **origins;
	size_t host_count;   /* origins made */
	size_t client_count; /* clients made: the first that failed ends the list */
	struct found *found;
	size_t count;
};

static void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->host_count; i++) {
		rcl_redfish_client_free(p->clients[i]);
		rcl_free(p->origins[i]);
	}
	for (size_t i = 0; i < p->count; i++)
		rcl_free(p->found[i].cfg.storage);
	rcl_free(p->clients);
	rcl_free(p->origins);
	rcl_free(p->found);
	rcl_redfish_config_release(&p->base);
}

/* A client for each host of @hosts (its URL checked and made canonical). */
static enum rcl_status connect_hosts(const struct rcl_ctx *ctx, struct plan *p, json_object *hosts,
                                     struct rcl_error *err)
{
	size_t n = json_object_array_length(hosts);
	enum rcl_status st = RCL_OK;

	p->clients = rcl_calloc(n, sizeof(*p->clients));
	p->origins = rcl_calloc(n, sizeof(*p->origins));
	if (!p->clients || !p->origins)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; !st && i < n; i++) {
		struct rcl_redfish_config cfg = p->base;
		char *host = NULL;

		st = rcl_redfish_url_origin(
		    json_object_get_string(json_object_array_get_idx(hosts, i)), &p->origins[i],
		    &host, err);
		rcl_free(host);
		p->host_count += !!p->origins[i];
		cfg.url = p->origins[i];
		if (!st)
			st = rcl_redfish_client_for(ctx, &cfg, &p->clients[i], err);
		p->client_count += !st;
	}
	return st;
}

/* Every Storage of every host into @p->found; the first host that failed fails it all. */
static enum rcl_status discover(struct plan *p, struct rcl_error *err)
{
	struct rcl_error *errs = rcl_calloc(p->host_count, sizeof(*errs));
	json_object **storages = NULL;
	size_t failed = 0, total = 0;
	enum rcl_status st =
	    errs ? rcl_redfish_storages(p->clients, p->host_count, &storages, errs, err)
	         : rcl_fail(err, RCL_NOMEM, "out of memory");

	for (size_t i = 0; !st && i < p->host_count; i++) {
		failed += errs[i].status != RCL_OK;
		total += storages[i] ? json_object_array_length(storages[i]) : 0;
	}
	for (size_t i = 0; !st && failed && i < p->host_count; i++)
		if (errs[i].status) {
			st = rcl_fail(err, errs[i].status, "%s%s", errs[i].msg,
			              failed > 1 ? " (and more hosts failed)" : "");
			break;
		}
	if (!st && !total)
		st = rcl_fail(err, RCL_NOT_FOUND, "the BMC has no Storage resource to manage");
	if (!st && !(p->found = rcl_calloc(total, sizeof(*p->found))))
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	for (size_t i = 0; !st && i < p->host_count; i++)
		for (size_t k = 0; k < json_object_array_length(storages[i]); k++) {
			struct found *f = &p->found[p->count];

			f->cfg = p->base;
			f->cfg.url = p->origins[i];
			f->cfg.storage = rcl_strdup(
			    json_object_get_string(json_object_array_get_idx(storages[i], k)));
			if (!f->cfg.storage) {
				st = rcl_fail(err, RCL_NOMEM, "out of memory");
				break;
			}
			rcl_redfish_config_key(&f->cfg, f->key);
			p->count++;
		}
	for (size_t i = 0; storages && i < p->host_count; i++)
		json_object_put(storages[i]);
	rcl_free(storages);
	rcl_free(errs);
	return st;
}

static enum rcl_status check_new(const struct rcl_ctx *ctx, const struct plan *p,
                                 struct rcl_error *err)
{
	for (size_t i = 0; i < p->count; i++)
		for (size_t k = 0; k < ctx->count; k++)
			if (ctx->entries[k].ops == &rcl_redfish_ops &&
			    !strcmp(ctx->entries[k].key, p->found[i].key))
				return rcl_fail(err, RCL_EXISTS,
				                "storage '%s' of '%s' is already controller /c%u",
				                p->found[i].cfg.storage, p->found[i].cfg.url,
				                ctx->entries[k].id);
	return RCL_OK;
}

/* Remove the state files of the first @count controllers of @p. */
static void remove_configs(const struct rcl_ctx *ctx, const struct plan *p, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		char *path = rcl_redfish_config_path(ctx, p->found[i].key);

		if (path)
			unlink(path);
		rcl_free(path);
	}
}

/*
 * Recording "created" opens each controller: read them all at once first,
 * over the sessions discovery opened (the reading takes the clients), not
 * logging in to every BMC a second time.
 */
static void prefetch_found(struct rcl_ctx *ctx, struct plan *p)
{
	char(*keys)[RCL_KEY_SIZE] = rcl_calloc(p->count, RCL_KEY_SIZE);

	if (!keys)
		return;
	for (size_t i = 0; i < p->count; i++)
		memcpy(keys[i], p->found[i].key, RCL_KEY_SIZE);
	rcl_redfish_prefetch_with(ctx, keys, p->count, p->clients, p->client_count);
	memset(p->clients, 0, p->client_count * sizeof(*p->clients));
	p->client_count = 0;
	rcl_free(keys);
}

static enum rcl_status register_all(struct rcl_ctx *ctx, struct plan *p, unsigned *id,
                                    struct rcl_error *err)
{
	unsigned *ids = rcl_calloc(p->count, sizeof(*ids));
	const char **keys = rcl_calloc(p->count, sizeof(*keys));
	enum rcl_status st = ids && keys ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
	size_t written = 0;
	int fd = -1;

	if (!st)
		st = rcl_registry_lock(ctx, &fd, err);
	if (!st)
		st = check_new(ctx, p, err);
	for (; !st && written < p->count; written++) {
		keys[written] = p->found[written].key;
		st = rcl_redfish_config_write(ctx, keys[written], &p->found[written].cfg, err);
	}
	/* One write of the registry: one per controller, each of it whole, made adding slow. */
	if (!st)
		st = rcl_registry_add_many(ctx, &rcl_redfish_ops, keys, p->count, ids, err);
	if (st)
		remove_configs(ctx, p, written);
	rcl_free(keys);
	rcl_unlock(fd);
	if (!st)
		prefetch_found(ctx, p);
	for (size_t i = 0; !st && i < p->count; i++)
		rcl_event_record_created(ctx, ids[i]);
	if (!st)
		*id = ids[0];
	rcl_free(ids);
	return st;
}

enum rcl_status rcl_redfish_create(struct rcl_ctx *ctx, const struct rcl_kv *params, size_t count,
                                   unsigned *id, struct rcl_error *err)
{
	struct create_opts o = {0};
	struct plan p = {0};
	json_object *hosts = json_object_new_array();
	enum rcl_status st = hosts ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");

	if (!st)
		st = parse_opts(params, count, &o, err);
	if (!st)
		st = base_config(&o, &p.base, err);
	if (!st)
		st = host_list(&o, hosts, err);
	if (!st)
		st = connect_hosts(ctx, &p, hosts, err);
	if (!st)
		st = discover(&p, err);
	if (!st)
		st = register_all(ctx, &p, id, err);
	/* Log out of every BMC at once before the clients go. */
	rcl_redfish_logout(p.clients, p.client_count, &rcl_redfish_fleet_limits, NULL);
	plan_release(&p);
	json_object_put(hosts);
	return st;
}
