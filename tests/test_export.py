"""widget.to_html(): one self-contained page per widget in its current state (issue 16,
Export). Checked without a browser: the page's elements (no external script, style,
image or frame; a Content Security Policy that refuses the network), the saved state
(equal to the widget's synced traitlets after a change made in Python, labels kept
exactly), escaping of a hostile label, and the refusals of a missing or uninlinable
bundle. The page is opened in Chromium by tests/browser/test_export_browser.py."""
from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser

import anywidget
import pytest

import iaa_widgets as iaa
from iaa_widgets import AgreementError, Annotations
from iaa_widgets.continuum import random_continuum
from iaa_widgets.datasets import crowd_labels, email_types
from iaa_widgets import widgets
from iaa_widgets import html as iaa_html
from iaa_widgets.widgets.export import standalone_script, widget_page, widget_state

HOSTILE = "</script><img src=x onerror=alert(1)>"
STATE = re.compile(r'<script type="application/json" id="iaa-state">(.*?)</script>', re.S)


class _Elements(HTMLParser):
    """Every start tag of a document with its attributes (script and style contents
    are text to the parser, as to a browser)."""

    def __init__(self, document: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.feed(document)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def named(self, tag: str) -> list[dict]:
        return [attrs for t, attrs in self.tags if t == tag]


def _state(document: str) -> dict:
    def no_constant(name):  # NaN/Infinity are not JSON: the page's JSON.parse would fail
        raise AssertionError(f"{name} in the saved state")
    return json.loads(STATE.search(document).group(1), parse_constant=no_constant)


# each widget made small, then changed from Python the way a reader would in a notebook
def _contingency():
    w = iaa.ContingencyMatrix([[3, 1], [2, 4]], categories=[HOSTILE, "ok"], editable=True)
    w.matrix = [[5, 1], [2, 4]]
    return w, "matrix", [[5, 1], [2, 4]]


def _sweep():
    w = iaa.AugmentedKappaSweep(Annotations.from_long(email_types(), rank="rank"))
    w.p = 0.8
    return w, "p", 0.8


def _sparse():
    w = iaa.SparseAgreementExplorer(crowd_labels(n_items=200, seed=3), drop=0.1, n_rounds=20,
                                    seed=2, n_points=3)
    w.drop = 0.45
    return w, "drop", 0.45


def _gamma():
    w = iaa.GammaExplorer(random_continuum(3, 8, seed=4), n_samples=4, seed=2)
    w.alpha = 2.0  # starts a computation in the worker: to_html waits for it
    return w, "alpha", 2.0


def _paradox():
    w = iaa.ParadoxExplorer(observed=1.0, prevalence=0.5, categories=[HOSTILE, "ok"])
    w.prevalence = 1.0  # every rating in one category: π, κ and α NaN, saved as null
    return w, "prevalence", 1.0


MAKERS = {"ContingencyMatrix": _contingency, "AugmentedKappaSweep": _sweep,
          "SparseAgreementExplorer": _sparse, "GammaExplorer": _gamma,
          "ParadoxExplorer": _paradox}


@pytest.fixture(scope="module", params=list(MAKERS))
def changed(request):
    w, name, value = MAKERS[request.param]()
    yield w, name, value
    w.close()


def test_every_widget_class_is_covered():
    assert set(MAKERS) == set(widgets.__all__)


def test_page_is_self_contained(changed):
    w, _, _ = changed
    document = w.to_html()
    assert document.startswith("<!DOCTYPE html>")
    elements = _Elements(document)
    scripts = elements.named("script")
    # the state and the precomputed states (data), the bundle, the call that mounts
    # them: all inline
    assert len(scripts) == 4 and not any("src" in s for s in scripts)
    assert scripts[0] == {"type": "application/json", "id": "iaa-state"}
    assert scripts[1] == {"type": "application/json", "id": "iaa-states"}
    assert not elements.named("link") and not elements.named("img")
    assert not elements.named("iframe") and not elements.named("base")
    assert document.count(standalone_script()) == 1
    assert "iaaStandalone.mount(" in document
    assert len(elements.named("style")) == 1 and ".iaa-widget{" in document  # widgets.css
    # the browser refuses every request the page could make (connect, fetch, images …)
    csp = elements.named("meta")[1]
    assert csp["http-equiv"] == "Content-Security-Policy"
    assert csp["content"].startswith("default-src 'none';")
    assert "connect-src" not in csp["content"]  # so default-src 'none' governs it
    assert f"<title>{type(w).__name__}</title>" in document


def test_page_holds_the_current_state(changed):
    w, name, value = changed
    state = _state(w.to_html())
    assert state == widget_state(w)
    assert state[name] == value  # the change made in Python, not the constructor's value
    assert state["_kind"] == w._kind and state["_specs"] and state["_datasets"]
    # anywidget's own plumbing stays out: the page brings its own script and style
    assert not {"_esm", "_css", "_anywidget_id", "layout", "_model_name"} & set(state)


def test_gamma_page_has_the_result_of_the_changed_parameters():
    w, _, _ = _gamma()
    try:
        state = _state(w.to_html())
        assert state["status"]["state"] == "done"
        # the γ shown is the one computed with α = 2 (gamma_family with the same
        # parameters, seed and sampler: the widget's own numbers are checked against it
        # in tests/test_widget_gamma.py)
        assert state["summary"]["params"]["alpha"] == 2.0
        assert state["summary"]["gamma"] == pytest.approx(w.result.gamma.value, abs=0)
    finally:
        w.close()


def test_hostile_label_is_data_not_markup():
    w, _, _ = _contingency()
    document = w.to_html()
    assert HOSTILE not in document  # "<" is \u003c inside the JSON block
    # (the bundle's tooltip code writes "<img" in a string: looked for outside it)
    assert "<img" not in document.replace(standalone_script(), "").lower()
    state = _state(document)
    assert state["categories"][0] == HOSTILE  # the label itself, exactly
    assert not _Elements(document).named("img")
    doc = w.to_html(title=HOSTILE)
    assert "<title>&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</title>" in doc


def test_nan_is_saved_as_null():
    w = iaa.ContingencyMatrix([[5, 0], [0, 0]], categories=["x", "y"])  # κ is NaN here
    kappa = next(r for r in _state(w.to_html())["coefficients"] if r["key"] == "cohen_kappa")
    assert kappa["value"] is None  # as Jupyter's messages carry NaN


def test_to_html_writes_a_path_or_a_file(tmp_path):
    w, _, _ = _contingency()
    assert w.to_html(tmp_path / "x.html") is None
    written = (tmp_path / "x.html").read_text(encoding="utf-8")
    assert _state(written) == widget_state(w)
    buffer = io.StringIO()
    assert w.to_html(buffer) is None
    assert _state(buffer.getvalue()) == widget_state(w)


def test_widget_state_is_the_synced_traitlets_of_the_widget_classes():
    w, _, _ = _contingency()
    plumbing = set(anywidget.AnyWidget.class_trait_names(sync=True))
    assert set(widget_state(w)) == set(w.trait_names(sync=True)) - plumbing - {
        "_esm", "_css", "_anywidget_id", "_bundle", "_bundle_id"}  # the page has its own
    assert "error_traceback" not in widget_state(w)  # not synced: Python-side only


def test_missing_or_uninlinable_bundle_is_refused(tmp_path, monkeypatch):
    assert "iaaStandalone" in standalone_script()
    (tmp_path / "static").mkdir()
    monkeypatch.setattr(iaa_html.resources, "files", lambda package: tmp_path)
    try:
        iaa_html.static_script.cache_clear()
        with pytest.raises(AgreementError, match="npm run build"):
            standalone_script()
        (tmp_path / "static" / "standalone.js").write_text("var s = '</SCRIPT>';")
        iaa_html.static_script.cache_clear()
        with pytest.raises(AgreementError, match="cannot be inlined"):
            standalone_script()
        (tmp_path / "static" / "standalone.js").write_text("var s = 1;")
        (tmp_path / "static" / "widgets.css").write_text("a{} </style><script>")
        iaa_html.static_script.cache_clear()
        w, _, _ = _contingency()
        with pytest.raises(AgreementError, match="widgets.css"):
            widget_page(w)
    finally:
        iaa_html.static_script.cache_clear()


def test_result_chart_save_inlines_vega(tmp_path):
    # issue 16: result.chart().save("x.html") inlines its scripts by default (no CDN)
    result = iaa.cohen_kappa(Annotations.from_contingency([[3, 1], [2, 4]], [HOSTILE, "ok"]))
    result.chart().save(tmp_path / "x.html")
    elements = _Elements((tmp_path / "x.html").read_text(encoding="utf-8"))
    assert elements.named("script") and not any("src" in s for s in elements.named("script"))
    assert not elements.named("link") and not elements.named("img")


def test_wrongly_typed_arguments_are_named():
    w, _, _ = _contingency()
    with pytest.raises(AgreementError, match=r"to_html: path must be a file path.*got 123"):
        w.to_html(123)
    for timeout in ("5", -1):
        with pytest.raises(AgreementError, match="to_html: timeout must be"):
            w.to_html(timeout=timeout)
