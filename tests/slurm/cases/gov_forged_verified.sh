#!/usr/bin/env bash
# covers: v1
# v2: user namespaces and the seal are cgroup-independent (the budget under a cgroup namespace is resolve's rule, unit-tested); left out of the TCG guest for time
# "Verified" where a user makes the namespaces (issue 50, items 1 and 2):
# no shape in which the user writes the descriptor, or answers for munged,
# yields "verified" with nothing unchecked.  Each shape is a hostile user's,
# with a descriptor written by hand (forge_descriptor.py: 64 CPUs, 1 TB):
# the file in `unshare -Ur` (their uid shows as 0); an identity map with a
# bind mount over /proc/sys/kernel/overflowuid (their uid shows as the
# overflow uid); bwrap --uid 0 (pyxis's --container-remap-root) with the
# file bound over the step's own path; `unshare -Urm` with a tmpfs over the
# run directory and the file at the step's path, with `-C` too (the budget
# then bounded by the node, not the forgery's); a munged of the user's own
# on /run/munge in `unshare -Urm`; and without any namespace a munged of
# the user's own named with --munge-socket.  The step's real file, which
# carries root's mark, stays vouched under bwrap --uid 0.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack handoff=munge,file
forge=$(user_copy "$GOV_SLURM_TESTS/forge_descriptor.py")
home=$(user_home)
munged=$(PATH=$PATH:/usr/sbin:/sbin command -v munged) || die "no munged: install the munge package"
# The verdict in three words: status, unchecked, reason.
verdict='"$GOV_TOOL" verify --json | jq -r "[.status, .unchecked, (.reason_code // \"-\")] | join(\" \")"'

echo "== a munged of the user's own, named with --munge-socket (no namespace)"
mdir=$(as_user mktemp -d /var/tmp/gov-own-munge.XXXXXX)
as_user bash -c "head -c 1024 /dev/urandom >$mdir/key && chmod 600 $mdir/key"
# shellcheck disable=SC2016 # expanded as the user
as_user "$munged" --force --socket="$mdir/sock" --key-file="$mdir/key" --pid-file="$mdir/pid" \
	--log-file="$mdir/log" --seed-file="$mdir/seed"
stop_own_munged() { kill "$(cat "$mdir/pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$mdir"; }
trap stop_own_munged EXIT
# shellcheck disable=SC2016 # expanded in the task
got=$(as_user srun --governor -n1 bash -c "cred=\$(python3 $forge \$SLURM_JOB_ID 0 0 | munge -S $mdir/sock) &&
	env -u GOVERNOR_DESCRIPTOR_FILE GOVERNOR_DESCRIPTOR=\$cred \"\$GOV_TOOL\" verify --json --munge-socket $mdir/sock | jq -r '[.status, (.reason_code // \"-\")] | join(\" \")'")
assert_eq "invalid ESOCKET" "$got" "a munged the user started, on a socket of theirs"
stop_own_munged
trap - EXIT

if ! user_namespaces; then
	echo "the user-namespace shapes: not run: $CHROOT_NO_USERNS"
	assert_idle
	exit 0
fi

echo "== the file in unshare -Ur, no job"
as_user bash -c "python3 $forge 777 0 0 >$home/gov-forged"
env_claims="SLURM_JOB_ID=777 SLURM_STEP_ID=0 SLURM_NODEID=0 GOVERNOR_DESCRIPTOR_FILE=$home/gov-forged"
got=$(as_user unshare -Ur env $env_claims bash -c "$verdict")
assert_eq "verified owner -" "$got" "the user's own file, their uid shown as 0"
rc=0
out=$(as_user unshare -Ur env $env_claims "$GOV_TOOL" snapshot --json --require-descriptor 2>&1) || rc=$?
assert_eq 3 "$rc" "--require-descriptor: no answer"
assert_match "nothing vouches that root or munged made the descriptor" "$out" "--require-descriptor: why"

echo "== an identity map, the overflow uid bound to the user's own"
# mount(8) wants uid 0; the namespace's maker keeps its capabilities
# (--keep-caps) and binds through the system call (MS_BIND 4096).
# shellcheck disable=SC2016 # expanded in the namespace
got=$(as_user unshare --keep-caps --map-user="$(id -u "${GOV_TEST_USER:-govtest}")" \
	--map-group="$(id -g "${GOV_TEST_USER:-govtest}")" -m bash -c '
	id -u >"$HOME/gov-overflow" &&
	python3 -c "import ctypes, sys; sys.exit(ctypes.CDLL(None).mount(sys.argv[1].encode(), b\"/proc/sys/kernel/overflowuid\", None, 4096, None))" "$HOME/gov-overflow" &&
	[ "$(cat /proc/sys/kernel/overflowuid)" = "$(id -u)" ] || { echo "the bind did not take"; exit 1; }
	env '"$env_claims"' bash -c '"'$verdict'")
assert_eq "verified owner -" "$got" "the user's file as the overflow uid"

echo "== in a step: the user's file over the step's own path"
# bwrap --uid 0: pyxis's --container-remap-root.
bw='bwrap --unshare-user --uid 0 --gid 0 --bind / / --dev-bind /dev /dev'
# shellcheck disable=SC2016 # expanded in the task
got=$(as_user srun --governor -n1 bash -c "python3 $forge \$SLURM_JOB_ID 0 0 >\$HOME/gov-forged.\$SLURM_JOB_ID &&
	$bw --ro-bind \$HOME/gov-forged.\$SLURM_JOB_ID \"\$GOVERNOR_DESCRIPTOR_FILE\" -- env -u GOVERNOR_DESCRIPTOR bash -c '$verdict'; rm -f \$HOME/gov-forged.\$SLURM_JOB_ID")
assert_eq "verified owner -" "$got" "bwrap --uid 0, the user's file bound over the step's"
# The step's real file: root's mark vouches for it in the same container.
got=$(as_user srun --governor -n1 bash -c "$bw -- env -u GOVERNOR_DESCRIPTOR bash -c '$verdict'")
assert_eq "verified none -" "$got" "bwrap --uid 0, the step's own file (marked)"

# unshare -Urm (and -C): a tmpfs over the run directory, the file at the
# step's path with the process's own namespaces' ids, so that none counts
# as its own.
# shellcheck disable=SC2016 # expanded in the namespace
inside='d=$(dirname "$GOVERNOR_DESCRIPTOR_FILE"); mount -t tmpfs none "$(dirname "$d")" && mkdir -p "$d" &&
	python3 '"$forge"' "$SLURM_JOB_ID" 0 0 >"$GOVERNOR_DESCRIPTOR_FILE" &&
	for ns in pid user cgroup; do echo "${ns}ns=$(stat -L -c %i /proc/self/ns/$ns)"; done |
		sed "s/^pidns/pidns/" >>"$GOVERNOR_DESCRIPTOR_FILE" &&
	env -u GOVERNOR_DESCRIPTOR "$GOV_TOOL" snapshot --json'
for flags in -Urm -UrmC; do
	out=$(as_user srun --governor -n1 --mem=100M unshare "$flags" bash -c "$inside")
	echo "unshare $flags: $(jq -c '{status: .descriptor.status, reason: .descriptor.reason_code, unchecked: .descriptor.unchecked, namespaces: .container.namespaces, limit: .memory.effective.limit_bytes, binding: .memory.effective.binding, host: .memory.host.total_bytes}' <<<"$out")"
	assert_eq "verified owner" "$(jq -r '[.descriptor.status, .descriptor.unchecked] | join(" ")' <<<"$out")" \
		"unshare $flags, the file forged at the step's path"
	# The forgery's 1 TB never passes the node's memory.
	[[ $(jq '.memory.effective.limit_bytes <= .memory.host.total_bytes' <<<"$out") == true ]] ||
		die "unshare $flags: an effective memory above the node's: $(jq -c .memory.effective <<<"$out")"
done

echo "== a munged of the user's own on /run/munge, in unshare -Urm"
# shellcheck disable=SC2016 # expanded in the namespace
own='mount -t tmpfs none /run/munge && k=$(mktemp) && head -c 1024 /dev/urandom >"$k" && chmod 600 "$k" &&
	'"$munged"' --force --key-file="$k" --pid-file=/run/munge/pid --log-file=/run/munge/log --seed-file=/run/munge/seed &&
	cred=$(python3 '"$forge"' "$SLURM_JOB_ID" 0 0 | munge) &&
	GOVERNOR_DESCRIPTOR=$cred "$GOV_TOOL" verify --json | jq -r "[.status, .via, .unchecked] | join(\" \")";
	kill "$(cat /run/munge/pid)"; rm -f "$k"'
got=$(as_user srun --governor -n1 unshare -Urm bash -c "env -u GOVERNOR_DESCRIPTOR_FILE bash -c '$own'")
assert_eq "verified munge munged" "$got" "the user's own munged on /run/munge"
rm -f "$home"/gov-forged* "$home/gov-overflow"
assert_idle
