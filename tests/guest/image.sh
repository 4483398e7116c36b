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
# any change to how it is made builds a new one (tests/lib/debian_root.sh
# builds and keeps it, as it does the Slurm roots). The guest boots into
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
# shellcheck source=../lib/debian_root.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/debian_root.sh"
[[ $(id -u) -eq 0 ]] || die "must run as root (mmdebstrap, chroot)"
case $suite in
trixie | bookworm | unstable) ;;
*) die "no guest recipe for '$suite'; known: trixie (Slurm 24.11), bookworm (Slurm 22.05), unstable (Slurm 26.05)" ;;
esac
command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 is missing (tests/install-deps.sh installs it)"

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

build_guest() { # DIR
	local tmp=$1 log=$1.log t0=$SECONDS
	mkdir -p "$tmp"
	echo "image.sh: building a Debian $suite guest (a few minutes)" >&2
	# The hooks are shell text that mmdebstrap runs with the root as $1.
	# shellcheck disable=SC2016
	debian_root "$suite" "$tmp/root" "$log" \
		--customize-hook='echo govguest >"$1/etc/hostname"' \
		--customize-hook='printf "127.0.0.1 localhost\n127.0.1.1 govguest\n" >"$1/etc/hosts"' \
		--customize-hook='echo "/dev/vda / ext4 rw,relatime 0 1" >"$1/etc/fstab"' \
		--customize-hook="printf '%s' '$unit' >\"\$1/etc/systemd/system/gov-guest.service\"" \
		--customize-hook='chroot "$1" systemctl enable gov-guest.service' \
		--customize-hook='chroot "$1" systemctl mask slurmd.service slurmctld.service munge.service getty@tty1.service serial-getty@ttyS0.service systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service' \
		--customize-hook='rm -f "$1/etc/munge/munge.key"' \
		-- "${packages[@]}" || die "no $suite guest root"
	# The container image rootless podman runs in the guest: a Debian root of
	# the same suite with what the governor tool links (no registry is
	# reachable; `podman import` takes the tarball), made readable by the
	# test user.
	debian_root "$suite" "$tmp/root/var/lib/gov-container.tar" "$log" \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' -- libhwloc15 libmunge2 ||
		die "no container image for the $suite guest"
	chmod 644 "$tmp/root/var/lib/gov-container.tar" || die "cannot make the container image readable"
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
	cp "$vmlinuz" "$tmp/vmlinuz" && cp "$initrd" "$tmp/initrd.img" || die "cannot copy the kernel"
	# Room for the build's copy and the cases' files (page cache: 450 MiB).
	size=$(($(du -sm "$tmp/root" | cut -f1) + 1536))
	truncate -s "${size}M" "$tmp/root.img" || die "cannot make $tmp/root.img"
	mkfs.ext4 -q -L govroot -d "$tmp/root" "$tmp/root.img" ||
		die "mkfs.ext4 -d could not make the image (e2fsprogs 1.43 or later has -d)"
	# chroot.sh's views take only roots marked complete.
	printf 'series=%s\nsuite=%s\nkey=%s\nslurm=%s\nkernel=%s\nsystemd=%s\n' \
		"${slurm%.*}" "$suite" "$key" "$slurm" "$kernel" "$systemd" >"$tmp/root/.complete"
	cp "$tmp/root/.complete" "$tmp/.complete" || die "cannot mark $tmp complete"
	rm -f "$log"
	echo "image.sh: built the $suite guest in $((SECONDS - t0)) s (Slurm $slurm, kernel $kernel, systemd $systemd)" >&2
}

cached_root "$cache" "$suite" "$key" build_guest
