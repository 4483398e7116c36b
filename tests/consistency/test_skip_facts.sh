#!/usr/bin/env bash
# The unit tests skip only for the facts tests/skip-facts lists, the one
# list of them: each GOV_FACT_* of tests/unit/skip_because.h is there, and
# a skip line that names another is refused by tests/check-skips.sh.
# usage: test_skip_facts.sh SOURCE_ROOT
set -uo pipefail
src=$1
status=0
while IFS= read -r fact; do
	if grep -qxF "$fact" "$src/tests/skip-facts"; then
		echo "ok - listed: $fact"
	else
		echo "not ok - tests/unit/skip_because.h's fact is not in tests/skip-facts: $fact"
		status=1
	fi
done < <(sed -n 's/^#define GOV_FACT_[A-Z_]* "\(.*\)"$/\1/p' "$src/tests/unit/skip_because.h")
if printf '# SKIP: not root (euid != 0): x\n' | "$src/tests/check-skips.sh" >/dev/null; then
	echo "ok - a listed fact passes"
else
	echo "not ok - a listed fact is refused"
	status=1
fi
if printf 'SKIP  case: no jq\n' | "$src/tests/check-skips.sh" >/dev/null; then
	echo "not ok - a skip that names no fact passes"
	status=1
else
	echo "ok - a skip that names no fact is refused"
fi
exit "$status"
