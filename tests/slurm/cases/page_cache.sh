#!/usr/bin/env bash
# covers: v1 v2
# Memory truth under real I/O (issue 8): a --mem=300M task reads 1.5 times
# its limit from a disk filesystem, so its cgroups fill with clean page
# cache.  The kernel reclaims that cache before it would
# OOM-kill, so "remaining" is the limit minus the working set: the snapshot
# agrees with what the task computes from its own cgroup files, the governor
# stays green, and the Python governor admits a batch of that size.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

# The memory cgroup files by mode: the v1 hierarchy's, or v2's (where an
# unlimited level says "max", and a level without the controller has none).
# shellcheck disable=SC2016 # evaluated in the task
if [[ $(cgroup_mode) == v1 ]]; then
	mnt=$(cgroup_mount memory)
	[[ -n $mnt ]] || die "no cgroup v1 memory hierarchy, yet the cluster runs cgroup/v1"
	files='own=$(sed -n "s/^[0-9]*:memory://p" /proc/self/cgroup) f_max=memory.limit_in_bytes f_use=memory.usage_in_bytes f_ina=total_inactive_file'
else
	mnt=$(cgroup2_mount)
	files='own=$(sed -n "s/^0:://p" /proc/self/cgroup) f_max=memory.max f_use=memory.current f_ina=inactive_file'
fi
command -v jq >/dev/null || die "no jq (apt-get install jq; tests/install-deps.sh does)"
gov_plugstack
py=$(gov_python_copy)

# In the task: the I/O, then one line per figure.  limit - (usage -
# total_inactive_file) is computed for every limited level of the task's
# memory cgroup chain, and the least is kept, as the snapshot's rule says.
# shellcheck disable=SC2016 # expanded in the task
script='
set -eu
fs=$(stat -f -c %T "$HOME")
echo "fs $fs"
f=$HOME/page-cache.data
cat "$f" >/dev/null
eval "$FILES"
raw= ws=
d=$own
while [ -n "$d" ]; do
	lim=$(cat "$MNT$d/$f_max" 2>/dev/null || echo max)
	if [ "$lim" != max ] && [ "$lim" -lt 4611686018427387904 ]; then
		use=$(cat "$MNT$d/$f_use")
		ina=$(sed -n "s/^$f_ina //p" "$MNT$d/memory.stat")
		r=$((lim - use)); w=$((lim - (use - ina)))
		if [ -z "$raw" ] || [ "$r" -lt "$raw" ]; then raw=$r; fi
		if [ -z "$ws" ] || [ "$w" -lt "$ws" ]; then ws=$w; fi
	fi
	d=${d%/*}
done
echo "own_raw $raw"
echo "own_ws $ws"
"$GOV_TOOL" snapshot --json >"$f.json"
echo "snap $(jq -c "[.descriptor.status, .memory.cgroup.remaining_bytes, .memory.cgroup.working_set_bytes, .memory.cgroup.current_bytes, .memory.effective.remaining_bytes, .policy.profile]" "$f.json")"
echo "watch $("$GOV_TOOL" watch --json --count 1 | jq -c "[.pressure, .profile]")"
PYTHONPATH=$PY GOVERNOR_LIBRARY=$PY/libgovernor.so python3 -c "
import governor
# A snapshot older than 1 s is stale (WAIT): a machine that stalled between
# capture and decision takes a fresh one.
with governor.Context() as ctx, governor.Governor(ctx) as g:
    for _ in range(10):
        snap = ctx.snapshot()
        free = g.availability(snap).ram_bytes
        d = g.decide(governor.Estimate(fixed_bytes=free), snap)
        if d.reason.name != \"STALE_SNAPSHOT\":
            break
    print(\"python\", free, d.verdict.name, d.reason.name, d.ram_needed_bytes,
          d.ram_free_bytes, g.pressure(snap).level.name)
"
rm -f "$f.json"
'
# The file is written before the step, outside its limit, and its cache
# dropped: the step reads every page once, and only once-read pages stay
# inactive.  Written inside the step, the write's evictions leave shadow
# entries, the read back is then refaults, and the kernel activates as
# many of those as it judges hot (seen under a busy disk: 186 MiB active,
# rightly counted as working set, and the case no longer shows cache).
# Zeros: ext4 stores every block all the same, and they cost an emulated
# guest nothing to make.
data=$(user_home)/page-cache.data
trap 'rm -f "$data"' EXIT
as_user dd if=/dev/zero of="$data" bs=1M count=450 conv=fsync status=none
as_user dd if="$data" iflag=nocache count=0 status=none
out=$(as_user env MNT="$mnt" FILES="$files" PY="$py" srun --governor -n1 -c1 --mem=300M bash -c "$script")
printf '%s\n' "$out"
get() { sed -n "s/^$1 //p" <<<"$out"; }

assert_no_match '^(tmpfs|ramfs)$' "$(get fs)" "the test file's filesystem (tmpfs pages are shmem, never reclaimable)"
raw=$(get own_raw) ws=$(get own_ws)
# The case is only meaningful when the cache filled the cgroups: limit minus
# raw usage is then a few MiB, limit minus the working set most of 300 MiB.
((raw < 40 << 20)) || die "limit minus raw usage is $raw: the page cache did not fill the step"
((ws > 250 << 20)) || die "limit minus working set is only $ws"

read -r status remaining wset current effective profile < <(get snap | jq -r '@tsv')
assert_eq verified "$status" "descriptor"
assert_eq batch "$profile" "default profile in an allocation"
diff=$((remaining > ws ? remaining - ws : ws - remaining))
((diff < 4 << 20)) ||
	die "snapshot remaining $remaining differs from the task's own $ws by $diff bytes"
((effective <= remaining && effective > 250 << 20)) ||
	die "effective remaining $effective (cgroup remaining $remaining)"
((current - wset > 200 << 20)) || die "usage $current, working set $wset: no cache shown"
assert_eq '["green","batch"]' "$(get watch)" "governor watch"
read -r free verdict reason needed ram_free level < <(get python)
((free > 250 << 20)) || die "the Python governor's free RAM is $free"
# A batch of all that remains fits its RAM.  PSI gates every new admission
# on a busy machine (CPU some avg10 >= 20 %), which is not what this case is
# about: such a WAIT still reports what was needed and what was free.
assert_eq "$free $free GREEN" "$needed $ram_free $level" "the Python governor's view of the batch"
[[ "$verdict $reason" == "ADMIT NONE" || $reason == CPU_PRESSURE || $reason == MEMORY_PRESSURE ]] ||
	die "the Python governor does not admit the remaining: $verdict $reason"
