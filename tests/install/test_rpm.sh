#!/usr/bin/env bash
# Build the RPMs from a `meson dist` tarball with Debian's rpmbuild
# (--nodeps: the BuildRequires are RPM names; the Debian-installed headers
# and libraries stand in for them), then check each package's file list
# with `rpm -qlp`: exactly the meson install layout under RPM's paths, the
# plugin in the spank package and the tool in the main one.  The tarball
# holds the committed HEAD: uncommitted changes are not in it.
#
# usage: tests/install/test_rpm.sh BUILDDIR
# Prints "ok N - ..." / "not ok N - ..." lines; exits 1 when one failed.
set -uo pipefail

# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
build_and_scratch rpm "$@"

if ! command -v rpmbuild >/dev/null; then
	fail "rpmbuild is installed" "apt-get install rpm (tests/install-deps.sh installs it)"
	finish
fi
version=$(meson introspect "$build" --projectinfo | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
if out=$(meson dist -C "$build" --no-tests --formats xztar --allow-dirty 2>&1); then
	pass "meson dist makes the source tarball"
else
	fail "meson dist makes the source tarball" "$(tail -20 <<<"$out")"
	finish
fi
tarball=$build/meson-dist/slurm-governor-$version.tar.xz

t0=$SECONDS
if out=$(rpmbuild -ta "$tarball" --nodeps --define "_topdir $work/top" 2>&1); then
	pass "rpmbuild -ta builds the packages ($((SECONDS - t0)) s)"
else
	fail "rpmbuild -ta builds the packages" "$(tail -40 <<<"$out")"
	finish
fi

arch=$(rpm --eval '%{_arch}')
libdir=$(rpm --eval '%{_libdir}')
release=$(rpm -q --qf '%{RELEASE}' -p "$work/top/SRPMS/"*.src.rpm 2>/dev/null)
# Each package and exactly the files it must hold, beyond its documentation
# (/usr/share/doc, /usr/share/licenses) and what rpmbuild adds by itself
# (/usr/lib/.build-id links); man pages compressed or not, as the
# distribution's rpmbuild does it.
declare -A want=(
	[slurm-governor]="/usr/bin/governor /usr/libexec/governor/probes/governor-probe-openmp /usr/share/man/man1/governor.1 /usr/share/bash-completion/completions/governor /usr/share/zsh/site-functions/_governor"
	[slurm-governor-libs]="$libdir/libgovernor.so.1 $libdir/libgovernor.so.$version"
	[slurm-governor-devel]="/usr/include/governor.h $libdir/libgovernor.so $libdir/pkgconfig/governor.pc"
	[slurm-governor-spank]="$libdir/slurm/governor.so /usr/share/man/man8/governor.so.8"
)
for p in slurm-governor slurm-governor-libs slurm-governor-devel slurm-governor-spank; do
	f=$work/top/RPMS/$arch/$p-$version-$release.$arch.rpm
	if [[ ! -f $f ]]; then
		fail "package $p built" "no $f; built: $(find "$work/top/RPMS" -name '*.rpm' -printf '%f ')"
		continue
	fi
	got=$(rpm -qlp "$f" 2>/dev/null | grep -Ev '^/usr/share/(doc|licenses)/|^/usr/lib/\.build-id(/|$)' |
		sed -E 's#^(/usr/share/man/.*)\.(gz|xz|bz2|zst)$#\1#' | sort)
	expected=$(tr ' ' '\n' <<<"${want[$p]}" | sort)
	if [[ $got == "$expected" ]]; then
		pass "rpm -qlp $p: $(paste -sd' ' <<<"$got")"
	else
		fail "rpm -qlp $p holds exactly its files" "$(diff <(echo "$expected") <(echo "$got") | grep '^[<>]')"
	fi
done

# The documentation tree (its pages link to each other) and the examples
# the guides tell a site to install.
main=$work/top/RPMS/$arch/slurm-governor-$version-$release.$arch.rpm
spank=$work/top/RPMS/$arch/slurm-governor-spank-$version-$release.$arch.rpm
docs=$(rpm -qlp "$main" 2>/dev/null | grep -c '^/usr/share/doc/slurm-governor/docs/.*\.md$')
pages=$(find "$(dirname "$0")/../../docs" -maxdepth 1 -name '*.md' | wc -l)
if [[ $docs == "$pages" ]] && rpm -qlp "$main" 2>/dev/null | grep -qx /usr/share/doc/slurm-governor/README.md; then
	pass "slurm-governor holds the documentation tree: README.md and the $pages pages of docs/"
else
	fail "slurm-governor holds the documentation tree" "$docs of $pages pages; $(rpm -qlp "$main" 2>/dev/null | grep '^/usr/share/doc' | head -5)"
fi
# %doc's directory is the name, or name-version where rpm's %_docdir_fmt says so (Debian's).
examples=$(rpm -qlp "$spank" 2>/dev/null | grep -cE '^/usr/share/doc/slurm-governor-spank(-[0-9.]+)?/(governor-doctor-taskprolog\.sh|governor-textfile|plugstack\.conf\.example|slurm-governor)$')
check "slurm-governor-spank holds the four examples the guides name" 4 "$examples"
if [[ -f $spank ]]; then
	requires=$(rpm -qp --requires "$spank" 2>/dev/null)
	if grep -q '^slurm' <<<"$requires" && grep -q 'libmunge' <<<"$requires" && grep -q '^hwloc-libs' <<<"$requires"; then
		pass "slurm-governor-spank requires Slurm, libmunge and hwloc-libs"
	else
		fail "slurm-governor-spank requires Slurm, libmunge and hwloc-libs" "$requires"
	fi
	# The plugin in the package is a SPANK plugin, not just a file of that name.
	mkdir -p "$work/x"
	(cd "$work/x" && rpm2cpio "$spank" | cpio -idm --quiet 2>/dev/null)
	so=$work/x$libdir/slurm/governor.so
	if nm -D --defined-only "$so" 2>/dev/null | grep -qw slurm_spank_init; then
		pass "the packaged governor.so exports slurm_spank_init"
	else
		fail "the packaged governor.so exports slurm_spank_init"
	fi
fi
finish
