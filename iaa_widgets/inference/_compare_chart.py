"""The chart of a :class:`~iaa_widgets.inference.compare.ComparisonResult`: each group's
estimate with its interval, and the difference with its interval (two groups)."""
from __future__ import annotations

import altair as alt
import pandas as pd

from ..charts import _finite


def comparison_chart(result, *, width: int = 320) -> alt.VConcatChart:
    """Points at the estimates with rules over their intervals; below, the difference
    (second minus first) with its interval and a rule at 0."""
    rows = pd.DataFrame({"group": [str(g) for g in result.groups],
                         "estimate": [_finite(e) for e in result.estimates],
                         "low": [_finite(c[0]) for c in result.estimate_ci],
                         "high": [_finite(c[1]) for c in result.estimate_ci]})
    y = alt.Y("group:N", sort=list(rows["group"]), title=None)
    tips = [alt.Tooltip(c, format=".4f") for c in ("estimate:Q", "low:Q", "high:Q")]
    groups = alt.layer(
        alt.Chart(rows).mark_rule().encode(x=alt.X("low:Q", title=result.measure), x2="high:Q",
                                           y=y, tooltip=["group:N", *tips]),
        alt.Chart(rows).mark_point(filled=True, size=60).encode(x="estimate:Q", y=y,
                                                                 tooltip=["group:N", *tips]),
    ).properties(width=width, title=f"{result.measure}: {result.method}")
    if len(result.groups) != 2:
        return groups
    diff = pd.DataFrame({"group": [f"{result.groups[1]} − {result.groups[0]}"],
                         "estimate": [_finite(result.difference)],
                         "low": [_finite(result.ci[0])], "high": [_finite(result.ci[1])],
                         "p_value": [_finite(result.p_value)]})
    y2 = alt.Y("group:N", title=None)
    bottom = alt.layer(
        alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(strokeDash=[4, 3]).encode(
            x="zero:Q"),
        alt.Chart(diff).mark_rule().encode(x=alt.X("low:Q", title="difference"), x2="high:Q",
                                           y=y2, tooltip=[*tips, alt.Tooltip("p_value:Q", format=".4f")]),
        alt.Chart(diff).mark_point(filled=True, size=60).encode(x="estimate:Q", y=y2,
                                                                 tooltip=[*tips]),
    ).properties(width=width, title=f"difference, {result.level:.0%} interval; p = "
                 f"{result.p_value:.4g}")
    return alt.vconcat(groups, bottom)
