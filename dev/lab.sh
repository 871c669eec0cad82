#!/usr/bin/env bash
# README's first command: install the package, then open the teaching notebooks in
# JupyterLab, served on loopback only (127.0.0.1), starting with the tour.
# Extra arguments go to JupyterLab (e.g. `bash dev/lab.sh --port=9999 --no-browser`).
# IAA_SKIP_INSTALL=1 skips the install step (the package is installed already).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${IAA_SKIP_INSTALL:-0}" != 1 ]; then
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
