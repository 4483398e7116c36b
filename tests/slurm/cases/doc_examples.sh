#!/usr/bin/env bash
# covers: v1
# v2: the examples show the host's cgroup v1 cluster, as the docs say; the v2 figures are memory_limit's and cpuset's; left out of the TCG guest for time
# The docs' examples are the tool's real output (issue 36): each example
# marked "<!-- example NAME: ... -->" in docs/*.md is run here in a real
# step, and doc_examples.py holds the example to what the tool printed
# (figures masked: a test node's differ from machine to machine).
# GOV_DOC_EXAMPLES=update rewrites the examples from this run instead.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
home=$(user_home)

# user-guide.md: a -c1 --mem=200M task that wrote and read back a 150 MB
# file (its page cache shows in the memory rows).
# shellcheck disable=SC2016 # expanded in the task
as_user srun --governor -n1 -c1 --mem=200M bash -c '
	f=$HOME/doc_examples.dat
	dd if=/dev/zero of="$f" bs=1M count=150 status=none && cat "$f" >/dev/null
	"$GOV_TOOL" snapshot; rm -f "$f"' >"$out/snapshot.out"
as_user srun --governor -n1 -c2 --mem=200M "$GOV_TOOL" plan >"$out/plan.out"
as_user env OMP_NUM_THREADS=8 srun --governor -n1 -c2 --mem=600M \
	"$GOV_TOOL" run --explain -- true >"$out/run_explain.out" 2>&1
# descriptor.md: verify's JSON in a plain step.
as_user srun --governor -n1 "$GOV_TOOL" verify --json >"$out/verify_json.out"
rm -f "$home/doc_examples.dat"
# user-guide.md and descriptor.md: a container with the admin guide's lines
# in place: podman's namespaces (user, PID, cgroup), a fresh /run with the
# run directory bound in; made with bubblewrap, as gov_container does.
# The kernel refuses a user namespace to a chrooted process, which is how
# the other Slurm series run here (as in gov_container): there the two
# examples are left to the host's series.
not_here=
if ! user_namespaces; then
	echo "$CHROOT_NO_USERNS: the container examples are checked on the host's series"
	not_here=container_snapshot,container_verify_json
else
	gov_plugstack handoff=munge,file
	bwrap='bwrap --unshare-user --bind / / --dev-bind /dev /dev --uid 0 --gid 0 --unshare-pid
		--proc /proc --unshare-cgroup --tmpfs /run --ro-bind /run/slurm-governor /run/slurm-governor --'
	# shellcheck disable=SC2086 # the bwrap line is words
	as_user srun --governor -n1 -c1 --mem=300M $bwrap "$GOV_TOOL" snapshot | sed -n '2,5p' \
		>"$out/container_snapshot.out"
	# shellcheck disable=SC2086
	as_user srun --governor -n1 -c1 --mem=300M $bwrap "$GOV_TOOL" verify --json \
		>"$out/container_verify_json.out"
fi
# rollout.md: doctor on a node with TaskPlugin=task/affinity only (exit 1:
# nothing holds the memory).
restart_cluster --task-plugin task/affinity
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
gov_plugstack
as_user srun --governor -n1 -c1 --mem=200M "$GOV_TOOL" doctor >"$out/doctor_affinity_only.out" || true

mode=${GOV_DOC_EXAMPLES:-check}
python3 "$GOV_SLURM_TESTS/doc_examples.py" "$mode" "$GOV_SRC_DIR/docs" "$out" "$not_here" ||
	die "the docs' examples differ from what the tool prints (above)"
assert_idle
