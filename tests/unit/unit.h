/* SPDX-License-Identifier: MIT */
/*
 * unit.h - helpers the Check unit tests share: throwaway directories,
 * small file utilities, running one CLI line, and a main() per suite.
 */
#ifndef RCL_UNIT_H
#define RCL_UNIT_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>

#include "raidcli.h"

/* unit_tmpdir() - a new empty directory under $TMPDIR (else /tmp); free() it. */
char *unit_tmpdir(void);
/* unit_rmrf() - remove @path and everything below it; NULL is a no-op. */
void unit_rmrf(const char *path);
/* unit_path() - "@dir/@name" in a new string; free() it. */
char *unit_path(const char *dir, const char *name);
void unit_write(const char *path, const char *text);
/* unit_read() - the whole file as a new string; NULL if it cannot be read. */
char *unit_read(const char *path);
bool unit_exists(const char *path);
/* unit_count() - regular files (@dirs false) or directories below @root. */
size_t unit_count(const char *root, bool dirs);
/* unit_make_image() - a sparse file of @bytes at @path. */
void unit_make_image(const char *path, unsigned long long bytes);

/*
 * unit_run() - what "raidcli @line" prints (text, or JSON with @json),
 * run in-process against $RAIDCLI_STATE_DIR; *@status gets cli_run()'s.
 * The caller frees the result.
 */
char *unit_run(const char *line, bool json, enum rcl_status *status);

/* unit_main() - run @suite, print the summary; the process exit status. */
int unit_main(Suite *suite);

#endif /* RCL_UNIT_H */
