/* SPDX-License-Identifier: MIT */
/*
 * raidcli.h - the libraidcli API, and its manual.
 *
 * libraidcli models storage controllers the way StorCLI does: controllers
 * (/cN) hold enclosures (/eN) with slots (/sN), disk groups (/dN) and virtual
 * drives (/vN). Each controller is served by a backend; callers never learn
 * which one.
 *
 * Conventions, everywhere in this header:
 *  - Calls that can fail return an enum rcl_status and fill a caller-owned
 *    struct rcl_error. The error is left untouched on success, so calls
 *    chain; on failure it holds the status, a message naming the offending
 *    token, and the extended cause (errno) where one exists.
 *  - _new() returns an object the caller owns and releases with _free();
 *    _free(NULL) is a no-op. Getters return borrowed pointers, valid while
 *    the parent object lives and is not modified.
 *  - All memory comes from rcl_malloc() and its siblings, so tests can fail
 *    the Nth allocation. Out of memory returns RCL_NOMEM; nothing exits.
 *  - The library never prints. Results are data (struct rcl_node trees) for
 *    the caller to render.
 *
 * Over 800 lines: the whole public API with its manual: callers include
 * one installed header, and tests/check-symbols.sh checks it against
 * libraidcli.map.
 */
#ifndef RAIDCLI_H
#define RAIDCLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Status codes.
 *
 * Where StorCLI has an error code for a condition, the value is StorCLI's
 * (its "ErrCd"), so scripts that test exit codes keep working. Codes 240 and
 * up are raidcli's own. Each code means one thing; the detail is in the
 * message and in rcl_error.sys_errno.
 */
enum rcl_status {
	RCL_OK = 0,
	RCL_INVALID_COMMAND = 1,     /* the command line does not parse */
	RCL_INVALID_PARAM = 3,       /* a value is out of range or malformed */
	RCL_DRIVE_TOO_SMALL = 13,    /* a spare smaller than the members it would replace */
	RCL_HW_MISSING = 34,         /* the controller lacks the part the command needs */
	RCL_NOT_FOUND = 35,          /* the addressed object does not exist */
	RCL_FOREIGN_INCOMPLETE = 59, /* a foreign configuration lacks drives it cannot do without */
	RCL_NOT_ALLOWED = 255,       /* refused in the current state */
	RCL_NOMEM = 240,             /* out of memory */
	RCL_CORRUPT = 241,           /* a state file or metadata block is damaged */
	RCL_SYSTEM = 242,            /* an operating system call failed (see sys_errno) */
	RCL_BUSY = 243,              /* the object is in use (locked, mounted, opened) */
	RCL_UNSUPPORTED = 244,       /* the controller does not support the operation */
	RCL_NEED_FORCE = 245,        /* destructive: repeat with 'force' to confirm */
	RCL_EXISTS = 246,            /* the object to create is already there */
	RCL_UNREACHABLE = 247, /* a remote controller (a BMC) did not answer: refused, timed out */
	RCL_BAD_REPLY = 248,   /* a remote controller's answer is malformed, too large or wrong */
};

/**
 * rcl_status_name() - the short, stable name of a status ("not found").
 * Return: a static string; "unknown status" for values outside the enum.
 */
const char *rcl_status_name(enum rcl_status status);

#define RCL_ERROR_MSG_MAX    512
#define RCL_ERROR_DETAIL_MAX 96
/* The longest quoted value ('%s') a message echoes whole (see rcl_error_set()). */
#define RCL_QUOTE_MAX 100

/**
 * struct rcl_error - why a call failed.
 * @status:	the primary code, never RCL_OK once set.
 * @sys_errno:	the errno behind an RCL_SYSTEM or RCL_BUSY failure, else 0.
 * @msg:	one sentence: what is wrong, the quoted token, the fix.
 * @file, @line: where the failure was first recorded (for debugging).
 * @detail:	the device's own status, decoded, when a device refused the
 *		command ("Invalid Firmware Slot (SCT 0x1, SC 0x06, DNR)"), else
 *		empty: rcl_error_set() clears it, a backend fills it after. The
 *		CLI shows it as the Detailed Status's ErrMsg, as StorCLI shows
 *		the firmware's status there.
 */
struct rcl_error {
	enum rcl_status status;
	int sys_errno;
	char msg[RCL_ERROR_MSG_MAX];
	char detail[RCL_ERROR_DETAIL_MAX];
	const char *file;
	int line;
};

/**
 * rcl_error_set() - record a failure in @err (if @err is not NULL).
 * Use the rcl_fail() and rcl_fail_errno() macros, which add the location.
 * @fmt is printf's (without %n and %m), but a string quoted in it ('%s')
 * longer than RCL_QUOTE_MAX bytes is shortened: "'abc...' (100000 bytes)".
 * Quote every value a user or a disk supplied that way, so the reason
 * after it always fits.
 * Return: @status, so that "return rcl_fail(...)" reads naturally.
 */
enum rcl_status rcl_error_set(struct rcl_error *err, enum rcl_status status, int sys_errno,
                              const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#define rcl_fail(err, status, ...) rcl_error_set(err, status, 0, __FILE__, __LINE__, __VA_ARGS__)
#define rcl_fail_errno(err, status, errnum, ...)                                                   \
	rcl_error_set(err, status, errnum, __FILE__, __LINE__, __VA_ARGS__)

/* ------------------------------------------------------------------------
 * Memory. Every allocation in the library and the CLI goes through these.
 * They return NULL on failure (real or injected) and never exit.
 */
void *rcl_malloc(size_t size);
void *rcl_calloc(size_t nmemb, size_t size);
void *rcl_realloc(void *ptr, size_t size);
char *rcl_strdup(const char *s);
char *rcl_strndup(const char *s, size_t n);
/* rcl_free() - release memory from the functions above; NULL is a no-op. */
void rcl_free(void *ptr);

/**
 * rcl_pages_alloc() - @size bytes of zeroed, page-aligned memory of their
 * own, for a large buffer that threads pass between them: rcl_pages_free()
 * returns it to the system at once, where memory malloc() gave a thread
 * stays with that thread's arena. Return: NULL on failure.
 */
void *rcl_pages_alloc(size_t size);
/**
 * rcl_pages_use() - a buffer of @size bytes from rcl_pages_alloc(), reused
 * for @used of them (at most @size): under AddressSanitizer, touching the
 * rest is reported until the next call (elsewhere a no-op).
 */
void rcl_pages_use(void *pages, size_t size, size_t used);
/* rcl_pages_free() - release @size bytes from rcl_pages_alloc(); NULL is a no-op. */
void rcl_pages_free(void *pages, size_t size);
/* rcl_pages_in_use() - the bytes rcl_pages_alloc() gave that are not freed yet. */
size_t rcl_pages_in_use(void);

/**
 * rcl_alloc_fail_after() - make allocation number @n (counting from 1 after
 * this call) fail, and every one after it when @persistent, for fault tests.
 * @n == 0 turns injection off. Return: allocations made since the last call.
 */
unsigned long rcl_alloc_fail_after(unsigned long n, bool persistent);

/* ------------------------------------------------------------------------
 * struct rcl_buf - a growable, always NUL-terminated string.
 *
 * Invariants: @buf is never NULL (an empty buffer points at a static ""),
 * @len < @alloc whenever @alloc > 0. Appends that run out of memory set
 * @oom and leave the contents unchanged; check it once, at the end.
 */
struct rcl_buf {
	char *buf;
	size_t len;
	size_t alloc;
	bool oom;
};

#define RCL_BUF_INIT                                                                               \
	{                                                                                          \
		.buf = (char *)"", .len = 0, .alloc = 0, .oom = false                              \
	}

void rcl_buf_init(struct rcl_buf *sb);
/* rcl_buf_release() - free the contents; @sb is empty and reusable after. */
void rcl_buf_release(struct rcl_buf *sb);
void rcl_buf_reset(struct rcl_buf *sb);
void rcl_buf_add(struct rcl_buf *sb, const char *data, size_t len);
void rcl_buf_adds(struct rcl_buf *sb, const char *s);
void rcl_buf_addch(struct rcl_buf *sb, char c);
void rcl_buf_addchars(struct rcl_buf *sb, char c, size_t count);
void rcl_buf_addf(struct rcl_buf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rcl_buf_vaddf(struct rcl_buf *sb, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/**
 * rcl_buf_detach() - hand the string to the caller, who frees it with
 * rcl_free(); @sb is empty after. Return: NULL if any append ran out of memory.
 */
char *rcl_buf_detach(struct rcl_buf *sb);

/* ------------------------------------------------------------------------
 * Sizes, StorCLI style: units are powers of 1024 whatever their spelling
 * ("GB" = "GiB" = 2^30), as on every MegaRAID/PERC tool.
 */

/**
 * rcl_size_parse() - parse "100GB", "1.5TiB", "512M", "4096B" into bytes.
 * A number with no unit is in MB, as StorCLI reads it.
 * Return: RCL_OK, or RCL_INVALID_PARAM naming @text.
 */
enum rcl_status rcl_size_parse(const char *text, uint64_t *bytes, struct rcl_error *err);

/**
 * rcl_size_format() - "893.750 GB": three decimals, the largest unit
 * (KB, MB, GB, TB, PB) that keeps the value at least 1, "0 KB" for zero.
 * Appends to @sb.
 */
void rcl_size_format(struct rcl_buf *sb, uint64_t bytes);

/* ------------------------------------------------------------------------
 * Results: an ordered tree of named values that the CLI renders as text or
 * as StorCLI JSON. Every node carries its JSON key and, where the text form
 * differs, a text label, so each datum is named exactly once.
 */
enum rcl_node_kind {
	RCL_NODE_OBJECT, /* ordered named children; text: "Title :" section */
	RCL_NODE_ARRAY,  /* unnamed children; of objects: a text table */
	RCL_NODE_STRING,
	RCL_NODE_INT,
};

/* Flags on a node. */
enum {
	RCL_NODE_ALIGN_RIGHT = 1 << 0, /* table column is right-aligned in text */
	RCL_NODE_BLOCKS = 1 << 1,      /* array of objects: text shows a block per object */
};

struct rcl_node;

/**
 * rcl_node_new_object() - a new, empty object node the caller owns.
 * Return: NULL when out of memory.
 */
struct rcl_node *rcl_node_new_object(void);
struct rcl_node *rcl_node_new_array(void);
/* rcl_node_free() - free @node and all its children. */
void rcl_node_free(struct rcl_node *node);

/*
 * Adders append a child to an object (@key required) or an array (@key
 * NULL) and return the child, or NULL when out of memory. Out of memory is
 * sticky: the parent remembers it (rcl_node_oom()) so a handler checks once.
 */
struct rcl_node *rcl_node_add_object(struct rcl_node *parent, const char *key);
struct rcl_node *rcl_node_add_array(struct rcl_node *parent, const char *key);
struct rcl_node *rcl_node_add_str(struct rcl_node *parent, const char *key, const char *value);
struct rcl_node *rcl_node_add_strf(struct rcl_node *parent, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
struct rcl_node *rcl_node_add_int(struct rcl_node *parent, const char *key, long long value);
/* rcl_node_add_size() - a string value in rcl_size_format() form. */
struct rcl_node *rcl_node_add_size(struct rcl_node *parent, const char *key, uint64_t bytes);

/* rcl_node_set_label() - the text form's label, when it differs from the key. */
void rcl_node_set_label(struct rcl_node *node, const char *label);
/* rcl_node_set_legend() - lines printed under a table in text form only. */
void rcl_node_set_legend(struct rcl_node *node, const char *legend);
void rcl_node_set_flags(struct rcl_node *node, unsigned flags);
/* rcl_node_set_oom() - record that building @node's contents ran out of memory. */
void rcl_node_set_oom(struct rcl_node *node);
/* rcl_node_oom() - true if any allocation under @node failed. */
bool rcl_node_oom(const struct rcl_node *node);

enum rcl_node_kind rcl_node_kind(const struct rcl_node *node);
const char *rcl_node_key(const struct rcl_node *node);
/* rcl_node_label() - the text label, or the key when none was set. */
const char *rcl_node_label(const struct rcl_node *node);
const char *rcl_node_legend(const struct rcl_node *node);
unsigned rcl_node_flags(const struct rcl_node *node);
const char *rcl_node_str(const struct rcl_node *node);
long long rcl_node_int(const struct rcl_node *node);
size_t rcl_node_count(const struct rcl_node *node);
const struct rcl_node *rcl_node_child(const struct rcl_node *node, size_t index);
/* rcl_node_find() - the child of an object named @key, or NULL. */
const struct rcl_node *rcl_node_find(const struct rcl_node *node, const char *key);

/* The longest host name and port a result names ("bmc17.example:443"). */
#define RCL_HOST_MAX 96

/**
 * struct rcl_result - the outcome of a command on one controller (or on the
 * system), as StorCLI's "Command Status" plus "Response Data".
 * @ctrl:	the controller number, or -1 for a system-level result.
 * @status:	RCL_OK or the failure code.
 * @description: "Show Drive Information Succeeded.", or the error message.
 * @detail:	optional "Detailed Status" array (per-object outcomes).
 * @data:	optional "Response Data" object; NULL means none is printed.
 * @seconds:	how long the command took on its controller, set by whoever
 *		runs it there (opening it, a BMC's requests, its process's
 *		answer): "show metrics" reports it as the scrape duration. 0
 *		when not measured.
 */
struct rcl_result {
	int ctrl;
	char host[RCL_HOST_MAX]; /* a remote controller's host (rcl_ctx_ctrl_host()), else "" */
	enum rcl_status status;
	char *description;
	struct rcl_node *detail;
	struct rcl_node *data;
	double seconds;
};

/**
 * struct rcl_reply - everything one command produced: one result per
 * controller addressed (/call gives one per controller), in order.
 */
struct rcl_reply {
	struct rcl_result *results;
	size_t count;
	size_t alloc;
};

void rcl_reply_init(struct rcl_reply *reply);
void rcl_reply_release(struct rcl_reply *reply);
/**
 * rcl_reply_add() - append a result for controller @ctrl (-1: system) with
 * status RCL_OK, description "None" and a fresh empty data object.
 * Return: the new result, or NULL when out of memory.
 */
struct rcl_result *rcl_reply_add(struct rcl_reply *reply, int ctrl);
/* rcl_result_describe() - replace the description. Return: false on OOM. */
bool rcl_result_describe(struct rcl_result *res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/**
 * rcl_result_fail() - turn @res into a failure carrying @err: status,
 * description, and a "Detailed Status" row with StorCLI's ErrCd/ErrMsg.
 * @data is kept (StorCLI keeps Response Data on some failures).
 */
void rcl_result_fail(struct rcl_result *res, const struct rcl_error *err);
/**
 * rcl_result_fail_object() - rcl_result_fail() for a command that failed
 * for one object: the Detailed Status row names it under @key, as StorCLI's
 * {"Drive": "/c0/e252/s7", "Status": "Failure", "ErrCd": 255, "ErrMsg": …}.
 */
void rcl_result_fail_object(struct rcl_result *res, const struct rcl_error *err, const char *key,
                            const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* rcl_reply_status() - the first failure's status, or RCL_OK. */
enum rcl_status rcl_reply_status(const struct rcl_reply *reply);

/* ------------------------------------------------------------------------
 * The object model.
 */

/* Physical drive states, as StorCLI abbreviates them in its tables. */
enum rcl_pd_state {
	RCL_PD_UGOOD,   /* unconfigured good */
	RCL_PD_UBAD,    /* unconfigured bad; a failed member, with its dg */
	RCL_PD_ONLINE,  /* member of a disk group */
	RCL_PD_OFFLINE, /* member, taken offline */
	RCL_PD_MISSING, /* its backing store cannot be found, or marked missing */
	RCL_PD_GHS,     /* global hot spare */
	RCL_PD_DHS,     /* dedicated hot spare */
	RCL_PD_REBUILD, /* being rebuilt */
	RCL_PD_JBOD,    /* exposed directly to the host */
};

/* rcl_pd_state_abbrev() - "UGood", "Onln", ... as in PD LIST. */
const char *rcl_pd_state_abbrev(enum rcl_pd_state state);

/* What a drive is, as far as the controller can tell. */
enum rcl_drive_kind {
	RCL_DRIVE_IMAGE, /* a regular file holding a drive image */
	RCL_DRIVE_BLOCK, /* a block device */
};

/* The most backend attributes a drive, a VD carries (their @attrs). */
#define RCL_DRIVE_ATTRS 4
#define RCL_VD_ATTRS    2

/* One backend attribute of a drive: "NVMe Namespace Id" = "1". */
struct rcl_attr {
	char key[32];
	char value[128];
};

/**
 * struct rcl_drive - one slot's drive. Strings are NUL-terminated and
 * never NULL; sizes are in bytes.
 * @enclosure:	enclosure id (252 for a soft controller's virtual backplane).
 * @slot:	slot number inside the enclosure.
 * @device_id:	the controller's device id ("DID"), unique per controller.
 * @raw_bytes:	capacity as the backing store reports it.
 * @coerced_bytes: capacity the controller uses (rounded down to 1 MiB).
 * @present:	false when the backing store has vanished; sizes are 0.
 * @interface:	"NVMe", "SATA", "Block" (another block device), or "File".
 * @medium:	"HDD", "SSD", or "Unknown" when the backing store hides it.
 * @path:	the backing file or device (soft controllers), else "".
 * @locate:	its slot's locate LED is on ("start locate").
 * @dg:		the disk group it belongs to (members, failed members (UBad)
 *		and dedicated spares), or -1.
 * @span, @row:	its place in the disk group (members only): span (array)
 *		index and position inside the span, as TOPOLOGY shows them.
 * @spare_dgs:	a dedicated spare's groups, a bit per group id (ids are
 *		below RCL_MAX_DGS, 32); 0 otherwise.
 * @spare_flags: a hot spare's RCL_SPARE_* flags.
 */
struct rcl_drive {
	unsigned enclosure;
	unsigned slot;
	unsigned device_id;
	enum rcl_pd_state state;
	int dg;
	unsigned span;
	unsigned row;
	uint32_t spare_dgs;
	unsigned spare_flags;
	enum rcl_drive_kind kind;
	bool present;
	uint64_t raw_bytes;
	uint64_t coerced_bytes;
	unsigned logical_sector;
	unsigned physical_sector;
	char serial[32];
	char wwn[40]; /* 16 hex digits (a NAA or EUI-64 name), or 32 (an NVMe NGUID) */
	char vendor[16];
	char model[48];
	char firmware[16];
	char interface[8];
	char medium[8];
	char path[4096];
	bool locate;
	bool foreign; /* carries a configuration another controller (or mdadm) wrote */
	/* Why the backend will not use it as it is ("" when it will): it shows UBad. */
	char unusable[96];
	/* What on the host uses it ("mounted on /srv", "" for nothing): destroying needs force. */
	char in_use[96];
	/*
	 * The task overwriting it, an enum rcl_task_kind (declared below):
	 * RCL_TASK_ERASE or DRIVE_INIT, or RCL_TASK_NONE. It is kept out of
	 * VDs, spares and JBOD until that ends or is stopped.
	 */
	int wiped_by;
	/*
	 * Health, as the drive reports it; 0 and "" where the backend cannot
	 * tell (a soft controller's image files).
	 * @media_errors, @other_errors, @predictive_failures: its counters.
	 * @temperature_c: degrees Celsius; 0: not reported.
	 * @smart_alert: its SMART status trips (NVMe: a critical warning).
	 * @device_speed, @link_speed: "12.0Gb/s", "16.0GT/s x4".
	 * @attrs:	@attr_count facts only its backend has (an NVMe namespace
	 *		id, an MFI device id, a Redfish URI), shown as they are.
	 */
	unsigned media_errors;
	unsigned other_errors;
	unsigned predictive_failures;
	unsigned temperature_c;
	bool smart_alert;
	char device_speed[16];
	char link_speed[16];
	/*
	 * What a card's firmware tells of the drive ("" and false where the
	 * backend has none: NA): @sas_address its first port's, "0x5000c500...";
	 * @sequence the firmware's count of changes to the drive's state, when
	 * @has_sequence; @last_pred_fail_seq the event of its last predictive
	 * failure (0: none).
	 */
	char sas_address[24];
	bool has_sequence;
	unsigned sequence;
	unsigned last_pred_fail_seq;
	struct rcl_attr attrs[RCL_DRIVE_ATTRS];
	size_t attr_count;
	/* Its standard SCSI INQUIRY data as the card holds it ("Inquiry Data"); 0: none. */
	uint8_t inquiry[96];
	size_t inquiry_len;
};

/**
 * struct rcl_enclosure - an enclosure (backplane) drives sit in.
 * @id:		the enclosure id ("EID"), as used in /cN/eID/sN paths.
 * @slots:	how many slots it has.
 * @product:	its product id ("Virtual" for a soft controller's backplane).
 */
struct rcl_enclosure {
	unsigned id;
	unsigned slots;
	char product[24];
};

/**
 * struct rcl_backup_info - what a card reports of the battery or CacheVault
 * that keeps its cache through a power loss (rcl_caps' @backup says which,
 * and whether there is one); "" and 0 for what it does not report.
 * @state:	StorCLI's word: "Optimal", "Degraded" (low voltage, too hot,
 *		its health gauge bad), "Failed" (the pack is missing).
 * @model:	the pack's device name ("iBBU08").
 * @mfg_date:	when it was made, "2019/07/06".
 */
struct rcl_backup_info {
	char state[16];
	char model[24];
	char mfg_date[16];
	unsigned temperature_c;
	unsigned voltage_mv;
	unsigned charge_pct; /* its relative charge */
};

/**
 * struct rcl_ctrl_info - what a controller says about itself. Strings are
 * never NULL; a backend leaves "" for what its hardware does not have, and
 * the CLI then omits the field rather than invent a value.
 */
struct rcl_ctrl_info {
	char model[64];
	char serial[32];
	char firmware[32];
	char driver_name[32];
	char driver_version[32];
	char host_interface[16];
	char device_interface[16];
	char backend[16]; /* "soft", "nvme", "megaraid", "redfish" */
	unsigned max_drives;
	time_t created;
	bool jbod; /* JBOD drives allowed ("Enable JBOD") */
	/* What a card reports of itself; empty or 0 where the kind has none. */
	char package[32];     /* firmware package ("Firmware Package Build"); "" = @firmware */
	char pci_address[16]; /* its PCI function, "0000:03:00.0" */
	uint16_t pci_vendor, pci_device, pci_subvendor, pci_subdevice;
	unsigned nvram_kib, flash_mib;
	unsigned ports; /* back-end ports; 0: @max_drives */
	/* What a card's firmware reports of its sensors, clock and cache backup. */
	unsigned roc_temperature_c; /* its RAID-on-chip processor; 0: not reported */
	time_t clock; /* its own clock when read; 0: it keeps the system's; RCL_CLOCK_NO_DATE */
	struct rcl_backup_info backup;
};

/* A card's clock that answered no date: shown "Unknown", set again with "set time=". */
#define RCL_CLOCK_NO_DATE ((time_t)-1)

struct rcl_ctx;
struct rcl_ctrl;

/**
 * rcl_ctx_new() - open the controller registry.
 * @state_dir:	where raidcli keeps its state; NULL means the default:
 *		$RAIDCLI_STATE_DIR, else /var/lib/raidcli for root, else
 *		$XDG_DATA_HOME/raidcli (~/.local/share/raidcli).
 * The directory is created on first use (mode 0700).
 * Return: RCL_OK and *@out, RCL_CORRUPT if the registry file is damaged
 * (the message names the file), RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctx_new(struct rcl_ctx **out, const char *state_dir, struct rcl_error *err);
/*
 * rcl_ctx_open() - rcl_ctx_new() on a state directory that must exist: a
 * long-lived process uses it, so that one whose directory was deleted does
 * not create it again, empty. Return: rcl_ctx_new()'s, RCL_NOT_FOUND when
 * the directory does not exist.
 */
enum rcl_status rcl_ctx_open(struct rcl_ctx **out, const char *state_dir, struct rcl_error *err);
void rcl_ctx_free(struct rcl_ctx *ctx);
/* rcl_ctx_state_dir() - the state directory in use (borrowed). */
const char *rcl_ctx_state_dir(const struct rcl_ctx *ctx);

/**
 * rcl_askpass_fn - asks the person at the terminal for a password that a
 * controller's state says to ask for (a BMC added with neither a password
 * file nor a variable), rather than keep it anywhere.
 * @arg:	rcl_ctx_set_askpass()'s @arg.
 * @user:	the account.
 * @realm:	what the password opens, for the question and as the key of
 *		any answer kept: a BMC's URL, or "the BMCs in FILE".
 * @buf:	out: the password, NUL-terminated, at most @size - 1 bytes.
 * Return: true; false with @err saying why there is no answer (no
 * terminal, the question interrupted).
 */
typedef bool (*rcl_askpass_fn)(void *arg, const char *user, const char *realm, char *buf,
                               size_t size, struct rcl_error *err);
/*
 * rcl_ctx_set_askpass() - how @ctx asks for a password: @fn(@arg, ...).
 * Without one (the default, as in a daemon), asking fails.
 */
void rcl_ctx_set_askpass(struct rcl_ctx *ctx, rcl_askpass_fn fn, void *arg);

/**
 * rcl_ctx_prefetch() - before opening the @count controllers @ids one after
 * the other to read them, let the kinds whose controllers are remote (a
 * BMC's) read them all at once, concurrently: the opens then take what
 * was read (or a controller's own failure, such as its BMC not
 * answering), so a command over a thousand BMCs waits about as long as
 * for the slowest. What was read is kept until rcl_ctx_free(). Never
 * fails: a controller not read here is read when it is opened.
 */
void rcl_ctx_prefetch(struct rcl_ctx *ctx, const unsigned *ids, size_t count);

/**
 * rcl_ctx_ctrl_host() - the host that serves controller @id, for a kind
 * whose controllers are remote ("bmc.example:443", a BMC's), into @out
 * (@size bytes), without opening the controller: a result names it
 * beside the controller's number, also when the host does not answer.
 * Return: false (and "") for a local controller, or one not found.
 */
bool rcl_ctx_ctrl_host(const struct rcl_ctx *ctx, unsigned id, char *out, size_t size);

/**
 * rcl_ctx_ctrl_ids() - the numbers of all controllers, ascending.
 * Return: the count; *@ids (borrowed) holds them.
 */
size_t rcl_ctx_ctrl_ids(const struct rcl_ctx *ctx, const unsigned **ids);

enum rcl_lock {
	RCL_LOCK_SHARED,    /* reading: other readers may run alongside */
	RCL_LOCK_EXCLUSIVE, /* changing: waits for every other user */
	/*
	 * reading one controller while holding another's lock: waits at most
	 * RCL_LOCK_NESTED_WAIT_MS, then RCL_BUSY. Two commands that each hold
	 * one and want the other's would otherwise wait for each other forever
	 * (flock() detects no deadlock); this way both refuse, nothing changed.
	 */
	RCL_LOCK_SHARED_NESTED,
};
#define RCL_LOCK_NESTED_WAIT_MS 5000

/**
 * rcl_ctrl_open() - load controller @id under a lock held until
 * rcl_ctrl_close(). Waits for the lock (other raidcli processes finish
 * their change first).
 * Return: RCL_OK, RCL_NOT_FOUND, RCL_CORRUPT (damaged state, file named),
 * RCL_SYSTEM, RCL_NOMEM; RCL_BUSY (RCL_LOCK_SHARED_NESTED only).
 */
enum rcl_status rcl_ctrl_open(struct rcl_ctx *ctx, unsigned id, enum rcl_lock lock,
                              struct rcl_ctrl **out, struct rcl_error *err);
void rcl_ctrl_close(struct rcl_ctrl *ctrl);

unsigned rcl_ctrl_id(const struct rcl_ctrl *ctrl);
const struct rcl_ctrl_info *rcl_ctrl_info(const struct rcl_ctrl *ctrl);

/**
 * rcl_ctrl_set_time() - set @ctrl's own clock to @t (StorCLI's "set
 * time="); @system: @t is the system's time now ("time=systemtime"). A
 * controller that keeps no clock of its own (its info's @clock is 0)
 * takes only @system, which already holds.
 * Requires an exclusive lock.
 * Return: RCL_OK; RCL_UNSUPPORTED (another time on a controller without
 * a clock); the firmware's refusal; RCL_SYSTEM.
 */
/**
 * rcl_ctrl_backup_learn() - start a learn cycle of the battery or
 * CacheVault that backs @ctrl's cache (StorCLI's "/cx/bbu start learn",
 * "/cx/cv start learn"): the module is discharged and charged again to
 * measure what it holds. Requires an exclusive lock.
 * Return: RCL_OK; RCL_HW_MISSING (the controller has none); the
 * firmware's refusal (RCL_NOT_ALLOWED: not in a state to learn; RCL_SYSTEM
 * for the others, NO_HW_PRESENT among them).
 */
enum rcl_status rcl_ctrl_backup_learn(struct rcl_ctrl *ctrl, struct rcl_error *err);

/* StorCLI's bounds of a battery's properties: a delay of a week at most, modes 0 to these. */
#define RCL_BACKUP_LEARN_DELAY_MAX_H 168
#define RCL_BACKUP_AUTO_LEARN_MAX    2
#define RCL_BACKUP_BBU_MODE_MAX      6

/**
 * struct rcl_backup_props - when a battery learns (StorCLI's "/cx/bbu
 * show properties", what "/cx/bbu set" changes).
 * @learn_period_s:	seconds between two automatic learn cycles (the
 *			firmware's; read only).
 * @next_learn:	when the next one starts (UTC); 0: none scheduled.
 * @learn_delay_h:	hours the next one is put off (0 to
 *			RCL_BACKUP_LEARN_DELAY_MAX_H).
 * @auto_learn_mode:	0 the card learns when due, 1 never by itself, 2 it
 *			only warns with an event that one is due.
 * @bbu_mode:	the pack's mode of charging and retention (0 to
 *		RCL_BACKUP_BBU_MODE_MAX, as StorCLI's "bbuMode=").
 */
struct rcl_backup_props {
	unsigned learn_period_s;
	time_t next_learn;
	unsigned learn_delay_h;
	unsigned auto_learn_mode;
	unsigned bbu_mode;
};

/* What rcl_ctrl_backup_set_props() changes: bits of @which. */
enum rcl_backup_prop {
	RCL_BACKUP_PROP_LEARN_DELAY = 1u << 0,
	RCL_BACKUP_PROP_AUTO_LEARN = 1u << 1,
	RCL_BACKUP_PROP_BBU_MODE = 1u << 2,
};

/**
 * rcl_ctrl_backup_props() - the learn schedule of @ctrl's battery into @out.
 * Return: RCL_OK; RCL_HW_MISSING (the controller has no battery);
 * RCL_UNSUPPORTED (a kind that keeps none); the firmware's refusal.
 */
enum rcl_status rcl_ctrl_backup_props(struct rcl_ctrl *ctrl, struct rcl_backup_props *out,
                                      struct rcl_error *err);

/**
 * rcl_ctrl_backup_set_props() - change the fields @which (enum
 * rcl_backup_prop bits) of @ctrl's battery properties to @p's, the others
 * as the card holds them. Requires an exclusive lock.
 * Return: as rcl_ctrl_backup_props(); RCL_INVALID_PARAM (a value out of
 * range, @which empty).
 */
enum rcl_status rcl_ctrl_backup_set_props(struct rcl_ctrl *ctrl, const struct rcl_backup_props *p,
                                          unsigned which, struct rcl_error *err);

enum rcl_status rcl_ctrl_set_time(struct rcl_ctrl *ctrl, time_t t, bool system,
                                  struct rcl_error *err);
/* Enclosures, by id. */
size_t rcl_ctrl_enclosure_count(const struct rcl_ctrl *ctrl);
const struct rcl_enclosure *rcl_ctrl_enclosure(const struct rcl_ctrl *ctrl, size_t index);
/* Drives in slot order. */
size_t rcl_ctrl_drive_count(const struct rcl_ctrl *ctrl);
const struct rcl_drive *rcl_ctrl_drive(const struct rcl_ctrl *ctrl, size_t index);

/* What rcl_ctrl_drive_detail() adds. */
enum rcl_drive_detail {
	RCL_DETAIL_ALL,   /* everything the drive can tell ("show all") */
	RCL_DETAIL_SMART, /* its SMART/health log only ("show smart") */
};

/**
 * rcl_ctrl_drive_detail() - what only @drive's backend can tell about it
 * (an NVMe drive's identify data, namespaces and LBA formats, SMART/health,
 * error and firmware slot logs), asked of the drive now, as sections of
 * @out whose keys start with @prefix ("Drive /c0/e252/s0"), as StorCLI
 * names a drive's sections. A kind with nothing more adds nothing for
 * RCL_DETAIL_ALL.
 * Return: RCL_OK; RCL_UNSUPPORTED (RCL_DETAIL_SMART of a kind without
 * health logs); RCL_NOT_FOUND (the drive is missing); RCL_SYSTEM (the
 * drive cannot be asked, or answered an error: named in the message);
 * RCL_NOMEM. @out may hold some sections on failure.
 */
enum rcl_status rcl_ctrl_drive_detail(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                                      enum rcl_drive_detail what, const char *prefix,
                                      struct rcl_node *out, struct rcl_error *err);

/**
 * rcl_ctrl_add_drive() - put the file or block device at @path in the
 * first free slot. A block device that is mounted or opened exclusively
 * elsewhere is refused (RCL_BUSY), as is a path already in a slot of any
 * controller (RCL_EXISTS). Requires an exclusive lock.
 * Return: RCL_OK and *@slot, or the failure; nothing changes on failure.
 */
enum rcl_status rcl_ctrl_add_drive(struct rcl_ctrl *ctrl, const char *path, unsigned *slot,
                                   struct rcl_error *err);

/**
 * rcl_ctrl_check_remove_drive() - whether rcl_ctrl_remove_drive() of
 * @drive, with @force, goes on: an online member whose loss degrades its
 * group's VDs or takes them offline needs @force, as "set offline" does.
 * Return: RCL_OK; RCL_NEED_FORCE.
 */
enum rcl_status rcl_ctrl_check_remove_drive(const struct rcl_ctrl *ctrl,
                                            const struct rcl_drive *drive, bool force,
                                            struct rcl_error *err);

/**
 * rcl_ctrl_remove_drive() - empty the slot of @drive (a pointer obtained
 * from rcl_ctrl_drive()); the backing file is kept. Refused, with nothing
 * changed, as rcl_ctrl_check_remove_drive() refuses it. Requires an
 * exclusive lock.
 */
enum rcl_status rcl_ctrl_remove_drive(struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                                      bool force, struct rcl_error *err);

/* Flags for rcl_ctrl_delete(). */
enum {
	RCL_DELETE_IMAGES = 1 << 0, /* also delete image files raidcli created */
};

/**
 * rcl_ctrl_delete() - remove the controller from the registry and close
 * it (@ctrl is freed in every case). Image files are kept unless
 * RCL_DELETE_IMAGES is given. Its number becomes free for reuse.
 */
enum rcl_status rcl_ctrl_delete(struct rcl_ctrl *ctrl, unsigned flags, struct rcl_error *err);

/* ------------------------------------------------------------------------
 * Disk groups and virtual drives.
 *
 * A disk group (DG, /dN) is a set of drives arranged in spans of equal
 * size; every virtual drive (VD, /vN) on it has the group's RAID level and
 * takes a contiguous extent of each member. RAID10/50/60 stripe (RAID0)
 * over spans of RAID1/5/6, as on MegaRAID and PERC.
 */

/* Limits, at least those of a PERC H975i. */
#define RCL_MAX_VDS             64
#define RCL_MAX_DGS             32
#define RCL_MAX_VDS_PER_DG      8
#define RCL_MAX_HOT_SPARES      8
#define RCL_MAX_SPANS           8
#define RCL_MAX_DRIVES_PER_SPAN 32
#define RCL_VD_NAME_MAX         15 /* characters, as StorCLI allows */

enum rcl_raid_level {
	RCL_RAID0,
	RCL_RAID1,
	RCL_RAID5,
	RCL_RAID6,
	RCL_RAID10,
	RCL_RAID50,
	RCL_RAID60,
	RCL_RAID00, /* RAID0 over RAID0 spans */
};

/* rcl_raid_level_name() - "RAID5", as TYPE columns show it. */
const char *rcl_raid_level_name(enum rcl_raid_level level);
/**
 * rcl_raid_level_parse() - read a level as StorCLI accepts it: "raid5",
 * "RAID5", "r5" (case-insensitive). Return: RCL_OK or RCL_INVALID_PARAM.
 */
enum rcl_status rcl_raid_level_parse(const char *text, enum rcl_raid_level *level,
                                     struct rcl_error *err);

/**
 * rcl_raid_span_data_drives() - how many members' worth of capacity one
 * span of @level with @per_span drives gives the host (RAID5: per_span - 1).
 */
unsigned rcl_raid_span_data_drives(enum rcl_raid_level level, unsigned per_span);
/* rcl_raid_span_level() - the level of one span: RAID00/10/50/60 stripe over RAID0/1/5/6 spans. */
enum rcl_raid_level rcl_raid_span_level(enum rcl_raid_level level);

enum rcl_vd_state {
	RCL_VD_OPTIMAL,
	RCL_VD_PARTIALLY_DEGRADED, /* RAID6/60 that lost one drive of two it can lose */
	RCL_VD_DEGRADED,
	RCL_VD_OFFLINE, /* lost more than its redundancy */
};

/* rcl_vd_state_abbrev() - "Optl", "Pdgd", "Dgrd", "OfLn". */
const char *rcl_vd_state_abbrev(enum rcl_vd_state state);

enum rcl_write_policy {
	RCL_WRITE_THROUGH,     /* WT: acknowledged once on the members */
	RCL_WRITE_BACK,        /* WB: may be acknowledged from memory */
	RCL_WRITE_BACK_ALWAYS, /* AWB */
};
enum rcl_read_policy {
	RCL_READ_AHEAD,    /* RA */
	RCL_NO_READ_AHEAD, /* NoRA */
};
enum rcl_access_policy {
	RCL_ACCESS_RW,
	RCL_ACCESS_RO,
	RCL_ACCESS_BLOCKED,
	RCL_ACCESS_REMOVED_BLOCKED, /* RmvBlkd: blocked, and withdrawn from the host */
};
/* The members' own write caches ("pdcache"): left as the drives have them, or set. */
enum rcl_disk_cache_policy {
	RCL_DISK_CACHE_DEFAULT, /* the drives' own setting */
	RCL_DISK_CACHE_ON,
	RCL_DISK_CACHE_OFF, /* a member write is durable before it completes */
};
/* Whether reads may be served from the controller's cache ("iopolicy"). */
enum rcl_io_policy {
	RCL_IO_DIRECT,
	RCL_IO_CACHED,
};

/*
 * The policies' names: "WT", "WB", "AWB"; "RA", "NoRA"; "RW", "RO",
 * "Blocked", "RmvBlkd"; "Default", "On", "Off"; "Direct", "Cached".
 */
const char *rcl_write_policy_name(enum rcl_write_policy policy);
const char *rcl_read_policy_name(enum rcl_read_policy policy);
const char *rcl_access_policy_name(enum rcl_access_policy policy);
const char *rcl_disk_cache_policy_name(enum rcl_disk_cache_policy policy);
const char *rcl_io_policy_name(enum rcl_io_policy policy);
/* Parsers for those names, case-insensitive. Return: RCL_OK or RCL_INVALID_PARAM. */
enum rcl_status rcl_write_policy_parse(const char *text, enum rcl_write_policy *policy,
                                       struct rcl_error *err);
enum rcl_status rcl_read_policy_parse(const char *text, enum rcl_read_policy *policy,
                                      struct rcl_error *err);
enum rcl_status rcl_access_policy_parse(const char *text, enum rcl_access_policy *policy,
                                        struct rcl_error *err);
enum rcl_status rcl_disk_cache_policy_parse(const char *text, enum rcl_disk_cache_policy *policy,
                                            struct rcl_error *err);
enum rcl_status rcl_io_policy_parse(const char *text, enum rcl_io_policy *policy,
                                    struct rcl_error *err);

/**
 * struct rcl_vd - one virtual drive.
 * @bytes:	the capacity the host sees.
 * @strip_kib:	strip (md chunk) size; 0 for RAID1.
 * @spans, @drives_per_span: its disk group's shape.
 * @uuid:	the md array UUID (text form), as mdadm --examine prints it
 *		(for RAID50/60: the UUID of the top-level RAID0).
 * @consistent:	parity or mirrors are known to agree.
 * @autobgi:	a VD not consistent gets its background initialization by
 *		itself (StorCLI's autobgi, on unless set off).
 * @attrs:	@attr_count facts only its backend has (a Redfish URI),
 *		shown as they are in its properties.
 */
struct rcl_vd {
	unsigned id;
	unsigned dg;
	enum rcl_raid_level level;
	enum rcl_vd_state state;
	char name[RCL_VD_NAME_MAX + 1];
	uint64_t bytes;
	unsigned strip_kib;
	unsigned spans;
	unsigned drives_per_span;
	enum rcl_write_policy write;
	enum rcl_read_policy read;
	enum rcl_access_policy access;
	enum rcl_disk_cache_policy disk_cache;
	enum rcl_io_policy io;
	bool consistent;
	bool autobgi;
	char uuid[40];
	time_t created;
	struct rcl_attr attrs[RCL_VD_ATTRS];
	size_t attr_count;
};

/**
 * struct rcl_dg - one disk group.
 * @member_bytes: capacity of each member the group can use (the smallest
 *		member's, less metadata).
 * @free_bytes: what a new VD on this group can still get (host capacity):
 *		its largest free extent.
 * @free_extents: each free extent's host capacity, in order on the
 *		members (the holes deleted VDs left, then the end); a kind that
 *		leaves @free_extent_count 0 has @free_bytes as its one extent.
 * @state:	the worst state of its VDs.
 * @span_states: each span's own state (its array's, as TOPOLOGY's span
 *		rows show it); @state is the worst of them.
 */
struct rcl_dg {
	unsigned id;
	enum rcl_raid_level level;
	enum rcl_vd_state state;
	unsigned spans;
	unsigned drives_per_span;
	unsigned vd_count;
	uint64_t member_bytes;
	uint64_t free_bytes;
	uint64_t free_extents[RCL_MAX_VDS_PER_DG + 1];
	unsigned free_extent_count;
	enum rcl_vd_state span_states[RCL_MAX_SPANS];
};

size_t rcl_ctrl_dg_count(const struct rcl_ctrl *ctrl);
const struct rcl_dg *rcl_ctrl_dg(const struct rcl_ctrl *ctrl, size_t index);
size_t rcl_ctrl_vd_count(const struct rcl_ctrl *ctrl);
const struct rcl_vd *rcl_ctrl_vd(const struct rcl_ctrl *ctrl, size_t index);

/* rcl_ctrl_dg_by_id(), rcl_ctrl_vd_by_id() - the group or VD with id @id (/dN, /vN), or NULL. */
const struct rcl_dg *rcl_ctrl_dg_by_id(const struct rcl_ctrl *ctrl, unsigned id);
const struct rcl_vd *rcl_ctrl_vd_by_id(const struct rcl_ctrl *ctrl, unsigned id);

/* A drive named by enclosure and slot, as in drives=252:0-3. */
struct rcl_drive_ref {
	unsigned enclosure;
	unsigned slot;
};

/**
 * struct rcl_vd_params - a new virtual drive, as "add vd" describes it.
 * @drives:	the members, in order (span by span).
 * @drives_per_span: "pdperarray"; 0 picks the level's default (all drives
 *		in one span for RAID0/1/5/6, 2 for RAID10).
 * @bytes:	capacity; 0 means all the group's free space.
 * @strip_kib:	0 means 64.
 * @disk_cache, @io: "pdcache=", "direct|cached" (0: Default, Direct).
 * @spares:	drives to make dedicated hot spares of the new group.
 * @force:	create even if a member holds data (a file system signature).
 */
struct rcl_vd_params {
	enum rcl_raid_level level;
	const struct rcl_drive_ref *drives;
	size_t drive_count;
	unsigned drives_per_span;
	uint64_t bytes;
	const char *name;
	unsigned strip_kib;
	enum rcl_write_policy write;
	enum rcl_read_policy read;
	enum rcl_disk_cache_policy disk_cache;
	enum rcl_io_policy io;
	const struct rcl_drive_ref *spares;
	size_t spare_count;
	bool force;
};

/**
 * rcl_vd_params_check() - the rules every controller applies before
 * creating a VD: no drive twice, drive counts that fit the level (RAID1:
 * 2 per span; RAID5: 3 or more; RAID6: 4 or more; RAID10/50/60: spans of
 * equal size, at least 2 spans, drives_per_span dividing the count), a
 * strip that is a power of two from 8 to 1024 KiB, a name of at most 15
 * printable characters. Fills the defaults into @params (drives_per_span,
 * strip_kib). Return: RCL_OK, or RCL_INVALID_PARAM with the rule broken.
 */
enum rcl_status rcl_vd_params_check(struct rcl_vd_params *params, struct rcl_error *err);

/**
 * rcl_ctrl_create_vd() - create a virtual drive (checking @params first).
 * Drives that are all unconfigured make a new disk group; drives that are
 * exactly an existing group's members add a VD in its free space. Requires
 * an exclusive lock. Return: RCL_OK and *@vd; nothing changes on failure.
 */
enum rcl_status rcl_ctrl_create_vd(struct rcl_ctrl *ctrl, struct rcl_vd_params *params,
                                   unsigned *vd, struct rcl_error *err);

/**
 * rcl_ctrl_delete_vd() - delete virtual drive @vd; its group goes with its
 * last VD and the members become unconfigured. Without @force a VD whose
 * data holds a file system or partition table signature is refused
 * (RCL_NEED_FORCE). Requires an exclusive lock.
 */
enum rcl_status rcl_ctrl_delete_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                   struct rcl_error *err);

/*
 * How a hot spare serves ("add hotsparedrive" words), struct rcl_drive's
 * @spare_flags.
 */
enum {
	RCL_SPARE_ENCL_AFFINITY =
	    1 << 0, /* enclaffinity: replaces drives of its own enclosure only */
	RCL_SPARE_NONREVERTIBLE = 1 << 1, /* nonrevertible: stays a member, no copyback */
};

/**
 * rcl_ctrl_delete_config() - delete every virtual drive of @ctrl, with
 * their groups and the hot spares dedicated to them ("delete config"), in
 * one change: all go or none does. Without @force, refuse (RCL_NEED_FORCE,
 * naming the VD) while a VD is exported or holds what rcl_ctrl_delete_vd()
 * wants force for; with @force, exports stop first. Global hot spares stay.
 * One event per VD deleted. Requires an exclusive lock.
 * Return: RCL_OK and the VDs deleted in *@count (0: there were none);
 * RCL_NEED_FORCE; RCL_NOT_ALLOWED (a migration runs); RCL_UNSUPPORTED;
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_delete_config(struct rcl_ctrl *ctrl, bool force, size_t *count,
                                       struct rcl_error *err);

/**
 * struct rcl_vd_expansion - how far a VD can grow ("show expansion").
 * @bytes:	its capacity now.
 * @grow:	the most "expand" can add: the free space its group has
 *		right after it on every member.
 * @grow_array:	the same with "expandarray": the group grown first to the
 *		end of its smallest member (drives replaced by larger ones).
 * @limit:	what stops @grow_array: "/v2" (the VD right after it),
 *		"drive 252:3" (the member that ends first), or "" (nothing can
 *		grow: the level or the VD's state rules it out, @why says).
 * @why:	when the VD cannot grow at all, why not ("" else).
 */
struct rcl_vd_expansion {
	uint64_t bytes;
	uint64_t grow;
	uint64_t grow_array;
	char limit[32];
	char why[160];
};

/**
 * rcl_ctrl_vd_expansion() - how far VD @vd can grow, into *@out (zeroed
 * first). Return: RCL_OK; RCL_NOT_FOUND; RCL_UNSUPPORTED; RCL_SYSTEM,
 * RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_vd_expansion(struct rcl_ctrl *ctrl, unsigned vd,
                                      struct rcl_vd_expansion *out, struct rcl_error *err);

/**
 * rcl_ctrl_expand_vd() - grow VD @vd by @bytes (rounded up to what its
 * layout allocates) into the free space right after it on every member of
 * its group; with @expand_array the group first grows to the end of its
 * smallest member. Its data stays where it is. A redundant VD is no longer
 * consistent after: its parity or copies over the new space are made to
 * agree by a background initialization. Refused while it is exported (an
 * NBD client keeps the size it connected with). *@before says how far it
 * could grow before. One event. Requires an exclusive lock.
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_INVALID_PARAM (@bytes 0);
 * RCL_NOT_ALLOWED (more than it can grow, naming what limits it; exported;
 * a task under way on it; it cannot grow at all, saying why);
 * RCL_UNSUPPORTED; RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_expand_vd(struct rcl_ctrl *ctrl, unsigned vd, uint64_t bytes,
                                   bool expand_array, struct rcl_vd_expansion *before,
                                   struct rcl_error *err);

/**
 * rcl_ctrl_create_vd_each() - "add vd each": one RAID0 VD per unconfigured
 * good drive, each its own group, with @params' options (its @drives, when
 * it lists any, choose among the drives; else every unconfigured good drive
 * that is usable). The VDs' ids go to @ids (room for RCL_MAX_VDS), their
 * number to *@count. The drives are checked all before the first VD is
 * made; a failure of the backend after that leaves the VDs made before it
 * (*@count says how many, the message names them).
 * Requires an exclusive lock.
 * Return: RCL_OK; RCL_INVALID_PARAM (a level other than RAID0, members per
 * span, spares); RCL_NOT_FOUND (no unconfigured good drive); as
 * rcl_ctrl_create_vd().
 */
enum rcl_status rcl_ctrl_create_vd_each(struct rcl_ctrl *ctrl, const struct rcl_vd_params *params,
                                        unsigned *ids, size_t *count, struct rcl_error *err);

/**
 * rcl_ctrl_add_hotspare() - make unconfigured good drive @ref a hot spare,
 * recorded in the controller's configuration so that it stays one when the
 * drives move: a global one (state GHS) when @dg_count is 0, else one
 * dedicated to the disk groups @dgs (state DHS, its dg the first group's), serving as @flags
 * (RCL_SPARE_*) say. Without @force a drive
 * holding a file system or partition table is refused (RCL_NEED_FORCE). Requires an exclusive lock.
 * Return: RCL_OK; RCL_NOT_FOUND (no such drive or group); RCL_NOT_ALLOWED (missing, foreign, not
 * unconfigured good, RCL_MAX_HOT_SPARES spares already, a RAID0 group); RCL_INVALID_PARAM (a group
 * named twice); RCL_DRIVE_TOO_SMALL (it cannot stand in for a member of every group it serves);
 * RCL_UNSUPPORTED; RCL_SYSTEM, RCL_NOMEM. Nothing changes on failure.
 */
enum rcl_status rcl_ctrl_add_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const unsigned *dgs, size_t dg_count, unsigned flags,
                                      bool force, struct rcl_error *err);

/**
 * rcl_ctrl_delete_hotspare() - make hot spare @ref (global or dedicated)
 * unconfigured good again. Requires an exclusive lock. Return: RCL_OK; RCL_NOT_FOUND;
 * RCL_NOT_ALLOWED (not a hot spare); RCL_UNSUPPORTED; RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_delete_hotspare(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_error *err);

/**
 * rcl_ctrl_set_locate() - turn the locate LED of drive @ref's slot on or
 * off. A software controller has no LED: it records the setting with the
 * slot in its state file (the LED belongs to the slot, whatever drive is
 * in it), and rcl_drive.locate shows it. Requires an exclusive lock.
 * Return: RCL_OK; RCL_NOT_FOUND (no drive in that slot); RCL_UNSUPPORTED;
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_set_locate(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref, bool on,
                                    struct rcl_error *err);

/**
 * rcl_ctrl_set_jbod_mode() - allow JBOD drives (@on) or not. Turning it
 * off while a drive is JBOD is refused (RCL_NOT_ALLOWED). Requires an
 * exclusive lock. Return: RCL_OK; RCL_NOT_ALLOWED; RCL_UNSUPPORTED;
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_set_jbod_mode(struct rcl_ctrl *ctrl, bool on, struct rcl_error *err);

/**
 * rcl_ctrl_set_drive_jbod() - expose unconfigured good drive @ref to the
 * host as it is (@on: state JBOD, only while the controller's JBOD mode is
 * on), or make a JBOD drive unconfigured good again (!@on, "set good").
 * A soft controller records it with the slot in its state file; the
 * drive's data is not touched either way. A kind that cannot look whether
 * the host uses the disk (a card) refuses !@on: rcl_ctrl_set_drive_state()
 * GOOD with force does it. Requires an exclusive lock.
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_NOT_ALLOWED (JBOD mode off, not
 * UGood, or for !@on not JBOD); RCL_NEED_FORCE; RCL_UNSUPPORTED;
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_set_drive_jbod(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                        bool on, struct rcl_error *err);

/*
 * A change of a drive's state: StorCLI's "set online|offline|missing|good",
 * and RCL_DRIVE_SET_FAILED, which no command line reaches: the process
 * serving a soft controller's VDs reports with it that a member failed an
 * I/O.
 */
enum rcl_drive_change {
	RCL_DRIVE_SET_ONLINE,  /* Offln (or UBad, force) -> Onln: the member is used again */
	RCL_DRIVE_SET_OFFLINE, /* Onln -> Offln: no I/O to it, its role kept */
	RCL_DRIVE_SET_MISSING, /* Offln -> its role Msng, the drive UGood */
	RCL_DRIVE_SET_GOOD,    /* JBOD or UBad -> UGood */
	RCL_DRIVE_SET_FAILED,  /* Onln or Rbld -> UBad, its role kept */
};

/* rcl_drive_change_name() - "online", "offline", "missing", "good", "failed". */
const char *rcl_drive_change_name(enum rcl_drive_change change);

/**
 * rcl_ctrl_set_drive_state() - change the state of drive @ref, with
 * StorCLI's rules:
 *  - ONLINE takes an Offln member; its data is used again as it is (no
 *    rebuild), as StorCLI's "set online" does. With @force it also takes
 *    a failed (UBad) member still in its group: rebuilt from the others
 *    (Rbld) while its VDs hold all their data without it, else taken back
 *    as it is (mdadm --assemble --force): the way back from a transient
 *    error, without wiping. RCL_NEED_FORCE without @force.
 *  - OFFLINE takes an Onln member of a redundant group; one whose loss
 *    would take a VD offline (any RAID0 member, a second RAID1 mirror, a
 *    third RAID6 drive) needs @force (RCL_NEED_FORCE without).
 *  - MISSING takes an Offln member: its place in the group waits for a
 *    replacement (TOPOLOGY shows Msng) and the drive leaves the group,
 *    unconfigured good.
 *  - GOOD makes a JBOD drive unconfigured good (rcl_ctrl_set_drive_jbod()),
 *    which takes the disk from the host: on a kind that cannot look
 *    whether the host uses it (a card), only with @force; or a UBad one: a failed member leaves its
 * group as MISSING does, which needs @force, as its data is lost to the group.
 *  - FAILED takes an Onln or Rbld member: it shows as UBad in its place,
 *    its VDs degraded; no @force, as the failure has happened.
 * A member's state is kept in the configuration; a soft controller also
 * marks it faulty (or active again) in the md superblocks of every other
 * member of its arrays, as md does when it kicks a device. Every change is
 * logged, with each VD whose state changes. Requires an exclusive lock.
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_NOT_ALLOWED (a missing drive, or not
 * in the state the change takes); RCL_NEED_FORCE; RCL_UNSUPPORTED;
 * RCL_SYSTEM, RCL_NOMEM. Nothing changes on failure.
 */
enum rcl_status rcl_ctrl_set_drive_state(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         enum rcl_drive_change change, bool force,
                                         struct rcl_error *err);

/**
 * rcl_ctrl_insert_drive() - put unconfigured good drive @ref in the
 * missing row @row of array (span) @array of drive group @dg (StorCLI's
 * "insert dg= array= row="): it joins offline; a rebuild is started
 * apart. Requires an exclusive lock.
 * Return: RCL_OK; RCL_NOT_FOUND (no such drive or group); RCL_NOT_ALLOWED
 * (the drive not unconfigured good, or the row holds a drive);
 * RCL_INVALID_PARAM (no such array or row in the group);
 * RCL_DRIVE_TOO_SMALL (the drive is smaller than the group's members);
 * the firmware's refusal; RCL_UNSUPPORTED (caps without @inserts_drives).
 */
/* What refusals of an insert name: "... is not supported by this controller (soft)". */
#define RCL_INSERT_DRIVE_NAME "replacing a missing drive"

enum rcl_status rcl_ctrl_insert_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      unsigned dg, unsigned array, unsigned row,
                                      struct rcl_error *err);

/*
 * Device actions: what a drive does to itself on command (lib/device.c):
 * a format, a firmware download, a telemetry capture, its namespaces. Only
 * a kind that talks to the drive itself (nvme) does them; every other one
 * answers "... is not supported by this controller (<kind>)". The library
 * checks first that the drive is there and that its state allows the
 * action: a destructive one (a format, a namespace's delete or detach)
 * refuses a member of a disk group or a hot spare, as StorCLI's erase
 * does, and needs @force.
 */

/* A format's secure erase setting: none, the user data, or the crypto key. */
enum rcl_format_ses {
	RCL_FORMAT_SES_NONE,
	RCL_FORMAT_SES_USER,
	RCL_FORMAT_SES_CRYPTO,
};

/**
 * struct rcl_format - one format of a drive.
 * @lbaf:	the drive's LBA format index (0-63), or -1 to pick by
 *		@block_size.
 * @block_size:	with @lbaf -1: 512 or 4096, the logical block size of the
 *		format to use (the backend picks the drive's format of that
 *		size without metadata).
 * @nsid:	the namespace to format (NVMe), 0 for the drive's only one.
 * @ses:	the secure erase setting.
 * @force:	confirm that every block of the drive is lost.
 */
struct rcl_format {
	int lbaf;
	unsigned block_size;
	uint32_t nsid;
	enum rcl_format_ses ses;
	bool force;
};

/**
 * rcl_ctrl_format_drive() - format drive @ref as @fmt says. Requires an
 * exclusive lock. Return: RCL_OK; RCL_NOT_FOUND; RCL_NOT_ALLOWED (a
 * missing drive, a member of a disk group, a hot spare); RCL_NEED_FORCE;
 * RCL_INVALID_PARAM (@lbaf or @block_size out of range, or a format the
 * drive lacks); RCL_UNSUPPORTED; RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_format_drive(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                      const struct rcl_format *fmt, struct rcl_error *err);

/* What a firmware download does once the image is on the drive (NVMe's commit actions). */
enum rcl_fw_action {
	RCL_FW_REPLACE,      /* store it in the slot; it runs after the next reset */
	RCL_FW_ACTIVATE,     /* store it and make it the one to run after the next reset */
	RCL_FW_ACTIVATE_NOW, /* store it and run it now, without a reset */
};

/**
 * struct rcl_fw_download - a firmware image for a drive.
 * @path:	the image file.
 * @slot:	the drive's firmware slot (1-7), 0: the drive chooses.
 * @action:	as above.
 */
struct rcl_fw_download {
	const char *path;
	unsigned slot;
	enum rcl_fw_action action;
};

/**
 * rcl_ctrl_download_drive_fw() - send firmware image @fw to drive @ref and
 * commit it; *@needs_reset tells whether the drive runs it only after a
 * reset. Requires an exclusive lock. Return: RCL_OK; RCL_NOT_FOUND (no
 * drive, no image file); RCL_NOT_ALLOWED (a missing drive);
 * RCL_INVALID_PARAM (@slot over 7, an empty path, an image or slot the
 * drive refuses); RCL_UNSUPPORTED; RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_download_drive_fw(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                           const struct rcl_fw_download *fw, bool *needs_reset,
                                           struct rcl_error *err);

/**
 * rcl_ctrl_drive_telemetry() - have drive @ref capture its telemetry and
 * write it to the new file @path: its data areas up to @area (1-4; 0:
 * 3, the whole capture). *@bytes: the size written. Return: RCL_OK;
 * RCL_NOT_FOUND; RCL_NOT_ALLOWED (a missing drive); RCL_INVALID_PARAM (an
 * empty path, @area over 4); RCL_EXISTS (@path exists); RCL_UNSUPPORTED;
 * RCL_CORRUPT; RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_drive_telemetry(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         const char *path, unsigned area, uint64_t *bytes,
                                         struct rcl_error *err);

/* What rcl_ctrl_drive_namespace() does. */
enum rcl_ns_action {
	RCL_NS_ATTACH, /* attach namespace @nsid to the drive's controller */
	RCL_NS_DETACH, /* detach it: its block device goes away */
	RCL_NS_CREATE, /* create one of @bytes, in LBA format @lbaf; unattached */
	RCL_NS_DELETE, /* delete namespace @nsid and its data */
};

/**
 * struct rcl_ns_request - one namespace change on a drive.
 * @action:	as above.
 * @nsid:	the namespace (1 or more); CREATE: its new id, on return.
 * @bytes:	CREATE: its size, a whole number of the format's blocks.
 * @lbaf:	CREATE: the LBA format index (0-63).
 * @force:	DETACH, DELETE: confirm that its data goes away.
 */
struct rcl_ns_request {
	enum rcl_ns_action action;
	uint32_t nsid;
	uint64_t bytes;
	unsigned lbaf;
	bool force;
};

/**
 * rcl_ctrl_drive_namespace() - @req on drive @ref's namespaces. Requires
 * an exclusive lock. Return: RCL_OK; RCL_NOT_FOUND (no drive or
 * namespace); RCL_NOT_ALLOWED (a missing drive; DETACH, DELETE: a member
 * of a disk group, a hot spare); RCL_NEED_FORCE (DETACH, DELETE);
 * RCL_INVALID_PARAM (nsid 0; CREATE: 0 bytes, @lbaf over 63);
 * RCL_UNSUPPORTED; RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_drive_namespace(struct rcl_ctrl *ctrl, const struct rcl_drive_ref *ref,
                                         struct rcl_ns_request *req, struct rcl_error *err);

/**
 * struct rcl_vd_props - properties to change; a NULL or negative field is
 * left as it is. Start from rcl_vd_props_keep(), which leaves every one,
 * and set those to change: a field an initializer forgets would be 0, a
 * real value.
 */
struct rcl_vd_props {
	const char *name;
	int write;      /* enum rcl_write_policy, or -1 */
	int read;       /* enum rcl_read_policy, or -1 */
	int access;     /* enum rcl_access_policy, or -1 */
	int disk_cache; /* enum rcl_disk_cache_policy, or -1 */
	int io;         /* enum rcl_io_policy, or -1 */
	int autobgi;    /* 1 on, 0 off, or -1 */
};

/* rcl_vd_props_keep() - properties that change nothing. */
struct rcl_vd_props rcl_vd_props_keep(void);

enum rcl_status rcl_ctrl_set_vd(struct rcl_ctrl *ctrl, unsigned vd,
                                const struct rcl_vd_props *props, struct rcl_error *err);

/* The most slots a soft controller has ("add controller type=soft drives="). */
#define RCL_SOFT_MAX_DRIVES 240

/**
 * rcl_mkdir_p() - create directory @path and its missing parents with
 * @mode (existing ones are left as they are).
 * Return: RCL_OK, RCL_SYSTEM naming the directory that could not be made.
 */
enum rcl_status rcl_mkdir_p(const char *path, unsigned mode, struct rcl_error *err);

/**
 * rcl_mkdir_in() - create directory @sub (relative, may hold '/') and its
 * missing parents inside @base, which must exist: a process whose state
 * directory was deleted must not create it again, empty, while it stops.
 * Return: RCL_OK, RCL_SYSTEM naming the directory that could not be made
 * (ENOENT when @base is gone).
 */
enum rcl_status rcl_mkdir_in(const char *base, const char *sub, unsigned mode,
                             struct rcl_error *err);

/* ------------------------------------------------------------------------
 * Controller kinds and what each can do.
 *
 * Every controller belongs to a kind ("soft", later "nvme", "megaraid",
 * "redfish"), served by one backend (lib/backend.h). What a controller can
 * do is data, a struct rcl_caps, so that "show all", the checks before a
 * command runs and (later) help and completion read one record instead of
 * assuming the soft controller's answers.
 */

/* Background tasks, one kind for every backend. RCL_TASK_NONE: no task. */
enum rcl_task_kind {
	RCL_TASK_NONE,
	RCL_TASK_REBUILD,
	RCL_TASK_CC, /* consistency check */
	RCL_TASK_INIT,
	RCL_TASK_BGI, /* background initialization */
	RCL_TASK_PATROL_READ,
	RCL_TASK_MIGRATE,   /* level migration, capacity expansion */
	RCL_TASK_ERASE,     /* drive erase or sanitize */
	RCL_TASK_SELF_TEST, /* a drive's self-test */
	RCL_TASK_FW_UPDATE,
	RCL_TASK_VD_ERASE,   /* overwriting a VD's data */
	RCL_TASK_DRIVE_INIT, /* zeroing an unconfigured drive (StorCLI's drive initialization) */
	RCL_TASK_KIND_COUNT,
};

/* rcl_task_kind_name() - "consistency check", as refusals name a task. */
const char *rcl_task_kind_name(enum rcl_task_kind kind);

/* Settings a controller may offer: rates, priorities, schedules, policies. */
enum rcl_setting {
	RCL_SETTING_REBUILD_RATE,
	RCL_SETTING_CC_RATE,
	RCL_SETTING_BGI_RATE,
	RCL_SETTING_PR_RATE,
	RCL_SETTING_RECON_RATE,
	RCL_SETTING_REBUILD_PRIORITY,
	RCL_SETTING_CC_SCHEDULE,
	RCL_SETTING_PR_SCHEDULE,
	RCL_SETTING_JBOD,
	RCL_SETTING_VD_POLICY,    /* a VD's write, read and access policy */
	RCL_SETTING_AUTO_REBUILD, /* hot spares rebuild without a command */
	RCL_SETTING_COUNT,
};

/* rcl_setting_name() - "patrol read rate", as refusals name a setting. */
const char *rcl_setting_name(enum rcl_setting setting);

/* What keeps a controller's cache safe through a power loss. */
enum rcl_cache_backup {
	RCL_BACKUP_NONE,
	RCL_BACKUP_BBU,
	RCL_BACKUP_CACHEVAULT,
};

/*
 * Parts a controller may have, each the subject of a family of StorCLI
 * commands (/cx/bbu, /cx/px, show alarm, ...): a controller without the part
 * answers them with rcl_caps_check_part()'s refusal.
 */
enum rcl_part {
	RCL_PART_BBU,        /* a battery backup unit: /cx/bbu (@backup says) */
	RCL_PART_CACHEVAULT, /* a CacheVault: /cx/cv (@backup says) */
	RCL_PART_CACHE,      /* on-board cache memory: flushcache, preserved cache (@cache_mib) */
	RCL_PART_PHYS,       /* SAS/PCIe phys and lanes: /cx/px, /cx/lnx, phy error counters */
	RCL_PART_ALARM,      /* an audible alarm */
	RCL_PART_SENSORS,    /* temperature sensors */
	RCL_PART_ENCL_MGMT,  /* enclosure management: SES, SGPIO, backplane, activity LEDs */
	RCL_PART_POWER,      /* drive power management: spin up/down, DPM */
	RCL_PART_SECURITY,   /* drive security: SED keys, secure erase, sanitize, SPDM */
	RCL_PART_FLASH,      /* a flash ROM: firmware, BIOS, logs, snapdumps, VPD, NVSRAM */
	RCL_PART_FIRMWARE,   /* MegaRAID firmware options: NCQ, perfmode, CacheCade, PI, ... */
	RCL_PART_HEALTH,     /* drives' own health logs: show smart (rcl_ctrl_drive_detail()) */
	RCL_PART_COUNT,
};

/* What a drive does to itself on command (lib/device.c), one bit each in rcl_caps. */
enum rcl_drive_action {
	RCL_DRIVE_ACTION_NONE,
	RCL_DRIVE_ACTION_FORMAT,      /* rcl_ctrl_format_drive() */
	RCL_DRIVE_ACTION_FW_DOWNLOAD, /* rcl_ctrl_download_drive_fw() */
	RCL_DRIVE_ACTION_TELEMETRY,   /* rcl_ctrl_drive_telemetry() */
	RCL_DRIVE_ACTION_NAMESPACE,   /* rcl_ctrl_drive_namespace() */
	RCL_DRIVE_ACTION_COUNT,
};

/* rcl_drive_action_name() - "formatting a drive", as refusals name an action. */
const char *rcl_drive_action_name(enum rcl_drive_action action);

/* rcl_part_name() - "a battery backup unit", as refusals name a part. */
const char *rcl_part_name(enum rcl_part part);

/**
 * struct rcl_caps - what a controller can do. Plain data (no pointers), so
 * a backend can fill it from a static table or from a fixture file.
 * @kind:	the controller's kind, as refusals name it ("soft").
 * @drive_kinds: what its drives are, as "show all" lists them.
 * @levels:	bit (1u << level) per enum rcl_raid_level it creates.
 * @mirror_drives: drives in a RAID1 VD or a RAID10 span: a fixed count
 *		(md's near-2 layout: 2), or 0 for "2 or more".
 * @strip_min_kib, @strip_max_kib, @strip_default_kib: its strip sizes
 *		(powers of two), and the one "add vd" takes without strip=.
 * @max_spans, @max_drives_per_span, @max_dgs, @max_vds, @max_vds_per_dg:
 *		configuration limits, each at most the model's RCL_MAX_* (the
 *		CLI sizes its lists by those).
 * @tasks:	bit (1u << kind) per enum rcl_task_kind it runs.
 * @settings:	bit (1u << setting) per enum rcl_setting it offers.
 * @default_write, @default_read: the policies of a VD created without any.
 * @cache_mib:	on-board cache memory (0: none).
 * @backup:	what backs the cache up.
 * @emergency_spare: uses an unconfigured drive as a spare when none is left.
 * @needs_process: a raidcli controller process runs its tasks and exports
 *		(the soft controller's engine); a card runs them itself.
 * @exports:	serves its VDs to the network itself (NBD).
 * @adds_drives: takes a drive by its path ("add drive path="): the soft
 *		controller's image files and block devices; a card's drives
 *		come by being plugged in.
 * @inserts_drives: puts an unconfigured good drive in a group's missing
 *		row ("insert dg= array= row="): a card's firmware does; the
 *		soft engine rebuilds onto a drive without it.
 * @parts:	bit (1u << part) per enum rcl_part it has, but for the BBU,
 *		CacheVault and cache, which @backup and @cache_mib say.
 * @drive_actions: bit (1u << action) per enum rcl_drive_action its drives
 *		do; the others are refused before any work.
 */
struct rcl_caps {
	char kind[16];
	char drive_kinds[64];
	unsigned levels;
	unsigned mirror_drives;
	unsigned strip_min_kib, strip_max_kib, strip_default_kib;
	unsigned max_spans, max_drives_per_span;
	unsigned max_dgs, max_vds, max_vds_per_dg;
	unsigned tasks;
	unsigned settings;
	enum rcl_write_policy default_write;
	enum rcl_read_policy default_read;
	unsigned cache_mib;
	enum rcl_cache_backup backup;
	bool emergency_spare;
	bool needs_process;
	bool exports;
	bool adds_drives;
	bool inserts_drives;
	unsigned parts;
	unsigned drive_actions;
};

/* rcl_ctrl_caps() - what open controller @ctrl can do (borrowed). */
const struct rcl_caps *rcl_ctrl_caps(const struct rcl_ctrl *ctrl);

/**
 * rcl_ctx_ctrl_caps() - what controller @id's kind can do, without opening
 * it (no lock, no I/O): enough to decide whether a command needs a
 * controller process, or is one its kind cannot do at all.
 * Return: RCL_OK and *@caps (borrowed); RCL_NOT_FOUND.
 */
enum rcl_status rcl_ctx_ctrl_caps(const struct rcl_ctx *ctx, unsigned id,
                                  const struct rcl_caps **caps, struct rcl_error *err);

/**
 * rcl_ctx_ctrl_backup_caps() - rcl_ctx_ctrl_caps() into @out, with
 * @backup asked of the controller where its kind cannot tell without (a
 * MegaRAID card: a battery or a CacheVault; the kind's when it cannot be
 * asked). For the commands, help and completion of /cx/bbu and /cx/cv,
 * the only ones it concerns: this one does I/O.
 * Return: RCL_OK; RCL_NOT_FOUND.
 */
enum rcl_status rcl_ctx_ctrl_backup_caps(const struct rcl_ctx *ctx, unsigned id,
                                         struct rcl_caps *out, struct rcl_error *err);

/**
 * rcl_unsupported() - the one failure for what a controller cannot do:
 * RCL_UNSUPPORTED, "<@what> is not supported by this controller (<@kind>)",
 * then "; <@hint>" if @hint is not NULL. Backends leave an operation they
 * cannot do NULL and the library answers with this; the CLI uses it for
 * what the capability record rules out.
 */
enum rcl_status rcl_unsupported(struct rcl_error *err, const char *kind, const char *what,
                                const char *hint);

/**
 * rcl_caps_check_vd() - whether a controller with @caps creates a VD of
 * @level with strips of @strip_kib (0: its default): rcl_unsupported()
 * naming the level or the strip size, and the range it takes.
 */
enum rcl_status rcl_caps_check_vd(const struct rcl_caps *caps, enum rcl_raid_level level,
                                  unsigned strip_kib, struct rcl_error *err);

/**
 * rcl_caps_check_part() - whether a controller with @caps has @part:
 * RCL_HW_MISSING (StorCLI's "required hardware missing"), "'<@what>' (<the
 * part>) is not supported by this controller (<kind>)", if not.
 */
enum rcl_status rcl_caps_check_part(const struct rcl_caps *caps, enum rcl_part part,
                                    const char *what, struct rcl_error *err);

/* A key=value parameter, as "add controller" passes them to a backend. */
struct rcl_kv {
	const char *key;
	const char *value;
};

/**
 * rcl_ctrl_create() - create a controller of kind @kind ("soft") from
 * @count parameters @params (for soft: drives=, size=, sectorsize=, dir=)
 * and register it under the lowest free number.
 * Return: RCL_OK and *@id; RCL_NOT_FOUND (no such kind); RCL_UNSUPPORTED
 * (a kind that is found on the host, not created); the backend's refusal
 * (RCL_INVALID_COMMAND for a missing parameter, RCL_INVALID_PARAM).
 */
enum rcl_status rcl_ctrl_create(struct rcl_ctx *ctx, const char *kind, const struct rcl_kv *params,
                                size_t count, unsigned *id, struct rcl_error *err);

/* ------------------------------------------------------------------------
 * Background tasks: starting, stopping and following them, the same way
 * for every kind of controller. A kind runs the tasks its caps->tasks
 * lists; every other one is refused with rcl_unsupported().
 */

/*
 * How an erase destroys the data: one list for every kind, each refusing
 * (rcl_unsupported(), naming what it does instead) what it cannot do.
 * Overwrites by passes, as StorCLI names them, for a kind that writes the
 * drive itself: SIMPLE one pass of pattern A; NORMAL three passes, patterns
 * A, B and A; THOROUGH the normal passes three times (nine); the data reads
 * as pattern A after each. A drive's own erase: CRYPTO a change of its
 * media encryption key (NVMe: sanitize); BLOCK a sanitize by block erase of
 * the whole medium; OVERWRITE a sanitize by one overwrite pass of zeroes;
 * FORMAT a Format NVM with user data erase of its namespace. AUTO: the
 * kind's own default (soft: SIMPLE; NVMe: the strongest the drive has, in
 * the order CRYPTO, BLOCK, OVERWRITE, FORMAT). Soft erase records store
 * the values: add new ones at the end.
 */
enum rcl_erase_mode {
	RCL_ERASE_SIMPLE,
	RCL_ERASE_NORMAL,
	RCL_ERASE_THOROUGH,
	RCL_ERASE_CRYPTO,
	RCL_ERASE_BLOCK,
	RCL_ERASE_OVERWRITE,
	RCL_ERASE_FORMAT,
	RCL_ERASE_AUTO,
};

/* struct rcl_erase - an erase: its mode, and the byte each pattern repeats. */
struct rcl_erase {
	enum rcl_erase_mode mode;
	uint8_t pattern_a, pattern_b;
};

/* rcl_erase_passes() - how many passes @mode writes (0: a drive's own erase, or AUTO). */
unsigned rcl_erase_passes(enum rcl_erase_mode mode);

/* rcl_erase_pattern() - the byte pass @pass (from 0) of @e writes. */
uint8_t rcl_erase_pattern(const struct rcl_erase *e, unsigned pass);

/* What rcl_ctrl_task() does to a task. */
enum rcl_task_action {
	RCL_TASK_ACTION_START,
	RCL_TASK_ACTION_STOP,
	RCL_TASK_ACTION_PAUSE,
	RCL_TASK_ACTION_RESUME,
};

/* Which self-test a drive runs (NVMe's short and extended device self-tests). */
enum rcl_self_test {
	RCL_SELF_TEST_SHORT,    /* minutes */
	RCL_SELF_TEST_EXTENDED, /* reads the whole medium: hours */
};

/**
 * struct rcl_task_request - one task, and what to do to it.
 * @kind:	the task. Its target: @drive for RCL_TASK_REBUILD, ERASE,
 *		DRIVE_INIT and SELF_TEST; @vd for CC, INIT, BGI, MIGRATE and VD_ERASE; the
 *controller itself for PATROL_READ and FW_UPDATE.
 * @action:	what rcl_ctrl_task() does (rcl_ctrl_task_check() and
 *		rcl_ctrl_task_progress() ignore it).
 * @force:	START: go on where it would otherwise ask for confirmation
 *		(a rebuild at a VD that is degraded and dirty; a migration
 *		adding a drive that holds data).
 * @repair:	CC, START: rewrite the parity or copies that differ, rather
 *		than only count them.
 * @full:	INIT, START: StorCLI's full initialization, every block
 *		written; else a card's fast one (its first and last blocks).
 *		The soft kind's is always full.
 * @self_test:	SELF_TEST, START: which self-test runs (0: the short one).
 * @level, @drives, @drive_count: MIGRATE, START: the RAID level to
 *		migrate to and the drives it adds (none: @drive_count 0).
 * @remove:	MIGRATE, START: @drives leave the VD instead (StorCLI's
 *		option=remove); refused, before the backend is asked, where
 *		StorCLI refuses it (rcl_ctrl_task()).
 * @want_dirty:	BGI, rcl_ctrl_task_progress(): tell the progress's @dirty
 *		too, which may read the VD's metadata on its drives.
 * @erase:	VD_ERASE, ERASE, START: how it erases the VD or the drive
 *		(enum rcl_erase_mode; @force: a VD even while it is exported, a
 *		drive even while the host uses it or it holds a file system).
 */
struct rcl_task_request {
	enum rcl_task_kind kind;
	enum rcl_task_action action;
	unsigned vd;
	struct rcl_drive_ref drive;
	bool force;
	bool repair;
	bool full;
	enum rcl_self_test self_test;
	enum rcl_raid_level level;
	const struct rcl_drive_ref *drives;
	size_t drive_count;
	bool remove;
	bool want_dirty;
	struct rcl_erase erase;
};

/* Where a task stands. */
enum rcl_task_state {
	RCL_TASK_STATE_STOPPED, /* not running (none is, or it ended or was stopped) */
	RCL_TASK_STATE_RUNNING,
	RCL_TASK_STATE_PAUSED,
	RCL_TASK_STATE_WAITING, /* under way, held until it gets its force (@why says why) */
	RCL_TASK_STATE_HALTED,  /* under way but not running: it goes on once it can */
	RCL_TASK_STATE_FAILED,  /* under way, and stopped by a failure */
};

/**
 * struct rcl_task_progress - where one task stands.
 * @kind:	the task asked about.
 * @state:	as above.
 * @percent:	how much of the whole task is done, 0 to 100, or -1 when
 *		there is nothing to tell (no task, or not known).
 * @elapsed:	seconds this run of it has been running, or -1.
 * @remaining:	estimated seconds left at its present pace, or -1 (not
 *		running, or too early to tell).
 * @vd, @vd_percent: a task that goes VD by VD (a rebuild, a patrol
 *		read): the VD it works on now, and how much of that VD is done
 *		(0 to 100); -1 for none.
 * @ran, @mismatches, @repair: CC: whether a check of the VD ran (this
 *		one, or the last since the controller started it); then the
 *		512-byte sectors whose parity or copies differed (md's
 *		mismatch_cnt) and whether it repaired them.
 * @dirty:	BGI, asked with @want_dirty: the VD's parity or copies may
 *		disagree: it is not consistent, or a crash left regions a
 *		resync (a BGI) has not covered yet. Degraded, such a VD may
 *		read back wrong data for a lost member's strips (md's write
 *		hole).
 * @why:	WAITING: why it waits, as a phrase ("not consistent (never
 *		initialized)"), at VD @vd; else "".
 */
struct rcl_task_progress {
	enum rcl_task_kind kind;
	enum rcl_task_state state;
	int percent;
	double elapsed;
	double remaining;
	int vd;
	int vd_percent;
	bool ran;
	uint64_t mismatches;
	bool repair;
	bool dirty;
	char why[96];
};

/**
 * rcl_ctrl_task_check() - what rcl_ctrl_task() would refuse of a START of
 * @req, told before anything starts (for a kind whose tasks run in a
 * raidcli controller process, before that process is started).
 * Return: RCL_OK; RCL_UNSUPPORTED (the kind runs no such task);
 * RCL_NOT_FOUND (no such drive or VD); the backend's refusal
 * (RCL_NOT_ALLOWED, RCL_NEED_FORCE, RCL_INVALID_PARAM), saying why.
 */
enum rcl_status rcl_ctrl_task_check(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                                    struct rcl_error *err);

/**
 * rcl_ctrl_task() - start, stop, pause or resume task @req on @ctrl. A
 * soft controller's tasks run in its controller process: elsewhere this
 * is refused (RCL_NOT_ALLOWED, naming the command that starts it).
 * Return: RCL_OK; RCL_UNSUPPORTED; RCL_NOT_FOUND; RCL_NOT_ALLOWED (none
 * runs to stop, pause or resume; one runs already; the state refuses it);
 * RCL_NEED_FORCE; RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_task(struct rcl_ctrl *ctrl, const struct rcl_task_request *req,
                              struct rcl_error *err);

/**
 * rcl_ctrl_task_progress() - where task @req (its kind and target) stands
 * on @ctrl, into *@out. A task that is not under way is STOPPED.
 * Return: RCL_OK; RCL_UNSUPPORTED; RCL_NOT_FOUND; RCL_SYSTEM.
 */
enum rcl_status rcl_ctrl_task_progress(const struct rcl_ctrl *ctrl,
                                       const struct rcl_task_request *req,
                                       struct rcl_task_progress *out, struct rcl_error *err);

/* ------------------------------------------------------------------------
 * Events: each controller keeps a persisted log of its configuration and
 * state changes, as a MegaRAID controller does. Sequence numbers grow by one
 * per event, survive restarts and continue after rcl_ctrl_delete_events().
 */

/* Severity, with MegaRAID's class numbers. */
enum rcl_event_class {
	RCL_EVENT_INFO = 0,
	RCL_EVENT_WARNING = 1,
	RCL_EVENT_CRITICAL = 2,
	RCL_EVENT_FATAL = 3,
};

/* What happened; the values are stable (they are stored and shown). */
enum rcl_event_code {
	RCL_EVENT_CTRL_CREATED = 1,
	RCL_EVENT_EVENTS_DELETED = 2,
	RCL_EVENT_DRIVE_ADDED = 3,
	RCL_EVENT_DRIVE_REMOVED = 4,
	RCL_EVENT_VD_CREATED = 5,
	RCL_EVENT_VD_DELETED = 6,
	RCL_EVENT_VD_CHANGED = 7,
	RCL_EVENT_HOTSPARE_ADDED = 8,
	RCL_EVENT_HOTSPARE_REMOVED = 9,
	RCL_EVENT_DRIVE_STATE_CHANGED = 10,
	RCL_EVENT_CTRL_CHANGED = 11,
	RCL_EVENT_DRIVE_FAILED = 12,
	RCL_EVENT_VD_STATE_CHANGED = 13,
	RCL_EVENT_FOREIGN_IMPORTED = 14,
	RCL_EVENT_FOREIGN_DELETED = 15,
	RCL_EVENT_REBUILD_STARTED = 16,
	RCL_EVENT_REBUILD_DONE = 17,
	RCL_EVENT_BGI_STARTED = 18,
	RCL_EVENT_BGI_DONE = 19,
	RCL_EVENT_BGI_STOPPED = 20, /* by the user, or failed */
	RCL_EVENT_PATROL_STARTED = 21,
	RCL_EVENT_PATROL_DONE = 22,
	RCL_EVENT_PATROL_STOPPED = 23,
	RCL_EVENT_MIGRATION_STARTED = 24,
	RCL_EVENT_MIGRATION_DONE = 25,
	RCL_EVENT_MIGRATION_FAILED = 26,
	RCL_EVENT_CC_SCHEDULE = 27,        /* a scheduled consistency check run started or ended */
	RCL_EVENT_PATROL_MEDIA_ERROR = 28, /* a patrol read failed on an unconfigured drive */
	RCL_EVENT_DRIVE_FORMATTED = 29,    /* a drive (its namespace) got a new LBA format */
	RCL_EVENT_NAMESPACE_CHANGED = 30,  /* a namespace created, deleted, attached, detached */
};

#define RCL_EVENT_DESC_MAX 256

/**
 * struct rcl_event - one logged event.
 * @seq:	its sequence number, from 1.
 * @time:	when it was recorded (seconds since the epoch).
 * @locale:	what it concerns, as MegaRAID's locale bits: 0x01 a VD, 0x02 a
 *		drive, 0x20 the controller.
 * @description: one sentence, "Created VD 0 (RAID5, 3 drives, 1.000 GB)".
 */
struct rcl_event {
	uint64_t seq;
	time_t time;
	enum rcl_event_class class_;
	enum rcl_event_code code;
	unsigned locale;
	char description[RCL_EVENT_DESC_MAX];
};

/* rcl_event_class_name() - "info", "warning", "critical", "fatal". */
const char *rcl_event_class_name(enum rcl_event_class class_);
/**
 * rcl_event_class_parse() - the class named @text (case-insensitive).
 * Return: RCL_OK, or RCL_INVALID_PARAM naming @text.
 */
enum rcl_status rcl_event_class_parse(const char *text, enum rcl_event_class *class_,
                                      struct rcl_error *err);

/**
 * struct rcl_event_filter - which events rcl_ctrl_events() returns; a
 * zeroed filter selects all.
 * @classes:	a mask of (1 << class); 0 selects every class.
 * @since:	only events recorded at or after this time; 0: no limit.
 * @latest:	only the last @latest events that pass the rest; 0: no limit.
 */
struct rcl_event_filter {
	unsigned classes;
	time_t since;
	size_t latest;
};

/**
 * struct rcl_event_list - events, oldest first.
 * @damaged:	lines of the log that could not be read and were skipped (a
 *		torn last line after a crash is dropped silently, not counted).
 */
struct rcl_event_list {
	struct rcl_event *events;
	size_t count;
	size_t damaged;
};

/* rcl_event_list_release() - free @list's events; it is empty after. */
void rcl_event_list_release(struct rcl_event_list *list);

/**
 * rcl_ctrl_events() - read @ctrl's event log into @list (caller-owned,
 * released with rcl_event_list_release()), keeping what @filter (NULL: all)
 * selects. A controller that has logged nothing has an empty list.
 * Return: RCL_OK, RCL_SYSTEM, RCL_NOMEM; @list is untouched on failure.
 */
enum rcl_status rcl_ctrl_events(struct rcl_ctrl *ctrl, const struct rcl_event_filter *filter,
                                struct rcl_event_list *list, struct rcl_error *err);

/**
 * rcl_ctrl_event_failure() - why an event of a change made through @ctrl
 * since it was opened could not be written to its event log (the first
 * such failure), or NULL if every one was. The change itself stands: a
 * caller reports it beside the change's success.
 * Return: borrowed, valid while @ctrl is open.
 */
const struct rcl_error *rcl_ctrl_event_failure(const struct rcl_ctrl *ctrl);

/**
 * rcl_ctrl_delete_events() - empty @ctrl's event log, leaving one
 * RCL_EVENT_EVENTS_DELETED event that carries the sequence on. Atomic: a
 * crash leaves the old log or the new one. Requires an exclusive lock.
 */
enum rcl_status rcl_ctrl_delete_events(struct rcl_ctrl *ctrl, struct rcl_error *err);

/* ------------------------------------------------------------------------
 * Foreign configurations (/cN/fall): drives that carry a configuration
 * this controller did not write, moved from another controller or made by
 * mdadm. Such drives show as UGood with "foreign" set (DG F in PD LIST)
 * and are used for nothing until the configuration is imported, which
 * adopts it with its data, or deleted, which wipes its metadata.
 */

/* Who wrote a foreign configuration. */
enum rcl_foreign_source {
	RCL_FOREIGN_RAIDCLI, /* another raidcli soft controller, named by its serial */
	RCL_FOREIGN_MDADM,   /* an md array raidcli did not make, named by its md UUID */
	RCL_FOREIGN_CARD,    /* what a card's firmware found, named by the GUID it gives */
};

/**
 * struct rcl_foreign_drive - one drive of a foreign configuration.
 * @present:	false for a member the configuration lists that no slot
 *		holds; @enclosure and @slot are then where it was last seen.
 * @role:	RCL_PD_ONLINE for a member, RCL_PD_GHS or RCL_PD_DHS for a
 *		hot spare.
 * @dg, @span, @row: its group (-1 for a global spare) and place in it.
 */
struct rcl_foreign_drive {
	unsigned enclosure;
	unsigned slot;
	bool present;
	enum rcl_pd_state role;
	int dg;
	unsigned span;
	unsigned row;
	uint64_t bytes;
};

/**
 * struct rcl_foreign_config - the configuration of one foreign owner.
 * @owner:	the controller serial (RAIDCLI), or the md array UUID (MDADM).
 * @complete:	every member it lists is present.
 * @problem:	why it cannot be imported, or "" when it can.
 * @dgs, @vds:	its groups and VDs. rcl_ctrl_foreign() numbers groups
 *		from 0 across all configurations (as StorCLI numbers foreign
 *		groups) and keeps each VD's id; rcl_ctrl_import_foreign() gives
 *		the ids they get on this controller. A group's state is the
 *		state its VDs would have with the drives present.
 * @drives:	@drive_count drives, members span by span, then spares.
 * @adds:	what the import adds besides adopting it (an md bitmap
 *		asked for), or "".
 */
struct rcl_foreign_config {
	char owner[64];
	enum rcl_foreign_source source;
	bool complete;
	char problem[RCL_ERROR_MSG_MAX];
	size_t dg_count;
	struct rcl_dg dgs[RCL_MAX_DGS];
	size_t vd_count;
	struct rcl_vd vds[RCL_MAX_VDS];
	size_t drive_count;
	struct rcl_foreign_drive *drives;
	char adds[RCL_ERROR_MSG_MAX];
};

/* struct rcl_foreign - every foreign configuration a controller sees. */
struct rcl_foreign {
	size_t count;
	struct rcl_foreign_config *configs;
};

/* rcl_foreign_release() - free @foreign's contents; it is empty after. */
void rcl_foreign_release(struct rcl_foreign *foreign);

/**
 * rcl_ctrl_foreign() - the foreign configurations on @ctrl's drives, into
 * @out (caller-owned, released with rcl_foreign_release()).
 * Return: RCL_OK (with none, @out->count is 0); RCL_UNSUPPORTED;
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_foreign(struct rcl_ctrl *ctrl, struct rcl_foreign *out,
                                 struct rcl_error *err);

/**
 * rcl_ctrl_import_foreign() - adopt every foreign configuration: its
 * drives become this controller's with their VDs (names, levels, sizes,
 * strips, policies, md array UUIDs and data unchanged) and hot spares.
 * A VD or group keeps its id when this controller does not use it, else
 * takes the lowest free one. With @preview nothing is written. Either way
 * @out (caller-owned) says what is, or would be, imported, with the new
 * ids. With @bitmap, each adopted md array without a write-intent bitmap
 * (but RAID0, which md gives none) gets an internal one, as "mdadm
 * --grow --bitmap=internal" adds it: RCL_NOT_ALLOWED when one has no room
 * for it before its data. A crash during the import leaves the drives
 * foreign or imported.
 * Requires an exclusive lock.
 * Return: RCL_OK; RCL_NOT_FOUND (no foreign configuration);
 * RCL_FOREIGN_INCOMPLETE (a group lacks more members than its level can
 * lose); RCL_NOT_ALLOWED (this controller's limits, two drives with one
 * identity, a configuration raidcli cannot adopt: the message says why);
 * RCL_UNSUPPORTED; RCL_SYSTEM, RCL_NOMEM. Nothing changes on failure.
 */
enum rcl_status rcl_ctrl_import_foreign(struct rcl_ctrl *ctrl, bool preview, bool bitmap,
                                        struct rcl_foreign *out, struct rcl_error *err);

/**
 * rcl_ctrl_delete_foreign() - wipe the metadata of every foreign
 * configuration (GPT, records, md superblocks) so its drives become
 * blank unconfigured good drives; their data is lost. Without @force it
 * refuses (RCL_NEED_FORCE). @out (caller-owned) says what was deleted.
 * Requires an exclusive lock.
 * Return: RCL_OK; RCL_NOT_FOUND; RCL_NEED_FORCE; RCL_UNSUPPORTED;
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_delete_foreign(struct rcl_ctrl *ctrl, bool force, struct rcl_foreign *out,
                                        struct rcl_error *err);

/* ------------------------------------------------------------------------
 * Task settings and schedules: the rates of a controller's background
 * tasks, the rebuild priority, and when its patrol reads and scheduled
 * consistency checks run (StorCLI's "set rebuildrate=", "set
 * patrolread=", "set cc="), and what those schedules are doing now. A
 * controller offers the settings its struct rcl_caps lists (@settings).
 */

/* The rate settings (enum rcl_setting's first ones) index struct rcl_ctrl_settings.rate. */
#define RCL_RATE_COUNT   (RCL_SETTING_RECON_RATE + 1)
#define RCL_DEFAULT_RATE 30
/* MegaRAID's default patrol read and CC interval in hours, and the longest (a year). */
#define RCL_DEFAULT_DELAY 168
#define RCL_MAX_DELAY     8760
/* StorCLI's maxconcurrentpd: its default and most. */
#define RCL_MAX_PR_DRIVES 255

/* Patrol read modes: auto (on a schedule), manual (started by the user), off. */
enum rcl_pr_mode {
	RCL_PR_AUTO,
	RCL_PR_MANUAL,
	RCL_PR_OFF,
};

/* StorCLI's includessds=on|onlymixed|off: which SSDs a patrol read reads. */
enum rcl_pr_ssds {
	RCL_PR_SSDS_ON,
	RCL_PR_SSDS_MIXED, /* an SSD only in a VD that has drives of other kinds */
	RCL_PR_SSDS_OFF,
};

/* The scheduled consistency check's modes (StorCLI's cc=off|seq|conc). */
enum rcl_cc_mode {
	RCL_CC_OFF,
	RCL_CC_SEQ,  /* one VD at a time */
	RCL_CC_CONC, /* all VDs at once */
};

/* rcl_pr_mode_name() - StorCLI's "PR Mode": "Auto", "Manual", "Disable". */
const char *rcl_pr_mode_name(enum rcl_pr_mode mode);
/* rcl_pr_ssds_name() - StorCLI's "PR on SSD": "Enabled", "OnlyMixed", "Disabled". */
const char *rcl_pr_ssds_name(enum rcl_pr_ssds ssds);
/* rcl_pr_uncfg_name() - StorCLI's "PR Unconfigured Areas": "Enabled", "Disabled". */
const char *rcl_pr_uncfg_name(bool on);
/* rcl_cc_mode_name() - StorCLI's "CC Operation Mode": "Disabled", "Sequential", "Concurrent". */
const char *rcl_cc_mode_name(enum rcl_cc_mode mode);

/**
 * struct rcl_schedule - when an automatic task runs.
 * @delay:	hours from the end of one run to the start of the next
 *		(1 to RCL_MAX_DELAY).
 * @start:	starttime=: the next run starts then instead (0: none; it is
 *		ignored once a run ended after it).
 * @exclude:	excludevd=: bit n set: VD n is left out.
 */
struct rcl_schedule {
	unsigned delay;
	int64_t start;
	uint64_t exclude;
};

/**
 * struct rcl_ctrl_settings - a controller's task settings.
 * @rate:	per rate setting (RCL_SETTING_REBUILD_RATE ... _RECON_RATE),
 *		0-100: the share of the drives' time its tasks take.
 * @host_first:	rebuildpriority=host: host I/O goes before a rebuild's.
 * @pr_mode, @pr, @pr_max_drives, @pr_ssds, @pr_uncfg: the patrol read's
 *		mode and schedule, how many drives it reads at once (1 to
 *		RCL_MAX_PR_DRIVES), which SSDs it reads, whether it also reads
 *		the unconfigured areas: unconfigured good drives and the free
 *		space of the groups' members (RCL_SETTING_PR_SCHEDULE).
 * @cc_mode, @cc: the scheduled consistency check's (RCL_SETTING_CC_SCHEDULE).
 * @no_auto_rebuild: autorebuild=off: a hot spare waits for a command
 *		(RCL_SETTING_AUTO_REBUILD).
 */
struct rcl_ctrl_settings {
	unsigned rate[RCL_RATE_COUNT];
	bool host_first;
	enum rcl_pr_mode pr_mode;
	struct rcl_schedule pr;
	unsigned pr_max_drives;
	enum rcl_pr_ssds pr_ssds;
	bool pr_uncfg;
	enum rcl_cc_mode cc_mode;
	struct rcl_schedule cc;
	bool no_auto_rebuild;
};

/**
 * rcl_ctrl_settings_get() - @ctrl's task settings into @out (the defaults
 * for what was never set).
 * Return: RCL_OK; RCL_UNSUPPORTED (a kind without task settings);
 * RCL_CORRUPT, RCL_SYSTEM.
 */
enum rcl_status rcl_ctrl_settings_get(struct rcl_ctrl *ctrl, struct rcl_ctrl_settings *out,
                                      struct rcl_error *err);

/**
 * rcl_ctrl_settings_set() - change @ctrl's settings @changes (a mask of
 * 1u << enum rcl_setting: rates, RCL_SETTING_REBUILD_PRIORITY,
 * RCL_SETTING_PR_SCHEDULE, RCL_SETTING_CC_SCHEDULE, RCL_SETTING_AUTO_REBUILD)
 * to their values in @s;
 * the others stay as they are. A controller process takes them in after
 * the command. Requires an exclusive lock.
 * Return: RCL_OK; RCL_UNSUPPORTED naming the first setting the controller
 * lacks; RCL_INVALID_PARAM (a value out of its range, or a setting this
 * call does not change); RCL_SYSTEM. Nothing changes on failure.
 */
enum rcl_status rcl_ctrl_settings_set(struct rcl_ctrl *ctrl, unsigned changes,
                                      const struct rcl_ctrl_settings *s, struct rcl_error *err);

/* What a scheduled task is doing. */
enum rcl_schedule_state {
	RCL_SCHEDULE_STOPPED, /* no run is under way */
	RCL_SCHEDULE_ACTIVE,
	RCL_SCHEDULE_PAUSED,
	RCL_SCHEDULE_INTERRUPTED, /* under way, but no controller process runs it now */
};

/**
 * struct rcl_patrol_status - the patrol read.
 * @state:	see enum rcl_schedule_state.
 * @iterations:	patrol reads completed.
 * @next_start:	when auto mode starts the next one (0: none is waiting).
 * @vd, @percent: under way: the VD being read, and the share of all VDs'
 *		data read (0-100).
 * @time_left:	seconds until it ends, or negative when unknown.
 * @media_errors: reads that failed in this patrol read, or the last one.
 */
struct rcl_patrol_status {
	enum rcl_schedule_state state;
	uint64_t iterations;
	int64_t next_start;
	unsigned vd;
	unsigned percent;
	double time_left;
	uint64_t media_errors;
};

/**
 * struct rcl_cc_status - the scheduled consistency check.
 * @state:	RCL_SCHEDULE_STOPPED, _ACTIVE or _INTERRUPTED.
 * @next_start:	when the next run starts (0: none is waiting).
 * @iterations:	runs completed.
 * @completed:	VDs this run (or the last) checked to their end.
 */
struct rcl_cc_status {
	enum rcl_schedule_state state;
	int64_t next_start;
	uint64_t iterations;
	uint64_t completed;
};

/* struct rcl_schedule_status - what @ctrl's scheduled tasks are doing. */
struct rcl_schedule_status {
	struct rcl_patrol_status patrol;
	struct rcl_cc_status cc;
};

/**
 * rcl_ctrl_schedule_status() - what @ctrl's patrol read and scheduled
 * consistency check are doing, into @out (zeroed first; the part of a
 * schedule the controller lacks stays zero).
 * Return: RCL_OK; RCL_UNSUPPORTED (a kind with neither schedule);
 * RCL_CORRUPT, RCL_SYSTEM.
 */
enum rcl_status rcl_ctrl_schedule_status(struct rcl_ctrl *ctrl, struct rcl_schedule_status *out,
                                         struct rcl_error *err);

/**
 * rcl_schedule_now() - the clock schedules run by, in seconds since the
 * epoch: the host's, shifted by $RAIDCLI_TEST_CLOCK_SHIFT seconds when set
 * (test-only: lets a test meet a start time on the hour within seconds).
 */
int64_t rcl_schedule_now(void);

/* ------------------------------------------------------------------------
 * StorCLI compatibility: a controller's output as consumers written for
 * one of StorCLI's drivers expect it. Kept by the library with the
 * controller's registration, whatever its kind: it concerns how raidcli
 * answers, not the controller.
 */

/**
 * enum rcl_storcli_compat - storclicompat=.
 * @RCL_STORCLI_COMPAT_OFF: raidcli's own answers ("Driver Name" is the
 *	controller's).
 * @RCL_STORCLI_COMPAT_MEGARAID_SAS: "show all" reads as a MegaRAID card's
 *	for consumers that only parse those (raidcli(8), COMPATIBILITY).
 */
enum rcl_storcli_compat {
	RCL_STORCLI_COMPAT_OFF,
	RCL_STORCLI_COMPAT_MEGARAID_SAS,
};

/* rcl_storcli_compat_name() - "off", "megaraid_sas", as storclicompat= takes them. */
const char *rcl_storcli_compat_name(enum rcl_storcli_compat mode);

/**
 * rcl_storcli_compat_parse() - the mode named @text.
 * Return: RCL_OK, or RCL_INVALID_PARAM naming @text and the modes.
 */
enum rcl_status rcl_storcli_compat_parse(const char *text, enum rcl_storcli_compat *mode,
                                         struct rcl_error *err);

/* rcl_ctrl_storcli_compat() - @ctrl's mode (RCL_STORCLI_COMPAT_OFF unless set). */
enum rcl_storcli_compat rcl_ctrl_storcli_compat(const struct rcl_ctrl *ctrl);

/**
 * rcl_ctrl_set_storcli_compat() - keep @mode for @ctrl in the registry.
 * Return: RCL_OK; RCL_NOT_FOUND (the controller was deleted meanwhile),
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_set_storcli_compat(struct rcl_ctrl *ctrl, enum rcl_storcli_compat mode,
                                            struct rcl_error *err);

/* ------------------------------------------------------------------------
 * Exports: a controller whose caps say @exports serves its VDs to the
 * network itself (the soft controller: over NBD, from its controller
 * process). Exports persist: a restarted process serves them again. On a
 * controller without exports, starting, stopping and listing them answer
 * rcl_unsupported(); the checks before deleting find nothing exported.
 */

/* struct rcl_export_request - what starting an export asks for; NULL: the default. */
struct rcl_export_request {
	const char *socket;  /* an absolute Unix socket path */
	const char *address; /* "HOST:PORT" ("[IPv6]:PORT"; port 0: any free one), for TCP */
	const char *name;    /* the export name clients ask for */
	bool force;          /* serve it although rcl_ctrl_export_needs_force() says why not */
};

/* How an export is: what "show export" calls it. */
enum rcl_export_state {
	RCL_EXPORT_STOPPED, /* persisted; no controller process serves it now */
	RCL_EXPORT_SERVING,
	RCL_EXPORT_HELD,   /* not served until force is given: rcl_ctrl_export_waits_for_force() */
	RCL_EXPORT_FAILED, /* the controller process could not serve it (its log says why) */
};

/**
 * struct rcl_export_info - one export.
 * @vd:		the VD it serves (/vN).
 * @name:	its export name.
 * @address:	where it listens: "unix:PATH", "HOST:PORT" or "[IPv6]:PORT",
 *		with the port bound once served (for port 0).
 * @state:	whether it is served.
 * @clients:	clients connected now.
 */
struct rcl_export_info {
	unsigned vd;
	char name[128];
	char address[4104]; /* "unix:" and a path of PATH_MAX bytes */
	enum rcl_export_state state;
	unsigned clients;
};

/**
 * rcl_ctrl_export_check() - what rcl_ctrl_export_start() of @req would
 * refuse for VD @vd, without starting anything: told also where the
 * controller process that serves exports does not run yet.
 * Return: RCL_OK; RCL_NOT_FOUND (no such VD); RCL_INVALID_PARAM (a bad
 * socket, address or name); RCL_EXISTS (the VD is exported elsewhere, or
 * the name or socket is another VD's); RCL_UNSUPPORTED.
 */
enum rcl_status rcl_ctrl_export_check(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err);

/**
 * rcl_ctrl_export_start() - serve VD @vd as @req asks and persist the
 * export. Asking again for an export that is there (same name and
 * address) serves it if it is not. Requires an exclusive lock.
 * Return: as rcl_ctrl_export_check(); RCL_NOT_ALLOWED (for the soft
 * controller: outside its running controller process); RCL_SYSTEM,
 * RCL_NOMEM. Nothing is persisted that is not served.
 */
enum rcl_status rcl_ctrl_export_start(struct rcl_ctrl *ctrl, unsigned vd,
                                      const struct rcl_export_request *req, struct rcl_error *err);

/**
 * rcl_ctrl_export_stop() - stop serving VD @vd (its clients are
 * disconnected) and forget its export. Requires an exclusive lock.
 * Return: RCL_OK; RCL_NOT_FOUND (not exported); RCL_UNSUPPORTED;
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_export_stop(struct rcl_ctrl *ctrl, unsigned vd, struct rcl_error *err);

/**
 * rcl_ctrl_exports() - the exports of the @vd_count VDs @vds lists (@vds
 * NULL: of every VD), in the order they were started, into *@out
 * (caller-owned, freed with rcl_free(); NULL when there are none) and
 * their number into *@count.
 * Return: RCL_OK; RCL_UNSUPPORTED; RCL_SYSTEM (the persisted list cannot be
 * read), RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_exports(struct rcl_ctrl *ctrl, const unsigned *vds, size_t vd_count,
                                 struct rcl_export_info **out, size_t *count,
                                 struct rcl_error *err);

/**
 * rcl_ctrl_export_release_vd() - before VD @vd is deleted: refuse
 * (RCL_NEED_FORCE, naming the export and how to stop it) while it is
 * exported, unless @force, which stops its export. Requires an exclusive
 * lock. Return: RCL_OK (also on a controller without exports);
 * RCL_NEED_FORCE; as rcl_ctrl_export_stop().
 */
enum rcl_status rcl_ctrl_export_release_vd(struct rcl_ctrl *ctrl, unsigned vd, bool force,
                                           struct rcl_error *err);

/**
 * rcl_ctrl_export_check_delete() - before controller @ctrl is deleted
 * without force: refuse (RCL_NEED_FORCE, saying how to go on) while any of
 * its VDs is exported, as deleting it drops every client.
 * Return: RCL_OK (also on a controller without exports); RCL_NEED_FORCE;
 * RCL_SYSTEM, RCL_NOMEM.
 */
enum rcl_status rcl_ctrl_export_check_delete(struct rcl_ctrl *ctrl, struct rcl_error *err);

/**
 * rcl_ctrl_export_needs_force() - why VD @vd must not be served without
 * force, as a phrase completing "it is degraded and ..." ("not consistent
 * (never initialized)": for the soft controller, md's write hole), or NULL
 * when it may be, or when its force was given and it has not been safe
 * since. A controller without exports answers NULL.
 */
const char *rcl_ctrl_export_needs_force(const struct rcl_ctrl *ctrl, unsigned vd);

/**
 * rcl_ctrl_export_waits_for_force() - rcl_ctrl_export_needs_force() of a
 * VD that needed force already when its controller process started, or
 * NULL: such a VD is neither served (its export is RCL_EXPORT_HELD) nor
 * rebuilt until force is given (rcl_export_request.force) or it is no
 * longer degraded. A controller without exports answers NULL.
 */
const char *rcl_ctrl_export_waits_for_force(const struct rcl_ctrl *ctrl, unsigned vd);

/* The library's version, "0.1.0". */
const char *rcl_version(void);

#ifdef __cplusplus
}
#endif

#endif /* RAIDCLI_H */
