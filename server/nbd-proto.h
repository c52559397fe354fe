/* SPDX-License-Identifier: MIT */
/*
 * nbd-proto.h - the NBD protocol's wire constants (doc/proto.md of the
 * NetworkBlockDevice project) and big-endian field helpers. Only what this
 * server speaks: fixed newstyle handshake, simple and structured replies.
 */
#ifndef RCL_SERVER_NBD_PROTO_H
#define RCL_SERVER_NBD_PROTO_H

#include <stdint.h>

/* Handshake magics. */
#define NBD_MAGIC_INIT      0x4e42444d41474943ULL /* "NBDMAGIC" */
#define NBD_MAGIC_OPT       0x49484156454F5054ULL /* "IHAVEOPT" */
#define NBD_MAGIC_OPT_REPLY 0x3e889045565a9ULL

/* Handshake flags (server) and client flags. */
#define NBD_FLAG_FIXED_NEWSTYLE   (1u << 0)
#define NBD_FLAG_NO_ZEROES        (1u << 1)
#define NBD_FLAG_C_FIXED_NEWSTYLE (1u << 0)
#define NBD_FLAG_C_NO_ZEROES      (1u << 1)

/* Transmission flags. */
#define NBD_FLAG_HAS_FLAGS         (1u << 0)
#define NBD_FLAG_READ_ONLY         (1u << 1)
#define NBD_FLAG_SEND_FLUSH        (1u << 2)
#define NBD_FLAG_SEND_FUA          (1u << 3)
#define NBD_FLAG_SEND_TRIM         (1u << 5)
#define NBD_FLAG_SEND_WRITE_ZEROES (1u << 6)
#define NBD_FLAG_CAN_MULTI_CONN    (1u << 8)

/* Options. */
#define NBD_OPT_EXPORT_NAME      1
#define NBD_OPT_ABORT            2
#define NBD_OPT_LIST             3
#define NBD_OPT_STARTTLS         5
#define NBD_OPT_INFO             6
#define NBD_OPT_GO               7
#define NBD_OPT_STRUCTURED_REPLY 8

/* Option replies; errors have bit 31 set. */
#define NBD_REP_ACK         1u
#define NBD_REP_SERVER      2u
#define NBD_REP_INFO        3u
#define NBD_REP_ERR(n)      ((1u << 31) | (n))
#define NBD_REP_ERR_UNSUP   NBD_REP_ERR(1)
#define NBD_REP_ERR_POLICY  NBD_REP_ERR(2)
#define NBD_REP_ERR_INVALID NBD_REP_ERR(3)
#define NBD_REP_ERR_UNKNOWN NBD_REP_ERR(6)
#define NBD_REP_ERR_TOO_BIG NBD_REP_ERR(9)

/* NBD_REP_INFO types. */
#define NBD_INFO_EXPORT      0
#define NBD_INFO_NAME        1
#define NBD_INFO_DESCRIPTION 2
#define NBD_INFO_BLOCK_SIZE  3

/* Transmission: request and simple reply. */
#define NBD_MAGIC_REQUEST      0x25609513u
#define NBD_MAGIC_SIMPLE_REPLY 0x67446698u
#define NBD_REQUEST_SIZE       28
#define NBD_SIMPLE_REPLY_SIZE  16

/* Structured replies (after NBD_OPT_STRUCTURED_REPLY): chunks. */
#define NBD_MAGIC_STRUCTURED_REPLY 0x668e33efu
#define NBD_CHUNK_HEADER_SIZE      20
#define NBD_REPLY_FLAG_DONE        (1u << 0)
#define NBD_REPLY_TYPE_NONE        0
#define NBD_REPLY_TYPE_OFFSET_DATA 1
#define NBD_REPLY_TYPE_ERROR       ((1u << 15) + 1)

#define NBD_CMD_READ         0
#define NBD_CMD_WRITE        1
#define NBD_CMD_DISC         2
#define NBD_CMD_FLUSH        3
#define NBD_CMD_TRIM         4
#define NBD_CMD_WRITE_ZEROES 6

#define NBD_CMD_FLAG_FUA     (1u << 0)
#define NBD_CMD_FLAG_NO_HOLE (1u << 1)

/* Error values (the spec fixes them; they happen to equal Linux errnos). */
#define NBD_EPERM     1
#define NBD_EIO       5
#define NBD_ENOMEM    12
#define NBD_EINVAL    22
#define NBD_ENOSPC    28
#define NBD_EOVERFLOW 75
#define NBD_ENOTSUP   95
#define NBD_ESHUTDOWN 108

/*
 * Limits. Strings (export names) MUST be at most 4096 bytes; the spec says
 * any payload up to 32 MiB SHOULD NOT be taken for a denial of service.
 */
#define NBD_STRING_MAX      4096
#define NBD_DOS_PAYLOAD_MAX (32u << 20)

static inline void nbd_put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void nbd_put32(uint8_t *p, uint32_t v)
{
	nbd_put16(p, v >> 16);
	nbd_put16(p + 2, v);
}

static inline void nbd_put64(uint8_t *p, uint64_t v)
{
	nbd_put32(p, v >> 32);
	nbd_put32(p + 4, v);
}

static inline uint16_t nbd_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t nbd_get32(const uint8_t *p)
{
	return (uint32_t)nbd_get16(p) << 16 | nbd_get16(p + 2);
}

static inline uint64_t nbd_get64(const uint8_t *p)
{
	return (uint64_t)nbd_get32(p) << 32 | nbd_get32(p + 4);
}

#endif /* RCL_SERVER_NBD_PROTO_H */
