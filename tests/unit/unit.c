// SPDX-License-Identifier: MIT
/*
 * unit.c - helpers the Check unit tests share (see unit.h).
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "unit.h"
#include "soft/soft.h"

char *unit_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *path = NULL;

	ck_assert_int_ne(asprintf(&path, "%s/raidcli-unit-XXXXXX", tmp && *tmp ? tmp : "/tmp"), -1);
	ck_assert_ptr_nonnull(mkdtemp(path));
	return path;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void unit_rmrf(const char *path)
{
	if (path)
		nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *unit_path(const char *dir, const char *name)
{
	char *path = NULL;

	ck_assert_int_ne(asprintf(&path, "%s/%s", dir, name), -1);
	return path;
}

void unit_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	ck_assert_msg(f, "cannot write '%s'", path);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

char *unit_read(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t size = 0;
	FILE *mem;
	int c;

	if (!f)
		return NULL;
	mem = open_memstream(&text, &size);
	ck_assert_ptr_nonnull(mem);
	while ((c = fgetc(f)) != EOF)
		fputc(c, mem);
	fclose(f);
	fclose(mem);
	return text;
}

bool unit_exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static size_t counted;
static bool counting_dirs;
static const char *count_root;

static int count_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (!strcmp(path, count_root))
		return 0;
	if (counting_dirs ? flag == FTW_D || flag == FTW_DP : flag == FTW_F)
		counted++;
	return 0;
}

size_t unit_count(const char *root, bool dirs)
{
	counted = 0;
	counting_dirs = dirs;
	count_root = root;
	if (unit_exists(root))
		nftw(root, count_entry, 16, FTW_PHYS);
	return counted;
}

void unit_make_image(const char *path, unsigned long long bytes)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	ck_assert_msg(fd >= 0, "cannot create '%s'", path);
	ck_assert_int_eq(ftruncate(fd, (off_t)bytes), 0);
	close(fd);
}

int unit_drive_new(uint64_t bytes)
{
	int fd = memfd_create("drive", MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)bytes), 0);
	return fd;
}

void unit_get(int fd, void *buf, size_t len, uint64_t off)
{
	ck_assert_int_eq(pread(fd, buf, len, (off_t)off), (ssize_t)len);
}

void unit_put(int fd, const void *buf, size_t len, uint64_t off)
{
	ck_assert_int_eq(pwrite(fd, buf, len, (off_t)off), (ssize_t)len);
}

void unit_put_le(uint8_t *p, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void unit_state_enter(struct unit_state *st, const char *sub)
{
	st->root = unit_tmpdir();
	st->dir = sub ? unit_path(st->root, sub) : strdup(st->root);
	ck_assert_ptr_nonnull(st->dir);
	setenv("RAIDCLI_STATE_DIR", st->dir, 1);
}

void unit_state_leave(struct unit_state *st)
{
	unit_rmrf(st->root);
	free(st->root);
	free(st->dir);
	*st = (struct unit_state){0};
}

struct rcl_ctx *unit_ctx_new(const char *dir)
{
	struct rcl_error err = {0};
	struct rcl_ctx *ctx = NULL;

	ck_assert_msg(rcl_ctx_new(&ctx, dir, &err) == RCL_OK, "%s", err.msg);
	return ctx;
}

unsigned unit_soft_create(struct rcl_ctx *ctx, unsigned drives, uint64_t bytes)
{
	struct rcl_soft_params params = {
	    .drives = drives, .drive_bytes = bytes, .sector_size = 512};
	struct rcl_error err = {0};
	unsigned id = 0;

	ck_assert_msg(rcl_soft_create(ctx, &params, &id, &err) == RCL_OK, "%s", err.msg);
	return id;
}

char *unit_run(const char *line, bool json, enum rcl_status *status)
{
	struct rcl_error err = {0};
	struct rcl_reply reply;
	struct cmd_args args;
	char **argv, *text = NULL;
	size_t size = 0;
	FILE *out;
	int argc;

	ck_assert_msg(!cli_split_line(line, &argc, &argv, &err), "%s", err.msg);
	ck_assert_msg(!cli_parse(argc, argv, &args, &err), "'%s': %s", line, err.msg);
	rcl_reply_init(&reply);
	*status = cli_run(&args, &reply, NULL);
	out = open_memstream(&text, &size);
	ck_assert_ptr_nonnull(out);
	if (json)
		render_json(out, &reply);
	else
		render_text(out, &reply, false);
	fclose(out);
	rcl_reply_release(&reply);
	cli_free_words(argc, argv);
	return text;
}

int unit_main(Suite *suite)
{
	SRunner *runner = srunner_create(suite);
	int failed;

	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
