#!/usr/bin/env bash
# Prints the path of a Debian root holding another Slurm series and the
# project's build and test dependencies, building it with mmdebstrap when it
# is not cached yet. The end-to-end suite runs inside it (chroot.sh).
#   root.sh [--series 24.11|26.05] [--cache DIR]
# The root is cached under DIR (default $GOV_ROOT_CACHE or
# /var/cache/slurm-governor/roots), keyed by what it contains: a second run
# on the same machine reuses it, a changed package list builds a new one.
# Roots are never modified after they are built (chroot.sh overlays them).
set -euo pipefail

series=24.11
cache=${GOV_ROOT_CACHE:-/var/cache/slurm-governor/roots}
while [[ $# -gt 0 ]]; do
	case $1 in
	--series) series=${2:?--series needs a Slurm series}; shift 2 ;;
	--cache) cache=${2:?--cache needs a directory}; shift 2 ;;
	-h | --help) sed -n '2,9p' "$0"; exit 0 ;;
	*) echo "root.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
# shellcheck source=../lib/die.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/die.sh"
# shellcheck source=../lib/debian_root.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/debian_root.sh"
[[ $(id -u) -eq 0 ]] || die "must run as root (mmdebstrap, chroot)"

# The Debian release that ships each series.
case $series in
24.11) suite=trixie ;;
26.05) suite=unstable ;;
*) die "no Debian root for Slurm $series; known series: 24.11, 26.05 (22.05 is the host's own)" ;;
esac
packages=(
	slurmctld slurmd slurm-client libslurm-dev munge libmunge-dev hwloc libhwloc-dev
	gcc libc6-dev meson ninja-build pkg-config libcmocka-dev bzip2
	python3 python3-pytest jq iproute2 procps passwd hostname bsdutils
	# The step report's rotation, run for real (gov_report_rotate.sh).
	logrotate
	# The real runtimes that tests/slurm/cases/gov_runtimes.sh runs in steps.
	golang-go nodejs default-jdk-headless cargo librust-rayon-dev
	python3-numpy python3-threadpoolctl libopenblas0-pthread
	# Python's pools as a user meets them (python_pools.sh).
	python3-joblib python3-numexpr
	# R's mclapply and governor doctor --runtimes' R row (gov_runtimes.sh).
	r-base-core r-cran-parallelly
	# The Debian packages, built and installed inside (tests/install/test_deb.sh).
	build-essential debhelper scdoc man-db dh-python python3-all
	pybuild-plugin-pyproject python3-setuptools python3-wheel
)
# Bump when the recipe below changes in a way the package list does not show.
recipe=1
{ read -r mirror; read -r aptopt || aptopt=; } < <(debian_root_sources "$suite")
key=$(printf '%s\n' "$recipe" "$mirror" "${packages[@]}" ${aptopt:+"$aptopt"} | sha256sum | cut -c1-12)

build_root() { # DIR
	local tmp=$1 log=$1.log got t0=$SECONDS
	echo "root.sh: building a Debian $suite root for Slurm $series (2 to 4 minutes here: Slurm, the build tools, the runtimes of gov_runtimes.sh, the .deb tools)" >&2
	debian_root "$suite" "$tmp" "$log" -- "${packages[@]}" || die "no $suite root"
	# 24.11's sinfo --version wants a configuration: ask dpkg.
	got=$(chroot "$tmp" dpkg-query -W -f='${Version}' slurm-client 2>/dev/null) || got=
	[[ $got == "$series."* ]] ||
		die "the $suite root has '$got', not Slurm $series; update the series table in $0"
	# Daemons must not start from the root's own init scripts, and no key is
	# shared: the test cluster makes its own.
	rm -f "$tmp/etc/munge/munge.key"
	printf 'series=%s\nsuite=%s\nkey=%s\nslurm=%s\n' "$series" "$suite" "$key" "$got" >"$tmp/.complete"
	rm -f "$log"
	echo "root.sh: built the $suite root for Slurm $series in $((SECONDS - t0)) s" >&2
}

cached_root "$cache" "slurm-$series" "$key" build_root
