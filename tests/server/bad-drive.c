// SPDX-License-Identifier: MIT
/*
 * bad-drive.c - an nbdkit plugin serving an image file whose reads of a
 * byte range fail with EIO while a trigger file exists: a drive with bad
 * sectors in its data area and readable metadata, for the controller
 * process's tests (tests/server/rcltest.py bad_drive(), which puts it
 * behind nbdfuse so that raidcli sees a file).
 *
 * Usage: nbdkit -s bad-drive.so [file=]IMAGE [trigger=PATH]
 *		[bad_start=BYTES] [bad_end=BYTES] [delay_ms=MS]
 *	file:	the image served, its size the export's (default: $IMG)
 *	trigger: while this path exists, checked at every read, a read
 *		overlapping [bad_start, bad_end) fails with EIO (default:
 *		$TRIGGER; none: reads never fail)
 *	bad_start, bad_end: the failing range (default: $BAD_START,
 *		$BAD_END, else empty)
 *	delay_ms: each read and write first sleeps this long (default 0), a
 *		drive slow by a known amount however fast the machine
 * Writes and flushes go to the image. One descriptor serves every
 * connection: pread(2) and pwrite(2) at an offset need no lock, so
 * requests run in parallel.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL

static char *image;
static char *trigger;
static int64_t bad_start, bad_end;
static bool have_start, have_end; /* given as parameters */
static uint32_t delay_ms;
static int fd = -1;

/* A path the plugin keeps: nbdkit changes directory before serving. */
static int set_path(char **dst, const char *what, const char *value)
{
	free(*dst);
	*dst = nbdkit_absolute_path(value);
	if (!*dst) {
		nbdkit_error("%s: cannot resolve %s", what, value);
		return -1;
	}
	return 0;
}

static int bd_config(const char *key, const char *value)
{
	if (!strcmp(key, "file"))
		return set_path(&image, key, value);
	if (!strcmp(key, "trigger"))
		return set_path(&trigger, key, value);
	if (!strcmp(key, "bad_start")) {
		have_start = true;
		return nbdkit_parse_int64_t(key, value, &bad_start);
	}
	if (!strcmp(key, "bad_end")) {
		have_end = true;
		return nbdkit_parse_int64_t(key, value, &bad_end);
	}
	if (!strcmp(key, "delay_ms"))
		return nbdkit_parse_uint32_t(key, value, &delay_ms);
	nbdkit_error("unknown parameter '%s'", key);
	return -1;
}

/* A parameter not given on the command line, from the environment. */
static int from_env(const char *name, const char *key)
{
	const char *value = getenv(name);

	return value && *value ? bd_config(key, value) : 0;
}

static int bd_config_complete(void)
{
	if ((!image && from_env("IMG", "file") < 0) ||
	    (!trigger && from_env("TRIGGER", "trigger") < 0) ||
	    (!have_start && from_env("BAD_START", "bad_start") < 0) ||
	    (!have_end && from_env("BAD_END", "bad_end") < 0))
		return -1;
	if (!image) {
		nbdkit_error("no image: give file=IMAGE or set IMG");
		return -1;
	}
	if (bad_start < 0 || bad_end < bad_start) {
		nbdkit_error("bad range [%" PRId64 ", %" PRId64 ") is not one", bad_start, bad_end);
		return -1;
	}
	fd = open(image, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		nbdkit_error("open %s: %m", image);
		return -1;
	}
	return 0;
}

static void bd_unload(void)
{
	if (fd >= 0)
		close(fd);
	free(image);
	free(trigger);
}

static void *bd_open(int readonly)
{
	(void)readonly;
	return NBDKIT_HANDLE_NOT_NEEDED;
}

static int64_t bd_get_size(void *handle)
{
	struct stat st;

	(void)handle;
	if (fstat(fd, &st) < 0) {
		nbdkit_error("stat %s: %m", image);
		return -1;
	}
	return st.st_size;
}

static void delay(void)
{
	struct timespec ts = {delay_ms / 1000, (long)(delay_ms % 1000) * 1000000};

	while (delay_ms && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static bool armed(uint32_t count, uint64_t offset)
{
	return trigger && (int64_t)offset < bad_end && (int64_t)(offset + count) > bad_start &&
	       access(trigger, F_OK) == 0;
}

static int bd_pread(void *handle, void *buf, uint32_t count, uint64_t offset, uint32_t flags)
{
	char *p = buf;

	(void)handle;
	(void)flags;
	delay();
	if (armed(count, offset)) {
		nbdkit_error("injected read error: %" PRIu32 " bytes at %" PRIu64, count, offset);
		nbdkit_set_error(EIO);
		return -1;
	}
	while (count) {
		ssize_t n = pread(fd, p, count, offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO; /* past the end: the image shrank */
			nbdkit_error("read %s: %m", image);
			return -1;
		}
		p += n;
		count -= n;
		offset += n;
	}
	return 0;
}

static int bd_flush(void *handle, uint32_t flags)
{
	(void)handle;
	(void)flags;
	if (fdatasync(fd) < 0) {
		nbdkit_error("fdatasync %s: %m", image);
		return -1;
	}
	return 0;
}

static int bd_pwrite(void *handle, const void *buf, uint32_t count, uint64_t offset, uint32_t flags)
{
	const char *p = buf;

	delay();
	while (count) {
		ssize_t n = pwrite(fd, p, count, offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			nbdkit_error("write %s: %m", image);
			return -1;
		}
		p += n;
		count -= n;
		offset += n;
	}
	return flags & NBDKIT_FLAG_FUA ? bd_flush(handle, 0) : 0;
}

static int bd_can_fua(void *handle)
{
	(void)handle;
	return NBDKIT_FUA_NATIVE;
}

static struct nbdkit_plugin plugin = {
    .name = "bad-drive",
    .longname = "raidcli's failing test drive",
    .description = "An image file whose reads of a range fail while a trigger file exists.",
    .config = bd_config,
    .config_complete = bd_config_complete,
    .config_help = "[file=]IMAGE      the image served (default $IMG)\n"
                   "trigger=PATH      reads in the range fail while PATH exists ($TRIGGER)\n"
                   "bad_start=BYTES   the failing range's start ($BAD_START)\n"
                   "bad_end=BYTES     its end, exclusive ($BAD_END)\n"
                   "delay_ms=MS       each read and write first sleeps MS ms",
    .magic_config_key = "file",
    .unload = bd_unload,
    .open = bd_open,
    .get_size = bd_get_size,
    .pread = bd_pread,
    .pwrite = bd_pwrite,
    .flush = bd_flush,
    .can_fua = bd_can_fua,
    .errno_is_preserved = 1,
};

/* NBDKIT_REGISTER_PLUGIN defines it; declared for -Wmissing-prototypes. */
struct nbdkit_plugin *plugin_init(void);

NBDKIT_REGISTER_PLUGIN(plugin)
