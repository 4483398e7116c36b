#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the record file's rotation); left out of the TCG guest for time
# The logrotate snippet shipped for the step report (contrib/logrotate),
# run for real, again and again (logrotate -f, its size cap as shipped),
# while governed steps end and the plugin appends their records: every
# record is in exactly one file, whole (each line one record that reads),
# none lost, and every file root's 0600 as the plugin requires, so records
# keep coming after each rotation.  The snippet keeps 12 files; the test
# keeps them all, to count every record.
set -euo pipefail
# shellcheck source=../report_lib.sh
source "$(dirname "$0")/../report_lib.sh"

report_plugstack
mark=$(log_mark)
steps=24
conf=$GOV_CLUSTER_DIR/logrotate.conf
state=$GOV_CLUSTER_DIR/logrotate.state
sed -e "s|/var/log/slurm-governor/steps.jsonl|$REPORT_FILE|" -e 's/rotate 12/rotate 1000/' \
	"$GOV_SRC_DIR/contrib/logrotate/slurm-governor" >"$conf"
chmod 644 "$conf"
grep -q 'maxsize' "$conf" || die "the shipped snippet caps no size"

# Records in every file of the report, compressed or not, one a line.
all_records() {
	local f
	for f in "$REPORT_FILE"*; do
		[[ -e $f ]] || continue
		case $f in *.gz) zcat "$f" ;; *) cat "$f" ;; esac
	done
}

rotations=0
rotate() {
	logrotate -f -s "$state" "$conf" || die "logrotate failed"
	rotations=$((rotations + 1))
}

echo "== $steps steps, four at a time, logrotate rotating the file while they end"
as_user srun --governor -n1 true # the file exists before the first rotation
wait_records 1
for ((i = 0; i < steps; i += 4)); do
	pids=()
	for _ in 1 2 3 4; do
		as_user srun --governor -n1 -c1 true &
		pids+=($!)
	done
	# Once at least while the batch runs, then as long as any of it does.
	rotate
	while kill -0 "${pids[@]}" 2>/dev/null; do
		rotate
		sleep 0.1
	done
	wait "${pids[@]}"
done
# The last records come after their srun returned: rotate until all are in.
deadline=$((SECONDS + 60))
while (($(all_records | wc -l) < steps + 1 && SECONDS < deadline)); do
	rotate
	sleep 0.2
done
echo "logrotate: $rotations rotations"
ls -l "$REPORT_FILE"*
all_records >"$GOV_CLUSTER_DIR/all.jsonl"
assert_eq $((steps + 1)) "$(wc -l <"$GOV_CLUSTER_DIR/all.jsonl")" "records across the rotated files"
assert_eq $((steps + 1)) "$("$GOV_BUILD_DIR/tool/governor" report --json "$GOV_CLUSTER_DIR/all.jsonl" |
	python3 -c 'import json, sys; print(len(json.load(sys.stdin)["steps"]))')" \
	"steps governor report reads from them (one each: none torn, none twice)"
for f in "$REPORT_FILE"*; do
	[[ $(stat -c '%U %a' "$f") == "root 600" ]] || die "$f is $(stat -c '%U %a' "$f"), not root's 0600"
done
assert_no_match 'governor: ' "$(log_since "$mark")" "slurmd's logs"
rm -rf "$REPORT_DIR"
assert_no_drain
