#!/usr/bin/env bash
# Every line docs/rollout.md and docs/admin-guide.md tell a site to write,
# run exactly as written against the installed packages (issue 49, item
# 1): the rollout's plugstack.conf lines (taken from the page, the
# packaged plugin's own path in them) as `optional` and as `required`,
# with the checks each stage gives, and stage 3's seal=required with
# munged unreachable; the TaskProlog's install command, slurm.conf line and
# STRICT edit, under task/affinity alone and under task/cgroup, with a
# syslog listening and without one; the textfile exporter's install
# command and cron line.  Run by test_deb.sh while the packages are
# installed, on each Slurm series.
#
# usage: test_doc_lines.sh SRC WORKDIR        (as root; TAP on stdout)
set -uo pipefail
src=${1:?usage: test_doc_lines.sh SRC WORKDIR} work=${2:?usage: test_doc_lines.sh SRC WORKDIR}
cluster=$src/tests/slurm/cluster.sh
dir=$work/doc-cluster
rollout=$src/docs/rollout.md
guide=$src/docs/admin-guide.md
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

so=$(dpkg -L slurm-spank-governor | grep '/governor\.so$')
prolog=/etc/slurm/governor-doctor-taskprolog.sh
saved=$work/saved-etc
listener_pid=
mkdir -p "$saved"
# Whatever the lines below write outside the work directory, put back.
# shellcheck disable=SC2317 # called by the trap
restore() {
	[[ -n $listener_pid ]] && kill "$listener_pid" 2>/dev/null && rm -f /dev/log
	bash "$cluster" stop --dir "$dir" >/dev/null 2>&1 || true
	rm -f "$prolog" /usr/local/sbin/governor-textfile /var/lib/prometheus/node-exporter/governor.prom
	rm -rf /var/log/slurm-governor
	[[ -e $saved/prolog ]] && cp -p "$saved/prolog" "$prolog"
	[[ -e $saved/textfile ]] && cp -p "$saved/textfile" /usr/local/sbin/governor-textfile
	[[ -d $saved/report ]] && cp -rp "$saved/report" /var/log/slurm-governor
	true
}
trap restore EXIT
[[ -e $prolog ]] && cp -p "$prolog" "$saved/prolog"
[[ -e /usr/local/sbin/governor-textfile ]] && cp -p /usr/local/sbin/governor-textfile "$saved/textfile"
[[ -d /var/log/slurm-governor ]] && cp -rp /var/log/slurm-governor "$saved/report"

# blocks FILE LANG: each fenced block of that language (empty: a block
# without one) in FILE, its lines; blocks end with a line "--".
blocks() {
	awk -v lang="$2" '/^```/ { if (open) { open = 0; if (want) print "--"; want = 0 } else { open = 1; want = (substr($0, 4) == lang) } next }
		open && want { print }' "$1"
}

# start [cluster.sh start options]: the one-node cluster, plugstack aside.
start() {
	local out
	out=$(bash "$cluster" start --plugin "$so" --nodes 1 --dir "$dir" --wait 300 --timeout 300 "$@" 2>&1) ||
		{ fail "the cluster starts ($*)" "$(tail -5 <<<"$out")"; return 1; }
	eval "$(bash "$cluster" env --dir "$dir")"
}
as_user() { timeout 300 bash "$src/tests/slurm/as_user.sh" "$@"; }
plugstack() { printf '%s\n' "$1" >"$dir/etc/plugstack.conf"; }

# ---- the rollout's plugstack lines --------------------------------------
mapfile -t lines < <(blocks "$rollout" "" | grep -E '^(optional|required) [^ ]*governor\.so( |$)')
check "rollout.md: four plugstack lines, each optional" "4 4" \
  "${#lines[@]} $(printf '%s\n' "${lines[@]}" | grep -c '^optional ')"
check "rollout.md: the lines name the packaged plugin" "$so" \
  "$(printf '%s\n' "${lines[@]}" | awk '{ print $2 }' | sort -u)"
# The commands the stages give, PART the cluster's one partition.
stage1=$(blocks "$rollout" sh | grep -E '^srun -p PART .* --governor governor (verify|doctor)' | sed 's/ *#.*//; s/-p PART/-p debug/')
check "rollout.md: stage 1's two commands" 2 "$(grep -c . <<<"$stage1")"
reports=$(blocks "$rollout" sh | grep -E '^governor report ')
check "rollout.md: stage 2's two report commands" 2 "$(grep -c . <<<"$reports")"

start || finish
for word in optional required; do
	for line in "${lines[@]}"; do
		line="$word ${line#optional }"
		plugstack "$line"
		case $line in
		*default=off*)
			while read -r cmd; do
				# shellcheck disable=SC2086 # the documented command's words
				out=$(as_user $cmd 2>&1)
				check "$line: '$cmd'" "0" "$?"
			done <<<"$stage1"
			as_user srun -c1 --mem=100M governor verify >/dev/null 2>&1
			check "$line: a plain srun has no descriptor (exit 4)" 4 $?
			;;
		*allow_off=no*)
			out=$(as_user srun -c1 --mem=100M --governor=off true 2>&1)
			check "$line: srun --governor=off refused" "1 1" \
			  "$(($? != 0)) $(grep -c "governor: this site does not allow --governor=off (allow_off=no); drop the option, or give one of: batch, interactive, threads, runtimes, noruntimes$" <<<"$out")"
			as_user srun -c1 --mem=100M governor verify >/dev/null 2>&1
			check "$line: a plain srun verifies" 0 $?
			;;
		*default=on*)
			as_user srun -c1 --mem=100M governor verify >/dev/null 2>&1
			check "$line: a plain srun verifies" 0 $?
			;;
		esac
	done
done

# Stage 2 with report= added as the page says: the report commands it
# gives find the step.
line=$(printf '%s\n' "${lines[@]}" | grep -E 'default=on$') 
plugstack "$line report=/var/log/slurm-governor"
as_user srun -c1 --mem=100M sleep 1 >/dev/null 2>&1
deadline=$((SECONDS + 60))
until [[ -s /var/log/slurm-governor/steps.jsonl ]] || ((SECONDS > deadline)); do sleep 0.2; done
while read -r cmd; do
	out=$(bash -c "$cmd" 2>&1)
	check "'$cmd' runs" 0 $?
done <<<"$reports"
check "stage 2's report lists the step" 1 \
  "$(bash -c "$(head -1 <<<"$reports")" 2>/dev/null | grep -cE '^[0-9]+ +0 +govtest')"

# Stage 3 with munged unreachable: the plugin seals through libmunge's
# default socket, Slurm through a socket of its own.
bash "$cluster" stop --dir "$dir" >/dev/null 2>&1
if munge -n >/dev/null 2>&1; then
	skip "the cluster uses a MUNGE daemon it did not start: one answers on libmunge's default socket" "seal=required with munged unreachable"
else
	mkdir -p /run/gov-doc-munge && chmod 755 /run/gov-doc-munge
	start --munge-socket /run/gov-doc-munge/munge.socket.2 || finish
	for word in optional required; do
		for line in "${lines[@]}"; do
			[[ $line == *seal=required* ]] || continue
			line="$word ${line#optional }"
			plugstack "$line"
			out=$(as_user srun -c1 --mem=100M echo should-not-run 2>&1)
			rc=$?
			check "$line, munged unreachable: the task does not start" "1 0 1" \
			  "$((rc != 0)) $(grep -c should-not-run <<<"$out") $(grep -c 'this site requires a sealed descriptor, so the task does not start' <<<"$out")"
		done
	done
	bash "$cluster" stop --dir "$dir" >/dev/null 2>&1
fi

# ---- the TaskProlog -------------------------------------------------------
install_cmd=$(blocks "$rollout" sh | grep -E '^install .*governor-doctor-taskprolog\.sh')
strict_cmd=$(blocks "$rollout" sh | grep -E "^sed -i 's/\^STRICT=0\\$/STRICT=1/'")
conf_line=$(blocks "$rollout" "" | grep -E '^TaskProlog=')
check "rollout.md: the TaskProlog's install command, slurm.conf line and STRICT edit" "1 1 1" \
  "$(grep -c . <<<"$install_cmd") $(grep -c . <<<"$conf_line") $(grep -c . <<<"$strict_cmd")"
bash -c "$install_cmd"
check "'$install_cmd'" "0 755" "$? $(stat -c %a "$prolog" 2>/dev/null)"
stage2=$(printf '%s\n' "${lines[@]}" | grep -E 'default=on$')

# A syslog of the test's own on /dev/log, unless one listens already.
syslog=$work/syslog.txt
if [[ -e /dev/log ]]; then
	have_listener=false
else
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("/dev/log")
import os; os.chmod("/dev/log", 0o666)
out = open(sys.argv[1], "ab", buffering=0)
while True:
    out.write(s.recv(65536) + b"\n")' "$syslog" &
	listener_pid=$!
	for _ in $(seq 50); do [[ -S /dev/log ]] && break; sleep 0.1; done
	have_listener=true
fi

run_task() { as_user srun -c1 --mem=200M echo TASK RAN 2>&1; }
start --task-plugin task/affinity --conf-line "$conf_line" || finish
plugstack "$stage2"
if $have_listener; then
	out=$(run_task)
	check "task/affinity, STRICT=0, syslog: the task runs, nothing on its output" "1 0" \
	  "$(grep -c '^TASK RAN$' <<<"$out") $(grep -c governor-doctor <<<"$out")"
	check "... the error is in syslog, tagged" 1 \
	  "$(grep -a governor-doctor "$syslog" | grep -c 'ERROR  memory      allocation 200.0 MiB, enforced by none')"
	kill "$listener_pid" 2>/dev/null
	wait "$listener_pid" 2>/dev/null
	listener_pid=
	rm -f /dev/log
else
	skip "a syslog daemon listens on /dev/log already: its messages are not this test's to read" "TaskProlog into syslog"
fi
if [[ ! -e /dev/log ]]; then
	out=$(run_task)
	check "task/affinity, STRICT=0, no syslog: the task runs, the findings on its output" "1 1" \
	  "$(grep -c '^TASK RAN$' <<<"$out") $(grep -c '^governor-doctor: ERROR  memory      allocation 200.0 MiB, enforced by none' <<<"$out")"
fi
bash -c "$strict_cmd"
out=$(run_task)
check "'$strict_cmd', task/affinity: the task does not start, and says why" "0 1" \
  "$(grep -c '^TASK RAN$' <<<"$out") $(grep -c 'governor-doctor: this task does not start: the kernel does not enforce its allocation' <<<"$out")"
bash "$cluster" stop --dir "$dir" >/dev/null 2>&1

start --conf-line "$conf_line" || finish
plugstack "$stage2"
out=$(run_task)
check "STRICT=1, task/cgroup: the task runs, nothing else on its output" "1 1" \
  "$(grep -c '^TASK RAN$' <<<"$out") $(grep -c . <<<"$out")"
# --mem-per-cpu: the step's limit holds the step (doctor exited 1 here).
home=$(getent passwd "${GOV_TEST_USER:-govtest}" | cut -d: -f6)
out=$(as_user sbatch --wait -N1 -n2 -c1 --mem-per-cpu=300M -o doc-lines.out --wrap 'srun echo TASK RAN; srun -n1 echo TASK RAN' 2>&1)
check "STRICT=1, task/cgroup, sbatch -n2 --mem-per-cpu: every task runs" 3 \
  "$(grep -c '^TASK RAN$' "$home/doc-lines.out" 2>/dev/null)"
rm -f "$home/doc-lines.out"
bash "$cluster" stop --dir "$dir" >/dev/null 2>&1

# ---- the textfile exporter --------------------------------------------------
tf_install=$(grep -E '^    install .*governor-textfile' "$guide" | sed 's/^    //')
cron=$(awk '/^    \* \* \* \* \* root \/usr\/local\/sbin\/governor-textfile/ { s = $0; while (s ~ /\\$/) { getline n; sub(/\\$/, "", s); s = s n } print s }' "$guide" |
	sed 's/^ *//; s/  */ /g')
check "admin-guide.md: the exporter's install command and cron line" "1 1" \
  "$(grep -c . <<<"$tf_install") $(grep -c . <<<"$cron")"
bash -c "$tf_install"
check "'$tf_install'" "0" "$?"
# What Debian's prometheus-node-exporter (its textfile directory) and
# prometheus (its group) make; a Slurm root has neither package.
made_dir=false
[[ -d /var/lib/prometheus/node-exporter ]] || made_dir=true
install -d /var/lib/prometheus/node-exporter
made_group=false
if ! getent group prometheus >/dev/null; then
	groupadd --system prometheus && made_group=true
fi
cmd=$(awk '{ $1 = $2 = $3 = $4 = $5 = $6 = ""; sub(/^ +/, ""); print }' <<<"$cron")
bash -c "$cmd"
check "the cron line's command ($cmd)" 0 $?
check "governor.prom: root's and prometheus's, 0640" "640 root prometheus" \
  "$(stat -c '%a %U %G' /var/lib/prometheus/node-exporter/governor.prom 2>/dev/null)"
check "the exporter's file has the stage 2 step" 1 \
  "$(grep -c '^governor_step_elapsed_seconds{slurm_job=' /var/lib/prometheus/node-exporter/governor.prom)"
# promtool comes with Debian's prometheus, which the host's suite installs
# (tests/install-deps.sh) and a Slurm root does not.
if command -v promtool >/dev/null; then
	out=$(promtool check metrics </var/lib/prometheus/node-exporter/governor.prom 2>&1)
	check "promtool check metrics" "0 ''" "$? '$out'"
else
	pass "promtool check metrics: on the host's packages, where promtool is (a Slurm root has none)"
fi
rm -f /var/lib/prometheus/node-exporter/governor.prom
$made_dir && rmdir /var/lib/prometheus/node-exporter
$made_group && groupdel prometheus
finish
