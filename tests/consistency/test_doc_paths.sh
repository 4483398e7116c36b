#!/usr/bin/env bash
# Every repository path that the docs (docs/*.md, README.md, the Python
# binding's README) and the code's comments name exists, so that a file
# moved or renamed cannot leave its old name behind (issue 27, item 6).
# A path counts from the repository's top or from any directory above the
# file that names it (tests/meson.build says tool/test_run.sh).  Left out:
# names with a placeholder in capitals (tests/slurm/cases/NAME.sh), build
# outputs (no extension, or .so: tool/governor, spank/governor.so), and
# hwloc's own source tree (tests/hwloc/...).  A '*' must match a file.
# Only the sources are read: not hidden directories (.git, .pybuild) nor a
# build directory inside the tree (a Debian build's obj-*, with meson-info).
# usage: test_doc_paths.sh SRC
set -uo pipefail
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
cd "${1:?usage: test_doc_paths.sh SRC}" || exit 1
top='(core|spank|runtime|tool|tests|docs|contrib|include|abi)'
missing=0 paths=0

exists() { # FILE PATH: PATH from the top or from a directory above FILE
	local d=$1
	while [[ $d == */* ]]; do
		d=${d%/*}
		if [[ $2 == *'*'* ]]; then
			compgen -G "$d/$2" >/dev/null && return 0
		else
			[[ -e $d/$2 ]] && return 0
		fi
	done
	if [[ $2 == *'*'* ]]; then compgen -G "$2" >/dev/null; else [[ -e $2 ]]; fi
}

while read -r file path; do
	case $path in
	*[A-Z][A-Z]*) continue ;;
	tests/hwloc/*) continue ;;
	*.so) continue ;;
	esac
	[[ ${path##*/} == *.* ]] || continue
	paths=$((paths + 1))
	exists "$file" "$path" && continue
	fail "$file names only paths that exist" "$path does not exist"
	missing=1
done < <(find . -mindepth 1 \( -name '.*' -o -path ./tests/fixtures -o -name 'meson-*' -o -name '*.p' \
	-o -type d -exec test -e '{}/meson-info' \; \) -prune -o \
	-type f \( -path './docs/*.md' -o -name README.md -o -name '*.[ch]' -o -name '*.sh' \
	-o -name '*.py' -o -name meson.build -o -name '*.scd' \) -print | sed 's|^\./||' |
	xargs grep -oHE "(^|[^A-Za-z0-9_./-])$top/[A-Za-z0-9_.*/-]*[A-Za-z0-9_*]" |
	sed -E "s/^([^:]*):[^A-Za-z0-9_]?($top\/.*)$/\1 \2/" | sort -u)
if [[ $paths -gt 50 ]]; then
	pass "the scan found $paths repository paths in docs and comments"
else
	fail "the scan finds the paths named in docs and comments (only $paths: it is broken)"
fi
((missing)) || pass "the $paths repository paths named in docs and comments exist"
finish
