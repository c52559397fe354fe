/* SPDX-License-Identifier: MIT */
/*
 * clock.h - a clock's reading in nanoseconds, for the library's and the
 * server's deadlines and measurements.
 */
#ifndef RCL_CLOCK_H
#define RCL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* @clock's time now, in ns (CLOCK_MONOTONIC: since boot; a CPU-time clock: CPU time used). */
static inline uint64_t rcl_clock_ns(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#endif /* RCL_CLOCK_H */
