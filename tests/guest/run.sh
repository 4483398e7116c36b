#!/usr/bin/env bash
# The end-to-end suite on Slurm's cgroup/v2 under systemd, in a QEMU guest
# (this machine's own hierarchy is hybrid, so v2 cannot run on it):
#   run.sh --build DIR [--suite trixie|bookworm|unstable] [--out DIR] [--timeout S]
#          [--shape flat|smt-numa] [--cpu MODEL] [--capture DEST | --probe]
#          [--outcomes PROBES] [--] [run.sh OPTION or CASE...]
# 1. the guest (image.sh: cached Debian root, ext4 image, kernel, initramfs);
# 2. the project built natively in a chroot of that same root, into DIR
#    (tests/slurm/build.sh; compiling under emulation would be slow);
# 3. a second disk (mkfs.ext4 -d: no loop device, no mount) with this tree,
#    the build and the arguments for tests/slurm/run.sh;
# 4. QEMU boots the root's own kernel with no network card (-nic none), the
#    root image read-only underneath (snapshot=on); the guest runs
#    tests/guest/inside.sh and powers off;
# 5. the results are read back from the second disk (debugfs rdump) into
#    --out (default DIR/guest-out): run.log, the cluster's logs, console.log.
# --capture DEST runs capture.sh alone instead of the cases and puts the
# fixture trees it takes from real steps under DEST (tests/fixtures/cgroup).
# --shape: the machine QEMU makes. flat (default): 2 vCPUs, 4 GiB, no NUMA.
# smt-numa: 2 sockets x 2 cores x 2 threads (8 vCPUs), 2 NUMA nodes of
# 2 GiB, node 0 = CPUs 0-3 (socket 0), node 1 = CPUs 4-7 (socket 1).
# --cpu MODEL: QEMU's CPU model (default max under TCG, host under KVM).
# --probe runs probe.sh alone instead of the cases: what the guest's kernel,
# hwloc and slurmd -C see of that machine, and what a trivial step costs.
# --outcomes PROBES: after the cases, the outcome benchmark
# (tests/bench/outcomes.sh, one round, the host's built probes PROBES) on
# this cgroup v2 cluster; its table is printed and kept in OUT/outcomes/.
# Figures, not pass/fail; the run fails only if the benchmark cannot run.
# KVM when the CPU offers hardware virtualisation and a stock kernel boots
# under it, else TCG (GOV_GUEST_ACCEL=kvm|tcg forces one); the choice is
# printed. Exit status is the guest's run.sh's; its last line is
# 'N passed, N failed'.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
build=
suite=trixie
res=
timeout=2400
capture=
probe=
outcomes=
shape=flat
cpu=
pass=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	--suite) suite=${2:?--suite needs trixie, bookworm or unstable}; shift 2 ;;
	--out) res=${2:?--out needs a directory}; shift 2 ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--) shift; pass+=("$@"); break ;;
	--capture) capture=$(realpath -m "${2:?--capture needs a directory}"); shift 2 ;;
	--probe) probe=1; shift ;;
	--outcomes) outcomes=$(realpath -m "${2:?--outcomes needs the built probes}"); shift 2 ;;
	--shape) shape=${2:?--shape needs flat or smt-numa}; shift 2 ;;
	--cpu) cpu=${2:?--cpu needs a QEMU CPU model}; shift 2 ;;
	-h | --help) sed -n '2,32p' "$0"; exit 0 ;;
	*) pass+=("$1"); shift ;;
	esac
done
# shellcheck disable=SC2034 # read by lib.sh
prog=guest/run.sh
# shellcheck source=lib.sh
source "$here/lib.sh"
[[ -n $build ]] || die "--build DIR is required (a build directory for the guest's Slurm)"
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout takes whole seconds, got '$timeout'"
[[ $shape == flat || $shape == smt-numa ]] || die "--shape takes flat or smt-numa, got '$shape'"
[[ -z $capture || -z $probe ]] || die "--capture and --probe each run alone: give one"
[[ -z $outcomes || -f $outcomes/toolchains ]] ||
	die "--outcomes takes probes tests/runtimes/build.sh built; $outcomes has none"
[[ $(id -u) -eq 0 ]] || die "must run as root (mmdebstrap, chroot)"
for tool in qemu-system-x86_64 mkfs.ext4 debugfs; do
	command -v "$tool" >/dev/null ||
		die "$tool is missing: apt-get install qemu-system-x86 e2fsprogs (tests/install-deps.sh installs them)"
done
((timeout > 600)) || die "--timeout must leave the guest time to boot and run: more than 600 s, got $timeout"
build=$(realpath -m "$build")
res=$(realpath -m "${res:-$build/../guest-out}")
# Under emulation a step costs 5-10 s and the longest case (gpu_verify: two
# cluster restarts and several steps) took 75 s alone and 156 s with other
# work beside; a cluster's start took about 15 s, and slurmd up to 123 s
# after boot on a busy host. These are hang guards, not budgets: each case
# 600 s, the run the guest's own bound less 300 s (boot, power-off), and
# every start of the cluster, run.sh's and a case's restart_cluster alike,
# 600 s for its nodes to be idle (cluster.sh --timeout). The options for
# tests/slurm/run.sh given here come after these, so they win.
pass=(--case-timeout 600 --timeout $((timeout - 300)) --cluster-arg --timeout --cluster-arg 600
	${pass[@]+"${pass[@]}"})

image=$(bash "$here/image.sh" --suite "$suite")
series=$(sed -n 's/^series=//p' "$image/.complete")
mark "guest image ready: Debian $suite, Slurm $(sed -n 's/^slurm=//p' "$image/.complete"), kernel $(sed -n 's/^kernel=//p' "$image/.complete"), systemd $(sed -n 's/^systemd=//p' "$image/.complete")"

work=$(mktemp -d /var/tmp/gov-guest.XXXXXX)
qemu_pid=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[[ -z $qemu_pid ]] || kill "$qemu_pid" 2>/dev/null
	bash "$src/tests/slurm/chroot.sh" stop --name "$view" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
guest_build "$build"
mark "built against Slurm $series in a chroot of the guest's root"

# The second disk: what the guest needs of this tree, the build, the
# arguments, and room for the results.
data=$work/data
if [[ -n $capture ]]; then
	pass+=(tests/guest/capture.sh)
fi
[[ -z $probe ]] || pass+=(tests/guest/probe.sh)
guest_data "$data" "$build" ${pass[@]+"${pass[@]}"}
[[ -z $capture ]] || : >"$data/capture"
if [[ -n $outcomes ]]; then
	mkdir -p "$data/probes"
	cp -a "$outcomes/." "$data/probes/"
	rm -rf "$data/probes/cache" "$data/probes/rayon-src"
fi
guest_disk "$data" "$work/data.img"
guest_accel

boot() { # ACCEL: runs the guest to its end; returns QEMU's status
	local argv rc=0 # argv: machine_argv sets it
	machine_argv "$1" "$shape" "$work/console.log" "$work/data.img" no
	guest_start "$work/console.log" ""
	guest_wait "$qemu_pid" "$work/console.log" "$1" $((SECONDS + timeout)) || rc=$?
	qemu_pid=
	wait
	return "$rc"
}

# The console is kept with the results, whatever happens next.
keep_console() {
	mkdir -p "$res"
	cp "$work/console.log" "$res/console.log"
}

mark "booting with $accel ($why)"
[[ $shape == flat && -z $cpu ]] ||
	mark "machine: shape $shape, CPU model ${cpu:-max under TCG, host under KVM}"
rc=0
boot "$accel" || rc=$?
if ((rc != 0)) && [[ $accel == kvm ]] && ! grep -q 'guest: up after' "$work/console.log"; then
	mark "the guest did not come up under KVM (status $rc); booting with tcg instead"
	rc=0
	boot tcg || rc=$?
fi
rm -rf "$res"
keep_console
((rc == 0)) || die "QEMU ended with status $rc (console: $res/console.log)"
mark "the guest has powered off"

guest_results "$work/data.img" "$res" || die "could not read the results from the second disk"
[[ -f $res/status ]] || die "the guest wrote no result (it did not finish); console: $res/console.log"
status=$(<"$res/status")
mark "results in $res"
if [[ -n $capture && $status == 0 ]]; then
	mkdir -p "$capture"
	for layout in "$res/fixtures"/*/; do
		layout=$(basename "$layout")
		rm -rf "${capture:?}/$layout"
		cp -a "$res/fixtures/$layout" "$capture/$layout"
		mark "captured $capture/$layout"
	done
fi
if [[ -n $probe ]]; then
	cat "$res/logs/cases/probe.log" 2>/dev/null || echo "guest/run.sh: the probe left no log"
fi
tail -n 1 "$res/run.log"
if [[ -n $outcomes ]]; then
	mark "the outcome benchmark on cgroup v2 (figures, not pass/fail):"
	cat "$res/outcomes/machine.txt" "$res/outcomes/outcomes.md" 2>/dev/null ||
		{ tail -n 30 "$res/outcomes.log" 2>/dev/null; die "the outcome benchmark did not run (log: $res/outcomes.log)"; }
fi
exit "$status"
