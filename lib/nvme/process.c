// SPDX-License-Identifier: MIT
/*
 * process.c - the nvme controller's process hooks: the engine's
 * (rcl_soft_process), and a watch on the host's NVMe namespaces.
 *
 * The engine learns that a member's device is gone when the controller is
 * loaded (the host's scan leaves its slot out: the member missing) or when
 * an exported VD's I/O meets it; the process loads the controller to poll
 * after a command or a failure only. A drive unplugged from an idle VD
 * would so stay a member until the next command. The tick therefore looks
 * at which NVMe block devices sysfs has (a directory read, cheap at every
 * tick) and, when they changed, wakes the loop as an I/O failure does
 * (exports_wake()): failures the volumes reported meanwhile are recorded
 * first, then the poll fails a member whose drive went away and a hot
 * spare rebuilds it, with no command.
 */
#include <dirent.h>
#include <stdint.h>
#include <string.h>

#include "nvme/nvme.h"
#include "soft/host.h"

#define SYSFS_BLOCK "/sys/block"

/*
 * The NVMe block devices sysfs has now ("nvme0n1" ...), as a count and
 * an order-free sum of the names' FNV-1a hashes.
 */
struct ns_census {
	size_t count;
	uint64_t sum;
};

static struct ns_census census_take(void)
{
	struct ns_census c = {0};
	DIR *d = opendir(SYSFS_BLOCK);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		uint64_t h = 14695981039346656037ull;

		if (strncmp(de->d_name, "nvme", 4))
			continue;
		for (const char *p = de->d_name; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		c.count++;
		c.sum += h;
	}
	if (d)
		closedir(d);
	return c;
}

static struct ns_census seen;

/* Whether the NVMe block devices changed since the last look (one added polls for nothing). */
static bool namespaces_changed(void)
{
	struct ns_census now = census_take();
	bool changed = now.count != seen.count || now.sum != seen.sum;

	seen = now;
	return changed;
}

static void start(unsigned id)
{
	seen = census_take();
	rcl_soft_process.start(id);
}

static void tick(unsigned id)
{
	rcl_soft_process.tick(id);
	if (namespaces_changed())
		exports_wake();
}

/* The engine's other hooks, as they are (a const table's members cannot initialize another's). */
static void poll_tasks(unsigned id)
{
	rcl_soft_process.poll(id);
}

static bool busy(void)
{
	return rcl_soft_process.busy();
}

static void after_command(unsigned id)
{
	rcl_soft_process.after_command(id);
}

static void notified(int fd, unsigned id)
{
	rcl_soft_process.notified(fd, id);
}

static void stop(unsigned id)
{
	rcl_soft_process.stop(id);
}

const struct rcl_process_ops rcl_nvme_process = {
    .start = start,
    .poll = poll_tasks,
    .tick = tick,
    .busy = busy,
    .after_command = after_command,
    .notified = notified,
    .stop = stop,
};
