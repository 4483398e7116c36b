#!/usr/bin/env bash
# Build the Debian packages (contrib/debian/build-deb.sh), install them with
# apt-get, check what a site gets (the tool runs, the plugin sits in Slurm's
# plugin directory and srun loads it from there by its plain name, a
# program builds against libgovernor-dev, Debian's python3 imports the
# binding and it loads the installed library, the installed documentation
# names only installed files, every line the rollout and the admin guide
# tell a site to write works as written: test_doc_lines.sh), then remove
# them again.
#
# usage: tests/install/test_deb.sh [BUILDDIR]   (as root; no network)
# With BUILDDIR (a meson build of this tree), the install stage's own tests
# (test_install.sh, test_dist.sh) run again while the packages are
# installed: nothing of theirs may read the machine's installed files.
# Prints "ok N - ..." / "not ok N - ..." lines; exits 1 when one failed.
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-}
packages=(libgovernor1 libgovernor-dev governor slurm-spank-governor python3-governor)

# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
installed() { dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null | grep -qx installed; }

if ((EUID != 0)); then
	echo "ok 1 - # SKIP installing packages needs root"
	echo "1..1"
	exit 0
fi
for p in "${packages[@]}"; do
	if installed "$p"; then
		echo "not ok 1 - $p is already installed; this test installs and removes it, so remove it first (apt-get remove ${packages[*]})"
		echo "1..1"
		exit 1
	fi
done

work=$(mktemp -d /tmp/governor-debtest.XXXXXX)
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	local p left=()
	for p in "${packages[@]}"; do installed "$p" && left+=("$p"); done
	((${#left[@]} == 0)) || DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 purge -y -qq "${left[@]}" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT

t0=$SECONDS
if out=$(bash "$src/contrib/debian/build-deb.sh" "$work/out" 2>&1); then
	pass "build-deb.sh builds the packages ($((SECONDS - t0)) s)"
else
	fail "build-deb.sh builds the packages" "$(tail -30 <<<"$out")"
	finish
fi
debs=()
for p in "${packages[@]}"; do
	f=$(find "$work/out" -name "${p}_*.deb" | head -1)
	if [[ -n $f ]]; then debs+=("$f"); else fail "package $p built"; fi
done
((${#debs[@]} == ${#packages[@]})) && pass "every package built: ${packages[*]}"

plugin_deps=$(dpkg-deb -f "$(find "$work/out" -name 'slurm-spank-governor_*.deb')" Depends)
missing=
for d in libmunge2 libhwloc15 slurm-wlm-basic-plugins; do
	[[ $plugin_deps == *"$d"* ]] || missing+=" $d"
done
if [[ -z $missing ]]; then pass "slurm-spank-governor depends on libmunge2, libhwloc15 and slurm-wlm-basic-plugins"; else fail "slurm-spank-governor depends on what it loads" "Depends: $plugin_deps; missing:$missing"; fi
# Exactly the series it was built against: Slurm refuses a plugin of another.
series=$(dpkg-query -W -f='${Version}' libslurm-dev | grep -oE '^[0-9]+\.[0-9]+')
next=$(awk -F. '{ printf "%d.%02d", $1, $2 + 1 }' <<<"$series")
want="slurm-wlm-basic-plugins (>= $series~), slurm-wlm-basic-plugins (<< $next~)"
if [[ $plugin_deps == *"$want"* ]]; then pass "slurm-spank-governor depends on Slurm $series: $want"; else fail "slurm-spank-governor depends on Slurm $series" "Depends: $plugin_deps; wanted: $want"; fi

if out=$(DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "${debs[@]}" 2>&1); then
	pass "apt-get install the packages"
else
	fail "apt-get install the packages" "$(tail -20 <<<"$out")"
	finish
fi

version=$(dpkg-query -W -f='${Version}' governor)
out=$(governor --version 2>&1)
if [[ $out == "governor $version" ]]; then pass "governor --version says $version"; else fail "governor --version says $version" "$out"; fi
if man -w governor >/dev/null 2>&1 && man -w governor.so >/dev/null 2>&1; then
	pass "man finds governor(1) and governor.so(8)"
else
	fail "man finds governor(1) and governor.so(8)"
fi

so=$(dpkg -L slurm-spank-governor | grep '/governor\.so$')
slurm_dir=$(dirname "$(dpkg -L slurm-wlm-basic-plugins | grep '/auth_munge\.so$')")
if [[ -n $so && $(dirname "$so") == "$slurm_dir" ]]; then
	pass "governor.so is in Slurm's plugin directory ($slurm_dir)"
else
	fail "governor.so is in Slurm's plugin directory" "plugin: '$so'; Slurm's plugins: '$slurm_dir'"
fi
# Every library the plugin links resolves with only the packages' dependencies.
unresolved=$(ldd "$so" 2>&1 | grep 'not found')
if [[ -z $unresolved ]]; then pass "every library governor.so links is installed"; else fail "every library governor.so links is installed" "$unresolved"; fi

# python3-governor: Debian's python3, outside the source tree and with no
# PYTHONPATH, imports the packaged module, which finds libgovernor.so.1
# through the dynamic loader.
py_view='import governor; s = governor.snapshot(); print(s.descriptor.status, s.scheduler.source, s.memory.scheduler.limit_bytes)'
out=$(cd / && env -i PATH=/usr/bin:/bin /usr/bin/python3 -c \
	'import governor; print(governor.__file__, governor.snapshot().schema)' 2>&1)
if [[ $out == "/usr/lib/python3/dist-packages/governor/__init__.py governor.snapshot/1" ]]; then
	pass "python3 imports the packaged binding, which loads the installed library"
else
	fail "python3 imports the packaged binding, which loads the installed library" "$out"
fi

# Its .pth line runs governor_cpu_count at every python3's startup: Debian
# 12's Python 3.11 then counts the CPUs PYTHON_CPU_COUNT names, as 3.13 does,
# and the host's without it.
out=$(cd / && env -i PATH=/usr/bin:/bin PYTHON_CPU_COUNT=1 /usr/bin/python3 -c \
	'import os, multiprocessing as m
with m.Pool() as p: print(os.cpu_count(), p._processes)' 2>&1)
plain=$(cd / && env -i PATH=/usr/bin:/bin /usr/bin/python3 -c 'import os; print(os.cpu_count())' 2>&1)
if [[ $out == "1 1" && $plain == "$(getconf _NPROCESSORS_ONLN)" ]]; then
	pass "python3-governor: PYTHON_CPU_COUNT=1 sizes os.cpu_count() and Pool(); unset, the host's"
else
	fail "python3-governor: PYTHON_CPU_COUNT=1 sizes os.cpu_count() and Pool(); unset, the host's" "$out / $plain"
fi

# srun, as on a login node: a plugstack.conf naming the plugin without a
# path, so that Slurm finds it in its own PluginDir.  srun --help reads the
# configuration and loads the plugins without contacting a controller.
# The timeouts here and below only guard against a hang: this runs in a
# SCHED_IDLE lane of tests/run-all.sh beside the QEMU guest, where it gets
# a CPU only when nothing else wants one.
conf=$work/conf
mkdir -p "$conf"
printf 'ClusterName=debtest\nSlurmctldHost=localhost\nPlugStackConfig=%s/plugstack.conf\nNodeName=localhost CPUs=1\nPartitionName=p Nodes=localhost Default=YES\n' "$conf" >"$conf/slurm.conf"
echo 'required governor.so default=off' >"$conf/plugstack.conf"
for cmd in srun sbatch salloc; do
	out=$(SLURM_CONF=$conf/slurm.conf timeout 120 "$cmd" --help 2>&1)
	if grep -q -- '--governor' <<<"$out"; then
		pass "$cmd --help lists --governor (plugstack.conf: required governor.so)"
	else
		fail "$cmd --help lists --governor (plugstack.conf: required governor.so)" "$(tail -5 <<<"$out")"
	fi
done
out=$(SLURM_CONF=$conf/slurm.conf timeout 120 srun --governor=bogus true 2>&1)
if [[ $out == *"governor: invalid --governor value"* ]]; then
	pass "srun --governor=bogus is refused by the installed plugin"
else
	fail "srun --governor=bogus is refused by the installed plugin" "$(tail -5 <<<"$out")"
fi

# A throwaway cluster loads the installed plugin: a real step as the test
# user gets a descriptor that the installed tool verifies. The node has
# 300 s to be idle, and each step 300 s: hang guards (above).
cluster=$src/tests/slurm/cluster.sh
chmod 755 "$work"
if out=$(bash "$cluster" start --plugin "$so" --nodes 1 --dir "$work/cluster" --wait 300 --timeout 300 2>&1); then
	out=$(eval "$(bash "$cluster" env --dir "$work/cluster")" &&
		timeout 300 bash "$src/tests/slurm/as_user.sh" srun --governor -n1 governor verify 2>&1)
	if [[ $out == *verified* ]]; then
		pass "a cluster loading the installed plugin seals a step that governor verify accepts"
	else
		fail "a cluster loading the installed plugin seals a step that governor verify accepts" "$(tail -5 <<<"$out")"
	fi
	out=$(eval "$(bash "$cluster" env --dir "$work/cluster")" &&
		timeout 300 bash "$src/tests/slurm/as_user.sh" srun --governor -n1 -c1 --mem=100M \
			/usr/bin/python3 -c "$py_view" 2>&1)
	if [[ $out == "verified descriptor $((100 << 20))" ]]; then
		pass "python3-governor in that step reads the verified descriptor"
	else
		fail "python3-governor in that step reads the verified descriptor" "$(tail -5 <<<"$out")"
	fi
	# The documented line, with the packaged probes where it looks by
	# default: the OpenMP one is packaged, Go's is not (no Go build-dependency).
	# srun's own notes go to standard error, which is kept apart from the JSON.
	json=$(eval "$(bash "$cluster" env --dir "$work/cluster")" &&
		timeout 300 bash "$src/tests/slurm/as_user.sh" srun -n1 -c1 --mem=400M \
			governor doctor --runtimes --json 2>"$work/doctor.err")
	out=$(jq -r '[.runtimes[] | select(.runtime == "openmp" or .runtime == "go")
		| "\(.runtime)=\(.status)\(.decisions[0].verdict // "")"] | join(" ")' <<<"$json" 2>&1)
	if [[ $out == "go=no_probe openmp=askedok" ]]; then
		pass "governor doctor --runtimes asks OpenMP through the packaged probe"
	else
		fail "governor doctor --runtimes asks OpenMP through the packaged probe" \
			"$out; $(head -c 300 <<<"$json"); $(tail -3 "$work/doctor.err")"
	fi
else
	fail "a cluster starts with the installed plugin" "$(tail -10 <<<"$out")"
fi
bash "$cluster" stop --dir "$work/cluster" >/dev/null 2>&1 || true

# The installed documentation: every link and path it names installed.
if out=$(python3 "$src/tests/install/installed_docs.py" "${packages[@]}" 2>&1); then
	pass "the installed documentation: $out"
else
	fail "the installed documentation names only installed files" "$out"
fi
# Every line the rollout and the admin guide tell a site to write, as
# written, against these packages (TAP, numbered on from here).
while IFS= read -r line; do
	case $line in
	"ok "*) pass "${line#ok * - }" ;;
	"not ok "*) fail "${line#not ok * - }" ;;
	"#   "*) echo "$line" ;;
	esac
done < <(bash "$src/tests/install/test_doc_lines.sh" "$src" "$work" 2>&1)

# The install stage's tests, with these packages on the machine.
if [[ -n $build ]]; then
	for t in test_install.sh test_dist.sh; do
		if out=$(bash "$src/tests/install/$t" "$build" 2>&1); then
			pass "$t passes with the packages installed"
		else
			fail "$t passes with the packages installed" "$(grep -E '^not ok|^#' <<<"$out" | head -20)"
		fi
	done
fi

# libgovernor-dev: a program builds through the system's pkg-config.
flags=$(pkg-config --cflags --libs governor)
# shellcheck disable=SC2086 # pkg-config output is a list of words
if out=$(cc -std=c11 -Wall -Werror -o "$work/consumer" "$src/tests/install/consumer.c" $flags 2>&1) &&
	out=$("$work/consumer" 2>&1) &&
	[[ $out == *'"schema":"governor.snapshot/1"'* ]]; then
	pass "consumer.c builds with libgovernor-dev and runs"
else
	fail "consumer.c builds with libgovernor-dev and runs" "$(head -c 600 <<<"$out")"
fi

if out=$(DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 remove -y -q "${packages[@]}" 2>&1); then
	pass "apt-get remove the packages"
else
	fail "apt-get remove the packages" "$(tail -20 <<<"$out")"
fi
remaining=
for p in "${packages[@]}"; do installed "$p" && remaining+=" $p"; done
[[ -e $so ]] && remaining+=" $so"
command -v governor >/dev/null && remaining+=" $(command -v governor)"
if [[ -z $remaining ]]; then pass "nothing left installed"; else fail "nothing left installed" "left:$remaining"; fi
finish
