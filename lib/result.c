// SPDX-License-Identifier: MIT
/*
 * result.c - the result tree (struct rcl_node) and the per-controller
 * results of a command (struct rcl_reply). See raidcli.h.
 */
#include <string.h>

#include "raidcli.h"

struct rcl_node {
	enum rcl_node_kind kind;
	unsigned flags;
	bool oom; /* an allocation below this node failed */
	char *key;
	char *label;
	char *legend;
	char *str;
	long long num;
	struct rcl_node **kids;
	size_t count;
	size_t alloc;
};

static struct rcl_node *node_new(enum rcl_node_kind kind)
{
	struct rcl_node *node = rcl_calloc(1, sizeof(*node));

	if (node)
		node->kind = kind;
	return node;
}

struct rcl_node *rcl_node_new_object(void)
{
	return node_new(RCL_NODE_OBJECT);
}

struct rcl_node *rcl_node_new_array(void)
{
	return node_new(RCL_NODE_ARRAY);
}

void rcl_node_free(struct rcl_node *node)
{
	if (!node)
		return;
	for (size_t i = 0; i < node->count; i++)
		rcl_node_free(node->kids[i]);
	rcl_free(node->kids);
	rcl_free(node->key);
	rcl_free(node->label);
	rcl_free(node->legend);
	rcl_free(node->str);
	rcl_free(node);
}

/* Append a new child of @kind; on any failure mark @parent and return NULL. */
static struct rcl_node *node_append(struct rcl_node *parent, const char *key,
                                    enum rcl_node_kind kind)
{
	struct rcl_node *child;

	if (!parent)
		return NULL;
	if (parent->count == parent->alloc) {
		size_t alloc = parent->alloc ? parent->alloc * 2 : 8;
		struct rcl_node **kids = rcl_realloc(parent->kids, alloc * sizeof(*kids));

		if (!kids)
			goto oom;
		parent->kids = kids;
		parent->alloc = alloc;
	}
	child = node_new(kind);
	if (!child)
		goto oom;
	if (key && !(child->key = rcl_strdup(key))) {
		rcl_free(child);
		goto oom;
	}
	parent->kids[parent->count++] = child;
	return child;
oom:
	parent->oom = true;
	return NULL;
}

struct rcl_node *rcl_node_add_object(struct rcl_node *parent, const char *key)
{
	return node_append(parent, key, RCL_NODE_OBJECT);
}

struct rcl_node *rcl_node_add_array(struct rcl_node *parent, const char *key)
{
	return node_append(parent, key, RCL_NODE_ARRAY);
}

struct rcl_node *rcl_node_add_str(struct rcl_node *parent, const char *key, const char *value)
{
	struct rcl_node *child = node_append(parent, key, RCL_NODE_STRING);

	if (child && !(child->str = rcl_strdup(value))) {
		parent->oom = true;
		return NULL;
	}
	return child;
}

struct rcl_node *rcl_node_add_strf(struct rcl_node *parent, const char *key, const char *fmt, ...)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	struct rcl_node *child;
	va_list ap;

	va_start(ap, fmt);
	rcl_buf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (sb.oom) {
		if (parent)
			parent->oom = true;
		return NULL;
	}
	child = rcl_node_add_str(parent, key, sb.buf);
	rcl_buf_release(&sb);
	return child;
}

struct rcl_node *rcl_node_add_int(struct rcl_node *parent, const char *key, long long value)
{
	struct rcl_node *child = node_append(parent, key, RCL_NODE_INT);

	if (child)
		child->num = value;
	return child;
}

struct rcl_node *rcl_node_add_size(struct rcl_node *parent, const char *key, uint64_t bytes)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	struct rcl_node *child;

	rcl_size_format(&sb, bytes);
	if (sb.oom) {
		if (parent)
			parent->oom = true;
		return NULL;
	}
	child = rcl_node_add_str(parent, key, sb.buf);
	if (child)
		child->flags |= RCL_NODE_ALIGN_RIGHT;
	rcl_buf_release(&sb);
	return child;
}

/* Replace *@field by a copy of @value; NULL-safe on @node. */
static void node_set_text(struct rcl_node *node, char **field, const char *value)
{
	char *copy;

	if (!node)
		return;
	copy = rcl_strdup(value);
	if (!copy) {
		node->oom = true;
		return;
	}
	rcl_free(*field);
	*field = copy;
}

void rcl_node_set_label(struct rcl_node *node, const char *label)
{
	node_set_text(node, node ? &node->label : NULL, label);
}

void rcl_node_set_legend(struct rcl_node *node, const char *legend)
{
	node_set_text(node, node ? &node->legend : NULL, legend);
}

void rcl_node_set_flags(struct rcl_node *node, unsigned flags)
{
	if (node)
		node->flags = flags;
}

void rcl_node_set_oom(struct rcl_node *node)
{
	if (node)
		node->oom = true;
}

bool rcl_node_oom(const struct rcl_node *node)
{
	if (!node)
		return true;
	if (node->oom)
		return true;
	for (size_t i = 0; i < node->count; i++)
		if (rcl_node_oom(node->kids[i]))
			return true;
	return false;
}

enum rcl_node_kind rcl_node_kind(const struct rcl_node *node)
{
	return node->kind;
}

const char *rcl_node_key(const struct rcl_node *node)
{
	return node->key;
}

const char *rcl_node_label(const struct rcl_node *node)
{
	return node->label ? node->label : node->key;
}

const char *rcl_node_legend(const struct rcl_node *node)
{
	return node->legend;
}

unsigned rcl_node_flags(const struct rcl_node *node)
{
	return node->flags;
}

const char *rcl_node_str(const struct rcl_node *node)
{
	return node->str ? node->str : "";
}

long long rcl_node_int(const struct rcl_node *node)
{
	return node->num;
}

size_t rcl_node_count(const struct rcl_node *node)
{
	return node->count;
}

const struct rcl_node *rcl_node_child(const struct rcl_node *node, size_t index)
{
	return index < node->count ? node->kids[index] : NULL;
}

const struct rcl_node *rcl_node_find(const struct rcl_node *node, const char *key)
{
	for (size_t i = 0; i < node->count; i++)
		if (node->kids[i]->key && !strcmp(node->kids[i]->key, key))
			return node->kids[i];
	return NULL;
}

void rcl_reply_init(struct rcl_reply *reply)
{
	memset(reply, 0, sizeof(*reply));
}

void rcl_reply_release(struct rcl_reply *reply)
{
	for (size_t i = 0; i < reply->count; i++) {
		struct rcl_result *res = &reply->results[i];

		rcl_free(res->description);
		rcl_node_free(res->detail);
		rcl_node_free(res->data);
	}
	rcl_free(reply->results);
	rcl_reply_init(reply);
}

struct rcl_result *rcl_reply_add(struct rcl_reply *reply, int ctrl)
{
	struct rcl_result *res;

	if (reply->count == reply->alloc) {
		size_t alloc = reply->alloc ? reply->alloc * 2 : 4;
		struct rcl_result *mem = rcl_realloc(reply->results, alloc * sizeof(*mem));

		if (!mem)
			return NULL;
		reply->results = mem;
		reply->alloc = alloc;
	}
	res = &reply->results[reply->count];
	memset(res, 0, sizeof(*res));
	res->ctrl = ctrl;
	res->description = rcl_strdup("None");
	res->data = rcl_node_new_object();
	if (!res->description || !res->data) {
		rcl_free(res->description);
		rcl_node_free(res->data);
		return NULL;
	}
	reply->count++;
	return res;
}

bool rcl_result_describe(struct rcl_result *res, const char *fmt, ...)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	char *text;
	va_list ap;

	va_start(ap, fmt);
	rcl_buf_vaddf(&sb, fmt, ap);
	va_end(ap);
	text = rcl_buf_detach(&sb);
	if (!text) {
		/* Mark the data so a caller that ignores this fails as out of memory. */
		rcl_node_set_oom(res->data);
		return false;
	}
	rcl_free(res->description);
	res->description = text;
	return true;
}

/* A row's ErrMsg: the device's own status where it refused, as StorCLI shows a card's. */
static const char *error_text(const struct rcl_error *err)
{
	return err->detail[0] ? err->detail : err->msg;
}

void rcl_result_fail(struct rcl_result *res, const struct rcl_error *err)
{
	struct rcl_node *row;

	res->status = err->status;
	rcl_result_describe(res, "%s", err->msg);
	rcl_node_free(res->detail);
	res->detail = rcl_node_new_array();
	row = rcl_node_add_object(res->detail, NULL);
	if (res->ctrl >= 0)
		rcl_node_add_int(row, "Ctrl", res->ctrl);
	rcl_node_add_str(row, "Status", "Failed");
	rcl_node_add_int(row, "ErrCd", err->status);
	rcl_node_add_str(row, "ErrMsg", error_text(err));
}

void rcl_result_fail_object(struct rcl_result *res, const struct rcl_error *err, const char *key,
                            const char *fmt, ...)
{
	struct rcl_buf name = RCL_BUF_INIT;
	struct rcl_node *row;
	va_list ap;

	va_start(ap, fmt);
	rcl_buf_vaddf(&name, fmt, ap);
	va_end(ap);
	res->status = err->status;
	rcl_result_describe(res, "%s", err->msg);
	rcl_node_free(res->detail);
	res->detail = rcl_node_new_array();
	row = rcl_node_add_object(res->detail, NULL);
	rcl_node_add_str(row, key, name.buf);
	rcl_node_add_str(row, "Status", "Failure");
	rcl_node_add_int(row, "ErrCd", err->status);
	rcl_node_add_str(row, "ErrMsg", error_text(err));
	if (name.oom)
		rcl_node_set_oom(res->data);
	rcl_buf_release(&name);
}

enum rcl_status rcl_reply_status(const struct rcl_reply *reply)
{
	for (size_t i = 0; i < reply->count; i++)
		if (reply->results[i].status != RCL_OK)
			return reply->results[i].status;
	return RCL_OK;
}
