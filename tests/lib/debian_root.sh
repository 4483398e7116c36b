# shellcheck shell=bash
# The one builder of Debian roots, and the machine's cache of them: the
# Slurm roots (tests/slurm/root.sh, one per series), the guests
# (tests/guest/image.sh) and the build daemon's root
# (tests/install/test_buildd.sh) are all made by debian_root and kept by
# cached_root.  Sourced; gives two functions.
#
#   debian_root SUITE DIR LOG [MMDEBSTRAP_OPTION...] -- PACKAGE...
#
# makes DIR (or a tarball, where DIR ends in .tar) a Debian SUITE root with
# PACKAGE... (no recommends) from deb.debian.org's main archive and the apt
# options a suite needs here (debian_root_sources: unstable's Release file
# is past its Valid-Until on the reachable mirror).  Before --:
# --variant=V (minbase unless given), --mirror=LINE (another sources line),
# and anything else for mmdebstrap as it is (--customize-hook...).  Its
# output goes to LOG; on failure the last lines go to stderr and it
# returns 1.
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

# The mirror line of SUITE's main archive, then the apt options it needs
# beyond no recommends, one a line: what a cache key hashes.
debian_root_sources() { # SUITE
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $1 main"
	[[ $1 != unstable ]] || echo "--aptopt=Acquire::Check-Valid-Until \"false\""
}

debian_root() {
	local suite=$1 dir=$2 log=$3 variant=--variant=minbase line
	local opts=() mirrors=() aptopts=(--aptopt='APT::Install-Recommends "false"')
	shift 3
	while IFS= read -r line; do
		case $line in
		deb\ *) mirrors+=("$line") ;;
		*) aptopts+=("$line") ;;
		esac
	done < <(debian_root_sources "$suite")
	while [[ $# -gt 0 && $1 != -- ]]; do
		case $1 in
		--variant=*) variant=$1 ;;
		--mirror=*) mirrors+=("${1#--mirror=}") ;;
		*) opts+=("$1") ;;
		esac
		shift
	done
	[[ ${1:-} == -- ]] && shift
	command -v mmdebstrap >/dev/null || {
		echo "debian_root: mmdebstrap is missing: apt-get install mmdebstrap (tests/install-deps.sh installs it)" >&2
		return 1
	}
	if ! mmdebstrap --mode=root "$variant" "${aptopts[@]}" \
		${1+--include="$(IFS=,; echo "$*")"} "${opts[@]}" \
		"$suite" "$dir" "${mirrors[@]}" >>"$log" 2>&1; then
		tail -n 30 "$log" >&2
		echo "debian_root: mmdebstrap failed (log: $log); is deb.debian.org reachable?" >&2
		return 1
	fi
}
