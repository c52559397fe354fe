/* SPDX-License-Identifier: MIT */
/*
 * nvme-shim.h - an NVMe drive that exists only as the replies of an
 * LD_PRELOADed ioctl() (nvme-shim.c), for what QEMU 7.2's emulated NVMe
 * cannot do: firmware download and commit, sanitize, device self-test,
 * telemetry, FDP logs and namespace management all answer Invalid Opcode
 * or Invalid Field there (research/passthrough.md, section 3), so their
 * success paths and the drives' odd answers are tested here, below the
 * transport, as libnvme tests its own calls.
 *
 * A test names the file that plays the drive and the admin commands it
 * must receive, in order; each NVME_IOCTL_ADMIN_CMD on a descriptor open
 * on that file is checked field by field against the next one and gets
 * its reply. Descriptors on other files reach the real ioctl().
 */
#ifndef RCL_NVME_SHIM_H
#define RCL_NVME_SHIM_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct shim_cmd - one admin command the drive must receive, and its answer.
 * @opcode, @nsid, @cdw10 ... @cdw15: what the command must carry (flags,
 *		cdw2, cdw3 and metadata must be 0).
 * @data_len:	the length of its data buffer.
 * @in_data:	the bytes it must send (@data_len of them); NULL: not checked
 *		(a command that reads).
 * @timeout_ms:	the timeout it must ask for (0: the kernel's default).
 * @out_data, @out_len: the reply copied into its buffer (at most @data_len).
 * @result:	the completion's dword 0.
 * @status:	> 0: the NVMe status the drive answers (with DNR, SCT, SC as
 *		the completion's status field, bits 14:0); < 0: -errno, the
 *		ioctl fails; 0: success.
 */
struct shim_cmd {
	uint8_t opcode;
	uint32_t nsid;
	uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
	uint32_t data_len;
	const void *in_data;
	uint32_t timeout_ms;
	const void *out_data;
	uint32_t out_len;
	uint32_t result;
	int status;
};

/**
 * shim_expect() - make file @path the drive: it answers NVME_IOCTL_ID with
 * @nsid (0: as a controller's character device does, ENOTTY) and must get
 * the @count commands of @cmds (kept, not copied), in order.
 */
void shim_expect(const char *path, uint32_t nsid, const struct shim_cmd *cmds, size_t count);

/**
 * shim_check() - what went wrong so far: the first command that differed
 * from the one expected (naming the field, the value and the one wanted),
 * a command beyond the list, or the commands of the list never sent;
 * NULL when the drive got exactly its list.
 */
const char *shim_check(void);

/*
 * SHIM_OK() - for the Check tests: assert that @call, which fills a struct
 * rcl_error named err, succeeded; if not, say its message and what the
 * shim saw.
 */
#define SHIM_OK(call)                                                                              \
	do {                                                                                       \
		int st_ = (int)(call);                                                             \
		ck_assert_msg(st_ == 0, "%s: status %d: %s (shim: %s)", #call, st_, err.msg,       \
		              shim_check() ? shim_check() : "as expected");                        \
	} while (0)

/* SHIM_SENT() - assert that the drive got exactly its list (shim_check()). */
#define SHIM_SENT()                                                                                \
	do {                                                                                       \
		const char *failure_ = shim_check();                                               \
		ck_assert_msg(failure_ == NULL, "%s", failure_);                                   \
	} while (0)

#endif /* RCL_NVME_SHIM_H */
