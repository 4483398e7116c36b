# shellcheck shell=bash
# Helpers for the governor.so cases (tests/slurm/cases/gov_*.sh), on top of
# lib.sh: the built `governor` tool, plugstack lines for the plugin, and
# reading a task's sealed descriptor.
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_plugin
[[ -x $GOV_BUILD_DIR/runtime/governor ]] || skip "no runtime/governor in the build directory"
# A copy the test user can run, wherever the build tree lives.
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/runtime/governor")
export GOV_TOOL

# gov_plugstack [ARGS...]: the plugin's plugstack.conf line with these
# arguments (none: the defaults).
# shellcheck disable=SC2120 # called with and without arguments
gov_plugstack() {
	set_plugstack "required $GOV_PLUGIN $*"
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
	local i
	for ((i = 0; i < 100; i++)); do
		all_idle && return 0
		sleep 0.2
	done
	fail "nodes not idle: $(node_states | tr '\n' ' ')"
}

# gov_snapshot_ready: the `governor snapshot` verb is built.
gov_snapshot_ready() {
	"$GOV_TOOL" snapshot --json >/dev/null 2>&1
}

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
