# shellcheck shell=bash
# What the guest runners share (run.sh: one guest; pair.sh: two guests on a
# network): the build in a chroot of the guest's root, the second disk, the
# accelerator, the QEMU command line of one machine, and booting it. The
# runner sets src (this tree), image (image.sh's directory), prog (its
# name, for messages) and cpu (--cpu, or empty) before calling these.
# shellcheck disable=SC2154,SC2034 # the runner's variables, both ways

# shellcheck source=../lib/die.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/die.sh"

t0=$SECONDS
mark() { # STEP: prints how long the stage has run so far
	printf '%s: %s (%s s)\n' "$prog" "$1" $((SECONDS - t0))
}

# guest_build BUILD: the project built into BUILD in a chroot view of the
# very root the guest boots (compiling under emulation would be slow).
view=guest-build-$$
guest_build() {
	mkdir -p "$(dirname "$1")"
	bash "$src/tests/slurm/chroot.sh" start --name "$view" --root "$image/root" --bind "$(dirname "$1")"
	bash "$src/tests/slurm/chroot.sh" exec --name "$view" bash "$src/tests/slurm/build.sh" "$1"
	bash "$src/tests/slurm/chroot.sh" stop --name "$view"
}

# guest_disk DIR IMG: IMG, an ext4 image of DIR with room for the results
# (mkfs.ext4 -d: no loop device, no mount).
guest_disk() {
	truncate -s "$(($(du -sm "$1" | cut -f1) + 512))M" "$2"
	mkfs.ext4 -q -L govdata -d "$1" "$2"
}

# guest_data DIR BUILD ARG...: DIR/src with what the guest needs of this
# tree, DIR/build, DIR/args (tests/slurm/run.sh's arguments, one a line).
guest_data() {
	local dir=$1 build=$2
	shift 2
	mkdir -p "$dir/src" "$dir/out"
	cp -a "$src/tests" "$src/contrib" "$dir/src/"
	cp -a "$build" "$dir/build"
	printf '%s\n' "$@" >"$dir/args"
}

# guest_accel: sets accel (kvm or tcg) and why. KVM only where the CPU shows
# hardware virtualisation (here /dev/kvm can be PVM, under which a stock
# kernel does not boot); GOV_GUEST_ACCEL forces one.
guest_accel() {
	accel=${GOV_GUEST_ACCEL:-}
	if [[ -n $accel ]]; then
		why="GOV_GUEST_ACCEL"
	elif [[ -w /dev/kvm ]] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
		accel=kvm
		why="/dev/kvm and the CPU's vmx/svm flag"
	else
		accel=tcg
		why=$([[ -e /dev/kvm ]] && echo "/dev/kvm is there but the CPU shows no vmx/svm (not hardware virtualisation: a stock kernel does not boot under it)" ||
			echo "no /dev/kvm")
	fi
	[[ $accel == kvm || $accel == tcg ]] || die "GOV_GUEST_ACCEL takes kvm or tcg, got '$accel'"
}

# machine_argv ACCEL SHAPE CONSOLE DATA REBOOT [QEMU ARG...]: sets the array
# argv to the whole QEMU command line of one guest: the accelerator and CPU
# model, the machine's shape, the serial console into the file CONSOLE, the
# cached root read-only underneath (its changes live as long as QEMU) and
# the second disk DATA; REBOOT yes lets the guest reboot in place (no: a
# reboot, or panic=1 after a crash, ends QEMU); then the extra arguments.
machine_argv() {
	argv=(qemu-system-x86_64)
	if [[ $1 == kvm ]]; then
		argv+=(-accel kvm -cpu "${cpu:-host}")
	else
		# One host thread for all vCPUs: with a thread each (MTTCG) the
		# guest's kernel crashes now and then ("Oops: int3" in
		# __alloc_pages, where it patches its own code while other vCPUs
		# run it): the 8-vCPU guest in a CI stage (1 boot of about 40), the
		# 2-vCPU one in another. Two guests on two host CPUs then take
		# one each.
		argv+=(-accel "tcg,thread=single" -cpu "${cpu:-max}")
	fi
	case $2 in
	flat) argv+=(-smp 2 -m 4096) ;;
	# One socket, 4 cores, no SMT, one NUMA node: a small flat node.
	flat4) argv+=(-smp "4,sockets=1,cores=4,threads=1" -m 3072) ;;
	# Each socket is one NUMA node with half the memory. QEMU 7.2 (Debian
	# 12) still takes cpus= on -numa node (later ones prefer -numa cpu).
	smt-numa)
		argv+=(-smp "8,sockets=2,cores=2,threads=2" -m 4096
			-object "memory-backend-ram,id=m0,size=2048M"
			-object "memory-backend-ram,id=m1,size=2048M"
			-numa "node,nodeid=0,cpus=0-3,memdev=m0"
			-numa "node,nodeid=1,cpus=4-7,memdev=m1")
		;;
	*) die "no machine of shape '$2'" ;;
	esac
	argv+=(-display none -monitor none -serial "file:$3"
		-kernel "$image/vmlinuz" -initrd "$image/initrd.img"
		-append "root=/dev/vda rw console=ttyS0 quiet loglevel=2 systemd.show_status=0 panic=1"
		-drive "file=$image/root.img,if=virtio,format=raw,snapshot=on"
		-drive "file=$4,if=virtio,format=raw")
	[[ $5 == yes ]] || argv+=(-no-reboot)
	argv+=("${@:6}")
}

# guest_start CONSOLE PREFIX: starts "${argv[@]}" and sets qemu_pid; its
# console is shown as it comes, each line after PREFIX, without blank
# lines and the escape sequences systemd sends when it hands the serial
# line to the unit.
guest_start() {
	: >"$1"
	"${argv[@]}" </dev/null &
	qemu_pid=$!
	tail -n +1 -f --pid="$qemu_pid" "$1" |
		sed -u -E 's/\x1b\[[0-9;?!]*[A-Za-z]//g; s/\x1b\][0-9]*(\x1b\\)?//g; /^[[:space:]]*$/d' |
		sed -u "s/^/$2/" &
}

# guest_wait PID CONSOLE ACCEL DEADLINE: waits for the guest to end and
# returns QEMU's status. Readiness: the guest says "guest: up" when its unit
# starts. Under TCG that took 24 to 66 s here alone, and past 240 s beside
# a whole run-all.sh (docs/testing.md), so its bound is 600 s: it only
# stops a boot that hangs. A kernel that cannot run under KVM does not
# always make QEMU exit ("KVM internal error. Suberror: 1" stops the
# vCPU), so a guest silent past the bound is stopped (124), as is one still
# running at DEADLINE (in $SECONDS).
guest_wait() {
	local pid=$1 console=$2 rc=0 st=0 limit=600 up
	[[ $3 == kvm ]] && limit=60
	up=$((SECONDS + limit))
	while kill -0 "$pid" 2>/dev/null; do
		if ((SECONDS > up)) && ! grep -q 'guest: up after' "$console"; then
			printf '%s: the guest did not come up within %s s; stopping it\n' "$prog" "$limit" >&2
			kill "$pid"
			rc=124
			break
		fi
		if ((SECONDS > $4)); then
			printf '%s: the guest is still running; stopping it\n' "$prog" >&2
			kill "$pid"
			rc=124
			break
		fi
		sleep 1
	done
	wait "$pid" || st=$?
	((rc)) || rc=$st
	return "$rc"
}

# guest_results IMG DIR: what the guest left in /out on its second disk,
# read back with debugfs (no mount) into DIR.
guest_results() {
	mkdir -p "$2"
	debugfs -R "rdump /out $2" "$1" >/dev/null 2>&1 || return 1
	mv "$2/out"/* "$2/" 2>/dev/null || true
	rmdir "$2/out"
}
