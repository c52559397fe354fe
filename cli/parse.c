// SPDX-License-Identifier: MIT
/*
 * parse.c - from words to a command: verb, options, J, nolog (the object
 * path: path.c).
 *
 * The grammar is StorCLI's: "[path] verb [words] [key=value ...] [J] [nolog]".
 * Path tokens may be glued (/c0/e252/s0) or apart (/c0 /e252 /s0); 'all' and
 * every keyword are case-insensitive; J and nolog may appear anywhere after
 * the path. Words match exactly or through the alias table; a prefix never
 * matches, so a new keyword can never change what an old command means.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

#define MAX_WORDS 64

bool cli_is_json_word(const char *word)
{
	return !strcmp(word, "J") || !strcmp(word, "j");
}

bool cli_is_nolog_word(const char *word)
{
	return !strcasecmp(word, "nolog");
}

bool cli_is_help_word(const char *word)
{
	return !strcasecmp(word, "help") || !strcmp(word, "-h") || !strcasecmp(word, "-help") ||
	       !strcmp(word, "--help") || !strcmp(word, "?");
}

static bool word_equal(const char *typed, const char *word)
{
	return !strcasecmp(grammar_canonical_word(typed), word);
}

/*
 * Whether @typed is verb word @word, or with CMD_VERB_VALUE (@last: the
 * verb's last word) "<word>=<value>", as in "set cc=seq".
 */
static bool verb_word_equal(unsigned flags, const char *typed, const char *word, bool last)
{
	char key[32];
	size_t len = strcspn(typed, "=");

	if (!typed[len] || !last || !(flags & CMD_VERB_VALUE) || len >= sizeof(key))
		return word_equal(typed, word);
	memcpy(key, typed, len);
	key[len] = '\0';
	return word_equal(key, word);
}

/* How many of @words match the words of @verb (a command's, with its @flags); 0 if not a prefix. */
static size_t verb_match(const char *verb_words, unsigned flags, char **words, size_t count)
{
	char verb[64];
	size_t n = 0;
	char *save, *w;

	snprintf(verb, sizeof(verb), "%s", verb_words);
	for (w = strtok_r(verb, " ", &save); w;) {
		char *next = strtok_r(NULL, " ", &save);

		if (n >= count || !verb_word_equal(flags, words[n], w, !next))
			return 0;
		n++;
		w = next;
	}
	return n;
}

/* Whether two verb words (each ending at a space or NUL) are equal. */
static bool same_word(const char *a, const char *b)
{
	size_t la = strcspn(a, " "), lb = strcspn(b, " ");

	return la == lb && !strncmp(a, b, la);
}

/*
 * The word at @position of @verb, as a pointer into @verb, if the words
 * before it match @words; else NULL.
 */
static const char *verb_word_at(const char *verb, char **words, size_t position)
{
	const char *w = verb;

	for (size_t k = 0; k < position; k++) {
		char word[32];
		size_t len = strcspn(w, " ");

		if (!*w || len >= sizeof(word))
			return NULL;
		memcpy(word, w, len);
		word[len] = '\0';
		if (!word_equal(words[k], word))
			return NULL;
		w += len;
		w += *w == ' ';
	}
	return *w ? w : NULL;
}

/* The distinct verb words that may come at @position for @kind. */
size_t grammar_next_words(enum obj_kind kind, char **words, size_t position,
                          const struct rcl_caps *caps, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < cli_command_count && n < max; i++) {
		const struct cmd_spec *cmd = &cli_commands[i];
		const char *w;
		size_t j;

		if (cmd->object != kind || !cli_offers(cmd, caps))
			continue;
		w = verb_word_at(cmd->verb, words, position);
		if (!w)
			continue;
		for (j = 0; j < n && !same_word(out[j], w); j++)
			;
		if (j == n)
			out[n++] = w;
	}
	return n;
}

/* Copy the first word of each candidate into @buf for suggestion lookup. */
static const char *first_word(const char *s, char *buf, size_t size)
{
	size_t len = strcspn(s, " ");

	if (len >= size)
		len = size - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return buf;
}

/* How many leading @words begin some verb of @kind: where an unknown word sits. */
static size_t verb_prefix(enum obj_kind kind, char **words, size_t count)
{
	size_t position = 0;

	while (position < count) {
		const char *next[32];
		char word[32];
		size_t n = grammar_next_words(kind, words, position, NULL, next, 32), i;

		for (i = 0; i < n; i++)
			if (word_equal(words[position], first_word(next[i], word, sizeof(word))))
				break;
		if (i == n)
			break;
		position++;
	}
	return position;
}

#define PART_WORDS_MAX 256

/*
 * The distinct first words at @position of @kind's part commands
 * (cli_part_forms[]), into @names and @list: those help and completion
 * leave out where no controller has the part.
 */
static size_t part_words(enum obj_kind kind, char **words, size_t position, char (*names)[32],
                         const char **list)
{
	size_t n = 0, k;

	for (size_t i = 0; i < cli_part_command_count && n < PART_WORDS_MAX; i++) {
		const char *w = cli_part_forms[i].object == kind
		                    ? verb_word_at(cli_part_forms[i].verb, words, position)
		                    : NULL;

		if (!w)
			continue;
		first_word(w, names[n], sizeof(names[n]));
		for (k = 0; k < n && strcmp(list[k], names[n]); k++)
			;
		if (k == n) {
			list[n] = names[n];
			n++;
		}
	}
	return n;
}

/*
 * The words StorCLI takes at @position of @kind's part commands (/c0/cv
 * start), but for the @n in @known, after @sb's list.
 */
static void add_part_words(struct rcl_buf *sb, enum obj_kind kind, char **words, size_t position,
                           const char *const *known, size_t n)
{
	char names[PART_WORDS_MAX][32];
	const char *list[PART_WORDS_MAX];
	size_t count = part_words(kind, words, position, names, list), k;

	for (size_t i = 0; i < count; i++) {
		for (k = 0; k < n && strcmp(known[k], list[i]); k++)
			;
		if (k == n)
			rcl_buf_addf(sb, "%s'%s'", sb->len ? ", " : "", list[i]);
	}
}

/*
 * The part command word nearest @typed at @position of @kind's verbs, into
 * @buf, or NULL: a misspelt "show alarm" gets its hint although help lists
 * no part a controller lacks.
 */
static const char *part_hint(enum obj_kind kind, char **words, size_t position, const char *typed,
                             char *buf, size_t size)
{
	char names[PART_WORDS_MAX][32];
	const char *list[PART_WORDS_MAX];
	size_t n = part_words(kind, words, position, names, list);
	/* One edit at most: among StorCLI's hundreds of words, two reach too far ("foo": "poh"). */
	const char *hint = suggest_within(typed, list, n, 1);

	if (!hint)
		return NULL;
	snprintf(buf, size, "%s", hint);
	return buf;
}

static enum rcl_status unknown_verb(const struct obj_path *path, const char *object, char **words,
                                    size_t count, size_t position, struct rcl_error *err)
{
	const char *next[32];
	char names[32][32];
	const char *list[32];
	size_t n = grammar_next_words(path->kind, words, position, NULL, next, 32);
	const char *hint;
	char part[32];
	struct rcl_buf sb = RCL_BUF_INIT;

	for (size_t i = 0; i < n; i++)
		list[i] = first_word(next[i], names[i], sizeof(names[i]));
	for (size_t i = 0; i < n; i++)
		rcl_buf_addf(&sb, "%s'%s'", i ? ", " : "", list[i]);
	if (position >= count)
		add_part_words(&sb, path->kind, words, position, list, n);
	if (position >= count) {
		rcl_fail(err, RCL_INVALID_COMMAND, "incomplete command: after '%s' expected %s",
		         position ? words[position - 1] : object, sb.buf);
	} else {
		hint = suggest_closest(words[position], list, n);
		if (!hint)
			hint = part_hint(path->kind, words, position, words[position], part,
			                 sizeof(part));
		if (hint)
			rcl_fail(err, RCL_INVALID_COMMAND, "unknown word '%s'; did you mean '%s'?",
			         words[position], hint);
		else if (n)
			rcl_fail(err, RCL_INVALID_COMMAND,
			         "unknown word '%s' for %s; expected %s (see 'help')",
			         words[position], object, sb.buf);
		else
			rcl_fail(err, RCL_INVALID_COMMAND, "%s has no command '%s' (see 'help')",
			         object, words[position]);
	}
	rcl_buf_release(&sb);
	return RCL_INVALID_COMMAND;
}

const char *cli_typed_object(const struct cmd_args *args, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int t = 0; t < args->argc && args->argv[t][0] == '/' && len < size; t++)
		len += (size_t)snprintf(buf + len, size - len, "%s", args->argv[t]);
	return buf;
}

static enum rcl_status check_value(const struct opt_spec *opt, const char *value, const char **out,
                                   struct rcl_error *err);

/*
 * Whether @token is written as a RAID level ("r7", "RAID00"): for a command
 * taking one, a level it does not know, not a misspelt option.
 */
static bool looks_like_level(const char *token)
{
	size_t prefix = !strncasecmp(token, "raid", 4) ? 4 : tolower((unsigned char)*token) == 'r';

	return prefix && token[prefix] &&
	       strspn(token + prefix, "0123456789") == strlen(token + prefix);
}

static enum rcl_status unknown_option(const struct cmd_args *args, const char *token, char **words,
                                      size_t matched, struct rcl_error *err)
{
	const struct cmd_spec *cmd = args->cmd;
	char object[256];
	const char *names[CMD_MAX_OPTS + 96];
	char keyed[CMD_MAX_OPTS][40];
	char typed[64], part[32];
	size_t n = 0;
	const char *hint;
	bool is_kv = strchr(token, '=') != NULL;

	/* As the value of type=, where StorCLI takes it bare: "r7" is no "ra". */
	for (size_t i = 0; (cmd->flags & CMD_RAID_LEVEL) && !is_kv && looks_like_level(token) &&
	                   i < CMD_MAX_OPTS && cmd->opts[i].name;
	     i++)
		if (!strcmp(cmd->opts[i].name, "type"))
			return check_value(&cmd->opts[i], token, &hint, err);
	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++) {
		if (cmd->opts[i].type == OPT_FLAG) {
			names[n++] = cmd->opts[i].name;
		} else {
			snprintf(keyed[i], sizeof(keyed[i]), "%s=", cmd->opts[i].name);
			names[n++] = keyed[i];
		}
		/* Bare values too: "raid7" is nearest to "raid0" for add vd. */
		for (size_t k = 0; cmd->opts[i].bare != OPT_KEYED && cmd->opts[i].choices[k] &&
		                   n + 32 < sizeof(names) / sizeof(names[0]);
		     k++)
			names[n++] = cmd->opts[i].choices[k];
	}
	/* A longer verb may continue here ("show" then "all"). */
	n += grammar_next_words(cmd->object, words, matched, NULL, names + n, 32);
	snprintf(typed, sizeof(typed), "%.*s%s", (int)strcspn(token, "="), token, is_kv ? "=" : "");
	hint = suggest_closest(typed, names, n);
	if (!hint && !is_kv)
		hint = part_hint(cmd->object, words, matched, typed, part, sizeof(part));
	if (hint)
		return rcl_fail(err, RCL_INVALID_COMMAND, "unknown option '%s'; did you mean '%s'?",
		                typed, hint);
	cli_typed_object(args, object, sizeof(object));
	return rcl_fail(err, RCL_INVALID_COMMAND,
	                "unknown option '%s' for '%s' (see 'raidcli %s%s%s help')", typed,
	                cmd->verb, object, *object ? " " : "", cmd->verb);
}

/* A bare word that is the value of an option allowing it ("r5", "wb"). */
static enum rcl_status parse_bare(const struct cmd_spec *cmd, const char *token,
                                  struct cmd_args *args, bool *found, struct rcl_error *err)
{
	*found = false;
	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++) {
		const struct opt_spec *opt = &cmd->opts[i];
		const char *value;

		if (opt->type != OPT_ENUM || opt->bare == OPT_KEYED)
			continue;
		value = grammar_enum_value(opt, token);
		if (!value)
			continue;
		*found = true;
		if (args->values[i] && opt->bare == OPT_BARE_SHOWN)
			return rcl_fail(err, RCL_INVALID_COMMAND,
			                "'%s' and '%s' exclude each other; give one %s policy",
			                args->values[i], value, opt->name);
		if (args->values[i])
			return rcl_fail(err, RCL_INVALID_COMMAND, "option '%s' is given twice (%s)",
			                opt->name, token);
		args->values[i] = value;
		return RCL_OK;
	}
	return RCL_OK;
}

static enum rcl_status check_value(const struct opt_spec *opt, const char *value, const char **out,
                                   struct rcl_error *err)
{
	uint64_t bytes;

	if (!*value)
		return rcl_fail(err, RCL_INVALID_PARAM, "option '%s=' needs a value", opt->name);
	switch (opt->type) {
	case OPT_UINT: {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(value, &end, 10);
		if (!isdigit((unsigned char)*value) || *end || errno || v < opt->min ||
		    v > opt->max)
			return rcl_fail(err, RCL_INVALID_PARAM,
			                "invalid value '%s' for '%s=': expected a number from %lu "
			                "to %lu",
			                value, opt->name, opt->min, opt->max);
		break;
	}
	case OPT_SIZE:
		/* Words such as size=all. */
		*out = grammar_choice(opt->choices, value);
		if (*out)
			return RCL_OK;
		if (rcl_size_parse(value, &bytes, err))
			return RCL_INVALID_PARAM;
		break;
	case OPT_ENUM: {
		struct rcl_buf sb = RCL_BUF_INIT;
		const char *hint;
		size_t n;

		*out = grammar_enum_value(opt, value);
		if (*out)
			return RCL_OK;
		for (n = 0; opt->choices[n]; n++)
			rcl_buf_addf(&sb, "%s%s", n ? ", " : "", opt->choices[n]);
		hint = suggest_closest(value, opt->choices, n);
		if (hint)
			rcl_fail(err, RCL_INVALID_PARAM,
			         "invalid value '%s' for '%s='; did you mean '%s=%s'?", value,
			         opt->name, opt->name, hint);
		else
			rcl_fail(err, RCL_INVALID_PARAM,
			         "invalid value '%s' for '%s=': expected one of %s", value,
			         opt->name, sb.buf);
		rcl_buf_release(&sb);
		return RCL_INVALID_PARAM;
	}
	case OPT_STRING:
		if (opt->check && opt->check(value, err))
			return RCL_INVALID_PARAM;
		break;
	case OPT_FLAG:
	case OPT_PATH:
		break;
	}
	*out = value;
	return RCL_OK;
}

static enum rcl_status parse_option(const struct cmd_spec *cmd, const char *token, char **words,
                                    size_t matched, struct cmd_args *args, struct rcl_error *err)
{
	size_t keylen = strcspn(token, "=");
	bool is_kv = token[keylen] == '=';
	bool bare = false;
	enum rcl_status st;

	if (cmd->flags & CMD_ANY_OPTS)
		return RCL_OK;
	if (!is_kv) {
		st = parse_bare(cmd, token, args, &bare, err);
		if (st || bare)
			return st;
	}

	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++) {
		const struct opt_spec *opt = &cmd->opts[i];

		if (strlen(opt->name) != keylen || strncasecmp(opt->name, token, keylen))
			continue;
		if (is_kv == (opt->type == OPT_FLAG))
			return rcl_fail(err, RCL_INVALID_COMMAND,
			                is_kv ? "option '%s' takes no value"
			                      : "option '%s' needs a value, as in %s=...",
			                opt->name, opt->name);
		if (args->values[i])
			return rcl_fail(err, RCL_INVALID_COMMAND, "option '%s' is given twice",
			                opt->name);
		if (!is_kv) {
			args->values[i] = "on";
			return RCL_OK;
		}
		return check_value(opt, token + keylen + 1, &args->values[i], err);
	}
	return unknown_option(args, token, words, matched, err);
}

/*
 * A CMD_VERB_VALUE verb's last word with a value ("cc=seq", "consistencycheck=seq"):
 * the value of the option named as the word.
 */
static bool two_words(const struct cmd_args *args, const char *token, const char *next);

/*
 * ... and, for a two_words option, the next word (@next, NULL if none) may
 * go on with it ("set time=20261206 17:30:00"): *@took_next says so.
 */
static enum rcl_status parse_verb_value(struct cmd_args *args, const char *typed, char **words,
                                        size_t matched, const char *next, bool *took_next,
                                        struct rcl_error *err)
{
	const char *word = strrchr(args->cmd->verb, ' ');
	const char *value = strchr(typed, '=');
	size_t len;

	if (!(args->cmd->flags & CMD_VERB_VALUE) || !value)
		return RCL_OK;
	word = word ? word + 1 : args->cmd->verb;
	len = strlen(word);

	if (len + strlen(value) + 1 > sizeof(args->verb_token))
		return rcl_fail(err, RCL_INVALID_PARAM, "the value of '%s' is too long", typed);
	memcpy(args->verb_token, word, len);
	strcpy(args->verb_token + len, value); /* it fits: checked above */
	*took_next = next && two_words(args, args->verb_token, next) &&
	             strlen(args->verb_token) + strlen(next) + 2 <= sizeof(args->verb_token);
	if (*took_next)
		strcat(strcat(args->verb_token, " "), next); /* it fits: checked above */
	return parse_option(args->cmd, args->verb_token, words, matched, args, err);
}

/*
 * Whether @token is a two_words option's key=value and @next the rest of
 * its value (a word without '=', as the hour of "starttime=2026/12/01 03").
 */
static bool two_words(const struct cmd_args *args, const char *token, const char *next)
{
	const struct cmd_spec *cmd = args->cmd;
	size_t keylen = strcspn(token, "=");

	if (!token[keylen] || strchr(next, '=') ||
	    strlen(token) + strlen(next) + 2 > sizeof(args->joined))
		return false;
	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++)
		if (cmd->opts[i].two_words && strlen(cmd->opts[i].name) == keylen &&
		    !strncasecmp(cmd->opts[i].name, token, keylen))
			return true;
	return false;
}

static enum rcl_status check_required(const struct cmd_spec *cmd, const struct cmd_args *args,
                                      struct rcl_error *err)
{
	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++)
		if (cmd->opts[i].required && !args->values[i])
			return rcl_fail(err, RCL_INVALID_COMMAND,
			                "missing option '%s=' (%s), as in: %s", cmd->opts[i].name,
			                cmd->opts[i].help, cmd->example);
	return RCL_OK;
}

/* Find the command whose verb matches the most leading words. */
const struct cmd_spec *grammar_match(enum obj_kind kind, char **words, size_t count,
                                     size_t *matched)
{
	const struct cmd_spec *best = NULL;
	size_t part = SIZE_MAX, n;

	*matched = 0;
	for (size_t i = 0; i < cli_command_count; i++) {
		const struct cmd_spec *cmd = &cli_commands[i];

		if (cmd->object == kind && (n = verb_match(cmd->verb, cmd->flags, words, count)) &&
		    n > *matched) {
			*matched = n;
			best = cmd;
		}
	}
	for (size_t i = 0; i < cli_part_command_count; i++) {
		const struct part_form *f = &cli_part_forms[i];

		if (f->object == kind && (n = verb_match(f->verb, CMD_VERB_VALUE, words, count)) &&
		    n > *matched) {
			*matched = n;
			part = i;
		}
	}
	return part != SIZE_MAX ? cli_part_command(part) : best;
}

enum rcl_status cli_parse(int argc, char **argv, struct cmd_args *args, struct rcl_error *err)
{
	const char *path_tokens[MAX_WORDS];
	char *words[MAX_WORDS];
	size_t npath = 0, nwords = 0, matched;
	bool took_next = false;
	enum rcl_status st;
	int i;

	memset(args, 0, sizeof(*args));
	args->argc = argc;
	args->argv = argv;
	if (argc > MAX_WORDS)
		return rcl_fail(err, RCL_INVALID_COMMAND, "too many words (%d); at most %d", argc,
		                MAX_WORDS);
	for (i = 0; i < argc && argv[i][0] == '/'; i++)
		path_tokens[npath++] = argv[i];
	for (; i < argc; i++) {
		if (argv[i][0] == '/')
			return rcl_fail(err, RCL_INVALID_COMMAND,
			                "object '%s' must come before the verb, as in: raidcli %s "
			                "show",
			                argv[i], argv[i]);
		if (cli_is_json_word(argv[i]))
			args->json = true;
		else if (cli_is_nolog_word(argv[i]))
			continue; /* raidcli writes no log files; accepted for scripts */
		else if (cli_is_help_word(argv[i]) && !args->help)
			args->help = true;
		else if (!args->help)
			words[nwords++] = argv[i];
	}
	st = cli_parse_path(path_tokens, npath, &args->path, err);
	if (st)
		return st;
	if (args->help) {
		for (size_t w = 0; w < nwords && w < 4; w++)
			args->help_verb[args->help_words++] = words[w];
		return RCL_OK;
	}
	args->cmd = grammar_match(args->path.kind, words, nwords, &matched);
	if (!args->cmd) {
		/* Name the object as typed ("/c0/e252"), not as help writes it. */
		char typed[256];

		cli_typed_object(args, typed, sizeof(typed));
		return unknown_verb(&args->path, *typed ? typed : "raidcli", words, nwords,
		                    verb_prefix(args->path.kind, words, nwords), err);
	}
	st = parse_verb_value(args, words[matched - 1], words, matched,
	                      matched < nwords ? words[matched] : NULL, &took_next, err);
	if (st)
		return st;
	for (size_t w = matched + took_next; w < nwords; w++) {
		const char *token = words[w];

		if (w + 1 < nwords && two_words(args, token, words[w + 1])) {
			size_t len = strlen(token);

			/* two_words() saw that both fit. */
			memcpy(args->joined, token, len);
			args->joined[len] = ' ';
			strcpy(args->joined + len + 1, words[++w]);
			token = args->joined;
		}
		st = parse_option(args->cmd, token, words, matched, args, err);
		if (st)
			return st;
	}
	return check_required(args->cmd, args, err);
}

const char *cmd_value(const struct cmd_args *args, const char *name)
{
	for (size_t i = 0; i < CMD_MAX_OPTS && args->cmd->opts[i].name; i++)
		if (!strcmp(args->cmd->opts[i].name, name))
			return args->values[i];
	return NULL;
}

enum rcl_status cli_split_line(const char *line, int *argc, char ***argv, struct rcl_error *err)
{
	struct rcl_buf word = RCL_BUF_INIT;
	char **words = NULL;
	int n = 0;
	const char *p = line;

	for (;;) {
		const char *opened = NULL;
		char quote = 0;
		bool any = false;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			break;
		rcl_buf_reset(&word);
		while (*p && (quote || !isspace((unsigned char)*p))) {
			if (quote && *p == quote) {
				quote = 0;
			} else if (!quote && (*p == '"' || *p == '\'')) {
				quote = *p;
				opened = p;
			} else if (*p == '\\' && p[1] && quote != '\'') {
				rcl_buf_addch(&word, *++p);
			} else {
				rcl_buf_addch(&word, *p);
			}
			any = true;
			p++;
		}
		if (quote) {
			rcl_buf_release(&word);
			cli_free_words(n, words);
			return rcl_fail(err, RCL_INVALID_COMMAND,
			                "unterminated %c quote at '%.40s'", quote, opened);
		}
		if (any) {
			char **grown = rcl_realloc(words, (size_t)(n + 2) * sizeof(*words));
			char *copy = rcl_strdup(word.buf);

			if (!grown || !copy || word.oom) {
				rcl_free(copy);
				words = grown ? grown : words;
				rcl_buf_release(&word);
				cli_free_words(n, words);
				return rcl_fail(err, RCL_NOMEM, "out of memory");
			}
			words = grown;
			words[n++] = copy;
			words[n] = NULL;
		}
	}
	rcl_buf_release(&word);
	*argc = n;
	*argv = words;
	return RCL_OK;
}

void cli_free_words(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		rcl_free(argv[i]);
	rcl_free(argv);
}
