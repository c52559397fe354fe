// SPDX-License-Identifier: MIT
/*
 * admin.c - NVMe admin commands beyond identify (admin.h), through
 * libnvme 1.3's argument-struct calls on a file descriptor. Each command
 * first checks what Identify Controller says the drive can do, so a
 * drive that lacks a feature is refused by name before anything is sent;
 * what the drive then answers goes through rcl_nvme_fail().
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvme/admin.h"
#include "nvme/logs.h"

/* Bytes per Get Log Page command: libnvme's NVME_LOG_PAGE_PDU_SIZE. */
#define LOG_CHUNK 4096u
/* Bytes per Firmware Image Download command, where MDTS allows. */
#define FW_CHUNK (64u << 10)
/* Bytes of a telemetry capture read between two writes to its file. */
#define COPY_CHUNK (64u << 10)

static const char *const sct_names[8] = {
    [NVME_SCT_GENERIC] = "generic",
    [NVME_SCT_CMD_SPECIFIC] = "command specific",
    [NVME_SCT_MEDIA] = "media and data integrity",
    [NVME_SCT_PATH] = "path related",
    [NVME_SCT_VS] = "vendor specific",
};

/* The raidcli status for NVMe status code @sc of type @sct. */
static enum rcl_status status_of(unsigned sct, unsigned sc)
{
	if (sct == NVME_SCT_GENERIC)
		switch (sc) {
		case NVME_SC_INVALID_OPCODE:
			return RCL_UNSUPPORTED;
		case NVME_SC_INVALID_FIELD:
			return RCL_INVALID_PARAM;
		case NVME_SC_INVALID_NS:
			return RCL_NOT_FOUND;
		}
	if (sct == NVME_SCT_CMD_SPECIFIC)
		switch (sc) {
		case NVME_SC_INVALID_FORMAT:
		case NVME_SC_FIRMWARE_SLOT:
		case NVME_SC_FIRMWARE_IMAGE:
		case NVME_SC_INVALID_LOG_PAGE:
			return RCL_INVALID_PARAM;
		}
	if (sct == NVME_SCT_GENERIC || sct == NVME_SCT_CMD_SPECIFIC)
		return RCL_NOT_ALLOWED;
	return RCL_SYSTEM;
}

enum rcl_status rcl_nvme_fail(struct rcl_error *err, int ret, const char *what)
{
	int errnum = errno;
	unsigned value, sct, sc;
	const char *name;
	enum rcl_status st;

	if (!ret)
		return RCL_OK;
	if (ret < 0) {
		if (errnum == ENOTTY)
			return rcl_fail_errno(err, RCL_UNSUPPORTED, errnum,
			                      "%s failed: not an NVMe device (%s)", what,
			                      strerror(errnum));
		st = errnum == ENOMEM ? RCL_NOMEM : errnum == EBUSY ? RCL_BUSY : RCL_SYSTEM;
		return rcl_fail_errno(err, st, errnum, "%s failed: %s", what, strerror(errnum));
	}
	value = nvme_status_get_value(ret);
	if (nvme_status_get_type(ret) != NVME_STATUS_TYPE_NVME)
		return rcl_fail(err, RCL_SYSTEM, "%s failed: status 0x%x of an unknown kind", what,
		                (unsigned)ret);
	sct = nvme_status_code_type((uint16_t)value);
	sc = nvme_status_code((uint16_t)value);
	name = nvme_status_to_string((int)value, false);
	st = rcl_fail(err, status_of(sct, sc),
	              "%s failed: %s (NVMe status 0x%04x: SCT 0x%x %s, SC 0x%02x%s)", what, name,
	              value, sct, sct_names[sct] ? sct_names[sct] : "reserved", sc,
	              value & NVME_SC_DNR ? ", DNR" : "");
	/* The status's name (its text up to the explanation), as StorCLI's ErrMsg shows it. */
	if (err)
		snprintf(err->detail, sizeof(err->detail), "%.*s (SCT 0x%x, SC 0x%02x%s)",
		         (int)strcspn(name, ":"), name, sct, sc,
		         value & NVME_SC_DNR ? ", DNR" : "");
	return st;
}

enum rcl_status rcl_nvme_identify_ctrl(int fd, struct nvme_id_ctrl *id, struct rcl_error *err)
{
	return rcl_nvme_fail(err, nvme_identify_ctrl(fd, id), "identify controller");
}

/* Whether @nsid names one namespace (not 0, not every one). */
static enum rcl_status check_nsid(uint32_t nsid, struct rcl_error *err)
{
	if (!nsid || nsid == NVME_NSID_ALL)
		return rcl_fail(err, RCL_INVALID_PARAM, "namespace id %u names no single namespace",
		                nsid);
	return RCL_OK;
}

enum rcl_status rcl_nvme_identify_ns(int fd, uint32_t nsid, struct nvme_id_ns *ns,
                                     struct rcl_error *err)
{
	char what[48];
	enum rcl_status st = check_nsid(nsid, err);

	if (st)
		return st;
	snprintf(what, sizeof(what), "identify namespace %u", nsid);
	st = rcl_nvme_fail(err, nvme_identify_ns(fd, nsid, ns), what);
	if (!st && !ns->nsze)
		/* The specification's answer for an id no active namespace has. */
		return rcl_fail(err, RCL_NOT_FOUND,
		                "namespace %u does not exist on this controller", nsid);
	return st;
}

enum rcl_status rcl_nvme_get_nsid(int fd, uint32_t *nsid, struct rcl_error *err)
{
	return rcl_nvme_fail(err, nvme_get_nsid(fd, nsid), "finding the namespace id");
}

enum rcl_status rcl_nvme_get_log(int fd, const struct rcl_nvme_log *log, void *buf, uint32_t len,
                                 struct rcl_error *err)
{
	char what[80];

	if (len % 4 || log->offset % 4)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "the %s cannot be read %u bytes at offset %llu: NVMe reads logs "
		                "in dwords",
		                log->what, len, (unsigned long long)log->offset);
	for (uint32_t done = 0; done < len;) {
		uint32_t n = len - done < LOG_CHUNK ? len - done : LOG_CHUNK;
		struct nvme_get_log_args args = {
		    .args_size = sizeof(args),
		    .fd = fd,
		    .lid = log->lid,
		    .lsp = log->lsp,
		    .lsi = log->lsi,
		    .nsid = log->nsid,
		    .csi = NVME_CSI_NVM,
		    .lpo = log->offset + done,
		    .len = n,
		    .log = (uint8_t *)buf + done,
		};

		snprintf(what, sizeof(what), "reading the %s (log page 0x%02x)", log->what,
		         log->lid);
		if (rcl_nvme_fail(err, nvme_get_log(&args), what))
			return err->status;
		done += n;
	}
	return RCL_OK;
}

/* rcl_unsupported() for the nvme kind, when Identify Controller lacks @what. */
static enum rcl_status lacks(struct rcl_error *err, const char *what, const char *field)
{
	return rcl_unsupported(err, "nvme", what, field);
}

static bool has_oacs(const struct nvme_id_ctrl *id, unsigned bit)
{
	return le16toh(id->oacs) & bit;
}

/* "0: 512, 1: 512+8, ...": namespace @ns's LBA formats, for a refusal. */
static void list_formats(const struct nvme_id_ns *ns, char *out, size_t size)
{
	size_t at = 0;

	out[0] = 0;
	for (unsigned i = 0; i <= ns->nlbaf && i < 64 && at < size; i++) {
		const struct nvme_lbaf *f = &ns->lbaf[i];
		unsigned ms = le16toh(f->ms);
		int n;

		if (!f->ds)
			continue;
		n = ms ? snprintf(out + at, size - at, "%s%u: %u+%u", at ? ", " : "", i,
		                  1u << f->ds, ms)
		       : snprintf(out + at, size - at, "%s%u: %u", at ? ", " : "", i, 1u << f->ds);
		at += n > 0 ? (size_t)n : 0;
	}
}

enum rcl_status rcl_nvme_format(int fd, const struct nvme_id_ctrl *id, uint32_t nsid, unsigned lbaf,
                                unsigned ses, struct rcl_error *err)
{
	struct nvme_id_ns ns;
	char formats[256], what[48];
	enum rcl_status st;

	if (!has_oacs(id, NVME_CTRL_OACS_FORMAT))
		return lacks(err, "format", "the drive has no Format NVM command (OACS)");
	if (ses > NVME_FORMAT_SES_CRYPTO_ERASE)
		return rcl_fail(
		    err, RCL_INVALID_PARAM,
		    "secure erase setting %u is none of 0 (none), 1 (user data), 2 (crypto)", ses);
	if (ses == NVME_FORMAT_SES_CRYPTO_ERASE && !(id->fna & NVME_CTRL_FNA_CRYPTO_ERASE))
		return lacks(err, "format with crypto erase",
		             "the drive has no crypto erase (FNA)");
	st = rcl_nvme_identify_ns(fd, nsid, &ns, err);
	if (st)
		return st;
	if (lbaf > ns.nlbaf || lbaf >= 64 || !ns.lbaf[lbaf].ds) {
		list_formats(&ns, formats, sizeof(formats));
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "LBA format %u is not one namespace %u has (%s bytes per block)",
		                lbaf, nsid, formats);
	}
	/* Only the LBA format changes: metadata placement and protection stay. */
	struct nvme_format_nvm_args args = {
	    .args_size = sizeof(args),
	    .fd = fd,
	    .timeout = RCL_NVME_LONG_TIMEOUT_MS,
	    .nsid = nsid,
	    .lbaf = lbaf & 0xf,
	    .lbafu = (lbaf >> 4) & 3,
	    .mset = (ns.flbas >> 4) & 1,
	    .pi = ns.dps & 7,
	    .pil = (ns.dps >> 3) & 1,
	    .ses = ses,
	};
	snprintf(what, sizeof(what), "format of namespace %u", nsid);
	return rcl_nvme_fail(err, nvme_format_nvm(&args), what);
}

uint32_t rcl_nvme_fw_chunk(const struct nvme_id_ctrl *id)
{
	/* MDTS counts in the controller's smallest page, 4 KiB at least. */
	uint64_t max = id->mdts ? 4096ull << (id->mdts < 20 ? id->mdts : 20) : FW_CHUNK;
	uint32_t chunk = max < FW_CHUNK ? (uint32_t)max : FW_CHUNK;
	/* FWUG: in 4 KiB units; 0 says nothing, 0xff says there is no granularity. */
	uint32_t gran = id->fwug && id->fwug != 0xff ? id->fwug * 4096u : 4;

	if (gran > max)
		return 0;
	if (gran > chunk)
		return gran;
	return chunk - chunk % gran;
}

/* Refuse firmware file @path (open as @fd) unless it has a firmware image's size. */
static enum rcl_status check_image(int fd, const char *path, size_t *size, struct rcl_error *err)
{
	struct stat sb;

	if (fstat(fd, &sb))
		return rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot read firmware file '%s': %s",
		                      path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return rcl_fail(err, RCL_INVALID_PARAM, "firmware file '%s' is not a regular file",
		                path);
	if (!sb.st_size || sb.st_size % 4 || sb.st_size > RCL_NVME_FW_MAX_BYTES)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "firmware file '%s' is %lld bytes: an NVMe firmware image is a "
		                "whole number of 4-byte dwords, 4 to %u bytes",
		                path, (long long)sb.st_size, RCL_NVME_FW_MAX_BYTES);
	*size = (size_t)sb.st_size;
	return RCL_OK;
}

/* Read the whole of firmware file @path into *@buf (NULL on failure), *@size bytes. */
static enum rcl_status read_image(const char *path, uint8_t **buf, size_t *size,
                                  struct rcl_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	enum rcl_status st;
	ssize_t n = 0;

	*buf = NULL;
	if (fd < 0)
		return rcl_fail_errno(err, errno == ENOENT ? RCL_NOT_FOUND : RCL_SYSTEM, errno,
		                      "cannot open firmware file '%s': %s", path, strerror(errno));
	st = check_image(fd, path, size, err);
	if (!st && !(*buf = rcl_malloc(*size)))
		st = rcl_fail(err, RCL_NOMEM, "out of memory for firmware file '%s'", path);
	for (size_t done = 0; !st && done < *size; done += (size_t)n) {
		n = read(fd, *buf + done, *size - done);
		if (n <= 0)
			st = rcl_fail_errno(err, RCL_SYSTEM, n ? errno : EIO,
			                    "cannot read firmware file '%s': %s", path,
			                    n ? strerror(errno) : "it shrank while read");
	}
	close(fd);
	if (st) {
		rcl_free(*buf);
		*buf = NULL;
	}
	return st;
}

enum rcl_status rcl_nvme_fw_download(int fd, const struct nvme_id_ctrl *id, const char *path,
                                     struct rcl_error *err)
{
	uint32_t chunk = rcl_nvme_fw_chunk(id);
	uint8_t *image;
	size_t size = 0;
	char what[80];
	enum rcl_status st = RCL_OK;

	if (!has_oacs(id, NVME_CTRL_OACS_FW))
		return lacks(err, "firmware download", "the drive has no firmware commands (OACS)");
	if (!chunk)
		return lacks(err, "firmware download",
		             "its update granularity (FWUG) exceeds its largest transfer (MDTS)");
	st = read_image(path, &image, &size, err);
	for (size_t off = 0; !st && off < size; off += chunk) {
		uint32_t n = size - off < chunk ? (uint32_t)(size - off) : chunk;
		struct nvme_fw_download_args args = {
		    .args_size = sizeof(args),
		    .fd = fd,
		    .offset = (uint32_t)off,
		    .data_len = n,
		    .data = image + off,
		};

		snprintf(what, sizeof(what), "firmware download at offset %zu of %zu bytes", off,
		         size);
		st = rcl_nvme_fail(err, nvme_fw_download(&args), what);
	}
	rcl_free(image);
	return st;
}

/* Whether NVMe status @ret says a committed image runs after a reset: a success. */
static bool commit_needs_reset(int ret)
{
	unsigned value = ret > 0 ? nvme_status_get_value(ret) : 0;

	if (ret <= 0 || nvme_status_get_type(ret) != NVME_STATUS_TYPE_NVME ||
	    nvme_status_code_type((uint16_t)value) != NVME_SCT_CMD_SPECIFIC)
		return false;
	switch (nvme_status_code((uint16_t)value)) {
	case NVME_SC_FW_NEEDS_CONV_RESET:
	case NVME_SC_FW_NEEDS_SUBSYS_RESET:
	case NVME_SC_FW_NEEDS_RESET:
		return true;
	}
	return false;
}

enum rcl_status rcl_nvme_fw_commit(int fd, const struct nvme_id_ctrl *id, unsigned slot,
                                   unsigned action, bool *needs_reset, struct rcl_error *err)
{
	unsigned slots = (id->frmw & NVME_CTRL_FRMW_NR_SLOTS) >> 1;
	char what[48];
	int ret;

	*needs_reset = false;
	if (!has_oacs(id, NVME_CTRL_OACS_FW))
		return lacks(err, "firmware commit", "the drive has no firmware commands (OACS)");
	if (action > NVME_FW_COMMIT_CA_REPLACE_AND_ACTIVATE_IMMEDIATE)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "firmware commit action %u is none of 0 (replace), 1 (replace and "
		                "activate), 2 (activate), 3 (activate now)",
		                action);
	if (slot > slots)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "firmware slot %u does not exist: the drive has slots 1-%u", slot,
		                slots);
	if (slot == 1 && id->frmw & NVME_CTRL_FRMW_1ST_RO && action != NVME_FW_COMMIT_CA_SET_ACTIVE)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "firmware slot 1 is read-only: commit to slot 2-%u, or activate it",
		                slots);
	struct nvme_fw_commit_args args = {
	    .args_size = sizeof(args),
	    .fd = fd,
	    .slot = slot,
	    .action = action,
	};
	ret = nvme_fw_commit(&args);
	if (commit_needs_reset(ret)) {
		*needs_reset = true;
		return RCL_OK;
	}
	snprintf(what, sizeof(what), "firmware commit to slot %u", slot);
	return rcl_nvme_fail(err, ret, what);
}

const char *rcl_nvme_sanitize_name(enum rcl_nvme_sanitize how)
{
	switch (how) {
	case RCL_NVME_SANITIZE_BLOCK:
		return "block erase";
	case RCL_NVME_SANITIZE_OVERWRITE:
		return "overwrite";
	case RCL_NVME_SANITIZE_CRYPTO:
		return "crypto erase";
	}
	return "an unknown method";
}

/* The SANICAP bit that offers @how. */
static uint32_t sanicap_bit(enum rcl_nvme_sanitize how)
{
	return how == RCL_NVME_SANITIZE_BLOCK       ? NVME_CTRL_SANICAP_BES
	       : how == RCL_NVME_SANITIZE_OVERWRITE ? NVME_CTRL_SANICAP_OWS
	       : how == RCL_NVME_SANITIZE_CRYPTO    ? NVME_CTRL_SANICAP_CES
	                                            : 0;
}

enum rcl_status rcl_nvme_sanitize(int fd, const struct nvme_id_ctrl *id, enum rcl_nvme_sanitize how,
                                  struct rcl_error *err)
{
	static const enum rcl_nvme_sanitize all[] = {
	    RCL_NVME_SANITIZE_CRYPTO, RCL_NVME_SANITIZE_BLOCK, RCL_NVME_SANITIZE_OVERWRITE};
	uint32_t cap = le32toh(id->sanicap);
	char what[48], offers[64] = "";

	if (!(cap & sanicap_bit(how))) {
		for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
			if (cap & sanicap_bit(all[i]))
				snprintf(offers + strlen(offers), sizeof(offers) - strlen(offers),
				         "%s%s", offers[0] ? ", " : "the drive offers ",
				         rcl_nvme_sanitize_name(all[i]));
		snprintf(what, sizeof(what), "sanitize by %s", rcl_nvme_sanitize_name(how));
		return lacks(err, what,
		             offers[0] ? offers : "the drive offers no sanitize (SANICAP)");
	}
	/* One pass of zeroes: OWPASS 0 would mean 16 passes. */
	struct nvme_sanitize_nvm_args args = {
	    .args_size = sizeof(args),
	    .fd = fd,
	    .sanact = (enum nvme_sanitize_sanact)how,
	    .owpass = how == RCL_NVME_SANITIZE_OVERWRITE ? 1 : 0,
	};
	snprintf(what, sizeof(what), "sanitize by %s", rcl_nvme_sanitize_name(how));
	return rcl_nvme_fail(err, nvme_sanitize_nvm(&args), what);
}

enum rcl_status rcl_nvme_self_test(int fd, const struct nvme_id_ctrl *id, uint32_t nsid,
                                   unsigned stc, struct rcl_error *err)
{
	if (!has_oacs(id, NVME_CTRL_OACS_SELF_TEST))
		return lacks(err, "self-test", "the drive has no Device Self-test command (OACS)");
	if (stc != NVME_DST_STC_SHORT && stc != NVME_DST_STC_LONG && stc != NVME_DST_STC_ABORT)
		return rcl_fail(
		    err, RCL_INVALID_PARAM,
		    "self-test code 0x%x is none of 1 (short), 2 (extended), 0xf (abort)", stc);
	struct nvme_dev_self_test_args args = {
	    .args_size = sizeof(args),
	    .fd = fd,
	    .nsid = nsid,
	    .stc = stc,
	};
	return rcl_nvme_fail(err, nvme_dev_self_test(&args),
	                     stc == NVME_DST_STC_ABORT ? "self-test abort" : "self-test start");
}

/* Write @len bytes of @buf to @out (telemetry file @path). */
static enum rcl_status write_all(int out, const char *path, const uint8_t *buf, size_t len,
                                 struct rcl_error *err)
{
	while (len) {
		ssize_t n = write(out, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return rcl_fail_errno(err, RCL_SYSTEM, n ? errno : ENOSPC,
			                      "cannot write telemetry file '%s': %s", path,
			                      strerror(n ? errno : ENOSPC));
		buf += n;
		len -= (size_t)n;
	}
	return RCL_OK;
}

/*
 * Copy the capture to @out: the header @hdr (just created), then blocks 1
 * to @last, read as they were captured (LSP 0, retain), 64 KiB at a time.
 */
static enum rcl_status copy_capture(int fd, int out, const char *path, const uint8_t *hdr,
                                    uint32_t last, uint64_t *bytes, struct rcl_error *err)
{
	uint8_t *buf = rcl_malloc(COPY_CHUNK);
	uint64_t end = ((uint64_t)last + 1) * RCL_NVME_TELEMETRY_BLOCK;
	struct rcl_nvme_log log = {.lid = NVME_LOG_LID_TELEMETRY_HOST,
	                           .offset = RCL_NVME_TELEMETRY_HEADER_SIZE,
	                           .what = "telemetry log"};
	enum rcl_status st = write_all(out, path, hdr, RCL_NVME_TELEMETRY_HEADER_SIZE, err);

	if (!buf)
		st = rcl_fail(err, RCL_NOMEM, "out of memory");
	for (; !st && log.offset < end; log.offset += COPY_CHUNK) {
		uint32_t n =
		    end - log.offset < COPY_CHUNK ? (uint32_t)(end - log.offset) : COPY_CHUNK;

		st = rcl_nvme_get_log(fd, &log, buf, n, err);
		if (!st)
			st = write_all(out, path, buf, n, err);
	}
	rcl_free(buf);
	*bytes = st ? 0 : end;
	return st;
}

enum rcl_status rcl_nvme_telemetry_capture(int fd, const struct nvme_id_ctrl *id, const char *path,
                                           unsigned area, uint64_t *bytes, struct rcl_error *err)
{
	uint8_t hdr[RCL_NVME_TELEMETRY_HEADER_SIZE];
	struct rcl_nvme_log log = {.lid = NVME_LOG_LID_TELEMETRY_HOST,
	                           .lsp = NVME_LOG_TELEM_HOST_LSP_CREATE,
	                           .what = "telemetry header"};
	struct rcl_nvme_telemetry t;
	enum rcl_status st;
	int out;

	*bytes = 0;
	if (!(id->lpa & NVME_CTRL_LPA_TELEMETRY))
		return lacks(err, "telemetry", "the drive has no telemetry log (LPA)");
	if (area < 1 || area > 4)
		return rcl_fail(err, RCL_INVALID_PARAM, "telemetry data area %u is none of 1-4",
		                area);
	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0)
		return rcl_fail_errno(err, errno == EEXIST ? RCL_EXISTS : RCL_SYSTEM, errno,
		                      "cannot create telemetry file '%s': %s", path,
		                      strerror(errno));
	st = rcl_nvme_get_log(fd, &log, hdr, sizeof(hdr), err);
	if (!st)
		st = rcl_nvme_telemetry_decode(hdr, sizeof(hdr), &t, err);
	if (!st && area == 4 && !t.last_block[3])
		st = rcl_fail(err, RCL_INVALID_PARAM, "the drive's telemetry has no data area 4");
	if (!st)
		st = copy_capture(fd, out, path, hdr, t.last_block[area - 1], bytes, err);
	if (close(out) && !st)
		st = rcl_fail_errno(err, RCL_SYSTEM, errno, "cannot write telemetry file '%s': %s",
		                    path, strerror(errno));
	if (st)
		unlink(path);
	return st;
}

enum rcl_status rcl_nvme_ns_attach(int fd, const struct nvme_id_ctrl *id, uint32_t nsid,
                                   uint16_t cntlid, bool attach, struct rcl_error *err)
{
	struct nvme_ctrl_list list = {0};
	char what[64];
	enum rcl_status st = check_nsid(nsid, err);

	if (st)
		return st;
	if (!has_oacs(id, NVME_CTRL_OACS_NS_MGMT))
		return lacks(err, attach ? "namespace attach" : "namespace detach",
		             "the drive has no namespace management (OACS)");
	nvme_init_ctrl_list(&list, 1, &cntlid);
	struct nvme_ns_attach_args args = {
	    .args_size = sizeof(args),
	    .fd = fd,
	    .nsid = nsid,
	    .sel = attach ? NVME_NS_ATTACH_SEL_CTRL_ATTACH : NVME_NS_ATTACH_SEL_CTRL_DEATTACH,
	    .ctrlist = &list,
	};
	snprintf(what, sizeof(what), "%s of namespace %u %s controller %u",
	         attach ? "attach" : "detach", nsid, attach ? "to" : "from", cntlid);
	return rcl_nvme_fail(err, nvme_ns_attach(&args), what);
}

enum rcl_status rcl_nvme_ns_create(int fd, const struct nvme_id_ctrl *id, uint64_t blocks,
                                   unsigned lbaf, uint32_t *nsid, struct rcl_error *err)
{
	struct nvme_id_ns ns = {0};

	if (!has_oacs(id, NVME_CTRL_OACS_NS_MGMT))
		return lacks(err, "namespace create",
		             "the drive has no namespace management (OACS)");
	if (!blocks || lbaf > 15)
		return rcl_fail(err, RCL_INVALID_PARAM,
		                "a namespace of %llu blocks in LBA format %u: it takes 1 block or "
		                "more, in format 0-15",
		                (unsigned long long)blocks, lbaf);
	ns.nsze = ns.ncap = htole64(blocks);
	ns.flbas = (uint8_t)lbaf;
	struct nvme_ns_mgmt_args args = {
	    .args_size = sizeof(args),
	    .fd = fd,
	    .result = nsid,
	    .ns = &ns,
	    .sel = NVME_NS_MGMT_SEL_CREATE,
	    .csi = NVME_CSI_NVM,
	};
	return rcl_nvme_fail(err, nvme_ns_mgmt(&args), "namespace create");
}

enum rcl_status rcl_nvme_ns_delete(int fd, const struct nvme_id_ctrl *id, uint32_t nsid,
                                   struct rcl_error *err)
{
	char what[48];
	enum rcl_status st = check_nsid(nsid, err);

	if (st)
		return st;
	if (!has_oacs(id, NVME_CTRL_OACS_NS_MGMT))
		return lacks(err, "namespace delete",
		             "the drive has no namespace management (OACS)");
	struct nvme_ns_mgmt_args args = {
	    .args_size = sizeof(args),
	    .fd = fd,
	    .nsid = nsid,
	    .sel = NVME_NS_MGMT_SEL_DELETE,
	};
	snprintf(what, sizeof(what), "delete of namespace %u", nsid);
	return rcl_nvme_fail(err, nvme_ns_mgmt(&args), what);
}
