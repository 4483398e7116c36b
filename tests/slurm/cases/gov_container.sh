#!/usr/bin/env bash
# covers: v1 v2
# Containers (issue 34): a governed task runs the tool under bubblewrap in
# the shapes container runtimes give a task (docs/admin-guide.md,
# "Containers and sites without munged"): a user namespace keeping the uid
# (enroot) or mapping it to 0 (pyxis --container-remap-root), a PID
# namespace, a fresh tmpfs on /run (enroot's /var/run: munged's socket and
# the plugin's run directory hidden) with and without the lines the admin
# guide gives to bind them back, and a cgroup namespace (pyxis joins the
# container's), which hides the step's limits above the task.  With the
# site's setup in place (handoff=munge,file, the run directory bound in)
# every shape verifies and reports the step's memory, read outside the
# container; where both hand-offs are hidden the snapshot says so and never
# falls back to the host's memory.  In a user namespace munged's answer is
# unchecked (the user may run one there): the file, which carries root's
# mark, is the vouched-for descriptor wherever it is bound in.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

# The kernel refuses a user namespace to a chrooted process, which is how
# the other Slurm series run here (tests/slurm/chroot.sh).
user_namespaces || skip "$CHROOT_NO_USERNS"

gov_plugstack handoff=munge,file
mem=300
# The step's memory limit, read outside any container: the cgroup's, as
# the task sees it before it enters one.
# shellcheck disable=SC2016 # expanded in the task
outside=$(as_user srun --governor -n1 -c1 --mem=${mem}M bash -c \
	'"$GOV_TOOL" snapshot --json | jq -r "[.memory.cgroup.limit_bytes, .descriptor.via] | @tsv"')
read -r limit via <<<"$outside"
printf 'outside the container: cgroup limit %s, via %s\n' "$limit" "$via"
assert_eq $((mem << 20)) "$limit" "the step's cgroup limit, outside"
assert_eq munge "$via" "the hand-off outside a container"

user='--unshare-user --bind / / --dev-bind /dev /dev'
hide_run='--tmpfs /run'
bind_dir='--ro-bind /run/slurm-governor /run/slurm-governor'
bind_munge='--ro-bind /run/munge /run/munge'
# NAME|BWRAP ARGUMENTS|STATUS VIA REASON NAMESPACES UNCHECKED EFFECTIVE_MEMORY BINDING
shapes=(
	"user namespace, same uid (enroot)|$user|verified file - user none $((mem << 20)) cgroup"
	"user namespace, uid 0 (--container-remap-root)|$user --uid 0 --gid 0|verified file - user none $((mem << 20)) cgroup"
	"plus a PID namespace|$user --unshare-pid --proc /proc|verified file - user,pid ancestry $((mem << 20)) cgroup"
	"a fresh /run, nothing bound|$user --unshare-pid --proc /proc $hide_run|invalid - EUNREACHABLE user,pid - $((mem << 20)) cgroup"
	"a fresh /run, the run directory bound|$user --unshare-pid --proc /proc $hide_run $bind_dir|verified file - user,pid ancestry $((mem << 20)) cgroup"
	"a fresh /run, munged's socket bound|$user --unshare-pid --proc /proc $hide_run $bind_munge|verified munge - user,pid ancestry,munged $((mem << 20)) cgroup"
	"plus a cgroup namespace, the run directory bound|$user --uid 0 --gid 0 --unshare-pid --proc /proc --unshare-cgroup $hide_run $bind_dir|verified file - user,pid,cgroup ancestry $((mem << 20)) scheduler"
	"plus a cgroup namespace, nothing bound|$user --uid 0 --gid 0 --unshare-pid --proc /proc --unshare-cgroup $hide_run|invalid - EUNREACHABLE user,pid,cgroup - $(by_series 22.05="- -" 24.11="$((mem << 20)) scheduler" 26.05="$((mem << 20)) scheduler")"
)
# shellcheck disable=SC2016 # expanded in the task
q='[.descriptor.status, (.descriptor.via // "-"), (.descriptor.reason_code // "-"), .container.namespaces,
   (.descriptor.unchecked // "-"), (.memory.effective.limit_bytes // "-"), (.memory.effective.binding // "-")] | join(" ")'
for shape in "${shapes[@]}"; do
	IFS='|' read -r name args want <<<"$shape"
	# shellcheck disable=SC2016 # expanded in the task
	got=$(as_user srun --governor -n1 -c1 --mem=${mem}M bash -c \
		"bwrap $args -- \"\$GOV_TOOL\" snapshot --json | jq -r '$q'")
	printf '%-50s %s\n' "$name:" "$got"
	assert_eq "$want" "$got" "$name"
done

# A mount of the user's own that hides /proc/self/ns (a tmpfs over it, in a
# user and mount namespace): the process cannot name its namespaces, and
# each counts as its own, never as the step's, so the ancestry goes
# unchecked and the limits above the cgroup root count as hidden.
# shellcheck disable=SC2016 # expanded in the task
got=$(as_user srun --governor -n1 -c1 --mem=${mem}M bash -c \
	"unshare --user --map-root-user --mount sh -c 'mount -t tmpfs none /proc/\$\$/ns && exec \"\$GOV_TOOL\" snapshot --json'" |
	jq -r "($q) + \" \" + .container.namespaces_unknown")
printf '%-50s %s\n' "/proc/self/ns hidden:" "$got"
assert_eq "verified file - user,pid,cgroup ancestry $((mem << 20)) cgroup user,pid,cgroup" "$got" \
	"a process that hides /proc/self/ns"

# Rootless podman, where its cgroup namespace is real (cgroup v2; on this
# host's hybrid hierarchy crun refuses it): an image made from a Debian
# root (tests/guest/image.sh), its own user, mount, PID and cgroup
# namespaces, a fresh /run and a clean environment; the tool bound in; the
# container left in the task's cgroup (--cgroups=disabled: the user owns
# no cgroup to make one in) under a private cgroup namespace, which hides
# the step's limits.  With the admin guide's lines (the run directory and
# the variables passed) it verifies through the file.
if [[ $(cgroup_mode) == v2 ]]; then
	command -v podman >/dev/null || die "podman is missing (the guest's image.sh installs it)"
	image=/var/lib/gov-container.tar
	[[ -r $image ]] || die "no container image $image (the guest's image.sh makes it)"
	u=${GOV_TEST_USER:-govtest}
	grep -q "^$u:" /etc/subuid || usermod --add-subuids 200000-265535 --add-subgids 200000-265535 "$u"
	pm='podman --storage-driver=vfs --cgroup-manager=cgroupfs --events-backend=file'
	as_user $pm import --quiet "$image" localhost/gov-debian >/dev/null
	run="$pm run --rm --network=none --cgroups=disabled --cgroupns=private -v $GOV_TOOL:/usr/local/bin/governor:ro --env 'GOVERNOR_*' --env 'SLURM_*'"
	# On 24.11 and later srun exports the step's memory (SLURM_MEM_PER_NODE),
	# which the variables then give when no descriptor verifies.
	bare=$(by_series 22.05="- -" 24.11="$((mem << 20)) scheduler" 26.05="$((mem << 20)) scheduler")
	for shape in "the run directory bound|-v /run/slurm-governor:/run/slurm-governor:ro|verified file - user,pid,cgroup ancestry $((mem << 20)) scheduler" \
		"nothing bound||invalid - EUNREACHABLE user,pid,cgroup - $bare"; do
		IFS='|' read -r name args want <<<"$shape"
		got=$(as_user srun --governor -n1 -c1 --mem=${mem}M bash -c \
			"$run $args localhost/gov-debian governor snapshot --json 2>/dev/null" | jq -r "$q")
		printf '%-50s %s\n' "podman, $name:" "$got"
		assert_eq "$want" "$got" "podman, $name"
	done
	as_user $pm rmi --force localhost/gov-debian >/dev/null 2>&1 || true
fi

# What a runtime is told there: governor run sizes Go's heap from the
# sealed budget, not from the host (the cgroup namespace hides the limit).
cg="$user --uid 0 --gid 0 --unshare-pid --proc /proc --unshare-cgroup $hide_run"
# shellcheck disable=SC2016 # expanded in the task
gomem=$(as_user srun --governor -n1 -c1 --mem=${mem}M bash -c \
	"bwrap $cg $bind_dir -- \"\$GOV_TOOL\" run -- printenv GOMEMLIMIT")
printf 'GOMEMLIMIT in the cgroup namespace: %s\n' "$gomem"
[[ $gomem =~ ^([0-9]+)MiB$ ]] && ((BASH_REMATCH[1] > 0 && BASH_REMATCH[1] <= mem)) ||
	die "GOMEMLIMIT '$gomem' is not within the step's ${mem} MiB"
# Both hand-offs hidden: doctor names the hidden cgroups and what shows them.
# shellcheck disable=SC2016 # expanded in the task
doc=$(as_user srun --governor -n1 -c1 --mem=${mem}M bash -c \
	"bwrap $cg -- \"\$GOV_TOOL\" doctor --json; true")
assert_eq info "$(doctor_finding "$doc" cgroup.hidden severity)" "doctor's finding in a cgroup namespace"
assert_eq warn "$(doctor_finding "$doc" descriptor.unreachable severity)" "doctor's finding with both hand-offs hidden"
assert_no_drain
