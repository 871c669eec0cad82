"""`iaa report` (iaa_widgets.cli, iaa_widgets.report): the command end to end on small
files, every section present, hostile labels as text, exit codes.

Expected numbers are Meyer's two-annotator example ("Chance-corrected Measures:
Example", the table [[2, 2], [1, 5]] also used in tests/test_charts.py), derived by hand
from the formulas and written as exact fractions beside each value:
A_o = 7/10; Cohen's A_e = (4·3 + 6·7)/100 = 0.54, κ = 0.16/0.46 = 8/23; Scott's
pooled shares 7/20, 13/20, A_e = (49 + 169)/400 = 0.545, π = 0.155/0.455 = 31/91;
Bennett's S = (0.7 − 1/2)/(1/2) = 2/5; Krippendorff's nominal α with n = 20 pairable
values, n_c = (7, 13): D_o = 6/20, D_e = 2·7·13/(20·19) = 91/190,
α = 1 − (6/20)/(91/190) = 34/91 (Krippendorff 2011, eq. for nominal data).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from iaa_widgets.cli import main, read_ratings
from iaa_widgets.data import as_annotations
from iaa_widgets.inference.bootstrap import bootstrap
from iaa_widgets.report import alpha_metrics, item_table, report_html, reporting_paragraph

HOSTILE = "</script><img src=x onerror=alert(1)>"
SECTIONS = ("data", "coefficients", "reporting", "pairwise", "per-category", "per-item")
CHARTS = ("chart-coefficients", "chart-pairwise", "chart-per-category", "chart-items")


def _meyer_rows(a="high", b="low"):
    """Meyer's table [[2, 2], [1, 5]] as 10 items rated by annotators r1 and r2."""
    cells = [(a, a)] * 2 + [(a, b)] * 2 + [(b, a)] * 1 + [(b, b)] * 5
    return [(i, r, lab) for i, pair in enumerate(cells) for r, lab in zip(("r1", "r2"), pair)]


@pytest.fixture
def meyer_csv(tmp_path):
    path = tmp_path / "meyer.csv"
    pd.DataFrame(_meyer_rows(), columns=["item", "annotator", "label"]).to_csv(path,
                                                                               index=False)
    return path


class _Page(HTMLParser):
    """Tags, attributes, text per section id, and the scripts of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.ids, self.scripts = [], [], set(), []
        self.section, self.text = None, {}
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [name for name, _ in attrs]
        d = dict(attrs)
        if "id" in d:
            self.ids.add(d["id"])
        if tag == "section" and "id" in d:  # (a widget's section has none)
            self.section = d["id"]
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)
        else:
            self.text[self.section] = self.text.get(self.section, "") + data


def _parse(document: str) -> _Page:
    page = _Page()
    page.feed(document)
    page.close()
    return page


def _specs(document: str) -> dict:
    return json.loads(re.search(r"const specs = (\{.*?\});\nconst options", document,
                                re.S).group(1))


def _rows(spec: dict) -> list[dict]:
    return [row for rows in spec["datasets"].values() for row in rows]


def _coefficient_values(document: str) -> dict:
    """Coefficient → value, from the data of the coefficients chart (analytic rows)."""
    rows = _rows(_specs(document)["chart-coefficients"])
    return {r["coefficient"]: r["value"] for r in rows if r["interval"] == "analytic"}


def test_report_command_writes_every_section_with_the_right_numbers(meyer_csv, tmp_path,
                                                                    capsys):
    out = tmp_path / "report.html"
    assert main(["report", str(meyer_csv), "-o", str(out), "--bootstrap", "200"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    document = out.read_text(encoding="utf-8")
    page = _parse(document)
    assert set(SECTIONS) | set(CHARTS) <= page.ids
    assert set(_specs(document)) == set(CHARTS)  # every chart div has its spec
    values = _coefficient_values(document)
    # exact fractions: see the module docstring (Meyer's example, by hand)
    expected = {"percent_agreement": Fraction(7, 10), "bennett_s": Fraction(2, 5),
                "scott_pi": Fraction(31, 91), "cohen_kappa": Fraction(8, 23),
                "krippendorff_alpha (nominal)": Fraction(34, 91)}
    for name, value in expected.items():
        assert values[name] == pytest.approx(float(value), abs=1e-12), name
    # two annotators: every coefficient applies (Fleiss, Conger and AC1 too)
    assert {"fleiss_kappa", "davies_fleiss_kappa", "gwet_ac1"} <= set(values)
    assert "Not applicable" not in page.text["coefficients"]
    # both intervals drawn: the analytic one and the bootstrap one
    kinds = {r["interval"] for r in _rows(_specs(document)["chart-coefficients"])}
    assert kinds == {"analytic", "bootstrap"}
    # per item: 7 items where the two agree (P_i = 1), 3 where they do not (0), least first
    items = _rows(_specs(document)["chart-items"])
    assert sum(r["count"] for r in items) == 10
    assert items[0]["count"] == 3 and items[-1]["count"] == 7
    assert "10 of 10 items shown" in page.text["per-item"]
    # the page is self-contained: no script or style from elsewhere
    assert "<script src" not in document and "<link" not in document


def test_hostile_labels_and_annotators_are_text(tmp_path):
    # an annotator and a category are hostile; six items rated by both annotators
    pairs = [(HOSTILE, HOSTILE), (HOSTILE, "ok"), ("ok", "ok"), ("ok", HOSTILE),
             (HOSTILE, HOSTILE), ("ok", "ok")]
    rows = [(f"item {i}", who, lab) for i, labs in enumerate(pairs)
            for who, lab in zip((HOSTILE, "b"), labs)]
    path = tmp_path / "hostile.csv"
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_csv(path, index=False)
    out = tmp_path / "hostile.html"
    assert main(["report", str(path), "-o", str(out), "--bootstrap", "50",
                 "--title", HOSTILE]) == 0
    document = out.read_text(encoding="utf-8")
    page = _parse(document)
    assert HOSTILE not in document  # never raw, anywhere (scripts included)
    assert "img" not in page.tags and "onerror" not in page.attrs
    # code: the charts' bundle and embedding code, the widgets' bundle and mounting code;
    # the ContingencyMatrix's state and states are data blocks (JSON), not code
    scripts = re.findall(r"<script([^>]*)>", document)
    assert len(scripts) == 6 and [s.split(" id=")[0] for s in scripts if s] == \
        [' type="application/json"'] * 2
    for section in ("data", "pairwise", "per-category", "per-item"):
        assert HOSTILE in page.text[section], section  # shown, as text
    assert HOSTILE in page.text[None]  # the title, as text
    # the chart specs carry the labels exactly (JSON's \u escapes decode to them)
    assert HOSTILE in json.dumps(_specs(document), ensure_ascii=False)


def test_alpha_metrics_follow_what_the_data_declares(tmp_path):
    text_labels = read_ratings(str(_write(tmp_path, "t.csv", _meyer_rows())))
    assert alpha_metrics(text_labels) == ["nominal"]  # no order: no ordinal α
    declared = read_ratings(str(_write(tmp_path, "t.csv", _meyer_rows())),
                            categories=["low", "high"])
    assert alpha_metrics(declared) == ["nominal", "ordinal"]
    numbers = read_ratings(str(_write(tmp_path, "n.csv", _meyer_rows(1, 3))))
    assert alpha_metrics(numbers) == ["nominal", "ordinal", "interval"]
    assert alpha_metrics(numbers, "ratio") == ["ratio"]


def test_numeric_labels_get_ordinal_and_interval_alpha(tmp_path):
    path = _write(tmp_path, "n.csv", _meyer_rows(1, 3))
    out = tmp_path / "n.html"
    assert main(["report", str(path), "-o", str(out), "--bootstrap", "0"]) == 0
    values = _coefficient_values(out.read_text(encoding="utf-8"))
    # with two categories every metric gives the same α: δ² is one constant for the one
    # pair of different values (Krippendorff 2011), so 34/91 as in the nominal case
    for metric in ("nominal", "ordinal", "interval"):
        assert values[f"krippendorff_alpha ({metric})"] == pytest.approx(34 / 91,
                                                                          abs=1e-12)


def test_options_confidence_bootstrap_metric_and_max_items(meyer_csv, tmp_path):
    out = tmp_path / "o.html"
    assert main(["report", str(meyer_csv), "-o", str(out), "--confidence", "0.9",
                 "--bootstrap", "0", "--metric", "nominal", "--max-items", "4"]) == 0
    document = out.read_text(encoding="utf-8")
    page = _parse(document)
    assert "wald 90%" in page.text["coefficients"]  # the analytic intervals' level
    assert "no bootstrap was asked for" in page.text["coefficients"]
    kinds = {r["interval"] for r in _rows(_specs(document)["chart-coefficients"])}
    assert kinds == {"analytic"}
    assert "4 of 10 items shown" in page.text["per-item"]
    # κ's analytic 90 % interval: κ ± z_0.95 · SE, narrower than the 95 % one
    values = {r["coefficient"]: r for r in _rows(_specs(document)["chart-coefficients"])}
    kappa = values["cohen_kappa"]
    assert kappa["low"] < 8 / 23 < kappa["high"]
    wide = _rows(_specs(report_html(read_ratings(str(meyer_csv)), n_resamples=0))[
        "chart-coefficients"])
    k95 = next(r for r in wide if r["coefficient"] == "cohen_kappa")
    assert k95["high"] - k95["low"] > kappa["high"] - kappa["low"]


def test_columns_wide_layout_tsv_and_a_tools_export(tmp_path):
    frame = pd.DataFrame(_meyer_rows(), columns=["doc", "coder", "tag"])
    frame.to_csv(tmp_path / "renamed.tsv", sep="\t", index=False)
    out = tmp_path / "r.html"
    assert main(["report", str(tmp_path / "renamed.tsv"), "-o", str(out), "--item", "doc",
                 "--annotator", "coder", "--label", "tag", "--bootstrap", "0"]) == 0
    assert _coefficient_values(out.read_text(encoding="utf-8"))["cohen_kappa"] == \
        pytest.approx(8 / 23, abs=1e-12)  # Meyer's κ (module docstring)
    frame.pivot(index="doc", columns="coder", values="tag").to_csv(tmp_path / "wide.csv")
    assert main(["report", str(tmp_path / "wide.csv"), "-o", str(out), "--wide",
                 "--bootstrap", "0"]) == 0
    assert _coefficient_values(out.read_text(encoding="utf-8"))["cohen_kappa"] == \
        pytest.approx(8 / 23, abs=1e-12)
    # doccano classification: a folder of <annotator>.jsonl files
    (tmp_path / "doccano").mkdir()
    for who in ("r1", "r2"):
        mine = frame[frame["coder"] == who]
        (tmp_path / "doccano" / f"{who}.jsonl").write_text("".join(
            json.dumps({"id": int(d), "text": f"doc {d}", "label": [t]}) + "\n"
            for d, t in zip(mine["doc"], mine["tag"])))
    assert main(["report", str(tmp_path / "doccano"), "-o", str(out), "--format",
                 "doccano", "--bootstrap", "0"]) == 0
    assert _coefficient_values(out.read_text(encoding="utf-8"))["cohen_kappa"] == \
        pytest.approx(8 / 23, abs=1e-12)


@pytest.mark.parametrize("args, message", [
    (["missing.csv"], "No such file"),
    (["labels.json"], "pass --format"),
    (["meyer.csv", "--label", "nope"], "not found"),
    (["three.csv", "--metric", "ordinal"], "no order was given"),  # 3 text labels
    (["meyer.csv", "--metric", "ordnial"], "metric"),
    (["meyer.csv", "--confidence", "1.5"], "confidence"),
    (["meyer.csv", "--bootstrap", "-3"], "n_resamples"),
    (["meyer.csv", "--budget", "-1"], "budget"),
    (["rttm", "--format", "rttm"], "not labels of items"),
])
def test_refusals_are_one_line_and_exit_2(meyer_csv, tmp_path, capsys, monkeypatch, args,
                                          message):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "three.csv", _meyer_rows() + [(10, "r1", "mid"), (10, "r2", "mid")])
    (tmp_path / "rttm").mkdir()
    for who in ("a", "b"):
        (tmp_path / "rttm" / f"{who}.rttm").write_text(
            "SPEAKER f1 1 0.00 1.50 <NA> <NA> spk1 <NA> <NA>\n")
    assert main(["report", *args, "-o", "out.html"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("iaa report: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out.html").exists()


@pytest.mark.parametrize("args, message", [
    (["report", "x.csv"], "required: -o/--output"),
    (["report", "x.csv", "-o", "y.html", "--bootstrap", "many"], "invalid int value"),
    (["report", "x.csv", "-o", "y.html", "--format", "xls"], "invalid choice"),
    ([], "required: COMMAND"),
])
def test_usage_errors_are_one_line_and_exit_2(capsys, args, message):
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "usage:" not in err
    assert err.startswith("iaa report: error: " if args else "iaa: error: ")


def test_python_dash_m_runs_the_command(meyer_csv, tmp_path):
    out = tmp_path / "m.html"
    done = subprocess.run([sys.executable, "-m", "iaa_widgets", "report", str(meyer_csv),
                           "-o", str(out), "--bootstrap", "0"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert _coefficient_values(out.read_text(encoding="utf-8"))["cohen_kappa"] == \
        pytest.approx(8 / 23, abs=1e-12)
    failed = subprocess.run([sys.executable, "-m", "iaa_widgets", "report",
                             str(tmp_path / "none.csv"), "-o", str(out)],
                            capture_output=True, text=True, timeout=300)
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert failed.stderr.count("\n") == 1


def test_item_table_counts_and_order():
    # items: unanimous (P_i = 1), split 2–1 (P_i = 2/6), rated once (NaN)
    ann = as_annotations(_frame([("u", "a", "x"), ("u", "b", "x"), ("u", "c", "x"),
                              ("s", "a", "x"), ("s", "b", "y"), ("s", "c", "x"),
                              ("o", "a", "y")]))
    table = item_table(ann)
    assert table["item"].tolist() == ["s", "u", "o"]  # least agreement first, NaN last
    # Fleiss (1971) P_i = Σ_k n_ik(n_ik − 1) / (m(m − 1)): 2·1/(3·2) = 1/3; 3·2/6 = 1
    np.testing.assert_allclose(table["agreement"].to_numpy(), [1 / 3, 1.0, np.nan])
    assert table["ratings"].tolist() == [3, 3, 1]
    assert table["labels"].tolist() == ["x ×2 · y ×1", "x ×3", "y ×1"]


def _frame(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


def _write(tmp_path, name, rows):
    path = tmp_path / name
    _frame(rows).to_csv(path, index=False)
    return path


def test_declared_categories_allow_ordinal_alpha(tmp_path):
    # Meyer's table with 'low' < 'mid' < 'high' declared ('mid' unused): one pair of
    # different values only, so δ is one constant and cancels: α = 34/91 under every
    # metric (module docstring; Krippendorff 2011)
    path = _write(tmp_path, "t.csv", _meyer_rows())
    out = tmp_path / "t.html"
    assert main(["report", str(path), "-o", str(out), "--categories", "low", "mid", "high",
                 "--metric", "ordinal", "--bootstrap", "0"]) == 0
    values = _coefficient_values(out.read_text(encoding="utf-8"))
    assert values["krippendorff_alpha (ordinal)"] == pytest.approx(34 / 91, abs=1e-12)
    assert "krippendorff_alpha (nominal)" not in values  # --metric names the one wanted
    # numbers on the command line are numbers, as pandas reads the CSV's labels
    path = _write(tmp_path, "n.csv", _meyer_rows(1, 3))
    assert main(["report", str(path), "-o", str(out), "--categories", "1", "2", "3",
                 "--bootstrap", "0"]) == 0
    page = _parse(out.read_text(encoding="utf-8"))
    assert "categories: 1, 2, 3" in page.text["data"]


# ------------------------------------------------- parts that cannot be drawn, and reading
def test_more_annotators_than_altair_draws_lists_the_chart_as_not_applicable(tmp_path):
    # 72 annotators: the pairwise chart has 72² = 5,184 cells, above Altair's 5,000 rows
    rng = np.random.default_rng(3)
    raters = [f"r{i}" for i in range(72)]
    frame = pd.DataFrame({"item": np.repeat(np.arange(12), 72),
                          "annotator": np.tile(raters, 12),
                          "label": rng.choice(["x", "y"], 12 * 72)})
    document = report_html(frame, n_resamples=20)
    page = _parse(document)
    assert set(SECTIONS) <= page.ids
    assert "chart-pairwise" not in _specs(document)
    assert set(CHARTS) - {"chart-pairwise"} <= set(_specs(document))
    assert "The pairwise chart: not applicable: its data has more than 5,000 rows" in \
        page.text["pairwise"]
    # the matrix itself is written: one row per annotator
    assert page.text["pairwise"].count("r71") >= 2
    # the widget of the pairs' tables is left out, and the page says why
    assert "The ContingencyMatrix widget: not applicable: 72 annotators" in \
        page.text["pairwise"]


def test_single_category_data_gives_the_report_with_what_is_undefined_said(tmp_path):
    # every rating the same: A_o = 1 and every chance-corrected coefficient 0/0
    frame = _frame([(i, r, "x") for i in range(10) for r in ("a", "b")])
    document = report_html(frame, n_resamples=50)
    page = _parse(document)
    assert set(SECTIONS) <= page.ids
    values = _coefficient_values(document)
    assert values["percent_agreement"] == 1.0  # 10 agreements of 10 (definition of A_o)
    assert values["cohen_kappa"] is None  # NaN in the chart's data: undefined
    text_ = page.text["coefficients"]
    assert "Bootstrap not applicable" in text_
    assert "cohen_kappa is undefined on 50 of 50 resamples" in text_


def test_one_note_per_fact_and_no_signed_zero():
    # three annotators, four blank labels: the data's note once, in the data section;
    # the items left out once, naming the coefficients it holds for
    rows = [(i, r, "xyz"[(i * 7 + j) % 3]) for i in range(12) for j, r in enumerate("abc")]
    frame = _frame(rows)
    frame.loc[[1, 5, 20, 31], "label"] = ""
    page = _parse(report_html(frame, n_resamples=0))
    whole = "".join(page.text.values())
    assert whole.count("blank label") == 1 and "blank label" in page.text["data"]
    assert page.text["coefficients"].count("rated by fewer than all 3 annotators") == 1
    assert "-0.0000" not in whole
    from iaa_widgets.report import _fmt
    assert _fmt(-1e-9) == "0.0000" and _fmt(-0.0) == "0.0000" and _fmt(-0.5) == "-0.5000"


def test_disagreement_columns_and_the_pairs_diagonal(meyer_csv):
    document = report_html(read_ratings(str(meyer_csv)), n_resamples=0)
    page = _parse(document)
    text_ = page.text["coefficients"]
    for column in ("observed agreement A_o", "expected agreement A_e",
                   "observed disagreement D_o", "expected disagreement D_e"):
        assert column in text_
    head, *rows = _first_table(document.split('id="coefficients"')[1])
    alpha = dict(zip(head, next(r for r in rows if r[0] == "krippendorff_alpha (nominal)")))
    # α's D_o = 6/20 and D_e = 91/190 (module docstring) sit in the disagreement columns
    assert float(alpha["observed disagreement D_o"]) == pytest.approx(6 / 20, abs=1e-4)
    assert float(alpha["expected disagreement D_e"]) == pytest.approx(91 / 190, abs=1e-4)
    assert alpha["observed agreement A_o"] == "—"
    _, first, _ = _first_table(document.split("Items each pair rated:")[1])
    assert first == ["r1", "—", "10"]  # 10 items both rated; the diagonal is no pair


def _first_table(fragment: str) -> list[list[str]]:
    """The cells' texts of the first table in an HTML fragment, row by row."""
    class Cells(HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.cell, self.done = [], None, False

        def handle_starttag(self, tag, attrs):
            if not self.done and tag == "tr":
                self.rows.append([])
            elif not self.done and tag in ("td", "th"):
                self.cell = ""

        def handle_endtag(self, tag):
            if tag in ("td", "th") and self.cell is not None and not self.done:
                self.rows[-1].append(self.cell.strip())
                self.cell = None
            elif tag == "table":
                self.done = True

        def handle_data(self, data):
            if self.cell is not None:
                self.cell += data
    parser = Cells()
    parser.feed(fragment)
    return parser.rows


def test_intervals_are_cut_to_the_coefficients_range_and_say_so():
    # 9 agreements of 10: A_o = 0.9, Wald SE √(0.9 · 0.1 / 10) (Meyer's tutorial,
    # corrected): 0.9 + 1.96 · 0.0949 = 1.086 > 1, cut to 1
    frame = _frame([(i, r, "x" if i or r == "a" else "y") for i in range(10)
                    for r in ("a", "b")])
    document = report_html(frame, n_resamples=0)
    rows = {r["coefficient"]: r for r in _rows(_specs(document)["chart-coefficients"])}
    assert 0.9 + 1.959964 * (0.09 / 10) ** 0.5 > 1
    assert rows["percent_agreement"]["high"] == 1.0
    assert rows["percent_agreement"]["low"] == pytest.approx(
        0.9 - 1.959964 * 0.009 ** 0.5, abs=1e-5)  # the low end is inside: kept
    text_ = _parse(document).text["coefficients"]
    assert "Intervals cut" in text_ and "interval cut to the coefficient's range: analytic" \
        in text_
    assert "Every interval is cut to its coefficient's range ([0, 1] for percent_agreement" \
        in text_


def test_annotator_accuracy_from_dawid_skene():
    # 3 annotators on 40 items: a always agrees with b except on items 0-9, c on items
    # 0-4 only; the numbers are iaa.dawid_skene's own (checked against crowd-kit and the
    # 1979 paper in tests/test_models.py), printed at 4 decimals
    import iaa_widgets as iaa
    rows = [(i, r, ("x" if i % 3 else "y") if r == "a" or (r == "b" and i >= 10)
             or (r == "c" and i >= 5) else "z") for i in range(40) for r in "abc"]
    frame = _frame(rows)
    document = report_html(frame, n_resamples=0)
    text_ = _parse(document).text["annotators"]
    ds = iaa.dawid_skene(frame)
    assert f"dawid_skene (full): EM from the majority vote, {ds.n_iter} iterations, " \
        f"converged (tol 1e-05)" in text_
    head, *table = _first_table(document.split('id="annotators"')[1])
    assert head == ["annotator", "n_ratings", "accuracy"]
    assert [r[0] for r in table] == ["a", "b", "c"]  # one row per annotator
    assert [float(r[2]) for r in table] == pytest.approx(ds.accuracy.tolist(), abs=5e-5)
    assert [int(r[1]) for r in table] == [40, 40, 40]
    # two annotators (Meyer's table): the part is named as not applicable, with why
    two = _parse(report_html(_frame(_meyer_rows()), n_resamples=0)).text["annotators"]
    assert "not applicable" in two and "at least 3 known annotators" in two \
        and "ratings by 2" in two


def test_reporting_section_is_krippendorffs_paragraph_ready_to_paste():
    """Issue 45 §5: the headline coefficient (α) in Krippendorff's reporting standard.
    Krippendorff's 2011 reliability data (iaa_widgets.datasets.krippendorff_2011, his
    note "Computing Krippendorff's Alpha-Reliability", 4 coders × 12 units): nominal
    α = 0.743 over 40 pairable values in 11 units (unit 12 has one value). The interval,
    [0.615, 0.872] with 20,000 replicates of Hayes & Krippendorff's bootstrap, is issue
    45's figure from kripp.boot's algorithm run without its 25·q cap (tests/
    test_inference_bootstrap.py checks it against the exact binomial quantiles)."""
    from iaa_widgets.datasets import krippendorff_2011
    data = krippendorff_2011()
    paragraph = reporting_paragraph(as_annotations(data), n_resamples=20_000, seed=0)
    assert paragraph.startswith("α (Krippendorff, nominal) = 0.743, 95% percentile "
                                "confidence interval [0.615, 0.872] from 20,000 bootstrap "
                                "replicates (Hayes & Krippendorff's (2007) bootstrap")
    # M = (m − 1)·n../2 = 3·40/2 = 60 pairs per replicate (Hayes & Krippendorff 2007)
    assert "60 pairs of values" in paragraph
    assert re.search(r"q\(0\.667\) = 0\.\d{3}, q\(0\.8\) = 0\.\d{3}", paragraph)
    assert "11 units, 40 pairable values, 4 coders" in paragraph
    assert "Missing values: pairable" in paragraph
    # units of up to 4 values: Krippendorff's draws their pairs as independent and covers
    # 0.870 with three coders (benchmarks/bench_coverage.py), so the bootstrap over units
    # follows: its interval is iaa.bootstrap's own (same seed and replicates)
    units = bootstrap(data, "krippendorff_alpha", n_resamples=20_000, seed=0).ci
    assert paragraph.endswith("Its units hold up to 4 values, whose pairs this bootstrap "
                              "draws as independent, so its interval is narrower than it "
                              "should be; the bootstrap over units gives "
                              f"[{units[0]:.3f}, {units[1]:.3f}].")
    assert units[1] - units[0] > 0.872 - 0.615
    # two coders: Krippendorff's alone
    two = data[data.annotator.isin(data.annotator.unique()[:2])]
    assert "bootstrap over units" not in reporting_paragraph(as_annotations(two),
                                                             n_resamples=200)
    # the page holds the same paragraph (same seed and replicates), escaped as text
    document = report_html(data, n_resamples=100, seed=3)
    page = _parse(document)
    same = reporting_paragraph(as_annotations(data), n_resamples=100, seed=3)
    assert " ".join(same.split()) in " ".join(page.text["reporting"].split())
    # another metric: the one asked for; no bootstrap: the measure's own paragraph, which
    # says how to add the interval (interval α on these numbers: 0.849, Krippendorff 2011)
    interval = reporting_paragraph(as_annotations(data), metric="interval", n_resamples=0)
    assert interval.startswith("α (Krippendorff, interval) = 0.849. It has no analytic "
                               "interval; iaa.bootstrap(data, 'krippendorff_alpha', "
                               "method='krippendorff').reporting()")
    assert "q(0.8)" not in interval


def test_reporting_section_says_why_when_alpha_is_undefined():
    # every rating the same: D_e = 0, α undefined, so no paragraph: the section says why
    frame = _frame([(i, r, "x") for i in range(6) for r in ("a", "b")])
    page = _parse(report_html(frame, n_resamples=20))
    assert "The reporting paragraph: not applicable" in page.text["reporting"]
