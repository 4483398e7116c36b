#!/usr/bin/env bash
# The fields the snapshot prints (the table in core/snapshot/snapshot_fields.c) are
# exactly the paths docs/snapshot.md's "Fields" tables name: none missing,
# none extra.  Every path is written out in full there, in backquotes.
# usage: test_snapshot_fields.sh PRINT_SNAPSHOT_FIELDS SRC
set -uo pipefail
fields=$1 src=$2
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

code=$("$fields" | sort) || { fail "$fields ran"; finish; }
[ -n "$code" ] || { fail "the field table has fields"; finish; }

# Table rows between "## Fields" and the next "## " heading: each `.a.b`.
docs=$(awk '/^## / { s = ($0 == "## Fields"); next }
            s && /^\|/ { print }' "$src/docs/snapshot.md" |
         grep -o '`\.[A-Za-z0-9_.]*`' | tr -d '`' | sort -u)

if [ "$code" = "$docs" ]; then
  pass "docs/snapshot.md lists exactly the $(wc -l <<<"$code") fields of the snapshot"
else
  fail "docs/snapshot.md lists exactly the snapshot's fields (-: only in core/snapshot/snapshot_fields.c, +: only in the docs)" \
    "$(diff <(printf '%s\n' "$code") <(printf '%s\n' "$docs") | sed -n 's/^</-/p; s/^>/+/p')"
fi
finish
