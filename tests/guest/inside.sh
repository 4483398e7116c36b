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
# as usual and at their end tells the second that the run is over, the
# second runs tests/guest/pair_node.sh (its slurmd) instead.
set -uo pipefail

disk=${1:?usage: inside.sh DISK}
out=$disk/out
mkdir -p "$out"
say() {
	printf 'guest: %s\n' "$*"
}
say "up after $(cut -d' ' -f1 /proc/uptime) s: kernel $(uname -r), $(systemctl --version | head -n1), /sys/fs/cgroup is $(stat -f -c %T /sys/fs/cgroup)"

# card_of MAC: the name of the network card with that MAC, if any yet.
card_of() {
	local f
	f=$(grep -lx "$1" /sys/class/net/*/address 2>/dev/null | head -n1)
	[[ -n $f ]] && basename "$(dirname "$f")"
}

# shellcheck disable=SC2154 # name, addr, mac, peer_*: DISK/pair's
pair() { # the network of two guests: name, /etc/hosts, the card's address
	local card='' left deadline=$((SECONDS + 120))
	# shellcheck source=/dev/null # written by pair.sh: name, addr, mac, role, peer_*, end_*
	source "$disk/pair"
	hostname "$name"
	printf '%s %s\n' "$addr" "$name" "$peer_addr" "$peer_name" >>/etc/hosts
	# The card comes once the kernel has probed it, and udev then renames
	# it (eth0 to enp0sN): find it by its MAC, let udev finish, and take
	# its name again. Bounded by time, generous for TCG on a busy host.
	until card=$(card_of "$mac"); do
		((SECONDS < deadline)) || { say "no network card with MAC $mac after 120 s"; return 1; }
		sleep 0.2
	done
	left=$((deadline - SECONDS))
	udevadm settle --timeout=$((left > 10 ? left : 10)) 2>/dev/null || true
	# Should a rename still come between the look and ip's, ip fails on
	# the old name: look again (replace: the address may be there already).
	until card=$(card_of "$mac") && ip addr replace "$addr/16" dev "$card" && ip link set "$card" up; do
		((SECONDS < deadline)) || { say "could not give $addr to the card with MAC $mac (${card:-gone}) within 120 s"; return 1; }
		sleep 0.5
	done
	say "$name: $addr on $card"
}

# end_of_run: tells the second machine that the run is over (pair_node.sh
# listens on end_port there and answers "ok"), retrying while it cannot be
# reached (node2 back from a reboot listens again within about two
# minutes under TCG); without the word it stops by itself, end_quiet s
# after the controller last answered.
# shellcheck disable=SC2154 # peer_addr, end_port: DISK/pair's (pair sources it)
end_of_run() {
	local deadline=$((SECONDS + 180))
	# shellcheck disable=SC2016 # expanded by that bash
	until timeout 15 bash -c 'exec 3<>"/dev/tcp/$0/$1" && printf "end\n" >&3 &&
		read -r -t 10 ack <&3 && [[ $ack == ok ]]' "$peer_addr" "$end_port" 2>/dev/null; do
		if ((SECONDS >= deadline)); then
			say "node2 did not take the word that the run is over; it stops by itself"
			return 1
		fi
		sleep 2
	done
	say "node2 knows the run is over"
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
# D-Bus (the unit comes after it): slurmd asks systemd for its scope over
# it. Bounded by time, generous for TCG; cluster.sh says so if it is not
# there.
deadline=$((SECONDS + 120))
until [[ -S /run/dbus/system_bus_socket ]] || ((SECONDS >= deadline)); do
	sleep 0.2
done

if [[ -f $disk/pair && ${role:-} == node ]]; then
	exec bash "$disk/src/tests/guest/pair_node.sh" "$disk"
fi

# tests/guest/run.sh --capture: capture.sh puts its trees here.
[[ -f $disk/capture ]] && export GOV_CAPTURE_DIR=$out/fixtures
# tests/guest/run.sh --outcomes: the host's built runtime probes, for the
# cases that run them too (memory_lowered's Go programs).
[[ -d $disk/probes ]] && export GOV_PROBES=$disk/probes
args=()
[[ -f $disk/args ]] && mapfile -t args <"$disk/args"
cd "$disk/src" || exit 1
t0=$(cut -d' ' -f1 /proc/uptime)
bash tests/slurm/run.sh --cgroup v2 --build "$disk/build" --dir /var/tmp/gov-cluster \
	${args[@]+"${args[@]}"} 2>&1 | tee "$out/run.log"
rc=${PIPESTATUS[0]}
say "run.sh ended with status $rc after $(awk -v t="$t0" '{ printf "%d", $1 - t }' /proc/uptime) s"
cp -r /var/tmp/gov-cluster/log "$out/logs" 2>/dev/null || true
# tests/guest/run.sh --outcomes: the benchmark on this v2 cluster, on the
# probes the host built, one round, the memory-bound programs (what v2's
# memory controller holds): TCG runs their collectors about ten times
# slower than the host, hence the longer bound before a program counts as
# thrashing; one host thread runs both vCPUs, so the CPU-bound programs'
# times would say nothing.
if [[ -d $disk/probes ]]; then
	t0=$(cut -d' ' -f1 /proc/uptime)
	bash tests/bench/outcomes.sh --build "$disk/build" --probes "$disk/probes" --cgroup v2 \
		--runs 1 --timeout 120 --no-plot --no-doctor --cases go,node,java --dir /var/tmp/gov-outcomes \
		--out "$out/outcomes" 2>&1 | tee "$out/outcomes.log"
	say "outcomes.sh ended with status ${PIPESTATUS[0]} after $(awk -v t="$t0" '{ printf "%d", $1 - t }' /proc/uptime) s"
fi
dmesg >"$out/dmesg.log" 2>&1 || true
printf '%s\n' "$rc" >"$out/status"
sync
if [[ -f $disk/pair ]]; then
	end_of_run || true
fi
