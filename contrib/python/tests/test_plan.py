"""The planner through the binding: gov_plan_compute on a held snapshot."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import governor
from conftest import FIXTURES, SLURM_NODE, MiB


def test_plan_of_the_slurm_step(slurm_env: dict[str, str]) -> None:
    s = governor.snapshot(SLURM_NODE, slurm_env)
    p = s.plan()
    # One process using both CPUs and the step's 200 MiB (140 MiB still free).
    assert p == governor.PlanResult(workers=1, threads_per_worker=2, cpu_workers=2,
                                    io_workers=6, oversubscribed=False,
                                    memory_limit_per_worker=200 * MiB,
                                    memory_remaining_per_worker=140 * MiB,
                                    cores=2, numa_nodes=1)
    assert governor.plan(snapshot=s) == p
    assert governor.plan(sysroot=SLURM_NODE, env=slurm_env) == p


def test_requested_workers(slurm_env: dict[str, str]) -> None:
    s = governor.snapshot(SLURM_NODE, slurm_env)
    one = s.plan(1)
    assert (one.workers, one.threads_per_worker, one.oversubscribed) == (1, 2, False)
    pool = s.plan(s.plan().cpu_workers)
    assert (pool.workers, pool.threads_per_worker) == (2, 1)
    assert pool.memory_limit_per_worker == 100 * MiB
    assert pool.memory_remaining_per_worker == 70 * MiB
    three = governor.plan(3, snapshot=s)
    assert (three.workers, three.threads_per_worker, three.oversubscribed) == (3, 1, True)
    assert three.cpu_workers == 2


def test_unknown_capacity_plans_one() -> None:
    p = governor.plan(sysroot=FIXTURES / "does-not-exist", env={})
    assert (p.workers, p.cpu_workers, p.threads_per_worker) == (1, 1, 1)
    assert p.memory_limit_per_worker is None and p.memory_remaining_per_worker is None


@pytest.mark.parametrize("workers, error", [(0, ValueError), (-1, ValueError),
                                            (2**64, ValueError), ("2", TypeError),
                                            (True, TypeError)])
def test_bad_workers_refused(workers: object, error: type[Exception],
                             slurm_env: dict[str, str]) -> None:
    s = governor.snapshot(SLURM_NODE, slurm_env)
    with pytest.raises(error):
        s.plan(workers)  # type: ignore[arg-type]


def test_live_plan() -> None:
    s = governor.snapshot()
    p = governor.plan(snapshot=s)
    assert p.cpu_workers == s.cpu.effective.workers
    assert p.workers == 1
    assert p.threads_per_worker == p.cpu_workers
    limit = s.memory.effective.limit_bytes
    assert p.memory_limit_per_worker is None or p.memory_limit_per_worker <= limit


@pytest.mark.parametrize("workers", [None, 3])
def test_same_as_the_tool(slurm_env: dict[str, str], tool: Path, workers: int | None) -> None:
    args = [str(tool), "plan", "--json", "--sysroot", str(SLURM_NODE)]
    if workers:
        args += ["--workers", str(workers)]
    t = json.loads(subprocess.run(args, env=slurm_env, check=True, capture_output=True,
                                  text=True).stdout)
    p = governor.plan(workers, sysroot=SLURM_NODE, env=slurm_env)
    assert (p.workers, p.threads_per_worker, p.cpu_workers, p.io_workers, p.oversubscribed,
            p.memory_limit_per_worker, p.memory_remaining_per_worker) == (
        t["workers"], t["threads_per_worker"], t["cpu_workers"], t["io_workers"],
        t["oversubscribed"], t["memory_limit_per_worker_bytes"],
        t["memory_remaining_per_worker_bytes"])


def test_topology_plans_on_fixture(slurm_env: dict[str, str]) -> None:
    # The mask 4-5: one thread each of two cores of NUMA node 1.
    s = governor.snapshot(SLURM_NODE, slurm_env)
    p = s.plan(per_core=True)
    assert (p.cores, p.numa_nodes, p.per_core, p.idle_pus) == (2, 1, True, 0)
    assert p.numa_workers is None
    n = s.plan("numa")
    assert n.workers == 1
    assert n.numa_workers == [governor.NumaWorker(os_index=1, cpus="4-5", threads=2,
                                                  memory_limit_bytes=200 * MiB)]


def test_numa_plan_needs_a_topology() -> None:
    s = governor.snapshot(FIXTURES / "does-not-exist", {})
    with pytest.raises(governor.GovernorError) as e:
        s.plan("numa")
    assert e.value.name == "ENOENT"
