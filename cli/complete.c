// SPDX-License-Identifier: MIT
/*
 * complete.c - completion candidates for a partly typed command line, from
 * the grammar table and the live configuration (real controller and drive
 * numbers). The interactive shell and the bash, zsh and fish completion
 * scripts all ask this one engine.
 */
#include <string.h>
#include <strings.h>

#include "cli.h"

struct candidates {
	char **words;
	size_t count;
	size_t alloc;
	const char *prefix; /* only words starting with this are kept */
	size_t strip;       /* leading characters to drop from each word kept */
};

static void add_candidate(struct candidates *cands, const char *word, size_t len)
{
	char **grown;

	if (strlen(cands->prefix) > len || strncasecmp(word, cands->prefix, strlen(cands->prefix)))
		return;
	if (cands->strip > len)
		return;
	word += cands->strip;
	len -= cands->strip;
	for (size_t i = 0; i < cands->count; i++)
		if (strlen(cands->words[i]) == len && !strncmp(cands->words[i], word, len))
			return;
	if (cands->count == cands->alloc) {
		size_t alloc = cands->alloc ? cands->alloc * 2 : 16;

		grown = rcl_realloc(cands->words, alloc * sizeof(*grown));
		if (!grown)
			return;
		cands->words = grown;
		cands->alloc = alloc;
	}
	cands->words[cands->count] = rcl_strndup(word, len);
	if (cands->words[cands->count])
		cands->count++;
}

/*
 * Offer @path cut after the component being typed, so "/c" offers "/c0"
 * and "/call" rather than every path below them.
 */
static void add_path(struct candidates *cands, const char *path)
{
	size_t plen = strlen(cands->prefix);
	const char *cut;

	if (strlen(path) < plen)
		return;
	cut = strchr(path + plen + (path[plen] == '/'), '/');
	add_candidate(cands, path, cut ? (size_t)(cut - path) : strlen(path));
}

static void add_ctrl_paths(struct candidates *cands, const char *c, const struct rcl_ctrl *ctrl)
{
	char path[96];
	static const char *const tails[] = {"",      "/eall", "/eall/sall", "/sall",
	                                    "/vall", "/dall", "/fall"};

	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		snprintf(path, sizeof(path), "/%s%s", c, tails[i]);
		add_path(cands, path);
	}
	for (size_t i = 0; ctrl && i < rcl_ctrl_enclosure_count(ctrl); i++) {
		unsigned e = rcl_ctrl_enclosure(ctrl, i)->id;

		snprintf(path, sizeof(path), "/%s/e%u", c, e);
		add_path(cands, path);
		snprintf(path, sizeof(path), "/%s/e%u/sall", c, e);
		add_path(cands, path);
	}
	for (size_t i = 0; ctrl && i < rcl_ctrl_drive_count(ctrl); i++) {
		const struct rcl_drive *d = rcl_ctrl_drive(ctrl, i);

		snprintf(path, sizeof(path), "/%s/e%u/s%u", c, d->enclosure, d->slot);
		add_path(cands, path);
		snprintf(path, sizeof(path), "/%s/s%u", c, d->slot);
		add_path(cands, path);
	}
}

/*
 * Every object path of the live configuration that extends the prefix.
 * StorCLI also takes a path in separate words ("/c0 /e252 /s0"): @before
 * are the path words already typed, and the word being typed continues
 * them, so "/c0 /e" offers "/eall" and "/e252".
 */
static void complete_path(struct candidates *cands, char **before, int count_before)
{
	struct rcl_buf full = RCL_BUF_INIT;
	const char *typed = cands->prefix;
	struct rcl_ctx *lib;
	const unsigned *ids;
	size_t count;

	for (int i = 0; i < count_before; i++) {
		size_t len = strlen(before[i]);

		while (len && before[i][len - 1] == '/')
			len--;
		rcl_buf_add(&full, before[i], len);
	}
	cands->strip = full.len;
	rcl_buf_adds(&full, typed);
	if (full.oom || rcl_ctx_new(&lib, NULL, NULL))
		goto out;
	cands->prefix = full.buf;
	count = rcl_ctx_ctrl_ids(lib, &ids);
	if (count)
		add_ctrl_paths(cands, "call", NULL);
	for (size_t i = 0; i < count; i++) {
		struct rcl_ctrl *ctrl = NULL;
		char c[16];

		snprintf(c, sizeof(c), "c%u", ids[i]);
		/* Skip the drives of a controller that cannot be read. */
		rcl_ctrl_open(lib, ids[i], RCL_LOCK_SHARED, &ctrl, NULL);
		add_ctrl_paths(cands, c, ctrl);
		rcl_ctrl_close(ctrl);
	}
	rcl_ctx_free(lib);
out:
	cands->prefix = typed;
	cands->strip = 0;
	rcl_buf_release(&full);
}

/* Whether @opt goes with the type= already given in @given (any, before one is). */
static bool fits_type(const struct cmd_spec *cmd, const struct opt_spec *opt,
                      const struct cmd_args *given)
{
	const char *type = NULL;

	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++)
		if (!strcmp(cmd->opts[i].name, "type"))
			type = given->values[i];
	if (!opt->types || !type)
		return true;
	for (size_t k = 0; opt->types[k]; k++)
		if (!strcasecmp(opt->types[k], type))
			return true;
	return false;
}

static void complete_option(struct candidates *cands, const struct cmd_spec *cmd,
                            const struct cmd_args *given, const struct rcl_caps *caps)
{
	const char *eq = strchr(cands->prefix, '=');
	char word[96];

	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++) {
		const struct opt_spec *opt = &cmd->opts[i];
		size_t keylen = strlen(opt->name);

		if (given->values[i] || !cli_offers_opt(opt, caps) || !fits_type(cmd, opt, given))
			continue;
		if (eq && opt->type == OPT_ENUM && (size_t)(eq - cands->prefix) == keylen &&
		    !strncasecmp(cands->prefix, opt->name, keylen)) {
			for (size_t k = 0; opt->choices[k]; k++) {
				if (!cli_offers_choice(cmd, opt, opt->choices[k], caps))
					continue;
				snprintf(word, sizeof(word), "%s=%s", opt->name, opt->choices[k]);
				add_candidate(cands, word, strlen(word));
			}
		} else if (!eq && opt->bare == OPT_BARE_SHOWN) {
			for (size_t k = 0; opt->choices[k]; k++)
				add_candidate(cands, opt->choices[k], strlen(opt->choices[k]));
		} else if (!eq) {
			snprintf(word, sizeof(word), "%s%s", opt->name,
			         opt->type == OPT_FLAG ? "" : "=");
			add_candidate(cands, word, strlen(word));
		}
	}
}

/*
 * Record which options @words already give, and their values (borrowed
 * from @words; "" for a flag), ignoring mistakes.
 */
static void note_given(const struct cmd_spec *cmd, char **words, size_t count,
                       struct cmd_args *given)
{
	for (size_t w = 0; w < count; w++)
		for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++) {
			size_t keylen = strcspn(words[w], "=");

			if (strlen(cmd->opts[i].name) == keylen &&
			    !strncasecmp(cmd->opts[i].name, words[w], keylen))
				given->values[i] = words[w] + keylen + !!words[w][keylen];
			/* A bare value ("r5", "wb") gives its option too. */
			if (cmd->opts[i].bare != OPT_KEYED &&
			    grammar_enum_value(&cmd->opts[i], words[w]))
				given->values[i] = words[w];
		}
}

/*
 * The verb and option words after the path in @argv, those a controller
 * with @caps offers; unless @caps_given, those of the controllers the path
 * addresses.
 */
static void complete_words(struct candidates *cands, char **argv, int argc,
                           const struct rcl_caps *caps, bool caps_given)
{
	struct rcl_caps sum;
	const char *next[32], *paths[32];
	char *words[64];
	size_t npath = 0, nwords = 0, matched = 0;
	struct cmd_args given = {0};
	const struct cmd_spec *cmd;
	bool json = false, nolog = false;
	int i;

	for (i = 0; i < argc && argv[i][0] == '/' && npath < 32; i++)
		paths[npath++] = argv[i];
	for (; i < argc && nwords < 64; i++) {
		if (cli_is_json_word(argv[i]))
			json = true;
		else if (cli_is_nolog_word(argv[i]))
			nolog = true;
		else
			words[nwords++] = argv[i];
	}
	if (cli_parse_path(paths, npath, &given.path, NULL))
		return;
	if (!caps_given)
		caps = cli_path_caps(&given.path, &sum);
	cmd = grammar_match(given.path.kind, words, nwords, &matched);
	if (cmd && !cli_offers(cmd, caps))
		cmd = NULL;
	/* No command's verb yet: the words may start one ("start" of "start cc"). */
	if (matched == nwords || !matched) {
		size_t n = grammar_next_words(given.path.kind, words, nwords, caps, next, 32);

		for (size_t k = 0; k < n; k++)
			add_candidate(cands, next[k], strcspn(next[k], " "));
		if (!nwords)
			add_candidate(cands, "help", 4);
	}
	if (cmd) {
		note_given(cmd, words + matched, nwords - matched, &given);
		complete_option(cands, cmd, &given, caps);
		if (!json)
			add_candidate(cands, "J", 1);
		if (!nolog)
			add_candidate(cands, "nolog", 5);
	}
}

static size_t complete_line(const char *line, const struct rcl_caps *caps, bool caps_given,
                            char ***out)
{
	struct candidates cands = {0};
	size_t len = strlen(line);
	bool fresh = !len || line[len - 1] == ' ' || line[len - 1] == '\t';
	bool only_paths = true;
	char **argv;
	int argc, nsplit;

	*out = NULL;
	if (cli_split_line(line, &argc, &argv, NULL))
		return 0;
	/*
	 * Free what was split, not argc +/- 1: a line ending in a comment or
	 * in whitespace other than ' ' and '\t' ("#", "show\r") is not fresh,
	 * yet may split into no words at all.
	 */
	nsplit = argc;
	cands.prefix = fresh || !argc ? "" : argv[argc - 1];
	if (!fresh && argc)
		argc--;
	for (int i = 0; i < argc; i++)
		only_paths = only_paths && argv[i][0] == '/';
	/*
	 * A path comes first: offer one on an empty line, or where a word
	 * starting with '/' may still be part of it. After a path, an empty
	 * word wants the verb.
	 */
	if (cands.prefix[0] == '/' && only_paths)
		complete_path(&cands, argv, argc);
	else if (!cands.prefix[0] && !argc)
		complete_path(&cands, NULL, 0);
	if (cands.prefix[0] != '/')
		complete_words(&cands, argv, argc, caps, caps_given);
	cli_free_words(nsplit, argv);
	*out = cands.words;
	return cands.count;
}

size_t cli_complete(const char *line, char ***out)
{
	return complete_line(line, NULL, false, out);
}

size_t cli_complete_caps(const char *line, const struct rcl_caps *caps, char ***out)
{
	return complete_line(line, caps, true, out);
}

/*
 * The scripts hand "raidcli __complete" the words after the command name,
 * up to the cursor, as one string (the same line the shell completes), and
 * it answers with whole words, one a line.
 *
 * Bash: readline replaces only the text after the last COMP_WORDBREAKS
 * character ('=' and ':' by default), so "type=so" must be answered with
 * "soft"; the script drops that many leading characters from each answer.
 * The line is cut from COMP_LINE rather than joined from COMP_WORDS, which
 * bash has already split at those characters.
 */
static const char bash_script[] =
    "# bash completion for raidcli -*- shell-script -*-\n"
    "# Generated by 'raidcli __completion bash'; the grammar lives in raidcli.\n"
    "_raidcli()\n"
    "{\n"
    "    (( COMP_CWORD > 0 )) || return 0\n"
    "    local line=${COMP_LINE:0:COMP_POINT}\n"
    "    local word=${line##*[[:space:]]}\n"
    "    local keep=${#word} IFS=$'\\n' w\n"
    "    while (( keep > 0 )) && [[ $COMP_WORDBREAKS != *\"${word:keep-1:1}\"* ]]; do\n"
    "        (( keep-- ))\n"
    "    done\n"
    "    line=${line#*\"${COMP_WORDS[0]}\"}\n"
    "    COMPREPLY=()\n"
    "    for w in $(\"${COMP_WORDS[0]}\" __complete \"$line\" 2>/dev/null); do\n"
    "        COMPREPLY+=(\"${w:keep}\")\n"
    "    done\n"
    "    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[=/] ]]; then\n"
    "        compopt -o nospace 2>/dev/null\n"
    "    fi\n"
    "}\n"
    "complete -F _raidcli raidcli\n";

static const char zsh_script[] =
    "#compdef raidcli\n"
    "# zsh completion for raidcli.\n"
    "# Generated by 'raidcli __completion zsh'; the grammar lives in raidcli.\n"
    "_raidcli() {\n"
    "    local -a open closed\n"
    "    local w line=\"${(j: :)words[2,CURRENT-1]} $PREFIX\"\n"
    "    for w in ${(f)\"$(${words[1]} __complete \"$line\" 2>/dev/null)\"}; do\n"
    "        if [[ $w == *[=/] ]]; then open+=($w); else closed+=($w); fi\n"
    "    done\n"
    "    compadd -Q -S '' -a open\n"
    "    compadd -Q -a closed\n"
    "}\n"
    "_raidcli \"$@\"\n";

static const char fish_script[] =
    "# fish completion for raidcli.\n"
    "# Generated by 'raidcli __completion fish'; the grammar lives in raidcli.\n"
    "function __raidcli_complete\n"
    "    set -l words (commandline -opc)\n"
    "    set -l cur (commandline -ct)\n"
    "    $words[1] __complete (string join ' ' -- $words[2..-1] \"$cur\") 2>/dev/null\n"
    "end\n"
    "complete -c raidcli -f -a '(__raidcli_complete)'\n";

void cli_completion_script(FILE *out, const char *shell)
{
	if (!strcmp(shell, "bash"))
		fputs(bash_script, out);
	else if (!strcmp(shell, "zsh"))
		fputs(zsh_script, out);
	else if (!strcmp(shell, "fish"))
		fputs(fish_script, out);
}
