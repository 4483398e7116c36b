#!/usr/bin/env bash
# The rooms of core/ and spank/ keep their order (issue 39, item 1): a file
# includes only headers of its own room and of the rooms before it, in the
# order meson.build (core_rooms) and spank/meson.build (spank_rooms) list
# them, core's before spank's, spank's own files at the top last.  Each
# room has one header.  Only spank/plugin.c, the dispatcher, sees the
# plugin's whole state: each context's file gets its own part.  And no two
# C files of the tree (the products' and the tests', fixtures aside) share
# a name, so that a bare #include names one file whatever the include path.
# usage: test_rooms.sh SRC
set -uo pipefail
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
cd "${1:?usage: test_rooms.sh SRC}" || exit 1

core=$(sed -n "s/^core_rooms = \[\(.*\)\]/\1/p" meson.build | tr -d "'" | tr ',' ' ')
spank=$(sed -n "s/^spank_rooms = \[\(.*\)\]/\1/p" spank/meson.build | tr -d "'" | tr ',' ' ')
order=()
for r in $core; do order+=("core/$r"); done
for r in $spank; do order+=("spank/$r"); done
order+=(spank)
if ((${#order[@]} < 8)); then
	fail "the rooms are listed in meson.build and spank/meson.build" "found: ${order[*]}"
	finish
fi
declare -A rank room
for i in "${!order[@]}"; do rank[${order[$i]}]=$i; done

# Every file of core/ and spank/ lives in a listed room.
unlisted=()
while IFS= read -r f; do
	d=${f%/*}
	[[ -n ${rank[$d]+x} ]] || unlisted+=("$f")
	room[${f##*/}]=$d
done < <(find core spank -name '*.[ch]' | sort)
if ((${#unlisted[@]})); then
	fail "every file of core/ and spank/ is in a room listed in meson.build" "$(printf '%s\n' "${unlisted[@]}")"
else
	pass "every file of core/ and spank/ is in a room listed in meson.build (${order[*]})"
fi

up=()
while IFS= read -r f; do
	d=${f%/*}
	while IFS= read -r inc; do
		to=${room[$inc]:-}
		[[ -n $to ]] || continue
		((rank[$to] <= rank[$d])) || up+=("$f includes $inc ($to comes after $d)")
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done < <(find core spank -name '*.[ch]' | sort)
if ((${#up[@]})); then
	fail "no include runs back up the rooms" "$(printf '%s\n' "${up[@]}")"
else
	pass "no include runs back up the rooms"
fi

# One header per room (spank/'s top, one header per context's file, aside);
# numa_nearest.h stays beside evidence.h: it needs <hwloc.h>, which the
# rest of core/ never includes.
many=()
for r in "${order[@]}"; do
	[[ $r == spank ]] && continue
	hs=$(find "$r" -maxdepth 1 -name '*.h' ! -name numa_nearest.h -printf '%f ')
	(($(wc -w <<<"$hs") <= 1)) || many+=("$r: $hs")
done
if ((${#many[@]})); then
	fail "one header per room" "$(printf '%s\n' "${many[@]}")"
else
	pass "one header per room"
fi

# The plugin's state is the dispatcher's: no other file includes plugin.h.
others=$(grep -l '^#include "plugin.h"' spank/*.[ch] spank/*/*.[ch] | grep -vx 'spank/plugin.c')
if [[ -n $others ]]; then
	fail "only the dispatcher (spank/plugin.c) includes plugin.h" "$others"
else
	pass "only the dispatcher (spank/plugin.c) includes plugin.h"
fi

# runtime/'s headers are included one way, as FOLDER/NAME.h from runtime/
# (on every include path), wherever the includer sits.
bare=$(for h in runtime/*/*.h; do
	grep -rn --include='*.[ch]' "^#include \"${h##*/}\"" core spank runtime tool tests
done)
check "runtime/'s headers are included as FOLDER/NAME.h" "" "$bare"

# The context files of the plugin do not call each other: each header of
# spank/'s top level but plugin.h is included by its own .c file, the
# dispatcher and the unit tests only (the helpers node_topology.h,
# seal_log.h and report_write.h by the files they serve).
leaning=$(for h in capture environment handoff pressure_delegate report_gather startup step_recovery; do
	grep -ln "^#include \"$h.h\"" spank/*.c spank/*.h | grep -vxE "spank/($h.c|plugin.[ch])"
done)
check "spank/'s context files include no other context file's header" "" "$leaning"

# The tree's C files: the products' and the tests' (fixtures aside).
c_files() {
	find core spank runtime tool include tests -path tests/fixtures -prune -o -name '*.[ch]' "$@"
}
dups=$(c_files -printf '%f\n' | sort | uniq -d)
if [[ -n $dups ]]; then
	fail "no two C files of the tree share a name" \
		"$(while IFS= read -r n; do c_files -name "$n" -print; done <<<"$dups")"
else
	pass "no two C files of the tree share a name"
fi
finish
