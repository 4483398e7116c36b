#!/usr/bin/env bash
# libgovernor.so exports exactly the functions include/governor.h declares
# (the version script runtime/libgovernor.map), nothing internal; and in it
# and in every other binary given, a function named gov_ (one underscore)
# is one that governor.h declares: internal functions are gov__
# (docs/architecture.md, "Names"), so a reader tells them apart by name;
# and no variable, static or not, is named gov_.
# usage: test_exports.sh LIBGOVERNOR.so GOVERNOR.h [BINARY...]
set -uo pipefail
lib=${1:?usage: test_exports.sh LIBGOVERNOR.so GOVERNOR.h [BINARY...]} header=${2:?}
shift 2
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

declared=$(grep -v '^static inline' "$header" | grep -oE '^[a-z][a-z_0-9 *]*\bgov_[a-z_0-9]+\(' |
	grep -oE 'gov_[a-z_0-9]+\($' | tr -d '(' | sort -u)
inline=$(grep -oE '^static inline [a-z_0-9 *]*\bgov_[a-z_0-9]+\(' "$header" |
	grep -oE 'gov_[a-z_0-9]+\($' | tr -d '(' | sort -u)
exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u)
if [[ $declared == "$exported" ]]; then
	pass "$(wc -l <<<"$exported") exported functions, all declared in governor.h"
else
	fail "exports and governor.h differ (< declared only, > exported only)" \
		"$(diff <(echo "$declared") <(echo "$exported") | grep '^[<>]')"
fi

for bin in "$lib" "$@"; do
	# Every function the binary defines, local or global (its symbol table),
	# with the compiler's split parts (.cold, .part.0, .isra.0) by their own.
	named=$(nm --defined-only "$bin" |
		awk 'tolower($2) == "t" && $3 ~ /^gov_[^_]/ { sub(/\..*/, "", $3); print $3 }' |
		sort -u | comm -23 - <(printf '%s\n' "$declared" "$inline" | sort -u))
	check "$(basename "$bin"): every gov_ function is public (internal ones are gov__)" "" "$named"
	# No variable is public: one named gov_ (a static one's symbol too) is
	# a name that says more than it is.
	data=$(nm --defined-only "$bin" | awk '$2 ~ /^[bBdDrRgGsS]$/ && $3 ~ /^gov_[^_]/ { print $3 }' | sort -u)
	check "$(basename "$bin"): no variable is named gov_" "" "$data"
done
# A static variable the compiler dropped leaves no symbol: read the sources.
statics=$(grep -rnE --include='*.c' '^static [a-z_ *]*\bgov_[a-z0-9][a-z_0-9]*( *\[| *=| *;|,)' \
	"$(cd "$(dirname "$header")/.." && pwd)"/{core,runtime,spank,tool} |
	sed -E 's#^.*/(core|runtime|spank|tool)/#\1/#')
check "no static variable is named gov_ (a file's own: no prefix)" "" "$statics"
# Functions inlined everywhere leave no symbol: read the internal headers.
src=$(cd "$(dirname "$header")/.." && pwd)
inline_internal=$(grep -rhoE --include='*.h' 'static inline [a-z_0-9 *]*\bgov_[a-z0-9][a-z_0-9]*\(' \
	"$src/core" "$src/runtime" "$src/spank" "$src/tool" | grep -oE 'gov_[a-z_0-9]+' | sort -u)
check "the internal headers' inline functions are gov__" "" "$inline_internal"
finish
