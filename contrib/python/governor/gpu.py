"""A task's part of a shared GPU, for the runtimes that read no variable.

``governor run`` and ``--governor=runtimes`` size JAX, TensorFlow and CuPy to
a gres/shard or gres/mps share through their variables (docs/runtimes.md, "GPU
variables"). PyTorch reads none: its caching allocator takes what it needs,
up to the whole card, unless the program calls
``torch.cuda.set_per_process_memory_fraction`` (torch/cuda/memory.py). One
call here makes it do so::

    import governor.gpu
    governor.gpu.limit_torch_memory()   # before the first CUDA allocation
"""

from __future__ import annotations

import math
from typing import Any

from .snapshot import snapshot as _snapshot

# The runtimes' pools get three quarters of the task's part, as governor run
# gives JAX and CuPy (core/decide/knobs.c): the CUDA context and the
# libraries' workspaces need the rest.
POOL_PERCENT = 75
_MILLI = 1000


def pool_fraction(snap: Any = None) -> float | None:
    """The fraction of its GPU's memory a task's memory pools may take.

    Three quarters of the task's part of a gres/shard or gres/mps share (the
    step's share on the node over its tasks there), in thousandths as
    ``governor run`` writes ``XLA_PYTHON_CLIENT_MEM_FRACTION``; None where the
    task holds a whole GPU, a MIG instance, a partition, or no known grant:
    then the device it sees is its own to fill.
    """
    sched = (snap if snap is not None else _snapshot()).scheduler
    share = sched.gpu_share
    if sched.gpu_share_kind not in ("shard", "mps") or share is None or not share < 1:
        return None
    tasks = sched.tasks_on_node if sched.tasks_on_node and sched.tasks_on_node > 1 else 1
    milli = math.floor(share * _MILLI / tasks)
    pool = milli * POOL_PERCENT // 100
    return pool / _MILLI if pool > 0 else None


def limit_torch_memory(snap: Any = None, device: int = 0) -> float | None:
    """Hold PyTorch's caching allocator to pool_fraction() of its GPU.

    Calls ``torch.cuda.set_per_process_memory_fraction(fraction, device)``
    (device 0: the first device the task sees, the one its grant shows it)
    and returns the fraction; returns None, changing nothing, where the
    task holds no shared GPU or PyTorch has no CUDA device. Call it before
    the first allocation on the device. Raises ImportError without PyTorch.
    """
    import torch  # only for those who ask

    fraction = pool_fraction(snap)
    if fraction is None or not torch.cuda.is_available():
        return None
    torch.cuda.set_per_process_memory_fraction(fraction, device)
    return fraction
