// SPDX-License-Identifier: MIT
//
// timeruns NAME COUNT PROGRAM [ARG]... - run PROGRAM COUNT times, its
// output to /dev/null, and print "NAME NANOSECONDS" for each run. For
// bench/nvme-show.sh: the VM's busybox has neither hyperfine nor a clock
// finer than 10 ms (no date +%N).
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// One run of argv[0]: its wall time in ns, or -1 when it did not exit 0.
static long long run_once(char **argv)
{
	long long start = now_ns();
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return now_ns() - start;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: timeruns NAME COUNT PROGRAM [ARG]...\n");
		return 2;
	}
	for (long i = 0, count = atol(argv[2]); i < count; i++) {
		long long ns = run_once(argv + 3);

		if (ns < 0) {
			fprintf(stderr, "timeruns: %s failed\n", argv[3]);
			return 1;
		}
		printf("%s %lld\n", argv[1], ns);
	}
	return 0;
}
