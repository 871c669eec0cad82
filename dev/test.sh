#!/usr/bin/env bash
# Install everything the test suite needs on a fresh machine, then run all the tests.
# Extra arguments go to pytest (e.g. `bash dev/test.sh -k alpha`).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e ".[test]"
set +e
python -m pytest "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
fi
exit "$rc"
