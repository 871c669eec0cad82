"""``iaa report``: every coefficient that applies to a set of categorical ratings, with
its intervals, breakdowns and charts, in one self-contained HTML page.

The page (:func:`report_html`, written by :func:`write_report`) holds, in sections
with these ids:

- ``data``: items, annotators, categories, ratings, and the notes of the data;
- ``coefficients``: each coefficient registered with ``report=True``
  (:mod:`iaa_widgets.measures._registry`; one row per metric of :func:`alpha_metrics`
  for a measure that takes a metric) with its analytic interval where the measure has
  one and, with ``n_resamples > 0``, a bootstrap percentile interval over items
  (:func:`iaa_widgets.bootstrap`, through the measure's Statistic); intervals are cut to
  each coefficient's range (a note names those cut); the coefficients that do not
  apply, each with the measure's own reason (:func:`iaa_widgets.coefficients`' logic);
- ``reporting``: the headline coefficient, Krippendorff's α, in a paragraph ready to paste
  into a paper in Krippendorff's reporting standard (:func:`reporting_paragraph`);
- ``pairwise``: Cohen's κ for every pair of annotators (with bootstrap intervals), and
  the ContingencyMatrix widget of the data (each pair's table and coefficients);
- ``augmented``, with secondary labels: the AugmentedKappaSweep widget (Rosenberg &
  Binkowski's κ′ against p, the item classes);
- ``annotators``: each annotator's estimated accuracy under Dawid & Skene (1979)
  (:func:`iaa_widgets.dawid_skene`), with the model, its convergence and iterations
  named, when at least 3 annotators gave ratings;
- ``per-category``: Fleiss' per-category κ_k and the specific agreement of each category;
- ``per-item``: each item's ratings and share of agreeing pairs, least agreement first.

A part that cannot be made for these data (a coefficient, its bootstrap, a table or a
chart) is listed as not applicable with the reason, and the rest is written.
Everything from the data is text (:mod:`iaa_widgets.html`); the page embeds its charts
with the bundled vega (no CDN, no network).

A widget in the report is the section ``widget.to_html()`` writes
(:func:`iaa_widgets.widgets.export.widget_section`), with the states Python computed for
its controls (issue 42: the sweep's p slider, the matrix's pair selectors work in the
page): what the page needs without them is taken from ``budget`` first, and the rest is
shared among the widgets as :func:`iaa_widgets.share` shares it
(:func:`iaa_widgets.sharing.states_within`); each widget's banner names the controls
left out.
"""
from __future__ import annotations

import inspect
import os
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from . import charts, stats, validate
from .data import Annotations, as_annotations
from .errors import AgreementError
from .html import page, text
from .measures import _registry
from .measures.categorical import classic
from .measures._formulas import item_agreement
from .measures.categorical.pairwise import pairwise
from .inference.bootstrap import bootstrap
from .results import AgreementResult, interval_text, without_cut
from .widgets.export import DEFAULT_BUDGET

__all__ = ["alpha_metrics", "Coefficient", "coefficients", "coefficient_table", "item_table",
           "reporting_paragraph", "report_html", "write_report"]

# per-item table: rows shown at most (least agreement first), the rest counted
MAX_ITEMS = 500
# the ContingencyMatrix widget is embedded up to this many annotators: its page holds
# each ordered pair's table (90 here), each a computation at export
MAX_MATRIX_ANNOTATORS = 10


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
    """One row of the report: the coefficient's ``name`` (with its metric), its registry
    entry ``measure``, its result and bootstrap (None when not asked, or when the
    bootstrap is undefined on these data: ``boot_refused`` says why), or ``refused``:
    why the coefficient does not apply."""

    name: str
    result: AgreementResult | None = None
    boot: object | None = None
    refused: str = ""
    boot_refused: str = ""
    measure: _registry.Measure | None = None


def _takes(fn: Callable, name: str) -> bool:
    return name in inspect.signature(fn).parameters


def coefficients(ann: Annotations, *, metric: str | None = None, confidence: float = 0.95,
                 n_resamples: int = 1000, seed=0) -> list[Coefficient]:
    """Every coefficient registered with ``report=True`` on ``ann`` (one per metric of
    :func:`alpha_metrics` for a measure that takes ``metric``), each with its bootstrap
    (``n_resamples`` > 0) at level ``confidence``. A coefficient that does not apply
    (:func:`iaa_widgets.measures._registry.attempt`: e.g. Cohen's κ on three annotators)
    is kept with the reason in ``refused``, and a bootstrap that is undefined (e.g. every
    resample of single-category data) with its reason in ``boot_refused``; only a
    ``metric`` the caller named and the data refuse (e.g. "ordinal" with no declared
    order) is raised."""
    out = []
    for m in _registry.measures(report=True):
        variants = [(f"{m.name} ({x})", {"metric": x}) for x in alpha_metrics(ann, metric)] \
            if _takes(m.function, "metric") else [(m.name, {})]
        for name, kwargs in variants:
            level = {"confidence": confidence} if _takes(m.function, "confidence") else {}
            result, reason = _registry.attempt(m, ann, **kwargs, **level)
            if result is None:
                if metric is not None and "metric" in kwargs:
                    raise AgreementError(reason)
                out.append(Coefficient(name, refused=reason, measure=m))
                continue
            boot, why = None, ""
            if n_resamples:
                try:
                    boot = bootstrap(ann, m.function, n_resamples=n_resamples, seed=seed,
                                     confidence=confidence, **kwargs)
                except AgreementError as err:
                    why = " ".join(str(err).split())
            out.append(Coefficient(name, result, boot, boot_refused=why, measure=m))
    return out


# the columns of (dis)agreement: a result's observed and expected go under its scale
_COMPONENTS = {"agreement": ("observed agreement A_o", "expected agreement A_e"),
               "disagreement": ("observed disagreement D_o", "expected disagreement D_e")}


def coefficient_table(rows: list[Coefficient], notes: tuple = ()) -> pd.DataFrame:
    """The applicable coefficients: value, observed and expected agreement (A_o, A_e) or
    disagreement (D_o, D_e) each in its own columns, the analytic and bootstrap
    intervals as the results carry them, cut to the coefficient's range (``cut`` names
    those cut and what they were), items used and excluded, and the note without the
    data's own ``notes`` (the data section says them once) nor the cut (``cut`` says it)."""
    records = []
    for c in rows:
        if c.result is None:
            continue
        r = c.result
        record = {"coefficient": c.name, "value": r.value}
        for scale, (o, e) in _COMPONENTS.items():
            record[o], record[e] = (r.observed, r.expected) if r.scale == scale else \
                (np.nan, np.nan)
        cut = []
        for kind, made in (("analytic", r), ("bootstrap", c.boot)):
            ci = made.ci if made is not None and made.ci is not None else (np.nan, np.nan)
            record[f"{kind} low"], record[f"{kind} high"] = ci
            if made is not None and made.ci_uncut is not None:  # cut by the result itself
                cut.append(f"{kind} (it was {interval_text(made.ci_uncut)})")
        record |= {"analytic method": r.ci_method or "none", "items": r.n_items,
                   "excluded": ", ".join(f"{v} {k}" for k, v in r.excluded.items()),
                   "note": "; ".join(part for part in without_cut(r.note).split("; ")
                                     if part and part not in notes),
                   "cut": " and ".join(cut)}
        records.append(record)
    columns = ["coefficient", "value", *_COMPONENTS["agreement"],
               *_COMPONENTS["disagreement"], "analytic low", "analytic high",
               "analytic method", "bootstrap low", "bootstrap high", "items", "excluded",
               "note", "cut"]
    return pd.DataFrame.from_records(records, columns=columns)


def _notes(pairs, heading: str) -> str:
    """(coefficient, text) pairs as a list under ``heading``: one entry per distinct
    text, naming every coefficient it holds for (one note per fact)."""
    by_text: dict[str, list[str]] = {}
    for name, value in pairs:
        if value:
            by_text.setdefault(str(value), []).append(str(name))
    if not by_text:
        return ""
    return f"<h3>{text(heading)}</h3><ul>" + "".join(
        f"<li><b>{text(', '.join(names))}</b>: {text(value)}</li>"
        for value, names in by_text.items()) + "</ul>"


def _column_notes(table: pd.DataFrame, column: str, heading: str) -> str:
    return _notes(zip(table["coefficient"], table[column]), heading)


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
        if np.isnan(v):
            return "—"
        shown = f"{v:.4f}"
        return "0.0000" if shown == "-0.0000" else shown  # a tiny negative is no sign
    return str(v)


def _table(frame: pd.DataFrame, index: bool = False) -> str:
    return frame.to_html(index=index, escape=True, na_rep="—", float_format=_fmt,
                         border=0)


def _section(ident: str, heading: str, body: str) -> str:
    return f'<section id="{ident}">\n<h2>{text(heading)}</h2>\n{body}\n</section>\n'


def _not_applicable(what: str, reason) -> str:
    reason = " ".join(str(reason).split())
    return f"<p class='note'>{text(what)}: not applicable: {text(reason)}</p>"


def _chart(specs: dict, ident: str, what: str, build: Callable) -> str:
    """The chart ``build()`` embedded at ``ident``, or, when it cannot be drawn (Altair's
    limit of rows for a chart embedded in a page, or a refusal of the data), a note
    saying why."""
    from altair import MaxRowsError
    try:
        specs[ident] = build().to_dict()
    except MaxRowsError:
        from altair import data_transformers
        limit = data_transformers.options.get("max_rows", 5000)
        return _not_applicable(what, f"its data has more than {limit:,} rows, the most "
                               "Altair embeds in a page; the table above holds every value")
    except AgreementError as err:
        return _not_applicable(what, err)
    return f'<div id="{ident}" class="iaa-chart"></div>'


def _part(what: str, make: Callable, *args) -> str:
    """``make(*args)``, or a note that the part does not apply and why."""
    try:
        return make(*args)
    except AgreementError as err:
        return _not_applicable(what, err)


@validate.takes()  # a misspelt option refused, naming the closest (issue 44)
def report_html(data, *, title: str = "agreement report", metric: str | None = None,
                confidence: float = 0.95, n_resamples: int = 1000, seed=0,
                max_items: int = MAX_ITEMS, budget: int = DEFAULT_BUDGET) -> str:
    """The agreement report on categorical ratings as one self-contained HTML page.

    Every coefficient that applies to the data, with its intervals, breakdowns and charts,
    in sections with these ids: ``data`` (items, annotators, categories, ratings, the
    data's notes); ``coefficients`` (each coefficient registered for the report, with its
    analytic interval and, with ``n_resamples > 0``, a bootstrap percentile interval over
    items; the coefficients that do not apply, each with its reason); ``reporting`` (α in a
    paragraph in Krippendorff's reporting standard); ``pairwise`` (Cohen's κ of every
    pair, and the ContingencyMatrix widget); ``augmented`` (with secondary labels, the
    AugmentedKappaSweep widget); ``annotators`` (each annotator's accuracy under Dawid &
    Skene, with three annotators or more); ``per-category`` (Fleiss' κ_k and specific
    agreement); ``per-item`` (each item's ratings, least agreement first).

    Parameters
    ----------
    data : Annotations or DataFrame-like
        The ratings: anything `as_annotations` reads.
    title : str, default "agreement report"
        The page's title and heading (written as text, never HTML).
    metric : str, optional
        Krippendorff's α's metric (``"nominal"``, ``"ordinal"``, ``"interval"`` …).
        None: every metric the data allow.
    confidence : float, default 0.95
        The level of every interval, in (0, 1).
    n_resamples : int, default 1000
        Bootstrap resamples over items; 0: analytic intervals only.
    seed : int or None, default 0
        The seed of the bootstrap.
    max_items : int, default 500
        Rows of the per-item table.
    budget : int, default 5_000_000
        Bytes of the page. The widgets' controls work in the page from states Python
        computes here, within what the page leaves of ``budget`` without them (0: the
        widgets show their numbers with their controls disabled); their banners name
        the controls left out.

    Returns
    -------
    str
        The page: HTML with its charts embedded and the bundled vega (no CDN, no network).

    Raises
    ------
    AgreementError
        When ``confidence``, ``n_resamples``, ``max_items`` or ``budget`` is out of range,
        a keyword is
        misspelt, or ``data`` cannot be loaded. A part that cannot be made for these data
        (a coefficient, its bootstrap, a table or a chart) is listed as not applicable with
        its reason, and the rest is written.

    See Also
    --------
    iaa_widgets.write_report : Writes the page to a file.
    iaa_widgets.coefficients : The coefficients that apply, and why not the others.
    iaa_widgets.bootstrap : The bootstrap intervals.
    iaa_widgets.krippendorff_alpha : The headline coefficient of the reporting section.

    Notes
    -----
    Every interval is cut to its coefficient's range (at most 1 for the chance-corrected
    coefficients, [0, 1] for percent agreement), and a note names those cut. The
    bootstrap resamples items (units) with the measure's Statistic; the analytic interval
    is the measure's own, its method named.

    References
    ----------
    Krippendorff, K. (2004). Reliability in Content Analysis: Some Common Misconceptions
    and Recommendations. Human Communication Research, 30(3), 411–433.
    https://doi.org/10.1111/j.1468-2958.2004.tb00738.x

    Examples
    --------
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["A", "B"] * 4,
    ...                    "label": ["yes", "yes", "no", "yes", "no", "no", "yes", "yes"]})
    >>> page = iaa.report_html(df, title="pilot", n_resamples=0)
    >>> page.startswith("<!DOCTYPE html>"), 'id="coefficients"' in page
    (True, True)
    """
    validate.confidence("report", "confidence", confidence)
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 0:
        validate.fail("report", "n_resamples", "a whole number ≥ 0 (0: no bootstrap)",
                      n_resamples)
    if isinstance(max_items, bool) or not isinstance(max_items, (int, np.integer)) \
            or max_items < 1:
        validate.fail("report", "max_items", "a whole number ≥ 1", max_items)
    budget = validate.integer("report", "budget", budget, minimum=0)
    ann = as_annotations(data)
    specs: dict[str, dict] = {}
    widgets: list = []  # the widgets embedded, in the page's order
    body = [f"<h1>{text(title)}</h1>", _data_section(ann)]

    rows = coefficients(ann, metric=metric, confidence=confidence, n_resamples=n_resamples,
                        seed=seed)
    body.append(_coefficient_section(rows, ann, confidence, n_resamples, seed, specs))
    body.append(_section("reporting", "Reporting", _part(
        "The reporting paragraph", _reporting, ann, metric, confidence, n_resamples, seed)))
    body.append(_section("pairwise", "Pairwise Cohen's κ", _part(
        "Pairwise Cohen's κ", _pairwise, ann, confidence, n_resamples, seed, specs)
        + _widget(widgets, "The ContingencyMatrix widget", _contingency, ann)))
    if ann.has_secondary:
        body.append(_section("augmented", "Augmented κ (secondary labels)", _widget(
            widgets, "The AugmentedKappaSweep widget", _sweep, ann)))
    body.append(_section("annotators", "Annotators", _part(
        "Annotator accuracy (Dawid–Skene)", _annotators, ann)))
    body.append(_category_section(ann, confidence, specs))
    body.append(_section("per-item", "Per item", _part(
        "The per-item table", _items, ann, max_items, specs)))
    from . import __version__
    body.append(f"<footer><p>made by iaa_widgets {text(__version__)}: confidence "
                f"{confidence:g}, {int(n_resamples)} bootstrap resamples (seed "
                f"{text(seed)}).</p></footer>")
    if not widgets:
        return page(title, "\n".join(body), specs)
    from .sharing import states_within
    from .widgets.export import empty_states, page_scripts, page_style, widget_section

    pieces = "\n".join(body).split(_WIDGET)

    def document(live: list) -> str:
        sections = [widget_section(w, states, k + 1)
                    for k, (w, states) in enumerate(zip(widgets, live))] + [""]
        return page(title, "".join(p + w for p, w in zip(pieces, sections))
                    + page_scripts(), specs, style=page_style(),
                    vega="var iaaVega = iaaStandalone;")  # the widgets' vega-embed, one copy

    left = budget - len(document([empty_states(budget)] * len(widgets)).encode("utf-8"))
    return document(states_within(widgets, left))


@validate.takes(loader=report_html)
def write_report(data, path, **options) -> str:
    """Write the agreement report on ``data`` to an HTML file.

    The page of `report_html`, in UTF-8; ``iaa report`` on the command line calls it.

    Parameters
    ----------
    data : Annotations or DataFrame-like
        The ratings: anything `as_annotations` reads.
    path : path-like
        The file to write (overwritten).
    **options
        Keywords of `report_html`: ``title``, ``metric``, ``confidence``,
        ``n_resamples``, ``seed``, ``max_items``, ``budget``; another one is refused.

    Returns
    -------
    str
        The path written.

    Raises
    ------
    AgreementError
        When an option is not one of `report_html`'s, or as `report_html` refuses the
        data or an option.

    See Also
    --------
    iaa_widgets.report_html : The page as a string.
    iaa_widgets.coefficients : The coefficients that apply.

    Examples
    --------
    >>> import os, tempfile
    >>> df = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "annotator": ["A", "B"] * 4,
    ...                    "label": ["yes", "yes", "no", "yes", "no", "no", "yes", "yes"]})
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = iaa.write_report(df, os.path.join(folder, "report.html"), n_resamples=0)
    ...     os.path.basename(path), os.path.getsize(path) > 0
    ('report.html', True)
    """
    document = report_html(data, **options)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(document)
    return os.fspath(path)


# where a widget's section goes in the body, written once its states are known (text
# from the data is escaped, so no "<!--" of it can be taken for this)
_WIDGET = "<!--iaa-widget-->"


def _widget(widgets: list, what: str, make: Callable, ann: Annotations):
    """``make(ann)``'s widget, kept in ``widgets`` and placed here, or a note that it
    does not apply and why."""
    try:
        w = make(ann)
    except AgreementError as err:
        return _not_applicable(what, err)
    w.wait()  # (a chart drawn on a thread)
    widgets.append(w)
    return _WIDGET


def _contingency(ann: Annotations):
    """The ContingencyMatrix of the data's primary labels: a pair's table and every
    coefficient of it; the pair selectors switch among the pairs."""
    if ann.anonymous or ann.n_annotators < 2:
        raise AgreementError("the annotators of this data are not known (per-item counts) "
                             "or there is only one")
    n = ann.n_annotators
    if n > MAX_MATRIX_ANNOTATORS:
        raise AgreementError(f"{n} annotators make {n * (n - 1):,} ordered pairs, more than "
                             f"the {MAX_MATRIX_ANNOTATORS * (MAX_MATRIX_ANNOTATORS - 1)} of "
                             f"{MAX_MATRIX_ANNOTATORS} annotators the report computes for its "
                             "page; the tables above hold every pair (in Python: "
                             "iaa.ContingencyMatrix(data, pair=…))")
    from .widgets.contingency import ContingencyMatrix
    return ContingencyMatrix(ann)


def _sweep(ann: Annotations):
    """The AugmentedKappaSweep of the data (primary and secondary labels)."""
    from .widgets.sweep import AugmentedKappaSweep
    return AugmentedKappaSweep(ann)


def _data_section(ann: Annotations) -> str:
    facts = pd.DataFrame({"": ["items", "annotators", "categories", "ratings",
                               "order of the categories"],
                          "value": [ann.total_items, ann.n_annotators, ann.n_categories,
                                    ann.total_ratings,
                                    "declared" if ann.ordered else "none declared"]})
    cats = "<p>categories: " + text(", ".join(map(str, ann.categories))) + "</p>"
    notes = "".join(f"<p class='note'>{text(n)}</p>" for n in ann.notes)
    return _section("data", "Data", _table(facts) + cats + notes)


def _ranges(rows) -> str:
    """The ranges intervals are cut to, one entry per range: [0, 1] for A_o, at most 1
    for the chance-corrected coefficients, …"""
    by_range: dict[tuple, list[str]] = {}
    for c in rows:
        if c.result is not None:
            by_range.setdefault(c.measure.range, []).append(c.name)
    return "; ".join(
        f"{'at most ' + format(hi, 'g') if lo == -np.inf else f'[{lo:g}, {hi:g}]'} for "
        f"{', '.join(names)}" for (lo, hi), names in by_range.items())


def _coefficient_section(rows, ann, confidence, n_resamples, seed, specs) -> str:
    table = coefficient_table(rows, ann.notes)
    how = (f"Intervals at {confidence:.0%}: the measure's analytic interval (its method "
           "named), and a bootstrap percentile interval over items from "
           f"{int(n_resamples)} resamples (seed {seed})." if n_resamples else
           f"Intervals at {confidence:.0%}: the measure's analytic interval (its method "
           "named); no bootstrap was asked for (--bootstrap 0).")
    how += (" Every interval is cut to its coefficient's range (" + _ranges(rows) + ")."
            if len(table) else "")
    shown = table.drop(columns=["analytic method", "excluded", "note", "cut"])
    body = f"<p>{text(how)}</p>" + _table(shown.dropna(axis=1, how="all"))
    if len(table):
        body += _chart(specs, "chart-coefficients", "The chart of the coefficients",
                       lambda: charts.coefficients_chart(
                           _interval_rows(table, bool(n_resamples))))
    cut = table.loc[table["cut"].astype(bool)]
    body += (_column_notes(table, "analytic method", "Analytic intervals")
             + _notes(zip(cut["coefficient"], "interval cut to the coefficient's range: "
                          + cut["cut"]), "Intervals cut")
             + _column_notes(table, "excluded", "Items left out")
             + _column_notes(table, "note", "Notes")
             + _notes(((c.name, f"no bootstrap interval: {c.boot_refused}") for c in rows
                       if c.boot_refused), "Bootstrap not applicable")
             + _notes(((c.name, c.refused) for c in rows if c.refused),
                      "Not applicable to this data"))
    return _section("coefficients", "Coefficients", body)


def reporting_paragraph(ann: Annotations, *, metric: str | None = None,
                        confidence: float = 0.95, n_resamples: int = 1000, seed=0) -> str:
    """The report's paragraph on its headline coefficient, Krippendorff's α (``metric``,
    default the first of :func:`alpha_metrics`: nominal), ready to paste into a paper.

    With ``n_resamples`` > 0 it is the paragraph of Hayes & Krippendorff's bootstrap
    (:func:`iaa_widgets.bootstrap` with ``method="krippendorff"``; where a unit holds
    more than two values, followed by the bootstrap over units, whose intervals cover;
    :meth:`~iaa_widgets.inference.bootstrap.BootstrapResult.reporting`): α, its interval
    and how it was drawn, q(0.667) and q(0.8), units, pairable values, coders,
    exclusions and the missing-data policy; with 0, the measure's own paragraph
    (:meth:`~iaa_widgets.AgreementResult.reporting`), which says how to add the interval.
    """
    alpha = _registry.find("krippendorff_alpha").function
    kwargs = {"metric": alpha_metrics(ann, metric)[0]}
    if not n_resamples:
        return alpha(ann, **kwargs).reporting()
    drawn = dict(n_resamples=n_resamples, seed=seed, confidence=confidence, **kwargs)
    paragraph = bootstrap(ann, alpha, method="krippendorff", **drawn).reporting()
    if _most_values(ann) <= 2:
        return paragraph
    # Krippendorff's draws a unit's pairs as independent: with three or more values in a
    # unit they are not, and its 95 % intervals covered 0.870 (benchmarks/bench_coverage.py)
    units = bootstrap(ann, alpha, **drawn)
    low, high = units.ci
    return (f"{paragraph} Its units hold up to {_most_values(ann)} values, whose pairs this "
            "bootstrap draws as independent, so its interval is narrower than it should be; "
            f"the bootstrap over units gives [{low:.3f}, {high:.3f}].")


def _most_values(ann: Annotations) -> int:
    """The most values any unit holds (rating rows counted with their counts)."""
    per_row = np.ones(ann.n_ratings, np.int64) if ann.rating_count is None else ann.rating_count
    return int(np.bincount(ann.item, weights=per_row, minlength=ann.n_items).max(initial=0))


def _reporting(ann, metric, confidence, n_resamples, seed) -> str:
    how = ("Krippendorff's α is the headline: the coefficient his reporting standard asks "
           "for (Krippendorff 2004, Content Analysis, §11.4), with Hayes & Krippendorff's "
           "(2007) bootstrap, and beside it the bootstrap over units where a unit holds "
           "more than two values (Krippendorff's draws a unit's pairs as independent, and "
           "its interval is then too narrow). Other metrics: --metric (metric= in Python); "
           "q(α_min) is the share of replicates below α_min.")
    paragraph = reporting_paragraph(ann, metric=metric, confidence=confidence,
                                    n_resamples=n_resamples, seed=seed)
    return f"<p>{text(how)}</p>\n<blockquote class='reporting'><p>{text(paragraph)}</p>" \
        "</blockquote>"


def _pairwise(ann, confidence, n_resamples, seed, specs) -> str:
    if ann.anonymous or ann.n_annotators < 2:
        raise AgreementError("the annotators of this data are not known (per-item counts) "
                             "or there is only one")
    boot = {"ci": "percentile", "n_resamples": n_resamples, "seed": seed,
            "confidence": confidence} if n_resamples else {}
    m = pairwise(ann, "cohen_kappa", **boot)
    frame = pd.DataFrame(m).rename(index=str, columns=str).rename_axis(index=None,
                                                                        columns=None)
    body = _table(frame, index=True)
    if n_resamples:
        low = pd.DataFrame(m.attrs["ci_low"], index=frame.index, columns=frame.columns)
        high = pd.DataFrame(m.attrs["ci_high"], index=frame.index, columns=frame.columns)
        cells = (low.map(_fmt) + " … " + high.map(_fmt)).mask(low.isna() & high.isna())
        body += (f"<p>{text(f'Bootstrap percentile intervals at {confidence:.0%}:')}</p>"
                 + _table(cells, index=True))
    shared = pd.DataFrame(m.attrs["n_items"], index=frame.index, columns=frame.columns)
    shared = shared.astype(object).mask(np.eye(len(shared), dtype=bool), "—")  # no pair
    body += "<p>Items each pair rated:</p>" + _table(shared, index=True)
    return body + _chart(specs, "chart-pairwise", "The pairwise chart", m.chart)


def _annotators(ann) -> str:
    """Each annotator's accuracy under Dawid & Skene (1979): the expected share of their
    labels that match the item's class (full confusion matrices, EM from the majority
    vote, the function's defaults)."""
    rated = np.count_nonzero(np.bincount(ann.primary().annotator,
                                         minlength=ann.n_annotators))
    if ann.anonymous or rated < 3:
        raise AgreementError(
            "the accuracies of Dawid & Skene's model need ratings by at least 3 known "
            "annotators; " + ("the annotators of per-item counts are not known"
                              if ann.anonymous else f"this data has ratings by {rated}"))
    from .models import dawid_skene
    res = dawid_skene(ann)
    how = (f"Dawid & Skene (1979), {res.model}: EM from the majority vote, "
           f"{res.n_iter} iterations, {'converged' if res.converged else 'not converged'} "
           f"(tol {res.params['tol']:g}); accuracy: the expected share of an annotator's "
           "labels that match the item's class.")
    notes = [part for part in res.note.split("; ") if part and part not in ann.notes]
    table = res.per_annotator().rename(index=str).rename_axis("annotator").reset_index()
    return (f"<p>{text(how)}</p>" + _table(table)
            + "".join(f"<p class='note'>{text(n)}</p>" for n in notes))


def _category_section(ann, confidence, specs) -> str:
    def fleiss():
        result = classic.fleiss_kappa(ann, confidence=confidence)
        return ("<h3>Fleiss' κ of each category (Fleiss 1971, κ_j)</h3>"
                + _table(result.per_category.rename(index=str), index=True)
                + _chart(specs, "chart-per-category", "The per-category chart",
                         lambda: charts.per_category_chart(result, "kappa")))

    def specific():
        result = classic.specific_agreement(ann, positive=ann.categories[0])
        counts = result.per_category.rename(index=str)
        whole = [c for c in ("agreements", "opportunities") if c in counts  # counts: no .0000
                 and np.all(np.mod(counts[c], 1) == 0)]
        return ("<h3>Specific agreement of each category</h3>"
                + _table(counts.astype(dict.fromkeys(whole, "int64")), index=True))
    return _section("per-category", "Per category",
                    _part("Fleiss' per-category κ", fleiss)
                    + _part("Specific agreement", specific))


def _items(ann, max_items, specs) -> str:
    _, agree = _item_terms(ann)
    shown = item_table(ann, max_items)
    rated_once = int(np.isnan(agree).sum())
    body = (f"<p>{text(f'{len(shown)} of {len(agree)} items shown, least agreement first')}"
            + (text(f'; {rated_once} item(s) rated once have no pair to agree (—)')
               if rated_once else "") + ".</p>")
    body += _chart(specs, "chart-items", "The per-item chart", lambda: (
        charts.item_agreement_chart(charts.item_agreement_rows(agree))))
    return body + _table(shown)
