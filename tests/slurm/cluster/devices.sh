# shellcheck shell=bash disable=SC2154
# cluster.sh's emulated GPUs: fake device nodes made and removed.
# Sourced by tests/slurm/cluster.sh, whose settings (dir, conf, nodes...) it reads.

# Device nodes with no driver behind them (open gives ENXIO): enough for
# gres and the device cgroup, which look only at the major and minor. Made
# only where no such node exists, so a real GPU is never shadowed.
make_fake_devices() {
	local i total paths=() p
	remove_fake_devices
	total=$(gpu_total)
	# Separate machines: this one's own GPUs, numbered from 0.
	if [[ ${#machines[@]} -gt 0 ]]; then
		total=0
		for ((i = 1; i <= nodes; i++)); do
			local_node "$i" && total=$((total + $(gpu_count "$i")))
		done
	fi
	[[ -n $gpus ]] && ((total > 0)) || return 0
	for ((i = 0; i < total; i++)); do
		paths+=("$(gpu_path "$i")")
	done
	[[ $gpu_kind == nvidia ]] && paths+=(/dev/nvidiactl)
	for p in "${paths[@]}"; do
		[[ ! -e $p ]] || die "$p already exists; fake GPUs are made only where no such device is (a real GPU, or a run that is still going)"
	done
	if [[ $gpu_kind == drm && ! -d /dev/dri ]]; then
		mkdir /dev/dri
		printf '/dev/dri\n' >>"$fake_devices"
	fi
	for ((i = 0; i < total; i++)); do
		p=$(gpu_path "$i")
		if [[ $gpu_kind == nvidia ]]; then
			mknod -m 666 "$p" c 195 "$i"
		else
			mknod -m 666 "$p" c 226 $((128 + i))
		fi
		printf '%s\n' "$p" >>"$fake_devices"
	done
	if [[ $gpu_kind == nvidia ]]; then
		mknod -m 666 /dev/nvidiactl c 195 255
		printf '/dev/nvidiactl\n' >>"$fake_devices"
	fi
	[[ $mig == no ]] || make_fake_caps
}

# The MIG instances' capability nodes (mig_lines), under a major of their
# own as the driver's nvidia-caps has.
make_fake_caps() {
	local c
	[[ ! -e /dev/nvidia-caps ]] || die "/dev/nvidia-caps already exists; fake MIG is made only where none is"
	mkdir /dev/nvidia-caps
	printf '/dev/nvidia-caps\n' >>"$fake_devices"
	for c in $mig_caps; do
		mknod -m 444 "/dev/nvidia-caps/nvidia-cap$c" c 237 "$c"
		printf '/dev/nvidia-caps/nvidia-cap%d\n' "$c" >>"$fake_devices"
	done
}

# Removes what make_fake_devices made, in reverse order (the directory last).
remove_fake_devices() {
	local p
	[[ -f $fake_devices ]] || return 0
	while read -r p; do
		if [[ -c $p ]]; then
			rm -f "$p"
		elif [[ -d $p ]]; then
			rmdir "$p" 2>/dev/null || log "could not remove $p (not empty)"
		fi
	done < <(tac "$fake_devices")
	rm -f "$fake_devices"
}
