#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the report file's handling); left out of the TCG guest for time
# The step report's file under faults (issue 25): steps ending at once on
# every node append whole records, none lost or interleaved; a report
# directory a user can write, a report file that is a link, and a full
# disk each cost one line in slurmd's log and nothing else: the step
# succeeds, nothing is written through the link, no partial line is left,
# no node drains.
set -euo pipefail
# shellcheck source=../report_lib.sh
source "$(dirname "$0")/../report_lib.sh"

report_plugstack
governor=$GOV_BUILD_DIR/tool/governor

echo "== concurrent steps"
pids=()
for i in $(seq 1 6); do
	as_user srun --governor -n1 -c1 --mem=50M "$REPORT_TASK" 0.2 0 >/dev/null &
	pids+=($!)
done
as_user srun --governor -N3 -n6 --mem=50M "$REPORT_TASK" 0.2 0 >/dev/null
for p in "${pids[@]}"; do wait "$p" || die "a concurrent step failed"; done
wait_records 9
assert_eq 9 "$(record_count)" "six one-node steps and a three-node step: nine records"
err=$("$governor" report --json "$REPORT_FILE" 2>&1 >/dev/null)
assert_eq '' "$err" "every line is a whole record"
steps=$("$governor" report --json "$REPORT_FILE" | python3 -c 'import json, sys
s = json.load(sys.stdin)["steps"]
print(len(s), sorted(len(x["nodes"]) for x in s))')
assert_eq '7 [1, 1, 1, 1, 1, 1, 3]' "$steps" "seven steps, one of them on three nodes"

# fault_step WHAT PATTERN: a governed step succeeds and slurmd's log has
# PATTERN once.
fault_step() {
	local mark log
	mark=$(log_mark)
	as_user srun --governor -n1 true || die "$1: the step failed"
	local deadline=$((SECONDS + 60))
	until log=$(log_since "$mark") && grep -q 'governor: no step report' <<<"$log" || ((SECONDS >= deadline)); do
		sleep 0.2
	done
	printf '%s: %s\n' "$1" "$(grep 'governor:' <<<"$log")"
	assert_match "governor: no step report for this step: $2" "$log" "$1: slurmd's log"
}

echo "== a directory the user can write"
rm -rf "$REPORT_DIR" && mkdir -m 755 "$REPORT_DIR" && chown "${GOV_TEST_USER:-govtest}" "$REPORT_DIR"
fault_step "user's directory" "the directory is writable by others or not root's"
assert_eq 0 "$(record_count)" "no record in the user's directory"

echo "== the file is a link"
rm -rf "$REPORT_DIR" && mkdir -m 755 "$REPORT_DIR"
target=/var/lib/gov-test-report.target
printf 'keep\n' >"$target"
ln -s "$target" "$REPORT_FILE"
fault_step "link" "the report file is a link"
assert_eq keep "$(cat "$target")" "nothing written through the link"
rm -f "$target"

echo "== a full disk"
rm -rf "$REPORT_DIR" && mkdir -m 755 "$REPORT_DIR"
mount -t tmpfs -o size=16k,mode=0755 gov-test-report "$REPORT_DIR" || die "cannot mount a small tmpfs (root is needed)"
trap 'umount "$REPORT_DIR" 2>/dev/null; rm -rf "$REPORT_DIR"' EXIT
dd if=/dev/zero of="$REPORT_DIR/filler" bs=1k count=64 2>/dev/null || true
fault_step "full disk" "the report file's disk is full"
assert_eq 0 "$(stat -c %s "$REPORT_FILE" 2>/dev/null || echo 0)" "no partial record"
rm -f "$REPORT_DIR/filler"
as_user srun --governor -n1 true
wait_records 1
"$governor" report "$REPORT_FILE" >/dev/null || die "the record after the disk had room again"

assert_no_drain
assert_next_step_works
