# shellcheck shell=bash
# Helpers for end-to-end cases under tests/slurm/cases/. A case sources this
# file, runs as root with the cluster's variables (SLURM_CONF, GOV_*) set by
# run.sh, and exits 0 (pass), 77 (skip) or anything else (fail).

GOV_SLURM_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The one assertion library (tests/lib/assert.sh): the first failed check
# fails the case (die), a skip ends it with 77; assert_eq EXPECTED ACTUAL
# [WHAT], assert_match, assert_no_match, assert_line, assert_status.
GOV_ASSERT_FATAL=1
# shellcheck source=../lib/assert.sh
source "$GOV_SLURM_TESTS/../lib/assert.sh"
# shellcheck source=nodes.sh
source "$GOV_SLURM_TESTS/nodes.sh"

# as_user CMD...: runs CMD as the unprivileged test user, in its home.
as_user() {
	"$GOV_SLURM_TESTS/as_user.sh" "$@"
}

# The test user's home, where jobs write their output files.
user_home() {
	getent passwd "${GOV_TEST_USER:-govtest}" | cut -d: -f6
}

# job_state JOBID: Slurm's state word (PENDING, RUNNING, COMPLETED, FAILED...).
job_state() {
	scontrol show job "$1" 2>/dev/null | sed -n 's/^ *JobState=\([A-Z_]*\).*/\1/p'
}

# wait_job JOBID [SECONDS]: waits for the job to end and prints its final state.
wait_job() {
	local id=$1 limit=${2:-120} state deadline
	deadline=$((SECONDS + limit))
	while ((SECONDS < deadline)); do
		state=$(job_state "$id")
		case $state in
		PENDING | RUNNING | CONFIGURING | COMPLETING | SUSPENDED | '') sleep 0.2 ;;
		*) printf '%s\n' "$state"; return 0 ;;
		esac
	done
	die "job $id still ${state:-unknown} after ${limit}s"
}

# slurm_series: the running cluster's Slurm release series, e.g. 22.05,
# 24.11 or 26.05 (scontrol version: "slurm 24.11.5", Debian's "slurm-wlm
# 22.05.8" and "slurm-wlm 26.05.5").
slurm_series() {
	local v
	v=$(scontrol version 2>/dev/null) || die "scontrol version does not answer"
	[[ $v =~ ([0-9]+\.[0-9]+)\.[0-9]+ ]] || die "no Slurm version in '$v'"
	printf '%s\n' "${BASH_REMATCH[1]}"
}

# by_series SERIES=VALUE...: prints the VALUE given for the running series.
# A case states what each series really does; a series it has no answer
# for fails the case (never a skip), so a new series gets looked at.
by_series() {
	local have
	have=$(slurm_series)
	_pick "Slurm $have" "$have" "$@"
}

# _pick WHAT HAVE KEY=VALUE...: the VALUE whose KEY is HAVE.
_pick() {
	local what=$1 have=$2 arg
	shift 2
	for arg; do
		[[ ${arg%%=*} == "$have" ]] && { printf '%s\n' "${arg#*=}"; return 0; }
	done
	die "no expectation for $what here (have: ${*%%=*}); observe it and add one"
}

# v2_job_dir: the regular expression of a job's cgroup/v2 directory name:
# job_N until 26.05, which names it after the job's SLUID ('s' and 13
# characters of Crockford's base32) unless CgroupJobIdPaths=yes
# (cases/cgroup_paths.sh).  cgroup/v1's directories keep the job id.
v2_job_dir() {
	by_series 22.05='job_[0-9]+' 24.11='job_[0-9]+' 26.05='s[0-9A-Z]{13}'
}

# cgroup_mode: the cluster's cgroup plugin, v1 or v2 (run.sh --cgroup).
cgroup_mode() {
	printf '%s\n' "${GOV_CGROUP:-v1}"
}

# by_mode v1=VALUE v2=VALUE: the VALUE for the cluster's cgroup mode; like
# by_series, a mode it has no answer for fails the case.
by_mode() {
	_pick "cgroup $(cgroup_mode)" "$(cgroup_mode)" "$@"
}

# cgroup2_mount: where the unified (v2) hierarchy is mounted.
cgroup2_mount() {
	awk '{ for (s = 7; s <= NF && $s != "-"; s++) ; if ($(s + 1) == "cgroup2") { print $5; exit } }' \
		/proc/self/mountinfo
}

# set_plugstack LINE...: replaces plugstack.conf for the rest of this case
# (read by srun/sbatch and by each new slurmstepd); run.sh restores it.
set_plugstack() {
	printf '%s\n' "$@" >"$GOV_CLUSTER_DIR/etc/plugstack.conf"
}

# restart_cluster OPTION...: restarts the cluster with this run's options
# plus OPTION... (cluster.sh start options, e.g. --task-plugin task/affinity)
# for the rest of the case. When the case exits, the run's configuration
# comes back, so the next case starts as usual. Copy tools with user_copy
# after it (a start wipes the cluster's bin/).
restart_cluster() {
	local -a base
	eval "base=(${GOV_CLUSTER_START_ARGS:?restart_cluster needs run.sh})"
	trap _restore_cluster EXIT
	trap 'exit 143' TERM
	"$GOV_SLURM_TESTS/cluster.sh" start "${base[@]}" "$@" || die "the cluster did not restart with: $*"
}

_restore_cluster() {
	local rc=$?
	local -a base
	eval "base=($GOV_CLUSTER_START_ARGS)"
	if "$GOV_SLURM_TESTS/cluster.sh" start "${base[@]}"; then
		# start made a fresh run/: keep run.sh's copy of plugstack.conf.
		cp "$GOV_CLUSTER_DIR/etc/plugstack.conf" "$GOV_CLUSTER_DIR/run/plugstack.conf.orig"
	else
		die "the cluster did not come back with this run's options"
	fi
	exit "$rc"
}

# user_copy FILE: copies FILE (a built tool, a script) where the test user can
# run it, whatever the permissions of the build tree; prints the new path.
user_copy() {
	mkdir -p "$GOV_CLUSTER_DIR/bin"
	chmod 755 "$GOV_CLUSTER_DIR/bin"
	install -m 755 "$1" "$GOV_CLUSTER_DIR/bin/" && printf '%s\n' "$GOV_CLUSTER_DIR/bin/$(basename "$1")"
}

# need_plugin: skips the case when run.sh was given no governor.so.
need_plugin() {
	[[ -n ${GOV_PLUGIN:-} ]] || skip "no governor.so in the build directory"
}

# cgroup_mount CONTROLLER: where the v1 hierarchy of CONTROLLER is mounted.
cgroup_mount() {
	awk -v c="$1" '{
		for (s = 7; s <= NF && $s != "-"; s++) ;
		if ($(s + 1) != "cgroup") next
		n = split($(s + 3), o, ",")
		for (i = 1; i <= n; i++) if (o[i] == c) { print $5; exit }
	}' \
		/proc/self/mountinfo
}

# json_get PATH: prints the value at PATH (".a.b") of the JSON object on
# stdin; null prints "null", strings print bare.
json_get() {
	python3 -c '
import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1].strip(".").split("."):
    v = v[k]
print("null" if v is None else str(v).lower() if isinstance(v, bool) else v)
' "$1"
}

# doctor_finding JSON ID FIELD: FIELD of the finding ID in `governor doctor
# --json` output; "absent" when there is no such finding, "null" for null.
doctor_finding() {
	python3 -c '
import json, sys
found = [f for f in json.loads(sys.argv[1])["findings"] if f["id"] == sys.argv[2]]
v = found[0][sys.argv[3]] if found else "absent"
print("null" if v is None else v)
' "$1" "$2" "$3"
}
