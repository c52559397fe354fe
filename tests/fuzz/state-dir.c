// SPDX-License-Identifier: MIT
/*
 * state-dir.c - the fuzz targets' throwaway state directory, and small
 * file helpers that abort rather than fail: a fuzz run that cannot set up
 * its files would otherwise report nothing while testing nothing.
 */
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char state_dir[PATH_MAX];

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
	abort();
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_state_dir(void)
{
	if (state_dir[0])
		nftw(state_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_state_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (state_dir[0])
		return state_dir;
	snprintf(state_dir, sizeof(state_dir), "%s/raidcli-fuzz-XXXXXX",
	         tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(state_dir)) {
		perror("fuzz: cannot create a state directory");
		abort();
	}
	atexit(remove_state_dir);
	setenv("RAIDCLI_STATE_DIR", state_dir, 1);
	return state_dir;
}

void fuzz_write_file(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	const char *p = data;

	if (fd < 0) {
		perror(path);
		abort();
	}
	while (size) {
		ssize_t n = write(fd, p, size);

		if (n <= 0) {
			perror(path);
			abort();
		}
		p += n;
		size -= (size_t)n;
	}
	close(fd);
}

const char *fuzz_path(const char *dir, const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}
