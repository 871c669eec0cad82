#!/usr/bin/env bash
# README's first command: install the package, then open the teaching notebooks in
# JupyterLab, served on loopback only (127.0.0.1), starting with the tour.
# Extra arguments go to JupyterLab (e.g. `bash dev/lab.sh --port=9999 --no-browser`).
# IAA_SKIP_INSTALL=1 skips the install step (the package is installed already).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${IAA_SKIP_INSTALL:-0}" != 1 ]; then
  # node/npm build the widgets' front-end bundle (iaa_widgets/static/, generated)
  if ! command -v npm >/dev/null; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update
    $SUDO apt-get install -y nodejs npm
  fi
  # the pip build hook keeps an existing bundle: rebuild it when the sources are newer
  bundle=iaa_widgets/static/widgets.js
  if [ ! -f "$bundle" ] || [ -n "$(find js/src js/package.json js/package-lock.json js/build.mjs -newer "$bundle")" ]; then
    (cd js && npm ci --no-audit --no-fund && npm run build)
  fi
  python -m pip install --quiet --upgrade pip
  python -m pip install --quiet -e ".[lab]"
fi
as_root=()
if [ "$(id -u)" -eq 0 ]; then
  as_root=(--allow-root)  # JupyterLab refuses to run as root without it
fi
echo "JupyterLab on http://127.0.0.1 (loopback only); the tour: notebooks/00_tour.ipynb"
exec python -m jupyterlab notebooks/00_tour.ipynb --ServerApp.ip=127.0.0.1 \
  --ServerApp.root_dir=notebooks "${as_root[@]}" "$@"
