# shellcheck shell=bash
# Helpers for the governor.so cases (tests/slurm/cases/gov_*.sh), on top of
# lib.sh: the built `governor` tool, plugstack lines for the plugin, and
# reading a task's sealed descriptor.
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_plugin
[[ -x $GOV_BUILD_DIR/tool/governor ]] || die "no tool/governor in the build directory: build it first"
# A copy the test user can run, wherever the build tree lives.
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
export GOV_TOOL

# gov_plugstack [ARGS...]: the plugin's plugstack.conf line with these
# arguments (none: the defaults).
# shellcheck disable=SC2120 # called with and without arguments
gov_plugstack() {
	set_plugstack "required $GOV_PLUGIN $*"
}

# trusted_socket_dir: a directory of root's (not under the sticky /tmp) for
# the MUNGE sockets cases name with munge_socket=: the plugin trusts no
# other (issue 26, item 2).
trusted_socket_dir() {
	local d=/run/gov-test-munge
	mkdir -p "$d" && chmod 755 "$d" && printf '%s\n' "$d"
}

# dead_munge_socket: a socket of root's in trusted_socket_dir that nobody
# listens on (MUNGE unreachable: every seal fails); prints its path.
dead_munge_socket() {
	local dead
	dead=$(trusted_socket_dir)/gov-dead-munge.socket
	rm -f "$dead"
	python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$dead"
	chmod 777 "$dead"
	printf '%s\n' "$dead"
}

# A task-side shell snippet printing "KEY=VALUE" lines of the task's sealed
# payload (unmunge as the task's user; the credential is only read).  The
# quotes are meant literally: the task evals the text.
# shellcheck disable=SC2016,SC2089,SC2090
GOV_PAYLOAD='printf "%s" "$GOVERNOR_DESCRIPTOR" | unmunge -m /dev/null'
# shellcheck disable=SC2090
export GOV_PAYLOAD

# field NAME TEXT: the value of NAME=... in TEXT (one payload).
field() {
	sed -n "s/^$1=//p" <<<"$2" | head -n1
}

# assert_idle: every node is idle again (run.sh checks too; cases that
# start several jobs check in between).
assert_idle() {
	local deadline=$((SECONDS + 120))
	while ((SECONDS < deadline)); do
		all_idle && return 0
		sleep 0.2
	done
	fail "every node idle" "$(node_states | tr '\n' ' ')"
}

# user_namespaces: 0 when the test user can make a user namespace (and
# bubblewrap is there to use it); 1 in a Slurm root, a chroot
# (tests/slurm/chroot.sh), where the kernel refuses user namespaces to the
# chrooted process: a fact of the machine the caller names; anywhere else
# a refusal fails the case.
user_namespaces() {
	if as_user unshare --user true 2>/dev/null; then
		command -v bwrap >/dev/null || die "bubblewrap is missing (tests/install-deps.sh installs it)"
		return 0
	fi
	[[ $(stat -c %d:%i /) != "$(stat -c %d:%i /proc/1/root/ 2>/dev/null)" ]] ||
		die "the test user cannot make a user namespace (kernel.unprivileged_userns_clone=0?)"
	return 1
}
CHROOT_NO_USERNS="this Slurm runs in a chroot (chroot.sh), where the kernel refuses user namespaces (CLONE_NEWUSER: EPERM)"

# gov_python_copy: copies the Python binding and the built library where the
# test user can read them; prints the directory (PYTHONPATH; the library is
# DIR/libgovernor.so, for GOVERNOR_LIBRARY).
gov_python_copy() {
	local py=$GOV_CLUSTER_DIR/python
	rm -rf "$py" && mkdir -p "$py"
	cp -r "$GOV_SRC_DIR/contrib/python/governor" "$py/"
	cp -L "$GOV_BUILD_DIR/runtime/libgovernor.so" "$py/libgovernor.so"
	chmod -R a+rX "$py"
	printf '%s\n' "$py"
}

# gpu_cluster [--gpu-kind drm] [--constrain-devices no] [--gpus LIST]:
# restarts the cluster with emulated GPUs (default: 4 on node1, 2 on node2,
# ConstrainDevices=yes) for the rest of the case; cluster.sh removes the
# fake devices when the cluster stops or restarts.
# shellcheck disable=SC2120 # called with and without options
gpu_cluster() {
	local real
	real=$(compgen -G '/dev/nvidia[0-9]*' || compgen -G '/dev/dri/renderD*' || true)
	if [[ -n $real && ! -f $GOV_CLUSTER_DIR/fake-devices ]]; then
		skip "this machine has GPU device nodes ($(head -n1 <<<"$real")); emulated GPUs are made only where none exist"
	fi
	restart_cluster --gpus 4,2 --constrain-devices yes "$@"
	GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
	GPU_PROBE=$(user_copy "$GOV_SLURM_TESTS/gpu_probe.sh")
	gov_plugstack
}

# gpu_probe KIND SRUN_ARGS...: runs gpu_probe.sh in each task of one srun;
# prints its lines, each prefixed with the task's rank.
gpu_probe() {
	local kind=$1
	shift
	as_user srun -l "$@" "$GPU_PROBE" "$GOV_TOOL" "$kind"
}

# gpu_expect OUT RANK "KERNEL" "SEALED" "VARIABLES": the probe lines of one
# task (see gpu_probe.sh): kernel ALLOWED DENIED; sealed and variables:
# SOURCE GPUS VERIFIED ENFORCEMENT CUDA_VISIBLE_COUNT.
gpu_expect() {
	local out=$1 rank=$2
	assert_line "$rank: kernel $3" "$out" "task $rank: open() of each GPU node"
	assert_line "$rank: sealed $4" "$out" "task $rank: its snapshot"
	assert_line "$rank: variables $5" "$out" "task $rank: recomputed from its variables"
}

# wait_for_line FILE LINE: until FILE holds the line LINE (a process the
# case started says it is ready), at most 120 s; dies with FILE's text.
wait_for_line() {
	local deadline=$((SECONDS + 120))
	until grep -qx "$2" "$1" 2>/dev/null || ((SECONDS >= deadline)); do
		sleep 0.2
	done
	grep -qx "$2" "$1" 2>/dev/null || die "no '$2' in $1: $(cat "$1" 2>/dev/null)"
}

# The fault cases (gov_fault_*.sh) end with the same three checks.

# log_mark: where each slurmd log ends now (slurmd's logs hold slurmstepd's
# and the plugin's lines); log_since MARK prints what they got after it.
log_mark() {
	local f
	for f in "$GOV_CLUSTER_LOGS"/slurmd-node*.log; do
		printf '%s=%s ' "$f" "$(stat -c %s "$f" 2>/dev/null || echo 0)"
	done
}
log_since() {
	local entry
	for entry in $1; do
		tail -c +"$((${entry##*=} + 1))" "${entry%=*}" 2>/dev/null || true
	done
}

# assert_no_drain: no node is drained or down (sinfo -R lists none).
assert_no_drain() {
	local reasons
	reasons=$(sinfo -R -h)
	check "nodes drained or down" "" "$reasons"
	assert_idle
}

# assert_refused PATTERN: a governed one-task step does not start, srun
# fails, and its error output matches PATTERN (the plugin's message).
assert_refused() {
	local out rc=0
	out=$(as_user srun --governor -n1 echo should-not-run 2>&1) || rc=$?
	printf '%s\n' "$out"
	check "srun fails where its task should not start" 1 "$((rc != 0))"
	assert_no_match 'should-not-run' "$out" "task output"
	assert_match "$1" "$out" "the message"
}

# assert_next_step_works: a fresh governed step runs and verifies.
assert_next_step_works() {
	local out
	out=$(as_user srun --governor -n1 "$GOV_TOOL" verify --json | jq -r .status)
	assert_eq verified "$out" "the next governed step"
}
