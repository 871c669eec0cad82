"""The reporting paragraph of a bootstrap: what Krippendorff's standard asks a paper to
state about a reliability coefficient (Krippendorff 2004, *Content Analysis*, 2nd ed.,
§11.4; Hayes & Krippendorff 2007)."""
from __future__ import annotations

from ..measures import _registry

# how each kind of replicate is described in the paragraph
DRAWN = {
    "items": "resampling the {n_draws:,} units with replacement",
    "clusters": "resampling the {n_draws:,} clusters of units ({cluster}) with replacement",
    "annotators": "resampling the {n_annotators} coders with replacement",
    "items and annotators": "resampling units and coders with replacement (two-way)",
    "clusters and annotators": "resampling clusters of units ({cluster}) and coders with "
                               "replacement (two-way)",
    "pairable values": "Hayes & Krippendorff's (2007) bootstrap: {n_draws:,} pairs of values "
                       "drawn from the coincidence matrix per replicate, D_e held fixed",
}


def _number(x: float) -> str:
    """A coefficient as papers print it: three decimals."""
    return f"{x:.3f}"


def coefficient_name(measure: str, params) -> str:
    """The coefficient's name for a sentence: its registry symbol, with its metric."""
    found = _registry.find(measure)
    name = found.symbol if found is not None and found.symbol else measure
    metric = params.get("metric")
    if isinstance(metric, str) and "(" in name:
        head, _, rest = name.partition("(")
        name = f"{head}({rest.split(',')[0]}, {metric})" if "," in rest else name
    elif isinstance(metric, str):
        name = f"{name} ({metric})"
    return name


def paragraph(result, thresholds=(0.667, 0.8)) -> str:
    """The paragraph of a :class:`~iaa_widgets.inference.bootstrap.BootstrapResult`:
    coefficient and estimate; interval, its level, kind and how the replicates were drawn
    (their number and seed); q(α_min) = the share of replicates below each threshold; the
    units and (pairable) values it rests on, the coders, what was excluded and why; the
    missing-data policy in words."""
    r = result
    name = coefficient_name(r.measure, r.params)
    fields = dict(n_items=r.n_items, n_clusters=r.n_clusters, cluster=r.cluster,
                  n_annotators=r.n_annotators, n_draws=r.n_draws or 0)
    how = DRAWN[r.kind].format(**{k: ("?" if v is None else v) for k, v in fields.items()})
    seed = "" if r.seed is None else f", seed {r.seed}"
    low, high = r.ci
    text = [f"{name} = {_number(r.estimate)}, {r.level:.0%} {r.method} confidence interval "
            f"[{_number(low)}, {_number(high)}] from {r.n_resamples:,} bootstrap replicates "
            f"({how}{seed})."]
    if r.n_undefined:
        text.append(f"The coefficient was undefined on {r.n_undefined:,} replicates, left "
                    "out of the interval.")
    q = [f"q({t:g}) = {_number(r.prob_below(t))}" for t in thresholds]
    if q:
        text.append("The probability of failing to reach the smallest acceptable value "
                    f"α_min (the share of replicates below it): {', '.join(q)}.")
    return " ".join(text + data_sentences(r.measure, r.n_items, r.n_ratings, r.n_annotators,
                                          r.excluded, r.missing))


def data_sentences(measure: str, n_items, n_ratings, n_annotators, excluded,
                   missing) -> list[str]:
    """The sentences on the data: units, (pairable) values and coders; what was excluded
    and why; the missing-data policy in words (:data:`_registry.MISSING`)."""
    counts, text = [], []
    if n_items is not None:
        counts.append(f"{n_items:,} units")
    if n_ratings is not None:
        counts.append(f"{n_ratings:,} " + ("pairable values" if measure == "krippendorff_alpha"
                                           else "values"))
    if n_annotators is not None:
        counts.append(f"{n_annotators} coders")
    if counts:
        text.append("The data: " + ", ".join(counts) + ".")
    if excluded:
        text.append("Excluded: " + "; ".join(f"{n:,} {why}" for why, n in excluded.items())
                    + ".")
    if missing:
        kept = _registry.MISSING.get(missing, "")
        text.append(f"Missing values: {missing!s}" + (f" ({kept})." if kept else "."))
    return text


def measure_paragraph(result) -> str:
    """The paragraph of a measure's :class:`~iaa_widgets.AgreementResult`: coefficient,
    estimate, its analytic interval and method (or that it has none, and how to get
    Krippendorff's bootstrap), then :func:`data_sentences`. q(α_min) needs replicates:
    ``iaa.bootstrap(data, measure).reporting()``."""
    params = result.params or {}
    name = coefficient_name(result.measure, params)
    text = [f"{name} = {_number(result.value)}"]
    if result.ci is not None:
        text[0] += (f", confidence interval [{_number(result.ci[0])}, "
                    f"{_number(result.ci[1])}] ({result.ci_method}).")
    else:
        text[0] += (". It has no analytic interval; iaa.bootstrap(data, "
                    f"{result.measure!r}" + (", method='krippendorff'" if
                                            result.measure == "krippendorff_alpha" else "")
                    + ").reporting() adds one with q(α_min).")
    return " ".join(text + data_sentences(result.measure, result.n_items, result.n_ratings,
                                          result.n_annotators, result.excluded,
                                          params.get("missing")))
