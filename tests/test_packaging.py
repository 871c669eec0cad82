"""Installing without Node.js (issue 33): the sdist and the wheel carry the built
front-end, so `pip install` of either works on a machine with no npm; and an install
from the source tree with no bundle and no npm says so in one line.

Each archive is installed into a fresh virtual environment whose PATH has no npm; the
package's own dependencies come from this environment's site-packages (PYTHONPATH), so
the test needs no download beyond the build backend.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ("widgets.js", "widgets.css", "embed.js", "standalone.js", "loader.js")

pytestmark = pytest.mark.slow


def _no_npm_env(tmp: Path) -> dict:
    """PATH with python only (the venv's bin and a folder linking git), no node or npm."""
    path = [p for p in os.environ["PATH"].split(os.pathsep)
            if p and not (Path(p) / "npm").exists() and not (Path(p) / "node").exists()]
    return dict(os.environ, PATH=os.pathsep.join(path))


@pytest.fixture(scope="module")
def archives(tmp_path_factory):
    pytest.importorskip("build")
    assert (ROOT / "iaa_widgets" / "static" / "widgets.js").is_file(), "build js/ first"
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel",
                           "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return {"sdist": next(out.glob("*.tar.gz")), "wheel": next(out.glob("*.whl"))}


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_installs_and_renders_without_node(archives, kind, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    env = _no_npm_env(tmp_path)
    assert shutil.which("npm", path=env["PATH"]) is None
    install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                              "--no-build-isolation" if kind == "sdist" else "--no-compile",
                              str(archives[kind])],
                             env=dict(env, PYTHONPATH=sysconfig.get_paths()["purelib"]),
                             capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-3000:]
    check = ("import iaa_widgets, pathlib, pandas as pd\n"
             "static = pathlib.Path(iaa_widgets.__file__).parent / 'static'\n"
             f"assert all((static / n).is_file() for n in {BUNDLE!r})\n"
             "df = pd.DataFrame({'item': [1, 1, 2, 2], 'annotator': ['a', 'b'] * 2,"
             " 'label': ['x', 'x', 'y', 'x']})\n"
             "w = iaa_widgets.ContingencyMatrix(df)\n"
             "assert 'render' in w._esm\n"
             "print(iaa_widgets.__file__)\n")
    # this environment's packages after the new venv's own: the installed copy wins
    run = subprocess.run([str(python), "-c", check], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300,
                         env=dict(env, PYTHONPATH=sysconfig.get_paths()["purelib"]))
    assert run.returncode == 0, run.stderr[-3000:]
    assert str(env_dir) in run.stdout


def test_archives_carry_the_license(archives):
    """The BSD-3-Clause text (pyproject's license) ships in the wheel's .dist-info/licenses/
    (PEP 639, hatchling's license-files) and at the sdist's root (issue 44)."""
    import tarfile
    import zipfile
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License") and "the iaa_widgets developers" in text
    with zipfile.ZipFile(archives["wheel"]) as wheel:
        found = [n for n in wheel.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert len(found) == 1 and wheel.read(found[0]).decode() == text
        assert "License-File: LICENSE" in wheel.read(
            next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    with tarfile.open(archives["sdist"]) as sdist:
        member = next(m for m in sdist.getmembers() if m.name.count("/") == 1
                      and m.name.endswith("/LICENSE"))
        assert sdist.extractfile(member).read().decode() == text


def test_source_install_without_npm_says_so_in_one_line(tmp_path):
    """A checkout with no built bundle, on a machine with no npm: one line naming Node.js."""
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "node_modules", "static", "site", "build", "docs", "tests",
        "notebooks", "benchmarks", "*.egg-info", "__pycache__"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    env = _no_npm_env(tmp_path)
    done = subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "install",
                           "--no-deps", "--no-build-isolation", "-e", str(src)],
                          env=dict(env, PYTHONPATH=sysconfig.get_paths()["purelib"]),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    said = [line for line in done.stderr.splitlines() if "Node.js 18" in line]
    assert len(said) == 1 and "install a built wheel" in said[0]
    assert "Traceback" not in done.stderr
