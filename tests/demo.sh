#!/usr/bin/env bash
# README's first command: install what is needed, build, start a throwaway
# local Slurm cluster (3 emulated nodes on loopback) with the fresh
# governor.so, and run a real `srun --governor` step as a non-root user that
# prints what the governor sees in each task.  The cluster is stopped after.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
cd "$src"
build=${GOV_DEMO_BUILD:-$src/build-demo}

bash tests/install-deps.sh
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
meson compile -C "$build" >/dev/null
plugin=$build/spank/governor.so
[ -f "$plugin" ] || { echo "demo: $plugin was not built (is slurm/spank.h installed?)"; exit 1; }

cluster=tests/slurm/cluster.sh
trap 'bash "$cluster" stop >/dev/null 2>&1 || true' EXIT
bash "$cluster" start --plugin "$plugin" >/dev/null
eval "$(bash "$cluster" env)"
gov_dir=$GOV_CLUSTER_DIR/bin
mkdir -p "$gov_dir" && chmod 755 "$gov_dir"
install -m 755 "$build/tool/governor" "$gov_dir/governor"

echo "\$ srun --governor -N2 -n3 -c1 --mem=200M governor snapshot   (as a non-root user)"
# Each task writes its own view; they are printed in task order.
bash tests/slurm/as_user.sh bash -c '
	out=$(mktemp -d) && chmod 755 "$out"
	srun --governor -N2 -n3 -c1 --mem=200M bash -c "\"$1\" snapshot >$out/task.\$SLURM_PROCID 2>&1"
	for f in "$out"/task.*; do printf "\n=== task %s\n" "${f##*.}"; cat "$f"; done
	rm -rf "$out"' _ "$gov_dir/governor"
