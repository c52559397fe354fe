// SPDX-License-Identifier: MIT
/*
 * error.c - status names and the one way to record a failure.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "raidcli.h"

static const struct {
	enum rcl_status status;
	const char *name;
} status_names[] = {
    {RCL_OK, "success"},
    {RCL_INVALID_COMMAND, "invalid command"},
    {RCL_INVALID_PARAM, "invalid parameter"},
    {RCL_DRIVE_TOO_SMALL, "drive too small"},
    {RCL_HW_MISSING, "required hardware missing"},
    {RCL_NOT_FOUND, "not found"},
    {RCL_FOREIGN_INCOMPLETE, "incomplete foreign configuration"},
    {RCL_NOT_ALLOWED, "operation not allowed"},
    {RCL_NOMEM, "out of memory"},
    {RCL_CORRUPT, "corrupt state"},
    {RCL_SYSTEM, "system error"},
    {RCL_BUSY, "busy"},
    {RCL_UNSUPPORTED, "not supported by this controller"},
    {RCL_NEED_FORCE, "confirmation required"},
    {RCL_EXISTS, "already exists"},
    {RCL_UNREACHABLE, "controller unreachable"},
    {RCL_BAD_REPLY, "bad reply from controller"},
};

const char *rcl_status_name(enum rcl_status status)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (status_names[i].status == status)
			return status_names[i].name;
	return "unknown status";
}

/* The message being written: what does not fit is cut at its end. */
struct msg {
	char *buf;
	size_t size, len;
};

static void msg_addf(struct msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void msg_addf(struct msg *m, const char *fmt, ...)
{
	size_t room = m->size - m->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len += (size_t)n < room ? (size_t)n : room - 1;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
/*
 * Append one conversion, @spec ("%08x"), its argument taken from @ap as the
 * type @spec names. @spec is copied from a format the compiler checked
 * against the arguments at the rcl_fail() call.
 */
static void msg_add_conversion(struct msg *m, const char *spec, va_list *ap)
{
	size_t n = strlen(spec);
	char conv = spec[n - 1], size = n > 2 ? spec[n - 2] : '%';

	if (conv == 's')
		msg_addf(m, spec, va_arg(*ap, const char *));
	else if (conv == 'p')
		msg_addf(m, spec, va_arg(*ap, void *));
	else if (strchr("feEgGaA", conv))
		msg_addf(m, spec, va_arg(*ap, double));
	else if (size == 'l' && spec[n - 3] == 'l')
		msg_addf(m, spec, va_arg(*ap, long long));
	else if (size == 'l')
		msg_addf(m, spec, va_arg(*ap, long));
	else if (size == 'z')
		msg_addf(m, spec, va_arg(*ap, size_t));
	else if (size == 'j')
		msg_addf(m, spec, va_arg(*ap, intmax_t));
	else if (size == 't')
		msg_addf(m, spec, va_arg(*ap, ptrdiff_t));
	else /* int and the types that promote to it: %d %u %x %c %hhu */
		msg_addf(m, spec, va_arg(*ap, int));
}
#pragma GCC diagnostic pop

/*
 * The conversion at @p ("%-*llx") into @spec, a '*' replaced by the number
 * it takes from @ap. Return: its length in @p.
 */
static size_t take_spec(const char *p, char *spec, size_t size, va_list *ap)
{
	size_t i = 1, o = 1;

	spec[0] = '%';
	for (; p[i] && !strchr("diouxXcspfeEgGaA%", p[i]) && o + 12 < size; i++) {
		if (p[i] == '*')
			o += (size_t)snprintf(spec + o, size - o, "%d", va_arg(*ap, int));
		else
			spec[o++] = p[i];
	}
	spec[o++] = p[i];
	spec[o] = '\0';
	return p[i] ? i + 1 : i;
}

/*
 * A quoted value ('%s') of @len bytes: whole up to RCL_QUOTE_MAX bytes, else
 * its start (no UTF-8 character split), "...", the closing quote and the
 * length. Return: whether the closing quote was written.
 */
static bool msg_add_quoted(struct msg *m, const char *value)
{
	size_t len, cut = RCL_QUOTE_MAX;

	value = value ? value : "(null)"; /* as glibc's printf writes it */
	len = strlen(value);
	if (len <= RCL_QUOTE_MAX) {
		msg_addf(m, "%s", value);
		return false;
	}
	while (cut && ((unsigned char)value[cut] & 0xc0) == 0x80)
		cut--;
	msg_addf(m, "%.*s...' (%zu bytes)", (int)cut, value, len);
	return true;
}

/*
 * @fmt into @m as vsnprintf() would write it, but with each quoted string
 * argument ('%s') shortened by msg_add_quoted(). Messages quote the token at
 * fault, which a user typed or a disk held, of any length: whole, a 100 KB
 * value would fill the message and cut off the reason after it.
 */
static void msg_vformat(struct msg *m, const char *fmt, va_list *ap)
{
	char spec[32];

	m->buf[0] = '\0';
	for (const char *p = fmt; *p && m->len + 1 < m->size;) {
		size_t n = strcspn(p, "%");

		if (n) {
			msg_addf(m, "%.*s", (int)n, p);
		} else {
			n = take_spec(p, spec, sizeof(spec), ap);
			if (!strcmp(spec, "%%"))
				msg_addf(m, "%%");
			else if (strcmp(spec, "%s") || p == fmt || p[-1] != '\'' || p[n] != '\'')
				msg_add_conversion(m, spec, ap);
			else if (msg_add_quoted(m, va_arg(*ap, const char *)))
				n++; /* its closing quote is written */
		}
		p += n;
	}
}

enum rcl_status rcl_error_set(struct rcl_error *err, enum rcl_status status, int sys_errno,
                              const char *file, int line, const char *fmt, ...)
{
	struct msg m;
	va_list ap;

	if (!err)
		return status;
	err->status = status;
	err->sys_errno = sys_errno;
	err->file = file;
	err->line = line;
	err->detail[0] = '\0';
	m = (struct msg){.buf = err->msg, .size = sizeof(err->msg)};
	va_start(ap, fmt);
	msg_vformat(&m, fmt, &ap);
	va_end(ap);
	return status;
}
