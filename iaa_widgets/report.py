"""``iaa report``: every coefficient that applies to a set of categorical ratings, with
its intervals, breakdowns and charts, in one self-contained HTML page.

The page (:func:`report_html`, written by :func:`write_report`) holds, in sections
with these ids:

- ``data``: items, annotators, categories, ratings, and the notes of the data;
- ``coefficients``: each coefficient of :data:`COEFFICIENTS` (and Krippendorff's α
  under each metric of :func:`alpha_metrics`) with its analytic interval where the
  measure has one and, with ``n_resamples > 0``, a bootstrap percentile interval over
  items (:func:`iaa_widgets.bootstrap`, through the measure's Statistic); the
  coefficients that do not apply, each with the measure's own reason;
- ``pairwise``: Cohen's κ for every pair of annotators (with bootstrap intervals);
- ``per-category``: Fleiss' per-category κ_k and the specific agreement of each category;
- ``per-item``: each item's ratings and share of agreeing pairs, least agreement first.

Everything from the data is text (:mod:`iaa_widgets.html`); the page embeds its charts
with the bundled vega (no CDN, no network).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from . import charts, stats, validate
from .data import Annotations, as_annotations
from .errors import AgreementError
from .html import page, text
from .measures import classic
from .measures._formulas import item_agreement
from .measures.alpha import krippendorff_alpha
from .measures.pairwise import pairwise
from .resampling import bootstrap
from .results import AgreementResult

__all__ = ["COEFFICIENTS", "alpha_metrics", "Coefficient", "coefficients", "item_table",
           "report_html", "write_report"]

# the coefficients with an analytic interval, in the order of the report; each takes
# confidence= (Gwet's AC1 joins when its module is present)
COEFFICIENTS: dict[str, Callable[..., AgreementResult]] = {
    "percent_agreement": classic.percent_agreement,
    "bennett_s": classic.bennett_s,
    "scott_pi": classic.scott_pi,
    "cohen_kappa": classic.cohen_kappa,
    "fleiss_kappa": classic.fleiss_kappa,
    "davies_fleiss_kappa": classic.davies_fleiss_kappa,
}
try:
    from .measures.gwet import gwet_ac1
except ImportError:  # an install without Gwet's coefficients
    pass
else:
    COEFFICIENTS["gwet_ac1"] = gwet_ac1

# per-item table: rows shown at most (least agreement first), the rest counted
MAX_ITEMS = 500


def alpha_metrics(ann: Annotations, metric: str | None = None) -> list[str]:
    """The metrics of Krippendorff's α the report computes: ``metric`` if given, else
    "nominal", plus "ordinal" when the order of the categories was declared
    (``Annotations.ordered``: numeric labels, ``categories=``) and "interval" when the
    labels are numbers."""
    if metric is not None:
        return [metric]
    out = ["nominal"]
    if ann.ordered:
        out.append("ordinal")
    cats = ann.categories
    if pd.api.types.is_numeric_dtype(cats) and not pd.api.types.is_bool_dtype(cats):
        out.append("interval")
    return out


@dataclass(frozen=True)
class Coefficient:
    """One row of the report: the coefficient's ``name`` (with its metric), its result
    and bootstrap (None when not asked), or ``refused``: why it does not apply."""

    name: str
    result: AgreementResult | None = None
    boot: object | None = None
    refused: str = ""


def coefficients(ann: Annotations, *, metric: str | None = None, confidence: float = 0.95,
                 n_resamples: int = 1000, seed=0) -> list[Coefficient]:
    """Every coefficient of :data:`COEFFICIENTS` and α under :func:`alpha_metrics` on
    ``ann``, each with its bootstrap (``n_resamples`` > 0) at level ``confidence``. A
    coefficient whose measure refuses the data (an AgreementError: e.g. Cohen's κ on
    three annotators) is kept with the measure's reason in ``refused``; α under a
    ``metric`` the caller named is not: its refusal (e.g. "ordinal" with no declared
    order) is raised."""
    jobs = [(name, fn, {}, {"confidence": confidence}) for name, fn in COEFFICIENTS.items()]
    jobs += [(f"krippendorff_alpha ({m})", krippendorff_alpha, {"metric": m}, {})
             for m in alpha_metrics(ann, metric)]
    out = []
    for name, fn, kwargs, extra in jobs:
        try:
            result = fn(ann, **kwargs, **extra)
        except AgreementError as err:
            if metric is not None and fn is krippendorff_alpha:
                raise
            out.append(Coefficient(name, refused=str(err)))
            continue
        boot = None
        if n_resamples:
            boot = bootstrap(fn, ann, n_resamples=n_resamples, seed=seed, level=confidence,
                             **kwargs)
        out.append(Coefficient(name, result, boot))
    return out


def coefficient_table(rows: list[Coefficient]) -> pd.DataFrame:
    """The applicable coefficients: value, observed and expected (dis)agreement, the
    analytic and bootstrap intervals, items used and excluded, and the note."""
    records = []
    for c in rows:
        if c.result is None:
            continue
        r = c.result
        ci = r.ci or (np.nan, np.nan)
        boot = (c.boot.ci if c.boot is not None else (np.nan, np.nan))
        records.append({
            "coefficient": c.name, "value": r.value,
            "observed": r.observed, "expected": r.expected, "scale": r.scale,
            "analytic low": ci[0], "analytic high": ci[1],
            "analytic method": r.ci_method or "none",
            "bootstrap low": boot[0], "bootstrap high": boot[1],
            "items": r.n_items,
            "excluded": ", ".join(f"{v} {k}" for k, v in r.excluded.items()),
            "note": r.note})
    return pd.DataFrame.from_records(records, columns=[
        "coefficient", "value", "observed", "expected", "scale", "analytic low",
        "analytic high", "analytic method", "bootstrap low", "bootstrap high", "items",
        "excluded", "note"])


def _notes(table: pd.DataFrame, column: str, heading: str) -> str:
    """The non-empty texts of ``column`` as a list under ``heading``, one per coefficient."""
    shown = table.loc[table[column].astype(bool), ["coefficient", column]]
    if shown.empty:
        return ""
    return f"<h3>{text(heading)}</h3><ul>" + "".join(
        f"<li><b>{text(name)}</b>: {text(value)}</li>" for name, value in shown.itertuples(
            index=False)) + "</ul>"


def _interval_rows(table: pd.DataFrame, bootstrapped: bool) -> pd.DataFrame:
    """The long form :func:`charts.coefficients_chart` draws: one row per coefficient
    and interval kind."""
    kinds = [("analytic", "analytic low", "analytic high")]
    if bootstrapped:
        kinds.append(("bootstrap", "bootstrap low", "bootstrap high"))
    return pd.concat([pd.DataFrame({"coefficient": table["coefficient"],
                                    "value": table["value"], "low": table[lo],
                                    "high": table[hi], "interval": kind})
                      for kind, lo, hi in kinds], ignore_index=True)


def _item_terms(ann: Annotations) -> tuple[np.ndarray, np.ndarray]:
    """The items × categories counts (data kept as counts expanded first: one row per
    item) and each item's agreement P_i (Fleiss 1971: the share of agreeing ordered
    pairs of ratings, NaN for an item rated once)."""
    counts = stats.item_counts(ann.expanded("the per-item table"))  # one bincount
    return counts, item_agreement(counts)


def item_table(ann: Annotations, max_items: int | None = None) -> pd.DataFrame:
    """One row per item: ``ratings`` m_i, ``agreement`` (P_i, see :func:`_item_terms`),
    ``labels`` (each category given with its count, in the order of the categories),
    sorted by agreement, least first (NaN last), then by item position; the first
    ``max_items`` rows (None: all)."""
    counts, agree = _item_terms(ann)
    order = np.lexsort((np.arange(len(agree)), np.where(np.isnan(agree), np.inf, agree)))
    order = order[:max_items]
    shown = counts[order]
    names = np.array([str(c) for c in ann.categories], dtype=object)
    rows, cols = np.nonzero(shown)  # row-major: categories in order within an item
    parts = pd.Series(names[cols] + " ×" + shown[rows, cols].astype(str))
    labels = parts.groupby(rows).agg(" · ".join).reindex(range(len(order)), fill_value="")
    items = ann.expanded("the per-item table").items
    return pd.DataFrame({"item": [str(items[i]) for i in order],
                         "ratings": shown.sum(axis=1), "agreement": agree[order],
                         "labels": labels.to_numpy()})


# ------------------------------------------------------------------ the page
def _fmt(v) -> str:
    if isinstance(v, (float, np.floating)):
        return "—" if np.isnan(v) else f"{v:.4f}"
    return str(v)


def _table(frame: pd.DataFrame, index: bool = False) -> str:
    return frame.to_html(index=index, escape=True, na_rep="—", float_format=_fmt,
                         border=0)


def _section(ident: str, heading: str, body: str) -> str:
    return f'<section id="{ident}">\n<h2>{text(heading)}</h2>\n{body}\n</section>\n'


def _chart_div(ident: str) -> str:
    return f'<div id="{ident}" class="iaa-chart"></div>'


def report_html(data, *, title: str = "agreement report", metric: str | None = None,
                confidence: float = 0.95, n_resamples: int = 1000, seed=0,
                max_items: int = MAX_ITEMS) -> str:
    """The report on ``data`` (anything :func:`~iaa_widgets.as_annotations` reads) as one
    self-contained HTML page; see the module docstring for its sections. ``metric``:
    α's metric (default: every one :func:`alpha_metrics` allows); ``confidence``: level
    of every interval; ``n_resamples``: bootstrap resamples (0: analytic intervals
    only); ``seed``: of the bootstrap; ``max_items``: rows of the per-item table."""
    validate.confidence("report", "confidence", confidence)
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 0:
        validate.fail("report", "n_resamples", "a whole number ≥ 0 (0: no bootstrap)",
                      n_resamples)
    if isinstance(max_items, bool) or not isinstance(max_items, (int, np.integer)) \
            or max_items < 1:
        validate.fail("report", "max_items", "a whole number ≥ 1", max_items)
    ann = as_annotations(data)
    specs: dict[str, dict] = {}
    body = [f"<h1>{text(title)}</h1>", _data_section(ann)]

    rows = coefficients(ann, metric=metric, confidence=confidence, n_resamples=n_resamples,
                        seed=seed)
    body.append(_coefficient_section(rows, confidence, n_resamples, seed, specs))
    body.append(_pairwise_section(ann, confidence, n_resamples, seed, specs))
    body.append(_category_section(ann, confidence, specs))
    body.append(_item_section(ann, max_items, specs))
    from . import __version__
    body.append(f"<footer><p>made by iaa_widgets {text(__version__)}: confidence "
                f"{confidence:g}, {int(n_resamples)} bootstrap resamples (seed "
                f"{text(seed)}).</p></footer>")
    return page(title, "\n".join(body), specs)


def write_report(data, path, **options) -> str:
    """Write :func:`report_html` of ``data`` to ``path`` (UTF-8); returns the path."""
    document = report_html(data, **options)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(document)
    return os.fspath(path)


def _data_section(ann: Annotations) -> str:
    facts = pd.DataFrame({"": ["items", "annotators", "categories", "ratings",
                               "order of the categories"],
                          "value": [ann.total_items, ann.n_annotators, ann.n_categories,
                                    ann.total_ratings,
                                    "declared" if ann.ordered else "none declared"]})
    cats = "<p>categories: " + text(", ".join(map(str, ann.categories))) + "</p>"
    notes = "".join(f"<p class='note'>{text(n)}</p>" for n in ann.notes)
    return _section("data", "Data", _table(facts) + cats + notes)


def _coefficient_section(rows, confidence, n_resamples, seed, specs) -> str:
    table = coefficient_table(rows)
    how = (f"Intervals at {confidence:.0%}: the measure's analytic interval (its method "
           "named), and a bootstrap percentile interval over items from "
           f"{int(n_resamples)} resamples (seed {seed})." if n_resamples else
           f"Intervals at {confidence:.0%}: the measure's analytic interval (its method "
           "named); no bootstrap was asked for (--bootstrap 0).")
    body = (f"<p>{text(how)}</p>"
            + _table(table.drop(columns=["analytic method", "excluded", "note"])))
    if len(table):
        specs["chart-coefficients"] = charts.coefficients_chart(
            _interval_rows(table, bool(n_resamples))).to_dict()
        body += _chart_div("chart-coefficients")
    body += (_notes(table, "analytic method", "Analytic intervals")
             + _notes(table, "excluded", "Items left out")
             + _notes(table, "note", "Notes"))
    refused = [c for c in rows if c.refused]
    if refused:
        body += "<h3>Not applicable to this data</h3><ul>" + "".join(
            f"<li><b>{text(c.name)}</b>: {text(c.refused)}</li>" for c in refused) + "</ul>"
    return _section("coefficients", "Coefficients", body)


def _pairwise_section(ann, confidence, n_resamples, seed, specs) -> str:
    if ann.anonymous or ann.n_annotators < 2:
        return _section("pairwise", "Pairwise Cohen's κ",
                        "<p>Not applicable: the annotators of this data are not known "
                        "(per-item counts) or there is only one.</p>")
    boot = {"ci": "percentile", "n_resamples": n_resamples, "seed": seed,
            "level": confidence} if n_resamples else {}
    try:
        m = pairwise(ann, "cohen_kappa", **boot)
    except AgreementError as err:
        return _section("pairwise", "Pairwise Cohen's κ", f"<p>Not applicable: {text(err)}</p>")
    frame = pd.DataFrame(m).rename(index=str, columns=str).rename_axis(index=None,
                                                                        columns=None)
    body = _table(frame, index=True)
    if n_resamples:
        low = pd.DataFrame(m.attrs["ci_low"], index=frame.index, columns=frame.columns)
        high = pd.DataFrame(m.attrs["ci_high"], index=frame.index, columns=frame.columns)
        cells = low.map(_fmt) + " … " + high.map(_fmt)
        body += (f"<p>{text(f'Bootstrap percentile intervals at {confidence:.0%}:')}</p>"
                 + _table(cells, index=True))
    shared = pd.DataFrame(m.attrs["n_items"], index=frame.index, columns=frame.columns)
    body += "<p>Items each pair rated:</p>" + _table(shared, index=True)
    specs["chart-pairwise"] = m.chart().to_dict()
    return _section("pairwise", "Pairwise Cohen's κ", body + _chart_div("chart-pairwise"))


def _category_section(ann, confidence, specs) -> str:
    body = ""
    try:
        fleiss = classic.fleiss_kappa(ann, confidence=confidence)
    except AgreementError as err:
        body += f"<p>Fleiss' per-category κ: not applicable: {text(err)}</p>"
    else:
        body += ("<h3>Fleiss' κ of each category (Fleiss 1971, κ_j)</h3>"
                 + _table(fleiss.per_category.rename(index=str), index=True))
        specs["chart-per-category"] = charts.per_category_chart(fleiss, "kappa").to_dict()
        body += _chart_div("chart-per-category")
    try:
        specific = classic.specific_agreement(ann, positive=ann.categories[0])
    except AgreementError as err:
        body += f"<p>Specific agreement: not applicable: {text(err)}</p>"
    else:
        body += ("<h3>Specific agreement of each category</h3>"
                 + _table(specific.per_category.rename(index=str), index=True))
    return _section("per-category", "Per category", body)


def _item_section(ann, max_items, specs) -> str:
    _, agree = _item_terms(ann)
    shown = item_table(ann, max_items)
    rated_once = int(np.isnan(agree).sum())
    body = (f"<p>{text(f'{len(shown)} of {len(agree)} items shown, least agreement first')}"
            + (text(f'; {rated_once} item(s) rated once have no pair to agree (—)')
               if rated_once else "") + ".</p>")
    specs["chart-items"] = charts.item_agreement_chart(
        charts.item_agreement_rows(agree)).to_dict()
    body += _chart_div("chart-items") + _table(shown)
    return _section("per-item", "Per item", body)
