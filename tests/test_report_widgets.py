"""The widgets of ``iaa report`` (issue 42): the pairwise section embeds the
ContingencyMatrix and, with secondary labels, the report embeds the
AugmentedKappaSweep, each as ``widget.to_html()`` writes it, with the states Python
computed for its controls, within the page's budget (``budget=``, ``--budget``).

Expected numbers come from the measure functions, not from the widgets:
``augmented_kappa(data, p=…)`` (Rosenberg & Binkowski 2004, §5, evaluated directly) and
``cohen_kappa`` of one pair's primary labels. Data: the first 40 messages of the seeded
synthetic e-mail corpus (iaa_widgets.datasets.email_types: three annotators, primary
and secondary labels).
"""
from __future__ import annotations

import json
import re

import pytest

import iaa_widgets as iaa
from iaa_widgets.cli import main
from iaa_widgets.datasets import email_types
from iaa_widgets.report import report_html

_BLOCK = re.compile(r'<script type="application/json" id="(iaa-states?)(-\d+)?">(.*?)</script>',
                    re.S)


@pytest.fixture(scope="module")
def emails():
    long = email_types()
    return long[long["item"].isin(long["item"].unique()[:40])]


@pytest.fixture(scope="module")
def document(emails):
    return report_html(iaa.Annotations.from_long(emails, rank="rank"), n_resamples=0)


def _widgets(document: str) -> list[tuple[dict, dict]]:
    """Each embedded widget's saved state and precomputed states, in the page's order."""
    parts: dict[str, dict] = {}
    for kind, part, data in _BLOCK.findall(document):
        parts.setdefault(part, {})[kind] = json.loads(data)
    return [(p["iaa-state"], p["iaa-states"]) for p in parts.values()]


def _at(state: dict, live: dict, **controls) -> dict:
    """The traitlets the page shows with ``controls`` set, the others as saved."""
    want = [controls.get(n, state[n]) for n in live["names"]]
    k = next(k for values, k in live["states"] if values == want)
    return {**state, **(live["diffs"][k] if k >= 0 else {})}


def test_the_report_embeds_its_widgets_with_their_states(emails, document):
    matrix, sweep = _widgets(document)
    assert matrix[0]["_kind"] == "contingency" and sweep[0]["_kind"] == "sweep"
    assert document.index('id="pairwise"') < document.index('id="iaa-widget"') < \
        document.index('id="augmented"') < document.index('id="iaa-widget-2"')
    assert len(document.encode("utf-8")) <= 5_000_000  # the default budget
    # the sweep's p slider: κ′ at p = 0.8 as Rosenberg & Binkowski's §5 gives it
    ann = iaa.Annotations.from_long(emails, rank="rank")
    shown = _at(*sweep, p=0.8)["summary"]
    assert shown["kappa"] == pytest.approx(iaa.augmented_kappa(ann, p=0.8).value, abs=1e-12)
    assert {c["name"] for c in sweep[1]["controls"]} >= {"p", "pair", "delta", "tau"}
    # the matrix's pair selectors: A × C's Cohen's κ on their primary labels
    primary = emails[(emails["rank"] == 1) & emails["annotator"].isin(["A", "C"])]
    kappa = iaa.cohen_kappa(iaa.Annotations.from_long(primary.drop(columns="rank"))).value
    coefficients = {c["key"]: c["value"] for c in _at(*matrix, pair=[0, 2])["coefficients"]}
    assert coefficients["cohen_kappa"] == pytest.approx(kappa, abs=1e-12)
    assert len(matrix[1]["states"]) == 5  # the other ordered pairs of three annotators
    # one copy of vega: the report's own charts are drawn by the widgets' bundle
    from iaa_widgets.html import vega_script
    assert vega_script() not in document
    assert document.count("var iaaVega = iaaStandalone;") == 1


def test_the_budget_bounds_the_page_and_the_banner_names_what_is_left_out(emails,
                                                                          tmp_path):
    path = tmp_path / "emails.csv"
    emails.to_csv(path, index=False)
    bare = tmp_path / "bare.html"
    assert main(["report", str(path), "-o", str(bare), "--bootstrap", "0",
                 "--budget", "0"]) == 0
    for _, live in _widgets(bare.read_text(encoding="utf-8")):
        assert live["states"] == [] and live["dropped"]  # every group named
    # room for some states: the page stays within it, and what did not fit is named
    budget = bare.stat().st_size + 300_000  # (the matrix's states: 91 kB here)
    out = tmp_path / "some.html"
    assert main(["report", str(path), "-o", str(out), "--bootstrap", "0",
                 "--budget", str(budget)]) == 0
    assert out.stat().st_size <= budget
    (_, matrix), (_, sweep) = _widgets(out.read_text(encoding="utf-8"))
    assert matrix["states"] and not matrix["dropped"]
    assert sweep["states"] and sweep["dropped"]


def test_no_widget_without_known_annotators(tmp_path):
    # per-item counts: no pair to show, the page says why and carries no widget bundle
    counts = iaa.Annotations.from_counts([[2, 0], [1, 1], [0, 2]], ["yes", "no"])
    document = report_html(counts, n_resamples=0)
    assert "The ContingencyMatrix widget: not applicable" in document
    assert "iaa-static-part" not in document and "iaaStandalone" not in document
