// SPDX-License-Identifier: MIT
/*
 * render-text.c - a reply as PERCCLI-style text: the header block, then
 * "Label = value" lines, "Title :" sections underlined with '=', dashed
 * tables for lists of rows, and each table's legend below it.
 */
#include <string.h>

#include "cli.h"

#define GREEN "\033[32m"
#define RED   "\033[31m"
#define RESET "\033[0m"

/* Print @line without trailing blanks, then a newline. */
static void put_line(FILE *out, const char *line, size_t len)
{
	while (len && line[len - 1] == ' ')
		len--;
	fwrite(line, 1, len, out);
	fputc('\n', out);
}

size_t render_utf8_len(const char *s, bool *valid)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3 : 2, i = 1;
	/* The second byte's range rules out overlong forms, surrogates and > U+10FFFF. */
	unsigned char lo = u[0] == 0xe0 ? 0xa0 : u[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = u[0] == 0xed ? 0x9f : u[0] == 0xf4 ? 0x8f : 0xbf;

	*valid = false;
	if (u[0] < 0xc2 || u[0] > 0xf4 || u[1] < lo || u[1] > hi)
		return 1;
	while (++i < len)
		if ((u[i] & 0xc0) != 0x80)
			return i;
	*valid = true;
	return len;
}

/*
 * The length of the UTF-8 character at @s if it is valid and not a control
 * character (C1, U+0080 to U+009F, is one: some terminals act on it); else 0.
 */
static size_t utf8_printable_len(const char *s)
{
	bool valid;
	size_t len = render_utf8_len(s, &valid);

	return valid && !((unsigned char)s[0] == 0xc2 && (unsigned char)s[1] < 0xa0) ? len : 0;
}

/* One byte that render_add_escaped() does not print as it is. */
static void add_escape(struct rcl_buf *sb, unsigned char c)
{
	switch (c) {
	case '\n':
		rcl_buf_adds(sb, "\\n");
		break;
	case '\t':
		rcl_buf_adds(sb, "\\t");
		break;
	case '\r':
		rcl_buf_adds(sb, "\\r");
		break;
	case '\\':
		rcl_buf_adds(sb, "\\\\");
		break;
	default:
		rcl_buf_addf(sb, "\\x%02x", c);
	}
}

/*
 * Append @s to @sb with what a terminal acts on made visible as a C escape:
 * control characters, DEL and bytes that are not UTF-8. Values come from
 * users and from disks: printed raw, a newline in a VD name would forge a
 * "Status = Success" line and an ESC would drive the terminal. A backslash
 * is escaped too, so an escape never reads as typed text.
 */
void render_add_escaped(struct rcl_buf *sb, const char *s)
{
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t len = c >= 0x80 ? utf8_printable_len(s) : c >= 0x20 && c != 0x7f;

		if (len && c != '\\') {
			rcl_buf_add(sb, s, len);
			s += len;
		} else {
			add_escape(sb, c);
			s++;
		}
	}
}

/* @s as render_add_escaped() prints it, in @sb (reset first). */
static const char *escaped(struct rcl_buf *sb, const char *s)
{
	rcl_buf_reset(sb);
	render_add_escaped(sb, s);
	return sb->buf;
}

/* @cell as text, in @sb (reset first). */
static const char *cell_text(const struct rcl_node *cell, struct rcl_buf *sb)
{
	if (rcl_node_kind(cell) != RCL_NODE_INT)
		return escaped(sb, rcl_node_str(cell));
	rcl_buf_reset(sb);
	rcl_buf_addf(sb, "%lld", rcl_node_int(cell));
	return sb->buf;
}

static void put_title(FILE *out, const char *label)
{
	size_t len = strlen(label);

	while (len && label[len - 1] == ' ')
		len--;
	fprintf(out, "%.*s :\n", (int)len, label);
	for (size_t i = 0; i < len; i++)
		fputc('=', out);
	fputc('\n', out);
}

/* One table row (or the header when @header) into @line. */
static void format_row(struct rcl_buf *line, const struct rcl_node *row, const size_t *width,
                       const bool *right, bool header)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_reset(line);
	for (size_t c = 0; c < rcl_node_count(row); c++) {
		const struct rcl_node *cell = rcl_node_child(row, c);
		const char *text = header ? rcl_node_label(cell) : cell_text(cell, &sb);
		size_t len = strlen(text);

		if (c)
			rcl_buf_addch(line, ' ');
		if (right[c] && len < width[c])
			rcl_buf_addchars(line, ' ', width[c] - len);
		rcl_buf_add(line, text, len);
		if (!right[c] && len < width[c])
			rcl_buf_addchars(line, ' ', width[c] - len);
	}
	rcl_buf_release(&sb);
}

static void put_table(FILE *out, const struct rcl_node *table)
{
	const struct rcl_node *first = rcl_node_child(table, 0);
	size_t cols = rcl_node_count(first), total = 0;
	size_t *width = rcl_calloc(cols ? cols : 1, sizeof(*width));
	bool *right = rcl_calloc(cols ? cols : 1, sizeof(*right));
	struct rcl_buf line = RCL_BUF_INIT, text = RCL_BUF_INIT;

	if (!width || !right)
		goto out;
	for (size_t c = 0; c < cols; c++)
		width[c] = strlen(rcl_node_label(rcl_node_child(first, c)));
	for (size_t r = 0; r < rcl_node_count(table); r++) {
		const struct rcl_node *row = rcl_node_child(table, r);

		for (size_t c = 0; c < cols && c < rcl_node_count(row); c++) {
			const struct rcl_node *cell = rcl_node_child(row, c);

			cell_text(cell, &text);
			if (text.len > width[c])
				width[c] = text.len;
			right[c] |= rcl_node_kind(cell) == RCL_NODE_INT ||
			            (rcl_node_flags(cell) & RCL_NODE_ALIGN_RIGHT);
		}
	}
	for (size_t c = 0; c < cols; c++)
		total += width[c] + (c ? 1 : 0);
	rcl_buf_addchars(&line, '-', total);
	fprintf(out, "\n%s\n", line.buf);
	format_row(&line, first, width, right, true);
	put_line(out, line.buf, line.len);
	for (size_t i = 0; i < total; i++)
		fputc('-', out);
	fputc('\n', out);
	for (size_t r = 0; r < rcl_node_count(table); r++) {
		format_row(&line, rcl_node_child(table, r), width, right, false);
		put_line(out, line.buf, line.len);
	}
	for (size_t i = 0; i < total; i++)
		fputc('-', out);
	fputc('\n', out);
	if (rcl_node_legend(table))
		fprintf(out, "\n%s\n", rcl_node_legend(table));
out:
	rcl_buf_release(&line);
	rcl_buf_release(&text);
	rcl_free(width);
	rcl_free(right);
}

static bool is_table(const struct rcl_node *node)
{
	return rcl_node_kind(node) == RCL_NODE_ARRAY && rcl_node_count(node) &&
	       rcl_node_kind(rcl_node_child(node, 0)) == RCL_NODE_OBJECT;
}

static void put_scalar_list(FILE *out, const struct rcl_node *array)
{
	struct rcl_buf text = RCL_BUF_INIT;

	fprintf(out, "%s = ", rcl_node_label(array));
	for (size_t i = 0; i < rcl_node_count(array); i++)
		fprintf(out, "%s%s", i ? ", " : "", cell_text(rcl_node_child(array, i), &text));
	fputc('\n', out);
	rcl_buf_release(&text);
}

static void put_body(FILE *out, const struct rcl_node *obj, bool nested);

/* An RCL_NODE_BLOCKS array: its objects' lines, a blank line before each. */
static void put_blocks(FILE *out, const struct rcl_node *array)
{
	for (size_t i = 0; i < rcl_node_count(array); i++) {
		fputc('\n', out);
		put_body(out, rcl_node_child(array, i), false);
	}
}

/*
 * The children of an object: scalars as lines, the rest as sections. A
 * nested body (@nested) opens with a blank line before a leading section.
 */
static void put_body(FILE *out, const struct rcl_node *obj, bool nested)
{
	bool printed = nested, after_section = false;
	struct rcl_buf text = RCL_BUF_INIT;

	for (size_t i = 0; i < rcl_node_count(obj); i++) {
		const struct rcl_node *child = rcl_node_child(obj, i);
		bool section = rcl_node_kind(child) == RCL_NODE_OBJECT || is_table(child);

		if (rcl_node_kind(child) == RCL_NODE_ARRAY && !rcl_node_count(child))
			continue;
		/* Sections stand apart; lines after a section start a new block. */
		if ((printed && section) || after_section)
			fputc('\n', out);
		if (section) {
			put_title(out, rcl_node_label(child));
			if (is_table(child) && (rcl_node_flags(child) & RCL_NODE_BLOCKS))
				put_blocks(out, child);
			else if (is_table(child))
				put_table(out, child);
			else
				put_body(out, child, true);
		} else if (rcl_node_kind(child) == RCL_NODE_ARRAY) {
			put_scalar_list(out, child);
		} else {
			fprintf(out, "%s = %s\n", rcl_node_label(child), cell_text(child, &text));
		}
		printed = true;
		after_section = section;
	}
	rcl_buf_release(&text);
}

/*
 * Whether the Detailed Status table would only repeat the Description: one
 * row whose message is the description. A person reads it once; JSON keeps
 * the table for scripts, which read ErrCd there.
 */
static bool detail_repeats(const struct rcl_result *res)
{
	const struct rcl_node *msg;

	if (rcl_node_count(res->detail) != 1)
		return false;
	msg = rcl_node_find(rcl_node_child(res->detail, 0), "ErrMsg");
	return msg && res->description && !strcmp(rcl_node_str(msg), res->description);
}

/* Whether put_body() would print a line: empty arrays print nothing. */
static bool prints_something(const struct rcl_node *obj)
{
	for (size_t i = 0; i < rcl_node_count(obj); i++) {
		const struct rcl_node *child = rcl_node_child(obj, i);

		if (rcl_node_kind(child) != RCL_NODE_ARRAY || rcl_node_count(child))
			return true;
	}
	return false;
}

static void put_result(FILE *out, const struct rcl_result *res, bool color)
{
	const char *status = res->status ? "Failure" : "Success";
	struct rcl_buf text = RCL_BUF_INIT;

	fprintf(out, "CLI Version = raidcli %s\n", RAIDCLI_VERSION);
	fprintf(out, "Operating system = %s\n", render_os_name());
	if (res->ctrl < 0)
		fprintf(out, "Status Code = %d\n", (int)res->status);
	else
		fprintf(out, "Controller = %d\n", res->ctrl);
	if (*res->host)
		fprintf(out, "Host = %s\n", escaped(&text, res->host));
	if (color)
		fprintf(out, "Status = %s%s%s\n", res->status ? RED : GREEN, status, RESET);
	else
		fprintf(out, "Status = %s\n", status);
	fprintf(out, "Description = %s\n",
	        res->description ? escaped(&text, res->description) : "None");
	rcl_buf_release(&text);
	if (res->detail && is_table(res->detail) && !detail_repeats(res)) {
		fputc('\n', out);
		put_title(out, "Detailed Status");
		put_table(out, res->detail);
	}
	if (res->data && is_table(res->data)) {
		/* A bare list of rows (StorCLI's "show rebuild"): a table with no title. */
		put_table(out, res->data);
	} else if (res->data && prints_something(res->data)) {
		fputc('\n', out);
		put_body(out, res->data, false);
	}
}

void render_text_result(FILE *out, const struct rcl_result *res, bool color, size_t index)
{
	if (index)
		fputc('\n', out);
	put_result(out, res, color);
	fputc('\n', out);
}
