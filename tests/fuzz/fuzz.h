/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what the fuzz targets, the libFuzzer driver and replay-main.c
 * share: libFuzzer's entry points and a throwaway state directory.
 */
#ifndef RCL_FUZZ_H
#define RCL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* libFuzzer's entry points; replay-main.c calls them the same way. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Abort (a crash the fuzzer reports) when an invariant does not hold. */
#define FUZZ_CHECK(cond)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fuzz_fail(__FILE__, __LINE__, #cond);                                      \
	} while (0)

void fuzz_fail(const char *file, int line, const char *what) __attribute__((noreturn));

/*
 * fuzz_state_dir() - a new empty directory under $TMPDIR (else /tmp),
 * removed with its contents at exit, and exported as RAIDCLI_STATE_DIR.
 * Aborts if it cannot be made: a target without its directory tests nothing.
 */
const char *fuzz_state_dir(void);

/* fuzz_write_file() - replace @path by @size bytes of @data; aborts on error. */
void fuzz_write_file(const char *path, const void *data, size_t size);

/* fuzz_path() - "@dir/@name" in a static buffer reused by the next call. */
const char *fuzz_path(const char *dir, const char *name);

#endif /* RCL_FUZZ_H */
