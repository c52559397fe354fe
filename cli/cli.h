/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the raidcli command-line program's parts share: the grammar
 * table's types, a parsed command, and the entry points of each part.
 */
#ifndef RCL_CLI_H
#define RCL_CLI_H

#include <stdio.h>

#include "raidcli.h"

/* Object kinds, named by the path that addresses them. */
enum obj_kind {
	OBJ_SYSTEM,  /* no path */
	OBJ_CTRL,    /* /cN */
	OBJ_ENCL,    /* /cN/eN */
	OBJ_DRIVE,   /* /cN/eN/sN or /cN/sN */
	OBJ_VD,      /* /cN/vN */
	OBJ_DG,      /* /cN/dN */
	OBJ_FOREIGN, /* /cN/fall */
	OBJ_BBU,     /* /cN/bbu */
	OBJ_CV,      /* /cN/cv */
	OBJ_PHY,     /* /cN/pN */
	OBJ_LANE,    /* /cN/lnN */
	OBJ_KIND_COUNT,
};

/* A selector such as "all", "3", "0-3,5". */
struct id_set {
	bool given;
	bool all;
	size_t count;
	unsigned ids[64];
};

struct obj_path {
	enum obj_kind kind;
	struct id_set ctrl, encl, slot, vd, dg, foreign, phy, lane;
	bool bbu, cv;
};

enum opt_type {
	OPT_FLAG,   /* a bare word: force */
	OPT_UINT,   /* key=N within [min, max] */
	OPT_SIZE,   /* key=100GB */
	OPT_STRING, /* key=text */
	OPT_ENUM,   /* key=one of choices */
	OPT_PATH,   /* key=/some/file */
};

/* Whether an option's value may be typed without "key=" (StorCLI's "r5", "wb"). */
enum opt_bare {
	OPT_KEYED,     /* key=value only */
	OPT_BARE_TOO,  /* also bare; help shows key=a|b */
	OPT_BARE_SHOWN /* also bare; help shows [a|b], as StorCLI documents it */
};

struct opt_spec {
	const char *name;
	enum opt_type type;
	/*
	 * OPT_ENUM: the values, NULL-terminated. OPT_SIZE: words accepted
	 * besides a size ("all").
	 */
	const char *const *choices;
	const char *const *aliases; /* OPT_ENUM: pairs {alias, choice}, NULL-terminated */
	enum opt_bare bare;         /* OPT_ENUM only */
	unsigned long min, max;     /* OPT_UINT */
	/* OPT_STRING: checks the value's own syntax ("latest=5"); NULL: any text. */
	enum rcl_status (*check)(const char *value, struct rcl_error *err);
	const char *placeholder; /* help's form of the value; NULL: by type */
	/* OPT_STRING: the value goes on in the next word, as StorCLI's "starttime=2026/12/01 03".
	 */
	bool two_words;
	const char *help;
	bool required;
	/* Bits (1u << enum rcl_setting) it sets; the caps must have them. */
	unsigned settings;
	/*
	 * The values of the command's type= it belongs to (add controller's
	 * kinds), NULL-terminated; completion offers it only after one of
	 * them, or before any type=. NULL: every type's.
	 */
	const char *const *types;
};

struct cmd_ctx;
typedef enum rcl_status (*cmd_fn)(struct cmd_ctx *c, struct rcl_error *err);

/* Flags of a grammar entry (git's RUN_SETUP style). */
enum {
	CMD_PER_CTRL = 1 << 0, /* runs once per addressed controller */
	CMD_WRITES = 1 << 1,   /* changes state: exclusive controller lock */
	/* Runs in this process even when the controller process runs (server/service.h). */
	CMD_LOCAL = 1 << 2,
	/* Starts the controller process, if the kind needs one, then runs there. */
	CMD_STARTS_SERVICE = 1 << 3,
	CMD_STOPS_SERVICE = 1 << 4, /* stops the controller process first */
	/* The last verb word may carry the value of the option of its name: "set cc=seq". */
	CMD_VERB_VALUE = 1 << 5,
	/* type= is a RAID level (strip= a strip size) the controller's caps must have. */
	CMD_RAID_LEVEL = 1 << 6,
	CMD_EXPORT = 1 << 7, /* serves a VD to the network: the caps must say exports */
	CMD_PART = 1 << 8,   /* needs the part .part: the caps must have it */
	/*
	 * Takes StorCLI's options unchecked: a command of a part no kind has yet,
	 * which every controller refuses before its options matter.
	 */
	CMD_ANY_OPTS = 1 << 9,
	CMD_PROCESS = 1 << 10,    /* concerns the controller process: the caps must need one */
	CMD_ADDS_DRIVE = 1 << 11, /* takes a drive by its path: the caps must say adds_drives */
	/*
	 * Its text is the Prometheus exposition of its samples (render-metrics.c);
	 * as a system command (no path) it runs once per controller, as /call.
	 */
	CMD_METRICS = 1 << 12,
	/*
	 * file= names where the answer goes (StorCLI's show events file=), not a
	 * file the command itself reads or writes (get telemetry file=).
	 */
	CMD_ANSWER_TO_FILE = 1 << 13,
	CMD_INSERTS_DRIVE = 1 << 14, /* fills a missing row: the caps must say inserts_drives */
};

#define CMD_MAX_OPTS 16

/**
 * struct cmd_spec - one entry of the grammar table: an object kind, the
 * verb words that follow its path, the options, and the handler.
 */
struct cmd_spec {
	enum obj_kind object;
	const char *verb; /* words, space-separated: "show all" */
	cmd_fn run;
	/*
	 * CMD_STARTS_SERVICE or CMD_STOPS_SERVICE: the refusals this process
	 * tells before it starts or stops the controller process, which
	 * changes things by itself (a start: hot spares take lost members'
	 * places, tasks resume; a stop: NBD clients are dropped): a command
	 * refused here starts and stops nothing. NULL: none. Leaves the
	 * result alone on success.
	 */
	cmd_fn check;
	unsigned flags;
	/* The task the command starts, stops or shows; the caps must have it. */
	enum rcl_task_kind task;
	/* Bits (1u << enum rcl_setting) it shows or sets; the caps must have them. */
	unsigned settings;
	enum rcl_part part; /* with CMD_PART: the part it needs */
	/* What the drive does to itself by it; the caps must have it. */
	enum rcl_drive_action action;
	const char *summary;
	const char *example;
	struct opt_spec opts[CMD_MAX_OPTS];
};

extern const struct cmd_spec cli_commands[];
extern const size_t cli_command_count;
/*
 * StorCLI's commands of parts no controller kind raidcli knows has yet
 * (/cx/bbu, show alarm, ...): they parse, so that a controller answers
 * them with the capability failure, as StorCLI does on a card without the
 * part. Not in __grammar, help or completion: no controller offers them.
 */
struct part_form {
	enum obj_kind object;
	const char *verb;
	enum rcl_part part;      /* the part it needs, or 0 for a task's */
	enum rcl_task_kind task; /* the task it is, or RCL_TASK_NONE */
};
extern const struct part_form cli_part_forms[];
extern const size_t cli_part_command_count;
/*
 * cli_part_command() - form @i of cli_part_forms[] as a command. Kept
 * apart and made only when parsed: as cmd_specs, each with its option
 * slots, they made the binary's relocated data five times larger, which
 * every command paid for in page faults at start-up.
 */
const struct cmd_spec *cli_part_command(size_t i);
/* cli_part_command_index() - @cmd's index in cli_part_forms[], or SIZE_MAX if not a part's. */
size_t cli_part_command_index(const struct cmd_spec *cmd);

/* VD policy choices, in the order of enum rcl_write/read/access/disk_cache/io_policy. */
extern const char *const grammar_write_policies[];
extern const char *const grammar_read_policies[];
extern const char *const grammar_access_policies[];
extern const char *const grammar_disk_cache_policies[];
extern const char *const grammar_io_policies[];

/* Word aliases: StorCLI treats each pair as one word. */
const char *grammar_canonical_word(const char *word);
/* grammar_choice() - the table's spelling of @value among @choices (may be NULL), or NULL. */
const char *grammar_choice(const char *const *choices, const char *value);
/* grammar_enum_value() - the choice an OPT_ENUM @opt's @value (or alias) names, or NULL. */
const char *grammar_enum_value(const struct opt_spec *opt, const char *value);
/* grammar_object_name() - "/cx/vx"-style name of an object kind for help. */
const char *grammar_object_name(enum obj_kind kind);

/**
 * struct cmd_args - a parsed command line.
 * @values:	per option of @cmd, the value given (flags: "on"), or NULL.
 * @argc, @argv: the words parsed (borrowed), forwarded as they are to a
 *		controller process.
 */
struct cmd_args {
	const struct cmd_spec *cmd;
	struct obj_path path;
	const char *values[CMD_MAX_OPTS];
	bool json;
	bool help;
	size_t help_words; /* with @help: verb words given before it */
	const char *help_verb[4];
	int argc;
	char **argv;
	char joined[64];     /* a two_words option's value, its words joined */
	char verb_token[64]; /* CMD_VERB_VALUE: the last verb word's value, as "<word>=<value>" */
};

/* The shared state of one handler call. */
struct cmd_ctx {
	struct rcl_ctx *lib;
	const struct cmd_args *args;
	struct rcl_ctrl *ctrl;  /* per-controller commands; NULL once closed */
	struct rcl_result *res; /* the result to fill */
};

/* cmd_value() - the value of option @name, or NULL if not given. */
const char *cmd_value(const struct cmd_args *args, const char *name);

/* parse.c */
/**
 * cli_parse() - turn @argv (command words, without the program name) into
 * @args. Return: RCL_OK, or RCL_INVALID_COMMAND/RCL_INVALID_PARAM with a
 * message naming the token and, where one is close, the valid spelling.
 */
enum rcl_status cli_parse(int argc, char **argv, struct cmd_args *args, struct rcl_error *err);
enum rcl_status cli_parse_path(const char *const *tokens, size_t count, struct obj_path *path,
                               struct rcl_error *err);
/*
 * cli_typed_object() - the object path as typed, its words joined
 * ("/c0/e252/s0"; "" for none), into @buf: a hint names a command the user
 * can run, where help's synopsis says "/cx/ex/sx". Return: @buf.
 */
const char *cli_typed_object(const struct cmd_args *args, char *buf, size_t size);
bool cli_is_json_word(const char *word);
bool cli_is_nolog_word(const char *word);
bool cli_is_help_word(const char *word);
/* cli_split_line() - split a shell-like line into words (quotes honoured). */
enum rcl_status cli_split_line(const char *line, int *argc, char ***argv, struct rcl_error *err);
void cli_free_words(int argc, char **argv);

/*
 * grammar_match() - the command for @kind whose verb matches the most of
 * the leading @words; *@matched says how many. NULL if none matches.
 */
const struct cmd_spec *grammar_match(enum obj_kind kind, char **words, size_t count,
                                     size_t *matched);
/*
 * grammar_next_words() - the distinct verb words that may follow @words at
 * @position in a command a controller with @caps offers (NULL: any)
 * (pointers into the table's verb strings, ending at a space).
 */
size_t grammar_next_words(enum obj_kind kind, char **words, size_t position,
                          const struct rcl_caps *caps, const char **out, size_t max);
/*
 * grammar_synopsis() - "raidcli /cx add drive path=<path>" for @cmd, into
 * @sb: the options a controller with @caps offers (NULL: all of them).
 */
void grammar_synopsis(struct rcl_buf *sb, const struct cmd_spec *cmd, const struct rcl_caps *caps);

/* suggest.c */
/* suggest_closest() - the candidate nearest @word, or NULL if none is near. */
const char *suggest_closest(const char *word, const char *const *candidates, size_t count);
/* suggest_within() - as suggest_closest(), at most @max edits away. */
const char *suggest_within(const char *word, const char *const *candidates, size_t count,
                           size_t max);

/* offer.c */
/*
 * cli_offers() - whether a controller with @caps can do @cmd (its task,
 * exports, RAID levels, settings, and one option at least if every option
 * is a setting): help and completion show only those. NULL @caps: any.
 */
bool cli_offers(const struct cmd_spec *cmd, const struct rcl_caps *caps);
/* cli_offers_opt() - whether a controller with @caps can set @opt (NULL: any). */
bool cli_offers_opt(const struct opt_spec *opt, const struct rcl_caps *caps);
/* cli_offers_choice() - whether it takes @choice of @cmd's @opt: its RAID levels only. */
bool cli_offers_choice(const struct cmd_spec *cmd, const struct opt_spec *opt, const char *choice,
                       const struct rcl_caps *caps);
/*
 * cli_path_caps() - what the controllers @path addresses can do between
 * them, into @buf: a command one of them can do is offered. Return: @buf,
 * or NULL if @path addresses none (the system, or none registered).
 */
const struct rcl_caps *cli_path_caps(const struct obj_path *path, struct rcl_caps *buf);
/*
 * cli_object_is_backup() - whether @kind is /cx/bbu or /cx/cv, whose caps
 * are rcl_ctx_ctrl_backup_caps(): the card is asked which it has.
 */
bool cli_object_is_backup(enum obj_kind kind);

/* run.c */
/**
 * cli_check_caps() - refuse, naming the controller's kind, what @caps rule
 * out for @args: a task the kind does not run, exports it does not serve,
 * a setting it does not have, a RAID level or strip size it does not
 * make. Checked before anything starts, so a refused command starts no
 * controller process, and again, but for its parts, with the caps the
 * open controller's load narrowed (a card's firmware).
 * Return: RCL_OK or RCL_UNSUPPORTED (rcl_unsupported()).
 */
enum rcl_status cli_check_caps(const struct cmd_args *args, const struct rcl_caps *caps,
                               struct rcl_error *err);
/* cli_starts_process() - whether @cmd starts a controller process for a kind of @caps. */
bool cli_starts_process(const struct cmd_spec *cmd, const struct rcl_caps *caps);
/**
 * cli_run() - execute a parsed command into @reply (one result per
 * controller addressed); with @rs, each controller's result is printed
 * as soon as it is in (render_flush()). Return: the first failure's status.
 */
struct render_stream;
enum rcl_status cli_run(const struct cmd_args *args, struct rcl_reply *reply,
                        struct render_stream *rs);
/* cli_reply_error() - a one-result reply carrying a parse or setup error. */
void cli_reply_error(struct rcl_reply *reply, const struct obj_path *path,
                     const struct rcl_error *err);

/* wait.c */
/*
 * cli_wait() - after @args, a command with the "wait" flag, ran into @reply:
 * follow its task until it ends (see wait.c); @reply becomes the last "show"
 * of it. Return: that reply's status.
 */
enum rcl_status cli_wait(const struct cmd_args *args, struct rcl_reply *reply);

/* render.c: a reply as text or StorCLI JSON (render-text.c, render-json.c) */
void render_text(FILE *out, const struct rcl_reply *reply, bool color);
void render_json(FILE *out, const struct rcl_reply *reply);

/*
 * struct render_stream - a reply printed as its results come, in order:
 * a command over a thousand BMCs' controllers shows each result as soon as
 * its controller answered and frees it, rather than holding them all (150
 * MiB for "show all") to print at the end.
 * @printed:	results printed so far; @next: the reply's first one not yet.
 */
struct render_stream {
	FILE *out;
	bool json, color;
	size_t printed, next;
};
/* render_flush() - print @reply's results from @rs->next on, and free what each showed. */
void render_flush(struct render_stream *rs, struct rcl_reply *reply);
/* render_end() - what follows the last result (JSON's closing brackets). */
void render_end(struct render_stream *rs);
/*
 * render_reply() - the end of a command: @reply as JSON or text (what @rs
 * has not printed yet), or (@metrics: a CMD_METRICS command) as the
 * metrics exposition; that one has no room for a failure of the command
 * itself (no controller's), which goes to stderr, as does running out of
 * memory with no result to say so. Return: the exit status.
 */
int render_reply(struct rcl_reply *reply, struct render_stream *rs, bool metrics);
/* render_command_failed() - whether @reply is the command's failure, not a controller's. */
bool render_command_failed(const struct rcl_reply *reply);

/* The parts render.c puts together: result @index (0: the first) of a reply, its end. */
void render_text_result(FILE *out, const struct rcl_result *res, bool color, size_t index);
void render_json_result(FILE *out, const struct rcl_result *res, size_t index);
void render_json_end(FILE *out, size_t printed);

/* The metric families of "show metrics", in the order the exposition lists them. */
enum metric_id {
	/* render-metrics.c's own: the program, and each result's outcome */
	METRIC_BUILD_INFO,
	METRIC_SCRAPE_SUCCESS,
	METRIC_SCRAPE_DURATION,
	METRIC_SCRAPE_ERROR,
	/* cmd-metrics.c's: what a controller holds (each target's task families in this order) */
	METRIC_CTRL_INFO,
	METRIC_CTRL_HEALTHY,
	METRIC_CTRL_TEMPERATURE,
	METRIC_CTRL_BACKUP_HEALTHY,
	METRIC_CTRL_TASK_STATE,
	METRIC_CTRL_TASK_PROGRESS,
	METRIC_CTRL_TASK_REMAINING,
	METRIC_VD_TASK_STATE,
	METRIC_VD_TASK_PROGRESS,
	METRIC_VD_TASK_REMAINING,
	METRIC_DRIVE_TASK_STATE,
	METRIC_DRIVE_TASK_PROGRESS,
	METRIC_DRIVE_TASK_REMAINING,
	METRIC_VD_INFO,
	METRIC_VD_STATE,
	METRIC_VD_HEALTHY,
	METRIC_VD_SIZE,
	METRIC_DRIVE_INFO,
	METRIC_DRIVE_STATE,
	METRIC_DRIVE_HEALTHY,
	METRIC_DRIVE_SIZE,
	METRIC_DRIVE_TEMPERATURE,
	METRIC_DRIVE_MEDIA_ERRORS,
	METRIC_DRIVE_OTHER_ERRORS,
	METRIC_DRIVE_PREDICTIVE_FAILURES,
	METRIC_DRIVE_SMART_ALERT,
	METRIC_COUNT,
};

/* struct metric_family - a metric's name (raidcli_ prefix, unit suffix), TYPE and HELP. */
struct metric_family {
	const char *name;
	const char *type;
	const char *help;
};
extern const struct metric_family metric_families[METRIC_COUNT];

/*
 * render_metrics() - @reply's samples (each result's "Metrics" rows) as
 * Prometheus text exposition format 0.0.4, which node_exporter's textfile
 * collector reads: each family once, HELP and TYPE first, then each
 * result's outcome (raidcli_scrape_*), a failure's message as a comment.
 */
void render_metrics(FILE *out, const struct rcl_reply *reply);
/*
 * render_metrics_file() - render_metrics() into @path, atomically: a
 * temporary file in its folder (not named *.prom, so a textfile collector
 * never reads it half-written), mode 0644, synced, then renamed over it.
 * Return: RCL_OK; RCL_SYSTEM (naming the file), leaving @path as it was.
 */
enum rcl_status render_metrics_file(const char *path, const struct rcl_reply *reply,
                                    struct rcl_error *err);
/*
 * render_add_escaped() - append @s to @sb as text shows a value: control
 * characters, DEL, C1 and bytes that are not UTF-8 as C escapes.
 */
void render_add_escaped(struct rcl_buf *sb, const char *s);
/*
 * render_utf8_len() - the length of the UTF-8 sequence at @s (a byte >= 0x80)
 * and in *@valid whether it is one whole character; if not, the length of its
 * maximal ill-formed part, which Unicode (and Python) replace with one U+FFFD.
 */
size_t render_utf8_len(const char *s, bool *valid);
/* render_header_os() - "Linux 6.1.0-21-amd64", as StorCLI's header shows it. */
const char *render_os_name(void);

/* help.c */
/*
 * cli_help() - print help for the object and words in @args, the commands
 * and options a controller with @caps offers (NULL: all). Return: false if
 * none matched.
 */
bool cli_help(FILE *out, const struct cmd_args *args, const struct rcl_caps *caps);

/* complete.c */
/**
 * cli_complete() - candidate words for the last (possibly empty) word of
 * @line, from the grammar and the live configuration. The caller frees
 * each string and the array with rcl_free().
 */
size_t cli_complete(const char *line, char ***out);
/* cli_complete_caps() - as cli_complete(), for @caps rather than the path's controllers. */
size_t cli_complete_caps(const char *line, const struct rcl_caps *caps, char ***out);
void cli_completion_script(FILE *out, const char *shell);

/* askpass.c */
/*
 * cli_askpass() - the library's rcl_askpass_fn: the answer kept for @user
 * at @realm, else asked on /dev/tty with echo off, and kept.
 */
bool cli_askpass(void *arg, const char *user, const char *realm, char *buf, size_t size,
                 struct rcl_error *err);
/*
 * cli_askpass_settle() - after a command: keep the answers it was given
 * (@keep_fresh: it succeeded), or wipe them (perhaps mistyped).
 */
void cli_askpass_settle(bool keep_fresh);
/* cli_askpass_forget() - wipe every answer kept: the session is over. */
void cli_askpass_forget(void);

/* repl.c */
int cli_repl(void);
int cli_batch(FILE *in);

/* main.c */
/* cli_execute() - parse, run and render one command; return its exit status. */
int cli_execute(int argc, char **argv);

/* handlers (cmd-*.c) */
enum rcl_status cmd_system_show(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_system_show_all(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_system_ctrlcount(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_system_version(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_add_controller(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_all(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_delete(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_check_delete(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_set(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_set_compat(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_rate(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_patrol(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_cc(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_set_cc(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_start_patrol(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_check_patrol(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_stop_patrol(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_pause_patrol(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_resume_patrol(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_add_drive(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_events(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_delete_events(struct cmd_ctx *c, struct rcl_error *err);
/* cmd-ctrl.c: value checks for starttime= ("2026/12/01 03") and excludevd= ("0-2,5", "none"). */
enum rcl_status ctrl_check_starttime(const char *value, struct rcl_error *err);
enum rcl_status ctrl_check_vd_set(const char *value, struct rcl_error *err);
/* cmd-events.c: value checks for "show events" type= and filter=. */
enum rcl_status events_check_type(const char *value, struct rcl_error *err);
enum rcl_status events_check_filter(const char *value, struct rcl_error *err);
enum rcl_status cmd_encl_show(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_show(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_show_all(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_show_smart(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_delete(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_add_hotspare(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_delete_hotspare(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_start_locate(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_stop_locate(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_set_jbod(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_set_good(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_set_online(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_set_offline(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_set_missing(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_start_rebuild(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_check_rebuild(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_stop_rebuild(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_pause_rebuild(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_resume_rebuild(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_show_rebuild(struct cmd_ctx *c, struct rcl_error *err);
/*
 * cmd_drive_each() (cmd-drive.c) - run @op on each drive the path selects,
 * stopping at the first failure, which the result names; on success the
 * result says @done ("Format Drive Succeeded.").
 */
typedef enum rcl_status drive_op(struct cmd_ctx *c, const struct rcl_drive_ref *ref,
                                 struct rcl_error *err);
enum rcl_status cmd_drive_each(struct cmd_ctx *c, drive_op *op, const char *done,
                               struct rcl_error *err);
/* cmd-device.c: what a drive does to itself (lib/device.c). */
enum rcl_status cmd_drive_format(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_download(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_get_telemetry(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_attach_namespace(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_detach_namespace(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_add_namespace(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_delete_namespace(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_start_diag(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_stop_diag(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_show_diag(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_start_erase(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_check_erase(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_stop_erase(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_show_erase(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_start_init(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_check_init(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_stop_init(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_show_init(struct cmd_ctx *c, struct rcl_error *err);
/*
 * cmd_erase_how() (cmd-export.c) - the overwrite "start erase" asks for:
 * its mode (RCL_ERASE_AUTO when none is named), patternA= and patternB=.
 */
enum rcl_status cmd_erase_how(struct cmd_ctx *c, struct rcl_erase *how, struct rcl_error *err);
enum rcl_status cmd_ctrl_add_vd(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_add_vd_each(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_delete_config(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show_expansion(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_expand(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show_all(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_delete(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_set(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_start_export(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_check_export(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_stop_export(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show_export(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_start_cc(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_check_cc(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_stop_cc(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_pause_cc(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_resume_cc(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show_cc(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_start_init(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_check_init(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_stop_init(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show_init(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_stop_bgi(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_pause_bgi(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_resume_bgi(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show_bgi(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show_autobgi(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_set_autobgi(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_start_erase(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_check_erase(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_stop_erase(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show_erase(struct cmd_ctx *c, struct rcl_error *err);
/* The drives of a drives= or spares= list, resolved against the controller. */
#define DRIVE_LIST_MAX (RCL_MAX_SPANS * RCL_MAX_DRIVES_PER_SPAN)
struct drive_list {
	struct rcl_drive_ref refs[DRIVE_LIST_MAX];
	size_t count;
};

/*
 * parse_drive_list() - option @key's @text ("252:0-3,5", bare slots) into
 * @list (empty for NULL @text). Return: RCL_OK, RCL_INVALID_PARAM (its
 * syntax), RCL_NOT_FOUND (a bare slot no drive is in).
 */
enum rcl_status parse_drive_list(const struct rcl_ctrl *ctrl, const char *key, const char *text,
                                 struct drive_list *list, struct rcl_error *err);

enum rcl_status cmd_vd_start_migrate(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_check_migrate(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_vd_show_migrate(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_serve(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_service(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_stop_service(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_dg_show(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_dg_show_all(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_foreign_show(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_foreign_show_all(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_foreign_import(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_foreign_import_preview(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_foreign_delete(struct cmd_ctx *c, struct rcl_error *err);
/* cmd-props.c */
enum rcl_status cmd_ctrl_show_time(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_set_time(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_jbod(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_autorebuild(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_foreignautoimport(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_set_autorebuild(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_set_foreignautoimport(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_eventloginfo(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_bootdrive(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_ctrl_show_freespace(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_backup_show(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_backup_start_learn(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_backup_show_props(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_backup_set(struct cmd_ctx *c, struct rcl_error *err);
enum rcl_status cmd_drive_insert(struct cmd_ctx *c, struct rcl_error *err);
/* cmd-metrics.c */
enum rcl_status cmd_ctrl_show_metrics(struct cmd_ctx *c, struct rcl_error *err);
/* vds_not_optimal() (cmd-system.c) - how many of @ctrl's VDs are not optimal (show's VNOpt). */
long long vds_not_optimal(const struct rcl_ctrl *ctrl);
enum rcl_status cmd_part_absent(struct cmd_ctx *c, struct rcl_error *err);

/* cmd-common.c: rows and sections shared by several handlers */
void add_pd_row(struct rcl_node *table, const struct rcl_drive *drive);
void add_pd_list(struct rcl_node *data, const struct rcl_ctrl *ctrl, const char *key);
/* add_enclosure_rows() - enclosure rows into @table; @path filters (NULL: all). */
void add_enclosure_rows(struct rcl_node *table, const struct rcl_ctrl *ctrl,
                        const struct obj_path *path);
/* drive_in_group() - whether @drive is a member or dedicated spare of a group. */
bool drive_in_group(const struct rcl_drive *drive);
/*
 * add_vd_row() - one VD LIST row ("DG/VD", "TYPE", ... "Name") for @vd of
 * @ctrl, or of a foreign configuration (@ctrl NULL).
 */
void add_vd_row(struct rcl_node *table, const struct rcl_ctrl *ctrl, const struct rcl_vd *vd);
/*
 * note_held_vd() - under a table listing VD @vd of @ctrl, the footnote that
 * it waits for force (rcl_ctrl_export_waits_for_force(): it is neither
 * served nor rebuilt), if it does: its row cannot say so.
 */
void note_held_vd(struct rcl_node *table, const struct rcl_ctrl *ctrl, unsigned vd);
/*
 * add_export_list() - "Export LIST" in @data: a row per export of the VDs
 * @vds selects (NULL: all), added only when there is one; *@rows: how many.
 */
enum rcl_status add_export_list(struct rcl_node *data, struct rcl_ctrl *ctrl,
                                const struct id_set *vds, size_t *rows, struct rcl_error *err);
/* add_footnote() - append a line to @table's legend (text only): why a row is as it is. */
void add_footnote(struct rcl_node *table, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * add_vd_list() - @key: VD LIST rows of the groups @groups selects (NULL:
 * all), with the legend; nothing when there are none.
 */
void add_vd_list(struct rcl_node *data, const struct rcl_ctrl *ctrl, const char *key,
                 const struct id_set *groups);
/* read_vd_options() - the options of "add vd" that need no drive lookup, into @p; @caps has the
 * defaults. */
enum rcl_status read_vd_options(const struct cmd_args *a, const struct rcl_caps *caps,
                                struct rcl_vd_params *p, struct rcl_error *err);
/* check_named() - fail with the first VD (or, with @dg, DG) the path names that is absent. */
enum rcl_status check_named(const struct cmd_ctx *c, bool dg, struct rcl_error *err);
/* selected_vds() - the ids of the VDs the path selects that exist, into @ids; their count. */
size_t selected_vds(const struct cmd_ctx *c, unsigned *ids);
/*
 * ctrl_ports() - the controller's back-end ports (System Overview's
 * "Ports", HwCfg's "Backend Port Count"): a card's own count, else the
 * drives it takes.
 */
unsigned ctrl_ports(const struct rcl_ctrl_info *info);

/*
 * add_free_space() - FREE SPACE DETAILS: a row for each free extent of the
 * groups @groups selects (NULL: all). Return: the table, or NULL (none
 * has free space: no table added).
 */
struct rcl_node *add_free_space(struct rcl_node *data, const struct rcl_ctrl *ctrl,
                                const struct id_set *groups);

/* add_topology() - TOPOLOGY rows of the groups @groups selects (NULL: all). */
void add_topology(struct rcl_node *data, const struct rcl_ctrl *ctrl, const struct id_set *groups);
/* id_in() - whether @id is selected by @set (not given, or "all", selects all). */
bool id_in(const struct id_set *set, unsigned id);
/* drive_selected() - whether @drive is addressed by @path. */
bool drive_selected(const struct obj_path *path, const struct rcl_drive *drive);
/*
 * backup_state() - a BBU or CacheVault column's word for @caps' cache
 * backup: the state @info reports ("Optimal"), "Unknown" when it reports
 * none, @absent ("NA", "N/A": StorCLI spells it both ways) when it has none.
 */
const char *backup_state(const struct rcl_caps *caps, const struct rcl_ctrl_info *info,
                         const char *absent);
/* format_time() - "%m/%d/%Y, %H:%M:%S" of @t in local time, as StorCLI. */
void format_time(char *out, size_t size, time_t t);

/* schedule-rows.c: "Controller Properties" rows of task settings and schedules */
/* ctrl_property_row() - a row {"Ctrl_Prop": @prop} of @table, for its "Value". */
struct rcl_node *ctrl_property_row(struct rcl_node *table, const char *prop);
/* rate_option() - the option of rate setting @rate: "rebuildrate", "ccrate", ... */
const char *rate_option(enum rcl_setting rate);
/* add_rate_row() - the row of rate @setting of @s, or of RCL_SETTING_REBUILD_PRIORITY. */
void add_rate_row(struct rcl_node *table, const struct rcl_ctrl_settings *s,
                  enum rcl_setting setting);
/* format_vd_set() - "None", or the VDs of bit set @set as StorCLI lists them ("0,2-3"). */
void format_vd_set(uint64_t set, char *out, size_t size);

extern const char *const legend_pd_list;
extern const char *const legend_enclosure;
extern const char *const legend_vd_list;
extern const char *const legend_topology;

/* task-rows.c: StorCLI's rows of background tasks, from rcl_ctrl_task_progress() */
/* tasks_time_left() - StorCLI's "12 Hours 54 Minutes" for @seconds, or "-" when negative. */
void tasks_time_left(char *out, size_t size, double seconds);
/* ctrl_prop_row() - a {"Ctrl_Prop": @name, "Value": @value} row of @table ("show patrolread"). */
void ctrl_prop_row(struct rcl_node *table, const char *name, const char *value);
/*
 * rebuild_row() - a row of "show rebuild" for drive @ref into @table:
 * Drive-ID, Progress%, Status, Estimated Time Left. A rebuild held at a VD
 * degraded and dirty is "Waiting for force", and a footnote under @table
 * says why and what goes on. A progress the controller cannot tell
 * (rcl_ctrl_task_progress() failed) adds no row: its failure.
 */
enum rcl_status rebuild_row(struct rcl_node *table, const struct rcl_ctrl *ctrl,
                            const struct rcl_drive_ref *ref, struct rcl_error *err);
/*
 * drive_task_row() - a row of a drive's own task @kind ("show diag") for
 * drive @ref into @table: Drive-ID, Progress%, Status, Estimated Time Left.
 */
void drive_task_row(struct rcl_node *table, const struct rcl_ctrl *ctrl,
                    const struct rcl_drive_ref *ref, enum rcl_task_kind kind);
/*
 * vd_task_row() - a row of "show cc|init|bgi|migrate" (@kind) for VD @vd
 * into @table: StorCLI's VD, Operation, Progress%, Status, Estimated Time
 * Left; for a check, raidcli's Mismatches (512-byte sectors) and Repair of
 * this run or the last. As rebuild_row(), a progress not told fails.
 */
enum rcl_status vd_task_row(struct rcl_node *table, const struct rcl_ctrl *ctrl, unsigned vd,
                            enum rcl_task_kind kind, struct rcl_error *err);
/*
 * cli_vd_dirty() - whether @vd's parity or copies may disagree (a BGI's
 * progress, rcl_task_progress.dirty): degraded, such a VD may return wrong
 * data for a lost member's strips (md's write hole).
 */
bool cli_vd_dirty(const struct rcl_ctrl *ctrl, const struct rcl_vd *vd);
/* vd_migrating() - whether a migration of VD @vd is under way, running or not. */
bool vd_migrating(const struct rcl_ctrl *ctrl, unsigned vd);
/*
 * describe_vd_tasks(), describe_drive_tasks() - what runs on @vd, or on
 * @drive, into @out as "Consistency Check (42%)", several joined by ", "
 * ("Rebuild (10%, paused)", "Rebuild (40%, waiting for force)"), or
 * "None". The VD's: BGI, init, check, the rebuild of one of its members,
 * migration, patrol read; the drive's: its rebuild, the patrol read of a
 * VD of its group.
 */
void describe_vd_tasks(const struct rcl_ctrl *ctrl, const struct rcl_vd *vd, struct rcl_buf *out);
void describe_drive_tasks(const struct rcl_ctrl *ctrl, const struct rcl_drive *drive,
                          struct rcl_buf *out);

#endif /* RCL_CLI_H */
