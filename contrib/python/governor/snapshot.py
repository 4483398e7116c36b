"""Snapshots and plans: what this process may use, as plain Python objects.

A snapshot's data comes from ``gov_snapshot_json()`` (the stable
``governor.snapshot/1`` contract of docs/snapshot.md), so these objects
follow the JSON: ``snap.cpu.effective.workers``, ``snap.memory.cgroup.status``,
with ``None`` wherever the library has no evidence.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Mapping
from ctypes import byref, c_char_p, c_size_t, c_void_p, string_at
from dataclasses import dataclass
from typing import Any

from . import _lib

SCHEMA = "governor.snapshot/1"

Env = Mapping[str, str]
PathLike = str | os.PathLike[str]


class Record(Mapping[str, Any]):
    """A read-only JSON object whose members are also attributes.

    Nested objects are Records too; JSON ``null`` is ``None``.  An unknown
    member name raises AttributeError (use ``.get()`` for optional ones).
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_data", {k: _wrap(v) for k, v in data.items()})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # no JSON member does; keeps copy/pickle sane
            raise AttributeError(name)
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("snapshot records are read-only")

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_dict()!r})"

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._data))

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-serialisable copy."""
        return {k: _unwrap(v) for k, v in self._data.items()}


def _wrap(value: Any) -> Any:
    if isinstance(value, Mapping):
        return Record(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


def _unwrap(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, list):
        return [_unwrap(v) for v in value]
    return value


class _Handle:
    """Owns one heap gov_snapshot (gov_snapshot_new/free)."""

    __slots__ = ("ptr",)

    def __init__(self) -> None:
        ptr = c_void_p()
        _lib.check(_lib.lib().gov_snapshot_new(byref(ptr)), "gov_snapshot_new")
        self.ptr: c_void_p | None = ptr

    def __del__(self) -> None:
        ptr, self.ptr = getattr(self, "ptr", None), None
        if ptr:
            _lib.lib().gov_snapshot_free(ptr)


class Snapshot(Record):
    """One capture: the JSON members as attributes, plus the C snapshot the
    planner and the governor take (valid for the governor for 1 s)."""

    __slots__ = ("_handle", "_text")

    def __init__(self, handle: _Handle) -> None:
        out = c_void_p()
        length = c_size_t()
        _lib.check(_lib.lib().gov_snapshot_json(handle.ptr, byref(out), byref(length)),
                   "gov_snapshot_json")
        try:
            text = string_at(out, length.value).decode()
        finally:
            _lib.free(out)
        super().__init__(json.loads(text))
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_text", text)

    @property
    def json(self) -> str:
        """The one-line JSON that gov_snapshot_json() rendered."""
        return self._text

    def plan(self, workers: int | str | None = None, *, per_core: bool = False) -> PlanResult:
        """Worker and thread ceilings from this snapshot (see plan())."""
        out = _lib.Plan()
        flags = _lib.PLAN_PER_CORE if per_core else 0
        if workers == "numa":
            flags, workers = flags | _lib.PLAN_WORKERS_NUMA, None
        _lib.check(_lib.lib().gov_plan_compute(
            self._handle.ptr, _workers(workers), flags, byref(out)), "gov_plan_compute")
        numa = self.topology.task.numa or []
        return PlanResult(workers=out.workers, threads_per_worker=out.threads_per_worker,
                          cpu_workers=out.cpu_workers, io_workers=out.io_workers,
                          oversubscribed=bool(out.oversubscribed),
                          memory_limit_per_worker=_known(out.memory_limit_per_worker),
                          memory_remaining_per_worker=_known(out.memory_remaining_per_worker),
                          cores=_known(out.cores), numa_nodes=_known(out.numa_nodes),
                          per_core=per_core, idle_pus=out.idle_pus,
                          reserve_threads=out.reserve_threads,
                          reserve_memory_bytes=out.reserve_memory_bytes,
                          numa_workers=None if not flags & _lib.PLAN_WORKERS_NUMA else [
                              NumaWorker(os_index=numa[i].os_index, cpus=numa[i].cpus,
                                         threads=out.worker[i].threads,
                                         memory_limit_bytes=_known(
                                             out.worker[i].memory_limit_bytes))
                              for i in range(out.numa_workers)])


def _known(v: int) -> int | None:
    return None if v == _lib.UNKNOWN else v


def _workers(workers: int | None) -> int:
    if workers is None:
        return 0
    n = _lib.uint(workers, 64, "workers")
    if n == 0:
        raise ValueError("workers must be at least 1 (None: the CPU ceiling)")
    return n


def _envp(env: Env) -> Any:
    entries: list[bytes] = []
    for name, value in env.items():
        raw_name, raw_value = os.fsencode(name), os.fsencode(value)
        if not raw_name or b"=" in raw_name or b"\0" in raw_name or b"\0" in raw_value:
            raise ValueError("environment names must be non-empty without '=' or NUL, "
                             "values without NUL")
        entries.append(raw_name + b"=" + raw_value)
    return (c_char_p * (len(entries) + 1))(*entries, None)


@contextlib.contextmanager
def _hwloc_reads(sysroot: PathLike | None) -> Iterator[None]:
    """Point hwloc at sysroot (docs/snapshot.md, "--sysroot DIR")."""
    if sysroot is None:
        yield
        return
    was = os.environ.get("HWLOC_FSROOT")
    os.environ["HWLOC_FSROOT"] = os.fsdecode(sysroot)
    try:
        yield
    finally:
        if was is None:
            del os.environ["HWLOC_FSROOT"]
        else:
            os.environ["HWLOC_FSROOT"] = was


class Context(_lib.Owner):
    """A capture context (gov_context): options plus the host topology, loaded
    once.  Capturing from one context is cheaper than calling snapshot() in
    a loop.

    ``sysroot``: read every file under this directory (fixture trees); hwloc
    reads its topology there too: ``HWLOC_FSROOT`` names it while the context
    is created, then gets its old value back (the environment is the
    process's, so do not create one while another thread reads it).
    ``env``: the environment to read, as a mapping; ``None`` reads the process
    environment at each capture (``os.environ`` changes are seen).
    ``workdir``: the directory whose filesystem the disk evidence describes.
    ``munge_socket``, ``trusted_uid``: descriptor verification.
    ``use_descriptor=False`` ignores GOVERNOR_DESCRIPTOR altogether.
    """

    def __init__(self, sysroot: PathLike | None = None, env: Env | None = None, *,
                 workdir: PathLike | None = None, munge_socket: PathLike | None = None,
                 trusted_uid: int | None = None, use_descriptor: bool = True) -> None:
        # The library keeps pointers to envp (not a copy): it lives as long
        # as this object.
        self._envp = _envp(env) if env is not None else None
        opts = _lib.Options(
            sysroot=os.fsencode(sysroot) if sysroot is not None else None,
            workdir=os.fsencode(workdir) if workdir is not None else None,
            envp=self._envp,
            munge_socket=os.fsencode(munge_socket) if munge_socket is not None else None,
            trusted_uid=_lib.uint(trusted_uid, 32, "trusted_uid", none=_lib.UID_NONE),
            flags=0 if use_descriptor else _lib.OPT_NO_DESCRIPTOR)
        ptr = c_void_p()
        with _hwloc_reads(sysroot):
            _lib.check(_lib.lib().gov_context_create(byref(opts), byref(ptr)),
                       "gov_context_create")
        self._ptr: c_void_p | None = ptr

    def snapshot(self) -> Snapshot:
        """Capture a snapshot now."""
        if not self._ptr:
            raise ValueError("the context is closed")
        handle = _Handle()
        _lib.check(_lib.lib().gov_snapshot_capture(self._ptr, handle.ptr),
                   "gov_snapshot_capture")
        return Snapshot(handle)

    def close(self) -> None:
        """Release the context (snapshots taken from it stay valid)."""
        ptr, self._ptr = self._ptr, None
        if ptr:
            _lib.lib().gov_context_destroy(ptr)


def _capture(sysroot: PathLike | None, env: Env | None, **options: Any) -> Snapshot:
    with Context(sysroot, env, **options) as ctx:
        return ctx.snapshot()


def snapshot(sysroot: PathLike | None = None, env: Env | None = None, **options: Any) -> Snapshot:
    """Capture one snapshot (a fresh Context each call; see Context for the
    options)."""
    return _capture(sysroot, env, **options)


@dataclass(frozen=True)
class NumaWorker:
    """One worker of ``plan("numa")``: a NUMA node of the task's CPUs."""

    os_index: int                    #: the kernel's node number
    cpus: str                        #: the worker's CPUs, a Linux CPU list
    threads: int                     #: its native threads
    memory_limit_bytes: int | None   #: its bytes; None when memory is unknown


@dataclass(frozen=True)
class PlanResult:
    """Conservative ceilings for a workload (gov_plan): ceilings, not promises."""

    workers: int             #: process workers (requested, else 1: one process)
    threads_per_worker: int  #: native threads each (OpenMP, BLAS), at least 1
    cpu_workers: int         #: CPU-bound worker ceiling: the largest pool that fits
    io_workers: int          #: a size for I/O-bound pools
    oversubscribed: bool     #: the requested workers exceed the ceiling
    #: bytes: this process's share of the memory limit, divided among the
    #: workers; None when no evidence bounds it
    memory_limit_per_worker: int | None = None
    #: bytes: the same share of what remains unused; None when unknown
    memory_remaining_per_worker: int | None = None
    cores: int | None = None         #: physical cores of the process's CPUs
    numa_nodes: int | None = None    #: NUMA nodes they span
    per_core: bool = False           #: planned one thread per physical core
    idle_pus: int = 0                #: per_core: PUs left without a thread
    #: what the profile in force and the site keep back, as the governor
    #: does; the figures above are planned without it
    reserve_threads: int = 0
    reserve_memory_bytes: int = 0
    #: plan("numa"): one entry per NUMA worker; None otherwise
    numa_workers: list[NumaWorker] | None = None


def plan(workers: int | str | None = None, *, per_core: bool = False,
         snapshot: Snapshot | None = None, sysroot: PathLike | None = None,
         env: Env | None = None) -> PlanResult:
    """Plan ``workers`` process workers so that workers x threads_per_worker
    stays within the effective capacity and the workers share this process's
    memory, from ``snapshot`` or a fresh capture.  ``None`` plans one process
    whose threads use every CPU; a pool passes its size (``cpu_workers`` is
    the largest that does not oversubscribe); ``"numa"`` plans one worker
    per NUMA node of the task's CPUs (``numa_workers``; GovernorError ENOENT
    without a topology).  ``per_core`` plans one thread per physical core."""
    snap = snapshot if snapshot is not None else _capture(sysroot, env)
    return snap.plan(workers, per_core=per_core)
