#!/usr/bin/env bash
# Run the Python binding's tests against a build's libgovernor:
#   contrib/python/run-tests.sh BUILDDIR [pytest arguments...]
# Uses Debian's python3 (override with PYTHON=...) and python3-pytest.
# Exits non-zero on any failure, and also when pytest collects no tests.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILDDIR [pytest arguments...]  (BUILDDIR: a meson build of slurm-governor)" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
shift
lib=$build/runtime/libgovernor.so
tool=$build/tool/governor
for f in "$lib" "$tool"; do
	if [ ! -e "$f" ]; then
		echo "run-tests: $f is missing: run 'meson compile -C $build' first" >&2
		exit 2
	fi
done
python=${PYTHON:-/usr/bin/python3}
if ! "$python" -c 'import pytest' 2>/dev/null; then
	echo "run-tests: pytest is missing for $python: apt-get install python3-pytest" >&2
	exit 2
fi

export GOVERNOR_LIBRARY=$lib GOVERNOR_TOOL=$tool PYTHONDONTWRITEBYTECODE=1
cd "$here"
"$python" -m pytest -p no:cacheprovider -q -rfEs tests "$@"
rc=$?
if [ $rc -eq 5 ]; then
	echo "run-tests: pytest collected no tests" >&2
	exit 1
fi
exit $rc
