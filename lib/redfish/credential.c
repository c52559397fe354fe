// SPDX-License-Identifier: MIT
/*
 * credential.c - loading a BMC password, with the checks ssh applies to a
 * private key: a secret others can read is no longer one, so such a file
 * is refused, not used with a warning. Or asking for it, through the
 * context's askpass (the CLI's terminal prompt).
 */
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "redfish/credential.h"

void rcl_redfish_secret_free(char *secret)
{
	if (!secret)
		return;
	explicit_bzero(secret, strlen(secret));
	rcl_free(secret);
}

/* @text (@len bytes, one trailing newline dropped) as a new string in *@out. */
static enum rcl_status take(const char *text, size_t len, const char *source, char **out,
                            struct rcl_error *err)
{
	if (len && text[len - 1] == '\n')
		len--;
	if (len && text[len - 1] == '\r')
		len--;
	if (!len)
		return rcl_fail(err, RCL_INVALID_PARAM, "the password in %s is empty", source);
	if (memchr(text, '\0', len) || memchr(text, '\n', len))
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "the password in %s holds a NUL or a line break; put it alone "
		                "on one line",
		                source);
	*out = rcl_strndup(text, len);
	return *out ? RCL_OK : rcl_fail(err, RCL_NOMEM, "out of memory reading %s", source);
}

/* Whether the file behind @fd may hold a secret; why not, in @err. */
static enum rcl_status check_private(int fd, const char *file, struct rcl_error *err)
{
	struct stat st;

	if (fstat(fd, &st))
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot stat password file '%s': %s",
		                      file, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return rcl_fail(err, RCL_INVALID_PARAM, "password file '%s' is not a regular file",
		                file);
	if (st.st_uid != getuid() && st.st_uid != 0)
		return rcl_fail(err, RCL_NOT_ALLOWED,
		                "password file '%s' belongs to user %u, not to you (%u) or root: "
		                "another user could change it",
		                file, (unsigned)st.st_uid, (unsigned)getuid());
	if (st.st_mode & (S_IRWXG | S_IRWXO))
		return rcl_fail(
		    err, RCL_NOT_ALLOWED,
		    "password file '%s' has mode %04o: its group or others may read it; "
		    "chmod 600 it (and change the password if others could read it)",
		    file, (unsigned)(st.st_mode & 07777));
	return RCL_OK;
}

static enum rcl_status load_file(const char *file, char **out, struct rcl_error *err)
{
	char buf[RCL_REDFISH_PASSWORD_MAX + 2], source[RCL_QUOTE_MAX + 32];
	enum rcl_status status;
	ssize_t n;
	int fd;

	/* O_NOFOLLOW: the checks must be of the file read, not of a link's target swapped in. */
	fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return rcl_fail_errno(err, errno == ENOENT ? RCL_NOT_FOUND : RCL_SYSTEM, errno,
		                      "cannot open password file '%s': %s", file, strerror(errno));
	status = check_private(fd, file, err);
	if (!status) {
		n = read(fd, buf, sizeof(buf));
		snprintf(source, sizeof(source), "'%.*s'", RCL_QUOTE_MAX - 2, file);
		if (n < 0)
			status = rcl_fail_errno(err, RCL_SYSTEM, errno,
			                        "cannot read password file '%s': %s", file,
			                        strerror(errno));
		else if ((size_t)n > RCL_REDFISH_PASSWORD_MAX + 1)
			status = rcl_fail(err, RCL_INVALID_PARAM,
			                  "password file '%s' is longer than %d bytes", file,
			                  RCL_REDFISH_PASSWORD_MAX);
		else
			status = take(buf, (size_t)n, source, out, err);
	}
	explicit_bzero(buf, sizeof(buf));
	close(fd);
	return status;
}

enum rcl_status rcl_redfish_password_load(const char *file, const char *env, char **out,
                                          struct rcl_error *err)
{
	char source[64];
	const char *value;

	if (file)
		return load_file(file, out, err);
	if (!env)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "no password given: name a file only you can read, or an "
		                "environment variable");
	value = getenv(env);
	if (!value)
		return rcl_fail(err, RCL_INVALID_PARAM, "environment variable '%s' is not set",
		                env);
	if (strlen(value) > RCL_REDFISH_PASSWORD_MAX)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "the password in environment variable '%s' is longer than %d bytes",
		                env, RCL_REDFISH_PASSWORD_MAX);
	snprintf(source, sizeof(source), "environment variable '%.40s'", env);
	return take(value, strlen(value), source, out, err);
}

enum rcl_status rcl_redfish_password_ask(const struct rcl_ctx *ctx, const char *user,
                                         const char *realm, char **out, struct rcl_error *err)
{
	char buf[RCL_REDFISH_PASSWORD_MAX + 1] = "";
	struct rcl_error why = {0};
	enum rcl_status st;

	if (!ctx->askpass)
		rcl_fail(&why, RCL_UNSUPPORTED, "this program does not ask");
	else if (!ctx->askpass(ctx->askpass_arg, user, realm, buf, sizeof(buf), &why) &&
	         !why.status)
		rcl_fail(&why, RCL_NOT_ALLOWED, "no answer");
	if (why.status)
		return rcl_fail(err, why.status,
		                "cannot ask for the password of '%s' at %s: %s; add the "
		                "controller with credfile= (a file only you can read) or "
		                "passenv= (an environment variable) to run without a terminal",
		                user, realm, why.msg);
	buf[sizeof(buf) - 1] = '\0';
	st = take(buf, strlen(buf), "the answer", out, err);
	explicit_bzero(buf, sizeof(buf));
	return st;
}
