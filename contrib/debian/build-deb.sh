#!/usr/bin/env bash
# Build the Debian binary packages of slurm-governor without touching the
# source tree: copy the sources to a temporary directory, put
# contrib/debian there as debian/, run dpkg-buildpackage -us -uc -b, and
# move the .deb files (with .buildinfo and .changes) to OUTDIR.
#
# usage: contrib/debian/build-deb.sh [OUTDIR]     (default: ./deb-out)
# Needs the Build-Depends of contrib/debian/control (dpkg-buildpackage
# names the missing ones); no network.
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$PWD/deb-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$src/meson.build" | head -1)
deb_version=$(dpkg-parsechangelog -l "$src/contrib/debian/changelog" -S Version)
if [[ $version != "$deb_version" ]]; then
	echo "build-deb: meson.build says $version but contrib/debian/changelog says $deb_version;" \
		"add a changelog entry (dch -v $version) first" >&2
	exit 1
fi

tmp=$(mktemp -d /tmp/governor-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/slurm-governor-$version
mkdir -p "$tree"

# The files git knows (committed or not, ignored ones such as build
# directories left out); a tree without git (a release tarball) is copied
# whole.
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$src" ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [[ -e $src/$f || -L $src/$f ]] && printf '%s\0' "$f"; done |
		tar -C "$src" --null -T - -cf - | tar -C "$tree" -xf -
else
	tar -C "$src" --exclude='./build*' --exclude='./deb-out' -cf - . | tar -C "$tree" -xf -
fi
rm -rf "$tree/debian"
cp -r "$tree/contrib/debian" "$tree/debian"

# Debian's own tools only: a python3 earlier in PATH (pyenv, a venv) has
# neither Debian's build modules nor its dist-packages layout.
(cd "$tree" && PATH=/usr/sbin:/usr/bin:/sbin:/bin dpkg-buildpackage -us -uc -b --jobs=auto) >"$tmp/build.log" 2>&1 || {
	tail -60 "$tmp/build.log"
	echo "build-deb: dpkg-buildpackage failed (last lines above)" >&2
	exit 1
}
shopt -s nullglob
files=("$tmp"/*.deb "$tmp"/*.buildinfo "$tmp"/*.changes)
mv "${files[@]}" "$out/"
for f in "${files[@]}"; do
	if [[ $f == *.deb ]]; then echo "$out/$(basename "$f")"; fi
done
