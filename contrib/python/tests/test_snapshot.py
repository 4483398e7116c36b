"""Snapshots through the binding: fixture trees, environments, the live
system, and the JSON-backed records."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

import pytest

import governor
from conftest import FIXTURES, MiB, SLURM_NODE


def test_slurm_step_on_fixture(slurm_env: dict[str, str]) -> None:
    s = governor.snapshot(SLURM_NODE, slurm_env)
    assert s.schema == governor.SCHEMA
    assert s.descriptor.status == "absent"
    assert s.descriptor.reason is None
    assert s.scheduler.source == "environment"
    assert s.scheduler.tasks_on_node == 1
    assert s.cpu.host.logical == 16
    assert s.cpu.host.physical == 8
    assert s.cpu.affinity.count == 2
    assert s.cpu.affinity.list == "4-5"
    assert s.cpu.cgroup.version == 1
    assert s.cpu.cgroup.cpuset_count == 2
    assert s.cpu.scheduler.cpus == 2
    assert s.cpu.effective.capacity_cores == 2.0
    assert s.cpu.effective.workers == 2
    assert s.cpu.effective.binding == "affinity"
    assert s.enforcement.cpu == "enforced"
    assert s.memory.cgroup.status == "limited"
    assert s.memory.cgroup.limit_bytes == 200 * MiB
    assert s.memory.scheduler.limit_bytes == 200 * MiB
    assert s.memory.effective.limit_bytes == 200 * MiB
    assert s.memory.effective.binding == "cgroup"
    assert s.memory.effective.remaining_bytes == s.memory.cgroup.remaining_bytes
    assert s.enforcement.memory == "enforced"
    assert s.pressure.source == "system"
    assert s.pressure.memory.some_avg10 == 2.88


def test_missing_values_are_none(slurm_env: dict[str, str]) -> None:
    s = governor.snapshot(SLURM_NODE, slurm_env)
    # No quota in the fixture, no GPU variable, no GPU, no memory.high (v1).
    assert s.cpu.cgroup.quota_cores is None
    assert s.scheduler.gpus_on_node is None
    assert s.accelerators.governed_gpu.card is None
    assert s.memory.cgroup.high_bytes is None
    assert s.memory.scheduler.per_task_bytes is None


def test_environment_is_the_one_given(slurm_env: dict[str, str]) -> None:
    # Variables alone (per-CPU memory, one CPU per task): an allocation the
    # kernel does not hold the process to (tests/unit/runtime/snapshot/test_snapshot.c).
    env = {"SLURM_JOB_ID": "5", "SLURM_STEP_ID": "0", "SLURM_NODEID": "0",
           "SLURM_CPUS_PER_TASK": "1", "SLURM_MEM_PER_CPU": "100"}
    s = governor.snapshot(SLURM_NODE, env)
    assert s.cpu.scheduler.cpus == 1
    assert s.cpu.effective.binding == "scheduler"
    assert s.enforcement.cpu == "not_enforced"
    assert s.memory.scheduler.per_task_bytes == 100 * MiB
    assert s.memory.effective.binding == "scheduler"
    assert s.enforcement.memory == "not_enforced"


def test_empty_environment_has_no_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    # The process environment is not read when an environment is given.
    monkeypatch.setenv("SLURM_JOB_ID", "5")
    monkeypatch.setenv("SLURM_CPUS_PER_TASK", "1")
    s = governor.snapshot(SLURM_NODE, {})
    assert s.scheduler.source is None
    assert all(v is None for k, v in s.scheduler.items() if k != "gpus_verified")
    assert s.cpu.scheduler.cpus is None
    assert s.enforcement.cpu == "unknown"


def test_process_environment_when_none(monkeypatch: pytest.MonkeyPatch,
                                       slurm_env: dict[str, str]) -> None:
    for name in list(os.environ):
        if name.startswith("SLURM") or name == "GOVERNOR_DESCRIPTOR":
            monkeypatch.delenv(name)
    for name, value in slurm_env.items():
        monkeypatch.setenv(name, value)
    s = governor.snapshot(SLURM_NODE)
    assert s.scheduler.source == "environment"
    assert s.cpu.scheduler.cpus == 2
    monkeypatch.setenv("SLURM_CPUS_PER_TASK", "1")
    monkeypatch.delenv("SLURM_CPUS_ON_NODE")
    # Read again at each capture: one context sees the change.
    with governor.Context(SLURM_NODE) as ctx:
        assert ctx.snapshot().cpu.scheduler.cpus == 1


def test_topology_on_fixture(slurm_env: dict[str, str]) -> None:
    # The mask 4-5 on a 2-package, SMT node: one thread each of two cores
    # in package 1, NUMA node 1; hwloc read the tree (HWLOC_FSROOT set for
    # the context's creation only).
    was = os.environ.get("HWLOC_FSROOT")
    s = governor.snapshot(SLURM_NODE, slurm_env)
    assert os.environ.get("HWLOC_FSROOT") == was
    t = s.topology
    assert t.source == "live"
    assert t.step.pus is None
    assert (t.task.pus, t.task.cores, t.task.whole_cores) == (2, 2, 0)
    assert (t.task.packages, t.task.numa_nodes) == (1, 1)
    assert [(n.os_index, n.pus, n.cores, n.cpus) for n in t.task.numa] == [(1, 2, 2, "4-5")]
    assert t.host.memory_only_numa_nodes == 0


def test_nothing_identifying_in_json(slurm_env: dict[str, str]) -> None:
    text = governor.snapshot(SLURM_NODE, slurm_env).json
    for secret in ("secret", "job_5", "uid_1000", str(FIXTURES), "/sys/"):
        assert secret not in text


def test_root_without_files_is_all_unknown() -> None:
    s = governor.snapshot(FIXTURES / "does-not-exist", {})
    assert s.schema == governor.SCHEMA
    assert s.cpu.host.logical is None
    assert s.topology.source is None
    assert s.topology.task.numa is None
    assert s.cpu.affinity.count is None
    assert s.cpu.effective.capacity_cores is None
    assert s.cpu.effective.binding is None
    assert s.memory.host.total_bytes is None
    assert s.memory.effective.limit_bytes is None
    assert s.pressure.source is None


def test_records_follow_the_json(slurm_env: dict[str, str]) -> None:
    s = governor.snapshot(SLURM_NODE, slurm_env)
    assert isinstance(s, Mapping)
    assert s.to_dict() == json.loads(s.json)
    assert s["cpu"]["effective"]["workers"] == s.cpu.effective.workers
    assert "memory" in s and "effective" in dir(s.memory)
    assert s.get("no-such-member") is None
    with pytest.raises(AttributeError):
        s.cpu.no_such_member
    with pytest.raises(AttributeError):
        s.cpu.effective.workers = 3  # type: ignore[misc]
    assert isinstance(s.accelerators.visible, governor.Record)


def test_live_snapshot() -> None:
    s = governor.snapshot()
    assert s.schema == governor.SCHEMA
    assert s.descriptor.status in ("absent", "verified", "invalid")
    mask = os.sched_getaffinity(0)
    assert s.cpu.affinity.count == len(mask)
    with open("/proc/meminfo", encoding="ascii") as f:
        total_kib = int(next(line for line in f if line.startswith("MemTotal:")).split()[1])
    assert s.memory.host.total_bytes == total_kib * 1024
    assert s.cpu.effective.workers >= 1
    assert s.cpu.effective.workers <= len(mask)


def test_context_reuse_and_close(slurm_env: dict[str, str]) -> None:
    ctx = governor.Context(SLURM_NODE, slurm_env)
    a, b = ctx.snapshot(), ctx.snapshot()
    ctx.close()
    # Snapshots are values: they outlive their context.
    assert a.cpu.effective.workers == b.cpu.effective.workers == 2
    assert a.plan().cpu_workers == 2
    with pytest.raises(ValueError):
        ctx.snapshot()
    ctx.close()


@pytest.mark.parametrize("env", [{"A=B": "1"}, {"": "1"}, {"A": "x\0y"}])
def test_bad_environment_refused(env: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        governor.snapshot(SLURM_NODE, env)


def test_same_as_the_tool(slurm_env: dict[str, str], tool: Path) -> None:
    """The binding's record equals `governor snapshot --json` on the same
    tree and environment (disk figures aside: they move between calls)."""
    import subprocess
    out = subprocess.run([str(tool), "snapshot", "--json", "--sysroot", str(SLURM_NODE)],
                         env=slurm_env, check=True, capture_output=True, text=True).stdout
    tool_view = json.loads(out)
    ours = governor.snapshot(SLURM_NODE, slurm_env).to_dict()
    for view in (tool_view, ours):
        del view["disk"]
    assert ours == tool_view


def test_page_cache_is_not_used() -> None:
    # A real Slurm step full of clean page cache (tests/slurm/cases/page_cache.sh):
    # remaining is the limit minus the working set, and the usage stays raw.
    env = {"SLURM_JOB_ID": "1", "SLURM_STEP_ID": "0", "SLURM_NODEID": "0",
           "SLURM_CPUS_PER_TASK": "1", "SLURM_MEM_PER_NODE": "300"}
    s = governor.snapshot(FIXTURES / "cgroup" / "slurm-v1-page-cache", env)
    m = s.memory.cgroup
    assert m.current_bytes - m.working_set_bytes > 290 * MiB
    assert m.remaining_bytes == 300 * MiB - m.working_set_bytes
    assert s.memory.effective.remaining_bytes == m.remaining_bytes
    assert s.policy.profile == "batch"
