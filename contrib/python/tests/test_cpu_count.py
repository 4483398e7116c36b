"""Python before 3.13 follows PYTHON_CPU_COUNT (governor_cpu_count and its
.pth line): os.cpu_count() and the default pool sizes, in a fresh
interpreter, as governor run leaves it; nothing changes without the variable."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import PYTHON_DIR

# What a program sees: the count, multiprocessing's, and the default sizes
# of its three pools.  site.addsitedir() runs the directory's .pth files, as
# Python's startup does for site-packages where the binding is installed.
PROBE = """
import site, sys
site.addsitedir(sys.argv[1])
import os, multiprocessing, concurrent.futures as cf
with multiprocessing.Pool() as p:
    pool = p._processes
print(os.cpu_count(), multiprocessing.cpu_count(), pool,
      cf.ProcessPoolExecutor()._max_workers, cf.ThreadPoolExecutor()._max_workers)
"""

OLD = sys.version_info < (3, 13)


def run(count: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_CPU_COUNT"}
    if count is not None:
        env["PYTHON_CPU_COUNT"] = count
    return subprocess.run([sys.executable, "-c", PROBE, str(PYTHON_DIR)], env=env,
                          capture_output=True, text=True)


def probe(count: str | None) -> list[int]:
    done = run(count)
    assert done.returncode == 0, done.stderr
    return [int(x) for x in done.stdout.split()]


def test_follows_the_variable() -> None:
    # The plan's one CPU: every default pool is one worker (threads: 1 + 4).
    assert probe("1") == [1, 1, 1, 1, 5]
    assert probe("3") == [3, 3, 3, 3, 7]


@pytest.mark.parametrize("value", [None, "default"])
def test_nothing_changes_otherwise(value: str | None) -> None:
    n = probe(None)[0]
    assert probe(value) == [n, n, n, n, min(32, n + 4)]


@pytest.mark.parametrize("value", ["0", "-2", "two", "１"])
def test_not_a_count(value: str) -> None:
    # Before 3.13 the hook leaves such a value alone; 3.13 refuses to start.
    if OLD:
        n = probe(None)[0]
        assert probe(value) == [n, n, n, n, min(32, n + 4)]
    else:
        assert run(value).returncode != 0


def test_install_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    import governor_cpu_count
    saved = os.cpu_count
    monkeypatch.setattr(os, "cpu_count", saved)
    monkeypatch.setenv("PYTHON_CPU_COUNT", "default")
    assert governor_cpu_count.install() is False
    assert os.cpu_count is saved
    monkeypatch.setenv("PYTHON_CPU_COUNT", "2")
    assert governor_cpu_count.install() is OLD
    assert os.cpu_count() == (2 if OLD else saved())
    assert governor_cpu_count.install() is OLD   # once is enough
