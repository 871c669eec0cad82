"""The repository stands on its own: no tracked file points to a path outside it (a
reader's checkout has no /work, no sibling `shared/` folder, no one's home)."""
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# absolute paths of the machines we work on, and relative paths that climb out of the tree
OUTSIDE = re.compile(r"/work/|/home/\w|/root/|\.\./(?:shared|\.library)|(?<![\w.])\.\./\.\./")


def tracked_text_files():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    for name in out.decode().split("\0"):
        path = ROOT / name
        # this file names the patterns it looks for
        if name and path.is_file() and not name.endswith("package-lock.json") \
                and name != "tests/test_repository.py":
            try:
                yield name, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:  # binary (pictures, parquet)
                continue


def test_no_tracked_file_points_outside_the_repository():
    hits = [f"{name}:{i}: {line.strip()[:100]}"
            for name, text in tracked_text_files()
            for i, line in enumerate(text.splitlines(), 1) if OUTSIDE.search(line)]
    assert hits == []
