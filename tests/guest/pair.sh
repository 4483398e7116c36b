#!/usr/bin/env bash
# Two machines, one Slurm cluster: two QEMU guests of different shapes,
# each with its own kernel, boot id, /dev, munged (one key) and slurmd,
# joined by a QEMU socket network over the host's loopback, run the cases
# of tests/slurm/pair/ (Slurm 24.11, cgroup v2 under systemd):
#   pair.sh --build DIR [--out DIR] [--timeout S] [--] [CASE...]
# node1, guest "gova": 2 sockets x 2 cores x 2 threads, a NUMA node per
#   socket, 4 GiB; slurmctld and its slurmd; it runs tests/slurm/run.sh
#   with the cases (default: all of tests/slurm/pair/pair_*.sh; any case
#   of tests/slurm/ that runs on node1 alone, such as topo_shapes.sh, too).
# node2, guest "govb": 4 cores, one NUMA node, 3 GiB, 2 emulated NVIDIA
#   GPUs (gres/gpu, ConstrainDevices=yes); its slurmd only
#   (tests/guest/pair_node.sh); it reboots in place when Slurm asks.
# The guests' addresses are link-local (169.254.10.1 and .2) on their own
# emulated link: nothing leaves the two QEMU processes but one TCP
# connection on 127.0.0.1. The build and the image are run.sh's
# (lib.sh, image.sh). Results: --out (default DIR/../pair-out)/node1 and
# node2 (run.log, the daemons' logs, consoles). Exit status: the cases'.
# node2 serves until node1 says the run is over (a TCP word over their
# link: inside.sh sends it, pair_node.sh listens), or, should the word
# never come, until the controller has not answered for 600 s (end_quiet).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
build=
res=
timeout=2400
# shellcheck disable=SC2034 # read by lib.sh (QEMU's default CPU model)
cpu=
cases=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	--out) res=${2:?--out needs a directory}; shift 2 ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--) shift; cases+=("$@"); break ;;
	-h | --help) sed -n '2,21p' "$0"; exit 0 ;;
	-*) echo "pair.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) cases+=("$1"); shift ;;
	esac
done
# shellcheck disable=SC2034 # read by lib.sh
prog=guest/pair.sh
# shellcheck source=lib.sh
source "$here/lib.sh"
[[ -n $build ]] || die "--build DIR is required (a build directory for the guests' Slurm)"
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout takes whole seconds, got '$timeout'"
((timeout > 600)) || die "--timeout must leave the guests time to boot and run: more than 600 s, got $timeout"
[[ $(id -u) -eq 0 ]] || die "must run as root (mmdebstrap, chroot)"
for tool in qemu-system-x86_64 mkfs.ext4 debugfs ss; do
	command -v "$tool" >/dev/null ||
		die "$tool is missing: apt-get install qemu-system-x86 e2fsprogs iproute2 (tests/install-deps.sh installs them)"
done
if [[ ${#cases[@]} -eq 0 ]]; then
	cases=(tests/slurm/pair/pair_*.sh)
fi
for c in "${cases[@]}"; do
	[[ -f $src/$c && $c == tests/slurm/* ]] || die "no case '$c' (give tests/slurm/pair/NAME.sh, or tests/slurm/cases/NAME.sh)"
done
build=$(realpath -m "$build")
res=$(realpath -m "${res:-$build/../pair-out}")

image=$(bash "$here/image.sh" --suite trixie)
mark "guest image ready: Slurm $(sed -n 's/^slurm=//p' "$image/.complete"), kernel $(sed -n 's/^kernel=//p' "$image/.complete")"

work=$(mktemp -d /var/tmp/gov-pair.XXXXXX)
pids=()
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	local p
	for p in ${pids[@]+"${pids[@]}"}; do
		kill "$p" 2>/dev/null || true
	done
	bash "$src/tests/slurm/chroot.sh" stop --name "$view" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
guest_build "$build"
mark "built against Slurm $(<"$build/slurm-series") in a chroot of the guests' root"

# Both machines' cluster.sh take the same options: the machines, each
# node's line as its QEMU shape makes it (RealMemory below what the guest's
# kernel leaves), one MUNGE key, node2's GPUs, and Slurm's way to reboot.
# shellcheck disable=SC2054 # a comma list is one argument
cluster=(--machines gova=169.254.10.1,govb=169.254.10.2
	--node-line "1=CPUs=8 Boards=1 SocketsPerBoard=2 CoresPerSocket=2 ThreadsPerCore=2 RealMemory=3500"
	--node-line "2=CPUs=4 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=2600"
	--munge-key /gov/munge.key --gpus 0,2 --constrain-devices yes
	--conf-line RebootProgram=/usr/sbin/reboot --conf-line ResumeTimeout=600 --timeout 600)
run_args=(--case-timeout 600 --timeout $((timeout - 300)))
for arg in "${cluster[@]}"; do
	run_args+=(--cluster-arg "$arg")
done
run_args+=("${cases[@]}")
dd if=/dev/urandom of="$work/munge.key" bs=1 count=1024 status=none
# The end of the run: node2 listens on end_port for node1's word that the
# run is over; without it, node2 stops once the controller has not answered
# for end_quiet s in a row: far longer than slurmctld is away while a case
# or run.sh restarts the cluster (about 15 s a start under TCG, more with
# other work beside), or while node2 itself reboots.
end_port=16900
end_quiet=600
# machine DIR NAME ADDR MAC ROLE PEER PEER_ADDR ARG...: one guest's disk.
machine() {
	local dir=$work/$1
	guest_data "$dir" "$build" "${@:8}"
	cp "$work/munge.key" "$dir/munge.key"
	printf 'name=%s\naddr=%s\nmac=%s\nrole=%s\npeer_name=%s\npeer_addr=%s\n' "${@:2:6}" >"$dir/pair"
	printf 'end_port=%s\nend_quiet=%s\n' "$end_port" "$end_quiet" >>"$dir/pair"
	guest_disk "$dir" "$work/$1.img"
}
machine a gova 169.254.10.1 52:54:00:47:00:01 controller govb 169.254.10.2 "${run_args[@]}"
machine b govb 169.254.10.2 52:54:00:47:00:02 node gova 169.254.10.1 "${cluster[@]}"
guest_accel

port=
for p in $(shuf -i 20000-29999 -n 20); do
	ss -Hltn "sport = :$p" | grep -q . || { port=$p; break; }
done
[[ -n $port ]] || die "no free port on 127.0.0.1 for the guests' link"
mark "booting both with $accel ($why), linked over 127.0.0.1:$port"
machine_argv "$accel" smt-numa "$work/a.console" "$work/a.img" no \
	-netdev "socket,id=n0,listen=127.0.0.1:$port" -device "virtio-net-pci,netdev=n0,mac=52:54:00:47:00:01"
guest_start "$work/a.console" "gova| "
a_pid=$qemu_pid
pids+=("$a_pid")
# node2's QEMU connects to node1's listening socket, and gives up at once
# if it is not there yet ("Connection refused"): wait until node1's QEMU
# listens (it does so before its guest boots, but a busy host may take a
# while to start it), and stop if it ended instead (a port taken meanwhile).
deadline=$((SECONDS + 60))
until ss -Hltn "sport = :$port" | grep -q .; do
	kill -0 "$a_pid" 2>/dev/null || die "node1's QEMU ended before it listened on 127.0.0.1:$port (its output is above)"
	((SECONDS < deadline)) || die "node1's QEMU did not listen on 127.0.0.1:$port within 60 s"
	sleep 0.2
done
machine_argv "$accel" flat4 "$work/b.console" "$work/b.img" yes \
	-netdev "socket,id=n0,connect=127.0.0.1:$port" -device "virtio-net-pci,netdev=n0,mac=52:54:00:47:00:02"
guest_start "$work/b.console" "govb| "
b_pid=$qemu_pid
pids+=("$b_pid")

rc=0
guest_wait "$a_pid" "$work/a.console" "$accel" $((SECONDS + timeout)) || rc=$?
# node2 powers off by itself: seconds after node1's word that the run is
# over; without the word (node1 stopped at its deadline, or crashed),
# end_quiet s after the controller last answered. Then its slurmd's stop,
# its logs and the power-off, minutes under TCG.
b_rc=0
guest_wait "$b_pid" "$work/b.console" "$accel" $((SECONDS + end_quiet + 300)) || b_rc=$?
pids=()
wait
mark "both guests have powered off (QEMU: node1 $rc, node2 $b_rc)"

rm -rf "$res"
for m in a:node1 b:node2; do
	mkdir -p "$res/${m#*:}"
	cp "$work/${m%:*}.console" "$res/${m#*:}/console.log"
	guest_results "$work/${m%:*}.img" "$res/${m#*:}" ||
		mark "could not read ${m#*:}'s results from its disk"
done
((rc == 0)) || die "node1's QEMU ended with status $rc (console: $res/node1/console.log)"
[[ -f $res/node1/status ]] || die "node1 wrote no result (it did not finish); console: $res/node1/console.log"
status=$(<"$res/node1/status")
mark "results in $res; node2 booted $(cat "$res/node2/boots" 2>/dev/null || echo '?') times"
tail -n 1 "$res/node1/run.log"
exit "$status"
