"""Messages point somewhere useful (issue 44): every option a reader's message suggests
(``from_name=``, ``view_id=`` …) is an option of ``iaa report`` under the same name
(``--from-name``) and reaches the reader; the ``--format`` lists of the docs are the
CLI's."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from iaa_widgets import cli
from iaa_widgets.io.detect import FORMATS

ROOT = Path(__file__).resolve().parent.parent
IO = ROOT / "iaa_widgets" / "io"
# read_adjudication's sheet is not read by iaa report (explore's adjudication round trip)
NOT_READERS = {"adjudication.py"}
SUGGESTION = re.compile(r"(?<![\w.{-])([a-z_]+)=(?!=)")


def _suggestions() -> dict[str, str]:
    """{option: where} of every ``name=`` in the texts of io's modules (messages and
    notes), their docstrings left out."""
    found = {}
    for path in sorted(IO.glob("*.py")):
        if path.name in NOT_READERS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(node.body[0].value) for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
                and ast.get_docstring(node, clean=False) is not None}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    id(node) not in docs:
                for m in SUGGESTION.finditer(node.value):
                    found.setdefault(m.group(1), f"{path.name}, line {node.lineno}")
    return found


def _cli_options() -> set[str]:
    report = next(a for a in cli._parser()._subparsers._group_actions[0].choices.values()
                  if a.prog.endswith("report"))
    return {s for action in report._actions for s in action.option_strings}


def test_the_scan_finds_the_suggestions_issue_44_names():
    found = _suggestions()
    assert {"from_name", "view_id", "label", "item", "sets", "field", "labels", "tiers",
            "block", "dataset", "format", "encoding", "dtype", "wait"} <= set(found)


@pytest.mark.parametrize("option", sorted(_suggestions()))
def test_every_option_a_message_suggests_is_a_cli_option(option):
    flag = "--" + option.replace("_", "-")
    assert flag in _cli_options(), f"{_suggestions()[option]} suggests {option}=, " \
                                   f"but iaa report has no {flag}"


def test_cli_reader_options_reach_the_reader(tmp_path, capsys):
    """--from-name picks the control (the shipped export has one: a wrong one is refused
    naming the controls); an option the reader does not take is refused by name."""
    export = str(ROOT / "examples" / "exports" / "label_studio_reviews.json")
    out = str(tmp_path / "r.html")
    assert cli.main(["report", export, "-o", out, "--bootstrap", "0",
                     "--from-name", "nope"]) == 2
    assert "no region of control 'nope'" in capsys.readouterr().err
    assert cli.main(["report", export, "-o", out, "--bootstrap", "0",
                     "--from-name", "sentiment"]) == 0
    assert cli.main(["report", export, "-o", out, "--view-id", "choice"]) == 2
    assert "view_id= is not an option of iaa.read_label_studio" in capsys.readouterr().err


def test_the_format_lists_of_the_docs_are_the_clis():
    lists = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for m in re.finditer(r"--format[ `]+([a-z_]+(?:\|[a-z_]+)+)",
                             page.read_text(encoding="utf-8")):
            lists.append((page.name, m.group(1).split("|")))
    assert lists, "no --format list found in the docs"
    for page, names in lists:
        assert names == list(cli.FORMATS), page
    assert list(cli.FORMATS) == list(FORMATS)


def test_cli_rank_follows_the_header_unless_told(tmp_path, capsys):
    """examples/emails.csv has a rank column: read as ranks by default (as iaa.read does,
    saying so), refused as two labels per (item, annotator) with --rank ''."""
    emails = str(ROOT / "examples" / "emails.csv")
    out = str(tmp_path / "r.html")
    assert cli.main(["report", emails, "-o", out, "--bootstrap", "0"]) == 0
    assert cli.main(["report", emails, "-o", out, "--bootstrap", "0", "--rank", ""]) == 2
    assert "rated more than once" in capsys.readouterr().err
