#!/usr/bin/env bash
# The fields the snapshot prints (the table in core/snapshot_fields.c) are
# exactly the paths docs/snapshot.md's "Fields" tables name: none missing,
# none extra.  Every path is written out in full there, in backquotes.
# usage: test_snapshot_fields.sh SNAPSHOT_FIELDS SRC
set -uo pipefail
fields=$1 src=$2

code=$("$fields" | sort) || { echo "not ok - $fields failed"; exit 1; }
[ -n "$code" ] || { echo "not ok - the field table is empty"; exit 1; }

# Table rows between "## Fields" and the next "## " heading: each `.a.b`.
docs=$(awk '/^## / { s = ($0 == "## Fields"); next }
            s && /^\|/ { print }' "$src/docs/snapshot.md" |
         grep -o '`\.[A-Za-z0-9_.]*`' | tr -d '`' | sort -u)

if [ "$code" = "$docs" ]; then
  echo "ok - docs/snapshot.md lists exactly the $(wc -l <<<"$code") fields of the snapshot"
  exit 0
fi
echo "not ok - docs/snapshot.md does not list exactly the snapshot's fields (-: only in core/snapshot_fields.c, +: only in the docs):"
diff <(printf '%s\n' "$code") <(printf '%s\n' "$docs") | sed -n 's/^</  -/p; s/^>/  +/p'
exit 1
