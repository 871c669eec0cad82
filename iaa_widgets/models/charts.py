"""Charts of the annotator models: each annotator's competence (or accuracy) as bars and
confusion matrices as heatmaps, registered with :func:`iaa_widgets.charts.register`
(``result.chart()`` loads this module on first use)."""
from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .. import validate
from ..charts import register
from .results import MaceResult, ModelResult

__all__ = ["competence_rows", "confusion_rows", "competence_chart", "confusion_chart",
           "model_chart"]


def _shown(result: ModelResult, annotators, limit: int) -> list:
    """The annotators to draw: those named, else the ``limit`` with the most ratings."""
    if annotators is not None:
        return list(annotators)
    by = result.ratings_by if result.ratings_by is not None else result.accuracy
    return list(by.sort_values(ascending=False, kind="stable").index[:limit])


def competence_rows(result: ModelResult, annotators) -> pd.DataFrame:
    """One row per annotator: ``annotator`` (text), ``value`` (MACE's competence, else the
    estimated accuracy), ``measure`` and ``n_ratings``."""
    table = result.per_annotator().loc[annotators]
    measure = "competence" if isinstance(result, MaceResult) else "accuracy"
    return pd.DataFrame({"annotator": [str(a) for a in table.index],
                         "value": table[measure].to_numpy(dtype=float),
                         "measure": measure,
                         "n_ratings": table["n_ratings"].to_numpy()})


def confusion_rows(result: ModelResult, annotators) -> pd.DataFrame:
    """One row per (annotator, class, label) cell: texts, positions ``i``, ``j`` (the
    data's category order) and ``p``, the probability of the label given the class."""
    k = len(result.priors)
    cats = np.array([str(c) for c in result.priors.index], dtype=object)
    names = np.asarray(list(annotators), dtype=object)  # one matrix each, never all
    block = np.stack([result.confusion_matrix(a).to_numpy() for a in names]).reshape(-1, k, k)
    a, i, j = np.meshgrid(np.arange(len(names)), np.arange(k), np.arange(k), indexing="ij")
    return pd.DataFrame({"annotator": [str(x) for x in names[a.ravel()]],
                         "class": cats[i.ravel()], "label": cats[j.ravel()],
                         "i": i.ravel(), "j": j.ravel(), "p": block.ravel(),
                         "text": [f"{v:.2f}" for v in block.ravel()]})


def competence_chart(rows: pd.DataFrame, *, width: int = 260) -> alt.Chart:
    """Horizontal bars, one per annotator, best first, on [0, 1]."""
    measure = str(rows["measure"].iloc[0]) if len(rows) else "accuracy"
    return alt.Chart(rows, title=f"{measure} per annotator").mark_bar().encode(
        x=alt.X("value:Q", title=measure, scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("annotator:N", sort="-x", title=None, axis=alt.Axis(labelLimit=120)),
        tooltip=[alt.Tooltip("annotator:N"), alt.Tooltip("value:Q", title=measure,
                                                         format=".3f"),
                 alt.Tooltip("n_ratings:Q", title="ratings")],
    ).properties(width=width)


def confusion_chart(rows: pd.DataFrame, *, cell_size: int = 26, columns: int = 4):
    """One heatmap per annotator: true class (rows) × label given (columns), P(label |
    class) as colour and text, the diagonal (correct labels) first in each row."""
    base = alt.Chart(rows).encode(
        x=alt.X("label:N", sort=alt.EncodingSortField("j"), title="label given",
                axis=alt.Axis(labelAngle=-45, labelLimit=80)),
        y=alt.Y("class:N", sort=alt.EncodingSortField("i"), title="class",
                axis=alt.Axis(labelLimit=80)),
        tooltip=[alt.Tooltip("annotator:N"), alt.Tooltip("class:N"),
                 alt.Tooltip("label:N", title="label given"),
                 alt.Tooltip("p:Q", title="P(label | class)", format=".3f")],
    ).properties(width=alt.Step(cell_size), height=alt.Step(cell_size))
    heat = base.mark_rect().encode(color=alt.Color(
        "p:Q", title="P(label | class)", scale=alt.Scale(domain=[0, 1], scheme="blues")))
    text = base.mark_text(fontSize=9).encode(
        text="text:N", color=alt.condition("datum.p > 0.5", alt.value("white"),
                                           alt.value("black")))
    order = list(dict.fromkeys(rows["annotator"]))
    return alt.layer(heat, text, data=rows).facet(
        facet=alt.Facet("annotator:N", sort=order, title="annotator"), columns=columns)


@register(ModelResult)
def model_chart(result: ModelResult, *, annotators=None, limit: int = 12,
                show: str = "both"):
    """Competence (MACE) or accuracy bars beside each annotator's confusion heatmap;
    ``annotators`` picks whom to draw (default: the ``limit`` who rated most), ``show``
    one of "both", "competence", "confusion"."""
    validate.choice("chart", "show", show, ("both", "competence", "confusion"))
    limit = validate.integer("chart", "limit", limit, minimum=1)
    who = _shown(result, annotators, limit)
    bars = competence_chart(competence_rows(result, who))
    if show == "competence":
        return bars
    heat = confusion_chart(confusion_rows(result, who))
    return heat if show == "confusion" else alt.vconcat(bars, heat)
