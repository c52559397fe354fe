/* SPDX-License-Identifier: MIT */
/*
 * mfi.h - the MegaRAID firmware interface (MFI) as the megaraid backend
 * uses it: the Linux megaraid_sas driver's management ioctl packet, the
 * MFI frames inside it, and the replies of the DCMDs "show" sends.
 *
 * Written for raidcli from the public interface (research/passthrough.md
 * section 4: the Linux driver's ioctl path, FreeBSD's mfireg.h, QEMU's
 * megasas model); only the fields raidcli reads are named, the rest is
 * padding. Every structure is little-endian on the wire and packed; the
 * assertions below pin each size and each offset raidcli reads, so a
 * layout mistake fails the build, not a controller.
 */
#ifndef RCL_MEGARAID_MFI_H
#define RCL_MEGARAID_MFI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* The driver's character device, registered under this name in /proc/devices. */
#define RCL_MFI_CHRDEV_NAME "megaraid_sas_ioctl"
#define RCL_MFI_NODE        "/dev/megaraid_sas_ioctl_node"
/* The SCSI hosts the driver drives: /sys/class/scsi_host/hostN/proc_name. */
#define RCL_MFI_PROC_NAME "megaraid_sas"

/* Frame commands (the header's first byte). */
enum {
	RCL_MFI_CMD_PD_SCSI_IO = 0x04,
	RCL_MFI_CMD_DCMD = 0x05,
};

/* Frame flags: the data's direction (the driver sets the SGL and sense widths itself). */
enum {
	RCL_MFI_FLAG_NONE = 0x0000,
	RCL_MFI_FLAG_WRITE = 0x0008, /* host to controller */
	RCL_MFI_FLAG_READ = 0x0010,  /* controller to host */
};

/* The DCMD opcodes raidcli sends. */
enum {
	RCL_MFI_DCMD_CTRL_GET_INFO = 0x01010000,
	RCL_MFI_DCMD_CTRL_GET_PROPS = 0x01020100, /* struct rcl_mfi_ctrl_props, read */
	RCL_MFI_DCMD_CTRL_SET_PROPS = 0x01020200, /* the same, written whole */
	RCL_MFI_DCMD_PD_GET_LIST = 0x02010000,
	RCL_MFI_DCMD_PD_GET_INFO = 0x02020000,
	RCL_MFI_DCMD_LD_GET_LIST = 0x03010000,
	RCL_MFI_DCMD_LD_GET_INFO = 0x03020000,
	RCL_MFI_DCMD_CFG_READ = 0x04010000,
	/* The changes (FreeBSD's mfireg.h and QEMU's include/hw/scsi/mfi.h agree). */
	RCL_MFI_DCMD_PD_STATE_SET = 0x02030100, /* mbox: device id, sequence number, state (u16s) */
	RCL_MFI_DCMD_PD_LOCATE_START = 0x02070100, /* mbox: device id (u16), then 0 */
	RCL_MFI_DCMD_PD_LOCATE_STOP = 0x02070200,
	/* Broadcom's mr.h (MR_DCMD_PD_MISSING_MARK): mbox: device id, sequence number. */
	RCL_MFI_DCMD_PD_MISSING_MARK = 0x02080100,
	/* MR_DCMD_PD_MISSING_REPLACE: mbox: device id, sequence number, array ref, row (b[6]). */
	RCL_MFI_DCMD_PD_MISSING_REPLACE = 0x02080200,
	RCL_MFI_DCMD_LD_GET_PROP = 0x03030000, /* mbox[0]: target; the LD info's first 32 bytes */
	RCL_MFI_DCMD_LD_SET_PROP = 0x03040000, /* the same 32 bytes, written */
	RCL_MFI_DCMD_LD_DELETE = 0x03090000,   /* mbox[0]: the target id */
	RCL_MFI_DCMD_CFG_ADD = 0x04020000,     /* a configuration as CFG_READ's, written */
	RCL_MFI_DCMD_CFG_MAKE_SPARE = 0x04040000,   /* struct rcl_mfi_spare, written */
	RCL_MFI_DCMD_CFG_REMOVE_SPARE = 0x04050000, /* mbox: device id, sequence number */
};

/* Firmware command status (the header's cmd_status), the ones raidcli tells apart. */
enum {
	RCL_MFI_STAT_OK = 0x00,
	RCL_MFI_STAT_INVALID_CMD = 0x01,
	RCL_MFI_STAT_INVALID_DCMD = 0x02,
	RCL_MFI_STAT_INVALID_PARAMETER = 0x03,
	RCL_MFI_STAT_DEVICE_NOT_FOUND = 0x0c,
	RCL_MFI_STAT_NOT_FOUND = 0x23,
	RCL_MFI_STAT_SCSI_DONE_WITH_ERROR = 0x2d,
	RCL_MFI_STAT_TIME_NOT_SET = 0x31,
	RCL_MFI_STAT_WRONG_STATE = 0x32,
	RCL_MFI_STAT_INVALID_STATUS = 0xff, /* what raidcli presets: no answer written */
};

/* Physical drive firmware states (PD_GET_INFO's fw_state). */
enum {
	RCL_MFI_PD_UNCONFIGURED_GOOD = 0x00,
	RCL_MFI_PD_UNCONFIGURED_BAD = 0x01,
	RCL_MFI_PD_HOT_SPARE = 0x02,
	RCL_MFI_PD_OFFLINE = 0x10,
	RCL_MFI_PD_FAILED = 0x11,
	RCL_MFI_PD_REBUILD = 0x14,
	RCL_MFI_PD_ONLINE = 0x18,
	RCL_MFI_PD_COPYBACK = 0x20,
	RCL_MFI_PD_SYSTEM = 0x40, /* JBOD */
};

/* Logical drive states. */
enum {
	RCL_MFI_LD_OFFLINE = 0,
	RCL_MFI_LD_PARTIALLY_DEGRADED = 1,
	RCL_MFI_LD_DEGRADED = 2,
	RCL_MFI_LD_OPTIMAL = 3,
};

/* CTRL_GET_INFO's raid_levels bits. */
enum {
	RCL_MFI_RAID_0 = 0x01,
	RCL_MFI_RAID_1 = 0x02,
	RCL_MFI_RAID_5 = 0x04,
	RCL_MFI_RAID_1E = 0x08,
	RCL_MFI_RAID_6 = 0x10,
};

/* CTRL_GET_INFO's hw_present bits. */
enum {
	RCL_MFI_HW_BBU = 0x01,
	RCL_MFI_HW_ALARM = 0x02,
};

/* The controller properties' on/off word (MR_CTRL_PROP.OnOffProperties). */
#define RCL_MFI_PROP_PR_UNCFG    (1u << 2) /* prCorrectUnconfiguredAreas */
#define RCL_MFI_PROP_SSD_PR      (1u << 6) /* SSDPatrolReadEnabled */
#define RCL_MFI_PROP_ENABLE_JBOD (1u << 13)

/* CTRL_GET_INFO's second adapter operations word: the card can expose JBOD drives. */
#define RCL_MFI_OPS2_JBOD (1u << 11)

/*
 * An LD's cache policy bits (its properties' default and current policies;
 * FreeBSD's mfireg.h MR_LD_CACHE_*). The two "allow" bits say whether the
 * controller's cache takes the LD's writes and keeps its reads (mfiutil's
 * "I/O caching", OpenBSD's mfii write and read cache); write back says when
 * a write completes. "show" reads StorCLI's I/O policy "Cached" from the
 * read bit ("Direct" without it).
 */
enum {
	RCL_MFI_LD_CACHE_WRITE_BACK = 0x01,
	RCL_MFI_LD_CACHE_READ_AHEAD = 0x04,
	RCL_MFI_LD_CACHE_BAD_BBU = 0x10,     /* write back even without a good battery */
	RCL_MFI_LD_CACHE_ALLOW_WRITE = 0x20, /* MR_LD_CACHE_ALLOW_WRITE_CACHE */
	RCL_MFI_LD_CACHE_CACHED_IO = 0x40,   /* MR_LD_CACHE_ALLOW_READ_CACHE */
};

#define RCL_MFI_FRAME_SIZE 128 /* the ioctl carries up to two 64-byte frames */
#define RCL_MFI_MAX_SGE    16
#define RCL_MFI_MBOX_SIZE  12
#define RCL_MFI_CDB_MAX    16
#define RCL_MFI_MAX_LD     64

/* The header every frame starts with. */
struct rcl_mfi_header {
	uint8_t cmd;
	uint8_t sense_len;
	uint8_t cmd_status;
	uint8_t scsi_status;
	uint8_t target_id;
	uint8_t lun;
	uint8_t cdb_len;
	uint8_t sge_count;
	uint32_t context; /* the driver's own: it overwrites it */
	uint32_t pad0;
	uint16_t flags;
	uint16_t timeout;
	uint32_t data_len;
} __attribute__((packed));

/*
 * A DCMD (direct command): a firmware opcode with its 12-byte mailbox, then
 * the SGL, which the driver writes: sizeof() is the SGL's offset. (No
 * flexible member for it: the frames share a union.)
 */
struct rcl_mfi_dcmd_frame {
	struct rcl_mfi_header hdr;
	uint32_t opcode;
	uint8_t mbox[RCL_MFI_MBOX_SIZE];
} __attribute__((packed));

/* A SCSI command passed through to a physical drive; the SGL follows, as for a DCMD. */
struct rcl_mfi_pass_frame {
	struct rcl_mfi_header hdr;
	uint64_t sense_addr; /* the driver reads the user's sense pointer here */
	uint8_t cdb[RCL_MFI_CDB_MAX];
} __attribute__((packed));

/*
 * The MEGASAS_IOC_FIRMWARE packet: which adapter (its SCSI host number),
 * where in the frame the driver writes the SGL and the sense address, and
 * the user's buffers.
 */
struct rcl_mfi_packet {
	uint16_t host_no;
	uint16_t pad;
	uint32_t sgl_off;
	uint32_t sge_count;
	uint32_t sense_off;
	uint32_t sense_len;
	union {
		uint8_t raw[RCL_MFI_FRAME_SIZE];
		struct rcl_mfi_header hdr;
		struct rcl_mfi_dcmd_frame dcmd;
		struct rcl_mfi_pass_frame pass;
	} frame;
	struct iovec sgl[RCL_MFI_MAX_SGE];
} __attribute__((packed));

/* _IOWR('M', 1, struct megasas_iocpacket): the packet's size is part of the number. */
#define RCL_MFI_IOC_FIRMWARE                                                                       \
	((3ul << 30) | ((unsigned long)sizeof(struct rcl_mfi_packet) << 16) | ('M' << 8) | 1)

_Static_assert(sizeof(struct rcl_mfi_header) == 24, "MFI frame header");
_Static_assert(offsetof(struct rcl_mfi_header, flags) == 16, "MFI header flags");
_Static_assert(offsetof(struct rcl_mfi_header, data_len) == 20, "MFI header data_len");
_Static_assert(offsetof(struct rcl_mfi_dcmd_frame, opcode) == 24, "DCMD opcode");
_Static_assert(offsetof(struct rcl_mfi_dcmd_frame, mbox) == 28, "DCMD mbox");
_Static_assert(sizeof(struct rcl_mfi_dcmd_frame) == 40, "DCMD SGL offset");
_Static_assert(offsetof(struct rcl_mfi_pass_frame, sense_addr) == 24, "pass-through sense");
_Static_assert(offsetof(struct rcl_mfi_pass_frame, cdb) == 32, "pass-through CDB");
_Static_assert(sizeof(struct rcl_mfi_pass_frame) == 48, "pass-through SGL offset");
_Static_assert(offsetof(struct rcl_mfi_packet, frame) == 20, "packet frame");
_Static_assert(offsetof(struct rcl_mfi_packet, sgl) == 148, "packet iovecs");
_Static_assert(sizeof(struct rcl_mfi_packet) == 148 + RCL_MFI_MAX_SGE * sizeof(struct iovec),
               "packet size");

/* ------------------------------------------------------------------------
 * DCMD replies. Offsets are the firmware's; fields raidcli does not read are padding.
 */

/* One firmware image component (name, version, build date and time). */
struct rcl_mfi_component {
	char name[8];
	char version[32];
	char build_date[16];
	char build_time[16];
} __attribute__((packed));

/* The controller properties (CTRL_GET_PROPERTIES, and inside CTRL_GET_INFO). */
struct rcl_mfi_ctrl_props {
	uint16_t seq_num;
	uint16_t pred_fail_poll_interval;
	uint16_t intr_throttle_count;
	uint16_t intr_throttle_timeout;
	uint8_t rebuild_rate;
	uint8_t patrol_read_rate;
	uint8_t bgi_rate;
	uint8_t cc_rate;
	uint8_t recon_rate;
	uint8_t cache_flush_interval;
	uint8_t spinup_drive_count;
	uint8_t spinup_delay;
	uint8_t cluster_enable;
	uint8_t coercion_mode;
	uint8_t alarm_enable;
	uint8_t disable_auto_rebuild;
	uint8_t rsvd0[12];
	uint32_t on_off;
	uint8_t rsvd1[28];
} __attribute__((packed));

/* CTRL_GET_INFO: 2048 bytes. */
struct rcl_mfi_ctrl_info {
	uint16_t pci_vendor, pci_device, pci_subvendor, pci_subdevice;
	uint8_t rsvd0[24];
	uint8_t host_type;
	uint8_t rsvd1[71];
	uint8_t device_type;
	uint8_t rsvd2[6];
	uint8_t device_port_count;
	uint8_t rsvd3[64];
	uint32_t image_check_word;
	uint32_t image_component_count;
	struct rcl_mfi_component image_component[8];
	uint32_t pending_component_count;
	struct rcl_mfi_component pending_component[8];
	uint8_t max_arms;
	uint8_t max_spans;
	uint8_t max_arrays;
	uint8_t max_lds;
	char product_name[80];
	char serial_number[32];
	uint32_t hw_present;
	uint32_t current_fw_time;
	uint16_t max_cmds;
	uint16_t max_sg_elements;
	uint32_t max_request_size;
	uint16_t lds_present, lds_degraded, lds_offline;
	uint16_t pd_present, pd_disks_present, pd_disks_pred_failure, pd_disks_failed;
	uint16_t nvram_size, memory_size, flash_size;
	uint8_t rsvd4[8];
	uint32_t raid_levels;
	uint32_t adapter_ops;
	uint32_t ld_ops;
	uint8_t stripe_min, stripe_max; /* log2 of the strip in 512-byte blocks */
	uint8_t rsvd5[22];
	struct rcl_mfi_ctrl_props props;
	char package_version[96];
	uint8_t rsvd6[260];
	uint32_t adapter_ops2;
	uint8_t rsvd6b[33];
	uint8_t roc_temperature;  /* degrees Celsius; 0: no sensor (QEMU's) */
	uint8_t ctrl_temperature; /* the board's, where it has a sensor */
	uint8_t rsvd7[2048 - 1995];
} __attribute__((packed));

_Static_assert(sizeof(struct rcl_mfi_ctrl_props) == 64, "controller properties");
_Static_assert(offsetof(struct rcl_mfi_ctrl_props, rebuild_rate) == 8, "properties rates");
_Static_assert(offsetof(struct rcl_mfi_ctrl_props, disable_auto_rebuild) == 19,
               "properties auto rebuild");
_Static_assert(offsetof(struct rcl_mfi_ctrl_props, on_off) == 32, "properties on/off word");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, host_type) == 32, "ctrl info host");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, device_type) == 104, "ctrl info device");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, image_component) == 184, "ctrl info images");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, max_arms) == 1340, "ctrl info limits");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, product_name) == 1344, "ctrl info product");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, serial_number) == 1424, "ctrl info serial");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, hw_present) == 1456, "ctrl info hw");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, lds_present) == 1472, "ctrl info lds");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, memory_size) == 1488, "ctrl info memory");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, raid_levels) == 1500, "ctrl info levels");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, stripe_min) == 1512, "ctrl info strips");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, props) == 1536, "ctrl info properties");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, package_version) == 1600, "ctrl info package");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, adapter_ops2) == 0x7a4, "ctrl info ops 2");
_Static_assert(offsetof(struct rcl_mfi_ctrl_info, roc_temperature) == 0x7c9, "ctrl info ROC temp");
_Static_assert(sizeof(struct rcl_mfi_ctrl_info) == 2048, "ctrl info size");

/* One entry of PD_GET_LIST. */
struct rcl_mfi_pd_address {
	uint16_t device_id;
	uint16_t encl_device_id; /* 0xffff: not in an enclosure */
	uint8_t encl_index;
	uint8_t slot;
	uint8_t scsi_dev_type; /* SCSI peripheral device type: 0 a disk, 0x0d an enclosure */
	uint8_t port_bitmap;
	uint64_t sas_addr[2];
} __attribute__((packed));

/* PD_GET_LIST's header: the bytes used, then @count entries. */
struct rcl_mfi_pd_list {
	uint32_t size;
	uint32_t count;
	struct rcl_mfi_pd_address addr[];
} __attribute__((packed));

/* The most PDs raidcli lists: the firmware's MAX_SYS_PDS. */
#define RCL_MFI_MAX_PDS 240

_Static_assert(sizeof(struct rcl_mfi_pd_address) == 24, "PD address");
_Static_assert(sizeof(struct rcl_mfi_pd_list) == 8, "PD list header");

/*
 * PD_GET_INFO's media type (MR_PD_INFO.mediaType, Linux's megaraid_sas.h,
 * as LSI's MR_PD_MEDIA_TYPE numbers it): rotating, or solid state (an SSD,
 * or a flash module). QEMU's model leaves it 0.
 */
enum {
	RCL_MFI_MEDIA_ROTATIONAL = 0,
	RCL_MFI_MEDIA_SSD = 1,
	RCL_MFI_MEDIA_SSM_FLASH = 2,
};

/* PD_GET_INFO: 512 bytes. */
struct rcl_mfi_pd_info {
	uint16_t device_id;
	uint16_t seq_num;
	uint8_t inquiry[96];
	uint8_t vpd_page83[64];
	uint8_t not_supported;
	uint8_t scsi_dev_type;
	uint8_t port_bitmap;
	uint8_t device_speed;
	uint32_t media_errors;
	uint32_t other_errors;
	uint32_t pred_fail_count;
	uint32_t last_pred_fail_seq;
	uint16_t fw_state;
	uint8_t disabled_for_removal;
	uint8_t link_speed;
	uint16_t ddf_type;
	uint16_t rsvd0;
	uint8_t path_count;
	uint8_t path_broken;
	uint8_t rsvd1[6];
	uint64_t sas_addr[4];
	uint64_t raw_blocks;
	uint64_t non_coerced_blocks;
	uint64_t coerced_blocks;
	uint16_t encl_device_id;
	uint8_t encl_index;
	uint8_t slot;
	uint8_t rsvd2[110];  /* progress, VPD page 0x83 extension, power, allowed ops, security */
	uint8_t media_type;  /* RCL_MFI_MEDIA_* */
	uint8_t rsvd2b[31];  /* certification, SATA bridge, interface */
	uint8_t temperature; /* degrees Celsius, 0: not reported (QEMU's) */
	uint8_t rsvd3[512 - 403];
} __attribute__((packed));

_Static_assert(offsetof(struct rcl_mfi_pd_info, inquiry) == 4, "PD info inquiry");
_Static_assert(offsetof(struct rcl_mfi_pd_info, media_errors) == 168, "PD info errors");
_Static_assert(offsetof(struct rcl_mfi_pd_info, fw_state) == 184, "PD info state");
_Static_assert(offsetof(struct rcl_mfi_pd_info, ddf_type) == 188, "PD info ddf type");
_Static_assert(offsetof(struct rcl_mfi_pd_info, sas_addr) == 200, "PD info SAS address");
_Static_assert(offsetof(struct rcl_mfi_pd_info, raw_blocks) == 232, "PD info sizes");
_Static_assert(offsetof(struct rcl_mfi_pd_info, encl_device_id) == 256, "PD info enclosure");
_Static_assert(offsetof(struct rcl_mfi_pd_info, slot) == 259, "PD info slot");
_Static_assert(offsetof(struct rcl_mfi_pd_info, media_type) == 370, "PD info media type");
_Static_assert(offsetof(struct rcl_mfi_pd_info, temperature) == 402, "PD info temperature");
_Static_assert(sizeof(struct rcl_mfi_pd_info) == 512, "PD info size");

/* LD_GET_LIST: exactly this size (QEMU refuses a larger buffer). */
struct rcl_mfi_ld_list {
	uint32_t count;
	uint32_t rsvd;
	struct {
		uint8_t target_id;
		uint8_t rsvd0;
		uint16_t seq;
		uint8_t state;
		uint8_t rsvd1[3];
		uint64_t blocks;
	} __attribute__((packed)) ld[RCL_MFI_MAX_LD];
} __attribute__((packed));

_Static_assert(sizeof(struct rcl_mfi_ld_list) == 1032, "LD list size");

/* One span of an LD: its extent on one array. */
struct rcl_mfi_span {
	uint64_t start_block;
	uint64_t blocks;
	uint16_t array_ref;
	uint8_t rsvd[6];
} __attribute__((packed));

/* LD_GET_INFO: 384 bytes; the first 256 are the LD's configuration (CFG_READ's too). */
struct rcl_mfi_ld_info {
	uint8_t target_id;
	uint8_t rsvd0;
	uint16_t seq;
	char name[16];
	uint8_t default_cache;
	uint8_t access;
	uint8_t disk_cache;
	uint8_t current_cache;
	uint8_t no_bgi;
	uint8_t rsvd1[7];
	uint8_t primary_level;
	uint8_t level_qualifier;
	uint8_t secondary_level;
	uint8_t stripe_size; /* log2 of the strip in 512-byte blocks */
	uint8_t num_drives;  /* per span */
	uint8_t span_depth;
	uint8_t state;
	uint8_t init_state;
	uint8_t consistent;
	uint8_t rsvd2[23];
	struct rcl_mfi_span span[8];
	uint64_t blocks;
	uint8_t rsvd3[384 - 264];
} __attribute__((packed));

_Static_assert(offsetof(struct rcl_mfi_ld_info, name) == 4, "LD info name");
_Static_assert(offsetof(struct rcl_mfi_ld_info, default_cache) == 20, "LD info cache");
_Static_assert(offsetof(struct rcl_mfi_ld_info, primary_level) == 32, "LD info params");
_Static_assert(offsetof(struct rcl_mfi_ld_info, span) == 64, "LD info spans");
_Static_assert(offsetof(struct rcl_mfi_ld_info, blocks) == 256, "LD info size");
_Static_assert(sizeof(struct rcl_mfi_ld_info) == 384, "LD info length");

/* LD_GET_PROP and LD_SET_PROP move an LD's properties: its info up to primary_level. */
#define RCL_MFI_LD_PROPS_SIZE 32

/* CFG_READ's header: the arrays, then the LD configurations, then the spares. */
struct rcl_mfi_config {
	uint32_t size; /* of the whole configuration */
	uint16_t array_count;
	uint16_t array_size; /* of one array (QEMU: of them all) */
	uint16_t ld_count;
	uint16_t ld_size;
	uint16_t spare_count;
	uint16_t spare_size;
	uint8_t rsvd[16];
} __attribute__((packed));

/* One array (a span's drives) of CFG_READ. */
struct rcl_mfi_array {
	uint64_t blocks;
	uint8_t num_drives;
	uint8_t rsvd0;
	uint16_t array_ref;
	uint8_t rsvd1[20];
	struct {
		uint16_t device_id; /* 0xffff: an empty row */
		uint16_t seq_num;
		uint16_t fw_state;
		uint8_t encl_index;
		uint8_t slot;
	} __attribute__((packed)) pd[32];
} __attribute__((packed));

/* The LD configuration size inside CFG_READ: the first part of LD_GET_INFO's reply. */
#define RCL_MFI_LD_CONFIG_SIZE 256

_Static_assert(sizeof(struct rcl_mfi_config) == 32, "config header");
_Static_assert(offsetof(struct rcl_mfi_array, array_ref) == 10, "array ref");
_Static_assert(offsetof(struct rcl_mfi_array, pd) == 32, "array drives");
_Static_assert(sizeof(struct rcl_mfi_array) == 288, "array size");

/* A hot spare (CFG_MAKE_SPARE): the drive, whether dedicated, and the arrays it serves. */
struct rcl_mfi_spare {
	uint16_t device_id;
	uint16_t seq_num;
	uint8_t spare_type; /* RCL_MFI_SPARE_DEDICATED; 0: global */
	uint8_t rsvd[2];
	uint8_t array_count;
	uint16_t array_ref[16]; /* the first array_count used */
} __attribute__((packed));

#define RCL_MFI_SPARE_DEDICATED 0x01

_Static_assert(offsetof(struct rcl_mfi_spare, array_count) == 7, "spare array count");
_Static_assert(offsetof(struct rcl_mfi_spare, array_ref) == 8, "spare arrays");
_Static_assert(sizeof(struct rcl_mfi_spare) == 40, "spare size");

#endif /* RCL_MEGARAID_MFI_H */
