#!/usr/bin/env bash
# governor.so is built from spank/ and core/ alone: it needs neither hwloc
# (login nodes load it without; topology comes through dlopen) nor
# libgovernor, leaves no project symbol to be found elsewhere, and exports
# only what its version script names (slurm_spank_*, plugin_*,
# spank_plugin_version).
# usage: test_plugin_links.sh GOVERNOR.so
set -euo pipefail
so=$1
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
if [[ $needed == *hwloc* || $needed == *libgovernor* ]]; then
	fail "governor.so needs neither hwloc nor libgovernor" "it needs: $needed"
else
	pass "governor.so needs neither hwloc nor libgovernor"
fi
undefined=$(nm -u "$so" | awk '{ print $2 }' | grep -E '^(gov_|hwloc_)' || true)
check "governor.so leaves no project or hwloc symbol undefined (a runtime/ file in the plugin?)" \
	"" "$undefined"
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ { sub(/@.*/, "", $3); print $3 }' |
	grep -vE '^(slurm_spank_|plugin_|spank_plugin_version$)' || true)
check "governor.so exports no more than its version script names" "" "$exported"
if nm -D --defined-only "$so" | grep -qw slurm_spank_init; then
	pass "governor.so exports slurm_spank_init"
else
	fail "governor.so exports slurm_spank_init"
fi
finish
