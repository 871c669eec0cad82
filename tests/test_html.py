"""Labels are data, everywhere (issue 19): iaa_widgets.html's script-safe JSON and text,
every chart's HTML (to_html, save, the HTML renderers, the self-contained page of
save("x.html") with the bundled vega, issue 16) and every result's _repr_html_ with
hostile labels, annotators, categories and items.

Expected values are the inputs themselves: an escaped spec must parse back (json.loads,
RFC 8259 §7 \\u escapes) to exactly the chart's own ``to_dict()``.
"""
from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser

import altair as alt
import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets import charts
from iaa_widgets import html as iaa_html
from iaa_widgets.html import (ScriptSafeEncoder, script_json, script_json_kwds,
                              script_safe, text, vega_script)

HOSTILE = ["</script><script>window.__pwned=1</script>", '"><img src=x onerror=alert(1)>',
           "${alert(1)}", "{{7*7}}", "\u202eRTL mark", "nul\x00byte", "emoji 😀🎉",
           "line\u2028sep\u2029end", "<!-- & -->", "L" * 400]
# what may never reach a page raw: a label's markup
MARKUP = [h for h in HOSTILE if set(h) & set("<>&\u2028\u2029")]
SCRIPT_UNSAFE = "<>&\u2028\u2029"


def _codes(n, k, seed):
    return np.random.default_rng(seed).integers(0, k, n)


@pytest.fixture(scope="module")
def hostile_long() -> pd.DataFrame:
    """30 items × 3 annotators; annotators, categories and items all hostile."""
    annotators, labels = [HOSTILE[0], HOSTILE[8], HOSTILE[5]], [HOSTILE[1], HOSTILE[3],
                                                                HOSTILE[4], HOSTILE[6]]
    items = [f"{HOSTILE[[2, 7, 9][i % 3]]} {i}" for i in range(30)]
    truth = _codes(30, 4, 0)
    noise = _codes(90, 4, 1)
    flip = np.random.default_rng(2).random(90) < 0.3
    codes = np.where(flip, noise, np.repeat(truth, 3))
    return pd.DataFrame({"item": np.repeat(items, 3), "annotator": annotators * 30,
                         "label": np.array(labels, dtype=object)[codes]})


@pytest.fixture(scope="module")
def hostile_ranked(hostile_long) -> pd.DataFrame:
    """The same with a secondary label (rank 2) on every third rating."""
    second = hostile_long.iloc[::3].copy()
    labels = sorted(set(hostile_long["label"]))
    second["label"] = [labels[(labels.index(v) + 1) % len(labels)] for v in second["label"]]
    return pd.concat([hostile_long.assign(rank=1), second.assign(rank=2)], ignore_index=True)


@pytest.fixture(scope="module")
def hostile_units() -> pd.DataFrame:
    """A continuum: 3 hostile annotators place 6 units each in hostile categories."""
    rng = np.random.default_rng(3)
    starts = np.arange(6) * 10.0
    rows = [(a, HOSTILE[[2, 3, 6, 1][k % 4]], s + rng.uniform(0, 2), s + 5 + rng.uniform(0, 2))
            for a in (HOSTILE[0], HOSTILE[4], HOSTILE[8]) for k, s in enumerate(starts)]
    return pd.DataFrame(rows, columns=["annotator", "category", "start", "end"])


@pytest.fixture(scope="module")
def every_chart(hostile_long, hostile_ranked, hostile_units):
    """Every chart builder of iaa_widgets.charts, and result.chart() of every result
    type, on hostile data (name → chart)."""
    ann = iaa.Annotations.from_long(hostile_long)
    fleiss = iaa.fleiss_kappa(ann)
    sweep = iaa.augmented_kappa_sweep(hostile_ranked, rank="rank")
    family = iaa.gamma_family(hostile_units, n_samples=4, seed=0)
    wide = hostile_long.pivot(index="item", columns="annotator", values="label")
    table = pd.crosstab(wide[ann.annotators[0]], wide[ann.annotators[1]]).reindex(
        index=ann.categories, columns=ann.categories, fill_value=0)  # aligned by label
    cells = charts.contingency_rows(table.to_numpy(), list(ann.categories))
    spa = iaa.spa_missingness(hostile_long, 0.2, n_rounds=10, seed=0)
    weights = iaa.spa_weight_curves(3)
    variance = iaa.spa_variance_curve(hostile_long, n_rounds=5, seed=0)
    return {
        "agreement": fleiss.chart(),
        "per_category": charts.per_category_chart(fleiss),
        "pairwise": iaa.pairwise(ann, "cohen_kappa").chart(),
        "contingency": charts.contingency_heatmap(cells),
        "sweep": sweep.chart(p=0.7, items=list(sweep.items["item"][:3])),
        "spa_missingness": spa.chart(),
        "spa_weights": charts.spa_weights_chart(charts.spa_weight_rows(weights)),
        "spa_variance": charts.spa_variance_chart(charts.spa_variance_rows(variance)),
        "gamma_family": family.chart(),
        "gamma_k": family.gamma_k.chart(),
        "gamma": family.gamma.chart(),
        "bootstrap": iaa.bootstrap(ann, "fleiss_kappa", n_resamples=50, seed=0).chart(),
    }


# ------------------------------------------------------------------ html.py
def test_script_json_round_trips_and_has_no_script_unsafe_character():
    value = {"labels": HOSTILE, HOSTILE[0]: [1, 2.5, None, True], "nested": {"x": HOSTILE[7]}}
    for kwds in ({}, {"ensure_ascii": False}, {"indent": 2, "sort_keys": True}):
        out = script_json(value, **kwds)
        assert json.loads(out) == value
        assert not set(out) & set(SCRIPT_UNSAFE), kwds
    # the same through json.dumps(cls=...) and through iterencode (json.dump to a file)
    assert json.loads(json.dumps(value, cls=ScriptSafeEncoder)) == value
    chunks = "".join(ScriptSafeEncoder(ensure_ascii=False).iterencode(value))
    assert json.loads(chunks) == value and not set(chunks) & set(SCRIPT_UNSAFE)


def test_script_json_kwds_keeps_a_users_encoder():
    class NumpyInts(json.JSONEncoder):
        def default(self, o):
            return int(o) if isinstance(o, np.integer) else super().default(o)

    kwds = script_json_kwds({"cls": NumpyInts, "indent": 1})
    assert kwds["indent"] == 1 and issubclass(kwds["cls"], (ScriptSafeEncoder, NumpyInts))
    out = json.dumps({"n": np.int64(3), "s": HOSTILE[0]}, **kwds)
    assert json.loads(out) == {"n": 3, "s": HOSTILE[0]} and "<" not in out
    assert script_json_kwds(kwds)["cls"] is kwds["cls"]  # idempotent


def test_text_escapes_markup_and_quotes():
    assert text(HOSTILE[1]) == "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"
    assert text(3) == "3"


# ------------------------------------------------------------------ every chart's HTML
_SPEC = {"standard": re.compile(r"var spec = (\{.*?\});\n\s*var embedOpt", re.S),
         "page": re.compile(r"const specs = (\{.*?\});\nconst options", re.S)}


def _assert_safe_page(page: str, chart, template: str = "standard") -> None:
    """No label's markup raw in the page, and the embedded spec parses back to the
    chart's own spec (the labels kept exactly). ``template``: "standard" (Altair's
    page, vega from a CDN) or "page" (:func:`iaa_widgets.html.page`, vega inlined)."""
    for h in MARKUP:
        assert h not in page
    assert "\u2028" not in page and "\u2029" not in page
    embedded = _SPEC[template].search(page).group(1)
    assert not set(embedded) & set(SCRIPT_UNSAFE)
    spec = json.loads(embedded)
    assert (spec["chart"] if template == "page" else spec) == chart.to_dict()
    if template == "page":  # self-contained: no script or style from elsewhere
        assert "<script src" not in page and "<link" not in page
        assert page.count("<script>") == 2 and vega_script() in page


def test_every_chart_is_script_safe_through_to_html(every_chart):
    for name, chart in every_chart.items():
        assert isinstance(chart, alt.TopLevelMixin), name
        _assert_safe_page(chart.to_html(), chart)
        # a user's own json keywords are kept, and still escaped
        _assert_safe_page(chart.to_html(json_kwds={"ensure_ascii": False}), chart)


def test_every_chart_has_the_hostile_labels_in_its_spec(every_chart):
    # the test above would pass on charts without labels: these charts carry them
    unlabelled = ("agreement", "gamma", "spa_weights", "spa_variance", "spa_missingness",
                  "bootstrap")
    for name, chart in every_chart.items():
        if name in unlabelled:  # no user label on these charts, only measure names
            continue
        spec = json.dumps(chart.to_dict(), ensure_ascii=False)
        assert any(json.dumps(h, ensure_ascii=False)[1:-1] in spec for h in MARKUP), name


def test_every_chart_is_script_safe_through_save(every_chart, tmp_path):
    for name, chart in every_chart.items():
        chart.save(tmp_path / f"{name}.html")  # the bundled vega, inlined: no CDN
        _assert_safe_page((tmp_path / f"{name}.html").read_text(encoding="utf-8"), chart,
                          "page")
        chart.save(tmp_path / f"{name}.cdn.html", inline=False)  # Altair's page, asked for
        _assert_safe_page((tmp_path / f"{name}.cdn.html").read_text(encoding="utf-8"),
                          chart)
        chart.save(tmp_path / f"{name}.json")  # still the same spec
        assert json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8")) == \
            chart.to_dict(context={"pre_transform": False})


def test_inline_pages_are_script_safe(every_chart, tmp_path):
    # inline=True, format="html" and a file object all give the self-contained page
    # (no vl-convert needed)
    for name in ("pairwise", "gamma_family", "sweep"):
        chart = every_chart[name]
        chart.save(tmp_path / f"{name}.html", inline=True)
        _assert_safe_page((tmp_path / f"{name}.html").read_text(encoding="utf-8"), chart,
                          "page")
        chart.save(tmp_path / f"{name}.htm")
        _assert_safe_page((tmp_path / f"{name}.htm").read_text(encoding="utf-8"), chart,
                          "page")
        buffer = io.StringIO()
        chart.save(buffer, format="html", json_kwds={"ensure_ascii": False},
                   embed_options={"renderer": "svg"})
        _assert_safe_page(buffer.getvalue(), chart, "page")
        assert '"renderer": "svg"' in buffer.getvalue()


def test_page_escapes_its_title_and_embeds_each_chart_once():
    spec = {"mark": "point", "data": {"values": [{"x": h} for h in HOSTILE]},
            "encoding": {"x": {"field": "x", "type": "nominal"}}}
    out = iaa_html.page(HOSTILE[0], '<div id="a"></div><div id="b"></div>', {"a": spec, "b": spec})
    assert f"<title>{text(HOSTILE[0])}</title>" in out
    for h in MARKUP:
        assert h not in out
    specs = json.loads(_SPEC["page"].search(out).group(1))
    assert specs == {"a": spec, "b": spec}  # the labels kept exactly
    assert out.count(vega_script()) == 1
    # the menu of each chart offers no action that would send the data to a web site
    assert '"editor": false' in out and '"source": false' in out


def test_vega_script_is_the_bundle_and_refuses_what_cannot_be_inlined(tmp_path,
                                                                       monkeypatch):
    assert "iaaVega" in vega_script() and "</script" not in vega_script().lower()
    (tmp_path / "static").mkdir()
    monkeypatch.setattr(iaa_html.resources, "files", lambda package: tmp_path)
    try:
        iaa_html.static_script.cache_clear()
        with pytest.raises(iaa.AgreementError, match="npm run build"):
            vega_script()
        (tmp_path / "static" / "embed.js").write_text("var s = '</SCRIPT>';")
        iaa_html.static_script.cache_clear()
        with pytest.raises(iaa.AgreementError, match="cannot be inlined"):
            vega_script()
    finally:
        iaa_html.static_script.cache_clear()


@pytest.mark.parametrize("renderer", ["html", "default", "colab", "kaggle", "zeppelin",
                                      "olli"])
def test_html_renderers_are_script_safe(every_chart, renderer):
    chart = every_chart["pairwise"]
    with alt.renderers.enable(renderer):
        page = chart._repr_mimebundle_()["text/html"]
    for h in MARKUP:
        assert h not in page
    assert "\\u003c/script\\u003e\\u003cscript\\u003ewindow.__pwned=1" in page


def test_html_renderer_keeps_its_own_options(every_chart):
    with alt.renderers.enable("html", embed_options={"actions": False},
                              json_kwds={"indent": 3}):
        page = every_chart["per_category"]._repr_mimebundle_()["text/html"]
    assert '"actions": false' in page and '\n   "' in page
    assert HOSTILE[1] not in page and "\\u003cimg src=x" in page


def test_spec_renderers_are_left_as_they_are(every_chart):
    chart = every_chart["pairwise"]
    with alt.renderers.enable("mimetype"):
        bundle = chart._repr_mimebundle_()
    spec = next(v for k, v in bundle[0].items() if "vegalite" in k)
    assert spec == chart.to_dict(context={"pre_transform": False})


def test_derived_charts_stay_safe_and_altair_is_not_patched(every_chart):
    chart = every_chart["per_category"]
    for derived in (chart.properties(width=99), chart + chart, chart | chart, chart & chart):
        _assert_safe_page(derived.to_html(), derived)
    # a chart made by Altair alone is untouched: Altair's own escaping (none) applies
    plain = alt.Chart(pd.DataFrame({"x": [HOSTILE[0]]})).mark_point().encode(x="x:N")
    assert HOSTILE[0] in plain.to_html()
    assert script_safe(plain) is plain and HOSTILE[0] not in plain.to_html()


# ------------------------------------------------------------------ _repr_html_
class _Page(HTMLParser):
    """The tags, attributes and text of an HTML fragment."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.text = set(), set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)

    def handle_data(self, data):
        self.text.append(data)


def _assert_safe_fragment(fragment: str, shown=()) -> None:
    page = _Page()
    page.feed(fragment)
    page.close()
    assert page.tags <= {"table", "thead", "tbody", "tr", "th", "td", "p", "details",
                         "summary", "div", "span", "style", "b", "br", "small", "caption"},\
        page.tags
    assert not any(a.startswith("on") for a in page.attrs) and "src" not in page.attrs
    text_ = "".join(page.text)
    for label in shown:  # each label is there, as text
        assert label in text_, label


def test_every_result_repr_html_escapes_labels(hostile_long, hostile_ranked, hostile_units):
    ann = iaa.Annotations.from_long(hostile_long)
    short = [h for h in HOSTILE if len(h) < 50]
    categories = [c for c in ann.categories if c in short]
    annotators = [a for a in ann.annotators if a in short]
    fleiss = iaa.fleiss_kappa(ann)
    _assert_safe_fragment(fleiss._repr_html_(), categories)
    _assert_safe_fragment(iaa.specific_agreement(ann, positive=HOSTILE[1])._repr_html_(),
                          categories)
    _assert_safe_fragment(iaa.pairwise(ann, "cohen_kappa")._repr_html_(), annotators)
    _assert_safe_fragment(iaa.sparse_agreement(hostile_long)._repr_html_())
    _assert_safe_fragment(iaa.bootstrap(ann, "fleiss_kappa", n_resamples=20, seed=0)
                          ._repr_html_())
    aug = iaa.augmented_kappa(hostile_ranked, rank="rank")
    _assert_safe_fragment(aug._repr_html_())
    _assert_safe_fragment(iaa.augmented_kappa_sweep(hostile_ranked, rank="rank")._repr_html_())
    family = iaa.gamma_family(hostile_units, n_samples=4, seed=0)
    units = iaa.Continuum.from_frame(hostile_units)
    cats = [c for c in units.categories if c in short]
    for r in (family, family.gamma, family.gamma_k):
        _assert_safe_fragment(r._repr_html_())
    _assert_safe_fragment(family.gamma_k._repr_html_(), cats)
    # a note, a measure name and an excluded reason are text too
    note = iaa.AgreementResult(HOSTILE[0], 0.5, 0.7, 0.4, 10, 2, 20, note=HOSTILE[1],
                               excluded={HOSTILE[8]: 2},
                               per_category=pd.DataFrame({HOSTILE[3]: [0.5]},
                                                         index=[HOSTILE[2]]))
    _assert_safe_fragment(note._repr_html_(), [HOSTILE[0], HOSTILE[1], HOSTILE[8],
                                               HOSTILE[3], HOSTILE[2]])


# ------------------------------------------------------------------ pairwise(...).chart()
def test_pairwise_result_is_a_dataframe_with_a_heatmap():
    # Datasaur's labeler/reviewer example: α = 0.56 for the pair (Datasaur's note, Table 1)
    from iaa_widgets.datasets import datasaur_spans
    m = iaa.pairwise(datasaur_spans(), "krippendorff_alpha")
    assert isinstance(m, pd.DataFrame) and type(m.round(3)) is pd.DataFrame
    rows = next(iter(m.chart().to_dict()["datasets"].values()))
    cells = {(r["row"], r["col"]): r for r in rows}
    a, b = (str(x) for x in m.index)
    assert cells[(a, b)]["value"] == pytest.approx(0.56, abs=0.005) == cells[(b, a)]["value"]
    assert cells[(a, a)]["value"] is None and cells[(a, a)]["label"] == "NaN"
    assert cells[(a, b)]["n_items"] == m.attrs["n_items"][0][1]
    assert charts.chart_for(m).to_dict() == m.chart().to_dict()
