// SPDX-License-Identifier: MIT
/*
 * test-parse.c - the command grammar as a user types it: object paths
 * glued or apart, 'all' in any case, lists and ranges, J and nolog
 * anywhere after the path, aliases, option types and ranges, and the
 * messages (with their "did you mean") for what does not parse. Also how
 * cli_split_line() cuts a shell-like line into words.
 */
#include <string.h>

#include "cli.h"
#include "unit.h"

/* The words of the last parse: the parsed values point into them. */
static char **words;
static int nwords;
static struct cmd_args args;
static struct rcl_error err;

static void free_words(void)
{
	cli_free_words(nwords, words);
	words = NULL;
	nwords = 0;
}

static enum rcl_status parse(const char *line)
{
	free_words();
	memset(&err, 0, sizeof(err));
	ck_assert_msg(!cli_split_line(line, &nwords, &words, &err), "split '%s': %s", line,
	              err.msg);
	return cli_parse(nwords, words, &args, &err);
}

/* Parse @line, which must succeed and run the command with verb @verb. */
static void parses_as(const char *line, enum obj_kind kind, const char *verb)
{
	ck_assert_msg(parse(line) == RCL_OK, "'%s' refused: %s", line, err.msg);
	ck_assert_msg(args.cmd, "'%s' gave no command", line);
	ck_assert_int_eq(args.path.kind, kind);
	ck_assert_msg(!strcmp(args.cmd->verb, verb), "'%s' ran '%s', not '%s'", line,
	              args.cmd->verb, verb);
	ck_assert_int_eq(err.status, RCL_OK); /* untouched on success */
}

/* Parse @line, which must fail with @status and a message containing @msg. */
static void refused(const char *line, enum rcl_status status, const char *msg)
{
	enum rcl_status st = parse(line);

	ck_assert_msg(st == status, "'%s': status %d, want %d (%s)", line, st, status, err.msg);
	ck_assert_int_eq(err.status, status);
	ck_assert_msg(strstr(err.msg, msg), "'%s': message '%s' lacks '%s'", line, err.msg, msg);
}

static void teardown(void)
{
	free_words();
}

static bool same_set(const struct id_set *a, const struct id_set *b)
{
	return a->given == b->given && a->all == b->all && a->count == b->count &&
	       !memcmp(a->ids, b->ids, a->count * sizeof(a->ids[0]));
}

static bool same_path(const struct obj_path *a, const struct obj_path *b)
{
	return a->kind == b->kind && same_set(&a->ctrl, &b->ctrl) && same_set(&a->encl, &b->encl) &&
	       same_set(&a->slot, &b->slot) && same_set(&a->vd, &b->vd) && same_set(&a->dg, &b->dg);
}

/* Two lines must parse to the same command, path and option values. */
static void same_parse(const char *a, const char *b)
{
	struct cmd_args first;

	ck_assert_msg(parse(a) == RCL_OK, "'%s' refused: %s", a, err.msg);
	first = args;
	/* Keep @a's words alive while @b is parsed: values point into them. */
	{
		char **keep = words;
		int nkeep = nwords;

		words = NULL;
		nwords = 0;
		ck_assert_msg(parse(b) == RCL_OK, "'%s' refused: %s", b, err.msg);
		ck_assert_msg(first.cmd == args.cmd, "'%s' and '%s' run different commands", a, b);
		ck_assert_msg(same_path(&first.path, &args.path),
		              "'%s' and '%s' address differently", a, b);
		ck_assert_int_eq(first.json, args.json);
		for (size_t i = 0; i < CMD_MAX_OPTS; i++)
			ck_assert_msg(
			    !first.values[i] == !args.values[i] &&
			        (!first.values[i] || !strcmp(first.values[i], args.values[i])),
			    "'%s' and '%s' differ in option %zu", a, b, i);
		cli_free_words(nkeep, keep);
	}
}

START_TEST(test_glued_and_spaced_paths_are_the_same)
{
	same_parse("/c0/e252/s0 show", "/c0 /e252 /s0 show");
	same_parse("/c0/eall/sall show all", "/c0 /eall /sall show all");
	same_parse("/c0/e252/s0-3,5 show", "/c0 /e252/s0-3,5 show");
	same_parse("/c1/vall show", "/c1 /vall show");
	same_parse("/c0/dall show all", "/c0 /dall show all");
	same_parse("/c0/s2 del", "/c0 /s2 del");
	/* Doubled and trailing slashes change nothing. */
	same_parse("/c0/e252/s0 show", "//c0//e252/s0/ show");
}
END_TEST

START_TEST(test_all_in_any_case)
{
	static const char *const lines[] = {"/call/eall/sall show", "/CALL/EALL/SALL show",
	                                    "/cAll/eAlL/SaLl show", "/Call /Eall /sALL show"};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		parses_as(lines[i], OBJ_DRIVE, "show");
		ck_assert(args.path.ctrl.all && args.path.encl.all && args.path.slot.all);
		ck_assert_uint_eq(args.path.ctrl.count, 0);
	}
	parses_as("/C0 SHOW ALL", OBJ_CTRL, "show all");
	ck_assert_uint_eq(args.path.ctrl.ids[0], 0);
}
END_TEST

START_TEST(test_lists_and_ranges_of_slots)
{
	static const unsigned want[] = {0, 1, 2, 3, 5};

	parses_as("/c0/e252/s0-3,5 show", OBJ_DRIVE, "show");
	ck_assert_uint_eq(args.path.slot.count, 5);
	for (size_t i = 0; i < 5; i++)
		ck_assert_uint_eq(args.path.slot.ids[i], want[i]);
	ck_assert_uint_eq(args.path.encl.count, 1);
	ck_assert_uint_eq(args.path.encl.ids[0], 252);
	ck_assert(!args.path.slot.all);

	parses_as("/c1,3 show", OBJ_CTRL, "show");
	ck_assert_uint_eq(args.path.ctrl.count, 2);
	ck_assert_uint_eq(args.path.ctrl.ids[1], 3);

	parses_as("/c0/s0-63 show", OBJ_DRIVE, "show");
	ck_assert_uint_eq(args.path.slot.count, 64);
	ck_assert_uint_eq(args.path.slot.ids[63], 63);

	parses_as("/c0/s9999 show", OBJ_DRIVE, "show");
	ck_assert_uint_eq(args.path.slot.ids[0], 9999);

	/* An id named twice is addressed once. */
	parses_as("/c0,0/s1,1-2 show", OBJ_DRIVE, "show");
	ck_assert_uint_eq(args.path.ctrl.count, 1);
	ck_assert_uint_eq(args.path.slot.count, 2);
}
END_TEST

START_TEST(test_bad_selectors_are_refused)
{
	static const char *const bad[] = {
	    "/c0/s3-1 show",  "/c0/s1, show",    "/c0/s1- show",
	    "/c0/s1,,2 show", "/c0/s10000 show", "/c0/s1-2-3 show",
	    "/c0/s0x1 show",  "/c0/s1.5 show",   "/c99999999999999999999 show"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i], RCL_INVALID_COMMAND,
		        "expected 'all', a number, a list (0,1) or a range (0-3)");
	refused("/c0/s0-64 show", RCL_INVALID_PARAM, "names more than 64 objects");
	refused("/c0/s0-31,32-64 show", RCL_INVALID_PARAM, "names more than 64 objects");
}
END_TEST

START_TEST(test_objects_must_nest)
{
	parses_as("/c0/s3 show", OBJ_DRIVE, "show");
	ck_assert(!args.path.encl.given);
	parses_as("/c0/e252 show", OBJ_ENCL, "show");
	parses_as("/c0/v0 show", OBJ_VD, "show");
	parses_as("/c0/d0 show", OBJ_DG, "show");
	refused("/e252 show", RCL_INVALID_COMMAND, "needs a controller first, as in /c0/e252");
	refused("/c0/c1 show", RCL_INVALID_COMMAND, "object '/c' is given twice");
	refused("/c0 /c1 show", RCL_INVALID_COMMAND, "object '/c' is given twice");
	refused("/c0/v0/s1 show", RCL_INVALID_COMMAND, "do not nest");
	refused("/c0/v0/d0 show", RCL_INVALID_COMMAND, "do not nest");
	refused("/c0/e252/v0 show", RCL_INVALID_COMMAND, "do not nest");
	refused("/c0 show /e252", RCL_INVALID_COMMAND, "must come before the verb");
	/* Parts: StorCLI's /bbu and /cv, phys and lanes, alone under a controller. */
	parses_as("/c0/bbu show", OBJ_BBU, "show");
	parses_as("/c0/CV show all", OBJ_CV, "show all");
	parses_as("/c0/pall show", OBJ_PHY, "show");
	parses_as("/c0/ln0 show", OBJ_LANE, "show");
	refused("/c0/e252/bbu show", RCL_INVALID_COMMAND, "mixes a part");
	refused("/cv show", RCL_INVALID_COMMAND, "needs a controller first, as in /c0/cv");
}
END_TEST

START_TEST(test_verb_value_may_take_two_words)
{
	parses_as("/c0 set time=20261206 17:30:00", OBJ_CTRL, "set time");
	ck_assert_str_eq(cmd_value(&args, "time"), "20261206 17:30:00");
	parses_as("/c0 set time=systemtime", OBJ_CTRL, "set time");
	ck_assert_str_eq(cmd_value(&args, "time"), "systemtime");
}
END_TEST

START_TEST(test_unknown_objects_suggest_the_nearest)
{
	refused("/x0 show", RCL_INVALID_COMMAND, "unknown object '/x0'; did you mean '/c0'?");
	refused("/c0/sx show", RCL_INVALID_COMMAND, "unknown object '/sx'; did you mean '/s0'?");
	refused("/c0/ealll show", RCL_INVALID_COMMAND, "did you mean '/eall'?");
	refused("/controller0 show", RCL_INVALID_COMMAND, "objects are /cN, /cN/eN/sN");
	refused("/c show", RCL_INVALID_COMMAND, "unknown object '/c'");
}
END_TEST

START_TEST(test_json_and_nolog_anywhere_after_the_path)
{
	same_parse("/c0 show all", "/c0 show all nolog");
	same_parse("/c0 show all J", "/c0 J show all");
	same_parse("/c0 show all J", "/c0 show j all");
	same_parse("/c0 show all J", "/c0 nolog show NOLOG all J nolog");
	same_parse("add controller type=soft drives=0 J",
	           "add controller J type=soft nolog drives=0");
	parses_as("/c0 show all j", OBJ_CTRL, "show all");
	ck_assert(args.json);
	parses_as("/c0 show all", OBJ_CTRL, "show all");
	ck_assert(!args.json);
	parses_as("show J", OBJ_SYSTEM, "show");
	ck_assert(args.json);
	/* Only J and j: "json" is not a StorCLI word. */
	refused("/c0 show json", RCL_INVALID_COMMAND, "unknown option 'json'");
}
END_TEST

START_TEST(test_del_is_delete)
{
	same_parse("/c0 del", "/c0 delete");
	same_parse("/c0 DEL force", "/c0 Delete force");
	same_parse("/c0/e252/s3 del", "/c0/e252/s3 delete");
	parses_as("/c0 del delete=files force", OBJ_CTRL, "delete");
	ck_assert_str_eq(cmd_value(&args, "delete"), "files");
	ck_assert_str_eq(cmd_value(&args, "force"), "on");
}
END_TEST

START_TEST(test_dash_v_is_version)
{
	static const char *const lines[] = {"-v",        "version", "-version",
	                                    "--version", "v",       "VERSION"};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		parses_as(lines[i], OBJ_SYSTEM, "version");
		ck_assert_ptr_eq(args.cmd->run, cmd_system_version);
	}
	parses_as("-v J", OBJ_SYSTEM, "version");
	ck_assert(args.json);
}
END_TEST

START_TEST(test_uint_option_range)
{
	parses_as("add controller type=soft drives=0", OBJ_SYSTEM, "add controller");
	ck_assert_str_eq(cmd_value(&args, "drives"), "0");
	parses_as("add controller type=soft drives=240 size=1GB", OBJ_SYSTEM, "add controller");
	ck_assert_str_eq(cmd_value(&args, "drives"), "240");
	refused("add controller type=soft drives=241", RCL_INVALID_PARAM,
	        "invalid value '241' for 'drives=': expected a number from 0 to 240");
	refused("add controller type=soft drives=-1", RCL_INVALID_PARAM, "invalid value '-1'");
	refused("add controller type=soft drives=4x", RCL_INVALID_PARAM, "invalid value '4x'");
	refused("add controller type=soft drives=99999999999999999999999", RCL_INVALID_PARAM,
	        "expected a number from 0 to 240");
	refused("add controller type=soft drives=", RCL_INVALID_PARAM,
	        "option 'drives=' needs a value");
}
END_TEST

START_TEST(test_size_option_takes_storcli_sizes)
{
	parses_as("add controller type=soft drives=2 size=1.5TiB", OBJ_SYSTEM, "add controller");
	ck_assert_str_eq(cmd_value(&args, "size"), "1.5TiB");
	parses_as("add controller type=soft drives=2 size=100", OBJ_SYSTEM, "add controller");
	refused("add controller type=soft drives=1 size=10XB", RCL_INVALID_PARAM,
	        "invalid size '10XB'");
	refused("add controller type=soft drives=1 size=16384PB", RCL_INVALID_PARAM, "too large");
}
END_TEST

START_TEST(test_enum_option_any_case_and_suggestion)
{
	parses_as("add controller type=SOFT drives=0", OBJ_SYSTEM, "add controller");
	ck_assert_str_eq(cmd_value(&args, "type"), "soft"); /* the table's spelling */
	parses_as("add controller type=soft drives=0 sectorsize=4096", OBJ_SYSTEM,
	          "add controller");
	ck_assert_str_eq(cmd_value(&args, "sectorsize"), "4096");
	refused("add controller type=sfot drives=1", RCL_INVALID_PARAM,
	        "invalid value 'sfot' for 'type='; did you mean 'type=soft'?");
	refused("add controller type=hardware drives=1", RCL_INVALID_PARAM, "expected one of soft");
	refused("add controller type=soft drives=1 sectorsize=1024", RCL_INVALID_PARAM,
	        "expected one of 512, 4096");
}
END_TEST

START_TEST(test_enum_values_may_be_bare)
{
	/* StorCLI's "add vd r5": the level bare, by alias, in any case. */
	parses_as("/c0 add vd r5 drives=252:0-2", OBJ_CTRL, "add vd");
	ck_assert_str_eq(cmd_value(&args, "type"), "raid5");
	parses_as("/c0 add vd RAID10 drives=0-3", OBJ_CTRL, "add vd");
	ck_assert_str_eq(cmd_value(&args, "type"), "raid10");
	parses_as("/c0 add vd type=R60 drives=0-7 PDperArray=4", OBJ_CTRL, "add vd");
	ck_assert_str_eq(cmd_value(&args, "type"), "raid60");
	ck_assert_str_eq(cmd_value(&args, "pdperarray"), "4");
	/* Policies are bare words, mutually exclusive within their group. */
	parses_as("/c0 add vd r1 drives=0-1 WB nora", OBJ_CTRL, "add vd");
	ck_assert_str_eq(cmd_value(&args, "wrcache"), "wb");
	ck_assert_str_eq(cmd_value(&args, "rdcache"), "nora");
	refused("/c0 add vd r1 drives=0-1 wt awb", RCL_INVALID_COMMAND,
	        "'wt' and 'awb' exclude each other; give one wrcache policy");
	refused("/c0 add vd r1 drives=0-1 ra NoRA", RCL_INVALID_COMMAND,
	        "'ra' and 'nora' exclude each other");
	refused("/c0 add vd r1 raid5 drives=0-1", RCL_INVALID_COMMAND,
	        "option 'type' is given twice (raid5)");
	refused("/c0 add vd raid7 drives=0-1", RCL_INVALID_PARAM,
	        "invalid value 'raid7' for 'type='; did you mean 'type=raid0'?");
	/* A bare level is a level, not a misspelt option: no "did you mean 'ra'". */
	refused("/c0 add vd r7 drives=0-1", RCL_INVALID_PARAM,
	        "invalid value 'r7' for 'type=': expected one of raid0, raid1, raid5");
	/* A bare value is only a value where the table allows it. */
	refused("/c0/v0 set wb", RCL_INVALID_COMMAND, "unknown option 'wb'");
}
END_TEST

START_TEST(test_size_option_words)
{
	parses_as("/c0 add vd r0 drives=0 size=ALL", OBJ_CTRL, "add vd");
	ck_assert_str_eq(cmd_value(&args, "size"), "all");
	parses_as("/c0 add vd r0 drives=0 size=remaining", OBJ_CTRL, "add vd");
	ck_assert_str_eq(cmd_value(&args, "size"), "remaining");
	parses_as("/c0 add vd r0 drives=0 size=100", OBJ_CTRL, "add vd");
	refused("/c0 add vd r0 drives=0 size=most", RCL_INVALID_PARAM, "'most'");
	/* Only where the table lists the word. */
	refused("add controller type=soft drives=1 size=all", RCL_INVALID_PARAM, "'all'");
}
END_TEST

START_TEST(test_flag_and_path_options)
{
	parses_as("/c0 delete force", OBJ_CTRL, "delete");
	ck_assert_str_eq(cmd_value(&args, "force"), "on");
	ck_assert_ptr_null(cmd_value(&args, "delete"));
	parses_as("/c0 add drive path='/tmp/my disk.img'", OBJ_CTRL, "add drive");
	ck_assert_str_eq(cmd_value(&args, "path"), "/tmp/my disk.img");
	parses_as("/c0 add drive PATH=/dev/sdb", OBJ_CTRL, "add drive");
	ck_assert_str_eq(cmd_value(&args, "path"), "/dev/sdb");
	/* A value may hold '='. */
	parses_as("/c0 add drive path=/tmp/a=b", OBJ_CTRL, "add drive");
	ck_assert_str_eq(cmd_value(&args, "path"), "/tmp/a=b");
	refused("/c0 delete force=yes", RCL_INVALID_COMMAND, "option 'force' takes no value");
	refused("/c0 delete delete", RCL_INVALID_COMMAND,
	        "option 'delete' needs a value, as in delete=...");
}
END_TEST

START_TEST(test_options_given_twice_are_refused)
{
	refused("add controller type=soft drives=4 drives=5 size=1GB", RCL_INVALID_COMMAND,
	        "option 'drives' is given twice");
	refused("add controller type=soft drives=4 DRIVES=4 size=1GB", RCL_INVALID_COMMAND,
	        "option 'drives' is given twice");
	refused("/c0 delete force force", RCL_INVALID_COMMAND, "option 'force' is given twice");
}
END_TEST

START_TEST(test_missing_required_option_shows_an_example)
{
	/* What one kind needs ("drives=" for soft) its backend asks for (test-backend.c). */
	refused("add controller drives=1", RCL_INVALID_COMMAND, "missing option 'type='");
	refused("/c0 add drive", RCL_INVALID_COMMAND,
	        "missing option 'path=' (the image file or block device), as in: raidcli /c0 add "
	        "drive path=");
}
END_TEST

START_TEST(test_unknown_words_suggest_the_nearest)
{
	refused("/c0 shwo", RCL_INVALID_COMMAND, "unknown word 'shwo'; did you mean 'show'?");
	refused("shw", RCL_INVALID_COMMAND, "unknown word 'shw'; did you mean 'show'?");
	refused("/c0/vall shw", RCL_INVALID_COMMAND, "did you mean 'show'?");
	refused("/c0 show al", RCL_INVALID_COMMAND, "unknown option 'al'; did you mean 'all'?");
	refused("show ctrlcont", RCL_INVALID_COMMAND, "did you mean 'ctrlcount'?");
	refused("add controler type=soft", RCL_INVALID_COMMAND,
	        "unknown word 'controler'; did you mean 'controller'?");
	refused("/c0 add drv path=/x", RCL_INVALID_COMMAND,
	        "unknown word 'drv'; did you mean 'drive'?");
	refused("add controller typ=soft drives=4", RCL_INVALID_COMMAND,
	        "unknown option 'typ='; did you mean 'type='?");
	refused("add controller type=soft drives=1 size=1GB forse", RCL_INVALID_COMMAND,
	        "unknown option 'forse'");
	refused("/c0 del forse", RCL_INVALID_COMMAND, "did you mean 'force'?");
}
END_TEST

START_TEST(test_unknown_words_list_what_fits)
{
	refused("/c0 frobnicate", RCL_INVALID_COMMAND, "unknown word 'frobnicate' for /c");
	refused("/c0 frobnicate", RCL_INVALID_COMMAND, "expected 'show', 'delete', 'add'");
	refused("/c0", RCL_INVALID_COMMAND, "incomplete command");
	refused("/c0", RCL_INVALID_COMMAND, "expected 'show', 'delete', 'add'");
	refused("add", RCL_INVALID_COMMAND,
	        "incomplete command: after 'add' expected 'controller'");
	refused("/c0 add", RCL_INVALID_COMMAND, "after 'add' expected 'drive'");
	refused("", RCL_INVALID_COMMAND, "incomplete command");
}
END_TEST

START_TEST(test_prefixes_never_match)
{
	/* 'sh' is close to 'show' but is not 'show': no abbreviations. */
	refused("/c0 sh", RCL_INVALID_COMMAND, "did you mean 'show'?");
	refused("/c0 show a", RCL_INVALID_COMMAND, "unknown option 'a'");
	refused("add controller type=soft drive=1", RCL_INVALID_COMMAND,
	        "unknown option 'drive='; did you mean 'drives='?");
}
END_TEST

START_TEST(test_help_words_ask_for_help)
{
	static const char *const help[] = {"help", "HELP", "-h", "-help", "--help", "?"};

	for (size_t i = 0; i < sizeof(help) / sizeof(help[0]); i++) {
		ck_assert_int_eq(parse(help[i]), RCL_OK);
		ck_assert(args.help);
		ck_assert_uint_eq(args.help_words, 0);
		ck_assert_int_eq(args.path.kind, OBJ_SYSTEM);
	}
	ck_assert_int_eq(parse("/c0 help"), RCL_OK);
	ck_assert(args.help);
	ck_assert_int_eq(args.path.kind, OBJ_CTRL);
	ck_assert_int_eq(parse("/c0 add help"), RCL_OK);
	ck_assert(args.help);
	ck_assert_uint_eq(args.help_words, 1);
	ck_assert_str_eq(args.help_verb[0], "add");
	/* Help wins over what follows, even words that would not parse. */
	ck_assert_int_eq(parse("/c0 help frobnicate nonsense=1"), RCL_OK);
	ck_assert(args.help);
	ck_assert_int_eq(parse("/c0 show all help J"), RCL_OK);
	ck_assert(args.help && args.json);
	ck_assert_uint_eq(args.help_words, 2);
	/* The path must still be valid. */
	refused("/x0 help", RCL_INVALID_COMMAND, "unknown object '/x0'");
}
END_TEST

START_TEST(test_too_many_words_are_refused)
{
	struct rcl_buf line = RCL_BUF_INIT;

	rcl_buf_adds(&line, "/c0 show");
	for (int i = 0; i < 70; i++)
		rcl_buf_adds(&line, " J");
	refused(line.buf, RCL_INVALID_COMMAND, "too many words");
	rcl_buf_release(&line);
}
END_TEST

START_TEST(test_parse_path_alone)
{
	const char *const glued[] = {"/c2/e252/s1-2"};
	const char *const apart[] = {"/c2", "/e252", "/s1-2"};
	struct obj_path a, b;

	ck_assert_int_eq(cli_parse_path(glued, 1, &a, &err), RCL_OK);
	ck_assert_int_eq(cli_parse_path(apart, 3, &b, &err), RCL_OK);
	ck_assert(same_path(&a, &b));
	ck_assert_int_eq(a.kind, OBJ_DRIVE);
	ck_assert_uint_eq(a.slot.count, 2);
	ck_assert_int_eq(cli_parse_path(NULL, 0, &a, &err), RCL_OK);
	ck_assert_int_eq(a.kind, OBJ_SYSTEM);
	/* A NULL error is allowed: completion parses paths quietly. */
	ck_assert_int_eq(cli_parse_path(apart + 1, 1, &a, NULL), RCL_INVALID_COMMAND);
}
END_TEST

START_TEST(test_path_components_have_a_length_limit)
{
	char line[200];

	snprintf(line, sizeof(line), "/c0/s%0100d show", 1);
	refused(line, RCL_INVALID_COMMAND, "is too long");
}
END_TEST

static void split_is(const char *line, int count, const char *const *expect)
{
	struct rcl_error e = {0};
	char **argv;
	int argc;

	ck_assert_msg(!cli_split_line(line, &argc, &argv, &e), "'%s': %s", line, e.msg);
	ck_assert_msg(argc == count, "'%s': %d words, want %d", line, argc, count);
	for (int i = 0; i < argc; i++)
		ck_assert_msg(!strcmp(argv[i], expect[i]), "'%s': word %d is '%s', want '%s'", line,
		              i, argv[i], expect[i]);
	if (argc)
		ck_assert_ptr_null(argv[argc]); /* argv-style NULL end */
	cli_free_words(argc, argv);
}

START_TEST(test_split_on_blanks)
{
	split_is("/c0 show all", 3, (const char *[]){"/c0", "show", "all"});
	split_is("  \t/c0\t\tshow  ", 2, (const char *[]){"/c0", "show"});
	split_is("", 0, NULL);
	split_is("   \t ", 0, NULL);
	split_is("show\r\n", 1, (const char *[]){"show"});
}
END_TEST

START_TEST(test_split_honours_quotes)
{
	split_is("path='/tmp/a b.img'", 1, (const char *[]){"path=/tmp/a b.img"});
	split_is("\"a b\" 'c d' e", 3, (const char *[]){"a b", "c d", "e"});
	split_is("'it''s'", 1, (const char *[]){"its"});
	split_is("\"say 'hi'\"", 1, (const char *[]){"say 'hi'"});
	split_is("'say \"hi\"'", 1, (const char *[]){"say \"hi\""});
	split_is("'' \"\"", 2, (const char *[]){"", ""});
	split_is("a'b c'd", 1, (const char *[]){"ab cd"});
}
END_TEST

START_TEST(test_split_honours_backslashes)
{
	split_is("a\\ b", 1, (const char *[]){"a b"});
	split_is("\"a\\\"b\"", 1, (const char *[]){"a\"b"});
	split_is("'a\\b'", 1, (const char *[]){"a\\b"}); /* literal inside single quotes */
	split_is("a\\\\b", 1, (const char *[]){"a\\b"});
	split_is("trailing\\", 1, (const char *[]){"trailing\\"});
	split_is("\\#not-a-comment", 1, (const char *[]){"#not-a-comment"});
}
END_TEST

START_TEST(test_split_drops_comments)
{
	split_is("# a comment line", 0, NULL);
	split_is("/c0 show # what it does", 2, (const char *[]){"/c0", "show"});
	split_is("/c0 show 'a # b'", 3, (const char *[]){"/c0", "show", "a # b"});
	split_is("a#b", 1, (const char *[]){"a#b"}); /* only at the start of a word */
}
END_TEST

START_TEST(test_split_refuses_unterminated_quotes)
{
	static const char *const lines[] = {"'open", "a \"open", "ok \"also open\\\""};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct rcl_error e = {0};
		char **argv = (char **)0x1;
		int argc = -5;

		ck_assert_int_eq(cli_split_line(lines[i], &argc, &argv, &e), RCL_INVALID_COMMAND);
		ck_assert_int_eq(e.status, RCL_INVALID_COMMAND);
		ck_assert_msg(strstr(e.msg, "unterminated"), "%s", e.msg);
		/* Nothing is handed back: the outputs are untouched. */
		ck_assert_int_eq(argc, -5);
		ck_assert_ptr_eq(argv, (char **)0x1);
	}
}
END_TEST

START_TEST(test_split_many_words)
{
	struct rcl_buf line = RCL_BUF_INIT;
	struct rcl_error e = {0};
	char **argv;
	int argc;

	for (int i = 0; i < 500; i++)
		rcl_buf_addf(&line, "w%d ", i);
	ck_assert_int_eq(cli_split_line(line.buf, &argc, &argv, &e), RCL_OK);
	ck_assert_int_eq(argc, 500);
	ck_assert_str_eq(argv[499], "w499");
	cli_free_words(argc, argv);
	rcl_buf_release(&line);
}
END_TEST

START_TEST(test_word_classes)
{
	ck_assert(cli_is_json_word("J") && cli_is_json_word("j"));
	ck_assert(!cli_is_json_word("json") && !cli_is_json_word(""));
	ck_assert(cli_is_nolog_word("nolog") && cli_is_nolog_word("NoLog"));
	ck_assert(!cli_is_nolog_word("log"));
	ck_assert(cli_is_help_word("?") && cli_is_help_word("Help") && cli_is_help_word("-h"));
	ck_assert(!cli_is_help_word("-H") && !cli_is_help_word("h"));
}
END_TEST

static Suite *parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc;

	tc = tcase_create("cli_parse");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_glued_and_spaced_paths_are_the_same);
	tcase_add_test(tc, test_verb_value_may_take_two_words);
	tcase_add_test(tc, test_all_in_any_case);
	tcase_add_test(tc, test_lists_and_ranges_of_slots);
	tcase_add_test(tc, test_bad_selectors_are_refused);
	tcase_add_test(tc, test_objects_must_nest);
	tcase_add_test(tc, test_unknown_objects_suggest_the_nearest);
	tcase_add_test(tc, test_json_and_nolog_anywhere_after_the_path);
	tcase_add_test(tc, test_del_is_delete);
	tcase_add_test(tc, test_dash_v_is_version);
	tcase_add_test(tc, test_uint_option_range);
	tcase_add_test(tc, test_size_option_takes_storcli_sizes);
	tcase_add_test(tc, test_enum_option_any_case_and_suggestion);
	tcase_add_test(tc, test_enum_values_may_be_bare);
	tcase_add_test(tc, test_size_option_words);
	tcase_add_test(tc, test_flag_and_path_options);
	tcase_add_test(tc, test_options_given_twice_are_refused);
	tcase_add_test(tc, test_missing_required_option_shows_an_example);
	tcase_add_test(tc, test_unknown_words_suggest_the_nearest);
	tcase_add_test(tc, test_unknown_words_list_what_fits);
	tcase_add_test(tc, test_prefixes_never_match);
	tcase_add_test(tc, test_help_words_ask_for_help);
	tcase_add_test(tc, test_too_many_words_are_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli_parse_path");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_parse_path_alone);
	tcase_add_test(tc, test_path_components_have_a_length_limit);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli_split_line");
	tcase_add_test(tc, test_split_on_blanks);
	tcase_add_test(tc, test_split_honours_quotes);
	tcase_add_test(tc, test_split_honours_backslashes);
	tcase_add_test(tc, test_split_drops_comments);
	tcase_add_test(tc, test_split_refuses_unterminated_quotes);
	tcase_add_test(tc, test_split_many_words);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli_is_json_word");
	tcase_add_test(tc, test_word_classes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(parse_suite());
}
