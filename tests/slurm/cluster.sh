#!/usr/bin/env bash
# A throwaway Slurm cluster (22.05, 24.11 or 26.05) on loopback: munged, slurmctld and N
# emulated nodes (slurmd -N nodeK), all configured from a state directory so
# the machine's /etc/slurm is never read or touched. See docs/testing.md.
set -euo pipefail

usage() {
	cat <<'EOF'
usage: cluster.sh start|stop|status|env|restart-slurmd [options]
  --dir DIR            state directory (default: $GOV_CLUSTER_DIR or /tmp/gov-cluster)
  --nodes N            emulated nodes (default 3)
  --plugin PATH        load this SPANK plugin (plugstack.conf: required PATH ARGS)
  --plugin-args ARGS   arguments for the plugin, one string ("default=off seal=optional")
  --task-plugin LIST   slurm.conf TaskPlugin (default task/cgroup,task/affinity; e.g.
                       task/affinity alone, to see a step that no cgroup limits)
  --conf-line KEY=VAL  one more slurm.conf line, after the generated settings
                       (repeatable; e.g. PrologFlags=contain)
  --cgroup-line KEY=VAL
                       one more cgroup.conf line (repeatable; e.g. 26.05's
                       CgroupJobIdPaths=yes; CgroupSlice=NAME also puts slurmd's
                       service in that slice, as the man page asks)
  --munge-socket PATH  socket of the MUNGE daemon (default /run/munge/munge.socket.2, where
                       libmunge looks unless told otherwise)
  --base-port P        slurmctld port; nodes use P+1..P+N (default 16817)
  --timeout S          seconds to wait for every node to be idle (default 180)
  --debug LEVEL        daemon log level: info (default), verbose, debug, debug2...
  --wait S             if another test cluster runs on this machine, wait up to S
                       seconds for it to stop (default 0: fail at once)
  --gpus LIST          emulated GPUs per node, a comma list ("4,2": node1 has 4,
                       node2 2, the others none): fake device nodes (made only
                       where none exist, removed by stop and by the next start)
                       and gres/gpu for them
  --gpu-kind KIND      nvidia (/dev/nvidiaN, default) or drm (/dev/dri/renderD128...)
  --constrain-devices yes|no
                       cgroup.conf ConstrainDevices (default no)
  --gres yes|no        declare the emulated GPUs to Slurm as gres/gpu (default yes);
                       no: the device nodes exist but Slurm does not know them
  --shards N           gres/shard as well, N shards on each emulated GPU
                       (gres.conf: a Name=shard line with File and Count per GPU)
  --mps N              gres/mps as well, a count of N on each emulated GPU
                       (gres.conf: a Name=mps line with File and Count per GPU)
  --mig yes|no         MIG on node1's first two GPUs (default no): GPU 0 as two
                       1g.5gb instances, GPU 1 as one 3g.20gb, each its GPU's
                       file and two fake /dev/nvidia-caps nodes (MultipleFiles=);
                       node1's other GPUs whole, Type=a100
  --cgroup v1|v2       CgroupPlugin=cgroup/v1 (default) or cgroup/v2; v2 needs a
                       unified hierarchy (the QEMU guest, tests/guest/)
  --node-order LIST    the order of the NodeName lines in slurm.conf, a comma
                       list of every node number ("3,1,2"): Slurm ranks a
                       step's nodes (SLURM_NODEID) in that order, not in the
                       hostlist's
  --topology-line LINE one line of topology.conf (repeatable; give
                       TopologyPlugin=topology/tree with --conf-line)
  --node-shape emulated|hardware
                       each node's CPUs: 2 CPUs on one socket, one thread per core
                       (emulated, default: every node the same, whatever the
                       machine), or the machine's own sockets, cores and threads as
                       slurmd -C reports them (hardware: for a node of real shape,
                       the QEMU guest's 2 sockets with SMT)
  --machines NAME=ADDR,...
                       separate machines, one node each (node K on the K-th):
                       each runs this script with the same options and starts
                       its own munged and slurmd, the first slurmctld too; the
                       node's line names its host and address, and its fake GPUs
                       are its own (no decoy gres: each has its own /dev)
  --node-line K=SPEC   nodeK's hardware part of the node line instead of the
                       shape's ("CPUs=4 ... RealMemory=2800"), for a machine
                       other than this one (repeatable)
  --munge-key FILE     use this MUNGE key (every machine of a cluster the same)
                       instead of a new random one
  --node K             restart-slurmd: the node whose slurmd restarts (only a
                       node this machine runs); its steps run on
  --systemd yes|no     v2 only: slurmd runs as a systemd service with Delegate=yes
                       and asks systemd over D-Bus for its scope (yes, default), or
                       cgroup.conf says IgnoreSystemd=yes, with EnableControllers=yes
                       where the series knows it (not 22.05) (no)
EOF
}

# shellcheck source=../lib/die.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/die.sh"

log() {
	printf 'cluster.sh: %s\n' "$*" >&2
}

[[ $# -ge 1 ]] || { usage >&2; exit 2; }
cmd=$1
shift

dir=${GOV_CLUSTER_DIR:-/tmp/gov-cluster}
nodes=3
plugin=
plugin_args=
task_plugin=task/cgroup,task/affinity
conf_lines=()
cgroup_lines=()
topology_lines=()
munge_socket=/run/munge/munge.socket.2
base_port=16817
timeout=180
debug=info
wait_other=0
gpus=
gpu_kind=nvidia
constrain_devices=no
declare_gres=yes
shards_per_gpu=0
mps_per_gpu=0
mig=no
cgroup=v1
systemd=yes
node_shape=emulated
machines=()
node_lines=()
node_order=
munge_key=
node=
while [[ $# -gt 0 ]]; do
	case $1 in
	--dir) dir=${2:?--dir needs a value}; shift 2 ;;
	--nodes) nodes=${2:?--nodes needs a value}; shift 2 ;;
	--plugin) plugin=${2:?--plugin needs a value}; shift 2 ;;
	--plugin-args) plugin_args=${2?--plugin-args needs a value}; shift 2 ;;
	--task-plugin) task_plugin=${2:?--task-plugin needs a value}; shift 2 ;;
	--conf-line) conf_lines+=("${2:?--conf-line needs KEY=VALUE}"); shift 2 ;;
	--topology-line) topology_lines+=("${2:?--topology-line needs a line of topology.conf}"); shift 2 ;;
	--cgroup-line) cgroup_lines+=("${2:?--cgroup-line needs KEY=VALUE}"); shift 2 ;;
	--munge-socket) munge_socket=${2:?--munge-socket needs a value}; shift 2 ;;
	--base-port) base_port=${2:?--base-port needs a value}; shift 2 ;;
	--timeout) timeout=${2:?--timeout needs a value}; shift 2 ;;
	--debug) debug=${2:?--debug needs a level}; shift 2 ;;
	--wait) wait_other=${2:?--wait needs seconds}; shift 2 ;;
	--gpus) gpus=${2:?--gpus needs a list such as 4,2}; shift 2 ;;
	--gpu-kind) gpu_kind=${2:?--gpu-kind needs nvidia or drm}; shift 2 ;;
	--constrain-devices) constrain_devices=${2:?--constrain-devices needs yes or no}; shift 2 ;;
	--gres) declare_gres=${2:?--gres needs yes or no}; shift 2 ;;
	--shards) shards_per_gpu=${2:?--shards needs a count}; shift 2 ;;
	--mps) mps_per_gpu=${2:?--mps needs a count}; shift 2 ;;
	--mig) mig=${2:?--mig needs yes or no}; shift 2 ;;
	--cgroup) cgroup=${2:?--cgroup needs v1 or v2}; shift 2 ;;
	--systemd) systemd=${2:?--systemd needs yes or no}; shift 2 ;;
	--node-shape) node_shape=${2:?--node-shape needs emulated or hardware}; shift 2 ;;
	--machines) IFS=, read -ra machines <<<"${2:?--machines needs NAME=ADDR,...}"; shift 2 ;;
	--node-order) node_order=${2:?--node-order needs a list such as 3,1,2}; shift 2 ;;
	--node-line) node_lines+=("${2:?--node-line needs K=SPEC}"); shift 2 ;;
	--munge-key) munge_key=${2:?--munge-key needs a file}; shift 2 ;;
	--node) node=${2:?--node needs a node number}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown option '$1'" ;;
	esac
done
[[ $task_plugin =~ ^task/[a-z]+(,task/[a-z]+)*$ ]] ||
	die "--task-plugin takes a comma list such as task/cgroup,task/affinity, got '$task_plugin'"
for line in ${conf_lines[@]+"${conf_lines[@]}"}; do
	[[ $line =~ ^[A-Za-z]+=[^[:cntrl:]]+$ ]] ||
		die "--conf-line takes one slurm.conf setting such as PrologFlags=contain, got '$line'"
done
slice=system.slice
for line in ${cgroup_lines[@]+"${cgroup_lines[@]}"}; do
	[[ $line =~ ^[A-Za-z]+=[^[:cntrl:][:space:]]+$ ]] ||
		die "--cgroup-line takes one cgroup.conf setting such as CgroupJobIdPaths=yes, got '$line'"
	if [[ $line == CgroupSlice=* ]]; then
		slice=${line#*=}
		[[ $slice =~ ^[A-Za-z0-9_-]+\.slice$ ]] || die "CgroupSlice takes a systemd slice such as gov.slice, got '$slice'"
	fi
done
[[ $nodes =~ ^[1-9][0-9]?$ ]] || die "--nodes must be between 1 and 99, got '$nodes'"
[[ -z $gpus || $gpus =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--gpus takes a comma list of counts such as 4,2, got '$gpus'"
[[ $gpu_kind == nvidia || $gpu_kind == drm ]] || die "--gpu-kind takes nvidia or drm, got '$gpu_kind'"
[[ $constrain_devices == yes || $constrain_devices == no ]] ||
	die "--constrain-devices takes yes or no, got '$constrain_devices'"
[[ $declare_gres == yes || $declare_gres == no ]] || die "--gres takes yes or no, got '$declare_gres'"
[[ $shards_per_gpu =~ ^[0-9]+$ && $mps_per_gpu =~ ^[0-9]+$ ]] || die "--shards and --mps take a count"
[[ $mig == yes || $mig == no ]] || die "--mig takes yes or no, got '$mig'"
[[ $mig == no || ($gpu_kind == nvidia && ${gpus%%,*} -ge 2 && $shards_per_gpu == 0 && $mps_per_gpu == 0 && ${#machines[@]} -eq 0) ]] ||
	die "--mig needs --gpus with at least 2 on node1, NVIDIA's kind, no --shards or --mps, one machine"
[[ $cgroup == v1 || $cgroup == v2 ]] || die "--cgroup takes v1 or v2, got '$cgroup'"
[[ $systemd == yes || $systemd == no ]] || die "--systemd takes yes or no, got '$systemd'"
[[ $node_shape == emulated || $node_shape == hardware ]] ||
	die "--node-shape takes emulated or hardware, got '$node_shape'"
[[ $systemd == yes || $cgroup == v2 ]] || die "--systemd no is a cgroup/v2 setting (IgnoreSystemd)"
for m in ${machines[@]+"${machines[@]}"}; do
	[[ $m =~ ^[a-z][a-z0-9-]*=[0-9a-f.:]+$ ]] || die "--machines takes NAME=ADDR,... such as gova=169.254.10.1, got '$m'"
done
for line in ${node_lines[@]+"${node_lines[@]}"}; do
	[[ $line =~ ^[1-9][0-9]?=[A-Za-z]+=[^[:cntrl:]]+$ ]] ||
		die "--node-line takes K=SPEC such as 2=CPUs=4 RealMemory=2800, got '$line'"
done
[[ -z $munge_key || -f $munge_key ]] || die "--munge-key: no file '$munge_key'"
if [[ ${#machines[@]} -gt 0 ]]; then
	nodes=${#machines[@]}
fi
if [[ -z $node_order ]]; then
	node_order=$(seq -s, 1 "$nodes")
fi
[[ $(tr , '\n' <<<"$node_order" | sort -n | paste -sd,) == "$(seq -s, 1 "$nodes")" ]] ||
	die "--node-order takes every node number 1-$nodes once, such as 3,1,2, got '$node_order'"
[[ $base_port =~ ^[0-9]+$ ]] || die "--base-port must be a number, got '$base_port'"
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout must be a number of seconds, got '$timeout'"
[[ $wait_other =~ ^[0-9]+$ ]] || die "--wait must be a number of seconds, got '$wait_other'"
[[ $dir == /* ]] || dir=$PWD/$dir
dir=${dir%/}
[[ $dir != / && -n $dir ]] || die "--dir must not be /"

etc=$dir/etc
run=$dir/run
logs=$dir/log
conf=$etc/slurm.conf
# Fake GPU device nodes this cluster made, one path per line (outside run/,
# which every start wipes, so a crashed run's devices are still found).
fake_devices=$dir/fake-devices

# Every process this cluster starts carries this marker in its environment,
# so stop can find exactly ours (slurmstepd is re-parented to init).
marker="GOV_CLUSTER_MARKER=$dir"
client_marker="GOV_CLUSTER_CLIENT=$dir"

cgroup_root=/sys/fs/cgroup
cgroup_controllers=(freezer cpuset memory devices cpuacct cpu pids blkio)

here=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=nodes.sh
source "$here/nodes.sh"
# shellcheck source=cluster/config.sh
source "$here/cluster/config.sh"
# shellcheck source=cluster/devices.sh
source "$here/cluster/devices.sh"
# shellcheck source=cluster/daemons.sh
source "$here/cluster/daemons.sh"

# With --machines: nodeK's machine's host name and address.
machine_name() {
	local m=${machines[$1 - 1]}
	printf '%s\n' "${m%%=*}"
}
machine_addr() {
	local m=${machines[$1 - 1]}
	printf '%s\n' "${m#*=}"
}

# local_node K: this machine runs nodeK's slurmd (every node, without
# --machines); the one that runs node1's also runs slurmctld.
local_node() {
	[[ ${#machines[@]} -eq 0 || $(machine_name "$1") == "$(hostname -s)" ]]
}

need_root() {
	[[ $(id -u) -eq 0 ]] || die "must run as root (daemons, cgroups); try: sudo $0 $cmd"
}

install_packages() {
	local missing=()
	command -v munged >/dev/null || missing+=(munge)
	command -v slurmctld >/dev/null || missing+=(slurmctld)
	command -v slurmd >/dev/null || missing+=(slurmd)
	command -v srun >/dev/null || missing+=(slurm-client)
	[[ ${#missing[@]} -eq 0 ]] && return 0
	log "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2 ||
		die "could not install ${missing[*]}; install them with apt-get"
}

# A setting that a Slurm series dropped is logged, not fatal (24.11: 'The
# option "CgroupAutomount" is defunct'; 26.05 says so of some in the same
# words, or that one 'has been removed'): refuse it, so that the generated
# configuration stays one that every supported series accepts.
check_config_accepted() {
	local bad
	bad=$(grep -hE 'is defunct|unrecognized key|has been removed' "$logs"/slurm*.log 2>/dev/null | sort -u) || true
	[[ -z $bad ]] || die "Slurm $(slurm_version) rejects part of the generated configuration:
$bad"
}

slurm_version() {
	SLURM_CONF=$conf scontrol version 2>/dev/null || echo '(unknown version)'
}

check_cgroups() {
	local c
	if [[ $cgroup == v2 ]]; then
		for c in cpuset memory cpu; do
			grep -qw "$c" "$cgroup_root/cgroup.controllers" 2>/dev/null ||
				die "no '$c' controller in $cgroup_root/cgroup.controllers: Slurm's cgroup/v2 plugin needs a unified hierarchy with cpuset, memory and cpu"
		done
		[[ $systemd == no || -S /run/dbus/system_bus_socket ]] ||
			die "--systemd yes needs systemd as init and D-Bus (no /run/dbus/system_bus_socket); or use --systemd no"
		return 0
	fi
	for c in freezer cpuset memory; do
		[[ -f $cgroup_root/$c/cgroup.procs ]] ||
			die "no cgroup v1 '$c' hierarchy at $cgroup_root/$c: Slurm's cgroup/v1 plugin needs freezer, cpuset and memory mounted there"
	done
}

# State directories of the other test clusters running on this machine, from
# the marker in their processes' environment.
other_clusters() {
	grep -ahzo '^GOV_CLUSTER_MARKER=.*' /proc/[0-9]*/environ 2>/dev/null |
		tr '\0' '\n' | sort -u | grep -vxF "$marker" | cut -d= -f2- || true
}

# Waits up to --wait seconds until no other test cluster runs, then keeps a
# lock (fd 9, never passed to the daemons) until this start ends, so two
# starts cannot race.
claim_machine() {
	local others deadline=$((SECONDS + wait_other))
	exec 9>>/run/gov-cluster.lock
	while true; do
		flock 9
		others=$(other_clusters)
		[[ -z $others ]] && break
		flock -u 9
		((SECONDS < deadline)) ||
			die "another test cluster is running from $(tr '\n' ' ' <<<"$others"); stop it with: $0 stop --dir DIR (or pass --wait S)"
		sleep 1
	done
}

check_ports() {
	local p
	for ((p = base_port; p <= base_port + nodes; p++)); do
		local_node "$((p > base_port ? p - base_port : 1))" || continue
		if ss -Hltn "sport = :$p" 2>/dev/null | grep -q .; then
			die "port $p is in use (another Slurm?); pick other ports with --base-port P"
		fi
	done
}

start() {
	need_root
	install_packages
	check_cgroups
	# Claim the machine before stopping a cluster of this directory, so that
	# a restart (new options) cannot let another waiting cluster in.
	claim_machine
	stop_cluster
	check_ports
	# Whatever fails from here on, leave no daemon behind.
	trap 'stop_cluster; log "start failed; logs in $logs"' EXIT
	# Fresh daemon logs and state for every cluster; only our own
	# subdirectories. log/cases/ is run.sh's: a case may restart the
	# cluster (restart_cluster in lib.sh) while its log is open there.
	rm -rf "${dir:?}"/{etc,run,state,spool,munge,lib,bin}
	rm -f "$logs"/*.log
	mkdir -p "$dir"
	write_config
	make_fake_devices
	start_munge
	local k
	if local_node 1; then
		env "$marker" SLURM_CONF="$conf" slurmctld -f "$conf" -c -i 9>&- ||
			{ show_logs; die "slurmctld did not start"; }
	fi
	for ((k = 1; k <= nodes; k++)); do
		local_node "$k" || continue
		start_slurmd "$k" 9>&- || { show_logs; die "slurmd node$k did not start"; }
	done
	wait_idle || die "the cluster did not come up (logs above)"
	check_config_accepted
	trap - EXIT
	log "up: $nodes nodes idle; eval \"\$($0 env --dir $dir)\""
}

stop() {
	need_root
	stop_cluster
	log "stopped (state kept in $dir for post-mortem)"
}

status() {
	local p name rc=0
	for p in $(cluster_pids); do
		name=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null || true)
		printf '%-8s %s\n' "$p" "$name"
	done
	if [[ -f $conf ]] && SLURM_CONF=$conf node_states; then
		:
	else
		printf 'slurmctld: not answering\n'
		rc=1
	fi
	return $rc
}

print_env() {
	[[ -f $conf ]] || die "no cluster configuration in $dir; run: $0 start --dir $dir"
	printf 'export SLURM_CONF=%q\n' "$conf"
	printf 'export GOV_CLUSTER_DIR=%q\n' "$dir"
	printf 'export GOV_CLUSTER_NODES=%q\n' "$(<"$run/nodes")"
	printf 'export GOV_CLUSTER_LOGS=%q\n' "$logs"
	printf 'export GOV_MUNGE_SOCKET=%q\n' "$(<"$run/munge_socket")"
}

# The daemons run in the normal class even when this is called from a
# SCHED_IDLE lane (tests/run-all.sh): there they would wait behind every
# other process and miss the deadlines of Slurm's own RPCs.
if [[ $cmd == start || $cmd == restart-slurmd ]] && [[ $(chrt -p $$ 2>/dev/null) == *SCHED_IDLE* ]]; then
	chrt --other -p 0 $$
fi

case $cmd in
start) start ;;
stop) stop ;;
status) status ;;
env) print_env ;;
restart-slurmd) restart_slurmd ;;
-h | --help | help) usage ;;
*) usage >&2; die "unknown command '$cmd'" ;;
esac
