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

# node_hardware K: the hardware part of nodeK's line: --node-line K=SPEC,
# else the shape's CPUs and the default memory.
node_hardware() {
	local line
	for line in ${node_lines[@]+"${node_lines[@]}"}; do
		[[ ${line%%=*} == "$1" ]] && { printf '%s\n' "${line#*=}"; return; }
	done
	printf '%s RealMemory=%d\n' "$(node_cpus)" 2000
}

# The CPU part of a node line: the emulated shape, or the machine's own
# from slurmd -C (CPUs, Boards, SocketsPerBoard, CoresPerSocket,
# ThreadsPerCore).
node_cpus() {
	if [[ $node_shape == emulated ]]; then
		printf 'CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1'
		return
	fi
	slurmd -C | head -n1 | tr ' ' '\n' |
		grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=' | paste -sd' '
}

write_config() {
	local host k ctl_addr=127.0.0.1
	host=$(hostname -s)
	if [[ ${#machines[@]} -gt 0 ]]; then
		host=$(machine_name 1)
		ctl_addr=$(machine_addr 1)
	fi
	mkdir -p "$etc" "$run" "$logs" "$dir/state" "$dir/spool"
	chmod 755 "$dir" "$etc" "$run" "$logs"
	cat >"$conf" <<EOF
# Generated by tests/slurm/cluster.sh; thrown away by 'cluster.sh stop'.
ClusterName=govtest
SlurmctldHost=$host($ctl_addr)
SlurmctldPort=$base_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$munge_socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd-%n.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd-%n.log
SlurmctldDebug=$debug
SlurmdDebug=$debug
PlugStackConfig=$etc/plugstack.conf
MpiDefault=none
SwitchType=switch/none
ProctrackType=proctrack/cgroup
TaskPlugin=$task_plugin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# Jobs without --mem get memory per CPU, as on most real clusters (without
# it a job takes all of a node's memory and jobs never share a node).
DefMemPerCPU=500
SlurmdParameters=config_overrides
ReturnToService=2
InactiveLimit=0
KillWait=2
MinJobAge=300
SlurmdTimeout=60
MessageTimeout=10
TmpFS=/tmp
MailProg=/bin/true
EOF
	# A case's extra settings come after the defaults: for a key given
	# twice, slurmctld and slurmd keep the later value.
	if [[ ${#conf_lines[@]} -gt 0 ]]; then
		printf '%s\n' "${conf_lines[@]}" >>"$conf"
	fi
	for k in ${node_order//,/ }; do
		mkdir -p "$dir/spool/slurmd-node$k"
		if [[ ${#machines[@]} -gt 0 ]]; then
			printf 'NodeName=node%d NodeHostname=%s NodeAddr=%s' "$k" "$(machine_name "$k")" "$(machine_addr "$k")"
		else
			printf 'NodeName=node%d NodeHostname=%s NodeAddr=127.0.0.1' "$k" "$host"
		fi >>"$conf"
		printf ' Port=%d %s%s State=UNKNOWN\n' $((base_port + k)) "$(node_hardware "$k")" "$(node_gres "$k")" >>"$conf"
	done
	write_gres
	printf 'PartitionName=debug Nodes=node[1-%d] Default=YES MaxTime=10 State=UP\n' "$nodes" >>"$conf"
	if [[ $cgroup == v1 ]]; then
		printf 'CgroupPlugin=cgroup/v1\nCgroupMountpoint=%s\n' "$cgroup_root"
	else
		printf 'CgroupPlugin=cgroup/v2\n'
		# Without systemd, slurmd makes its scope and (EnableControllers)
		# enables the root's controllers down to it itself; 22.05 does not
		# know that key ("unrecognized key") and leaves it to the site.
		if [[ $systemd == no ]]; then
			printf 'IgnoreSystemd=yes\n'
			[[ $(slurmd -V) == *" 22.05."* ]] || printf 'EnableControllers=yes\n'
		fi
	fi >"$etc/cgroup.conf"
	cat >>"$etc/cgroup.conf" <<EOF
ConstrainCores=yes
ConstrainRAMSpace=yes
ConstrainSwapSpace=no
ConstrainDevices=$constrain_devices
EOF
	printf '%s\n' ${cgroup_lines[@]+"${cgroup_lines[@]}"} >>"$etc/cgroup.conf"
	rm -f "$etc/topology.conf"
	if [[ ${#topology_lines[@]} -gt 0 ]]; then
		printf '%s\n' "${topology_lines[@]}" >"$etc/topology.conf"
		chmod 644 "$etc/topology.conf"
	fi
	if [[ -n $plugin ]]; then
		[[ -f $plugin ]] || die "plugin '$plugin' does not exist; build it first"
		# A copy the test user can always read (srun loads the plugin too,
		# and a build tree under /root is closed to others).
		mkdir -p "$dir/lib"
		chmod 755 "$dir/lib"
		install -m 755 "$plugin" "$dir/lib/$(basename "$plugin")"
		printf 'required %s %s\n' "$dir/lib/$(basename "$plugin")" "$plugin_args" >"$etc/plugstack.conf"
	else
		: >"$etc/plugstack.conf"
	fi
	chmod 644 "$conf" "$etc/cgroup.conf" "$etc/plugstack.conf"
	printf '%s\n' "$nodes" >"$run/nodes"
	printf '%s\n' "$slice" >"$run/slice"
	printf '%s\n' "$munge_socket" >"$run/munge_socket"
	# What restart-slurmd needs to start a node's slurmd the same way.
	printf 'cgroup=%s\nsystemd=%s\n' "$cgroup" "$systemd" >"$run/settings"
}

# ---- emulated GPUs (--gpus) ------------------------------------------------

# gpu_count K: the emulated GPUs of nodeK (none past the --gpus list).
gpu_count() {
	local -a list
	IFS=, read -ra list <<<"$gpus"
	printf '%s\n' "${list[$1 - 1]:-0}"
}

gpu_total() {
	local k t=0
	for ((k = 1; k <= nodes; k++)); do
		t=$((t + $(gpu_count "$k")))
	done
	printf '%s\n' "$t"
}

# gpu_path I: the device node of emulated GPU I (numbered across the nodes).
gpu_path() {
	if [[ $gpu_kind == nvidia ]]; then
		printf '/dev/nvidia%d\n' "$1"
	else
		printf '/dev/dri/renderD%d\n' $((128 + $1))
	fi
}

# node_gres K: the Gres= of nodeK's line. Emulated nodes also list the
# other nodes' GPU files as "nic", a gres nobody requests: they share one
# /dev, and slurmd denies only the gres files its node knows about.
# Separate machines (--machines) each have their own /dev.
node_gres() {
	local own total
	own=$(gpu_count "$1")
	total=$(gpu_total)
	((total > 0)) && [[ $declare_gres == yes ]] || return 0
	if [[ ${#machines[@]} -gt 0 ]]; then
		((own == 0)) || printf ' Gres=gpu:%d' "$own"
	elif ((own == 0)); then
		printf ' Gres=nic:%d' "$total"
	elif ((own == total)); then
		printf ' Gres=gpu:%d' "$own"
	else
		printf ' Gres=gpu:%d,nic:%d' "$own" $((total - own))
	fi
}

write_gres() {
	local k i first own
	: >"$etc/gres.conf"
	[[ -n $gpus && $(gpu_total) -gt 0 && $declare_gres == yes ]] || return 0
	if [[ ${#machines[@]} -gt 0 ]]; then
		printf 'GresTypes=gpu\n' >>"$conf"
		for ((k = 1; k <= nodes; k++)); do
			for ((i = 0; i < $(gpu_count "$k"); i++)); do
				printf 'NodeName=node%d Name=gpu File=%s\n' "$k" "$(gpu_path "$i")"
			done
		done >>"$etc/gres.conf"
		chmod 644 "$etc/gres.conf"
		return 0
	fi
	printf 'GresTypes=gpu,nic\n' >>"$conf"
	first=0
	for ((k = 1; k <= nodes; k++)); do
		own=$(gpu_count "$k")
		for ((i = 0; i < $(gpu_total); i++)); do
			if ((i >= first && i < first + own)); then
				printf 'NodeName=node%d Name=gpu File=%s\n' "$k" "$(gpu_path "$i")"
			else
				printf 'NodeName=node%d Name=nic File=%s\n' "$k" "$(gpu_path "$i")"
			fi
		done >>"$etc/gres.conf"
		first=$((first + own))
	done
	chmod 644 "$etc/gres.conf"
}

# Device nodes with no driver behind them (open gives ENXIO): enough for
# gres and the device cgroup, which look only at the major and minor. Made
# only where no such node exists, so a real GPU is never shadowed.
make_fake_devices() {
	local i total paths=() p
	remove_fake_devices
	total=$(gpu_total)
	# Separate machines: this one's own GPUs, numbered from 0.
	if [[ ${#machines[@]} -gt 0 ]]; then
		total=0
		for ((i = 1; i <= nodes; i++)); do
			local_node "$i" && total=$((total + $(gpu_count "$i")))
		done
	fi
	[[ -n $gpus ]] && ((total > 0)) || return 0
	for ((i = 0; i < total; i++)); do
		paths+=("$(gpu_path "$i")")
	done
	[[ $gpu_kind == nvidia ]] && paths+=(/dev/nvidiactl)
	for p in "${paths[@]}"; do
		[[ ! -e $p ]] || die "$p already exists; fake GPUs are made only where no such device is (a real GPU, or a run that is still going)"
	done
	if [[ $gpu_kind == drm && ! -d /dev/dri ]]; then
		mkdir /dev/dri
		printf '/dev/dri\n' >>"$fake_devices"
	fi
	for ((i = 0; i < total; i++)); do
		p=$(gpu_path "$i")
		if [[ $gpu_kind == nvidia ]]; then
			mknod -m 666 "$p" c 195 "$i"
		else
			mknod -m 666 "$p" c 226 $((128 + i))
		fi
		printf '%s\n' "$p" >>"$fake_devices"
	done
	if [[ $gpu_kind == nvidia ]]; then
		mknod -m 666 /dev/nvidiactl c 195 255
		printf '/dev/nvidiactl\n' >>"$fake_devices"
	fi
}

# Removes what make_fake_devices made, in reverse order (the directory last).
remove_fake_devices() {
	local p
	[[ -f $fake_devices ]] || return 0
	while read -r p; do
		if [[ -c $p ]]; then
			rm -f "$p"
		elif [[ -d $p ]]; then
			rmdir "$p" 2>/dev/null || log "could not remove $p (not empty)"
		fi
	done < <(tac "$fake_devices")
	rm -f "$fake_devices"
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

node_states() {
	SLURM_CONF=$conf sinfo -h -N -o '%N %t' 2>/dev/null
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
		states=$(node_states || true)
		if [[ -n $states ]] && ! grep -qv ' idle$' <<<"$states" && daemons_alive &&
			[[ $(wc -l <<<"$states") -eq $nodes ]]; then
			return 0
		fi
		sleep 0.2
	done
	printf 'cluster.sh: nodes not idle after %ss:\n%s\n' "$timeout" "${states:-<no answer from slurmctld>}" >&2
	show_logs
	return 1
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
	if [[ -f $conf ]] && node_states; then
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
