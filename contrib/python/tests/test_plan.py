"""The planner through the binding: gov_plan_compute on a held snapshot."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import governor
from conftest import FIXTURES, SLURM_NODE


def test_plan_of_the_slurm_step(slurm_env: dict[str, str]) -> None:
    s = governor.snapshot(SLURM_NODE, slurm_env)
    p = s.plan()
    assert p == governor.PlanResult(workers=2, threads_per_worker=1, cpu_workers=2,
                                    io_workers=6, oversubscribed=False)
    assert governor.plan(snapshot=s) == p
    assert governor.plan(sysroot=SLURM_NODE, env=slurm_env) == p


def test_requested_workers(slurm_env: dict[str, str]) -> None:
    s = governor.snapshot(SLURM_NODE, slurm_env)
    one = s.plan(1)
    assert (one.workers, one.threads_per_worker, one.oversubscribed) == (1, 2, False)
    three = governor.plan(3, snapshot=s)
    assert (three.workers, three.threads_per_worker, three.oversubscribed) == (3, 1, True)
    assert three.cpu_workers == 2


def test_unknown_capacity_plans_one_worker() -> None:
    p = governor.plan(sysroot=FIXTURES / "does-not-exist", env={})
    assert (p.workers, p.cpu_workers, p.threads_per_worker) == (1, 1, 1)


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
    assert p.workers == p.cpu_workers
    assert p.workers * p.threads_per_worker <= max(1, int(s.cpu.effective.capacity_cores or 1))


def test_same_as_the_tool(slurm_env: dict[str, str], tool: Path) -> None:
    out = subprocess.run([str(tool), "plan", "--json", "--workers", "3",
                          "--sysroot", str(SLURM_NODE)],
                         env=slurm_env, check=True, capture_output=True, text=True).stdout
    t = json.loads(out)
    p = governor.plan(3, sysroot=SLURM_NODE, env=slurm_env)
    assert (p.workers, p.threads_per_worker, p.cpu_workers, p.io_workers,
            p.oversubscribed) == (t["workers"], t["threads_per_worker"], t["cpu_workers"],
                                  t["io_workers"], t["oversubscribed"])
