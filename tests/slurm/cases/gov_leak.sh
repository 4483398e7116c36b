#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the seal's uid restriction); left out of the TCG guest for time
# A descriptor that leaks (a log, a core file, /proc/PID/environ read by a
# root tool) tells nobody but the job's user anything: the seal is
# restricted to that uid, so root and other users cannot decode it.  The
# task itself, and a TaskProlog (which Slurm runs as the job's user inside
# the task), still verify it.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

home=$(user_home)
prolog=$GOV_CLUSTER_DIR/gov_leak_prolog.sh
rm -f "$home/gov_leak.cred" "$home/gov_leak.prolog"
# The TaskProlog records what `governor verify` says there.
printf '%s\n' '#!/bin/sh' '"$GOV_TOOL" verify --json | jq -r .status >"$HOME/gov_leak.prolog"' >"$prolog"
chmod 755 "$prolog"
restart_cluster --conf-line "TaskProlog=$prolog"
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
export GOV_TOOL
gov_plugstack

# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun --governor -n1 bash -c 'printf "%s" "$GOVERNOR_DESCRIPTOR" >gov_leak.cred; "$GOV_TOOL" verify --json | jq -r .status')
assert_eq verified "$out" "the task verifies its descriptor"
assert_eq verified "$(cat "$home/gov_leak.prolog")" "the TaskProlog verifies it"

cred=$(cat "$home/gov_leak.cred")
rc=0
out=$(unmunge -S "$GOV_MUNGE_SOCKET" <<<"$cred" 2>&1) || rc=$?
printf 'root: %s\n' "$out"
((rc != 0)) || die "root decoded another user's descriptor"
assert_match 'Unauthorized credential' "$out" "root's unmunge"
rc=0
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups unmunge -S "$GOV_MUNGE_SOCKET" <<<"$cred" 2>&1) || rc=$?
printf 'nobody: %s\n' "$out"
((rc != 0)) || die "another user decoded the descriptor"
assert_match 'Unauthorized credential' "$out" "another user's unmunge"
