"""The binding's enums are the C library's: every member has the value and
the name (upper-cased) that the library gives it, and the library names no
member the binding lacks.  An enumerator appended to include/governor.h
without its line here fails this test."""

from __future__ import annotations

import enum

import pytest

from governor import _lib
from governor.admission import CeilingReason, PressureLevel, Profile, Reason, Verdict

MIRRORED: dict[str, type[enum.IntEnum]] = {
    "gov_verdict_name": Verdict,
    "gov_reason_name": Reason,
    "gov_ceiling_reason_name": CeilingReason,
    "gov_pressure_level_name": PressureLevel,
    "gov_profile_name": Profile,
}


def _c_members(function: str) -> dict[int, str]:
    """Value -> name as the library names them; the first value without a
    name ends the enum (none of these has a nameless member)."""
    name_of = getattr(_lib.lib(), function)
    members: dict[int, str] = {}
    while (name := name_of(len(members))) is not None:
        members[len(members)] = name.decode()
    return members


@pytest.mark.parametrize("function", MIRRORED)
def test_enum_matches_library(function: str) -> None:
    py = {m.value: m.name.lower() for m in MIRRORED[function]}
    assert py == _c_members(function)
