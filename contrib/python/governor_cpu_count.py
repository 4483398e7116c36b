"""Python before 3.13 counts the CPUs PYTHON_CPU_COUNT names, as 3.13 does.

Python 3.13 reads PYTHON_CPU_COUNT: a positive integer there is what
os.cpu_count() and os.process_cpu_count() return, and with them the default
sizes of multiprocessing.Pool, ProcessPoolExecutor and ThreadPoolExecutor.
Earlier versions count the host's CPUs whatever the allocation.  The binding
installs this module with a .pth line (governor-cpu-count.pth), which every
Python of the installation runs at startup: on 3.10 to 3.12, where
PYTHON_CPU_COUNT is a positive integer, os.cpu_count() returns it.

Nothing else changes, and nothing at all where the variable is unset, is
"default" (3.13's word for the host's count), or is not a positive integer
(which 3.13 refuses at startup; the hook leaves it alone):
governor run and --governor=runtimes set it to the plan's threads, so only a
program run with the governor (or with the variable set by hand) sees a
different count.  To keep the host's count under the governor, set
PYTHON_CPU_COUNT=default (docs/runtimes.md, "Python before 3.13").
"""

import os
import sys


def _count():
    value = os.environ.get("PYTHON_CPU_COUNT", "")
    # ASCII digits only, as 3.13 parses it; "default" and the rest: none.
    if not value or not value.isascii() or not value.isdigit():
        return None
    n = int(value)
    return n if n > 0 else None


def install():
    """Make os.cpu_count() return PYTHON_CPU_COUNT on Python before 3.13.

    Returns True when it does (or already did), False when nothing changed.
    """
    if sys.version_info >= (3, 13):
        return False
    n = _count()
    if n is None:
        return False
    if getattr(os.cpu_count, "_governor", False):
        return True

    def cpu_count():
        """PYTHON_CPU_COUNT, as Python 3.13 returns it (governor_cpu_count)."""
        return n

    cpu_count._governor = True
    os.cpu_count = cpu_count
    return True


install()
