"""The pool-sizing example (examples/size_pools.py), run for real on one and
on two CPUs: concurrent.futures, multiprocessing, joblib and Dask each use the
plan's workers, native threads and memory.  joblib and Dask are Debian
packages (python3-joblib, python3-dask, python3-distributed); their tests
skip where they are not installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from conftest import PYTHON_DIR

EXAMPLE = PYTHON_DIR / "examples" / "size_pools.py"
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS", "NUMEXPR_NUM_THREADS", "GOVERNOR_THREADS")

pytest.importorskip("numpy")
pytest.importorskip("threadpoolctl")


@pytest.fixture(scope="module", params=["0", "0,1"])
def run(request: pytest.FixtureRequest) -> dict[str, Any]:
    cpus = request.param
    if len(cpus.split(",")) > len(os.sched_getaffinity(0)):
        pytest.skip(f"needs CPUs {cpus}")
    # Nothing inherited may limit the threads: without the plan's limit each
    # worker's OpenBLAS would start one thread per CPU.
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    env["PYTHONPATH"] = str(PYTHON_DIR)
    # Dask is given the plan's memory, a share of what the machine has free
    # at that moment: acting on it (pausing a worker at 80 %, restarting one
    # at 95 %) would make the run depend on what else runs beside it.  Its
    # 30 s connection timeouts are figures a starved machine may exceed; the
    # ones here, like the run's own, only end a hang.
    for memory in ("TARGET", "SPILL", "PAUSE", "TERMINATE"):
        env[f"DASK_DISTRIBUTED__WORKER__MEMORY__{memory}"] = "False"
    env["DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT"] = "600s"
    env["DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP"] = "600s"
    out = subprocess.run(["taskset", "-c", cpus, sys.executable, str(EXAMPLE)], env=env,
                         check=True, capture_output=True, text=True, timeout=1800).stdout
    result: dict[str, Any] = json.loads(out)
    result["cpus"] = len(cpus.split(","))
    return result


def test_the_plan_is_the_pool_ceiling(run: dict[str, Any]) -> None:
    p = run["plan"]
    assert (p["workers"], p["threads_per_worker"]) == (run["cpus"], 1)
    assert p["memory_remaining_per_worker"] <= p["memory_limit_per_worker"]
    assert p["rows_per_task_of_1KiB"] * 1024 * 4 <= p["memory_remaining_per_worker"]


@pytest.mark.parametrize("pool", ["concurrent_futures", "multiprocessing"])
def test_standard_library_pools(run: dict[str, Any], pool: str) -> None:
    got = run[pool]
    assert 1 <= got["processes"] <= run["plan"]["workers"]
    assert got["blas_threads"] == [1]


def test_io_threads(run: dict[str, Any]) -> None:
    assert 1 <= run["concurrent_futures"]["io_threads"] <= run["plan"]["io_workers"]


def test_joblib(run: dict[str, Any]) -> None:
    pytest.importorskip("joblib")
    got = run["joblib"]
    assert 1 <= got["processes"] <= run["plan"]["workers"]
    assert got["blas_threads"] == [1]


def test_dask(run: dict[str, Any]) -> None:
    pytest.importorskip("dask.distributed")
    got, p = run["dask"], run["plan"]
    assert got["workers"] == p["workers"]
    assert 1 <= got["processes"] <= p["workers"]
    assert got["nthreads"] == [p["threads_per_worker"]]
    assert got["memory_limit"] == [p["memory_remaining_per_worker"]]
    assert got["blas_threads"] == [1]
