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
# With DISK/pair (tests/guest/pair.sh: this machine's name, address and
# MAC, and its peer's), the guest first takes its name and its address on
# the network card with that MAC; the first machine then runs the cases
# as usual, the second tests/guest/pair_node.sh (its slurmd) instead.
set -uo pipefail

disk=${1:?usage: inside.sh DISK}
out=$disk/out
mkdir -p "$out"
say() {
	printf 'guest: %s\n' "$*"
}
say "up after $(cut -d' ' -f1 /proc/uptime) s: kernel $(uname -r), $(systemctl --version | head -n1), /sys/fs/cgroup is $(stat -f -c %T /sys/fs/cgroup)"

# shellcheck disable=SC2154 # name, addr, mac, peer_*: DISK/pair's
pair() { # the network of two guests: name, /etc/hosts, the card's address
	local i card=
	# shellcheck source=/dev/null # written by pair.sh: name, addr, mac, role, peer_*
	source "$disk/pair"
	hostname "$name"
	printf '%s %s\n' "$addr" "$name" "$peer_addr" "$peer_name" >>/etc/hosts
	# The card's final name: udev renames it (enp0sN) as it comes.
	udevadm settle --timeout=20 2>/dev/null || true
	for ((i = 0; i < 100; i++)); do
		card=$(grep -lx "$mac" /sys/class/net/*/address 2>/dev/null | head -n1)
		[[ -n $card ]] && break
		sleep 0.1
	done
	[[ -n $card ]] || { say "no network card with MAC $mac"; return 1; }
	card=$(basename "$(dirname "$card")")
	ip addr add "$addr/16" dev "$card" && ip link set "$card" up
	say "$name: $addr on $card"
}
# Slurm's daemons look up their wildcard listening address with
# AI_ADDRCONFIG, which finds nothing when loopback is the only interface
# with an address ("Unable to bind listen port ... Address family not
# supported"). A dummy interface with a link-local address of its own (no
# route beyond it) gives them one; the guest has no network card at all
# (but two guests' cards).
if [[ -f $disk/pair ]]; then
	pair || { printf '1\n' >"$out/status"; exit 1; }
elif ! { ip link add gov0 type dummy && ip addr add 169.254.0.1/32 dev gov0 && ip link set gov0 up; }; then
	say "could not set up the dummy interface; Slurm's daemons may not listen"
fi
for ((i = 0; i < 100; i++)); do
	[[ -S /run/dbus/system_bus_socket ]] && break
	sleep 0.1
done

if [[ -f $disk/pair && ${role:-} == node ]]; then
	exec bash "$disk/src/tests/guest/pair_node.sh" "$disk"
fi

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
