/* SPDX-License-Identifier: MIT */
/*
 * admin.h - the NVMe admin commands the nvme backend sends to change a
 * drive or read it beyond identify: format, firmware download and commit,
 * sanitize, device self-test, telemetry capture, namespace management and
 * attachment, and log pages. Each goes through libnvme (1.3) on a file
 * descriptor open on the drive (its controller's character device or one
 * of its namespaces' block devices), checks what the drive's identify data
 * says it can do before it sends anything, and returns an enum rcl_status
 * with a struct rcl_error, the NVMe status decoded by rcl_nvme_fail().
 */
#ifndef RCL_NVME_ADMIN_H
#define RCL_NVME_ADMIN_H

#include <libnvme.h>

#include "raidcli.h"

/*
 * How long a Format NVM may take: the kernel's default admin timeout (60 s)
 * is too short for a large drive, which most controllers format before
 * they answer. (A sanitize answers once started, and runs on alone.)
 */
#define RCL_NVME_LONG_TIMEOUT_MS 600000u

/* The largest firmware image raidcli reads into memory to download. */
#define RCL_NVME_FW_MAX_BYTES (256u << 20)

/**
 * rcl_nvme_fail() - turn libnvme's result @ret for the command @what
 * ("firmware commit") into @err. The one place an NVMe result becomes an
 * error: a positive @ret is an NVMe status, named by nvme_status_to_string()
 * with its status code type, status code and Do Not Retry bit ("firmware
 * commit failed: Invalid Firmware Slot: ... (NVMe status 0x4106: SCT 0x1
 * command specific, SC 0x06, DNR)"), the text StorCLI's Detailed Status
 * shows as ErrMsg; a negative one is errno (sys_errno). @ret 0 is no error.
 * Return: RCL_OK for @ret 0; RCL_UNSUPPORTED (Invalid Opcode; errno ENOTTY:
 * not an NVMe device), RCL_INVALID_PARAM (Invalid Field, Invalid Format,
 * a firmware slot or image the drive refuses), RCL_NOT_FOUND (Invalid
 * Namespace), RCL_NOT_ALLOWED (any other refusal), RCL_SYSTEM (a media,
 * path or vendor error; an errno), RCL_NOMEM, RCL_BUSY (EBUSY).
 */
enum rcl_status rcl_nvme_fail(struct rcl_error *err, int ret, const char *what);

/* rcl_nvme_identify_ctrl() - Identify Controller into *@id. */
enum rcl_status rcl_nvme_identify_ctrl(int fd, struct nvme_id_ctrl *id, struct rcl_error *err);

/**
 * rcl_nvme_identify_ns() - Identify Namespace @nsid into *@ns.
 * Return: RCL_OK; RCL_NOT_FOUND for a namespace the controller does not
 * have (the drive answers Invalid Namespace, or a size of 0 blocks, as
 * the specification has it answer for an inactive one); rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_identify_ns(int fd, uint32_t nsid, struct nvme_id_ns *ns,
                                     struct rcl_error *err);

/**
 * rcl_nvme_get_nsid() - the namespace @fd is open on (a namespace's block
 * device), into *@nsid. Return: RCL_OK; RCL_UNSUPPORTED (not an NVMe
 * namespace: a controller's character device, another file).
 */
enum rcl_status rcl_nvme_get_nsid(int fd, uint32_t *nsid, struct rcl_error *err);

/**
 * struct rcl_nvme_log - one Get Log Page.
 * @lid:	the log page identifier (NVME_LOG_LID_*).
 * @lsp:	the log specific field (telemetry: 1 creates a new capture).
 * @lsi:	the log specific identifier (FDP logs: the endurance group).
 * @nsid:	the namespace, NVME_NSID_ALL for the controller's.
 * @offset:	the byte offset in the page (a multiple of 4).
 * @what:	the page's name for messages ("self-test log").
 */
struct rcl_nvme_log {
	uint8_t lid;
	uint8_t lsp;
	uint16_t lsi;
	uint32_t nsid;
	uint64_t offset;
	const char *what;
};

/**
 * rcl_nvme_get_log() - read @len bytes (a multiple of 4) of log page @log
 * into @buf, in commands of at most 4 KiB (libnvme's log transfer size, in
 * every controller's MDTS). Return: RCL_OK; RCL_INVALID_PARAM (@len or the
 * offset not dword-aligned); rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_get_log(int fd, const struct rcl_nvme_log *log, void *buf, uint32_t len,
                                 struct rcl_error *err);

/**
 * rcl_nvme_format() - Format NVM namespace @nsid to LBA format @lbaf with
 * secure erase setting @ses (NVME_FORMAT_SES_*). Checks first that the
 * namespace exists and has format @lbaf, and that the drive does a crypto
 * erase (FNA) if @ses asks for one. Destroys every block of the namespace.
 * Return: RCL_OK; RCL_NOT_FOUND (no namespace @nsid); RCL_INVALID_PARAM
 * (no format @lbaf, a bad @ses); RCL_UNSUPPORTED (no Format NVM, no crypto
 * erase); rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_format(int fd, const struct nvme_id_ctrl *id, uint32_t nsid, unsigned lbaf,
                                unsigned ses, struct rcl_error *err);

/**
 * rcl_nvme_fw_chunk() - the bytes one Firmware Image Download may carry on
 * the controller @id describes: 64 KiB, or less where its MDTS (in 4 KiB
 * pages, the smallest page every controller has) says so, and a multiple
 * of its firmware update granularity (FWUG). 0: the granularity exceeds
 * MDTS, so no download fits.
 */
uint32_t rcl_nvme_fw_chunk(const struct nvme_id_ctrl *id);

/**
 * rcl_nvme_fw_download() - send firmware image file @path to the drive, in
 * rcl_nvme_fw_chunk()-sized Firmware Image Download commands at rising
 * offsets. The file is checked before any command is sent: not empty, a
 * whole number of dwords, at most RCL_NVME_FW_MAX_BYTES.
 * Return: RCL_OK; RCL_INVALID_PARAM (a file of the wrong size or
 * alignment, not a regular file); RCL_NOT_FOUND (no such file);
 * RCL_UNSUPPORTED (no firmware commands); RCL_SYSTEM (the file cannot be
 * read); RCL_NOMEM; rcl_nvme_fail()'s, naming the offset.
 */
enum rcl_status rcl_nvme_fw_download(int fd, const struct nvme_id_ctrl *id, const char *path,
                                     struct rcl_error *err);

/**
 * rcl_nvme_fw_commit() - Firmware Commit of the downloaded image to slot
 * @slot (1-7; 0 lets the drive choose) with @action (NVME_FW_COMMIT_CA_*:
 * replace, replace and activate, activate, activate now). *@needs_reset
 * tells whether the drive answered that the new image runs only after a
 * reset (a success, as the specification says).
 * Return: RCL_OK; RCL_INVALID_PARAM (a slot the drive does not have, the
 * read-only slot 1 for a replace, an unknown action); RCL_UNSUPPORTED;
 * rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_fw_commit(int fd, const struct nvme_id_ctrl *id, unsigned slot,
                                   unsigned action, bool *needs_reset, struct rcl_error *err);

/* How a sanitize erases (its SANACT). */
enum rcl_nvme_sanitize {
	RCL_NVME_SANITIZE_BLOCK = NVME_SANITIZE_SANACT_START_BLOCK_ERASE,
	RCL_NVME_SANITIZE_OVERWRITE = NVME_SANITIZE_SANACT_START_OVERWRITE,
	RCL_NVME_SANITIZE_CRYPTO = NVME_SANITIZE_SANACT_START_CRYPTO_ERASE,
};

/* rcl_nvme_sanitize_name() - "block erase", as messages name a method. */
const char *rcl_nvme_sanitize_name(enum rcl_nvme_sanitize how);

/**
 * rcl_nvme_sanitize() - start a sanitize of the whole NVM subsystem's
 * user data with method @how (an overwrite: one pass of zeroes), once the
 * controller's SANICAP says it has that method. The drive goes on alone;
 * its sanitize status log tells the progress. Destroys all user data.
 * Return: RCL_OK; RCL_UNSUPPORTED (no such method, naming those it has);
 * rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_sanitize(int fd, const struct nvme_id_ctrl *id, enum rcl_nvme_sanitize how,
                                  struct rcl_error *err);

/**
 * rcl_nvme_self_test() - Device Self-test with code @stc (NVME_DST_STC_
 * SHORT, LONG, ABORT) on namespace @nsid (NVME_NSID_ALL: the controller
 * and all its namespaces). Return: RCL_OK; RCL_UNSUPPORTED (no self-test
 * in OACS); RCL_INVALID_PARAM (another @stc); rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_self_test(int fd, const struct nvme_id_ctrl *id, uint32_t nsid,
                                   unsigned stc, struct rcl_error *err);

/**
 * rcl_nvme_telemetry_capture() - have the drive create a host-initiated
 * telemetry capture and write it to the new file @path (refused if it
 * exists): the 512-byte header, then every block up to the last of data
 * area @area (1-3; 4 where the header gives one). *@bytes: what was written.
 * On failure the file is removed.
 * Return: RCL_OK; RCL_UNSUPPORTED (no telemetry in LPA); RCL_INVALID_PARAM
 * (a bad @area); RCL_EXISTS (@path exists); RCL_CORRUPT (a header that
 * contradicts itself, rcl_nvme_telemetry_decode()); RCL_SYSTEM (the file);
 * RCL_NOMEM; rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_telemetry_capture(int fd, const struct nvme_id_ctrl *id, const char *path,
                                           unsigned area, uint64_t *bytes, struct rcl_error *err);

/**
 * rcl_nvme_ns_attach() - attach (@attach) or detach namespace @nsid to or
 * from the controller with id @cntlid. Return: RCL_OK; RCL_INVALID_PARAM
 * (nsid 0 or all); RCL_UNSUPPORTED (no namespace management);
 * rcl_nvme_fail()'s (Namespace Already Attached, Not Attached, Private).
 */
enum rcl_status rcl_nvme_ns_attach(int fd, const struct nvme_id_ctrl *id, uint32_t nsid,
                                   uint16_t cntlid, bool attach, struct rcl_error *err);

/**
 * rcl_nvme_ns_create() - create a namespace of @blocks blocks (its size
 * and capacity) in LBA format @lbaf (an index in the formats Identify
 * Namespace lists for NVME_NSID_ALL), its new id in *@nsid; it starts
 * attached to no controller. Return: RCL_OK;
 * RCL_INVALID_PARAM (0 blocks, @lbaf over 15); RCL_UNSUPPORTED;
 * rcl_nvme_fail()'s.
 */
enum rcl_status rcl_nvme_ns_create(int fd, const struct nvme_id_ctrl *id, uint64_t blocks,
                                   unsigned lbaf, uint32_t *nsid, struct rcl_error *err);

/* rcl_nvme_ns_delete() - delete namespace @nsid, and every block in it. */
enum rcl_status rcl_nvme_ns_delete(int fd, const struct nvme_id_ctrl *id, uint32_t nsid,
                                   struct rcl_error *err);

#endif /* RCL_NVME_ADMIN_H */
