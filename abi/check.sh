#!/usr/bin/env bash
# Hold libgovernor to the ABI rules of include/governor.h ("ABI"):
#   abi/check.sh LIB                 compare LIB with abi/libgovernor.abi
#   abi/check.sh --update LIB        write LIB's ABI as the new baseline
# LIB is a build's libgovernor.so with debug information (meson's default
# debugoptimized build).  HEADER, BASELINE and SUPPRESSIONS override the
# files compared (tests/abi/test_check.sh runs this on a small library).
# Exit 0 when the ABI is kept, 1 when it is broken, 2 on bad use.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
header=${HEADER:-$here/../include/governor.h}
baseline=${BASELINE:-$here/libgovernor.abi}
suppressions=${SUPPRESSIONS:-$here/suppressions}

update=0
if [ "${1:-}" = --update ]; then update=1; shift; fi
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "usage: $0 [--update] LIB  (LIB: a built libgovernor.so)" >&2
	exit 2
fi
lib=$1
for tool in abidw abidiff python3; do
	command -v "$tool" >/dev/null || { echo "abi/check.sh: $tool is missing: apt-get install abigail-tools python3" >&2; exit 2; }
done
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# Only the types of the public header, without build paths, so that the
# baseline is the same from any checkout.
abidw --headers-dir "$(dirname "$header")" --drop-private-types --no-corpus-path \
	--no-comp-dir-path --no-show-locs --type-id-style hash --out-file "$tmp/cur.abi" "$lib" || exit 2
sed -i -E "s#path='[^']*/((core|runtime|include|spank|tool)/)#path='\\1#" "$tmp/cur.abi"

if [ $update = 1 ]; then
	cp "$tmp/cur.abi" "$baseline" && echo "abi/check.sh: wrote $(basename "$baseline")"
	exit
fi

rc=0
# Structures: size, offsets and types of every member, new members only in
# a reserved tail.  abidiff's suppressions cannot say that exactly.
python3 "$here/check_layout.py" "$header" "$baseline" "$tmp/cur.abi"
case $? in 0) ;; 1) rc=1 ;; *) exit 2 ;; esac
# Functions, variables, enums: anything abidiff reports.  Its suppressions
# let the structures' reserved-tail additions through (checked above).
abidiff --no-added-syms --suppressions "$suppressions" "$baseline" "$tmp/cur.abi" >"$tmp/diff"
case $? in
0) ;;
1 | 2 | 3) cat "$tmp/diff" >&2; echo "abi/check.sh: abidiff failed to run" >&2; exit 2 ;;
*) cat "$tmp/diff"; rc=1 ;;
esac
if [ $rc = 0 ]; then
	echo "abi/check.sh: the ABI of $(basename "$baseline") is kept"
else
	echo "abi/check.sh: the ABI of $(basename "$baseline") is broken; docs/abi.md says how to add a member without breaking it"
fi
exit $rc
