#!/bin/bash
# SPDX-License-Identifier: MIT
#
# test-install.sh - `meson install` puts everything in place, and a program
# outside the project builds against the installed header and pkg-config
# file, links the shared library and sees the same controllers as raidcli.
set -euo pipefail
dest=$(mktemp -d)
RAIDCLI_STATE_DIR=$(mktemp -d /dev/shm/raidcli-install.XXXXXX)
export RAIDCLI_STATE_DIR
trap 'rm -rf "$dest" "$RAIDCLI_STATE_DIR"' EXIT

meson install -C "$BUILD_ROOT" --destdir "$dest" --no-rebuild --quiet
prefix=$(meson introspect "$BUILD_ROOT" --buildoptions |
	/usr/bin/python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')
root=$dest$prefix
fail=0
for f in sbin/raidcli include/raidcli.h share/man/man8/raidcli.8 share/man/man7/raidcli-format.7 \
	share/bash-completion/completions/raidcli share/zsh/site-functions/_raidcli \
	share/fish/vendor_completions.d/raidcli.fish; do
	[ -e "$root/$f" ] || { echo "FAIL: $f not installed"; fail=1; }
done
pc=$(dirname "$(find "$root" -name libraidcli.pc | head -1)")
[ -n "$pc" ] || { echo "FAIL: libraidcli.pc not installed"; exit 1; }

export PKG_CONFIG_PATH=$pc PKG_CONFIG_SYSROOT_DIR=$dest
unset LD_LIBRARY_PATH # meson points it at the build tree; use the installed library
cc -Wall -Wextra -Werror -o "$dest/list-drives" "$SOURCE_ROOT/tests/install/list-drives.c" \
	$(pkg-config --cflags --libs libraidcli)
libdir=$(dirname "$pc") # the .pc file lives in $libdir/pkgconfig

"$root/sbin/raidcli" add controller type=soft drives=2 size=64MB >/dev/null
out=$(LD_LIBRARY_PATH=$libdir "$dest/list-drives")
echo "$out"
# grep -q would close the pipe early and pipefail would blame ldd: capture first.
linked=$(LD_LIBRARY_PATH=$libdir ldd "$dest/list-drives")
grep -qF "$libdir/libraidcli.so" <<<"$linked" ||
	{ echo "FAIL: example did not link the installed shared library"; fail=1; }
[ "$(grep -c '^/c0/e252/s[01] UGood 67108864$' <<<"$out")" = 2 ] ||
	{ echo "FAIL: example did not list the two drives"; fail=1; }
[ $fail = 0 ] && echo "1 passed, 0 failed"
exit $fail
