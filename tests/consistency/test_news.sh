#!/usr/bin/env bash
# The version meson builds is the one NEWS and the packages name (issue 27,
# item 8): NEWS's newest release section is "VERSION (unreleased)" or
# "VERSION (YYYY-MM-DD)", so a user-visible change cannot land under an old
# release, nor a version bump without its section; the Debian changelog's
# newest entry, the RPM spec's Version and the Python binding's
# pyproject.toml carry the same VERSION, so the packages cannot drift.
# usage: test_news.sh SRC VERSION
set -uo pipefail
src=${1:?usage: test_news.sh SRC VERSION} version=${2:?usage: test_news.sh SRC VERSION}
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

first=$(grep -m1 -E '^[0-9]+\.[0-9]+\.[0-9]+ ' "$src/NEWS")
if [[ $first =~ ^${version//./\\.}\ \((unreleased|[0-9]{4}-[0-9]{2}-[0-9]{2})\)$ ]]; then
	pass "NEWS's newest section is $version's: $first"
else
	fail "NEWS's newest section is '$first', not $version (unreleased or a date)"
fi
check "contrib/debian/changelog's newest entry" "$version" \
	"$(sed -n '1s/^[^ ]* (\([^)-]*\)\(-[^)]*\)\?).*/\1/p' "$src/contrib/debian/changelog")"
check "contrib/rpm/slurm-governor.spec's Version" "$version" \
	"$(sed -n 's/^Version:[[:space:]]*//p' "$src/contrib/rpm/slurm-governor.spec")"
check "contrib/python/pyproject.toml's version" "$version" \
	"$(sed -n 's/^version = "\(.*\)"$/\1/p' "$src/contrib/python/pyproject.toml")"
finish
