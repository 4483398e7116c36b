"""A task's part of a shared GPU (governor.gpu): the figure governor run
gives JAX and CuPy, and PyTorch held to it through its own call."""

from __future__ import annotations

import pytest

import governor
import governor.gpu
from conftest import SLURM_NODE


def grant(kind: str | None, share: float | None, tasks: int = 1) -> governor.Record:
    return governor.Record({"scheduler": {"gpu_share_kind": kind, "gpu_share": share,
                                          "tasks_on_node": tasks}})


@pytest.mark.parametrize("kind, share, tasks, want", [
    ("shard", 0.25, 1, 0.187),   # governor run: XLA_PYTHON_CLIENT_MEM_FRACTION=0.187
    ("mps", 0.5, 1, 0.375),
    ("shard", 0.5, 2, 0.187),    # two tasks hold the half together
    ("shard", 1, 1, None),       # a whole GPU's shards
    ("gpu", 1, 1, None),
    ("mig", 1, 1, None),
    ("partition", 1, 1, None),
    (None, None, 1, None),       # no grant known
    ("mps", 0.001, 1, None),     # too small a part for a pool
])
def test_pool_fraction(kind: str | None, share: float | None, tasks: int,
                       want: float | None) -> None:
    assert governor.gpu.pool_fraction(grant(kind, share, tasks)) == want


def test_snapshot_without_a_sealed_grant(slurm_env: dict[str, str]) -> None:
    # The share is root's sealed figure: a task's variables alone give none.
    s = governor.snapshot(SLURM_NODE, slurm_env)
    assert s.scheduler.gpu_share_kind is None
    assert governor.gpu.pool_fraction(s) is None


def test_torch_without_cuda() -> None:
    # Debian's PyTorch (python3-torch, tests/install-deps.sh) has no CUDA:
    # nothing is set, even on a share.
    import torch
    assert not torch.cuda.is_available()
    assert governor.gpu.limit_torch_memory(grant("shard", 0.25)) is None
    assert governor.gpu.limit_torch_memory(grant("gpu", 1)) is None
