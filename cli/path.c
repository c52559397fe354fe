// SPDX-License-Identifier: MIT
/*
 * path.c - object paths: "/c0/e252/s0", "/call/vall", "/c0/bbu", glued or
 * apart, into a struct obj_path and the kind of object it addresses.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* Add @id to @set once: "/c0,0" addresses controller 0 once. */
static void add_id(struct id_set *set, unsigned id)
{
	for (size_t i = 0; i < set->count; i++)
		if (set->ids[i] == id)
			return;
	set->ids[set->count++] = id;
}

/* Parse "all", "3", "0-3,5" after the object letter. */
static enum rcl_status parse_selector(const char *text, const char *component, struct id_set *set,
                                      struct rcl_error *err)
{
	const char *p = text;

	set->given = true;
	if (!strcasecmp(text, "all")) {
		set->all = true;
		return RCL_OK;
	}
	while (*p) {
		unsigned long lo, hi;
		char *end;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				goto bad;
			hi = strtoul(end + 1, &end, 10);
		}
		if (hi < lo || hi > 9999)
			goto bad;
		if (hi - lo + 1 > sizeof(set->ids) / sizeof(set->ids[0]) - set->count)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "object '/%s' names more than %zu objects", component,
			                sizeof(set->ids) / sizeof(set->ids[0]));
		for (unsigned long id = lo; id <= hi; id++)
			add_id(set, (unsigned)id);
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	if (!set->count)
		goto bad;
	return RCL_OK;
bad:
	return rcl_fail(err, RCL_INVALID_COMMAND,
	                "invalid object '/%s': expected 'all', a number, a list (0,1) or a range "
	                "(0-3)",
	                component);
}

static const char *const object_names[] = {"c", "e", "s", "v", "d", "f", "p", "ln"};

/* The parts addressed without a number: /cN/bbu, /cN/cv. */
static bool parse_part(const char *comp, struct obj_path *path)
{
	if (!strcasecmp(comp, "bbu"))
		return path->bbu = true;
	if (!strcasecmp(comp, "cv"))
		return path->cv = true;
	return false;
}

static enum rcl_status parse_component(const char *comp, struct obj_path *path,
                                       struct rcl_error *err)
{
	struct id_set *sets[] = {&path->ctrl, &path->encl,    &path->slot, &path->vd,
	                         &path->dg,   &path->foreign, &path->phy,  &path->lane};
	static const char *const examples[] = {"c0", "call", "e252", "eall", "s0",   "sall",
	                                       "v0", "vall", "d0",   "dall", "fall", "bbu",
	                                       "cv", "p0",   "pall", "ln0",  "lnall"};
	const char *hint;
	size_t i, len = 0;

	if (parse_part(comp, path))
		return path->ctrl.given ? RCL_OK
		                        : rcl_fail(err, RCL_INVALID_COMMAND,
		                                   "object '/%s' needs a controller first, as in "
		                                   "/c0/%s",
		                                   comp, comp);
	for (i = 0; i < sizeof(object_names) / sizeof(object_names[0]); i++) {
		len = strlen(object_names[i]);
		if (!strncasecmp(comp, object_names[i], len) &&
		    (isdigit((unsigned char)comp[len]) || !strcasecmp(comp + len, "all")))
			break;
	}
	if (i == sizeof(object_names) / sizeof(object_names[0])) {
		hint = suggest_closest(comp, examples, sizeof(examples) / sizeof(examples[0]));
		if (hint)
			return rcl_fail(err, RCL_INVALID_COMMAND,
			                "unknown object '/%s'; did you mean '/%s'?", comp, hint);
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "unknown object '/%s'; objects are /cN, /cN/eN/sN, /cN/sN, /cN/vN, "
		                "/cN/dN, /cN/fall, /cN/bbu, /cN/cv, /cN/pN and /cN/lnN",
		                comp);
	}
	if (sets[i]->given)
		return rcl_fail(err, RCL_INVALID_COMMAND, "object '/%s' is given twice",
		                object_names[i]);
	/* StorCLI addresses foreign configurations all together only. */
	if (sets[i] == &path->foreign && strcasecmp(comp + 1, "all"))
		return rcl_fail(
		    err, RCL_INVALID_COMMAND,
		    "invalid object '/%s': foreign configurations are addressed as /fall", comp);
	if (i != 0 && !path->ctrl.given)
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "object '/%s' needs a controller first, as in /c0/%s", comp, comp);
	return parse_selector(comp + len, comp, sets[i], err);
}

/* Which kind of object the components given address; error if no kind fits. */
static enum rcl_status classify(struct obj_path *path, struct rcl_error *err)
{
	bool e = path->encl.given, s = path->slot.given, v = path->vd.given, d = path->dg.given;
	bool f = path->foreign.given;
	/* A part (/bbu, /cv, /pN, /lnN) stands alone under its controller. */
	int parts = path->bbu + path->cv + path->phy.given + path->lane.given;

	if (parts && (parts > 1 || e || s || v || d || f))
		return rcl_fail(
		    err, RCL_INVALID_COMMAND,
		    "object path mixes a part (/bbu, /cv, /pN, /lnN) with other objects; "
		    "use /cN/bbu, /cN/cv, /cN/pN or /cN/lnN");
	if (!path->ctrl.given)
		path->kind = OBJ_SYSTEM;
	else if (parts)
		path->kind = path->bbu         ? OBJ_BBU
		             : path->cv        ? OBJ_CV
		             : path->phy.given ? OBJ_PHY
		                               : OBJ_LANE;
	else if (f && !e && !s && !v && !d)
		path->kind = OBJ_FOREIGN;
	else if (f)
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "object path mixes /fall with other objects; use /cN/fall");
	else if (!e && !s && !v && !d)
		path->kind = OBJ_CTRL;
	else if (e && !s && !v && !d)
		path->kind = OBJ_ENCL;
	else if (s && !v && !d)
		path->kind = OBJ_DRIVE;
	else if (v && !e && !s && !d)
		path->kind = OBJ_VD;
	else if (d && !e && !s && !v)
		path->kind = OBJ_DG;
	else
		return rcl_fail(err, RCL_INVALID_COMMAND,
		                "object path mixes objects that do not nest; use /cN/eN/sN, /cN/vN "
		                "or /cN/dN");
	return RCL_OK;
}

enum rcl_status cli_parse_path(const char *const *tokens, size_t count, struct obj_path *path,
                               struct rcl_error *err)
{
	memset(path, 0, sizeof(*path));
	for (size_t t = 0; t < count; t++) {
		char comp[64];
		const char *p = tokens[t];

		while (*p) {
			size_t len;

			while (*p == '/')
				p++;
			len = strcspn(p, "/");
			if (!len)
				break;
			if (len >= sizeof(comp))
				return rcl_fail(err, RCL_INVALID_COMMAND,
				                "object path component '%.20s...' is too long", p);
			memcpy(comp, p, len);
			comp[len] = '\0';
			enum rcl_status st = parse_component(comp, path, err);

			if (st)
				return st;
			p += len;
		}
	}
	return classify(path, err);
}
