#!/usr/bin/env bash
# The whole test suite, as CI runs it (README's second command):
#   1. install the Debian packages it needs
#   2. build and run the unit and tool tests, and the plugin's Slurm-free
#      parts again in a build without Slurm's headers; every one of hwloc's
#      own test machines read as a --sysroot; hold libgovernor.so.1
#      to its ABI baseline (abi/check.sh, docs/abi.md);
#      real runtimes (OpenMP, OpenBLAS, Go, Rust, Node.js, Java...) alone and
#      under `governor run` in real allocations (tests/runtimes)
#   3. the same under AddressSanitizer and UndefinedBehaviorSanitizer
#   4. each fuzz target briefly (clang libFuzzer)
#   5. install into a staging tree, man pages, the dist tarball, .deb and
#      .rpm packages; the source package built as Debian's build daemons
#      would, in a cached bookworm root holding only its Build-Depends
#   6. end-to-end tests on a real throwaway Slurm 22.05 cluster (the host's)
#   7. Slurm 24.11, in a cached Debian trixie root (tests/slurm/root.sh):
#      the build (warnings as errors) and unit tests, the .deb packages,
#      then the same end-to-end suite
#   8. the same for Slurm 26.05, in a cached Debian unstable root
#   9. Slurm 26.05 on cgroup v2 under systemd, in a QEMU guest booted from
#      a cached Debian unstable image (tests/guest/run.sh): the cases that
#      cover v2 (SLUID cgroup paths, CgroupJobIdPaths, CgroupSlice) and the
#      outcome benchmark's memory-bound programs; then Slurm 24.11 in two
#      guests of different shapes joined by a network, one cluster of two
#      real machines (tests/guest/pair.sh), the first a
#      2-socket SMT NUMA node that also runs the topology cases
#  10. benchmarks (figures only, never pass/fail on speed)
# Not in that order: what starts no cluster runs in background lanes beside
# the end-to-end suites (see lane_start; docs/testing.md says why and how).
# Ends with a line "stages: N passed, N failed" and exits non-zero on failure.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
cd "$src"
out=${GOV_TEST_OUT:-$src/build-test}
fuzz_seconds=${GOV_FUZZ_SECONDS:-4}

passed=0 failed=0 failures=() failed_logs=()
count() { # NAME STATUS SECONDS [WHERE]: one stage's result
	if (($2 == 0)); then
		passed=$((passed + 1))
		echo "=== $1: ok ($3 s${4:+, $4})"
	else
		failed=$((failed + 1))
		failures+=("$1")
		echo "=== $1: FAILED ($3 s${4:+, $4})"
	fi
}

stage() { # NAME CMD...: runs one stage and counts it
	local name=$1 t0=$SECONDS rc=0
	shift
	echo "=== $name"
	"$@" || rc=$?
	count "$name" "$rc" "$((SECONDS - t0))"
}

# The end-to-end suites wait on Slurm more than they compute (the 22.05
# suite: 143 s of CPU in 240 s on 2 CPUs), and the cgroup v2 guest emulates
# on one host thread (guest/lib.sh), so stages that start no cluster of
# their own run beside them in a background lane: its stages one after
# another, each one's output kept in $lane/ID.log and printed, with the
# result, when the stage is collected. The lane is SCHED_IDLE: unlike nice
# 19, a CPU running only such work counts as idle where the kernel places a
# waking task, so Slurm's daemons and the steps never queue behind it.
lane=$out/lane
declare -A lane_pid=()
lane_start() { # ID...: those stages, one after another, in a lane
	local id
	mkdir -p "$lane"
	for id; do
		rm -f "$lane/$id.status" "$lane/$id.log"
	done
	(
		chrt --idle -p 0 "$BASHPID"
		local t0 rc
		for id; do
			t0=$SECONDS rc=0
			# shellcheck disable=SC2086 # the command is words without globs
			${cmd[$id]} >"$lane/$id.log" 2>&1 </dev/null || rc=$?
			printf '%s %s\n' "$rc" "$((SECONDS - t0))" >"$lane/$id.tmp"
			mv "$lane/$id.tmp" "$lane/$id.status"
		done
	) &
	for id; do
		lane_pid[$id]=$!
	done
}

lane_collect() { # ID: waits for lane stage ID, prints and counts it
	local rc=1 secs=0
	echo "=== ${title[$1]}"
	while [[ ! -f $lane/$1.status ]] && kill -0 "${lane_pid[$1]}" 2>/dev/null; do
		sleep 1
	done
	if [[ -f $lane/$1.status ]]; then
		read -r rc secs <"$lane/$1.status"
		cat "$lane/$1.log"
	else
		echo "run-all: its lane ended before this stage did (log: $lane/$1.log)"
	fi
	((rc == 0)) || failed_logs+=("$lane/$1.log")
	count "${title[$1]}" "$rc" "$secs" "in a background lane"
}

build() { # DIR [MESON_OPTION...] [-- TARGET...]: configure (fresh) and compile
	local dir=$1 opts=()
	shift
	while (($#)) && [[ $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	(($#)) && shift
	rm -rf "$dir"
	mkdir -p "$(dirname "$dir")"
	meson setup "$dir" ${opts[@]+"${opts[@]}"} >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; return 1; }
	meson compile -C "$dir" "$@"
}

unit() {
	build "$out/plain" && meson test -C "$out/plain" --print-errorlogs --timeout-multiplier 4 &&
		tests/check-skips.sh "$out/plain/meson-logs/testlog.txt"
}

# A machine without Slurm's headers still builds and tests the plugin's
# Slurm-free parts (parsers, topology table, bounded seal, run directory).
unit_without_slurm() {
	build "$out/noslurm" -Dspank=disabled &&
		meson test -C "$out/noslurm" --print-errorlogs --timeout-multiplier 4 option policy topology seal_bounded run_dir
}

# Every machine of hwloc's own test suite, read as a --sysroot (the meson
# suite reads six of them from tests/fixtures/topology/hwloc).
hwloc_machines() {
	bash tests/tool/hwloc_machines.sh "$out/plain"
}

# The ABI promise of include/governor.h: the checker on a small library
# first, then the build's libgovernor.so against abi/libgovernor.abi.
abi() {
	tests/abi/test_check.sh cc abi/check.sh &&
		abi/check.sh "$out/plain/runtime/libgovernor.so"
}

sanitized() {
	build "$out/san" -Db_sanitize=address,undefined -Db_lundef=false &&
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			meson test -C "$out/san" --print-errorlogs --timeout-multiplier 4 &&
		tests/check-skips.sh "$out/san/meson-logs/testlog.txt"
}

# A failing target keeps its input in $out/fuzz-artifacts and prints it in
# base64 too, so that a CI log alone is enough to reproduce the failure:
#   base64 -d >crash && build/tests/fuzz/fuzz_NAME crash
fuzz() {
	local t name rc=0 st corpus art=$out/fuzz-artifacts targets=() a
	for t in tests/fuzz/fuzz_*.c; do
		targets+=("$(basename "$t" .c)")
	done
	CC=clang build "$out/fuzz" -Dfuzz=true -Db_lundef=false -- "${targets[@]}" || return 1
	rm -rf "$art"
	mkdir -p "$art"
	for t in "$out"/fuzz/tests/fuzz/fuzz_*; do
		[[ -x $t && ! -d $t ]] || continue
		name=$(basename "$t")
		corpus=$(mktemp -d)
		cp -r "tests/fuzz/corpus/${name#fuzz_}/." "$corpus/" 2>/dev/null
		st=0
		"$t" -max_total_time="$fuzz_seconds" -print_final_stats=1 -artifact_prefix="$art/$name-" \
			"$corpus" >"$art/$name.log" 2>&1 || st=$?
		if ((st == 0)); then
			echo "fuzz $name: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$art/$name.log" | grep -o '[0-9]*$') runs, no crash"
			rm -f "$art/$name.log"
		else
			echo "fuzz $name: FAILED (exit status $st; $(grep -m1 -o 'Seed: [0-9]*' "$art/$name.log"))"
			tail -40 "$art/$name.log"
			for a in "$art/$name"-*; do
				[[ -f $a ]] || continue
				echo "input $(basename "$a") ($(stat -c %s "$a") bytes), base64:"
				head -c 4096 "$a" | base64
			done
			rc=1
		fi
		rm -rf "$corpus"
	done
	return $rc
}

runtimes() {
	bash tests/runtimes/run.sh "$out/plain" "$out/runtimes"
}

python_binding() {
	bash contrib/python/run-tests.sh "$out/plain"
}

# A test script's run, its skips then held to tests/skip-facts as the
# unit tests' are.
skips_checked() { # NAME CMD...
	local log=$out/$1.log
	shift
	"$@" 2>&1 | tee "$log"
	((PIPESTATUS[0] == 0)) && tests/check-skips.sh "$log"
}

install_checks() {
	skips_checked install bash tests/install/test_install.sh "$out/plain" &&
		skips_checked dist bash tests/install/test_dist.sh "$out/plain"
}

debs() {
	skips_checked debs bash tests/install/test_deb.sh "$out/plain"
}

buildd() {
	bash tests/install/test_buildd.sh
}

rpms() {
	bash tests/install/test_rpm.sh "$out/plain"
}

e2e() {
	GOV_RUNTIME_PROBES=$out/runtimes bash tests/slurm/run.sh --build "$out/plain"
}

# The plugin is built per Slurm series: against SERIES's spank.h inside its
# root, where the unit tests run again on that release's hwloc and MUNGE.
root_build() { # SERIES
	rm -rf "$out/slurm-$1"
	bash tests/slurm/chroot.sh run --series "$1" --bind "$out" \
		bash -c 'bash tests/slurm/build.sh "$1" && meson test -C "$1" --print-errorlogs --timeout-multiplier 4' _ "$out/slurm-$1"
}

# The .deb packages built, installed and sealing a step inside SERIES's
# root, each depending on that series.
root_debs() { # SERIES
	skips_checked "debs-$1" bash tests/slurm/chroot.sh run --series "$1" bash tests/install/test_deb.sh
}

root_e2e() { # SERIES
	bash tests/slurm/run.sh --slurm "$1" --build "$out/slurm-$1"
}

# The newest series on cgroup v2, where 26.05 keys its directories off
# SLUIDs (24.11 keeps its own v2 run in the pair stage's guests); then the
# outcome benchmark's memory-bound programs on that cluster (figures only;
# the runtimes stage's probes).
e2e_v2() {
	bash tests/guest/run.sh --suite unstable --build "$out/guest-26.05" --out "$out/guest-out" \
		--outcomes "$out/runtimes"
}

# Two machines, one cluster: node1 a node of real shape (2 sockets x 2
# cores x 2 threads, a NUMA node per socket), where the topology cases run
# too, node2 a flat 4-core node with GPUs, each its own kernel, boot id,
# /dev and munged; Slurm 24.11 of Debian trixie.
e2e_pair() {
	bash tests/guest/pair.sh --build "$out/guest-24.11" --out "$out/pair-out" \
		-- tests/slurm/pair/pair_*.sh tests/slurm/cases/topo_shapes.sh
}

# Six rounds of launch.sh keep the whole run under 30 minutes cold: enough
# to show it works and the order of the figures; the figures in
# docs/admin-guide.md ("Cost") are twenty rounds.
bench() {
	bash tests/bench/run.sh "$out/plain" &&
		bash tests/bench/launch.sh --build "$out/plain" --runs 6 &&
		bash tests/bench/outcomes.sh --build "$out/plain" --probes "$out/runtimes" --runs 3
}

# On a machine without the caches, the Slurm roots and the guest's image
# take minutes of downloads and unpacking: start them beside the first
# stages, which leave a CPU idle.  The stages that need them call the same
# scripts, which wait on the cache's lock and then find them built (or
# build them and say why they cannot).  On a warm machine this is instant.
prefetch() {
	mkdir -p "$out"
	{ bash tests/slurm/root.sh --series 24.11 && bash tests/slurm/root.sh --series 26.05; } \
		>"$out/prefetch-roots.log" 2>&1 &
	{ bash tests/guest/image.sh --suite unstable && bash tests/guest/image.sh --suite trixie; } \
		>"$out/prefetch-guest.log" 2>&1 &
}

# Every stage: its id (--list, --only), what it needs built first when run
# alone (--only), its title, its command.  The full run builds what they
# need in stages of its own; run alone, a stage gets the same builds first.
ids=()
declare -A title=() needs=() cmd=()
def() { # ID NEEDS TITLE CMD...
	local id=$1
	ids+=("$id")
	needs[$id]=$2 title[$id]=$3
	shift 3
	cmd[$id]="$*"
}
def unit - "unit and tool tests" unit
def runtimes plain "real runtimes under governor run" runtimes
def python plain "Python binding" python_binding
def e2e-22.05 plain,probes "end-to-end on a local Slurm 22.05 cluster" e2e
def root-24.11 - "Slurm 24.11 root: build and unit tests" root_build 24.11
def e2e-24.11 root-24.11 "end-to-end on a local Slurm 24.11 cluster" root_e2e 24.11
def root-26.05 - "Slurm 26.05 root: build and unit tests" root_build 26.05
def e2e-26.05 root-26.05 "end-to-end on a local Slurm 26.05 cluster" root_e2e 26.05
def hwloc plain "hwloc's test machines under --sysroot" hwloc_machines
def abi plain "ABI of libgovernor.so.1 (abidiff against abi/libgovernor.abi)" abi
def fuzz - "fuzz smoke" fuzz
def rpm plain "RPM packages (Debian's rpmbuild)" rpms
def buildd - "Debian source package as a build daemon builds it" buildd
def san - "sanitizers (address, undefined)" sanitized
def noslurm - "the plugin's Slurm-free parts without spank.h" unit_without_slurm
def install plain "install, man pages, dist tarball" install_checks
def debs plain "Debian packages" debs
def debs-24.11 - "Slurm 24.11 root: Debian packages" root_debs 24.11
def debs-26.05 - "Slurm 26.05 root: Debian packages" root_debs 26.05
def v2 probes "end-to-end on Slurm 26.05, cgroup v2 under systemd (QEMU guest), and the outcome benchmark there" e2e_v2
def pair - "two machines in one cluster: a 2-socket SMT NUMA node (the topology cases) and a flat GPU node (two QEMU guests, Slurm 24.11)" e2e_pair
def bench plain,probes "benchmarks" bench

# What --only builds before a stage that needs it, unless a stage chosen
# before it builds the same: the plain build (unit), the runtime probes
# (runtimes), a series' build in its root (root-SERIES, without its tests).
declare -A provides=([unit]=plain [runtimes]=probes [root-24.11]=root-24.11 [root-26.05]=root-26.05)
setup() { # NEED
	case $1 in
	plain) build "$out/plain" ;;
	probes) bash tests/runtimes/build.sh "$out/runtimes" ;;
	root-*)
		rm -rf "$out/slurm-${1#root-}"
		bash tests/slurm/chroot.sh run --series "${1#root-}" --bind "$out" \
			bash tests/slurm/build.sh "$out/slurm-${1#root-}"
		;;
	esac
}

summary() {
	local log
	# CI may show only the end of this output: a failed lane stage's log
	# ends there again.
	for log in ${failed_logs[@]+"${failed_logs[@]}"}; do
		echo "=== the end of $log"
		tail -n 60 "$log"
	done
	if ((failed)); then
		printf 'failed stages: %s\n' "${failures[*]}"
	fi
	echo "stages: $passed passed, $failed failed"
	((failed == 0))
}

run_stage() { # ID: one stage in the foreground
	# shellcheck disable=SC2086 # the command is words without globs
	stage "${title[$1]}" ${cmd[$1]}
}

# --list: the table, each stage's command checked to be a function here
# (tests/consistency/test_run_all.sh holds the table to that).
list() {
	local id rc=0
	for id in "${ids[@]}"; do
		printf '%-11s %s%s\n' "$id" "${title[$id]}" "$([[ ${needs[$id]} == - ]] || echo " (needs ${needs[$id]//,/, })")"
		if ! declare -F "${cmd[$id]%% *}" >/dev/null; then
			echo "run-all: stage $id runs '${cmd[$id]}', which is no function here" >&2
			rc=1
		fi
	done
	return $rc
}

# --only ID...: those stages in the foreground, in the table's order, after
# the dependencies and the builds they need.
only() {
	local id need done=() chosen=() n
	declare -A want=() built=()
	for id; do
		[[ -v "title[$id]" ]] || { echo "run-all: no stage '$id'; the stages are:"; list; return 2; }
		want[$id]=1
	done
	bash tests/install-deps.sh || { echo "run-all: could not install dependencies"; return 1; }
	for id in "${ids[@]}"; do
		[[ -v "want[$id]" ]] && chosen+=("$id")
	done
	for id in "${chosen[@]}"; do
		for need in ${needs[$id]//,/ }; do
			[[ $need == - || -v "built[$need]" ]] && continue
			built[$need]=1
			echo "=== building $need for $id"
			setup "$need" || { count "building $need for $id" 1 0; continue 2; }
		done
		run_stage "$id"
		n=${provides[$id]:-}
		[[ -n $n ]] && built[$n]=1
	done
	summary
}

main() {
	bash tests/install-deps.sh || { echo "run-all: could not install dependencies"; return 1; }
	prefetch

	run_stage unit
	lane_start root-24.11 root-26.05 hwloc abi fuzz rpm buildd san noslurm install
	run_stage runtimes
	run_stage python
	run_stage e2e-22.05
	lane_collect root-24.11
	run_stage e2e-24.11
	lane_collect root-26.05
	run_stage e2e-26.05
	for id in hwloc abi fuzz rpm buildd san noslurm install; do
		lane_collect "$id"
	done
	# The package stages start a cluster each (one per machine at a time),
	# so they wait for the suites, and go beside the guest's one thread.
	lane_start debs debs-24.11 debs-26.05
	run_stage v2
	for id in debs debs-24.11 debs-26.05; do
		lane_collect "$id"
	done
	run_stage pair
	run_stage bench
	summary
}

usage() {
	echo "usage: run-all.sh [--list | --only STAGE...]"
}

# Everything above is parsed before anything runs, so editing this file
# while it runs cannot derail the run.
case ${1:-} in
'') main ;;
--list) list; exit ;;
--only)
	shift
	(($#)) || { usage >&2; exit 2; }
	only "$@"
	;;
-h | --help) usage ;;
*) usage >&2; exit 2 ;;
esac
exit
