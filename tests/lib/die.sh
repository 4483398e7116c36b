# shellcheck shell=bash
# die MESSAGE: give up, the one copy for the scripts under tests/ that stop at
# their first error (the harness: tests/slurm/, tests/guest/,
# tests/install/test_buildd.sh; and the end-to-end cases, where it fails the
# case). MESSAGE goes to stderr after the running script's folder and name
# (tests/ has several run.sh, build.sh and lib.sh); the status is 1. Unlike
# assert.sh's fail, which records a failed check and goes on.
die() {
	local me
	me=$(realpath -m -- "$0")
	printf '%s: %s\n' "${me#"${me%/*/*}"/}" "$*" >&2
	exit 1
}
