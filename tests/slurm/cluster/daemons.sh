# shellcheck shell=bash disable=SC2154
# cluster.sh's daemons: munged, slurmctld and each node's slurmd started, found and stopped.
# Sourced by tests/slurm/cluster.sh, whose settings (dir, conf, nodes...) it reads.

munge_works() {
	munge -n -S "$1" 2>/dev/null | unmunge -S "$1" >/dev/null 2>&1
}

start_munge() {
	if [[ -z $munge_key ]] && munge_works "$munge_socket"; then
		log "using the MUNGE daemon already listening on $munge_socket"
		return 0
	fi
	# munged runs as the munge user, as its package runs it: the key, seed,
	# pid file, log and socket directory are that user's.
	id -u munge >/dev/null 2>&1 || die "no 'munge' user: install the munge package"
	mkdir -p "$dir/munge"
	chmod 700 "$dir/munge"
	local key=$dir/munge/munge.key sockdir
	if [[ -n $munge_key ]]; then
		install -m 600 "$munge_key" "$key"
	else
		dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
	fi
	chmod 600 "$key"
	sockdir=$(dirname "$munge_socket")
	mkdir -p "$sockdir"
	chmod 755 "$sockdir"
	rm -f "$munge_socket" "$munge_socket.lock"
	touch "$logs/munged.log"
	chown munge: "$dir/munge" "$key" "$sockdir" "$logs/munged.log"
	env "$marker" setpriv --reuid=munge --regid=munge --init-groups munged 9>&- \
		--key-file="$key" --socket="$munge_socket" \
		--log-file="$logs/munged.log" --pid-file="$dir/munge/munged.pid" \
		--seed-file="$dir/munge/munged.seed" --num-threads=4 ||
		{ cat "$logs/munged.log" >&2 || true; die "munged did not start"; }
	local i
	for ((i = 0; i < 50; i++)); do
		munge_works "$munge_socket" && return 0
		sleep 0.1
	done
	cat "$logs/munged.log" >&2 || true
	die "munged started but does not answer on $munge_socket"
}

# start_slurmd K: slurmd of nodeK. Under systemd (cgroup/v2), as Debian's
# slurmd.service runs it: a service with Delegate=yes, so that slurmd may
# ask systemd over D-Bus for its nodeK_slurmstepd.scope (started by hand,
# it stops with "systemd scope for slurmstepd could not be set").
start_slurmd() {
	if [[ $cgroup == v2 && $systemd == yes ]]; then
		systemd-run --quiet --collect --unit="$(slurmd_unit "$1")" --slice="$slice" --property=Delegate=yes \
			--property=KillMode=process --setenv="$marker" --setenv=SLURM_CONF="$conf" \
			slurmd -D -f "$conf" -N "node$1"
	elif [[ $cgroup == v2 ]]; then
		# IgnoreSystemd: from 25.11 slurmd moves itself into a "slurmd"
		# cgroup below its own and enables the controllers there, which the
		# kernel refuses (EBUSY) in a cgroup that holds other processes, a
		# shell's or a service's.  As an init without systemd would, each
		# slurmd starts alone in a cgroup of its own below the root.
		local cg
		cg=$(slurmd_cgroup "$1")
		mkdir -p "$cg"
		(echo "$BASHPID" >"$cg/cgroup.procs" && exec env "$marker" SLURM_CONF="$conf" slurmd -f "$conf" -N "node$1")
	else
		env "$marker" SLURM_CONF="$conf" slurmd -f "$conf" -N "node$1"
	fi
}

# The transient unit of nodeK's slurmd, named after the state directory so
# that two clusters never share one.
slurmd_unit() {
	printf 'gov-slurmd-%s-node%s.service\n' "$(printf '%s' "$dir" | cksum | cut -d' ' -f1)" "$1"
}

# nodeK's own cgroup where slurmd runs without systemd on v2 (start_slurmd),
# named after the state directory as its unit is.
slurmd_cgroup() {
	printf '%s/gov-nosystemd-%s-node%s\n' "$cgroup_root" "$(printf '%s' "$dir" | cksum | cut -d' ' -f1)" "$1"
}

show_logs() {
	local f
	for f in "$logs"/*.log; do
		[[ -f $f ]] || continue
		printf '==== %s (last 40 lines)\n' "$f" >&2
		tail -n 40 "$f" >&2
	done
}

# True when slurmctld and every slurmd of this cluster run (so the answers
# come from them, not from some other Slurm on the same ports).
daemons_alive() {
	local f k pid
	for ((k = 0; k <= nodes; k++)); do
		local_node "$((k > 0 ? k : 1))" || continue
		f=$run/slurmd-node$k.pid
		((k == 0)) && f=$run/slurmctld.pid
		pid=$(cat "$f" 2>/dev/null) || return 1
		grep -qzxF "$marker" "/proc/$pid/environ" 2>/dev/null || return 1
	done
}

wait_idle() {
	local deadline=$((SECONDS + timeout)) states
	while ((SECONDS < deadline)); do
		states=$(SLURM_CONF=$conf node_states 2>/dev/null || true)
		if SLURM_CONF=$conf all_idle && daemons_alive && [[ $(wc -l <<<"$states") -eq $nodes ]]; then
			return 0
		fi
		sleep 0.2
	done
	printf 'cluster.sh: nodes not idle after %ss:\n%s\n' "$timeout" "${states:-<no answer from slurmctld>}" >&2
	show_logs
	return 1
}

# Live (not zombie) processes of this cluster: those whose environment carries
# the daemon marker (munged, slurmctld, slurmd and every slurmstepd, which is
# re-parented to init), the client marker that as_user.sh sets (srun, sbatch,
# salloc and what they run), and whatever sits in the cluster's cgroups
# unless it carries another cluster's marker.
cluster_pids() {
	local p state
	{
		grep -lzxF -e "$marker" -e "$client_marker" /proc/[0-9]*/environ 2>/dev/null |
			sed 's|^/proc/\([0-9]*\)/environ$|\1|' || true
		cgroup_pids | while read -r p; do
			grep -qzE '^GOV_CLUSTER_(MARKER|CLIENT)=' "/proc/$p/environ" 2>/dev/null &&
				! grep -qzxF -e "$marker" -e "$client_marker" "/proc/$p/environ" 2>/dev/null &&
				continue
			printf '%s\n' "$p"
		done
	} | sort -un | while read -r p; do
		[[ $p == "$$" || $p == "$BASHPID" ]] && continue
		state=$(sed 's/^.*) \(.\).*$/\1/' "/proc/$p/stat" 2>/dev/null) || continue
		[[ $state == Z ]] || printf '%s\n' "$p"
	done
}

# Directories of this cluster's cgroups: Slurm names them slurm_<node> when
# several slurmd share a machine.
cluster_cgroups() {
	local c k n s=system.slice
	[[ -f $run/nodes ]] || return 0
	n=$(<"$run/nodes")
	[[ -f $run/slice ]] && s=$(<"$run/slice")
	# cgroup/v2: each node's steps live in its own scope (Debian builds
	# slurmd for several per machine), made by systemd or, with
	# IgnoreSystemd, by slurmd; in CgroupSlice's slice when set.
	for ((k = 1; k <= n; k++)); do
		[[ -d $cgroup_root/$s/node${k}_slurmstepd.scope ]] &&
			printf '%s\n' "$cgroup_root/$s/node${k}_slurmstepd.scope"
		[[ -d $(slurmd_cgroup "$k") ]] && slurmd_cgroup "$k"
	done
	for c in "${cgroup_controllers[@]}"; do
		for ((k = 1; k <= n; k++)); do
			[[ -d $cgroup_root/$c/slurm_node$k ]] && printf '%s\n' "$cgroup_root/$c/slurm_node$k"
		done
	done
	return 0
}

cgroup_pids() {
	local d
	while read -r d; do
		find "$d" -name cgroup.procs -exec cat {} + 2>/dev/null || true
	done < <(cluster_cgroups)
}

# Sends a signal to every live process of the cluster, then waits up to
# TENTHS tenths of a second for them to go. Returns 1 if some remain.
signal_and_wait() {
	local sig=$1 tenths=$2 pids i
	pids=$(cluster_pids)
	[[ -z $pids ]] && return 0
	# shellcheck disable=SC2086 # one pid per word
	kill "-$sig" $pids 2>/dev/null || true
	for ((i = 0; i < tenths; i++)); do
		[[ -z $(cluster_pids) ]] && return 0
		sleep 0.1
	done
	return 1
}

stop_cluster() {
	local d i
	[[ -d $dir ]] || return 0
	# Thaw frozen steps first, or they never see the signals.
	while read -r d; do
		find "$d" -name freezer.state -exec sh -c 'for f; do echo THAWED >"$f"; done' _ {} + 2>/dev/null || true
	done < <(cluster_cgroups | grep '/freezer/' || true)
	signal_and_wait TERM 10 || signal_and_wait KILL 50 ||
		die "processes survive SIGKILL: $(cluster_pids | tr '\n' ' ')"
	# A step that was ending may still hold its cgroup for a moment.
	for ((i = 0; i < 30; i++)); do
		while read -r d; do
			find "$d" -depth -type d -exec rmdir {} + 2>/dev/null || true
		done < <(cluster_cgroups)
		[[ -z $(cluster_cgroups) ]] && break
		signal_and_wait KILL 1 || true
	done
	while read -r d; do
		log "could not remove cgroup $d; processes in it: $(find "$d" -name cgroup.procs -exec cat {} + 2>/dev/null | tr '\n' ' ')"
	done < <(cluster_cgroups)
	if [[ -f $dir/munge/munged.pid && -f $run/munge_socket ]]; then
		rm -f "$(<"$run/munge_socket")" "$(<"$run/munge_socket").lock"
	fi
	rm -f "$run"/*.pid "$dir/munge/munged.pid"
	remove_fake_devices
	return 0
}

# Restarts nodeK's slurmd as start started it; its running steps go on
# (slurmstepd outlives slurmd, in its own scope or cgroup).
restart_slurmd() {
	need_root
	[[ $node =~ ^[1-9][0-9]?$ && -f $run/settings ]] ||
		die "restart-slurmd needs --node K of a started cluster (--dir)"
	nodes=$(<"$run/nodes")
	local_node "$node" || die "node$node does not run on this machine"
	cgroup=$(sed -n 's/^cgroup=//p' "$run/settings")
	systemd=$(sed -n 's/^systemd=//p' "$run/settings")
	local pid i
	if [[ $cgroup == v2 && $systemd == yes ]]; then
		systemctl stop "$(slurmd_unit "$node")"
	else
		pid=$(cat "$run/slurmd-node$node.pid")
		kill "$pid"
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
	fi
	start_slurmd "$node" || die "slurmd node$node did not start again"
	log "slurmd of node$node restarted"
}
