#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the file hand-off and its attacks); gov_container runs the file in the TCG guest
# The file hand-off (handoff=file, issue 34): a site without munged seals
# nothing but still hands every task a budget no user can forge, one file a
# step and node, gone when the step ends.  Attacked as a user would: the
# file of another of her steps, of another node, in another user's job, a
# file of her own bound over it in her own container, writes and links in
# the run directory, and a loose steps directory an admin left.  Each is
# refused with a reason that says what to do; nothing crashes, no node
# drains.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

# One check binds a file over the step's in the user's own container: the
# kernel refuses a user namespace to a chrooted process, which is how the
# other Slurm series run here (tests/slurm/chroot.sh); there that check
# alone is left out, and says so.
userns=yes
user_namespaces || userns=no
home=$(user_home)
steps=/run/slurm-governor/steps
# shellcheck disable=SC2016 # expanded in the task
vj='"$GOV_TOOL" verify --json | jq -r "[.status, (.reason_code // \"-\")] | join(\" \")"'

echo "== a site without munged: handoff=file, seal=required"
gov_plugstack handoff=file seal=required "munge_socket=$(dead_munge_socket)"
# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun --governor -N2 -n4 bash -c \
	'echo "$SLURM_NODEID $("$GOV_TOOL" snapshot --json | jq -r "[.descriptor.status, .descriptor.via] | join(\" \")") ${GOVERNOR_DESCRIPTOR:-no-credential} $GOVERNOR_DESCRIPTOR_FILE"' | sort)
printf '%s\n' "$out"
assert_eq 4 "$(grep -c '^[01] verified file no-credential /run/slurm-governor/steps/[0-9a-f]\{32\}$' <<<"$out")" \
	"every task verified through the file, no credential made"
assert_eq 2 "$(awk '{ print $5 }' <<<"$out" | sort -u | wc -l)" "one file per node, shared by its tasks"
assert_eq 0 "$(find "$steps" -type f | wc -l)" "files left after the step"
assert_eq "711 root" "$(stat -c '%a %U' "$steps")" "the steps directory"

echo "== the file of another step, another node, another user"
gov_plugstack handoff=file
rm -f "$home"/gov_file.{path,go}
# A job of two nodes whose first step holds on; its task on node1 says
# where its file is.
# shellcheck disable=SC2016 # expanded in the job
printf '%s\n' '#!/bin/bash' \
	'srun -N2 -n2 bash -c '"'"'[ "$SLURM_NODEID" = 0 ] && echo "$GOVERNOR_DESCRIPTOR_FILE" >gov_file.path; t=$((SECONDS + 200)); until [ -e gov_file.go ] || [ $SECONDS -ge $t ]; do sleep 0.2; done'"'"' &' \
	'wait' >"$home/gov_file.sh"
job=$(as_user sbatch --parsable --governor -N2 -n2 -o /dev/null gov_file.sh)
deadline=$((SECONDS + 120))
until [[ -s $home/gov_file.path ]]; do
	((SECONDS < deadline)) || die "the job's step did not start"
	sleep 0.2
done
path=$(<"$home/gov_file.path")
printf 'the running step'"'"'s file on node1: %s\n' "$path"
# Another step of the same job on the same node: its own ids, not the file's.
got=$(as_user srun --jobid="$job" --overlap -w node1 -N1 -n1 bash -c "GOVERNOR_DESCRIPTOR_FILE=$path $vj")
assert_eq "invalid EBINDING" "$got" "another step's file"
# The same step's file read on node2 (emulated nodes share one /run): the
# node index tells.
got=$(as_user srun --jobid="$job" --overlap -w node2 -N1 -n1 bash -c \
	"SLURM_STEP_ID=0 SLURM_NODEID=1 GOVERNOR_DESCRIPTOR_FILE=$path $vj")
assert_eq "invalid ENODE" "$got" "node1's file on node2"
# Another user's job: the sealed uid is not hers.
got=$(GOV_TEST_USER=govtest2 as_user srun --governor -n1 bash -c "GOVERNOR_DESCRIPTOR_FILE=$path $vj")
assert_eq "invalid EBINDING" "$got" "another user's file"
# Her own file bound over the real one in her own container: hers, not root's.
as_user bash -c "cp '$path' ~/gov_file.fake"
if [[ $userns == yes ]]; then
	# shellcheck disable=SC2016 # expanded in the task
	got=$(as_user srun --governor -n1 bash -c \
		"bwrap --unshare-user --bind / / --dev-bind /dev /dev --ro-bind ~/gov_file.fake \"\$GOVERNOR_DESCRIPTOR_FILE\" -- bash -c '$vj'")
	assert_eq "invalid EUNTRUSTED" "$got" "a file of the user's own bound over the step's"
else
	echo "a file of the user's own bound over the step's: not run: this Slurm runs in a chroot (chroot.sh), where the kernel refuses user namespaces (CLONE_NEWUSER: EPERM)"
fi
# The same copy named directly: the user's, not root's.
got=$(as_user srun --governor -n1 bash -c "GOVERNOR_DESCRIPTOR_FILE=\$HOME/gov_file.fake $vj")
assert_eq "invalid EUNTRUSTED" "$got" "a copy of the file, the user's own"
# The run directory: nothing to list, nothing to write, no link to plant.
as_user ls "$steps" >/dev/null 2>&1 && die "the test user can list $steps"
as_user touch "$steps/x" 2>/dev/null && die "the test user can write in $steps"
as_user ln -s /etc/shadow "$steps/y" 2>/dev/null && die "the test user can make a link in $steps"
as_user touch gov_file.go
assert_eq COMPLETED "$(wait_job "$job")" "the job"
# Its step is over: the file is gone, and a copy of its path names that.
[[ ! -e $path ]] || die "the ended step's file is still there"
got=$(as_user srun --governor -n1 bash -c "GOVERNOR_DESCRIPTOR_FILE=$path $vj")
assert_eq "invalid EBINDING" "$got" "the file of a step that ended"

echo "== a steps directory left loose, or a link"
mark=$(log_mark)
chmod 0777 "$steps"
gov_plugstack handoff=munge,file
got=$(as_user srun --governor -n1 bash -c '"$GOV_TOOL" snapshot --json | jq -r "[.descriptor.status, .descriptor.via] | join(\" \")"')
assert_eq "verified munge" "$got" "the credential, with the file refused"
assert_eq 0 "$(find "$steps" -type f | wc -l)" "files written in a loose steps directory"
rmdir "$steps"
ln -s /tmp "$steps"
gov_plugstack handoff=file
got=$(as_user srun --governor -n1 bash -c "$vj")
assert_eq "absent -" "$got" "a step whose only hand-off was refused"
assert_match "governor: cannot write the descriptor file in run_dir /run/slurm-governor \(run_dir's steps directory is not root's, or others may list or write it" \
	"$(log_since "$mark")" "slurmd's log"
assert_eq 0 "$(find /tmp -maxdepth 1 -newer "$home/gov_file.sh" -name '????????????????????????????????' | wc -l)" \
	"files written through the link"
rm -f "$steps" "$home"/gov_file.{path,go,sh,fake}
assert_no_drain
gov_plugstack handoff=file
assert_eq "verified -" "$(as_user srun --governor -n1 bash -c "$vj")" "the next step, the directory made anew"
assert_eq "711 root" "$(stat -c '%a %U' "$steps")" "the steps directory, made anew"
