// SPDX-License-Identifier: MIT
/*
 * nvme.c - the nvme backend: the host's NVMe drives as one controller.
 *
 * How NVMe maps onto StorCLI's objects (raidcli-backends(7)): a host with
 * any NVMe controller has one controller of kind "nvme" (registry key
 * "host"), found by discovery, never created. Each NVMe controller (one
 * drive, or one port of a dual-ported drive) is a drive /cN/e252/sS on
 * one virtual enclosure; its slot is remembered per drive (slots.c), so
 * it stays across reboots and hot-plug, and a drive that vanished is
 * shown Msng in its slot. A drive is exposed to the host as it is: state
 * JBOD. Its namespaces are shown with it, and what uses them (a mount,
 * swap, md, a file system: scan.c). The topology comes from sysfs, so
 * "show" needs no privilege; what only the drive can answer (identify,
 * SMART/health, its log pages) is asked through its character device
 * (root), for "show all" and "show smart". "show all" sends identify and
 * Get Log Page only: nothing that changes the drive or its counters.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nvme/actions.h"
#include "nvme/admin.h"
#include "nvme/logs.h"
#include "nvme/nvme.h"
#include "nvme/task.h"
#include "soft/host.h"

/* The most bytes of an FDP log "show all" reads (configurations of a few handles take 100s). */
#define FDP_LOG_MAX (64u << 10)

/* The one controller's registry key: the host's NVMe drives. */
#define HOST_KEY "host"

/*
 * An open nvme controller: the drives found, the slots remembered and each
 * slot's drive as NVMe describes it (@ident), which the soft engine's
 * model is dressed in (ctrl->priv is the engine's: soft/host.h).
 */
struct nvme_priv {
	struct rcl_nvme_dev *devs;
	size_t dev_count;
	struct rcl_nvme_slot *slots;
	size_t slot_count;
	struct rcl_drive *ident;
	size_t ident_count;
};

static enum rcl_status nvme_discover(struct rcl_ctx *ctx, char (*keys)[RCL_KEY_SIZE], size_t max,
                                     size_t *count, struct rcl_error *err)
{
	(void)ctx;
	(void)err;
	*count = 0;
	if (max && rcl_nvme_present()) {
		strcpy(keys[0], HOST_KEY);
		*count = 1;
	}
	return RCL_OK;
}

static void priv_free(struct nvme_priv *p)
{
	if (!p)
		return;
	rcl_nvme_devs_free(p->devs, p->dev_count);
	rcl_free(p->slots);
	rcl_free(p->ident);
	rcl_free(p);
}

static void nvme_unload(struct rcl_ctrl *ctrl)
{
	priv_free(rcl_soft_host_priv(ctrl));
	rcl_soft_unload(ctrl);
}

/* Read the slots remembered for @ctrl, give the drives found theirs, and save new ones. */
static enum rcl_status load_slots(struct rcl_ctrl *ctrl, struct nvme_priv *p, struct rcl_error *err)
{
	json_object *root = NULL, *next;
	char *path = NULL;
	bool changed;
	struct rcl_buf sb = RCL_BUF_INIT;
	enum rcl_status st;

	rcl_buf_addf(&sb, "%s/nvme/%s.json", ctrl->ctx->state_dir, ctrl->entry.key);
	path = rcl_buf_detach(&sb);
	if (!path)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_state_read(path, &root, err);
	if (st == RCL_NOT_FOUND)
		st = RCL_OK;
	if (!st)
		st = rcl_nvme_slots_read(root, path, &p->slots, &p->slot_count, err);
	if (!st)
		st = rcl_nvme_slots_assign(&p->slots, &p->slot_count, p->devs, p->dev_count,
		                           &changed, err);
	/*
	 * A drive seen for the first time keeps its slot from now on. Two
	 * readers that meet a new drive at once give it the same slot (the
	 * lowest free one), so a shared lock is enough to write it.
	 */
	if (!st && changed) {
		next = rcl_nvme_slots_json(p->slots, p->slot_count);
		st = next ? rcl_mkdir_in(ctrl->ctx->state_dir, "nvme", 0700, err)
		          : rcl_fail(err, RCL_NOMEM, "out of memory");
		if (!st)
			st = rcl_state_write(path, next, err);
		json_object_put(next);
	}
	json_object_put(root);
	rcl_free(path);
	return st;
}

/* Open @dev's character device, or fail saying why (not root: EACCES). */
static enum rcl_status open_dev(const struct rcl_nvme_dev *dev, int *fd, struct rcl_error *err)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/%s", dev->name);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return rcl_fail_errno(err, errno == ENOENT ? RCL_NOT_FOUND : RCL_SYSTEM, errno,
		                      "cannot open '%s': %s", path, strerror(errno));
	return RCL_OK;
}

/* The health a drive reports in its SMART log, where it can be asked (root). */
static void read_health(const struct rcl_nvme_dev *dev, struct rcl_drive *d)
{
	struct nvme_smart_log log;
	int fd;

	if (open_dev(dev, &fd, NULL))
		return;
	memset(&log, 0, sizeof(log));
	if (!nvme_get_log_smart(fd, NVME_NSID_ALL, false, &log)) {
		unsigned k = (unsigned)log.temperature[1] << 8 | log.temperature[0];

		d->temperature_c = k > 273 ? k - 273 : 0;
		d->smart_alert = log.critical_warning != 0;
		d->media_errors = (unsigned)rcl_nvme_le128(log.media_errors);
		d->other_errors = (unsigned)rcl_nvme_le128(log.num_err_log_entries);
	}
	close(fd);
}

/* The backend's facts about @dev: its controller, address, namespaces and their use. */
static void add_attrs(const struct rcl_nvme_dev *dev, struct rcl_drive *d)
{
	struct rcl_attr *a = d->attrs;
	const char *use = "No";
	size_t len = 0;

	snprintf(a[0].key, sizeof(a[0].key), "NVMe Controller");
	snprintf(a[0].value, sizeof(a[0].value), "%s", dev->name);
	snprintf(a[1].key, sizeof(a[1].key), "%s",
	         strcmp(dev->transport, "pcie") ? "Transport Address" : "PCI Address");
	snprintf(a[1].value, sizeof(a[1].value), "%s", dev->address);
	snprintf(a[2].key, sizeof(a[2].key), "Namespaces");
	for (size_t i = 0; i < dev->ns_count && len < sizeof(a[2].value); i++) {
		len += (size_t)snprintf(a[2].value + len, sizeof(a[2].value) - len, "%s%s",
		                        i ? ", " : "", dev->ns[i].name);
		if (dev->ns[i].in_use[0] && !strcmp(use, "No"))
			use = dev->ns[i].in_use;
	}
	if (!dev->ns_count)
		snprintf(a[2].value, sizeof(a[2].value), "None");
	snprintf(a[3].key, sizeof(a[3].key), "In Use");
	snprintf(a[3].value, sizeof(a[3].value), "%s", use);
	d->attr_count = 4;
	if (strcmp(use, "No"))
		snprintf(d->in_use, sizeof(d->in_use), "%s", use);
}

static void fill_present(const struct rcl_nvme_dev *dev, struct rcl_drive *d)
{
	const struct rcl_nvme_ns *named = NULL;

	d->present = true;
	d->state = RCL_PD_JBOD;
	/* The controller's character device: the admin commands' way in. */
	snprintf(d->path, sizeof(d->path), "/dev/%s", dev->name);
	snprintf(d->serial, sizeof(d->serial), "%s", dev->serial);
	snprintf(d->model, sizeof(d->model), "%s", dev->model);
	snprintf(d->firmware, sizeof(d->firmware), "%s", dev->firmware);
	for (size_t i = 0; i < dev->ns_count; i++) {
		d->raw_bytes += dev->ns[i].lba_count * dev->ns[i].lba_size;
		/* The drive's WWN: its lowest-numbered namespace's that has one. */
		if (dev->ns[i].wwn[0] && (!named || dev->ns[i].nsid < named->nsid))
			named = &dev->ns[i];
	}
	if (named)
		snprintf(d->wwn, sizeof(d->wwn), "%s", named->wwn);
	d->coerced_bytes = d->raw_bytes >> 20 << 20;
	d->logical_sector = dev->ns_count ? dev->ns[0].lba_size : 512;
	d->physical_sector = d->logical_sector;
	snprintf(d->link_speed, sizeof(d->link_speed), "%.15s", dev->link);
	snprintf(d->device_speed, sizeof(d->device_speed), "%.15s", dev->max_link);
	add_attrs(dev, d);
	read_health(dev, d);
}

/* @ctrl's model from what was found and remembered in @p. */
static enum rcl_status fill_model(struct rcl_ctrl *ctrl, const struct nvme_priv *p,
                                  struct rcl_error *err)
{
	unsigned slots = p->slot_count ? p->slots[p->slot_count - 1].slot + 1 : 0;

	ctrl->enclosures = rcl_calloc(1, sizeof(*ctrl->enclosures));
	ctrl->drives = rcl_calloc(p->slot_count ? p->slot_count : 1, sizeof(*ctrl->drives));
	if (!ctrl->enclosures || !ctrl->drives)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	ctrl->enclosures[0] = (struct rcl_enclosure){.id = RCL_NVME_ENCLOSURE, .slots = slots};
	snprintf(ctrl->enclosures[0].product, sizeof(ctrl->enclosures[0].product), "NVMe");
	ctrl->enclosure_count = 1;
	for (size_t i = 0; i < p->slot_count; i++) {
		const struct rcl_nvme_slot *s = &p->slots[i];
		struct rcl_drive *d = &ctrl->drives[i];

		d->enclosure = RCL_NVME_ENCLOSURE;
		d->slot = s->slot;
		d->device_id = s->slot;
		d->dg = -1;
		d->kind = RCL_DRIVE_BLOCK;
		d->state = RCL_PD_MISSING;
		snprintf(d->serial, sizeof(d->serial), "%s", s->serial);
		snprintf(d->model, sizeof(d->model), "%s", s->model);
		snprintf(d->vendor, sizeof(d->vendor), "NVMe");
		snprintf(d->interface, sizeof(d->interface), "NVMe");
		snprintf(d->medium, sizeof(d->medium), "SSD");
		if (s->dev >= 0)
			fill_present(&p->devs[s->dev], d);
	}
	ctrl->drive_count = p->slot_count;
	return RCL_OK;
}

/* What the controller says about itself: the host's NVMe driver. */
static void fill_info(struct rcl_ctrl *ctrl)
{
	struct rcl_ctrl_info *info = &ctrl->info;
	struct utsname u;

	memset(info, 0, sizeof(*info));
	/* Its serial is the engine's (rcl_soft_host_load()): the one its exports and arrays bear.
	 */
	snprintf(info->model, sizeof(info->model), "NVMe drives of this host");
	snprintf(info->driver_name, sizeof(info->driver_name), "nvme");
	if (!uname(&u))
		snprintf(info->driver_version, sizeof(info->driver_version), "%.31s", u.release);
	snprintf(info->host_interface, sizeof(info->host_interface), "PCIe");
	snprintf(info->device_interface, sizeof(info->device_interface), "NVMe");
	snprintf(info->backend, sizeof(info->backend), "nvme");
	info->max_drives = RCL_NVME_MAX_DRIVES;
	info->jbod = true;
}

/*
 * @d as the engine shows it, in @ident's NVMe identity: the engine keeps
 * its role (state, group, spare) and its flags. What raidcli wrote on a
 * drive it configured does not make it "in use".
 */
static void dress_drive(struct rcl_drive *d, const struct rcl_drive *ident)
{
	struct rcl_drive role = *d;

	*d = *ident;
	d->state = role.state;
	d->dg = role.dg;
	d->span = role.span;
	d->row = role.row;
	d->spare_dgs = role.spare_dgs;
	d->spare_flags = role.spare_flags;
	d->locate = role.locate;
	d->foreign = role.foreign;
	d->wiped_by = role.wiped_by;
	memcpy(d->unusable, role.unusable, sizeof(d->unusable));
	if (d->dg >= 0 || d->state == RCL_PD_GHS)
		d->in_use[0] = '\0';
}

/* The engine's model in NVMe's identity, with the drives the engine does not hold. */
static void nvme_dress(struct rcl_ctrl *ctrl)
{
	const struct nvme_priv *p = rcl_soft_host_priv(ctrl);
	size_t held = ctrl->drive_count;
	struct rcl_drive *drives;

	drives = rcl_realloc(ctrl->drives, (held + p->ident_count + 1) * sizeof(*drives));
	if (!drives)
		return; /* the engine's model, undressed: nothing is lost but names */
	ctrl->drives = drives;
	for (size_t i = 0; i < p->ident_count; i++) {
		size_t k;

		for (k = 0; k < held && drives[k].slot != p->ident[i].slot; k++)
			;
		if (k < held)
			dress_drive(&drives[k], &p->ident[i]);
		else
			drives[ctrl->drive_count++] = p->ident[i];
	}
}

static const struct rcl_soft_host nvme_host = {.dress = nvme_dress};

/*
 * The block device of the drive in slot @s that the engine may use: its
 * one attached namespace. A drive with several is left out of RAID (it
 * stays JBOD), so no VD takes a part of a drive another user shares.
 */
static const struct rcl_nvme_ns *raid_namespace(const struct nvme_priv *p,
                                                const struct rcl_nvme_slot *s)
{
	return s->dev >= 0 && p->devs[s->dev].ns_count == 1 ? &p->devs[s->dev].ns[0] : NULL;
}

/*
 * "set good" hands a drive to the engine: refuse, naming its namespaces,
 * one the engine was not given (several namespaces, or none).
 */
static enum rcl_status nvme_set_drive_jbod(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                           bool on, bool force, struct rcl_error *err)
{
	const struct nvme_priv *p = rcl_soft_host_priv(ctrl);
	const struct rcl_nvme_dev *dev;
	struct rcl_buf sb = RCL_BUF_INIT;
	enum rcl_status st;

	for (size_t i = 0; i < p->slot_count; i++) {
		if (p->slots[i].slot != ref->slot || raid_namespace(p, &p->slots[i]))
			continue;
		if (p->slots[i].dev < 0)
			break;
		dev = &p->devs[p->slots[i].dev];
		for (size_t n = 0; n < dev->ns_count; n++)
			rcl_buf_addf(&sb, "%s%u", n ? ", " : "", dev->ns[n].nsid);
		st = rcl_fail(err, RCL_NOT_ALLOWED,
		              "drive /c%u/e%u/s%u has %zu namespaces (nsid %s): RAID takes a "
		              "drive's one attached namespace; detach the others first",
		              ctrl->entry.id, ref->enclosure, ref->slot, dev->ns_count,
		              dev->ns_count && sb.buf ? sb.buf : "none");
		rcl_buf_release(&sb);
		return st;
	}
	return rcl_soft_set_drive_jbod_op(ctrl, ref, on, force, err);
}

/* Hand the engine the slots whose drive is present with one namespace. */
static enum rcl_status load_engine(struct rcl_ctrl *ctrl, struct nvme_priv *p,
                                   struct rcl_error *err)
{
	struct rcl_soft_host_slot *slots = rcl_calloc(p->slot_count + 1, sizeof(*slots));
	char(*paths)[48] = rcl_calloc(p->slot_count + 1, sizeof(*paths));
	struct rcl_buf sb = RCL_BUF_INIT;
	size_t count = 0;
	enum rcl_status st;

	rcl_buf_addf(&sb, "%s/nvme/%s-raid.json", ctrl->ctx->state_dir, ctrl->entry.key);
	if (!slots || !paths || sb.oom) {
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < p->slot_count; i++) {
		const struct rcl_nvme_ns *ns = raid_namespace(p, &p->slots[i]);

		if (!ns)
			continue;
		snprintf(paths[count], sizeof(paths[count]), "/dev/%s", ns->name);
		slots[count] = (struct rcl_soft_host_slot){p->slots[i].slot, paths[count],
		                                           p->devs[p->slots[i].dev].serial};
		count++;
	}
	st = rcl_mkdir_in(ctrl->ctx->state_dir, "nvme", 0700, err);
	if (!st)
		st = rcl_soft_host_load(ctrl, &nvme_host, p, sb.buf, slots, count, err);
out:
	rcl_buf_release(&sb);
	rcl_free(slots);
	rcl_free(paths);
	return st;
}

static enum rcl_status nvme_load(struct rcl_ctrl *ctrl, struct rcl_error *err)
{
	struct nvme_priv *p = rcl_calloc(1, sizeof(*p));
	enum rcl_status st;

	if (!p)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_nvme_present() ? rcl_nvme_scan(&p->devs, &p->dev_count, err) : RCL_OK;
	if (!st)
		st = load_slots(ctrl, p, err);
	if (!st) {
		fill_info(ctrl);
		st = fill_model(ctrl, p, err);
	}
	/* The identities are the host's; the engine builds ctrl->drives anew. */
	p->ident = ctrl->drives;
	p->ident_count = ctrl->drive_count;
	ctrl->drives = NULL;
	ctrl->drive_count = 0;
	if (!st)
		st = load_engine(ctrl, p, err);
	if (st) {
		rcl_free(ctrl->enclosures);
		ctrl->enclosures = NULL;
		ctrl->enclosure_count = 0;
		priv_free(p); /* rcl_ctrl_open() does not unload what failed to load */
	}
	return st;
}

/* The device in @drive's slot, or a failure naming the missing drive. */
static enum rcl_status find_dev(const struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                                const struct rcl_nvme_dev **dev, struct rcl_error *err)
{
	const struct nvme_priv *p = rcl_soft_host_priv(ctrl);

	for (size_t i = 0; i < p->slot_count; i++)
		if (p->slots[i].slot == drive->slot && p->slots[i].dev >= 0) {
			*dev = &p->devs[p->slots[i].dev];
			return RCL_OK;
		}
	return rcl_fail(err, RCL_NOT_FOUND,
	                "drive /c%u/e%u/s%u (serial '%s') is missing: it cannot be asked",
	                ctrl->entry.id, drive->enclosure, drive->slot, drive->serial);
}

/* "<what> of <nvme0>" for an error message. */
static const char *doing(char *buf, size_t size, const char *what, const struct rcl_nvme_dev *dev)
{
	snprintf(buf, size, "%s of %s", what, dev->name);
	return buf;
}

/* "<prefix> <section>": a section's key, named after the drive as StorCLI names its sections. */
static const char *section(char *buf, size_t size, const char *prefix, const char *name)
{
	snprintf(buf, size, "%s %s", prefix, name);
	return buf;
}

/*
 * The namespaces of @dev, each identified, as the table "<prefix> Namespaces";
 * *@endgid: the first namespace's endurance group, where it names one.
 */
static enum rcl_status add_namespaces(int fd, const struct rcl_nvme_dev *dev, const char *prefix,
                                      struct rcl_node *out, uint16_t *endgid, struct rcl_error *err)
{
	struct rcl_node *list;
	struct nvme_id_ns id;
	char key[192], what[96];
	enum rcl_status st = RCL_OK;

	list = rcl_node_add_array(out, section(key, sizeof(key), prefix, "Namespaces"));
	rcl_node_set_flags(list, RCL_NODE_BLOCKS);
	for (size_t i = 0; !st && i < dev->ns_count; i++) {
		memset(&id, 0, sizeof(id));
		st = rcl_nvme_fail(err, nvme_identify_ns(fd, dev->ns[i].nsid, &id),
		                   doing(what, sizeof(what), "identify namespace", dev));
		if (!st)
			rcl_nvme_add_namespace(list, &dev->ns[i], &id);
		if (!st && !i && id.endgid)
			*endgid = le16toh(id.endgid);
	}
	return st;
}

/*
 * Log page @lid of @dev (@lsi: its log specific identifier), @len bytes
 * into *@page (rcl_free()), through admin.c; @what names it in a failure.
 */
static enum rcl_status read_log(int fd, const struct rcl_nvme_dev *dev, uint8_t lid, uint16_t lsi,
                                const char *what, uint32_t len, uint8_t **page,
                                struct rcl_error *err)
{
	char name[96];
	struct rcl_nvme_log log = {.lid = lid, .lsi = lsi, .nsid = NVME_NSID_ALL, .what = name};
	enum rcl_status st;

	snprintf(name, sizeof(name), "%s of %s", what, dev->name);
	*page = rcl_calloc(1, len);
	if (!*page)
		return rcl_fail(err, RCL_NOMEM, "out of memory");
	st = rcl_nvme_get_log(fd, &log, *page, len, err);
	if (st) {
		rcl_free(*page);
		*page = NULL;
	}
	return st;
}

/*
 * A log page not every drive has, as section @key: "Not Supported" when
 * @supported (the identify data) says so, without asking; the drive's
 * refusal, its status by name, when it answers one; else decoded by @add.
 */
static enum rcl_status
add_optional_log(int fd, const struct rcl_nvme_dev *dev, bool supported, uint8_t lid,
                 const char *what, uint32_t len,
                 void (*add)(struct rcl_node *, const char *, const void *, size_t),
                 struct rcl_node *out, const char *key, struct rcl_error *err)
{
	struct rcl_error why = {0};
	uint8_t *page = NULL;
	enum rcl_status st;

	if (!supported) {
		rcl_nvme_add_unavailable(out, key, "Not Supported");
		return RCL_OK;
	}
	st = read_log(fd, dev, lid, 0, what, len, &page, &why);
	if (st == RCL_NOMEM)
		return rcl_fail(err, st, "%s", why.msg);
	if (st)
		rcl_nvme_add_unavailable(out, key, why.msg);
	else
		add(out, key, page, len);
	rcl_free(page);
	return RCL_OK;
}

/*
 * FDP log @lid of endurance group @endgid, whose first @head bytes give
 * its length: the header, then the whole page (at most FDP_LOG_MAX bytes;
 * logs.c refuses a page shorter than its header says).
 */
static enum rcl_status read_fdp_log(int fd, const struct rcl_nvme_dev *dev, uint8_t lid,
                                    uint16_t endgid, const char *what, uint32_t head,
                                    uint8_t **page, uint32_t *len, struct rcl_error *err)
{
	enum rcl_status st = read_log(fd, dev, lid, endgid, what, head, page, err);
	uint32_t size;
	uint16_t handles;

	if (st)
		return st;
	if (lid == NVME_LOG_LID_FDP_CONFIGS) {
		memcpy(&size, *page + 4, sizeof(size));
		size = le32toh(size);
	} else {
		memcpy(&handles, *page, sizeof(handles));
		size = 8 + 8u * le16toh(handles);
	}
	size = size > FDP_LOG_MAX ? FDP_LOG_MAX : (size + 3) & ~3u;
	*len = head;
	if (size <= head)
		return RCL_OK;
	rcl_free(*page);
	*len = size;
	return read_log(fd, dev, lid, endgid, what, size, page, err);
}

/*
 * The FDP section of endurance group @endgid: "Not Supported" when CTRATT
 * says so, without asking; the drive's refusal by name; else its
 * configurations, reclaim unit handle usage and statistics.
 */
static enum rcl_status add_fdp(int fd, const struct rcl_nvme_dev *dev,
                               const struct nvme_id_ctrl *id, uint16_t endgid, struct rcl_node *out,
                               const char *key, struct rcl_error *err)
{
	uint8_t *configs = NULL, *usage = NULL, *stats = NULL;
	uint32_t configs_len = 0, usage_len = 0;
	struct rcl_error why = {0};
	enum rcl_status st;

	if (!(le32toh(id->ctratt) & NVME_CTRL_CTRATT_FDPS)) {
		rcl_nvme_add_unavailable(out, key, "Not Supported");
		return RCL_OK;
	}
	st = read_fdp_log(fd, dev, NVME_LOG_LID_FDP_CONFIGS, endgid, "FDP configurations log", 16,
	                  &configs, &configs_len, &why);
	if (!st)
		st = read_fdp_log(fd, dev, NVME_LOG_LID_FDP_RUH_USAGE, endgid,
		                  "reclaim unit handle usage log", 8, &usage, &usage_len, &why);
	if (!st)
		st = read_log(fd, dev, NVME_LOG_LID_FDP_STATS, endgid, "FDP statistics log",
		              RCL_NVME_FDP_STATS_SIZE, &stats, &why);
	if (!st)
		rcl_nvme_add_fdp(out, key, configs, configs_len, usage, usage_len, stats,
		                 RCL_NVME_FDP_STATS_SIZE);
	else if (st != RCL_NOMEM)
		rcl_nvme_add_unavailable(out, key, why.msg);
	rcl_free(configs);
	rcl_free(usage);
	rcl_free(stats);
	return st == RCL_NOMEM ? rcl_fail(err, st, "%s", why.msg) : RCL_OK;
}

/* The log pages beyond SMART that "show all" shows, each its section. */
static enum rcl_status add_logs(int fd, const struct rcl_nvme_dev *dev,
                                const struct nvme_id_ctrl *id, uint16_t endgid, const char *prefix,
                                struct rcl_node *out, struct rcl_error *err)
{
	uint32_t errors_len = (id->elpe + 1u) * RCL_NVME_ERROR_ENTRY_SIZE;
	uint8_t *page = NULL;
	char key[192];
	enum rcl_status st;

	st = read_log(fd, dev, NVME_LOG_LID_ERROR, 0, "error log", errors_len, &page, err);
	if (!st)
		rcl_nvme_add_error_log(out, section(key, sizeof(key), prefix, "Error Log"), page,
		                       errors_len);
	rcl_free(page);
	if (!st)
		st = read_log(fd, dev, NVME_LOG_LID_FW_SLOT, 0, "firmware slot log",
		              RCL_NVME_FW_SLOT_LOG_SIZE, &page, err);
	if (!st)
		rcl_nvme_add_fw_slots(out, section(key, sizeof(key), prefix, "Firmware Slots"),
		                      page, RCL_NVME_FW_SLOT_LOG_SIZE,
		                      (id->frmw & NVME_CTRL_FRMW_NR_SLOTS) >> 1);
	rcl_free(page);
	/* Each mandatory where the drive has what it logs (NVMe base specification 2.0). */
	if (!st)
		st = add_optional_log(fd, dev, le16toh(id->oacs) & NVME_CTRL_OACS_SELF_TEST,
		                      NVME_LOG_LID_DEVICE_SELF_TEST, "self-test log",
		                      RCL_NVME_SELF_TEST_LOG_SIZE, rcl_nvme_add_self_test, out,
		                      section(key, sizeof(key), prefix, "Self-test Log"), err);
	if (!st)
		st = add_optional_log(
		    fd, dev,
		    le32toh(id->sanicap) &
		        (NVME_CTRL_SANICAP_CES | NVME_CTRL_SANICAP_BES | NVME_CTRL_SANICAP_OWS),
		    NVME_LOG_LID_SANITIZE, "sanitize status log", RCL_NVME_SANITIZE_LOG_SIZE,
		    rcl_nvme_add_sanitize, out,
		    section(key, sizeof(key), prefix, "Sanitize Status"), err);
	/* LSP 0: the header of the capture the drive holds, never a new one. */
	if (!st)
		st = add_optional_log(fd, dev, id->lpa & NVME_CTRL_LPA_TELEMETRY,
		                      NVME_LOG_LID_TELEMETRY_HOST, "telemetry header",
		                      RCL_NVME_TELEMETRY_HEADER_SIZE, rcl_nvme_add_telemetry, out,
		                      section(key, sizeof(key), prefix, "Telemetry"), err);
	if (!st)
		st = add_fdp(fd, dev, id, endgid, out,
		             section(key, sizeof(key), prefix, "Flexible Data Placement"), err);
	return st;
}

/* Every identify and log page "show all" shows, asked of @dev through @fd. */
static enum rcl_status add_all(int fd, const struct rcl_nvme_dev *dev, const char *prefix,
                               struct rcl_node *out, struct rcl_error *err)
{
	struct nvme_id_ctrl id;
	char key[192], what[96];
	uint16_t endgid = 1;
	enum rcl_status st;

	memset(&id, 0, sizeof(id));
	st = rcl_nvme_fail(err, nvme_identify_ctrl(fd, &id),
	                   doing(what, sizeof(what), "identify controller", dev));
	if (st)
		return st;
	rcl_nvme_add_id_ctrl(out, section(key, sizeof(key), prefix, "NVMe Controller"), dev, &id);
	st = add_namespaces(fd, dev, prefix, out, &endgid, err);
	if (!st)
		st = add_logs(fd, dev, &id, endgid, prefix, out, err);
	return st;
}

static enum rcl_status nvme_drive_detail(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                                         enum rcl_drive_detail what, const char *prefix,
                                         struct rcl_node *out, struct rcl_error *err)
{
	const struct rcl_nvme_dev *dev = NULL;
	struct nvme_smart_log log;
	char key[192], doing_buf[96];
	enum rcl_status st = find_dev(ctrl, drive, &dev, err);
	int fd = -1;

	if (!st)
		st = open_dev(dev, &fd, err);
	if (!st && what == RCL_DETAIL_ALL)
		st = add_all(fd, dev, prefix, out, err);
	memset(&log, 0, sizeof(log));
	if (!st)
		st = rcl_nvme_fail(
		    err, nvme_get_log_smart(fd, NVME_NSID_ALL, false, &log),
		    doing(doing_buf, sizeof(doing_buf), "reading the SMART log", dev));
	if (!st)
		rcl_nvme_add_smart(
		    out, section(key, sizeof(key), prefix, "SMART/Health Information"), &log);
	if (fd >= 0)
		close(fd);
	return st;
}

/* A drive's own tasks are the drive's; those of VDs and their members the engine's. */
static bool drive_task(enum rcl_task_kind kind)
{
	return kind == RCL_TASK_SELF_TEST || kind == RCL_TASK_ERASE;
}

static enum rcl_status nvme_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                       struct rcl_error *err)
{
	return drive_task(req->kind) ? rcl_nvme_task_check(ctrl, req, err)
	                             : rcl_soft_task_check_op(ctrl, req, err);
}

static enum rcl_status nvme_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                 struct rcl_error *err)
{
	return drive_task(req->kind) ? rcl_nvme_task(ctrl, req, err)
	                             : rcl_soft_task_op(ctrl, req, err);
}

static enum rcl_status nvme_task_progress(const struct rcl_ctrl *ctrl,
                                          const struct rcl_task_request *req,
                                          struct rcl_task_progress *out, struct rcl_error *err)
{
	return drive_task(req->kind) ? rcl_nvme_task_progress(ctrl, req, out, err)
	                             : rcl_soft_task_progress_op(ctrl, req, out, err);
}

/*
 * The host's NVMe drives, with RAID over their namespaces by raidcli's
 * engine (the VROC way: soft/host.h), and each drive's health logs.
 */
static const struct rcl_caps nvme_caps = {
    .kind = "nvme",
    .drive_kinds = "NVMe",
    RCL_SOFT_ENGINE_CAPS,
    .parts = 1u << RCL_PART_HEALTH,
    .tasks = RCL_SOFT_ENGINE_TASKS | 1u << RCL_TASK_SELF_TEST | 1u << RCL_TASK_ERASE,
    .settings = RCL_SOFT_ENGINE_SETTINGS,
    .drive_actions = 1u << RCL_DRIVE_ACTION_FORMAT | 1u << RCL_DRIVE_ACTION_FW_DOWNLOAD |
                     1u << RCL_DRIVE_ACTION_TELEMETRY | 1u << RCL_DRIVE_ACTION_NAMESPACE,
};

const struct rcl_backend_ops rcl_nvme_ops = {
    .name = "nvme",
    .caps = &nvme_caps,
    .discover = nvme_discover,
    .load = nvme_load,
    .unload = nvme_unload,
    RCL_SOFT_ENGINE_OPS,
    .set_drive_jbod = nvme_set_drive_jbod,
    .drive_detail = nvme_drive_detail,
    .format_drive = rcl_nvme_format_drive,
    .download_drive_fw = rcl_nvme_download_drive_fw,
    .drive_telemetry = rcl_nvme_drive_telemetry,
    .drive_namespace = rcl_nvme_drive_namespace,
    .process = &rcl_nvme_process,
    .task_check = nvme_task_check,
    .task = nvme_task,
    .task_progress = nvme_task_progress,
};
