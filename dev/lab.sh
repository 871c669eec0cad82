#!/usr/bin/env bash
# README's first command: install the package, then open the teaching notebooks in
# JupyterLab, served on loopback only (127.0.0.1), starting with the tour.
# Extra arguments go to JupyterLab (e.g. `bash dev/lab.sh --port=9999 --no-browser`).
# IAA_SKIP_INSTALL=1 skips the install step (the package is installed already);
# PYTHON=/path/to/python picks the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
# The interpreter: $PYTHON, else the .venv an earlier run made, else python or python3.
# A system Python that refuses pip installs (PEP 668, "externally managed", as on
# Debian and Ubuntu) gets a virtual environment of its own in .venv.
if [ -n "${PYTHON:-}" ]; then PY=$PYTHON
elif [ -x .venv/bin/python ]; then PY=.venv/bin/python
elif command -v python >/dev/null; then PY=python
else PY=python3
fi
managed=$("$PY" -c 'import os, sys, sysconfig
print(int(sys.prefix == sys.base_prefix and os.path.exists(
    os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))))')
if [ "$managed" = 1 ] && [ "${IAA_SKIP_INSTALL:-0}" != 1 ]; then
  "$PY" -m venv .venv
  PY=.venv/bin/python
fi
if [ "${IAA_SKIP_INSTALL:-0}" != 1 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  # node/npm build the widgets' front-end bundle (iaa_widgets/static/, generated)
  if ! command -v npm >/dev/null; then
    $SUDO apt-get update
    $SUDO apt-get install -y nodejs npm
  fi
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$node_major" -lt 18 ]; then
    echo "Node.js $node_major is too old to build the widgets (esbuild needs 18 or newer);" \
         "install a newer Node.js and run this again" >&2
    exit 1
  fi
  # the pip build hook keeps an existing bundle: rebuild it when the sources are newer
  bundle=iaa_widgets/static/widgets.js
  if [ ! -f "$bundle" ] || [ -n "$(find js/src js/package.json js/package-lock.json js/build.mjs -newer "$bundle")" ]; then
    (cd js && npm ci --no-audit --no-fund && npm run build)
  fi
  "$PY" -m pip install --quiet --upgrade pip
  "$PY" -m pip install --quiet -e ".[lab]"
fi
as_root=()
if [ "$(id -u)" -eq 0 ]; then
  as_root=(--allow-root)  # JupyterLab refuses to run as root without it
fi
echo "JupyterLab on http://127.0.0.1 (loopback only); the tour: notebooks/00_tour.ipynb"
exec "$PY" -m jupyterlab notebooks/00_tour.ipynb --ServerApp.ip=127.0.0.1 \
  --ServerApp.root_dir=notebooks "${as_root[@]}" "$@"
