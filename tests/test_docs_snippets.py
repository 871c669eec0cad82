"""Every Python snippet of the documentation and the README runs as written, from the
repository's root (the data files they read ship in examples/): a renamed argument or a
moved file fails here, not in a reader's notebook.

A page's snippets run in order in one namespace, as a reader would paste them. The
big-data page reads the reader's own engine tables (parquet folders, a Spark session) and
is checked by tests/test_engines.py instead.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
PAGES = [p for p in PAGES if "generated" not in p.parts]
NOT_RUN = {"big-data.md"}  # needs the reader's own engines and data
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


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
        # files a snippet writes (chart.save("x.html"), -o report.html) go to a temporary folder
        code = re.sub(r'\.save\("([^"]+)"\)',
                      lambda m: f'.save({str(tmp_path / m.group(1))!r})', code)
        try:
            exec(compile(code, f"{path.name}[{i}]", "exec"), namespace)
        except Exception as e:  # name the page and the snippet
            raise AssertionError(f"{path.relative_to(ROOT)} snippet {i} fails: {e!r}\n{code}")
        saved.append(i)
    assert saved


def test_pages_listed_exist():
    assert (ROOT / "examples" / "labels.csv").is_file()
    assert os.path.isfile(ROOT / "mkdocs.yml")
