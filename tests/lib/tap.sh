# shellcheck shell=bash
# TAP-style results for the test scripts (tests/tool/, tests/consistency/,
# tests/install/), the one copy: "ok N - ..." / "not ok N - ..." lines (a
# failure's details indented with "#"), then "1..N" from finish, which exits
# 1 when one failed.  A failure is recorded, never fatal: the script goes on
# to its next check.
n=0 failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	local line
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	[[ -z ${2:-} ]] || while IFS= read -r line; do echo "#   $line"; done <<<"$2"
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { # NAME EXPECTED ACTUAL: passes when the two are equal
	if [[ $2 == "$3" ]]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}
contains() { # NAME NEEDLE HAYSTACK
	case $3 in *"$2"*) pass "$1" ;; *) fail "$1" "no '$2' in: $3" ;; esac
}
lacks() { # NAME NEEDLE HAYSTACK
	case $3 in *"$2"*) fail "$1" "'$2' in: $3" ;; *) pass "$1" ;; esac
}
finish() {
	echo "1..$n"
	((failed == 0)) || { echo "# $failed of $n failed"; exit 1; }
	exit 0
}

# The one argument of a check on a build: BUILDDIR (configured with meson
# setup) in $build, and a scratch directory in $work, removed on exit.
build_and_scratch() { # NAME ARGS...: NAME names the scratch directory
	local name=$1
	shift
	if [[ $# -ne 1 || ! -d $1/meson-info ]]; then
		echo "usage: $0 BUILDDIR (a directory configured with meson setup)" >&2
		exit 2
	fi
	# shellcheck disable=SC2034 # read by the script that sources this
	build=$(cd "$1" && pwd)
	work=$(mktemp -d "/tmp/governor-$name.XXXXXX")
	trap 'rm -rf "$work"' EXIT
}
