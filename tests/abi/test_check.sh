#!/usr/bin/env bash
# abi/check.sh enforces the ABI rules of include/governor.h: shown here on a
# small library built twice, once as the baseline and once changed, for each
# kind of change the rules allow and forbid.
#   tests/abi/test_check.sh CC CHECK_SH
set -uo pipefail
cc=$1 check=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=../lib/assert.sh
source "$here/../lib/assert.sh"

# SRC HDR LIB: build the small library with debug information.
build() {
	"$cc" -g -O2 -shared -fPIC -Wl,--version-script="$here/mini.map" -I "$2" -o "$3" "$1"
}

mkdir -p "$tmp/base/include"
cp "$here/mini.h" "$tmp/base/include/mini.h"
build "$here/mini.c" "$tmp/base/include" "$tmp/base/libmini.so" || exit 1
HEADER=$tmp/base/include/mini.h BASELINE=$tmp/base.abi "$check" --update "$tmp/base/libmini.so" >/dev/null || exit 1

# EXPECT NAME FILE OLD NEW: edit a copy of the header or the source, build,
# and expect check.sh to exit EXPECT (0 kept, 1 broken).
case_() {
	local expect=$1 name=$2 file=$3 old=$4 new=$5 d=$tmp/$2 rc
	mkdir -p "$d/include"
	cp "$here/mini.h" "$d/include/mini.h"
	cp "$here/mini.c" "$d/mini.c"
	local target=$d/include/mini.h
	[ "$file" = source ] && target=$d/mini.c
	python3 - "$target" "$old" "$new" <<'PY' || { fail "$name: the edit applies"; return; }
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
if old not in text:
    sys.exit(1)
open(path, 'w').write(text.replace(old, new, 1))
PY
	if [ "$file" = both ]; then
		python3 -c 'import sys; p=sys.argv[1]; t=open(p).read(); open(p,"w").write(t.replace(sys.argv[2], sys.argv[3], 1))' \
			"$d/mini.c" "$old" "$new"
	fi
	build "$d/mini.c" "$d/include" "$d/libmini.so" || { fail "$name: builds"; return; }
	HEADER=$d/include/mini.h BASELINE=$tmp/base.abi "$check" "$d/libmini.so" >"$d/out" 2>&1
	rc=$?
	if [ "$rc" = "$expect" ]; then
		pass "$name (exit $rc)"
	else
		fail "$name: exit $expect" "exit $rc; check.sh said:
$(cat "$d/out")"
	fi
}

case_ 0 unchanged header 'uint64_t a;' 'uint64_t a;'
case_ 0 member-in-tail header 'uint32_t b;
    uint64_t reserved[2];' 'uint32_t b;
    uint64_t c;
    uint64_t reserved[1];'
case_ 0 member-in-nested-tail header 'uint64_t y;
        uint64_t reserved[2];' 'uint64_t y;
        uint32_t z;
        uint32_t reserved[3];'
case_ 0 member-in-padding header 'uint32_t b;
    uint64_t reserved[2];' 'uint32_t b;
    uint32_t b2;
    uint64_t reserved[2];'
case_ 0 opaque-changed source 'struct mini_opaque { int a; };' 'struct mini_opaque { long a, b; };'
case_ 0 enumerator-appended header 'MINI_B,' 'MINI_B, MINI_C,'
case_ 0 function-added both 'int mini_extra(uint64_t n);' 'int mini_extra(uint64_t n);
int mini_more(void);'
case_ 1 member-inserted header 'uint64_t a;' 'uint64_t a, a2;'
case_ 1 member-retyped header 'uint32_t b;' 'uint64_t b;'
case_ 1 member-renamed header 'uint32_t b;' 'uint32_t b2;'
case_ 1 tail-overflow header 'uint32_t b;
    uint64_t reserved[2];' 'uint32_t b;
    uint64_t c, d, e;
    uint64_t reserved[2];'
case_ 1 enumerator-inserted header 'MINI_A = 0,' 'MINI_A = 0, MINI_A2,'
case_ 1 function-removed both 'int mini_extra(uint64_t n)' 'static inline int mini_gone(uint64_t n)'
case_ 1 parameter-retyped both 'int mini_extra(uint64_t n)' 'int mini_extra(uint32_t n)'
finish
