#!/usr/bin/env bash
# Prints the directory of a bootable Debian guest (Slurm on cgroup v2 under
# systemd), building it with mmdebstrap when it is not cached yet:
#   DIR/root/        the root tree (the project is built in a chroot of it)
#   DIR/root.img     the same tree as an ext4 image (mkfs.ext4 -d: no loop
#                    device, no mount), the guest's /dev/vda
#   DIR/vmlinuz, DIR/initrd.img   the root's own kernel and initramfs
#   image.sh [--suite trixie|bookworm|unstable] [--cache DIR]
# Cached under DIR (default $GOV_GUEST_CACHE or /var/cache/slurm-governor/guests),
# keyed by this file's content and the suite: a second run reuses the guest,
# any change to how it is made builds a new one. The guest boots into
# gov-guest.service, which runs tests/guest/inside.sh from its second disk.
set -euo pipefail

suite=trixie
cache=${GOV_GUEST_CACHE:-/var/cache/slurm-governor/guests}
while [[ $# -gt 0 ]]; do
	case $1 in
	--suite) suite=${2:?--suite needs a Debian suite}; shift 2 ;;
	--cache) cache=${2:?--cache needs a directory}; shift 2 ;;
	-h | --help) sed -n '2,12p' "$0"; exit 0 ;;
	*) echo "image.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
# shellcheck source=../lib/die.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/die.sh"
[[ $(id -u) -eq 0 ]] || die "must run as root (mmdebstrap, chroot)"
aptopts=(--aptopt='APT::Install-Recommends "false"')
case $suite in
trixie | bookworm) ;;
# The reachable mirror's unstable Release file is past its Valid-Until
# (as for the Slurm root, tests/slurm/root.sh).
unstable) aptopts+=(--aptopt='Acquire::Check-Valid-Until "false"') ;;
*) die "no guest recipe for '$suite'; known: trixie (Slurm 24.11), bookworm (Slurm 22.05), unstable (Slurm 26.05)" ;;
esac
for tool in mmdebstrap mkfs.ext4; do
	command -v "$tool" >/dev/null || die "$tool is missing (tests/install-deps.sh installs it)"
done

mirror="deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main"
packages=(
	# Booting: the distribution's kernel, systemd as init, D-Bus (Slurm asks
	# systemd over it for its scope), kmod for the dummy interface.
	linux-image-amd64 initramfs-tools systemd-sysv dbus kmod udev
	# Slurm, MUNGE, and what the project builds and its cases run with.
	slurmctld slurmd slurm-client libslurm-dev munge libmunge-dev hwloc libhwloc-dev
	gcc libc6-dev meson ninja-build pkg-config libcmocka-dev bzip2
	python3 jq iproute2 procps passwd hostname bsdutils util-linux
	# Containers in real steps (tests/slurm/cases/gov_container.sh):
	# bubblewrap's shapes, and rootless podman (newuidmap from uidmap) on
	# an image made below.
	bubblewrap podman uidmap
	# The outcome benchmark on v2 (tests/bench/outcomes.sh --cgroup v2): the
	# runtimes its programs need; Go and Rust probes come built from the
	# host (static, or glibc only), Java's classes load in this newer JDK.
	nodejs default-jre-headless python3-numpy libopenblas0-pthread time
	# Pressure triggers (tests/slurm/cases/pressure_triggers.sh): a program
	# on sd-event's memory pressure source, built against this libsystemd.
	libsystemd-dev
)
key=$(cat "$0" <(printf '%s\n' "$suite") | sha256sum | cut -c1-12)
dir=$cache/$suite-$key

mkdir -p "$cache"
exec 8>>"$cache/.lock"
flock 8
if [[ -f $dir/.complete ]]; then
	printf '%s\n' "$dir"
	exit 0
fi

# What the guest does at boot, written into the root. The unit mounts the
# second disk and runs the script the host put there; everything it prints
# goes to the serial console, which the host keeps.
unit='[Unit]
Description=slurm-governor tests on the second disk
After=dbus.service systemd-modules-load.service local-fs.target
Wants=dbus.service

[Service]
Type=oneshot
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
ExecStart=/bin/sh -c "mkdir -p /gov && mount /dev/vdb /gov && exec bash /gov/src/tests/guest/inside.sh /gov"
ExecStopPost=/bin/sh -c "sync; umount /gov; systemctl --no-block poweroff --force"

[Install]
WantedBy=multi-user.target
'

tmp=$cache/.build-$suite-$key
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
t0=$SECONDS
echo "image.sh: building a Debian $suite guest (a few minutes)" >&2
log=$tmp.log
# The hooks are shell text that mmdebstrap runs with the root as $1.
# shellcheck disable=SC2016
if ! mmdebstrap --mode=root --variant=minbase "${aptopts[@]}" \
	--include="$(
		IFS=,
		echo "${packages[*]}"
	)" \
	--customize-hook='echo govguest >"$1/etc/hostname"' \
	--customize-hook='printf "127.0.0.1 localhost\n127.0.1.1 govguest\n" >"$1/etc/hosts"' \
	--customize-hook='echo "/dev/vda / ext4 rw,relatime 0 1" >"$1/etc/fstab"' \
	--customize-hook="printf '%s' '$unit' >\"\$1/etc/systemd/system/gov-guest.service\"" \
	--customize-hook='chroot "$1" systemctl enable gov-guest.service' \
	--customize-hook='chroot "$1" systemctl mask slurmd.service slurmctld.service munge.service getty@tty1.service serial-getty@ttyS0.service systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service' \
	--customize-hook='rm -f "$1/etc/munge/munge.key"' \
	"$suite" "$tmp/root" "$mirror" >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	die "mmdebstrap failed (log: $log); is deb.debian.org reachable?"
fi
# The container image rootless podman runs in the guest: a Debian root of
# the same suite with what the governor tool links (no registry is
# reachable; `podman import` takes the tarball), made readable by the
# test user.
if ! mmdebstrap --mode=root --variant=minbase "${aptopts[@]}" \
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' --include=libhwloc15,libmunge2 \
	"$suite" "$tmp/root/var/lib/gov-container.tar" "$mirror" >>"$log" 2>&1; then
	tail -n 30 "$log" >&2
	die "mmdebstrap failed on the container image (log: $log)"
fi
chmod 644 "$tmp/root/var/lib/gov-container.tar"
version() { # PACKAGE: its version in the new root
	# shellcheck disable=SC2016 # dpkg's own format
	chroot "$tmp/root" dpkg-query -W -f='${Version}' "$1"
}
slurm=$(version slurmd)
kernel=$(version linux-image-amd64)
systemd=$(version systemd)
vmlinuz=$(find "$tmp/root/boot" -name 'vmlinuz-*' | sort | tail -n1)
initrd=$(find "$tmp/root/boot" -name 'initrd.img-*' | sort | tail -n1)
[[ -n $vmlinuz && -n $initrd ]] || die "no kernel or initramfs in the $suite root's /boot (log: $log)"
cp "$vmlinuz" "$tmp/vmlinuz"
cp "$initrd" "$tmp/initrd.img"
# Room for the build's copy and the cases' files (page cache: 450 MiB).
size=$(($(du -sm "$tmp/root" | cut -f1) + 1536))
truncate -s "${size}M" "$tmp/root.img"
mkfs.ext4 -q -L govroot -d "$tmp/root" "$tmp/root.img" ||
	die "mkfs.ext4 -d could not make the image (e2fsprogs 1.43 or later has -d)"
# chroot.sh's views take only roots marked complete.
printf 'series=%s\nsuite=%s\nkey=%s\nslurm=%s\nkernel=%s\nsystemd=%s\n' \
	"${slurm%.*}" "$suite" "$key" "$slurm" "$kernel" "$systemd" >"$tmp/root/.complete"
cp "$tmp/root/.complete" "$tmp/.complete"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
rm -f "$log"
echo "image.sh: built $dir in $((SECONDS - t0)) s (Slurm $slurm, kernel $kernel, systemd $systemd)" >&2

# Guests of the same suite with another key are stale.
for old in "$cache/$suite-"*; do
	[[ $old != "$dir" && -d $old ]] || continue
	grep -qF "$old" /proc/mounts || rm -rf "$old"
done
printf '%s\n' "$dir"
