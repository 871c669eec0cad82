"""Every code block of the documentation and the README runs as written, from the
repository's root (the data files they read ship in examples/): a renamed argument or a
moved file fails here, not in a reader's notebook.

A page's Python snippets run in order in one namespace, as a reader would paste them.
The big-data page reads the reader's own engine tables: it runs on a parquet folder
written here, with DuckDB, Dask, polars and a local Spark session (slow: Spark starts).
Shell blocks are the only ones not run, each line one of :data:`SHELL` (the reason
beside it); an ``iaa`` command in a shell block runs through ``iaa_widgets.cli.main``.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
import warnings
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
PAGES = [p for p in PAGES if "generated" not in p.parts]
NOT_RUN = {"big-data.md"}  # run by test_big_data_runs_on_every_engine
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
# shell commands not run here, and why: each installs packages (pip, npm, apt), builds
# the wheel or the site, or serves a notebook or a page until stopped; dev/test.sh runs
# the same steps on a full run
SHELL = {"bash dev/lab.sh": "installs JupyterLab and serves until stopped",
         "bash dev/test.sh": "installs the test extra and runs this very suite",
         "bash dev/docs.sh": "builds the site (tests/site checks it on a full run)",
         "python -m pip install": "installs into the environment (network)",
         "python -m build": "builds the wheel (tests/test_packaging.py builds and installs it)"}


def _snippets(path: Path) -> list[str]:
    return FENCE.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", [p for p in PAGES if _snippets(p) and p.name not in NOT_RUN],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_snippets_run(path, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace = {"__name__": "__docs__"}
    exec("import iaa_widgets as iaa", namespace)
    saved = []
    for i, code in enumerate(_snippets(path)):
        # files a snippet writes (chart.save("x.html"), share(..., path="x.html")) go to a
        # temporary folder, never into the repository
        code = re.sub(r'\.save\("([^"]+)"\)',
                      lambda m: f'.save({str(tmp_path / m.group(1))!r})', code)
        code = re.sub(r'\bpath="([^"/]+\.html)"',
                      lambda m: f'path={str(tmp_path / m.group(1))!r}', code)
        try:
            exec(compile(code, f"{path.name}[{i}]", "exec"), namespace)
        except Exception as e:  # name the page and the snippet
            raise AssertionError(f"{path.relative_to(ROOT)} snippet {i} fails: {e!r}\n{code}")
        saved.append(i)
    assert saved


def test_pages_listed_exist():
    assert (ROOT / "examples" / "labels.csv").is_file()
    assert os.path.isfile(ROOT / "mkdocs.yml")


def _blocks(path: Path) -> list[tuple[str, str]]:
    return BLOCK.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", [p for p in PAGES if _blocks(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_block_runs_or_is_a_shell_command(path, tmp_path, monkeypatch):
    """A block is Python (run above) or shell: each of its commands is an ``iaa``
    command, run here, or one of :data:`SHELL`, skipped for the reason given there."""
    from iaa_widgets.cli import main
    monkeypatch.chdir(ROOT)
    for language, code in _blocks(path):
        included = re.fullmatch(r'\s*--8<-- "([^"]+)"\s*', code)
        if language == "yaml" and included:  # a file of the repository shown as data
            assert (ROOT / included.group(1)).is_file(), f"{path.name}: {included.group(1)}"
            continue
        assert language in ("python", "bash"), f"{path.name}: a ```{language} block is " \
                                               "neither run nor a shell command"
        if language == "python":
            continue
        for line in code.splitlines():
            command = line.split("#", 1)[0].strip()
            for part in filter(None, (c.strip() for c in re.split(r"&&|;", command))):
                if part.startswith("iaa "):  # written where the snippet says, in tmp_path
                    args = [a if not a.endswith(".html") else str(tmp_path / a)
                            for a in shlex.split(part)[1:]]
                    assert main(args) == 0, part
                else:
                    assert any(part.startswith(s) for s in SHELL) or \
                        part.startswith("python3 -m http.server"), \
                        f"{path.name}: shell command {part!r} is not run here and names no " \
                        "reason in SHELL"


def _java() -> bool:
    return shutil.which("java") is not None or bool(os.environ.get("JAVA_HOME"))


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("CI") != "true" and not (
    _java() and all(find_spec(m) for m in ("pyspark", "duckdb", "dask", "polars"))),
    reason="the big-data page needs DuckDB, Dask, polars and PySpark (with Java); under "
           "CI=true it runs")
@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_big_data_runs_on_every_engine(tmp_path, monkeypatch):
    """docs/big-data.md's snippet as written, on ratings/ (parquet) holding three
    annotators a, b, c who label 30 items yes or no."""
    import dask
    import dask.dataframe  # noqa: F401 - the snippet calls dask.dataframe.read_parquet
    import duckdb
    import numpy as np
    import pandas as pd
    import polars
    from pyspark.sql import SparkSession

    import iaa_widgets as iaa
    (tmp_path / "ratings").mkdir()
    rng = np.random.default_rng(0)
    ratings = pd.DataFrame([(i, a, rng.choice(["yes", "no"])) for i in range(30)
                            for a in "abc"], columns=["item", "annotator", "label"])
    ratings.to_parquet(tmp_path / "ratings" / "part-0.parquet")
    monkeypatch.chdir(tmp_path)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # Spark's workers: this python
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        spark = (SparkSession.builder.master("local[1]").appName("iaa-docs")
                 .config("spark.ui.enabled", "false")
                 .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    # Spark reads a relative path from its JVM's working directory, fixed when the JVM
    # started (by an earlier test of this process, maybe elsewhere): here, as for the reader
    jvm = spark.sparkContext._jvm
    jvm.org.apache.hadoop.fs.FileSystem.getLocal(spark.sparkContext._jsc.hadoopConfiguration()) \
        .setWorkingDirectory(jvm.org.apache.hadoop.fs.Path(str(tmp_path)))
    namespace = {"iaa": iaa, "duckdb": duckdb, "dask": dask, "polars": polars,
                 "spark": spark}
    try:
        for i, code in enumerate(_snippets(ROOT / "docs" / "big-data.md")):
            exec(compile(code, f"big-data.md[{i}]", "exec"), namespace)
    finally:
        spark.stop()
    # the page's claim: the engine's statistics give the in-memory values
    assert iaa.fleiss_kappa(namespace["s"]).value == \
        pytest.approx(iaa.fleiss_kappa(ratings).value, abs=1e-12)
