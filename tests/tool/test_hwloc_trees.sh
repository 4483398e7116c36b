#!/usr/bin/env bash
# test_hwloc_trees.sh: governor's topology against hwloc's own and the
# kernel's files, on the sysfs trees of real machines.
#
# usage: test_hwloc_trees.sh --governor PATH [--live] TREE|TARBALL|DIR...
#
#   TREE     a root holding sys/ (and usually proc/), e.g. one of hwloc's
#            tests/hwloc/linux/*.tar.bz2 extracted with --strip-components=1
#   TARBALL  such a NAME.tar.bz2 itself, extracted into a temporary directory
#   DIR      a directory whose subdirectories (or NAME.tar.bz2 files) are such
#            trees
#   --live  run `governor snapshot --json` with HWLOC_FSROOT=TREE (the live
#           hwloc path) instead of `--sysroot TREE`
#
# For each tree, compares .cpu.host.logical, .physical, .packages and
# .numa_nodes with what hwloc 2.x counts on the same tree, read the way hwloc's
# own test-topology.sh reads it (HWLOC_COMPONENTS=linux,stop, HWLOC_FSROOT),
# including disallowed objects as the library does (--disallowed):
#   logical  = PUs, physical = cores, packages = packages (hwloc-calc -N)
#   numa_nodes = NUMA nodes with CPUs: hwloc's NUMA nodes (hwloc-info) whose
#                sysfs cpumap holds one of hwloc's PUs, or hwloc's one default
#                node when the tree has no node directories.  Memory-only
#                nodes (GPU memory, CXL, HBM, NVM) are not counted; they
#                are hwloc's other NUMA nodes, and must be
#                .topology.host.memory_only_numa_nodes.
# Then the task part, for masks made of the tree's NUMA nodes, against the
# tree's sysfs (tree_tasks.py beside this script).
# hwloc counting 0 objects of a type matches our null (unknown).
# A file TREE.env beside a tree (hwloc's own NAME.env) is sourced first.
#
# Prints TAP (tests/lib/assert.sh): `ok N - TREE ...` or `not ok N - TREE ...`
# with `field ours=X hwloc=Y` and the task part's lines below it, then
# `1..N`.  Exit status: 0 all passed, 1 a failure, 2 usage.
# Needs python3, hwloc-calc and hwloc-info (Debian: python3, hwloc).
set -euo pipefail

usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit "${1:-2}"; }

gov="" live=0 trees=() tmp=""
here=$(cd "$(dirname "$0")" && pwd)
trap '[ -z "$tmp" ] || rm -rf "$tmp"' EXIT
# Before anything is extracted: tar -j runs bzip2.
for tool in hwloc-calc hwloc-info python3 tar bzip2; do
    command -v "$tool" >/dev/null || { echo "test_hwloc_trees.sh: needs $tool" >&2; exit 2; }
done
# A tarball's tree, extracted once into $tmp.
extract() {
    local name
    name=$(basename "$1" .tar.bz2)
    [ -n "$tmp" ] || tmp=$(mktemp -d)
    mkdir -p "$tmp/$name"
    tar -xjf "$1" -C "$tmp/$name" --strip-components=1
    [ ! -f "${1%.tar.bz2}.env" ] || cp "${1%.tar.bz2}.env" "$tmp/$name.env"
    trees+=("$tmp/$name")
}
while [ $# -gt 0 ]; do
    case $1 in
        --governor) [ $# -ge 2 ] || usage; gov=$2; shift 2 ;;
        --live) live=1; shift ;;
        -h|--help) usage 0 ;;
        -*) usage ;;
        *)  if [ -d "$1/sys" ]; then trees+=("${1%/}")
            elif [[ $1 == *.tar.bz2 && -f $1 ]]; then extract "$1"
            elif [ -d "$1" ]; then
                for t in "${1%/}"/*/; do [ -d "$t/sys" ] && trees+=("${t%/}"); done
                for t in "${1%/}"/*.tar.bz2; do [ -f "$t" ] && extract "$t"; done
            else echo "test_hwloc_trees.sh: no such tree: $1" >&2; exit 2; fi
            shift ;;
    esac
done
if [ -z "$gov" ] || [ ${#trees[@]} -eq 0 ]; then usage; fi

hw() { HWLOC_COMPONENTS=linux,stop HWLOC_FSROOT=$tree HWLOC_DUMPED_HWDATA_DIR=/var/run/hwloc \
       "$@" 2>/dev/null; }

# Does sysfs cpumap $1 (hex words, most significant first) hold a PU of $2 (os indexes, "0,1,...")?
mask_has_pu() {
    local -a w p; local n i
    IFS=, read -r -a w <<<"$1"; IFS=, read -r -a p <<<"$2"; n=${#w[@]}
    for i in "${p[@]}"; do
        [ $((n - 1 - i / 32)) -ge 0 ] && (( (16#${w[n - 1 - i / 32]} >> (i % 32)) & 1 )) && return 0
    done
    return 1
}

# hwloc's counts for $tree: "PUS CORES PACKAGES NUMA_WITH_CPUS MEMORY_ONLY"
hwloc_counts() {
    local t counts=() ncpu=0 nall=0 os pus nodes=$tree/sys/devices/system/node
    for t in pu core package; do
        counts+=("$(hw hwloc-calc --disallowed -N "$t" all || true)")
    done
    pus=$(hw hwloc-calc --disallowed --po -I pu all || true)
    for os in $(hw hwloc-info --disallowed numanode:all | awk '/^ os index = /{print $4}'); do
        nall=$((nall + 1))
        if ! compgen -G "$nodes/node[0-9]*" >/dev/null; then
            ncpu=$((ncpu + 1))          # no NUMA in sysfs: hwloc's one node
        elif [ -f "$nodes/node$os/cpumap" ] &&
             mask_has_pu "$(tr -d '\0\n' < "$nodes/node$os/cpumap")" "$pus"; then
            ncpu=$((ncpu + 1))
        fi
    done
    echo "${counts[0]:-0} ${counts[1]:-0} ${counts[2]:-0} $ncpu $((nall - ncpu))"
}

# shellcheck source=../lib/assert.sh
source "$here/../lib/assert.sh"
for tree in "${trees[@]}"; do
    what="$(basename "$tree"): governor's counts are hwloc's"
    if out=$(
        # shellcheck source=/dev/null
        [ -f "$tree.env" ] && . "$tree.env"
        read -r -a want <<<"$(hwloc_counts)"
        if [ $live = 1 ]; then
            json=$(HWLOC_FSROOT=$tree "$gov" snapshot --json) || { echo "snapshot exit=$?"; exit 1; }
        else
            json=$(env -u HWLOC_FSROOT "$gov" snapshot --json --sysroot "$tree") ||
                { echo "snapshot exit=$?"; exit 1; }
        fi
        read -r -a ours <<<"$(python3 -c '
import json, sys
s = json.load(sys.stdin)
h, t = s["cpu"]["host"], s["topology"]["host"]
print(" ".join("null" if v is None else str(v) for v in
               (h["logical"], h["physical"], h["packages"], h["numa_nodes"], t["memory_only_numa_nodes"])))
' <<<"$json")"
        fields=(logical physical packages numa_nodes memory_only_numa_nodes) msg=""
        for i in 0 1 2 3 4; do
            o=${ours[$i]}; [ "$o" = null ] && [ "${want[$i]}" = 0 ] && continue
            [ "$o" = "${want[$i]}" ] || msg+=" ${fields[$i]} ours=$o hwloc=${want[$i]}"
        done
        [ $live = 1 ] || tasks=$(python3 "$here/tree_tasks.py" "$gov" "$tree") || msg+=" task part:"
        [ -z "$msg" ] || echo "${msg# }"
        [ -z "${tasks:-}" ] || echo "$tasks"
        [ -z "$msg" ]
    ); then
        pass "$what"
        [ -z "$out" ] || while IFS= read -r line; do echo "# $line"; done <<<"$out"
    else
        fail "$what" "$out"
    fi
done
finish
