// SPDX-License-Identifier: MIT
/*
 * voltool.c - read or write a soft controller's virtual drive through the
 * soft RAID engine (lib/soft/engine/volume.h), for tests that compare it with
 * another implementation (Linux md in a VM).
 *
 * Usage: voltool STATE_DIR CTRL VD read|write OFFSET LEN FILE
 *	read:	LEN bytes of the VD from OFFSET into FILE (created)
 *	write:	LEN bytes of FILE (from its start) to the VD at OFFSET, FUA
 * OFFSET and LEN are bytes, multiples of the VD's sector size. The
 * controller is opened with a shared lock, so configuration changes wait.
 * Exit status: 0, 1 for bad usage or a file error, 2 when the controller
 * or VD cannot be opened, 3 when the engine fails the request.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "raidcli.h"
#include "soft/soft.h"
#include "soft/engine/volume.h"

struct job {
	const char *file;
	bool write;
	uint64_t off;
	size_t len;
};

/* A member failing mid-request is reported; the request itself goes on. */
static void member_failed(void *ctx, unsigned vd, unsigned member, const struct rcl_guid *drive,
                          int error)
{
	(void)ctx;
	(void)drive;
	fprintf(stderr, "voltool: /v%u member %u failed: %s\n", vd, member, strerror(error));
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return !errno && *s && !*end;
}

static bool file_io(const struct job *job, void *buf)
{
	int fd = job->write ? open(job->file, O_RDONLY | O_CLOEXEC)
	                    : open(job->file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0) {
		perror(job->file);
		return false;
	}
	while (done < job->len) {
		ssize_t n = job->write ? read(fd, (char *)buf + done, job->len - done)
		                       : write(fd, (char *)buf + done, job->len - done);

		if (n <= 0) {
			fprintf(stderr, "voltool: %s: %s\n", job->file,
			        n ? strerror(errno) : "shorter than LEN");
			close(fd);
			return false;
		}
		done += (size_t)n;
	}
	return !close(fd);
}

/* The request on the open volume. Return: the exit status. */
static int run(struct rcl_soft_volume *vol, const struct job *job)
{
	void *buf = malloc(job->len ? job->len : 1);
	int rc;

	if (!buf || (job->write && !file_io(job, buf))) {
		free(buf);
		return 1;
	}
	rc = job->write ? rcl_soft_volume_write(vol, buf, job->len, job->off, RCL_SOFT_IO_FUA)
	                : rcl_soft_volume_read(vol, buf, job->len, job->off);
	if (rc)
		fprintf(stderr, "voltool: %s failed: %s\n", job->write ? "write" : "read",
		        strerror(-rc));
	else if (!job->write && !file_io(job, buf))
		rc = 1;
	free(buf);
	return rc < 0 ? 3 : rc;
}

int main(int argc, char **argv)
{
	const struct rcl_soft_volume_owner owner = {.failed = member_failed};
	struct rcl_soft_volume *vol = NULL;
	struct rcl_error err = {0};
	struct rcl_ctrl *ctrl = NULL;
	struct rcl_ctx *ctx = NULL;
	uint64_t ctrl_id, vd, len;
	struct job job;
	int rc;

	if (argc != 8 || !parse_u64(argv[2], &ctrl_id) || !parse_u64(argv[3], &vd) ||
	    (strcmp(argv[4], "read") && strcmp(argv[4], "write")) ||
	    !parse_u64(argv[5], &job.off) || !parse_u64(argv[6], &len)) {
		fprintf(stderr, "usage: voltool STATE_DIR CTRL VD read|write OFFSET LEN FILE\n");
		return 1;
	}
	job = (struct job){argv[7], !strcmp(argv[4], "write"), job.off, (size_t)len};
	if (rcl_ctx_new(&ctx, argv[1], &err) ||
	    rcl_ctrl_open(ctx, (unsigned)ctrl_id, RCL_LOCK_SHARED, &ctrl, &err) ||
	    ctrl->entry.ops != &rcl_soft_ops || !((struct soft_ctrl *)ctrl->priv)->state ||
	    rcl_soft_volume_open(((struct soft_ctrl *)ctrl->priv)->state, (unsigned)vd, &owner,
	                         &vol, &err)) {
		fprintf(stderr, "voltool: %s\n", err.msg[0] ? err.msg : "not a soft controller");
		rcl_ctrl_close(ctrl);
		rcl_ctx_free(ctx);
		return 2;
	}
	rc = run(vol, &job);
	rcl_soft_volume_close(vol);
	rcl_ctrl_close(ctrl);
	rcl_ctx_free(ctx);
	return rc;
}
