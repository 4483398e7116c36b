#!/usr/bin/env bash
# `meson dist` makes a release tarball that builds and passes its tests on
# its own, away from the git tree.  The tarball holds the committed HEAD:
# uncommitted changes are not in it.
#
# usage: tests/install/test_dist.sh BUILDDIR
# Prints "ok N - ..." / "not ok N - ..." lines; exits 1 when one failed.
set -uo pipefail

# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
build_and_scratch dist "$@"

rm -rf "$build/meson-dist"
if out=$(meson dist -C "$build" --no-tests --formats xztar --allow-dirty 2>&1); then
	pass "meson dist --no-tests"
else
	fail "meson dist --no-tests" "$out"
	finish
fi
tarball=$(find "$build/meson-dist" -name '*.tar.xz' | head -1)
name=$(basename "$tarball" .tar.xz)
if check_sum=$(cd "$build/meson-dist" && sha256sum -c "$name.tar.xz.sha256sum" 2>&1); then pass "$name.tar.xz matches its .sha256sum"; else fail "$name.tar.xz matches its .sha256sum" "$check_sum"; fi

tar -xJf "$tarball" -C "$work"
top=$work/$name
if [[ -d $top && ! -e $top/.git ]]; then pass "tarball unpacks to $name/ without .git"; else fail "tarball unpacks to $name/ without .git"; fi
for f in meson.build meson_options.txt include/governor.h docs/man/governor.1.scd \
	contrib/slurm-plugindir.sh contrib/debian/control contrib/rpm/slurm-governor.spec; do
	[[ -e $top/$f ]] || missing+=" $f"
done
if [[ -z ${missing:-} ]]; then pass "tarball holds the sources, man pages and packaging"; else fail "tarball holds the sources, man pages and packaging" "missing:$missing"; fi

if out=$(meson setup "$work/build" "$top" 2>&1 && meson compile -C "$work/build" 2>&1); then
	pass "the unpacked tarball configures and builds"
else
	fail "the unpacked tarball configures and builds" "$(tail -30 <<<"$out")"
	finish
fi
if out=$(meson test -C "$work/build" --print-errorlogs --timeout-multiplier 4 2>&1); then
	pass "its tests pass ($(awk '/^Ok:/ { print $2 }' <<<"$out") ok)"
else
	fail "its tests pass" "$(tail -30 <<<"$out")"
fi
out=$("$work/build/tool/governor" --version 2>&1)
if [[ $out == "governor ${name##*-}" ]]; then pass "its governor --version matches the tarball's name"; else fail "its governor --version matches the tarball's name" "$out"; fi
if [[ -f $work/build/docs/man/governor.1 ]]; then pass "its man pages are generated"; else fail "its man pages are generated"; fi

# The packaging describes this release and this install layout.
version=${name##*-}
spec=$top/contrib/rpm/slurm-governor.spec
deb_version=$(dpkg-parsechangelog -l "$top/contrib/debian/changelog" -S Version 2>&1)
spec_version=$(sed -n 's/^Version:[[:space:]]*//p' "$spec")
if [[ $deb_version == "$version" && $spec_version == "$version" ]]; then
	pass "contrib/debian/changelog and the RPM spec say $version"
else
	fail "contrib/debian/changelog and the RPM spec say $version" "debian: $deb_version, rpm: $spec_version"
fi
if ! command -v rpmspec >/dev/null; then
	skip "no rpmspec (Debian package rpm)" "RPM %files match the meson install layout"
	finish
fi
# rpmbuild's layout: %{_libdir} is /usr/lib64, the plugin in %{_libdir}/slurm.
# The documentation tree (%{_docdir}) is the spec's own copy, not meson's.
# The entries are globs matched against the staged tree: never expanded
# against this machine's / (where the project's own packages may be
# installed: /usr/share/man/man1/governor.1* would then name a file there).
patterns=$(rpmspec -P "$spec" 2>/dev/null | awk '/^%files/ { f = 1; next } /^%[a-z]/ && !/^%(doc|license|dir|config)/ { f = 0 } f && /^\// && !/^\/usr\/share\/doc\// { print $1 }')
set -f
if out=$(meson setup "$work/rpm" "$top" --prefix=/usr --libdir=lib64 -Dtests=false \
	-Dspank=enabled -Dman=enabled -Druntime_probes=disabled -Dslurm_plugindir=/usr/lib64/slurm 2>&1 &&
	meson install -C "$work/rpm" --destdir "$work/rpmroot" --quiet 2>&1); then
	unlisted='' unmatched=''
	installed=$(cd "$work/rpmroot" && find . \( -type f -o -type l \) | sed 's/^\.//')
	for f in $installed; do
		hit=0
		for p in $patterns; do
			# shellcheck disable=SC2053 # the %files entry is a glob
			[[ $f == $p ]] && hit=1
		done
		((hit)) || unlisted+=" $f"
	done
	for p in $patterns; do
		hit=0
		for f in $installed; do
			# shellcheck disable=SC2053
			[[ $f == $p ]] && hit=1
		done
		((hit)) || unmatched+=" $p"
	done
	if [[ -z $unlisted$unmatched ]]; then
		pass "RPM %files match the meson install layout ($(wc -w <<<"$patterns") entries)"
	else
		fail "RPM %files match the meson install layout" "installed, not in %files:${unlisted:- none}; in %files, not installed:${unmatched:- none}"
	fi
else
	fail "RPM %files match the meson install layout" "$(tail -20 <<<"$out")"
fi
set +f
finish
