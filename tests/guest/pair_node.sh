#!/usr/bin/env bash
# Runs inside the second guest of tests/guest/pair.sh (from inside.sh):
# this machine's munged and slurmd (node2), joined to the first guest's
# slurmctld, until that controller has gone for good; then it powers off.
#   pair_node.sh DISK
# DISK/args holds cluster.sh start's options, one a line, the same as the
# first machine's. After a reboot (scontrol reboot: the guest restarts in
# place) the unit runs this anew, and node2 joins again.
set -uo pipefail

disk=${1:?usage: pair_node.sh DISK}
out=$disk/out
src=$disk/src
dir=/var/tmp/gov-cluster
say() {
	printf 'guest: %s\n' "$*"
}
boot=$(($(cat "$out/boots" 2>/dev/null || echo 0) + 1))
printf '%s\n' "$boot" >"$out/boots"

# The unit's own stop powers the guest off (image.sh); on this machine a
# reboot must stay a reboot, so its stop only unmounts until this boot ends.
mkdir -p /run/systemd/system/gov-guest.service.d
printf '[Service]\nExecStopPost=\nExecStopPost=/bin/sh -c "sync; umount /gov || true"\n' \
	>/run/systemd/system/gov-guest.service.d/reboot.conf
systemctl daemon-reload

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
	# Serve until the controller stops answering (the first machine's run
	# ended and stopped it), after it has answered once.
	seen=0 misses=0
	export SLURM_CONF=$dir/etc/slurm.conf
	while ((misses < 3)); do
		# Bounded: once the first machine is off, a connection hangs.
		if timeout 5 sinfo -h -o %t >/dev/null 2>&1; then
			seen=1 misses=0
		elif ((seen)); then
			misses=$((misses + 1))
		fi
		sleep 2
	done
	say "the controller has gone; node2 stops"
fi
bash "$src/tests/slurm/cluster.sh" stop --dir "$dir" >>"$out/node-boot$boot.log" 2>&1
mkdir -p "$out/logs"
cp -r "$dir/log/." "$out/logs/" 2>/dev/null || true
journalctl -b --no-pager >"$out/journal-boot$boot.log" 2>&1 || true
printf '%s\n' "$rc" >"$out/status"
sync
systemctl --no-block poweroff
