#!/usr/bin/env bash
# Install the Debian 12 packages that building and testing slurm-governor
# need.  Idempotent: installs only what is missing.
set -euo pipefail

packages=(
  build-essential meson ninja-build pkg-config clang libclang-rt-14-dev
  libhwloc-dev hwloc libmunge-dev munge libcmocka-dev
  slurmd slurmctld slurm-client libslurm-dev
  python3 python3-pytest jq strace iproute2 procps
  # The tests' own tools: tar -j (hwloc's test machines) runs bzip2;
  # meson dist needs git, and its tarball is xz.
  bzip2 git xz-utils
  # Containers in real steps (tests/slurm/cases/gov_container.sh).
  bubblewrap
  # The zsh completion's test (tests/tool/test_completion_zsh.sh).
  zsh
  man-db groff-base scdoc
  dpkg-dev debhelper fakeroot rpm cpio
  dh-python python3-all pybuild-plugin-pyproject python3-setuptools python3-wheel
  mmdebstrap
  # The ABI check (abi/check.sh): abidw and abidiff.
  abigail-tools
  # The step report's tool test: promtool checks its Prometheus text, and
  # logrotate reads the snippet shipped for the record file.
  prometheus logrotate

  # The cgroup v2 guest (tests/guest): QEMU, and ext4 images made and read
  # without a mount (mkfs.ext4 -d, debugfs).
  qemu-system-x86 e2fsprogs
  # Real runtimes that `governor run` sizes (tests/runtimes, the Python
  # binding's pool example): Debian's own, so every machine tests the same.
  golang-go nodejs default-jdk-headless cargo librust-rayon-dev
  python3-numpy python3-threadpoolctl libopenblas0-pthread
  python3-joblib python3-dask python3-distributed python3-numexpr
  # PyTorch 1.13 (python_pools: its pools from OMP_NUM_THREADS, else the host).
  python3-torch
  # R's parallel and parallelly (governor doctor --runtimes, gov_runtimes,
  # the outcome benchmark's mclapply).
  r-base-core r-cran-parallelly
  # The outcome benchmark's plot (tests/bench/outcomes.sh).
  gnuplot-nox
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Debian starts the daemons it installs where it can; the tests run their own.
for svc in slurmctld slurmd munge prometheus; do
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet "$svc" 2>/dev/null; then
    systemctl stop "$svc" || true
  fi
done
