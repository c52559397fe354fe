// SPDX-License-Identifier: MIT
/*
 * nbd-file-export.c - a TEST FIXTURE: serves one image file through the NBD
 * server in server/ so that real clients (nbdinfo, qemu-img, nbdcopy, fio,
 * nbdfuse) can test the server. Real exports (RAID volumes) come from the
 * controller process; this program is not installed.
 *
 *   nbd-file-export (--socket PATH | --tcp [HOST]:PORT) [--name NAME]
 *       [--description TEXT] [--read-only] [--threads N]
 *       [--blocks MIN:PREFERRED:MAX] [--no-trim] [--no-zero] FILE
 *
 * Prints the bound address on one line once it listens, then serves until
 * SIGTERM or SIGINT, stops the server (clients connected or not) and exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "nbd.h"

static char zeros[1u << 16];

static int file_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	int fd = *(int *)ctx;
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO; /* the file shrank under us */
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* FUA as RWF_DSYNC: the data and what is needed to read it back, in one call. */
static int file_write(void *ctx, const void *buf, size_t len, uint64_t off, bool fua)
{
	int fd = *(int *)ctx;
	const char *p = buf;

	while (len) {
		struct iovec iov = {.iov_base = (void *)p, .iov_len = len};
		ssize_t n = pwritev2(fd, &iov, 1, (off_t)off, fua ? RWF_DSYNC : 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int file_flush(void *ctx)
{
	return fdatasync(*(int *)ctx) ? -errno : 0;
}

/* Trim is a hint: a file system that cannot punch holes just keeps the data. */
static int file_trim(void *ctx, size_t len, uint64_t off)
{
	int fd = *(int *)ctx;

	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) &&
	    errno != EOPNOTSUPP)
		return -errno;
	return 0;
}

static int file_zero(void *ctx, size_t len, uint64_t off, bool fua)
{
	int fd = *(int *)ctx;
	int rc = 0;

	if (fallocate(fd, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) &&
	    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len)) {
		while (len && !rc) {
			size_t chunk = len < sizeof(zeros) ? len : sizeof(zeros);

			rc = file_write(ctx, zeros, chunk, off, false);
			off += chunk;
			len -= chunk;
		}
	}
	return rc || !fua ? rc : file_flush(ctx);
}

static void usage(void)
{
	fprintf(stderr, "usage: nbd-file-export (--socket PATH | --tcp [HOST]:PORT) [--name NAME]\n"
	                "       [--description TEXT] [--read-only] [--threads N]\n"
	                "       [--blocks MIN:PREFERRED:MAX] [--no-trim] [--no-zero] FILE\n");
	exit(2);
}

/* "[HOST]:PORT"; an empty host leaves the server's default (127.0.0.1). */
static void parse_tcp(char *arg, struct rcl_nbd_listen *where)
{
	char *colon = strrchr(arg, ':');

	if (!colon)
		usage();
	*colon = '\0';
	where->host = *arg ? arg : NULL;
	where->port = (unsigned)strtoul(colon + 1, NULL, 10);
}

static void parse_args(int argc, char **argv, struct rcl_nbd_export *ex,
                       struct rcl_nbd_listen *where, unsigned *threads)
{
	static const struct option options[] = {
	    {"socket", required_argument, NULL, 's'}, {"tcp", required_argument, NULL, 't'},
	    {"name", required_argument, NULL, 'n'},   {"description", required_argument, NULL, 'd'},
	    {"read-only", no_argument, NULL, 'r'},    {"threads", required_argument, NULL, 'j'},
	    {"blocks", required_argument, NULL, 'b'}, {"no-trim", no_argument, NULL, 'T'},
	    {"no-zero", no_argument, NULL, 'Z'},      {NULL, 0, NULL, 0},
	};
	bool tcp = false;
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 's':
			where->socket_path = optarg;
			break;
		case 't':
			parse_tcp(optarg, where);
			tcp = true;
			break;
		case 'n':
			ex->name = optarg;
			break;
		case 'd':
			ex->description = optarg;
			break;
		case 'r':
			ex->read_only = true;
			break;
		case 'j':
			*threads = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'b':
			if (sscanf(optarg, "%u:%u:%u", &ex->min_block, &ex->preferred_block,
			           &ex->max_block) != 3)
				usage();
			break;
		case 'T':
			ex->trim = NULL;
			break;
		case 'Z':
			ex->zero = NULL;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || !(where->socket_path || tcp))
		usage();
}

int main(int argc, char **argv)
{
	static int fd;
	struct rcl_nbd_export ex = {
	    .name = "",
	    .read = file_read,
	    .write = file_write,
	    .flush = file_flush,
	    .trim = file_trim,
	    .zero = file_zero,
	    .ctx = &fd,
	};
	struct rcl_nbd_listen where = {0};
	struct rcl_nbd_server *srv;
	struct rcl_error err;
	struct stat st;
	unsigned threads = 4;
	sigset_t stop_signals;
	int sig;

	parse_args(argc, argv, &ex, &where, &threads);
	fd = open(argv[optind], ex.read_only ? O_RDONLY : O_RDWR);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[optind]);
		return 1;
	}
	ex.bytes = (uint64_t)st.st_size;

	/* sigwait() takes the stop signals only while they are blocked. */
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGTERM);
	sigaddset(&stop_signals, SIGINT);
	pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);

	if (rcl_nbd_server_start(&ex, &where, threads, &srv, &err)) {
		fprintf(stderr, "nbd-file-export: %s\n", err.msg);
		return 1;
	}
	printf("%s\n", rcl_nbd_server_address(srv));
	fflush(stdout);
	sigwait(&stop_signals, &sig);
	rcl_nbd_server_stop(srv);
	close(fd);
	return 0;
}
