#!/usr/bin/env bash
# Install everything the test suite needs on a fresh machine, then run all the tests.
# Extra arguments go to pytest (e.g. `bash dev/test.sh -k alpha`).
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# System packages: node/npm (builds the widgets' front-end), Chromium (browser tests;
# $CHROMIUM may point at another binary), Java (PySpark in local mode).
need=()
command -v npm >/dev/null || need+=(nodejs npm)
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || need+=(chromium)
command -v java >/dev/null || need+=(default-jre-headless)  # PySpark's engine tests
if [ "${#need[@]}" -gt 0 ]; then
  $SUDO apt-get update
  $SUDO apt-get install -y "${need[@]}"
fi
# The front-end bundle (iaa_widgets/static/, generated) is rebuilt from js/ every run:
# the pip build hook keeps an existing bundle, which may be stale.
(cd js && npm ci --no-audit --no-fund && npm run build)
# Python packages go into the project's own virtual environment, .venv (dev/venv.sh)
source dev/venv.sh
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e ".[test]"
# irrCAC (a test-only peer) pins scipy==1.12 and pandas<3; its code runs on current ones,
# so it goes in without its pins rather than downgrading what users get
python -m pip install --quiet --no-deps "irrCAC==0.4.4"
# crowd-kit (the annotator models' test-only peer) would pull in transformers for a module
# the tests never import: it goes in alone; what it uses is in the test extra already
python -m pip install --quiet --no-deps "crowd-kit==1.4.2"
# the notebooks as the tests execute them, with their outputs: the documentation site
# shows these copies (dev/docs.sh)
export IAA_EXECUTED_NOTEBOOKS=${IAA_EXECUTED_NOTEBOOKS:-$PWD/build/executed-notebooks}
# each suite's output is kept beside its exit code, for one summary line at the end
logs=$(mktemp -d)
suite() {  # suite NAME COMMAND...: run it, echo its output, keep its last line and code
  local name=$1; shift
  set +e
  "$@" 2>&1 | tee "$logs/$name.log"
  local code=${PIPESTATUS[0]}
  set -e
  echo "$code" >"$logs/$name.rc"
  return 0
}
# the tests spread over the machine's cores (pytest-xdist), a module's tests on one worker
# (browser tests share one JupyterLab and one Chromium per worker, reset between modules);
# IAA_WORKERS=0 runs them in one process
workers=${IAA_WORKERS:-auto}
parallel=()
[ "$workers" = 0 ] || parallel=(-n "$workers" --dist loadfile)
# tests/site checks the built documentation site: it runs below, once the site is built;
# the 25 slowest tests are listed at the end (the suite's time is a goal: issue 43)
# The documentation site's and pygamma's virtual environments (below) are installed in
# the background meanwhile: their installs wait mostly on the disk, the tests on the CPU
docs=0
if [ "$#" -eq 0 ] && [ "${IAA_SKIP_DOCS:-0}" != 1 ]; then docs=1; fi
pygamma=0
if [ "${IAA_SKIP_PYGAMMA:-0}" != 1 ]; then pygamma=1; fi
installs=$(mktemp -d)  # their output and exit codes
install_pygamma() {
  [ -x .venv-pygamma/bin/python ] || python -m venv .venv-pygamma
  .venv-pygamma/bin/python -m pip install --quiet --upgrade pip
  # only what tests/test_gamma_pygamma.py needs: the test extra's engines (Spark, Dask …)
  # have no place beside pygamma's older numpy
  .venv-pygamma/bin/python -m pip install --quiet -e ".[pygamma]" "pytest>=8" pytest-timeout
}
install_others() {  # one after the other: two editable builds of the package at once could clash
  if [ "$docs" = 1 ]; then bash dev/docs.sh --install-only >"$installs/docs.log" 2>&1 || true; fi
  if [ "$pygamma" = 1 ]; then
    set +e; (set -e; install_pygamma) >"$installs/pygamma.log" 2>&1
    echo $? >"$installs/pygamma.rc"
  fi
}
install_others &
suite main python -m pytest "${parallel[@]}" --durations=25 --ignore=tests/site "$@"
if [ "$(cat "$logs/main.rc")" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
  echo 1 >"$logs/main.rc"
fi
wait || true  # the installs above (each keeps its own outcome)
# The documentation site (dev/docs.sh, its own virtual environment), then its browser
# test; on a full run only (no pytest arguments; IAA_SKIP_DOCS=1 skips it)
if [ "$docs" = 1 ]; then
  suite site bash -c 'bash dev/docs.sh && python -m pytest tests/site'
fi
# γ's cross-checks against pygamma-agreement (test-only peer): it needs older numpy and
# numba, so it gets a virtual environment of its own (IAA_SKIP_PYGAMMA=1 skips it)
if [ "$pygamma" = 1 ]; then
  if [ "$(cat "$installs/pygamma.rc" 2>/dev/null || echo 1)" -eq 0 ]; then
    suite pygamma .venv-pygamma/bin/python -m pytest -m pygamma tests/test_gamma_pygamma.py
  else  # its install failed: what pip said, as the suite's output
    suite pygamma bash -c 'cat "$1"; echo "installing pygamma-agreement failed" >&2; exit 1' \
      _ "$installs/pygamma.log"
  fi
fi
# one line over every suite that ran; non-zero when any of them failed
python dev/summary.py "$logs"
