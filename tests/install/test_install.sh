#!/usr/bin/env bash
# Install a configured build into a staging directory (DESTDIR) and check
# what a site gets: the library with its soname, the header, governor.pc,
# the tool, the man pages (rendered without warnings, every verb and
# plugstack key documented) and governor.so in Slurm's plugin directory.
# Then build tests/install/consumer.c against the staged governor.pc and
# run it.
#
# usage: tests/install/test_install.sh BUILDDIR
# Prints "ok N - ..." / "not ok N - ..." lines; exits 1 when one failed.
set -uo pipefail

# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
build_and_scratch stage "$@"
src=$(cd "$(dirname "$0")/../.." && pwd)
succeeds() { # DESCRIPTION CMD...: passes when CMD succeeds; shows its output otherwise
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$desc"; else fail "$desc" "$out"; fi
}

# The build's own install layout, from meson's introspection.
libdir='' includedir='' bindir='' mandir='' datadir='' libexecdir='' slurm_plugindir='' have_plugin=0 man_built=0 version=''
probes=''

eval "$(meson introspect "$build" --buildoptions --targets --projectinfo | python3 -c '
import json, shlex, sys
info = json.load(sys.stdin)
opts = {o["name"]: o["value"] for o in info["buildoptions"]}
for k in ("libdir", "includedir", "bindir", "mandir", "datadir", "libexecdir", "slurm_plugindir"):
    v = opts[k]
    if v and not v.startswith("/"):
        v = opts["prefix"] + "/" + v
    print("%s=%s" % (k, shlex.quote(v)))
plugin = [t for t in info["targets"] if t["name"] == "governor" and t["type"] == "shared module"]
print("have_plugin=%d" % bool(plugin))
print("man_built=%d" % any(t["name"] == "governor.1" for t in info["targets"]))
print("version=%s" % shlex.quote(info["projectinfo"]["version"]))
# The probes of governor doctor --runtimes this build made (its compilers).
print("probes=%s" % shlex.quote(" ".join(sorted(t["name"] for t in info["targets"]
                                                if t["name"].startswith("governor-probe-")))))
')" || { echo "not ok 1 - read the build's options with meson introspect"; exit 1; }

if out=$(meson install -C "$build" --destdir "$work" --quiet 2>&1); then
	pass "meson install into a staging directory"
else
	fail "meson install into a staging directory" "$out"
	finish
fi
S=$work

# Library: the real file, the soname link and the development link.
real=$S$libdir/libgovernor.so.$version
succeeds "library $libdir/libgovernor.so.$version" test -f "$real"
succeeds "soname link libgovernor.so.1" test -L "$S$libdir/libgovernor.so.1" -a -e "$S$libdir/libgovernor.so.1"
succeeds "development link libgovernor.so" test -L "$S$libdir/libgovernor.so" -a -e "$S$libdir/libgovernor.so"
soname=$(readelf -d "$real" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [[ $soname == libgovernor.so.1 ]]; then pass "SONAME is libgovernor.so.1"; else fail "SONAME is libgovernor.so.1" "found '$soname'"; fi
succeeds "header $includedir/governor.h" test -f "$S$includedir/governor.h"
succeeds "pkg-config file $libdir/pkgconfig/governor.pc" test -f "$S$libdir/pkgconfig/governor.pc"

# The tool.
succeeds "tool $bindir/governor" test -x "$S$bindir/governor"
out=$(LD_LIBRARY_PATH=$S$libdir "$S$bindir/governor" --version 2>&1)
if [[ $out == "governor $version" ]]; then pass "governor --version says $version"; else fail "governor --version says $version" "$out"; fi

# Man pages.
pages=("$mandir/man1/governor.1")
((have_plugin)) && pages+=("$mandir/man8/governor.so.8")
for p in "${pages[@]}"; do
	if ((!man_built)); then
		fail "man page $p" "not built: install scdoc (tests/install-deps.sh) or configure with -Dman=enabled"
		continue
	fi
	succeeds "man page $p" test -f "$S$p"
	warn=$(MANWIDTH=80 man -l --warnings "$S$p" 2>&1 >/dev/null)
	if [[ -z $warn ]]; then pass "man -l --warnings renders $(basename "$p") cleanly"; else fail "man -l --warnings renders $(basename "$p") cleanly" "$warn"; fi
done
if ((man_built)); then
	page=$(MANWIDTH=200 man -l "$S$mandir/man1/governor.1" 2>/dev/null)
	missing=
	for verb in $(LD_LIBRARY_PATH=$S$libdir "$S$bindir/governor" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'); do
		grep -Eq "^ {7}$verb( |$)" <<<"$page" || missing+=" $verb"
	done
	if [[ -z $missing ]]; then pass "governor(1) documents every verb of governor --help"; else fail "governor(1) documents every verb of governor --help" "missing:$missing"; fi
	if ((have_plugin)); then
		page=$(MANWIDTH=200 man -l "$S$mandir/man8/governor.so.8" 2>/dev/null)
		missing=
		keys=$(sed -n '/policy_keys\[\] = {/,/^};/p' "$src/spank/parse/policy.c" | sed -n 's/^ *{ "\([a-z_]*\)".*/\1/p')
		[[ -n $keys ]] || missing+=" (no keys found in spank/parse/policy.c)"
		for k in $keys; do
			grep -Eq "^ {7}$k=" <<<"$page" || missing+=" $k="
		done
		for m in batch interactive threads off; do
			grep -Eq "^ {11}$m$" <<<"$page" || missing+=" --governor=$m"
		done
		if [[ -z $missing ]]; then pass "governor.so(8) documents every plugstack key and mode"; else fail "governor.so(8) documents every plugstack key and mode" "missing:$missing"; fi
	fi
fi

# The plugin, in Slurm's plugin directory.
if ((have_plugin)); then
	so=$(find "$S" -name governor.so -type f)
	dir=${so#"$S"}
	dir=${dir%/governor.so}
	if [[ -n $slurm_plugindir ]]; then
		if [[ $dir == "$slurm_plugindir" ]]; then pass "plugin in -Dslurm_plugindir=$slurm_plugindir"; else fail "plugin in -Dslurm_plugindir=$slurm_plugindir" "found at '${so#"$S"}'"; fi
	elif compgen -G "$dir/auth_*.so" >/dev/null; then
		pass "plugin in Slurm's plugin directory $dir (it holds Slurm's own plugins)"
	elif [[ -z $dir ]]; then
		fail "plugin installed" "no governor.so under the staging directory"
	else
		skip "no Slurm plugins on this machine to compare with" "plugin in Slurm's plugin directory $dir"
	fi
	if [[ -n $so ]]; then
		succeeds "plugin exports slurm_spank_init and plugin_name" \
			bash -c "nm -D --defined-only '$so' | grep -qw slurm_spank_init && nm -D --defined-only '$so' | grep -qw plugin_name"
		needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
		if [[ $needed != *hwloc* ]]; then pass "plugin does not link libhwloc (login nodes load it without)"; else fail "plugin does not link libhwloc" "NEEDED: $needed"; fi
		if command -v srun >/dev/null; then
			conf=$(mktemp -d /tmp/governor-conf.XXXXXX)
			printf 'ClusterName=install\nSlurmctldHost=localhost\nPlugStackConfig=%s/plugstack.conf\nNodeName=localhost CPUs=1\nPartitionName=p Nodes=localhost Default=YES\n' "$conf" >"$conf/slurm.conf"
			printf 'required %s\n' "$so" >"$conf/plugstack.conf"
			# A hang guard only: this runs in a SCHED_IDLE lane of
			# tests/run-all.sh beside the end-to-end suites, where it
			# gets a CPU only when nothing else wants one.
			out=$(SLURM_CONF=$conf/slurm.conf timeout 120 srun --help 2>&1)
			rm -rf "$conf"
			if grep -q -- '--governor=MODE' <<<"$out"; then pass "srun loads the staged plugin: --help lists --governor"; else fail "srun loads the staged plugin: --help lists --governor" "$(tail -5 <<<"$out")"; fi
		else
			skip "no srun on this machine" "srun loads the staged plugin"
		fi
	fi
fi

# Nothing installed beyond the expected files.
completion=$datadir/bash-completion/completions/governor
if [[ -f $S$completion ]]; then pass "bash completion $completion"; else fail "bash completion $completion" "not installed"; fi
zcompletion=$datadir/zsh/site-functions/_governor
if [[ -f $S$zcompletion ]]; then pass "zsh completion $zcompletion"; else fail "zsh completion $zcompletion" "not installed"; fi
expected=("$libdir/libgovernor.so.$version" "$libdir/libgovernor.so.1" "$libdir/libgovernor.so"
	"$includedir/governor.h" "$libdir/pkgconfig/governor.pc" "$bindir/governor" "$completion"
	"$zcompletion")
((man_built)) && expected+=("${pages[@]}")
((have_plugin)) && expected+=("${so#"$S"}")
for p in $probes; do
	succeeds "doctor --runtimes' probe $libexecdir/governor/probes/$p" test -x "$S$libexecdir/governor/probes/$p"
	expected+=("$libexecdir/governor/probes/$p")
done
extra=$(cd "$S" && find . \( -type f -o -type l \) | sed 's/^\.//' | sort | comm -23 - <(printf '%s\n' "${expected[@]}" | sort))
if [[ -z $extra ]]; then pass "no other files installed"; else fail "no other files installed" "$extra"; fi

# A program outside the project, through the staged governor.pc.
export PKG_CONFIG_PATH=$S$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$S
# Keep -I/usr/include and -L/usr/lib...: under the sysroot they are not the system's.
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
out=$(pkg-config --modversion governor 2>&1)
if [[ $out == "$version" ]]; then pass "pkg-config --modversion governor is $version"; else fail "pkg-config --modversion governor is $version" "$out"; fi
bin=$work/consumer
cflags=$(pkg-config --cflags governor) libs=$(pkg-config --libs governor)
# shellcheck disable=SC2086 # pkg-config output is a list of words
if out=$(${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$bin" "$src/tests/install/consumer.c" $cflags $libs 2>&1); then
	pass "consumer.c builds with pkg-config --cflags --libs governor"
	needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
	if [[ $needed == *libgovernor.so.1* ]]; then pass "consumer needs libgovernor.so.1"; else fail "consumer needs libgovernor.so.1" "NEEDED: $needed"; fi
	out=$(LD_LIBRARY_PATH=$S$libdir "$bin" 2>&1)
	if [[ $? -eq 0 && $out == *'"schema":"governor.snapshot/1"'* ]]; then
		pass "consumer runs against the staged library and prints a snapshot"
	else
		fail "consumer runs against the staged library and prints a snapshot" "$(head -c 600 <<<"$out")"
	fi
	lib=$(LD_LIBRARY_PATH=$S$libdir ldd "$bin" | sed -n 's/.*libgovernor.so.1 => \([^ ]*\).*/\1/p')
	if [[ $lib == "$S"* ]]; then pass "consumer loads the staged libgovernor"; else fail "consumer loads the staged libgovernor" "loaded '$lib'"; fi
else
	fail "consumer.c builds with pkg-config --cflags --libs governor" "$out"
fi

finish
