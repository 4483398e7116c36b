# shellcheck shell=bash
# The machine's cache of Debian roots built with mmdebstrap, shared by
# root.sh (a root per Slurm series) and tests/install/test_buildd.sh (a
# build daemon's bookworm root). Sourced; gives one function:
#
#   cached_root CACHE NAME KEY BUILDER [ARGS...]
#
# prints CACHE/NAME-KEY, first building it when it is not there yet:
# BUILDER ARGS... DIR fills DIR and writes DIR/.complete last. DIR lies
# beside the final name and is renamed only when BUILDER succeeded and
# .complete exists, so an interrupted build never looks cached. Every
# build on the machine holds CACHE/.lock. Afterwards the roots CACHE/NAME-*
# with another key are stale and removed, unless an overlay still uses one.
# BUILDER runs as a condition (errexit does not stop it): it checks each
# step itself and returns non-zero, or dies, on the first failure.
# Roots are never modified after they are built (chroot.sh overlays them).
# It sets an EXIT trap: call it from a script or a subshell of its own.
cached_root() {
	local cache=$1 name=$2 key=$3 root tmp old
	shift 3
	root=$cache/$name-$key
	mkdir -p "$cache"
	exec 8>>"$cache/.lock"
	flock 8
	if [[ -f $root/.complete ]]; then
		exec 8>&-
		printf '%s\n' "$root"
		return 0
	fi
	command -v mmdebstrap >/dev/null || {
		echo "cached_root: mmdebstrap is missing: apt-get install mmdebstrap (tests/install-deps.sh installs it)" >&2
		return 1
	}
	tmp=$cache/.build-$name-$key
	rm -rf "$tmp"
	# shellcheck disable=SC2064 # the path is fixed now
	trap "rm -rf '$tmp'" EXIT
	"$@" "$tmp" || return 1
	[[ -f $tmp/.complete ]] || {
		echo "cached_root: $1 left no $tmp/.complete" >&2
		return 1
	}
	mv "$tmp" "$root"
	trap - EXIT
	for old in "$cache/$name-"*; do
		[[ $old != "$root" && -d $old ]] || continue
		grep -qF "$old" /proc/mounts || rm -rf "$old"
	done
	exec 8>&-
	printf '%s\n' "$root"
}
