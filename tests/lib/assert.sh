# shellcheck shell=bash
# The one assertion library of the shell harness: the test scripts
# (tests/tool/, tests/consistency/, tests/install/) and the end-to-end
# cases (tests/slurm/cases/, through tests/slurm/lib.sh) use these checks
# and this skip, and nothing else.
#
# Each check prints a TAP line, "ok N - WHAT" or "not ok N - WHAT" (a
# failure's details indented with "#"), on standard output in a test
# script and on standard error in a case.  In a test script a failure is
# recorded and the script goes on to its next check; finish prints "1..N"
# and exits 1 when one failed.  In an end-to-end case (GOV_ASSERT_FATAL=1,
# which lib.sh sets) the first failure fails the case: its details go to
# stderr and the status is 1.
#
# skip FACT [WHAT]: what follows cannot run on this machine, for FACT,
# which starts with a line of tests/skip-facts (tests/check-skips.sh holds
# every skip a run prints to that list).  A test script skips the check
# WHAT and goes on; an end-to-end case ends there, status 77.
# shellcheck source=die.sh
source "$(dirname "${BASH_SOURCE[0]}")/die.sh"

assert_n=0 assert_failed=0
# The TAP lines: a test script's standard output; a case's standard error,
# so that a check inside a function whose output a case captures stays out
# of it.
tap() {
	if [[ ${GOV_ASSERT_FATAL:-0} == 1 ]]; then printf '%s\n' "$1" >&2; else printf '%s\n' "$1"; fi
}
pass() { assert_n=$((assert_n + 1)); tap "ok $assert_n - $1"; }
fail() { # WHAT [DETAILS]
	local line
	assert_n=$((assert_n + 1)) assert_failed=$((assert_failed + 1))
	tap "not ok $assert_n - $1"
	[[ -z ${2:-} ]] || while IFS= read -r line; do tap "#   $line"; done <<<"$2"
	[[ ${GOV_ASSERT_FATAL:-0} != 1 ]] || die "$1${2:+: $2}"
}
skip() { # FACT [WHAT]
	if [[ ${GOV_ASSERT_FATAL:-0} == 1 ]]; then
		printf 'SKIP: %s\n' "$1" >&2
		exit 77
	fi
	assert_n=$((assert_n + 1))
	echo "ok $assert_n - ${2:-the rest} # SKIP $1"
	echo "# SKIP: $1: ${2:-the rest}"
}
finish() {
	echo "1..$assert_n"
	((assert_failed == 0)) || { echo "# $assert_failed of $assert_n failed"; exit 1; }
	exit 0
}

check() { # WHAT EXPECTED ACTUAL: the two are equal
	if [[ $2 == "$3" ]]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}
contains() { # WHAT NEEDLE HAYSTACK
	case $3 in *"$2"*) pass "$1" ;; *) fail "$1" "no '$2' in: $3" ;; esac
}
lacks() { # WHAT NEEDLE HAYSTACK
	case $3 in *"$2"*) fail "$1" "'$2' in: $3" ;; *) pass "$1" ;; esac
}
check_match() { # WHAT EXTENDED_REGEX ACTUAL: the regex matches somewhere
	if [[ $3 =~ $2 ]]; then pass "$1"; else fail "$1" "'$3' does not match /$2/"; fi
}
check_no_match() { # WHAT EXTENDED_REGEX ACTUAL
	if [[ ! $3 =~ $2 ]]; then pass "$1"; else fail "$1" "'$3' matches /$2/"; fi
}
check_line() { # WHAT EXTENDED_REGEX TEXT: some whole line of TEXT matches
	if grep -Eqx -e "$2" <<<"$3"; then pass "$1"; else fail "$1" "no line matches /^$2\$/ in:
$3"; fi
}
check_status() { # WHAT EXPECTED CMD...: CMD's exit status
	local what=$1 want=$2 got=0
	shift 2
	"$@" || got=$?
	check "$what" "$want" "$got"
}

# The end-to-end cases' spelling (EXPECTED ACTUAL [WHAT]), the same checks.
assert_eq() { check "${3:-value}" "$1" "$2"; }
assert_match() { check_match "${3:-value}" "$1" "$2"; }
assert_no_match() { check_no_match "${3:-value}" "$1" "$2"; }
assert_line() { check_line "${3:-text}" "$1" "$2"; }
assert_status() { # EXPECTED CMD...
	local want=$1
	shift
	check_status "exit status of '$*'" "$want" "$@"
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
