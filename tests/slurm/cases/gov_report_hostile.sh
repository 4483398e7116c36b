#!/usr/bin/env bash
# covers: v1
# v2: the nested-cgroup part is v1's (v2 counts a kill in every ancestor's memory.events, and Slurm delegates no v2 subtree to users); the rest is cgroup-independent, left out of the TCG guest for time
# What a user (and a careless admin's tool) can do to the step report, end
# to end (issue 35, items 2 to 4): a GPU count the user exports where Slurm
# manages no gres/gpu is not root's record (budget.gpus null); an OOM kill
# in a cgroup the user made below her task counts in the step's oom_kills
# (v1 counts a kill only in the victim's own cgroup; only 22.05 gives the
# user her task's cgroup); records whose figures
# the reader accepts at their extremes, and one it refuses, cost only
# themselves: `governor report --json` (and --by user) stay one valid JSON
# document with every other step in it.
set -euo pipefail
# shellcheck source=../report_lib.sh
source "$(dirname "$0")/../report_lib.sh"

report_plugstack
mark=$(log_mark)
py() { python3 -c "import json, sys; d = json.load(sys.stdin); $1"; }

echo "== a GPU count the user exported, on nodes without gres/gpu"
as_user env SLURM_GPUS_ON_NODE=64 srun --governor -n1 --mem=100M \
	bash -c 'echo "exported: $SLURM_GPUS_ON_NODE" >&2; exec "$0" 0 0' "$REPORT_TASK" >"$REPORT_TASKS"
wait_records 1
gpus=$(report_of "$(job_of "$REPORT_TASKS")" | py 'print(d["steps"][0]["nodes"][0]["budget"]["gpus"])')
assert_eq None "$gpus" "budget.gpus of a step whose user exported SLURM_GPUS_ON_NODE=64"

echo "== an OOM kill in a cgroup the user made below her task"
# The task moves itself into a memory cgroup of its own below task_0; the
# 300 MiB it then writes under --mem=100M is killed there, and the shell
# goes on, so the step itself ends well.  Slurm 22.05's cgroup/v1 gives
# the user her task's cgroup; later series keep it root's, and there is
# nothing to nest: the task says so, and that is checked instead.
# shellcheck disable=SC2016 # expanded in the task
as_user srun --governor -n1 --mem=100M bash -c '
cg=/sys/fs/cgroup/memory$(sed -n "s/^[0-9]*:memory://p" /proc/self/cgroup)
echo "{\"job\": \"$SLURM_JOB_ID\", \"node\": \"-\"}"
if ! mkdir "$cg/mine" 2>/dev/null; then echo "no cgroup of her own: $(stat -c %U "$cg")"; exit 0; fi
echo $$ >"$cg/mine/cgroup.procs" || exit 3
python3 -c "b = b\"x\" * (300 << 20)" || echo "killed in $(sed -n "s/^[0-9]*:memory://p" /proc/self/cgroup)" >&2
' >"$REPORT_TASKS"
wait_records 2
rec=$(report_of "$(job_of "$REPORT_TASKS")")
if grep -q "^no cgroup of her own" "$REPORT_TASKS"; then
	echo "this Slurm keeps the task's memory cgroup root's ($(grep -o 'own: .*' "$REPORT_TASKS")): nothing to nest"
	assert_eq "root 0" "$(grep -o 'own: .*' "$REPORT_TASKS" | cut -d' ' -f2) $(py 'print(d["steps"][0]["nodes"][0]["used"]["oom_kills"])' <<<"$rec")" \
		"a task cgroup of root's and no kill"
else
	assert_eq "1 ['oom_killed']" "$(py 'n = d["steps"][0]["nodes"][0]
print(n["used"]["oom_kills"], [f for f in n["findings"] if f == "oom_killed"])' <<<"$rec")" \
		"the step's OOM kills, one in a cgroup below its task"
fi

echo "== records at the reader's extremes, and one it refuses"
# As an admin's own tool might append them: figures the reader accepts at
# their largest and smallest, then a number past its range.
cp "$REPORT_FILE" "$REPORT_DIR/crafted.jsonl"
line=$(head -n1 "$REPORT_FILE")
python3 - "$line" >>"$REPORT_DIR/crafted.jsonl" <<'EOF'
import json, sys
r = json.loads(sys.argv[1])
r["job"], r["elapsed_s"], r["used"]["cpu_s"] = 999999, 1e-300, 1e15
print(json.dumps(r))
r["job"], r["elapsed_s"], r["used"]["cpu_s"] = 999998, 1e15, 0
r["used"]["memory_peak_bytes"] = 18446744073709551614
print(json.dumps(r))
r["job"], r["used"]["cpu_s"] = 999997, 1e308
print(json.dumps(r))
EOF
err=$("$GOV_BUILD_DIR/tool/governor" report --json "$REPORT_DIR/crafted.jsonl" 2>&1 >"$REPORT_DIR/out.json")
assert_eq "4 False True True" "$(py 'j = [s["job"] for s in d["steps"]]
print(len(j), 999997 in j, 999998 in j, 999999 in j)' <"$REPORT_DIR/out.json")" \
	"--json: every step but the refused one"
assert_match "crafted.jsonl:5: skipped: not a step record" "$err" "the refused line, named"
"$GOV_BUILD_DIR/tool/governor" report --by user --json "$REPORT_DIR/crafted.jsonl" 2>/dev/null |
	py 'assert len(d["users"]) == 1, d' || die "--by user --json on the crafted records"
"$GOV_BUILD_DIR/tool/governor" report "$REPORT_DIR/crafted.jsonl" >/dev/null 2>&1 ||
	die "the table of the crafted records"

assert_no_match 'governor: ' "$(log_since "$mark")" "slurmd's logs"
rm -rf "$REPORT_DIR"
assert_no_drain
