"""The teaching notebooks: committed clean, and each one runs from top to bottom.

A notebook that quotes a number from a paper asserts it in its own cells (with the
source named beside the assert), so executing it here checks those numbers.
"""
import os
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
NAMES = [nb.name for nb in NOTEBOOKS]
# notebooks that quote a paper's numbers, and so must assert them
QUOTING = {"01_tutorial_measures.ipynb", "02_augmented_kappa.ipynb",
           "03_sparse_agreement.ipynb", "04_gamma_family.ipynb",
           "05_labelers_and_reviewers.ipynb", "06_from_annotation_tools.ipynb",
           "07_kappa_paradoxes.ipynb"}


def test_every_notebook_of_the_tour_is_there():
    assert "00_tour.ipynb" in NAMES and QUOTING <= set(NAMES)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_committed_without_outputs_or_widget_state(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    assert "widgets" not in nb.metadata, "strip the saved widget state"
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
             and (c.outputs or c.execution_count is not None)]
    assert not dirty, f"cells {dirty} carry outputs or execution counts"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_notebook_runs_and_checks_what_it_quotes(path, monkeypatch):
    from nbclient import NotebookClient

    # the kernel imports this checkout's package, installed or not
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    nb = nbformat.read(path, as_version=4)
    if path.name in QUOTING:
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        assert "assert " in code, "a notebook quoting a paper asserts the quoted numbers"
    # raises CellExecutionError, with the cell and traceback, when any cell fails
    NotebookClient(nb, kernel_name="python3", timeout=120,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors


def test_binder_installs_this_repository_and_readme_lists_every_notebook():
    import re
    import tomllib

    # repo2docker reads binder/: a local `-e .` makes it copy the repository first and
    # install it, which runs the npm build of the widgets' bundle (pyproject's hook)
    reqs = (ROOT / "binder" / "requirements.txt").read_text().split("\n")
    assert "-e ." in [line.strip() for line in reqs]
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    major, minor = map(int, re.fullmatch(r"python-(\d+)\.(\d+)", runtime).groups())
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    lowest = re.fullmatch(r">=(\d+)\.(\d+)", pyproject["project"]["requires-python"])
    assert (major, minor) >= tuple(map(int, lowest.groups()))
    hook = pyproject["tool"]["hatch"]["build"]["hooks"]["jupyter-builder"]
    assert "iaa_widgets/static/widgets.js" in hook["ensured-targets"]

    readme = (ROOT / "README.md").read_text()
    # no link to a repository that is not public yet (it would point nowhere): the README
    # says how to open the notebooks on Binder once it is, and lists every notebook
    assert not re.findall(r"\(https://mybinder\.org/[^)]*\)", readme)
    assert "mybinder.org/v2/gh/<owner>/<repository>/HEAD?urlpath=lab/tree/notebooks/" in readme
    listed = re.findall(r"^\| `(\d\d_[\w.]+\.ipynb)` \|", readme, flags=re.M)
    assert listed == NAMES, "the README's table names every notebook, in order"
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", readme)
    assert pictures and all((ROOT / p).is_file() for p in pictures)


def test_marimo_tour_runs_as_a_script():
    """notebooks/marimo_tour.py (a marimo app; tests/browser/test_marimo_browser.py runs
    it in marimo) also runs top to bottom as plain Python, with no error."""
    import subprocess
    import sys
    pytest.importorskip("marimo")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    done = subprocess.run([sys.executable, str(ROOT / "notebooks" / "marimo_tour.py")],
                          cwd=ROOT / "notebooks", env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
