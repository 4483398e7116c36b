#!/usr/bin/env bash
# docs/architecture.md's source table names every source file of the
# products (core/, spank/, runtime/, tool/ and include/governor.h), each in
# one row, and no file that does not exist, so that the map a newcomer
# reads cannot drift from the tree (issue 39, item 3).  A file counts as named by its path, by
# its name in its folder's row, or by a pattern there (`cmd_*.c`,
# `runtime/admission/*.c`).  Headers beside their .c file go with it.
# And the flow above the table names exactly the plugin's callbacks, and
# the spank/ row counts the rooms and libraries spank/meson.build builds.
# usage: test_architecture.sh SRC
set -uo pipefail
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
cd "${1:?usage: test_architecture.sh SRC}" || exit 1
doc=docs/architecture.md

# The table's rows (between "## Source layout" and the next heading).
table=$(awk '/^## / { s = ($0 == "## Source layout"); next } s && /^\|/' "$doc")
[[ -n $table ]] || { fail "$doc has a source table"; finish; }

# FOLDER: the rows that speak of it: its files' own rows and the
# folder's bold row.
rows_of() {
	grep -F "\`$1/" <<<"$table"
}

named() { # FILE
	local f=$1 dir=${1%/*} base=${1##*/} rows pat
	rows=$(rows_of "${f%%/*}")
	grep -qF "$f" <<<"$rows" && return 0
	grep -qF "\`$base\`" <<<"$rows" && return 0
	# Patterns in backquotes, whole ("runtime/admission/*.c") or bare.
	while IFS= read -r pat; do
		[[ $pat == *'*'* ]] || continue
		# shellcheck disable=SC2053 # a glob on purpose
		[[ $f == $pat || ( $pat != */* && $base == $pat ) ]] && return 0
	done < <(grep -o '`[^`]*`' <<<"$rows" | tr -d '`' | sed 's|^.*/\([^/]*\*\)|'"$dir"'/\1|')
	return 1
}

missing=()
while IFS= read -r f; do
	named "$f" || missing+=("$f")
done < <(find core spank runtime tool -name '*.c' | sort; echo include/governor.h)
if ((${#missing[@]})); then
	fail "$doc names every source file of the products" "$(printf '%s not named\n' "${missing[@]}")"
else
	pass "$doc names every source file of the products"
fi

# No file has two rows: its path stands in one row's first cell at most.
twice=$(awk -F'|' '{ print $2 }' <<<"$table" | grep -oE '`(core|spank|runtime|tool)/[A-Za-z0-9_/.-]+\.c`' |
	sort | uniq -d)
if [[ -n $twice ]]; then
	fail "$doc's table gives each source file one row" "$twice"
else
	pass "$doc's table gives each source file one row"
fi

# Every path the table names exists (doc-paths checks the rest of the docs).
stale=()
while IFS= read -r p; do
	[[ $p == *'*'* ]] && { compgen -G "$p" >/dev/null || stale+=("$p"); continue; }
	[[ -e $p ]] || stale+=("$p")
done < <(grep -oE '`(core|spank|runtime|tool|include)/[A-Za-z0-9_.*/-]+`' <<<"$table" | tr -d '`' | sort -u)
if ((${#stale[@]})); then
	fail "every path in $doc's table exists" "$(printf '%s does not exist\n' "${stale[@]}")"
else
	pass "every path in $doc's table exists"
fi

# What the spank/ row says of its rooms and libraries is what
# spank/meson.build builds: the count of spank_rooms, and of the static
# libraries of those rooms (the plugin's own, gov_spank_plugin, apart).
words=(zero one two three four five six seven eight nine)
row=$(grep -F '| **`spank/`** |' <<<"$table")
rooms=$(sed -n "s/^spank_rooms = \[\(.*\)\]/\1/p" spank/meson.build | tr ',' '\n' | grep -c "'")
libs=$(grep -oE "static_library\('gov_spank_[a-z_]+'" spank/meson.build | grep -vc gov_spank_plugin)
check "$doc's spank/ row counts the rooms spank/meson.build lists" \
	"${words[rooms]} rooms" "$(grep -oE '(one|two|three|four|five|six|seven|eight|nine) rooms' <<<"$row" | head -n1)"
check "$doc's spank/ row counts the rooms' static libraries" \
	"in ${words[libs]} static libraries" "$(grep -oE 'in (one|two|three|four|five|six|seven|eight|nine) static libraries' <<<"$row" | head -n1)"

# The flow names exactly the SPANK callbacks governor.so defines, in the
# order Slurm calls them (the indented words of its slurmstepd part).
flow=$(awk '/^```/ { f = !f; next } f && /^ slurmstepd/ { s = 1; next } f && s && /^        [│▼]/ { exit }
	f && s && /^   [a-z_]+/ { print $1 }' "$doc")
# srun's own callback (local context) is named above the slurmstepd part.
# slurmd's job epilog (job script context), after it.
defined=$(grep -o '^int slurm_spank_[a-z_]*(' spank/plugin.c | sed 's/^int slurm_spank_//; s/($//' |
	grep -vxE 'local_user_init|job_epilog')
if grep -q '^int slurm_spank_local_user_init(' spank/plugin.c &&
	! awk '/^```/ { f = !f; next } f && /^ slurmstepd/ { exit } f' "$doc" | grep -q "srun's local_user_init"; then
	fail "$doc's flow names srun's local_user_init, which spank/plugin.c defines"
fi
if grep -q '^int slurm_spank_job_epilog(' spank/plugin.c && ! grep -q '^ slurmd, at the job.s end.*job_epilog' "$doc"; then
	fail "$doc's flow names the job's epilog (job_epilog), which spank/plugin.c defines"
fi
order="init init_post_opt user_init task_init_privileged task_post_fork task_init task_exit exit"
want=$(for c in $order; do grep -qx "$c" <<<"$defined" && echo "$c"; done)
if [[ $(sort <<<"$defined") != "$(sort <<<"$want")" ]]; then
	fail "every callback of spank/plugin.c is one this test knows the order of" "$defined"
elif [[ $flow != "$want" ]]; then
	fail "$doc's flow names the callbacks spank/plugin.c defines, in Slurm's order" \
		"$(diff <(echo "$want") <(echo "$flow") | sed -n 's/^[<>] //p')"
else
	pass "$doc's flow names the callbacks spank/plugin.c defines, in Slurm's order"
fi
finish
