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
from .admission import (Availability, CeilingReason, Decision, Estimate, Governor, Policy,
                        PressureLevel, PressureState, Profile, Reason, Reservation, Verdict)
from .errors import GovernorError, LibraryNotFoundError
from .snapshot import SCHEMA, Context, NumaWorker, PlanResult, Record, Snapshot, plan, snapshot

__all__ = [
    "LIBRARY_ENV", "SCHEMA",
    "Availability", "CeilingReason", "Context", "Decision", "Estimate", "Governor", "GovernorError",
    "LibraryNotFoundError", "NumaWorker", "PlanResult", "Policy", "PressureLevel", "PressureState",
    "Profile", "Reason", "Record", "Reservation", "Snapshot", "Verdict",
    "error_codes", "plan", "snapshot", "strerror", "version",
]


def strerror(code: int) -> str:
    """gov_strerror(): the text of a library error code."""
    from . import _lib
    return _lib.text(_lib.lib().gov_strerror(code))


def error_codes() -> dict[str, int]:
    """Every library error code by name ("EPARSE": -4001), from the library's
    own list (gov_err_codes(), GOV_ERRNO_MAP): GovernorError.code is one."""
    from ctypes import byref, c_size_t
    from . import _lib
    n = c_size_t()
    codes = _lib.lib().gov_err_codes(byref(n))
    return {_lib.text(_lib.lib().gov_err_name(codes[i])): codes[i] for i in range(n.value)}


def version() -> str:
    """gov_version_string(): the version of the libgovernor loaded."""
    from . import _lib
    return _lib.text(_lib.lib().gov_version_string())
