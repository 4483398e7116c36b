#!/usr/bin/env bash
# A throwaway view of a cached root (root.sh) in which the test cluster and
# the build run: an overlay on the root (which stays untouched), the
# host's /proc, /sys and /dev (recursive binds, made rslave so that nothing
# unmounted inside reaches the host), this source tree and other directories
# bound at their own paths, the machine's cluster lock, and the hostname in
# /etc/hosts.
#   chroot.sh run --series S|--root ROOT [--bind DIR]... [--cluster-dir DIR] CMD...
#       the whole cycle: the root of Slurm S (root.sh) or another cached
#       root, reap, start, CMD inside, stop (also on failure, SIGINT or
#       SIGTERM); exits with CMD's status
#   chroot.sh start --name NAME --root ROOT [--bind DIR]... [--cluster-dir DIR]
#   chroot.sh exec --name NAME CMD...     run CMD inside, in the same directory
#   chroot.sh stop --name NAME            stop the cluster and every process
#                                         inside, unmount, remove the overlay
#   chroot.sh reap                        stop every view whose starter is gone
# A view records who started it (run: itself; start: its caller): reap
# cleans up after a run that was killed before it could stop.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
base=/run/slurm-governor/chroots
lock=/run/gov-cluster.lock
path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# shellcheck source=../lib/die.sh
source "$here/../lib/die.sh"
[[ $# -ge 1 ]] || die "usage: chroot.sh start|exec|stop|reap ... (see --help)"
cmd=$1
shift
[[ $cmd == -h || $cmd == --help ]] && { sed -n '2,18p' "$0"; exit 0; }
[[ $(id -u) -eq 0 ]] || die "must run as root (mounts, chroot)"

name='' root='' series='' cluster_dir='' binds=()
while [[ $# -gt 0 && $1 == --* ]]; do
	case $1 in
	--name) name=${2:?--name needs a value}; shift 2 ;;
	--root) root=${2:?--root needs a directory}; shift 2 ;;
	--series) series=${2:?--series needs a Slurm series}; shift 2 ;;
	--bind) binds+=("$(realpath -m "${2:?--bind needs a directory}")"); shift 2 ;;
	--cluster-dir) cluster_dir=${2:?--cluster-dir needs a directory}; shift 2 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[[ $# -eq 0 || $cmd == exec || $cmd == run ]] || die "unexpected argument '$1' (see --help)"
[[ $cmd == run ]] && name=run-$$
if [[ $cmd != reap ]]; then
	[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || die "--name takes letters, digits, '.', '_' and '-', got '$name'"
fi
state=$base/$name
merged=$state/root

mounted_under() { # DIR: mount points at or below DIR, deepest first
	local m
	awk -v d="$1" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/self/mounts | sort -r |
		while read -r m; do printf '%b\n' "$m"; done # mounts spells ' ' as \040
}

proc_stat() { # PID: "STATE STARTTIME" (fields 3 and 22 of /proc/PID/stat)
	sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $1, $20 }'
}

# Live processes whose root directory is inside DIR.
pids_inside() {
	local p r
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		[[ $r == "$1" || $r == "$1"/* ]] || continue
		[[ $(proc_stat "${p#/proc/}") == Z* ]] && continue
		printf '%s\n' "${p#/proc/}"
	done
}

kill_inside() {
	local sig tenths pids i
	for sig in TERM KILL; do
		tenths=$([[ $sig == TERM ]] && echo 20 || echo 50)
		for ((i = 0; i < tenths; i++)); do
			pids=$(pids_inside "$1")
			[[ -z $pids ]] && return 0
			# shellcheck disable=SC2086 # one pid per word
			((i == 0)) && { kill "-$sig" $pids 2>/dev/null || true; }
			sleep 0.1
		done
	done
	[[ -z $(pids_inside "$1") ]] || die "processes inside $1 survive SIGKILL: $(pids_inside "$1" | tr '\n' ' ')"
}

# Owner: pid and start time, so that a reused pid is not taken for it; a
# zombie is gone.
owner_alive() {
	local pid start stat
	read -r pid start <"$1/owner" 2>/dev/null || return 1
	stat=$(proc_stat "$pid")
	[[ -n $stat && ${stat%% *} != Z && ${stat#* } == "$start" ]]
}

stop_view() { # STATE: the cluster first (its cgroups), then the rest
	local st=$1 m=$1/root d i tree
	[[ -d $st ]] || return 0
	# The view's own source tree: a reaped view may come from another one.
	tree=$(cat "$st/src" 2>/dev/null) || tree=
	if [[ -f $st/cluster && -n $tree ]] && mountpoint -q "$m$tree"; then
		chroot "$m" /usr/bin/env PATH="$path" bash "$tree/tests/slurm/cluster.sh" stop \
			--dir "$(<"$st/cluster")" || true
	fi
	kill_inside "$m"
	for ((i = 0; i < 20; i++)); do
		[[ -z $(mounted_under "$m") ]] && break
		while read -r d; do
			umount "$d" 2>/dev/null || true
		done < <(mounted_under "$m")
		sleep 0.1
	done
	while read -r d; do
		printf 'chroot.sh: %s is busy, detaching it\n' "$d" >&2
		umount -l "$d" || true
	done < <(mounted_under "$m")
	# Never remove anything while a host directory is still bound inside.
	[[ -z $(mounted_under "$st") ]] || die "still mounted under $st: $(mounted_under "$st" | tr '\n' ' ')"
	rm -rf --one-file-system "$st"
}

# Views are made and reaped under one lock, so that a reap never takes a
# view being set up for one without an owner. Released before CMD runs.
lock_views() {
	mkdir -p "$base"
	exec 7>>"$base/.lock"
	flock 7
}

unlock_views() {
	exec 7>&-
}

start_view() { # OWNER_PID
	local d
	[[ -f $root/.complete ]] || die "'$root' is not a root built by root.sh"
	[[ ! -e $state ]] || stop_view "$state"
	mkdir -p "$state"/{upper,work,root}
	trap 'stop_view "$state"' EXIT
	printf '%s %s\n' "$1" "$(proc_stat "$1" | cut -d' ' -f2)" >"$state/owner"
	printf '%s\n' "$src" >"$state/src"
	[[ -n $cluster_dir ]] && printf '%s\n' "$cluster_dir" >"$state/cluster"
	mount -t overlay overlay -o "lowerdir=$root,upperdir=$state/upper,workdir=$state/work" "$merged"
	for d in proc sys dev; do
		mount --rbind "/$d" "$merged/$d"
		mount --make-rslave "$merged/$d"
	done
	for d in "$src" ${binds[@]+"${binds[@]}"} ${cluster_dir:+"$cluster_dir"}; do
		mkdir -p "$d" "$merged$d"
		mount --bind "$d" "$merged$d"
	done
	# One lock for every test cluster on the machine, inside or not.
	touch "$lock" "$merged$lock"
	mount --bind "$lock" "$merged$lock"
	printf '127.0.0.1 %s\n' "$(hostname -s)" >>"$merged/etc/hosts"
	trap - EXIT
}

reap_views() {
	local d
	for d in "$base"/*/; do
		[[ -d $d ]] || continue
		d=${d%/}
		owner_alive "$d" && continue
		printf 'chroot.sh: cleaning up after a run that ended without stopping (%s)\n' "$d" >&2
		stop_view "$d"
	done
}

exec_in() { # CMD...: in the view, in the caller's directory when it is there
	exec chroot "$merged" /usr/bin/env PATH="$path" /bin/sh -c 'cd "$1" 2>/dev/null || cd /; shift; exec "$@"' \
		sh "$PWD" "$@"
}

# CMD runs in the background so that a signal reaches this shell at once
# (a trap waits for a foreground child); the child gets SIGTERM and a few
# seconds to stop its own cluster, then everything inside is stopped.
child=
stop_child() { # EXIT_STATUS
	local i
	kill -TERM "$child" 2>/dev/null
	for ((i = 0; i < 50; i++)); do
		kill -0 "$child" 2>/dev/null || break
		sleep 0.1
	done
	exit "$1"
}

run_in_view() {
	local rc=0
	[[ $# -ge 1 ]] || die "run needs a command"
	if [[ -z $root ]]; then
		[[ -n $series ]] || die "run needs --series (e.g. 24.11) or --root ROOT"
		root=$(bash "$here/root.sh" --series "$series")
	fi
	lock_views
	reap_views
	start_view $$
	unlock_views
	trap 'stop_view "$state"' EXIT
	exec_in "$@" &
	child=$!
	trap 'stop_child 143' TERM
	trap 'stop_child 130' INT
	wait "$child" || rc=$?
	return "$rc"
}

case $cmd in
run) run_in_view "$@" ;;
start)
	[[ -n $root ]] || die "start needs --root ROOT (from root.sh)"
	lock_views
	start_view "$PPID"
	;;
exec)
	[[ $# -ge 1 ]] || die "exec needs a command"
	mountpoint -q "$merged" || die "no view '$name' (chroot.sh start first)"
	exec_in "$@"
	;;
stop) stop_view "$state" ;;
reap)
	lock_views
	reap_views
	;;
*) die "unknown command '$cmd' (see --help)" ;;
esac
