"""The admission governor: budgets, reservations, pressure (docs/governor.md).

Work runs only while it holds a reservation; a Reservation is a context
manager that releases exactly once, also when the block raises::

    gov = Governor()
    with gov.reserve(Estimate(bytes_per_item=64 << 20, batch_max=32)) as r:
        if r.admitted:
            run(r.decision.batch, r.decision.threads)
"""

from __future__ import annotations

import enum
import errno
import threading
from ctypes import byref, c_uint64, c_void_p
from dataclasses import dataclass
from types import TracebackType

from . import _lib
from .snapshot import Context, Snapshot


class Verdict(enum.IntEnum):
    """gov_verdict."""

    ADMIT = 0   #: reserve and run ``batch`` items on ``threads`` threads
    WAIT = 1    #: not now: see the reason
    REJECT = 2  #: never: the estimate exceeds the whole budget


class Reason(enum.IntEnum):
    """gov_reason: why a decision is WAIT or REJECT."""

    NONE = 0
    STALE_SNAPSHOT = 1
    FUTURE_SNAPSHOT = 2
    CPU_PRESSURE = 3
    MEMORY_PRESSURE = 4
    RAM = 5
    RAM_UNKNOWN = 6
    CPU = 7
    IO = 8
    GPU = 9
    GPU_MEMORY = 10
    BATCH_CEILING = 11


class CeilingReason(enum.IntEnum):
    """gov_ceiling_reason: why the batch ceiling is where it is.  It grows
    only with snapshots newer than any seen before."""

    NO_OBSERVATION = 0
    GROWING = 1
    LARGEST = 2
    PRESSURE = 3
    RAM_UNKNOWN = 4
    GATED = 5


class PressureLevel(enum.IntEnum):
    """gov_pressure_level."""

    GREEN = 0
    YELLOW = 1
    RED = 2


class Profile(enum.IntEnum):
    """gov_profile."""

    BATCH = 0        #: keeps no host reserve
    INTERACTIVE = 1  #: keeps a quarter of RAM and threads


@dataclass(frozen=True)
class Estimate:
    """An immutable description of one kind of work (gov_estimate).

    A batch of n items needs fixed_bytes + n * bytes_per_item (or more once
    history shows items cost more).  cpu_threads is a maximum the governor
    reduces to the budget; gpu_slots is 0 or 1.
    """

    task_class: int = 0
    fixed_bytes: int = 0
    bytes_per_item: int = 0
    cpu_threads: int = 1
    io_slots: int = 0
    gpu_slots: int = 0
    batch_min: int = 1
    batch_max: int = 1

    def _c(self) -> _lib.Estimate:
        u = _lib.uint
        return _lib.Estimate(
            task_class=u(self.task_class, 32, "task_class"),
            fixed_bytes=u(self.fixed_bytes, 64, "fixed_bytes"),
            bytes_per_item=u(self.bytes_per_item, 64, "bytes_per_item"),
            cpu_threads=u(self.cpu_threads, 64, "cpu_threads"),
            io_slots=u(self.io_slots, 64, "io_slots"),
            gpu_slots=u(self.gpu_slots, 64, "gpu_slots"),
            batch_min=u(self.batch_min, 64, "batch_min"),
            batch_max=u(self.batch_max, 64, "batch_max"))


@dataclass(frozen=True)
class Decision:
    """The outcome of decide() or reserve() (gov_decision)."""

    verdict: Verdict
    reason: Reason          #: Reason.NONE for ADMIT
    batch: int              #: items to run (ADMIT), else 0
    threads: int            #: CPU threads granted (ADMIT), else 0
    ram_bytes: int          #: RAM the batch needs (ADMIT), else 0
    pressure: PressureLevel #: level after this decision's observation
    ceiling: int            #: batch ceiling after it
    ceiling_reason: CeilingReason  #: why the ceiling is there
    bytes_per_item: int     #: the estimate's, as history raised it
    ram_needed_bytes: int   #: RAM the smallest batch considered needs (every verdict)
    ram_free_bytes: int | None  #: RAM free for new work; None when unknown

    @property
    def admitted(self) -> bool:
        return self.verdict == Verdict.ADMIT

    @classmethod
    def _of(cls, d: _lib.Decision) -> Decision:
        return cls(Verdict(d.verdict), Reason(d.reason), d.batch, d.threads, d.ram_bytes,
                   PressureLevel(d.pressure), d.ceiling, CeilingReason(d.ceiling_reason),
                   d.bytes_per_item, d.ram_needed_bytes, _lib.known(d.ram_free_bytes))


@dataclass(frozen=True)
class Policy:
    """What the caller asks of policy (gov_policy): it can only tighten the
    site's.  ``profile=None`` keeps the site's, and without one the default
    (batch inside a scheduler allocation, interactive outside any);
    ``None`` reserves mean none."""

    profile: Profile | None = None
    mem_reserve_bytes: int | None = None
    mem_reserve_pct: int = 0
    cpu_reserve_threads: int | None = None
    cpu_reserve_pct: int = 0

    def _c(self) -> _lib.Policy:
        u = _lib.uint
        return _lib.Policy(
            profile_set=self.profile is not None,
            profile=Profile(self.profile) if self.profile is not None else 0,
            mem_reserve_bytes=u(self.mem_reserve_bytes, 64, "mem_reserve_bytes",
                                none=_lib.UNKNOWN),
            mem_reserve_pct=u(self.mem_reserve_pct, 32, "mem_reserve_pct"),
            cpu_reserve_threads=u(self.cpu_reserve_threads, 64, "cpu_reserve_threads",
                                  none=_lib.UNKNOWN),
            cpu_reserve_pct=u(self.cpu_reserve_pct, 32, "cpu_reserve_pct"))


@dataclass(frozen=True)
class Availability:
    """Budget and use at one moment (gov_availability); None is unknown."""

    snapshot_valid: bool
    profile: Profile
    detected_ram_bytes: int | None
    detected_threads: int | None
    ram_bytes: int | None
    ram_reserve_bytes: int
    ram_reserved_bytes: int
    threads: int | None
    threads_reserve: int
    threads_reserved: int
    io_slots: int
    io_reserved: int
    gpu_slots: int
    gpu_free_bytes: int | None
    active_reservations: int
    pressure: PressureLevel
    ceiling: int
    generation: int


@dataclass(frozen=True)
class PressureState:
    """The pressure state machine (gov_pressure_state)."""

    level: PressureLevel
    ceiling: int
    ceiling_reason: CeilingReason
    healthy_streak: int
    swap_streak: int
    observations: int
    triggers_fired: int = 0


class Reservation:
    """What reserve() returns: a held reservation when ``admitted``, else
    only the decision.  As a context manager it releases on exit, exactly
    once; an explicit release() before exit is not repeated."""

    def __init__(self, governor: Governor, decision: Decision, res_id: int) -> None:
        self._governor = governor  # keeps the C governor alive while held
        self.decision = decision
        self.id = res_id           #: 0 when nothing was reserved
        self._released = False

    @property
    def admitted(self) -> bool:
        return self.id != 0

    @property
    def held(self) -> bool:
        """Issued and not yet released (gov_governor_reservation_is_valid)."""
        return self.admitted and self._governor._is_valid(self.id)

    def release(self) -> None:
        """Return the resources to the budget.  A second release raises
        GovernorError EALREADY; releasing what was never admitted, EINVAL."""
        self._released = True
        self._governor._release(self.id)

    def __enter__(self) -> Reservation:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.admitted and not self._released and not self._governor.closed:
            self.release()

    def __repr__(self) -> str:
        return f"Reservation(id={self.id}, decision={self.decision!r})"


class Governor(_lib.Owner):
    """A governor (gov_governor): it alone owns this process's budgets.

    Each call that needs a snapshot takes one, or captures a fresh one from
    ``context`` (by default the live system).  Calls may come from any
    thread; close() must not race with them.
    """

    def __init__(self, context: Context | None = None, *, io_slots: int = 0,
                 max_classes: int = 0, max_batch: int = 0, first_reservation_id: int = 0,
                 policy: Policy | None = None) -> None:
        u = _lib.uint
        opts = _lib.GovernorOptions(
            first_reservation_id=u(first_reservation_id, 64, "first_reservation_id"),
            io_slots=u(io_slots, 64, "io_slots"),
            max_classes=u(max_classes, 32, "max_classes"),
            max_batch=u(max_batch, 64, "max_batch"))
        ptr = c_void_p()
        _lib.check(_lib.lib().gov_governor_create(byref(opts), byref(ptr)),
                   "gov_governor_create")
        self._ptr: c_void_p | None = ptr
        self._context = context
        self._own_context = context is None
        self._context_lock = threading.Lock()
        if policy is not None:
            self.set_policy(policy)

    # -- life cycle ---------------------------------------------------------

    @property
    def closed(self) -> bool:
        return not self._ptr

    def close(self) -> None:
        """Destroy the governor; outstanding reservations die with it."""
        ptr, self._ptr = self._ptr, None
        if ptr:
            _lib.lib().gov_governor_destroy(ptr)
        if self._own_context and self._context is not None:
            self._context.close()
            self._context = None

    def _gov(self) -> c_void_p:
        if not self._ptr:
            raise ValueError("the governor is closed")
        return self._ptr

    def snapshot(self) -> Snapshot:
        """A fresh snapshot from this governor's context."""
        with self._context_lock:  # one live context, however many threads ask
            if self._context is None:
                self._context = Context()
            ctx = self._context
        return ctx.snapshot()

    def _snap(self, snapshot: Snapshot | None) -> Snapshot:
        return snapshot if snapshot is not None else self.snapshot()

    # -- verbs --------------------------------------------------------------

    def set_policy(self, policy: Policy) -> None:
        """Tighten the site policy and the profile's reserve (never loosen)."""
        _lib.check(_lib.lib().gov_governor_set_policy(self._gov(), byref(policy._c())),
                   "gov_governor_set_policy")

    def decide(self, estimate: Estimate, snapshot: Snapshot | None = None) -> Decision:
        """Whether ``estimate`` can be admitted now, reserving nothing."""
        snap, est, out = self._snap(snapshot), estimate._c(), _lib.Decision()
        _lib.check(_lib.lib().gov_governor_decide(self._gov(), snap._handle.ptr, byref(est),
                                                  byref(out)), "gov_governor_decide")
        return Decision._of(out)

    def reserve(self, estimate: Estimate, items: int | None = None,
                snapshot: Snapshot | None = None) -> Reservation:
        """Decide and, on ADMIT, reserve: exactly ``items`` items, or with
        ``None`` the largest batch that fits now.  Check ``.admitted``."""
        snap, est = self._snap(snapshot), estimate._c()
        out, res = _lib.Decision(), _lib.Reservation()
        if items is None:
            rc = _lib.lib().gov_governor_reserve_available(
                self._gov(), snap._handle.ptr, byref(est), byref(out), byref(res))
            _lib.check(rc, "gov_governor_reserve_available")
        else:
            rc = _lib.lib().gov_governor_reserve(
                self._gov(), snap._handle.ptr, byref(est), _lib.uint(items, 64, "items"),
                byref(out), byref(res))
            _lib.check(rc, "gov_governor_reserve")
        return Reservation(self, Decision._of(out), res.id)

    def _release(self, res_id: int) -> None:
        _lib.check(_lib.lib().gov_governor_release(self._gov(), _lib.Reservation(res_id)),
                   "gov_governor_release")

    def _is_valid(self, res_id: int) -> bool:
        return bool(_lib.lib().gov_governor_reservation_is_valid(
            self._gov(), _lib.Reservation(res_id)))

    def availability(self, snapshot: Snapshot | None = None) -> Availability:
        """Budget and use against ``snapshot`` (or a fresh one), changing nothing."""
        snap, a = self._snap(snapshot), _lib.Availability()
        _lib.check(_lib.lib().gov_governor_availability(self._gov(), snap._handle.ptr,
                                                        byref(a)),
                   "gov_governor_availability")
        k = _lib.known
        return Availability(
            bool(a.snapshot_valid), Profile(a.profile), k(a.detected_ram_bytes),
            k(a.detected_threads), k(a.ram_bytes), a.ram_reserve_bytes, a.ram_reserved_bytes,
            k(a.threads), a.threads_reserve, a.threads_reserved, a.io_slots, a.io_reserved,
            a.gpu_slots, k(a.gpu_free_bytes), a.active_reservations,
            PressureLevel(a.pressure), a.ceiling, a.generation)

    def pressure(self, snapshot: Snapshot | None = None) -> PressureState:
        """The pressure state; with a snapshot, observe it first (no fresh
        capture is made when it is None)."""
        out = _lib.PressureState()
        ptr = snapshot._handle.ptr if snapshot is not None else None
        _lib.check(_lib.lib().gov_governor_pressure(self._gov(), ptr, byref(out)),
                   "gov_governor_pressure")
        return PressureState(PressureLevel(out.level), out.ceiling,
                             CeilingReason(out.ceiling_reason), out.healthy_streak,
                             out.swap_streak, out.observations, out.triggers_fired)

    def record_batch(self, task_class: int, items: int, peak_memory_bytes: int = 0,
                     duration_ns: int = 0) -> None:
        """Add a finished batch to its class's history (peak 0: unknown)."""
        u = _lib.uint
        rec = _lib.BatchRecord(items=u(items, 64, "items"),
                               peak_memory_bytes=u(peak_memory_bytes, 64, "peak_memory_bytes"),
                               duration_ns=u(duration_ns, 64, "duration_ns"))
        _lib.check(_lib.lib().gov_governor_record_batch(
            self._gov(), u(task_class, 32, "task_class"), byref(rec)),
            "gov_governor_record_batch")

    @property
    def generation(self) -> int:
        """Bumped by every reservation, release, policy or history change and
        change of pressure level or ceiling."""
        return int(_lib.lib().gov_governor_generation(self._gov()))

    def wait_for_change(self, seen: int, timeout: float) -> bool:
        """Block (without the GIL) until the generation differs from ``seen``
        or ``timeout`` seconds pass; True on a change."""
        if timeout < 0:
            raise ValueError("timeout must not be negative")
        now = c_uint64()
        rc = _lib.lib().gov_governor_wait_for_change(
            self._gov(), _lib.uint(seen, 64, "seen"),
            _lib.uint(int(timeout * 1000), 64, "timeout in ms"), byref(now))
        if rc == 0:
            return True
        if rc == -errno.ETIMEDOUT:
            return False
        _lib.fail(rc, "gov_governor_wait_for_change")
