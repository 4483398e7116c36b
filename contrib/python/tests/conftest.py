"""Shared fixtures: the repository's fixture trees and a Slurm task's
environment.  The tests run against the real library that GOVERNOR_LIBRARY
names (run-tests.sh sets it to a build's)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
REPO = PYTHON_DIR.parents[1]
FIXTURES = REPO / "tests" / "fixtures"
SLURM_NODE = FIXTURES / "snapshot" / "slurm-v1-node"
MiB = 1 << 20

sys.path.insert(0, str(PYTHON_DIR))

# A task of `srun -n1 -c2 --mem=200M` under task/cgroup v1 (the same as
# tests/unit/runtime/snapshot/test_snapshot.c), with two values that must never be printed.
SLURM_STEP_ENV = {
    "SLURM_JOB_ID": "5", "SLURM_STEP_ID": "0", "SLURM_NODEID": "0",
    "SLURM_CPUS_PER_TASK": "2", "SLURM_CPUS_ON_NODE": "2", "SLURM_TASKS_PER_NODE": "1",
    "SLURM_STEP_TASKS_PER_NODE": "1", "SLURM_NTASKS": "1", "SLURM_NNODES": "1",
    "SLURM_MEM_PER_NODE": "200",
    "SLURMD_NODENAME": "secret-node", "HOME": "/home/secret-user",
}


@pytest.fixture
def slurm_env() -> dict[str, str]:
    return dict(SLURM_STEP_ENV)


@pytest.fixture
def quiet_node(tmp_path: Path) -> Path:
    """The Slurm node on a kernel without PSI (no /proc/pressure): the same
    files minus the memory pressure (2.88 %) that makes every admission WAIT."""
    root = tmp_path / "node"
    shutil.copytree(SLURM_NODE, root, ignore=lambda d, names:
                    ["pressure"] if Path(d) == SLURM_NODE / "proc" else [])
    assert not (root / "proc" / "pressure").exists()
    assert (root / "proc" / "meminfo").exists()
    return root


@pytest.fixture
def tool() -> Path:
    """The `governor` tool of the same build (GOVERNOR_TOOL, else
    BUILDDIR/tool/governor beside the library's BUILDDIR/runtime/)."""
    path = os.environ.get("GOVERNOR_TOOL")
    if not path and os.environ.get("GOVERNOR_LIBRARY"):
        path = str(Path(os.environ["GOVERNOR_LIBRARY"]).parent.parent / "tool" / "governor")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("set GOVERNOR_TOOL to the build's governor executable")
    return Path(path)
