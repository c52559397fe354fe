// SPDX-License-Identifier: MIT
/*
 * config.c - a redfish controller's state file: how to reach its BMC and
 * which Storage resource it is. The password stays where the user keeps
 * it (a 0600 file, an environment variable, their head); the state file
 * names the place, so nothing raidcli writes ever holds it.
 */
#include <stdio.h>
#include <string.h>

#include "redfish/credential.h"
#include "redfish/redfish.h"
#include "redfish/url.h"

void rcl_redfish_config_release(struct rcl_redfish_config *cfg)
{
	rcl_free(cfg->url);
	rcl_free(cfg->user);
	rcl_free(cfg->credfile);
	rcl_free(cfg->passenv);
	rcl_free(cfg->prompt);
	rcl_free(cfg->cafile);
	rcl_free(cfg->storage);
	memset(cfg, 0, sizeof(*cfg));
}

char *rcl_redfish_config_path(const struct rcl_ctx *ctx, const char *key)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_addf(&sb, "%s/redfish/%s.json", ctx->state_dir, key);
	return rcl_buf_detach(&sb);
}

/* FNV-1a: stable across runs and builds, which is all a key needs. */
static uint64_t hash(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL; /* a separator: "ab"+"c" != "a"+"bc" */
}

void rcl_redfish_config_key(const struct rcl_redfish_config *cfg, char key[RCL_KEY_SIZE])
{
	uint64_t h = hash(hash(0xcbf29ce484222325ULL, cfg->url), cfg->storage);

	snprintf(key, RCL_KEY_SIZE, "r%016llx", (unsigned long long)h);
}

static enum rcl_status dup_member(json_object *root, const char *key, bool required,
                                  const char *path, char **out, struct rcl_error *err)
{
	const char *s;

	*out = NULL;
	if (!rcl_json_get_str(root, key, &s))
		return required ? rcl_fail(err, RCL_CORRUPT, "'%s' has no string '%s'", path, key)
		                : RCL_OK;
	*out = rcl_strdup(s);
	return *out ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");
}

static enum rcl_status parse(json_object *root, const char *path, struct rcl_redfish_config *cfg,
                             struct rcl_error *err)
{
	json_object *v;
	uint64_t timeout = 0;
	enum rcl_status st = dup_member(root, "url", true, path, &cfg->url, err);

	if (!st)
		st = dup_member(root, "user", true, path, &cfg->user, err);
	if (!st)
		st = dup_member(root, "credfile", false, path, &cfg->credfile, err);
	if (!st)
		st = dup_member(root, "passenv", false, path, &cfg->passenv, err);
	if (!st)
		st = dup_member(root, "prompt", false, path, &cfg->prompt, err);
	if (!st)
		st = dup_member(root, "cafile", false, path, &cfg->cafile, err);
	if (!st)
		st = dup_member(root, "storage", true, path, &cfg->storage, err);
	if (st)
		return st;
	if (!!cfg->credfile + !!cfg->passenv + !!cfg->prompt != 1)
		return rcl_fail(err, RCL_CORRUPT,
		                "'%s' must name one of 'credfile', 'passenv' and 'prompt'", path);
	cfg->insecure =
	    json_object_object_get_ex(root, "insecure", &v) && json_object_get_boolean(v);
	if (json_object_object_get_ex(root, "timeout", &v) &&
	    !rcl_json_get_uint(root, "timeout", 3600, &timeout))
		return rcl_fail(err, RCL_CORRUPT, "'%s' has a bad 'timeout'", path);
	cfg->timeout_s = (unsigned)timeout;
	return RCL_OK;
}

enum rcl_status rcl_redfish_config_read(const struct rcl_ctx *ctx, const char *key,
                                        struct rcl_redfish_config *cfg, struct rcl_error *err)
{
	char *path = rcl_redfish_config_path(ctx, key);
	json_object *root = NULL;
	enum rcl_status st;

	memset(cfg, 0, sizeof(*cfg));
	if (!path)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_state_read(path, &root, err);
	if (st == RCL_NOT_FOUND)
		st = rcl_fail(err, RCL_NOT_FOUND, "redfish controller state '%s' does not exist",
		              path);
	if (!st)
		st = parse(root, path, cfg, err);
	if (st)
		rcl_redfish_config_release(cfg);
	json_object_put(root);
	rcl_free(path);
	return st;
}

static void add_str(json_object *root, const char *key, const char *value)
{
	if (value)
		json_object_object_add(root, key, json_object_new_string(value));
}

enum rcl_status rcl_redfish_config_write(struct rcl_ctx *ctx, const char *key,
                                         const struct rcl_redfish_config *cfg,
                                         struct rcl_error *err)
{
	json_object *root = json_object_new_object();
	char *path = rcl_redfish_config_path(ctx, key);
	enum rcl_status st = root && path ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory");

	if (!st) {
		add_str(root, "url", cfg->url);
		add_str(root, "user", cfg->user);
		add_str(root, "credfile", cfg->credfile);
		add_str(root, "passenv", cfg->passenv);
		add_str(root, "prompt", cfg->prompt);
		add_str(root, "cafile", cfg->cafile);
		add_str(root, "storage", cfg->storage);
		json_object_object_add(root, "insecure", json_object_new_boolean(cfg->insecure));
		if (cfg->timeout_s)
			json_object_object_add(root, "timeout",
			                       json_object_new_int(cfg->timeout_s));
		st = rcl_mkdir_in(ctx->state_dir, "redfish", 0700, err);
	}
	if (!st)
		st = rcl_state_write(path, root, err);
	json_object_put(root);
	rcl_free(path);
	return st;
}

/*
 * The one place the library writes to the terminal: "insecure" must be
 * loud on every command, and results carry no warnings to the CLI (yet).
 * Once per host and command, though: adding a controller logs in twice
 * (to discover its Storages, then to read what it registered). The hosts
 * warned are kept as 64-bit hashes of their messages; past the table's
 * size a host may be warned about twice, never (a collision aside) not
 * at all.
 */
static void warn_insecure(void *arg, const char *msg)
{
	static unsigned long warned[1024];
	static size_t count;
	unsigned long hash = 5381;

	(void)arg;
	for (const char *p = msg; *p; p++)
		hash = hash * 33 + (unsigned char)*p;
	for (size_t i = 0; i < count; i++)
		if (warned[i] == hash)
			return;
	if (count < sizeof(warned) / sizeof(warned[0]))
		warned[count++] = hash;
	fprintf(stderr, "raidcli: warning: %s\n", msg);
}

enum rcl_status rcl_redfish_client_for(const struct rcl_ctx *ctx,
                                       const struct rcl_redfish_config *cfg,
                                       struct rcl_redfish_client **out, struct rcl_error *err)
{
	char *password = NULL;
	enum rcl_status st =
	    cfg->prompt ? rcl_redfish_password_ask(ctx, cfg->user, cfg->prompt, &password, err)
	                : rcl_redfish_password_load(cfg->credfile, cfg->passenv, &password, err);
	struct rcl_redfish_opts opts = {
	    .url = cfg->url,
	    .user = cfg->user,
	    .password = password,
	    .ca_file = cfg->cafile,
	    .insecure = cfg->insecure,
	    .timeout_ms = (long)cfg->timeout_s * 1000,
	    .warn = warn_insecure,
	};

	*out = NULL;
	if (!st)
		st = rcl_redfish_client_new(&opts, out, err);
	rcl_redfish_secret_free(password);
	return st;
}
