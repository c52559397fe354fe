// SPDX-License-Identifier: MIT
/*
 * render-json.c - a reply as StorCLI v1 JSON.
 *
 * The layout is byte-for-byte StorCLI's: "Controllers":[ on its own line,
 * tab indentation, "key" : value. Scripts only parse it, but matching the
 * layout keeps diffs against real StorCLI captures readable.
 */
#include <sys/utsname.h>

#include "cli.h"

/*
 * @s as a JSON string. JSON text is UTF-8 (RFC 8259), but values come from
 * users and disks: each ill-formed sequence becomes U+FFFD, as a strict
 * reader such as Python's errors='replace' would show it.
 */
static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		bool valid;
		size_t len;

		switch (c) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (c < 0x20) {
				fprintf(out, "\\u%04x", c);
			} else if (c >= 0x80) {
				len = render_utf8_len(s, &valid);
				if (valid)
					fwrite(s, 1, len, out);
				else
					fputs("\xef\xbf\xbd", out);
				s += len;
				continue;
			} else {
				fputc(c, out);
			}
		}
		s++;
	}
	fputc('"', out);
}

static void indent(FILE *out, int depth)
{
	for (int i = 0; i < depth; i++)
		fputc('\t', out);
}

static void put_node(FILE *out, const struct rcl_node *node, int depth);

static void put_children(FILE *out, const struct rcl_node *node, int depth, bool keyed)
{
	size_t n = rcl_node_count(node);

	for (size_t i = 0; i < n; i++) {
		const struct rcl_node *child = rcl_node_child(node, i);

		indent(out, depth);
		if (keyed) {
			put_string(out, rcl_node_key(child));
			fputs(" : ", out);
		}
		put_node(out, child, depth);
		fputs(i + 1 < n ? ",\n" : "\n", out);
	}
}

static void put_node(FILE *out, const struct rcl_node *node, int depth)
{
	switch (rcl_node_kind(node)) {
	case RCL_NODE_STRING:
		put_string(out, rcl_node_str(node));
		break;
	case RCL_NODE_INT:
		fprintf(out, "%lld", rcl_node_int(node));
		break;
	case RCL_NODE_OBJECT:
		fputs("{\n", out);
		put_children(out, node, depth + 1, true);
		indent(out, depth);
		fputc('}', out);
		break;
	case RCL_NODE_ARRAY:
		fputs("[\n", out);
		put_children(out, node, depth + 1, false);
		indent(out, depth);
		fputc(']', out);
		break;
	}
}

static void put_status(FILE *out, const struct rcl_result *res)
{
	fputs("\t\"Command Status\" : {\n", out);
	fprintf(out, "\t\t\"CLI Version\" : ");
	put_string(out, "raidcli " RAIDCLI_VERSION);
	fprintf(out, ",\n\t\t\"Operating system\" : ");
	put_string(out, render_os_name());
	/* System-level results carry a status code where others name the controller. */
	if (res->ctrl < 0)
		fprintf(out, ",\n\t\t\"Status Code\" : %d", (int)res->status);
	else
		fprintf(out, ",\n\t\t\"Controller\" : %d", res->ctrl);
	if (*res->host) {
		fputs(",\n\t\t\"Host\" : ", out);
		put_string(out, res->host);
	}
	fprintf(out, ",\n\t\t\"Status\" : \"%s\",\n\t\t\"Description\" : ",
	        res->status ? "Failure" : "Success");
	put_string(out, res->description ? res->description : "None");
	if (res->detail) {
		fputs(",\n\t\t\"Detailed Status\" : ", out);
		put_node(out, res->detail, 2);
	}
	fputs("\n\t}", out);
}

/* The envelope's opening, before result 0 (or the end, when there is none). */
static void put_opening(FILE *out)
{
	fputs("{\n\"Controllers\":[\n", out);
}

void render_json_result(FILE *out, const struct rcl_result *res, size_t index)
{
	if (index)
		fputs(",\n", out);
	else
		put_opening(out);
	fputs("{\n", out);
	put_status(out, res);
	if (res->data && rcl_node_count(res->data)) {
		fputs(",\n\t\"Response Data\" : ", out);
		put_node(out, res->data, 1);
	}
	fputs("\n}", out);
}

void render_json_end(FILE *out, size_t printed)
{
	if (printed)
		fputc('\n', out);
	else
		put_opening(out);
	fputs("]\n}\n", out);
}

const char *render_os_name(void)
{
	static char name[160];
	struct utsname u;

	if (!name[0]) {
		if (uname(&u))
			snprintf(name, sizeof(name), "Linux");
		else
			snprintf(name, sizeof(name), "%s %s", u.sysname, u.release);
	}
	return name;
}
