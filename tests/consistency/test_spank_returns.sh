#!/usr/bin/env bash
# Every SPANK callback of the plugin returns exactly 0 or -1, as spank.h
# documents (Slurm 25.05 and later treat every non-zero return as an
# error, and an ESPANK_* code or a negative errno passed up would mean
# something else in each series): each `return` in a slurm_spank_*
# function, in --governor's option callback, and in the functions whose
# result a callback returns (spank/startup.c's too), is `return 0;`, `return -1;`, `return COND ?
# 0 : -1;` or a call of one of those functions.
# usage: test_spank_returns.sh SRC_ROOT
set -uo pipefail
src=${1:?usage: test_spank_returns.sh SRC_ROOT}
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

# The functions whose value is a callback's, by name: the callbacks, the
# option callback, and what they return through.
callees=$(grep -ohE 'return ([a-z_][a-z_0-9]*)\(' "$src"/spank/plugin.c "$src"/spank/startup.c |
	sed 's/return //; s/($//' | sort -u)
pattern="^(static )?int (slurm_spank_[a-z_]+|governor_option|$(paste -sd'|' <<<"${callees:-none}"))\\("
found=0 bad=
for f in "$src"/spank/*.c; do
	out=$(awk -v pat="$pattern" -v file="${f#"$src"/}" '
		$0 ~ pat { inside = 1; print "FN " $0; next }
		inside && /^}/ { inside = 0; next }
		inside && /return/ {
			line = $0; sub(/^[ \t]*/, "", line); sub(/[ \t]*\/\*.*$/, "", line)
			if (line !~ /^return (0|-1);$/ && line !~ /^return [^;]*\? 0 : -1;$/ && line !~ /^return [a-z_][a-z_0-9]*\([^;]*\);$/)
				print "BAD " file ":" NR ": " line
		}' "$f")
	found=$((found + $(grep -c '^FN ' <<<"$out")))
	bad+=$(grep '^BAD ' <<<"$out" | sed 's/^BAD //')
done
if ((found < 10)); then
	fail "found $found SPANK callbacks and helpers in spank/*.c; expected the eight callbacks, the option callback, gov__startup and init_error"
elif [[ -n $bad ]]; then
	fail "a SPANK callback returns something other than 0 or -1" "$bad"
else
	pass "$found SPANK callbacks and the functions they return through return only 0 or -1"
fi
finish
