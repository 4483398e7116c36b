#!/usr/bin/env bash
# Runs inside the second guest of tests/guest/pair.sh (from inside.sh):
# this machine's munged and slurmd (node2), joined to the first guest's
# slurmctld, until the first machine says that its run is over (or, should
# that word never come, until its controller has been silent for long);
# then it powers off.
#   pair_node.sh DISK
# DISK/args holds cluster.sh start's options, one a line, the same as the
# first machine's; DISK/pair this machine's name and address, and the port
# and bound of the end (end_port, end_quiet). After a reboot (scontrol
# reboot: the guest restarts in place) the unit runs this anew, and node2
# joins again.
set -uo pipefail

disk=${1:?usage: pair_node.sh DISK}
out=$disk/out
src=$disk/src
dir=/var/tmp/gov-cluster
say() {
	printf 'guest: %s\n' "$*"
}
# shellcheck source=/dev/null # written by pair.sh: name, addr, end_port, end_quiet...
source "$disk/pair"
# shellcheck disable=SC2154 # DISK/pair's
port=$end_port quiet=$end_quiet
boot=$(($(cat "$out/boots" 2>/dev/null || echo 0) + 1))
printf '%s\n' "$boot" >"$out/boots"

# The unit's own stop powers the guest off (image.sh); on this machine a
# reboot must stay a reboot, so its stop only unmounts until this boot ends.
mkdir -p /run/systemd/system/gov-guest.service.d
printf '[Service]\nExecStopPost=\nExecStopPost=/bin/sh -c "sync; umount /gov || true"\n' \
	>/run/systemd/system/gov-guest.service.d/reboot.conf
systemctl daemon-reload

# The end of the run is the first machine's word: once its run.sh has
# ended, its inside.sh connects to end_port here and sends "end"; the
# listener marks it (a file under /run, so each boot starts without it)
# and answers "ok", so that the sender knows it was heard. A controller
# that does not answer is no such word: under TCG slurmctld is away for
# a while each time a case or run.sh restarts the cluster, and node2
# stopping then would fail the rest of the run. Listening from the start
# of each boot, the word is heard even while this boot's slurmd starts.
ended=/run/gov-pair-ended
rm -f "$ended"
# shellcheck disable=SC2016 # Python's own text
python3 -c '
import socket, sys
port, ended = int(sys.argv[1]), sys.argv[2]
server = socket.create_server(("", port))
while True:
    conn, _ = server.accept()
    with conn:
        conn.settimeout(30)
        try:
            if conn.makefile("rb").readline().strip() == b"end":
                open(ended, "w").close()
                conn.sendall(b"ok\n")
                break
        except OSError:
            pass
' "$port" "$ended" &
listener=$!

# The test user before any job can come (a job of an unknown user fails).
bash "$src/tests/slurm/as_user.sh" true
mapfile -t args <"$disk/args"
rc=0
bash "$src/tests/slurm/cluster.sh" start --dir "$dir" --cgroup v2 \
	--plugin "$disk/build/spank/governor.so" --plugin-args "" "${args[@]}" \
	>"$out/node-boot$boot.log" 2>&1 || rc=$?
if ((rc)); then
	say "node2 did not join (boot $boot): $(tail -n 5 "$out/node-boot$boot.log" | tr '\n' ' ')"
else
	# What the cases' tasks run, where the first machine put its own copies.
	install -d -m 755 "$dir/bin"
	install -m 755 "$disk/build/tool/governor" "$src/tests/slurm/topology_check.py" \
		"$src/tests/lib/sysfs_topology.py" "$src/tests/slurm/pair/task_facts.py" "$dir/bin/"
	say "node2 up (boot $boot): $(nproc) CPUs, $(lscpu | sed -n 's/^NUMA node(s): *//p') NUMA node(s)"
	# Serve until the first machine's word. Should it never come (that
	# machine crashed or was stopped at its deadline, or the word was
	# lost), stop once the controller has not answered for end_quiet s in
	# a row, counted from this join (cluster.sh start has just heard it).
	export SLURM_CONF=$dir/etc/slurm.conf
	heard=$SECONDS look=0
	until [[ -e $ended ]]; do
		if ((SECONDS >= look)); then
			# Bounded: once the first machine is off, a connection hangs.
			if timeout 10 sinfo -h -o %t >/dev/null 2>&1; then
				heard=$SECONDS
			elif ((SECONDS - heard >= quiet)); then
				break
			fi
			look=$((SECONDS + 10))
		fi
		sleep 1
	done
	if [[ -e $ended ]]; then
		say "node1 says the run is over; node2 stops"
	else
		say "no word from node1, and its controller silent for $((SECONDS - heard)) s; node2 stops"
	fi
fi
kill "$listener" 2>/dev/null
bash "$src/tests/slurm/cluster.sh" stop --dir "$dir" >>"$out/node-boot$boot.log" 2>&1
mkdir -p "$out/logs"
cp -r "$dir/log/." "$out/logs/" 2>/dev/null || true
journalctl -b --no-pager >"$out/journal-boot$boot.log" 2>&1 || true
printf '%s\n' "$rc" >"$out/status"
sync
systemctl --no-block poweroff
