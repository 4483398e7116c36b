#!/usr/bin/env bash
# Every skip a run printed must name a fact of the machine listed in
# tests/skip-facts; any other skip is a failure that hid itself.
#   check-skips.sh [LOG...]        (standard input without LOG)
# Reads the lines a skip prints: "SKIP  CASE: REASON" (tests/slurm/run.sh)
# and "# SKIP: FACT: why" (tests/unit/skip_because.h).  Prints each skip
# that names no listed fact and exits 1 when there is one.
set -euo pipefail

facts=$(dirname "${BASH_SOURCE[0]}")/skip-facts
[[ -r $facts ]] || { echo "check-skips.sh: no $facts" >&2; exit 2; }
status=0
while IFS= read -r reason; do
	listed=0
	while IFS= read -r fact; do
		[[ -z $fact || $fact == \#* ]] && continue
		[[ $reason == "$fact"* ]] && { listed=1; break; }
	done <"$facts"
	if ((!listed)); then
		printf 'check-skips.sh: a skip that names no fact of the machine (tests/skip-facts): %s\n' "$reason"
		status=1
	fi
done < <(cat "$@" | sed -n -e 's/^SKIP  [^:]*: //p' -e 's/^# SKIP: //p')
exit "$status"
