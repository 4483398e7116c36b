#!/usr/bin/env bash
# The Debian source package, built as Debian's build daemons build it: the
# .dsc of contrib/debian/build-deb.sh --source, unpacked and built with
# `dpkg-buildpackage -us -uc` in a fresh Debian 12 (bookworm) root holding
# only the essential packages, build-essential and the Build-Depends of
# contrib/debian/control as apt resolves them (mmdebstrap --variant=buildd,
# then apt-get build-dep of the .dsc), by an unprivileged user whose home
# does not exist, without network, MUNGE daemon or Slurm, and with
# DEB_BUILD_OPTIONS free of nocheck, so that dh_auto_test runs the meson
# test suite and the binding's pytest suite there.
#
# usage: tests/install/test_buildd.sh [--out DIR] [--cache DIR]   (as root)
#   --out DIR    keep the build log, the meson test log and the packages
#   --cache DIR  where the root is cached (default $GOV_ROOT_CACHE, else
#                /var/cache/slurm-governor/roots), as buildd-bookworm-KEY,
#                KEY a hash of the Build-Depends, the mirrors and a recipe
#                number: a changed Build-Depends builds a new root.
# Prints "ok N - ..." / "not ok N - ..." lines and where the time went;
# exits 1 when one failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
user=buildd uid=2000 # the build user in the root, as sbuild's
# shellcheck source=../lib/die.sh
source "$here/../lib/die.sh"

# Inside the view (chroot.sh run), as root: build as the build user, with
# the environment sbuild gives (no home, C.UTF-8, parallel=N) and no
# network; copy the results and logs to OUT.
if [[ ${1:-} == --inside ]]; then
	[[ $# -eq 3 && -f /.complete ]] || die "--inside DSC OUT runs only in a view of the build root (chroot.sh run --root)"
	dsc=$2 out=$3
	rm -rf /build
	install -d -o "$user" -g "$user" /build
	cp "$dsc" "$(dirname "$dsc")/$(sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]* [0-9]* //p' "$dsc")" /build/
	chown -R "$user:$user" /build
	touch /build/.start
	rc=0
	# Each line stamped with the seconds since the start: where time goes.
	unshare --net setpriv --reuid="$uid" --regid="$uid" --clear-groups \
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/nonexistent LC_ALL=C.UTF-8 \
		USER="$user" LOGNAME="$user" SHELL=/bin/sh DEB_BUILD_OPTIONS="parallel=$(nproc)" \
		sh -c 'echo "build user: $(id -un) $(id -u), network: $(awk "NR > 2 { printf \"%s\", \$1 }" /proc/self/net/dev)"
			cd /build && dpkg-source -x "$1" && cd "$2" && dpkg-buildpackage -us -uc' \
		sh "$(basename "$dsc")" "$(basename "$dsc" .dsc | tr _ -)" 2>&1 |
		{
			t0=$SECONDS
			while IFS= read -r line; do printf '[%4d s] %s\n' $((SECONDS - t0)) "$line"; done
		} >"$out/build.log" || rc=$?
	cp /build/*.deb /build/*.buildinfo /build/*.changes "$out/" 2>/dev/null || true
	find /build -path '*/meson-logs/testlog.txt' -exec cp {} "$out/testlog.txt" \; 2>/dev/null || true
	# What the build wrote outside its tree, in the root itself (not in what
	# the view binds in, such as the machine's cluster lock).
	find / -xdev -newer /build/.start ! -path '/build/*' ! -path /build ! -type d -printf '%D %p\n' 2>/dev/null |
		awk -v dev="$(stat -c %d /)" '$1 == dev { print $2 }' >"$out/outside" || true
	exit "$rc"
fi

out_keep='' cache=${GOV_ROOT_CACHE:-/var/cache/slurm-governor/roots}
while [[ $# -gt 0 ]]; do
	case $1 in
	--out) out_keep=${2:?--out needs a directory}; shift 2 ;;
	--cache) cache=${2:?--cache needs a directory}; shift 2 ;;
	-h | --help) sed -n '2,19p' "$0"; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
# shellcheck source=../lib/assert.sh
source "$here/../lib/assert.sh"
[[ $(id -u) -eq 0 ]] || die "must run as root (mmdebstrap, chroot, mounts)"
command -v dpkg-source >/dev/null || die "dpkg-source is missing: apt-get install dpkg-dev"

work=$(mktemp -d /tmp/governor-buildd.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/out"
t_all=$SECONDS

# The source package, from the same tree as build-deb.sh's binary build.
t0=$SECONDS
dsc=$(bash "$src/contrib/debian/build-deb.sh" --source "$work/src") ||
	die "contrib/debian/build-deb.sh --source failed"
t_source=$((SECONDS - t0))

# The root: bookworm as the host, its updates and security archive, no
# recommends (sbuild installs none), the build dependencies of the .dsc.
# shellcheck source=../lib/debian_root.sh
source "$src/tests/lib/debian_root.sh"
suite=bookworm
mirrors=(
	"--mirror=deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite-updates main"
	"--mirror=deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security $suite-security main"
)
# Bump when the recipe below changes in a way the lines hashed do not show.
recipe=2
build_deps=$(sed -n '/^Build-\(Depends\|Conflicts\)\(-Arch\|-Indep\)\?:/p' "$dsc")
key=$(printf '%s\n' "$recipe" "$(debian_root_sources "$suite")" "${mirrors[@]}" "$build_deps" |
	sha256sum | cut -c1-12)

build_root() { # DSC DIR
	local dsc=$1 tmp=$2 log=$2.log t0=$SECONDS
	echo "test_buildd: building a Debian $suite build root (about a minute here: build-essential and the Build-Depends)" >&2
	debian_root "$suite" "$tmp" "$log" --variant=buildd "${mirrors[@]}" \
		--customize-hook="copy-in $dsc /tmp" \
		--customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q /tmp/$(basename "$dsc")" \
		--customize-hook="rm -f \"\$1/tmp/$(basename "$dsc")\"" || return 1
	# The build user, as sbuild makes one: no home, no login.
	echo "$user:x:$uid:$uid:build daemon:/nonexistent:/usr/sbin/nologin" >>"$tmp/etc/passwd" &&
		echo "$user:x:$uid:" >>"$tmp/etc/group" &&
		printf 'suite=%s\nkey=%s\npackages=%s\n%s\n' "$suite" "$key" \
			"$(chroot "$tmp" dpkg-query -W | wc -l)" "$build_deps" >"$tmp/.complete" || return 1
	rm -f "$log"
	echo "test_buildd: built the $suite build root in $((SECONDS - t0)) s" >&2
}

t0=$SECONDS
root=$(cached_root "$cache" "buildd-$suite" "$key" build_root "$dsc") || die "no $suite build root"
t_root=$((SECONDS - t0))
pass "a $suite root with build-essential and the Build-Depends only: $root ($(sed -n 's/^packages=//p' "$root/.complete") packages, $t_root s)"

# What the build must do without: the daemons and the tools nothing declares.
extra=
for p in munge slurmd slurmctld jq; do
	[[ $(chroot "$root" dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) != installed ]] || extra+=" $p"
done
if [[ -z $extra ]]; then
	pass "the root has no munge, slurmd, slurmctld or jq"
else
	fail "the root has no munge, slurmd, slurmctld or jq" "installed:$extra"
fi

t0=$SECONDS
rc=0
bash "$src/tests/slurm/chroot.sh" run --root "$root" --bind "$work" \
	bash "$src/tests/install/test_buildd.sh" --inside "$work/src/$(basename "$dsc")" "$work/out" || rc=$?
t_build=$((SECONDS - t0))
log=$work/out/build.log
[[ -z $out_keep ]] || { mkdir -p "$out_keep" && cp -r "$work/out/." "$out_keep/"; }
who=$(sed -n 's/^\[ *[0-9]* s\] build user: //p' "$log" 2>/dev/null)
if [[ $who == "$user $uid, network: lo:" ]]; then
	pass "the build runs as '$user' (uid $uid), and the only network interface is lo"
else
	fail "the build runs as '$user' (uid $uid), and the only network interface is lo" "the build says: '$who'"
fi
if ((rc == 0)); then
	pass "dpkg-buildpackage -us -uc as '$user', no network, no MUNGE daemon ($t_build s)"
else
	fail "dpkg-buildpackage -us -uc as '$user', no network, no MUNGE daemon (exit $rc)" "$(tail -60 "$log" 2>/dev/null)"
fi

# dh_auto_test ran the meson suite, and none of it failed.
summary=$(sed -n '/ dh_auto_test/,/ dh_prep\| dh_auto_install\| dh_install/p' "$log" 2>/dev/null)
count() { sed -n "s/^.*\] $1: *\([0-9]*\).*/\1/p" <<<"$summary" | tail -1; }
ok=$(count Ok) failed_tests=$(count Fail) skipped=$(count Skipped)
if [[ -n $ok && $ok -gt 0 && $failed_tests == 0 ]]; then
	pass "dh_auto_test ran the meson suite: $ok ok, $failed_tests failed, ${skipped:-0} skipped"
else
	fail "dh_auto_test ran the meson suite" "Ok: '$ok', Fail: '$failed_tests' (no summary: did it run?)"
fi
# Then the binding's pytest suite against the library just built.
pytest=$(grep -E '^\[ *[0-9]+ s\] =* ?[0-9]+ passed.* in [0-9.]+s' <<<"$summary" | tail -1 | sed 's/^\[[^]]*\] *//; s/=//g')
if [[ -n $pytest && $pytest != *failed* && $pytest != *error* ]]; then
	pass "dh_auto_test ran the binding's pytest suite: $pytest"
	grep -o 'SKIPPED \[[0-9]*\] .*' <<<"$summary" | sed 's/^/#   /' || true
else
	fail "dh_auto_test ran the binding's pytest suite" "$(grep -E 'passed|failed|error' <<<"$summary" | tail -3)"
fi
# Test cases skipped inside the programs, each for a stated fact of this
# build (no root, no MUNGE daemon, no R): a skip without one is a failure.
# cmocka counts its skipped cases; a shell test's are its TAP "# SKIP" lines.
cases=$(awk '/^\[  SKIPPED \] [0-9]+ test\(s\), listed below/ { n += $4 }
	/^ok [0-9]+ - .* # SKIP / { n++ } END { print n + 0 }' \
	"$work/out/testlog.txt" 2>/dev/null || true)
facts=$(grep -c '^# SKIP: ' "$work/out/testlog.txt" 2>/dev/null || true)
if [[ ${cases:-0} == "${facts:-0}" ]]; then
	pass "each of the ${cases:-0} test cases skipped says why"
	grep -o '^# SKIP: [^:]*' "$work/out/testlog.txt" 2>/dev/null | sort | uniq -c | sed 's/^ *\([0-9]*\) # SKIP:/#   \1 cases:/' || true
else
	fail "each skipped test case says why" "${cases:-0} skipped, ${facts:-0} reasons given (testlog.txt in --out)"
fi
if [[ ! -s $work/out/outside ]]; then
	pass "the build wrote nothing outside its tree"
else
	fail "the build wrote nothing outside its tree" "$(head -20 "$work/out/outside")"
fi

missing=
for p in libgovernor1 libgovernor-dev governor slurm-spank-governor python3-governor; do
	compgen -G "$work/out/${p}_*.deb" >/dev/null || missing+=" $p"
done
if [[ -z $missing ]]; then
	pass "every package built: $(cd "$work/out" && echo *.deb)"
else
	fail "every package built" "missing:$missing"
fi

# Where the time went, from the build log's stamps.
stamp() { sed -n "s/^\[ *\([0-9]*\) s\] *$1\b.*/\1/p" "$log" 2>/dev/null | head -1; }
configure=$(stamp dh_auto_configure) compile=$(stamp dh_auto_build) tests=$(stamp dh_auto_test)
install=$(stamp dh_auto_install) end=$(sed -n 's/^\[ *\([0-9]*\) s\].*/\1/p' "$log" 2>/dev/null | tail -1)
if [[ -n $configure && -n $install ]]; then
	phases="configure $((compile - configure)) s, compile $((tests - compile)) s, tests $((install - tests)) s,"
	phases+=" install and packages $((end - install)) s"
else
	phases="stopped before dh_auto_install"
fi
echo "# time: source package $t_source s, root $t_root s, build $t_build s ($phases), all $((SECONDS - t_all)) s"
finish
