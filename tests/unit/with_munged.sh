#!/usr/bin/env bash
# Runs a unit test with a MUNGE daemon of its own: a fresh key and a socket
# in a private directory, named to the test by GOV_TEST_MUNGE_SOCKET
# (tests/unit/test_munge.h).  The seal cases then run wherever munged is
# installed, and never meet a daemon that something else (a test cluster
# on MUNGE's default socket) stops or restarts under them.
#   with_munged.sh MUNGED TEST [ARG...]
# As root, munged runs as the munge user, as its package runs it.  If it
# does not start, the test runs without the variable and its seal cases
# skip for want of a daemon on the default socket, as they say.
set -uo pipefail

munged=${1:?usage: with_munged.sh MUNGED TEST [ARG...]}
shift
[[ $# -ge 1 ]] || { echo "usage: with_munged.sh MUNGED TEST [ARG...]" >&2; exit 2; }

# A task trusts a munged only behind a socket root's or munge's all the
# way down (core/descriptor/munge_path.c): as root the daemon's directory is
# made under /run; a user's is their own, and the seal cases say so.
if [[ $(id -u) -eq 0 ]]; then
	dir=$(mktemp -d /run/gov-unit-munge.XXXXXX) || exit 1
else
	dir=$(mktemp -d) || exit 1
fi
sock=$dir/munge.socket
as=()
stop() {
	"${as[@]}" "$munged" --stop --socket="$sock" >/dev/null 2>&1
	rm -rf "$dir"
}
trap stop EXIT

chmod 755 "$dir"
head -c 1024 /dev/urandom >"$dir/munge.key"
chmod 600 "$dir/munge.key"
if [[ $(id -u) -eq 0 ]] && id -u munge >/dev/null 2>&1; then
	chown munge: "$dir" "$dir/munge.key"
	as=(setpriv --reuid=munge --regid=munge --init-groups)
fi
# A background lane runs the tests under SCHED_IDLE (chrt --idle), which
# munged would inherit: it would then answer only when nothing else wants
# the CPU, and a seal case would wait past libmunge's own timeouts.  Root
# may give it the normal policy back (a user, only as RLIMIT_NICE allows).
sched=()
if chrt --other 0 true 2>/dev/null; then
	sched=(chrt --other 0)
fi
# munged returns once its socket is ready (it forks only after that).
if "${sched[@]}" "${as[@]}" "$munged" --socket="$sock" --key-file="$dir/munge.key" \
	--log-file="$dir/munged.log" --pid-file="$dir/munged.pid" \
	--seed-file="$dir/munged.seed" --num-threads=2 9>&-; then
	export GOV_TEST_MUNGE_SOCKET=$sock
else
	echo "with_munged.sh: munged did not start; the seal cases will look on the default socket:" >&2
	cat "$dir/munged.log" >&2 2>/dev/null
fi
"$@"
