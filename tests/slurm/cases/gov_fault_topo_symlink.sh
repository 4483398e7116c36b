#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the topology cache's directory checks); left out of the TCG guest for time
# Fault: the site's topology_cache directory is one the test user can write
# (a mistake an attacker waits for).  The user plants links to a root-only
# file at the table's name and at every temporary name slurmstepd might use
# (main's plugin used DIR/topology-BOOTID.xml.PID.tmp).  The plugin refuses
# the directory, never writes through a link, logs why, and the steps run.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

# Under /run, where only root can create it: below sticky /tmp (where the
# cluster's directory lives) run_dir is refused for its parent already
# (gov_fault_run_dir_sticky).
cache=/run/gov-test-topo-user
victim=$GOV_CLUSTER_DIR/gov-topo-victim
rm -rf "$cache"
trap 'rm -rf "$cache"' EXIT
mkdir -m 755 "$cache"
chown "$(id -u govtest):$(id -g govtest)" "$cache"
printf "root's secret\n" >"$victim"
chmod 600 "$victim"
gov_plugstack "topology_cache=$cache"

# The links, planted by the user in one process (so that it uses up no
# pids): the table's names (this format and main's) and the temporary
# names of the next few thousand pids.
boot=$(tr -d '\n' </proc/sys/kernel/random/boot_id)
as_user python3 -c '
import os, sys
cache, victim, boot = sys.argv[1:]
last = int(open("/proc/sys/kernel/ns_last_pid").read())
names = ["topology-%s.v2" % boot, "topology-%s.xml" % boot]
names += ["topology-%s.xml.%d.tmp" % (boot, p) for p in range(last, last + 5000)]
for n in names:
    os.symlink(victim, os.path.join(cache, n))
' "$cache" "$victim" "$boot"

mark=$(log_mark)
# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun --governor -N3 -n3 bash -c 'echo "$("$GOV_TOOL" verify --json | jq -r .status) $(eval "$GOV_PAYLOAD" | grep ^topo=)"')
printf '%s\n' "$out"
assert_eq 3 "$(grep -c '^verified topo=1,1,' <<<"$out")" "every task verified, with a topology"
assert_eq "root's secret" "$(cat "$victim")" "the root-only file's content"
assert_eq "600 root" "$(stat -c '%a %U' "$victim")" "the root-only file's mode and owner"
log=$(log_since "$mark")
assert_match 'governor: the topology cache is not used \(the directory is writable by others or not root.s\)' "$log" "log"
# Nothing of root's appeared in the user's directory.
assert_eq "" "$(find "$cache" -user root)" "files root left in the user's directory"

assert_no_drain
assert_next_step_works
