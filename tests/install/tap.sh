# shellcheck shell=bash
# TAP-style results for the install checks, sourced by tests/install/test_*.sh:
# "ok N - ..." / "not ok N - ..." lines (a failure's details indented with
# "#"), then "1..N" from finish, which exits 1 when one failed.
n=0 failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	local line
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	[[ -z ${2:-} ]] || while IFS= read -r line; do echo "#   $line"; done <<<"$2"
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
finish() {
	echo "1..$n"
	((failed == 0)) || { echo "# $failed of $n failed"; exit 1; }
	exit 0
}
