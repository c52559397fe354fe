// SPDX-License-Identifier: MIT
/*
 * message.c - what a refused Redfish request says, in raidcli's words: the
 * service's @Message.ExtendedInfo (Message, MessageId, Resolution) where it
 * sent one, else the meaning of the HTTP status. Every text from the BMC is
 * cleaned first: a message ends up on a terminal.
 */
#include <string.h>

#include "redfish/message.h"

/* The length of the UTF-8 character at @p if it is valid and printable, else 0. */
static size_t printable_char(const unsigned char *p)
{
	size_t len = *p < 0x80                 ? 1
	             : *p >= 0xc2 && *p < 0xe0 ? 2
	             : *p >= 0xe0 && *p < 0xf5 ? 3 + (*p >= 0xf0)
	                                       : 0;

	if (len == 1)
		return *p >= ' ' && *p != 0x7f;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* U+0080..U+009F: the C1 controls, CSI among them */
	if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 0;
	return len;
}

void rcl_redfish_clean(const char *in, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t o = 0;

	while (*p && o + 1 < size) {
		size_t len = printable_char(p);

		if (!len) {
			out[o++] = '?';
			p++;
		} else if (o + len < size) {
			memcpy(out + o, p, len);
			o += len;
			p += len;
		} else {
			break;
		}
	}
	out[o] = '\0';
}

/* Append @text cleaned, or nothing for NULL. */
static void add_clean(struct rcl_buf *sb, const char *text)
{
	char clean[RCL_ERROR_MSG_MAX];

	if (!text)
		return;
	rcl_redfish_clean(text, clean, sizeof(clean));
	rcl_buf_adds(sb, clean);
}

/* @obj's string member @key, or NULL (absent, or not a string). */
static const char *string_of(json_object *obj, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

size_t rcl_redfish_add_messages(struct rcl_buf *sb, json_object *list)
{
	size_t n = 0;

	if (!json_object_is_type(list, json_type_array))
		return 0;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *m = json_object_array_get_idx(list, i);
		const char *text = string_of(m, "Message"), *id = string_of(m, "MessageId");
		const char *fix = string_of(m, "Resolution");

		if (!json_object_is_type(m, json_type_object) || (!text && !id))
			continue;
		rcl_buf_adds(sb, n++ ? "; " : "");
		add_clean(sb, text ? text : id);
		if (text && id) {
			rcl_buf_adds(sb, " (");
			add_clean(sb, id);
			rcl_buf_addch(sb, ')');
		}
		if (fix && *fix && strcmp(fix, "None")) {
			rcl_buf_adds(sb, " Resolution: ");
			add_clean(sb, fix);
		}
	}
	return n;
}

/* What each HTTP status means to a user, and raidcli's status for it. */
static const struct {
	long http;
	const char *reason;
	const char *meaning;
	enum rcl_status status;
} statuses[] = {
    {400, "Bad Request", "the service found the request malformed", RCL_INVALID_PARAM},
    {401, "Unauthorized", "the user name and password or the session were refused",
     RCL_NOT_ALLOWED},
    {403, "Forbidden", "the user lacks the privilege for it", RCL_NOT_ALLOWED},
    {404, "Not Found", "the service has no such resource", RCL_NOT_FOUND},
    {405, "Method Not Allowed", "the resource does not allow it", RCL_UNSUPPORTED},
    {409, "Conflict", "it conflicts with the resource's current state", RCL_NOT_ALLOWED},
    {410, "Gone", "the resource is gone", RCL_NOT_FOUND},
    {412, "Precondition Failed",
     "the resource changed since raidcli read it (ETag mismatch): read it again and retry",
     RCL_BUSY},
    {428, "Precondition Required", "the service requires If-Match with the resource's ETag",
     RCL_NOT_ALLOWED},
    {429, "Too Many Requests", "the service is overloaded: try again later", RCL_BUSY},
    {500, "Internal Server Error", "the service failed while handling it", RCL_BAD_REPLY},
    {501, "Not Implemented", "the service does not implement it", RCL_UNSUPPORTED},
    {503, "Service Unavailable", "the service is busy or starting: try again later",
     RCL_UNREACHABLE},
    {504, "Gateway Timeout", "the service did not answer in time", RCL_UNREACHABLE},
};

/* The service's own explanation in @body, appended to @sb. Return: whether there was one. */
static bool add_service_words(struct rcl_buf *sb, json_object *body)
{
	json_object *error = NULL, *info = NULL;
	const char *text;

	if (json_object_object_get_ex(body, "error", &error) &&
	    json_object_object_get_ex(error, "@Message.ExtendedInfo", &info) &&
	    rcl_redfish_add_messages(sb, info))
		return true;
	if (json_object_object_get_ex(body, "@Message.ExtendedInfo", &info) &&
	    rcl_redfish_add_messages(sb, info))
		return true;
	if (!(text = string_of(error, "message")))
		return false;
	add_clean(sb, text);
	if ((text = string_of(error, "code"))) {
		rcl_buf_adds(sb, " (");
		add_clean(sb, text);
		rcl_buf_addch(sb, ')');
	}
	return true;
}

enum rcl_status rcl_redfish_refusal(struct rcl_error *err, const char *host,
                                    enum rcl_redfish_method method, const char *path,
                                    const struct rcl_redfish_response *resp)
{
	const char *reason = "unexpected status", *meaning = "raidcli does not expect this answer";
	enum rcl_status status =
	    resp->status >= 400 && resp->status < 500 ? RCL_NOT_ALLOWED : RCL_BAD_REPLY;
	struct rcl_buf sb = RCL_BUF_INIT;
	char shown[RCL_QUOTE_MAX + 1];

	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
		if (statuses[i].http == resp->status) {
			reason = statuses[i].reason;
			meaning = statuses[i].meaning;
			status = statuses[i].status;
		}
	}
	if (!add_service_words(&sb, resp->body))
		rcl_buf_adds(&sb, meaning);
	rcl_redfish_clean(path, shown, sizeof(shown));
	if (sb.oom)
		status =
		    rcl_fail(err, RCL_NOMEM, "out of memory reading the refusal of '%s'", shown);
	else
		rcl_fail(err, status, "%s '%s' refused by '%s' (%ld %s): %s",
		         rcl_redfish_method_name(method), shown, host, resp->status, reason,
		         sb.buf);
	rcl_buf_release(&sb);
	return status;
}
