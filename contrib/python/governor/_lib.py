"""Loading libgovernor and declaring the C API that the binding calls.

The snapshot is never mirrored here: Python holds it as an opaque pointer
from ``gov_snapshot_new()`` and reads it through ``gov_snapshot_json()``.
The small plain structures of the planner and the governor are mirrored
field for field from ``include/governor.h``; ``tests/test_abi.py`` compares
their sizes and offsets with the C compiler's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
from ctypes import (POINTER, Structure, c_char_p, c_int, c_size_t,
                    c_uint, c_uint32, c_uint64, c_void_p)
from typing import Any, Callable, NoReturn, TypeVar

from .errors import GovernorError, LibraryNotFoundError

LIBRARY_ENV = "GOVERNOR_LIBRARY"

#: A count or byte quantity that no evidence supports (``GOV_UNKNOWN``).
UNKNOWN = 2**64 - 1
UINT32_MAX = 2**32 - 1
#: ``GOV_UID_NONE``: no uid besides 0 is trusted to seal.
UID_NONE = UINT32_MAX
#: ``GOV_OPT_NO_DESCRIPTOR``.
OPT_NO_DESCRIPTOR = 0x1


class Options(Structure):
    """gov_options."""

    _fields_ = [
        ("sysroot", c_char_p),
        ("workdir", c_char_p),
        ("envp", POINTER(c_char_p)),
        ("munge_socket", c_char_p),
        ("trusted_uid", c_uint32),
        ("flags", c_uint),
        ("reserved", c_uint64 * 8),
    ]


#: ``GOV_TOPOLOGY_NUMA_MAX``: NUMA nodes a snapshot and a plan list.
TOPOLOGY_NUMA_MAX = 32
#: ``GOV_PLAN_PER_CORE``, ``GOV_PLAN_WORKERS_NUMA``.
PLAN_PER_CORE = 0x1
PLAN_WORKERS_NUMA = 0x2


class PlanWorker(Structure):
    """One NUMA worker of gov_plan.worker[]."""

    _fields_ = [
        ("threads", c_uint64),
        ("memory_limit_bytes", c_uint64),
    ]


class Plan(Structure):
    """gov_plan."""

    _fields_ = [
        ("workers", c_uint64),
        ("threads_per_worker", c_uint64),
        ("cpu_workers", c_uint64),
        ("io_workers", c_uint64),
        ("oversubscribed", c_int),
        ("memory_limit_per_worker", c_uint64),
        ("memory_remaining_per_worker", c_uint64),
        ("cores", c_uint64),
        ("numa_nodes", c_uint64),
        ("idle_pus", c_uint64),
        ("flags", c_uint),
        ("numa_workers", c_uint32),
        ("worker", PlanWorker * TOPOLOGY_NUMA_MAX),
        ("reserve_threads", c_uint64),
        ("reserve_memory_bytes", c_uint64),
        ("reserved", c_uint64 * 6),
    ]


class Estimate(Structure):
    """gov_estimate."""

    _fields_ = [
        ("task_class", c_uint32),
        ("fixed_bytes", c_uint64),
        ("bytes_per_item", c_uint64),
        ("cpu_threads", c_uint64),
        ("io_slots", c_uint64),
        ("gpu_slots", c_uint64),
        ("batch_min", c_uint64),
        ("batch_max", c_uint64),
        ("reserved", c_uint64 * 8),
    ]


class Decision(Structure):
    """gov_decision."""

    _fields_ = [
        ("verdict", c_int),
        ("reason", c_int),
        ("batch", c_uint64),
        ("threads", c_uint64),
        ("ram_bytes", c_uint64),
        ("pressure", c_int),
        ("ceiling", c_uint64),
        ("ceiling_reason", c_int),
        ("bytes_per_item", c_uint64),
        ("ram_needed_bytes", c_uint64),
        ("ram_free_bytes", c_uint64),
        ("reserved", c_uint64 * 8),
    ]


class Reservation(Structure):
    """gov_reservation."""

    _fields_ = [("id", c_uint64)]


class Policy(Structure):
    """gov_policy."""

    _fields_ = [
        ("profile_set", c_int),
        ("profile", c_int),
        ("mem_reserve_bytes", c_uint64),
        ("mem_reserve_pct", c_uint32),
        ("cpu_reserve_threads", c_uint64),
        ("cpu_reserve_pct", c_uint32),
        ("reserved", c_uint64 * 8),
    ]


class BatchRecord(Structure):
    """gov_batch_record."""

    _fields_ = [
        ("items", c_uint64),
        ("peak_memory_bytes", c_uint64),
        ("duration_ns", c_uint64),
        ("reserved", c_uint64 * 4),
    ]


class Availability(Structure):
    """gov_availability."""

    _fields_ = [
        ("snapshot_valid", c_int),
        ("profile", c_int),
        ("detected_ram_bytes", c_uint64),
        ("detected_threads", c_uint64),
        ("ram_bytes", c_uint64),
        ("ram_reserve_bytes", c_uint64),
        ("ram_reserved_bytes", c_uint64),
        ("threads", c_uint64),
        ("threads_reserve", c_uint64),
        ("threads_reserved", c_uint64),
        ("io_slots", c_uint64),
        ("io_reserved", c_uint64),
        ("gpu_slots", c_uint64),
        ("gpu_free_bytes", c_uint64),
        ("active_reservations", c_uint64),
        ("pressure", c_int),
        ("ceiling", c_uint64),
        ("generation", c_uint64),
        ("reserved", c_uint64 * 8),
    ]


class PressureState(Structure):
    """gov_pressure_state."""

    _fields_ = [
        ("level", c_int),
        ("ceiling", c_uint64),
        ("ceiling_reason", c_int),
        ("healthy_streak", c_uint32),
        ("swap_streak", c_uint32),
        ("observations", c_uint64),
        ("triggers_fired", c_uint64),
        ("reserved", c_uint64 * 7),
    ]


class GovernorOptions(Structure):
    """gov_governor_options (the test clock is not exposed: clock stays NULL)."""

    _fields_ = [
        ("clock", c_void_p),
        ("clock_arg", c_void_p),
        ("first_reservation_id", c_uint64),
        ("io_slots", c_uint64),
        ("max_classes", c_uint32),
        ("max_batch", c_uint64),
        ("reserved", c_uint64 * 8),
    ]


_P = c_void_p  # opaque pointers: gov_context *, gov_snapshot *, gov_governor *

# name: (restype, argtypes)
_PROTOTYPES: dict[str, tuple[Any, list[Any]]] = {
    "gov_strerror": (c_char_p, [c_int]),
    "gov_err_name": (c_char_p, [c_int]),
    "gov_err_codes": (POINTER(c_int), [POINTER(c_size_t)]),
    "gov_version_string": (c_char_p, []),
    "gov_context_create": (c_int, [POINTER(Options), POINTER(_P)]),
    "gov_context_destroy": (None, [_P]),
    "gov_snapshot_new": (c_int, [POINTER(_P)]),
    "gov_snapshot_free": (None, [_P]),
    "gov_snapshot_capture": (c_int, [_P, _P]),
    "gov_snapshot_json": (c_int, [_P, POINTER(c_void_p), POINTER(c_size_t)]),
    "gov_plan_compute": (c_int, [_P, c_uint64, c_uint, POINTER(Plan)]),
    "gov_governor_create": (c_int, [POINTER(GovernorOptions), POINTER(_P)]),
    "gov_governor_destroy": (None, [_P]),
    "gov_governor_set_policy": (c_int, [_P, POINTER(Policy)]),
    "gov_governor_decide": (c_int, [_P, _P, POINTER(Estimate), POINTER(Decision)]),
    "gov_governor_reserve": (c_int, [_P, _P, POINTER(Estimate), c_uint64,
                                     POINTER(Decision), POINTER(Reservation)]),
    "gov_governor_reserve_available": (c_int, [_P, _P, POINTER(Estimate),
                                               POINTER(Decision), POINTER(Reservation)]),
    "gov_governor_release": (c_int, [_P, Reservation]),
    "gov_governor_reservation_is_valid": (c_int, [_P, Reservation]),
    "gov_governor_availability": (c_int, [_P, _P, POINTER(Availability)]),
    "gov_governor_record_batch": (c_int, [_P, c_uint32, POINTER(BatchRecord)]),
    "gov_governor_generation": (c_uint64, [_P]),
    "gov_governor_wait_for_change": (c_int, [_P, c_uint64, c_uint64, POINTER(c_uint64)]),
    "gov_governor_pressure": (c_int, [_P, _P, POINTER(PressureState)]),
    "gov_pressure_level_name": (c_char_p, [c_int]),
    "gov_verdict_name": (c_char_p, [c_int]),
    "gov_reason_name": (c_char_p, [c_int]),
    "gov_ceiling_reason_name": (c_char_p, [c_int]),
    "gov_profile_name": (c_char_p, [c_int]),
}


def _find() -> str:
    path = os.environ.get(LIBRARY_ENV) or ctypes.util.find_library("governor")
    if not path:
        raise LibraryNotFoundError(
            f"libgovernor not found: set {LIBRARY_ENV} to the path of libgovernor.so "
            "(in a build tree: BUILDDIR/runtime/libgovernor.so), or install "
            "libgovernor where the dynamic loader finds it")
    return path


@functools.cache
def lib() -> ctypes.CDLL:
    """The loaded library with every function used declared (loaded once)."""
    path = _find()
    try:
        handle = ctypes.CDLL(path)
    except OSError as exc:
        raise LibraryNotFoundError(
            f"libgovernor could not be loaded ({exc}); set {LIBRARY_ENV} to the "
            "path of a libgovernor.so built for this machine") from exc
    for name, (restype, argtypes) in _PROTOTYPES.items():
        try:
            fn = getattr(handle, name)
        except AttributeError as exc:
            raise LibraryNotFoundError(
                f"the libgovernor found lacks {name}(): it is older than this "
                f"binding; set {LIBRARY_ENV} to a current build") from exc
        fn.restype = restype
        fn.argtypes = argtypes
    return handle


@functools.cache
def _libc_free() -> Callable[[c_void_p], None]:
    free = ctypes.CDLL(None).free
    free.restype = None
    free.argtypes = [c_void_p]
    return free


def free(ptr: c_void_p) -> None:
    """Release memory the library returned through a ``char **``."""
    _libc_free()(ptr)


def text(raw: bytes | None) -> str:
    """A static string from the library, decoded."""
    return raw.decode() if raw is not None else ""


def fail(code: int, call: str) -> NoReturn:
    """Raise the GovernorError for a non-zero return code of ``call``."""
    raise GovernorError(code, text(lib().gov_err_name(code)),
                        text(lib().gov_strerror(code)), call)


def check(code: int, call: str) -> None:
    """Raise GovernorError unless ``code`` is 0."""
    if code != 0:
        fail(code, call)


def known(value: int) -> int | None:
    """``None`` for GOV_UNKNOWN, else the value."""
    return None if value == UNKNOWN else value


def uint(value: int | None, bits: int, what: str, *, none: int | None = None) -> int:
    """An argument checked to fit an unsigned C integer (ctypes would wrap).

    ``None`` maps to ``none`` when given (GOV_UNKNOWN, say).
    """
    if value is None and none is not None:
        return none
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not 0 <= value < 2**bits:
        raise ValueError(f"{what} must be between 0 and {2**bits - 1}")
    return value



_Owner = TypeVar("_Owner", bound="Owner")


class Owner:
    """Owns one library object in ``_ptr``: ``close()`` releases it once, and
    a ``with`` block or garbage collection closes it too."""

    _ptr: c_void_p | None

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: _Owner) -> _Owner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_ptr", None):
            self.close()
