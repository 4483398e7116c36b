#!/usr/bin/env bash
# covers: v1
# v2: the decisions are cgroup-independent (governor run's, compared in each task); the v2 cgroup figures they read are checked on v2 by memory_limit and cpuset; left out of the TCG guest for time
# --governor=runtimes (issue 18): each task starts with exactly the
# environment `governor run` would give it in that task, set by the plugin
# with no wrapper.  In every task of several step shapes, `governor run
# --dry-run --json` finds every variable already at its value (env_matches.py:
# every variable, every value); a user's own value is kept; a batch script's
# whole-node figures are replaced in its smaller steps and removed from a
# step without the governor; the site's runtimes=on and =always, and the
# user's noruntimes.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

GOV_CHECK=$(user_copy "$GOV_SLURM_TESTS/env_matches.py")
export GOV_CHECK
# shellcheck disable=SC2016 # expanded in the task
matches='"$GOV_TOOL" run --dry-run --json | python3 "$GOV_CHECK"'
gov_plugstack

for shape in "-n1 -c1 --mem=400M" "-N2 -n3 -c1 --mem=300M" "-n2 -c2 --mem=1000M"; do
	# shellcheck disable=SC2086 # one word per option
	out=$(as_user srun --governor=runtimes $shape bash -c "$matches")
	printf '%s: %s\n' "$shape" "$(tr '\n' ';' <<<"$out")"
	bad=$(grep -v '^matches [0-9]* variables$' <<<"$out" || true)
	[[ -z $bad ]] || die "srun --governor=runtimes $shape: the task's environment is not governor run's:
$bad"
done

# The figures themselves, for one task of 1 CPU and 400 MiB.
# shellcheck disable=SC2016 # expanded in the task
show='echo "${OMP_NUM_THREADS-unset} ${GOMAXPROCS-unset} ${GOMEMLIMIT-unset} ${NODE_OPTIONS-unset} ${GOVERNOR_MEMORY_SHARE-unset}"'
out=$(as_user srun --governor=runtimes -n1 -c1 --mem=400M bash -c "$show")
assert_eq "1 1 360MiB --max-old-space-size=272 --max-semi-space-size=16 419430400" "$out" \
	"the variables of a 1-CPU, 400 MiB task"

# The interactive profile keeps a quarter of the memory back in the task's
# variables as in governor watch (issue 36), and the plugin's figures are
# still governor run's in the task.
out=$(as_user srun --governor=interactive,runtimes -n1 -c1 --mem=400M bash -c "$show; $matches")
printf 'interactive: %s\n' "$(tr '\n' ';' <<<"$out")"
assert_eq "1 1 270MiB --max-old-space-size=172 --max-semi-space-size=16 314572800" \
	"$(head -n1 <<<"$out")" "the variables of an interactive 1-CPU, 400 MiB task"
assert_match '^matches [0-9]+ variables$' "$(tail -n1 <<<"$out")" "interactive: as governor run"
# shellcheck disable=SC2016 # expanded in the task
reserve=$(as_user srun --governor=interactive -n1 -c1 --mem=400M bash -c \
	'"$GOV_TOOL" watch --count 1 --json | jq -r .ram.reserve_bytes; "$GOV_TOOL" plan --json | jq -r .reserve_memory_bytes')
assert_eq "104857600 104857600" "$(tr '\n' ' ' <<<"$reserve" | sed 's/ $//')" "watch and plan keep the same quarter"

# A user's own values are kept, and the rest still matches governor run.
out=$(as_user env OMP_NUM_THREADS=7 NODE_OPTIONS=--max-old-space-size=100 \
	srun --governor=runtimes -n1 -c1 --mem=400M bash -c "$show; $matches")
printf 'user values: %s\n' "$(tr '\n' ';' <<<"$out")"
assert_eq "7 1 360MiB --max-old-space-size=100 --max-semi-space-size=16 419430400" \
	"$(head -n1 <<<"$out")" "the user's OMP_NUM_THREADS and heap size kept"
assert_match '^matches [0-9]+ variables$' "$(tail -n1 <<<"$out")" "the rest as governor run"

# A batch script's figures describe the whole node: its steps replace them
# with their own, and a step without the governor removes them.
home=$(user_home)
rm -f "$home/gov_runtimes_mode.out"
printf '%s\n' '#!/bin/bash' "show() { $show; }" '
echo "batch $(show)"
srun -n1 -c1 --mem=200M bash -c "$(declare -f show); echo \"step \$(show)\""
srun --governor=off -n1 -c1 --mem=200M bash -c "$(declare -f show); echo \"off \$(show)\""
srun --governor=threads -n1 -c1 --mem=200M bash -c "$(declare -f show); echo \"threads \$(show)\""
' >"$home/gov_runtimes_mode.sh"
as_user sbatch --wait --governor=runtimes -N1 -n1 -c2 --mem=600M -o gov_runtimes_mode.out \
	gov_runtimes_mode.sh >/dev/null
out=$(cat "$home/gov_runtimes_mode.out")
printf '%s\n' "$out"
assert_line 'batch 2 2 540MiB --max-old-space-size=450 --max-semi-space-size=16 629145600' "$out" \
	"the batch script: the node's 2 CPUs and 600 MiB"
assert_line 'step 1 1 180MiB --max-old-space-size=72 --max-semi-space-size=12 209715200' "$out" \
	"a step of 1 CPU and 200 MiB: its own figures, in place of the script's"
assert_line 'off unset unset unset unset unset' "$out" "a step without the governor: none of ours"
assert_line 'threads 1 1 unset unset unset' "$out" "--governor=threads: CPU variables only"
assert_idle

# The site makes it the default; a user may decline it (runtimes=on) or
# not (runtimes=always).
gov_plugstack default=on runtimes=on
assert_eq "1 1 360MiB --max-old-space-size=272 --max-semi-space-size=16 419430400" \
	"$(as_user srun -n1 -c1 --mem=400M bash -c "$show")" "runtimes=on: every governed step"
assert_eq "unset unset unset unset unset" \
	"$(as_user srun --governor=noruntimes -n1 -c1 --mem=400M bash -c "$show")" \
	"runtimes=on: --governor=noruntimes declines"
gov_plugstack default=on runtimes=always
rc=0
out=$(as_user srun --governor=noruntimes -n1 true 2>&1) || rc=$?
((rc != 0)) || die "runtimes=always let --governor=noruntimes through"
assert_match 'governor: this site sizes every runtime in every task \(runtimes=always\); drop noruntimes' \
	"$out" "the refusal"
assert_eq "1 1 360MiB --max-old-space-size=272 --max-semi-space-size=16 419430400" \
	"$(as_user srun -n1 -c1 --mem=400M bash -c "$show")" "runtimes=always"
