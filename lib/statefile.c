// SPDX-License-Identifier: MIT
/*
 * statefile.c - state files that survive crashes and concurrent users:
 * atomic replacement, flock()-based locks, careful JSON parsing.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

char *rcl_path_join(const char *dir, const char *name)
{
	struct rcl_buf sb = RCL_BUF_INIT;

	rcl_buf_addf(&sb, "%s/%s", dir, name);
	return rcl_buf_detach(&sb);
}

/* Create the directories of @path from its component at @start on (earlier ones must exist). */
static enum rcl_status mkdir_from(const char *path, size_t start, unsigned mode,
                                  struct rcl_error *err)
{
	char tmp[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(tmp))
		return rcl_fail(err, RCL_INVALID_PARAM, "path '%s' is too long", path);
	memcpy(tmp, path, len + 1);
	for (char *p = tmp + start; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return rcl_fail_errno(err, RCL_SYSTEM, errno,
			                      "cannot create directory '%s': %s", tmp,
			                      strerror(errno));
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot create directory '%s': %s",
		                      tmp, strerror(errno));
	return RCL_OK;
}

enum rcl_status rcl_mkdir_p(const char *path, unsigned mode, struct rcl_error *err)
{
	return mkdir_from(path, 1, mode, err);
}

enum rcl_status rcl_mkdir_in(const char *base, const char *sub, unsigned mode,
                             struct rcl_error *err)
{
	char *path = rcl_path_join(base, sub);
	enum rcl_status st = path ? mkdir_from(path, strlen(base) + 1, mode, err)
	                          : rcl_fail(err, RCL_NOMEM, "out of memory");

	rcl_free(path);
	return st;
}

enum rcl_status rcl_state_corrupt(struct rcl_error *err, const char *path, const char *what)
{
	return rcl_fail(err, RCL_CORRUPT,
	                "state file '%s' is corrupt (%s); nothing was changed: restore it from a "
	                "backup or move it aside",
	                path, what);
}

/* Read all of @fd into a new NUL-terminated buffer. */
static enum rcl_status read_all(int fd, const char *path, struct rcl_buf *sb, struct rcl_error *err)
{
	char chunk[8192];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot read '%s': %s", path,
			                      strerror(errno));
		}
		rcl_buf_add(sb, chunk, (size_t)n);
	}
	if (sb->oom)
		return rcl_fail(err, RCL_NOMEM, "out of memory reading '%s'", path);
	return RCL_OK;
}

/* Whether @sb holds only white space from offset @end on. */
static bool only_blanks_after(const struct rcl_buf *sb, size_t end)
{
	if (end >= sb->len)
		return true;
	return sb->buf[end + strspn(sb->buf + end, " \t\r\n")] == '\0';
}

enum rcl_status rcl_file_read(const char *path, struct rcl_buf *sb, struct rcl_error *err)
{
	enum rcl_status st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return rcl_fail(err, RCL_NOT_FOUND, "state file '%s' does not exist", path);
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot open '%s': %s", path,
		                      strerror(errno));
	}
	st = read_all(fd, path, sb, err);
	close(fd);
	return st;
}

enum rcl_status rcl_state_read(const char *path, json_object **out, struct rcl_error *err)
{
	struct rcl_buf sb = RCL_BUF_INIT;
	json_tokener *tok;
	json_object *obj;
	enum rcl_status st;

	st = rcl_file_read(path, &sb, err);
	if (st)
		goto out;
	if (strlen(sb.buf) != sb.len) {
		st = rcl_state_corrupt(err, path, "it contains NUL bytes");
		goto out;
	}
	tok = json_tokener_new();
	if (!tok) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory parsing '%s'", path);
		goto out;
	}
	obj = json_tokener_parse_ex(tok, sb.buf, (int)sb.len + 1);
	if (!obj || json_tokener_get_error(tok) != json_tokener_success) {
		st = rcl_state_corrupt(err, path, sb.len ? "it is not valid JSON" : "it is empty");
		json_object_put(obj);
	} else if (!json_object_is_type(obj, json_type_object)) {
		st = rcl_state_corrupt(err, path, "it is not a JSON object");
		json_object_put(obj);
	} else if (!only_blanks_after(&sb, json_tokener_get_parse_end(tok))) {
		/* The tokener stops after the first value: text after it is damage too. */
		st = rcl_state_corrupt(err, path, "it has data after the JSON object");
		json_object_put(obj);
	} else {
		*out = obj;
	}
	json_tokener_free(tok);
out:
	rcl_buf_release(&sb);
	return st;
}

enum rcl_status rcl_write_all(int fd, const char *data, size_t len, const char *path,
                              struct rcl_error *err)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot write '%s': %s", path,
			                      strerror(errno));
		}
		data += n;
		len -= (size_t)n;
	}
	return RCL_OK;
}

static void fsync_parent_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	fd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

enum rcl_status rcl_state_write(const char *path, json_object *obj, struct rcl_error *err)
{
	const char *text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
	                                                           JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!text)
		return rcl_fail(err, RCL_NOMEM, "out of memory writing '%s'", path);
	return rcl_file_replace(path, text, "\n", err);
}

enum rcl_status rcl_file_replace(const char *path, const char *text, const char *tail,
                                 struct rcl_error *err)
{
	struct rcl_buf tmp = RCL_BUF_INIT;
	enum rcl_status st;
	int fd;

	rcl_buf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	if (tmp.oom)
		return rcl_fail(err, RCL_NOMEM, "out of memory writing '%s'", path);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot create '%s': %s", tmp.buf,
		                    strerror(errno));
		goto out;
	}
	st = rcl_write_all(fd, text, strlen(text), tmp.buf, err);
	if (!st)
		st = rcl_write_all(fd, tail, strlen(tail), tmp.buf, err);
	if (!st && fsync(fd))
		st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot sync '%s': %s", tmp.buf,
		                    strerror(errno));
	close(fd);
	if (!st && rename(tmp.buf, path))
		st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot replace '%s': %s", path,
		                    strerror(errno));
	if (st)
		unlink(tmp.buf);
	else
		fsync_parent_dir(path);
out:
	rcl_buf_release(&tmp);
	return st;
}

/* Whether open() failed with @e because the directory may not be written. */
static bool read_only_errno(int e)
{
	return e == EROFS || e == EACCES || e == EPERM;
}

/*
 * A change cannot take the lock at @path because its directory is read-only:
 * say so, naming the state directory (a controller's lock is in its locks/).
 */
static enum rcl_status read_only_state(const char *path, int e, struct rcl_error *err)
{
	size_t len = strrchr(path, '/') ? (size_t)(strrchr(path, '/') - path) : 0;

	if (len >= 6 && !strncmp(path + len - 6, "/locks", 6))
		len -= 6;
	return rcl_fail_errno(err, RCL_SYSTEM, e,
	                      "the state directory '%.*s' is read-only (%s): nothing can be "
	                      "changed; show commands still work",
	                      (int)len, path, strerror(e));
}

/*
 * How long RCL_LOCK_SHARED_NESTED waits, in ms: RCL_LOCK_NESTED_WAIT_MS, or
 * what the test-only $RAIDCLI_TEST_LOCK_WAIT_MS says (as
 * $RAIDCLI_TEST_CLOCK_SHIFT shifts the schedule's clock), so that a test
 * of the wait's end does not sit through it.
 */
static unsigned long nested_wait_ms(void)
{
	const char *ms = getenv("RAIDCLI_TEST_LOCK_WAIT_MS");

	return ms ? strtoul(ms, NULL, 10) : RCL_LOCK_NESTED_WAIT_MS;
}

/* RCL_LOCK_SHARED_NESTED on @lfd, open on @path: tried every 50 ms until the wait ends. */
static enum rcl_status lock_nested(const char *path, int lfd, int *fd, struct rcl_error *err)
{
	const struct timespec step = {0, 50 * 1000000};
	unsigned long wait = nested_wait_ms();

	for (unsigned long waited = 0; flock(lfd, LOCK_SH | LOCK_NB); waited += 50) {
		int e = errno;

		if ((e == EWOULDBLOCK || e == EINTR) && waited < wait) {
			nanosleep(&step, NULL);
			continue;
		}
		close(lfd);
		if (e != EWOULDBLOCK && e != EINTR)
			return rcl_fail_errno(err, RCL_SYSTEM, e, "cannot lock '%s': %s", path,
			                      strerror(e));
		return rcl_fail(err, RCL_BUSY,
		                "another raidcli command holds '%s' for a change while this one "
		                "holds a lock it may wait for: nothing was changed; try again",
		                path);
	}
	*fd = lfd;
	return RCL_OK;
}

/*
 * A reader opens the lock file read-only (flock() needs no write access). In
 * a state directory it may not write, where the lock file is missing and
 * cannot be created, it reads without a lock: no change can be under way in
 * a directory no one could create that file in.
 */
enum rcl_status rcl_lock(const char *path, enum rcl_lock mode, int *fd, struct rcl_error *err)
{
	int op = mode == RCL_LOCK_EXCLUSIVE ? LOCK_EX : LOCK_SH;
	int flags = (mode == RCL_LOCK_EXCLUSIVE ? O_RDWR : O_RDONLY) | O_CREAT | O_CLOEXEC;
	int lfd = open(path, flags, 0600);

	if (lfd < 0 && read_only_errno(errno) && mode != RCL_LOCK_EXCLUSIVE) {
		*fd = -1;
		return RCL_OK;
	}
	if (lfd < 0 && read_only_errno(errno))
		return read_only_state(path, errno, err);
	if (lfd < 0)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot open lock file '%s': %s",
		                      path, strerror(errno));
	if (mode == RCL_LOCK_SHARED_NESTED)
		return lock_nested(path, lfd, fd, err);
	while (flock(lfd, op)) {
		if (errno == EINTR)
			continue;
		close(lfd);
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot lock '%s': %s", path,
		                      strerror(errno));
	}
	*fd = lfd;
	return RCL_OK;
}

void rcl_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* closing the descriptor drops the flock */
}

bool rcl_json_get_str(json_object *obj, const char *key, const char **out)
{
	json_object *val;

	if (!json_object_object_get_ex(obj, key, &val) ||
	    !json_object_is_type(val, json_type_string))
		return false;
	*out = json_object_get_string(val);
	return true;
}

bool rcl_json_get_uint(json_object *obj, const char *key, uint64_t max, uint64_t *out)
{
	json_object *val;
	int64_t v;

	if (!json_object_object_get_ex(obj, key, &val) || !json_object_is_type(val, json_type_int))
		return false;
	v = json_object_get_int64(val);
	if (v < 0 || (uint64_t)v > max)
		return false;
	*out = (uint64_t)v;
	return true;
}

bool rcl_json_get_bool(json_object *obj, const char *key, bool *out)
{
	json_object *val;

	if (!json_object_object_get_ex(obj, key, &val) ||
	    !json_object_is_type(val, json_type_boolean))
		return false;
	*out = json_object_get_boolean(val);
	return true;
}

enum rcl_status rcl_random_hex(char *out, size_t digits, struct rcl_error *err)
{
	unsigned char bytes[32];
	size_t need = (digits + 1) / 2;

	if (need > sizeof(bytes))
		return rcl_fail(err, RCL_INVALID_PARAM, "too many random digits requested");
	if (getrandom(bytes, need, 0) != (ssize_t)need)
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot get random bytes: %s",
		                      strerror(errno));
	for (size_t i = 0; i < digits; i++)
		out[i] = "0123456789ABCDEF"[(bytes[i / 2] >> (i % 2 ? 0 : 4)) & 0xf];
	out[digits] = '\0';
	return RCL_OK;
}
