#!/usr/bin/env bash
# Build the documentation site into site/ (MkDocs Material, mkdocstrings, mkdocs-jupyter),
# strictly: a broken link or a missing reference fails the build.
# Its own virtual environment, .venv-docs (IAA_DOCS_VENV=dir for another), with the
# package and its `docs` extra. Serve the result with `python -m http.server -b 127.0.0.1 -d site`.
# Notebooks executed by the test suite (dev/test.sh writes them to IAA_EXECUTED_NOTEBOOKS)
# are reused; any other notebook is executed here.
set -euo pipefail
cd "$(dirname "$0")/.."
IAA_VENV=${IAA_DOCS_VENV:-.venv-docs}
source dev/venv.sh
# the widgets' bundle (iaa_widgets/static/, generated): the gallery's snapshots inline it
bundle=iaa_widgets/static/standalone.js
if [ ! -f "$bundle" ] || [ -n "$(find js/src js/package.json js/package-lock.json js/build.mjs -newer "$bundle")" ]; then
  if ! command -v npm >/dev/null; then
    echo "the widgets' front-end needs Node.js 18 or newer to build (apt-get install nodejs npm)" >&2
    exit 1
  fi
  (cd js && npm ci --no-audit --no-fund && npm run build)
fi
"$PY" -m pip install --quiet --upgrade pip
"$PY" -m pip install --quiet -e ".[docs]"
# --install-only: the environment alone (dev/test.sh installs it while its tests run)
if [ "${1:-}" = --install-only ]; then exit 0; fi
rm -rf docs/generated
"$PY" dev/docs_pages.py
NO_MKDOCS_2_WARNING=1 "$PY" -m mkdocs build --strict --clean
echo "site/ is built: python -m http.server -b 127.0.0.1 -d site 8000, then http://127.0.0.1:8000"
