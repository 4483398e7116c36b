#!/usr/bin/env bash
# Builds the project in DIR against the Slurm installed where it runs (the
# host's, or a root's inside chroot.sh), warnings as errors: configures DIR
# when it is new, then compiles. A plugin loads only into the Slurm series
# whose spank.h it was built with, so DIR records that series and a DIR
# configured for another one is refused rather than half rebuilt.
#   build.sh DIR
set -euo pipefail

[[ $# -eq 1 && $1 != -* ]] || { sed -n '2,7p' "$0" >&2; exit 2; }
src=$(cd "$(dirname "$0")/../.." && pwd)
dir=$1
# shellcheck source=../lib/die.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/die.sh"

header=/usr/include/slurm/slurm_version.h
[[ -f $header ]] || die "no $header: install libslurm-dev"
number=$(sed -n 's/^#define SLURM_VERSION_NUMBER \(0x[0-9a-fA-F]*\).*/\1/p' "$header")
[[ -n $number ]] || die "no SLURM_VERSION_NUMBER in $header"
series=$((number >> 16)).$(printf '%02d' $(((number >> 8) & 0xff)))

mark=$dir/slurm-series
if [[ -e $dir/meson-info ]]; then
	[[ -f $mark ]] || die "'$dir' was configured elsewhere; give Slurm $series a build directory of its own"
	[[ $(<"$mark") == "$series" ]] ||
		die "'$dir' is built for Slurm $(<"$mark"), this is $series; give each series a build directory of its own"
else
	# Emptied, not removed: inside a root it is a bind mount (run.sh --slurm).
	mkdir -p "$dir"
	find "$dir" -mindepth 1 -delete
	meson setup "$dir" "$src" -Dwerror=true >"$dir/setup.log" 2>&1 ||
		{ tail -n 30 "$dir/setup.log" >&2; die "meson setup failed (log: $dir/setup.log)"; }
	printf '%s\n' "$series" >"$mark"
fi
meson compile -C "$dir" >"$dir/compile.log" 2>&1 ||
	{ tail -n 40 "$dir/compile.log" >&2; die "the build failed against Slurm $series (log: $dir/compile.log)"; }
[[ -f $dir/spank/governor.so ]] || die "no governor.so was built: meson found no usable slurm/spank.h"
echo "build.sh: built against Slurm $series in $dir"
