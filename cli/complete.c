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
};

static void add_candidate(struct candidates *cands, const char *word, size_t len)
{
	char **grown;

	if (strlen(cands->prefix) > len || strncasecmp(word, cands->prefix, strlen(cands->prefix)))
		return;
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
	static const char *const tails[] = {"", "/eall", "/eall/sall", "/sall", "/vall", "/dall"};

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

/* Every object path of the live configuration that extends the prefix. */
static void complete_path(struct candidates *cands)
{
	struct rcl_ctx *lib;
	const unsigned *ids;
	size_t count;

	if (rcl_ctx_new(&lib, NULL, NULL))
		return;
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
}

static void complete_option(struct candidates *cands, const struct cmd_spec *cmd,
			    const struct cmd_args *given)
{
	const char *eq = strchr(cands->prefix, '=');
	char word[96];

	for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++) {
		const struct opt_spec *opt = &cmd->opts[i];
		size_t keylen = strlen(opt->name);

		if (given->values[i])
			continue;
		if (eq && opt->type == OPT_ENUM && (size_t)(eq - cands->prefix) == keylen &&
		    !strncasecmp(cands->prefix, opt->name, keylen)) {
			for (size_t k = 0; opt->choices[k]; k++) {
				snprintf(word, sizeof(word), "%s=%s", opt->name, opt->choices[k]);
				add_candidate(cands, word, strlen(word));
			}
		} else if (!eq) {
			snprintf(word, sizeof(word), "%s%s", opt->name,
				 opt->type == OPT_FLAG ? "" : "=");
			add_candidate(cands, word, strlen(word));
		}
	}
}

/* Record which options @words already give, ignoring mistakes. */
static void note_given(const struct cmd_spec *cmd, char **words, size_t count,
		       struct cmd_args *given)
{
	for (size_t w = 0; w < count; w++)
		for (size_t i = 0; i < CMD_MAX_OPTS && cmd->opts[i].name; i++) {
			size_t keylen = strcspn(words[w], "=");

			if (strlen(cmd->opts[i].name) == keylen &&
			    !strncasecmp(cmd->opts[i].name, words[w], keylen))
				given->values[i] = "given";
		}
}

static void complete_words(struct candidates *cands, char **argv, int argc)
{
	const char *next[32], *paths[32];
	char *words[64];
	size_t npath = 0, nwords = 0, matched = 0;
	struct cmd_args given = {0};
	const struct cmd_spec *cmd;
	int i;

	for (i = 0; i < argc && argv[i][0] == '/' && npath < 32; i++)
		paths[npath++] = argv[i];
	for (; i < argc && nwords < 64; i++)
		if (!cli_is_json_word(argv[i]) && !cli_is_nolog_word(argv[i]))
			words[nwords++] = argv[i];
	if (cli_parse_path(paths, npath, &given.path, NULL))
		return;
	cmd = grammar_match(given.path.kind, words, nwords, &matched);
	if (matched == nwords) {
		size_t n = grammar_next_words(given.path.kind, words, nwords, next, 32);

		for (size_t k = 0; k < n; k++)
			add_candidate(cands, next[k], strcspn(next[k], " "));
		if (!nwords)
			add_candidate(cands, "help", 4);
	}
	if (cmd) {
		note_given(cmd, words + matched, nwords - matched, &given);
		complete_option(cands, cmd, &given);
		add_candidate(cands, "J", 1);
		add_candidate(cands, "nolog", 5);
	}
}

size_t cli_complete(const char *line, char ***out)
{
	struct candidates cands = {0};
	size_t len = strlen(line);
	bool fresh = !len || line[len - 1] == ' ' || line[len - 1] == '\t';
	char **argv;
	int argc;

	*out = NULL;
	if (cli_split_line(line, &argc, &argv, NULL))
		return 0;
	cands.prefix = fresh || !argc ? "" : argv[argc - 1];
	if (!fresh && argc)
		argc--;
	/* Paths come first: offer them until a verb has been typed. */
	if (cands.prefix[0] == '/' || (!cands.prefix[0] && (!argc || argv[argc - 1][0] == '/')))
		complete_path(&cands);
	if (cands.prefix[0] != '/')
		complete_words(&cands, argv, argc);
	cli_free_words(fresh ? argc : argc + 1, argv);
	*out = cands.words;
	return cands.count;
}

/*
 * The scripts hand the line up to the cursor to "raidcli __complete", which
 * answers with whole words. Bash splits words at '=' and ':' too, so its
 * script strips the part of each answer that bash keeps outside the word.
 */
static const char bash_script[] =
	"# bash completion for raidcli -*- shell-script -*-\n"
	"# Generated by 'raidcli __completion bash'; the grammar lives in raidcli.\n"
	"_raidcli()\n"
	"{\n"
	"    local line=${COMP_LINE:0:COMP_POINT}\n"
	"    local cur=${COMP_WORDS[COMP_CWORD]}\n"
	"    local word=${line##*[[:space:]]}\n"
	"    local strip=$(( ${#word} - ${#cur} ))\n"
	"    local IFS=$'\\n' w\n"
	"    (( strip < 0 )) && strip=0\n"
	"    COMPREPLY=()\n"
	"    for w in $(\"${COMP_WORDS[0]}\" __complete \"$line\" 2>/dev/null); do\n"
	"        COMPREPLY+=(\"${w:strip}\")\n"
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
	"    local -a words_done words_open\n"
	"    local w\n"
	"    for w in ${(f)\"$(${words[1]} __complete \"${BUFFER[1,CURSOR]}\" 2>/dev/null)\"}; do\n"
	"        if [[ $w == *[=/] ]]; then words_open+=($w); else words_done+=($w); fi\n"
	"    done\n"
	"    compadd -Q -S '' -a words_open\n"
	"    compadd -Q -a words_done\n"
	"}\n"
	"_raidcli \"$@\"\n";

static const char fish_script[] =
	"# fish completion for raidcli.\n"
	"# Generated by 'raidcli __completion fish'; the grammar lives in raidcli.\n"
	"complete -c raidcli -f -a '(raidcli __complete (commandline -cp))'\n";

void cli_completion_script(FILE *out, const char *shell)
{
	if (!strcmp(shell, "bash"))
		fputs(bash_script, out);
	else if (!strcmp(shell, "zsh"))
		fputs(zsh_script, out);
	else if (!strcmp(shell, "fish"))
		fputs(fish_script, out);
}
