#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (how srun --async launches a step); left out of the TCG guest for time
# Slurm 26.05's `srun --async` submits a step to the job's step manager
# (`salloc --stepmgr`, which needs PrologFlags=contain) and returns once the
# controller accepts it, without waiting for the step or running its own
# side of the step's life.  srun's init_post_opt still runs, and so does
# slurmstepd's side: an async step with --governor is governed like any
# other, its task's descriptor verifies, and --governor=runtimes sizes its
# runtimes.  22.05 and 24.11 have no --async.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

if [[ $(by_series 22.05=no 24.11=no 26.05=yes) == no ]]; then
	echo "Slurm $(slurm_series) has no srun --async (26.05 does)"
	exit 0
fi
restart_cluster --conf-line PrologFlags=contain
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
gov_plugstack
# (No EXIT trap of its own: restart_cluster's brings the cluster back.)
out=$(as_user mktemp -d /var/tmp/gov-async.XXXXXX)

# async MODE: one async step of one task in a stepmgr allocation; the task
# writes what it sees into $out/MODE, which the allocation waits for.
async() {
	# shellcheck disable=SC2016 # expanded by the allocation's shell and the task
	as_user salloc --stepmgr -n1 -c1 --mem=200M bash -c '
		srun --async --governor="$1" -n1 -c1 --mem=200M bash -c \
			"{ \"\$0\" verify --json | jq -r .status; echo \"\${OMP_NUM_THREADS:-unset}\"; } >\"\$1.tmp\" && mv \"\$1.tmp\" \"\$1\"" \
			"$2" "$3/$1" >/dev/null || exit 1
		for ((i = 0; i < 300; i++)); do [[ -f $3/$1 ]] && exit 0; sleep 0.2; done
		echo "the async step wrote nothing in 60 s" >&2; exit 1' _ "$1" "$GOV_TOOL" "$out"
	cat "$out/$1"
}

got=$(async batch)
printf -- '--- srun --async --governor: %s\n' "$(tr '\n' ' ' <<<"$got")"
assert_eq "verified unset" "$(tr '\n' ' ' <<<"$got" | sed 's/ $//')" "an async step's descriptor, and no runtime variables"
got=$(async runtimes)
printf -- '--- srun --async --governor=runtimes: %s\n' "$(tr '\n' ' ' <<<"$got")"
assert_eq "verified 1" "$(tr '\n' ' ' <<<"$got" | sed 's/ $//')" "an async step with --governor=runtimes"
rm -rf "$out"
assert_idle
