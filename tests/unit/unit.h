/* SPDX-License-Identifier: MIT */
/*
 * unit.h - helpers the Check unit tests share: throwaway directories and
 * state directories, small file utilities, in-memory drives, soft
 * controllers, running one CLI line, and a main() per suite.
 */
#ifndef RCL_UNIT_H
#define RCL_UNIT_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * unit_drive_new() - a drive of @bytes as a memfd: sparse, in memory, with
 * an image file's pread/pwrite/fdatasync behaviour; close() it.
 */
int unit_drive_new(uint64_t bytes);
/* unit_get(), unit_put() - read or write exactly @len bytes at @off on @fd. */
void unit_get(int fd, void *buf, size_t len, uint64_t off);
void unit_put(int fd, const void *buf, size_t len, uint64_t off);
/* unit_put_le() - @v as a little-endian integer of @width bytes at @p. */
void unit_put_le(uint8_t *p, uint64_t v, int width);

/**
 * struct unit_state - a throwaway state directory for one test.
 * @root:	a new temporary directory, removed with everything below it
 * @dir:	$RAIDCLI_STATE_DIR: @root or a path below it, not yet made
 */
struct unit_state {
	char *root;
	char *dir;
};

/*
 * unit_state_enter() - fill @st, @dir being @sub below @root (NULL: @root
 * itself), and point $RAIDCLI_STATE_DIR at @dir.
 */
void unit_state_enter(struct unit_state *st, const char *sub);
/* unit_state_leave() - remove @st's directory and free its paths. */
void unit_state_leave(struct unit_state *st);

/* unit_ctx_new() - a context on the state directory @dir; rcl_ctx_free() it. */
struct rcl_ctx *unit_ctx_new(const char *dir);
/*
 * unit_soft_create() - a soft controller in @ctx of @drives sparse images
 * of @bytes with 512-byte sectors. Return: its id.
 */
unsigned unit_soft_create(struct rcl_ctx *ctx, unsigned drives, uint64_t bytes);

/*
 * unit_run() - what "raidcli @line" prints (text, or JSON with @json),
 * run in-process against $RAIDCLI_STATE_DIR; *@status gets cli_run()'s.
 * The caller frees the result.
 */
char *unit_run(const char *line, bool json, enum rcl_status *status);

/* unit_main() - run @suite, print the summary; the process exit status. */
int unit_main(Suite *suite);

#endif /* RCL_UNIT_H */
