#!/usr/bin/env bash
# Runs inside the QEMU guest, as root, from gov-guest.service (image.sh), once
# systemd and D-Bus are up: the end-to-end suite (tests/slurm/run.sh) on
# Slurm's cgroup/v2 under systemd, with the arguments the host wrote.
#   inside.sh DISK
# DISK is the mounted second disk that tests/guest/run.sh made: src/ (this
# tree), build/ (the project built in a chroot of the same root), args (one
# run.sh argument a line), out/ (what the host reads back: run.log, the
# cluster's logs, status). Lines starting "guest: " are the host's readiness
# and progress marks; the unit powers the guest off when this ends.
set -uo pipefail

disk=${1:?usage: inside.sh DISK}
out=$disk/out
mkdir -p "$out"
say() {
	printf 'guest: %s\n' "$*"
}
say "up after $(cut -d' ' -f1 /proc/uptime) s: kernel $(uname -r), $(systemctl --version | head -n1), /sys/fs/cgroup is $(stat -f -c %T /sys/fs/cgroup)"

# Slurm's daemons look up their wildcard listening address with
# AI_ADDRCONFIG, which finds nothing when loopback is the only interface
# with an address ("Unable to bind listen port ... Address family not
# supported"). A dummy interface with a link-local address of its own (no
# route beyond it) gives them one; the guest has no network card at all.
if ! { ip link add gov0 type dummy && ip addr add 169.254.0.1/32 dev gov0 && ip link set gov0 up; }; then
	say "could not set up the dummy interface; Slurm's daemons may not listen"
fi
for ((i = 0; i < 100; i++)); do
	[[ -S /run/dbus/system_bus_socket ]] && break
	sleep 0.1
done

# tests/guest/run.sh --capture: capture.sh puts its trees here.
[[ -f $disk/capture ]] && export GOV_CAPTURE_DIR=$out/fixtures
args=()
[[ -f $disk/args ]] && mapfile -t args <"$disk/args"
cd "$disk/src" || exit 1
t0=$(cut -d' ' -f1 /proc/uptime)
bash tests/slurm/run.sh --cgroup v2 --build "$disk/build" --dir /var/tmp/gov-cluster \
	${args[@]+"${args[@]}"} 2>&1 | tee "$out/run.log"
rc=${PIPESTATUS[0]}
say "run.sh ended with status $rc after $(awk -v t="$t0" '{ printf "%d", $1 - t }' /proc/uptime) s"
cp -r /var/tmp/gov-cluster/log "$out/logs" 2>/dev/null || true
dmesg >"$out/dmesg.log" 2>&1 || true
printf '%s\n' "$rc" >"$out/status"
sync
