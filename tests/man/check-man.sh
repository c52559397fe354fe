#!/bin/bash
# SPDX-License-Identifier: MIT
#
# check-man.sh PAGE - check the built raidcli(8) against the grammar.
# check-man.sh --render-only PAGE - check 1 only, for the other pages.
#
#  1. The page renders without a single groff (or man) warning.
#  2. Every command that 'raidcli __grammar' prints is in COMMANDS as a
#     synopsis line of its own, exactly as printed ("raidcli /cx delete
#     [force] [delete=files]"), so its object form, verb words and options
#     are all there.
#  3. Every option of a command is an item of that command's description:
#     a line starting with its name ("force", "size=size").
#  4. Every synopsis line in COMMANDS is a command of the grammar, so the
#     page documents nothing that is not built.
#
# Needs $RAIDCLI (the built binary), groff, and man(1) if installed.
set -euo pipefail

render_only=0
if [ "${1:-}" = --render-only ]; then
	render_only=1
	shift
fi
page=${1:?usage: check-man.sh [--render-only] PAGE}
[ $render_only = 1 ] || : "${RAIDCLI:?RAIDCLI must name the built raidcli binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

# 1. Warnings. -ww enables every warning; -z discards the output. scdoc
# tables need tbl (-t). man(1) is checked too: it is how users read it.
if ! groff -t -man -Tutf8 -ww -z "$page" 2>"$tmp/groff.err"; then
	fail "groff exits with an error on $page"
fi
if [ -s "$tmp/groff.err" ]; then
	fail "groff warns about $page:"
	sed 's/^/    /' "$tmp/groff.err"
fi
if command -v man >/dev/null; then
	if ! MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$page" \
		>/dev/null 2>"$tmp/man.err"; then
		fail "man -l exits with an error on $page"
	fi
	if [ -s "$tmp/man.err" ]; then
		fail "man -l warns about $page:"
		sed 's/^/    /' "$tmp/man.err"
	fi
else
	echo "note: man(1) not installed; checked with groff only"
fi
if [ $render_only = 1 ]; then
	[ $status = 0 ] && echo "ok: $page renders without warnings"
	exit $status
fi

# The page as plain text, one paragraph per line (no wrapping, no
# hyphenation), with typographic dashes and quotes turned back into ASCII.
groff -t -man -Tutf8 -rLL=5000n -rHY=0 -P-cbou "$page" 2>/dev/null |
	sed -e 's/\xe2\x80\x90/-/g; s/\xe2\x88\x92/-/g; s/\xe2\x80\x99/'"'"'/g' \
		-e 's/\xe2\x80\x98/'"'"'/g' >"$tmp/page.txt"
# Just the COMMANDS section: from its heading to the next one.
awk '/^[A-Z]/ { on = ($0 == "COMMANDS") } on' "$tmp/page.txt" >"$tmp/commands.txt"
if [ ! -s "$tmp/commands.txt" ]; then
	fail "the page has no COMMANDS section"
	exit 1
fi
# Synopses sit at the section's body indentation, that of its first
# paragraph; example output is indented deeper.
indent=$(awk 'NR > 1 && /[^ ]/ { match($0, /[^ ]/); print RSTART - 1; exit }' \
	"$tmp/commands.txt")

"$RAIDCLI" __grammar >"$tmp/grammar.txt"
if [ ! -s "$tmp/grammar.txt" ]; then
	fail "'$RAIDCLI __grammar' printed nothing"
	exit 1
fi

# The options of a synopsis: after the path and the verb words, each
# "name=...", "[name=...]", "[name]", and any bare word once options began.
# A value's placeholder may hold a space ("<yyyy/mm/dd hh>"): its second
# word is no option.
options_of() {
	local word in_opts=0 in_placeholder=0
	for word in $1; do
		if [ $in_placeholder = 1 ]; then
			case $word in *\>*) in_placeholder=0 ;; esac
			continue
		fi
		case $word in *\<*) case $word in *\>*) ;; *) in_placeholder=1 ;; esac ;; esac
		case $word in
		raidcli | /*) continue ;;
		\[* | *=*) in_opts=1 ;;
		esac
		[ $in_opts = 1 ] || continue
		word=${word#[}
		word=${word%]}
		echo "${word%%=*}"
	done
}

# The description block of the synopsis on line $1 of commands.txt: the
# lines after it up to the next synopsis or heading. Synopses that follow
# each other with nothing between share the block after the last of them.
block_of() {
	awk -v start="$1" -v indent="$indent" '
		function synopsis(s) {
			match(s, /[^ ]/)
			return RSTART == indent + 1 && substr(s, RSTART, 8) == "raidcli "
		}
		NR <= start { next }
		match($0, /[^ ]/) && RSTART <= 4 { exit }
		synopsis($0) { if (body) exit; next }
		/[^ ]/ { body = 1 }
		{ print }
	' "$tmp/commands.txt"
}

# 2 and 3: each command of the grammar, and its options.
commands=0
while IFS= read -r synopsis; do
	commands=$((commands + 1))
	line=$(awk -v want="$synopsis" -v indent="$indent" '
		substr($0, 1, indent) ~ /^ *$/ && substr($0, indent + 1) == want { print NR; exit }
	' "$tmp/commands.txt")
	if [ -z "$line" ]; then
		fail "COMMANDS lacks the line: $synopsis"
		continue
	fi
	block_of "$line" >"$tmp/block.txt"
	for opt in $(options_of "$synopsis"); do
		if ! grep -Eq "^ +${opt}(=| *\$)" "$tmp/block.txt"; then
			fail "option '$opt' of '$synopsis' is not an item of its description"
		fi
	done
done <"$tmp/grammar.txt"

# 4. Nothing documented that the grammar lacks.
while IFS= read -r documented; do
	if ! grep -qxF -- "$documented" "$tmp/grammar.txt"; then
		fail "COMMANDS documents a command the grammar lacks: $documented"
	fi
done < <(awk -v indent="$indent" '
	substr($0, 1, indent) ~ /^ *$/ && substr($0, indent + 1, 8) == "raidcli " {
		print substr($0, indent + 1)
	}' "$tmp/commands.txt")

if [ $status = 0 ]; then
	echo "ok: $page renders without warnings and documents all $commands commands"
fi
exit $status
