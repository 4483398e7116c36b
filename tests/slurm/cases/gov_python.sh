#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the Python binding's verified snapshot; page_cache runs the binding on v2); left out of the TCG guest for time
# The Python binding inside a real governed step: the snapshot it reads is
# verified from the sealed descriptor, and its plan follows the allocation.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

command -v python3 >/dev/null || die "no python3 (apt-get install python3)"
gov_plugstack
py=$(gov_python_copy)

# shellcheck disable=SC2016 # python source, expanded in the task
script='
import governor
s = governor.snapshot()
p = governor.plan(workers=1)
print(s.descriptor.status, s.scheduler.source, s.cpu.scheduler.cpus,
      s.memory.scheduler.limit_bytes, s.enforcement.memory, p.workers, p.threads_per_worker)
'
out=$(as_user srun --governor -n1 -c2 --mem=150M \
	env PYTHONPATH="$py" GOVERNOR_LIBRARY="$py/libgovernor.so" python3 -c "$script")
printf '%s\n' "$out"
assert_eq "verified descriptor 2 $((150 << 20)) enforced 1 2" "$out" "the binding's view of a governed step"
