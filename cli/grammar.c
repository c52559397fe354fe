// SPDX-License-Identifier: MIT
/*
 * grammar.c - the command table: every object, verb and option raidcli
 * accepts, with help text and handler. The parser, help, "did you mean",
 * REPL and shell completion, and the man-page check all read this table;
 * a new command is one entry here plus its handler.
 *
 * Over 800 lines: one table, cli_commands[], read whole by the parser,
 * help, completion and the man check; split, the grammar would scatter.
 */
#include <string.h>
#include <strings.h>

#include "cli.h"

static const char *const ctrl_types[] = {"soft", "mock", "redfish", NULL};
static const char *const soft_only[] = {"soft", NULL};
static const char *const mock_only[] = {"mock", NULL};
static const char *const redfish_only[] = {"redfish", NULL};
static const char *const sector_sizes[] = {"512", "4096", NULL};
static const char *const delete_what[] = {"files", NULL};
static const char *const bitmap_kinds[] = {"internal", NULL};
static const char *const raid_levels[] = {"raid0",  "raid1",  "raid5",  "raid6", "raid00",
                                          "raid10", "raid50", "raid60", NULL};
/* StorCLI's short forms, as {alias, level} pairs: "add vd r5 ...". */
/* clang-format off */
static const char *const raid_level_aliases[] = {
	"r0", "raid0",
	"r1", "raid1",
	"r5", "raid5",
	"r6", "raid6",
	"r00", "raid00",
	"r10", "raid10",
	"r50", "raid50",
	"r60", "raid60",
	NULL,
};
/* "add vd each" makes single-drive VDs: RAID0 only, as StorCLI's "each r0". */
static const char *const each_levels[] = {"raid0", NULL};
static const char *const each_level_aliases[] = {"r0", "raid0", NULL};
/* clang-format on */
const char *const grammar_write_policies[] = {"wt", "wb", "awb", NULL};
const char *const grammar_read_policies[] = {"ra", "nora", NULL};
const char *const grammar_access_policies[] = {"rw", "ro", "blocked", "rmvblkd", NULL};
const char *const grammar_disk_cache_policies[] = {"default", "on", "off", NULL};
const char *const grammar_io_policies[] = {"direct", "cached", NULL};
/* "remaining" is newer StorCLI's spelling of "all". */
static const char *const size_words[] = {"all", "remaining", NULL};
static const char *const on_off[] = {"on", "off", NULL};
static const char *const rebuild_priorities[] = {"rebuild", "host", NULL};
static const char *const pr_modes[] = {"auto", "manual", NULL};
static const char *const compat_modes[] = {"megaraid_sas", "off", NULL};
static const char *const pr_ssds[] = {"on", "onlymixed", "off", NULL};
static const char *const cc_modes[] = {"off", "seq", "conc", NULL};
static const char *const ses_kinds[] = {"none", "user", "crypto", NULL};
static const char *const fw_actions[] = {"replace", "activate", "activatenow", NULL};

/* The bit of setting RCL_SETTING_<s>, as struct rcl_caps.settings holds it. */
#define SETTING(s) (1u << RCL_SETTING_##s)

/* cli_wait(): follow the task until it ends (a bar on a terminal). */
#define OPT_WAIT                                                                                   \
	{                                                                                          \
		.name = "wait", .type = OPT_FLAG,                                                  \
		.help = "follow the task until it ends: a progress bar on a terminal, then the "   \
		        "last show"                                                                \
	}
/* raidcli's extension to StorCLI's import: adopted md arrays gain a bitmap. */
#define OPT_BITMAP                                                                                 \
	{                                                                                          \
		.name = "bitmap", .type = OPT_ENUM, .choices = bitmap_kinds,                       \
		.help = "give each adopted md array without a write-intent bitmap an internal "    \
		        "one (raidcli extension)"                                                  \
	}
static const char *const migrate_levels[] = {"raid0", "raid5", "raid6", NULL};
static const char *const migrate_options[] = {"add", "remove", NULL};

#define OPT_METRICS_FILE                                                                           \
	{                                                                                          \
		.name = "file", .type = OPT_PATH,                                                  \
		.help = "write the metrics to this file instead, atomically (a temporary file "    \
		        "renamed over it, mode 0644)",                                             \
	}
#define OPT_FORCE                                                                                  \
	{                                                                                          \
		.name = "force", .type = OPT_FLAG, .help = "confirm a destructive change"          \
	}

/*
 * The patrol read's options both "set patrolread ..." and StorCLI's one-command
 * "set patrolread=on mode=auto ..." take: one text, one check, the same setting.
 */
#define OPT_PR_STARTTIME                                                                           \
	{                                                                                          \
		.name = "starttime", .type = OPT_STRING, .check = ctrl_check_starttime,            \
		.two_words = true, .placeholder = "<yyyy/mm/dd hh>",                               \
		.help = "auto patrol reads: the next one starts at this hour (local time), not "   \
		        "delay= hours after the last",                                             \
		.settings = SETTING(PR_SCHEDULE)                                                   \
	}
#define OPT_PR_MAXCONCURRENTPD                                                                     \
	{                                                                                          \
		.name = "maxconcurrentpd", .type = OPT_UINT, .min = 1, .max = 255,                 \
		.help = "how many drives of an array are read at once (default 255: all)",         \
		.settings = SETTING(PR_SCHEDULE)                                                   \
	}
#define OPT_PR_INCLUDESSDS                                                                         \
	{                                                                                          \
		.name = "includessds", .type = OPT_ENUM, .choices = pr_ssds,                       \
		.help = "read drives show lists as Med SSD (on, the default), only in VDs with "   \
		        "other drives too (onlymixed), or not (off)",                              \
		.settings = SETTING(PR_SCHEDULE)                                                   \
	}
#define OPT_PR_UNCFGAREAS                                                                          \
	{                                                                                          \
		.name = "uncfgareas", .type = OPT_ENUM, .choices = on_off,                         \
		.help = "on: read unconfigured drives and free space too; off: the VDs' data "     \
		        "alone",                                                                   \
		.settings = SETTING(PR_SCHEDULE)                                                   \
	}
#define OPT_PR_EXCLUDEVD                                                                           \
	{                                                                                          \
		.name = "excludevd", .type = OPT_STRING, .check = ctrl_check_vd_set,               \
		.placeholder = "<vds>|none",                                                       \
		.help = "VDs patrol reads leave out, as in 0-2,5; none: read every VD",            \
		.settings = SETTING(PR_SCHEDULE)                                                   \
	}

/* One block per command: the table reads best formatted by hand. */
/* clang-format off */
/* /cx/bbu or /cx/cv (@path) show @words: what a controller with the part says of it. */
#define BACKUP_SHOW(obj, words, p, path, module, what)                                             \
	{                                                                                          \
		.object = obj, .verb = words, .run = cmd_backup_show,                              \
		.flags = CMD_PER_CTRL | CMD_PART, .part = RCL_PART_##p,                            \
		.summary = "show " what " of the " module " (Unknown where the controller does not say)", \
		.example = "raidcli /c0/" path " " words,                                          \
	}

/* /cx/bbu or /cx/cv (@path) start learn: the module's learn cycle. */
#define BACKUP_LEARN(obj, p, path, module)                                                         \
	{                                                                                          \
		.object = obj, .verb = "start learn", .run = cmd_backup_start_learn,               \
		.flags = CMD_PER_CTRL | CMD_PART | CMD_WRITES, .part = RCL_PART_##p,               \
		.summary = "start a learn cycle of the " module " (discharged and charged again "  \
		           "to measure what it holds)",                                            \
		.example = "raidcli /c0/" path " start learn",                                     \
	}

const struct cmd_spec cli_commands[] = {
	{
		.object = OBJ_SYSTEM,
		.verb = "show",
		.run = cmd_system_show,
		.summary = "list the controllers and their health",
		.example = "raidcli show",
	},
	{
		.object = OBJ_SYSTEM,
		.verb = "show all",
		.run = cmd_system_show_all,
		.summary = "list the controllers, with raidcli's version and state directory",
		.example = "raidcli show all",
	},
	{
		.object = OBJ_SYSTEM,
		.verb = "show ctrlcount",
		.run = cmd_system_ctrlcount,
		.summary = "count the controllers",
		.example = "raidcli show ctrlcount",
	},
	{
		.object = OBJ_SYSTEM,
		.verb = "show metrics",
		.run = cmd_ctrl_show_metrics,
		.flags = CMD_PER_CTRL | CMD_METRICS | CMD_ANSWER_TO_FILE,
		.summary = "print every controller's state, drives, tasks and scrape result as "
		           "Prometheus text (for node_exporter's textfile collector)",
		.example = "raidcli show metrics file=/var/lib/prometheus/node-exporter/raidcli.prom",
		.opts = {OPT_METRICS_FILE},
	},
	{
		.object = OBJ_SYSTEM,
		.verb = "version",
		.run = cmd_system_version,
		.summary = "print raidcli's version (also -v)",
		.example = "raidcli -v",
	},
	{
		.object = OBJ_SYSTEM,
		.verb = "add controller",
		.run = cmd_add_controller,
		.flags = CMD_WRITES,
		.summary = "create a software RAID controller whose drives are new sparse image files "
		           "(or a mock one, for tests, from a fixture; or one per Storage of a "
		           "Redfish BMC)",
		.example = "raidcli add controller type=soft drives=4 size=10GB",
		.opts =
			{
				{.name = "type",
				 .type = OPT_ENUM,
				 .choices = ctrl_types,
				 .help = "the kind of controller to create",
				 .required = true},
				{.name = "drives",
				 .type = OPT_UINT,
				 .max = RCL_SOFT_MAX_DRIVES,
				 .help = "how many image files to create (soft)",
				 .types = soft_only},
				{.name = "size",
				 .type = OPT_SIZE,
				 .help = "each image's size, needed when drives > 0 (100GB, 1.5TiB; binary units)",
				 .types = soft_only},
				{.name = "dir", .type = OPT_PATH, .help = "where to create the images",
				 .types = soft_only},
				{.name = "sectorsize",
				 .type = OPT_ENUM,
				 .choices = sector_sizes,
				 .help = "logical sector size of the drives",
				 .types = soft_only},
				{.name = "fixture",
				 .type = OPT_PATH,
				 .help = "a JSON file holding the controller's state (mock)",
				 .types = mock_only},
				{.name = "host",
				 .type = OPT_STRING,
				 .placeholder = "https://BMC[:PORT]",
				 .help = "the BMC: one controller per Storage resource it has (redfish)",
				 .types = redfish_only},
				{.name = "hostsfile",
				 .type = OPT_PATH,
				 .help = "a file of BMC URLs, one a line, instead of host= (redfish)",
				 .types = redfish_only},
				{.name = "user", .type = OPT_STRING, .help = "the BMC account (redfish)",
				 .types = redfish_only},
				{.name = "credfile",
				 .type = OPT_PATH,
				 .help = "a file only you can read (0600) holding the password (redfish; "
				         "neither this nor passenv=: asked on the terminal)",
				 .types = redfish_only},
				{.name = "passenv",
				 .type = OPT_STRING,
				 .placeholder = "VARIABLE",
				 .help = "the environment variable holding the password (redfish)",
				 .types = redfish_only},
				{.name = "cafile",
				 .type = OPT_PATH,
				 .help = "the CA certificates (PEM) to verify the BMC with (redfish)",
				 .types = redfish_only},
				{.name = "timeout",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = 3600,
				 .help = "seconds a BMC may take to answer a request (redfish; default 30)",
				 .types = redfish_only},
				{.name = "insecure",
				 .type = OPT_FLAG,
				 .help = "do not verify the BMC's certificate: anyone on the path can "
				         "read the password (redfish)",
				 .types = redfish_only},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "show",
		.run = cmd_ctrl_show,
		.flags = CMD_PER_CTRL,
		.summary = "summarize a controller and its drives",
		.example = "raidcli /c0 show",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show all",
		.run = cmd_ctrl_show_all,
		.flags = CMD_PER_CTRL,
		.summary = "show everything about a controller",
		.example = "raidcli /c0 show all",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show metrics",
		.run = cmd_ctrl_show_metrics,
		.flags = CMD_PER_CTRL | CMD_METRICS | CMD_ANSWER_TO_FILE,
		.summary = "print a controller's state, drives, tasks and scrape result as Prometheus "
		           "text",
		.example = "raidcli /c0 show metrics",
		.opts = {OPT_METRICS_FILE},
	},
	{
		.object = OBJ_CTRL,
		.verb = "delete",
		.run = cmd_ctrl_delete,
		.check = cmd_ctrl_check_delete,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_LOCAL | CMD_STOPS_SERVICE,
		.summary = "forget a software controller (stopping its process); its image files are kept unless delete=files",
		.example = "raidcli /c0 del",
		.opts =
			{
				OPT_FORCE,
				{.name = "delete",
				 .type = OPT_ENUM,
				 .choices = delete_what,
				 .help = "also delete the image files raidcli created (needs force)"},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "add drive",
		.run = cmd_ctrl_add_drive,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_ADDS_DRIVE,
		.summary = "put an image file or block device in the first free slot",
		.example = "raidcli /c0 add drive path=/dev/sdb",
		.opts =
			{
				{.name = "path",
				 .type = OPT_PATH,
				 .help = "the image file or block device",
				 .required = true},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "add vd",
		.run = cmd_ctrl_add_vd,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_RAID_LEVEL,
		.summary = "create a virtual drive (and its disk group) on unconfigured drives",
		.example = "raidcli /c0 add vd type=raid5 drives=252:0-3",
		.opts =
			{
				{.name = "type",
				 .type = OPT_ENUM,
				 .choices = raid_levels,
				 .aliases = raid_level_aliases,
				 .bare = OPT_BARE_TOO,
				 .help = "the RAID level; also bare, as in 'add vd r5' or 'add vd RAID10'",
				 .required = true},
				{.name = "drives",
				 .type = OPT_STRING,
				 .help = "the members: E:S, E:S-S, lists joined by ',' (252:0-3,5), or bare slots (0-3)",
				 .required = true},
				{.name = "size",
				 .type = OPT_SIZE,
				 .choices = size_words,
				 .help = "the capacity (binary units, a bare number is MB), or all (the default) or remaining"},
				{.name = "name",
				 .type = OPT_STRING,
				 .help = "the VD's name, at most 15 printable characters"},
				{.name = "strip",
				 .type = OPT_UINT,
				 .min = 8,
				 .max = 1024,
				 .help = "strip size in KB, a power of two (default 64)"},
				{.name = "pdperarray",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = RCL_MAX_DRIVES_PER_SPAN,
				 .help = "drives per span; RAID50/60 need it, RAID10 defaults to 2"},
				{.name = "wrcache",
				 .type = OPT_ENUM,
				 .choices = grammar_write_policies,
				 .bare = OPT_BARE_SHOWN,
				 .help = "write policy: write through (the default), write back, always write back"},
				{.name = "rdcache",
				 .type = OPT_ENUM,
				 .choices = grammar_read_policies,
				 .bare = OPT_BARE_SHOWN,
				 .help = "read policy: read ahead (the default) or none"},
				{.name = "iopolicy",
				 .type = OPT_ENUM,
				 .choices = grammar_io_policies,
				 .bare = OPT_BARE_SHOWN,
				 .help = "I/O policy: direct (the default) or cached; a soft controller "
				         "reads from the members either way"},
				{.name = "pdcache",
				 .type = OPT_ENUM,
				 .choices = grammar_disk_cache_policies,
				 .help = "the members' write caches: as the drives have them (the default), "
				         "on, or off (each member write durable before it completes)"},
				{.name = "spares",
				 .type = OPT_STRING,
				 .help = "unconfigured drives to make dedicated hot spares, as drives="},
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "use drives even if they hold a file system or partition table"},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "add vd each",
		.run = cmd_ctrl_add_vd_each,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_RAID_LEVEL,
		.summary = "make a RAID0 virtual drive of each unconfigured good drive, each its own disk group",
		.example = "raidcli /c0 add vd each r0",
		.opts =
			{
				{.name = "type",
				 .type = OPT_ENUM,
				 .choices = each_levels,
				 .aliases = each_level_aliases,
				 .bare = OPT_BARE_TOO,
				 .help = "the RAID level: raid0 (r0), the only one a VD of one drive has",
				 .required = true},
				{.name = "drives",
				 .type = OPT_STRING,
				 .help = "the unconfigured good drives to use, as in add vd (default: all of them)"},
				{.name = "size",
				 .type = OPT_SIZE,
				 .choices = size_words,
				 .help = "each VD's capacity, as in add vd (default: the whole drive)"},
				{.name = "name",
				 .type = OPT_STRING,
				 .help = "the name of each VD, at most 15 printable characters"},
				{.name = "strip",
				 .type = OPT_UINT,
				 .min = 8,
				 .max = 1024,
				 .help = "strip size in KB, a power of two (default 64)"},
				{.name = "wrcache",
				 .type = OPT_ENUM,
				 .choices = grammar_write_policies,
				 .bare = OPT_BARE_SHOWN,
				 .help = "write policy, as in add vd"},
				{.name = "rdcache",
				 .type = OPT_ENUM,
				 .choices = grammar_read_policies,
				 .bare = OPT_BARE_SHOWN,
				 .help = "read policy, as in add vd"},
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "use drives even if they hold a file system or partition table"},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "delete config",
		.run = cmd_ctrl_delete_config,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "delete every virtual drive, with their disk groups and dedicated hot spares",
		.example = "raidcli /c0 delete config",
		.opts =
			{
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "delete even VDs that hold a file system or partition table, or are exported (the exports stop)"},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "show events",
		.run = cmd_ctrl_show_events,
		.flags = CMD_PER_CTRL | CMD_ANSWER_TO_FILE,
		.summary = "show the controller's event log: its configuration and state changes",
		.example = "raidcli /c0 show events type=latest=10 filter=warning,critical",
		.opts =
			{
				{.name = "type",
				 .type = OPT_STRING,
				 .check = events_check_type,
				 .placeholder = "latest=<n>|sincereboot",
				 .help = "only the last n events, or those since the system booted"},
				{.name = "filter",
				 .type = OPT_STRING,
				 .check = events_check_filter,
				 .placeholder = "info,warning,critical,fatal",
				 .help = "only events of these classes (a comma-separated list)"},
				{.name = "file",
				 .type = OPT_PATH,
				 .help = "write the events to this file (as text), not the terminal; file=/dev/stdout prints them"},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "delete events",
		.run = cmd_ctrl_delete_events,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "empty the event log; sequence numbers carry on from where they were",
		.example = "raidcli /c0 delete events",
	},
	{
		.object = OBJ_CTRL,
		.verb = "set",
		.run = cmd_ctrl_set,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "change controller settings (give at least one): JBOD, background task rates, rebuild priority, patrol read schedule",
		.example = "raidcli /c0 set rebuildrate=60",
		.opts =
			{
				{.name = "jbod",
				 .type = OPT_ENUM,
				 .choices = on_off,
				 .help = "allow drives to be exposed as JBOD (on) or not (off)",
				 .settings = SETTING(JBOD)},
				{.name = "rebuildrate",
				 .type = OPT_UINT,
				 .max = 100,
				 .help = "the share of the time rebuilds may take, in percent (default 30)",
				 .settings = SETTING(REBUILD_RATE)},
				{.name = "ccrate",
				 .type = OPT_UINT,
				 .max = 100,
				 .help = "the same for consistency checks",
				 .settings = SETTING(CC_RATE)},
				{.name = "bgirate",
				 .type = OPT_UINT,
				 .max = 100,
				 .help = "the same for background initialization",
				 .settings = SETTING(BGI_RATE)},
				{.name = "prrate",
				 .type = OPT_UINT,
				 .max = 100,
				 .help = "the same for patrol reads",
				 .settings = SETTING(PR_RATE)},
				{.name = "reconrate",
				 .type = OPT_UINT,
				 .max = 100,
				 .help = "the same for migrations (start migrate)",
				 .settings = SETTING(RECON_RATE)},
				{.name = "rebuildpriority",
				 .type = OPT_ENUM,
				 .choices = rebuild_priorities,
				 .help = "rebuild: a rebuild keeps its rate under host I/O; host: it waits for host I/O first",
				 .settings = SETTING(REBUILD_PRIORITY)},
				{.name = "patrolread",
				 .type = OPT_ENUM,
				 .choices = on_off,
				 .help = "patrol reads on (with mode=) or off (a running one stops)",
				 .settings = SETTING(PR_SCHEDULE)},
				{.name = "mode",
				 .type = OPT_ENUM,
				 .choices = pr_modes,
				 .help = "patrol reads: auto (every delay= hours, the default) or manual (start patrolread)",
				 .settings = SETTING(PR_SCHEDULE)},
				{.name = "delay",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = 8760,
				 .help = "auto patrol reads: the hours from the end of one to the start of the next (default 168); also set patrolread delay=",
				 .settings = SETTING(PR_SCHEDULE)},
				OPT_PR_STARTTIME,
				OPT_PR_MAXCONCURRENTPD,
				OPT_PR_INCLUDESSDS,
				OPT_PR_UNCFGAREAS,
				OPT_PR_EXCLUDEVD,
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "set patrolread",
		.run = cmd_ctrl_set,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_PATROL_READ,
		.settings = SETTING(PR_SCHEDULE),
		.summary = "change the patrol read's settings (give at least one): schedule, excluded VDs, drives at once, SSDs",
		.example = "raidcli /c0 set patrolread maxconcurrentpd=2 excludevd=1",
		.opts =
			{
				{.name = "delay",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = 8760,
				 .help = "auto patrol reads: the hours from the end of one to the start of the next (default 168)"},
				OPT_PR_STARTTIME,
				OPT_PR_MAXCONCURRENTPD,
				OPT_PR_INCLUDESSDS,
				OPT_PR_UNCFGAREAS,
				OPT_PR_EXCLUDEVD,
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "set storclicompat",
		.run = cmd_ctrl_set_compat,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_VERB_VALUE,
		.summary = "make show all read as a MegaRAID card's (megaraid_sas) for consumers that parse only those, or not (off, the default but on a megaraid card)",
		.example = "raidcli /c0 set storclicompat=megaraid_sas",
		.opts =
			{
				{.name = "storclicompat",
				 .type = OPT_ENUM,
				 .choices = compat_modes,
				 .help = "megaraid_sas: Driver Name reads megaraid_sas and numbers the controller lacks read 0; off: raidcli's own values, written set storclicompat=off"},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "set cc",
		.run = cmd_ctrl_set_cc,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_VERB_VALUE,
		.task = RCL_TASK_CC,
		.settings = SETTING(CC_SCHEDULE),
		.summary = "schedule consistency checks of the redundant VDs: off, one VD at a time (seq) or all at once (conc)",
		.example = "raidcli /c0 set cc=seq delay=168 starttime=2026/12/05 02",
		.opts =
			{
				{.name = "cc",
				 .type = OPT_ENUM,
				 .choices = cc_modes,
				 .help = "off, seq (one VD at a time) or conc (all at once), written set cc=seq"},
				{.name = "delay",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = 8760,
				 .help = "the hours from the end of one scheduled check to the start of the next (default 168)"},
				{.name = "starttime",
				 .type = OPT_STRING,
				 .check = ctrl_check_starttime,
				 .two_words = true,
				 .placeholder = "<yyyy/mm/dd hh>",
				 .help = "the next scheduled check starts at this hour (local time), not delay= hours after the last"},
				{.name = "excludevd",
				 .type = OPT_STRING,
				 .check = ctrl_check_vd_set,
				 .placeholder = "<vds>|none",
				 .help = "VDs scheduled checks leave out, as in 0-2,5; none: check every VD"},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "show cc",
		.run = cmd_ctrl_show_cc,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_CC,
		.settings = SETTING(CC_SCHEDULE),
		.summary = "show the scheduled consistency check: mode, delay, next start, state, iterations, VDs done",
		.example = "raidcli /c0 show cc",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show patrolread",
		.run = cmd_ctrl_show_patrol,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_PATROL_READ,
		.summary = "show the patrol read: mode, delay, iterations, next start, state, progress, media errors",
		.example = "raidcli /c0 show patrolread",
		.opts = {OPT_WAIT},
	},
	{
		.object = OBJ_CTRL,
		.verb = "start patrolread",
		.run = cmd_ctrl_start_patrol,
		.check = cmd_ctrl_check_patrol,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_STARTS_SERVICE,
		.task = RCL_TASK_PATROL_READ,
		.summary = "start a patrol read of every VD's data on every member, in the controller process",
		.example = "raidcli /c0 start patrolread",
		.opts = {OPT_WAIT},
	},
	{
		.object = OBJ_CTRL,
		.verb = "stop patrolread",
		.run = cmd_ctrl_stop_patrol,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_PATROL_READ,
		.summary = "stop the patrol read (the next one starts from the beginning)",
		.example = "raidcli /c0 stop patrolread",
	},
	{
		.object = OBJ_CTRL,
		.verb = "pause patrolread",
		.run = cmd_ctrl_pause_patrol,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_PATROL_READ,
		.summary = "pause the patrol read in progress",
		.example = "raidcli /c0 pause patrolread",
	},
	{
		.object = OBJ_CTRL,
		.verb = "resume patrolread",
		.run = cmd_ctrl_resume_patrol,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_PATROL_READ,
		.summary = "resume the paused patrol read",
		.example = "raidcli /c0 resume patrolread",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show rebuildrate",
		.run = cmd_ctrl_show_rate,
		.flags = CMD_PER_CTRL,
		.settings = SETTING(REBUILD_RATE),
		.summary = "show the share of the time rebuilds may take, in percent",
		.example = "raidcli /c0 show rebuildrate",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show ccrate",
		.run = cmd_ctrl_show_rate,
		.flags = CMD_PER_CTRL,
		.settings = SETTING(CC_RATE),
		.summary = "show the share of the time consistency checks may take, in percent",
		.example = "raidcli /c0 show ccrate",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show bgirate",
		.run = cmd_ctrl_show_rate,
		.flags = CMD_PER_CTRL,
		.settings = SETTING(BGI_RATE),
		.summary = "show the share of the time background initialization may take, in percent",
		.example = "raidcli /c0 show bgirate",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show prrate",
		.run = cmd_ctrl_show_rate,
		.flags = CMD_PER_CTRL,
		.settings = SETTING(PR_RATE),
		.summary = "show the share of the time patrol reads may take, in percent",
		.example = "raidcli /c0 show prrate",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show reconrate",
		.run = cmd_ctrl_show_rate,
		.flags = CMD_PER_CTRL,
		.settings = SETTING(RECON_RATE),
		.summary = "show the share of the time migrations may take, in percent",
		.example = "raidcli /c0 show reconrate",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show rebuildpriority",
		.run = cmd_ctrl_show_rate,
		.flags = CMD_PER_CTRL,
		.settings = SETTING(REBUILD_PRIORITY),
		.summary = "show the priority of rebuilds: rebuild or host (host I/O first)",
		.example = "raidcli /c0 show rebuildpriority",
	},
	{
		.object = OBJ_CTRL,
		.verb = "serve",
		.run = cmd_ctrl_serve,
		.flags = CMD_PER_CTRL | CMD_LOCAL | CMD_PROCESS,
		.summary = "run the controller process in the foreground: it serves the exports and runs CLI commands, until SIGTERM",
		.example = "raidcli /c0 serve",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show service",
		.run = cmd_ctrl_show_service,
		.flags = CMD_PER_CTRL | CMD_PROCESS,
		.summary = "show whether the controller process runs: its pid, uptime, socket and exports",
		.example = "raidcli /c0 show service",
	},
	{
		.object = OBJ_CTRL,
		.verb = "stop service",
		.run = cmd_ctrl_stop_service,
		.flags = CMD_PER_CTRL | CMD_LOCAL | CMD_PROCESS,
		.summary = "stop the controller process (its exports stop; they start again with it)",
		.example = "raidcli /c0 stop service",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show time",
		.run = cmd_ctrl_show_time,
		.flags = CMD_PER_CTRL,
		.summary = "show the controller's clock (a card's own; a soft controller's is the system's)",
		.example = "raidcli /c0 show time",
	},
	{
		.object = OBJ_CTRL,
		.verb = "set time",
		.run = cmd_ctrl_set_time,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_VERB_VALUE,
		.summary = "set the controller's clock: a card's to a local time or the system's (a soft "
		           "controller's is the system's)",
		.example = "raidcli /c0 set time=systemtime",
		.opts =
			{
				{.name = "time",
				 .type = OPT_STRING,
				 .two_words = true,
				 .placeholder = "systemtime",
				 .help = "systemtime, or a card's local time yyyymmdd hh:mm:ss, written "
				         "set time=20261207 03:00:00",
				 .required = true},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "show jbod",
		.run = cmd_ctrl_show_jbod,
		.flags = CMD_PER_CTRL,
		.settings = SETTING(JBOD),
		.summary = "show whether drives may be exposed as JBOD",
		.example = "raidcli /c0 show jbod",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show autorebuild",
		.run = cmd_ctrl_show_autorebuild,
		.flags = CMD_PER_CTRL,
		.summary = "show whether a hot spare or replaced drive rebuilds without a command",
		.example = "raidcli /c0 show autorebuild",
	},
	{
		.object = OBJ_CTRL,
		.verb = "set autorebuild",
		.run = cmd_ctrl_set_autorebuild,
		.flags = CMD_PER_CTRL | CMD_VERB_VALUE | CMD_WRITES,
		.summary = "turn automatic rebuilds on or off (a soft controller keeps them on)",
		.example = "raidcli /c0 set autorebuild=on",
		.opts =
			{
				{.name = "autorebuild",
				 .type = OPT_ENUM,
				 .choices = on_off,
				 .help = "on or off, written set autorebuild=on; a soft controller "
				         "takes only on",
				 .required = true},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "show foreignautoimport",
		.run = cmd_ctrl_show_foreignautoimport,
		.flags = CMD_PER_CTRL,
		.summary = "show whether foreign configurations are imported without a command (always OFF)",
		.example = "raidcli /c0 show foreignautoimport",
	},
	{
		.object = OBJ_CTRL,
		.verb = "set foreignautoimport",
		.run = cmd_ctrl_set_foreignautoimport,
		.flags = CMD_PER_CTRL | CMD_VERB_VALUE,
		.summary = "keep automatic imports of foreign configurations off (the only setting of a soft controller)",
		.example = "raidcli /c0 set foreignautoimport=off",
		.opts =
			{
				{.name = "foreignautoimport",
				 .type = OPT_ENUM,
				 .choices = on_off,
				 .help = "off, written set foreignautoimport=off; on is not supported",
				 .required = true},
			},
	},
	{
		.object = OBJ_CTRL,
		.verb = "show eventloginfo",
		.run = cmd_ctrl_show_eventloginfo,
		.flags = CMD_PER_CTRL,
		.summary = "show the event log's newest and oldest sequence numbers and its count of events",
		.example = "raidcli /c0 show eventloginfo",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show bootdrive",
		.run = cmd_ctrl_show_bootdrive,
		.flags = CMD_PER_CTRL,
		.summary = "show the controller's boot drive (None: the host boots from its own disks)",
		.example = "raidcli /c0 show bootdrive",
	},
	{
		.object = OBJ_CTRL,
		.verb = "show freespace",
		.run = cmd_ctrl_show_freespace,
		.flags = CMD_PER_CTRL,
		.summary = "show the free space of the disk groups",
		.example = "raidcli /c0 show freespace",
	},
	{
		.object = OBJ_ENCL,
		.verb = "show all",
		.run = cmd_encl_show,
		.flags = CMD_PER_CTRL,
		.summary = "show everything about enclosures (a soft controller's has no fan, power supply or sensor)",
		.example = "raidcli /c0/eall show all",
	},
	{
		.object = OBJ_ENCL,
		.verb = "show status",
		.run = cmd_encl_show,
		.flags = CMD_PER_CTRL,
		.summary = "show the state of enclosures",
		.example = "raidcli /c0/eall show status",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "show initialization",
		.run = cmd_drive_show_init,
		.flags = CMD_PER_CTRL,
		.summary = "show drives' initializations: progress, status, time left",
		.example = "raidcli /c0/eall/sall show initialization",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "show erase",
		.run = cmd_drive_show_erase,
		.flags = CMD_PER_CTRL,
		.summary = "show drives' erases: progress over all passes, status, time left",
		.example = "raidcli /c0/eall/sall show erase",
	},
	{
		.object = OBJ_ENCL,
		.verb = "show",
		.run = cmd_encl_show,
		.flags = CMD_PER_CTRL,
		.summary = "list enclosures",
		.example = "raidcli /c0/eall show",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "show",
		.run = cmd_drive_show,
		.flags = CMD_PER_CTRL,
		.summary = "list drives",
		.example = "raidcli /c0/eall/sall show",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "show all",
		.run = cmd_drive_show_all,
		.flags = CMD_PER_CTRL,
		.summary = "show every detail of drives",
		.example = "raidcli /c0/e252/s0 show all",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "show smart",
		.run = cmd_drive_show_smart,
		.flags = CMD_PER_CTRL | CMD_PART,
		.part = RCL_PART_HEALTH,
		.summary = "show drives' SMART/health logs, as the drives report them (NVMe)",
		.example = "raidcli /c0/eall/sall show smart",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "delete",
		.run = cmd_drive_delete,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "empty a slot of a software controller (the file or device is kept)",
		.example = "raidcli /c0/e252/s3 del",
		.opts =
			{
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "remove an online member although its VDs are degraded or go offline"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "add hotsparedrive",
		.run = cmd_drive_add_hotspare,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "make unconfigured good drives global (GHS) or dedicated (DHS) hot spares",
		.example = "raidcli /c0/e252/s4 add hotsparedrive dgs=0",
		.opts =
			{
				{.name = "dgs",
				 .type = OPT_STRING,
				 .help = "the disk groups a dedicated spare serves (dgs=0 or dgs=0,1); without it the spare is global"},
				{.name = "enclaffinity",
				 .type = OPT_FLAG,
				 .help = "replace only drives in the spare's own enclosure"},
				{.name = "nonrevertible",
				 .type = OPT_FLAG,
				 .help = "stay in the group once it replaced a drive (no copyback to a new drive in the old slot)"},
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "use a drive even if it holds a file system or partition table"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "delete hotsparedrive",
		.run = cmd_drive_delete_hotspare,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "make hot spares unconfigured good again",
		.example = "raidcli /c0/e252/s4 delete hotsparedrive",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "start locate",
		.run = cmd_drive_start_locate,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "turn on the locate LED of drives' slots (recorded; a soft controller has no LED)",
		.example = "raidcli /c0/e252/s4 start locate",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "stop locate",
		.run = cmd_drive_stop_locate,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "turn off the locate LED of drives' slots",
		.example = "raidcli /c0/e252/s4 stop locate",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "format",
		.run = cmd_drive_format,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.action = RCL_DRIVE_ACTION_FORMAT,
		.summary = "format drives that format themselves (NVMe) in another LBA format, destroying every block",
		.example = "raidcli /c0/e252/s4 format blocksize=4096 ses=user force",
		.opts =
			{
				{.name = "lbaf",
				 .type = OPT_UINT,
				 .max = 63,
				 .help = "the drive's LBA format index to use (raidcli /cx/ex/sx show all lists them)"},
				{.name = "blocksize",
				 .type = OPT_ENUM,
				 .choices = sector_sizes,
				 .help = "the logical block size of the format to use, instead of lbaf="},
				{.name = "nsid",
				 .type = OPT_UINT,
				 .max = 0xfffffffe,
				 .help = "the namespace to format (default: the drive's only one)"},
				{.name = "ses",
				 .type = OPT_ENUM,
				 .choices = ses_kinds,
				 .help = "erase as well: none, the user data, or by changing the crypto key (default none)"},
				OPT_FORCE,
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "download",
		.run = cmd_drive_download,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.action = RCL_DRIVE_ACTION_FW_DOWNLOAD,
		.summary = "send a firmware image to drives that take one (NVMe) and commit it to a slot",
		.example = "raidcli /c0/e252/s4 download src=fw.bin slot=2 action=activate",
		.opts =
			{
				{.name = "src",
				 .type = OPT_PATH,
				 .help = "the firmware image file",
				 .required = true},
				{.name = "slot",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = 7,
				 .help = "the firmware slot to store it in (default: the drive chooses)"},
				{.name = "action",
				 .type = OPT_ENUM,
				 .choices = fw_actions,
				 .help = "replace: store it only; activate: run it after the next reset (default); activatenow: run it now"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "get telemetry",
		.run = cmd_drive_get_telemetry,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.action = RCL_DRIVE_ACTION_TELEMETRY,
		.summary = "have a drive (NVMe) capture its telemetry and write it to a new file",
		.example = "raidcli /c0/e252/s4 get telemetry file=/tmp/s4.telemetry",
		.opts =
			{
				{.name = "file",
				 .type = OPT_PATH,
				 .help = "the file to create (refused if it exists)",
				 .required = true},
				{.name = "area",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = 4,
				 .help = "the last data area to capture (default 3)"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "add namespace",
		.run = cmd_drive_add_namespace,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.action = RCL_DRIVE_ACTION_NAMESPACE,
		.summary = "create a namespace on drives that manage them (NVMe), attached to no controller",
		.example = "raidcli /c0/e252/s4 add namespace size=100GB",
		.opts =
			{
				{.name = "size",
				 .type = OPT_SIZE,
				 .help = "its size (100GB, 1.5TiB; binary units)",
				 .required = true},
				{.name = "lbaf",
				 .type = OPT_UINT,
				 .max = 63,
				 .help = "its LBA format index (default 0)"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "attach namespace",
		.run = cmd_drive_attach_namespace,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.action = RCL_DRIVE_ACTION_NAMESPACE,
		.summary = "attach a namespace to the drive's controller: it shows as a block device",
		.example = "raidcli /c0/e252/s4 attach namespace nsid=2",
		.opts =
			{
				{.name = "nsid",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = 0xfffffffe,
				 .help = "the namespace",
				 .required = true},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "detach namespace",
		.run = cmd_drive_detach_namespace,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.action = RCL_DRIVE_ACTION_NAMESPACE,
		.summary = "detach a namespace from the drive's controller: its block device goes away",
		.example = "raidcli /c0/e252/s4 detach namespace nsid=2 force",
		.opts =
			{
				{.name = "nsid",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = 0xfffffffe,
				 .help = "the namespace",
				 .required = true},
				OPT_FORCE,
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "delete namespace",
		.run = cmd_drive_delete_namespace,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.action = RCL_DRIVE_ACTION_NAMESPACE,
		.summary = "delete a namespace of a drive, and its data",
		.example = "raidcli /c0/e252/s4 delete namespace nsid=2 force",
		.opts =
			{
				{.name = "nsid",
				 .type = OPT_UINT,
				 .min = 1,
				 .max = 0xfffffffe,
				 .help = "the namespace",
				 .required = true},
				OPT_FORCE,
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "start diag",
		.run = cmd_drive_start_diag,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_SELF_TEST,
		.summary = "start drives' own self-tests (NVMe device self-test), short unless extended",
		.example = "raidcli /c0/e252/s4 start diag extended",
		.opts =
			{
				{.name = "short",
				 .type = OPT_FLAG,
				 .help = "the short self-test, minutes long (the default)"},
				{.name = "extended",
				 .type = OPT_FLAG,
				 .help = "the extended self-test: it reads the whole medium, hours long"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "stop diag",
		.run = cmd_drive_stop_diag,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_SELF_TEST,
		.summary = "abort drives' self-tests",
		.example = "raidcli /c0/e252/s4 stop diag",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "show diag",
		.run = cmd_drive_show_diag,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_SELF_TEST,
		.summary = "show drives' self-tests: progress and status",
		.example = "raidcli /c0/eall/sall show diag",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "start erase",
		.run = cmd_drive_start_erase,
		.check = cmd_drive_check_erase,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_STARTS_SERVICE,
		.task = RCL_TASK_ERASE,
		.summary = "erase drives: NVMe drives erase themselves (sanitize or format) by the strongest method they have unless one is named; a soft controller overwrites an unconfigured good drive in its controller process (destroys data)",
		.example = "raidcli /c0/e252/s4 start erase crypto",
		.opts =
			{
				{.name = "simple",
				 .type = OPT_FLAG,
				 .help = "soft: one pass of patternA (the default)"},
				{.name = "normal",
				 .type = OPT_FLAG,
				 .help = "soft: three passes: patternA, patternB, patternA"},
				{.name = "thorough",
				 .type = OPT_FLAG,
				 .help = "soft: nine passes: the normal three, three times"},
				{.name = "patterna",
				 .type = OPT_STRING,
				 .help = "soft: the byte of the passes that end on it, as 8 binary digits (default 00000000: the drive reads as zeros)"},
				{.name = "patternb",
				 .type = OPT_STRING,
				 .help = "soft: the byte of the middle pass of three, as 8 binary digits (default 11111111)"},
				{.name = "crypto",
				 .type = OPT_FLAG,
				 .help = "sanitize by changing the media encryption key"},
				{.name = "blockerase",
				 .type = OPT_FLAG,
				 .help = "sanitize by a block erase of the whole medium"},
				{.name = "overwrite",
				 .type = OPT_FLAG,
				 .help = "sanitize by one overwrite pass of zeroes"},
				{.name = "format",
				 .type = OPT_FLAG,
				 .help = "format the drive's namespace with a user data erase"},
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "erase a drive that holds a file system or partition table"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "stop erase",
		.run = cmd_drive_stop_erase,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_ERASE,
		.summary = "stop erases a soft controller runs (what is overwritten stays overwritten)",
		.example = "raidcli /c0/e252/s4 stop erase",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "start initialization",
		.run = cmd_drive_start_init,
		.check = cmd_drive_check_init,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_STARTS_SERVICE,
		.task = RCL_TASK_DRIVE_INIT,
		.summary = "write zeros over unconfigured good drives in the controller process (destroys data)",
		.example = "raidcli /c0/e252/s4 start initialization",
		.opts =
			{
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "initialize a drive that holds a file system or partition table"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "stop initialization",
		.run = cmd_drive_stop_init,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_DRIVE_INIT,
		.summary = "stop initializations (what is zeroed stays zeroed)",
		.example = "raidcli /c0/e252/s4 stop initialization",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "set jbod",
		.run = cmd_drive_set_jbod,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "expose unconfigured good drives to the host as they are (JBOD; needs jbod=on)",
		.example = "raidcli /c0/e252/s4 set jbod",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "set good",
		.run = cmd_drive_set_good,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "make JBOD drives (their data kept) or failed members (UBad) unconfigured good",
		.example = "raidcli /c0/e252/s4 set good",
		.opts =
			{
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "make a failed member (UBad) unconfigured good, leaving its place in the group missing; erase a UBad drive raidcli cannot read"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "set offline",
		.run = cmd_drive_set_offline,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "take members offline: no I/O goes to them, their VDs run degraded",
		.example = "raidcli /c0/e252/s1 set offline",
		.opts =
			{
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "even if it takes a VD offline (a RAID0 member, the last mirror)"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "set online",
		.run = cmd_drive_set_online,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "bring offline members back as they are (no rebuild)",
		.example = "raidcli /c0/e252/s1 set online",
		.opts =
			{
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "also a failed (UBad) member: rebuilt from the others, or taken back as it is where its VDs cannot do without it"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "set missing",
		.run = cmd_drive_set_missing,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "mark offline members missing: the drive becomes unconfigured, its place waits for a replacement",
		.example = "raidcli /c0/e252/s1 set missing",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "insert",
		.run = cmd_drive_insert,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_INSERTS_DRIVE,
		.summary = "put an unconfigured good drive in a drive group's missing row (it joins offline: start its rebuild)",
		.example = "raidcli /c0/e252/s3 insert dg=0 array=0 row=1",
		.opts =
			{
				{.name = "dg", .type = OPT_UINT, .max = RCL_MAX_DGS - 1,
				 .help = "the drive group", .required = true},
				{.name = "array", .type = OPT_UINT, .max = RCL_MAX_SPANS - 1,
				 .help = "the array (span) of the group", .required = true},
				{.name = "row", .type = OPT_UINT, .max = RCL_MAX_DRIVES_PER_SPAN - 1,
				 .help = "the missing row of the array", .required = true},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "start rebuild",
		.run = cmd_drive_start_rebuild,
		.check = cmd_drive_check_rebuild,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_STARTS_SERVICE,
		.task = RCL_TASK_REBUILD,
		.summary = "start (again) the rebuild of drives in the Rbld state, from where it stopped",
		.example = "raidcli /c0/e252/s3 start rebuild",
		.opts =
			{
				OPT_WAIT,
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "rebuild a VD that is both degraded and not consistent or not resynced after a crash"},
			},
	},
	{
		.object = OBJ_DRIVE,
		.verb = "stop rebuild",
		.run = cmd_drive_stop_rebuild,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_REBUILD,
		.summary = "stop rebuilds (the drive stays Rbld; start rebuild goes on from where it stopped)",
		.example = "raidcli /c0/e252/s3 stop rebuild",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "pause rebuild",
		.run = cmd_drive_pause_rebuild,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_REBUILD,
		.summary = "pause rebuilds in progress",
		.example = "raidcli /c0/e252/s3 pause rebuild",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "resume rebuild",
		.run = cmd_drive_resume_rebuild,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_REBUILD,
		.summary = "resume paused rebuilds",
		.example = "raidcli /c0/e252/s3 resume rebuild",
	},
	{
		.object = OBJ_DRIVE,
		.verb = "show rebuild",
		.run = cmd_drive_show_rebuild,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_REBUILD,
		.summary = "show the progress of drives' rebuilds: percent, status, time left",
		.example = "raidcli /c0/e252/s3 show rebuild",
		.opts = {OPT_WAIT},
	},
	{
		.object = OBJ_VD,
		.verb = "show",
		.run = cmd_vd_show,
		.flags = CMD_PER_CTRL,
		.summary = "list virtual drives",
		.example = "raidcli /c0/vall show",
	},
	{
		.object = OBJ_VD,
		.verb = "show all",
		.run = cmd_vd_show_all,
		.flags = CMD_PER_CTRL,
		.summary = "show every detail of virtual drives: row, member drives, properties",
		.example = "raidcli /c0/v0 show all",
	},
	{
		.object = OBJ_VD,
		.verb = "delete",
		.run = cmd_vd_delete,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "delete virtual drives; a group goes with its last VD",
		.example = "raidcli /c0/v0 del",
		.opts =
			{
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "delete even if the VD holds a file system or partition table, or is exported (the export stops)"},
			},
	},
	{
		.object = OBJ_VD,
		.verb = "show expansion",
		.run = cmd_vd_show_expansion,
		.flags = CMD_PER_CTRL,
		.summary = "show how far virtual drives can grow into the free space right after them, without and with expandarray",
		.example = "raidcli /c0/vall show expansion",
	},
	{
		.object = OBJ_VD,
		.verb = "expand",
		.run = cmd_vd_expand,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "grow a virtual drive into the free space right after it on every member, its data in place",
		.example = "raidcli /c0/v0 expand size=10GB",
		.opts =
			{
				{.name = "size",
				 .type = OPT_SIZE,
				 .help = "the capacity to add (binary units, a bare number is MB), rounded up to whole MiB per member",
				 .required = true},
				{.name = "expandarray",
				 .type = OPT_FLAG,
				 .help = "first grow the drive group to the end of its smallest drive (after drives were replaced by larger ones)"},
			},
	},
	{
		.object = OBJ_VD,
		.verb = "set",
		.run = cmd_vd_set,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "change a virtual drive's name or policies (give at least one)",
		.example = "raidcli /c0/v0 set wrcache=wb name=data",
		.opts =
			{
				{.name = "name",
				 .type = OPT_STRING,
				 .help = "the new name, at most 15 printable characters"},
				{.name = "wrcache",
				 .type = OPT_ENUM,
				 .choices = grammar_write_policies,
				 .help = "write policy: write through, write back, always write back",
				 .settings = SETTING(VD_POLICY)},
				{.name = "rdcache",
				 .type = OPT_ENUM,
				 .choices = grammar_read_policies,
				 .help = "read policy: read ahead or none",
				 .settings = SETTING(VD_POLICY)},
				{.name = "accesspolicy",
				 .type = OPT_ENUM,
				 .choices = grammar_access_policies,
				 .help = "host access: read-write, read-only, blocked, or blocked and "
				         "removed from the host (no export)",
				 .settings = SETTING(VD_POLICY)},
				{.name = "pdcache",
				 .type = OPT_ENUM,
				 .choices = grammar_disk_cache_policies,
				 .help = "the members' write caches: as the drives have them, on, or off "
				         "(each member write durable before it completes)",
				 .settings = SETTING(VD_POLICY)},
				{.name = "iopolicy",
				 .type = OPT_ENUM,
				 .choices = grammar_io_policies,
				 .help = "I/O policy: direct or cached (a soft controller reads from the "
				         "members either way)",
				 .settings = SETTING(VD_POLICY)},
			},
	},
	{
		.object = OBJ_VD,
		.verb = "start export",
		.run = cmd_vd_start_export,
		.check = cmd_vd_check_export,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_STARTS_SERVICE | CMD_EXPORT,
		.summary = "serve virtual drives over NBD from the controller process, starting it if needed",
		.example = "raidcli /c0/v0 start export",
		.opts =
			{
				{.name = "socket",
				 .type = OPT_PATH,
				 .help = "the Unix socket to listen on (default: <serial>-v<N>.sock in the state directory's run/)"},
				{.name = "address",
				 .type = OPT_STRING,
				 .placeholder = "<host>:<port>",
				 .help = "listen on TCP instead (no authentication or encryption: keep it on a trusted network)"},
				{.name = "name",
				 .type = OPT_STRING,
				 .help = "the NBD export name (default: <serial>-v<N>)"},
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "serve a VD that is both degraded and not consistent or not resynced after a crash"},
			},
	},
	{
		.object = OBJ_VD,
		.verb = "stop export",
		.run = cmd_vd_stop_export,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_EXPORT,
		.summary = "stop serving virtual drives over NBD (their clients are disconnected)",
		.example = "raidcli /c0/v0 stop export",
	},
	{
		.object = OBJ_VD,
		.verb = "show export",
		.run = cmd_vd_show_export,
		.flags = CMD_PER_CTRL | CMD_EXPORT,
		.summary = "show the NBD exports of virtual drives: address, export name, state, clients",
		.example = "raidcli /c0/vall show export",
	},
	{
		.object = OBJ_VD,
		.verb = "start cc",
		.run = cmd_vd_start_cc,
		.check = cmd_vd_check_cc,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_STARTS_SERVICE,
		.task = RCL_TASK_CC,
		.summary = "start a consistency check of virtual drives in the controller process",
		.example = "raidcli /c0/v0 start cc",
		.opts =
			{
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "check a VD that is not consistent (never initialized) too"},
				{.name = "repair",
				 .type = OPT_FLAG,
				 .help = "rewrite the parity or mirror copies that differ (md's repair)"},
				OPT_WAIT,
			},
	},
	{
		.object = OBJ_VD,
		.verb = "stop cc",
		.run = cmd_vd_stop_cc,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_CC,
		.summary = "stop consistency checks",
		.example = "raidcli /c0/v0 stop cc",
	},
	{
		.object = OBJ_VD,
		.verb = "pause cc",
		.run = cmd_vd_pause_cc,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_CC,
		.summary = "pause consistency checks in progress",
		.example = "raidcli /c0/v0 pause cc",
	},
	{
		.object = OBJ_VD,
		.verb = "resume cc",
		.run = cmd_vd_resume_cc,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_CC,
		.summary = "resume paused consistency checks",
		.example = "raidcli /c0/v0 resume cc",
	},
	{
		.object = OBJ_VD,
		.verb = "show cc",
		.run = cmd_vd_show_cc,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_CC,
		.summary = "show consistency checks: progress, status, time left, mismatches found",
		.example = "raidcli /c0/vall show cc",
		.opts = {OPT_WAIT},
	},
	{
		.object = OBJ_VD,
		.verb = "start init",
		.run = cmd_vd_start_init,
		.check = cmd_vd_check_init,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_STARTS_SERVICE,
		.task = RCL_TASK_INIT,
		.summary = "initialize virtual drives in the controller process: zeros with matching parity (destroys data)",
		.example = "raidcli /c0/v0 start init full force",
		.opts =
			{
				{.name = "full",
				 .type = OPT_FLAG,
				 .help = "StorCLI's full initialization, every block written (a card's default is fast; a soft controller's init is always full)"},
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "confirm that the VD's data is destroyed"},
				OPT_WAIT,
			},
	},
	{
		.object = OBJ_VD,
		.verb = "stop init",
		.run = cmd_vd_stop_init,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_INIT,
		.summary = "stop initializations (the VD stays not consistent)",
		.example = "raidcli /c0/v0 stop init",
	},
	{
		.object = OBJ_VD,
		.verb = "show init",
		.run = cmd_vd_show_init,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_INIT,
		.summary = "show initializations: progress, status, time left",
		.example = "raidcli /c0/vall show init",
		.opts = {OPT_WAIT},
	},
	{
		.object = OBJ_VD,
		.verb = "stop bgi",
		.run = cmd_vd_stop_bgi,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_BGI,
		.summary = "stop background initializations (the VD stays not consistent)",
		.example = "raidcli /c0/v0 stop bgi",
	},
	{
		.object = OBJ_VD,
		.verb = "pause bgi",
		.run = cmd_vd_pause_bgi,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_BGI,
		.summary = "pause background initializations in progress",
		.example = "raidcli /c0/v0 pause bgi",
	},
	{
		.object = OBJ_VD,
		.verb = "resume bgi",
		.run = cmd_vd_resume_bgi,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_BGI,
		.summary = "resume paused background initializations",
		.example = "raidcli /c0/v0 resume bgi",
	},
	{
		.object = OBJ_VD,
		.verb = "show bgi",
		.run = cmd_vd_show_bgi,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_BGI,
		.summary = "show background initializations: progress, status, time left",
		.example = "raidcli /c0/vall show bgi",
		.opts = {OPT_WAIT},
	},
	{
		.object = OBJ_VD,
		.verb = "show autobgi",
		.run = cmd_vd_show_autobgi,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_BGI,
		.summary = "show whether a virtual drive's background initialization starts by itself",
		.example = "raidcli /c0/vall show autobgi",
	},
	{
		.object = OBJ_VD,
		.verb = "set autobgi",
		.run = cmd_vd_set_autobgi,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_VERB_VALUE,
		.task = RCL_TASK_BGI,
		.summary = "let a virtual drive's background initialization start by itself, or not (it then waits for start init)",
		.example = "raidcli /c0/v0 set autobgi=off",
		.opts =
			{
				{.name = "autobgi",
				 .type = OPT_ENUM,
				 .choices = on_off,
				 .help = "on (the default) or off, written set autobgi=off",
				 .required = true},
			},
	},
	{
		.object = OBJ_VD,
		.verb = "start erase",
		.run = cmd_vd_start_erase,
		.check = cmd_vd_check_erase,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_STARTS_SERVICE,
		.task = RCL_TASK_VD_ERASE,
		.summary = "erase virtual drives in the controller process: overwrite their data with patterns, parity and copies written too (destroys data)",
		.example = "raidcli /c0/v0 start erase normal patternA=01010101",
		.opts =
			{
				{.name = "simple",
				 .type = OPT_FLAG,
				 .help = "one pass of patternA (the default)"},
				{.name = "normal",
				 .type = OPT_FLAG,
				 .help = "three passes: patternA, patternB, patternA"},
				{.name = "thorough",
				 .type = OPT_FLAG,
				 .help = "nine passes: the normal three, three times"},
				{.name = "patterna",
				 .type = OPT_STRING,
				 .help = "the byte of the passes that end on it, as 8 binary digits (default 00000000: the VD reads as zeros)"},
				{.name = "patternb",
				 .type = OPT_STRING,
				 .help = "the byte of the middle pass of three, as 8 binary digits (default 11111111)"},
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "erase a VD although it is exported (its clients read the patterns)"},
				OPT_WAIT,
			},
	},
	{
		.object = OBJ_VD,
		.verb = "stop erase",
		.run = cmd_vd_stop_erase,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.task = RCL_TASK_VD_ERASE,
		.summary = "stop erases (what is overwritten stays overwritten)",
		.example = "raidcli /c0/v0 stop erase",
	},
	{
		.object = OBJ_VD,
		.verb = "show erase",
		.run = cmd_vd_show_erase,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_VD_ERASE,
		.summary = "show erases: progress over all passes, status, time left",
		.example = "raidcli /c0/vall show erase",
		.opts = {OPT_WAIT},
	},
	{
		.object = OBJ_VD,
		.verb = "start migrate",
		.run = cmd_vd_start_migrate,
		.check = cmd_vd_check_migrate,
		.flags = CMD_PER_CTRL | CMD_WRITES | CMD_STARTS_SERVICE | CMD_RAID_LEVEL,
		.task = RCL_TASK_MIGRATE,
		.summary = "migrate a virtual drive to another RAID level, or add drives to it (online capacity expansion), in the controller process",
		.example = "raidcli /c0/v0 start migrate type=raid5 option=add drives=252:3",
		.opts =
			{
				{.name = "type",
				 .type = OPT_ENUM,
				 .choices = migrate_levels,
				 .aliases = raid_level_aliases,
				 .help = "the new RAID level: raid0 (from RAID1, RAID5 or RAID6), raid5 (from RAID0, RAID1, RAID5 or RAID6) or raid6 (from RAID5 or RAID6)",
				 .required = true},
				{.name = "option",
				 .type = OPT_ENUM,
				 .choices = migrate_options,
				 .help = "add: add the drives= to the disk group; remove: take them out of it (checked as StorCLI does; a soft controller removes the last members only, keeping the data drives)"},
				{.name = "drives",
				 .type = OPT_STRING,
				 .help = "the unconfigured good drives to add, or the members to remove, as in add vd"},
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "add drives even if they hold a file system or partition table"},
				OPT_WAIT,
			},
	},
	{
		.object = OBJ_VD,
		.verb = "show migrate",
		.run = cmd_vd_show_migrate,
		.flags = CMD_PER_CTRL,
		.task = RCL_TASK_MIGRATE,
		.summary = "show migrations: progress, status, time left",
		.example = "raidcli /c0/vall show migrate",
		.opts = {OPT_WAIT},
	},
	{
		.object = OBJ_DG,
		.verb = "show",
		.run = cmd_dg_show,
		.flags = CMD_PER_CTRL,
		.summary = "show disk groups: their TOPOLOGY",
		.example = "raidcli /c0/dall show",
	},
	{
		.object = OBJ_DG,
		.verb = "show all",
		.run = cmd_dg_show_all,
		.flags = CMD_PER_CTRL,
		.summary = "show disk groups with their VDs and free space",
		.example = "raidcli /c0/d0 show all",
	},
	{
		.object = OBJ_FOREIGN,
		.verb = "show",
		.run = cmd_foreign_show,
		.flags = CMD_PER_CTRL,
		.summary = "list foreign configurations: drives another controller or mdadm configured",
		.example = "raidcli /c0/fall show",
	},
	{
		.object = OBJ_FOREIGN,
		.verb = "show all",
		.run = cmd_foreign_show_all,
		.flags = CMD_PER_CTRL,
		.summary = "show foreign configurations with their VDs and drives",
		.example = "raidcli /c0/fall show all",
	},
	{
		.object = OBJ_FOREIGN,
		.verb = "import",
		.run = cmd_foreign_import,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "adopt the foreign configurations with their VDs, data and hot spares",
		.example = "raidcli /c0/fall import",
		.opts = {OPT_BITMAP},
	},
	{
		.object = OBJ_FOREIGN,
		.verb = "import preview",
		.run = cmd_foreign_import_preview,
		.flags = CMD_PER_CTRL,
		.summary = "show what an import would adopt, and the ids it would give, writing nothing",
		.example = "raidcli /c0/fall import preview",
		.opts = {OPT_BITMAP},
	},
	{
		.object = OBJ_FOREIGN,
		.verb = "delete",
		.run = cmd_foreign_delete,
		.flags = CMD_PER_CTRL | CMD_WRITES,
		.summary = "wipe the foreign configurations' metadata; their drives become blank (data lost)",
		.example = "raidcli /c0/fall del force",
		.opts =
			{
				{.name = "force",
				 .type = OPT_FLAG,
				 .help = "confirm that the foreign VDs and their data are lost (always needed)"},
			},
	},
	BACKUP_SHOW(OBJ_BBU, "show", BBU, "bbu", "battery backup unit", "the model and state"),
	BACKUP_SHOW(OBJ_BBU, "show all", BBU, "bbu", "battery backup unit", "all that is known"),
	BACKUP_SHOW(OBJ_BBU, "show status", BBU, "bbu", "battery backup unit", "the state"),
	BACKUP_SHOW(OBJ_CV, "show", CACHEVAULT, "cv", "CacheVault", "the model and state"),
	BACKUP_SHOW(OBJ_CV, "show all", CACHEVAULT, "cv", "CacheVault", "all that is known"),
	BACKUP_SHOW(OBJ_CV, "show status", CACHEVAULT, "cv", "CacheVault", "the state"),
	BACKUP_LEARN(OBJ_BBU, BBU, "bbu", "battery backup unit"),
	BACKUP_LEARN(OBJ_CV, CACHEVAULT, "cv", "CacheVault"),
	{
		.object = OBJ_BBU, .verb = "show properties", .run = cmd_backup_show_props,
		.flags = CMD_PER_CTRL | CMD_PART, .part = RCL_PART_BBU,
		.summary = "show the battery's learn schedule: period, next learn, delay, auto-learn mode",
		.example = "raidcli /c0/bbu show properties",
	},
	{
		.object = OBJ_BBU, .verb = "set", .run = cmd_backup_set,
		.flags = CMD_PER_CTRL | CMD_PART | CMD_WRITES, .part = RCL_PART_BBU,
		.summary = "change the battery's learn schedule or mode (give at least one)",
		.example = "raidcli /c0/bbu set learnDelayInterval=24",
		.opts = {
			{.name = "learndelayinterval", .type = OPT_UINT, .max = RCL_BACKUP_LEARN_DELAY_MAX_H,
			 .help = "put the next learn cycle off by this many hours"},
			{.name = "autolearnmode", .type = OPT_UINT, .max = RCL_BACKUP_AUTO_LEARN_MAX,
			 .help = "0: learn when due, 1: never by itself, 2: only warn with an event"},
			{.name = "bbumode", .type = OPT_UINT, .max = RCL_BACKUP_BBU_MODE_MAX,
			 .help = "the battery's mode of charging and retention (the card's modes 0 to 6)"},
		},
	},
};
/* clang-format on */

const size_t cli_command_count = sizeof(cli_commands) / sizeof(cli_commands[0]);

/* A StorCLI command of part RCL_PART_<p>, with StorCLI's options unchecked. */
#define PART_FORM(obj, words, p)                                                                   \
	{                                                                                          \
		obj, words, RCL_PART_##p, RCL_TASK_NONE                                            \
	}
/* A StorCLI command of task RCL_TASK_<t> raidcli does not drive yet. */
#define TASK_FORM(obj, words, t)                                                                   \
	{                                                                                          \
		obj, words, 0, RCL_TASK_##t                                                        \
	}

/*
 * StorCLI 007.x's commands for parts and tasks no kind raidcli knows has
 * (tests/cli/storcli-forms.txt lists them all): every controller refuses
 * them in cli_check_caps(), naming the part and its kind.
 */
const struct part_form cli_part_forms[] = {
    PART_FORM(OBJ_SYSTEM, "show file", FLASH),
    PART_FORM(OBJ_CTRL, "add vd cachecade", CACHE),
    PART_FORM(OBJ_ENCL, "show phyerrorcounters", PHYS),
    PART_FORM(OBJ_ENCL, "set time", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "show eventcounters", FIRMWARE),
    PART_FORM(OBJ_CTRL, "delete eventcounters", FIRMWARE),
    PART_FORM(OBJ_CTRL, "delete securitykey", SECURITY),
    PART_FORM(OBJ_CTRL, "set securitykey", SECURITY),
    PART_FORM(OBJ_CTRL, "compare securitykey", SECURITY),
    PART_FORM(OBJ_CTRL, "set termlog", FLASH),
    PART_FORM(OBJ_CTRL, "show termlog", FLASH),
    PART_FORM(OBJ_CTRL, "delete termlog", FLASH),
    PART_FORM(OBJ_CTRL, "set sesmonitoring", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "show sesmonitoring", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "set failpdonsmarterror", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show failpdonsmarterror", FIRMWARE),
    PART_FORM(OBJ_DG, "show cachecade", CACHE),
    PART_FORM(OBJ_DG, "show mirror", FIRMWARE),
    PART_FORM(OBJ_DG, "split mirror", FIRMWARE),
    PART_FORM(OBJ_DG, "add mirror", FIRMWARE),
    PART_FORM(OBJ_VD, "set ssdcaching", CACHE),
    PART_FORM(OBJ_VD, "set hidden", FIRMWARE),
    PART_FORM(OBJ_DG, "set hidden", FIRMWARE),
    PART_FORM(OBJ_DG, "set security", SECURITY),
    PART_FORM(OBJ_CTRL, "get vpd", FLASH),
    PART_FORM(OBJ_CTRL, "start diag", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "show poh", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "start copyback", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "stop copyback", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "pause copyback", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "resume copyback", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "reset phyerrorcounters", PHYS),
    PART_FORM(OBJ_DRIVE, "reset errorcounters", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "show copyback", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "show patrolread", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "show phyerrorcounters", PHYS),
    PART_FORM(OBJ_DRIVE, "show errorcounters", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "show securitykey", SECURITY),
    PART_FORM(OBJ_DRIVE, "spinup", POWER),
    PART_FORM(OBJ_DRIVE, "spindown", POWER),
    PART_FORM(OBJ_DRIVE, "set security", SECURITY),
    PART_FORM(OBJ_VD, "set emulationtype", FIRMWARE),
    PART_FORM(OBJ_VD, "set unmap", FIRMWARE),
    PART_FORM(OBJ_VD, "show unmap", FIRMWARE),
    PART_FORM(OBJ_VD, "set cbsize", FIRMWARE),
    PART_FORM(OBJ_VD, "set hostaccess", FIRMWARE),
    PART_FORM(OBJ_VD, "set ds", FIRMWARE),
    PART_FORM(OBJ_VD, "set pi", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show ocr", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set ocr", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show sesmultipathcfg", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "set sesmultipathcfg", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "show preservedcache", CACHE),
    PART_FORM(OBJ_VD, "delete preservedcache", CACHE),
    PART_FORM(OBJ_DRIVE, "download status", FLASH),
    PART_FORM(OBJ_ENCL, "download", ENCL_MGMT),
    TASK_FORM(OBJ_DRIVE, "secureerase", ERASE),
    TASK_FORM(OBJ_DRIVE, "start sanitize", ERASE),
    TASK_FORM(OBJ_DRIVE, "show sanitize", ERASE),
    PART_FORM(OBJ_DRIVE, "show jbod", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "show jbod all", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "delete jbod", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "set bootdrive", FIRMWARE),
    PART_FORM(OBJ_VD, "set bootdrive", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show bootwithpinnedcache", CACHE),
    PART_FORM(OBJ_CTRL, "set bootwithpinnedcache", CACHE),
    PART_FORM(OBJ_CTRL, "show activityforlocate", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "set activityforlocate", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "show copyback", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set copyback", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set ldlimit", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set autoconfig", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show autoconfig", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show cachebypass", CACHE),
    PART_FORM(OBJ_CTRL, "set cachebypass", CACHE),
    PART_FORM(OBJ_CTRL, "show usefdeonlyencrypt", SECURITY),
    PART_FORM(OBJ_CTRL, "set usefdeonlyencrypt", SECURITY),
    PART_FORM(OBJ_CTRL, "show prcorrectunconfiguredareas", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set prcorrectunconfiguredareas", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show batterywarning", CACHE),
    PART_FORM(OBJ_CTRL, "set batterywarning", CACHE),
    PART_FORM(OBJ_CTRL, "show abortcconerror", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set abortcconerror", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show ncq", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show configautobalance", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set ncq", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set configautobalance", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show maintainpdfailhistory", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set maintainpdfailhistory", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show restorehotspare", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set restorehotspare", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set bios", FLASH),
    PART_FORM(OBJ_CTRL, "show bios", FLASH),
    PART_FORM(OBJ_CTRL, "show alarm", ALARM),
    PART_FORM(OBJ_CTRL, "set alarm", ALARM),
    PART_FORM(OBJ_CTRL, "show deviceorderbyfirmware", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set deviceorderbyfirmware", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show directpdmapping", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set directpdmapping", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show loadbalancemode", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set loadbalancemode", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show eghs", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set eghs", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show cacheflushint", CACHE),
    PART_FORM(OBJ_CTRL, "set cacheflushint", CACHE),
    PART_FORM(OBJ_CTRL, "show dpm", POWER),
    PART_FORM(OBJ_CTRL, "start dpm", POWER),
    PART_FORM(OBJ_CTRL, "stop dpm", POWER),
    PART_FORM(OBJ_DRIVE, "show dpmstat", POWER),
    PART_FORM(OBJ_CTRL, "delete dpmstat", POWER),
    PART_FORM(OBJ_CTRL, "show sgpioforce", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "set sgpioforce", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "set supportssdpatrolread", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show spinupdrivecount", POWER),
    PART_FORM(OBJ_CTRL, "show wbsupport", CACHE),
    PART_FORM(OBJ_CTRL, "set spinupdrivecount", POWER),
    PART_FORM(OBJ_CTRL, "show spinupdelay", POWER),
    PART_FORM(OBJ_CTRL, "set spinupdelay", POWER),
    PART_FORM(OBJ_CTRL, "show coercion", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set coercion", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show limitmaxratesata", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set limitmaxratesata", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show hddthermalpollinterval", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set hddthermalpollinterval", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show ssdthermalpollinterval", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set ssdthermalpollinterval", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show smartpollinterval", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set smartpollinterval", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show eccbucketsize", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set eccbucketsize", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show eccbucketleakrate", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set eccbucketleakrate", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show backplane", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "set backplane", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "show perfmode", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set perfmode", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show perfmodevalues", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show pi", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set pi", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show ds", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set ds", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show safeid", FLASH),
    PART_FORM(OBJ_CTRL, "show rehostinfo", FLASH),
    PART_FORM(OBJ_CTRL, "show pci", PHYS),
    PART_FORM(OBJ_CTRL, "show aso", FLASH),
    PART_FORM(OBJ_CTRL, "set aso", FLASH),
    PART_FORM(OBJ_CTRL, "set factory defaults", FLASH),
    PART_FORM(OBJ_CTRL, "download", FLASH),
    PART_FORM(OBJ_CTRL, "flushcache", CACHE),
    PART_FORM(OBJ_CTRL, "set sbr", FLASH),
    PART_FORM(OBJ_PHY, "show", PHYS),
    PART_FORM(OBJ_PHY, "show phyerrorcounters", PHYS),
    PART_FORM(OBJ_PHY, "show phyevents", PHYS),
    PART_FORM(OBJ_PHY, "show all", PHYS),
    PART_FORM(OBJ_LANE, "show", PHYS),
    PART_FORM(OBJ_CTRL, "show linkconfig", PHYS),
    PART_FORM(OBJ_CTRL, "set linkconfig", PHYS),
    PART_FORM(OBJ_PHY, "set linkspeed", PHYS),
    PART_FORM(OBJ_PHY, "set state", PHYS),
    PART_FORM(OBJ_PHY, "reset", PHYS),
    PART_FORM(OBJ_LANE, "set lanespeed", PHYS),
    PART_FORM(OBJ_BBU, "show learn", BBU),
    PART_FORM(OBJ_BBU, "show gasgauge", BBU),
    PART_FORM(OBJ_BBU, "show modes", BBU),
    PART_FORM(OBJ_CV, "show learn", CACHEVAULT),
    PART_FORM(OBJ_CTRL, "show securitykey", SECURITY),
    PART_FORM(OBJ_CTRL, "show powermonitoringinfo", POWER),
    PART_FORM(OBJ_CTRL, "show ldlimit", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show badblocks", FLASH),
    PART_FORM(OBJ_CTRL, "flasherase", FLASH),
    PART_FORM(OBJ_CTRL, "transform imr", FLASH),
    PART_FORM(OBJ_CTRL, "restart", FLASH),
    PART_FORM(OBJ_VD, "show bbmt", FLASH),
    PART_FORM(OBJ_VD, "delete bbmt", FLASH),
    PART_FORM(OBJ_CTRL, "show dequeuelog", FLASH),
    PART_FORM(OBJ_CTRL, "show maintenance", FLASH),
    PART_FORM(OBJ_CTRL, "set maintenance", FLASH),
    PART_FORM(OBJ_CTRL, "show personality", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set personality", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show profile", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set profile", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show jbodwritecache", CACHE),
    PART_FORM(OBJ_CTRL, "set jbodwritecache", CACHE),
    PART_FORM(OBJ_CTRL, "show immediateio", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show driveactivityled", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "set immediateio", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show largeiosupport", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set largeiosupport", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show unmap", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set unmap", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set driveactivityled", ENCL_MGMT),
    PART_FORM(OBJ_CTRL, "show pdfailevents", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show pdfaileventoptions", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set pdfaileventoptions", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set assemblynumber", FLASH),
    PART_FORM(OBJ_CTRL, "show alilog", FLASH),
    PART_FORM(OBJ_CTRL, "get config", FLASH),
    PART_FORM(OBJ_CTRL, "set config", FLASH),
    PART_FORM(OBJ_CTRL, "show flushwriteverify", CACHE),
    PART_FORM(OBJ_CTRL, "set flushwriteverify", CACHE),
    PART_FORM(OBJ_DG, "set transport", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show largeqd", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set largeqd", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set debug", FLASH),
    PART_FORM(OBJ_CTRL, "show assemblynumber", FLASH),
    PART_FORM(OBJ_CTRL, "set tracernumber", FLASH),
    PART_FORM(OBJ_CTRL, "show tracernumber", FLASH),
    PART_FORM(OBJ_CTRL, "show boardname", FLASH),
    PART_FORM(OBJ_CTRL, "set sasadd", PHYS),
    PART_FORM(OBJ_CTRL, "set sasaddhi", PHYS),
    PART_FORM(OBJ_CTRL, "show sasadd", PHYS),
    PART_FORM(OBJ_PHY, "compare linkspeed", PHYS),
    PART_FORM(OBJ_CTRL, "set updatevpd", FLASH),
    PART_FORM(OBJ_CTRL, "show vpd", FLASH),
    PART_FORM(OBJ_CTRL, "erase nvsram", FLASH),
    PART_FORM(OBJ_CTRL, "erase fwbackup", FLASH),
    PART_FORM(OBJ_CTRL, "erase bootservices", FLASH),
    PART_FORM(OBJ_CTRL, "erase all", FLASH),
    PART_FORM(OBJ_CTRL, "erase perconfpage", FLASH),
    PART_FORM(OBJ_CTRL, "erase mpb", FLASH),
    PART_FORM(OBJ_CTRL, "download efibios", FLASH),
    PART_FORM(OBJ_CTRL, "download cpld", FLASH),
    PART_FORM(OBJ_CTRL, "download psoc", FLASH),
    PART_FORM(OBJ_CTRL, "download bios", FLASH),
    PART_FORM(OBJ_CTRL, "download fcode", FLASH),
    PART_FORM(OBJ_CTRL, "compare bios", FLASH),
    PART_FORM(OBJ_CTRL, "compare fwprodid", FLASH),
    PART_FORM(OBJ_CTRL, "compare ssid", FLASH),
    PART_FORM(OBJ_CTRL, "compare firmware", FLASH),
    PART_FORM(OBJ_CTRL, "get bios", FLASH),
    PART_FORM(OBJ_CTRL, "get firmware", FLASH),
    PART_FORM(OBJ_CTRL, "get mpb", FLASH),
    PART_FORM(OBJ_CTRL, "get fwbackup", FLASH),
    PART_FORM(OBJ_CTRL, "get nvdata", FLASH),
    PART_FORM(OBJ_CTRL, "get flash", FLASH),
    PART_FORM(OBJ_CTRL, "set oob", FLASH),
    PART_FORM(OBJ_CTRL, "show oob", FLASH),
    PART_FORM(OBJ_CTRL, "show snapdump", FLASH),
    PART_FORM(OBJ_CTRL, "set snapdump", FLASH),
    PART_FORM(OBJ_CTRL, "get snapdump", FLASH),
    PART_FORM(OBJ_CTRL, "delete snapdump", FLASH),
    PART_FORM(OBJ_CTRL, "show htbparams", FLASH),
    PART_FORM(OBJ_CTRL, "set htbparams", FLASH),
    PART_FORM(OBJ_CTRL, "show failednvmedevices", FLASH),
    PART_FORM(OBJ_DRIVE, "show repair", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "start repair", FIRMWARE),
    PART_FORM(OBJ_DRIVE, "stop repair", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show security spdm", SECURITY),
    PART_FORM(OBJ_CTRL, "export security spdm", SECURITY),
    PART_FORM(OBJ_CTRL, "import security spdm", SECURITY),
    PART_FORM(OBJ_CTRL, "set security spdm", SECURITY),
    PART_FORM(OBJ_CTRL, "get security spdm", SECURITY),
    PART_FORM(OBJ_CTRL, "show parityreadcachebypass", CACHE),
    PART_FORM(OBJ_CTRL, "set parityreadcachebypass", CACHE),
    PART_FORM(OBJ_CTRL, "show overrideslowarraythresholds", FIRMWARE),
    PART_FORM(OBJ_CTRL, "set overrideslowarraythresholds", FIRMWARE),
    PART_FORM(OBJ_CTRL, "show temperature", SENSORS),
    PART_FORM(OBJ_CTRL, "show refclk", PHYS),
    PART_FORM(OBJ_CTRL, "set refclk", PHYS),
    PART_FORM(OBJ_CTRL, "show perst", PHYS),
    PART_FORM(OBJ_CTRL, "set perst", PHYS),
    PART_FORM(OBJ_CTRL, "db register", FLASH),
    PART_FORM(OBJ_CTRL, "db query", FLASH),
    PART_FORM(OBJ_CTRL, "db read", FLASH),
    PART_FORM(OBJ_CTRL, "db release", FLASH),
    PART_FORM(OBJ_CTRL, "db unregister", FLASH),
    PART_FORM(OBJ_CTRL, "db get", FLASH),
    PART_FORM(OBJ_CTRL, "db delete", FLASH),
    PART_FORM(OBJ_CTRL, "db set", FLASH),
};

const size_t cli_part_command_count = sizeof(cli_part_forms) / sizeof(cli_part_forms[0]);

/* cli_part_forms[] as commands, each made when first parsed. */
static struct cmd_spec part_commands[sizeof(cli_part_forms) / sizeof(cli_part_forms[0])];

const struct cmd_spec *cli_part_command(size_t i)
{
	const struct part_form *f = &cli_part_forms[i];
	struct cmd_spec *cmd = &part_commands[i];

	if (!cmd->verb)
		*cmd = (struct cmd_spec){
		    .object = f->object,
		    .verb = f->verb,
		    .run = cmd_part_absent,
		    .flags = (f->object == OBJ_SYSTEM ? 0 : CMD_PER_CTRL) |
		             (f->task ? 0 : CMD_PART) | CMD_ANY_OPTS | CMD_VERB_VALUE,
		    .part = f->part,
		    .task = f->task,
		};
	return cmd;
}

size_t cli_part_command_index(const struct cmd_spec *cmd)
{
	for (size_t i = 0; i < cli_part_command_count; i++)
		if (cmd == &part_commands[i])
			return i;
	return SIZE_MAX;
}

/* StorCLI's synonyms, each mapped to the spelling the table uses. */
static const struct {
	const char *alias;
	const char *word;
} word_aliases[] = {
    {"del", "delete"},          {"-v", "version"},        {"v", "version"},
    {"-version", "version"},    {"--version", "version"}, {"pr", "patrolread"},
    {"consistencycheck", "cc"},
};

const char *grammar_canonical_word(const char *word)
{
	for (size_t i = 0; i < sizeof(word_aliases) / sizeof(word_aliases[0]); i++)
		if (!strcasecmp(word, word_aliases[i].alias))
			return word_aliases[i].word;
	return word;
}

const char *grammar_choice(const char *const *choices, const char *value)
{
	for (size_t k = 0; choices && choices[k]; k++)
		if (!strcasecmp(value, choices[k]))
			return choices[k];
	return NULL;
}

const char *grammar_enum_value(const struct opt_spec *opt, const char *value)
{
	const char *choice = grammar_choice(opt->choices, value);

	if (choice)
		return choice;
	for (size_t k = 0; opt->aliases && opt->aliases[k]; k += 2)
		if (!strcasecmp(value, opt->aliases[k]))
			return opt->aliases[k + 1];
	return NULL;
}

const char *grammar_object_name(enum obj_kind kind)
{
	static const char *const names[] = {
	    [OBJ_SYSTEM] = "",          [OBJ_CTRL] = "/cx",     [OBJ_ENCL] = "/cx/ex",
	    [OBJ_DRIVE] = "/cx/ex/sx",  [OBJ_VD] = "/cx/vx",    [OBJ_DG] = "/cx/dx",
	    [OBJ_FOREIGN] = "/cx/fall", [OBJ_BBU] = "/cx/bbu",  [OBJ_CV] = "/cx/cv",
	    [OBJ_PHY] = "/cx/px",       [OBJ_LANE] = "/cx/lnx",
	};

	return names[kind];
}

static const char *value_placeholder(const struct opt_spec *opt)
{
	if (opt->placeholder)
		return opt->placeholder;
	switch (opt->type) {
	case OPT_UINT:
		return "<n>";
	case OPT_SIZE:
		return "<size>";
	case OPT_PATH:
		return "<path>";
	case OPT_STRING:
		return "<text>";
	case OPT_FLAG:
	case OPT_ENUM:
		break;
	}
	return "";
}

void grammar_synopsis(struct rcl_buf *sb, const struct cmd_spec *cmd, const struct rcl_caps *caps)
{
	rcl_buf_adds(sb, "raidcli");
	if (cmd->object != OBJ_SYSTEM)
		rcl_buf_addf(sb, " %s", grammar_object_name(cmd->object));
	rcl_buf_addf(sb, " %s", cmd->verb);
	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++) {
		const struct opt_spec *opt = &cmd->opts[i];

		if (!cli_offers_opt(opt, caps))
			continue;
		rcl_buf_adds(sb, opt->required ? " " : " [");
		if (opt->bare == OPT_BARE_SHOWN) {
			for (size_t k = 0; opt->choices[k]; k++)
				rcl_buf_addf(sb, "%s%s", k ? "|" : "", opt->choices[k]);
			rcl_buf_adds(sb, opt->required ? "" : "]");
			continue;
		}
		rcl_buf_adds(sb, opt->name);
		if (opt->type == OPT_ENUM) {
			const char *sep = "=";

			for (size_t k = 0; opt->choices[k]; k++)
				if (cli_offers_choice(cmd, opt, opt->choices[k], caps)) {
					rcl_buf_addf(sb, "%s%s", sep, opt->choices[k]);
					sep = "|";
				}
		} else if (opt->type != OPT_FLAG) {
			rcl_buf_addf(sb, "=%s", value_placeholder(opt));
		}
		if (!opt->required)
			rcl_buf_addch(sb, ']');
	}
}
