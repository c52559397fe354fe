// SPDX-License-Identifier: MIT
/*
 * replay-main.c - run a fuzz target without libFuzzer: feed it every file
 * of the corpus directories (or single files) named on the command line,
 * in name order, as systemd's fuzz-main.c does. meson test runs this over
 * tests/fuzz/corpus/<target>/, so every seed and every crash reproducer
 * committed there is replayed on each test run, under the sanitizers too.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Defined by targets that need set-up; weak so that others need not. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rbe");
	char *data = NULL, *exact;
	size_t size = 0, alloc = 0, n;

	if (!f) {
		fprintf(stderr, "replay: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (size == alloc) {
			char *grown = realloc(data, alloc = alloc ? alloc * 2 : 4096);

			if (!grown) {
				fprintf(stderr, "replay: out of memory reading '%s'\n", path);
				free(data);
				fclose(f);
				return -1;
			}
			data = grown;
		}
		n = fread(data + size, 1, alloc - size, f);
		size += n;
	} while (n);
	if (ferror(f)) {
		fprintf(stderr, "replay: cannot read '%s'\n", path);
		free(data);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* Shrink to the exact size, so ASan sees any read past the input. */
	exact = realloc(data, size ? size : 1);
	if (exact)
		data = exact;
	LLVMFuzzerTestOneInput((const uint8_t *)data, size);
	free(data);
	return 0;
}

static int replay_dir(const char *dir, size_t *count)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	int status = 0;

	if (n < 0) {
		fprintf(stderr, "replay: cannot read directory '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !stat(path, &st) && S_ISREG(st.st_mode)) {
			if (replay_file(path))
				status = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return status;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS-DIR-OR-FILE...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay: cannot use '%s': %s\n", argv[i], strerror(errno));
			status = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (replay_dir(argv[i], &count))
				status = 1;
		} else if (replay_file(argv[i])) {
			status = 1;
		} else {
			count++;
		}
	}
	printf("%s: %zu inputs replayed\n", argv[0], count);
	/* An empty corpus tests nothing: treat it as a mistake in the set-up. */
	return status || !count;
}
