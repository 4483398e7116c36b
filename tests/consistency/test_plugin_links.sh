#!/usr/bin/env bash
# governor.so is built from spank/ and core/ alone: it needs neither hwloc
# (login nodes load it without; topology comes through dlopen) nor
# libgovernor, leaves no project symbol to be found elsewhere, and exports
# only what its version script names (slurm_spank_*, plugin_*,
# spank_plugin_version).
# usage: test_plugin_links.sh GOVERNOR.so
set -euo pipefail
so=$1
status=0
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
if [[ $needed == *hwloc* || $needed == *libgovernor* ]]; then
	echo "not ok - governor.so needs: $needed"
	status=1
fi
undefined=$(nm -u "$so" | awk '{ print $2 }' | grep -E '^(gov_|hwloc_)' || true)
if [ -n "$undefined" ]; then
	echo "not ok - governor.so leaves project or hwloc symbols undefined (a runtime/ file in the plugin?):"
	echo "$undefined"
	status=1
fi
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ { sub(/@.*/, "", $3); print $3 }' |
	grep -vE '^(slurm_spank_|plugin_|spank_plugin_version$)' || true)
if [ -n "$exported" ]; then
	echo "not ok - governor.so exports more than its version script names:"
	echo "$exported"
	status=1
fi
if ! nm -D --defined-only "$so" | grep -qw slurm_spank_init; then
	echo "not ok - governor.so does not export slurm_spank_init"
	status=1
fi
[ "$status" = 0 ] && echo "ok - governor.so: core only, no hwloc, exports what Slurm looks up"
exit "$status"
