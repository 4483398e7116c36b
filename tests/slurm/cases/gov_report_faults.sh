#!/usr/bin/env bash
# covers: v1 v2
# The step report's file under faults (issues 25 and 35): steps ending at
# once on every node append whole records, none lost or interleaved; a
# report directory a user can write, a report file that is a link, a file
# users can read (one of them holding its lock), a lock another root
# process holds, and a full disk each cost one line in slurmd's log and
# nothing else: the step succeeds and ends while the lock is held, nothing
# is written through the link, no partial line is left, no node drains.
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

# governed_step_beside_lock WHAT PATTERN: a governed step ends while another
# process holds the report file's lock (a 120 s timeout is the hang guard:
# the holder keeps it for 300 s), and slurmd's log has PATTERN.
governed_step_beside_lock() {
	local mark log rc=0 t0=$SECONDS
	mark=$(log_mark)
	timeout 120 "$GOV_SLURM_TESTS/as_user.sh" srun --governor -n1 true || rc=$?
	((rc != 124)) || die "$1: the governed step hung behind the lock"
	((rc == 0)) || die "$1: the step failed ($rc)"
	printf '%s: the step ended in %s s beside the lock\n' "$1" "$((SECONDS - t0))"
	local deadline=$((SECONDS + 60))
	until log=$(log_since "$mark") && grep -q 'governor: no step report' <<<"$log" || ((SECONDS >= deadline)); do
		sleep 0.2
	done
	assert_match "governor: no step report for this step: $2" "$log" "$1: slurmd's log"
}

echo "== a file users can read, its lock held by a user's job (issue 35)"
# An admin's chmod 644: before, a user's shared lock held the end of every
# governed step on every node that shares the directory.
rm -rf "$REPORT_DIR" && mkdir -m 755 "$REPORT_DIR"
install -m 644 /dev/null "$REPORT_FILE"
held=$GOV_CLUSTER_DIR/report-holder.out
rm -f "$held"
# Whatever happens, no lock outlives the case.
trap 'scancel --quiet --name=report-holder --user="${GOV_TEST_USER:-govtest}"; pkill -f "flock -o -x $REPORT_FILE"' EXIT
GOV_REPORT=$REPORT_FILE as_user srun -n1 -w node1 --job-name=report-holder \
	bash -c 'exec 9<"$GOV_REPORT" && flock -s 9 && echo held && exec sleep 300' >"$held" 2>&1 &
wait_for_line "$held" held
governed_step_beside_lock "readable file" "the report file may be read by others"
assert_eq RUNNING "$(squeue -h --name=report-holder -o %T)" "the user's lock was still held"
assert_eq 0 "$(record_count)" "no record in a file users can read"
scancel --quiet --name=report-holder --user="${GOV_TEST_USER:-govtest}"
wait || true

echo "== the file root's alone, its lock held by another root process"
rm -rf "$REPORT_DIR" && mkdir -m 755 "$REPORT_DIR"
install -m 600 /dev/null "$REPORT_FILE"
rm -f "$held"
flock -o -x "$REPORT_FILE" bash -c "echo held >'$held'; exec sleep 300" &
holder=$!
wait_for_line "$held" held
governed_step_beside_lock "locked file" "the report file stayed locked by another process"
kill -0 "$holder" 2>/dev/null || die "the lock's holder ended before the step did"
assert_eq 0 "$(record_count)" "the record was dropped, not written past the lock"
pkill -P "$holder" sleep || true
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
as_user srun --governor -n1 true
wait_records 1
"$governor" report "$REPORT_FILE" >/dev/null || die "the record once the lock was let go"

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
