# Sourced by dev/lab.sh and dev/test.sh: the project's own virtual environment, so that
# neither script installs into whatever `python` comes first on PATH.
#   IAA_VENV  its directory (default .venv, git-ignored), made on first use with
#   PYTHON    the interpreter that makes it (default python3, else python; 3.10 or newer).
# The environment is put first on PATH, as `source .venv/bin/activate` would, so that
# the kernels, JupyterLab and the `iaa` command the tests start are its own.
venv=${IAA_VENV:-.venv}
if [ ! -x "$venv/bin/python" ]; then
  base=${PYTHON:-$(command -v python3 || command -v python)}
  if ! "$base" -m venv "$venv"; then
    echo "could not make a virtual environment with $base: on Debian and Ubuntu," \
         "install python3-venv (apt-get install python3-venv) and run this again" >&2
    exit 1
  fi
fi
export VIRTUAL_ENV
VIRTUAL_ENV=$(cd "$venv" && pwd)
export PATH="$VIRTUAL_ENV/bin:$PATH"
PY="$VIRTUAL_ENV/bin/python"
