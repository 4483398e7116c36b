"""Python binding of libgovernor (ctypes; no compiled extension).

What a process in a (Slurm) job may really use, and admission of work
against it::

    import governor
    snap = governor.snapshot()
    print(snap.cpu.effective.workers, snap.memory.effective.remaining_bytes)
    p = governor.plan(workers=4)
    with governor.Governor() as gov:
        with gov.reserve(governor.Estimate(bytes_per_item=1 << 20, batch_max=64)) as r:
            ...

The library is found through GOVERNOR_LIBRARY (a path to libgovernor.so),
else the dynamic loader's search (ctypes.util.find_library("governor")).
"""

from __future__ import annotations

from ._lib import LIBRARY_ENV
from .admission import (Availability, Decision, Estimate, Governor, Policy, PressureLevel,
                        PressureState, Profile, Reason, Reservation, Verdict)
from .errors import GovernorError, LibraryNotFoundError
from .snapshot import SCHEMA, Context, PlanResult, Record, Snapshot, plan, snapshot

__all__ = [
    "LIBRARY_ENV", "SCHEMA",
    "Availability", "Context", "Decision", "Estimate", "Governor", "GovernorError",
    "LibraryNotFoundError", "PlanResult", "Policy", "PressureLevel", "PressureState",
    "Profile", "Reason", "Record", "Reservation", "Snapshot", "Verdict",
    "plan", "snapshot", "strerror",
]


def strerror(code: int) -> str:
    """gov_strerror(): the text of a library error code."""
    from . import _lib
    return _lib.text(_lib.lib().gov_strerror(code))
