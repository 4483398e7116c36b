#!/usr/bin/env bash
# hwloc's own Linux test machines (tests/hwloc/linux/*.tar.bz2 in the
# source of the hwloc this machine runs, Debian's hwloc source package), all
# of them read by `governor snapshot --sysroot` and checked by
# test_hwloc_trees.sh against hwloc's tools and the trees' sysfs.
#   hwloc_machines.sh BUILD
# The source package is fetched once into $GOV_HWLOC_CACHE (default
# /var/cache/slurm-governor/hwloc-source) with apt's own lists kept apart, so
# the system's package lists are left alone.  Prints test_hwloc_trees.sh's TAP.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: hwloc_machines.sh BUILD (a meson build directory)}
cache=${GOV_HWLOC_CACHE:-/var/cache/slurm-governor/hwloc-source}
version=$(dpkg-query -W -f='${source:Version}' libhwloc15)
dir=$cache/$version

if [ ! -d "$dir/src/tests/hwloc/linux" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	# deb-src for the suites this machine's own sources name.
	sed -n 's/^Types: deb$/Types: deb-src/p; /^URIs:\|^Suites:\|^Components:\|^Signed-By:\|^$/p' \
		/etc/apt/sources.list.d/debian.sources >"$dir/sources.list.sources"
	apt=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$dir"
	     -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache")
	apt-get "${apt[@]}" update -qq
	(cd "$dir" && apt-get "${apt[@]}" source --download-only -qq "hwloc=$version" &&
		dpkg-source -x ./*.dsc src >/dev/null)
fi
echo "hwloc_machines: $(ls "$dir"/src/tests/hwloc/linux/*.tar.bz2 | wc -l) machines of hwloc $version"
bash "$here/test_hwloc_trees.sh" --governor "$build/tool/governor" "$dir/src/tests/hwloc/linux"
