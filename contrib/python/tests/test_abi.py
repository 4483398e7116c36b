"""The mirrored structures match include/governor.h: the C compiler prints
each one's size and field offsets, and ctypes must agree (a field added to
the header without the binding fails here, not in a user's job)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from ctypes import Structure, sizeof
from pathlib import Path

import pytest

from conftest import REPO
from governor import _lib

MIRRORED: dict[str, type[Structure]] = {
    "gov_options": _lib.Options,
    "gov_plan": _lib.Plan,
    "gov_estimate": _lib.Estimate,
    "gov_decision": _lib.Decision,
    "gov_reservation": _lib.Reservation,
    "gov_policy": _lib.Policy,
    "gov_batch_record": _lib.BatchRecord,
    "gov_availability": _lib.Availability,
    "gov_pressure_state": _lib.PressureState,
    "gov_governor_options": _lib.GovernorOptions,
}


def _program() -> str:
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "governor.h"',
             "int main(void)", "{", '    printf("{");']
    for i, (c_name, py) in enumerate(MIRRORED.items()):
        sep = "," if i else ""
        lines.append(f'    printf("{sep}\\"{c_name}\\": {{\\"size\\": %zu", sizeof({c_name}));')
        for field, _ in py._fields_:
            lines.append(f'    printf(", \\"{field}\\": [%zu, %zu]", offsetof({c_name}, {field}), '
                         f'sizeof((({c_name} *)0)->{field}));')
        lines.append('    printf("}");')
    lines += ['    printf("}\\n");', "    return 0;", "}"]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def c_layout(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    cc = os.environ.get("CC") or shutil.which("cc")
    if not cc:
        pytest.fail("no C compiler: set CC (the layout check needs one)")
    d: Path = tmp_path_factory.mktemp("abi")
    (d / "layout.c").write_text(_program())
    subprocess.run([cc, "-std=gnu11", "-I", str(REPO / "include"), "-o", str(d / "layout"),
                    str(d / "layout.c"), "-lm"], check=True)
    out = subprocess.run([str(d / "layout")], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("c_name", MIRRORED)
def test_layout_matches(c_name: str, c_layout: dict[str, dict[str, object]]) -> None:
    py = MIRRORED[c_name]
    expected = c_layout[c_name]
    assert sizeof(py) == expected["size"], f"{c_name} size"
    for field, _ in py._fields_:
        desc = getattr(py, field)
        assert [desc.offset, desc.size] == expected[field], f"{c_name}.{field}"
