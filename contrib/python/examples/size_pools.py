"""Size Python's worker pools from the allocation with governor.plan().

    srun -n1 -c8 --mem=16G python3 size_pools.py

A pool of N worker processes whose BLAS or OpenMP libraries each start one
thread per CPU runs N times too many threads, and N workers that each assume
the whole memory run out of it.  ``governor.plan(workers=N)`` gives, for a
pool of N, the native threads per worker (so that workers x threads fits the
CPUs) and each worker's share of the memory; ``plan().cpu_workers`` is the
largest pool that does not oversubscribe.  Below, the same plan sizes
concurrent.futures, multiprocessing, joblib and Dask; run as a program, each
pool does a little real work and the JSON printed says what it really used.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import multiprocessing as mp
import os
import threading
from typing import Any

import governor

# Read by the BLAS and OpenMP libraries when they load; threadpoolctl, when
# installed, also limits libraries a worker has already loaded (a forked
# worker inherits numpy from its parent).
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS", "NUMEXPR_NUM_THREADS")
_limits: Any = None


def pool_plan(workers: int | None = None) -> governor.PlanResult:
    """The plan for a pool of ``workers`` processes (default: the CPU ceiling)."""
    return governor.plan(workers or governor.plan().cpu_workers)


def limit_threads(threads: int) -> None:
    """Pool initializer: at most ``threads`` native threads in this worker."""
    global _limits
    for name in THREAD_VARIABLES:
        os.environ[name] = str(threads)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    _limits = threadpool_limits(limits=threads)


def rows_per_task(plan: governor.PlanResult, row_bytes: int, copies: int = 4) -> int:
    """A chunk size from the memory a worker may use: ``copies`` buffers of
    the rows at once must fit its share (free memory, else the limit)."""
    share = plan.memory_remaining_per_worker or plan.memory_limit_per_worker
    if share is None:
        return 1024
    return max(1, share // (row_bytes * copies))


def blas_threads() -> int | None:
    """The threads the BLAS library of this process uses (threadpoolctl)."""
    try:
        import numpy  # noqa: F401  (loads the BLAS library)
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    counts = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    return counts[0] if counts else None


def worker_view(_: object = None) -> tuple[int, int | None]:
    """What one task sees: its worker's pid and BLAS threads."""
    return os.getpid(), blas_threads()


def _summary(views: list[tuple[int, int | None]]) -> dict[str, Any]:
    return {"processes": len({pid for pid, _ in views}),
            "blas_threads": sorted({t for _, t in views if t is not None})}


def with_concurrent_futures(plan: governor.PlanResult, tasks: int) -> dict[str, Any]:
    with cf.ProcessPoolExecutor(max_workers=plan.workers, initializer=limit_threads,
                                initargs=(plan.threads_per_worker,)) as pool:
        views = list(pool.map(worker_view, range(tasks), timeout=120))
    # Threads that mostly wait (downloads, a file system): the I/O figure.
    with cf.ThreadPoolExecutor(max_workers=plan.io_workers) as io:
        io_threads = len(set(io.map(lambda _: threading.get_ident(), range(tasks))))
    return {**_summary(views), "io_threads": io_threads}


def with_multiprocessing(plan: governor.PlanResult, tasks: int) -> dict[str, Any]:
    with mp.Pool(processes=plan.workers, initializer=limit_threads,
                 initargs=(plan.threads_per_worker,)) as pool:
        views = pool.map_async(worker_view, range(tasks)).get(timeout=120)
    return _summary(views)


def with_joblib(plan: governor.PlanResult, tasks: int) -> dict[str, Any] | None:
    try:
        import joblib
    except ImportError:
        return None
    # loky starts its workers with the thread variables set to this.
    with joblib.parallel_backend("loky", inner_max_num_threads=plan.threads_per_worker):
        views = joblib.Parallel(n_jobs=plan.workers)(
            joblib.delayed(worker_view)(i) for i in range(tasks))
    return _summary(views)


def with_dask(plan: governor.PlanResult, tasks: int) -> dict[str, Any] | None:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        return None
    memory = plan.memory_remaining_per_worker or plan.memory_limit_per_worker
    # The nanny pauses a worker near its memory_limit and restarts it past it.
    with LocalCluster(n_workers=plan.workers, threads_per_worker=plan.threads_per_worker,
                      memory_limit=memory or 0, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        client.run(limit_threads, plan.threads_per_worker)
        views = client.gather(client.map(worker_view, range(tasks), pure=False))
        workers = client.scheduler_info()["workers"].values()
        return {**_summary(views), "workers": len(workers),
                "nthreads": sorted({w["nthreads"] for w in workers}),
                "memory_limit": sorted({w["memory_limit"] for w in workers})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, help="pool size (default: the CPU ceiling)")
    parser.add_argument("--tasks", type=int, default=16)
    args = parser.parse_args()
    plan = pool_plan(args.workers)
    print(json.dumps({
        "plan": {"workers": plan.workers, "threads_per_worker": plan.threads_per_worker,
                 "io_workers": plan.io_workers,
                 "memory_limit_per_worker": plan.memory_limit_per_worker,
                 "memory_remaining_per_worker": plan.memory_remaining_per_worker,
                 "rows_per_task_of_1KiB": rows_per_task(plan, 1024)},
        "concurrent_futures": with_concurrent_futures(plan, args.tasks),
        "multiprocessing": with_multiprocessing(plan, args.tasks),
        "joblib": with_joblib(plan, args.tasks),
        "dask": with_dask(plan, args.tasks),
    }))


if __name__ == "__main__":
    main()
