/* SPDX-License-Identifier: MIT */
/*
 * io.h - every write the soft controller makes to its drives' metadata
 * (GPT, md superblocks and bitmaps, configuration records) goes through
 * one hook, so that fault tests can fail or drop the k-th write of a
 * change and check what a crash there leaves behind. Reads are plain
 * pread().
 */
#ifndef RCL_SOFT_IO_H
#define RCL_SOFT_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

/**
 * struct rcl_soft_io - the write calls. Production uses pwrite() and
 * fdatasync() as they are.
 */
struct rcl_soft_io {
	ssize_t (*pwrite)(int fd, const void *buf, size_t len, off_t offset);
	int (*fdatasync)(int fd);
};

/**
 * rcl_soft_set_io() - route the soft controller's writes through @io (for
 * tests); NULL restores pwrite() and fdatasync(). Not thread-safe.
 */
void rcl_soft_set_io(const struct rcl_soft_io *io);

/* rcl_soft_io() - the hook in force. */
const struct rcl_soft_io *rcl_soft_io(void);

/**
 * rcl_soft_write() - write all @len bytes of @buf at @off on @fd through
 * the hook, retrying short writes.
 * Return: RCL_OK, or RCL_SYSTEM saying "cannot write the @what".
 */
enum rcl_status rcl_soft_write(int fd, const void *buf, size_t len, uint64_t off, const char *what,
                               struct rcl_error *err);

/* rcl_soft_sync() - fdatasync @fd through the hook; RCL_SYSTEM names @what. */
enum rcl_status rcl_soft_sync(int fd, const char *what, struct rcl_error *err);

/**
 * rcl_soft_read_upto() - read @len bytes at @off, or as many as the drive
 * has before its end; how many in *@got.
 * Return: RCL_OK, or RCL_SYSTEM saying "cannot read the @what" (a read failed).
 */
enum rcl_status rcl_soft_read_upto(int fd, void *buf, size_t len, uint64_t off, const char *what,
                                   size_t *got, struct rcl_error *err);

/**
 * rcl_soft_read() - read exactly @len bytes at @off.
 * Return: RCL_OK, or RCL_SYSTEM (an error or the end of the drive).
 */
enum rcl_status rcl_soft_read(int fd, void *buf, size_t len, uint64_t off, struct rcl_error *err);

#endif /* RCL_SOFT_IO_H */
