#!/usr/bin/env bash
# Run a command as the unprivileged test user (created if missing), in its
# home, with the cluster's client variables. Jobs must not run as root: as
# root every SPANK callback looks privileged.
#   as_user.sh CMD [ARGS...]
set -euo pipefail

user=${GOV_TEST_USER:-govtest}
[[ $# -ge 1 ]] || { echo "usage: as_user.sh CMD [ARGS...]" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "as_user.sh: must run as root" >&2; exit 1; }

if ! id -u "$user" >/dev/null 2>&1; then
	useradd --create-home --shell /bin/bash --user-group "$user" ||
		{ echo "as_user.sh: could not create user '$user'" >&2; exit 1; }
fi
home=$(getent passwd "$user" | cut -d: -f6)
[[ -d $home ]] || { mkdir -p "$home" && chown "$user:" "$home"; }

# A clean environment: only what a login would give, plus the cluster's
# variables (SLURM_CONF) and anything a case exports with a GOV_ prefix.
vars=(HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/bash
	PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8)
[[ -n ${SLURM_CONF:-} ]] && vars+=(SLURM_CONF="$SLURM_CONF")
# Marks the user's processes (srun, salloc...) so 'cluster.sh stop' ends them.
[[ -n ${GOV_CLUSTER_DIR:-} ]] && vars+=(GOV_CLUSTER_CLIENT="$GOV_CLUSTER_DIR")
while IFS='=' read -r -d '' name value; do
	[[ $name == GOV_* && $name != GOV_CLUSTER_CLIENT ]] && vars+=("$name=$value")
done < <(env -0)

cd "$home"
exec setpriv --reuid="$user" --regid="$user" --init-groups --reset-env \
	env -i "${vars[@]}" "$@"
