#!/usr/bin/env bash
# covers: v1
# v2: what Python's pools count is the affinity mask and the host (os.cpu_count()), not a cgroup file; the guest image has no numpy or joblib; left out of the TCG guest for time
# Python's process pools in real steps (issue 37): what a user of Debian's
# Python gets from a default multiprocessing.Pool, concurrent.futures'
# ProcessPoolExecutor, joblib (n_jobs=-1) and numpy's OpenBLAS in each
# worker, plainly, with --governor=runtimes, and sized with the Python
# binding (governor.plan().cpu_workers).  In a 1-CPU step and in two tasks
# sharing a 2-CPU cpuset (--cpu-bind=none); and numexpr's threads.  Before 3.13 Pool and
# ProcessPoolExecutor count the host, unless the binding is installed: its
# .pth line (here in the user's site directory, as pip install --user puts
# it) makes them count PYTHON_CPU_COUNT, which only the governor sets.
# And PyTorch's pools (Debian 12's 1.13).
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
py=$(gov_python_copy)
# One line: "pool futures joblib blas binding numexpr numexpr_max" ("-":
# the binding failed).
# shellcheck disable=SC2016 # python source, run in the task
script='
import concurrent.futures, multiprocessing, os
import joblib, numexpr
from threadpoolctl import threadpool_info

def blas(_):
    import numpy
    (numpy.ones((200, 200)) @ numpy.ones((200, 200))).sum()
    return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"][0]

if __name__ == "__main__":
    with multiprocessing.Pool() as p:
        pool, threads = p._processes, max(p.map(blas, range(4)))
    with concurrent.futures.ProcessPoolExecutor() as e:
        futures = e._max_workers
    try:
        import governor
        binding = governor.plan().cpu_workers
    except Exception:
        binding = "-"
    print(pool, futures, joblib.cpu_count(), threads, binding, numexpr.nthreads, numexpr.MAX_THREADS)
'
# A file, as a user's program is: Python 3.14's default start method
# (forkserver) imports the workers' functions from it.
printf '%s\n' "$script" >"$py/pools.py"
py_minor=$(/usr/bin/python3 -c 'import sys; print(sys.version_info[1])')
site=$py/user/lib/python3.$py_minor/site-packages
mkdir -p "$site"
cp "$GOV_SRC_DIR/contrib/python/governor_cpu_count.py" "$GOV_SRC_DIR/contrib/python/governor-cpu-count.pth" "$site/"
chmod -R a+rX "$py"
run() { # SRUN_ARGS...: the tasks' lines, sorted
	as_user srun "$@" env PYTHONPATH="$py" PYTHONUSERBASE="$py/user" \
		GOVERNOR_LIBRARY="$py/libgovernor.so" /usr/bin/python3 "$py/pools.py" | sort -u
}
host=$(nproc)
for shape in "-n1 -c1" "-n2 -c1 --cpu-bind=none"; do
	# shellcheck disable=SC2086 # one word per option
	plain=$(run $shape --mem=1G)
	# shellcheck disable=SC2086
	governed=$(run --governor=runtimes $shape --mem=1G)
	printf -- '--- %s (pool futures joblib blas binding numexpr max): plain %s; --governor=runtimes %s\n' \
		"$shape" "$plain" "$governed"
	cpus=1
	[[ $shape == -n1* ]] || cpus=2
	# Pool and ProcessPoolExecutor count os.cpu_count(), the host's, until
	# 3.13 counts the affinity mask (os.process_cpu_count()); governed, they
	# count PYTHON_CPU_COUNT: 3.13 reads it, the binding's hook before.
	alone=$host want=1
	((py_minor >= 13)) && alone=$cpus
	assert_eq "$alone" "$(cut -d' ' -f1 <<<"$plain")" "$shape: Pool() alone"
	assert_eq "$alone" "$(cut -d' ' -f2 <<<"$plain")" "$shape: ProcessPoolExecutor() alone"
	assert_eq "$want" "$(cut -d' ' -f1 <<<"$governed")" "$shape: Pool() with --governor=runtimes"
	assert_eq "$want" "$(cut -d' ' -f2 <<<"$governed")" "$shape: ProcessPoolExecutor() with --governor=runtimes"
	# joblib counts the affinity mask: the shared cpuset's 2 alone, its
	# share (LOKY_MAX_CPU_COUNT) governed; OpenBLAS in a worker likewise.
	assert_eq "$cpus" "$(cut -d' ' -f3 <<<"$plain")" "$shape: joblib alone"
	assert_eq 1 "$(cut -d' ' -f3 <<<"$governed")" "$shape: joblib with --governor=runtimes"
	assert_eq "$cpus" "$(cut -d' ' -f4 <<<"$plain")" "$shape: OpenBLAS in a worker alone"
	assert_eq 1 "$(cut -d' ' -f4 <<<"$governed")" "$shape: OpenBLAS in a worker with --governor=runtimes"
	# The binding sizes the pool from the allocation in any Python: from
	# the sealed descriptor, or without one from Slurm's variables.
	assert_eq 1 "$(cut -d' ' -f5 <<<"$plain")" "$shape: governor.plan().cpu_workers alone"
	assert_eq 1 "$(cut -d' ' -f5 <<<"$governed")" "$shape: governor.plan().cpu_workers governed"
	# numexpr counts the host's cores whatever the task holds, and keeps a
	# pool of 64; the governed task's are its share.
	assert_eq "$host 64" "$(cut -d' ' -f6,7 <<<"$plain")" "$shape: numexpr alone"
	assert_eq "1 1" "$(cut -d' ' -f6,7 <<<"$governed")" "$shape: numexpr with --governor=runtimes"
done
assert_idle

# PyTorch before 2.14 sizes its intra-op pool from OMP_NUM_THREADS (or
# MKL_NUM_THREADS), else from cpuinfo's count of the machine's cores,
# whatever the task holds; its inter-op pool from the same count, with no
# variable at all.  Governed, the intra-op pool is the task's share, in a
# cpuset the tasks share and in a step of two CPUs alike.  Debian 12's
# 1.13 on the host's series; the Slurm roots do not carry Debian's 2.6 and
# 2.14 (300 MiB and more each).
if [[ $(by_series 22.05=torch 24.11=none 26.05=none) == torch ]]; then
	torch='import os, torch; print(os.environ.get("OMP_NUM_THREADS", "-"), torch.get_num_threads(), torch.get_num_interop_threads())'
	for shape in "-n2 -c1 --cpu-bind=none" "-n1 -c2"; do
		# shellcheck disable=SC2086 # one word per option
		plain=$(as_user srun $shape --mem=1G /usr/bin/python3 -c "$torch" | sort -u)
		# shellcheck disable=SC2086
		governed=$(as_user srun --governor=runtimes $shape --mem=1G /usr/bin/python3 -c "$torch" | sort -u)
		printf -- '--- PyTorch %s (OMP_NUM_THREADS intra-op inter-op): plain %s; --governor=runtimes %s\n' \
			"$shape" "$plain" "$governed"
		share=1
		[[ $shape == -n1* ]] && share=2
		assert_eq "$share $share" "$(cut -d' ' -f1,2 <<<"$governed")" "$shape: PyTorch's intra-op pool governed"
		assert_eq "-" "$(cut -d' ' -f1 <<<"$plain")" "$shape: no OMP_NUM_THREADS plain"
	done
	assert_idle
else
	echo "PyTorch is checked on the host's series (Debian 12's 1.13): the Slurm roots do not carry it"
fi
