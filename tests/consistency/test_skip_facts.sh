#!/usr/bin/env bash
# The unit tests skip only for the facts tests/skip-facts lists, the one
# list of them: each GOV_FACT_* of tests/unit/skip_because.h is there, and
# a skip line that names another is refused by tests/check-skips.sh.
# usage: test_skip_facts.sh SOURCE_ROOT
set -uo pipefail
src=$1
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
while IFS= read -r fact; do
	if grep -qxF "$fact" "$src/tests/skip-facts"; then
		pass "listed: $fact"
	else
		fail "tests/unit/skip_because.h's fact is in tests/skip-facts: $fact"
	fi
done < <(sed -n 's/^#define GOV_FACT_[A-Z_]* "\(.*\)"$/\1/p' "$src/tests/unit/skip_because.h")
if printf '# SKIP: not root (euid != 0): x\n' | "$src/tests/check-skips.sh" >/dev/null; then
	pass "a listed fact passes"
else
	fail "a listed fact passes"
fi
if printf 'SKIP  case: no jq\n' | "$src/tests/check-skips.sh" >/dev/null; then
	fail "a skip that names no fact is refused"
else
	pass "a skip that names no fact is refused"
fi
finish
