"""Altair charts of results, usable without a kernel (``chart.save("x.html")``).

Every result type has one builder, registered with :func:`register` and reached
through :func:`chart_for` (``result.chart()`` calls it). Builders that a widget also
uses take their data as a DataFrame or as ``alt.NamedData(name)``: a widget sends
the spec once and the rows of each named dataset through a traitlet.
"""
from __future__ import annotations

import functools
import math
from importlib import import_module
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from .errors import AgreementError
from .html import script_safe
from .measures.augmented import AugmentedSweepResult
from .inference.bootstrap import BootstrapResult
from .results import AgreementResult, PairwiseMatrix, interval_text

__all__ = ["register", "chart_for", "agreement_chart", "per_category_chart",
           "contingency_rows", "contingency_heatmap", "sweep_curve_rows", "sweep_point_rows",
           "sweep_item_rows", "sweep_curve_chart", "pairwise_rows", "pairwise_chart",
           "SPA_SCHEME_LABELS", "spa_round_rows",
           "spa_summary_rows", "spa_schemes_chart", "spa_weight_rows", "spa_weights_chart",
           "spa_variance_rows", "spa_variance_chart", "gamma_unit_rows", "gamma_link_rows",
           "gamma_empty_rows", "gamma_continuum_chart", "gamma_bar_rows", "gamma_bars_chart",
           "sweep_chart", "spa_missingness_chart", "gamma_family_chart", "gamma_k_chart",
           "bootstrap_chart", "coefficients_chart", "item_agreement_rows",
           "item_agreement_chart"]


class _Altair:
    """altair, imported on first use: its import (1.1 s, issue 43 §3) stays off the path
    of a widget's first paint, which needs the rows of its charts but not their specs."""

    def __getattr__(self, name: str):
        return getattr(import_module("altair"), name)


alt = _Altair()

# a result type, or its "module.Class" name -> its builder
_BUILDERS: dict[type | str, Callable[..., alt.TopLevelMixin]] = {}
_GAMMA = "iaa_widgets.measures.continuum.gamma.coefficients"
_SPA_MISSING = "iaa_widgets.measures.sparse.missing"  # (it imports scipy.special: 0.3–1.2 s)


def _dotted(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def register(result_type: type | str):
    """Decorator: ``@register(SomeResult)`` makes a builder ``f(result, **options)``
    the chart of that result type (and of its subclasses without their own). The type
    may be given by its dotted name ("module.Class"), so that its module is not imported
    with the charts (a widget's first paint loads only what it needs)."""
    def decorate(builder):
        _BUILDERS[result_type] = builder
        return builder
    return decorate


def _builder(result_type: type) -> Callable[..., alt.TopLevelMixin] | None:
    """The builder registered for ``result_type`` or the nearest of its bases, or None."""
    for cls in result_type.__mro__:
        builder = _BUILDERS.get(cls) or _BUILDERS.get(_dotted(cls))
        if builder is not None:
            return builder
    return None


def chart_for(result, **options) -> alt.TopLevelMixin:
    """The chart of ``result``, made by the builder registered for its type."""
    builder = _builder(type(result))
    if builder is not None:
        return script_safe(builder(result, **options))
    known = sorted(k.rpartition(".")[2] if isinstance(k, str) else k.__name__ for k in _BUILDERS)
    raise AgreementError(f"no chart for {type(result).__name__}; charts exist for {known}")


def _html_safe(builder):
    """Decorator: the builder's chart embeds its spec script-safely in any HTML page
    (``to_html``, ``save("x.html")``, the HTML renderers; see :mod:`iaa_widgets.html`)."""
    @functools.wraps(builder)
    def build(*args, **kwargs):
        return script_safe(builder(*args, **kwargs))
    return build


def _finite(x) -> float | None:
    return None if x is None or not math.isfinite(float(x)) else float(x)


@register(AgreementResult)
@_html_safe
def agreement_chart(result: AgreementResult, *, width: int = 320) -> alt.Chart:
    """Bars from 0 to the observed and expected (dis)agreement and to the coefficient,
    and a floating bar for the confidence interval when the result has one."""
    o, e = ("observed A_o", "expected A_e") if result.scale == "agreement" else \
        ("observed D_o", "expected D_e")
    rows = [(o, 0.0, result.observed, "component"), (e, 0.0, result.expected, "component"),
            (result.measure, 0.0, result.value, "coefficient")]
    notes = [f"interval: {result.ci_method}"] if result.ci is not None and \
        result.ci_method else []
    if result.ci is not None:  # its method in the subtitle: an axis label would be cut
        rows.append(("interval", *result.ci, "interval"))  # cut to the range by the result
        notes += [f"interval cut to the coefficient's range (it was "
                  f"{interval_text(result.ci_uncut)})"] if result.ci_uncut else []
    df = pd.DataFrame([{"quantity": q, "start": _finite(s), "end": _finite(t), "kind": k}
                       for q, s, t, k in rows])
    title = f"{result.measure} = {result.value:.4f}" if _finite(result.value) is not None \
        else f"{result.measure} = NaN"
    if notes:
        title = alt.Title(title, subtitle=notes)
    return alt.Chart(df, title=title, width=width).mark_bar().encode(
        y=alt.Y("quantity:N", sort=[r[0] for r in rows], title=None,
                axis=alt.Axis(labelLimit=240)),
        x=alt.X("start:Q", title=None),
        x2="end:Q",
        color=alt.Color("kind:N", title=None,
                        scale=alt.Scale(domain=["component", "coefficient", "interval"])),
        tooltip=["quantity:N", alt.Tooltip("start:Q", format=".4f"),
                 alt.Tooltip("end:Q", format=".4f")],
    )


@_html_safe
def per_category_chart(result: AgreementResult, column: str | None = None, *,
                       width: int = 320) -> alt.Chart:
    """One bar per category from ``result.per_category``: ``column``, by default the
    column named after the measure, else the last numeric one."""
    table = result.per_category
    if table is None or table.empty:
        raise AgreementError(f"{result.measure} has no per-category breakdown")
    numeric = [c for c in table.columns if pd.api.types.is_numeric_dtype(table[c])]
    if column is None:  # the measure's own column, else the last numeric one
        column = result.measure if result.measure in numeric else \
            (numeric[-1] if numeric else None)
    if column not in table.columns:
        raise AgreementError(f"column {column!r} not in the per-category table; it has "
                             f"{list(table.columns)!r}")
    df = pd.DataFrame({"category": [str(c) for c in table.index],
                       "value": table[column].astype(float).to_numpy()})
    return alt.Chart(df, title=f"{result.measure}: {column}", width=width).mark_bar().encode(
        y=alt.Y("category:N", sort=list(df["category"]), title=None),
        x=alt.X("value:Q", title=str(column)),
        tooltip=["category:N", alt.Tooltip("value:Q", format=".4f")],
    )


# ------------------------------------------------------------------ contingency table
def _margin_label(labels: Sequence[str]) -> str:
    total = "Σ"
    while total in labels:  # a category may itself be called Σ
        total += "\u200b"
    return total


def contingency_rows(matrix, categories: Sequence) -> pd.DataFrame:
    """The cells of a K × K contingency table plus its marginals, one row per cell:
    ``i``, ``j`` (indices, K for a marginal), ``row``, ``col`` (labels as text),
    ``count``, ``share`` (count / largest inner count), ``kind`` (cell, margin, total)
    and ``diag`` (on the diagonal: the two annotators agree)."""
    m = np.asarray(matrix, dtype=np.int64)
    k = m.shape[0]
    labels = [str(c) for c in categories]
    total = _margin_label(labels)
    full = np.zeros((k + 1, k + 1), dtype=np.int64)
    full[:k, :k] = m
    full[:k, k] = m.sum(axis=1)  # row marginals: first annotator's category counts
    full[k, :k] = m.sum(axis=0)  # column marginals: second annotator's
    full[k, k] = m.sum()
    i, j = np.divmod(np.arange((k + 1) ** 2), k + 1)
    names = np.array(labels + [total], dtype=object)
    inner = (i < k) & (j < k)
    kind = np.where(inner, "cell", np.where((i == k) & (j == k), "total", "margin"))
    peak = max(int(m.max()), 1)
    return pd.DataFrame({"i": i, "j": j, "row": names[i], "col": names[j],
                         "count": full.ravel(), "share": np.where(inner, full.ravel() / peak, 0.0),
                         "kind": kind, "diag": inner & (i == j)})


@_html_safe
def contingency_heatmap(cells, *, row_title: str = "first annotator",
                        col_title: str = "second annotator", cell_size: int = 30) -> alt.LayerChart:
    """Heatmap of :func:`contingency_rows` (a DataFrame, or ``alt.NamedData`` for a
    widget): counts coloured, marginals in the last row and column, the diagonal
    outlined. A ``dark`` parameter flips the count labels' colour for dark themes."""
    dark = alt.param(name="dark", value=False)
    base = alt.Chart(cells).encode(
        x=alt.X("col:N", sort=alt.EncodingSortField("j"), title=col_title,
                axis=alt.Axis(orient="top", labelAngle=-45, labelLimit=120)),
        y=alt.Y("row:N", sort=alt.EncodingSortField("i"), title=row_title,
                axis=alt.Axis(labelLimit=120)),
    ).properties(width=alt.Step(cell_size), height=alt.Step(cell_size))
    tooltip = [alt.Tooltip("row:N", title="row"), alt.Tooltip("col:N", title="column"),
               alt.Tooltip("count:Q", title="count")]
    inner = base.transform_filter("datum.kind === 'cell'")
    heat = inner.mark_rect().encode(
        color=alt.Color("count:Q", title="count", legend=None), tooltip=tooltip)
    margin = base.transform_filter("datum.kind !== 'cell'").mark_rect(
        opacity=0.12, color="gray").encode(tooltip=tooltip)
    diagonal = base.transform_filter("datum.diag").mark_rect(
        filled=False, stroke="#e6550d", strokeWidth=2.5)
    counts = inner.mark_text(fontSize=11).encode(
        text="count:Q",
        color=alt.condition("(datum.share > 0.5) !== dark", alt.value("white"),
                            alt.value("black")), tooltip=tooltip)
    totals = base.transform_filter("datum.kind !== 'cell'").mark_text(
        fontSize=11, fontWeight="bold").encode(text="count:Q", tooltip=tooltip)
    return alt.layer(heat, margin, diagonal, counts, totals).add_params(dark)


# ------------------------------------------------------------------ pairwise matrix
def pairwise_rows(matrix: pd.DataFrame) -> pd.DataFrame:
    """The cells of an annotator × annotator table (``pairwise``), one row per cell:
    ``i``, ``j`` (positions), ``row``, ``col`` (annotators as text), ``value`` (None
    where undefined), ``n_items`` (items the pair shares, when ``attrs`` has them) and
    ``label`` (the value as text, "NaN" where undefined)."""
    n = len(matrix.index)
    i, j = np.divmod(np.arange(n * n), n)
    v = matrix.to_numpy(dtype=float).ravel()
    shared = matrix.attrs.get("n_items")
    names = np.array([str(a) for a in matrix.index], dtype=object)
    cols = np.array([str(a) for a in matrix.columns], dtype=object)
    return pd.DataFrame({"i": i, "j": j, "row": names[i], "col": cols[j],
                         "value": [_finite(x) for x in v],
                         "n_items": np.asarray(shared).ravel() if shared is not None else None,
                         "label": [f"{x:.3f}" if math.isfinite(x) else "NaN" for x in v]})


@register(PairwiseMatrix)
@_html_safe
def pairwise_chart(matrix: pd.DataFrame, *, cell_size: int = 44) -> alt.LayerChart:
    """Heatmap of an annotator × annotator table (``iaa.pairwise(...)``): each pair's
    value as colour and text; undefined cells (the diagonal by default) in grey."""
    cells = pairwise_rows(matrix)
    measure = str(matrix.attrs.get("measure", "value"))
    order = list(cells["row"][cells["j"] == 0])
    base = alt.Chart(cells, title=f"{measure}, annotator × annotator").encode(
        x=alt.X("col:N", sort=order, title=None,
                axis=alt.Axis(orient="top", labelAngle=-45, labelLimit=120)),
        y=alt.Y("row:N", sort=order, title=None, axis=alt.Axis(labelLimit=120)),
        tooltip=[alt.Tooltip("row:N", title="annotator"), alt.Tooltip("col:N", title="with"),
                 alt.Tooltip("value:Q", title=measure, format=".4f"),
                 alt.Tooltip("n_items:Q", title="items in common")],
    ).properties(width=alt.Step(cell_size), height=alt.Step(cell_size))
    empty = base.mark_rect(color="gray", opacity=0.12)
    heat = base.transform_filter("isValid(datum.value)").mark_rect().encode(
        color=alt.Color("value:Q", title=measure, scale=alt.Scale(domain=[-1, 1],
                                                                  scheme="blueorange")))
    text = base.mark_text(fontSize=11).encode(text="label:N")
    return alt.layer(empty, heat, text)


# ------------------------------------------------------------------ augmented κ′ sweep
SWEEP_QUANTITIES = ("κ′", "p(A)", "p(E)", "κ_x of an item")


def sweep_curve_rows(curve: pd.DataFrame) -> pd.DataFrame:
    """The sweep's curve (p, kappa, p_a, p_e) in long form: p, quantity, value."""
    long = curve.melt(id_vars="p", value_vars=["kappa", "p_a", "p_e"],
                      var_name="quantity", value_name="value")
    long["quantity"] = long["quantity"].map(dict(zip(["kappa", "p_a", "p_e"],
                                                     SWEEP_QUANTITIES)))
    return long


def sweep_point_rows(result: AgreementResult) -> pd.DataFrame:
    """κ′, p(A) and p(E) at the result's p, with a text label for each."""
    p = result.params["p"]
    values = (result.value, result.observed, result.expected)
    return pd.DataFrame({"p": p, "quantity": list(SWEEP_QUANTITIES[:3]),
                         "value": [_finite(v) for v in values],
                         "label": [f"{q} = {v:.3f}" if _finite(v) is not None else f"{q}: NaN"
                                   for q, v in zip(SWEEP_QUANTITIES, values)]})


def sweep_item_rows(item_curves: pd.DataFrame) -> pd.DataFrame:
    """Items × p curves (``AugmentedSweepResult.item_curves``) in long form: item (as
    text), p, quantity, value."""
    long = item_curves.stack().rename("value").reset_index()
    long["item"] = long["item"].astype(str)
    long["quantity"] = SWEEP_QUANTITIES[3]
    return long


@_html_safe
def sweep_curve_chart(curve, point, items=None, *, width: int = 440,
                      height: int = 260) -> alt.LayerChart:
    """κ′, p(A) and p(E) over 0.5 ≤ p ≤ 1 (rows of :func:`sweep_curve_rows`), a rule
    and labelled points at the current p (:func:`sweep_point_rows`) and dashed
    per-item κ_x curves (:func:`sweep_item_rows`). Each data argument is a DataFrame
    or ``alt.NamedData`` (widget)."""
    color = alt.Color("quantity:N", title=None, scale=alt.Scale(domain=list(SWEEP_QUANTITIES)),
                      legend=alt.Legend(orient="bottom"))
    x = alt.X("p:Q", scale=alt.Scale(domain=[0.5, 1.0]), title="p (weight of a primary label)")
    y = alt.Y("value:Q", title=None, scale=alt.Scale(zero=False))
    tip = [alt.Tooltip("quantity:N"), alt.Tooltip("p:Q", format=".3f"),
           alt.Tooltip("value:Q", format=".4f")]
    lines = alt.Chart(curve, name="curve").mark_line().encode(x, y, color, tooltip=tip)
    layers = [lines]
    if items is not None:
        layers.append(alt.Chart(items, name="item_curves").mark_line(
            strokeDash=[4, 3], strokeWidth=1.2, opacity=0.8).encode(
            x, y, color, detail="item:N", tooltip=[alt.Tooltip("item:N"), *tip[1:]]))
    rule = alt.Chart(point, name="rule").transform_filter(
        f"datum.quantity === '{SWEEP_QUANTITIES[0]}'").mark_rule(strokeDash=[2, 2]).encode(
        x=alt.X("p:Q"))
    dots = alt.Chart(point, name="points").mark_point(filled=True, size=50).encode(
        x, y, color, tooltip=tip)
    labels = alt.Chart(point, name="labels").mark_text(align="left", dx=7, dy=-7).encode(
        x, y, text="label:N")
    return alt.layer(*layers, rule, dots, labels).properties(width=width, height=height)


@register(AugmentedSweepResult)
@_html_safe
def sweep_chart(result: AugmentedSweepResult, p: float = 0.6, items=(), *,
                width: int = 440, height: int = 260) -> alt.LayerChart:
    """The sweep's κ′, p(A) and p(E) over p with the rule at ``p`` and the κ_x curves
    of ``items`` (names from ``result.items``)."""
    items = list(items)
    curves = sweep_item_rows(result.item_curves(items)) if items else None
    return sweep_curve_chart(sweep_curve_rows(result.curve), sweep_point_rows(result.at(p)),
                             curves, width=width, height=height)


# ------------------------------------------------------------------ sparse agreement
SPA_SCHEME_LABELS = {"flat": "flat (k = 1)", "annotations": "annotations (k = n)",
                     "annotations_m1": "annotations − 1 (k = n − 1)",
                     "edges": "edges (k = n(n − 1)/2)",
                     "inv_var": "inverse variance, uniform",
                     "inv_var_class": "inverse variance, class shares"}


def _scheme_label(scheme: str) -> str:
    return SPA_SCHEME_LABELS.get(scheme, str(scheme))


def _scheme_order() -> list[str]:
    return list(SPA_SCHEME_LABELS.values())


def _scheme_dash() -> alt.StrokeDash:
    """Inverse-variance schemes dashed: under uniform labels "inv_var" equals "edges"
    (k ∝ n(n − 1)), and a solid line would hide the other one."""
    order = _scheme_order()
    return alt.StrokeDash("scheme:N", legend=None, scale=alt.Scale(
        domain=order, range=[[6, 3] if "inverse" in label else [1, 0] for label in order]))


def spa_round_rows(values: pd.DataFrame, bins: int = 40) -> pd.DataFrame:
    """How SPA spreads over rounds (``SpaMissingnessResult.values``): per scheme, the
    rounds counted in ``bins`` equal bins over the range of all schemes' rounds (one
    row per scheme and bin: scheme label, lo, hi, count, share of the scheme's rounds);
    rounds where SPA is undefined are not counted."""
    v = values.to_numpy(dtype=float)
    ok = np.isfinite(v)
    lo, hi = (float(v[ok].min()), float(v[ok].max())) if ok.any() else (0.0, 1.0)
    hi = hi if hi > lo else lo + 1e-9
    edges = np.linspace(lo, hi, bins + 1)
    which = np.clip(np.searchsorted(edges, np.where(ok, v, lo), side="right") - 1, 0, bins - 1)
    scheme = np.broadcast_to(np.arange(v.shape[1]), v.shape)
    counts = np.bincount((scheme * bins + which)[ok], minlength=v.shape[1] * bins)
    counts = counts.reshape(v.shape[1], bins)
    share = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    labels = [_scheme_label(s) for s in values.columns]
    return pd.DataFrame({"scheme": np.repeat(labels, bins), "lo": np.tile(edges[:-1], len(labels)),
                         "hi": np.tile(edges[1:], len(labels)), "count": counts.ravel(),
                         "share": share.ravel()})


def spa_summary_rows(table: pd.DataFrame) -> pd.DataFrame:
    """Per scheme (``SpaMissingnessResult.summary()``): full-data SPA, mean, sd and the
    2.5–97.5 % range over rounds, with a text label."""
    out = table.reset_index(names="key")
    out.insert(0, "scheme", out["key"].map(_scheme_label))
    out["label"] = [f"{f:.4f} · sd {s:.4f}" if np.isfinite(s) else f"{f:.4f}"
                    for f, s in zip(out["full"], out["sd"])]
    return out


@_html_safe
def spa_schemes_chart(rounds, summary, *, width: int = 300) -> alt.LayerChart:
    """SPA under each scheme side by side: a diamond at the full data's value, the
    rounds of random dropping as a strip of bins shaded by their share of rounds
    (:func:`spa_round_rows`), a rule over the 95 % range of the rounds and the values
    as text right of the plot."""
    y = alt.Y("scheme:N", sort=_scheme_order(), title=None, axis=alt.Axis(labelLimit=220))
    ticks = alt.Chart(rounds, name="rounds").mark_rect(height=16).encode(
        x=alt.X("lo:Q", title="SPA (eq. 7)", scale=alt.Scale(zero=False),
                axis=alt.Axis(tickCount=5, format=".3f")), x2="hi:Q", y=y,
        opacity=alt.Opacity("share:Q", legend=None, scale=alt.Scale(range=[0, 0.9])),
        tooltip=[alt.Tooltip("scheme:N"), alt.Tooltip("lo:Q", format=".4f"),
                 alt.Tooltip("hi:Q", format=".4f"), alt.Tooltip("count:Q", title="rounds")])
    interval = alt.Chart(summary, name="interval").mark_rule(strokeWidth=3).encode(
        x=alt.X("q025:Q"), x2="q975:Q", y=y,
        tooltip=[alt.Tooltip("scheme:N"), alt.Tooltip("mean:Q", format=".4f"),
                 alt.Tooltip("sd:Q", format=".5f"), alt.Tooltip("q025:Q", format=".4f"),
                 alt.Tooltip("q975:Q", format=".4f")])
    full = alt.Chart(summary, name="full").mark_point(
        shape="diamond", filled=True, size=90, color="#e6550d").encode(
        x=alt.X("full:Q"), y=y, tooltip=[alt.Tooltip("scheme:N"),
                                         alt.Tooltip("full:Q", format=".4f", title="full data")])
    # right of the plot, in a column: off the strips, which may reach the axis's end
    labels = alt.Chart(summary, name="labels").mark_text(align="left", dx=10).encode(
        x=alt.value(width), y=y, text="label:N")
    return alt.layer(ticks, interval, full, labels).properties(width=width,
                                                               height=alt.Step(26))


@register(f"{_SPA_MISSING}.SpaMissingnessResult")
@_html_safe
def spa_missingness_chart(result: SpaMissingnessResult, *, width: int = 300) -> alt.LayerChart:
    """SPA under each scheme on the full data and its spread over the rounds of
    :func:`~iaa_widgets.spa_missingness` (see :func:`spa_schemes_chart`)."""
    return spa_schemes_chart(spa_round_rows(result.values), spa_summary_rows(result.summary()),
                             width=width)


def spa_weight_rows(weights: pd.DataFrame) -> pd.DataFrame:
    """Normalised weight curves (``spa_weight_curves``) in long form: n, scheme, weight."""
    long = weights.reset_index().melt(id_vars=weights.index.name or "index",
                                      var_name="scheme", value_name="weight")
    long = long.rename(columns={weights.index.name or "index": "n"})
    long["scheme"] = long["scheme"].map(_scheme_label)
    return long


@_html_safe
def spa_weights_chart(weights, *, width: int = 300, height: int = 200) -> alt.Chart:
    """Figures 4–5: each scheme's weight of an item with n annotations, divided by
    the scheme's largest weight."""
    return alt.Chart(weights, name="weights", title="weights k(n) / max (Figures 4–5)").mark_line(
        point=True).encode(
        x=alt.X("n:Q", title="annotations on the item", axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("weight:Q", title="normalised weight"),
        color=alt.Color("scheme:N", sort=_scheme_order(), title=None,
                        legend=alt.Legend(orient="bottom", columns=2, labelLimit=220)),
        strokeDash=_scheme_dash(),
        tooltip=["scheme:N", "n:Q", alt.Tooltip("weight:Q", format=".4f")],
    ).properties(width=width, height=height)


def spa_variance_rows(curve: pd.DataFrame) -> pd.DataFrame:
    """``spa_variance_curve`` (random mode) rows with ``difference``: the variance of
    each scheme minus that of "flat" at the same fraction (Figure 7). The point with
    every annotation present (fraction 1, variance 0 up to rounding) is left out: it
    has no place on Figure 6's log scale."""
    out = curve.loc[curve["fraction"] < 1, ["scheme", "fraction", "n_usable", "variance",
                                              "mean", "n_rounds"]].copy()
    if "flat" in set(out["scheme"]):
        flat = out[out["scheme"] == "flat"].set_index("fraction")["variance"]
        out["difference"] = out["variance"].to_numpy() - flat.reindex(out["fraction"]).to_numpy()
    else:
        out["difference"] = np.nan
    out["scheme"] = out["scheme"].map(_scheme_label)
    return out


# a log axis labels only its powers of ten (1e-3, 1e-4, ...): labels at 2 and 5 times
# them crowd the axis with strings like 0.000002
_POWERS_OF_TEN = ("indexof(format(datum.value, '.0e'), '1e') === 0 ? "
                  "format(datum.value, '.0e') : ''")


@_html_safe
def spa_variance_chart(variance, drop=None, *, width: int = 300,
                       height: int = 200) -> alt.VConcatChart:
    """Figure 6 (variance of SPA against the mean number of usable annotations, log
    scale) above Figure 7 (variance minus that of "flat"): one above the other, each
    panel's line labels (the widget's) have room on its right in a notebook's width; a
    rule marks the current missingness (``drop`` rows: n_usable, label)."""
    color = alt.Color("scheme:N", sort=_scheme_order(), title=None, legend=None)
    x = alt.X("n_usable:Q", title="usable annotations")
    tip = ["scheme:N", alt.Tooltip("n_usable:Q", format=".0f"),
           alt.Tooltip("variance:Q", format=".3e"), alt.Tooltip("difference:Q", format=".3e")]
    fig6 = alt.Chart(variance, name="variance").mark_line().encode(
        x, alt.Y("variance:Q", scale=alt.Scale(type="log"), title="variance of SPA",
                 axis=alt.Axis(labelExpr=_POWERS_OF_TEN)),
        color, _scheme_dash(), tooltip=tip)
    fig7 = alt.Chart(variance, name="difference").mark_line().encode(
        x, alt.Y("difference:Q", title="variance − flat's"), color, _scheme_dash(),
        tooltip=tip)
    left, right = [fig6], [fig7]
    if drop is not None:
        rule = alt.Chart(drop, name="drop_rule").mark_rule(strokeDash=[3, 3]).encode(
            x=alt.X("n_usable:Q"), tooltip=["label:N"])
        left.append(rule)
        right.append(rule)
    return alt.vconcat(
        alt.layer(*left, title="Figure 6: variance").properties(width=width, height=height),
        alt.layer(*right, title="Figure 7: difference from flat").properties(
            width=width, height=height))


# ------------------------------------------------------------------ γ on a continuum
def gamma_unit_rows(continuum, alignment=None) -> pd.DataFrame:
    """One row per unit: unit, annotator and category (as text), start, end, and the
    unitary alignment holding it with that alignment's size (``alignment`` of
    ``GammaFamilyResult``; -1 and 0 without one)."""
    c = continuum
    group = np.full(c.n_units, -1, dtype=np.int64)
    size = np.zeros(c.n_units, dtype=np.int64)
    if alignment is not None:
        rows, cols = np.nonzero(alignment.members >= 0)
        units = alignment.members[rows, cols]
        group[units] = rows
        size[units] = (alignment.members >= 0).sum(axis=1)[rows]
    return pd.DataFrame({"unit": np.arange(c.n_units),
                         "annotator": c.annotators.take(c.annotator).astype(str),
                         "category": c.categories.take(c.category).astype(str),
                         "start": c.start, "end": c.end, "alignment": group,
                         "aligned_units": size})


def gamma_link_rows(alignment) -> pd.DataFrame:
    """Links of the best alignment: within each unitary alignment, its real units in
    annotator order joined from the middle of one to the middle of the next
    (x, annotator → x2, annotator_b), with the alignment's disorder."""
    c, members = alignment.continuum, alignment.members
    rows, cols = np.nonzero(members >= 0)              # row-major: by alignment, annotator
    same = rows[1:] == rows[:-1]
    a, b = members[rows[:-1][same], cols[:-1][same]], members[rows[1:][same], cols[1:][same]]
    mid = (c.start + c.end) / 2
    names = c.annotators.astype(str)
    return pd.DataFrame({"alignment": rows[1:][same], "x": mid[a],
                         "annotator": names.take(c.annotator[a]), "x2": mid[b],
                         "annotator_b": names.take(c.annotator[b]),
                         "disorder": alignment.disorders[rows[1:][same]]})


def gamma_empty_rows(alignment) -> pd.DataFrame:
    """Empty units of the best alignment: for each unitary alignment, a marker in the
    lane of every annotator without a unit there, at the mean middle of its real units."""
    c, members = alignment.continuum, alignment.members
    real = members >= 0
    mid = (c.start + c.end) / 2
    centre = np.where(real, mid[np.maximum(members, 0)], 0.0).sum(axis=1) / real.sum(axis=1)
    rows, cols = np.nonzero(~real)
    return pd.DataFrame({"alignment": rows, "x": centre[rows],
                         "annotator": c.annotators.astype(str).take(cols),
                         "disorder": alignment.disorders[rows]})


@_html_safe
def gamma_continuum_chart(units, links, empty, annotators: Sequence[str], *,
                          width: int = 640, lane: int = 34, domain=None) -> alt.LayerChart:
    """The continuum, one lane per annotator: units as bars coloured by category, the
    best alignment as links between aligned units and hollow markers for empty units.
    ``domain`` (first start, last end) fixes the x scale, by default from ``units``
    when they are rows: links and empty units lie within it, and may have no rows
    (before γ is computed), for which Vega would warn of an infinite extent."""
    if domain is None and isinstance(units, pd.DataFrame) and len(units):
        domain = (units["start"].min(), units["end"].max())
    y = alt.Y("annotator:N", sort=list(annotators), title=None,
              axis=alt.Axis(labelLimit=160), scale=alt.Scale(paddingInner=0.45))
    x = alt.X("start:Q", title="position on the continuum", scale=alt.Scale(
        zero=False, **({} if domain is None else {"domain": [float(v) for v in domain]})))
    bars = alt.Chart(units, name="units").mark_bar(cornerRadius=2).encode(
        x, x2="end:Q", y=y, color=alt.Color("category:N", title="category",
                                            legend=alt.Legend(orient="right", labelLimit=200)),
        tooltip=["annotator:N", "category:N", alt.Tooltip("start:Q", format=".2f"),
                 alt.Tooltip("end:Q", format=".2f"), alt.Tooltip("alignment:Q"),
                 alt.Tooltip("aligned_units:Q", title="units in its alignment")])
    link = alt.Chart(links, name="links").mark_rule(strokeWidth=1.2, opacity=0.7).encode(
        x=alt.X("x:Q"), x2="x2:Q", y=y, y2="annotator_b:N",
        tooltip=[alt.Tooltip("alignment:Q"), alt.Tooltip("disorder:Q", format=".3f")])
    hollow = alt.Chart(empty, name="empty").mark_point(shape="circle", filled=False,
                                                       size=40, strokeDash=[2, 2]).encode(
        x=alt.X("x:Q"), y=y, tooltip=[alt.Tooltip("alignment:Q"),
                                      alt.Tooltip("annotator:N", title="empty unit of"),
                                      alt.Tooltip("disorder:Q", format=".3f")])
    # no zoom (.interactive()): it clips the marks, and vega's SVG clip ids repeat across
    # the charts of one page, so a chart could be clipped by another chart's clip path
    return alt.layer(bars, link, hollow).properties(width=width, height=alt.Step(lane))


def gamma_bar_rows(result) -> pd.DataFrame:
    """γ, γ_cat and γ_k per category (``GammaFamilyResult``; γ_k only for a
    ``GammaKResult``) with their 95 % sampling intervals: name, kind, value, ci_low,
    ci_high, label."""
    from .measures.continuum.gamma.coefficients import GammaFamilyResult
    per = result.gamma_k.per_category if isinstance(result, GammaFamilyResult) else \
        result.per_category                                  # a GammaKResult alone
    rows = [] if not isinstance(result, GammaFamilyResult) else [
        ("γ", "γ", result.gamma.value, *(result.gamma.ci or (np.nan, np.nan))),
        ("γ_cat", "γ_cat", result.gamma_cat.value, *(result.gamma_cat.ci or (np.nan, np.nan)))]
    rows += [(f"γ_k: {k}", "γ_k", v, lo, hi) for k, v, lo, hi in
             zip(per.index.astype(str), per["value"], per["ci_low"], per["ci_high"])]
    df = pd.DataFrame(rows, columns=["name", "kind", "value", "ci_low", "ci_high"])
    df["label"] = [f"{v:.3f}" if np.isfinite(v) else "undefined" for v in df["value"]]
    for col in ("value", "ci_low", "ci_high"):
        df[col] = [_finite(v) for v in df[col]]
    return df


@_html_safe
def gamma_bars_chart(bars, names: Sequence[str], *, width: int = 300) -> alt.LayerChart:
    """A bar for γ, γ_cat and each category's γ_k, a rule over its 95 % sampling
    interval (expected disorder) and the value as text."""
    y = alt.Y("name:N", sort=list(names), title=None, axis=alt.Axis(labelLimit=200))
    x = alt.X("value:Q", title="agreement", scale=alt.Scale(domain=[-0.2, 1], clamp=True))
    tip = ["name:N", alt.Tooltip("value:Q", format=".4f"),
           alt.Tooltip("ci_low:Q", format=".4f", title="95 % low"),
           alt.Tooltip("ci_high:Q", format=".4f", title="95 % high")]
    bar = alt.Chart(bars, name="bars").mark_bar(opacity=0.8).encode(
        x, y, color=alt.Color("kind:N", legend=None,  # greys: the hues mean categories
                              scale=alt.Scale(domain=["γ", "γ_cat", "γ_k"],
                                              range=["#4d4d4d", "#7f7f7f", "#b0b0b0"])),
        tooltip=tip)
    interval = alt.Chart(bars, name="intervals").mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q"), x2="ci_high:Q", y=y, tooltip=tip)
    text = alt.Chart(bars, name="values").mark_text(align="left", dx=4).encode(
        x=alt.value(width + 4), y=y, text="label:N")
    return alt.layer(bar, interval, text).properties(width=width, height=alt.Step(24))


@register(f"{_GAMMA}.GammaKResult")
@_html_safe
def gamma_k_chart(result: GammaKResult, *, width: int = 300) -> alt.LayerChart:
    """A bar per category's γ_k with its 95 % sampling interval."""
    rows = gamma_bar_rows(result)
    return gamma_bars_chart(rows, list(rows["name"]), width=width)


@register(f"{_GAMMA}.GammaFamilyResult")
@_html_safe
def gamma_family_chart(result: GammaFamilyResult, *, width: int = 640) -> alt.VConcatChart:
    """The continuum with the best alignment (when the result carries it) above the
    bars of γ, γ_cat and γ_k with their sampling intervals."""
    rows = gamma_bar_rows(result)
    bars = gamma_bars_chart(rows, list(rows["name"]))
    a = result.alignment
    if a is None:
        return alt.vconcat(bars)
    lanes = gamma_continuum_chart(gamma_unit_rows(a.continuum, a), gamma_link_rows(a),
                                  gamma_empty_rows(a), [str(n) for n in a.continuum.annotators],
                                  width=width)
    return alt.vconcat(lanes, bars).resolve_scale(color="independent")


# ------------------------------------------------------------------ bootstrap
@register(BootstrapResult)
@_html_safe
def bootstrap_chart(result: BootstrapResult, *, bins: int = 40, width: int = 320,
                    thresholds=(0.667, 0.8)) -> alt.LayerChart:
    """The bootstrap distribution of the measure (replicates where it is defined), a
    band over the confidence interval, a rule at the estimate on the data and a dashed
    rule at each of ``thresholds`` (Krippendorff's α_min: 0.667 and 0.8), whose tooltip
    gives q(α_min), the share of replicates below it (:meth:`BootstrapResult.prob_below`)."""
    v = result.distribution
    if not len(v):
        raise AgreementError(f"{result.measure}: no bootstrap resample gave a defined value")
    counts, edges = np.histogram(v, bins=bins)
    hist = pd.DataFrame({"lo": edges[:-1], "hi": edges[1:], "count": counts})
    lo, hi = result.ci
    marks = pd.DataFrame({"estimate": [_finite(result.estimate)], "ci_low": [_finite(lo)],
                          "ci_high": [_finite(hi)]})
    x = alt.X("lo:Q", title=f"{result.measure} over {result.n_resamples} resamples "
              f"({result.kind})", scale=alt.Scale(zero=False))
    band = alt.Chart(marks, name="interval").mark_rect(opacity=0.15).encode(
        x=alt.X("ci_low:Q"), x2="ci_high:Q",
        tooltip=[alt.Tooltip("ci_low:Q", format=".4f", title=f"{result.level:.0%} low"),
                 alt.Tooltip("ci_high:Q", format=".4f", title=f"{result.level:.0%} high")])
    bars = alt.Chart(hist, name="resamples").mark_rect().encode(
        x, x2="hi:Q", y=alt.Y("count:Q", title="resamples"),
        tooltip=[alt.Tooltip("lo:Q", format=".4f"), alt.Tooltip("hi:Q", format=".4f"),
                 "count:Q"])
    rule = alt.Chart(marks, name="estimate").mark_rule(color="#e6550d", strokeWidth=2).encode(
        x=alt.X("estimate:Q"), tooltip=[alt.Tooltip("estimate:Q", format=".4f")])
    cuts = pd.DataFrame({"threshold": [float(t) for t in thresholds],
                         "q": [result.prob_below(t) for t in thresholds]})
    lines = alt.Chart(cuts, name="thresholds").mark_rule(
        color="#636363", strokeDash=[4, 3]).encode(
        x=alt.X("threshold:Q"),
        tooltip=[alt.Tooltip("threshold:Q", format=".3f", title="α_min"),
                 alt.Tooltip("q:Q", format=".3f", title="q(α_min): share below")])
    title = f"{result.measure} = {result.estimate:.4f}, {result.level:.0%} interval " \
        f"[{lo:.4f}, {hi:.4f}] ({result.method})"
    return alt.layer(band, bars, rule, lines, title=title).properties(width=width)


# ------------------------------------------------------------------ report overviews
@_html_safe
def coefficients_chart(table: pd.DataFrame, *, width: int = 420) -> alt.LayerChart:
    """Every coefficient of a report on one axis: a point at its value and a rule over
    each of its intervals. ``table``: one row per coefficient and interval kind, with
    ``coefficient`` (text), ``value``, ``low``, ``high`` (NaN: no interval) and
    ``interval`` (its kind, e.g. "analytic", "bootstrap")."""
    df = pd.DataFrame({"coefficient": table["coefficient"].astype(str),
                       "value": [_finite(v) for v in table["value"]],
                       "low": [_finite(v) for v in table["low"]],
                       "high": [_finite(v) for v in table["high"]],
                       "interval": table["interval"].astype(str)})
    order = list(dict.fromkeys(df["coefficient"]))
    y = alt.Y("coefficient:N", sort=order, title=None, axis=alt.Axis(labelLimit=260))
    offset = alt.YOffset("interval:N", title=None)
    color = alt.Color("interval:N", title="interval")
    tooltip = ["coefficient:N", "interval:N", alt.Tooltip("value:Q", format=".4f"),
               alt.Tooltip("low:Q", format=".4f"), alt.Tooltip("high:Q", format=".4f")]
    base = alt.Chart(df, width=width, height=alt.Step(14))
    rules = base.transform_filter("isValid(datum.low) && isValid(datum.high)").mark_rule(
        strokeWidth=2).encode(x=alt.X("low:Q", title="value and interval"), x2="high:Q",
                              y=y, yOffset=offset, color=color, tooltip=tooltip)
    points = base.transform_filter("isValid(datum.value)").mark_point(
        filled=True, size=50).encode(x="value:Q", y=y, yOffset=offset, color=color,
                                     tooltip=tooltip)
    return alt.layer(rules, points)


def item_agreement_rows(agreement, bins: int = 10) -> pd.DataFrame:
    """Per-item agreements (values in [0, 1], NaN for an item with fewer than two
    ratings) counted in ``bins`` equal bins over [0, 1] (the last closed): one row per
    bin with ``lo``, ``hi``, ``count``; the NaN items are not counted here."""
    a = np.asarray(agreement, dtype=float)
    counts, edges = np.histogram(a[np.isfinite(a)], bins=bins, range=(0.0, 1.0))
    return pd.DataFrame({"lo": edges[:-1], "hi": edges[1:], "count": counts})


@_html_safe
def item_agreement_chart(rows: pd.DataFrame, *, width: int = 420) -> alt.Chart:
    """Histogram of :func:`item_agreement_rows`: how many items have each share of
    agreeing pairs of ratings."""
    return alt.Chart(rows, width=width, height=160).mark_bar().encode(
        x=alt.X("lo:Q", bin="binned", title="agreement of the item (share of agreeing "
                "pairs of ratings)", scale=alt.Scale(domain=[0, 1])),
        x2="hi:Q", y=alt.Y("count:Q", title="items"),
        tooltip=[alt.Tooltip("lo:Q", format=".2f"), alt.Tooltip("hi:Q", format=".2f"),
                 "count:Q"])
