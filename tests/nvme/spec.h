/* SPDX-License-Identifier: MIT */
/*
 * spec.h - NVMe admin commands and replies as the NVMe base specification
 * (2.0) lays them out, for the shim's expected lists: opcodes, command
 * dwords and data structure offsets written from its figures, never from
 * libnvme's code, so a test fails where raidcli and the specification
 * disagree.
 */
#ifndef RCL_NVME_SPEC_H
#define RCL_NVME_SPEC_H

#include <stdint.h>
#include <string.h>

#include "nvme-shim.h"

/* Admin opcodes (base specification, figure "Opcodes for Admin Commands"). */
enum {
	SPEC_GET_LOG = 0x02,
	SPEC_IDENTIFY = 0x06,
	SPEC_NS_MGMT = 0x0d,
	SPEC_FW_COMMIT = 0x10,
	SPEC_FW_DOWNLOAD = 0x11,
	SPEC_SELF_TEST = 0x14,
	SPEC_NS_ATTACH = 0x15,
	SPEC_FORMAT = 0x80,
	SPEC_SANITIZE = 0x84,
};

/* Identify Controller byte offsets. */
enum {
	SPEC_IDC_MDTS = 77,
	SPEC_IDC_CNTLID = 78,
	SPEC_IDC_OACS = 256,
	SPEC_IDC_FRMW = 260,
	SPEC_IDC_LPA = 261,
	SPEC_IDC_FWUG = 319,
	SPEC_IDC_SANICAP = 328,
	SPEC_IDC_FNA = 524,
};

/* Status field values: SC bits 7:0, SCT bits 10:8, DNR bit 14. */
#define SPEC_STATUS(sct, sc, dnr) ((int)((sc) | (sct) << 8 | (dnr) << 14))

static inline void spec_le(uint8_t *p, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Identify (CNS @cns, 0 namespace, 1 controller) of @nsid: 4096 bytes back. */
static inline struct shim_cmd spec_identify(unsigned cns, uint32_t nsid, const void *reply)
{
	return (struct shim_cmd){.opcode = SPEC_IDENTIFY,
	                         .nsid = nsid,
	                         .cdw10 = cns,
	                         .data_len = 4096,
	                         .out_data = reply,
	                         .out_len = 4096};
}

/*
 * Get Log Page @lid: NUMD (0-based dwords) split as NUMDL in cdw10 31:16
 * and NUMDU in cdw11 15:0; LSP in cdw10 11:8, LSI in cdw11 31:16; the
 * offset in cdw12 (low) and cdw13 (high).
 */
static inline struct shim_cmd spec_get_log(uint8_t lid, uint8_t lsp, uint32_t nsid, uint64_t offset,
                                           uint32_t len, const void *reply)
{
	uint32_t numd = len / 4 - 1;

	return (struct shim_cmd){.opcode = SPEC_GET_LOG,
	                         .nsid = nsid,
	                         .cdw10 = lid | (uint32_t)lsp << 8 | (numd & 0xffff) << 16,
	                         .cdw11 = numd >> 16,
	                         .cdw12 = (uint32_t)offset,
	                         .cdw13 = (uint32_t)(offset >> 32),
	                         .data_len = len,
	                         .out_data = reply,
	                         .out_len = len};
}

/* Firmware Image Download: NUMD 0-based in cdw10, OFST in dwords in cdw11. */
static inline struct shim_cmd spec_fw_download(uint32_t offset, uint32_t len, const void *data)
{
	return (struct shim_cmd){.opcode = SPEC_FW_DOWNLOAD,
	                         .cdw10 = len / 4 - 1,
	                         .cdw11 = offset / 4,
	                         .data_len = len,
	                         .in_data = data};
}

/* Firmware Commit: FS bits 2:0, CA bits 5:3. */
static inline struct shim_cmd spec_fw_commit(unsigned slot, unsigned action, int status)
{
	return (struct shim_cmd){
	    .opcode = SPEC_FW_COMMIT, .cdw10 = slot | action << 3, .status = status};
}

/* Sanitize: SANACT bits 2:0, OWPASS bits 7:4; OVRPAT in cdw11. */
static inline struct shim_cmd spec_sanitize(unsigned sanact, unsigned owpass, int status)
{
	return (struct shim_cmd){
	    .opcode = SPEC_SANITIZE, .cdw10 = sanact | owpass << 4, .status = status};
}

/* Device Self-test: STC bits 3:0. */
static inline struct shim_cmd spec_self_test(uint32_t nsid, unsigned stc, int status)
{
	return (struct shim_cmd){
	    .opcode = SPEC_SELF_TEST, .nsid = nsid, .cdw10 = stc, .status = status};
}

/* Format NVM: LBAF bits 3:0, MSET 4, PI 7:5, PIL 8, SES 11:9, LBAFU 13:12. */
static inline struct shim_cmd spec_format(uint32_t nsid, unsigned lbaf, unsigned ses,
                                          uint32_t timeout_ms, int status)
{
	return (struct shim_cmd){.opcode = SPEC_FORMAT,
	                         .nsid = nsid,
	                         .cdw10 = (lbaf & 0xf) | ses << 9 | (lbaf >> 4) << 12,
	                         .timeout_ms = timeout_ms,
	                         .status = status};
}

#endif /* RCL_NVME_SPEC_H */
