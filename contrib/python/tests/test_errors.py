"""Error mapping and library lookup."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

import governor
from governor import Estimate, Governor, GovernorError
from conftest import PYTHON_DIR, SLURM_NODE


def test_error_carries_code_name_and_text(slurm_env: dict[str, str]) -> None:
    with governor.Context(SLURM_NODE, slurm_env) as ctx, Governor(ctx) as g:
        with pytest.raises(GovernorError) as err:
            g.decide(Estimate(batch_min=0))
    e = err.value
    assert e.code == -errno.EINVAL
    assert e.name == "EINVAL"
    assert e.reason == governor.strerror(-errno.EINVAL)
    assert e.reason and e.reason != "unknown error"
    assert e.call == "gov_governor_decide"
    assert str(e) == f"gov_governor_decide: {e.reason} (EINVAL)"


def test_error_codes_come_from_the_library() -> None:
    codes = governor.error_codes()
    assert codes["EINVAL"] == -errno.EINVAL
    assert codes["EPARSE"] == -4001
    assert codes["EMUNGE"] == -4006
    assert codes["ENAMESPACE"] == -4007
    assert codes["ENODE"] == -4008
    assert codes["EUNREACHABLE"] == -4009
    assert codes["ESOCKET"] == -4010
    assert codes["EUNVOUCHED"] == -4011
    assert len(set(codes.values())) == len(codes) == 22
    assert all(governor.strerror(c) != "unknown error" for c in codes.values())


def test_version() -> None:
    major, minor, patch = (int(x) for x in governor.version().split("."))
    assert (major, minor, patch) >= (0, 1, 0)


def test_project_codes_have_text() -> None:
    assert governor.strerror(-4001) != governor.strerror(-999999)
    assert governor.strerror(-999999) == "unknown error"


def _import_with(env_changes: dict[str, str | None]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    code = ("import governor\n"
            "try:\n"
            "    governor.snapshot(env={})\n"
            "except governor.LibraryNotFoundError as e:\n"
            "    print('LibraryNotFoundError:', e)\n"
            "else:\n"
            "    print('loaded')\n")
    return subprocess.run([sys.executable, "-c", code], cwd=PYTHON_DIR, env=env,
                          capture_output=True, text=True, check=True)


def test_library_env_names_a_missing_file(tmp_path: Path) -> None:
    out = _import_with({"GOVERNOR_LIBRARY": str(tmp_path / "libgovernor.so")}).stdout
    assert out.startswith("LibraryNotFoundError:")
    assert "GOVERNOR_LIBRARY" in out


def test_library_env_names_another_library() -> None:
    # A real shared library that is not libgovernor: named in the error.
    import ctypes.util
    libm = ctypes.util.find_library("m")
    assert libm
    out = _import_with({"GOVERNOR_LIBRARY": libm}).stdout
    assert out.startswith("LibraryNotFoundError:")
    assert "lacks gov_" in out


def test_without_library_env() -> None:
    import ctypes.util
    out = _import_with({"GOVERNOR_LIBRARY": None}).stdout
    if ctypes.util.find_library("governor"):
        assert out == "loaded\n"  # installed where the loader finds it
    else:
        assert out.startswith("LibraryNotFoundError: libgovernor not found: set "
                              "GOVERNOR_LIBRARY")


def test_library_env_is_used() -> None:
    assert _import_with({}).stdout == "loaded\n"
