#!/usr/bin/env bash
# The plugstack.conf keys governor.so knows (the table in spank/parse/policy.c, as
# its message for an unknown key lists them) are exactly the keys of
# docs/admin-guide.md's table, of governor.so(8) and of
# contrib/plugstack.conf.example: none missing, none extra.
# usage: test_plugstack_keys.sh PLUGSTACK_KEYS SRC
set -uo pipefail
keys=$1 src=$2
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

code=$("$keys" | sort) || { fail "$keys ran"; finish; }
[ -n "$code" ] || { fail "the plugin's message lists keys"; finish; }

# The first column of the admin guide's table headed "| key | values |...".
guide=$(awk '/^\| key \| values \|/ { t = 1; next }
             t && !/^\|/ { exit }
             t && /^\| `/ { split($0, c, "|"); gsub(/[ `]/, "", c[2]); print c[2] }' \
          "$src/docs/admin-guide.md" | sort)
# The *KEY=...* items of the man page's PLUGSTACK ARGUMENTS section.
man=$(awk '/^# / { s = ($0 == "# PLUGSTACK ARGUMENTS"); next }
           s && /^\*[a-z_]+=/ { sub(/^\*/, ""); sub(/=.*/, ""); print }' \
        "$src/docs/man/governor.so.8.scd" | sort)
# The "#   KEY=..." lines of the example's comment.
example=$(sed -n 's/^#   \([a-z_]*\)=.*/\1/p' "$src/contrib/plugstack.conf.example" | sort)

compare() { # FILE KEYS
  if [ "$code" = "$2" ]; then
    pass "$1 lists exactly the plugin's $(wc -l <<<"$code") keys"
  else
    fail "$1 lists exactly the plugin's keys (-: only in spank/parse/policy.c, +: only in $1)" \
      "$(diff <(printf '%s\n' "$code") <(printf '%s\n' "$2") | sed -n 's/^</-/p; s/^>/+/p')"
  fi
}
compare docs/admin-guide.md "$guide"
compare docs/man/governor.so.8.scd "$man"
compare contrib/plugstack.conf.example "$example"
finish
