#!/usr/bin/env bash
# libgovernor.so exports exactly the functions include/governor.h declares
# (the version script runtime/libgovernor.map), nothing internal.
# usage: test_exports.sh LIBGOVERNOR.so GOVERNOR.h
set -euo pipefail
lib=$1 header=$2
declared=$(grep -v '^static inline' "$header" | grep -oE '^[a-z][a-z_0-9 *]*\bgov_[a-z_0-9]+\(' |
	grep -oE 'gov_[a-z_0-9]+\($' | tr -d '(' | sort -u)
exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u)
if [ "$declared" = "$exported" ]; then
	echo "ok - $(wc -l <<<"$exported") exported functions, all declared in governor.h"
	exit 0
fi
echo "not ok - exports and governor.h differ (< declared only, > exported only):"
diff <(echo "$declared") <(echo "$exported") | grep '^[<>]'
exit 1
