#!/usr/bin/env bash
# Build the Debian binary packages of slurm-governor without touching the
# source tree: copy the sources to a temporary directory, put
# contrib/debian there as debian/, run dpkg-buildpackage -us -uc -b, and
# move the .deb files (with .buildinfo and .changes) to OUTDIR.
# With --source, make the source package from the same tree instead
# (dpkg-source -b: the .dsc and its tarball in OUTDIR), which is what a
# build daemon builds (tests/install/test_buildd.sh).
#
# usage: contrib/debian/build-deb.sh [--source] [OUTDIR]   (default: ./deb-out)
# Needs the Build-Depends of contrib/debian/control (dpkg-buildpackage
# names the missing ones), or for --source only dpkg-dev; no network.
# Prints the path of each .deb, or of the .dsc.
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
source_only=false
if [[ ${1:-} == --source ]]; then
	source_only=true
	shift
fi
[[ ${1:-} != -* ]] || { echo "build-deb: unknown option '$1' (usage: build-deb.sh [--source] [OUTDIR])" >&2; exit 2; }
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

if $source_only; then
	(cd "$tmp" && dpkg-source -b "$(basename "$tree")") >"$tmp/source.log" 2>&1 || {
		cat "$tmp/source.log"
		echo "build-deb: dpkg-source -b failed (above)" >&2
		exit 1
	}
	# The .dsc and the files it lists (a native package: one tarball).
	dsc=slurm-governor_$version.dsc
	for f in "$dsc" $(sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]* [0-9]* //p' "$tmp/$dsc"); do
		mv "$tmp/$f" "$out/"
	done
	echo "$out/$dsc"
	exit 0
fi

# Debian's own tools only: a python3 earlier in PATH (pyenv, a venv) has
# neither Debian's build modules nor its dist-packages layout.  The build
# and its tests take minutes: say what it is at, on stderr, every 20 s.
echo "build-deb: dpkg-buildpackage of slurm-governor $version (build and tests: a few minutes)" >&2
(cd "$tree" && PATH=/usr/sbin:/usr/bin:/sbin:/bin dpkg-buildpackage -us -uc -b --jobs=auto) >"$tmp/build.log" 2>&1 &
build=$!
t0=$SECONDS
while kill -0 "$build" 2>/dev/null; do
	sleep 1
	if (((SECONDS - t0) % 20 == 0)); then
		step=$(grep -oE '^ *(dh_[a-z_]+|debian/rules [a-z_-]+)' "$tmp/build.log" | tail -1 | sed 's/^ *//')
		echo "build-deb: $((SECONDS - t0)) s, at ${step:-the start}" >&2
	fi
done
wait "$build" || {
	tail -60 "$tmp/build.log"
	echo "build-deb: dpkg-buildpackage failed (last lines above)" >&2
	exit 1
}
echo "build-deb: built in $((SECONDS - t0)) s" >&2
shopt -s nullglob
files=("$tmp"/*.deb "$tmp"/*.buildinfo "$tmp"/*.changes)
mv "${files[@]}" "$out/"
for f in "${files[@]}"; do
	if [[ $f == *.deb ]]; then echo "$out/$(basename "$f")"; fi
done
