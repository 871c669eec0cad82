#!/usr/bin/env bash
# README's first command: install the package, then open the teaching notebooks in
# JupyterLab (working copies in my-notebooks/), served on loopback only (127.0.0.1),
# starting with the tour.
# Extra arguments go to JupyterLab (e.g. `bash dev/lab.sh --port=9999 --no-browser`).
# Everything goes into the project's own virtual environment, .venv (see dev/venv.sh);
# IAA_SKIP_INSTALL=1 skips the install step (the package is installed already).
set -euo pipefail
cd "$(dirname "$0")/.."
# The interpreter: the project's virtual environment (dev/venv.sh: .venv, made on first
# use). With IAA_SKIP_INSTALL=1, $PYTHON as it is (the package is installed there already).
if [ "${IAA_SKIP_INSTALL:-0}" = 1 ] && [ -n "${PYTHON:-}" ]; then
  PY=$PYTHON
else
  source dev/venv.sh
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
# JupyterLab saves what runs into the notebook it runs: serve copies, so that the
# repository's notebooks stay as committed. Copies already there are kept (your edits);
# delete one to get the repository's version again.
work=${IAA_NOTEBOOKS:-my-notebooks}
"$PY" - "$work" <<'COPY'
import os, shutil, sys
keep = lambda src, dst: os.path.exists(dst) or shutil.copy2(src, dst)
shutil.copytree("notebooks", sys.argv[1], dirs_exist_ok=True, copy_function=keep,
                ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
COPY
# the address with its token, printed here before JupyterLab's own log: a free port from
# 8888 on (unless given), a token made now (unless given)
port=$("$PY" - "$@" <<'PORT'
import socket, sys
given = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith(("--port=", "--ServerApp.port="))]
if given:
    print(given[-1])
else:
    for port in range(8888, 8988):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        print(port)
        break
PORT
)
token=$("$PY" - "$@" <<'TOKEN'
import secrets, sys
given = [a.split("=", 1)[1] for a in sys.argv[1:]
         if a.startswith(("--IdentityProvider.token=", "--ServerApp.token="))]
print(given[-1] if given else secrets.token_hex(24))
TOKEN
)
echo "JupyterLab, loopback only, serving copies of notebooks/ in $work/:"
echo "    http://127.0.0.1:$port/lab/tree/00_tour.ipynb${token:+?token=$token}"
# the port and token chosen here go to JupyterLab unless given (it takes each only once)
chosen=()
for arg in "$@"; do
  case $arg in --port=*|--ServerApp.port=*) port_given=1 ;; esac
  case $arg in --IdentityProvider.token=*|--ServerApp.token=*) token_given=1 ;; esac
done
[ -n "${port_given:-}" ] || chosen+=(--ServerApp.port="$port")
[ -n "${token_given:-}" ] || chosen+=(--IdentityProvider.token="$token")
exec "$PY" -m jupyterlab "$work/00_tour.ipynb" --ServerApp.ip=127.0.0.1 \
  "${chosen[@]}" --ServerApp.root_dir="$work" "${as_root[@]}" "$@"
